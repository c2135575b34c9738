/*
 * cabi.h — the canonical ABI, synchronous (CanonicalABI.md): the layout
 * of value types in linear memory, the flattening of function types to
 * core signatures, and lifting and lowering between core values plus a
 * linear memory and cm_val trees (ctype.h).
 *
 * Written against CanonicalABI.md's Python definitions, with the same
 * function structure (despecialize, alignment, elem_size, load/store,
 * lift_flat/lower_flat, lift_flat_values/lower_flat_values); each function
 * of cabi.c names the section it implements. Its behaviour, realloc calls
 * and traps included, is checked against definitions.py by
 * tests/component/cabi_diff.py.
 *
 * Who calls what (CanonicalABI.md "canon lift", "canon lower"):
 *   a call into a component (an export, canon lift):
 *       cm_abi_lower_params   the arguments into the callee's memory
 *       (the core function runs)
 *       cm_abi_lift_results   its results back out
 *   a call out of a component (an import, canon lower):
 *       cm_abi_lift_params    the arguments out of the caller's memory
 *       (the callee runs: a host function or another component)
 *       cm_abi_lower_results  its results into the caller's memory
 * Each with a cm_abi_cx naming the instance whose memory, realloc and
 * handle table are used, and the call (cm_task, cm_subtask: resource.h)
 * that borrow handles are scoped to.
 *
 * Limits (docs/components.md, "The canonical ABI"): linear memories are
 * 32-bit (memory64 options are not taken); a type nests at most
 * CM_ABI_MAX_DEPTH deep; every lifted value is allocated in the cx's
 * arena, whose limit bounds what a hostile length can make the host
 * allocate.
 */
#ifndef WEFT_COMPONENT_CABI_H
#define WEFT_COMPONENT_CABI_H

#include "ctype.h"

/* CanonicalABI.md "Flattening". */
#define CM_MAX_FLAT_PARAMS 16
#define CM_MAX_FLAT_ASYNC_PARAMS 4
#define CM_MAX_FLAT_RESULTS 1
/* CanonicalABI.md "Loading": the longest string and list a lift takes. */
#define CM_MAX_STRING_BYTE_LENGTH ((1u << 28) - 1)
#define CM_MAX_LIST_BYTE_LENGTH ((1u << 28) - 1)
/* How deep lifting and lowering recurse into a type (the validator's
   limit is CM_MAX_TYPE_DEPTH, 100); deeper is refused, never a crash. */
#define CM_ABI_MAX_DEPTH 128

/* The traps the canonical ABI defines. A trap's message begins with its
   code's phrase (wasmtime's wording where the component model's tests
   expect one), then says where and what: cm_trap_code() recovers the
   code from a message. X(code, phrase). */
#define CM_TRAPS(X)                                                                \
    X(CM_TRAP_UNALIGNED, "unaligned pointer")                                      \
    X(CM_TRAP_OOB, "pointer out of bounds of memory")                             \
    X(CM_TRAP_STRING_OOB, "string content out-of-bounds")                         \
    X(CM_TRAP_LIST_OOB, "list content out-of-bounds")                             \
    X(CM_TRAP_REALLOC_UNALIGNED, "realloc return: result not aligned")            \
    X(CM_TRAP_REALLOC_OOB, "realloc return: beyond end of memory")                \
    X(CM_TRAP_STRING_LENGTH, "string too long")                                   \
    X(CM_TRAP_LIST_LENGTH, "list too long")                                       \
    X(CM_TRAP_UTF8, "invalid utf-8")                                               \
    X(CM_TRAP_UTF16, "invalid utf-16")                                             \
    X(CM_TRAP_DISCRIMINANT, "invalid variant discriminant")                       \
    X(CM_TRAP_CHAR, "invalid `char` bit pattern")                                 \
    X(CM_TRAP_HANDLE_UNKNOWN, "unknown handle index")                             \
    X(CM_TRAP_HANDLE_TYPE, "wrong handle type")                                   \
    X(CM_TRAP_HANDLE_LENT, "cannot remove owned resource while borrowed")         \
    X(CM_TRAP_HANDLE_NOT_OWN, "not an own handle")                                \
    X(CM_TRAP_BORROWS_REMAIN, "borrow handles still remain at the end of the call") \
    X(CM_TRAP_TABLE_FULL, "handle table full")                                    \
    X(CM_TRAP_CANNOT_LEAVE, "cannot leave component instance")                    \
    X(CM_TRAP_TOO_LARGE, "value too large for the host")

typedef enum cm_trap {
    CM_TRAP_NONE = 0,
#define CM_TRAP_ENUM_(code, phrase) code,
    CM_TRAPS(CM_TRAP_ENUM_)
#undef CM_TRAP_ENUM_
    CM_TRAP_OTHER, /* a trap of the core code the ABI called (realloc, a destructor) */
} cm_trap;

/* The phrase of a code ("unaligned pointer"); "" for NONE and OTHER. */
const char *cm_trap_phrase(cm_trap code);
/* Which canonical ABI trap `err` reports: the code whose phrase its
   message begins with; CM_TRAP_NONE if err is not a trap, CM_TRAP_OTHER
   for any other trap. */
cm_trap cm_trap_code(const weft_error *err);
/* Fills err with WEFT_ERR_TRAP (weft_trap WEFT_TRAP_HOST: the core code
   sees a trap of the host call it made) and the message "<phrase>:
   <detail>", or the detail alone when it begins with the phrase.
   Returns WEFT_ERR_TRAP. */
weft_status cm_trap_fail(weft_error *err, cm_trap code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- layout (CanonicalABI.md "Alignment", "Element Size",
   "Flattening") ------------------------------------------------------ */

/* Fills t->size, t->align and t->flat_count, and those of every type it
   contains that has none yet (align 0), in 32-bit memory. Call it on
   each type before anything below uses it; calling it again is free.
   WEFT_ERR_INVALID when the type is malformed for the ABI (an empty
   record, tuple, variant, enum or flags, flags past 32 labels, a fixed
   list of length 0), too large (size 2^32 or more) or nests deeper than
   CM_ABI_MAX_DEPTH. The primitive types (cm_prim) come laid out. */
weft_status cm_abi_layout(cm_valtype *t, weft_error *err);

/* The discriminant's size of a variant of n cases ("discriminant_type"):
   1, 2 or 4 bytes. */
uint32_t cm_abi_discriminant_size(uint32_t n);

/* flatten_type: writes the core value types t flattens to into out (at
   most max of them) and returns how many there are (t->flat_count). */
uint32_t cm_abi_flatten(const cm_valtype *t, weft_valtype *out, uint32_t max);

/* A component function's core signature ("flatten_functype"). */
typedef struct cm_core_sig {
    uint32_t nparams, nresults;
    weft_valtype params[CM_MAX_FLAT_PARAMS + 1]; /* + 1: the out-pointer of a lowered call */
    weft_valtype results[CM_MAX_FLAT_RESULTS];
    bool params_spilled;  /* the params are one i32: a pointer to their tuple in memory */
    bool results_spilled; /* lift: the result is an i32 pointer to it in memory; lower: the
                             last param is an i32 pointer the results are stored through */
} cm_core_sig;

/* Which side of the function the signature is for: the core function a
   `canon lift` takes, or the one a `canon lower` gives. */
typedef enum cm_abi_side { CM_ABI_LIFT, CM_ABI_LOWER } cm_abi_side;

/* flatten_functype(opts, ft, context) with opts.async_ = async and
   opts.callback present = callback (async lift only). Every type of ft
   must have been laid out. */
void cm_abi_flatten_functype(const cm_functype *ft, bool async, bool callback, cm_abi_side side,
                             cm_core_sig *out);

/* ---- options and context (CanonicalABI.md "Canonical ABI Options",
   "Lifting and Lowering Context") ----------------------------------- */

typedef enum cm_encoding {
    CM_ENC_UTF8 = 0,
    CM_ENC_UTF16,
    CM_ENC_LATIN1_UTF16,
} cm_encoding;

/* The linear memory: its current bytes and size. Called again after
   every realloc call (a realloc may grow the memory and move it). */
typedef uint8_t *(*cm_memory_fn)(void *env, uint64_t *size);

/* The realloc option: (old_ptr, old_size, align, new_size) -> *new_ptr, a
   call of the component's core realloc function. Its trap (or any
   failure) is returned with err filled and fails the lift or lower. */
typedef weft_status (*cm_realloc_fn)(void *env, uint32_t old_ptr, uint32_t old_size,
                                     uint32_t align, uint32_t new_size, uint32_t *new_ptr,
                                     weft_error *err);

/* The options of one `canon lift` or `canon lower` (canonopt): fixed per
   definition, shared by its calls. */
typedef struct cm_abi_opts {
    cm_encoding encoding;
    cm_memory_fn memory; /* NULL: no memory option */
    void *memory_env;
    cm_realloc_fn realloc; /* NULL: no realloc option */
    void *realloc_env;
} cm_abi_opts;

typedef struct cm_inst_state cm_inst_state; /* resource.h */
typedef struct cm_task cm_task;
typedef struct cm_subtask cm_subtask;

/* The context of one lift or lower ("LiftLowerContext"): the options,
   the instance (its handle table, its may_leave flag), the call borrow
   handles are scoped to, and where lifted values go. Filled by the
   caller with cm_abi_cx_init; used by one thread at a time. */
typedef struct cm_abi_cx {
    const cm_abi_opts *opts;
    cm_inst_state *inst;  /* the instance whose memory this is; NULL: no handles */
    cm_task *task;        /* lowering a borrow into inst: the call into inst (canon lift) */
    cm_subtask *subtask;  /* lifting a borrow out of inst: the call out of inst (canon lower) */
    cm_arena *arena;      /* lifted values, strings and lists are allocated here */
    weft_error *err;      /* where a failure is reported (may be NULL) */
    /* The run-time resource a type's static identity names in inst
       (component/instance.h: resource types are generative, the
       validator's cm_resource is one per definition); NULL: the
       identity itself. Set after cm_abi_cx_init by whoever knows the
       instance. */
    const cm_resource *(*resolve)(void *env, const cm_resource *stat);
    void *resolve_env;
    /* private to cabi.c */
    uint8_t *mem;
    uint64_t mem_size;
    uint32_t depth;
} cm_abi_cx;

void cm_abi_cx_init(cm_abi_cx *cx, const cm_abi_opts *opts, cm_inst_state *inst, cm_arena *arena,
                    weft_error *err);

/* ---- values (CanonicalABI.md "Loading", "Storing", "Flat Lifting",
   "Flat Lowering", "Lifting and Lowering Values") -------------------- */

/* A list of types: a function's parameters (fields) or results (types).
   Exactly one of fields and types is used. */
typedef struct cm_typelist {
    uint32_t n;
    const cm_field *fields;          /* the type of each field */
    const cm_valtype *const *types;
} cm_typelist;

/* lift_flat_values(cx, max_flat, vi, ts): lifts n values of ts from the
   flat core values (their types as flatten_types says, or one i32 pointer
   to the tuple when they flatten to more than max_flat) into out[0..n).
   *used (may be NULL) gets how many flat values were read. Errors:
   WEFT_ERR_TRAP (cm_trap_code tells which), WEFT_ERR_MISUSE (flat values
   of the wrong number or type, a missing option), WEFT_ERR_LIMIT (deeper
   than CM_ABI_MAX_DEPTH). */
weft_status cm_abi_lift_flat_values(cm_abi_cx *cx, uint32_t max_flat, cm_typelist ts,
                                    const weft_val *flat, uint32_t nflat, uint32_t *used,
                                    cm_val *out);

/* lower_flat_values(cx, max_flat, vs, ts, out_param): lowers vs[0..n) of
   ts into flat[] (room for CM_MAX_FLAT_PARAMS + 1), *nflat of them. Past
   max_flat they are stored as a tuple in memory: at *out_param when it
   is given (no flat values then), else at a realloc'd pointer, which is
   the one flat value. Errors as above; WEFT_ERR_MISUSE also for a value
   that does not match its type (a host's mistake). */
weft_status cm_abi_lower_flat_values(cm_abi_cx *cx, uint32_t max_flat, cm_typelist ts,
                                     const cm_val *vs, const uint32_t *out_param, weft_val *flat,
                                     uint32_t *nflat);

/* load(cx, ptr, t) and store(cx, v, t, ptr), with the checks the
   definitions leave to their callers: ptr aligned to t and t's size
   within memory (else WEFT_ERR_TRAP: CM_TRAP_UNALIGNED, CM_TRAP_OOB). */
weft_status cm_abi_load(cm_abi_cx *cx, uint32_t ptr, const cm_valtype *t, cm_val *out);
weft_status cm_abi_store(cm_abi_cx *cx, const cm_val *v, const cm_valtype *t, uint32_t ptr);

/* A function's params and results as typelists. */
cm_typelist cm_abi_params(const cm_functype *ft);
cm_typelist cm_abi_results(const cm_functype *ft);

/* canon lift, the caller's side: the arguments lowered into the callee
   (cx->task: the callee's call, for borrows), then its results lifted. */
weft_status cm_abi_lower_params(cm_abi_cx *cx, const cm_functype *ft, const cm_val *args,
                                weft_val *flat, uint32_t *nflat);
weft_status cm_abi_lift_results(cm_abi_cx *cx, const cm_functype *ft, const weft_val *flat,
                                uint32_t nflat, cm_val *result);
/* canon lower: the arguments lifted out of the caller (cx->subtask: the
   call out, which borrows lend to), then the results lowered into it,
   through the out-pointer (the flat argument after the params) when
   they spill. */
weft_status cm_abi_lift_params(cm_abi_cx *cx, const cm_functype *ft, const weft_val *flat,
                               uint32_t nflat, cm_val *args);
weft_status cm_abi_lower_results(cm_abi_cx *cx, const cm_functype *ft, const cm_val *result,
                                 const weft_val *flat_args, uint32_t nflat_args, weft_val *flat,
                                 uint32_t *nflat);

/* Whether two values are equal: same kinds, same contents, strings by
   their characters (not their source encoding), floats by bits. For the
   fuzz harness and tests. */
bool cm_val_equal(const cm_val *a, const cm_val *b);

#endif
