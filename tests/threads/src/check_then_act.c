/* check_then_act — an order-dependent bug: two threads each claim a slot
   once, by checking a flag and then setting it, with a call (a safe point)
   between the check and the act. Only one should win ("winners 1"); both
   win when one thread gives way right at that call and the other runs its
   check before the first sets the flag. With OS threads the second thread
   starts long after the first has finished, so the bug almost never
   shows; weft run --explore finds a seed that shows it and
   --deterministic SEED replays it. */
#include "rt.h"

static volatile i32 claimed, winners, calls;

static void note(void) { calls = calls + 1; }
/* Through a volatile pointer: no compiler inlines it away. */
static void (*volatile between)(void) = note;

static void claim(void *a) {
    (void)a;
    if (!claimed) {
        between();
        claimed = 1;
        winners = winners + 1;
    }
}

void _start(void) {
    rt_thread *t[2];
    for (i32 k = 0; k < 2; k++) RT_CHECK(t[k] = rt_spawn(claim, 0, 0), "spawn");
    for (i32 k = 0; k < 2; k++) rt_join(t[k]);
    rt_say("winners", winners);
}
