/*
 * atomic.c — the threads proposal's atomic memory instructions (0xFE
 * prefix), part of compile.c's single pass: each pops its address and
 * operands and emits one operation with its memarg's offset.
 */
#include "compiler.h"

/* An atomic access: pops the address and `n` operands of `types`, pushes
   a result of type `rt` (0: none), and emits op [dst] address operands...
   offset. */
static weft_status emit_atomic(compiler *c, uint32_t op, mod_valtype rt, uint32_t n,
                               const mod_valtype *types, const cmp_memarg *ma) {
    centry v[2], addr;
    for (uint32_t i = n; i-- > 0;) TRY(cmp_pop(c, types[i], &v[i]));
    if (ma->big && (op == CMP_ATOMIC_NOTIFY || op == CMP_ATOMIC_WAIT32 || op == CMP_ATOMIC_WAIT64)) {
        /* On a big 64-bit memory a wait takes the 64-bit effective address
           (ADDR64_EA), not a window: it may be made again on resume. */
        TRY(cmp_mem_begin_wide(c, ma, &addr));
        op = op == CMP_ATOMIC_NOTIFY ? CMP_ATOMIC_NOTIFY_W : op == CMP_ATOMIC_WAIT32 ? CMP_ATOMIC_WAIT32_W : CMP_ATOMIC_WAIT64_W;
    } else {
        TRY(cmp_mem_begin(c, ma, &addr));
    }
    uint32_t dst = rt ? cmp_push(c, rt) : 0;
    cmp_emit_op(c, op);
    if (rt) cmp_emit(c, dst);
    cmp_emit_src(c, addr.slot);
    for (uint32_t i = 0; i < n; i++) cmp_emit_src(c, v[i].slot);
    cmp_emit(c, ma->offset);
    cmp_mem_end(c, ma);
    return WEFT_OK;
}

/* Atomic memory instructions (threads proposal, 0xFE prefix). Their
   memarg alignment must be exactly the access size; misaligned addresses
   trap at run time ("unaligned atomic"). */
weft_status cmp_compile_atomic(compiler *c) {
    static const struct { uint8_t code, bytes; mod_valtype type; uint16_t op; } ops[] = {
#define CMP_X(code, type, op) {code, CMP_BYTES_##op, WEFT_##type, CMP_##op},
        CMP_WASM_ATOMIC(CMP_X)
#undef CMP_X
    };
    uint32_t sub;
    READ_U32(&sub);
    if (sub == 0x03) { /* atomic.fence 0x00 */
        uint8_t z;
        READ_U8(&z);
        if (z != 0) return cmp_fail(c, WEFT_ERR_MALFORMED, "zero byte expected");
        cmp_emit_op(c, CMP_ATOMIC_FENCE);
        return WEFT_OK;
    }
    uint32_t bytes = 0, op = 0;
    mod_valtype type = WEFT_I32;
    if (sub == 0x00) { bytes = 4; op = CMP_ATOMIC_NOTIFY; }
    else if (sub == 0x01) { bytes = 4; op = CMP_ATOMIC_WAIT32; }
    else if (sub == 0x02) { bytes = 8; op = CMP_ATOMIC_WAIT64; type = WEFT_I64; }
    else {
        for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
            if (ops[i].code == sub) {
                bytes = ops[i].bytes;
                op = ops[i].op;
                type = ops[i].type;
            }
        if (!bytes) return cmp_fail(c, WEFT_ERR_MALFORMED, "illegal opcode 0xfe %u", sub);
    }
    cmp_memarg ma;
    TRY(cmp_read_memarg(c, bytes, true, &ma));
    const mod_valtype one[1] = {type}, wait[2] = {type, WEFT_I64}, two[2] = {type, type};
    const mod_valtype count[1] = {WEFT_I32};
    if (op == CMP_ATOMIC_NOTIFY) return emit_atomic(c, op, WEFT_I32, 1, count, &ma);
    if (op == CMP_ATOMIC_WAIT32 || op == CMP_ATOMIC_WAIT64) return emit_atomic(c, op, WEFT_I32, 2, wait, &ma);
    if (sub <= 0x16) return emit_atomic(c, op, type, 0, NULL, &ma);   /* loads */
    if (sub <= 0x1D) return emit_atomic(c, op, 0, 1, one, &ma);       /* stores */
    if (sub < 0x48) return emit_atomic(c, op, type, 1, one, &ma);     /* read-modify-write */
    return emit_atomic(c, op, type, 2, two, &ma);                      /* compare-exchange */
}
