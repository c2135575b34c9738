/*
 * runtime_test.c — unit tests of src/runtime: memories, tables, globals,
 * host functions, the linker, import matching and instantiation (segments
 * in the spec's order, traps with partial effects), and base's spin gate.
 *
 * Modules come from tests/unit/data/runtime_*.wat (built with
 * `wat2wasm --debug-names`; both the .wat and the .wasm are committed).
 * Run from the repository root. Exits 0 when every check passes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/runtime.h"

#include "check.h"

#define EXPECT_STR(have, want)                                                    \
    do {                                                                          \
        const char *h_ = (have), *w_ = (want);                                    \
        EXPECTF(h_ && strcmp(h_, w_) == 0, "got \"%s\", want \"%s\"",             \
                h_ ? h_ : "(null)", w_);                                          \
    } while (0)

/* The message contains `part`. */
#define EXPECT_HAS(msg, part)                                                     \
    do {                                                                          \
        const char *m_ = (msg), *p_ = (part);                                     \
        EXPECTF(strstr(m_, p_), "\"%s\" lacks \"%s\"", m_, p_);                  \
    } while (0)

static weft_val val_i32(int32_t v) { weft_val x = {.type = WEFT_I32}; x.of.i32 = v; return x; }
static weft_val val_i64(int64_t v) { weft_val x = {.type = WEFT_I64}; x.of.i64 = v; return x; }
static weft_val val_f32(uint32_t b) { weft_val x = {.type = WEFT_F32}; x.of.f32_bits = b; return x; }
static weft_val val_func(weft_func *f) { weft_val x = {.type = WEFT_FUNCREF}; x.of.func = f; return x; }
static weft_val val_extern(void *p) { weft_val x = {.type = WEFT_EXTERNREF}; x.of.externref = p; return x; }

static weft_limits lim(uint64_t min, int64_t max) {
    weft_limits l = {.min = min, .max = max < 0 ? 0 : (uint64_t)max, .has_max = max >= 0};
    return l;
}

static weft_extern ext_func(weft_func *f) { weft_extern e = {.kind = WEFT_EXTERN_FUNC}; e.of.func = f; return e; }
static weft_extern ext_table(weft_table *t) { weft_extern e = {.kind = WEFT_EXTERN_TABLE}; e.of.table = t; return e; }
static weft_extern ext_mem(weft_memory *m) { weft_extern e = {.kind = WEFT_EXTERN_MEMORY}; e.of.memory = m; return e; }
static weft_extern ext_global(weft_global *g) { weft_extern e = {.kind = WEFT_EXTERN_GLOBAL}; e.of.global = g; return e; }

static weft_status host_ok(weft_caller *c, void *env, const weft_val *a, weft_val *r) {
    (void)c; (void)env; (void)a; (void)r;
    return WEFT_OK;
}

static weft_func *make_func(weft_store *s, const char *params, const char *results) {
    weft_valtype p[8], r[8];
    uint32_t np = 0, nr = 0;
    for (; params[np]; np++) p[np] = params[np] == 'I' ? WEFT_I64 : WEFT_I32;
    for (; results[nr]; nr++) r[nr] = results[nr] == 'I' ? WEFT_I64 : WEFT_I32;
    weft_functype t = {np, nr, p, r};
    return weft_func_new(s, &t, host_ok, NULL, NULL);
}

/* ---- names and the engine ---- */

static void test_names(void) {
    EXPECT_STR(weft_status_name(WEFT_OK), "ok");
    EXPECT_STR(weft_status_name(WEFT_ERR_TRAP), "trap");
    EXPECT_STR(weft_status_name((weft_status)999), "unknown status");
    EXPECT_STR(weft_trap_message(WEFT_TRAP_UNREACHABLE), "unreachable");
    EXPECT_STR(weft_trap_message(WEFT_TRAP_MEM_OOB), "out of bounds memory access");
    EXPECT_STR(weft_trap_message(WEFT_TRAP_TABLE_OOB), "out of bounds table access");
    EXPECT_STR(weft_trap_message(WEFT_TRAP_INDIRECT_OOB), "undefined element");
    EXPECT_STR(weft_trap_message(WEFT_TRAP_INDIRECT_NULL), "uninitialized element");
    EXPECT_STR(weft_trap_message(WEFT_TRAP_INDIRECT_TYPE), "indirect call type mismatch");
    EXPECT_STR(weft_trap_message(WEFT_TRAP_DIV_ZERO), "integer divide by zero");
    EXPECT_STR(weft_trap_message(WEFT_TRAP_INT_OVERFLOW), "integer overflow");
    EXPECT_STR(weft_trap_message(WEFT_TRAP_BAD_CONVERSION), "invalid conversion to integer");
    EXPECT_STR(weft_trap_message(WEFT_TRAP_STACK_EXHAUSTED), "call stack exhausted");
    EXPECT_STR(weft_trap_message(WEFT_TRAP_STOPPED), "stopped");
    EXPECT_STR(weft_trap_message(WEFT_TRAP_COUNT_), "unknown trap");
    for (int t = 0; t < WEFT_TRAP_COUNT_; t++) EXPECT(weft_trap_message((weft_trap)t)[0] != 0);
    EXPECT_STR(weft_valtype_name(WEFT_I32), "i32");
    EXPECT_STR(weft_valtype_name(WEFT_F64), "f64");
    EXPECT_STR(weft_valtype_name(WEFT_FUNCREF), "funcref");
    EXPECT_STR(weft_valtype_name(WEFT_EXTERNREF), "externref");
}

static void test_engine(void) {
    weft_engine *e = weft_engine_new(NULL);
    EXPECT(e != NULL);
    EXPECT(e->config.max_stack_bytes == 8u << 20);
    EXPECT(e->config.max_call_depth == 0); /* executions derive it from the stack */
    EXPECT(e->config.max_memory_bytes == 0);
    weft_engine_free(e);
    weft_config c = {.max_stack_bytes = 4096, .max_call_depth = 7, .max_memory_bytes = 1 << 20};
    e = weft_engine_new(&c);
    EXPECT(e->config.max_stack_bytes == 4096 && e->config.max_call_depth == 7 &&
          e->config.max_memory_bytes == 1 << 20);
    weft_engine_free(e);
    weft_engine_free(NULL);
    weft_store_free(NULL);
}

/* ---- memories ---- */

static void test_memory(weft_engine *engine) {
    weft_store *s = weft_store_new(engine);
    weft_error err;
    weft_memory *m = NULL;

    EXPECT(weft_memory_new(s, lim(1, 4), &m, &err) == WEFT_OK);
    uint8_t *data = weft_memory_data(m);
    EXPECT(data != NULL);
    EXPECT(weft_memory_size(m) == RT_PAGE_SIZE);
    EXPECT(data[0] == 0 && data[RT_PAGE_SIZE - 1] == 0);
    data[RT_PAGE_SIZE - 1] = 0xAB;

    uint64_t old = 99;
    EXPECT(weft_memory_grow(m, 1, &old) == WEFT_OK && old == 1);
    EXPECT(weft_memory_data(m) == data); /* never moves */
    EXPECT(weft_memory_size(m) == 2 * RT_PAGE_SIZE);
    EXPECT(data[RT_PAGE_SIZE - 1] == 0xAB);
    EXPECT(data[RT_PAGE_SIZE] == 0 && data[2 * RT_PAGE_SIZE - 1] == 0); /* fresh pages are zero */
    data[2 * RT_PAGE_SIZE - 1] = 1;

    EXPECT(weft_memory_grow(m, 0, &old) == WEFT_OK && old == 2);
    EXPECT(rt_memory_grow(m, 2) == 2); /* to the maximum, 4 pages */
    EXPECT(weft_memory_data(m) == data);
    EXPECT(rt_memory_grow(m, 1) == -1); /* past the maximum */
    EXPECT(weft_memory_grow(m, 1, &old) == WEFT_ERR_LIMIT);
    EXPECT(rt_memory_grow(m, UINT64_MAX) == -1);
    EXPECT(weft_memory_size(m) == 4 * RT_PAGE_SIZE);
    EXPECT(rt_memory_grow(m, 0) == 4);
    data[4 * RT_PAGE_SIZE - 1] = 7;
    weft_limits l = weft_memory_limits(m);
    EXPECT(l.min == 4 && l.has_max && l.max == 4); /* the current size is its minimum */

    /* No declared maximum: the 4 GiB range is reserved, growth in place. */
    weft_memory *big = NULL;
    EXPECT(weft_memory_new(s, lim(0, -1), &big, &err) == WEFT_OK);
    uint8_t *bd = weft_memory_data(big);
    EXPECT(bd != NULL && weft_memory_size(big) == 0);
    EXPECT(rt_memory_grow(big, 16) == 0);
    EXPECT(rt_memory_grow(big, 16) == 16);
    EXPECT(weft_memory_data(big) == bd);
    bd[32 * RT_PAGE_SIZE - 1] = 3;
    EXPECT(rt_memory_grow(big, RT_MAX_PAGES) == -1);
    EXPECT(big->max_pages == RT_MAX_PAGES);

    /* Limits checks for host-made memories (§3.2.4). */
    EXPECT(weft_memory_new(s, lim(2, 1), &m, &err) == WEFT_ERR_MISUSE && m == NULL);
    EXPECT_HAS(err.message, "minimum");
    EXPECT(weft_memory_new(s, lim(0, RT_MAX_PAGES + 1), &m, &err) == WEFT_ERR_MISUSE);
    EXPECT(weft_memory_new(s, lim(RT_MAX_PAGES + 1, -1), &m, &err) == WEFT_ERR_MISUSE);
    weft_limits shared = lim(1, -1);
    shared.shared = true;
    EXPECT(weft_memory_new(s, shared, &m, &err) == WEFT_ERR_MISUSE);
    EXPECT_HAS(err.message, "shared memory must have maximum");
    shared = lim(1, 2);
    shared.shared = true;
    EXPECT(weft_memory_new(s, shared, &m, &err) == WEFT_OK);
    EXPECT(weft_memory_limits(m).shared);
    EXPECT(weft_memory_new(s, lim(0, 0), &m, &err) == WEFT_OK);
    EXPECT(weft_memory_data(m) != NULL && weft_memory_size(m) == 0);
    EXPECT(rt_memory_grow(m, 1) == -1);
    EXPECT(weft_memory_new(s, lim(0, RT_MAX_PAGES), &m, &err) == WEFT_OK);
    EXPECT(m->max_pages == RT_MAX_PAGES);
    EXPECT(rt_memory_grow(m, RT_MAX_PAGES + 1) == -1);
    EXPECT(weft_memory_size(m) == 0);
    weft_store_free(s);
}

/* The engine's reservation pool (memory.c): memories of one size are
   slots of shared chunks; a freed slot is reused once its pages are
   discarded (in batches of up to 32: here two whole ones), and then
   reads as zero everywhere it was written; a reservation that finds no
   clean slot discards the waiting ones first (the 4 GiB class, 16 slots
   a chunk: 16 freed wait, the next 16 take them back); more sizes than
   the pool has classes for are mapped one by one, and every kind is
   freed. */
static void test_memory_pool(void) {
    weft_engine *e = weft_engine_new(NULL);
    weft_error err;
    enum { N = 64, BIG = 16 };
    uint8_t *first[N];
    weft_store *s = weft_store_new(e);
    for (int i = 0; i < N; i++) {
        weft_memory *m = NULL;
        EXPECT(weft_memory_new(s, lim(1, 4), &m, &err) == WEFT_OK);
        EXPECT(rt_memory_grow(m, 3) == 1);
        first[i] = weft_memory_data(m);
        memset(first[i], 0x5A, 4 * RT_PAGE_SIZE);
    }
    weft_store_free(s);
    s = weft_store_new(e);
    int reused = 0;
    for (int i = 0; i < N; i++) {
        weft_memory *m = NULL;
        EXPECT(weft_memory_new(s, lim(1, 4), &m, &err) == WEFT_OK);
        EXPECT(rt_memory_grow(m, 3) == 1);
        uint8_t *d = weft_memory_data(m);
        for (int j = 0; j < N; j++) reused += d == first[j];
        for (size_t k = 0; k < 4 * RT_PAGE_SIZE; k += 4093) EXPECT(d[k] == 0);
        EXPECT(d[4 * RT_PAGE_SIZE - 1] == 0);
    }
    EXPECT(reused == N); /* every slot came back */
    weft_store_free(s);
    s = weft_store_new(e);
    for (int i = 0; i < BIG; i++) {
        weft_memory *m = NULL;
        EXPECT(weft_memory_new(s, lim(1, -1), &m, &err) == WEFT_OK);
        first[i] = weft_memory_data(m);
        memset(first[i], 0xA5, RT_PAGE_SIZE);
    }
    weft_store_free(s);
    s = weft_store_new(e);
    reused = 0;
    for (int i = 0; i < BIG; i++) {
        weft_memory *m = NULL;
        EXPECT(weft_memory_new(s, lim(1, -1), &m, &err) == WEFT_OK);
        uint8_t *d = weft_memory_data(m);
        for (int j = 0; j < BIG; j++) reused += d == first[j];
        EXPECT(d[0] == 0 && d[RT_PAGE_SIZE - 1] == 0);
    }
    EXPECT(reused == BIG); /* the waiting ones, discarded when no clean slot was left */
    /* Twelve more sizes than fit in the classes: each still works. */
    for (uint64_t max = 5; max < 17; max++) {
        weft_memory *m = NULL;
        EXPECT(weft_memory_new(s, lim(1, (int64_t)max), &m, &err) == WEFT_OK);
        EXPECT(rt_memory_grow(m, max - 1) == 1);
        uint8_t *d = weft_memory_data(m);
        EXPECT(d[0] == 0 && d[max * RT_PAGE_SIZE - 1] == 0);
        d[max * RT_PAGE_SIZE - 1] = 1;
    }
    weft_store_free(s);
    weft_engine_free(e);
}

/* base_spin's gate (src/base): a spin ends as soon as its condition
   holds; once the gate is closed (a preemption seen) a spin returns at
   once instead of spending the caller's whole budget, and leaves the
   gate's pause as it was (only a whole spin with the gate open brings it
   back to the shortest). The bound asserted is loose. */
static bool spin_never(void *arg) {
    (void)arg;
    return false;
}

static bool spin_at_once(void *arg) {
    return ++*(int *)arg > 0;
}

static void test_spin_gate(void) {
    base_spin_gate g = {0};
    int calls = 0;
    EXPECT(base_spin(&g, 1000000000, spin_at_once, &calls) && calls <= 2); /* asked again on the way out */
    int64_t now = base_now_ns();
    g.off_until = now + 10000000000;
    g.off_ns = 8000000;
    EXPECT(!base_spin(&g, 1000000000, spin_never, NULL));
    int64_t took = base_now_ns() - now;
    EXPECTF(took < 100000000, "a spin with the gate closed took %lld ns of its 1 s", (long long)took);
    EXPECT(g.off_ns >= 8000000); /* a preemption meanwhile may double it */
}

static void test_memory_engine_cap(void) {
    weft_config c = {.max_memory_bytes = 3 * RT_PAGE_SIZE};
    weft_engine *e = weft_engine_new(&c);
    weft_store *s = weft_store_new(e);
    weft_error err;
    weft_memory *m = NULL;
    EXPECT(weft_memory_new(s, lim(1, -1), &m, &err) == WEFT_OK);
    EXPECT(m->max_pages == 3);
    EXPECT(rt_memory_grow(m, 2) == 1);
    EXPECT(rt_memory_grow(m, 1) == -1);
    EXPECT(weft_memory_limits(m).has_max == false); /* the declared type is kept */
    EXPECT(weft_memory_new(s, lim(4, -1), &m, &err) == WEFT_ERR_LIMIT && m == NULL);
    EXPECT_HAS(err.message, "max_memory_bytes");
    weft_store_free(s);
    weft_engine_free(e);
}

/* ---- tables ---- */

static void test_table(void) {
    weft_store *s = weft_store_new(NULL);
    weft_store *other = weft_store_new(NULL);
    weft_error err;
    weft_table *t = NULL;
    weft_func *f = make_func(s, "i", "i");
    weft_func *g = make_func(s, "", "");
    weft_func *foreign = make_func(other, "", "");
    EXPECT(f && g && foreign);

    EXPECT(weft_table_new(s, WEFT_FUNCREF, lim(2, 5), &t, &err) == WEFT_OK);
    EXPECT(weft_table_size(t) == 2 && weft_table_elem_type(t) == WEFT_FUNCREF);
    weft_val v;
    EXPECT(weft_table_get(t, 0, &v) == WEFT_OK && v.type == WEFT_FUNCREF && v.of.func == NULL);
    EXPECT(weft_table_get(t, 2, &v) == WEFT_ERR_NOT_FOUND);
    EXPECT(weft_table_set(t, 1, val_func(f)) == WEFT_OK);
    EXPECT(weft_table_get(t, 1, &v) == WEFT_OK && v.of.func == f);
    EXPECT(t->elems[1] == f);
    EXPECT(weft_table_set(t, 2, val_func(f)) == WEFT_ERR_NOT_FOUND);
    EXPECT(weft_table_set(t, 0, val_extern(&err)) == WEFT_ERR_MISUSE);
    EXPECT(weft_table_set(t, 0, val_i32(1)) == WEFT_ERR_MISUSE);
    EXPECT(weft_table_set(t, 0, val_func(foreign)) == WEFT_ERR_MISUSE);
    EXPECT(weft_table_set(t, 1, val_func(NULL)) == WEFT_OK);
    EXPECT(t->elems[1] == NULL);

    uint32_t old = 99;
    EXPECT(weft_table_grow(t, 3, val_func(g), &old) == WEFT_OK && old == 2);
    EXPECT(weft_table_size(t) == 5);
    EXPECT(t->elems[0] == NULL && t->elems[2] == g && t->elems[4] == g);
    EXPECT(weft_table_grow(t, 1, val_func(NULL), &old) == WEFT_ERR_LIMIT);
    EXPECT(rt_table_grow(t, 1, NULL) == -1);
    EXPECT(rt_table_grow(t, UINT32_MAX, NULL) == -1);
    EXPECT(rt_table_grow(t, 0, NULL) == 5);
    EXPECT(weft_table_size(t) == 5);
    EXPECT(weft_table_grow(t, 0, val_extern(NULL), &old) == WEFT_ERR_MISUSE);

    /* externref, no maximum: the implementation limit applies. */
    weft_table *x = NULL;
    EXPECT(weft_table_new(s, WEFT_EXTERNREF, lim(0, -1), &x, &err) == WEFT_OK);
    EXPECT(x->max == RT_MAX_TABLE_SIZE);
    EXPECT(rt_table_grow(x, 1000, &err) == 0);
    EXPECT(weft_table_get(x, 999, &v) == WEFT_OK && v.type == WEFT_EXTERNREF && v.of.externref == &err);
    EXPECT(weft_table_set(x, 5, val_extern(NULL)) == WEFT_OK);
    EXPECT(weft_table_get(x, 5, &v) == WEFT_OK && v.of.externref == NULL);
    EXPECT(rt_table_grow(x, RT_MAX_TABLE_SIZE, NULL) == -1);
    EXPECT(weft_table_size(x) == 1000);

    EXPECT(weft_table_new(s, WEFT_I32, lim(0, -1), &x, &err) == WEFT_ERR_MISUSE && x == NULL);
    EXPECT(weft_table_new(s, WEFT_FUNCREF, lim(3, 2), &x, &err) == WEFT_ERR_MISUSE);

    /* rt_table_create fills with `init`. */
    EXPECT(rt_table_create(s, WEFT_FUNCREF, lim(3, -1), f, &x, &err) == WEFT_OK);
    EXPECT(x->elems[0] == f && x->elems[2] == f);
    weft_store_free(other);
    weft_store_free(s);
}

/* ---- globals ---- */

static void test_global(void) {
    weft_store *s = weft_store_new(NULL);
    weft_store *other = weft_store_new(NULL);
    weft_error err;
    weft_global *g = NULL;

    EXPECT(weft_global_new(s, val_i32(-7), false, &g, &err) == WEFT_OK);
    EXPECT(!weft_global_mutable(g));
    weft_val v = weft_global_get(g);
    EXPECT(v.type == WEFT_I32 && v.of.i32 == -7);
    EXPECT(g->value == 0xFFFFFFF9u); /* slot form: zero-extended */
    EXPECT(weft_global_set(g, val_i32(1)) == WEFT_ERR_MISUSE); /* immutable */
    EXPECT(weft_global_get(g).of.i32 == -7);

    EXPECT(weft_global_new(s, val_i64(-1), true, &g, &err) == WEFT_OK);
    EXPECT(weft_global_mutable(g));
    EXPECT(weft_global_set(g, val_i32(1)) == WEFT_ERR_MISUSE); /* wrong type */
    EXPECT(weft_global_set(g, val_i64(INT64_MIN)) == WEFT_OK);
    EXPECT(weft_global_get(g).of.i64 == INT64_MIN);

    /* f32 NaN payloads survive, in the low 32 bits. */
    EXPECT(weft_global_new(s, val_f32(0x7FA00001u), true, &g, &err) == WEFT_OK);
    EXPECT(g->value == 0x7FA00001u);
    EXPECT(weft_global_get(g).of.f32_bits == 0x7FA00001u);

    weft_func *f = make_func(s, "", "");
    weft_func *foreign = make_func(other, "", "");
    EXPECT(weft_global_new(s, val_func(f), true, &g, &err) == WEFT_OK);
    EXPECT(weft_global_get(g).type == WEFT_FUNCREF && weft_global_get(g).of.func == f);
    EXPECT(g->value == (uint64_t)(uintptr_t)f);
    EXPECT(weft_global_set(g, val_func(NULL)) == WEFT_OK && g->value == 0);
    EXPECT(weft_global_set(g, val_func(foreign)) == WEFT_ERR_MISUSE);
    EXPECT(weft_global_new(s, val_func(foreign), false, &g, &err) == WEFT_ERR_MISUSE);
    weft_val bad = {.type = 0x40};
    EXPECT(weft_global_new(s, bad, false, &g, &err) == WEFT_ERR_MISUSE && g == NULL);

    EXPECT(weft_global_new(s, val_extern(&err), false, &g, &err) == WEFT_OK);
    EXPECT(weft_global_get(g).of.externref == &err);
    weft_store_free(other);
    weft_store_free(s);
}

/* Bottom types (module.h): a global, a table or a parameter of type
   nullfuncref holds only null, so the host may store nothing else there
   (tests/spectest/wasm-3.0/bottom_types.0.wasm; the host sees funcref). */
static void test_bottom_types(weft_engine *engine) {
    weft_module *mod = load_module(engine, "tests/spectest/wasm-3.0/bottom_types.0.wasm");
    EXPECT(mod != NULL);
    if (!mod) return;
    weft_store *s = weft_store_new(engine);
    weft_error err;
    weft_instance *inst = NULL;
    EXPECT(weft_instance_new(s, mod, NULL, 0, &inst, &err) == WEFT_OK);
    weft_func *f = make_func(s, "", "");
    weft_extern g0, nf;
    EXPECT(weft_instance_export(inst, "g0", &g0) == WEFT_OK && g0.kind == WEFT_EXTERN_GLOBAL);
    EXPECT(weft_global_get(g0.of.global).type == WEFT_FUNCREF);
    EXPECT(weft_global_set(g0.of.global, val_func(f)) == WEFT_ERR_MISUSE);
    EXPECT(weft_global_set(g0.of.global, val_func(NULL)) == WEFT_OK);
    EXPECT(weft_instance_export(inst, "nf", &nf) == WEFT_OK && nf.kind == WEFT_EXTERN_TABLE);
    EXPECT(weft_table_elem_type(nf.of.table) == WEFT_FUNCREF);
    EXPECT(weft_table_set(nf.of.table, 0, val_func(f)) == WEFT_ERR_MISUSE);
    EXPECT(weft_table_set(nf.of.table, 0, val_func(NULL)) == WEFT_OK);
    uint32_t old = 0;
    EXPECT(weft_table_grow(nf.of.table, 1, val_func(f), &old) == WEFT_ERR_MISUSE);
    EXPECT(weft_table_grow(nf.of.table, 1, val_func(NULL), &old) == WEFT_OK && old == 2);
    weft_func *params = weft_instance_func(inst, "params");
    weft_val args[3] = {val_func(f), val_extern(NULL), {.type = WEFT_EXNREF}};
    weft_val r;
    EXPECT(weft_func_call(params, args, 3, &r, 1, &err) == WEFT_ERR_MISUSE);
    args[0] = val_func(NULL);
    EXPECT(weft_func_call(params, args, 3, &r, 1, &err) == WEFT_OK && r.of.i32 == 3);
    args[1] = val_extern(&err);
    EXPECT(weft_func_call(params, args, 3, &r, 1, &err) == WEFT_ERR_MISUSE);
    weft_store_free(s);
    weft_module_release(mod);
}

/* ---- host functions ---- */

static void count_finalize(void *env) { (*(int *)env)++; }

static weft_status host_trap(weft_caller *c, void *env, const weft_val *a, weft_val *r) {
    (void)env, (void)a, (void)r;
    weft_caller_trap(c, "no %s", "luck");
    return WEFT_ERR_TRAP;
}

/* A host function that traps reports WEFT_TRAP_HOST also when it is the
   call's entry (not only when wasm calls it). */
static void test_func_trap(weft_engine *engine) {
    weft_store *s = weft_store_new(engine);
    weft_functype empty = {0, 0, NULL, NULL};
    weft_func *f = weft_func_new(s, &empty, host_trap, NULL, NULL);
    weft_error err;
    EXPECT(weft_func_call(f, NULL, 0, NULL, 0, &err) == WEFT_ERR_TRAP);
    EXPECT(err.trap == WEFT_TRAP_HOST);
    EXPECT_STR(err.message, "no luck");
    weft_store_free(s);
}

static void test_func(void) {
    weft_store *s = weft_store_new(NULL);
    int finalized = 0;
    weft_valtype p[2] = {WEFT_I32, WEFT_F64}, r[1] = {WEFT_EXTERNREF};
    weft_functype t = {2, 1, p, r};
    weft_func *f = weft_func_new(s, &t, host_ok, &finalized, count_finalize);
    EXPECT(f != NULL);
    p[0] = WEFT_I64; /* the type was copied */
    weft_functype ft = weft_func_type(f);
    EXPECT(ft.nparams == 2 && ft.nresults == 1);
    EXPECT(ft.params[0] == WEFT_I32 && ft.params[1] == WEFT_F64 && ft.results[0] == WEFT_EXTERNREF);
    EXPECT(ft.params != p);
    EXPECT(f->host == host_ok && f->code == NULL && f->inst == NULL && f->store == s);

    weft_functype empty = {0, 0, NULL, NULL};
    weft_func *e = weft_func_new(s, &empty, host_ok, &finalized, count_finalize);
    EXPECT(e != NULL && weft_func_type(e).nparams == 0);
    EXPECT(mod_functype_equal(e->type, e->type));
    EXPECT(!mod_functype_equal(e->type, f->type));
    weft_valtype badt[1] = {0x40};
    weft_functype bad = {1, 0, badt, NULL};
    EXPECT(weft_func_new(s, &bad, host_ok, NULL, NULL) == NULL);
    EXPECT(weft_func_new(s, &empty, NULL, NULL, NULL) == NULL);
    /* A store made without an engine runs calls with the defaults. */
    weft_error err;
    EXPECT(weft_func_call(e, NULL, 0, NULL, 0, &err) == WEFT_OK);
    weft_store_free(s);
    EXPECT(finalized == 2);
}

/* ---- modules ---- */

/* tests/unit/data/NAME.wasm; NULL, counted as a failure, when it does not load. */
static weft_module *load(weft_engine *engine, const char *name) {
    weft_module *m = load_module(engine, "tests/unit/data/%s.wasm", name);
    if (!m) check_failures++;
    return m;
}

/* The correct imports of runtime_imports.wat, made in `s`. */
typedef struct imports_fixture {
    weft_func *f;
    weft_table *t;
    weft_memory *m;
    weft_global *g, *c;
    weft_table *x;
} imports_fixture;

static void make_imports(weft_store *s, imports_fixture *fx) {
    weft_error err;
    fx->f = make_func(s, "i", "i");
    EXPECT(weft_table_new(s, WEFT_FUNCREF, lim(2, 10), &fx->t, &err) == WEFT_OK);
    EXPECT(weft_memory_new(s, lim(1, 4), &fx->m, &err) == WEFT_OK);
    EXPECT(weft_global_new(s, val_i32(5), true, &fx->g, &err) == WEFT_OK);
    EXPECT(weft_global_new(s, val_i64(6), false, &fx->c, &err) == WEFT_OK);
    EXPECT(weft_table_new(s, WEFT_EXTERNREF, lim(0, -1), &fx->x, &err) == WEFT_OK);
}

static void define_imports(weft_linker *l, const imports_fixture *fx) {
    EXPECT(weft_linker_define(l, "env", "f", ext_func(fx->f)) == WEFT_OK);
    EXPECT(weft_linker_define(l, "env", "t", ext_table(fx->t)) == WEFT_OK);
    EXPECT(weft_linker_define(l, "env", "m", ext_mem(fx->m)) == WEFT_OK);
    EXPECT(weft_linker_define(l, "env", "g", ext_global(fx->g)) == WEFT_OK);
    EXPECT(weft_linker_define(l, "env", "c", ext_global(fx->c)) == WEFT_OK);
    EXPECT(weft_linker_define(l, "env", "x", ext_table(fx->x)) == WEFT_OK);
}

/* Names hold NUL bytes (runtime_names.wat): the inspection functions give
   their length, lookups by length tell "a\0b" from "a", and custom
   sections are listed with their payloads. */
static void test_nul_names(weft_engine *engine) {
    weft_module *mod = load(engine, "runtime_names");
    if (!mod) return;
    weft_name mn, nm;
    EXPECT(weft_module_import(mod, 0, &mn, &nm, NULL) == WEFT_OK);
    EXPECT(mn.len == 5 && memcmp(mn.data, "env\0x", 6) == 0 && !weft_name_is(mn, "env"));
    EXPECT(weft_name_is(nm, "f"));
    EXPECT(weft_module_export_count(mod) == 2);
    EXPECT(weft_module_export(mod, 0, &nm, NULL) == WEFT_OK && weft_name_is(nm, "a"));
    EXPECT(weft_module_export(mod, 1, &nm, NULL) == WEFT_OK);
    EXPECT(nm.len == 3 && memcmp(nm.data, "a\0b", 4) == 0 && !weft_name_is(nm, "a"));

    /* The import "env\0x" is not "env". */
    weft_store *s = weft_store_new(engine);
    weft_linker *l = weft_linker_new(s);
    weft_instance *inst = NULL;
    weft_error err;
    EXPECT(weft_linker_define(l, "env", "f", ext_func(make_func(s, "", ""))) == WEFT_OK);
    EXPECT(weft_linker_instantiate(l, mod, &inst, &err) == WEFT_ERR_LINK);
    weft_name env_x = {"env\0x", 5}, f = {"f", 1};
    EXPECT(weft_linker_define_n(l, env_x, f, ext_func(make_func(s, "", ""))) == WEFT_OK);
    EXPECT(weft_linker_instantiate(l, mod, &inst, &err) == WEFT_OK && inst);
    weft_extern x;
    weft_val r;
    EXPECT(weft_instance_export_n(inst, "a\0b", 3, &x) == WEFT_OK);
    EXPECT(weft_func_call(x.of.func, NULL, 0, &r, 1, &err) == WEFT_OK && r.of.i32 == 2);
    EXPECT(weft_instance_export(inst, "a", &x) == WEFT_OK);
    EXPECT(weft_func_call(x.of.func, NULL, 0, &r, 1, &err) == WEFT_OK && r.of.i32 == 1);
    weft_linker_free(l);
    weft_store_free(s);

    /* Custom sections: wat2wasm's "name" section, then one appended here. */
    EXPECT(weft_module_custom_count(mod) == 1);
    const uint8_t *payload;
    size_t plen;
    EXPECT(weft_module_custom(mod, 0, &nm, &payload, &plen) == WEFT_OK && weft_name_is(nm, "name"));
    EXPECT(weft_module_custom(mod, 1, &nm, &payload, &plen) == WEFT_ERR_NOT_FOUND);
    static const uint8_t extra[] = {0x00, 0x07, 0x03, 'x', 0x00, 'y', 'a', 'b', 'c'};
    size_t len = mod->len + sizeof extra;
    uint8_t *bytes = malloc(len);
    memcpy(bytes, mod->bytes, mod->len);
    memcpy(bytes + mod->len, extra, sizeof extra);
    weft_module *m2 = NULL;
    EXPECT(weft_module_load(engine, bytes, len, &m2, &err) == WEFT_OK);
    free(bytes);
    EXPECT(weft_module_custom_count(m2) == 2);
    EXPECT(weft_module_custom(m2, 1, &nm, &payload, &plen) == WEFT_OK);
    EXPECT(nm.len == 3 && memcmp(nm.data, "x\0y", 4) == 0);
    EXPECT(plen == 3 && memcmp(payload, "abc", 3) == 0);
    weft_module_release(m2);
    weft_module_release(mod);
}

/* Instantiates with (env, name) replaced by `ext`: expects an incompatible
   import type naming it. */
static void expect_incompatible(weft_store *s, weft_module *mod, const imports_fixture *fx,
                                const char *name, weft_extern ext, int line) {
    weft_linker *l = weft_linker_new(s);
    define_imports(l, fx);
    EXPECT(weft_linker_define(l, "env", name, ext) == WEFT_OK);
    weft_instance *inst = (weft_instance *)1;
    weft_error err;
    weft_status st = weft_linker_instantiate(l, mod, &inst, &err);
    char quoted[64];
    snprintf(quoted, sizeof quoted, "\"env\".\"%s\"", name);
    check_count++;
    if (st != WEFT_ERR_LINK || !strstr(err.message, "incompatible import type") ||
        !strstr(err.message, quoted) || inst != NULL)
        check_failed(__FILE__, line, "import %s: status %d, message \"%s\"", name, (int)st,
                     st == WEFT_OK ? "" : err.message);
    weft_linker_free(l);
}

static void test_import_matching(weft_engine *engine) {
    weft_module *mod = load(engine, "runtime_imports");
    if (!mod) return;
    weft_store *s = weft_store_new(engine);
    weft_store *other = weft_store_new(engine);
    imports_fixture fx;
    make_imports(s, &fx);
    weft_error err;
    weft_instance *inst = NULL;

    /* Module info. */
    EXPECT(weft_module_import_count(mod) == 6);
    weft_name mn = {0}, nm = {0};
    weft_externtype et;
    EXPECT(weft_module_import(mod, 1, &mn, &nm, &et) == WEFT_OK);
    EXPECT(weft_name_is(mn, "env") && mn.len == 3);
    EXPECT(weft_name_is(nm, "t") && nm.len == 1);
    EXPECT(et.kind == WEFT_EXTERN_TABLE && et.table_elem == WEFT_FUNCREF && et.limits.min == 2 &&
          et.limits.has_max && et.limits.max == 10);
    EXPECT(weft_module_import(mod, 0, NULL, NULL, &et) == WEFT_OK);
    EXPECT(et.kind == WEFT_EXTERN_FUNC && et.func.nparams == 1 && et.func.params[0] == WEFT_I32 &&
          et.func.nresults == 1);
    EXPECT(weft_module_import(mod, 3, NULL, NULL, &et) == WEFT_OK);
    EXPECT(et.kind == WEFT_EXTERN_GLOBAL && et.global_type == WEFT_I32 && et.global_mutable);
    EXPECT(weft_module_import(mod, 6, NULL, NULL, &et) == WEFT_ERR_NOT_FOUND);
    EXPECT(weft_module_export_count(mod) == 2);

    /* Unknown import: the first missing one is named. */
    weft_linker *l = weft_linker_new(s);
    EXPECT(weft_linker_instantiate(l, mod, &inst, &err) == WEFT_ERR_LINK && inst == NULL);
    EXPECT_HAS(err.message, "unknown import");
    EXPECT_HAS(err.message, "\"env\".\"f\"");
    EXPECT(weft_linker_define(l, "env", "f", ext_func(fx.f)) == WEFT_OK);
    EXPECT(weft_linker_instantiate(l, mod, &inst, &err) == WEFT_ERR_LINK);
    EXPECT_HAS(err.message, "unknown import: \"env\".\"t\"");
    EXPECT(weft_linker_define(l, "env", "f", ext_func(make_func(other, "i", "i"))) ==
          WEFT_ERR_MISUSE);
    weft_linker_free(l);

    /* Incompatible types, one import at a time (§4.5.3). */
#define INCOMPATIBLE(name, ext) expect_incompatible(s, mod, &fx, name, ext, __LINE__)
    weft_table *t;
    weft_memory *m;
    weft_global *g;
    INCOMPATIBLE("f", ext_func(make_func(s, "I", "i")));       /* param type */
    INCOMPATIBLE("f", ext_func(make_func(s, "i", "")));        /* result count */
    INCOMPATIBLE("f", ext_func(make_func(s, "i", "ii")));
    INCOMPATIBLE("f", ext_mem(fx.m));                          /* kind */
    INCOMPATIBLE("f", ext_global(fx.g));
    EXPECT(weft_table_new(s, WEFT_EXTERNREF, lim(2, 10), &t, &err) == WEFT_OK);
    INCOMPATIBLE("t", ext_table(t));                           /* element type */
    EXPECT(weft_table_new(s, WEFT_FUNCREF, lim(1, 10), &t, &err) == WEFT_OK);
    INCOMPATIBLE("t", ext_table(t));                           /* min too small */
    EXPECT(weft_table_new(s, WEFT_FUNCREF, lim(2, -1), &t, &err) == WEFT_OK);
    INCOMPATIBLE("t", ext_table(t));                           /* no max */
    EXPECT(weft_table_new(s, WEFT_FUNCREF, lim(2, 11), &t, &err) == WEFT_OK);
    INCOMPATIBLE("t", ext_table(t));                           /* max too large */
    INCOMPATIBLE("t", ext_mem(fx.m));
    EXPECT(weft_memory_new(s, lim(1, -1), &m, &err) == WEFT_OK);
    INCOMPATIBLE("m", ext_mem(m));                             /* no max */
    EXPECT(weft_memory_new(s, lim(1, 5), &m, &err) == WEFT_OK);
    INCOMPATIBLE("m", ext_mem(m));                             /* max too large */
    EXPECT(weft_memory_new(s, lim(0, 4), &m, &err) == WEFT_OK);
    INCOMPATIBLE("m", ext_mem(m));                             /* min too small */
    weft_limits sl = lim(1, 4);
    sl.shared = true;
    EXPECT(weft_memory_new(s, sl, &m, &err) == WEFT_OK);
    INCOMPATIBLE("m", ext_mem(m));                             /* shared */
    INCOMPATIBLE("m", ext_table(fx.t));
    EXPECT(weft_global_new(s, val_i32(1), false, &g, &err) == WEFT_OK);
    INCOMPATIBLE("g", ext_global(g));                          /* mutability */
    EXPECT(weft_global_new(s, val_i64(1), true, &g, &err) == WEFT_OK);
    INCOMPATIBLE("g", ext_global(g));                          /* type */
    EXPECT(weft_global_new(s, val_i64(1), true, &g, &err) == WEFT_OK);
    INCOMPATIBLE("c", ext_global(g));                          /* mutability */
    INCOMPATIBLE("x", ext_table(fx.t));                        /* element type */
#undef INCOMPATIBLE

    /* The message says both types. */
    l = weft_linker_new(s);
    define_imports(l, &fx);
    EXPECT(weft_linker_define(l, "env", "f", ext_func(make_func(s, "I", ""))) == WEFT_OK);
    EXPECT(weft_linker_instantiate(l, mod, &inst, &err) == WEFT_ERR_LINK);
    EXPECT_HAS(err.message, "(func (param i32) (result i32))");
    EXPECT_HAS(err.message, "(func (param i64))");
    weft_linker_free(l);

    /* Compatible by subtyping: larger min, smaller max; a grown table and
       memory match through their current size. */
    l = weft_linker_new(s);
    define_imports(l, &fx);
    EXPECT(weft_table_new(s, WEFT_FUNCREF, lim(1, 9), &t, &err) == WEFT_OK);
    EXPECT(rt_table_grow(t, 2, NULL) == 1);
    EXPECT(weft_memory_new(s, lim(0, 3), &m, &err) == WEFT_OK);
    EXPECT(rt_memory_grow(m, 2) == 0);
    EXPECT(weft_linker_define(l, "env", "t", ext_table(t)) == WEFT_OK);
    EXPECT(weft_linker_define(l, "env", "m", ext_mem(m)) == WEFT_OK);
    EXPECT(weft_linker_instantiate(l, mod, &inst, &err) == WEFT_OK && inst != NULL);
    if (inst) {
        EXPECT(inst->tables[0] == t && inst->mems[0] == m && inst->mem0 == m);
        EXPECT(inst->funcs[0] == fx.f && inst->globals[0] == fx.g && inst->globals[1] == fx.c);
        EXPECT(inst->tables[1] == fx.x);
        EXPECT(weft_instance_func(inst, "f") == fx.f); /* re-exported import */
        weft_func *own = weft_instance_func(inst, "own");
        EXPECT(own && own->inst == inst && own->index == 1 && own->host == NULL);
        EXPECT(own && mod_functype_equal(own->type, fx.f->type));
        weft_extern ex;
        EXPECT(weft_instance_export(inst, "nope", &ex) == WEFT_ERR_NOT_FOUND);
        EXPECT(weft_instance_func(inst, "nope") == NULL);
        EXPECT(weft_instance_module(inst) == mod);
    }
    weft_linker_free(l);

    /* Direct weft_instance_new: counts and stores are misuse. */
    weft_extern ok[6] = {ext_func(fx.f), ext_table(fx.t), ext_mem(fx.m),
                         ext_global(fx.g), ext_global(fx.c), ext_table(fx.x)};
    EXPECT(weft_instance_new(s, mod, ok, 5, &inst, &err) == WEFT_ERR_MISUSE && inst == NULL);
    EXPECT(weft_instance_new(s, mod, ok, 6, &inst, &err) == WEFT_OK && inst != NULL);
    ok[0] = ext_func(make_func(other, "i", "i"));
    EXPECT(weft_instance_new(s, mod, ok, 6, &inst, &err) == WEFT_ERR_MISUSE && inst == NULL);
    EXPECT_HAS(err.message, "another store");
    ok[0] = ext_func(NULL);
    EXPECT(weft_instance_new(s, mod, ok, 6, &inst, &err) == WEFT_ERR_MISUSE);

    weft_module_release(mod); /* instances keep their own references */
    weft_store_free(other);
    weft_store_free(s);
}

/* An active element segment out of bounds traps; the earlier one stays
   written into the imported table, and no data segment is applied. */
static void test_segments_trap(weft_engine *engine) {
    weft_module *mod = load(engine, "runtime_segments");
    weft_module *mod2 = load(engine, "runtime_data_oob");
    if (!mod || !mod2) return;
    weft_store *s = weft_store_new(engine);
    weft_error err;
    weft_table *t;
    weft_memory *m;
    EXPECT(weft_table_new(s, WEFT_FUNCREF, lim(4, -1), &t, &err) == WEFT_OK);
    EXPECT(weft_memory_new(s, lim(1, -1), &m, &err) == WEFT_OK);
    weft_extern imports[2] = {ext_table(t), ext_mem(m)};
    weft_instance *inst = (weft_instance *)1;
    EXPECT(weft_instance_new(s, mod, imports, 2, &inst, &err) == WEFT_ERR_TRAP);
    EXPECT(inst == NULL);
    EXPECT(err.status == WEFT_ERR_TRAP && err.trap == WEFT_TRAP_TABLE_OOB);
    EXPECT_STR(err.message, "out of bounds table access");
    weft_func *a = t->elems[0], *b = t->elems[1];
    EXPECT(a != NULL && b != NULL && t->elems[2] == NULL && t->elems[3] == NULL);
    if (a && b) {
        /* Functions of the half-made instance, which the store keeps. */
        EXPECT(a->inst != NULL && a->inst == b->inst && a->index == 0 && b->index == 1);
        EXPECT(a->type->nparams == 0 && a->type->nresults == 1 && a->type->results[0] == WEFT_I32);
        EXPECT(a->inst->module == mod);
    }
    EXPECT(weft_memory_data(m)[0] == 0 && weft_memory_data(m)[1] == 0);

    /* Data segments: the first is written, the second traps. */
    weft_extern imp2[1] = {ext_mem(m)};
    EXPECT(weft_instance_new(s, mod2, imp2, 1, &inst, &err) == WEFT_ERR_TRAP && inst == NULL);
    EXPECT(err.trap == WEFT_TRAP_MEM_OOB);
    EXPECT_STR(err.message, "out of bounds memory access");
    EXPECT(memcmp(weft_memory_data(m) + 10, "abc", 3) == 0);
    EXPECT(weft_memory_data(m)[65535] == 0);
    /* After growth the same module fits. */
    EXPECT(rt_memory_grow(m, 1) == 1);
    EXPECT(weft_instance_new(s, mod2, imp2, 1, &inst, &err) == WEFT_OK && inst != NULL);
    EXPECT(memcmp(weft_memory_data(m) + 65535, "zz", 2) == 0);

    weft_module_release(mod);
    weft_module_release(mod2);
    weft_store_free(s);
}

/* Own objects, exports, constant expressions, segment modes. */
static void test_definitions(weft_engine *engine) {
    weft_module *mod = load(engine, "runtime_defs");
    weft_module *user = load(engine, "runtime_user");
    if (!mod || !user) return;
    weft_store *s = weft_store_new(engine);
    weft_error err;
    weft_global *base;
    EXPECT(weft_global_new(s, val_i32(1), false, &base, &err) == WEFT_OK);
    weft_extern imports[1] = {ext_global(base)};
    weft_instance *inst = NULL, *inst2 = NULL;
    EXPECT(weft_instance_new(s, mod, imports, 1, &inst, &err) == WEFT_OK && inst);
    EXPECT(weft_instance_new(s, mod, imports, 1, &inst2, &err) == WEFT_OK && inst2);
    if (!inst || !inst2) goto out;

    weft_func *one = weft_instance_func(inst, "one"), *two = weft_instance_func(inst, "two");
    EXPECT(one && two && one->index == 0 && two->index == 1 && one->inst == inst);
    EXPECT(one == inst->funcs[0] && one == &inst->own_funcs[0]);

    weft_extern ex;
    EXPECT(rt_instance_export_n(inst, "onex", 3, &ex) == WEFT_OK && ex.of.func == one);
    EXPECT(rt_instance_export_n(inst, "on", 2, &ex) == WEFT_ERR_NOT_FOUND);
    EXPECT(weft_instance_export(inst, "tab", &ex) == WEFT_OK && ex.kind == WEFT_EXTERN_TABLE);
    weft_table *tab = ex.of.table;
    EXPECT(weft_table_size(tab) == 3 && tab->max == 8);
    EXPECT(tab->elems[0] == NULL && tab->elems[1] == one && tab->elems[2] == two);
    EXPECT(weft_instance_export(inst, "ext", &ex) == WEFT_OK && ex.kind == WEFT_EXTERN_TABLE);
    EXPECT(weft_table_elem_type(ex.of.table) == WEFT_EXTERNREF && weft_table_size(ex.of.table) == 2);

    EXPECT(weft_instance_export(inst, "mem", &ex) == WEFT_OK && ex.kind == WEFT_EXTERN_MEMORY);
    weft_memory *mem = ex.of.memory;
    EXPECT(mem == inst->mem0 && weft_memory_size(mem) == RT_PAGE_SIZE);
    EXPECT(memcmp(weft_memory_data(mem) + 100, "weft", 4) == 0);
    EXPECT(weft_memory_limits(mem).has_max && weft_memory_limits(mem).max == 3);
    EXPECT(inst2->mem0 != mem && weft_memory_data(inst2->mem0) != weft_memory_data(mem));

    EXPECT(weft_instance_export(inst, "g0", &ex) == WEFT_OK && ex.kind == WEFT_EXTERN_GLOBAL);
    EXPECT(weft_global_get(ex.of.global).of.i32 == 1 && !weft_global_mutable(ex.of.global));
    EXPECT(weft_instance_export(inst, "g1", &ex) == WEFT_OK);
    EXPECT(weft_global_get(ex.of.global).of.i64 == -5 && weft_global_mutable(ex.of.global));
    EXPECT(weft_global_set(ex.of.global, val_i64(9)) == WEFT_OK);
    EXPECT(weft_instance_export(inst, "g2", &ex) == WEFT_OK);
    EXPECT(weft_global_get(ex.of.global).of.f32_bits == 0x7FA00001u);
    EXPECT(weft_instance_export(inst, "g3", &ex) == WEFT_OK);
    EXPECT(weft_global_get(ex.of.global).type == WEFT_FUNCREF);
    EXPECT(weft_global_get(ex.of.global).of.func == two);
    EXPECT(weft_instance_export(inst, "g4", &ex) == WEFT_OK);
    EXPECT(weft_global_get(ex.of.global).type == WEFT_EXTERNREF);
    EXPECT(weft_global_get(ex.of.global).of.externref == NULL);
    EXPECT(inst->globals[0] == base);

    /* Segment instances: active and declarative dropped, passive kept. */
    EXPECT(inst->elem_len[0] == 0 && inst->elem_len[2] == 0);
    EXPECT(inst->elem_len[1] == 3);
    EXPECT(inst->elem_refs[1][0] == two && inst->elem_refs[1][1] == one &&
          inst->elem_refs[1][2] == two);
    EXPECT(inst->elem_len[3] == 2);
    EXPECT(inst->elem_refs[3][0] == NULL && inst->elem_refs[3][1] == one);
    EXPECT(inst->data_len[0] == 0 && inst->data_len[1] == 7);

    /* Module info. */
    EXPECT(weft_module_export_count(mod) == 10);
    weft_name name;
    weft_externtype et;
    EXPECT(weft_module_export(mod, 0, &name, &et) == WEFT_OK);
    EXPECT(weft_name_is(name, "tab"));
    EXPECT(et.kind == WEFT_EXTERN_TABLE && et.table_elem == WEFT_FUNCREF && et.limits.min == 3 &&
          et.limits.max == 8);
    EXPECT(weft_module_export(mod, 2, &name, &et) == WEFT_OK);
    EXPECT(et.kind == WEFT_EXTERN_MEMORY && et.limits.min == 1 && et.limits.max == 3);
    EXPECT(weft_module_export(mod, 4, &name, &et) == WEFT_OK);
    EXPECT(weft_name_is(name, "g1"));
    EXPECT(et.kind == WEFT_EXTERN_GLOBAL && et.global_type == WEFT_I64 && et.global_mutable);
    EXPECT(weft_module_export(mod, 8, &name, &et) == WEFT_OK);
    EXPECT(et.kind == WEFT_EXTERN_FUNC && et.func.nparams == 0 && et.func.nresults == 1);
    EXPECT(weft_module_export(mod, 10, &name, &et) == WEFT_ERR_NOT_FOUND);
    EXPECT_STR(weft_module_func_name(mod, 1), "two");
    EXPECT(weft_module_func_name(mod, 2) == NULL);

    /* A linker with the instance's exports feeds another module. */
    weft_linker *l = weft_linker_new(s);
    EXPECT(weft_linker_define_instance(l, "defs", inst) == WEFT_OK);
    weft_instance *u = NULL;
    EXPECT(weft_linker_instantiate(l, user, &u, &err) == WEFT_OK && u);
    if (u) {
        EXPECT(u->mem0 == mem && u->funcs[0] == two && u->tables[0] == tab);
        EXPECT(weft_global_get(u->globals[0]).of.i64 == 9);
    }
    /* Redefinition replaces: now "defs" names inst2's objects. */
    EXPECT(weft_linker_define_instance(l, "defs", inst2) == WEFT_OK);
    EXPECT(weft_linker_instantiate(l, user, &u, &err) == WEFT_OK && u);
    if (u) EXPECT(u->mem0 == inst2->mem0 && u->funcs[0] == weft_instance_func(inst2, "two"));
    weft_linker_free(l);

out:
    weft_module_release(mod);
    weft_module_release(user);
    weft_store_free(s);
}

int main(void) {
    weft_engine *engine = weft_engine_new(NULL);
    test_names();
    test_engine();
    test_memory(engine);
    test_memory_pool();
    test_memory_engine_cap();
    test_spin_gate();
    test_table();
    test_global();
    test_func();
    test_func_trap(engine);
    test_import_matching(engine);
    test_bottom_types(engine);
    test_nul_names(engine);
    test_segments_trap(engine);
    test_definitions(engine);
    weft_engine_free(engine);
    return check_summary("runtime_test");
}
