/*
 * simd.c — the compiler tier's v128 operations (docs/jit.md "SIMD"): one
 * template of SSE code per operation, on the interpreter's frame layout.
 *
 * A v128 lives where the interpreter keeps it (code.h, ops.h): two
 * consecutive 64-bit slots, low 8 bytes first. Each template loads its
 * vector operands into xmm0/xmm1, computes, and stores the result to the
 * frame with movdqu (slots are 8-byte aligned, so no legacy SSE
 * instruction takes them as memory operands). The register cache (emit.h)
 * keeps v128s too, write-back as the scalars: a vector stored or
 * loaded stays in a cache register (xv), a later operand is read from
 * there, and any write to either of its slots drops it, as a v128 store
 * drops the scalar views of its slots. A lane extracted or stored is read
 * in the frame itself, at its byte offset; a lane replaced or loaded is
 * inserted in the vector's register (vinsert_rdx). More XMM registers than
 * xmm0/xmm1 come from the cache (vtmp: a cache register written back if
 * dirty and dropped for the operation). Code that runs conditionally (select) must not load
 * through the cache, which would then claim a value that was not loaded.
 *
 * Results are the interpreter's bit for bit (src/exec/simd.h): every
 * template is either the instruction the interpreter's SSE2 helper uses
 * (lane arithmetic, compares, packs, pmin/pmax with the same operand
 * order, add and mul with a first as the interpreter's inline assembly
 * has it, so two NaN lanes give a's NaN on both tiers) or exact integer
 * arithmetic, or (min/max, the unsigned conversions, trunc_sat_f32x4_s)
 * a sequence whose every lane is what simd.h's lane helper computes,
 * NaN bits included (its NaN path is an addss/addsd with a first). The
 * saturating truncations but trunc_sat_f32x4_s, relaxed madd/nmadd and
 * the relaxed dot products are not compiled: they exit, and the
 * interpreter goes on from there (jit.c emit_op).
 *
 * Beyond SSE2, checked once per process (emit.h cpu_has): SSSE3 (pshufb
 * for shuffles and swizzles, pabs, pmaddubsw, pmulhrsw), SSE4.1 (pmulld,
 * pmins/pmaxs/pminu/pmaxu of the widths SSE2 lacks, packusdw, pmovsx/zx,
 * pcmpeqq, pmuldq, roundps/pd), SSE4.2 (pcmpgtq); without one, the
 * operations that need it exit.
 *
 * Memory 0 only, with jit.c's bounds check (emit.h bounds: the
 * interpreter's CHECK_MEM; out of bounds, the interpreter runs the access
 * and traps with its message). Nothing is written before the checks.
 */
#include "jit.h"

#if WEFT_JIT
#include "../exec/exec.h"
#include "emit.h"

enum { NEED_SSSE3 = 1, NEED_SSE41 = 2, NEED_SSE42 = 4 };

/* False, after an exit at pc, when the CPU lacks what `need` names. */
static bool has(jit_cc *c, uint32_t pc, int need) {
    if (((need & NEED_SSSE3) && !cpu_has(JIT_CPU_SSSE3)) || ((need & NEED_SSE41) && !cpu_has(JIT_CPU_SSE41)) ||
        ((need & NEED_SSE42) && !cpu_has(JIT_CPU_SSE42))) {
        leave_here(c, pc);
        return false;
    }
    return true;
}

/* x = the v128 at slot: from the register cache (movdqa x, r: 66 0F 6F),
   or from the frame (movdqu x, [slot]: F3 0F 6F) and then cached. Not in
   code that runs conditionally (the cache would claim what did not run). */
static void vld(jit_cc *c, int x, uint32_t slot) {
    int r = cache_v128(c, slot);
    if (r < 0) {
        cache_clean_v128(c, slot);
        r = cache_take_v128(c, slot);
        x64_rm_slot(&c->b, 0xF3, 0, 0x0F6F, r, slot);
    }
    if (r != x) x64_rr(&c->b, 0x66, 0, 0x0F6F, x, r);
}
/* The v128 at slot = x: kept in a cache register, dirty (emit.h). */
static void vst(jit_cc *c, int x, uint32_t slot) {
    int r = cache_take_v128(c, slot);
    x64_rr(&c->b, 0x66, 0, 0x0F6F, r, x);
    cache_dirty_xmm(c, r);
}
/* op x, y (registers; pfx 0x66 for the integer forms). */
static void vop(jit_cc *c, int pfx, uint32_t opc, int x, int y) { x64_rr(&c->b, pfx, 0, opc, x, y); }
static void vpi(jit_cc *c, uint32_t opc, int x, int y) { vop(c, 0x66, opc, x, y); }
/* An XMM register for this operation: a cache register, dropped. */
static int vtmp(jit_cc *c) {
    uint32_t i = c->xmm_next++ % JIT_NXMM;
    xmm_writeback(c, (int)i);
    c->xmm[i] = 0;
    c->xv[i] = false;
    return 2 + (int)i;
}
/* A lane of the v128 at slot d written in the frame: its cached copies go. */
static void lane_written(jit_cc *c, uint32_t d) {
    cache_drop(c, d);
    cache_drop(c, d + 1);
}
/* Shift or shuffle by an immediate: opc /ext ib (66 0F 71-73, 66 0F 70). */
static void vimm(jit_cc *c, uint32_t opc, int reg, int x, uint8_t ib) {
    x64_rr(&c->b, 0x66, 0, opc, reg, x);
    x64_byte(&c->b, ib);
}
/* x = eax in every 32-bit lane: movd x, eax; pshufd x, x, 0. */
static void vsplat_eax(jit_cc *c, int x) {
    x64_rr(&c->b, 0x66, 0, 0x0F6E, x, X64_RAX);
    vimm(c, 0x0F70, x, x, 0);
}
static void vsplat32(jit_cc *c, int x, uint32_t v) {
    x64_mov_imm32(&c->b, X64_RAX, v);
    vsplat_eax(c, x);
}
/* x = rax in both 64-bit lanes: movq x, rax; punpcklqdq x, x. */
static void vsplat_rax(jit_cc *c, int x) {
    x64_rr(&c->b, 0x66, 1, 0x0F6E, x, X64_RAX);
    vpi(c, 0x0F6C, x, x);
}
static void vones(jit_cc *c, int x) { vpi(c, 0x0F76, x, x); } /* pcmpeqd x, x */
static void vzero(jit_cc *c, int x) { vpi(c, 0x0FEF, x, x); } /* pxor x, x */
/* x = ~x. */
static void vnot(jit_cc *c, int x) {
    int t = vtmp(c);
    vones(c, t);
    vpi(c, 0x0FEF, x, t);
}
/* eax *= k (imul eax, eax, imm32) after zero-extending its low `bits`. */
static void spread_eax(jit_cc *c, int bits, uint32_t k) {
    x64_rr(&c->b, 0, 0, bits == 8 ? 0x0FB6 : 0x0FB7, X64_RAX, X64_RAX); /* movzx eax, al / ax */
    x64_rr(&c->b, 0, 0, 0x69, X64_RAX, X64_RAX);
    x64_u32(&c->b, k);
}
/* d = xmm0; the result of every vector template ends so. */
static void vdone(jit_cc *c, uint32_t d) { vst(c, 0, d); }

/* ------------------------------------------------------------------------
 * Lane-wise binary operations that are one instruction: xmm0 = a (or b
 * with SWAP: the instruction's first operand is wasm's second); op xmm0,
 * xmm1; an immediate for cmpps/cmppd.
 * ------------------------------------------------------------------------ */
enum { VF_SWAP = 8, VF_IMM = 16 };
typedef struct {
    int pfx;
    uint32_t opc;
    int flags; /* NEED_* | VF_* */
    uint8_t imm;
} vform;
static bool bin_form(uint32_t op, vform *f) {
#define PI(o, fl) *f = (vform){0x66, (o), (fl), 0}; return true
#define PS(p, o, fl) *f = (vform){(p), (o), (fl), 0}; return true
#define CMPF(p, imm_, fl) *f = (vform){(p), 0x0FC2, VF_IMM | (fl), (imm_)}; return true
    switch (op) {
    case CMP_I8X16_ADD: PI(0x0FFC, 0);
    case CMP_I8X16_SUB: PI(0x0FF8, 0);
    case CMP_I8X16_ADD_SAT_S: PI(0x0FEC, 0);
    case CMP_I8X16_ADD_SAT_U: PI(0x0FDC, 0);
    case CMP_I8X16_SUB_SAT_S: PI(0x0FE8, 0);
    case CMP_I8X16_SUB_SAT_U: PI(0x0FD8, 0);
    case CMP_I8X16_MIN_U: PI(0x0FDA, 0);
    case CMP_I8X16_MAX_U: PI(0x0FDE, 0);
    case CMP_I8X16_MIN_S: PI(0x0F3838, NEED_SSE41);
    case CMP_I8X16_MAX_S: PI(0x0F383C, NEED_SSE41);
    case CMP_I8X16_AVGR_U: PI(0x0FE0, 0);
    case CMP_I8X16_NARROW_I16X8_S: PI(0x0F63, 0);  /* packsswb */
    case CMP_I8X16_NARROW_I16X8_U: PI(0x0F67, 0);  /* packuswb: signed inputs, as wasm's */
    case CMP_I16X8_ADD: PI(0x0FFD, 0);
    case CMP_I16X8_SUB: PI(0x0FF9, 0);
    case CMP_I16X8_MUL: PI(0x0FD5, 0);
    case CMP_I16X8_ADD_SAT_S: PI(0x0FED, 0);
    case CMP_I16X8_ADD_SAT_U: PI(0x0FDD, 0);
    case CMP_I16X8_SUB_SAT_S: PI(0x0FE9, 0);
    case CMP_I16X8_SUB_SAT_U: PI(0x0FD9, 0);
    case CMP_I16X8_MIN_S: PI(0x0FEA, 0);
    case CMP_I16X8_MAX_S: PI(0x0FEE, 0);
    case CMP_I16X8_MIN_U: PI(0x0F383A, NEED_SSE41);
    case CMP_I16X8_MAX_U: PI(0x0F383E, NEED_SSE41);
    case CMP_I16X8_AVGR_U: PI(0x0FE3, 0);
    case CMP_I16X8_NARROW_I32X4_S: PI(0x0F6B, 0);  /* packssdw */
    case CMP_I16X8_NARROW_I32X4_U: PI(0x0F382B, NEED_SSE41); /* packusdw */
    case CMP_I32X4_ADD: PI(0x0FFE, 0);
    case CMP_I32X4_SUB: PI(0x0FFA, 0);
    case CMP_I32X4_MUL: PI(0x0F3840, NEED_SSE41); /* pmulld */
    case CMP_I32X4_MIN_S: PI(0x0F3839, NEED_SSE41);
    case CMP_I32X4_MIN_U: PI(0x0F383B, NEED_SSE41);
    case CMP_I32X4_MAX_S: PI(0x0F383D, NEED_SSE41);
    case CMP_I32X4_MAX_U: PI(0x0F383F, NEED_SSE41);
    case CMP_I32X4_DOT_I16X8_S: PI(0x0FF5, 0);    /* pmaddwd */
    case CMP_I64X2_ADD: PI(0x0FD4, 0);
    case CMP_I64X2_SUB: PI(0x0FFB, 0);
    case CMP_V128_AND: PI(0x0FDB, 0);
    case CMP_V128_OR: PI(0x0FEB, 0);
    case CMP_V128_XOR: PI(0x0FEF, 0);
    case CMP_V128_ANDNOT: PI(0x0FDF, VF_SWAP);     /* pandn b, a: ~b & a */
    case CMP_F32X4_ADD: PS(0, 0x0F58, 0);
    case CMP_F32X4_SUB: PS(0, 0x0F5C, 0);
    case CMP_F32X4_MUL: PS(0, 0x0F59, 0);
    case CMP_F32X4_DIV: PS(0, 0x0F5E, 0);
    case CMP_F32X4_PMIN: PS(0, 0x0F5D, VF_SWAP);   /* minps b, a: b < a ? b : a */
    case CMP_F32X4_PMAX: PS(0, 0x0F5F, VF_SWAP);
    case CMP_F64X2_ADD: PS(0x66, 0x0F58, 0);
    case CMP_F64X2_SUB: PS(0x66, 0x0F5C, 0);
    case CMP_F64X2_MUL: PS(0x66, 0x0F59, 0);
    case CMP_F64X2_DIV: PS(0x66, 0x0F5E, 0);
    case CMP_F64X2_PMIN: PS(0x66, 0x0F5D, VF_SWAP);
    case CMP_F64X2_PMAX: PS(0x66, 0x0F5F, VF_SWAP);
    /* cmpps/cmppd predicates: 0 eq, 1 lt, 2 le, 4 neq (unordered or unequal, as wasm's ne) */
    case CMP_F32X4_EQ: CMPF(0, 0, 0);
    case CMP_F32X4_NE: CMPF(0, 4, 0);
    case CMP_F32X4_LT: CMPF(0, 1, 0);
    case CMP_F32X4_GT: CMPF(0, 1, VF_SWAP);
    case CMP_F32X4_LE: CMPF(0, 2, 0);
    case CMP_F32X4_GE: CMPF(0, 2, VF_SWAP);
    case CMP_F64X2_EQ: CMPF(0x66, 0, 0);
    case CMP_F64X2_NE: CMPF(0x66, 4, 0);
    case CMP_F64X2_LT: CMPF(0x66, 1, 0);
    case CMP_F64X2_GT: CMPF(0x66, 1, VF_SWAP);
    case CMP_F64X2_LE: CMPF(0x66, 2, 0);
    case CMP_F64X2_GE: CMPF(0x66, 2, VF_SWAP);
    default: return false;
    }
#undef PI
#undef PS
#undef CMPF
}
static void bin(jit_cc *c, const vform *f, uint32_t d, uint32_t a, uint32_t b) {
    bool swap = f->flags & VF_SWAP;
    vld(c, 0, swap ? b : a);
    vld(c, 1, swap ? a : b);
    vop(c, f->pfx, f->opc, 0, 1);
    if (f->flags & VF_IMM) x64_byte(&c->b, f->imm);
    vdone(c, d);
}

/* Integer comparisons of lane width 8 << w (w 0..3): kind 0 eq, 1 ne,
   2 lt, 3 gt, 4 le, 5 ge. pcmpgt is signed; unsigned ones compare with
   the sign bits flipped. */
static void icmp(jit_cc *c, int w, int kind, bool uns, uint32_t d, uint32_t a, uint32_t b) {
    static const uint32_t eq[] = {0x0F74, 0x0F75, 0x0F76, 0x0F3829};
    static const uint32_t gt[] = {0x0F64, 0x0F65, 0x0F66, 0x0F3837};
    static const uint32_t bias[] = {0x80808080u, 0x80008000u, 0x80000000u};
    bool swap = kind == 2 || kind == 5; /* lt: b > a; ge: !(b > a) */
    vld(c, 0, swap ? b : a);
    vld(c, 1, swap ? a : b);
    if (uns && kind >= 2) {
        int t = vtmp(c);
        vsplat32(c, t, bias[w]);
        vpi(c, 0x0FEF, 0, t);
        vpi(c, 0x0FEF, 1, t);
    }
    vpi(c, kind <= 1 ? eq[w] : gt[w], 0, 1);
    if (kind == 1 || kind == 4 || kind == 5) vnot(c, 0);
    vdone(c, d);
}

/* Shifts by a scalar count taken modulo the lane width (§4.3.2 ishl,
   ishr_s, ishr_u): kind 0 shl, 1 shr_s, 2 shr_u, lanes of 8 << w bits.
   SSE has no byte shifts and no 64-bit arithmetic one: built from the
   word and quadword shifts. */
static void vshift(jit_cc *c, int w, int kind, uint32_t d, uint32_t a, uint32_t n) {
    static const uint32_t opc[3][4] = {{0, 0x0FF1, 0x0FF2, 0x0FF3}, {0, 0x0FE1, 0x0FE2, 0}, {0, 0x0FD1, 0x0FD2, 0x0FD3}};
    x64_buf *b = &c->b;
    ld32(c, X64_RAX, n);
    x64_rr(b, 0, 0, 0x83, 4, X64_RAX); /* and eax, width - 1 */
    x64_byte(b, (uint8_t)((8 << w) - 1));
    vld(c, 0, a);
    if (w == 0 && kind == 1) {
        /* each byte into the high half of a word, arithmetic shift by n + 8, pack */
        int t = vtmp(c);
        vpi(c, 0x0F6F, t, 0);                           /* movdqa t, xmm0 */
        vpi(c, 0x0F60, 0, 0);                           /* punpcklbw xmm0, xmm0 */
        vpi(c, 0x0F68, t, t);                           /* punpckhbw t, t */
        x64_rr(b, 0, 0, 0x83, 0, X64_RAX);              /* add eax, 8 */
        x64_byte(b, 8);
        x64_rr(b, 0x66, 0, 0x0F6E, 1, X64_RAX);         /* movd xmm1, eax */
        vpi(c, 0x0FE1, 0, 1);                           /* psraw */
        vpi(c, 0x0FE1, t, 1);
        vpi(c, 0x0F63, 0, t);                           /* packsswb xmm0, t */
    } else if (w == 0) {
        /* the word shift, then the bits that crossed into a neighbour masked off */
        int t = vtmp(c);
        x64_rr(b, 0x66, 0, 0x0F6E, 1, X64_RAX);         /* movd xmm1, eax */
        vpi(c, kind == 0 ? 0x0FF1 : 0x0FD1, 0, 1);      /* psllw / psrlw */
        x64_rr(b, 0, 0, 0x8B, X64_RCX, X64_RAX);        /* mov ecx, eax */
        x64_mov_imm32(b, X64_RAX, 0xFF);
        x64_rr(b, 0, 0, 0xD3, kind == 0 ? 4 : 5, X64_RAX); /* shl / shr eax, cl */
        spread_eax(c, 8, 0x01010101u);
        vsplat_eax(c, t);
        vpi(c, 0x0FDB, 0, t);                           /* pand */
    } else if (w == 3 && kind == 1) {
        /* (x >>u n ^ m) - m, m = the sign bit >>u n */
        int t = vtmp(c);
        x64_rr(b, 0x66, 0, 0x0F6E, 1, X64_RAX);
        x64_mov_imm64(b, X64_RAX, 0x8000000000000000ull);
        vsplat_rax(c, t);
        vpi(c, 0x0FD3, 0, 1);                           /* psrlq */
        vpi(c, 0x0FD3, t, 1);
        vpi(c, 0x0FEF, 0, t);
        vpi(c, 0x0FFB, 0, t);                           /* psubq */
    } else {
        x64_rr(b, 0x66, 0, 0x0F6E, 1, X64_RAX);
        vpi(c, opc[kind][w], 0, 1);
    }
    vdone(c, d);
}

/* ------------------------------------------------------------------------
 * Memory 0: rax = the address (32 bits, zero-extended), bounds, then the
 * access at [r12 + rax + offset].
 * ------------------------------------------------------------------------ */
static bool address(jit_cc *c, uint32_t pc, uint32_t addr, uint32_t offset, uint32_t n) {
    ld32(c, X64_RAX, addr);
    return bounds(c, pc, offset, n);
}
/* Scalar move between rdx and [base + disp] of n bytes (load zero-extends). */
static void ld_n(jit_cc *c, uint32_t n, int mem, int32_t disp) {
    uint32_t opc = n == 1 ? 0x0FB6 : n == 2 ? 0x0FB7 : 0x8B;
    if (mem) x64_rm_mem(&c->b, 0, n == 8, opc, X64_RDX, disp);
    else x64_rm_base(&c->b, 0, n == 8, opc, X64_RDX, X64_RBX, disp);
}
static void st_n(jit_cc *c, uint32_t n, int mem, int32_t disp) {
    int pfx = n == 2 ? 0x66 : 0;
    uint32_t opc = n == 1 ? 0x88 : 0x89;
    if (mem) x64_rm_mem(&c->b, pfx, n == 8, opc, X64_RDX, disp);
    else x64_rm_base(&c->b, pfx, n == 8, opc, X64_RDX, X64_RBX, disp);
}
/* Lane `lane` (of n bytes) of xmm0 = rdx's low n bytes, in the register:
   pinsrb, pinsrw, pinsrd, pinsrq (all but pinsrw SSE4.1). Writing the lane
   in the frame instead would make the next read of the whole vector wait
   for the narrow store (a store-to-load forwarding stall). */
static bool vinsert_ok(uint32_t n) { return n == 2 || cpu_has_sse41; }
static void vinsert_rdx(jit_cc *c, uint32_t n, uint32_t lane) {
    uint32_t opc = n == 2 ? 0x0FC4 : n == 1 ? 0x0F3A20 : 0x0F3A22;
    x64_rr(&c->b, 0x66, n == 8, opc, 0, X64_RDX);
    x64_byte(&c->b, (uint8_t)lane);
}
/* The byte offset of lane `lane` of n bytes in the v128 at slot s. */
static int32_t lane_disp(uint32_t s, uint32_t lane, uint32_t n) { return (int32_t)(s * 8 + lane * n); }

static bool vload(jit_cc *c, uint32_t pc, uint32_t op, const uint32_t *ip) {
    int need = 0;
    uint32_t n = 16, pmov = 0;
    switch (op) {
    case CMP_V128_LOAD: break;
    case CMP_V128_LOAD8X8_S: n = 8, pmov = 0x0F3820, need = NEED_SSE41; break; /* pmovsxbw */
    case CMP_V128_LOAD8X8_U: n = 8, pmov = 0x0F3830, need = NEED_SSE41; break; /* pmovzxbw */
    case CMP_V128_LOAD16X4_S: n = 8, pmov = 0x0F3823, need = NEED_SSE41; break;
    case CMP_V128_LOAD16X4_U: n = 8, pmov = 0x0F3833, need = NEED_SSE41; break;
    case CMP_V128_LOAD32X2_S: n = 8, pmov = 0x0F3825, need = NEED_SSE41; break;
    case CMP_V128_LOAD32X2_U: n = 8, pmov = 0x0F3835, need = NEED_SSE41; break;
    case CMP_V128_LOAD8_SPLAT: n = 1; break;
    case CMP_V128_LOAD16_SPLAT: n = 2; break;
    case CMP_V128_LOAD32_SPLAT: case CMP_V128_LOAD32_ZERO: n = 4; break;
    case CMP_V128_LOAD64_SPLAT: case CMP_V128_LOAD64_ZERO: n = 8; break;
    default: return false; /* (ip[1..3] are only a load's: an operation may be shorter) */
    }
    uint32_t d = ip[1], offset = ip[3];
    if (!has(c, pc, need) || !address(c, pc, ip[2], offset, n)) return true;
    x64_buf *b = &c->b;
    int32_t disp = (int32_t)offset;
    if (op == CMP_V128_LOAD) x64_rm_mem(b, 0xF3, 0, 0x0F6F, 0, disp);               /* movdqu */
    else if (pmov) x64_rm_mem(b, 0x66, 0, pmov, 0, disp);
    else if (n <= 2) {
        x64_rm_mem(b, 0, 0, n == 1 ? 0x0FB6 : 0x0FB7, X64_RAX, disp);
        spread_eax(c, 8 * (int)n, n == 1 ? 0x01010101u : 0x00010001u);
        vsplat_eax(c, 0);
    } else if (n == 4) {
        x64_rm_mem(b, 0x66, 0, 0x0F6E, 0, disp);                                    /* movd xmm0, m32: zeroes the rest */
        if (op == CMP_V128_LOAD32_SPLAT) vimm(c, 0x0F70, 0, 0, 0);
    } else {
        x64_rm_mem(b, 0xF3, 0, 0x0F7E, 0, disp);                                    /* movq xmm0, m64: zeroes the rest */
        if (op == CMP_V128_LOAD64_SPLAT) vpi(c, 0x0F6C, 0, 0);
    }
    vdone(c, d);
    return true;
}

/* ------------------------------------------------------------------------
 * One v128 operation.
 * ------------------------------------------------------------------------ */
bool jit_simd_op(jit_cc *c, uint32_t pc, uint32_t op) {
    const uint32_t *ip = c->code + pc;
    x64_buf *b = &c->b;
    vform f;
    if (bin_form(op, &f)) {
        if (has(c, pc, f.flags & 7)) bin(c, &f, ip[1], ip[2], ip[3]);
        return true;
    }
    if (op >= CMP_I8X16_EQ && op <= CMP_I32X4_GE_U) {
        uint32_t k = (op - CMP_I8X16_EQ) % 10;
        icmp(c, (int)((op - CMP_I8X16_EQ) / 10), k < 2 ? (int)k : 2 + (int)(k - 2) / 2, k >= 2 && (k - 2) % 2,
             ip[1], ip[2], ip[3]);
        return true;
    }
    if (op >= CMP_I64X2_EQ && op <= CMP_I64X2_GE_S) {
        int k = (int)(op - CMP_I64X2_EQ);
        if (has(c, pc, k < 2 ? NEED_SSE41 : NEED_SSE42)) icmp(c, 3, k, false, ip[1], ip[2], ip[3]);
        return true;
    }
    if (vload(c, pc, op, ip)) return true;
    switch (op) {
    /* ---- moves ---- */
    case CMP_COPY128:
        vld(c, 0, ip[2]);
        vdone(c, ip[1]);
        return true;
    case CMP_SELECT128: { /* dst, cond, a, b: cond ? a : b */
        ld32(c, X64_RAX, ip[2]);
        vld(c, 0, ip[3]);
        vld(c, 1, ip[4]);
        x64_rr(b, 0, 0, 0x85, X64_RAX, X64_RAX);
        size_t keep = x64_jcc8(b, X64_CC_NE);
        vpi(c, 0x0F6F, 0, 1);                            /* movdqa xmm0, xmm1 */
        x64_land8(b, keep);
        vdone(c, ip[1]);
        return true;
    }
    case CMP_GLOBAL_GET128:
        x64_rm_base(b, 0, 1, 0x8B, X64_RAX, X64_R15, (int32_t)(ip[2] * 8));
        x64_rm_base(b, 0, 1, 0x8B, X64_RCX, X64_RAX, (int32_t)offsetof(weft_global, value));
        x64_rm_base(b, 0, 1, 0x8B, X64_RDX, X64_RAX, (int32_t)offsetof(weft_global, value_hi));
        st64(c, X64_RCX, ip[1]);
        st64(c, X64_RDX, ip[1] + 1);
        return true;
    case CMP_GLOBAL_SET128:
        x64_rm_base(b, 0, 1, 0x8B, X64_RCX, X64_R15, (int32_t)(ip[1] * 8));
        ld64(c, X64_RAX, ip[2]);
        x64_rm_base(b, 0, 1, 0x89, X64_RAX, X64_RCX, (int32_t)offsetof(weft_global, value));
        ld64(c, X64_RAX, ip[2] + 1);
        x64_rm_base(b, 0, 1, 0x89, X64_RAX, X64_RCX, (int32_t)offsetof(weft_global, value_hi));
        return true;
    case CMP_V128_CONST: /* dst, 4 words: two 64-bit stores */
        x64_mov_imm64(b, X64_RAX, (uint64_t)ip[2] | (uint64_t)ip[3] << 32);
        st64(c, X64_RAX, ip[1]);
        x64_mov_imm64(b, X64_RAX, (uint64_t)ip[4] | (uint64_t)ip[5] << 32);
        st64(c, X64_RAX, ip[1] + 1);
        return true;

    /* ---- memory ---- */
    case CMP_V128_STORE: /* address, value, offset */
        if (!address(c, pc, ip[1], ip[3], 16)) return true;
        vld(c, 0, ip[2]);
        x64_rm_mem(b, 0xF3, 0, 0x0F7F, 0, (int32_t)ip[3]);
        return true;
    case CMP_V128_LOAD_ADDI: case CMP_V128_LOAD_ADD: /* dst, a, imm or b, offset: the 32-bit sum */
        ld32(c, X64_RAX, ip[2]);
        if (op == CMP_V128_LOAD_ADDI) {
            x64_rr(b, 0, 0, 0x81, 0, X64_RAX); /* add eax, imm32 */
            x64_u32(b, ip[3]);
        } else {
            rd(c, 0, 0, 0x03, X64_RAX, ip[3]); /* add eax, b */
        }
        if (!bounds(c, pc, ip[4], 16)) return true;
        x64_rm_mem(b, 0xF3, 0, 0x0F6F, 0, (int32_t)ip[4]);
        vdone(c, ip[1]);
        return true;
    case CMP_F32X4_ADD_LD: case CMP_F32X4_SUB_LD: case CMP_F32X4_MUL_LD:
    case CMP_F64X2_ADD_LD: case CMP_F64X2_SUB_LD: case CMP_F64X2_MUL_LD:
    case CMP_I32X4_ADD_LD: case CMP_I16X8_ADD_LD: case CMP_I8X16_ADD_LD: { /* dst, a, address, offset */
        static const uint16_t of[] = {CMP_F32X4_ADD, CMP_F32X4_SUB, CMP_F32X4_MUL, CMP_F64X2_ADD, CMP_F64X2_SUB,
                                      CMP_F64X2_MUL, CMP_I32X4_ADD, CMP_I16X8_ADD, CMP_I8X16_ADD};
        bin_form(of[op - CMP_F32X4_ADD_LD], &f);
        if (!address(c, pc, ip[3], ip[4], 16)) return true;
        x64_rm_mem(b, 0xF3, 0, 0x0F6F, 1, (int32_t)ip[4]);
        vld(c, 0, ip[2]);
        vop(c, f.pfx, f.opc, 0, 1);
        vdone(c, ip[1]);
        return true;
    }
    case CMP_F32X4_MUL_ADD_LD: case CMP_F64X2_MUL_ADD_LD: { /* dst, a, address, offset, address2, offset2: a * x + y */
        int pd = op == CMP_F64X2_MUL_ADD_LD ? 0x66 : 0;
        int t = vtmp(c);
        if (!address(c, pc, ip[3], ip[4], 16)) return true;
        x64_rm_mem(b, 0xF3, 0, 0x0F6F, 1, (int32_t)ip[4]);
        if (!address(c, pc, ip[5], ip[6], 16)) return true;
        x64_rm_mem(b, 0xF3, 0, 0x0F6F, t, (int32_t)ip[6]);
        vld(c, 0, ip[2]);
        vop(c, pd, 0x0F59, 0, 1);
        vop(c, pd, 0x0F58, 0, t);
        vdone(c, ip[1]);
        return true;
    }
    case CMP_V128_LOAD8_LANE: case CMP_V128_LOAD16_LANE: case CMP_V128_LOAD32_LANE: case CMP_V128_LOAD64_LANE: {
        /* dst, address, vector, offset, lane */
        uint32_t n = 1u << (op - CMP_V128_LOAD8_LANE);
        if (!address(c, pc, ip[2], ip[4], n)) return true;
        ld_n(c, n, 1, (int32_t)ip[4]);
        vld(c, 0, ip[3]);
        if (vinsert_ok(n)) {
            vinsert_rdx(c, n, ip[5]);
            vdone(c, ip[1]);
            return true;
        }
        vdone(c, ip[1]);
        cache_clean(c, ip[1]);
        st_n(c, n, 0, lane_disp(ip[1], ip[5], n));
        lane_written(c, ip[1]);
        return true;
    }
    case CMP_V128_STORE8_LANE: case CMP_V128_STORE16_LANE: case CMP_V128_STORE32_LANE: case CMP_V128_STORE64_LANE: {
        /* address, vector, offset, lane */
        uint32_t n = 1u << (op - CMP_V128_STORE8_LANE);
        if (!address(c, pc, ip[1], ip[3], n)) return true;
        cache_clean_v128(c, ip[2]);
        ld_n(c, n, 0, lane_disp(ip[2], ip[4], n));
        st_n(c, n, 1, (int32_t)ip[3]);
        return true;
    }

    /* ---- lanes ---- */
    case CMP_I8X16_SPLAT: case CMP_I16X8_SPLAT:
        ld32(c, X64_RAX, ip[2]);
        spread_eax(c, op == CMP_I8X16_SPLAT ? 8 : 16, op == CMP_I8X16_SPLAT ? 0x01010101u : 0x00010001u);
        vsplat_eax(c, 0);
        vdone(c, ip[1]);
        return true;
    case CMP_I32X4_SPLAT: case CMP_F32X4_SPLAT:
        ld32(c, X64_RAX, ip[2]);
        vsplat_eax(c, 0);
        vdone(c, ip[1]);
        return true;
    case CMP_I64X2_SPLAT: case CMP_F64X2_SPLAT:
        ld64(c, X64_RAX, ip[2]);
        vsplat_rax(c, 0);
        vdone(c, ip[1]);
        return true;
    case CMP_I8X16_EXTRACT_LANE_S: case CMP_I8X16_EXTRACT_LANE_U: case CMP_I16X8_EXTRACT_LANE_S:
    case CMP_I16X8_EXTRACT_LANE_U: case CMP_I32X4_EXTRACT_LANE: case CMP_I64X2_EXTRACT_LANE:
    case CMP_F32X4_EXTRACT_LANE: case CMP_F64X2_EXTRACT_LANE: { /* dst, a, lane: read in the frame */
        uint32_t n, opc;
        int w = 0;
        switch (op) {
        case CMP_I8X16_EXTRACT_LANE_S: n = 1, opc = 0x0FBE; break;
        case CMP_I8X16_EXTRACT_LANE_U: n = 1, opc = 0x0FB6; break;
        case CMP_I16X8_EXTRACT_LANE_S: n = 2, opc = 0x0FBF; break;
        case CMP_I16X8_EXTRACT_LANE_U: n = 2, opc = 0x0FB7; break;
        case CMP_I32X4_EXTRACT_LANE: case CMP_F32X4_EXTRACT_LANE: n = 4, opc = 0x8B; break;
        default: n = 8, opc = 0x8B, w = 1; break;
        }
        cache_clean_v128(c, ip[2]);
        x64_rm_base(b, 0, w, opc, X64_RAX, X64_RBX, lane_disp(ip[2], ip[3], n));
        st64(c, X64_RAX, ip[1]);
        return true;
    }
    case CMP_I8X16_REPLACE_LANE: case CMP_I16X8_REPLACE_LANE: case CMP_I32X4_REPLACE_LANE:
    case CMP_I64X2_REPLACE_LANE: case CMP_F32X4_REPLACE_LANE: case CMP_F64X2_REPLACE_LANE: { /* dst, a, scalar, lane */
        uint32_t n = op == CMP_I8X16_REPLACE_LANE ? 1 : op == CMP_I16X8_REPLACE_LANE ? 2
                   : op == CMP_I32X4_REPLACE_LANE || op == CMP_F32X4_REPLACE_LANE ? 4 : 8;
        ld64(c, X64_RDX, ip[3]);
        vld(c, 0, ip[2]);
        if (vinsert_ok(n)) {
            vinsert_rdx(c, n, ip[4]);
            vdone(c, ip[1]);
            return true;
        }
        vdone(c, ip[1]);
        cache_clean(c, ip[1]);
        st_n(c, n, 0, lane_disp(ip[1], ip[4], n));
        lane_written(c, ip[1]);
        return true;
    }
    case CMP_I8X16_SHUFFLE: case CMP_I8X16_SHUFFLE1: { /* dst, a, [b], byte masks in the code (simd.c) */
        if (!has(c, pc, NEED_SSSE3)) return true;
        bool two = op == CMP_I8X16_SHUFFLE;
        int t = vtmp(c);
        x64_mov_imm64(b, X64_RAX, (uint64_t)(uintptr_t)(ip + (two ? 4 : 3)));
        vld(c, 0, ip[2]);
        x64_rm_base(b, 0xF3, 0, 0x0F6F, t, X64_RAX, 0);   /* movdqu t, a's mask */
        vpi(c, 0x0F3800, 0, t);                          /* pshufb */
        if (two) {
            vld(c, 1, ip[3]);
            x64_rm_base(b, 0xF3, 0, 0x0F6F, t, X64_RAX, 16);
            vpi(c, 0x0F3800, 1, t);
            vpi(c, 0x0FEB, 0, 1);                        /* por */
        }
        vdone(c, ip[1]);
        return true;
    }
    case CMP_I8X16_SWIZZLE: case CMP_I8X16_RELAXED_SWIZZLE: {
        /* indices 16..255 saturated up to bit 7 (which makes pshufb write 0), as the interpreter does */
        if (!has(c, pc, NEED_SSSE3)) return true;
        int t = vtmp(c);
        vld(c, 0, ip[2]);
        vld(c, 1, ip[3]);
        vsplat32(c, t, 0x70707070u);
        vpi(c, 0x0FDC, 1, t);                            /* paddusb */
        vpi(c, 0x0F3800, 0, 1);
        vdone(c, ip[1]);
        return true;
    }

    /* ---- bitwise ---- */
    case CMP_V128_NOT:
        vld(c, 0, ip[2]);
        vnot(c, 0);
        vdone(c, ip[1]);
        return true;
    case CMP_V128_BITSELECT: case CMP_I8X16_RELAXED_LANESELECT: case CMP_I16X8_RELAXED_LANESELECT:
    case CMP_I32X4_RELAXED_LANESELECT: case CMP_I64X2_RELAXED_LANESELECT: { /* ((a ^ b) & m) ^ b */
        int t = vtmp(c);
        vld(c, 0, ip[2]);
        vld(c, 1, ip[3]);
        vld(c, t, ip[4]);
        vpi(c, 0x0FEF, 0, 1);
        vpi(c, 0x0FDB, 0, t);
        vpi(c, 0x0FEF, 0, 1);
        vdone(c, ip[1]);
        return true;
    }
    case CMP_V128_ANY_TRUE: case CMP_I8X16_ALL_TRUE: case CMP_I16X8_ALL_TRUE: case CMP_I32X4_ALL_TRUE:
    case CMP_I64X2_ALL_TRUE: { /* lanes equal to zero, as a byte mask: any_true unless all, all_true if none */
        static const uint32_t eq[] = {0x0F74, 0x0F74, 0x0F75, 0x0F76, 0x0F3829};
        int k = op == CMP_V128_ANY_TRUE ? 0 : op == CMP_I8X16_ALL_TRUE ? 1 : op == CMP_I16X8_ALL_TRUE ? 2
              : op == CMP_I32X4_ALL_TRUE ? 3 : 4;
        if (!has(c, pc, k == 4 ? NEED_SSE41 : 0)) return true;
        vld(c, 0, ip[2]);
        vzero(c, 1);
        vpi(c, eq[k], 0, 1);
        x64_rr(b, 0x66, 0, 0x0FD7, X64_RAX, 0);          /* pmovmskb eax, xmm0 */
        if (k == 0) {
            x64_rr(b, 0, 0, 0x81, 7, X64_RAX);           /* cmp eax, 0xFFFF */
            x64_u32(b, 0xFFFF);
            x64_setcc(b, X64_CC_NE, X64_RAX);
        } else {
            x64_rr(b, 0, 0, 0x85, X64_RAX, X64_RAX);
            x64_setcc(b, X64_CC_E, X64_RAX);
        }
        x64_rr(b, 0, 0, 0x0FB6, X64_RAX, X64_RAX);
        st64(c, X64_RAX, ip[1]);
        return true;
    }
    case CMP_I8X16_BITMASK: case CMP_I16X8_BITMASK: case CMP_I32X4_BITMASK: case CMP_I64X2_BITMASK:
        vld(c, 0, ip[2]);
        if (op == CMP_I16X8_BITMASK) {
            vzero(c, 1);
            vpi(c, 0x0F63, 0, 1);                        /* packsswb xmm0, 0 */
        }
        if (op == CMP_I32X4_BITMASK) x64_rr(b, 0, 0, 0x0F50, X64_RAX, 0);          /* movmskps */
        else if (op == CMP_I64X2_BITMASK) x64_rr(b, 0x66, 0, 0x0F50, X64_RAX, 0);  /* movmskpd */
        else x64_rr(b, 0x66, 0, 0x0FD7, X64_RAX, 0);                              /* pmovmskb */
        st64(c, X64_RAX, ip[1]);
        return true;

    /* ---- shifts ---- */
    case CMP_I8X16_SHL: case CMP_I8X16_SHR_S: case CMP_I8X16_SHR_U:
        vshift(c, 0, (int)(op - CMP_I8X16_SHL), ip[1], ip[2], ip[3]);
        return true;
    case CMP_I16X8_SHL: case CMP_I16X8_SHR_S: case CMP_I16X8_SHR_U:
        vshift(c, 1, (int)(op - CMP_I16X8_SHL), ip[1], ip[2], ip[3]);
        return true;
    case CMP_I32X4_SHL: case CMP_I32X4_SHR_S: case CMP_I32X4_SHR_U:
        vshift(c, 2, (int)(op - CMP_I32X4_SHL), ip[1], ip[2], ip[3]);
        return true;
    case CMP_I64X2_SHL: case CMP_I64X2_SHR_S: case CMP_I64X2_SHR_U:
        vshift(c, 3, (int)(op - CMP_I64X2_SHL), ip[1], ip[2], ip[3]);
        return true;

    /* ---- unary lane arithmetic ---- */
    case CMP_I8X16_NEG: case CMP_I16X8_NEG: case CMP_I32X4_NEG: case CMP_I64X2_NEG: { /* 0 - a */
        static const uint32_t sub[] = {0x0FF8, 0x0FF9, 0x0FFA, 0x0FFB};
        int w = op == CMP_I8X16_NEG ? 0 : op == CMP_I16X8_NEG ? 1 : op == CMP_I32X4_NEG ? 2 : 3;
        vld(c, 1, ip[2]);
        vzero(c, 0);
        vpi(c, sub[w], 0, 1);
        vdone(c, ip[1]);
        return true;
    }
    case CMP_I8X16_ABS: case CMP_I16X8_ABS: case CMP_I32X4_ABS: /* pabsb/w/d */
        if (!has(c, pc, NEED_SSSE3)) return true;
        vld(c, 1, ip[2]);
        vpi(c, op == CMP_I8X16_ABS ? 0x0F381C : op == CMP_I16X8_ABS ? 0x0F381D : 0x0F381E, 0, 1);
        vdone(c, ip[1]);
        return true;
    case CMP_I64X2_ABS: { /* (a ^ s) - s, s = the sign spread over the lane */
        int t = vtmp(c);
        vld(c, 0, ip[2]);
        vimm(c, 0x0F70, t, 0, 0xF5);                     /* pshufd t, xmm0: the high dwords twice */
        vimm(c, 0x0F72, 4, t, 31);                       /* psrad t, 31 */
        vpi(c, 0x0FEF, 0, t);
        vpi(c, 0x0FFB, 0, t);
        vdone(c, ip[1]);
        return true;
    }
    case CMP_F32X4_ABS: case CMP_F32X4_NEG: case CMP_F64X2_ABS: case CMP_F64X2_NEG: { /* on the bits */
        bool dbl = op == CMP_F64X2_ABS || op == CMP_F64X2_NEG, neg = op == CMP_F32X4_NEG || op == CMP_F64X2_NEG;
        vld(c, 0, ip[2]);
        vones(c, 1);
        if (neg) vimm(c, dbl ? 0x0F73 : 0x0F72, 6, 1, dbl ? 63 : 31);        /* psllq/pslld: the sign bits */
        else vimm(c, dbl ? 0x0F73 : 0x0F72, 2, 1, 1);                        /* psrlq/psrld: all but */
        vpi(c, neg ? 0x0FEF : 0x0FDB, 0, 1);
        vdone(c, ip[1]);
        return true;
    }
    case CMP_F32X4_SQRT: case CMP_F64X2_SQRT:
        vld(c, 1, ip[2]);
        vop(c, op == CMP_F64X2_SQRT ? 0x66 : 0, 0x0F51, 0, 1);
        vdone(c, ip[1]);
        return true;
    case CMP_F32X4_CEIL: case CMP_F32X4_FLOOR: case CMP_F32X4_TRUNC: case CMP_F32X4_NEAREST:
    case CMP_F64X2_CEIL: case CMP_F64X2_FLOOR: case CMP_F64X2_TRUNC: case CMP_F64X2_NEAREST: {
        /* roundps/pd (SSE4.1), precision exception suppressed: IEEE
           roundToIntegral, -0 kept, a NaN quieted, as the interpreter's
           libm call and its x + x for NaN (jit.c fround) */
        bool dbl = op == CMP_F64X2_CEIL || op == CMP_F64X2_FLOOR || op == CMP_F64X2_TRUNC || op == CMP_F64X2_NEAREST;
        uint8_t mode = op == CMP_F32X4_CEIL || op == CMP_F64X2_CEIL ? 2 : op == CMP_F32X4_FLOOR || op == CMP_F64X2_FLOOR ? 1
                     : op == CMP_F32X4_TRUNC || op == CMP_F64X2_TRUNC ? 3 : 0;
        if (!has(c, pc, NEED_SSE41)) return true;
        vld(c, 1, ip[2]);
        vimm(c, dbl ? 0x0F3A09 : 0x0F3A08, 0, 1, (uint8_t)(8 | mode));
        vdone(c, ip[1]);
        return true;
    }
    case CMP_F32X4_CONVERT_I32X4_S: /* cvtdq2ps, as the interpreter's _mm_cvtepi32_ps */
        vld(c, 1, ip[2]);
        vop(c, 0, 0x0F5B, 0, 1);
        vdone(c, ip[1]);
        return true;
    case CMP_F64X2_CONVERT_LOW_I32X4_S: /* cvtdq2pd: exact */
        vld(c, 1, ip[2]);
        vop(c, 0xF3, 0x0FE6, 0, 1);
        vdone(c, ip[1]);
        return true;
    case CMP_F64X2_PROMOTE_LOW_F32X4: /* cvtps2pd: each lane as the C conversion's cvtss2sd */
        vld(c, 1, ip[2]);
        vop(c, 0, 0x0F5A, 0, 1);
        vdone(c, ip[1]);
        return true;
    case CMP_F32X4_DEMOTE_F64X2_ZERO: /* cvtpd2ps: lanes 2 and 3 zero */
        vld(c, 1, ip[2]);
        vop(c, 0x66, 0x0F5A, 0, 1);
        vdone(c, ip[1]);
        return true;
    case CMP_F32X4_CONVERT_I32X4_U: { /* the high and low 16 bits converted exactly, hi * 2^16 + lo: one rounding */
        int t = vtmp(c);
        vld(c, 0, ip[2]);
        vpi(c, 0x0F6F, 1, 0);
        vimm(c, 0x0F72, 2, 0, 16);                       /* psrld xmm0, 16: hi */
        vimm(c, 0x0F72, 6, 1, 16);                       /* pslld xmm1, 16 */
        vimm(c, 0x0F72, 2, 1, 16);                       /* psrld xmm1, 16: lo */
        vop(c, 0, 0x0F5B, 0, 0);                         /* cvtdq2ps */
        vop(c, 0, 0x0F5B, 1, 1);
        vsplat32(c, t, 0x47800000u);                     /* 65536.0f */
        vop(c, 0, 0x0F59, 0, t);                         /* mulps: exact */
        vop(c, 0, 0x0F58, 0, 1);                         /* addps: the one rounding */
        vdone(c, ip[1]);
        return true;
    }
    case CMP_F64X2_CONVERT_LOW_I32X4_U: { /* 2^52 + x as bits, minus 2^52: exact */
        int t = vtmp(c);
        vld(c, 0, ip[2]);
        vzero(c, 1);
        vpi(c, 0x0F62, 0, 1);                            /* punpckldq: lanes 0, 1 zero-extended */
        x64_mov_imm64(b, X64_RAX, 0x4330000000000000ull);
        vsplat_rax(c, t);
        vpi(c, 0x0FEB, 0, t);                            /* por */
        vop(c, 0x66, 0x0F5C, 0, t);                      /* subpd */
        vdone(c, ip[1]);
        return true;
    }
    case CMP_I32X4_TRUNC_SAT_F32X4_S: case CMP_I32X4_RELAXED_TRUNC_F32X4_S: {
        /* simd_trunc_sat_s32: NaN lanes zeroed first, cvttps2dq (out of
           range: 0x80000000, right for the low side), lanes at or above
           2^31 flipped to 0x7FFFFFFF */
        int t = vtmp(c);
        vld(c, 0, ip[2]);
        vop(c, 0, 0x0F28, 1, 0);
        vop(c, 0, 0x0FC2, 1, 0);                         /* cmpeqps xmm1, a: ordered */
        x64_byte(b, 0);
        vop(c, 0, 0x0F54, 0, 1);                         /* andps */
        vsplat32(c, t, 0x4F000000u);                     /* 2^31 */
        vop(c, 0, 0x0FC2, t, 0);                         /* cmpleps t, x: 2^31 <= x */
        x64_byte(b, 2);
        vop(c, 0xF3, 0x0F5B, 0, 0);                      /* cvttps2dq */
        vpi(c, 0x0FEF, 0, t);
        vdone(c, ip[1]);
        return true;
    }
    case CMP_I16X8_EXTEND_LOW_I8X16_S: case CMP_I16X8_EXTEND_HIGH_I8X16_S: case CMP_I16X8_EXTEND_LOW_I8X16_U:
    case CMP_I16X8_EXTEND_HIGH_I8X16_U: case CMP_I32X4_EXTEND_LOW_I16X8_S: case CMP_I32X4_EXTEND_HIGH_I16X8_S:
    case CMP_I32X4_EXTEND_LOW_I16X8_U: case CMP_I32X4_EXTEND_HIGH_I16X8_U: case CMP_I64X2_EXTEND_LOW_I32X4_S:
    case CMP_I64X2_EXTEND_HIGH_I32X4_S: case CMP_I64X2_EXTEND_LOW_I32X4_U: case CMP_I64X2_EXTEND_HIGH_I32X4_U: {
        /* pmovsx/pmovzx of the low half (the high half shifted down first) */
        static const uint32_t pmov[] = {0x0F3820, 0x0F3820, 0x0F3830, 0x0F3830, 0x0F3823, 0x0F3823,
                                        0x0F3833, 0x0F3833, 0x0F3825, 0x0F3825, 0x0F3835, 0x0F3835};
        uint32_t k = op <= CMP_I16X8_EXTEND_HIGH_I8X16_U ? op - CMP_I16X8_EXTEND_LOW_I8X16_S
                   : op <= CMP_I32X4_EXTEND_HIGH_I16X8_U ? 4 + op - CMP_I32X4_EXTEND_LOW_I16X8_S
                   : 8 + op - CMP_I64X2_EXTEND_LOW_I32X4_S;
        if (!has(c, pc, NEED_SSE41)) return true;
        vld(c, 1, ip[2]);
        if (k & 1) vimm(c, 0x0F73, 3, 1, 8);             /* psrldq xmm1, 8 */
        vpi(c, pmov[k], 0, 1);
        vdone(c, ip[1]);
        return true;
    }
    case CMP_I16X8_EXTADD_PAIRWISE_I8X16_S: case CMP_I16X8_EXTADD_PAIRWISE_I8X16_U: {
        /* pmaddubsw: unsigned bytes of its first operand times signed ones of its second, pairs added */
        if (!has(c, pc, NEED_SSSE3)) return true;
        bool s = op == CMP_I16X8_EXTADD_PAIRWISE_I8X16_S;
        vld(c, s ? 1 : 0, ip[2]);
        vsplat32(c, s ? 0 : 1, 0x01010101u);
        vpi(c, 0x0F3804, 0, 1);
        vdone(c, ip[1]);
        return true;
    }
    case CMP_I32X4_EXTADD_PAIRWISE_I16X8_S: case CMP_I32X4_EXTADD_PAIRWISE_I16X8_U: {
        /* pmaddwd by ones; unsigned: biased by -0x8000 each, 0x10000 added back */
        int t = vtmp(c);
        vld(c, 0, ip[2]);
        if (op == CMP_I32X4_EXTADD_PAIRWISE_I16X8_U) {
            vsplat32(c, t, 0x80008000u);
            vpi(c, 0x0FEF, 0, t);
        }
        vsplat32(c, 1, 0x00010001u);
        vpi(c, 0x0FF5, 0, 1);
        if (op == CMP_I32X4_EXTADD_PAIRWISE_I16X8_U) {
            vsplat32(c, t, 0x00010000u);
            vpi(c, 0x0FFE, 0, t);
        }
        vdone(c, ip[1]);
        return true;
    }

    case CMP_I8X16_POPCNT: { /* two nibble lookups (pshufb in a table of 16 counts), added */
        if (!has(c, pc, NEED_SSSE3)) return true;
        int t = vtmp(c), u = vtmp(c);
        vld(c, 0, ip[2]);
        x64_mov_imm64(b, X64_RAX, 0x0302020102010100ull);  /* popcount of 0..7, of 8..15 */
        x64_rr(b, 0x66, 1, 0x0F6E, t, X64_RAX);
        x64_mov_imm64(b, X64_RAX, 0x0403030203020201ull);
        x64_rr(b, 0x66, 1, 0x0F6E, 1, X64_RAX);
        vpi(c, 0x0F6C, t, 1);                            /* t = the table */
        vpi(c, 0x0F6F, 1, 0);
        vimm(c, 0x0F71, 2, 1, 4);                        /* psrlw xmm1, 4 */
        vsplat32(c, u, 0x0F0F0F0Fu);
        vpi(c, 0x0FDB, 0, u);                            /* low nibbles */
        vpi(c, 0x0FDB, 1, u);                            /* high nibbles */
        vpi(c, 0x0F6F, u, t);
        vpi(c, 0x0F3800, u, 0);
        vpi(c, 0x0F3800, t, 1);
        vpi(c, 0x0FFC, u, t);                            /* paddb */
        vpi(c, 0x0F6F, 0, u);
        vdone(c, ip[1]);
        return true;
    }
    case CMP_F32X4_MIN: case CMP_F32X4_MAX: case CMP_F64X2_MIN: case CMP_F64X2_MAX:
    case CMP_F32X4_RELAXED_MIN: case CMP_F32X4_RELAXED_MAX: case CMP_F64X2_RELAXED_MIN:
    case CMP_F64X2_RELAXED_MAX: {
        /* simd.h simd_fminf..simd_fmax (the relaxed ones are the same):
           ordered lanes min(a, b) | min(b, a) (max: &), so that of two
           equal lanes (+0 and -0) min gives -0 and max +0, unequal ones
           the min; a NaN lane a + b, as the interpreter's f32_add/f64_add (simd.h) */
        bool dbl = op == CMP_F64X2_MIN || op == CMP_F64X2_MAX || op == CMP_F64X2_RELAXED_MIN ||
                   op == CMP_F64X2_RELAXED_MAX;
        bool max = op == CMP_F32X4_MAX || op == CMP_F64X2_MAX || op == CMP_F32X4_RELAXED_MAX ||
                   op == CMP_F64X2_RELAXED_MAX;
        int pd = dbl ? 0x66 : 0, t = vtmp(c), u = vtmp(c);
        uint32_t mm = max ? 0x0F5F : 0x0F5D;
        vld(c, 0, ip[2]);
        vld(c, 1, ip[3]);
        vop(c, pd, 0x0F28, t, 0);                        /* movap[sd] t, a */
        vop(c, pd, mm, t, 1);                            /* t = m(a, b) */
        vop(c, pd, 0x0F28, u, 1);
        vop(c, pd, mm, u, 0);                            /* u = m(b, a) */
        vop(c, pd, max ? 0x0F54 : 0x0F56, t, u);         /* andp / orp */
        vop(c, pd, 0x0F28, u, 0);
        vop(c, pd, 0x0FC2, u, 1);                        /* cmpunordp[sd] u, b */
        x64_byte(b, 3);
        vop(c, pd, 0x0F58, 0, 1);                        /* a + b */
        vop(c, pd, 0x0F54, 0, u);                        /* where unordered */
        vop(c, pd, 0x0F55, u, t);                        /* andnp: elsewhere t */
        vop(c, pd, 0x0F56, 0, u);
        vdone(c, ip[1]);
        return true;
    }

    /* ---- binary lane arithmetic of several instructions ---- */
    case CMP_I64X2_MUL: { /* lo·lo + (hi_a·lo_b + lo_a·hi_b) << 32, with pmuludq */
        int t = vtmp(c), u = vtmp(c);
        vld(c, 0, ip[2]);
        vld(c, 1, ip[3]);
        vpi(c, 0x0F6F, t, 0);
        vimm(c, 0x0F73, 2, t, 32);                       /* psrlq t, 32: hi_a */
        vpi(c, 0x0FF4, t, 1);                            /* pmuludq t, b */
        vpi(c, 0x0F6F, u, 1);
        vimm(c, 0x0F73, 2, u, 32);
        vpi(c, 0x0FF4, u, 0);
        vpi(c, 0x0FD4, t, u);                            /* paddq */
        vimm(c, 0x0F73, 6, t, 32);                       /* psllq t, 32 */
        vpi(c, 0x0FF4, 0, 1);
        vpi(c, 0x0FD4, 0, t);
        vdone(c, ip[1]);
        return true;
    }
    case CMP_I16X8_Q15MULR_SAT_S: case CMP_I16X8_RELAXED_Q15MULR_S: {
        /* pmulhrsw, then the one overflow (-32768²: 0x8000) saturated to 0x7FFF */
        if (!has(c, pc, NEED_SSSE3)) return true;
        int t = vtmp(c);
        vld(c, 0, ip[2]);
        vld(c, 1, ip[3]);
        vpi(c, 0x0F380B, 0, 1);
        vsplat32(c, t, 0x80008000u);
        vpi(c, 0x0F75, t, 0);                            /* pcmpeqw t, xmm0 */
        vpi(c, 0x0FEF, 0, t);
        vdone(c, ip[1]);
        return true;
    }
    case CMP_I16X8_EXTMUL_LOW_I8X16_S: case CMP_I16X8_EXTMUL_HIGH_I8X16_S: case CMP_I16X8_EXTMUL_LOW_I8X16_U:
    case CMP_I16X8_EXTMUL_HIGH_I8X16_U: { /* both halves extended (pmovsx/zx), pmullw */
        uint32_t k = op - CMP_I16X8_EXTMUL_LOW_I8X16_S;
        uint32_t pmov = k < 2 ? 0x0F3820 : 0x0F3830;
        if (!has(c, pc, NEED_SSE41)) return true;
        vld(c, 0, ip[2]);
        vld(c, 1, ip[3]);
        if (k & 1) {
            vimm(c, 0x0F73, 3, 0, 8);
            vimm(c, 0x0F73, 3, 1, 8);
        }
        vpi(c, pmov, 0, 0);
        vpi(c, pmov, 1, 1);
        vpi(c, 0x0FD5, 0, 1);
        vdone(c, ip[1]);
        return true;
    }
    case CMP_I32X4_EXTMUL_LOW_I16X8_S: case CMP_I32X4_EXTMUL_HIGH_I16X8_S: case CMP_I32X4_EXTMUL_LOW_I16X8_U:
    case CMP_I32X4_EXTMUL_HIGH_I16X8_U: { /* low and high halves of the products, interleaved */
        uint32_t k = op - CMP_I32X4_EXTMUL_LOW_I16X8_S;
        int t = vtmp(c);
        vld(c, 0, ip[2]);
        vld(c, 1, ip[3]);
        vpi(c, 0x0F6F, t, 0);
        vpi(c, 0x0FD5, 0, 1);                            /* pmullw */
        vpi(c, k < 2 ? 0x0FE5 : 0x0FE4, t, 1);           /* pmulhw / pmulhuw */
        vpi(c, k & 1 ? 0x0F69 : 0x0F61, 0, t);           /* punpckhwd / punpcklwd */
        vdone(c, ip[1]);
        return true;
    }
    case CMP_I64X2_EXTMUL_LOW_I32X4_S: case CMP_I64X2_EXTMUL_HIGH_I32X4_S: case CMP_I64X2_EXTMUL_LOW_I32X4_U:
    case CMP_I64X2_EXTMUL_HIGH_I32X4_U: { /* the half's lanes to 0 and 2, pmuldq / pmuludq */
        uint32_t k = op - CMP_I64X2_EXTMUL_LOW_I32X4_S;
        if (!has(c, pc, k < 2 ? NEED_SSE41 : 0)) return true;
        vld(c, 0, ip[2]);
        vld(c, 1, ip[3]);
        vimm(c, 0x0F70, 0, 0, k & 1 ? 0xFA : 0x50);
        vimm(c, 0x0F70, 1, 1, k & 1 ? 0xFA : 0x50);
        vpi(c, k < 2 ? 0x0F3828 : 0x0FF4, 0, 1);
        vdone(c, ip[1]);
        return true;
    }
    default:
        return false;
    }
}

#endif
