/* race — a data race on purpose: 4 threads each add 1 to a shared counter
   10,000 times with no lock, as a plain load, a call, and a store (the
   call is a safe point, where an interleaving can put another thread
   between the load and the store). Prints the final counter: 40000 only
   when no increment was lost. Under --deterministic SEED the same seed
   must print the same counter every time, and different seeds different
   counters. */
#include "rt.h"

#define THREADS 4
#define ROUNDS 10000

static volatile i32 counter;
static volatile i32 calls;

static void race_between(void) { calls = calls + 1; }
/* Called through a volatile pointer, so no compiler can inline it: the
   call stays a real call, whose entry is a safe point. */
static void (*volatile between)(void) = race_between;

static void adder(void *a) {
    (void)a;
    for (i32 i = 0; i < ROUNDS; i++) {
        i32 v = counter;
        between();
        counter = v + 1;
    }
}

void _start(void) {
    rt_thread *t[THREADS];
    for (i32 k = 0; k < THREADS; k++) RT_CHECK(t[k] = rt_spawn(adder, 0, 0), "spawn");
    for (i32 k = 0; k < THREADS; k++) rt_join(t[k]);
    rt_say("counter", counter);
}
