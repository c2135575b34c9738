/*
 * wave.c — fuzz target: the WAVE parser and printer (src/component/wave.c).
 *
 * The input: its first byte L (at most 64), then L bytes read as a value
 * type (a small tree: every WAVE kind, at most 6 deep, labels from a pool
 * that has WAVE keywords in it so `%` escapes are needed), then the rest as
 * the WAVE text. The text is parsed against the type. When that succeeds,
 * the value is printed, the printed text parsed again and printed again.
 *
 * The properties: parsing anything succeeds or fails with
 * WEFT_ERR_MALFORMED/LIMIT and an offset inside the text (never a crash,
 * leak, sanitizer report or another status); what weft prints parses
 * back (print ∘ parse is the identity on printed text: the second print
 * equals the first). fuzz/wave_seeds.py writes the seeds in
 * fuzz/corpus/wave.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "component/wave.h"
#include "fuzz.h"

#define MAX_DEPTH 6
#define MAX_NODES 40

typedef struct gen {
    const uint8_t *p;
    size_t n;
    cm_arena *a;
    int nodes;
} gen;

static uint8_t byte(gen *g) {
    if (!g->n) return 0;
    g->n--;
    return *g->p++;
}

static const char *const labels[] = {"a", "b", "ok", "none", "some", "err", "x-y", "HTTP3",
                                      "inf", "nan", "true", "c9", "long-label-name", "d", "e",
                                      "f-G"};

static const cm_valtype *gen_type(gen *g, int depth);

static cm_field *gen_fields(gen *g, uint32_t n, int depth, bool typed, bool optional) {
    cm_field *f = cm_arena_alloc(g->a, n * sizeof *f, 8);
    if (!f) return NULL;
    /* distinct labels: a rotation through the pool */
    uint32_t start = byte(g);
    for (uint32_t i = 0; i < n; i++) {
        const char *l = labels[(start + i) % (sizeof labels / sizeof labels[0])];
        f[i].name = l;
        f[i].name_len = (uint32_t)strlen(l);
        f[i].type = typed && (!optional || byte(g) & 1) ? gen_type(g, depth + 1) : NULL;
        if (typed && !optional && !f[i].type) return NULL;
    }
    return f;
}

static const cm_valtype *gen_type(gen *g, int depth) {
    uint8_t b = byte(g);
    if (depth >= MAX_DEPTH || ++g->nodes > MAX_NODES) return cm_prim((cm_kind)(b % 13));
    static const cm_kind kinds[] = {CM_RECORD, CM_VARIANT, CM_LIST, CM_FIXED_LIST, CM_TUPLE,
                                    CM_FLAGS, CM_ENUM, CM_OPTION, CM_RESULT};
    unsigned k = b % 22;
    if (k < 13) return cm_prim((cm_kind)k);
    cm_valtype *t = cm_arena_alloc(g->a, sizeof *t, 8);
    if (!t) return NULL;
    memset(t, 0, sizeof *t);
    t->kind = kinds[k - 13];
    uint32_t n = 1 + byte(g) % 4;
    switch (t->kind) {
    case CM_RECORD: t->n = n; t->fields = gen_fields(g, n, depth, true, false); if (!t->fields) return NULL; break;
    case CM_VARIANT: t->n = n; t->fields = gen_fields(g, n, depth, true, true); if (!t->fields) return NULL; break;
    case CM_FLAGS: case CM_ENUM: t->n = n; t->fields = gen_fields(g, n, depth, false, false); if (!t->fields) return NULL; break;
    case CM_LIST: case CM_OPTION: t->elem = gen_type(g, depth + 1); if (!t->elem) return NULL; break;
    case CM_FIXED_LIST: t->n = n; t->elem = gen_type(g, depth + 1); if (!t->elem) return NULL; break;
    case CM_TUPLE: {
        const cm_valtype **m = cm_arena_alloc(g->a, n * sizeof *m, 8);
        if (!m) return NULL;
        for (uint32_t i = 0; i < n; i++)
            if (!(m[i] = gen_type(g, depth + 1))) return NULL;
        t->n = n;
        t->members = m;
        break;
    }
    case CM_RESULT: {
        uint8_t s = byte(g);
        if (s & 1 && !(t->elem = gen_type(g, depth + 1))) return NULL;
        if (s & 2 && !(t->elem2 = gen_type(g, depth + 1))) return NULL;
        break;
    }
    default: break;
    }
    return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    size_t tl = data[0] > 64 ? 64 : data[0];
    if (tl > size - 1) tl = size - 1;
    cm_arena types = {.limit = 1 << 20};
    cm_arena vals = {.limit = 16 << 20};
    gen g = {data + 1, tl, &types, 0};
    const cm_valtype *t = gen_type(&g, 0);
    if (!t) abort(); /* 1 MiB is plenty for 40 nodes */
    const char *text = (const char *)data + 1 + tl;
    size_t len = size - 1 - tl;
    weft_error err;
    cm_val v;
    weft_status st = cm_wave_parse(t, text, len, &v, &vals, &err);
    if (st != WEFT_OK) {
        if (st != WEFT_ERR_MALFORMED && st != WEFT_ERR_LIMIT) abort();
        if (err.offset > len || !err.message[0]) abort();
        goto out;
    }
    char *p1 = NULL, *p2 = NULL;
    cm_wave_out o1 = {NULL, 0, 0};
    if (cm_wave_print(t, &v, &o1, &err) != WEFT_OK) abort();
    p1 = malloc(o1.len + 1);
    if (!p1) abort();
    o1 = (cm_wave_out){p1, o1.len + 1, 0};
    if (cm_wave_print(t, &v, &o1, &err) != WEFT_OK) abort();
    cm_val v2;
    st = cm_wave_parse(t, p1, o1.len, &v2, &vals, &err);
    if (st == WEFT_ERR_LIMIT) { /* the second copy may not fit: fine */
        free(p1);
        goto out;
    }
    if (st != WEFT_OK) {
        fprintf(stderr, "printed text does not parse back: %s\n  %s\n", err.message, p1);
        abort();
    }
    cm_wave_out o2 = {NULL, 0, 0};
    cm_wave_print(t, &v2, &o2, &err);
    p2 = malloc(o2.len + 1);
    if (!p2) abort();
    o2 = (cm_wave_out){p2, o2.len + 1, 0};
    if (cm_wave_print(t, &v2, &o2, &err) != WEFT_OK) abort();
    if (o1.len != o2.len || memcmp(p1, p2, o1.len) != 0) {
        fprintf(stderr, "print(parse(print(v))) differs:\n  %s\n  %s\n", p1, p2);
        abort();
    }
    free(p1);
    free(p2);
out:
    cm_arena_free(&vals);
    cm_arena_free(&types);
    return 0;
}
