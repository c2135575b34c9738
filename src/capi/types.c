/* types.c — the type objects of wasm.h (value, function, global, table,
   memory, extern, import and export types): plain data, owned by whoever
   holds them, and their conversions from weft.h's types. */
#include "capi.h"

/* ---- value kinds ---- */

weft_valtype capi_valtype_to_weft(wasm_valkind_t kind) {
    switch (kind) {
    case WASM_I32: return WEFT_I32;
    case WASM_I64: return WEFT_I64;
    case WASM_F32: return WEFT_F32;
    case WASM_F64: return WEFT_F64;
    case WASM_V128: return WEFT_V128;
    case WASM_EXTERNREF: return WEFT_EXTERNREF;
    case WASM_FUNCREF: return WEFT_FUNCREF;
    }
    return 0;
}

wasm_valkind_t capi_valkind_from_weft(weft_valtype type) {
    switch (type) {
    case WEFT_I32: return WASM_I32;
    case WEFT_I64: return WASM_I64;
    case WEFT_F32: return WASM_F32;
    case WEFT_F64: return WASM_F64;
    case WEFT_V128: return WASM_V128;
    case WEFT_EXTERNREF: return WASM_EXTERNREF;
    case WEFT_FUNCREF: return WASM_FUNCREF;
    }
    return WASM_I32; /* unreachable: weft has no other value type */
}

wasm_limits_t capi_limits_from_weft(weft_limits l) {
    wasm_limits_t out;
    out.min = l.min > UINT32_MAX ? UINT32_MAX : (uint32_t)l.min;
    out.max = !l.has_max || l.max > UINT32_MAX ? wasm_limits_max_default : (uint32_t)l.max;
    return out;
}

weft_limits capi_limits_to_weft(const wasm_limits_t *l, bool shared) {
    weft_limits out = {.shared = shared};
    out.min = l->min;
    out.has_max = l->max != wasm_limits_max_default;
    out.max = out.has_max ? l->max : 0;
    return out;
}

/* ---- value types ---- */

own wasm_valtype_t *wasm_valtype_new(wasm_valkind_t kind) {
    if (!capi_valtype_to_weft(kind)) return NULL;
    wasm_valtype_t *t = malloc(sizeof *t);
    if (t) t->kind = kind;
    return t;
}

void wasm_valtype_delete(own wasm_valtype_t *type) { free(type); }

own wasm_valtype_t *wasm_valtype_copy(const wasm_valtype_t *type) {
    return type ? wasm_valtype_new(type->kind) : NULL;
}

wasm_valkind_t wasm_valtype_kind(const wasm_valtype_t *type) { return type ? type->kind : WASM_I32; }

/* ---- function types ---- */

own wasm_functype_t *wasm_functype_new(own wasm_valtype_vec_t *params, own wasm_valtype_vec_t *results) {
    wasm_functype_t *t = NULL;
    if (!params || !results) goto fail;
    for (size_t i = 0; i < params->size; i++)
        if (!params->data[i]) goto fail;
    for (size_t i = 0; i < results->size; i++)
        if (!results->data[i]) goto fail;
    t = malloc(sizeof *t);
    if (!t) goto fail;
    t->kind = WASM_EXTERN_FUNC;
    t->params = *params;
    t->results = *results;
    wasm_valtype_vec_new_empty(params);
    wasm_valtype_vec_new_empty(results);
    return t;
fail:
    /* The vectors were given to us: they go either way. */
    wasm_valtype_vec_delete(params);
    wasm_valtype_vec_delete(results);
    return NULL;
}

void wasm_functype_delete(own wasm_functype_t *type) {
    if (!type) return;
    wasm_valtype_vec_delete(&type->params);
    wasm_valtype_vec_delete(&type->results);
    free(type);
}

own wasm_functype_t *wasm_functype_copy(const wasm_functype_t *type) {
    if (!type) return NULL;
    wasm_valtype_vec_t p, r;
    wasm_valtype_vec_copy(&p, &type->params);
    wasm_valtype_vec_copy(&r, &type->results);
    if (p.size != type->params.size || r.size != type->results.size) {
        wasm_valtype_vec_delete(&p);
        wasm_valtype_vec_delete(&r);
        return NULL;
    }
    return wasm_functype_new(&p, &r);
}

const wasm_valtype_vec_t *wasm_functype_params(const wasm_functype_t *type) {
    return type ? &type->params : NULL;
}
const wasm_valtype_vec_t *wasm_functype_results(const wasm_functype_t *type) {
    return type ? &type->results : NULL;
}

/* A vector of value types from weft's; false when out of memory. */
static bool capi_valtypes_from_weft(wasm_valtype_vec_t *out, const weft_valtype *types, uint32_t n) {
    wasm_valtype_vec_new_uninitialized(out, n);
    if (out->size != n) return false;
    for (uint32_t i = 0; i < n; i++)
        if (!(out->data[i] = wasm_valtype_new(capi_valkind_from_weft(types[i])))) return false;
    return true;
}

wasm_functype_t *capi_functype_from_weft(const weft_functype *t) {
    wasm_valtype_vec_t p, r;
    bool ok = capi_valtypes_from_weft(&p, t->params, t->nparams);
    ok = capi_valtypes_from_weft(&r, t->results, t->nresults) && ok;
    if (!ok) {
        wasm_valtype_vec_delete(&p);
        wasm_valtype_vec_delete(&r);
        return NULL;
    }
    return wasm_functype_new(&p, &r);
}

/* ---- global types ---- */

own wasm_globaltype_t *wasm_globaltype_new(own wasm_valtype_t *content, wasm_mutability_t mutability) {
    wasm_globaltype_t *t = content && mutability <= WASM_VAR ? malloc(sizeof *t) : NULL;
    if (!t) {
        wasm_valtype_delete(content);
        return NULL;
    }
    t->kind = WASM_EXTERN_GLOBAL;
    t->content = content;
    t->mutability = mutability;
    return t;
}

void wasm_globaltype_delete(own wasm_globaltype_t *type) {
    if (!type) return;
    wasm_valtype_delete(type->content);
    free(type);
}

own wasm_globaltype_t *wasm_globaltype_copy(const wasm_globaltype_t *type) {
    return type ? wasm_globaltype_new(wasm_valtype_copy(type->content), type->mutability) : NULL;
}

const wasm_valtype_t *wasm_globaltype_content(const wasm_globaltype_t *type) {
    return type ? type->content : NULL;
}
wasm_mutability_t wasm_globaltype_mutability(const wasm_globaltype_t *type) {
    return type ? type->mutability : WASM_CONST;
}

/* ---- table types ---- */

own wasm_tabletype_t *wasm_tabletype_new(own wasm_valtype_t *element, const wasm_limits_t *limits) {
    wasm_tabletype_t *t = element && limits && wasm_valkind_is_ref(element->kind) ? malloc(sizeof *t) : NULL;
    if (!t) {
        wasm_valtype_delete(element);
        return NULL;
    }
    t->kind = WASM_EXTERN_TABLE;
    t->element = element;
    t->limits = *limits;
    return t;
}

void wasm_tabletype_delete(own wasm_tabletype_t *type) {
    if (!type) return;
    wasm_valtype_delete(type->element);
    free(type);
}

own wasm_tabletype_t *wasm_tabletype_copy(const wasm_tabletype_t *type) {
    return type ? wasm_tabletype_new(wasm_valtype_copy(type->element), &type->limits) : NULL;
}

const wasm_valtype_t *wasm_tabletype_element(const wasm_tabletype_t *type) {
    return type ? type->element : NULL;
}
const wasm_limits_t *wasm_tabletype_limits(const wasm_tabletype_t *type) {
    return type ? &type->limits : NULL;
}

/* ---- memory types ---- */

static wasm_memorytype_t *capi_memorytype_new(const wasm_limits_t *limits, bool shared) {
    wasm_memorytype_t *t = limits ? malloc(sizeof *t) : NULL;
    if (!t) return NULL;
    t->kind = WASM_EXTERN_MEMORY;
    t->limits = *limits;
    t->shared = shared;
    return t;
}

own wasm_memorytype_t *wasm_memorytype_new(const wasm_limits_t *limits) {
    return capi_memorytype_new(limits, false);
}

wasm_memorytype_t *weft_wasm_memorytype_new_shared(const wasm_limits_t *limits) {
    if (!limits || limits->max == wasm_limits_max_default) return NULL;
    return capi_memorytype_new(limits, true);
}

bool weft_wasm_memorytype_shared(const wasm_memorytype_t *type) { return type && type->shared; }

void wasm_memorytype_delete(own wasm_memorytype_t *type) { free(type); }

own wasm_memorytype_t *wasm_memorytype_copy(const wasm_memorytype_t *type) {
    return type ? capi_memorytype_new(&type->limits, type->shared) : NULL;
}

const wasm_limits_t *wasm_memorytype_limits(const wasm_memorytype_t *type) {
    return type ? &type->limits : NULL;
}

/* ---- extern types: a header over the four kinds ---- */

wasm_externkind_t wasm_externtype_kind(const wasm_externtype_t *type) {
    return type ? type->kind : WASM_EXTERN_FUNC;
}

void wasm_externtype_delete(own wasm_externtype_t *type) {
    if (!type) return;
    switch (type->kind) {
    case WASM_EXTERN_FUNC: wasm_functype_delete((wasm_functype_t *)type); break;
    case WASM_EXTERN_GLOBAL: wasm_globaltype_delete((wasm_globaltype_t *)type); break;
    case WASM_EXTERN_TABLE: wasm_tabletype_delete((wasm_tabletype_t *)type); break;
    case WASM_EXTERN_MEMORY: wasm_memorytype_delete((wasm_memorytype_t *)type); break;
    }
}

own wasm_externtype_t *wasm_externtype_copy(const wasm_externtype_t *type) {
    if (!type) return NULL;
    switch (type->kind) {
    case WASM_EXTERN_FUNC: return (wasm_externtype_t *)wasm_functype_copy((const wasm_functype_t *)type);
    case WASM_EXTERN_GLOBAL: return (wasm_externtype_t *)wasm_globaltype_copy((const wasm_globaltype_t *)type);
    case WASM_EXTERN_TABLE: return (wasm_externtype_t *)wasm_tabletype_copy((const wasm_tabletype_t *)type);
    case WASM_EXTERN_MEMORY: return (wasm_externtype_t *)wasm_memorytype_copy((const wasm_memorytype_t *)type);
    }
    return NULL;
}

/* The conversions between the header and each kind: the same pointer, or
   NULL for another kind. */
#define CAPI_EXTERNTYPE_CONV(name, KIND)                                                          \
    wasm_externtype_t *wasm_##name##_as_externtype(wasm_##name##_t *t) {                          \
        return (wasm_externtype_t *)t;                                                            \
    }                                                                                             \
    const wasm_externtype_t *wasm_##name##_as_externtype_const(const wasm_##name##_t *t) {        \
        return (const wasm_externtype_t *)t;                                                      \
    }                                                                                             \
    wasm_##name##_t *wasm_externtype_as_##name(wasm_externtype_t *t) {                            \
        return t && t->kind == KIND ? (wasm_##name##_t *)t : NULL;                                \
    }                                                                                             \
    const wasm_##name##_t *wasm_externtype_as_##name##_const(const wasm_externtype_t *t) {        \
        return t && t->kind == KIND ? (const wasm_##name##_t *)t : NULL;                          \
    }

CAPI_EXTERNTYPE_CONV(functype, WASM_EXTERN_FUNC)
CAPI_EXTERNTYPE_CONV(globaltype, WASM_EXTERN_GLOBAL)
CAPI_EXTERNTYPE_CONV(tabletype, WASM_EXTERN_TABLE)
CAPI_EXTERNTYPE_CONV(memorytype, WASM_EXTERN_MEMORY)

wasm_externtype_t *capi_externtype_from_weft(const weft_externtype *t) {
    switch (t->kind) {
    case WEFT_EXTERN_FUNC: return (wasm_externtype_t *)capi_functype_from_weft(&t->func);
    case WEFT_EXTERN_GLOBAL:
        return (wasm_externtype_t *)wasm_globaltype_new(wasm_valtype_new(capi_valkind_from_weft(t->global_type)),
                                                        t->global_mutable ? WASM_VAR : WASM_CONST);
    case WEFT_EXTERN_TABLE: {
        wasm_limits_t l = capi_limits_from_weft(t->limits);
        return (wasm_externtype_t *)wasm_tabletype_new(wasm_valtype_new(capi_valkind_from_weft(t->table_elem)), &l);
    }
    case WEFT_EXTERN_MEMORY: {
        wasm_limits_t l = capi_limits_from_weft(t->limits);
        return (wasm_externtype_t *)capi_memorytype_new(&l, t->limits.shared);
    }
    case WEFT_EXTERN_TAG: /* wasm.h has no tag types */
        return NULL;
    }
    return NULL;
}

/* ---- import and export types ---- */

own wasm_importtype_t *wasm_importtype_new(own wasm_name_t *module, own wasm_name_t *name,
                                           own wasm_externtype_t *type) {
    wasm_importtype_t *t = module && name && type ? malloc(sizeof *t) : NULL;
    if (!t) {
        wasm_name_delete(module);
        wasm_name_delete(name);
        wasm_externtype_delete(type);
        return NULL;
    }
    t->module = *module;
    t->name = *name;
    t->type = type;
    wasm_name_new_empty(module);
    wasm_name_new_empty(name);
    return t;
}

void wasm_importtype_delete(own wasm_importtype_t *type) {
    if (!type) return;
    wasm_name_delete(&type->module);
    wasm_name_delete(&type->name);
    wasm_externtype_delete(type->type);
    free(type);
}

own wasm_importtype_t *wasm_importtype_copy(const wasm_importtype_t *type) {
    if (!type) return NULL;
    wasm_name_t m, n;
    wasm_name_copy(&m, &type->module);
    wasm_name_copy(&n, &type->name);
    return wasm_importtype_new(&m, &n, wasm_externtype_copy(type->type));
}

const wasm_name_t *wasm_importtype_module(const wasm_importtype_t *type) { return type ? &type->module : NULL; }
const wasm_name_t *wasm_importtype_name(const wasm_importtype_t *type) { return type ? &type->name : NULL; }
const wasm_externtype_t *wasm_importtype_type(const wasm_importtype_t *type) { return type ? type->type : NULL; }

own wasm_exporttype_t *wasm_exporttype_new(own wasm_name_t *name, own wasm_externtype_t *type) {
    wasm_exporttype_t *t = name && type ? malloc(sizeof *t) : NULL;
    if (!t) {
        wasm_name_delete(name);
        wasm_externtype_delete(type);
        return NULL;
    }
    t->name = *name;
    t->type = type;
    wasm_name_new_empty(name);
    return t;
}

void wasm_exporttype_delete(own wasm_exporttype_t *type) {
    if (!type) return;
    wasm_name_delete(&type->name);
    wasm_externtype_delete(type->type);
    free(type);
}

own wasm_exporttype_t *wasm_exporttype_copy(const wasm_exporttype_t *type) {
    if (!type) return NULL;
    wasm_name_t n;
    wasm_name_copy(&n, &type->name);
    return wasm_exporttype_new(&n, wasm_externtype_copy(type->type));
}

const wasm_name_t *wasm_exporttype_name(const wasm_exporttype_t *type) { return type ? &type->name : NULL; }
const wasm_externtype_t *wasm_exporttype_type(const wasm_exporttype_t *type) { return type ? type->type : NULL; }
