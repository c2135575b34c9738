/* spin_flag — threads that hand work over with atomic flags and no
   futex at all: thread 2 spins until main publishes input, main spins
   until thread 2 publishes the result. */
#include "rt.h"

static i32 input_ready, output_ready;
static i32 input, output;

static void worker(void *a) {
    (void)a;
    while (rt_load(&input_ready) == 0) {}
    i32 x = rt_load(&input), s = 0;
    for (i32 i = 0; i < x; i++) s += i % 13;
    rt_store(&output, s);
    rt_store(&output_ready, 1);
}

void _start(void) {
    rt_thread *t = rt_spawn(worker, 0, 0);
    RT_CHECK(t, "spawn");
    for (volatile i32 i = 0; i < 100000; i++) {}
    rt_store(&input, 1000000);
    rt_store(&input_ready, 1);
    while (rt_load(&output_ready) == 0) {}
    i32 s = 0;
    for (i32 i = 0; i < 1000000; i++) s += i % 13;
    rt_say("output", rt_load(&output));
    RT_CHECK(rt_load(&output) == s, "wrong output");
    rt_join(t);
}
