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
static volatile i64 sink;

/* Not a tail call: the store after it keeps the frame. */
__attribute__((noinline)) static i64 rec(i64 n, i64 a) {
    if (n == 0) return a;
    i64 r = rec(n - 1, a * 31 + n);
    sink = r;
    return r ^ n;
}

static void dive(void *arg) {
    (void)arg;
    rt_barrier_wait(&start);
    sink = rec(depth, 1);
}

void _start(void) {
    i32 n = (i32)rt_arg_int(1, 127);
    depth = rt_arg_int(2, 10000000);
    start.n = n + 1;
    rt_thread *t[RT_SLOTS];
    for (i32 i = 0; i < n; i++) RT_CHECK(t[i] = rt_spawn(dive, 0, 0), "spawn");
    dive(0);
    for (i32 i = 0; i < n; i++) rt_join(t[i]);
    rt_puts("done\n");
}
