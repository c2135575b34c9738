/* capi_std.c — the wasm.h round trip of capi.c on the standard API alone,
 * to build against any engine's wasm.h and compare engines:
 *
 *   cc -O2 -Iinclude bench/micro/capi_std.c build/libweft.a -lpthread -lm      # weft
 *   cc -O2 -DWASM_H_FILE='"wasm_c_api.h"' -I$WAMR/core/iwasm/include \
 *       bench/micro/capi_std.c libvmlib.a -lpthread -lm                       # WAMR
 *   ./a.out bench/micro/callback.wasm [ROUNDS]
 *
 * Times ROUNDS batches of wasm_func_call(run, x) where run(x) = cb(x) + 1
 * and cb is a wasm_func_callback_t; prints the fastest and the median
 * batch's ns per round trip. Not built by `make -C bench micro` (it needs
 * no weft.h): docs/capi.md has the figures. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#ifndef WASM_H_FILE
#define WASM_H_FILE "wasm.h"
#endif
#include WASM_H_FILE

#define MAX_ROUNDS 101
#define BATCH 20000

static wasm_trap_t *cb(const wasm_val_vec_t *args, wasm_val_vec_t *results) {
    results->data[0].kind = WASM_I32;
    results->data[0].of.i32 = args->data[0].of.i32 * 2;
    return NULL;
}

static uint64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "bench/micro/callback.wasm";
    int rounds = argc > 2 ? atoi(argv[2]) : 21;
    if (rounds < 1 || rounds > MAX_ROUNDS) rounds = 21;
    /* The engine first: WAMR's allocator (behind its vectors too) is set
       up by wasm_engine_new. */
    wasm_engine_t *engine = wasm_engine_new();
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return 1;
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    wasm_byte_vec_t bin;
    wasm_byte_vec_new_uninitialized(&bin, (size_t)n);
    if (n <= 0 || fread(bin.data, 1, (size_t)n, f) != (size_t)n) return 1;
    fclose(f);
    wasm_store_t *store = wasm_store_new(engine);
    wasm_module_t *module = wasm_module_new(store, &bin);
    wasm_byte_vec_delete(&bin);
    if (!module) {
        fprintf(stderr, "cannot load %s\n", path);
        return 1;
    }
    wasm_functype_t *ft = wasm_functype_new_1_1(wasm_valtype_new_i32(), wasm_valtype_new_i32());
    wasm_func_t *cbf = wasm_func_new(store, ft, cb);
    wasm_functype_delete(ft);
    wasm_extern_t *imps[1] = {wasm_func_as_extern(cbf)};
    wasm_extern_vec_t iv = WASM_ARRAY_VEC(imps);
    wasm_instance_t *inst = wasm_instance_new(store, module, &iv, NULL);
    if (!inst) {
        fprintf(stderr, "cannot instantiate\n");
        return 1;
    }
    wasm_extern_vec_t exps;
    wasm_instance_exports(inst, &exps);
    const wasm_func_t *run = exps.size ? wasm_extern_as_func(exps.data[0]) : NULL;
    if (!run) return 1;

    double per_op[MAX_ROUNDS];
    for (int k = 0; k <= rounds; k++) {
        int32_t bad = 0;
        uint64_t t0 = now_ns();
        for (int i = 0; i < BATCH; i++) {
            wasm_val_t a[1] = {WASM_I32_VAL(i)}, r[1] = {WASM_INIT_VAL};
            wasm_val_vec_t av = WASM_ARRAY_VEC(a), rv = WASM_ARRAY_VEC(r);
            wasm_trap_t *trap = wasm_func_call(run, &av, &rv);
            if (trap) {
                fprintf(stderr, "trapped\n");
                return 1;
            }
            bad |= r[0].of.i32 ^ (i * 2 + 1);
        }
        uint64_t t1 = now_ns();
        if (bad) {
            fprintf(stderr, "wrong result\n");
            return 1;
        }
        if (k) per_op[k - 1] = (double)(t1 - t0) / BATCH;
    }
    qsort(per_op, (size_t)rounds, sizeof *per_op, cmp);
    printf("wasm.h round trip  min %9.3f ns  median %9.3f ns  (%d rounds of %d)\n", per_op[0],
           per_op[rounds / 2], rounds, BATCH);
    wasm_extern_vec_delete(&exps);
    wasm_instance_delete(inst);
    wasm_func_delete(cbf);
    wasm_module_delete(module);
    wasm_store_delete(store);
    wasm_engine_delete(engine);
    return 0;
}
