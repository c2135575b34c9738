/*
 * threads.h — the process (weft_process): a WASI command and its
 * wasi-threads, shared between the files of src/threads/.
 *
 *   process.c  making, running (the supervisor), ending and freeing
 *   spawn.c    wasi.thread-spawn, the body of every thread, deadlock counts
 *   check.c    the load-time checks ("loud at load")
 *   block.c    the WASI blocker that a process's ending interrupts
 *   report.c   the outcome in words
 *
 * Ownership. The process owns its store (and so every instance, the shared
 * memory and the host functions), its linker, its thread records and their
 * executions; it holds a module reference and borrows the WASI context.
 *
 * Locks, in the only order they are ever taken:
 *   futex bucket lock  ->  p->lock  ->  an execution's park_lock
 * (a futex wait reports "blocked" to the process under its bucket lock,
 * which may end the process; ending requests a stop of every execution).
 * store->lock is taken alone (instantiation).
 *
 * Counting for deadlock detection: p->counts packs the number of live
 * threads (high 32 bits) and of those in an untimed futex wait (low 32
 * bits) in one atomic word, so every change sees a consistent pair. Live
 * changes only under p->lock; blocked changes under a futex bucket lock.
 * The change that makes blocked == live (> 0) proves a deadlock: a thread
 * counted live but not blocked is running, sleeping with a timeout, or in
 * a host call, any of which may still wake the others.
 */
#ifndef WEFT_THREADS_H
#define WEFT_THREADS_H

#include <pthread.h>

#include "../exec/exec.h"
#include "../sched/sched.h"

#define THR_DEFAULT_MAX_THREADS 128u
#define THR_WASI_EAGAIN 6 /* WASI errno EAGAIN: thread-spawn returns -6 */
#define THR_SPAWN_GRACE_MS 100 /* how long a spawn at the limit waits for a
                                  thread to leave before it fails */
#define THR_FIX                                                               \
    "rebuild with: clang --target=wasm32-wasip1-threads -pthread "            \
    "-Wl,--import-memory,--shared-memory,--max-memory=N"

typedef struct thr_process thr_process;
struct weft_wasi;
struct wasi_wait;

/* One thread: tid, instance, execution and OS thread. Fields other than
   `done`, `next` are written before the OS thread starts or by the thread
   itself, and read by the supervisor after joining it. */
typedef struct thr_thread {
    thr_process *p;
    uint32_t tid;
    weft_exec *exec;
    pthread_t os;             /* OS-thread mode */
    sched_agent *agent;       /* scheduler mode */
    bool done;                /* its run ended; under p->lock */
    weft_status status;       /* how its run ended */
    weft_error err;           /* the run's error (trap with backtrace) */
    uint64_t wait_addr;       /* its last untimed futex wait */
    int wait_width;
    /* For weft_process_dump on OS threads: when its untimed futex wait
       began (0: not in one; set and cleared by the futex hooks), and
       what a blocking WASI call waits for (under p->lock; "" = none). */
    _Atomic int64_t wait_since;
    char note[64];
    int64_t note_since;
    struct thr_thread *next, *prev; /* p->threads; under p->lock */
} thr_thread;

/* The static shape of a module as a process sees it (check.c). */
typedef struct thr_shape {
    bool spawns;              /* imports wasi.thread-spawn */
    bool has_memory_import;
    weft_name mem_module, mem_name; /* borrowed from the module */
    weft_limits mem_limits;
    weft_func *start;         /* filled later: _start of the main instance */
} thr_shape;

struct thr_process {
    exec_group group;         /* first: futex.c's view of the process */
    weft_engine *engine;
    weft_sched *sched;        /* borrowed; NULL: one OS thread per thread */
    sched_group agents;       /* with a scheduler: the threads' group */
    weft_module *module;      /* counted reference */
    struct weft_wasi *wasi;   /* borrowed */
    uint32_t max_threads;
    uint64_t timeout_ns;      /* wall-clock limit of the run; 0 = none */
    thr_shape shape;
    weft_store *store;
    weft_linker *linker;
    weft_memory *memory;      /* the imported memory, or NULL */
    weft_instance *main_inst;

    pthread_mutex_t lock;
    pthread_cond_t cond;      /* the supervisor waits on it */
    _Atomic uint64_t counts;  /* live << 32 | blocked (see above) */
    thr_thread *threads;      /* started and not yet joined */
    uint32_t next_tid;
    uint32_t spawn_waiters;   /* spawns waiting at the limit (p->cond) */
    uint32_t reaping;         /* agents being reaped on their runners */
    uint32_t started;         /* threads that ran */
    bool ran;                 /* weft_process_run or _start was called */
    bool block_installed;     /* thr_block_install was (undone at the end) */
    bool finished;            /* the outcome is made up (weft_process_wait) */
    int64_t deadline;         /* timeout_ns: when it passes (CLOCK_MONOTONIC ns) */
    _Atomic bool ending;      /* outcome fixed; spawns refused */
    bool stop_requested;      /* weft_process_stop before the run */
    int stop_pipe[2];         /* readable once the process ends (block.c) */
    /* The WASI blocker (a wasi_blocker) the run replaced, and its env. */
    int (*saved_block)(struct weft_wasi *w, struct wasi_wait *wait);
    void *saved_block_env;
    char *spawn_error;        /* why the last thread-spawn failed */
    /* Executions of reaped threads, reused by the next spawns (no stack
       to map again). Under spare_lock, a leaf lock. */
    pthread_mutex_t spare_lock;
    BASE_VEC(weft_exec *) spare;

    /* The memory budget (max_memory_bytes; limit 0 = none): the store
       points at it, every thread's execution is attached to it. */
    rt_budget budget;

    weft_process_outcome outcome;
    BASE_VEC(weft_process_waiter) waiters; /* deadlock: who waits on what */
    char *report;             /* report.c, after the run */
};

struct weft_process {
    thr_process p;
};

/* check.c: fills `shape` from the module's imports and exports, or returns
   WEFT_ERR_LINK with the reason and the fix. */
weft_status thr_check_module(const weft_module *module, thr_shape *shape, weft_error *err);

/* spawn.c */
/* The host function behind wasi.thread-spawn (env = the process). */
weft_status thr_spawn_host(weft_caller *caller, void *env, const weft_val *args,
                           weft_val *results);
/* Makes thread `tid` of `p`, ready to run `func(args)` (of an instance
   made already; tid 1 is the main thread), without starting it. NULL with
   err filled on failure. */
thr_thread *thr_thread_make(thr_process *p, uint32_t tid, weft_func *func,
                            const weft_val *args, size_t nargs, weft_error *err);
/* Frees a thread that was made but not launched. Accepts NULL. */
void thr_thread_discard(thr_thread *t);
/* Frees a thread that has ended and was taken off p->threads (joins its
   OS thread first), keeping its execution for reuse. */
void thr_thread_reap(thr_process *p, thr_thread *t);
/* Keeps the execution of a reaped thread for reuse (or frees it). */
void thr_exec_recycle(thr_process *p, weft_exec *e);
/* Starts it (on its OS thread, or as an agent of p->sched) and publishes
   it (p->threads). Call with p->lock held and the process not ending. On
   failure the caller still owns t. */
weft_status thr_thread_launch_locked(thr_process *p, thr_thread *t, weft_error *err);
/* The scheduler's hooks (sched_group). */
void thr_agent_ended(sched_group *g, sched_agent *a, weft_status st, const weft_error *err);
void thr_agent_describe(sched_group *g, sched_agent *a, char *buf, size_t len);
uint32_t thr_agent_member(sched_group *g, sched_agent *a);
/* The futex hooks (exec_group). */
void thr_blocked(exec_group *g, weft_exec *e, uint64_t addr, int width);
void thr_unblocked(exec_group *g, weft_exec *e);
/* Adds dlive live threads (may be negative); call with p->lock held. May
   end the process with a deadlock. */
void thr_count_live_locked(thr_process *p, int dlive);
/* Records why a thread-spawn failed (printf-style). Call with p->lock held. */
void thr_spawn_failed_locked(thr_process *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* process.c: fixes the outcome (the first call wins) and stops every
   thread. Call with p->lock held. `err` may be NULL. */
void thr_end_locked(thr_process *p, weft_process_end end, int32_t code, uint32_t tid,
                    const weft_error *err);

/* block.c: the WASI blocker of a running process. */
struct weft_wasi;
void thr_block_install(thr_process *p);
void thr_block_remove(thr_process *p);

/* report.c: builds p->report from the outcome. */
void thr_report_build(thr_process *p);

#endif
