/*
 * jit.c — the compiler tier's translator: one pass over a function's
 * compiled words (code.h, docs/code-format.md), one template of x86-64
 * code per operation, every operand read from and written to its frame
 * slot. The design is in docs/jit.md; in short:
 *
 *   - Registers: rbx = fp, r12 = memory 0's base, r13 = its size as the
 *     interpreter last read it, r14 = &attention, r15 = the instance's
 *     globals. rax, rcx, rdx, xmm0 and xmm1 are scratch within one
 *     operation; rsi, rdi, r8-r11 and xmm2-xmm15 cache slots within a
 *     straight run of operations (the register cache, emit.h: written
 *     back before a branch (a conditional one's taken path), a call, a
 *     return or a label, and by each exit's own stub, so the interpreter
 *     always finds the frame exact; the code is entered only where a run
 *     starts); an innermost loop's run keeps up to three of its slots in
 *     r8-r10 across its branch back ("Loop registers").
 *   - Leaving: compiled code returns the word index of an operation to the
 *     interpreter, which runs it in the same frame: calls and returns
 *     (which the interpreter makes, frame records and all), any check
 *     that fails (bounds, division, unreachable: the interpreter runs the
 *     operation again and traps with its own message and backtrace, or
 *     finds the memory grown), and a taken branch while the attention
 *     word is set (the interpreter takes the branch again and meets the
 *     attention word itself: fuel, slices, suspension and stops are its
 *     own, counted exactly as without the tier).
 *   - An operation not translated here is an exit at its start (emit_op:
 *     a step exit comes back at the next operation, any other leaves the
 *     function to the interpreter until its next entry into machine
 *     code); only a function the translator cannot finish stays
 *     interpreted whole (jit_compile leaves cf->jit NULL).
 */
#include "jit.h"

#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include "../exec/exec.h"

#if WEFT_JIT
#include "emit.h"

static _Atomic uint64_t jit_compiled, jit_fell_back;
/* Of the functions compiled: their wasm bodies' bytes (as the operations
   map back to the module: from the first to the last), the machine code
   made for them, and the CPU time spent translating (weft_jit_sizes). */
static _Atomic uint64_t jit_wasm_bytes, jit_code_bytes, jit_ns;
/* Loops given registers across their branch back ("Loop registers"). */
static _Atomic uint64_t jit_loops;
uint64_t jit_loop_count(void) { return atomic_load_explicit(&jit_loops, memory_order_relaxed); }

void weft_jit_stats(uint64_t *compiled, uint64_t *fell_back) {
    if (compiled) *compiled = atomic_load_explicit(&jit_compiled, memory_order_relaxed);
    if (fell_back) *fell_back = atomic_load_explicit(&jit_fell_back, memory_order_relaxed);
}

void weft_jit_sizes(uint64_t *wasm_bytes, uint64_t *code_bytes, uint64_t *compile_ns) {
    if (wasm_bytes) *wasm_bytes = atomic_load_explicit(&jit_wasm_bytes, memory_order_relaxed);
    if (code_bytes) *code_bytes = atomic_load_explicit(&jit_code_bytes, memory_order_relaxed);
    if (compile_ns) *compile_ns = atomic_load_explicit(&jit_ns, memory_order_relaxed);
}

/* This thread's CPU time (a translation's cost, whatever else the machine runs). */
static int64_t thread_cpu_ns(void) { return base_clock_ns(CLOCK_THREAD_CPUTIME_ID); }

bool weft_jit_built(void) { return true; }

/* The way in (System V: rdi = where, rsi = the registers): saves the
   callee-saved registers, loads the pinned ones, keeps the record's
   address in rbp and jumps. Compiled code leaves through its function's
   epilogue (emit_epilogue), which stores fp back and undoes exactly this,
   with the word index to go on at in eax. */
uint64_t weft_jit_enter_(const void *where, jit_regs *r);
__asm__(".text\n"
        ".globl weft_jit_enter_\n"
        ".hidden weft_jit_enter_\n"
        ".type weft_jit_enter_, @function\n"
        "weft_jit_enter_:\n"
        "  push %rbp\n"
        "  mov %rsi, %rbp\n"
        "  push %rbx\n"
        "  push %r12\n"
        "  push %r13\n"
        "  push %r14\n"
        "  push %r15\n"
        "  sub $8, %rsp\n"
        "  mov %rsp, 104(%rsi)\n"
        "  lea -16384(%rsp), %rax\n"
        "  mov %rax, 112(%rsi)\n"
        "  mov 0(%rsi), %rbx\n"
        "  mov 8(%rsi), %r12\n"
        "  mov 16(%rsi), %r13\n"
        "  mov 24(%rsi), %r14\n"
        "  mov 32(%rsi), %r15\n"
        "  jmp *%rdi\n"
        ".size weft_jit_enter_, .-weft_jit_enter_\n");

_Static_assert(offsetof(jit_regs, rsp_save) == 104 && offsetof(jit_regs, rsp_limit) == 112 &&
                   JIT_NATIVE_STACK == 16384,
               "weft_jit_enter_ writes these two at fixed offsets, the limit JIT_NATIVE_STACK below");

uint32_t jit_run(const cmp_func *cf, uint32_t pc, jit_regs *r) {
    const jit_func *j = cf->jit;
    if (pc >= cf->code_len || j->map[pc] == JIT_NO_ENTRY) return pc; /* not an operation: interpret */
    return (uint32_t)weft_jit_enter_(j->code + j->map[pc], r);
}

/* Offsets in the records compiled code reads (the translator's state and
   the register cache are in emit.h). */
#define R_FP ((int32_t)offsetof(jit_regs, fp))
#define R_FN ((int32_t)offsetof(jit_regs, fn))
#define R_FRAME ((int32_t)offsetof(jit_regs, frame))
#define R_FRAMES_BASE ((int32_t)offsetof(jit_regs, frames_base))
#define R_FRAMES_END ((int32_t)offsetof(jit_regs, frames_end))
#define R_STACK_END ((int32_t)offsetof(jit_regs, stack_end))
#define R_INST ((int32_t)offsetof(jit_regs, inst))
#define R_NATIVE_BASE ((int32_t)offsetof(jit_regs, native_base))
#define R_RSP_SAVE ((int32_t)offsetof(jit_regs, rsp_save))
#define R_RSP_LIMIT ((int32_t)offsetof(jit_regs, rsp_limit))
#define R_CODE_TABLE ((int32_t)offsetof(jit_regs, code_table))
#define F_RET_IP ((int32_t)offsetof(exec_frame, ret_ip))
#define F_FP ((int32_t)offsetof(exec_frame, fp))
#define F_FN ((int32_t)offsetof(exec_frame, fn))
#define F_INST ((int32_t)offsetof(exec_frame, inst))
#define F_SIZE ((int32_t)sizeof(exec_frame))

/* With the attention word set, leave for the interpreter at `pc`. */
static void attention_check(jit_cc *c, uint32_t pc) {
    /* cmp dword [r14], 0 */
    x64_byte(&c->b, 0x41);
    x64_byte(&c->b, 0x83);
    x64_byte(&c->b, 0x3E);
    x64_byte(&c->b, 0x00);
    exit_to(c, x64_jcc32(&c->b, X64_CC_NE), pc);
}

static uint32_t target_of(const uint32_t *code, uint32_t pc, uint32_t k) {
    return pc + k + (uint32_t)(int32_t)code[pc + k];
}
/* The exit at `pc` is a safe point's: with the attention word set, its
   stub meters in machine code and goes on at `target` when it can
   (emit_meter); `counted`: a back-edge, which costs a unit. */
static void meter_at(jit_cc *c, uint32_t pc, uint32_t target, bool counted) {
    c->meter[pc] = (target + 1) | (counted ? JIT_METER_COUNTED : 0);
}
/* A branch to `target` goes back to the loop whose registers this run keeps
   ("Loop registers"). */
static bool back_to_pinned(const jit_cc *c, uint32_t target) { return c->pinned && target == c->loop_pc; }
/* A taken branch from the operation at `pc` to the target in its word
   `k`: a safe point. With the attention word set, its exit stub meters
   it or leaves, and the interpreter takes it (again). */
static void taken(jit_cc *c, uint32_t pc, uint32_t k) {
    uint32_t target = target_of(c->code, pc, k);
    meter_at(c, pc, target, cmp_is_back_edge(c->cf, pc + k));
    attention_check(c, pc);
    if (back_to_pinned(c, target)) x64_patch_rel32(&c->b, x64_jmp32(&c->b), c->loop_top); /* loop_conform made it so */
    else jump_to(c, x64_jmp32(&c->b), target);
}
static void loop_conform(jit_cc *c);
/* If condition `cc` holds (flags set just before), take the branch: the
   taken path writes the dirty registers back (or, branching back to a
   loop that keeps registers, conforms to it) on its own, so the
   fall-through goes on with the cache as it was, dirty registers and
   all. */
static void branch_if(jit_cc *c, int cc, uint32_t pc, uint32_t k) {
    size_t skip = x64_jcc32(&c->b, cc ^ 1);
    jit_cache kept = cache_save(c);
    if (back_to_pinned(c, target_of(c->code, pc, k))) loop_conform(c);
    else cache_flush(c);
    taken(c, pc, k);
    cache_restore(c, &kept);
    x64_patch_rel32(&c->b, skip, c->b.len);
}

/* The attention word's fast path, out of line in an exit's stub: with
   only the execution's own metering bits set (EXEC_ATTN_OWN: fuel, a
   deterministic or cooperative slice), a safe point that counts takes its
   unit of each here, exactly as the interpreter's handler would (exec.h,
   interp.c `attention`), and one that does not count costs nothing; then
   it goes on at `target`. Anything else (a request: stop, suspend,
   tier-up; fuel to take from the store's budget; the slice's last unit)
   falls through to the plain exit after it. */
#define JIT_FUEL_DISP ((int32_t)(offsetof(weft_exec, fuel_left) - offsetof(weft_exec, attention)))
#define JIT_SLICE_DISP ((int32_t)(offsetof(weft_exec, slice_left) - offsetof(weft_exec, attention)))
static void test_eax(x64_buf *b, uint32_t imm) {
    x64_byte(b, 0xA9); /* test eax, imm32 */
    x64_u32(b, imm);
}
static void emit_meter(jit_cc *c, bool counted, uint32_t target) {
    x64_buf *b = &c->b;
    size_t fail[3], skip;
    int nfail = 0;
    x64_rm_base(b, 0, 0, 0x8B, X64_RAX, X64_R14, 0);               /* mov eax, [r14] */
    test_eax(b, ~EXEC_ATTN_OWN);
    fail[nfail++] = x64_jcc8(b, X64_CC_NE);                          /* a request */
    if (counted) {
        /* Both checks before either count, so a fall-through has counted nothing. */
        test_eax(b, EXEC_ATTN_FUEL);
        skip = x64_jcc8(b, X64_CC_E);
        x64_rm_base(b, 0, 1, 0x83, 7, X64_R14, JIT_FUEL_DISP);      /* cmp qword [fuel_left], 0 */
        x64_byte(b, 0);
        fail[nfail++] = x64_jcc8(b, X64_CC_E);
        x64_land8(b, skip);
        test_eax(b, EXEC_ATTN_SLICE);
        skip = x64_jcc8(b, X64_CC_E);
        x64_rm_base(b, 0, 1, 0x83, 7, X64_R14, JIT_SLICE_DISP);     /* cmp qword [slice_left], 1 */
        x64_byte(b, 1);
        fail[nfail++] = x64_jcc8(b, X64_CC_E);
        x64_land8(b, skip);
        test_eax(b, EXEC_ATTN_FUEL);
        skip = x64_jcc8(b, X64_CC_E);
        x64_rm_base(b, 0, 1, 0xFF, 1, X64_R14, JIT_FUEL_DISP);      /* dec qword [fuel_left] */
        x64_land8(b, skip);
        test_eax(b, EXEC_ATTN_SLICE);
        skip = x64_jcc8(b, X64_CC_E);
        x64_rm_base(b, 0, 1, 0xFF, 1, X64_R14, JIT_SLICE_DISP);     /* dec qword [slice_left] */
        x64_land8(b, skip);
    }
    jump_to(c, x64_jmp32(b), target);
    for (int i = 0; i < nfail; i++) x64_land8(b, fail[i]);
}

/* lea rdx, [rip + disp32]: returns where the disp32 is, to patch. */
static size_t lea_rdx_rip(x64_buf *b) {
    x64_byte(b, 0x48);
    x64_byte(b, 0x8D);
    x64_byte(b, 0x15);
    size_t at = b->len;
    x64_u32(b, 0);
    return at;
}
/* Fills a jump table at `table`: entry i, the distance from the table to
   stubs[i] (signed: movsxd reads it). */
static void fill_table(x64_buf *b, size_t table, const size_t *stubs, uint32_t n) {
    for (uint32_t i = 0; i < n && !b->oom; i++) {
        int32_t rel = (int32_t)((int64_t)stubs[i] - (int64_t)table);
        memcpy(b->p + table + 4 * i, &rel, 4);
    }
}
/* br_table (index, n, then n + 1 targets): an index past n takes the
   last. Metered as the interpreter's JUMP: with the attention word set,
   a request leaves to the interpreter (which takes the branch itself);
   with only the execution's metering bits, a forward target costs
   nothing and a back-edge takes its unit in a stub of its own
   (emit_meter), reached through a second table, or leaves when it cannot
   (fuel or the slice at their end). */
static void br_table(jit_cc *c, uint32_t pc, const uint32_t *ip) {
    x64_buf *b = &c->b;
    uint32_t n = ip[2];
    bool back = false;
    for (uint32_t i = 0; i <= n; i++) back |= cmp_is_back_edge(c->cf, pc + 3 + i);
    x64_rm_base(b, 0, 0, 0x8B, X64_RAX, X64_R14, 0);  /* mov eax, [r14] */
    x64_rr(b, 0, 0, 0x85, X64_RAX, X64_RAX);          /* test eax, eax */
    size_t lea_plain = lea_rdx_rip(b);                /* rdx = the plain table */
    size_t go = x64_jcc8(b, X64_CC_E);
    test_eax(b, ~EXEC_ATTN_OWN);
    exit_to(c, x64_jcc32(b, X64_CC_NE), pc);          /* a request */
    size_t lea_metered = back ? lea_rdx_rip(b) : 0;   /* rdx = the metered table */
    x64_land8(b, go);
    ld32(c, X64_RAX, ip[1]);
    x64_mov_imm32(b, X64_RCX, n);
    x64_rr(b, 0, 0, 0x39, X64_RCX, X64_RAX);          /* cmp eax, ecx */
    x64_rr(b, 0, 0, 0x0F43, X64_RAX, X64_RCX);        /* cmovae eax, ecx */
    static const uint8_t ld_entry[] = {0x48, 0x63, 0x04, 0x82}; /* movsxd rax, [rdx + rax*4] */
    for (size_t i = 0; i < sizeof ld_entry; i++) x64_byte(b, ld_entry[i]);
    x64_rr(b, 0, 1, 0x01, X64_RDX, X64_RAX);          /* add rax, rdx */
    x64_byte(b, 0xFF);                                /* jmp rax */
    x64_byte(b, 0xE0);
    size_t *stubs = malloc((size_t)(n + 1) * 2 * sizeof *stubs);
    if (!stubs) {
        b->oom = true;
        return;
    }
    size_t *metered = stubs + n + 1;
    /* The plain table: each entry the distance to a jump to its target. */
    size_t table = b->len;
    x64_patch_rel32(b, lea_plain, table);
    for (uint32_t i = 0; i <= n; i++) x64_u32(b, 0);
    for (uint32_t i = 0; i <= n; i++) {
        stubs[i] = metered[i] = b->len;
        jump_to(c, x64_jmp32(b), target_of(c->code, pc, 3 + i));
    }
    fill_table(b, table, stubs, n + 1);
    if (back) {
        size_t mtable = b->len;
        x64_patch_rel32(b, lea_metered, mtable);
        for (uint32_t i = 0; i <= n; i++) x64_u32(b, 0);
        for (uint32_t i = 0; i <= n; i++) {
            if (!cmp_is_back_edge(c->cf, pc + 3 + i)) continue;
            metered[i] = b->len;
            emit_meter(c, true, target_of(c->code, pc, 3 + i));
            leave_here(c, pc); /* counted nothing: the interpreter takes it */
        }
        fill_table(b, mtable, metered, n + 1);
    }
    free(stubs);
}

/* ------------------------------------------------------------------------
 * Integer arithmetic: rax = a; rax op= b (slot) or imm; slot d = rax.
 * ------------------------------------------------------------------------ */
typedef enum { AL_ADD, AL_SUB, AL_AND, AL_OR, AL_XOR, AL_MUL, AL_SHL, AL_SHR_S, AL_SHR_U, AL_ROTL, AL_ROTR } alu_kind;
/* op r, r/m opcodes; the /n of 81 (imm32) and of C1/D3 (shifts). */
static const uint8_t alu_rm[] = {0x03, 0x2B, 0x23, 0x0B, 0x33};
static const uint8_t alu_ext[] = {0, 5, 4, 1, 6, 0, 4, 7, 5, 0, 1};

static void alu_slot(jit_cc *c, int w, alu_kind k, int r, uint32_t b) {
    if (k <= AL_XOR) rd(c, 0, w, alu_rm[k], r, b);
    else if (k == AL_MUL) rd(c, 0, w, 0x0FAF, r, b);
    else {
        ld32(c, X64_RCX, b);
        x64_rr(&c->b, 0, w, 0xD3, alu_ext[k], r); /* shift r by cl (masked by the CPU as wasm does) */
    }
}
static void alu_imm(jit_cc *c, int w, alu_kind k, int r, uint32_t imm) {
    if (k <= AL_XOR) {
        x64_rr(&c->b, 0, w, 0x81, alu_ext[k], r);
        x64_u32(&c->b, imm);
    } else if (k == AL_MUL) {
        x64_rr(&c->b, 0, w, 0x69, r, r);
        x64_u32(&c->b, imm);
    } else {
        x64_rr(&c->b, 0, w, 0xC1, alu_ext[k], r);
        x64_byte(&c->b, (uint8_t)(imm & (w ? 63 : 31)));
    }
}
/* d = d op ... where d is in its loop register ("Loop registers"): the
   register index, to compute in place (a 32-bit operation zero-extends
   into it as the slot's bits are), or -1. */
static int in_place(const jit_cc *c, uint32_t d, uint32_t a) {
    int p = d == a ? pin_of(c, d) : -1;
    return p >= 0 && c->gp[p] == d + 1 ? p : -1;
}
/* The loop register p holds its slot's new value: other copies go. */
static void in_place_done(jit_cc *c, int p) {
    uint32_t slot = c->pin_slot[p];
    cache_drop(c, slot);
    c->gp[p] = slot + 1;
    c->gp_dirty |= 1u << p;
}
static void bin(jit_cc *c, int w, alu_kind k, uint32_t d, uint32_t a, uint32_t b) {
    int p = in_place(c, d, a);
    if (p >= 0) {
        alu_slot(c, w, k, cache_gp_reg[p], b);
        in_place_done(c, p);
        return;
    }
    rd(c, 0, w, 0x8B, X64_RAX, a);
    alu_slot(c, w, k, X64_RAX, b);
    st64(c, X64_RAX, d);
}
static void bin_imm(jit_cc *c, int w, alu_kind k, uint32_t d, uint32_t a, uint32_t imm) {
    int p = in_place(c, d, a);
    if (p >= 0) {
        alu_imm(c, w, k, cache_gp_reg[p], imm);
        in_place_done(c, p);
        return;
    }
    rd(c, 0, w, 0x8B, X64_RAX, a);
    alu_imm(c, w, k, X64_RAX, imm);
    st64(c, X64_RAX, d);
}
/* Flags of a cmp b (slot or imm), then d = cc. */
static void cmp_slot(jit_cc *c, int w, uint32_t a, uint32_t b) {
    rd(c, 0, w, 0x8B, X64_RAX, a);
    rd(c, 0, w, 0x3B, X64_RAX, b);
}
static void cmp_imm(jit_cc *c, int w, uint32_t a, uint32_t imm) {
    rd(c, 0, w, 0x81, 7, a);
    x64_u32(&c->b, imm);
}
static void set_bool(jit_cc *c, int cc, uint32_t d) {
    x64_setcc(&c->b, cc, X64_RAX);
    x64_rr(&c->b, 0, 0, 0x0FB6, X64_RAX, X64_RAX); /* movzx eax, al */
    st64(c, X64_RAX, d);
}
/* Integer division (§4.3.2 idiv/irem): divisor 0, and for the signed ones
   -1 (overflow or a zero remainder), leave to the interpreter. */
static void divide(jit_cc *c, uint32_t pc, int w, bool sign, bool rem, uint32_t d, uint32_t a, uint32_t b) {
    rd(c, 0, w, 0x8B, X64_RCX, b);
    x64_rr(&c->b, 0, w, 0x85, X64_RCX, X64_RCX); /* test rcx, rcx */
    exit_to(c, x64_jcc32(&c->b, X64_CC_E), pc);
    if (sign) {
        x64_rr(&c->b, 0, w, 0x83, 7, X64_RCX); /* cmp rcx, -1 */
        x64_byte(&c->b, 0xFF);
        exit_to(c, x64_jcc32(&c->b, X64_CC_E), pc);
    }
    rd(c, 0, w, 0x8B, X64_RAX, a);
    if (sign) {
        if (w) x64_byte(&c->b, 0x48);
        x64_byte(&c->b, 0x99); /* cdq / cqo */
    } else {
        x64_rr(&c->b, 0, 0, 0x33, X64_RDX, X64_RDX); /* xor edx, edx */
    }
    x64_rr(&c->b, 0, w, 0xF7, sign ? 7 : 6, X64_RCX);
    st64(c, rem ? X64_RDX : X64_RAX, d);
}
/* clz / ctz with bsr / bsf: an input of 0 gives the width. */
static void count_bits(jit_cc *c, int w, bool lead, uint32_t d, uint32_t a) {
    int width = w ? 64 : 32;
    x64_mov_imm32(&c->b, X64_RCX, lead ? (uint32_t)(2 * width - 1) : (uint32_t)width);
    rd(c, 0, w, lead ? 0x0FBD : 0x0FBC, X64_RAX, a); /* bsr/bsf rax, [a]: ZF when 0 */
    x64_rr(&c->b, 0, w, 0x0F44, X64_RAX, X64_RCX);               /* cmove rax, rcx */
    if (lead) {                                                    /* clz = (width - 1) ^ bsr */
        x64_rr(&c->b, 0, w, 0x83, 6, X64_RAX);
        x64_byte(&c->b, (uint8_t)(width - 1));
    }
    st64(c, X64_RAX, d);
}

typedef struct { uint32_t n; int pfx, w; uint32_t opc; } load_form;
static bool load_form_of(uint32_t op, load_form *f) {
    switch (op) {
    case CMP_LOAD32: *f = (load_form){4, 0, 0, 0x8B}; return true;
    case CMP_LOAD64: *f = (load_form){8, 0, 1, 0x8B}; return true;
    case CMP_LOAD8_U: *f = (load_form){1, 0, 0, 0x0FB6}; return true;
    case CMP_LOAD16_U: *f = (load_form){2, 0, 0, 0x0FB7}; return true;
    case CMP_I32_LOAD8_S: *f = (load_form){1, 0, 0, 0x0FBE}; return true;
    case CMP_I32_LOAD16_S: *f = (load_form){2, 0, 0, 0x0FBF}; return true;
    case CMP_I64_LOAD8_S: *f = (load_form){1, 0, 1, 0x0FBE}; return true;
    case CMP_I64_LOAD16_S: *f = (load_form){2, 0, 1, 0x0FBF}; return true;
    case CMP_I64_LOAD32_S: *f = (load_form){4, 0, 1, 0x63}; return true;
    default: return false;
    }
}
static void load(jit_cc *c, uint32_t pc, const load_form *f, uint32_t d, uint32_t offset) {
    if (!bounds(c, pc, offset, f->n)) return;
    x64_rm_mem(&c->b, f->pfx, f->w, f->opc, X64_RAX, (int32_t)offset);
    st64(c, X64_RAX, d);
}
static void store(jit_cc *c, uint32_t pc, uint32_t n, uint32_t value, uint32_t offset) {
    if (!bounds(c, pc, offset, n)) return;
    ld64(c, X64_RDX, value);
    x64_rm_mem(&c->b, n == 2 ? 0x66 : 0, n == 8, n == 1 ? 0x88 : 0x89, X64_RDX, (int32_t)offset);
}

/* ------------------------------------------------------------------------
 * memory.copy and memory.fill of memory 0 (§4.4.7, "Memory Instructions"):
 * BODY_MEMORY_COPY/FILL's checks (interp.c), both bounds in 64 bits
 * before anything is written, then the C library's memmove or memset, as
 * the interpreter calls them. Out of bounds as r13 says, the interpreter
 * runs the operation (it traps, or finds the memory grown by another
 * thread) and comes back at the next (a step exit, jit.h). The control
 * part of emit_op has written the registers back and empties the cache
 * after it, so the call may take every register the C ABI lets it; the
 * machine stack is aligned to 16 bytes for it and put back after.
 * ------------------------------------------------------------------------ */
static void bulk_memory(jit_cc *c, uint32_t pc, bool fill, uint32_t d, uint32_t s, uint32_t n) {
    x64_buf *b = &c->b;
    ld32(c, X64_RAX, d);
    ld32(c, X64_RCX, s); /* fill: the value, whose low byte memset takes */
    ld32(c, X64_RDX, n);
    static const uint8_t lea_end[2][4] = {{0x4C, 0x8D, 0x04, 0x10},  /* lea r8, [rax + rdx] */
                                          {0x4C, 0x8D, 0x04, 0x11}}; /* lea r8, [rcx + rdx] */
    for (int k = fill ? 0 : 1; k >= 0; k--) {
        for (size_t i = 0; i < 4; i++) x64_byte(b, lea_end[k][i]);
        x64_rr(b, 0, 1, 0x39, X64_R13, X64_R8); /* cmp r8, r13 */
        exit_to(c, x64_jcc32(b, X64_CC_A), pc);
    }
    x64_rm_mem(b, 0, 1, 0x8D, X64_RDI, 0); /* lea rdi, [r12 + rax] */
    if (fill) {
        x64_rr(b, 0, 0, 0x8B, X64_RSI, X64_RCX); /* mov esi, ecx */
    } else {
        x64_rm_mem_at(b, 0, 1, 0x8D, X64_RSI, X64_RCX, 0); /* lea rsi, [r12 + rcx] */
    }
    static const uint8_t align[] = {0x48, 0x89, 0xE0,       /* mov rax, rsp */
                                    0x48, 0x83, 0xE4, 0xF0, /* and rsp, -16 */
                                    0x50, 0x50};            /* push rax; push rax */
    for (size_t i = 0; i < sizeof align; i++) x64_byte(b, align[i]);
    x64_mov_imm64(b, X64_RAX, fill ? (uint64_t)(uintptr_t)memset : (uint64_t)(uintptr_t)memmove);
    x64_byte(b, 0xFF); /* call rax */
    x64_byte(b, 0xD0);
    x64_byte(b, 0x5C); /* pop rsp: the rsp saved above */
}

/* ------------------------------------------------------------------------
 * Atomics (the threads proposal) on memory 0, each an x86 instruction
 * with the order the interpreter's __atomic builtins give (SEQ_CST): a
 * load is a plain mov, a store an xchg, add/sub a lock xadd, xchg an
 * xchg, cmpxchg a lock cmpxchg, and/or/xor a lock cmpxchg loop (x86's
 * lock and/or/xor keep no old value). Naturally aligned only: rcx holds
 * ea + n after the bounds check, whose low bits are ea's, and an
 * unaligned address leaves for the interpreter, which traps
 * (WEFT_TRAP_UNALIGNED_ATOMIC); so does one out of bounds. A narrow
 * result is zero-extended, as the interpreter's uintN_t store into the
 * slot makes it. wait and notify stay step exits (jit.h). Under
 * ThreadSanitizer all of them do (JIT_ATOMICS 0): TSan sees the
 * interpreter's __atomic builtins but not these instructions, and
 * without them the guest's own synchronization (a mutex's cmpxchg in
 * machine code, the protected plain accesses interpreted) would show as
 * races in guest memory.
 * ------------------------------------------------------------------------ */
#if defined(__SANITIZE_THREAD__)
#define JIT_ATOMICS 0
#else
#define JIT_ATOMICS 1
#endif
#if JIT_ATOMICS
/* rax = the address; false when the operation always leaves. */
static bool atomic_ea(jit_cc *c, uint32_t pc, uint32_t offset, uint32_t n) {
    if (!bounds(c, pc, offset, n)) return false;
    if (n > 1) {
        x64_byte(&c->b, 0xF6); /* test cl, n - 1 */
        x64_byte(&c->b, 0xC1);
        x64_byte(&c->b, (uint8_t)(n - 1));
        exit_to(c, x64_jcc32(&c->b, X64_CC_NE), pc);
    }
    return true;
}
/* The forms of an n-byte access with register operand r: prefix, REX.W,
   and the opcode for bytes (op8) or the wider ones (op). */
static void atomic_rm(jit_cc *c, uint32_t n, uint32_t op8, uint32_t op, int r, int index, uint32_t offset) {
    x64_rm_mem_at(&c->b, n == 2 ? 0x66 : 0, n == 8, n == 1 ? op8 : op, r, index, (int32_t)offset);
}
/* r = its low n bytes, zero-extended. */
static void zero_extend(jit_cc *c, uint32_t n, int r) {
    if (n == 1) x64_rr(&c->b, 0, 0, 0x0FB6, r, r);      /* movzx r32, r8 */
    else if (n == 2) x64_rr(&c->b, 0, 0, 0x0FB7, r, r); /* movzx r32, r16 */
    else if (n == 4) x64_rr(&c->b, 0, 0, 0x8B, r, r);   /* mov r32, r32 */
}
/* The load of n bytes into a 32- or 64-bit register, zero-extended. */
static uint32_t atomic_load_opc(uint32_t n) { return n == 1 ? 0x0FB6 : n == 2 ? 0x0FB7 : 0x8B; }
static void jit_atomic_load(jit_cc *c, uint32_t pc, uint32_t n, uint32_t d, uint32_t addr, uint32_t offset) {
    ld32(c, X64_RAX, addr);
    if (!atomic_ea(c, pc, offset, n)) return;
    x64_rm_mem(&c->b, 0, n == 8, atomic_load_opc(n), X64_RAX, (int32_t)offset);
    st64(c, X64_RAX, d);
}
static void jit_atomic_store(jit_cc *c, uint32_t pc, uint32_t n, uint32_t addr, uint32_t value, uint32_t offset) {
    ld32(c, X64_RAX, addr);
    if (!atomic_ea(c, pc, offset, n)) return;
    ld64(c, X64_RDX, value);
    atomic_rm(c, n, 0x86, 0x87, X64_RDX, X64_RAX, offset); /* xchg [mem], rdx */
}
enum { AT_ADD, AT_SUB, AT_AND, AT_OR, AT_XOR, AT_XCHG };
static void atomic_rmw(jit_cc *c, uint32_t pc, int kind, uint32_t n, uint32_t d, uint32_t addr, uint32_t value,
                       uint32_t offset) {
    ld32(c, X64_RAX, addr);
    if (!atomic_ea(c, pc, offset, n)) return;
    if (kind == AT_ADD || kind == AT_SUB || kind == AT_XCHG) {
        ld64(c, X64_RDX, value);
        if (kind == AT_SUB) x64_rr(&c->b, 0, 1, 0xF7, 3, X64_RDX); /* neg rdx */
        if (kind == AT_XCHG) {
            atomic_rm(c, n, 0x86, 0x87, X64_RDX, X64_RAX, offset);    /* xchg [mem], rdx */
        } else {
            x64_byte(&c->b, 0xF0);                                    /* lock */
            atomic_rm(c, n, 0x0FC0, 0x0FC1, X64_RDX, X64_RAX, offset); /* xadd [mem], rdx */
        }
        zero_extend(c, n, X64_RDX);
        st64(c, X64_RDX, d);
        return;
    }
    /* rcx = the address; rax = the old value; again: rdx = rax op value,
       lock cmpxchg [mem], rdx, until no other thread wrote in between
       (a failed cmpxchg loads the value it found into rax). */
    static const uint32_t alu[] = {[AT_AND] = 0x23, [AT_OR] = 0x0B, [AT_XOR] = 0x33};
    x64_rr(&c->b, 0, 0, 0x8B, X64_RCX, X64_RAX); /* mov ecx, eax */
    x64_rm_mem_at(&c->b, 0, n == 8, atomic_load_opc(n), X64_RAX, X64_RCX, (int32_t)offset);
    size_t top = c->b.len;
    x64_rr(&c->b, 0, 1, 0x8B, X64_RDX, X64_RAX); /* mov rdx, rax */
    rd(c, 0, 1, alu[kind], X64_RDX, value);      /* op rdx, value */
    x64_byte(&c->b, 0xF0);                       /* lock */
    atomic_rm(c, n, 0x0FB0, 0x0FB1, X64_RDX, X64_RCX, offset); /* cmpxchg [mem], rdx */
    x64_byte(&c->b, 0x75);                       /* jne top */
    x64_byte(&c->b, (uint8_t)(int8_t)((int64_t)top - (int64_t)(c->b.len + 1)));
    zero_extend(c, n, X64_RAX);
    st64(c, X64_RAX, d);
}
static void atomic_cmpxchg(jit_cc *c, uint32_t pc, uint32_t n, uint32_t d, uint32_t addr, uint32_t expected,
                           uint32_t replacement, uint32_t offset) {
    ld32(c, X64_RAX, addr);
    if (!atomic_ea(c, pc, offset, n)) return;
    x64_rr(&c->b, 0, 0, 0x8B, X64_RCX, X64_RAX); /* mov ecx, eax */
    ld64(c, X64_RAX, expected);
    zero_extend(c, n, X64_RAX); /* the result when it matched: expected, as uintN_t */
    ld64(c, X64_RDX, replacement);
    x64_byte(&c->b, 0xF0);      /* lock */
    atomic_rm(c, n, 0x0FB0, 0x0FB1, X64_RDX, X64_RCX, offset); /* cmpxchg [mem], rdx */
    st64(c, X64_RAX, d);
}
#endif /* JIT_ATOMICS */

/* ------------------------------------------------------------------------
 * Floating point with SSE2, the instructions the C compiler uses for the
 * interpreter's bodies, so results (NaN bits included) are the same. Two
 * NaN operands give the first operand's NaN: the interpreter's add and
 * mul keep a first (interp.c f32_add..f64_mul), as fbin does.
 * ------------------------------------------------------------------------ */
/* xmm0 = slot; xmm0 op= slot; slot = xmm0 (f32: zero-extended, as slots hold it). */
static void fbin(jit_cc *c, int dbl, uint8_t op, uint32_t d, uint32_t a, uint32_t b) {
    int pfx = dbl ? 0xF2 : 0xF3;
    ld_xmm(c, dbl, 0, a);
    rd_xmm(c, pfx, 0x0F00 | op, 0, b);
    st_xmm0(c, dbl, d);
}
static void fsqrt(jit_cc *c, int dbl, uint32_t d, uint32_t a) {
    rd_xmm(c, dbl ? 0xF2 : 0xF3, 0x0F51, 0, a);
    st_xmm0(c, dbl, d);
}
/* Comparisons: ucomis[sd] x, y; unordered sets ZF, PF and CF. a < b is
   b > a, so every ordered test is "above" or "above or equal". */
static void fcmp(jit_cc *c, int dbl, int kind, uint32_t d, uint32_t a, uint32_t b) {
    bool swap = kind == 2 || kind == 4; /* lt, le */
    ld_xmm(c, dbl, 0, swap ? b : a);
    rd_xmm(c, dbl ? 0x66 : 0, 0x0F2E, 0, swap ? a : b);
    switch (kind) {
    case 0: /* eq: ZF and not PF */
        x64_setcc(&c->b, X64_CC_E, X64_RAX);
        x64_setcc(&c->b, X64_CC_NP, X64_RCX);
        x64_rr(&c->b, 0, 0, 0x22, X64_RAX, X64_RCX); /* and al, cl */
        break;
    case 1: /* ne: not ZF, or PF */
        x64_setcc(&c->b, X64_CC_NE, X64_RAX);
        x64_setcc(&c->b, X64_CC_P, X64_RCX);
        x64_rr(&c->b, 0, 0, 0x0A, X64_RAX, X64_RCX); /* or al, cl */
        break;
    case 2: case 3: x64_setcc(&c->b, X64_CC_A, X64_RAX); break;
    default: x64_setcc(&c->b, X64_CC_AE, X64_RAX); break;
    }
    x64_rr(&c->b, 0, 0, 0x0FB6, X64_RAX, X64_RAX);
    st64(c, X64_RAX, d);
}
/* Sign bit operations on the bits: bt[rc] r, imm8 (/6 btr, /7 btc). */
static void fsign(jit_cc *c, int dbl, int ext, uint32_t d, uint32_t a) {
    rd(c, 0, dbl, 0x8B, X64_RAX, a);
    x64_rr(&c->b, 0, dbl, 0x0FBA, ext, X64_RAX);
    x64_byte(&c->b, dbl ? 63 : 31);
    st64(c, X64_RAX, d);
}
/* cvtsi2s[sd] xmm0, rax (rax: the integer, sign- or zero-extended to 64
   bits, which is exact, so one rounding as the C conversion makes). */
static void fconvert(jit_cc *c, int dbl, uint32_t d, uint32_t a, int how) {
    if (how == 0) rd(c, 0, 1, 0x63, X64_RAX, a);   /* i32_s: movsxd */
    else if (how == 1) ld32(c, X64_RAX, a);                     /* i32_u */
    else ld64(c, X64_RAX, a);                                    /* i64_s */
    x64_rr(&c->b, dbl ? 0xF2 : 0xF3, 1, 0x0F2A, 0, X64_RAX);
    st_xmm0(c, dbl, d);
}

/* f64/f32.convert_i64_u: below 2^63 the signed conversion; above, half
   the value with the lost bit kept as a sticky bit, converted and doubled
   (one rounding: the dropped bits lie well below the result's last
   place). Both the value of the correctly rounded conversion, so the bits
   the C compiler's (uint64_t -> float/double) gives, whatever sequence it
   uses. */
static void fconvert_u64(jit_cc *c, int dbl, uint32_t d, uint32_t a) {
    x64_buf *b = &c->b;
    int pfx = dbl ? 0xF2 : 0xF3;
    ld64(c, X64_RAX, a);
    x64_rr(b, 0, 1, 0x85, X64_RAX, X64_RAX);      /* test rax, rax */
    size_t big = x64_jcc8(b, X64_CC_S);
    x64_rr(b, pfx, 1, 0x0F2A, 0, X64_RAX);        /* cvtsi2s[sd] xmm0, rax */
    size_t done = x64_jmp8(b);
    x64_land8(b, big);
    x64_rr(b, 0, 1, 0x8B, X64_RCX, X64_RAX);      /* mov rcx, rax */
    alu_imm(c, 1, AL_SHR_U, X64_RCX, 1);          /* shr rcx, 1 */
    alu_imm(c, 0, AL_AND, X64_RAX, 1);            /* and eax, 1 */
    x64_rr(b, 0, 1, 0x0B, X64_RCX, X64_RAX);      /* or rcx, rax */
    x64_rr(b, pfx, 1, 0x0F2A, 0, X64_RCX);        /* cvtsi2s[sd] xmm0, rcx */
    x64_rr(b, pfx, 0, 0x0F58, 0, 0);              /* adds[sd] xmm0, xmm0 */
    x64_land8(b, done);
    st_xmm0(c, dbl, d);
}
/* copysign on the bits, as the interpreter: a's magnitude, b's sign. */
static void fcopysign(jit_cc *c, int dbl, uint32_t d, uint32_t a, uint32_t b) {
    if (dbl) {
        ld64(c, X64_RAX, a);
        x64_rr(&c->b, 0, 1, 0x0FBA, 6, X64_RAX);  /* btr rax, 63 */
        x64_byte(&c->b, 63);
        ld64(c, X64_RCX, b);
        alu_imm(c, 1, AL_SHR_U, X64_RCX, 63);
        alu_imm(c, 1, AL_SHL, X64_RCX, 63);
    } else {
        ld32(c, X64_RAX, a);
        alu_imm(c, 0, AL_AND, X64_RAX, 0x7FFFFFFFu);
        ld32(c, X64_RCX, b);
        alu_imm(c, 0, AL_AND, X64_RCX, 0x80000000u);
    }
    x64_rr(&c->b, 0, 1, 0x0B, X64_RAX, X64_RCX);  /* or rax, rcx */
    st64(c, X64_RAX, d);
}
/* min / max as interp.c's f32_min..f64_max. Equal operands (+0 and -0
   among them) give the OR of the bits for min, the AND for max;
   otherwise mins[sd] / maxs[sd] (xmm0 < xmm1 ? xmm0 : xmm1), exact for
   ordered, unequal operands. A NaN operand leaves to the interpreter:
   its `a + b` returns the first NaN operand of whichever order the C
   compiler chose for the addition (GCC 12 adds f64_min's as b + a, its
   f64_max's as a + b), which machine code cannot know. */
static void fminmax(jit_cc *c, uint32_t pc, int dbl, bool max, uint32_t d, uint32_t a, uint32_t b) {
    x64_buf *buf = &c->b;
    int pfx = dbl ? 0xF2 : 0xF3, pd = dbl ? 0x66 : 0;
    ld_xmm(c, dbl, 0, a);           /* movs[sd] xmm0, [a] */
    ld_xmm(c, dbl, 1, b);           /* movs[sd] xmm1, [b] */
    x64_rr(buf, pd, 0, 0x0F2E, 0, 1);                 /* ucomis[sd] xmm0, xmm1 */
    exit_to(c, x64_jcc32(buf, X64_CC_P), pc);         /* unordered: a NaN */
    size_t unequal = x64_jcc8(buf, X64_CC_NE);
    x64_rr(buf, pd, 0, max ? 0x0F54 : 0x0F56, 0, 1);  /* andp[sd] / orp[sd] xmm0, xmm1 */
    size_t done = x64_jmp8(buf);
    x64_land8(buf, unequal);
    x64_rr(buf, pfx, 0, max ? 0x0F5F : 0x0F5D, 0, 1); /* maxs[sd] / mins[sd] xmm0, xmm1 */
    x64_land8(buf, done);
    st_xmm0(c, dbl, d);
}
/* ceil floor trunc nearest: rounds[sd] xmm0, m, imm8 (66 0F 3A 0A/0B /r
   ib, SSE4.1; imm8 = 8 | mode: precision exception suppressed, mode 0
   nearest even, 1 down, 2 up, 3 toward 0). IEEE roundToIntegral: the
   result libm's ceil, floor, trunc and nearbyint (default rounding)
   return, -0 kept; a NaN comes back quieted with its payload, as the
   interpreter's NaN path (x + x) gives it. */
static void fround(jit_cc *c, int dbl, uint8_t mode, uint32_t d, uint32_t a) {
    rd_xmm(c, 0x66, dbl ? 0x0F3A0B : 0x0F3A0A, 0, a);
    x64_byte(&c->b, (uint8_t)(8 | mode));
    st_xmm0(c, dbl, d);
}
/* xmm1 = the constant v (exact in the format): mov ecx/rcx, bits; movd/movq xmm1, ecx/rcx (66 (W) 0F 6E /r). */
static void fconst1(jit_cc *c, int dbl, double v) {
    if (dbl) {
        uint64_t u;
        memcpy(&u, &v, 8);
        x64_mov_imm64(&c->b, X64_RCX, u);
    } else {
        float f = (float)v;
        uint32_t u;
        memcpy(&u, &f, 4);
        x64_mov_imm32(&c->b, X64_RCX, u);
    }
    x64_rr(&c->b, 0x66, dbl, 0x0F6E, 1, X64_RCX);
}
/* The float-to-integer truncations, trapping (sat false) and saturating.
   Trapping: the interpreter's range test (interp.c TRUNC: NaN or a value
   whose truncation is out of range leaves, and the interpreter traps with
   its message); saturating: sat_i32..sat_u64's cases in their order (NaN
   0, at or below the low bound the minimum, at or above the high bound the
   maximum). In range, cvtts[sd]2si (F3/F2 (W) 0F 2C /r) truncates
   exactly; an unsigned 32-bit result comes from the 64-bit conversion,
   an unsigned 64-bit one at or above 2^63 from x - 2^63 (exact) with the
   top bit put back. */
static void ftrunc(jit_cc *c, uint32_t pc, int dbl, int bits, bool uns, bool sat, uint32_t d, uint32_t a) {
    x64_buf *b = &c->b;
    int pfx = dbl ? 0xF2 : 0xF3, pd = dbl ? 0x66 : 0;
    double lo, hi, sat_lo;
    bool lo_incl;
    uint64_t min, max;
    if (uns) {
        lo = -1.0, lo_incl = false, sat_lo = -1.0, min = 0;
        hi = bits == 32 ? 4294967296.0 : 18446744073709551616.0;
        max = bits == 32 ? UINT32_MAX : UINT64_MAX;
    } else if (bits == 32) {
        lo = dbl ? -2147483649.0 : -2147483648.0, lo_incl = !dbl, sat_lo = -2147483648.0;
        hi = 2147483648.0, min = 0x80000000u, max = INT32_MAX;
    } else {
        lo = -9223372036854775808.0, lo_incl = true, sat_lo = lo;
        hi = 9223372036854775808.0, min = (uint64_t)INT64_MIN, max = INT64_MAX;
    }
    ld_xmm(c, dbl, 0, a);            /* movs[sd] xmm0, [a] */
    size_t to_zero = 0, to_min = 0, to_max = 0;
    if (sat) {
        x64_rr(b, pd, 0, 0x0F2E, 0, 0);              /* ucomis[sd] xmm0, xmm0: NaN? */
        to_zero = x64_jcc8(b, X64_CC_P);
        fconst1(c, dbl, sat_lo);
        x64_rr(b, pd, 0, 0x0F2E, 0, 1);              /* x <= low */
        to_min = x64_jcc8(b, X64_CC_BE);
        fconst1(c, dbl, hi);
        x64_rr(b, pd, 0, 0x0F2E, 0, 1);              /* x >= high */
        to_max = x64_jcc8(b, X64_CC_AE);
    } else {
        fconst1(c, dbl, lo);                         /* unordered sets CF and ZF: leaves */
        x64_rr(b, pd, 0, 0x0F2E, 0, 1);
        exit_to(c, x64_jcc32(b, lo_incl ? X64_CC_B : X64_CC_BE), pc);
        fconst1(c, dbl, hi);
        x64_rr(b, pd, 0, 0x0F2E, 1, 0);              /* ucomis[sd] xmm1, xmm0: high > x? */
        exit_to(c, x64_jcc32(b, X64_CC_BE), pc);
    }
    if (uns && bits == 64) {
        fconst1(c, dbl, 9223372036854775808.0);
        x64_rr(b, pd, 0, 0x0F2E, 0, 1);
        size_t big = x64_jcc8(b, X64_CC_AE);
        x64_rr(b, pfx, 1, 0x0F2C, X64_RAX, 0);       /* cvtts[sd]2si rax, xmm0 */
        size_t done = x64_jmp8(b);
        x64_land8(b, big);
        x64_rr(b, pfx, 0, 0x0F5C, 0, 1);             /* subs[sd] xmm0, xmm1 */
        x64_rr(b, pfx, 1, 0x0F2C, X64_RAX, 0);
        x64_rr(b, 0, 1, 0x0FBA, 7, X64_RAX);         /* btc rax, 63 */
        x64_byte(b, 63);
        x64_land8(b, done);
    } else {
        x64_rr(b, pfx, uns || bits == 64, 0x0F2C, X64_RAX, 0);
    }
    if (sat) {
        size_t done = x64_jmp8(b);
        x64_land8(b, to_min);
        x64_mov_imm64(b, X64_RAX, min);
        size_t done_min = x64_jmp8(b);
        x64_land8(b, to_max);
        x64_mov_imm64(b, X64_RAX, max);
        size_t done_max = x64_jmp8(b);
        x64_land8(b, to_zero);
        x64_rr(b, 0, 0, 0x33, X64_RAX, X64_RAX);     /* xor eax, eax */
        x64_land8(b, done);
        x64_land8(b, done_min);
        x64_land8(b, done_max);
    }
    st64(c, X64_RAX, d);
}

/* ------------------------------------------------------------------------
 * Calls between compiled functions of the module (CALL_INTERNAL,
 * CALL_INDIRECT) and returns to a compiled caller: what the interpreter's
 * `enter` and RETURN do, on its own frame records (exec.h), so either side
 * can go on from them. Anything else (the callee not compiled yet, a limit
 * reached, a return to an interpreted caller, another instance, the last
 * frame) leaves at the operation, and the interpreter does it.
 *
 * The call itself is the machine's `call`, and a return to a record this
 * run pushed is its `ret` (jit_regs.native_base: the records from there up
 * each have their return address on the machine stack), so the CPU's
 * return predictor follows wasm's calls; a return to any other record
 * finds the caller's code through its map (emit_return). The epilogue
 * puts the machine stack back as weft_jit_enter_ found it, whatever calls
 * were open, so any exit stays what it was.
 * ------------------------------------------------------------------------ */
/* The callee's frame, from slot `base` up, within the stack (`enter`'s
   and `tail_call`'s check); else leaves. `self`: the callee is this
   function; else its cmp_func is in rax. Takes rsi and rdi. */
static void frame_fits(jit_cc *c, uint32_t pc, uint32_t base, bool self) {
    x64_buf *b = &c->b;
    if (self) {
        x64_rm_slot(b, 0, 1, 0x8D, X64_RDI, base + c->cf->frame_size);         /* rdi = the callee's frame end */
    } else {
        x64_rm_slot(b, 0, 1, 0x8D, X64_RSI, base);                             /* rsi = nfp */
        x64_rm_base(b, 0, 0, 0x8B, X64_RDI, X64_RAX, (int32_t)offsetof(cmp_func, frame_size));
        static const uint8_t lea_end[] = {0x48, 0x8D, 0x3C, 0xFE};             /* lea rdi, [rsi + rdi*8] */
        for (size_t i = 0; i < sizeof lea_end; i++) x64_byte(b, lea_end[i]);
    }
    x64_rm_base(b, 0, 1, 0x3B, X64_RDI, X64_RBP, R_STACK_END);
    exit_to(c, x64_jcc32(b, X64_CC_A), pc);                                    /* no stack */
}
/* The frame record and its checks, `enter`'s; rdx = the next free record
   on the way out. `self`: the callee is this function, whose frame size is
   a constant; else it is read from the cmp_func in rax. */
static void push_record(jit_cc *c, uint32_t pc, uint32_t base, uint32_t len, bool self) {
    x64_buf *b = &c->b;
    x64_rm_base(b, 0, 1, 0x8B, X64_RDX, X64_RBP, R_FRAME);
    x64_rm_base(b, 0, 1, 0x3B, X64_RDX, X64_RBP, R_FRAMES_END);
    exit_to(c, x64_jcc32(b, X64_CC_AE), pc);                                   /* no frame record */
    frame_fits(c, pc, base, self);
    x64_rm_base(b, 0, 1, 0x3B, X64_RSP, X64_RBP, R_RSP_LIMIT);
    exit_to(c, x64_jcc32(b, X64_CC_B), pc);                                    /* no machine stack */
    x64_mov_imm64(b, X64_RDI, (uint64_t)(uintptr_t)(c->cf->code + pc + len));
    x64_rm_base(b, 0, 1, 0x89, X64_RDI, X64_RDX, F_RET_IP);
    x64_rm_base(b, 0, 1, 0x89, X64_RBX, X64_RDX, F_FP);
    x64_mov_imm64(b, X64_RDI, (uint64_t)(uintptr_t)c->cf);
    x64_rm_base(b, 0, 1, 0x89, X64_RDI, X64_RDX, F_FN);
    x64_rm_base(b, 0, 1, 0x8B, X64_RDI, X64_RBP, R_INST);
    x64_rm_base(b, 0, 1, 0x89, X64_RDI, X64_RDX, F_INST);
    x64_rr(b, 0, 1, 0x83, 0, X64_RDX);                                         /* add rdx, sizeof record */
    x64_byte(b, (uint8_t)F_SIZE);
    x64_rm_base(b, 0, 1, 0x89, X64_RDX, X64_RBP, R_FRAME);
    x64_rm_slot(b, 0, 1, 0x8D, X64_RBX, base);                                 /* fp = nfp */
}
/* Where the callee's `ret` lands: fp back to the caller's frame, which
   starts `base` slots below the callee's. The next operation's code
   follows, where a return through the map (emit_return) lands, with fp
   read from the frame record. */
static void returned(jit_cc *c, uint32_t base) {
    x64_rm_base(&c->b, 0, 1, 0x8D, X64_RBX, X64_RBX, -(int32_t)(base * 8)); /* lea rbx, [rbx - 8*base] */
}
/* The call, rax = the callee's cmp_func (of this instance). The code after
   the call is the next operation's, where its return lands. */
static void call_compiled(jit_cc *c, uint32_t pc, uint32_t base, uint32_t len) {
    x64_buf *b = &c->b;
    x64_rm_base(b, 0, 1, 0x8B, X64_RCX, X64_RAX, (int32_t)offsetof(cmp_func, jit));
    x64_rr(b, 0, 1, 0x85, X64_RCX, X64_RCX);
    exit_to(c, x64_jcc32(b, X64_CC_E), pc);                                    /* not compiled */
    push_record(c, pc, base, len, false);
    x64_rm_base(b, 0, 0, 0xFF, 2, X64_RCX, (int32_t)offsetof(jit_func, entry)); /* call [rcx + entry] */
    returned(c, base);
}
static void call_internal(jit_cc *c, uint32_t pc, uint32_t own_index, uint32_t base) {
    if (own_index == c->own_index) { /* itself: its frame's size and its entry are known */
        push_record(c, pc, base, CMP_LEN_CALL_INTERNAL, true);
        x64_byte(&c->b, 0xE8); /* call rel32 to the entry, at 0 */
        x64_u32(&c->b, (uint32_t)-(int32_t)(c->b.len + 4));
        returned(c, base);
        return;
    }
    x64_rm_base(&c->b, 0, 1, 0x8B, X64_RAX, X64_RBP, R_CODE_TABLE);
    x64_rm_base(&c->b, 0, 1, 0x8B, X64_RAX, X64_RAX, (int32_t)(own_index * 8)); /* rax = the callee's cmp_func */
    call_compiled(c, pc, base, CMP_LEN_CALL_INTERNAL);
}
/* call_indirect and return_call_indirect (§4.4.8) of a function of this
   instance with machine code: INDIRECT_CALLEE's checks (interp.c), in its
   order; an index out of the table, a null element, a type that is not
   the same object (the interpreter then compares the types' structure), a
   host function or another instance's, and the interpreter makes the
   call, or the trap. Then rax = the callee's cmp_func; false (having
   left) when the operation always leaves. */
static bool indirect_callee(jit_cc *c, uint32_t pc, uint32_t type, uint32_t table, uint32_t index) {
    x64_buf *b = &c->b;
    if (table > JIT_MAX_SLOT || type >= c->m->ntypes) {
        leave_here(c, pc);
        return false;
    }
    x64_rm_base(b, 0, 1, 0x8B, X64_RDX, X64_RBP, R_INST);
    x64_rm_base(b, 0, 1, 0x8B, X64_RAX, X64_RDX, (int32_t)offsetof(weft_instance, tables));
    x64_rm_base(b, 0, 1, 0x8B, X64_RAX, X64_RAX, (int32_t)(table * 8));                /* rax = the table */
    ld32(c, X64_RCX, index);
    x64_rm_base(b, 0, 0, 0x3B, X64_RCX, X64_RAX, (int32_t)offsetof(weft_table, size));
    exit_to(c, x64_jcc32(b, X64_CC_AE), pc);                                          /* out of the table */
    x64_rm_base(b, 0, 1, 0x8B, X64_RAX, X64_RAX, (int32_t)offsetof(weft_table, elems));
    static const uint8_t ld_elem[] = {0x48, 0x8B, 0x04, 0xC8};                        /* mov rax, [rax + rcx*8] */
    for (size_t i = 0; i < sizeof ld_elem; i++) x64_byte(b, ld_elem[i]);
    x64_rr(b, 0, 1, 0x85, X64_RAX, X64_RAX);
    exit_to(c, x64_jcc32(b, X64_CC_E), pc);                                           /* null */
    x64_rm_base(b, 0, 1, 0x3B, X64_RDX, X64_RAX, (int32_t)offsetof(weft_func, inst));
    exit_to(c, x64_jcc32(b, X64_CC_NE), pc);                                          /* another instance */
    x64_mov_imm64(b, X64_RDX, (uint64_t)(uintptr_t)&c->m->types[type]);               /* this module's, so ours */
    x64_rm_base(b, 0, 1, 0x3B, X64_RDX, X64_RAX, (int32_t)offsetof(weft_func, type));
    exit_to(c, x64_jcc32(b, X64_CC_NE), pc);                                          /* not the same type object */
    x64_rm_base(b, 0, 1, 0x8B, X64_RAX, X64_RAX, (int32_t)offsetof(weft_func, code));
    x64_rr(b, 0, 1, 0x85, X64_RAX, X64_RAX);
    exit_to(c, x64_jcc32(b, X64_CC_E), pc);                                           /* a host function */
    return true;
}
static void call_indirect(jit_cc *c, uint32_t pc, uint32_t type, uint32_t table, uint32_t index, uint32_t base) {
    if (indirect_callee(c, pc, type, table, index)) call_compiled(c, pc, base, CMP_LEN_CALL_INDIRECT);
}

/* Tail calls (return_call, return_call_indirect; the interpreter's
   `tail_call`): the callee takes over this frame and its record, so its
   `ret` returns to our caller, and nothing is pushed. Every check comes
   before the arguments move down to fp[0..] (a move cannot be undone, and
   an exit hands the operation to the interpreter from its start): the
   callee compiled (rax = its cmp_func, or `self`), its frame within the
   stack. Then the `n` argument slots at `base` go to slots 0..n-1 (in
   ascending order: base > 0, so no slot is read after it is written) and
   the code jumps to the callee's entry, whose safe point counts the call
   as the interpreter's does. */
#define JIT_TAIL_ARGS 64 /* more argument slots: the interpreter moves them */
static void tail_compiled(jit_cc *c, uint32_t pc, uint32_t base, uint32_t n, bool self) {
    x64_buf *b = &c->b;
    if (n > JIT_TAIL_ARGS) {
        leave_here(c, pc);
        return;
    }
    if (!self) {
        x64_rm_base(b, 0, 1, 0x8B, X64_RCX, X64_RAX, (int32_t)offsetof(cmp_func, jit));
        x64_rr(b, 0, 1, 0x85, X64_RCX, X64_RCX);
        exit_to(c, x64_jcc32(b, X64_CC_E), pc);                                 /* not compiled */
    }
    frame_fits(c, pc, 0, self);
    for (uint32_t k = 0; k < n && base; k++) {
        x64_rm_slot(b, 0, 1, 0x8B, X64_RDX, base + k);
        x64_rm_slot(b, 0, 1, 0x89, X64_RDX, k);
    }
    if (self) {
        x64_patch_rel32(b, x64_jmp32(b), 0);                                    /* jmp to the entry, at 0 */
    } else {
        x64_rm_base(b, 0, 0, 0xFF, 4, X64_RCX, (int32_t)offsetof(jit_func, entry)); /* jmp [rcx + entry] */
    }
}
static void return_call(jit_cc *c, uint32_t pc, uint32_t func, uint32_t n, uint32_t base) {
    if (func < c->m->nfunc_imports) { /* a host function: the interpreter calls it */
        leave_here(c, pc);
        return;
    }
    uint32_t own = func - c->m->nfunc_imports;
    if (own != c->own_index) {
        x64_rm_base(&c->b, 0, 1, 0x8B, X64_RAX, X64_RBP, R_CODE_TABLE);
        x64_rm_base(&c->b, 0, 1, 0x8B, X64_RAX, X64_RAX, (int32_t)(own * 8)); /* rax = the callee's cmp_func */
    }
    tail_compiled(c, pc, base, n, own == c->own_index);
}
static void emit_return(jit_cc *c, uint32_t pc) {
    x64_buf *b = &c->b;
    /* A record this run pushed: the caller is compiled, of this instance,
       and its return address is on the machine stack. */
    x64_rm_base(b, 0, 1, 0x8B, X64_RDX, X64_RBP, R_FRAME);
    x64_rm_base(b, 0, 1, 0x3B, X64_RDX, X64_RBP, R_NATIVE_BASE);
    size_t older = x64_jcc32(b, X64_CC_BE);
    x64_rr(b, 0, 1, 0x83, 5, X64_RDX);                                         /* sub rdx, sizeof record */
    x64_byte(b, (uint8_t)F_SIZE);
    x64_rm_base(b, 0, 1, 0x89, X64_RDX, X64_RBP, R_FRAME);
    x64_byte(b, 0xC3);                                                         /* ret (to `returned`) */
    /* An older record: the interpreter's, or pushed before the last time
       the machine code was entered. */
    x64_patch_rel32(b, older, b->len);
    x64_rm_base(b, 0, 1, 0x3B, X64_RDX, X64_RBP, R_FRAMES_BASE);
    exit_to(c, x64_jcc32(b, X64_CC_E), pc);                                    /* the last frame: finished */
    x64_rm_base(b, 0, 1, 0x8B, X64_RAX, X64_RDX, F_FN - F_SIZE);               /* the caller */
    x64_rm_base(b, 0, 1, 0x8B, X64_RSI, X64_RAX, (int32_t)offsetof(cmp_func, jit));
    x64_rr(b, 0, 1, 0x85, X64_RSI, X64_RSI);
    exit_to(c, x64_jcc32(b, X64_CC_E), pc);                                    /* interpreted */
    x64_rm_base(b, 0, 1, 0x8B, X64_RCX, X64_RDX, F_INST - F_SIZE);
    x64_rm_base(b, 0, 1, 0x3B, X64_RCX, X64_RBP, R_INST);
    exit_to(c, x64_jcc32(b, X64_CC_NE), pc);                                   /* another instance */
    x64_rr(b, 0, 1, 0x83, 5, X64_RDX);                                         /* sub rdx, sizeof record */
    x64_byte(b, (uint8_t)F_SIZE);
    x64_rm_base(b, 0, 1, 0x89, X64_RDX, X64_RBP, R_FRAME);
    x64_rm_base(b, 0, 1, 0x89, X64_RDX, X64_RBP, R_NATIVE_BASE);              /* calls from here push above it */
    x64_rm_base(b, 0, 1, 0x8B, X64_RBX, X64_RDX, F_FP);
    /* Go on at the return address's code: jit->code + jit->map[ret_ip - code]. */
    x64_rm_base(b, 0, 1, 0x8B, X64_RCX, X64_RDX, F_RET_IP);
    x64_rm_base(b, 0, 1, 0x2B, X64_RCX, X64_RAX, (int32_t)offsetof(cmp_func, code));
    x64_rr(b, 0, 1, 0xC1, 5, X64_RCX);                                         /* shr rcx, 2 */
    x64_byte(b, 2);
    x64_rm_base(b, 0, 1, 0x8B, X64_RDI, X64_RSI, (int32_t)offsetof(jit_func, map));
    static const uint8_t ld_map[] = {0x8B, 0x0C, 0x8F};                        /* mov ecx, [rdi + rcx*4] */
    for (size_t i = 0; i < sizeof ld_map; i++) x64_byte(b, ld_map[i]);
    x64_rm_base(b, 0, 1, 0x03, X64_RCX, X64_RSI, (int32_t)offsetof(jit_func, code));
    x64_byte(b, 0xFF);                                                         /* jmp rcx */
    x64_byte(b, 0xE1);
}
/* The entry of a compiled call (jit_func.entry): exec_frame_init, then the
   entry's safe point, as `enter` does it. */
static void emit_entry(jit_cc *c) {
    x64_buf *b = &c->b;
    const cmp_func *cf = c->cf;
    uint32_t nzero = cf->nlocals - cf->nparams;
    if (nzero <= 16) {
        if (nzero) x64_rr(b, 0, 0, 0x33, X64_RAX, X64_RAX);                   /* xor eax, eax */
        for (uint32_t i = cf->nparams; i < cf->nlocals; i++) st64_frame(c, X64_RAX, i);
    } else {
        x64_rm_slot(b, 0, 1, 0x8D, X64_RDI, cf->nparams);                       /* lea rdi, first */
        x64_mov_imm32(b, X64_RCX, nzero);
        x64_rr(b, 0, 0, 0x33, X64_RAX, X64_RAX);
        x64_byte(b, 0xF3);                                                      /* rep stosq */
        x64_byte(b, 0x48);
        x64_byte(b, 0xAB);
    }
    if (cf->nconsts <= 16) {
        for (uint32_t i = 0; i < cf->nconsts; i++) {
            x64_mov_imm64(b, X64_RAX, cf->consts[i]);
            st64_frame(c, X64_RAX, cf->nlocals + i);
        }
    } else {
        x64_rm_slot(b, 0, 1, 0x8D, X64_RDI, cf->nlocals);
        x64_mov_imm64(b, X64_RSI, (uint64_t)(uintptr_t)cf->consts);
        x64_mov_imm32(b, X64_RCX, cf->nconsts);
        x64_byte(b, 0xF3);                                                      /* rep movsq */
        x64_byte(b, 0x48);
        x64_byte(b, 0xA5);
    }
    x64_byte(b, 0x41);                                                          /* cmp dword [r14], 0 */
    x64_byte(b, 0x83);
    x64_byte(b, 0x3E);
    x64_byte(b, 0x00);
    c->attention_exit = x64_jcc32(b, X64_CC_NE);
    /* word 0's code follows */
}

/* ------------------------------------------------------------------------
 * One operation.
 * ------------------------------------------------------------------------ */
static uint32_t first_of_pair(uint32_t op) {
    static const uint16_t first[] = {
#define CMP_PAIR_FORM(op_, a, b, form) CMP_##a,
        CMP_PAIR_FORMS
#undef CMP_PAIR_FORM
    };
#define CMP_X_COUNT(name, ...) +1
    enum { NBASE = 0 CMP_OPS(CMP_X_COUNT) };
#undef CMP_X_COUNT
    return op >= NBASE && op - NBASE < sizeof first / sizeof first[0] ? first[op - NBASE] : op;
}

/* The words of the operation at pc holding branch targets: the first,
   and *last (cmp_target_words; 0 when it has none). */
static uint32_t target_words(const jit_cc *c, uint32_t pc, uint32_t *last) {
    uint32_t at[3] = {first_of_pair(c->code[pc]), 0, pc + 2 < c->cf->code_len ? c->code[pc + 2] : 0};
    return cmp_target_words(at, last);
}

static const int int_cc[] = {X64_CC_E, X64_CC_NE, X64_CC_L, X64_CC_B, X64_CC_G,
                             X64_CC_A, X64_CC_LE, X64_CC_BE, X64_CC_GE, X64_CC_AE};

/* ------------------------------------------------------------------------
 * Loop registers. The register cache empties at every label, so a loop
 * would carry its variables from one iteration to the next through the
 * frame: a store, then a load of it at the loop's top (store-to-load
 * forwarding puts ~5 cycles on the loop's dependency chain). Where a
 * loop's label starts a straight run that branches back to it (an
 * innermost loop without calls or inner labels: sieve's and quicksort's
 * scans), the run is emitted twice: first as any run, noting how it
 * reads and writes its slots (pin_note); at the branch back, up to
 * JIT_NPIN of those slots are chosen, the emission is rewound to the
 * label and the run emitted again with each chosen slot pinned to a cache
 * register of its own (emit.h, cache_take_gp). The label's code (map[],
 * where the interpreter, the meter's stub and branches from other runs
 * arrive with the frame exact) loads them; past it, at loop_top, they
 * count as dirty, so every exit's stub and the run's end write them back
 * as any dirty register. A branch back from the run writes back the
 * other dirty registers, reloads a pinned one whose slot it lost (a write
 * that went to an XMM register or to the frame dropped it) and jumps to
 * loop_top (loop_conform). The choice affects only speed: any set of
 * slots gives the same frame at every exit.
 * ------------------------------------------------------------------------ */
/* Whether the operation at pc (a branch) may jump to `target`. */
static bool branches_to(const jit_cc *c, uint32_t pc, uint32_t target) {
    uint32_t last;
    for (uint32_t k = target_words(c, pc, &last); k && k <= last; k++)
        if (target_of(c->code, pc, k) == target) return true;
    return false;
}
/* A run starts at `pc`: at a loop's label, note its first emission. */
static void loop_start(jit_cc *c, uint32_t pc) {
    if (!(c->marks[pc] & JIT_LOOP)) return;
    c->loop_pc = pc;
    c->noting = true;
    c->nnotes = 0;
    c->at.len = c->b.len;
    c->at.njumps = c->njumps;
    c->at.nexits = c->nexits;
    c->at.nsnaps = c->nsnaps;
    c->at.gp_next = c->gp_next;
    c->at.xmm_next = c->xmm_next;
}
/* The first emission reached a branch back to loop_pc: chooses the slots
   to pin (those the run writes and reads from the frame, then those it
   reads from it twice or more, most reads first; none a float operation
   reads or writes, which would go through the frame), rewinds to the label
   and loads them there. False (nothing rewound) when none is worth it. */
static bool loop_pin(jit_cc *c) {
    c->noting = false;
    uint32_t chosen[JIT_NPIN], n = 0;
    while (n < JIT_NPIN) {
        int best = -1;
        uint32_t best_score = 0;
        for (uint32_t i = 0; i < c->nnotes; i++) {
            const jit_note *t = &c->notes[i];
            if ((t->how & PIN_XMM) || !t->reads || (!(t->how & PIN_WRITE) && t->reads < 2)) continue;
            uint32_t score = t->reads * 2 + ((t->how & PIN_WRITE) ? 3 : 0);
            if (score > best_score) best = (int)i, best_score = score;
        }
        if (best < 0) break;
        chosen[n++] = c->notes[best].slot;
        c->notes[best].how |= PIN_XMM; /* taken */
    }
    if (!n) return false;
    c->b.len = c->at.len;
    c->njumps = c->at.njumps;
    c->nexits = c->at.nexits;
    c->nsnaps = c->at.nsnaps;
    c->gp_next = c->at.gp_next;
    c->xmm_next = c->at.xmm_next;
    cache_clear(c);
    c->map[c->loop_pc] = (uint32_t)c->b.len;
    for (uint32_t k = 0; k < n; k++) {
        int i = 2 + (int)k; /* r8, r9, r10: byte forms need no care */
        x64_rm_slot(&c->b, 0, 1, 0x8B, cache_gp_reg[i], chosen[k]); /* mov r, [slot] */
        c->gp[i] = chosen[k] + 1;
        c->pin_slot[i] = chosen[k];
        c->pin_locked |= 1u << i;
        c->gp_dirty |= 1u << i;
    }
    c->loop_top = c->b.len;
    c->pinned = true;
    atomic_fetch_add_explicit(&jit_loops, 1, memory_order_relaxed);
    return true;
}
/* Before a branch back to loop_top: every register but the loop's written
   back, and each loop register holding its slot again. */
static void loop_conform(jit_cc *c) {
    for (int i = 0; i < JIT_NGP; i++)
        if (!(c->pin_locked >> i & 1)) gp_writeback(c, i);
    for (int i = 0; i < JIT_NXMM; i++) xmm_writeback(c, i);
    for (int i = 0; i < JIT_NGP; i++)
        if ((c->pin_locked >> i & 1) && c->gp[i] != c->pin_slot[i] + 1) {
            x64_rm_slot(&c->b, 0, 1, 0x8B, cache_gp_reg[i], c->pin_slot[i]);
            c->gp[i] = c->pin_slot[i] + 1;
        }
}

/* Emits the operation at pc; false when it is not one the tier handles. */
/* A big 64-bit memory 0's plain load or store (docs/pipeline.md, "64-bit
   addresses, big memories"): ADDR64_WIN, the access with offset 0 and
   MEM_SELECT 0, in machine code as one. The effective address is the
   64-bit address + offset; a sum past 2^64, or an end past r13, leaves at
   ADDR64_WIN (the interpreter traps, or finds the memory grown, and its
   MEM_SELECT 0 comes back); then the access at [r12 + ea]. False when the
   three are not that (an atomic access, another memory, SIMD): ADDR64_WIN
   is then an exit, and the interpreter runs the three. */
static bool big_access(jit_cc *c, uint32_t pc) {
    const uint32_t *ip = c->code + pc;
    uint32_t next = pc + CMP_LEN_ADDR64_WIN;
    if (ip[6] != 0 || ip[7] != 0 || next >= c->cf->code_len) return false;
    const uint32_t *a = c->code + next;
    load_form lf;
    bool ld = load_form_of(a[0], &lf), st = a[0] >= CMP_STORE8 && a[0] <= CMP_STORE64;
    if (!ld && !st) return false;
    uint32_t sel = next + cmp_op_length(a);
    if (sel + 1 >= c->cf->code_len || c->code[sel] != CMP_MEM_SELECT || c->code[sel + 1] != 0) return false;
    if ((ld ? a[2] : a[1]) != ip[1] || a[3] != 0) return false;
    if ((c->marks[next] | c->marks[sel]) & JIT_LABEL) return false;
    uint32_t n = ld ? lf.n : 1u << (a[0] - CMP_STORE8);
    uint64_t off = ip[3] | (uint64_t)ip[4] << 32;
    ld64(c, X64_RAX, ip[2]);
    if (off) {
        x64_mov_imm64(&c->b, X64_RCX, off);
        x64_rr(&c->b, 0, 1, 0x03, X64_RAX, X64_RCX);        /* add rax, rcx */
        exit_to(c, x64_jcc32(&c->b, X64_CC_B), pc);        /* past 2^64 */
    }
    x64_rr(&c->b, 0, 1, 0x8B, X64_RCX, X64_RAX);            /* mov rcx, rax */
    alu_imm(c, 1, AL_ADD, X64_RCX, n);                     /* add rcx, n */
    exit_to(c, x64_jcc32(&c->b, X64_CC_B), pc);
    x64_rr(&c->b, 0, 1, 0x39, X64_R13, X64_RCX);            /* cmp rcx, r13 */
    exit_to(c, x64_jcc32(&c->b, X64_CC_A), pc);
    if (ld) {
        x64_rm_mem(&c->b, lf.pfx, lf.w, lf.opc, X64_RAX, 0);
        st64(c, X64_RAX, a[1]);
    } else {
        ld64(c, X64_RDX, a[2]);
        x64_rm_mem(&c->b, n == 2 ? 0x66 : 0, n == 8, n == 1 ? 0x88 : 0x89, X64_RDX, 0);
    }
    c->skip_from = pc;
    c->skip_to = sel + CMP_LEN_MEM_SELECT;
    return true;
}

static bool emit_op(jit_cc *c, uint32_t pc) {
    const uint32_t *ip = c->code + pc;
    uint32_t op = first_of_pair(ip[0]);
    load_form lf;
    if (pc > c->skip_from && pc < c->skip_to) return true; /* made with big_access's */
    switch (op) {
    /* comparisons: EQ NE LT_S LT_U GT_S GT_U LE_S LE_U GE_S GE_U, in the table's order */
    case CMP_I32_EQZ: case CMP_I64_EQZ:
        cmp_imm(c, op == CMP_I64_EQZ, ip[2], 0);
        set_bool(c, X64_CC_E, ip[1]);
        return true;
    case CMP_I32_EQ ... CMP_I32_GE_U:
        cmp_slot(c, 0, ip[2], ip[3]);
        set_bool(c, int_cc[op - CMP_I32_EQ], ip[1]);
        return true;
    case CMP_I64_EQ ... CMP_I64_GE_U:
        cmp_slot(c, 1, ip[2], ip[3]);
        set_bool(c, int_cc[op - CMP_I64_EQ], ip[1]);
        return true;
    case CMP_I32_EQ_IMM ... CMP_I32_GE_U_IMM:
        cmp_imm(c, 0, ip[2], ip[3]);
        set_bool(c, int_cc[op - CMP_I32_EQ_IMM], ip[1]);
        return true;
    case CMP_I64_EQ_IMM ... CMP_I64_GE_U_IMM:
        cmp_imm(c, 1, ip[2], ip[3]);
        set_bool(c, int_cc[op - CMP_I64_EQ_IMM], ip[1]);
        return true;
    case CMP_F32_EQ ... CMP_F32_GE: fcmp(c, 0, (int)(op - CMP_F32_EQ), ip[1], ip[2], ip[3]); return true;
    case CMP_F64_EQ ... CMP_F64_GE: fcmp(c, 1, (int)(op - CMP_F64_EQ), ip[1], ip[2], ip[3]); return true;

    /* integer arithmetic */
    case CMP_I32_ADD: bin(c, 0, AL_ADD, ip[1], ip[2], ip[3]); return true;
    case CMP_I32_SUB: bin(c, 0, AL_SUB, ip[1], ip[2], ip[3]); return true;
    case CMP_I32_MUL: bin(c, 0, AL_MUL, ip[1], ip[2], ip[3]); return true;
    case CMP_I32_AND: bin(c, 0, AL_AND, ip[1], ip[2], ip[3]); return true;
    case CMP_I32_OR: bin(c, 0, AL_OR, ip[1], ip[2], ip[3]); return true;
    case CMP_I32_XOR: bin(c, 0, AL_XOR, ip[1], ip[2], ip[3]); return true;
    case CMP_I32_SHL: bin(c, 0, AL_SHL, ip[1], ip[2], ip[3]); return true;
    case CMP_I32_SHR_S: bin(c, 0, AL_SHR_S, ip[1], ip[2], ip[3]); return true;
    case CMP_I32_SHR_U: bin(c, 0, AL_SHR_U, ip[1], ip[2], ip[3]); return true;
    case CMP_I32_ROTL: bin(c, 0, AL_ROTL, ip[1], ip[2], ip[3]); return true;
    case CMP_I32_ROTR: bin(c, 0, AL_ROTR, ip[1], ip[2], ip[3]); return true;
    case CMP_I64_ADD: bin(c, 1, AL_ADD, ip[1], ip[2], ip[3]); return true;
    case CMP_I64_SUB: bin(c, 1, AL_SUB, ip[1], ip[2], ip[3]); return true;
    case CMP_I64_MUL: bin(c, 1, AL_MUL, ip[1], ip[2], ip[3]); return true;
    case CMP_I64_AND: bin(c, 1, AL_AND, ip[1], ip[2], ip[3]); return true;
    case CMP_I64_OR: bin(c, 1, AL_OR, ip[1], ip[2], ip[3]); return true;
    case CMP_I64_XOR: bin(c, 1, AL_XOR, ip[1], ip[2], ip[3]); return true;
    case CMP_I64_SHL: bin(c, 1, AL_SHL, ip[1], ip[2], ip[3]); return true;
    case CMP_I64_SHR_S: bin(c, 1, AL_SHR_S, ip[1], ip[2], ip[3]); return true;
    case CMP_I64_SHR_U: bin(c, 1, AL_SHR_U, ip[1], ip[2], ip[3]); return true;
    case CMP_I64_ROTL: bin(c, 1, AL_ROTL, ip[1], ip[2], ip[3]); return true;
    case CMP_I64_ROTR: bin(c, 1, AL_ROTR, ip[1], ip[2], ip[3]); return true;
    case CMP_I32_ADD_IMM: bin_imm(c, 0, AL_ADD, ip[1], ip[2], ip[3]); return true;
    case CMP_I32_SUB_IMM: bin_imm(c, 0, AL_SUB, ip[1], ip[2], ip[3]); return true;
    case CMP_I32_MUL_IMM: bin_imm(c, 0, AL_MUL, ip[1], ip[2], ip[3]); return true;
    case CMP_I32_AND_IMM: bin_imm(c, 0, AL_AND, ip[1], ip[2], ip[3]); return true;
    case CMP_I32_OR_IMM: bin_imm(c, 0, AL_OR, ip[1], ip[2], ip[3]); return true;
    case CMP_I32_XOR_IMM: bin_imm(c, 0, AL_XOR, ip[1], ip[2], ip[3]); return true;
    case CMP_I32_SHL_IMM: bin_imm(c, 0, AL_SHL, ip[1], ip[2], ip[3]); return true;
    case CMP_I32_SHR_S_IMM: bin_imm(c, 0, AL_SHR_S, ip[1], ip[2], ip[3]); return true;
    case CMP_I32_SHR_U_IMM: bin_imm(c, 0, AL_SHR_U, ip[1], ip[2], ip[3]); return true;
    case CMP_I32_ROTL_IMM: bin_imm(c, 0, AL_ROTL, ip[1], ip[2], ip[3]); return true;
    case CMP_I64_ADD_IMM: bin_imm(c, 1, AL_ADD, ip[1], ip[2], ip[3]); return true;
    case CMP_I64_SUB_IMM: bin_imm(c, 1, AL_SUB, ip[1], ip[2], ip[3]); return true;
    case CMP_I64_MUL_IMM: bin_imm(c, 1, AL_MUL, ip[1], ip[2], ip[3]); return true;
    case CMP_I64_AND_IMM: bin_imm(c, 1, AL_AND, ip[1], ip[2], ip[3]); return true;
    case CMP_I64_OR_IMM: bin_imm(c, 1, AL_OR, ip[1], ip[2], ip[3]); return true;
    case CMP_I64_XOR_IMM: bin_imm(c, 1, AL_XOR, ip[1], ip[2], ip[3]); return true;
    case CMP_I64_SHL_IMM: bin_imm(c, 1, AL_SHL, ip[1], ip[2], ip[3]); return true;
    case CMP_I64_SHR_S_IMM: bin_imm(c, 1, AL_SHR_S, ip[1], ip[2], ip[3]); return true;
    case CMP_I64_SHR_U_IMM: bin_imm(c, 1, AL_SHR_U, ip[1], ip[2], ip[3]); return true;
    case CMP_I64_ROTL_IMM: bin_imm(c, 1, AL_ROTL, ip[1], ip[2], ip[3]); return true;
    case CMP_I32_DIV_S: divide(c, pc, 0, true, false, ip[1], ip[2], ip[3]); return true;
    case CMP_I32_DIV_U: divide(c, pc, 0, false, false, ip[1], ip[2], ip[3]); return true;
    case CMP_I32_REM_S: divide(c, pc, 0, true, true, ip[1], ip[2], ip[3]); return true;
    case CMP_I32_REM_U: divide(c, pc, 0, false, true, ip[1], ip[2], ip[3]); return true;
    case CMP_I64_DIV_S: divide(c, pc, 1, true, false, ip[1], ip[2], ip[3]); return true;
    case CMP_I64_DIV_U: divide(c, pc, 1, false, false, ip[1], ip[2], ip[3]); return true;
    case CMP_I64_REM_S: divide(c, pc, 1, true, true, ip[1], ip[2], ip[3]); return true;
    case CMP_I64_REM_U: divide(c, pc, 1, false, true, ip[1], ip[2], ip[3]); return true;
    case CMP_I32_CLZ: count_bits(c, 0, true, ip[1], ip[2]); return true;
    case CMP_I32_CTZ: count_bits(c, 0, false, ip[1], ip[2]); return true;
    case CMP_I64_CLZ: count_bits(c, 1, true, ip[1], ip[2]); return true;
    case CMP_I64_CTZ: count_bits(c, 1, false, ip[1], ip[2]); return true;
    case CMP_I32_POPCNT: case CMP_I64_POPCNT:
        if (!cpu_has_popcnt) { /* not in the x86-64 baseline: the interpreter counts */
            leave_here(c, pc);
            return true;
        }
        rd(c, 0xF3, op == CMP_I64_POPCNT, 0x0FB8, X64_RAX, ip[2]); /* popcnt rax, [a] (F3 (W) 0F B8 /r) */
        st64(c, X64_RAX, ip[1]);
        return true;
    case CMP_I32_WRAP_I64: ld32(c, X64_RAX, ip[2]); st64(c, X64_RAX, ip[1]); return true;
    case CMP_I64_EXTEND_I32_S: case CMP_I64_EXTEND32_S:
        rd(c, 0, 1, 0x63, X64_RAX, ip[2]);
        st64(c, X64_RAX, ip[1]);
        return true;
    case CMP_I32_EXTEND8_S: case CMP_I32_EXTEND16_S: case CMP_I64_EXTEND8_S: case CMP_I64_EXTEND16_S: {
        bool byte = op == CMP_I32_EXTEND8_S || op == CMP_I64_EXTEND8_S;
        bool w = op == CMP_I64_EXTEND8_S || op == CMP_I64_EXTEND16_S;
        rd(c, 0, w, byte ? 0x0FBE : 0x0FBF, X64_RAX, ip[2]);
        st64(c, X64_RAX, ip[1]);
        return true;
    }
    case CMP_I32_SHR_U_AND: /* dst, a, shift, mask */
        ld32(c, X64_RAX, ip[2]);
        alu_imm(c, 0, AL_SHR_U, X64_RAX, ip[3]);
        alu_imm(c, 0, AL_AND, X64_RAX, ip[4]);
        st64(c, X64_RAX, ip[1]);
        return true;
    case CMP_I32_XOR_ROTL: /* dst, a, b, k: a ^ rotl(b, k) */
        ld32(c, X64_RAX, ip[3]);
        alu_imm(c, 0, AL_ROTL, X64_RAX, ip[4]);
        alu_slot(c, 0, AL_XOR, X64_RAX, ip[2]);
        st64(c, X64_RAX, ip[1]);
        return true;
    case CMP_I32_ADD3:
        ld32(c, X64_RAX, ip[2]);
        alu_slot(c, 0, AL_ADD, X64_RAX, ip[3]);
        alu_slot(c, 0, AL_ADD, X64_RAX, ip[4]);
        st64(c, X64_RAX, ip[1]);
        return true;

    /* floating point */
    case CMP_F32_ADD: fbin(c, 0, 0x58, ip[1], ip[2], ip[3]); return true;
    case CMP_F32_SUB: fbin(c, 0, 0x5C, ip[1], ip[2], ip[3]); return true;
    case CMP_F32_MUL: fbin(c, 0, 0x59, ip[1], ip[2], ip[3]); return true;
    case CMP_F32_DIV: fbin(c, 0, 0x5E, ip[1], ip[2], ip[3]); return true;
    case CMP_F64_ADD: fbin(c, 1, 0x58, ip[1], ip[2], ip[3]); return true;
    case CMP_F64_SUB: fbin(c, 1, 0x5C, ip[1], ip[2], ip[3]); return true;
    case CMP_F64_MUL: fbin(c, 1, 0x59, ip[1], ip[2], ip[3]); return true;
    case CMP_F64_DIV: fbin(c, 1, 0x5E, ip[1], ip[2], ip[3]); return true;
    case CMP_F32_SQRT: fsqrt(c, 0, ip[1], ip[2]); return true;
    case CMP_F64_SQRT: fsqrt(c, 1, ip[1], ip[2]); return true;
    case CMP_F32_ABS: fsign(c, 0, 6, ip[1], ip[2]); return true;
    case CMP_F32_NEG: fsign(c, 0, 7, ip[1], ip[2]); return true;
    case CMP_F64_ABS: fsign(c, 1, 6, ip[1], ip[2]); return true;
    case CMP_F64_NEG: fsign(c, 1, 7, ip[1], ip[2]); return true;
    case CMP_F32_CONVERT_I32_S: fconvert(c, 0, ip[1], ip[2], 0); return true;
    case CMP_F32_CONVERT_I32_U: fconvert(c, 0, ip[1], ip[2], 1); return true;
    case CMP_F32_CONVERT_I64_S: fconvert(c, 0, ip[1], ip[2], 2); return true;
    case CMP_F64_CONVERT_I32_S: fconvert(c, 1, ip[1], ip[2], 0); return true;
    case CMP_F64_CONVERT_I32_U: fconvert(c, 1, ip[1], ip[2], 1); return true;
    case CMP_F64_CONVERT_I64_S: fconvert(c, 1, ip[1], ip[2], 2); return true;
    case CMP_F32_CONVERT_I64_U: fconvert_u64(c, 0, ip[1], ip[2]); return true;
    case CMP_F64_CONVERT_I64_U: fconvert_u64(c, 1, ip[1], ip[2]); return true;
    case CMP_F32_COPYSIGN: fcopysign(c, 0, ip[1], ip[2], ip[3]); return true;
    case CMP_F64_COPYSIGN: fcopysign(c, 1, ip[1], ip[2], ip[3]); return true;
    case CMP_F32_MIN: fminmax(c, pc, 0, false, ip[1], ip[2], ip[3]); return true;
    case CMP_F32_MAX: fminmax(c, pc, 0, true, ip[1], ip[2], ip[3]); return true;
    case CMP_F64_MIN: fminmax(c, pc, 1, false, ip[1], ip[2], ip[3]); return true;
    case CMP_F64_MAX: fminmax(c, pc, 1, true, ip[1], ip[2], ip[3]); return true;
    case CMP_F32_CEIL ... CMP_F32_NEAREST: case CMP_F64_CEIL ... CMP_F64_NEAREST: {
        /* ceil floor trunc nearest, in the table's order: modes 2 1 3 0 */
        static const uint8_t mode[] = {2, 1, 3, 0};
        bool dbl = op >= CMP_F64_CEIL;
        if (!cpu_has_sse41) { /* no roundss: the interpreter rounds */
            leave_here(c, pc);
            return true;
        }
        fround(c, dbl, mode[op - (dbl ? CMP_F64_CEIL : CMP_F32_CEIL)], ip[1], ip[2]);
        return true;
    }
    case CMP_I32_TRUNC_F32_S: ftrunc(c, pc, 0, 32, false, false, ip[1], ip[2]); return true;
    case CMP_I32_TRUNC_F32_U: ftrunc(c, pc, 0, 32, true, false, ip[1], ip[2]); return true;
    case CMP_I32_TRUNC_F64_S: ftrunc(c, pc, 1, 32, false, false, ip[1], ip[2]); return true;
    case CMP_I32_TRUNC_F64_U: ftrunc(c, pc, 1, 32, true, false, ip[1], ip[2]); return true;
    case CMP_I64_TRUNC_F32_S: ftrunc(c, pc, 0, 64, false, false, ip[1], ip[2]); return true;
    case CMP_I64_TRUNC_F32_U: ftrunc(c, pc, 0, 64, true, false, ip[1], ip[2]); return true;
    case CMP_I64_TRUNC_F64_S: ftrunc(c, pc, 1, 64, false, false, ip[1], ip[2]); return true;
    case CMP_I64_TRUNC_F64_U: ftrunc(c, pc, 1, 64, true, false, ip[1], ip[2]); return true;
    case CMP_I32_TRUNC_SAT_F32_S: ftrunc(c, pc, 0, 32, false, true, ip[1], ip[2]); return true;
    case CMP_I32_TRUNC_SAT_F32_U: ftrunc(c, pc, 0, 32, true, true, ip[1], ip[2]); return true;
    case CMP_I32_TRUNC_SAT_F64_S: ftrunc(c, pc, 1, 32, false, true, ip[1], ip[2]); return true;
    case CMP_I32_TRUNC_SAT_F64_U: ftrunc(c, pc, 1, 32, true, true, ip[1], ip[2]); return true;
    case CMP_I64_TRUNC_SAT_F32_S: ftrunc(c, pc, 0, 64, false, true, ip[1], ip[2]); return true;
    case CMP_I64_TRUNC_SAT_F32_U: ftrunc(c, pc, 0, 64, true, true, ip[1], ip[2]); return true;
    case CMP_I64_TRUNC_SAT_F64_S: ftrunc(c, pc, 1, 64, false, true, ip[1], ip[2]); return true;
    case CMP_I64_TRUNC_SAT_F64_U: ftrunc(c, pc, 1, 64, true, true, ip[1], ip[2]); return true;
    case CMP_F64_PROMOTE_F32: case CMP_F32_DEMOTE_F64: {
        bool up = op == CMP_F64_PROMOTE_F32;
        rd_xmm(c, up ? 0xF3 : 0xF2, 0x0F5A, 0, ip[2]);
        st_xmm0(c, up, ip[1]);
        return true;
    }

    /* data movement */
    case CMP_COPY: ld64(c, X64_RAX, ip[2]); st64(c, X64_RAX, ip[1]); return true;
    case CMP_COPY2: /* the second source is read after the first store */
        ld64(c, X64_RAX, ip[2]);
        st64(c, X64_RAX, ip[1]);
        ld64(c, X64_RAX, ip[4]);
        st64(c, X64_RAX, ip[3]);
        return true;
    case CMP_CONST32: x64_mov_imm32(&c->b, X64_RAX, ip[2]); st64(c, X64_RAX, ip[1]); return true;
    case CMP_CONST64:
        x64_mov_imm64(&c->b, X64_RAX, (uint64_t)ip[2] | (uint64_t)ip[3] << 32);
        st64(c, X64_RAX, ip[1]);
        return true;
    case CMP_SELECT: /* dst, cond, a (if cond), b */
        ld64(c, X64_RAX, ip[3]);
        cmp_imm(c, 0, ip[2], 0);
        rd(c, 0, 1, 0x0F44, X64_RAX, ip[4]); /* cmove rax, [b] */
        st64(c, X64_RAX, ip[1]);
        return true;
    case CMP_GLOBAL_GET:
        x64_rm_base(&c->b, 0, 1, 0x8B, X64_RAX, X64_R15, (int32_t)(ip[2] * 8));
        x64_rm_base(&c->b, 0, 1, 0x8B, X64_RAX, X64_RAX, (int32_t)offsetof(weft_global, value));
        st64(c, X64_RAX, ip[1]);
        return true;
    case CMP_GLOBAL_SET:
        x64_rm_base(&c->b, 0, 1, 0x8B, X64_RCX, X64_R15, (int32_t)(ip[1] * 8));
        ld64(c, X64_RAX, ip[2]);
        x64_rm_base(&c->b, 0, 1, 0x89, X64_RAX, X64_RCX, (int32_t)offsetof(weft_global, value));
        return true;

    /* memory 0 */
    case CMP_MEMORY_SIZE: /* the size now (another thread may have grown it), as LOAD_MEM reads it; r13 too */
        x64_rm_base(&c->b, 0, 1, 0x8B, X64_RAX, X64_RBP, R_INST);
        x64_rm_base(&c->b, 0, 1, 0x8B, X64_RAX, X64_RAX, (int32_t)offsetof(weft_instance, mem0));
        x64_rm_base(&c->b, 0, 1, 0x8B, X64_RAX, X64_RAX, (int32_t)offsetof(weft_memory, size));
        x64_rr(&c->b, 0, 1, 0x8B, X64_R13, X64_RAX);      /* mov r13, rax */
        alu_imm(c, 1, AL_SHR_U, X64_RAX, 16);             /* / RT_PAGE_SIZE */
        x64_rr(&c->b, 0, 0, 0x8B, X64_RAX, X64_RAX);      /* mov eax, eax: (uint32_t) */
        st64(c, X64_RAX, ip[1]);
        return true;
    case CMP_ADDR64_WIN:
        if (big_access(c, pc)) return true;
        break; /* an exit: the interpreter runs it */
    case CMP_ADDR64: /* a 64-bit address saturated to 2^32 - 16 plus its low four bits
                        (interp.c BODY_ADDR64) */
        ld64(c, X64_RAX, ip[2]);
        x64_rr(&c->b, 0, 0, 0x8B, X64_RCX, X64_RAX);      /* mov ecx, eax */
        alu_imm(c, 0, AL_OR, X64_RCX, 0xFFFFFFF0u);       /* or ecx, 0xfffffff0 */
        x64_rr(&c->b, 0, 1, 0x8B, X64_RDX, X64_RAX);      /* mov rdx, rax */
        alu_imm(c, 1, AL_SHR_U, X64_RDX, 32);             /* shr rdx, 32 */
        x64_rr(&c->b, 0, 1, 0x85, X64_RDX, X64_RDX);      /* test rdx, rdx */
        x64_rr(&c->b, 0, 1, 0x0F45, X64_RAX, X64_RCX);    /* cmovnz rax, rcx */
        st64(c, X64_RAX, ip[1]);
        return true;
    case CMP_REF_IS_NULL:
        cmp_imm(c, 1, ip[2], 0);
        set_bool(c, X64_CC_E, ip[1]);
        return true;
    case CMP_REF_AS_NON_NULL: /* null: the interpreter traps */
        cmp_imm(c, 1, ip[1], 0);
        exit_to(c, x64_jcc32(&c->b, X64_CC_E), pc);
        return true;
    case CMP_REF_FUNC: /* inst->funcs[i] */
    case CMP_TABLE_SIZE: /* inst->tables[i]->size */
        if (ip[2] > JIT_MAX_SLOT) {
            leave_here(c, pc);
            return true;
        }
        x64_rm_base(&c->b, 0, 1, 0x8B, X64_RAX, X64_RBP, R_INST);
        x64_rm_base(&c->b, 0, 1, 0x8B, X64_RAX, X64_RAX,
                    op == CMP_REF_FUNC ? (int32_t)offsetof(weft_instance, funcs) : (int32_t)offsetof(weft_instance, tables));
        x64_rm_base(&c->b, 0, 1, 0x8B, X64_RAX, X64_RAX, (int32_t)(ip[2] * 8));
        if (op == CMP_TABLE_SIZE) x64_rm_base(&c->b, 0, 0, 0x8B, X64_RAX, X64_RAX, (int32_t)offsetof(weft_table, size));
        st64(c, X64_RAX, ip[1]);
        return true;
#if JIT_ATOMICS /* else step exits ("Atomics") */
    case CMP_ATOMIC_LOAD8 ... CMP_ATOMIC_LOAD64: /* dst, address, offset */
        jit_atomic_load(c, pc, 1u << (op - CMP_ATOMIC_LOAD8), ip[1], ip[2], ip[3]);
        return true;
    case CMP_ATOMIC_STORE8 ... CMP_ATOMIC_STORE64: /* address, value, offset */
        jit_atomic_store(c, pc, 1u << (op - CMP_ATOMIC_STORE8), ip[1], ip[2], ip[3]);
        return true;
    case CMP_ATOMIC_ADD8 ... CMP_ATOMIC_XCHG64: /* dst, address, value, offset; ADD SUB AND OR XOR XCHG, 8..64 each */
        atomic_rmw(c, pc, (int)((op - CMP_ATOMIC_ADD8) / 4), 1u << ((op - CMP_ATOMIC_ADD8) % 4), ip[1], ip[2], ip[3],
                   ip[4]);
        return true;
    case CMP_ATOMIC_CMPXCHG8 ... CMP_ATOMIC_CMPXCHG64: /* dst, address, expected, replacement, offset */
        atomic_cmpxchg(c, pc, 1u << (op - CMP_ATOMIC_CMPXCHG8), ip[1], ip[2], ip[3], ip[4], ip[5]);
        return true;
    case CMP_ATOMIC_FENCE: /* mfence (0F AE F0): what __atomic_thread_fence(SEQ_CST) orders */
        x64_byte(&c->b, 0x0F);
        x64_byte(&c->b, 0xAE);
        x64_byte(&c->b, 0xF0);
        return true;
#endif
    case CMP_STORE8: case CMP_STORE16: case CMP_STORE32: case CMP_STORE64: {
        uint32_t n = op == CMP_STORE8 ? 1 : op == CMP_STORE16 ? 2 : op == CMP_STORE32 ? 4 : 8;
        ld32(c, X64_RAX, ip[1]);
        store(c, pc, n, ip[2], ip[3]);
        return true;
    }
    case CMP_F64_ADD_LD: case CMP_F64_SUB_LD: case CMP_F64_MUL_LD:
    case CMP_F32_ADD_LD: case CMP_F32_SUB_LD: case CMP_F32_MUL_LD: case CMP_I32_ADD_LD: {
        /* dst, a, address, offset: a op the value loaded */
        bool dbl = op <= CMP_F64_MUL_LD;
        uint32_t n = dbl ? 8 : 4;
        ld32(c, X64_RAX, ip[3]);
        if (!bounds(c, pc, ip[4], n)) return true;
        if (op == CMP_I32_ADD_LD) {
            ld32(c, X64_RCX, ip[2]);
            x64_rm_mem(&c->b, 0, 0, 0x03, X64_RCX, (int32_t)ip[4]);
            st64(c, X64_RCX, ip[1]);
            return true;
        }
        static const uint8_t sse[] = {0x58, 0x5C, 0x59};
        uint32_t k = dbl ? op - CMP_F64_ADD_LD : op - CMP_F32_ADD_LD;
        ld_xmm(c, dbl, 0, ip[2]);
        x64_rm_mem(&c->b, dbl ? 0xF2 : 0xF3, 0, 0x0F00 | sse[k], 0, (int32_t)ip[4]);
        st_xmm0(c, dbl, ip[1]);
        return true;
    }
    default:
        break;
    }
    if (load_form_of(op, &lf)) { /* dst, address, offset */
        ld32(c, X64_RAX, ip[2]);
        load(c, pc, &lf, ip[1], ip[3]);
        return true;
    }
    if (op >= CMP_LOAD32_ADDI && op <= CMP_I64_LOAD32_S_ADD) {
        /* dst, a, imm or b, offset: the address is the 32-bit sum */
        bool addi = op <= CMP_I64_LOAD32_S_ADDI;
        load_form_of(addi ? op - CMP_LOAD32_ADDI + CMP_LOAD32 : op - CMP_LOAD32_ADD + CMP_LOAD32, &lf);
        ld32(c, X64_RAX, ip[2]);
        if (addi) alu_imm(c, 0, AL_ADD, X64_RAX, ip[3]);
        else alu_slot(c, 0, AL_ADD, X64_RAX, ip[3]);
        load(c, pc, &lf, ip[1], ip[4]);
        return true;
    }

    if (jit_simd_op(c, pc, op)) return true; /* simd.c: the v128 operations */

    /* conditional branches: the taken path makes the frame exact for the
       code it goes to (branch_if); the fall-through goes on in the run */
    switch (op) {
    case CMP_BR_IF: case CMP_BR_UNLESS:
        cmp_imm(c, 0, ip[1], 0);
        branch_if(c, op == CMP_BR_IF ? X64_CC_NE : X64_CC_E, pc, 2);
        return true;
    case CMP_BR_IF_I32_EQZ: case CMP_BR_IF_I64_EQZ: case CMP_BR_IF_I64_NEZ:
        cmp_imm(c, op != CMP_BR_IF_I32_EQZ, ip[1], 0);
        branch_if(c, op == CMP_BR_IF_I64_NEZ ? X64_CC_NE : X64_CC_E, pc, 2);
        return true;
    case CMP_BR_IF_I32_EQ ... CMP_BR_IF_I64_GE_U: {
        bool w = op >= CMP_BR_IF_I64_EQ;
        cmp_slot(c, w, ip[1], ip[2]);
        branch_if(c, int_cc[op - (w ? CMP_BR_IF_I64_EQ : CMP_BR_IF_I32_EQ)], pc, 3);
        return true;
    }
    case CMP_BR_IF_I32_EQ_IMM ... CMP_BR_IF_I64_GE_U_IMM: {
        bool w = op >= CMP_BR_IF_I64_EQ_IMM;
        cmp_imm(c, w, ip[1], ip[2]);
        branch_if(c, int_cc[op - (w ? CMP_BR_IF_I64_EQ_IMM : CMP_BR_IF_I32_EQ_IMM)], pc, 3);
        return true;
    }
    default: break;
    }

    /* control: what follows is not straight-line code from here (the
       register cache, above); the frame is made exact first, for the
       code it goes to */
    if (op == CMP_BR && back_to_pinned(c, target_of(c->code, pc, 1))) loop_conform(c);
    else cache_flush(c);
    c->flush_next = true;
    switch (op) {
    case CMP_BR:
        taken(c, pc, 1);
        if (c->pinned) cache_clear(c); /* nothing falls through: the loop registers need no store */
        return true;
    case CMP_SAFE_POINT: /* a back-edge's unit without its BR (taildup.c) */
        meter_at(c, pc, pc + CMP_LEN_SAFE_POINT, true);
        attention_check(c, pc);
        return true;
    case CMP_BR_TABLE: br_table(c, pc, ip); return true;
    case CMP_CALL_INTERNAL: call_internal(c, pc, ip[1], ip[2]); return true;
    case CMP_CALL_INDIRECT: call_indirect(c, pc, ip[1], ip[2], ip[3], ip[4]); return true;
    case CMP_RETURN: emit_return(c, pc); return true;
    case CMP_RETURN_CALL: return_call(c, pc, ip[1], ip[2], ip[3]); return true;
    case CMP_RETURN_CALL_INDIRECT:
        if (indirect_callee(c, pc, ip[1], ip[2], ip[3])) tail_compiled(c, pc, ip[4], ip[5], false);
        return true;
    case CMP_MEMORY_COPY: bulk_memory(c, pc, false, ip[1], ip[2], ip[3]); return true;
    case CMP_MEMORY_FILL: bulk_memory(c, pc, true, ip[1], ip[2], ip[3]); return true;
    /* What the interpreter does in the frame: other calls (it pushes the
       frame record and enters the callee, compiled or not), traps. */
    case CMP_CALL: case CMP_UNREACHABLE:
        leave_here(c, pc);
        return true;
    default:
        if (JIT_STEP_OP(op)) { /* jit.h: its handler comes back at the next operation */
            leave_here(c, pc);
            return true;
        }
        /* Everything else (the SIMD operations simd.c leaves, the multi-memory selector, tail calls,
           call_ref, throws): the interpreter runs it, at its start as for
           any exit, and goes on interpreting this function until it next
           enters machine code (JIT_NEXT: a call's entry, a return into
           it, the end of the attention handler). A function keeps its
           compiled code up to such an operation instead of falling back
           whole. */
#ifdef WEFT_JIT_DEBUG
        fprintf(stderr, "jit: function %u leaves at %s\n", c->cf->func_index, cmp_op_name(c->code[pc]));
#endif
        leave_here(c, pc);
        return true;
    }
}

/* Marks every branch's target and every exception handler's (where the
   interpreter goes on after a catch) as a label. */
static void mark_labels(jit_cc *c) {
    const cmp_func *cf = c->cf;
    for (uint32_t pc = 0; pc < cf->code_len; pc += cmp_op_length(cf->code + pc)) {
        uint32_t last;
        for (uint32_t k = target_words(c, pc, &last); k && k <= last; k++) {
            uint32_t t = target_of(cf->code, pc, k);
            if (t < cf->code_len) c->marks[t] |= t <= pc ? JIT_LABEL | JIT_LOOP : JIT_LABEL;
        }
    }
    for (uint32_t i = 0; i < cf->nhandlers; i++)
        if (cf->handlers[i].target < cf->code_len) c->marks[cf->handlers[i].target] |= JIT_LABEL;
}

/* The epilogue every exit jumps to: the way out of weft_jit_enter_, from
   this function (its frame and itself are where the interpreter goes on),
   with the machine stack as it was on the way in. */
static void emit_epilogue(jit_cc *c) {
    x64_buf *b = &c->b;
    x64_rm_base(b, 0, 1, 0x89, X64_RBX, X64_RBP, R_FP);
    x64_mov_imm64(b, X64_RCX, (uint64_t)(uintptr_t)c->cf);
    x64_rm_base(b, 0, 1, 0x89, X64_RCX, X64_RBP, R_FN);
    x64_rm_base(b, 0, 1, 0x8B, X64_RSP, X64_RBP, R_RSP_SAVE);
    static const uint8_t bytes[] = {0x48, 0x83, 0xC4, 0x08,              /* add rsp, 8 */
                                    0x41, 0x5F, 0x41, 0x5E, 0x41, 0x5D,  /* pop r15, r14, r13 */
                                    0x41, 0x5C, 0x5B, 0x5D, 0xC3};       /* pop r12, rbx, rbp; ret */
    for (size_t i = 0; i < sizeof bytes; i++) x64_byte(b, bytes[i]);
}

static void jit_cc_free(jit_cc *c) {
    free(c->snaps);
    free(c->marks);
    free(c->meter);
    free(c->b.p);
    free(c->jumps);
    free(c->exits);
    free(c->map);
}


/* WEFT_PERFMAP=1 in the environment: each function's machine code is
   named in /tmp/perf-PID.map, the file `perf report` reads to name the
   samples that land in code no ELF file describes (wasmtime's
   --profile=perfmap). One line per function: start, size, name. */
static pthread_mutex_t perfmap_lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *perfmap;
static int perfmap_on = -1; /* not read yet */

static void perfmap_add(const mod_module *m, const cmp_func *cf, const uint8_t *code, size_t len) {
    pthread_mutex_lock(&perfmap_lock);
    if (perfmap_on < 0) {
        const char *v = getenv("WEFT_PERFMAP");
        perfmap_on = v && *v && strcmp(v, "0") != 0;
        if (perfmap_on) {
            char path[64];
            snprintf(path, sizeof path, "/tmp/perf-%d.map", (int)getpid());
            perfmap = fopen(path, "a");
            if (!perfmap) fprintf(stderr, "weft: WEFT_PERFMAP: cannot write %s\n", path);
        }
    }
    if (perfmap) {
        const char *name = m->func_names ? m->func_names[cf->func_index] : NULL;
        if (name) fprintf(perfmap, "%lx %zx wasm[%u]::%s\n", (unsigned long)(uintptr_t)code, len, cf->func_index, name);
        else fprintf(perfmap, "%lx %zx wasm[%u]\n", (unsigned long)(uintptr_t)code, len, cf->func_index);
        fflush(perfmap);
    }
    pthread_mutex_unlock(&perfmap_lock);
}

void jit_compile(const mod_module *m, cmp_func *cf) {
    cf->jit = NULL;
    int64_t t0 = thread_cpu_ns();
    if (cf->frame_size > JIT_MAX_SLOT) goto fell_back;
    jit_cc c;
    memset(&c, 0, sizeof c);
    c.cf = cf;
    c.m = m;
    c.own_index = cf->func_index - m->nfunc_imports;
    c.code = cf->code;
    c.map = malloc((cf->code_len ? cf->code_len : 1) * sizeof *c.map);
    if (!c.map) goto fell_back;
    c.marks = calloc(cf->code_len ? cf->code_len : 1, 1);
    c.meter = calloc(cf->code_len ? cf->code_len : 1, sizeof *c.meter);
    if (!c.marks || !c.meter) {
        jit_cc_free(&c);
        goto fell_back;
    }
    for (uint32_t i = 0; i < cf->code_len; i++) c.map[i] = JIT_NO_ENTRY;
    mark_labels(&c);
    emit_entry(&c); /* at 0 (call_internal) */
    c.flush_next = true; /* word 0: the entry's */
    for (uint32_t pc = 0; pc < cf->code_len; pc += cmp_op_length(cf->code + pc)) {
        if (c.flush_next || (c.marks[pc] & JIT_LABEL)) {
            cache_flush(&c); /* falling into a label: the code that jumps there flushed */
            cache_clear(&c);
            c.marks[pc] |= JIT_ENTRY;
            loop_start(&c, pc);
        }
        c.flush_next = false;
        c.map[pc] = (uint32_t)c.b.len;
        if (c.noting && first_of_pair(c.code[pc]) != CMP_BR_TABLE && branches_to(&c, pc, c.loop_pc) && loop_pin(&c))
            pc = c.loop_pc; /* again, pinned (a br_table back writes everything back: not worth it) */
        if (!emit_op(&c, pc)) {
#ifdef WEFT_JIT_DEBUG
            fprintf(stderr, "jit: function %u falls back at %s\n", cf->func_index, cmp_op_name(cf->code[pc]));
#endif
            jit_cc_free(&c);
            goto fell_back;
        }
    }
    /* Falling off the end cannot happen (a function ends in RETURN); the
       exits: each operation's stub loads its word index and leaves. */
    size_t epilogue = c.b.len;
    emit_epilogue(&c);
    x64_patch_rel32(&c.b, c.attention_exit, c.b.len);
    emit_meter(&c, true, 0);                        /* a function entry counts */
    x64_mov_imm32(&c.b, X64_RAX, JIT_AT_ATTENTION); /* word 0, the entry's safe point */
    x64_patch_rel32(&c.b, x64_jmp32(&c.b), epilogue);
    uint32_t *stub = calloc(cf->code_len ? cf->code_len : 1, sizeof *stub); /* offset + 1 */
    if (!stub) c.oom = true;
    for (uint32_t i = 0; stub && i < c.nexits; i++) {
        uint32_t pc = c.exits[i].pc;
        if (!stub[pc]) {
            stub[pc] = (uint32_t)c.b.len + 1;
            if (c.meter[pc]) emit_meter(&c, c.meter[pc] & JIT_METER_COUNTED, (c.meter[pc] & ~JIT_METER_COUNTED) - 1);
            x64_mov_imm32(&c.b, X64_RAX, pc);
            x64_patch_rel32(&c.b, x64_jmp32(&c.b), epilogue);
        }
        size_t to = stub[pc] - 1;
        if (c.exits[i].snap) { /* the registers dirty at this exit, written back on its way out */
            const jit_snap *sn = &c.snaps[c.exits[i].snap - 1];
            to = c.b.len;
            for (uint32_t k = 0; k < sn->n; k++) keep_store(&c, sn->kind[k], sn->reg[k], sn->slot[k]);
            x64_patch_rel32(&c.b, x64_jmp32(&c.b), stub[pc] - 1);
        }
        x64_patch_rel32(&c.b, c.exits[i].at, to);
    }
    free(stub);
    for (uint32_t i = 0; i < c.njumps; i++) {
        /* A target that is not an operation (past the end: the code after
           an unconditional exit may be cut) leaves the function to the
           interpreter. */
        if (c.jumps[i].pc >= cf->code_len || c.map[c.jumps[i].pc] == JIT_NO_ENTRY) c.oom = true;
        else x64_patch_rel32(&c.b, c.jumps[i].at, c.map[c.jumps[i].pc]);
    }
    /* jit_run enters only where the cache was empty (above). */
    for (uint32_t pc = 0; pc < cf->code_len; pc++)
        if (!(c.marks[pc] & JIT_ENTRY)) c.map[pc] = JIT_NO_ENTRY;
    if (c.oom || c.b.oom || c.b.len > 0x7FFFFFFF) {
#ifdef WEFT_JIT_DEBUG
        fprintf(stderr, "jit: function %u falls back: %s\n", cf->func_index,
                c.oom ? "out of memory, or a jump past the last operation" : "out of memory, or a rel8 out of reach");
#endif
        jit_cc_free(&c);
        goto fell_back;
    }
    /* W^X: written while read + write, then read + execute for good. */
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    size_t bytes = (c.b.len + page - 1) & ~(page - 1);
    uint8_t *code = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    jit_func *j = malloc(sizeof *j);
    if (code == MAP_FAILED || !j) {
        if (code != MAP_FAILED) munmap(code, bytes);
        free(j);
        jit_cc_free(&c);
        goto fell_back;
    }
    memcpy(code, c.b.p, c.b.len);
    if (mprotect(code, bytes, PROT_READ | PROT_EXEC) != 0) {
        munmap(code, bytes);
        free(j);
        jit_cc_free(&c);
        goto fell_back;
    }
#ifdef WEFT_JIT_DEBUG
    /* WEFT_JIT_DUMP=DIR: each function's code to DIR/fN.bin, for
       `objdump -D -b binary -mi386:x86-64 DIR/fN.bin`. */
    const char *dump = getenv("WEFT_JIT_DUMP");
    if (dump) {
        char path[4096];
        snprintf(path, sizeof path, "%s/f%u.bin", dump, cf->func_index);
        FILE *f = fopen(path, "wb");
        if (f) {
            fwrite(code, 1, c.b.len, f);
            fclose(f);
        }
    }
#endif
    perfmap_add(m, cf, code, c.b.len);
    j->code = code;
    j->bytes = bytes;
    j->map = c.map;
    j->entry = code;
    c.map = NULL;
    jit_cc_free(&c);
    cf->jit = j;
    atomic_fetch_add_explicit(&jit_compiled, 1, memory_order_relaxed);
    if (cf->npcmap)
        atomic_fetch_add_explicit(&jit_wasm_bytes, cf->pcmap[2 * (cf->npcmap - 1) + 1] - cf->pcmap[1] + 1,
                                  memory_order_relaxed);
    atomic_fetch_add_explicit(&jit_code_bytes, c.b.len, memory_order_relaxed);
    atomic_fetch_add_explicit(&jit_ns, (uint64_t)(thread_cpu_ns() - t0), memory_order_relaxed);
    return;
fell_back:
    atomic_fetch_add_explicit(&jit_fell_back, 1, memory_order_relaxed);
}

void jit_free(cmp_func *cf) {
    jit_func *j = (jit_func *)cf->jit;
    if (!j) return;
    munmap(j->code, j->bytes);
    free(j->map);
    free(j);
    cf->jit = NULL;
}

#else /* no compiler tier on this machine */

void weft_jit_stats(uint64_t *compiled, uint64_t *fell_back) {
    if (compiled) *compiled = 0;
    if (fell_back) *fell_back = 0;
}
void weft_jit_sizes(uint64_t *wasm_bytes, uint64_t *code_bytes, uint64_t *compile_ns) {
    if (wasm_bytes) *wasm_bytes = 0;
    if (code_bytes) *code_bytes = 0;
    if (compile_ns) *compile_ns = 0;
}
bool weft_jit_built(void) { return false; }
void jit_compile(const mod_module *m, cmp_func *cf) {
    (void)m;
    cf->jit = NULL;
}
void jit_free(cmp_func *cf) { (void)cf; }
uint64_t jit_loop_count(void) { return 0; }
uint32_t jit_run(const cmp_func *cf, uint32_t pc, jit_regs *r) {
    (void)cf;
    (void)r;
    return pc;
}

#endif
