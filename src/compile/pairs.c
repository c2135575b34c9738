/*
 * pairs.c — super-instructions from pairs of neighbouring operations.
 *
 * The compiler's output is final when this runs: the pass only rewrites
 * the word of an operation that is followed by one it pairs with
 * (CMP_PAIR_OPS in ops.h) into the pair's word. Nothing moves and no
 * other word changes, so branch targets, the pcmap and every saved code
 * position stay valid; a branch to the second operation of a pair runs it
 * alone, as before. Each operation is paired with the one after it, so in
 * A B C both A and B may start pairs: A+B runs A and B and dispatches C,
 * whose word says B+C only when B was reached by a branch.
 */
#include "compiler.h"

/* The pair operation of `first` followed by `second`, or 0. */
static uint32_t pair_of(uint32_t first, uint32_t second) {
    switch (first << 16 | second) {
#define CMP_X_PAIR(a, b, how) case (uint32_t)CMP_##a << 16 | CMP_##b: return CMP_##a##__##b;
    CMP_PAIR_OPS(CMP_X_PAIR)
#undef CMP_X_PAIR
    default: return 0;
    }
}

void cmp_pair_ops(uint32_t *code, uint32_t len) {
    _Static_assert(CMP_OP_COUNT <= 0xFFFF, "opcodes fit 16 bits");
    uint32_t pos = 0;
    while (pos < len) {
        uint32_t next = pos + cmp_op_length(code + pos);
        if (next >= len) break;
        /* code[next] is still the original operation: only words at or
           before pos have been rewritten. */
        uint32_t p = pair_of(code[pos], code[next]);
        if (p) code[pos] = p;
        pos = next;
    }
}
