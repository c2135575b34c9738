/*
 * vtypes.c — what the validator asks of resolved types (component.h,
 * ctype.h): equality and subtyping (Explainer.md "Subtyping"), resource
 * substitution for instantiation, the canonical ABI's flattening and
 * element size as validation uses them (CanonicalABI.md "Flattening",
 * "Element Size"), and the printable form of extern types.
 *
 * Every recursion here follows a type tree, whose depth the validator
 * bounds (CM_MAX_TYPE_DEPTH); DAG-shaped trees are walked with a visited
 * set where a walk could otherwise repeat a shared subtree exponentially.
 */
#include "vtypes.h"

#include <stdio.h>
#include <string.h>

#include "../base/base.h"

/* ---- pointer sets ---------------------------------------------------- */

static size_t hash_ptr(const void *p, size_t cap) {
    uintptr_t x = (uintptr_t)p;
    x ^= x >> 17;
    x *= 0x9E3779B97F4A7C15ull;
    return (size_t)(x >> 7) & (cap - 1);
}

bool cm_pset_has(const cm_pset *s, const void *p) {
    if (!s->cap) return false;
    for (size_t i = hash_ptr(p, s->cap);; i = (i + 1) & (s->cap - 1)) {
        if (s->keys[i] == p) return true;
        if (!s->keys[i]) return false;
    }
}
const void *cm_pset_get(const cm_pset *s, const void *p) {
    if (!s->cap) return NULL;
    for (size_t i = hash_ptr(p, s->cap);; i = (i + 1) & (s->cap - 1)) {
        if (s->keys[i] == p) return s->vals[i];
        if (!s->keys[i]) return NULL;
    }
}
bool cm_pset_put(cm_pset *s, const void *p, const void *v) {
    if ((s->len + 1) * 2 > s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 16;
        const void **keys = base_calloc(cap, sizeof *keys);
        const void **vals = base_calloc(cap, sizeof *vals);
        if (!keys || !vals) {
            free(keys);
            free(vals);
            return false;
        }
        for (size_t i = 0; i < s->cap; i++) {
            if (!s->keys[i]) continue;
            size_t j = hash_ptr(s->keys[i], cap);
            while (keys[j]) j = (j + 1) & (cap - 1);
            keys[j] = s->keys[i];
            vals[j] = s->vals[i];
        }
        free(s->keys);
        free(s->vals);
        s->keys = keys;
        s->vals = vals;
        s->cap = cap;
    }
    size_t i = hash_ptr(p, s->cap);
    while (s->keys[i] && s->keys[i] != p) i = (i + 1) & (s->cap - 1);
    if (!s->keys[i]) s->len++;
    s->keys[i] = p;
    s->vals[i] = v;
    return true;
}
void cm_pset_free(cm_pset *s) {
    free(s->keys);
    free(s->vals);
    memset(s, 0, sizeof *s);
}

/* ---- equality (Explainer.md "Subtyping": value types match when equal;
   resources by identity after the substitution `map`) ---------------- */

static const cm_resource *mapped(const cm_pset *map, const cm_resource *r) {
    const cm_resource *m = map ? cm_pset_get(map, r) : NULL;
    return m ? m : r;
}

static bool name_eq(const char *a, uint32_t na, const char *b, uint32_t nb) {
    return na == nb && memcmp(a, b, na) == 0;
}

/* memo: pairs (a, b) already found to match, so a pair of DAG-shaped
   trees (shared subtrees) is compared in time of their node count. */
static bool val_match(const cm_valtype *a, const cm_valtype *b, const cm_pset *map, char *why, size_t cap,
                      cm_pset *memo);

bool cm_val_match(const cm_valtype *a, const cm_valtype *b, const cm_pset *map, char *why, size_t cap) {
    cm_pset memo = {0};
    bool ok = val_match(a, b, map, why, cap, &memo);
    cm_pset_free(&memo);
    return ok;
}

static bool val_match(const cm_valtype *a, const cm_valtype *b, const cm_pset *map, char *why, size_t cap,
                      cm_pset *memo) {
    if (a == b) return true;
    if (a && b && !cm_kind_is_prim(a->kind) && cm_pset_get(memo, a) == b) return true;
    if (!a || !b) {
        snprintf(why, cap, "type mismatch");
        return false;
    }
    if (a->kind != b->kind) {
        snprintf(why, cap, "expected %s, found %s", cm_kind_name(b->kind), cm_kind_name(a->kind));
        return false;
    }
    switch (a->kind) {
    case CM_RECORD: case CM_VARIANT: case CM_FLAGS: case CM_ENUM:
        if (a->n != b->n) {
            snprintf(why, cap, "expected %u %s, found %u", b->n,
                     a->kind == CM_RECORD ? "fields" : a->kind == CM_VARIANT ? "cases" : "labels", a->n);
            return false;
        }
        for (uint32_t i = 0; i < a->n; i++) {
            const cm_field *fa = &a->fields[i], *fb = &b->fields[i];
            if (!name_eq(fa->name, fa->name_len, fb->name, fb->name_len)) {
                snprintf(why, cap, "expected %s named `%.*s`, found `%.*s` (mismatch in %s elements)",
                         a->kind == CM_RECORD ? "field" : "case", (int)fb->name_len, fb->name,
                         (int)fa->name_len, fa->name, cm_kind_name(a->kind));
                return false;
            }
            if (!fa->type != !fb->type) {
                snprintf(why, cap, "expected case `%.*s` to have %s", (int)fb->name_len, fb->name,
                         fb->type ? "a type, found none" : "no type");
                return false;
            }
            if (fa->type && !val_match(fa->type, fb->type, map, why, cap, memo)) return false;
        }
        cm_pset_put(memo, a, b);
        return true;
    case CM_TUPLE:
        if (a->n != b->n) {
            snprintf(why, cap, "expected %u types, found %u", b->n, a->n);
            return false;
        }
        for (uint32_t i = 0; i < a->n; i++)
            if (!val_match(a->members[i], b->members[i], map, why, cap, memo)) return false;
        cm_pset_put(memo, a, b);
        return true;
    case CM_FIXED_LIST:
        if (a->n != b->n) {
            snprintf(why, cap, "expected a list of %u, found %u", b->n, a->n);
            return false;
        }
        /* fallthrough */
    case CM_LIST: case CM_OPTION: case CM_STREAM: case CM_FUTURE: case CM_RESULT: case CM_MAP:
        if (!a->elem != !b->elem || !a->elem2 != !b->elem2) {
            snprintf(why, cap, "type mismatch in %s (ok or err type present in one only)", cm_kind_name(a->kind));
            return false;
        }
        if (a->elem && !val_match(a->elem, b->elem, map, why, cap, memo)) return false;
        if (a->elem2 && !val_match(a->elem2, b->elem2, map, why, cap, memo)) return false;
        cm_pset_put(memo, a, b);
        return true;
    case CM_OWN: case CM_BORROW:
        if (a->resource != mapped(map, b->resource)) {
            snprintf(why, cap, "resource types are not the same");
            return false;
        }
        return true;
    default:
        return true; /* primitives of the same kind */
    }
}

bool cm_func_match(const cm_functype *a, const cm_functype *b, const cm_pset *map, char *why, size_t cap) {
    if (a->async != b->async) {
        snprintf(why, cap, "expected %s function, found %s", b->async ? "an async" : "a sync",
                 a->async ? "an async one" : "a sync one");
        return false;
    }
    if (a->nparams != b->nparams) {
        snprintf(why, cap, "expected %u parameters, found %u", b->nparams, a->nparams);
        return false;
    }
    for (uint32_t i = 0; i < a->nparams; i++) {
        const cm_field *pa = &a->params[i], *pb = &b->params[i];
        if (!name_eq(pa->name, pa->name_len, pb->name, pb->name_len)) {
            snprintf(why, cap, "expected parameter named `%.*s`, found `%.*s`", (int)pb->name_len, pb->name,
                     (int)pa->name_len, pa->name);
            return false;
        }
        char sub[200];
        if (!cm_val_match(pa->type, pb->type, map, sub, sizeof sub)) {
            snprintf(why, cap, "type mismatch in function parameter `%.*s`: %s", (int)pa->name_len, pa->name, sub);
            return false;
        }
    }
    if (!a->result != !b->result) {
        snprintf(why, cap, b->result ? "expected a result, found none" : "expected no result, found one");
        return false;
    }
    char sub[200];
    if (a->result && !cm_val_match(a->result, b->result, map, sub, sizeof sub)) {
        snprintf(why, cap, "type mismatch with result type: %s", sub);
        return false;
    }
    return true;
}

/* core extern subtyping (Wasm 3.0 §3.3.x "import matching") */
static bool core_func_eq(const cm_core_functype *a, const cm_core_functype *b) {
    if (!a || !b) return true; /* a built-in whose signature is not modelled */
    return a->nparams == b->nparams && a->nresults == b->nresults &&
           (!a->nparams || !memcmp(a->params, b->params, a->nparams * sizeof *a->params)) &&
           (!a->nresults || !memcmp(a->results, b->results, a->nresults * sizeof *a->results));
}
static bool limits_sub(const weft_limits *a, const weft_limits *b) {
    if (a->min < b->min) return false;
    if (b->has_max && (!a->has_max || a->max > b->max)) return false;
    return true;
}
static const char *core_kind_name(uint8_t k) {
    static const char *const n[] = {"func", "table", "memory", "global", "tag"};
    return k < 5 ? n[k] : "?";
}
static const char *coreval_name(cm_coreval v) {
    switch (v & 0xff) {
    case 0x7f: return "i32";
    case 0x7e: return "i64";
    case 0x7d: return "f32";
    case 0x7c: return "f64";
    case 0x7b: return "v128";
    case 0x70: return "funcref";
    case 0x6f: return "externref";
    case 0x69: return "exnref";
    default: return "ref";
    }
}
bool cm_core_extern_match(const cm_core_extern *a, const cm_core_extern *b, char *why, size_t cap) {
    if (a->kind != b->kind) {
        snprintf(why, cap, "expected %s, found %s", core_kind_name(b->kind), core_kind_name(a->kind));
        return false;
    }
    switch (a->kind) {
    case WEFT_EXTERN_FUNC: case WEFT_EXTERN_TAG:
        if (!core_func_eq(a->func, b->func)) {
            snprintf(why, cap, "type mismatch: expected %s", cm_core_functype_str(b->func, (char[128]){0}, 128));
            return false;
        }
        return true;
    case WEFT_EXTERN_TABLE:
        if (a->elem != b->elem) {
            snprintf(why, cap, "expected table element type %s, found %s", coreval_name(b->elem), coreval_name(a->elem));
            return false;
        }
        if (!limits_sub(&a->limits, &b->limits)) {
            snprintf(why, cap, "mismatch in table limits");
            return false;
        }
        return true;
    case WEFT_EXTERN_MEMORY:
        if (a->limits.shared != b->limits.shared) {
            snprintf(why, cap, "mismatch in the shared flag for memories");
            return false;
        }
        if (a->limits.is64 != b->limits.is64 || !limits_sub(&a->limits, &b->limits)) {
            snprintf(why, cap, "mismatch in memory limits");
            return false;
        }
        return true;
    case WEFT_EXTERN_GLOBAL:
        if (a->global != b->global || a->mut != b->mut) {
            snprintf(why, cap, "expected global type %s%s, found %s%s", b->mut ? "mut " : "", coreval_name(b->global),
                     a->mut ? "mut " : "", coreval_name(a->global));
            return false;
        }
        return true;
    default:
        return true;
    }
}

const char *cm_core_functype_str(const cm_core_functype *f, char *buf, size_t cap) {
    if (!f) {
        snprintf(buf, cap, "(func)");
        return buf;
    }
    size_t n = (size_t)snprintf(buf, cap, "(func");
    if (f->nparams) n += (size_t)snprintf(buf + (n < cap ? n : cap), n < cap ? cap - n : 0, " (param");
    for (uint32_t i = 0; i < f->nparams && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, " %s", coreval_name(f->params[i]));
    if (f->nparams && n < cap) n += (size_t)snprintf(buf + n, cap - n, ")");
    if (f->nresults && n < cap) n += (size_t)snprintf(buf + n, cap - n, " (result");
    for (uint32_t i = 0; i < f->nresults && n < cap; i++)
        n += (size_t)snprintf(buf + n, cap - n, " %s", coreval_name(f->results[i]));
    if (f->nresults && n < cap) n += (size_t)snprintf(buf + n, cap - n, ")");
    if (n < cap) snprintf(buf + n, cap - n, ")");
    return buf;
}

/* ---- flattening (CanonicalABI.md "Flattening") ---------------------- */

static cm_coreval join(cm_coreval a, cm_coreval b) {
    if (a == b) return a;
    if ((a == 0x7f && b == 0x7d) || (a == 0x7d && b == 0x7f)) return 0x7f;
    return 0x7e;
}

/* Appends t's flat types to out (at most `max`; *n counts all, past max too). */
static void flatten(const cm_valtype *t, cm_coreval *out, uint32_t max, uint32_t *n) {
#define PUT(v) do { if (*n < max) out[*n] = (v); (*n)++; } while (0)
    switch (t->kind) {
    case CM_S64: case CM_U64: PUT(0x7e); return;
    case CM_F32: PUT(0x7d); return;
    case CM_F64: PUT(0x7c); return;
    case CM_STRING: case CM_LIST: case CM_MAP: PUT(0x7f); PUT(0x7f); return;
    case CM_FIXED_LIST:
        for (uint32_t i = 0; i < t->n && *n <= max; i++) flatten(t->elem, out, max, n);
        return;
    case CM_RECORD:
        for (uint32_t i = 0; i < t->n && *n <= max; i++) flatten(t->fields[i].type, out, max, n);
        return;
    case CM_TUPLE:
        for (uint32_t i = 0; i < t->n && *n <= max; i++) flatten(t->members[i], out, max, n);
        return;
    case CM_VARIANT: case CM_OPTION: case CM_RESULT: {
        uint32_t start = *n;
        PUT(0x7f);
        uint32_t ncase = t->kind == CM_VARIANT ? t->n : 2;
        uint32_t width = 0;
        for (uint32_t c = 0; c < ncase && start + 1 + width <= max; c++) {
            const cm_valtype *ct = t->kind == CM_VARIANT ? t->fields[c].type
                                   : t->kind == CM_OPTION ? (c ? t->elem : NULL)
                                   : (c ? t->elem2 : t->elem);
            if (!ct) continue;
            cm_coreval tmp[CM_FLAT_MAX + 1];
            uint32_t k = 0;
            flatten(ct, tmp, CM_FLAT_MAX + 1, &k);
            for (uint32_t i = 0; i < k && i <= CM_FLAT_MAX; i++) {
                uint32_t at = start + 1 + i;
                if (i < width) {
                    if (at < max) out[at] = join(out[at], tmp[i]);
                } else {
                    if (at < max) out[at] = tmp[i];
                }
            }
            if (k > width) width = k;
        }
        *n = start + 1 + width;
        return;
    }
    default: PUT(0x7f); return; /* the 32-bit scalars, char, bool, flags, enum, handles */
    }
#undef PUT
}

void cm_flatten_func(const cm_functype *ft, bool lift, cm_core_functype *out, cm_coreval *buf) {
    uint32_t np = 0, nr = 0;
    cm_coreval *params = buf, *results = buf + CM_FLAT_MAX + 2;
    for (uint32_t i = 0; i < ft->nparams; i++) flatten(ft->params[i].type, params, CM_FLAT_MAX + 1, &np);
    if (np > CM_MAX_FLAT_PARAMS) {
        params[0] = 0x7f;
        np = 1;
    }
    if (ft->result) flatten(ft->result, results, CM_FLAT_MAX + 1, &nr);
    if (nr > CM_MAX_FLAT_RESULTS) {
        if (lift) {
            results[0] = 0x7f;
            nr = 1;
        } else {
            params[np++] = 0x7f;
            nr = 0;
        }
    }
    out->nparams = np;
    out->params = params;
    out->nresults = nr;
    out->results = results;
}

uint32_t cm_flat_count(const cm_valtype *t) {
    cm_coreval tmp[CM_FLAT_MAX + 1];
    uint32_t n = 0;
    flatten(t, tmp, CM_FLAT_MAX + 1, &n);
    return n;
}

/* ---- element size (CanonicalABI.md "Element Size", with 64-bit
   pointers: elem_size(t, 'i64')) ----------------------------------------- */

static uint64_t align_to(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

void cm_size_align(const cm_valtype *t, cm_pset *memo, uint64_t *size, uint32_t *align) {
    /* memo: node -> (size << 4 | log2 align) + 1, so a shared subtree is sized once */
    uintptr_t m = (uintptr_t)cm_pset_get(memo, t);
    if (m) {
        *size = (uint64_t)((m - 1) >> 4);
        *align = 1u << ((m - 1) & 15);
        return;
    }
    uint64_t s = 0;
    uint32_t al = 1;
    switch (t->kind) {
    case CM_BOOL: case CM_S8: case CM_U8: s = al = 1; break;
    case CM_S16: case CM_U16: s = al = 2; break;
    case CM_S32: case CM_U32: case CM_F32: case CM_CHAR: case CM_OWN: case CM_BORROW:
    case CM_STREAM: case CM_FUTURE: case CM_ERROR_CONTEXT: s = al = 4; break;
    case CM_S64: case CM_U64: case CM_F64: s = al = 8; break;
    case CM_STRING: case CM_LIST: case CM_MAP: s = 16; al = 8; break;
    case CM_FIXED_LIST: {
        uint64_t es;
        cm_size_align(t->elem, memo, &es, &al);
        s = t->n && es > ((uint64_t)1 << 40) / t->n ? (uint64_t)1 << 40 : es * t->n;
        break;
    }
    case CM_RECORD: case CM_TUPLE:
        for (uint32_t i = 0; i < t->n; i++) {
            uint64_t fs;
            uint32_t fa;
            cm_size_align(t->kind == CM_RECORD ? t->fields[i].type : t->members[i], memo, &fs, &fa);
            s = align_to(s, fa) + fs;
            if (fa > al) al = fa;
            if (s > ((uint64_t)1 << 40)) break;
        }
        s = align_to(s, al);
        break;
    case CM_FLAGS: s = al = t->n <= 8 ? 1 : t->n <= 16 ? 2 : 4; break;
    case CM_ENUM: s = al = t->n <= 256 ? 1 : t->n <= 65536 ? 2 : 4; break;
    case CM_VARIANT: case CM_OPTION: case CM_RESULT: {
        uint32_t ncase = t->kind == CM_VARIANT ? t->n : 2;
        uint32_t disc = ncase <= 256 ? 1 : ncase <= 65536 ? 2 : 4;
        uint64_t maxs = 0;
        uint32_t maxa = disc;
        for (uint32_t c = 0; c < ncase; c++) {
            const cm_valtype *ct = t->kind == CM_VARIANT ? t->fields[c].type
                                   : t->kind == CM_OPTION ? (c ? t->elem : NULL)
                                   : (c ? t->elem2 : t->elem);
            if (!ct) continue;
            uint64_t cs;
            uint32_t ca;
            cm_size_align(ct, memo, &cs, &ca);
            if (cs > maxs) maxs = cs;
            if (ca > maxa) maxa = ca;
        }
        s = align_to(align_to(disc, maxa) + maxs, maxa);
        al = maxa;
        break;
    }
    default: s = al = 4; break;
    }
    if (s > ((uint64_t)1 << 40)) s = (uint64_t)1 << 40; /* far past the limit; keeps the sum from overflowing */
    uint32_t lg = 0;
    while ((1u << lg) < al) lg++;
    cm_pset_put(memo, t, (const void *)(uintptr_t)(((uintptr_t)s << 4 | lg) + 1));
    *size = s;
    *align = al;
}

/* ---- names and printing ------------------------------------------------ */

const char *cm_kind_name(cm_kind k) {
    static const char *const n[CM_KIND_COUNT] = {
        "bool", "s8", "u8", "s16", "u16", "s32", "u32", "s64", "u64", "f32", "f64", "char", "string",
        "error-context", "record", "variant", "list", "fixed list", "tuple", "flags", "enum", "option",
        "result", "own", "borrow", "stream", "future", "map",
    };
    return k < CM_KIND_COUNT ? n[k] : "?";
}

typedef struct out {
    char *buf;
    size_t cap, n;
    uint32_t depth;
} out;
static void put(out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(out *o, const char *fmt, ...) {
    if (o->n >= o->cap) return;
    va_list ap;
    va_start(ap, fmt);
    int k = vsnprintf(o->buf + o->n, o->cap - o->n, fmt, ap);
    va_end(ap);
    if (k > 0) o->n += (size_t)k;
    if (o->n >= o->cap) o->n = o->cap;
}

static void val_str(out *o, const cm_valtype *t) {
    if (!t || o->n >= o->cap) return;
    if (++o->depth > 8) {
        put(o, "...");
        o->depth--;
        return;
    }
    switch (t->kind) {
    case CM_RECORD: case CM_VARIANT: case CM_FLAGS: case CM_ENUM:
        put(o, "%s { ", cm_kind_name(t->kind));
        for (uint32_t i = 0; i < t->n; i++) {
            put(o, "%s%.*s", i ? ", " : "", (int)t->fields[i].name_len, t->fields[i].name);
            if (t->fields[i].type) {
                put(o, t->kind == CM_RECORD ? ": " : "(");
                val_str(o, t->fields[i].type);
                if (t->kind != CM_RECORD) put(o, ")");
            }
        }
        put(o, " }");
        break;
    case CM_TUPLE:
        put(o, "tuple<");
        for (uint32_t i = 0; i < t->n; i++) {
            if (i) put(o, ", ");
            val_str(o, t->members[i]);
        }
        put(o, ">");
        break;
    case CM_LIST: case CM_OPTION: case CM_STREAM: case CM_FUTURE:
        put(o, "%s", cm_kind_name(t->kind));
        if (t->elem) {
            put(o, "<");
            val_str(o, t->elem);
            put(o, ">");
        }
        break;
    case CM_FIXED_LIST:
        put(o, "list<");
        val_str(o, t->elem);
        put(o, ", %u>", t->n);
        break;
    case CM_RESULT: case CM_MAP:
        put(o, "%s<", cm_kind_name(t->kind));
        if (t->elem) val_str(o, t->elem);
        else put(o, "_");
        put(o, ", ");
        if (t->elem2) val_str(o, t->elem2);
        else put(o, "_");
        put(o, ">");
        break;
    case CM_OWN: case CM_BORROW:
        put(o, "%s<%s>", t->kind == CM_OWN ? "own" : "borrow",
            t->resource && t->resource->name ? t->resource->name : "resource");
        break;
    default:
        put(o, "%s", cm_kind_name(t->kind));
    }
    o->depth--;
}

static void func_str(out *o, const cm_functype *f) {
    put(o, "%sfunc(", f->async ? "async " : "");
    for (uint32_t i = 0; i < f->nparams; i++) {
        put(o, "%s%.*s: ", i ? ", " : "", (int)f->params[i].name_len, f->params[i].name);
        val_str(o, f->params[i].type);
    }
    put(o, ")");
    if (f->result) {
        put(o, " -> ");
        val_str(o, f->result);
    }
}

static void extern_str(out *o, const cm_extern *e);
static void named_list(out *o, const char *what, const cm_named *v, uint32_t n) {
    for (uint32_t i = 0; i < n; i++) {
        put(o, "%s%s \"%.*s\": ", i ? "; " : "", what, (int)v[i].name.len, v[i].name.s);
        extern_str(o, &v[i].type);
    }
}
static void extern_str(out *o, const cm_extern *e) {
    if (o->n >= o->cap) return;
    if (++o->depth > 8) {
        put(o, "...");
        o->depth--;
        return;
    }
    switch (e->sort) {
    case CM_CORE_MODULE:
        put(o, "core module (%u imports, %u exports)", e->module ? e->module->nimports : 0,
            e->module ? e->module->nexports : 0);
        break;
    case CM_FUNC: if (e->func) func_str(o, e->func); break;
    case CM_VALUE: put(o, "value "); val_str(o, e->value); break;
    case CM_TYPE:
        if (e->type && e->type->kind == CM_TYPE_RESOURCE) put(o, "resource");
        else if (e->type && e->type->kind == CM_TYPE_VAL) { put(o, "type "); val_str(o, e->type->val); }
        else if (e->type && e->type->kind == CM_TYPE_FUNC) { put(o, "type "); func_str(o, e->type->func); }
        else put(o, "type");
        break;
    case CM_COMPONENT:
        put(o, "component { ");
        if (e->component) {
            named_list(o, "import", e->component->imports, e->component->nimports);
            if (e->component->nimports && e->component->nexports) put(o, "; ");
            named_list(o, "export", e->component->exports, e->component->nexports);
        }
        put(o, " }");
        break;
    case CM_INSTANCE:
        put(o, "instance { ");
        if (e->instance) named_list(o, "export", e->instance->exports, e->instance->nexports);
        put(o, " }");
        break;
    default:
        put(o, "%s", cm_sort_name(e->sort));
    }
    o->depth--;
}

void cm_extern_str(const cm_extern *e, char *buf, size_t cap) {
    if (!cap) return;
    out o = {buf, cap, 0, 0};
    buf[0] = 0;
    extern_str(&o, e);
    if (o.n >= cap && cap > 4) memcpy(buf + cap - 4, "...", 4);
}
