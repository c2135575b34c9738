/* global.c — globals (§4.2.9 global instances) and the slot form of values
   they share with the interpreter. */
#include "internal.h"

uint64_t rt_val_to_bits(weft_val v) {
    switch (v.type) {
    case WEFT_I32: return (uint32_t)v.of.i32;
    case WEFT_F32: return v.of.f32_bits;
    case WEFT_I64: return (uint64_t)v.of.i64;
    case WEFT_F64: return v.of.f64_bits;
    case WEFT_FUNCREF: return (uint64_t)(uintptr_t)v.of.func;
    case WEFT_EXTERNREF: return (uint64_t)(uintptr_t)v.of.externref;
    case WEFT_EXNREF: return (uint64_t)(uintptr_t)v.of.exnref;
    }
    return v.of.bits;
}

weft_val rt_val_from_bits(weft_valtype type, uint64_t bits) {
    weft_val v;
    memset(&v, 0, sizeof v);
    v.type = type;
    switch (type) {
    case WEFT_I32: v.of.i32 = (int32_t)(uint32_t)bits; break;
    case WEFT_F32: v.of.f32_bits = (uint32_t)bits; break;
    case WEFT_I64: v.of.i64 = (int64_t)bits; break;
    case WEFT_F64: v.of.f64_bits = bits; break;
    case WEFT_FUNCREF: v.of.func = (weft_func *)(uintptr_t)bits; break;
    case WEFT_EXTERNREF: v.of.externref = (void *)(uintptr_t)bits; break;
    case WEFT_EXNREF: v.of.exnref = (weft_exn *)(uintptr_t)bits; break;
    default: v.of.bits = bits; break;
    }
    return v;
}

uint32_t rt_val_put(uint64_t *slots, weft_val v) {
    if (v.type == WEFT_V128) {
        memcpy(slots, v.of.v128, 16);
        return 2;
    }
    slots[0] = rt_val_to_bits(v);
    return 1;
}

weft_val rt_val_get(weft_valtype type, const uint64_t *slots) {
    if (type != WEFT_V128) return rt_val_from_bits(type, slots[0]);
    weft_val v;
    memset(&v, 0, sizeof v);
    v.type = WEFT_V128;
    memcpy(v.of.v128, slots, 16);
    return v;
}

void rt_global_destroy(weft_global *g) {
    free(g);
}

/* A value the host may put in a global of `store`: a known type, and a
   function only from the same store. */
static bool rt_global_val_ok(const weft_store *store, weft_val v) {
    switch (v.type) {
    case WEFT_I32: case WEFT_I64: case WEFT_F32: case WEFT_F64: case WEFT_EXTERNREF: case WEFT_V128:
        return true;
    case WEFT_FUNCREF:
        return !v.of.func || v.of.func->store == store;
    case WEFT_EXNREF:
        return true; /* exceptions carry no store of their own to compare */
    }
    return false;
}

weft_status weft_global_new(weft_store *store, weft_val value, bool mutable_,
                            weft_global **out, weft_error *err) {
    if (out) *out = NULL;
    if (!store || !out) return base_fail(err, WEFT_ERR_MISUSE, "weft_global_new: NULL argument");
    if (value.type == WEFT_FUNCREF && !rt_global_val_ok(store, value))
        return base_fail(err, WEFT_ERR_MISUSE, "a global's function must belong to the same store");
    if (!rt_global_val_ok(store, value))
        return base_fail(err, WEFT_ERR_MISUSE, "a global cannot hold a value of type %s",
                         weft_valtype_name(value.type));
    weft_global *g = calloc(1, sizeof *g);
    if (!g) return base_fail(err, WEFT_ERR_NOMEM, "out of memory allocating a global");
    g->type = value.type;
    g->full_type = value.type;
    g->mut = mutable_;
    g->value = rt_val_to_bits(value);
    if (value.type == WEFT_V128) memcpy(&g->value_hi, value.of.v128 + 8, 8);
    g->store = store;
    if (!rt_store_add_global(store, g)) {
        free(g);
        return base_fail(err, WEFT_ERR_NOMEM, "out of memory registering a global");
    }
    *out = g;
    return WEFT_OK;
}

weft_val weft_global_get(const weft_global *global) {
    if (!global) return (weft_val){0};
    uint64_t slots[2] = {global->value, global->value_hi};
    return rt_val_get(global->type, slots);
}

weft_status weft_global_set(weft_global *global, weft_val value) {
    if (!global) return WEFT_ERR_MISUSE;
    if (!global->mut) return WEFT_ERR_MISUSE;           /* immutable */
    if (value.type != global->type) return WEFT_ERR_MISUSE;
    if (!rt_global_val_ok(global->store, value)) return WEFT_ERR_MISUSE;
    /* A global of a bottom type (nullfuncref, ...: module.h) holds null only. */
    if (mod_is_bottom(global->full_type) && rt_val_to_bits(value) != 0) return WEFT_ERR_MISUSE;
    global->value = rt_val_to_bits(value);
    if (value.type == WEFT_V128) memcpy(&global->value_hi, value.of.v128 + 8, 8);
    return WEFT_OK;
}

bool weft_global_mutable(const weft_global *global) {
    return global && global->mut;
}
