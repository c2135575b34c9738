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
    const uint8_t *entry; /* where a compiled call enters (at the start of
                             code): the frame's locals and constants, the
                             entry's safe point */
} jit_func;
#define JIT_NO_ENTRY UINT32_MAX
/* In jit_run's result: the interpreter goes to its attention handler at
   the word, a function entry's safe point. */
#define JIT_AT_ATTENTION 0x80000000u

/* The interpreter's registers compiled code uses (jit.c keeps the first
   five in rbx, r12, r13, r14, r15 and this record's address in rbp).
   fp, fn and frame are written back: compiled calls and returns between
   compiled functions push and pop the interpreter's frame records. */
struct exec_frame;
typedef struct jit_regs {
    uint64_t *fp;
    uint8_t *mem;
    uint64_t mem_size;
    _Atomic uint32_t *attention;
    weft_global **globals;
    const cmp_func *fn;
    struct exec_frame *frame;       /* the next free frame record */
    struct exec_frame *frames_base;
    struct exec_frame *frames_end;  /* what a call may use without asking */
    uint64_t *stack_end;
    weft_instance *inst;
    _Atomic(struct cmp_func *) *code_table;
    /* Compiled calls use the machine's call and ret (jit.c, call_compiled
       and emit_return): the frame records from native_base up to frame
       were pushed by calls of this run of weft_jit_enter_, each with its
       return address on the machine stack, in order; the interpreter sets
       native_base = frame, weft_jit_enter_ the other two. */
    struct exec_frame *native_base;
    void *rsp_save;   /* the machine stack at the way in, for the way out */
    void *rsp_limit;  /* how deep compiled calls may take it (JIT_NATIVE_STACK) */
} jit_regs;
/* The machine stack compiled calls may use in one run: 8 bytes a call, so
   2,048 nested compiled calls; a deeper one leaves to the interpreter,
   which makes the call and enters the callee in a run of its own. */
#define JIT_NATIVE_STACK 16384

/* The operations compiled code leaves to the interpreter one at a time
   ("step exits": rare, or long next to an exit; among the atomics, wait
   and notify, and the others where they leave, unaligned or out of
   bounds, jit.c "Atomics"): jit.c exits at each, and its handler in interp.c
   ends by going back into the function's machine code at the next
   operation, so the rest of the function stays compiled. Every other
   operation the interpreter runs for compiled code (calls aside, which
   come back at the callee's entry or the return) is followed by
   interpretation until the next such entry (jit.c, emit_op). */
#define JIT_STEP_OP(op)                                                                  \
    ((op) == CMP_MEMORY_GROW || (op) == CMP_MEMORY_INIT || (op) == CMP_DATA_DROP ||      \
     (op) == CMP_MEMORY_COPY || (op) == CMP_MEMORY_FILL || (op) == CMP_MEMORY_COPY_X ||  \
     (op) == CMP_TABLE_GET || (op) == CMP_TABLE_SET || (op) == CMP_TABLE_INIT ||         \
     (op) == CMP_ELEM_DROP || (op) == CMP_TABLE_COPY || (op) == CMP_TABLE_GROW ||        \
     (op) == CMP_TABLE_FILL || ((op) >= CMP_ATOMIC_LOAD8 && (op) <= CMP_ATOMIC_WAIT64) ||   \
     (op) == CMP_MEMORY_INIT_W || (op) == CMP_MEMORY_COPY_W || (op) == CMP_MEMORY_FILL_W ||   \
     (op) == CMP_ATOMIC_NOTIFY_W || (op) == CMP_ATOMIC_WAIT32_W || (op) == CMP_ATOMIC_WAIT64_W)

/* Compiles `cf` (of module m) and sets cf->jit, or leaves it NULL when the
   function has an operation the tier does not handle (it stays
   interpreted: the whole function falls back). Only out of memory is an
   error; it too leaves the function interpreted. Called by compile_function
   when the engine's tier is WEFT_TIER_JIT. */
void jit_compile(const mod_module *m, cmp_func *cf);
/* Frees cf->jit (with the module's code). */
void jit_free(cmp_func *cf);
/* Loops compiled with registers across their branch back, so far in this
   process (jit.c, "Loop registers"; jit_test checks that its loops get them). */
uint64_t jit_loop_count(void);

/* Runs cf's machine code from the operation at word `pc` with the frame
   and registers in `r`, until it reaches an operation it leaves to the
   interpreter (a call, a return, a trap, a taken branch with the attention
   word set): returns that operation's word index, where the interpreter
   goes on, in the function and frame left in r->fn, r->fp and r->frame
   (other than the ones it started with when compiled code made calls or
   returns), with JIT_AT_ATTENTION when it is a function entry that found
   the attention word set. */
uint32_t jit_run(const cmp_func *cf, uint32_t pc, jit_regs *r);

#endif
