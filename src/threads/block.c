/*
 * block.c — the WASI blocker of a running process.
 *
 * Every blocking WASI call (fd_read on a pipe or socket, sock_accept,
 * sock_recv, poll_oneoff — sleeps included) waits in one place, the
 * context's blocker (src/wasi/poll.c). While a process runs, its blocker
 * is this one: the same wait, plus the read end of the process's stop
 * pipe, which becomes readable when the process ends (and stays so: it is
 * never drained). A thread blocked in such a call then gets EINTR back at
 * once, returns to the interpreter, and stops at its next safe point (its
 * attention word already holds WEFT_ATTN_STOP).
 *
 * Host calls that are not routed through the blocker (a write to a full
 * pipe, a slow disk) are not interrupted; they end by themselves.
 *
 * On a scheduler, a wait the call can be made again after (restartable:
 * it has had no effect yet) parks the agent instead of its runner: when
 * nothing is ready now, the fds and deadline go to the scheduler
 * (sched_agent_try_park in src/sched/park.c, shared with the workers'
 * blocker) and the call returns WASI_BLOCK_PARKED; it is made again once
 * woken, and finds its fd ready. Other waits (sock_recv's WAITALL after a
 * part) hold the runner, which the scheduler replaces after a slice.
 * Either is noted on the agent for weft_sched_dump.
 * sched_yield yields the agent instead of the OS thread.
 */
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../wasi/wasi.h"
#include "threads.h"

/* Deterministic mode (a seed fixes the schedule): sleeps park on the
   virtual clock. A wait on fds that can be made again parks first,
   whether its data is there or not, until no other agent is ready
   (sched_agent_det_io_wait), so the others run meanwhile (a thread that
   traps ends the program while another waits on an empty pipe: issue
   39); made again, it waits in place, holding the one runner until its
   data is there, so the point where the read returns depends on the
   schedule alone. Its timeout is measured in real time from the virtual
   time left, after which the virtual clock moves on to the deadline.
   Returns what the blocker returns; false: an fd wait, for the caller
   to make in place with *real_deadline. */
static bool thr_block_det(sched_agent *agent, wasi_wait *wait, int *result, int64_t *real_deadline) {
    int64_t now = sched_agent_clock(agent);
    if (wait->nfds == 0) {
        if (wait->deadline >= 0 && now >= wait->deadline) *result = 0;
        else if (atomic_load_explicit(&agent->exec->attention, memory_order_relaxed) & WEFT_ATTN_STOP)
            *result = -EINTR;
        else if (wait->restartable && wait->caller && wait->caller->exec == agent->exec &&
                 sched_agent_wait_io(agent, NULL, 0, wait->deadline, "sleeping (poll_oneoff)") == 0)
            *result = WASI_BLOCK_PARKED;
        else {
            sched_agent_clock_advance(agent, wait->deadline); /* cannot park: the sleep passes at once */
            *result = 0;
        }
        return true;
    }
    bool again = agent->det_io; /* the same call, made again after its park */
    agent->det_io = false;
    if (!again && wait->restartable && wait->caller && wait->caller->exec == agent->exec &&
        !(wait->deadline >= 0 && now >= wait->deadline) &&
        !(atomic_load_explicit(&agent->exec->attention, memory_order_relaxed) & WEFT_ATTN_STOP)) {
        char what[64];
        wasi_wait_describe(wait, what, sizeof what);
        if (sched_agent_det_io_wait(agent, wait->deadline, what) == 0) {
            *result = WASI_BLOCK_PARKED;
            return true;
        }
    }
    *real_deadline = wait->deadline < 0 ? -1 : base_now_ns() + (wait->deadline > now ? wait->deadline - now : 0);
    return false;
}

static int thr_block(struct weft_wasi *w, wasi_wait *wait) {
    thr_process *p = w->block_env;
    sched_agent *agent = p->sched ? sched_current() : NULL;
    int64_t deadline = wait->deadline; /* on the host's monotonic clock */
    if (wait->nfds == 0 && wait->deadline == 0) {
        /* sched_yield: an agent goes to the back of its queue at its next
           safe point; an OS thread yields its core. */
        if (agent) weft_exec_request(agent->exec, WEFT_ATTN_SUSPEND);
        else sched_yield();
        return 0;
    }
    int result;
    bool det = agent && sched_agent_deterministic(agent);
    if (det && thr_block_det(agent, wait, &result, &deadline)) return result;
    if (!det && agent && wait->restartable && wait->caller && wait->caller->exec == agent->exec &&
        sched_agent_try_park(agent, wait, &result))
        return result;
    /* Noted for the dumps: on the agent, or on the OS thread's record. */
    thr_thread *self = !agent && wait->caller && wait->caller->exec &&
                               wait->caller->exec->group == &p->group
                           ? wait->caller->exec->group_member
                           : NULL;
    if (agent || self) {
        char what[64];
        wasi_wait_describe(wait, what, sizeof what);
        if (agent) {
            sched_agent_note(agent, what);
        } else {
            pthread_mutex_lock(&p->lock);
            snprintf(self->note, sizeof self->note, "%s", what);
            self->note_since = base_now_ns();
            pthread_mutex_unlock(&p->lock);
        }
    }
    struct pollfd small[8];
    struct pollfd *fds = wait->nfds + 1 <= 8 ? small : calloc(wait->nfds + 1, sizeof *fds);
    if (!fds) return -ENOMEM;
    if (wait->nfds) memcpy(fds, wait->fds, wait->nfds * sizeof *fds);
    fds[wait->nfds].fd = p->stop_pipe[0];
    fds[wait->nfds].events = POLLIN;
    for (;;) {
        struct timespec ts, *tsp = wasi_time_left(deadline, &ts);
        for (size_t i = 0; i <= wait->nfds; i++) fds[i].revents = 0;
        int n = ppoll(fds, (nfds_t)wait->nfds + 1, tsp, NULL);
        if (n < 0) {
            if (errno == EINTR) continue;
            result = -errno;
            break;
        }
        if (fds[wait->nfds].revents) {
            result = -EINTR; /* the process is ending */
            break;
        }
        if (n == 0 && deadline > 0 && base_now_ns() < deadline)
            continue; /* woke early */
        if (n == 0 && det) sched_agent_clock_advance(agent, wait->deadline);
        for (size_t i = 0; i < wait->nfds; i++) wait->fds[i].revents = fds[i].revents;
        result = n;
        break;
    }
    if (fds != small) free(fds);
    if (agent) sched_agent_note(agent, NULL);
    if (self) {
        pthread_mutex_lock(&p->lock);
        self->note[0] = '\0';
        pthread_mutex_unlock(&p->lock);
    }
    return result;
}

/* The process's blocker stands in for the context's own for the length of
   a run (no other user of the context may run meanwhile: weft.h). */
/* The clocks and random_get of an agent of a deterministic scheduler. */
static int64_t thr_clock(void *env, uint32_t id) {
    (void)env;
    sched_agent *agent = sched_current();
    if (!agent || !sched_agent_deterministic(agent)) return -1;
    switch (id) {
    case WASI_CLOCK_REALTIME: return sched_agent_realtime(agent);
    case WASI_CLOCK_MONOTONIC:
    case WASI_CLOCK_PROCESS_CPUTIME:
    case WASI_CLOCK_THREAD_CPUTIME: return sched_agent_clock(agent);
    default: return -1;
    }
}

static bool thr_random(void *env, void *buf, size_t len) {
    (void)env;
    sched_agent *agent = sched_current();
    if (!agent || !sched_agent_deterministic(agent)) return false;
    sched_agent_random(agent, buf, len);
    return true;
}

void thr_block_install(thr_process *p) {
    p->saved_block = p->wasi->block;
    p->saved_block_env = p->wasi->block_env;
    p->wasi->block_env = p;
    p->wasi->block = thr_block;
    p->wasi->clock_hook = thr_clock;
    p->wasi->random_hook = thr_random;
}

void thr_block_remove(thr_process *p) {
    p->wasi->block = p->saved_block;
    p->wasi->block_env = p->saved_block_env;
    p->wasi->clock_hook = NULL;
    p->wasi->random_hook = NULL;
}
