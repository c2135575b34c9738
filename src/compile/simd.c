/*
 * simd.c — validation (spec §3.3.3 vector instructions, §3.3.7 vector
 * memory instructions) and translation of the fixed-width SIMD proposal:
 * every instruction of the 0xFD prefix, with Wasm 3.0's relaxed SIMD
 * (sub-opcodes 0x100-0x113), as listed once in ops.h (the SIMD rows of
 * CMP_OPS). The translation follows compile.c's register style: a
 * v128 entry names the first of its two slots, results are computed into
 * the entry's home (or retargeted to a local by local.set), and every
 * operation is one internal operation word with slots and immediates.
 */
#include "compiler.h"

typedef struct simd_info {
    uint16_t op;          /* internal operation */
    uint8_t kind;         /* cmp_simd_kind */
    uint8_t n;            /* bytes accessed, or lanes */
    mod_valtype scalar;  /* splat / extract / replace scalar type */
    bool valid;
} simd_info;

/* A row's sub-opcode: 0xFDnn is nn, 0xFDnnn (relaxed SIMD) is nnn. */
#define SIMD_SUB(code) ((code) > 0xFFFF ? (code) & 0xFFF : (code) & 0xFF)
#define SIMD_FIRST_RELAXED 0x100
#define SIMD_NSUB 0x114 /* relaxed SIMD's last is 0x113 */

/* Sub-opcode -> operation; the holes of the opcode space are not valid. */
static const simd_info simd_table[SIMD_NSUB] = {
#define CMP_X_SIMD(name, code, cls, shape, rt, at, n, of, fx)                                \
    CMP_WHEN(cls, SIMD)([SIMD_SUB(code)] = {CMP_##name, shape, n, CMP_TY_##rt | CMP_TY_##at, true},)
    CMP_OPS(CMP_X_SIMD)
#undef CMP_X_SIMD
};

static weft_status read_sub(compiler *c, const simd_info **out) {
    uint32_t sub;
    READ_U32(&sub);
    /* Relaxed SIMD off (WEFT_FEATURE_RELAXED_SIMD): its opcodes are
       illegal, as in Wasm 2.0. */
    bool relaxed = base_feature_on(c->m->engine, WEFT_FEATURE_RELAXED_SIMD);
    if (sub >= SIMD_NSUB || !simd_table[sub].valid || (sub >= SIMD_FIRST_RELAXED && !relaxed))
        return cmp_fail(c, WEFT_ERR_MALFORMED, "illegal opcode 0xfd %u", sub);
    *out = &simd_table[sub];
    return WEFT_OK;
}

/* A lane index immediate (one byte, §5.4.10) below `lanes`. */
static weft_status read_lane(compiler *c, uint32_t lanes, uint32_t *lane) {
    uint8_t b;
    READ_U8(&b);
    if (b >= lanes) return cmp_fail(c, WEFT_ERR_INVALID, "invalid lane index");
    *lane = b;
    return WEFT_OK;
}

/* 16 immediate bytes as four code words (little-endian, like memory). */
static weft_status read_bytes16(compiler *c, uint32_t words[4]) {
    const uint8_t *p;
    if (!base_read_bytes(&c->r, 16, &p)) return cmp_read_fail(c);
    memcpy(words, p, 16);
    return WEFT_OK;
}

weft_status cmp_simd_skip(compiler *c, bool consts) {
    const simd_info *si;
    TRY(read_sub(c, &si));
    uint32_t u, w[4] = {0};
    uint8_t b;
    /* multi-memory: a memarg's flag bit 6 says a memory index follows */
    bool multi_memory = base_feature_on(c->m->engine, WEFT_FEATURE_MULTI_MEMORY);
    /* memory64: u64 offsets */
    unsigned offset_bits = base_feature_on(c->m->engine, WEFT_FEATURE_MEMORY64) ? 64 : 32;
    uint64_t u64;
    switch (si->kind) {
    case SV_LOAD_LANE: case SV_STORE_LANE:
        READ_U32(&u);
        if (multi_memory && (u & 0x40) && u < 0x80) READ_U32(&u);
        if (!base_read_uleb(&c->r, offset_bits, &u64)) return cmp_read_fail(c);
        READ_U8(&b);
        return WEFT_OK;
    case SV_LOAD: case SV_STORE:
        READ_U32(&u);
        if (multi_memory && (u & 0x40) && u < 0x80) READ_U32(&u);
        if (!base_read_uleb(&c->r, offset_bits, &u64)) return cmp_read_fail(c);
        return WEFT_OK;
    case SV_CONST: case SV_SHUFFLE:
        TRY(read_bytes16(c, w));
        if (consts && si->kind == SV_CONST) {
            cmp_v128 v;
            memcpy(v.w, w, 16);
            if (!BASE_VEC_PUSH(c->vconsts, v)) c->oom = true;
        }
        return WEFT_OK;
    case SV_EXTRACT: case SV_REPLACE:
        READ_U8(&b);
        return WEFT_OK;
    default:
        return WEFT_OK;
    }
}

/* The entry names the all-zero v128 constant. */
static bool is_zero_vconst(const compiler *c, uint32_t slot) {
    if (!cmp_is_vconst(slot)) return false;
    const cmp_v128 *k = &c->vconsts.data[slot - VCONST_MARK];
    return k->w[0] == 0 && k->w[1] == 0;
}

uint32_t cmp_vconst_slot(const compiler *c, const cmp_v128 *v) {
    size_t lo = 0, hi = c->nvconsts;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        const cmp_v128 *m = &c->vconsts.data[mid];
        bool less = m->w[1] != v->w[1] ? m->w[1] < v->w[1] : m->w[0] < v->w[0];
        if (less) lo = mid + 1;
        else hi = mid;
    }
    return lo < c->nvconsts && !memcmp(&c->vconsts.data[lo], v, sizeof *v) ? VCONST_MARK + (uint32_t)lo : NO_SLOT;
}

/* Pushes a v128 (or `t`) result and emits `op dst`; returns the position
   of the dst word for cmp_mark_producer. */
static uint32_t emit_result_op(compiler *c, uint32_t op, mod_valtype t) {
    uint32_t dst = cmp_push(c, t);
    cmp_emit_op(c, op);
    uint32_t dpos = (uint32_t)c->code.len;
    cmp_emit(c, dst);
    return dpos;
}

/* The form of a lane-wise binary operation that loads its second operand
   (a v128.load just before, used only here), or 0; *commutes when the
   loaded value may be the first operand instead. */
static uint32_t load_operand_form(uint32_t op, bool *commutes) {
    static const struct { uint16_t op, fused; bool commutes; } forms[] = {
        {CMP_F32X4_ADD, CMP_F32X4_ADD_LD, true}, {CMP_F32X4_SUB, CMP_F32X4_SUB_LD, false},
        {CMP_F32X4_MUL, CMP_F32X4_MUL_LD, true}, {CMP_F64X2_ADD, CMP_F64X2_ADD_LD, true},
        {CMP_F64X2_SUB, CMP_F64X2_SUB_LD, false}, {CMP_F64X2_MUL, CMP_F64X2_MUL_LD, true},
        {CMP_I32X4_ADD, CMP_I32X4_ADD_LD, true}, {CMP_I16X8_ADD, CMP_I16X8_ADD_LD, true},
        {CMP_I8X16_ADD, CMP_I8X16_ADD_LD, true},
    };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++)
        if (forms[i].op == op) {
            *commutes = forms[i].commutes;
            return forms[i].fused;
        }
    return 0;
}

/* v128.load whose address the add just before computed (and nothing else
   uses): one operation, V128_LOAD_ADD[I]. Returns false when there is no
   such add. */
static bool fuse_address(compiler *c, const centry *addr, uint32_t offset) {
    uint32_t prod = cmp_producer_of(c, addr->slot), a, b;
    if (prod != CMP_I32_ADD_IMM && prod != CMP_I32_ADD) return false;
    cmp_take_producer(c, &a, &b);
    uint32_t dst = cmp_push(c, WEFT_V128);
    cmp_emit_op(c, prod == CMP_I32_ADD_IMM ? CMP_V128_LOAD_ADDI : CMP_V128_LOAD_ADD);
    uint32_t dpos = (uint32_t)c->code.len;
    cmp_emit(c, dst);
    cmp_emit_src(c, a);
    if (prod == CMP_I32_ADD_IMM) cmp_emit(c, b);
    else cmp_emit_src(c, b);
    cmp_emit(c, offset);
    cmp_mark_producer(c, dpos);
    return true;
}

/* y += a * x, the loop body of axpy, dot products and matrix products:
   `MUL_LD t, a, x; V128_LOAD u, y; ADD t, u` (f32x4/f64x2) is one
   operation with both loads. The multiply and the add still round
   separately, as the spec requires. Returns false unless the two
   operations just before are that multiply (writing a's home, no branch
   landing between) and the load of b. */
static bool fuse_axpy(compiler *c, const simd_info *si, centry a, centry b) {
    uint32_t mul = si->op == CMP_F32X4_ADD ? CMP_F32X4_MUL_LD : si->op == CMP_F64X2_ADD ? CMP_F64X2_MUL_LD : 0;
    if (!mul || cmp_producer_of(c, b.slot) != CMP_V128_LOAD || c->pcmap.len < 4) return false;
    uint32_t load_pos = c->pcmap.data[c->pcmap.len - 2], mul_pos = c->pcmap.data[c->pcmap.len - 4];
    const uint32_t *w = c->code.data;
    if (w[mul_pos] != mul || mul_pos + 5 != load_pos || w[mul_pos + 1] != a.slot ||
        a.slot != cmp_home(c, c->stack.len) || (c->last_target != NO_POS && c->last_target > mul_pos))
        return false;
    uint32_t ma = w[mul_pos + 2], maddr = w[mul_pos + 3], moff = w[mul_pos + 4];
    uint32_t baddr = w[load_pos + 2], boff = w[load_pos + 3], here = c->op_offset;
    uint32_t mul_offset = c->pcmap.data[c->pcmap.len - 3];
    /* Drop both, with the constant references they recorded. */
    c->code.len = mul_pos;
    c->pcmap.len -= 4;
    while (c->const_refs.len && c->const_refs.data[c->const_refs.len - 1] >= mul_pos) c->const_refs.len--;
    c->producer_end = NO_POS;
    uint32_t dst = cmp_push(c, WEFT_V128);
    c->op_offset = mul_offset; /* only the loads can trap; the first is the multiply's */
    cmp_emit_op(c, si->op == CMP_F32X4_ADD ? CMP_F32X4_MUL_ADD_LD : CMP_F64X2_MUL_ADD_LD);
    c->op_offset = here;
    uint32_t dpos = (uint32_t)c->code.len;
    cmp_emit(c, dst);
    cmp_emit_src(c, ma);
    cmp_emit_src(c, maddr);
    cmp_emit(c, moff);
    cmp_emit_src(c, baddr);
    cmp_emit(c, boff);
    cmp_mark_producer(c, dpos);
    return true;
}

/* a op b where b (or a, for commutative ops) was loaded by the v128.load
   just before: the operation loads it itself. */
static bool fuse_loaded_operand(compiler *c, const simd_info *si, centry a, centry b) {
    bool commutes = false;
    uint32_t fused = load_operand_form(si->op, &commutes);
    if (!fused) return false;
    if (cmp_producer_of(c, b.slot) != CMP_V128_LOAD) {
        if (!commutes || cmp_producer_of(c, a.slot) != CMP_V128_LOAD) return false;
        centry t = a;
        a = b;
        b = t;
    }
    cmp_emit_load_fused(c, fused, WEFT_V128, a.slot);
    return true;
}

weft_status cmp_simd_instr(compiler *c) {
    const simd_info *si;
    TRY(read_sub(c, &si));
    centry a, b, v;
    uint32_t offset = 0, lane = 0, words[4] = {0}, dpos;
    cmp_memarg marg;
    switch ((cmp_simd_kind)si->kind) {
    case SV_LOAD:
        TRY(cmp_read_memarg(c, si->n, false, &marg));
        offset = marg.offset;
        TRY(cmp_mem_begin(c, &marg, &a));
        if (marg.mem == 0 && !marg.big && si->op == CMP_V128_LOAD && fuse_address(c, &a, offset)) return WEFT_OK;
        dpos = emit_result_op(c, si->op, WEFT_V128);
        cmp_emit_src(c, a.slot);
        cmp_emit(c, offset);
        cmp_mark_producer(c, dpos);
        cmp_mem_end(c, &marg);
        return WEFT_OK;
    case SV_STORE:
    case SV_LOAD_LANE:
    case SV_STORE_LANE: {
        /* address, vector, offset[, lane]; a lane load also has a result. */
        bool has_lane = si->kind != SV_STORE, loads = si->kind == SV_LOAD_LANE;
        TRY(cmp_read_memarg(c, si->n, false, &marg));
        offset = marg.offset;
        if (has_lane) TRY(read_lane(c, 16u / si->n, &lane));
        TRY(cmp_pop(c, WEFT_V128, &v));
        TRY(cmp_mem_begin(c, &marg, &a));
        if (loads) dpos = emit_result_op(c, si->op, WEFT_V128);
        else cmp_emit_op(c, si->op);
        cmp_emit_src(c, a.slot);
        cmp_emit_src(c, v.slot);
        cmp_emit(c, offset);
        if (has_lane) cmp_emit(c, lane);
        if (loads) cmp_mark_producer(c, dpos);
        cmp_mem_end(c, &marg);
        return WEFT_OK;
    }
    case SV_CONST: {
        TRY(read_bytes16(c, words));
        /* Like scalar constants: the entry names the constant's slots. */
        cmp_v128 k;
        memcpy(k.w, words, 16);
        uint32_t ks = cmp_vconst_slot(c, &k);
        if (ks != NO_SLOT) {
            cmp_push_at(c, WEFT_V128, ks);
            return WEFT_OK;
        }
        dpos = emit_result_op(c, si->op, WEFT_V128);
        for (int i = 0; i < 4; i++) cmp_emit(c, words[i]);
        cmp_mark_producer(c, dpos);
        return WEFT_OK;
    }
    case SV_SHUFFLE: {
        TRY(read_bytes16(c, words));
        const uint8_t *lanes = (const uint8_t *)words;
        for (int i = 0; i < 16; i++)
            if (lanes[i] >= 32) return cmp_fail(c, WEFT_ERR_INVALID, "invalid lane index");
        TRY(cmp_pop(c, WEFT_V128, &b));
        TRY(cmp_pop(c, WEFT_V128, &a));
        /* The lanes as byte masks, one per operand: the byte index into
           that operand, or 0x80 (pshufb's "zero") where the lane comes
           from the other. Compilers zero-extend with a shuffle against a
           zero vector, and shuffle a vector with itself: one mask then
           does (I8X16_SHUFFLE1). */
        uint8_t ma[16], mb[16], one[16];
        bool a_zero = is_zero_vconst(c, a.slot), b_zero = is_zero_vconst(c, b.slot);
        bool single = a.slot == b.slot || a_zero || b_zero;
        for (int i = 0; i < 16; i++) {
            ma[i] = lanes[i] < 16 ? lanes[i] : 0x80;
            mb[i] = lanes[i] >= 16 ? (uint8_t)(lanes[i] - 16) : 0x80;
            one[i] = a.slot == b.slot ? (uint8_t)(lanes[i] & 15)
                     : b_zero ? ma[i] : mb[i];
        }
        if (single) {
            dpos = emit_result_op(c, CMP_I8X16_SHUFFLE1, WEFT_V128);
            cmp_emit_src(c, b_zero ? a.slot : b.slot);
            memcpy(words, one, 16);
            for (int i = 0; i < 4; i++) cmp_emit(c, words[i]);
            cmp_mark_producer(c, dpos);
            return WEFT_OK;
        }
        dpos = emit_result_op(c, si->op, WEFT_V128);
        cmp_emit_src(c, a.slot);
        cmp_emit_src(c, b.slot);
        memcpy(words, ma, 16);
        for (int i = 0; i < 4; i++) cmp_emit(c, words[i]);
        memcpy(words, mb, 16);
        for (int i = 0; i < 4; i++) cmp_emit(c, words[i]);
        cmp_mark_producer(c, dpos);
        return WEFT_OK;
    }
    case SV_SPLAT:
        TRY(cmp_pop(c, si->scalar, &a));
        dpos = emit_result_op(c, si->op, WEFT_V128);
        cmp_emit_src(c, a.slot);
        cmp_mark_producer(c, dpos);
        return WEFT_OK;
    case SV_EXTRACT:
        TRY(read_lane(c, si->n, &lane));
        TRY(cmp_pop(c, WEFT_V128, &a));
        dpos = emit_result_op(c, si->op, si->scalar);
        cmp_emit_src(c, a.slot);
        cmp_emit(c, lane);
        cmp_mark_producer(c, dpos);
        return WEFT_OK;
    case SV_REPLACE:
        TRY(read_lane(c, si->n, &lane));
        TRY(cmp_pop(c, si->scalar, &b));
        TRY(cmp_pop(c, WEFT_V128, &a));
        dpos = emit_result_op(c, si->op, WEFT_V128);
        cmp_emit_src(c, a.slot);
        cmp_emit_src(c, b.slot);
        cmp_emit(c, lane);
        cmp_mark_producer(c, dpos);
        return WEFT_OK;
    case SV_UN:
    case SV_TEST:
        TRY(cmp_pop(c, WEFT_V128, &a));
        dpos = emit_result_op(c, si->op, si->kind == SV_TEST ? WEFT_I32 : WEFT_V128);
        cmp_emit_src(c, a.slot);
        cmp_mark_producer(c, dpos);
        return WEFT_OK;
    case SV_BIN:
    case SV_SHIFT:
        TRY(cmp_pop(c, si->kind == SV_SHIFT ? WEFT_I32 : WEFT_V128, &b));
        TRY(cmp_pop(c, WEFT_V128, &a));
        if (si->kind == SV_BIN && fuse_axpy(c, si, a, b)) return WEFT_OK;
        if (si->kind == SV_BIN && fuse_loaded_operand(c, si, a, b)) return WEFT_OK;
        dpos = emit_result_op(c, si->op, WEFT_V128);
        cmp_emit_src(c, a.slot);
        cmp_emit_src(c, b.slot);
        cmp_mark_producer(c, dpos);
        return WEFT_OK;
    case SV_TERN: {
        centry m;
        TRY(cmp_pop(c, WEFT_V128, &m));
        TRY(cmp_pop(c, WEFT_V128, &b));
        TRY(cmp_pop(c, WEFT_V128, &a));
        dpos = emit_result_op(c, si->op, WEFT_V128);
        cmp_emit_src(c, a.slot);
        cmp_emit_src(c, b.slot);
        cmp_emit_src(c, m.slot);
        cmp_mark_producer(c, dpos);
        return WEFT_OK;
    }
    }
    return cmp_fail(c, WEFT_ERR_MALFORMED, "illegal opcode 0xfd");
}
