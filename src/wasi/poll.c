/*
 * poll.c — the one place where the WASI layer waits (wasi_block_on), and
 * the functions built on it: poll_oneoff and sched_yield.
 *
 * The default blocker waits on the calling OS thread in ppoll. A process
 * replaces w->block (src/threads/block.c); on a scheduler that blocker
 * parks the agent instead when the wait is restartable, and the call is
 * made again once an fd is ready or the deadline has passed. Nothing else
 * in src/wasi waits.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "wasi.h"

struct timespec *wasi_time_left(int64_t deadline, struct timespec *ts) {
    if (deadline < 0) return NULL;
    int64_t left = deadline - base_now_ns();
    if (left < 0) left = 0;
    ts->tv_sec = (time_t)(left / 1000000000);
    ts->tv_nsec = (long)(left % 1000000000);
    return ts;
}

void wasi_wait_describe(const wasi_wait *wait, char *buf, size_t len) {
    if (wait->nfds == 0) snprintf(buf, len, "sleeping (poll_oneoff)");
    else if (wait->nfds > 1) snprintf(buf, len, "polling %zu host fds", wait->nfds);
    else
        snprintf(buf, len, "%s host fd %d", wait->fds[0].events & POLLOUT ? "writing" : "reading",
                 wait->fds[0].fd);
}

int wasi_block_default(struct weft_wasi *w, wasi_wait *wait) {
    (void)w;
    if (wait->nfds == 0 && wait->deadline == 0) {
        sched_yield();
        return 0;
    }
    for (;;) {
        struct timespec ts, *tsp = wasi_time_left(wait->deadline, &ts);
        int n = ppoll(wait->fds, (nfds_t)wait->nfds, tsp, NULL);
        if (n < 0) {
            if (errno == EINTR) continue;
            return -errno;
        }
        if (n == 0 && wait->deadline > 0 && base_now_ns() < wait->deadline)
            continue; /* woke early */
        return n;
    }
}

int wasi_block_on(struct weft_wasi *w, wasi_wait *wait) {
    return w->block(w, wait);
}

wasi_errno wasi_wait_ready(wasi_call *c, int host, short events, bool nonblock, bool restartable) {
    struct pollfd p = {.fd = host, .events = events};
    wasi_wait wt = {&p, 1, nonblock ? 0 : -1, c->caller, restartable};
    int n = wasi_block_on(c->w, &wt);
    if (n == WASI_BLOCK_PARKED) return WASI_EPARKED;
    if (n < 0) return wasi_errno_from_host(-n);
    if (n == 0) return WASI_EAGAIN;
    return WASI_ESUCCESS;
}

int64_t wasi_clock_now(struct weft_wasi *w, uint32_t id) {
    if (w->clock_hook) {
        int64_t t = w->clock_hook(w->block_env, id);
        if (t >= 0) return t;
    }
    int clk = wasi_host_clock(id);
    if (clk < 0) return -EINVAL;
    struct timespec ts;
    if (clock_gettime(clk, &ts) != 0) return -errno;
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int64_t wasi_call_start(wasi_call *c) {
    uint64_t *word = weft_caller_restart_word(c->caller);
    if (word && *word) return (int64_t)(*word - 1);
    int64_t now = wasi_clock_now(c->w, WASI_CLOCK_MONOTONIC);
    if (word) *word = (uint64_t)now + 1;
    return now;
}

/* ---- Waking on time ----

   A thread that sleeps in a timed wait is woken by a timer the kernel may
   defer by the thread's timer slack (50 us by default) to batch wake-ups.
   For the length of a sleep, the calling thread asks for 1 ns of slack
   and gets its own back afterwards (prctl(2), PR_SET_TIMERSLACK; no
   privilege needed). Measured (tests/libc-suite/RESULTS.md): a 5 ms sleep
   overshoots by a median of ~80 us instead of ~115 us. What remains under
   load is the time the woken thread waits for a core, which is the
   kernel's business: a native program waits as long. */
typedef struct wasi_wake_saved {
    int slack;              /* the thread's timer slack (ns), or -1 */
} wasi_wake_saved;

static void wasi_wake_fast(wasi_wake_saved *sv) {
    sv->slack = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0);
    if (sv->slack >= 0 && prctl(PR_SET_TIMERSLACK, 1ul, 0, 0, 0) != 0) sv->slack = -1;
}

static void wasi_wake_restore(const wasi_wake_saved *sv) {
    if (sv->slack >= 0) prctl(PR_SET_TIMERSLACK, (unsigned long)sv->slack, 0, 0, 0);
}

uint32_t wasi_sched_yield(wasi_call *c, const weft_val *a) {
    (void)a;
    wasi_wait wt = {NULL, 0, 0, c->caller, false};
    wasi_block_on(c->w, &wt);
    return WASI_ESUCCESS;
}

/* One subscription, read from either layout. */
typedef struct wasi_sub {
    uint64_t userdata;
    uint8_t type;
    wasi_errno error;       /* settled at once with this error */
    bool ready_now;         /* a regular file: always ready */
    uint64_t nbytes;        /* for ready_now reads */
    int64_t deadline;       /* clocks: CLOCK_MONOTONIC ns */
    int poll_index;         /* fds: index in the pollfd array, or -1 */
    wasi_ref ref;
} wasi_sub;

static int64_t wasi_sat_add(int64_t a, uint64_t b) {
    if (b > (uint64_t)(INT64_MAX - a)) return INT64_MAX;
    return a + (int64_t)b;
}

/* poll_oneoff. Subscriptions: preview1 48 bytes (userdata 0, tag 8, clock
   {id 16, timeout 24, precision 32, flags 40} or fd 16); wasi_unstable 56
   bytes (the clock has an extra `identifier` u64 at 16, so id 24, timeout
   32, precision 40, flags 48). Events are 32 bytes in both (userdata 0,
   error 8, type 10, nbytes 16, flags 24). Every subscription that is ready
   when the wait ends gets an event, in subscription order. */
uint32_t wasi_poll_oneoff(wasi_call *c, const weft_val *a) {
    uint32_t in = WASI_U32(a, 0), out = WASI_U32(a, 1), n = WASI_U32(a, 2),
             nev_ptr = WASI_U32(a, 3);
    if (n == 0) return WASI_EINVAL;
    uint32_t ssize = c->unstable ? 56 : 48;
    const uint8_t *ip = wasi_mem(c, in, (uint64_t)n * ssize);
    uint8_t *op = wasi_mem(c, out, (uint64_t)n * 32);
    if (!ip || !op || !wasi_mem(c, nev_ptr, 4)) return WASI_EFAULT;
    if (n > 65536) return WASI_EINVAL;
    wasi_sub *subs = calloc(n, sizeof *subs);
    struct pollfd *pfds = calloc(n, sizeof *pfds);
    if (!subs || !pfds) {
        free(subs);
        free(pfds);
        return WASI_ENOMEM;
    }
    int64_t now = wasi_call_start(c); /* relative timeouts count from the first attempt */
    int64_t earliest = -1;
    size_t npoll = 0, nimmediate = 0;
    bool bad = false;
    for (uint32_t i = 0; i < n; i++) {
        const uint8_t *s = ip + (size_t)i * ssize;
        wasi_sub *sub = &subs[i];
        sub->userdata = wasi_ld64(s);
        sub->type = s[8];
        sub->poll_index = -1;
        sub->deadline = -1;
        if (sub->type == WASI_EVENT_CLOCK) {
            uint32_t k = c->unstable ? 8 : 0;
            uint32_t id = wasi_ld32(s + 16 + k);
            uint64_t timeout = wasi_ld64(s + 24 + k);
            uint16_t flags = wasi_ld16(s + 40 + k);
            if (id != WASI_CLOCK_REALTIME && id != WASI_CLOCK_MONOTONIC) {
                sub->error = wasi_host_clock(id) < 0 ? WASI_EINVAL : WASI_ENOTSUP;
                nimmediate++;
                continue;
            }
            if (flags & WASI_SUBCLOCK_ABSTIME) {
                if (id == WASI_CLOCK_MONOTONIC) {
                    sub->deadline = timeout > INT64_MAX ? INT64_MAX : (int64_t)timeout;
                } else {
                    uint64_t real = (uint64_t)wasi_clock_now(c->w, WASI_CLOCK_REALTIME);
                    sub->deadline = timeout <= real ? now : wasi_sat_add(now, timeout - real);
                }
            } else {
                sub->deadline = wasi_sat_add(now, timeout);
            }
            if (earliest < 0 || sub->deadline < earliest) earliest = sub->deadline;
        } else if (sub->type == WASI_EVENT_FD_READ || sub->type == WASI_EVENT_FD_WRITE) {
            uint32_t fd = wasi_ld32(s + 16);
            wasi_errno r = wasi_fd_acquire(c->w, fd, WASI_RIGHT_POLL_FD_READWRITE, &sub->ref);
            if (r == WASI_EBADF) {
                /* An fd that is not open fails the whole call with EBADF.
                   WASI preview1 is silent; wasmtime answers so
                   (crates/wasi/src/p1.rs, poll_oneoff: get_descriptor(fd)?),
                   and wasi-libc's poll() then fails with EBADF as POSIX
                   programs expect (its test poll). Nothing is written. */
                bad = true;
                break;
            }
            if (r) {
                sub->error = r;
                nimmediate++;
                continue;
            }
            if (sub->ref.filetype == WASI_FILETYPE_REGULAR_FILE ||
                sub->ref.filetype == WASI_FILETYPE_DIRECTORY) {
                /* Files are always ready; a read reports the bytes left. */
                sub->ready_now = true;
                nimmediate++;
                struct stat st;
                off_t pos = lseek(sub->ref.host, 0, SEEK_CUR);
                if (sub->type == WASI_EVENT_FD_READ && pos >= 0 &&
                    fstat(sub->ref.host, &st) == 0 && st.st_size > pos)
                    sub->nbytes = (uint64_t)(st.st_size - pos);
                continue;
            }
            sub->poll_index = (int)npoll;
            pfds[npoll].fd = sub->ref.host;
            pfds[npoll].events = sub->type == WASI_EVENT_FD_READ ? POLLIN : POLLOUT;
            npoll++;
        } else {
            sub->error = WASI_EINVAL;
            nimmediate++;
        }
    }

    wasi_errno r = bad ? WASI_EBADF : WASI_ESUCCESS;
    uint32_t nev = 0;
    while (!r) {
        if (npoll > 0 || nimmediate == 0) {
            wasi_wait wt = {pfds, npoll, nimmediate ? 0 : earliest, c->caller, true};
            /* A sleep (clocks only) that waits on this thread wakes on time
               (above); one that parks its agent returns at once. */
            bool sleeping = npoll == 0 && nimmediate == 0 && earliest > 0;
            wasi_wake_saved sv;
            if (sleeping) wasi_wake_fast(&sv);
            int got = wasi_block_on(c->w, &wt);
            if (sleeping) wasi_wake_restore(&sv);
            if (got == WASI_BLOCK_PARKED) {
                r = WASI_EPARKED; /* made again once woken: nothing written yet */
                break;
            }
            if (got < 0) {
                r = wasi_errno_from_host(-got);
                break;
            }
        }
        int64_t t = wasi_clock_now(c->w, WASI_CLOCK_MONOTONIC);
        for (uint32_t i = 0; i < n; i++) {
            wasi_sub *sub = &subs[i];
            bool ready = false;
            uint64_t nbytes = 0;
            uint16_t flags = 0;
            wasi_errno err = sub->error;
            if (err || sub->ready_now) {
                ready = true;
                nbytes = sub->nbytes;
            } else if (sub->type == WASI_EVENT_CLOCK) {
                ready = sub->deadline <= t;
            } else if (sub->poll_index >= 0) {
                short rev = pfds[sub->poll_index].revents;
                if (rev) {
                    ready = true;
                    if (rev & POLLNVAL) err = WASI_EBADF;
                    else if ((rev & POLLERR) && !(rev & (POLLIN | POLLOUT | POLLHUP)))
                        err = WASI_EIO;
                    if (rev & POLLHUP) flags |= WASI_EVENTRW_HANGUP;
                    int avail = 0;
                    if (sub->type == WASI_EVENT_FD_READ &&
                        ioctl(sub->ref.host, FIONREAD, &avail) == 0 && avail > 0)
                        nbytes = (uint64_t)avail;
                }
            }
            if (!ready) continue;
            uint8_t *e = op + (size_t)nev * 32;
            memset(e, 0, 32);
            wasi_st64(e, sub->userdata);
            wasi_st16(e + 8, err);
            e[10] = sub->type;
            if (sub->type != WASI_EVENT_CLOCK) {
                wasi_st64(e + 16, nbytes);
                wasi_st16(e + 24, flags);
            }
            nev++;
        }
        if (nev > 0) break;
        for (size_t k = 0; k < npoll; k++) pfds[k].revents = 0;
    }
    if (!r) r = wasi_put32(c, nev_ptr, nev);
    for (uint32_t i = 0; i < n; i++) wasi_fd_release(c->w, &subs[i].ref);
    free(subs);
    free(pfds);
    return r;
}
