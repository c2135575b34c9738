/*
 * interp.c — the interpreter loop: one function that runs compiled code
 * (code.h) until the call finishes, traps, or is asked to pause.
 *
 * Registers: ip (next operation), fp (frame slots), fn and inst (current
 * function and instance), mem/mem_size (the instance's memory 0). A wasm
 * call never recurses in C: the caller's registers go to e->frames and the
 * loop continues in the callee; return pops them.
 *
 * Dispatch is a computed goto through a label table (token threading) or,
 * with -DWEFT_DISPATCH_SWITCH=1, a plain switch; both come from the same
 * OP() bodies.
 *
 * Memory bounds: memories never move and only grow, so the cached size can
 * only be too small; an access that fails the fast check re-reads the size
 * before trapping. This keeps imported and shared memories exact without
 * reloading after every call.
 */
#include "exec.h"
#include "simd.h"

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
       on bench/: the SIMD bodies otherwise cost call-heavy code 1-2 %). */
    weft_exec *volatile const e = exec;
#if !WEFT_DISPATCH_SWITCH
    static const void *const labels[CMP_OP_COUNT] = {
#define CMP_X_NUM(name, code, arity, rt, at) &&L_##name,
#define CMP_X_OTHER(name, n) &&L_##name,
#define CMP_X_FUSED(name, cmp, n) &&L_##name,
#define CMP_X_IMM(name, base) &&L_##name,
#define CMP_X_SIMD(name, sub, kind, n, t) &&L_##name,
        CMP_NUMERIC_OPS(CMP_X_NUM) CMP_OTHER_OPS(CMP_X_OTHER) CMP_FUSED_BRANCH_OPS(CMP_X_FUSED) CMP_IMM_OPS(CMP_X_IMM)
        CMP_SIMD_OPS(CMP_X_SIMD)
#if WEFT_NO_PAIRS
#define CMP_PAIR_LABEL_SEQ(a, b) &&L_UNREACHABLE, &&L_UNREACHABLE, &&L_UNREACHABLE,
#define CMP_PAIR_LABEL_TAIL(a, b) &&L_UNREACHABLE,
#elif !WEFT_PAIR_DEP
#define CMP_PAIR_LABEL_SEQ(a, b) &&L_##a##__##b, &&L_##a##__##b, &&L_##a##__##b,
#define CMP_PAIR_LABEL_TAIL(a, b) &&L_##a##__##b,
#else
#define CMP_PAIR_LABEL_SEQ(a, b) &&L_##a##__##b, &&L_##a##__##b##__D1, &&L_##a##__##b##__D2,
#define CMP_PAIR_LABEL_TAIL(a, b) &&L_##a##__##b,
#endif
#define CMP_X_PAIR(a, b, how) CMP_PAIR_LABEL_##how(a, b)
        CMP_PAIR_OPS(CMP_X_PAIR)
#undef CMP_X_PAIR
#undef CMP_X_SIMD
#undef CMP_X_IMM
#undef CMP_X_FUSED
#undef CMP_X_NUM
#undef CMP_X_OTHER
    };
#define OP(name) L_##name:
#define NEXT() goto *labels[*ip]
#else
#define OP(name) case CMP_##name:
#define NEXT() goto dispatch
#endif

    const uint32_t *ip = e->ip;
    uint64_t *fp = e->fp;
    const cmp_func *fn = e->fn;
    weft_instance *inst = e->inst;
    uint8_t *mem = inst->mem0 ? inst->mem0->data : NULL;
    uint64_t mem_size = inst->mem0 ? atomic_load_explicit(&inst->mem0->size, memory_order_relaxed) : 0;
    _Atomic uint32_t *attn = &e->attention;
    weft_trap trap = WEFT_TRAP_NONE;
    const char *trap_msg = NULL;
    char trap_buf[64];
    weft_status st;
    weft_func *callee;
    uint64_t *nfp;
    const cmp_func *cf;
    weft_instance *cinst;
    /* Saved callers: frame is the next free record. */
    exec_frame *frame = e->frames + e->depth;
    exec_frame *const frames_base = e->frames;
    /* What a call may use without asking (exec.h: the reservation's ends,
       or what a memory budget has paid for). */
    exec_frame *frames_end = e->frame_commit;
    uint64_t *stack_end = e->commit_end;
    /* Own functions' code or stubs (module.h): acquire loads, no lock. */
    _Atomic(struct cmp_func *) *code_table = inst->module->code;
#define SYNC_DEPTH() (e->depth = (uint32_t)(frame - frames_base))
/* Saves the registers where a resumed run continues. */
#define SAVE_REGS()                                                                  \
    do {                                                                             \
        SYNC_DEPTH();                                                                \
        e->ip = ip;                                                                  \
        e->fp = fp;                                                                  \
        e->fn = fn;                                                                  \
        e->inst = inst;                                                              \
    } while (0)
#define LOAD_INST()                                                                  \
    do {                                                                             \
        LOAD_MEM();                                                                  \
        code_table = inst->module->code;                                             \
    } while (0)
    int wait_result;

/* The attention word, read where execution may stop: taken branches and
   function entry. Building with -DWEFT_NO_ATTENTION=1 compiles the reads
   out, to measure what they cost (bench/); such a build cannot be
   suspended or stopped. */
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
/* The same, of a slot's value (bodies of pairable operations). */
#define U32V(v) ((uint32_t)(v))
#define I32V(v) ((int32_t)(v))
#define U64V(v) ((uint64_t)(v))
#define I64V(v) ((int64_t)(v))
#define TRAP(kind) do { trap = (kind); goto do_trap; } while (0)
#define LOAD_MEM()                                                                   \
    do {                                                                             \
        mem = inst->mem0 ? inst->mem0->data : NULL;                                  \
        mem_size = inst->mem0 ? atomic_load_explicit(&inst->mem0->size, memory_order_relaxed) : 0; \
    } while (0)
/* Bounds check of [ea, ea + n): the fast test, then a re-read of the size. */
#define CHECK_MEM(ea, n)                                                             \
    do {                                                                             \
        if (BASE_UNLIKELY((ea) + (n) > mem_size)) {                                  \
            LOAD_MEM();                                                              \
            if ((ea) + (n) > mem_size) TRAP(WEFT_TRAP_MEM_OOB);                      \
        }                                                                            \
    } while (0)

    /* Operations with operands (dst, a[, b]). */
#define UN(name, expr) OP(name) { fp[ip[1]] = (expr); ip += 3; NEXT(); }
#define BIN(name, expr) OP(name) { fp[ip[1]] = (expr); ip += 4; NEXT(); }
/* Operations that may start or end a pair (CMP_PAIR_OPS in ops.h) have
   their body, without the step to the next operation, in BODY_<name>(i1,
   i2): i1 and i2 are the words naming its inputs (CMP_PAIR_INPUTS), so a
   pair whose second reads the first's result can name the first's dst
   word instead, and the value stays in a register. SOLO makes the
   operation's own handler of it, PAIR_SEQ and PAIR_DEP the pairs'. */
#define SOLO(name) OP(name) { BODY_##name(S(CMP_IN1_##name), S(CMP_IN2_##name)) ip += CMP_LEN_##name; NEXT(); }
#define BODY_BIN(expr) fp[ip[1]] = (expr);
#define BIN_I32(name, op) BIN(name, (uint32_t)(U32(2) op U32(3)))
#define BIN_I64(name, op) BIN(name, U64(2) op U64(3))
#define CMP_S32(name, op) BIN(name, (uint64_t)(I32(2) op I32(3)))
#define CMP_U32(name, op) BIN(name, (uint64_t)(U32(2) op U32(3)))
#define CMP_S64(name, op) BIN(name, (uint64_t)(I64(2) op I64(3)))
#define CMP_U64(name, op) BIN(name, (uint64_t)(U64(2) op U64(3)))
#define CMP_F32(name, op) BIN(name, (uint64_t)(F32(2) op F32(3)))
#define CMP_F64(name, op) BIN(name, (uint64_t)(F64(2) op F64(3)))
#define BIN_F32(name, op) BIN(name, bits_f32(F32(2) op F32(3)))
#define BIN_F64(name, op) BIN(name, bits_f64(F64(2) op F64(3)))

    if (BASE_UNLIKELY(e->state == EXEC_PARKED)) {
        if (e->host_pending) {
            /* Resumed on a restartable host call: ip is its return
               address. Make it again, unless asked to stop. */
            callee = e->host_pending;
            nfp = e->host_slots;
            e->host_pending = NULL;
            if (atomic_load_explicit(attn, memory_order_acquire) & WEFT_ATTN_STOP) goto attention;
            goto call_host;
        }
        /* Resumed after a parked futex wait: ip is on the wait. */
        wait_result = rt_futex_settle(e);
        goto after_wait;
    }
    NEXT();
#if WEFT_DISPATCH_SWITCH
dispatch:
    switch (*ip) {
#endif

    CMP_S32(I32_EQ, ==)
#define BODY_I32_EQZ(a_, b_) fp[ip[1]] = (uint64_t)(((uint32_t)(a_)) == 0);
    SOLO(I32_EQZ)
    CMP_U32(I32_NE, !=)
    CMP_S32(I32_LT_S, <)
#define BODY_I32_LT_U(a_, b_) BODY_BIN((uint64_t)(((uint32_t)(a_)) < ((uint32_t)(b_))))
    SOLO(I32_LT_U)
#define BODY_I32_GT_S(a_, b_) BODY_BIN((uint64_t)(((int32_t)(a_)) > ((int32_t)(b_))))
    SOLO(I32_GT_S)
#define BODY_I32_GT_U(a_, b_) BODY_BIN((uint64_t)(((uint32_t)(a_)) > ((uint32_t)(b_))))
    SOLO(I32_GT_U)
    CMP_S32(I32_LE_S, <=)
    CMP_U32(I32_LE_U, <=)
    CMP_S32(I32_GE_S, >=)
    CMP_U32(I32_GE_U, >=)
    UN(I64_EQZ, (uint64_t)(U64(2) == 0))
    CMP_U64(I64_EQ, ==)
    CMP_U64(I64_NE, !=)
    CMP_S64(I64_LT_S, <)
    CMP_U64(I64_LT_U, <)
    CMP_S64(I64_GT_S, >)
    CMP_U64(I64_GT_U, >)
    CMP_S64(I64_LE_S, <=)
    CMP_U64(I64_LE_U, <=)
    CMP_S64(I64_GE_S, >=)
    CMP_U64(I64_GE_U, >=)
    CMP_F32(F32_EQ, ==)
    CMP_F32(F32_NE, !=)
    CMP_F32(F32_LT, <)
    CMP_F32(F32_GT, >)
    CMP_F32(F32_LE, <=)
    CMP_F32(F32_GE, >=)
    CMP_F64(F64_EQ, ==)
    CMP_F64(F64_NE, !=)
    CMP_F64(F64_LT, <)
    CMP_F64(F64_GT, >)
    CMP_F64(F64_LE, <=)
    CMP_F64(F64_GE, >=)

    UN(I32_CLZ, U32(2) ? (uint64_t)__builtin_clz(U32(2)) : 32)
    UN(I32_CTZ, U32(2) ? (uint64_t)__builtin_ctz(U32(2)) : 32)
    UN(I32_POPCNT, (uint64_t)__builtin_popcount(U32(2)))
#define BODY_I32_ADD(a_, b_) BODY_BIN((uint32_t)(((uint32_t)(a_)) + ((uint32_t)(b_))))
    SOLO(I32_ADD)
#define BODY_I32_SUB(a_, b_) BODY_BIN((uint32_t)(((uint32_t)(a_)) - ((uint32_t)(b_))))
    SOLO(I32_SUB)
#define BODY_I32_MUL(a_, b_) BODY_BIN((uint32_t)(((uint32_t)(a_)) * ((uint32_t)(b_))))
    SOLO(I32_MUL)
    OP(I32_DIV_S) {
        int32_t a = I32(2), b = I32(3);
        if (b == 0) TRAP(WEFT_TRAP_DIV_ZERO);
        if (a == INT32_MIN && b == -1) TRAP(WEFT_TRAP_INT_OVERFLOW);
        fp[ip[1]] = (uint32_t)(a / b);
        ip += 4;
        NEXT();
    }
    OP(I32_DIV_U) {
        uint32_t b = U32(3);
        if (b == 0) TRAP(WEFT_TRAP_DIV_ZERO);
        fp[ip[1]] = U32(2) / b;
        ip += 4;
        NEXT();
    }
    OP(I32_REM_S) {
        int32_t a = I32(2), b = I32(3);
        if (b == 0) TRAP(WEFT_TRAP_DIV_ZERO);
        fp[ip[1]] = b == -1 ? 0 : (uint32_t)(a % b);
        ip += 4;
        NEXT();
    }
    OP(I32_REM_U) {
        uint32_t b = U32(3);
        if (b == 0) TRAP(WEFT_TRAP_DIV_ZERO);
        fp[ip[1]] = U32(2) % b;
        ip += 4;
        NEXT();
    }
#define BODY_I32_AND(a_, b_) BODY_BIN((uint32_t)(((uint32_t)(a_)) & ((uint32_t)(b_))))
    SOLO(I32_AND)
    BIN_I32(I32_OR, |)
#define BODY_I32_XOR(a_, b_) BODY_BIN((uint32_t)(((uint32_t)(a_)) ^ ((uint32_t)(b_))))
    SOLO(I32_XOR)
    BIN(I32_SHL, (uint32_t)(U32(2) << (U32(3) & 31)))
    BIN(I32_SHR_S, (uint32_t)(I32(2) >> (U32(3) & 31)))
    BIN(I32_SHR_U, (uint32_t)(U32(2) >> (U32(3) & 31)))
    BIN(I32_ROTL, rotl32(U32(2), U32(3)))
    BIN(I32_ROTR, rotr32(U32(2), U32(3)))

    UN(I64_CLZ, U64(2) ? (uint64_t)__builtin_clzll(U64(2)) : 64)
    UN(I64_CTZ, U64(2) ? (uint64_t)__builtin_ctzll(U64(2)) : 64)
    UN(I64_POPCNT, (uint64_t)__builtin_popcountll(U64(2)))
#define BODY_I64_ADD(a_, b_) BODY_BIN(((uint64_t)(a_)) + ((uint64_t)(b_)))
    SOLO(I64_ADD)
    BIN_I64(I64_SUB, -)
    BIN_I64(I64_MUL, *)
    OP(I64_DIV_S) {
        int64_t a = I64(2), b = I64(3);
        if (b == 0) TRAP(WEFT_TRAP_DIV_ZERO);
        if (a == INT64_MIN && b == -1) TRAP(WEFT_TRAP_INT_OVERFLOW);
        fp[ip[1]] = (uint64_t)(a / b);
        ip += 4;
        NEXT();
    }
    OP(I64_DIV_U) {
        uint64_t b = U64(3);
        if (b == 0) TRAP(WEFT_TRAP_DIV_ZERO);
        fp[ip[1]] = U64(2) / b;
        ip += 4;
        NEXT();
    }
    OP(I64_REM_S) {
        int64_t a = I64(2), b = I64(3);
        if (b == 0) TRAP(WEFT_TRAP_DIV_ZERO);
        fp[ip[1]] = b == -1 ? 0 : (uint64_t)(a % b);
        ip += 4;
        NEXT();
    }
    OP(I64_REM_U) {
        uint64_t b = U64(3);
        if (b == 0) TRAP(WEFT_TRAP_DIV_ZERO);
        fp[ip[1]] = U64(2) % b;
        ip += 4;
        NEXT();
    }
    BIN_I64(I64_AND, &)
    BIN_I64(I64_OR, |)
    BIN_I64(I64_XOR, ^)
    BIN(I64_SHL, U64(2) << (U64(3) & 63))
    BIN(I64_SHR_S, (uint64_t)(I64(2) >> (U64(3) & 63)))
    BIN(I64_SHR_U, U64(2) >> (U64(3) & 63))
    BIN(I64_ROTL, rotl64(U64(2), U64(3)))
    BIN(I64_ROTR, rotr64(U64(2), U64(3)))

    UN(F32_ABS, U32(2) & 0x7FFFFFFFu)
    UN(F32_NEG, U32(2) ^ 0x80000000u)
    UN(F32_CEIL, bits_f32(f32_round(ceilf, F32(2))))
    UN(F32_FLOOR, bits_f32(f32_round(floorf, F32(2))))
    UN(F32_TRUNC, bits_f32(f32_round(truncf, F32(2))))
    UN(F32_NEAREST, bits_f32(f32_round(nearbyintf, F32(2))))
    UN(F32_SQRT, bits_f32(sqrtf(F32(2))))
    BIN_F32(F32_ADD, +)
    BIN_F32(F32_SUB, -)
    BIN_F32(F32_MUL, *)
    BIN_F32(F32_DIV, /)
    BIN(F32_MIN, bits_f32(f32_min(F32(2), F32(3))))
    BIN(F32_MAX, bits_f32(f32_max(F32(2), F32(3))))
    BIN(F32_COPYSIGN, (U32(2) & 0x7FFFFFFFu) | (U32(3) & 0x80000000u))
    UN(F64_ABS, U64(2) & 0x7FFFFFFFFFFFFFFFull)
    UN(F64_NEG, U64(2) ^ 0x8000000000000000ull)
    UN(F64_CEIL, bits_f64(f64_round(ceil, F64(2))))
    UN(F64_FLOOR, bits_f64(f64_round(floor, F64(2))))
    UN(F64_TRUNC, bits_f64(f64_round(trunc, F64(2))))
    UN(F64_NEAREST, bits_f64(f64_round(nearbyint, F64(2))))
#define BODY_F64_SQRT(a_, b_) BODY_BIN(bits_f64(sqrt(f64_of(a_))))
    SOLO(F64_SQRT)
#define BODY_F64_ADD(a_, b_) BODY_BIN(bits_f64(f64_of(a_) + f64_of(b_)))
    SOLO(F64_ADD)
#define BODY_F64_SUB(a_, b_) BODY_BIN(bits_f64(f64_of(a_) - f64_of(b_)))
    SOLO(F64_SUB)
#define BODY_F64_MUL(a_, b_) BODY_BIN(bits_f64(f64_of(a_) * f64_of(b_)))
    SOLO(F64_MUL)
#define BODY_F64_DIV(a_, b_) BODY_BIN(bits_f64(f64_of(a_) / f64_of(b_)))
    SOLO(F64_DIV)
    BIN(F64_MIN, bits_f64(f64_min(F64(2), F64(3))))
    BIN(F64_MAX, bits_f64(f64_max(F64(2), F64(3))))
    BIN(F64_COPYSIGN, (U64(2) & 0x7FFFFFFFFFFFFFFFull) | (U64(3) & 0x8000000000000000ull))

    UN(I32_WRAP_I64, (uint32_t)U64(2))
    /* Trapping truncations (§4.3.3 trunc): NaN is an invalid conversion,
       anything whose truncation is out of range an overflow. */
#define TRUNC(name, get, T, lo_ok, hi_ok, conv)                                      \
    OP(name) {                                                                       \
        T x = get(2);                                                                \
        if (isnan(x)) TRAP(WEFT_TRAP_BAD_CONVERSION);                                \
        if (!(lo_ok) || !(hi_ok)) TRAP(WEFT_TRAP_INT_OVERFLOW);                      \
        fp[ip[1]] = conv;                                                            \
        ip += 3;                                                                     \
        NEXT();                                                                      \
    }
    TRUNC(I32_TRUNC_F32_S, F32, float, x >= -2147483648.0f, x < 2147483648.0f, (uint32_t)(int32_t)x)
    TRUNC(I32_TRUNC_F32_U, F32, float, x > -1.0f, x < 4294967296.0f, (uint32_t)x)
    TRUNC(I32_TRUNC_F64_S, F64, double, x > -2147483649.0, x < 2147483648.0, (uint32_t)(int32_t)x)
    TRUNC(I32_TRUNC_F64_U, F64, double, x > -1.0, x < 4294967296.0, (uint32_t)x)
    TRUNC(I64_TRUNC_F32_S, F32, float, x >= -9223372036854775808.0f, x < 9223372036854775808.0f, (uint64_t)(int64_t)x)
    TRUNC(I64_TRUNC_F32_U, F32, float, x > -1.0f, x < 18446744073709551616.0f, (uint64_t)x)
    TRUNC(I64_TRUNC_F64_S, F64, double, x >= -9223372036854775808.0, x < 9223372036854775808.0, (uint64_t)(int64_t)x)
    TRUNC(I64_TRUNC_F64_U, F64, double, x > -1.0, x < 18446744073709551616.0, (uint64_t)x)
    UN(I64_EXTEND_I32_S, (uint64_t)(int64_t)I32(2))
    UN(F32_CONVERT_I32_S, bits_f32((float)I32(2)))
    UN(F32_CONVERT_I32_U, bits_f32((float)U32(2)))
    UN(F32_CONVERT_I64_S, bits_f32((float)I64(2)))
    UN(F32_CONVERT_I64_U, bits_f32((float)U64(2)))
    UN(F32_DEMOTE_F64, bits_f32((float)F64(2)))
    UN(F64_CONVERT_I32_S, bits_f64((double)I32(2)))
    UN(F64_CONVERT_I32_U, bits_f64((double)U32(2)))
    UN(F64_CONVERT_I64_S, bits_f64((double)I64(2)))
    UN(F64_CONVERT_I64_U, bits_f64((double)U64(2)))
    UN(F64_PROMOTE_F32, bits_f64((double)F32(2)))
    UN(I32_EXTEND8_S, (uint32_t)(int32_t)(int8_t)U32(2))
    UN(I32_EXTEND16_S, (uint32_t)(int32_t)(int16_t)U32(2))
    UN(I64_EXTEND8_S, (uint64_t)(int64_t)(int8_t)U64(2))
    UN(I64_EXTEND16_S, (uint64_t)(int64_t)(int16_t)U64(2))
    UN(I64_EXTEND32_S, (uint64_t)(int64_t)(int32_t)U64(2))
    UN(I32_TRUNC_SAT_F32_S, (uint32_t)sat_i32(F32(2)))
    UN(I32_TRUNC_SAT_F32_U, sat_u32(F32(2)))
    UN(I32_TRUNC_SAT_F64_S, (uint32_t)sat_i32(F64(2)))
    UN(I32_TRUNC_SAT_F64_U, sat_u32(F64(2)))
    UN(I64_TRUNC_SAT_F32_S, (uint64_t)sat_i64(F32(2)))
    UN(I64_TRUNC_SAT_F32_U, sat_u64(F32(2)))
    UN(I64_TRUNC_SAT_F64_S, (uint64_t)sat_i64(F64(2)))
    UN(I64_TRUNC_SAT_F64_U, sat_u64(F64(2)))

    /* ---- control ---- */
    OP(UNREACHABLE) { TRAP(WEFT_TRAP_UNREACHABLE); }
    /* Every taken branch is a safe point: loops have no other. */
#define JUMP(k)                                                                      \
    do {                                                                             \
        ip = ip + (k) + (int32_t)ip[k];                                              \
        if (BASE_UNLIKELY(ATTENTION())) goto attention;                              \
        NEXT();                                                                      \
    } while (0)
#define BODY_BR(a_, b_) JUMP(1);
    SOLO(BR)
#define BODY_BR_IF(a_, b_) if (((uint32_t)(a_))) JUMP(2);
    SOLO(BR_IF)
    OP(BR_UNLESS) {
        if (!U32(1)) JUMP(2);
        ip += 3;
        NEXT();
    }
#define BODY_BR_TABLE(a_, b_)                                                        \
    {                                                                                \
        uint32_t i_ = ((uint32_t)(a_)), n_ = ip[2];                                  \
        JUMP(3 + (i_ < n_ ? i_ : n_));                                               \
    }
    OP(BR_TABLE) { BODY_BR_TABLE(S(1), 0) }
#define BODY_BR_CMP(a_, b_, type, op) if (type##V(a_) op type##V(b_)) JUMP(3);
#define BR_CMP(name, type, op) OP(name) { BODY_BR_CMP(S(1), S(2), type, op) ip += 4; NEXT(); }
#define BODY_BR_IF_I32_EQ(a_, b_) BODY_BR_CMP(a_, b_, U32, ==)
#define BODY_BR_IF_I32_NE(a_, b_) BODY_BR_CMP(a_, b_, U32, !=)
    SOLO(BR_IF_I32_EQ) SOLO(BR_IF_I32_NE)
#define BODY_BR_IF_I32_LT_U(a_, b_) BODY_BR_CMP(a_, b_, U32, <)
#define BODY_BR_IF_I32_GT_U(a_, b_) BODY_BR_CMP(a_, b_, U32, >)
    BR_CMP(BR_IF_I32_LT_S, I32, <) SOLO(BR_IF_I32_LT_U)
#define BODY_BR_IF_I32_GT_S(a_, b_) BODY_BR_CMP(a_, b_, I32, >)
    SOLO(BR_IF_I32_GT_S) SOLO(BR_IF_I32_GT_U)
#define BODY_BR_IF_I32_LE_S(a_, b_) BODY_BR_CMP(a_, b_, I32, <=)
    SOLO(BR_IF_I32_LE_S) BR_CMP(BR_IF_I32_LE_U, U32, <=)
    BR_CMP(BR_IF_I32_GE_S, I32, >=) BR_CMP(BR_IF_I32_GE_U, U32, >=)
#define BODY_BR_IF_I64_NE(a_, b_) BODY_BR_CMP(a_, b_, U64, !=)
    BR_CMP(BR_IF_I64_EQ, U64, ==) SOLO(BR_IF_I64_NE)
    BR_CMP(BR_IF_I64_LT_S, I64, <) BR_CMP(BR_IF_I64_LT_U, U64, <)
    BR_CMP(BR_IF_I64_GT_S, I64, >) BR_CMP(BR_IF_I64_GT_U, U64, >)
    BR_CMP(BR_IF_I64_LE_S, I64, <=) BR_CMP(BR_IF_I64_LE_U, U64, <=)
    BR_CMP(BR_IF_I64_GE_S, I64, >=) BR_CMP(BR_IF_I64_GE_U, U64, >=)
#define BODY_BR_IF_I32_EQZ(a_, b_) if (!((uint32_t)(a_))) JUMP(2);
    SOLO(BR_IF_I32_EQZ)
    OP(BR_IF_I64_EQZ) {
        if (!U64(1)) JUMP(2);
        ip += 3;
        NEXT();
    }
    OP(BR_IF_I64_NEZ) {
        if (U64(1)) JUMP(2);
        ip += 3;
        NEXT();
    }
    OP(RETURN) {
        if (BASE_UNLIKELY(frame == frames_base)) goto finished;
        frame--;
        ip = frame->ret_ip;
        fp = frame->fp;
        fn = frame->fn;
        if (frame->inst != inst) {
            inst = frame->inst;
            LOAD_INST();
        }
        NEXT();
    }
    OP(CALL_INTERNAL) { /* a function of this module: no host, same instance */
        cf = atomic_load_explicit(&code_table[ip[1]], memory_order_acquire);
        nfp = fp + ip[2];
        ip += 3;
        cinst = inst;
        goto enter;
    }
    OP(CALL) {
        callee = inst->funcs[ip[1]];
        nfp = fp + ip[2];
        ip += 3;
        goto do_call;
    }
    OP(CALL_INDIRECT) {
        weft_table *t = inst->tables[ip[2]];
        uint32_t i = U32(3);
        if (i >= t->size) {
            snprintf(trap_buf, sizeof trap_buf, "undefined element %u", i);
            trap_msg = trap_buf;
            TRAP(WEFT_TRAP_INDIRECT_OOB);
        }
        callee = t->elems[i];
        if (!callee) {
            snprintf(trap_buf, sizeof trap_buf, "uninitialized element %u", i);
            trap_msg = trap_buf;
            TRAP(WEFT_TRAP_INDIRECT_NULL);
        }
        const mod_functype *want = &inst->module->types[ip[1]];
        if (callee->type != want && !mod_functype_equal(callee->type, want)) TRAP(WEFT_TRAP_INDIRECT_TYPE);
        nfp = fp + ip[4];
        ip += 5;
        goto do_call;
    }
    OP(LAZY) {
        /* A stub was entered (compile/code.h): the function's first call
           through this code. exec_lazy_enter compiles it (or takes what
           another thread compiled) and finishes the entry with the real
           frame; the loop only reloads where to go on. Out of line and
           marked cold, so GCC lays the call path out as before (without
           the mark, `enter` moved and CALL_INTERNAL took one more jump per
           call: bench/results/2026-12-01-lazy-callgrind.txt). */
    lazy_enter: INTERP_COLD_LABEL;
        SAVE_REGS();
        st = exec_lazy_enter(e, err);
        if (BASE_UNLIKELY(st != WEFT_OK)) goto lazy_failed;
        ip = e->ip;
        fn = e->fn;
        NEXT();
    }

    /* ---- data movement ---- */
#define BODY_COPY(a_, b_) fp[ip[1]] = (a_);
    SOLO(COPY)
#define BODY_COPY2(a_, b_) fp[ip[1]] = (a_); fp[ip[3]] = (b_);
    SOLO(COPY2)
    OP(CONST32) { fp[ip[1]] = ip[2]; ip += 3; NEXT(); }
    OP(CONST64) { fp[ip[1]] = (uint64_t)ip[2] | (uint64_t)ip[3] << 32; ip += 4; NEXT(); }
#define BODY_SELECT(a_, b_) fp[ip[1]] = U32(2) ? (a_) : (b_);
    SOLO(SELECT)
#define BODY_GLOBAL_GET(a_, b_) fp[ip[1]] = inst->globals[ip[2]]->value;
    SOLO(GLOBAL_GET)
#define BODY_GLOBAL_SET(a_, b_) inst->globals[ip[1]]->value = (a_);
    SOLO(GLOBAL_SET)

    /* ---- memory ---- */
#define BODY_LOAD(a_, n, expr)                                                       \
    {                                                                                \
        uint64_t ea = (uint64_t)((uint32_t)(a_)) + ip[3];                            \
        CHECK_MEM(ea, n);                                                            \
        const uint8_t *p = mem + ea;                                                 \
        fp[ip[1]] = (expr);                                                          \
    }
#define LOAD_OP(name, n, expr) OP(name) { BODY_LOAD(S(2), n, expr) ip += 4; NEXT(); }
#define BODY_LOAD32(a_, b_) BODY_LOAD(a_, 4, load32(p))
    SOLO(LOAD32)
#define BODY_LOAD64(a_, b_) BODY_LOAD(a_, 8, load64(p))
    SOLO(LOAD64)
#define BODY_LOAD8_U(a_, b_) BODY_LOAD(a_, 1, *p)
    SOLO(LOAD8_U)
#define BODY_LOAD16_U(a_, b_) BODY_LOAD(a_, 2, load16(p))
    SOLO(LOAD16_U)
    LOAD_OP(I32_LOAD8_S, 1, (uint32_t)(int32_t)(int8_t)*p)
#define BODY_I32_LOAD16_S(a_, b_) BODY_LOAD(a_, 2, (uint32_t)(int32_t)(int16_t)load16(p))
    SOLO(I32_LOAD16_S)
    LOAD_OP(I64_LOAD8_S, 1, (uint64_t)(int64_t)(int8_t)*p)
    LOAD_OP(I64_LOAD16_S, 2, (uint64_t)(int64_t)(int16_t)load16(p))
    LOAD_OP(I64_LOAD32_S, 4, (uint64_t)(int64_t)(int32_t)load32(p))
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
#define LOAD_FUSED(name, n, expr)                                                    \
    OP(name##_ADDI) { BODY_LOAD_ADDI(S(2), n, expr) ip += 5; NEXT(); }               \
    OP(name##_ADD) { BODY_LOAD_ADD(S(2), S(3), n, expr) ip += 5; NEXT(); }
    LOAD_FUSED(LOAD32, 4, load32(p))
    LOAD_FUSED(LOAD64, 8, load64(p))
    LOAD_FUSED(LOAD8_U, 1, *p)
    LOAD_FUSED(LOAD16_U, 2, load16(p))
    LOAD_FUSED(I32_LOAD8_S, 1, (uint32_t)(int32_t)(int8_t)*p)
    LOAD_FUSED(I32_LOAD16_S, 2, (uint32_t)(int32_t)(int16_t)load16(p))
    LOAD_FUSED(I64_LOAD8_S, 1, (uint64_t)(int64_t)(int8_t)*p)
    LOAD_FUSED(I64_LOAD16_S, 2, (uint64_t)(int64_t)(int16_t)load16(p))
    LOAD_FUSED(I64_LOAD32_S, 4, (uint64_t)(int64_t)(int32_t)load32(p))
#define BODY_I32_SHR_U_AND(a_, b_) fp[ip[1]] = (uint32_t)((((uint32_t)(a_)) >> (ip[3] & 31)) & ip[4]);
    SOLO(I32_SHR_U_AND)
#define BODY_I32_ADD3(a_, b_) fp[ip[1]] = (uint32_t)(((uint32_t)(a_)) + ((uint32_t)(b_)) + U32(4));
    SOLO(I32_ADD3)
#define BODY_I32_XOR_ROTL(a_, b_)                                                    \
    {                                                                                \
        uint32_t b = ((uint32_t)(b_)), k = ip[4] & 31;                               \
        fp[ip[1]] = ((uint32_t)(a_)) ^ ((b << k) | (b >> ((32 - k) & 31)));          \
    }
    SOLO(I32_XOR_ROTL)
    /* Arithmetic whose second operand is loaded from memory (fused). */
#define BODY_ARITH_LD(b_, n, expr)                                                   \
    {                                                                                \
        uint64_t ea = (uint64_t)((uint32_t)(b_)) + ip[4];                            \
        CHECK_MEM(ea, n);                                                            \
        const uint8_t *p = mem + ea;                                                 \
        fp[ip[1]] = (expr);                                                          \
    }
#define ARITH_LD(name, n, load, expr) OP(name) { BODY_ARITH_LD(S(3), n, expr) ip += 5; NEXT(); }
#define BODY_F64_ADD_LD(a_, b_) BODY_ARITH_LD(b_, 8, bits_f64(f64_of(a_) + f64_of(load64(p))))
    SOLO(F64_ADD_LD)
    ARITH_LD(F64_SUB_LD, 8, load64, bits_f64(F64(2) - f64_of(load64(p))))
#define BODY_F64_MUL_LD(a_, b_) BODY_ARITH_LD(b_, 8, bits_f64(f64_of(a_) * f64_of(load64(p))))
    SOLO(F64_MUL_LD)
    ARITH_LD(F32_ADD_LD, 4, load32, bits_f32(F32(2) + f32_of(load32(p))))
    ARITH_LD(F32_SUB_LD, 4, load32, bits_f32(F32(2) - f32_of(load32(p))))
    ARITH_LD(F32_MUL_LD, 4, load32, bits_f32(F32(2) * f32_of(load32(p))))
#define BODY_I32_ADD_LD(a_, b_) BODY_ARITH_LD(b_, 4, (uint32_t)(((uint32_t)(a_)) + load32(p)))
    SOLO(I32_ADD_LD)
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
    SOLO(STORE8)
    OP(STORE16) { BODY_STORE(S(1), S(2), 2) ip += 4; NEXT(); }
    SOLO(STORE32)
    SOLO(STORE64)
    OP(MEMORY_SIZE) {
        LOAD_MEM();
        fp[ip[1]] = (uint32_t)(mem_size / RT_PAGE_SIZE);
        ip += 2;
        NEXT();
    }
    OP(MEMORY_GROW) {
        int64_t old = rt_memory_grow(inst->mem0, U32(2));
        fp[ip[1]] = (uint32_t)(int32_t)old;
        LOAD_MEM();
        ip += 3;
        NEXT();
    }
    OP(MEMORY_INIT) { /* §4.4.7 memory.init: bounds first, then copy */
        uint32_t seg = ip[1];
        uint64_t d = U32(2), s = U32(3), n = U32(4);
        uint64_t len = inst->data_len[seg];
        LOAD_MEM();
        if (s + n > len || d + n > mem_size) TRAP(WEFT_TRAP_MEM_OOB);
        if (n) memcpy(mem + d, inst->module->datas[seg].bytes + s, n);
        ip += 5;
        NEXT();
    }
    OP(DATA_DROP) { inst->data_len[ip[1]] = 0; ip += 2; NEXT(); }
    OP(MEMORY_COPY) {
        uint64_t d = U32(1), s = U32(2), n = U32(3);
        LOAD_MEM();
        if (s + n > mem_size || d + n > mem_size) TRAP(WEFT_TRAP_MEM_OOB);
        if (n) memmove(mem + d, mem + s, n);
        ip += 4;
        NEXT();
    }
    OP(MEMORY_FILL) {
        uint64_t d = U32(1), n = U32(3);
        LOAD_MEM();
        if (d + n > mem_size) TRAP(WEFT_TRAP_MEM_OOB);
        if (n) memset(mem + d, (int)(uint8_t)U32(2), n);
        ip += 4;
        NEXT();
    }

    /* ---- tables and references ---- */
    OP(TABLE_GET) {
        weft_table *t = inst->tables[ip[2]];
        uint32_t i = U32(3);
        if (i >= t->size) TRAP(WEFT_TRAP_TABLE_OOB);
        fp[ip[1]] = (uint64_t)(uintptr_t)t->elems[i];
        ip += 4;
        NEXT();
    }
    OP(TABLE_SET) {
        weft_table *t = inst->tables[ip[1]];
        uint32_t i = U32(2);
        if (i >= t->size) TRAP(WEFT_TRAP_TABLE_OOB);
        t->elems[i] = (void *)(uintptr_t)fp[ip[3]];
        ip += 4;
        NEXT();
    }
    OP(TABLE_INIT) { /* §4.4.6 table.init */
        weft_table *t = inst->tables[ip[1]];
        uint32_t seg = ip[2];
        uint64_t d = U32(3), s = U32(4), n = U32(5);
        if (s + n > inst->elem_len[seg] || d + n > t->size) TRAP(WEFT_TRAP_TABLE_OOB);
        if (n) memcpy(t->elems + d, inst->elem_refs[seg] + s, n * sizeof(void *));
        ip += 6;
        NEXT();
    }
    OP(ELEM_DROP) { inst->elem_len[ip[1]] = 0; ip += 2; NEXT(); }
    OP(TABLE_COPY) {
        weft_table *td = inst->tables[ip[1]], *ts = inst->tables[ip[2]];
        uint64_t d = U32(3), s = U32(4), n = U32(5);
        if (s + n > ts->size || d + n > td->size) TRAP(WEFT_TRAP_TABLE_OOB);
        if (n) memmove(td->elems + d, ts->elems + s, n * sizeof(void *));
        ip += 6;
        NEXT();
    }
    OP(TABLE_GROW) {
        int64_t old = rt_table_grow(inst->tables[ip[2]], U32(4), (void *)(uintptr_t)fp[ip[3]]);
        fp[ip[1]] = (uint32_t)(int32_t)old;
        ip += 5;
        NEXT();
    }
    OP(TABLE_SIZE) { fp[ip[1]] = inst->tables[ip[2]]->size; ip += 3; NEXT(); }
    OP(TABLE_FILL) {
        weft_table *t = inst->tables[ip[1]];
        uint64_t d = U32(2), n = U32(4);
        void *v = (void *)(uintptr_t)fp[ip[3]];
        if (d + n > t->size) TRAP(WEFT_TRAP_TABLE_OOB);
        for (uint64_t i = 0; i < n; i++) t->elems[d + i] = v;
        ip += 5;
        NEXT();
    }
    OP(REF_IS_NULL) { fp[ip[1]] = fp[ip[2]] == 0; ip += 3; NEXT(); }
    OP(REF_FUNC) { fp[ip[1]] = (uint64_t)(uintptr_t)inst->funcs[ip[2]]; ip += 3; NEXT(); }

    /* ---- SIMD (the 0xFD prefix) ---- */
#include "interp_simd.h"


    /* ---- operations with an immediate second operand ---- */
#define IMM32 (ip[3])
#define IMM64 ((uint64_t)(int64_t)(int32_t)ip[3])
#define BODY_I32_ADD_IMM(a_, b_) BODY_BIN((uint32_t)(((uint32_t)(a_)) + IMM32))
    SOLO(I32_ADD_IMM)
#define BODY_I32_SUB_IMM(a_, b_) BODY_BIN((uint32_t)(((uint32_t)(a_)) - IMM32))
    SOLO(I32_SUB_IMM)
#define BODY_I32_MUL_IMM(a_, b_) BODY_BIN((uint32_t)(((uint32_t)(a_)) * IMM32))
    SOLO(I32_MUL_IMM)
#define BODY_I32_AND_IMM(a_, b_) BODY_BIN((uint32_t)(((uint32_t)(a_)) & IMM32))
    SOLO(I32_AND_IMM)
    BIN(I32_OR_IMM, (uint32_t)(U32(2) | IMM32))
#define BODY_I32_XOR_IMM(a_, b_) BODY_BIN((uint32_t)(((uint32_t)(a_)) ^ IMM32))
    SOLO(I32_XOR_IMM)
#define BODY_I32_SHL_IMM(a_, b_) BODY_BIN((uint32_t)(((uint32_t)(a_)) << (IMM32 & 31)))
    SOLO(I32_SHL_IMM)
#define BODY_I32_SHR_S_IMM(a_, b_) BODY_BIN((uint32_t)(((int32_t)(a_)) >> (IMM32 & 31)))
    SOLO(I32_SHR_S_IMM)
#define BODY_I32_SHR_U_IMM(a_, b_) BODY_BIN((uint32_t)(((uint32_t)(a_)) >> (IMM32 & 31)))
    SOLO(I32_SHR_U_IMM)
#define BODY_I64_ADD_IMM(a_, b_) BODY_BIN(((uint64_t)(a_)) + IMM64)
    SOLO(I64_ADD_IMM)
    BIN(I64_SUB_IMM, U64(2) - IMM64)
    BIN(I64_MUL_IMM, U64(2) * IMM64)
    BIN(I64_AND_IMM, U64(2) & IMM64)
    BIN(I64_OR_IMM, U64(2) | IMM64)
    BIN(I64_XOR_IMM, U64(2) ^ IMM64)
    BIN(I64_SHL_IMM, U64(2) << (IMM64 & 63))
    BIN(I64_SHR_S_IMM, (uint64_t)(I64(2) >> (IMM64 & 63)))
    BIN(I64_SHR_U_IMM, U64(2) >> (IMM64 & 63))
    /* (x << k) | (x >> (32 - k)), counts mod 32: one rotate instruction,
       where rotl32's general form tests for a zero count. */
#define BODY_I32_ROTL_IMM(a_, b_) BODY_BIN((((uint32_t)(a_)) << (IMM32 & 31)) | (((uint32_t)(a_)) >> ((32 - IMM32) & 31)))
    SOLO(I32_ROTL_IMM)
    BIN(I32_EQ_IMM, (uint64_t)(U32(2) == IMM32))
    BIN(I32_NE_IMM, (uint64_t)(U32(2) != IMM32))
#define BODY_I32_LT_S_IMM(a_, b_) BODY_BIN((uint64_t)(((int32_t)(a_)) < (int32_t)IMM32))
    SOLO(I32_LT_S_IMM)
    BIN(I32_LT_U_IMM, (uint64_t)(U32(2) < IMM32))
    BIN(I32_GT_S_IMM, (uint64_t)(I32(2) > (int32_t)IMM32))
#define BODY_I32_GT_U_IMM(a_, b_) BODY_BIN((uint64_t)(((uint32_t)(a_)) > IMM32))
    SOLO(I32_GT_U_IMM)
    BIN(I32_LE_S_IMM, (uint64_t)(I32(2) <= (int32_t)IMM32))
    BIN(I32_LE_U_IMM, (uint64_t)(U32(2) <= IMM32))
    BIN(I32_GE_S_IMM, (uint64_t)(I32(2) >= (int32_t)IMM32))
    BIN(I32_GE_U_IMM, (uint64_t)(U32(2) >= IMM32))
    BIN(I64_EQ_IMM, (uint64_t)(U64(2) == IMM64))
    BIN(I64_NE_IMM, (uint64_t)(U64(2) != IMM64))
    BIN(I64_LT_S_IMM, (uint64_t)(I64(2) < (int64_t)IMM64))
    BIN(I64_LT_U_IMM, (uint64_t)(U64(2) < IMM64))
    BIN(I64_GT_S_IMM, (uint64_t)(I64(2) > (int64_t)IMM64))
    BIN(I64_GT_U_IMM, (uint64_t)(U64(2) > IMM64))
    BIN(I64_LE_S_IMM, (uint64_t)(I64(2) <= (int64_t)IMM64))
    BIN(I64_LE_U_IMM, (uint64_t)(U64(2) <= IMM64))
    BIN(I64_GE_S_IMM, (uint64_t)(I64(2) >= (int64_t)IMM64))
    BIN(I64_GE_U_IMM, (uint64_t)(U64(2) >= IMM64))
#define BODY_BR_CMP_IMM(a_, lhs, op, rhs) if (lhs##V(a_) op (rhs)) JUMP(3);
#define BR_CMP_IMM(name, lhs, op, rhs) OP(name) { BODY_BR_CMP_IMM(S(1), lhs, op, rhs) ip += 4; NEXT(); }
#define BODY_BR_IF_I32_EQ_IMM(a_, b_) BODY_BR_CMP_IMM(a_, U32, ==, ip[2])
    SOLO(BR_IF_I32_EQ_IMM)
#define BODY_BR_IF_I32_NE_IMM(a_, b_) BODY_BR_CMP_IMM(a_, U32, !=, ip[2])
    SOLO(BR_IF_I32_NE_IMM)
    BR_CMP_IMM(BR_IF_I32_LT_S_IMM, I32, <, (int32_t)ip[2])
#define BODY_BR_IF_I32_LT_U_IMM(a_, b_) BODY_BR_CMP_IMM(a_, U32, <, ip[2])
    SOLO(BR_IF_I32_LT_U_IMM)
    BR_CMP_IMM(BR_IF_I32_GT_S_IMM, I32, >, (int32_t)ip[2])
#define BODY_BR_IF_I32_GT_U_IMM(a_, b_) BODY_BR_CMP_IMM(a_, U32, >, ip[2])
    SOLO(BR_IF_I32_GT_U_IMM)
    BR_CMP_IMM(BR_IF_I32_LE_S_IMM, I32, <=, (int32_t)ip[2])
    BR_CMP_IMM(BR_IF_I32_LE_U_IMM, U32, <=, ip[2])
    BR_CMP_IMM(BR_IF_I32_GE_S_IMM, I32, >=, (int32_t)ip[2])
    BR_CMP_IMM(BR_IF_I32_GE_U_IMM, U32, >=, ip[2])
    BR_CMP_IMM(BR_IF_I64_EQ_IMM, U64, ==, (uint64_t)(int64_t)(int32_t)ip[2])
    BR_CMP_IMM(BR_IF_I64_NE_IMM, U64, !=, (uint64_t)(int64_t)(int32_t)ip[2])
    BR_CMP_IMM(BR_IF_I64_LT_S_IMM, I64, <, (int64_t)(int32_t)ip[2])
    BR_CMP_IMM(BR_IF_I64_LT_U_IMM, U64, <, (uint64_t)(int64_t)(int32_t)ip[2])
    BR_CMP_IMM(BR_IF_I64_GT_S_IMM, I64, >, (int64_t)(int32_t)ip[2])
    BR_CMP_IMM(BR_IF_I64_GT_U_IMM, U64, >, (uint64_t)(int64_t)(int32_t)ip[2])
    BR_CMP_IMM(BR_IF_I64_LE_S_IMM, I64, <=, (int64_t)(int32_t)ip[2])
    BR_CMP_IMM(BR_IF_I64_LE_U_IMM, U64, <=, (uint64_t)(int64_t)(int32_t)ip[2])
    BR_CMP_IMM(BR_IF_I64_GE_S_IMM, I64, >=, (int64_t)(int32_t)ip[2])
    BR_CMP_IMM(BR_IF_I64_GE_U_IMM, U64, >=, (uint64_t)(int64_t)(int32_t)ip[2])

    /* ---- atomics (threads proposal) ---- */
    /* Bounds, then alignment: an atomic access must be naturally aligned. */
#define ATOMIC_EA(n, slot, offw)                                                     \
    uint64_t ea = (uint64_t)U32(slot) + ip[offw];                                    \
    CHECK_MEM(ea, n);                                                                \
    if (ea & ((n) - 1)) TRAP(WEFT_TRAP_UNALIGNED_ATOMIC);
#define ATOMIC_LOAD_OP(bits)                                                         \
    OP(ATOMIC_LOAD##bits) {                                                          \
        ATOMIC_EA(bits / 8, 2, 3)                                                    \
        fp[ip[1]] = __atomic_load_n((uint##bits##_t *)(mem + ea), __ATOMIC_SEQ_CST); \
        ip += 4;                                                                     \
        NEXT();                                                                      \
    }
#define ATOMIC_STORE_OP(bits)                                                        \
    OP(ATOMIC_STORE##bits) {                                                         \
        ATOMIC_EA(bits / 8, 1, 3)                                                    \
        __atomic_store_n((uint##bits##_t *)(mem + ea), (uint##bits##_t)fp[ip[2]], __ATOMIC_SEQ_CST); \
        ip += 4;                                                                     \
        NEXT();                                                                      \
    }
#define ATOMIC_RMW_OP(name, bits, builtin)                                           \
    OP(ATOMIC_##name##bits) {                                                        \
        ATOMIC_EA(bits / 8, 2, 4)                                                    \
        fp[ip[1]] = builtin((uint##bits##_t *)(mem + ea), (uint##bits##_t)fp[ip[3]], __ATOMIC_SEQ_CST); \
        ip += 5;                                                                     \
        NEXT();                                                                      \
    }
#define ATOMIC_CMPXCHG_OP(bits)                                                      \
    OP(ATOMIC_CMPXCHG##bits) {                                                       \
        ATOMIC_EA(bits / 8, 2, 5)                                                    \
        uint##bits##_t expected = (uint##bits##_t)fp[ip[3]];                         \
        __atomic_compare_exchange_n((uint##bits##_t *)(mem + ea), &expected,         \
                                    (uint##bits##_t)fp[ip[4]], false, __ATOMIC_SEQ_CST, \
                                    __ATOMIC_SEQ_CST);                               \
        fp[ip[1]] = expected;                                                        \
        ip += 6;                                                                     \
        NEXT();                                                                      \
    }
#define ATOMIC_WIDTHS(M, ...) M(__VA_ARGS__ 8) M(__VA_ARGS__ 16) M(__VA_ARGS__ 32) M(__VA_ARGS__ 64)
    ATOMIC_LOAD_OP(8) ATOMIC_LOAD_OP(16) ATOMIC_LOAD_OP(32) ATOMIC_LOAD_OP(64)
    ATOMIC_STORE_OP(8) ATOMIC_STORE_OP(16) ATOMIC_STORE_OP(32) ATOMIC_STORE_OP(64)
    ATOMIC_RMW_OP(ADD, 8, __atomic_fetch_add) ATOMIC_RMW_OP(ADD, 16, __atomic_fetch_add)
    ATOMIC_RMW_OP(ADD, 32, __atomic_fetch_add) ATOMIC_RMW_OP(ADD, 64, __atomic_fetch_add)
    ATOMIC_RMW_OP(SUB, 8, __atomic_fetch_sub) ATOMIC_RMW_OP(SUB, 16, __atomic_fetch_sub)
    ATOMIC_RMW_OP(SUB, 32, __atomic_fetch_sub) ATOMIC_RMW_OP(SUB, 64, __atomic_fetch_sub)
    ATOMIC_RMW_OP(AND, 8, __atomic_fetch_and) ATOMIC_RMW_OP(AND, 16, __atomic_fetch_and)
    ATOMIC_RMW_OP(AND, 32, __atomic_fetch_and) ATOMIC_RMW_OP(AND, 64, __atomic_fetch_and)
    ATOMIC_RMW_OP(OR, 8, __atomic_fetch_or) ATOMIC_RMW_OP(OR, 16, __atomic_fetch_or)
    ATOMIC_RMW_OP(OR, 32, __atomic_fetch_or) ATOMIC_RMW_OP(OR, 64, __atomic_fetch_or)
    ATOMIC_RMW_OP(XOR, 8, __atomic_fetch_xor) ATOMIC_RMW_OP(XOR, 16, __atomic_fetch_xor)
    ATOMIC_RMW_OP(XOR, 32, __atomic_fetch_xor) ATOMIC_RMW_OP(XOR, 64, __atomic_fetch_xor)
    ATOMIC_RMW_OP(XCHG, 8, __atomic_exchange_n) ATOMIC_RMW_OP(XCHG, 16, __atomic_exchange_n)
    ATOMIC_RMW_OP(XCHG, 32, __atomic_exchange_n) ATOMIC_RMW_OP(XCHG, 64, __atomic_exchange_n)
    ATOMIC_CMPXCHG_OP(8) ATOMIC_CMPXCHG_OP(16) ATOMIC_CMPXCHG_OP(32) ATOMIC_CMPXCHG_OP(64)
    OP(ATOMIC_FENCE) {
        __atomic_thread_fence(__ATOMIC_SEQ_CST);
        ip += 1;
        NEXT();
    }
    OP(ATOMIC_NOTIFY) {
        ATOMIC_EA(4, 2, 4)
        fp[ip[1]] = rt_atomic_notify(inst->mem0, ea, U32(3));
        ip += 5;
        NEXT();
    }
    OP(ATOMIC_WAIT32) {
        ATOMIC_EA(4, 2, 5)
        wait_result = rt_atomic_wait(e, inst->mem0, ea, U32(3), 4, I64(4));
        goto after_wait;
    }
    OP(ATOMIC_WAIT64) {
        ATOMIC_EA(8, 2, 5)
        wait_result = rt_atomic_wait(e, inst->mem0, ea, U64(3), 8, I64(4));
        goto after_wait;
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
               waits again. */
            goto attention;
        }
        fp[ip[1]] = (uint32_t)r;
        ip += 6;
        NEXT();
    }
    /* ---- pairs (CMP_PAIR_OPS in ops.h; compile/pairs.c) ---- */
    /* Both bodies, stepping ip between them as the two handlers would: a
       trap in the second names the second's position, and its branch
       target word is where it always was. */
#define PAIR_BODIES(name, a, b, b_in1, b_in2)                                        \
    OP(name) {                                                                       \
        BODY_##a(S(CMP_IN1_##a), S(CMP_IN2_##a))                                     \
        uint64_t r_ = CMP_DST_##a ? fp[ip[1]] : 0;                                   \
        (void)r_;                                                                    \
        ip += CMP_LEN_##a;                                                           \
        BODY_##b(b_in1, b_in2) ip += CMP_LEN_##b;                                    \
        NEXT();                                                                      \
    }
    /* The dependent forms take the second's input 1 (D1) or 2 (D2) from
       r_, the first's result as it stored it (pairs.c checked that the
       second names that slot): the C compiler keeps it in a register
       instead of loading back the store it has just made. */
#if WEFT_NO_PAIRS
#define PAIR_SEQ(a, b)
#elif !WEFT_PAIR_DEP
#define PAIR_SEQ(a, b) PAIR_BODIES(a##__##b, a, b, S(CMP_IN1_##b), S(CMP_IN2_##b))
#else
#define PAIR_SEQ(a, b)                                                               \
    PAIR_BODIES(a##__##b, a, b, S(CMP_IN1_##b), S(CMP_IN2_##b))                      \
    PAIR_BODIES(a##__##b##__D1, a, b, r_, S(CMP_IN2_##b))                            \
    PAIR_BODIES(a##__##b##__D2, a, b, S(CMP_IN1_##b), r_)
#endif
    /* The first's body, then straight into the second's handler. */
#if WEFT_NO_PAIRS
#define PAIR_TAIL(a, b)
#elif WEFT_DISPATCH_SWITCH
#define PAIR_TAIL(a, b) OP(a##__##b) { BODY_##a(S(CMP_IN1_##a), S(CMP_IN2_##a)) ip += CMP_LEN_##a; NEXT(); }
#else
#define PAIR_TAIL(a, b) OP(a##__##b) { BODY_##a(S(CMP_IN1_##a), S(CMP_IN2_##a)) ip += CMP_LEN_##a; goto L_##b; }
#endif
#define CMP_X_PAIR(a, b, how) PAIR_##how(a, b)
    CMP_PAIR_OPS(CMP_X_PAIR)
#undef CMP_X_PAIR

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
            if (st != WEFT_ERR_TRAP) goto failed;
            trap = WEFT_TRAP_HOST;
            trap_msg = err ? err->message : "host function trapped";
            ip -= 1; /* inside the call instruction, for the backtrace */
            goto do_trap;
        }
        NEXT();
    }
    cinst = callee->inst;
    goto enter;
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
    /* Function entry is a safe point. */
    if (BASE_UNLIKELY(ATTENTION())) goto attention;
    NEXT();
}

attention: {
    /* A request arrived, or the call is metered (EXEC_ATTN_FUEL stays set
       to its end, so every safe point comes here); ip is where to
       continue. Meter first, then honour every request bit set, clearing
       those but keeping the fuel bit. */
    uint32_t bits = atomic_load_explicit(attn, memory_order_relaxed);
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
        if (BASE_LIKELY(!(bits & ~EXEC_ATTN_OWN))) NEXT();
    }
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
    NEXT();
}

finished:
    exec_fuel_return(e);
    e->state = EXEC_DONE;
    return WEFT_OK;

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
