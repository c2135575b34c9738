/*
 * constexpr_test.c — extended constant expressions (Wasm 3.0 §3.4.10,
 * WEFT_FEATURE_EXTENDED_CONST): validation in the decoder and evaluation
 * at instantiation, through the public API.
 *
 * tests/unit/data/constexpr_ok.wat (and its .wasm) covers globals, a data
 * offset and an element offset; the invalid and deep cases are built here
 * byte by byte (a global section and an export of the last global).
 */
#include "check.h"

/* A module whose global section holds `count` globals given as `globals`
   (each: valtype, mutability, expression, 0x0B), exporting the last one as
   "g". Returns its length in out (room for 4096 bytes). */
static size_t build(uint8_t *out, const uint8_t *globals, size_t n, uint32_t count) {
    size_t k = 0;
    static const uint8_t head[] = {0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00};
    memcpy(out, head, sizeof head);
    k = sizeof head;
    size_t body = 1 + n; /* count (< 128) + globals */
    out[k++] = 0x06;
    do { /* section size, LEB128 */
        uint8_t b = body & 0x7F;
        body >>= 7;
        out[k++] = body ? (uint8_t)(b | 0x80) : b;
    } while (body);
    out[k++] = (uint8_t)count;
    memcpy(out + k, globals, n);
    k += n;
    const uint8_t exp[] = {0x07, 0x05, 0x01, 0x01, 'g', 0x03, (uint8_t)(count - 1)};
    memcpy(out + k, exp, sizeof exp);
    return k + sizeof exp;
}

static weft_status load(weft_engine *e, const uint8_t *bytes, size_t len, weft_module **m,
                        weft_error *err) {
    *m = NULL;
    return weft_module_load(e, bytes, len, m, err);
}

/* Loads a module that must be invalid with `text` in the message. */
static void expect_invalid(weft_engine *e, const uint8_t *globals, size_t n, uint32_t count,
                           const char *text, const char *what) {
    uint8_t buf[4096];
    size_t len = build(buf, globals, n, count);
    weft_module *m;
    weft_error err;
    weft_status st = load(e, buf, len, &m, &err);
    EXPECTF(st == WEFT_ERR_INVALID && strstr(err.message, text),
            "%s: expected invalid \"%s\", got status %d \"%s\"", what, text, (int)st,
            st == WEFT_OK ? "" : err.message);
    weft_module_release(m);
}

/* Instantiates a module without imports and returns its global "g". */
static weft_val global_value(weft_engine *e, const uint8_t *bytes, size_t len, const char *what) {
    weft_val v = {0};
    weft_module *m;
    weft_error err;
    weft_store *s = weft_store_new(e);
    weft_instance *inst = NULL;
    weft_extern x;
    CHECK(s, "store");
    weft_status st = load(e, bytes, len, &m, &err);
    EXPECTF(st == WEFT_OK, "%s: load: %s", what, err.message);
    if (st == WEFT_OK) st = weft_instance_new(s, m, NULL, 0, &inst, &err);
    EXPECTF(st == WEFT_OK, "%s: instantiate: %s", what, err.message);
    if (st == WEFT_OK && weft_instance_export(inst, "g", &x) == WEFT_OK &&
        x.kind == WEFT_EXTERN_GLOBAL)
        v = weft_global_get(x.of.global);
    weft_module_release(m);
    weft_store_free(s);
    return v;
}

static weft_val export_global(weft_instance *inst, const char *name) {
    weft_extern x;
    weft_val none = {0};
    if (weft_instance_export(inst, name, &x) != WEFT_OK || x.kind != WEFT_EXTERN_GLOBAL)
        return none;
    return weft_global_get(x.of.global);
}

static void test_module(weft_engine *e) {
    weft_module *m = CHECK_LOAD(e, "tests/unit/data/constexpr_ok.wasm");
    weft_store *s = weft_store_new(e);
    CHECK(s, "store");
    weft_global *g = NULL;
    weft_error err;
    weft_val ten = {.type = WEFT_I32, .of.i32 = 10};
    CHECK(weft_global_new(s, ten, false, &g, &err) == WEFT_OK, "global: %s", err.message);
    weft_extern imp = {.kind = WEFT_EXTERN_GLOBAL, .of.global = g};
    weft_instance *inst = NULL;
    CHECK(weft_instance_new(s, m, &imp, 1, &inst, &err) == WEFT_OK, "instantiate: %s",
          err.message);
    EXPECT(export_global(inst, "g1").of.i32 == 15);
    EXPECT(export_global(inst, "g2").of.i32 == 24);    /* 10 + 15 - 1 */
    EXPECT(export_global(inst, "g3").of.i64 == -2);
    EXPECT(export_global(inst, "g4").of.i32 == -2);    /* 0x7fffffff * 2 wraps */
    EXPECT(export_global(inst, "g5").of.i64 == INT64_MAX); /* 0 - (MAX + 2) wraps */
    weft_extern x;
    CHECK(weft_instance_export(inst, "mem", &x) == WEFT_OK, "mem");
    EXPECT(memcmp(weft_memory_data(x.of.memory) + 16, "hi", 2) == 0); /* g1 + 1 */
    CHECK(weft_instance_export(inst, "tab", &x) == WEFT_OK, "tab");
    weft_val r;
    EXPECT(weft_table_get(x.of.table, 2, &r) == WEFT_OK && r.of.func != NULL);
    EXPECT(weft_table_get(x.of.table, 1, &r) == WEFT_OK && r.of.func == NULL);
    weft_store_free(s);
    weft_module_release(m);
}

/* Without the feature the same module is Wasm 2.0 and invalid. */
static void test_wasm20(void) {
    weft_config cfg = {0};
    cfg.disabled_features = WEFT_FEATURE_EXTENDED_CONST;
    weft_engine *e = weft_engine_new(&cfg);
    CHECK(e, "engine");
    weft_module *m = NULL;
    weft_error err;
    weft_status st = weft_module_load_file(e, "tests/unit/data/constexpr_ok.wasm", &m, &err);
    EXPECTF(st == WEFT_ERR_INVALID && strstr(err.message, "constant expression required"),
            "2.0: got %d \"%s\"", (int)st, st == WEFT_OK ? "" : err.message);
    weft_module_release(m);
    /* global.get of an own global is "unknown global" in 2.0 */
    static const uint8_t own[] = {0x7f, 0x00, 0x41, 0x01, 0x0b, 0x7f, 0x00, 0x23, 0x00, 0x0b};
    expect_invalid(e, own, sizeof own, 2, "unknown global 0", "2.0 own global");
    weft_engine_free(e);
}

static void test_invalid(weft_engine *e) {
    static const uint8_t mixed[] = {0x7f, 0x00, 0x41, 0x01, 0x42, 0x02, 0x6a, 0x0b};
    expect_invalid(e, mixed, sizeof mixed, 1, "type mismatch", "i32.add of an i64");
    static const uint8_t two[] = {0x7f, 0x00, 0x41, 0x01, 0x41, 0x02, 0x0b};
    expect_invalid(e, two, sizeof two, 1, "type mismatch", "two values left");
    static const uint8_t under[] = {0x7f, 0x00, 0x41, 0x01, 0x6a, 0x0b};
    expect_invalid(e, under, sizeof under, 1, "type mismatch", "one operand");
    static const uint8_t wrong[] = {0x7e, 0x00, 0x41, 0x01, 0x41, 0x02, 0x6a, 0x0b};
    expect_invalid(e, wrong, sizeof wrong, 1, "type mismatch", "i32 result for an i64");
    static const uint8_t later[] = {0x7f, 0x00, 0x23, 0x01, 0x0b, 0x7f, 0x00, 0x41, 0x00, 0x0b};
    expect_invalid(e, later, sizeof later, 2, "unknown global 1", "a later global");
    static const uint8_t self[] = {0x7f, 0x00, 0x23, 0x00, 0x41, 0x01, 0x6a, 0x0b};
    expect_invalid(e, self, sizeof self, 1, "unknown global 0", "itself");
    static const uint8_t mut[] = {0x7f, 0x01, 0x41, 0x00, 0x0b, 0x7f, 0x00, 0x23, 0x00,
                                  0x41, 0x01, 0x6a, 0x0b};
    expect_invalid(e, mut, sizeof mut, 2, "constant expression required", "a mutable global");
    static const uint8_t div[] = {0x7f, 0x00, 0x41, 0x01, 0x41, 0x02, 0x6d, 0x0b};
    expect_invalid(e, div, sizeof div, 1, "constant expression required", "i32.div_s");
    static const uint8_t f32[] = {0x7d, 0x00, 0x43, 0, 0, 0, 0, 0x43, 0, 0, 0, 0, 0x92, 0x0b};
    expect_invalid(e, f32, sizeof f32, 1, "constant expression required", "f32.add");
}

/* Deeper than rt_eval_seq's stack on the C stack (16): 40 constants, then
   39 adds; and a long chain that stays two deep. */
static void test_deep(weft_engine *e) {
    uint8_t g[512], buf[4096];
    size_t n = 0;
    g[n++] = 0x7f;
    g[n++] = 0x00;
    for (int i = 0; i < 40; i++) {
        g[n++] = 0x41;
        g[n++] = 0x01;
    }
    for (int i = 0; i < 39; i++) g[n++] = 0x6a;
    g[n++] = 0x0b;
    size_t len = build(buf, g, n, 1);
    weft_val v = global_value(e, buf, len, "deep");
    EXPECTF(v.type == WEFT_I32 && v.of.i32 == 40, "deep: got %d", v.of.i32);

    n = 0;
    g[n++] = 0x7e;
    g[n++] = 0x00;
    g[n++] = 0x42;
    g[n++] = 0x03;
    for (int i = 0; i < 100; i++) { /* x = x * 3, 100 times: 3^101 mod 2^64 */
        g[n++] = 0x42;
        g[n++] = 0x03;
        g[n++] = 0x7e;
    }
    g[n++] = 0x0b;
    len = build(buf, g, n, 1);
    v = global_value(e, buf, len, "chain");
    uint64_t want = 1;
    for (int i = 0; i < 101; i++) want *= 3;
    EXPECTF(v.type == WEFT_I64 && (uint64_t)v.of.i64 == want, "chain: got %lld",
            (long long)v.of.i64);
}

int main(void) {
    EXPECT(weft_features_supported() & WEFT_FEATURE_EXTENDED_CONST);
    EXPECT(strcmp(weft_feature_name(WEFT_FEATURE_EXTENDED_CONST), "extended-const") == 0);
    EXPECT(weft_feature_name(WEFT_FEATURE_SIMD | WEFT_FEATURE_THREADS) == NULL);
    weft_engine *e = weft_engine_new(NULL);
    CHECK(e, "engine");
    test_module(e);
    test_invalid(e);
    test_deep(e);
    weft_engine_free(e);
    test_wasm20();
    return check_summary("constexpr_test");
}
