/* deep_recursion — N threads (argument 1, default 127) and the main
   thread each recurse DEPTH calls deep (argument 2, default 10,000,000:
   past any stack), then print "done". With every thread's wasm stack
   counted against --max-memory (issue 26), a run under --max-memory 64M
   ends with one thread trapping "call stack exhausted" and weft's
   resident memory stays near the budget; without a budget each thread may
   touch its whole --max-stack (64 MiB by default). The threads wait at a
   barrier first, so all of them recurse at once. */
#include "rt.h"

static rt_barrier start;
static i64 depth;
static i64 sinks[RT_SLOTS + 1]; /* one word per thread: no race */

/* Not a tail call: the volatile store after it keeps the frame. Each
   thread stores into its own word (plain stores to one shared word would
   be a race of the guest's, which ThreadSanitizer reports). */
__attribute__((noinline)) static i64 rec(i64 n, i64 a, volatile i64 *sink) {
    if (n == 0) return a;
    i64 r = rec(n - 1, a * 31 + n, sink);
    *sink = r;
    return r ^ n;
}

static void dive(void *arg) {
    volatile i64 *sink = arg;
    rt_barrier_wait(&start);
    *sink = rec(depth, 1, sink);
}

void _start(void) {
    i32 n = (i32)rt_arg_int(1, 127);
    depth = rt_arg_int(2, 10000000);
    start.n = n + 1;
    rt_thread *t[RT_SLOTS];
    RT_CHECK(n <= RT_SLOTS, "at most RT_SLOTS threads");
    for (i32 i = 0; i < n; i++) RT_CHECK(t[i] = rt_spawn(dive, &sinks[i + 1], 0), "spawn");
    dive(&sinks[0]);
    for (i32 i = 0; i < n; i++) rt_join(t[i]);
    rt_puts("done\n");
}
