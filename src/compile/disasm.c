/* disasm.c — prints compiled code, one operation per line, for debugging
   the compiler and for profiling what the interpreter runs; and the
   operand counts cmp_op_length (code.h) reads, from ops.h's CMP_LEN_*,
   and the target words cmp_target_words reads, from its CMP_TARGET_*. */
#include <inttypes.h>
#include <stdio.h>

#include "code.h"

const uint8_t cmp_operand_counts[CMP_OP_COUNT] = {
#define CMP_X_COUNT(name, ...) [CMP_##name] = CMP_LEN_##name - 1,
    CMP_OPS(CMP_X_COUNT)
#undef CMP_X_COUNT
    /* A pair's words are its first operation's (pairs.c). */
#define CMP_PAIR_FORM(op, a, b, form) [CMP_##op] = CMP_LEN_##a - 1,
    CMP_PAIR_FORMS
#undef CMP_PAIR_FORM
};

const uint8_t cmp_target_word[CMP_OP_COUNT] = {
#define CMP_X_TARGET(name, ...) [CMP_##name] = CMP_TARGET_##name,
    CMP_OPS(CMP_X_TARGET)
#undef CMP_X_TARGET
#define CMP_PAIR_FORM(op, a, b, form) [CMP_##op] = CMP_TARGET_##a,
    CMP_PAIR_FORMS
#undef CMP_PAIR_FORM
};

void cmp_disasm(FILE *out, const cmp_func *f) {
    fprintf(out, "func %u: params %u results %u locals %u frame %u, %u words\n", f->func_index,
            f->nparams, f->nresults, f->nlocals, f->frame_size, f->code_len);
    for (uint32_t pos = 0; pos < f->code_len;) {
        const uint32_t *at = f->code + pos;
        uint32_t len = cmp_op_length(at);
        fprintf(out, "  %5u  @%06x  %-18s", pos, cmp_offset_of(f, pos), cmp_op_name(at[0]));
        for (uint32_t k = 1; k < len && pos + k < f->code_len; k++) fprintf(out, " %u", at[k]);
        fputc('\n', out);
        pos += len;
    }
}
