#ifndef WINBACK_BASE64_H
#define WINBACK_BASE64_H

#include <stddef.h>
#include <stdint.h>

/// Decodes base64url (alphabet `A–Z a–z 0–9 - _`, no padding) 32 characters at a time with AVX2 and then
/// 16 at a time with SSSE3, 3 bytes per 4 characters, from the start of `source` while a whole block fits
/// in `count`, its stores fit in `capacity` bytes of `target`, and every character of the block is in the
/// alphabet.
///
/// Returns the number of characters decoded (a multiple of 16): 0 on a CPU without SSSE3 or another
/// architecture. The caller decodes the rest, including the block holding a character outside the
/// alphabet, with its own loop (which names that failure). Up to 4 bytes after the last block's 12 are
/// overwritten (within `capacity`).
size_t winback_base64url_decode_blocks(const uint8_t *source, size_t count, uint8_t *target, size_t capacity);

#endif
