/*
 * futex.c — memory.atomic.wait and notify.
 *
 * PROVISIONAL: this first version only answers the cases that need no
 * second thread (unshared memory, not-equal, timeouts, notify with no
 * waiters). The real wait queues come with the threads work (issue 4).
 */
#include <time.h>

#include "runtime.h"

int rt_atomic_wait(weft_exec *e, weft_memory *mem, uint64_t addr, uint64_t expected, int width,
                   int64_t timeout_ns) {
    (void)e;
    if (!mem->limits.shared) return RT_WAIT_UNSHARED;
    uint64_t now = width == 4 ? __atomic_load_n((uint32_t *)(mem->data + addr), __ATOMIC_SEQ_CST)
                              : __atomic_load_n((uint64_t *)(mem->data + addr), __ATOMIC_SEQ_CST);
    if (now != expected) return 1;
    if (timeout_ns >= 0) {
        struct timespec ts = {(time_t)(timeout_ns / 1000000000), (long)(timeout_ns % 1000000000)};
        nanosleep(&ts, NULL);
    }
    return 2;
}

uint32_t rt_atomic_notify(weft_memory *mem, uint64_t addr, uint32_t count) {
    (void)mem;
    (void)addr;
    (void)count;
    return 0;
}
