/*
 * simd_test.c — v128 values through the public API (issue 15): arguments
 * and results of weft_func_call, host functions taking and returning v128
 * beside scalars, v128 globals made by the host, and WEFT_FEATURE_SIMD.
 * The module is tests/unit/data/simd_api.wat (built with `wat2wasm
 * --debug-names`; both files committed). Run from the repository root.
 */
#include <stdio.h>
#include <string.h>

#include "weft.h"

#include "check.h"

static weft_val v128_u32(uint32_t a, uint32_t b, uint32_t c, uint32_t d) {
    weft_val v;
    memset(&v, 0, sizeof v);
    v.type = WEFT_V128;
    uint32_t lanes[4] = {a, b, c, d};
    memcpy(v.of.v128, lanes, 16);
    return v;
}

static uint32_t lane32(const weft_val *v, int i) {
    uint32_t x;
    memcpy(&x, v->of.v128 + 4 * i, 4);
    return x;
}

/* (i32 k, v128 x) -> (v128 with x's i32 lanes reversed, k + 1) */
static weft_status host_swap(weft_caller *c, void *env, const weft_val *a, weft_val *r) {
    (void)c;
    (void)env;
    if (a[0].type != WEFT_I32 || a[1].type != WEFT_V128) return WEFT_ERR_TRAP;
    r[0] = v128_u32(lane32(&a[1], 3), lane32(&a[1], 2), lane32(&a[1], 1), lane32(&a[1], 0));
    r[1].type = WEFT_I32;
    r[1].of.i32 = a[0].of.i32 + 1;
    return WEFT_OK;
}

static weft_module *load(weft_engine *engine, weft_status *st) {
    weft_module *m = NULL;
    weft_error err;
    *st = weft_module_load_file(engine, "tests/unit/data/simd_api.wasm", &m, &err);
    return m;
}

static weft_func *export_func(weft_instance *inst, const char *name) {
    weft_extern ext;
    if (weft_instance_export(inst, name, &ext) != WEFT_OK || ext.kind != WEFT_EXTERN_FUNC) return NULL;
    return ext.of.func;
}

int main(void) {
    weft_engine *engine = weft_engine_new(NULL);
    weft_status st;
    weft_module *m = load(engine, &st);
    EXPECT(st == WEFT_OK && m);
    if (!m) return 1;
    weft_store *store = weft_store_new(engine);
    weft_linker *linker = weft_linker_new(store);

    weft_valtype sp[2] = {WEFT_I32, WEFT_V128}, sr[2] = {WEFT_V128, WEFT_I32};
    weft_functype swap_t = {2, 2, sp, sr};
    weft_func *swap = weft_func_new(store, &swap_t, host_swap, NULL, NULL);
    weft_global *g = NULL;
    EXPECT(weft_global_new(store, v128_u32(0x01020304, 0, 0, 0xFFFFFFFF), true, &g, NULL) == WEFT_OK);
    weft_extern e_swap = {.kind = WEFT_EXTERN_FUNC}, e_g = {.kind = WEFT_EXTERN_GLOBAL};
    e_swap.of.func = swap;
    e_g.of.global = g;
    EXPECT(weft_linker_define(linker, "host", "swap", e_swap) == WEFT_OK);
    EXPECT(weft_linker_define(linker, "host", "g", e_g) == WEFT_OK);
    weft_instance *inst = NULL;
    weft_error err;
    st = weft_linker_instantiate(linker, m, &inst, &err);
    EXPECT(st == WEFT_OK);
    if (st != WEFT_OK) {
        fprintf(stderr, "instantiate: %s\n", err.message);
        return 1;
    }

    /* wasm -> host -> wasm, a v128 each way beside an i32. */
    weft_val arg = v128_u32(10, 20, 30, 40), res[3];
    EXPECT(weft_func_call(export_func(inst, "via_host"), &arg, 1, res, 2, &err) == WEFT_OK);
    EXPECT(res[0].type == WEFT_V128 && lane32(&res[0], 0) == 40 && lane32(&res[0], 3) == 10);
    EXPECT(res[1].type == WEFT_I32 && res[1].of.i32 == 8);

    /* The host's v128 global, read and written by wasm and by the host. */
    EXPECT(weft_func_call(export_func(inst, "bump"), NULL, 0, res, 1, &err) == WEFT_OK);
    EXPECT(lane32(&res[0], 0) == 0x02030405 && lane32(&res[0], 1) == 0x01010101 &&
          lane32(&res[0], 3) == 0);
    weft_val gv = weft_global_get(g);
    EXPECT(gv.type == WEFT_V128 && !memcmp(gv.of.v128, res[0].of.v128, 16));
    EXPECT(weft_global_set(g, v128_u32(1, 2, 3, 4)) == WEFT_OK);
    EXPECT(weft_func_call(export_func(inst, "bump"), NULL, 0, res, 1, &err) == WEFT_OK);
    EXPECT(lane32(&res[0], 0) == 0x01010102 && lane32(&res[0], 3) == 0x01010105);

    /* Scalars around v128 params, locals and results. */
    weft_val la[3];
    la[0].type = WEFT_F64;
    double two = 2.0, got;
    memcpy(&la[0].of.f64_bits, &two, 8);
    la[1] = v128_u32(1, 0, 2, 0); /* i64x2 (1, 2) */
    la[2].type = WEFT_I64;
    la[2].of.i64 = -5;
    EXPECT(weft_func_call(export_func(inst, "locals"), la, 3, res, 3, &err) == WEFT_OK);
    EXPECT(res[0].type == WEFT_I64 && res[0].of.i64 == -5);
    uint64_t two_bits;
    memcpy(&two_bits, &two, 8);
    uint64_t l0, l1;
    memcpy(&l0, res[1].of.v128, 8);
    memcpy(&l1, res[1].of.v128 + 8, 8);
    EXPECT(l0 == two_bits + 1 && l1 == two_bits + 2);
    memcpy(&got, &res[2].of.f64_bits, 8);
    EXPECT(res[2].type == WEFT_F64 && got == 2.0);

    weft_linker_free(linker);
    weft_store_free(store);
    weft_module_release(m);

    /* With SIMD off the same module is malformed (its v128 types). */
    weft_config cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.disabled_features = WEFT_FEATURE_SIMD;
    weft_engine *off = weft_engine_new(&cfg);
    weft_module *m2 = load(off, &st);
    EXPECT(st == WEFT_ERR_MALFORMED && !m2);
    weft_engine_free(off);
    weft_engine_free(engine);

    return check_summary("simd_test");
}
