/* cpu — a CPU-bound job split over T threads (argv[1], default 1): hash
   N = argv[2] million integers (default 120) with a xorshift-multiply mix
   and add the results. Thread k takes the k-th contiguous slice, the main
   thread takes slice 0, and nothing is shared until each thread stores its
   sum; so T threads on T free cores should take 1/T of the time. Prints
   the checksum (the same for every T) and the guest-measured time. */
#include "../../../tests/threads/src/rt.h"

typedef struct slice {
    u64 from, to, sum;
} slice;

static void work(void *arg) {
    slice *s = arg;
    u64 sum = 0;
    for (u64 i = s->from; i < s->to; i++) {
        u64 x = i * 0x9E3779B97F4A7C15ull;
        x ^= x >> 29;
        x *= 0xBF58476D1CE4E5B9ull;
        x ^= x >> 32;
        sum += x & 0xffff;
    }
    s->sum = sum;
}

void _start(void) {
    i32 t = (i32)rt_arg_int(1, 1);
    u64 n = (u64)rt_arg_int(2, 120) * 1000000ull;
    i32 spawned = (i32)rt_arg_int(3, 0) != 0; /* slice 0 in a thread too */
    if (t < 1 || t > 16) rt_fail("threads must be 1..16");
    static slice s[16];
    for (i32 k = 0; k < t; k++) {
        s[k].from = n * (u64)k / (u64)t;
        s[k].to = n * (u64)(k + 1) / (u64)t;
    }
    i64 t0 = rt_now(RT_MONOTONIC);
    rt_thread *th[16];
    for (i32 k = 1 - spawned; k < t; k++) RT_CHECK(th[k] = rt_spawn(work, &s[k], 0), "spawn");
    if (!spawned) work(&s[0]);
    u64 sum = 0;
    for (i32 k = 0; k < t; k++) {
        if (k > 0 || spawned) rt_join(th[k]);
        sum += s[k].sum;
    }
    i64 dt = rt_now(RT_MONOTONIC) - t0;
    rt_say("threads", t);
    rt_say("checksum", (i64)sum);
    rt_say("ms", dt / 1000000);
}
