/* func.c — host functions (§4.2.6 function instances, the host kind) and
   the type of any function. */
#include "internal.h"

bool rt_valtype_ok(weft_valtype t) {
    switch (t) {
    case WEFT_I32: case WEFT_I64: case WEFT_F32: case WEFT_F64:
    case WEFT_V128: case WEFT_FUNCREF: case WEFT_EXTERNREF: case WEFT_EXNREF:
        return true;
    }
    return false;
}

weft_func *weft_func_new(weft_store *store, const weft_functype *type,
                         weft_host_fn fn, void *env, void (*finalizer)(void *env)) {
    if (!store || !type || !fn) return NULL;
    if ((type->nparams && !type->params) || (type->nresults && !type->results)) return NULL;
    for (uint32_t i = 0; i < type->nparams; i++)
        if (!rt_valtype_ok(type->params[i])) return NULL;
    for (uint32_t i = 0; i < type->nresults; i++)
        if (!rt_valtype_ok(type->results[i])) return NULL;

    weft_func *f = calloc(1, sizeof *f);
    if (!f) return NULL;
    /* One allocation for params and results, as module types have, and
       one for their public view; never NULL. */
    size_t n = (size_t)type->nparams + type->nresults;
    mod_valtype *types = base_calloc(n + 1, sizeof *types);
    weft_valtype *pub = base_calloc(n + 1, sizeof *pub);
    if (!types || !pub) {
        free(types);
        free(pub);
        free(f);
        return NULL;
    }
    for (uint32_t i = 0; i < type->nparams; i++) types[i] = pub[i] = type->params[i];
    for (uint32_t i = 0; i < type->nresults; i++)
        types[type->nparams + i] = pub[type->nparams + i] = type->results[i];
    f->own_type.nparams = type->nparams;
    f->own_type.nresults = type->nresults;
    f->own_type.params = types;
    f->own_type.results = types + type->nparams;
    f->own_type.pub_params = pub;
    f->type = &f->own_type;
    f->host = fn;
    f->env = env;
    f->finalizer = finalizer;
    f->store = store;
    f->index = UINT32_MAX;
    if (!rt_store_add_func(store, f)) {
        free(types);
        free(pub);
        free(f);
        return NULL;
    }
    return f;
}

void rt_func_destroy(weft_func *f) {
    if (!f) return;
    if (f->finalizer) f->finalizer(f->env);
    free(f->own_type.params);
    free(f->own_type.pub_params);
    free(f);
}

weft_functype weft_func_type(const weft_func *func) {
    weft_functype t = {0, 0, NULL, NULL};
    if (!func || !func->type) return t;
    t.nparams = func->type->nparams;
    t.nresults = func->type->nresults;
    t.params = func->type->pub_params;
    t.results = func->type->pub_params + func->type->nparams;
    return t;
}
