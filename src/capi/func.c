/* func.c — functions: host functions (a weft host function whose env is a
   capi_hostfn, calling the wasm.h callback through capi_host_call), their
   types, and calls from the host (wasm_func_call on weft_func_call).

   A trap a callback returns becomes the store's pending trap and the weft
   call traps with its message (WEFT_TRAP_HOST); the wasm_func_call (or
   wasm_instance_new) around it takes that same object back and adds the
   frames (trap.c), so the host sees its own trap, host info and all. */
#include "capi.h"

/* The env of a host function's weft_func. Freed with the weft store. */
typedef struct capi_hostfn {
    wasm_store_t *store;
    wasm_func_callback_t callback;              /* one of the two */
    wasm_func_callback_with_env_t callback_env;
    void *env;
    void (*finalizer)(void *);
    uint32_t nparams, nresults;
    weft_valtype *results;                      /* nresults entries */
} capi_hostfn;

static void capi_hostfn_free(void *p) {
    capi_hostfn *h = p;
    if (h->finalizer) h->finalizer(h->env);
    free(h->results);
    free(h);
}

/* Arrays of up to CAPI_SMALL values live on the C stack. */
#define CAPI_SMALL 16

/* Traps the weft call with `o`'s message and keeps `o` as the pending trap. */
static weft_status capi_host_trap(weft_caller *caller, wasm_store_t *store, capi_obj *o) {
    wasm_message_t msg;
    wasm_trap_message((wasm_trap_t *)o, &msg);
    weft_caller_trap(caller, "%s", msg.size ? msg.data : "host function trapped");
    wasm_byte_vec_delete(&msg);
    capi_obj_unref(store->pending_trap);
    store->pending_trap = o;
    return WEFT_ERR_TRAP;
}

static weft_status capi_host_call(weft_caller *caller, void *env, const weft_val *args, weft_val *results) {
    capi_hostfn *h = env;
    wasm_store_t *store = h->store;
    wasm_val_t small_a[CAPI_SMALL], small_r[CAPI_SMALL];
    wasm_val_t *a = h->nparams <= CAPI_SMALL ? small_a : base_calloc(h->nparams, sizeof *a);
    wasm_val_t *r = h->nresults <= CAPI_SMALL ? small_r : base_calloc(h->nresults, sizeof *r);
    weft_status st = WEFT_OK;
    capi_obj *trap = NULL;
    if (!a || !r) {
        trap = capi_trap_fmt("out of memory calling a host function");
        goto out;
    }
    /* Arguments are lent to the callback: no counts change. */
    for (uint32_t i = 0; i < h->nparams; i++)
        if (!capi_val_from_weft(store, &args[i], &a[i], false)) {
            trap = capi_trap_fmt("host function argument %u: %s", i,
                                 args[i].type == WEFT_V128 ? "v128 has no wasm.h form" : "out of memory");
            if (!trap) st = WEFT_ERR_NOMEM;
            goto out;
        }
    for (uint32_t i = 0; i < h->nresults; i++) {
        r[i].kind = capi_valkind_from_weft(h->results[i]);
        r[i].of.i64 = 0;
    }
    wasm_val_vec_t av = {h->nparams, h->nparams ? a : NULL};
    wasm_val_vec_t rv = {h->nresults, h->nresults ? r : NULL};
    trap = CAPI_OBJ(h->callback_env ? h->callback_env(h->env, &av, &rv) : h->callback(&av, &rv));
    /* Results are the callback's to give: converted, then let go of (an
       externref's object is held by the store, capi_val_to_weft). */
    for (uint32_t i = 0; i < h->nresults && !trap; i++) {
        const char *why = NULL;
        if (!capi_val_to_weft(store, &r[i], h->results[i], &results[i], &why)) {
            trap = capi_trap_fmt("host function result %u: %s (the type says %s)", i, why,
                                 weft_valtype_name(h->results[i]));
            if (!trap) st = WEFT_ERR_NOMEM;
        }
    }
    for (uint32_t i = 0; i < h->nresults; i++) wasm_val_delete(&r[i]);
out:
    if (trap) st = capi_host_trap(caller, store, trap);
    else if (!a || !r) st = WEFT_ERR_NOMEM; /* not even the trap could be made */
    if (a && a != small_a) free(a);
    if (r && r != small_r) free(r);
    return st;
}

static wasm_func_t *capi_func_new(wasm_store_t *store, const wasm_functype_t *type, wasm_func_callback_t cb,
                                  wasm_func_callback_with_env_t cb_env, void *env, void (*finalizer)(void *)) {
    if (!store || !type || (!cb && !cb_env)) return NULL;
    size_t np = type->params.size, nr = type->results.size;
    if (np > UINT32_MAX || nr > UINT32_MAX) return NULL;
    weft_valtype *types = base_calloc(np + nr + 1, sizeof *types);
    capi_hostfn *h = calloc(1, sizeof *h);
    weft_valtype *results = base_calloc(nr + 1, sizeof *results);
    if (!types || !h || !results) goto fail;
    for (size_t i = 0; i < np + nr; i++) {
        const wasm_valtype_t *vt = i < np ? type->params.data[i] : type->results.data[i - np];
        if (!vt || !(types[i] = capi_valtype_to_weft(vt->kind))) goto fail;
    }
    memcpy(results, types + np, nr);
    *h = (capi_hostfn){store, cb, cb_env, env, finalizer, (uint32_t)np, (uint32_t)nr, results};
    weft_functype ft = {(uint32_t)np, (uint32_t)nr, types, types + np};
    weft_func *f = weft_func_new(store->store, &ft, capi_host_call, h, capi_hostfn_free);
    if (!f) goto fail;
    free(types);
    /* From here the weft store owns h (and calls the finalizer). */
    return (wasm_func_t *)capi_obj_ref(capi_store_obj(store, CAPI_FUNC, f));
fail:
    free(types);
    free(h);
    free(results);
    return NULL;
}

own wasm_func_t *wasm_func_new(wasm_store_t *store, const wasm_functype_t *type, wasm_func_callback_t callback) {
    return capi_func_new(store, type, callback, NULL, NULL, NULL);
}

own wasm_func_t *wasm_func_new_with_env(wasm_store_t *store, const wasm_functype_t *type,
                                        wasm_func_callback_with_env_t callback, void *env,
                                        void (*finalizer)(void *)) {
    return capi_func_new(store, type, NULL, callback, env, finalizer);
}

static weft_func *capi_func_of(const wasm_func_t *func) {
    const capi_obj *o = CAPI_OBJ(func);
    return o && o->kind == CAPI_FUNC ? o->of.func : NULL;
}

own wasm_functype_t *wasm_func_type(const wasm_func_t *func) {
    weft_func *f = capi_func_of(func);
    if (!f) return NULL;
    weft_functype ft = weft_func_type(f);
    return capi_functype_from_weft(&ft);
}

size_t wasm_func_param_arity(const wasm_func_t *func) {
    weft_func *f = capi_func_of(func);
    return f ? weft_func_type(f).nparams : 0;
}

size_t wasm_func_result_arity(const wasm_func_t *func) {
    weft_func *f = capi_func_of(func);
    return f ? weft_func_type(f).nresults : 0;
}

own wasm_trap_t *wasm_func_call(const wasm_func_t *func, const wasm_val_vec_t *args, wasm_val_vec_t *results) {
    weft_func *f = capi_func_of(func);
    if (!f) return (wasm_trap_t *)capi_trap_fmt("wasm_func_call: not a function of a live store");
    wasm_store_t *store = CAPI_OBJ(func)->store;
    weft_functype ft = weft_func_type(f);
    size_t nargs = args ? args->size : 0, nres = results ? results->size : 0;
    if (nargs != ft.nparams || (nargs && !args->data))
        return (wasm_trap_t *)capi_trap_fmt("wasm_func_call: %zu arguments for a function of %u parameters",
                                            nargs, ft.nparams);
    if (nres && !results->data)
        return (wasm_trap_t *)capi_trap_fmt("wasm_func_call: a results vector of size %zu without data", nres);
    /* Results that do not fit are dropped, as wasmtime and V8 do (upstream's
       trap example passes an empty vector for a function with a result). */
    size_t nkeep = nres < ft.nresults ? nres : ft.nresults;
    nres = ft.nresults;
    weft_val small_a[CAPI_SMALL], small_r[CAPI_SMALL];
    weft_val *a = nargs <= CAPI_SMALL ? small_a : base_calloc(nargs, sizeof *a);
    weft_val *r = nres <= CAPI_SMALL ? small_r : base_calloc(nres, sizeof *r);
    capi_obj *trap = NULL;
    if (!a || !r) {
        trap = capi_trap_fmt("wasm_func_call: out of memory");
        goto out;
    }
    for (size_t i = 0; i < nargs; i++) {
        const char *why = NULL;
        if (!capi_val_to_weft(store, &args->data[i], ft.params[i], &a[i], &why)) {
            trap = capi_trap_fmt("wasm_func_call: argument %zu: %s (the type says %s)", i, why,
                                 weft_valtype_name(ft.params[i]));
            goto out;
        }
    }
    weft_error err;
    weft_status st = weft_func_call(f, a, nargs, r, nres, &err);
    if (st != WEFT_OK) {
        trap = capi_trap_from_error(store, &err, st, capi_func_instance(f));
        if (!trap) trap = capi_trap_fmt("out of memory");
        goto out;
    }
    for (size_t i = 0; i < nkeep; i++)
        if (!capi_val_from_weft(store, &r[i], &results->data[i], true)) {
            for (size_t j = 0; j < i; j++) wasm_val_delete(&results->data[j]);
            trap = capi_trap_fmt(r[i].type == WEFT_V128 ? "wasm_func_call: result %zu is a v128, which wasm.h cannot hold"
                                                        : "wasm_func_call: out of memory (result %zu)", i);
            goto out;
        }
out:
    if (a && a != small_a) free(a);
    if (r && r != small_r) free(r);
    return (wasm_trap_t *)trap;
}
