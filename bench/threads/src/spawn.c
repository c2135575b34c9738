/* spawn — argv[1] times (default 2000) spawns a thread that does nothing
   and joins it, one after the other. Prints the count, the guest-measured
   time and the nanoseconds per spawn + join. */
#include "../../../tests/threads/src/rt.h"

static void nothing(void *arg) { (void)arg; }

void _start(void) {
    i32 n = (i32)rt_arg_int(1, 2000);
    i64 t0 = rt_now(RT_MONOTONIC);
    for (i32 i = 0; i < n; i++) {
        rt_thread *t = rt_spawn(nothing, 0, 0);
        RT_CHECK(t, "spawn");
        rt_join(t);
    }
    i64 dt = rt_now(RT_MONOTONIC) - t0;
    rt_say("spawns", n);
    rt_say("ms", dt / 1000000);
    rt_say("ns_per_spawn", dt / (n ? n : 1));
}
