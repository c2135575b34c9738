/*
 * interp_simd.h — the bodies of the SIMD operations (ops.h CMP_SIMD_OPS),
 * included by exec_run in interp.c inside its one dispatch loop: they are
 * OP() bodies like the others, with the same registers and macros. Lane
 * arithmetic is in simd.h. A v128 operand is the first of two slots; the
 * sources are read before the result is written, so a result may replace
 * an operand (local.set retargeting does that).
 *
 * Memory: bounds as for scalar loads (CHECK_MEM); lanes are little-endian,
 * like the host (x86-64, aarch64, riscv64 all are).
 */
#define VS(i) (fp + ip[i])
#define VGET(i) simd_ld(VS(i))
#define VPUT(i, v) simd_st(VS(i), (v))
#define SIMD_UN(name, fn) OP(name) { VPUT(1, fn(VGET(2))); ip += 3; NEXT(); }
#define SIMD_BIN(name, fn) OP(name) { VPUT(1, fn(VGET(2), VGET(3))); ip += 4; NEXT(); }
#define SIMD_TERN(name, fn) OP(name) { VPUT(1, fn(VGET(2), VGET(3), VGET(4))); ip += 5; NEXT(); }
#define SIMD_TEST(name, fn) OP(name) { fp[ip[1]] = fn(VGET(2)); ip += 3; NEXT(); }
#define SIMD_SHIFT_OP(name, fn) OP(name) { VPUT(1, fn(VGET(2), U32(3))); ip += 4; NEXT(); }

    /* ---- v128 moves (the compiler's copies, select and globals) ---- */
    OP(COPY128) { memmove(VS(1), VS(2), 16); ip += 3; NEXT(); }
    OP(SELECT128) {
        simd_v128 v = U32(2) ? VGET(3) : VGET(4);
        VPUT(1, v);
        ip += 5;
        NEXT();
    }
    OP(GLOBAL_GET128) {
        weft_global *g = inst->globals[ip[2]];
        uint64_t lo = g->value, hi = g->value_hi;
        fp[ip[1]] = lo;
        fp[ip[1] + 1] = hi;
        ip += 3;
        NEXT();
    }
    OP(GLOBAL_SET128) {
        weft_global *g = inst->globals[ip[1]];
        g->value = fp[ip[2]];
        g->value_hi = fp[ip[2] + 1];
        ip += 3;
        NEXT();
    }
    OP(V128_CONST) { memcpy(VS(1), ip + 2, 16); ip += 6; NEXT(); }

    /* ---- loads and stores (§4.4.7 v128.load*, v128.store*) ---- */
#define SIMD_LOAD(name, n, body)                                                     \
    OP(name) {                                                                       \
        uint64_t ea = (uint64_t)U32(2) + ip[3];                                      \
        CHECK_MEM(ea, n);                                                            \
        const uint8_t *p = mem + ea;                                                 \
        simd_v128 r;                                                                 \
        body;                                                                        \
        VPUT(1, r);                                                                  \
        ip += 4;                                                                     \
        NEXT();                                                                      \
    }
#define SIMD_LOAD_EXT(name, RF, T, N)                                                \
    SIMD_LOAD(name, 8, {                                                             \
        T lanes[N];                                                                  \
        memcpy(lanes, p, 8);                                                         \
        for (int i = 0; i < N; i++) r.RF[i] = lanes[i];                              \
    })
#define SIMD_LOAD_SPLAT(name, F, T, N)                                               \
    SIMD_LOAD(name, sizeof(T), {                                                     \
        T x;                                                                         \
        memcpy(&x, p, sizeof x);                                                     \
        for (int i = 0; i < N; i++) r.F[i] = x;                                      \
    })
    SIMD_LOAD(V128_LOAD, 16, r = simd_ld(p))
    SIMD_LOAD_EXT(V128_LOAD8X8_S, i16, int8_t, 8)
    SIMD_LOAD_EXT(V128_LOAD8X8_U, u16, uint8_t, 8)
    SIMD_LOAD_EXT(V128_LOAD16X4_S, i32, int16_t, 4)
    SIMD_LOAD_EXT(V128_LOAD16X4_U, u32, uint16_t, 4)
    SIMD_LOAD_EXT(V128_LOAD32X2_S, i64, int32_t, 2)
    SIMD_LOAD_EXT(V128_LOAD32X2_U, u64, uint32_t, 2)
    SIMD_LOAD_SPLAT(V128_LOAD8_SPLAT, u8, uint8_t, 16)
    SIMD_LOAD_SPLAT(V128_LOAD16_SPLAT, u16, uint16_t, 8)
    SIMD_LOAD_SPLAT(V128_LOAD32_SPLAT, u32, uint32_t, 4)
    SIMD_LOAD_SPLAT(V128_LOAD64_SPLAT, u64, uint64_t, 2)
    SIMD_LOAD(V128_LOAD32_ZERO, 4, { memset(&r, 0, 16); memcpy(&r, p, 4); })
    SIMD_LOAD(V128_LOAD64_ZERO, 8, { memset(&r, 0, 16); memcpy(&r, p, 8); })
    /* Fused: the address added by the operation itself (i32 wrap, then the
       offset), and lane-wise operations with a loaded second operand. */
    OP(V128_LOAD_ADDI) {
        uint64_t ea = (uint64_t)(uint32_t)(U32(2) + ip[3]) + ip[4];
        CHECK_MEM(ea, 16);
        memcpy(VS(1), mem + ea, 16);
        ip += 5;
        NEXT();
    }
    OP(V128_LOAD_ADD) {
        uint64_t ea = (uint64_t)(uint32_t)(U32(2) + U32(3)) + ip[4];
        CHECK_MEM(ea, 16);
        memcpy(VS(1), mem + ea, 16);
        ip += 5;
        NEXT();
    }
#define SIMD_BIN_LD(name, fn)                                                        \
    OP(name) {                                                                       \
        uint64_t ea = (uint64_t)U32(3) + ip[4];                                      \
        CHECK_MEM(ea, 16);                                                           \
        VPUT(1, fn(VGET(2), simd_ld(mem + ea)));                                     \
        ip += 5;                                                                     \
        NEXT();                                                                      \
    }
    SIMD_BIN_LD(F32X4_ADD_LD, simd_f32x4_add)
    SIMD_BIN_LD(F32X4_SUB_LD, simd_f32x4_sub)
    SIMD_BIN_LD(F32X4_MUL_LD, simd_f32x4_mul)
    SIMD_BIN_LD(F64X2_ADD_LD, simd_f64x2_add)
    SIMD_BIN_LD(F64X2_SUB_LD, simd_f64x2_sub)
    SIMD_BIN_LD(F64X2_MUL_LD, simd_f64x2_mul)
    SIMD_BIN_LD(I32X4_ADD_LD, simd_i32x4_add)
    SIMD_BIN_LD(I16X8_ADD_LD, simd_i16x8_add)
    SIMD_BIN_LD(I8X16_ADD_LD, simd_i8x16_add)
#undef SIMD_BIN_LD
#define SIMD_MUL_ADD_LD(name, mul, add)                                              \
    OP(name) {                                                                       \
        uint64_t ex = (uint64_t)U32(3) + ip[4], ey = (uint64_t)U32(5) + ip[6];       \
        CHECK_MEM(ex, 16);                                                           \
        CHECK_MEM(ey, 16);                                                           \
        VPUT(1, add(mul(VGET(2), simd_ld(mem + ex)), simd_ld(mem + ey)));            \
        ip += 7;                                                                     \
        NEXT();                                                                      \
    }
    SIMD_MUL_ADD_LD(F32X4_MUL_ADD_LD, simd_f32x4_mul, simd_f32x4_add)
    SIMD_MUL_ADD_LD(F64X2_MUL_ADD_LD, simd_f64x2_mul, simd_f64x2_add)
#undef SIMD_MUL_ADD_LD
    OP(V128_STORE) {
        uint64_t ea = (uint64_t)U32(1) + ip[3];
        CHECK_MEM(ea, 16);
        memcpy(mem + ea, VS(2), 16);
        ip += 4;
        NEXT();
    }
    /* load_lane: dst, address, vector, offset, lane; store_lane: address,
       vector, offset, lane. */
#define SIMD_LOAD_LANE(name, n)                                                      \
    OP(name) {                                                                       \
        uint64_t ea = (uint64_t)U32(2) + ip[4];                                      \
        CHECK_MEM(ea, n);                                                            \
        simd_v128 r = VGET(3);                                                       \
        memcpy(r.u8 + ip[5] * (n), mem + ea, n);                                     \
        VPUT(1, r);                                                                  \
        ip += 6;                                                                     \
        NEXT();                                                                      \
    }
#define SIMD_STORE_LANE(name, n)                                                     \
    OP(name) {                                                                       \
        uint64_t ea = (uint64_t)U32(1) + ip[3];                                      \
        CHECK_MEM(ea, n);                                                            \
        memcpy(mem + ea, (const uint8_t *)VS(2) + ip[4] * (n), n);                   \
        ip += 5;                                                                     \
        NEXT();                                                                      \
    }
    SIMD_LOAD_LANE(V128_LOAD8_LANE, 1)
    SIMD_LOAD_LANE(V128_LOAD16_LANE, 2)
    SIMD_LOAD_LANE(V128_LOAD32_LANE, 4)
    SIMD_LOAD_LANE(V128_LOAD64_LANE, 8)
    SIMD_STORE_LANE(V128_STORE8_LANE, 1)
    SIMD_STORE_LANE(V128_STORE16_LANE, 2)
    SIMD_STORE_LANE(V128_STORE32_LANE, 4)
    SIMD_STORE_LANE(V128_STORE64_LANE, 8)

    /* ---- lanes: splat, extract, replace, shuffle, swizzle ---- */
#define SIMD_SPLAT(name, F, N, T)                                                    \
    OP(name) {                                                                       \
        simd_v128 r;                                                                 \
        T x = (T)fp[ip[2]];                                                          \
        for (int i = 0; i < N; i++) r.F[i] = x;                                      \
        VPUT(1, r);                                                                  \
        ip += 3;                                                                     \
        NEXT();                                                                      \
    }
    SIMD_SPLAT(I8X16_SPLAT, u8, 16, uint8_t)
    SIMD_SPLAT(I16X8_SPLAT, u16, 8, uint16_t)
    SIMD_SPLAT(I32X4_SPLAT, u32, 4, uint32_t)
    SIMD_SPLAT(I64X2_SPLAT, u64, 2, uint64_t)
    SIMD_SPLAT(F32X4_SPLAT, u32, 4, uint32_t)
    SIMD_SPLAT(F64X2_SPLAT, u64, 2, uint64_t)
    /* extract: the slot form of the scalar (i32/f32 zero-extended). */
#define SIMD_EXTRACT(name, expr)                                                     \
    OP(name) {                                                                       \
        simd_v128 a = VGET(2);                                                       \
        uint32_t l = ip[3];                                                          \
        fp[ip[1]] = (expr);                                                          \
        ip += 4;                                                                     \
        NEXT();                                                                      \
    }
    SIMD_EXTRACT(I8X16_EXTRACT_LANE_S, (uint32_t)(int32_t)a.i8[l])
    SIMD_EXTRACT(I8X16_EXTRACT_LANE_U, a.u8[l])
    SIMD_EXTRACT(I16X8_EXTRACT_LANE_S, (uint32_t)(int32_t)a.i16[l])
    SIMD_EXTRACT(I16X8_EXTRACT_LANE_U, a.u16[l])
    SIMD_EXTRACT(I32X4_EXTRACT_LANE, a.u32[l])
    SIMD_EXTRACT(I64X2_EXTRACT_LANE, a.u64[l])
    SIMD_EXTRACT(F32X4_EXTRACT_LANE, a.u32[l])
    SIMD_EXTRACT(F64X2_EXTRACT_LANE, a.u64[l])
#define SIMD_REPLACE(name, F, T)                                                     \
    OP(name) {                                                                       \
        simd_v128 a = VGET(2);                                                       \
        a.F[ip[4]] = (T)fp[ip[3]];                                                   \
        VPUT(1, a);                                                                  \
        ip += 5;                                                                     \
        NEXT();                                                                      \
    }
    SIMD_REPLACE(I8X16_REPLACE_LANE, u8, uint8_t)
    SIMD_REPLACE(I16X8_REPLACE_LANE, u16, uint16_t)
    SIMD_REPLACE(I32X4_REPLACE_LANE, u32, uint32_t)
    SIMD_REPLACE(I64X2_REPLACE_LANE, u64, uint64_t)
    SIMD_REPLACE(F32X4_REPLACE_LANE, u32, uint32_t)
    SIMD_REPLACE(F64X2_REPLACE_LANE, u64, uint64_t)
    /* Byte masks in the code (simd.c): a's at ip + 4, b's at ip + 8. */
    OP(I8X16_SHUFFLE) {
        VPUT(1, simd_shuffle(VGET(2), VGET(3), (const uint8_t *)(ip + 4), (const uint8_t *)(ip + 8),
                             simd_ssse3()));
        ip += 12;
        NEXT();
    }
    OP(I8X16_SHUFFLE1) {
        VPUT(1, simd_shuffle1(VGET(2), (const uint8_t *)(ip + 3), simd_ssse3()));
        ip += 7;
        NEXT();
    }
    OP(I8X16_SWIZZLE) { VPUT(1, simd_swizzle(VGET(2), VGET(3), simd_ssse3())); ip += 4; NEXT(); }

    /* ---- lane-wise arithmetic, comparisons, tests, conversions ---- */
    SIMD_BIN(I8X16_EQ, simd_i8x16_eq)
    SIMD_BIN(I8X16_NE, simd_i8x16_ne)
    SIMD_BIN(I8X16_LT_S, simd_i8x16_lt_s)
    SIMD_BIN(I8X16_LT_U, simd_i8x16_lt_u)
    SIMD_BIN(I8X16_GT_S, simd_i8x16_gt_s)
    SIMD_BIN(I8X16_GT_U, simd_i8x16_gt_u)
    SIMD_BIN(I8X16_LE_S, simd_i8x16_le_s)
    SIMD_BIN(I8X16_LE_U, simd_i8x16_le_u)
    SIMD_BIN(I8X16_GE_S, simd_i8x16_ge_s)
    SIMD_BIN(I8X16_GE_U, simd_i8x16_ge_u)
    SIMD_BIN(I16X8_EQ, simd_i16x8_eq)
    SIMD_BIN(I16X8_NE, simd_i16x8_ne)
    SIMD_BIN(I16X8_LT_S, simd_i16x8_lt_s)
    SIMD_BIN(I16X8_LT_U, simd_i16x8_lt_u)
    SIMD_BIN(I16X8_GT_S, simd_i16x8_gt_s)
    SIMD_BIN(I16X8_GT_U, simd_i16x8_gt_u)
    SIMD_BIN(I16X8_LE_S, simd_i16x8_le_s)
    SIMD_BIN(I16X8_LE_U, simd_i16x8_le_u)
    SIMD_BIN(I16X8_GE_S, simd_i16x8_ge_s)
    SIMD_BIN(I16X8_GE_U, simd_i16x8_ge_u)
    SIMD_BIN(I32X4_EQ, simd_i32x4_eq)
    SIMD_BIN(I32X4_NE, simd_i32x4_ne)
    SIMD_BIN(I32X4_LT_S, simd_i32x4_lt_s)
    SIMD_BIN(I32X4_LT_U, simd_i32x4_lt_u)
    SIMD_BIN(I32X4_GT_S, simd_i32x4_gt_s)
    SIMD_BIN(I32X4_GT_U, simd_i32x4_gt_u)
    SIMD_BIN(I32X4_LE_S, simd_i32x4_le_s)
    SIMD_BIN(I32X4_LE_U, simd_i32x4_le_u)
    SIMD_BIN(I32X4_GE_S, simd_i32x4_ge_s)
    SIMD_BIN(I32X4_GE_U, simd_i32x4_ge_u)
    SIMD_BIN(F32X4_EQ, simd_f32x4_eq)
    SIMD_BIN(F32X4_NE, simd_f32x4_ne)
    SIMD_BIN(F32X4_LT, simd_f32x4_lt)
    SIMD_BIN(F32X4_GT, simd_f32x4_gt)
    SIMD_BIN(F32X4_LE, simd_f32x4_le)
    SIMD_BIN(F32X4_GE, simd_f32x4_ge)
    SIMD_BIN(F64X2_EQ, simd_f64x2_eq)
    SIMD_BIN(F64X2_NE, simd_f64x2_ne)
    SIMD_BIN(F64X2_LT, simd_f64x2_lt)
    SIMD_BIN(F64X2_GT, simd_f64x2_gt)
    SIMD_BIN(F64X2_LE, simd_f64x2_le)
    SIMD_BIN(F64X2_GE, simd_f64x2_ge)
    SIMD_UN(V128_NOT, simd_v128_not)
    SIMD_BIN(V128_AND, simd_v128_and)
    SIMD_BIN(V128_ANDNOT, simd_v128_andnot)
    SIMD_BIN(V128_OR, simd_v128_or)
    SIMD_BIN(V128_XOR, simd_v128_xor)
    SIMD_TERN(V128_BITSELECT, simd_bitselect)
    SIMD_TEST(V128_ANY_TRUE, simd_any_true)
    SIMD_UN(F32X4_DEMOTE_F64X2_ZERO, simd_f32x4_demote_f64x2_zero)
    SIMD_UN(F64X2_PROMOTE_LOW_F32X4, simd_f64x2_promote_low_f32x4)
    SIMD_UN(I8X16_ABS, simd_i8x16_abs)
    SIMD_UN(I8X16_NEG, simd_i8x16_neg)
    SIMD_UN(I8X16_POPCNT, simd_i8x16_popcnt)
    SIMD_TEST(I8X16_ALL_TRUE, simd_i8x16_all_true)
    SIMD_TEST(I8X16_BITMASK, simd_i8x16_bitmask)
    SIMD_BIN(I8X16_NARROW_I16X8_S, simd_i8x16_narrow_i16x8_s)
    SIMD_BIN(I8X16_NARROW_I16X8_U, simd_i8x16_narrow_i16x8_u)
    SIMD_UN(F32X4_CEIL, simd_f32x4_ceil)
    SIMD_UN(F32X4_FLOOR, simd_f32x4_floor)
    SIMD_UN(F32X4_TRUNC, simd_f32x4_trunc)
    SIMD_UN(F32X4_NEAREST, simd_f32x4_nearest)
    SIMD_SHIFT_OP(I8X16_SHL, simd_i8x16_shl)
    SIMD_SHIFT_OP(I8X16_SHR_S, simd_i8x16_shr_s)
    SIMD_SHIFT_OP(I8X16_SHR_U, simd_i8x16_shr_u)
    SIMD_BIN(I8X16_ADD, simd_i8x16_add)
    SIMD_BIN(I8X16_ADD_SAT_S, simd_i8x16_add_sat_s)
    SIMD_BIN(I8X16_ADD_SAT_U, simd_i8x16_add_sat_u)
    SIMD_BIN(I8X16_SUB, simd_i8x16_sub)
    SIMD_BIN(I8X16_SUB_SAT_S, simd_i8x16_sub_sat_s)
    SIMD_BIN(I8X16_SUB_SAT_U, simd_i8x16_sub_sat_u)
    SIMD_UN(F64X2_CEIL, simd_f64x2_ceil)
    SIMD_UN(F64X2_FLOOR, simd_f64x2_floor)
    SIMD_BIN(I8X16_MIN_S, simd_i8x16_min_s)
    SIMD_BIN(I8X16_MIN_U, simd_i8x16_min_u)
    SIMD_BIN(I8X16_MAX_S, simd_i8x16_max_s)
    SIMD_BIN(I8X16_MAX_U, simd_i8x16_max_u)
    SIMD_UN(F64X2_TRUNC, simd_f64x2_trunc)
    SIMD_BIN(I8X16_AVGR_U, simd_i8x16_avgr_u)
    SIMD_UN(I16X8_EXTADD_PAIRWISE_I8X16_S, simd_i16x8_extadd_pairwise_i8x16_s)
    SIMD_UN(I16X8_EXTADD_PAIRWISE_I8X16_U, simd_i16x8_extadd_pairwise_i8x16_u)
    SIMD_UN(I32X4_EXTADD_PAIRWISE_I16X8_S, simd_i32x4_extadd_pairwise_i16x8_s)
    SIMD_UN(I32X4_EXTADD_PAIRWISE_I16X8_U, simd_i32x4_extadd_pairwise_i16x8_u)
    SIMD_UN(I16X8_ABS, simd_i16x8_abs)
    SIMD_UN(I16X8_NEG, simd_i16x8_neg)
    SIMD_BIN(I16X8_Q15MULR_SAT_S, simd_i16x8_q15mulr_sat_s)
    SIMD_TEST(I16X8_ALL_TRUE, simd_i16x8_all_true)
    SIMD_TEST(I16X8_BITMASK, simd_i16x8_bitmask)
    SIMD_BIN(I16X8_NARROW_I32X4_S, simd_i16x8_narrow_i32x4_s)
    SIMD_BIN(I16X8_NARROW_I32X4_U, simd_i16x8_narrow_i32x4_u)
    SIMD_UN(I16X8_EXTEND_LOW_I8X16_S, simd_i16x8_extend_low_i8x16_s)
    SIMD_UN(I16X8_EXTEND_HIGH_I8X16_S, simd_i16x8_extend_high_i8x16_s)
    SIMD_UN(I16X8_EXTEND_LOW_I8X16_U, simd_i16x8_extend_low_i8x16_u)
    SIMD_UN(I16X8_EXTEND_HIGH_I8X16_U, simd_i16x8_extend_high_i8x16_u)
    SIMD_SHIFT_OP(I16X8_SHL, simd_i16x8_shl)
    SIMD_SHIFT_OP(I16X8_SHR_S, simd_i16x8_shr_s)
    SIMD_SHIFT_OP(I16X8_SHR_U, simd_i16x8_shr_u)
    SIMD_BIN(I16X8_ADD, simd_i16x8_add)
    SIMD_BIN(I16X8_ADD_SAT_S, simd_i16x8_add_sat_s)
    SIMD_BIN(I16X8_ADD_SAT_U, simd_i16x8_add_sat_u)
    SIMD_BIN(I16X8_SUB, simd_i16x8_sub)
    SIMD_BIN(I16X8_SUB_SAT_S, simd_i16x8_sub_sat_s)
    SIMD_BIN(I16X8_SUB_SAT_U, simd_i16x8_sub_sat_u)
    SIMD_UN(F64X2_NEAREST, simd_f64x2_nearest)
    SIMD_BIN(I16X8_MUL, simd_i16x8_mul)
    SIMD_BIN(I16X8_MIN_S, simd_i16x8_min_s)
    SIMD_BIN(I16X8_MIN_U, simd_i16x8_min_u)
    SIMD_BIN(I16X8_MAX_S, simd_i16x8_max_s)
    SIMD_BIN(I16X8_MAX_U, simd_i16x8_max_u)
    SIMD_BIN(I16X8_AVGR_U, simd_i16x8_avgr_u)
    SIMD_BIN(I16X8_EXTMUL_LOW_I8X16_S, simd_i16x8_extmul_low_i8x16_s)
    SIMD_BIN(I16X8_EXTMUL_HIGH_I8X16_S, simd_i16x8_extmul_high_i8x16_s)
    SIMD_BIN(I16X8_EXTMUL_LOW_I8X16_U, simd_i16x8_extmul_low_i8x16_u)
    SIMD_BIN(I16X8_EXTMUL_HIGH_I8X16_U, simd_i16x8_extmul_high_i8x16_u)
    SIMD_UN(I32X4_ABS, simd_i32x4_abs)
    SIMD_UN(I32X4_NEG, simd_i32x4_neg)
    SIMD_TEST(I32X4_ALL_TRUE, simd_i32x4_all_true)
    SIMD_TEST(I32X4_BITMASK, simd_i32x4_bitmask)
    SIMD_UN(I32X4_EXTEND_LOW_I16X8_S, simd_i32x4_extend_low_i16x8_s)
    SIMD_UN(I32X4_EXTEND_HIGH_I16X8_S, simd_i32x4_extend_high_i16x8_s)
    SIMD_UN(I32X4_EXTEND_LOW_I16X8_U, simd_i32x4_extend_low_i16x8_u)
    SIMD_UN(I32X4_EXTEND_HIGH_I16X8_U, simd_i32x4_extend_high_i16x8_u)
    SIMD_SHIFT_OP(I32X4_SHL, simd_i32x4_shl)
    SIMD_SHIFT_OP(I32X4_SHR_S, simd_i32x4_shr_s)
    SIMD_SHIFT_OP(I32X4_SHR_U, simd_i32x4_shr_u)
    SIMD_BIN(I32X4_ADD, simd_i32x4_add)
    SIMD_BIN(I32X4_SUB, simd_i32x4_sub)
    SIMD_BIN(I32X4_MUL, simd_i32x4_mul)
    SIMD_BIN(I32X4_MIN_S, simd_i32x4_min_s)
    SIMD_BIN(I32X4_MIN_U, simd_i32x4_min_u)
    SIMD_BIN(I32X4_MAX_S, simd_i32x4_max_s)
    SIMD_BIN(I32X4_MAX_U, simd_i32x4_max_u)
    SIMD_BIN(I32X4_DOT_I16X8_S, simd_i32x4_dot_i16x8_s)
    SIMD_BIN(I32X4_EXTMUL_LOW_I16X8_S, simd_i32x4_extmul_low_i16x8_s)
    SIMD_BIN(I32X4_EXTMUL_HIGH_I16X8_S, simd_i32x4_extmul_high_i16x8_s)
    SIMD_BIN(I32X4_EXTMUL_LOW_I16X8_U, simd_i32x4_extmul_low_i16x8_u)
    SIMD_BIN(I32X4_EXTMUL_HIGH_I16X8_U, simd_i32x4_extmul_high_i16x8_u)
    SIMD_UN(I64X2_ABS, simd_i64x2_abs)
    SIMD_UN(I64X2_NEG, simd_i64x2_neg)
    SIMD_TEST(I64X2_ALL_TRUE, simd_i64x2_all_true)
    SIMD_TEST(I64X2_BITMASK, simd_i64x2_bitmask)
    SIMD_UN(I64X2_EXTEND_LOW_I32X4_S, simd_i64x2_extend_low_i32x4_s)
    SIMD_UN(I64X2_EXTEND_HIGH_I32X4_S, simd_i64x2_extend_high_i32x4_s)
    SIMD_UN(I64X2_EXTEND_LOW_I32X4_U, simd_i64x2_extend_low_i32x4_u)
    SIMD_UN(I64X2_EXTEND_HIGH_I32X4_U, simd_i64x2_extend_high_i32x4_u)
    SIMD_SHIFT_OP(I64X2_SHL, simd_i64x2_shl)
    SIMD_SHIFT_OP(I64X2_SHR_S, simd_i64x2_shr_s)
    SIMD_SHIFT_OP(I64X2_SHR_U, simd_i64x2_shr_u)
    SIMD_BIN(I64X2_ADD, simd_i64x2_add)
    SIMD_BIN(I64X2_SUB, simd_i64x2_sub)
    SIMD_BIN(I64X2_MUL, simd_i64x2_mul)
    SIMD_BIN(I64X2_EQ, simd_i64x2_eq)
    SIMD_BIN(I64X2_NE, simd_i64x2_ne)
    SIMD_BIN(I64X2_LT_S, simd_i64x2_lt_s)
    SIMD_BIN(I64X2_GT_S, simd_i64x2_gt_s)
    SIMD_BIN(I64X2_LE_S, simd_i64x2_le_s)
    SIMD_BIN(I64X2_GE_S, simd_i64x2_ge_s)
    SIMD_BIN(I64X2_EXTMUL_LOW_I32X4_S, simd_i64x2_extmul_low_i32x4_s)
    SIMD_BIN(I64X2_EXTMUL_HIGH_I32X4_S, simd_i64x2_extmul_high_i32x4_s)
    SIMD_BIN(I64X2_EXTMUL_LOW_I32X4_U, simd_i64x2_extmul_low_i32x4_u)
    SIMD_BIN(I64X2_EXTMUL_HIGH_I32X4_U, simd_i64x2_extmul_high_i32x4_u)
    SIMD_UN(F32X4_ABS, simd_f32x4_abs)
    SIMD_UN(F32X4_NEG, simd_f32x4_neg)
    SIMD_UN(F32X4_SQRT, simd_f32x4_sqrt)
    SIMD_BIN(F32X4_ADD, simd_f32x4_add)
    SIMD_BIN(F32X4_SUB, simd_f32x4_sub)
    SIMD_BIN(F32X4_MUL, simd_f32x4_mul)
    SIMD_BIN(F32X4_DIV, simd_f32x4_div)
    SIMD_BIN(F32X4_MIN, simd_f32x4_min)
    SIMD_BIN(F32X4_MAX, simd_f32x4_max)
    SIMD_BIN(F32X4_PMIN, simd_f32x4_pmin)
    SIMD_BIN(F32X4_PMAX, simd_f32x4_pmax)
    SIMD_UN(F64X2_ABS, simd_f64x2_abs)
    SIMD_UN(F64X2_NEG, simd_f64x2_neg)
    SIMD_UN(F64X2_SQRT, simd_f64x2_sqrt)
    SIMD_BIN(F64X2_ADD, simd_f64x2_add)
    SIMD_BIN(F64X2_SUB, simd_f64x2_sub)
    SIMD_BIN(F64X2_MUL, simd_f64x2_mul)
    SIMD_BIN(F64X2_DIV, simd_f64x2_div)
    SIMD_BIN(F64X2_MIN, simd_f64x2_min)
    SIMD_BIN(F64X2_MAX, simd_f64x2_max)
    SIMD_BIN(F64X2_PMIN, simd_f64x2_pmin)
    SIMD_BIN(F64X2_PMAX, simd_f64x2_pmax)
    SIMD_UN(I32X4_TRUNC_SAT_F32X4_S, simd_i32x4_trunc_sat_f32x4_s)
    SIMD_UN(I32X4_TRUNC_SAT_F32X4_U, simd_i32x4_trunc_sat_f32x4_u)
    SIMD_UN(F32X4_CONVERT_I32X4_S, simd_f32x4_convert_i32x4_s)
    SIMD_UN(F32X4_CONVERT_I32X4_U, simd_f32x4_convert_i32x4_u)
    SIMD_UN(I32X4_TRUNC_SAT_F64X2_S_ZERO, simd_i32x4_trunc_sat_f64x2_s_zero)
    SIMD_UN(I32X4_TRUNC_SAT_F64X2_U_ZERO, simd_i32x4_trunc_sat_f64x2_u_zero)
    SIMD_UN(F64X2_CONVERT_LOW_I32X4_S, simd_f64x2_convert_low_i32x4_s)
    SIMD_UN(F64X2_CONVERT_LOW_I32X4_U, simd_f64x2_convert_low_i32x4_u)

#undef SIMD_UN
#undef SIMD_BIN
#undef SIMD_TERN
#undef SIMD_TEST
#undef SIMD_SHIFT_OP
#undef SIMD_LOAD
#undef SIMD_LOAD_EXT
#undef SIMD_LOAD_SPLAT
#undef SIMD_LOAD_LANE
#undef SIMD_STORE_LANE
#undef SIMD_SPLAT
#undef SIMD_EXTRACT
#undef SIMD_REPLACE
#undef VS
#undef VGET
#undef VPUT
