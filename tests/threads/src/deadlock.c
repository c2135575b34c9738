/* deadlock — the classic lock-order inversion between the main thread and
   thread 2: main holds A and wants B, thread 2 holds B and wants A. The
   handshake makes the deadlock certain, and the process must report it
   and end instead of hanging. */
#include "rt.h"

static rt_mutex a, b;
static i32 has_b;

static void second(void *arg) {
    (void)arg;
    rt_lock(&b);
    rt_store(&has_b, 1);
    rt_notify(&has_b, 1);
    rt_lock(&a); /* never */
}

void _start(void) {
    rt_lock(&a);
    RT_CHECK(rt_spawn(second, 0, 0), "spawn");
    while (rt_load(&has_b) == 0) rt_wait(&has_b, 0, -1);
    rt_lock(&b); /* never */
    rt_fail("took both locks");
}
