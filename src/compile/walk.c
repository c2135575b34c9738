/*
 * walk.c — the binary form of function bodies, checked apart from
 * validation (§5.4): compile.c's pass validates and translates one body
 * at a time, but a module malformed in any body is malformed, whatever
 * validation found first; and a body's numeric constants are collected
 * before it is translated (its constant slots).
 */
#include "compiler.h"

/* Collects a constant for the function's constant slots (bits as stored
   in a slot, so i32 5 and i64 5 share one). */
static void add_const(compiler *c, uint64_t bits) {
    if (!BASE_VEC_PUSH(c->consts, bits)) c->oom = true;
}


/* Skips a value type's bytes (cmp_walk_body): malformed ones fail here, an
   unknown type index is left to validation. */
static weft_status skip_valtype(compiler *c, bool heap) {
    mod_valtype t;
    mod_valtype_err e;
    mod_read_result r = heap ? mod_read_heaptype(&c->r, c->m, &t, &e)
                             : mod_read_valtype(&c->r, c->m, c->m->ntypes, false, &t, &e);
    if (r == MOD_READ_SHORT) return cmp_read_fail(c);
    if (r == MOD_READ_MALFORMED) return cmp_fail(c, WEFT_ERR_MALFORMED, "%s", e.msg);
    return WEFT_OK;
}

/* Walks one body's instructions checking only their binary form (§5.4);
   with `consts`, also collects every numeric constant. */
weft_status cmp_walk_body(compiler *c, const mod_func *fn, bool consts) {
    c->r = mod_body_reader(c->m, fn);
    uint32_t depth = 1, u;
    uint64_t u64;
    int64_t s64;
    uint8_t b;
    const uint8_t *bytes;
    /* multi-memory: memory indices where 2.0 has zero bytes, and memargs
       with one; memory64: u64 offsets (the compile pass checks both). */
    bool multi_memory = base_feature_on(c->m->engine, WEFT_FEATURE_MULTI_MEMORY);
    unsigned offset_bits = base_feature_on(c->m->engine, WEFT_FEATURE_MEMORY64) ? 64 : 32;
    bool typed = base_feature_on(c->m->engine, WEFT_FEATURE_FUNCTION_REFERENCES);
    bool tail = base_feature_on(c->m->engine, WEFT_FEATURE_TAIL_CALL);
    while (depth > 0) {
        c->op_offset = base_reader_offset(&c->r);
        uint8_t op;
        if (!base_read_u8(&c->r, &op)) return cmp_missing_end(c);
        bool ok = true;
        switch (op) {
        case 0x02: case 0x03: case 0x04:
            depth++;
            if (c->r.p < c->r.end && (*c->r.p == 0x40 || cmp_single_types[*c->r.p])) c->r.p++;
            else if (c->r.p < c->r.end && (*c->r.p == 0x63 || *c->r.p == 0x64) && typed) TRY(skip_valtype(c, false));
            else if (!base_read_sleb(&c->r, 33, &s64)) ok = false;
            else if (s64 < 0) return cmp_fail(c, WEFT_ERR_MALFORMED, "malformed block type");
            break;
        case 0x0B: depth--; break;
        case 0x06: /* try bt */
            if (!cmp_eh_on(c)) return cmp_fail(c, WEFT_ERR_MALFORMED, "illegal opcode 0x%02x", op);
            depth++;
            if (c->r.p < c->r.end && (*c->r.p == 0x40 || cmp_single_types[*c->r.p])) c->r.p++;
            else if (c->r.p < c->r.end && (*c->r.p == 0x63 || *c->r.p == 0x64) && typed) TRY(skip_valtype(c, false));
            else if (!base_read_sleb(&c->r, 33, &s64)) ok = false;
            else if (s64 < 0) return cmp_fail(c, WEFT_ERR_MALFORMED, "malformed block type");
            break;
        case 0x1F: /* try_table bt vec(catch) */
            if (!cmp_eh_on(c)) return cmp_fail(c, WEFT_ERR_MALFORMED, "illegal opcode 0x%02x", op);
            depth++;
            if (c->r.p < c->r.end && (*c->r.p == 0x40 || cmp_single_types[*c->r.p])) c->r.p++;
            else if (c->r.p < c->r.end && (*c->r.p == 0x63 || *c->r.p == 0x64) && typed) TRY(skip_valtype(c, false));
            else if (!base_read_sleb(&c->r, 33, &s64)) { ok = false; break; }
            else if (s64 < 0) return cmp_fail(c, WEFT_ERR_MALFORMED, "malformed block type");
            if (!base_read_u32(&c->r, &u)) { ok = false; break; }
            for (uint64_t k = 0, n = u; k < n && ok; k++) {
                if (!(ok = base_read_u8(&c->r, &b))) break;
                if (b > 3) return cmp_fail(c, WEFT_ERR_MALFORMED, "malformed catch clause");
                if (b < 2) ok = base_read_u32(&c->r, &u);
                ok = ok && base_read_u32(&c->r, &u);
            }
            break;
        case 0x18: /* delegate l: ends the try */
            if (!cmp_eh_on(c)) return cmp_fail(c, WEFT_ERR_MALFORMED, "illegal opcode 0x%02x", op);
            depth--;
            ok = base_read_u32(&c->r, &u);
            break;
        case 0x07: case 0x08: case 0x09: /* catch x, throw x, rethrow l */
            if (!cmp_eh_on(c)) return cmp_fail(c, WEFT_ERR_MALFORMED, "illegal opcode 0x%02x", op);
            ok = base_read_u32(&c->r, &u);
            break;
        case 0x0A: case 0x19: /* throw_ref, catch_all */
            if (!cmp_eh_on(c)) return cmp_fail(c, WEFT_ERR_MALFORMED, "illegal opcode 0x%02x", op);
            break;
        case 0x0C: case 0x0D: case 0x10: case 0x20: case 0x21: case 0x22: case 0x23: case 0x24:
        case 0x25: case 0x26: case 0xD2:
            ok = base_read_u32(&c->r, &u);
            break;
        case 0x12: case 0x14: case 0x15: case 0xD5: case 0xD6: /* return_call, call_ref, return_call_ref, br_on_null, br_on_non_null */
            if ((op == 0x12 || op == 0x15) ? !tail : !typed) return cmp_fail(c, WEFT_ERR_MALFORMED, "illegal opcode 0x%02x", op);
            if (op == 0x15 && !typed) return cmp_fail(c, WEFT_ERR_MALFORMED, "illegal opcode 0x%02x", op);
            ok = base_read_u32(&c->r, &u);
            break;
        case 0x13: /* return_call_indirect */
            if (!tail) return cmp_fail(c, WEFT_ERR_MALFORMED, "illegal opcode 0x%02x", op);
            ok = base_read_u32(&c->r, &u) && base_read_u32(&c->r, &u);
            break;
        case 0xD4: /* ref.as_non_null */
            if (!typed) return cmp_fail(c, WEFT_ERR_MALFORMED, "illegal opcode 0x%02x", op);
            break;
        case 0x0E:
            if (!base_read_u32(&c->r, &u)) { ok = false; break; }
            for (uint64_t k = 0, n = u; k <= n && ok; k++) ok = base_read_u32(&c->r, &u);
            break;
        case 0x11:
            ok = base_read_u32(&c->r, &u) && base_read_u32(&c->r, &u);
            break;
        case 0x1C:
            if (!base_read_u32(&c->r, &u)) { ok = false; break; }
            if (!typed) {
                ok = base_read_bytes(&c->r, u, &bytes);
                break;
            }
            for (uint32_t k = 0; k < u; k++) TRY(skip_valtype(c, false));
            break;
        case 0x3F: case 0x40:
            if (multi_memory) { /* a memory index */
                ok = base_read_u32(&c->r, &u);
                break;
            }
            if (!(ok = base_read_u8(&c->r, &b))) break;
            if (b != 0) return cmp_fail(c, WEFT_ERR_MALFORMED, "zero byte expected");
            break;
        case 0x41:
            if ((ok = base_read_sleb(&c->r, 32, &s64)) && consts) add_const(c, (uint32_t)s64);
            break;
        case 0x42:
            if ((ok = base_read_sleb(&c->r, 64, &s64)) && consts) add_const(c, (uint64_t)s64);
            break;
        case 0x43:
            if ((ok = base_read_f32(&c->r, &u)) && consts) add_const(c, u);
            break;
        case 0x44:
            if ((ok = base_read_f64(&c->r, &u64)) && consts) add_const(c, u64);
            break;
        case 0xD0:
            if (typed) {
                TRY(skip_valtype(c, true));
                break;
            }
            if (!(ok = base_read_u8(&c->r, &b))) break;
            if (b != WEFT_FUNCREF && b != WEFT_EXTERNREF && !((b == WEFT_EXNREF || b == MOD_HT_NOEXN) && cmp_eh_on(c)))
                return cmp_fail(c, WEFT_ERR_MALFORMED, "malformed reference type");
            break;
        case 0xFC:
            if (!(ok = base_read_uleb(&c->r, 32, &u64))) break;
            if (u64 <= 7) break;
            if (u64 == 8 || u64 == 12 || u64 == 14) ok = base_read_u32(&c->r, &u);
            if (u64 == 9 || u64 == 13 || u64 == 15 || u64 == 16 || u64 == 17) ok = base_read_u32(&c->r, &u);
            else if (u64 == 8 || u64 == 10 || u64 == 11) {
                for (int k = u64 == 10 ? 2 : 1; k > 0 && ok; k--) {
                    if (multi_memory) { /* a memory index */
                        ok = base_read_u32(&c->r, &u);
                        continue;
                    }
                    ok = base_read_u8(&c->r, &b);
                    if (ok && b != 0) return cmp_fail(c, WEFT_ERR_MALFORMED, "zero byte expected");
                }
            } else if (u64 == 12 || u64 == 14) ok = base_read_u32(&c->r, &u);
            else if (u64 > 17) return cmp_fail(c, WEFT_ERR_MALFORMED, "illegal opcode 0xfc %u", (unsigned)u64);
            break;
        default:
            if (op >= 0x28 && op <= 0x3E) {
                ok = base_read_u32(&c->r, &u);
                if (ok && multi_memory && (u & 0x40) && u < 0x80) ok = base_read_u32(&c->r, &u);
                ok = ok && base_read_uleb(&c->r, offset_bits, &u64);
            } else if (op == 0x00 || op == 0x01 || op == 0x05 || op == 0x0F || op == 0x1A || op == 0x1B ||
                     op == 0xD1 || (op >= 0x45 && op <= 0xC4))
                ;
            else if (op == 0xFD && cmp_simd_on(c)) TRY(cmp_simd_skip(c, consts));
            else if (op == 0xFE) {
                if (!(ok = base_read_uleb(&c->r, 32, &u64))) break;
                if (u64 == 0x03) ok = base_read_u8(&c->r, &b);
                else {
                    ok = base_read_u32(&c->r, &u);
                    if (ok && multi_memory && (u & 0x40) && u < 0x80) ok = base_read_u32(&c->r, &u);
                    ok = ok && base_read_uleb(&c->r, offset_bits, &u64);
                }
            }
            else if (op == 0xFB) /* GC's instructions (Wasm 3.0 §5.4.7) */
                return cmp_fail(c, WEFT_ERR_MALFORMED, "a GC instruction (prefix 0xfb) " MOD_GC_NEEDED);
            else return cmp_fail(c, WEFT_ERR_MALFORMED, "illegal opcode 0x%02x", op);
        }
        if (!ok) return cmp_read_fail(c);
    }
    if (c->r.p != c->r.end)
        return cmp_fail(c, WEFT_ERR_MALFORMED, "section size mismatch: bytes after the function's final end");
    return WEFT_OK;
}

/* Decoding precedes validation (§5 vs §3): a module whose bodies are
   malformed anywhere is malformed, even if validation failed earlier in the
   single pass. This checks the binary form of bodies [from, end). */
weft_status cmp_scan_bodies(compiler *c, uint32_t from) {
    mod_module *m = c->m;
    uint32_t nown = m->nfuncs - m->nfunc_imports;
    for (uint32_t i = from; i < nown; i++) {
        c->func_index = m->nfunc_imports + i;
        TRY(cmp_walk_body(c, &m->funcs[i], false));
    }
    return WEFT_OK;
}
