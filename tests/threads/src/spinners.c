/* spinners — N threads (argument 1, default 16) and the main thread spin
   forever without a futex: a process that would hold every runner of a
   scheduler if nothing preempted it. Only a stop ends it. */
#include "rt.h"

static i32 never;

static void spin(void *a) {
    (void)a;
    while (rt_load(&never) == 0) {}
}

void _start(void) {
    i32 n = (i32)rt_arg_int(1, 16);
    for (i32 i = 0; i < n; i++) RT_CHECK(rt_spawn(spin, 0, 0), "spawn");
    spin(0);
}
