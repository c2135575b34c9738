/* thread_limit — with a limit of L threads (argv[1], default 4, run with
   --max-threads L; 128 is weft's default), L - 1 spawns succeed (L threads
   alive, main included) and the next returns -6 (EAGAIN); once the threads
   have been joined, a spawn succeeds again. Built twice: with -DFAIL the
   program then exits 1, and weft must print why the spawn failed. */
#include "rt.h"

static i32 release;
static void hold(void *a) { (void)a; while (rt_load(&release) == 0) rt_wait(&release, 0, -1); }

void _start(void) {
    static rt_thread *t[RT_SLOTS];
    i32 limit = (i32)rt_arg_int(1, 4);
    i32 n = 0, err = 0;
    while (n < RT_SLOTS) {
        rt_thread *x = rt_spawn(hold, 0, &err);
        if (!x) break;
        t[n++] = x;
    }
    rt_say("spawned", n);
    rt_say("error", err);
    RT_CHECK(n == limit - 1 && err == -6, "limit");
    rt_store(&release, 1);
    rt_notify(&release, 0x7fffffff);
    for (i32 i = 0; i < n; i++) rt_join(t[i]);
    /* The joined threads have ended, but the process may not have counted
       them out yet: retry for a while. */
    rt_thread *again = 0;
    for (i32 i = 0; i < 1000 && !again; i++) {
        again = rt_spawn(hold, 0, &err);
        if (!again) rt_sleep(1000000);
    }
    RT_CHECK(again, "a spawn after joins must succeed");
    rt_join(again);
    rt_say("again", again->tid > 4);
#ifdef FAIL
    rt_proc_exit(1);
#endif
}
