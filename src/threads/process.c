/*
 * process.c — weft_process: making a process, running it under a
 * supervisor, ending it, freeing it.
 *
 * Every wasm thread, the main one included, runs on an OS thread of its
 * own, or as an agent of the process's scheduler (p->sched); the thread
 * that calls weft_process_run only supervises. It sleeps on p->cond and
 * wakes when an OS thread ends (to join it and free its execution, so
 * that many short-lived threads do not pile up) and when the process
 * ends; an agent that ends while the process goes on is reaped on its
 * runner, without waking the supervisor. The end is fixed once, under p->lock, by whoever sees it
 * first (thr_end_locked): the main thread returning, a proc_exit, a trap,
 * the deadlock count, or weft_process_stop. Fixing it stops every thread
 * at once — the attention word of each execution gets WEFT_ATTN_STOP (a
 * running thread stops at its next function entry or loop back-edge, one
 * in a futex wait is woken by weft_exec_request) and the stop pipe becomes
 * readable (every WASI blocking call polls it, block.c) — so the supervisor
 * only has to join.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "threads.h"

static void thr_stop_all_locked(thr_process *p) {
    for (thr_thread *t = p->threads; t; t = t->next)
        if (!t->done) weft_exec_request(t->exec, WEFT_ATTN_STOP);
    if (p->stop_pipe[1] >= 0) {
        ssize_t n;
        do n = write(p->stop_pipe[1], "x", 1);
        while (n < 0 && errno == EINTR);
    }
}

void thr_end_locked(thr_process *p, weft_process_end end, int32_t code, uint32_t tid,
                    const weft_error *err) {
    if (atomic_load_explicit(&p->ending, memory_order_relaxed)) return;
    weft_process_outcome *o = &p->outcome;
    o->end = end;
    o->exit_code = code;
    o->tid = tid;
    if (err) o->error = *err;
    atomic_store_explicit(&p->ending, true, memory_order_release);
    thr_stop_all_locked(p);
    pthread_cond_broadcast(&p->cond); /* the supervisor, and spawns waiting at the limit */
}

/* Joins a thread that has ended and frees it; after a deadlock, keeps what
   it waited on first. */
void thr_thread_reap(thr_process *p, thr_thread *t) {
    if (t->agent) sched_agent_free(t->agent);
    else pthread_join(t->os, NULL);
    /* The outcome never changes once `ending` is set (release/acquire). */
    if (atomic_load_explicit(&p->ending, memory_order_acquire) &&
        p->outcome.end == WEFT_PROCESS_DEADLOCK && t->status == WEFT_ERR_TRAP &&
        t->err.trap == WEFT_TRAP_STOPPED) {
        weft_process_waiter w;
        memset(&w, 0, sizeof w);
        w.tid = t->tid;
        w.width = (uint32_t)t->wait_width;
        w.addr = t->wait_addr;
        w.where = t->err;
        w.where.message[0] = '\0';
        BASE_VEC_PUSH(p->waiters, w); /* out of memory: reported without it */
    }
    /* A spawned thread's instance dies with it (nothing else can refer to
       it: threads share only the memory and the WASI functions). */
    if (t->tid != 1) rt_instance_release(t->exec->entry->inst);
    thr_exec_recycle(p, t->exec);
    free(t);
}

/* The supervisor: joins threads as they end, until the process has ended
   and every thread is gone (true), or `until` has come (CLOCK_MONOTONIC
   ns; 0: only look, -1: never; false). With a time limit it also keeps the
   clock: when the deadline passes it ends the process
   (WEFT_PROCESS_TIMEOUT), which stops every thread the way any other end
   does. weft_process_run waits here to the end; weft_process_wait, for a
   host that must not block (a cooperative scheduler), only looks. */
static bool thr_supervise(thr_process *p, int64_t until) {
    bool done = false;
    pthread_mutex_lock(&p->lock);
    for (;;) {
        thr_thread *dead = NULL;
        for (thr_thread *t = p->threads, *next; t; t = next) {
            next = t->next;
            if (!t->done) continue;
            if (t->prev) t->prev->next = t->next;
            else p->threads = t->next;
            if (t->next) t->next->prev = t->prev;
            t->next = dead;
            dead = t;
        }
        if (dead) {
            pthread_mutex_unlock(&p->lock);
            while (dead) {
                thr_thread *t = dead;
                dead = t->next;
                thr_thread_reap(p, t);
            }
            pthread_mutex_lock(&p->lock);
            continue;
        }
        bool ending = atomic_load_explicit(&p->ending, memory_order_relaxed);
        if (!p->threads && !p->reaping && ending) {
            done = true;
            break;
        }
        bool timed = p->timeout_ns && !ending;
        int64_t now = timed || until > 0 ? base_now_ns() : 0;
        if (timed && now >= p->deadline) {
            thr_end_locked(p, WEFT_PROCESS_TIMEOUT, 0, 0, NULL);
            continue;
        }
        if (until == 0 || (until > 0 && now >= until)) break;
        int64_t wake = until;
        if (timed && (wake < 0 || p->deadline < wake)) wake = p->deadline;
        if (wake < 0) {
            pthread_cond_wait(&p->cond, &p->lock);
        } else {
            struct timespec ts = {(time_t)(wake / 1000000000), (long)(wake % 1000000000)};
            pthread_cond_timedwait(&p->cond, &p->lock, &ts);
        }
    }
    pthread_mutex_unlock(&p->lock);
    return done;
}

static int thr_waiter_cmp(const void *a, const void *b) {
    uint32_t x = ((const weft_process_waiter *)a)->tid, y = ((const weft_process_waiter *)b)->tid;
    return x < y ? -1 : x > y;
}

weft_status weft_process_new(weft_engine *engine, weft_module *module, weft_wasi *wasi,
                             const weft_process_config *config, weft_process **out,
                             weft_error *err) {
    if (out) *out = NULL;
    if (!engine || !module || !wasi || !out)
        return base_fail(err, WEFT_ERR_MISUSE, "weft_process_new: NULL argument");
    thr_shape shape;
    weft_status st = thr_check_module(module, &shape, err);
    if (st != WEFT_OK) return st;

    weft_process *proc = calloc(1, sizeof *proc);
    if (!proc) return base_fail(err, WEFT_ERR_NOMEM, "out of memory making a process");
    thr_process *p = &proc->p;
    p->stop_pipe[0] = p->stop_pipe[1] = -1;
    p->group.blocked = thr_blocked;
    p->group.unblocked = thr_unblocked;
    p->engine = engine;
    p->module = weft_module_retain(module);
    p->wasi = wasi;
    p->shape = shape;
    p->max_threads = config && config->max_threads ? config->max_threads
                                                   : THR_DEFAULT_MAX_THREADS;
    p->timeout_ns = config ? config->timeout_ns : 0;
    p->sched = config ? config->sched : NULL;
    SCHED_CHECK(p->sched, "weft_process_new");
    if (p->sched) {
        sched_group_init(&p->agents, p->sched, config->priority, thr_agent_ended, thr_agent_describe);
        p->agents.member = thr_agent_member;
    }
    p->next_tid = 2;
    atomic_init(&p->counts, 0);
    atomic_init(&p->ending, false);
    if (pthread_mutex_init(&p->spare_lock, NULL) != 0) {
        weft_module_release(p->module);
        free(proc);
        return base_fail(err, WEFT_ERR_NOMEM, "cannot make a process's lock");
    }
    bool lock_ok = pthread_mutex_init(&p->lock, NULL) == 0;
    bool cond_ok = false;
    pthread_condattr_t ca;
    if (lock_ok && pthread_condattr_init(&ca) == 0) {
        cond_ok = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) == 0 &&
                  pthread_cond_init(&p->cond, &ca) == 0;
        pthread_condattr_destroy(&ca);
    }
    if (!cond_ok) {
        if (lock_ok) pthread_mutex_destroy(&p->lock);
        pthread_mutex_destroy(&p->spare_lock);
        weft_module_release(p->module);
        free(proc);
        return base_fail(err, WEFT_ERR_NOMEM, "cannot make a process's lock");
    }
    if (pipe2(p->stop_pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        p->stop_pipe[0] = p->stop_pipe[1] = -1;
        st = base_fail(err, WEFT_ERR_NOMEM, "cannot make a pipe: %s", strerror(errno));
        goto fail;
    }
    p->store = weft_store_new(engine);
    if (p->store && config && config->max_memory_bytes) {
        p->budget.limit = config->max_memory_bytes;
        p->store->budget = &p->budget; /* before anything is made in it */
    }
    p->linker = p->store ? weft_linker_new(p->store) : NULL;
    if (!p->linker) {
        st = base_fail(err, WEFT_ERR_NOMEM, "out of memory making a process's store");
        goto fail;
    }
    /* Every thread's execution is made in this store, so all draw from one
       budget; the module's start function (run below) is metered too. */
    if (config && config->fuel) weft_store_set_fuel(p->store, config->fuel);
    if ((st = weft_wasi_define(wasi, p->store, p->linker, err)) != WEFT_OK) goto fail;
    if (shape.has_memory_import) {
        if ((st = weft_memory_new(p->store, shape.mem_limits, &p->memory, err)) != WEFT_OK)
            goto fail;
        weft_extern ext = {.kind = WEFT_EXTERN_MEMORY, .of.memory = p->memory};
        if ((st = weft_linker_define_n(p->linker, shape.mem_module, shape.mem_name, ext)) != WEFT_OK) {
            base_fail(err, st, "cannot define the memory %s.%s", shape.mem_module.data,
                      shape.mem_name.data);
            goto fail;
        }
    }
    {
        weft_valtype i32 = WEFT_I32;
        weft_functype ft = {1, 1, &i32, &i32};
        weft_func *spawn = weft_func_new(p->store, &ft, thr_spawn_host, p, NULL);
        weft_extern ext = {.kind = WEFT_EXTERN_FUNC, .of.func = spawn};
        if (!spawn || weft_linker_define(p->linker, "wasi", "thread-spawn", ext) != WEFT_OK) {
            st = base_fail(err, WEFT_ERR_NOMEM, "out of memory defining wasi.thread-spawn");
            goto fail;
        }
    }
    if ((st = weft_linker_instantiate(p->linker, module, &p->main_inst, err)) != WEFT_OK) goto fail;
    p->shape.start = weft_instance_func(p->main_inst, "_start");
    if (!p->shape.start) {
        st = base_fail(err, WEFT_ERR_LINK,
                       "the module exports no _start function, so it is not a WASI command");
        goto fail;
    }
    weft_functype ft = weft_func_type(p->shape.start);
    if (ft.nparams || ft.nresults) {
        st = base_fail(err, WEFT_ERR_LINK, "_start must take no parameters and return nothing");
        goto fail;
    }
    *out = proc;
    return WEFT_OK;
fail:
    weft_process_free(proc);
    return st;
}

weft_status weft_process_start(weft_process *proc) {
    if (!proc) return WEFT_ERR_MISUSE;
    thr_process *p = &proc->p;
    pthread_mutex_lock(&p->lock);
    if (p->ran) {
        pthread_mutex_unlock(&p->lock);
        return WEFT_ERR_MISUSE;
    }
    p->ran = true;
    if (p->timeout_ns) p->deadline = base_now_ns() + (int64_t)p->timeout_ns;
    weft_status st = WEFT_OK;
    if (!atomic_load_explicit(&p->ending, memory_order_relaxed)) {
        thr_block_install(p);
        p->block_installed = true;
        weft_error err;
        thr_count_live_locked(p, +1);
        thr_thread *t = thr_thread_make(p, 1, p->shape.start, NULL, 0, &err);
        st = t ? thr_thread_launch_locked(p, t, &err) : err.status;
        if (st != WEFT_OK) {
            thr_thread_discard(t);
            thr_count_live_locked(p, -1);
            thr_end_locked(p, WEFT_PROCESS_FAILED, 0, 1, &err);
        }
    }
    pthread_mutex_unlock(&p->lock);
    return st == WEFT_OK ? WEFT_OK : WEFT_ERR_NOMEM;
}

weft_status weft_process_wait(weft_process *proc, int64_t timeout_ns, weft_process_outcome *out) {
    if (!proc || !out) return WEFT_ERR_MISUSE;
    thr_process *p = &proc->p;
    pthread_mutex_lock(&p->lock);
    bool ran = p->ran;
    pthread_mutex_unlock(&p->lock);
    if (!ran) return WEFT_ERR_MISUSE;
    int64_t until = timeout_ns < 0 ? -1 : timeout_ns == 0 ? 0 : base_now_ns() + timeout_ns;
    if (!thr_supervise(p, until)) return WEFT_ERR_TIMEOUT;
    /* Every thread is gone: the outcome is fixed, and made up once. */
    pthread_mutex_lock(&p->lock);
    if (!p->finished) {
        p->finished = true;
        if (p->block_installed) thr_block_remove(p);
        if (p->waiters.len > 1)
            qsort(p->waiters.data, p->waiters.len, sizeof *p->waiters.data, thr_waiter_cmp);
        p->outcome.threads = p->started;
        thr_report_build(p);
    }
    *out = p->outcome;
    pthread_mutex_unlock(&p->lock);
    return WEFT_OK;
}

weft_status weft_process_run(weft_process *proc, weft_process_outcome *out) {
    if (!proc || !out) return WEFT_ERR_MISUSE;
    weft_status st = weft_process_start(proc);
    if (st == WEFT_ERR_MISUSE) return st; /* *out untouched */
    memset(out, 0, sizeof *out);
    weft_process_wait(proc, -1, out);
    return st;
}

void weft_process_stop(weft_process *proc) {
    if (!proc) return;
    thr_process *p = &proc->p;
    pthread_mutex_lock(&p->lock);
    thr_end_locked(p, WEFT_PROCESS_STOPPED, 0, 0, NULL);
    pthread_mutex_unlock(&p->lock);
}

size_t weft_process_dump(weft_process *proc, char *buf, size_t size) {
    if (size) buf[0] = '\0';
    if (!proc) return 0;
    thr_process *p = &proc->p;
    if (p->sched) return sched_dump_group(p->sched, &p->agents, buf, size);
    size_t need = 0;
    pthread_mutex_lock(&p->lock);
    int64_t now = base_now_ns();
    thr_thread *oldest = p->threads;
    while (oldest && oldest->next) oldest = oldest->next;
    for (thr_thread *t = oldest; t; t = t->prev) { /* oldest first */
        if (t->done) continue;
        size_t left = need < size ? size - need : 0;
        char *at = left ? buf + need : NULL;
        int64_t since = atomic_load_explicit(&t->wait_since, memory_order_acquire);
        int n;
        if (since)
            n = snprintf(at, left, "thread %u is waiting on address 0x%llx (futex) after %.2f s\n",
                         t->tid, (unsigned long long)t->wait_addr, (double)(now - since) / 1e9);
        else if (t->note[0])
            n = snprintf(at, left, "thread %u is %s after %.2f s\n", t->tid, t->note,
                         (double)(now - t->note_since) / 1e9);
        else if ((atomic_load_explicit(&t->exec->in_host, memory_order_relaxed) & 1))
            n = snprintf(at, left, "thread %u is in a host call (a WASI call or an import)\n",
                         t->tid);
        else
            n = snprintf(at, left, "thread %u is running\n", t->tid);
        need += n > 0 ? (size_t)n : 0;
    }
    pthread_mutex_unlock(&p->lock);
    return need;
}

const char *weft_process_report(const weft_process *proc) {
    return proc && proc->p.report ? proc->p.report : "";
}

uint32_t weft_process_waiter_count(const weft_process *proc) {
    return proc ? (uint32_t)proc->p.waiters.len : 0;
}

const weft_process_waiter *weft_process_waiter_get(const weft_process *proc, uint32_t index) {
    if (!proc || index >= proc->p.waiters.len) return NULL;
    return &proc->p.waiters.data[index];
}

const char *weft_process_spawn_error(const weft_process *proc) {
    return proc ? proc->p.spawn_error : NULL;
}

void weft_process_free(weft_process *proc) {
    if (!proc) return;
    thr_process *p = &proc->p;
    /* No thread is left: weft_process_run joins every one. */
    for (size_t i = 0; i < p->spare.len; i++) weft_exec_free(p->spare.data[i]);
    BASE_VEC_FREE(p->spare);
    pthread_mutex_destroy(&p->spare_lock);
    weft_linker_free(p->linker);
    weft_store_free(p->store);
    weft_module_release(p->module);
    if (p->stop_pipe[0] >= 0) close(p->stop_pipe[0]);
    if (p->stop_pipe[1] >= 0) close(p->stop_pipe[1]);
    free(p->spawn_error);
    free(p->report);
    BASE_VEC_FREE(p->waiters);
    pthread_cond_destroy(&p->cond);
    pthread_mutex_destroy(&p->lock);
    free(proc);
}
