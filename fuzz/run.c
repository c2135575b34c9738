/*
 * run.c — fuzz target: load arbitrary bytes, instantiate the module with
 * stub imports, run its start function and call every exported function,
 * each under a time bound.
 *
 * The property: whatever the module does (traps, runs forever, recurses
 * without end, grows memory, waits on a futex nobody notifies), weft ends
 * each call with a result, a trap or "stopped", and never crashes, leaks
 * or trips a sanitizer.
 *
 * Stubs: an imported function returns zeros (one in four, chosen by its
 * index, traps instead, to exercise the host trap path); tables, memories
 * and globals are made from the import's own type. Memories are capped at
 * 16 MiB and the stack at 1 MiB so one input stays cheap.
 *
 * Tiers: one input in two (by its bytes) runs a second time on the
 * compiler tier (WEFT_TIER_JIT, docs/jit.md), on an engine of its own,
 * and every call there must end as it did in the interpreter: the same
 * status, trap kind and message, the same result bits. A call either run
 * stopped by the watchdog, or out of memory, is not compared (its end
 * depends on time), nor is anything after it in that input.
 *
 * The time bound: a watchdog thread stops the running call with
 * WEFT_ATTN_STOP once it has run CALL_MS; the interpreter sees the request
 * at its next function entry or loop back-edge, and a futex wait is woken
 * by it. The start function is run the same way: the harness clears the
 * module's start flag around weft_instance_new (it owns the module; no one
 * else sees it) and calls the start function itself, so an endless start
 * function is stopped instead of hanging the fuzzer.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fuzz.h"
#include "runtime/internal.h"
#include "weft.h"

#define CALL_MS 40
#define ARGS_MAX 64

static weft_engine *engine, *eager; /* lazy (default) and eager translation */
static weft_engine *jit;           /* the compiler tier (eager) */

/* How one call ended, for comparing the tiers. */
typedef struct outcome {
    weft_status st;
    weft_trap trap;
    char message[sizeof ((weft_error *)0)->message];
    uint32_t nresults;
    uint64_t bits[4]; /* the first results' bits */
    bool timed;       /* stopped by the watchdog, or out of memory: not compared */
} outcome;
#define OUTCOMES_MAX 256

/* The call the watchdog may stop: set while one runs, under `lock`. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static weft_exec *running;
static struct timespec deadline;

static void after_ms(struct timespec *t, long ms) {
    clock_gettime(CLOCK_MONOTONIC, t);
    t->tv_nsec += ms * 1000000L;
    t->tv_sec += t->tv_nsec / 1000000000L;
    t->tv_nsec %= 1000000000L;
}

static bool passed(const struct timespec *t) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec > t->tv_sec || (now.tv_sec == t->tv_sec && now.tv_nsec >= t->tv_nsec);
}

static void *watchdog(void *arg) {
    (void)arg;
    const struct timespec tick = {0, 2 * 1000000L};
    for (;;) {
        nanosleep(&tick, NULL);
        pthread_mutex_lock(&lock);
        if (running && passed(&deadline)) weft_exec_request(running, WEFT_ATTN_STOP);
        pthread_mutex_unlock(&lock);
    }
    return NULL;
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    weft_config cfg = {0};
    cfg.max_stack_bytes = 1u << 20;
    cfg.max_call_depth = 4000;
    cfg.max_memory_bytes = 16u << 20;
    engine = weft_engine_new(&cfg);
    cfg.compile_mode = WEFT_COMPILE_EAGER;
    eager = weft_engine_new(&cfg);
    cfg.tier = WEFT_TIER_JIT;
    jit = weft_engine_new(&cfg);
    pthread_t t;
    if (!engine || !eager || !jit || pthread_create(&t, NULL, watchdog, NULL) != 0) abort();
    pthread_detach(t);
    return 0;
}

static weft_status stub_ok(weft_caller *caller, void *env, const weft_val *args, weft_val *results) {
    (void)caller, (void)env, (void)args, (void)results;
    return WEFT_OK; /* results arrive zeroed, of the right types */
}

static weft_status stub_trap(weft_caller *caller, void *env, const weft_val *args, weft_val *results) {
    (void)env, (void)args, (void)results;
    weft_caller_trap(caller, "stub import trapped");
    return WEFT_ERR_TRAP;
}

static weft_val zero_of(weft_valtype t) {
    weft_val v;
    memset(&v, 0, sizeof v);
    v.type = t;
    return v;
}

/* An extern of the import's type, made in `s`; false when it cannot be
   made (limits too large for the caps: not a finding). */
static bool make_stub(weft_store *s, uint32_t index, const weft_externtype *t, weft_extern *out) {
    out->kind = t->kind;
    switch (t->kind) {
    case WEFT_EXTERN_FUNC:
        out->of.func = weft_func_new(s, &t->func, index % 4 == 3 ? stub_trap : stub_ok, NULL, NULL);
        return out->of.func != NULL;
    case WEFT_EXTERN_TABLE:
        return weft_table_new(s, t->table_elem, t->limits, &out->of.table, NULL) == WEFT_OK;
    case WEFT_EXTERN_MEMORY:
        return weft_memory_new(s, t->limits, &out->of.memory, NULL) == WEFT_OK;
    case WEFT_EXTERN_GLOBAL:
        return weft_global_new(s, zero_of(t->global_type), t->global_mutable, &out->of.global, NULL) ==
               WEFT_OK;
    case WEFT_EXTERN_TAG:
        out->of.tag = weft_tag_new(s, &t->func);
        return out->of.tag != NULL;
    }
    return false;
}

/* Calls `f` with every argument set to `fill` (its bits), stopped after
   CALL_MS. Whatever the outcome, it must be one of the documented ones;
   it is left in *out. */
static void call_bounded(weft_exec *e, weft_func *f, uint64_t fill, outcome *out) {
    memset(out, 0, sizeof *out);
    weft_functype ft = weft_func_type(f);
    if (ft.nparams > ARGS_MAX) return;
    weft_val args[ARGS_MAX];
    for (uint32_t i = 0; i < ft.nparams; i++) {
        args[i] = zero_of(ft.params[i]);
        if (ft.params[i] != WEFT_FUNCREF && ft.params[i] != WEFT_EXTERNREF) args[i].of.bits = fill;
    }
    weft_status started = weft_exec_start(e, f, args, ft.nparams);
    if (started == WEFT_ERR_MISUSE && ft.nparams) {
        /* A parameter of a non-nullable reference type (Wasm 3.0 typed
           references) cannot take the null these arguments have. */
        out->st = started;
        return;
    }
    if (started == WEFT_ERR_LIMIT) { /* its frame does not fit the 1 MiB stack */
        out->timed = true;
        return;
    }
    if (started != WEFT_OK) abort();
    pthread_mutex_lock(&lock);
    after_ms(&deadline, CALL_MS);
    running = e;
    pthread_mutex_unlock(&lock);
    weft_error err;
    weft_status st;
    do st = weft_exec_run(e, &err);
    while (st == WEFT_SUSPENDED);
    pthread_mutex_lock(&lock);
    running = NULL;
    pthread_mutex_unlock(&lock);
    /* A request that came after the call ended is cleared by the next
       weft_exec_start. */
    out->st = st;
    if (st == WEFT_OK) {
        weft_val res[ARGS_MAX];
        if (ft.nresults <= ARGS_MAX && weft_exec_results(e, res, ft.nresults) != WEFT_OK) abort();
        out->nresults = ft.nresults;
        for (uint32_t i = 0; i < ft.nresults && i < 4; i++)
            out->bits[i] = res[i].type == WEFT_FUNCREF ? (res[i].of.func != NULL)
                           : res[i].type == WEFT_EXTERNREF ? (res[i].of.externref != NULL)
                                                            : res[i].of.bits;
    } else if (st == WEFT_ERR_TRAP) {
        if (err.trap == WEFT_TRAP_NONE || err.message[0] == '\0') abort();
        out->trap = err.trap;
        memcpy(out->message, err.message, sizeof out->message);
        out->timed = err.trap == WEFT_TRAP_STOPPED;
    } else if (st == WEFT_ERR_EXCEPTION) {
        /* An exception no frame caught: the message names its tag. */
        if (!err.exception || err.message[0] == '\0') abort();
        memcpy(out->message, err.message, sizeof out->message);
    } else if (st == WEFT_ERR_NOMEM || st == WEFT_ERR_LIMIT) {
        out->timed = true;
    } else {
        abort(); /* no exit import exists, so nothing else is possible */
    }
}

/* Runs one input on engine `en`: load, instantiate with stubs, the start
   function and every export twice; each call's outcome goes to out[] (at
   most OUTCOMES_MAX). Returns how many calls were made. */
static size_t run_input(weft_engine *en, const uint8_t *data, size_t size, outcome *out) {
    weft_module *m = NULL;
    if (weft_module_load(en, data, size, &m, NULL) != WEFT_OK) return 0;
    weft_store *s = weft_store_new(en);
    uint32_t n = weft_module_import_count(m);
    weft_extern *imports = calloc(n ? n : 1, sizeof *imports);
    weft_exec *e = weft_exec_new(s);
    if (!s || !imports || !e) abort();
    bool ok = true;
    for (uint32_t i = 0; i < n && ok; i++) {
        weft_externtype t;
        if (weft_module_import(m, i, NULL, NULL, &t) != WEFT_OK) abort();
        ok = make_stub(s, i, &t, &imports[i]);
    }
    weft_instance *inst = NULL;
    bool has_start = m->has_start;
    m->has_start = false;
    size_t calls = 0;
    outcome spare;
#define NEXT (calls < OUTCOMES_MAX ? &out[calls++] : &spare)
    if (ok && weft_instance_new(s, m, imports, n, &inst, NULL) == WEFT_OK) {
        if (has_start) call_bounded(e, inst->funcs[m->start], 0, NEXT);
        for (uint32_t i = 0; i < weft_module_export_count(m); i++) {
            weft_name name;
            weft_externtype t;
            weft_extern x;
            if (weft_module_export(m, i, &name, &t) != WEFT_OK) abort();
            if (weft_instance_export_n(inst, name.data, name.len, &x) != WEFT_OK || x.kind != t.kind)
                abort(); /* every listed export resolves by its full name */
            if (t.kind != WEFT_EXTERN_FUNC) continue;
            call_bounded(e, x.of.func, 0, NEXT);
            call_bounded(e, x.of.func, ~(uint64_t)0, NEXT);
        }
    }
#undef NEXT
    m->has_start = has_start;
    weft_exec_free(e);
    free(imports);
    weft_store_free(s);
    weft_module_release(m);
    return calls;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static outcome interp[OUTCOMES_MAX], compiled[OUTCOMES_MAX];
    /* Half the inputs translate every body at load, as before lazy
       translation, so the compiler sees every function; the other half
       compile on first call (the default), so the stubs and the LAZY
       entry are run too. The choice is a function of the input alone. */
    size_t n = run_input(size % 2 ? engine : eager, data, size, interp);
    if (size % 4 >= 2 || n == 0) return 0;
    size_t k = run_input(jit, data, size, compiled);
    for (size_t i = 0; i < n && i < k; i++) {
        const outcome *a = &interp[i], *b = &compiled[i];
        if (a->timed || b->timed) break; /* the rest depends on how far it got */
        if (a->st != b->st || a->trap != b->trap || strcmp(a->message, b->message) != 0 ||
            a->nresults != b->nresults || memcmp(a->bits, b->bits, sizeof a->bits) != 0) {
            fprintf(stderr, "tiers differ at call %zu: interpreter %s (%s), jit %s (%s)\n", i,
                    weft_status_name(a->st), a->message, weft_status_name(b->st), b->message);
            abort();
        }
    }
    return 0;
}
