/*
 * api.c — component instances through weft.h: instantiate, run a
 * command's wasi:cli/run, free. The WASI 0.2 host that satisfies the
 * imports is the wasip2 layer's (src/wasip2/command.c), above this one:
 * it hands its host instances and a destructor for its state.
 */
#include <stdlib.h>
#include <string.h>

#include "../base/base.h"
#include "api.h"

weft_status cm_api_instantiate(weft_store *store, weft_component *component,
                               const cm_host_env *env, void *host, void (*host_free)(void *),
                               weft_component_instance **out, weft_error *err) {
    base_error_clear(err);
    if (!out || !store || !component) {
        if (host_free) host_free(host);
        return base_fail(err, WEFT_ERR_MISUSE, "weft_component_instantiate: NULL argument");
    }
    *out = NULL;
    weft_component_instance *ci = base_calloc(1, sizeof *ci);
    if (!ci) {
        if (host_free) host_free(host);
        return base_fail(err, WEFT_ERR_NOMEM, "out of memory instantiating a component");
    }
    ci->store = store;
    ci->component = weft_component_retain(component);
    ci->host = host;
    ci->host_free = host_free;
    weft_status rc = cm_instantiate(store, component->root, env, &ci->inst, err);
    if (rc != WEFT_OK) {
        weft_component_instance_free(ci);
        return rc;
    }
    *out = ci;
    return WEFT_OK;
}

void weft_component_instance_free(weft_component_instance *ci) {
    if (!ci) return;
    cm_inst_free(ci->inst);
    if (ci->host_free) ci->host_free(ci->host);
    weft_component_release(ci->component);
    free(ci);
}

/* The export that is the command's entry: "wasi:cli/run@0.2.x" (any
   0.2 version, as wasmtime runs them), an instance with `run`. */
static cm_func *find_run(cm_inst *inst) {
    static const char prefix[] = "wasi:cli/run@0.2.";
    for (uint32_t i = 0; i < inst->exports.n; i++) {
        const cm_rexport *x = &inst->exports.exports[i];
        if (x->sort != CM_INSTANCE || x->name.len < sizeof prefix - 1 ||
            memcmp(x->name.s, prefix, sizeof prefix - 1) != 0)
            continue;
        const cm_rexport *run = cm_rinst_get(x->item.inst, "run", 3);
        if (run && run->sort == CM_FUNC) return run->item.func;
    }
    return NULL;
}

weft_status weft_component_run(weft_component_instance *ci, int32_t *exit_code, weft_error *err) {
    base_error_clear(err);
    if (!ci || !exit_code) return base_fail(err, WEFT_ERR_MISUSE, "weft_component_run: NULL argument");
    cm_func *run = find_run(ci->inst);
    if (!run)
        return base_fail(err, WEFT_ERR_NOT_FOUND,
                         "the component is not a command: it exports no wasi:cli/run@0.2.x with "
                         "a `run` function");
    /* run: func() -> result (wasi:cli/run) */
    const cm_functype *ft = run->type;
    if (ft->nparams != 0 || !ft->result || ft->result->kind != CM_RESULT || ft->result->elem ||
        ft->result->elem2)
        return base_fail(err, WEFT_ERR_LINK, "wasi:cli/run's `run` has not the type func() -> result");
    cm_arena arena = {.limit = (size_t)1 << 20};
    cm_val result;
    memset(&result, 0, sizeof result);
    weft_status rc = cm_call(run, NULL, NULL, NULL, &result, &arena, err);
    cm_arena_free(&arena);
    if (rc == WEFT_ERR_EXIT) {
        *exit_code = err ? err->exit_code : 0;
        return WEFT_OK;
    }
    if (rc != WEFT_OK) return rc;
    *exit_code = result.v.c.index == 0 ? 0 : 1;
    return WEFT_OK;
}
