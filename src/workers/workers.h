/*
 * workers.h — workers (weft.h, "Workers"): the internal interface between
 * the channels (channel.c), the guest's imports (guest.c) and the worker
 * itself (worker.c).
 *
 * Locks, in the only order they are taken:
 *     hook_lock  ->  w->lock  ->  channel lock  ->  scheduler lock (leaf)
 * hook_lock is held only around a call of the host's wake hook (so free can
 * wait out a call in progress); the hook itself may take w->lock and the
 * channel locks. Nothing else is ever held while a lock of this list is
 * taken out of this order.
 */
#ifndef WEFT_WORKERS_H
#define WEFT_WORKERS_H

#include "../sched/sched.h"

#define WK_DEFAULT_MESSAGE_BYTES ((uint64_t)64 << 20)
#define WK_DEFAULT_QUEUED_BYTES ((uint64_t)256 << 20)
#define WK_DEFAULT_MESSAGES 1024u
#define WK_DEFAULT_MEMORY_BYTES ((uint64_t)256 << 20)
#define WK_DEFAULT_STACK_BYTES ((uint64_t)256 << 10)
#define WK_DEFAULT_GRACE_NS 100000000ull

/* The guest's codes (docs/workers.md, include/weft_worker_guest.h). */
enum {
    WK_END = -1,
    WK_TIMEOUT = -2,
    WK_TOO_SMALL = -3,
    WK_FULL = -4,
    WK_TOO_LARGE = -5,
    WK_CLOSED = -6,
    WK_NOMEM = -7,
    WK_FAULT = -8,
};

/* A message is one malloc'd block: its bytes first, this record after
   them, so the bytes can be handed to the host as they are (free(data)
   frees the message). */
typedef struct wk_msg {
    struct wk_msg *next;
    size_t len;
    uint8_t *data;            /* the block's start */
} wk_msg;
/* Frees a message. */
static inline void wk_msg_free(wk_msg *m) {
    if (m) free(m->data);
}

/*
 * A channel: a bounded FIFO of messages between host threads on one side
 * and the worker's agent on the other (the inbox: hosts send, the agent
 * takes; the outbox: the agent sends, hosts take).
 *
 * Waiting. Host threads wait on `cond` (host_waiters counts them); the
 * agent, which must not block its runner, registers under the lock
 * (agent_waits) and parks (sched_agent_wait_io with no fds), and whoever
 * changes the channel in a way it may wait for (a message queued or taken,
 * the close) wakes it under the lock with sched_agent_wake. A wake that
 * comes before the agent has parked is kept by the scheduler, so none is
 * lost; a wake is only a hint (the call is made again and looks).
 *
 * Counters (count, bytes, sent, received, dropped, refused) change only
 * under the lock, so a reader sees them exact.
 */
typedef struct wk_channel {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    wk_msg *head, *tail;
    uint32_t count;
    uint64_t bytes;
    weft_channel_limits limits;
    bool closed;
    bool agent_waits;         /* the agent parked (or is parking) on it */
    uint32_t host_waiters;
    sched_agent *agent;       /* the worker's agent; NULL once it ended */
    uint64_t sent, received, dropped, refused;
    /* Bumped by every change a waiter may wait for (written under the
       lock, read without it by a host thread spinning before it sleeps). */
    _Atomic uint32_t changes;
    /* A host waiter is owed a broadcast of `cond`: the *_locked changes
       set it, wk_unlock broadcasts after releasing the lock (a host thread
       woken under it would block on it at once: issue 26). */
    bool host_owed;
} wk_channel;

/* Releases ch->lock, then broadcasts what the changes made under it owe
   the host's waiters. Every unlock of a channel's lock goes through it. */
static inline void wk_unlock(wk_channel *ch) {
    bool owed = ch->host_owed;
    ch->host_owed = false;
    pthread_mutex_unlock(&ch->lock);
    if (owed) pthread_cond_broadcast(&ch->cond);
}
/* Before a host waiter sleeps on ch->cond (under ch->lock): what it owes
   the others goes out first. */
static inline void wk_flush_owed_locked(wk_channel *ch) {
    if (!ch->host_owed) return;
    ch->host_owed = false;
    pthread_cond_broadcast(&ch->cond);
}

/* Outcomes of the non-blocking steps below: WEFT_OK, or the status a send
   or receive fails with; WK_AGAIN: would wait. */
#define WK_AGAIN ((weft_status)-1)

bool wk_channel_init(wk_channel *ch, const weft_channel_limits *limits);
/* Frees what is still queued and the lock. */
void wk_channel_destroy(wk_channel *ch);
/* A message of `len` bytes copied from `data` (NULL: left uninitialised). */
wk_msg *wk_msg_new(const void *data, size_t len);

/* Under ch->lock: whether a message of `len` bytes may be queued now
   (WEFT_OK), could be after a receive (WK_AGAIN), or never (the status,
   with err filled). */
weft_status wk_send_check_locked(wk_channel *ch, size_t len, weft_error *err);
/* Under ch->lock: queues `m` (checked), wakes a waiting receiver. Returns
   true when the channel was empty (an edge for the host's wake hook). */
bool wk_push_locked(wk_channel *ch, wk_msg *m);
/* Under ch->lock: takes the head (NULL if none), wakes a waiting sender. */
wk_msg *wk_pop_locked(wk_channel *ch);
/* Under ch->lock: closes; wakes every waiter. True if it was open. */
bool wk_close_locked(wk_channel *ch);
/* Under ch->lock: drops everything queued (counted in `dropped`). */
void wk_drop_locked(wk_channel *ch);

/* Host-side send and receive, waiting on ch->cond up to the deadline
   (CLOCK_MONOTONIC ns; -1 = forever, 0 = do not wait). *edge is set when
   a send made the channel non-empty. */
weft_status wk_host_send(wk_channel *ch, wk_msg *m, int64_t deadline, bool *edge, weft_error *err);
weft_status wk_host_recv(wk_channel *ch, int64_t deadline, wk_msg **out, weft_error *err);

/* CLOCK_MONOTONIC now, and a deadline from a relative timeout (-1 for a
   negative one: forever; 0 for 0: poll). */
int64_t wk_now(void);
int64_t wk_deadline(int64_t timeout_ns);

/* Handle checks (a debug build: every build without NDEBUG): a worker
   and a scheduler carry a tag word, set when made and changed when the
   host frees them, and each public function that takes one looks at it
   first, so a use after free (or a pointer that is no handle) is reported
   on stderr and aborts instead of running on freed memory. */
#define WK_TAG_LIVE 0x776b6c76u /* "wklv" */
#define WK_TAG_DEAD 0x776b6464u /* "wkdd" */
/* Aborts with a report when `w` (not NULL) is not a live worker. */
void wk_check_handle(const weft_worker *w, const char *fn);
#ifdef NDEBUG
#define WK_CHECK(w, fn) ((void)0)
#else
#define WK_CHECK(w, fn) do { if (w) wk_check_handle((w), (fn)); } while (0)
#endif

/* A worker (worker.c). */
struct weft_worker {
    sched_group group;        /* first: the scheduler's callbacks get it */
    uint32_t tag;             /* WK_TAG_LIVE until weft_worker_free */
    uint32_t id;
    _Atomic uint32_t refs;    /* the host's, and the agent's while it runs */
    _Atomic bool host_closed; /* weft_worker_close was called (a refused post says so) */
    weft_sched *sched;
    weft_module *module;
    weft_store *store;
    weft_wasi *wasi;
    weft_exec *exec;
    sched_agent *agent;
    weft_shared_memory *shared;
    bool entry_i32;           /* the entry returns an i32 */
    uint8_t *input;
    size_t input_len;
    uint64_t grace_ns;
    wk_channel inbox, outbox;
    void (*wake)(weft_worker *w, void *user);
    void *user;
    pthread_mutex_t hook_lock; /* held around wake-hook calls */
    bool hook_off;             /* under hook_lock: free has begun */
    /* Under lock: */
    pthread_mutex_t lock;
    pthread_cond_t ended_cond;
    bool finishing;           /* wk_ended has begun: the execution is going */
    bool ended;               /* the agent is done with the scheduler and its
                                 resources are freed */
    bool terminating;
    bool hard_stopped;        /* the end was fixed by the grace period */
    int64_t stop_at;          /* when terminate was asked (ns) */
    weft_worker_state state;  /* the end as the host sees it (fixed once) */
    int32_t exit_code;
    weft_error *error;        /* FAILED (malloc'd), or NULL */
    uint8_t *result;          /* set_result's bytes */
    size_t result_len;
};

/* Calls the host's wake hook (if any, and not freed), with no lock of the
   caller's held. */
void wk_worker_notify(weft_worker *w);

/* Makes the worker's WASI context wait through the scheduler (block.c):
   its blocking calls park the agent, or see a stop request. */
void wk_block_install(weft_worker *w);

/* The weft:worker imports (guest.c): defines in `linker` those `module`
   imports from "weft:worker", bound to `w`. WEFT_ERR_LINK names an import
   of that module that does not exist or has another type. */
weft_status wk_guest_define(weft_worker *w, weft_linker *linker, const weft_module *module,
                            weft_error *err);
/* The weft:worker function `name` of import type `type`, made in the
   worker's store (WEFT_ERR_LINK: no such function, or another type). */
weft_status wk_guest_func(weft_worker *w, weft_name name, const weft_externtype *type, weft_func **out,
                          weft_error *err);

#endif
