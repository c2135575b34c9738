/*
 * park.c — the first step of a restartable blocking WASI call on a
 * scheduler, shared by the two blockers that run on one: a process's
 * threads (src/threads/block.c) and a worker's own WASI context
 * (src/workers/block.c). The only part of the scheduler that knows the
 * WASI blocker's protocol (src/wasi/wasi.h, wasi_blocker).
 *
 * The call has had no effect yet, so instead of holding the runner it may
 * be abandoned and made again: look once without waiting, and when
 * nothing is due, park the agent on the fds and the deadline. What is
 * not parked here (no fd to spare) the blocker waits for in place, with
 * its own way to see a stop request: the process's stop pipe, the
 * worker's attention word in slices.
 */
#include <errno.h>
#include <poll.h>
#include <time.h>

#include "../wasi/wasi.h"
#include "sched.h"

bool sched_agent_try_park(sched_agent *a, wasi_wait *wait, int *result) {
    struct timespec zero = {0, 0};
    int n = ppoll(wait->fds, (nfds_t)wait->nfds, &zero, NULL);
    if (n != 0) *result = n < 0 ? -errno : n;
    else if (wait->deadline >= 0 && base_now_ns() >= wait->deadline) *result = 0;
    else if (atomic_load_explicit(&a->exec->attention, memory_order_acquire) & WEFT_ATTN_STOP)
        *result = -EINTR; /* asked to stop: the call goes back to the interpreter, which stops */
    else {
        char what[64];
        wasi_wait_describe(wait, what, sizeof what);
        if (sched_agent_wait_io(a, wait->fds, wait->nfds, wait->deadline, what) != 0) return false;
        *result = WASI_BLOCK_PARKED;
    }
    return true;
}
