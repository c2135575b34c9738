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

/* The pairs that have dependent forms (SEQ). */
static const bool is_seq[CMP_OP_COUNT] = {
#define CMP_PAIR_IS_SEQ_SEQ(op) [CMP_##op] = true,
#define CMP_PAIR_IS_SEQ_D1(op)
#define CMP_PAIR_IS_SEQ_D2(op)
#define CMP_PAIR_IS_SEQ_TAIL(op)
#define CMP_PAIR_FORM(op, a, b, form) CMP_PAIR_IS_SEQ_##form(op)
    CMP_PAIR_FORMS
#undef CMP_PAIR_FORM
};

/* The pair operation of `first` followed by `second`, or 0. */
static uint32_t pair_of(uint32_t first, uint32_t second) {
    switch (first << 16 | second) {
#define CMP_X_PAIR(a, b, how) case (uint32_t)CMP_##a << 16 | CMP_##b: return CMP_##a##__##b;
    CMP_PAIR_OPS(CMP_X_PAIR)
#undef CMP_X_PAIR
    default: return 0;
    }
}

/* The words naming each operation's input values and whether word 1 is
   its dst, from its shape (ops.h). */
static const struct { uint8_t in1, in2, dst; } inputs[CMP_OP_COUNT] = {
#define CMP_X_INPUTS(name, ...) [CMP_##name] = {CMP_IN1_##name, CMP_IN2_##name, CMP_DST_##name},
    CMP_OPS(CMP_X_INPUTS)
#undef CMP_X_INPUTS
};

/* A SEQ pair's dependent form (its word + 1 or + 2: ops.h) when the
   second's first or second input value is the slot the first writes.
   (COPY2 writes its first dst before it reads its second source, which
   may be that dst: its shape, D_S_D_X, makes that source no value.) */
static uint32_t dependent_form(uint32_t pair, const uint32_t *first, const uint32_t *second) {
    if (!inputs[first[0]].dst) return pair;
    uint32_t in1 = inputs[second[0]].in1, in2 = inputs[second[0]].in2;
    if (in1 && second[in1] == first[1]) return pair + 1;
    if (in2 && second[in2] == first[1]) return pair + 2;
    return pair;
}

#ifndef WEFT_NO_PAIRS
#define WEFT_NO_PAIRS 0
#endif

void cmp_pair_ops(uint32_t *code, uint32_t len) {
    _Static_assert(CMP_OP_COUNT <= 0xFFFF, "opcodes fit 16 bits");
    if (WEFT_NO_PAIRS) return; /* the interpreter was built without them */
    uint32_t pos = 0;
    while (pos < len) {
        uint32_t next = pos + cmp_op_length(code + pos);
        if (next >= len) break;
        /* code[next] is still the original operation: only words at or
           before pos have been rewritten. */
        uint32_t p = pair_of(code[pos], code[next]);
        if (p && is_seq[p]) p = dependent_form(p, code + pos, code + next);
        if (p) code[pos] = p;
        pos = next;
    }
}
