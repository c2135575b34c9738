/*
 * ops.h — the one opcode table. Every internal operation of the compiled
 * code format is listed here once; the compiler, the interpreter's dispatch
 * table and the disassembler's names are generated from these lists.
 *
 * See docs/code-format.md for the format itself.
 */
#ifndef WEFT_OPS_H
#define WEFT_OPS_H

/* Numeric instructions that map one-to-one onto an internal operation with
   operands (dst, a) or (dst, a, b) in frame slots.
   X(NAME, wasm opcode, arity, result type, operand type) — operands of a
   binary operation share one type. Opcodes >= 0x100 are the 0xFC prefix
   (0x100 + sub-opcode). */
#define CMP_NUMERIC_OPS(X) \
    X(I32_EQZ, 0x45, 1, WEFT_I32, WEFT_I32) \
    X(I32_EQ, 0x46, 2, WEFT_I32, WEFT_I32) \
    X(I32_NE, 0x47, 2, WEFT_I32, WEFT_I32) \
    X(I32_LT_S, 0x48, 2, WEFT_I32, WEFT_I32) \
    X(I32_LT_U, 0x49, 2, WEFT_I32, WEFT_I32) \
    X(I32_GT_S, 0x4A, 2, WEFT_I32, WEFT_I32) \
    X(I32_GT_U, 0x4B, 2, WEFT_I32, WEFT_I32) \
    X(I32_LE_S, 0x4C, 2, WEFT_I32, WEFT_I32) \
    X(I32_LE_U, 0x4D, 2, WEFT_I32, WEFT_I32) \
    X(I32_GE_S, 0x4E, 2, WEFT_I32, WEFT_I32) \
    X(I32_GE_U, 0x4F, 2, WEFT_I32, WEFT_I32) \
    X(I64_EQZ, 0x50, 1, WEFT_I32, WEFT_I64) \
    X(I64_EQ, 0x51, 2, WEFT_I32, WEFT_I64) \
    X(I64_NE, 0x52, 2, WEFT_I32, WEFT_I64) \
    X(I64_LT_S, 0x53, 2, WEFT_I32, WEFT_I64) \
    X(I64_LT_U, 0x54, 2, WEFT_I32, WEFT_I64) \
    X(I64_GT_S, 0x55, 2, WEFT_I32, WEFT_I64) \
    X(I64_GT_U, 0x56, 2, WEFT_I32, WEFT_I64) \
    X(I64_LE_S, 0x57, 2, WEFT_I32, WEFT_I64) \
    X(I64_LE_U, 0x58, 2, WEFT_I32, WEFT_I64) \
    X(I64_GE_S, 0x59, 2, WEFT_I32, WEFT_I64) \
    X(I64_GE_U, 0x5A, 2, WEFT_I32, WEFT_I64) \
    X(F32_EQ, 0x5B, 2, WEFT_I32, WEFT_F32) \
    X(F32_NE, 0x5C, 2, WEFT_I32, WEFT_F32) \
    X(F32_LT, 0x5D, 2, WEFT_I32, WEFT_F32) \
    X(F32_GT, 0x5E, 2, WEFT_I32, WEFT_F32) \
    X(F32_LE, 0x5F, 2, WEFT_I32, WEFT_F32) \
    X(F32_GE, 0x60, 2, WEFT_I32, WEFT_F32) \
    X(F64_EQ, 0x61, 2, WEFT_I32, WEFT_F64) \
    X(F64_NE, 0x62, 2, WEFT_I32, WEFT_F64) \
    X(F64_LT, 0x63, 2, WEFT_I32, WEFT_F64) \
    X(F64_GT, 0x64, 2, WEFT_I32, WEFT_F64) \
    X(F64_LE, 0x65, 2, WEFT_I32, WEFT_F64) \
    X(F64_GE, 0x66, 2, WEFT_I32, WEFT_F64) \
    X(I32_CLZ, 0x67, 1, WEFT_I32, WEFT_I32) \
    X(I32_CTZ, 0x68, 1, WEFT_I32, WEFT_I32) \
    X(I32_POPCNT, 0x69, 1, WEFT_I32, WEFT_I32) \
    X(I32_ADD, 0x6A, 2, WEFT_I32, WEFT_I32) \
    X(I32_SUB, 0x6B, 2, WEFT_I32, WEFT_I32) \
    X(I32_MUL, 0x6C, 2, WEFT_I32, WEFT_I32) \
    X(I32_DIV_S, 0x6D, 2, WEFT_I32, WEFT_I32) \
    X(I32_DIV_U, 0x6E, 2, WEFT_I32, WEFT_I32) \
    X(I32_REM_S, 0x6F, 2, WEFT_I32, WEFT_I32) \
    X(I32_REM_U, 0x70, 2, WEFT_I32, WEFT_I32) \
    X(I32_AND, 0x71, 2, WEFT_I32, WEFT_I32) \
    X(I32_OR, 0x72, 2, WEFT_I32, WEFT_I32) \
    X(I32_XOR, 0x73, 2, WEFT_I32, WEFT_I32) \
    X(I32_SHL, 0x74, 2, WEFT_I32, WEFT_I32) \
    X(I32_SHR_S, 0x75, 2, WEFT_I32, WEFT_I32) \
    X(I32_SHR_U, 0x76, 2, WEFT_I32, WEFT_I32) \
    X(I32_ROTL, 0x77, 2, WEFT_I32, WEFT_I32) \
    X(I32_ROTR, 0x78, 2, WEFT_I32, WEFT_I32) \
    X(I64_CLZ, 0x79, 1, WEFT_I64, WEFT_I64) \
    X(I64_CTZ, 0x7A, 1, WEFT_I64, WEFT_I64) \
    X(I64_POPCNT, 0x7B, 1, WEFT_I64, WEFT_I64) \
    X(I64_ADD, 0x7C, 2, WEFT_I64, WEFT_I64) \
    X(I64_SUB, 0x7D, 2, WEFT_I64, WEFT_I64) \
    X(I64_MUL, 0x7E, 2, WEFT_I64, WEFT_I64) \
    X(I64_DIV_S, 0x7F, 2, WEFT_I64, WEFT_I64) \
    X(I64_DIV_U, 0x80, 2, WEFT_I64, WEFT_I64) \
    X(I64_REM_S, 0x81, 2, WEFT_I64, WEFT_I64) \
    X(I64_REM_U, 0x82, 2, WEFT_I64, WEFT_I64) \
    X(I64_AND, 0x83, 2, WEFT_I64, WEFT_I64) \
    X(I64_OR, 0x84, 2, WEFT_I64, WEFT_I64) \
    X(I64_XOR, 0x85, 2, WEFT_I64, WEFT_I64) \
    X(I64_SHL, 0x86, 2, WEFT_I64, WEFT_I64) \
    X(I64_SHR_S, 0x87, 2, WEFT_I64, WEFT_I64) \
    X(I64_SHR_U, 0x88, 2, WEFT_I64, WEFT_I64) \
    X(I64_ROTL, 0x89, 2, WEFT_I64, WEFT_I64) \
    X(I64_ROTR, 0x8A, 2, WEFT_I64, WEFT_I64) \
    X(F32_ABS, 0x8B, 1, WEFT_F32, WEFT_F32) \
    X(F32_NEG, 0x8C, 1, WEFT_F32, WEFT_F32) \
    X(F32_CEIL, 0x8D, 1, WEFT_F32, WEFT_F32) \
    X(F32_FLOOR, 0x8E, 1, WEFT_F32, WEFT_F32) \
    X(F32_TRUNC, 0x8F, 1, WEFT_F32, WEFT_F32) \
    X(F32_NEAREST, 0x90, 1, WEFT_F32, WEFT_F32) \
    X(F32_SQRT, 0x91, 1, WEFT_F32, WEFT_F32) \
    X(F32_ADD, 0x92, 2, WEFT_F32, WEFT_F32) \
    X(F32_SUB, 0x93, 2, WEFT_F32, WEFT_F32) \
    X(F32_MUL, 0x94, 2, WEFT_F32, WEFT_F32) \
    X(F32_DIV, 0x95, 2, WEFT_F32, WEFT_F32) \
    X(F32_MIN, 0x96, 2, WEFT_F32, WEFT_F32) \
    X(F32_MAX, 0x97, 2, WEFT_F32, WEFT_F32) \
    X(F32_COPYSIGN, 0x98, 2, WEFT_F32, WEFT_F32) \
    X(F64_ABS, 0x99, 1, WEFT_F64, WEFT_F64) \
    X(F64_NEG, 0x9A, 1, WEFT_F64, WEFT_F64) \
    X(F64_CEIL, 0x9B, 1, WEFT_F64, WEFT_F64) \
    X(F64_FLOOR, 0x9C, 1, WEFT_F64, WEFT_F64) \
    X(F64_TRUNC, 0x9D, 1, WEFT_F64, WEFT_F64) \
    X(F64_NEAREST, 0x9E, 1, WEFT_F64, WEFT_F64) \
    X(F64_SQRT, 0x9F, 1, WEFT_F64, WEFT_F64) \
    X(F64_ADD, 0xA0, 2, WEFT_F64, WEFT_F64) \
    X(F64_SUB, 0xA1, 2, WEFT_F64, WEFT_F64) \
    X(F64_MUL, 0xA2, 2, WEFT_F64, WEFT_F64) \
    X(F64_DIV, 0xA3, 2, WEFT_F64, WEFT_F64) \
    X(F64_MIN, 0xA4, 2, WEFT_F64, WEFT_F64) \
    X(F64_MAX, 0xA5, 2, WEFT_F64, WEFT_F64) \
    X(F64_COPYSIGN, 0xA6, 2, WEFT_F64, WEFT_F64) \
    X(I32_WRAP_I64, 0xA7, 1, WEFT_I32, WEFT_I64) \
    X(I32_TRUNC_F32_S, 0xA8, 1, WEFT_I32, WEFT_F32) \
    X(I32_TRUNC_F32_U, 0xA9, 1, WEFT_I32, WEFT_F32) \
    X(I32_TRUNC_F64_S, 0xAA, 1, WEFT_I32, WEFT_F64) \
    X(I32_TRUNC_F64_U, 0xAB, 1, WEFT_I32, WEFT_F64) \
    X(I64_EXTEND_I32_S, 0xAC, 1, WEFT_I64, WEFT_I32) \
    X(I64_TRUNC_F32_S, 0xAE, 1, WEFT_I64, WEFT_F32) \
    X(I64_TRUNC_F32_U, 0xAF, 1, WEFT_I64, WEFT_F32) \
    X(I64_TRUNC_F64_S, 0xB0, 1, WEFT_I64, WEFT_F64) \
    X(I64_TRUNC_F64_U, 0xB1, 1, WEFT_I64, WEFT_F64) \
    X(F32_CONVERT_I32_S, 0xB2, 1, WEFT_F32, WEFT_I32) \
    X(F32_CONVERT_I32_U, 0xB3, 1, WEFT_F32, WEFT_I32) \
    X(F32_CONVERT_I64_S, 0xB4, 1, WEFT_F32, WEFT_I64) \
    X(F32_CONVERT_I64_U, 0xB5, 1, WEFT_F32, WEFT_I64) \
    X(F32_DEMOTE_F64, 0xB6, 1, WEFT_F32, WEFT_F64) \
    X(F64_CONVERT_I32_S, 0xB7, 1, WEFT_F64, WEFT_I32) \
    X(F64_CONVERT_I32_U, 0xB8, 1, WEFT_F64, WEFT_I32) \
    X(F64_CONVERT_I64_S, 0xB9, 1, WEFT_F64, WEFT_I64) \
    X(F64_CONVERT_I64_U, 0xBA, 1, WEFT_F64, WEFT_I64) \
    X(F64_PROMOTE_F32, 0xBB, 1, WEFT_F64, WEFT_F32) \
    X(I32_EXTEND8_S, 0xC0, 1, WEFT_I32, WEFT_I32) \
    X(I32_EXTEND16_S, 0xC1, 1, WEFT_I32, WEFT_I32) \
    X(I64_EXTEND8_S, 0xC2, 1, WEFT_I64, WEFT_I64) \
    X(I64_EXTEND16_S, 0xC3, 1, WEFT_I64, WEFT_I64) \
    X(I64_EXTEND32_S, 0xC4, 1, WEFT_I64, WEFT_I64) \
    X(I32_TRUNC_SAT_F32_S, 0x100, 1, WEFT_I32, WEFT_F32) \
    X(I32_TRUNC_SAT_F32_U, 0x101, 1, WEFT_I32, WEFT_F32) \
    X(I32_TRUNC_SAT_F64_S, 0x102, 1, WEFT_I32, WEFT_F64) \
    X(I32_TRUNC_SAT_F64_U, 0x103, 1, WEFT_I32, WEFT_F64) \
    X(I64_TRUNC_SAT_F32_S, 0x104, 1, WEFT_I64, WEFT_F32) \
    X(I64_TRUNC_SAT_F32_U, 0x105, 1, WEFT_I64, WEFT_F32) \
    X(I64_TRUNC_SAT_F64_S, 0x106, 1, WEFT_I64, WEFT_F64) \
    X(I64_TRUNC_SAT_F64_U, 0x107, 1, WEFT_I64, WEFT_F64)

/* The fixed-width SIMD proposal (0xFD prefix), one internal operation per
   instruction: X(NAME, sub-opcode, kind, n, scalar type). The kind says how
   simd.c validates and translates it and how many operand words follow
   (cmp_simd_operands); n is the bytes accessed for memory kinds and the
   lane count for lane kinds; the scalar type is that of splat's operand and
   of extract_lane's result / replace_lane's operand. A v128 occupies two
   consecutive slots (low 8 bytes first); operands name the first. */
typedef enum cmp_simd_kind {
    SV_LOAD,       /* dst, address slot, offset */
    SV_STORE,      /* address slot, value slot, offset */
    SV_LOAD_LANE,  /* dst, address slot, vector slot, offset, lane */
    SV_STORE_LANE, /* address slot, vector slot, offset, lane */
    SV_CONST,      /* dst, 4 words of bytes */
    SV_SHUFFLE,    /* dst, a, b, 4 words: a's byte mask, 4 words: b's (below) */
    SV_SPLAT,      /* dst, scalar */
    SV_EXTRACT,    /* dst (scalar), a, lane */
    SV_REPLACE,    /* dst, a, scalar, lane */
    SV_UN,         /* dst, a */
    SV_BIN,        /* dst, a, b */
    SV_TERN,       /* dst, a, b, c (bitselect) */
    SV_TEST,       /* dst (i32), a */
    SV_SHIFT,      /* dst, a, count (i32) */
} cmp_simd_kind;

/* Operand words of each kind (a constant expression). */
#define CMP_SIMD_OPERAND_COUNT(k)                                                  \
    ((k) == SV_LOAD_LANE || (k) == SV_CONST ? 5                                    \
     : (k) == SV_SHUFFLE                    ? 11                                   \
     : (k) == SV_STORE_LANE || (k) == SV_REPLACE || (k) == SV_TERN ? 4             \
     : (k) == SV_SPLAT || (k) == SV_UN || (k) == SV_TEST ? 2                        \
                                            : 3)

#define CMP_SIMD_OPS(X) \
    X(V128_LOAD, 0x00, SV_LOAD, 16, 0) \
    X(V128_LOAD8X8_S, 0x01, SV_LOAD, 8, 0) \
    X(V128_LOAD8X8_U, 0x02, SV_LOAD, 8, 0) \
    X(V128_LOAD16X4_S, 0x03, SV_LOAD, 8, 0) \
    X(V128_LOAD16X4_U, 0x04, SV_LOAD, 8, 0) \
    X(V128_LOAD32X2_S, 0x05, SV_LOAD, 8, 0) \
    X(V128_LOAD32X2_U, 0x06, SV_LOAD, 8, 0) \
    X(V128_LOAD8_SPLAT, 0x07, SV_LOAD, 1, 0) \
    X(V128_LOAD16_SPLAT, 0x08, SV_LOAD, 2, 0) \
    X(V128_LOAD32_SPLAT, 0x09, SV_LOAD, 4, 0) \
    X(V128_LOAD64_SPLAT, 0x0A, SV_LOAD, 8, 0) \
    X(V128_STORE, 0x0B, SV_STORE, 16, 0) \
    X(V128_CONST, 0x0C, SV_CONST, 0, 0) \
    X(I8X16_SHUFFLE, 0x0D, SV_SHUFFLE, 0, 0) \
    X(I8X16_SWIZZLE, 0x0E, SV_BIN, 0, 0) \
    X(I8X16_SPLAT, 0x0F, SV_SPLAT, 16, WEFT_I32) \
    X(I16X8_SPLAT, 0x10, SV_SPLAT, 8, WEFT_I32) \
    X(I32X4_SPLAT, 0x11, SV_SPLAT, 4, WEFT_I32) \
    X(I64X2_SPLAT, 0x12, SV_SPLAT, 2, WEFT_I64) \
    X(F32X4_SPLAT, 0x13, SV_SPLAT, 4, WEFT_F32) \
    X(F64X2_SPLAT, 0x14, SV_SPLAT, 2, WEFT_F64) \
    X(I8X16_EXTRACT_LANE_S, 0x15, SV_EXTRACT, 16, WEFT_I32) \
    X(I8X16_EXTRACT_LANE_U, 0x16, SV_EXTRACT, 16, WEFT_I32) \
    X(I8X16_REPLACE_LANE, 0x17, SV_REPLACE, 16, WEFT_I32) \
    X(I16X8_EXTRACT_LANE_S, 0x18, SV_EXTRACT, 8, WEFT_I32) \
    X(I16X8_EXTRACT_LANE_U, 0x19, SV_EXTRACT, 8, WEFT_I32) \
    X(I16X8_REPLACE_LANE, 0x1A, SV_REPLACE, 8, WEFT_I32) \
    X(I32X4_EXTRACT_LANE, 0x1B, SV_EXTRACT, 4, WEFT_I32) \
    X(I32X4_REPLACE_LANE, 0x1C, SV_REPLACE, 4, WEFT_I32) \
    X(I64X2_EXTRACT_LANE, 0x1D, SV_EXTRACT, 2, WEFT_I64) \
    X(I64X2_REPLACE_LANE, 0x1E, SV_REPLACE, 2, WEFT_I64) \
    X(F32X4_EXTRACT_LANE, 0x1F, SV_EXTRACT, 4, WEFT_F32) \
    X(F32X4_REPLACE_LANE, 0x20, SV_REPLACE, 4, WEFT_F32) \
    X(F64X2_EXTRACT_LANE, 0x21, SV_EXTRACT, 2, WEFT_F64) \
    X(F64X2_REPLACE_LANE, 0x22, SV_REPLACE, 2, WEFT_F64) \
    X(I8X16_EQ, 0x23, SV_BIN, 0, 0) \
    X(I8X16_NE, 0x24, SV_BIN, 0, 0) \
    X(I8X16_LT_S, 0x25, SV_BIN, 0, 0) \
    X(I8X16_LT_U, 0x26, SV_BIN, 0, 0) \
    X(I8X16_GT_S, 0x27, SV_BIN, 0, 0) \
    X(I8X16_GT_U, 0x28, SV_BIN, 0, 0) \
    X(I8X16_LE_S, 0x29, SV_BIN, 0, 0) \
    X(I8X16_LE_U, 0x2A, SV_BIN, 0, 0) \
    X(I8X16_GE_S, 0x2B, SV_BIN, 0, 0) \
    X(I8X16_GE_U, 0x2C, SV_BIN, 0, 0) \
    X(I16X8_EQ, 0x2D, SV_BIN, 0, 0) \
    X(I16X8_NE, 0x2E, SV_BIN, 0, 0) \
    X(I16X8_LT_S, 0x2F, SV_BIN, 0, 0) \
    X(I16X8_LT_U, 0x30, SV_BIN, 0, 0) \
    X(I16X8_GT_S, 0x31, SV_BIN, 0, 0) \
    X(I16X8_GT_U, 0x32, SV_BIN, 0, 0) \
    X(I16X8_LE_S, 0x33, SV_BIN, 0, 0) \
    X(I16X8_LE_U, 0x34, SV_BIN, 0, 0) \
    X(I16X8_GE_S, 0x35, SV_BIN, 0, 0) \
    X(I16X8_GE_U, 0x36, SV_BIN, 0, 0) \
    X(I32X4_EQ, 0x37, SV_BIN, 0, 0) \
    X(I32X4_NE, 0x38, SV_BIN, 0, 0) \
    X(I32X4_LT_S, 0x39, SV_BIN, 0, 0) \
    X(I32X4_LT_U, 0x3A, SV_BIN, 0, 0) \
    X(I32X4_GT_S, 0x3B, SV_BIN, 0, 0) \
    X(I32X4_GT_U, 0x3C, SV_BIN, 0, 0) \
    X(I32X4_LE_S, 0x3D, SV_BIN, 0, 0) \
    X(I32X4_LE_U, 0x3E, SV_BIN, 0, 0) \
    X(I32X4_GE_S, 0x3F, SV_BIN, 0, 0) \
    X(I32X4_GE_U, 0x40, SV_BIN, 0, 0) \
    X(F32X4_EQ, 0x41, SV_BIN, 0, 0) \
    X(F32X4_NE, 0x42, SV_BIN, 0, 0) \
    X(F32X4_LT, 0x43, SV_BIN, 0, 0) \
    X(F32X4_GT, 0x44, SV_BIN, 0, 0) \
    X(F32X4_LE, 0x45, SV_BIN, 0, 0) \
    X(F32X4_GE, 0x46, SV_BIN, 0, 0) \
    X(F64X2_EQ, 0x47, SV_BIN, 0, 0) \
    X(F64X2_NE, 0x48, SV_BIN, 0, 0) \
    X(F64X2_LT, 0x49, SV_BIN, 0, 0) \
    X(F64X2_GT, 0x4A, SV_BIN, 0, 0) \
    X(F64X2_LE, 0x4B, SV_BIN, 0, 0) \
    X(F64X2_GE, 0x4C, SV_BIN, 0, 0) \
    X(V128_NOT, 0x4D, SV_UN, 0, 0) \
    X(V128_AND, 0x4E, SV_BIN, 0, 0) \
    X(V128_ANDNOT, 0x4F, SV_BIN, 0, 0) \
    X(V128_OR, 0x50, SV_BIN, 0, 0) \
    X(V128_XOR, 0x51, SV_BIN, 0, 0) \
    X(V128_BITSELECT, 0x52, SV_TERN, 0, 0) \
    X(V128_ANY_TRUE, 0x53, SV_TEST, 0, 0) \
    X(V128_LOAD8_LANE, 0x54, SV_LOAD_LANE, 1, 0) \
    X(V128_LOAD16_LANE, 0x55, SV_LOAD_LANE, 2, 0) \
    X(V128_LOAD32_LANE, 0x56, SV_LOAD_LANE, 4, 0) \
    X(V128_LOAD64_LANE, 0x57, SV_LOAD_LANE, 8, 0) \
    X(V128_STORE8_LANE, 0x58, SV_STORE_LANE, 1, 0) \
    X(V128_STORE16_LANE, 0x59, SV_STORE_LANE, 2, 0) \
    X(V128_STORE32_LANE, 0x5A, SV_STORE_LANE, 4, 0) \
    X(V128_STORE64_LANE, 0x5B, SV_STORE_LANE, 8, 0) \
    X(V128_LOAD32_ZERO, 0x5C, SV_LOAD, 4, 0) \
    X(V128_LOAD64_ZERO, 0x5D, SV_LOAD, 8, 0) \
    X(F32X4_DEMOTE_F64X2_ZERO, 0x5E, SV_UN, 0, 0) \
    X(F64X2_PROMOTE_LOW_F32X4, 0x5F, SV_UN, 0, 0) \
    X(I8X16_ABS, 0x60, SV_UN, 0, 0) \
    X(I8X16_NEG, 0x61, SV_UN, 0, 0) \
    X(I8X16_POPCNT, 0x62, SV_UN, 0, 0) \
    X(I8X16_ALL_TRUE, 0x63, SV_TEST, 0, 0) \
    X(I8X16_BITMASK, 0x64, SV_TEST, 0, 0) \
    X(I8X16_NARROW_I16X8_S, 0x65, SV_BIN, 0, 0) \
    X(I8X16_NARROW_I16X8_U, 0x66, SV_BIN, 0, 0) \
    X(F32X4_CEIL, 0x67, SV_UN, 0, 0) \
    X(F32X4_FLOOR, 0x68, SV_UN, 0, 0) \
    X(F32X4_TRUNC, 0x69, SV_UN, 0, 0) \
    X(F32X4_NEAREST, 0x6A, SV_UN, 0, 0) \
    X(I8X16_SHL, 0x6B, SV_SHIFT, 0, 0) \
    X(I8X16_SHR_S, 0x6C, SV_SHIFT, 0, 0) \
    X(I8X16_SHR_U, 0x6D, SV_SHIFT, 0, 0) \
    X(I8X16_ADD, 0x6E, SV_BIN, 0, 0) \
    X(I8X16_ADD_SAT_S, 0x6F, SV_BIN, 0, 0) \
    X(I8X16_ADD_SAT_U, 0x70, SV_BIN, 0, 0) \
    X(I8X16_SUB, 0x71, SV_BIN, 0, 0) \
    X(I8X16_SUB_SAT_S, 0x72, SV_BIN, 0, 0) \
    X(I8X16_SUB_SAT_U, 0x73, SV_BIN, 0, 0) \
    X(F64X2_CEIL, 0x74, SV_UN, 0, 0) \
    X(F64X2_FLOOR, 0x75, SV_UN, 0, 0) \
    X(I8X16_MIN_S, 0x76, SV_BIN, 0, 0) \
    X(I8X16_MIN_U, 0x77, SV_BIN, 0, 0) \
    X(I8X16_MAX_S, 0x78, SV_BIN, 0, 0) \
    X(I8X16_MAX_U, 0x79, SV_BIN, 0, 0) \
    X(F64X2_TRUNC, 0x7A, SV_UN, 0, 0) \
    X(I8X16_AVGR_U, 0x7B, SV_BIN, 0, 0) \
    X(I16X8_EXTADD_PAIRWISE_I8X16_S, 0x7C, SV_UN, 0, 0) \
    X(I16X8_EXTADD_PAIRWISE_I8X16_U, 0x7D, SV_UN, 0, 0) \
    X(I32X4_EXTADD_PAIRWISE_I16X8_S, 0x7E, SV_UN, 0, 0) \
    X(I32X4_EXTADD_PAIRWISE_I16X8_U, 0x7F, SV_UN, 0, 0) \
    X(I16X8_ABS, 0x80, SV_UN, 0, 0) \
    X(I16X8_NEG, 0x81, SV_UN, 0, 0) \
    X(I16X8_Q15MULR_SAT_S, 0x82, SV_BIN, 0, 0) \
    X(I16X8_ALL_TRUE, 0x83, SV_TEST, 0, 0) \
    X(I16X8_BITMASK, 0x84, SV_TEST, 0, 0) \
    X(I16X8_NARROW_I32X4_S, 0x85, SV_BIN, 0, 0) \
    X(I16X8_NARROW_I32X4_U, 0x86, SV_BIN, 0, 0) \
    X(I16X8_EXTEND_LOW_I8X16_S, 0x87, SV_UN, 0, 0) \
    X(I16X8_EXTEND_HIGH_I8X16_S, 0x88, SV_UN, 0, 0) \
    X(I16X8_EXTEND_LOW_I8X16_U, 0x89, SV_UN, 0, 0) \
    X(I16X8_EXTEND_HIGH_I8X16_U, 0x8A, SV_UN, 0, 0) \
    X(I16X8_SHL, 0x8B, SV_SHIFT, 0, 0) \
    X(I16X8_SHR_S, 0x8C, SV_SHIFT, 0, 0) \
    X(I16X8_SHR_U, 0x8D, SV_SHIFT, 0, 0) \
    X(I16X8_ADD, 0x8E, SV_BIN, 0, 0) \
    X(I16X8_ADD_SAT_S, 0x8F, SV_BIN, 0, 0) \
    X(I16X8_ADD_SAT_U, 0x90, SV_BIN, 0, 0) \
    X(I16X8_SUB, 0x91, SV_BIN, 0, 0) \
    X(I16X8_SUB_SAT_S, 0x92, SV_BIN, 0, 0) \
    X(I16X8_SUB_SAT_U, 0x93, SV_BIN, 0, 0) \
    X(F64X2_NEAREST, 0x94, SV_UN, 0, 0) \
    X(I16X8_MUL, 0x95, SV_BIN, 0, 0) \
    X(I16X8_MIN_S, 0x96, SV_BIN, 0, 0) \
    X(I16X8_MIN_U, 0x97, SV_BIN, 0, 0) \
    X(I16X8_MAX_S, 0x98, SV_BIN, 0, 0) \
    X(I16X8_MAX_U, 0x99, SV_BIN, 0, 0) \
    X(I16X8_AVGR_U, 0x9B, SV_BIN, 0, 0) \
    X(I16X8_EXTMUL_LOW_I8X16_S, 0x9C, SV_BIN, 0, 0) \
    X(I16X8_EXTMUL_HIGH_I8X16_S, 0x9D, SV_BIN, 0, 0) \
    X(I16X8_EXTMUL_LOW_I8X16_U, 0x9E, SV_BIN, 0, 0) \
    X(I16X8_EXTMUL_HIGH_I8X16_U, 0x9F, SV_BIN, 0, 0) \
    X(I32X4_ABS, 0xA0, SV_UN, 0, 0) \
    X(I32X4_NEG, 0xA1, SV_UN, 0, 0) \
    X(I32X4_ALL_TRUE, 0xA3, SV_TEST, 0, 0) \
    X(I32X4_BITMASK, 0xA4, SV_TEST, 0, 0) \
    X(I32X4_EXTEND_LOW_I16X8_S, 0xA7, SV_UN, 0, 0) \
    X(I32X4_EXTEND_HIGH_I16X8_S, 0xA8, SV_UN, 0, 0) \
    X(I32X4_EXTEND_LOW_I16X8_U, 0xA9, SV_UN, 0, 0) \
    X(I32X4_EXTEND_HIGH_I16X8_U, 0xAA, SV_UN, 0, 0) \
    X(I32X4_SHL, 0xAB, SV_SHIFT, 0, 0) \
    X(I32X4_SHR_S, 0xAC, SV_SHIFT, 0, 0) \
    X(I32X4_SHR_U, 0xAD, SV_SHIFT, 0, 0) \
    X(I32X4_ADD, 0xAE, SV_BIN, 0, 0) \
    X(I32X4_SUB, 0xB1, SV_BIN, 0, 0) \
    X(I32X4_MUL, 0xB5, SV_BIN, 0, 0) \
    X(I32X4_MIN_S, 0xB6, SV_BIN, 0, 0) \
    X(I32X4_MIN_U, 0xB7, SV_BIN, 0, 0) \
    X(I32X4_MAX_S, 0xB8, SV_BIN, 0, 0) \
    X(I32X4_MAX_U, 0xB9, SV_BIN, 0, 0) \
    X(I32X4_DOT_I16X8_S, 0xBA, SV_BIN, 0, 0) \
    X(I32X4_EXTMUL_LOW_I16X8_S, 0xBC, SV_BIN, 0, 0) \
    X(I32X4_EXTMUL_HIGH_I16X8_S, 0xBD, SV_BIN, 0, 0) \
    X(I32X4_EXTMUL_LOW_I16X8_U, 0xBE, SV_BIN, 0, 0) \
    X(I32X4_EXTMUL_HIGH_I16X8_U, 0xBF, SV_BIN, 0, 0) \
    X(I64X2_ABS, 0xC0, SV_UN, 0, 0) \
    X(I64X2_NEG, 0xC1, SV_UN, 0, 0) \
    X(I64X2_ALL_TRUE, 0xC3, SV_TEST, 0, 0) \
    X(I64X2_BITMASK, 0xC4, SV_TEST, 0, 0) \
    X(I64X2_EXTEND_LOW_I32X4_S, 0xC7, SV_UN, 0, 0) \
    X(I64X2_EXTEND_HIGH_I32X4_S, 0xC8, SV_UN, 0, 0) \
    X(I64X2_EXTEND_LOW_I32X4_U, 0xC9, SV_UN, 0, 0) \
    X(I64X2_EXTEND_HIGH_I32X4_U, 0xCA, SV_UN, 0, 0) \
    X(I64X2_SHL, 0xCB, SV_SHIFT, 0, 0) \
    X(I64X2_SHR_S, 0xCC, SV_SHIFT, 0, 0) \
    X(I64X2_SHR_U, 0xCD, SV_SHIFT, 0, 0) \
    X(I64X2_ADD, 0xCE, SV_BIN, 0, 0) \
    X(I64X2_SUB, 0xD1, SV_BIN, 0, 0) \
    X(I64X2_MUL, 0xD5, SV_BIN, 0, 0) \
    X(I64X2_EQ, 0xD6, SV_BIN, 0, 0) \
    X(I64X2_NE, 0xD7, SV_BIN, 0, 0) \
    X(I64X2_LT_S, 0xD8, SV_BIN, 0, 0) \
    X(I64X2_GT_S, 0xD9, SV_BIN, 0, 0) \
    X(I64X2_LE_S, 0xDA, SV_BIN, 0, 0) \
    X(I64X2_GE_S, 0xDB, SV_BIN, 0, 0) \
    X(I64X2_EXTMUL_LOW_I32X4_S, 0xDC, SV_BIN, 0, 0) \
    X(I64X2_EXTMUL_HIGH_I32X4_S, 0xDD, SV_BIN, 0, 0) \
    X(I64X2_EXTMUL_LOW_I32X4_U, 0xDE, SV_BIN, 0, 0) \
    X(I64X2_EXTMUL_HIGH_I32X4_U, 0xDF, SV_BIN, 0, 0) \
    X(F32X4_ABS, 0xE0, SV_UN, 0, 0) \
    X(F32X4_NEG, 0xE1, SV_UN, 0, 0) \
    X(F32X4_SQRT, 0xE3, SV_UN, 0, 0) \
    X(F32X4_ADD, 0xE4, SV_BIN, 0, 0) \
    X(F32X4_SUB, 0xE5, SV_BIN, 0, 0) \
    X(F32X4_MUL, 0xE6, SV_BIN, 0, 0) \
    X(F32X4_DIV, 0xE7, SV_BIN, 0, 0) \
    X(F32X4_MIN, 0xE8, SV_BIN, 0, 0) \
    X(F32X4_MAX, 0xE9, SV_BIN, 0, 0) \
    X(F32X4_PMIN, 0xEA, SV_BIN, 0, 0) \
    X(F32X4_PMAX, 0xEB, SV_BIN, 0, 0) \
    X(F64X2_ABS, 0xEC, SV_UN, 0, 0) \
    X(F64X2_NEG, 0xED, SV_UN, 0, 0) \
    X(F64X2_SQRT, 0xEF, SV_UN, 0, 0) \
    X(F64X2_ADD, 0xF0, SV_BIN, 0, 0) \
    X(F64X2_SUB, 0xF1, SV_BIN, 0, 0) \
    X(F64X2_MUL, 0xF2, SV_BIN, 0, 0) \
    X(F64X2_DIV, 0xF3, SV_BIN, 0, 0) \
    X(F64X2_MIN, 0xF4, SV_BIN, 0, 0) \
    X(F64X2_MAX, 0xF5, SV_BIN, 0, 0) \
    X(F64X2_PMIN, 0xF6, SV_BIN, 0, 0) \
    X(F64X2_PMAX, 0xF7, SV_BIN, 0, 0) \
    X(I32X4_TRUNC_SAT_F32X4_S, 0xF8, SV_UN, 0, 0) \
    X(I32X4_TRUNC_SAT_F32X4_U, 0xF9, SV_UN, 0, 0) \
    X(F32X4_CONVERT_I32X4_S, 0xFA, SV_UN, 0, 0) \
    X(F32X4_CONVERT_I32X4_U, 0xFB, SV_UN, 0, 0) \
    X(I32X4_TRUNC_SAT_F64X2_S_ZERO, 0xFC, SV_UN, 0, 0) \
    X(I32X4_TRUNC_SAT_F64X2_U_ZERO, 0xFD, SV_UN, 0, 0) \
    X(F64X2_CONVERT_LOW_I32X4_S, 0xFE, SV_UN, 0, 0) \
    X(F64X2_CONVERT_LOW_I32X4_U, 0xFF, SV_UN, 0, 0)

/* Loads and stores: X(NAME, wasm opcode, bytes, value type, internal op).
   i32 and f32 values sit zero-extended in 64-bit slots, so a 32-bit load
   serves both; the internal op is shared where the bits are the same. */
#define CMP_MEMORY_OPS(X) \
    X(0x28, 4, WEFT_I32, LOAD32) \
    X(0x29, 8, WEFT_I64, LOAD64) \
    X(0x2A, 4, WEFT_F32, LOAD32) \
    X(0x2B, 8, WEFT_F64, LOAD64) \
    X(0x2C, 1, WEFT_I32, I32_LOAD8_S) \
    X(0x2D, 1, WEFT_I32, LOAD8_U) \
    X(0x2E, 2, WEFT_I32, I32_LOAD16_S) \
    X(0x2F, 2, WEFT_I32, LOAD16_U) \
    X(0x30, 1, WEFT_I64, I64_LOAD8_S) \
    X(0x31, 1, WEFT_I64, LOAD8_U) \
    X(0x32, 2, WEFT_I64, I64_LOAD16_S) \
    X(0x33, 2, WEFT_I64, LOAD16_U) \
    X(0x34, 4, WEFT_I64, I64_LOAD32_S) \
    X(0x35, 4, WEFT_I64, LOAD32) \
    X(0x36, 4, WEFT_I32, STORE32) \
    X(0x37, 8, WEFT_I64, STORE64) \
    X(0x38, 4, WEFT_F32, STORE32) \
    X(0x39, 8, WEFT_F64, STORE64) \
    X(0x3A, 1, WEFT_I32, STORE8) \
    X(0x3B, 2, WEFT_I32, STORE16) \
    X(0x3C, 1, WEFT_I64, STORE8) \
    X(0x3D, 2, WEFT_I64, STORE16) \
    X(0x3E, 4, WEFT_I64, STORE32)

/* Atomic memory operations (threads proposal, 0xFE prefix):
   X(sub-opcode, bytes, value type, internal op). Like plain loads, the
   narrow and 32-bit forms share internal ops across i32 and i64 because
   results are zero-extended. */
#define CMP_ATOMIC_OPS(X) \
    X(0x10, 4, WEFT_I32, ATOMIC_LOAD32) \
    X(0x11, 8, WEFT_I64, ATOMIC_LOAD64) \
    X(0x12, 1, WEFT_I32, ATOMIC_LOAD8) \
    X(0x13, 2, WEFT_I32, ATOMIC_LOAD16) \
    X(0x14, 1, WEFT_I64, ATOMIC_LOAD8) \
    X(0x15, 2, WEFT_I64, ATOMIC_LOAD16) \
    X(0x16, 4, WEFT_I64, ATOMIC_LOAD32) \
    X(0x17, 4, WEFT_I32, ATOMIC_STORE32) \
    X(0x18, 8, WEFT_I64, ATOMIC_STORE64) \
    X(0x19, 1, WEFT_I32, ATOMIC_STORE8) \
    X(0x1A, 2, WEFT_I32, ATOMIC_STORE16) \
    X(0x1B, 1, WEFT_I64, ATOMIC_STORE8) \
    X(0x1C, 2, WEFT_I64, ATOMIC_STORE16) \
    X(0x1D, 4, WEFT_I64, ATOMIC_STORE32) \
    X(0x1E, 4, WEFT_I32, ATOMIC_ADD32) \
    X(0x1F, 8, WEFT_I64, ATOMIC_ADD64) \
    X(0x20, 1, WEFT_I32, ATOMIC_ADD8) \
    X(0x21, 2, WEFT_I32, ATOMIC_ADD16) \
    X(0x22, 1, WEFT_I64, ATOMIC_ADD8) \
    X(0x23, 2, WEFT_I64, ATOMIC_ADD16) \
    X(0x24, 4, WEFT_I64, ATOMIC_ADD32) \
    X(0x25, 4, WEFT_I32, ATOMIC_SUB32) \
    X(0x26, 8, WEFT_I64, ATOMIC_SUB64) \
    X(0x27, 1, WEFT_I32, ATOMIC_SUB8) \
    X(0x28, 2, WEFT_I32, ATOMIC_SUB16) \
    X(0x29, 1, WEFT_I64, ATOMIC_SUB8) \
    X(0x2A, 2, WEFT_I64, ATOMIC_SUB16) \
    X(0x2B, 4, WEFT_I64, ATOMIC_SUB32) \
    X(0x2C, 4, WEFT_I32, ATOMIC_AND32) \
    X(0x2D, 8, WEFT_I64, ATOMIC_AND64) \
    X(0x2E, 1, WEFT_I32, ATOMIC_AND8) \
    X(0x2F, 2, WEFT_I32, ATOMIC_AND16) \
    X(0x30, 1, WEFT_I64, ATOMIC_AND8) \
    X(0x31, 2, WEFT_I64, ATOMIC_AND16) \
    X(0x32, 4, WEFT_I64, ATOMIC_AND32) \
    X(0x33, 4, WEFT_I32, ATOMIC_OR32) \
    X(0x34, 8, WEFT_I64, ATOMIC_OR64) \
    X(0x35, 1, WEFT_I32, ATOMIC_OR8) \
    X(0x36, 2, WEFT_I32, ATOMIC_OR16) \
    X(0x37, 1, WEFT_I64, ATOMIC_OR8) \
    X(0x38, 2, WEFT_I64, ATOMIC_OR16) \
    X(0x39, 4, WEFT_I64, ATOMIC_OR32) \
    X(0x3A, 4, WEFT_I32, ATOMIC_XOR32) \
    X(0x3B, 8, WEFT_I64, ATOMIC_XOR64) \
    X(0x3C, 1, WEFT_I32, ATOMIC_XOR8) \
    X(0x3D, 2, WEFT_I32, ATOMIC_XOR16) \
    X(0x3E, 1, WEFT_I64, ATOMIC_XOR8) \
    X(0x3F, 2, WEFT_I64, ATOMIC_XOR16) \
    X(0x40, 4, WEFT_I64, ATOMIC_XOR32) \
    X(0x41, 4, WEFT_I32, ATOMIC_XCHG32) \
    X(0x42, 8, WEFT_I64, ATOMIC_XCHG64) \
    X(0x43, 1, WEFT_I32, ATOMIC_XCHG8) \
    X(0x44, 2, WEFT_I32, ATOMIC_XCHG16) \
    X(0x45, 1, WEFT_I64, ATOMIC_XCHG8) \
    X(0x46, 2, WEFT_I64, ATOMIC_XCHG16) \
    X(0x47, 4, WEFT_I64, ATOMIC_XCHG32) \
    X(0x48, 4, WEFT_I32, ATOMIC_CMPXCHG32) \
    X(0x49, 8, WEFT_I64, ATOMIC_CMPXCHG64) \
    X(0x4A, 1, WEFT_I32, ATOMIC_CMPXCHG8) \
    X(0x4B, 2, WEFT_I32, ATOMIC_CMPXCHG16) \
    X(0x4C, 1, WEFT_I64, ATOMIC_CMPXCHG8) \
    X(0x4D, 2, WEFT_I64, ATOMIC_CMPXCHG16) \
    X(0x4E, 4, WEFT_I64, ATOMIC_CMPXCHG32)

/* Binary operations whose second operand is a constant carried in the
   code (operands dst, a, imm; i64 immediates are sign-extended 32-bit):
   X(NAME, the operation it specialises). */
#define CMP_IMM_OPS(X) \
    X(I32_ADD_IMM, I32_ADD) \
    X(I32_SUB_IMM, I32_SUB) \
    X(I32_MUL_IMM, I32_MUL) \
    X(I32_AND_IMM, I32_AND) \
    X(I32_OR_IMM, I32_OR) \
    X(I32_XOR_IMM, I32_XOR) \
    X(I32_SHL_IMM, I32_SHL) \
    X(I32_SHR_S_IMM, I32_SHR_S) \
    X(I32_SHR_U_IMM, I32_SHR_U) \
    X(I32_EQ_IMM, I32_EQ) \
    X(I32_NE_IMM, I32_NE) \
    X(I32_LT_S_IMM, I32_LT_S) \
    X(I32_LT_U_IMM, I32_LT_U) \
    X(I32_GT_S_IMM, I32_GT_S) \
    X(I32_GT_U_IMM, I32_GT_U) \
    X(I32_LE_S_IMM, I32_LE_S) \
    X(I32_LE_U_IMM, I32_LE_U) \
    X(I32_GE_S_IMM, I32_GE_S) \
    X(I32_GE_U_IMM, I32_GE_U) \
    X(I64_ADD_IMM, I64_ADD) \
    X(I64_SUB_IMM, I64_SUB) \
    X(I64_MUL_IMM, I64_MUL) \
    X(I64_AND_IMM, I64_AND) \
    X(I64_OR_IMM, I64_OR) \
    X(I64_XOR_IMM, I64_XOR) \
    X(I64_SHL_IMM, I64_SHL) \
    X(I64_SHR_S_IMM, I64_SHR_S) \
    X(I64_SHR_U_IMM, I64_SHR_U) \
    X(I64_EQ_IMM, I64_EQ) \
    X(I64_NE_IMM, I64_NE) \
    X(I64_LT_S_IMM, I64_LT_S) \
    X(I64_LT_U_IMM, I64_LT_U) \
    X(I64_GT_S_IMM, I64_GT_S) \
    X(I64_GT_U_IMM, I64_GT_U) \
    X(I64_LE_S_IMM, I64_LE_S) \
    X(I64_LE_U_IMM, I64_LE_U) \
    X(I64_GE_S_IMM, I64_GE_S) \
    X(I64_GE_U_IMM, I64_GE_U) \
    X(I32_ROTL_IMM, I32_ROTL)

/* Compare-and-branch: a comparison whose only use is the condition of the
   next branch becomes one operation, X(NAME, compare op, operands):
   operands are (a, b, target), (a, imm, target) for the _IMM forms, or
   (a, target) for the eqz forms. */
#define CMP_FUSED_BRANCH_OPS(X) \
    X(BR_IF_I32_EQ, I32_EQ, 3) X(BR_IF_I32_NE, I32_NE, 3) \
    X(BR_IF_I32_LT_S, I32_LT_S, 3) X(BR_IF_I32_LT_U, I32_LT_U, 3) \
    X(BR_IF_I32_GT_S, I32_GT_S, 3) X(BR_IF_I32_GT_U, I32_GT_U, 3) \
    X(BR_IF_I32_LE_S, I32_LE_S, 3) X(BR_IF_I32_LE_U, I32_LE_U, 3) \
    X(BR_IF_I32_GE_S, I32_GE_S, 3) X(BR_IF_I32_GE_U, I32_GE_U, 3) \
    X(BR_IF_I64_EQ, I64_EQ, 3) X(BR_IF_I64_NE, I64_NE, 3) \
    X(BR_IF_I64_LT_S, I64_LT_S, 3) X(BR_IF_I64_LT_U, I64_LT_U, 3) \
    X(BR_IF_I64_GT_S, I64_GT_S, 3) X(BR_IF_I64_GT_U, I64_GT_U, 3) \
    X(BR_IF_I64_LE_S, I64_LE_S, 3) X(BR_IF_I64_LE_U, I64_LE_U, 3) \
    X(BR_IF_I64_GE_S, I64_GE_S, 3) X(BR_IF_I64_GE_U, I64_GE_U, 3) \
    X(BR_IF_I32_EQZ, I32_EQZ, 2) X(BR_IF_I64_EQZ, I64_EQZ, 2) \
    X(BR_IF_I64_NEZ, I64_EQZ, 2) \
    X(BR_IF_I32_EQ_IMM, I32_EQ_IMM, 3) \
    X(BR_IF_I32_NE_IMM, I32_NE_IMM, 3) \
    X(BR_IF_I32_LT_S_IMM, I32_LT_S_IMM, 3) \
    X(BR_IF_I32_LT_U_IMM, I32_LT_U_IMM, 3) \
    X(BR_IF_I32_GT_S_IMM, I32_GT_S_IMM, 3) \
    X(BR_IF_I32_GT_U_IMM, I32_GT_U_IMM, 3) \
    X(BR_IF_I32_LE_S_IMM, I32_LE_S_IMM, 3) \
    X(BR_IF_I32_LE_U_IMM, I32_LE_U_IMM, 3) \
    X(BR_IF_I32_GE_S_IMM, I32_GE_S_IMM, 3) \
    X(BR_IF_I32_GE_U_IMM, I32_GE_U_IMM, 3) \
    X(BR_IF_I64_EQ_IMM, I64_EQ_IMM, 3) \
    X(BR_IF_I64_NE_IMM, I64_NE_IMM, 3) \
    X(BR_IF_I64_LT_S_IMM, I64_LT_S_IMM, 3) \
    X(BR_IF_I64_LT_U_IMM, I64_LT_U_IMM, 3) \
    X(BR_IF_I64_GT_S_IMM, I64_GT_S_IMM, 3) \
    X(BR_IF_I64_GT_U_IMM, I64_GT_U_IMM, 3) \
    X(BR_IF_I64_LE_S_IMM, I64_LE_S_IMM, 3) \
    X(BR_IF_I64_LE_U_IMM, I64_LE_U_IMM, 3) \
    X(BR_IF_I64_GE_S_IMM, I64_GE_S_IMM, 3) \
    X(BR_IF_I64_GE_U_IMM, I64_GE_U_IMM, 3)

/* Every other internal operation: X(NAME, operand count). Operand counts
   of variable-length operations (BR_TABLE) give their fixed part. */
#define CMP_OTHER_OPS(X) \
    X(UNREACHABLE, 0) \
    X(BR, 1)                /* target */ \
    X(BR_IF, 2)             /* cond, target */ \
    X(BR_UNLESS, 2)         /* cond, target */ \
    X(BR_TABLE, 2)          /* index, n, then n + 1 targets */ \
    X(RETURN, 0) \
    X(CALL, 2)              /* function index, frame base slot */ \
    X(CALL_INTERNAL, 2)     /* own function index, frame base slot */ \
    X(CALL_INDIRECT, 4)     /* type index, table, index slot, frame base */ \
    X(LAZY, 0)              /* a stub's only operation: compile, then enter (code.h) */ \
    X(COPY, 2)              /* dst, src */ \
    X(CONST32, 2)           /* dst, imm */ \
    X(CONST64, 3)           /* dst, imm lo, imm hi */ \
    X(SELECT, 4)            /* dst, cond, a (if cond), b */ \
    X(GLOBAL_GET, 2)        /* dst, global */ \
    X(GLOBAL_SET, 2)        /* global, src */ \
    X(LOAD32, 3)            /* dst, address slot, offset */ \
    X(LOAD64, 3) \
    X(LOAD8_U, 3) \
    X(LOAD16_U, 3) \
    X(I32_LOAD8_S, 3) \
    X(I32_LOAD16_S, 3) \
    X(I64_LOAD8_S, 3) \
    X(I64_LOAD16_S, 3) \
    X(I64_LOAD32_S, 3) \
    X(STORE8, 3)            /* address slot, value slot, offset */ \
    X(STORE16, 3) \
    X(STORE32, 3) \
    X(STORE64, 3) \
    X(MEMORY_SIZE, 1)       /* dst */ \
    X(MEMORY_GROW, 2)       /* dst, delta */ \
    X(MEMORY_INIT, 4)       /* segment, d, s, n */ \
    X(DATA_DROP, 1)         /* segment */ \
    X(MEMORY_COPY, 3)       /* d, s, n */ \
    X(MEMORY_FILL, 3)       /* d, value, n */ \
    X(TABLE_GET, 3)         /* dst, table, index */ \
    X(TABLE_SET, 3)         /* table, index, value */ \
    X(TABLE_INIT, 5)        /* table, segment, d, s, n */ \
    X(ELEM_DROP, 1)         /* segment */ \
    X(TABLE_COPY, 5)        /* dst table, src table, d, s, n */ \
    X(TABLE_GROW, 4)        /* dst, table, init, delta */ \
    X(TABLE_SIZE, 2)        /* dst, table */ \
    X(TABLE_FILL, 4)        /* table, d, value, n */ \
    X(REF_IS_NULL, 2)       /* dst, src */ \
    X(ATOMIC_LOAD8, 3)      /* dst, address slot, offset */ \
    X(ATOMIC_LOAD16, 3)      /* dst, address slot, offset */ \
    X(ATOMIC_LOAD32, 3)      /* dst, address slot, offset */ \
    X(ATOMIC_LOAD64, 3)      /* dst, address slot, offset */ \
    X(ATOMIC_STORE8, 3)     /* address slot, value slot, offset */ \
    X(ATOMIC_STORE16, 3)     /* address slot, value slot, offset */ \
    X(ATOMIC_STORE32, 3)     /* address slot, value slot, offset */ \
    X(ATOMIC_STORE64, 3)     /* address slot, value slot, offset */ \
    X(ATOMIC_ADD8, 4) /* dst, address, value, offset */ \
    X(ATOMIC_ADD16, 4) /* dst, address, value, offset */ \
    X(ATOMIC_ADD32, 4) /* dst, address, value, offset */ \
    X(ATOMIC_ADD64, 4) /* dst, address, value, offset */ \
    X(ATOMIC_SUB8, 4) /* dst, address, value, offset */ \
    X(ATOMIC_SUB16, 4) /* dst, address, value, offset */ \
    X(ATOMIC_SUB32, 4) /* dst, address, value, offset */ \
    X(ATOMIC_SUB64, 4) /* dst, address, value, offset */ \
    X(ATOMIC_AND8, 4) /* dst, address, value, offset */ \
    X(ATOMIC_AND16, 4) /* dst, address, value, offset */ \
    X(ATOMIC_AND32, 4) /* dst, address, value, offset */ \
    X(ATOMIC_AND64, 4) /* dst, address, value, offset */ \
    X(ATOMIC_OR8, 4) /* dst, address, value, offset */ \
    X(ATOMIC_OR16, 4) /* dst, address, value, offset */ \
    X(ATOMIC_OR32, 4) /* dst, address, value, offset */ \
    X(ATOMIC_OR64, 4) /* dst, address, value, offset */ \
    X(ATOMIC_XOR8, 4) /* dst, address, value, offset */ \
    X(ATOMIC_XOR16, 4) /* dst, address, value, offset */ \
    X(ATOMIC_XOR32, 4) /* dst, address, value, offset */ \
    X(ATOMIC_XOR64, 4) /* dst, address, value, offset */ \
    X(ATOMIC_XCHG8, 4) /* dst, address, value, offset */ \
    X(ATOMIC_XCHG16, 4) /* dst, address, value, offset */ \
    X(ATOMIC_XCHG32, 4) /* dst, address, value, offset */ \
    X(ATOMIC_XCHG64, 4) /* dst, address, value, offset */ \
    X(ATOMIC_CMPXCHG8, 5) /* dst, address, expected, replacement, offset */ \
    X(ATOMIC_CMPXCHG16, 5) /* dst, address, expected, replacement, offset */ \
    X(ATOMIC_CMPXCHG32, 5) /* dst, address, expected, replacement, offset */ \
    X(ATOMIC_CMPXCHG64, 5) /* dst, address, expected, replacement, offset */ \
    X(ATOMIC_NOTIFY, 4)     /* dst, address, count, offset */ \
    X(ATOMIC_WAIT32, 5)     /* dst, address, expected, timeout, offset */ \
    X(ATOMIC_WAIT64, 5) \
    X(ATOMIC_FENCE, 0) \
    X(LOAD32_ADDI, 4)      /* dst, a, imm, offset: address a + imm */ \
    X(LOAD64_ADDI, 4)      /* dst, a, imm, offset: address a + imm */ \
    X(LOAD8_U_ADDI, 4)     /* dst, a, imm, offset: address a + imm */ \
    X(LOAD16_U_ADDI, 4)    /* dst, a, imm, offset: address a + imm */ \
    X(I32_LOAD8_S_ADDI, 4) /* dst, a, imm, offset: address a + imm */ \
    X(I32_LOAD16_S_ADDI, 4) /* dst, a, imm, offset: address a + imm */ \
    X(I64_LOAD8_S_ADDI, 4) /* dst, a, imm, offset: address a + imm */ \
    X(I64_LOAD16_S_ADDI, 4) /* dst, a, imm, offset: address a + imm */ \
    X(I64_LOAD32_S_ADDI, 4) /* dst, a, imm, offset: address a + imm */ \
    X(LOAD32_ADD, 4)       /* dst, a, b, offset: address a + b */ \
    X(LOAD64_ADD, 4)       /* dst, a, b, offset: address a + b */ \
    X(LOAD8_U_ADD, 4)      /* dst, a, b, offset: address a + b */ \
    X(LOAD16_U_ADD, 4)     /* dst, a, b, offset: address a + b */ \
    X(I32_LOAD8_S_ADD, 4)  /* dst, a, b, offset: address a + b */ \
    X(I32_LOAD16_S_ADD, 4) /* dst, a, b, offset: address a + b */ \
    X(I64_LOAD8_S_ADD, 4)  /* dst, a, b, offset: address a + b */ \
    X(I64_LOAD16_S_ADD, 4) /* dst, a, b, offset: address a + b */ \
    X(I64_LOAD32_S_ADD, 4) /* dst, a, b, offset: address a + b */ \
    X(COPY2, 4)             /* dst1, src1, dst2, src2: two copies in order */ \
    X(I32_SHR_U_AND, 4)     /* dst, a, shift, mask: a bit field */ \
    X(I32_XOR_ROTL, 4)      /* dst, a, b, k: a ^ rotl(b, k), a hash round */ \
    X(I32_ADD3, 4)          /* dst, a, b, c: a + b + c */ \
    X(F64_ADD_LD, 4)        /* dst, a, address, offset: a + the f64 loaded */ \
    X(F64_SUB_LD, 4) \
    X(F64_MUL_LD, 4) \
    X(F32_ADD_LD, 4) \
    X(F32_SUB_LD, 4) \
    X(F32_MUL_LD, 4) \
    X(I32_ADD_LD, 4) \
    X(REF_FUNC, 2)          /* dst, function index */ \
    X(COPY128, 2)           /* dst, src: a v128 (two slots) */ \
    X(SELECT128, 4)         /* dst, cond, a (if cond), b: v128 operands */ \
    X(GLOBAL_GET128, 2)     /* dst, global */ \
    X(GLOBAL_SET128, 2)     /* global, src */ \
    X(I8X16_SHUFFLE1, 6)    /* dst, a, 4 words of byte mask: a shuffle of one */ \
                            /* operand with zeros (see I8X16_SHUFFLE) */ \
    X(V128_LOAD_ADDI, 4)    /* dst, a, imm, offset: v128.load of a + imm */ \
    X(V128_LOAD_ADD, 4)     /* dst, a, b, offset: v128.load of a + b */ \
    X(F32X4_ADD_LD, 4)      /* dst, a, address, offset: a + the v128 loaded */ \
    X(F32X4_SUB_LD, 4) \
    X(F32X4_MUL_LD, 4) \
    X(F64X2_ADD_LD, 4) \
    X(F64X2_SUB_LD, 4) \
    X(F64X2_MUL_LD, 4) \
    X(I32X4_ADD_LD, 4) \
    X(I16X8_ADD_LD, 4) \
    X(I8X16_ADD_LD, 4) \
    X(F32X4_MUL_ADD_LD, 6)  /* dst, a, address, offset, address2, offset2: */ \
    X(F64X2_MUL_ADD_LD, 6)  /* a * v128 at address + v128 at address2 (axpy) */

/* Pairs (super-instructions): an operation and the one that follows it in
   the code, run by one dispatch. After a function is compiled, the pass in
   pairs.c replaces the first operation's word by the pair's; the words of
   both operations stay as they were, so a branch to the second still runs
   it alone, a pair's length is its first operation's, and a trap in the
   second reports the second's position. X(FIRST, SECOND, how): SEQ runs
   both bodies in the one handler (with two dependent forms, _D1 and _D2,
   for a second whose first or second input is the first's result: see
   CMP_PAIR_INPUTS); TAIL runs the first's and jumps straight to the
   second's handler (calls and returns, whose bodies leave the loop's
   straight line). The rows are data: CMP_PAIR_OPS(X) is in pairs_list.h,
   written by tools/pairs/pairs.py from the profiles of the pair corpus
   (bench/corpus/list) within a budget of pairs and compile time (issue 22;
   bench/README.md, "Choosing the pairs"). Only operations listed in
   CMP_PAIR_INPUTS below can be paired. */
#include "pairs_list.h"

/* The operations pairs are made of, with the words naming their inputs
   (0: none) and whether word 1 is the slot they write: X(NAME, in1, in2,
   dst). A pair whose second reads the first's result (its word in1 or in2
   names the first's dst) runs as the pair's dependent form, which reads
   the value through the first's own word: the C compiler then sees one
   slot and keeps the value in a register instead of reloading the store
   it has just made (a store-to-load round trip on the critical path). */
#define CMP_PAIR_INPUTS(X) \
    X(I32_EQZ, 2, 0, 1) \
    X(F64_SQRT, 2, 0, 1) \
    X(COPY, 2, 0, 1) \
    X(LOAD32, 2, 0, 1) \
    X(LOAD64, 2, 0, 1) \
    X(LOAD8_U, 2, 0, 1) \
    X(LOAD16_U, 2, 0, 1) \
    X(I32_LOAD16_S, 2, 0, 1) \
    X(LOAD32_ADDI, 2, 0, 1) \
    X(LOAD64_ADDI, 2, 0, 1) \
    X(I32_LOAD16_S_ADDI, 2, 0, 1) \
    X(LOAD8_U_ADDI, 2, 0, 1) \
    X(LOAD16_U_ADDI, 2, 0, 1) \
    X(I32_SHR_U_AND, 2, 0, 1) \
    X(I32_ADD_IMM, 2, 0, 1) \
    X(I32_SUB_IMM, 2, 0, 1) \
    X(I32_MUL_IMM, 2, 0, 1) \
    X(I32_AND_IMM, 2, 0, 1) \
    X(I32_XOR_IMM, 2, 0, 1) \
    X(I32_SHL_IMM, 2, 0, 1) \
    X(I32_SHR_S_IMM, 2, 0, 1) \
    X(I32_SHR_U_IMM, 2, 0, 1) \
    X(I64_ADD_IMM, 2, 0, 1) \
    X(I32_ROTL_IMM, 2, 0, 1) \
    X(I32_LT_S_IMM, 2, 0, 1) \
    X(I32_GT_U_IMM, 2, 0, 1) \
    X(I32_LT_U, 2, 3, 1) \
    X(I32_GT_S, 2, 3, 1) \
    X(I32_GT_U, 2, 3, 1) \
    X(I32_ADD, 2, 3, 1) \
    X(I32_SUB, 2, 3, 1) \
    X(I32_MUL, 2, 3, 1) \
    X(I32_AND, 2, 3, 1) \
    X(I32_XOR, 2, 3, 1) \
    X(I64_ADD, 2, 3, 1) \
    X(F64_ADD, 2, 3, 1) \
    X(F64_SUB, 2, 3, 1) \
    X(F64_MUL, 2, 3, 1) \
    X(F64_DIV, 2, 3, 1) \
    X(LOAD32_ADD, 2, 3, 1) \
    X(I32_ADD3, 2, 3, 1) \
    X(I32_XOR_ROTL, 2, 3, 1) \
    X(F64_ADD_LD, 2, 3, 1) \
    X(F64_MUL_LD, 2, 3, 1) \
    X(I32_ADD_LD, 2, 3, 1) \
    X(COPY2, 2, 4, 1) \
    X(SELECT, 3, 4, 1) \
    X(GLOBAL_GET, 0, 0, 1) \
    X(GLOBAL_SET, 2, 0, 0) \
    X(STORE8, 1, 2, 0) \
    X(STORE32, 1, 2, 0) \
    X(STORE64, 1, 2, 0) \
    X(BR, 0, 0, 0) \
    X(BR_IF, 1, 0, 0) \
    X(BR_TABLE, 1, 0, 0) \
    X(BR_IF_I32_EQZ, 1, 0, 0) \
    X(BR_IF_I32_EQ_IMM, 1, 0, 0) \
    X(BR_IF_I32_NE_IMM, 1, 0, 0) \
    X(BR_IF_I32_LT_U_IMM, 1, 0, 0) \
    X(BR_IF_I32_GT_U_IMM, 1, 0, 0) \
    X(BR_IF_I32_EQ, 1, 2, 0) \
    X(BR_IF_I32_NE, 1, 2, 0) \
    X(BR_IF_I32_LT_U, 1, 2, 0) \
    X(BR_IF_I32_GT_U, 1, 2, 0) \
    X(BR_IF_I32_GT_S, 1, 2, 0) \
    X(BR_IF_I32_LE_S, 1, 2, 0) \
    X(BR_IF_I64_NE, 1, 2, 0) \
    X(I64_EQZ, 2, 0, 1) \
    X(I64_SUB, 2, 3, 1) \
    X(I32_WRAP_I64, 2, 0, 1) \
    X(F64_SUB_LD, 2, 3, 1) \
    X(I64_SUB_IMM, 2, 0, 1) \
    X(I64_AND_IMM, 2, 0, 1) \
    X(I64_SHL_IMM, 2, 0, 1) \
    X(BR_IF_I64_EQ, 1, 2, 0) \
    X(BR_IF_I64_LT_U, 1, 2, 0) \
    X(BR_IF_I64_GE_S, 1, 2, 0) \
    X(BR_IF_I64_EQ_IMM, 1, 0, 0) \
    X(BR_IF_I64_LT_S_IMM, 1, 0, 0) \
    X(BR_IF_I64_GT_S_IMM, 1, 0, 0) \
    X(BR_IF_I64_NEZ, 1, 0, 0) \
    X(BR_UNLESS, 1, 0, 0) \
    X(RETURN, 0, 0, 0) \
    X(CALL_INTERNAL, 0, 0, 0) \
    X(CALL_INDIRECT, 0, 0, 0)

typedef enum cmp_op {
#define CMP_X_NUM(name, code, arity, rt, at) CMP_##name,
#define CMP_X_OTHER(name, n) CMP_##name,
#define CMP_X_FUSED(name, cmp, n) CMP_##name,
#define CMP_X_IMM(name, base) CMP_##name,
#define CMP_X_SIMD(name, sub, kind, n, t) CMP_##name,
    CMP_NUMERIC_OPS(CMP_X_NUM)
    CMP_OTHER_OPS(CMP_X_OTHER)
    CMP_FUSED_BRANCH_OPS(CMP_X_FUSED)
    CMP_IMM_OPS(CMP_X_IMM)
    CMP_SIMD_OPS(CMP_X_SIMD)
#define CMP_PAIR_ENUM_SEQ(a, b) CMP_##a##__##b, CMP_##a##__##b##__D1, CMP_##a##__##b##__D2,
#define CMP_PAIR_ENUM_TAIL(a, b) CMP_##a##__##b,
#define CMP_X_PAIR(a, b, how) CMP_PAIR_ENUM_##how(a, b)
    CMP_PAIR_OPS(CMP_X_PAIR)
#undef CMP_X_PAIR
#undef CMP_X_SIMD
#undef CMP_X_IMM
#undef CMP_X_FUSED
#undef CMP_X_NUM
#undef CMP_X_OTHER
    CMP_OP_COUNT
} cmp_op;

/* Words taken by each operation, operands included: CMP_LEN_I32_ADD is 4
   (BR_TABLE: its fixed part). */
enum {
#define CMP_X_NUM(name, code, arity, rt, at) CMP_LEN_##name = (arity) + 2,
#define CMP_X_OTHER(name, n) CMP_LEN_##name = (n) + 1,
#define CMP_X_FUSED(name, cmp, n) CMP_LEN_##name = (n) + 1,
#define CMP_X_IMM(name, base) CMP_LEN_##name = 4,
#define CMP_X_SIMD(name, sub, kind, n, t) CMP_LEN_##name = CMP_SIMD_OPERAND_COUNT(kind) + 1,
    CMP_NUMERIC_OPS(CMP_X_NUM)
    CMP_OTHER_OPS(CMP_X_OTHER)
    CMP_FUSED_BRANCH_OPS(CMP_X_FUSED)
    CMP_IMM_OPS(CMP_X_IMM)
    CMP_SIMD_OPS(CMP_X_SIMD)
#undef CMP_X_SIMD
#undef CMP_X_IMM
#undef CMP_X_FUSED
#undef CMP_X_NUM
#undef CMP_X_OTHER
};

/* CMP_IN1_<name>, CMP_IN2_<name>, CMP_DST_<name> (CMP_PAIR_INPUTS). */
enum {
#define CMP_X_INPUTS(name, in1, in2, dst) CMP_IN1_##name = in1, CMP_IN2_##name = in2, CMP_DST_##name = dst,
    CMP_PAIR_INPUTS(CMP_X_INPUTS)
#undef CMP_X_INPUTS
};

#endif
