/*
 * guest.c — the `weft:worker` imports: what a worker's code calls
 * (docs/workers.md has the ABI and the codes).
 *
 * Every call that may wait (recv, peek, send) is restartable: when it
 * cannot answer now it has done nothing the guest can see, registers the
 * agent as the channel's waiter under the channel's lock, parks it (no
 * fds, the call's deadline) and returns WEFT_SUSPENDED; it is made again
 * when the channel changes, its deadline passes, or the worker is
 * stopped — then the interpreter ends it with WEFT_TRAP_STOPPED instead.
 * The deadline of a call is fixed by its first making (the restart word).
 *
 * A call made while the worker is being stopped does nothing: it returns
 * WEFT_SUSPENDED, and the execution stops on it. So a worker terminated
 * before it ran cannot send anything.
 */
#include <string.h>

#include "workers.h"

static bool wk_stopping(weft_caller *c) {
    return c->exec && (atomic_load_explicit(&c->exec->attention, memory_order_acquire) & WEFT_ATTN_STOP);
}

/* Now on the clock the scheduler's timers use (a deterministic
   scheduler's is virtual). */
static int64_t wk_guest_now(void) {
    sched_agent *a = sched_current();
    return a ? sched_agent_clock(a) : wk_now();
}

/* The call's deadline, fixed at its first making: -1 forever, 0 poll. */
static int64_t wk_call_deadline(weft_caller *c, int64_t timeout_ns) {
    uint64_t *word = c->exec ? weft_caller_restart_word(c) : NULL;
    if (word && *word) return *word == UINT64_MAX ? -1 : *word == 1 ? 0 : (int64_t)*word;
    int64_t d = -1;
    if (timeout_ns == 0) {
        d = 0;
    } else if (timeout_ns > 0) {
        int64_t now = wk_guest_now();
        d = timeout_ns > INT64_MAX - now ? -1 : now + timeout_ns;
    }
    if (word) *word = d < 0 ? UINT64_MAX : d == 0 ? 1 : (uint64_t)d;
    return d;
}

static bool wk_passed(int64_t deadline) {
    return deadline == 0 || (deadline > 0 && wk_guest_now() >= deadline);
}

/* [ptr, ptr + len) of the caller's memory 0, or NULL when out of bounds. */
static uint8_t *wk_guest_bytes(weft_caller *c, uint32_t ptr, uint32_t len) {
    weft_memory *mem = weft_caller_memory(c);
    if (!mem) return NULL;
    uint64_t size = weft_memory_size(mem);
    if ((uint64_t)ptr + len > size) return NULL;
    return weft_memory_data(mem) + ptr;
}

/* Waits for `ch` to change (called with ch->lock held; unlocks it). On its
   own agent: registers and parks. Elsewhere (a host calling the function
   directly): waits on the channel's condition, then asks to be called
   again. */
static weft_status wk_guest_wait(weft_caller *c, weft_worker *w, wk_channel *ch, int64_t deadline,
                                 const char *what) {
    sched_agent *a = sched_current();
    if (a && a->owner == w && c->exec == a->exec) {
        ch->agent = a;
        ch->agent_waits = true;
        wk_unlock(ch);
        sched_agent_wait_io(a, NULL, 0, deadline, what); /* cannot fail without fds */
        return WEFT_SUSPENDED;
    }
    ch->host_waiters++;
    wk_flush_owed_locked(ch);
    if (deadline < 0) {
        pthread_cond_wait(&ch->cond, &ch->lock);
    } else {
        struct timespec ts = {(time_t)(deadline / 1000000000), (long)(deadline % 1000000000)};
        pthread_cond_timedwait(&ch->cond, &ch->lock, &ts);
    }
    ch->host_waiters--;
    wk_unlock(ch);
    return WEFT_SUSPENDED;
}

#define WK_RESULT(v)                          \
    do {                                      \
        results[0].type = WEFT_I32;           \
        results[0].of.i32 = (int32_t)(v);     \
        return WEFT_OK;                       \
    } while (0)

/* input_size() -> i32 */
static weft_status wk_g_input_size(weft_caller *c, void *env, const weft_val *args, weft_val *results) {
    (void)c;
    (void)args;
    weft_worker *w = env;
    WK_RESULT(w->input_len > INT32_MAX ? INT32_MAX : w->input_len);
}

/* input(ptr, cap) -> i32: copies min(cap, size) bytes, returns the size. */
static weft_status wk_g_input(weft_caller *c, void *env, const weft_val *args, weft_val *results) {
    weft_worker *w = env;
    uint32_t ptr = (uint32_t)args[0].of.i32, cap = (uint32_t)args[1].of.i32;
    size_t n = w->input_len < cap ? w->input_len : cap;
    uint8_t *at = wk_guest_bytes(c, ptr, (uint32_t)n);
    if (!at) WK_RESULT(WK_FAULT);
    if (n) memcpy(at, w->input, n);
    WK_RESULT(w->input_len > INT32_MAX ? INT32_MAX : w->input_len);
}

/* recv(ptr, cap, timeout_ns) -> length, or END / TIMEOUT / TOO_SMALL / FAULT.
   peek(timeout_ns) -> length of the next message, or END / TIMEOUT. */
static weft_status wk_take(weft_caller *c, weft_worker *w, bool take, uint32_t ptr, uint32_t cap,
                           int64_t timeout_ns, weft_val *results) {
    if (wk_stopping(c)) return WEFT_SUSPENDED;
    int64_t deadline = wk_call_deadline(c, timeout_ns);
    uint8_t *at = NULL;
    if (take && !(at = wk_guest_bytes(c, ptr, cap))) WK_RESULT(WK_FAULT);
    wk_channel *ch = &w->inbox;
    pthread_mutex_lock(&ch->lock);
    ch->agent_waits = false;
    wk_msg *m = ch->head;
    if (m) {
        size_t len = m->len;
        if (!take || len > cap) {
            wk_unlock(ch);
            WK_RESULT(take ? WK_TOO_SMALL : len > INT32_MAX ? WK_TOO_LARGE : (int64_t)len);
        }
        m = wk_pop_locked(ch);
        wk_unlock(ch);
        if (len) memcpy(at, m->data, len);
        wk_msg_free(m);
        WK_RESULT(len);
    }
    if (ch->closed) {
        wk_unlock(ch);
        WK_RESULT(WK_END);
    }
    if (wk_passed(deadline)) {
        wk_unlock(ch);
        WK_RESULT(WK_TIMEOUT);
    }
    return wk_guest_wait(c, w, ch, deadline, take ? "receiving on its inbox" : "peeking at its inbox");
}

static weft_status wk_g_recv(weft_caller *c, void *env, const weft_val *args, weft_val *results) {
    return wk_take(c, env, true, (uint32_t)args[0].of.i32, (uint32_t)args[1].of.i32, args[2].of.i64, results);
}

static weft_status wk_g_peek(weft_caller *c, void *env, const weft_val *args, weft_val *results) {
    return wk_take(c, env, false, 0, 0, args[0].of.i64, results);
}

static int32_t wk_code(weft_status st) {
    switch (st) {
    case WEFT_ERR_FULL: return WK_FULL;
    case WEFT_ERR_TOO_LARGE: return WK_TOO_LARGE;
    case WEFT_ERR_CLOSED: return WK_CLOSED;
    default: return WK_NOMEM;
    }
}

/* send(ptr, len, timeout_ns) -> 0, or FULL / TOO_LARGE / CLOSED / NOMEM / FAULT. */
static weft_status wk_g_send(weft_caller *c, void *env, const weft_val *args, weft_val *results) {
    weft_worker *w = env;
    if (wk_stopping(c)) return WEFT_SUSPENDED;
    uint32_t ptr = (uint32_t)args[0].of.i32, len = (uint32_t)args[1].of.i32;
    int64_t deadline = wk_call_deadline(c, args[2].of.i64);
    const uint8_t *from = wk_guest_bytes(c, ptr, len);
    wk_channel *ch = &w->outbox;
    if (!from) { /* refused too: every refused send is counted */
        pthread_mutex_lock(&ch->lock);
        ch->refused++;
        wk_unlock(ch);
        WK_RESULT(WK_FAULT);
    }
    /* Look first, so a full channel costs no copy; then copy without the
       lock, and queue after a second look (the host may have closed it). */
    pthread_mutex_lock(&ch->lock);
    ch->agent_waits = false;
    weft_status st = wk_send_check_locked(ch, len, NULL);
    if (st == WK_AGAIN) {
        if (!wk_passed(deadline)) return wk_guest_wait(c, w, ch, deadline, "sending to its full outbox");
        st = WEFT_ERR_FULL;
    }
    if (st != WEFT_OK) {
        ch->refused++;
        wk_unlock(ch);
        WK_RESULT(wk_code(st));
    }
    wk_unlock(ch);
    wk_msg *m = wk_msg_new(from, len);
    pthread_mutex_lock(&ch->lock);
    st = m ? wk_send_check_locked(ch, len, NULL) : WEFT_ERR_NOMEM;
    bool edge = false;
    if (st == WEFT_OK) edge = wk_push_locked(ch, m);
    else ch->refused++;
    wk_unlock(ch);
    if (st != WEFT_OK) {
        wk_msg_free(m);
        WK_RESULT(wk_code(st == WK_AGAIN ? WEFT_ERR_FULL : st));
    }
    if (edge) wk_worker_notify(w);
    WK_RESULT(0);
}

/* set_result(ptr, len) -> 0, or TOO_LARGE / NOMEM / FAULT. */
static weft_status wk_g_set_result(weft_caller *c, void *env, const weft_val *args, weft_val *results) {
    weft_worker *w = env;
    if (wk_stopping(c)) return WEFT_SUSPENDED;
    uint32_t ptr = (uint32_t)args[0].of.i32, len = (uint32_t)args[1].of.i32;
    const uint8_t *from = wk_guest_bytes(c, ptr, len);
    if (!from) WK_RESULT(WK_FAULT);
    if (len > w->outbox.limits.max_message_bytes) WK_RESULT(WK_TOO_LARGE);
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy) WK_RESULT(WK_NOMEM);
    memcpy(copy, from, len);
    pthread_mutex_lock(&w->lock);
    if (w->state == WEFT_WORKER_RUNNING) { /* a hard-stopped worker's result is discarded */
        free(w->result);
        w->result = copy;
        w->result_len = len;
        copy = NULL;
    }
    pthread_mutex_unlock(&w->lock);
    free(copy);
    WK_RESULT(0);
}

/* close() -> 0: closes the outbox (the host sees end of stream once it
   has taken what is queued). */
static weft_status wk_g_close(weft_caller *c, void *env, const weft_val *args, weft_val *results) {
    (void)args;
    weft_worker *w = env;
    if (wk_stopping(c)) return WEFT_SUSPENDED;
    pthread_mutex_lock(&w->outbox.lock);
    bool edge = wk_close_locked(&w->outbox);
    wk_unlock(&w->outbox);
    if (edge) wk_worker_notify(w);
    WK_RESULT(0);
}

typedef struct wk_import {
    const char *name;
    weft_host_fn fn;
    uint8_t nparams;
    weft_valtype params[3];
} wk_import;

static const wk_import wk_imports[] = {
    {"input_size", wk_g_input_size, 0, {0}},
    {"input", wk_g_input, 2, {WEFT_I32, WEFT_I32}},
    {"recv", wk_g_recv, 3, {WEFT_I32, WEFT_I32, WEFT_I64}},
    {"peek", wk_g_peek, 1, {WEFT_I64}},
    {"send", wk_g_send, 3, {WEFT_I32, WEFT_I32, WEFT_I64}},
    {"set_result", wk_g_set_result, 2, {WEFT_I32, WEFT_I32}},
    {"close", wk_g_close, 0, {0}},
};

static const weft_valtype wk_i32_result[1] = {WEFT_I32};

weft_status wk_guest_func(weft_worker *w, weft_name name, const weft_externtype *type, weft_func **out,
                          weft_error *err) {
    *out = NULL;
    const wk_import *imp = NULL;
    for (size_t k = 0; k < sizeof wk_imports / sizeof *wk_imports; k++)
        if (weft_name_is(name, wk_imports[k].name)) imp = &wk_imports[k];
    if (!imp || type->kind != WEFT_EXTERN_FUNC)
        return base_fail(err, WEFT_ERR_LINK,
                         "unknown import: weft:worker.%s (a worker has the functions input_size, input, "
                         "recv, peek, send, set_result, close; docs/workers.md)",
                         name.data);
    weft_functype ft = {imp->nparams, 1, imp->params, wk_i32_result};
    bool same = type->func.nparams == ft.nparams && type->func.nresults == 1 &&
                type->func.results[0] == WEFT_I32 &&
                (ft.nparams == 0 || memcmp(type->func.params, ft.params, ft.nparams * sizeof *ft.params) == 0);
    if (!same)
        return base_fail(err, WEFT_ERR_LINK,
                         "import weft:worker.%s has the wrong type (see include/weft_worker_guest.h)", name.data);
    *out = weft_func_new(w->store, &ft, imp->fn, w, NULL);
    if (!*out) return base_fail(err, WEFT_ERR_NOMEM, "out of memory making weft:worker.%s", name.data);
    return WEFT_OK;
}

weft_status wk_guest_define(weft_worker *w, weft_linker *linker, const weft_module *module,
                            weft_error *err) {
    uint32_t n = weft_module_import_count(module);
    for (uint32_t i = 0; i < n; i++) {
        weft_name mod, name;
        weft_externtype type;
        if (weft_module_import(module, i, &mod, &name, &type) != WEFT_OK) continue;
        if (!weft_name_is(mod, "weft:worker") || type.kind == WEFT_EXTERN_MEMORY) continue;
        weft_func *f;
        weft_status st = wk_guest_func(w, name, &type, &f, err);
        if (st != WEFT_OK) return st;
        weft_extern ext = {.kind = WEFT_EXTERN_FUNC, .of.func = f};
        st = weft_linker_define_n(linker, mod, name, ext);
        if (st != WEFT_OK) return base_fail(err, st, "out of memory linking weft:worker.%s", name.data);
    }
    return WEFT_OK;
}
