/*
 * table.c — tables (§4.2.7 table instances, §4.4.6 table.grow).
 *
 * elems holds one pointer per element: a weft_func* for funcref tables, the
 * host's pointer for externref tables, the weft_exn* for exnref tables
 * (the store owns it), NULL for a null reference. Unlike
 * memories, tables may move when they grow: nothing outside the
 * interpreter's current instruction holds a pointer into them.
 */
#include "internal.h"

/* Every reference type a table may hold (Wasm 3.0 §3.2.10: tables of
   exnref too; exceptions live as long as their store, as tables do). */
static bool rt_reftype_ok(weft_valtype t) {
    return t == WEFT_FUNCREF || t == WEFT_EXTERNREF || t == WEFT_EXNREF;
}

weft_status rt_table_alloc(weft_valtype elem, weft_limits limits, void *init, rt_budget *budget,
                           weft_table **out, weft_error *err) {
    *out = NULL;
    if (!rt_reftype_ok(elem))
        return base_fail(err, WEFT_ERR_MISUSE, "table element type must be a reference type, not %s",
                         weft_valtype_name(elem));
    if (limits.has_max && limits.min > limits.max)
        return base_fail(err, WEFT_ERR_MISUSE,
                         "size minimum must not be greater than maximum (%llu > %llu)",
                         (unsigned long long)limits.min, (unsigned long long)limits.max);
    if (limits.min > RT_MAX_TABLE_SIZE)
        return base_fail(err, WEFT_ERR_LIMIT,
                         "table of %llu elements is above the implementation limit of %u",
                         (unsigned long long)limits.min, RT_MAX_TABLE_SIZE);
    if (!rt_budget_take(budget, limits.min * sizeof(void *)))
        return base_fail(err, WEFT_ERR_LIMIT,
                         "a table of %llu elements is over the memory budget (max_memory_bytes %llu)",
                         (unsigned long long)limits.min, (unsigned long long)budget->limit);
    weft_table *t = calloc(1, sizeof *t);
    if (!t) {
        rt_budget_give(budget, limits.min * sizeof(void *));
        return base_fail(err, WEFT_ERR_NOMEM, "out of memory allocating a table");
    }
    t->budget = budget;
    t->elems = base_calloc(limits.min, sizeof *t->elems);
    if (!t->elems) {
        rt_budget_give(budget, limits.min * sizeof(void *));
        free(t);
        return base_fail(err, WEFT_ERR_NOMEM, "out of memory allocating a table of %llu elements",
                         (unsigned long long)limits.min);
    }
    t->elem = elem;
    t->full_type = elem;
    t->size = (uint32_t)limits.min;
    t->limits = limits;
    t->max = limits.has_max && limits.max < RT_MAX_TABLE_SIZE ? (uint32_t)limits.max
                                                               : RT_MAX_TABLE_SIZE;
    if (init)
        for (uint32_t i = 0; i < t->size; i++) t->elems[i] = init;
    *out = t;
    return WEFT_OK;
}

void rt_table_destroy(weft_table *t) {
    if (!t) return;
    rt_budget_give(t->budget, (uint64_t)t->size * sizeof(void *));
    free(t->elems);
    free(t);
}

weft_status rt_table_create(weft_store *store, weft_valtype elem,
                            weft_limits limits, void *init,
                            weft_table **out, weft_error *err) {
    weft_status st = rt_table_alloc(elem, limits, init, store ? store->budget : NULL, out, err);
    if (st != WEFT_OK) return st;
    (*out)->store = store;
    if (!rt_store_add_table(store, *out)) {
        rt_table_destroy(*out);
        *out = NULL;
        return base_fail(err, WEFT_ERR_NOMEM, "out of memory registering a table");
    }
    return WEFT_OK;
}

/* §4.4.6 table.grow: -1 past the maximum or when out of memory; the table
   is then unchanged. */
int64_t rt_table_grow(weft_table *t, uint32_t delta, void *init) {
    uint32_t old = t->size;
    if (delta > t->max - old) return -1;
    if (delta == 0) return old;
    if (!rt_budget_take(t->budget, (uint64_t)delta * sizeof(void *))) return -1; /* over the budget */
    void **p = base_reallocarray(t->elems, (size_t)old + delta, sizeof *p);
    if (!p) {
        rt_budget_give(t->budget, (uint64_t)delta * sizeof(void *));
        return -1;
    }
    for (uint32_t i = old; i < old + delta; i++) p[i] = init;
    t->elems = p;
    t->size = old + delta;
    return old;
}

weft_limits rt_table_current_limits(const weft_table *t) {
    /* Growth updates the instance's type (§4.5.3 growtable), so its
       current size is its minimum when it is matched against an import. */
    weft_limits l = t->limits;
    l.min = t->size;
    return l;
}

/* ---- public API ---- */

/* Checks that `v` can be stored in a table of `t`'s type (same store for
   functions). */
static void *rt_ref_bits(weft_val v);

static weft_status rt_table_check_val(const weft_table *t, weft_val v) {
    if (v.type != t->elem) return WEFT_ERR_MISUSE;
    if (v.type == WEFT_FUNCREF && v.of.func && v.of.func->store != t->store)
        return WEFT_ERR_MISUSE;
    /* A table of a bottom type (nullfuncref, ...: module.h) holds null only. */
    if (mod_is_bottom(t->full_type) && rt_ref_bits(v) != NULL) return WEFT_ERR_MISUSE;
    return WEFT_OK;
}

static void *rt_ref_bits(weft_val v) {
    if (v.type == WEFT_FUNCREF) return v.of.func;
    if (v.type == WEFT_EXNREF) return v.of.exnref;
    return v.of.externref;
}

weft_status weft_table_new(weft_store *store, weft_valtype elem, weft_limits limits,
                           weft_table **out, weft_error *err) {
    if (out) *out = NULL;
    if (!store || !out) return base_fail(err, WEFT_ERR_MISUSE, "weft_table_new: NULL argument");
    if (limits.min > UINT32_MAX || (limits.has_max && limits.max > UINT32_MAX))
        return base_fail(err, WEFT_ERR_MISUSE, "table limits must fit in 32 bits");
    if (limits.shared) return base_fail(err, WEFT_ERR_MISUSE, "tables cannot be shared");
    return rt_table_create(store, elem, limits, NULL, out, err);
}

uint32_t weft_table_size(const weft_table *table) {
    return table ? table->size : 0;
}

weft_valtype weft_table_elem_type(const weft_table *table) {
    return table ? table->elem : 0;
}

weft_status weft_table_get(const weft_table *table, uint32_t index, weft_val *out) {
    if (!table || !out) return WEFT_ERR_MISUSE;
    if (index >= table->size) return WEFT_ERR_NOT_FOUND;
    *out = rt_val_from_bits(table->elem, (uint64_t)(uintptr_t)table->elems[index]);
    return WEFT_OK;
}

weft_status weft_table_set(weft_table *table, uint32_t index, weft_val value) {
    if (!table) return WEFT_ERR_MISUSE;
    if (index >= table->size) return WEFT_ERR_NOT_FOUND;
    weft_status st = rt_table_check_val(table, value);
    if (st != WEFT_OK) return st;
    table->elems[index] = rt_ref_bits(value);
    return WEFT_OK;
}

weft_status weft_table_grow(weft_table *table, uint32_t delta, weft_val init,
                            uint32_t *old_size) {
    if (!table) return WEFT_ERR_MISUSE;
    weft_status st = rt_table_check_val(table, init);
    if (st != WEFT_OK) return st;
    int64_t old = rt_table_grow(table, delta, rt_ref_bits(init));
    if (old < 0) return WEFT_ERR_LIMIT;
    if (old_size) *old_size = (uint32_t)old;
    return WEFT_OK;
}
