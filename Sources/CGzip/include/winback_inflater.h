#ifndef WINBACK_INFLATER_H
#define WINBACK_INFLATER_H

#include <stddef.h>
#include <stdint.h>

/// A gzip inflater: the gzip header parsed, each member's CRC-32 and length checked against its trailer.
/// Two engines behind one opaque handle: ISA-L's igzip when it is usable (see `winback_inflater_engine`),
/// zlib otherwise. Both give the same bytes and refuse the same damaged streams.
typedef struct winback_inflater winback_inflater;

/// The member ended: its trailer (CRC-32 and length) matched. Another member may follow.
#define WINBACK_INFLATER_MEMBER_END 1

/// Which engine inflaters get: the first call decides, once per process.
typedef enum {
    /// ISA-L's igzip, loaded at run time (`dlopen` of libisal.so.2; the build saw ISA-L's header).
    WINBACK_INFLATER_ISAL = 1,
    /// The system zlib, linked: always available.
    WINBACK_INFLATER_ZLIB = 2,
} winback_inflater_engine_kind;

/// The engine new inflaters use: ISA-L when the build had its header and the library loads, else zlib.
/// Setting the environment variable WINBACK_INFLATER=zlib before the first call chooses zlib.
winback_inflater_engine_kind winback_inflater_engine(void);

/// A fresh inflater at the start of a gzip member using `engine` (ISA-L falls back to NULL when it is
/// not usable), or NULL when out of memory.
winback_inflater *winback_inflater_create(winback_inflater_engine_kind engine);
void winback_inflater_destroy(winback_inflater *inflater);
/// Starts over at the start of a gzip member (the next member of a concatenated file).
void winback_inflater_reset(winback_inflater *inflater);

/// Inflates from `input` into `output`. Returns 0 when it needs more input or output space,
/// WINBACK_INFLATER_MEMBER_END when the member ended, or a negative error code for a damaged stream.
/// Sets how many bytes it consumed and produced.
int winback_inflater_run(winback_inflater *inflater, const uint8_t *input, size_t input_count, size_t *consumed,
                         uint8_t *output, size_t output_count, size_t *produced);

/// A short description of a negative code from `winback_inflater_run`.
const char *winback_inflater_error(int code);

#endif
