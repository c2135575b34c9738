/*
 * compile.c — validates function bodies (spec §3.3, using the algorithm of
 * the spec's appendix "Validation Algorithm") and, in the same pass,
 * translates them into the slot-addressed code of code.h.
 *
 * Why one pass: validation already tracks the operand stack's height and
 * types, which is exactly what slot assignment needs; a second walk would
 * redo that work.
 *
 * Translation in brief (docs/code-format.md has the details):
 *  - stack position h is slot `base + h` (its "home"), base = locals + temps;
 *  - local.get emits nothing: the stack entry just names the local's slot;
 *    the entry is materialised (copied home) only when the local is written
 *    while the entry lives, or at a control-flow boundary;
 *  - an operation writing a value that local.set/tee stores right away is
 *    retargeted to write the local directly;
 *  - branches copy their values to the target label's home slots, then jump
 *    to a resolved code position; no label search at run time.
 *
 * Numeric instructions and the fusions around them are in numeric.c, the
 * SIMD prefix in simd.c; both are part of this one pass.
 */
#include "compiler.h"
#include "../jit/jit.h"

#include <stdio.h>

/* ------------------------------------------------------------------------
 * Errors
 * ------------------------------------------------------------------------ */

weft_status cmp_fail(compiler *c, weft_status st, const char *fmt, ...) {
    char msg[256];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    const char *name = c->m->func_names ? c->m->func_names[c->func_index] : NULL;
    return base_fail_at(c->err, st, c->func_index, c->op_offset, "%s (function %u%s%s%s, offset 0x%x)",
                        msg, c->func_index, name ? " <" : "", name ? name : "", name ? ">" : "",
                        c->op_offset);
}

static weft_status cmp_oom(compiler *c) {
    return base_fail(c->err, WEFT_ERR_NOMEM, "out of memory compiling function %u", c->func_index);
}

/* A failed read inside an instruction: "unexpected end" and friends. */
weft_status cmp_read_fail(compiler *c) {
    return cmp_fail(c, WEFT_ERR_MALFORMED, "%s", c->r.why ? c->r.why : "unexpected end");
}


/* ------------------------------------------------------------------------
 * Emission
 * ------------------------------------------------------------------------ */

void cmp_emit_op(compiler *c, uint32_t op) {
    if (!BASE_VEC_RESERVE(c->pcmap, 2)) {
        c->oom = true;
        return;
    }
    c->pcmap.data[c->pcmap.len++] = (uint32_t)c->code.len;
    c->pcmap.data[c->pcmap.len++] = c->op_offset;
    cmp_emit(c, op);
}

/* Emits a source operand: a slot, or a constant's marker to be replaced by
   the constant's slot once the frame layout is known. */
void cmp_emit_src(compiler *c, uint32_t slot) {
    if (slot >= CONST_MARK && slot != NO_SLOT) {
        if (!BASE_VEC_PUSH(c->const_refs, (uint32_t)c->code.len)) c->oom = true;
        c->const_used[slot - CONST_MARK] = 1;
    } else if (cmp_is_vconst(slot)) {
        if (!BASE_VEC_PUSH(c->const_refs, (uint32_t)c->code.len)) c->oom = true;
        c->vconst_used[slot - VCONST_MARK] = 1;
    }
    cmp_emit(c, slot);
}

static void emit_copy(compiler *c, uint32_t dst, uint32_t src) {
    if (dst == src) return;
    uint32_t at = (uint32_t)c->code.len;
    if (c->copy_end == at && c->last_target != at && !c->oom) {
        /* Two copies in a row (no branch lands between them): one
           operation. The first stays first, so order is kept. A COPY is
           3 words, so at >= 3 here. */
        c->code.data[at - 3] = CMP_COPY2;
        cmp_emit(c, dst);
        cmp_emit_src(c, src);
        c->copy_end = NO_POS;
        return;
    }
    cmp_emit_op(c, CMP_COPY);
    cmp_emit(c, dst);
    cmp_emit_src(c, src);
    c->copy_end = c->oom ? NO_POS : (uint32_t)c->code.len;
}

/* Copies a value of type t: a v128 moves both its slots in one operation
   (it never names a constant). */
static void emit_copy_t(compiler *c, uint32_t dst, uint32_t src, mod_valtype t) {
    if (t != WEFT_V128) {
        emit_copy(c, dst, src);
        return;
    }
    if (dst == src) return;
    cmp_emit_op(c, CMP_COPY128);
    cmp_emit(c, dst);
    cmp_emit_src(c, src);
    c->copy_end = NO_POS;
}

/* Removes that operation (whose operands are dst, a, b) to fuse it into
   its consumer; returns a and b as they were written. */
void cmp_take_producer(compiler *c, uint32_t *a, uint32_t *b) {
    uint32_t at = c->producer_dst - 1;
    *a = c->code.data[at + 2];
    *b = c->code.data[at + 3];
    c->code.len = at;
    c->pcmap.len -= 2;
    c->taken_offset = c->pcmap.data[c->pcmap.len + 1];
    while (c->const_refs.len && c->const_refs.data[c->const_refs.len - 1] >= at) c->const_refs.len--;
    /* Re-emitting a marker's word records it again, so put markers back. */
    c->producer_end = NO_POS;
}

void cmp_emit_load_fused(compiler *c, uint32_t fused, mod_valtype rt, uint32_t a_slot) {
    uint32_t addr, offset, here = c->op_offset;
    cmp_take_producer(c, &addr, &offset);
    uint32_t dst = cmp_push(c, rt);
    c->op_offset = c->taken_offset; /* only the load can trap */
    cmp_emit_op(c, fused);
    c->op_offset = here;
    uint32_t dpos = (uint32_t)c->code.len;
    cmp_emit(c, dst);
    cmp_emit_src(c, a_slot);
    cmp_emit_src(c, addr);
    cmp_emit(c, offset);
    cmp_mark_producer(c, dpos);
}

/* The load that adds its address itself: _ADDI (a + immediate) or _ADD. */
static uint32_t fused_load(uint32_t load, bool imm) {
    switch (load) {
#define CMP_FUSED_LOAD(op) case CMP_##op: return imm ? CMP_##op##_ADDI : CMP_##op##_ADD;
    CMP_FUSED_LOAD(LOAD32) CMP_FUSED_LOAD(LOAD64) CMP_FUSED_LOAD(LOAD8_U) CMP_FUSED_LOAD(LOAD16_U)
    CMP_FUSED_LOAD(I32_LOAD8_S) CMP_FUSED_LOAD(I32_LOAD16_S) CMP_FUSED_LOAD(I64_LOAD8_S)
    CMP_FUSED_LOAD(I64_LOAD16_S) CMP_FUSED_LOAD(I64_LOAD32_S)
#undef CMP_FUSED_LOAD
    default: return 0;
    }
}

/* A comparison taken off the end of the code to be fused into the branch
   that consumes it. op == 0 means none. */
typedef struct peeled {
    uint32_t op;     /* fused BR_IF_* operation, or 0 */
    uint32_t a, b;   /* its operands (b unused by the eqz forms) */
    bool unary;
    bool imm;        /* b is an immediate, not a slot */
} peeled;

/* If the last operation is an integer comparison writing `cond_slot` (the
   branch's condition, consumed by it), removes it and returns it in *pk so
   the branch can test its operands itself. */
static void peel_compare(compiler *c, uint32_t cond_slot, bool when_true, peeled *pk) {
    pk->op = 0;
    if (c->producer_end != c->code.len || c->producer_end == NO_POS) return;
    uint32_t at = c->producer_dst - 1;
    uint32_t cmp = c->code.data[at];
    if (c->code.data[c->producer_dst] != cond_slot) return;
    uint32_t t, f;
    cmp_fused_for(cmp, &t, &f);
    if (!t) return;
    pk->op = when_true ? t : f;
    pk->unary = cmp == CMP_I32_EQZ || cmp == CMP_I64_EQZ;
    pk->imm = cmp >= CMP_I32_ADD_IMM && cmp <= CMP_I64_GE_U_IMM;
    pk->a = c->code.data[at + 2];
    pk->b = pk->unary ? 0 : c->code.data[at + 3];
    c->code.len = at;
    c->pcmap.len -= 2; /* the comparison's entry */
    while (c->const_refs.len && c->const_refs.data[c->const_refs.len - 1] >= at) c->const_refs.len--;
    c->producer_end = NO_POS;
}

/* Emits a branch taken when the condition is `when_true`, fused with a
   peeled comparison if there is one. Returns the target word's position. */
static uint32_t emit_cond_branch(compiler *c, const peeled *pk, uint32_t cond_slot, bool when_true) {
    if (pk->op) {
        cmp_emit_op(c, pk->op);
        cmp_emit_src(c, pk->a);
        if (pk->imm) cmp_emit(c, pk->b);
        else if (!pk->unary) cmp_emit_src(c, pk->b);
    } else {
        cmp_emit_op(c, when_true ? CMP_BR_IF : CMP_BR_UNLESS);
        cmp_emit_src(c, cond_slot);
    }
    uint32_t pos = (uint32_t)c->code.len;
    cmp_emit(c, 0);
    return pos;
}

/* ------------------------------------------------------------------------
 * The operand stack
 * ------------------------------------------------------------------------ */

/* Stack position h lives at the base plus the slots of the entries below
   it (one each, two for a v128). Entries below a block's height never
   change while the block is open, so labels' homes are stable. */
uint32_t cmp_home(const compiler *c, size_t index) {
    if (index < c->stack.len) return c->stack.data[index].home;
    if (index == 0) return c->base;
    const centry *below = &c->stack.data[index - 1];
    return below->home + cmp_slot_width(below->type);
}

static ctl *top_ctl(compiler *c) { return &c->ctls.data[c->ctls.len - 1]; }

/* Constants: a stack entry may name constant k of the body's table by the
   marker CONST_MARK + k instead of a slot. Operations with an immediate form
   take the value into the code; any other use gives the constant a slot
   right after the locals, filled on function entry (emit_src records the
   word, compile_function assigns the slot). Slots above the stack would not
   do: a callee's frame starts inside the caller's stack. Returns the marker
   of `bits`, or NO_SLOT when the table is full. */
static uint32_t const_slot(const compiler *c, uint64_t bits) {
    size_t lo = 0, hi = c->nconsts;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (c->consts.data[mid] < bits) lo = mid + 1;
        else hi = mid;
    }
    return lo < c->nconsts && c->consts.data[lo] == bits ? CONST_MARK + (uint32_t)lo : NO_SLOT;
}


void cmp_push_at(compiler *c, mod_valtype t, uint32_t slot) {
    centry e = {t, slot, cmp_home(c, c->stack.len)};
    if (!BASE_VEC_PUSH(c->stack, e)) {
        c->oom = true;
        return;
    }
    uint32_t top = e.home + cmp_slot_width(t) - c->base;
    if (top > c->max_height) c->max_height = top;
}

/* Pushes a value that lives in its home slot; returns that slot. */
uint32_t cmp_push(compiler *c, mod_valtype t) {
    uint32_t s = cmp_home(c, c->stack.len);
    cmp_push_at(c, t, s);
    return s;
}

static bool is_num(mod_valtype t) {
    return t == WEFT_I32 || t == WEFT_I64 || t == WEFT_F32 || t == WEFT_F64 || t == T_UNKNOWN;
}
static bool is_ref(mod_valtype t) {
    return mod_is_ref(t) || t == T_UNKNOWN;
}

/* Pops a value of type `expect` (T_UNKNOWN: any type). */
weft_status cmp_pop(compiler *c, mod_valtype expect, centry *out) {
    ctl *f = top_ctl(c);
    if (c->stack.len == f->height) {
        if (f->unreachable) {
            out->type = expect;
            out->slot = NO_SLOT;
            return WEFT_OK;
        }
        char a[32];
        return cmp_fail(c, WEFT_ERR_INVALID, "type mismatch: expected %s, found nothing",
                        expect ? mod_valtype_str(expect, a) : "a value");
    }
    centry e = c->stack.data[--c->stack.len];
    /* Wasm 3.0 §3.3.1: the operand's type must match (be a subtype of)
       the expected one. */
    if (expect != T_UNKNOWN && e.type != T_UNKNOWN && e.type != expect &&
        !mod_valtype_sub(c->m, e.type, expect)) {
        char a[32], b[32];
        return cmp_fail(c, WEFT_ERR_INVALID, "type mismatch: expected %s, found %s",
                        mod_valtype_str(expect, a), mod_valtype_str(e.type, b));
    }
    if (e.type == T_UNKNOWN) e.type = expect;
    *out = e;
    return WEFT_OK;
}

/* Pops the given types in reverse (the last one is on top). */
static weft_status pop_types(compiler *c, uint32_t n, const mod_valtype *types) {
    centry e;
    for (uint32_t i = n; i-- > 0;) TRY(cmp_pop(c, types[i], &e));
    return WEFT_OK;
}

/* Checks that the top n values have the given types, without popping
   (used by br_if and br_table, whose values stay or are re-pushed). */
static weft_status check_top(compiler *c, uint32_t n, const mod_valtype *types) {
    size_t saved = c->stack.len;
    centry save[8];
    centry *keep = n <= 8 ? save : malloc(n * sizeof *keep);
    if (!keep) return cmp_oom(c);
    size_t popped = 0;
    weft_status st = WEFT_OK;
    for (uint32_t i = n; i-- > 0;) {
        size_t before = c->stack.len;
        centry e;
        st = cmp_pop(c, types[i], &e);
        if (st != WEFT_OK) break;
        if (c->stack.len < before) keep[popped++] = c->stack.data[c->stack.len];
    }
    /* Restore what was popped (only real entries were removed). */
    c->stack.len = saved - popped;
    for (size_t i = popped; i-- > 0;) c->stack.data[c->stack.len++] = keep[i];
    if (keep != save) free(keep);
    return st;
}

/* Copies entry i home if it currently names a local. */
static void materialise(compiler *c, size_t i) {
    centry *e = &c->stack.data[i];
    uint32_t h = cmp_home(c, i);
    if (e->slot != h && e->slot != NO_SLOT) {
        emit_copy_t(c, h, e->slot, e->type);
        e->slot = h;
    }
}

static void materialise_from(compiler *c, size_t from) {
    for (size_t i = from; i < c->stack.len; i++) materialise(c, i);
}

/* Before a local is written: entries still naming it must take a copy. */
static void materialise_local(compiler *c, uint32_t local) {
    for (size_t i = 0; i < c->stack.len; i++)
        if (c->stack.data[i].slot == local) materialise(c, i);
}

/* True when moving entry i into dst..dst+n-1 could overwrite its source
   before it is read: a local inside the range, or a constant when the range
   overlaps the constants' slots (a function's results may). */
static bool move_clobbers(const compiler *c, size_t i, uint32_t dst, uint32_t n) {
    uint32_t s = c->stack.data[i].slot;
    if (s == cmp_home(c, i) || s == NO_SLOT) return false;
    if (cmp_is_const_slot(s) || cmp_is_vconst(s))
        return dst < c->nlocal_slots + cmp_const_area(c) && dst + n > c->nlocal_slots;
    return s + cmp_slot_width(c->stack.data[i].type) > dst && s < dst + n;
}

/* Slots taken by the top n values. */
static uint32_t top_slots(const compiler *c, uint32_t n) {
    uint32_t k = 0;
    for (size_t i = c->stack.len - n; i < c->stack.len; i++) k += cmp_slot_width(c->stack.data[i].type);
    return k;
}

/* Moves the top n values to slots dst..dst+n-1 (a label's home slots).
   Sources are home slots at or above their destination, or locals; a local
   inside the destination range is first copied home, so ascending copies
   never overwrite a value before it is read. */
static void emit_moves(compiler *c, uint32_t n, uint32_t dst, bool consume) {
    if (c->stack.len < n) return; /* unreachable code */
    size_t first = c->stack.len - n;
    if (consume && n == 1 && c->stack.data[first].slot == cmp_home(c, first) && c->producer_end == c->code.len &&
        c->code.data[c->producer_dst] == cmp_home(c, first)) {
        /* The one value was just computed and is consumed here: compute
           it into its destination. */
        c->code.data[c->producer_dst] = dst;
        c->producer_end = NO_POS;
        return;
    }
    uint32_t nslots = top_slots(c, n);
    for (size_t i = first; i < c->stack.len; i++)
        if (move_clobbers(c, i, dst, nslots)) materialise(c, i);
    for (uint32_t i = 0, off = 0; i < n; i++) {
        const centry *e = &c->stack.data[first + i];
        if (e->slot != NO_SLOT) emit_copy_t(c, dst + off, e->slot, e->type);
        off += cmp_slot_width(e->type);
    }
}

/* True when the top n values already sit in dst..dst+n-1. */
static bool in_place(compiler *c, uint32_t n, uint32_t dst) {
    if (c->stack.len < n) return true;
    size_t first = c->stack.len - n;
    for (uint32_t i = 0, off = 0; i < n; i++) {
        uint32_t s = c->stack.data[first + i].slot;
        if (s != dst + off && s != NO_SLOT) return false;
        off += cmp_slot_width(c->stack.data[first + i].type);
    }
    return true;
}

/* After a conditional branch (br_if, br_on_null, br_on_non_null) the
   values it would have carried have the label's types (Wasm 3.0 §3.3.8:
   [t* i32] -> [t*]), which may be supertypes of what they had. */
static void retype_top(compiler *c, uint32_t n, const mod_valtype *types) {
    if (c->stack.len < n) return;
    for (uint32_t i = 0; i < n; i++) c->stack.data[c->stack.len - n + i].type = types[i];
}

/* Wasm 3.0 §3.3.5 local initialization: the non-defaultable locals set
   inside a block are unset again at its end (and at an else). */
static void undo_local_inits(compiler *c, uint32_t height) {
    while (c->init_log.len > height) c->local_set[c->init_log.data[--c->init_log.len]] = 0;
}

static void set_unreachable(compiler *c) {
    ctl *f = top_ctl(c);
    c->stack.len = f->height;
    f->unreachable = true;
}

/* ------------------------------------------------------------------------
 * Labels
 * ------------------------------------------------------------------------ */

/* Branch targets are stored relative to the word that holds them, so the
   interpreter needs no code base: ip = &word + (int32_t)word. */
static void set_target(compiler *c, uint32_t word, uint32_t target) {
    if (c->oom) return;
    if (target > c->last_target || c->last_target == NO_POS) c->last_target = target;
    c->code.data[word] = (uint32_t)((int32_t)target - (int32_t)word);
}

/* Types a branch to `f` carries (§3.3.8: a loop's label takes its params). */
static void label_types(const ctl *f, uint32_t *n, const mod_valtype **types) {
    if (f->kind == CTL_LOOP) {
        *n = f->nparams;
        *types = f->params;
    } else {
        *n = f->nresults;
        *types = f->results;
    }
}

/* Emits a code-position word that will hold the address of label `f`. */
static void emit_target(compiler *c, ctl *f) {
    if (f->kind == CTL_LOOP) {
        cmp_emit(c, 0);
        set_target(c, (uint32_t)c->code.len - 1, f->loop_pos);
    } else {
        if (!BASE_VEC_PUSH(f->fixups, (uint32_t)c->code.len)) c->oom = true;
        cmp_emit(c, 0);
    }
}

static weft_status read_label(compiler *c, ctl **out) {
    uint32_t depth;
    READ_U32(&depth);
    if (depth >= c->ctls.len) return cmp_fail(c, WEFT_ERR_INVALID, "unknown label %u", depth);
    *out = &c->ctls.data[c->ctls.len - 1 - depth];
    return WEFT_OK;
}

/* One-element result lists for single-value block types, indexed by the
   type's one-byte code, so a ctl never points into itself: with the short
   forms of the bottom types (§5.3.4: nullfuncref 0x73, nullexternref
   0x72, nullexnref 0x74), which read_blocktype takes only when their
   feature is on. */
const mod_valtype cmp_single_types[256] = {
    [WEFT_I32] = WEFT_I32, [WEFT_I64] = WEFT_I64, [WEFT_F32] = WEFT_F32, [WEFT_F64] = WEFT_F64,
    [WEFT_V128] = WEFT_V128, [WEFT_FUNCREF] = WEFT_FUNCREF, [WEFT_EXTERNREF] = WEFT_EXTERNREF,
    [WEFT_EXNREF] = WEFT_EXNREF, [MOD_HT_NOFUNC] = MOD_T_NULLFUNCREF,
    [MOD_HT_NOEXTERN] = MOD_T_NULLEXTERNREF, [MOD_HT_NOEXN] = MOD_T_NULLEXNREF,
};

/* A value type in a body (Wasm 3.0 §5.3.4): block types, select t. */
weft_status cmp_read_valtype(compiler *c, mod_valtype *t) {
    mod_valtype_err e;
    switch (mod_read_valtype(&c->r, c->m, c->m->ntypes, false, t, &e)) {
    case MOD_READ_OK: return WEFT_OK;
    case MOD_READ_SHORT: return cmp_read_fail(c);
    case MOD_READ_MALFORMED: return cmp_fail(c, WEFT_ERR_MALFORMED, "%s", e.msg);
    case MOD_READ_INVALID: return cmp_fail(c, WEFT_ERR_INVALID, "%s", e.msg);
    }
    return WEFT_OK;
}

/* Block types (§5.4.1): 0x40, a value type, or a type index as s33. */
static weft_status read_blocktype(compiler *c, ctl *f) {
    if (c->r.p < c->r.end) {
        uint8_t b = *c->r.p;
        if (b == 0x40) {
            c->r.p++;
            f->nparams = f->nresults = 0;
            return WEFT_OK;
        }
        if (b == WEFT_I32 || b == WEFT_I64 || b == WEFT_F32 || b == WEFT_F64 || b == WEFT_V128 ||
            mod_short_reftype(c->m, b)) {
            c->r.p++;
            if (b == WEFT_V128 && !cmp_simd_on(c)) return cmp_fail(c, WEFT_ERR_MALFORMED, "malformed value type 0x7b (SIMD is off)");
            f->nparams = 0;
            f->nresults = 1;
            f->results = &cmp_single_types[b];
            return WEFT_OK;
        }
    }
    if (c->r.p < c->r.end && (*c->r.p == 0x63 || *c->r.p == 0x64) &&
        base_feature_on(c->m->engine, WEFT_FEATURE_FUNCTION_REFERENCES)) {
        mod_valtype t;
        TRY(cmp_read_valtype(c, &t));
        mod_valtype *one = malloc(sizeof *one);
        if (!one || !BASE_VEC_PUSH(c->singles, one)) {
            free(one);
            return cmp_oom(c);
        }
        *one = t;
        f->nparams = 0;
        f->nresults = 1;
        f->results = one;
        return WEFT_OK;
    }
    int64_t idx;
    if (!base_read_sleb(&c->r, 33, &idx)) return cmp_read_fail(c);
    if (idx < 0) return cmp_fail(c, WEFT_ERR_MALFORMED, "malformed block type");
    if ((uint64_t)idx >= c->m->ntypes) return cmp_fail(c, WEFT_ERR_INVALID, "unknown type %u", (unsigned)idx);
    const mod_functype *ft = &c->m->types[idx];
    f->nparams = ft->nparams;
    f->params = ft->params;
    f->nresults = ft->nresults;
    f->results = ft->results;
    return WEFT_OK;
}

/* Opens a block: its params are popped, every entry is made home (joins
   need a fixed location for every value), and the params pushed back. */
static weft_status open_block(compiler *c, ctl *f) {
    TRY(check_top(c, f->nparams, f->params));
    /* Entries naming locals must be home (the block may write the local on
       some path); constants never change and may stay. The params are
       pushed back as home entries, so they move in any case. */
    size_t first_param = c->stack.len - top_ctl(c)->height >= f->nparams ? c->stack.len - f->nparams : c->stack.len;
    for (size_t i = 0; i < c->stack.len; i++)
        if (i >= first_param || !(cmp_is_const_slot(c->stack.data[i].slot) || cmp_is_vconst(c->stack.data[i].slot)))
            materialise(c, i);
    TRY(pop_types(c, f->nparams, f->params));
    f->height = (uint32_t)c->stack.len;
    f->init_height = (uint32_t)c->init_log.len;
    for (uint32_t i = 0; i < f->nparams; i++) cmp_push(c, f->params[i]);
    f->unreachable = false;
    f->fixups.data = NULL;
    f->fixups.len = f->fixups.cap = 0;
    if (!BASE_VEC_PUSH(c->ctls, *f)) return cmp_oom(c);
    return WEFT_OK;
}

/* Checks the end of a block's arm and moves its results home. */
static weft_status close_arm(compiler *c) {
    ctl *f = top_ctl(c);
    uint32_t dst = f->kind == CTL_FUNC ? 0 : cmp_home(c, f->height);
    TRY(check_top(c, f->nresults, f->results));
    if (c->stack.len != (size_t)f->height + f->nresults && !(f->unreachable && c->stack.len <= (size_t)f->height + f->nresults))
        return cmp_fail(c, WEFT_ERR_INVALID, "type mismatch: block leaves %u values, expected %u",
                        (unsigned)(c->stack.len - f->height), f->nresults);
    if (!f->unreachable) emit_moves(c, f->nresults, dst, true);
    return WEFT_OK;
}

static void patch_fixups(compiler *c, ctl *f, uint32_t pos) {
    for (size_t i = 0; i < f->fixups.len; i++) set_target(c, f->fixups.data[i], pos);
    BASE_VEC_FREE(f->fixups);
}

/* Emits a branch to label `f` with the top values: moves, then jump.
   `consume`: the values are not used after the branch (br, return). */
static void emit_branch(compiler *c, ctl *f, bool consume) {
    uint32_t n;
    const mod_valtype *types;
    label_types(f, &n, &types);
    if (f->kind == CTL_FUNC) {
        emit_moves(c, n, 0, consume);
        cmp_emit_op(c, CMP_RETURN);
        return;
    }
    emit_moves(c, n, cmp_home(c, f->height), consume);
    cmp_emit_op(c, CMP_BR);
    emit_target(c, f);
}

/* ------------------------------------------------------------------------
 * Instructions
 * ------------------------------------------------------------------------ */

weft_status cmp_need_memory(compiler *c, uint32_t idx) {
    if (idx >= c->m->nmems) return cmp_fail(c, WEFT_ERR_INVALID, "unknown memory %u", idx);
    return WEFT_OK;
}

/* The memory operand of memory.size/grow/init/copy/fill: a 0x00 byte in
   Wasm 2.0; with multi-memory a memory index (u32, Wasm 3.0 §5.4.6),
   checked to exist. */
static weft_status read_mem_index(compiler *c, uint32_t *idx) {
    if (!base_feature_on(c->m->engine, WEFT_FEATURE_MULTI_MEMORY)) {
        uint8_t z;
        READ_U8(&z);
        if (z != 0) return cmp_fail(c, WEFT_ERR_MALFORMED, "zero byte expected");
        *idx = 0;
    } else {
        READ_U32(idx);
    }
    return cmp_need_memory(c, *idx);
}

/* The address type of memory `idx` (memory64, Wasm 3.0 §3.2.5). */
static weft_valtype mem_addr_type(const compiler *c, uint32_t idx) {
    return c->m->mems[idx].is64 ? WEFT_I64 : WEFT_I32;
}

static weft_status need_table(compiler *c, uint32_t idx) {
    if (idx >= c->m->ntables) return cmp_fail(c, WEFT_ERR_INVALID, "unknown table %u", idx);
    return WEFT_OK;
}

/* Pops an operand of type `t`, an address or index of a memory or table:
   an i64 one (memory64, 64-bit tables) is narrowed to the 32 bits the
   handlers take by ADDR64, which saturates (exact: see interp.c). */
static weft_status pop_addr(compiler *c, weft_valtype t, centry *out) {
    if (t != WEFT_I64) return cmp_pop(c, t, out);
    centry wide;
    TRY(cmp_pop(c, WEFT_I64, &wide));
    uint32_t dst = cmp_push(c, WEFT_I32);
    cmp_emit_op(c, CMP_ADDR64);
    cmp_emit(c, dst);
    cmp_emit_src(c, wide.slot);
    return cmp_pop(c, WEFT_I32, out);
}

/* Every access names its memory through cur_mem in the interpreter:
   memory 0 unless a MEM_SELECT chose another for the next operation. */
static void mem_select(compiler *c, uint32_t idx) {
    cmp_emit_op(c, CMP_MEM_SELECT);
    cmp_emit(c, idx);
    c->producer_end = NO_POS; /* nothing may fuse across it */
}

bool cmp_mem_big(const compiler *c, uint32_t idx) {
    const weft_limits *l = &c->m->mems[idx];
    return l->is64 && !(l->has_max && l->max <= MOD_SMALL_PAGES64);
}

/* A big 64-bit memory's access (docs/pipeline.md, "memory64 past 4 GiB"):
   op (ADDR64_WIN or ADDR64_EA) dst, address, offset (two words), bytes,
   alignment mask (bytes - 1 for an atomic access, else 0), memory. */
static weft_status mem_begin_big(compiler *c, const cmp_memarg *ma, centry *addr, uint32_t op) {
    centry wide;
    TRY(cmp_pop(c, WEFT_I64, &wide));
    if (ma->mem != 0) mem_select(c, ma->mem);
    uint32_t dst = cmp_push(c, op == CMP_ADDR64_EA ? WEFT_I64 : WEFT_I32);
    cmp_emit_op(c, op);
    cmp_emit(c, dst);
    cmp_emit_src(c, wide.slot);
    cmp_emit(c, (uint32_t)ma->offset64);
    cmp_emit(c, (uint32_t)(ma->offset64 >> 32));
    cmp_emit(c, ma->bytes);
    cmp_emit(c, ma->atomic ? ma->bytes - 1 : 0);
    cmp_emit(c, ma->mem); /* for the compiler tier (jit.c big_access) */
    c->producer_end = NO_POS; /* the access after it is its own */
    return cmp_pop(c, op == CMP_ADDR64_EA ? WEFT_I64 : WEFT_I32, addr);
}

weft_status cmp_mem_begin(compiler *c, const cmp_memarg *ma, centry *addr) {
    if (ma->big) return mem_begin_big(c, ma, addr, CMP_ADDR64_WIN);
    TRY(pop_addr(c, ma->is64 ? WEFT_I64 : WEFT_I32, addr));
    if (ma->mem != 0) mem_select(c, ma->mem);
    return WEFT_OK;
}

weft_status cmp_mem_begin_wide(compiler *c, const cmp_memarg *ma, centry *addr) {
    return mem_begin_big(c, ma, addr, CMP_ADDR64_EA);
}

void cmp_mem_end(compiler *c, const cmp_memarg *ma) {
    if (ma->mem != 0 || ma->big) mem_select(c, 0);
}

/* memarg (§5.4.6; Wasm 3.0 §5.4.7): alignment exponent, with flag bit 6
   when a memory index follows (multi-memory), then the offset: a u64 with
   memory64 on (at most 2^32 - 1 on a 32-bit memory), else a u32. */
weft_status cmp_read_memarg(compiler *c, uint32_t bytes, bool exact, cmp_memarg *ma) {
    uint32_t align;
    ma->mem = 0;
    READ_U32(&align);
    if ((align & 0x40) && align < 0x80 && base_feature_on(c->m->engine, WEFT_FEATURE_MULTI_MEMORY)) {
        READ_U32(&ma->mem);
        align &= ~0x40u;
    }
    bool is64 = ma->mem < c->m->nmems && c->m->mems[ma->mem].is64;
    uint64_t off = 0;
    if (base_feature_on(c->m->engine, WEFT_FEATURE_MEMORY64)) {
        if (!base_read_uleb(&c->r, 64, &off)) return cmp_read_fail(c);
    } else {
        READ_U32(&ma->offset);
        off = ma->offset;
    }
    /* Saturated as ADDR64 saturates an address: 2^32 - 16 plus the low
       four bits, so the sum of the two keeps the effective address's low
       bits, which an atomic access's alignment check reads. */
    ma->offset = off > UINT32_MAX ? (uint32_t)(0xFFFFFFF0u | (off & 0xF)) : (uint32_t)off;
    ma->offset64 = off;
    ma->is64 = is64;
    ma->bytes = bytes;
    ma->atomic = exact;
    TRY(cmp_need_memory(c, ma->mem));
    ma->big = cmp_mem_big(c, ma->mem);
    if (ma->big) ma->offset = 0;
    /* Wasm 3.0 §3.3.7: the offset fits the memory's address type. */
    if (!is64 && off > UINT32_MAX) return cmp_fail(c, WEFT_ERR_INVALID, "offset out of range");
    if (exact) {
        if (align >= 32 || (1u << align) != bytes)
            return cmp_fail(c, WEFT_ERR_INVALID, "alignment must be equal to natural for atomics");
    } else if (align >= 32 || (1u << align) > bytes) {
        return cmp_fail(c, WEFT_ERR_INVALID, "alignment must not be larger than natural");
    }
    return WEFT_OK;
}

static weft_status compile_memory_op(compiler *c, uint8_t opcode) {
    static const struct { uint8_t code, bytes; mod_valtype type; uint16_t op; } ops[] = {
#define CMP_X(code, type, op) {code, CMP_BYTES_##op, WEFT_##type, CMP_##op},
        CMP_WASM_MEMORY(CMP_X)
#undef CMP_X
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        if (ops[i].code != opcode) continue;
        cmp_memarg ma;
        TRY(cmp_read_memarg(c, ops[i].bytes, false, &ma));
        uint32_t offset = ma.offset;
        centry addr, val;
        if (opcode <= 0x35) { /* loads */
            TRY(cmp_mem_begin(c, &ma, &addr));
            /* An address computed by the add just before, and used only
               here, is computed by the load itself. */
            uint32_t prod = cmp_producer_of(c, addr.slot), a = 0, b = 0, fused = 0;
            if (prod == CMP_I32_ADD_IMM || prod == CMP_I32_ADD) {
                cmp_take_producer(c, &a, &b);
                fused = fused_load(ops[i].op, prod == CMP_I32_ADD_IMM);
            }
            uint32_t dst = cmp_push(c, ops[i].type);
            cmp_emit_op(c, fused ? fused : ops[i].op);
            uint32_t dpos = (uint32_t)c->code.len;
            cmp_emit(c, dst);
            if (fused) {
                cmp_emit_src(c, a);
                if (prod == CMP_I32_ADD_IMM) cmp_emit(c, b);
                else cmp_emit_src(c, b);
            } else {
                cmp_emit_src(c, addr.slot);
            }
            cmp_emit(c, offset);
            cmp_mark_producer(c, dpos);
        } else {
            TRY(cmp_pop(c, ops[i].type, &val));
            TRY(cmp_mem_begin(c, &ma, &addr));
            cmp_emit_op(c, ops[i].op);
            cmp_emit_src(c, addr.slot);
            cmp_emit_src(c, val.slot);
            cmp_emit(c, offset);
        }
        cmp_mem_end(c, &ma);
        return WEFT_OK;
    }
    return cmp_fail(c, WEFT_ERR_MALFORMED, "illegal opcode 0x%02x", opcode);
}

static weft_status local_type(compiler *c, uint32_t idx, mod_valtype *t) {
    if (idx >= c->nlocals) return cmp_fail(c, WEFT_ERR_INVALID, "unknown local %u", idx);
    *t = c->local_types[idx];
    return WEFT_OK;
}

/* local.set / local.tee (§3.3.5). */
static weft_status compile_local_set(compiler *c, bool tee) {
    uint32_t idx;
    mod_valtype t = T_UNKNOWN;
    READ_U32(&idx);
    TRY(local_type(c, idx, &t));
    centry v;
    TRY(cmp_pop(c, t, &v));
    if (!c->local_set[idx]) { /* Wasm 3.0 §3.3.5.2: now set, until the block ends */
        c->local_set[idx] = 1;
        if (!BASE_VEC_PUSH(c->init_log, idx)) c->oom = true;
    }
    idx = c->local_slots[idx];
    bool others = false;
    for (size_t i = 0; i < c->stack.len; i++)
        if (c->stack.data[i].slot == idx) others = true;
    if (!others && v.slot == cmp_home(c, c->stack.len) && c->producer_end == c->code.len &&
        c->code.len > 0 && c->code.data[c->producer_dst] == v.slot) {
        /* The value was just computed into its home slot: compute it into
           the local instead. */
        c->code.data[c->producer_dst] = idx;
    } else {
        materialise_local(c, idx);
        if (v.slot != NO_SLOT) emit_copy_t(c, idx, v.slot, t);
    }
    c->producer_end = NO_POS;
    if (tee) cmp_push_at(c, t, idx);
    return WEFT_OK;
}

static weft_status compile_call(compiler *c, const mod_functype *ft, uint32_t op, uint32_t a, uint32_t b,
                                centry *index) {
    /* Arguments must sit in consecutive home slots: the callee's frame
       starts at the first of them. */
    TRY(cmp_pop_types(c, ft->nparams, ft->params));
    uint32_t frame = cmp_home(c, c->stack.len);
    cmp_emit_op(c, op);
    if (op == CMP_CALL_REF) {
        cmp_emit_src(c, index->slot);
    } else {
        cmp_emit(c, a);
        if (op == CMP_CALL_INDIRECT) {
            cmp_emit(c, b);
            cmp_emit_src(c, index->slot);
        }
    }
    cmp_emit(c, frame);
    for (uint32_t i = 0; i < ft->nresults; i++) cmp_push(c, ft->results[i]);
    return WEFT_OK;
}

/* Slots the params of ft take (a v128 two). */
static uint32_t param_slots(const mod_functype *ft) {
    uint32_t k = 0;
    for (uint32_t i = 0; i < ft->nparams; i++) k += cmp_slot_width(ft->params[i]);
    return k;
}

/* Tail calls (Wasm 3.0 §3.3.8 return_call, return_call_indirect,
   return_call_ref): the callee's results must match the function's own
   (t2* <: the return type); the call is followed by a RETURN, and what
   follows is unreachable. `ref` is the popped index (return_call_indirect)
   or function reference (return_call_ref), else NULL. */
static weft_status compile_tail_call(compiler *c, const mod_functype *ft, uint32_t op, uint32_t a, uint32_t b,
                                     const centry *ref) {
    const mod_functype *own = c->type;
    bool ok = ft->nresults == own->nresults;
    for (uint32_t i = 0; ok && i < ft->nresults; i++) ok = mod_valtype_sub(c->m, ft->results[i], own->results[i]);
    if (!ok) return cmp_fail(c, WEFT_ERR_INVALID, "type mismatch: the tail call's results are not the function's");
    TRY(cmp_pop_types(c, ft->nparams, ft->params));
    uint32_t frame = cmp_home(c, c->stack.len);
    cmp_emit_op(c, op);
    if (op == CMP_RETURN_CALL) {
        cmp_emit(c, a);
        cmp_emit(c, param_slots(ft));
        cmp_emit(c, frame);
    } else if (op == CMP_RETURN_CALL_INDIRECT) {
        cmp_emit(c, a);
        cmp_emit(c, b);
        cmp_emit_src(c, ref->slot);
        cmp_emit(c, frame);
        cmp_emit(c, param_slots(ft));
    } else { /* CMP_RETURN_CALL_REF */
        cmp_emit_src(c, ref->slot);
        cmp_emit(c, frame);
        cmp_emit(c, param_slots(ft));
    }
    cmp_emit_op(c, CMP_RETURN);
    set_unreachable(c);
    c->producer_end = NO_POS;
    return WEFT_OK;
}

/* Pops a function reference of type (ref null $x) for call_ref and
   return_call_ref (Wasm 3.0 §3.3.8). */
static weft_status pop_func_ref(compiler *c, uint32_t x, centry *out) {
    if (x >= c->m->ntypes) return cmp_fail(c, WEFT_ERR_INVALID, "unknown type %u", x);
    return cmp_pop(c, mod_ref_idx(x, true), out);
}

/* br_on_null and br_on_non_null (Wasm 3.0 §3.3.8): a branch on whether
   the reference on top is null, the one taken carrying the label's values
   (for br_on_non_null the last of them the reference, now non-null). */
static weft_status compile_br_on_null(compiler *c, bool on_null) {
    ctl *f;
    centry ref;
    TRY(read_label(c, &f));
    TRY(cmp_pop(c, T_UNKNOWN, &ref));
    if (!is_ref(ref.type)) return cmp_fail(c, WEFT_ERR_INVALID, "type mismatch: %s needs a reference", on_null ? "br_on_null" : "br_on_non_null");
    mod_valtype nonnull = ref.type == T_UNKNOWN ? T_UNKNOWN : ref.type | MOD_T_NONNULL;
    uint32_t n;
    const mod_valtype *types;
    label_types(f, &n, &types);
    if (!on_null) {
        if (n == 0 || !is_ref(types[n - 1]))
            return cmp_fail(c, WEFT_ERR_INVALID, "type mismatch: br_on_non_null's label takes no reference");
        cmp_push_at(c, nonnull, ref.slot);
    }
    TRY(check_top(c, n, types));
    if (top_ctl(c)->unreachable) {
        if (!on_null) c->stack.len--;
        if (c->stack.len - top_ctl(c)->height < (on_null ? n : n - 1)) {
            c->stack.len = top_ctl(c)->height;
            for (uint32_t i = 0; i < (on_null ? n : n - 1); i++) cmp_push_at(c, types[i], NO_SLOT);
        }
        if (on_null) cmp_push_at(c, nonnull, ref.slot);
        return WEFT_OK;
    }
    /* Taken: null (br_on_null) or non-null (br_on_non_null): a slot holds
       a reference's pointer bits, 0 for null. */
    uint32_t taken = on_null ? CMP_BR_IF_I64_EQZ : CMP_BR_IF_I64_NEZ;
    uint32_t not_taken = on_null ? CMP_BR_IF_I64_NEZ : CMP_BR_IF_I64_EQZ;
    uint32_t dst = f->kind == CTL_FUNC ? 0 : cmp_home(c, f->height);
    if (ref.slot == NO_SLOT) {
        /* Only in unreachable code, handled above. */
    } else if (f->kind != CTL_FUNC && in_place(c, n, dst)) {
        cmp_emit_op(c, taken);
        cmp_emit_src(c, ref.slot);
        uint32_t pos = (uint32_t)c->code.len;
        emit_target(c, f);
        (void)pos;
    } else {
        size_t first = c->stack.len - n;
        uint32_t nslots = top_slots(c, n);
        for (size_t i = first; i < c->stack.len; i++)
            if (move_clobbers(c, i, dst, nslots)) materialise(c, i);
        cmp_emit_op(c, not_taken);
        cmp_emit_src(c, ref.slot);
        uint32_t skip = (uint32_t)c->code.len;
        cmp_emit(c, 0);
        emit_branch(c, f, false);
        set_target(c, skip, (uint32_t)c->code.len);
    }
    if (on_null) {
        retype_top(c, n, types);
        cmp_push_at(c, nonnull, ref.slot);
    } else {
        c->stack.len--; /* br_on_non_null drops the reference */
        retype_top(c, n - 1, types);
    }
    c->producer_end = NO_POS;
    return WEFT_OK;
}

/* memory.init and data.drop name a data segment; §5.5.15 requires the
   data count section for them (checked once the index is known to exist,
   as the reference interpreter orders the two errors). */
static weft_status need_data(compiler *c, uint32_t idx) {
    uint32_t n = c->m->has_data_count ? c->m->data_count : c->m->ndatas;
    if (idx >= n) return cmp_fail(c, WEFT_ERR_INVALID, "unknown data segment %u", idx);
    if (!c->m->has_data_count) return cmp_fail(c, WEFT_ERR_MALFORMED, "data count section required");
    return WEFT_OK;
}

/* Bulk memory and table operations taking three operands (d, s or
   value, n) of types td, ts, tn (i32, or i64 of a 64-bit memory or table)
   after up to two immediates (UINT32_MAX: none). */
static weft_status emit_bulk_t(compiler *c, uint32_t op, uint32_t imm1, uint32_t imm2, weft_valtype td,
                               weft_valtype ts, weft_valtype tn) {
    centry d, s, n;
    TRY(pop_addr(c, tn, &n));
    TRY(pop_addr(c, ts, &s));
    TRY(pop_addr(c, td, &d));
    cmp_emit_op(c, op);
    if (imm1 != UINT32_MAX) cmp_emit(c, imm1);
    if (imm2 != UINT32_MAX) cmp_emit(c, imm2);
    cmp_emit_src(c, d.slot);
    cmp_emit_src(c, s.slot);
    cmp_emit_src(c, n.slot);
    return WEFT_OK;
}

/* The narrower of two address types: memory.copy's and table.copy's
   length (Wasm 3.0 §3.3.7, §3.3.6). */
static weft_valtype min_addr_type(weft_valtype a, weft_valtype b) {
    return a == WEFT_I64 && b == WEFT_I64 ? WEFT_I64 : WEFT_I32;
}

/* memory.init, memory.copy, memory.fill on memories dst and src (Wasm 3.0
   §3.3.7): memory 0's operations, after MEM_SELECT for one other memory;
   a copy between two memories is MEMORY_COPY_X. */
static weft_status emit_bulk_memory(compiler *c, uint32_t op, uint32_t seg, uint32_t dst, uint32_t src) {
    weft_valtype td = mem_addr_type(c, dst), ts = mem_addr_type(c, src);
    if (cmp_mem_big(c, dst) || (op == CMP_MEMORY_COPY && cmp_mem_big(c, src))) {
        /* A big 64-bit memory: the operation names its memories and reads
           its operands whole, i64 or i32 as each memory's address type
           says (interp.c BODY_MEMORY_*_W). */
        weft_valtype tv = op == CMP_MEMORY_COPY ? ts : WEFT_I32;
        weft_valtype tn = op == CMP_MEMORY_COPY ? min_addr_type(td, ts) : op == CMP_MEMORY_INIT ? WEFT_I32 : td;
        centry d, v, n;
        TRY(cmp_pop(c, tn, &n));
        TRY(cmp_pop(c, tv, &v));
        TRY(cmp_pop(c, td, &d));
        cmp_emit_op(c, op == CMP_MEMORY_COPY ? CMP_MEMORY_COPY_W : op == CMP_MEMORY_INIT ? CMP_MEMORY_INIT_W : CMP_MEMORY_FILL_W);
        if (op == CMP_MEMORY_INIT) cmp_emit(c, seg);
        cmp_emit(c, dst);
        if (op == CMP_MEMORY_COPY) cmp_emit(c, src);
        cmp_emit_src(c, d.slot);
        cmp_emit_src(c, v.slot);
        cmp_emit_src(c, n.slot);
        return WEFT_OK;
    }
    if (op == CMP_MEMORY_COPY && dst != src)
        return emit_bulk_t(c, CMP_MEMORY_COPY_X, dst, src, td, ts, min_addr_type(td, ts));
    /* init: [at i32 i32]; fill: [at i32 at]; copy: [at at at] */
    weft_valtype ts_ = op == CMP_MEMORY_COPY ? ts : WEFT_I32;
    weft_valtype tn = op == CMP_MEMORY_INIT ? WEFT_I32 : td;
    centry d, s, n;
    TRY(pop_addr(c, tn, &n));
    TRY(pop_addr(c, ts_, &s));
    TRY(pop_addr(c, td, &d));
    if (dst != 0) mem_select(c, dst);
    cmp_emit_op(c, op);
    if (seg != UINT32_MAX) cmp_emit(c, seg);
    cmp_emit_src(c, d.slot);
    cmp_emit_src(c, s.slot);
    cmp_emit_src(c, n.slot);
    if (dst != 0) mem_select(c, 0);
    return WEFT_OK;
}

/* The result of memory.size/grow or table.size/grow on a 64-bit memory or
   table, whose handler wrote a 32-bit count zero-extended: that is the
   i64 (weft keeps sizes below 2^31 pages or elements); grow's failure,
   -1, is sign-extended. */
static void widen_size(compiler *c, uint32_t dst, bool grow) {
    c->stack.len--;
    uint32_t dst64 = cmp_push(c, WEFT_I64);
    if (!grow) return;
    cmp_emit_op(c, CMP_I64_EXTEND_I32_S);
    cmp_emit(c, dst64);
    cmp_emit_src(c, dst);
}

/* The index type of table `idx`: i64 for a 64-bit table (memory64). */
static weft_valtype table_addr_type(const compiler *c, uint32_t idx) {
    return c->m->tables[idx].limits.is64 ? WEFT_I64 : WEFT_I32;
}

static weft_status compile_misc(compiler *c) {
    uint32_t sub, a, b;
    READ_U32(&sub);
    centry d, n, v;
    if (sub <= 7) {
        const cmp_numeric_info *ni = cmp_numeric_lookup(0x100 + sub);
        return cmp_compile_numeric(c, ni);
    }
    switch (sub) {
    case 8: /* memory.init dataidx memidx (§3.3.7) */
        READ_U32(&a);
        TRY(read_mem_index(c, &b));
        TRY(need_data(c, a));
        return emit_bulk_memory(c, CMP_MEMORY_INIT, a, b, b);
    case 9: /* data.drop */
        READ_U32(&a);
        TRY(need_data(c, a));
        cmp_emit_op(c, CMP_DATA_DROP);
        cmp_emit(c, a);
        return WEFT_OK;
    case 10: /* memory.copy dst src */
    case 11: { /* memory.fill memidx */
        TRY(read_mem_index(c, &a));
        b = a;
        if (sub == 10) TRY(read_mem_index(c, &b));
        return emit_bulk_memory(c, sub == 10 ? CMP_MEMORY_COPY : CMP_MEMORY_FILL, UINT32_MAX, a, b);
    }
    case 12: /* table.init elemidx tableidx */
        READ_U32(&a);
        READ_U32(&b);
        TRY(need_table(c, b));
        if (a >= c->m->nelems) return cmp_fail(c, WEFT_ERR_INVALID, "unknown elem segment %u", a);
        if (!mod_valtype_sub(c->m, c->m->elems[a].type, c->m->tables[b].elem)) return cmp_fail(c, WEFT_ERR_INVALID, "type mismatch: table.init element type");
        return emit_bulk_t(c, CMP_TABLE_INIT, b, a, table_addr_type(c, b), WEFT_I32, WEFT_I32);
    case 13: /* elem.drop */
        READ_U32(&a);
        if (a >= c->m->nelems) return cmp_fail(c, WEFT_ERR_INVALID, "unknown elem segment %u", a);
        cmp_emit_op(c, CMP_ELEM_DROP);
        cmp_emit(c, a);
        return WEFT_OK;
    case 14: /* table.copy dst src */
        READ_U32(&a);
        READ_U32(&b);
        TRY(need_table(c, a));
        TRY(need_table(c, b));
        if (!mod_valtype_sub(c->m, c->m->tables[b].elem, c->m->tables[a].elem)) return cmp_fail(c, WEFT_ERR_INVALID, "type mismatch: table.copy element types differ");
        return emit_bulk_t(c, CMP_TABLE_COPY, a, b, table_addr_type(c, a), table_addr_type(c, b),
                           min_addr_type(table_addr_type(c, a), table_addr_type(c, b)));
    case 15: { /* table.grow */
        READ_U32(&a);
        TRY(need_table(c, a));
        TRY(pop_addr(c, table_addr_type(c, a), &n));
        TRY(cmp_pop(c, c->m->tables[a].elem, &v));
        uint32_t dst = cmp_push(c, WEFT_I32);
        cmp_emit_op(c, CMP_TABLE_GROW);
        cmp_emit(c, dst);
        cmp_emit(c, a);
        cmp_emit_src(c, v.slot);
        cmp_emit_src(c, n.slot);
        if (table_addr_type(c, a) == WEFT_I64) widen_size(c, dst, true);
        return WEFT_OK;
    }
    case 16: { /* table.size */
        READ_U32(&a);
        TRY(need_table(c, a));
        uint32_t dst = cmp_push(c, WEFT_I32);
        cmp_emit_op(c, CMP_TABLE_SIZE);
        cmp_emit(c, dst);
        cmp_emit(c, a);
        if (table_addr_type(c, a) == WEFT_I64) widen_size(c, dst, false);
        return WEFT_OK;
    }
    case 17: /* table.fill */
        READ_U32(&a);
        TRY(need_table(c, a));
        TRY(pop_addr(c, table_addr_type(c, a), &n));
        TRY(cmp_pop(c, c->m->tables[a].elem, &v));
        TRY(pop_addr(c, table_addr_type(c, a), &d));
        cmp_emit_op(c, CMP_TABLE_FILL);
        cmp_emit(c, a);
        cmp_emit_src(c, d.slot);
        cmp_emit_src(c, v.slot);
        cmp_emit_src(c, n.slot);
        return WEFT_OK;
    default:
        return cmp_fail(c, WEFT_ERR_MALFORMED, "illegal opcode 0xfc %u", sub);
    }
}

/* A numeric constant (`bits` as stored in a slot): an entry naming the
   constant, or, past the constant table's capacity, an operation that
   writes it. */
static weft_status compile_const(compiler *c, mod_valtype type, uint64_t bits) {
    uint32_t cs = const_slot(c, bits);
    if (cs != NO_SLOT) {
        cmp_push_at(c, type, cs);
        return WEFT_OK;
    }
    bool wide = type == WEFT_I64 || type == WEFT_F64;
    uint32_t dst = cmp_push(c, type);
    cmp_emit_op(c, wide ? CMP_CONST64 : CMP_CONST32);
    uint32_t dpos = (uint32_t)c->code.len;
    cmp_emit(c, dst);
    cmp_emit(c, (uint32_t)bits);
    if (wide) cmp_emit(c, (uint32_t)(bits >> 32));
    cmp_mark_producer(c, dpos);
    return WEFT_OK;
}

/* The body ran out before its final `end` (§5.5.13). Word it as the
   reference interpreter does, which reads on into the section: the body's
   size is one short when the next byte is that `end`; the section ends when
   nothing follows. */
weft_status cmp_missing_end(compiler *c) {
    const uint8_t *after = c->r.end;
    const uint8_t *file_end = c->m->bytes + c->m->len;
    if (after < file_end && *after == 0x0B)
        return cmp_fail(c, WEFT_ERR_MALFORMED, "section size mismatch: function body lacks its END opcode");
    if (after == c->code_section_end)
        return cmp_fail(c, WEFT_ERR_MALFORMED, "unexpected end of section or function: END opcode expected");
    return cmp_fail(c, WEFT_ERR_MALFORMED, "END opcode expected");
}

/* Compiles one instruction. Returns WEFT_OK; sets *done after the final end. */
static weft_status compile_instr(compiler *c, bool *done) {
    c->op_offset = base_reader_offset(&c->r);
    uint8_t opcode;
    if (!base_read_u8(&c->r, &opcode)) return cmp_missing_end(c);
    centry a, b, cond;
    uint32_t idx, idx2;
    ctl nf;
    memset(&nf, 0, sizeof nf);

    switch (opcode) {
    case 0x00: /* unreachable */
        cmp_emit_op(c, CMP_UNREACHABLE);
        set_unreachable(c);
        return WEFT_OK;
    case 0x01: /* nop */
        return WEFT_OK;
    case 0x02: /* block */
    case 0x03: /* loop */
        nf.kind = opcode == 0x02 ? CTL_BLOCK : CTL_LOOP;
        TRY(read_blocktype(c, &nf));
        TRY(open_block(c, &nf));
        /* Back-edges land at the header; every taken branch reads the
           attention word, so loops need no operation of their own. */
        if (nf.kind == CTL_LOOP) c->last_target = top_ctl(c)->loop_pos = (uint32_t)c->code.len;
        c->producer_end = NO_POS;
        return WEFT_OK;
    case 0x04: /* if */
        nf.kind = CTL_IF;
        TRY(read_blocktype(c, &nf));
        TRY(cmp_pop(c, WEFT_I32, &cond));
        peeled if_cmp;
        peel_compare(c, cond.slot, false, &if_cmp);
        TRY(open_block(c, &nf));
        if (nf.nparams) {
            /* The then-arm may overwrite the params' slots; keep copies for
               the else-arm in temps. */
            ctl *f = top_ctl(c);
            f->temp_base = c->nlocal_slots + cmp_const_area(c) + c->ntemps;
            uint32_t off = 0;
            for (uint32_t i = 0; i < f->nparams; i++) {
                emit_copy_t(c, f->temp_base + off, cmp_home(c, f->height + i), f->params[i]);
                off += cmp_slot_width(f->params[i]);
            }
            c->ntemps += off;
        }
        top_ctl(c)->else_fix = emit_cond_branch(c, &if_cmp, cond.slot, false);
        c->producer_end = NO_POS;
        return WEFT_OK;
    case 0x05: { /* else */
        ctl *f = top_ctl(c);
        if (f->kind != CTL_IF) return cmp_fail(c, WEFT_ERR_MALFORMED, "else without if");
        TRY(close_arm(c));
        cmp_emit_op(c, CMP_BR);
        emit_target(c, f);
        set_target(c, f->else_fix, (uint32_t)c->code.len);
        f->else_fix = UINT32_MAX;
        f->kind = CTL_ELSE;
        undo_local_inits(c, f->init_height);
        f->unreachable = false;
        c->stack.len = f->height;
        for (uint32_t i = 0, off = 0; i < f->nparams; i++) {
            uint32_t s = cmp_push(c, f->params[i]);
            emit_copy_t(c, s, f->temp_base + off, f->params[i]);
            off += cmp_slot_width(f->params[i]);
        }
        c->producer_end = NO_POS;
        return WEFT_OK;
    }
    case 0x0B: { /* end */
        ctl *f = top_ctl(c);
        if (f->kind == CTL_TRY_TABLE) cmp_eh_end(c, f);
        TRY(close_arm(c));
        if (f->kind == CTL_IF) {
            /* No else: the missing arm passes the params through (§3.3.8). */
            bool same = f->nparams == f->nresults;
            for (uint32_t i = 0; same && i < f->nparams; i++) same = mod_valtype_sub(c->m, f->params[i], f->results[i]);
            if (!same)
                return cmp_fail(c, WEFT_ERR_INVALID, "type mismatch: if without else must not change the stack");
            set_target(c, f->else_fix, (uint32_t)c->code.len);
        }
        if (f->kind == CTL_FUNC) {
            if (!f->unreachable) cmp_emit_op(c, CMP_RETURN);
            BASE_VEC_FREE(f->fixups); /* returns never need patching */
            c->ctls.len--;
            *done = true;
            return WEFT_OK;
        }
        patch_fixups(c, f, (uint32_t)c->code.len);
        undo_local_inits(c, f->init_height);
        uint32_t height = f->height, n = f->nresults;
        const mod_valtype *res = f->results;
        c->ctls.len--;
        c->stack.len = height;
        for (uint32_t i = 0; i < n; i++) cmp_push(c, res[i]);
        c->producer_end = NO_POS;
        return WEFT_OK;
    }
    case 0x06: case 0x07: case 0x08: case 0x09: case 0x0A: case 0x18: case 0x19: case 0x1F:
        if (!cmp_eh_on(c)) return cmp_fail(c, WEFT_ERR_MALFORMED, "illegal opcode 0x%02x", opcode);
        return cmp_compile_eh(c, opcode);
    case 0x0C: { /* br */
        ctl *f;
        TRY(read_label(c, &f));
        uint32_t n;
        const mod_valtype *types;
        label_types(f, &n, &types);
        TRY(check_top(c, n, types));
        if (!top_ctl(c)->unreachable) emit_branch(c, f, true);
        set_unreachable(c);
        return WEFT_OK;
    }
    case 0x0D: { /* br_if */
        ctl *f;
        TRY(read_label(c, &f));
        TRY(cmp_pop(c, WEFT_I32, &cond));
        uint32_t n;
        const mod_valtype *types;
        label_types(f, &n, &types);
        TRY(check_top(c, n, types));
        /* Retype the values to the label's types (they may be unknown). */
        if (top_ctl(c)->unreachable) {
            /* Dead code: the label's types replace whatever is there. */
            if (c->stack.len - top_ctl(c)->height < n) {
                c->stack.len = top_ctl(c)->height;
                for (uint32_t i = 0; i < n; i++) cmp_push_at(c, types[i], NO_SLOT);
            }
            return WEFT_OK;
        }
        uint32_t dst = f->kind == CTL_FUNC ? 0 : cmp_home(c, f->height);
        peeled pk;
        if (f->kind != CTL_FUNC && in_place(c, n, dst)) {
            peel_compare(c, cond.slot, true, &pk);
            uint32_t pos = emit_cond_branch(c, &pk, cond.slot, true);
            if (f->kind == CTL_LOOP) set_target(c, pos, f->loop_pos);
            else if (!BASE_VEC_PUSH(f->fixups, pos)) c->oom = true;
        } else {
            peel_compare(c, cond.slot, false, &pk);
            /* Values must move, but only when the branch is taken. */
            size_t first = c->stack.len - n;
            uint32_t nslots = top_slots(c, n);
            for (size_t i = first; i < c->stack.len; i++)
                if (move_clobbers(c, i, dst, nslots)) materialise(c, i);
            uint32_t skip = emit_cond_branch(c, &pk, cond.slot, false);
            emit_branch(c, f, false);
            set_target(c, skip, (uint32_t)c->code.len);
        }
        retype_top(c, n, types);
        c->producer_end = NO_POS;
        return WEFT_OK;
    }
    case 0x0E: { /* br_table */
        uint32_t count;
        READ_U32(&count);
        if (count > (uint32_t)(c->r.end - c->r.p)) return cmp_fail(c, WEFT_ERR_MALFORMED, "unexpected end");
        uint32_t *depths = malloc(((size_t)count + 1) * sizeof *depths);
        if (!depths) return cmp_oom(c);
        weft_status st = WEFT_OK;
        for (uint32_t i = 0; i <= count && st == WEFT_OK; i++) {
            if (!base_read_u32(&c->r, &depths[i])) st = cmp_read_fail(c);
            else if (depths[i] >= c->ctls.len) st = cmp_fail(c, WEFT_ERR_INVALID, "unknown label %u", depths[i]);
        }
        if (st == WEFT_OK) st = cmp_pop(c, WEFT_I32, &cond);
        /* §3.3.8 br_table: every label must accept the same number of
           values, and the operands must match each label's types. */
        uint32_t arity = 0;
        if (st == WEFT_OK) {
            ctl *def = &c->ctls.data[c->ctls.len - 1 - depths[count]];
            const mod_valtype *t0;
            label_types(def, &arity, &t0);
            for (uint32_t i = 0; i <= count && st == WEFT_OK; i++) {
                ctl *f = &c->ctls.data[c->ctls.len - 1 - depths[i]];
                uint32_t n;
                const mod_valtype *types;
                label_types(f, &n, &types);
                if (n != arity) st = cmp_fail(c, WEFT_ERR_INVALID, "type mismatch: br_table labels have different arities");
                else st = check_top(c, n, types);
            }
        }
        if (st == WEFT_OK && !top_ctl(c)->unreachable) {
            materialise_from(c, c->stack.len >= arity ? c->stack.len - arity : 0);
            cmp_emit_op(c, CMP_BR_TABLE);
            cmp_emit_src(c, cond.slot);
            cmp_emit(c, count);
            uint32_t table = (uint32_t)c->code.len;
            for (uint32_t i = 0; i <= count; i++) cmp_emit(c, 0);
            /* One stub per entry: moves, then the jump. */
            for (uint32_t i = 0; i <= count && !c->oom; i++) {
                ctl *f = &c->ctls.data[c->ctls.len - 1 - depths[i]];
                if (f->kind == CTL_LOOP && in_place(c, arity, cmp_home(c, f->height))) {
                    set_target(c, table + i, f->loop_pos);
                } else if (f->kind != CTL_FUNC && in_place(c, arity, cmp_home(c, f->height))) {
                    if (!BASE_VEC_PUSH(f->fixups, table + i)) c->oom = true;
                } else {
                    set_target(c, table + i, (uint32_t)c->code.len);
                    emit_branch(c, f, false);
                }
            }
        }
        free(depths);
        TRY(st);
        set_unreachable(c);
        return WEFT_OK;
    }
    case 0x0F: { /* return */
        ctl *f = &c->ctls.data[0];
        TRY(check_top(c, f->nresults, f->results));
        if (!top_ctl(c)->unreachable) emit_branch(c, f, true);
        set_unreachable(c);
        return WEFT_OK;
    }
    case 0x10: /* call */
        READ_U32(&idx);
        if (idx >= c->m->nfuncs) return cmp_fail(c, WEFT_ERR_INVALID, "unknown function %u", idx);
        /* Calls within the module skip the host and instance checks. */
        if (idx >= c->m->nfunc_imports)
            TRY(compile_call(c, mod_func_type(c->m, idx), CMP_CALL_INTERNAL, idx - c->m->nfunc_imports, 0, NULL));
        else
            TRY(compile_call(c, mod_func_type(c->m, idx), CMP_CALL, idx, 0, NULL));
        c->producer_end = NO_POS;
        return WEFT_OK;
    case 0x11: /* call_indirect typeidx tableidx */
        READ_U32(&idx);
        READ_U32(&idx2);
        TRY(need_table(c, idx2));
        if (idx >= c->m->ntypes) return cmp_fail(c, WEFT_ERR_INVALID, "unknown type %u", idx);
        if (mod_valtype_pub(c->m->tables[idx2].elem) != WEFT_FUNCREF)
            return cmp_fail(c, WEFT_ERR_INVALID, "type mismatch: call_indirect needs a funcref table");
        TRY(pop_addr(c, table_addr_type(c, idx2), &a));
        TRY(compile_call(c, &c->m->types[idx], CMP_CALL_INDIRECT, idx, idx2, &a));
        c->producer_end = NO_POS;
        return WEFT_OK;
    case 0x12: /* return_call x */
        if (!base_feature_on(c->m->engine, WEFT_FEATURE_TAIL_CALL)) break;
        READ_U32(&idx);
        if (idx >= c->m->nfuncs) return cmp_fail(c, WEFT_ERR_INVALID, "unknown function %u", idx);
        return compile_tail_call(c, mod_func_type(c->m, idx), CMP_RETURN_CALL, idx, 0, NULL);
    case 0x13: /* return_call_indirect typeidx tableidx */
        if (!base_feature_on(c->m->engine, WEFT_FEATURE_TAIL_CALL)) break;
        READ_U32(&idx);
        READ_U32(&idx2);
        TRY(need_table(c, idx2));
        if (idx >= c->m->ntypes) return cmp_fail(c, WEFT_ERR_INVALID, "unknown type %u", idx);
        if (mod_valtype_pub(c->m->tables[idx2].elem) != WEFT_FUNCREF)
            return cmp_fail(c, WEFT_ERR_INVALID, "type mismatch: call_indirect needs a funcref table");
        TRY(pop_addr(c, table_addr_type(c, idx2), &a));
        return compile_tail_call(c, &c->m->types[idx], CMP_RETURN_CALL_INDIRECT, idx, idx2, &a);
    case 0x14: /* call_ref x */
        if (!base_feature_on(c->m->engine, WEFT_FEATURE_FUNCTION_REFERENCES)) break;
        READ_U32(&idx);
        TRY(pop_func_ref(c, idx, &a));
        TRY(compile_call(c, &c->m->types[idx], CMP_CALL_REF, 0, 0, &a));
        c->producer_end = NO_POS;
        return WEFT_OK;
    case 0x15: /* return_call_ref x */
        if (!base_feature_on(c->m->engine, WEFT_FEATURE_FUNCTION_REFERENCES) ||
            !base_feature_on(c->m->engine, WEFT_FEATURE_TAIL_CALL))
            break;
        READ_U32(&idx);
        TRY(pop_func_ref(c, idx, &a));
        return compile_tail_call(c, &c->m->types[idx], CMP_RETURN_CALL_REF, 0, 0, &a);
    case 0xD4: /* ref.as_non_null */
        if (!base_feature_on(c->m->engine, WEFT_FEATURE_FUNCTION_REFERENCES)) break;
        TRY(cmp_pop(c, T_UNKNOWN, &a));
        if (!is_ref(a.type)) return cmp_fail(c, WEFT_ERR_INVALID, "type mismatch: ref.as_non_null needs a reference");
        if (a.slot != NO_SLOT && mod_nullable(a.type)) {
            cmp_emit_op(c, CMP_REF_AS_NON_NULL);
            cmp_emit_src(c, a.slot);
        }
        cmp_push_at(c, a.type == T_UNKNOWN ? T_UNKNOWN : a.type | MOD_T_NONNULL, a.slot);
        return WEFT_OK;
    case 0xD5: /* br_on_null l */
    case 0xD6: /* br_on_non_null l */
        if (!base_feature_on(c->m->engine, WEFT_FEATURE_FUNCTION_REFERENCES)) break;
        return compile_br_on_null(c, opcode == 0xD5);
    case 0x1A: /* drop */
        TRY(cmp_pop(c, T_UNKNOWN, &a));
        return WEFT_OK;
    case 0x1B: /* select */
    case 0x1C: { /* select t* */
        mod_valtype t = T_UNKNOWN;
        if (opcode == 0x1C) {
            uint32_t n;
            READ_U32(&n);
            if (n != 1) return cmp_fail(c, WEFT_ERR_INVALID, "invalid result arity");
            TRY(cmp_read_valtype(c, &t));
        }
        TRY(cmp_pop(c, WEFT_I32, &cond));
        TRY(cmp_pop(c, t, &b));
        TRY(cmp_pop(c, t, &a));
        if (opcode == 0x1B) {
            if (!((is_num(a.type) || a.type == WEFT_V128) && (is_num(b.type) || b.type == WEFT_V128)))
                return cmp_fail(c, WEFT_ERR_INVALID, "type mismatch: select needs numeric operands");
            if (a.type != b.type && a.type != T_UNKNOWN && b.type != T_UNKNOWN)
                return cmp_fail(c, WEFT_ERR_INVALID, "type mismatch: select operands differ");
            t = a.type == T_UNKNOWN ? b.type : a.type;
        }
        uint32_t dst = cmp_push(c, t);
        cmp_emit_op(c, t == WEFT_V128 ? CMP_SELECT128 : CMP_SELECT);
        uint32_t dpos = (uint32_t)c->code.len;
        cmp_emit(c, dst);
        cmp_emit_src(c, cond.slot);
        cmp_emit_src(c, a.slot);
        cmp_emit_src(c, b.slot);
        cmp_mark_producer(c, dpos);
        return WEFT_OK;
    }
    case 0x20: { /* local.get */
        mod_valtype t = T_UNKNOWN;
        READ_U32(&idx);
        TRY(local_type(c, idx, &t));
        /* Wasm 3.0 §3.3.5.1: a non-defaultable local must be set first. */
        if (!c->local_set[idx]) return cmp_fail(c, WEFT_ERR_INVALID, "uninitialized local %u", idx);
        cmp_push_at(c, t, c->local_slots[idx]);
        return WEFT_OK;
    }
    case 0x21: /* local.set */
        return compile_local_set(c, false);
    case 0x22: /* local.tee */
        return compile_local_set(c, true);
    case 0x23: { /* global.get */
        READ_U32(&idx);
        if (idx >= c->m->nglobals) return cmp_fail(c, WEFT_ERR_INVALID, "unknown global %u", idx);
        uint32_t dst = cmp_push(c, c->m->global_types[idx].type);
        cmp_emit_op(c, c->m->global_types[idx].type == WEFT_V128 ? CMP_GLOBAL_GET128 : CMP_GLOBAL_GET);
        uint32_t dpos = (uint32_t)c->code.len;
        cmp_emit(c, dst);
        cmp_emit(c, idx);
        cmp_mark_producer(c, dpos);
        return WEFT_OK;
    }
    case 0x24: /* global.set */
        READ_U32(&idx);
        if (idx >= c->m->nglobals) return cmp_fail(c, WEFT_ERR_INVALID, "unknown global %u", idx);
        if (!c->m->global_types[idx].mut) return cmp_fail(c, WEFT_ERR_INVALID, "immutable global %u", idx);
        TRY(cmp_pop(c, c->m->global_types[idx].type, &a));
        cmp_emit_op(c, c->m->global_types[idx].type == WEFT_V128 ? CMP_GLOBAL_SET128 : CMP_GLOBAL_SET);
        cmp_emit(c, idx);
        cmp_emit_src(c, a.slot);
        return WEFT_OK;
    case 0x25: { /* table.get */
        READ_U32(&idx);
        TRY(need_table(c, idx));
        TRY(pop_addr(c, table_addr_type(c, idx), &a));
        uint32_t dst = cmp_push(c, c->m->tables[idx].elem);
        cmp_emit_op(c, CMP_TABLE_GET);
        cmp_emit(c, dst);
        cmp_emit(c, idx);
        cmp_emit_src(c, a.slot);
        return WEFT_OK;
    }
    case 0x26: /* table.set */
        READ_U32(&idx);
        TRY(need_table(c, idx));
        TRY(cmp_pop(c, c->m->tables[idx].elem, &b));
        TRY(pop_addr(c, table_addr_type(c, idx), &a));
        cmp_emit_op(c, CMP_TABLE_SET);
        cmp_emit(c, idx);
        cmp_emit_src(c, a.slot);
        cmp_emit_src(c, b.slot);
        return WEFT_OK;
    case 0x3F: /* memory.size memidx */
    case 0x40: { /* memory.grow memidx */
        TRY(read_mem_index(c, &idx));
        weft_valtype at = mem_addr_type(c, idx);
        if (opcode == 0x40) TRY(pop_addr(c, at, &a));
        if (idx != 0) mem_select(c, idx);
        uint32_t dst = cmp_push(c, WEFT_I32);
        cmp_emit_op(c, opcode == 0x3F ? CMP_MEMORY_SIZE : CMP_MEMORY_GROW);
        cmp_emit(c, dst);
        if (opcode == 0x40) cmp_emit_src(c, a.slot);
        if (idx != 0) mem_select(c, 0);
        if (at == WEFT_I64) widen_size(c, dst, opcode == 0x40);
        return WEFT_OK;
    }
    case 0x41: { /* i32.const */
        int64_t v;
        if (!base_read_sleb(&c->r, 32, &v)) return cmp_read_fail(c);
        return compile_const(c, WEFT_I32, (uint32_t)v);
    }
    case 0x42: { /* i64.const */
        int64_t v;
        if (!base_read_sleb(&c->r, 64, &v)) return cmp_read_fail(c);
        return compile_const(c, WEFT_I64, (uint64_t)v);
    }
    case 0x43: { /* f32.const */
        uint32_t v;
        if (!base_read_f32(&c->r, &v)) return cmp_read_fail(c);
        return compile_const(c, WEFT_F32, v);
    }
    case 0x44: { /* f64.const */
        uint64_t v;
        if (!base_read_f64(&c->r, &v)) return cmp_read_fail(c);
        return compile_const(c, WEFT_F64, v);
    }
    case 0xAD: /* i64.extend_i32_u: i32 slots are zero-extended already */
    case 0xBC: /* reinterpretations change the type, not the bits */
    case 0xBD:
    case 0xBE:
    case 0xBF: {
        static const mod_valtype from[] = {WEFT_I32, WEFT_F32, WEFT_F64, WEFT_I32, WEFT_I64};
        static const mod_valtype to[] = {WEFT_I64, WEFT_I32, WEFT_I64, WEFT_F32, WEFT_F64};
        int k = opcode == 0xAD ? 0 : opcode - 0xBC + 1;
        TRY(cmp_pop(c, from[k], &a));
        cmp_push_at(c, to[k], a.slot);
        return WEFT_OK;
    }
    case 0xD0: { /* ref.null ht (Wasm 3.0 §3.3.2: (ref null ht)) */
        mod_valtype t;
        mod_valtype_err e;
        switch (mod_read_heaptype(&c->r, c->m, &t, &e)) {
        case MOD_READ_OK: break;
        case MOD_READ_SHORT: return cmp_read_fail(c);
        case MOD_READ_MALFORMED: return cmp_fail(c, WEFT_ERR_MALFORMED, "%s", e.msg);
        case MOD_READ_INVALID: return cmp_fail(c, WEFT_ERR_INVALID, "%s", e.msg);
        }
        uint32_t dst = cmp_push(c, t);
        cmp_emit_op(c, CMP_CONST32);
        cmp_emit(c, dst);
        cmp_emit(c, 0);
        return WEFT_OK;
    }
    case 0xD1: { /* ref.is_null */
        TRY(cmp_pop(c, T_UNKNOWN, &a));
        if (!is_ref(a.type)) return cmp_fail(c, WEFT_ERR_INVALID, "type mismatch: ref.is_null needs a reference");
        uint32_t dst = cmp_push(c, WEFT_I32);
        cmp_emit_op(c, CMP_REF_IS_NULL);
        cmp_emit(c, dst);
        cmp_emit_src(c, a.slot);
        return WEFT_OK;
    }
    case 0xD2: { /* ref.func x (§3.3.2: x must be in C.refs) */
        READ_U32(&idx);
        if (idx >= c->m->nfuncs) return cmp_fail(c, WEFT_ERR_INVALID, "unknown function %u", idx);
        if (!c->m->func_declared || !c->m->func_declared[idx])
            return cmp_fail(c, WEFT_ERR_INVALID, "undeclared function reference");
        /* Wasm 3.0: (ref $t) of the function's type; 2.0: funcref. */
        mod_valtype t = WEFT_FUNCREF;
        if (base_feature_on(c->m->engine, WEFT_FEATURE_FUNCTION_REFERENCES)) t = mod_ref_idx(c->m->func_types[idx], false);
        uint32_t dst = cmp_push(c, t);
        cmp_emit_op(c, CMP_REF_FUNC);
        cmp_emit(c, dst);
        cmp_emit(c, idx);
        return WEFT_OK;
    }
    case 0xFB: /* GC's struct, array, i31 and cast instructions (Wasm 3.0 §5.4.7) */
        return cmp_fail(c, WEFT_ERR_MALFORMED, "a GC instruction (prefix 0xfb) " MOD_GC_NEEDED);
    case 0xFC:
        return compile_misc(c);
    case 0xFD:
        if (!cmp_simd_on(c)) break;
        return cmp_simd_instr(c);
    case 0xFE:
        if (c->m->engine && (c->m->engine->config.disabled_features & WEFT_FEATURE_THREADS)) break;
        return cmp_compile_atomic(c);
    default:
        break;
    }
    if (opcode >= 0x28 && opcode <= 0x3E) return compile_memory_op(c, opcode);
    const cmp_numeric_info *ni = cmp_numeric_lookup(opcode);
    if (ni) return cmp_compile_numeric(c, ni);
    return cmp_fail(c, WEFT_ERR_MALFORMED, "illegal opcode 0x%02x", opcode);
}

/* ------------------------------------------------------------------------
 * Functions and modules
 * ------------------------------------------------------------------------ */

static void compiler_reset(compiler *c) {
    for (size_t i = 0; i < c->ctls.len; i++) BASE_VEC_FREE(c->ctls.data[i].fixups);
    for (size_t i = 0; i < c->singles.len; i++) free(c->singles.data[i]);
    c->singles.len = 0;
    undo_local_inits(c, 0);
    c->ctls.len = 0;
    c->stack.len = 0;
    c->code.len = 0;
    c->pcmap.len = 0;
    c->handlers.len = 0;
}

static weft_status compile_body(compiler *c, const mod_func *fn) {
    c->r = mod_body_reader(c->m, fn);
    c->ntemps = 0;
    c->base = c->nlocal_slots + cmp_const_area(c) + c->reserved_temps;
    c->const_refs.len = 0;
    if (c->nconsts) memset(c->const_used, 0, c->nconsts);
    if (c->nvconsts) memset(c->vconst_used, 0, c->nvconsts);
    c->max_height = 0;
    c->producer_end = NO_POS;
    c->copy_end = c->last_target = NO_POS;
    c->oom = false;

    ctl f;
    memset(&f, 0, sizeof f);
    f.kind = CTL_FUNC;
    f.nresults = c->type->nresults;
    f.results = c->type->results;
    if (!BASE_VEC_PUSH(c->ctls, f)) return cmp_oom(c);

    bool done = false;
    while (!done) {
        TRY(compile_instr(c, &done));
        if (c->oom) return cmp_oom(c);
    }
    if (c->r.p != c->r.end) {
        c->op_offset = base_reader_offset(&c->r);
        return cmp_fail(c, WEFT_ERR_MALFORMED, "section size mismatch: bytes after the function's final end");
    }
    return WEFT_OK;
}

static int cmp_v128_order(const void *a, const void *b) {
    const cmp_v128 *x = a, *y = b;
    if (x->w[1] != y->w[1]) return x->w[1] < y->w[1] ? -1 : 1;
    return x->w[0] < y->w[0] ? -1 : x->w[0] > y->w[0];
}

static int cmp_u64(const void *a, const void *b) {
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static weft_status compile_function(compiler *c, uint32_t own_index, cmp_func **out) {
    mod_module *m = c->m;
    const mod_func *fn = &m->funcs[own_index];
    c->func_index = m->nfunc_imports + own_index;
    c->type = &m->types[fn->type_index];
    c->nlocals = c->type->nparams + fn->nlocals;
    c->local_types = malloc(((size_t)c->nlocals + 1) * sizeof *c->local_types);
    if (!c->local_types) return cmp_oom(c);
    if (c->type->nparams) memcpy(c->local_types, c->type->params, c->type->nparams * sizeof *c->local_types);
    if (fn->nlocals) memcpy(c->local_types + c->type->nparams, fn->local_types, fn->nlocals * sizeof *c->local_types);
    /* Which locals are set (Wasm 3.0 §3.3.5): params and defaultable ones
       from the start. */
    c->init_log.len = 0;
    free(c->local_set);
    c->local_set = malloc((size_t)c->nlocals + 1);
    if (!c->local_set) {
        free(c->local_types);
        c->local_types = NULL;
        return cmp_oom(c);
    }
    for (uint32_t i = 0; i < c->nlocals; i++)
        c->local_set[i] = i < c->type->nparams || mod_defaultable(c->local_types[i]);
    /* Slots of the locals: a v128 takes two. */
    free(c->local_slots);
    c->local_slots = malloc(((size_t)c->nlocals + 1) * sizeof *c->local_slots);
    if (!c->local_slots) {
        free(c->local_types);
        c->local_types = NULL;
        return cmp_oom(c);
    }
    c->nlocal_slots = 0;
    for (uint32_t i = 0; i < c->nlocals; i++) {
        if (i == c->type->nparams) c->nparam_slots = c->nlocal_slots;
        c->local_slots[i] = c->nlocal_slots;
        c->nlocal_slots += cmp_slot_width(c->local_types[i]);
    }
    if (c->nlocals == c->type->nparams) c->nparam_slots = c->nlocal_slots;

    /* Constants first: their slots sit below the operand stack. A body
       that is malformed fails here, before any validation error. */
    c->consts.len = 0;
    c->vconsts.len = 0;
    c->oom = false;
    weft_status st = cmp_walk_body(c, fn, true);
    if (st == WEFT_OK && c->oom) st = cmp_oom(c);
    if (st != WEFT_OK) {
        free(c->local_types);
        c->local_types = NULL;
        return st;
    }
    if (c->consts.len) qsort(c->consts.data, c->consts.len, sizeof(uint64_t), cmp_u64);
    size_t n = 0;
    for (size_t i = 0; i < c->consts.len; i++)
        if (n == 0 || c->consts.data[n - 1] != c->consts.data[i]) c->consts.data[n++] = c->consts.data[i];
    c->consts.len = n;
    c->nconsts = n > CMP_MAX_CONSTS ? CMP_MAX_CONSTS : (uint32_t)n;
    if (c->vconsts.len) qsort(c->vconsts.data, c->vconsts.len, sizeof(cmp_v128), cmp_v128_order);
    n = 0;
    for (size_t i = 0; i < c->vconsts.len; i++)
        if (n == 0 || memcmp(&c->vconsts.data[n - 1], &c->vconsts.data[i], sizeof(cmp_v128)))
            c->vconsts.data[n++] = c->vconsts.data[i];
    c->vconsts.len = n;
    c->nvconsts = n > CMP_MAX_VCONSTS ? CMP_MAX_VCONSTS : (uint32_t)n;
    free(c->const_used);
    free(c->vconst_used);
    c->const_used = calloc(c->nconsts + 1, 1);
    c->vconst_used = calloc(c->nvconsts + 1, 1);
    if (!c->const_used || !c->vconst_used) {
        free(c->local_types);
        c->local_types = NULL;
        return cmp_oom(c);
    }

    c->reserved_temps = 0;
    for (;;) {
        compiler_reset(c);
        st = compile_body(c, fn);
        if (st != WEFT_OK || c->ntemps <= c->reserved_temps) break;
        /* An if with params needed temps below the operand stack: compile
           again with room for them. Rare (multi-value if). */
        c->reserved_temps = c->ntemps;
    }
    free(c->local_types);
    c->local_types = NULL;
    if (st != WEFT_OK) return st;

    cmp_func *cf = calloc(1, sizeof *cf);
    if (!cf) return cmp_oom(c);
    cf->code = malloc(c->code.len * sizeof(uint32_t));
    cf->pcmap = malloc((c->pcmap.len ? c->pcmap.len : 1) * sizeof(uint32_t));
    if (!cf->code || !cf->pcmap) {
        free(cf->code);
        free(cf->pcmap);
        free(cf);
        return cmp_oom(c);
    }
    memcpy(cf->code, c->code.data, c->code.len * sizeof(uint32_t));
    memcpy(cf->pcmap, c->pcmap.data, c->pcmap.len * sizeof(uint32_t));
    cf->code_len = (uint32_t)c->code.len;
    cf->npcmap = (uint32_t)c->pcmap.len / 2;
    cf->func_index = c->func_index;
    cf->nparams = c->nparam_slots;
    cf->nresults = 0;
    for (uint32_t i = 0; i < c->type->nresults; i++) cf->nresults += cmp_slot_width(c->type->results[i]);
    cf->nlocals = c->nlocal_slots;
    /* Constants that need slots take the first slots after the locals, in
       table order; patch every word that named one. (Room for all of them
       was kept below the temps and stack; the rest of it goes unused.) */
    uint32_t const_base = c->nlocal_slots, nused = 0;
    uint32_t *remap = malloc((c->nconsts + c->nvconsts + 1) * sizeof *remap);
    cf->consts = malloc((cmp_const_area(c) + 1) * sizeof(uint64_t));
    if (!remap || !cf->consts) {
        free(remap);
        free(cf->consts);
        free(cf->code);
        free(cf->pcmap);
        free(cf);
        return cmp_oom(c);
    }
    for (uint32_t k = 0; k < c->nconsts; k++)
        if (c->const_used[k]) {
            remap[k] = const_base + nused;
            cf->consts[nused++] = c->consts.data[k];
        }
    /* Then the v128 constants, two slots each. */
    for (uint32_t k = 0; k < c->nvconsts; k++)
        if (c->vconst_used[k]) {
            remap[c->nconsts + k] = const_base + nused;
            cf->consts[nused++] = c->vconsts.data[k].w[0];
            cf->consts[nused++] = c->vconsts.data[k].w[1];
        }
    for (size_t i = 0; i < c->const_refs.len; i++) {
        uint32_t *w = &cf->code[c->const_refs.data[i]];
        *w = cmp_is_vconst(*w) ? remap[c->nconsts + *w - VCONST_MARK] : remap[*w - CONST_MARK];
    }
    free(remap);
    cf->nconsts = nused;
    cf->frame_size = c->base + c->max_height;
    /* Layout, on the finished words: tail duplication (it moves code),
       then pairs (they only rewrite operation words in place). A function
       with exception handlers keeps its layout: its handlers name code
       ranges, which copies would leave. */
    if (!cmp_mark_back_edges(cf) || !cmp_eh_finish(c, cf) || (!cf->handlers && !cmp_taildup(cf))) {
        free(cf->back_edges);
        free(cf->handlers);
        free(cf->consts);
        free(cf->code);
        free(cf->pcmap);
        free(cf);
        return cmp_oom(c);
    }
    cmp_pair_ops(cf->code, cf->code_len);
    if (c->m->engine && c->m->engine->config.tier == WEFT_TIER_JIT) jit_compile(c->m, cf);
    *out = cf;
    return WEFT_OK;
}

const uint32_t cmp_lazy_code[1] = {CMP_LAZY};

static void compiler_init(compiler *c, mod_module *m, weft_error *err) {
    memset(c, 0, sizeof *c);
    c->m = m;
    c->err = err;
    uint32_t nown = m->nfuncs - m->nfunc_imports;
    if (nown) c->code_section_end = m->funcs[nown - 1].body + m->funcs[nown - 1].body_len;
}

static void compiler_free(compiler *c) {
    compiler_reset(c);
    BASE_VEC_FREE(c->singles);
    BASE_VEC_FREE(c->init_log);
    free(c->local_set);
    BASE_VEC_FREE(c->ctls);
    BASE_VEC_FREE(c->stack);
    BASE_VEC_FREE(c->code);
    BASE_VEC_FREE(c->pcmap);
    BASE_VEC_FREE(c->handlers);
    BASE_VEC_FREE(c->consts);
    BASE_VEC_FREE(c->const_refs);
    free(c->const_used);
    free(c->vconst_used);
    BASE_VEC_FREE(c->vconsts);
    free(c->local_slots);
}

static bool eager_compile(const mod_module *m) {
    return m->engine && m->engine->config.compile_mode == WEFT_COMPILE_EAGER;
}

weft_status cmp_compile_module(mod_module *m, weft_error *err) {
    uint32_t nown = m->nfuncs - m->nfunc_imports;
    m->code = calloc(nown ? nown : 1, sizeof *m->code);
    m->stubs = calloc(nown ? nown : 1, sizeof *m->stubs);
    if (!m->code || !m->stubs) {
        cmp_free_module_code(m);
        return base_fail(err, WEFT_ERR_NOMEM, "out of memory");
    }
    if (pthread_mutex_init(&m->compile_lock, NULL) != 0) {
        cmp_free_module_code(m);
        return base_fail(err, WEFT_ERR_NOMEM, "out of memory (compile lock)");
    }
    m->compile_lock_ready = true;
    /* Lazy: each body is validated now by the fast pass (validate.c, on
       two cores for a big module) and left as its stub; a body that pass
       cannot vouch for is compiled now, by the compiler's one pass, which
       validates it with the spec's wording, and keeps its code. Eager:
       every body through the compiler, as before. Either way bodies are
       taken in order, so the first error reported is the first body's. */
    uint8_t *ok = NULL;
    if (!eager_compile(m)) {
        ok = malloc(nown ? nown : 1);
        if (!ok || !cmp_validate_all(m, ok)) {
            free(ok);
            cmp_free_module_code(m);
            return base_fail(err, WEFT_ERR_NOMEM, "out of memory");
        }
    }
    compiler c;
    compiler_init(&c, m, err);
    weft_status st = WEFT_OK;
    uint32_t i;
    for (i = 0; i < nown; i++) {
        cmp_func *stub = &m->stubs[i];
        stub->code = (uint32_t *)cmp_lazy_code;
        stub->func_index = m->nfunc_imports + i;
        if (ok && ok[i]) {
            atomic_init(&m->code[i], stub);
            continue;
        }
        cmp_func *cf = NULL;
        st = compile_function(&c, i, &cf);
        if (st != WEFT_OK) break;
        atomic_init(&m->code[i], cf);
        atomic_fetch_add_explicit(&m->ncompiled, 1, memory_order_relaxed);
    }
    if (st == WEFT_ERR_INVALID) {
        /* Decoding precedes validation: a later malformed body wins. */
        weft_error scan_err;
        c.err = &scan_err;
        if (cmp_scan_bodies(&c, i) == WEFT_ERR_MALFORMED) {
            if (err) *err = scan_err;
            st = WEFT_ERR_MALFORMED;
        }
    }
    compiler_free(&c);
    free(ok);
    if (st != WEFT_OK) cmp_free_module_code(m);
    return st;
}

weft_status cmp_check_bodies(mod_module *m, weft_error *err) {
    compiler c;
    compiler_init(&c, m, err);
    weft_status st = cmp_scan_bodies(&c, 0);
    compiler_free(&c);
    return st;
}

weft_status cmp_func_code(mod_module *m, uint32_t own_index, const cmp_func **out, weft_error *err) {
    cmp_func *cf = atomic_load_explicit(&m->code[own_index], memory_order_acquire);
    if (BASE_LIKELY(!cmp_is_lazy(cf))) {
        *out = cf;
        return WEFT_OK;
    }
    /* First call: compile under the module's lock, checking again inside
       it, so racing callers compile once and all take that code. */
    weft_status st = WEFT_OK;
    pthread_mutex_lock(&m->compile_lock);
    cf = atomic_load_explicit(&m->code[own_index], memory_order_relaxed);
    if (cmp_is_lazy(cf)) {
        compiler c;
        compiler_init(&c, m, err);
        cmp_func *made = NULL;
        st = compile_function(&c, own_index, &made);
        compiler_free(&c);
        if (st == WEFT_OK) {
            BASE_TSAN_RELEASE(m->code); /* (machine code reads the table) */
            atomic_store_explicit(&m->code[own_index], made, memory_order_release);
            atomic_fetch_add_explicit(&m->ncompiled, 1, memory_order_relaxed);
            cf = made;
        }
    }
    pthread_mutex_unlock(&m->compile_lock);
    if (st != WEFT_OK) {
        /* Validation passed at load, so this is a resource (out of memory)
           or a disagreement between the two validators: say which function. */
        uint32_t index = m->nfunc_imports + own_index;
        const char *name = m->func_names ? m->func_names[index] : NULL;
        char why[WEFT_ERROR_MESSAGE_MAX];
        snprintf(why, sizeof why, "%s", err ? err->message : "");
        return base_fail(err, st, "cannot compile function %u%s%s%s on its first call: %s", index,
                         name ? " <" : "", name ? name : "", name ? ">" : "", why);
    }
    *out = cf;
    return WEFT_OK;
}

void cmp_free_module_code(mod_module *m) {
    uint32_t nown = m->nfuncs - m->nfunc_imports;
    if (m->code) {
        for (uint32_t i = 0; i < nown; i++) {
            cmp_func *cf = atomic_load_explicit(&m->code[i], memory_order_relaxed);
            if (!cf || cmp_is_lazy(cf)) continue;
            jit_free(cf);
            free(cf->code);
            free(cf->pcmap);
            free(cf->back_edges);
            free(cf->consts);
            free(cf->handlers);
            free(cf);
        }
        free(m->code);
        m->code = NULL;
    }
    free(m->stubs);
    m->stubs = NULL;
    if (m->compile_lock_ready) pthread_mutex_destroy(&m->compile_lock);
    m->compile_lock_ready = false;
}

uint32_t cmp_offset_of(const cmp_func *f, uint32_t pos) {
    /* Last entry whose code index is <= pos. */
    uint32_t lo = 0, hi = f->npcmap;
    while (hi - lo > 1) {
        uint32_t mid = (lo + hi) / 2;
        if (f->pcmap[2 * mid] <= pos) lo = mid;
        else hi = mid;
    }
    return f->npcmap ? f->pcmap[2 * lo + 1] : 0;
}

const char *cmp_op_name(uint32_t op) {
    static const char *const names[] = {
#define CMP_X_NAME(name, ...) #name,
        CMP_OPS(CMP_X_NAME)
#undef CMP_X_NAME
#define CMP_PAIR_NAME_SEQ(a, b) #a "+" #b
#define CMP_PAIR_NAME_D1(a, b) #a "+" #b ":1"
#define CMP_PAIR_NAME_D2(a, b) #a "+" #b ":2"
#define CMP_PAIR_NAME_TAIL(a, b) #a "+" #b
#define CMP_PAIR_FORM(op, a, b, form) CMP_PAIR_NAME_##form(a, b),
        CMP_PAIR_FORMS
#undef CMP_PAIR_FORM
    };
    _Static_assert(sizeof names / sizeof names[0] == CMP_OP_COUNT, "a name for every operation");
    return op < CMP_OP_COUNT ? names[op] : "?";
}

/* The helpers eh.c shares (compiler.h). */
ctl *cmp_top_ctl(compiler *c) { return top_ctl(c); }
weft_status cmp_read_label(compiler *c, ctl **out) { return read_label(c, out); }
weft_status cmp_read_blocktype(compiler *c, ctl *f) { return read_blocktype(c, f); }
weft_status cmp_open_block(compiler *c, ctl *f) { return open_block(c, f); }
weft_status cmp_close_arm(compiler *c) { return close_arm(c); }
weft_status cmp_pop_types(compiler *c, uint32_t n, const mod_valtype *types) {
    TRY(check_top(c, n, types));
    if (c->stack.len - top_ctl(c)->height >= n) materialise_from(c, c->stack.len - n);
    return pop_types(c, n, types);
}
void cmp_label_types(const ctl *f, uint32_t *n, const mod_valtype **types) { label_types(f, n, types); }
void cmp_emit_target(compiler *c, ctl *f) { emit_target(c, f); }
void cmp_set_target(compiler *c, uint32_t word, uint32_t target) { set_target(c, word, target); }
void cmp_set_unreachable(compiler *c) { set_unreachable(c); }
void cmp_patch_fixups(compiler *c, ctl *f, uint32_t pos) { patch_fixups(c, f, pos); }
void cmp_emit_moves(compiler *c, uint32_t n, uint32_t dst, bool consume) { emit_moves(c, n, dst, consume); }
