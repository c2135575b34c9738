/*
 * exec.c — executions: making them, starting and resuming calls, calling
 * host functions, and turning traps into errors with backtraces.
 */
#include "exec.h"
#include "simd.h"

#include <stdio.h>
#include <sys/mman.h>
#include <time.h>

#define EXEC_DEFAULT_STACK (8u << 20)
/* Default call depth: one frame per 64 bytes of operand stack (the
   smallest frames), at least 100000. The frame records are reserved, not
   committed, so the bound costs nothing until used. */
#define EXEC_MIN_DEPTH 100000u

/* The operand stack and the frame records are one reservation (stack
   first, frames after it, each a whole number of pages), a slot of the
   engine's pool (rt_reserve_pooled, memory.c): only the pages a call
   touches are committed, and executions of one size share a mapping of
   many slots, so 100,000 of them (workers) cost no mmap each and keep
   the kernel's map count and page tables small. */
static size_t exec_frames_bytes(uint32_t max_depth) {
    return ((size_t)max_depth * sizeof(exec_frame) + 4095) & ~(size_t)4095;
}

/* The reservation is one page longer than stack and frames need. Linux
   places an anonymous mapping whose length is a multiple of 2 MiB on a
   2 MiB boundary (for transparent huge pages), and the default 64 MiB
   stack makes it one (64 + 32 MiB), so every execution's hottest line,
   the bottom of its operand stack, had bits 0-20 zero and sat at a
   distance from the rest of the process that ASLR chose anew each run.
   Issue 14 saw a spawned thread's loop at half speed in 5 runs of 8 that
   way, and never with 63M (no 2 MiB multiple) or with ASLR off. The
   spare page, never touched, costs address space only; with it the slots
   of a pool's chunk follow each other at page granularity, whatever the
   stack size. (The half speed did not reproduce on the machine of the
   fix; what did is in bench/results/2026-12-01-h14-placement.txt.) */
#define EXEC_MAP_PAD 4096u

static size_t exec_map_bytes(size_t stack_bytes, uint32_t max_depth) {
    return stack_bytes + exec_frames_bytes(max_depth) + EXEC_MAP_PAD;
}

weft_exec *exec_new_sized(weft_store *store, size_t stack_bytes, uint32_t max_depth) {
    if (!store || !stack_bytes || !max_depth) return NULL;
    weft_exec *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->store = store;
    e->stack_bytes = (stack_bytes + 4095) & ~(size_t)4095;
    e->max_depth = max_depth;
    pthread_condattr_t ca;
    bool cond_ok = false;
    if (pthread_condattr_init(&ca) == 0) {
        cond_ok = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) == 0 &&
                  pthread_cond_init(&e->park_cond, &ca) == 0;
        pthread_condattr_destroy(&ca);
    }
    if (!cond_ok) {
        free(e);
        return NULL;
    }
    if (pthread_mutex_init(&e->park_lock, NULL) != 0) {
        pthread_cond_destroy(&e->park_cond);
        free(e);
        return NULL;
    }
    uint8_t *map = rt_reserve_pooled(e->map_engine = store->engine, exec_map_bytes(e->stack_bytes, max_depth),
                                     &e->pooled);
    if (!map) {
        weft_exec_free(e);
        return NULL;
    }
    e->stack = (uint64_t *)map;
    e->frames = (exec_frame *)(map + e->stack_bytes);
    e->stack_end = e->stack + e->stack_bytes / sizeof(uint64_t);
    e->commit_end = e->stack_end; /* no budget: the whole reservation */
    e->frame_commit = e->frames + max_depth;
    atomic_init(&e->attention, 0);
    e->state = EXEC_IDLE;
    return e;
}

/* ------------------------------------------------------------------------
 * The stack under a memory budget (issue 26): committed as touched, and
 * counted as touched. The interpreter compares every call's frame with
 * e->commit_end and e->frame_commit, the limits it compared with before
 * budgets existed (then the reservation's ends); under a budget they are
 * what the budget has paid for, so the one call that passes them comes
 * here, is charged whole chunks, and goes on, or traps "call stack
 * exhausted" where it stands when the budget refuses. Nothing is added to
 * a call that fits.
 * ------------------------------------------------------------------------ */

static exec_frame *exec_frames_end(const weft_exec *e) { return e->frames + e->max_depth; }

/* No budget: the limits are the reservation's ends. */
static void exec_limits_whole(weft_exec *e) {
    e->commit_end = e->stack_end;
    e->frame_commit = exec_frames_end(e);
}

/* Charges e's operand slots up to `need` (rounded up to a chunk); false
   when the budget refuses. */
static bool exec_charge_slots(weft_exec *e, uint64_t *need) {
    if (need <= e->commit_end) return true;
    uint64_t want = (uint64_t)(need - e->stack) * sizeof(uint64_t);
    want = (want + EXEC_STACK_CHUNK - 1) / EXEC_STACK_CHUNK * EXEC_STACK_CHUNK;
    if (want > e->stack_bytes) want = e->stack_bytes;
    uint64_t have = (uint64_t)(e->commit_end - e->stack) * sizeof(uint64_t);
    if (!rt_budget_take(e->budget, want - have)) return false;
    e->charged += want - have;
    e->commit_end = e->stack + want / sizeof(uint64_t);
    return true;
}

/* Charges the next chunk of frame records. */
static bool exec_charge_frames(weft_exec *e) {
    if (!rt_budget_take(e->budget, EXEC_STACK_CHUNK)) return false;
    e->charged += EXEC_STACK_CHUNK;
    size_t n = EXEC_STACK_CHUNK / sizeof(exec_frame);
    exec_frame *end = exec_frames_end(e);
    e->frame_commit = (size_t)(end - e->frame_commit) > n ? e->frame_commit + n : end;
    return true;
}

bool exec_stack_charge(weft_exec *e, uint64_t *need, const exec_frame *frame) {
    e->stack_denied = false;
    if (!e->budget || need > e->stack_end || frame >= exec_frames_end(e)) return false;
    if (!exec_charge_slots(e, need)) goto denied;
    while (frame >= e->frame_commit)
        if (!exec_charge_frames(e)) goto denied;
    return true;
denied:
    e->stack_denied = true;
    return false;
}

bool exec_budget_attach(weft_exec *e, rt_budget *budget) {
    exec_budget_detach(e);
    if (!budget) return true;
    e->budget = budget;
    e->commit_end = e->stack;
    e->frame_commit = e->frames;
    e->charged = 0;
    e->stack_denied = false;
    if (!exec_charge_slots(e, e->stack + EXEC_STACK_CHUNK / sizeof(uint64_t)) || !exec_charge_frames(e)) {
        exec_budget_detach(e);
        return false;
    }
    return true;
}

void exec_budget_detach(weft_exec *e) {
    if (!e || !e->budget) return;
    /* Every page it may have touched: the charged ones, and at most a
       frame and a chunk of records past them. */
    madvise(e->stack, exec_map_bytes(e->stack_bytes, e->max_depth), MADV_DONTNEED);
    rt_budget_give(e->budget, e->charged);
    e->budget = NULL;
    e->charged = 0;
    exec_limits_whole(e);
    e->stack_denied = false;
}

weft_exec *weft_exec_new(weft_store *store) {
    if (!store) return NULL;
    static const weft_config defaults; /* a store made without an engine */
    const weft_config *cfg = store->engine ? &store->engine->config : &defaults;
    size_t stack_bytes = cfg->max_stack_bytes ? cfg->max_stack_bytes : EXEC_DEFAULT_STACK;
    stack_bytes = (stack_bytes + 4095) & ~(size_t)4095;
    uint32_t max_depth;
    if (cfg->max_call_depth) max_depth = cfg->max_call_depth;
    else max_depth = stack_bytes / 64 > EXEC_MIN_DEPTH ? (uint32_t)(stack_bytes / 64) : EXEC_MIN_DEPTH;
    return exec_new_sized(store, stack_bytes, max_depth);
}

void weft_exec_free(weft_exec *e) {
    if (!e) return;
    if (e->budget) {
        rt_budget_give(e->budget, e->charged); /* the pages go with the slot below */
        e->budget = NULL;
    }
    if (e->stack) {
        /* Every page may have been touched (a deep recursion). */
        size_t bytes = exec_map_bytes(e->stack_bytes, e->max_depth);
        rt_release_pooled(e->map_engine, (uint8_t *)e->stack, bytes, bytes, e->pooled);
    }
    pthread_mutex_destroy(&e->park_lock);
    pthread_cond_destroy(&e->park_cond);
    free(e);
}

void weft_exec_request(weft_exec *e, uint32_t bits) {
    if (!e) return;
    bits &= EXEC_ATTN_REQUESTS; /* the fuel bit is the execution's own */
    atomic_fetch_or_explicit(&e->attention, bits, memory_order_release);
    /* A parked execution runs again to honour the request; its scheduler
       sees the bits set first (the parker reads state under its lock). */
    if (e->parker) {
        e->parker->poke(e->parker, e);
        return;
    }
    /* Wake it if it sleeps in a futex wait (futex.c): the waiter checks the
       attention word under park_lock before each sleep, so taking the lock
       here means the signal cannot fall between its check and its sleep. */
    pthread_mutex_lock(&e->park_lock);
    pthread_cond_signal(&e->park_cond);
    pthread_mutex_unlock(&e->park_lock);
}

static weft_status check_args(const mod_functype *ft, const weft_val *args, size_t nargs, weft_error *err) {
    if (nargs != ft->nparams)
        return base_fail(err, WEFT_ERR_MISUSE, "wrong number of arguments: expected %u, got %zu", ft->nparams, nargs);
    for (uint32_t i = 0; i < ft->nparams; i++) {
        if (args[i].type != mod_valtype_pub(ft->params[i]))
            return base_fail(err, WEFT_ERR_MISUSE, "argument %u: expected %s, got %s", i,
                             weft_valtype_name(mod_valtype_pub(ft->params[i])), weft_valtype_name(args[i].type));
        if (!mod_nullable(ft->params[i]) && args[i].of.bits == 0)
            return base_fail(err, WEFT_ERR_MISUSE, "argument %u: null for a non-nullable reference", i);
        if (mod_is_bottom(ft->params[i]) && args[i].of.bits != 0) {
            char b[32];
            return base_fail(err, WEFT_ERR_MISUSE, "argument %u: a %s can only be null", i,
                             mod_valtype_str(ft->params[i], b));
        }
    }
    return WEFT_OK;
}

weft_status weft_exec_start(weft_exec *e, weft_func *func, const weft_val *args, size_t nargs) {
    if (!e || !func) return WEFT_ERR_MISUSE;
    if (e->state == EXEC_SUSPENDED || e->state == EXEC_READY || e->state == EXEC_PARKED)
        return WEFT_ERR_MISUSE;
    const mod_functype *ft = func->type;
    if (check_args(ft, args, nargs, NULL) != WEFT_OK) return WEFT_ERR_MISUSE;
    if (func->store != e->store) return WEFT_ERR_MISUSE;
    size_t nin = 0, nout = 0;
    for (uint32_t i = 0; i < ft->nparams; i++) nin += rt_val_slots(ft->params[i]);
    for (uint32_t i = 0; i < ft->nresults; i++) nout += rt_val_slots(ft->results[i]);
    size_t need = nin > nout ? nin : nout;
    const cmp_func *cf = atomic_load_explicit(&func->code, memory_order_acquire);
    /* A function not yet compiled is compiled here, so its frame size is
       known; if that fails the stub stays, and running it reports why. */
    if (cf && cmp_is_lazy(cf)) exec_lazy_code(func->inst, cf, &cf, NULL);
    if (cf) need = cf->frame_size > need ? cf->frame_size : need;
    if (need > (size_t)(e->stack_end - e->stack)) return WEFT_ERR_LIMIT;
    /* The entry's frame is charged here: over the budget, the call cannot
       start. */
    if (e->stack + need > e->commit_end && !exec_stack_charge(e, e->stack + need, e->frames))
        return WEFT_ERR_LIMIT;
    for (uint32_t i = 0, at = 0; i < ft->nparams; i++) at += rt_val_put(e->stack + at, args[i]);
    e->entry = func;
    e->depth = 0;
    e->host_pending = NULL;
    e->mem_sel = NULL;
    /* A metered call keeps EXEC_ATTN_FUEL set to its end (interp.c). */
    e->fuel_left = 0;
    atomic_store_explicit(&e->attention, e->store->fuel_metered ? EXEC_ATTN_FUEL : 0,
                          memory_order_relaxed);
    if (cf) {
        exec_frame_init(e->stack, cf);
        e->ip = cf->code;
        e->fp = e->stack;
        e->fn = cf;
        e->inst = func->inst;
    }
    e->state = EXEC_READY;
    return WEFT_OK;
}

weft_status exec_lazy_code(weft_instance *inst, const cmp_func *stub, const cmp_func **out, weft_error *err) {
    mod_module *m = inst->module;
    weft_status st = cmp_func_code(m, stub->func_index - m->nfunc_imports, out, err);
    if (st != WEFT_OK) {
        *out = stub;
        return st;
    }
    /* Calls through this instance's handle (call_indirect, imports, the
       host) then find the code without passing the stub again. */
    atomic_store_explicit(&inst->funcs[stub->func_index]->code, *out, memory_order_release);
    return WEFT_OK;
}

weft_status exec_lazy_enter(weft_exec *e, weft_error *err) {
    const cmp_func *cf;
    weft_status st = exec_lazy_code(e->inst, e->fn, &cf, err);
    if (st != WEFT_OK) return st;
    uint64_t *fp = e->fp;
    if (fp + cf->frame_size > e->commit_end &&
        !exec_stack_charge(e, fp + cf->frame_size, e->frames)) {
        if (e->depth > 0) { /* back to the call, as `enter` reports it */
            const exec_frame *f = &e->frames[--e->depth];
            e->ip = f->ret_ip - 1;
            e->fp = f->fp;
            e->fn = f->fn;
            e->inst = f->inst;
        }
        return WEFT_ERR_TRAP;
    }
    exec_frame_init(fp, cf);
    e->fn = cf;
    e->ip = cf->code;
    return WEFT_OK;
}

weft_status weft_exec_run(weft_exec *e, weft_error *err) {
    base_error_clear(err);
    if (!e) return base_fail(err, WEFT_ERR_MISUSE, "weft_exec_run: NULL exec");
    if (e->state != EXEC_READY && e->state != EXEC_SUSPENDED && e->state != EXEC_PARKED)
        return base_fail(err, WEFT_ERR_MISUSE, "weft_exec_run: nothing to run (call weft_exec_start first)");
    /* A new call is an entry into wasm, perhaps from a host function
       called by wasm on this thread: refused while the native stack is
       nearly spent (base.h), so a host re-entering wasm without end gets
       a trap, not a crash. Resuming a paused call adds no level. */
    if (e->state == EXEC_READY && BASE_UNLIKELY(base_native_stack_low())) {
        e->state = EXEC_IDLE;
        base_fail(err, WEFT_ERR_TRAP, "%s", weft_trap_message(WEFT_TRAP_STACK_EXHAUSTED));
        if (err) err->trap = WEFT_TRAP_STACK_EXHAUSTED;
        return WEFT_ERR_TRAP;
    }
    if (!e->entry->code) {
        if (e->state == EXEC_READY) e->host_word = 0;
        else if (atomic_load_explicit(&e->attention, memory_order_relaxed) & WEFT_ATTN_STOP) {
            atomic_store_explicit(&e->attention, 0, memory_order_relaxed);
            e->state = EXEC_IDLE;
            base_fail(err, WEFT_ERR_TRAP, "%s", weft_trap_message(WEFT_TRAP_STOPPED));
            if (err) err->trap = WEFT_TRAP_STOPPED;
            return WEFT_ERR_TRAP;
        }
        e->host_pending = NULL;
        weft_status st = exec_call_host(e, e->entry, NULL, e->stack, err);
        e->host_thrown = NULL;
        e->state = st == WEFT_OK ? EXEC_DONE : st == WEFT_SUSPENDED ? EXEC_PARKED : EXEC_IDLE;
        if (st == WEFT_SUSPENDED) e->host_pending = e->entry;
        return st;
    }
    if (!e->store->engine || e->store->engine->config.tier != WEFT_TIER_AUTO || e->tier_by_owner)
        return exec_run(e, err);
    exec_tier_enter(e);
    weft_status st = exec_run(e, err);
    exec_tier_leave(e);
    return st;
}

weft_status weft_exec_results(weft_exec *e, weft_val *results, size_t nresults) {
    if (!e || e->state != EXEC_DONE) return WEFT_ERR_MISUSE;
    const mod_functype *ft = e->entry->type;
    if (nresults != ft->nresults || (nresults && !results)) return WEFT_ERR_MISUSE;
    for (uint32_t i = 0, at = 0; i < ft->nresults; i++) {
        results[i] = rt_val_get(ft->results[i], e->stack + at);
        at += rt_val_slots(ft->results[i]);
    }
    return WEFT_OK;
}

weft_status weft_func_call(weft_func *func, const weft_val *args, size_t nargs, weft_val *results,
                           size_t nresults, weft_error *err) {
    base_error_clear(err);
    if (!func) return base_fail(err, WEFT_ERR_MISUSE, "weft_func_call: NULL function");
    const mod_functype *ft = func->type;
    weft_status st = check_args(ft, args, nargs, err);
    if (st != WEFT_OK) return st;
    if (nresults != ft->nresults || (nresults && !results))
        return base_fail(err, WEFT_ERR_MISUSE, "wrong number of results: expected %u, got %zu", ft->nresults, nresults);
    /* Reuse the store's idle execution when there is one (a host function
       calling back in finds it taken and makes its own). */
    weft_store *store = func->store;
    weft_exec *e = atomic_exchange(&store->spare_exec, NULL);
    if (!e) e = weft_exec_new(store);
    if (!e) return base_fail(err, WEFT_ERR_NOMEM, "out of memory making an execution");
    st = weft_exec_start(e, func, args, nargs);
    if (st != WEFT_OK) {
        weft_exec_free(e);
        return base_fail(err, st, "cannot start the call (stack too small?)");
    }
    do st = weft_exec_run(e, err);
    while (st == WEFT_SUSPENDED);
    if (st == WEFT_OK) weft_exec_results(e, results, nresults);
    e->state = EXEC_IDLE;
    __atomic_store_n(&store->spare_exec_free, weft_exec_free, __ATOMIC_RELAXED);
    weft_exec *expected = NULL;
    if (!atomic_compare_exchange_strong(&store->spare_exec, &expected, e)) weft_exec_free(e);
    return st;
}

/* ------------------------------------------------------------------------
 * Fuel (weft_store_set_fuel): the store's budget is one atomic counter;
 * an execution takes up to EXEC_FUEL_CHUNK units at a time, so threads
 * sharing a budget touch it once per chunk, and gives back what it did not
 * use when its call ends, so the budget is exact between calls.
 * ------------------------------------------------------------------------ */

bool exec_fuel_take(weft_exec *e) {
    _Atomic uint64_t *budget = &e->store->fuel;
    uint64_t have = atomic_load_explicit(budget, memory_order_relaxed), take;
    do {
        if (have == 0) return false;
        take = have < EXEC_FUEL_CHUNK ? have : EXEC_FUEL_CHUNK;
    } while (!atomic_compare_exchange_weak_explicit(budget, &have, have - take,
                                                    memory_order_relaxed, memory_order_relaxed));
    e->fuel_left = take;
    return true;
}

void exec_fuel_return(weft_exec *e) {
    if (!e->fuel_left) return;
    atomic_fetch_add_explicit(&e->store->fuel, e->fuel_left, memory_order_relaxed);
    e->fuel_left = 0;
}

/* ------------------------------------------------------------------------
 * Host calls
 * ------------------------------------------------------------------------ */

weft_status exec_call_host(weft_exec *e, weft_func *f, weft_instance *caller_inst, uint64_t *slots,
                           weft_error *err) {
    const mod_functype *ft = f->type;
    weft_val *small_args = e->host_args, *small_res = e->host_res;
    weft_val *args = ft->nparams <= EXEC_HOST_SMALL ? small_args : malloc(ft->nparams * sizeof *args);
    weft_val *res = ft->nresults <= EXEC_HOST_SMALL ? small_res : malloc(ft->nresults * sizeof *res);
    weft_status st;
    if (!args || !res) {
        st = base_fail(err, WEFT_ERR_NOMEM, "out of memory calling a host function");
        goto out;
    }
    for (uint32_t i = 0, at = 0; i < ft->nparams; i++) {
        args[i] = rt_val_get(ft->params[i], slots + at);
        at += rt_val_slots(ft->params[i]);
    }
    for (uint32_t i = 0; i < ft->nresults; i++) res[i] = rt_val_from_bits(ft->results[i], 0);
    weft_caller *caller = &e->host_caller;
    caller->inst = caller_inst;
    caller->exec = e;
    caller->exit_code = 0;
    caller->message[0] = 0;
    /* (Only this thread writes in_host: plain stores, no locked add.) */
    uint32_t calls = atomic_load_explicit(&e->in_host, memory_order_relaxed);
    atomic_store_explicit(&e->in_host, calls + 1, memory_order_relaxed);
    st = f->host(caller, f->env, args, res);
    atomic_store_explicit(&e->in_host, calls + 2, memory_order_relaxed);
    if (st == WEFT_OK) {
        for (uint32_t i = 0, at = 0; i < ft->nresults; i++) {
            res[i].type = ft->results[i];
            at += rt_val_put(slots + at, res[i]);
        }
    } else if (st == WEFT_ERR_EXIT) {
        base_fail(err, WEFT_ERR_EXIT, "exit with code %d", (int)caller->exit_code);
        if (err) err->exit_code = caller->exit_code;
    } else if (st == WEFT_ERR_EXCEPTION && e->host_thrown) {
        /* Thrown (weft_caller_throw): the interpreter unwinds its caller;
           a host function called directly reports it as uncaught. */
        exec_uncaught(e, e->host_thrown, caller_inst, err, NULL, NULL, 0);
    } else if (st == WEFT_ERR_TRAP) {
        base_fail(err, WEFT_ERR_TRAP, "%s", caller->message[0] ? caller->message : "host function trapped");
        if (err) err->trap = WEFT_TRAP_HOST; /* also when the host function is the entry */
    } else {
        base_fail(err, st, "host function failed: %s", caller->message[0] ? caller->message : weft_status_name(st));
    }
out:
    if (args && args != small_args) free(args);
    if (res && res != small_res) free(res);
    return st;
}

weft_memory *weft_caller_memory(weft_caller *caller) {
    return caller && caller->inst ? caller->inst->mem0 : NULL;
}

weft_instance *weft_caller_instance(weft_caller *caller) { return caller ? caller->inst : NULL; }

void weft_caller_trap(weft_caller *caller, const char *fmt, ...) {
    if (!caller) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(caller->message, sizeof caller->message, fmt, ap);
    va_end(ap);
}

void weft_caller_exit(weft_caller *caller, int32_t code) {
    if (caller) caller->exit_code = code;
}

uint64_t *weft_caller_restart_word(weft_caller *caller) {
    return caller && caller->exec ? &caller->exec->host_word : NULL;
}

/* ------------------------------------------------------------------------
 * Traps
 * ------------------------------------------------------------------------ */

void exec_backtrace(const weft_exec *e, uint32_t depth, const cmp_func *fn, const weft_instance *inst,
                    const uint32_t *ip, weft_error *err) {
    /* Innermost frame first: the function stopped at ip, then each caller
       at its call instruction. e->frames[k] holds frame k's registers as
       saved when it made a call. */
    uint32_t n = 0;
    const cmp_func *f = fn;
    const uint32_t *at = ip;
    for (uint32_t k = depth;; k--) {
        if (n < WEFT_BACKTRACE_MAX) {
            err->frames[n].func_index = f->func_index;
            err->frames[n].offset = cmp_offset_of(f, (uint32_t)(at - f->code));
            err->frames[n].module = inst ? inst->module : NULL;
            n++;
        } else {
            err->frames_dropped++;
        }
        if (k == 0) break;
        const exec_frame *fr = &e->frames[k - 1];
        f = fr->fn;
        inst = fr->inst;
        at = fr->ret_ip - 1;
    }
    err->frame_count = n;
    err->func_index = err->frames[0].func_index;
    err->offset = err->frames[0].offset;
}

weft_status exec_trap(weft_exec *e, weft_trap trap, const char *message, const cmp_func *fn,
                      weft_instance *inst, const uint32_t *ip, weft_error *err) {
    if (trap == WEFT_TRAP_STACK_EXHAUSTED && e->stack_denied) message = EXEC_BUDGET_STACK_MSG;
    if (err) {
        char msg[WEFT_ERROR_MESSAGE_MAX];
        snprintf(msg, sizeof msg, "%s", message ? message : weft_trap_message(trap));
        base_fail(err, WEFT_ERR_TRAP, "%s", msg);
        err->trap = trap;
        exec_backtrace(e, e->depth, fn, inst, ip, err);
    }
    e->depth = 0;
    return WEFT_ERR_TRAP;
}

const char *weft_simd_backend(void) {
#if WEFT_SIMD_SSE2
    return simd_ssse3() ? "sse2+ssse3" : "sse2";
#else
    return "portable C";
#endif
}
