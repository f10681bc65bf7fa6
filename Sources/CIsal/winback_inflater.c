#include "winback_inflater.h"

#include <isa-l/igzip_lib.h>
#include <stdlib.h>

struct winback_inflater {
    struct inflate_state state;
};

winback_inflater *winback_inflater_create(void) {
    winback_inflater *inflater = malloc(sizeof(winback_inflater));
    if (inflater != NULL) winback_inflater_reset(inflater);
    return inflater;
}

void winback_inflater_destroy(winback_inflater *inflater) { free(inflater); }

void winback_inflater_reset(winback_inflater *inflater) {
    isal_inflate_init(&inflater->state);
    inflater->state.crc_flag = ISAL_GZIP;
}

int winback_inflater_run(winback_inflater *inflater, const uint8_t *input, size_t input_count, size_t *consumed,
                         uint8_t *output, size_t output_count, size_t *produced) {
    struct inflate_state *state = &inflater->state;
    // Callers pass chunks far below 4 GiB; the casts cannot truncate.
    state->next_in = (uint8_t *)input;
    state->avail_in = (uint32_t)input_count;
    state->next_out = output;
    state->avail_out = (uint32_t)output_count;
    int status = isal_inflate(state);
    *consumed = input_count - state->avail_in;
    *produced = output_count - state->avail_out;
    if (status < 0) return status;
    return state->block_state == ISAL_BLOCK_FINISH ? WINBACK_INFLATER_MEMBER_END : 0;
}

const char *winback_inflater_error(int code) {
    switch (code) {
    case ISAL_INVALID_BLOCK: return "invalid deflate block";
    case ISAL_INVALID_SYMBOL: return "invalid deflate symbol";
    case ISAL_INVALID_LOOKBACK: return "invalid lookback distance";
    case ISAL_INVALID_WRAPPER: return "not a gzip member";
    case ISAL_UNSUPPORTED_METHOD: return "unsupported compression method";
    case ISAL_INCORRECT_CHECKSUM: return "CRC-32 or length mismatch";
    default: return "inflate error";
    }
}
