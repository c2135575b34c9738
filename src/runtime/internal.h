/*
 * internal.h — helpers shared by the files of src/runtime/ only. Other layers
 * use runtime.h.
 *
 * Objects are made in two steps so that instantiation can make everything it
 * needs, fail without leaving anything behind, and then hand it all to the
 * store at once: rt_*_alloc makes an object that nobody owns yet (free it
 * with rt_*_destroy), and the rt_store_add_* calls transfer it to the store.
 */
#ifndef WEFT_RT_INTERNAL_H
#define WEFT_RT_INTERNAL_H

#include "runtime.h"

/* The configuration in force for `store` (the engine's, or the defaults
   when the store was made without an engine). */
const weft_config *rt_store_config(const weft_store *store);

/* Transfer ownership of one object to the store. False when out of memory;
   the caller still owns the object then. Thread-safe (store->lock). */
bool rt_store_add_func(weft_store *store, weft_func *f);
bool rt_store_add_table(weft_store *store, weft_table *t);
bool rt_store_add_memory(weft_store *store, weft_memory *m);
bool rt_store_add_global(weft_store *store, weft_global *g);
/* Transfers a new instance and the tables and memories it defined, all or
   nothing. NULL entries of `tables`/`mems` are skipped. */
bool rt_store_adopt_instance(weft_store *store, weft_instance *inst,
                             weft_table **tables, uint32_t ntables,
                             weft_memory **mems, uint32_t nmems);

/* Unowned objects (see above). `config` supplies the memory cap. */
/* `budget` (may be NULL) is charged the memory's pages, now and as it
   grows, and given them back when it goes. */
weft_status rt_memory_alloc(weft_engine *engine, uint64_t cap, rt_budget *budget, weft_limits limits,
                            weft_memory **out, weft_error *err);
void rt_memory_destroy(weft_memory *m);
/* The engine's pool of memory reservations (memory.c). */
struct rt_mem_pool *rt_mem_pool_new(void);
void rt_mem_pool_free(struct rt_mem_pool *pool);
weft_status rt_table_alloc(weft_valtype elem, weft_limits limits, void *init, rt_budget *budget,
                           weft_table **out, weft_error *err);
void rt_table_destroy(weft_table *t);
void rt_func_destroy(weft_func *f);
void rt_global_destroy(weft_global *g);
void rt_tag_destroy(weft_tag *tag);
/* Whether a host may name value type t (weft_func_new, weft_tag_new). */
bool rt_valtype_ok(weft_valtype t);
/* Frees every exception made in `store` (tag.c). */
void rt_store_free_exns(weft_store *store);
/* Frees the instance's own arrays and drops its module reference. Tables and
   memories it defined belong to the store and are not touched. */
void rt_instance_destroy(weft_instance *inst);

/* The store an extern belongs to, or NULL when the extern is malformed
   (unknown kind or NULL object). */
weft_store *rt_extern_store(const weft_extern *ext);

/* Limits as the spec's external typing sees them (§4.5.1): the current size
   is the minimum, the declared maximum stays. */
weft_limits rt_table_current_limits(const weft_table *t);
weft_limits rt_memory_current_limits(const weft_memory *m);

/* Writes `s` (n bytes, may hold NULs) into buf as a quoted name, escaping
   quotes, backslashes and control bytes as \hh. Always NUL-terminates. */
void rt_quote_name(char *buf, size_t cap, const char *s, size_t n);

#endif
