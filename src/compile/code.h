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

/* An exception handler (Wasm 3.0 exception handling; docs/code-format.md):
   a throw at a code word in [start, end) of the function, or a call there
   that an exception leaves, is caught here when the tag matches. A
   function's handlers are sorted innermost first (by depth, deepest
   first; a try's own clauses in their order), so the unwinder takes the
   first that matches. Nothing runs for them until something throws. */
#define CMP_CATCH_ALL UINT32_MAX /* `tag` of catch_all, catch_all_ref */
#define CMP_NO_SLOT UINT32_MAX
enum { CMP_HANDLER_CATCH = 0, CMP_HANDLER_DELEGATE = 1 };
typedef struct cmp_handler {
    uint32_t start, end;   /* code words covered */
    uint32_t target;       /* CATCH: the code word to continue at */
    uint32_t tag;          /* CATCH: module tag index, or CMP_CATCH_ALL */
    uint32_t dst;          /* CATCH of a tag: first slot of the payload, or CMP_NO_SLOT */
    uint32_t exn_slot;     /* CATCH: slot for the exnref, or CMP_NO_SLOT */
    uint32_t depth;        /* control depth of the try (the function is 0) */
    uint32_t kind;         /* CMP_HANDLER_CATCH, CMP_HANDLER_DELEGATE */
    uint32_t delegate_to;  /* DELEGATE: from here on only handlers of depth
                              at most this one apply (legacy delegate) */
} cmp_handler;

typedef struct cmp_func {
    uint32_t *code;       /* the words */
    uint32_t code_len;
    uint32_t func_index;  /* in the module's function index space */
    uint32_t nparams;
    uint32_t nresults;
    uint32_t nlocals;     /* params + declared locals */
    uint32_t frame_size;  /* slots used: locals, constants, temps, stack */
    /* On entry the declared locals (slots nparams .. nlocals) are zeroed
       and the constants copied to the slots right after them, nlocals ..
       + nconsts (exec_frame_init). */
    uint32_t nconsts;
    uint64_t *consts;
    /* Where each operation came from: pairs (code word index, module byte
       offset), sorted by code index; one per operation. */
    uint32_t *pcmap;
    uint32_t npcmap;
    /* The fuel rule's back-edges (docs/code-format.md, "Safe points"): bit
       i set when word i is the target word of a branch to a wasm loop
       label (a BR_TABLE: of that one entry). Only the attention handler
       reads it, when a taken branch found the attention word set: a taken
       back-edge costs one unit of fuel (and of a slice), any other taken
       branch none. NULL when the function has no back-edge. */
    uint32_t *back_edges;
    /* Exception handlers (above), NULL when it has none. */
    cmp_handler *handlers;
    uint32_t nhandlers;
    /* The compiler tier's machine code (src/jit/jit.h), NULL when the
       function runs interpreted: set before the function is published
       (WEFT_TIER_JIT), or once while it runs (WEFT_TIER_AUTO: complete
       before it is stored, read with acquire loads, and machine code
       reads it too). samples: the auto tier's count for it (exec/tier.c). */
    _Atomic(const struct jit_func *) jit;
    _Atomic uint32_t samples;
} cmp_func;

/* Whether the target word at code position `word` of `f` is a back-edge. */
static inline bool cmp_is_back_edge(const cmp_func *f, uint32_t word) {
    return f->back_edges && (f->back_edges[word / 32] >> (word % 32) & 1);
}

/* Validates (§3.3) every function body of `m` and fills m->code: with
   the engine's WEFT_COMPILE_EAGER, the compiled code of every function;
   by default (lazy) each function's stub, compiled on its first call by
   cmp_func_code (only a body the fast validator could not vouch for is
   compiled now, by the compiler's own validation). On failure returns
   WEFT_ERR_INVALID or WEFT_ERR_MALFORMED with the function index and byte
   offset, and frees what it made. */
weft_status cmp_compile_module(mod_module *m, weft_error *err);
/* Checks the binary form (§5.4) of every body of `m`, whose code section
   decoded whole (m->code_end) though a later part may not have: the
   first malformed body's error, WEFT_ERR_MALFORMED, or WEFT_OK. */
weft_status cmp_check_bodies(mod_module *m, weft_error *err);
/* Frees m->code and the stubs. */
void cmp_free_module_code(mod_module *m);

/* The one word of every stub's code (the operation LAZY): entering a stub
   runs it, which compiles the function and enters the real code. A stub
   has frame_size, nparams, nlocals and nconsts 0, so entering it costs
   the call path nothing more than entering any function. */
extern const uint32_t cmp_lazy_code[1];
static inline bool cmp_is_lazy(const cmp_func *f) { return f->code == cmp_lazy_code; }

/* The compiled code of own function `own_index` of `m` (module index
   space minus the imports), translating it now if this is its first use.
   Thread-safe: two threads asking at once compile it once (the second
   waits on the module's compile lock, then takes the first one's code);
   once compiled, the answer is one acquire load, no lock. Fails with
   WEFT_ERR_NOMEM (or what else the translation reported, with the
   function's index and name) and leaves the stub in place, so a later
   call tries again. */
weft_status cmp_func_code(mod_module *m, uint32_t own_index, const cmp_func **out, weft_error *err);

/* The module byte offset of the operation at code word `pos` of `f`. */
uint32_t cmp_offset_of(const cmp_func *f, uint32_t pos);

/* The operation's name, e.g. "I32_ADD" (for the disassembler and tests). */
const char *cmp_op_name(uint32_t op);
/* Operand words after each operation's word (BR_TABLE: its fixed part;
   a pair: its first operation's; disasm.c, from the opcode table). */
extern const uint8_t cmp_operand_counts[CMP_OP_COUNT];
/* Words taken by the operation at `at`, operands included. */
static inline uint32_t cmp_op_length(const uint32_t *at) {
    uint32_t n = 1 + (at[0] < CMP_OP_COUNT ? cmp_operand_counts[at[0]] : 0);
    if (at[0] == CMP_BR_TABLE) n += at[2] + 1;
    return n;
}
/* The word holding the target of each single-target branch (BR's
   operand, BR_IF's and BR_UNLESS's second, a fused compare-and-branch's
   last; a pair: its first operation's); 0 for every other operation. */
extern const uint8_t cmp_target_word[CMP_OP_COUNT];
/* The first and last word holding a branch target in the operation at
   `at` (first 0: none; BR_TABLE: its n + 1 targets). A target word holds
   the distance from itself to the target operation. */
static inline uint32_t cmp_target_words(const uint32_t *at, uint32_t *last) {
    if (at[0] == CMP_BR_TABLE) {
        *last = 3 + at[2];
        return 3;
    }
    return *last = at[0] < CMP_OP_COUNT ? cmp_target_word[at[0]] : 0;
}
/* Prints `f` as text, one operation per line (disasm.c). */
void cmp_disasm(FILE *out, const cmp_func *f);

#endif
