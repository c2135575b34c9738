/* trap_in_thread — thread 2 reaches `unreachable` inside crash(); the
   program ends with "thread 2: unreachable" and a backtrace naming crash,
   while the main thread waits to join it. */
#include "rt.h"

__attribute__((noinline)) void crash(i32 depth);
__attribute__((noinline)) void crash(i32 depth) {
    if (depth == 0) __builtin_trap();
    crash(depth - 1);
}
static void body(void *a) { (void)a; crash(2); }

void _start(void) {
    rt_thread *t = rt_spawn(body, 0, 0);
    RT_CHECK(t, "spawn");
    rt_join(t);
    rt_fail("joined a thread that trapped");
}
