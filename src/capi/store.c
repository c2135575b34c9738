/* store.c — configs, engines, stores, and the life of every reference
   (capi.h: one capi_obj per weft object, counted references, the store's
   map). Also the functions every reference kind shares: copy, same, host
   info, and the conversions to and from wasm_ref_t. */
#include "capi.h"

/* ---- config and engine ---- */

own wasm_config_t *wasm_config_new(void) { return calloc(1, sizeof(wasm_config_t)); }

void wasm_config_delete(own wasm_config_t *config) { free(config); }

void weft_wasm_config_set(wasm_config_t *config, const weft_config *settings) {
    if (config && settings) config->config = *settings;
}

own wasm_engine_t *wasm_engine_new_with_config(own wasm_config_t *config) {
    wasm_engine_t *e = calloc(1, sizeof *e);
    if (e && !(e->engine = weft_engine_new(config ? &config->config : NULL))) {
        free(e);
        e = NULL;
    }
    wasm_config_delete(config);
    return e;
}

own wasm_engine_t *wasm_engine_new(void) { return wasm_engine_new_with_config(NULL); }

void wasm_engine_delete(own wasm_engine_t *engine) {
    if (!engine) return;
    weft_engine_free(engine->engine);
    free(engine);
}

weft_engine *weft_wasm_engine(const wasm_engine_t *engine) { return engine ? engine->engine : NULL; }

/* ---- the pointer map ---- */

static size_t capi_hash(const void *p) {
    uint64_t x = (uint64_t)(uintptr_t)p;
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    return (size_t)x;
}

static capi_obj *capi_map_get(const capi_map *m, const void *key) {
    if (!m->cap) return NULL;
    for (size_t i = capi_hash(key) & (m->cap - 1);; i = (i + 1) & (m->cap - 1)) {
        if (m->keys[i] == key) return m->vals[i];
        if (!m->keys[i]) return NULL;
    }
}

static void capi_map_put_new(capi_map *m, void *key, capi_obj *val) {
    size_t i = capi_hash(key) & (m->cap - 1);
    while (m->keys[i]) i = (i + 1) & (m->cap - 1);
    m->keys[i] = key;
    m->vals[i] = val;
    m->len++;
}

/* Adds key -> val (key not present). False when out of memory. Keeps the
   load under a half. */
static bool capi_map_put(capi_map *m, void *key, capi_obj *val) {
    if ((m->len + 1) * 2 > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 64;
        capi_map bigger = {base_calloc(cap, sizeof(void *)), base_calloc(cap, sizeof(capi_obj *)), cap, 0};
        if (!bigger.keys || !bigger.vals) {
            free(bigger.keys);
            free(bigger.vals);
            return false;
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i]) capi_map_put_new(&bigger, m->keys[i], m->vals[i]);
        free(m->keys);
        free(m->vals);
        *m = bigger;
    }
    capi_map_put_new(m, key, val);
    return true;
}

/* ---- objects ---- */

capi_obj *capi_obj_new(capi_kind kind) {
    capi_obj *o = calloc(1, sizeof *o);
    if (!o) return NULL;
    o->kind = (uint8_t)kind;
    o->refs = 1;
    return o;
}

/* Runs and clears the object's host-info finalizer. */
static void capi_obj_finalize(capi_obj *o) {
    void (*fin)(void *) = o->finalizer;
    o->finalizer = NULL;
    if (fin) fin(o->host_info);
}

static void capi_obj_free(capi_obj *o) {
    capi_obj_finalize(o);
    capi_sig_free(o->sig);
    if (o->kind == CAPI_MODULE) capi_module_release(o);
    else if (o->kind == CAPI_TRAP) capi_trap_release(o);
    free(o);
}

void capi_obj_unref(capi_obj *o) {
    if (o && --o->refs == 0) capi_obj_free(o);
}

static capi_obj *capi_store_hold(wasm_store_t *store, capi_kind kind, void *key, capi_obj *o) {
    o->kind = (uint8_t)kind;
    o->store = store;
    o->in_store = true;
    if (!capi_map_put(&store->objs, key, o)) {
        free(o);
        return NULL;
    }
    return o;
}

capi_obj *capi_store_obj(wasm_store_t *store, capi_kind kind, void *ptr) {
    if (!ptr) return NULL;
    capi_obj *o = capi_map_get(&store->objs, ptr);
    if (o) return o;
    o = calloc(1, sizeof *o);
    if (!o) return NULL;
    o->refs = 1; /* the store's */
    o->of.any = ptr;
    return capi_store_hold(store, kind, ptr, o);
}

capi_obj *capi_store_new_obj(wasm_store_t *store, capi_kind kind) {
    capi_obj *o = calloc(1, sizeof *o);
    if (!o) return NULL;
    o->refs = 1;
    o->of.any = o;
    return capi_store_hold(store, kind, o, o);
}

bool capi_obj_pin(wasm_store_t *store, capi_obj *o) {
    if (o->in_store) return true;
    if (!capi_map_put(&store->objs, o, o)) return false;
    o->in_store = true;
    o->refs++;
    return true;
}

/* ---- stores ---- */

own wasm_store_t *wasm_store_new(wasm_engine_t *engine) {
    if (!engine) return NULL;
    wasm_store_t *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->engine = engine;
    if (!(s->store = weft_store_new(engine->engine))) {
        free(s);
        return NULL;
    }
    return s;
}

void wasm_store_delete(own wasm_store_t *store) {
    if (!store) return;
    capi_map *m = &store->objs;
    /* 1. Host-info finalizers of the store's objects, while every object
       still works (modules and traps it adopted go on living). */
    for (size_t i = 0; i < m->cap; i++)
        if (m->keys[i] && m->vals[i]->kind != CAPI_MODULE && m->vals[i]->kind != CAPI_TRAP)
            capi_obj_finalize(m->vals[i]);
    capi_obj_unref(store->pending_trap);
    store->pending_trap = NULL;
    /* 2. The weft objects (host functions' env finalizers run here). */
    weft_linker_free(store->wasi_linker);
    weft_exec_free(store->exec);
    free(store->call);
    weft_store_free(store->store);
    for (size_t i = 0; i < store->shared.len; i++) weft_shared_memory_release(store->shared.data[i]);
    BASE_VEC_FREE(store->shared);
    /* 3. Let go of the objects: what the host still holds becomes a husk,
       which its last delete frees. Modules and traps the store adopted
       keep what they own until then. */
    for (size_t i = 0; i < m->cap; i++) {
        if (!m->keys[i]) continue;
        capi_obj *o = m->vals[i];
        o->in_store = false;
        o->store = NULL;
        if (o->kind != CAPI_MODULE && o->kind != CAPI_TRAP) o->of.any = NULL;
        capi_obj_unref(o);
    }
    free(m->keys);
    free(m->vals);
    free(store);
}

weft_store *weft_wasm_store(const wasm_store_t *store) { return store ? store->store : NULL; }

/* ---- foreign objects ---- */

own wasm_foreign_t *wasm_foreign_new(wasm_store_t *store) {
    if (!store) return NULL;
    return (wasm_foreign_t *)capi_obj_ref(capi_store_new_obj(store, CAPI_FOREIGN));
}

/* ---- what every reference kind has ---- */

/* delete, copy, same, host info. */
#define CAPI_REF_BASE(name)                                                                      \
    void wasm_##name##_delete(own wasm_##name##_t *r) { capi_obj_unref(CAPI_OBJ(r)); }           \
    own wasm_##name##_t *wasm_##name##_copy(const wasm_##name##_t *r) {                          \
        return (wasm_##name##_t *)capi_obj_ref(CAPI_OBJ(r));                                     \
    }                                                                                            \
    bool wasm_##name##_same(const wasm_##name##_t *a, const wasm_##name##_t *b) { return a == b; } \
    void *wasm_##name##_get_host_info(const wasm_##name##_t *r) {                                \
        return r ? CAPI_OBJ(r)->host_info : NULL;                                                \
    }                                                                                            \
    void wasm_##name##_set_host_info_with_finalizer(wasm_##name##_t *r, void *info,              \
                                                    void (*finalizer)(void *)) {                 \
        if (!r) return;                                                                          \
        capi_obj_finalize(CAPI_OBJ(r));                                                          \
        CAPI_OBJ(r)->host_info = info;                                                           \
        CAPI_OBJ(r)->finalizer = finalizer;                                                      \
    }                                                                                            \
    void wasm_##name##_set_host_info(wasm_##name##_t *r, void *info) {                           \
        wasm_##name##_set_host_info_with_finalizer(r, info, NULL);                               \
    }

/* ... and the conversions to and from wasm_ref_t, checking the kind. */
#define CAPI_REF(name, KIND_TEST)                                                                \
    CAPI_REF_BASE(name)                                                                          \
    wasm_ref_t *wasm_##name##_as_ref(wasm_##name##_t *r) { return (wasm_ref_t *)r; }             \
    const wasm_ref_t *wasm_##name##_as_ref_const(const wasm_##name##_t *r) {                     \
        return (const wasm_ref_t *)r;                                                            \
    }                                                                                            \
    wasm_##name##_t *wasm_ref_as_##name(wasm_ref_t *r) {                                         \
        return r && KIND_TEST(CAPI_OBJ(r)->kind) ? (wasm_##name##_t *)r : NULL;                  \
    }                                                                                            \
    const wasm_##name##_t *wasm_ref_as_##name##_const(const wasm_ref_t *r) {                     \
        return r && KIND_TEST(CAPI_OBJ(r)->kind) ? (const wasm_##name##_t *)r : NULL;            \
    }

#define CAPI_IS_FUNC(k) ((k) == CAPI_FUNC)
#define CAPI_IS_GLOBAL(k) ((k) == CAPI_GLOBAL)
#define CAPI_IS_TABLE(k) ((k) == CAPI_TABLE)
#define CAPI_IS_MEMORY(k) ((k) == CAPI_MEMORY)
#define CAPI_IS_INSTANCE(k) ((k) == CAPI_INSTANCE)
#define CAPI_IS_FOREIGN(k) ((k) == CAPI_FOREIGN)
#define CAPI_IS_MODULE(k) ((k) == CAPI_MODULE)
#define CAPI_IS_TRAP(k) ((k) == CAPI_TRAP)

CAPI_REF_BASE(ref)
CAPI_REF(func, CAPI_IS_FUNC)
CAPI_REF(global, CAPI_IS_GLOBAL)
CAPI_REF(table, CAPI_IS_TABLE)
CAPI_REF(memory, CAPI_IS_MEMORY)
CAPI_REF(extern, CAPI_IS_EXTERN)
CAPI_REF(instance, CAPI_IS_INSTANCE)
CAPI_REF(foreign, CAPI_IS_FOREIGN)
CAPI_REF(module, CAPI_IS_MODULE)
CAPI_REF(trap, CAPI_IS_TRAP)

/* ---- externs ---- */

wasm_externkind_t wasm_extern_kind(const wasm_extern_t *ext) {
    return ext ? (wasm_externkind_t)CAPI_OBJ(ext)->kind : WASM_EXTERN_FUNC;
}

#define CAPI_EXTERN_CONV(name, KIND)                                                             \
    wasm_extern_t *wasm_##name##_as_extern(wasm_##name##_t *r) { return (wasm_extern_t *)r; }    \
    const wasm_extern_t *wasm_##name##_as_extern_const(const wasm_##name##_t *r) {               \
        return (const wasm_extern_t *)r;                                                         \
    }                                                                                            \
    wasm_##name##_t *wasm_extern_as_##name(wasm_extern_t *e) {                                   \
        return e && CAPI_OBJ(e)->kind == KIND ? (wasm_##name##_t *)e : NULL;                     \
    }                                                                                            \
    const wasm_##name##_t *wasm_extern_as_##name##_const(const wasm_extern_t *e) {               \
        return e && CAPI_OBJ(e)->kind == KIND ? (const wasm_##name##_t *)e : NULL;               \
    }

CAPI_EXTERN_CONV(func, CAPI_FUNC)
CAPI_EXTERN_CONV(global, CAPI_GLOBAL)
CAPI_EXTERN_CONV(table, CAPI_TABLE)
CAPI_EXTERN_CONV(memory, CAPI_MEMORY)

bool weft_wasm_extern(const wasm_extern_t *ext, weft_extern *out) {
    const capi_obj *o = CAPI_OBJ(ext);
    if (!o || !CAPI_IS_EXTERN(o->kind) || !o->of.any || !out) return false;
    out->kind = o->kind == CAPI_FUNC ? WEFT_EXTERN_FUNC
                : o->kind == CAPI_GLOBAL ? WEFT_EXTERN_GLOBAL
                : o->kind == CAPI_TABLE ? WEFT_EXTERN_TABLE
                                         : WEFT_EXTERN_MEMORY;
    switch (o->kind) {
    case CAPI_FUNC: out->of.func = o->of.func; break;
    case CAPI_GLOBAL: out->of.global = o->of.global; break;
    case CAPI_TABLE: out->of.table = o->of.table; break;
    default: out->of.memory = o->of.memory; break;
    }
    return true;
}
