/* weft_bench.c — the component benchmarks of bench/component (README
   there), weft's side: bench.wasm loaded once, then the median over
   BATCHES batches of (a) a fresh store + instantiation + free, (b) calls of
   each export with a fixed argument, through weft.h (weft_component_func_call
   with host-built weft_cvals, as an embedder calls). Prints one line per
   case: NAME MICROSECONDS-PER-OP, and a checksum line per call case so a
   wrong result shows. Usage: weft_bench bench.wasm */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "weft.h"

#define BATCHES 7

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int cmp(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v) {
    qsort(v, BATCHES, sizeof *v, cmp);
    return v[BATCHES / 2];
}

static weft_component_func *fn(weft_component_instance *ci, const char *name) {
    weft_component_func *f;
    weft_error err;
    if (weft_component_instance_func(ci, name, &f, &err) != WEFT_OK) {
        fprintf(stderr, "%s: %s\n", name, err.message);
        exit(1);
    }
    return f;
}

static void bench_call(weft_component_instance *ci, const char *label, const char *name,
                       const weft_cval *arg, int iters) {
    weft_component_func *f = fn(ci, name);
    weft_cval_pool *pool = weft_cval_pool_new(0);
    weft_cval res = {0};
    weft_error err;
    double t[BATCHES];
    for (int b = 0; b < BATCHES; b++) {
        double t0 = now();
        for (int i = 0; i < iters; i++) {
            if (weft_component_func_call(f, arg, arg ? 1 : 0, &res, pool, &err) != WEFT_OK) {
                fprintf(stderr, "%s: %s\n", name, err.message);
                exit(1);
            }
            weft_cval_pool_reset(pool);
        }
        t[b] = (now() - t0) / iters * 1e6;
    }
    printf("%-22s %10.3f us\n", label, median(t));
    if (arg) printf("  check %s = %llu\n", name, (unsigned long long)res.v.u);
    weft_cval_pool_free(pool);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: weft_bench bench.wasm\n");
        return 2;
    }
    weft_error err;
    weft_engine *e = weft_engine_new(NULL);
    weft_component *c;
    if (weft_component_load_file(e, argv[1], &c, &err) != WEFT_OK) {
        fprintf(stderr, "%s: %s\n", argv[1], err.message);
        return 2;
    }
    weft_component_linker *l = weft_component_linker_new();
    double t[BATCHES];
    int inst_iters = 2000;
    for (int b = 0; b < BATCHES; b++) {
        double t0 = now();
        for (int i = 0; i < inst_iters; i++) {
            weft_store *s = weft_store_new(e);
            weft_component_instance *ci;
            if (weft_component_linker_instantiate(l, s, c, NULL, &ci, &err) != WEFT_OK) {
                fprintf(stderr, "instantiate: %s\n", err.message);
                return 1;
            }
            weft_component_instance_free(ci);
            weft_store_free(s);
        }
        t[b] = (now() - t0) / inst_iters * 1e6;
    }
    printf("%-22s %10.3f us\n", "instantiate", median(t));

    weft_store *s = weft_store_new(e);
    weft_component_instance *ci;
    if (weft_component_linker_instantiate(l, s, c, NULL, &ci, &err) != WEFT_OK) return 1;
    bench_call(ci, "call noop()", "noop", NULL, 200000);

    static char str[1024];
    for (size_t i = 0; i < sizeof str; i++) str[i] = (char)('a' + i % 26);
    weft_cval sv = {.kind = WEFT_CSTRING, .n = sizeof str, .v.str = str};
    bench_call(ci, "call string 1 KiB", "str-len", &sv, 50000);

    static weft_cval u32s[1000];
    for (int i = 0; i < 1000; i++) u32s[i] = (weft_cval){.kind = WEFT_CU32, .v.u = (uint64_t)i};
    weft_cval lv = {.kind = WEFT_CLIST, .n = 1000, .v.items = u32s};
    bench_call(ci, "call list<u32> x1000", "u32s-len", &lv, 5000);

    static weft_cval strs[100];
    for (int i = 0; i < 100; i++) strs[i] = (weft_cval){.kind = WEFT_CSTRING, .n = 16, .v.str = str + i};
    weft_cval lsv = {.kind = WEFT_CLIST, .n = 100, .v.items = strs};
    bench_call(ci, "call list<string> x100", "total-len", &lsv, 5000);

    static weft_cval bytes[65536];
    for (int i = 0; i < 65536; i++) bytes[i] = (weft_cval){.kind = WEFT_CU8, .v.u = (uint64_t)(i & 0xff)};
    weft_cval bv = {.kind = WEFT_CLIST, .n = 65536, .v.items = bytes};
    bench_call(ci, "call list<u8> 64 KiB", "bytes-len", &bv, 200);

    weft_component_instance_free(ci);
    weft_store_free(s);
    weft_component_linker_free(l);
    weft_component_release(c);
    weft_engine_free(e);
    return 0;
}
