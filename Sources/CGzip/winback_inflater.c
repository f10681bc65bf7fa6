#include "winback_inflater.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "winback_isal.h"

// Error codes of our own, below every zlib and ISA-L code.
#define WINBACK_ZLIB_DATA_ERROR (-1001)
#define WINBACK_ZLIB_MEMORY_ERROR (-1002)
#define WINBACK_ZLIB_OTHER_ERROR (-1003)

#if WINBACK_HAS_ISAL_HEADER
static const winback_isal_functions *isal;
#endif

static winback_inflater_engine_kind chosen_engine;
static pthread_once_t choose_once = PTHREAD_ONCE_INIT;

static void choose_engine(void) {
    chosen_engine = WINBACK_INFLATER_ZLIB;
#if WINBACK_HAS_ISAL_HEADER
    isal = winback_isal_unless_refused("WINBACK_INFLATER");
    if (isal != NULL) chosen_engine = WINBACK_INFLATER_ISAL;
#endif
}

winback_inflater_engine_kind winback_inflater_engine(void) {
    pthread_once(&choose_once, choose_engine);
    return chosen_engine;
}

struct winback_inflater {
    winback_inflater_engine_kind engine;
    z_stream zlib;
#if WINBACK_HAS_ISAL_HEADER
    // ~100 KB of fixed arrays: allocated only for the ISA-L engine.
    struct inflate_state *isal;
#endif
};

winback_inflater *winback_inflater_create(winback_inflater_engine_kind engine) {
    if (engine == WINBACK_INFLATER_ISAL && winback_inflater_engine() != WINBACK_INFLATER_ISAL) return NULL;
    winback_inflater *inflater = calloc(1, sizeof(winback_inflater));
    if (inflater == NULL) return NULL;
    inflater->engine = engine;
#if WINBACK_HAS_ISAL_HEADER
    if (engine == WINBACK_INFLATER_ISAL) {
        inflater->isal = malloc(sizeof(struct inflate_state));
        if (inflater->isal == NULL) {
            free(inflater);
            return NULL;
        }
        winback_inflater_reset(inflater);
        return inflater;
    }
#endif
    // 16 + MAX_WBITS: a gzip wrapper only (a zlib or raw stream is refused, as ISA-L refuses it).
    if (inflateInit2(&inflater->zlib, 16 + MAX_WBITS) != Z_OK) {
        free(inflater);
        return NULL;
    }
    return inflater;
}

void winback_inflater_destroy(winback_inflater *inflater) {
    if (inflater == NULL) return;
#if WINBACK_HAS_ISAL_HEADER
    if (inflater->engine == WINBACK_INFLATER_ISAL) {
        free(inflater->isal);
        free(inflater);
        return;
    }
#endif
    inflateEnd(&inflater->zlib);
    free(inflater);
}

void winback_inflater_reset(winback_inflater *inflater) {
#if WINBACK_HAS_ISAL_HEADER
    if (inflater->engine == WINBACK_INFLATER_ISAL) {
        isal->inflate_init(inflater->isal);
        inflater->isal->crc_flag = ISAL_GZIP;
        return;
    }
#endif
    inflateReset(&inflater->zlib);
}

static int run_zlib(z_stream *stream, const uint8_t *input, size_t input_count, size_t *consumed, uint8_t *output,
                    size_t output_count, size_t *produced) {
    // Callers pass chunks far below 4 GiB; the casts cannot truncate.
    stream->next_in = (Bytef *)input;
    stream->avail_in = (uInt)input_count;
    stream->next_out = output;
    stream->avail_out = (uInt)output_count;
    int status = inflate(stream, Z_NO_FLUSH);
    *consumed = input_count - stream->avail_in;
    *produced = output_count - stream->avail_out;
    switch (status) {
    case Z_OK: return 0;
    case Z_BUF_ERROR: return 0; // no progress possible until more input or output space arrives
    case Z_STREAM_END: return WINBACK_INFLATER_MEMBER_END;
    case Z_DATA_ERROR: return WINBACK_ZLIB_DATA_ERROR;
    case Z_MEM_ERROR: return WINBACK_ZLIB_MEMORY_ERROR;
    default: return WINBACK_ZLIB_OTHER_ERROR;
    }
}

int winback_inflater_run(winback_inflater *inflater, const uint8_t *input, size_t input_count, size_t *consumed,
                         uint8_t *output, size_t output_count, size_t *produced) {
#if WINBACK_HAS_ISAL_HEADER
    if (inflater->engine == WINBACK_INFLATER_ISAL) {
        struct inflate_state *state = inflater->isal;
        // Callers pass chunks far below 4 GiB; the casts cannot truncate.
        state->next_in = (uint8_t *)input;
        state->avail_in = (uint32_t)input_count;
        state->next_out = output;
        state->avail_out = (uint32_t)output_count;
        int status = isal->inflate(state);
        *consumed = input_count - state->avail_in;
        *produced = output_count - state->avail_out;
        if (status < 0) return status;
        return state->block_state == ISAL_BLOCK_FINISH ? WINBACK_INFLATER_MEMBER_END : 0;
    }
#endif
    return run_zlib(&inflater->zlib, input, input_count, consumed, output, output_count, produced);
}

const char *winback_inflater_error(int code) {
    switch (code) {
#if WINBACK_HAS_ISAL_HEADER
    case ISAL_INVALID_BLOCK: return "invalid deflate block";
    case ISAL_INVALID_SYMBOL: return "invalid deflate symbol";
    case ISAL_INVALID_LOOKBACK: return "invalid lookback distance";
    case ISAL_INVALID_WRAPPER: return "not a gzip member";
    case ISAL_UNSUPPORTED_METHOD: return "unsupported compression method";
    case ISAL_INCORRECT_CHECKSUM: return "CRC-32 or length mismatch";
#endif
    case WINBACK_ZLIB_DATA_ERROR: return "invalid gzip data, CRC-32 or length mismatch";
    case WINBACK_ZLIB_MEMORY_ERROR: return "out of memory";
    default: return "inflate error";
    }
}
