/*
 * code.h — compiled functions, the output of the compile stage and the input
 * of the interpreter. See docs/code-format.md.
 *
 * A compiled function is a flat array of 32-bit words: an operation (from
 * ops.h) followed by its operands. Operands name frame slots (64-bit cells
 * relative to the frame pointer), immediates, or code positions (word
 * indices into the same array). Locals occupy slots 0..nlocals-1 (parameters
 * first); the operand stack position h lives in slot nlocals + h. Results of
 * a call are left in the callee's slots 0..nresults-1, which are the
 * caller's argument slots: arguments and results never move on a call.
 *
 * Slot invariant: i32 and f32 values are stored zero-extended, so i64 and
 * i32 loads share code and i64.extend_i32_u costs nothing.
 *
 * Immutable after compilation; shared by every instance and thread.
 */
#ifndef WEFT_CODE_H
#define WEFT_CODE_H

#include <stdio.h>

#include "../module/module.h"
#include "ops.h"

typedef struct cmp_func {
    uint32_t *code;       /* the words */
    uint32_t code_len;
    uint32_t func_index;  /* in the module's function index space */
    uint32_t nparams;
    uint32_t nresults;
    uint32_t nlocals;     /* params + declared locals */
    uint32_t frame_size;  /* slots used: locals, constants, temps, stack */
    /* On entry the declared locals (slots nparams .. nlocals) are zeroed
       and the constants copied to slots const_base .. + nconsts. */
    uint32_t const_base;
    uint32_t nconsts;
    uint64_t *consts;
    /* Where each operation came from: pairs (code word index, module byte
       offset), sorted by code index; one per operation. */
    uint32_t *pcmap;
    uint32_t npcmap;
} cmp_func;

/* Validates (§3.3) and compiles every function body of `m`, filling
   m->code. On failure returns WEFT_ERR_INVALID or WEFT_ERR_MALFORMED with
   the function index and byte offset, and frees what it made. */
weft_status cmp_compile_module(mod_module *m, weft_error *err);
/* Frees m->code. */
void cmp_free_module_code(mod_module *m);

/* The module byte offset of the operation at code word `pos` of `f`. */
uint32_t cmp_offset_of(const cmp_func *f, uint32_t pos);

/* The operation's name, e.g. "I32_ADD" (for the disassembler and tests). */
const char *cmp_op_name(uint32_t op);
/* Words taken by the operation at `at`, operands included. */
uint32_t cmp_op_length(const uint32_t *at);
/* Prints `f` as text, one operation per line (disasm.c). */
void cmp_disasm(FILE *out, const cmp_func *f);

#endif
