/*
 * simd.h — the lane arithmetic of the fixed-width SIMD proposal (spec
 * §4.3.2 vector operations), as small inline helpers for the interpreter's
 * SIMD bodies (interp_simd.h). A v128 lives in two consecutive 64-bit
 * slots, low 8 bytes first; lanes are little-endian like memory.
 *
 * Two implementations of the same helpers, chosen per build:
 *  - portable C: lane loops over a union; any C11 compiler and target;
 *  - SSE2 on x86-64 (the baseline every x86-64 has): intrinsics for the
 *    operations where a vector instruction computes exactly the spec's
 *    result; everything else shares the portable code.
 * -DWEFT_SIMD_PORTABLE=1 forces the portable path (CI builds and tests it).
 * Neither needs -march: SSE2 is part of x86-64 itself.
 */
#ifndef WEFT_SIMD_H
#define WEFT_SIMD_H

#include <math.h>
#include <stdint.h>
#include <string.h>

#ifndef WEFT_SIMD_PORTABLE
#define WEFT_SIMD_PORTABLE 0
#endif
#if !WEFT_SIMD_PORTABLE && defined(__SSE2__)
#define WEFT_SIMD_SSE2 1
#include <emmintrin.h>
#else
#define WEFT_SIMD_SSE2 0
#endif

typedef union simd_v128 {
    uint8_t u8[16];
    int8_t i8[16];
    uint16_t u16[8];
    int16_t i16[8];
    uint32_t u32[4];
    int32_t i32[4];
    uint64_t u64[2];
    int64_t i64[2];
    float f32[4];
    double f64[2];
#if WEFT_SIMD_SSE2
    __m128i m;
    __m128 mf;
    __m128d md;
#endif
} simd_v128;

static inline simd_v128 simd_ld(const void *p) {
    simd_v128 r;
    memcpy(&r, p, 16);
    return r;
}
static inline void simd_st(void *p, simd_v128 v) { memcpy(p, &v, 16); }

/* ---- Scalar lane helpers (the spec's numeric operators on one lane) ---- */

static inline int32_t simd_sat_s(int64_t x, int64_t lo, int64_t hi) { return (int32_t)(x < lo ? lo : x > hi ? hi : x); }

/* Addition and multiplication with the first operand first. With two NaN
   operands SSE returns the first's (quieted), and for a commutative
   operation the C compiler picks either order, site by site (GCC 12 put
   b first in the handlers of f32.mul, f64.add and f64.mul, a in f32.add's):
   written this way every site and build gives a's NaN, and so does the
   compiler tier's `adds[sd] a, b` (jit.c fbin) and, for fmin/fmax's NaN
   below, its `addps`/`addpd` (jit/simd.c). Both are what §4.3.3 allows;
   this makes the choice one. Shared by interp.c's scalar handlers. */
#if defined(__x86_64__) && defined(__SSE2__)
static inline float f32_add(float a, float b) { __asm__("addss %1, %0" : "+x"(a) : "xm"(b)); return a; }
static inline float f32_mul(float a, float b) { __asm__("mulss %1, %0" : "+x"(a) : "xm"(b)); return a; }
static inline double f64_add(double a, double b) { __asm__("addsd %1, %0" : "+x"(a) : "xm"(b)); return a; }
static inline double f64_mul(double a, double b) { __asm__("mulsd %1, %0" : "+x"(a) : "xm"(b)); return a; }
#else
static inline float f32_add(float a, float b) { return a + b; }
static inline float f32_mul(float a, float b) { return a * b; }
static inline double f64_add(double a, double b) { return a + b; }
static inline double f64_mul(double a, double b) { return a * b; }
#endif

/* fmin/fmax (§4.3.3): NaN in, NaN out; -0 < +0. */
static inline float simd_fminf(float a, float b) {
    if (isnan(a) || isnan(b)) return f32_add(a, b);
    if (a == b) return signbit(a) ? a : b;
    return a < b ? a : b;
}
static inline float simd_fmaxf(float a, float b) {
    if (isnan(a) || isnan(b)) return f32_add(a, b);
    if (a == b) return signbit(a) ? b : a;
    return a > b ? a : b;
}
static inline double simd_fmin(double a, double b) {
    if (isnan(a) || isnan(b)) return f64_add(a, b);
    if (a == b) return signbit(a) ? a : b;
    return a < b ? a : b;
}
static inline double simd_fmax(double a, double b) {
    if (isnan(a) || isnan(b)) return f64_add(a, b);
    if (a == b) return signbit(a) ? b : a;
    return a > b ? a : b;
}
/* Rounding returns a quiet NaN for a NaN (libm may hand a signalling one
   back unchanged). */
static inline float simd_roundf(float (*op)(float), float x) { return isnan(x) ? x + x : op(x); }
static inline double simd_round(double (*op)(double), double x) { return isnan(x) ? x + x : op(x); }

/* trunc_sat (§4.3.3). */
static inline int32_t simd_trunc_sat_s32(double d) {
    if (isnan(d)) return 0;
    if (d <= -2147483648.0) return INT32_MIN;
    if (d >= 2147483648.0) return INT32_MAX;
    return (int32_t)d;
}
static inline uint32_t simd_trunc_sat_u32(double d) {
    if (isnan(d) || d <= -1.0) return 0;
    if (d >= 4294967296.0) return UINT32_MAX;
    return (uint32_t)d;
}

/* ---- Generators of lane-wise helpers (portable) ---- */

#define SIMD_LANES2(fname, F, N, expr)                                              \
    static inline simd_v128 fname(simd_v128 a, simd_v128 b) {                       \
        simd_v128 r;                                                                \
        for (int i = 0; i < N; i++) r.F[i] = (expr);                                \
        return r;                                                                   \
    }
#define SIMD_TERN_LANES(fname, F, N, expr)                                          \
    static inline simd_v128 fname(simd_v128 a, simd_v128 b, simd_v128 c) {         \
        simd_v128 r;                                                                \
        for (int i = 0; i < N; i++) r.F[i] = (expr);                                \
        return r;                                                                   \
    }
#define SIMD_LANES1(fname, F, N, expr)                                              \
    static inline simd_v128 fname(simd_v128 a) {                                    \
        simd_v128 r;                                                                \
        for (int i = 0; i < N; i++) r.F[i] = (expr);                                \
        return r;                                                                   \
    }
/* Comparisons: all ones when the relation holds. */
#define SIMD_CMP(fname, F, U, N, op)                                                \
    static inline simd_v128 fname(simd_v128 a, simd_v128 b) {                       \
        simd_v128 r;                                                                \
        for (int i = 0; i < N; i++) r.U[i] = a.F[i] op b.F[i] ? (__typeof__(r.U[0]))-1 : 0; \
        return r;                                                                   \
    }
#define SIMD_SHIFT(fname, F, N, bits, op)                                           \
    static inline simd_v128 fname(simd_v128 a, uint32_t n) {                        \
        simd_v128 r;                                                                \
        n &= (bits) - 1;                                                            \
        for (int i = 0; i < N; i++) r.F[i] = (__typeof__(r.F[0]))(a.F[i] op n);     \
        return r;                                                                   \
    }

/* Integer lane arithmetic wraps: computed on the unsigned lanes. */
SIMD_LANES2(simd_i8x16_add_c, u8, 16, (uint8_t)(a.u8[i] + b.u8[i]))
SIMD_LANES2(simd_i8x16_sub_c, u8, 16, (uint8_t)(a.u8[i] - b.u8[i]))
SIMD_LANES2(simd_i16x8_add_c, u16, 8, (uint16_t)(a.u16[i] + b.u16[i]))
SIMD_LANES2(simd_i16x8_sub_c, u16, 8, (uint16_t)(a.u16[i] - b.u16[i]))
SIMD_LANES2(simd_i16x8_mul_c, u16, 8, (uint16_t)((uint32_t)a.u16[i] * b.u16[i]))
SIMD_LANES2(simd_i32x4_add_c, u32, 4, a.u32[i] + b.u32[i])
SIMD_LANES2(simd_i32x4_sub_c, u32, 4, a.u32[i] - b.u32[i])
SIMD_LANES2(simd_i32x4_mul_c, u32, 4, a.u32[i] * b.u32[i])
SIMD_LANES2(simd_i64x2_add_c, u64, 2, a.u64[i] + b.u64[i])
SIMD_LANES2(simd_i64x2_sub_c, u64, 2, a.u64[i] - b.u64[i])
SIMD_LANES2(simd_i64x2_mul, u64, 2, a.u64[i] * b.u64[i])

SIMD_LANES2(simd_i8x16_add_sat_s_c, i8, 16, (int8_t)simd_sat_s((int64_t)a.i8[i] + b.i8[i], INT8_MIN, INT8_MAX))
SIMD_LANES2(simd_i8x16_add_sat_u_c, u8, 16, (uint8_t)simd_sat_s((int64_t)a.u8[i] + b.u8[i], 0, UINT8_MAX))
SIMD_LANES2(simd_i8x16_sub_sat_s_c, i8, 16, (int8_t)simd_sat_s((int64_t)a.i8[i] - b.i8[i], INT8_MIN, INT8_MAX))
SIMD_LANES2(simd_i8x16_sub_sat_u_c, u8, 16, (uint8_t)simd_sat_s((int64_t)a.u8[i] - b.u8[i], 0, UINT8_MAX))
SIMD_LANES2(simd_i16x8_add_sat_s_c, i16, 8, (int16_t)simd_sat_s((int64_t)a.i16[i] + b.i16[i], INT16_MIN, INT16_MAX))
SIMD_LANES2(simd_i16x8_add_sat_u_c, u16, 8, (uint16_t)simd_sat_s((int64_t)a.u16[i] + b.u16[i], 0, UINT16_MAX))
SIMD_LANES2(simd_i16x8_sub_sat_s_c, i16, 8, (int16_t)simd_sat_s((int64_t)a.i16[i] - b.i16[i], INT16_MIN, INT16_MAX))
SIMD_LANES2(simd_i16x8_sub_sat_u_c, u16, 8, (uint16_t)simd_sat_s((int64_t)a.u16[i] - b.u16[i], 0, UINT16_MAX))

SIMD_LANES2(simd_i8x16_min_s, i8, 16, a.i8[i] < b.i8[i] ? a.i8[i] : b.i8[i])
SIMD_LANES2(simd_i8x16_min_u_c, u8, 16, a.u8[i] < b.u8[i] ? a.u8[i] : b.u8[i])
SIMD_LANES2(simd_i8x16_max_s, i8, 16, a.i8[i] > b.i8[i] ? a.i8[i] : b.i8[i])
SIMD_LANES2(simd_i8x16_max_u_c, u8, 16, a.u8[i] > b.u8[i] ? a.u8[i] : b.u8[i])
SIMD_LANES2(simd_i16x8_min_s_c, i16, 8, a.i16[i] < b.i16[i] ? a.i16[i] : b.i16[i])
SIMD_LANES2(simd_i16x8_min_u, u16, 8, a.u16[i] < b.u16[i] ? a.u16[i] : b.u16[i])
SIMD_LANES2(simd_i16x8_max_s_c, i16, 8, a.i16[i] > b.i16[i] ? a.i16[i] : b.i16[i])
SIMD_LANES2(simd_i16x8_max_u, u16, 8, a.u16[i] > b.u16[i] ? a.u16[i] : b.u16[i])
SIMD_LANES2(simd_i32x4_min_s, i32, 4, a.i32[i] < b.i32[i] ? a.i32[i] : b.i32[i])
SIMD_LANES2(simd_i32x4_min_u, u32, 4, a.u32[i] < b.u32[i] ? a.u32[i] : b.u32[i])
SIMD_LANES2(simd_i32x4_max_s, i32, 4, a.i32[i] > b.i32[i] ? a.i32[i] : b.i32[i])
SIMD_LANES2(simd_i32x4_max_u, u32, 4, a.u32[i] > b.u32[i] ? a.u32[i] : b.u32[i])
SIMD_LANES2(simd_i8x16_avgr_u_c, u8, 16, (uint8_t)(((uint32_t)a.u8[i] + b.u8[i] + 1) >> 1))
SIMD_LANES2(simd_i16x8_avgr_u_c, u16, 8, (uint16_t)(((uint32_t)a.u16[i] + b.u16[i] + 1) >> 1))
SIMD_LANES2(simd_i16x8_q15mulr_sat_s, i16, 8,
            (int16_t)simd_sat_s(((int64_t)a.i16[i] * b.i16[i] + 0x4000) >> 15, INT16_MIN, INT16_MAX))

SIMD_LANES1(simd_i8x16_abs, u8, 16, (uint8_t)(a.i8[i] < 0 ? 0u - a.u8[i] : a.u8[i]))
SIMD_LANES1(simd_i16x8_abs, u16, 8, (uint16_t)(a.i16[i] < 0 ? 0u - a.u16[i] : a.u16[i]))
SIMD_LANES1(simd_i32x4_abs, u32, 4, a.i32[i] < 0 ? 0u - a.u32[i] : a.u32[i])
SIMD_LANES1(simd_i64x2_abs, u64, 2, a.i64[i] < 0 ? 0u - a.u64[i] : a.u64[i])
SIMD_LANES1(simd_i8x16_neg, u8, 16, (uint8_t)(0u - a.u8[i]))
SIMD_LANES1(simd_i16x8_neg, u16, 8, (uint16_t)(0u - a.u16[i]))
SIMD_LANES1(simd_i32x4_neg, u32, 4, 0u - a.u32[i])
SIMD_LANES1(simd_i64x2_neg, u64, 2, 0u - a.u64[i])
SIMD_LANES1(simd_i8x16_popcnt, u8, 16, (uint8_t)__builtin_popcount(a.u8[i]))

SIMD_CMP(simd_i8x16_eq_c, u8, u8, 16, ==)
SIMD_CMP(simd_i8x16_ne, u8, u8, 16, !=)
SIMD_CMP(simd_i8x16_lt_s, i8, u8, 16, <)
SIMD_CMP(simd_i8x16_lt_u, u8, u8, 16, <)
SIMD_CMP(simd_i8x16_gt_s_c, i8, u8, 16, >)
SIMD_CMP(simd_i8x16_gt_u, u8, u8, 16, >)
SIMD_CMP(simd_i8x16_le_s, i8, u8, 16, <=)
SIMD_CMP(simd_i8x16_le_u, u8, u8, 16, <=)
SIMD_CMP(simd_i8x16_ge_s, i8, u8, 16, >=)
SIMD_CMP(simd_i8x16_ge_u, u8, u8, 16, >=)
SIMD_CMP(simd_i16x8_eq_c, u16, u16, 8, ==)
SIMD_CMP(simd_i16x8_ne, u16, u16, 8, !=)
SIMD_CMP(simd_i16x8_lt_s, i16, u16, 8, <)
SIMD_CMP(simd_i16x8_lt_u, u16, u16, 8, <)
SIMD_CMP(simd_i16x8_gt_s_c, i16, u16, 8, >)
SIMD_CMP(simd_i16x8_gt_u, u16, u16, 8, >)
SIMD_CMP(simd_i16x8_le_s, i16, u16, 8, <=)
SIMD_CMP(simd_i16x8_le_u, u16, u16, 8, <=)
SIMD_CMP(simd_i16x8_ge_s, i16, u16, 8, >=)
SIMD_CMP(simd_i16x8_ge_u, u16, u16, 8, >=)
SIMD_CMP(simd_i32x4_eq_c, u32, u32, 4, ==)
SIMD_CMP(simd_i32x4_ne, u32, u32, 4, !=)
SIMD_CMP(simd_i32x4_lt_s, i32, u32, 4, <)
SIMD_CMP(simd_i32x4_lt_u, u32, u32, 4, <)
SIMD_CMP(simd_i32x4_gt_s_c, i32, u32, 4, >)
SIMD_CMP(simd_i32x4_gt_u, u32, u32, 4, >)
SIMD_CMP(simd_i32x4_le_s, i32, u32, 4, <=)
SIMD_CMP(simd_i32x4_le_u, u32, u32, 4, <=)
SIMD_CMP(simd_i32x4_ge_s, i32, u32, 4, >=)
SIMD_CMP(simd_i32x4_ge_u, u32, u32, 4, >=)
SIMD_CMP(simd_i64x2_eq, u64, u64, 2, ==)
SIMD_CMP(simd_i64x2_ne, u64, u64, 2, !=)
SIMD_CMP(simd_i64x2_lt_s, i64, u64, 2, <)
SIMD_CMP(simd_i64x2_gt_s, i64, u64, 2, >)
SIMD_CMP(simd_i64x2_le_s, i64, u64, 2, <=)
SIMD_CMP(simd_i64x2_ge_s, i64, u64, 2, >=)
SIMD_CMP(simd_f32x4_eq_c, f32, u32, 4, ==)
SIMD_CMP(simd_f32x4_ne_c, f32, u32, 4, !=)
SIMD_CMP(simd_f32x4_lt_c, f32, u32, 4, <)
SIMD_CMP(simd_f32x4_gt_c, f32, u32, 4, >)
SIMD_CMP(simd_f32x4_le_c, f32, u32, 4, <=)
SIMD_CMP(simd_f32x4_ge_c, f32, u32, 4, >=)
SIMD_CMP(simd_f64x2_eq_c, f64, u64, 2, ==)
SIMD_CMP(simd_f64x2_ne_c, f64, u64, 2, !=)
SIMD_CMP(simd_f64x2_lt_c, f64, u64, 2, <)
SIMD_CMP(simd_f64x2_gt_c, f64, u64, 2, >)
SIMD_CMP(simd_f64x2_le_c, f64, u64, 2, <=)
SIMD_CMP(simd_f64x2_ge_c, f64, u64, 2, >=)

SIMD_SHIFT(simd_i8x16_shl, u8, 16, 8, <<)
SIMD_SHIFT(simd_i8x16_shr_s, i8, 16, 8, >>)
SIMD_SHIFT(simd_i8x16_shr_u, u8, 16, 8, >>)
SIMD_SHIFT(simd_i16x8_shl_c, u16, 8, 16, <<)
SIMD_SHIFT(simd_i16x8_shr_s_c, i16, 8, 16, >>)
SIMD_SHIFT(simd_i16x8_shr_u_c, u16, 8, 16, >>)
SIMD_SHIFT(simd_i32x4_shl_c, u32, 4, 32, <<)
SIMD_SHIFT(simd_i32x4_shr_s_c, i32, 4, 32, >>)
SIMD_SHIFT(simd_i32x4_shr_u_c, u32, 4, 32, >>)
SIMD_SHIFT(simd_i64x2_shl_c, u64, 2, 64, <<)
SIMD_SHIFT(simd_i64x2_shr_s, i64, 2, 64, >>)
SIMD_SHIFT(simd_i64x2_shr_u_c, u64, 2, 64, >>)

SIMD_LANES2(simd_v128_and_c, u64, 2, a.u64[i] & b.u64[i])
SIMD_LANES2(simd_v128_or_c, u64, 2, a.u64[i] | b.u64[i])
SIMD_LANES2(simd_v128_xor_c, u64, 2, a.u64[i] ^ b.u64[i])
SIMD_LANES2(simd_v128_andnot_c, u64, 2, a.u64[i] & ~b.u64[i])
SIMD_LANES1(simd_v128_not, u64, 2, ~a.u64[i])

/* Float lanes: the hardware's IEEE arithmetic gives the spec's results
   (NaN results are arithmetic NaNs either way). */
SIMD_LANES2(simd_f32x4_add_c, f32, 4, a.f32[i] + b.f32[i])
SIMD_LANES2(simd_f32x4_sub_c, f32, 4, a.f32[i] - b.f32[i])
SIMD_LANES2(simd_f32x4_mul_c, f32, 4, a.f32[i] * b.f32[i])
SIMD_LANES2(simd_f32x4_div_c, f32, 4, a.f32[i] / b.f32[i])
SIMD_LANES2(simd_f64x2_add_c, f64, 2, a.f64[i] + b.f64[i])
SIMD_LANES2(simd_f64x2_sub_c, f64, 2, a.f64[i] - b.f64[i])
SIMD_LANES2(simd_f64x2_mul_c, f64, 2, a.f64[i] * b.f64[i])
SIMD_LANES2(simd_f64x2_div_c, f64, 2, a.f64[i] / b.f64[i])
SIMD_LANES2(simd_f32x4_min, f32, 4, simd_fminf(a.f32[i], b.f32[i]))
SIMD_LANES2(simd_f32x4_max, f32, 4, simd_fmaxf(a.f32[i], b.f32[i]))
SIMD_LANES2(simd_f64x2_min, f64, 2, simd_fmin(a.f64[i], b.f64[i]))
SIMD_LANES2(simd_f64x2_max, f64, 2, simd_fmax(a.f64[i], b.f64[i]))
/* pmin/pmax (§4.3.3 fpmin/fpmax): b < a ? b : a, a < b ? b : a, bits kept. */
SIMD_LANES2(simd_f32x4_pmin_c, u32, 4, b.f32[i] < a.f32[i] ? b.u32[i] : a.u32[i])
SIMD_LANES2(simd_f32x4_pmax_c, u32, 4, a.f32[i] < b.f32[i] ? b.u32[i] : a.u32[i])
SIMD_LANES2(simd_f64x2_pmin_c, u64, 2, b.f64[i] < a.f64[i] ? b.u64[i] : a.u64[i])
SIMD_LANES2(simd_f64x2_pmax_c, u64, 2, a.f64[i] < b.f64[i] ? b.u64[i] : a.u64[i])
SIMD_LANES1(simd_f32x4_abs, u32, 4, a.u32[i] & 0x7FFFFFFFu)
SIMD_LANES1(simd_f32x4_neg, u32, 4, a.u32[i] ^ 0x80000000u)
SIMD_LANES1(simd_f64x2_abs, u64, 2, a.u64[i] & 0x7FFFFFFFFFFFFFFFull)
SIMD_LANES1(simd_f64x2_neg, u64, 2, a.u64[i] ^ 0x8000000000000000ull)
SIMD_LANES1(simd_f32x4_sqrt_c, f32, 4, sqrtf(a.f32[i]))
SIMD_LANES1(simd_f64x2_sqrt_c, f64, 2, sqrt(a.f64[i]))
SIMD_LANES1(simd_f32x4_ceil, f32, 4, simd_roundf(ceilf, a.f32[i]))
SIMD_LANES1(simd_f32x4_floor, f32, 4, simd_roundf(floorf, a.f32[i]))
SIMD_LANES1(simd_f32x4_trunc, f32, 4, simd_roundf(truncf, a.f32[i]))
SIMD_LANES1(simd_f32x4_nearest, f32, 4, simd_roundf(nearbyintf, a.f32[i]))
SIMD_LANES1(simd_f64x2_ceil, f64, 2, simd_round(ceil, a.f64[i]))
SIMD_LANES1(simd_f64x2_floor, f64, 2, simd_round(floor, a.f64[i]))
SIMD_LANES1(simd_f64x2_trunc, f64, 2, simd_round(trunc, a.f64[i]))
SIMD_LANES1(simd_f64x2_nearest, f64, 2, simd_round(nearbyint, a.f64[i]))
SIMD_LANES1(simd_f32x4_convert_i32x4_s_c, f32, 4, (float)a.i32[i])
SIMD_LANES1(simd_f32x4_convert_i32x4_u, f32, 4, (float)a.u32[i])
SIMD_LANES1(simd_i32x4_trunc_sat_f32x4_s, i32, 4, simd_trunc_sat_s32(a.f32[i]))
SIMD_LANES1(simd_i32x4_trunc_sat_f32x4_u, u32, 4, simd_trunc_sat_u32(a.f32[i]))

/* Lanes 0 and 1 computed, 2 and 3 zero (the _zero conversions). */
#define SIMD_ZERO_HIGH(fname, F, expr)                                              \
    static inline simd_v128 fname(simd_v128 a) {                                    \
        simd_v128 r;                                                                \
        memset(&r, 0, sizeof r);                                                    \
        for (int i = 0; i < 2; i++) r.F[i] = (expr);                                \
        return r;                                                                   \
    }
SIMD_ZERO_HIGH(simd_i32x4_trunc_sat_f64x2_s_zero, i32, simd_trunc_sat_s32(a.f64[i]))
SIMD_ZERO_HIGH(simd_i32x4_trunc_sat_f64x2_u_zero, u32, simd_trunc_sat_u32(a.f64[i]))
SIMD_ZERO_HIGH(simd_f32x4_demote_f64x2_zero, f32, (float)a.f64[i])
SIMD_LANES1(simd_f64x2_promote_low_f32x4, f64, 2, (double)a.f32[i])
SIMD_LANES1(simd_f64x2_convert_low_i32x4_s, f64, 2, (double)a.i32[i])
SIMD_LANES1(simd_f64x2_convert_low_i32x4_u, f64, 2, (double)a.u32[i])

/* Extension: lanes of the low or high half, widened. */
#define SIMD_EXTEND(fname, RF, AF, N, half)                                         \
    static inline simd_v128 fname(simd_v128 a) {                                    \
        simd_v128 r;                                                                \
        for (int i = 0; i < N; i++) r.RF[i] = a.AF[i + (half) * N];                 \
        return r;                                                                   \
    }
SIMD_EXTEND(simd_i16x8_extend_low_i8x16_s, i16, i8, 8, 0)
SIMD_EXTEND(simd_i16x8_extend_high_i8x16_s, i16, i8, 8, 1)
SIMD_EXTEND(simd_i16x8_extend_low_i8x16_u_c, u16, u8, 8, 0)
SIMD_EXTEND(simd_i16x8_extend_high_i8x16_u_c, u16, u8, 8, 1)
SIMD_EXTEND(simd_i32x4_extend_low_i16x8_s, i32, i16, 4, 0)
SIMD_EXTEND(simd_i32x4_extend_high_i16x8_s, i32, i16, 4, 1)
SIMD_EXTEND(simd_i32x4_extend_low_i16x8_u_c, u32, u16, 4, 0)
SIMD_EXTEND(simd_i32x4_extend_high_i16x8_u_c, u32, u16, 4, 1)
SIMD_EXTEND(simd_i64x2_extend_low_i32x4_s, i64, i32, 2, 0)
SIMD_EXTEND(simd_i64x2_extend_high_i32x4_s, i64, i32, 2, 1)
SIMD_EXTEND(simd_i64x2_extend_low_i32x4_u, u64, u32, 2, 0)
SIMD_EXTEND(simd_i64x2_extend_high_i32x4_u, u64, u32, 2, 1)

/* Extended multiplication: lanes of one half, widened, multiplied. */
#define SIMD_EXTMUL(fname, RF, AF, N, half, WT)                                     \
    static inline simd_v128 fname(simd_v128 a, simd_v128 b) {                       \
        simd_v128 r;                                                                \
        for (int i = 0; i < N; i++) r.RF[i] = (WT)a.AF[i + (half) * N] * (WT)b.AF[i + (half) * N]; \
        return r;                                                                   \
    }
SIMD_EXTMUL(simd_i16x8_extmul_low_i8x16_s, i16, i8, 8, 0, int32_t)
SIMD_EXTMUL(simd_i16x8_extmul_high_i8x16_s, i16, i8, 8, 1, int32_t)
SIMD_EXTMUL(simd_i16x8_extmul_low_i8x16_u, u16, u8, 8, 0, uint32_t)
SIMD_EXTMUL(simd_i16x8_extmul_high_i8x16_u, u16, u8, 8, 1, uint32_t)
SIMD_EXTMUL(simd_i32x4_extmul_low_i16x8_s, i32, i16, 4, 0, int32_t)
SIMD_EXTMUL(simd_i32x4_extmul_high_i16x8_s, i32, i16, 4, 1, int32_t)
SIMD_EXTMUL(simd_i32x4_extmul_low_i16x8_u, u32, u16, 4, 0, uint32_t)
SIMD_EXTMUL(simd_i32x4_extmul_high_i16x8_u, u32, u16, 4, 1, uint32_t)
SIMD_EXTMUL(simd_i64x2_extmul_low_i32x4_s, i64, i32, 2, 0, int64_t)
SIMD_EXTMUL(simd_i64x2_extmul_high_i32x4_s, i64, i32, 2, 1, int64_t)
SIMD_EXTMUL(simd_i64x2_extmul_low_i32x4_u, u64, u32, 2, 0, uint64_t)
SIMD_EXTMUL(simd_i64x2_extmul_high_i32x4_u, u64, u32, 2, 1, uint64_t)

/* Pairwise sums of adjacent lanes, widened. */
SIMD_LANES1(simd_i16x8_extadd_pairwise_i8x16_s, i16, 8, (int16_t)(a.i8[2 * i] + a.i8[2 * i + 1]))
SIMD_LANES1(simd_i16x8_extadd_pairwise_i8x16_u, u16, 8, (uint16_t)(a.u8[2 * i] + a.u8[2 * i + 1]))
SIMD_LANES1(simd_i32x4_extadd_pairwise_i16x8_s, i32, 4, (int32_t)a.i16[2 * i] + a.i16[2 * i + 1])
SIMD_LANES1(simd_i32x4_extadd_pairwise_i16x8_u, u32, 4, (uint32_t)a.u16[2 * i] + a.u16[2 * i + 1])
/* dot: the two products of each pair summed; wraps (only -32768² · 2 does). */
SIMD_LANES2(simd_i32x4_dot_i16x8_s_c, u32, 4,
            (uint32_t)((int64_t)a.i16[2 * i] * b.i16[2 * i] + (int64_t)a.i16[2 * i + 1] * b.i16[2 * i + 1]))

/* Narrowing: a's lanes then b's, each saturated (inputs are signed). */
#define SIMD_NARROW(fname, RF, AF, N, lo, hi)                                       \
    static inline simd_v128 fname(simd_v128 a, simd_v128 b) {                       \
        simd_v128 r;                                                                \
        for (int i = 0; i < N; i++) {                                               \
            r.RF[i] = (__typeof__(r.RF[0]))simd_sat_s(a.AF[i], lo, hi);             \
            r.RF[i + N] = (__typeof__(r.RF[0]))simd_sat_s(b.AF[i], lo, hi);         \
        }                                                                           \
        return r;                                                                   \
    }
SIMD_NARROW(simd_i8x16_narrow_i16x8_s_c, i8, i16, 8, INT8_MIN, INT8_MAX)
SIMD_NARROW(simd_i8x16_narrow_i16x8_u_c, u8, i16, 8, 0, UINT8_MAX)
SIMD_NARROW(simd_i16x8_narrow_i32x4_s_c, i16, i32, 4, INT16_MIN, INT16_MAX)
SIMD_NARROW(simd_i16x8_narrow_i32x4_u, u16, i32, 4, 0, UINT16_MAX)

static inline simd_v128 simd_swizzle_c(simd_v128 a, simd_v128 s) {
    simd_v128 r;
    for (int i = 0; i < 16; i++) r.u8[i] = s.u8[i] < 16 ? a.u8[s.u8[i]] : 0;
    return r;
}
/* shuffle, with the lanes as the compiler gives them: one byte mask per
   operand (an index below 16 into it, or 0x80 where the lane is the other
   operand's or zero); shuffle1 has one operand and zeros. */
static inline simd_v128 simd_shuffle1_c(simd_v128 a, const uint8_t *m) {
    simd_v128 r;
    for (int i = 0; i < 16; i++) r.u8[i] = m[i] & 0x80 ? 0 : a.u8[m[i] & 15];
    return r;
}
static inline simd_v128 simd_shuffle_c(simd_v128 a, simd_v128 b, const uint8_t *ma, const uint8_t *mb) {
    simd_v128 r;
    for (int i = 0; i < 16; i++) r.u8[i] = ma[i] & 0x80 ? b.u8[mb[i] & 15] : a.u8[ma[i] & 15];
    return r;
}
static inline simd_v128 simd_bitselect_c(simd_v128 a, simd_v128 b, simd_v128 m) {
    simd_v128 r;
    for (int i = 0; i < 2; i++) r.u64[i] = (a.u64[i] & m.u64[i]) | (b.u64[i] & ~m.u64[i]);
    return r;
}

#define SIMD_ALL_TRUE(fname, F, N)                                                  \
    static inline uint32_t fname(simd_v128 a) {                                     \
        for (int i = 0; i < N; i++)                                                 \
            if (!a.F[i]) return 0;                                                  \
        return 1;                                                                   \
    }
SIMD_ALL_TRUE(simd_i8x16_all_true_c, u8, 16)
SIMD_ALL_TRUE(simd_i16x8_all_true, u16, 8)
SIMD_ALL_TRUE(simd_i32x4_all_true, u32, 4)
SIMD_ALL_TRUE(simd_i64x2_all_true, u64, 2)
#define SIMD_BITMASK(fname, F, N)                                                   \
    static inline uint32_t fname(simd_v128 a) {                                     \
        uint32_t m = 0;                                                             \
        for (int i = 0; i < N; i++) m |= (uint32_t)(a.F[i] < 0) << i;               \
        return m;                                                                   \
    }
SIMD_BITMASK(simd_i8x16_bitmask_c, i8, 16)
SIMD_BITMASK(simd_i16x8_bitmask_c, i16, 8)
SIMD_BITMASK(simd_i32x4_bitmask_c, i32, 4)
SIMD_BITMASK(simd_i64x2_bitmask, i64, 2)
static inline uint32_t simd_any_true_c(simd_v128 a) { return (a.u64[0] | a.u64[1]) != 0; }

/* ---- The vector unit: SSE2 where it computes the same bits ----
   Each name below is what the interpreter calls; without SSE2 it is the
   portable helper of the same name with _c. */
#if WEFT_SIMD_SSE2
static inline simd_v128 simd_m(__m128i m) { simd_v128 r; r.m = m; return r; }
static inline simd_v128 simd_mf(__m128 m) { simd_v128 r; r.mf = m; return r; }
static inline simd_v128 simd_md(__m128d m) { simd_v128 r; r.md = m; return r; }
#define SIMD_SSE2_BIN(name, expr) \
    static inline simd_v128 name(simd_v128 a, simd_v128 b) { return (expr); }
SIMD_SSE2_BIN(simd_i8x16_add, simd_m(_mm_add_epi8(a.m, b.m)))
SIMD_SSE2_BIN(simd_i8x16_sub, simd_m(_mm_sub_epi8(a.m, b.m)))
SIMD_SSE2_BIN(simd_i16x8_add, simd_m(_mm_add_epi16(a.m, b.m)))
SIMD_SSE2_BIN(simd_i16x8_sub, simd_m(_mm_sub_epi16(a.m, b.m)))
SIMD_SSE2_BIN(simd_i16x8_mul, simd_m(_mm_mullo_epi16(a.m, b.m)))
SIMD_SSE2_BIN(simd_i32x4_add, simd_m(_mm_add_epi32(a.m, b.m)))
SIMD_SSE2_BIN(simd_i32x4_sub, simd_m(_mm_sub_epi32(a.m, b.m)))
SIMD_SSE2_BIN(simd_i64x2_add, simd_m(_mm_add_epi64(a.m, b.m)))
SIMD_SSE2_BIN(simd_i64x2_sub, simd_m(_mm_sub_epi64(a.m, b.m)))
/* i32x4.mul without SSE4.1's pmulld: even and odd lanes through pmuludq. */
static inline simd_v128 simd_i32x4_mul(simd_v128 a, simd_v128 b) {
    __m128i even = _mm_mul_epu32(a.m, b.m);
    __m128i odd = _mm_mul_epu32(_mm_srli_epi64(a.m, 32), _mm_srli_epi64(b.m, 32));
    return simd_m(_mm_unpacklo_epi32(_mm_shuffle_epi32(even, 0x08), _mm_shuffle_epi32(odd, 0x08)));
}
SIMD_SSE2_BIN(simd_i8x16_add_sat_s, simd_m(_mm_adds_epi8(a.m, b.m)))
SIMD_SSE2_BIN(simd_i8x16_add_sat_u, simd_m(_mm_adds_epu8(a.m, b.m)))
SIMD_SSE2_BIN(simd_i8x16_sub_sat_s, simd_m(_mm_subs_epi8(a.m, b.m)))
SIMD_SSE2_BIN(simd_i8x16_sub_sat_u, simd_m(_mm_subs_epu8(a.m, b.m)))
SIMD_SSE2_BIN(simd_i16x8_add_sat_s, simd_m(_mm_adds_epi16(a.m, b.m)))
SIMD_SSE2_BIN(simd_i16x8_add_sat_u, simd_m(_mm_adds_epu16(a.m, b.m)))
SIMD_SSE2_BIN(simd_i16x8_sub_sat_s, simd_m(_mm_subs_epi16(a.m, b.m)))
SIMD_SSE2_BIN(simd_i16x8_sub_sat_u, simd_m(_mm_subs_epu16(a.m, b.m)))
SIMD_SSE2_BIN(simd_i8x16_min_u, simd_m(_mm_min_epu8(a.m, b.m)))
SIMD_SSE2_BIN(simd_i8x16_max_u, simd_m(_mm_max_epu8(a.m, b.m)))
SIMD_SSE2_BIN(simd_i16x8_min_s, simd_m(_mm_min_epi16(a.m, b.m)))
SIMD_SSE2_BIN(simd_i16x8_max_s, simd_m(_mm_max_epi16(a.m, b.m)))
SIMD_SSE2_BIN(simd_i8x16_avgr_u, simd_m(_mm_avg_epu8(a.m, b.m)))
SIMD_SSE2_BIN(simd_i16x8_avgr_u, simd_m(_mm_avg_epu16(a.m, b.m)))
SIMD_SSE2_BIN(simd_i32x4_dot_i16x8_s, simd_m(_mm_madd_epi16(a.m, b.m)))
SIMD_SSE2_BIN(simd_i8x16_eq, simd_m(_mm_cmpeq_epi8(a.m, b.m)))
SIMD_SSE2_BIN(simd_i16x8_eq, simd_m(_mm_cmpeq_epi16(a.m, b.m)))
SIMD_SSE2_BIN(simd_i32x4_eq, simd_m(_mm_cmpeq_epi32(a.m, b.m)))
SIMD_SSE2_BIN(simd_i8x16_gt_s, simd_m(_mm_cmpgt_epi8(a.m, b.m)))
SIMD_SSE2_BIN(simd_i16x8_gt_s, simd_m(_mm_cmpgt_epi16(a.m, b.m)))
SIMD_SSE2_BIN(simd_i32x4_gt_s, simd_m(_mm_cmpgt_epi32(a.m, b.m)))
/* Ordered compares; cmpneq is "unordered or not equal", as wasm's ne. */
SIMD_SSE2_BIN(simd_f32x4_eq, simd_mf(_mm_cmpeq_ps(a.mf, b.mf)))
SIMD_SSE2_BIN(simd_f32x4_ne, simd_mf(_mm_cmpneq_ps(a.mf, b.mf)))
SIMD_SSE2_BIN(simd_f32x4_lt, simd_mf(_mm_cmplt_ps(a.mf, b.mf)))
SIMD_SSE2_BIN(simd_f32x4_gt, simd_mf(_mm_cmplt_ps(b.mf, a.mf)))
SIMD_SSE2_BIN(simd_f32x4_le, simd_mf(_mm_cmple_ps(a.mf, b.mf)))
SIMD_SSE2_BIN(simd_f32x4_ge, simd_mf(_mm_cmple_ps(b.mf, a.mf)))
SIMD_SSE2_BIN(simd_f64x2_eq, simd_md(_mm_cmpeq_pd(a.md, b.md)))
SIMD_SSE2_BIN(simd_f64x2_ne, simd_md(_mm_cmpneq_pd(a.md, b.md)))
SIMD_SSE2_BIN(simd_f64x2_lt, simd_md(_mm_cmplt_pd(a.md, b.md)))
SIMD_SSE2_BIN(simd_f64x2_gt, simd_md(_mm_cmplt_pd(b.md, a.md)))
SIMD_SSE2_BIN(simd_f64x2_le, simd_md(_mm_cmple_pd(a.md, b.md)))
SIMD_SSE2_BIN(simd_f64x2_ge, simd_md(_mm_cmple_pd(b.md, a.md)))
SIMD_SSE2_BIN(simd_v128_and, simd_m(_mm_and_si128(a.m, b.m)))
SIMD_SSE2_BIN(simd_v128_or, simd_m(_mm_or_si128(a.m, b.m)))
SIMD_SSE2_BIN(simd_v128_xor, simd_m(_mm_xor_si128(a.m, b.m)))
SIMD_SSE2_BIN(simd_v128_andnot, simd_m(_mm_andnot_si128(b.m, a.m)))
/* Addition and multiplication with a first, as the scalar f32_add above:
   with two NaN lanes SSE returns the first operand's (quieted), and the
   C compiler may swap the operands of a commutative _mm_add_ps (GCC
   writes it as a vector `+`); written as the instruction, every build
   gives a's NaN, as the compiler tier's `addps a, b` (src/jit/simd.c). */
#define SIMD_SSE2_ASM(name, insn, field)                                                 \
    static inline simd_v128 name(simd_v128 a, simd_v128 b) {                             \
        __asm__(insn " %1, %0" : "+x"(a.field) : "x"(b.field));                          \
        return a;                                                                        \
    }
SIMD_SSE2_ASM(simd_f32x4_add, "addps", mf)
SIMD_SSE2_ASM(simd_f32x4_mul, "mulps", mf)
SIMD_SSE2_ASM(simd_f64x2_add, "addpd", md)
SIMD_SSE2_ASM(simd_f64x2_mul, "mulpd", md)
SIMD_SSE2_BIN(simd_f32x4_sub, simd_mf(_mm_sub_ps(a.mf, b.mf)))
SIMD_SSE2_BIN(simd_f32x4_div, simd_mf(_mm_div_ps(a.mf, b.mf)))
SIMD_SSE2_BIN(simd_f64x2_sub, simd_md(_mm_sub_pd(a.md, b.md)))
SIMD_SSE2_BIN(simd_f64x2_div, simd_md(_mm_div_pd(a.md, b.md)))
/* minps(x, y) is x < y ? x : y, exactly pmin with the operands swapped. */
SIMD_SSE2_BIN(simd_f32x4_pmin, simd_mf(_mm_min_ps(b.mf, a.mf)))
SIMD_SSE2_BIN(simd_f32x4_pmax, simd_mf(_mm_max_ps(b.mf, a.mf)))
SIMD_SSE2_BIN(simd_f64x2_pmin, simd_md(_mm_min_pd(b.md, a.md)))
SIMD_SSE2_BIN(simd_f64x2_pmax, simd_md(_mm_max_pd(b.md, a.md)))
/* Signed saturation packs, as the narrowing instructions (packuswb reads
   its inputs as signed, as i8x16.narrow_i16x8_u does). */
SIMD_SSE2_BIN(simd_i8x16_narrow_i16x8_s, simd_m(_mm_packs_epi16(a.m, b.m)))
SIMD_SSE2_BIN(simd_i8x16_narrow_i16x8_u, simd_m(_mm_packus_epi16(a.m, b.m)))
SIMD_SSE2_BIN(simd_i16x8_narrow_i32x4_s, simd_m(_mm_packs_epi32(a.m, b.m)))
static inline simd_v128 simd_bitselect(simd_v128 a, simd_v128 b, simd_v128 m) {
    return simd_m(_mm_or_si128(_mm_and_si128(a.m, m.m), _mm_andnot_si128(m.m, b.m)));
}
static inline simd_v128 simd_f32x4_sqrt(simd_v128 a) { return simd_mf(_mm_sqrt_ps(a.mf)); }
static inline simd_v128 simd_f64x2_sqrt(simd_v128 a) { return simd_md(_mm_sqrt_pd(a.md)); }
static inline simd_v128 simd_f32x4_convert_i32x4_s(simd_v128 a) { return simd_mf(_mm_cvtepi32_ps(a.m)); }
static inline simd_v128 simd_i16x8_extend_low_i8x16_u(simd_v128 a) { return simd_m(_mm_unpacklo_epi8(a.m, _mm_setzero_si128())); }
static inline simd_v128 simd_i16x8_extend_high_i8x16_u(simd_v128 a) { return simd_m(_mm_unpackhi_epi8(a.m, _mm_setzero_si128())); }
static inline simd_v128 simd_i32x4_extend_low_i16x8_u(simd_v128 a) { return simd_m(_mm_unpacklo_epi16(a.m, _mm_setzero_si128())); }
static inline simd_v128 simd_i32x4_extend_high_i16x8_u(simd_v128 a) { return simd_m(_mm_unpackhi_epi16(a.m, _mm_setzero_si128())); }
#define SIMD_SSE2_SHIFT(name, expr) \
    static inline simd_v128 name(simd_v128 a, uint32_t n) { return simd_m(expr); }
SIMD_SSE2_SHIFT(simd_i16x8_shl, _mm_sll_epi16(a.m, _mm_cvtsi32_si128((int)(n & 15))))
SIMD_SSE2_SHIFT(simd_i16x8_shr_s, _mm_sra_epi16(a.m, _mm_cvtsi32_si128((int)(n & 15))))
SIMD_SSE2_SHIFT(simd_i16x8_shr_u, _mm_srl_epi16(a.m, _mm_cvtsi32_si128((int)(n & 15))))
SIMD_SSE2_SHIFT(simd_i32x4_shl, _mm_sll_epi32(a.m, _mm_cvtsi32_si128((int)(n & 31))))
SIMD_SSE2_SHIFT(simd_i32x4_shr_s, _mm_sra_epi32(a.m, _mm_cvtsi32_si128((int)(n & 31))))
SIMD_SSE2_SHIFT(simd_i32x4_shr_u, _mm_srl_epi32(a.m, _mm_cvtsi32_si128((int)(n & 31))))
SIMD_SSE2_SHIFT(simd_i64x2_shl, _mm_sll_epi64(a.m, _mm_cvtsi32_si128((int)(n & 63))))
SIMD_SSE2_SHIFT(simd_i64x2_shr_u, _mm_srl_epi64(a.m, _mm_cvtsi32_si128((int)(n & 63))))
static inline uint32_t simd_any_true(simd_v128 a) {
    return _mm_movemask_epi8(_mm_cmpeq_epi8(a.m, _mm_setzero_si128())) != 0xFFFF;
}
static inline uint32_t simd_i8x16_all_true(simd_v128 a) {
    return _mm_movemask_epi8(_mm_cmpeq_epi8(a.m, _mm_setzero_si128())) == 0;
}
static inline uint32_t simd_i8x16_bitmask(simd_v128 a) { return (uint32_t)_mm_movemask_epi8(a.m); }
static inline uint32_t simd_i16x8_bitmask(simd_v128 a) {
    return (uint32_t)_mm_movemask_epi8(_mm_packs_epi16(a.m, _mm_setzero_si128()));
}
static inline uint32_t simd_i32x4_bitmask(simd_v128 a) { return (uint32_t)_mm_movemask_ps(a.mf); }
#else
#define SIMD_SAME(name) static inline simd_v128 name(simd_v128 a, simd_v128 b) { return name##_c(a, b); }
#define SIMD_SAME1(name) static inline simd_v128 name(simd_v128 a) { return name##_c(a); }
#define SIMD_SAMES(name) static inline simd_v128 name(simd_v128 a, uint32_t n) { return name##_c(a, n); }
#define SIMD_SAMET(name) static inline uint32_t name(simd_v128 a) { return name##_c(a); }
SIMD_SAME(simd_i8x16_add) SIMD_SAME(simd_i8x16_sub) SIMD_SAME(simd_i16x8_add) SIMD_SAME(simd_i16x8_sub)
SIMD_SAME(simd_i16x8_mul) SIMD_SAME(simd_i32x4_add) SIMD_SAME(simd_i32x4_sub) SIMD_SAME(simd_i64x2_add)
SIMD_SAME(simd_i64x2_sub) SIMD_SAME(simd_i32x4_mul)
SIMD_SAME(simd_i8x16_add_sat_s) SIMD_SAME(simd_i8x16_add_sat_u) SIMD_SAME(simd_i8x16_sub_sat_s)
SIMD_SAME(simd_i8x16_sub_sat_u) SIMD_SAME(simd_i16x8_add_sat_s) SIMD_SAME(simd_i16x8_add_sat_u)
SIMD_SAME(simd_i16x8_sub_sat_s) SIMD_SAME(simd_i16x8_sub_sat_u)
SIMD_SAME(simd_i8x16_min_u) SIMD_SAME(simd_i8x16_max_u) SIMD_SAME(simd_i16x8_min_s) SIMD_SAME(simd_i16x8_max_s)
SIMD_SAME(simd_i8x16_avgr_u) SIMD_SAME(simd_i16x8_avgr_u) SIMD_SAME(simd_i32x4_dot_i16x8_s)
SIMD_SAME(simd_i8x16_eq) SIMD_SAME(simd_i16x8_eq) SIMD_SAME(simd_i32x4_eq)
SIMD_SAME(simd_i8x16_gt_s) SIMD_SAME(simd_i16x8_gt_s) SIMD_SAME(simd_i32x4_gt_s)
SIMD_SAME(simd_f32x4_eq) SIMD_SAME(simd_f32x4_ne) SIMD_SAME(simd_f32x4_lt) SIMD_SAME(simd_f32x4_gt)
SIMD_SAME(simd_f32x4_le) SIMD_SAME(simd_f32x4_ge)
SIMD_SAME(simd_f64x2_eq) SIMD_SAME(simd_f64x2_ne) SIMD_SAME(simd_f64x2_lt) SIMD_SAME(simd_f64x2_gt)
SIMD_SAME(simd_f64x2_le) SIMD_SAME(simd_f64x2_ge)
SIMD_SAME(simd_v128_and) SIMD_SAME(simd_v128_or) SIMD_SAME(simd_v128_xor) SIMD_SAME(simd_v128_andnot)
SIMD_SAME(simd_f32x4_add) SIMD_SAME(simd_f32x4_sub) SIMD_SAME(simd_f32x4_mul) SIMD_SAME(simd_f32x4_div)
SIMD_SAME(simd_f64x2_add) SIMD_SAME(simd_f64x2_sub) SIMD_SAME(simd_f64x2_mul) SIMD_SAME(simd_f64x2_div)
SIMD_SAME(simd_f32x4_pmin) SIMD_SAME(simd_f32x4_pmax) SIMD_SAME(simd_f64x2_pmin) SIMD_SAME(simd_f64x2_pmax)
SIMD_SAME(simd_i8x16_narrow_i16x8_s) SIMD_SAME(simd_i8x16_narrow_i16x8_u) SIMD_SAME(simd_i16x8_narrow_i32x4_s)
static inline simd_v128 simd_bitselect(simd_v128 a, simd_v128 b, simd_v128 m) { return simd_bitselect_c(a, b, m); }
SIMD_SAME1(simd_f32x4_sqrt) SIMD_SAME1(simd_f64x2_sqrt) SIMD_SAME1(simd_f32x4_convert_i32x4_s)
SIMD_SAME1(simd_i16x8_extend_low_i8x16_u) SIMD_SAME1(simd_i16x8_extend_high_i8x16_u)
SIMD_SAME1(simd_i32x4_extend_low_i16x8_u) SIMD_SAME1(simd_i32x4_extend_high_i16x8_u)
SIMD_SAMES(simd_i16x8_shl) SIMD_SAMES(simd_i16x8_shr_s) SIMD_SAMES(simd_i16x8_shr_u)
SIMD_SAMES(simd_i32x4_shl) SIMD_SAMES(simd_i32x4_shr_s) SIMD_SAMES(simd_i32x4_shr_u)
SIMD_SAMES(simd_i64x2_shl) SIMD_SAMES(simd_i64x2_shr_u)
SIMD_SAMET(simd_any_true) SIMD_SAMET(simd_i8x16_all_true) SIMD_SAMET(simd_i8x16_bitmask)
SIMD_SAMET(simd_i16x8_bitmask) SIMD_SAMET(simd_i32x4_bitmask)
#endif

/* swizzle: SSSE3's pshufb when the CPU has it (checked at run time: it is
   not part of the x86-64 baseline); pshufb zeroes a lane whose index has
   bit 7 set, so indices 16..127 are saturated up to 0x80 first. */
#if WEFT_SIMD_SSE2 && (defined(__GNUC__) || defined(__clang__))
#include <tmmintrin.h>
/* libgcc / compiler-rt answer from a table filled once at startup; read
   where used (one load), so the loop keeps no register for it. */
#define simd_ssse3() __builtin_cpu_supports("ssse3")
__attribute__((target("ssse3"))) static inline simd_v128 simd_swizzle_ssse3(simd_v128 a, simd_v128 s) {
    __m128i idx = _mm_adds_epu8(s.m, _mm_set1_epi8(0x70));
    return simd_m(_mm_shuffle_epi8(a.m, idx));
}
static inline simd_v128 simd_swizzle(simd_v128 a, simd_v128 s, int ssse3) {
    return ssse3 ? simd_swizzle_ssse3(a, s) : simd_swizzle_c(a, s);
}
/* pshufb written as an instruction, so that it inlines into the loop
   (a target("ssse3") function would not): used only after the run-time
   check, so the assembler, not the compiler's -m flags, decides. */
static inline __m128i simd_pshufb(__m128i a, __m128i m) {
    __asm__("pshufb %1, %0" : "+x"(a) : "x"(m)); /* register operand: SSE memory operands must be aligned */
    return a;
}
static inline __m128i simd_mask(const uint8_t *m) { return _mm_loadu_si128((const __m128i *)(const void *)m); }
static inline simd_v128 simd_shuffle1(simd_v128 a, const uint8_t *m, int ssse3) {
    return ssse3 ? simd_m(simd_pshufb(a.m, simd_mask(m))) : simd_shuffle1_c(a, m);
}
static inline simd_v128 simd_shuffle(simd_v128 a, simd_v128 b, const uint8_t *ma, const uint8_t *mb, int ssse3) {
    if (!ssse3) return simd_shuffle_c(a, b, ma, mb);
    return simd_m(_mm_or_si128(simd_pshufb(a.m, simd_mask(ma)), simd_pshufb(b.m, simd_mask(mb))));
}
#else
#define simd_ssse3() 0
static inline simd_v128 simd_swizzle(simd_v128 a, simd_v128 s, int ssse3) {
    (void)ssse3;
    return simd_swizzle_c(a, s);
}
static inline simd_v128 simd_shuffle1(simd_v128 a, const uint8_t *m, int ssse3) {
    (void)ssse3;
    return simd_shuffle1_c(a, m);
}
static inline simd_v128 simd_shuffle(simd_v128 a, simd_v128 b, const uint8_t *ma, const uint8_t *mb, int ssse3) {
    (void)ssse3;
    return simd_shuffle_c(a, b, ma, mb);
}
#endif

/* ---- Relaxed SIMD (Wasm 3.0) ----
   The relaxed operators let an engine pick among several results; weft
   computes one, the same on every machine and build (docs/simd.md has the
   table): the operations with a non-relaxed twin are that twin
   (interp_simd.h), and the three below are portable C on every path, so
   the SSE2 and portable builds agree bit for bit. */

/* madd is fused: fma(a, b, c), one rounding (the C library's fma and fmaf
   round correctly, with or without an FMA unit); nmadd is fma(-a, b, c). */
SIMD_TERN_LANES(simd_f32x4_relaxed_madd, f32, 4, fmaf(a.f32[i], b.f32[i], c.f32[i]))
SIMD_TERN_LANES(simd_f32x4_relaxed_nmadd, f32, 4, fmaf(-a.f32[i], b.f32[i], c.f32[i]))
SIMD_TERN_LANES(simd_f64x2_relaxed_madd, f64, 2, fma(a.f64[i], b.f64[i], c.f64[i]))
SIMD_TERN_LANES(simd_f64x2_relaxed_nmadd, f64, 2, fma(-a.f64[i], b.f64[i], c.f64[i]))

/* dot: both operands' lanes signed (a lane of b above 127 is negative),
   each pair of products summed with signed saturation to 16 bits (only
   -128 * -128 twice reaches it); dot_add widens those sums pairwise to 32
   bits and adds c's lanes, wrapping. */
SIMD_LANES2(simd_i16x8_relaxed_dot_i8x16_i7x16_s, i16, 8,
            (int16_t)simd_sat_s((int32_t)a.i8[2 * i] * b.i8[2 * i] + (int32_t)a.i8[2 * i + 1] * b.i8[2 * i + 1],
                                INT16_MIN, INT16_MAX))
static inline simd_v128 simd_i32x4_relaxed_dot_i8x16_i7x16_add_s(simd_v128 a, simd_v128 b, simd_v128 c) {
    simd_v128 d = simd_i16x8_relaxed_dot_i8x16_i7x16_s(a, b), r;
    for (int i = 0; i < 4; i++) r.u32[i] = (uint32_t)((int32_t)d.i16[2 * i] + d.i16[2 * i + 1]) + c.u32[i];
    return r;
}

#endif
