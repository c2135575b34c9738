/*
 * interp.c — the interpreter loop: one function that runs compiled code
 * (code.h) until the call finishes, traps, or is asked to pause.
 *
 * Registers: ip (next operation), fp (frame slots), fn and inst (current
 * function and instance), mem/mem_size (the instance's memory 0, or the
 * memory MEM_SELECT chose for the one access after it: cur_mem). A wasm
 * call never recurses in C: the caller's registers go to e->frames and the
 * loop continues in the callee; return pops them.
 *
 * Dispatch is a computed goto through a label table (token threading) or,
 * with -DWEFT_DISPATCH_SWITCH=1, a plain switch; both come from the same
 * handlers. Every operation is one body, BODY_<name>(a_, b_) (see HANDLER
 * below), and the loop expands the operations table (compile/ops.h) into
 * the label table, each operation's handler and the pairs' handlers.
 *
 * Memory bounds: memories never move and only grow, so the cached size can
 * only be too small; an access that fails the fast check re-reads the size
 * before trapping. This keeps imported and shared memories exact without
 * reloading after every call.
 */
#include "exec.h"
#include "simd.h"
#include "../jit/jit.h"

#include <math.h>
#include <stdio.h>

#ifndef WEFT_DISPATCH_SWITCH
#define WEFT_DISPATCH_SWITCH 0
#endif
#ifndef WEFT_NO_ATTENTION
#define WEFT_NO_ATTENTION 0
#endif
/* Pairs (ops.h, CMP_PAIR_OPS) cost clang with the sanitizers far more
   compile time than they cost GCC (more than 20 minutes for this file):
   -DWEFT_PAIR_DEP=0 leaves out the dependent forms (their words run the
   plain pair), -DWEFT_NO_PAIRS=1 every pair (compile/pairs.c then makes
   none; about 8 minutes). The libFuzzer build (clang, LIBFUZZER=1) uses
   the second; the GCC builds, ASan's included, run every pair. */
#ifndef WEFT_NO_PAIRS
#define WEFT_NO_PAIRS 0
#endif
#ifndef WEFT_PAIR_DEP
#define WEFT_PAIR_DEP 1
#endif
#ifndef WEFT_PROFILE_PAIRS
#define WEFT_PROFILE_PAIRS 0
#endif

/* ------------------------------------------------------------------------
 * Value helpers: slots hold bits; floats are reinterpreted, never converted.
 * ------------------------------------------------------------------------ */
static inline float f32_of(uint64_t s) {
    uint32_t u = (uint32_t)s;
    float f;
    memcpy(&f, &u, 4);
    return f;
}
static inline double f64_of(uint64_t s) {
    double d;
    memcpy(&d, &s, 8);
    return d;
}
static inline uint64_t bits_f32(float f) {
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}
static inline uint64_t bits_f64(double d) {
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

/* f32_add, f32_mul, f64_add, f64_mul: simd.h (a's NaN first, as the
   compiler tier's adds[sd]). */

/* fmin/fmax per §4.3.3: NaN in, NaN out; -0 < +0. */
static inline float f32_min(float a, float b) {
    if (isnan(a) || isnan(b)) return a + b;
    if (a == b) return signbit(a) ? a : b;
    return a < b ? a : b;
}
static inline float f32_max(float a, float b) {
    if (isnan(a) || isnan(b)) return a + b;
    if (a == b) return signbit(a) ? b : a;
    return a > b ? a : b;
}
static inline double f64_min(double a, double b) {
    if (isnan(a) || isnan(b)) return a + b;
    if (a == b) return signbit(a) ? a : b;
    return a < b ? a : b;
}
static inline double f64_max(double a, double b) {
    if (isnan(a) || isnan(b)) return a + b;
    if (a == b) return signbit(a) ? b : a;
    return a > b ? a : b;
}

/* Rounding functions must return an arithmetic (quiet) NaN for a NaN
   input (§4.3.3); libm may hand a signalling NaN back unchanged. */
static inline float f32_round(float (*op)(float), float x) { return isnan(x) ? x + x : op(x); }
static inline double f64_round(double (*op)(double), double x) { return isnan(x) ? x + x : op(x); }

static inline uint32_t rotl32(uint32_t x, uint32_t n) { n &= 31; return n ? (x << n) | (x >> (32 - n)) : x; }
static inline uint32_t rotr32(uint32_t x, uint32_t n) { n &= 31; return n ? (x >> n) | (x << (32 - n)) : x; }
static inline uint64_t rotl64(uint64_t x, uint64_t n) { n &= 63; return n ? (x << n) | (x >> (64 - n)) : x; }
static inline uint64_t rotr64(uint64_t x, uint64_t n) { n &= 63; return n ? (x >> n) | (x << (64 - n)) : x; }

/* Saturating truncations (§4.3.3 trunc_sat). */
static inline int32_t sat_i32(double d) {
    if (isnan(d)) return 0;
    if (d <= -2147483648.0) return INT32_MIN;
    if (d >= 2147483648.0) return INT32_MAX;
    return (int32_t)d;
}
static inline uint32_t sat_u32(double d) {
    if (isnan(d) || d <= -1.0) return 0;
    if (d >= 4294967296.0) return UINT32_MAX;
    return (uint32_t)d;
}
static inline int64_t sat_i64(double d) {
    if (isnan(d)) return 0;
    if (d <= -9223372036854775808.0) return INT64_MIN;
    if (d >= 9223372036854775808.0) return INT64_MAX;
    return (int64_t)d;
}
static inline uint64_t sat_u64(double d) {
    if (isnan(d) || d <= -1.0) return 0;
    if (d >= 18446744073709551616.0) return UINT64_MAX;
    return (uint64_t)d;
}

static inline uint16_t load16(const uint8_t *p) { uint16_t v; memcpy(&v, p, 2); return v; }
static inline uint32_t load32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline uint64_t load64(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }

/* A label of a cold path: GCC moves the code after it out of the loop
   (the lazy-translation handler, issue 14, cost calls 2 % without it).
   clang has no such attribute on labels. */
#if defined(__clang__)
#define INTERP_COLD_LABEL __attribute__((unused))
#else
#define INTERP_COLD_LABEL __attribute__((cold, unused))
#endif

weft_status exec_run(weft_exec *exec, weft_error *err) {
    /* The execution is needed only off the hot paths (traps, host calls,
       attention, suspension). Kept in memory, it leaves the callee-saved
       registers to ip, fp, frame and the memory base; left to itself, GCC
       gives one of those away as the loop grows (measured with callgrind
       on bench/: the SIMD bodies otherwise cost call-heavy code 1-2 %).
       The same for the values only calls, returns and slow paths read
       (tier_calls, cur_mem, frames_base, frames_end, stack_end,
       code_table): volatile, they live on the stack, one load where they
       are read. Left to GCC, the 20 relaxed SIMD rows (838e677) tipped
       its allocator into spilling the label table's address, reloaded at
       every dispatch (13.8 M instructions in exec_run on
       tests/pairs/wasm/sieve.wasm, 12.8 M with these volatile; 12.1 M at
       877c987, before exact fuel and Wasm 3.0). */
    weft_exec *volatile const e = exec;
#if !WEFT_DISPATCH_SWITCH
    static const void *const labels[CMP_OP_COUNT] = {
#define CMP_X_LABEL(name, ...) &&L_##name,
        CMP_OPS(CMP_X_LABEL)
#undef CMP_X_LABEL
#if WEFT_NO_PAIRS
#define CMP_PAIR_LABEL(op, a, b, form) &&L_UNREACHABLE
#elif !WEFT_PAIR_DEP
#define CMP_PAIR_LABEL(op, a, b, form) &&L_##a##__##b
#else
#define CMP_PAIR_LABEL(op, a, b, form) &&L_##op
#endif
#define CMP_PAIR_FORM(op, a, b, form) CMP_PAIR_LABEL(op, a, b, form),
        CMP_PAIR_FORMS
#undef CMP_PAIR_FORM
    };
#define OP(name) L_##name:
#define NEXT_DISPATCH() goto *labels[*ip]
#else
#define OP(name) case CMP_##name:
#define NEXT_DISPATCH() goto dispatch
#endif
/* The profiling build (-DWEFT_PROFILE_PAIRS=1, exec/profile.c) counts
   each dispatch that falls through from the previous one by its pair of
   operations: how the pairs in pairs_list.h are chosen (tools/pairs/). */
#if WEFT_PROFILE_PAIRS
#define NEXT() do { prof_prev = exec_profile_dispatch(prof_prev, ip); NEXT_DISPATCH(); } while (0)
#else
#define NEXT() NEXT_DISPATCH()
#endif
/* The compiler tier (docs/jit.md): where the interpreter arrives at an
   operation of a function that has machine code (entering it, returning
   to it, after a host call or the attention word), the machine code runs
   from there in the same frame, until it hands an operation back. */
#if WEFT_JIT
#define JIT_NEXT()                                                                   \
    do {                                                                             \
        if (BASE_UNLIKELY(atomic_load_explicit(&fn->jit, memory_order_acquire) != NULL)) \
            goto run_jit;                                                            \
        NEXT();                                                                      \
    } while (0)
#else
#define JIT_NEXT() NEXT()
#endif

    const uint32_t *ip = e->ip;
#if WEFT_JIT
    const bool volatile tier_calls = e->store->engine && e->store->engine->config.tier == WEFT_TIER_AUTO;
#endif
#if WEFT_PROFILE_PAIRS
    const uint32_t *prof_prev = NULL;
#endif
    uint64_t *fp = e->fp;
    const cmp_func *fn = e->fn;
    weft_instance *inst = e->inst;
    /* Multi-memory: cur_mem is memory 0 but between a MEM_SELECT n and the
       MEM_SELECT 0 the compiler puts after the one operation on memory n
       (no call, branch or safe point comes between), so the memory-0
       handlers serve every memory and memory 0's fast path is unchanged. */
    weft_memory *volatile cur_mem = e->mem_sel ? e->mem_sel : inst->mem0; /* (SAVE_REGS) */
    uint8_t *mem = cur_mem ? cur_mem->data : NULL;
    uint64_t mem_size = cur_mem ? atomic_load_explicit(&cur_mem->size, memory_order_relaxed) : 0;
    _Atomic uint32_t *attn = &e->attention;
    /* The target word of the taken branch that found the attention word
       set (JUMP): whether it is a back-edge decides its fuel. */
    const uint32_t *jump_word = NULL;
    weft_trap trap = WEFT_TRAP_NONE;
    const char *trap_msg = NULL;
    char trap_buf[64];
    weft_status st;
    weft_func *callee;
    weft_exn *thrown;
    uint64_t *nfp;
    const cmp_func *cf;
    weft_instance *cinst;
    /* Saved callers: frame is the next free record. */
    exec_frame *frame = e->frames + e->depth;
    exec_frame *const volatile frames_base = e->frames;
    /* What a call may use without asking (exec.h: the reservation's ends,
       or what a memory budget has paid for). */
    exec_frame *volatile frames_end = e->frame_commit;
    uint64_t *volatile stack_end = e->commit_end;
    /* Own functions' code or stubs (module.h): acquire loads, no lock. */
    _Atomic(struct cmp_func *) *volatile code_table = inst->module->code;
#define SYNC_DEPTH() (e->depth = (uint32_t)(frame - frames_base))
/* Saves the registers where a resumed run continues. */
#define SAVE_REGS()                                                                  \
    do {                                                                             \
        SYNC_DEPTH();                                                                \
        e->ip = ip;                                                                  \
        e->fp = fp;                                                                  \
        e->fn = fn;                                                                  \
        e->inst = inst;                                                              \
        e->mem_sel = cur_mem != inst->mem0 ? cur_mem : NULL;                         \
    } while (0)
#define LOAD_INST()                                                                  \
    do {                                                                             \
        cur_mem = inst->mem0;                                                        \
        LOAD_MEM();                                                                  \
        code_table = inst->module->code;                                             \
    } while (0)
    int wait_result;

/* The attention word, read where execution may stop: taken branches,
   function entry and SAFE_POINT (the fuel rule: `attention` below).
   Building with -DWEFT_NO_ATTENTION=1 compiles the reads out, to measure
   what they cost (bench/); such a build cannot be suspended or stopped. */
#if WEFT_NO_ATTENTION
#define ATTENTION() 0
#else
#define ATTENTION() atomic_load_explicit(attn, memory_order_relaxed)
#endif
#define S(i) fp[ip[i]]
#define U32(i) ((uint32_t)fp[ip[i]])
#define I32(i) ((int32_t)fp[ip[i]])
#define U64(i) (fp[ip[i]])
#define I64(i) ((int64_t)fp[ip[i]])
#define F32(i) f32_of(fp[ip[i]])
#define F64(i) f64_of(fp[ip[i]])
/* The same, of a slot's value (a body's input values). */
#define U32V(v) ((uint32_t)(v))
#define I32V(v) ((int32_t)(v))
#define U64V(v) ((uint64_t)(v))
#define I64V(v) ((int64_t)(v))
#define F32V(v) f32_of(v)
#define F64V(v) f64_of(v)
#define TRAP(kind) do { trap = (kind); goto do_trap; } while (0)
#define LOAD_MEM()                                                                   \
    do {                                                                             \
        mem = cur_mem ? cur_mem->data : NULL;                                        \
        mem_size = cur_mem ? atomic_load_explicit(&cur_mem->size, memory_order_relaxed) : 0; \
    } while (0)
/* Bounds check of [ea, ea + n): the fast test, then a re-read of the size. */
#define CHECK_MEM(ea, n)                                                             \
    do {                                                                             \
        if (BASE_UNLIKELY((ea) + (n) > mem_size)) {                                  \
            LOAD_MEM();                                                              \
            if ((ea) + (n) > mem_size) TRAP(WEFT_TRAP_MEM_OOB);                      \
        }                                                                            \
    } while (0)

/* Every operation's body is BODY_<name>(a_, b_), without the step to the
   next operation: a_ and b_ are its input values, the slots its shape
   names (ops.h: CMP_IN1_<name>, CMP_IN2_<name>; 0 when it has none).
   HANDLER makes the operation's own handler of it, PAIR_BODIES a pair's
   of two bodies, so a pair whose second reads the first's result can
   pass the value the first stored, which stays in a register. A body
   reads other words through ip (immediates, a third input) and writes
   its result through fp[ip[1]]; a body that leaves the straight line
   (a branch, call, return or trap) does so itself. */
#define IN(k) ((k) ? S(k) : 0)
/* A step exit of compiled code (JIT_STEP_OP, jit.h) comes back into the
   machine code after the operation (a constant test: no code in the
   other handlers). */
#if WEFT_JIT
#define STEP_NEXT(name) do { if (JIT_STEP_OP(CMP_##name)) JIT_NEXT(); NEXT(); } while (0)
#else
#define STEP_NEXT(name) NEXT()
#endif
#define HANDLER(name)                                                                \
    OP(name) {                                                                       \
        BODY_##name(IN(CMP_IN1_##name), IN(CMP_IN2_##name))                          \
        ip += CMP_LEN_##name;                                                        \
        STEP_NEXT(name);                                                             \
    }
#define BODY_BIN(expr) fp[ip[1]] = (expr);

    if (BASE_UNLIKELY(e->state == EXEC_PARKED)) {
        if (e->host_pending) {
            /* Resumed on a restartable host call: ip is its return
               address. Make it again, unless asked to stop. */
            callee = e->host_pending;
            nfp = e->host_slots;
            e->host_pending = NULL;
            if (atomic_load_explicit(attn, memory_order_acquire) & WEFT_ATTN_STOP) goto attention_free;
            goto call_host;
        }
        /* Resumed after a parked futex wait: ip is on the wait. */
        wait_result = rt_futex_settle(e);
        goto after_wait;
    }
    JIT_NEXT();
#if WEFT_DISPATCH_SWITCH
dispatch:
    switch (*ip) {
#endif

#define BODY_I32_EQ(a_, b_) BODY_BIN((uint64_t)(I32V(a_) == I32V(b_)))
#define BODY_I32_EQZ(a_, b_) fp[ip[1]] = (uint64_t)(((uint32_t)(a_)) == 0);
#define BODY_I32_NE(a_, b_) BODY_BIN((uint64_t)(U32V(a_) != U32V(b_)))
#define BODY_I32_LT_S(a_, b_) BODY_BIN((uint64_t)(I32V(a_) < I32V(b_)))
#define BODY_I32_LT_U(a_, b_) BODY_BIN((uint64_t)(((uint32_t)(a_)) < ((uint32_t)(b_))))
#define BODY_I32_GT_S(a_, b_) BODY_BIN((uint64_t)(((int32_t)(a_)) > ((int32_t)(b_))))
#define BODY_I32_GT_U(a_, b_) BODY_BIN((uint64_t)(((uint32_t)(a_)) > ((uint32_t)(b_))))
#define BODY_I32_LE_S(a_, b_) BODY_BIN((uint64_t)(I32V(a_) <= I32V(b_)))
#define BODY_I32_LE_U(a_, b_) BODY_BIN((uint64_t)(U32V(a_) <= U32V(b_)))
#define BODY_I32_GE_S(a_, b_) BODY_BIN((uint64_t)(I32V(a_) >= I32V(b_)))
#define BODY_I32_GE_U(a_, b_) BODY_BIN((uint64_t)(U32V(a_) >= U32V(b_)))
#define BODY_I64_EQZ(a_, b_) BODY_BIN((uint64_t)(U64V(a_) == 0))
#define BODY_I64_EQ(a_, b_) BODY_BIN((uint64_t)(U64V(a_) == U64V(b_)))
#define BODY_I64_NE(a_, b_) BODY_BIN((uint64_t)(U64V(a_) != U64V(b_)))
#define BODY_I64_LT_S(a_, b_) BODY_BIN((uint64_t)(I64V(a_) < I64V(b_)))
#define BODY_I64_LT_U(a_, b_) BODY_BIN((uint64_t)(U64V(a_) < U64V(b_)))
#define BODY_I64_GT_S(a_, b_) BODY_BIN((uint64_t)(I64V(a_) > I64V(b_)))
#define BODY_I64_GT_U(a_, b_) BODY_BIN((uint64_t)(U64V(a_) > U64V(b_)))
#define BODY_I64_LE_S(a_, b_) BODY_BIN((uint64_t)(I64V(a_) <= I64V(b_)))
#define BODY_I64_LE_U(a_, b_) BODY_BIN((uint64_t)(U64V(a_) <= U64V(b_)))
#define BODY_I64_GE_S(a_, b_) BODY_BIN((uint64_t)(I64V(a_) >= I64V(b_)))
#define BODY_I64_GE_U(a_, b_) BODY_BIN((uint64_t)(U64V(a_) >= U64V(b_)))
#define BODY_F32_EQ(a_, b_) BODY_BIN((uint64_t)(F32V(a_) == F32V(b_)))
#define BODY_F32_NE(a_, b_) BODY_BIN((uint64_t)(F32V(a_) != F32V(b_)))
#define BODY_F32_LT(a_, b_) BODY_BIN((uint64_t)(F32V(a_) < F32V(b_)))
#define BODY_F32_GT(a_, b_) BODY_BIN((uint64_t)(F32V(a_) > F32V(b_)))
#define BODY_F32_LE(a_, b_) BODY_BIN((uint64_t)(F32V(a_) <= F32V(b_)))
#define BODY_F32_GE(a_, b_) BODY_BIN((uint64_t)(F32V(a_) >= F32V(b_)))
#define BODY_F64_EQ(a_, b_) BODY_BIN((uint64_t)(F64V(a_) == F64V(b_)))
#define BODY_F64_NE(a_, b_) BODY_BIN((uint64_t)(F64V(a_) != F64V(b_)))
#define BODY_F64_LT(a_, b_) BODY_BIN((uint64_t)(F64V(a_) < F64V(b_)))
#define BODY_F64_GT(a_, b_) BODY_BIN((uint64_t)(F64V(a_) > F64V(b_)))
#define BODY_F64_LE(a_, b_) BODY_BIN((uint64_t)(F64V(a_) <= F64V(b_)))
#define BODY_F64_GE(a_, b_) BODY_BIN((uint64_t)(F64V(a_) >= F64V(b_)))

#define BODY_I32_CLZ(a_, b_) BODY_BIN(U32V(a_) ? (uint64_t)__builtin_clz(U32V(a_)) : 32)
#define BODY_I32_CTZ(a_, b_) BODY_BIN(U32V(a_) ? (uint64_t)__builtin_ctz(U32V(a_)) : 32)
#define BODY_I32_POPCNT(a_, b_) BODY_BIN((uint64_t)__builtin_popcount(U32V(a_)))
#define BODY_I32_ADD(a_, b_) BODY_BIN((uint32_t)(((uint32_t)(a_)) + ((uint32_t)(b_))))
#define BODY_I32_SUB(a_, b_) BODY_BIN((uint32_t)(((uint32_t)(a_)) - ((uint32_t)(b_))))
#define BODY_I32_MUL(a_, b_) BODY_BIN((uint32_t)(((uint32_t)(a_)) * ((uint32_t)(b_))))
#define BODY_I32_DIV_S(a_, b_)                                                       \
    {                                                                                \
        int32_t a = I32V(a_), b = I32V(b_);                                          \
        if (b == 0) TRAP(WEFT_TRAP_DIV_ZERO);                                        \
        if (a == INT32_MIN && b == -1) TRAP(WEFT_TRAP_INT_OVERFLOW);                 \
        fp[ip[1]] = (uint32_t)(a / b);                                               \
    }
#define BODY_I32_DIV_U(a_, b_)                                                       \
    {                                                                                \
        uint32_t b = U32V(b_);                                                       \
        if (b == 0) TRAP(WEFT_TRAP_DIV_ZERO);                                        \
        fp[ip[1]] = U32V(a_) / b;                                                    \
    }
#define BODY_I32_REM_S(a_, b_)                                                       \
    {                                                                                \
        int32_t a = I32V(a_), b = I32V(b_);                                          \
        if (b == 0) TRAP(WEFT_TRAP_DIV_ZERO);                                        \
        fp[ip[1]] = b == -1 ? 0 : (uint32_t)(a % b);                                 \
    }
#define BODY_I32_REM_U(a_, b_)                                                       \
    {                                                                                \
        uint32_t b = U32V(b_);                                                       \
        if (b == 0) TRAP(WEFT_TRAP_DIV_ZERO);                                        \
        fp[ip[1]] = U32V(a_) % b;                                                    \
    }
#define BODY_I32_AND(a_, b_) BODY_BIN((uint32_t)(((uint32_t)(a_)) & ((uint32_t)(b_))))
#define BODY_I32_OR(a_, b_) BODY_BIN((uint32_t)(U32V(a_) | U32V(b_)))
#define BODY_I32_XOR(a_, b_) BODY_BIN((uint32_t)(((uint32_t)(a_)) ^ ((uint32_t)(b_))))
#define BODY_I32_SHL(a_, b_) BODY_BIN((uint32_t)(U32V(a_) << (U32V(b_) & 31)))
#define BODY_I32_SHR_S(a_, b_) BODY_BIN((uint32_t)(I32V(a_) >> (U32V(b_) & 31)))
#define BODY_I32_SHR_U(a_, b_) BODY_BIN((uint32_t)(U32V(a_) >> (U32V(b_) & 31)))
#define BODY_I32_ROTL(a_, b_) BODY_BIN(rotl32(U32V(a_), U32V(b_)))
#define BODY_I32_ROTR(a_, b_) BODY_BIN(rotr32(U32V(a_), U32V(b_)))

#define BODY_I64_CLZ(a_, b_) BODY_BIN(U64V(a_) ? (uint64_t)__builtin_clzll(U64V(a_)) : 64)
#define BODY_I64_CTZ(a_, b_) BODY_BIN(U64V(a_) ? (uint64_t)__builtin_ctzll(U64V(a_)) : 64)
#define BODY_I64_POPCNT(a_, b_) BODY_BIN((uint64_t)__builtin_popcountll(U64V(a_)))
#define BODY_I64_ADD(a_, b_) BODY_BIN(((uint64_t)(a_)) + ((uint64_t)(b_)))
#define BODY_I64_SUB(a_, b_) BODY_BIN(U64V(a_) - U64V(b_))
#define BODY_I64_MUL(a_, b_) BODY_BIN(U64V(a_) * U64V(b_))
#define BODY_I64_DIV_S(a_, b_)                                                       \
    {                                                                                \
        int64_t a = I64V(a_), b = I64V(b_);                                          \
        if (b == 0) TRAP(WEFT_TRAP_DIV_ZERO);                                        \
        if (a == INT64_MIN && b == -1) TRAP(WEFT_TRAP_INT_OVERFLOW);                 \
        fp[ip[1]] = (uint64_t)(a / b);                                               \
    }
#define BODY_I64_DIV_U(a_, b_)                                                       \
    {                                                                                \
        uint64_t b = U64V(b_);                                                       \
        if (b == 0) TRAP(WEFT_TRAP_DIV_ZERO);                                        \
        fp[ip[1]] = U64V(a_) / b;                                                    \
    }
#define BODY_I64_REM_S(a_, b_)                                                       \
    {                                                                                \
        int64_t a = I64V(a_), b = I64V(b_);                                          \
        if (b == 0) TRAP(WEFT_TRAP_DIV_ZERO);                                        \
        fp[ip[1]] = b == -1 ? 0 : (uint64_t)(a % b);                                 \
    }
#define BODY_I64_REM_U(a_, b_)                                                       \
    {                                                                                \
        uint64_t b = U64V(b_);                                                       \
        if (b == 0) TRAP(WEFT_TRAP_DIV_ZERO);                                        \
        fp[ip[1]] = U64V(a_) % b;                                                    \
    }
#define BODY_I64_AND(a_, b_) BODY_BIN(U64V(a_) & U64V(b_))
#define BODY_I64_OR(a_, b_) BODY_BIN(U64V(a_) | U64V(b_))
#define BODY_I64_XOR(a_, b_) BODY_BIN(U64V(a_) ^ U64V(b_))
#define BODY_I64_SHL(a_, b_) BODY_BIN(U64V(a_) << (U64V(b_) & 63))
#define BODY_I64_SHR_S(a_, b_) BODY_BIN((uint64_t)(I64V(a_) >> (U64V(b_) & 63)))
#define BODY_I64_SHR_U(a_, b_) BODY_BIN(U64V(a_) >> (U64V(b_) & 63))
#define BODY_I64_ROTL(a_, b_) BODY_BIN(rotl64(U64V(a_), U64V(b_)))
#define BODY_I64_ROTR(a_, b_) BODY_BIN(rotr64(U64V(a_), U64V(b_)))

#define BODY_F32_ABS(a_, b_) BODY_BIN(U32V(a_) & 0x7FFFFFFFu)
#define BODY_F32_NEG(a_, b_) BODY_BIN(U32V(a_) ^ 0x80000000u)
#define BODY_F32_CEIL(a_, b_) BODY_BIN(bits_f32(f32_round(ceilf, F32V(a_))))
#define BODY_F32_FLOOR(a_, b_) BODY_BIN(bits_f32(f32_round(floorf, F32V(a_))))
#define BODY_F32_TRUNC(a_, b_) BODY_BIN(bits_f32(f32_round(truncf, F32V(a_))))
#define BODY_F32_NEAREST(a_, b_) BODY_BIN(bits_f32(f32_round(nearbyintf, F32V(a_))))
#define BODY_F32_SQRT(a_, b_) BODY_BIN(bits_f32(sqrtf(F32V(a_))))
#define BODY_F32_ADD(a_, b_) BODY_BIN(bits_f32(f32_add(F32V(a_), F32V(b_))))
#define BODY_F32_SUB(a_, b_) BODY_BIN(bits_f32(F32V(a_) - F32V(b_)))
#define BODY_F32_MUL(a_, b_) BODY_BIN(bits_f32(f32_mul(F32V(a_), F32V(b_))))
#define BODY_F32_DIV(a_, b_) BODY_BIN(bits_f32(F32V(a_) / F32V(b_)))
#define BODY_F32_MIN(a_, b_) BODY_BIN(bits_f32(f32_min(F32V(a_), F32V(b_))))
#define BODY_F32_MAX(a_, b_) BODY_BIN(bits_f32(f32_max(F32V(a_), F32V(b_))))
#define BODY_F32_COPYSIGN(a_, b_) BODY_BIN((U32V(a_) & 0x7FFFFFFFu) | (U32V(b_) & 0x80000000u))
#define BODY_F64_ABS(a_, b_) BODY_BIN(U64V(a_) & 0x7FFFFFFFFFFFFFFFull)
#define BODY_F64_NEG(a_, b_) BODY_BIN(U64V(a_) ^ 0x8000000000000000ull)
#define BODY_F64_CEIL(a_, b_) BODY_BIN(bits_f64(f64_round(ceil, F64V(a_))))
#define BODY_F64_FLOOR(a_, b_) BODY_BIN(bits_f64(f64_round(floor, F64V(a_))))
#define BODY_F64_TRUNC(a_, b_) BODY_BIN(bits_f64(f64_round(trunc, F64V(a_))))
#define BODY_F64_NEAREST(a_, b_) BODY_BIN(bits_f64(f64_round(nearbyint, F64V(a_))))
#define BODY_F64_SQRT(a_, b_) BODY_BIN(bits_f64(sqrt(f64_of(a_))))
#define BODY_F64_ADD(a_, b_) BODY_BIN(bits_f64(f64_add(f64_of(a_), f64_of(b_))))
#define BODY_F64_SUB(a_, b_) BODY_BIN(bits_f64(f64_of(a_) - f64_of(b_)))
#define BODY_F64_MUL(a_, b_) BODY_BIN(bits_f64(f64_mul(f64_of(a_), f64_of(b_))))
#define BODY_F64_DIV(a_, b_) BODY_BIN(bits_f64(f64_of(a_) / f64_of(b_)))
#define BODY_F64_MIN(a_, b_) BODY_BIN(bits_f64(f64_min(F64V(a_), F64V(b_))))
#define BODY_F64_MAX(a_, b_) BODY_BIN(bits_f64(f64_max(F64V(a_), F64V(b_))))
#define BODY_F64_COPYSIGN(a_, b_) BODY_BIN((U64V(a_) & 0x7FFFFFFFFFFFFFFFull) | (U64V(b_) & 0x8000000000000000ull))

#define BODY_I32_WRAP_I64(a_, b_) BODY_BIN((uint32_t)U64V(a_))
    /* Trapping truncations (§4.3.3 trunc): NaN is an invalid conversion,
       anything whose truncation is out of range an overflow. */
#define TRUNC(x_, T, lo_ok, hi_ok, conv)                                             \
    {                                                                                \
        T x = (x_);                                                                  \
        if (isnan(x)) TRAP(WEFT_TRAP_BAD_CONVERSION);                                \
        if (!(lo_ok) || !(hi_ok)) TRAP(WEFT_TRAP_INT_OVERFLOW);                      \
        fp[ip[1]] = conv;                                                            \
    }
#define BODY_I32_TRUNC_F32_S(a_, b_) TRUNC(F32V(a_), float, x >= -2147483648.0f, x < 2147483648.0f, (uint32_t)(int32_t)x)
#define BODY_I32_TRUNC_F32_U(a_, b_) TRUNC(F32V(a_), float, x > -1.0f, x < 4294967296.0f, (uint32_t)x)
#define BODY_I32_TRUNC_F64_S(a_, b_) TRUNC(F64V(a_), double, x > -2147483649.0, x < 2147483648.0, (uint32_t)(int32_t)x)
#define BODY_I32_TRUNC_F64_U(a_, b_) TRUNC(F64V(a_), double, x > -1.0, x < 4294967296.0, (uint32_t)x)
#define BODY_I64_TRUNC_F32_S(a_, b_) TRUNC(F32V(a_), float, x >= -9223372036854775808.0f, x < 9223372036854775808.0f, (uint64_t)(int64_t)x)
#define BODY_I64_TRUNC_F32_U(a_, b_) TRUNC(F32V(a_), float, x > -1.0f, x < 18446744073709551616.0f, (uint64_t)x)
#define BODY_I64_TRUNC_F64_S(a_, b_) TRUNC(F64V(a_), double, x >= -9223372036854775808.0, x < 9223372036854775808.0, (uint64_t)(int64_t)x)
#define BODY_I64_TRUNC_F64_U(a_, b_) TRUNC(F64V(a_), double, x > -1.0, x < 18446744073709551616.0, (uint64_t)x)
#define BODY_I64_EXTEND_I32_S(a_, b_) BODY_BIN((uint64_t)(int64_t)I32V(a_))
#define BODY_F32_CONVERT_I32_S(a_, b_) BODY_BIN(bits_f32((float)I32V(a_)))
#define BODY_F32_CONVERT_I32_U(a_, b_) BODY_BIN(bits_f32((float)U32V(a_)))
#define BODY_F32_CONVERT_I64_S(a_, b_) BODY_BIN(bits_f32((float)I64V(a_)))
#define BODY_F32_CONVERT_I64_U(a_, b_) BODY_BIN(bits_f32((float)U64V(a_)))
#define BODY_F32_DEMOTE_F64(a_, b_) BODY_BIN(bits_f32((float)F64V(a_)))
#define BODY_F64_CONVERT_I32_S(a_, b_) BODY_BIN(bits_f64((double)I32V(a_)))
#define BODY_F64_CONVERT_I32_U(a_, b_) BODY_BIN(bits_f64((double)U32V(a_)))
#define BODY_F64_CONVERT_I64_S(a_, b_) BODY_BIN(bits_f64((double)I64V(a_)))
#define BODY_F64_CONVERT_I64_U(a_, b_) BODY_BIN(bits_f64((double)U64V(a_)))
#define BODY_F64_PROMOTE_F32(a_, b_) BODY_BIN(bits_f64((double)F32V(a_)))
#define BODY_I32_EXTEND8_S(a_, b_) BODY_BIN((uint32_t)(int32_t)(int8_t)U32V(a_))
#define BODY_I32_EXTEND16_S(a_, b_) BODY_BIN((uint32_t)(int32_t)(int16_t)U32V(a_))
#define BODY_I64_EXTEND8_S(a_, b_) BODY_BIN((uint64_t)(int64_t)(int8_t)U64V(a_))
#define BODY_I64_EXTEND16_S(a_, b_) BODY_BIN((uint64_t)(int64_t)(int16_t)U64V(a_))
#define BODY_I64_EXTEND32_S(a_, b_) BODY_BIN((uint64_t)(int64_t)(int32_t)U64V(a_))
#define BODY_I32_TRUNC_SAT_F32_S(a_, b_) BODY_BIN((uint32_t)sat_i32(F32V(a_)))
#define BODY_I32_TRUNC_SAT_F32_U(a_, b_) BODY_BIN(sat_u32(F32V(a_)))
#define BODY_I32_TRUNC_SAT_F64_S(a_, b_) BODY_BIN((uint32_t)sat_i32(F64V(a_)))
#define BODY_I32_TRUNC_SAT_F64_U(a_, b_) BODY_BIN(sat_u32(F64V(a_)))
#define BODY_I64_TRUNC_SAT_F32_S(a_, b_) BODY_BIN((uint64_t)sat_i64(F32V(a_)))
#define BODY_I64_TRUNC_SAT_F32_U(a_, b_) BODY_BIN(sat_u64(F32V(a_)))
#define BODY_I64_TRUNC_SAT_F64_S(a_, b_) BODY_BIN((uint64_t)sat_i64(F64V(a_)))
#define BODY_I64_TRUNC_SAT_F64_U(a_, b_) BODY_BIN(sat_u64(F64V(a_)))

    /* ---- control ---- */
#define BODY_UNREACHABLE(a_, b_) TRAP(WEFT_TRAP_UNREACHABLE);
    /* Every taken branch reads the attention word: a request is honoured
       there. Fuel and slices count only a back-edge (fn->back_edges, for
       the word at ip + k): the handler looks it up, so the branch itself
       costs the same either way. (Reading the word before the jump, to
       compute the target word's position on the slow path only, cost 14 %
       more instructions in the loop: bench/results/2026-12-02-fuel-callgrind.txt.) */
#define JUMP(k)                                                                      \
    do {                                                                             \
        const uint32_t *w_ = ip + (k);                                               \
        ip = w_ + (int32_t)*w_;                                                      \
        if (BASE_UNLIKELY(ATTENTION())) {                                            \
            jump_word = w_;                                                          \
            goto attention_jump;                                                     \
        }                                                                            \
        NEXT();                                                                      \
    } while (0)
#define BODY_BR(a_, b_) JUMP(1);
#define BODY_BR_IF(a_, b_) if (((uint32_t)(a_))) JUMP(2);
#define BODY_BR_UNLESS(a_, b_) if (!U32V(a_)) JUMP(2);
#define BODY_BR_TABLE(a_, b_)                                                        \
    {                                                                                \
        uint32_t i_ = ((uint32_t)(a_)), n_ = ip[2];                                  \
        JUMP(3 + (i_ < n_ ? i_ : n_));                                               \
    }
#define BODY_BR_CMP(a_, b_, type, op) if (type##V(a_) op type##V(b_)) JUMP(3);
#define BODY_BR_IF_I32_EQ(a_, b_) BODY_BR_CMP(a_, b_, U32, ==)
#define BODY_BR_IF_I32_NE(a_, b_) BODY_BR_CMP(a_, b_, U32, !=)
#define BODY_BR_IF_I32_LT_U(a_, b_) BODY_BR_CMP(a_, b_, U32, <)
#define BODY_BR_IF_I32_GT_U(a_, b_) BODY_BR_CMP(a_, b_, U32, >)
#define BODY_BR_IF_I32_LT_S(a_, b_) BODY_BR_CMP(a_, b_, I32, <)
#define BODY_BR_IF_I32_GT_S(a_, b_) BODY_BR_CMP(a_, b_, I32, >)
#define BODY_BR_IF_I32_LE_S(a_, b_) BODY_BR_CMP(a_, b_, I32, <=)
#define BODY_BR_IF_I32_LE_U(a_, b_) BODY_BR_CMP(a_, b_, U32, <=)
#define BODY_BR_IF_I32_GE_S(a_, b_) BODY_BR_CMP(a_, b_, I32, >=)
#define BODY_BR_IF_I32_GE_U(a_, b_) BODY_BR_CMP(a_, b_, U32, >=)
#define BODY_BR_IF_I64_NE(a_, b_) BODY_BR_CMP(a_, b_, U64, !=)
#define BODY_BR_IF_I64_EQ(a_, b_) BODY_BR_CMP(a_, b_, U64, ==)
#define BODY_BR_IF_I64_LT_S(a_, b_) BODY_BR_CMP(a_, b_, I64, <)
#define BODY_BR_IF_I64_LT_U(a_, b_) BODY_BR_CMP(a_, b_, U64, <)
#define BODY_BR_IF_I64_GT_S(a_, b_) BODY_BR_CMP(a_, b_, I64, >)
#define BODY_BR_IF_I64_GT_U(a_, b_) BODY_BR_CMP(a_, b_, U64, >)
#define BODY_BR_IF_I64_LE_S(a_, b_) BODY_BR_CMP(a_, b_, I64, <=)
#define BODY_BR_IF_I64_LE_U(a_, b_) BODY_BR_CMP(a_, b_, U64, <=)
#define BODY_BR_IF_I64_GE_S(a_, b_) BODY_BR_CMP(a_, b_, I64, >=)
#define BODY_BR_IF_I64_GE_U(a_, b_) BODY_BR_CMP(a_, b_, U64, >=)
#define BODY_BR_IF_I32_EQZ(a_, b_) if (!((uint32_t)(a_))) JUMP(2);
#define BODY_BR_IF_I64_EQZ(a_, b_) if (!U64V(a_)) JUMP(2);
#define BODY_BR_IF_I64_NEZ(a_, b_) if (U64V(a_)) JUMP(2);
    /* A back-edge whose BR tail duplication left out (taildup.c): its unit. */
#define BODY_SAFE_POINT(a_, b_)                                                      \
    {                                                                                \
        ip += 1;                                                                     \
        if (BASE_UNLIKELY(ATTENTION())) goto attention;                              \
        NEXT();                                                                      \
    }
#define BODY_RETURN(a_, b_)                                                          \
    {                                                                                \
        if (BASE_UNLIKELY(frame == frames_base)) goto finished;                      \
        frame--;                                                                     \
        ip = frame->ret_ip;                                                          \
        fp = frame->fp;                                                              \
        fn = frame->fn;                                                              \
        if (frame->inst != inst) {                                                   \
            inst = frame->inst;                                                      \
            LOAD_INST();                                                             \
        }                                                                            \
        JIT_NEXT();                                                                  \
    }
#define BODY_CALL_INTERNAL(a_, b_)                                                   \
    { /* a function of this module: no host, same instance */                        \
        cf = atomic_load_explicit(&code_table[ip[1]], memory_order_acquire);         \
        nfp = fp + ip[2];                                                            \
        ip += 3;                                                                     \
        cinst = inst;                                                                \
        goto enter;                                                                  \
    }
#define BODY_CALL(a_, b_)                                                            \
    {                                                                                \
        callee = inst->funcs[ip[1]];                                                 \
        nfp = fp + ip[2];                                                            \
        ip += 3;                                                                     \
        goto do_call;                                                                \
    }
/* call_indirect's and return_call_indirect's callee (§4.4.8): element
   a_ of table ip[2], of type ip[1], or the trap. */
#define INDIRECT_CALLEE(a_)                                                          \
    do {                                                                             \
        weft_table *t = inst->tables[ip[2]];                                         \
        uint32_t i = U32V(a_);                                                       \
        if (i >= t->size) {                                                          \
            snprintf(trap_buf, sizeof trap_buf, "undefined element %u", i);          \
            trap_msg = trap_buf;                                                     \
            TRAP(WEFT_TRAP_INDIRECT_OOB);                                            \
        }                                                                            \
        callee = t->elems[i];                                                        \
        if (!callee) {                                                               \
            snprintf(trap_buf, sizeof trap_buf, "uninitialized element %u", i);      \
            trap_msg = trap_buf;                                                     \
            TRAP(WEFT_TRAP_INDIRECT_NULL);                                           \
        }                                                                            \
        const mod_functype *want = &inst->module->types[ip[1]];                      \
        if (callee->type != want && !mod_functype_equal(callee->type, want)) TRAP(WEFT_TRAP_INDIRECT_TYPE); \
    } while (0)
#define BODY_CALL_INDIRECT(a_, b_)                                                   \
    {                                                                                \
        INDIRECT_CALLEE(a_);                                                         \
        nfp = fp + ip[4];                                                            \
        ip += 5;                                                                     \
        goto do_call;                                                                \
    }
/* Tail calls: the arguments move down to fp[0..]; `tail_call` enters the
   callee in the caller's frame (no record pushed) or, for a host
   function, calls it and goes on at the RETURN the compiler put after the
   operation. */
#define BODY_RETURN_CALL(a_, b_)                                                     \
    {                                                                                \
        callee = inst->funcs[ip[1]];                                                 \
        memmove(fp, fp + ip[3], (size_t)ip[2] * sizeof *fp);                         \
        ip += 4;                                                                     \
        goto tail_call;                                                              \
    }
#define BODY_RETURN_CALL_INDIRECT(a_, b_)                                            \
    {                                                                                \
        INDIRECT_CALLEE(a_);                                                         \
        memmove(fp, fp + ip[4], (size_t)ip[5] * sizeof *fp);                         \
        ip += 6;                                                                     \
        goto tail_call;                                                              \
    }
/* call_ref's and return_call_ref's callee: the reference a_, or the trap. */
#define REF_CALLEE(a_)                                                               \
    do {                                                                             \
        callee = (weft_func *)(uintptr_t)(a_);                                       \
        if (BASE_UNLIKELY(!callee)) {                                                \
            trap_msg = "null function reference";                                    \
            TRAP(WEFT_TRAP_NULL_REF);                                                \
        }                                                                            \
    } while (0)
#define BODY_CALL_REF(a_, b_)                                                        \
    {                                                                                \
        REF_CALLEE(a_);                                                              \
        nfp = fp + ip[2];                                                            \
        ip += 3;                                                                     \
        goto do_call;                                                                \
    }
#define BODY_RETURN_CALL_REF(a_, b_)                                                 \
    {                                                                                \
        REF_CALLEE(a_);                                                              \
        memmove(fp, fp + ip[2], (size_t)ip[3] * sizeof *fp);                         \
        ip += 4;                                                                     \
        goto tail_call;                                                              \
    }
#define BODY_REF_AS_NON_NULL(a_, b_)                                                 \
    if (BASE_UNLIKELY((a_) == 0)) TRAP(WEFT_TRAP_NULL_REF);
#define BODY_LAZY(a_, b_)                                                            \
    {                                                                                \
        /* A stub was entered (compile/code.h): the function's first call            \
           through this code. exec_lazy_enter compiles it (or takes what             \
           another thread compiled) and finishes the entry with the real             \
           frame; the loop only reloads where to go on. Out of line and              \
           marked cold, so GCC lays the call path out as before (without             \
           the mark, `enter` moved and CALL_INTERNAL took one more jump per          \
           call: bench/results/2026-12-01-lazy-callgrind.txt). */                    \
    lazy_enter: INTERP_COLD_LABEL;                                                   \
        SAVE_REGS();                                                                 \
        st = exec_lazy_enter(e, err);                                                \
        if (BASE_UNLIKELY(st != WEFT_OK)) goto lazy_failed;                          \
        ip = e->ip;                                                                  \
        fn = e->fn;                                                                  \
        JIT_NEXT();                                                                  \
    }

    /* ---- exceptions (Wasm 3.0 §4.4.8 throw, throw_ref; exec/throw.c) ---- */
#define BODY_THROW(a_, b_)                                                           \
    {                                                                                \
        thrown = rt_exn_new(inst->store, inst->tags[ip[1]], fp + ip[2]);             \
        if (BASE_UNLIKELY(!thrown)) {                                                \
            st = base_fail(err, WEFT_ERR_NOMEM, "out of memory throwing an exception"); \
            goto failed;                                                             \
        }                                                                            \
        goto do_throw;                                                               \
    }
#define BODY_THROW_REF(a_, b_)                                                       \
    {                                                                                \
        thrown = (weft_exn *)(uintptr_t)(a_);                                        \
        if (!thrown) {                                                               \
            trap_msg = "null exception reference";                                   \
            TRAP(WEFT_TRAP_NULL_REF);                                                \
        }                                                                            \
        goto do_throw;                                                               \
    }

    /* ---- data movement ---- */
#define BODY_COPY(a_, b_) fp[ip[1]] = (a_);
#define BODY_COPY2(a_, b_) fp[ip[1]] = (a_); fp[ip[3]] = fp[ip[4]]; /* X: read after the first store */
#define BODY_CONST32(a_, b_) fp[ip[1]] = ip[2];
#define BODY_CONST64(a_, b_) fp[ip[1]] = (uint64_t)ip[2] | (uint64_t)ip[3] << 32;
#define BODY_SELECT(a_, b_) fp[ip[1]] = U32(2) ? (a_) : (b_);
#define BODY_GLOBAL_GET(a_, b_) fp[ip[1]] = inst->globals[ip[2]]->value;
#define BODY_GLOBAL_SET(a_, b_) inst->globals[ip[1]]->value = (a_);

    /* ---- memory ---- */
#define BODY_LOAD(a_, n, expr)                                                       \
    {                                                                                \
        uint64_t ea = (uint64_t)((uint32_t)(a_)) + ip[3];                            \
        CHECK_MEM(ea, n);                                                            \
        const uint8_t *p = mem + ea;                                                 \
        fp[ip[1]] = (expr);                                                          \
    }
#define BODY_LOAD32(a_, b_) BODY_LOAD(a_, 4, load32(p))
#define BODY_LOAD64(a_, b_) BODY_LOAD(a_, 8, load64(p))
#define BODY_LOAD8_U(a_, b_) BODY_LOAD(a_, 1, *p)
#define BODY_LOAD16_U(a_, b_) BODY_LOAD(a_, 2, load16(p))
#define BODY_I32_LOAD8_S(a_, b_) BODY_LOAD(a_, 1, (uint32_t)(int32_t)(int8_t)*p)
#define BODY_I32_LOAD16_S(a_, b_) BODY_LOAD(a_, 2, (uint32_t)(int32_t)(int16_t)load16(p))
#define BODY_I64_LOAD8_S(a_, b_) BODY_LOAD(a_, 1, (uint64_t)(int64_t)(int8_t)*p)
#define BODY_I64_LOAD16_S(a_, b_) BODY_LOAD(a_, 2, (uint64_t)(int64_t)(int16_t)load16(p))
#define BODY_I64_LOAD32_S(a_, b_) BODY_LOAD(a_, 4, (uint64_t)(int64_t)(int32_t)load32(p))
    /* Loads whose address is a sum computed just before (fused). */
#define BODY_LOAD_ADDI(a_, n, expr)                                                  \
    {                                                                                \
        uint64_t ea = (uint64_t)(uint32_t)(((uint32_t)(a_)) + ip[3]) + ip[4];        \
        CHECK_MEM(ea, n);                                                            \
        const uint8_t *p = mem + ea;                                                 \
        fp[ip[1]] = (expr);                                                          \
    }
#define BODY_LOAD32_ADDI(a_, b_) BODY_LOAD_ADDI(a_, 4, load32(p))
#define BODY_LOAD64_ADDI(a_, b_) BODY_LOAD_ADDI(a_, 8, load64(p))
#define BODY_I32_LOAD16_S_ADDI(a_, b_) BODY_LOAD_ADDI(a_, 2, (uint32_t)(int32_t)(int16_t)load16(p))
#define BODY_LOAD_ADD(a_, b_, n, expr)                                               \
    {                                                                                \
        uint64_t ea = (uint64_t)(uint32_t)(((uint32_t)(a_)) + ((uint32_t)(b_))) + ip[4]; \
        CHECK_MEM(ea, n);                                                            \
        const uint8_t *p = mem + ea;                                                 \
        fp[ip[1]] = (expr);                                                          \
    }
#define BODY_LOAD32_ADD(a_, b_) BODY_LOAD_ADD(a_, b_, 4, load32(p))
#define BODY_LOAD8_U_ADDI(a_, b_) BODY_LOAD_ADDI(a_, 1, *p)
#define BODY_LOAD16_U_ADDI(a_, b_) BODY_LOAD_ADDI(a_, 2, load16(p))
#define BODY_LOAD64_ADD(a_, b_) BODY_LOAD_ADD(a_, b_, 8, load64(p))
#define BODY_LOAD8_U_ADD(a_, b_) BODY_LOAD_ADD(a_, b_, 1, *p)
#define BODY_LOAD16_U_ADD(a_, b_) BODY_LOAD_ADD(a_, b_, 2, load16(p))
#define BODY_I32_LOAD8_S_ADDI(a_, b_) BODY_LOAD_ADDI(a_, 1, (uint32_t)(int32_t)(int8_t)*p)
#define BODY_I32_LOAD8_S_ADD(a_, b_) BODY_LOAD_ADD(a_, b_, 1, (uint32_t)(int32_t)(int8_t)*p)
#define BODY_I32_LOAD16_S_ADD(a_, b_) BODY_LOAD_ADD(a_, b_, 2, (uint32_t)(int32_t)(int16_t)load16(p))
#define BODY_I64_LOAD8_S_ADDI(a_, b_) BODY_LOAD_ADDI(a_, 1, (uint64_t)(int64_t)(int8_t)*p)
#define BODY_I64_LOAD8_S_ADD(a_, b_) BODY_LOAD_ADD(a_, b_, 1, (uint64_t)(int64_t)(int8_t)*p)
#define BODY_I64_LOAD16_S_ADDI(a_, b_) BODY_LOAD_ADDI(a_, 2, (uint64_t)(int64_t)(int16_t)load16(p))
#define BODY_I64_LOAD16_S_ADD(a_, b_) BODY_LOAD_ADD(a_, b_, 2, (uint64_t)(int64_t)(int16_t)load16(p))
#define BODY_I64_LOAD32_S_ADDI(a_, b_) BODY_LOAD_ADDI(a_, 4, (uint64_t)(int64_t)(int32_t)load32(p))
#define BODY_I64_LOAD32_S_ADD(a_, b_) BODY_LOAD_ADD(a_, b_, 4, (uint64_t)(int64_t)(int32_t)load32(p))
#define BODY_I32_SHR_U_AND(a_, b_) fp[ip[1]] = (uint32_t)((((uint32_t)(a_)) >> (ip[3] & 31)) & ip[4]);
#define BODY_I32_ADD3(a_, b_) fp[ip[1]] = (uint32_t)(((uint32_t)(a_)) + ((uint32_t)(b_)) + U32(4));
#define BODY_I32_XOR_ROTL(a_, b_)                                                    \
    {                                                                                \
        uint32_t b = ((uint32_t)(b_)), k = ip[4] & 31;                               \
        fp[ip[1]] = ((uint32_t)(a_)) ^ ((b << k) | (b >> ((32 - k) & 31)));          \
    }
    /* Arithmetic whose second operand is loaded from memory (fused). */
#define BODY_ARITH_LD(b_, n, expr)                                                   \
    {                                                                                \
        uint64_t ea = (uint64_t)((uint32_t)(b_)) + ip[4];                            \
        CHECK_MEM(ea, n);                                                            \
        const uint8_t *p = mem + ea;                                                 \
        fp[ip[1]] = (expr);                                                          \
    }
#define BODY_F64_ADD_LD(a_, b_) BODY_ARITH_LD(b_, 8, bits_f64(f64_add(f64_of(a_), f64_of(load64(p)))))
#define BODY_F64_SUB_LD(a_, b_) BODY_ARITH_LD(b_, 8, bits_f64(F64V(a_) - f64_of(load64(p))))
#define BODY_F64_MUL_LD(a_, b_) BODY_ARITH_LD(b_, 8, bits_f64(f64_mul(f64_of(a_), f64_of(load64(p)))))
#define BODY_F32_ADD_LD(a_, b_) BODY_ARITH_LD(b_, 4, bits_f32(f32_add(F32V(a_), f32_of(load32(p)))))
#define BODY_F32_SUB_LD(a_, b_) BODY_ARITH_LD(b_, 4, bits_f32(F32V(a_) - f32_of(load32(p))))
#define BODY_F32_MUL_LD(a_, b_) BODY_ARITH_LD(b_, 4, bits_f32(f32_mul(F32V(a_), f32_of(load32(p)))))
#define BODY_I32_ADD_LD(a_, b_) BODY_ARITH_LD(b_, 4, (uint32_t)(((uint32_t)(a_)) + load32(p)))
#define BODY_STORE(a_, b_, n)                                                        \
    {                                                                                \
        uint64_t ea = (uint64_t)((uint32_t)(a_)) + ip[3];                            \
        CHECK_MEM(ea, n);                                                            \
        uint64_t v = (b_);                                                           \
        memcpy(mem + ea, &v, n); /* little-endian host */                            \
    }
#define BODY_STORE8(a_, b_) BODY_STORE(a_, b_, 1)
#define BODY_STORE32(a_, b_) BODY_STORE(a_, b_, 4)
#define BODY_STORE64(a_, b_) BODY_STORE(a_, b_, 8)
#define BODY_STORE16(a_, b_) BODY_STORE((a_), (b_), 2)
#define BODY_MEMORY_SIZE(a_, b_)                                                     \
    {                                                                                \
        LOAD_MEM();                                                                  \
        fp[ip[1]] = (uint32_t)(mem_size / RT_PAGE_SIZE);                             \
    }
#define BODY_MEMORY_GROW(a_, b_)                                                     \
    {                                                                                \
        int64_t old = rt_memory_grow(cur_mem, U32V(a_));                          \
        fp[ip[1]] = (uint32_t)(int32_t)old;                                          \
        LOAD_MEM();                                                                  \
    }
#define BODY_MEMORY_INIT(a_, b_)                                                     \
    { /* §4.4.7 memory.init: bounds first, then copy */                              \
        uint32_t seg = ip[1];                                                        \
        uint64_t d = U32V(a_), s = U32V(b_), n = U32(4);                             \
        uint64_t len = inst->data_len[seg];                                          \
        LOAD_MEM();                                                                  \
        if (s + n > len || d + n > mem_size) TRAP(WEFT_TRAP_MEM_OOB);                \
        if (n) memcpy(mem + d, inst->module->datas[seg].bytes + s, n);               \
    }
#define BODY_DATA_DROP(a_, b_) inst->data_len[ip[1]] = 0;
#define BODY_MEMORY_COPY(a_, b_)                                                     \
    {                                                                                \
        uint64_t d = U32V(a_), s = U32V(b_), n = U32(3);                             \
        LOAD_MEM();                                                                  \
        if (s + n > mem_size || d + n > mem_size) TRAP(WEFT_TRAP_MEM_OOB);           \
        if (n) memmove(mem + d, mem + s, n);                                         \
    }
#define BODY_MEMORY_FILL(a_, b_)                                                     \
    {                                                                                \
        uint64_t d = U32V(a_), n = U32(3);                                           \
        LOAD_MEM();                                                                  \
        if (d + n > mem_size) TRAP(WEFT_TRAP_MEM_OOB);                               \
        if (n) memset(mem + d, (int)(uint8_t)U32V(b_), n);                           \
    }
    /* Multi-memory (Wasm 3.0 §4.4.7): the next operation uses memory ip[1]
       (cur_mem, above). */
#define BODY_MEM_SELECT(a_, b_)                                                      \
    {                                                                                \
        cur_mem = inst->mems[ip[1]];                                                 \
        LOAD_MEM();                                                                  \
        if (WEFT_JIT && ip[1] == 0) {                                                \
            /* back on memory 0: compiled code, which left at the                    \
               MEM_SELECT n, goes on (docs/jit.md) */                                \
            ip += CMP_LEN_MEM_SELECT;                                                \
            JIT_NEXT();                                                              \
        }                                                                            \
    }
    /* memory.copy between two memories (§4.4.7): bounds of both first. */
#define BODY_MEMORY_COPY_X(a_, b_)                                                   \
    {                                                                                \
        weft_memory *md = inst->mems[ip[1]], *ms = inst->mems[ip[2]];                \
        uint64_t d = U32V(a_), s = U32V(b_), n = U32(5);                             \
        if (s + n > atomic_load_explicit(&ms->size, memory_order_relaxed) ||         \
            d + n > atomic_load_explicit(&md->size, memory_order_relaxed))           \
            TRAP(WEFT_TRAP_MEM_OOB);                                                 \
        if (n) memmove(md->data + d, ms->data + s, n);                               \
    }
    /* memory64 and 64-bit tables: an i64 address or index as the 32-bit
       one the memory-0 and table handlers take, saturated to 2^32 - 16
       plus its low four bits (which an atomic access's alignment check
       reads: ATOMIC_EA). Exact because weft gives a 64-bit memory at most
       2^32 - 2^16 bytes and a table fewer than 2^32 - 16 elements: every
       value it saturates is out of bounds, plus any offset or length, as
       the unsaturated one is. */
#define BODY_ADDR64(a_, b_) \
    fp[ip[1]] = U64V(a_) > UINT32_MAX ? (uint32_t)(0xfffffff0u | (U64V(a_) & 0xf)) : U64V(a_);
    /* A big 64-bit memory's access (docs/pipeline.md, "memory64 past 4
       GiB"): the effective address is address + offset (ip[3], ip[4]) in
       64 bits, one that passes 2^64 out of bounds (Wasm 3.0 §4.4.7: ea is
       the exact sum). An atomic access (mask ip[6] = bytes - 1) checks
       the alignment first, as the threads proposal's step order does, of
       the exact ea, whose low bits the wrapped sum keeps; then the bounds
       of [ea, ea + bytes). ADDR64_WIN then moves the window (mem,
       mem_size) up to ea rounded down to 16, which keeps the low bits
       the access's own alignment check reads, and the access after it
       takes offset 0 and finds itself in bounds; the MEM_SELECT after
       that reloads mem and mem_size from cur_mem. */
#define ADDR64_CHECK(a_)                                                             \
    uint64_t ea_ = U64V(a_) + ((uint64_t)ip[4] << 32 | ip[3]);                       \
    if (BASE_UNLIKELY(ea_ & ip[6])) TRAP(WEFT_TRAP_UNALIGNED_ATOMIC);               \
    if (BASE_UNLIKELY(ea_ < U64V(a_))) TRAP(WEFT_TRAP_MEM_OOB);                      \
    if (BASE_UNLIKELY(ea_ > mem_size || mem_size - ea_ < ip[5])) {                   \
        LOAD_MEM(); /* another thread may have grown it */                          \
        if (ea_ > mem_size || mem_size - ea_ < ip[5]) TRAP(WEFT_TRAP_MEM_OOB);       \
    }
#define BODY_ADDR64_WIN(a_, b_)                                                      \
    {                                                                                \
        ADDR64_CHECK(a_)                                                             \
        uint64_t base_ = ea_ & ~(uint64_t)15;                                        \
        mem += base_;                                                                \
        mem_size -= base_;                                                           \
        fp[ip[1]] = ea_ - base_;                                                     \
    }
#define BODY_ADDR64_EA(a_, b_)                                                       \
    {                                                                                \
        ADDR64_CHECK(a_)                                                             \
        fp[ip[1]] = ea_;                                                             \
    }
    /* Bulk operations on a big 64-bit memory (§4.4.7 memory.init, copy,
       fill): the memories by index, each operand as wide as its memory's
       address type makes it; bounds in 64 bits that cannot wrap (a
       memory's size is below 2^47). */
#define MEM_ARG(m_, v_) ((m_)->limits.is64 ? U64V(v_) : U32V(v_))
#define MEM_FITS(m_, at_, n_)                                                        \
    ((at_) <= atomic_load_explicit(&(m_)->size, memory_order_relaxed) &&             \
     (n_) <= atomic_load_explicit(&(m_)->size, memory_order_relaxed) - (at_))
#define BODY_MEMORY_INIT_W(a_, b_)                                                   \
    {                                                                                \
        weft_memory *md = inst->mems[ip[2]];                                         \
        uint64_t d = U64V(a_), s = U32V(b_), n = U32(5);                             \
        if (s + n > inst->data_len[ip[1]] || !MEM_FITS(md, d, n)) TRAP(WEFT_TRAP_MEM_OOB); \
        if (n) memcpy(md->data + d, inst->module->datas[ip[1]].bytes + s, n);        \
    }
#define BODY_MEMORY_COPY_W(a_, b_)                                                   \
    {                                                                                \
        weft_memory *md = inst->mems[ip[1]], *ms = inst->mems[ip[2]];                \
        uint64_t d = MEM_ARG(md, a_), s = MEM_ARG(ms, b_);                           \
        uint64_t n = md->limits.is64 && ms->limits.is64 ? U64(5) : U32(5);           \
        if (!MEM_FITS(ms, s, n) || !MEM_FITS(md, d, n)) TRAP(WEFT_TRAP_MEM_OOB);     \
        if (n) memmove(md->data + d, ms->data + s, n);                               \
    }
#define BODY_MEMORY_FILL_W(a_, b_)                                                   \
    {                                                                                \
        weft_memory *md = inst->mems[ip[1]];                                         \
        uint64_t d = U64V(a_), n = U64(4);                                           \
        if (!MEM_FITS(md, d, n)) TRAP(WEFT_TRAP_MEM_OOB);                            \
        if (n) memset(md->data + d, (int)(uint8_t)U32V(b_), n);                      \
    }

    /* ---- tables and references ---- */
#define BODY_TABLE_GET(a_, b_)                                                       \
    {                                                                                \
        weft_table *t = inst->tables[ip[2]];                                         \
        uint32_t i = U32V(a_);                                                       \
        if (i >= t->size) TRAP(WEFT_TRAP_TABLE_OOB);                                 \
        fp[ip[1]] = (uint64_t)(uintptr_t)t->elems[i];                                \
    }
#define BODY_TABLE_SET(a_, b_)                                                       \
    {                                                                                \
        weft_table *t = inst->tables[ip[1]];                                         \
        uint32_t i = U32V(a_);                                                       \
        if (i >= t->size) TRAP(WEFT_TRAP_TABLE_OOB);                                 \
        t->elems[i] = (void *)(uintptr_t)(b_);                                       \
    }
#define BODY_TABLE_INIT(a_, b_)                                                      \
    { /* §4.4.6 table.init */                                                        \
        weft_table *t = inst->tables[ip[1]];                                         \
        uint32_t seg = ip[2];                                                        \
        uint64_t d = U32V(a_), s = U32V(b_), n = U32(5);                             \
        if (s + n > inst->elem_len[seg] || d + n > t->size) TRAP(WEFT_TRAP_TABLE_OOB); \
        if (n) memcpy(t->elems + d, inst->elem_refs[seg] + s, n * sizeof(void *));   \
    }
#define BODY_ELEM_DROP(a_, b_) inst->elem_len[ip[1]] = 0;
#define BODY_TABLE_COPY(a_, b_)                                                      \
    {                                                                                \
        weft_table *td = inst->tables[ip[1]], *ts = inst->tables[ip[2]];             \
        uint64_t d = U32V(a_), s = U32V(b_), n = U32(5);                             \
        if (s + n > ts->size || d + n > td->size) TRAP(WEFT_TRAP_TABLE_OOB);         \
        if (n) memmove(td->elems + d, ts->elems + s, n * sizeof(void *));            \
    }
#define BODY_TABLE_GROW(a_, b_)                                                      \
    {                                                                                \
        int64_t old = rt_table_grow(inst->tables[ip[2]], U32V(b_), (void *)(uintptr_t)(a_)); \
        fp[ip[1]] = (uint32_t)(int32_t)old;                                          \
    }
#define BODY_TABLE_SIZE(a_, b_) fp[ip[1]] = inst->tables[ip[2]]->size;
#define BODY_TABLE_FILL(a_, b_)                                                      \
    {                                                                                \
        weft_table *t = inst->tables[ip[1]];                                         \
        uint64_t d = U32V(a_), n = U32(4);                                           \
        void *v = (void *)(uintptr_t)(b_);                                           \
        if (d + n > t->size) TRAP(WEFT_TRAP_TABLE_OOB);                              \
        for (uint64_t i = 0; i < n; i++) t->elems[d + i] = v;                        \
    }
#define BODY_REF_IS_NULL(a_, b_) fp[ip[1]] = (a_) == 0;
#define BODY_REF_FUNC(a_, b_) fp[ip[1]] = (uint64_t)(uintptr_t)inst->funcs[ip[2]];

    /* ---- SIMD (the 0xFD prefix) ---- */
#include "interp_simd.h"


    /* ---- operations with an immediate second operand ---- */
#define IMM32 (ip[3])
#define IMM64 ((uint64_t)(int64_t)(int32_t)ip[3])
#define BODY_I32_ADD_IMM(a_, b_) BODY_BIN((uint32_t)(((uint32_t)(a_)) + IMM32))
#define BODY_I32_SUB_IMM(a_, b_) BODY_BIN((uint32_t)(((uint32_t)(a_)) - IMM32))
#define BODY_I32_MUL_IMM(a_, b_) BODY_BIN((uint32_t)(((uint32_t)(a_)) * IMM32))
#define BODY_I32_AND_IMM(a_, b_) BODY_BIN((uint32_t)(((uint32_t)(a_)) & IMM32))
#define BODY_I32_OR_IMM(a_, b_) BODY_BIN((uint32_t)(U32V(a_) | IMM32))
#define BODY_I32_XOR_IMM(a_, b_) BODY_BIN((uint32_t)(((uint32_t)(a_)) ^ IMM32))
#define BODY_I32_SHL_IMM(a_, b_) BODY_BIN((uint32_t)(((uint32_t)(a_)) << (IMM32 & 31)))
#define BODY_I32_SHR_S_IMM(a_, b_) BODY_BIN((uint32_t)(((int32_t)(a_)) >> (IMM32 & 31)))
#define BODY_I32_SHR_U_IMM(a_, b_) BODY_BIN((uint32_t)(((uint32_t)(a_)) >> (IMM32 & 31)))
#define BODY_I64_ADD_IMM(a_, b_) BODY_BIN(((uint64_t)(a_)) + IMM64)
#define BODY_I64_SUB_IMM(a_, b_) BODY_BIN(U64V(a_) - IMM64)
#define BODY_I64_MUL_IMM(a_, b_) BODY_BIN(U64V(a_) * IMM64)
#define BODY_I64_AND_IMM(a_, b_) BODY_BIN(U64V(a_) & IMM64)
#define BODY_I64_OR_IMM(a_, b_) BODY_BIN(U64V(a_) | IMM64)
#define BODY_I64_XOR_IMM(a_, b_) BODY_BIN(U64V(a_) ^ IMM64)
#define BODY_I64_SHL_IMM(a_, b_) BODY_BIN(U64V(a_) << (IMM64 & 63))
#define BODY_I64_SHR_S_IMM(a_, b_) BODY_BIN((uint64_t)(I64V(a_) >> (IMM64 & 63)))
#define BODY_I64_SHR_U_IMM(a_, b_) BODY_BIN(U64V(a_) >> (IMM64 & 63))
    /* (x << k) | (x >> (32 - k)), counts mod 32: one rotate instruction,
       where rotl32's general form tests for a zero count. */
#define BODY_I32_ROTL_IMM(a_, b_) BODY_BIN((((uint32_t)(a_)) << (IMM32 & 31)) | (((uint32_t)(a_)) >> ((32 - IMM32) & 31)))
#define BODY_I64_ROTL_IMM(a_, b_) BODY_BIN((U64V(a_) << (IMM64 & 63)) | (U64V(a_) >> ((64 - IMM64) & 63)))
#define BODY_I32_EQ_IMM(a_, b_) BODY_BIN((uint64_t)(U32V(a_) == IMM32))
#define BODY_I32_NE_IMM(a_, b_) BODY_BIN((uint64_t)(U32V(a_) != IMM32))
#define BODY_I32_LT_S_IMM(a_, b_) BODY_BIN((uint64_t)(((int32_t)(a_)) < (int32_t)IMM32))
#define BODY_I32_LT_U_IMM(a_, b_) BODY_BIN((uint64_t)(U32V(a_) < IMM32))
#define BODY_I32_GT_S_IMM(a_, b_) BODY_BIN((uint64_t)(I32V(a_) > (int32_t)IMM32))
#define BODY_I32_GT_U_IMM(a_, b_) BODY_BIN((uint64_t)(((uint32_t)(a_)) > IMM32))
#define BODY_I32_LE_S_IMM(a_, b_) BODY_BIN((uint64_t)(I32V(a_) <= (int32_t)IMM32))
#define BODY_I32_LE_U_IMM(a_, b_) BODY_BIN((uint64_t)(U32V(a_) <= IMM32))
#define BODY_I32_GE_S_IMM(a_, b_) BODY_BIN((uint64_t)(I32V(a_) >= (int32_t)IMM32))
#define BODY_I32_GE_U_IMM(a_, b_) BODY_BIN((uint64_t)(U32V(a_) >= IMM32))
#define BODY_I64_EQ_IMM(a_, b_) BODY_BIN((uint64_t)(U64V(a_) == IMM64))
#define BODY_I64_NE_IMM(a_, b_) BODY_BIN((uint64_t)(U64V(a_) != IMM64))
#define BODY_I64_LT_S_IMM(a_, b_) BODY_BIN((uint64_t)(I64V(a_) < (int64_t)IMM64))
#define BODY_I64_LT_U_IMM(a_, b_) BODY_BIN((uint64_t)(U64V(a_) < IMM64))
#define BODY_I64_GT_S_IMM(a_, b_) BODY_BIN((uint64_t)(I64V(a_) > (int64_t)IMM64))
#define BODY_I64_GT_U_IMM(a_, b_) BODY_BIN((uint64_t)(U64V(a_) > IMM64))
#define BODY_I64_LE_S_IMM(a_, b_) BODY_BIN((uint64_t)(I64V(a_) <= (int64_t)IMM64))
#define BODY_I64_LE_U_IMM(a_, b_) BODY_BIN((uint64_t)(U64V(a_) <= IMM64))
#define BODY_I64_GE_S_IMM(a_, b_) BODY_BIN((uint64_t)(I64V(a_) >= (int64_t)IMM64))
#define BODY_I64_GE_U_IMM(a_, b_) BODY_BIN((uint64_t)(U64V(a_) >= IMM64))
#define BODY_BR_CMP_IMM(a_, lhs, op, rhs) if (lhs##V(a_) op (rhs)) JUMP(3);
#define BODY_BR_IF_I32_EQ_IMM(a_, b_) BODY_BR_CMP_IMM(a_, U32, ==, ip[2])
#define BODY_BR_IF_I32_NE_IMM(a_, b_) BODY_BR_CMP_IMM(a_, U32, !=, ip[2])
#define BODY_BR_IF_I32_LT_S_IMM(a_, b_) BODY_BR_CMP_IMM(a_, I32, <, (int32_t)ip[2])
#define BODY_BR_IF_I32_LT_U_IMM(a_, b_) BODY_BR_CMP_IMM(a_, U32, <, ip[2])
#define BODY_BR_IF_I32_GT_S_IMM(a_, b_) BODY_BR_CMP_IMM(a_, I32, >, (int32_t)ip[2])
#define BODY_BR_IF_I32_GT_U_IMM(a_, b_) BODY_BR_CMP_IMM(a_, U32, >, ip[2])
#define BODY_BR_IF_I32_LE_S_IMM(a_, b_) BODY_BR_CMP_IMM(a_, I32, <=, (int32_t)ip[2])
#define BODY_BR_IF_I32_LE_U_IMM(a_, b_) BODY_BR_CMP_IMM(a_, U32, <=, ip[2])
#define BODY_BR_IF_I32_GE_S_IMM(a_, b_) BODY_BR_CMP_IMM(a_, I32, >=, (int32_t)ip[2])
#define BODY_BR_IF_I32_GE_U_IMM(a_, b_) BODY_BR_CMP_IMM(a_, U32, >=, ip[2])
#define BODY_BR_IF_I64_EQ_IMM(a_, b_) BODY_BR_CMP_IMM(a_, U64, ==, (uint64_t)(int64_t)(int32_t)ip[2])
#define BODY_BR_IF_I64_NE_IMM(a_, b_) BODY_BR_CMP_IMM(a_, U64, !=, (uint64_t)(int64_t)(int32_t)ip[2])
#define BODY_BR_IF_I64_LT_S_IMM(a_, b_) BODY_BR_CMP_IMM(a_, I64, <, (int64_t)(int32_t)ip[2])
#define BODY_BR_IF_I64_LT_U_IMM(a_, b_) BODY_BR_CMP_IMM(a_, U64, <, (uint64_t)(int64_t)(int32_t)ip[2])
#define BODY_BR_IF_I64_GT_S_IMM(a_, b_) BODY_BR_CMP_IMM(a_, I64, >, (int64_t)(int32_t)ip[2])
#define BODY_BR_IF_I64_GT_U_IMM(a_, b_) BODY_BR_CMP_IMM(a_, U64, >, (uint64_t)(int64_t)(int32_t)ip[2])
#define BODY_BR_IF_I64_LE_S_IMM(a_, b_) BODY_BR_CMP_IMM(a_, I64, <=, (int64_t)(int32_t)ip[2])
#define BODY_BR_IF_I64_LE_U_IMM(a_, b_) BODY_BR_CMP_IMM(a_, U64, <=, (uint64_t)(int64_t)(int32_t)ip[2])
#define BODY_BR_IF_I64_GE_S_IMM(a_, b_) BODY_BR_CMP_IMM(a_, I64, >=, (int64_t)(int32_t)ip[2])
#define BODY_BR_IF_I64_GE_U_IMM(a_, b_) BODY_BR_CMP_IMM(a_, U64, >=, (uint64_t)(int64_t)(int32_t)ip[2])

    /* ---- atomics (threads proposal) ---- */
    /* Alignment, then bounds: an atomic access must be naturally aligned,
       and one that is neither aligned nor in bounds traps as unaligned, as
       in the threads proposal's reference interpreter (check_align before
       the access) and V8. ADDR64 keeps an i64 address's low bits. */
#define ATOMIC_EA(n, addr_, offw)                                                    \
    uint64_t ea = (uint64_t)U32V(addr_) + ip[offw];                                  \
    if (ea & ((n) - 1)) TRAP(WEFT_TRAP_UNALIGNED_ATOMIC);                           \
    CHECK_MEM(ea, n);
#define ATOMIC_LOAD(a_, bits)                                                        \
    {                                                                                \
        ATOMIC_EA(bits / 8, a_, 3)                                                   \
        fp[ip[1]] = __atomic_load_n((uint##bits##_t *)(mem + ea), __ATOMIC_SEQ_CST); \
    }
#define ATOMIC_STORE(a_, b_, bits)                                                   \
    {                                                                                \
        ATOMIC_EA(bits / 8, a_, 3)                                                   \
        __atomic_store_n((uint##bits##_t *)(mem + ea), (uint##bits##_t)(b_), __ATOMIC_SEQ_CST); \
    }
#define ATOMIC_RMW(a_, b_, bits, builtin)                                            \
    {                                                                                \
        ATOMIC_EA(bits / 8, a_, 4)                                                   \
        fp[ip[1]] = builtin((uint##bits##_t *)(mem + ea), (uint##bits##_t)(b_), __ATOMIC_SEQ_CST); \
    }
#define ATOMIC_CMPXCHG(a_, b_, bits)                                                 \
    {                                                                                \
        ATOMIC_EA(bits / 8, a_, 5)                                                   \
        uint##bits##_t expected = (uint##bits##_t)(b_);                              \
        __atomic_compare_exchange_n((uint##bits##_t *)(mem + ea), &expected,         \
                                    (uint##bits##_t)fp[ip[4]], false, __ATOMIC_SEQ_CST, \
                                    __ATOMIC_SEQ_CST);                               \
        fp[ip[1]] = expected;                                                        \
    }
#define BODY_ATOMIC_LOAD8(a_, b_) ATOMIC_LOAD(a_, 8)
#define BODY_ATOMIC_LOAD16(a_, b_) ATOMIC_LOAD(a_, 16)
#define BODY_ATOMIC_LOAD32(a_, b_) ATOMIC_LOAD(a_, 32)
#define BODY_ATOMIC_LOAD64(a_, b_) ATOMIC_LOAD(a_, 64)
#define BODY_ATOMIC_STORE8(a_, b_) ATOMIC_STORE(a_, b_, 8)
#define BODY_ATOMIC_STORE16(a_, b_) ATOMIC_STORE(a_, b_, 16)
#define BODY_ATOMIC_STORE32(a_, b_) ATOMIC_STORE(a_, b_, 32)
#define BODY_ATOMIC_STORE64(a_, b_) ATOMIC_STORE(a_, b_, 64)
#define BODY_ATOMIC_ADD8(a_, b_) ATOMIC_RMW(a_, b_, 8, __atomic_fetch_add)
#define BODY_ATOMIC_ADD16(a_, b_) ATOMIC_RMW(a_, b_, 16, __atomic_fetch_add)
#define BODY_ATOMIC_ADD32(a_, b_) ATOMIC_RMW(a_, b_, 32, __atomic_fetch_add)
#define BODY_ATOMIC_ADD64(a_, b_) ATOMIC_RMW(a_, b_, 64, __atomic_fetch_add)
#define BODY_ATOMIC_SUB8(a_, b_) ATOMIC_RMW(a_, b_, 8, __atomic_fetch_sub)
#define BODY_ATOMIC_SUB16(a_, b_) ATOMIC_RMW(a_, b_, 16, __atomic_fetch_sub)
#define BODY_ATOMIC_SUB32(a_, b_) ATOMIC_RMW(a_, b_, 32, __atomic_fetch_sub)
#define BODY_ATOMIC_SUB64(a_, b_) ATOMIC_RMW(a_, b_, 64, __atomic_fetch_sub)
#define BODY_ATOMIC_AND8(a_, b_) ATOMIC_RMW(a_, b_, 8, __atomic_fetch_and)
#define BODY_ATOMIC_AND16(a_, b_) ATOMIC_RMW(a_, b_, 16, __atomic_fetch_and)
#define BODY_ATOMIC_AND32(a_, b_) ATOMIC_RMW(a_, b_, 32, __atomic_fetch_and)
#define BODY_ATOMIC_AND64(a_, b_) ATOMIC_RMW(a_, b_, 64, __atomic_fetch_and)
#define BODY_ATOMIC_OR8(a_, b_) ATOMIC_RMW(a_, b_, 8, __atomic_fetch_or)
#define BODY_ATOMIC_OR16(a_, b_) ATOMIC_RMW(a_, b_, 16, __atomic_fetch_or)
#define BODY_ATOMIC_OR32(a_, b_) ATOMIC_RMW(a_, b_, 32, __atomic_fetch_or)
#define BODY_ATOMIC_OR64(a_, b_) ATOMIC_RMW(a_, b_, 64, __atomic_fetch_or)
#define BODY_ATOMIC_XOR8(a_, b_) ATOMIC_RMW(a_, b_, 8, __atomic_fetch_xor)
#define BODY_ATOMIC_XOR16(a_, b_) ATOMIC_RMW(a_, b_, 16, __atomic_fetch_xor)
#define BODY_ATOMIC_XOR32(a_, b_) ATOMIC_RMW(a_, b_, 32, __atomic_fetch_xor)
#define BODY_ATOMIC_XOR64(a_, b_) ATOMIC_RMW(a_, b_, 64, __atomic_fetch_xor)
#define BODY_ATOMIC_XCHG8(a_, b_) ATOMIC_RMW(a_, b_, 8, __atomic_exchange_n)
#define BODY_ATOMIC_XCHG16(a_, b_) ATOMIC_RMW(a_, b_, 16, __atomic_exchange_n)
#define BODY_ATOMIC_XCHG32(a_, b_) ATOMIC_RMW(a_, b_, 32, __atomic_exchange_n)
#define BODY_ATOMIC_XCHG64(a_, b_) ATOMIC_RMW(a_, b_, 64, __atomic_exchange_n)
#define BODY_ATOMIC_CMPXCHG8(a_, b_) ATOMIC_CMPXCHG(a_, b_, 8)
#define BODY_ATOMIC_CMPXCHG16(a_, b_) ATOMIC_CMPXCHG(a_, b_, 16)
#define BODY_ATOMIC_CMPXCHG32(a_, b_) ATOMIC_CMPXCHG(a_, b_, 32)
#define BODY_ATOMIC_CMPXCHG64(a_, b_) ATOMIC_CMPXCHG(a_, b_, 64)
#define BODY_ATOMIC_FENCE(a_, b_) __atomic_thread_fence(__ATOMIC_SEQ_CST);
#define BODY_ATOMIC_NOTIFY(a_, b_)                                                   \
    {                                                                                \
        ATOMIC_EA(4, a_, 4)                                                          \
        fp[ip[1]] = rt_atomic_notify(cur_mem, ea, U32V(b_));                      \
    }
#define BODY_ATOMIC_WAIT32(a_, b_)                                                   \
    {                                                                                \
        ATOMIC_EA(4, a_, 5)                                                          \
        wait_result = rt_atomic_wait(e, cur_mem, ea, U32V(b_), 4, I64(4));        \
        goto after_wait;                                                             \
    }
#define BODY_ATOMIC_WAIT64(a_, b_)                                                   \
    {                                                                                \
        ATOMIC_EA(8, a_, 5)                                                          \
        wait_result = rt_atomic_wait(e, cur_mem, ea, U64V(b_), 8, I64(4));        \
        goto after_wait;                                                             \
    }
    /* On a big 64-bit memory: the address is ADDR64_EA's, whole. */
#define ATOMIC_EA_W(n, addr_)                                                        \
    uint64_t ea = U64V(addr_);                                                       \
    if (ea & ((n) - 1)) TRAP(WEFT_TRAP_UNALIGNED_ATOMIC);                           \
    CHECK_MEM(ea, n);
#define BODY_ATOMIC_NOTIFY_W(a_, b_)                                                 \
    {                                                                                \
        ATOMIC_EA_W(4, a_)                                                           \
        fp[ip[1]] = rt_atomic_notify(cur_mem, ea, U32V(b_));                         \
    }
#define BODY_ATOMIC_WAIT32_W(a_, b_)                                                 \
    {                                                                                \
        ATOMIC_EA_W(4, a_)                                                           \
        wait_result = rt_atomic_wait(e, cur_mem, ea, U32V(b_), 4, I64(4));           \
        goto after_wait;                                                             \
    }
#define BODY_ATOMIC_WAIT64_W(a_, b_)                                                 \
    {                                                                                \
        ATOMIC_EA_W(8, a_)                                                           \
        wait_result = rt_atomic_wait(e, cur_mem, ea, U64V(b_), 8, I64(4));           \
        goto after_wait;                                                             \
    }
    after_wait: {
        int r = wait_result;
        if (BASE_UNLIKELY(r < 0)) {
            if (r == RT_WAIT_UNSHARED) TRAP(WEFT_TRAP_EXPECTED_SHARED);
            if (r == RT_WAIT_PARKED) {
                /* Queued: give the OS thread back, staying on the wait. */
                SAVE_REGS();
                e->state = EXEC_PARKED;
                return WEFT_SUSPENDED;
            }
            /* RT_WAIT_INTERRUPTED: the attention word was set while we
               waited. Stay on this instruction, so a resumed execution
               waits again (no fuel: a wait is no counted safe point). */
            goto attention_free;
        }
        fp[ip[1]] = (uint32_t)r;
        ip += 6;
        JIT_NEXT(); /* a step exit of compiled code (jit.h) */
    }
    /* ---- every operation's own handler, from the table (ops.h) ---- */
#define CMP_X_HANDLER(name, ...) HANDLER(name)
    CMP_OPS(CMP_X_HANDLER)
#undef CMP_X_HANDLER

    /* ---- pairs (CMP_PAIR_OPS in pairs_list.h; compile/pairs.c) ---- */
    /* Both bodies, stepping ip between them as the two handlers would: a
       trap in the second names the second's position, and its branch
       target word is where it always was. */
#define PAIR_BODIES(name, a, b, b_in1, b_in2)                                        \
    OP(name) {                                                                       \
        BODY_##a(IN(CMP_IN1_##a), IN(CMP_IN2_##a))                                   \
        uint64_t r_ = CMP_DST_##a ? fp[ip[1]] : 0;                                   \
        (void)r_;                                                                    \
        ip += CMP_LEN_##a;                                                           \
        BODY_##b(b_in1, b_in2) ip += CMP_LEN_##b;                                    \
        NEXT();                                                                      \
    }
    /* The forms of a pair (CMP_PAIR_FORMS): SEQ runs both bodies; the
       dependent forms D1 and D2 take the second's input 1 or 2 from r_,
       the first's result as it stored it (pairs.c checked that the second
       names that slot): the C compiler keeps it in a register instead of
       loading back the store it has just made. TAIL runs the first's body,
       then goes straight into the second's handler. */
#define PAIR_SEQ(op, a, b) PAIR_BODIES(op, a, b, IN(CMP_IN1_##b), IN(CMP_IN2_##b))
#define PAIR_D1(op, a, b) PAIR_BODIES(op, a, b, r_, IN(CMP_IN2_##b))
#define PAIR_D2(op, a, b) PAIR_BODIES(op, a, b, IN(CMP_IN1_##b), r_)
#if WEFT_DISPATCH_SWITCH
#define PAIR_TAIL(op, a, b) OP(op) { BODY_##a(IN(CMP_IN1_##a), IN(CMP_IN2_##a)) ip += CMP_LEN_##a; NEXT(); }
#else
#define PAIR_TAIL(op, a, b) OP(op) { BODY_##a(IN(CMP_IN1_##a), IN(CMP_IN2_##a)) ip += CMP_LEN_##a; goto L_##b; }
#endif
    /* -DWEFT_NO_PAIRS=1 builds none, -DWEFT_PAIR_DEP=0 no dependent form
       (their words run the plain pair: the label table above). */
#if WEFT_NO_PAIRS
#define CMP_PAIR_FORM(op, a, b, form)
#elif !WEFT_PAIR_DEP
#define CMP_PAIR_FORM(op, a, b, form) CMP_PAIR_HANDLER_##form(op, a, b)
#define CMP_PAIR_HANDLER_SEQ PAIR_SEQ
#define CMP_PAIR_HANDLER_D1(op, a, b)
#define CMP_PAIR_HANDLER_D2(op, a, b)
#define CMP_PAIR_HANDLER_TAIL PAIR_TAIL
#else
#define CMP_PAIR_FORM(op, a, b, form) PAIR_##form(op, a, b)
#endif
    CMP_PAIR_FORMS
#undef CMP_PAIR_FORM

#if WEFT_DISPATCH_SWITCH
    default:
        __builtin_unreachable();
    }
#endif

do_call: {
    /* ip is the return address; the callee's frame starts at nfp, where
       the arguments are. */
    cf = atomic_load_explicit(&callee->code, memory_order_acquire);
    if (!cf) {
        e->host_word = 0;
    call_host:
        st = exec_call_host(e, callee, inst, nfp, err);
        if (BASE_UNLIKELY(st != WEFT_OK)) {
            if (st == WEFT_SUSPENDED) {
                /* A restartable call: pause on it, to make it again. */
                SAVE_REGS();
                e->host_pending = callee;
                e->host_slots = nfp;
                e->state = EXEC_PARKED;
                return WEFT_SUSPENDED;
            }
            if (st == WEFT_ERR_EXCEPTION && e->host_thrown) {
                /* The host function threw (weft_caller_throw): unwind
                   from the call instruction. */
                thrown = e->host_thrown;
                e->host_thrown = NULL;
                ip -= 1;
                goto do_throw;
            }
            if (st != WEFT_ERR_TRAP) goto failed;
            trap = WEFT_TRAP_HOST;
            trap_msg = err ? err->message : "host function trapped";
            ip -= 1; /* inside the call instruction, for the backtrace */
            goto do_trap;
        }
        JIT_NEXT();
    }
    cinst = callee->inst;
    goto enter;
}

tail_call: {
    /* A tail call (return_call*): callee's arguments are at fp[0..]; it
       takes over this frame, whose record (our caller's registers) stays
       where it is, so the stack does not grow however long the chain. ip
       is the RETURN after the call operation. */
    cf = atomic_load_explicit(&callee->code, memory_order_acquire);
    if (!cf) {
        nfp = fp;
        e->host_word = 0;
        goto call_host; /* then the RETURN returns the host's results */
    }
    if (BASE_UNLIKELY(fp + cf->frame_size > stack_end)) {
        if (!exec_stack_charge(e, fp + cf->frame_size, frame)) {
            ip -= 1;
            TRAP(WEFT_TRAP_STACK_EXHAUSTED);
        }
        frames_end = e->frame_commit;
        stack_end = e->commit_end;
    }
    fn = cf;
    if (callee->inst != inst) {
        inst = callee->inst;
        LOAD_INST();
    }
    exec_frame_init(fp, cf);
    ip = cf->code;
    /* Function entry is a safe point, a tail call's too. */
    if (BASE_UNLIKELY(ATTENTION())) goto attention;
    JIT_NEXT();
}

enter: {
    /* cf and cinst: the callee and its instance; ip: the return address. */
    if (BASE_UNLIKELY(frame >= frames_end || nfp + cf->frame_size > stack_end)) {
        /* Past the limits: the stack's own end, or what the budget paid
           for so far (exec_stack_charge pays for more, or says no). */
        if (!exec_stack_charge(e, nfp + cf->frame_size, frame)) {
            ip -= 1;
            TRAP(WEFT_TRAP_STACK_EXHAUSTED);
        }
        frames_end = e->frame_commit;
        stack_end = e->commit_end;
    }
    frame->ret_ip = ip;
    frame->fp = fp;
    frame->fn = fn;
    frame->inst = inst;
    frame++;
    fp = nfp;
    fn = cf;
    if (cinst != inst) {
        inst = cinst;
        LOAD_INST();
    }
    exec_frame_init(fp, cf);
    ip = cf->code;
    /* Function entry is a counted safe point: every call (call,
       call_indirect, call_ref, return_call*, a stub's first call
       included) costs one unit here, and nowhere else. */
    if (BASE_UNLIKELY(ATTENTION())) goto attention;
    JIT_NEXT();
}

    uint32_t bits;
attention_jump:
    /* A taken branch: counted when it is a back-edge. */
    if (cmp_is_back_edge(fn, (uint32_t)(jump_word - fn->code))) goto attention;
attention_free:
    /* A safe point that counts nothing (a forward branch, a wait, a
       restarted host call): requests only. */
    bits = atomic_load_explicit(attn, memory_order_relaxed);
    if (BASE_LIKELY(!(bits & ~EXEC_ATTN_OWN))) NEXT();
    goto requests;

attention: {
    /* The fuel rule (weft.h, weft_store_set_fuel): one unit per counted
       safe point, a function entered by a call or a back-edge taken
       (JUMP, SAFE_POINT), none elsewhere; the deterministic and
       cooperative slices count the same points. A request arrived, or the
       call is metered (EXEC_ATTN_FUEL stays set to its end, so every safe
       point comes here); ip is where to continue. Meter first, then
       honour every request bit set, clearing those but keeping the fuel
       bit. */
    bits = atomic_load_explicit(attn, memory_order_relaxed);
    if (bits & EXEC_ATTN_OWN) {
        if (bits & EXEC_ATTN_FUEL) {
            if (BASE_UNLIKELY(e->fuel_left == 0) && !exec_fuel_take(e)) {
                trap = WEFT_TRAP_OUT_OF_FUEL;
                goto do_trap;
            }
            e->fuel_left--;
        }
        if ((bits & EXEC_ATTN_SLICE) && --e->slice_left == 0) {
            /* The deterministic slice is over: give way here. */
            atomic_fetch_and_explicit(attn, ~EXEC_ATTN_SLICE, memory_order_relaxed);
            SAVE_REGS();
            e->state = EXEC_SUSPENDED;
            return WEFT_SUSPENDED;
        }
        if (BASE_LIKELY(!(bits & ~EXEC_ATTN_OWN))) JIT_NEXT();
    }
requests:
    bits = atomic_fetch_and_explicit(attn, EXEC_ATTN_OWN, memory_order_acquire);
    if (bits & WEFT_ATTN_STOP) {
        trap = WEFT_TRAP_STOPPED;
        goto do_trap;
    }
    if (bits & WEFT_ATTN_SUSPEND) {
        SAVE_REGS();
        e->state = EXEC_SUSPENDED;
        return WEFT_SUSPENDED;
    }
    /* The auto tier's sample: fn may have machine code from here on, and
       JIT_NEXT enters it in this frame at ip (a running loop too). */
    if (bits & EXEC_ATTN_TIERUP) exec_tier_sample(fn, inst, frame, frames_base);
    JIT_NEXT();
}

#if WEFT_JIT
run_jit: {
    /* fn's machine code from ip on, with this frame and the memory as the
       loop last read it (jit.h); it returns the operation to go on at. */
    jit_regs r = {fp, mem, mem_size, attn, inst->globals, fn, frame, frames_base, frames_end, stack_end,
                  inst, code_table, frame, NULL, NULL};
    uint32_t at = jit_run(fn, (uint32_t)(ip - fn->code), &r);
    BASE_TSAN_ACQUIRE(code_table); /* the callees it loaded (base.h) */
    /* Compiled calls and returns (same instance) may have moved the frame. */
    fp = r.fp;
    fn = r.fn;
    frame = r.frame;
    ip = fn->code + (at & ~JIT_AT_ATTENTION);
    if (at & JIT_AT_ATTENTION) goto attention;
    if (tier_calls) {
        /* The auto tier counts the calls compiled code hands over because
           the callee has no machine code (exec_tier_call): the calls of
           interpreted code are not counted, which would cost the
           interpreter's call path (its callers are found by samples). */
        const cmp_func *next = NULL;
        if (*ip == CMP_CALL_INTERNAL) {
            next = atomic_load_explicit(&code_table[ip[1]], memory_order_acquire);
        } else if (*ip == CMP_CALL_INDIRECT) {
            const weft_table *t = inst->tables[ip[2]];
            uint32_t i = (uint32_t)fp[ip[3]];
            const weft_func *f = i < t->size ? t->elems[i] : NULL;
            if (f && f->inst == inst) next = atomic_load_explicit(&f->code, memory_order_acquire);
        }
        if (next && !atomic_load_explicit(&next->jit, memory_order_relaxed)) exec_tier_call(next, inst);
    }
    NEXT();
}
#endif

finished:
    exec_fuel_return(e);
    e->state = EXEC_DONE;
    return WEFT_OK;

do_throw: {
    /* Unwinding (exec/throw.c): the handlers of this function around ip,
       then of each caller around its call, innermost first. A catch
       writes the payload and the exnref where its code expects them and
       continues there; an exception no frame catches ends the call. */
    uint32_t pc = (uint32_t)(ip - fn->code);
    /* Where it was thrown, for the backtrace if no frame catches it. */
    const cmp_func *throw_fn = fn;
    const uint32_t *throw_ip = ip;
    weft_instance *throw_inst = inst;
    uint32_t throw_depth = (uint32_t)(frame - frames_base);
    for (;;) {
        const cmp_handler *h = fn->nhandlers ? exec_handler_find(fn, inst, pc, thrown) : NULL;
        if (h) {
            if (h->dst != CMP_NO_SLOT && thrown->nslots)
                memcpy(fp + h->dst, thrown->slots, thrown->nslots * sizeof(uint64_t));
            if (h->exn_slot != CMP_NO_SLOT) fp[h->exn_slot] = (uint64_t)(uintptr_t)thrown;
            ip = fn->code + h->target;
            JIT_NEXT();
        }
        if (frame == frames_base) break;
        frame--;
        ip = frame->ret_ip;
        fp = frame->fp;
        fn = frame->fn;
        if (frame->inst != inst) {
            inst = frame->inst;
            LOAD_INST();
        }
        pc = (uint32_t)(ip - fn->code) - 1; /* inside the call */
    }
    exec_fuel_return(e);
    SYNC_DEPTH();
    e->state = EXEC_IDLE;
    return exec_uncaught(e, thrown, throw_inst, err, throw_fn, throw_ip, throw_depth);
}

do_trap:
    exec_fuel_return(e);
    SYNC_DEPTH();
    e->state = EXEC_IDLE;
    return exec_trap(e, trap, trap_msg, fn, inst, ip, err);

lazy_failed: INTERP_COLD_LABEL;
    /* The stub's function did not compile (err says why), or its frame
       does not fit: then e's registers are back at the call, where
       `enter` reports an exhausted stack. */
    if (st != WEFT_ERR_TRAP) goto failed;
    frame = frames_base + e->depth;
    ip = e->ip;
    fp = e->fp;
    fn = e->fn;
    if (e->inst != inst) {
        inst = e->inst;
        LOAD_INST();
    }
    TRAP(WEFT_TRAP_STACK_EXHAUSTED);

failed:
    /* A host function ended the program (exit) or failed otherwise; err
       is filled already. */
    exec_fuel_return(e);
    e->state = EXEC_IDLE;
    e->depth = 0;
    return st;

#undef OP
#undef NEXT
}
