/*
 * memories_test.c — several memories and 64-bit memories in the decoder
 * and the runtime (issue 24, WEFT_FEATURE_MULTI_MEMORY and _MEMORY64):
 * memory sections and imports of both kinds, data segments per memory
 * with the memory's address type, exports, import matching, weft_limits'
 * is64; bodies on memory 1 and on a 64-bit memory, with the bounds checks
 * at their edges (an address or offset past 32 bits, offset + address
 * past 64 bits: "out of bounds memory access"). Modules:
 * tests/unit/data/mm_*.wat, m64_*.wat (wat2wasm --enable-multi-memory
 * --enable-memory64; .wat and .wasm committed), and two made here (u64
 * offsets past 32 bits, which wabt 1.0.32 does not write).
 */
#include <pthread.h>

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

/* Calls export `name` with up to three i64/i32 arguments (types from the
   function); returns the status, the first result in *r. */
static weft_status call(weft_instance *inst, const char *name, int n, const weft_val *args, uint64_t *r,
                        weft_error *err) {
    weft_extern f;
    if (weft_instance_export(inst, name, &f) != WEFT_OK || f.kind != WEFT_EXTERN_FUNC) {
        snprintf(err->message, sizeof err->message, "no export %s", name);
        return WEFT_ERR_MISUSE;
    }
    weft_val res = {0};
    weft_status st = weft_func_call(f.of.func, args, (uint32_t)n, &res, weft_func_type(f.of.func).nresults, err);
    *r = res.type == WEFT_I64 ? (uint64_t)res.of.i64 : (uint64_t)(uint32_t)res.of.i32;
    return st;
}
#define I32(v) ((weft_val){.type = WEFT_I32, .of.i32 = (int32_t)(v)})
#define I64(v) ((weft_val){.type = WEFT_I64, .of.i64 = (int64_t)(v)})
/* Expects export `name`(args) to return `want`. */
#define RETURNS(inst, name, want, ...)                                                   \
    do {                                                                                 \
        weft_val a_[] = {I32(0), __VA_ARGS__};                                           \
        uint64_t r_ = 0;                                                                 \
        weft_error e_;                                                                   \
        weft_status s_ = call(inst, name, (int)(sizeof a_ / sizeof a_[0]) - 1, a_ + 1, &r_, &e_); \
        EXPECTF(s_ == WEFT_OK && r_ == (uint64_t)(want), "%s: %s %s, result 0x%llx, want 0x%llx", \
                name, weft_status_name(s_), s_ == WEFT_OK ? "" : e_.message,             \
                (unsigned long long)r_, (unsigned long long)(want));                     \
    } while (0)
/* Expects export `name`(args) to trap "out of bounds memory access". */
#define TRAPS(inst, name, ...)                                                           \
    do {                                                                                 \
        weft_val a_[] = {I32(0), __VA_ARGS__};                                           \
        uint64_t r_ = 0;                                                                 \
        weft_error e_;                                                                   \
        weft_status s_ = call(inst, name, (int)(sizeof a_ / sizeof a_[0]) - 1, a_ + 1, &r_, &e_); \
        EXPECTF(s_ == WEFT_ERR_TRAP && strstr(e_.message, "out of bounds memory access"), \
                "%s: want the trap, got %s %s", name, weft_status_name(s_),              \
                s_ == WEFT_OK ? "" : e_.message);                                        \
    } while (0)

static weft_instance *instantiate(weft_store *s, weft_module *m) {
    weft_instance *inst = NULL;
    weft_error err;
    CHECK(weft_instance_new(s, m, NULL, 0, &inst, &err) == WEFT_OK, "instantiate: %s", err.message);
    return inst;
}

/* Bodies on memory 1 (multi-memory, Wasm 3.0 §4.4.7), in either compile
   mode: each instruction reaches memory 1 and leaves memory 0 alone. */
static void test_multi(uint32_t mode) {
    weft_config cfg = {0};
    cfg.compile_mode = mode;
    weft_engine *e = weft_engine_new(&cfg);
    CHECK(e, "engine");
    weft_module *m = CHECK_LOAD(e, DATA "mm_body1.wasm");
    weft_store *s = weft_store_new(e);
    CHECK(s, "store");
    weft_instance *inst = instantiate(s, m);
    RETURNS(inst, "load1", 42, I32(0));
    RETURNS(inst, "load0", 0, I32(0));
    RETURNS(inst, "store1", 0, I32(8), I32(7));
    RETURNS(inst, "load1", 7, I32(8));
    RETURNS(inst, "load0", 0, I32(8));
    RETURNS(inst, "size1", 1);
    RETURNS(inst, "grow1", 1, I32(1));
    RETURNS(inst, "size1", 2);
    RETURNS(inst, "grow1", 0xffffffff, I32(2)); /* past its maximum, 3 */
    RETURNS(inst, "load1", 0, I32(2 * 65536 - 4));
    TRAPS(inst, "load1", I32(2 * 65536 - 3));
    TRAPS(inst, "load0", I32(65536 - 3)); /* memory 0 kept its one page */
    RETURNS(inst, "fill1", 0, I32(16), I32(0x41), I32(4));
    RETURNS(inst, "load1", 0x41414141, I32(16));
    RETURNS(inst, "load0", 0, I32(16));
    RETURNS(inst, "init1", 0, I32(100));
    RETURNS(inst, "load1", 0x6c6c6568, I32(100)); /* "hell" */
    RETURNS(inst, "copy01", 0, I32(200), I32(100), I32(5));
    RETURNS(inst, "load0", 0x6c6c6568, I32(200));
    /* the copy checks each memory's bounds: memory 1 has 2 pages */
    RETURNS(inst, "copy01", 0, I32(0), I32(2 * 65536 - 4), I32(4));
    TRAPS(inst, "copy01", I32(0), I32(2 * 65536 - 3), I32(4));
    TRAPS(inst, "copy01", I32(65536 - 3), I32(0), I32(4));
    TRAPS(inst, "fill1", I32(2 * 65536 - 3), I32(0), I32(4));
    weft_store_free(s);
    weft_module_release(m);
    weft_engine_free(e);
}

/* A module whose one function loads a byte at its i64 parameter with a
   u64 memarg offset, on a 64-bit memory of one page: without a maximum
   (a big memory, compiled with 64-bit addresses: docs/pipeline.md), or
   (`small`) with a maximum of one page; `atomic`: an i32.atomic.load. */
static weft_module *offset_module_of(weft_engine *e, uint64_t offset, bool small, bool atomic) {
    uint8_t leb[10];
    size_t n = 0;
    do {
        uint8_t b = offset & 0x7f;
        offset >>= 7;
        leb[n++] = (uint8_t)(b | (offset ? 0x80 : 0));
    } while (offset);
    static const uint8_t head[] = {
        0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
        0x01, 0x06, 0x01, 0x60, 0x01, 0x7e, 0x01, 0x7f, /* type (i64) -> i32 */
        0x03, 0x02, 0x01, 0x00,                         /* one function */
        0x05, 0x04, 0x01, 0x05, 0x01, 0x01,             /* memory i64 1 1 */
        0x07, 0x05, 0x01, 0x01, 'f', 0x00, 0x00,        /* export "f" */
    };
    uint8_t bytes[sizeof head + 32];
    size_t len = sizeof head, body = 1 + 2 + 2 + atomic + n + 1;
    memcpy(bytes, head, len);
    if (!small) { /* memory i64 1: no maximum */
        bytes[21] = 0x03;
        bytes[23] = 0x04;
        memmove(bytes + 25, bytes + 26, len - 26);
        len--;
    }
    bytes[len++] = 0x0a;
    bytes[len++] = (uint8_t)(2 + body);
    bytes[len++] = 0x01;
    bytes[len++] = (uint8_t)body;
    bytes[len++] = 0x00;                     /* no locals */
    bytes[len++] = 0x20, bytes[len++] = 0x00; /* local.get 0 */
    if (atomic) bytes[len++] = 0xfe, bytes[len++] = 0x10, bytes[len++] = 0x02; /* i32.atomic.load align=2 */
    else bytes[len++] = 0x2d, bytes[len++] = 0x00; /* i32.load8_u align=0 */
    memcpy(bytes + len, leb, n);
    len += n;
    bytes[len++] = 0x0b;
    weft_module *m = NULL;
    weft_error err;
    CHECK(weft_module_load(e, bytes, len, &m, &err) == WEFT_OK, "offset module: %s", err.message);
    return m;
}
static weft_module *offset_module(weft_engine *e, uint64_t offset) {
    return offset_module_of(e, offset, false, false);
}

/* A 64-bit memory (memory64, Wasm 3.0 §4.4.7): i64 addresses, u64
   offsets, and the bounds checks at their edges. */
static void test_memory64(uint32_t mode) {
    weft_config cfg = {0};
    cfg.compile_mode = mode;
    weft_engine *e = weft_engine_new(&cfg);
    CHECK(e, "engine");
    weft_module *m = CHECK_LOAD(e, DATA "m64_body.wasm");
    weft_store *s = weft_store_new(e);
    CHECK(s, "store");
    weft_instance *inst = instantiate(s, m);
    RETURNS(inst, "f", 42);
    RETURNS(inst, "load", 0, I64(65532));
    TRAPS(inst, "load", I64(65533));
    TRAPS(inst, "load", I64(0x100000000)); /* would be 0 cut to 32 bits */
    TRAPS(inst, "load", I64(-4));          /* address + 4 past 2^64 */
    TRAPS(inst, "load", I64(-1));
    TRAPS(inst, "store", I64(0x100000000), I32(1));
    RETURNS(inst, "load", 42, I64(0));     /* the data byte; the store did not reach it */
    RETURNS(inst, "store", 0, I64(65532), I32(-1));
    RETURNS(inst, "load", 0xffffffff, I64(65532));
    /* offset 2^32 - 1 with address 2^64 - 2^32 + 1: the sum is 2^64,
       0 if it wrapped */
    TRAPS(inst, "load_off", I64(0xffffffff00000001));
    TRAPS(inst, "load_off", I64(0));
    RETURNS(inst, "size", 1);
    RETURNS(inst, "grow", -1, I64(0xffffffff00000001));
    RETURNS(inst, "grow", -1, I64(0x40000)); /* past 16 GiB, the bound without max_memory_bytes */
    RETURNS(inst, "grow", 1, I64(1));
    RETURNS(inst, "size", 2);
    RETURNS(inst, "load", 0, I64(2 * 65536 - 4));
    RETURNS(inst, "fill", 0, I64(0), I32(1), I64(0));
    RETURNS(inst, "fill", 0, I64(2 * 65536), I32(1), I64(0));
    TRAPS(inst, "fill", I64(2 * 65536 + 1), I32(1), I64(0));
    TRAPS(inst, "fill", I64(0x100000000), I32(1), I64(0));
    TRAPS(inst, "fill", I64(0), I32(1), I64(0x100000000));
    TRAPS(inst, "fill", I64(-1), I32(1), I64(2));
    weft_store_free(s);
    weft_module_release(m);

    /* u64 offsets past 32 bits: every access is out of bounds, and
       offset + address past 2^64 does not wrap to an address inside */
    static const uint64_t offsets[] = {0x100000000, 0xffffffffffffffff, 0x8000000000000000};
    for (size_t i = 0; i < sizeof offsets / sizeof offsets[0]; i++) {
        m = offset_module(e, offsets[i]);
        s = weft_store_new(e);
        CHECK(s, "store");
        inst = instantiate(s, m);
        TRAPS(inst, "f", I64(0));
        TRAPS(inst, "f", I64(1));
        TRAPS(inst, "f", I64(-offsets[i]));      /* the sum is 2^64: 0 if it wrapped */
        TRAPS(inst, "f", I64(-offsets[i] + 16)); /* 16 if it wrapped */
        weft_store_free(s);
        weft_module_release(m);
    }
    /* The same on a small memory (ADDR64 saturates the address and the
       offset, keeping their low four bits), and atomics on both: an
       effective address past 2^64 is out of bounds when aligned and
       unaligned when not (the threads proposal checks the alignment
       first, of the exact sum, whose low bits the wrapped one keeps).
       issue 39: offset 2^32 + 4 saturated to 2^32 - 1 made the aligned
       sum 2^64 "unaligned atomic". */
    for (int small = 0; small < 2; small++) {
        for (int atomic = 0; atomic < 2; atomic++) {
            static const uint64_t offs[] = {0x100000004, 0xfffffffffffffff8, 0x8000000000000000, 8};
            for (size_t i = 0; i < sizeof offs / sizeof offs[0]; i++) {
                m = offset_module_of(e, offs[i], small, atomic);
                s = weft_store_new(e);
                CHECK(s, "store");
                inst = instantiate(s, m);
                if (offs[i] == 8) RETURNS(inst, "f", 0, I64(0));
                else TRAPS(inst, "f", I64(0));
                TRAPS(inst, "f", I64(-offs[i]));      /* 2^64: 0 if it wrapped */
                if (offs[i] > 16) TRAPS(inst, "f", I64(-offs[i] + 16)); /* 2^64 + 16 */
                weft_val a = I64(-offs[i] + 2); /* 2^64 + 2 */
                uint64_t r = 0;
                weft_error err;
                weft_status st = call(inst, "f", 1, &a, &r, &err);
                EXPECTF(st == WEFT_ERR_TRAP &&
                            err.trap == (atomic ? WEFT_TRAP_UNALIGNED_ATOMIC : WEFT_TRAP_MEM_OOB),
                        "small %d atomic %d offset 0x%llx: %s %s", small, atomic,
                        (unsigned long long)offs[i], weft_status_name(st), st == WEFT_OK ? "" : err.message);
                weft_store_free(s);
                weft_module_release(m);
            }
        }
    }
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

/* Host-made 64-bit memories: limits up to 2^48 pages, at most 16 GiB given (by default). */
static void test_host(weft_engine *e) {
    weft_store *s = weft_store_new(e);
    CHECK(s, "store");
    weft_memory *mem = NULL;
    weft_error err;
    weft_limits lim = {.min = 1, .max = (uint64_t)1 << 40, .has_max = true, .is64 = true};
    EXPECTF(weft_memory_new(s, lim, &mem, &err) == WEFT_OK, "host memory64: %s", err.message);
    EXPECT(mem && weft_memory_limits(mem).is64);
    lim.min = 70000; /* past 4 GiB: reserved, not touched */
    EXPECTF(weft_memory_new(s, lim, &mem, &err) == WEFT_OK, "host memory64 of 70000 pages: %s", err.message);
    lim.min = 262145; /* weft gives a 64-bit memory 16 GiB (262144 pages) by default */
    EXPECT(weft_memory_new(s, lim, &mem, &err) == WEFT_ERR_LIMIT);
    weft_limits l32 = {.min = 1, .max = 70000, .has_max = true};
    EXPECT(weft_memory_new(s, l32, &mem, &err) == WEFT_ERR_MISUSE);
    weft_store_free(s);
}

/* memory.atomic.wait32 on memory 1 (shared; memory 0 is not): a module
   made here, since wabt 1.0.32 writes no memory index on atomics. Its
   export w(timeout) waits at address 0 of memory 1 for the value 0. */
static weft_module *wait1_module(weft_engine *e) {
    static const uint8_t bytes[] = {
        0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
        0x01, 0x06, 0x01, 0x60, 0x01, 0x7e, 0x01, 0x7f, /* type (i64) -> i32 */
        0x03, 0x02, 0x01, 0x00,                         /* one function */
        0x05, 0x06, 0x02, 0x00, 0x01, 0x03, 0x01, 0x01, /* memory 1; memory 1 1 shared */
        0x07, 0x05, 0x01, 0x01, 'w', 0x00, 0x00,        /* export "w" */
        0x0a, 0x0f, 0x01, 0x0d, 0x00,                   /* code: one body, no locals */
        0x41, 0x00, 0x41, 0x00, 0x20, 0x00,             /* i32.const 0, i32.const 0, local.get 0 */
        0xfe, 0x01, 0x42, 0x01, 0x00,                   /* memory.atomic.wait32 memory 1 align 4 */
        0x0b,
    };
    weft_module *m = NULL;
    weft_error err;
    CHECK(weft_module_load(e, bytes, sizeof bytes, &m, &err) == WEFT_OK, "wait module: %s", err.message);
    return m;
}

typedef struct wait_run {
    weft_exec *exec;
    weft_status st;
} wait_run;
static void *wait_thread(void *p) {
    wait_run *r = p;
    weft_error err;
    r->st = weft_exec_run(r->exec, &err);
    return NULL;
}

/* A wait on memory 1 times out (2) on that memory; suspended in the
   middle (the wait interrupted) and resumed, it waits again on memory 1,
   not on memory 0, which is not shared (that would trap). */
static void test_wait_memory1(void) {
    weft_engine *e = weft_engine_new(NULL);
    CHECK(e, "engine");
    weft_module *m = wait1_module(e);
    weft_store *s = weft_store_new(e);
    CHECK(s, "store");
    weft_instance *inst = instantiate(s, m);
    RETURNS(inst, "w", 2, I64(1000000));
    weft_exec *x = weft_exec_new(s);
    CHECK(x, "exec");
    weft_val arg = I64(300000000);
    CHECK(weft_exec_start(x, weft_instance_func(inst, "w"), &arg, 1) == WEFT_OK, "start");
    wait_run r = {x, WEFT_OK};
    pthread_t t;
    CHECK(pthread_create(&t, NULL, wait_thread, &r) == 0, "thread");
    sleep_ms(30);
    weft_exec_request(x, WEFT_ATTN_SUSPEND);
    pthread_join(t, NULL);
    EXPECTF(r.st == WEFT_SUSPENDED, "the wait was not interrupted: %s", weft_status_name(r.st));
    weft_error err;
    weft_status st = weft_exec_run(x, &err);
    weft_val res = {0};
    EXPECTF(st == WEFT_OK && weft_exec_results(x, &res, 1) == WEFT_OK && res.of.i32 == 2,
            "resumed wait: %s %s, result %d", weft_status_name(st), st == WEFT_OK ? "" : err.message, res.of.i32);
    weft_exec_free(x);
    weft_store_free(s);
    weft_module_release(m);
    weft_engine_free(e);
}

int main(void) {
    EXPECT((weft_features_supported() & (WEFT_FEATURE_MULTI_MEMORY | WEFT_FEATURE_MEMORY64)) ==
           (WEFT_FEATURE_MULTI_MEMORY | WEFT_FEATURE_MEMORY64));
    weft_engine *e = weft_engine_new(NULL);
    CHECK(e, "engine");
    test_instance(e);
    test_host(e);
    weft_engine_free(e);
    test_multi(WEFT_COMPILE_LAZY);
    test_multi(WEFT_COMPILE_EAGER);
    test_memory64(WEFT_COMPILE_LAZY);
    test_memory64(WEFT_COMPILE_EAGER);
    test_off();
    test_wait_memory1();
    return check_summary("memories_test");
}
