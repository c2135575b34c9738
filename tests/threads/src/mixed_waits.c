/* mixed_waits — every kind of wait at once: one thread reads stdin (a pipe
   the test writes to after a pause), one sleeps ten times, two play
   ping-pong through a futex, one waits with timeouts that expire. With
   --sched pool --runners 1 the reader holds the only runner inside
   fd_read, so the others go on only if a replacement runner takes over. */
#include "rt.h"

static i32 ball, rounds_done, sleeps_done, timeouts, got;
#define ROUNDS 2000

static void reader(void *a) {
    (void)a;
    char buf[64];
    rt_iovec v = {buf, sizeof buf};
    size_t n = 0, total = 0;
    while (rt_fd_read(0, &v, 1, &n) == 0 && n > 0) total += n;
    rt_store(&got, (i32)total);
}
static void sleeper(void *a) {
    (void)a;
    for (i32 i = 0; i < 10; i++) rt_sleep(5000000);
    rt_store(&sleeps_done, 10);
}
/* Player p waits for ball == p, then passes it to the other. */
static void player(void *a) {
    i32 p = (i32)(size_t)a;
    for (i32 i = 0; i < ROUNDS; i++) {
        i32 b;
        while ((b = rt_load(&ball)) != p) rt_wait(&ball, b, -1);
        rt_store(&ball, 1 - p);
        rt_notify(&ball, 1);
    }
    rt_add(&rounds_done, ROUNDS);
}
static void timer(void *a) {
    (void)a;
    static i32 never;
    for (i32 i = 0; i < 5; i++) timeouts += rt_wait(&never, 0, 2000000) == 2;
}

void _start(void) {
    rt_thread *t[6];
    RT_CHECK(t[0] = rt_spawn(reader, 0, 0), "spawn");
    RT_CHECK(t[1] = rt_spawn(sleeper, 0, 0), "spawn");
    RT_CHECK(t[2] = rt_spawn(player, (void *)0, 0), "spawn");
    RT_CHECK(t[3] = rt_spawn(player, (void *)1, 0), "spawn");
    RT_CHECK(t[4] = rt_spawn(timer, 0, 0), "spawn");
    /* Everything but the reader finishes while stdin is still silent. */
    for (i32 i = 1; i < 5; i++) rt_join(t[i]);
    rt_say("rounds", rt_load(&rounds_done));
    rt_say("sleeps", rt_load(&sleeps_done));
    rt_say("timeouts", timeouts);
    rt_join(t[0]);
    rt_say("read", rt_load(&got));
}
