/*
 * cabi.c — fuzz target: the canonical ABI (src/component/cabi.c,
 * cabi_string.c, resource.c) on hostile memory.
 *
 * The input is read as: a value type (a small tree, at most 6 deep and
 * 48 nodes), the string encoding, a handle table for instance A (own and
 * borrow handles of two resource types, some lent), the max_flat of the
 * call (16: params, 1: results), the flat core values the type flattens
 * to (or the one pointer when it spills), and the rest as A's linear
 * memory. The flat values are lifted out of A (lift_flat_values); when
 * that succeeds, the value is lowered into a fresh instance B with a
 * well-behaved realloc (lower_flat_values, or store at a realloc'd
 * pointer, chosen by the input) and lifted back out of B, which must
 * succeed and give an equal value (cm_val_equal: strings by their
 * characters).
 *
 * The properties: lifting anything either succeeds or traps with a
 * canonical ABI trap code (never an internal error or a misuse), a
 * lifted value lowers and lifts back unchanged, and never a crash, a leak
 * or a sanitizer report. The arena's limit (16 MiB) bounds what a hostile
 * length can make the host allocate; B's memory is bounded the same way.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "component/cabi.h"
#include "component/resource.h"
#include "fuzz.h"

#define MAX_DEPTH 6
#define MAX_NODES 48
#define MAX_B_MEMORY (16u << 20)

typedef struct in {
    const uint8_t *p;
    size_t n;
} in;

static uint8_t byte(in *f) {
    if (!f->n) return 0;
    f->n--;
    return *f->p++;
}

static uint64_t bytes(in *f, unsigned k) {
    uint64_t v = 0;
    for (unsigned i = 0; i < k; i++) v |= (uint64_t)byte(f) << (8 * i);
    return v;
}

static int inst_a, inst_b, inst_c;
static cm_resource R[2] = {{.name = "R0", .owner = &inst_c}, {.name = "R1", .owner = &inst_c}};

typedef struct gen {
    in *f;
    cm_arena *arena;
    int nodes;
} gen;

static const cm_valtype *gen_type(gen *g, int depth) {
    uint8_t b = byte(g->f);
    if (depth >= MAX_DEPTH || g->nodes >= MAX_NODES || b % 26 < 13) return cm_prim((cm_kind)(b % 13));
    g->nodes++;
    cm_valtype *t = cm_arena_alloc(g->arena, sizeof *t, _Alignof(cm_valtype));
    if (!t) return cm_prim(CM_U8);
    memset(t, 0, sizeof *t);
    uint8_t c = byte(g->f);
    switch (b % 26) {
    case 13: t->kind = CM_LIST; t->elem = gen_type(g, depth + 1); break;
    case 14: t->kind = CM_FIXED_LIST; t->n = 1 + c % 5; t->elem = gen_type(g, depth + 1); break;
    case 15:
    case 16:
    case 17: {
        t->kind = b % 26 == 15 ? CM_RECORD : b % 26 == 16 ? CM_TUPLE : CM_VARIANT;
        t->n = 1 + c % 5;
        if (t->kind == CM_VARIANT && c == 255) t->n = 257;
        cm_field *fs = cm_arena_alloc(g->arena, t->n * sizeof *fs, _Alignof(cm_field));
        const cm_valtype **ms = cm_arena_alloc(g->arena, t->n * sizeof *ms, _Alignof(cm_valtype *));
        if (!fs || !ms) return cm_prim(CM_U8);
        for (uint32_t i = 0; i < t->n; i++) {
            bool none = t->kind == CM_VARIANT && (i >= 8 || (byte(g->f) & 1));
            ms[i] = none ? NULL : gen_type(g, depth + 1);
            fs[i] = (cm_field){.name = "x", .name_len = 1, .type = ms[i]};
        }
        t->fields = fs;
        t->members = ms;
        break;
    }
    case 18:
    case 19: {
        t->kind = b % 26 == 18 ? CM_ENUM : CM_FLAGS;
        t->n = t->kind == CM_ENUM ? (c == 255 ? 300 : 1 + c % 8) : 1 + c % 32;
        cm_field *fs = cm_arena_alloc(g->arena, t->n * sizeof *fs, _Alignof(cm_field));
        if (!fs) return cm_prim(CM_U8);
        memset(fs, 0, t->n * sizeof *fs);
        t->fields = fs;
        break;
    }
    case 20: t->kind = CM_OPTION; t->elem = gen_type(g, depth + 1); break;
    case 21:
        t->kind = CM_RESULT;
        if (c & 1) t->elem = gen_type(g, depth + 1);
        if (c & 2) t->elem2 = gen_type(g, depth + 1);
        break;
    case 22:
    case 23: t->kind = b % 26 == 22 ? CM_OWN : CM_BORROW; t->resource = &R[c & 1]; break;
    default:
        t->kind = CM_MAP;
        t->elem = cm_prim((cm_kind)(c % 13));
        t->elem2 = gen_type(g, depth + 1);
        break;
    }
    return t;
}

/* B's memory: grows as realloc asks, up to MAX_B_MEMORY */
typedef struct mem_b {
    uint8_t *base;
    uint64_t size, last;
} mem_b;

static uint8_t *mem_fn(void *env, uint64_t *size) {
    mem_b *m = env;
    *size = m->size;
    return m->base;
}

static weft_status realloc_fn(void *env, uint32_t old, uint32_t old_size, uint32_t align,
                              uint32_t new_size, uint32_t *out, weft_error *err) {
    mem_b *m = env;
    if (old && new_size <= old_size) {
        *out = old;
        return WEFT_OK;
    }
    uint64_t at = (m->last + align - 1) / align * align;
    if (at + new_size > MAX_B_MEMORY) {
        snprintf(err->message, sizeof err->message, "fuzz realloc: past B's memory limit");
        err->status = WEFT_ERR_TRAP;
        return WEFT_ERR_TRAP;
    }
    if (at + new_size > m->size) {
        uint64_t ns = (at + new_size + 4095) & ~4095ull;
        uint8_t *nb = realloc(m->base, ns);
        if (!nb) abort();
        memset(nb + m->size, 0xa5, ns - m->size);
        m->base = nb;
        m->size = ns;
    }
    if (old_size && old + (uint64_t)old_size <= m->size) memmove(m->base + at, m->base + old, old_size);
    m->last = at + new_size;
    *out = (uint32_t)at;
    return WEFT_OK;
}

static uint8_t *mem_a_fn(void *env, uint64_t *size) {
    in *m = env;
    *size = m->n;
    return (uint8_t *)m->p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    in f = {data, size};
    cm_arena types = {.limit = 1u << 20}, vals = {.limit = 16u << 20};
    gen g = {.f = &f, .arena = &types};
    const cm_valtype *t = gen_type(&g, 0);
    weft_error err;
    if (cm_abi_layout((cm_valtype *)t, &err) != WEFT_OK) goto out_types; /* an invalid tree (too large) */
    cm_encoding enc = (cm_encoding)(byte(&f) % 3);

    /* A's handle table */
    cm_inst_state a, b;
    cm_inst_state_init(&a, &inst_a);
    cm_inst_state_init(&b, &inst_b);
    cm_task old_task;
    cm_task_begin(&old_task, &a);
    unsigned nh = byte(&f) % 8;
    for (unsigned i = 0; i < nh; i++) {
        uint8_t k = byte(&f);
        cm_handle h = {.kind = k & 1 ? CM_ELEM_BORROW : CM_ELEM_OWN, .rep = byte(&f), .rt = &R[(k >> 1) & 1],
                       .scope = k & 1 ? &old_task : NULL, .num_lends = (k >> 2) & 1};
        uint32_t idx;
        if (cm_handles_add(&a.handles, &h, &idx, &err) != WEFT_OK) abort();
    }
    uint8_t mode = byte(&f);
    uint32_t max_flat = mode & 1 ? 16 : 1;
    weft_valtype ft[CM_MAX_FLAT_PARAMS];
    uint32_t nflat = cm_abi_flatten(t, ft, CM_MAX_FLAT_PARAMS);
    if (nflat > max_flat) {
        nflat = 1;
        ft[0] = WEFT_I32;
    }
    weft_val flat[CM_MAX_FLAT_PARAMS];
    for (uint32_t i = 0; i < nflat; i++) {
        memset(&flat[i], 0, sizeof flat[i]);
        flat[i].type = ft[i];
        switch (ft[i]) {
        case WEFT_I32: flat[i].of.i32 = (int32_t)bytes(&f, 4); break;
        case WEFT_I64: flat[i].of.i64 = (int64_t)bytes(&f, 8); break;
        case WEFT_F32: flat[i].of.f32_bits = (uint32_t)bytes(&f, 4); break;
        default: flat[i].of.f64_bits = bytes(&f, 8); break;
        }
    }

    /* lift out of A; the rest of the input is A's memory */
    in mem_a = f;
    cm_abi_opts opts_a = {.encoding = enc, .memory = mem_a_fn, .memory_env = &mem_a};
    cm_abi_cx cx;
    cm_abi_cx_init(&cx, &opts_a, &a, &vals, &err);
    cm_subtask sub;
    cm_subtask_begin(&sub, &a);
    cx.subtask = &sub;
    cm_typelist ts = {.n = 1, .types = &t};
    cm_val v, v2;
    weft_status st = cm_abi_lift_flat_values(&cx, max_flat, ts, flat, nflat, NULL, &v);
    if (st != WEFT_OK) {
        /* a trap, with a canonical ABI code; the arena's limit is one */
        if (st != WEFT_ERR_TRAP || cm_trap_code(&err) == CM_TRAP_NONE || cm_trap_code(&err) == CM_TRAP_OTHER) {
            fprintf(stderr, "lift failed without a trap code: %d %s\n", (int)st, err.message);
            abort();
        }
        goto out;
    }

    /* lower into B and lift back */
    mem_b mb = {0};
    cm_abi_opts opts_b = {.encoding = enc, .memory = mem_fn, .memory_env = &mb, .realloc = realloc_fn,
                          .realloc_env = &mb};
    uint32_t ptr = 0; /* store's place, allocated first */
    if ((mode & 2) && realloc_fn(&mb, 0, 0, t->align, t->size, &ptr, &err) != WEFT_OK) goto out_b;
    cm_task task;
    cm_task_begin(&task, &b);
    cm_subtask sub_b;
    cm_subtask_begin(&sub_b, &b);
    cm_abi_cx_init(&cx, &opts_b, &b, &vals, &err);
    cx.task = &task;
    cx.subtask = &sub_b;
    weft_val flat_b[CM_MAX_FLAT_PARAMS + 1];
    uint32_t nflat_b = 0;
    if (mode & 2) { /* store at a realloc'd pointer, load back */
        st = cm_abi_store(&cx, &v, t, ptr);
        if (st == WEFT_OK) st = cm_abi_load(&cx, ptr, t, &v2);
    } else {
        st = cm_abi_lower_flat_values(&cx, max_flat, ts, &v, NULL, flat_b, &nflat_b);
        if (st == WEFT_OK) st = cm_abi_lift_flat_values(&cx, max_flat, ts, flat_b, nflat_b, NULL, &v2);
    }
    if (st != WEFT_OK) {
        /* only B's memory limit or the arena's may stop it */
        bool limit = st == WEFT_ERR_TRAP && (cm_trap_code(&err) == CM_TRAP_TOO_LARGE ||
                                             strstr(err.message, "B's memory limit"));
        if (!limit) {
            fprintf(stderr, "lowering a lifted value failed: %d %s\n", (int)st, err.message);
            abort();
        }
    } else if (!cm_val_equal(&v, &v2)) {
        fprintf(stderr, "a value lowered and lifted back differs\n");
        abort();
    }
    cm_subtask_end(&sub_b);
out_b:
    free(mb.base);
out:
    cm_subtask_end(&sub);
    cm_inst_state_free(&b);
    cm_inst_state_free(&a);
out_types:
    cm_arena_free(&vals);
    cm_arena_free(&types);
    return 0;
}
