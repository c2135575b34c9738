/*
 * emit.h — what the compiler tier's two translators share (jit.c: scalar
 * operations, control, calls; simd.c: the v128 operations): the
 * translator's state, the exits, the register cache and the loads and
 * stores of frame slots through it, memory 0's bounds check. Small inline
 * helpers only; the design is in jit.c's opening comment and docs/jit.md.
 * x86-64 Linux only (included under WEFT_JIT).
 */
#ifndef WEFT_JIT_EMIT_H
#define WEFT_JIT_EMIT_H

#include <stddef.h>

#include "jit.h"
#include "x64.h"


/* Instructions beyond the x86-64 baseline, used when the CPU has them
   (else the operation is left to the interpreter): popcnt, SSSE3's
   pshufb and pabs*, SSE4.1's roundss/roundsd, pmulld, pmins/pmaxs and
   pmovsx/zx, SSE4.2's pcmpgtq. __builtin_cpu_init is idempotent and
   cheap; the answers come from a table filled once per process. */
enum { JIT_CPU_POPCNT, JIT_CPU_SSSE3, JIT_CPU_SSE41, JIT_CPU_SSE42 };
static inline bool cpu_has(int which) {
    __builtin_cpu_init();
    switch (which) {
    case JIT_CPU_POPCNT: return __builtin_cpu_supports("popcnt");
    case JIT_CPU_SSSE3: return __builtin_cpu_supports("ssse3");
    case JIT_CPU_SSE41: return __builtin_cpu_supports("sse4.1");
    default: return __builtin_cpu_supports("sse4.2");
    }
}
#define cpu_has_popcnt cpu_has(JIT_CPU_POPCNT)
#define cpu_has_sse41 cpu_has(JIT_CPU_SSE41)

/* ------------------------------------------------------------------------
 * The translator's state: the code, where each operation starts, the
 * jumps to patch once every operation has its place, and the exits.
 * ------------------------------------------------------------------------ */
/* Largest slot (or pointer table index) a disp32 of 8 * slot reaches. */
#define JIT_MAX_SLOT (0x7FFFFFFFu / 8)

typedef struct jit_fixup {
    uint32_t at;   /* offset of a rel32 */
    uint32_t pc;   /* the operation it reaches (a label or, for exits, a stub) */
    uint32_t snap; /* exits: 1 + the index of the registers to write back first (jit_snap), or 0 */
} jit_fixup;

enum { JIT_NGP = 6, JIT_NXMM = 14 }; /* cache registers: 6 general, xmm2-xmm15 */
/* What an exit writes back before it leaves: the dirty cache registers
   where it was taken (the register cache, below). */
enum { JIT_KEEP_GP, JIT_KEEP_F64, JIT_KEEP_V128 };
typedef struct jit_snap {
    uint8_t n;
    uint8_t reg[JIT_NGP + JIT_NXMM], kind[JIT_NGP + JIT_NXMM];
    uint32_t slot[JIT_NGP + JIT_NXMM];
} jit_snap;
enum { JIT_LABEL = 1, JIT_ENTRY = 2, JIT_LOOP = 4 };

/* Loop registers (jit.c, "Loop registers"): what the first emission of a
   loop's run saw of a slot (JIT_NOTES slots at most). */
enum { JIT_NPIN = 3, JIT_NOTES = 16 };
enum { PIN_READ = 1, PIN_WRITE = 2, PIN_XMM = 4 };
typedef struct jit_note {
    uint32_t slot, reads; /* reads: from the frame, into a general register */
    uint8_t how;          /* PIN_* seen */
} jit_note;

typedef struct jit_cc {
    x64_buf b;
    const cmp_func *cf;
    const mod_module *m; /* cf's module: its types and code table do not move */
    uint32_t own_index;  /* cf's index in the module's code table (its own calls) */
    const uint32_t *code;
    uint32_t *map;
    jit_fixup *jumps, *exits;
    uint32_t njumps, nexits, cap_jumps, cap_exits;
    size_t attention_exit; /* the entry's jump to the exit at word 0 with JIT_AT_ATTENTION */
    bool oom;
    /* The register cache (below): slot + 1 held by each register, 0 none. */
    uint32_t gp[JIT_NGP], xmm[JIT_NXMM];
    uint32_t gp_next, xmm_next;
    /* An XMM register's slot is a v128's first: it holds both of its
       slots (simd.c), not only the low 64 bits. */
    bool xv[JIT_NXMM];
    /* Registers (bit i of gp[i], xmm[i]) whose value the frame does not
       have yet. */
    uint32_t gp_dirty, xmm_dirty;
    jit_snap *snaps;
    uint32_t nsnaps, cap_snaps;
    /* code_len entries: JIT_LABEL where a branch or a handler lands,
       JIT_ENTRY where the cache was empty (where jit_run may enter). */
    uint8_t *marks;
    bool flush_next; /* the operation emitted last is not straight-line code */
    /* The operations after skip_from and before skip_to were emitted with
       the one at skip_from (jit.c big_access). */
    uint32_t skip_from, skip_to;
    /* code_len entries: a safe point's exit, its target + 1 (meter_at) and
       JIT_METER_COUNTED; 0 for other exits. */
    uint32_t *meter;
    /* Loop registers (jit.c): the run that started at loop label loop_pc
       is first emitted while noting its slots (noting), from the state
       saved in `at`; when it branches back to loop_pc it is emitted again
       with up to JIT_NPIN slots pinned: bit i of pin_locked, register
       cache_gp_reg[i] holds slot pin_slot[i] or nothing, no other slot,
       until the run ends; a branch back jumps to loop_top. */
    uint32_t loop_pc;
    bool noting, pinned;
    uint32_t nnotes;
    jit_note notes[JIT_NOTES];
    struct {
        size_t len;
        uint32_t njumps, nexits, nsnaps, gp_next, xmm_next;
    } at;
    uint32_t pin_locked, pin_slot[JIT_NGP];
    size_t loop_top;
} jit_cc;
#define JIT_METER_COUNTED 0x80000000u

static inline void add_fixup(jit_cc *c, jit_fixup **v, uint32_t *n, uint32_t *cap, size_t at, uint32_t pc) {
    if (*n == *cap) {
        uint32_t ncap = *cap ? *cap * 2 : 64;
        jit_fixup *p = realloc(*v, ncap * sizeof *p);
        if (!p) {
            c->oom = true;
            return;
        }
        *v = p;
        *cap = ncap;
    }
    (*v)[(*n)++] = (jit_fixup){(uint32_t)at, pc, 0};
}
/* A jump to the operation at `pc`. */
static inline void jump_to(jit_cc *c, size_t at, uint32_t pc) { add_fixup(c, &c->jumps, &c->njumps, &c->cap_jumps, at, pc); }
static inline void snap_dirty(jit_cc *c, jit_snap *sn);
/* A jump to the exit that hands the operation at `pc` to the interpreter,
   which first writes back the registers dirty here. */
static inline void exit_to(jit_cc *c, size_t at, uint32_t pc) {
    add_fixup(c, &c->exits, &c->nexits, &c->cap_exits, at, pc);
    if (c->oom || !(c->gp_dirty | c->xmm_dirty)) return;
    if (c->nsnaps == c->cap_snaps) {
        uint32_t ncap = c->cap_snaps ? c->cap_snaps * 2 : 32;
        jit_snap *p = realloc(c->snaps, ncap * sizeof *p);
        if (!p) {
            c->oom = true;
            return;
        }
        c->snaps = p;
        c->cap_snaps = ncap;
    }
    snap_dirty(c, &c->snaps[c->nsnaps]);
    c->exits[c->nexits - 1].snap = ++c->nsnaps;
}

/* ------------------------------------------------------------------------
 * The register cache: within a straight run of operations, the slots last
 * written or read are kept in registers, so an operation that reads a
 * value the one before it made reads a register, not the store still on
 * its way to memory. A result is written to its register alone (dirty),
 * and reaches the frame when the frame must be exact: before a branch (a
 * conditional one: on its taken path, branch_if), a call, a return or a
 * label (cache_flush), in an exit's own stub before it
 * leaves (exit_to keeps what is dirty there), when its register is taken
 * for another slot, and before the frame itself is read or partly written
 * for that slot (cache_clean). A result that the next operation of the
 * run overwrites never reaches the frame at all. A cache register holds the
 * slot's whole 64-bit value (an XMM register: in its low 64 bits; or, for
 * a v128, both of its slots, which a 64-bit read of its first slot may
 * use as well, and a write to either drops). The
 * cache is emptied where code can be reached from elsewhere: a branch's or
 * a handler's target, and after any operation that is not straight-line
 * code (a branch, a call, a return, an exit to the interpreter that comes
 * back at the next operation); only there can the interpreter enter
 * machine code (jit_run), which is what makes the cached values true.
 * ------------------------------------------------------------------------ */
static const int cache_gp_reg[JIT_NGP] = {X64_RSI, X64_RDI, X64_R8, X64_R9, X64_R10, X64_R11};

static inline void cache_clear(jit_cc *c) {
    memset(c->gp, 0, sizeof c->gp);
    memset(c->xmm, 0, sizeof c->xmm);
    memset(c->xv, 0, sizeof c->xv);
    c->gp_dirty = c->xmm_dirty = 0;
    c->pin_locked = 0; /* a run's loop registers end with it */
    c->noting = c->pinned = false;
}
/* What a loop's first emission sees of `slot` (PIN_*). */
static inline void pin_note(jit_cc *c, uint32_t slot, int how) {
    if (!c->noting) return;
    uint32_t i = 0;
    while (i < c->nnotes && c->notes[i].slot != slot) i++;
    if (i == c->nnotes) {
        if (i == JIT_NOTES) return;
        c->notes[c->nnotes++] = (jit_note){slot, 0, 0};
    }
    c->notes[i].reads += how == PIN_READ;
    c->notes[i].how |= (uint8_t)how;
}
/* The cache register index `slot` is pinned to, or -1. */
static inline int pin_of(const jit_cc *c, uint32_t slot) {
    for (int i = 0; i < JIT_NGP; i++)
        if ((c->pin_locked >> i & 1) && c->pin_slot[i] == slot) return i;
    return -1;
}
/* The cache's state, kept across code that only one path runs (a taken
   branch's stores: branch_if). */
typedef struct jit_cache {
    uint32_t gp[JIT_NGP], xmm[JIT_NXMM], gp_next, xmm_next, gp_dirty, xmm_dirty;
    bool xv[JIT_NXMM];
} jit_cache;
static inline jit_cache cache_save(const jit_cc *c) {
    jit_cache k;
    memcpy(k.gp, c->gp, sizeof k.gp);
    memcpy(k.xmm, c->xmm, sizeof k.xmm);
    memcpy(k.xv, c->xv, sizeof k.xv);
    k.gp_next = c->gp_next;
    k.xmm_next = c->xmm_next;
    k.gp_dirty = c->gp_dirty;
    k.xmm_dirty = c->xmm_dirty;
    return k;
}
static inline void cache_restore(jit_cc *c, const jit_cache *k) {
    memcpy(c->gp, k->gp, sizeof c->gp);
    memcpy(c->xmm, k->xmm, sizeof c->xmm);
    memcpy(c->xv, k->xv, sizeof c->xv);
    c->gp_next = k->gp_next;
    c->xmm_next = k->xmm_next;
    c->gp_dirty = k->gp_dirty;
    c->xmm_dirty = k->xmm_dirty;
}
/* The store that writes a cache register back to its slot(s). */
static inline void keep_store(jit_cc *c, int kind, int reg, uint32_t slot) {
    if (kind == JIT_KEEP_GP) x64_rm_slot(&c->b, 0, 1, 0x89, reg, slot);               /* mov [slot], r */
    else if (kind == JIT_KEEP_F64) x64_rm_slot(&c->b, 0xF2, 0, 0x0F11, reg, slot);    /* movsd [slot], x */
    else x64_rm_slot(&c->b, 0xF3, 0, 0x0F7F, reg, slot);                             /* movdqu [slot], x */
}
static inline void gp_writeback(jit_cc *c, int i) {
    if (!(c->gp_dirty & (1u << i))) return;
    keep_store(c, JIT_KEEP_GP, cache_gp_reg[i], c->gp[i] - 1);
    c->gp_dirty &= ~(1u << i);
}
static inline void xmm_writeback(jit_cc *c, int i) {
    if (!(c->xmm_dirty & (1u << i))) return;
    keep_store(c, c->xv[i] ? JIT_KEEP_V128 : JIT_KEEP_F64, 2 + i, c->xmm[i] - 1);
    c->xmm_dirty &= ~(1u << i);
}
/* Every dirty register written back: the frame is exact (the registers
   keep their values, clean). */
static inline void cache_flush(jit_cc *c) {
    for (int i = 0; i < JIT_NGP; i++) gp_writeback(c, i);
    for (int i = 0; i < JIT_NXMM; i++) xmm_writeback(c, i);
}
/* The frame's copy of `slot` exact: a dirty register holding it, or a
   dirty v128 covering it, written back. */
static inline void cache_clean(jit_cc *c, uint32_t slot) {
    for (int i = 0; i < JIT_NGP; i++)
        if (c->gp[i] == slot + 1) gp_writeback(c, i);
    for (int i = 0; i < JIT_NXMM; i++)
        if (c->xmm[i] == slot + 1 || (c->xv[i] && c->xmm[i] == slot)) xmm_writeback(c, i);
}
/* The frame's copy of the v128 at `slot` (two slots) exact. */
static inline void cache_clean_v128(jit_cc *c, uint32_t slot) {
    cache_clean(c, slot);
    cache_clean(c, slot + 1);
}
/* The dirty registers, for an exit's stub (exit_to). */
static inline void snap_dirty(jit_cc *c, jit_snap *sn) {
    sn->n = 0;
    for (int i = 0; i < JIT_NGP; i++)
        if (c->gp_dirty & (1u << i)) {
            sn->reg[sn->n] = (uint8_t)cache_gp_reg[i];
            sn->kind[sn->n] = JIT_KEEP_GP;
            sn->slot[sn->n++] = c->gp[i] - 1;
        }
    for (int i = 0; i < JIT_NXMM; i++)
        if (c->xmm_dirty & (1u << i)) {
            sn->reg[sn->n] = (uint8_t)(2 + i);
            sn->kind[sn->n] = c->xv[i] ? JIT_KEEP_V128 : JIT_KEEP_F64;
            sn->slot[sn->n++] = c->xmm[i] - 1;
        }
}
/* `slot` is about to get a new value: the registers holding it forget
   it; a dirty v128 holding it with a neighbour is written back first, for
   the neighbour's sake. */
static inline void cache_drop(jit_cc *c, uint32_t slot) {
    for (int i = 0; i < JIT_NGP; i++)
        if (c->gp[i] == slot + 1) {
            c->gp[i] = 0;
            c->gp_dirty &= ~(1u << i);
        }
    for (int i = 0; i < JIT_NXMM; i++)
        if (c->xmm[i] == slot + 1 || (c->xv[i] && c->xmm[i] == slot)) { /* the slot, or a v128's second */
            if (c->xv[i]) xmm_writeback(c, i);
            c->xmm[i] = 0;
            c->xv[i] = false;
            c->xmm_dirty &= ~(1u << i);
        }
}
/* The register caching `slot` (GP: a register number; XMM: 2..15), or -1. */
static inline int cache_gp(const jit_cc *c, uint32_t slot) {
    for (int i = 0; i < JIT_NGP; i++)
        if (c->gp[i] == slot + 1) return cache_gp_reg[i];
    return -1;
}
static inline int cache_xmm(const jit_cc *c, uint32_t slot) {
    for (int i = 0; i < JIT_NXMM; i++)
        if (c->xmm[i] == slot + 1) return 2 + i;
    return -1;
}
/* A register for `slot`'s value (the least recently taken, written back
   first if dirty), clean: a value read from the frame; a new value is
   marked dirty by its store (st64, st_xmm0, vst). */
static inline int cache_take_gp(jit_cc *c, uint32_t slot) {
    int p = pin_of(c, slot);
    cache_drop(c, slot);
    if (p >= 0) { /* a loop register: its own, and only its */
        c->gp[p] = slot + 1;
        return cache_gp_reg[p];
    }
    uint32_t i;
    do i = c->gp_next++ % JIT_NGP;
    while (c->pin_locked >> i & 1);
    gp_writeback(c, (int)i);
    c->gp[i] = slot + 1;
    return cache_gp_reg[i];
}
static inline int cache_take_xmm(jit_cc *c, uint32_t slot) {
    cache_drop(c, slot);
    uint32_t i = c->xmm_next++ % JIT_NXMM;
    xmm_writeback(c, (int)i);
    c->xmm[i] = slot + 1;
    c->xv[i] = false;
    return 2 + (int)i;
}
/* Register r (a GP register number, or XMM 2..15) holds its slot's new value. */
static inline void cache_dirty_gp(jit_cc *c, int r) {
    for (int i = 0; i < JIT_NGP; i++)
        if (cache_gp_reg[i] == r) c->gp_dirty |= 1u << i;
}
static inline void cache_dirty_xmm(jit_cc *c, int x) { c->xmm_dirty |= 1u << (x - 2); }
/* A v128 at slots `slot`, slot + 1: its XMM register, or -1; a register
   for its new value. */
static inline int cache_v128(const jit_cc *c, uint32_t slot) {
    for (int i = 0; i < JIT_NXMM; i++)
        if (c->xv[i] && c->xmm[i] == slot + 1) return 2 + i;
    return -1;
}
static inline int cache_take_v128(jit_cc *c, uint32_t slot) {
    cache_drop(c, slot + 1);
    int x = cache_take_xmm(c, slot);
    c->xv[x - 2] = true;
    return x;
}

/* `opc reg, slot` for a general-register operation reading the slot as
   its r/m operand: from the cache where the register form means the
   same. A 64-bit load (mov) is cached in turn. */
static inline void rd(jit_cc *c, int pfx, int w, uint32_t opc, int reg, uint32_t slot) {
    int r = cache_gp(c, slot);
    /* Without a REX prefix, r/m8 registers 4-7 are ah..bh, not sil/dil. */
    bool byte_rm = opc == 0x0FB6 || opc == 0x0FBE;
    if (r >= 0 && !(byte_rm && r >= 4 && r < 8 && !w && !(reg & 8))) {
        x64_rr(&c->b, pfx, w, opc, reg, r);
        return;
    }
    int x = cache_xmm(c, slot);
    if (x >= 0 && opc == 0x8B && !pfx) {
        x64_rr(&c->b, 0x66, w, 0x0F7E, x, reg); /* movd/movq reg, xmm (66 (W) 0F 7E /r): zero-extends */
        return;
    }
    cache_clean(c, slot);
    pin_note(c, slot, PIN_READ);
    x64_rm_slot(&c->b, pfx, w, opc, reg, slot);
    if (opc == 0x8B && w && !pfx) x64_rr(&c->b, 0, 1, 0x8B, cache_take_gp(c, slot), reg);
}
/* `opc xmm_reg, slot` for a scalar SSE operation reading the slot as its
   r/m operand; a slot in a general register goes through xmm1 (when
   xmm_reg is not xmm1). */
static inline void rd_xmm(jit_cc *c, int pfx, uint32_t opc, int reg, uint32_t slot) {
    int x = cache_xmm(c, slot), r = cache_gp(c, slot);
    if (x >= 0) {
        x64_rr(&c->b, pfx, 0, opc, reg, x);
        return;
    }
    if (r >= 0 && reg != 1) { /* a value loaded from memory, say: through xmm1, not a store and its reload */
        x64_rr(&c->b, 0x66, 1, 0x0F6E, 1, r); /* movq xmm1, r */
        x64_rr(&c->b, pfx, 0, opc, reg, 1);
        return;
    }
    cache_clean(c, slot);
    pin_note(c, slot, PIN_XMM);
    x64_rm_slot(&c->b, pfx, 0, opc, reg, slot);
}
/* xmm_reg = the slot as an f32 or f64 (movss / movsd). */
static inline void ld_xmm(jit_cc *c, int dbl, int reg, uint32_t slot) {
    int x = cache_xmm(c, slot), r = cache_gp(c, slot);
    if (x >= 0) x64_rr(&c->b, 0, 0, 0x0F28, reg, x);          /* movaps reg, x */
    else if (r >= 0) x64_rr(&c->b, 0x66, 1, 0x0F6E, reg, r);  /* movq reg, r (66 W 0F 6E /r) */
    else {
        cache_clean(c, slot);
        pin_note(c, slot, PIN_XMM);
        x64_rm_slot(&c->b, dbl ? 0xF2 : 0xF3, 0, 0x0F10, reg, slot);
    }
}

/* Scratch registers' loads and stores of slots. */
static inline void ld32(jit_cc *c, int r, uint32_t slot) { rd(c, 0, 0, 0x8B, r, slot); }
static inline void ld64(jit_cc *c, int r, uint32_t slot) { rd(c, 0, 1, 0x8B, r, slot); }
/* The frame's store only: code no cached value can depend on (the entry). */
static inline void st64_frame(jit_cc *c, int r, uint32_t slot) { x64_rm_slot(&c->b, 0, 1, 0x89, r, slot); }
static inline void st64(jit_cc *c, int r, uint32_t slot) {
    pin_note(c, slot, PIN_WRITE);
    int k = cache_take_gp(c, slot);
    x64_rr(&c->b, 0, 1, 0x8B, k, r);
    cache_dirty_gp(c, k);
}
/* A float result in xmm0 to its slot: an f64 is stored from xmm0 and
   cached in an XMM register, an f32 zero-extended through eax. */
static inline void st_xmm0(jit_cc *c, int dbl, uint32_t slot) {
    if (!dbl) {
        x64_rr(&c->b, 0x66, 0, 0x0F7E, 0, X64_RAX); /* movd eax, xmm0 */
        st64(c, X64_RAX, slot);
        return;
    }
    pin_note(c, slot, PIN_XMM);
    int x = cache_take_xmm(c, slot);
    x64_rr(&c->b, 0, 0, 0x0F28, x, 0); /* movaps x, xmm0 */
    cache_dirty_xmm(c, x);
}

/* Leaves for the interpreter at this operation (unconditionally). */
static inline void leave_here(jit_cc *c, uint32_t pc) { exit_to(c, x64_jmp32(&c->b), pc); }

/* ------------------------------------------------------------------------
 * Memory 0: rax = the 32-bit address; the interpreter's bounds check
 * (ea + n > size leaves, and the interpreter re-reads the size, then
 * traps or goes on); the access at [r12 + rax + offset].
 * ------------------------------------------------------------------------ */
/* False when the offset is too large for a disp32: then the operation
   always leaves to the interpreter. */
static inline bool bounds(jit_cc *c, uint32_t pc, uint32_t offset, uint32_t n) {
    if ((uint64_t)offset + n > 0x7FFFFFFFu) {
        leave_here(c, pc);
        return false;
    }
    x64_rm_base(&c->b, 0, 1, 0x8D, X64_RCX, X64_RAX, (int32_t)(offset + n)); /* lea rcx, [rax + offset + n] */
    x64_rr(&c->b, 0, 1, 0x39, X64_R13, X64_RCX);                            /* cmp rcx, r13 */
    exit_to(c, x64_jcc32(&c->b, X64_CC_A), pc);
    return true;
}

/* The v128 operations (simd.c): emits the operation at pc, of kind
   `op` (its first word, a pair's first operation); false when it is not
   one simd.c translates (the caller then exits there). */
bool jit_simd_op(jit_cc *c, uint32_t pc, uint32_t op);

#endif
