/* store.c — the store: the owner of every instance and runtime object.
   Objects are added under store->lock (wasi-threads instantiate into one
   store from several OS threads) and freed all together with the store. */
#include "internal.h"

/* Used when a store is made without an engine. */
static const weft_config rt_default_config = {
    .max_stack_bytes = 8u << 20,
    .max_call_depth = 100000u,
    .max_memory_bytes = 0,
};

const weft_config *rt_store_config(const weft_store *store) {
    return store && store->engine ? &store->engine->config : &rt_default_config;
}

weft_store *weft_store_new(weft_engine *engine) {
    weft_store *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->engine = engine;
    if (pthread_mutex_init(&s->lock, NULL) != 0) {
        free(s);
        return NULL;
    }
    return s;
}

bool rt_budget_take(rt_budget *b, uint64_t bytes) {
    if (!b || !bytes) return true;
    uint64_t used = atomic_load_explicit(&b->used, memory_order_relaxed);
    do {
        if (bytes > b->limit || used > b->limit - bytes) return false;
    } while (!atomic_compare_exchange_weak_explicit(&b->used, &used, used + bytes, memory_order_relaxed,
                                                    memory_order_relaxed));
    return true;
}

void rt_budget_give(rt_budget *b, uint64_t bytes) {
    if (b && bytes) atomic_fetch_sub_explicit(&b->used, bytes, memory_order_relaxed);
}

weft_status weft_store_set_fuel(weft_store *store, uint64_t fuel) {
    if (!store) return WEFT_ERR_MISUSE;
    store->fuel_metered = fuel != WEFT_FUEL_UNLIMITED;
    atomic_store_explicit(&store->fuel, store->fuel_metered ? fuel : 0, memory_order_relaxed);
    return WEFT_OK;
}

uint64_t weft_store_fuel(const weft_store *store) {
    if (!store || !store->fuel_metered) return WEFT_FUEL_UNLIMITED;
    return atomic_load_explicit(&((weft_store *)store)->fuel, memory_order_relaxed);
}

void weft_store_free(weft_store *store) {
    if (!store) return;
    weft_exec *spare = atomic_exchange(&store->spare_exec, NULL);
    void (*spare_free)(weft_exec *) = __atomic_load_n(&store->spare_exec_free, __ATOMIC_RELAXED);
    if (spare && spare_free) spare_free(spare);
    /* Instances first: they only borrow the objects below. */
    for (size_t i = 0; i < store->instances.len; i++) rt_instance_destroy(store->instances.data[i]);
    for (size_t i = 0; i < store->funcs.len; i++) rt_func_destroy(store->funcs.data[i]);
    for (size_t i = 0; i < store->tables.len; i++) rt_table_destroy(store->tables.data[i]);
    for (size_t i = 0; i < store->memories.len; i++) rt_memory_destroy(store->memories.data[i]);
    for (size_t i = 0; i < store->globals.len; i++) rt_global_destroy(store->globals.data[i]);
    for (size_t i = 0; i < store->tags.len; i++) rt_tag_destroy(store->tags.data[i]);
    rt_store_free_exns(store);
    BASE_VEC_FREE(store->instances);
    BASE_VEC_FREE(store->tags);
    BASE_VEC_FREE(store->funcs);
    BASE_VEC_FREE(store->tables);
    BASE_VEC_FREE(store->memories);
    BASE_VEC_FREE(store->globals);
    pthread_mutex_destroy(&store->lock);
    free(store);
}

#define RT_STORE_ADD(store, list, obj)                  \
    do {                                                \
        pthread_mutex_lock(&(store)->lock);             \
        bool ok_ = BASE_VEC_PUSH((store)->list, (obj)); \
        pthread_mutex_unlock(&(store)->lock);           \
        return ok_;                                     \
    } while (0)

bool rt_store_add_func(weft_store *store, weft_func *f) { RT_STORE_ADD(store, funcs, f); }
bool rt_store_add_table(weft_store *store, weft_table *t) { RT_STORE_ADD(store, tables, t); }
bool rt_store_add_memory(weft_store *store, weft_memory *m) { RT_STORE_ADD(store, memories, m); }
bool rt_store_add_global(weft_store *store, weft_global *g) { RT_STORE_ADD(store, globals, g); }

bool rt_store_adopt_instance(weft_store *store, weft_instance *inst,
                             weft_table **tables, uint32_t ntables,
                             weft_memory **mems, uint32_t nmems) {
    bool ok = false;
    pthread_mutex_lock(&store->lock);
    /* Reserve room in every list first so the pushes below cannot fail. */
    if (!BASE_VEC_RESERVE(store->instances, 1)) goto done;
    if (!BASE_VEC_RESERVE(store->tables, ntables)) goto done;
    if (!BASE_VEC_RESERVE(store->memories, nmems)) goto done;
    for (uint32_t i = 0; i < ntables; i++)
        if (tables[i]) store->tables.data[store->tables.len++] = tables[i];
    for (uint32_t i = 0; i < nmems; i++)
        if (mems[i]) store->memories.data[store->memories.len++] = mems[i];
    store->instances.data[store->instances.len++] = inst;
    ok = true;
done:
    pthread_mutex_unlock(&store->lock);
    return ok;
}

/* Takes `obj` off a store list, searching from the end (the latest
   objects go first: a short-lived thread's instance is near the end). */
#define RT_STORE_DROP(list, obj)                                            \
    do {                                                                    \
        for (size_t i_ = (list).len; i_-- > 0;)                             \
            if ((list).data[i_] == (obj)) {                                 \
                (list).data[i_] = (list).data[--(list).len];                \
                break;                                                      \
            }                                                               \
    } while (0)

void rt_instance_release(weft_instance *inst) {
    weft_store *store = inst->store;
    const mod_module *m = inst->module;
    pthread_mutex_lock(&store->lock);
    RT_STORE_DROP(store->instances, inst);
    for (uint32_t i = m->ntable_imports; i < m->ntables; i++) RT_STORE_DROP(store->tables, inst->tables[i]);
    for (uint32_t i = m->nmem_imports; i < m->nmems; i++) RT_STORE_DROP(store->memories, inst->mems[i]);
    pthread_mutex_unlock(&store->lock);
    for (uint32_t i = m->ntable_imports; i < m->ntables; i++) rt_table_destroy(inst->tables[i]);
    for (uint32_t i = m->nmem_imports; i < m->nmems; i++) rt_memory_destroy(inst->mems[i]);
    rt_instance_destroy(inst);
}
