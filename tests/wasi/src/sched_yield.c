/* sched_yield. */
#include <sched.h>
#include "common.h"
int main(void) {
    T("sched_yield", __wasi_sched_yield());
    int ok = 0;
    for (int i = 0; i < 1000; i++) ok += sched_yield() == 0;
    SAY("1000 yields: %d ok\n", ok);
    return 0;
}
