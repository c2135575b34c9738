/*
 * decode.c — the binary decoder (§5) together with the module-level
 * validation rules (§3.2-§3.4): everything about a module except function
 * bodies, which the compile stage validates as it translates them.
 *
 * Reading model. The decoder reads the way the reference interpreter does,
 * so that its messages are the ones the spec tests expect:
 *   - one cursor over the whole module; a section is read as if it went on
 *     to the end of the module, and its declared size is checked afterwards
 *     ("section size mismatch");
 *   - a vector count or byte-string length larger than what is left of the
 *     module is "length out of bounds" (so counts bound every allocation);
 *   - reading past the end of the module is "unexpected end of section or
 *     function".
 *
 * Error order. Malformed input stops decoding at once. A validation error
 * is remembered (the first one wins) and decoding goes on, so a module that
 * is both malformed and invalid is reported as malformed, as the spec's
 * decode-then-validate order requires.
 */
#include "module.h"

#include <stdio.h>

/* Value types are the module layer's (§2.3.4): their names serve every
   layer above (validation messages, link errors, the C API). */
const char *weft_valtype_name(weft_valtype t) {
    switch (t) {
    case WEFT_I32: return "i32";
    case WEFT_I64: return "i64";
    case WEFT_F32: return "f32";
    case WEFT_F64: return "f64";
    case WEFT_V128: return "v128";
    case WEFT_FUNCREF: return "funcref";
    case WEFT_EXTERNREF: return "externref";
    case WEFT_EXNREF: return "exnref";
    }
    return "unknown type";
}

/* The module may hold at most this many locals per function (the limit
   every web engine applies; the spec only requires fewer than 2^32). */
#define DEC_MAX_LOCALS 50000u

/* Runs a weft_status expression; returns its status from the enclosing
   function when it is not WEFT_OK. */
#define TRY_OR_RETURN(expr)                      \
    do {                                         \
        weft_status rc_ = (expr);                \
        if (rc_ != WEFT_OK) return rc_;          \
    } while (0)

/* A validation error held back while decoding continues. */
typedef struct dec_verr {
    bool set;
    uint32_t offset;
    char msg[160];
} dec_verr;

typedef struct dec {
    mod_module *m;
    weft_error *err;
    base_reader r;
    uint32_t cur_func;      /* function index for error locations */
    dec_verr invalid;       /* first validation error, if any */
    uint32_t nfunc_own;     /* entries of the function section */
    uint32_t ncode;         /* entries of the code section */
    bool has_code;
    uint32_t ntypes_known;  /* type indices a value type may name: while
                               the type section is read, those up to the
                               current one; then all */
    const uint8_t *names;   /* payload of the first "name" custom section */
    size_t names_len;
} dec;

/* ------------------------------------------------------------------------
 * Errors
 * ------------------------------------------------------------------------ */

static weft_status dec_malformed(dec *d, uint32_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static weft_status dec_malformed(dec *d, uint32_t offset, const char *fmt, ...) {
    char msg[WEFT_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return base_fail_at(d->err, WEFT_ERR_MALFORMED, d->cur_func, offset, "%s", msg);
}

static weft_status dec_nomem(dec *d) {
    return base_fail(d->err, WEFT_ERR_NOMEM, "out of memory while decoding the module");
}

static void verr_set(dec_verr *v, uint32_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void verr_set(dec_verr *v, uint32_t offset, const char *fmt, ...) {
    if (v->set) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(v->msg, sizeof v->msg, fmt, ap);
    va_end(ap);
    v->set = true;
    v->offset = offset;
}

/* Records a held-back validation error (if it is the first) in the module. */
static void dec_invalid_from(dec *d, const dec_verr *v) {
    if (!v->set || d->invalid.set) return;
    d->invalid = *v;
}

static void dec_invalid(dec *d, uint32_t offset, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void dec_invalid(dec *d, uint32_t offset, const char *fmt, ...) {
    if (d->invalid.set) return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->invalid.msg, sizeof d->invalid.msg, fmt, ap);
    va_end(ap);
    d->invalid.set = true;
    d->invalid.offset = offset;
}

/* ------------------------------------------------------------------------
 * Primitive reads (§5.1, §5.2)
 * ------------------------------------------------------------------------ */

static uint32_t dec_off(const dec *d) { return base_reader_offset(&d->r); }

static size_t dec_left(const dec *d) { return (size_t)(d->r.end - d->r.p); }

/* Turns a failed base_read_* into a malformed-module error. */
static weft_status dec_read_fail(dec *d) {
    const char *why = d->r.why ? d->r.why : "unexpected end";
    if (strcmp(why, "unexpected end") == 0) why = "unexpected end of section or function";
    return dec_malformed(d, dec_off(d), "%s", why);
}

static weft_status rd_u8(dec *d, uint8_t *out) {
    *out = 0;
    return base_read_u8(&d->r, out) ? WEFT_OK : dec_read_fail(d);
}

static weft_status rd_u32(dec *d, uint32_t *out) {
    *out = 0;
    return base_read_u32(&d->r, out) ? WEFT_OK : dec_read_fail(d);
}

static weft_status rd_bytes(dec *d, size_t n, const uint8_t **out) {
    return base_read_bytes(&d->r, n, out) ? WEFT_OK : dec_read_fail(d);
}

/* A vector count or byte length (§5.1.3): a u32 no larger than the bytes
   left in the module, counted from the length's own first byte. */
static weft_status rd_len(dec *d, uint32_t *out) {
    uint32_t at = dec_off(d);
    size_t left = dec_left(d);
    TRY_OR_RETURN(rd_u32(d, out));
    if (*out > left) return dec_malformed(d, at, "length out of bounds");
    return WEFT_OK;
}

/* A name (§5.2.4): length-prefixed valid UTF-8. */
static weft_status rd_name(dec *d, const uint8_t **p, uint32_t *len) {
    TRY_OR_RETURN(rd_len(d, len));
    uint32_t at = dec_off(d);
    TRY_OR_RETURN(rd_bytes(d, *len, p));
    if (!base_utf8_valid(*p, *len)) return dec_malformed(d, at, "malformed UTF-8 encoding");
    return WEFT_OK;
}

/* Same, copied into a NUL-terminated string owned by the module. */
static weft_status rd_name_dup(dec *d, char **out, uint32_t *len) {
    const uint8_t *p;
    TRY_OR_RETURN(rd_name(d, &p, len));
    *out = base_strndup((const char *)p, *len);
    return *out ? WEFT_OK : dec_nomem(d);
}

/* Type bytes are read as signed 7-bit LEB128 numbers, as the reference
   interpreter does: a continuation bit is "integer representation too
   long". Returns the low 7 bits (0x60, 0x7F, ...). */
static weft_status rd_s7(dec *d, uint8_t *out) {
    int64_t v;
    *out = 0;
    if (!base_read_sleb(&d->r, 7, &v)) return dec_read_fail(d);
    *out = (uint8_t)(v & 0x7F);
    return WEFT_OK;
}

/* Exception handling (WEFT_FEATURE_EXCEPTIONS): tags (exnref is read by
   mod_read_valtype, which asks the same bit). */
static bool dec_eh_on(const dec *d) { return base_feature_on(d->m->engine, WEFT_FEATURE_EXCEPTIONS); }

/* §5.3.3-5.3.5 value and reference types (mod_read_valtype). A type
   index out of range is a validation error, held back. */
static weft_status rd_valtype_of(dec *d, bool ref_only, mod_valtype *t) {
    mod_valtype_err e;
    switch (mod_read_valtype(&d->r, d->m, d->ntypes_known, ref_only, t, &e)) {
    case MOD_READ_OK: break;
    case MOD_READ_SHORT: return dec_read_fail(d);
    case MOD_READ_MALFORMED: return dec_malformed(d, e.offset, "%s", e.msg);
    case MOD_READ_INVALID: dec_invalid(d, e.offset, "%s", e.msg); break;
    }
    if (*t > 0xFF) d->m->typed_refs = true;
    return WEFT_OK;
}
static weft_status rd_reftype(dec *d, mod_valtype *t) { return rd_valtype_of(d, true, t); }
static weft_status rd_valtype(dec *d, mod_valtype *t) { return rd_valtype_of(d, false, t); }

/* §5.3.7 limits. The flag is read as a 1-bit LEB128 number like the
   reference interpreter does (so 0x02 is "integer too large" in Wasm 2.0);
   with the threads proposal on, memories also take 0x03 (shared, with a
   maximum) and 0x02 (shared without one: invalid). */
static weft_status rd_limits(dec *d, weft_limits *lim, bool memory) {
    uint64_t flags;
    uint32_t at = base_reader_offset(&d->r);
    bool threads = !(d->m->engine && (d->m->engine->config.disabled_features & WEFT_FEATURE_THREADS));
    /* memory64 (Wasm 3.0 §5.3.7-8): flag bit 2 makes a 64-bit memory or
       table, whose limits are u64 (0x04, 0x05; a memory with threads 0x06,
       0x07 too). */
    bool mem64 = base_feature_on(d->m->engine, WEFT_FEATURE_MEMORY64);
    threads = threads && memory;
    if (mem64) {
        /* Wasm 3.0 §5.3.7: the flags are one byte. */
        uint8_t f;
        TRY_OR_RETURN(rd_u8(d, &f));
        if (f > 7 || ((f & 2) && !threads)) return dec_malformed(d, at, "malformed limits flags");
        flags = f;
    } else if (memory && threads && d->r.p < d->r.end && (*d->r.p == 0x03 || *d->r.p == 0x02)) {
        flags = *d->r.p++;
    } else if (!base_read_uleb(&d->r, 1, &flags)) {
        return dec_read_fail(d);
    }
    memset(lim, 0, sizeof *lim);
    lim->is64 = (flags & 4) != 0;
    /* Wasm 3.0 §5.3.7 reads both address types' limits as u64 (the range
       of a 32-bit one is validation's, check_limits); 2.0 read u32. */
    if (lim->is64 || mem64) {
        uint64_t min, max = 0;
        if (!base_read_uleb(&d->r, 64, &min)) return dec_read_fail(d);
        if ((flags & 1) && !base_read_uleb(&d->r, 64, &max)) return dec_read_fail(d);
        lim->min = min;
        lim->max = max;
    } else {
        uint32_t min, max = 0;
        TRY_OR_RETURN(rd_u32(d, &min));
        if (flags & 1) TRY_OR_RETURN(rd_u32(d, &max));
        lim->min = min;
        lim->max = max;
    }
    lim->has_max = (flags & 1) != 0;
    lim->shared = (flags & 2) != 0;
    /* threads proposal: a shared memory must declare its maximum */
    if (lim->shared && !lim->has_max) dec_invalid(d, at, "shared memory must have maximum");
    return WEFT_OK;
}

/* §3.2.1 limits are valid within `range`. */
static void check_limits(dec *d, uint32_t at, const weft_limits *lim, uint64_t range,
                         const char *range_msg) {
    if (lim->min > range || (lim->has_max && lim->max > range))
        dec_invalid(d, at, "%s", range_msg);
    else if (lim->has_max && lim->min > lim->max)
        dec_invalid(d, at, "size minimum must not be greater than maximum");
}

/* §5.3.9 table types, validated by §3.2.4. */
static weft_status rd_tabletype(dec *d, mod_tabletype *tt) {
    uint32_t at = dec_off(d);
    TRY_OR_RETURN(rd_reftype(d, &tt->elem));
    TRY_OR_RETURN(rd_limits(d, &tt->limits, false));
    if (!tt->limits.is64) check_limits(d, at, &tt->limits, UINT32_MAX, "table size must be at most 2^32-1");
    else check_limits(d, at, &tt->limits, UINT64_MAX, "");
    return WEFT_OK;
}

/* §5.3.8 memory types, validated by §3.2.5. */
static weft_status rd_memtype(dec *d, weft_limits *lim) {
    uint32_t at = dec_off(d);
    TRY_OR_RETURN(rd_limits(d, lim, true));
    if (lim->is64)
        check_limits(d, at, lim, (uint64_t)1 << 48, "memory size must be at most 2^48 pages (256TiB)");
    else
        check_limits(d, at, lim, 65536, "memory size must be at most 65536 pages (4GiB)");
    return WEFT_OK;
}

/* §5.3.10 global types. */
static weft_status rd_globaltype(dec *d, mod_globaltype *gt) {
    TRY_OR_RETURN(rd_valtype(d, &gt->type));
    uint32_t at = dec_off(d);
    uint8_t mut;
    TRY_OR_RETURN(rd_u8(d, &mut));
    if (mut > 1) return dec_malformed(d, at, "malformed mutability");
    gt->mut = mut == 1;
    return WEFT_OK;
}

/* ------------------------------------------------------------------------
 * Instructions inside constant expressions
 * ------------------------------------------------------------------------ */

/* A block type (§5.4.1): 0x40, a value type, or a type index as s33. */
static weft_status skip_blocktype(dec *d) {
    if (d->r.p < d->r.end) {
        uint8_t b = *d->r.p;
        if (b == 0x40 || b == WEFT_I32 || b == WEFT_I64 || b == WEFT_F32 || b == WEFT_F64 ||
            b == WEFT_V128 || b == WEFT_FUNCREF || b == WEFT_EXTERNREF || b == WEFT_EXNREF) {
            d->r.p++;
            return WEFT_OK;
        }
    }
    int64_t v;
    return base_read_sleb(&d->r, 33, &v) ? WEFT_OK : dec_read_fail(d);
}

static weft_status skip_u32s(dec *d, unsigned n) {
    uint32_t x;
    for (unsigned i = 0; i < n; i++) TRY_OR_RETURN(rd_u32(d, &x));
    return WEFT_OK;
}

static weft_status rd_zero_byte(dec *d) {
    uint32_t at = dec_off(d);
    uint8_t b;
    TRY_OR_RETURN(rd_u8(d, &b));
    return b == 0 ? WEFT_OK : dec_malformed(d, at, "zero byte expected");
}

/* The 0xFD (SIMD) prefix: only the shape of the immediates matters here. */
static weft_status skip_simd(dec *d, uint32_t sub) {
    const uint8_t *p;
    if (sub <= 11 || sub == 92 || sub == 93) return skip_u32s(d, 2);       /* memarg */
    if (sub == 12 || sub == 13) return rd_bytes(d, 16, &p);                /* v128.const, shuffle */
    if (sub >= 21 && sub <= 34) return rd_bytes(d, 1, &p);                 /* lane index */
    if (sub >= 84 && sub <= 91) {                                          /* memarg, lane */
        TRY_OR_RETURN(skip_u32s(d, 2));
        return rd_bytes(d, 1, &p);
    }
    return sub <= 0xFF ? WEFT_OK : dec_malformed(d, dec_off(d), "illegal opcode 0xfd %u", sub);
}

/* Skips the immediates of a non-constant instruction (§5.4) so decoding can
   go on to the expression's `end`; block instructions deepen `depth`. */
static weft_status skip_instr(dec *d, uint32_t at, uint8_t op, unsigned *depth) {
    uint32_t n, sub;
    switch (op) {
    case 0x00: case 0x01: case 0x05: case 0x0F: case 0x1A: case 0x1B: case 0xD1:
        return WEFT_OK;
    case 0x02: case 0x03: case 0x04:
        (*depth)++;
        return skip_blocktype(d);
    case 0x0C: case 0x0D: case 0x10: case 0x20: case 0x21: case 0x22: case 0x24:
    case 0x25: case 0x26:
        return skip_u32s(d, 1);
    /* Exception handling: try, catch x, throw x, rethrow l, throw_ref,
       delegate l (which ends its try), catch_all, try_table. */
    case 0x06: case 0x07: case 0x08: case 0x09: case 0x0A: case 0x18: case 0x19: case 0x1F:
        if (!dec_eh_on(d)) break;
        if (op == 0x0A || op == 0x19) return WEFT_OK;
        if (op == 0x06 || op == 0x1F) {
            (*depth)++;
            TRY_OR_RETURN(skip_blocktype(d));
            if (op == 0x06) return WEFT_OK;
            TRY_OR_RETURN(rd_len(d, &n));
            for (uint32_t i = 0; i < n; i++) {
                uint8_t k;
                TRY_OR_RETURN(rd_u8(d, &k));
                if (k > 3) return dec_malformed(d, at, "malformed catch clause");
                TRY_OR_RETURN(skip_u32s(d, k < 2 ? 2 : 1));
            }
            return WEFT_OK;
        }
        if (op == 0x18 && *depth > 0) (*depth)--;
        return skip_u32s(d, 1);
    case 0x0E:
        TRY_OR_RETURN(rd_len(d, &n));
        for (uint32_t i = 0; i <= n; i++) TRY_OR_RETURN(skip_u32s(d, 1));
        return WEFT_OK;
    case 0x11:
        return skip_u32s(d, 2);
    case 0x1C: {
        mod_valtype t;
        TRY_OR_RETURN(rd_len(d, &n));
        for (uint32_t i = 0; i < n; i++) TRY_OR_RETURN(rd_valtype(d, &t));
        return WEFT_OK;
    }
    case 0x3F: case 0x40:
        return rd_zero_byte(d);
    case 0xFC:
        TRY_OR_RETURN(rd_u32(d, &sub));
        switch (sub) {
        case 0: case 1: case 2: case 3: case 4: case 5: case 6: case 7: return WEFT_OK;
        case 8: TRY_OR_RETURN(skip_u32s(d, 1)); return rd_zero_byte(d);
        case 9: case 13: case 15: case 16: case 17: return skip_u32s(d, 1);
        case 10: TRY_OR_RETURN(rd_zero_byte(d)); return rd_zero_byte(d);
        case 11: return rd_zero_byte(d);
        case 12: case 14: return skip_u32s(d, 2);
        }
        return dec_malformed(d, at, "illegal opcode 0xfc %u", sub);
    case 0xFD:
        TRY_OR_RETURN(rd_u32(d, &sub));
        return skip_simd(d, sub);
    }
    if (op >= 0x28 && op <= 0x3E) return skip_u32s(d, 2); /* memarg */
    if (op >= 0x45 && op <= 0xC4) return WEFT_OK;          /* numeric */
    return dec_malformed(d, at, "illegal opcode 0x%02x", op);
}

/* A constant expression (§5.4.9 expr), validated by Wasm 3.0 §3.4.10
   "Constant Expressions" (2.0: §3.3.10): the instructions up to the
   matching `end` must be constant and type [] -> [want]. Constant are
   t.const, ref.null, ref.func, global.get of an immutable global and,
   with extended constant expressions (WEFT_FEATURE_EXTENDED_CONST),
   i32/i64.add/sub/mul. The globals visible to global.get are, without the
   feature, the imported ones (2.0 §3.4.10 context C'); with it, those
   before the current definition (3.0 §3.4.10 module validation: a global's
   initialiser sees the imported and the earlier globals, segments see all),
   which is m->nglobals at the time of the call either way.
   One instruction is kept in `ce` as it is (op, type, value); a longer
   sequence, which can only be integer arithmetic whose every operand has
   the result's type, is kept as MOD_CONSTEXPR_SEQ with its bytes' place
   and its deepest stack, for rt_eval_const. Validation errors go to `v`
   in the reference's order: constant-ness of each instruction (and
   unknown globals), then function indices of ref.func, then types. */
static weft_status rd_constexpr(dec *d, mod_constexpr *ce, mod_valtype want, dec_verr *v) {
    mod_module *m = d->m;
    bool extended = base_feature_on(m->engine, WEFT_FEATURE_EXTENDED_CONST);
    uint32_t nvisible = extended ? m->nglobals : m->nglobal_imports;
    uint32_t start = dec_off(d), ninstr = 0;
    unsigned depth = 0;
    dec_verr func_err = {0}, type_err = {0};
    /* The operand types, for type checking (§3.4.10 types the sequence
       like a function body); grown on the heap past the first 16. */
    mod_valtype stack_small[16], *stack = stack_small;
    uint32_t height = 0, cap = 16, max_height = 0;
    weft_status st = WEFT_OK;
    memset(ce, 0, sizeof *ce);
    for (;;) {
        uint32_t at = dec_off(d);
        uint8_t op;
        if ((st = rd_u8(d, &op)) != WEFT_OK) goto out;
        if (op == 0x0B) {
            if (depth == 0) break;
            depth--;
            continue;
        }
        if (op == 0x05 && depth == 0) {
            st = dec_malformed(d, at, "END opcode expected");
            goto out;
        }
        ninstr++;
        bool is_const = true, binop = false;
        mod_valtype type = 0;
        uint64_t value = 0;
        switch (op) {
        case 0x41: { /* i32.const */
            int64_t x;
            if (!base_read_sleb(&d->r, 32, &x)) {
                st = dec_read_fail(d);
                goto out;
            }
            type = WEFT_I32;
            value = (uint32_t)x;
            break;
        }
        case 0x42: { /* i64.const */
            int64_t x;
            if (!base_read_sleb(&d->r, 64, &x)) {
                st = dec_read_fail(d);
                goto out;
            }
            type = WEFT_I64;
            value = (uint64_t)x;
            break;
        }
        case 0x43: { /* f32.const */
            uint32_t bits;
            if (!base_read_f32(&d->r, &bits)) {
                st = dec_read_fail(d);
                goto out;
            }
            type = WEFT_F32;
            value = bits;
            break;
        }
        case 0x44: /* f64.const */
            if (!base_read_f64(&d->r, &value)) {
                st = dec_read_fail(d);
                goto out;
            }
            type = WEFT_F64;
            break;
        case 0xD0: { /* ref.null ht */
            mod_valtype_err e;
            switch (mod_read_heaptype(&d->r, m, &type, &e)) {
            case MOD_READ_OK: break;
            case MOD_READ_SHORT: st = dec_read_fail(d); goto out;
            case MOD_READ_MALFORMED: st = dec_malformed(d, e.offset, "%s", e.msg); goto out;
            case MOD_READ_INVALID: verr_set(v, e.offset, "%s", e.msg); is_const = false; break;
            }
            if (type > 0xFF) m->typed_refs = true;
            break;
        }
        case 0xD2: { /* ref.func x */
            uint32_t x;
            if ((st = rd_u32(d, &x)) != WEFT_OK) goto out;
            type = WEFT_FUNCREF;
            if (x >= m->nfuncs) verr_set(&func_err, at, "unknown function %u", x);
            else if (base_feature_on(m->engine, WEFT_FEATURE_FUNCTION_REFERENCES) &&
                     m->func_types[x] < m->ntypes)
                type = mod_ref_idx(m->func_types[x], false); /* Wasm 3.0: (ref $t) */
            value = x;
            break;
        }
        case 0x23: { /* global.get x: immutable, and visible (above) */
            uint32_t x;
            if ((st = rd_u32(d, &x)) != WEFT_OK) goto out;
            if (x >= nvisible) {
                verr_set(v, at, "unknown global %u", x);
                is_const = false;
            } else {
                type = m->global_types[x].type;
                if (m->global_types[x].mut) is_const = false;
            }
            value = x;
            break;
        }
        case 0x6A: case 0x6B: case 0x6C: /* i32.add, i32.sub, i32.mul */
            is_const = extended;
            binop = true;
            type = WEFT_I32;
            break;
        case 0x7C: case 0x7D: case 0x7E: /* i64.add, i64.sub, i64.mul */
            is_const = extended;
            binop = true;
            type = WEFT_I64;
            break;
        case 0xFD: { /* v128.const is constant; value = offset of its 16 bytes */
            uint32_t sub;
            if ((st = rd_u32(d, &sub)) != WEFT_OK) goto out;
            value = dec_off(d);
            if (sub == 12) type = WEFT_V128;
            else is_const = false;
            if ((st = skip_simd(d, sub)) != WEFT_OK) goto out;
            break;
        }
        default:
            is_const = false;
            if ((st = skip_instr(d, at, op, &depth)) != WEFT_OK) goto out;
        }
        if (!is_const || depth > 0) verr_set(v, at, "constant expression required");
        if (ninstr == 1) {
            ce->op = op;
            ce->type = type;
            ce->value = value;
        }
        if (!is_const || v->set || type == 0) continue; /* the error is set */
        if (binop) { /* [t t] -> [t] */
            if (height < 2 || stack[height - 1] != type || stack[height - 2] != type)
                verr_set(&type_err, at, "type mismatch");
            if (height >= 2) height -= 2;
            else height = 0;
        }
        if (height == cap) {
            mod_valtype *n = base_calloc((size_t)cap * 2, sizeof *n);
            if (!n) {
                st = dec_nomem(d);
                goto out;
            }
            memcpy(n, stack, cap * sizeof *n);
            if (stack != stack_small) free(stack);
            stack = n;
            cap *= 2;
        }
        stack[height++] = type;
        if (height > max_height) max_height = height;
    }
    if (func_err.set) verr_set(v, func_err.offset, "%s", func_err.msg);
    if (type_err.set) verr_set(v, type_err.offset, "%s", type_err.msg);
    if (ninstr == 0 || (ninstr == 1 && !mod_valtype_sub(m, ce->type, want)) ||
        (ninstr > 1 && !v->set && (height != 1 || stack[0] != want)))
        verr_set(v, start, "type mismatch");
    if (ninstr > 1) { /* integer arithmetic: evaluated from its bytes */
        ce->op = MOD_CONSTEXPR_SEQ;
        ce->type = want;
        ce->value = start;
        ce->len = dec_off(d) - start;
        ce->max_depth = max_height;
    }
out:
    if (stack != stack_small) free(stack);
    return st;
}

/* ------------------------------------------------------------------------
 * Sections (§5.5)
 * ------------------------------------------------------------------------ */

/* Grows a module array from `old` to `old + add` elements; the new ones are
   zeroed. */
static bool grow_array(void **arr, uint32_t old, uint32_t add, size_t elem) {
    void *p = base_reallocarray(*arr, (size_t)old + add, elem);
    if (!p) return false;
    memset((char *)p + (size_t)old * elem, 0, (size_t)add * elem);
    *arr = p;
    return true;
}

/* §5.5.4 type section. */
static weft_status dec_types(dec *d) {
    mod_module *m = d->m;
    uint32_t n;
    TRY_OR_RETURN(rd_len(d, &n));
    if (n > MOD_T_MAX_TYPES) return dec_malformed(d, dec_off(d), "too many types (%u; weft takes at most %u)", n, MOD_T_MAX_TYPES);
    m->types = base_calloc(n, sizeof *m->types);
    if (!m->types) return dec_nomem(d);
    m->ntypes = n;
    for (uint32_t i = 0; i < n; i++) {
        mod_functype *ft = &m->types[i];
        uint32_t at = dec_off(d), np, nr;
        uint8_t form;
        TRY_OR_RETURN(rd_s7(d, &form));
        if (form != 0x60) {
            /* GC's composite and recursive types (Wasm 3.0 §5.3.7-5.3.8):
               said as such, not as bytes weft cannot read. */
            const char *gc = form == 0x5F ? "a struct type" : form == 0x5E ? "an array type"
                           : form == 0x4E ? "a recursive type group (rec)"
                           : form == 0x50 ? "a subtype declaration (sub)"
                           : form == 0x4F ? "a final subtype declaration (sub final)" : NULL;
            if (gc) return dec_malformed(d, at, "type %u is %s (0x%02x): it " MOD_GC_NEEDED, i, gc, form);
            return dec_malformed(d, at, "malformed function type 0x%02x", form);
        }
        d->ntypes_known = i + 1; /* Wasm 3.0: a type may name itself and earlier ones */
        TRY_OR_RETURN(rd_len(d, &np));
        ft->params = base_reallocarray(NULL, np, sizeof *ft->params);
        if (!ft->params) return dec_nomem(d);
        for (uint32_t k = 0; k < np; k++) TRY_OR_RETURN(rd_valtype(d, &ft->params[k]));
        ft->nparams = np;
        TRY_OR_RETURN(rd_len(d, &nr));
        mod_valtype *all = base_reallocarray(ft->params, (size_t)np + nr, sizeof *all);
        if (!all) return dec_nomem(d);
        ft->params = all;
        ft->results = all + np;
        for (uint32_t k = 0; k < nr; k++) TRY_OR_RETURN(rd_valtype(d, &ft->results[k]));
        ft->pub_params = base_reallocarray(NULL, (size_t)np + nr + 1, 1);
        if (!ft->pub_params) return dec_nomem(d);
        for (uint32_t k = 0; k < np + nr; k++) ft->pub_params[k] = mod_valtype_pub(all[k]);
        ft->owner = m;
        ft->nresults = nr;
    }
    d->ntypes_known = n;
    return WEFT_OK;
}

/* A tag type (Wasm 3.0 §5.3.13 tagtype: 0x00 typeidx), validated by
   §3.2.8: the type exists and has no results. Invalid types are reported
   after decoding, like every module-level validation error. */
static weft_status rd_tagtype(dec *d, uint32_t *type_index) {
    uint32_t at = dec_off(d);
    uint8_t attr;
    TRY_OR_RETURN(rd_u8(d, &attr));
    if (attr != 0) return dec_malformed(d, at, "malformed tag attribute 0x%02x", attr);
    at = dec_off(d);
    TRY_OR_RETURN(rd_u32(d, type_index));
    if (*type_index >= d->m->ntypes) dec_invalid(d, at, "unknown type %u", *type_index);
    else if (d->m->types[*type_index].nresults) dec_invalid(d, at, "non-empty tag result type");
    return WEFT_OK;
}

/* §5.5.5 importdesc: what one import is (kind and type), into `im`. */
static weft_status rd_importdesc(dec *d, mod_import *im) {
    mod_module *m = d->m;
    uint32_t at = dec_off(d);
    uint8_t kind;
    TRY_OR_RETURN(rd_u8(d, &kind));
    switch (kind) {
    case WEFT_EXTERN_FUNC:
        at = dec_off(d);
        TRY_OR_RETURN(rd_u32(d, &im->type_index));
        if (im->type_index >= m->ntypes) dec_invalid(d, at, "unknown type %u", im->type_index);
        break;
    case WEFT_EXTERN_TABLE: TRY_OR_RETURN(rd_tabletype(d, &im->table)); break;
    case WEFT_EXTERN_MEMORY: TRY_OR_RETURN(rd_memtype(d, &im->memory)); break;
    case WEFT_EXTERN_GLOBAL: TRY_OR_RETURN(rd_globaltype(d, &im->global)); break;
    case WEFT_EXTERN_TAG:
        if (!dec_eh_on(d)) return dec_malformed(d, at, "malformed import kind 0x%02x", kind);
        TRY_OR_RETURN(rd_tagtype(d, &im->type_index));
        break;
    default: return dec_malformed(d, at, "malformed import kind 0x%02x", kind);
    }
    im->kind = (weft_extern_kind)kind;
    return WEFT_OK;
}

/* The compact import encoding (the compact-import-section proposal, not
   part of Wasm 3.0), read only with WEFT_FEATURE_COMPACT_IMPORTS in a
   config's enabled_features: after a module name, an empty item name and
     0x7F  vec(name importdesc)   several imports of that module, or
     0x7E  importdesc vec(name)   several of that module and one type;
   the section's count is the number of imports, a group counting as its
   items (as wabt 1.0.41's writer emits it: the 67 such modules of the 3.0
   suite all use 0x7F; the 0x7E form is read as the proposal's overview
   describes it, with no module here to check it against). Without the option 0x7F and
   0x7E are a malformed import kind, as Wasm 3.0 says (tests/spectest/
   README.md says why only the spec runner turns it on). Returns the
   group's form,
   or 0 when the import is an ordinary one (nothing read). */
static uint8_t compact_import_form(dec *d, uint32_t name_len) {
    const weft_engine *e = d->m->engine;
    if (name_len != 0 || !e || !(e->config.enabled_features & WEFT_FEATURE_COMPACT_IMPORTS)) return 0;
    if (d->r.p >= d->r.end || (*d->r.p != 0x7F && *d->r.p != 0x7E)) return 0;
    return *d->r.p++;
}

/* One compact group (above) of module `module`, name already read, into
   imports [*i, n). */
static weft_status rd_import_group(dec *d, uint8_t form, const char *module, uint32_t module_len,
                                   uint32_t *i, uint32_t n) {
    mod_module *m = d->m;
    mod_import shared = {0};
    if (form == 0x7E) TRY_OR_RETURN(rd_importdesc(d, &shared));
    uint32_t at = dec_off(d), k;
    TRY_OR_RETURN(rd_len(d, &k));
    if (k > n - *i) return dec_malformed(d, at, "malformed import section: more imports than its count");
    for (uint32_t j = 0; j < k; j++, (*i)++) {
        mod_import *im = &m->imports[*i];
        im->module = base_calloc((size_t)module_len + 1, 1);
        if (!im->module) return dec_nomem(d);
        memcpy(im->module, module, (size_t)module_len + 1);
        im->module_len = module_len;
        TRY_OR_RETURN(rd_name_dup(d, &im->name, &im->name_len));
        if (form == 0x7E) {
            im->kind = shared.kind;
            im->type_index = shared.type_index;
            im->table = shared.table;
            im->memory = shared.memory;
            im->global = shared.global;
        } else {
            TRY_OR_RETURN(rd_importdesc(d, im));
        }
    }
    return WEFT_OK;
}

/* Wasm 3.0 §5.5.10 tag section (id 13, between memory and global). */
static weft_status dec_tags(dec *d) {
    mod_module *m = d->m;
    uint32_t n;
    TRY_OR_RETURN(rd_len(d, &n));
    if (!grow_array((void **)&m->tag_types, m->ntags, n, sizeof *m->tag_types)) return dec_nomem(d);
    for (uint32_t i = 0; i < n; i++) {
        TRY_OR_RETURN(rd_tagtype(d, &m->tag_types[m->ntags]));
        m->ntags++;
    }
    return WEFT_OK;
}

/* §5.5.5 import section. Also starts the index spaces (§2.5.1). */
static weft_status dec_imports(dec *d) {
    mod_module *m = d->m;
    uint32_t n;
    TRY_OR_RETURN(rd_len(d, &n));
    m->imports = base_calloc(n, sizeof *m->imports);
    if (!m->imports) return dec_nomem(d);
    m->nimports = n;
    uint32_t count[5] = {0};
    for (uint32_t i = 0; i < n;) {
        mod_import *im = &m->imports[i];
        TRY_OR_RETURN(rd_name_dup(d, &im->module, &im->module_len));
        TRY_OR_RETURN(rd_name_dup(d, &im->name, &im->name_len));
        uint8_t form = compact_import_form(d, im->name_len);
        if (!form) {
            TRY_OR_RETURN(rd_importdesc(d, im));
            i++;
            continue;
        }
        /* The group's imports own copies of its module name. */
        char *module = im->module;
        uint32_t module_len = im->module_len;
        free(im->name);
        im->module = im->name = NULL;
        weft_status st = rd_import_group(d, form, module, module_len, &i, n);
        free(module);
        if (st != WEFT_OK) return st;
    }
    for (uint32_t i = 0; i < n; i++) count[m->imports[i].kind]++;
    if (!(m->func_types = base_calloc(count[0], sizeof *m->func_types)) ||
        !(m->tables = base_calloc(count[1], sizeof *m->tables)) ||
        !(m->mems = base_calloc(count[2], sizeof *m->mems)) ||
        !(m->global_types = base_calloc(count[3], sizeof *m->global_types)) ||
        !(m->tag_types = base_calloc(count[4], sizeof *m->tag_types)))
        return dec_nomem(d);
    for (uint32_t i = 0; i < n; i++) {
        const mod_import *im = &m->imports[i];
        switch (im->kind) {
        case WEFT_EXTERN_FUNC: m->func_types[m->nfuncs++] = im->type_index; break;
        case WEFT_EXTERN_TABLE: m->tables[m->ntables++] = im->table; break;
        case WEFT_EXTERN_MEMORY: m->mems[m->nmems++] = im->memory; break;
        case WEFT_EXTERN_GLOBAL: m->global_types[m->nglobals++] = im->global; break;
        case WEFT_EXTERN_TAG: m->tag_types[m->ntags++] = im->type_index; break;
        }
    }
    m->ntag_imports = m->ntags;
    m->nfunc_imports = m->nfuncs;
    m->ntable_imports = m->ntables;
    m->nmem_imports = m->nmems;
    m->nglobal_imports = m->nglobals;
    return WEFT_OK;
}

/* §5.5.6 function section. */
static weft_status dec_functions(dec *d) {
    mod_module *m = d->m;
    uint32_t n;
    TRY_OR_RETURN(rd_len(d, &n));
    if (!grow_array((void **)&m->func_types, m->nfuncs, n, sizeof *m->func_types))
        return dec_nomem(d);
    m->funcs = base_calloc(n, sizeof *m->funcs);
    if (!m->funcs) return dec_nomem(d);
    m->nfuncs += n;
    d->nfunc_own = n;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t at = dec_off(d), x;
        TRY_OR_RETURN(rd_u32(d, &x));
        if (x >= m->ntypes) dec_invalid(d, at, "unknown type %u", x);
        m->funcs[i].type_index = x;
        m->func_types[m->nfunc_imports + i] = x;
    }
    return WEFT_OK;
}

/* §5.5.7 table section. */
static weft_status dec_tables(dec *d) {
    mod_module *m = d->m;
    uint32_t n;
    TRY_OR_RETURN(rd_len(d, &n));
    if (!grow_array((void **)&m->tables, m->ntables, n, sizeof *m->tables)) return dec_nomem(d);
    m->table_inits = base_calloc(n, sizeof *m->table_inits);
    if (!m->table_inits) return dec_nomem(d);
    bool typed = base_feature_on(m->engine, WEFT_FEATURE_FUNCTION_REFERENCES);
    for (uint32_t i = 0; i < n; i++) {
        /* Wasm 3.0 §5.5.7: 0x40 0x00 tabletype expr is a table with an
           initialiser; a plain tabletype's elements start null, so its
           type must be nullable (§3.4.3). */
        uint32_t at = dec_off(d);
        bool init = typed && d->r.p < d->r.end && *d->r.p == 0x40;
        if (init) {
            uint8_t zero;
            d->r.p++;
            TRY_OR_RETURN(rd_u8(d, &zero));
            if (zero != 0) return dec_malformed(d, at + 1, "malformed table: 0x00 expected after 0x40");
        }
        mod_tabletype *tt = &m->tables[m->ntables];
        TRY_OR_RETURN(rd_tabletype(d, tt));
        if (init) {
            dec_verr v = {0};
            TRY_OR_RETURN(rd_constexpr(d, &m->table_inits[i], tt->elem, &v));
            dec_invalid_from(d, &v);
        } else if (!mod_nullable(tt->elem)) {
            dec_invalid(d, at, "type mismatch: a table of a non-nullable type needs an initialiser");
        }
        m->ntables++;
    }
    return WEFT_OK;
}

/* §5.5.8 memory section. */
static weft_status dec_memories(dec *d) {
    mod_module *m = d->m;
    uint32_t n;
    TRY_OR_RETURN(rd_len(d, &n));
    if (!grow_array((void **)&m->mems, m->nmems, n, sizeof *m->mems)) return dec_nomem(d);
    for (uint32_t i = 0; i < n; i++) {
        TRY_OR_RETURN(rd_memtype(d, &m->mems[m->nmems]));
        m->nmems++;
    }
    return WEFT_OK;
}

/* §5.5.9 global section; initialisers validated by §3.4.4. */
static weft_status dec_globals(dec *d) {
    mod_module *m = d->m;
    uint32_t n;
    TRY_OR_RETURN(rd_len(d, &n));
    if (!grow_array((void **)&m->global_types, m->nglobals, n, sizeof *m->global_types))
        return dec_nomem(d);
    m->globals = base_calloc(n, sizeof *m->globals);
    if (!m->globals) return dec_nomem(d);
    for (uint32_t i = 0; i < n; i++) {
        mod_global *g = &m->globals[i];
        dec_verr v = {0};
        TRY_OR_RETURN(rd_globaltype(d, &g->type));
        TRY_OR_RETURN(rd_constexpr(d, &g->init, g->type.type, &v));
        dec_invalid_from(d, &v);
        m->global_types[m->nglobals++] = g->type;
    }
    return WEFT_OK;
}

/* Orders export names by length, then bytes. */
static int export_name_cmp(const mod_export *x, const mod_export *y) {
    if (x->name_len != y->name_len) return x->name_len < y->name_len ? -1 : 1;
    return memcmp(x->name, y->name, x->name_len);
}

/* Same, then by position, so equal names stay in module order. */
static int cmp_export(const void *a, const void *b) {
    const mod_export *x = *(const mod_export *const *)a, *y = *(const mod_export *const *)b;
    int c = export_name_cmp(x, y);
    if (c) return c;
    return x < y ? -1 : x > y;
}

/* §3.4.10: export names are unique. Reports the later of the first
   duplicate pair in module order. */
static weft_status check_export_names(dec *d, const uint32_t *offsets) {
    mod_module *m = d->m;
    if (m->nexports < 2) return WEFT_OK;
    const mod_export **sorted = base_calloc(m->nexports, sizeof *sorted);
    if (!sorted) return dec_nomem(d);
    for (uint32_t i = 0; i < m->nexports; i++) sorted[i] = &m->exports[i];
    qsort(sorted, m->nexports, sizeof *sorted, cmp_export);
    uint32_t dup = UINT32_MAX;
    for (uint32_t i = 1; i < m->nexports; i++) {
        if (export_name_cmp(sorted[i - 1], sorted[i]) == 0) {
            uint32_t later = (uint32_t)(sorted[i] - m->exports);
            if (later < dup) dup = later;
        }
    }
    if (dup != UINT32_MAX)
        dec_invalid(d, offsets[dup], "duplicate export name \"%.*s\"",
                    (int)(m->exports[dup].name_len > 64 ? 64 : m->exports[dup].name_len),
                    m->exports[dup].name);
    free(sorted);
    return WEFT_OK;
}

/* §5.5.10 export section. */
static weft_status dec_exports(dec *d) {
    mod_module *m = d->m;
    weft_status rc = WEFT_OK;
    uint32_t n, *offsets = NULL;
    TRY_OR_RETURN(rd_len(d, &n));
    m->exports = base_calloc(n, sizeof *m->exports);
    offsets = base_calloc(n, sizeof *offsets);
    if (!m->exports || !offsets) {
        rc = dec_nomem(d);
        goto out;
    }
    m->nexports = n;
    for (uint32_t i = 0; i < n; i++) {
        mod_export *x = &m->exports[i];
        offsets[i] = dec_off(d);
        if ((rc = rd_name_dup(d, &x->name, &x->name_len))) goto out;
        uint32_t at = dec_off(d);
        uint8_t kind;
        if ((rc = rd_u8(d, &kind))) goto out;
        if (kind > WEFT_EXTERN_TAG || (kind == WEFT_EXTERN_TAG && !dec_eh_on(d))) {
            rc = dec_malformed(d, at, "malformed export kind 0x%02x", kind);
            goto out;
        }
        x->kind = (weft_extern_kind)kind;
        at = dec_off(d);
        if ((rc = rd_u32(d, &x->index))) goto out;
        static const char *const what[] = {"function", "table", "memory", "global", "tag"};
        const uint32_t limit[] = {m->nfuncs, m->ntables, m->nmems, m->nglobals, m->ntags};
        if (x->index >= limit[kind]) dec_invalid(d, at, "unknown %s %u", what[kind], x->index);
    }
    rc = check_export_names(d, offsets);
out:
    free(offsets);
    return rc;
}

/* §5.5.11 start section; §3.4.7: the function has type [] -> []. */
static weft_status dec_start(dec *d) {
    mod_module *m = d->m;
    uint32_t at = dec_off(d);
    TRY_OR_RETURN(rd_u32(d, &m->start));
    m->has_start = true;
    if (m->start >= m->nfuncs) {
        dec_invalid(d, at, "unknown function %u", m->start);
    } else if (m->func_types[m->start] < m->ntypes) {
        const mod_functype *ft = mod_func_type(m, m->start);
        if (ft->nparams || ft->nresults)
            dec_invalid(d, at, "start function must have type [] -> [] (function %u)", m->start);
    }
    return WEFT_OK;
}

/* One element segment (§5.5.12, the eight encodings; §3.4.5). */
static weft_status dec_elem(dec *d, mod_elem *e) {
    mod_module *m = d->m;
    uint32_t at = dec_off(d), flags, table_at = 0, n;
    dec_verr offset_err = {0}, item_err = {0};
    TRY_OR_RETURN(rd_u32(d, &flags));
    if (flags > 7) return dec_malformed(d, at, "malformed elements segment kind %u", flags);
    /* The function-index forms (elemkind 0x00) make (ref func) in Wasm 3.0
       (§5.5.12), funcref in 2.0. */
    e->type = base_feature_on(m->engine, WEFT_FEATURE_FUNCTION_REFERENCES) && !(flags & 4)
                  ? WEFT_FUNCREF | MOD_T_NONNULL : WEFT_FUNCREF;
    if (flags & 1) {
        e->mode = (flags & 2) ? MOD_SEG_DECLARATIVE : MOD_SEG_PASSIVE;
    } else {
        e->mode = MOD_SEG_ACTIVE;
        table_at = dec_off(d);
        if (flags & 2) TRY_OR_RETURN(rd_u32(d, &e->table_index));
        /* The offset has the table's address type (memory64, Wasm 3.0 §3.4.7). */
        weft_valtype at_type = e->table_index < m->ntables && m->tables[e->table_index].limits.is64 ? WEFT_I64 : WEFT_I32;
        TRY_OR_RETURN(rd_constexpr(d, &e->offset, at_type, &offset_err));
    }
    if (flags & 3) {
        if (flags & 4) {
            TRY_OR_RETURN(rd_reftype(d, &e->type));
        } else {
            uint8_t kind;
            at = dec_off(d);
            TRY_OR_RETURN(rd_u8(d, &kind));
            if (kind != 0x00) return dec_malformed(d, at, "malformed element kind 0x%02x", kind);
        }
    }
    TRY_OR_RETURN(rd_len(d, &n));
    e->items = base_calloc(n, sizeof *e->items);
    if (!e->items) return dec_nomem(d);
    e->count = n;
    for (uint32_t i = 0; i < n; i++) {
        mod_constexpr *it = &e->items[i];
        if (flags & 4) {
            TRY_OR_RETURN(rd_constexpr(d, it, e->type, &item_err));
        } else {
            uint32_t x;
            at = dec_off(d);
            TRY_OR_RETURN(rd_u32(d, &x));
            if (x >= m->nfuncs) verr_set(&item_err, at, "unknown function %u", x);
            it->op = 0xD2;
            it->type = e->type;
            it->value = x;
        }
    }
    dec_invalid_from(d, &item_err);
    if (e->mode == MOD_SEG_ACTIVE) {
        if (e->table_index >= m->ntables)
            dec_invalid(d, table_at, "unknown table %u", e->table_index);
        else if (!mod_valtype_sub(m, e->type, m->tables[e->table_index].elem)) {
            char a[32], b[32];
            dec_invalid(d, table_at, "type mismatch: element segment of %s for a table of %s",
                        mod_valtype_str(e->type, a), mod_valtype_str(m->tables[e->table_index].elem, b));
        }
        dec_invalid_from(d, &offset_err);
    }
    return WEFT_OK;
}

/* §5.5.12 element section. */
static weft_status dec_elems(dec *d) {
    mod_module *m = d->m;
    uint32_t n;
    TRY_OR_RETURN(rd_len(d, &n));
    m->elems = base_calloc(n, sizeof *m->elems);
    if (!m->elems) return dec_nomem(d);
    m->nelems = n;
    for (uint32_t i = 0; i < n; i++) TRY_OR_RETURN(dec_elem(d, &m->elems[i]));
    return WEFT_OK;
}

/* §5.5.13 code section: local declarations are decoded here, the
   instructions are left to the compile stage. */
static weft_status dec_code_entry(dec *d, uint32_t i) {
    mod_module *m = d->m;
    uint32_t size;
    TRY_OR_RETURN(rd_len(d, &size));
    const uint8_t *start = d->r.p;
    if (size > dec_left(d)) return dec_malformed(d, dec_off(d), "unexpected end of section or function");
    const uint8_t *end = start + size;
    uint32_t at = dec_off(d), ndecl;
    uint64_t total = 0;
    mod_valtype t;
    /* First pass: count and check (§5.5.13: the total must fit). */
    TRY_OR_RETURN(rd_len(d, &ndecl));
    const uint8_t *decls = d->r.p;
    for (uint32_t k = 0; k < ndecl; k++) {
        uint32_t c;
        TRY_OR_RETURN(rd_u32(d, &c));
        TRY_OR_RETURN(rd_valtype(d, &t));
        total += c;
    }
    if (total > DEC_MAX_LOCALS)
        return dec_malformed(d, at, "too many locals (%llu; at most %u)",
                             (unsigned long long)total, DEC_MAX_LOCALS);
    if (d->r.p > end) return dec_malformed(d, at, "section size mismatch (locals past the end of the body)");
    const uint8_t *body = d->r.p;
    if (i < d->nfunc_own) {
        /* Second pass: expand the declarations. */
        mod_func *f = &m->funcs[i];
        f->local_types = base_reallocarray(NULL, (size_t)total, sizeof *f->local_types);
        if (!f->local_types) return dec_nomem(d);
        d->r.p = decls;
        for (uint32_t k = 0, j = 0; k < ndecl; k++) {
            uint32_t c;
            TRY_OR_RETURN(rd_u32(d, &c));
            TRY_OR_RETURN(rd_valtype(d, &t));
            for (uint32_t k2 = 0; k2 < c; k2++) f->local_types[j++] = t;
        }
        f->nlocals = (uint32_t)total;
        f->body = body;
        f->body_len = (uint32_t)(end - body);
        f->body_offset = (uint32_t)(body - m->bytes);
    }
    d->r.p = end;
    return WEFT_OK;
}

static weft_status dec_code(dec *d) {
    uint32_t n;
    TRY_OR_RETURN(rd_len(d, &n));
    d->has_code = true;
    d->ncode = n;
    for (uint32_t i = 0; i < n; i++) {
        d->cur_func = d->m->nfunc_imports + i;
        TRY_OR_RETURN(dec_code_entry(d, i));
    }
    d->cur_func = UINT32_MAX;
    if (n == d->nfunc_own) d->m->code_end = dec_off(d);
    return WEFT_OK;
}

/* §5.5.14 data section (three encodings; §3.4.6). */
static weft_status dec_datas(dec *d) {
    mod_module *m = d->m;
    uint32_t n;
    TRY_OR_RETURN(rd_len(d, &n));
    m->datas = base_calloc(n, sizeof *m->datas);
    if (!m->datas) return dec_nomem(d);
    m->ndatas = n;
    for (uint32_t i = 0; i < n; i++) {
        mod_data *s = &m->datas[i];
        dec_verr offset_err = {0};
        uint32_t at = dec_off(d), flags;
        TRY_OR_RETURN(rd_u32(d, &flags));
        if (flags > 2) return dec_malformed(d, at, "malformed data segment kind %u", flags);
        s->mode = flags == 1 ? MOD_SEG_PASSIVE : MOD_SEG_ACTIVE;
        uint32_t mem_at = dec_off(d);
        if (flags == 2) TRY_OR_RETURN(rd_u32(d, &s->memory_index));
        /* The offset has the memory's address type: i64 for a 64-bit memory
           (memory64, Wasm 3.0 §3.4.6). */
        mod_valtype at_type =
            s->memory_index < m->nmems && m->mems[s->memory_index].is64 ? WEFT_I64 : WEFT_I32;
        if (flags != 1) TRY_OR_RETURN(rd_constexpr(d, &s->offset, at_type, &offset_err));
        TRY_OR_RETURN(rd_len(d, &s->len));
        TRY_OR_RETURN(rd_bytes(d, s->len, &s->bytes));
        if (s->mode == MOD_SEG_ACTIVE) {
            if (s->memory_index >= m->nmems) dec_invalid(d, mem_at, "unknown memory %u", s->memory_index);
            dec_invalid_from(d, &offset_err);
        }
    }
    return WEFT_OK;
}

/* §5.5.3 custom sections: the name must be valid UTF-8. Each is listed for
   embedders (weft_module_custom); the first "name" section is also kept
   for after decoding. */
static weft_status dec_custom(dec *d, size_t send) {
    mod_module *m = d->m;
    const uint8_t *name;
    uint32_t len;
    TRY_OR_RETURN(rd_name(d, &name, &len));
    if (dec_off(d) > send || send > m->len)
        return dec_malformed(d, dec_off(d), "unexpected end of section or function");
    if (len == 4 && memcmp(name, "name", 4) == 0 && !d->names) {
        d->names = d->r.p;
        d->names_len = send - dec_off(d);
    }
    mod_custom *grown = realloc(m->customs, ((size_t)m->ncustoms + 1) * sizeof *grown);
    if (!grown) return dec_nomem(d);
    m->customs = grown;
    mod_custom *cs = &m->customs[m->ncustoms];
    if (!(cs->name = base_strndup((const char *)name, len))) return dec_nomem(d);
    cs->name_len = len;
    cs->offset = dec_off(d);
    cs->len = (uint32_t)(send - dec_off(d));
    m->ncustoms++;
    d->r.p = m->bytes + send;
    return WEFT_OK;
}

/* ------------------------------------------------------------------------
 * The name section (custom "name", appendix §7.4): for diagnostics only,
 * so anything malformed in it makes us ignore it rather than the module.
 * ------------------------------------------------------------------------ */

static bool names_read_name(base_reader *r, const uint8_t **p, uint32_t *len) {
    return base_read_u32(r, len) && base_read_bytes(r, *len, p) && base_utf8_valid(*p, *len);
}

static weft_status dec_names(dec *d) {
    mod_module *m = d->m;
    weft_status rc = WEFT_OK;
    base_reader r = {m->bytes, d->names, d->names + d->names_len, NULL, NULL};
    char *modname = NULL, **fnames = NULL;
    int last_id = -1;
    while (r.p < r.end) {
        uint8_t id;
        uint32_t size, len;
        const uint8_t *p;
        if (!base_read_u8(&r, &id) || !base_read_u32(&r, &size) || size > (size_t)(r.end - r.p) ||
            (int)id <= last_id)
            goto ignore;
        last_id = id;
        base_reader sub = {m->bytes, r.p, r.p + size, NULL, NULL};
        r.p += size;
        if (id == 0) {
            if (!names_read_name(&sub, &p, &len) || sub.p != sub.end) goto ignore;
            if (!(modname = base_strndup((const char *)p, len))) goto nomem;
        } else if (id == 1 && m->nfuncs > 0) {
            uint32_t n, idx;
            int64_t prev = -1;
            if (!(fnames = base_calloc(m->nfuncs, sizeof *fnames))) goto nomem;
            if (!base_read_u32(&sub, &n)) goto ignore;
            for (uint32_t i = 0; i < n; i++) {
                if (!base_read_u32(&sub, &idx) || (int64_t)idx <= prev) goto ignore;
                if (!names_read_name(&sub, &p, &len)) goto ignore;
                prev = idx;
                if (idx < m->nfuncs && !(fnames[idx] = base_strndup((const char *)p, len))) goto nomem;
            }
            if (sub.p != sub.end) goto ignore;
        }
    }
    m->name = modname;
    m->func_names = fnames;
    return WEFT_OK;
nomem:
    rc = dec_nomem(d);
ignore:
    free(modname);
    for (uint32_t i = 0; fnames && i < m->nfuncs; i++) free(fnames[i]);
    free(fnames);
    return rc;
}

/* ------------------------------------------------------------------------
 * The module (§5.5.16)
 * ------------------------------------------------------------------------ */

/* Position of each known section id in the required order (Wasm 3.0
   §5.5.16): type, import, function, table, memory, tag, global, export,
   start, element, data count, code, data. */
static const uint8_t section_rank[14] = {0, 1, 2, 3, 4, 5, 7, 8, 9, 10, 12, 13, 11, 6};

static weft_status dec_section(dec *d, uint8_t id, size_t send) {
    switch (id) {
    case 0: return dec_custom(d, send);
    case 1: return dec_types(d);
    case 2: return dec_imports(d);
    case 3: return dec_functions(d);
    case 4: return dec_tables(d);
    case 5: return dec_memories(d);
    case 6: return dec_globals(d);
    case 7: return dec_exports(d);
    case 8: return dec_start(d);
    case 9: return dec_elems(d);
    case 10: return dec_code(d);
    case 11: return dec_datas(d);
    case 13: return dec_tags(d);
    case 12: /* §5.5.15 data count */
        d->m->has_data_count = true;
        return rd_u32(d, &d->m->data_count);
    }
    return WEFT_OK;
}

/* C.refs (§3.4.10): functions named by ref.func outside function bodies,
   and functions exported. */
static weft_status fill_declared(dec *d) {
    mod_module *m = d->m;
    m->func_declared = base_calloc(m->nfuncs, 1);
    if (!m->func_declared) return dec_nomem(d);
    for (uint32_t i = 0; i < m->nglobals - m->nglobal_imports; i++)
        if (m->globals[i].init.op == 0xD2 && m->globals[i].init.value < m->nfuncs)
            m->func_declared[m->globals[i].init.value] = 1;
    for (uint32_t i = 0; i < m->nelems; i++)
        for (uint32_t k = 0; k < m->elems[i].count; k++)
            if (m->elems[i].items[k].op == 0xD2 && m->elems[i].items[k].value < m->nfuncs)
                m->func_declared[m->elems[i].items[k].value] = 1;
    for (uint32_t i = 0; i < m->nexports; i++)
        if (m->exports[i].kind == WEFT_EXTERN_FUNC && m->exports[i].index < m->nfuncs)
            m->func_declared[m->exports[i].index] = 1;
    return WEFT_OK;
}

weft_status mod_decode(mod_module *m, weft_error *err) {
    dec d = {0};
    d.m = m;
    d.err = err;
    d.cur_func = UINT32_MAX;
    if (m->len > UINT32_MAX) return dec_malformed(&d, 0, "module too large (over 4 GiB)");
    d.r = (base_reader){m->bytes, m->bytes, m->bytes + m->len, NULL, NULL};

    /* §5.5.16 magic and version. */
    const uint8_t *p;
    if (!base_read_bytes(&d.r, 4, &p)) return dec_malformed(&d, 0, "unexpected end");
    if (memcmp(p, "\0asm", 4) != 0) return dec_malformed(&d, 0, "magic header not detected");
    if (!base_read_bytes(&d.r, 4, &p)) return dec_malformed(&d, 4, "unexpected end");
    if (memcmp(p, "\1\0\0\0", 4) != 0) {
        /* A component has the same magic, then a 2-byte version (0x0d in
           Binary.md's preamble, bumped until the standard is final; the
           drafts before had 0x0a-0x0c) and the layer 1 (a core module's
           4-byte version reads as layer 0): said so, with where such a
           binary goes. Version 0 with layer 1 is no component either
           (binary.wast's "\00\00\01\00" stays an unknown version). */
        if (p[0] != 0 && p[1] == 0 && p[2] == 1 && p[3] == 0)
            return dec_malformed(&d, 4, "this is a WebAssembly component (component model, binary version "
                                        "0x%02x, layer 1), not a core module: weft_module_load takes core "
                                        "modules only; load a component with weft_component_load", p[0]);
        return dec_malformed(&d, 4, "unknown binary version");
    }

    unsigned last_rank = 0;
    while (d.r.p < d.r.end) {
        uint32_t at = dec_off(&d), size;
        uint8_t id = *d.r.p++;
        if (id > 13 || (id == 13 && !dec_eh_on(&d))) return dec_malformed(&d, at, "malformed section id %u", id);
        if (id != 0) {
            if (section_rank[id] <= last_rank)
                return dec_malformed(&d, at, "unexpected content after last section "
                                             "(section %u out of order or repeated)", id);
            last_rank = section_rank[id];
        }
        TRY_OR_RETURN(rd_len(&d, &size));
        size_t send = (size_t)dec_off(&d) + size; /* may pass the end by a few bytes */
        TRY_OR_RETURN(dec_section(&d, id, send));
        if (dec_off(&d) != send)
            return dec_malformed(&d, at, "section size mismatch (section %u)", id);
    }

    uint32_t end = (uint32_t)m->len;
    /* §5.5.16: checked after the last section, like the reference does. */
    if (d.nfunc_own != d.ncode)
        return dec_malformed(&d, end, "function and code section have inconsistent lengths (%u and %u)",
                             d.nfunc_own, d.ncode);
    if (m->has_data_count && m->data_count != m->ndatas)
        return dec_malformed(&d, end, "data count and data section have inconsistent lengths (%u and %u)",
                             m->data_count, m->ndatas);
    if (d.names) TRY_OR_RETURN(dec_names(&d));
    if (d.invalid.set)
        return base_fail_at(err, WEFT_ERR_INVALID, UINT32_MAX, d.invalid.offset, "%s", d.invalid.msg);
    if (m->nmems > 1 && !base_feature_on(m->engine, WEFT_FEATURE_MULTI_MEMORY))
        return base_fail_at(err, WEFT_ERR_INVALID, UINT32_MAX, end, "multiple memories");
    return fill_declared(&d);
}

void mod_free_contents(mod_module *m) {
    if (!m) return;
    for (uint32_t i = 0; i < m->ntypes; i++) {
        free(m->types[i].params);
        free(m->types[i].pub_params);
    }
    free(m->types);
    for (uint32_t i = 0; i < m->nimports; i++) {
        free(m->imports[i].module);
        free(m->imports[i].name);
    }
    free(m->imports);
    free(m->func_types);
    if (m->funcs)
        for (uint32_t i = 0; i < m->nfuncs - m->nfunc_imports; i++) free(m->funcs[i].local_types);
    free(m->funcs);
    free(m->tables);
    free(m->table_inits);
    m->table_inits = NULL;
    free(m->mems);
    free(m->global_types);
    free(m->tag_types);
    free(m->globals);
    for (uint32_t i = 0; i < m->nexports; i++) free(m->exports[i].name);
    free(m->exports);
    for (uint32_t i = 0; i < m->nelems; i++) free(m->elems[i].items);
    free(m->elems);
    free(m->datas);
    free(m->func_declared);
    for (uint32_t i = 0; i < m->ncustoms; i++) free(m->customs[i].name);
    free(m->customs);
    free(m->name);
    if (m->func_names)
        for (uint32_t i = 0; i < m->nfuncs; i++) free(m->func_names[i]);
    free(m->func_names);
    m->types = NULL;
    m->imports = NULL;
    m->func_types = NULL;
    m->funcs = NULL;
    m->tables = NULL;
    m->mems = NULL;
    m->global_types = NULL;
    m->tag_types = NULL;
    m->globals = NULL;
    m->exports = NULL;
    m->elems = NULL;
    m->datas = NULL;
    m->func_declared = NULL;
    m->customs = NULL;
    m->ncustoms = 0;
    m->name = NULL;
    m->func_names = NULL;
    m->ntypes = m->nimports = m->nexports = m->nelems = m->ndatas = 0;
    m->nfuncs = m->nfunc_imports = m->ntables = m->ntable_imports = 0;
    m->nmems = m->nmem_imports = m->nglobals = m->nglobal_imports = 0;
    m->ntags = m->ntag_imports = 0;
}
