/* extern.c — globals, tables and memories made by the host or exported by
   instances, and the type of any extern. Each is a weft object owned by
   its store (weft.h); the wasm.h object is its capi_obj (capi.h). */
#include "capi.h"

/* The weft object behind a wasm.h object of `kind`, NULL for another kind
   or a husk (its store deleted). */
static void *capi_of(const void *ref, capi_kind kind) {
    const capi_obj *o = CAPI_OBJ(ref);
    return o && o->kind == kind ? o->of.any : NULL;
}

/* ---- globals ---- */

own wasm_global_t *wasm_global_new(wasm_store_t *store, const wasm_globaltype_t *type, const wasm_val_t *value) {
    if (!store || !type || !value || !type->content) return NULL;
    weft_valtype want = capi_valtype_to_weft(type->content->kind);
    weft_val v;
    const char *why = NULL;
    if (!want || !capi_val_to_weft(store, value, want, &v, &why)) return NULL;
    weft_global *g = NULL;
    if (weft_global_new(store->store, v, type->mutability == WASM_VAR, &g, NULL) != WEFT_OK) return NULL;
    return (wasm_global_t *)capi_obj_ref(capi_store_obj(store, CAPI_GLOBAL, g));
}

own wasm_globaltype_t *wasm_global_type(const wasm_global_t *global) {
    weft_global *g = capi_of(global, CAPI_GLOBAL);
    if (!g) return NULL;
    wasm_valkind_t kind = capi_valkind_from_weft(weft_global_get(g).type);
    return wasm_globaltype_new(wasm_valtype_new(kind), weft_global_mutable(g) ? WASM_VAR : WASM_CONST);
}

void wasm_global_get(const wasm_global_t *global, own wasm_val_t *out) {
    weft_global *g = capi_of(global, CAPI_GLOBAL);
    out->kind = WASM_I32;
    out->of.i64 = 0;
    if (!g) return;
    weft_val v = weft_global_get(g);
    if (!capi_val_from_weft(CAPI_OBJ(global)->store, &v, out, true)) out->of.i64 = 0;
}

void wasm_global_set(wasm_global_t *global, const wasm_val_t *value) {
    weft_global *g = capi_of(global, CAPI_GLOBAL);
    if (!g || !value || !weft_global_mutable(g)) return;
    weft_val v;
    const char *why = NULL;
    if (capi_val_to_weft(CAPI_OBJ(global)->store, value, weft_global_get(g).type, &v, &why)) weft_global_set(g, v);
}

/* ---- tables ---- */

/* A table element from a reference: NULL is null; a funcref table takes
   functions only. False for a reference of the wrong kind. */
static bool capi_table_val(wasm_store_t *store, weft_table *t, wasm_ref_t *ref, weft_val *out) {
    wasm_val_t v = {.kind = WASM_EXTERNREF, .of = {.ref = ref}};
    const char *why = NULL;
    return capi_val_to_weft(store, &v, weft_table_elem_type(t), out, &why);
}

own wasm_table_t *wasm_table_new(wasm_store_t *store, const wasm_tabletype_t *type, wasm_ref_t *init) {
    if (!store || !type || !type->element) return NULL;
    weft_valtype elem = capi_valtype_to_weft(type->element->kind);
    wasm_val_t iv = {.kind = WASM_EXTERNREF, .of = {.ref = init}};
    weft_val v;
    const char *why = NULL;
    weft_table *t = NULL;
    if (!capi_val_to_weft(store, &iv, elem, &v, &why)) return NULL; /* an init of the wrong kind */
    if (weft_table_new(store->store, elem, capi_limits_to_weft(&type->limits, false), &t, NULL) != WEFT_OK)
        return NULL;
    if (init)
        for (uint32_t i = 0, n = weft_table_size(t); i < n; i++) weft_table_set(t, i, v);
    return (wasm_table_t *)capi_obj_ref(capi_store_obj(store, CAPI_TABLE, t));
}

own wasm_tabletype_t *wasm_table_type(const wasm_table_t *table) {
    weft_table *t = capi_of(table, CAPI_TABLE);
    if (!t) return NULL;
    wasm_limits_t l = capi_limits_from_weft(capi_table_limits(t));
    return wasm_tabletype_new(wasm_valtype_new(capi_valkind_from_weft(weft_table_elem_type(t))), &l);
}

own wasm_ref_t *wasm_table_get(const wasm_table_t *table, wasm_table_size_t index) {
    weft_table *t = capi_of(table, CAPI_TABLE);
    weft_val v;
    if (!t || weft_table_get(t, index, &v) != WEFT_OK) return NULL;
    wasm_val_t out;
    if (!capi_val_from_weft(CAPI_OBJ(table)->store, &v, &out, true)) return NULL;
    return out.of.ref;
}

bool wasm_table_set(wasm_table_t *table, wasm_table_size_t index, wasm_ref_t *ref) {
    weft_table *t = capi_of(table, CAPI_TABLE);
    weft_val v;
    if (!t || !capi_table_val(CAPI_OBJ(table)->store, t, ref, &v)) return false;
    return weft_table_set(t, index, v) == WEFT_OK;
}

wasm_table_size_t wasm_table_size(const wasm_table_t *table) {
    weft_table *t = capi_of(table, CAPI_TABLE);
    return t ? weft_table_size(t) : 0;
}

bool wasm_table_grow(wasm_table_t *table, wasm_table_size_t delta, wasm_ref_t *init) {
    weft_table *t = capi_of(table, CAPI_TABLE);
    weft_val v;
    if (!t || !capi_table_val(CAPI_OBJ(table)->store, t, init, &v)) return false;
    return weft_table_grow(t, delta, v, NULL) == WEFT_OK;
}

/* ---- memories ---- */

own wasm_memory_t *wasm_memory_new(wasm_store_t *store, const wasm_memorytype_t *type) {
    if (!store || !type) return NULL;
    weft_memory *m = NULL;
    if (weft_memory_new(store->store, capi_limits_to_weft(&type->limits, type->shared), &m, NULL) != WEFT_OK)
        return NULL;
    return (wasm_memory_t *)capi_obj_ref(capi_store_obj(store, CAPI_MEMORY, m));
}

wasm_memory_t *weft_wasm_memory_obtain_shared(wasm_store_t *store, weft_shared_memory *shared) {
    if (!store || !shared) return NULL;
    weft_memory *m = weft_shared_memory_get(shared);
    if (!capi_store_obj(store, CAPI_MEMORY, m)) return NULL;
    /* Held once per store, however often obtained. */
    bool held = false;
    for (size_t i = 0; i < store->shared.len; i++) held |= store->shared.data[i] == shared;
    if (!held) {
        if (!BASE_VEC_PUSH(store->shared, shared)) return NULL;
        weft_shared_memory_retain(shared);
    }
    return (wasm_memory_t *)capi_obj_ref(capi_store_obj(store, CAPI_MEMORY, m));
}

own wasm_memorytype_t *wasm_memory_type(const wasm_memory_t *memory) {
    weft_memory *m = capi_of(memory, CAPI_MEMORY);
    if (!m) return NULL;
    weft_limits l = weft_memory_limits(m);
    l.min = weft_memory_size(m) / MEMORY_PAGE_SIZE; /* external typing: the current size (§4.5.1) */
    wasm_limits_t wl = capi_limits_from_weft(l);
    return l.shared ? weft_wasm_memorytype_new_shared(&wl) : wasm_memorytype_new(&wl);
}

byte_t *wasm_memory_data(wasm_memory_t *memory) {
    weft_memory *m = capi_of(memory, CAPI_MEMORY);
    return m ? (byte_t *)weft_memory_data(m) : NULL;
}

size_t wasm_memory_data_size(const wasm_memory_t *memory) {
    weft_memory *m = capi_of(memory, CAPI_MEMORY);
    return m ? (size_t)weft_memory_size(m) : 0;
}

wasm_memory_pages_t wasm_memory_size(const wasm_memory_t *memory) {
    return (wasm_memory_pages_t)(wasm_memory_data_size(memory) / MEMORY_PAGE_SIZE);
}

bool wasm_memory_grow(wasm_memory_t *memory, wasm_memory_pages_t delta) {
    weft_memory *m = capi_of(memory, CAPI_MEMORY);
    return m && weft_memory_grow(m, delta, NULL) == WEFT_OK;
}

/* ---- the type of any extern ---- */

own wasm_externtype_t *wasm_extern_type(const wasm_extern_t *ext) {
    const capi_obj *o = CAPI_OBJ(ext);
    if (!o) return NULL;
    switch (o->kind) {
    case CAPI_FUNC: return (wasm_externtype_t *)wasm_func_type((const wasm_func_t *)ext);
    case CAPI_GLOBAL: return (wasm_externtype_t *)wasm_global_type((const wasm_global_t *)ext);
    case CAPI_TABLE: return (wasm_externtype_t *)wasm_table_type((const wasm_table_t *)ext);
    case CAPI_MEMORY: return (wasm_externtype_t *)wasm_memory_type((const wasm_memory_t *)ext);
    }
    return NULL;
}
