/*
 * decode.c — the component binary format (Binary.md) into definitions
 * (component.h): the preamble, sections 0-12, every type, alias, canon and
 * name form. Syntax only: index bounds, types and names are validate.c's.
 * A core module section is loaded through weft_module_load, so the module
 * is decoded, validated and compiled once, like any other.
 *
 * Every failure is WEFT_ERR_MALFORMED with the byte offset of the outermost
 * binary (a core module's own errors keep their kind and get its offset
 * added). Vectors are bounded by the bytes left (each item takes at least
 * one byte) and CM_MAX_COUNT; nesting by CM_MAX_NESTING.
 */
#include "component.h"

#include <stdio.h>
#include <string.h>

#include "../base/base.h"

typedef struct dec {
    base_reader r;
    weft_engine *engine;
    cm_arena *arena;
    weft_error *err;
    uint32_t depth;      /* component and type nesting so far */
} dec;

/* Fails with the reader's position. */
#define DEC_FAIL(d, ...) \
    base_fail_at((d)->err, WEFT_ERR_MALFORMED, UINT32_MAX, base_reader_offset(&(d)->r), __VA_ARGS__)

static weft_status short_read(dec *d) {
    const char *why = d->r.why ? d->r.why : "unexpected end-of-file";
    return DEC_FAIL(d, "%s", why);
}
#define TRY(x) do { weft_status st_ = (x); if (st_ != WEFT_OK) return st_; } while (0)
#define TRY_READ(d, x) do { if (!(x)) return short_read(d); } while (0)

static void *alloc(dec *d, size_t n, size_t size) {
    if (n && size > SIZE_MAX / n) return NULL;
    size_t bytes = n * size;
    if (bytes == 0) bytes = 1;
    void *p = cm_arena_alloc(d->arena, bytes, 8);
    if (p) memset(p, 0, bytes);
    return p;
}
#define ALLOC_N(d, p, n) do { \
    if (!((p) = alloc((d), (n), sizeof *(p)))) \
        return base_fail((d)->err, WEFT_ERR_NOMEM, "out of memory decoding a component"); \
} while (0)

static weft_status u8(dec *d, uint8_t *out) {
    TRY_READ(d, base_read_u8(&d->r, out));
    return WEFT_OK;
}
static weft_status u32(dec *d, uint32_t *out) {
    TRY_READ(d, base_read_u32(&d->r, out));
    return WEFT_OK;
}
/* A vector's length: bounded by the bytes left (every item is at least
   one byte) and CM_MAX_COUNT. */
static weft_status count(dec *d, uint32_t *n, const char *what) {
    uint32_t at = base_reader_offset(&d->r);
    TRY(u32(d, n));
    if (*n > (size_t)(d->r.end - d->r.p) || *n > CM_MAX_COUNT)
        return base_fail_at(d->err, WEFT_ERR_MALFORMED, UINT32_MAX, at,
                            "%s count %u is larger than the bytes left (unexpected end-of-file)", what, *n);
    return WEFT_OK;
}
/* core:name: a UTF-8 string with its length. */
static weft_status name(dec *d, cm_name *out) {
    uint32_t len;
    TRY(u32(d, &len));
    const uint8_t *s;
    TRY_READ(d, base_read_bytes(&d->r, len, &s));
    if (!base_utf8_valid(s, len)) {
        d->r.p = s;
        return DEC_FAIL(d, "malformed UTF-8 encoding");
    }
    out->s = (const char *)s;
    out->len = len;
    return WEFT_OK;
}
/* A 0x00/0x01 byte (async?, cancel?, sh?, an optional's presence). */
static weft_status boolean(dec *d, bool *out) {
    uint8_t b;
    TRY(u8(d, &b));
    if (b > 1) {
        d->r.p--;
        return DEC_FAIL(d, "invalid boolean value (0x%x)", b);
    }
    *out = b;
    return WEFT_OK;
}
static weft_status bad_byte(dec *d, uint8_t b, const char *what) {
    d->r.p--;
    return DEC_FAIL(d, "invalid leading byte (0x%x) for %s", b, what);
}

/* ---- sorts ---------------------------------------------------------- */

/* core:sort (Binary.md "Instance Definitions"). */
static weft_status core_sort(dec *d, cm_sort *s, const char *what) {
    uint8_t b;
    TRY(u8(d, &b));
    switch (b) {
    case 0x00: *s = CM_CORE_FUNC; return WEFT_OK;
    case 0x01: *s = CM_CORE_TABLE; return WEFT_OK;
    case 0x02: *s = CM_CORE_MEMORY; return WEFT_OK;
    case 0x03: *s = CM_CORE_GLOBAL; return WEFT_OK;
    case 0x04: *s = CM_CORE_TAG; return WEFT_OK;
    case 0x10: *s = CM_CORE_TYPE; return WEFT_OK;
    case 0x11: *s = CM_CORE_MODULE; return WEFT_OK;
    case 0x12: *s = CM_CORE_INSTANCE; return WEFT_OK;
    default: return bad_byte(d, b, what);
    }
}
/* sort: 0x00 core:sort | 0x01 func | 0x02 value | 0x03 type | 0x04 component | 0x05 instance */
static weft_status sort(dec *d, cm_sort *s, const char *what) {
    uint8_t b;
    TRY(u8(d, &b));
    switch (b) {
    case 0x00: return core_sort(d, s, what);
    case 0x01: *s = CM_FUNC; return WEFT_OK;
    case 0x02: *s = CM_VALUE; return WEFT_OK;
    case 0x03: *s = CM_TYPE; return WEFT_OK;
    case 0x04: *s = CM_COMPONENT; return WEFT_OK;
    case 0x05: *s = CM_INSTANCE; return WEFT_OK;
    default: return bad_byte(d, b, what);
    }
}

/* ---- names (Binary.md "Import and Export Definitions") -------------- */

/* nameattributes: 0x00/0x01 name, or 0x02 name and attributes (🏷️/🔗:
   implements, versionsuffix, external-id; each at most once is the
   validator's). */
static weft_status extname(dec *d, cm_named *n, bool *dup_attr) {
    uint8_t b;
    TRY(u8(d, &b));
    if (b > 2) return bad_byte(d, b, "component name");
    TRY(name(d, &n->name));
    if (b < 2) return WEFT_OK;
    uint32_t na;
    TRY(count(d, &na, "name attribute"));
    bool seen[3] = {false, false, false};
    for (uint32_t i = 0; i < na; i++) {
        uint8_t k;
        TRY(u8(d, &k));
        cm_name v;
        switch (k) {
        case 0x00: TRY(name(d, &v)); n->implements = v; break;
        case 0x01: TRY(name(d, &v)); n->version_suffix = v; break;
        case 0x02: TRY(name(d, &v)); break; /* external-id: kept for nothing yet */
        default: return bad_byte(d, k, "name option");
        }
        if (seen[k]) *dup_attr = true;
        seen[k] = true;
    }
    return WEFT_OK;
}

/* ---- core types (Binary.md "Type Definitions", core:type) ------------ */

/* A core value type (Wasm 3.0 §5.3.3-5.3.5): a one-byte code, or 0x63/0x64
   with a heap type (an s33: an abstract heap type's negative code or a
   type index). */
static weft_status core_valtype(dec *d, cm_coreval *out) {
    uint8_t b;
    TRY(u8(d, &b));
    switch (b) {
    case 0x7f: case 0x7e: case 0x7d: case 0x7c: case 0x7b:
    case 0x70: case 0x6f: case 0x69:
        *out = b;
        return WEFT_OK;
    case 0x73: *out = 0x70; return WEFT_OK; /* nullfuncref: up to its top */
    case 0x72: *out = 0x6f; return WEFT_OK; /* nullexternref */
    case 0x74: *out = 0x69; return WEFT_OK; /* nullexnref */
    case 0x6e: case 0x6d: case 0x6c: case 0x6b: case 0x6a: case 0x71:
        *out = b; /* GC abstract references (any, eq, i31, struct, array, none) */
        return WEFT_OK;
    case 0x63: case 0x64: {
        int64_t ht;
        TRY_READ(d, base_read_sleb(&d->r, 33, &ht));
        cm_coreval top = 0x70;
        if (ht < 0) {
            uint8_t code = (uint8_t)(ht & 0x7f);
            top = (code == 0x6f || code == 0x72) ? 0x6f : (code == 0x69 || code == 0x74) ? 0x69 : 0x70;
            if (code >= 0x6a && code <= 0x6e) top = code;
        }
        *out = top | (b == 0x64 ? CM_CORE_NONNULL : 0);
        return WEFT_OK;
    }
    default:
        return bad_byte(d, b, "core value type");
    }
}

static weft_status core_limits(dec *d, weft_limits *l, bool memory) {
    uint8_t flags;
    TRY(u8(d, &flags));
    if (flags > 0x07 || (!memory && (flags & 0x02))) return bad_byte(d, flags, "limits");
    l->has_max = flags & 1;
    l->shared = (flags & 2) != 0;
    l->is64 = (flags & 4) != 0;
    TRY_READ(d, base_read_uleb(&d->r, l->is64 ? 64 : 32, &l->min));
    if (l->has_max) TRY_READ(d, base_read_uleb(&d->r, l->is64 ? 64 : 32, &l->max));
    return WEFT_OK;
}

/* core:externtype of an import or export declaration. */
static weft_status core_externtype(dec *d, cm_rawcoredecl *x) {
    uint8_t k;
    TRY(u8(d, &k));
    switch (k) {
    case 0x00: x->ext_kind = WEFT_EXTERN_FUNC; return u32(d, &x->type_idx);
    case 0x01: x->ext_kind = WEFT_EXTERN_TABLE; TRY(core_valtype(d, &x->elem)); return core_limits(d, &x->limits, false);
    case 0x02: x->ext_kind = WEFT_EXTERN_MEMORY; return core_limits(d, &x->limits, true);
    case 0x03: {
        x->ext_kind = WEFT_EXTERN_GLOBAL;
        TRY(core_valtype(d, &x->global));
        uint8_t m;
        TRY(u8(d, &m));
        if (m > 1) return bad_byte(d, m, "global mutability");
        x->mut = m;
        return WEFT_OK;
    }
    case 0x04: {
        uint8_t z;
        x->ext_kind = WEFT_EXTERN_TAG;
        TRY(u8(d, &z));
        if (z != 0) return bad_byte(d, z, "tag attribute");
        return u32(d, &x->type_idx);
    }
    default: return bad_byte(d, k, "core external kind");
    }
}

static weft_status core_type(dec *d, const cm_rawcoretype **out);

/* The composite type of a core:subtype (func, struct, array). */
static weft_status core_comptype(dec *d, cm_rawcoretype *t, uint8_t form) {
    t->form = form;
    uint32_t n;
    switch (form) {
    case 0x60:
        TRY(count(d, &t->nparams, "parameter"));
        ALLOC_N(d, t->params, t->nparams);
        for (uint32_t i = 0; i < t->nparams; i++) TRY(core_valtype(d, &t->params[i]));
        TRY(count(d, &t->nresults, "result"));
        ALLOC_N(d, t->results, t->nresults);
        for (uint32_t i = 0; i < t->nresults; i++) TRY(core_valtype(d, &t->results[i]));
        return WEFT_OK;
    case 0x5f: /* struct: fields of (storage type, mutability) */
        TRY(count(d, &n, "field"));
        for (uint32_t i = 0; i < n; i++) {
            uint8_t b;
            TRY(u8(d, &b));
            if (b != 0x78 && b != 0x77) { d->r.p--; cm_coreval v; TRY(core_valtype(d, &v)); }
            TRY(u8(d, &b));
        }
        return WEFT_OK;
    case 0x5e: {
        uint8_t b;
        TRY(u8(d, &b));
        if (b != 0x78 && b != 0x77) { d->r.p--; cm_coreval v; TRY(core_valtype(d, &v)); }
        return u8(d, &b);
    }
    default:
        return bad_byte(d, form, "core type");
    }
}

/* core:moduletype's declarations. */
static weft_status core_moduletype(dec *d, cm_rawcoretype *t) {
    t->form = 0x50;
    if (++d->depth > CM_MAX_NESTING) return DEC_FAIL(d, "types nested deeper than %d", CM_MAX_NESTING);
    TRY(count(d, &t->ndecls, "module type declaration"));
    ALLOC_N(d, t->decls, t->ndecls);
    for (uint32_t i = 0; i < t->ndecls; i++) {
        cm_rawcoredecl *x = &t->decls[i];
        x->offset = base_reader_offset(&d->r);
        TRY(u8(d, &x->kind));
        switch (x->kind) {
        case 0x00: TRY(name(d, &x->module)); TRY(name(d, &x->name)); TRY(core_externtype(d, x)); break;
        case 0x01: TRY(core_type(d, &x->core)); break;
        case 0x02: {
            uint8_t s, o;
            TRY(u8(d, &s));
            if (s != 0x10) return bad_byte(d, s, "outer alias kind");
            TRY(u8(d, &o));
            if (o != 0x01) return bad_byte(d, o, "outer alias target");
            TRY(u32(d, &x->ct));
            TRY(u32(d, &x->idx));
            break;
        }
        case 0x03: TRY(name(d, &x->name)); TRY(core_externtype(d, x)); break;
        default: return bad_byte(d, x->kind, "type declaration");
        }
    }
    d->depth--;
    return WEFT_OK;
}

/* core:type ::= core:deftype: a rectype (one subtype, or 0x4e a group: the
   group's first type stands for it here), 0x00 0x50 a non-final sub, or
   0x50 a module type. */
static weft_status core_type(dec *d, const cm_rawcoretype **out) {
    cm_rawcoretype *t;
    ALLOC_N(d, t, 1);
    *out = t;
    uint8_t b;
    TRY(u8(d, &b));
    if (b == 0x50) return core_moduletype(d, t);
    if (b == 0x4e) { /* rec group: decode each, keep the first */
        uint32_t n;
        TRY(count(d, &n, "recursion group type"));
        if (n == 0) return WEFT_OK;
        for (uint32_t i = 0; i < n; i++) {
            cm_rawcoretype tmp = {0};
            uint8_t f;
            TRY(u8(d, &f));
            if (f == 0x50 || f == 0x4f) {
                uint32_t ns, x;
                TRY(count(d, &ns, "supertype"));
                for (uint32_t j = 0; j < ns; j++) TRY(u32(d, &x));
                TRY(u8(d, &f));
            }
            TRY(core_comptype(d, i == 0 ? t : &tmp, f));
        }
        return WEFT_OK;
    }
    if (b == 0x00 || b == 0x4f) {
        if (b == 0x00) {
            uint8_t s;
            TRY(u8(d, &s));
            if (s != 0x50) return bad_byte(d, s, "core type");
        }
        uint32_t ns, x;
        TRY(count(d, &ns, "supertype"));
        for (uint32_t j = 0; j < ns; j++) TRY(u32(d, &x));
        TRY(u8(d, &b));
    }
    return core_comptype(d, t, b);
}

/* ---- component types (Binary.md "Type Definitions") ------------------ */

static bool is_prim(uint8_t b) { return (b >= 0x73 && b <= 0x7f) || b == 0x64; }

/* valtype ::= typeidx | primvaltype, an s33 as core's block types. */
static weft_status valtype(dec *d, cm_rawval *out) {
    int64_t v;
    uint32_t at = base_reader_offset(&d->r);
    TRY_READ(d, base_read_sleb(&d->r, 33, &v));
    if (v >= 0) {
        *out = (uint32_t)v;
        return WEFT_OK;
    }
    uint8_t code = (uint8_t)(v & 0x7f);
    if (v < -64 || !is_prim(code))
        return base_fail_at(d->err, WEFT_ERR_MALFORMED, UINT32_MAX, at,
                            "invalid leading byte (0x%x) for component value type", code);
    *out = CM_RAW_PRIM | code;
    return WEFT_OK;
}
static weft_status opt_valtype(dec *d, bool *has, cm_rawval *out) {
    TRY(boolean(d, has));
    return *has ? valtype(d, out) : WEFT_OK;
}
static weft_status labels(dec *d, cm_rawtype *t, bool typed, bool cases) {
    TRY(count(d, &t->n, "label"));
    ALLOC_N(d, t->labels, t->n);
    for (uint32_t i = 0; i < t->n; i++) {
        cm_rawlabel *l = &t->labels[i];
        TRY(name(d, &l->label));
        if (cases) {
            TRY(opt_valtype(d, &l->has_type, &l->type));
            uint8_t z;
            TRY(u8(d, &z));
            if (z != 0) return bad_byte(d, z, "zero byte required");
        } else if (typed) {
            l->has_type = true;
            TRY(valtype(d, &l->type));
        }
    }
    return WEFT_OK;
}
/* resultlist ::= 0x00 valtype | 0x01 0x00 */
static weft_status resultlist(dec *d, bool *has, cm_rawval *v) {
    uint8_t b;
    TRY(u8(d, &b));
    if (b == 0x00) {
        *has = true;
        return valtype(d, v);
    }
    if (b != 0x01) return bad_byte(d, b, "component function results");
    TRY(u8(d, &b));
    if (b != 0x00) return bad_byte(d, b, "number of results");
    *has = false;
    return WEFT_OK;
}

static weft_status type_def(dec *d, const cm_rawtype **out);

/* externtype (the importdecl/exportdecl's type). */
static weft_status externtype(dec *d, cm_rawextern *e, const char *what) {
    TRY(u8(d, &e->kind));
    switch (e->kind) {
    case 0x00: {
        uint8_t b;
        TRY(u8(d, &b));
        if (b != 0x11) return bad_byte(d, b, "component external kind");
        return u32(d, &e->idx);
    }
    case 0x01: case 0x04: case 0x05:
        return u32(d, &e->idx);
    case 0x02:
        TRY(u8(d, &e->bound));
        if (e->bound == 0) return u32(d, &e->idx);
        if (e->bound == 1) return valtype(d, &e->val);
        return bad_byte(d, e->bound, "value bound");
    case 0x03:
        TRY(u8(d, &e->bound));
        if (e->bound == 0) return u32(d, &e->idx);
        if (e->bound == 1) return WEFT_OK;
        return bad_byte(d, e->bound, "type bound");
    default:
        return bad_byte(d, e->kind, what);
    }
}

static weft_status alias(dec *d, cm_alias *a, bool in_type);

/* componentdecl / instancedecl. */
static weft_status decls(dec *d, cm_rawtype *t, bool component) {
    if (++d->depth > CM_MAX_NESTING) return DEC_FAIL(d, "types nested deeper than %d", CM_MAX_NESTING);
    TRY(count(d, &t->ndecls, "type declaration"));
    ALLOC_N(d, t->decls, t->ndecls);
    for (uint32_t i = 0; i < t->ndecls; i++) {
        cm_rawdecl *x = &t->decls[i];
        x->offset = base_reader_offset(&d->r);
        TRY(u8(d, &x->kind));
        bool dup = false;
        switch (x->kind) {
        case 0x00: TRY(core_type(d, &x->core)); break;
        case 0x01: TRY(type_def(d, &x->type)); break;
        case 0x02: TRY(alias(d, &x->alias, true)); break;
        case 0x03:
            if (!component) return bad_byte(d, x->kind, "component or instance type declaration");
            /* fallthrough */
        case 0x04:
            TRY(extname(d, &x->name, &dup));
            TRY(externtype(d, &x->ext, "component external kind"));
            break;
        default: return bad_byte(d, x->kind, "component or instance type declaration");
        }
        if (dup) return base_fail_at(d->err, WEFT_ERR_INVALID, UINT32_MAX, x->offset,
                                     "duplicate attribute in name (each of implements, version "
                                     "suffix, external-id at most once)");
    }
    d->depth--;
    return WEFT_OK;
}

/* type ::= deftype */
static weft_status type_def(dec *d, const cm_rawtype **out) {
    cm_rawtype *t;
    ALLOC_N(d, t, 1);
    *out = t;
    t->offset = base_reader_offset(&d->r);
    uint8_t b;
    TRY(u8(d, &b));
    t->form = b;
    if (is_prim(b)) return WEFT_OK;
    switch (b) {
    case 0x72: return labels(d, t, true, false);   /* record */
    case 0x71: return labels(d, t, false, true);   /* variant */
    case 0x70: case 0x6b: t->has_a = true; return valtype(d, &t->a); /* list, option */
    case 0x67: t->has_a = true; TRY(valtype(d, &t->a)); return u32(d, &t->n); /* fixed list 🔧 */
    case 0x6f: {                                     /* tuple */
        TRY(count(d, &t->n, "tuple member"));
        ALLOC_N(d, t->labels, t->n);
        for (uint32_t i = 0; i < t->n; i++) {
            t->labels[i].has_type = true;
            TRY(valtype(d, &t->labels[i].type));
        }
        return WEFT_OK;
    }
    case 0x6e: case 0x6d: return labels(d, t, false, false); /* flags, enum */
    case 0x6a: TRY(opt_valtype(d, &t->has_a, &t->a)); return opt_valtype(d, &t->has_b, &t->b);
    case 0x69: case 0x68: {
        uint32_t i;
        TRY(u32(d, &i));
        t->a = i;
        t->has_a = true;
        return WEFT_OK;
    }
    case 0x66: case 0x65: return opt_valtype(d, &t->has_a, &t->a); /* stream, future 🔀 */
    case 0x63: t->has_a = t->has_b = true; TRY(valtype(d, &t->a)); return valtype(d, &t->b); /* map 🗺️ */
    case 0x40: case 0x43:                            /* functype */
        TRY(labels(d, t, true, false));
        return resultlist(d, &t->has_a, &t->a);
    case 0x41: return decls(d, t, true);
    case 0x42: return decls(d, t, false);
    case 0x3f: {                                     /* resourcetype */
        TRY(core_valtype(d, &t->rep));
        TRY(boolean(d, &t->has_dtor));
        if (t->has_dtor) TRY(u32(d, &t->dtor));
        return WEFT_OK;
    }
    default:
        return bad_byte(d, b, "component defined type");
    }
}

/* ---- aliases --------------------------------------------------------- */

/* alias ::= sort 0x00 instanceidx name | sort 0x01 core:instanceidx core:name
           | sort 0x02 ct idx. The outer form names only the sorts of
   `outeraliassort` (core module, core type, type, component). */
static weft_status alias(dec *d, cm_alias *a, bool in_type) {
    (void)in_type;
    TRY(sort(d, &a->sort, "component outer alias kind"));
    TRY(u8(d, &a->target));
    switch (a->target) {
    case 0x00: case 0x01:
        TRY(u32(d, &a->a));
        return name(d, &a->name);
    case 0x02:
        if (a->sort != CM_CORE_MODULE && a->sort != CM_CORE_TYPE && a->sort != CM_TYPE &&
            a->sort != CM_COMPONENT) {
            uint8_t code = a->sort == CM_FUNC ? 1 : a->sort == CM_VALUE ? 2 : a->sort == CM_INSTANCE ? 5 : 0;
            d->r.p--;
            return DEC_FAIL(d, "invalid leading byte (0x%x) for component outer alias kind", code);
        }
        TRY(u32(d, &a->a));
        return u32(d, &a->b);
    default:
        return bad_byte(d, a->target, "alias");
    }
}

/* ---- canon ----------------------------------------------------------- */

static weft_status opts(dec *d, cm_canon *c) {
    TRY(count(d, &c->nopts, "canonical option"));
    ALLOC_N(d, c->opts, c->nopts);
    for (uint32_t i = 0; i < c->nopts; i++) {
        cm_canonopt *o = &c->opts[i];
        TRY(u8(d, &o->op));
        if (o->op > 7) return bad_byte(d, o->op, "canonical option");
        if (o->op == 3 || o->op == 4 || o->op == 5 || o->op == 7) TRY(u32(d, &o->idx));
    }
    return WEFT_OK;
}

static weft_status canon(dec *d, cm_canon *c) {
    TRY(u8(d, &c->op));
    uint8_t z;
    switch (c->op) {
    case 0x00:
        TRY(u8(d, &z));
        if (z != 0x00) return bad_byte(d, z, "canonical function lift");
        TRY(u32(d, &c->func));
        TRY(opts(d, c));
        return u32(d, &c->type);
    case 0x01:
        TRY(u8(d, &z));
        if (z != 0x00) return bad_byte(d, z, "canonical function lower");
        TRY(u32(d, &c->func));
        return opts(d, c);
    case 0x02: case 0x03: case 0x04: /* resource.new/drop/rep */
    case 0x0e: case 0x13: case 0x14: case 0x15: case 0x1a: case 0x1b: /* stream/future new, drops */
        return u32(d, &c->type);
    case 0x07: /* resource.drop async (older encoding): not in this Binary.md */
        return bad_byte(d, c->op, "canonical function");
    case 0x24: case 0x25: case 0x05: case 0x0d: case 0x1e: case 0x1f: case 0x22: case 0x23:
    case 0x26: case 0x28:
        return WEFT_OK;
    case 0x09:
        TRY(resultlist(d, &c->has_result, &c->result));
        return opts(d, c);
    case 0x0a: case 0x0b:
        TRY(core_valtype(d, &c->coreval));
        return u32(d, &c->slot);
    case 0x06:
        return boolean(d, &c->flag);
    case 0x0f: case 0x10: case 0x16: case 0x17:
        TRY(u32(d, &c->type));
        return opts(d, c);
    case 0x11: case 0x12: case 0x18: case 0x19:
        TRY(u32(d, &c->type));
        return boolean(d, &c->flag);
    case 0x1c: case 0x1d:
        return opts(d, c);
    case 0x20: case 0x21:
        TRY(boolean(d, &c->flag));
        return u32(d, &c->memory);
    case 0x27:
        TRY(u32(d, &c->type));
        return u32(d, &c->table);
    case 0x29: case 0x0c: case 0x2a: case 0x2b: case 0x2c: case 0x2d: case 0x42:
        return boolean(d, &c->flag);
    case 0x40:
        TRY(boolean(d, &c->flag));
        return u32(d, &c->type);
    case 0x41:
        TRY(boolean(d, &c->flag));
        TRY(u32(d, &c->type));
        return u32(d, &c->table);
    default:
        return bad_byte(d, c->op, "canonical function");
    }
}

/* ---- sections -------------------------------------------------------- */

static weft_status component(dec *d, uint32_t depth, const cm_component *parent, cm_component **out);

/* A definitions vector grows as sections come. */
typedef BASE_VEC(cm_def) def_vec;

static weft_status push(dec *d, def_vec *v, cm_def **out) {
    if (!BASE_VEC_PUSH(*v, (cm_def){0}))
        return base_fail(d->err, WEFT_ERR_NOMEM, "out of memory decoding a component");
    *out = &v->data[v->len - 1];
    (*out)->offset = base_reader_offset(&d->r);
    return WEFT_OK;
}

/* Checks a preamble: magic, version 0x0d, layer 1 (Binary.md "Component
   Definitions"); `module` wants a core module's instead. */
static weft_status preamble(dec *d, bool want_module) {
    const uint8_t *p;
    if (!base_read_bytes(&d->r, 4, &p)) return DEC_FAIL(d, "unexpected end-of-file: no magic header");
    if (memcmp(p, "\0asm", 4) != 0) {
        d->r.p = p;
        return DEC_FAIL(d, "magic header not detected (not a WebAssembly binary)");
    }
    if (!base_read_bytes(&d->r, 4, &p)) return DEC_FAIL(d, "unexpected end-of-file: no version header");
    bool is_module = p[0] == 1 && p[1] == 0 && p[2] == 0 && p[3] == 0;
    bool is_comp_layer = p[2] == 1 && p[3] == 0;
    d->r.p = p;
    if (want_module) {
        if (!is_module) return DEC_FAIL(d, "expected a version header for a module");
    } else if (is_module) {
        return DEC_FAIL(d, "expected a version header for a component, found a core module's");
    } else if (!is_comp_layer) {
        return DEC_FAIL(d, "unknown binary version or layer (%02x %02x %02x %02x): a component has "
                        "version 0d 00 and layer 01 00", p[0], p[1], p[2], p[3]);
    } else if (p[0] != 0x0d || p[1] != 0) {
        return DEC_FAIL(d, "unknown binary version 0x%02x%02x: weft reads components of version 0x0d "
                        "(the pre-standard encoding of Binary.md)", p[1], p[0]);
    }
    d->r.p = p + 4;
    return WEFT_OK;
}

static weft_status core_module(dec *d, const uint8_t *start, uint32_t size, struct weft_module **out) {
    base_reader save = d->r;
    TRY(preamble(d, true));
    d->r = save;
    weft_error e;
    weft_status st = weft_module_load(d->engine, start, size, out, &e);
    if (st == WEFT_OK) return WEFT_OK;
    uint32_t base = (uint32_t)(start - d->r.base);
    return base_fail_at(d->err, st, UINT32_MAX, e.offset == UINT32_MAX ? base : base + e.offset,
                        "core module: %s", e.message);
}

static weft_status section(dec *d, uint8_t id, def_vec *defs, uint32_t depth, const cm_component *self) {
    uint32_t n;
    cm_def *x;
    switch (id) {
    case 0: { /* custom: a name, then anything (a name section's validity is not required) */
        cm_name nm;
        TRY(name(d, &nm));
        d->r.p = d->r.end;
        return WEFT_OK;
    }
    case 1:
        TRY(push(d, defs, &x));
        x->kind = CM_DEF_CORE_MODULE;
        TRY(core_module(d, d->r.p, (uint32_t)(d->r.end - d->r.p), &x->u.module));
        d->r.p = d->r.end;
        return WEFT_OK;
    case 4:
        TRY(push(d, defs, &x));
        x->kind = CM_DEF_COMPONENT;
        return component(d, depth + 1, self, &x->u.component);
    case 9:
        TRY(push(d, defs, &x));
        x->kind = CM_DEF_START;
        TRY(u32(d, &x->u.start.func));
        TRY(count(d, &x->u.start.nargs, "start argument"));
        ALLOC_N(d, x->u.start.args, x->u.start.nargs);
        for (uint32_t i = 0; i < x->u.start.nargs; i++) TRY(u32(d, &x->u.start.args[i]));
        return u32(d, &x->u.start.nresults);
    case 12:
        return DEC_FAIL(d, "value definitions (section 12, 🪙) are not supported by weft");
    default:
        break;
    }
    TRY(count(d, &n, "section item"));
    for (uint32_t i = 0; i < n; i++) {
        TRY(push(d, defs, &x));
        bool dup = false;
        switch (id) {
        case 2: case 5: {
            x->kind = id == 2 ? CM_DEF_CORE_INSTANCE : CM_DEF_INSTANCE;
            uint8_t b;
            TRY(u8(d, &b));
            if (b > 1) return bad_byte(d, b, id == 2 ? "core instance" : "instance");
            x->u.inst.instantiate = b == 0;
            if (b == 0) TRY(u32(d, &x->u.inst.of));
            TRY(count(d, &x->u.inst.nargs, "instantiation argument"));
            ALLOC_N(d, x->u.inst.args, x->u.inst.nargs);
            for (uint32_t j = 0; j < x->u.inst.nargs; j++) {
                cm_arg *a = &x->u.inst.args[j];
                if (id == 5 && b == 1) {
                    cm_named nm = {0};
                    TRY(extname(d, &nm, &dup));
                    a->name = nm.name;
                    a->implements = nm.implements;
                } else {
                    TRY(name(d, &a->name));
                }
                if (id == 2 && b == 0) {
                    uint8_t k;
                    TRY(u8(d, &k));
                    if (k != 0x12) return bad_byte(d, k, "instantiation arg kind");
                    a->item.sort = CM_CORE_INSTANCE;
                } else if (id == 2) {
                    TRY(core_sort(d, &a->item.sort, "core export kind"));
                } else {
                    TRY(sort(d, &a->item.sort, b == 0 ? "instantiation arg kind" : "export kind"));
                }
                TRY(u32(d, &a->item.idx));
            }
            break;
        }
        case 3:
            x->kind = CM_DEF_CORE_TYPE;
            TRY(core_type(d, &x->u.core_type));
            break;
        case 6:
            x->kind = CM_DEF_ALIAS;
            TRY(alias(d, &x->u.alias, false));
            break;
        case 7: {
            x->kind = CM_DEF_TYPE;
            uint32_t at = base_reader_offset(&d->r);
            TRY(type_def(d, &x->u.type));
            uint8_t f = x->u.type->form;
            (void)at;
            (void)f;
            break;
        }
        case 8:
            x->kind = CM_DEF_CANON;
            TRY(canon(d, &x->u.canon.c));
            break;
        case 10:
            x->kind = CM_DEF_IMPORT;
            TRY(extname(d, &x->u.ie.name, &dup));
            TRY(externtype(d, &x->u.ie.ext, "component external kind"));
            x->u.ie.has_ext = true;
            break;
        case 11: {
            x->kind = CM_DEF_EXPORT;
            TRY(extname(d, &x->u.ie.name, &dup));
            TRY(sort(d, &x->u.ie.item.sort, "component export kind"));
            TRY(u32(d, &x->u.ie.item.idx));
            uint8_t b;
            TRY(u8(d, &b));
            if (b > 1) return bad_byte(d, b, "optional component export type");
            x->u.ie.has_ext = b == 1;
            if (b == 1) TRY(externtype(d, &x->u.ie.ext, "component external kind"));
            break;
        }
        default:
            d->r.p -= 0;
            return DEC_FAIL(d, "malformed section id %u", id);
        }
        if (dup) return base_fail_at(d->err, WEFT_ERR_INVALID, UINT32_MAX, x->offset,
                                     "duplicate 'implements' option in name (each attribute at most once)");
    }
    return WEFT_OK;
}

static weft_status component(dec *d, uint32_t depth, const cm_component *parent, cm_component **out) {
    if (depth > CM_MAX_NESTING) return DEC_FAIL(d, "components nested deeper than %d", CM_MAX_NESTING);
    cm_component *c;
    ALLOC_N(d, c, 1);
    *out = c;
    c->arena = d->arena;
    c->depth = depth;
    c->parent = parent;
    c->offset = base_reader_offset(&d->r);
    TRY(preamble(d, false));
    def_vec defs = {0};
    weft_status st = WEFT_OK;
    while (d->r.p < d->r.end) {
        uint8_t id;
        uint32_t size;
        if (!base_read_u8(&d->r, &id)) { st = short_read(d); break; }
        if (id > 12) {
            d->r.p--;
            st = DEC_FAIL(d, "malformed section id %u (a component has sections 0 to 12)", id);
            break;
        }
        if (!base_read_u32(&d->r, &size)) { st = short_read(d); break; }
        if (size > (size_t)(d->r.end - d->r.p)) {
            st = DEC_FAIL(d, "section size %u is past the end (unexpected end-of-file)", size);
            break;
        }
        const uint8_t *outer_end = d->r.end;
        const uint8_t *sec_end = d->r.p + size;
        d->r.end = sec_end;
        st = section(d, id, &defs, depth, c);
        if (st == WEFT_OK && d->r.p != sec_end)
            st = DEC_FAIL(d, "section %u ends %u bytes before its declared size", id,
                          (uint32_t)(sec_end - d->r.p));
        d->r.end = outer_end;
        if (st != WEFT_OK) break;
    }
    c->len = base_reader_offset(&d->r) - c->offset;
    /* the definitions move into the arena (their vector is malloc'd) */
    if (st == WEFT_OK) {
        c->defs = alloc(d, defs.len, sizeof *c->defs);
        if (!c->defs) st = base_fail(d->err, WEFT_ERR_NOMEM, "out of memory decoding a component");
        else {
            if (defs.len) memcpy(c->defs, defs.data, defs.len * sizeof *c->defs);
            c->ndefs = (uint32_t)defs.len;
        }
    }
    if (st != WEFT_OK) { /* the modules loaded so far are released */
        for (size_t i = 0; i < defs.len; i++)
            if (defs.data[i].kind == CM_DEF_CORE_MODULE) weft_module_release(defs.data[i].u.module);
            else if (defs.data[i].kind == CM_DEF_COMPONENT && defs.data[i].u.component)
                cm_component_free_modules(defs.data[i].u.component);
    }
    BASE_VEC_FREE(defs);
    return st;
}

weft_status cm_decode(weft_engine *engine, cm_arena *arena, const uint8_t *bytes, size_t len,
                      cm_component **out, weft_error *err) {
    if (len > UINT32_MAX) return base_fail(err, WEFT_ERR_LIMIT, "a component of 4 GiB or more is not supported");
    dec d = {.r = {bytes, bytes, bytes + len, NULL, NULL}, .engine = engine, .arena = arena, .err = err};
    *out = NULL;
    cm_component *c = NULL;
    weft_status st = component(&d, 0, NULL, &c);
    if (st != WEFT_OK) return st;
    *out = c;
    return WEFT_OK;
}

void cm_component_free_modules(cm_component *c) {
    if (!c) return;
    for (uint32_t i = 0; i < c->ndefs; i++) {
        if (c->defs[i].kind == CM_DEF_CORE_MODULE) weft_module_release(c->defs[i].u.module);
        else if (c->defs[i].kind == CM_DEF_COMPONENT) cm_component_free_modules(c->defs[i].u.component);
    }
    c->ndefs = 0;
}

const char *cm_sort_name(cm_sort s) {
    static const char *const names[CM_SORT_COUNT] = {
        "core func", "core table", "core memory", "core global", "core tag", "core type",
        "core module", "core instance", "func", "value", "type", "component", "instance",
    };
    return s < CM_SORT_COUNT ? names[s] : "?";
}
