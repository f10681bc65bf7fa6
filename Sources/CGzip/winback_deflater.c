#include "winback_deflater.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "winback_isal.h"

#if WINBACK_HAS_ISAL_HEADER
static const winback_isal_functions *isal;
#endif

static winback_deflater_engine_kind chosen_engine;
static pthread_once_t choose_once = PTHREAD_ONCE_INIT;

static void choose_engine(void) {
    chosen_engine = WINBACK_DEFLATER_ZLIB;
#if WINBACK_HAS_ISAL_HEADER
    isal = winback_isal_unless_refused("WINBACK_DEFLATER");
    if (isal != NULL) chosen_engine = WINBACK_DEFLATER_ISAL;
#endif
}

winback_deflater_engine_kind winback_deflater_engine(void) {
    pthread_once(&choose_once, choose_engine);
    return chosen_engine;
}

size_t winback_gzip_member_bound(size_t input_count) {
    // zlib's bound for a gzip wrapper (deflateBound: the input, 5 bytes per 16 KiB stored block and more,
    // header and trailer) covers ISA-L too: it falls back to stored blocks of up to 64 KiB.
    return input_count + (input_count >> 12) + (input_count >> 14) + (input_count >> 25) + 13 + 18 + 64;
}

static int gzip_with_zlib(int level, const uint8_t *input, size_t input_count, uint8_t *output, size_t capacity,
                          size_t *produced) {
    z_stream stream;
    memset(&stream, 0, sizeof(stream));
    if (deflateInit2(&stream, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) return -2;
    // Pages are far below 4 GiB (a row group's column); the casts cannot truncate.
    stream.next_in = (Bytef *)input;
    stream.avail_in = (uInt)input_count;
    stream.next_out = output;
    stream.avail_out = (uInt)capacity;
    int status = deflate(&stream, Z_FINISH);
    *produced = capacity - stream.avail_out;
    deflateEnd(&stream);
    return status == Z_STREAM_END ? 0 : -3;
}

#if WINBACK_HAS_ISAL_HEADER
static int gzip_with_isal(const winback_isal_functions *isal, const uint8_t *input, size_t input_count,
                          uint8_t *output, size_t capacity, size_t *produced) {
    struct isal_zstream *stream = malloc(sizeof(struct isal_zstream));
    // Zeroed: a hash table left as it was allocated can steer igzip to other (valid) matches, so the same page
    // could compress to other bytes from run to run; a zeroed one makes the file a function of its rows.
    uint8_t *level_buffer = calloc(1, ISAL_DEF_LVL1_DEFAULT);
    if (stream == NULL || level_buffer == NULL) {
        free(stream);
        free(level_buffer);
        return -2;
    }
    isal->deflate_init(stream);
    stream->level = 1;
    stream->level_buf = level_buffer;
    stream->level_buf_size = ISAL_DEF_LVL1_DEFAULT;
    stream->gzip_flag = IGZIP_GZIP;
    stream->end_of_stream = 1;
    stream->flush = NO_FLUSH;
    stream->next_in = (uint8_t *)input;
    stream->avail_in = (uint32_t)input_count;
    stream->next_out = output;
    stream->avail_out = (uint32_t)capacity;
    int status = COMP_OK;
    while (status == COMP_OK && stream->internal_state.state != ZSTATE_END && stream->avail_out > 0) {
        status = isal->deflate(stream);
    }
    int result = status == COMP_OK && stream->internal_state.state == ZSTATE_END ? 0 : -3;
    *produced = capacity - stream->avail_out;
    free(level_buffer);
    free(stream);
    return result;
}
#endif

int winback_gzip_member(winback_deflater_engine_kind engine, int zlib_level, const uint8_t *input, size_t input_count,
                        uint8_t *output, size_t output_capacity, size_t *produced) {
    *produced = 0;
    if (engine == WINBACK_DEFLATER_ISAL) {
        if (winback_deflater_engine() != WINBACK_DEFLATER_ISAL) return -1;
#if WINBACK_HAS_ISAL_HEADER
        if (zlib_level > 0) {
            return gzip_with_isal(isal, input, input_count, output, output_capacity, produced);
        }
#endif
    }
    return gzip_with_zlib(zlib_level, input, input_count, output, output_capacity, produced);
}
