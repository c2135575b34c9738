/*
 * types.c — value types of Wasm 3.0 without GC: their text names,
 * subtyping (§3.3.1 "matching") and type equivalence across modules
 * (§3.1.3, §4.5.3 import matching). The representation is mod_valtype's
 * (module.h).
 */
#include "module.h"

#include <stdio.h>

const char *mod_valtype_str(mod_valtype t, char buf[32]) {
    if (!mod_is_ref(t) || t <= 0xFF) {
        snprintf(buf, 32, "%s", weft_valtype_name(mod_valtype_pub(t)));
        return buf;
    }
    const char *null = mod_nullable(t) ? "null " : "";
    if (mod_is_idx(t)) {
        snprintf(buf, 32, "(ref %s%u)", null, mod_type_idx(t));
        return buf;
    }
    const char *ht = "func";
    if (mod_valtype_pub(t) == WEFT_EXTERNREF) ht = "extern";
    else if (mod_valtype_pub(t) == WEFT_EXNREF) ht = "exn";
    if (mod_is_bottom(t)) {
        if (mod_nullable(t)) { /* the short forms' names (§6.4.5) */
            snprintf(buf, 32, "null%sref", ht);
            return buf;
        }
        snprintf(buf, 32, "(ref no%s)", ht);
        return buf;
    }
    snprintf(buf, 32, "(ref %s%s)", null, ht);
    return buf;
}

/* Whether type index a of ma and b of mb name equivalent types. Without
   GC every type is a function type in a rec group of its own, which may
   name itself: (sa, sb) are the types being compared one level up, so a
   reference back to them matches only a reference back. */
static bool idx_equiv(const struct weft_module *ma, uint32_t a, uint32_t sa,
                      const struct weft_module *mb, uint32_t b, uint32_t sb);

static bool valtype_equiv(const struct weft_module *ma, mod_valtype a, uint32_t sa,
                          const struct weft_module *mb, mod_valtype b, uint32_t sb) {
    if (!mod_is_idx(a) || !mod_is_idx(b)) return a == b;
    if ((a & ~(0xFFFFFu << MOD_T_IDX_SHIFT)) != (b & ~(0xFFFFFu << MOD_T_IDX_SHIFT))) return false;
    uint32_t ia = mod_type_idx(a), ib = mod_type_idx(b);
    if (ia == sa || ib == sb) return ia == sa && ib == sb;
    if (ma == mb && ia == ib) return true;
    return idx_equiv(ma, ia, UINT32_MAX, mb, ib, UINT32_MAX);
}

static bool functype_equiv(const struct weft_module *ma, const mod_functype *a, uint32_t sa,
                           const struct weft_module *mb, const mod_functype *b, uint32_t sb) {
    if (a->nparams != b->nparams || a->nresults != b->nresults) return false;
    for (uint32_t i = 0; i < a->nparams + a->nresults; i++)
        if (!valtype_equiv(ma, a->params[i], sa, mb, b->params[i], sb)) return false;
    return true;
}

static bool idx_equiv(const struct weft_module *ma, uint32_t a, uint32_t sa,
                      const struct weft_module *mb, uint32_t b, uint32_t sb) {
    (void)sa;
    (void)sb;
    if (!ma || !mb || a >= ma->ntypes || b >= mb->ntypes) return false;
    return functype_equiv(ma, &ma->types[a], a, mb, &mb->types[b], b);
}

bool mod_functype_equal(const mod_functype *a, const mod_functype *b) {
    if (a == b) return true;
    if (a->nparams != b->nparams || a->nresults != b->nresults) return false;
    uint32_t sa = a->owner ? (uint32_t)(a - a->owner->types) : UINT32_MAX;
    uint32_t sb = b->owner ? (uint32_t)(b - b->owner->types) : UINT32_MAX;
    return functype_equiv(a->owner, a, sa, b->owner, b, sb);
}

bool mod_valtype_equiv(const struct weft_module *ma, mod_valtype a, const struct weft_module *mb,
                       mod_valtype b) {
    return valtype_equiv(ma, a, UINT32_MAX, mb, b, UINT32_MAX);
}

bool mod_valtype_sub(const struct weft_module *m, mod_valtype a, mod_valtype b) {
    return mod_valtype_match(m, a, m, b);
}

bool mod_valtype_match(const struct weft_module *ma, mod_valtype a, const struct weft_module *mb,
                       mod_valtype b) {
    if (a == b && ma == mb) return true;
    if (!mod_is_idx(a) && a == b) return true;
    if (!mod_is_ref(a) || !mod_is_ref(b)) return false;
    if (mod_valtype_pub(a) != mod_valtype_pub(b)) return false; /* other hierarchy */
    if (mod_nullable(a) && !mod_nullable(b)) return false;
    /* §3.3.3 heap types: the bottom (nofunc, noextern, noexn) matches
       every heap type of its hierarchy, a type index included; only the
       bottom matches the bottom. */
    if (mod_is_bottom(a)) return true;
    if (mod_is_bottom(b)) return false;
    if (!mod_is_idx(b)) return true; /* the top: func, extern, exn */
    if (!mod_is_idx(a)) return false;
    if (!ma || !mb) return false;
    uint32_t ia = mod_type_idx(a), ib = mod_type_idx(b);
    /* An index past the type section: the decoder has already called the
       module invalid ("unknown type") but reads on, so a global's or a
       table's declared type can still name it here; it matches nothing. */
    if (ia >= ma->ntypes || ib >= mb->ntypes) return false;
    return (ma == mb && ia == ib) || mod_functype_equal(&ma->types[ia], &mb->types[ib]);
}

/* Heap type codes (Wasm 3.0 §5.3.3 absheaptype) besides func, extern,
   exn and the bottoms of their hierarchies: GC's (any, eq, i31, struct,
   array and their bottom none), read so that they are refused by name. */
const char *mod_gc_heap_name(uint8_t b) {
    switch (b) {
    case 0x6E: return "any";
    case 0x6D: return "eq";
    case 0x6C: return "i31";
    case 0x6B: return "struct";
    case 0x6A: return "array";
    case 0x71: return "none";
    }
    return NULL;
}

static bool gc_heap_code(uint8_t b) { return mod_gc_heap_name(b) != NULL; }

/* fail() for a GC type: its kind ("heap type", "reference type"), code and
   name, and what it needs. */
static mod_read_result fail_gc(mod_valtype_err *e, uint32_t at, const char *kind, uint8_t b) {
    e->offset = at;
    snprintf(e->msg, sizeof e->msg, "%s 0x%02x (%s) " MOD_GC_NEEDED, kind, b, mod_gc_heap_name(b));
    return MOD_READ_MALFORMED;
}

/* The abstract heap types weft reads (§5.3.3), as mod_valtypes of a
   nullable reference, else 0: func and extern; nofunc and noextern, which
   came with GC in the proposals' history (the 3.0 appendix's change list)
   but hold only null, so typed function references are enough for them;
   exn and noexn with exception handling, which introduced both. */
static mod_valtype abs_heap_type(const mod_module *m, uint8_t b) {
    bool eh = base_feature_on(m->engine, WEFT_FEATURE_EXCEPTIONS);
    switch (b) {
    case WEFT_FUNCREF: case WEFT_EXTERNREF: return b;
    case WEFT_EXNREF: return eh ? b : 0;
    case MOD_HT_NOFUNC: return MOD_T_NULLFUNCREF;
    case MOD_HT_NOEXTERN: return MOD_T_NULLEXTERNREF;
    case MOD_HT_NOEXN: return eh ? MOD_T_NULLEXNREF : 0;
    }
    return 0;
}

mod_valtype mod_short_reftype(const mod_module *m, uint8_t b) {
    if ((b == MOD_HT_NOFUNC || b == MOD_HT_NOEXTERN) && !base_feature_on(m->engine, WEFT_FEATURE_FUNCTION_REFERENCES))
        return 0;
    return abs_heap_type(m, b);
}

static mod_read_result fail(mod_read_result st, mod_valtype_err *e, uint32_t at, const char *msg,
                            unsigned arg) {
    e->offset = at;
    snprintf(e->msg, sizeof e->msg, msg, arg);
    return st;
}

/* A heap type (§5.3.5): an abstract type's code as one s33 byte or a
   type index as a non-negative s33. */
static mod_read_result read_heaptype(base_reader *r, const mod_module *m, uint32_t ntypes,
                                     bool nullable, mod_valtype *t, mod_valtype_err *e) {
    uint32_t at = base_reader_offset(r);
    int64_t v;
    if (!base_read_sleb(r, 33, &v)) return fail(MOD_READ_SHORT, e, at, "", 0);
    uint32_t nn = nullable ? 0 : MOD_T_NONNULL;
    if (v < 0) {
        uint8_t b = (uint8_t)(v & 0x7F);
        mod_valtype ht = v >= -64 ? abs_heap_type(m, b) : 0;
        if (ht) {
            *t = ht | nn;
            return MOD_READ_OK;
        }
        if (gc_heap_code(b) && v >= -64)
            return fail_gc(e, at, "heap type", b);
        return fail(MOD_READ_MALFORMED, e, at, "malformed heap type 0x%02x", b);
    }
    *t = mod_ref_idx(v < (int64_t)MOD_T_MAX_TYPES ? (uint32_t)v : MOD_T_MAX_TYPES - 1, nullable);
    if ((uint64_t)v >= ntypes) return fail(MOD_READ_INVALID, e, at, "unknown type %u", (unsigned)v);
    return MOD_READ_OK;
}

mod_read_result mod_read_valtype(base_reader *r, const mod_module *m, uint32_t ntypes, bool ref_only,
                                 mod_valtype *t, mod_valtype_err *e) {
    uint32_t at = base_reader_offset(r);
    int64_t v;
    *t = 0;
    if (!base_read_sleb(r, 7, &v)) return fail(MOD_READ_SHORT, e, at, "", 0);
    uint8_t b = (uint8_t)(v & 0x7F);
    bool typed = base_feature_on(m->engine, WEFT_FEATURE_FUNCTION_REFERENCES);
    switch (b) {
    case WEFT_I32: case WEFT_I64: case WEFT_F32: case WEFT_F64: case WEFT_V128:
        if (ref_only) break;
        if (b == WEFT_V128 && m->engine && (m->engine->config.disabled_features & WEFT_FEATURE_SIMD))
            return fail(MOD_READ_MALFORMED, e, at, "malformed value type 0x7b (SIMD is turned off)", 0);
        *t = b;
        return MOD_READ_OK;
    case WEFT_FUNCREF: case WEFT_EXTERNREF: case WEFT_EXNREF:
    case MOD_HT_NOFUNC: case MOD_HT_NOEXTERN: case MOD_HT_NOEXN:
        if (!(*t = mod_short_reftype(m, b))) break;
        return MOD_READ_OK;
    case 0x63: case 0x64: /* (ref null ht), (ref ht) */
        if (!typed) break;
        return read_heaptype(r, m, ntypes, b == 0x63, t, e);
    default:
        if (typed && gc_heap_code(b))
            return fail_gc(e, at, "reference type", b);
    }
    return fail(MOD_READ_MALFORMED, e, at, ref_only ? "malformed reference type 0x%02x" : "malformed value type 0x%02x", b);
}

mod_read_result mod_read_heaptype(base_reader *r, const mod_module *m, mod_valtype *t,
                                  mod_valtype_err *e) {
    if (!base_feature_on(m->engine, WEFT_FEATURE_FUNCTION_REFERENCES)) {
        /* 2.0: ref.null takes a reference type's one byte. */
        return mod_read_valtype(r, m, m->ntypes, true, t, e);
    }
    return read_heaptype(r, m, m->ntypes, true, t, e);
}
