/* short_lived — 1000 threads that each live for one atomic add, at most 16
   at a time; every tid is new (2..1001, none reused) and the count is
   exact. */
#include "rt.h"

#define TOTAL 1000
#define WIDTH 16
static i32 count;
static i32 seen[TOTAL + 2];

static void tick(void *a) { (void)a; rt_add(&count, 1); }

void _start(void) {
    rt_thread *ring[WIDTH] = {0};
    for (i32 i = 0; i < TOTAL; i++) {
        rt_thread **slot = &ring[i % WIDTH];
        if (*slot) rt_join(*slot);
        RT_CHECK(*slot = rt_spawn(tick, 0, 0), "spawn");
        i32 tid = (*slot)->tid;
        RT_CHECK(tid >= 2 && tid <= TOTAL + 1, "tid out of range");
        RT_CHECK(seen[tid]++ == 0, "tid reused");
    }
    for (i32 i = 0; i < WIDTH; i++)
        if (ring[i]) rt_join(ring[i]);
    rt_say("threads", rt_load(&count));
    RT_CHECK(count == TOTAL, "lost threads");
}
