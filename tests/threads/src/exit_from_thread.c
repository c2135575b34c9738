/* exit_from_thread — proc_exit(7) from one thread ends the program while
   the others are in an untimed futex wait, a 30 s sleep, a blocking read
   of stdin, a spin loop, and a 60 s timed wait; the main thread joins the
   exiting thread (which never returns). Prints the realtime clock at the
   call on stderr ("exit-at NS") so the runner can measure the latency.
   Built with -DTRAP (trap_from_thread), the thread traps instead. */
#include "rt.h"

static i32 never, started;

static void futex_forever(void *a) { (void)a; rt_add(&started, 1); for (;;) rt_wait(&never, 0, -1); }
static void sleeper(void *a) { (void)a; rt_add(&started, 1); rt_sleep(30000000000ll); rt_fail("sleep not interrupted"); }
static void reader(void *a) {
    (void)a;
    char buf[16];
    rt_iovec v = {buf, sizeof buf};
    size_t n;
    rt_add(&started, 1);
    rt_fd_read(0, &v, 1, &n);
}
static void spinner(void *a) { (void)a; rt_add(&started, 1); while (rt_load(&never) == 0) {} }
static void timed(void *a) { (void)a; rt_add(&started, 1); rt_wait(&never, 0, 60000000000ll); }
static void exiter(void *a) {
    (void)a;
    while (rt_load(&started) < 5) rt_sched_yield();
    rt_sleep(50000000); /* let the others settle into their waits */
    char buf[32];
    rt_eputs("exit-at ");
    rt_eputs(rt_fmt_i64(buf + sizeof buf, rt_now(RT_REALTIME)));
    rt_eputs("\n");
#ifdef TRAP
    __builtin_trap();
#else
    rt_proc_exit(7);
#endif
}

void _start(void) {
    RT_CHECK(rt_spawn(futex_forever, 0, 0), "spawn");
    RT_CHECK(rt_spawn(sleeper, 0, 0), "spawn");
    RT_CHECK(rt_spawn(reader, 0, 0), "spawn");
    RT_CHECK(rt_spawn(spinner, 0, 0), "spawn");
    RT_CHECK(rt_spawn(timed, 0, 0), "spawn");
    rt_thread *e = rt_spawn(exiter, 0, 0);
    RT_CHECK(e, "spawn");
    rt_join(e);
    rt_fail("join of the exiting thread returned");
}
