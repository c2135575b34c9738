/*
 * block.c — the WASI blocker of a worker's own WASI context.
 *
 * Every blocking WASI call (fd_read of a pipe, socket or terminal,
 * sock_accept, sock_recv, poll_oneoff, sleeps) waits in its context's
 * blocker (src/wasi/poll.c). A worker's is this one, the same mechanism as
 * a process's threads on a scheduler (src/threads/block.c):
 *
 *  - a restartable wait of the worker's own execution (the call has had
 *    no effect yet) parks the agent on the fds and the deadline
 *    (sched_agent_try_park, src/sched/park.c) and the call returns
 *    WASI_BLOCK_PARKED; it is made again once an fd is ready, the
 *    deadline passes or the worker is poked — a stop request then ends it
 *    at once;
 *  - any other wait (sock_recv's WAITALL after a part) waits in place on
 *    its runner, in slices of 10 ms, and returns EINTR when the worker is
 *    asked to stop, so it stops at its next safe point.
 *
 * Host calls that do not wait here (a write bigger than a pipe's room, a
 * slow disk) are not interrupted: terminate stops such a worker hard after
 * its grace period (worker.c).
 */
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <time.h>

#include "../wasi/wasi.h"
#include "workers.h"

#define WK_BLOCK_SLICE_NS 10000000 /* a wait in place looks at the stop request this often */

static bool wk_stop_asked(weft_exec *e) {
    return e && (atomic_load_explicit(&e->attention, memory_order_acquire) & WEFT_ATTN_STOP);
}

static int wk_block(struct weft_wasi *ww, wasi_wait *wait) {
    weft_worker *w = ww->block_env;
    sched_agent *a = sched_current();
    weft_exec *e = wait->caller ? wait->caller->exec : NULL;
    bool mine = a && a->owner == w && e == a->exec;
    if (wait->nfds == 0 && wait->deadline == 0) {
        /* sched_yield: to the back of the queue at the next safe point. */
        if (mine) weft_exec_request(e, WEFT_ATTN_SUSPEND);
        else sched_yield();
        return 0;
    }
    int result;
    if (mine && wait->restartable && sched_agent_try_park(a, wait, &result)) return result;
    if (mine) {
        char what[64];
        wasi_wait_describe(wait, what, sizeof what);
        sched_agent_note(a, what);
    }
    for (;;) {
        if (wk_stop_asked(e)) {
            result = -EINTR;
            break;
        }
        int64_t until = base_now_ns() + WK_BLOCK_SLICE_NS;
        if (wait->deadline >= 0 && wait->deadline < until) until = wait->deadline;
        struct timespec ts;
        for (size_t i = 0; i < wait->nfds; i++) wait->fds[i].revents = 0;
        int n = ppoll(wait->fds, (nfds_t)wait->nfds, wasi_time_left(until, &ts), NULL);
        if (n < 0 && errno == EINTR) continue;
        if (n != 0) {
            result = n < 0 ? -errno : n;
            break;
        }
        if (wait->deadline >= 0 && base_now_ns() >= wait->deadline) {
            result = 0;
            break;
        }
    }
    if (mine) sched_agent_note(a, NULL);
    return result;
}

void wk_block_install(weft_worker *w) {
    w->wasi->block = wk_block;
    w->wasi->block_env = w;
}
