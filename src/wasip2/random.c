/*
 * random.c — wasi:random@0.2.12: random, insecure, insecure-seed
 * (../shared/spec/wasi-wit/v0.2.12/proposals/random). Bytes come from the
 * preview1 context's source (a process's hook in deterministic mode, else
 * getrandom), for the secure and the insecure interfaces alike; the
 * insecure seed is drawn once per instance state.
 */
#include "wasip2.h"

/* The largest get-*-random-bytes answered: a list<u8> never lowers into a
   32-bit memory past 4 GiB, and each byte is a cm_val here; beyond it the
   call traps rather than exhaust the host. */
#define WP2_RANDOM_MAX (64u << 20)

static bool wp2_random(wp2_ctx *x, void *buf, size_t len) { return wp2_fill_random(x->w, buf, len); }

static weft_status wp2_bytes(cm_host_call *call, uint64_t len, cm_val *result, weft_error *err,
                             const char *what) {
    if (len > WP2_RANDOM_MAX)
        return wp2_trap(err, "%s: %llu bytes asked, past weft's limit of %u", what,
                        (unsigned long long)len, WP2_RANDOM_MAX);
    cm_val *items = wp2_vals(call, (uint32_t)len);
    uint8_t *buf = cm_arena_alloc(call->arena, len ? len : 1, 1);
    if (!items || !buf) return wp2_nomem(err, what);
    if (!wp2_random(wp2_of(call), buf, len)) return wp2_trap(err, "%s: the host's random source failed", what);
    for (uint64_t i = 0; i < len; i++) {
        items[i].kind = CM_U8;
        items[i].v.u = buf[i];
    }
    result->kind = CM_LIST;
    result->n = (uint32_t)len;
    result->v.items = items;
    return WEFT_OK;
}

static weft_status wp2_u64(cm_host_call *call, cm_val *result, weft_error *err, const char *what) {
    uint64_t v;
    if (!wp2_random(wp2_of(call), &v, sizeof v)) return wp2_trap(err, "%s: the host's random source failed", what);
    wp2_set_u64(result, v);
    return WEFT_OK;
}

weft_status wp2_random_random_get_random_bytes(cm_host_call *call, const cm_val *args,
                                               cm_val *result, weft_error *err) {
    return wp2_bytes(call, args[0].v.u, result, err, "get-random-bytes");
}

weft_status wp2_random_random_get_random_u64(cm_host_call *call, const cm_val *args, cm_val *result,
                                             weft_error *err) {
    (void)args;
    return wp2_u64(call, result, err, "get-random-u64");
}

weft_status wp2_random_insecure_get_insecure_random_bytes(cm_host_call *call, const cm_val *args,
                                                          cm_val *result, weft_error *err) {
    return wp2_bytes(call, args[0].v.u, result, err, "get-insecure-random-bytes");
}

weft_status wp2_random_insecure_get_insecure_random_u64(cm_host_call *call, const cm_val *args,
                                                        cm_val *result, weft_error *err) {
    (void)args;
    return wp2_u64(call, result, err, "get-insecure-random-u64");
}

/* insecure-seed: func() -> tuple<u64, u64>: the same pair for every call
   of one instance (insecure-seed.wit: meant to seed hash-map DoS
   protection once). */
weft_status wp2_random_insecure_seed_insecure_seed(cm_host_call *call, const cm_val *args,
                                                   cm_val *result, weft_error *err) {
    (void)args;
    cm_val *m = wp2_vals(call, 2);
    if (!m) return wp2_nomem(err, "insecure-seed");
    wp2_set_u64(&m[0], wp2_of(call)->insecure_seed[0]);
    wp2_set_u64(&m[1], wp2_of(call)->insecure_seed[1]);
    result->kind = CM_TUPLE;
    result->n = 2;
    result->v.items = m;
    return WEFT_OK;
}
