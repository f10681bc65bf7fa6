#ifndef WINBACK_INFLATER_H
#define WINBACK_INFLATER_H

#include <stddef.h>
#include <stdint.h>

/// A gzip inflater over ISA-L's igzip (libisal): gzip header parsed, CRC-32 and length checked.
/// The ISA-L state is ~100 KB of fixed arrays, so it stays behind this opaque handle.
typedef struct winback_inflater winback_inflater;

/// The member ended: its trailer (CRC-32 and length) matched. Another member may follow.
#define WINBACK_INFLATER_MEMBER_END 1

/// A fresh inflater at the start of a gzip member, or NULL when out of memory.
winback_inflater *winback_inflater_create(void);
void winback_inflater_destroy(winback_inflater *inflater);
/// Starts over at the start of a gzip member (the next member of a concatenated file).
void winback_inflater_reset(winback_inflater *inflater);

/// Inflates from `input` into `output`. Returns 0 when it needs more input or output space,
/// WINBACK_INFLATER_MEMBER_END when the member ended, or a negative ISA-L error code
/// (ISAL_INVALID_BLOCK … ISAL_INCORRECT_CHECKSUM). Sets how many bytes it consumed and produced.
int winback_inflater_run(winback_inflater *inflater, const uint8_t *input, size_t input_count, size_t *consumed,
                         uint8_t *output, size_t output_count, size_t *produced);

/// A short description of a negative code from `winback_inflater_run`.
const char *winback_inflater_error(int code);

#endif
