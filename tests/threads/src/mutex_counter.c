/* mutex_counter — 4 threads each add 1 to a plain counter 20000 times
   under a futex mutex; the main thread joins them and checks 80000. */
#include "rt.h"

static rt_mutex m;
static i32 counter; /* guarded by m */

static void worker(void *arg) {
    (void)arg;
    for (i32 i = 0; i < 20000; i++) {
        rt_lock(&m);
        counter = counter + 1;
        rt_unlock(&m);
    }
}

void _start(void) {
    rt_thread *t[4];
    for (i32 i = 0; i < 4; i++) RT_CHECK(t[i] = rt_spawn(worker, 0, 0), "spawn");
    for (i32 i = 0; i < 4; i++) rt_join(t[i]);
    rt_lock(&m);
    rt_say("counter", counter);
    rt_unlock(&m);
    RT_CHECK(counter == 80000, "lost increments");
}
