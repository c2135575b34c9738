/*
 * async.c — async host functions (weft.h, "Async host functions"): a host
 * import that answers later, from any thread, without holding the agent's
 * runner (or, in cooperative mode, the host's loop) meanwhile.
 *
 * Built on restartable host calls (weft_host_fn): the function made by
 * weft_func_new_async is a trampoline around the host's. Its first call
 * makes a token and calls the host's function with it; "pending"
 * (WEFT_SUSPENDED) keeps the token in the call's restart word, parks the
 * agent with no fd and no deadline (sched_agent_wait_io, as a channel
 * receive does) and returns WEFT_SUSPENDED. The completion stores the
 * results in the token and wakes the agent (sched_agent_wake); its run
 * makes the call again, and the trampoline, finding the token done,
 * returns its results. A wake-up that is not the completion (a request)
 * only parks the call again. A wake that comes between the check and the
 * park is kept by the scheduler (sched_agent_wake on a running agent), so
 * none is lost.
 *
 * Lifetime. A token has two references: the completer's (dropped by
 * weft_async_complete/fail) and the call's (dropped when the call takes
 * the results, or when its agent is freed without having done so — a
 * stop request ended the parked call: sched_async_abandon). The last one
 * frees it.
 *
 * Locks: t->lock -> the scheduler's lock (sched_agent_wait_io and
 * sched_agent_wake take it with t->lock held); nothing is taken under
 * t->lock but that.
 *
 * Off a scheduler (weft_func_call, a process on OS threads, a host call
 * with no restart word) the calling thread waits on t->done_cond.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sched.h"

struct weft_async {
    pthread_mutex_t lock;
    pthread_cond_t done_cond;
    int refs;                 /* under lock */
    bool done, failed;        /* under lock */
    sched_agent *agent;       /* the parked agent to wake, or NULL; under lock */
    uint32_t nresults;
    const weft_valtype *types; /* the function's result types (its record's) */
    char message[WEFT_ERROR_MESSAGE_MAX];
    weft_val results[];       /* nresults */
};

/* What weft_func_new_async makes: the env of the trampoline. */
typedef struct sched_async_fn {
    weft_async_fn fn;
    void *env;
    void (*finalizer)(void *env);
    uint32_t nresults;
    weft_valtype types[];
} sched_async_fn;

static weft_async *sched_async_new(const sched_async_fn *f) {
    weft_async *t = calloc(1, sizeof *t + f->nresults * sizeof(weft_val));
    if (!t) return NULL;
    if (pthread_mutex_init(&t->lock, NULL) != 0) {
        free(t);
        return NULL;
    }
    if (pthread_cond_init(&t->done_cond, NULL) != 0) {
        pthread_mutex_destroy(&t->lock);
        free(t);
        return NULL;
    }
    t->refs = 2;
    t->nresults = f->nresults;
    t->types = f->types;
    return t;
}

static void sched_async_destroy(weft_async *t) {
    pthread_cond_destroy(&t->done_cond);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

/* Drops a reference, under t->lock, which it releases. */
static void sched_async_unref_unlock(weft_async *t) {
    bool last = --t->refs == 0;
    pthread_mutex_unlock(&t->lock);
    if (last) sched_async_destroy(t);
}

void sched_async_abandon(sched_agent *a) {
    weft_async *t = a->async;
    a->async = NULL;
    pthread_mutex_lock(&t->lock);
    t->agent = NULL;
    sched_async_unref_unlock(t);
}

/* The call with token `t` pending: its results (WEFT_OK), its trap, or
   parked again (WEFT_SUSPENDED). */
static weft_status sched_async_settle(weft_caller *caller, weft_async *t, bool restartable,
                                      weft_val *results) {
    sched_agent *a = sched_current();
    bool mine = a && caller && a->exec == caller->exec;
    pthread_mutex_lock(&t->lock);
    if (!t->done && mine && restartable &&
        sched_agent_wait_io(a, NULL, 0, -1, "waiting for an async host call") == 0) {
        t->agent = a;
        a->async = t;
        pthread_mutex_unlock(&t->lock);
        return WEFT_SUSPENDED;
    }
    /* Cannot park: wait here (off a scheduler, or no room to park). */
    t->agent = NULL;
    while (!t->done) pthread_cond_wait(&t->done_cond, &t->lock);
    if (mine && a->async == t) a->async = NULL;
    weft_status st = WEFT_OK;
    if (t->failed) {
        weft_caller_trap(caller, "%s", t->message);
        st = WEFT_ERR_TRAP;
    } else {
        memcpy(results, t->results, t->nresults * sizeof *results);
    }
    sched_async_unref_unlock(t);
    return st;
}

static weft_status sched_async_call(weft_caller *caller, void *env, const weft_val *args,
                                    weft_val *results) {
    sched_async_fn *f = env;
    uint64_t *word = weft_caller_restart_word(caller);
    weft_async *t = word && *word ? (weft_async *)(uintptr_t)*word : NULL;
    if (!t) {
        if (!(t = sched_async_new(f))) {
            weft_caller_trap(caller, "out of memory making an async host call's token");
            return WEFT_ERR_TRAP;
        }
        weft_status st = f->fn(caller, f->env, args, results, t);
        if (st != WEFT_SUSPENDED) {
            sched_async_destroy(t); /* answered at once, or failed: the token was not given out */
            return st;
        }
        if (word) *word = (uintptr_t)t;
    }
    return sched_async_settle(caller, t, word != NULL, results);
}

static void sched_async_finalize(void *env) {
    sched_async_fn *f = env;
    if (f->finalizer) f->finalizer(f->env);
    free(f);
}

weft_func *weft_func_new_async(weft_store *store, const weft_functype *type, weft_async_fn fn,
                               void *env, void (*finalizer)(void *env)) {
    if (!store || !type || !fn || (type->nresults && !type->results)) return NULL;
    sched_async_fn *f = malloc(sizeof *f + type->nresults * sizeof(weft_valtype));
    if (!f) return NULL;
    f->fn = fn;
    f->env = env;
    f->finalizer = finalizer;
    f->nresults = type->nresults;
    if (type->nresults) memcpy(f->types, type->results, type->nresults * sizeof(weft_valtype));
    weft_func *func = weft_func_new(store, type, sched_async_call, f, sched_async_finalize);
    if (!func) free(f);
    return func;
}

/* Marks `t` done (under its lock, which it releases) and tells the call:
   wakes its agent, or the thread waiting in place. */
static void sched_async_finish_unlock(weft_async *t) {
    t->done = true;
    if (t->agent) sched_agent_wake(t->agent);
    pthread_cond_broadcast(&t->done_cond);
    sched_async_unref_unlock(t);
}

weft_status weft_async_complete(weft_async *t, const weft_val *results, size_t nresults) {
    if (!t || nresults != t->nresults || (nresults && !results)) return WEFT_ERR_MISUSE;
    for (size_t i = 0; i < nresults; i++)
        if (results[i].type != t->types[i]) return WEFT_ERR_MISUSE;
    pthread_mutex_lock(&t->lock);
    if (t->done) {
        pthread_mutex_unlock(&t->lock);
        return WEFT_ERR_MISUSE;
    }
    memcpy(t->results, results, nresults * sizeof *results);
    sched_async_finish_unlock(t);
    return WEFT_OK;
}

void weft_async_fail(weft_async *t, const char *fmt, ...) {
    if (!t) return;
    pthread_mutex_lock(&t->lock);
    if (t->done) {
        pthread_mutex_unlock(&t->lock);
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(t->message, sizeof t->message, fmt ? fmt : "async host call failed", ap);
    va_end(ap);
    t->failed = true;
    sched_async_finish_unlock(t);
}
