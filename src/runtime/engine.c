/* engine.c — the engine: a copy of the configuration with defaults filled in. */
#include "internal.h"

#define RT_DEFAULT_STACK_BYTES (8u << 20) /* 8 MiB of operand/frame stack */

const char *weft_version(void) { return WEFT_VERSION; }

uint32_t weft_features_supported(void) { return BASE_FEATURES_SUPPORTED | WEFT_FEATURE_COMPACT_IMPORTS; }

const char *weft_feature_name(uint32_t feature) {
    switch (feature) {
    case WEFT_FEATURE_THREADS: return "threads";
    case WEFT_FEATURE_SIMD: return "simd";
    case WEFT_FEATURE_EXTENDED_CONST: return "extended-const";
    case WEFT_FEATURE_MULTI_MEMORY: return "multi-memory";
    case WEFT_FEATURE_MEMORY64: return "memory64";
    case WEFT_FEATURE_TAIL_CALL: return "tail-call";
    case WEFT_FEATURE_EXCEPTIONS: return "exceptions";
    case WEFT_FEATURE_FUNCTION_REFERENCES: return "function-references";
    case WEFT_FEATURE_RELAXED_SIMD: return "relaxed-simd";
    case WEFT_FEATURE_COMPACT_IMPORTS: return "compact-imports";
    }
    return NULL;
}

weft_engine *weft_engine_new(const weft_config *config) {
    weft_engine *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    if (config) e->config = *config;
    if (e->config.max_stack_bytes == 0) e->config.max_stack_bytes = RT_DEFAULT_STACK_BYTES;
    /* max_call_depth 0 stays 0: executions derive it from the stack size. */
    /* max_memory_bytes 0 stays 0: no bound beyond each memory's own. */
    e->mem_pool = rt_mem_pool_new(); /* NULL: memories are simply unmapped */
    return e;
}

void weft_engine_free(weft_engine *engine) {
    if (!engine) return;
    rt_mem_pool_free(engine->mem_pool);
    free(engine);
}
