/*
 * memories_test.c — several memories and 64-bit memories in the decoder
 * and the runtime (issue 24, WEFT_FEATURE_MULTI_MEMORY and _MEMORY64):
 * memory sections and imports of both kinds, data segments per memory
 * with the memory's address type, exports, import matching, weft_limits'
 * is64; and the compiler's clean refusal ("not supported yet") of a body
 * that uses a memory other than 0 or a 64-bit memory. Modules:
 * tests/unit/data/mm_*.wat, m64_*.wat (wat2wasm --enable-multi-memory
 * --enable-memory64; .wat and .wasm committed).
 */
#include "check.h"

#define DATA "tests/unit/data/"

static weft_status try_load(weft_engine *e, const char *file, weft_module **m, weft_error *err) {
    *m = NULL;
    return weft_module_load_file(e, file, m, err);
}

static void expect_load_error(weft_engine *e, const char *file, weft_status want, const char *text) {
    weft_module *m;
    weft_error err;
    weft_status st = try_load(e, file, &m, &err);
    EXPECTF(st == want && strstr(err.message, text), "%s: want %s \"%s\", got %s \"%s\"", file,
            weft_status_name(want), text, weft_status_name(st), st == WEFT_OK ? "" : err.message);
    weft_module_release(m);
}

static weft_memory *export_memory(weft_instance *inst, const char *name) {
    weft_extern x;
    if (weft_instance_export(inst, name, &x) != WEFT_OK || x.kind != WEFT_EXTERN_MEMORY) return NULL;
    return x.of.memory;
}

static void test_instance(weft_engine *e) {
    weft_module *m = CHECK_LOAD(e, DATA "mm_ok.wasm");
    weft_store *s = weft_store_new(e);
    CHECK(s, "store");
    weft_error err;
    weft_instance *inst = NULL;
    CHECK(weft_instance_new(s, m, NULL, 0, &inst, &err) == WEFT_OK, "mm_ok: %s", err.message);
    weft_memory *a = export_memory(inst, "a"), *b = export_memory(inst, "b"),
                *c = export_memory(inst, "c");
    CHECK(a && b && c, "exports a, b, c");
    EXPECT(weft_memory_size(a) == 65536 && weft_memory_size(b) == 2 * 65536 &&
           weft_memory_size(c) == 65536);
    EXPECT(weft_memory_data(a)[0] == 0x2a);
    EXPECT(memcmp(weft_memory_data(b) + 8, "two", 3) == 0);
    EXPECT(memcmp(weft_memory_data(c) + 16, "sixty-four", 10) == 0);
    weft_limits lb = weft_memory_limits(b), lc = weft_memory_limits(c);
    EXPECT(!lb.is64 && lb.has_max && lb.max == 3);
    EXPECT(lc.is64 && lc.has_max && lc.max == 70000); /* declared, past 4 GiB */
    uint64_t old = 0;
    EXPECT(weft_memory_grow(c, 1, &old) == WEFT_OK && old == 1);
    /* code on memory 0 runs */
    weft_extern f;
    weft_val r;
    CHECK(weft_instance_export(inst, "load0", &f) == WEFT_OK, "load0");
    EXPECT(weft_func_call(f.of.func, NULL, 0, &r, 1, &err) == WEFT_OK && r.of.i32 == 42);

    /* imports: a 32-bit and a 64-bit memory; a 64-bit one does not match
       a 32-bit import */
    weft_linker *l = weft_linker_new(s);
    CHECK(l, "linker");
    CHECK(weft_linker_define_instance(l, "mm", inst) == WEFT_OK, "define");
    weft_module *mi = CHECK_LOAD(e, DATA "mm_import.wasm");
    weft_instance *ii = NULL;
    EXPECTF(weft_linker_instantiate(l, mi, &ii, &err) == WEFT_OK, "mm_import: %s", err.message);
    weft_module *mb = CHECK_LOAD(e, DATA "mm_import_bad.wasm");
    weft_status st = weft_linker_instantiate(l, mb, &ii, &err);
    EXPECTF(st == WEFT_ERR_LINK && strstr(err.message, "incompatible import type") &&
                strstr(err.message, "(memory i64"),
            "mm_import_bad: %s \"%s\"", weft_status_name(st), st == WEFT_OK ? "" : err.message);
    weft_module_release(mi);
    weft_module_release(mb);
    weft_linker_free(l);
    weft_store_free(s);
    weft_module_release(m);

    /* a data segment past a 64-bit memory's end traps */
    weft_module *mo = CHECK_LOAD(e, DATA "m64_oob.wasm");
    s = weft_store_new(e);
    CHECK(s, "store");
    st = weft_instance_new(s, mo, NULL, 0, &inst, &err);
    EXPECTF(st == WEFT_ERR_TRAP && strstr(err.message, "out of bounds memory access"), "m64_oob: %s",
            weft_status_name(st));
    weft_store_free(s);
    weft_module_release(mo);
}

/* Bodies that need what the compiler lacks are refused at load, cleanly,
   in either compile mode. */
static void test_refused(uint32_t mode) {
    weft_config cfg = {0};
    cfg.compile_mode = mode;
    weft_engine *e = weft_engine_new(&cfg);
    CHECK(e, "engine");
    expect_load_error(e, DATA "mm_body1.wasm", WEFT_ERR_INVALID,
                      "not supported yet: memory 1 in a function body (multi-memory)");
    expect_load_error(e, DATA "mm_size1.wasm", WEFT_ERR_INVALID,
                      "not supported yet: memory 1 in a function body (multi-memory)");
    expect_load_error(e, DATA "m64_body.wasm", WEFT_ERR_INVALID,
                      "not supported yet: instructions on a 64-bit memory (memory64)");
    weft_engine_free(e);
}

/* With the features off the decoder reads Wasm 2.0. */
static void test_off(void) {
    weft_config cfg = {0};
    cfg.disabled_features = WEFT_FEATURE_MULTI_MEMORY;
    weft_engine *e = weft_engine_new(&cfg);
    CHECK(e, "engine");
    expect_load_error(e, DATA "mm_ok.wasm", WEFT_ERR_INVALID, "multiple memories");
    expect_load_error(e, DATA "mm_size1.wasm", WEFT_ERR_INVALID, "multiple memories");
    weft_engine_free(e);
    cfg.disabled_features = WEFT_FEATURE_MEMORY64;
    e = weft_engine_new(&cfg);
    CHECK(e, "engine");
    expect_load_error(e, DATA "m64_body.wasm", WEFT_ERR_MALFORMED, "integer too large");
    weft_engine_free(e);
}

/* Host-made 64-bit memories: limits up to 2^48 pages, at most 4 GiB given. */
static void test_host(weft_engine *e) {
    weft_store *s = weft_store_new(e);
    CHECK(s, "store");
    weft_memory *mem = NULL;
    weft_error err;
    weft_limits lim = {.min = 1, .max = (uint64_t)1 << 40, .has_max = true, .is64 = true};
    EXPECTF(weft_memory_new(s, lim, &mem, &err) == WEFT_OK, "host memory64: %s", err.message);
    EXPECT(mem && weft_memory_limits(mem).is64);
    lim.min = 70000;
    EXPECT(weft_memory_new(s, lim, &mem, &err) == WEFT_ERR_LIMIT);
    weft_limits l32 = {.min = 1, .max = 70000, .has_max = true};
    EXPECT(weft_memory_new(s, l32, &mem, &err) == WEFT_ERR_MISUSE);
    weft_store_free(s);
}

int main(void) {
    /* Partly there: not advertised as supported. */
    EXPECT(!(weft_features_supported() & (WEFT_FEATURE_MULTI_MEMORY | WEFT_FEATURE_MEMORY64)));
    weft_engine *e = weft_engine_new(NULL);
    CHECK(e, "engine");
    test_instance(e);
    test_host(e);
    weft_engine_free(e);
    test_refused(WEFT_COMPILE_LAZY);
    test_refused(WEFT_COMPILE_EAGER);
    test_off();
    return check_summary("memories_test");
}
