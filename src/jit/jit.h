/*
 * jit.h — the compiler tier (docs/jit.md): x86-64 machine code made from a
 * function's compiled words (code.h), with the same frame layout, so the
 * interpreter can hand a frame to it and take it back at any operation.
 *
 * Built on x86-64 Linux only (WEFT_JIT 1); elsewhere every call here is a
 * stub that compiles nothing, and the interpreter is the only tier.
 */
#ifndef WEFT_JIT_H
#define WEFT_JIT_H

#include "../compile/code.h"

#ifndef WEFT_JIT
#if defined(__x86_64__) && defined(__linux__)
#define WEFT_JIT 1
#else
#define WEFT_JIT 0
#endif
#endif

/* A function's machine code: read + execute pages of its own (never
   writable and executable at once), and where each operation starts. */
typedef struct jit_func {
    uint8_t *code;  /* mapping of `bytes` */
    size_t bytes;
    uint32_t *map;  /* code_len entries: the native offset of the operation
                       at each word, JIT_NO_ENTRY inside operands */
} jit_func;
#define JIT_NO_ENTRY UINT32_MAX

/* What compiled code keeps in registers (jit.c: rbx, r12, r13, r14, r15). */
typedef struct jit_regs {
    uint64_t *fp;
    uint8_t *mem;
    uint64_t mem_size;
    _Atomic uint32_t *attention;
    weft_global **globals;
} jit_regs;

/* Compiles `cf` (of module m) and sets cf->jit, or leaves it NULL when the
   function has an operation the tier does not handle (it stays
   interpreted: the whole function falls back). Only out of memory is an
   error; it too leaves the function interpreted. Called by compile_function
   when the engine's tier is WEFT_TIER_JIT. */
void jit_compile(const mod_module *m, cmp_func *cf);
/* Frees cf->jit (with the module's code). */
void jit_free(cmp_func *cf);

/* Runs cf's machine code from the operation at word `pc` with the frame
   and registers in `r`, until it reaches an operation it leaves to the
   interpreter (a call, a return, a trap, a taken branch with the attention
   word set): returns that operation's word index, where the interpreter
   goes on, in the same frame. */
uint32_t jit_run(const cmp_func *cf, uint32_t pc, const jit_regs *r);

#endif
