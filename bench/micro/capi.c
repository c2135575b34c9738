/* capi.c — the cost of wasm.h over weft.h: ns per round trip from C into
 * wasm and back out to a C callback, through each API.
 *
 *   capi [MODULE.wasm [ROUNDS]]     (default bench/micro/callback.wasm)
 *
 * The module imports env.cb (i32) -> i32 and exports run(x) = cb(x) + 1.
 * The same module, one instance per API, what is timed:
 *
 *   weft.h round trip      weft_func_call(run, x), cb a weft_host_fn
 *   weft.h exec reused     the same through one weft_exec made once
 *                          (weft_exec_start, _run, _results), as a host
 *                          that keeps one per thread calls; wasm.h's
 *                          wasm_func_call does this on its store's own
 *                          execution
 *   wasm.h round trip      wasm_func_call(run, x), cb a
 *                          wasm_func_callback_t (values converted both
 *                          ways at both crossings)
 *   wasm.h / weft.h        the ratios of the mins and of the medians, to
 *                          each weft.h line
 *
 * Each callback checks its argument, so both do the same work. */
#include "micro.h"

#include "wasm.h"

#define MAX_ROUNDS 101
#define BATCH 20000

static weft_status weft_cb(weft_caller *caller, void *env, const weft_val *args, weft_val *results) {
    (void)caller;
    (void)env;
    results[0].type = WEFT_I32;
    results[0].of.i32 = args[0].of.i32 * 2;
    return WEFT_OK;
}

static wasm_trap_t *wasm_cb(const wasm_val_vec_t *args, wasm_val_vec_t *results) {
    results->data[0].kind = WASM_I32;
    results->data[0].of.i32 = args->data[0].of.i32 * 2;
    return NULL;
}

static void time_weft(weft_func *run, int rounds, double *per_op) {
    weft_error err;
    for (int k = 0; k <= rounds; k++) {
        int32_t bad = 0;
        uint64_t t0 = micro_now_ns();
        for (int i = 0; i < BATCH; i++) {
            weft_val a = {.type = WEFT_I32, .of.i32 = i}, r;
            weft_status st = weft_func_call(run, &a, 1, &r, 1, &err);
            if (st != WEFT_OK) micro_check(st, &err, "weft_func_call");
            bad |= r.of.i32 ^ (i * 2 + 1);
        }
        uint64_t t1 = micro_now_ns();
        if (bad) {
            fprintf(stderr, "micro: weft.h: wrong result\n");
            exit(1);
        }
        if (k) per_op[k - 1] = (double)(t1 - t0) / BATCH;
    }
}

static void time_exec(weft_exec *e, weft_func *run, int rounds, double *per_op) {
    weft_error err;
    for (int k = 0; k <= rounds; k++) {
        int32_t bad = 0;
        uint64_t t0 = micro_now_ns();
        for (int i = 0; i < BATCH; i++) {
            weft_val a = {.type = WEFT_I32, .of.i32 = i}, r;
            weft_status st = weft_exec_start(e, run, &a, 1);
            if (st == WEFT_OK) st = weft_exec_run(e, &err);
            if (st == WEFT_OK) st = weft_exec_results(e, &r, 1);
            if (st != WEFT_OK) micro_check(st, &err, "weft_exec_start/run/results");
            bad |= r.of.i32 ^ (i * 2 + 1);
        }
        uint64_t t1 = micro_now_ns();
        if (bad) {
            fprintf(stderr, "micro: weft.h exec: wrong result\n");
            exit(1);
        }
        if (k) per_op[k - 1] = (double)(t1 - t0) / BATCH;
    }
}

static void time_wasm(const wasm_func_t *run, int rounds, double *per_op) {
    for (int k = 0; k <= rounds; k++) {
        int32_t bad = 0;
        uint64_t t0 = micro_now_ns();
        for (int i = 0; i < BATCH; i++) {
            wasm_val_t a[1] = {WASM_I32_VAL(i)}, r[1] = {WASM_INIT_VAL};
            wasm_val_vec_t av = WASM_ARRAY_VEC(a), rv = WASM_ARRAY_VEC(r);
            wasm_trap_t *trap = wasm_func_call(run, &av, &rv);
            if (trap) {
                fprintf(stderr, "micro: wasm_func_call trapped\n");
                exit(1);
            }
            bad |= r[0].of.i32 ^ (i * 2 + 1);
        }
        uint64_t t1 = micro_now_ns();
        if (bad) {
            fprintf(stderr, "micro: wasm.h: wrong result\n");
            exit(1);
        }
        if (k) per_op[k - 1] = (double)(t1 - t0) / BATCH;
    }
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "bench/micro/callback.wasm";
    int rounds = micro_rounds(argc, argv, 21);
    if (rounds > MAX_ROUNDS) rounds = MAX_ROUNDS;

    /* weft.h */
    weft_engine *engine;
    weft_module *module = micro_load(&engine, path);
    weft_store *store = weft_store_new(engine);
    weft_valtype i32 = WEFT_I32;
    weft_functype ft = {1, 1, &i32, &i32};
    weft_func *cb = store ? weft_func_new(store, &ft, weft_cb, NULL, NULL) : NULL;
    if (!cb) {
        fprintf(stderr, "micro: out of memory\n");
        return 1;
    }
    weft_extern imp = {.kind = WEFT_EXTERN_FUNC, .of.func = cb};
    weft_instance *inst = NULL;
    weft_error err;
    micro_check(weft_instance_new(store, module, &imp, 1, &inst, &err), &err, "weft_instance_new");
    weft_func *run = weft_instance_func(inst, "run");
    if (!run) {
        fprintf(stderr, "micro: %s has no export run\n", path);
        return 1;
    }

    /* wasm.h, on its own engine, from the same bytes */
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "micro: cannot open %s\n", path);
        return 1;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    wasm_byte_vec_t bin;
    wasm_byte_vec_new_uninitialized(&bin, (size_t)n);
    if (n <= 0 || fread(bin.data, 1, (size_t)n, f) != (size_t)n) {
        fprintf(stderr, "micro: cannot read %s\n", path);
        return 1;
    }
    fclose(f);
    wasm_engine_t *wengine = wasm_engine_new();
    wasm_store_t *wstore = wasm_store_new(wengine);
    wasm_module_t *wmodule = wasm_module_new(wstore, &bin);
    wasm_byte_vec_delete(&bin);
    wasm_functype_t *wft = wasm_functype_new_1_1(wasm_valtype_new_i32(), wasm_valtype_new_i32());
    wasm_func_t *wcb = wasm_func_new(wstore, wft, wasm_cb);
    wasm_functype_delete(wft);
    wasm_extern_t *wimps[1] = {wasm_func_as_extern(wcb)};
    wasm_extern_vec_t wiv = WASM_ARRAY_VEC(wimps);
    wasm_instance_t *winst = wmodule ? wasm_instance_new(wstore, wmodule, &wiv, NULL) : NULL;
    if (!winst) {
        fprintf(stderr, "micro: wasm.h could not instantiate %s\n", path);
        return 1;
    }
    wasm_extern_vec_t wexps;
    wasm_instance_exports(winst, &wexps);
    const wasm_func_t *wrun = wexps.size == 1 ? wasm_extern_as_func(wexps.data[0]) : NULL;
    if (!wrun) {
        fprintf(stderr, "micro: wasm.h: no export run\n");
        return 1;
    }

    weft_exec *exec = weft_exec_new(store);
    if (!exec) {
        fprintf(stderr, "micro: out of memory\n");
        return 1;
    }
    double t_weft[MAX_ROUNDS], t_exec[MAX_ROUNDS], t_wasm[MAX_ROUNDS];
    /* Interleaved halves, so a noisy neighbour hits all alike. */
    int half = rounds / 2 > 0 ? rounds / 2 : 1;
    time_weft(run, half, t_weft);
    time_exec(exec, run, half, t_exec);
    time_wasm(wrun, half, t_wasm);
    int total = half;
    if (rounds - half > 0) {
        time_weft(run, rounds - half, t_weft + half);
        time_exec(exec, run, rounds - half, t_exec + half);
        time_wasm(wrun, rounds - half, t_wasm + half);
        total = rounds;
    }

    char what[96];
    snprintf(what, sizeof what, "C -> wasm -> C callback, %d rounds of %d", total, BATCH);
    double wmin, wmed, emin, emed, amin, amed;
    micro_summary(t_weft, total, &wmin, &wmed);
    micro_summary(t_exec, total, &emin, &emed);
    micro_summary(t_wasm, total, &amin, &amed);
    micro_report("weft.h round trip", t_weft, total, "ns", what);
    micro_report("weft.h exec reused", t_exec, total, "ns", what);
    micro_report("wasm.h round trip", t_wasm, total, "ns", what);
    printf("%-28s min %9.3f x   median %9.3f x   (goal <= 1.2)\n", "wasm.h / weft.h", amin / wmin, amed / wmed);
    printf("%-28s min %9.3f x   median %9.3f x\n", "wasm.h / weft.h exec reused", amin / emin, amed / emed);

    wasm_extern_vec_delete(&wexps);
    wasm_instance_delete(winst);
    wasm_func_delete(wcb);
    wasm_module_delete(wmodule);
    wasm_store_delete(wstore);
    wasm_engine_delete(wengine);
    weft_exec_free(exec);
    weft_store_free(store);
    weft_module_release(module);
    weft_engine_free(engine);
    return 0;
}
