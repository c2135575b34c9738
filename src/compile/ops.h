/*
 * ops.h — the operations table: one row per internal operation of the
 * compiled code format (docs/code-format.md), and every other list of
 * operations in the tree is expanded from it: the cmp_op enum, the
 * interpreter's labels and generated handlers, the names the
 * disassembler prints, lengths, the inputs pairs read, tail duplication's
 * classes, the validator's and translator's numeric and SIMD tables.
 *
 * A row is
 *
 *     X(NAME, WASM, CLASS, SHAPE, RT, AT, N, OF, EFFECTS)
 *
 *  NAME     the operation: CMP_NAME in cmp_op, BODY_NAME in interp.c.
 *  WASM     the wasm instruction it is, where it is exactly one: 0x00-0xFF,
 *           0xFCnn / 0xFDnn / 0xFEnn for the prefixed ones (0xFDnnn for
 *           the SIMD sub-opcodes 0x100 and up, relaxed SIMD); -1 for the
 *           operations only the compiler makes (immediate forms, fusions)
 *           and for those several wasm instructions share (loads, stores,
 *           atomics: see CMP_WASM_MEMORY and CMP_WASM_ATOMIC below).
 *  CLASS    what kind of operation it is (cmp_class below).
 *  SHAPE    its operand words and their roles, one letter a word, in order:
 *             D  the slot it writes (its output)
 *             S  a slot it reads (an input); the first two are the
 *                "values" the handler body receives (interp.c)
 *             X  a slot it reads that is not passed as a value (read by the
 *                body from its word: SELECT's condition, COPY2's second
 *                source, which must be read after its first store)
 *             V  a v128 operand (two slots, read by the body)
 *             I  an immediate (constant, offset, index; I4: four words)
 *             T  a branch target (relative to the word holding it)
 *             B  a call's frame base slot (arguments in, results out)
 *           SIMD rows name their kind (cmp_simd_kind) instead, whose
 *           words are listed with it; CMP_SHAPE_* below gives every
 *           shape's operand count, input words, output and target word.
 *  RT, AT   result and operand type (the operand type of a binary
 *           operation's both operands; of a SIMD row, the scalar operand
 *           or result); _ when none or not fixed.
 *  N        bytes accessed for memory operations, lanes for SIMD lane
 *           operations (simd.c); else 0.
 *  OF       the operation this one specialises: the operation an immediate
 *           form (class IMM) takes a constant operand of, which is how the
 *           translator finds it; the comparison of a compare-and-branch;
 *           the load of a fused address; the arithmetic of a fused load
 *           operand. _ for the others.
 *  EFFECTS  0, TRAP (may trap), SAFE (a safe point: may read the attention
 *           word and stop there, so a resumed execution continues on it:
 *           taken branches, function entry, waits) or TRAP_SAFE.
 *
 * Adding an operation is one row here plus one handler body in interp.c
 * (`#define BODY_NAME(a_, b_) ...`, docs/code-format.md): the enum,
 * label, handler, name, length and pair inputs follow from the row.
 *
 * Loads, stores and atomics are the one place where wasm instructions map
 * many-to-one onto operations (i32.load, f32.load and i64.load32_u are all
 * LOAD32: slots hold zero-extended bits). Their decoding is a table of wasm
 * instructions, CMP_WASM_MEMORY and CMP_WASM_ATOMIC, each row naming the
 * operation it becomes; it holds only what the wasm instruction adds (its
 * value type), never a second copy of an operation's attributes.
 */
#ifndef WEFT_OPS_H
#define WEFT_OPS_H

/* CLASS: what an operation is. */
typedef enum cmp_class {
    CMP_CLASS_NUM,    /* a wasm numeric instruction (§4.4.1), one to one */
    CMP_CLASS_IMM,    /* dst, a, imm: a binary operation OF with a constant second operand */
    CMP_CLASS_ALU,    /* other arithmetic only the compiler makes (fusions) */
    CMP_CLASS_VAR,    /* copies, constants, select, globals */
    CMP_CLASS_MEM,    /* memory: loads, stores (plain and fused), memory.* */
    CMP_CLASS_TABLE,  /* tables and references */
    CMP_CLASS_BR,     /* conditional branches: jump or fall through */
    CMP_CLASS_JUMP,   /* unconditional transfers, which end straight-line code */
    CMP_CLASS_CALL,   /* calls (and LAZY, a stub's entry) */
    CMP_CLASS_ATOMIC, /* the threads proposal's atomic memory operations */
    CMP_CLASS_SIMD,   /* a wasm SIMD instruction (0xFD prefix), one to one */
    CMP_CLASS_VEC,    /* v128 operations only the compiler makes */
} cmp_class;

/* EFFECTS. */
enum { CMP_FX_0 = 0, CMP_FX_TRAP = 1, CMP_FX_SAFE = 2, CMP_FX_TRAP_SAFE = 3 };

/* RT, AT: value types (weft.h), _ none. */
#define CMP_TY__ 0
#define CMP_TY_I32 WEFT_I32
#define CMP_TY_I64 WEFT_I64
#define CMP_TY_F32 WEFT_F32
#define CMP_TY_F64 WEFT_F64

/* The SIMD rows' kinds: how simd.c validates and translates each, and
   its operand words. A v128 occupies two consecutive slots (low 8 bytes
   first); operands name the first. */
typedef enum cmp_simd_kind {
    SV_LOAD,       /* dst, address slot, offset */
    SV_STORE,      /* address slot, value slot, offset */
    SV_LOAD_LANE,  /* dst, address slot, vector slot, offset, lane */
    SV_STORE_LANE, /* address slot, vector slot, offset, lane */
    SV_CONST,      /* dst, 4 words of bytes */
    SV_SHUFFLE,    /* dst, a, b, 4 words: a's byte mask, 4 words: b's */
    SV_SPLAT,      /* dst, scalar */
    SV_EXTRACT,    /* dst (scalar), a, lane */
    SV_REPLACE,    /* dst, a, scalar, lane */
    SV_UN,         /* dst, a */
    SV_BIN,        /* dst, a, b */
    SV_TERN,       /* dst, a, b, c (bitselect) */
    SV_TEST,       /* dst (i32), a */
    SV_SHIFT,      /* dst, a, count (i32) */
} cmp_simd_kind;

/* Each shape: operand words, the words of input values 1 and 2 (0: none),
   whether word 1 is the output slot, the branch target's word (0: none;
   BR_TABLE's n + 1 targets follow its fixed part, S_TABLE). */
#define CMP_SHAPE_D              1, 0, 0, 1, 0
#define CMP_SHAPE_D_I            2, 0, 0, 1, 0
#define CMP_SHAPE_D_I_I          3, 0, 0, 1, 0
#define CMP_SHAPE_D_I_S          3, 3, 0, 1, 0
#define CMP_SHAPE_D_I_S_S        4, 3, 4, 1, 0
#define CMP_SHAPE_D_S            2, 2, 0, 1, 0
#define CMP_SHAPE_D_S_D_X        4, 2, 0, 1, 0
#define CMP_SHAPE_D_S_I          3, 2, 0, 1, 0
#define CMP_SHAPE_D_S_I_I        4, 2, 0, 1, 0
#define CMP_SHAPE_D_S_I_I_I_I_I  7, 2, 0, 1, 0
#define CMP_SHAPE_D_S_S          3, 2, 3, 1, 0
#define CMP_SHAPE_D_S_S_I        4, 2, 3, 1, 0
#define CMP_SHAPE_D_S_S_S        4, 2, 3, 1, 0
#define CMP_SHAPE_D_S_S_S_I      5, 2, 3, 1, 0
#define CMP_SHAPE_D_S_V_V        4, 2, 0, 1, 0
#define CMP_SHAPE_D_V            2, 0, 0, 1, 0
#define CMP_SHAPE_D_V_I4         6, 0, 0, 1, 0
#define CMP_SHAPE_D_V_S_I        4, 3, 0, 1, 0
#define CMP_SHAPE_D_V_S_I_S_I    6, 3, 5, 1, 0
#define CMP_SHAPE_D_X_S_S        4, 3, 4, 1, 0
#define CMP_SHAPE_I              1, 0, 0, 0, 0
#define CMP_SHAPE_I_B            2, 0, 0, 0, 0
#define CMP_SHAPE_I_I_B          3, 0, 0, 0, 0
#define CMP_SHAPE_I_I_S_B_I      5, 3, 0, 0, 0
#define CMP_SHAPE_S              1, 1, 0, 0, 0
#define CMP_SHAPE_S_B            2, 1, 0, 0, 0
#define CMP_SHAPE_S_B_I          3, 1, 0, 0, 0
#define CMP_SHAPE_I_I_S_B        4, 3, 0, 0, 0
#define CMP_SHAPE_I_I_S_S_S      5, 3, 4, 0, 0
#define CMP_SHAPE_I_S            2, 2, 0, 0, 0
#define CMP_SHAPE_I_S_S          3, 2, 3, 0, 0
#define CMP_SHAPE_I_S_S_S        4, 2, 3, 0, 0
#define CMP_SHAPE_I_V            2, 0, 0, 0, 0
#define CMP_SHAPE_NONE           0, 0, 0, 0, 0
#define CMP_SHAPE_SV_BIN         3, 0, 0, 1, 0
#define CMP_SHAPE_SV_CONST       5, 0, 0, 1, 0
#define CMP_SHAPE_SV_EXTRACT     3, 0, 0, 1, 0
#define CMP_SHAPE_SV_LOAD        3, 2, 0, 1, 0
#define CMP_SHAPE_SV_LOAD_LANE   5, 2, 0, 1, 0
#define CMP_SHAPE_SV_REPLACE     4, 3, 0, 1, 0
#define CMP_SHAPE_SV_SHIFT       3, 3, 0, 1, 0
#define CMP_SHAPE_SV_SHUFFLE     11, 0, 0, 1, 0
#define CMP_SHAPE_SV_SPLAT       2, 2, 0, 1, 0
#define CMP_SHAPE_SV_STORE       3, 1, 0, 0, 0
#define CMP_SHAPE_SV_STORE_LANE  4, 1, 0, 0, 0
#define CMP_SHAPE_SV_TERN        4, 0, 0, 1, 0
#define CMP_SHAPE_SV_TEST        2, 0, 0, 1, 0
#define CMP_SHAPE_SV_UN          2, 0, 0, 1, 0
#define CMP_SHAPE_S_I_T          3, 1, 0, 0, 3
#define CMP_SHAPE_S_S_I          3, 1, 2, 0, 0
#define CMP_SHAPE_S_S_S          3, 1, 2, 0, 0
#define CMP_SHAPE_S_S_T          3, 1, 2, 0, 3
#define CMP_SHAPE_S_T            2, 1, 0, 0, 2
#define CMP_SHAPE_S_TABLE        2, 1, 0, 0, 0
#define CMP_SHAPE_T              1, 0, 0, 0, 1
#define CMP_SHAPE_ARG0_(n, i1, i2, d, t) n
#define CMP_SHAPE_ARG1_(n, i1, i2, d, t) i1
#define CMP_SHAPE_ARG2_(n, i1, i2, d, t) i2
#define CMP_SHAPE_ARG3_(n, i1, i2, d, t) d
#define CMP_SHAPE_ARG4_(n, i1, i2, d, t) t
#define CMP_SHAPE_GET_(k, ...) CMP_SHAPE_ARG##k##_(__VA_ARGS__)
#define CMP_SHAPE_GET(k, shape) CMP_SHAPE_GET_(k, CMP_SHAPE_##shape)

/* The operations. Rows are grouped by class; the order is the enum's (the
   translator relies on CMP_I32_ADD_IMM .. CMP_I64_GE_U_IMM being one run). */
#define CMP_OPS(X) \
    X(I32_EQZ,                       0x45,   NUM,    D_S,           I32, I32, 0,  _,            0) \
    X(I32_EQ,                        0x46,   NUM,    D_S_S,         I32, I32, 0,  _,            0) \
    X(I32_NE,                        0x47,   NUM,    D_S_S,         I32, I32, 0,  _,            0) \
    X(I32_LT_S,                      0x48,   NUM,    D_S_S,         I32, I32, 0,  _,            0) \
    X(I32_LT_U,                      0x49,   NUM,    D_S_S,         I32, I32, 0,  _,            0) \
    X(I32_GT_S,                      0x4A,   NUM,    D_S_S,         I32, I32, 0,  _,            0) \
    X(I32_GT_U,                      0x4B,   NUM,    D_S_S,         I32, I32, 0,  _,            0) \
    X(I32_LE_S,                      0x4C,   NUM,    D_S_S,         I32, I32, 0,  _,            0) \
    X(I32_LE_U,                      0x4D,   NUM,    D_S_S,         I32, I32, 0,  _,            0) \
    X(I32_GE_S,                      0x4E,   NUM,    D_S_S,         I32, I32, 0,  _,            0) \
    X(I32_GE_U,                      0x4F,   NUM,    D_S_S,         I32, I32, 0,  _,            0) \
    X(I64_EQZ,                       0x50,   NUM,    D_S,           I32, I64, 0,  _,            0) \
    X(I64_EQ,                        0x51,   NUM,    D_S_S,         I32, I64, 0,  _,            0) \
    X(I64_NE,                        0x52,   NUM,    D_S_S,         I32, I64, 0,  _,            0) \
    X(I64_LT_S,                      0x53,   NUM,    D_S_S,         I32, I64, 0,  _,            0) \
    X(I64_LT_U,                      0x54,   NUM,    D_S_S,         I32, I64, 0,  _,            0) \
    X(I64_GT_S,                      0x55,   NUM,    D_S_S,         I32, I64, 0,  _,            0) \
    X(I64_GT_U,                      0x56,   NUM,    D_S_S,         I32, I64, 0,  _,            0) \
    X(I64_LE_S,                      0x57,   NUM,    D_S_S,         I32, I64, 0,  _,            0) \
    X(I64_LE_U,                      0x58,   NUM,    D_S_S,         I32, I64, 0,  _,            0) \
    X(I64_GE_S,                      0x59,   NUM,    D_S_S,         I32, I64, 0,  _,            0) \
    X(I64_GE_U,                      0x5A,   NUM,    D_S_S,         I32, I64, 0,  _,            0) \
    X(F32_EQ,                        0x5B,   NUM,    D_S_S,         I32, F32, 0,  _,            0) \
    X(F32_NE,                        0x5C,   NUM,    D_S_S,         I32, F32, 0,  _,            0) \
    X(F32_LT,                        0x5D,   NUM,    D_S_S,         I32, F32, 0,  _,            0) \
    X(F32_GT,                        0x5E,   NUM,    D_S_S,         I32, F32, 0,  _,            0) \
    X(F32_LE,                        0x5F,   NUM,    D_S_S,         I32, F32, 0,  _,            0) \
    X(F32_GE,                        0x60,   NUM,    D_S_S,         I32, F32, 0,  _,            0) \
    X(F64_EQ,                        0x61,   NUM,    D_S_S,         I32, F64, 0,  _,            0) \
    X(F64_NE,                        0x62,   NUM,    D_S_S,         I32, F64, 0,  _,            0) \
    X(F64_LT,                        0x63,   NUM,    D_S_S,         I32, F64, 0,  _,            0) \
    X(F64_GT,                        0x64,   NUM,    D_S_S,         I32, F64, 0,  _,            0) \
    X(F64_LE,                        0x65,   NUM,    D_S_S,         I32, F64, 0,  _,            0) \
    X(F64_GE,                        0x66,   NUM,    D_S_S,         I32, F64, 0,  _,            0) \
    X(I32_CLZ,                       0x67,   NUM,    D_S,           I32, I32, 0,  _,            0) \
    X(I32_CTZ,                       0x68,   NUM,    D_S,           I32, I32, 0,  _,            0) \
    X(I32_POPCNT,                    0x69,   NUM,    D_S,           I32, I32, 0,  _,            0) \
    X(I32_ADD,                       0x6A,   NUM,    D_S_S,         I32, I32, 0,  _,            0) \
    X(I32_SUB,                       0x6B,   NUM,    D_S_S,         I32, I32, 0,  _,            0) \
    X(I32_MUL,                       0x6C,   NUM,    D_S_S,         I32, I32, 0,  _,            0) \
    X(I32_DIV_S,                     0x6D,   NUM,    D_S_S,         I32, I32, 0,  _,            TRAP) \
    X(I32_DIV_U,                     0x6E,   NUM,    D_S_S,         I32, I32, 0,  _,            TRAP) \
    X(I32_REM_S,                     0x6F,   NUM,    D_S_S,         I32, I32, 0,  _,            TRAP) \
    X(I32_REM_U,                     0x70,   NUM,    D_S_S,         I32, I32, 0,  _,            TRAP) \
    X(I32_AND,                       0x71,   NUM,    D_S_S,         I32, I32, 0,  _,            0) \
    X(I32_OR,                        0x72,   NUM,    D_S_S,         I32, I32, 0,  _,            0) \
    X(I32_XOR,                       0x73,   NUM,    D_S_S,         I32, I32, 0,  _,            0) \
    X(I32_SHL,                       0x74,   NUM,    D_S_S,         I32, I32, 0,  _,            0) \
    X(I32_SHR_S,                     0x75,   NUM,    D_S_S,         I32, I32, 0,  _,            0) \
    X(I32_SHR_U,                     0x76,   NUM,    D_S_S,         I32, I32, 0,  _,            0) \
    X(I32_ROTL,                      0x77,   NUM,    D_S_S,         I32, I32, 0,  _,            0) \
    X(I32_ROTR,                      0x78,   NUM,    D_S_S,         I32, I32, 0,  _,            0) \
    X(I64_CLZ,                       0x79,   NUM,    D_S,           I64, I64, 0,  _,            0) \
    X(I64_CTZ,                       0x7A,   NUM,    D_S,           I64, I64, 0,  _,            0) \
    X(I64_POPCNT,                    0x7B,   NUM,    D_S,           I64, I64, 0,  _,            0) \
    X(I64_ADD,                       0x7C,   NUM,    D_S_S,         I64, I64, 0,  _,            0) \
    X(I64_SUB,                       0x7D,   NUM,    D_S_S,         I64, I64, 0,  _,            0) \
    X(I64_MUL,                       0x7E,   NUM,    D_S_S,         I64, I64, 0,  _,            0) \
    X(I64_DIV_S,                     0x7F,   NUM,    D_S_S,         I64, I64, 0,  _,            TRAP) \
    X(I64_DIV_U,                     0x80,   NUM,    D_S_S,         I64, I64, 0,  _,            TRAP) \
    X(I64_REM_S,                     0x81,   NUM,    D_S_S,         I64, I64, 0,  _,            TRAP) \
    X(I64_REM_U,                     0x82,   NUM,    D_S_S,         I64, I64, 0,  _,            TRAP) \
    X(I64_AND,                       0x83,   NUM,    D_S_S,         I64, I64, 0,  _,            0) \
    X(I64_OR,                        0x84,   NUM,    D_S_S,         I64, I64, 0,  _,            0) \
    X(I64_XOR,                       0x85,   NUM,    D_S_S,         I64, I64, 0,  _,            0) \
    X(I64_SHL,                       0x86,   NUM,    D_S_S,         I64, I64, 0,  _,            0) \
    X(I64_SHR_S,                     0x87,   NUM,    D_S_S,         I64, I64, 0,  _,            0) \
    X(I64_SHR_U,                     0x88,   NUM,    D_S_S,         I64, I64, 0,  _,            0) \
    X(I64_ROTL,                      0x89,   NUM,    D_S_S,         I64, I64, 0,  _,            0) \
    X(I64_ROTR,                      0x8A,   NUM,    D_S_S,         I64, I64, 0,  _,            0) \
    X(F32_ABS,                       0x8B,   NUM,    D_S,           F32, F32, 0,  _,            0) \
    X(F32_NEG,                       0x8C,   NUM,    D_S,           F32, F32, 0,  _,            0) \
    X(F32_CEIL,                      0x8D,   NUM,    D_S,           F32, F32, 0,  _,            0) \
    X(F32_FLOOR,                     0x8E,   NUM,    D_S,           F32, F32, 0,  _,            0) \
    X(F32_TRUNC,                     0x8F,   NUM,    D_S,           F32, F32, 0,  _,            0) \
    X(F32_NEAREST,                   0x90,   NUM,    D_S,           F32, F32, 0,  _,            0) \
    X(F32_SQRT,                      0x91,   NUM,    D_S,           F32, F32, 0,  _,            0) \
    X(F32_ADD,                       0x92,   NUM,    D_S_S,         F32, F32, 0,  _,            0) \
    X(F32_SUB,                       0x93,   NUM,    D_S_S,         F32, F32, 0,  _,            0) \
    X(F32_MUL,                       0x94,   NUM,    D_S_S,         F32, F32, 0,  _,            0) \
    X(F32_DIV,                       0x95,   NUM,    D_S_S,         F32, F32, 0,  _,            0) \
    X(F32_MIN,                       0x96,   NUM,    D_S_S,         F32, F32, 0,  _,            0) \
    X(F32_MAX,                       0x97,   NUM,    D_S_S,         F32, F32, 0,  _,            0) \
    X(F32_COPYSIGN,                  0x98,   NUM,    D_S_S,         F32, F32, 0,  _,            0) \
    X(F64_ABS,                       0x99,   NUM,    D_S,           F64, F64, 0,  _,            0) \
    X(F64_NEG,                       0x9A,   NUM,    D_S,           F64, F64, 0,  _,            0) \
    X(F64_CEIL,                      0x9B,   NUM,    D_S,           F64, F64, 0,  _,            0) \
    X(F64_FLOOR,                     0x9C,   NUM,    D_S,           F64, F64, 0,  _,            0) \
    X(F64_TRUNC,                     0x9D,   NUM,    D_S,           F64, F64, 0,  _,            0) \
    X(F64_NEAREST,                   0x9E,   NUM,    D_S,           F64, F64, 0,  _,            0) \
    X(F64_SQRT,                      0x9F,   NUM,    D_S,           F64, F64, 0,  _,            0) \
    X(F64_ADD,                       0xA0,   NUM,    D_S_S,         F64, F64, 0,  _,            0) \
    X(F64_SUB,                       0xA1,   NUM,    D_S_S,         F64, F64, 0,  _,            0) \
    X(F64_MUL,                       0xA2,   NUM,    D_S_S,         F64, F64, 0,  _,            0) \
    X(F64_DIV,                       0xA3,   NUM,    D_S_S,         F64, F64, 0,  _,            0) \
    X(F64_MIN,                       0xA4,   NUM,    D_S_S,         F64, F64, 0,  _,            0) \
    X(F64_MAX,                       0xA5,   NUM,    D_S_S,         F64, F64, 0,  _,            0) \
    X(F64_COPYSIGN,                  0xA6,   NUM,    D_S_S,         F64, F64, 0,  _,            0) \
    X(I32_WRAP_I64,                  0xA7,   NUM,    D_S,           I32, I64, 0,  _,            0) \
    X(I32_TRUNC_F32_S,               0xA8,   NUM,    D_S,           I32, F32, 0,  _,            TRAP) \
    X(I32_TRUNC_F32_U,               0xA9,   NUM,    D_S,           I32, F32, 0,  _,            TRAP) \
    X(I32_TRUNC_F64_S,               0xAA,   NUM,    D_S,           I32, F64, 0,  _,            TRAP) \
    X(I32_TRUNC_F64_U,               0xAB,   NUM,    D_S,           I32, F64, 0,  _,            TRAP) \
    X(I64_EXTEND_I32_S,              0xAC,   NUM,    D_S,           I64, I32, 0,  _,            0) \
    X(I64_TRUNC_F32_S,               0xAE,   NUM,    D_S,           I64, F32, 0,  _,            TRAP) \
    X(I64_TRUNC_F32_U,               0xAF,   NUM,    D_S,           I64, F32, 0,  _,            TRAP) \
    X(I64_TRUNC_F64_S,               0xB0,   NUM,    D_S,           I64, F64, 0,  _,            TRAP) \
    X(I64_TRUNC_F64_U,               0xB1,   NUM,    D_S,           I64, F64, 0,  _,            TRAP) \
    X(F32_CONVERT_I32_S,             0xB2,   NUM,    D_S,           F32, I32, 0,  _,            0) \
    X(F32_CONVERT_I32_U,             0xB3,   NUM,    D_S,           F32, I32, 0,  _,            0) \
    X(F32_CONVERT_I64_S,             0xB4,   NUM,    D_S,           F32, I64, 0,  _,            0) \
    X(F32_CONVERT_I64_U,             0xB5,   NUM,    D_S,           F32, I64, 0,  _,            0) \
    X(F32_DEMOTE_F64,                0xB6,   NUM,    D_S,           F32, F64, 0,  _,            0) \
    X(F64_CONVERT_I32_S,             0xB7,   NUM,    D_S,           F64, I32, 0,  _,            0) \
    X(F64_CONVERT_I32_U,             0xB8,   NUM,    D_S,           F64, I32, 0,  _,            0) \
    X(F64_CONVERT_I64_S,             0xB9,   NUM,    D_S,           F64, I64, 0,  _,            0) \
    X(F64_CONVERT_I64_U,             0xBA,   NUM,    D_S,           F64, I64, 0,  _,            0) \
    X(F64_PROMOTE_F32,               0xBB,   NUM,    D_S,           F64, F32, 0,  _,            0) \
    X(I32_EXTEND8_S,                 0xC0,   NUM,    D_S,           I32, I32, 0,  _,            0) \
    X(I32_EXTEND16_S,                0xC1,   NUM,    D_S,           I32, I32, 0,  _,            0) \
    X(I64_EXTEND8_S,                 0xC2,   NUM,    D_S,           I64, I64, 0,  _,            0) \
    X(I64_EXTEND16_S,                0xC3,   NUM,    D_S,           I64, I64, 0,  _,            0) \
    X(I64_EXTEND32_S,                0xC4,   NUM,    D_S,           I64, I64, 0,  _,            0) \
    X(I32_TRUNC_SAT_F32_S,           0xFC00, NUM,    D_S,           I32, F32, 0,  _,            0) \
    X(I32_TRUNC_SAT_F32_U,           0xFC01, NUM,    D_S,           I32, F32, 0,  _,            0) \
    X(I32_TRUNC_SAT_F64_S,           0xFC02, NUM,    D_S,           I32, F64, 0,  _,            0) \
    X(I32_TRUNC_SAT_F64_U,           0xFC03, NUM,    D_S,           I32, F64, 0,  _,            0) \
    X(I64_TRUNC_SAT_F32_S,           0xFC04, NUM,    D_S,           I64, F32, 0,  _,            0) \
    X(I64_TRUNC_SAT_F32_U,           0xFC05, NUM,    D_S,           I64, F32, 0,  _,            0) \
    X(I64_TRUNC_SAT_F64_S,           0xFC06, NUM,    D_S,           I64, F64, 0,  _,            0) \
    X(I64_TRUNC_SAT_F64_U,           0xFC07, NUM,    D_S,           I64, F64, 0,  _,            0) \
    X(UNREACHABLE,                   0x00,   JUMP,   NONE,          _,   _,   0,  _,            TRAP) \
    X(BR,                            0x0C,   JUMP,   T,             _,   _,   0,  _,            SAFE) \
    X(BR_IF,                         0x0D,   BR,     S_T,           _,   _,   0,  _,            SAFE) \
    X(BR_UNLESS,                     -1,     BR,     S_T,           _,   _,   0,  _,            SAFE) \
    X(BR_TABLE,                      0x0E,   JUMP,   S_TABLE,       _,   _,   0,  _,            SAFE) /* index, n, then n + 1 targets */ \
    X(RETURN,                        0x0F,   JUMP,   NONE,          _,   _,   0,  _,            0) \
    X(SAFE_POINT,                    -1,     ALU,    NONE,          _,   _,   0,  _,            SAFE) /* a back-edge's unit where tail duplication removed the BR (taildup.c) */ \
    X(CALL,                          0x10,   CALL,   I_B,           _,   _,   0,  _,            TRAP_SAFE) /* function index, frame base */ \
    X(CALL_INTERNAL,                 -1,     CALL,   I_B,           _,   _,   0,  _,            TRAP_SAFE) /* own function index, frame base */ \
    X(CALL_INDIRECT,                 0x11,   CALL,   I_I_S_B,       _,   _,   0,  _,            TRAP_SAFE) /* type, table, index, frame base */ \
    X(LAZY,                          -1,     CALL,   NONE,          _,   _,   0,  _,            TRAP_SAFE) /* a stub's only operation: compile, then enter (code.h) */ \
    X(THROW,                         0x08,   JUMP,   I_B,           _,   _,   0,  _,            TRAP) /* tag index, payload base: unwinds (code.h handlers) */ \
    X(THROW_REF,                     0x0A,   JUMP,   S,             _,   _,   0,  _,            TRAP) /* exnref (null traps); also the legacy rethrow */ \
    /* Tail calls (Wasm 3.0 §4.4.8 return_call*): the arguments move to the \
       frame's first slots and the callee replaces the caller's frame; the \
       compiler puts a RETURN after each, which runs when the callee was a \
       host function (its results are in place by then). */ \
    X(RETURN_CALL,                   0x12,   CALL,   I_I_B,         _,   _,   0,  _,            TRAP_SAFE) /* function index, argument slots, frame base */ \
    X(RETURN_CALL_INDIRECT,          0x13,   CALL,   I_I_S_B_I,     _,   _,   0,  _,            TRAP_SAFE) /* type, table, index, frame base, argument slots */ \
    /* Typed function references (Wasm 3.0 §4.4.8 call_ref): no type check, \
       validation proved the reference's type; null traps. */ \
    X(CALL_REF,                      0x14,   CALL,   S_B,           _,   _,   0,  _,            TRAP_SAFE) /* function reference, frame base */ \
    X(RETURN_CALL_REF,               0x15,   CALL,   S_B_I,         _,   _,   0,  _,            TRAP_SAFE) /* function reference, frame base, argument slots */ \
    X(REF_AS_NON_NULL,               0xD4,   TABLE,  S,             _,   _,   0,  _,            TRAP) /* traps on null; the value stays where it is */ \
    X(COPY,                          -1,     VAR,    D_S,           _,   _,   0,  _,            0) \
    X(CONST32,                       -1,     VAR,    D_I,           _,   _,   0,  _,            0) \
    X(CONST64,                       -1,     VAR,    D_I_I,         _,   _,   0,  _,            0) /* dst, imm lo, imm hi */ \
    X(SELECT,                        0x1B,   VAR,    D_X_S_S,       _,   _,   0,  _,            0) /* dst, cond, a (if cond), b */ \
    X(GLOBAL_GET,                    0x23,   VAR,    D_I,           _,   _,   0,  _,            0) \
    X(GLOBAL_SET,                    0x24,   VAR,    I_S,           _,   _,   0,  _,            0) \
    X(LOAD32,                        -1,     MEM,    D_S_I,         _,   _,   4,  _,            TRAP) \
    X(LOAD64,                        -1,     MEM,    D_S_I,         _,   _,   8,  _,            TRAP) \
    X(LOAD8_U,                       -1,     MEM,    D_S_I,         _,   _,   1,  _,            TRAP) \
    X(LOAD16_U,                      -1,     MEM,    D_S_I,         _,   _,   2,  _,            TRAP) \
    X(I32_LOAD8_S,                   -1,     MEM,    D_S_I,         _,   _,   1,  _,            TRAP) \
    X(I32_LOAD16_S,                  -1,     MEM,    D_S_I,         _,   _,   2,  _,            TRAP) \
    X(I64_LOAD8_S,                   -1,     MEM,    D_S_I,         _,   _,   1,  _,            TRAP) \
    X(I64_LOAD16_S,                  -1,     MEM,    D_S_I,         _,   _,   2,  _,            TRAP) \
    X(I64_LOAD32_S,                  -1,     MEM,    D_S_I,         _,   _,   4,  _,            TRAP) \
    X(STORE8,                        -1,     MEM,    S_S_I,         _,   _,   1,  _,            TRAP) \
    X(STORE16,                       -1,     MEM,    S_S_I,         _,   _,   2,  _,            TRAP) \
    X(STORE32,                       -1,     MEM,    S_S_I,         _,   _,   4,  _,            TRAP) \
    X(STORE64,                       -1,     MEM,    S_S_I,         _,   _,   8,  _,            TRAP) \
    X(MEMORY_SIZE,                   0x3F,   MEM,    D,             _,   _,   0,  _,            0) \
    X(MEMORY_GROW,                   0x40,   MEM,    D_S,           _,   _,   0,  _,            0) \
    X(MEMORY_INIT,                   0xFC08, MEM,    I_S_S_S,       _,   _,   0,  _,            TRAP) /* segment, d, s, n */ \
    X(DATA_DROP,                     0xFC09, MEM,    I,             _,   _,   0,  _,            0) \
    X(MEMORY_COPY,                   0xFC0A, MEM,    S_S_S,         _,   _,   0,  _,            TRAP) \
    X(MEMORY_FILL,                   0xFC0B, MEM,    S_S_S,         _,   _,   0,  _,            TRAP) \
    /* multi-memory and memory64 (Wasm 3.0, issue 24): an access to memory \
       N != 0 is MEM_SELECT N, the memory-0 operation, MEM_SELECT 0; a \
       64-bit address or table index is narrowed by ADDR64 first. */ \
    X(MEM_SELECT,                    -1,     MEM,    I,             _,   _,   0,  _,            0) /* memory index */ \
    X(MEMORY_COPY_X,                 -1,     MEM,    I_I_S_S_S,     _,   _,   0,  _,            TRAP) /* dst memory, src memory, d, s, n */ \
    X(ADDR64,                        -1,     MEM,    D_S,           I32, I64, 0,  _,            0) \
    /* memory64 past 4 GiB (a big memory, cmp_mem_big; docs/pipeline.md): \
       ADDR64_WIN checks the access (alignment mask, then bounds of the \
       64-bit address + offset + bytes) and moves the memory's window \
       (mem, mem_size) up to the address for the one access after it, \
       which takes offset 0, until the MEM_SELECT after it; ADDR64_EA \
       makes the same checks and writes the 64-bit effective address, \
       which wait and notify (*_W) take. The bulk operations read their \
       operands in their memories' widths. */ \
    X(ADDR64_WIN,                    -1,     MEM,    D_S_I_I_I_I_I, I32, I64, 0,  _,            TRAP) /* dst, address, offset low, high, bytes, mask, memory */ \
    X(ADDR64_EA,                     -1,     MEM,    D_S_I_I_I_I_I, I64, I64, 0,  _,            TRAP) \
    X(MEMORY_INIT_W,                 -1,     MEM,    I_I_S_S_S,     _,   _,   0,  _,            TRAP) /* segment, memory, d, s, n */ \
    X(MEMORY_COPY_W,                 -1,     MEM,    I_I_S_S_S,     _,   _,   0,  _,            TRAP) /* dst memory, src memory, d, s, n */ \
    X(MEMORY_FILL_W,                 -1,     MEM,    I_S_S_S,       _,   _,   0,  _,            TRAP) /* memory, d, value, n */ \
    X(TABLE_GET,                     0x25,   TABLE,  D_I_S,         _,   _,   0,  _,            TRAP) \
    X(TABLE_SET,                     0x26,   TABLE,  I_S_S,         _,   _,   0,  _,            TRAP) \
    X(TABLE_INIT,                    0xFC0C, TABLE,  I_I_S_S_S,     _,   _,   0,  _,            TRAP) /* table, segment, d, s, n */ \
    X(ELEM_DROP,                     0xFC0D, TABLE,  I,             _,   _,   0,  _,            0) \
    X(TABLE_COPY,                    0xFC0E, TABLE,  I_I_S_S_S,     _,   _,   0,  _,            TRAP) /* dst table, src table, d, s, n */ \
    X(TABLE_GROW,                    0xFC0F, TABLE,  D_I_S_S,       _,   _,   0,  _,            0) /* dst, table, init, delta */ \
    X(TABLE_SIZE,                    0xFC10, TABLE,  D_I,           _,   _,   0,  _,            0) \
    X(TABLE_FILL,                    0xFC11, TABLE,  I_S_S_S,       _,   _,   0,  _,            TRAP) \
    X(REF_IS_NULL,                   0xD1,   TABLE,  D_S,           _,   _,   0,  _,            0) \
    X(ATOMIC_LOAD8,                  -1,     ATOMIC, D_S_I,         _,   _,   1,  _,            TRAP) \
    X(ATOMIC_LOAD16,                 -1,     ATOMIC, D_S_I,         _,   _,   2,  _,            TRAP) \
    X(ATOMIC_LOAD32,                 -1,     ATOMIC, D_S_I,         _,   _,   4,  _,            TRAP) \
    X(ATOMIC_LOAD64,                 -1,     ATOMIC, D_S_I,         _,   _,   8,  _,            TRAP) \
    X(ATOMIC_STORE8,                 -1,     ATOMIC, S_S_I,         _,   _,   1,  _,            TRAP) \
    X(ATOMIC_STORE16,                -1,     ATOMIC, S_S_I,         _,   _,   2,  _,            TRAP) \
    X(ATOMIC_STORE32,                -1,     ATOMIC, S_S_I,         _,   _,   4,  _,            TRAP) \
    X(ATOMIC_STORE64,                -1,     ATOMIC, S_S_I,         _,   _,   8,  _,            TRAP) \
    X(ATOMIC_ADD8,                   -1,     ATOMIC, D_S_S_I,       _,   _,   1,  _,            TRAP) \
    X(ATOMIC_ADD16,                  -1,     ATOMIC, D_S_S_I,       _,   _,   2,  _,            TRAP) \
    X(ATOMIC_ADD32,                  -1,     ATOMIC, D_S_S_I,       _,   _,   4,  _,            TRAP) \
    X(ATOMIC_ADD64,                  -1,     ATOMIC, D_S_S_I,       _,   _,   8,  _,            TRAP) \
    X(ATOMIC_SUB8,                   -1,     ATOMIC, D_S_S_I,       _,   _,   1,  _,            TRAP) \
    X(ATOMIC_SUB16,                  -1,     ATOMIC, D_S_S_I,       _,   _,   2,  _,            TRAP) \
    X(ATOMIC_SUB32,                  -1,     ATOMIC, D_S_S_I,       _,   _,   4,  _,            TRAP) \
    X(ATOMIC_SUB64,                  -1,     ATOMIC, D_S_S_I,       _,   _,   8,  _,            TRAP) \
    X(ATOMIC_AND8,                   -1,     ATOMIC, D_S_S_I,       _,   _,   1,  _,            TRAP) \
    X(ATOMIC_AND16,                  -1,     ATOMIC, D_S_S_I,       _,   _,   2,  _,            TRAP) \
    X(ATOMIC_AND32,                  -1,     ATOMIC, D_S_S_I,       _,   _,   4,  _,            TRAP) \
    X(ATOMIC_AND64,                  -1,     ATOMIC, D_S_S_I,       _,   _,   8,  _,            TRAP) \
    X(ATOMIC_OR8,                    -1,     ATOMIC, D_S_S_I,       _,   _,   1,  _,            TRAP) \
    X(ATOMIC_OR16,                   -1,     ATOMIC, D_S_S_I,       _,   _,   2,  _,            TRAP) \
    X(ATOMIC_OR32,                   -1,     ATOMIC, D_S_S_I,       _,   _,   4,  _,            TRAP) \
    X(ATOMIC_OR64,                   -1,     ATOMIC, D_S_S_I,       _,   _,   8,  _,            TRAP) \
    X(ATOMIC_XOR8,                   -1,     ATOMIC, D_S_S_I,       _,   _,   1,  _,            TRAP) \
    X(ATOMIC_XOR16,                  -1,     ATOMIC, D_S_S_I,       _,   _,   2,  _,            TRAP) \
    X(ATOMIC_XOR32,                  -1,     ATOMIC, D_S_S_I,       _,   _,   4,  _,            TRAP) \
    X(ATOMIC_XOR64,                  -1,     ATOMIC, D_S_S_I,       _,   _,   8,  _,            TRAP) \
    X(ATOMIC_XCHG8,                  -1,     ATOMIC, D_S_S_I,       _,   _,   1,  _,            TRAP) \
    X(ATOMIC_XCHG16,                 -1,     ATOMIC, D_S_S_I,       _,   _,   2,  _,            TRAP) \
    X(ATOMIC_XCHG32,                 -1,     ATOMIC, D_S_S_I,       _,   _,   4,  _,            TRAP) \
    X(ATOMIC_XCHG64,                 -1,     ATOMIC, D_S_S_I,       _,   _,   8,  _,            TRAP) \
    X(ATOMIC_CMPXCHG8,               -1,     ATOMIC, D_S_S_S_I,     _,   _,   1,  _,            TRAP) /* dst, address, expected, replacement, offset */ \
    X(ATOMIC_CMPXCHG16,              -1,     ATOMIC, D_S_S_S_I,     _,   _,   2,  _,            TRAP) \
    X(ATOMIC_CMPXCHG32,              -1,     ATOMIC, D_S_S_S_I,     _,   _,   4,  _,            TRAP) \
    X(ATOMIC_CMPXCHG64,              -1,     ATOMIC, D_S_S_S_I,     _,   _,   8,  _,            TRAP) \
    X(ATOMIC_NOTIFY,                 0xFE00, ATOMIC, D_S_S_I,       _,   _,   4,  _,            TRAP) \
    X(ATOMIC_WAIT32,                 0xFE01, ATOMIC, D_S_S_S_I,     _,   _,   4,  _,            TRAP_SAFE) /* dst, address, expected, timeout, offset */ \
    X(ATOMIC_WAIT64,                 0xFE02, ATOMIC, D_S_S_S_I,     _,   _,   8,  _,            TRAP_SAFE) \
    X(ATOMIC_FENCE,                  0xFE03, ATOMIC, NONE,          _,   _,   0,  _,            0) \
    /* wait and notify on a big 64-bit memory: the address is ADDR64_EA's \
       (the offset word is 0) */ \
    X(ATOMIC_NOTIFY_W,               -1,     ATOMIC, D_S_S_I,       _,   _,   4,  _,            TRAP) \
    X(ATOMIC_WAIT32_W,               -1,     ATOMIC, D_S_S_S_I,     _,   _,   4,  _,            TRAP_SAFE) \
    X(ATOMIC_WAIT64_W,               -1,     ATOMIC, D_S_S_S_I,     _,   _,   8,  _,            TRAP_SAFE) \
    X(LOAD32_ADDI,                   -1,     MEM,    D_S_I_I,       _,   _,   4,  LOAD32,       TRAP) /* dst, a, imm, offset: address a + imm */ \
    X(LOAD64_ADDI,                   -1,     MEM,    D_S_I_I,       _,   _,   8,  LOAD64,       TRAP) \
    X(LOAD8_U_ADDI,                  -1,     MEM,    D_S_I_I,       _,   _,   1,  LOAD8_U,      TRAP) \
    X(LOAD16_U_ADDI,                 -1,     MEM,    D_S_I_I,       _,   _,   2,  LOAD16_U,     TRAP) \
    X(I32_LOAD8_S_ADDI,              -1,     MEM,    D_S_I_I,       _,   _,   1,  I32_LOAD8_S,  TRAP) \
    X(I32_LOAD16_S_ADDI,             -1,     MEM,    D_S_I_I,       _,   _,   2,  I32_LOAD16_S, TRAP) \
    X(I64_LOAD8_S_ADDI,              -1,     MEM,    D_S_I_I,       _,   _,   1,  I64_LOAD8_S,  TRAP) \
    X(I64_LOAD16_S_ADDI,             -1,     MEM,    D_S_I_I,       _,   _,   2,  I64_LOAD16_S, TRAP) \
    X(I64_LOAD32_S_ADDI,             -1,     MEM,    D_S_I_I,       _,   _,   4,  I64_LOAD32_S, TRAP) \
    X(LOAD32_ADD,                    -1,     MEM,    D_S_S_I,       _,   _,   4,  LOAD32,       TRAP) /* dst, a, b, offset: address a + b */ \
    X(LOAD64_ADD,                    -1,     MEM,    D_S_S_I,       _,   _,   8,  LOAD64,       TRAP) \
    X(LOAD8_U_ADD,                   -1,     MEM,    D_S_S_I,       _,   _,   1,  LOAD8_U,      TRAP) \
    X(LOAD16_U_ADD,                  -1,     MEM,    D_S_S_I,       _,   _,   2,  LOAD16_U,     TRAP) \
    X(I32_LOAD8_S_ADD,               -1,     MEM,    D_S_S_I,       _,   _,   1,  I32_LOAD8_S,  TRAP) \
    X(I32_LOAD16_S_ADD,              -1,     MEM,    D_S_S_I,       _,   _,   2,  I32_LOAD16_S, TRAP) \
    X(I64_LOAD8_S_ADD,               -1,     MEM,    D_S_S_I,       _,   _,   1,  I64_LOAD8_S,  TRAP) \
    X(I64_LOAD16_S_ADD,              -1,     MEM,    D_S_S_I,       _,   _,   2,  I64_LOAD16_S, TRAP) \
    X(I64_LOAD32_S_ADD,              -1,     MEM,    D_S_S_I,       _,   _,   4,  I64_LOAD32_S, TRAP) \
    X(COPY2,                         -1,     VAR,    D_S_D_X,       _,   _,   0,  _,            0) /* dst1, src1, dst2, src2: two copies in order */ \
    X(I32_SHR_U_AND,                 -1,     ALU,    D_S_I_I,       _,   _,   0,  _,            0) /* dst, a, shift, mask: a bit field */ \
    X(I32_XOR_ROTL,                  -1,     ALU,    D_S_S_I,       _,   _,   0,  _,            0) /* dst, a, b, k: a ^ rotl(b, k), a hash round */ \
    X(I32_ADD3,                      -1,     ALU,    D_S_S_S,       _,   _,   0,  _,            0) /* dst, a, b, c: a + b + c */ \
    X(F64_ADD_LD,                    -1,     MEM,    D_S_S_I,       _,   _,   8,  F64_ADD,      TRAP) /* dst, a, address, offset: a + the f64 loaded */ \
    X(F64_SUB_LD,                    -1,     MEM,    D_S_S_I,       _,   _,   8,  F64_SUB,      TRAP) \
    X(F64_MUL_LD,                    -1,     MEM,    D_S_S_I,       _,   _,   8,  F64_MUL,      TRAP) \
    X(F32_ADD_LD,                    -1,     MEM,    D_S_S_I,       _,   _,   4,  F32_ADD,      TRAP) \
    X(F32_SUB_LD,                    -1,     MEM,    D_S_S_I,       _,   _,   4,  F32_SUB,      TRAP) \
    X(F32_MUL_LD,                    -1,     MEM,    D_S_S_I,       _,   _,   4,  F32_MUL,      TRAP) \
    X(I32_ADD_LD,                    -1,     MEM,    D_S_S_I,       _,   _,   4,  I32_ADD,      TRAP) \
    X(REF_FUNC,                      0xD2,   TABLE,  D_I,           _,   _,   0,  _,            0) \
    X(COPY128,                       -1,     VEC,    D_V,           _,   _,   0,  _,            0) \
    X(SELECT128,                     -1,     VEC,    D_S_V_V,       _,   _,   0,  _,            0) \
    X(GLOBAL_GET128,                 -1,     VEC,    D_I,           _,   _,   0,  _,            0) \
    X(GLOBAL_SET128,                 -1,     VEC,    I_V,           _,   _,   0,  _,            0) \
    X(I8X16_SHUFFLE1,                -1,     VEC,    D_V_I4,        _,   _,   0,  _,            0) /* dst, a, byte mask: a shuffle of one operand with zeros */ \
    X(V128_LOAD_ADDI,                -1,     VEC,    D_S_I_I,       _,   _,   16, V128_LOAD,    TRAP) /* dst, a, imm, offset: v128.load of a + imm */ \
    X(V128_LOAD_ADD,                 -1,     VEC,    D_S_S_I,       _,   _,   16, V128_LOAD,    TRAP) \
    X(F32X4_ADD_LD,                  -1,     VEC,    D_V_S_I,       _,   _,   16, F32X4_ADD,    TRAP) /* dst, a, address, offset: a + the v128 loaded */ \
    X(F32X4_SUB_LD,                  -1,     VEC,    D_V_S_I,       _,   _,   16, F32X4_SUB,    TRAP) \
    X(F32X4_MUL_LD,                  -1,     VEC,    D_V_S_I,       _,   _,   16, F32X4_MUL,    TRAP) \
    X(F64X2_ADD_LD,                  -1,     VEC,    D_V_S_I,       _,   _,   16, F64X2_ADD,    TRAP) \
    X(F64X2_SUB_LD,                  -1,     VEC,    D_V_S_I,       _,   _,   16, F64X2_SUB,    TRAP) \
    X(F64X2_MUL_LD,                  -1,     VEC,    D_V_S_I,       _,   _,   16, F64X2_MUL,    TRAP) \
    X(I32X4_ADD_LD,                  -1,     VEC,    D_V_S_I,       _,   _,   16, I32X4_ADD,    TRAP) \
    X(I16X8_ADD_LD,                  -1,     VEC,    D_V_S_I,       _,   _,   16, I16X8_ADD,    TRAP) \
    X(I8X16_ADD_LD,                  -1,     VEC,    D_V_S_I,       _,   _,   16, I8X16_ADD,    TRAP) \
    X(F32X4_MUL_ADD_LD,              -1,     VEC,    D_V_S_I_S_I,   _,   _,   16, _,            TRAP) /* dst, a, address, offset, address2, offset2: a * v128 at address + v128 at address2 (axpy) */ \
    X(F64X2_MUL_ADD_LD,              -1,     VEC,    D_V_S_I_S_I,   _,   _,   16, _,            TRAP) \
    X(BR_IF_I32_EQ,                  -1,     BR,     S_S_T,         _,   I32, 0,  I32_EQ,       SAFE) /* a, b, target: compare and branch */ \
    X(BR_IF_I32_NE,                  -1,     BR,     S_S_T,         _,   I32, 0,  I32_NE,       SAFE) \
    X(BR_IF_I32_LT_S,                -1,     BR,     S_S_T,         _,   I32, 0,  I32_LT_S,     SAFE) \
    X(BR_IF_I32_LT_U,                -1,     BR,     S_S_T,         _,   I32, 0,  I32_LT_U,     SAFE) \
    X(BR_IF_I32_GT_S,                -1,     BR,     S_S_T,         _,   I32, 0,  I32_GT_S,     SAFE) \
    X(BR_IF_I32_GT_U,                -1,     BR,     S_S_T,         _,   I32, 0,  I32_GT_U,     SAFE) \
    X(BR_IF_I32_LE_S,                -1,     BR,     S_S_T,         _,   I32, 0,  I32_LE_S,     SAFE) \
    X(BR_IF_I32_LE_U,                -1,     BR,     S_S_T,         _,   I32, 0,  I32_LE_U,     SAFE) \
    X(BR_IF_I32_GE_S,                -1,     BR,     S_S_T,         _,   I32, 0,  I32_GE_S,     SAFE) \
    X(BR_IF_I32_GE_U,                -1,     BR,     S_S_T,         _,   I32, 0,  I32_GE_U,     SAFE) \
    X(BR_IF_I64_EQ,                  -1,     BR,     S_S_T,         _,   I64, 0,  I64_EQ,       SAFE) \
    X(BR_IF_I64_NE,                  -1,     BR,     S_S_T,         _,   I64, 0,  I64_NE,       SAFE) \
    X(BR_IF_I64_LT_S,                -1,     BR,     S_S_T,         _,   I64, 0,  I64_LT_S,     SAFE) \
    X(BR_IF_I64_LT_U,                -1,     BR,     S_S_T,         _,   I64, 0,  I64_LT_U,     SAFE) \
    X(BR_IF_I64_GT_S,                -1,     BR,     S_S_T,         _,   I64, 0,  I64_GT_S,     SAFE) \
    X(BR_IF_I64_GT_U,                -1,     BR,     S_S_T,         _,   I64, 0,  I64_GT_U,     SAFE) \
    X(BR_IF_I64_LE_S,                -1,     BR,     S_S_T,         _,   I64, 0,  I64_LE_S,     SAFE) \
    X(BR_IF_I64_LE_U,                -1,     BR,     S_S_T,         _,   I64, 0,  I64_LE_U,     SAFE) \
    X(BR_IF_I64_GE_S,                -1,     BR,     S_S_T,         _,   I64, 0,  I64_GE_S,     SAFE) \
    X(BR_IF_I64_GE_U,                -1,     BR,     S_S_T,         _,   I64, 0,  I64_GE_U,     SAFE) \
    X(BR_IF_I32_EQZ,                 -1,     BR,     S_T,           _,   I32, 0,  I32_EQZ,      SAFE) \
    X(BR_IF_I64_EQZ,                 -1,     BR,     S_T,           _,   I64, 0,  I64_EQZ,      SAFE) \
    X(BR_IF_I64_NEZ,                 -1,     BR,     S_T,           _,   I64, 0,  I64_EQZ,      SAFE) \
    X(BR_IF_I32_EQ_IMM,              -1,     BR,     S_I_T,         _,   I32, 0,  I32_EQ_IMM,   SAFE) \
    X(BR_IF_I32_NE_IMM,              -1,     BR,     S_I_T,         _,   I32, 0,  I32_NE_IMM,   SAFE) \
    X(BR_IF_I32_LT_S_IMM,            -1,     BR,     S_I_T,         _,   I32, 0,  I32_LT_S_IMM, SAFE) \
    X(BR_IF_I32_LT_U_IMM,            -1,     BR,     S_I_T,         _,   I32, 0,  I32_LT_U_IMM, SAFE) \
    X(BR_IF_I32_GT_S_IMM,            -1,     BR,     S_I_T,         _,   I32, 0,  I32_GT_S_IMM, SAFE) \
    X(BR_IF_I32_GT_U_IMM,            -1,     BR,     S_I_T,         _,   I32, 0,  I32_GT_U_IMM, SAFE) \
    X(BR_IF_I32_LE_S_IMM,            -1,     BR,     S_I_T,         _,   I32, 0,  I32_LE_S_IMM, SAFE) \
    X(BR_IF_I32_LE_U_IMM,            -1,     BR,     S_I_T,         _,   I32, 0,  I32_LE_U_IMM, SAFE) \
    X(BR_IF_I32_GE_S_IMM,            -1,     BR,     S_I_T,         _,   I32, 0,  I32_GE_S_IMM, SAFE) \
    X(BR_IF_I32_GE_U_IMM,            -1,     BR,     S_I_T,         _,   I32, 0,  I32_GE_U_IMM, SAFE) \
    X(BR_IF_I64_EQ_IMM,              -1,     BR,     S_I_T,         _,   I64, 0,  I64_EQ_IMM,   SAFE) \
    X(BR_IF_I64_NE_IMM,              -1,     BR,     S_I_T,         _,   I64, 0,  I64_NE_IMM,   SAFE) \
    X(BR_IF_I64_LT_S_IMM,            -1,     BR,     S_I_T,         _,   I64, 0,  I64_LT_S_IMM, SAFE) \
    X(BR_IF_I64_LT_U_IMM,            -1,     BR,     S_I_T,         _,   I64, 0,  I64_LT_U_IMM, SAFE) \
    X(BR_IF_I64_GT_S_IMM,            -1,     BR,     S_I_T,         _,   I64, 0,  I64_GT_S_IMM, SAFE) \
    X(BR_IF_I64_GT_U_IMM,            -1,     BR,     S_I_T,         _,   I64, 0,  I64_GT_U_IMM, SAFE) \
    X(BR_IF_I64_LE_S_IMM,            -1,     BR,     S_I_T,         _,   I64, 0,  I64_LE_S_IMM, SAFE) \
    X(BR_IF_I64_LE_U_IMM,            -1,     BR,     S_I_T,         _,   I64, 0,  I64_LE_U_IMM, SAFE) \
    X(BR_IF_I64_GE_S_IMM,            -1,     BR,     S_I_T,         _,   I64, 0,  I64_GE_S_IMM, SAFE) \
    X(BR_IF_I64_GE_U_IMM,            -1,     BR,     S_I_T,         _,   I64, 0,  I64_GE_U_IMM, SAFE) \
    X(I32_ADD_IMM,                   -1,     IMM,    D_S_I,         I32, I32, 0,  I32_ADD,      0) /* dst, a, imm (i64 forms: sign-extended 32-bit) */ \
    X(I32_SUB_IMM,                   -1,     IMM,    D_S_I,         I32, I32, 0,  I32_SUB,      0) \
    X(I32_MUL_IMM,                   -1,     IMM,    D_S_I,         I32, I32, 0,  I32_MUL,      0) \
    X(I32_AND_IMM,                   -1,     IMM,    D_S_I,         I32, I32, 0,  I32_AND,      0) \
    X(I32_OR_IMM,                    -1,     IMM,    D_S_I,         I32, I32, 0,  I32_OR,       0) \
    X(I32_XOR_IMM,                   -1,     IMM,    D_S_I,         I32, I32, 0,  I32_XOR,      0) \
    X(I32_SHL_IMM,                   -1,     IMM,    D_S_I,         I32, I32, 0,  I32_SHL,      0) \
    X(I32_SHR_S_IMM,                 -1,     IMM,    D_S_I,         I32, I32, 0,  I32_SHR_S,    0) \
    X(I32_SHR_U_IMM,                 -1,     IMM,    D_S_I,         I32, I32, 0,  I32_SHR_U,    0) \
    X(I32_EQ_IMM,                    -1,     IMM,    D_S_I,         I32, I32, 0,  I32_EQ,       0) \
    X(I32_NE_IMM,                    -1,     IMM,    D_S_I,         I32, I32, 0,  I32_NE,       0) \
    X(I32_LT_S_IMM,                  -1,     IMM,    D_S_I,         I32, I32, 0,  I32_LT_S,     0) \
    X(I32_LT_U_IMM,                  -1,     IMM,    D_S_I,         I32, I32, 0,  I32_LT_U,     0) \
    X(I32_GT_S_IMM,                  -1,     IMM,    D_S_I,         I32, I32, 0,  I32_GT_S,     0) \
    X(I32_GT_U_IMM,                  -1,     IMM,    D_S_I,         I32, I32, 0,  I32_GT_U,     0) \
    X(I32_LE_S_IMM,                  -1,     IMM,    D_S_I,         I32, I32, 0,  I32_LE_S,     0) \
    X(I32_LE_U_IMM,                  -1,     IMM,    D_S_I,         I32, I32, 0,  I32_LE_U,     0) \
    X(I32_GE_S_IMM,                  -1,     IMM,    D_S_I,         I32, I32, 0,  I32_GE_S,     0) \
    X(I32_GE_U_IMM,                  -1,     IMM,    D_S_I,         I32, I32, 0,  I32_GE_U,     0) \
    X(I64_ADD_IMM,                   -1,     IMM,    D_S_I,         I64, I64, 0,  I64_ADD,      0) \
    X(I64_SUB_IMM,                   -1,     IMM,    D_S_I,         I64, I64, 0,  I64_SUB,      0) \
    X(I64_MUL_IMM,                   -1,     IMM,    D_S_I,         I64, I64, 0,  I64_MUL,      0) \
    X(I64_AND_IMM,                   -1,     IMM,    D_S_I,         I64, I64, 0,  I64_AND,      0) \
    X(I64_OR_IMM,                    -1,     IMM,    D_S_I,         I64, I64, 0,  I64_OR,       0) \
    X(I64_XOR_IMM,                   -1,     IMM,    D_S_I,         I64, I64, 0,  I64_XOR,      0) \
    X(I64_SHL_IMM,                   -1,     IMM,    D_S_I,         I64, I64, 0,  I64_SHL,      0) \
    X(I64_SHR_S_IMM,                 -1,     IMM,    D_S_I,         I64, I64, 0,  I64_SHR_S,    0) \
    X(I64_SHR_U_IMM,                 -1,     IMM,    D_S_I,         I64, I64, 0,  I64_SHR_U,    0) \
    X(I64_EQ_IMM,                    -1,     IMM,    D_S_I,         I32, I64, 0,  I64_EQ,       0) \
    X(I64_NE_IMM,                    -1,     IMM,    D_S_I,         I32, I64, 0,  I64_NE,       0) \
    X(I64_LT_S_IMM,                  -1,     IMM,    D_S_I,         I32, I64, 0,  I64_LT_S,     0) \
    X(I64_LT_U_IMM,                  -1,     IMM,    D_S_I,         I32, I64, 0,  I64_LT_U,     0) \
    X(I64_GT_S_IMM,                  -1,     IMM,    D_S_I,         I32, I64, 0,  I64_GT_S,     0) \
    X(I64_GT_U_IMM,                  -1,     IMM,    D_S_I,         I32, I64, 0,  I64_GT_U,     0) \
    X(I64_LE_S_IMM,                  -1,     IMM,    D_S_I,         I32, I64, 0,  I64_LE_S,     0) \
    X(I64_LE_U_IMM,                  -1,     IMM,    D_S_I,         I32, I64, 0,  I64_LE_U,     0) \
    X(I64_GE_S_IMM,                  -1,     IMM,    D_S_I,         I32, I64, 0,  I64_GE_S,     0) \
    X(I64_GE_U_IMM,                  -1,     IMM,    D_S_I,         I32, I64, 0,  I64_GE_U,     0) \
    X(I32_ROTL_IMM,                  -1,     IMM,    D_S_I,         I32, I32, 0,  I32_ROTL,     0) \
    X(I64_ROTL_IMM,                  -1,     IMM,    D_S_I,         I64, I64, 0,  I64_ROTL,     0) \
    X(V128_LOAD,                     0xFD00, SIMD,   SV_LOAD,       _,   _,   16, _,            TRAP) \
    X(V128_LOAD8X8_S,                0xFD01, SIMD,   SV_LOAD,       _,   _,   8,  _,            TRAP) \
    X(V128_LOAD8X8_U,                0xFD02, SIMD,   SV_LOAD,       _,   _,   8,  _,            TRAP) \
    X(V128_LOAD16X4_S,               0xFD03, SIMD,   SV_LOAD,       _,   _,   8,  _,            TRAP) \
    X(V128_LOAD16X4_U,               0xFD04, SIMD,   SV_LOAD,       _,   _,   8,  _,            TRAP) \
    X(V128_LOAD32X2_S,               0xFD05, SIMD,   SV_LOAD,       _,   _,   8,  _,            TRAP) \
    X(V128_LOAD32X2_U,               0xFD06, SIMD,   SV_LOAD,       _,   _,   8,  _,            TRAP) \
    X(V128_LOAD8_SPLAT,              0xFD07, SIMD,   SV_LOAD,       _,   _,   1,  _,            TRAP) \
    X(V128_LOAD16_SPLAT,             0xFD08, SIMD,   SV_LOAD,       _,   _,   2,  _,            TRAP) \
    X(V128_LOAD32_SPLAT,             0xFD09, SIMD,   SV_LOAD,       _,   _,   4,  _,            TRAP) \
    X(V128_LOAD64_SPLAT,             0xFD0A, SIMD,   SV_LOAD,       _,   _,   8,  _,            TRAP) \
    X(V128_STORE,                    0xFD0B, SIMD,   SV_STORE,      _,   _,   16, _,            TRAP) \
    X(V128_CONST,                    0xFD0C, SIMD,   SV_CONST,      _,   _,   0,  _,            0) \
    X(I8X16_SHUFFLE,                 0xFD0D, SIMD,   SV_SHUFFLE,    _,   _,   0,  _,            0) \
    X(I8X16_SWIZZLE,                 0xFD0E, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I8X16_SPLAT,                   0xFD0F, SIMD,   SV_SPLAT,      _,   I32, 16, _,            0) \
    X(I16X8_SPLAT,                   0xFD10, SIMD,   SV_SPLAT,      _,   I32, 8,  _,            0) \
    X(I32X4_SPLAT,                   0xFD11, SIMD,   SV_SPLAT,      _,   I32, 4,  _,            0) \
    X(I64X2_SPLAT,                   0xFD12, SIMD,   SV_SPLAT,      _,   I64, 2,  _,            0) \
    X(F32X4_SPLAT,                   0xFD13, SIMD,   SV_SPLAT,      _,   F32, 4,  _,            0) \
    X(F64X2_SPLAT,                   0xFD14, SIMD,   SV_SPLAT,      _,   F64, 2,  _,            0) \
    X(I8X16_EXTRACT_LANE_S,          0xFD15, SIMD,   SV_EXTRACT,    I32, _,   16, _,            0) \
    X(I8X16_EXTRACT_LANE_U,          0xFD16, SIMD,   SV_EXTRACT,    I32, _,   16, _,            0) \
    X(I8X16_REPLACE_LANE,            0xFD17, SIMD,   SV_REPLACE,    _,   I32, 16, _,            0) \
    X(I16X8_EXTRACT_LANE_S,          0xFD18, SIMD,   SV_EXTRACT,    I32, _,   8,  _,            0) \
    X(I16X8_EXTRACT_LANE_U,          0xFD19, SIMD,   SV_EXTRACT,    I32, _,   8,  _,            0) \
    X(I16X8_REPLACE_LANE,            0xFD1A, SIMD,   SV_REPLACE,    _,   I32, 8,  _,            0) \
    X(I32X4_EXTRACT_LANE,            0xFD1B, SIMD,   SV_EXTRACT,    I32, _,   4,  _,            0) \
    X(I32X4_REPLACE_LANE,            0xFD1C, SIMD,   SV_REPLACE,    _,   I32, 4,  _,            0) \
    X(I64X2_EXTRACT_LANE,            0xFD1D, SIMD,   SV_EXTRACT,    I64, _,   2,  _,            0) \
    X(I64X2_REPLACE_LANE,            0xFD1E, SIMD,   SV_REPLACE,    _,   I64, 2,  _,            0) \
    X(F32X4_EXTRACT_LANE,            0xFD1F, SIMD,   SV_EXTRACT,    F32, _,   4,  _,            0) \
    X(F32X4_REPLACE_LANE,            0xFD20, SIMD,   SV_REPLACE,    _,   F32, 4,  _,            0) \
    X(F64X2_EXTRACT_LANE,            0xFD21, SIMD,   SV_EXTRACT,    F64, _,   2,  _,            0) \
    X(F64X2_REPLACE_LANE,            0xFD22, SIMD,   SV_REPLACE,    _,   F64, 2,  _,            0) \
    X(I8X16_EQ,                      0xFD23, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I8X16_NE,                      0xFD24, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I8X16_LT_S,                    0xFD25, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I8X16_LT_U,                    0xFD26, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I8X16_GT_S,                    0xFD27, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I8X16_GT_U,                    0xFD28, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I8X16_LE_S,                    0xFD29, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I8X16_LE_U,                    0xFD2A, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I8X16_GE_S,                    0xFD2B, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I8X16_GE_U,                    0xFD2C, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I16X8_EQ,                      0xFD2D, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I16X8_NE,                      0xFD2E, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I16X8_LT_S,                    0xFD2F, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I16X8_LT_U,                    0xFD30, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I16X8_GT_S,                    0xFD31, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I16X8_GT_U,                    0xFD32, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I16X8_LE_S,                    0xFD33, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I16X8_LE_U,                    0xFD34, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I16X8_GE_S,                    0xFD35, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I16X8_GE_U,                    0xFD36, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I32X4_EQ,                      0xFD37, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I32X4_NE,                      0xFD38, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I32X4_LT_S,                    0xFD39, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I32X4_LT_U,                    0xFD3A, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I32X4_GT_S,                    0xFD3B, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I32X4_GT_U,                    0xFD3C, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I32X4_LE_S,                    0xFD3D, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I32X4_LE_U,                    0xFD3E, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I32X4_GE_S,                    0xFD3F, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I32X4_GE_U,                    0xFD40, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F32X4_EQ,                      0xFD41, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F32X4_NE,                      0xFD42, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F32X4_LT,                      0xFD43, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F32X4_GT,                      0xFD44, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F32X4_LE,                      0xFD45, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F32X4_GE,                      0xFD46, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F64X2_EQ,                      0xFD47, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F64X2_NE,                      0xFD48, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F64X2_LT,                      0xFD49, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F64X2_GT,                      0xFD4A, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F64X2_LE,                      0xFD4B, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F64X2_GE,                      0xFD4C, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(V128_NOT,                      0xFD4D, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(V128_AND,                      0xFD4E, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(V128_ANDNOT,                   0xFD4F, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(V128_OR,                       0xFD50, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(V128_XOR,                      0xFD51, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(V128_BITSELECT,                0xFD52, SIMD,   SV_TERN,       _,   _,   0,  _,            0) \
    X(V128_ANY_TRUE,                 0xFD53, SIMD,   SV_TEST,       _,   _,   0,  _,            0) \
    X(V128_LOAD8_LANE,               0xFD54, SIMD,   SV_LOAD_LANE,  _,   _,   1,  _,            TRAP) \
    X(V128_LOAD16_LANE,              0xFD55, SIMD,   SV_LOAD_LANE,  _,   _,   2,  _,            TRAP) \
    X(V128_LOAD32_LANE,              0xFD56, SIMD,   SV_LOAD_LANE,  _,   _,   4,  _,            TRAP) \
    X(V128_LOAD64_LANE,              0xFD57, SIMD,   SV_LOAD_LANE,  _,   _,   8,  _,            TRAP) \
    X(V128_STORE8_LANE,              0xFD58, SIMD,   SV_STORE_LANE, _,   _,   1,  _,            TRAP) \
    X(V128_STORE16_LANE,             0xFD59, SIMD,   SV_STORE_LANE, _,   _,   2,  _,            TRAP) \
    X(V128_STORE32_LANE,             0xFD5A, SIMD,   SV_STORE_LANE, _,   _,   4,  _,            TRAP) \
    X(V128_STORE64_LANE,             0xFD5B, SIMD,   SV_STORE_LANE, _,   _,   8,  _,            TRAP) \
    X(V128_LOAD32_ZERO,              0xFD5C, SIMD,   SV_LOAD,       _,   _,   4,  _,            TRAP) \
    X(V128_LOAD64_ZERO,              0xFD5D, SIMD,   SV_LOAD,       _,   _,   8,  _,            TRAP) \
    X(F32X4_DEMOTE_F64X2_ZERO,       0xFD5E, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(F64X2_PROMOTE_LOW_F32X4,       0xFD5F, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I8X16_ABS,                     0xFD60, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I8X16_NEG,                     0xFD61, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I8X16_POPCNT,                  0xFD62, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I8X16_ALL_TRUE,                0xFD63, SIMD,   SV_TEST,       _,   _,   0,  _,            0) \
    X(I8X16_BITMASK,                 0xFD64, SIMD,   SV_TEST,       _,   _,   0,  _,            0) \
    X(I8X16_NARROW_I16X8_S,          0xFD65, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I8X16_NARROW_I16X8_U,          0xFD66, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F32X4_CEIL,                    0xFD67, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(F32X4_FLOOR,                   0xFD68, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(F32X4_TRUNC,                   0xFD69, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(F32X4_NEAREST,                 0xFD6A, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I8X16_SHL,                     0xFD6B, SIMD,   SV_SHIFT,      _,   _,   0,  _,            0) \
    X(I8X16_SHR_S,                   0xFD6C, SIMD,   SV_SHIFT,      _,   _,   0,  _,            0) \
    X(I8X16_SHR_U,                   0xFD6D, SIMD,   SV_SHIFT,      _,   _,   0,  _,            0) \
    X(I8X16_ADD,                     0xFD6E, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I8X16_ADD_SAT_S,               0xFD6F, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I8X16_ADD_SAT_U,               0xFD70, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I8X16_SUB,                     0xFD71, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I8X16_SUB_SAT_S,               0xFD72, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I8X16_SUB_SAT_U,               0xFD73, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F64X2_CEIL,                    0xFD74, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(F64X2_FLOOR,                   0xFD75, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I8X16_MIN_S,                   0xFD76, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I8X16_MIN_U,                   0xFD77, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I8X16_MAX_S,                   0xFD78, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I8X16_MAX_U,                   0xFD79, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F64X2_TRUNC,                   0xFD7A, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I8X16_AVGR_U,                  0xFD7B, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I16X8_EXTADD_PAIRWISE_I8X16_S, 0xFD7C, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I16X8_EXTADD_PAIRWISE_I8X16_U, 0xFD7D, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I32X4_EXTADD_PAIRWISE_I16X8_S, 0xFD7E, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I32X4_EXTADD_PAIRWISE_I16X8_U, 0xFD7F, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I16X8_ABS,                     0xFD80, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I16X8_NEG,                     0xFD81, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I16X8_Q15MULR_SAT_S,           0xFD82, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I16X8_ALL_TRUE,                0xFD83, SIMD,   SV_TEST,       _,   _,   0,  _,            0) \
    X(I16X8_BITMASK,                 0xFD84, SIMD,   SV_TEST,       _,   _,   0,  _,            0) \
    X(I16X8_NARROW_I32X4_S,          0xFD85, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I16X8_NARROW_I32X4_U,          0xFD86, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I16X8_EXTEND_LOW_I8X16_S,      0xFD87, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I16X8_EXTEND_HIGH_I8X16_S,     0xFD88, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I16X8_EXTEND_LOW_I8X16_U,      0xFD89, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I16X8_EXTEND_HIGH_I8X16_U,     0xFD8A, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I16X8_SHL,                     0xFD8B, SIMD,   SV_SHIFT,      _,   _,   0,  _,            0) \
    X(I16X8_SHR_S,                   0xFD8C, SIMD,   SV_SHIFT,      _,   _,   0,  _,            0) \
    X(I16X8_SHR_U,                   0xFD8D, SIMD,   SV_SHIFT,      _,   _,   0,  _,            0) \
    X(I16X8_ADD,                     0xFD8E, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I16X8_ADD_SAT_S,               0xFD8F, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I16X8_ADD_SAT_U,               0xFD90, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I16X8_SUB,                     0xFD91, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I16X8_SUB_SAT_S,               0xFD92, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I16X8_SUB_SAT_U,               0xFD93, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F64X2_NEAREST,                 0xFD94, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I16X8_MUL,                     0xFD95, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I16X8_MIN_S,                   0xFD96, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I16X8_MIN_U,                   0xFD97, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I16X8_MAX_S,                   0xFD98, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I16X8_MAX_U,                   0xFD99, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I16X8_AVGR_U,                  0xFD9B, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I16X8_EXTMUL_LOW_I8X16_S,      0xFD9C, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I16X8_EXTMUL_HIGH_I8X16_S,     0xFD9D, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I16X8_EXTMUL_LOW_I8X16_U,      0xFD9E, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I16X8_EXTMUL_HIGH_I8X16_U,     0xFD9F, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I32X4_ABS,                     0xFDA0, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I32X4_NEG,                     0xFDA1, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I32X4_ALL_TRUE,                0xFDA3, SIMD,   SV_TEST,       _,   _,   0,  _,            0) \
    X(I32X4_BITMASK,                 0xFDA4, SIMD,   SV_TEST,       _,   _,   0,  _,            0) \
    X(I32X4_EXTEND_LOW_I16X8_S,      0xFDA7, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I32X4_EXTEND_HIGH_I16X8_S,     0xFDA8, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I32X4_EXTEND_LOW_I16X8_U,      0xFDA9, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I32X4_EXTEND_HIGH_I16X8_U,     0xFDAA, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I32X4_SHL,                     0xFDAB, SIMD,   SV_SHIFT,      _,   _,   0,  _,            0) \
    X(I32X4_SHR_S,                   0xFDAC, SIMD,   SV_SHIFT,      _,   _,   0,  _,            0) \
    X(I32X4_SHR_U,                   0xFDAD, SIMD,   SV_SHIFT,      _,   _,   0,  _,            0) \
    X(I32X4_ADD,                     0xFDAE, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I32X4_SUB,                     0xFDB1, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I32X4_MUL,                     0xFDB5, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I32X4_MIN_S,                   0xFDB6, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I32X4_MIN_U,                   0xFDB7, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I32X4_MAX_S,                   0xFDB8, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I32X4_MAX_U,                   0xFDB9, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I32X4_DOT_I16X8_S,             0xFDBA, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I32X4_EXTMUL_LOW_I16X8_S,      0xFDBC, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I32X4_EXTMUL_HIGH_I16X8_S,     0xFDBD, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I32X4_EXTMUL_LOW_I16X8_U,      0xFDBE, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I32X4_EXTMUL_HIGH_I16X8_U,     0xFDBF, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I64X2_ABS,                     0xFDC0, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I64X2_NEG,                     0xFDC1, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I64X2_ALL_TRUE,                0xFDC3, SIMD,   SV_TEST,       _,   _,   0,  _,            0) \
    X(I64X2_BITMASK,                 0xFDC4, SIMD,   SV_TEST,       _,   _,   0,  _,            0) \
    X(I64X2_EXTEND_LOW_I32X4_S,      0xFDC7, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I64X2_EXTEND_HIGH_I32X4_S,     0xFDC8, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I64X2_EXTEND_LOW_I32X4_U,      0xFDC9, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I64X2_EXTEND_HIGH_I32X4_U,     0xFDCA, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I64X2_SHL,                     0xFDCB, SIMD,   SV_SHIFT,      _,   _,   0,  _,            0) \
    X(I64X2_SHR_S,                   0xFDCC, SIMD,   SV_SHIFT,      _,   _,   0,  _,            0) \
    X(I64X2_SHR_U,                   0xFDCD, SIMD,   SV_SHIFT,      _,   _,   0,  _,            0) \
    X(I64X2_ADD,                     0xFDCE, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I64X2_SUB,                     0xFDD1, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I64X2_MUL,                     0xFDD5, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I64X2_EQ,                      0xFDD6, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I64X2_NE,                      0xFDD7, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I64X2_LT_S,                    0xFDD8, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I64X2_GT_S,                    0xFDD9, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I64X2_LE_S,                    0xFDDA, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I64X2_GE_S,                    0xFDDB, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I64X2_EXTMUL_LOW_I32X4_S,      0xFDDC, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I64X2_EXTMUL_HIGH_I32X4_S,     0xFDDD, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I64X2_EXTMUL_LOW_I32X4_U,      0xFDDE, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I64X2_EXTMUL_HIGH_I32X4_U,     0xFDDF, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F32X4_ABS,                     0xFDE0, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(F32X4_NEG,                     0xFDE1, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(F32X4_SQRT,                    0xFDE3, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(F32X4_ADD,                     0xFDE4, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F32X4_SUB,                     0xFDE5, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F32X4_MUL,                     0xFDE6, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F32X4_DIV,                     0xFDE7, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F32X4_MIN,                     0xFDE8, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F32X4_MAX,                     0xFDE9, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F32X4_PMIN,                    0xFDEA, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F32X4_PMAX,                    0xFDEB, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F64X2_ABS,                     0xFDEC, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(F64X2_NEG,                     0xFDED, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(F64X2_SQRT,                    0xFDEF, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(F64X2_ADD,                     0xFDF0, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F64X2_SUB,                     0xFDF1, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F64X2_MUL,                     0xFDF2, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F64X2_DIV,                     0xFDF3, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F64X2_MIN,                     0xFDF4, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F64X2_MAX,                     0xFDF5, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F64X2_PMIN,                    0xFDF6, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F64X2_PMAX,                    0xFDF7, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I32X4_TRUNC_SAT_F32X4_S,       0xFDF8, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I32X4_TRUNC_SAT_F32X4_U,       0xFDF9, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(F32X4_CONVERT_I32X4_S,         0xFDFA, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(F32X4_CONVERT_I32X4_U,         0xFDFB, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I32X4_TRUNC_SAT_F64X2_S_ZERO,  0xFDFC, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I32X4_TRUNC_SAT_F64X2_U_ZERO,  0xFDFD, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(F64X2_CONVERT_LOW_I32X4_S,     0xFDFE, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(F64X2_CONVERT_LOW_I32X4_U,     0xFDFF, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    /* Relaxed SIMD (Wasm 3.0 vector instructions, relaxed operators): \
       sub-opcodes 0x100 and up, written 0xFDnnn; docs/simd.md gives the \
       one result weft computes for each. */ \
    X(I8X16_RELAXED_SWIZZLE,                 0xFD100, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I32X4_RELAXED_TRUNC_F32X4_S,           0xFD101, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I32X4_RELAXED_TRUNC_F32X4_U,           0xFD102, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I32X4_RELAXED_TRUNC_F64X2_S_ZERO,      0xFD103, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(I32X4_RELAXED_TRUNC_F64X2_U_ZERO,      0xFD104, SIMD,   SV_UN,         _,   _,   0,  _,            0) \
    X(F32X4_RELAXED_MADD,                    0xFD105, SIMD,   SV_TERN,       _,   _,   0,  _,            0) \
    X(F32X4_RELAXED_NMADD,                   0xFD106, SIMD,   SV_TERN,       _,   _,   0,  _,            0) \
    X(F64X2_RELAXED_MADD,                    0xFD107, SIMD,   SV_TERN,       _,   _,   0,  _,            0) \
    X(F64X2_RELAXED_NMADD,                   0xFD108, SIMD,   SV_TERN,       _,   _,   0,  _,            0) \
    X(I8X16_RELAXED_LANESELECT,              0xFD109, SIMD,   SV_TERN,       _,   _,   0,  _,            0) \
    X(I16X8_RELAXED_LANESELECT,              0xFD10A, SIMD,   SV_TERN,       _,   _,   0,  _,            0) \
    X(I32X4_RELAXED_LANESELECT,              0xFD10B, SIMD,   SV_TERN,       _,   _,   0,  _,            0) \
    X(I64X2_RELAXED_LANESELECT,              0xFD10C, SIMD,   SV_TERN,       _,   _,   0,  _,            0) \
    X(F32X4_RELAXED_MIN,                     0xFD10D, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F32X4_RELAXED_MAX,                     0xFD10E, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F64X2_RELAXED_MIN,                     0xFD10F, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(F64X2_RELAXED_MAX,                     0xFD110, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I16X8_RELAXED_Q15MULR_S,               0xFD111, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I16X8_RELAXED_DOT_I8X16_I7X16_S,       0xFD112, SIMD,   SV_BIN,        _,   _,   0,  _,            0) \
    X(I32X4_RELAXED_DOT_I8X16_I7X16_ADD_S,   0xFD113, SIMD,   SV_TERN,       _,   _,   0,  _,            0)

/* Loads and stores, a table of wasm instructions (0x28..0x3E):
   X(wasm opcode, value type, operation). The bytes accessed are the
   operation's N; i32 and f32 values sit zero-extended in 64-bit slots, so
   one operation serves every instruction with the same bits. */
#define CMP_WASM_MEMORY(X) \
    X(0x28, I32, LOAD32) \
    X(0x29, I64, LOAD64) \
    X(0x2A, F32, LOAD32) \
    X(0x2B, F64, LOAD64) \
    X(0x2C, I32, I32_LOAD8_S) \
    X(0x2D, I32, LOAD8_U) \
    X(0x2E, I32, I32_LOAD16_S) \
    X(0x2F, I32, LOAD16_U) \
    X(0x30, I64, I64_LOAD8_S) \
    X(0x31, I64, LOAD8_U) \
    X(0x32, I64, I64_LOAD16_S) \
    X(0x33, I64, LOAD16_U) \
    X(0x34, I64, I64_LOAD32_S) \
    X(0x35, I64, LOAD32) \
    X(0x36, I32, STORE32) \
    X(0x37, I64, STORE64) \
    X(0x38, F32, STORE32) \
    X(0x39, F64, STORE64) \
    X(0x3A, I32, STORE8) \
    X(0x3B, I32, STORE16) \
    X(0x3C, I64, STORE8) \
    X(0x3D, I64, STORE16) \
    X(0x3E, I64, STORE32)

/* Atomic memory instructions (threads proposal, 0xFE prefix), a table of
   wasm instructions: X(sub-opcode, value type, operation). Like plain
   loads, the narrow and 32-bit forms share operations across i32 and i64
   because results are zero-extended. notify, wait and fence are rows of
   CMP_OPS (one instruction each). */
#define CMP_WASM_ATOMIC(X) \
    X(0x10, I32, ATOMIC_LOAD32) \
    X(0x11, I64, ATOMIC_LOAD64) \
    X(0x12, I32, ATOMIC_LOAD8) \
    X(0x13, I32, ATOMIC_LOAD16) \
    X(0x14, I64, ATOMIC_LOAD8) \
    X(0x15, I64, ATOMIC_LOAD16) \
    X(0x16, I64, ATOMIC_LOAD32) \
    X(0x17, I32, ATOMIC_STORE32) \
    X(0x18, I64, ATOMIC_STORE64) \
    X(0x19, I32, ATOMIC_STORE8) \
    X(0x1A, I32, ATOMIC_STORE16) \
    X(0x1B, I64, ATOMIC_STORE8) \
    X(0x1C, I64, ATOMIC_STORE16) \
    X(0x1D, I64, ATOMIC_STORE32) \
    X(0x1E, I32, ATOMIC_ADD32) \
    X(0x1F, I64, ATOMIC_ADD64) \
    X(0x20, I32, ATOMIC_ADD8) \
    X(0x21, I32, ATOMIC_ADD16) \
    X(0x22, I64, ATOMIC_ADD8) \
    X(0x23, I64, ATOMIC_ADD16) \
    X(0x24, I64, ATOMIC_ADD32) \
    X(0x25, I32, ATOMIC_SUB32) \
    X(0x26, I64, ATOMIC_SUB64) \
    X(0x27, I32, ATOMIC_SUB8) \
    X(0x28, I32, ATOMIC_SUB16) \
    X(0x29, I64, ATOMIC_SUB8) \
    X(0x2A, I64, ATOMIC_SUB16) \
    X(0x2B, I64, ATOMIC_SUB32) \
    X(0x2C, I32, ATOMIC_AND32) \
    X(0x2D, I64, ATOMIC_AND64) \
    X(0x2E, I32, ATOMIC_AND8) \
    X(0x2F, I32, ATOMIC_AND16) \
    X(0x30, I64, ATOMIC_AND8) \
    X(0x31, I64, ATOMIC_AND16) \
    X(0x32, I64, ATOMIC_AND32) \
    X(0x33, I32, ATOMIC_OR32) \
    X(0x34, I64, ATOMIC_OR64) \
    X(0x35, I32, ATOMIC_OR8) \
    X(0x36, I32, ATOMIC_OR16) \
    X(0x37, I64, ATOMIC_OR8) \
    X(0x38, I64, ATOMIC_OR16) \
    X(0x39, I64, ATOMIC_OR32) \
    X(0x3A, I32, ATOMIC_XOR32) \
    X(0x3B, I64, ATOMIC_XOR64) \
    X(0x3C, I32, ATOMIC_XOR8) \
    X(0x3D, I32, ATOMIC_XOR16) \
    X(0x3E, I64, ATOMIC_XOR8) \
    X(0x3F, I64, ATOMIC_XOR16) \
    X(0x40, I64, ATOMIC_XOR32) \
    X(0x41, I32, ATOMIC_XCHG32) \
    X(0x42, I64, ATOMIC_XCHG64) \
    X(0x43, I32, ATOMIC_XCHG8) \
    X(0x44, I32, ATOMIC_XCHG16) \
    X(0x45, I64, ATOMIC_XCHG8) \
    X(0x46, I64, ATOMIC_XCHG16) \
    X(0x47, I64, ATOMIC_XCHG32) \
    X(0x48, I32, ATOMIC_CMPXCHG32) \
    X(0x49, I64, ATOMIC_CMPXCHG64) \
    X(0x4A, I32, ATOMIC_CMPXCHG8) \
    X(0x4B, I32, ATOMIC_CMPXCHG16) \
    X(0x4C, I64, ATOMIC_CMPXCHG8) \
    X(0x4D, I64, ATOMIC_CMPXCHG16) \
    X(0x4E, I64, ATOMIC_CMPXCHG32)

/* CMP_WHEN(CLASS, C)(...) is its arguments when a row's CLASS is C, else
   nothing: a consumer expanding the rows of one class. */
#define CMP_KEEP_(...) __VA_ARGS__
#define CMP_DROP_(...)
#define CMP_ARG2_(a, b, ...) b
#define CMP_ARG2(...) CMP_ARG2_(__VA_ARGS__)
#define CMP_SAME_NUM_NUM ~, CMP_KEEP_
#define CMP_SAME_IMM_IMM ~, CMP_KEEP_
#define CMP_SAME_ALU_ALU ~, CMP_KEEP_
#define CMP_SAME_VAR_VAR ~, CMP_KEEP_
#define CMP_SAME_MEM_MEM ~, CMP_KEEP_
#define CMP_SAME_TABLE_TABLE ~, CMP_KEEP_
#define CMP_SAME_BR_BR ~, CMP_KEEP_
#define CMP_SAME_JUMP_JUMP ~, CMP_KEEP_
#define CMP_SAME_CALL_CALL ~, CMP_KEEP_
#define CMP_SAME_ATOMIC_ATOMIC ~, CMP_KEEP_
#define CMP_SAME_SIMD_SIMD ~, CMP_KEEP_
#define CMP_SAME_VEC_VEC ~, CMP_KEEP_
#define CMP_WHEN(cls, want) CMP_ARG2(CMP_SAME_##cls##_##want, CMP_DROP_, ~)

/* Pairs (super-instructions): CMP_PAIR_OPS, one row per pair. */
#include "pairs_list.h"

/* The operations of the pairs, each pair's forms in order: a SEQ pair is
   three operations, A__B (both bodies), A__B__D1 and A__B__D2 (the
   dependent forms: the second's input 1 or 2 is the first's result, passed
   as a value; pairs.c, interp.c), a TAIL pair one. CMP_PAIR_FORMS expands
   CMP_PAIR_FORM(OP, FIRST, SECOND, FORM), FORM one of SEQ, D1, D2, TAIL,
   which the consumer defines around it. This is the one place that says
   what forms a pair has. */
#define CMP_PAIR_FORMS_SEQ_(a, b) \
    CMP_PAIR_FORM(a##__##b, a, b, SEQ) CMP_PAIR_FORM(a##__##b##__D1, a, b, D1) \
    CMP_PAIR_FORM(a##__##b##__D2, a, b, D2)
#define CMP_PAIR_FORMS_TAIL_(a, b) CMP_PAIR_FORM(a##__##b, a, b, TAIL)
#define CMP_PAIR_FORMS_ROW_(a, b, how) CMP_PAIR_FORMS_##how##_(a, b)
#define CMP_PAIR_FORMS CMP_PAIR_OPS(CMP_PAIR_FORMS_ROW_)

typedef enum cmp_op {
#define CMP_X_ENUM(name, ...) CMP_##name,
    CMP_OPS(CMP_X_ENUM)
#undef CMP_X_ENUM
#define CMP_PAIR_FORM(op, a, b, form) CMP_##op,
    CMP_PAIR_FORMS
#undef CMP_PAIR_FORM
    CMP_OP_COUNT
} cmp_op;

/* Of every operation NAME (not of pairs), from its shape:
   CMP_LEN_NAME      words taken, operands included (BR_TABLE: its fixed part);
   CMP_IN1_NAME, CMP_IN2_NAME  the words of its input values (0: none);
   CMP_DST_NAME      1 when word 1 is the slot it writes;
   CMP_TARGET_NAME   the word of its branch target (0: none);
   CMP_BYTES_NAME    its N (bytes accessed, lanes). */
enum {
#define CMP_X_WORDS(name, code, cls, shape, rt, at, n, of, fx)                              \
    CMP_LEN_##name = CMP_SHAPE_GET(0, shape) + 1, CMP_IN1_##name = CMP_SHAPE_GET(1, shape), \
    CMP_IN2_##name = CMP_SHAPE_GET(2, shape), CMP_DST_##name = CMP_SHAPE_GET(3, shape),  \
    CMP_TARGET_##name = CMP_SHAPE_GET(4, shape), CMP_BYTES_##name = n,
    CMP_OPS(CMP_X_WORDS)
#undef CMP_X_WORDS
};

/* The numeric tables' index of a NUM row's opcode: 0x00-0xFF, then 0x100 +
   n for 0xFC n. */
#define CMP_NUM_INDEX(code) ((code) < 0x100 ? (code) : (code) - 0xFC00 + 0x100)
#define CMP_NUM_TABLE_SIZE 0x108

#endif
