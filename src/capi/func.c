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
    /* Every parameter and result a number (and at most CAPI_SMALL of
       each): calls take the fast path, kinds[] the wasm.h kind of each
       parameter, then each result. */
    bool numeric;
    wasm_valkind_t kinds[];
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

/* Numbers only: 8 bytes of value each way, the kinds checked. */
static weft_status capi_host_call_numeric(weft_caller *caller, capi_hostfn *h, const weft_val *args,
                                          weft_val *results) {
    wasm_val_t a[CAPI_SMALL], r[CAPI_SMALL];
    const wasm_valkind_t *rk = h->kinds + h->nparams;
    for (uint32_t i = 0; i < h->nparams; i++) {
        a[i].kind = h->kinds[i];
        memcpy(&a[i].of, &args[i].of, 8);
    }
    for (uint32_t i = 0; i < h->nresults; i++) {
        r[i].kind = rk[i];
        r[i].of.i64 = 0;
    }
    wasm_val_vec_t av = {h->nparams, a}, rv = {h->nresults, r};
    capi_obj *trap = CAPI_OBJ(h->callback_env ? h->callback_env(h->env, &av, &rv) : h->callback(&av, &rv));
    for (uint32_t i = 0; i < h->nresults && !trap; i++) {
        if (BASE_UNLIKELY(r[i].kind != rk[i])) {
            trap = capi_trap_fmt("host function result %u: a value of the wrong kind (the type says %s)", i,
                                 weft_valtype_name(h->results[i]));
            if (!trap) return WEFT_ERR_NOMEM;
            break;
        }
        memcpy(&results[i].of, &r[i].of, 8);
    }
    if (BASE_UNLIKELY(trap != NULL)) {
        for (uint32_t i = 0; i < h->nresults; i++) wasm_val_delete(&r[i]); /* a ref put where a number goes */
        return capi_host_trap(caller, h->store, trap);
    }
    return WEFT_OK;
}

static weft_status capi_host_call_fast(weft_caller *caller, void *env, const weft_val *args, weft_val *results) {
    return capi_host_call_numeric(caller, env, args, results);
}

/* Any values: references are looked up and counted, v128 refused. */
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
    capi_hostfn *h = calloc(1, sizeof *h + (np + nr) * sizeof(wasm_valkind_t));
    weft_valtype *results = base_calloc(nr + 1, sizeof *results);
    if (!types || !h || !results) goto fail;
    bool numeric = np <= CAPI_SMALL && nr <= CAPI_SMALL;
    for (size_t i = 0; i < np + nr; i++) {
        const wasm_valtype_t *vt = i < np ? type->params.data[i] : type->results.data[i - np];
        if (!vt || !(types[i] = capi_valtype_to_weft(vt->kind))) goto fail;
        h->kinds[i] = vt->kind;
        numeric &= capi_num_kind(types[i]) >= 0;
    }
    memcpy(results, types + np, nr);
    h->store = store;
    h->callback = cb;
    h->callback_env = cb_env;
    h->env = env;
    h->finalizer = finalizer;
    h->nparams = (uint32_t)np;
    h->nresults = (uint32_t)nr;
    h->results = results;
    h->numeric = numeric;
    weft_functype ft = {(uint32_t)np, (uint32_t)nr, types, types + np};
    weft_func *f = weft_func_new(store->store, &ft, numeric ? capi_host_call_fast : capi_host_call, h,
                                 capi_hostfn_free);
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

void capi_sig_free(capi_sig *sig) {
    if (!sig) return;
    free(sig->types);
    free(sig->kinds);
    free(sig);
}

/* The signature of a function object, made on its first call. NULL when
   out of memory. */
static capi_sig *capi_func_sig(capi_obj *o) {
    if (o->sig) return o->sig;
    weft_functype ft = weft_func_type(o->of.func);
    size_t n = (size_t)ft.nparams + ft.nresults;
    capi_sig *sig = calloc(1, sizeof *sig);
    if (!sig) return NULL;
    sig->types = base_calloc(n + 1, sizeof *sig->types);
    sig->kinds = base_calloc(n + 1, sizeof *sig->kinds);
    if (!sig->types || !sig->kinds) {
        capi_sig_free(sig);
        return NULL;
    }
    sig->nparams = ft.nparams;
    sig->nresults = ft.nresults;
    sig->numeric = ft.nparams <= CAPI_SMALL && ft.nresults <= CAPI_SMALL;
    for (size_t i = 0; i < n; i++) {
        weft_valtype t = i < ft.nparams ? ft.params[i] : ft.results[i - ft.nparams];
        sig->types[i] = t;
        sig->kinds[i] = capi_valkind_from_weft(t);
        sig->numeric &= capi_num_kind(t) >= 0;
    }
    return o->sig = sig;
}

static wasm_trap_t *capi_func_call(const wasm_func_t *func, const wasm_val_vec_t *args, wasm_val_vec_t *results);

/* The records of one call from the host (numbers of the fast path, and
   the weft_error a failure is told in): the store's own (store->call)
   while its execution is free, else (a call from inside a host function)
   one of the heap's, so a host re-entering wasm spends little C stack per
   level (issue 39). */
struct capi_call {
    weft_error err;
    weft_val a[CAPI_SMALL], r[CAPI_SMALL];
};

/* The records for a call in `store`; NULL when out of memory. Given back
   with capi_call_end. */
static capi_call *capi_call_begin(wasm_store_t *store) {
    if (store->exec_busy) return malloc(sizeof(capi_call));
    if (!store->call) store->call = malloc(sizeof(capi_call));
    return store->call;
}

static void capi_call_end(wasm_store_t *store, capi_call *c) {
    if (c != store->call) free(c);
}

/* Runs `f` with `c`'s records: a on the way in (na of them), r on the way
   out (nr). weft_func_call on the store's own execution when it is free
   (no atomics, no second check of the arguments: the store is one
   thread's), else weft_func_call itself. NULL when the call returned, else
   the trap (or NULL's stand-in when out of memory). */
static capi_obj *capi_run(wasm_store_t *store, weft_func *f, capi_call *c, const weft_val *a, uint32_t na,
                          weft_val *r, uint32_t nr) {
    weft_status st;
    if (store->exec_busy || (!store->exec && !(store->exec = weft_exec_new(store->store))) ||
        weft_exec_start(store->exec, f, a, na) != WEFT_OK) { /* let weft_func_call say why */
        st = weft_func_call(f, a, na, r, nr, &c->err);
    } else {
        weft_exec *e = store->exec;
        store->exec_busy = true;
        do st = weft_exec_run(e, &c->err);
        while (st == WEFT_SUSPENDED);
        store->exec_busy = false;
        if (st == WEFT_OK) st = weft_exec_results(e, r, nr);
    }
    if (BASE_LIKELY(st == WEFT_OK)) return NULL;
    capi_obj *trap = capi_trap_from_error(store, &c->err, st, capi_func_instance(f));
    return trap ? trap : capi_trap_fmt("out of memory");
}

own wasm_trap_t *wasm_func_call(const wasm_func_t *func, const wasm_val_vec_t *args, wasm_val_vec_t *results) {
    capi_obj *o = CAPI_OBJ(func);
    capi_sig *sig = o && o->kind == CAPI_FUNC && o->of.func ? capi_func_sig(o) : NULL;
    /* The fast path: numbers only, vectors of the exact sizes. */
    if (!sig || !sig->numeric || !args || !results || args->size != sig->nparams ||
        results->size != sig->nresults || (sig->nparams && !args->data) || (sig->nresults && !results->data))
        return capi_func_call(func, args, results);
    for (uint32_t i = 0; i < sig->nparams; i++)
        if (BASE_UNLIKELY(args->data[i].kind != sig->kinds[i])) return capi_func_call(func, args, results);
    wasm_store_t *store = o->store;
    capi_call *c = capi_call_begin(store);
    if (!c) return (wasm_trap_t *)capi_trap_fmt("wasm_func_call: out of memory");
    for (uint32_t i = 0; i < sig->nparams; i++) {
        c->a[i].type = sig->types[i];
        memcpy(&c->a[i].of, &args->data[i].of, 8);
    }
    capi_obj *trap = capi_run(store, o->of.func, c, c->a, sig->nparams, c->r, sig->nresults);
    if (BASE_LIKELY(!trap)) {
        const wasm_valkind_t *rk = sig->kinds + sig->nparams;
        for (uint32_t i = 0; i < sig->nresults; i++) {
            results->data[i].kind = rk[i];
            memcpy(&results->data[i].of, &c->r[i].of, 8);
        }
    }
    capi_call_end(store, c);
    return (wasm_trap_t *)trap;
}

/* Any call: references, v128 refused, one result place per result. */
static wasm_trap_t *capi_func_call(const wasm_func_t *func, const wasm_val_vec_t *args, wasm_val_vec_t *results) {
    weft_func *f = capi_func_of(func);
    if (!f) return (wasm_trap_t *)capi_trap_fmt("wasm_func_call: not a function of a live store");
    wasm_store_t *store = CAPI_OBJ(func)->store;
    weft_functype ft = weft_func_type(f);
    size_t nargs = args ? args->size : 0, nres = results ? results->size : 0;
    if (nargs != ft.nparams || (nargs && !args->data))
        return (wasm_trap_t *)capi_trap_fmt("wasm_func_call: %zu arguments for a function of %u parameters",
                                            nargs, ft.nparams);
    /* The results vector must have one place per result, as wasmtime's
       Func::call requires: a shorter one used to drop the rest unseen. */
    if (nres != ft.nresults)
        return (wasm_trap_t *)capi_trap_fmt("wasm_func_call: a results vector of size %zu for a function of %u "
                                            "results (make it with wasm_func_result_arity)", nres, ft.nresults);
    if (nres && !results->data)
        return (wasm_trap_t *)capi_trap_fmt("wasm_func_call: a results vector of size %zu without data", nres);
    capi_call *c = capi_call_begin(store);
    weft_val *a = !c ? NULL : nargs <= CAPI_SMALL ? c->a : base_calloc(nargs, sizeof *a);
    weft_val *r = !c ? NULL : nres <= CAPI_SMALL ? c->r : base_calloc(nres, sizeof *r);
    capi_obj *trap = NULL;
    if (!a || !r) {
        trap = capi_trap_fmt("wasm_func_call: out of memory");
        goto out;
    }
    for (size_t i = 0; i < nargs; i++) {
        const char *why = NULL;
        int num = capi_num_kind(ft.params[i]);
        if (num >= 0 && args->data[i].kind == num) { /* a number: its 8 bytes */
            a[i].type = ft.params[i];
            memcpy(&a[i].of, &args->data[i].of, 8);
            continue;
        }
        if (!capi_val_to_weft(store, &args->data[i], ft.params[i], &a[i], &why)) {
            trap = capi_trap_fmt("wasm_func_call: argument %zu: %s (the type says %s)", i, why,
                                 weft_valtype_name(ft.params[i]));
            goto out;
        }
    }
    trap = capi_run(store, f, c, a, (uint32_t)nargs, r, (uint32_t)nres);
    if (trap) goto out;
    for (size_t i = 0; i < nres; i++) {
        int num = capi_num_kind(r[i].type);
        if (num >= 0) {
            results->data[i].kind = (wasm_valkind_t)num;
            memcpy(&results->data[i].of, &r[i].of, 8);
            continue;
        }
        if (!capi_val_from_weft(store, &r[i], &results->data[i], true)) {
            for (size_t j = 0; j < i; j++) wasm_val_delete(&results->data[j]);
            trap = capi_trap_fmt(r[i].type == WEFT_V128 ? "wasm_func_call: result %zu is a v128, which wasm.h cannot hold"
                                                        : "wasm_func_call: out of memory (result %zu)", i);
            goto out;
        }
    }
out:
    if (c && a && a != c->a) free(a);
    if (c && r && r != c->r) free(r);
    if (c) capi_call_end(store, c);
    return (wasm_trap_t *)trap;
}
