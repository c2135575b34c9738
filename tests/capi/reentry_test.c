/* reentry_test.c — a host that re-enters wasm without end (issue 39): the
   export run(n) calls the host function, which calls run(n + 1) again,
   through weft_func_call (weft.h) or wasm_func_call (wasm.h). Every entry
   into wasm checks the native stack left (docs/capi.md, "Native stack"),
   so the chain ends in the trap "call stack exhausted", handed back level
   by level to the first caller, instead of a SIGSEGV. Run on the main
   thread and on a thread with a 256 KiB stack, on each tier (interpreter,
   compiler, auto); after the trap the store still runs a call. Without
   the check the process dies (SIGSEGV) and prints no summary. */
#include <pthread.h>

#include "check.h"

static const char *const tier_names[] = {"interp", "jit", "auto"};

/* Levels each run must reach before the trap: a sanitizer build spends
   several times the stack per level and keeps a larger reserve (the
   figures are printed; docs/capi.md has them). */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define MIN_LEVELS 3
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define MIN_LEVELS 3
#endif
#endif
#ifndef MIN_LEVELS
#define MIN_LEVELS 20
#endif
/* The small thread: 256 KiB, or in a sanitizer build (whose interpreter
   frame alone can be 496 KiB: base.h) 4 MiB. */
#if MIN_LEVELS == 3
#define SMALL_STACK (4096 * 1024)
#else
#define SMALL_STACK (256 * 1024)
#endif

/* One run: which API, the deepest level reached, what the deepest
   failed entry said. */
typedef struct reent {
    bool wasm_h;
    uint32_t tier;
    const char *where;
    int32_t deepest;
    weft_trap inner_trap;         /* weft.h: the refused entry's trap kind */
    weft_func *run;               /* weft.h */
    const wasm_func_t *wrun;      /* wasm.h */
} reent;

static weft_status host_weft(weft_caller *caller, void *env, const weft_val *args, weft_val *results) {
    reent *x = env;
    int32_t n = args[0].of.i32;
    results[0].type = WEFT_I32;
    if (n < 0) {
        results[0].of.i32 = 42;
        return WEFT_OK;
    }
    if (n > x->deepest) x->deepest = n;
    weft_val a = {.type = WEFT_I32, .of.i32 = n + 1}, r;
    weft_error err; /* on the C stack, as a host would have it */
    weft_status st = weft_func_call(x->run, &a, 1, &r, 1, &err);
    if (st == WEFT_OK) {
        results[0].of.i32 = r.of.i32;
        return WEFT_OK;
    }
    if (x->inner_trap == WEFT_TRAP_NONE) x->inner_trap = err.trap; /* the deepest answers first */
    weft_caller_trap(caller, "%s", err.message);
    return WEFT_ERR_TRAP;
}

static wasm_trap_t *host_wasm(void *env, const wasm_val_vec_t *args, wasm_val_vec_t *results) {
    reent *x = env;
    int32_t n = args->data[0].of.i32;
    results->data[0].kind = WASM_I32;
    if (n < 0) {
        results->data[0].of.i32 = 42;
        return NULL;
    }
    if (n > x->deepest) x->deepest = n;
    wasm_val_t a[1] = {WASM_I32_VAL(n + 1)}, r[1] = {WASM_INIT_VAL};
    wasm_val_vec_t av = WASM_ARRAY_VEC(a), rv = WASM_ARRAY_VEC(r);
    wasm_trap_t *trap = wasm_func_call(x->wrun, &av, &rv);
    if (!trap) results->data[0].of.i32 = r[0].of.i32;
    return trap; /* handed up as it is */
}

static void label(char *buf, size_t cap, const reent *x, const char *what) {
    snprintf(buf, cap, "%s, tier %s, %s thread: %s", x->wasm_h ? "wasm.h" : "weft.h", tier_names[x->tier],
             x->where, what);
}

static void run_weft(reent *x, const wasm_byte_vec_t *bin) {
    char name[200];
    /* A small operand stack: each level makes an execution of its own. */
    weft_config cfg = {.max_stack_bytes = 64 * 1024, .tier = x->tier};
    weft_engine *engine = weft_engine_new(&cfg);
    weft_module *mod = NULL;
    weft_error err;
    if (weft_module_load(engine, (const uint8_t *)bin->data, bin->size, &mod, &err) != WEFT_OK) {
        printf("FAIL load: %s\n", err.message);
        exit(1);
    }
    weft_store *store = weft_store_new(engine);
    weft_valtype i32 = WEFT_I32;
    weft_functype ft = {1, 1, &i32, &i32};
    weft_extern imp = {.kind = WEFT_EXTERN_FUNC, .of.func = weft_func_new(store, &ft, host_weft, x, NULL)};
    weft_instance *inst = NULL;
    if (weft_instance_new(store, mod, &imp, 1, &inst, &err) != WEFT_OK) {
        printf("FAIL instantiate: %s\n", err.message);
        exit(1);
    }
    x->run = weft_instance_func(inst, "run");
    weft_val a = {.type = WEFT_I32, .of.i32 = 0}, r;
    weft_status st = weft_func_call(x->run, &a, 1, &r, 1, &err);
    label(name, sizeof name, x, "the chain ends in a trap");
    CHECK(name, st == WEFT_ERR_TRAP);
    label(name, sizeof name, x, "the first caller gets \"call stack exhausted\"");
    CHECK(name, st == WEFT_ERR_TRAP && strcmp(err.message, "call stack exhausted") == 0);
    label(name, sizeof name, x, "the refused entry is a stack-exhausted trap");
    CHECK(name, x->inner_trap == WEFT_TRAP_STACK_EXHAUSTED);
    label(name, sizeof name, x, "enough levels ran first");
    CHECK(name, x->deepest + 1 >= MIN_LEVELS);
    a.of.i32 = -1;
    st = weft_func_call(x->run, &a, 1, &r, 1, &err);
    label(name, sizeof name, x, "the store runs a call after");
    CHECK(name, st == WEFT_OK && r.of.i32 == 42);
    if (st != WEFT_OK) printf("  got: %s\n", err.message);
    weft_store_free(store);
    weft_module_release(mod);
    weft_engine_free(engine);
}

static void run_wasm(reent *x, const wasm_byte_vec_t *bin) {
    char name[200];
    wasm_config_t *config = wasm_config_new();
    weft_config cfg = {.max_stack_bytes = 64 * 1024, .tier = x->tier};
    weft_wasm_config_set(config, &cfg);
    wasm_engine_t *engine = wasm_engine_new_with_config(config);
    wasm_store_t *store = wasm_store_new(engine);
    wasm_module_t *mod = wasm_module_new(store, bin);
    if (!mod) {
        printf("FAIL wasm_module_new\n");
        exit(1);
    }
    wasm_functype_t *ft = wasm_functype_new_1_1(wasm_valtype_new_i32(), wasm_valtype_new_i32());
    wasm_func_t *host = wasm_func_new_with_env(store, ft, host_wasm, x, NULL);
    wasm_functype_delete(ft);
    wasm_extern_t *imps[1] = {wasm_func_as_extern(host)};
    wasm_extern_vec_t iv = WASM_ARRAY_VEC(imps);
    wasm_instance_t *inst = wasm_instance_new(store, mod, &iv, NULL);
    wasm_extern_vec_t exps;
    wasm_instance_exports(inst, &exps);
    x->wrun = wasm_extern_as_func(exps.data[0]);
    wasm_val_t a[1] = {WASM_I32_VAL(0)}, r[1] = {WASM_INIT_VAL};
    wasm_val_vec_t av = WASM_ARRAY_VEC(a), rv = WASM_ARRAY_VEC(r);
    wasm_trap_t *trap = wasm_func_call(x->wrun, &av, &rv);
    label(name, sizeof name, x, "the chain ends in a trap");
    CHECK(name, trap != NULL);
    label(name, sizeof name, x, "the first caller gets \"call stack exhausted\"");
    CHECK(name, strcmp(check_trap_message(trap), "call stack exhausted") == 0);
    label(name, sizeof name, x, "enough levels ran first");
    CHECK(name, x->deepest + 1 >= MIN_LEVELS);
    a[0].of.i32 = -1;
    trap = wasm_func_call(x->wrun, &av, &rv);
    label(name, sizeof name, x, "the store runs a call after");
    CHECK(name, trap == NULL && r[0].of.i32 == 42);
    if (trap) wasm_trap_delete(trap);
    wasm_extern_vec_delete(&exps);
    wasm_instance_delete(inst);
    wasm_func_delete(host);
    wasm_module_delete(mod);
    wasm_store_delete(store);
    wasm_engine_delete(engine);
}

static wasm_byte_vec_t guest;

static void *run_all(void *where) {
    for (uint32_t tier = 0; tier < 3; tier++)
        for (int api = 0; api < 2; api++) {
            reent x = {.wasm_h = api, .tier = tier, .where = where};
            if (api) run_wasm(&x, &guest);
            else run_weft(&x, &guest);
            printf("%s, tier %s, %s thread: %d levels\n", api ? "wasm.h" : "weft.h", tier_names[tier],
                   (const char *)where, x.deepest + 1);
        }
    return NULL;
}

int main(void) {
    check_read("tests/capi/wasm/reenter.wasm", &guest);
    run_all("main");
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, SMALL_STACK);
    pthread_t t;
    int started = pthread_create(&t, &attr, run_all, SMALL_STACK == 256 * 1024 ? "256 KiB" : "4 MiB");
    if (started == 0) pthread_join(t, NULL);
    CHECK("a thread with a small stack starts", started == 0); /* after the join: the counts are plain */
    pthread_attr_destroy(&attr);
    wasm_byte_vec_delete(&guest);
    return check_done();
}
