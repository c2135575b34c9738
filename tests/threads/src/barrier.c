/* barrier — 4 threads (3 spawned + main) meet at a barrier 200 times; in
   each round every thread adds to that round's slot, and after the next
   barrier every slot of the round must be complete. */
#include "rt.h"

#define N 4
#define ROUNDS 200
static rt_barrier bar = {0, 0, N};
static i32 slot[ROUNDS];
static i32 bad;

static void body(void *arg) {
    (void)arg;
    for (i32 r = 0; r < ROUNDS; r++) {
        rt_add(&slot[r], 1);
        rt_barrier_wait(&bar);
        if (rt_load(&slot[r]) != N) rt_add(&bad, 1);
        rt_barrier_wait(&bar);
    }
}

void _start(void) {
    rt_thread *t[N - 1];
    for (i32 i = 0; i < N - 1; i++) RT_CHECK(t[i] = rt_spawn(body, 0, 0), "spawn");
    body(0);
    for (i32 i = 0; i < N - 1; i++) rt_join(t[i]);
    rt_say("rounds", ROUNDS);
    rt_say("bad", bad);
    RT_CHECK(bad == 0, "a thread passed the barrier early");
}
