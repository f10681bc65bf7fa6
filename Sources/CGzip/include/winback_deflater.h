#ifndef WINBACK_DEFLATER_H
#define WINBACK_DEFLATER_H

#include <stddef.h>
#include <stdint.h>

/// One-shot gzip compression of a buffer held whole in memory (a Parquet page): one gzip member, header and
/// CRC-32/length trailer included. Two engines, chosen like the inflater's: ISA-L's igzip when it is usable,
/// zlib otherwise. Their outputs differ in bytes but inflate to the same input.
typedef enum {
    /// ISA-L's igzip at its level 1 (loaded at run time; the build saw ISA-L's header).
    WINBACK_DEFLATER_ISAL = 1,
    /// The system zlib at the level asked for: always available.
    WINBACK_DEFLATER_ZLIB = 2,
} winback_deflater_engine_kind;

/// The engine to use unless told otherwise: ISA-L when the build had its header and the library loads, else
/// zlib. Setting the environment variable WINBACK_DEFLATER=zlib before the first call chooses zlib.
winback_deflater_engine_kind winback_deflater_engine(void);

/// The most bytes `winback_gzip_member` can produce for `input_count` bytes, with either engine.
size_t winback_gzip_member_bound(size_t input_count);

/// Compresses `input` into `output` (room for at least `winback_gzip_member_bound(input_count)` bytes) as
/// one gzip member. `zlib_level` (0–9) is zlib's level; ISA-L compresses at its level 1 for any level from 1
/// (level 0, stored blocks, is always zlib's). Returns 0 and sets `produced`, or a negative code: -1 the engine
/// is not usable, -2 out of memory, -3 the engine failed.
int winback_gzip_member(winback_deflater_engine_kind engine, int zlib_level, const uint8_t *input, size_t input_count,
                        uint8_t *output, size_t output_capacity, size_t *produced);

#endif
