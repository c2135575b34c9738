/*
 * ops_test.c — the operations table (src/compile/ops.h) checked against
 * itself: what the preprocessor cannot check when a row is added.
 *
 *  - every shape's numbers (operand count, input words, output, target)
 *    agree with its letters, so CMP_SHAPE_* cannot drift from the names
 *    the rows use;
 *  - each class has the shapes and effects it promises: NUM rows have a
 *    wasm opcode and are unary or binary on slots, IMM rows are dst, a,
 *    imm with an OF of class NUM of the same types, a conditional branch
 *    has a target and is a safe point, ...;
 *  - every pair names two operations, and its three or one forms follow
 *    each other in the enum (pairs.c relies on A__B + 1 and + 2).
 */
#include <stdio.h>
#include <string.h>

#include "compile/code.h"

#include "check.h"

typedef struct row {
    const char *name, *shape;
    int code, cls, rt, at, n, fx;
    int of; /* the OF operation, or -1 */
    int len, in1, in2, dst, target;
} row;

/* CMP_OF_<name>: the operation's number, so a row's OF column reads as
   one (CMP_OF__ is -1). */
#define CMP_OF__ -1
enum {
#define CMP_X_OFNUM(name, ...) CMP_OF_##name = CMP_##name,
    CMP_OPS(CMP_X_OFNUM)
#undef CMP_X_OFNUM
};

static const row table[] = {
#define CMP_X_ROW(name, code, cls, shape, rt, at, n, of, fx)                              \
    {#name, #shape, code, CMP_CLASS_##cls, CMP_TY_##rt, CMP_TY_##at, n, CMP_FX_##fx,     \
     CMP_OF_##of, CMP_LEN_##name, CMP_IN1_##name, CMP_IN2_##name, CMP_DST_##name,       \
     CMP_TARGET_##name},
    CMP_OPS(CMP_X_ROW)
#undef CMP_X_ROW
};
#define NROWS (sizeof table / sizeof table[0])

/* The SIMD kinds' words, as ops.h lists them for cmp_simd_kind. */
static const char *simd_letters(const char *shape) {
    static const struct { const char *kind, *letters; } k[] = {
        {"SV_LOAD", "D_S_I"},        {"SV_STORE", "S_V_I"},   {"SV_LOAD_LANE", "D_S_V_I_I"},
        {"SV_STORE_LANE", "S_V_I_I"}, {"SV_CONST", "D_I4"},    {"SV_SHUFFLE", "D_V_V_I4_I4"},
        {"SV_SPLAT", "D_S"},          {"SV_EXTRACT", "D_V_I"}, {"SV_REPLACE", "D_V_S_I"},
        {"SV_UN", "D_V"},             {"SV_BIN", "D_V_V"},     {"SV_TERN", "D_V_V_V"},
        {"SV_TEST", "D_V"},           {"SV_SHIFT", "D_V_S"},
    };
    for (size_t i = 0; i < sizeof k / sizeof k[0]; i++)
        if (!strcmp(k[i].kind, shape)) return k[i].letters;
    return NULL;
}

/* A shape's numbers from its letters (ops.h's key). */
static void shape_numbers(const char *shape, int *len, int *in1, int *in2, int *dst, int *target) {
    *len = 1;
    *in1 = *in2 = *dst = *target = 0;
    if (!strcmp(shape, "NONE")) return;
    if (!strcmp(shape, "S_TABLE")) { /* index, n, then n + 1 targets */
        *len = 3;
        *in1 = 1;
        return;
    }
    const char *l = simd_letters(shape);
    if (!l) l = shape;
    int word = 0;
    for (const char *p = l; *p; p++) {
        if (*p == '_') continue;
        int count = 1;
        if (*p == 'I' && p[1] == '4') {
            count = 4;
            p++;
        }
        for (int k = 0; k < count; k++) {
            word++;
            if (*p == 'D' && word == 1) *dst = 1;
            if (*p == 'S' && !*in1) *in1 = word;
            else if (*p == 'S' && !*in2) *in2 = word;
            if (*p == 'T') *target = word;
        }
    }
    *len = word + 1;
}

static void shapes(void) {
    for (size_t i = 0; i < NROWS; i++) {
        const row *r = &table[i];
        int len, in1, in2, dst, target;
        shape_numbers(r->shape, &len, &in1, &in2, &dst, &target);
        EXPECTF(len == r->len && in1 == r->in1 && in2 == r->in2 && dst == r->dst && target == r->target,
                "%s (%s): CMP_SHAPE_%s says %d %d %d %d %d, its letters %d %d %d %d %d", r->name, r->shape,
                r->shape, r->len, r->in1, r->in2, r->dst, r->target, len, in1, in2, dst, target);
        EXPECTF(!strcmp(cmp_op_name((uint32_t)i), r->name), "row %zu is %s, named %s", i, r->name,
                cmp_op_name((uint32_t)i));
    }
}

static void classes(void) {
    for (size_t i = 0; i < NROWS; i++) {
        const row *r = &table[i];
        switch (r->cls) {
        case CMP_CLASS_NUM:
            EXPECTF(r->code >= 0 && (r->code < 0x100 || (r->code >> 8) == 0xFC), "%s: NUM without a wasm opcode",
                    r->name);
            EXPECTF(!strcmp(r->shape, "D_S") || !strcmp(r->shape, "D_S_S"), "%s: NUM shape %s", r->name, r->shape);
            EXPECTF(r->rt && r->at, "%s: NUM without types", r->name);
            EXPECTF(r->of < 0, "%s: NUM with an OF", r->name);
            break;
        case CMP_CLASS_IMM:
            EXPECTF(!strcmp(r->shape, "D_S_I") && r->code < 0, "%s: IMM must be dst, a, imm", r->name);
            EXPECTF(r->of >= 0 && table[r->of].cls == CMP_CLASS_NUM && !strcmp(table[r->of].shape, "D_S_S") &&
                        table[r->of].rt == r->rt && table[r->of].at == r->at,
                    "%s: OF must be a binary NUM row of the same types", r->name);
            break;
        case CMP_CLASS_BR:
            EXPECTF(r->target && (r->fx & CMP_FX_SAFE), "%s: a branch needs a target and is a safe point", r->name);
            break;
        case CMP_CLASS_CALL:
            EXPECTF(r->fx == CMP_FX_TRAP_SAFE, "%s: calls trap (stack) and are safe points", r->name);
            break;
        case CMP_CLASS_SIMD:
            EXPECTF(((r->code >> 8) == 0xFD || (r->code >> 12) == 0xFD) && simd_letters(r->shape), "%s: SIMD row without 0xFD or kind",
                    r->name);
            break;
        default:
            break;
        }
        /* Safe points are taken branches, calls, waits and SAFE_POINT (a
           back-edge whose BR tail duplication left out). */
        if (r->fx & CMP_FX_SAFE)
            EXPECTF(r->cls == CMP_CLASS_BR || r->cls == CMP_CLASS_JUMP || r->cls == CMP_CLASS_CALL ||
                        r->cls == CMP_CLASS_ATOMIC || strcmp(r->name, "SAFE_POINT") == 0,
                    "%s: a safe point of class %d", r->name, r->cls);
        if (r->target) EXPECTF(r->fx & CMP_FX_SAFE, "%s: a branch that is no safe point", r->name);
    }
}

/* Every pair form as a row (a table, not a check per form in one
   function: GCC at -O2 spent 15 s of CPU on that function's hundreds of
   counted checks). d1 and d2 are the numbers of a SEQ form's D1 and D2
   forms, -1 for the other forms. */
typedef struct pair_form {
    const char *name;
    int op, a, b, len_a, d1, d2;
} pair_form;

#define CMP_PAIR_FORM_D1_SEQ(op) CMP_##op##__D1
#define CMP_PAIR_FORM_D2_SEQ(op) CMP_##op##__D2
#define CMP_PAIR_FORM_D1_D1(op) -1
#define CMP_PAIR_FORM_D2_D1(op) -1
#define CMP_PAIR_FORM_D1_D2(op) -1
#define CMP_PAIR_FORM_D2_D2(op) -1
#define CMP_PAIR_FORM_D1_TAIL(op) -1
#define CMP_PAIR_FORM_D2_TAIL(op) -1
static const pair_form pair_forms[] = {
#define CMP_PAIR_FORM(op, a, b, form)                                                    \
    {#op, CMP_##op, CMP_##a, CMP_##b, CMP_LEN_##a, CMP_PAIR_FORM_D1_##form(op),            \
     CMP_PAIR_FORM_D2_##form(op)},
    CMP_PAIR_FORMS
#undef CMP_PAIR_FORM
    {NULL, 0, 0, 0, 0, 0, 0}, /* so the table is never empty */
};

static void pairs(void) {
    int n = 0;
    for (const pair_form *f = pair_forms; f->name; f++) {
        n++;
        EXPECTF(f->op >= (int)NROWS && f->a < (int)NROWS && f->b < (int)NROWS, "%s", f->name);
        EXPECTF(cmp_operand_counts[f->op] == f->len_a - 1, "%s: a pair's words are its first's", f->name);
        if (f->d1 >= 0) EXPECTF(f->op + 1 == f->d1 && f->op + 2 == f->d2, "%s", f->name);
    }
    EXPECTF(NROWS + (size_t)n == CMP_OP_COUNT, "%zu rows and %d pair forms, %d operations", NROWS, n,
            (int)CMP_OP_COUNT);
}

int main(void) {
    shapes();
    classes();
    pairs();
    return check_summary("ops_test");
}
