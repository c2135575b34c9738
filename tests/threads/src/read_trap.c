/* read_trap — the main thread blocks reading stdin, a pipe that stays
   silent, while thread 2 works a little and then reaches `unreachable`:
   the program must end with "thread 2: unreachable" at once in every
   mode. Under --deterministic the read used to hold the one runner until
   data came, so the trap never ran and the program hung (issue 39); now
   the read parks its thread until no other is ready. */
#include "rt.h"

static i32 sum;

static void body(void *a) {
    (void)a;
    for (i32 i = 0; i < 100000; i++) rt_add(&sum, i); /* some safe points first */
    __builtin_trap();
}

void _start(void) {
    rt_thread *t = rt_spawn(body, 0, 0);
    RT_CHECK(t, "spawn");
    char buf[16];
    rt_iovec v = {buf, sizeof buf};
    size_t n = 0;
    rt_fd_read(0, &v, 1, &n);
    rt_fail("the read returned before the trap");
}
