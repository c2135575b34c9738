/* timed_wait — the results of memory.atomic.wait: 1 when the value
   differs, 2 when a timeout expires (and not before it), 0 when notified
   before the timeout; notify returns how many it woke. */
#include "rt.h"

static i32 word, flag;
static i64 word64;

static void waker(void *arg) {
    (void)arg;
    /* Wait until main is queued (notify returns 1), then stop. */
    while (rt_notify(&flag, 1) == 0) rt_sched_yield();
}

void _start(void) {
    RT_CHECK(rt_wait(&word, 1, -1) == 1, "not-equal must be 1");
    RT_CHECK(rt_notify(&word, 5) == 0, "no waiters: notify 0");
    i64 t0 = rt_now(RT_MONOTONIC);
    i32 r = rt_wait(&word, 0, 50000000);
    i64 dt = rt_now(RT_MONOTONIC) - t0;
    rt_say("wait32", r);
    RT_CHECK(r == 2, "timed wait must be 2");
    RT_CHECK(dt >= 50000000, "timed wait ended early");
    RT_CHECK(dt < 2000000000, "timed wait far too long");
    t0 = rt_now(RT_MONOTONIC);
    r = rt_wait64(&word64, 0, 20000000);
    rt_say("wait64", r);
    RT_CHECK(r == 2 && rt_now(RT_MONOTONIC) - t0 >= 20000000, "wait64 timeout");
    RT_CHECK(rt_wait(&word, 0, 0) == 2, "timeout 0 must be 2");
    rt_thread *t = rt_spawn(waker, 0, 0);
    RT_CHECK(t, "spawn");
    r = rt_wait(&flag, 0, 10000000000ll);
    rt_say("woken", r);
    RT_CHECK(r == 0, "a notified timed wait must be 0");
    rt_join(t);
}
