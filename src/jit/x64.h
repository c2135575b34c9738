/*
 * x64.h — a small x86-64 assembler: the few encodings the compiler tier
 * (jit.c) needs, written into a growing byte buffer. No dependencies.
 *
 * Encodings follow the Intel SDM, vol. 2 (chapter 2, "Instruction Format":
 * legacy prefix, REX, opcode, ModR/M, SIB, displacement, immediate). Every
 * memory operand the compiler uses is one of three:
 *   - a frame slot, [rbx + 8*slot] (rbx holds fp);
 *   - linear memory, [r12 + rax + disp32] (r12 holds the memory base);
 *   - a general [base + disp32].
 * tests/unit/jit_test.c (encodings) checks the bytes against the manual's.
 */
#ifndef WEFT_JIT_X64_H
#define WEFT_JIT_X64_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { X64_RAX, X64_RCX, X64_RDX, X64_RBX, X64_RSP, X64_RBP, X64_RSI, X64_RDI,
       X64_R8, X64_R9, X64_R10, X64_R11, X64_R12, X64_R13, X64_R14, X64_R15 };

/* Condition codes (the low nibble of Jcc / SETcc / CMOVcc). */
enum { X64_CC_O = 0, X64_CC_B = 2, X64_CC_AE = 3, X64_CC_E = 4, X64_CC_NE = 5, X64_CC_BE = 6,
       X64_CC_A = 7, X64_CC_S = 8, X64_CC_P = 0xA, X64_CC_NP = 0xB, X64_CC_L = 0xC, X64_CC_GE = 0xD,
       X64_CC_LE = 0xE, X64_CC_G = 0xF };

typedef struct x64_buf {
    uint8_t *p;
    size_t len, cap;
    bool oom;
} x64_buf;

static inline void x64_byte(x64_buf *b, uint8_t v) {
    if (b->len == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 256;
        uint8_t *p = realloc(b->p, cap);
        if (!p) {
            b->oom = true;
            b->len = 0; /* keep writing in place; the result is discarded */
            return;
        }
        b->p = p;
        b->cap = cap;
    }
    b->p[b->len++] = v;
}
static inline void x64_u32(x64_buf *b, uint32_t v) {
    for (int i = 0; i < 4; i++) x64_byte(b, (uint8_t)(v >> (8 * i)));
}
static inline void x64_u64(x64_buf *b, uint64_t v) {
    x64_u32(b, (uint32_t)v);
    x64_u32(b, (uint32_t)(v >> 32));
}
/* Writes a rel32 at `at` reaching `target` (both offsets in b). */
static inline void x64_patch_rel32(x64_buf *b, size_t at, size_t target) {
    if (b->oom) return;
    uint32_t rel = (uint32_t)((int64_t)target - (int64_t)(at + 4));
    memcpy(b->p + at, &rel, 4);
}

/* Legacy prefix (0x66, 0xF2, 0xF3 or 0), REX (W, and the high bits of
   reg, index, base), then the opcode's 1-3 bytes (opc: 0x0FAF is 0F AF). */
static inline void x64_head(x64_buf *b, int pfx, int w, int reg, int index, int base, uint32_t opc) {
    if (pfx) x64_byte(b, (uint8_t)pfx);
    int rex = (w ? 8 : 0) | (reg & 8 ? 4 : 0) | (index & 8 ? 2 : 0) | (base & 8 ? 1 : 0);
    if (rex) x64_byte(b, (uint8_t)(0x40 | rex));
    if (opc > 0xFFFF) x64_byte(b, (uint8_t)(opc >> 16));
    if (opc > 0xFF) x64_byte(b, (uint8_t)(opc >> 8));
    x64_byte(b, (uint8_t)opc);
}

/* op reg, [base + disp] (base is not rsp/r12, which need a SIB). */
static inline void x64_rm_base(x64_buf *b, int pfx, int w, uint32_t opc, int reg, int base, int32_t disp) {
    x64_head(b, pfx, w, reg, 0, base, opc);
    if (disp >= -128 && disp < 128) {
        x64_byte(b, (uint8_t)(0x40 | (reg & 7) << 3 | (base & 7)));
        x64_byte(b, (uint8_t)disp);
    } else {
        x64_byte(b, (uint8_t)(0x80 | (reg & 7) << 3 | (base & 7)));
        x64_u32(b, (uint32_t)disp);
    }
}
/* op reg, [rbx + 8*slot]: a frame slot. */
static inline void x64_rm_slot(x64_buf *b, int pfx, int w, uint32_t opc, int reg, uint32_t slot) {
    x64_rm_base(b, pfx, w, opc, reg, X64_RBX, (int32_t)(slot * 8));
}
/* op reg, [r12 + index + disp]: linear memory at the address in `index`
   (not rsp). */
static inline void x64_rm_mem_at(x64_buf *b, int pfx, int w, uint32_t opc, int reg, int index, int32_t disp) {
    x64_head(b, pfx, w, reg, index, X64_R12, opc);
    x64_byte(b, (uint8_t)(0x84 | (reg & 7) << 3));     /* mod 10, rm 100: SIB follows */
    x64_byte(b, (uint8_t)(0x04 | (index & 7) << 3));   /* scale 1, the index, base r12 */
    x64_u32(b, (uint32_t)disp);
}
/* op reg, [r12 + rax + disp]: linear memory at the address in rax. */
static inline void x64_rm_mem(x64_buf *b, int pfx, int w, uint32_t opc, int reg, int32_t disp) {
    x64_rm_mem_at(b, pfx, w, opc, reg, X64_RAX, disp);
}
/* op reg, rm (both registers). */
static inline void x64_rr(x64_buf *b, int pfx, int w, uint32_t opc, int reg, int rm) {
    x64_head(b, pfx, w, reg, 0, rm, opc);
    x64_byte(b, (uint8_t)(0xC0 | (reg & 7) << 3 | (rm & 7)));
}

/* mov r, imm32 (zero-extended to 64 bits). */
static inline void x64_mov_imm32(x64_buf *b, int r, uint32_t imm) {
    if (r & 8) x64_byte(b, 0x41);
    x64_byte(b, (uint8_t)(0xB8 | (r & 7)));
    x64_u32(b, imm);
}
/* mov r, imm64. */
static inline void x64_mov_imm64(x64_buf *b, int r, uint64_t imm) {
    x64_byte(b, (uint8_t)(0x48 | (r & 8 ? 1 : 0)));
    x64_byte(b, (uint8_t)(0xB8 | (r & 7)));
    x64_u64(b, imm);
}
/* jmp rel32 / jcc rel32, target unknown yet: returns the rel32's offset. */
static inline size_t x64_jmp32(x64_buf *b) {
    x64_byte(b, 0xE9);
    size_t at = b->len;
    x64_u32(b, 0);
    return at;
}
static inline size_t x64_jcc32(x64_buf *b, int cc) {
    x64_byte(b, 0x0F);
    x64_byte(b, (uint8_t)(0x80 | cc));
    size_t at = b->len;
    x64_u32(b, 0);
    return at;
}
/* jcc rel8 forward, patched by x64_land8. */
static inline size_t x64_jcc8(x64_buf *b, int cc) {
    x64_byte(b, (uint8_t)(0x70 | cc));
    x64_byte(b, 0);
    return b->len - 1;
}
/* jmp rel8 forward (EB cb), patched by x64_land8. */
static inline size_t x64_jmp8(x64_buf *b) {
    x64_byte(b, 0xEB);
    x64_byte(b, 0);
    return b->len - 1;
}
/* A rel8 that cannot reach marks the buffer failed (the function is then
   left to the interpreter) rather than jumping somewhere else. */
static inline void x64_land8(x64_buf *b, size_t at) {
    if (b->oom) return;
    if (b->len - (at + 1) > 127) b->oom = true;
    else b->p[at] = (uint8_t)(b->len - (at + 1));
}
/* setcc r8 (rax, rcx, rdx, rbx only: no REX). */
static inline void x64_setcc(x64_buf *b, int cc, int r) {
    x64_byte(b, 0x0F);
    x64_byte(b, (uint8_t)(0x90 | cc));
    x64_byte(b, (uint8_t)(0xC0 | (r & 7)));
}

#endif
