/*
 * compiler.h — the state of the one-pass validator and translator, shared
 * by compile.c (the core instructions), numeric.c (numeric instructions and
 * their fusions) and simd.c (the 0xFD prefix). Only
 * the compile stage includes it.
 */
#ifndef WEFT_COMPILER_H
#define WEFT_COMPILER_H

#include "code.h"

#define T_UNKNOWN 0 /* the bottom type of an unreachable stack */
#define CMP_MAX_CONSTS 1024 /* constant slots per function; more use CONST ops */
#define NO_SLOT UINT32_MAX
#define CONST_MARK 0xC0000000u /* entry slots from here on name constants */
/* v128 constants: markers VCONST_MARK + k name constant k of the body's
   v128 table; each used one gets two slots after the scalar constants. */
#define VCONST_MARK 0xB0000000u
#define CMP_MAX_VCONSTS 256
typedef struct cmp_v128 { uint64_t w[2]; } cmp_v128;
/* "No code position". Code positions are compared only by equality with
   the current length, never computed backwards from it: `len - k` wraps
   when the body has fewer than k words, and then meets this sentinel. */
#define NO_POS UINT32_MAX

typedef struct centry {
    mod_valtype type;
    uint32_t slot; /* where the value is: its home slot or a local's */
    uint32_t home; /* its home slot: the base plus the widths below it */
} centry;

enum { CTL_BLOCK, CTL_LOOP, CTL_IF, CTL_ELSE, CTL_FUNC,
       /* exception handling (eh.c): try_table; the legacy try in its body,
          in a catch arm, in its catch_all arm */
       CTL_TRY_TABLE, CTL_TRY, CTL_CATCH, CTL_CATCH_ALL };

typedef struct ctl {
    uint8_t kind;
    bool unreachable;
    uint32_t nparams, nresults;
    const mod_valtype *params, *results;
    uint32_t height;     /* operand stack height below the params */
    uint32_t loop_pos;   /* loop: code position of the header */
    uint32_t else_fix;   /* if: word to patch with the else position */
    uint32_t temp_base;  /* if with params: saved copies for the else arm */
    uint32_t init_height; /* c->init_log's length when the block opened */
    BASE_VEC(uint32_t) fixups; /* words to patch with the end position */
    /* Exception handling (eh.c): try_table's handlers (first, count) whose
       end is patched at its `end`; a legacy try's body and the slot its
       catch arms keep the caught exception in (for rethrow). */
    uint32_t first_handler, nhandlers;
    uint32_t body_start, body_end, exn_slot;
} ctl;

typedef struct compiler {
    mod_module *m;
    weft_error *err;
    uint32_t func_index;
    const mod_functype *type;
    base_reader r;
    uint32_t op_offset; /* module offset of the instruction being compiled */

    const uint8_t *code_section_end; /* end of the last body */
    BASE_VEC(uint64_t) consts; /* sorted distinct constants of the body */
    uint32_t nconsts;          /* how many have markers (at most CMP_MAX_CONSTS) */
    uint8_t *const_used;       /* per constant: needs a slot */
    BASE_VEC(cmp_v128) vconsts; /* sorted distinct v128 constants */
    uint32_t nvconsts;          /* how many have markers */
    uint8_t *vconst_used;
    BASE_VEC(uint32_t) const_refs; /* code words holding constant markers */
    uint32_t nlocals;          /* locals (the index space) */
    uint32_t nlocal_slots;     /* slots they take: a v128 takes two */
    uint32_t nparam_slots;
    mod_valtype *local_types;
    uint32_t *local_slots;     /* per local: its first slot */
    uint8_t *local_set;        /* per local: set (Wasm 3.0 local initialization) */
    BASE_VEC(uint32_t) init_log; /* locals set since their block opened, in order */
    uint32_t ntemps, reserved_temps;
    uint32_t base;       /* first operand-stack slot */
    uint32_t max_height;

    BASE_VEC(centry) stack;
    BASE_VEC(ctl) ctls;
    BASE_VEC(uint32_t) code;
    BASE_VEC(uint32_t) pcmap;
    BASE_VEC(cmp_handler) handlers; /* exception handlers, unsorted (eh.c) */
    /* One-element type lists of block types that are typed references
       (single_types covers the one-byte ones): each its own allocation,
       so ctls may point at it while c->ctls grows; freed by reset. */
    BASE_VEC(mod_valtype *) singles;

    uint32_t taken_offset; /* module offset of the last producer taken */
    uint32_t copy_end;    /* code length right after the last COPY, for
                             merging; NO_POS when the last op is not one */
    uint32_t last_target; /* latest code position a branch may land on */
    /* The last emitted operation whose only effect is writing one slot:
       position of its dst word and the code length right after it. */
    uint32_t producer_dst, producer_end;
    bool oom;
} compiler;


#define FAIL_IF(cond, status, ...)                                                 \
    do {                                                                           \
        if (cond) return cmp_fail(c, status, __VA_ARGS__);                         \
    } while (0)
#define INVALID_IF(cond, ...) FAIL_IF(cond, WEFT_ERR_INVALID, __VA_ARGS__)
#define TRY(expr)                                                                  \
    do {                                                                           \
        weft_status st_ = (expr);                                                  \
        if (st_ != WEFT_OK) return st_;                                            \
    } while (0)


#define READ_U8(v) do { if (!base_read_u8(&c->r, (v))) return cmp_read_fail(c); } while (0)
#define READ_U32(v) do { if (!base_read_u32(&c->r, (v))) return cmp_read_fail(c); } while (0)

static inline bool cmp_is_vconst(uint32_t slot) {
    return slot >= VCONST_MARK && slot < VCONST_MARK + CMP_MAX_VCONSTS;
}
/* Slots kept for constants right after the locals. */
static inline uint32_t cmp_const_area(const compiler *c) { return c->nconsts + 2 * c->nvconsts; }

/* Slots a value of type t takes: a v128 takes two (low 8 bytes first). */
static inline uint32_t cmp_slot_width(mod_valtype t) { return t == WEFT_V128 ? 2 : 1; }

/* Fails with a message naming the function and the instruction's offset. */
__attribute__((format(printf, 3, 4))) weft_status cmp_fail(compiler *c, weft_status st,
                                                           const char *fmt, ...);
/* A failed read inside an instruction: "unexpected end" and friends. */
weft_status cmp_read_fail(compiler *c);

/* Emits one word. These few helpers are inline: every instruction of
   compile.c, numeric.c and simd.c calls them (out of line, numeric.c's
   translation took 1 % more instructions). */
static inline void cmp_emit(compiler *c, uint32_t w) {
    if (!BASE_VEC_PUSH(c->code, w)) c->oom = true;
}
/* Emits an operation word and records its offset for diagnostics. */
void cmp_emit_op(compiler *c, uint32_t op);
/* Emits a source operand (a slot or a constant's marker). */
void cmp_emit_src(compiler *c, uint32_t slot);
/* Marks the operation just emitted, whose dst word is at dst_pos, as a
   pure producer (local.set may retarget it). */
static inline void cmp_mark_producer(compiler *c, uint32_t dst_pos) {
    c->producer_dst = dst_pos;
    /* After a failed emit the words are not there: mark nothing. */
    c->producer_end = c->oom ? NO_POS : (uint32_t)c->code.len;
}
/* The operation that just computed `slot` if it is the last one emitted
   (so its result is used nowhere else yet), else 0; cmp_take_producer
   removes it, returning its operands a and b. */
static inline uint32_t cmp_producer_of(const compiler *c, uint32_t slot) {
    if (c->producer_end != c->code.len || c->producer_end == NO_POS || c->oom) return 0;
    if (c->code.data[c->producer_dst] != slot) return 0;
    return c->code.data[c->producer_dst - 1];
}
void cmp_take_producer(compiler *c, uint32_t *a, uint32_t *b);
/* Emits `fused` (dst, a, addr, offset): an operation on `a_slot` and the
   value the load just before it produced, which it loads itself; the load
   is taken back, and the operation traps at the load's offset. */
void cmp_emit_load_fused(compiler *c, uint32_t fused, mod_valtype rt, uint32_t a_slot);

/* Whether an entry's slot is a scalar constant's marker (CONST_MARK + k). */
static inline bool cmp_is_const_slot(uint32_t slot) { return slot >= CONST_MARK && slot != NO_SLOT; }

/* Numeric instructions (numeric.c): arity and types by opcode (0x100 + n
   for 0xFC n), NULL for other opcodes; their translation with its
   fusions; and the compare-and-branch operations of comparison `cmp`:
   the branch taken when it holds and the one taken when it does not
   (both 0 if it has none). */
typedef struct cmp_numeric_info {
    uint16_t op;
    uint8_t arity;
    mod_valtype rt, at;
} cmp_numeric_info;
extern const cmp_numeric_info cmp_numeric_table[CMP_NUM_TABLE_SIZE];
static inline const cmp_numeric_info *cmp_numeric_lookup(uint32_t opcode) {
    if (opcode >= CMP_NUM_TABLE_SIZE || cmp_numeric_table[opcode].arity == 0) return NULL;
    return &cmp_numeric_table[opcode];
}
weft_status cmp_compile_numeric(compiler *c, const cmp_numeric_info *ni);
/* The block type of each value type's one-byte form: its result. */
extern const mod_valtype cmp_single_types[256];
/* A body whose bytes end without its final END (the error worded as the
   spec tests expect). */
weft_status cmp_missing_end(compiler *c);
/* Exception handling (WEFT_FEATURE_EXCEPTIONS): exnref, tags, try_table;
   SIMD (on unless disabled). */
static inline bool cmp_eh_on(const compiler *c) { return base_feature_on(c->m->engine, WEFT_FEATURE_EXCEPTIONS); }
static inline bool cmp_simd_on(const compiler *c) {
    return !(c->m->engine && (c->m->engine->config.disabled_features & WEFT_FEATURE_SIMD));
}

/* atomic.c: one instruction of the 0xFE prefix (after the prefix byte). */
weft_status cmp_compile_atomic(compiler *c);
/* walk.c: checks the binary form of one body (§5.4), collecting its
   numeric constants into c->consts with `consts`; and of every body from
   own index `from` on. */
weft_status cmp_walk_body(compiler *c, const mod_func *fn, bool consts);
weft_status cmp_scan_bodies(compiler *c, uint32_t from);
void cmp_fused_for(uint32_t cmp, uint32_t *if_true, uint32_t *if_false);
/* The home slot of operand stack position `index` (<= the height). */
uint32_t cmp_home(const compiler *c, size_t index);
/* Pushes a value living in `slot` / in its home slot (returned). */
void cmp_push_at(compiler *c, mod_valtype t, uint32_t slot);
uint32_t cmp_push(compiler *c, mod_valtype t);
/* Pops a value of type `expect` (T_UNKNOWN: any). */
weft_status cmp_pop(compiler *c, mod_valtype expect, centry *out);
weft_status cmp_need_memory(compiler *c, uint32_t idx);
/* A value type in a body (mod_read_valtype), errors worded by cmp_fail. */
weft_status cmp_read_valtype(compiler *c, mod_valtype *t);
/* An access's memory operand as read (Wasm 3.0 §5.4.7 memarg). */
typedef struct cmp_memarg {
    uint32_t mem;      /* memory index (multi-memory) */
    bool is64;         /* a 64-bit memory (memory64): i64 addresses */
    bool big;          /* a 64-bit memory that may pass 4 GiB (cmp_mem_big):
                          its accesses take ADDR64_WIN, the offset with it */
    bool atomic;       /* an atomic access: must be naturally aligned */
    uint32_t bytes;    /* the access's size */
    uint32_t offset;   /* the offset the access's operation takes: on a small
                          64-bit memory one above 2^32 - 1 saturates (ADDR64,
                          interp.c); on a big one 0 (ADDR64_WIN adds offset64) */
    uint64_t offset64; /* the offset as read */
} cmp_memarg;
/* memarg of an access of `bytes`: alignment at most natural (`exact`:
   equal, for atomics), memory index, offset. */
weft_status cmp_read_memarg(compiler *c, uint32_t bytes, bool exact, cmp_memarg *ma);
/* Whether memory `idx` is a 64-bit one whose type lets it pass 4 GiB -
   64 KiB (RT_MAX_PAGES64): no maximum, or a larger one. Its accesses and
   bulk operations take the 64-bit paths (docs/pipeline.md). */
bool cmp_mem_big(const compiler *c, uint32_t idx);
/* Pops an access's address (i32, or i64 on a 64-bit memory, narrowed by
   ADDR64) and, for a memory other than 0, emits MEM_SELECT; the access's
   operation follows, then cmp_mem_end. On a big memory the address is
   ADDR64_WIN's (or ADDR64_EA's, for wait and notify: `wide`), and
   cmp_mem_end's MEM_SELECT 0 closes the window, on memory 0 too. */
weft_status cmp_mem_begin(compiler *c, const cmp_memarg *ma, centry *addr);
weft_status cmp_mem_begin_wide(compiler *c, const cmp_memarg *ma, centry *addr);
void cmp_mem_end(compiler *c, const cmp_memarg *ma);

/* validate.c: the validation-only pass run at load (scratch state reused
   across bodies). cmp_validate_fast is true when body `own_index` is
   certainly valid; false means "not sure": the body uses an instruction
   the pass leaves to the compiler, or has an error, which the compiler's
   own validation then words and orders. Never allocates a result. */
typedef struct cmp_validator cmp_validator;
cmp_validator *cmp_validator_new(void);
void cmp_validator_free(cmp_validator *v);
bool cmp_validate_fast(cmp_validator *v, const mod_module *m, uint32_t own_index);
/* validate.c: ok[i] = cmp_validate_fast of every own body i, the second
   half of a big module's bodies on a thread of its own (bodies are
   independent and the module read-only). False when out of memory. */
bool cmp_validate_all(const mod_module *m, uint8_t *ok);

/* simd.c: one 0xFD-prefixed instruction (the prefix byte is read). */
weft_status cmp_simd_instr(compiler *c);
/* simd.c: skips a 0xFD instruction's immediates checking only its binary
   form (§5.4.10); false with c->r.why on a short read, MALFORMED through
   cmp_fail for an unknown sub-opcode. */
weft_status cmp_simd_skip(compiler *c, bool consts);
/* simd.c: the marker of v128 constant `v`, or NO_SLOT. */
uint32_t cmp_vconst_slot(const compiler *c, const cmp_v128 *v);

/* eh.c: exception handling (Wasm 3.0 §3.3.8 control instructions):
   try_table, throw, throw_ref and the legacy try, catch, catch_all,
   rethrow, delegate; `opcode` is read. */
weft_status cmp_compile_eh(compiler *c, uint8_t opcode);
/* eh.c: the `end` of a try_table closes its handlers' range. */
void cmp_eh_end(compiler *c, ctl *f);
/* eh.c: the handlers sorted innermost first, for the finished function;
   false when out of memory. */
bool cmp_eh_finish(compiler *c, cmp_func *cf);
/* compile.c's helpers that eh.c shares. */
ctl *cmp_top_ctl(compiler *c);
weft_status cmp_read_label(compiler *c, ctl **out);
weft_status cmp_read_blocktype(compiler *c, ctl *f);
weft_status cmp_open_block(compiler *c, ctl *f);
weft_status cmp_close_arm(compiler *c);
/* Pops n values of `types` (checked), their homes made consecutive first:
   a call's arguments and a throw's payload. */
weft_status cmp_pop_types(compiler *c, uint32_t n, const mod_valtype *types);
void cmp_label_types(const ctl *f, uint32_t *n, const mod_valtype **types);
void cmp_emit_target(compiler *c, ctl *f);
void cmp_set_target(compiler *c, uint32_t word, uint32_t target);
void cmp_set_unreachable(compiler *c);
void cmp_patch_fixups(compiler *c, ctl *f, uint32_t pos);
void cmp_emit_moves(compiler *c, uint32_t n, uint32_t dst, bool consume);

/* taildup.c: the layout pass run on every compiled function. Each BR
   whose target is a short straight-line run ending in BR, BR_TABLE,
   RETURN or UNREACHABLE is replaced by a copy of that run (BRs inside it
   followed); targets are re-encoded and pcmap rebuilt, a copied operation
   naming its source's offset. Replaces f->code and f->pcmap (and their
   lengths) when anything changed. False when out of memory, with f as it
   was. Runs before cmp_pair_ops, on operations that are not pairs. */
bool cmp_taildup(cmp_func *f);
/* taildup.c: marks f->back_edges on the compiler's output, before
   cmp_taildup (which carries the marks to its copies). False when out of
   memory. */
bool cmp_mark_back_edges(cmp_func *f);

/* pairs.c: replaces, in a function's finished code, the word of every
   operation followed by one it pairs with (CMP_PAIR_OPS) by the pair's. */
void cmp_pair_ops(uint32_t *code, uint32_t len);

#endif
