#include "winback_base64.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

// Each character is classified by its two nibbles (W. Muła's table approach, for the base64url alphabet):
// a byte is in the alphabet when the class bits its low nibble allows share a bit with its high nibble's
// class, and its 6-bit value is the byte plus an offset looked up by its high nibble (with `_`, the one
// character of its row that does not follow the row's offset, corrected). Groups of four values are then
// packed into three bytes by two multiply-adds — (a, b) → a·64 + b, (ab, cd) → ab·4096 + cd — and a byte
// shuffle that puts each group's 24 bits in output order.
//
// High-nibble classes: row 2 (`-`) 0x01, row 3 (digits) 0x02, rows 4 and 6 (`A–O`, `a–o`) 0x04, row 5
// (`P–Z`, `_`) 0x08, row 7 (`p–z`) 0x10; every other row (bytes from 0x80 included) 0.
#define HIGH_CLASSES 0, 0, 0x01, 0x02, 0x04, 0x08, 0x04, 0x10, 0, 0, 0, 0, 0, 0, 0, 0
// The classes each low nibble is valid in: 0 → `0 P p`; 1–9 → digits and letters; A → `J Z j z`; B, C, E →
// rows 4 and 6 only; D → `-` and rows 4 and 6; F → `O o _`.
#define LOW_CLASSES 0x1A, 0x1E, 0x1E, 0x1E, 0x1E, 0x1E, 0x1E, 0x1E, 0x1E, 0x1E, 0x1C, 0x04, 0x04, 0x05, 0x04, 0x0C
// Value minus byte, by high nibble: `-` 62 − 0x2D, digits 52 − 0x30, upper case −65, lower case −71.
#define ROW_OFFSETS 0, 0, 17, 4, -65, -65, -71, -71, 0, 0, 0, 0, 0, 0, 0, 0
// `_` (0x5F, value 63) is in the upper-case row: −65 + 33 = 63 − 0x5F.
#define UNDERSCORE_CORRECTION 33
#define OUTPUT_ORDER 2, 1, 0, 6, 5, 4, 10, 9, 8, 14, 13, 12, -1, -1, -1, -1

__attribute__((target("avx2")))
static size_t decode_blocks_avx2(const uint8_t *source, size_t count, uint8_t *target, size_t capacity, size_t *written_out) {
    const __m256i high_classes = _mm256_setr_epi8(HIGH_CLASSES, HIGH_CLASSES);
    const __m256i low_classes = _mm256_setr_epi8(LOW_CLASSES, LOW_CLASSES);
    const __m256i row_offsets = _mm256_setr_epi8(ROW_OFFSETS, ROW_OFFSETS);
    const __m256i output_order = _mm256_setr_epi8(OUTPUT_ORDER, OUTPUT_ORDER);
    const __m256i nibble = _mm256_set1_epi8(0x0F), underscore = _mm256_set1_epi8('_');
    const __m256i correction = _mm256_set1_epi8(UNDERSCORE_CORRECTION), zero = _mm256_setzero_si256();
    const __m256i pair_weights = _mm256_set1_epi32(0x01400140), quad_weights = _mm256_set1_epi32(0x00011000);
    size_t read = 0, written = 0;
    // Each half of a block stores 16 bytes (12 of them output): the second half's store ends at written + 28.
    while (read + 32 <= count && written + 28 <= capacity) {
        const __m256i text = _mm256_loadu_si256((const __m256i *)(source + read));
        const __m256i high = _mm256_and_si256(_mm256_srli_epi32(text, 4), nibble);
        const __m256i low = _mm256_and_si256(text, nibble);
        const __m256i classes = _mm256_and_si256(_mm256_shuffle_epi8(low_classes, low), _mm256_shuffle_epi8(high_classes, high));
        if (_mm256_movemask_epi8(_mm256_cmpeq_epi8(classes, zero)) != 0) break;
        const __m256i offsets = _mm256_add_epi8(
            _mm256_shuffle_epi8(row_offsets, high), _mm256_and_si256(_mm256_cmpeq_epi8(text, underscore), correction));
        const __m256i values = _mm256_add_epi8(text, offsets);
        const __m256i groups = _mm256_madd_epi16(_mm256_maddubs_epi16(values, pair_weights), quad_weights);
        const __m256i bytes = _mm256_shuffle_epi8(groups, output_order);
        _mm_storeu_si128((__m128i *)(target + written), _mm256_castsi256_si128(bytes));
        _mm_storeu_si128((__m128i *)(target + written + 12), _mm256_extracti128_si256(bytes, 1));
        read += 32;
        written += 24;
    }
    *written_out = written;
    return read;
}

// The AVX2 loop's steps at 16 characters (the same tables and constants, one store per block): the block
// after the last whole 32, and every block on a CPU without AVX2. A change to one loop goes to both.
__attribute__((target("ssse3")))
static size_t decode_blocks_ssse3(const uint8_t *source, size_t count, uint8_t *target, size_t capacity, size_t read, size_t written) {
    const __m128i high_classes = _mm_setr_epi8(HIGH_CLASSES);
    const __m128i low_classes = _mm_setr_epi8(LOW_CLASSES);
    const __m128i row_offsets = _mm_setr_epi8(ROW_OFFSETS);
    const __m128i output_order = _mm_setr_epi8(OUTPUT_ORDER);
    const __m128i nibble = _mm_set1_epi8(0x0F), underscore = _mm_set1_epi8('_');
    const __m128i correction = _mm_set1_epi8(UNDERSCORE_CORRECTION), zero = _mm_setzero_si128();
    const __m128i pair_weights = _mm_set1_epi32(0x01400140), quad_weights = _mm_set1_epi32(0x00011000);
    while (read + 16 <= count && written + 16 <= capacity) {
        const __m128i text = _mm_loadu_si128((const __m128i *)(source + read));
        const __m128i high = _mm_and_si128(_mm_srli_epi32(text, 4), nibble);
        const __m128i low = _mm_and_si128(text, nibble);
        const __m128i classes = _mm_and_si128(_mm_shuffle_epi8(low_classes, low), _mm_shuffle_epi8(high_classes, high));
        if (_mm_movemask_epi8(_mm_cmpeq_epi8(classes, zero)) != 0) break;
        const __m128i offsets = _mm_add_epi8(_mm_shuffle_epi8(row_offsets, high), _mm_and_si128(_mm_cmpeq_epi8(text, underscore), correction));
        const __m128i values = _mm_add_epi8(text, offsets);
        const __m128i groups = _mm_madd_epi16(_mm_maddubs_epi16(values, pair_weights), quad_weights);
        _mm_storeu_si128((__m128i *)(target + written), _mm_shuffle_epi8(groups, output_order));
        read += 16;
        written += 12;
    }
    return read;
}

/// Bit 0: SSSE3; bit 1: AVX2 usable (CPU and OS); -1 until the first call asks CPUID (threads that race
/// store the same answer).
static int features = -1;

static int detect_features(void) {
    unsigned int eax = 0, ebx = 0, ecx = 0, edx = 0;
    int found = 0;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    if (ecx & bit_SSSE3) found |= 1;
    if ((ecx & bit_OSXSAVE) && (ecx & bit_AVX)) {
        unsigned int low = 0, high = 0;
        __asm__ volatile("xgetbv" : "=a"(low), "=d"(high) : "c"(0));
        if ((low & 6) == 6 && __get_cpuid_max(0, 0) >= 7) {
            __cpuid_count(7, 0, eax, ebx, ecx, edx);
            if (ebx & bit_AVX2) found |= 2;
        }
    }
    return found;
}
#endif

size_t winback_base64url_decode_blocks(const uint8_t *source, size_t count, uint8_t *target, size_t capacity) {
#if defined(__x86_64__)
    int known = __atomic_load_n(&features, __ATOMIC_RELAXED);
    if (known < 0) {
        known = detect_features();
        __atomic_store_n(&features, known, __ATOMIC_RELAXED);
    }
    size_t read = 0, written = 0;
    if (known & 2) read = decode_blocks_avx2(source, count, target, capacity, &written);
    if (known & 1) read = decode_blocks_ssse3(source, count, target, capacity, read, written);
    return read;
#else
    (void)source; (void)count; (void)target; (void)capacity;
    return 0;
#endif
}
