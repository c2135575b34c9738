/*
 * cabi.c — the canonical ABI's layout, flattening, loading, storing,
 * flat lifting and lowering (cabi.h; CanonicalABI.md "Despecialization"
 * through "Lifting and Lowering Values"). Strings are in cabi_string.c,
 * handles in resource.c.
 *
 * Despecialization (CanonicalABI.md "Despecialization") is not a step
 * here: tuple is read as a record of its members, enum, option and result
 * as variants (case_type below), map as a list of (key, value) tuples
 * (the ENTRY functions).
 *
 * Recursion follows the type, whose depth is bounded (CM_ABI_MAX_DEPTH),
 * never the value; every length read from memory is checked against the
 * memory and the spec's limits before anything is allocated, and the
 * allocation itself against the arena's limit.
 */
#include "cabi_impl.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>

/* ---- traps ---------------------------------------------------------------- */

static const char *const trap_phrases[] = {
    [CM_TRAP_NONE] = "",
#define CM_TRAP_PHRASE_(code, phrase) [code] = phrase,
    CM_TRAPS(CM_TRAP_PHRASE_)
#undef CM_TRAP_PHRASE_
    [CM_TRAP_OTHER] = "",
};

const char *cm_trap_phrase(cm_trap code) {
    return (unsigned)code <= CM_TRAP_OTHER ? trap_phrases[code] : "";
}

cm_trap cm_trap_code(const weft_error *err) {
    if (!err || err->status != WEFT_ERR_TRAP) return CM_TRAP_NONE;
    for (unsigned c = CM_TRAP_NONE + 1; c < CM_TRAP_OTHER; c++) {
        size_t len = strlen(trap_phrases[c]);
        if (strncmp(err->message, trap_phrases[c], len) == 0) return (cm_trap)c;
    }
    return CM_TRAP_OTHER;
}

weft_status cm_trap_fail(weft_error *err, cm_trap code, const char *fmt, ...) {
    if (!err) return WEFT_ERR_TRAP;
    char detail[WEFT_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(detail, sizeof detail, fmt, ap);
    va_end(ap);
    const char *phrase = cm_trap_phrase(code);
    size_t len = strlen(phrase);
    if (strncmp(detail, phrase, len) == 0) base_fail(err, WEFT_ERR_TRAP, "%s", detail);
    else base_fail(err, WEFT_ERR_TRAP, "%s: %s", phrase, detail);
    err->trap = WEFT_TRAP_HOST;
    return WEFT_ERR_TRAP;
}

weft_status cm_abi_internal(cm_abi_cx *cx, const char *what) {
    return base_fail(cx->err, WEFT_ERR_MISUSE, "canonical ABI: internal inconsistency (%s)", what);
}

static weft_status misuse(cm_abi_cx *cx, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static weft_status misuse(cm_abi_cx *cx, const char *fmt, ...) {
    char msg[WEFT_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return base_fail(cx->err, WEFT_ERR_MISUSE, "%s", msg);
}

static const char *const kind_names[CM_KIND_COUNT] = {
    [CM_BOOL] = "bool", [CM_S8] = "s8", [CM_U8] = "u8", [CM_S16] = "s16", [CM_U16] = "u16",
    [CM_S32] = "s32", [CM_U32] = "u32", [CM_S64] = "s64", [CM_U64] = "u64", [CM_F32] = "f32",
    [CM_F64] = "f64", [CM_CHAR] = "char", [CM_STRING] = "string",
    [CM_ERROR_CONTEXT] = "error-context", [CM_RECORD] = "record", [CM_VARIANT] = "variant",
    [CM_LIST] = "list", [CM_FIXED_LIST] = "fixed list", [CM_TUPLE] = "tuple", [CM_FLAGS] = "flags",
    [CM_ENUM] = "enum", [CM_OPTION] = "option", [CM_RESULT] = "result", [CM_OWN] = "own",
    [CM_BORROW] = "borrow", [CM_STREAM] = "stream", [CM_FUTURE] = "future", [CM_MAP] = "map",
};

static const char *kind_name(cm_kind k) {
    return (unsigned)k < CM_KIND_COUNT ? kind_names[k] : "?";
}

/* ---- despecialized views --------------------------------------------------- */

/* The variant's cases (despecialize: enum, option, result). */
static uint32_t ncases(const cm_valtype *t) {
    return t->kind == CM_OPTION || t->kind == CM_RESULT ? 2 : t->n;
}

static const cm_valtype *case_type(const cm_valtype *t, uint32_t i) {
    switch (t->kind) {
    case CM_VARIANT: return t->fields[i].type;
    case CM_OPTION: return i == 0 ? NULL : t->elem;
    case CM_RESULT: return i == 0 ? t->elem : t->elem2;
    default: return NULL; /* enum */
    }
}

/* The record's fields (despecialize: tuple). */
static const cm_valtype *member_type(const cm_valtype *t, uint32_t i) {
    return t->kind == CM_TUPLE ? t->members[i] : t->fields[i].type;
}

/* ---- layout ("Alignment", "Element Size", "Flattening") --------------------- */

/* discriminant_type(cases): u8 up to 256 cases, u16 up to 65536, else u32 */
uint32_t cm_abi_discriminant_size(uint32_t n) {
    return n <= 0x100u ? 1 : n <= 0x10000u ? 2 : 4;
}

#define FLAT_SAT UINT32_MAX /* flat counts saturate here: anything past 16 spills */

static uint32_t flat_add(uint32_t a, uint64_t b) {
    uint64_t s = a + b;
    return s > FLAT_SAT ? FLAT_SAT : (uint32_t)s;
}

/* The layout of a map's entry, the tuple (key, value). */
static void entry_layout(const cm_valtype *t, uint32_t *size, uint32_t *align, uint32_t *voff) {
    uint32_t a = t->elem->align > t->elem2->align ? t->elem->align : t->elem2->align;
    uint64_t off = cm_align_to(t->elem->size, t->elem2->align);
    *voff = (uint32_t)off;
    *size = (uint32_t)cm_align_to(off + t->elem2->size, a);
    *align = a;
}

static weft_status layout(cm_valtype *t, uint32_t depth, weft_error *err) {
    if (!t) return base_fail(err, WEFT_ERR_INVALID, "canonical ABI: a missing type");
    if (t->align) return WEFT_OK;
    if (depth > CM_ABI_MAX_DEPTH)
        return base_fail(err, WEFT_ERR_INVALID, "type nests deeper than %d", CM_ABI_MAX_DEPTH);
    uint64_t size = 0;
    uint32_t align = 1, flat = 0;
    weft_status st;
    switch (t->kind) {
    case CM_ERROR_CONTEXT:
    case CM_OWN:
    case CM_BORROW:
    case CM_STREAM:
    case CM_FUTURE:
        /* an i32 handle; a stream or future's payload type matters to the async issue */
        if ((t->kind == CM_STREAM || t->kind == CM_FUTURE) && t->elem) {
            st = layout((cm_valtype *)t->elem, depth + 1, err);
            if (st != WEFT_OK) return st;
        }
        size = 4, align = 4, flat = 1;
        break;
    case CM_LIST:
    case CM_MAP:
        st = layout((cm_valtype *)t->elem, depth + 1, err);
        if (st == WEFT_OK && t->kind == CM_MAP) st = layout((cm_valtype *)t->elem2, depth + 1, err);
        if (st != WEFT_OK) return st;
        size = 8, align = 4, flat = 2;
        break;
    case CM_FIXED_LIST:
        if (t->n == 0) return base_fail(err, WEFT_ERR_INVALID, "a fixed-length list of length 0");
        st = layout((cm_valtype *)t->elem, depth + 1, err);
        if (st != WEFT_OK) return st;
        size = (uint64_t)t->elem->size * t->n;
        align = t->elem->align;
        flat = flat_add(0, (uint64_t)t->elem->flat_count * t->n);
        break;
    case CM_RECORD:
    case CM_TUPLE:
        if (t->n == 0) return base_fail(err, WEFT_ERR_INVALID, "a %s without fields", kind_name(t->kind));
        for (uint32_t i = 0; i < t->n; i++) {
            cm_valtype *m = (cm_valtype *)member_type(t, i);
            st = layout(m, depth + 1, err);
            if (st != WEFT_OK) return st;
            size = cm_align_to(size, m->align) + m->size;
            if (m->align > align) align = m->align;
            flat = flat_add(flat, m->flat_count);
            if (size > UINT32_MAX) break;
        }
        size = cm_align_to(size, align);
        break;
    case CM_VARIANT:
    case CM_ENUM:
    case CM_OPTION:
    case CM_RESULT: {
        uint32_t n = ncases(t);
        if (n == 0) return base_fail(err, WEFT_ERR_INVALID, "a %s without cases", kind_name(t->kind));
        uint32_t disc = cm_abi_discriminant_size(n), max_align = 1, max_size = 0, max_flat = 0;
        for (uint32_t i = 0; i < n; i++) {
            cm_valtype *c = (cm_valtype *)case_type(t, i);
            if (!c) continue;
            st = layout(c, depth + 1, err);
            if (st != WEFT_OK) return st;
            if (c->align > max_align) max_align = c->align;
            if (c->size > max_size) max_size = c->size;
            if (c->flat_count > max_flat) max_flat = c->flat_count;
        }
        align = disc > max_align ? disc : max_align;
        size = cm_align_to(cm_align_to(disc, max_align) + max_size, align);
        flat = flat_add(1, max_flat);
        break;
    }
    case CM_FLAGS:
        if (t->n == 0 || t->n > 32)
            return base_fail(err, WEFT_ERR_INVALID, "flags with %u labels (1 to 32)", t->n);
        size = align = t->n <= 8 ? 1 : t->n <= 16 ? 2 : 4;
        flat = 1;
        break;
    default:
        return base_fail(err, WEFT_ERR_INVALID, "canonical ABI: unknown type kind %d", (int)t->kind);
    }
    if (size > UINT32_MAX)
        return base_fail(err, WEFT_ERR_INVALID, "a %s of %llu bytes or more (exceeds maximum byte size)",
                         kind_name(t->kind), (unsigned long long)size);
    t->size = (uint32_t)size;
    t->flat_count = flat;
    t->align = align; /* last: a node with align set is complete */
    return WEFT_OK;
}

weft_status cm_abi_layout(cm_valtype *t, weft_error *err) { return layout(t, 0, err); }

/* join(a, b) */
static weft_valtype join(weft_valtype a, weft_valtype b) {
    if (a == b) return a;
    if ((a == WEFT_I32 && b == WEFT_F32) || (a == WEFT_F32 && b == WEFT_I32)) return WEFT_I32;
    return WEFT_I64;
}

static uint32_t flatten(const cm_valtype *t, weft_valtype *out, uint32_t max) {
    uint32_t n = 0;
#define PUT(vt) do { if (n < max) out[n] = (vt); n++; } while (0)
    switch (t->kind) {
    case CM_S64:
    case CM_U64: PUT(WEFT_I64); break;
    case CM_F32: PUT(WEFT_F32); break;
    case CM_F64: PUT(WEFT_F64); break;
    case CM_STRING:
    case CM_LIST:
    case CM_MAP:
        PUT(WEFT_I32);
        PUT(WEFT_I32);
        break;
    case CM_FIXED_LIST:
        for (uint32_t i = 0; i < t->n && n < max; i++) n += flatten(t->elem, out + n, max - n);
        return t->flat_count;
    case CM_RECORD:
    case CM_TUPLE:
        for (uint32_t i = 0; i < t->n && n < max; i++) n += flatten(member_type(t, i), out + n, max - n);
        return t->flat_count;
    case CM_VARIANT:
    case CM_ENUM:
    case CM_OPTION:
    case CM_RESULT: {
        /* flatten_variant: the discriminant, then each case's flat types
           joined position by position */
        PUT(WEFT_I32);
        uint32_t joined = 0;
        weft_valtype c[CM_MAX_FLAT_PARAMS];
        for (uint32_t i = 0; i < ncases(t); i++) {
            const cm_valtype *ct = case_type(t, i);
            if (!ct) continue;
            uint32_t k = flatten(ct, c, CM_MAX_FLAT_PARAMS);
            if (k > CM_MAX_FLAT_PARAMS) k = CM_MAX_FLAT_PARAMS; /* never read: it spills */
            for (uint32_t j = 0; j < k; j++) {
                if (1 + j >= max) break;
                if (j < joined) out[1 + j] = join(out[1 + j], c[j]);
                else out[1 + j] = c[j];
            }
            if (k > joined) joined = k;
        }
        return t->flat_count;
    }
    default: PUT(WEFT_I32); break; /* the rest are one i32 */
    }
#undef PUT
    return n;
}

uint32_t cm_abi_flatten(const cm_valtype *t, weft_valtype *out, uint32_t max) {
    return flatten(t, out, max);
}

static const cm_valtype *tl_type(cm_typelist ts, uint32_t i) {
    return ts.fields ? ts.fields[i].type : ts.types[i];
}

/* flatten_types: the count (saturated) and the first `max` types */
static uint32_t flatten_types(cm_typelist ts, weft_valtype *out, uint32_t max) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < ts.n; i++) {
        const cm_valtype *t = tl_type(ts, i);
        if (n < max) flatten(t, out + n, max - n);
        n = flat_add(n, t->flat_count);
    }
    return n;
}

cm_typelist cm_abi_params(const cm_functype *ft) {
    return (cm_typelist){.n = ft->nparams, .fields = ft->params};
}

cm_typelist cm_abi_results(const cm_functype *ft) {
    return (cm_typelist){.n = ft->result ? 1 : 0, .types = ft->result ? &ft->result : NULL};
}

void cm_abi_flatten_functype(const cm_functype *ft, bool async, bool callback, cm_abi_side side,
                             cm_core_sig *out) {
    memset(out, 0, sizeof *out);
    weft_valtype results[CM_MAX_FLAT_PARAMS];
    uint32_t np = flatten_types(cm_abi_params(ft), out->params, CM_MAX_FLAT_PARAMS);
    uint32_t nr = flatten_types(cm_abi_results(ft), results, CM_MAX_FLAT_PARAMS);
    uint32_t max_params = async && side == CM_ABI_LOWER ? CM_MAX_FLAT_ASYNC_PARAMS : CM_MAX_FLAT_PARAMS;
    if (np > max_params) {
        out->params[0] = WEFT_I32;
        np = 1;
        out->params_spilled = true;
    }
    if (!async) {
        if (nr > CM_MAX_FLAT_RESULTS) {
            out->results_spilled = true;
            if (side == CM_ABI_LIFT) {
                results[0] = WEFT_I32;
                nr = 1;
            } else {
                out->params[np++] = WEFT_I32;
                nr = 0;
            }
        }
    } else if (side == CM_ABI_LIFT) {
        nr = callback ? 1 : 0;
        results[0] = WEFT_I32;
    } else {
        if (nr > 0) {
            out->params[np++] = WEFT_I32;
            out->results_spilled = true;
        }
        nr = 1;
        results[0] = WEFT_I32;
    }
    out->nparams = np;
    out->nresults = nr;
    for (uint32_t i = 0; i < nr; i++) out->results[i] = results[i];
}

/* ---- the context ------------------------------------------------------------ */

void cm_abi_cx_init(cm_abi_cx *cx, const cm_abi_opts *opts, cm_inst_state *inst, cm_arena *arena,
                    weft_error *err) {
    memset(cx, 0, sizeof *cx);
    cx->opts = opts;
    cx->inst = inst;
    cx->arena = arena;
    cx->err = err;
    cm_abi_refresh(cx);
}

void cm_abi_refresh(cm_abi_cx *cx) {
    cx->mem = NULL;
    cx->mem_size = 0;
    if (cx->opts && cx->opts->memory) {
        uint64_t size = 0;
        cx->mem = cx->opts->memory(cx->opts->memory_env, &size);
        cx->mem_size = cx->mem ? size : 0;
    }
}

weft_status cm_abi_reallocate(cm_abi_cx *cx, uint32_t old, uint32_t old_size, uint32_t align,
                              uint32_t new_size, uint32_t *out) {
    if (!cx->opts->realloc) return misuse(cx, "lowering needs the realloc option, which is absent");
    if (!cx->opts->memory) return misuse(cx, "lowering needs the memory option, which is absent");
    /* reallocate: may_leave is cleared while realloc runs */
    if (cx->inst) cx->inst->may_leave = false;
    weft_status st = cx->opts->realloc(cx->opts->realloc_env, old, old_size, align, new_size, out,
                                       cx->err);
    if (cx->inst) cx->inst->may_leave = true;
    cm_abi_refresh(cx);
    if (st != WEFT_OK && cx->err && cx->err->status == WEFT_OK)
        base_fail(cx->err, st, "realloc failed");
    return st;
}

void *cm_abi_alloc(cm_abi_cx *cx, uint64_t size, size_t align) {
    void *p = NULL;
    if (cx->arena && size <= SIZE_MAX / 2) p = cm_arena_alloc(cx->arena, (size_t)size, align);
    if (!p) {
        if (!cx->arena) misuse(cx, "lifting needs an arena");
        else
            cm_trap_fail(cx->err, CM_TRAP_TOO_LARGE,
                         "lifting needs %llu more bytes, past the call's limit of %zu",
                         (unsigned long long)size, cx->arena->limit);
    }
    return p;
}

static weft_status too_deep(cm_abi_cx *cx) {
    return base_fail(cx->err, WEFT_ERR_LIMIT, "a value nested deeper than %d", CM_ABI_MAX_DEPTH);
}

static weft_status unsupported(cm_abi_cx *cx, const cm_valtype *t) {
    return misuse(cx, "%s values are not lifted or lowered yet (async)", kind_name(t->kind));
}

/* ---- loading ("Loading") ------------------------------------------------------ */

static weft_status load(cm_abi_cx *cx, uint64_t ptr, const cm_valtype *t, cm_val *out);

/* canonicalize_nan32/64 */
static float f32_of_bits(uint32_t bits) {
    if ((bits & 0x7f800000u) == 0x7f800000u && (bits & 0x007fffffu)) bits = 0x7fc00000u;
    float f;
    memcpy(&f, &bits, 4);
    return f;
}

static double f64_of_bits(uint64_t bits) {
    if ((bits & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (bits & 0x000fffffffffffffull))
        bits = 0x7ff8000000000000ull;
    double d;
    memcpy(&d, &bits, 8);
    return d;
}

/* convert_i32_to_char */
static weft_status to_char(cm_abi_cx *cx, uint32_t i, cm_val *out) {
    if (i >= 0x110000 || (i >= 0xd800 && i <= 0xdfff))
        return cm_trap_fail(cx->err, CM_TRAP_CHAR, "0x%x is not a Unicode scalar value", i);
    out->v.ch = i;
    return WEFT_OK;
}

/* The run-time resource of a handle type in cx's instance (cabi.h:
   cm_abi_cx.resolve). */
static const cm_resource *resource_of(const cm_abi_cx *cx, const cm_valtype *t) {
    return cx->resolve ? cx->resolve(cx->resolve_env, t->resource) : t->resource;
}

static weft_status lift_handle(cm_abi_cx *cx, const cm_valtype *t, uint32_t i, cm_val *out) {
    if (!cx->inst) return misuse(cx, "a handle lifted without an instance");
    const cm_resource *rt = resource_of(cx, t);
    if (t->kind == CM_OWN) return cm_lift_own(cx->inst, rt, i, &out->v.rep, cx->err);
    return cm_lift_borrow(cx->inst, cx->subtask, rt, i, &out->v.rep, cx->err);
}

/* The items of a list value of n elements. */
static cm_val *items_alloc(cm_abi_cx *cx, uint64_t n) {
    return cm_abi_alloc(cx, (n ? n : 1) * sizeof(cm_val), _Alignof(cm_val));
}

/* load an entry of a map: the tuple (key, value) */
static weft_status load_entry(cm_abi_cx *cx, uint64_t ptr, const cm_valtype *t, cm_val *out) {
    uint32_t size, align, voff;
    entry_layout(t, &size, &align, &voff);
    cm_val *kv = items_alloc(cx, 2);
    if (!kv) return WEFT_ERR_TRAP;
    out->kind = CM_TUPLE;
    out->n = 2;
    out->v.items = kv;
    weft_status st = load(cx, ptr, t->elem, &kv[0]);
    if (st == WEFT_OK) st = load(cx, ptr + voff, t->elem2, &kv[1]);
    return st;
}

/* load_list_from_range (a map's elements are its entries) */
static weft_status load_list_from_range(cm_abi_cx *cx, uint32_t ptr, uint32_t length,
                                        const cm_valtype *t, cm_val *out) {
    uint32_t esize, ealign, voff = 0;
    if (t->kind == CM_MAP) entry_layout(t, &esize, &ealign, &voff);
    else esize = t->elem->size, ealign = t->elem->align;
    uint64_t bytes = (uint64_t)length * esize;
    if (bytes > CM_MAX_LIST_BYTE_LENGTH)
        return cm_trap_fail(cx->err, CM_TRAP_LIST_LENGTH, "%u elements of %u bytes (at most %u bytes)",
                            length, esize, CM_MAX_LIST_BYTE_LENGTH);
    if (ptr % ealign)
        return cm_trap_fail(cx->err, CM_TRAP_UNALIGNED, "list at %u, alignment %u", ptr, ealign);
    if (!cm_in_range(cx, ptr, bytes))
        return cm_trap_fail(cx->err, CM_TRAP_LIST_OOB, "%u + %llu bytes > memory size %llu", ptr,
                            (unsigned long long)bytes, (unsigned long long)cx->mem_size);
    cm_val *items = items_alloc(cx, length);
    if (!items) return WEFT_ERR_TRAP;
    out->kind = t->kind;
    out->n = length;
    out->v.items = items;
    for (uint32_t i = 0; i < length; i++) {
        uint64_t at = ptr + (uint64_t)i * esize;
        weft_status st = t->kind == CM_MAP ? load_entry(cx, at, t, &items[i])
                                           : load(cx, at, t->elem, &items[i]);
        if (st != WEFT_OK) return st;
    }
    return WEFT_OK;
}

static weft_status load(cm_abi_cx *cx, uint64_t ptr, const cm_valtype *t, cm_val *out) {
    if (!cm_in_range(cx, ptr, t->size)) return cm_abi_internal(cx, "load out of range");
    memset(out, 0, sizeof *out);
    out->kind = t->kind;
    switch (t->kind) {
    case CM_BOOL: out->v.b = cm_rd(cx, ptr, 1) != 0; return WEFT_OK;
    case CM_U8: out->v.u = cm_rd(cx, ptr, 1); return WEFT_OK;
    case CM_U16: out->v.u = cm_rd(cx, ptr, 2); return WEFT_OK;
    case CM_U32: out->v.u = cm_rd(cx, ptr, 4); return WEFT_OK;
    case CM_U64: out->v.u = cm_rd(cx, ptr, 8); return WEFT_OK;
    case CM_S8: out->v.s = (int8_t)cm_rd(cx, ptr, 1); return WEFT_OK;
    case CM_S16: out->v.s = (int16_t)cm_rd(cx, ptr, 2); return WEFT_OK;
    case CM_S32: out->v.s = (int32_t)cm_rd(cx, ptr, 4); return WEFT_OK;
    case CM_S64: out->v.s = (int64_t)cm_rd(cx, ptr, 8); return WEFT_OK;
    case CM_F32: out->v.f32 = f32_of_bits((uint32_t)cm_rd(cx, ptr, 4)); return WEFT_OK;
    case CM_F64: out->v.f64 = f64_of_bits(cm_rd(cx, ptr, 8)); return WEFT_OK;
    case CM_CHAR: return to_char(cx, (uint32_t)cm_rd(cx, ptr, 4), out);
    case CM_STRING:
        return cm_abi_load_string(cx, (uint32_t)cm_rd(cx, ptr, 4), (uint32_t)cm_rd(cx, ptr + 4, 4), out);
    case CM_OWN:
    case CM_BORROW: return lift_handle(cx, t, (uint32_t)cm_rd(cx, ptr, 4), out);
    case CM_FLAGS: {
        uint64_t i = cm_rd(cx, ptr, t->size);
        out->v.flags = (uint32_t)(t->n >= 32 ? i : i & ((1ull << t->n) - 1));
        return WEFT_OK;
    }
    default: break;
    }
    if (++cx->depth > CM_ABI_MAX_DEPTH) return too_deep(cx);
    weft_status st = WEFT_OK;
    switch (t->kind) {
    case CM_LIST:
    case CM_MAP:
        st = load_list_from_range(cx, (uint32_t)cm_rd(cx, ptr, 4), (uint32_t)cm_rd(cx, ptr + 4, 4), t, out);
        break;
    case CM_FIXED_LIST: { /* load_list_from_valid_range */
        cm_val *items = items_alloc(cx, t->n);
        if (!items) {
            st = WEFT_ERR_TRAP;
            break;
        }
        out->n = t->n;
        out->v.items = items;
        for (uint32_t i = 0; i < t->n && st == WEFT_OK; i++)
            st = load(cx, ptr + (uint64_t)i * t->elem->size, t->elem, &items[i]);
        break;
    }
    case CM_RECORD:
    case CM_TUPLE: { /* load_record */
        cm_val *items = items_alloc(cx, t->n);
        if (!items) {
            st = WEFT_ERR_TRAP;
            break;
        }
        out->n = t->n;
        out->v.items = items;
        for (uint32_t i = 0; i < t->n && st == WEFT_OK; i++) {
            const cm_valtype *m = member_type(t, i);
            ptr = cm_align_to(ptr, m->align);
            st = load(cx, ptr, m, &items[i]);
            ptr += m->size;
        }
        break;
    }
    case CM_VARIANT:
    case CM_ENUM:
    case CM_OPTION:
    case CM_RESULT: { /* load_variant: the payload sits at the type's alignment */
        uint32_t n = ncases(t), disc_size = cm_abi_discriminant_size(n);
        uint32_t case_index = (uint32_t)cm_rd(cx, ptr, disc_size);
        if (case_index >= n) {
            st = cm_trap_fail(cx->err, CM_TRAP_DISCRIMINANT, "%u for a %s of %u cases", case_index,
                              kind_name(t->kind), n);
            break;
        }
        out->v.c.index = case_index;
        const cm_valtype *c = case_type(t, case_index);
        if (!c) break;
        cm_val *p = items_alloc(cx, 1);
        if (!p) {
            st = WEFT_ERR_TRAP;
            break;
        }
        out->v.c.payload = p;
        st = load(cx, ptr + t->align, c, p);
        break;
    }
    default: st = unsupported(cx, t); break;
    }
    cx->depth--;
    return st;
}

/* ---- flat lifting ("Flat Lifting") ----------------------------------------- */

/* CoreValueIter, and the CoerceValueIter of lift_flat_variant: a reader
   of flat values as raw bits (i32 zero-extended, floats as their bits). */
typedef struct flat_in flat_in;
struct flat_in {
    const weft_val *vals; /* the base reader */
    uint32_t n, i;
    flat_in *parent;          /* a coercing reader: reads the parent... */
    const weft_valtype *have; /* ...as these joined types */
    uint32_t nhave, hi;
};

static const char *vt_name(weft_valtype t) {
    return t == WEFT_I32 ? "i32" : t == WEFT_I64 ? "i64" : t == WEFT_F32 ? "f32" : t == WEFT_F64 ? "f64" : "?";
}

static weft_status next(cm_abi_cx *cx, flat_in *r, weft_valtype want, uint64_t *out) {
    if (!r->parent) {
        if (r->i >= r->n) return misuse(cx, "too few flat values (%u)", r->n);
        const weft_val *v = &r->vals[r->i];
        if (v->type != want)
            return misuse(cx, "flat value %u is %s where %s is expected", r->i, vt_name(v->type),
                          vt_name(want));
        r->i++;
        switch (want) {
        case WEFT_I32: *out = (uint32_t)v->of.i32; break;
        case WEFT_I64: *out = (uint64_t)v->of.i64; break;
        case WEFT_F32: *out = v->of.f32_bits; break;
        default: *out = v->of.f64_bits; break;
        }
        return WEFT_OK;
    }
    if (r->hi >= r->nhave) return cm_abi_internal(cx, "variant payload past its flat types");
    weft_valtype have = r->have[r->hi++];
    uint64_t x;
    weft_status st = next(cx, r->parent, have, &x);
    if (st != WEFT_OK) return st;
    /* (i32, f32): the bits as they are; (i64, i32), (i64, f32): wrapped;
       (i64, f64): the bits */
    if (have == WEFT_I64 && (want == WEFT_I32 || want == WEFT_F32)) x &= 0xffffffffu;
    else if (have != want && !(have == WEFT_I32 && want == WEFT_F32) &&
             !(have == WEFT_I64 && want == WEFT_F64))
        return cm_abi_internal(cx, "variant payload of an unjoinable type");
    *out = x;
    return WEFT_OK;
}

static weft_status lift_flat(cm_abi_cx *cx, flat_in *vi, const cm_valtype *t, cm_val *out);

static weft_status lift_flat_variant(cm_abi_cx *cx, flat_in *vi, const cm_valtype *t, cm_val *out) {
    weft_valtype flat[CM_MAX_FLAT_PARAMS];
    uint32_t nflat = flatten(t, flat, CM_MAX_FLAT_PARAMS);
    if (nflat > CM_MAX_FLAT_PARAMS) return cm_abi_internal(cx, "variant lifted flat past the limit");
    uint64_t x;
    weft_status st = next(cx, vi, WEFT_I32, &x);
    if (st != WEFT_OK) return st;
    uint32_t n = ncases(t), case_index = (uint32_t)x;
    if (x >= n)
        return cm_trap_fail(cx->err, CM_TRAP_DISCRIMINANT, "%llu for a %s of %u cases",
                            (unsigned long long)x, kind_name(t->kind), n);
    out->v.c.index = case_index;
    flat_in co = {.parent = vi, .have = flat + 1, .nhave = nflat - 1};
    const cm_valtype *c = case_type(t, case_index);
    if (c) {
        cm_val *p = items_alloc(cx, 1);
        if (!p) return WEFT_ERR_TRAP;
        out->v.c.payload = p;
        st = lift_flat(cx, &co, c, p);
        if (st != WEFT_OK) return st;
    }
    for (; co.hi < co.nhave; co.hi++) { /* the flat values past the payload */
        st = next(cx, vi, co.have[co.hi], &x);
        if (st != WEFT_OK) return st;
    }
    return WEFT_OK;
}

static weft_status lift_flat(cm_abi_cx *cx, flat_in *vi, const cm_valtype *t, cm_val *out) {
    memset(out, 0, sizeof *out);
    out->kind = t->kind;
    uint64_t x, y;
    weft_status st;
    switch (t->kind) {
    case CM_S64:
    case CM_U64:
        st = next(cx, vi, WEFT_I64, &x);
        out->v.u = x;
        return st;
    case CM_F32:
        st = next(cx, vi, WEFT_F32, &x);
        out->v.f32 = f32_of_bits((uint32_t)x);
        return st;
    case CM_F64:
        st = next(cx, vi, WEFT_F64, &x);
        out->v.f64 = f64_of_bits(x);
        return st;
    case CM_BOOL:
    case CM_U8:
    case CM_U16:
    case CM_U32:
    case CM_S8:
    case CM_S16:
    case CM_S32:
    case CM_CHAR:
    case CM_FLAGS:
    case CM_OWN:
    case CM_BORROW:
        st = next(cx, vi, WEFT_I32, &x);
        if (st != WEFT_OK) return st;
        switch (t->kind) {
        case CM_BOOL: out->v.b = x != 0; return WEFT_OK;
        case CM_U8: out->v.u = x & 0xff; return WEFT_OK; /* lift_flat_unsigned */
        case CM_U16: out->v.u = x & 0xffff; return WEFT_OK;
        case CM_U32: out->v.u = x; return WEFT_OK;
        case CM_S8: out->v.s = (int8_t)x; return WEFT_OK; /* lift_flat_signed */
        case CM_S16: out->v.s = (int16_t)x; return WEFT_OK;
        case CM_S32: out->v.s = (int32_t)x; return WEFT_OK;
        case CM_CHAR: return to_char(cx, (uint32_t)x, out);
        case CM_FLAGS: out->v.flags = (uint32_t)(t->n >= 32 ? x : x & ((1ull << t->n) - 1)); return WEFT_OK;
        default: return lift_handle(cx, t, (uint32_t)x, out);
        }
    case CM_STRING:
    case CM_LIST:
    case CM_MAP:
        st = next(cx, vi, WEFT_I32, &x);
        if (st == WEFT_OK) st = next(cx, vi, WEFT_I32, &y);
        if (st != WEFT_OK) return st;
        if (t->kind == CM_STRING) return cm_abi_load_string(cx, (uint32_t)x, (uint32_t)y, out);
        if (++cx->depth > CM_ABI_MAX_DEPTH) return too_deep(cx);
        st = load_list_from_range(cx, (uint32_t)x, (uint32_t)y, t, out);
        cx->depth--;
        return st;
    default: break;
    }
    if (++cx->depth > CM_ABI_MAX_DEPTH) return too_deep(cx);
    st = WEFT_OK;
    switch (t->kind) {
    case CM_FIXED_LIST:
    case CM_RECORD:
    case CM_TUPLE: {
        cm_val *items = items_alloc(cx, t->n);
        if (!items) {
            st = WEFT_ERR_TRAP;
            break;
        }
        out->n = t->n;
        out->v.items = items;
        for (uint32_t i = 0; i < t->n && st == WEFT_OK; i++)
            st = lift_flat(cx, vi, t->kind == CM_FIXED_LIST ? t->elem : member_type(t, i), &items[i]);
        break;
    }
    case CM_VARIANT:
    case CM_ENUM:
    case CM_OPTION:
    case CM_RESULT: st = lift_flat_variant(cx, vi, t, out); break;
    default: st = unsupported(cx, t); break;
    }
    cx->depth--;
    return st;
}

/* ---- storing ("Storing") ------------------------------------------------------ */

static weft_status store(cm_abi_cx *cx, const cm_val *v, const cm_valtype *t, uint64_t ptr);

/* A value's kind against its type's, and the counts a value must have. */
static weft_status check_val(cm_abi_cx *cx, const cm_val *v, const cm_valtype *t) {
    if (!v) return misuse(cx, "a missing %s value", kind_name(t->kind));
    if (v->kind != t->kind)
        return misuse(cx, "a %s value where a %s is expected", kind_name(v->kind), kind_name(t->kind));
    switch (t->kind) {
    case CM_U8: if (v->v.u > UINT8_MAX) goto range; break;
    case CM_U16: if (v->v.u > UINT16_MAX) goto range; break;
    case CM_U32: if (v->v.u > UINT32_MAX) goto range; break;
    case CM_S8: if (v->v.s < INT8_MIN || v->v.s > INT8_MAX) goto range; break;
    case CM_S16: if (v->v.s < INT16_MIN || v->v.s > INT16_MAX) goto range; break;
    case CM_S32: if (v->v.s < INT32_MIN || v->v.s > INT32_MAX) goto range; break;
    case CM_CHAR:
        if (v->v.ch >= 0x110000 || (v->v.ch >= 0xd800 && v->v.ch <= 0xdfff))
            return misuse(cx, "a char value 0x%x that is not a Unicode scalar value", v->v.ch);
        break;
    case CM_FIXED_LIST:
    case CM_RECORD:
    case CM_TUPLE:
        if (v->n != t->n) return misuse(cx, "a %s value of %u items, its type has %u", kind_name(t->kind), v->n, t->n);
        /* fallthrough */
    case CM_LIST:
    case CM_MAP:
        if (v->n && !v->v.items) return misuse(cx, "a %s value without items", kind_name(t->kind));
        break;
    case CM_VARIANT:
    case CM_ENUM:
    case CM_OPTION:
    case CM_RESULT: {
        uint32_t n = ncases(t);
        if (v->v.c.index >= n)
            return misuse(cx, "case %u of a %s of %u cases", v->v.c.index, kind_name(t->kind), n);
        if (case_type(t, v->v.c.index) && !v->v.c.payload)
            return misuse(cx, "case %u of a %s without its payload", v->v.c.index, kind_name(t->kind));
        break;
    }
    default: break;
    }
    return WEFT_OK;
range:
    return misuse(cx, "a %s value out of its range", kind_name(t->kind));
}

/* encode_float_as_i32/i64 (maybe_scramble_nan in the deterministic
   profile: a NaN is the canonical NaN) */
static uint32_t f32_bits(float f) {
    uint32_t b;
    memcpy(&b, &f, 4);
    if ((b & 0x7f800000u) == 0x7f800000u && (b & 0x007fffffu)) b = 0x7fc00000u;
    return b;
}

static uint64_t f64_bits(double d) {
    uint64_t b;
    memcpy(&b, &d, 8);
    if ((b & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (b & 0x000fffffffffffffull))
        b = 0x7ff8000000000000ull;
    return b;
}

static weft_status lower_handle(cm_abi_cx *cx, const cm_valtype *t, uint32_t rep, uint32_t *out) {
    if (!cx->inst) return misuse(cx, "a handle lowered without an instance");
    const cm_resource *rt = resource_of(cx, t);
    if (t->kind == CM_OWN) return cm_lower_own(cx->inst, rt, rep, out, cx->err);
    return cm_lower_borrow(cx->inst, cx->task, rt, rep, out, cx->err);
}

/* store_list_into_valid_range for a list of numbers, bools or chars: the
   checks and bytes store() makes per element, in one loop per kind (the
   element-by-element path cost 29 ns a list<u8> byte; bench/component).
   A value that is not of the kind or out of its range is reported by
   check_val as store() reports it. */
static weft_status store_prims(cm_abi_cx *cx, const cm_val *items, uint32_t n,
                               const cm_valtype *et, uint64_t at) {
    cm_kind k = et->kind;
#define PRIM_LOOP(SIZE, OK, BITS)                                        \
    for (uint32_t i = 0; i < n; i++) {                                   \
        const cm_val *e = &items[i];                                     \
        if (e->kind != k || !(OK)) return check_val(cx, e, et);          \
        cm_wr(cx, at + (uint64_t)i * (SIZE), (BITS), (SIZE));            \
    }                                                                    \
    return WEFT_OK
    switch (k) {
    case CM_BOOL: PRIM_LOOP(1, true, e->v.b ? 1 : 0);
    case CM_U8: PRIM_LOOP(1, e->v.u <= UINT8_MAX, e->v.u);
    case CM_S8: PRIM_LOOP(1, e->v.s >= INT8_MIN && e->v.s <= INT8_MAX, (uint64_t)e->v.s);
    case CM_U16: PRIM_LOOP(2, e->v.u <= UINT16_MAX, e->v.u);
    case CM_S16: PRIM_LOOP(2, e->v.s >= INT16_MIN && e->v.s <= INT16_MAX, (uint64_t)e->v.s);
    case CM_U32: PRIM_LOOP(4, e->v.u <= UINT32_MAX, e->v.u);
    case CM_S32: PRIM_LOOP(4, e->v.s >= INT32_MIN && e->v.s <= INT32_MAX, (uint64_t)e->v.s);
    case CM_U64: case CM_S64: PRIM_LOOP(8, true, e->v.u);
    case CM_F32: PRIM_LOOP(4, true, f32_bits(e->v.f32));
    case CM_F64: PRIM_LOOP(8, true, f64_bits(e->v.f64));
    case CM_CHAR:
        PRIM_LOOP(4, e->v.ch < 0x110000 && (e->v.ch < 0xd800 || e->v.ch > 0xdfff), e->v.ch);
    default: return cm_abi_internal(cx, "store_prims of a non-primitive");
    }
#undef PRIM_LOOP
}

/* store_list_into_range (a map's elements are its entries) */
static weft_status store_list_into_range(cm_abi_cx *cx, const cm_val *v, const cm_valtype *t,
                                         uint32_t *begin) {
    uint32_t esize, ealign, voff = 0;
    if (t->kind == CM_MAP) entry_layout(t, &esize, &ealign, &voff);
    else esize = t->elem->size, ealign = t->elem->align;
    uint64_t byte_length = (uint64_t)v->n * esize;
    if (byte_length > UINT32_MAX)
        return base_fail(cx->err, WEFT_ERR_LIMIT, "a list of %llu bytes cannot be lowered into a 32-bit memory",
                         (unsigned long long)byte_length);
    uint32_t ptr;
    weft_status st = cm_abi_reallocate(cx, 0, 0, ealign, (uint32_t)byte_length, &ptr);
    if (st != WEFT_OK) return st;
    if (ptr % ealign)
        return cm_trap_fail(cx->err, CM_TRAP_REALLOC_UNALIGNED, "%u for a list, alignment %u", ptr, ealign);
    if (!cm_in_range(cx, ptr, byte_length))
        return cm_trap_fail(cx->err, CM_TRAP_REALLOC_OOB, "list content out-of-bounds (%u + %llu > %llu)",
                            ptr, (unsigned long long)byte_length, (unsigned long long)cx->mem_size);
    if (t->kind == CM_LIST && t->elem->kind <= CM_CHAR && t->elem->kind != CM_STRING) {
        st = store_prims(cx, v->v.items, v->n, t->elem, ptr);
        if (st == WEFT_OK) *begin = ptr;
        return st;
    }
    for (uint32_t i = 0; i < v->n; i++) { /* store_list_into_valid_range */
        uint64_t at = ptr + (uint64_t)i * esize;
        const cm_val *e = &v->v.items[i];
        if (t->kind == CM_MAP) {
            if (e->kind != CM_TUPLE || e->n != 2 || !e->v.items) return misuse(cx, "a map entry that is not a pair");
            st = store(cx, &e->v.items[0], t->elem, at);
            if (st == WEFT_OK) st = store(cx, &e->v.items[1], t->elem2, at + voff);
        } else {
            st = store(cx, e, t->elem, at);
        }
        if (st != WEFT_OK) return st;
    }
    *begin = ptr;
    return WEFT_OK;
}

static weft_status store(cm_abi_cx *cx, const cm_val *v, const cm_valtype *t, uint64_t ptr) {
    weft_status st = check_val(cx, v, t);
    if (st != WEFT_OK) return st;
    if (!cm_in_range(cx, ptr, t->size)) return cm_abi_internal(cx, "store out of range");
    uint32_t a, b;
    switch (t->kind) {
    case CM_BOOL: cm_wr(cx, ptr, v->v.b ? 1 : 0, 1); return WEFT_OK;
    case CM_U8:
    case CM_S8: cm_wr(cx, ptr, v->v.u, 1); return WEFT_OK;
    case CM_U16:
    case CM_S16: cm_wr(cx, ptr, v->v.u, 2); return WEFT_OK;
    case CM_U32:
    case CM_S32: cm_wr(cx, ptr, v->v.u, 4); return WEFT_OK;
    case CM_U64:
    case CM_S64: cm_wr(cx, ptr, v->v.u, 8); return WEFT_OK;
    case CM_F32: cm_wr(cx, ptr, f32_bits(v->v.f32), 4); return WEFT_OK;
    case CM_F64: cm_wr(cx, ptr, f64_bits(v->v.f64), 8); return WEFT_OK;
    case CM_CHAR: cm_wr(cx, ptr, v->v.ch, 4); return WEFT_OK;
    case CM_FLAGS: /* pack_flags_into_int: the labels' bits only */
        cm_wr(cx, ptr, t->n >= 32 ? v->v.flags : v->v.flags & ((1u << t->n) - 1), t->size);
        return WEFT_OK;
    case CM_STRING: /* store_string */
        st = cm_abi_store_string(cx, v, &a, &b);
        if (st != WEFT_OK) return st;
        cm_wr(cx, ptr, a, 4);
        cm_wr(cx, ptr + 4, b, 4);
        return WEFT_OK;
    case CM_OWN:
    case CM_BORROW:
        st = lower_handle(cx, t, v->v.rep, &a);
        if (st == WEFT_OK) cm_wr(cx, ptr, a, 4);
        return st;
    default: break;
    }
    if (++cx->depth > CM_ABI_MAX_DEPTH) return too_deep(cx);
    switch (t->kind) {
    case CM_LIST:
    case CM_MAP: /* store_list */
        st = store_list_into_range(cx, v, t, &a);
        if (st != WEFT_OK) break;
        /* realloc may have moved the memory: the range is checked again */
        if (!cm_in_range(cx, ptr, 8)) {
            st = cm_abi_internal(cx, "list header out of range");
            break;
        }
        cm_wr(cx, ptr, a, 4);
        cm_wr(cx, ptr + 4, v->n, 4);
        break;
    case CM_FIXED_LIST:
        for (uint32_t i = 0; i < t->n && st == WEFT_OK; i++)
            st = store(cx, &v->v.items[i], t->elem, ptr + (uint64_t)i * t->elem->size);
        break;
    case CM_RECORD:
    case CM_TUPLE: /* store_record */
        for (uint32_t i = 0; i < t->n && st == WEFT_OK; i++) {
            const cm_valtype *m = member_type(t, i);
            ptr = cm_align_to(ptr, m->align);
            st = store(cx, &v->v.items[i], m, ptr);
            ptr += m->size;
        }
        break;
    case CM_VARIANT:
    case CM_ENUM:
    case CM_OPTION:
    case CM_RESULT: { /* store_variant */
        uint32_t disc_size = cm_abi_discriminant_size(ncases(t));
        cm_wr(cx, ptr, v->v.c.index, disc_size);
        const cm_valtype *c = case_type(t, v->v.c.index);
        if (c) st = store(cx, v->v.c.payload, c, ptr + t->align);
        break;
    }
    default: st = unsupported(cx, t); break;
    }
    cx->depth--;
    return st;
}

/* ---- flat lowering ("Flat Lowering") ------------------------------------------ */

/* The flat values being written: out[*n] onwards, room for `max`. */
typedef struct flat_out {
    weft_val *vals;
    uint32_t n, max;
} flat_out;

static weft_status put(cm_abi_cx *cx, flat_out *o, weft_valtype t, uint64_t bits) {
    if (o->n >= o->max) return cm_abi_internal(cx, "flat values past the limit");
    weft_val *v = &o->vals[o->n++];
    memset(v, 0, sizeof *v);
    v->type = t;
    switch (t) {
    case WEFT_I32: v->of.i32 = (int32_t)(uint32_t)bits; break;
    case WEFT_I64: v->of.i64 = (int64_t)bits; break;
    case WEFT_F32: v->of.f32_bits = (uint32_t)bits; break;
    default: v->of.f64_bits = bits; break;
    }
    return WEFT_OK;
}

static uint64_t bits_of(const weft_val *v) {
    switch (v->type) {
    case WEFT_I32: return (uint32_t)v->of.i32;
    case WEFT_I64: return (uint64_t)v->of.i64;
    case WEFT_F32: return v->of.f32_bits;
    default: return v->of.f64_bits;
    }
}

static weft_status lower_flat(cm_abi_cx *cx, const cm_val *v, const cm_valtype *t, flat_out *o);

static weft_status lower_flat_variant(cm_abi_cx *cx, const cm_val *v, const cm_valtype *t, flat_out *o) {
    weft_valtype flat[CM_MAX_FLAT_PARAMS];
    uint32_t nflat = flatten(t, flat, CM_MAX_FLAT_PARAMS);
    if (nflat > CM_MAX_FLAT_PARAMS) return cm_abi_internal(cx, "variant lowered flat past the limit");
    weft_status st = put(cx, o, WEFT_I32, v->v.c.index);
    if (st != WEFT_OK) return st;
    uint32_t start = o->n, i = 0;
    const cm_valtype *c = case_type(t, v->v.c.index);
    if (c) {
        st = lower_flat(cx, v->v.c.payload, c, o);
        if (st != WEFT_OK) return st;
        /* each payload value as the joined type wants it: f32 -> i32 its
           bits; i32, f32 -> i64 zero-extended; f64 -> i64 its bits */
        for (; start + i < o->n; i++) {
            weft_val *fv = &o->vals[start + i];
            if (1 + i >= nflat) return cm_abi_internal(cx, "variant payload past its flat types");
            weft_valtype want = flat[1 + i];
            uint64_t bits = bits_of(fv);
            fv->type = want;
            if (want == WEFT_I32) fv->of.i32 = (int32_t)(uint32_t)bits;
            else if (want == WEFT_I64) fv->of.i64 = (int64_t)bits;
        }
    }
    for (i++; i < nflat; i++) { /* zeros for the rest */
        st = put(cx, o, flat[i], 0);
        if (st != WEFT_OK) return st;
    }
    return WEFT_OK;
}

static weft_status lower_flat(cm_abi_cx *cx, const cm_val *v, const cm_valtype *t, flat_out *o) {
    weft_status st = check_val(cx, v, t);
    if (st != WEFT_OK) return st;
    uint32_t a, b;
    switch (t->kind) {
    case CM_BOOL: return put(cx, o, WEFT_I32, v->v.b ? 1 : 0);
    case CM_U8:
    case CM_U16:
    case CM_U32:
    case CM_S8:
    case CM_S16:
    case CM_S32: return put(cx, o, WEFT_I32, (uint32_t)v->v.u); /* lower_flat_signed: two's complement */
    case CM_U64:
    case CM_S64: return put(cx, o, WEFT_I64, v->v.u);
    case CM_F32: return put(cx, o, WEFT_F32, f32_bits(v->v.f32));
    case CM_F64: return put(cx, o, WEFT_F64, f64_bits(v->v.f64));
    case CM_CHAR: return put(cx, o, WEFT_I32, v->v.ch);
    case CM_FLAGS: return put(cx, o, WEFT_I32, t->n >= 32 ? v->v.flags : v->v.flags & ((1u << t->n) - 1));
    case CM_OWN:
    case CM_BORROW:
        st = lower_handle(cx, t, v->v.rep, &a);
        return st == WEFT_OK ? put(cx, o, WEFT_I32, a) : st;
    case CM_STRING: /* lower_flat_string */
        st = cm_abi_store_string(cx, v, &a, &b);
        if (st == WEFT_OK) st = put(cx, o, WEFT_I32, a);
        return st == WEFT_OK ? put(cx, o, WEFT_I32, b) : st;
    default: break;
    }
    if (++cx->depth > CM_ABI_MAX_DEPTH) return too_deep(cx);
    switch (t->kind) {
    case CM_LIST:
    case CM_MAP: /* lower_flat_list */
        st = store_list_into_range(cx, v, t, &a);
        if (st == WEFT_OK) st = put(cx, o, WEFT_I32, a);
        if (st == WEFT_OK) st = put(cx, o, WEFT_I32, v->n);
        break;
    case CM_FIXED_LIST:
    case CM_RECORD:
    case CM_TUPLE:
        for (uint32_t i = 0; i < t->n && st == WEFT_OK; i++)
            st = lower_flat(cx, &v->v.items[i], t->kind == CM_FIXED_LIST ? t->elem : member_type(t, i), o);
        break;
    case CM_VARIANT:
    case CM_ENUM:
    case CM_OPTION:
    case CM_RESULT: st = lower_flat_variant(cx, v, t, o); break;
    default: st = unsupported(cx, t); break;
    }
    cx->depth--;
    return st;
}

/* ---- lifting and lowering values ("Lifting and Lowering Values") -------------- */

/* The layout of TupleType(ts) */
static void tuple_layout(cm_typelist ts, uint64_t *size, uint32_t *align) {
    uint64_t s = 0;
    uint32_t a = 1;
    for (uint32_t i = 0; i < ts.n; i++) {
        const cm_valtype *t = tl_type(ts, i);
        s = cm_align_to(s, t->align) + t->size;
        if (t->align > a) a = t->align;
    }
    *size = cm_align_to(s, a);
    *align = a;
}

static weft_status check_types(cm_abi_cx *cx, cm_typelist ts) {
    for (uint32_t i = 0; i < ts.n; i++)
        if (!tl_type(ts, i) || !tl_type(ts, i)->align) return misuse(cx, "type %u not laid out (cm_abi_layout)", i);
    return WEFT_OK;
}

weft_status cm_abi_lift_flat_values(cm_abi_cx *cx, uint32_t max_flat, cm_typelist ts,
                                    const weft_val *flat, uint32_t nflat, uint32_t *used,
                                    cm_val *out) {
    weft_status st = check_types(cx, ts);
    if (st != WEFT_OK) return st;
    if (max_flat > CM_MAX_FLAT_PARAMS) return misuse(cx, "max_flat %u past %d", max_flat, CM_MAX_FLAT_PARAMS);
    cx->depth = 0;
    flat_in vi = {.vals = flat, .n = nflat};
    weft_valtype types[1];
    if (flatten_types(ts, types, 0) > max_flat) {
        uint64_t x, size;
        uint32_t align;
        st = next(cx, &vi, WEFT_I32, &x);
        if (st != WEFT_OK) return st;
        tuple_layout(ts, &size, &align);
        if (x % align)
            return cm_trap_fail(cx->err, CM_TRAP_UNALIGNED, "values at %llu, alignment %u",
                                (unsigned long long)x, align);
        if (!cm_in_range(cx, x, size))
            return cm_trap_fail(cx->err, CM_TRAP_OOB, "values at %llu + %llu bytes > memory size %llu",
                                (unsigned long long)x, (unsigned long long)size,
                                (unsigned long long)cx->mem_size);
        for (uint32_t i = 0; i < ts.n && st == WEFT_OK; i++) { /* load of the tuple */
            const cm_valtype *t = tl_type(ts, i);
            x = cm_align_to(x, t->align);
            st = load(cx, x, t, &out[i]);
            x += t->size;
        }
    } else {
        for (uint32_t i = 0; i < ts.n && st == WEFT_OK; i++) st = lift_flat(cx, &vi, tl_type(ts, i), &out[i]);
    }
    if (used) *used = vi.i;
    return st;
}

weft_status cm_abi_lower_flat_values(cm_abi_cx *cx, uint32_t max_flat, cm_typelist ts,
                                     const cm_val *vs, const uint32_t *out_param, weft_val *flat,
                                     uint32_t *nflat) {
    weft_status st = check_types(cx, ts);
    if (st != WEFT_OK) return st;
    if (max_flat > CM_MAX_FLAT_PARAMS) return misuse(cx, "max_flat %u past %d", max_flat, CM_MAX_FLAT_PARAMS);
    cx->depth = 0;
    *nflat = 0;
    flat_out o = {.vals = flat, .max = CM_MAX_FLAT_PARAMS + 1};
    weft_valtype types[1];
    if (flatten_types(ts, types, 0) > max_flat) {
        uint64_t size;
        uint32_t align, ptr;
        tuple_layout(ts, &size, &align);
        bool from_realloc = !out_param;
        if (from_realloc) {
            st = cm_abi_reallocate(cx, 0, 0, align, (uint32_t)size, &ptr);
            if (st == WEFT_OK) st = put(cx, &o, WEFT_I32, ptr);
            if (st != WEFT_OK) return st;
        } else {
            ptr = *out_param;
        }
        if (ptr % align)
            return cm_trap_fail(cx->err, from_realloc ? CM_TRAP_REALLOC_UNALIGNED : CM_TRAP_UNALIGNED,
                                "values at %u, alignment %u", ptr, align);
        if (!cm_in_range(cx, ptr, size))
            return cm_trap_fail(cx->err, from_realloc ? CM_TRAP_REALLOC_OOB : CM_TRAP_OOB,
                                "values at %u + %llu bytes > memory size %llu", ptr,
                                (unsigned long long)size, (unsigned long long)cx->mem_size);
        uint64_t at = ptr;
        for (uint32_t i = 0; i < ts.n && st == WEFT_OK; i++) { /* store of the tuple */
            const cm_valtype *t = tl_type(ts, i);
            at = cm_align_to(at, t->align);
            st = store(cx, &vs[i], t, at);
            at += t->size;
        }
    } else {
        for (uint32_t i = 0; i < ts.n && st == WEFT_OK; i++) st = lower_flat(cx, &vs[i], tl_type(ts, i), &o);
    }
    if (st == WEFT_OK) *nflat = o.n;
    return st;
}

weft_status cm_abi_load(cm_abi_cx *cx, uint32_t ptr, const cm_valtype *t, cm_val *out) {
    if (!t || !t->align) return misuse(cx, "a type not laid out (cm_abi_layout)");
    if (ptr % t->align)
        return cm_trap_fail(cx->err, CM_TRAP_UNALIGNED, "%s at %u, alignment %u", kind_name(t->kind), ptr, t->align);
    if (!cm_in_range(cx, ptr, t->size))
        return cm_trap_fail(cx->err, CM_TRAP_OOB, "%s at %u + %u bytes > memory size %llu",
                            kind_name(t->kind), ptr, t->size, (unsigned long long)cx->mem_size);
    cx->depth = 0;
    return load(cx, ptr, t, out);
}

weft_status cm_abi_store(cm_abi_cx *cx, const cm_val *v, const cm_valtype *t, uint32_t ptr) {
    if (!t || !t->align) return misuse(cx, "a type not laid out (cm_abi_layout)");
    if (ptr % t->align)
        return cm_trap_fail(cx->err, CM_TRAP_UNALIGNED, "%s at %u, alignment %u", kind_name(t->kind), ptr, t->align);
    if (!cm_in_range(cx, ptr, t->size))
        return cm_trap_fail(cx->err, CM_TRAP_OOB, "%s at %u + %u bytes > memory size %llu",
                            kind_name(t->kind), ptr, t->size, (unsigned long long)cx->mem_size);
    cx->depth = 0;
    return store(cx, v, t, ptr);
}

/* canon_lift: lower_flat_values(cx, MAX_FLAT_PARAMS, args, ft.param_types()) */
weft_status cm_abi_lower_params(cm_abi_cx *cx, const cm_functype *ft, const cm_val *args,
                                weft_val *flat, uint32_t *nflat) {
    return cm_abi_lower_flat_values(cx, CM_MAX_FLAT_PARAMS, cm_abi_params(ft), args, NULL, flat, nflat);
}

/* canon_lift: lift_flat_values(cx, MAX_FLAT_RESULTS, flat_results, ft.result_type()) */
weft_status cm_abi_lift_results(cm_abi_cx *cx, const cm_functype *ft, const weft_val *flat,
                                uint32_t nflat, cm_val *result) {
    uint32_t used = 0;
    weft_status st = cm_abi_lift_flat_values(cx, CM_MAX_FLAT_RESULTS, cm_abi_results(ft), flat, nflat, &used, result);
    if (st == WEFT_OK && used != nflat) return misuse(cx, "%u flat results, %u expected", nflat, used);
    return st;
}

/* canon_lower's on_start: lift_flat_values(cx, MAX_FLAT_PARAMS, flat_args, ft.param_types()) */
weft_status cm_abi_lift_params(cm_abi_cx *cx, const cm_functype *ft, const weft_val *flat,
                               uint32_t nflat, cm_val *args) {
    uint32_t used = 0;
    weft_status st = cm_abi_lift_flat_values(cx, CM_MAX_FLAT_PARAMS, cm_abi_params(ft), flat, nflat, &used, args);
    if (st != WEFT_OK) return st;
    uint32_t want = used;
    weft_valtype types[1];
    if (ft->result && flatten_types(cm_abi_results(ft), types, 0) > CM_MAX_FLAT_RESULTS) want++;
    if (nflat != want) return misuse(cx, "%u flat arguments, %u expected", nflat, want);
    return WEFT_OK;
}

/* canon_lower's on_resolve: lower_flat_values(cx, MAX_FLAT_RESULTS, result, ft.result_type(), flat_args) */
weft_status cm_abi_lower_results(cm_abi_cx *cx, const cm_functype *ft, const cm_val *result,
                                 const weft_val *flat_args, uint32_t nflat_args, weft_val *flat,
                                 uint32_t *nflat) {
    cm_typelist rs = cm_abi_results(ft);
    weft_valtype types[1];
    if (flatten_types(rs, types, 0) <= CM_MAX_FLAT_RESULTS)
        return cm_abi_lower_flat_values(cx, CM_MAX_FLAT_RESULTS, rs, result, NULL, flat, nflat);
    /* the out-pointer is the last flat argument */
    if (nflat_args == 0 || flat_args[nflat_args - 1].type != WEFT_I32)
        return misuse(cx, "a lowered call's results spill but it has no i32 out-pointer argument");
    uint32_t out_param = (uint32_t)flat_args[nflat_args - 1].of.i32;
    return cm_abi_lower_flat_values(cx, CM_MAX_FLAT_RESULTS, rs, result, &out_param, flat, nflat);
}

/* ---- equality -------------------------------------------------------------------- */

static bool val_equal(const cm_val *a, const cm_val *b, uint32_t depth) {
    if (a->kind != b->kind || depth > CM_ABI_MAX_DEPTH) return false;
    switch (a->kind) {
    case CM_BOOL: return a->v.b == b->v.b;
    case CM_S8:
    case CM_S16:
    case CM_S32:
    case CM_S64:
    case CM_U8:
    case CM_U16:
    case CM_U32:
    case CM_U64: return a->v.u == b->v.u;
    case CM_F32: return f32_bits(a->v.f32) == f32_bits(b->v.f32);
    case CM_F64: return f64_bits(a->v.f64) == f64_bits(b->v.f64);
    case CM_CHAR: return a->v.ch == b->v.ch;
    case CM_STRING: return a->n == b->n && (a->n == 0 || memcmp(a->v.str, b->v.str, a->n) == 0);
    case CM_FLAGS: return a->v.flags == b->v.flags;
    case CM_OWN:
    case CM_BORROW: return a->v.rep == b->v.rep;
    case CM_ERROR_CONTEXT:
    case CM_STREAM:
    case CM_FUTURE: return a->v.handle == b->v.handle;
    case CM_VARIANT:
    case CM_ENUM:
    case CM_OPTION:
    case CM_RESULT:
        if (a->v.c.index != b->v.c.index || !a->v.c.payload != !b->v.c.payload) return false;
        return !a->v.c.payload || val_equal(a->v.c.payload, b->v.c.payload, depth + 1);
    default:
        if (a->n != b->n) return false;
        for (uint32_t i = 0; i < a->n; i++)
            if (!val_equal(&a->v.items[i], &b->v.items[i], depth + 1)) return false;
        return true;
    }
}

bool cm_val_equal(const cm_val *a, const cm_val *b) { return val_equal(a, b, 0); }
