/*
 * spawn.c — wasi.thread-spawn, the body of every thread, and the counts
 * behind deadlock detection.
 *
 * A spawn runs on the spawning thread: it reserves a tid and a place under
 * the thread limit, instantiates the module again (same store, same
 * imports: the shared memory and the WASI functions; the module is neither
 * decoded nor compiled again), prepares `wasi_thread_start(tid, arg)` on a
 * new execution and starts an OS thread for it. The new thread is
 * published (and so can be stopped) under p->lock, and only when the
 * process is not ending; an execution's attention word is cleared by
 * weft_exec_start, so the start happens before publication, never after.
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "threads.h"

#define THR_LIVE(c) ((uint32_t)((c) >> 32))
#define THR_BLOCKED(c) ((uint32_t)(c))

void thr_spawn_failed_locked(thr_process *p, const char *fmt, ...) {
    char buf[WEFT_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char *s = strdup(buf);
    if (!s) return; /* keep the older reason */
    free(p->spawn_error);
    p->spawn_error = s;
}

static void thr_check_deadlock(thr_process *p, uint64_t counts) {
    uint32_t live = THR_LIVE(counts);
    if (live == 0 || THR_BLOCKED(counts) != live) return;
    thr_end_locked(p, WEFT_PROCESS_DEADLOCK, 0, 0, NULL);
}

void thr_count_live_locked(thr_process *p, int dlive) {
    uint64_t delta = (uint64_t)(int64_t)dlive << 32;
    uint64_t now = atomic_fetch_add_explicit(&p->counts, delta, memory_order_acq_rel) + delta;
    if (dlive < 0) thr_check_deadlock(p, now);
}

void thr_blocked(exec_group *g, weft_exec *e, uint64_t addr, int width) {
    thr_process *p = (thr_process *)g;
    thr_thread *t = e->group_member;
    t->wait_addr = addr;
    t->wait_width = width;
    atomic_store_explicit(&t->wait_since, base_now_ns(), memory_order_release);
    uint64_t now = atomic_fetch_add_explicit(&p->counts, 1, memory_order_acq_rel) + 1;
    if (THR_LIVE(now) == THR_BLOCKED(now)) {
        pthread_mutex_lock(&p->lock);
        /* Re-read under the lock: a spawn cannot be under way (its thread
           would be running), so the pair is still the same. */
        thr_check_deadlock(p, atomic_load_explicit(&p->counts, memory_order_acquire));
        pthread_mutex_unlock(&p->lock);
    }
}

void thr_unblocked(exec_group *g, weft_exec *e) {
    thr_process *p = (thr_process *)g;
    thr_thread *t = e->group_member;
    atomic_store_explicit(&t->wait_since, 0, memory_order_release);
    atomic_fetch_sub_explicit(&p->counts, 1, memory_order_acq_rel);
}

/* A thread's run ended with `st` (t->err filled): tell the process. */
static void thr_thread_finish(thr_thread *t, weft_status st) {
    thr_process *p = t->p;
    pthread_mutex_lock(&p->lock);
    t->status = st;
    bool ending = atomic_load_explicit(&p->ending, memory_order_acquire);
    if (st == WEFT_OK) {
        if (t->tid == 1) thr_end_locked(p, WEFT_PROCESS_EXIT, 0, 1, NULL);
    } else if (st == WEFT_ERR_EXIT) {
        thr_end_locked(p, WEFT_PROCESS_EXIT, t->err.exit_code, t->tid, NULL);
    } else if (st == WEFT_ERR_TRAP && t->err.trap == WEFT_TRAP_STOPPED && ending) {
        /* stopped because the process ends: not an outcome of its own */
    } else if (st == WEFT_ERR_TRAP || st == WEFT_ERR_EXCEPTION) {
        /* An uncaught exception ends the process as a trap does; the
           error keeps WEFT_ERR_EXCEPTION and the tag in its message. */
        thr_end_locked(p, WEFT_PROCESS_TRAP, 0, t->tid, &t->err);
    } else {
        thr_end_locked(p, WEFT_PROCESS_FAILED, 0, t->tid, &t->err);
    }
    t->done = true;
    thr_count_live_locked(p, -1);
    /* An agent is reaped here, on its runner, unless the process ends:
       then the supervisor collects what the ended threads waited on. An
       OS thread must be joined by the supervisor. */
    bool reap_here = t->agent && !atomic_load_explicit(&p->ending, memory_order_relaxed);
    if (reap_here) {
        if (t->prev) t->prev->next = t->next;
        else p->threads = t->next;
        if (t->next) t->next->prev = t->prev;
        p->reaping++; /* the supervisor waits for it before the process ends */
    }
    if (!reap_here || p->spawn_waiters)
        pthread_cond_broadcast(&p->cond); /* the supervisor, and spawns waiting at the limit */
    pthread_mutex_unlock(&p->lock);
    if (!reap_here) return;
    thr_thread_reap(p, t);
    pthread_mutex_lock(&p->lock);
    if (--p->reaping == 0) pthread_cond_broadcast(&p->cond);
    pthread_mutex_unlock(&p->lock);
}

/* The body of every OS thread: run the execution to its end. */
static void *thr_thread_main(void *arg) {
    thr_thread *t = arg;
    weft_status st;
    do st = weft_exec_run(t->exec, &t->err);
    while (st == WEFT_SUSPENDED);
    thr_thread_finish(t, st);
    return NULL;
}

void thr_agent_ended(sched_group *g, sched_agent *a, weft_status st, const weft_error *err) {
    (void)g;
    thr_thread *t = a->owner;
    if (st != WEFT_OK) t->err = *err;
    thr_thread_finish(t, st);
}

void thr_agent_describe(sched_group *g, sched_agent *a, char *buf, size_t len) {
    thr_thread *t = a->owner;
    snprintf(buf, len, "thread %u of process %u", t->tid, g->id);
}

uint32_t thr_agent_member(sched_group *g, sched_agent *a) {
    (void)g;
    return ((thr_thread *)a->owner)->tid;
}

#define THR_SPARE_MAX 64 /* executions kept for reuse */

void thr_exec_recycle(thr_process *p, weft_exec *e) {
    exec_budget_detach(e); /* its stack goes back to the budget */
    pthread_mutex_lock(&p->spare_lock);
    bool kept = p->spare.len < THR_SPARE_MAX && BASE_VEC_PUSH(p->spare, e);
    pthread_mutex_unlock(&p->spare_lock);
    if (!kept) weft_exec_free(e);
}

static weft_exec *thr_exec_take(thr_process *p) {
    weft_exec *e = NULL;
    pthread_mutex_lock(&p->spare_lock);
    if (p->spare.len) e = p->spare.data[--p->spare.len];
    pthread_mutex_unlock(&p->spare_lock);
    return e ? e : weft_exec_new(p->store);
}

thr_thread *thr_thread_make(thr_process *p, uint32_t tid, weft_func *func, const weft_val *args,
                            size_t nargs, weft_error *err) {
    thr_thread *t = calloc(1, sizeof *t);
    weft_exec *e = t ? thr_exec_take(p) : NULL;
    if (!e) {
        free(t);
        base_fail(err, WEFT_ERR_NOMEM, "out of memory making thread %u's execution", tid);
        return NULL;
    }
    if (p->store->budget && !exec_budget_attach(e, p->store->budget)) {
        thr_exec_recycle(p, e);
        free(t);
        base_fail(err, WEFT_ERR_LIMIT,
                  "no room for thread %u's stack in the memory budget (max_memory_bytes %llu)", tid,
                  (unsigned long long)p->budget.limit);
        return NULL;
    }
    weft_status st = weft_exec_start(e, func, args, nargs);
    if (st != WEFT_OK) {
        weft_exec_free(e);
        free(t);
        base_fail(err, st, "cannot start thread %u (%s)", tid, weft_status_name(st));
        return NULL;
    }
    t->p = p;
    t->tid = tid;
    t->exec = e;
    e->group = &p->group;
    e->group_member = t;
    return t;
}

void thr_thread_discard(thr_thread *t) {
    if (!t) return;
    weft_exec_free(t->exec);
    free(t);
}

weft_status thr_thread_launch_locked(thr_process *p, thr_thread *t, weft_error *err) {
    if (p->sched) {
        t->agent = sched_agent_start(&p->agents, t->exec, t);
        if (!t->agent)
            return base_fail(err, WEFT_ERR_NOMEM, "out of memory making thread %u an agent", t->tid);
    } else {
        int rc = pthread_create(&t->os, NULL, thr_thread_main, t);
        if (rc != 0)
            return base_fail(err, WEFT_ERR_NOMEM, "cannot create an OS thread for thread %u: %s",
                             t->tid, strerror(rc));
    }
    t->prev = NULL;
    t->next = p->threads;
    if (p->threads) p->threads->prev = t;
    p->threads = t;
    p->started++;
    return WEFT_OK;
}

/* wasi.thread-spawn(start_arg) -> tid, or -EAGAIN. */
static int32_t thr_spawn(thr_process *p, weft_caller *caller, int32_t start_arg) {
    pthread_mutex_lock(&p->lock);
    if (atomic_load_explicit(&p->ending, memory_order_relaxed)) {
        pthread_mutex_unlock(&p->lock);
        return -THR_WASI_EAGAIN;
    }
    uint32_t live = THR_LIVE(atomic_load_explicit(&p->counts, memory_order_acquire));
    if (live >= p->max_threads) {
        /* At the limit, wait a little for a thread to leave: a thread whose
           function has returned to the guest's join (it set its "done"
           word) may not have been scheduled to leave yet, and a program
           that joins before it spawns must not see EAGAIN for that. */
        struct timespec until;
        clock_gettime(CLOCK_MONOTONIC, &until);
        until.tv_nsec += THR_SPAWN_GRACE_MS * 1000000L;
        until.tv_sec += until.tv_nsec / 1000000000L;
        until.tv_nsec %= 1000000000L;
        p->spawn_waiters++;
        while (live >= p->max_threads && !atomic_load_explicit(&p->ending, memory_order_relaxed) &&
               pthread_cond_timedwait(&p->cond, &p->lock, &until) == 0)
            live = THR_LIVE(atomic_load_explicit(&p->counts, memory_order_acquire));
        p->spawn_waiters--;
        live = THR_LIVE(atomic_load_explicit(&p->counts, memory_order_acquire));
    }
    if (atomic_load_explicit(&p->ending, memory_order_relaxed)) {
        pthread_mutex_unlock(&p->lock);
        return -THR_WASI_EAGAIN;
    }
    if (live >= p->max_threads) {
        thr_spawn_failed_locked(p,
                                "thread-spawn returned -EAGAIN: %u threads are alive (the main "
                                "thread included), the limit (--max-threads %u)",
                                live, p->max_threads);
        pthread_mutex_unlock(&p->lock);
        return -THR_WASI_EAGAIN;
    }
    uint32_t tid = p->next_tid++;
    thr_count_live_locked(p, +1); /* reserve our place under the limit */
    pthread_mutex_unlock(&p->lock);

    weft_error err;
    weft_instance *inst = NULL;
    weft_func *start = NULL;
    thr_thread *t = NULL;
    weft_status st = weft_linker_instantiate(p->linker, p->module, &inst, &err);
    if (st == WEFT_OK) {
        start = weft_instance_func(inst, "wasi_thread_start");
        if (!start) st = base_fail(&err, WEFT_ERR_LINK, "no export wasi_thread_start");
    }
    if (st == WEFT_OK) {
        weft_val args[2];
        memset(args, 0, sizeof args);
        args[0].type = args[1].type = WEFT_I32;
        args[0].of.i32 = (int32_t)tid;
        args[1].of.i32 = start_arg;
        t = thr_thread_make(p, tid, start, args, 2, &err);
        if (!t) st = err.status;
    }

    pthread_mutex_lock(&p->lock);
    if (st == WEFT_OK && atomic_load_explicit(&p->ending, memory_order_relaxed))
        st = base_fail(&err, WEFT_ERR_MISUSE, "the process is ending");
    if (st == WEFT_OK) st = thr_thread_launch_locked(p, t, &err);
    if (st == WEFT_ERR_TRAP && err.trap == WEFT_TRAP_OUT_OF_FUEL) {
        /* The new instance's start function (a shared memory's init)
           found the budget spent: the spawning thread ran out of fuel. */
        thr_thread *self = caller && caller->exec ? caller->exec->group_member : NULL;
        thr_end_locked(p, WEFT_PROCESS_TRAP, 0, self ? self->tid : 0, &err);
    }
    if (st != WEFT_OK) {
        thr_thread_discard(t);
        if (!atomic_load_explicit(&p->ending, memory_order_relaxed))
            thr_spawn_failed_locked(p, "thread-spawn returned -EAGAIN: thread %u: %s", tid,
                                    err.message);
        thr_count_live_locked(p, -1);
        pthread_mutex_unlock(&p->lock);
        return -THR_WASI_EAGAIN;
    }
    pthread_mutex_unlock(&p->lock);
    return (int32_t)tid;
}

weft_status thr_spawn_host(weft_caller *caller, void *env, const weft_val *args,
                           weft_val *results) {
    results[0].type = WEFT_I32;
    results[0].of.i32 = thr_spawn(env, caller, args[0].of.i32);
    return WEFT_OK;
}
