/*
 * worker.c — workers: spawn, the end, terminate/close/join, free, and the
 * shared memories handed to them (weft.h, "Workers", says what a user
 * sees; docs/workers.md how it works).
 *
 * A worker is one agent of the scheduler in a group of its own (the unit
 * of fair share: each worker gets its turn however many there are). Its
 * record lives as long as someone holds a reference: the host (until
 * weft_worker_free) and the agent (until its execution ended and the
 * scheduler gave it back through wk_ended). What the agent needed — its
 * store, instance, memory, execution, WASI context — is freed as soon as
 * it ends, so an ended worker waiting to be joined holds only its record,
 * its outbox and its result.
 *
 * The end is fixed once, under w->lock: by wk_ended from how the execution
 * ended, or earlier by a join that finds a terminated worker past its
 * grace period (a hard stop: the end is STOPPED, the outbox dropped, and
 * what the agent does until it comes back is discarded).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "../runtime/runtime.h"
#include "workers.h"

/* ------------------------------------------------------------------------
 * Shared memories
 * ------------------------------------------------------------------------ */

struct weft_shared_memory {
    _Atomic uint32_t refs;
    weft_store *store;   /* a store of its own, lending its memory */
    weft_memory *mem;
};

weft_status weft_shared_memory_new(weft_engine *engine, weft_limits limits, weft_shared_memory **out,
                                   weft_error *err) {
    base_error_clear(err);
    if (out) *out = NULL;
    if (!out) return base_fail(err, WEFT_ERR_MISUSE, "weft_shared_memory_new: NULL out");
    if (!limits.has_max)
        return base_fail(err, WEFT_ERR_MISUSE, "a shared memory needs a maximum (limits.has_max)");
    limits.shared = true;
    weft_shared_memory *sm = calloc(1, sizeof *sm);
    if (!sm) return base_fail(err, WEFT_ERR_NOMEM, "out of memory making a shared memory");
    sm->store = weft_store_new(engine);
    if (!sm->store) {
        free(sm);
        return base_fail(err, WEFT_ERR_NOMEM, "out of memory making a shared memory");
    }
    sm->store->lends_memories = true;
    weft_status st = weft_memory_new(sm->store, limits, &sm->mem, err);
    if (st != WEFT_OK) {
        weft_store_free(sm->store);
        free(sm);
        return st;
    }
    atomic_init(&sm->refs, 1);
    *out = sm;
    return WEFT_OK;
}

weft_memory *weft_shared_memory_get(weft_shared_memory *sm) { return sm ? sm->mem : NULL; }

weft_shared_memory *weft_shared_memory_retain(weft_shared_memory *sm) {
    if (sm) atomic_fetch_add_explicit(&sm->refs, 1, memory_order_relaxed);
    return sm;
}

void weft_shared_memory_release(weft_shared_memory *sm) {
    if (!sm || atomic_fetch_sub_explicit(&sm->refs, 1, memory_order_acq_rel) != 1) return;
    weft_store_free(sm->store);
    free(sm);
}

/* ------------------------------------------------------------------------
 * The record
 * ------------------------------------------------------------------------ */

void wk_check_handle(const weft_worker *w, const char *fn) {
    uint32_t tag = w->tag;
    if (tag == WK_TAG_LIVE) return;
    fprintf(stderr, "weft: %s: %p is %s\n", fn, (const void *)w,
            tag == WK_TAG_DEAD ? "a worker freed already (weft_worker_free): a use after free"
                               : "not a worker handle (or one freed and reused)");
    abort();
}

void weft_worker_config_init(weft_worker_config *c) {
    if (c) memset(c, 0, sizeof *c);
}

/* What the agent needed (not the record, nor the module: a failed end's
   backtrace refers to it). After the end only. */
static void wk_release_resources(weft_worker *w) {
    weft_exec_free(w->exec);
    w->exec = NULL;
    weft_store_free(w->store); /* the instance, its memory, the host functions */
    w->store = NULL;
    weft_wasi_free(w->wasi);
    w->wasi = NULL;
    weft_shared_memory_release(w->shared);
    w->shared = NULL;
}

static void wk_unref(weft_worker *w) {
    if (atomic_fetch_sub_explicit(&w->refs, 1, memory_order_acq_rel) != 1) return;
    wk_channel_destroy(&w->inbox);
    wk_channel_destroy(&w->outbox);
    weft_module_release(w->module); /* kept for the backtrace of a failed end */
    free(w->input);
    free(w->result);
    free(w->error);
    pthread_cond_destroy(&w->ended_cond);
    pthread_mutex_destroy(&w->lock);
    pthread_mutex_destroy(&w->hook_lock);
    free(w);
}

/* The worker whose hook this thread is calling: a call the hook itself
   causes (a join that stops the worker hard) is not made again inside it,
   and does not wait for the hook lock it holds. */
static _Thread_local weft_worker *wk_in_hook;

void wk_worker_notify(weft_worker *w) {
    if (!w->wake || wk_in_hook == w) return;
    pthread_mutex_lock(&w->hook_lock);
    if (!w->hook_off) {
        weft_worker *outer = wk_in_hook;
        wk_in_hook = w;
        w->wake(w, w->user);
        wk_in_hook = outer;
    }
    pthread_mutex_unlock(&w->hook_lock);
}

/* ------------------------------------------------------------------------
 * The end (the scheduler's callbacks)
 * ------------------------------------------------------------------------ */

/* Fixes the end as a hard stop (under w->lock). */
static void wk_hard_stop_locked(weft_worker *w) {
    w->state = WEFT_WORKER_STOPPED;
    w->hard_stopped = true;
    pthread_mutex_lock(&w->outbox.lock);
    wk_close_locked(&w->outbox);
    wk_drop_locked(&w->outbox);
    wk_unlock(&w->outbox);
    free(w->result);
    w->result = NULL;
    w->result_len = 0;
    pthread_cond_broadcast(&w->ended_cond);
}

static void wk_ended(sched_group *g, sched_agent *a, weft_status st, const weft_error *err) {
    weft_worker *w = (weft_worker *)g;
    /* From here terminate leaves the execution alone (it is freed below,
       before `ended` is set, so that a host that joined may free the
       scheduler right after). */
    pthread_mutex_lock(&w->lock);
    w->finishing = true;
    pthread_mutex_unlock(&w->lock);
    /* Nobody may wake the agent from here on; both channels close. */
    pthread_mutex_lock(&w->inbox.lock);
    w->inbox.agent = NULL;
    w->inbox.agent_waits = false;
    wk_close_locked(&w->inbox);
    wk_drop_locked(&w->inbox);
    wk_unlock(&w->inbox);
    pthread_mutex_lock(&w->outbox.lock);
    w->outbox.agent = NULL;
    w->outbox.agent_waits = false;
    wk_close_locked(&w->outbox);
    wk_unlock(&w->outbox);

    weft_val v = {0};
    if (st == WEFT_OK && w->entry_i32) weft_exec_results(w->exec, &v, 1);
    weft_error *failure = NULL;
    bool stopped = st == WEFT_ERR_TRAP && err->trap == WEFT_TRAP_STOPPED;
    if (st != WEFT_OK && st != WEFT_ERR_EXIT && !stopped && (failure = malloc(sizeof *failure))) {
        *failure = *err;
        failure->exception = NULL; /* owned by the worker's store, which goes now */
    }

    sched_agent_free(a);
    wk_release_resources(w);

    pthread_mutex_lock(&w->lock);
    if (w->state == WEFT_WORKER_RUNNING) {
        if (st == WEFT_OK || st == WEFT_ERR_EXIT) {
            w->state = WEFT_WORKER_DONE;
            w->exit_code = st == WEFT_OK ? v.of.i32 : err->exit_code;
        } else if (stopped) {
            w->state = WEFT_WORKER_STOPPED;
        } else {
            w->state = WEFT_WORKER_FAILED;
            w->error = failure; /* NULL when out of memory: the status alone */
            if (!failure) w->exit_code = (int32_t)st;
            failure = NULL;
        }
    }
    w->ended = true;
    pthread_cond_broadcast(&w->ended_cond);
    pthread_mutex_unlock(&w->lock);
    free(failure);
    wk_worker_notify(w); /* the outbox closed and the worker ended: one edge */
    wk_unref(w);
}

static void wk_describe(sched_group *g, sched_agent *a, char *buf, size_t len) {
    (void)a;
    snprintf(buf, len, "worker %u", g->id);
}

/* ------------------------------------------------------------------------
 * Spawn
 * ------------------------------------------------------------------------ */

/* Binds every memory import of `module` to the worker's shared memory. */
static weft_status wk_define_memories(weft_worker *w, weft_linker *linker, const weft_module *module,
                                      weft_error *err) {
    uint32_t n = weft_module_import_count(module);
    for (uint32_t i = 0; i < n; i++) {
        weft_name mod, name;
        weft_externtype type;
        if (weft_module_import(module, i, &mod, &name, &type) != WEFT_OK || type.kind != WEFT_EXTERN_MEMORY)
            continue;
        if (!w->shared)
            return base_fail(err, WEFT_ERR_LINK,
                             "import %s.%s is a memory: a worker imports only the shared memory it is "
                             "given (weft_worker_config.shared_memory)",
                             mod.data, name.data);
        weft_extern ext = {.kind = WEFT_EXTERN_MEMORY, .of.memory = w->shared->mem};
        weft_status st = weft_linker_define_n(linker, mod, name, ext);
        if (st != WEFT_OK) return base_fail(err, st, "out of memory linking %s.%s", mod.data, name.data);
    }
    return WEFT_OK;
}

/* Without WASI the imports are only weft:worker's and the shared memory:
   made straight into the import list, without a linker (a third of a
   spawn's time otherwise). */
static weft_status wk_instantiate_direct(weft_worker *w, weft_module *module, weft_instance **inst,
                                         weft_error *err) {
    uint32_t n = weft_module_import_count(module);
    weft_extern small[16], *imports = n <= 16 ? small : calloc(n, sizeof *imports);
    if (!imports) return base_fail(err, WEFT_ERR_NOMEM, "out of memory linking a worker");
    weft_status st = WEFT_OK;
    for (uint32_t i = 0; i < n && st == WEFT_OK; i++) {
        weft_name mod = {"", 0}, name = {"", 0};
        weft_externtype type = {0};
        weft_module_import(module, i, &mod, &name, &type);
        if (type.kind == WEFT_EXTERN_MEMORY) {
            if (!w->shared)
                st = base_fail(err, WEFT_ERR_LINK,
                               "import %s.%s is a memory: a worker imports only the shared memory it is "
                               "given (weft_worker_config.shared_memory)",
                               mod.data, name.data);
            else imports[i] = (weft_extern){.kind = WEFT_EXTERN_MEMORY, .of.memory = w->shared->mem};
        } else if (weft_name_is(mod, "weft:worker")) {
            imports[i].kind = WEFT_EXTERN_FUNC;
            st = wk_guest_func(w, name, &type, &imports[i].of.func, err);
        } else {
            st = base_fail(err, WEFT_ERR_LINK, "unknown import: %s.%s%s", mod.data, name.data,
                           strncmp(mod.data, "wasi", 4) == 0 ? " (give the worker a WASI context: "
                                                               "weft_worker_config.wasi)"
                                                             : "");
        }
    }
    if (st == WEFT_OK) st = weft_instance_new(w->store, module, imports, n, inst, err);
    if (imports != small) free(imports);
    return st;
}

/* The instance and the entry's execution. */
static weft_status wk_instantiate(weft_worker *w, weft_module *module, const weft_worker_config *cfg,
                                  weft_error *err) {
    const char *entry = cfg->entry ? cfg->entry : "_start";
    weft_instance *inst = NULL;
    weft_status st;
    if (!w->wasi) {
        st = wk_instantiate_direct(w, module, &inst, err);
    } else {
        weft_linker *linker = weft_linker_new(w->store);
        if (!linker) return base_fail(err, WEFT_ERR_NOMEM, "out of memory making a worker's linker");
        st = wk_guest_define(w, linker, module, err);
        if (st == WEFT_OK) st = wk_define_memories(w, linker, module, err);
        if (st == WEFT_OK) st = weft_wasi_define(w->wasi, w->store, linker, err);
        if (st == WEFT_OK) st = weft_linker_instantiate(linker, module, &inst, err);
        weft_linker_free(linker);
    }
    if (st != WEFT_OK) return st;
    /* A reactor's constructors (wasi-libc's _initialize, or any module's)
       run before the entry, here in weft_worker_spawn like the start
       function: a trap fails the spawn. */
    weft_func *init = strcmp(entry, "_initialize") != 0 ? weft_instance_func(inst, "_initialize") : NULL;
    if (init) {
        weft_functype ift = weft_func_type(init);
        if (ift.nparams || ift.nresults)
            return base_fail(err, WEFT_ERR_LINK, "_initialize must take no parameters and return nothing");
        if ((st = weft_func_call(init, NULL, 0, NULL, 0, err)) != WEFT_OK) return st;
    }
    weft_extern ext;
    if (weft_instance_export(inst, entry, &ext) != WEFT_OK || ext.kind != WEFT_EXTERN_FUNC)
        return base_fail(err, WEFT_ERR_NOT_FOUND, "the module exports no function \"%s\" (the worker's entry)",
                         entry);
    weft_functype ft = weft_func_type(ext.of.func);
    w->entry_i32 = ft.nresults == 1 && ft.results[0] == WEFT_I32;
    if (ft.nparams != 0 || (ft.nresults != 0 && !w->entry_i32))
        return base_fail(err, WEFT_ERR_LINK,
                         "the entry \"%s\" takes %u parameters and returns %u results; a worker's entry "
                         "takes none and returns nothing or an i32",
                         entry, ft.nparams, ft.nresults);
    uint64_t stack = cfg->max_stack_bytes ? cfg->max_stack_bytes : WK_DEFAULT_STACK_BYTES;
    if (stack > ((uint64_t)1 << 40)) return base_fail(err, WEFT_ERR_MISUSE, "max_stack_bytes is too large");
    uint32_t depth = cfg->max_call_depth ? cfg->max_call_depth : (uint32_t)(stack / 64 ? stack / 64 : 1);
    w->exec = exec_new_sized(w->store, (size_t)stack, depth);
    if (!w->exec)
        return base_fail(err, WEFT_ERR_NOMEM, "cannot reserve a worker's stack (%llu bytes, %u frames)",
                         (unsigned long long)stack, depth);
    st = weft_exec_start(w->exec, ext.of.func, NULL, 0);
    if (st != WEFT_OK) return base_fail(err, st, "cannot start the entry \"%s\" (stack too small?)", entry);
    w->exec->group_member = w;
    return WEFT_OK;
}

weft_status weft_worker_spawn(weft_sched *sched, weft_module *module, const weft_worker_config *config,
                              weft_worker **out, weft_error *err) {
    base_error_clear(err);
    if (out) *out = NULL;
    SCHED_CHECK(sched, "weft_worker_spawn");
    if (!sched || !module || !out) return base_fail(err, WEFT_ERR_MISUSE, "weft_worker_spawn: NULL argument");
    weft_worker_config cfg;
    weft_worker_config_init(&cfg);
    if (config) cfg = *config;
    if (cfg.input_len && !cfg.input)
        return base_fail(err, WEFT_ERR_MISUSE, "weft_worker_spawn: input_len %zu with no input", cfg.input_len);
    if (cfg.priority > WEFT_PRIORITY_LOW)
        return base_fail(err, WEFT_ERR_MISUSE, "weft_worker_spawn: no priority %d", (int)cfg.priority);

    weft_worker *w = calloc(1, sizeof *w);
    if (!w) return base_fail(err, WEFT_ERR_NOMEM, "out of memory making a worker");
    weft_status st = WEFT_ERR_NOMEM;
    bool locks = pthread_mutex_init(&w->lock, NULL) == 0;
    if (locks && pthread_mutex_init(&w->hook_lock, NULL) != 0) {
        pthread_mutex_destroy(&w->lock);
        locks = false;
    }
    if (locks && pthread_cond_init(&w->ended_cond, NULL) != 0) {
        pthread_mutex_destroy(&w->hook_lock);
        pthread_mutex_destroy(&w->lock);
        locks = false;
    }
    if (!locks) {
        free(w);
        return base_fail(err, WEFT_ERR_NOMEM, "cannot make a worker's locks");
    }
    /* From here everything made is undone by wk_unref and
       wk_release_resources, which accept what was not made. */
    atomic_init(&w->refs, 1);
    w->tag = WK_TAG_LIVE;
    bool in_ok = wk_channel_init(&w->inbox, &cfg.inbox);
    bool out_ok = in_ok && wk_channel_init(&w->outbox, &cfg.outbox);
    if (!out_ok) {
        if (in_ok) wk_channel_destroy(&w->inbox);
        pthread_cond_destroy(&w->ended_cond);
        pthread_mutex_destroy(&w->hook_lock);
        pthread_mutex_destroy(&w->lock);
        free(w);
        return base_fail(err, WEFT_ERR_NOMEM, "cannot make a worker's channels");
    }
    w->sched = sched;
    w->module = weft_module_retain(module);
    w->grace_ns = cfg.grace_ns ? cfg.grace_ns : WK_DEFAULT_GRACE_NS;
    w->wake = cfg.wake;
    w->user = cfg.user;
    w->state = WEFT_WORKER_RUNNING;
    if (cfg.input_len && !(w->input = malloc(cfg.input_len))) {
        st = base_fail(err, WEFT_ERR_NOMEM, "out of memory copying a worker's input (%zu bytes)", cfg.input_len);
        goto fail;
    }
    if (cfg.input_len) memcpy(w->input, cfg.input, cfg.input_len);
    w->input_len = cfg.input_len;
    w->store = weft_store_new(module->engine);
    if (!w->store) {
        st = base_fail(err, WEFT_ERR_NOMEM, "out of memory making a worker's store");
        goto fail;
    }
    w->store->max_memory_bytes = cfg.max_memory_bytes ? cfg.max_memory_bytes : WK_DEFAULT_MEMORY_BYTES;
    if (cfg.fuel) weft_store_set_fuel(w->store, cfg.fuel);
    if (cfg.shared_memory) w->shared = weft_shared_memory_retain(cfg.shared_memory);
    if (cfg.wasi) {
        if ((st = weft_wasi_new(cfg.wasi, &w->wasi, err)) != WEFT_OK) goto fail;
        wk_block_install(w);
    }
    if ((st = wk_instantiate(w, module, &cfg, err)) != WEFT_OK) goto fail;

    sched_group_init(&w->group, sched, cfg.priority, wk_ended, wk_describe);
    w->id = w->group.id;
    atomic_store_explicit(&w->refs, 2, memory_order_relaxed); /* the host's and the agent's */
    if (!sched_agent_start(&w->group, w->exec, w)) {
        atomic_store_explicit(&w->refs, 1, memory_order_relaxed);
        st = base_fail(err, WEFT_ERR_NOMEM, "out of memory making the worker an agent");
        goto fail;
    }
    /* The worker may have run and ended already: w is only returned. */
    *out = w;
    return WEFT_OK;

fail:
    wk_release_resources(w);
    wk_unref(w);
    return st;
}

/* ------------------------------------------------------------------------
 * The host's side
 * ------------------------------------------------------------------------ */

/* Says in err why the inbox is closed: the worker ended, and how ("worker
   7 ended: trap: unreachable"), or is ending, or the host closed it. */
static void wk_closed_why(weft_worker *w, weft_error *err) {
    pthread_mutex_lock(&w->lock);
    char how[WEFT_ERROR_MESSAGE_MAX - 64];
    switch (w->state) {
    case WEFT_WORKER_DONE:
        snprintf(how, sizeof how, "done (exit code %d)", (int)w->exit_code);
        break;
    case WEFT_WORKER_FAILED:
        if (w->error && w->error->status == WEFT_ERR_TRAP)
            snprintf(how, sizeof how, "trap: %.400s", w->error->message);
        else if (w->error)
            snprintf(how, sizeof how, "failed: %.400s", w->error->message);
        else
            snprintf(how, sizeof how, "failed (%s)", weft_status_name((weft_status)w->exit_code));
        break;
    case WEFT_WORKER_STOPPED:
        snprintf(how, sizeof how, "%s", w->hard_stopped ? "stopped hard (it did not end within its grace period)"
                                                        : "stopped (weft_worker_terminate)");
        break;
    default:
        how[0] = '\0';
        break;
    }
    if (how[0])
        base_fail(err, WEFT_ERR_CLOSED, "worker %u ended: %s", w->id, how);
    else if (w->terminating || w->finishing)
        base_fail(err, WEFT_ERR_CLOSED, "worker %u is ending%s: its inbox is closed%s", w->id,
                  w->terminating ? " (weft_worker_terminate)" : "",
                  atomic_load_explicit(&w->host_closed, memory_order_relaxed) ? " (weft_worker_close)" : "");
    else
        base_fail(err, WEFT_ERR_CLOSED, "worker %u's inbox is closed (weft_worker_close)", w->id);
    pthread_mutex_unlock(&w->lock);
}

weft_status weft_worker_post(weft_worker *w, const void *data, size_t len, int64_t timeout_ns,
                             weft_error *err) {
    base_error_clear(err);
    WK_CHECK(w, "weft_worker_post");
    if (!w || (len && !data)) return base_fail(err, WEFT_ERR_MISUSE, "weft_worker_post: NULL argument");
    wk_channel *ch = &w->inbox;
    if (len > 4096) {
        /* Refuse what can never be sent before copying much. */
        pthread_mutex_lock(&ch->lock);
        weft_status st = wk_send_check_locked(ch, len, err);
        if (st != WEFT_OK && st != WK_AGAIN) ch->refused++;
        wk_unlock(ch);
        if (st == WEFT_ERR_CLOSED && err) wk_closed_why(w, err);
        if (st != WEFT_OK && st != WK_AGAIN) return st;
    }
    wk_msg *m = wk_msg_new(data, len);
    if (!m) {
        pthread_mutex_lock(&ch->lock);
        ch->refused++;
        wk_unlock(ch);
        return base_fail(err, WEFT_ERR_NOMEM, "out of memory copying a message of %zu bytes", len);
    }
    bool edge;
    weft_status st = wk_host_send(ch, m, wk_deadline(timeout_ns), &edge, err);
    if (st == WEFT_ERR_CLOSED && err) wk_closed_why(w, err);
    return st;
}

weft_status weft_worker_recv(weft_worker *w, int64_t timeout_ns, uint8_t **data, size_t *len,
                             weft_error *err) {
    base_error_clear(err);
    if (data) *data = NULL;
    if (len) *len = 0;
    WK_CHECK(w, "weft_worker_recv");
    if (!w || !data || !len) return base_fail(err, WEFT_ERR_MISUSE, "weft_worker_recv: NULL argument");
    wk_msg *m;
    weft_status st = wk_host_recv(&w->outbox, wk_deadline(timeout_ns), &m, err);
    if (st != WEFT_OK) return st;
    /* The message's block starts with its bytes: handed over as it is. */
    *len = m->len;
    if (m->len) *data = m->data;
    else wk_msg_free(m);
    return WEFT_OK;
}

static void wk_close_inbox(weft_worker *w) {
    pthread_mutex_lock(&w->inbox.lock);
    wk_close_locked(&w->inbox);
    wk_unlock(&w->inbox);
}

void weft_worker_close(weft_worker *w) {
    WK_CHECK(w, "weft_worker_close");
    if (!w) return;
    atomic_store_explicit(&w->host_closed, true, memory_order_relaxed); /* (what a refused post says) */
    wk_close_inbox(w);
}

void weft_worker_terminate(weft_worker *w) {
    WK_CHECK(w, "weft_worker_terminate");
    if (!w) return;
    bool ended_here = false;
    pthread_mutex_lock(&w->lock);
    if (!w->finishing && !w->terminating) {
        w->terminating = true;
        w->stop_at = wk_now();
        /* One that waits in the run queue is ended here, in this thread
           (sched.h): while w->lock is held the agent cannot end on a
           runner (wk_ended takes it first), so it is still there to look
           at. Otherwise the request pokes the agent if it is parked (it
           is then queued first, and a runner asked to make room); a
           running one stops at its next safe point. */
        ended_here = sched_agent_end_queued(sched_agent_of(w->exec));
        if (!ended_here) weft_exec_request(w->exec, WEFT_ATTN_STOP);
    }
    pthread_mutex_unlock(&w->lock);
    if (ended_here) sched_agent_end_stopped(sched_agent_of(w->exec));
    wk_close_inbox(w);
}

static void wk_fill_end_locked(weft_worker *w, weft_worker_end *out) {
    memset(out, 0, sizeof *out);
    out->state = w->state;
    out->exit_code = w->exit_code;
    out->result = w->result;
    out->result_len = w->result_len;
    switch (w->state) {
    case WEFT_WORKER_FAILED:
        if (w->error) out->error = *w->error;
        else base_fail(&out->error, (weft_status)w->exit_code, "the worker failed (%s)",
                       weft_status_name((weft_status)w->exit_code));
        out->exit_code = 0;
        break;
    case WEFT_WORKER_STOPPED:
        base_fail(&out->error, WEFT_ERR_TRAP, "%s",
                  w->hard_stopped ? "stopped hard: it did not end within its grace period"
                                  : "stopped by the host (weft_worker_terminate)");
        out->error.trap = WEFT_TRAP_STOPPED;
        break;
    default:
        break;
    }
}

weft_status weft_worker_join(weft_worker *w, int64_t timeout_ns, weft_worker_end *out) {
    WK_CHECK(w, "weft_worker_join");
    if (!w) return WEFT_ERR_MISUSE;
    int64_t deadline = wk_deadline(timeout_ns);
    weft_status st = WEFT_OK;
    bool hard = false;
    pthread_mutex_lock(&w->lock);
    while (w->state == WEFT_WORKER_RUNNING) {
        int64_t now = wk_now(), until = deadline;
        if (w->terminating) {
            /* Past the grace period, a worker held in a host call (one
               that does not see the request) is stopped hard; any other
               (queued, parked, running wasm) honours the request at its
               next step, so the join waits on, looking again now and then. */
            int64_t hard_at = w->stop_at + (int64_t)w->grace_ns;
            if (now >= hard_at) {
                if (!w->finishing && (atomic_load_explicit(&w->exec->in_host, memory_order_relaxed) & 1)) {
                    wk_hard_stop_locked(w);
                    hard = true;
                    break;
                }
                hard_at = now + (int64_t)(w->grace_ns / 10 > 1000000 ? w->grace_ns / 10 : 1000000);
            }
            if (until < 0 || hard_at < until) until = hard_at;
        }
        if (deadline == 0 || (deadline > 0 && now >= deadline)) {
            st = WEFT_ERR_TIMEOUT;
            break;
        }
        if (until < 0) {
            pthread_cond_wait(&w->ended_cond, &w->lock);
        } else {
            struct timespec ts;
            clock_gettime(CLOCK_REALTIME, &ts); /* ended_cond is on the default clock */
            int64_t abs = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec + (until - now);
            ts.tv_sec = (time_t)(abs / 1000000000);
            ts.tv_nsec = (long)(abs % 1000000000);
            pthread_cond_timedwait(&w->ended_cond, &w->lock, &ts);
        }
    }
    if (out) wk_fill_end_locked(w, out);
    pthread_mutex_unlock(&w->lock);
    if (hard) wk_worker_notify(w);
    return st;
}

weft_status weft_worker_take_result(weft_worker *w, uint8_t **data, size_t *len) {
    if (data) *data = NULL;
    if (len) *len = 0;
    WK_CHECK(w, "weft_worker_take_result");
    if (!w || !data || !len) return WEFT_ERR_MISUSE;
    pthread_mutex_lock(&w->lock);
    weft_status st = WEFT_ERR_NOT_FOUND;
    if (w->state != WEFT_WORKER_RUNNING && w->result) {
        *data = w->result;
        *len = w->result_len;
        w->result = NULL;
        w->result_len = 0;
        st = WEFT_OK;
    }
    pthread_mutex_unlock(&w->lock);
    return st;
}

weft_status weft_worker_channel_stats(weft_worker *w, weft_worker_channel which, weft_channel_stats *out) {
    WK_CHECK(w, "weft_worker_channel_stats");
    if (!w || !out || (which != WEFT_WORKER_INBOX && which != WEFT_WORKER_OUTBOX)) return WEFT_ERR_MISUSE;
    wk_channel *ch = which == WEFT_WORKER_INBOX ? &w->inbox : &w->outbox;
    pthread_mutex_lock(&ch->lock);
    out->queued_messages = ch->count;
    out->queued_bytes = ch->bytes;
    out->sent = ch->sent;
    out->received = ch->received;
    out->dropped = ch->dropped;
    out->refused = ch->refused;
    out->closed = ch->closed;
    out->limits = ch->limits;
    wk_unlock(ch);
    return WEFT_OK;
}

void *weft_worker_user(const weft_worker *w) {
    WK_CHECK(w, "weft_worker_user");
    return w ? w->user : NULL;
}

uint32_t weft_worker_id(const weft_worker *w) {
    WK_CHECK(w, "weft_worker_id");
    return w ? w->id : 0;
}

void weft_worker_free(weft_worker *w) {
    WK_CHECK(w, "weft_worker_free");
    if (!w) return;
    /* No hook call after this returns: wait out one in progress. */
    pthread_mutex_lock(&w->hook_lock);
    w->hook_off = true;
    pthread_mutex_unlock(&w->hook_lock);
    pthread_mutex_lock(&w->lock);
    bool running = w->state == WEFT_WORKER_RUNNING;
    pthread_mutex_unlock(&w->lock);
    if (running) {
        weft_worker_terminate(w);
        weft_worker_join(w, -1, NULL); /* returns by the grace period at the latest */
    }
    w->tag = WK_TAG_DEAD; /* the host's handle is gone (the agent may hold the record a moment more) */
    wk_unref(w);
}
