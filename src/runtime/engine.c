/* engine.c — the engine: a copy of the configuration with defaults filled in. */
#include "internal.h"

#define RT_DEFAULT_STACK_BYTES (8u << 20) /* 8 MiB of operand/frame stack */
#define RT_DEFAULT_CALL_DEPTH 100000u

weft_engine *weft_engine_new(const weft_config *config) {
    weft_engine *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    if (config) e->config = *config;
    if (e->config.max_stack_bytes == 0) e->config.max_stack_bytes = RT_DEFAULT_STACK_BYTES;
    if (e->config.max_call_depth == 0) e->config.max_call_depth = RT_DEFAULT_CALL_DEPTH;
    /* max_memory_bytes 0 stays 0: no bound beyond each memory's own. */
    return e;
}

void weft_engine_free(weft_engine *engine) {
    free(engine);
}
