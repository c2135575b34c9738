/* pingpong — two threads hand a token back and forth through
   memory.atomic.wait32/notify: the main thread waits for turn 0 and gives
   turn 1, thread 2 the reverse. argv[1] round trips (default 200000). Prints
   the count, the guest-measured time and round trips per second. */
#include "../../../tests/threads/src/rt.h"

static i32 turn;
static i32 rounds;

static void side(i32 me) {
    for (i32 i = 0; i < rounds; i++) {
        while (rt_load(&turn) != me) rt_wait(&turn, 1 - me, -1);
        rt_store(&turn, 1 - me);
        rt_notify(&turn, 1);
    }
}

static void other(void *arg) { (void)arg; side(1); }

void _start(void) {
    rounds = (i32)rt_arg_int(1, 200000);
    rt_thread *t = rt_spawn(other, 0, 0);
    RT_CHECK(t, "spawn");
    i64 t0 = rt_now(RT_MONOTONIC);
    side(0);
    rt_join(t);
    i64 dt = rt_now(RT_MONOTONIC) - t0;
    rt_say("round_trips", rounds);
    rt_say("ms", dt / 1000000);
    rt_say("per_s", (i64)rounds * 1000000000 / (dt ? dt : 1));
}
