/*
 * sched.h — the scheduler's internal interface (sched.c), for the groups
 * of agents that run on it: a process's threads (src/threads), and next
 * workers.
 *
 * An agent is one execution (weft_exec, started) that runners step in
 * turn. A group is the unit of fair share and of priority: the ready
 * agents of a group wait in its FIFO, and the ready groups of each
 * priority in a ring, so runners alternate between groups before agents.
 */
#ifndef WEFT_SCHED_H
#define WEFT_SCHED_H

#include <poll.h>
#include <pthread.h>

#include "../exec/exec.h"

typedef struct sched_group sched_group;
typedef struct sched_agent sched_agent;

enum { SCHED_READY, SCHED_RUNNING, SCHED_PARKED, SCHED_ENDED };

struct sched_agent {
    exec_parker parker;      /* first: what the execution sees */
    weft_exec *exec;
    sched_group *group;
    void *owner;             /* the group's record of it */
    /* Under the scheduler's lock: */
    uint8_t state;           /* SCHED_* */
    bool woken;              /* a notify of wait `woken_gen` came while running */
    bool poked;              /* a request came while running */
    uint32_t woken_gen;
    size_t timer;            /* index in the timer heap, or SCHED_NO_TIMER */
    int64_t since;           /* when it parked or became ready (ns) */
    char note[64];           /* what a host call waits for, or "" */
    int64_t note_since;
    /* A host call parked on fds and a deadline (sched_agent_wait_io):
       duplicates of its fds, watched by the poller while it is parked. */
    bool io_wait, io_armed;
    uint32_t io_gen;         /* counts those waits; names one to the poller */
    uint32_t slot;           /* in the scheduler's agent table (the poller's key) */
    struct pollfd *io, io_one;
    size_t nio;
    uint64_t slice_given;    /* deterministic mode: safe points of this step */
    /* Deterministic mode: parked on a wait on fds (a blocking read) until
       no other agent is ready (sched_agent_det_io_wait); set by its own
       step, cleared when its wait is made again (only the one runner
       touches it). */
    bool det_io;
    int64_t prio;            /* deterministic PCT: its priority (higher runs) */
    uint64_t coop_call;      /* cooperative mode: the last run_until_idle
                                call that gave it a slice (under the lock) */
    struct weft_async *async; /* its parked async host call (async.c), or
                                 NULL; touched only by its own steps and
                                 after its end */
    bool urgent;             /* READY in the stop queue (not its group's) */
    sched_agent *next;       /* in its group's ready FIFO, or the stop queue */
    sched_agent *live_prev, *live_next; /* every agent not ended */
};

struct sched_group {
    weft_sched *sched;
    uint32_t id;              /* 1, 2, ... in the order groups were made */
    weft_priority priority;
    /* The execution of `a` ended (finished, trapped, failed: st and err).
       Called on a runner with no scheduler lock held; the agent is not
       touched by the scheduler after, so the group may free it. */
    void (*ended)(sched_group *g, sched_agent *a, weft_status st, const weft_error *err);
    /* Names `a` for diagnostics ("thread 2 of process 1"). */
    void (*describe)(sched_group *g, sched_agent *a, char *buf, size_t len);
    /* Its number within the group for weft_sched_event.member (a
       thread's tid); NULL = 0. */
    uint32_t (*member)(sched_group *g, sched_agent *a);
    /* Under the scheduler's lock: */
    sched_agent *head, *tail; /* ready agents */
    sched_group *next;        /* in the ready ring of its priority */
    bool queued;
};

#define SCHED_NO_TIMER ((size_t)-1)

/* Prepares a group of `s` (no allocation; nothing to free). */
void sched_group_init(sched_group *g, weft_sched *s, weft_priority priority,
                      void (*ended)(sched_group *, sched_agent *, weft_status, const weft_error *),
                      void (*describe)(sched_group *, sched_agent *, char *, size_t));
/* Makes the started execution `e` an agent of `g` and queues it. NULL when
   out of memory. From now on the scheduler runs `e`; the group gets it
   back through `ended`. */
sched_agent *sched_agent_start(sched_group *g, weft_exec *e, void *owner);
/* Frees an agent after `ended` (its execution stays the caller's). */
void sched_agent_free(sched_agent *a);
/* A stop asked of an agent that waits in the run queue (READY, asked to
   stop: it would run only to trap "stopped" at its first safe point) is
   done in the asking thread, without a runner (issue 26: under load a
   runner may be off its core for milliseconds). sched_agent_end_queued
   asks `a` to stop, takes it out of the queues and marks it ended when it
   is READY (not in deterministic or cooperative mode), all under the
   scheduler's lock, so no runner takes it meanwhile: true then (else it
   did nothing: ask with weft_exec_request), and the caller must call
   sched_agent_end_stopped(a) once it holds none of the locks its group's
   ended() takes; that ends it with the trap "stopped", as a runner would. */
bool sched_agent_end_queued(sched_agent *a);
/* The agent that runs `e` (set before it is first queued). */
sched_agent *sched_agent_of(weft_exec *e);
void sched_agent_end_stopped(sched_agent *a);

/* The agent the calling thread runs now (inside its host calls), or NULL
   off a runner. */
sched_agent *sched_current(void);
/* What `a`'s host call now waits for, for the diagnostics ("reading host
   fd 0"), or NULL when it no longer waits. */
void sched_agent_note(sched_agent *a, const char *what);
/* From a restartable host call of the running agent `a`, about to return
   WEFT_SUSPENDED: park `a` until one of `fds` is ready for its events, or
   `deadline` (CLOCK_MONOTONIC ns, -1 = none) has passed, or it is poked;
   then the call is made again. `what` names the wait for the diagnostics.
   Returns 0, or -errno (no fd to spare: then wait in place). */
int sched_agent_wait_io(sched_agent *a, const struct pollfd *fds, size_t nfds, int64_t deadline,
                        const char *what);
/* Makes `a` run again if it is parked (its parked host call is made
   again); if it is running, when its step ends (the wake is kept, so a
   host call may register itself as a waiter, return WEFT_SUSPENDED and
   park without losing one). No effect on a ready or ended agent. Any
   thread; takes the scheduler's lock (a leaf). */
void sched_agent_wake(sched_agent *a);

/* weft_sched_dump's lines for the agents of `g` only (NULL: every
   agent). */
size_t sched_dump_group(weft_sched *s, const sched_group *g, char *buf, size_t size);

/* Handle checks (src/workers/workers.h says why): aborts with a report
   when `s` (not NULL) is not a live scheduler. SCHED_CHECK compiles to
   nothing when NDEBUG is defined. */
void sched_check_handle(const weft_sched *s, const char *fn);
#ifdef NDEBUG
#define SCHED_CHECK(s, fn) ((void)0)
#else
#define SCHED_CHECK(s, fn) do { if (s) sched_check_handle((s), (fn)); } while (0)
#endif
#define SCHED_TAG_LIVE 0x73636c76u /* "sclv" */
#define SCHED_TAG_DEAD 0x73636464u /* "scdd" */

/* Whether `a`'s scheduler is cooperative (weft_sched_config.cooperative). */
bool sched_agent_cooperative(const sched_agent *a);

/* async.c: the agent `a` is being freed with an async host call parked
   (a->async): the call is abandoned (a completion only frees the token). */
void sched_async_abandon(sched_agent *a);

/* Clocks and randomness as the running agent `a` sees them (for its host
   calls): real ones, or in deterministic mode the scheduler's virtual
   clock (CLOCK_MONOTONIC-like ns; realtime: a fixed epoch plus it) and
   its seeded stream. */
bool sched_agent_deterministic(const sched_agent *a);
int64_t sched_agent_clock(const sched_agent *a);
int64_t sched_agent_realtime(const sched_agent *a);
void sched_agent_random(const sched_agent *a, void *buf, size_t len);
/* Deterministic mode: moves the virtual clock on to `to` (a wait that
   passed its deadline in place); no effect otherwise. */
void sched_agent_clock_advance(const sched_agent *a, int64_t to);
/* Deterministic mode, from a restartable host call of the running agent
   `a` that would wait on fds: parks `a` (returns 0; the call returns
   WEFT_SUSPENDED) until the first of: no other agent is ready and no
   other deadline comes before its own; its `deadline` (on the virtual
   clock, -1 = none); one second of virtual time (SCHED_DET_IO_LIMIT_NS);
   a poke. The call is then made again, and a->det_io tells it to wait in
   place. So the point where a blocking read returns depends on the
   schedule alone, not on when its data came, and the other agents run
   meanwhile. -errno when it cannot park (then wait in place at once). */
int sched_agent_det_io_wait(sched_agent *a, int64_t deadline, const char *what);

/* park.c: a restartable blocking WASI call (wait->restartable) of the
   running agent `a`'s own execution. Polls wait->fds once without
   waiting; when none is ready, the deadline has not passed and `a` is not
   asked to stop (WEFT_ATTN_STOP), parks `a` on them (sched_agent_wait_io).
   True with *result what the blocker returns: the number of ready fds
   (revents filled), 0 when the deadline has passed, -EINTR when asked to
   stop, -errno, or WASI_BLOCK_PARKED. False: `a` cannot park (no fd to
   spare), and the call is to wait in place. */
struct wasi_wait;
bool sched_agent_try_park(sched_agent *a, struct wasi_wait *wait, int *result);

#endif
