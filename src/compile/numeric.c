/*
 * numeric.c — translation of the numeric instructions (spec §3.3.1,
 * §4.4.1), part of the compiler's one pass (compile.c): their arity and
 * types come from the operations table (ops.h, rows of class NUM), and
 * around them the peephole fusions the translator makes with the
 * operation just emitted: the immediate form of a constant operand (rows
 * of class IMM), operands swapped to reach one, i32.eqz of a comparison,
 * a bit field, a rotate into an xor, a three-way add, an operand loaded
 * just before. Also the compare-and-branch forms of each comparison,
 * which compile.c's br_if and if fuse with. Every function validates
 * its operands (cmp_pop) before it emits anything.
 */
#include "compiler.h"

/* Fused branch operations: for each comparison, the branch taken when it
   holds and the one taken when it does not (the integer inverse), or 0. */
void cmp_fused_for(uint32_t cmp, uint32_t *if_true, uint32_t *if_false) {
    static const struct { uint16_t cmp, t, f; } map[] = {
        {CMP_I32_EQ, CMP_BR_IF_I32_EQ, CMP_BR_IF_I32_NE}, {CMP_I32_NE, CMP_BR_IF_I32_NE, CMP_BR_IF_I32_EQ},
        {CMP_I32_LT_S, CMP_BR_IF_I32_LT_S, CMP_BR_IF_I32_GE_S}, {CMP_I32_LT_U, CMP_BR_IF_I32_LT_U, CMP_BR_IF_I32_GE_U},
        {CMP_I32_GT_S, CMP_BR_IF_I32_GT_S, CMP_BR_IF_I32_LE_S}, {CMP_I32_GT_U, CMP_BR_IF_I32_GT_U, CMP_BR_IF_I32_LE_U},
        {CMP_I32_LE_S, CMP_BR_IF_I32_LE_S, CMP_BR_IF_I32_GT_S}, {CMP_I32_LE_U, CMP_BR_IF_I32_LE_U, CMP_BR_IF_I32_GT_U},
        {CMP_I32_GE_S, CMP_BR_IF_I32_GE_S, CMP_BR_IF_I32_LT_S}, {CMP_I32_GE_U, CMP_BR_IF_I32_GE_U, CMP_BR_IF_I32_LT_U},
        {CMP_I64_EQ, CMP_BR_IF_I64_EQ, CMP_BR_IF_I64_NE}, {CMP_I64_NE, CMP_BR_IF_I64_NE, CMP_BR_IF_I64_EQ},
        {CMP_I64_LT_S, CMP_BR_IF_I64_LT_S, CMP_BR_IF_I64_GE_S}, {CMP_I64_LT_U, CMP_BR_IF_I64_LT_U, CMP_BR_IF_I64_GE_U},
        {CMP_I64_GT_S, CMP_BR_IF_I64_GT_S, CMP_BR_IF_I64_LE_S}, {CMP_I64_GT_U, CMP_BR_IF_I64_GT_U, CMP_BR_IF_I64_LE_U},
        {CMP_I64_LE_S, CMP_BR_IF_I64_LE_S, CMP_BR_IF_I64_GT_S}, {CMP_I64_LE_U, CMP_BR_IF_I64_LE_U, CMP_BR_IF_I64_GT_U},
        {CMP_I64_GE_S, CMP_BR_IF_I64_GE_S, CMP_BR_IF_I64_LT_S}, {CMP_I64_GE_U, CMP_BR_IF_I64_GE_U, CMP_BR_IF_I64_LT_U},
        {CMP_I32_EQZ, CMP_BR_IF_I32_EQZ, CMP_BR_IF}, {CMP_I64_EQZ, CMP_BR_IF_I64_EQZ, CMP_BR_IF_I64_NEZ},
        {CMP_I32_EQ_IMM, CMP_BR_IF_I32_EQ_IMM, CMP_BR_IF_I32_NE_IMM},
        {CMP_I32_NE_IMM, CMP_BR_IF_I32_NE_IMM, CMP_BR_IF_I32_EQ_IMM},
        {CMP_I32_LT_S_IMM, CMP_BR_IF_I32_LT_S_IMM, CMP_BR_IF_I32_GE_S_IMM},
        {CMP_I32_LT_U_IMM, CMP_BR_IF_I32_LT_U_IMM, CMP_BR_IF_I32_GE_U_IMM},
        {CMP_I32_GT_S_IMM, CMP_BR_IF_I32_GT_S_IMM, CMP_BR_IF_I32_LE_S_IMM},
        {CMP_I32_GT_U_IMM, CMP_BR_IF_I32_GT_U_IMM, CMP_BR_IF_I32_LE_U_IMM},
        {CMP_I32_LE_S_IMM, CMP_BR_IF_I32_LE_S_IMM, CMP_BR_IF_I32_GT_S_IMM},
        {CMP_I32_LE_U_IMM, CMP_BR_IF_I32_LE_U_IMM, CMP_BR_IF_I32_GT_U_IMM},
        {CMP_I32_GE_S_IMM, CMP_BR_IF_I32_GE_S_IMM, CMP_BR_IF_I32_LT_S_IMM},
        {CMP_I32_GE_U_IMM, CMP_BR_IF_I32_GE_U_IMM, CMP_BR_IF_I32_LT_U_IMM},
        {CMP_I64_EQ_IMM, CMP_BR_IF_I64_EQ_IMM, CMP_BR_IF_I64_NE_IMM},
        {CMP_I64_NE_IMM, CMP_BR_IF_I64_NE_IMM, CMP_BR_IF_I64_EQ_IMM},
        {CMP_I64_LT_S_IMM, CMP_BR_IF_I64_LT_S_IMM, CMP_BR_IF_I64_GE_S_IMM},
        {CMP_I64_LT_U_IMM, CMP_BR_IF_I64_LT_U_IMM, CMP_BR_IF_I64_GE_U_IMM},
        {CMP_I64_GT_S_IMM, CMP_BR_IF_I64_GT_S_IMM, CMP_BR_IF_I64_LE_S_IMM},
        {CMP_I64_GT_U_IMM, CMP_BR_IF_I64_GT_U_IMM, CMP_BR_IF_I64_LE_U_IMM},
        {CMP_I64_LE_S_IMM, CMP_BR_IF_I64_LE_S_IMM, CMP_BR_IF_I64_GT_S_IMM},
        {CMP_I64_LE_U_IMM, CMP_BR_IF_I64_LE_U_IMM, CMP_BR_IF_I64_GT_U_IMM},
        {CMP_I64_GE_S_IMM, CMP_BR_IF_I64_GE_S_IMM, CMP_BR_IF_I64_LT_S_IMM},
        {CMP_I64_GE_U_IMM, CMP_BR_IF_I64_GE_U_IMM, CMP_BR_IF_I64_LT_U_IMM},
    };
    *if_true = *if_false = 0;
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (map[i].cmp == cmp) {
            *if_true = map[i].t;
            *if_false = map[i].f;
        }
}

/* Opcode -> numeric operation; indexed by opcode (0x100 + n for 0xFC n).
   Entries with arity 0 are not numeric operations. */
const cmp_numeric_info cmp_numeric_table[CMP_NUM_TABLE_SIZE] = {
#define CMP_X_NUM(name, code, cls, shape, rt, at, n, of, fx)                                 \
    CMP_WHEN(cls, NUM)([CMP_NUM_INDEX(code)] = {CMP_##name, CMP_SHAPE_GET(0, shape) - 1, \
                                                CMP_TY_##rt, CMP_TY_##at},)
    CMP_OPS(CMP_X_NUM)
#undef CMP_X_NUM
};

/* The immediate form of each binary operation that has one: the rows of
   class IMM, by the operation they specialise (OF). */
static const uint16_t imm_form[CMP_OP_COUNT] = {
#define CMP_X_IMM(name, code, cls, shape, rt, at, n, of, fx) CMP_WHEN(cls, IMM)([CMP_##of] = CMP_##name,)
    CMP_OPS(CMP_X_IMM)
#undef CMP_X_IMM
};

/* For a constant first operand: the operation with operands swapped that
   computes the same (k < x is x > k), for those where one exists. */
static const uint16_t swapped_form[CMP_OP_COUNT] = {
    [CMP_F32_ADD] = CMP_F32_ADD, [CMP_F32_MUL] = CMP_F32_MUL,
    [CMP_F64_ADD] = CMP_F64_ADD, [CMP_F64_MUL] = CMP_F64_MUL,
    [CMP_I32_LT_S] = CMP_I32_GT_S,
    [CMP_I32_GT_S] = CMP_I32_LT_S,
    [CMP_I32_LE_S] = CMP_I32_GE_S,
    [CMP_I32_GE_S] = CMP_I32_LE_S,
    [CMP_I32_LT_U] = CMP_I32_GT_U,
    [CMP_I32_GT_U] = CMP_I32_LT_U,
    [CMP_I32_LE_U] = CMP_I32_GE_U,
    [CMP_I32_GE_U] = CMP_I32_LE_U,
    [CMP_I32_EQ] = CMP_I32_EQ,
    [CMP_I32_NE] = CMP_I32_NE,
    [CMP_I32_ADD] = CMP_I32_ADD,
    [CMP_I32_MUL] = CMP_I32_MUL,
    [CMP_I32_AND] = CMP_I32_AND,
    [CMP_I32_OR] = CMP_I32_OR,
    [CMP_I32_XOR] = CMP_I32_XOR,
    [CMP_I64_LT_S] = CMP_I64_GT_S,
    [CMP_I64_GT_S] = CMP_I64_LT_S,
    [CMP_I64_LE_S] = CMP_I64_GE_S,
    [CMP_I64_GE_S] = CMP_I64_LE_S,
    [CMP_I64_LT_U] = CMP_I64_GT_U,
    [CMP_I64_GT_U] = CMP_I64_LT_U,
    [CMP_I64_LE_U] = CMP_I64_GE_U,
    [CMP_I64_GE_U] = CMP_I64_LE_U,
    [CMP_I64_EQ] = CMP_I64_EQ,
    [CMP_I64_NE] = CMP_I64_NE,
    [CMP_I64_ADD] = CMP_I64_ADD,
    [CMP_I64_MUL] = CMP_I64_MUL,
    [CMP_I64_AND] = CMP_I64_AND,
    [CMP_I64_OR] = CMP_I64_OR,
    [CMP_I64_XOR] = CMP_I64_XOR,
};

/* If b is a constant that fits the immediate form of `op` (an i64 one must
   be a sign-extended 32-bit value), returns that form, else 0. */
static uint32_t imm_candidate(const compiler *c, uint32_t op, uint32_t b_slot, bool wide) {
    if (!imm_form[op] || !cmp_is_const_slot(b_slot)) return 0;
    uint64_t v = c->consts.data[b_slot - CONST_MARK];
    if (wide && (int64_t)v != (int64_t)(int32_t)v) return 0;
    return imm_form[op];
}

/* The form of `op` that loads its second operand, if the operand was
   produced by `load` (a plain 32- or 64-bit load), else 0. */
static uint32_t load_operand_form(uint32_t op, uint32_t load) {
    if (load == CMP_LOAD64) {
        if (op == CMP_F64_ADD) return CMP_F64_ADD_LD;
        if (op == CMP_F64_SUB) return CMP_F64_SUB_LD;
        if (op == CMP_F64_MUL) return CMP_F64_MUL_LD;
    } else if (load == CMP_LOAD32) {
        if (op == CMP_F32_ADD) return CMP_F32_ADD_LD;
        if (op == CMP_F32_SUB) return CMP_F32_SUB_LD;
        if (op == CMP_F32_MUL) return CMP_F32_MUL_LD;
        if (op == CMP_I32_ADD) return CMP_I32_ADD_LD;
    }
    return 0;
}

/* The integer comparison that is the negation of `cmp` (i32.eqz of its
   result), or 0: the one whose taken branch is cmp's not-taken branch in
   cmp_fused_for's table. Float comparisons have none (NaN). */
static uint32_t inverse_compare(uint32_t cmp) {
    uint32_t t, f;
    cmp_fused_for(cmp, &t, &f);
    if (!f) return 0;
    for (uint32_t op = CMP_I32_EQ; op <= CMP_I64_GE_U; op++) {
        uint32_t t2, f2;
        cmp_fused_for(op, &t2, &f2);
        if (t2 == f) return op;
    }
    for (uint32_t op = CMP_I32_EQ_IMM; op <= CMP_I64_GE_U_IMM; op++) {
        uint32_t t2, f2;
        cmp_fused_for(op, &t2, &f2);
        if (t2 == f) return op;
    }
    return 0;
}

/* i32.eqz of a comparison computed just before and used only here: the
   inverse comparison in its place, one operation instead of two, which a
   br_if after it then fuses as well (clang writes `x != 0` as
   `i64.eqz; i32.eqz`, and `br_if (i32.eqz (i32.lt_s ..))` for loop exits;
   the CPU loop of bench/threads had one dispatch in 20 of this kind).
   i32.eqz (i64.eqz x) is x != 0: i64.ne with the immediate 0. */
static bool fold_eqz_of_compare(compiler *c, uint32_t a_slot) {
    /* Not cmp_producer_of: its "none" is 0, which is also I32_EQZ. */
    if (c->producer_end != c->code.len || c->producer_end == NO_POS || c->oom) return false;
    if (c->code.data[c->producer_dst] != a_slot) return false;
    uint32_t prod = c->code.data[c->producer_dst - 1];
    uint32_t inv = prod == CMP_I32_EQZ ? CMP_I32_NE_IMM : prod == CMP_I64_EQZ ? CMP_I64_NE_IMM : inverse_compare(prod);
    if (!inv) return false;
    bool unary = prod == CMP_I32_EQZ || prod == CMP_I64_EQZ;
    bool imm = unary || (prod >= CMP_I32_ADD_IMM && prod <= CMP_I64_GE_U_IMM);
    uint32_t at = c->producer_dst - 1;
    uint32_t x = c->code.data[at + 2];
    uint32_t y = unary ? 0 : c->code.data[at + 3];
    /* Take the comparison off the end (as cmp_take_producer, which would
       read a third operand word that a unary one does not have). */
    c->code.len = at;
    c->pcmap.len -= 2;
    while (c->const_refs.len && c->const_refs.data[c->const_refs.len - 1] >= at) c->const_refs.len--;
    c->producer_end = NO_POS;
    uint32_t dst = cmp_push(c, WEFT_I32);
    cmp_emit_op(c, inv);
    uint32_t dpos = (uint32_t)c->code.len;
    cmp_emit(c, dst);
    cmp_emit_src(c, x);
    if (imm) cmp_emit(c, y);
    else cmp_emit_src(c, y);
    cmp_mark_producer(c, dpos);
    return true;
}

/* An i32 operation whose operand a or b (b first) was made just before by
   `producer` and is used only here: the producer is taken back and one
   `fused` operation emitted (dst, the other operand, the producer's two
   operands; its second is a slot if `second_is_slot`, else an immediate).
   False, emitting nothing, when neither operand qualifies. */
static bool fuse_with_producer(compiler *c, centry a, centry b, uint32_t producer, uint32_t fused,
                               bool second_is_slot) {
    bool on_a = cmp_producer_of(c, b.slot) != producer && cmp_producer_of(c, a.slot) == producer;
    if (!on_a && cmp_producer_of(c, b.slot) != producer) return false;
    uint32_t other = on_a ? b.slot : a.slot, x, y;
    cmp_take_producer(c, &x, &y);
    uint32_t dst = cmp_push(c, WEFT_I32);
    cmp_emit_op(c, fused);
    uint32_t dpos = (uint32_t)c->code.len;
    cmp_emit(c, dst);
    cmp_emit_src(c, other);
    cmp_emit_src(c, x);
    if (second_is_slot) cmp_emit_src(c, y);
    else cmp_emit(c, y);
    cmp_mark_producer(c, dpos);
    return true;
}

weft_status cmp_compile_numeric(compiler *c, const cmp_numeric_info *ni) {
    centry a, b = {0, 0, 0};
    if (ni->arity == 2) TRY(cmp_pop(c, ni->at, &b));
    TRY(cmp_pop(c, ni->at, &a));
    if (ni->op == CMP_I32_EQZ && fold_eqz_of_compare(c, a.slot)) return WEFT_OK;
    if (ni->arity == 2) {
        bool wide = ni->at == WEFT_I64;
        uint32_t op = ni->op, imm = imm_candidate(c, op, b.slot, wide);
        if (!imm && swapped_form[op] && (imm = imm_candidate(c, swapped_form[op], a.slot, wide))) {
            centry t = a;
            a = b;
            b = t;
        }
        if (imm == CMP_I32_AND_IMM && cmp_producer_of(c, a.slot) == CMP_I32_SHR_U_IMM) {
            /* (x >> k) & mask, a bit field: one operation. */
            uint32_t x, shift;
            cmp_take_producer(c, &x, &shift);
            uint32_t dst = cmp_push(c, ni->rt);
            cmp_emit_op(c, CMP_I32_SHR_U_AND);
            uint32_t dpos = (uint32_t)c->code.len;
            cmp_emit(c, dst);
            cmp_emit_src(c, x);
            cmp_emit(c, shift);
            cmp_emit(c, (uint32_t)c->consts.data[b.slot - CONST_MARK]);
            cmp_mark_producer(c, dpos);
            return WEFT_OK;
        }
        if (imm) {
            uint32_t dst = cmp_push(c, ni->rt);
            cmp_emit_op(c, imm);
            uint32_t dpos = (uint32_t)c->code.len;
            cmp_emit(c, dst);
            cmp_emit_src(c, a.slot);
            cmp_emit(c, (uint32_t)c->consts.data[b.slot - CONST_MARK]);
            cmp_mark_producer(c, dpos);
            return WEFT_OK;
        }
    }
    if (ni->op == CMP_I32_XOR) {
        /* An operand rotated by a constant just before and used only here:
           rotate it in the xor (sha256's and most hashes' rounds are
           chains of rotl-then-xor, 10 % of sha256's operations). */
        if (fuse_with_producer(c, a, b, CMP_I32_ROTL_IMM, CMP_I32_XOR_ROTL, false)) return WEFT_OK;
    }
    if (ni->arity == 2) {
        /* An operand loaded just before and used only here: load it in the
           operation itself. */
        uint32_t fused = load_operand_form(ni->op, cmp_producer_of(c, b.slot));
        if (!fused && swapped_form[ni->op] == ni->op && (fused = load_operand_form(ni->op, cmp_producer_of(c, a.slot)))) {
            centry t = a;
            a = b;
            b = t;
        }
        if (fused) {
            cmp_emit_load_fused(c, fused, ni->rt, a.slot);
            return WEFT_OK;
        }
    }
    if (ni->op == CMP_I32_ADD) {
        /* A sum computed just before and used only here: one three-way
           add (sha256's and coremark's most frequent pair of operations). */
        if (fuse_with_producer(c, a, b, CMP_I32_ADD, CMP_I32_ADD3, true)) return WEFT_OK;
    }
    uint32_t dst = cmp_push(c, ni->rt);
    cmp_emit_op(c, ni->op);
    uint32_t dpos = (uint32_t)c->code.len;
    cmp_emit(c, dst);
    cmp_emit_src(c, a.slot);
    if (ni->arity == 2) cmp_emit_src(c, b.slot);
    cmp_mark_producer(c, dpos);
    return WEFT_OK;
}
