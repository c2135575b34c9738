/*
 * sched.c — the scheduler: agents stepped by a few runner threads, with
 * parking, timeouts, preemption and runner hand-off (weft.h says what a
 * user sees; this says how).
 *
 * State. One mutex (s->lock) guards everything here: the ready queues,
 * each agent's state, the timer heap, the runner list. It is a leaf lock:
 * nothing else is taken while it is held. Callers may hold a futex bucket
 * lock (a notify wakes a parked agent) or a process lock (a stop request
 * pokes one) when they take it, so the order is
 *     futex bucket lock  ->  process lock  ->  s->lock.
 *
 * An agent is READY (queued), RUNNING (on a runner), PARKED (in a futex
 * wait, on no runner), or ENDED. Only its runner moves it out of RUNNING.
 * A wake-up that comes while it runs (a notify of the wait it is just
 * parking in, a request) is kept in the agent (woken, poked) and applied
 * when the step ends, so none is lost between the execution queueing
 * itself on the futex and the runner marking it parked. A notify names
 * the wait it ends (its generation), so a late one never wakes a later
 * wait.
 *
 * Parked agents never leave the futex queue by someone else's hand but a
 * notifier's: a timeout or a request makes the agent READY while it is
 * still queued, and the execution settles the wait itself when it runs
 * (rt_futex_settle: a notify that won the race still counts, result 0).
 *
 * Stops jump the queue. An agent asked to stop (WEFT_ATTN_STOP) that is
 * made ready, or is ready already, goes to the stop queue (stop_head),
 * taken before every level; when no runner is idle, the one whose step
 * began first is asked to yield (sched_runner_yield_for_stop_locked). Not
 * in deterministic mode, whose order is the seed's.
 *
 * Timers. A min-heap of parked agents by deadline; each agent has at most
 * one entry (its current wait), removed when it is woken.
 *
 * Host calls that would block (a WASI read of a pipe, poll_oneoff, a
 * sleep) park too, when they can be made again from the start: the call
 * hands its fds and deadline to sched_agent_wait_io and returns
 * WEFT_SUSPENDED; the runner then arms the wait (the fds, duplicated so
 * two agents may watch one fd and a close by the guest cannot pull it
 * away, go into the poller's epoll set; the deadline into the heap) and
 * moves on. The first of an fd event, the deadline or a poke makes the
 * agent READY and disarms the rest; it runs the call again, which finds
 * its fd ready (or waits again: a wake-up is only a hint). The poller
 * thread names an agent by its slot in s->slots and the number of its
 * wait, both checked under s->lock, so an event that arrives after its
 * wait was disarmed (or its agent freed) is dropped.
 *
 * Deterministic mode (config.deterministic): one runner and no monitor or
 * poller. A step of an agent lasts a number of executed safe points drawn
 * from a PRNG (EXEC_ATTN_SLICE: the interpreter counts them down), and
 * the next agent is drawn from the ready ones of the highest level; the
 * virtual clock (vclock) advances by SCHED_DET_NS_PER_POINT per executed
 * safe point, timers fire against it after each step, and when nothing
 * is ready it jumps to the earliest deadline. Nothing here then depends
 * on time or on another thread, so the seed fixes the interleaving.
 * With pct_depth d > 0 the draw is PCT's instead (probabilistic
 * concurrency testing, Burckhardt et al. 2010): every agent has a random
 * priority, the highest ready one runs (a woken agent of higher priority
 * takes over at the running one's next safe point), and at d-1 points
 * drawn from the first pct_steps executed safe points the running agent
 * drops below every other; a step still ends after 4096 safe points, and
 * then the agent drops below every other too, so a spinning agent cannot
 * hold the runner (PCT itself assumes programs that never spin).
 *
 * The monitor thread ticks every half slice while a runner is busy and an
 * agent is ready to take its place, and otherwise sleeps until the next
 * deadline (an agent made ready while every runner is busy wakes it): a
 * step with nobody waiting for its runner is never cut, so agents that
 * each have a core of their own run undisturbed. It fires due timers, asks
 * agents past their slice to yield (WEFT_ATTN_SUSPEND, set directly: the
 * agent is running), and starts a replacement runner for one held in a
 * host function past its slice. A replaced runner finishes its step and
 * then leaves if there are enough runners without it.
 *
 * Cooperative mode (config.cooperative) has no runner, monitor or poller:
 * the host's loop runs the agents (the last section of this file).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "sched.h"

#define SCHED_LEVELS 4
#define SCHED_DEFAULT_SLICE_NS 2000000ull
#define SCHED_SPIN_NS 50000 /* an idle runner's spin before it sleeps */
/* Deterministic mode: virtual ns per executed safe point (about what one
   costs the interpreter), where the virtual clock starts, and the realtime
   clock's virtual epoch (2023-11-14T22:13:20Z). */
#define SCHED_DET_NS_PER_POINT 4
#define SCHED_DET_START_NS 1000000000ll
/* Deterministic mode: the longest a blocking read stays parked while other
   agents run or sleep (virtual ns: 250 M safe points), so an agent that
   spins waiting for what the reader will read is not starved for ever. */
#define SCHED_DET_IO_LIMIT_NS 1000000000ll
#define SCHED_DET_EPOCH_NS 1700000000000000000ll
/* Cooperative mode: a call's default budget, and how many executed safe
   points a timed slice runs between two reads of the clock: the first
   run of a slice SCHED_COOP_FIRST, then as many as a quarter of the time
   left takes at the rate measured, within [SCHED_COOP_MIN, SCHED_COOP_MAX]. */
#define SCHED_COOP_BUDGET_NS 1000000
#define SCHED_COOP_FIRST 256u
#define SCHED_COOP_MIN 16u
#define SCHED_COOP_MAX 4096u

typedef struct sched_runner {
    weft_sched *s;
    pthread_t os;
    sched_agent *current;    /* under s->lock */
    int64_t step_start;
    bool asked;              /* told current to yield */
    bool replaced;           /* a replacement runs in its place */
    uint32_t host_seen;      /* current's in_host at the monitor's last pass */
    _Atomic int tid;         /* its thread's id (0 until it runs) */
    bool gone;               /* its thread has left (joined at free) */
    base_spin_gate spin;     /* whether spinning pays (base_spin) */
    struct sched_runner *next;
} sched_runner;

struct weft_sched {
    uint32_t tag;            /* SCHED_TAG_LIVE until weft_sched_free */
    weft_engine *engine;
    uint32_t target;         /* runners wanted */
    uint32_t max_runners;
    int64_t slice;
    pthread_mutex_t lock;
    pthread_cond_t work;     /* runners wait for ready agents */
    pthread_cond_t tick;     /* the monitor waits */
    bool stopping;
    sched_group *ring[SCHED_LEVELS]; /* ready groups, per level, circular: ring[l] is the tail */
    /* Agents asked to stop (WEFT_ATTN_STOP) that are ready: taken before
       every level, so a stop costs one short step, not a wait for the
       turns of every agent ahead (not in deterministic mode, whose order
       stays the seed's). */
    sched_agent *stop_head, *stop_tail;
    uint32_t active;         /* runners not replaced */
    uint32_t busy;           /* runners in a step */
    bool monitor_napping;    /* not ticking: woken by the first agent made ready */
    /* A runner out of work spins a moment before it sleeps (one at a
       time): the next agent made ready clears the flag instead of
       signalling `work`, and the spinner takes it. The flag has a cache
       line to itself (BASE_OWN_LINE): the spinner reads it all the time,
       and beside the fields a poke writes under the lock (the queues,
       defer_work) each of those writes took the line from the spinner's
       core and back, 0.3 us more per post of a worker round trip. */
    BASE_OWN_LINE(_Atomic bool, spinning);
    /* A wake-up from outside (sched_wake, sched_poke: a message, a notify,
       a stop) signals `work` after it has released the lock, not under
       it: a runner woken under the lock would at once block on it again,
       two more futex calls and a second wake-up through the OS (issue 26,
       the round trip under load). Under the lock: */
    bool defer_work, work_owed;
    sched_runner *runners;
    pthread_t monitor;
    bool monitor_started;
    _Atomic uint32_t next_group_id; /* the last group's id */
    BASE_VEC(sched_agent *) timers; /* min-heap by exec->park_deadline */
    /* The poller: an epoll set of parked host calls' fds, and the table
       that names agents in its events (free slots are NULL, listed in
       free_slots). wake_fd (an eventfd in the set) stops it. */
    int epoll_fd, wake_fd;
    pthread_t poller;
    bool poller_started;
    BASE_VEC(sched_agent *) slots;
    BASE_VEC(uint32_t) free_slots;
    /* Deterministic mode: the PRNG of the schedule, the PRNG of random_get,
       the virtual monotonic clock (written by the one runner only). */
    bool det;
    uint64_t rng, rng_data;
    _Atomic int64_t vclock;
    uint64_t points;         /* safe points executed, all agents */
    uint32_t pct_depth;      /* 0: random walk */
    uint64_t pct_change[8];  /* PCT: the change points (safe point counts), ascending */
    uint32_t pct_next;       /* the next of them */
    int64_t pct_low;         /* the lowest priority given so far (0 down) */
    sched_agent *det_running;
    sched_agent *live, *live_tail; /* every agent not ended, oldest first */
    uint32_t nlive;
    /* Cooperative mode (no thread of its own: weft_sched_run_until_idle
       steps the agents on the host's thread). coop_idle: the last call
       found nothing runnable (or none was made), so the next agent made
       ready is an edge for the host's hook; coop_edge: one not yet
       told. io_armed counts agents with fds in the epoll set (any mode),
       so that a call with none makes no epoll_wait. */
    bool coop;
    bool coop_running;       /* a weft_sched_run_until_idle is under way */
    bool coop_idle, coop_edge;
    uint64_t coop_calls;     /* calls made: names the current one */
    uint64_t coop_points;    /* slice_points: a slice, in executed safe points */
    bool coop_timed;         /* no slice_points: slices and calls in time */
    int64_t coop_budget;     /* a call's budget (ns) */
    int64_t coop_call_end;   /* the running call's deadline (0: not read yet) */
    int64_t coop_sampled;    /* the auto tier's last sample (sched_coop_sample) */
    uint32_t io_armed;
    void (*wake)(weft_sched *s, void *user);
    void *wake_user;
};

static int64_t sched_now(void) { return base_now_ns(); }

static struct timespec sched_ts(int64_t ns) {
    struct timespec t = {(time_t)(ns / 1000000000), (long)(ns % 1000000000)};
    return t;
}

/* ------------------------------------------------------------------------
 * Timers: a binary min-heap of agents by deadline.
 * ------------------------------------------------------------------------ */

static int64_t sched_deadline(const sched_agent *a) { return a->exec->park_deadline; }

static void sched_heap_set(weft_sched *s, size_t i, sched_agent *a) {
    s->timers.data[i] = a;
    a->timer = i;
}

static void sched_heap_up(weft_sched *s, size_t i) {
    sched_agent *a = s->timers.data[i];
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (sched_deadline(s->timers.data[parent]) <= sched_deadline(a)) break;
        sched_heap_set(s, i, s->timers.data[parent]);
        i = parent;
    }
    sched_heap_set(s, i, a);
}

static void sched_heap_down(weft_sched *s, size_t i) {
    sched_agent *a = s->timers.data[i];
    size_t n = s->timers.len;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n) break;
        if (c + 1 < n && sched_deadline(s->timers.data[c + 1]) < sched_deadline(s->timers.data[c])) c++;
        if (sched_deadline(s->timers.data[c]) >= sched_deadline(a)) break;
        sched_heap_set(s, i, s->timers.data[c]);
        i = c;
    }
    sched_heap_set(s, i, a);
}

static bool sched_timer_add(weft_sched *s, sched_agent *a) {
    if (!BASE_VEC_PUSH(s->timers, a)) return false;
    sched_heap_up(s, s->timers.len - 1);
    return true;
}

static void sched_timer_remove(weft_sched *s, sched_agent *a) {
    size_t i = a->timer;
    if (i == SCHED_NO_TIMER) return;
    a->timer = SCHED_NO_TIMER;
    sched_agent *last = s->timers.data[--s->timers.len];
    if (i == s->timers.len) return;
    sched_heap_set(s, i, last);
    sched_heap_up(s, i);
    sched_heap_down(s, last->timer);
}

/* ------------------------------------------------------------------------
 * Ready queues
 * ------------------------------------------------------------------------ */

static int sched_level(weft_priority p) {
    return p >= WEFT_PRIORITY_MAX && p <= WEFT_PRIORITY_LOW ? (int)p - 1 : WEFT_PRIORITY_NORMAL - 1;
}

/* Queues `a` at the back of its group, the group at the back of its ring
   if it was not queued, and wakes a runner. */
static void sched_io_disarm_locked(weft_sched *s, sched_agent *a);

/* Puts `a` at the back of its group's FIFO, and the group, if it was not
   queued, at the back of its level's ring. */
static void sched_enqueue_locked(weft_sched *s, sched_agent *a) {
    a->next = NULL;
    sched_group *g = a->group;
    if (g->tail) g->tail->next = a;
    else g->head = a;
    g->tail = a;
    if (!g->queued) {
        int l = sched_level(g->priority);
        sched_group *tail = s->ring[l];
        if (tail) {
            g->next = tail->next;
            tail->next = g;
        } else {
            g->next = g;
        }
        s->ring[l] = g;
        g->queued = true;
    }
}

static bool sched_stopping(const weft_sched *s, const sched_agent *a) {
    return !s->det && (atomic_load_explicit(&a->exec->attention, memory_order_relaxed) & WEFT_ATTN_STOP);
}

/* Puts `a` (READY, in no queue) at the back of the stop queue, and makes
   room for it at once: when no runner is idle, the one whose step began
   first (and that is no stop itself) is asked to yield at its next safe
   point. */
static void sched_runner_yield_for_stop_locked(weft_sched *s);

static void sched_enqueue_urgent_locked(weft_sched *s, sched_agent *a) {
    a->next = NULL;
    a->urgent = true;
    if (s->stop_tail) s->stop_tail->next = a;
    else s->stop_head = a;
    s->stop_tail = a;
    if (!s->coop) sched_runner_yield_for_stop_locked(s);
}

/* Takes `a` out of the FIFO [*head, *tail] (linked by next): false if it
   is not in it. */
static bool sched_unlink(sched_agent **head, sched_agent **tail, sched_agent *a) {
    sched_agent *before = NULL, *x = *head;
    while (x && x != a) {
        before = x;
        x = x->next;
    }
    if (!x) return false;
    if (before) before->next = a->next;
    else *head = a->next;
    if (*tail == a) *tail = before;
    a->next = NULL;
    return true;
}

/* Takes an agent that ended off the list of live ones. */
static void sched_unlive_locked(weft_sched *s, sched_agent *a) {
    if (a->live_prev) a->live_prev->live_next = a->live_next;
    else s->live = a->live_next;
    if (a->live_next) a->live_next->live_prev = a->live_prev;
    else s->live_tail = a->live_prev;
    s->nlive--;
}

/* Takes a READY agent out of its group's FIFO (and the group out of its
   ring when that empties it). */
static void sched_unqueue_locked(weft_sched *s, sched_agent *a) {
    sched_group *g = a->group;
    if (!sched_unlink(&g->head, &g->tail, a) || g->head) return;
    g->queued = false;
    int l = sched_level(g->priority);
    sched_group *tail = s->ring[l], *prev = tail;
    while (prev->next != g) prev = prev->next;
    if (prev == g) {
        s->ring[l] = NULL; /* the only group */
    } else {
        prev->next = g->next;
        if (tail == g) s->ring[l] = prev;
    }
}

static void sched_ready_locked(weft_sched *s, sched_agent *a, uint8_t reason) {
    sched_timer_remove(s, a);
    if (a->io_wait) sched_io_disarm_locked(s, a);
    a->exec->wake_reason = reason;
    if (s->coop_idle) {
        /* Cooperative and idle: an edge, told to the host's hook once the
           lock is released (sched_unlock_edge). */
        s->coop_idle = false;
        s->coop_edge = true;
    }
    if (s->pct_depth && s->det_running && a != s->det_running && a->prio > s->det_running->prio)
        atomic_fetch_or_explicit(&s->det_running->exec->attention, WEFT_ATTN_SUSPEND, memory_order_relaxed);
    a->state = SCHED_READY;
    a->since = sched_now();
    if (sched_stopping(s, a)) sched_enqueue_urgent_locked(s, a);
    else sched_enqueue_locked(s, a);
    if (s->monitor_napping && s->busy) {
        s->monitor_napping = false;
        pthread_cond_signal(&s->tick); /* someone may now wait for a runner */
    }
    if (atomic_load_explicit(&s->spinning, memory_order_relaxed))
        atomic_store_explicit(&s->spinning, false, memory_order_release); /* the spinner takes it */
    else if (s->defer_work)
        s->work_owed = true; /* signalled once the lock is released */
    else
        pthread_cond_signal(&s->work);
}

/* The next agent: highest level first; within it the group at the head
   of the ring, which then goes to the back if it has more. */
static sched_agent *sched_take_locked(weft_sched *s) {
    if (s->stop_head) {
        sched_agent *a = s->stop_head;
        s->stop_head = a->next;
        if (!s->stop_head) s->stop_tail = NULL;
        a->next = NULL;
        a->urgent = false;
        return a;
    }
    for (int l = 0; l < SCHED_LEVELS; l++) {
        sched_group *tail = s->ring[l];
        if (!tail) continue;
        sched_group *g = tail->next;
        sched_agent *a = g->head;
        g->head = a->next;
        if (!g->head) {
            g->tail = NULL;
            g->queued = false;
            if (g == tail) s->ring[l] = NULL;
            else tail->next = g->next;
        } else {
            s->ring[l] = g; /* the ring turns: g is now the tail */
        }
        a->next = NULL;
        return a;
    }
    return NULL;
}

static bool sched_any_ready_locked(const weft_sched *s) {
    if (s->stop_head) return true;
    for (int l = 0; l < SCHED_LEVELS; l++)
        if (s->ring[l]) return true;
    return false;
}

/* splitmix64: a small PRNG whose whole state is one word. */
static uint64_t sched_rand(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Deterministic mode's pick: any ready agent of the highest level with
   one, drawn from the PRNG (the FIFOs only give the draw its order). */
static sched_agent *sched_take_random_locked(weft_sched *s) {
    if (s->pct_depth) {
        /* PCT: the ready agent of highest priority, any level. */
        sched_agent *best = NULL, *best_before = NULL;
        sched_group *best_g = NULL, *best_prev = NULL;
        int best_l = 0;
        for (int l = 0; l < SCHED_LEVELS; l++) {
            sched_group *tail = s->ring[l];
            if (!tail) continue;
            sched_group *prev = tail, *g = tail->next;
            for (;;) {
                sched_agent *before = NULL;
                for (sched_agent *a = g->head; a; before = a, a = a->next)
                    if (!best || a->prio > best->prio) {
                        best = a, best_before = before, best_g = g, best_prev = prev, best_l = l;
                    }
                if (g == tail) break;
                prev = g;
                g = g->next;
            }
        }
        if (!best) return NULL;
        sched_group *g = best_g;
        if (best_before) best_before->next = best->next;
        else g->head = best->next;
        if (g->tail == best) g->tail = best_before;
        if (!g->head) {
            g->queued = false;
            if (g == best_prev) {
                s->ring[best_l] = NULL;
            } else {
                best_prev->next = g->next;
                if (s->ring[best_l] == g) s->ring[best_l] = best_prev;
            }
        }
        best->next = NULL;
        return best;
    }
    for (int l = 0; l < SCHED_LEVELS; l++) {
        sched_group *tail = s->ring[l];
        if (!tail) continue;
        size_t n = 0;
        sched_group *g = tail;
        do {
            g = g->next;
            for (sched_agent *a = g->head; a; a = a->next) n++;
        } while (g != tail);
        size_t k = (size_t)(sched_rand(&s->rng) % n);
        sched_group *prev = tail;
        for (g = tail->next;; prev = g, g = g->next) {
            sched_agent *before = NULL, *a = g->head;
            for (; a && k; k--) {
                before = a;
                a = a->next;
            }
            if (!a) continue; /* further on, in a later group */
            if (before) before->next = a->next;
            else g->head = a->next;
            if (g->tail == a) g->tail = before;
            if (!g->head) {
                g->queued = false;
                if (g == prev) {
                    s->ring[l] = NULL; /* it was the only group */
                } else {
                    prev->next = g->next;
                    if (s->ring[l] == g) s->ring[l] = prev;
                }
            }
            a->next = NULL;
            return a;
        }
    }
    return NULL;
}

/* A step's length in deterministic mode: half the time a few safe points
   (interleavings inside short critical sections), else up to 4096. */
static uint64_t sched_det_slice(weft_sched *s) {
    if (s->pct_depth) {
        uint64_t slice = 4096;
        if (s->pct_next < s->pct_depth - 1 && s->pct_change[s->pct_next] > s->points &&
            s->pct_change[s->pct_next] - s->points < slice)
            slice = s->pct_change[s->pct_next] - s->points;
        return slice;
    }
    uint64_t r = sched_rand(&s->rng);
    return (r & 1) ? 1 + (r >> 1) % 16 : 1 + (r >> 1) % 4096;
}

/* Fires the timers due at `now` (any mode). */
static void sched_fire_timers_locked(weft_sched *s, int64_t now) {
    while (s->timers.len && sched_deadline(s->timers.data[0]) <= now)
        sched_ready_locked(s, s->timers.data[0], EXEC_WAKE_TIMEOUT); /* removes its timer */
}

bool sched_agent_deterministic(const sched_agent *a) { return a->group->sched->det; }

int64_t sched_agent_clock(const sched_agent *a) {
    weft_sched *s = a->group->sched;
    if (!s->det) return sched_now();
    uint64_t done = a->slice_given - a->exec->slice_left; /* in this step, so far */
    return atomic_load_explicit(&s->vclock, memory_order_relaxed) + (int64_t)done * SCHED_DET_NS_PER_POINT;
}

int64_t sched_agent_realtime(const sched_agent *a) {
    if (!a->group->sched->det) return base_clock_ns(CLOCK_REALTIME);
    return SCHED_DET_EPOCH_NS + sched_agent_clock(a) - SCHED_DET_START_NS;
}

void sched_agent_clock_advance(const sched_agent *a, int64_t to) {
    weft_sched *s = a->group->sched;
    int64_t ahead = to - sched_agent_clock(a);
    if (s->det && ahead > 0) atomic_fetch_add_explicit(&s->vclock, ahead, memory_order_relaxed);
}

int sched_agent_det_io_wait(sched_agent *a, int64_t deadline, const char *what) {
    /* Parked as a sleep until the wait's own deadline or the limit,
       whichever comes first; the runner takes it earlier when nothing
       else is due (sched_runner_main). */
    int64_t limit = sched_agent_clock(a) + SCHED_DET_IO_LIMIT_NS;
    int r = sched_agent_wait_io(a, NULL, 0, deadline >= 0 && deadline < limit ? deadline : limit, what);
    if (r == 0) a->det_io = true;
    return r;
}

void sched_agent_random(const sched_agent *a, void *buf, size_t len) {
    weft_sched *s = a->group->sched;
    pthread_mutex_lock(&s->lock);
    for (size_t i = 0; i < len; i += 8) {
        uint64_t r = sched_rand(&s->rng_data);
        memcpy((uint8_t *)buf + i, &r, len - i < 8 ? len - i : 8);
    }
    pthread_mutex_unlock(&s->lock);
}

/* ------------------------------------------------------------------------
 * The execution's hooks (exec_parker)
 * ------------------------------------------------------------------------ */

/* Unlocks, then tells a cooperative scheduler's host of an edge that a
   wake-up under the lock made (weft_sched_config.wake): after the unlock,
   so the hook never holds up the scheduler; the callers' own locks may
   still be held (weft.h says what the hook may do). */
static void sched_unlock_edge(weft_sched *s) {
    bool edge = s->coop_edge, owed = s->work_owed;
    s->coop_edge = false;
    s->defer_work = s->work_owed = false;
    pthread_mutex_unlock(&s->lock);
    /* After the unlock (a runner that waits re-checks the queues under
       the lock, so the agent queued before it is found either way). */
    if (owed) pthread_cond_signal(&s->work);
    if (edge && s->wake) s->wake(s, s->wake_user);
}

static void sched_wake(exec_parker *pk, weft_exec *e, uint32_t gen) {
    sched_agent *a = (sched_agent *)pk;
    weft_sched *s = a->group->sched;
    pthread_mutex_lock(&s->lock);
    s->defer_work = true;
    if (a->state == SCHED_PARKED && e->waiter.gen == gen) {
        sched_ready_locked(s, a, EXEC_WAKE_NOTIFY);
    } else if (a->state == SCHED_RUNNING) {
        a->woken = true;
        a->woken_gen = gen;
    }
    /* READY: a timeout or request got there first; the execution will
       find itself off the queue when it settles, and return 0. */
    sched_unlock_edge(s);
}

static void sched_poke(exec_parker *pk, weft_exec *e) {
    (void)e;
    sched_agent *a = (sched_agent *)pk;
    weft_sched *s = a->group->sched;
    pthread_mutex_lock(&s->lock);
    s->defer_work = true;
    if (a->state == SCHED_PARKED) {
        sched_ready_locked(s, a, EXEC_WAKE_POKE);
    } else if (a->state == SCHED_RUNNING) {
        a->poked = true;
    } else if (a->state == SCHED_READY && !a->urgent && sched_stopping(s, a)) {
        /* Queued behind others: a stop jumps the queue. */
        sched_unqueue_locked(s, a);
        sched_enqueue_urgent_locked(s, a);
        if (atomic_load_explicit(&s->spinning, memory_order_relaxed))
            atomic_store_explicit(&s->spinning, false, memory_order_release);
        else
            s->work_owed = true;
    }
    sched_unlock_edge(s);
}

void sched_agent_wake(sched_agent *a) { sched_poke(&a->parker, a->exec); }

sched_agent *sched_agent_of(weft_exec *e) { return (sched_agent *)e->parker; /* parker is its first member */ }

bool sched_agent_end_queued(sched_agent *a) {
    weft_sched *s = a->group->sched;
    pthread_mutex_lock(&s->lock);
    bool take = !s->det && !s->coop && a->state == SCHED_READY;
    if (take) {
        atomic_fetch_or_explicit(&a->exec->attention, WEFT_ATTN_STOP, memory_order_release);
        if (a->urgent) sched_unlink(&s->stop_head, &s->stop_tail, a);
        else sched_unqueue_locked(s, a);
        a->urgent = false;
        /* As a step that ended would (sched_step_done_locked). */
        a->state = SCHED_ENDED;
        sched_unlive_locked(s, a);
    }
    pthread_mutex_unlock(&s->lock);
    return take;
}

void sched_agent_end_stopped(sched_agent *a) {
    weft_error err;
    base_fail(&err, WEFT_ERR_TRAP, "%s", weft_trap_message(WEFT_TRAP_STOPPED));
    err.trap = WEFT_TRAP_STOPPED;
    a->exec->state = EXEC_IDLE;
    a->group->ended(a->group, a, WEFT_ERR_TRAP, &err); /* a is the group's now */
}

/* ------------------------------------------------------------------------
 * Host calls parked on fds (the poller)
 * ------------------------------------------------------------------------ */

#define SCHED_POLLER_STOP UINT64_MAX

int sched_agent_wait_io(sched_agent *a, const struct pollfd *fds, size_t nfds, int64_t deadline,
                        const char *what) {
    struct pollfd *io = nfds <= 1 ? &a->io_one : malloc(nfds * sizeof *io);
    if (!io) return -ENOMEM;
    for (size_t i = 0; i < nfds; i++) {
        io[i].fd = fcntl(fds[i].fd, F_DUPFD_CLOEXEC, 0);
        io[i].events = fds[i].events;
        if (io[i].fd < 0) {
            int error = errno;
            while (i-- > 0) close(io[i].fd);
            if (io != &a->io_one) free(io);
            return -error;
        }
    }
    weft_sched *s = a->group->sched;
    pthread_mutex_lock(&s->lock);
    a->io = io;
    a->nio = nfds;
    a->io_wait = true;
    a->exec->park_deadline = deadline > 0 ? deadline : 0; /* on the agent's clock already */
    a->exec->park_timeout = 0;
    snprintf(a->note, sizeof a->note, "%s", what);
    a->note_since = sched_now();
    pthread_mutex_unlock(&s->lock);
    return 0;
}

/* Puts the parked wait's fds in the epoll set. False when one cannot be
   watched (epoll refuses regular files: they are always ready). */
static bool sched_io_arm_locked(weft_sched *s, sched_agent *a) {
    for (size_t i = 0; i < a->nio; i++) {
        struct epoll_event ev = {0};
        if (a->io[i].events & POLLIN) ev.events |= EPOLLIN;
        if (a->io[i].events & POLLOUT) ev.events |= EPOLLOUT;
        ev.data.u64 = (uint64_t)a->slot << 32 | a->io_gen;
        if (epoll_ctl(s->epoll_fd, EPOLL_CTL_ADD, a->io[i].fd, &ev) != 0) {
            while (i-- > 0) epoll_ctl(s->epoll_fd, EPOLL_CTL_DEL, a->io[i].fd, NULL);
            return false;
        }
    }
    a->io_armed = true;
    s->io_armed++;
    return true;
}

static void sched_io_disarm_locked(weft_sched *s, sched_agent *a) {
    if (a->io_armed) s->io_armed--;
    for (size_t i = 0; i < a->nio; i++) {
        if (a->io_armed) epoll_ctl(s->epoll_fd, EPOLL_CTL_DEL, a->io[i].fd, NULL);
        close(a->io[i].fd);
    }
    if (a->io != &a->io_one) free(a->io);
    a->io = NULL;
    a->nio = 0;
    a->io_wait = a->io_armed = false;
    a->io_gen++;
    a->note[0] = '\0';
}

static void *sched_poller_main(void *arg) {
    weft_sched *s = arg;
    struct epoll_event ev[64];
    for (;;) {
        int n = epoll_wait(s->epoll_fd, ev, 64, -1);
        if (n < 0 && errno != EINTR) break; /* cannot happen with a valid set */
        pthread_mutex_lock(&s->lock);
        bool stop = s->stopping;
        for (int i = 0; i < n; i++) {
            uint64_t key = ev[i].data.u64;
            if (key == SCHED_POLLER_STOP) continue;
            uint32_t slot = (uint32_t)(key >> 32), gen = (uint32_t)key;
            sched_agent *a = slot < s->slots.len ? s->slots.data[slot] : NULL;
            if (a && a->io_armed && a->io_gen == gen && a->state == SCHED_PARKED)
                sched_ready_locked(s, a, EXEC_WAKE_IO);
        }
        pthread_mutex_unlock(&s->lock);
        if (stop) break;
    }
    return NULL;
}

/* ------------------------------------------------------------------------
 * Runners
 * ------------------------------------------------------------------------ */

static void *sched_runner_main(void *arg);

/* The agent this runner thread is stepping (its host calls ask for it). */
static _Thread_local sched_agent *sched_running;

sched_agent *sched_current(void) { return sched_running; }

void sched_agent_note(sched_agent *a, const char *what) {
    weft_sched *s = a->group->sched;
    pthread_mutex_lock(&s->lock);
    snprintf(a->note, sizeof a->note, "%s", what ? what : "");
    a->note_since = sched_now();
    pthread_mutex_unlock(&s->lock);
}

static bool sched_runner_start_locked(weft_sched *s) {
    sched_runner *r = calloc(1, sizeof *r);
    if (!r) return false;
    r->s = s;
    if (pthread_create(&r->os, NULL, sched_runner_main, r) != 0) {
        free(r);
        return false;
    }
    r->next = s->runners;
    s->runners = r;
    s->active++;
    return true;
}

static void sched_runner_yield_for_stop_locked(weft_sched *s) {
    sched_runner *oldest = NULL;
    for (sched_runner *r = s->runners; r; r = r->next) {
        if (r->gone) continue;
        sched_agent *a = r->current;
        if (!a) return; /* an idle runner takes the stop */
        /* (One in a host call yields when the call returns.) */
        if (r->asked || a->urgent || sched_stopping(s, a)) continue;
        if (!oldest || r->step_start < oldest->step_start) oldest = r;
    }
    if (!oldest) return;
    atomic_fetch_or_explicit(&oldest->current->exec->attention, WEFT_ATTN_SUSPEND, memory_order_release);
    oldest->asked = true;
}

/* After a step of `a` that returned `st`, under s->lock. */
static void sched_step_done_locked(weft_sched *s, sched_agent *a, weft_status st) {
    weft_exec *e = a->exec;
    bool woken = a->woken && a->woken_gen == e->waiter.gen, poked = a->poked;
    a->woken = a->poked = false;
    if (st != WEFT_SUSPENDED) {
        if (a->io_wait) sched_io_disarm_locked(s, a);
        a->state = SCHED_ENDED;
        sched_unlive_locked(s, a);
        return;
    }
    if (e->state != EXEC_PARKED) {
        sched_ready_locked(s, a, EXEC_WAKE_NOTIFY); /* preempted: to the back */
    } else if (e->host_pending) {
        /* A restartable host call: parked on its fds and deadline, or (no
           wait given, or poked meanwhile) to the back of the queue. */
        if (!a->io_wait || poked || !sched_io_arm_locked(s, a)) {
            sched_ready_locked(s, a, poked ? EXEC_WAKE_POKE : EXEC_WAKE_IO);
            return;
        }
        a->state = SCHED_PARKED;
        a->since = sched_now();
        if (e->park_deadline) {
            if (!sched_timer_add(s, a)) sched_ready_locked(s, a, EXEC_WAKE_POKE);
            else if (a->timer == 0) pthread_cond_signal(&s->tick);
        }
    } else if (woken) {
        sched_ready_locked(s, a, EXEC_WAKE_NOTIFY);
    } else if (poked) {
        sched_ready_locked(s, a, EXEC_WAKE_POKE);
    } else {
        a->state = SCHED_PARKED;
        a->since = sched_now();
        if (s->det && e->park_timeout) /* a futex timeout, on the virtual clock */
            e->park_deadline = atomic_load_explicit(&s->vclock, memory_order_relaxed) + e->park_timeout;
        if (e->park_deadline) {
            if (!sched_timer_add(s, a)) sched_ready_locked(s, a, EXEC_WAKE_POKE); /* no room for the timer: spin once more */
            else if (a->timer == 0) pthread_cond_signal(&s->tick); /* a new earliest deadline */
        }
    }
}

/* A runner out of work spins (without the lock) for up to SCHED_SPIN_NS
   before it sleeps on `work`: an agent woken by another thread a moment
   later (a message answered, a futex notified) is then taken without a
   sleep and a wake-up, which cost several microseconds each. It ends
   early when an agent is made ready (sched_ready_locked clears the flag
   instead of signalling) or the scheduler stops. One runner spins at a
   time, so an idle pool burns at most one core, and only briefly. */
static bool sched_spin_taken(void *arg) {
    weft_sched *s = arg;
    return !atomic_load_explicit(&s->spinning, memory_order_acquire);
}

static void sched_spin_locked(weft_sched *s, sched_runner *r) {
    atomic_store_explicit(&s->spinning, true, memory_order_relaxed);
    pthread_mutex_unlock(&s->lock);
    base_spin(&r->spin, SCHED_SPIN_NS, sched_spin_taken, s);
    pthread_mutex_lock(&s->lock);
    atomic_store_explicit(&s->spinning, false, memory_order_relaxed);
}

static void *sched_runner_main(void *arg) {
    sched_runner *r = arg;
    weft_sched *s = r->s;
    weft_error err;
    atomic_store_explicit(&r->tid, (int)syscall(SYS_gettid), memory_order_relaxed);
    pthread_mutex_lock(&s->lock);
    for (;;) {
        sched_agent *a = NULL;
        bool spun = false;
        while (!s->stopping && !(a = s->det ? sched_take_random_locked(s) : sched_take_locked(s))) {
            if (s->det && s->timers.len && s->timers.data[0]->det_io) {
                /* Every agent waits, and the first deadline is a blocking
                   read's (sched_agent_det_io_wait): its wait is made
                   again now, in place (it holds the one runner until its
                   data is there), and the clock stays where it is. */
                sched_ready_locked(s, s->timers.data[0], EXEC_WAKE_IO);
                continue;
            }
            if (s->det && s->timers.len) {
                /* Every agent waits: the virtual clock jumps to the
                   earliest deadline. */
                int64_t next = sched_deadline(s->timers.data[0]);
                if (next > atomic_load_explicit(&s->vclock, memory_order_relaxed))
                    atomic_store_explicit(&s->vclock, next, memory_order_relaxed);
                sched_fire_timers_locked(s, next);
                continue;
            }
            if (!spun && !s->det && !atomic_load_explicit(&s->spinning, memory_order_relaxed)) {
                spun = true;
                sched_spin_locked(s, r);
                continue; /* the loop looks again (and at s->stopping) */
            }
            pthread_cond_wait(&s->work, &s->lock);
        }
        if (!a) break;
        if (s->det) {
            s->det_running = a;
            a->slice_given = a->exec->slice_left = sched_det_slice(s);
            atomic_fetch_or_explicit(&a->exec->attention, EXEC_ATTN_SLICE, memory_order_relaxed);
        }
        a->state = SCHED_RUNNING;
        r->current = a;
        r->step_start = sched_now();
        r->asked = false;
        r->host_seen = 0;
        s->busy++;
        if (s->monitor_napping && sched_any_ready_locked(s)) {
            /* Agents made ready while every runner was idle did not wake
               the monitor, and some still wait: it ticks from now on. */
            s->monitor_napping = false;
            pthread_cond_signal(&s->tick);
        }
        pthread_mutex_unlock(&s->lock);

        sched_running = a;
        weft_status st = weft_exec_run(a->exec, &err);
        sched_running = NULL;

        pthread_mutex_lock(&s->lock);
        s->busy--;
        r->current = NULL;
        if (s->det) {
            atomic_fetch_and_explicit(&a->exec->attention, ~EXEC_ATTN_SLICE, memory_order_relaxed);
            int64_t done = (int64_t)(a->slice_given - a->exec->slice_left);
            int64_t now = atomic_fetch_add_explicit(&s->vclock, done * SCHED_DET_NS_PER_POINT,
                                                    memory_order_relaxed) + done * SCHED_DET_NS_PER_POINT;
            s->det_running = NULL;
            s->points += (uint64_t)done;
            if (s->pct_depth && st == WEFT_SUSPENDED && a->exec->slice_left == 0) {
                /* The step reached a change point (drop below everyone) or
                   the bound (a new random priority). */
                if (s->pct_next < s->pct_depth - 1 && s->points >= s->pct_change[s->pct_next])
                    a->prio = (int64_t)(s->pct_depth - 1 - s->pct_next++);
                else
                    a->prio = --s->pct_low; /* a spinner: below everyone, so all others go first */
            }
            a->slice_given = a->exec->slice_left = 0;
            sched_step_done_locked(s, a, st);
            sched_fire_timers_locked(s, now);
        } else {
            sched_step_done_locked(s, a, st);
        }
        if (a->state == SCHED_ENDED) {
            pthread_mutex_unlock(&s->lock);
            a->group->ended(a->group, a, st, &err); /* a is the group's now */
            pthread_mutex_lock(&s->lock);
        }
        if (r->replaced) {
            r->replaced = false;
            if (s->active >= s->target) break; /* enough runners without this one */
            s->active++;
        }
    }
    r->gone = true;
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

/* ------------------------------------------------------------------------
 * The monitor
 * ------------------------------------------------------------------------ */

/* Whether the runner's thread sleeps in the kernel (state S or D in
   /proc/self/task/TID/stat): a host call that blocks. One that runs, or
   that the OS took off its core for a moment (a machine with more
   runnable threads than cores), is not helped by another runner: that
   one would wait for the same cores. Unknown counts as blocked. */
static bool sched_runner_blocked(const sched_runner *r) {
    int tid = atomic_load_explicit(&r->tid, memory_order_relaxed);
    char path[64], buf[256];
    snprintf(path, sizeof path, "/proc/self/task/%d/stat", tid);
    int fd = tid ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    if (fd < 0) return true;
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return true;
    buf[n] = 0;
    const char *paren = strrchr(buf, ')'); /* the name may hold spaces and parens */
    return !paren || paren[1] != ' ' || (paren[2] != 'R');
}

static void sched_monitor_pass_locked(weft_sched *s, int64_t now) {
    sched_fire_timers_locked(s, now);
    /* Join the runners that left (replaced ones): a left runner no longer
       takes the lock, so joining under it cannot wait for long. */
    uint32_t runners = 0;
    for (sched_runner **link = &s->runners, *r; (r = *link);) {
        if (r->gone) {
            *link = r->next;
            pthread_join(r->os, NULL);
            free(r);
        } else {
            runners++;
            link = &r->next;
        }
    }
    for (sched_runner *r = s->runners; r; r = r->next) {
        sched_agent *a = r->current;
        if (!a) continue;
        /* In the same host call as at the last pass (half a slice ago or
           more), or not: in_host counts calls in and out. */
        uint32_t host = atomic_load_explicit(&a->exec->in_host, memory_order_relaxed);
        bool held = (host & 1) && host == r->host_seen;
        r->host_seen = host;
        if (now - r->step_start < s->slice) continue;
        if (held && sched_runner_blocked(r)) {
            /* Held in one host call: put another runner in its place. */
            if (!r->replaced && runners < s->max_runners && sched_runner_start_locked(s)) {
                r->replaced = true;
                s->active--;
                runners++;
            }
        } else if (!r->asked) {
            atomic_fetch_or_explicit(&a->exec->attention, WEFT_ATTN_SUSPEND, memory_order_release);
            r->asked = true;
        }
    }
}

static void *sched_monitor_main(void *arg) {
    weft_sched *s = arg;
    /* The monitor's timed wait is the timer of every parked sleep: 1 ns of
       timer slack instead of the default 50 us, by which the kernel may
       defer a wake-up (prctl(2) PR_SET_TIMERSLACK; this thread only, no
       privilege). A 5 ms sleep of a wasi-threads agent then overshoots by
       a median of ~80-135 us instead of ~145-165 us (issue 27). */
    prctl(PR_SET_TIMERSLACK, 1ul, 0, 0, 0);
    pthread_mutex_lock(&s->lock);
    while (!s->stopping) {
        int64_t now = sched_now();
        sched_monitor_pass_locked(s, now);
        int64_t until = -1;
        s->monitor_napping = !(s->busy && sched_any_ready_locked(s));
        if (!s->monitor_napping) until = now + s->slice / 2;
        if (s->timers.len && (until < 0 || sched_deadline(s->timers.data[0]) < until))
            until = sched_deadline(s->timers.data[0]);
        if (until < 0) {
            pthread_cond_wait(&s->tick, &s->lock);
        } else {
            struct timespec ts = sched_ts(until);
            pthread_cond_timedwait(&s->tick, &s->lock, &ts);
        }
    }
    pthread_mutex_unlock(&s->lock);
    return NULL;
}

/* ------------------------------------------------------------------------
 * Groups and agents
 * ------------------------------------------------------------------------ */

void sched_group_init(sched_group *g, weft_sched *s, weft_priority priority,
                      void (*ended)(sched_group *, sched_agent *, weft_status, const weft_error *),
                      void (*describe)(sched_group *, sched_agent *, char *, size_t)) {
    memset(g, 0, sizeof *g);
    g->sched = s;
    g->id = atomic_fetch_add_explicit(&s->next_group_id, 1, memory_order_relaxed) + 1;
    g->priority = priority;
    g->ended = ended;
    g->describe = describe;
}

sched_agent *sched_agent_start(sched_group *g, weft_exec *e, void *owner) {
    sched_agent *a = calloc(1, sizeof *a);
    if (!a) return NULL;
    weft_sched *s = g->sched;
    a->parker.wake = sched_wake;
    a->parker.poke = sched_poke;
    a->exec = e;
    a->group = g;
    a->owner = owner;
    a->timer = SCHED_NO_TIMER;
    e->parker = &a->parker;
    /* Cooperative mode starts no thread, the auto tier's ticker neither:
       the steps ask for its samples (sched_coop_sample). */
    e->tier_by_owner = s->coop;
    pthread_mutex_lock(&s->lock);
    if (s->pct_depth) a->prio = (int64_t)s->pct_depth + (int64_t)(sched_rand(&s->rng) >> 2); /* above every change point's */
    if (s->free_slots.len) {
        a->slot = s->free_slots.data[--s->free_slots.len];
        s->slots.data[a->slot] = a;
    } else if (s->slots.len < UINT32_MAX && BASE_VEC_PUSH(s->slots, a)) {
        a->slot = (uint32_t)(s->slots.len - 1);
    } else {
        pthread_mutex_unlock(&s->lock);
        e->parker = NULL;
        free(a);
        return NULL;
    }
    a->live_prev = s->live_tail;
    if (s->live_tail) s->live_tail->live_next = a;
    else s->live = a;
    s->live_tail = a;
    s->nlive++;
    sched_ready_locked(s, a, EXEC_WAKE_NOTIFY);
    sched_unlock_edge(s);
    return a;
}

void sched_agent_free(sched_agent *a) {
    if (!a) return;
    if (a->async) sched_async_abandon(a);
    weft_sched *s = a->group->sched;
    pthread_mutex_lock(&s->lock);
    s->slots.data[a->slot] = NULL;
    BASE_VEC_PUSH(s->free_slots, a->slot); /* out of memory: the slot is not reused */
    pthread_mutex_unlock(&s->lock);
    a->exec->parker = NULL;
    free(a);
}

/* ------------------------------------------------------------------------
 * The public side
 * ------------------------------------------------------------------------ */

weft_status weft_sched_new(weft_engine *engine, const weft_sched_config *config, weft_sched **out,
                           weft_error *err) {
    if (out) *out = NULL;
    if (!out) return base_fail(err, WEFT_ERR_MISUSE, "weft_sched_new: NULL out");
    weft_sched_config cfg = {0};
    if (config) cfg = *config;
    if (cfg.cooperative && (cfg.deterministic || cfg.runners || cfg.max_runners))
        return base_fail(err, WEFT_ERR_MISUSE,
                         "a cooperative scheduler has no runners and is not deterministic");
    if (cfg.deterministic) cfg.runners = cfg.max_runners = 1;
    if (!cfg.runners && !cfg.cooperative) {
        long n = sysconf(_SC_NPROCESSORS_ONLN);
        cfg.runners = n > 0 ? (uint32_t)n : 1;
    }
    if (!cfg.max_runners && !cfg.cooperative) cfg.max_runners = 4 * cfg.runners + 4;
    if (cfg.max_runners < cfg.runners)
        return base_fail(err, WEFT_ERR_MISUSE, "max_runners (%u) is below runners (%u)",
                         cfg.max_runners, cfg.runners);
    weft_sched *s = calloc(1, sizeof *s);
    if (!s) return base_fail(err, WEFT_ERR_NOMEM, "out of memory making a scheduler");
    s->epoll_fd = s->wake_fd = -1;
    s->tag = SCHED_TAG_LIVE;
    s->engine = engine;
    s->target = cfg.runners;
    s->max_runners = cfg.max_runners;
    s->slice = cfg.slice_ns ? (int64_t)cfg.slice_ns : (int64_t)SCHED_DEFAULT_SLICE_NS;
    if (cfg.cooperative) {
        s->coop = s->coop_idle = true;
        /* At least 2: the safe point that ends a slice returns before it
           looks at the requests (interp.c), so a slice of 1 would never
           see a stop. */
        s->coop_points = cfg.slice_points < 2 ? 2 : cfg.slice_points;
        s->coop_timed = cfg.slice_points == 0;
        s->coop_budget = cfg.call_budget_ns ? (int64_t)cfg.call_budget_ns : SCHED_COOP_BUDGET_NS;
        s->wake = cfg.wake;
        s->wake_user = cfg.wake_user;
    }
    if (cfg.deterministic) {
        s->det = true;
        s->pct_depth = cfg.pct_depth > 8 ? 8 : cfg.pct_depth;
        uint64_t steps = cfg.pct_steps ? cfg.pct_steps : 100000;
        s->rng = cfg.seed;
        s->rng_data = cfg.seed ^ 0x5DEECE66Dull;
        atomic_init(&s->vclock, SCHED_DET_START_NS);
        for (uint32_t i = 0; i + 1 < s->pct_depth; i++) { /* d-1 change points, sorted */
            uint64_t c = 1 + sched_rand(&s->rng) % steps;
            uint32_t j = i;
            for (; j > 0 && s->pct_change[j - 1] > c; j--) s->pct_change[j] = s->pct_change[j - 1];
            s->pct_change[j] = c;
        }
    }
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    bool ok = base_mutex_init_handoff(&s->lock) == 0;
    ok = ok && pthread_cond_init(&s->work, NULL) == 0;
    ok = ok && pthread_cond_init(&s->tick, &ca) == 0;
    pthread_condattr_destroy(&ca);
    if (!ok) {
        free(s);
        return base_fail(err, WEFT_ERR_NOMEM, "cannot make the scheduler's locks");
    }
    s->epoll_fd = epoll_create1(EPOLL_CLOEXEC);
    s->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    struct epoll_event stop = {.events = EPOLLIN, .data.u64 = SCHED_POLLER_STOP};
    if (s->epoll_fd < 0 || s->wake_fd < 0 || epoll_ctl(s->epoll_fd, EPOLL_CTL_ADD, s->wake_fd, &stop) != 0) {
        weft_sched_free(s);
        return base_fail(err, WEFT_ERR_NOMEM, "cannot make the scheduler's poller: %s", strerror(errno));
    }
    pthread_mutex_lock(&s->lock);
    for (uint32_t i = 0; i < cfg.runners && ok; i++) ok = sched_runner_start_locked(s);
    pthread_mutex_unlock(&s->lock);
    /* Deterministic mode has neither: time is virtual, fds are waited for
       in place. Cooperative mode neither: the host's loop watches the
       deadlines and the epoll set (weft_sched_fd). */
    bool threads = !s->det && !s->coop;
    if (ok && threads && pthread_create(&s->poller, NULL, sched_poller_main, s) != 0) ok = false;
    else if (ok && threads) s->poller_started = true;
    if (ok && threads && pthread_create(&s->monitor, NULL, sched_monitor_main, s) != 0) ok = false;
    else if (ok && threads) s->monitor_started = true;
    if (!ok) {
        weft_sched_free(s);
        return base_fail(err, WEFT_ERR_NOMEM, "cannot start the scheduler's threads");
    }
    *out = s;
    return WEFT_OK;
}

void sched_check_handle(const weft_sched *s, const char *fn) {
    uint32_t tag = s->tag;
    if (tag == SCHED_TAG_LIVE) return;
    fprintf(stderr, "weft: %s: %p is %s\n", fn, (const void *)s,
            tag == SCHED_TAG_DEAD ? "a scheduler freed already (weft_sched_free): a use after free"
                                  : "not a scheduler handle (or one freed and reused)");
    abort();
}

void weft_sched_free(weft_sched *s) {
    SCHED_CHECK(s, "weft_sched_free");
    if (!s) return;
    s->tag = SCHED_TAG_DEAD;
    pthread_mutex_lock(&s->lock);
    s->stopping = true;
    pthread_cond_broadcast(&s->work);
    pthread_cond_broadcast(&s->tick);
    pthread_mutex_unlock(&s->lock);
    if (s->monitor_started) pthread_join(s->monitor, NULL);
    if (s->poller_started) {
        uint64_t one = 1;
        while (write(s->wake_fd, &one, sizeof one) < 0 && errno == EINTR) {}
        pthread_join(s->poller, NULL);
    }
    if (s->epoll_fd >= 0) close(s->epoll_fd);
    if (s->wake_fd >= 0) close(s->wake_fd);
    BASE_VEC_FREE(s->slots);
    BASE_VEC_FREE(s->free_slots);
    /* No runner starts once stopping is set (only the monitor starts them). */
    for (sched_runner *r = s->runners, *next; r; r = next) {
        next = r->next;
        pthread_join(r->os, NULL);
        free(r);
    }
    BASE_VEC_FREE(s->timers);
    pthread_cond_destroy(&s->tick);
    pthread_cond_destroy(&s->work);
    pthread_mutex_destroy(&s->lock);
    free(s);
}

/* One line for agent `a`, at `now`. */
static size_t sched_describe_locked(sched_agent *a, int64_t now, char *buf, size_t size) {
    char who[96];
    a->group->describe(a->group, a, who, sizeof who);
    weft_exec *e = a->exec;
    double secs = (double)(now - a->since) / 1e9;
    switch (a->state) {
    case SCHED_PARKED:
        if (a->io_wait)
            return (size_t)snprintf(buf, size, "%s is %s after %.2f s\n", who, a->note,
                                    (double)(now - a->note_since) / 1e9);
        return (size_t)snprintf(buf, size, "%s is waiting on address 0x%llx (futex%s) after %.2f s\n", who,
                                (unsigned long long)e->waiter.addr, e->park_deadline ? ", with a timeout" : "",
                                secs);
    case SCHED_READY:
        return (size_t)snprintf(buf, size, "%s is ready to run (waiting for a runner for %.2f s)\n", who, secs);
    default:
        if (a->note[0])
            return (size_t)snprintf(buf, size, "%s is %s after %.2f s\n", who, a->note,
                                    (double)(now - a->note_since) / 1e9);
        if ((atomic_load_explicit(&e->in_host, memory_order_relaxed) & 1))
            return (size_t)snprintf(buf, size, "%s is in a host call (a WASI call or an import)\n", who);
        return (size_t)snprintf(buf, size, "%s is running\n", who);
    }
}

uint64_t weft_sched_executed(weft_sched *s) {
    SCHED_CHECK(s, "weft_sched_executed");
    if (!s) return 0;
    pthread_mutex_lock(&s->lock);
    uint64_t n = s->points;
    pthread_mutex_unlock(&s->lock);
    return n;
}

size_t weft_sched_dump(weft_sched *s, char *buf, size_t size) {
    SCHED_CHECK(s, "weft_sched_dump");
    return s ? sched_dump_group(s, NULL, buf, size) : (size ? (buf[0] = '\0', 0) : 0);
}

size_t sched_dump_group(weft_sched *s, const sched_group *g, char *buf, size_t size) {
    if (size) buf[0] = '\0';
    size_t need = 0;
    pthread_mutex_lock(&s->lock);
    int64_t now = sched_now();
    for (sched_agent *a = s->live; a; a = a->live_next) {
        if (g && a->group != g) continue;
        size_t left = need < size ? size - need : 0;
        need += sched_describe_locked(a, now, left ? buf + need : NULL, left);
    }
    pthread_mutex_unlock(&s->lock);
    return need;
}

/* ------------------------------------------------------------------------
 * Cooperative mode (weft.h, "Cooperative mode"; docs/coop.md;
 * design/concurrency.md §3)
 *
 * No thread of the scheduler's own: weft_sched_run_until_idle is the
 * runner, called by the host from its loop. It takes due timers and ready
 * fds first (the epoll set is the host's to watch: weft_sched_fd), then
 * gives every ready agent one slice, counted in executed safe points
 * (EXEC_ATTN_SLICE, as in deterministic mode: no monitor to cut it), with
 * the clock read between runs of at most SCHED_COOP_MAX of them so that a
 * slice and the call end in time (call_budget_ns), unless slice_points
 * asks for a count alone. The
 * fairness wall: an agent that already had its slice in this call and is
 * ready again (preempted, or woken by another agent's message) is set
 * aside and queued again, in order, when the call returns, so one call
 * runs at most one slice per agent, and no more slices than there were
 * agents when it began, and always returns. Agents made ready by others
 * during the call that have not run yet do run in it: a ping-pong through
 * the host's worker hooks goes on within one call.
 *
 * The edge: coop_idle is set when a call returns with nothing runnable;
 * the next sched_ready_locked clears it and sets coop_edge, which the
 * unlocking wake-up (sched_unlock_edge) hands to the host's hook. Inside
 * a call coop_idle is false, so what the call itself wakes is no edge,
 * and an agent woken from another thread during it is counted in the
 * call's `runnable` instead (checked under the lock at its return), so no
 * wake-up falls between the two.
 * ------------------------------------------------------------------------ */

bool sched_agent_cooperative(const sched_agent *a) { return a->group->sched->coop; }

/* Ready agents, counted (the exact `runnable` of a summary). */
static uint32_t sched_ready_count_locked(const weft_sched *s) {
    uint32_t n = 0;
    for (sched_agent *a = s->stop_head; a; a = a->next) n++;
    for (int l = 0; l < SCHED_LEVELS; l++) {
        sched_group *tail = s->ring[l];
        if (!tail) continue;
        sched_group *g = tail;
        do {
            g = g->next;
            for (sched_agent *a = g->head; a; a = a->next) n++;
        } while (g != tail);
    }
    return n;
}


/* The poller's work, done in place: makes the agents whose fds are ready
   runnable, without waiting. */
static void sched_coop_poll_locked(weft_sched *s) {
    struct epoll_event ev[64];
    int n;
    do {
        if (!s->io_armed) return;
        n = epoll_wait(s->epoll_fd, ev, 64, 0);
        for (int i = 0; i < n; i++) {
            uint64_t key = ev[i].data.u64;
            if (key == SCHED_POLLER_STOP) continue;
            uint32_t slot = (uint32_t)(key >> 32), gen = (uint32_t)key;
            sched_agent *a = slot < s->slots.len ? s->slots.data[slot] : NULL;
            if (a && a->io_armed && a->io_gen == gen && a->state == SCHED_PARKED)
                sched_ready_locked(s, a, EXEC_WAKE_IO);
        }
    } while (n == 64);
}

/* Timers and fds due now. */
static void sched_coop_due_locked(weft_sched *s) {
    sched_coop_poll_locked(s);
    if (s->timers.len) sched_fire_timers_locked(s, sched_now());
}

/* The auto tier's sample in cooperative mode (exec/tier.c; no ticker
   thread here): the running agent is asked for one at its next safe
   point when a millisecond has passed since the last. */
static void sched_coop_sample(weft_sched *s, weft_exec *e) {
    int64_t t = sched_now();
    if (t - s->coop_sampled < 1000000) return;
    s->coop_sampled = t;
    atomic_fetch_or_explicit(&e->attention, EXEC_ATTN_TIERUP, memory_order_relaxed);
}

/* One slice of `a` (taken, READY) on the calling thread, recorded in
   `sum`. Called and returns with s->lock held; drops it meanwhile. */
static void sched_coop_step_locked(weft_sched *s, sched_agent *a, weft_sched_summary *sum) {
    weft_exec *e = a->exec;
    a->state = SCHED_RUNNING;
    a->coop_call = s->coop_calls;
    e->slice_left = s->coop_timed ? SCHED_COOP_FIRST : s->coop_points;
    atomic_fetch_or_explicit(&e->attention, EXEC_ATTN_SLICE, memory_order_relaxed);
    s->busy++;
    weft_sched_event ev = {.group = a->group->id};
    if (a->group->member) ev.member = a->group->member(a->group, a);
    pthread_mutex_unlock(&s->lock);

    weft_error err;
    sched_running = a;
    bool auto_tier = e->store->engine && e->store->engine->config.tier == WEFT_TIER_AUTO;
    if (auto_tier) sched_coop_sample(s, e);
    weft_status st = weft_exec_run(e, &err);
    if (s->coop_timed) {
        /* Runs of at most a few thousand safe points, with a clock read
           between them, until the slice's time or the call's is up. */
        int64_t t0 = sched_now(), end = t0 + s->slice;
        if (end > s->coop_call_end) end = s->coop_call_end;
        uint64_t chunk = SCHED_COOP_FIRST;
        while (st == WEFT_SUSPENDED && e->state == EXEC_SUSPENDED && e->slice_left == 0) {
            int64_t t = sched_now();
            if (t >= end) break;
            int64_t per = (t - t0) / (int64_t)chunk; /* ns per safe point, so far */
            int64_t fit = (end - t) / 4 / (per > 0 ? per : 1);
            chunk = fit > SCHED_COOP_MAX ? SCHED_COOP_MAX : fit < SCHED_COOP_MIN ? SCHED_COOP_MIN : (uint64_t)fit;
            t0 = t;
            e->slice_left = chunk;
            atomic_fetch_or_explicit(&e->attention, EXEC_ATTN_SLICE, memory_order_relaxed);
            if (auto_tier) sched_coop_sample(s, e);
            st = weft_exec_run(e, &err);
        }
    }
    sched_running = NULL;
    atomic_fetch_and_explicit(&e->attention, ~EXEC_ATTN_SLICE, memory_order_relaxed);

    pthread_mutex_lock(&s->lock);
    s->busy--;
    sched_step_done_locked(s, a, st);
    sum->ran++;
    if (a->state == SCHED_ENDED) {
        bool stopped = st == WEFT_ERR_TRAP && err.trap == WEFT_TRAP_STOPPED;
        bool ok = st == WEFT_OK || st == WEFT_ERR_EXIT || stopped;
        ev.step = ok ? WEFT_SCHED_STEP_ENDED : WEFT_SCHED_STEP_FAILED;
        ev.status = st;
        ev.trap = st == WEFT_ERR_TRAP ? err.trap : WEFT_TRAP_NONE;
        if (ok) sum->ended++;
        else sum->failed++;
    } else if (a->state == SCHED_PARKED) {
        ev.step = WEFT_SCHED_STEP_PARKED;
        sum->parked++;
    } else {
        ev.step = WEFT_SCHED_STEP_READY;
    }
    if (sum->events && sum->nevents < sum->events_cap) sum->events[sum->nevents++] = ev;
    if (a->state == SCHED_ENDED) {
        pthread_mutex_unlock(&s->lock);
        a->group->ended(a->group, a, st, &err); /* a is the group's now */
        pthread_mutex_lock(&s->lock);
    }
}

weft_status weft_sched_run_until_idle(weft_sched *s, weft_sched_summary *summary) {
    weft_sched_summary local;
    weft_sched_summary *sum = summary ? summary : &local;
    weft_sched_event *events = summary ? summary->events : NULL;
    uint32_t cap = summary ? summary->events_cap : 0;
    memset(sum, 0, sizeof *sum);
    sum->events = events;
    sum->events_cap = cap;
    sum->deadline = -1;
    SCHED_CHECK(s, "weft_sched_run_until_idle");
    if (!s || !s->coop) return WEFT_ERR_MISUSE;
    pthread_mutex_lock(&s->lock);
    if (s->coop_running) {
        pthread_mutex_unlock(&s->lock);
        return WEFT_ERR_MISUSE;
    }
    s->coop_running = true;
    s->coop_idle = false;
    s->coop_calls++;
    sched_coop_due_locked(s);
    sched_agent *aside = NULL, *aside_tail = NULL; /* had their slice in this call */
    /* And at most as many slices as there were agents: ones started
       during the call (a thread spawning threads) wait for the next. */
    uint32_t budget = s->nlive;
    /* Timed: the clock is read once there is something to run (an idle
       call reads none), and no slice starts once the budget is spent (the
       agents not run keep their places in the queues). */
    s->coop_call_end = 0;
    for (sched_agent *a; budget;) {
        if (s->coop_call_end && sched_now() >= s->coop_call_end) break;
        if (!(a = sched_take_locked(s))) break;
        if (s->coop_timed && !s->coop_call_end) s->coop_call_end = sched_now() + s->coop_budget;
        if (a->coop_call == s->coop_calls && !sched_stopping(s, a)) { /* a stop is not held back */
            a->next = NULL;
            if (aside_tail) aside_tail->next = a;
            else aside = a;
            aside_tail = a;
            continue;
        }
        sched_coop_step_locked(s, a, sum);
        budget--;
    }
    for (sched_agent *a = aside, *next; a; a = next) {
        next = a->next;
        sched_enqueue_locked(s, a); /* back as it was, without a wake-up's bookkeeping */
    }
    sched_coop_due_locked(s); /* what came due meanwhile is runnable now */
    sum->runnable = sched_ready_count_locked(s);
    if (sum->runnable) {
        sum->outcome = WEFT_SCHED_YIELDED;
    } else {
        sum->outcome = WEFT_SCHED_IDLE;
        if (s->timers.len) sum->deadline = sched_deadline(s->timers.data[0]);
        s->coop_idle = true; /* the next agent made ready is an edge */
    }
    s->coop_running = false;
    pthread_mutex_unlock(&s->lock);
    return WEFT_OK;
}

int weft_sched_fd(weft_sched *s) {
    SCHED_CHECK(s, "weft_sched_fd");
    return s && s->coop ? s->epoll_fd : -1;
}

/* weft_sched_start: a host's execution as the one agent of a group. */
typedef struct sched_solo {
    sched_group group;        /* first: the callbacks get it */
    weft_sched_ended_fn ended;
    void *user;
} sched_solo;

static void sched_solo_ended(sched_group *g, sched_agent *a, weft_status st, const weft_error *err) {
    sched_solo *o = (sched_solo *)g;
    weft_exec *e = a->exec;
    weft_sched_ended_fn ended = o->ended;
    void *user = o->user;
    sched_agent_free(a);
    free(o);
    if (ended) ended(e, st, err, user);
}

static void sched_solo_describe(sched_group *g, sched_agent *a, char *buf, size_t len) {
    (void)a;
    snprintf(buf, len, "execution %u", g->id);
}

weft_status weft_sched_start(weft_sched *s, weft_exec *e, weft_priority priority,
                             weft_sched_ended_fn ended, void *user, uint32_t *id, weft_error *err) {
    if (id) *id = 0;
    SCHED_CHECK(s, "weft_sched_start");
    if (!s || !e) return base_fail(err, WEFT_ERR_MISUSE, "weft_sched_start: NULL argument");
    if ((e->state != EXEC_READY && e->state != EXEC_SUSPENDED) || e->parker)
        return base_fail(err, WEFT_ERR_MISUSE,
                         "weft_sched_start: the execution is not started, or is an agent already");
    sched_solo *o = calloc(1, sizeof *o);
    if (!o) return base_fail(err, WEFT_ERR_NOMEM, "out of memory making an agent");
    sched_group_init(&o->group, s, priority, sched_solo_ended, sched_solo_describe);
    o->ended = ended;
    o->user = user;
    uint32_t gid = o->group.id;
    if (!sched_agent_start(&o->group, e, o)) {
        free(o);
        return base_fail(err, WEFT_ERR_NOMEM, "out of memory making an agent");
    }
    if (id) *id = gid; /* o may be gone already: the agent may have ended */
    return WEFT_OK;
}
