/*
 * pairs_list.h — the list of pairs (super-instructions) the interpreter
 * runs, included by ops.h. One row per pair, X(FIRST, SECOND, SEQ|TAIL);
 * the rows are data (chosen by profiling, see below) and may be
 * regenerated as a whole: nothing else in the tree restates them.
 */
#ifndef WEFT_PAIRS_LIST_H
#define WEFT_PAIRS_LIST_H

/* Pairs (super-instructions): an operation and the one that follows it in
   the code, run by one dispatch. After a function is compiled, the pass in
   pairs.c replaces the first operation's word by the pair's; the words of
   both operations stay as they were, so a branch to the second still runs
   it alone, a pair's length is its first operation's, and a trap in the
   second reports the second's position. X(FIRST, SECOND, how): SEQ runs
   both bodies in the one handler (with two dependent forms, _D1 and _D2,
   for a second whose first or second input is the first's result: see
   CMP_PAIR_FORMS in ops.h); TAIL runs the first's and jumps straight to the
   second's handler (calls and returns, whose bodies leave the loop's
   straight line). Chosen from the operation pairs that follow each other
   most often in the CPU suite's programs and in Yosys, in rounds, the
   last after tail duplication (bench/results/pairs-2026-12-01.txt). */
#define CMP_PAIR_OPS(X) \
    X(F64_ADD_LD, STORE64, SEQ) \
    X(STORE64, I32_ADD_IMM, SEQ) \
    X(I32_ADD_IMM, LOAD32, SEQ) \
    X(I32_ADD_IMM, I32_ADD_IMM, SEQ) \
    X(I32_ADD, I32_ADD_IMM, SEQ) \
    X(I32_ADD_IMM, BR_IF_I32_NE_IMM, SEQ) \
    X(COPY, I32_ADD_IMM, SEQ) \
    X(I32_ADD, RETURN, TAIL) \
    X(F64_MUL, F64_ADD_LD, SEQ) \
    X(I32_ADD_IMM, BR_IF_I32_GT_U_IMM, SEQ) \
    X(I32_ADD_IMM, CALL_INTERNAL, TAIL) \
    X(COPY, BR_IF_I32_LT_U_IMM, SEQ) \
    X(I32_ADD, I32_ADD, SEQ) \
    X(F64_MUL_LD, F64_ADD_LD, SEQ) \
    X(STORE32, I32_ADD_IMM, SEQ) \
    X(I32_ADD_IMM, LOAD64_ADDI, SEQ) \
    X(LOAD32, BR_TABLE, SEQ) \
    X(LOAD64_ADDI, F64_MUL, SEQ) \
    X(I32_ADD, F64_MUL_LD, SEQ) \
    X(I32_ROTL_IMM, I32_XOR_ROTL, SEQ) \
    X(I32_ADD_IMM, BR, SEQ) \
    X(I32_ADD_IMM, COPY, SEQ) \
    X(BR_IF_I32_LT_U_IMM, COPY, SEQ) \
    X(BR_IF_I32_GT_U_IMM, I32_ADD, SEQ) \
    X(COPY, CALL_INTERNAL, TAIL) \
    X(COPY2, COPY2, SEQ) \
    X(LOAD32, I32_ADD_IMM, SEQ) \
    X(I32_ADD, LOAD32_ADDI, SEQ) \
    X(LOAD64_ADDI, F64_SUB, SEQ) \
    X(F64_MUL, F64_MUL, SEQ) \
    X(F64_SUB, STORE64, SEQ) \
    X(F64_MUL, F64_SUB, SEQ) \
    X(I32_ADD_IMM, F64_MUL, SEQ) \
    X(I32_ADD_IMM, BR_IF, SEQ) \
    X(I32_SHL_IMM, I32_ADD, SEQ) \
    X(I32_AND_IMM, I32_XOR, SEQ) \
    X(I32_MUL, I32_SHR_U_AND, SEQ) \
    X(I32_SHR_U_AND, I32_ADD, SEQ) \
    X(I32_ADD_IMM, I32_SHL_IMM, SEQ) \
    X(I32_XOR_ROTL, I32_XOR_ROTL, SEQ) \
    X(LOAD64, F64_MUL, SEQ) \
    X(STORE32, COPY, SEQ) \
    X(STORE64, LOAD64, SEQ) \
    X(LOAD32_ADDI, COPY, SEQ) \
    X(LOAD32, I32_SHL_IMM, SEQ) \
    X(I32_ADD, STORE8, SEQ) \
    X(I32_SHL_IMM, LOAD32_ADDI, SEQ) \
    X(I32_ADD_IMM, I32_ADD, SEQ) \
    X(I32_XOR, I32_MUL_IMM, SEQ) \
    X(LOAD32, BR_IF_I32_LT_U, SEQ) \
    X(I32_SHR_U_IMM, I32_XOR, SEQ) \
    X(I32_LOAD16_S_ADDI, I32_MUL, SEQ) \
    X(F64_SUB, F64_MUL, SEQ) \
    X(LOAD64, LOAD64_ADDI, SEQ) \
    X(I32_ADD, BR_IF_I32_LT_U, SEQ) \
    X(STORE8, I32_ADD, SEQ) \
    X(COPY, BR_IF_I32_GT_U, SEQ) \
    X(I32_XOR, I32_ADD, SEQ) \
    X(I32_LT_S_IMM, SELECT, SEQ) \
    X(LOAD32, LOAD32, SEQ) \
    X(I32_SUB, I32_SHR_S_IMM, SEQ) \
    X(LOAD32, BR_IF_I32_NE, SEQ) \
    X(LOAD32, I32_SUB, SEQ) \
    X(LOAD32, BR_IF_I32_EQ, SEQ) \
    X(BR_IF_I32_EQZ, LOAD32, SEQ) \
    X(STORE32, STORE32, SEQ) \
    X(LOAD32, BR_IF_I32_EQZ, SEQ) \
    X(LOAD32, STORE32, SEQ) \
    X(GLOBAL_GET, I32_SUB_IMM, SEQ) \
    X(I32_SUB_IMM, GLOBAL_SET, SEQ) \
    X(I32_ADD, LOAD32, SEQ) \
    X(COPY, LOAD32, SEQ) \
    X(I32_SHL_IMM, LOAD32_ADD, SEQ) \
    X(I32_MUL_IMM, I32_ADD, SEQ) \
    X(LOAD32, BR_IF, SEQ) \
    X(I32_AND_IMM, BR_IF_I32_EQZ, SEQ) \
    X(STORE32, LOAD32, SEQ) \
    X(GLOBAL_SET, LOAD32, SEQ) \
    X(LOAD32_ADDI, LOAD32, SEQ) \
    X(I32_ADD_IMM, GLOBAL_SET, SEQ) \
    X(COPY2, RETURN, TAIL) \
    X(COPY2, CALL_INTERNAL, TAIL) \
    X(LOAD32, I32_MUL_IMM, SEQ) \
    X(LOAD32, I32_AND_IMM, SEQ) \
    X(STORE64, F64_MUL_LD, SEQ) \
    X(F64_MUL, LOAD64_ADDI, SEQ) \
    X(F64_MUL, F64_ADD, SEQ) \
    X(F64_ADD, F64_ADD, SEQ) \
    X(F64_ADD, F64_SQRT, SEQ) \
    X(F64_SQRT, F64_MUL, SEQ) \
    X(F64_SUB, LOAD64, SEQ) \
    X(F64_MUL, F64_DIV, SEQ) \
    X(F64_DIV, F64_MUL, SEQ) \
    X(LOAD64_ADDI, LOAD64_ADDI, SEQ) \
    X(LOAD32_ADD, STORE32, SEQ) \
    X(BR_IF_I32_EQZ, I32_ADD_IMM, SEQ) \
    X(LOAD32, I32_ADD_LD, SEQ) \
    X(I32_ADD_LD, STORE32, SEQ) \
    X(I32_ADD, COPY, SEQ) \
    X(I32_ADD_IMM, BR_IF_I32_GT_S, SEQ) \
    X(STORE32, COPY2, SEQ) \
    X(COPY2, BR_IF_I32_LE_S, SEQ) \
    X(BR_IF_I32_GT_S, STORE32, SEQ) \
    X(LOAD32, BR_IF_I32_GT_U, SEQ) \
    X(LOAD16_U, LOAD16_U, SEQ) \
    X(I32_LOAD16_S_ADDI, I32_LOAD16_S_ADDI, SEQ) \
    X(I32_ADD, LOAD16_U_ADDI, SEQ) \
    X(I32_ADD, I32_SHR_U_AND, SEQ) \
    X(LOAD16_U, I32_MUL, SEQ) \
    X(LOAD16_U_ADDI, I32_ADD, SEQ) \
    X(LOAD16_U_ADDI, I32_MUL, SEQ) \
    X(I32_SHR_U_AND, I32_ADD3, SEQ) \
    X(I32_ADD3, I32_SHR_U_AND, SEQ) \
    X(I32_ADD, I32_ROTL_IMM, SEQ) \
    X(I32_AND, I32_AND, SEQ) \
    X(I32_AND, I32_XOR, SEQ) \
    X(I32_AND, I32_ADD3, SEQ) \
    X(I32_AND, I32_ADD, SEQ) \
    X(I32_XOR, I32_AND, SEQ) \
    X(I32_XOR, I32_ROTL_IMM, SEQ) \
    X(I32_XOR_ROTL, I32_ADD, SEQ) \
    X(I32_XOR_ROTL, I32_AND, SEQ) \
    X(I32_ADD3, I32_XOR_IMM, SEQ) \
    X(I32_ADD3, I32_ADD, SEQ) \
    X(I32_XOR_IMM, I32_AND, SEQ) \
    X(LOAD32_ADD, I32_ADD_IMM, SEQ) \
    X(BR_IF_I32_EQ_IMM, LOAD32_ADD, SEQ) \
    X(LOAD8_U, I32_ADD_IMM, SEQ) \
    X(I32_MUL_IMM, LOAD8_U, SEQ) \
    X(LOAD8_U_ADDI, STORE8, SEQ) \
    X(STORE8, COPY, SEQ) \
    X(I32_ADD_IMM, I32_GT_U_IMM, SEQ) \
    X(I32_AND_IMM, LOAD8_U_ADDI, SEQ) \
    X(I32_SHR_U_IMM, BR_IF, SEQ) \
    X(SELECT, RETURN, TAIL) \
    X(I32_LT_U, SELECT, SEQ) \
    X(I32_MUL_IMM, I32_ADD_IMM, SEQ) \
    X(I32_ADD_IMM, RETURN, TAIL) \
    X(COPY, I32_LT_S_IMM, SEQ) \
    X(SELECT, BR_IF, SEQ) \
    X(COPY, CALL_INDIRECT, TAIL) \
    X(I32_ADD, BR_IF_I32_EQ_IMM, SEQ) \
    X(LOAD32_ADDI, I32_ADD3, SEQ) \
    X(I32_ADD_IMM, COPY2, SEQ) \
    X(I32_SHR_U_AND, LOAD16_U, SEQ) \
    X(I32_GT_U, I32_LT_U, SEQ) \
    X(I32_SUB, I32_SHR_U_IMM, SEQ) \
    X(SELECT, SELECT, SEQ) \
    X(I32_SHR_U_IMM, I32_ADD, SEQ) \
    X(I32_GT_U_IMM, I32_SHR_U_IMM, SEQ) \
    X(I32_ADD, STORE32, SEQ) \
    X(LOAD32_ADDI, I32_ROTL_IMM, SEQ) \
    X(LOAD8_U_ADDI, I32_SHL_IMM, SEQ) \
    X(LOAD8_U, LOAD8_U, SEQ) \
    X(I32_ADD_IMM, STORE32, SEQ) \
    X(I32_AND_IMM, BR_IF_I32_EQ, SEQ) \
    X(BR_IF_I32_GT_U, I32_ADD_IMM, SEQ) \
    X(I32_ADD_IMM, I32_AND_IMM, SEQ) \
    X(LOAD8_U, BR_IF_I32_EQZ, SEQ) \
    X(I32_ADD_IMM, LOAD8_U_ADDI, SEQ) \
    X(I32_XOR, I32_SHR_U_IMM, SEQ) \
    X(I32_LOAD16_S, I32_LOAD16_S, SEQ) \
    X(COPY, BR, SEQ) \
    X(I32_SHL_IMM, I32_SHR_S_IMM, SEQ) \
    X(LOAD8_U, I32_AND_IMM, SEQ) \
    X(I32_ADD3, I32_ADD3, SEQ) \
    X(I32_LOAD16_S, I32_MUL, SEQ) \
    X(I32_LOAD16_S_ADDI, I32_ADD, SEQ) \
    X(I32_ADD, I32_LOAD16_S_ADDI, SEQ) \
    X(I32_MUL, I32_LOAD16_S, SEQ) \
    X(I32_MUL, I32_ADD3, SEQ) \
    X(I32_MUL, I32_LOAD16_S_ADDI, SEQ) \
    X(I32_ADD3, I32_ADD_IMM, SEQ) \
    X(I32_XOR_IMM, I32_SHL_IMM, SEQ) \
    X(I32_SHL_IMM, I32_XOR, SEQ) \
    X(I32_SHR_S_IMM, I32_LT_S_IMM, SEQ) \
    X(I64_ADD, I64_ADD, SEQ) \
    X(LOAD8_U, SELECT, SEQ) \
    X(I32_EQZ, I32_ADD, SEQ) \
    X(SELECT, I64_ADD, SEQ) \
    X(I64_ADD_IMM, LOAD8_U, SEQ) \
    X(I32_ADD, I32_EQZ, SEQ) \
    X(I64_ADD, I32_EQZ, SEQ) \
    X(SELECT, I64_ADD_IMM, SEQ) \
    X(LOAD8_U_ADDI, SELECT, SEQ) \
    X(I64_ADD_IMM, LOAD8_U_ADDI, SEQ) \
    X(I64_ADD_IMM, BR_IF_I64_NE, SEQ) \
    X(I32_GT_S, I32_ADD_IMM, SEQ) \
    X(I64_ADD_IMM, I32_ADD_IMM, SEQ) \
    X(I32_ADD_IMM, I64_ADD_IMM, SEQ) \
    X(COPY, I64_ADD_IMM, SEQ) \
    X(I32_AND, STORE32, SEQ)

#endif
