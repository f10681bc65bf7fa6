#include "winback_base64.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

/// Translates 16 characters to their 6-bit values by range (signed compares: a byte from 0x80 up is
/// negative and falls in no range), then packs each group of four into three bytes with the multiply-add
/// steps of W. Muła's SIMD base64 decoder: (a, b) → a·64 + b, (ab, cd) → ab·4096 + cd, then a byte
/// shuffle puts each group's 24 bits in output order.
__attribute__((target("ssse3")))
static size_t decode_blocks_ssse3(const uint8_t *source, size_t count, uint8_t *target, size_t capacity) {
    const __m128i before_upper = _mm_set1_epi8('A' - 1), after_upper = _mm_set1_epi8('Z' + 1);
    const __m128i before_lower = _mm_set1_epi8('a' - 1), after_lower = _mm_set1_epi8('z' + 1);
    const __m128i before_digit = _mm_set1_epi8('0' - 1), after_digit = _mm_set1_epi8('9' + 1);
    const __m128i dash = _mm_set1_epi8('-'), underscore = _mm_set1_epi8('_');
    const __m128i upper_offset = _mm_set1_epi8(-65), lower_offset = _mm_set1_epi8(-71), digit_offset = _mm_set1_epi8(4);
    const __m128i dash_offset = _mm_set1_epi8(62 - '-'), underscore_offset = _mm_set1_epi8(63 - '_');
    const __m128i pair_weights = _mm_set1_epi32(0x01400140);
    const __m128i quad_weights = _mm_set1_epi32(0x00011000);
    const __m128i output_order = _mm_setr_epi8(2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1);
    size_t read = 0, written = 0;
    while (read + 16 <= count && written + 16 <= capacity) {
        const __m128i text = _mm_loadu_si128((const __m128i *)(source + read));
        const __m128i upper = _mm_and_si128(_mm_cmpgt_epi8(text, before_upper), _mm_cmplt_epi8(text, after_upper));
        const __m128i lower = _mm_and_si128(_mm_cmpgt_epi8(text, before_lower), _mm_cmplt_epi8(text, after_lower));
        const __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(text, before_digit), _mm_cmplt_epi8(text, after_digit));
        const __m128i is_dash = _mm_cmpeq_epi8(text, dash);
        const __m128i is_underscore = _mm_cmpeq_epi8(text, underscore);
        const __m128i known = _mm_or_si128(_mm_or_si128(upper, lower), _mm_or_si128(_mm_or_si128(digit, is_dash), is_underscore));
        if (_mm_movemask_epi8(known) != 0xFFFF) break;
        const __m128i offset = _mm_or_si128(
            _mm_or_si128(_mm_and_si128(upper, upper_offset), _mm_and_si128(lower, lower_offset)),
            _mm_or_si128(_mm_and_si128(digit, digit_offset),
                         _mm_or_si128(_mm_and_si128(is_dash, dash_offset), _mm_and_si128(is_underscore, underscore_offset))));
        const __m128i values = _mm_add_epi8(text, offset);
        const __m128i pairs = _mm_maddubs_epi16(values, pair_weights);
        const __m128i groups = _mm_madd_epi16(pairs, quad_weights);
        _mm_storeu_si128((__m128i *)(target + written), _mm_shuffle_epi8(groups, output_order));
        read += 16;
        written += 12;
    }
    return read;
}

/// 1 with SSSE3, 0 without, -1 until the first call asks CPUID (threads that race store the same answer).
static int has_ssse3 = -1;
#endif

size_t winback_base64url_decode_blocks(const uint8_t *source, size_t count, uint8_t *target, size_t capacity) {
#if defined(__x86_64__)
    int known = __atomic_load_n(&has_ssse3, __ATOMIC_RELAXED);
    if (known < 0) {
        unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
        known = __get_cpuid(1, &eax, &ebx, &ecx, &edx) && (ecx & bit_SSSE3) ? 1 : 0;
        __atomic_store_n(&has_ssse3, known, __ATOMIC_RELAXED);
    }
    if (known) return decode_blocks_ssse3(source, count, target, capacity);
#else
    (void)source; (void)count; (void)target; (void)capacity;
#endif
    return 0;
}
