/* parked_forever — a program whose threads all wait for good, each in
   another way: thread 2 on a futex, thread 3 reading stdin, thread 4 in a
   60 s sleep, thread 5 on a futex with a 60 s timeout; main prints
   "ready" once they have started and waits on a futex too. The test sends
   SIGQUIT and reads the thread dump, then kills it. */
#include "rt.h"

static i32 never, started;

static void futex_forever(void *a) { (void)a; rt_add(&started, 1); for (;;) rt_wait(&never, 0, -1); }
static void reader(void *a) {
    (void)a;
    char buf[16];
    rt_iovec v = {buf, sizeof buf};
    size_t n;
    rt_add(&started, 1);
    rt_fd_read(0, &v, 1, &n);
}
static void sleeper(void *a) { (void)a; rt_add(&started, 1); rt_sleep(60000000000ll); }
static void timed(void *a) { (void)a; rt_add(&started, 1); rt_wait(&never, 0, 60000000000ll); }

void _start(void) {
    RT_CHECK(rt_spawn(futex_forever, 0, 0), "spawn");
    RT_CHECK(rt_spawn(reader, 0, 0), "spawn");
    RT_CHECK(rt_spawn(sleeper, 0, 0), "spawn");
    RT_CHECK(rt_spawn(timed, 0, 0), "spawn");
    while (rt_load(&started) < 4) rt_sched_yield();
    rt_puts("ready\n");
    for (;;) rt_wait(&never, 0, -1);
}
