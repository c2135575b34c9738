/*
 * shapes_test.c — every small function shape loads and runs without a
 * signal (issue 8: about 1 in 80 small valid shapes crashed the compiler,
 * in the copy-merging of src/compile/compile.c).
 *
 * A shape is a function body P1 P2 T: P1 and P2 are two of a few dozen
 * instruction patterns, each pushing one i32 ("values") or nothing
 * ("statements", some of which end reachability: unreachable, br, an
 * endless loop), and T is a terminal that consumes what they pushed with
 * local.set, local.tee or select. Each body is built twice, in a function
 * without results and in one returning local 0. Every module is valid by
 * construction (checked once by hand with wabt's wasm-validate over the
 * files SHAPES_DUMP=DIR writes), so each must load; each body without an
 * endless loop is also called, and must return or trap.
 *
 * First, the three shapes of the issue, verbatim: they load, and run to
 * their spec'd end (the endless loop is suspended and resumed, then
 * stopped, through the attention word: no timing involved).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "weft.h"

#include "check.h"

typedef struct pattern {
    const char *name;
    int values;           /* i32s it leaves on the stack: 0 or 1 */
    bool endless;         /* never finishes when run */
    uint8_t len;
    uint8_t code[16];
} pattern;

#define P(name, values, endless, ...)                                         \
    {name, values, endless, sizeof((uint8_t[]){__VA_ARGS__}), {__VA_ARGS__}}

/* Function 0 returns i32 42; the table has one (null) funcref; global 0
   is a mutable i32; memory 0 has one page. */
static const pattern patterns[] = {
    P("i32.const", 1, false, 0x41, 0x05),
    P("local.get 0", 1, false, 0x20, 0x00),
    P("local.get 1", 1, false, 0x20, 0x01),
    P("memory.size", 1, false, 0x3F, 0x00),
    P("memory.grow", 1, false, 0x41, 0x00, 0x40, 0x00),
    P("global.get", 1, false, 0x23, 0x00),
    P("call", 1, false, 0x10, 0x00),
    P("call_indirect", 1, false, 0x41, 0x00, 0x11, 0x01, 0x00),
    P("i32.load", 1, false, 0x41, 0x00, 0x28, 0x02, 0x00),
    P("i32.load8_u of a sum", 1, false, 0x20, 0x00, 0x41, 0x04, 0x6A, 0x2D, 0x00, 0x00),
    P("i32.add consts", 1, false, 0x41, 0x01, 0x41, 0x02, 0x6A),
    P("i32.add local const", 1, false, 0x20, 0x00, 0x41, 0x01, 0x6A),
    P("i32.sub locals", 1, false, 0x20, 0x00, 0x20, 0x01, 0x6B),
    P("i32.shr_u and", 1, false, 0x20, 0x00, 0x41, 0x03, 0x76, 0x41, 0x07, 0x71),
    P("local.tee 0", 1, false, 0x41, 0x03, 0x22, 0x00),
    P("i32.eqz", 1, false, 0x20, 0x00, 0x45),
    P("i32.lt_s", 1, false, 0x20, 0x00, 0x41, 0x0A, 0x48),
    P("select", 1, false, 0x41, 0x01, 0x41, 0x02, 0x20, 0x00, 0x1B),
    P("i32.wrap_i64", 1, false, 0x42, 0x07, 0xA7),
    P("ref.is_null", 1, false, 0xD0, 0x70, 0xD1),
    P("block result", 1, false, 0x02, 0x7F, 0x41, 0x01, 0x0B),
    P("loop result", 1, false, 0x03, 0x7F, 0x41, 0x01, 0x0B),
    P("if else result", 1, false, 0x20, 0x00, 0x04, 0x7F, 0x41, 0x02, 0x05, 0x41, 0x03, 0x0B),
    P("block br value", 1, false, 0x02, 0x7F, 0x41, 0x01, 0x0C, 0x00, 0x0B),
    P("block br_if value", 1, false, 0x02, 0x7F, 0x41, 0x01, 0x20, 0x00, 0x0D, 0x00, 0x0B),
    P("nop", 0, false, 0x01),
    P("memory.size drop", 0, false, 0x3F, 0x00, 0x1A),
    P("i32.const drop", 0, false, 0x41, 0x01, 0x1A),
    P("call drop", 0, false, 0x10, 0x00, 0x1A),
    P("unreachable", 0, false, 0x00),
    P("local copy", 0, false, 0x20, 0x00, 0x21, 0x01),
    P("global.set", 0, false, 0x41, 0x01, 0x24, 0x00),
    P("i32.store", 0, false, 0x41, 0x00, 0x20, 0x01, 0x36, 0x02, 0x00),
    P("memory.fill", 0, false, 0x41, 0x00, 0x41, 0x00, 0x41, 0x00, 0xFC, 0x0B, 0x00),
    P("block br", 0, false, 0x02, 0x40, 0x0C, 0x00, 0x0B),
    P("empty if", 0, false, 0x20, 0x00, 0x04, 0x40, 0x0B),
    P("br_table", 0, false, 0x02, 0x40, 0x20, 0x00, 0x0E, 0x01, 0x00, 0x00, 0x0B),
    P("loop br_if", 0, false, 0x03, 0x40, 0x20, 0x01, 0x0D, 0x00, 0x0B),
    P("endless loop", 0, true, 0x03, 0x40, 0x0C, 0x00, 0x0B),
};
#define NPATTERNS (sizeof patterns / sizeof patterns[0])

/* Terminals by the number of values below them (0, 1 or 2). */
static const pattern terminals[3][3] = {
    {P("const local.set", 0, false, 0x41, 0x07, 0x21, 0x00),
     P("const local.tee drop", 0, false, 0x41, 0x07, 0x22, 0x00, 0x1A),
     P("select local.set", 0, false, 0x41, 0x01, 0x41, 0x02, 0x20, 0x01, 0x1B, 0x21, 0x00)},
    {P("local.set", 0, false, 0x21, 0x00),
     P("local.tee drop", 0, false, 0x22, 0x00, 0x1A),
     P("select local.set", 0, false, 0x41, 0x02, 0x20, 0x01, 0x1B, 0x21, 0x00)},
    {P("local.set local.set", 0, false, 0x21, 0x00, 0x21, 0x01),
     P("local.tee drop drop", 0, false, 0x22, 0x00, 0x1A, 0x1A),
     P("select local.set", 0, false, 0x20, 0x01, 0x1B, 0x21, 0x00)},
};

typedef struct buf {
    uint8_t b[512];
    size_t n;
} buf;

static void put(buf *o, const uint8_t *p, size_t n) {
    memcpy(o->b + o->n, p, n);
    o->n += n;
}

static void put_byte(buf *o, uint8_t x) { put(o, &x, 1); }

/* A section: id, then its size (under 128: one LEB byte) and contents. */
static void put_section(buf *o, uint8_t id, const buf *contents) {
    put_byte(o, id);
    put_byte(o, (uint8_t)contents->n);
    put(o, contents->b, contents->n);
}

/* The module around `body` (without its final end): function 1 of type 0
   ([] -> []) or 1 ([] -> [i32]) with two i32 locals. */
static void build_module(buf *o, const buf *body, bool returns) {
    static const uint8_t head[] = {0x00, 0x61, 0x73, 0x6D, 0x01, 0x00, 0x00, 0x00};
    static const uint8_t types[] = {0x02, 0x60, 0x00, 0x00, 0x60, 0x00, 0x01, 0x7F};
    static const uint8_t table[] = {0x01, 0x70, 0x00, 0x01};
    static const uint8_t memory[] = {0x01, 0x00, 0x01};
    static const uint8_t global[] = {0x01, 0x7F, 0x01, 0x41, 0x00, 0x0B};
    static const uint8_t exports[] = {0x01, 0x01, 'f', 0x00, 0x01};
    static const uint8_t helper[] = {0x04, 0x00, 0x41, 0x2A, 0x0B};
    buf s;
    o->n = 0;
    put(o, head, sizeof head);
    s.n = 0, put(&s, types, sizeof types), put_section(o, 1, &s);
    s.n = 0, put_byte(&s, 2), put_byte(&s, 1), put_byte(&s, returns ? 1 : 0), put_section(o, 3, &s);
    s.n = 0, put(&s, table, sizeof table), put_section(o, 4, &s);
    s.n = 0, put(&s, memory, sizeof memory), put_section(o, 5, &s);
    s.n = 0, put(&s, global, sizeof global), put_section(o, 6, &s);
    s.n = 0, put(&s, exports, sizeof exports), put_section(o, 7, &s);
    buf code = {.n = 0};
    put_byte(&code, 0x01), put_byte(&code, 0x02), put_byte(&code, 0x7F); /* locals: 2 x i32 */
    put(&code, body->b, body->n);
    if (returns) put_byte(&code, 0x20), put_byte(&code, 0x00);
    put_byte(&code, 0x0B);
    s.n = 0;
    put_byte(&s, 2);
    put(&s, helper, sizeof helper);
    put_byte(&s, (uint8_t)code.n);
    put(&s, code.b, code.n);
    put_section(o, 10, &s);
}

static weft_engine *engine;
static unsigned loaded, ran, trapped;

/* Loads the module; calls its function "f" unless it never ends. */
static void check_shape(const buf *mod, bool endless, const char *what) {
    weft_module *m = NULL;
    weft_error err;
    weft_status st = weft_module_load(engine, mod->b, mod->n, &m, &err);
    EXPECT(st == WEFT_OK);
    if (st != WEFT_OK) {
        fprintf(stderr, "  shape %s: %s\n", what, err.message);
        return;
    }
    loaded++;
    if (!endless) {
        weft_store *s = weft_store_new(engine);
        weft_instance *inst = NULL;
        EXPECT(weft_instance_new(s, m, NULL, 0, &inst, &err) == WEFT_OK);
        weft_func *f = inst ? weft_instance_func(inst, "f") : NULL;
        EXPECT(f != NULL);
        weft_val res[1];
        size_t nres = f ? weft_func_type(f).nresults : 0;
        st = f ? weft_func_call(f, NULL, 0, res, nres, &err) : WEFT_ERR_NOT_FOUND;
        EXPECT(st == WEFT_OK || st == WEFT_ERR_TRAP);
        ran++;
        if (st == WEFT_ERR_TRAP) trapped++;
        weft_store_free(s);
    }
    weft_module_release(m);
}

static void dump(const char *dir, unsigned n, const buf *mod) {
    char path[512];
    snprintf(path, sizeof path, "%s/shape-%05u.wasm", dir, n);
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(mod->b, 1, mod->n, f);
        fclose(f);
    }
}

static void all_shapes(void) {
    const char *dir = getenv("SHAPES_DUMP");
    unsigned n = 0;
    for (size_t i = 0; i < NPATTERNS; i++)
        for (size_t j = 0; j < NPATTERNS; j++)
            for (int t = 0; t < 3; t++)
                for (int returns = 0; returns < 2; returns++) {
                    const pattern *a = &patterns[i], *b = &patterns[j];
                    const pattern *term = &terminals[a->values + b->values][t];
                    buf body = {.n = 0}, mod;
                    put(&body, a->code, a->len);
                    put(&body, b->code, b->len);
                    put(&body, term->code, term->len);
                    build_module(&mod, &body, returns);
                    char what[160];
                    snprintf(what, sizeof what, "%s; %s; %s%s", a->name, b->name, term->name,
                             returns ? "; local.get 0" : "");
                    check_shape(&mod, a->endless || b->endless, what);
                    if (dir) dump(dir, n, &mod);
                    n++;
                }
    printf("shapes: %u built, %u loaded, %u called (%u trapped)\n", n, loaded, ran, trapped);
    EXPECT(loaded == n);
}

/* Export "f" of a module, started on a new execution in a new store. */
typedef struct started {
    weft_module *m;
    weft_store *s;
    weft_exec *e;
} started;

static bool start_f(const uint8_t *bytes, size_t len, started *st) {
    memset(st, 0, sizeof *st);
    EXPECT(weft_module_load(engine, bytes, len, &st->m, NULL) == WEFT_OK);
    if (!st->m) return false;
    st->s = weft_store_new(engine);
    weft_instance *inst = NULL;
    EXPECT(weft_instance_new(st->s, st->m, NULL, 0, &inst, NULL) == WEFT_OK);
    st->e = weft_exec_new(st->s);
    weft_func *f = inst ? weft_instance_func(inst, "f") : NULL;
    EXPECT(st->e && f && weft_exec_start(st->e, f, NULL, 0) == WEFT_OK);
    return true;
}

static void finish(started *st) {
    weft_exec_free(st->e);
    weft_store_free(st->s);
    weft_module_release(st->m);
}

/* The issue's three modules, assembled by hand (wasm2wat gives back the
   text in each comment). */
static void issue_shapes(void) {
    /* (memory 1) (func (export "f") (local i32) memory.size drop i32.const 5 local.set 0) */
    static const uint8_t a[] = {0x00, 0x61, 0x73, 0x6D, 0x01, 0x00, 0x00, 0x00, 0x01, 0x04, 0x01,
                                0x60, 0x00, 0x00, 0x03, 0x02, 0x01, 0x00, 0x05, 0x03, 0x01, 0x00,
                                0x01, 0x07, 0x05, 0x01, 0x01, 'f',  0x00, 0x00, 0x0A, 0x0D, 0x01,
                                0x0B, 0x01, 0x01, 0x7F, 0x3F, 0x00, 0x1A, 0x41, 0x05, 0x21, 0x00,
                                0x0B};
    /* (func (export "f") (result i32) (loop (br 0)) (i32.const 0)) */
    static const uint8_t b[] = {0x00, 0x61, 0x73, 0x6D, 0x01, 0x00, 0x00, 0x00, 0x01, 0x05,
                                0x01, 0x60, 0x00, 0x01, 0x7F, 0x03, 0x02, 0x01, 0x00, 0x07,
                                0x05, 0x01, 0x01, 'f',  0x00, 0x00, 0x0A, 0x0B, 0x01, 0x09,
                                0x00, 0x03, 0x40, 0x0C, 0x00, 0x0B, 0x41, 0x00, 0x0B};
    /* (func (export "f") (local i32) unreachable unreachable i32.const 2 local.set 0) */
    static const uint8_t c[] = {0x00, 0x61, 0x73, 0x6D, 0x01, 0x00, 0x00, 0x00, 0x01, 0x04, 0x01,
                                0x60, 0x00, 0x00, 0x03, 0x02, 0x01, 0x00, 0x07, 0x05, 0x01, 0x01,
                                'f',  0x00, 0x00, 0x0A, 0x0C, 0x01, 0x0A, 0x01, 0x01, 0x7F, 0x00,
                                0x00, 0x41, 0x02, 0x21, 0x00, 0x0B};
    started st;
    weft_error err;
    if (start_f(a, sizeof a, &st)) {
        EXPECT(weft_exec_run(st.e, &err) == WEFT_OK);
        finish(&st);
    }
    if (start_f(b, sizeof b, &st)) {
        /* The loop runs: each run stops at a back-edge when asked to, and
           resumes from there; a stop request ends it as the spec's host
           would, with a trap. */
        for (int i = 0; i < 3; i++) {
            weft_exec_request(st.e, WEFT_ATTN_SUSPEND);
            EXPECT(weft_exec_run(st.e, &err) == WEFT_SUSPENDED);
        }
        weft_exec_request(st.e, WEFT_ATTN_STOP);
        EXPECT(weft_exec_run(st.e, &err) == WEFT_ERR_TRAP && err.trap == WEFT_TRAP_STOPPED);
        finish(&st);
    }
    if (start_f(c, sizeof c, &st)) {
        EXPECT(weft_exec_run(st.e, &err) == WEFT_ERR_TRAP && err.trap == WEFT_TRAP_UNREACHABLE);
        finish(&st);
    }
}

int main(void) {
    engine = weft_engine_new(NULL);
    if (!engine) return 1;
    issue_shapes();
    all_shapes();
    weft_engine_free(engine);
    return check_summary("shapes_test");
}
