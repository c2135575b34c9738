/*
 * clocks.c — wasi:clocks@0.2.12: monotonic-clock and wall-clock
 * (../shared/spec/wasi-wit/v0.2.12/proposals/clocks). Times come from the
 * preview1 layer's wasi_clock_now, so a process that takes over the
 * clocks (deterministic mode) takes over these too; timezone is
 * @unstable and not provided.
 */
#include <errno.h>
#include <time.h>

#include "wasip2.h"

static uint64_t wp2_now(cm_host_call *call, uint32_t clock) {
    int64_t t = wasi_clock_now(wp2_of(call)->w, clock);
    return t < 0 ? 0 : (uint64_t)t; /* REALTIME and MONOTONIC always exist on Linux */
}

static uint64_t wp2_res(uint32_t clock) {
    struct timespec ts;
    if (clock_getres(wasi_host_clock(clock), &ts) != 0) return 1;
    uint64_t ns = (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
    return ns ? ns : 1;
}

/* now: func() -> instant (ns). */
weft_status wp2_clocks_monotonic_clock_now(cm_host_call *call, const cm_val *args, cm_val *result,
                                           weft_error *err) {
    (void)args;
    (void)err;
    wp2_set_u64(result, wp2_now(call, WASI_CLOCK_MONOTONIC));
    return WEFT_OK;
}

/* resolution: func() -> duration (ns). */
weft_status wp2_clocks_monotonic_clock_resolution(cm_host_call *call, const cm_val *args,
                                                  cm_val *result, weft_error *err) {
    (void)call;
    (void)args;
    (void)err;
    wp2_set_u64(result, wp2_res(WASI_CLOCK_MONOTONIC));
    return WEFT_OK;
}

static weft_status wp2_clock_pollable(cm_host_call *call, int64_t deadline, cm_val *result,
                                      weft_error *err) {
    wp2_pollable p = {.kind = WP2_POLL_CLOCK, .deadline = deadline, .host = -1, .parent_res = -1};
    uint32_t rep = wp2_pollable_new(wp2_of(call), &p);
    if (!rep) return wp2_nomem(err, "subscribe");
    wp2_set_handle(result, CM_OWN, rep);
    return WEFT_OK;
}

/* subscribe-instant: func(when: instant) -> pollable: ready once the
   clock reads `when` or later. */
weft_status wp2_clocks_monotonic_clock_subscribe_instant(cm_host_call *call, const cm_val *args,
                                                         cm_val *result, weft_error *err) {
    uint64_t when = args[0].v.u;
    return wp2_clock_pollable(call, when > INT64_MAX ? INT64_MAX : (int64_t)when, result, err);
}

/* subscribe-duration: func(when: duration) -> pollable: ready `when` ns
   after this call. */
weft_status wp2_clocks_monotonic_clock_subscribe_duration(cm_host_call *call, const cm_val *args,
                                                          cm_val *result, weft_error *err) {
    uint64_t now = wp2_now(call, WASI_CLOCK_MONOTONIC), d = args[0].v.u;
    uint64_t when = d > (uint64_t)INT64_MAX - now ? (uint64_t)INT64_MAX : now + d;
    return wp2_clock_pollable(call, (int64_t)when, result, err);
}

/* datetime { seconds: u64, nanoseconds: u32 } */
static weft_status wp2_datetime(cm_host_call *call, uint64_t ns, cm_val *result, weft_error *err) {
    cm_val *f = wp2_vals(call, 2);
    if (!f) return wp2_nomem(err, "wall-clock");
    wp2_set_u64(&f[0], ns / 1000000000u);
    f[1].kind = CM_U32;
    f[1].v.u = ns % 1000000000u;
    result->kind = CM_RECORD;
    result->n = 2;
    result->v.items = f;
    return WEFT_OK;
}

weft_status wp2_clocks_wall_clock_now(cm_host_call *call, const cm_val *args, cm_val *result,
                                      weft_error *err) {
    (void)args;
    return wp2_datetime(call, wp2_now(call, WASI_CLOCK_REALTIME), result, err);
}

weft_status wp2_clocks_wall_clock_resolution(cm_host_call *call, const cm_val *args,
                                             cm_val *result, weft_error *err) {
    (void)args;
    return wp2_datetime(call, wp2_res(WASI_CLOCK_REALTIME), result, err);
}
