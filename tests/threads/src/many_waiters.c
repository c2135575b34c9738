/* many_waiters — N threads (argument 1, default 10000) alive at once, all
   waiting on one condition variable, then released by one broadcast. With
   --sched pool they park without an OS thread each; every one must wake,
   and the count of those that were waiting when the broadcast came must
   be N. */
#define RT_SLOTS 10001
#define RT_STACK 1024
#include "rt.h"

static rt_mutex m;
static rt_cond go, all_in;
static i32 waiting, released, open_gate; /* guarded by m */
static i32 n;

static void waiter(void *a) {
    (void)a;
    rt_lock(&m);
    if (++waiting == n) rt_cond_signal(&all_in);
    while (!open_gate) rt_cond_wait(&go, &m);
    released++;
    rt_unlock(&m);
}

void _start(void) {
    n = (i32)rt_arg_int(1, 10000);
    RT_CHECK(n > 0 && n < RT_SLOTS, "bad thread count");
    static rt_thread *t[RT_SLOTS];
    for (i32 i = 0; i < n; i++) RT_CHECK(t[i] = rt_spawn(waiter, 0, 0), "spawn");
    rt_lock(&m);
    while (waiting < n) rt_cond_wait(&all_in, &m);
    rt_say("waiting", waiting);
    open_gate = 1;
    rt_cond_broadcast(&go);
    rt_unlock(&m);
    for (i32 i = 0; i < n; i++) rt_join(t[i]);
    rt_say("released", released);
}
