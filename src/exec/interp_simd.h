/*
 * interp_simd.h — the bodies of the SIMD operations (rows of class SIMD and
 * VEC in ops.h), included by exec_run in interp.c inside its one dispatch
 * loop: BODY_<name>(a_, b_) like the others, with the same registers and
 * macros; a_ and b_ are the scalar inputs (an address, a lane's scalar, a
 * shift count), v128 operands are read from their slots (VGET). Lane
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
#define SIMD_UN(fn) VPUT(1, fn(VGET(2)));
#define SIMD_BIN(fn) VPUT(1, fn(VGET(2), VGET(3)));
#define SIMD_TERN(fn) VPUT(1, fn(VGET(2), VGET(3), VGET(4)));
#define SIMD_TEST(fn) fp[ip[1]] = fn(VGET(2));
#define SIMD_SHIFT_BY(a_, fn) VPUT(1, fn(VGET(2), U32V(a_)));

    /* ---- v128 moves (the compiler's copies, select and globals) ---- */
#define BODY_COPY128(a_, b_) memmove(VS(1), VS(2), 16);
#define BODY_SELECT128(a_, b_)                                                       \
    {                                                                                \
        simd_v128 v = U32V(a_) ? VGET(3) : VGET(4);                                  \
        VPUT(1, v);                                                                  \
    }
#define BODY_GLOBAL_GET128(a_, b_)                                                   \
    {                                                                                \
        weft_global *g = inst->globals[ip[2]];                                       \
        uint64_t lo = g->value, hi = g->value_hi;                                    \
        fp[ip[1]] = lo;                                                              \
        fp[ip[1] + 1] = hi;                                                          \
    }
#define BODY_GLOBAL_SET128(a_, b_)                                                   \
    {                                                                                \
        weft_global *g = inst->globals[ip[1]];                                       \
        g->value = fp[ip[2]];                                                        \
        g->value_hi = fp[ip[2] + 1];                                                 \
    }
#define BODY_V128_CONST(a_, b_) memcpy(VS(1), ip + 2, 16);

    /* ---- loads and stores (§4.4.7 v128.load*, v128.store*) ---- */
#define SIMD_LOAD(a_, n, body)                                                       \
    {                                                                                \
        uint64_t ea = (uint64_t)U32V(a_) + ip[3];                                    \
        CHECK_MEM(ea, n);                                                            \
        const uint8_t *p = mem + ea;                                                 \
        simd_v128 r;                                                                 \
        body;                                                                        \
        VPUT(1, r);                                                                  \
    }
#define SIMD_LOAD_EXT(a_, RF, T, N)                                                  \
    SIMD_LOAD(a_, 8, {                                                               \
        T lanes[N];                                                                  \
        memcpy(lanes, p, 8);                                                         \
        for (int i = 0; i < N; i++) r.RF[i] = lanes[i];                              \
    })
#define SIMD_LOAD_SPLAT(a_, F, T, N)                                                 \
    SIMD_LOAD(a_, sizeof(T), {                                                       \
        T x;                                                                         \
        memcpy(&x, p, sizeof x);                                                     \
        for (int i = 0; i < N; i++) r.F[i] = x;                                      \
    })
#define BODY_V128_LOAD(a_, b_) SIMD_LOAD(a_, 16, r = simd_ld(p))
#define BODY_V128_LOAD8X8_S(a_, b_) SIMD_LOAD_EXT(a_, i16, int8_t, 8)
#define BODY_V128_LOAD8X8_U(a_, b_) SIMD_LOAD_EXT(a_, u16, uint8_t, 8)
#define BODY_V128_LOAD16X4_S(a_, b_) SIMD_LOAD_EXT(a_, i32, int16_t, 4)
#define BODY_V128_LOAD16X4_U(a_, b_) SIMD_LOAD_EXT(a_, u32, uint16_t, 4)
#define BODY_V128_LOAD32X2_S(a_, b_) SIMD_LOAD_EXT(a_, i64, int32_t, 2)
#define BODY_V128_LOAD32X2_U(a_, b_) SIMD_LOAD_EXT(a_, u64, uint32_t, 2)
#define BODY_V128_LOAD8_SPLAT(a_, b_) SIMD_LOAD_SPLAT(a_, u8, uint8_t, 16)
#define BODY_V128_LOAD16_SPLAT(a_, b_) SIMD_LOAD_SPLAT(a_, u16, uint16_t, 8)
#define BODY_V128_LOAD32_SPLAT(a_, b_) SIMD_LOAD_SPLAT(a_, u32, uint32_t, 4)
#define BODY_V128_LOAD64_SPLAT(a_, b_) SIMD_LOAD_SPLAT(a_, u64, uint64_t, 2)
#define BODY_V128_LOAD32_ZERO(a_, b_) SIMD_LOAD(a_, 4, { memset(&r, 0, 16); memcpy(&r, p, 4); })
#define BODY_V128_LOAD64_ZERO(a_, b_) SIMD_LOAD(a_, 8, { memset(&r, 0, 16); memcpy(&r, p, 8); })
    /* Fused: the address added by the operation itself (i32 wrap, then the
       offset), and lane-wise operations with a loaded second operand. */
#define BODY_V128_LOAD_ADDI(a_, b_)                                                  \
    {                                                                                \
        uint64_t ea = (uint64_t)(uint32_t)(U32V(a_) + ip[3]) + ip[4];                \
        CHECK_MEM(ea, 16);                                                           \
        memcpy(VS(1), mem + ea, 16);                                                 \
    }
#define BODY_V128_LOAD_ADD(a_, b_)                                                   \
    {                                                                                \
        uint64_t ea = (uint64_t)(uint32_t)(U32V(a_) + U32V(b_)) + ip[4];             \
        CHECK_MEM(ea, 16);                                                           \
        memcpy(VS(1), mem + ea, 16);                                                 \
    }
#define SIMD_BIN_LD(a_, fn)                                                          \
    {                                                                                \
        uint64_t ea = (uint64_t)U32V(a_) + ip[4];                                    \
        CHECK_MEM(ea, 16);                                                           \
        VPUT(1, fn(VGET(2), simd_ld(mem + ea)));                                     \
    }
#define BODY_F32X4_ADD_LD(a_, b_) SIMD_BIN_LD(a_, simd_f32x4_add)
#define BODY_F32X4_SUB_LD(a_, b_) SIMD_BIN_LD(a_, simd_f32x4_sub)
#define BODY_F32X4_MUL_LD(a_, b_) SIMD_BIN_LD(a_, simd_f32x4_mul)
#define BODY_F64X2_ADD_LD(a_, b_) SIMD_BIN_LD(a_, simd_f64x2_add)
#define BODY_F64X2_SUB_LD(a_, b_) SIMD_BIN_LD(a_, simd_f64x2_sub)
#define BODY_F64X2_MUL_LD(a_, b_) SIMD_BIN_LD(a_, simd_f64x2_mul)
#define BODY_I32X4_ADD_LD(a_, b_) SIMD_BIN_LD(a_, simd_i32x4_add)
#define BODY_I16X8_ADD_LD(a_, b_) SIMD_BIN_LD(a_, simd_i16x8_add)
#define BODY_I8X16_ADD_LD(a_, b_) SIMD_BIN_LD(a_, simd_i8x16_add)
#define SIMD_MUL_ADD_LD(a_, b_, mul, add)                                            \
    {                                                                                \
        uint64_t ex = (uint64_t)U32V(a_) + ip[4], ey = (uint64_t)U32V(b_) + ip[6];   \
        CHECK_MEM(ex, 16);                                                           \
        CHECK_MEM(ey, 16);                                                           \
        VPUT(1, add(mul(VGET(2), simd_ld(mem + ex)), simd_ld(mem + ey)));            \
    }
#define BODY_F32X4_MUL_ADD_LD(a_, b_) SIMD_MUL_ADD_LD(a_, b_, simd_f32x4_mul, simd_f32x4_add)
#define BODY_F64X2_MUL_ADD_LD(a_, b_) SIMD_MUL_ADD_LD(a_, b_, simd_f64x2_mul, simd_f64x2_add)
#define BODY_V128_STORE(a_, b_)                                                      \
    {                                                                                \
        uint64_t ea = (uint64_t)U32V(a_) + ip[3];                                    \
        CHECK_MEM(ea, 16);                                                           \
        memcpy(mem + ea, VS(2), 16);                                                 \
    }
    /* load_lane: dst, address, vector, offset, lane; store_lane: address,
       vector, offset, lane. */
#define SIMD_LOAD_LANE(a_, n)                                                        \
    {                                                                                \
        uint64_t ea = (uint64_t)U32V(a_) + ip[4];                                    \
        CHECK_MEM(ea, n);                                                            \
        simd_v128 r = VGET(3);                                                       \
        memcpy(r.u8 + ip[5] * (n), mem + ea, n);                                     \
        VPUT(1, r);                                                                  \
    }
#define SIMD_STORE_LANE(a_, n)                                                       \
    {                                                                                \
        uint64_t ea = (uint64_t)U32V(a_) + ip[3];                                    \
        CHECK_MEM(ea, n);                                                            \
        memcpy(mem + ea, (const uint8_t *)VS(2) + ip[4] * (n), n);                   \
    }
#define BODY_V128_LOAD8_LANE(a_, b_) SIMD_LOAD_LANE(a_, 1)
#define BODY_V128_LOAD16_LANE(a_, b_) SIMD_LOAD_LANE(a_, 2)
#define BODY_V128_LOAD32_LANE(a_, b_) SIMD_LOAD_LANE(a_, 4)
#define BODY_V128_LOAD64_LANE(a_, b_) SIMD_LOAD_LANE(a_, 8)
#define BODY_V128_STORE8_LANE(a_, b_) SIMD_STORE_LANE(a_, 1)
#define BODY_V128_STORE16_LANE(a_, b_) SIMD_STORE_LANE(a_, 2)
#define BODY_V128_STORE32_LANE(a_, b_) SIMD_STORE_LANE(a_, 4)
#define BODY_V128_STORE64_LANE(a_, b_) SIMD_STORE_LANE(a_, 8)

    /* ---- lanes: splat, extract, replace, shuffle, swizzle ---- */
#define SIMD_SPLAT(a_, F, N, T)                                                      \
    {                                                                                \
        simd_v128 r;                                                                 \
        T x = (T)(a_);                                                               \
        for (int i = 0; i < N; i++) r.F[i] = x;                                      \
        VPUT(1, r);                                                                  \
    }
#define BODY_I8X16_SPLAT(a_, b_) SIMD_SPLAT(a_, u8, 16, uint8_t)
#define BODY_I16X8_SPLAT(a_, b_) SIMD_SPLAT(a_, u16, 8, uint16_t)
#define BODY_I32X4_SPLAT(a_, b_) SIMD_SPLAT(a_, u32, 4, uint32_t)
#define BODY_I64X2_SPLAT(a_, b_) SIMD_SPLAT(a_, u64, 2, uint64_t)
#define BODY_F32X4_SPLAT(a_, b_) SIMD_SPLAT(a_, u32, 4, uint32_t)
#define BODY_F64X2_SPLAT(a_, b_) SIMD_SPLAT(a_, u64, 2, uint64_t)
    /* extract: the slot form of the scalar (i32/f32 zero-extended). */
#define SIMD_EXTRACT(expr)                                                           \
    {                                                                                \
        simd_v128 a = VGET(2);                                                       \
        uint32_t l = ip[3];                                                          \
        fp[ip[1]] = (expr);                                                          \
    }
#define BODY_I8X16_EXTRACT_LANE_S(a_, b_) SIMD_EXTRACT((uint32_t)(int32_t)a.i8[l])
#define BODY_I8X16_EXTRACT_LANE_U(a_, b_) SIMD_EXTRACT(a.u8[l])
#define BODY_I16X8_EXTRACT_LANE_S(a_, b_) SIMD_EXTRACT((uint32_t)(int32_t)a.i16[l])
#define BODY_I16X8_EXTRACT_LANE_U(a_, b_) SIMD_EXTRACT(a.u16[l])
#define BODY_I32X4_EXTRACT_LANE(a_, b_) SIMD_EXTRACT(a.u32[l])
#define BODY_I64X2_EXTRACT_LANE(a_, b_) SIMD_EXTRACT(a.u64[l])
#define BODY_F32X4_EXTRACT_LANE(a_, b_) SIMD_EXTRACT(a.u32[l])
#define BODY_F64X2_EXTRACT_LANE(a_, b_) SIMD_EXTRACT(a.u64[l])
#define SIMD_REPLACE(a_, F, T)                                                       \
    {                                                                                \
        simd_v128 a = VGET(2);                                                       \
        a.F[ip[4]] = (T)(a_);                                                        \
        VPUT(1, a);                                                                  \
    }
#define BODY_I8X16_REPLACE_LANE(a_, b_) SIMD_REPLACE(a_, u8, uint8_t)
#define BODY_I16X8_REPLACE_LANE(a_, b_) SIMD_REPLACE(a_, u16, uint16_t)
#define BODY_I32X4_REPLACE_LANE(a_, b_) SIMD_REPLACE(a_, u32, uint32_t)
#define BODY_I64X2_REPLACE_LANE(a_, b_) SIMD_REPLACE(a_, u64, uint64_t)
#define BODY_F32X4_REPLACE_LANE(a_, b_) SIMD_REPLACE(a_, u32, uint32_t)
#define BODY_F64X2_REPLACE_LANE(a_, b_) SIMD_REPLACE(a_, u64, uint64_t)
    /* Byte masks in the code (simd.c): a's at ip + 4, b's at ip + 8. */
#define BODY_I8X16_SHUFFLE(a_, b_)                                                   \
    {                                                                                \
        VPUT(1, simd_shuffle(VGET(2), VGET(3), (const uint8_t *)(ip + 4), (const uint8_t *)(ip + 8), \
                             simd_ssse3()));                                         \
    }
#define BODY_I8X16_SHUFFLE1(a_, b_) VPUT(1, simd_shuffle1(VGET(2), (const uint8_t *)(ip + 3), simd_ssse3()));
#define BODY_I8X16_SWIZZLE(a_, b_) VPUT(1, simd_swizzle(VGET(2), VGET(3), simd_ssse3()));

    /* ---- lane-wise arithmetic, comparisons, tests, conversions ---- */
#define BODY_I8X16_EQ(a_, b_) SIMD_BIN(simd_i8x16_eq)
#define BODY_I8X16_NE(a_, b_) SIMD_BIN(simd_i8x16_ne)
#define BODY_I8X16_LT_S(a_, b_) SIMD_BIN(simd_i8x16_lt_s)
#define BODY_I8X16_LT_U(a_, b_) SIMD_BIN(simd_i8x16_lt_u)
#define BODY_I8X16_GT_S(a_, b_) SIMD_BIN(simd_i8x16_gt_s)
#define BODY_I8X16_GT_U(a_, b_) SIMD_BIN(simd_i8x16_gt_u)
#define BODY_I8X16_LE_S(a_, b_) SIMD_BIN(simd_i8x16_le_s)
#define BODY_I8X16_LE_U(a_, b_) SIMD_BIN(simd_i8x16_le_u)
#define BODY_I8X16_GE_S(a_, b_) SIMD_BIN(simd_i8x16_ge_s)
#define BODY_I8X16_GE_U(a_, b_) SIMD_BIN(simd_i8x16_ge_u)
#define BODY_I16X8_EQ(a_, b_) SIMD_BIN(simd_i16x8_eq)
#define BODY_I16X8_NE(a_, b_) SIMD_BIN(simd_i16x8_ne)
#define BODY_I16X8_LT_S(a_, b_) SIMD_BIN(simd_i16x8_lt_s)
#define BODY_I16X8_LT_U(a_, b_) SIMD_BIN(simd_i16x8_lt_u)
#define BODY_I16X8_GT_S(a_, b_) SIMD_BIN(simd_i16x8_gt_s)
#define BODY_I16X8_GT_U(a_, b_) SIMD_BIN(simd_i16x8_gt_u)
#define BODY_I16X8_LE_S(a_, b_) SIMD_BIN(simd_i16x8_le_s)
#define BODY_I16X8_LE_U(a_, b_) SIMD_BIN(simd_i16x8_le_u)
#define BODY_I16X8_GE_S(a_, b_) SIMD_BIN(simd_i16x8_ge_s)
#define BODY_I16X8_GE_U(a_, b_) SIMD_BIN(simd_i16x8_ge_u)
#define BODY_I32X4_EQ(a_, b_) SIMD_BIN(simd_i32x4_eq)
#define BODY_I32X4_NE(a_, b_) SIMD_BIN(simd_i32x4_ne)
#define BODY_I32X4_LT_S(a_, b_) SIMD_BIN(simd_i32x4_lt_s)
#define BODY_I32X4_LT_U(a_, b_) SIMD_BIN(simd_i32x4_lt_u)
#define BODY_I32X4_GT_S(a_, b_) SIMD_BIN(simd_i32x4_gt_s)
#define BODY_I32X4_GT_U(a_, b_) SIMD_BIN(simd_i32x4_gt_u)
#define BODY_I32X4_LE_S(a_, b_) SIMD_BIN(simd_i32x4_le_s)
#define BODY_I32X4_LE_U(a_, b_) SIMD_BIN(simd_i32x4_le_u)
#define BODY_I32X4_GE_S(a_, b_) SIMD_BIN(simd_i32x4_ge_s)
#define BODY_I32X4_GE_U(a_, b_) SIMD_BIN(simd_i32x4_ge_u)
#define BODY_F32X4_EQ(a_, b_) SIMD_BIN(simd_f32x4_eq)
#define BODY_F32X4_NE(a_, b_) SIMD_BIN(simd_f32x4_ne)
#define BODY_F32X4_LT(a_, b_) SIMD_BIN(simd_f32x4_lt)
#define BODY_F32X4_GT(a_, b_) SIMD_BIN(simd_f32x4_gt)
#define BODY_F32X4_LE(a_, b_) SIMD_BIN(simd_f32x4_le)
#define BODY_F32X4_GE(a_, b_) SIMD_BIN(simd_f32x4_ge)
#define BODY_F64X2_EQ(a_, b_) SIMD_BIN(simd_f64x2_eq)
#define BODY_F64X2_NE(a_, b_) SIMD_BIN(simd_f64x2_ne)
#define BODY_F64X2_LT(a_, b_) SIMD_BIN(simd_f64x2_lt)
#define BODY_F64X2_GT(a_, b_) SIMD_BIN(simd_f64x2_gt)
#define BODY_F64X2_LE(a_, b_) SIMD_BIN(simd_f64x2_le)
#define BODY_F64X2_GE(a_, b_) SIMD_BIN(simd_f64x2_ge)
#define BODY_V128_NOT(a_, b_) SIMD_UN(simd_v128_not)
#define BODY_V128_AND(a_, b_) SIMD_BIN(simd_v128_and)
#define BODY_V128_ANDNOT(a_, b_) SIMD_BIN(simd_v128_andnot)
#define BODY_V128_OR(a_, b_) SIMD_BIN(simd_v128_or)
#define BODY_V128_XOR(a_, b_) SIMD_BIN(simd_v128_xor)
#define BODY_V128_BITSELECT(a_, b_) SIMD_TERN(simd_bitselect)
#define BODY_V128_ANY_TRUE(a_, b_) SIMD_TEST(simd_any_true)
#define BODY_F32X4_DEMOTE_F64X2_ZERO(a_, b_) SIMD_UN(simd_f32x4_demote_f64x2_zero)
#define BODY_F64X2_PROMOTE_LOW_F32X4(a_, b_) SIMD_UN(simd_f64x2_promote_low_f32x4)
#define BODY_I8X16_ABS(a_, b_) SIMD_UN(simd_i8x16_abs)
#define BODY_I8X16_NEG(a_, b_) SIMD_UN(simd_i8x16_neg)
#define BODY_I8X16_POPCNT(a_, b_) SIMD_UN(simd_i8x16_popcnt)
#define BODY_I8X16_ALL_TRUE(a_, b_) SIMD_TEST(simd_i8x16_all_true)
#define BODY_I8X16_BITMASK(a_, b_) SIMD_TEST(simd_i8x16_bitmask)
#define BODY_I8X16_NARROW_I16X8_S(a_, b_) SIMD_BIN(simd_i8x16_narrow_i16x8_s)
#define BODY_I8X16_NARROW_I16X8_U(a_, b_) SIMD_BIN(simd_i8x16_narrow_i16x8_u)
#define BODY_F32X4_CEIL(a_, b_) SIMD_UN(simd_f32x4_ceil)
#define BODY_F32X4_FLOOR(a_, b_) SIMD_UN(simd_f32x4_floor)
#define BODY_F32X4_TRUNC(a_, b_) SIMD_UN(simd_f32x4_trunc)
#define BODY_F32X4_NEAREST(a_, b_) SIMD_UN(simd_f32x4_nearest)
#define BODY_I8X16_SHL(a_, b_) SIMD_SHIFT_BY(a_, simd_i8x16_shl)
#define BODY_I8X16_SHR_S(a_, b_) SIMD_SHIFT_BY(a_, simd_i8x16_shr_s)
#define BODY_I8X16_SHR_U(a_, b_) SIMD_SHIFT_BY(a_, simd_i8x16_shr_u)
#define BODY_I8X16_ADD(a_, b_) SIMD_BIN(simd_i8x16_add)
#define BODY_I8X16_ADD_SAT_S(a_, b_) SIMD_BIN(simd_i8x16_add_sat_s)
#define BODY_I8X16_ADD_SAT_U(a_, b_) SIMD_BIN(simd_i8x16_add_sat_u)
#define BODY_I8X16_SUB(a_, b_) SIMD_BIN(simd_i8x16_sub)
#define BODY_I8X16_SUB_SAT_S(a_, b_) SIMD_BIN(simd_i8x16_sub_sat_s)
#define BODY_I8X16_SUB_SAT_U(a_, b_) SIMD_BIN(simd_i8x16_sub_sat_u)
#define BODY_F64X2_CEIL(a_, b_) SIMD_UN(simd_f64x2_ceil)
#define BODY_F64X2_FLOOR(a_, b_) SIMD_UN(simd_f64x2_floor)
#define BODY_I8X16_MIN_S(a_, b_) SIMD_BIN(simd_i8x16_min_s)
#define BODY_I8X16_MIN_U(a_, b_) SIMD_BIN(simd_i8x16_min_u)
#define BODY_I8X16_MAX_S(a_, b_) SIMD_BIN(simd_i8x16_max_s)
#define BODY_I8X16_MAX_U(a_, b_) SIMD_BIN(simd_i8x16_max_u)
#define BODY_F64X2_TRUNC(a_, b_) SIMD_UN(simd_f64x2_trunc)
#define BODY_I8X16_AVGR_U(a_, b_) SIMD_BIN(simd_i8x16_avgr_u)
#define BODY_I16X8_EXTADD_PAIRWISE_I8X16_S(a_, b_) SIMD_UN(simd_i16x8_extadd_pairwise_i8x16_s)
#define BODY_I16X8_EXTADD_PAIRWISE_I8X16_U(a_, b_) SIMD_UN(simd_i16x8_extadd_pairwise_i8x16_u)
#define BODY_I32X4_EXTADD_PAIRWISE_I16X8_S(a_, b_) SIMD_UN(simd_i32x4_extadd_pairwise_i16x8_s)
#define BODY_I32X4_EXTADD_PAIRWISE_I16X8_U(a_, b_) SIMD_UN(simd_i32x4_extadd_pairwise_i16x8_u)
#define BODY_I16X8_ABS(a_, b_) SIMD_UN(simd_i16x8_abs)
#define BODY_I16X8_NEG(a_, b_) SIMD_UN(simd_i16x8_neg)
#define BODY_I16X8_Q15MULR_SAT_S(a_, b_) SIMD_BIN(simd_i16x8_q15mulr_sat_s)
#define BODY_I16X8_ALL_TRUE(a_, b_) SIMD_TEST(simd_i16x8_all_true)
#define BODY_I16X8_BITMASK(a_, b_) SIMD_TEST(simd_i16x8_bitmask)
#define BODY_I16X8_NARROW_I32X4_S(a_, b_) SIMD_BIN(simd_i16x8_narrow_i32x4_s)
#define BODY_I16X8_NARROW_I32X4_U(a_, b_) SIMD_BIN(simd_i16x8_narrow_i32x4_u)
#define BODY_I16X8_EXTEND_LOW_I8X16_S(a_, b_) SIMD_UN(simd_i16x8_extend_low_i8x16_s)
#define BODY_I16X8_EXTEND_HIGH_I8X16_S(a_, b_) SIMD_UN(simd_i16x8_extend_high_i8x16_s)
#define BODY_I16X8_EXTEND_LOW_I8X16_U(a_, b_) SIMD_UN(simd_i16x8_extend_low_i8x16_u)
#define BODY_I16X8_EXTEND_HIGH_I8X16_U(a_, b_) SIMD_UN(simd_i16x8_extend_high_i8x16_u)
#define BODY_I16X8_SHL(a_, b_) SIMD_SHIFT_BY(a_, simd_i16x8_shl)
#define BODY_I16X8_SHR_S(a_, b_) SIMD_SHIFT_BY(a_, simd_i16x8_shr_s)
#define BODY_I16X8_SHR_U(a_, b_) SIMD_SHIFT_BY(a_, simd_i16x8_shr_u)
#define BODY_I16X8_ADD(a_, b_) SIMD_BIN(simd_i16x8_add)
#define BODY_I16X8_ADD_SAT_S(a_, b_) SIMD_BIN(simd_i16x8_add_sat_s)
#define BODY_I16X8_ADD_SAT_U(a_, b_) SIMD_BIN(simd_i16x8_add_sat_u)
#define BODY_I16X8_SUB(a_, b_) SIMD_BIN(simd_i16x8_sub)
#define BODY_I16X8_SUB_SAT_S(a_, b_) SIMD_BIN(simd_i16x8_sub_sat_s)
#define BODY_I16X8_SUB_SAT_U(a_, b_) SIMD_BIN(simd_i16x8_sub_sat_u)
#define BODY_F64X2_NEAREST(a_, b_) SIMD_UN(simd_f64x2_nearest)
#define BODY_I16X8_MUL(a_, b_) SIMD_BIN(simd_i16x8_mul)
#define BODY_I16X8_MIN_S(a_, b_) SIMD_BIN(simd_i16x8_min_s)
#define BODY_I16X8_MIN_U(a_, b_) SIMD_BIN(simd_i16x8_min_u)
#define BODY_I16X8_MAX_S(a_, b_) SIMD_BIN(simd_i16x8_max_s)
#define BODY_I16X8_MAX_U(a_, b_) SIMD_BIN(simd_i16x8_max_u)
#define BODY_I16X8_AVGR_U(a_, b_) SIMD_BIN(simd_i16x8_avgr_u)
#define BODY_I16X8_EXTMUL_LOW_I8X16_S(a_, b_) SIMD_BIN(simd_i16x8_extmul_low_i8x16_s)
#define BODY_I16X8_EXTMUL_HIGH_I8X16_S(a_, b_) SIMD_BIN(simd_i16x8_extmul_high_i8x16_s)
#define BODY_I16X8_EXTMUL_LOW_I8X16_U(a_, b_) SIMD_BIN(simd_i16x8_extmul_low_i8x16_u)
#define BODY_I16X8_EXTMUL_HIGH_I8X16_U(a_, b_) SIMD_BIN(simd_i16x8_extmul_high_i8x16_u)
#define BODY_I32X4_ABS(a_, b_) SIMD_UN(simd_i32x4_abs)
#define BODY_I32X4_NEG(a_, b_) SIMD_UN(simd_i32x4_neg)
#define BODY_I32X4_ALL_TRUE(a_, b_) SIMD_TEST(simd_i32x4_all_true)
#define BODY_I32X4_BITMASK(a_, b_) SIMD_TEST(simd_i32x4_bitmask)
#define BODY_I32X4_EXTEND_LOW_I16X8_S(a_, b_) SIMD_UN(simd_i32x4_extend_low_i16x8_s)
#define BODY_I32X4_EXTEND_HIGH_I16X8_S(a_, b_) SIMD_UN(simd_i32x4_extend_high_i16x8_s)
#define BODY_I32X4_EXTEND_LOW_I16X8_U(a_, b_) SIMD_UN(simd_i32x4_extend_low_i16x8_u)
#define BODY_I32X4_EXTEND_HIGH_I16X8_U(a_, b_) SIMD_UN(simd_i32x4_extend_high_i16x8_u)
#define BODY_I32X4_SHL(a_, b_) SIMD_SHIFT_BY(a_, simd_i32x4_shl)
#define BODY_I32X4_SHR_S(a_, b_) SIMD_SHIFT_BY(a_, simd_i32x4_shr_s)
#define BODY_I32X4_SHR_U(a_, b_) SIMD_SHIFT_BY(a_, simd_i32x4_shr_u)
#define BODY_I32X4_ADD(a_, b_) SIMD_BIN(simd_i32x4_add)
#define BODY_I32X4_SUB(a_, b_) SIMD_BIN(simd_i32x4_sub)
#define BODY_I32X4_MUL(a_, b_) SIMD_BIN(simd_i32x4_mul)
#define BODY_I32X4_MIN_S(a_, b_) SIMD_BIN(simd_i32x4_min_s)
#define BODY_I32X4_MIN_U(a_, b_) SIMD_BIN(simd_i32x4_min_u)
#define BODY_I32X4_MAX_S(a_, b_) SIMD_BIN(simd_i32x4_max_s)
#define BODY_I32X4_MAX_U(a_, b_) SIMD_BIN(simd_i32x4_max_u)
#define BODY_I32X4_DOT_I16X8_S(a_, b_) SIMD_BIN(simd_i32x4_dot_i16x8_s)
#define BODY_I32X4_EXTMUL_LOW_I16X8_S(a_, b_) SIMD_BIN(simd_i32x4_extmul_low_i16x8_s)
#define BODY_I32X4_EXTMUL_HIGH_I16X8_S(a_, b_) SIMD_BIN(simd_i32x4_extmul_high_i16x8_s)
#define BODY_I32X4_EXTMUL_LOW_I16X8_U(a_, b_) SIMD_BIN(simd_i32x4_extmul_low_i16x8_u)
#define BODY_I32X4_EXTMUL_HIGH_I16X8_U(a_, b_) SIMD_BIN(simd_i32x4_extmul_high_i16x8_u)
#define BODY_I64X2_ABS(a_, b_) SIMD_UN(simd_i64x2_abs)
#define BODY_I64X2_NEG(a_, b_) SIMD_UN(simd_i64x2_neg)
#define BODY_I64X2_ALL_TRUE(a_, b_) SIMD_TEST(simd_i64x2_all_true)
#define BODY_I64X2_BITMASK(a_, b_) SIMD_TEST(simd_i64x2_bitmask)
#define BODY_I64X2_EXTEND_LOW_I32X4_S(a_, b_) SIMD_UN(simd_i64x2_extend_low_i32x4_s)
#define BODY_I64X2_EXTEND_HIGH_I32X4_S(a_, b_) SIMD_UN(simd_i64x2_extend_high_i32x4_s)
#define BODY_I64X2_EXTEND_LOW_I32X4_U(a_, b_) SIMD_UN(simd_i64x2_extend_low_i32x4_u)
#define BODY_I64X2_EXTEND_HIGH_I32X4_U(a_, b_) SIMD_UN(simd_i64x2_extend_high_i32x4_u)
#define BODY_I64X2_SHL(a_, b_) SIMD_SHIFT_BY(a_, simd_i64x2_shl)
#define BODY_I64X2_SHR_S(a_, b_) SIMD_SHIFT_BY(a_, simd_i64x2_shr_s)
#define BODY_I64X2_SHR_U(a_, b_) SIMD_SHIFT_BY(a_, simd_i64x2_shr_u)
#define BODY_I64X2_ADD(a_, b_) SIMD_BIN(simd_i64x2_add)
#define BODY_I64X2_SUB(a_, b_) SIMD_BIN(simd_i64x2_sub)
#define BODY_I64X2_MUL(a_, b_) SIMD_BIN(simd_i64x2_mul)
#define BODY_I64X2_EQ(a_, b_) SIMD_BIN(simd_i64x2_eq)
#define BODY_I64X2_NE(a_, b_) SIMD_BIN(simd_i64x2_ne)
#define BODY_I64X2_LT_S(a_, b_) SIMD_BIN(simd_i64x2_lt_s)
#define BODY_I64X2_GT_S(a_, b_) SIMD_BIN(simd_i64x2_gt_s)
#define BODY_I64X2_LE_S(a_, b_) SIMD_BIN(simd_i64x2_le_s)
#define BODY_I64X2_GE_S(a_, b_) SIMD_BIN(simd_i64x2_ge_s)
#define BODY_I64X2_EXTMUL_LOW_I32X4_S(a_, b_) SIMD_BIN(simd_i64x2_extmul_low_i32x4_s)
#define BODY_I64X2_EXTMUL_HIGH_I32X4_S(a_, b_) SIMD_BIN(simd_i64x2_extmul_high_i32x4_s)
#define BODY_I64X2_EXTMUL_LOW_I32X4_U(a_, b_) SIMD_BIN(simd_i64x2_extmul_low_i32x4_u)
#define BODY_I64X2_EXTMUL_HIGH_I32X4_U(a_, b_) SIMD_BIN(simd_i64x2_extmul_high_i32x4_u)
#define BODY_F32X4_ABS(a_, b_) SIMD_UN(simd_f32x4_abs)
#define BODY_F32X4_NEG(a_, b_) SIMD_UN(simd_f32x4_neg)
#define BODY_F32X4_SQRT(a_, b_) SIMD_UN(simd_f32x4_sqrt)
#define BODY_F32X4_ADD(a_, b_) SIMD_BIN(simd_f32x4_add)
#define BODY_F32X4_SUB(a_, b_) SIMD_BIN(simd_f32x4_sub)
#define BODY_F32X4_MUL(a_, b_) SIMD_BIN(simd_f32x4_mul)
#define BODY_F32X4_DIV(a_, b_) SIMD_BIN(simd_f32x4_div)
#define BODY_F32X4_MIN(a_, b_) SIMD_BIN(simd_f32x4_min)
#define BODY_F32X4_MAX(a_, b_) SIMD_BIN(simd_f32x4_max)
#define BODY_F32X4_PMIN(a_, b_) SIMD_BIN(simd_f32x4_pmin)
#define BODY_F32X4_PMAX(a_, b_) SIMD_BIN(simd_f32x4_pmax)
#define BODY_F64X2_ABS(a_, b_) SIMD_UN(simd_f64x2_abs)
#define BODY_F64X2_NEG(a_, b_) SIMD_UN(simd_f64x2_neg)
#define BODY_F64X2_SQRT(a_, b_) SIMD_UN(simd_f64x2_sqrt)
#define BODY_F64X2_ADD(a_, b_) SIMD_BIN(simd_f64x2_add)
#define BODY_F64X2_SUB(a_, b_) SIMD_BIN(simd_f64x2_sub)
#define BODY_F64X2_MUL(a_, b_) SIMD_BIN(simd_f64x2_mul)
#define BODY_F64X2_DIV(a_, b_) SIMD_BIN(simd_f64x2_div)
#define BODY_F64X2_MIN(a_, b_) SIMD_BIN(simd_f64x2_min)
#define BODY_F64X2_MAX(a_, b_) SIMD_BIN(simd_f64x2_max)
#define BODY_F64X2_PMIN(a_, b_) SIMD_BIN(simd_f64x2_pmin)
#define BODY_F64X2_PMAX(a_, b_) SIMD_BIN(simd_f64x2_pmax)
#define BODY_I32X4_TRUNC_SAT_F32X4_S(a_, b_) SIMD_UN(simd_i32x4_trunc_sat_f32x4_s)
#define BODY_I32X4_TRUNC_SAT_F32X4_U(a_, b_) SIMD_UN(simd_i32x4_trunc_sat_f32x4_u)
#define BODY_F32X4_CONVERT_I32X4_S(a_, b_) SIMD_UN(simd_f32x4_convert_i32x4_s)
#define BODY_F32X4_CONVERT_I32X4_U(a_, b_) SIMD_UN(simd_f32x4_convert_i32x4_u)
#define BODY_I32X4_TRUNC_SAT_F64X2_S_ZERO(a_, b_) SIMD_UN(simd_i32x4_trunc_sat_f64x2_s_zero)
#define BODY_I32X4_TRUNC_SAT_F64X2_U_ZERO(a_, b_) SIMD_UN(simd_i32x4_trunc_sat_f64x2_u_zero)
#define BODY_F64X2_CONVERT_LOW_I32X4_S(a_, b_) SIMD_UN(simd_f64x2_convert_low_i32x4_s)
#define BODY_F64X2_CONVERT_LOW_I32X4_U(a_, b_) SIMD_UN(simd_f64x2_convert_low_i32x4_u)

    /* ---- relaxed SIMD (Wasm 3.0): one deterministic result each, the
       same on every machine (docs/simd.md): the non-relaxed twin where
       there is one, fused madd, signed dot products ---- */
#define BODY_I8X16_RELAXED_SWIZZLE(a_, b_) BODY_I8X16_SWIZZLE(a_, b_)
#define BODY_I32X4_RELAXED_TRUNC_F32X4_S(a_, b_) SIMD_UN(simd_i32x4_trunc_sat_f32x4_s)
#define BODY_I32X4_RELAXED_TRUNC_F32X4_U(a_, b_) SIMD_UN(simd_i32x4_trunc_sat_f32x4_u)
#define BODY_I32X4_RELAXED_TRUNC_F64X2_S_ZERO(a_, b_) SIMD_UN(simd_i32x4_trunc_sat_f64x2_s_zero)
#define BODY_I32X4_RELAXED_TRUNC_F64X2_U_ZERO(a_, b_) SIMD_UN(simd_i32x4_trunc_sat_f64x2_u_zero)
#define BODY_F32X4_RELAXED_MADD(a_, b_) SIMD_TERN(simd_f32x4_relaxed_madd)
#define BODY_F32X4_RELAXED_NMADD(a_, b_) SIMD_TERN(simd_f32x4_relaxed_nmadd)
#define BODY_F64X2_RELAXED_MADD(a_, b_) SIMD_TERN(simd_f64x2_relaxed_madd)
#define BODY_F64X2_RELAXED_NMADD(a_, b_) SIMD_TERN(simd_f64x2_relaxed_nmadd)
#define BODY_I8X16_RELAXED_LANESELECT(a_, b_) SIMD_TERN(simd_bitselect)
#define BODY_I16X8_RELAXED_LANESELECT(a_, b_) SIMD_TERN(simd_bitselect)
#define BODY_I32X4_RELAXED_LANESELECT(a_, b_) SIMD_TERN(simd_bitselect)
#define BODY_I64X2_RELAXED_LANESELECT(a_, b_) SIMD_TERN(simd_bitselect)
#define BODY_F32X4_RELAXED_MIN(a_, b_) SIMD_BIN(simd_f32x4_min)
#define BODY_F32X4_RELAXED_MAX(a_, b_) SIMD_BIN(simd_f32x4_max)
#define BODY_F64X2_RELAXED_MIN(a_, b_) SIMD_BIN(simd_f64x2_min)
#define BODY_F64X2_RELAXED_MAX(a_, b_) SIMD_BIN(simd_f64x2_max)
#define BODY_I16X8_RELAXED_Q15MULR_S(a_, b_) SIMD_BIN(simd_i16x8_q15mulr_sat_s)
#define BODY_I16X8_RELAXED_DOT_I8X16_I7X16_S(a_, b_) SIMD_BIN(simd_i16x8_relaxed_dot_i8x16_i7x16_s)
#define BODY_I32X4_RELAXED_DOT_I8X16_I7X16_ADD_S(a_, b_) SIMD_TERN(simd_i32x4_relaxed_dot_i8x16_i7x16_add_s)
