/*
 * lazy_test.c — lazy translation (compile/code.h, cmp_func_code): bodies
 * are validated at load and compiled on their first call, once, whichever
 * path the call takes (a call within the module, call_indirect through a
 * table, the host); threads racing on a first call compile it once; and a
 * module invalid in one body deep inside is still refused at load, with
 * the compiler's wording and the spec's order (malformed before invalid).
 *
 * Modules are generated here, so their sizes are whatever the test needs.
 * Exits 0 when every check passes.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compile/code.h"
#include "runtime/runtime.h"

#include "check.h"

/* ---- a tiny module writer ---- */

typedef struct buf {
    uint8_t *p;
    size_t len, cap;
} buf;

static void put(buf *b, const void *data, size_t n) {
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2 + 64;
        b->p = realloc(b->p, b->cap);
        if (!b->p) abort();
    }
    memcpy(b->p + b->len, data, n);
    b->len += n;
}
static void put8(buf *b, uint8_t v) { put(b, &v, 1); }
static void uleb(buf *b, uint64_t v) {
    do {
        uint8_t byte = v & 0x7F;
        v >>= 7;
        put8(b, byte | (v ? 0x80 : 0));
    } while (v);
}
static void sleb(buf *b, int64_t v) {
    for (;;) {
        uint8_t byte = v & 0x7F;
        v >>= 7;
        if ((v == 0 && !(byte & 0x40)) || (v == -1 && (byte & 0x40))) {
            put8(b, byte);
            return;
        }
        put8(b, byte | 0x80);
    }
}
static void section(buf *out, uint8_t id, buf *body) {
    put8(out, id);
    uleb(out, body->len);
    put(out, body->p, body->len);
    body->len = 0;
}

/* What body k holds. */
typedef enum {
    BODY_ADD_K,     /* x + k */
    BODY_BIG,       /* x + `big` ones, then + k: slow enough to compile that racers meet */
    BODY_CHAIN,     /* f1(x) + table[2](x): a call and a call_indirect */
    BODY_INVALID,   /* i32.add on an i64: type mismatch */
    BODY_MALFORMED, /* an illegal opcode */
    BODY_SIMD_BAD,  /* i8x16.neg on an i32: left to the compiler, which refuses it */
    BODY_CALL_NEXT, /* f<k+1>(x) */
    BODY_BIG_FRAME, /* 20,000 i64 locals: a 160 KB frame */
} body_kind;

typedef struct spec {
    uint32_t nfuncs;
    body_kind (*kind)(uint32_t k, const void *env);
    const void *env;
    uint32_t big;
} spec;

/* Every function has type (i32) -> i32 and is exported as "f<k>"; a
   funcref table holds them all, in order. */
static buf make_module(const spec *s) {
    buf out = {0}, sec = {0};
    put(&out, "\0asm\1\0\0\0", 8);
    /* types: (i32) -> i32 */
    uleb(&sec, 1);
    put(&sec, "\x60\x01\x7f\x01\x7f", 5);
    section(&out, 1, &sec);
    uleb(&sec, s->nfuncs);
    for (uint32_t k = 0; k < s->nfuncs; k++) uleb(&sec, 0);
    section(&out, 3, &sec);
    uleb(&sec, 1); /* a table of nfuncs funcrefs */
    put8(&sec, 0x70);
    put8(&sec, 0x00);
    uleb(&sec, s->nfuncs);
    section(&out, 4, &sec);
    uleb(&sec, s->nfuncs);
    for (uint32_t k = 0; k < s->nfuncs; k++) {
        char name[16];
        int n = snprintf(name, sizeof name, "f%u", k);
        uleb(&sec, (uint64_t)n);
        put(&sec, name, (size_t)n);
        put8(&sec, 0x00);
        uleb(&sec, k);
    }
    section(&out, 7, &sec);
    uleb(&sec, 1); /* elem: active, table 0, offset 0, every function */
    put8(&sec, 0x00);
    put(&sec, "\x41\x00\x0b", 3);
    uleb(&sec, s->nfuncs);
    for (uint32_t k = 0; k < s->nfuncs; k++) uleb(&sec, k);
    section(&out, 9, &sec);
    uleb(&sec, s->nfuncs);
    buf body = {0};
    for (uint32_t k = 0; k < s->nfuncs; k++) {
        body.len = 0;
        body_kind kind = s->kind(k, s->env);
        if (kind == BODY_BIG_FRAME) put(&body, "\x01\xa0\x9c\x01\x7e", 5); /* 20000 x i64 */
        else put8(&body, 0); /* no locals beyond the parameter */
        switch (kind) {
        case BODY_ADD_K:
            put(&body, "\x20\x00\x41", 3);
            sleb(&body, k);
            put8(&body, 0x6a);
            break;
        case BODY_BIG:
            put(&body, "\x20\x00", 2);
            for (uint32_t i = 0; i < s->big; i++) put(&body, "\x41\x01\x6a", 3);
            put8(&body, 0x41);
            sleb(&body, k);
            put8(&body, 0x6a);
            break;
        case BODY_CHAIN: /* local.get 0, call 1, local.get 0, i32.const 2, call_indirect 0 0, i32.add */
            put(&body, "\x20\x00\x10\x01\x20\x00\x41\x02\x11\x00\x00\x6a", 12);
            break;
        case BODY_INVALID:
            put(&body, "\x20\x00\x42\x01\x6a", 5);
            break;
        case BODY_MALFORMED:
            put(&body, "\x20\x00\xff", 3);
            break;
        case BODY_SIMD_BAD:
            put(&body, "\x20\x00\xfd\x61\x1a\x20\x00", 7);
            break;
        case BODY_CALL_NEXT:
            put(&body, "\x20\x00\x10", 3);
            uleb(&body, k + 1);
            break;
        case BODY_BIG_FRAME:
            put(&body, "\x20\x00", 2);
            break;
        }
        put8(&body, 0x0b);
        uleb(&sec, body.len);
        put(&sec, body.p, body.len);
    }
    section(&out, 10, &sec);
    free(body.p);
    free(sec.p);
    return out;
}

static uint32_t compiled(const weft_module *m) {
    return atomic_load_explicit(&m->ncompiled, memory_order_relaxed);
}

static int32_t call_i32(weft_instance *inst, const char *name, int32_t x, weft_status *st) {
    weft_func *f = weft_instance_func(inst, name);
    weft_val arg = {.type = WEFT_I32, .of.i32 = x}, res = {0};
    weft_error err;
    *st = f ? weft_func_call(f, &arg, 1, &res, 1, &err) : WEFT_ERR_NOT_FOUND;
    if (*st != WEFT_OK) fprintf(stderr, "call %s: %s\n", name, f ? err.message : "no such export");
    return res.of.i32;
}

/* ---- first calls by every path ---- */

static body_kind kind_chain(uint32_t k, const void *env) {
    (void)env;
    return k == 0 ? BODY_CHAIN : BODY_ADD_K;
}

static void test_first_calls(void) {
    spec s = {.nfuncs = 9, .kind = kind_chain};
    buf bin = make_module(&s);
    weft_engine *engine = weft_engine_new(NULL);
    weft_module *m = NULL;
    weft_error err;
    EXPECT(weft_module_load(engine, bin.p, bin.len, &m, &err) == WEFT_OK);
    if (!m) return;
    EXPECT(compiled(m) == 0); /* validated, nothing translated */
    weft_store *store = weft_store_new(engine);
    weft_instance *inst = NULL;
    EXPECT(weft_instance_new(store, m, NULL, 0, &inst, &err) == WEFT_OK);
    weft_status st;
    EXPECT(call_i32(inst, "f3", 10, &st) == 13 && st == WEFT_OK); /* from the host */
    EXPECT(compiled(m) == 1);
    EXPECT(call_i32(inst, "f3", 20, &st) == 23 && st == WEFT_OK);
    EXPECT(compiled(m) == 1);
    /* f0 calls f1 directly (the stub in code_table) and f2 through the
       table (the stub in the instance's handle). */
    EXPECT(call_i32(inst, "f0", 10, &st) == 11 + 12 && st == WEFT_OK);
    EXPECT(compiled(m) == 4);
    EXPECT(call_i32(inst, "f0", 1, &st) == 2 + 3 && st == WEFT_OK);
    EXPECT(compiled(m) == 4);
    /* The handles now hold the code itself, not the stubs. */
    EXPECT(!cmp_is_lazy(atomic_load(&inst->funcs[2]->code)));
    EXPECT(cmp_is_lazy(atomic_load(&inst->funcs[5]->code)));
    /* A new instance starts from what is compiled. */
    weft_instance *inst2 = NULL;
    EXPECT(weft_instance_new(store, m, NULL, 0, &inst2, &err) == WEFT_OK);
    if (inst2) {
        EXPECT(!cmp_is_lazy(atomic_load(&inst2->funcs[3]->code)));
        EXPECT(call_i32(inst2, "f8", 1, &st) == 9 && st == WEFT_OK);
        EXPECT(compiled(m) == 5);
    }
    weft_store_free(store);
    weft_module_release(m);

    /* Eager: everything at load, and the same answers. */
    weft_config cfg = {.compile_mode = WEFT_COMPILE_EAGER};
    weft_engine *eager = weft_engine_new(&cfg);
    EXPECT(weft_module_load(eager, bin.p, bin.len, &m, &err) == WEFT_OK);
    if (m) {
        EXPECT(compiled(m) == 9);
        store = weft_store_new(eager);
        EXPECT(weft_instance_new(store, m, NULL, 0, &inst, &err) == WEFT_OK);
        EXPECT(call_i32(inst, "f0", 10, &st) == 23 && st == WEFT_OK);
        EXPECT(compiled(m) == 9);
        weft_store_free(store);
        weft_module_release(m);
    }
    weft_engine_free(eager);
    weft_engine_free(engine);
    free(bin.p);
}

/* ---- threads racing on first calls ---- */

#define RACE_THREADS 4
#define RACE_FUNCS 24

typedef struct racer {
    weft_engine *engine;
    weft_module *m;
    pthread_barrier_t *barrier;
    int wrong;
} racer;

static void *race(void *arg) {
    racer *r = arg;
    weft_store *store = weft_store_new(r->engine);
    weft_instance *inst = NULL;
    weft_error err;
    if (weft_instance_new(store, r->m, NULL, 0, &inst, &err) != WEFT_OK) r->wrong++;
    for (uint32_t k = 0; k < RACE_FUNCS; k++) {
        char name[16];
        snprintf(name, sizeof name, "f%u", k);
        pthread_barrier_wait(r->barrier); /* all first calls of f<k> at once */
        weft_status st = WEFT_ERR_MISUSE;
        int32_t got = inst ? call_i32(inst, name, 5, &st) : 0;
        if (st != WEFT_OK || got != 5 + 300 + (int32_t)k) r->wrong++;
    }
    weft_store_free(store);
    return NULL;
}

static body_kind kind_big(uint32_t k, const void *env) {
    (void)k;
    (void)env;
    return BODY_BIG;
}

static void test_race(void) {
    spec s = {.nfuncs = RACE_FUNCS, .kind = kind_big, .big = 300};
    buf bin = make_module(&s);
    weft_engine *engine = weft_engine_new(NULL);
    weft_module *m = NULL;
    weft_error err;
    EXPECT(weft_module_load(engine, bin.p, bin.len, &m, &err) == WEFT_OK);
    if (!m) return;
    EXPECT(compiled(m) == 0);
    pthread_barrier_t barrier;
    pthread_barrier_init(&barrier, NULL, RACE_THREADS);
    racer r[RACE_THREADS];
    pthread_t t[RACE_THREADS];
    for (int i = 0; i < RACE_THREADS; i++) {
        r[i] = (racer){engine, m, &barrier, 0};
        pthread_create(&t[i], NULL, race, &r[i]);
    }
    int wrong = 0;
    for (int i = 0; i < RACE_THREADS; i++) {
        pthread_join(t[i], NULL);
        wrong += r[i].wrong;
    }
    EXPECT(wrong == 0);
    /* Each function compiled exactly once, however the racers met. */
    EXPECT(compiled(m) == RACE_FUNCS);
    pthread_barrier_destroy(&barrier);
    weft_module_release(m);
    weft_engine_free(engine);
    free(bin.p);
}

/* ---- an invalid body deep in a big module ---- */

typedef struct bad_at {
    uint32_t at;
    body_kind what;
    uint32_t at2; /* a second bad body, or UINT32_MAX */
    body_kind what2;
} bad_at;

static body_kind kind_bad(uint32_t k, const void *env) {
    const bad_at *b = env;
    if (k == b->at) return b->what;
    if (k == b->at2) return b->what2;
    return BODY_ADD_K;
}

static weft_status load_with(const bad_at *b, uint32_t mode, weft_error *err, uint32_t *ncompiled) {
    spec s = {.nfuncs = 20000, .kind = kind_bad, .env = b};
    buf bin = make_module(&s);
    weft_config cfg = {.compile_mode = mode};
    weft_engine *engine = weft_engine_new(&cfg);
    weft_module *m = NULL;
    weft_status st = weft_module_load(engine, bin.p, bin.len, &m, err);
    if (ncompiled) *ncompiled = m ? compiled(m) : UINT32_MAX;
    weft_module_release(m);
    weft_engine_free(engine);
    free(bin.p);
    return st;
}

static void test_invalid_deep(void) {
    weft_error err, eager_err;
    uint32_t n;
    bad_at none = {UINT32_MAX, BODY_ADD_K, UINT32_MAX, BODY_ADD_K};
    EXPECT(load_with(&none, WEFT_COMPILE_LAZY, &err, &n) == WEFT_OK && n == 0);

    bad_at invalid = {19990, BODY_INVALID, UINT32_MAX, BODY_ADD_K};
    EXPECT(load_with(&invalid, WEFT_COMPILE_LAZY, &err, NULL) == WEFT_ERR_INVALID);
    EXPECT(err.func_index == 19990 && strstr(err.message, "type mismatch"));
    /* Word for word what eager compilation says. */
    EXPECT(load_with(&invalid, WEFT_COMPILE_EAGER, &eager_err, NULL) == WEFT_ERR_INVALID);
    EXPECT(strcmp(err.message, eager_err.message) == 0);

    /* Decoding precedes validation (§5 before §3): a malformed body after
       the invalid one makes the module malformed. */
    bad_at both = {19990, BODY_INVALID, 19995, BODY_MALFORMED};
    EXPECT(load_with(&both, WEFT_COMPILE_LAZY, &err, NULL) == WEFT_ERR_MALFORMED);
    EXPECT(err.func_index == 19995);
    EXPECT(load_with(&both, WEFT_COMPILE_EAGER, &eager_err, NULL) == WEFT_ERR_MALFORMED);
    EXPECT(strcmp(err.message, eager_err.message) == 0);

    /* One the fast pass leaves to the compiler (SIMD), and the last body. */
    bad_at simd = {19999, BODY_SIMD_BAD, UINT32_MAX, BODY_ADD_K};
    EXPECT(load_with(&simd, WEFT_COMPILE_LAZY, &err, NULL) == WEFT_ERR_INVALID);
    EXPECT(err.func_index == 19999);
    bad_at first = {0, BODY_MALFORMED, UINT32_MAX, BODY_ADD_K};
    EXPECT(load_with(&first, WEFT_COMPILE_LAZY, &err, NULL) == WEFT_ERR_MALFORMED && err.func_index == 0);
}

/* ---- a first call whose frame does not fit ---- */

static body_kind kind_frame(uint32_t k, const void *env) {
    (void)env;
    return k == 0 ? BODY_CALL_NEXT : BODY_BIG_FRAME;
}

/* f0 calls f1, whose frame is bigger than the whole stack: the stub is
   entered (its frame is empty), and the LAZY operation must then trap as
   `enter` does for compiled code, at the call. */
static void test_frame_too_big(void) {
    spec s = {.nfuncs = 2, .kind = kind_frame};
    buf bin = make_module(&s);
    for (uint32_t mode = WEFT_COMPILE_LAZY; mode <= WEFT_COMPILE_EAGER; mode++) {
        weft_config cfg = {.max_stack_bytes = 64 << 10, .compile_mode = mode};
        weft_engine *engine = weft_engine_new(&cfg);
        weft_module *m = NULL;
        weft_error err;
        EXPECT(weft_module_load(engine, bin.p, bin.len, &m, &err) == WEFT_OK);
        if (!m) continue;
        weft_store *store = weft_store_new(engine);
        weft_instance *inst = NULL;
        EXPECT(weft_instance_new(store, m, NULL, 0, &inst, &err) == WEFT_OK);
        weft_func *f = inst ? weft_instance_func(inst, "f0") : NULL;
        weft_val arg = {.type = WEFT_I32, .of.i32 = 1}, res;
        for (int round = 0; round < 2 && f; round++) { /* compiling, then compiled */
            weft_status st = weft_func_call(f, &arg, 1, &res, 1, &err);
            EXPECT(st == WEFT_ERR_TRAP && err.trap == WEFT_TRAP_STACK_EXHAUSTED);
            EXPECT(err.frame_count >= 1 && err.frames[0].func_index == 0); /* at the call in f0 */
        }
        weft_store_free(store);
        weft_module_release(m);
        weft_engine_free(engine);
    }
    free(bin.p);
}

/* ---- a binary in a buffer of its own (base_bulk_alloc) ---- */

static body_kind kind_last_big(uint32_t k, const void *env) {
    (void)env;
    return k == 3 ? BODY_BIG : BODY_ADD_K;
}

/* A binary of BASE_BULK_MIN bytes or more, whose last body is most of
   it, loaded from a file and from memory: its bodies are read from the
   module's copy at load (validation) and at the first call (compilation),
   and the copy goes back with the module (ASan and valgrind see a wrong
   size or a free of mapped memory). */
static void test_big_binary(void) {
    spec s = {.nfuncs = 4, .kind = kind_last_big, .big = (uint32_t)(BASE_BULK_MIN / 3) + 1000};
    buf bin = make_module(&s);
    EXPECT(bin.len > BASE_BULK_MIN);
    char path[] = "/tmp/weft-lazy-XXXXXX";
    int fd = mkstemp(path);
    CHECK(fd >= 0, "mkstemp");
    FILE *f = fdopen(fd, "wb");
    CHECK(f && fwrite(bin.p, 1, bin.len, f) == bin.len && fclose(f) == 0, "write %s", path);
    weft_engine *engine = weft_engine_new(NULL);
    for (int from_file = 0; from_file < 2; from_file++) {
        weft_module *m = NULL;
        weft_error err;
        weft_status st = from_file ? weft_module_load_file(engine, path, &m, &err)
                                   : weft_module_load(engine, bin.p, bin.len, &m, &err);
        EXPECTF(st == WEFT_OK, "load %s: %s", from_file ? "file" : "memory", err.message);
        if (!m) continue;
        EXPECT(m->len == bin.len && memcmp(m->bytes, bin.p, bin.len) == 0);
        weft_store *store = weft_store_new(engine);
        weft_instance *inst = NULL;
        EXPECT(weft_instance_new(store, m, NULL, 0, &inst, &err) == WEFT_OK);
        EXPECT(call_i32(inst, "f3", 5, &st) == (int32_t)(5 + s.big + 3) && st == WEFT_OK);
        EXPECT(call_i32(inst, "f1", 5, &st) == 6 && st == WEFT_OK);
        weft_store_free(store);
        weft_module_release(m);
    }
    weft_engine_free(engine);
    unlink(path);
    free(bin.p);
}

int main(void) {
    test_big_binary();
    test_first_calls();
    test_frame_too_big();
    test_race();
    test_invalid_deep();
    return check_summary("lazy_test");
}
