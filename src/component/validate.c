/*
 * validate.c — component validation (Explainer.md, Binary.md's validation
 * notes, CanonicalABI.md "Canonical definitions"): walks a decoded
 * component's definitions in order as its index spaces grow, checks each,
 * resolves every type to its tree (ctype.h, component.h) and records the
 * index spaces for instantiation.
 *
 * Scopes (Binary.md "Alias Definitions"): a component, a component type
 * and an instance type each open one; outer aliases count them outward.
 * Resources are identities (cm_resource): a resourcetype definition makes
 * one, a `(sub resource)` import or export declaration an abstract one,
 * instantiation maps abstract ones to the supplied ones and makes the
 * exported ones fresh. Every failure is WEFT_ERR_INVALID with the offset of
 * the definition and a message saying which rule.
 */
#include "vtypes.h"

#include <stdio.h>
#include <string.h>

#include "../base/base.h"

typedef struct scope scope;
struct scope {
    scope *outer;
    bool component;             /* a component (else a component or instance type) */
    cm_component *comp;         /* component scopes */
    BASE_VEC(cm_entry) sp[CM_SORT_COUNT];
    BASE_VEC(uint8_t) type_named; /* per type index: NAMED_IMPORT/NAMED_EXPORT when introduced by one (or an alias of one) */
    BASE_VEC(cm_named) imports, exports;
    BASE_VEC(uint32_t) exports_def; /* unused slot kept simple */
    bool instance_type;         /* an instance type: visibility checks wait for its use */
    /* What has an externally-visible name in this scope (Explainer.md
       "External Visibility of Types"): value-type nodes made by a type
       import or export or an own/borrow of a named resource index, and
       instance types imported or exported (whose type exports aliased
       out are named too). Names of an outer scope do not count here. */
    cm_pset visible;
};

typedef struct val {
    cm_arena *arena;
    weft_engine *engine;
    weft_error *err;
    uint32_t offset;            /* of the definition being checked */
    uint32_t depth;
    cm_pset *vis;               /* the current scope's `visible` */
    cm_pset sizes;              /* elem_size memo */
    /* The depth of every type tree made (value, function, instance and
       component types, copies included): every walk over types recurses
       at most this deep, so deeper is refused (CM_MAX_TYPE_DEPTH). */
    cm_pset depths;
    cm_pset defined;            /* the resources resourcetype definitions made */
    cm_pset type_local;         /* the abstract resources `(sub resource)` declared in a type */
    bool importing;             /* visibility of an import is being checked */
} val;

/* The validator's own bound on its recursion through components and
   types: the decoder refuses more than CM_MAX_NESTING of each, so this
   holds any binary that decoded. */
#define VAL_MAX_DEPTH (2 * CM_MAX_NESTING + 2)

#define INVALID(v, ...) base_fail_at((v)->err, WEFT_ERR_INVALID, UINT32_MAX, (v)->offset, __VA_ARGS__)
#define NOMEM(v) base_fail((v)->err, WEFT_ERR_NOMEM, "out of memory validating a component")
#define TRY(x) do { weft_status st_ = (x); if (st_ != WEFT_OK) return st_; } while (0)

static void *alloc(val *v, size_t n, size_t size) {
    if (n && size > SIZE_MAX / n) return NULL;
    size_t bytes = n * size;
    if (bytes == 0) bytes = 1;
    void *p = cm_arena_alloc(v->arena, bytes, 8);
    if (p) memset(p, 0, bytes);
    return p;
}
#define ALLOC_N(v, p, n) do { if (!((p) = alloc((v), (n), sizeof *(p)))) return NOMEM(v); } while (0)

/* How a node or index got its externally-visible name: imports may only
   use names from imports (Explainer.md "External Visibility of Types":
   imported types cannot refer to exported ones). The values of a scope's
   `visible` set. */
#define NAMED_IMPORT 1
#define NAMED_EXPORT 2
#define NAMED(k) ((const void *)(uintptr_t)(k))

static weft_status push(val *v, scope *s, cm_sort sort, cm_entry e, uint8_t named) {
    if (s->sp[sort].len >= CM_MAX_COUNT) return INVALID(v, "more than %u items in the %s index space", CM_MAX_COUNT, cm_sort_name(sort));
    if (!BASE_VEC_PUSH(s->sp[sort], e)) return NOMEM(v);
    if (sort == CM_TYPE && !BASE_VEC_PUSH(s->type_named, named)) return NOMEM(v);
    return WEFT_OK;
}
static weft_status index_ok(val *v, scope *s, cm_sort sort, uint32_t i) {
    if (i >= s->sp[sort].len)
        return INVALID(v, "unknown %s %u: %s index out of bounds (%zu defined so far)", cm_sort_name(sort), i,
                       cm_sort_name(sort), s->sp[sort].len);
    return WEFT_OK;
}


/* ---- type depth (component.h CM_MAX_TYPE_DEPTH) ---------------------- */

static uint32_t depth_of(val *v, const void *p) { return p ? (uint32_t)(uintptr_t)cm_pset_get(&v->depths, p) : 0; }
static uint32_t val_depth(val *v, const cm_valtype *t) {
    return !t || cm_kind_is_prim(t->kind) ? 0 : depth_of(v, t);
}
static weft_status set_depth(val *v, const void *p, uint32_t d) {
    if (d > CM_MAX_TYPE_DEPTH)
        return INVALID(v, "type nested deeper than %d levels (weft's limit, docs/components.md)", CM_MAX_TYPE_DEPTH);
    if (!cm_pset_put(&v->depths, p, (const void *)(uintptr_t)d)) return NOMEM(v);
    return WEFT_OK;
}
static uint32_t max_u32(uint32_t a, uint32_t b) { return a > b ? a : b; }
static uint32_t extern_depth(val *v, const cm_extern *e) {
    switch (e->sort) {
    case CM_FUNC: return depth_of(v, e->func);
    case CM_VALUE: return val_depth(v, e->value);
    case CM_TYPE:
        if (!e->type) return 0;
        switch (e->type->kind) {
        case CM_TYPE_VAL: return val_depth(v, e->type->val);
        case CM_TYPE_FUNC: return depth_of(v, e->type->func);
        case CM_TYPE_INSTANCE: return depth_of(v, e->type->inst);
        case CM_TYPE_COMPONENT: return depth_of(v, e->type->comp);
        default: return 0;
        }
    case CM_INSTANCE: return depth_of(v, e->instance);
    case CM_COMPONENT: return depth_of(v, e->component);
    default: return 0;
    }
}
static uint32_t list_depth(val *v, const cm_named *l, uint32_t n) {
    uint32_t d = 0;
    for (uint32_t i = 0; i < n; i++) d = max_u32(d, extern_depth(v, &l[i].type));
    return d;
}

/* ---- names (Explainer.md "Import and Export Definitions") ----------- */

static bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
static bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* label ::= fragment ('-' fragment)*, each all-lowercase or all-uppercase
   (a word or an acronym), the first starting with a letter. */
static bool label_ok(const char *s, uint32_t n) {
    if (n == 0) return false;
    uint32_t i = 0;
    bool first = true;
    while (i < n) {
        uint32_t j = i;
        if (j >= n) return false;
        if (first && !is_lower(s[j]) && !is_upper(s[j])) return false;
        bool upper = is_upper(s[j]);
        if (!is_lower(s[j]) && !is_upper(s[j]) && !is_digit(s[j])) return false;
        /* a fragment that starts with digits takes its case from its first letter */
        for (; j < n && s[j] != '-'; j++) {
            if (is_digit(s[j])) continue;
            if (upper ? !is_upper(s[j]) : !is_lower(s[j])) {
                if (j == i || (!is_upper(s[i]) && !is_lower(s[i]))) { /* digits first */
                    bool u2 = is_upper(s[j]);
                    for (uint32_t k = j; k < n && s[k] != '-'; k++)
                        if (!is_digit(s[k]) && (u2 ? !is_upper(s[k]) : !is_lower(s[k]))) return false;
                    break;
                }
                return false;
            }
        }
        while (j < n && s[j] != '-') j++;
        if (j == i) return false;
        first = false;
        if (j == n) break;
        i = j + 1;
        if (i == n) return false; /* trailing '-' */
    }
    return true;
}
/* words ::= first-word ('-' word)*: lowercase only. */
static bool words_ok(const char *s, uint32_t n) {
    if (n == 0 || !is_lower(s[0])) return false;
    for (uint32_t i = 0; i < n; i++) {
        if (s[i] == '-') {
            if (i + 1 == n || s[i + 1] == '-') return false;
        } else if (!is_lower(s[i]) && !is_digit(s[i])) {
            return false;
        }
    }
    return true;
}
/* A semver (semver.org): MAJOR.MINOR.PATCH(-pre)?(+build)?, no leading zeros. */
static bool num_ok(const char *s, uint32_t n) {
    if (n == 0) return false;
    if (n > 1 && s[0] == '0') return false;
    for (uint32_t i = 0; i < n; i++)
        if (!is_digit(s[i])) return false;
    return true;
}
static bool ident_list_ok(const char *s, uint32_t n, bool pre) {
    if (n == 0) return false;
    uint32_t i = 0;
    while (i <= n) {
        uint32_t j = i;
        bool digits = true;
        while (j < n && s[j] != '.') {
            if (!is_digit(s[j])) digits = false;
            if (!is_digit(s[j]) && !is_lower(s[j]) && !is_upper(s[j]) && s[j] != '-') return false;
            j++;
        }
        if (j == i) return false;
        if (pre && digits && j - i > 1 && s[i] == '0') return false;
        if (j == n) return true;
        i = j + 1;
    }
    return false;
}
static bool semver_ok(const char *s, uint32_t n) {
    uint32_t i = 0, part = 0;
    while (part < 3) {
        uint32_t j = i;
        while (j < n && is_digit(s[j])) j++;
        if (!num_ok(s + i, j - i)) return false;
        part++;
        if (part < 3) {
            if (j >= n || s[j] != '.') return false;
            i = j + 1;
        } else {
            i = j;
        }
    }
    if (i == n) return true;
    uint32_t plus = n;
    for (uint32_t k = i; k < n; k++)
        if (s[k] == '+') { plus = k; break; }
    if (s[i] == '-') {
        if (!ident_list_ok(s + i + 1, plus - i - 1, true)) return false;
    } else if (i != plus) {
        return false;
    }
    if (plus < n && !ident_list_ok(s + plus + 1, n - plus - 1, false)) return false;
    return true;
}

typedef struct name_info {
    enum { NAME_PLAIN, NAME_CTOR, NAME_METHOD, NAME_STATIC, NAME_IFACE } kind;
    const char *res;        /* [constructor] r, [method] r.x, [static] r.x: r */
    uint32_t res_len;
    const char *label;      /* the plain label, or the method's */
    uint32_t label_len;
} name_info;

static bool prefixed(const cm_name *n, const char *p, uint32_t *skip) {
    size_t k = strlen(p);
    if (n->len < k || memcmp(n->s, p, k) != 0) return false;
    *skip = (uint32_t)k;
    return true;
}

/* externname ::= plainname | interfacename; why gets the reason. */
static bool extname_ok(const cm_name *n, name_info *ni, char *why, size_t cap) {
    memset(ni, 0, sizeof *ni);
    const char *s = n->s;
    uint32_t len = n->len, k = 0;
    for (uint32_t i = 0; i < len; i++) {
        if (s[i] == ':' || s[i] == '/' || s[i] == '@') { /* an interface name */
            ni->kind = NAME_IFACE;
            uint32_t c = 0;
            while (c < len && s[c] != ':') c++;
            if (c == len) { snprintf(why, cap, "`%.*s` is not a valid extern name: expected `:`", (int)len, s); return false; }
            if (!words_ok(s, c)) { snprintf(why, cap, "`%.*s` is not in kebab case (namespace of `%.*s`)", (int)c, s, (int)len, s); return false; }
            uint32_t p = c + 1, q = p;
            while (q < len && s[q] != '/' && s[q] != '@' && s[q] != ':') q++;
            if (q < len && s[q] == ':') { snprintf(why, cap, "`%.*s` is not a valid extern name (nested namespaces 🪺 are not supported)", (int)len, s); return false; }
            if (!words_ok(s + p, q - p)) { snprintf(why, cap, "`%.*s` is not in kebab case (package of `%.*s`)", (int)(q - p), s + p, (int)len, s); return false; }
            if (q == len || s[q] != '/') { snprintf(why, cap, "`%.*s` is not a valid extern name: expected `/` after package name", (int)len, s); return false; }
            p = q + 1;
            q = p;
            while (q < len && s[q] != '@' && s[q] != '/') q++;
            if (q < len && s[q] == '/') { snprintf(why, cap, "`%.*s` is not a valid extern name: trailing characters found: `%.*s`", (int)len, s, (int)(len - q), s + q); return false; }
            if (!label_ok(s + p, q - p)) { snprintf(why, cap, "`%.*s` is not in kebab case (interface of `%.*s`)", (int)(q - p), s + p, (int)len, s); return false; }
            if (q < len && !semver_ok(s + q + 1, len - q - 1)) { snprintf(why, cap, "`%.*s` is not a valid extern name: `%.*s` is not a valid semver", (int)len, s, (int)(len - q - 1), s + q + 1); return false; }
            return true;
        }
    }
    if (prefixed(n, "[constructor]", &k)) ni->kind = NAME_CTOR;
    else if (prefixed(n, "[method]", &k)) ni->kind = NAME_METHOD;
    else if (prefixed(n, "[static]", &k)) ni->kind = NAME_STATIC;
    else if (len && s[0] == '[') { snprintf(why, cap, "`%.*s` is not a valid extern name: unknown annotation", (int)len, s); return false; }
    s += k;
    len -= k;
    if (ni->kind == NAME_METHOD || ni->kind == NAME_STATIC) {
        uint32_t dot = 0;
        while (dot < len && s[dot] != '.') dot++;
        if (dot == len) { snprintf(why, cap, "`%.*s` is not a valid extern name: failed to find `.` character", (int)n->len, n->s); return false; }
        if (!label_ok(s, dot) || !label_ok(s + dot + 1, len - dot - 1)) {
            snprintf(why, cap, "`%.*s` is not in kebab case", (int)n->len, n->s);
            return false;
        }
        ni->res = s;
        ni->res_len = dot;
        ni->label = s + dot + 1;
        ni->label_len = len - dot - 1;
        return true;
    }
    if (!label_ok(s, len)) { snprintf(why, cap, "`%.*s` is not in kebab case", (int)len, s); return false; }
    ni->label = s;
    ni->label_len = len;
    if (ni->kind == NAME_CTOR) { ni->res = s; ni->res_len = len; }
    return true;
}

/* Strong uniqueness (Explainer.md "Name Uniqueness"): acronyms lowered,
   [method]l.l and [static]l.l as l, other annotations but [constructor]
   stripped. Writes the canonical form into buf. */
static uint32_t canon_name(const cm_name *n, char *buf, uint32_t cap) {
    const char *s = n->s;
    uint32_t len = n->len, k = 0;
    cm_name tmp = *n;
    bool ctor = false;
    if (prefixed(&tmp, "[constructor]", &k)) ctor = true;
    else if (prefixed(&tmp, "[method]", &k) || prefixed(&tmp, "[static]", &k)) {
        s += k;
        len -= k;
        uint32_t dot = 0;
        while (dot < len && s[dot] != '.') dot++;
        if (dot < len && len - dot - 1 == dot && !memcmp(s, s + dot + 1, dot)) len = dot;
    }
    uint32_t o = 0;
    if (ctor) {
        memcpy(buf, "[constructor]", 13);
        o = 13;
        s += 13;
        len -= 13;
    }
    for (uint32_t i = 0; i < len && o < cap; i++) buf[o++] = is_upper(s[i]) ? (char)(s[i] - 'A' + 'a') : s[i];
    return o;
}
static bool label_eq_fold(const char *a, uint32_t na, const char *b, uint32_t nb) {
    if (na != nb) return false;
    for (uint32_t i = 0; i < na; i++) {
        char x = is_upper(a[i]) ? (char)(a[i] - 'A' + 'a') : a[i];
        char y = is_upper(b[i]) ? (char)(b[i] - 'A' + 'a') : b[i];
        if (x != y) return false;
    }
    return true;
}

/* Checks a new import or export name against its list: kebab case, strongly unique. */
static weft_status name_check(val *v, const cm_named *nm, const cm_named *list, size_t n, const char *what,
                              name_info *ni) {
    char why[256];
    if (!extname_ok(&nm->name, ni, why, sizeof why)) return INVALID(v, "%s name %s", what, why);
    if (nm->implements.s && nm->type.sort != CM_INSTANCE)
        return INVALID(v, "only instances can have an `implements` attribute (`%.*s`)", (int)nm->name.len, nm->name.s);
    if (nm->implements.s) {
        name_info ii;
        if (!extname_ok(&nm->implements, &ii, why, sizeof why) || ii.kind != NAME_IFACE)
            return INVALID(v, "`%.*s` is not a valid name with `implements`: it must be an interface name", (int)nm->implements.len, nm->implements.s);
        if (ni->kind != NAME_PLAIN || ni->kind == NAME_IFACE)
            return INVALID(v, "name `%.*s` is not valid with `implements` (a plain label is needed)", (int)nm->name.len, nm->name.s);
    }
    if (nm->version_suffix.s && ni->kind != NAME_IFACE)
        return INVALID(v, "`versionsuffix` on `%.*s`, which is not an interface name", (int)nm->name.len, nm->name.s);
    char a[512], b[512];
    uint32_t la = canon_name(&nm->name, a, sizeof a);
    for (size_t i = 0; i < n; i++) {
        uint32_t lb = canon_name(&list[i].name, b, sizeof b);
        if (la == lb && !memcmp(a, b, la))
            return INVALID(v, "%s name `%.*s` conflicts with previous name `%.*s` (names must be strongly unique: "
                           "Explainer.md \"Name Uniqueness\")", what, (int)nm->name.len, nm->name.s,
                           (int)list[i].name.len, list[i].name.s);
    }
    return WEFT_OK;
}

/* ---- core types ------------------------------------------------------ */

static const cm_core_moduletype *module_type_of(val *v, const struct weft_module *m, uint32_t *dup) {
    cm_core_moduletype *t = alloc(v, 1, sizeof *t);
    if (!t) return NULL;
    t->nimports = weft_module_import_count(m);
    t->nexports = weft_module_export_count(m);
    cm_core_named *im = alloc(v, t->nimports, sizeof *im), *ex = alloc(v, t->nexports, sizeof *ex);
    if (!im || !ex) return NULL;
    t->imports = im;
    t->exports = ex;
    for (uint32_t pass = 0; pass < 2; pass++) {
        uint32_t n = pass ? t->nexports : t->nimports;
        for (uint32_t i = 0; i < n; i++) {
            weft_name mod = {0}, nm;
            weft_externtype et;
            cm_core_named *x = pass ? &ex[i] : &im[i];
            if (pass) weft_module_export(m, i, &nm, &et);
            else weft_module_import(m, i, &mod, &nm, &et);
            x->module = (cm_name){mod.data, (uint32_t)mod.len};
            x->name = (cm_name){nm.data, (uint32_t)nm.len};
            /* two-level names mangle to one in a component (core-modules.wast): no duplicates */
            for (uint32_t k = 0; !pass && k < i; k++)
                if (im[k].module.len == x->module.len && !memcmp(im[k].module.s, x->module.s, x->module.len) &&
                    im[k].name.len == x->name.len && !memcmp(im[k].name.s, x->name.s, x->name.len)) {
                    *dup = i;
                    return t;
                }
            x->type.kind = (uint8_t)et.kind;
            if (et.kind == WEFT_EXTERN_FUNC || et.kind == WEFT_EXTERN_TAG) {
                cm_core_functype *f = alloc(v, 1, sizeof *f);
                cm_coreval *vs = alloc(v, et.func.nparams + et.func.nresults + 1, sizeof *vs);
                if (!f || !vs) return NULL;
                for (uint32_t k = 0; k < et.func.nparams; k++) vs[k] = et.func.params[k];
                for (uint32_t k = 0; k < et.func.nresults; k++) vs[et.func.nparams + k] = et.func.results[k];
                f->nparams = et.func.nparams;
                f->nresults = et.func.nresults;
                f->params = vs;
                f->results = vs + et.func.nparams;
                x->type.func = f;
            }
            x->type.elem = et.table_elem;
            x->type.limits = et.limits;
            x->type.global = et.global_type;
            x->type.mut = et.global_mutable;
        }
    }
    t->imports = im;
    t->exports = ex;
    return t;
}

/* Core types live in their own index space (sp[CM_CORE_TYPE].core_type). */
static weft_status core_type(val *v, scope *s, const cm_rawcoretype *raw, const cm_core_type **out);

static weft_status core_moduletype(val *v, scope *outer, const cm_rawcoretype *raw, cm_core_type *t) {
    if (++v->depth > VAL_MAX_DEPTH) return INVALID(v, "types nested deeper than %d", CM_MAX_NESTING);
    scope s = {.outer = outer};
    weft_status st = WEFT_OK;
    BASE_VEC(cm_core_named) im = {0}, ex = {0};
    t->is_module = true;
    for (uint32_t i = 0; i < raw->ndecls && st == WEFT_OK; i++) {
        const cm_rawcoredecl *x = &raw->decls[i];
        v->offset = x->offset;
        if (x->kind == 1) {
            const cm_core_type *ct = NULL;
            st = core_type(v, &s, x->core, &ct);
            if (st == WEFT_OK && ct->is_module) st = INVALID(v, "a module type may not declare a module type");
            if (st == WEFT_OK) st = push(v, &s, CM_CORE_TYPE, (cm_entry){.core_type = ct}, false);
            continue;
        }
        if (x->kind == 2) { /* alias outer of a core type */
            scope *t2 = &s;
            for (uint32_t k = 0; k < x->ct && t2; k++) t2 = t2->outer;
            if (!t2) { st = INVALID(v, "invalid outer alias count of %u", x->ct); break; }
            if (x->idx >= t2->sp[CM_CORE_TYPE].len) { st = INVALID(v, "unknown core type %u: type index out of bounds", x->idx); break; }
            const cm_core_type *ct = t2->sp[CM_CORE_TYPE].data[x->idx].core_type;
            if (ct->is_module) { st = INVALID(v, "an outer alias in a module type may not name a module type"); break; }
            st = push(v, &s, CM_CORE_TYPE, (cm_entry){.core_type = ct}, false);
            continue;
        }
        cm_core_named n = {.module = x->module, .name = x->name};
        n.type.kind = x->ext_kind;
        if (x->ext_kind == WEFT_EXTERN_FUNC || x->ext_kind == WEFT_EXTERN_TAG) {
            if (x->type_idx >= s.sp[CM_CORE_TYPE].len) { st = INVALID(v, "unknown type %u: type index out of bounds", x->type_idx); break; }
            const cm_core_type *ct = s.sp[CM_CORE_TYPE].data[x->type_idx].core_type;
            if (!ct->is_func) { st = INVALID(v, "core type index %u is not a function type", x->type_idx); break; }
            n.type.func = &ct->func;
        }
        n.type.elem = x->elem;
        n.type.limits = x->limits;
        n.type.global = x->global;
        n.type.mut = x->mut;
        if (x->ext_kind == WEFT_EXTERN_MEMORY && !x->limits.is64 && x->limits.min > 65536)
            { st = INVALID(v, "memory size must be at most 65536 pages (4GiB)"); break; }
        if (x->kind == 0) {
            for (size_t k = 0; k < im.len; k++)
                if (im.data[k].module.len == n.module.len && !memcmp(im.data[k].module.s, n.module.s, n.module.len) &&
                    im.data[k].name.len == n.name.len && !memcmp(im.data[k].name.s, n.name.s, n.name.len))
                    st = INVALID(v, "duplicate import name `%.*s:%.*s`", (int)n.module.len, n.module.s, (int)n.name.len, n.name.s);
            if (st == WEFT_OK && !BASE_VEC_PUSH(im, n)) st = NOMEM(v);
        } else {
            for (size_t k = 0; k < ex.len; k++)
                if (ex.data[k].name.len == n.name.len && !memcmp(ex.data[k].name.s, n.name.s, n.name.len))
                    st = INVALID(v, "export name `%.*s` already defined", (int)n.name.len, n.name.s);
            if (st == WEFT_OK && !BASE_VEC_PUSH(ex, n)) st = NOMEM(v);
        }
    }
    if (st == WEFT_OK) {
        cm_core_named *a = alloc(v, im.len, sizeof *a), *b = alloc(v, ex.len, sizeof *b);
        if (!a || !b) st = NOMEM(v);
        else {
            if (im.len) memcpy(a, im.data, im.len * sizeof *a);
            if (ex.len) memcpy(b, ex.data, ex.len * sizeof *b);
            t->module = (cm_core_moduletype){(uint32_t)im.len, (uint32_t)ex.len, a, b};
        }
    }
    BASE_VEC_FREE(im);
    BASE_VEC_FREE(ex);
    for (int k = 0; k < CM_SORT_COUNT; k++) BASE_VEC_FREE(s.sp[k]);
    BASE_VEC_FREE(s.type_named);
    v->depth--;
    return st;
}

static weft_status core_type(val *v, scope *s, const cm_rawcoretype *raw, const cm_core_type **out) {
    cm_core_type *t;
    ALLOC_N(v, t, 1);
    *out = t;
    if (raw->form == 0x50) return core_moduletype(v, s, raw, t);
    if (raw->form == 0x60) {
        t->is_func = true;
        t->func = (cm_core_functype){raw->nparams, raw->nresults, raw->params, raw->results};
    }
    return WEFT_OK;
}

/* ---- value types (Binary.md "Type Definitions") --------------------- */

static weft_status type_at(val *v, scope *s, uint32_t i, const cm_type **out) {
    TRY(index_ok(v, s, CM_TYPE, i));
    *out = s->sp[CM_TYPE].data[i].type;
    return WEFT_OK;
}

static weft_status valtype(val *v, scope *s, cm_rawval r, const cm_valtype **out) {
    if (r & CM_RAW_PRIM) {
        uint8_t code = (uint8_t)r;
        *out = cm_prim(code == 0x64 ? CM_ERROR_CONTEXT : (cm_kind)(0x7f - code));
        return WEFT_OK;
    }
    const cm_type *t;
    TRY(type_at(v, s, (uint32_t)r, &t));
    if (t->kind != CM_TYPE_VAL)
        return INVALID(v, "type index %u is not a defined type (found a %s type)", (uint32_t)r,
                       t->kind == CM_TYPE_RESOURCE ? "resource" : t->kind == CM_TYPE_FUNC ? "function" : "component or instance");
    *out = t->val;
    return WEFT_OK;
}

static bool has_borrow(const cm_valtype *t, cm_pset *seen, bool *oom) {
    if (!t || cm_kind_is_prim(t->kind) || cm_pset_has(seen, t)) return false;
    if (t->kind == CM_BORROW) return true;
    if (!cm_pset_put(seen, t, t)) *oom = true;
    for (uint32_t i = 0; i < cm_nmembers(t); i++) {
        if (t->fields && has_borrow(t->fields[i].type, seen, oom)) return true;
        if (t->members && has_borrow(t->members[i], seen, oom)) return true;
    }
    return has_borrow(t->elem, seen, oom) || has_borrow(t->elem2, seen, oom);
}
static weft_status no_borrow(val *v, const cm_valtype *t, const char *what) {
    cm_pset seen = {0};
    bool oom = false;
    bool b = has_borrow(t, &seen, &oom);
    cm_pset_free(&seen);
    if (oom) return NOMEM(v);
    if (b) return INVALID(v, "%s cannot contain a `borrow` type", what);
    return WEFT_OK;
}

static uint32_t type_depth(const cm_valtype *t) {
    /* the depth a node adds: its children's depth is bounded when they were made */
    (void)t;
    return 1;
}

/* Labels of a record, variant, flags or enum: kebab case, strongly unique. */
static weft_status labels(val *v, const cm_rawtype *raw, const char *what, const char *whats) {
    for (uint32_t i = 0; i < raw->n; i++) {
        const cm_name *l = &raw->labels[i].label;
        if (l->len == 0) return INVALID(v, "%s name cannot be empty", what);
        if (!label_ok(l->s, l->len)) return INVALID(v, "%s name `%.*s` is not in kebab case", what, (int)l->len, l->s);
        for (uint32_t j = 0; j < i; j++) {
            const cm_name *p = &raw->labels[j].label;
            if (label_eq_fold(l->s, l->len, p->s, p->len))
                return INVALID(v, "%s name `%.*s` conflicts with previous %s name `%.*s`", what, (int)l->len, l->s,
                               whats, (int)p->len, p->s);
        }
    }
    return WEFT_OK;
}

/* defvaltype → a tree; its size checked against CM_MAX_VALUE_SIZE. */
static weft_status defvaltype(val *v, scope *s, const cm_rawtype *raw, const cm_valtype **out) {
    uint8_t f = raw->form;
    if ((f >= 0x73 && f <= 0x7f) || f == 0x64) return valtype(v, s, CM_RAW_PRIM | f, out);
    cm_valtype *t;
    ALLOC_N(v, t, 1);
    *out = t;
    switch (f) {
    case 0x72: case 0x71: case 0x6e: case 0x6d: {
        t->kind = f == 0x72 ? CM_RECORD : f == 0x71 ? CM_VARIANT : f == 0x6e ? CM_FLAGS : CM_ENUM;
        if (raw->n == 0)
            return INVALID(v, f == 0x72 ? "record type must have at least one field"
                           : f == 0x71 ? "variant type must have at least one case"
                           : f == 0x6e ? "flags must have at least one entry" : "enum type must have at least one variant");
        if (f == 0x6e && raw->n > 32) return INVALID(v, "cannot have more than 32 flags (found %u)", raw->n);
        TRY(labels(v, raw, f == 0x72 ? "record field" : f == 0x71 ? "variant case" : f == 0x6e ? "flag" : "enum tag",
                   f == 0x72 ? "field" : f == 0x71 ? "case" : f == 0x6e ? "flag" : "tag"));
        cm_field *fs;
        ALLOC_N(v, fs, raw->n);
        for (uint32_t i = 0; i < raw->n; i++) {
            fs[i].name = raw->labels[i].label.s;
            fs[i].name_len = raw->labels[i].label.len;
            if (raw->labels[i].has_type) TRY(valtype(v, s, raw->labels[i].type, &fs[i].type));
        }
        t->n = raw->n;
        t->fields = fs;
        break;
    }
    case 0x6f: {
        t->kind = CM_TUPLE;
        if (raw->n == 0) return INVALID(v, "tuple type must have at least one type");
        const cm_valtype **ms;
        ALLOC_N(v, ms, raw->n);
        for (uint32_t i = 0; i < raw->n; i++) TRY(valtype(v, s, raw->labels[i].type, &ms[i]));
        t->n = raw->n;
        t->members = ms;
        break;
    }
    case 0x70: t->kind = CM_LIST; TRY(valtype(v, s, raw->a, &t->elem)); break;
    case 0x67:
        t->kind = CM_FIXED_LIST;
        if (raw->n == 0) return INVALID(v, "fixed-length list must have a length larger than 0");
        t->n = raw->n;
        TRY(valtype(v, s, raw->a, &t->elem));
        break;
    case 0x6b: t->kind = CM_OPTION; TRY(valtype(v, s, raw->a, &t->elem)); break;
    case 0x6a:
        t->kind = CM_RESULT;
        if (raw->has_a) TRY(valtype(v, s, raw->a, &t->elem));
        if (raw->has_b) TRY(valtype(v, s, raw->b, &t->elem2));
        break;
    case 0x69: case 0x68: {
        t->kind = f == 0x69 ? CM_OWN : CM_BORROW;
        const cm_type *rt;
        TRY(type_at(v, s, (uint32_t)raw->a, &rt));
        if (rt->kind != CM_TYPE_RESOURCE) return INVALID(v, "type index %u is not a resource type", (uint32_t)raw->a);
        t->resource = rt->res->res;
        /* an own/borrow made from a named resource index has an external name
           (Explainer.md "External Visibility of Types") */
        /* ... in this scope and, inside type scopes, in those around it up to
           the component (where an instance type's checks are made) */
        if (s->type_named.data[(uint32_t)raw->a])
            for (scope *q = s; q; q = q->outer) {
                if (!cm_pset_put(&q->visible, t, NAMED(s->type_named.data[(uint32_t)raw->a]))) return NOMEM(v);
                if (q->component) break;
            }
        break;
    }
    case 0x66: case 0x65:
        t->kind = f == 0x66 ? CM_STREAM : CM_FUTURE;
        if (raw->has_a) {
            TRY(valtype(v, s, raw->a, &t->elem));
            TRY(no_borrow(v, t->elem, f == 0x66 ? "stream element type" : "future element type"));
            if (f == 0x66 && t->elem->kind == CM_CHAR)
                return INVALID(v, "`stream<char>` is not yet allowed (Binary.md: a temporary TODO of Concurrency.md)");
        }
        break;
    case 0x63:
        t->kind = CM_MAP;
        TRY(valtype(v, s, raw->a, &t->elem));
        TRY(valtype(v, s, raw->b, &t->elem2));
        if (!cm_kind_is_prim(t->elem->kind) || t->elem->kind == CM_F32 || t->elem->kind == CM_F64 ||
            t->elem->kind == CM_ERROR_CONTEXT)
            return INVALID(v, "map key type must be a bool, integer, char or string");
        break;
    default:
        return INVALID(v, "type form 0x%x is not a value type", f);
    }
    (void)type_depth;
    uint32_t d = max_u32(val_depth(v, t->elem), val_depth(v, t->elem2));
    for (uint32_t i = 0; i < cm_nmembers(t); i++) {
        if (t->fields) d = max_u32(d, val_depth(v, t->fields[i].type));
        if (t->members) d = max_u32(d, val_depth(v, t->members[i]));
    }
    TRY(set_depth(v, t, d + 1));
    uint64_t size;
    uint32_t al;
    cm_size_align(t, &v->sizes, &size, &al);
    if (size >= CM_MAX_VALUE_SIZE)
        return INVALID(v, "value type exceeds maximum byte size: %llu bytes, the limit is 2^28 (Binary.md "
                       "\"Type Definitions\")", (unsigned long long)size);
    return WEFT_OK;
}

static weft_status functype(val *v, scope *s, const cm_rawtype *raw, const cm_functype **out) {
    cm_functype *ft;
    ALLOC_N(v, ft, 1);
    cm_field *ps;
    ALLOC_N(v, ps, raw->n);
    for (uint32_t i = 0; i < raw->n; i++) {
        const cm_name *l = &raw->labels[i].label;
        if (l->len == 0) return INVALID(v, "function parameter name cannot be empty");
        if (!label_ok(l->s, l->len)) return INVALID(v, "function parameter name `%.*s` is not in kebab case", (int)l->len, l->s);
        for (uint32_t j = 0; j < i; j++)
            if (label_eq_fold(l->s, l->len, raw->labels[j].label.s, raw->labels[j].label.len))
                return INVALID(v, "function parameter name `%.*s` conflicts with previous parameter name `%.*s`",
                               (int)l->len, l->s, (int)raw->labels[j].label.len, raw->labels[j].label.s);
        ps[i].name = l->s;
        ps[i].name_len = l->len;
        TRY(valtype(v, s, raw->labels[i].type, &ps[i].type));
    }
    ft->nparams = raw->n;
    ft->params = ps;
    ft->async = raw->form == 0x43;
    if (raw->has_a) {
        TRY(valtype(v, s, raw->a, &ft->result));
        TRY(no_borrow(v, ft->result, "function result"));
    }
    uint32_t d = val_depth(v, ft->result);
    for (uint32_t i = 0; i < ft->nparams; i++) d = max_u32(d, val_depth(v, ft->params[i].type));
    TRY(set_depth(v, ft, d + 1));
    *out = ft;
    return WEFT_OK;
}

/* ---- external visibility (Explainer.md "External Visibility of Types") */

/* extra: what an instance type's own type exports name, while that
   instance type is checked (they name nothing outside it). */
static bool visible_walk(val *v, const cm_valtype *t, cm_pset *seen, bool top, const cm_pset *extra) {
    if (!t || cm_kind_is_prim(t->kind) || cm_pset_has(seen, t)) return true;
    cm_pset_put(seen, t, t);
    const void *k = cm_pset_get(v->vis, t);
    bool named = (k && (!v->importing || k == NAMED(NAMED_IMPORT))) ||
                 (extra && (cm_pset_has(extra, t) || ((t->kind == CM_OWN || t->kind == CM_BORROW) &&
                                                        cm_pset_has(extra, t->resource))));
    if (!top && !named && (t->kind == CM_RECORD || t->kind == CM_VARIANT || t->kind == CM_ENUM ||
                           t->kind == CM_FLAGS || t->kind == CM_OWN || t->kind == CM_BORROW))
        return false;
    for (uint32_t i = 0; i < cm_nmembers(t); i++) {
        if (t->fields && !visible_walk(v, t->fields[i].type, seen, false, extra)) return false;
        if (t->members && !visible_walk(v, t->members[i], seen, false, extra)) return false;
    }
    return visible_walk(v, t->elem, seen, false, extra) && visible_walk(v, t->elem2, seen, false, extra);
}
static bool visible_extern(val *v, const cm_extern *e, cm_pset *seen, cm_pset *names, uint32_t depth) {
    const cm_pset *extra = names->len ? names : NULL;
    if (e->sort == CM_FUNC) {
        for (uint32_t i = 0; i < e->func->nparams; i++)
            if (!visible_walk(v, e->func->params[i].type, seen, false, extra)) return false;
        return visible_walk(v, e->func->result, seen, false, extra);
    }
    if (e->sort == CM_TYPE && e->type->kind == CM_TYPE_VAL)
        return visible_walk(v, e->type->val, seen, true, extra); /* its own node is named by it */
    if (e->sort == CM_TYPE && e->type->kind == CM_TYPE_FUNC) {
        cm_extern fn = {.sort = CM_FUNC, .func = e->type->func};
        return visible_extern(v, &fn, seen, names, depth + 1);
    }
    if (e->sort == CM_TYPE && e->type->kind == CM_TYPE_INSTANCE) {
        cm_extern inst = {.sort = CM_INSTANCE, .instance = e->type->inst};
        return visible_extern(v, &inst, seen, names, depth + 1);
    }
    if (e->sort == CM_INSTANCE && depth < CM_MAX_NESTING) {
        /* an instance type's checks wait for its use (Explainer.md): now;
           its type exports name what follows them */
        for (uint32_t i = 0; i < e->instance->nexports; i++) {
            const cm_extern *x = &e->instance->exports[i].type;
            if (!visible_extern(v, x, seen, names, depth + 1)) return false;
            if (x->sort == CM_TYPE && x->type->kind == CM_TYPE_VAL) cm_pset_put(names, x->type->val, x);
            if (x->sort == CM_TYPE && x->type->kind == CM_TYPE_RESOURCE) cm_pset_put(names, x->type->res->res, x);
        }
    }
    return true;
}
static weft_status visible(val *v, const cm_extern *e, const char *what) {
    cm_pset seen = {0}, names = {0};
    v->importing = !strcmp(what, "import");
    bool ok = visible_extern(v, e, &seen, &names, 0);
    v->importing = false;
    cm_pset_free(&seen);
    cm_pset_free(&names);
    if (!ok)
        return INVALID(v, "%s not valid to be used as %s: its type uses a record, variant, enum, flags or resource "
                       "type that has no externally-visible name (import or export that type first)",
                       e->sort == CM_FUNC ? "func" : e->sort == CM_INSTANCE ? "instance" : "type", what);
    return WEFT_OK;
}

/* ---- component and instance types ------------------------------------ */

static weft_status deftype(val *v, scope *s, const cm_rawtype *raw, const cm_type **out);
static weft_status alias(val *v, scope *s, const cm_alias *a);
static weft_status externdesc(val *v, scope *s, const cm_rawextern *x, cm_named *nm, bool import);

static void scope_free(scope *s) {
    for (int k = 0; k < CM_SORT_COUNT; k++) BASE_VEC_FREE(s->sp[k]);
    BASE_VEC_FREE(s->type_named);
    BASE_VEC_FREE(s->imports);
    BASE_VEC_FREE(s->exports);
    BASE_VEC_FREE(s->exports_def);
    cm_pset_free(&s->visible);
}

static weft_status copy_named(val *v, const cm_named *src, size_t n, const cm_named **out) {
    cm_named *d;
    ALLOC_N(v, d, n);
    if (n) memcpy(d, src, n * sizeof *d);
    *out = d;
    return WEFT_OK;
}

/* An import or export of a component, a component type or an instance
   type: its name checks, [constructor]/[method]/[static] rules, and the
   new index it adds. */
static weft_status declare(val *v, scope *s, cm_named *nm, bool import);

static weft_status typedecls(val *v, scope *outer, const cm_rawtype *raw, const cm_type **out) {
    if (++v->depth > VAL_MAX_DEPTH) return INVALID(v, "types nested deeper than %d", CM_MAX_NESTING);
    bool component = raw->form == 0x41;
    scope s = {.outer = outer, .instance_type = !component};
    cm_pset *saved_vis = v->vis;
    v->vis = &s.visible;
    weft_status st = WEFT_OK;
    for (uint32_t i = 0; i < raw->ndecls && st == WEFT_OK; i++) {
        const cm_rawdecl *x = &raw->decls[i];
        v->offset = x->offset;
        switch (x->kind) {
        case 0x00: {
            const cm_core_type *ct = NULL;
            st = core_type(v, &s, x->core, &ct);
            if (st == WEFT_OK) st = push(v, &s, CM_CORE_TYPE, (cm_entry){.core_type = ct}, false);
            break;
        }
        case 0x01: {
            if (x->type->form == 0x3f) {
                st = INVALID(v, "resources can only be defined within a concrete component, not in a %s type",
                             component ? "component" : "instance");
                break;
            }
            const cm_type *t = NULL;
            st = deftype(v, &s, x->type, &t);
            if (st == WEFT_OK) st = push(v, &s, CM_TYPE, (cm_entry){.type = t}, false);
            break;
        }
        case 0x02:
            if (x->alias.target == 0 && x->alias.sort != CM_INSTANCE && x->alias.sort != CM_TYPE)
                st = INVALID(v, "an export alias in a type may only refer to types or instances");
            else if (x->alias.target == 1)
                st = INVALID(v, "a core export alias is not allowed in a type declaration");
            else if (x->alias.target == 2 && x->alias.sort != CM_TYPE && x->alias.sort != CM_CORE_TYPE)
                st = INVALID(v, "an outer alias in a type may only refer to types or core types");
            else
                st = alias(v, &s, &x->alias);
            break;
        case 0x03: case 0x04: {
            cm_named nm = x->name;
            st = externdesc(v, &s, &x->ext, &nm, x->kind == 0x03);
            if (st == WEFT_OK) st = declare(v, &s, &nm, x->kind == 0x03);
            break;
        }
        }
    }
    cm_type *t = NULL;
    if (st == WEFT_OK && !(t = alloc(v, 1, sizeof *t))) st = NOMEM(v);
    if (st == WEFT_OK && component) {
        cm_comptype *ct = alloc(v, 1, sizeof *ct);
        if (!ct) st = NOMEM(v);
        else {
            t->kind = CM_TYPE_COMPONENT;
            t->comp = ct;
            ct->nimports = (uint32_t)s.imports.len;
            ct->nexports = (uint32_t)s.exports.len;
            st = copy_named(v, s.imports.data, s.imports.len, &ct->imports);
            if (st == WEFT_OK) st = copy_named(v, s.exports.data, s.exports.len, &ct->exports);
        }
    } else if (st == WEFT_OK) {
        cm_insttype *it = alloc(v, 1, sizeof *it);
        if (!it) st = NOMEM(v);
        else {
            t->kind = CM_TYPE_INSTANCE;
            t->inst = it;
            it->nexports = (uint32_t)s.exports.len;
            st = copy_named(v, s.exports.data, s.exports.len, &it->exports);
        }
    }
    if (st == WEFT_OK && t->kind == CM_TYPE_COMPONENT)
        st = set_depth(v, t->comp, 1 + max_u32(list_depth(v, t->comp->imports, t->comp->nimports),
                                               list_depth(v, t->comp->exports, t->comp->nexports)));
    else if (st == WEFT_OK)
        st = set_depth(v, t->inst, 1 + list_depth(v, t->inst->exports, t->inst->nexports));
    scope_free(&s);
    v->vis = saved_vis;
    v->depth--;
    *out = t;
    return st;
}

static weft_status deftype(val *v, scope *s, const cm_rawtype *raw, const cm_type **out) {
    cm_type *t;
    ALLOC_N(v, t, 1);
    *out = t;
    switch (raw->form) {
    case 0x40: case 0x43: t->kind = CM_TYPE_FUNC; return functype(v, s, raw, &t->func);
    case 0x41: case 0x42: return typedecls(v, s, raw, out);
    case 0x3f: {
        if (!s->component)
            return INVALID(v, "resources can only be defined within a concrete component");
        if (raw->rep != 0x7f) return INVALID(v, "resource representation must be i32");
        cm_restype *r;
        cm_resource *res;
        ALLOC_N(v, r, 1);
        ALLOC_N(v, res, 1);
        r->res = res;
        r->defined = true;
        if (!cm_pset_put(&v->defined, res, r)) return NOMEM(v);
        r->dtor = UINT32_MAX;
        if (raw->has_dtor) {
            TRY(index_ok(v, s, CM_CORE_FUNC, raw->dtor));
            const cm_core_functype *f = s->sp[CM_CORE_FUNC].data[raw->dtor].core.func;
            if (f && !(f->nparams == 1 && f->params[0] == 0x7f && f->nresults == 0))
                return INVALID(v, "wrong signature for a destructor: expected [i32] -> [], found %s",
                               cm_core_functype_str(f, (char[128]){0}, 128));
            r->dtor = raw->dtor;
        }
        t->kind = CM_TYPE_RESOURCE;
        t->res = r;
        return WEFT_OK;
    }
    default:
        t->kind = CM_TYPE_VAL;
        return defvaltype(v, s, raw, &t->val);
    }
}

/* externtype → cm_extern (the import's or export ascription's type). */
static weft_status externdesc(val *v, scope *s, const cm_rawextern *x, cm_named *nm, bool import) {
    (void)import;
    cm_extern *e = &nm->type;
    const cm_type *t;
    switch (x->kind) {
    case 0x00: {
        e->sort = CM_CORE_MODULE;
        TRY(index_ok(v, s, CM_CORE_TYPE, x->idx));
        const cm_core_type *ct = s->sp[CM_CORE_TYPE].data[x->idx].core_type;
        if (!ct->is_module) return INVALID(v, "core type index %u is not a module type", x->idx);
        e->module = &ct->module;
        return WEFT_OK;
    }
    case 0x01:
        e->sort = CM_FUNC;
        TRY(type_at(v, s, x->idx, &t));
        if (t->kind != CM_TYPE_FUNC) return INVALID(v, "type index %u is not a function type", x->idx);
        e->func = t->func;
        return WEFT_OK;
    case 0x02:
        return INVALID(v, "value imports and exports (🪙) are not supported by weft");
    case 0x03:
        e->sort = CM_TYPE;
        if (x->bound == 0) {
            TRY(type_at(v, s, x->idx, &t));
            e->type = t;
            return WEFT_OK;
        } else {
            cm_type *nt;
            cm_restype *r;
            cm_resource *res;
            ALLOC_N(v, nt, 1);
            ALLOC_N(v, r, 1);
            ALLOC_N(v, res, 1);
            char *n = cm_arena_alloc(v->arena, nm->name.len + 1, 1);
            if (!n) return NOMEM(v);
            memcpy(n, nm->name.s, nm->name.len);
            n[nm->name.len] = 0;
            res->name = n;
            r->res = res;
            r->dtor = UINT32_MAX;
            nt->kind = CM_TYPE_RESOURCE;
            if (!s->component && !cm_pset_put(&v->type_local, res, res)) return NOMEM(v);
            nt->res = r;
            e->type = nt;
            return WEFT_OK;
        }
    case 0x04:
        e->sort = CM_COMPONENT;
        TRY(type_at(v, s, x->idx, &t));
        if (t->kind != CM_TYPE_COMPONENT) return INVALID(v, "type index %u is not a component type", x->idx);
        e->component = t->comp;
        return WEFT_OK;
    case 0x05:
        e->sort = CM_INSTANCE;
        TRY(type_at(v, s, x->idx, &t));
        if (t->kind != CM_TYPE_INSTANCE) return INVALID(v, "type index %u is not an instance type", x->idx);
        e->instance = t->inst;
        return WEFT_OK;
    default:
        return INVALID(v, "invalid extern kind %u", x->kind);
    }
}

/* The entry an extern adds to its sort's index space. A type import or
   export introduces a new index (Explainer.md "External Visibility"): a
   value type gets a node of its own, which is what makes it named. */
static weft_status extern_entry(val *v, const cm_extern *e, uint8_t kind, cm_entry *out, uint8_t *named) {
    memset(out, 0, sizeof *out);
    *named = 0;
    switch (e->sort) {
    case CM_CORE_MODULE: out->module = e->module; break;
    case CM_FUNC: out->func = e->func; break;
    case CM_VALUE: out->value = e->value; break;
    case CM_COMPONENT: out->component = e->component; break;
    case CM_INSTANCE: out->instance = e->instance; break;
    case CM_TYPE: {
        *named = kind;
        if (e->type->kind == CM_TYPE_VAL && !cm_kind_is_prim(e->type->val->kind)) {
            cm_type *nt;
            cm_valtype *nv;
            ALLOC_N(v, nt, 1);
            ALLOC_N(v, nv, 1);
            *nv = *e->type->val;
            *nt = *e->type;
            nt->val = nv;
            if (!cm_pset_put(v->vis, nv, NAMED(kind))) return NOMEM(v);
            TRY(set_depth(v, nv, val_depth(v, e->type->val)));
            out->type = nt;
        } else {
            out->type = e->type;
        }
        break;
    }
    default: break;
    }
    return WEFT_OK;
}

static const cm_named *find_named(const cm_named *list, size_t n, const char *s, uint32_t len) {
    for (size_t i = 0; i < n; i++)
        if (list[i].name.len == len && !memcmp(list[i].name.s, s, len)) return &list[i];
    return NULL;
}

static weft_status freshen(val *v, cm_extern *e);

/* An instance imported or exported by a component (or declared in a
   component type) names every type it exports, aliased out or not, and
   those of the instances it exports, in turn (Explainer.md "External
   Visibility of Types": the typeidx an import or export introduces, and
   an instance's type exports are introduced with it; wasm-tools'
   validate_and_register_named_types registers each export of an imported
   or exported instance). So a later import may use a record that an
   earlier imported instance exports inside a variant it also exports
   (wasi:http's error-code and its payload records) without an alias of
   each. */
static weft_status name_instance_types(val *v, const cm_insttype *it, uint8_t kind, uint32_t depth) {
    if (depth >= CM_MAX_NESTING) return WEFT_OK; /* deeper instance types were refused when made */
    for (uint32_t i = 0; i < it->nexports; i++) {
        const cm_extern *x = &it->exports[i].type;
        if (x->sort == CM_TYPE && x->type->kind == CM_TYPE_VAL && !cm_kind_is_prim(x->type->val->kind) &&
            !cm_pset_has(v->vis, x->type->val) && !cm_pset_put(v->vis, x->type->val, NAMED(kind)))
            return NOMEM(v);
        if (x->sort == CM_INSTANCE) {
            if (!cm_pset_has(v->vis, x->instance) && !cm_pset_put(v->vis, x->instance, NAMED(kind))) return NOMEM(v);
            TRY(name_instance_types(v, x->instance, kind, depth + 1));
        }
    }
    return WEFT_OK;
}

static weft_status declare(val *v, scope *s, cm_named *nm, bool import) {
    const char *what = import ? "import" : "export";
    name_info ni;
    TRY(name_check(v, nm, import ? s->imports.data : s->exports.data, import ? s->imports.len : s->exports.len,
                   what, &ni));
    if (ni.kind == NAME_CTOR || ni.kind == NAME_METHOD || ni.kind == NAME_STATIC) {
        if (nm->type.sort != CM_FUNC)
            return INVALID(v, "`%.*s` is not a func: [constructor], [method] and [static] names are for functions",
                           (int)nm->name.len, nm->name.s);
        /* the resource named must be a preceding resource import or export of this scope */
        const cm_named *list = import ? s->imports.data : s->exports.data;
        size_t n = import ? s->imports.len : s->exports.len;
        const cm_named *r = find_named(list, n, ni.res, ni.res_len);
        if (!r || r->type.sort != CM_TYPE || r->type.type->kind != CM_TYPE_RESOURCE)
            return INVALID(v, "%s resource name `%.*s` of `%.*s` is not known in this context (no preceding resource %s of that name)",
                           ni.kind == NAME_STATIC ? "static" : ni.kind == NAME_METHOD ? "method's" : "constructor's",
                           (int)ni.res_len, ni.res, (int)nm->name.len, nm->name.s, what);
        const cm_resource *res = r->type.type->res->res;
        const cm_functype *f = nm->type.func;
        if (ni.kind == NAME_CTOR) {
            const cm_valtype *rt = f->result;
            if (rt && rt->kind == CM_RESULT) rt = rt->elem;
            if (!rt || rt->kind != CM_OWN || rt->resource != res)
                return INVALID(v, "function should return `(own $T)` or `(result (own $T))` for [constructor]%.*s "
                               "(function does not match expected resource name)", (int)ni.res_len, ni.res);
        } else if (ni.kind == NAME_METHOD) {
            if (f->nparams == 0) return INVALID(v, "method should have at least one argument");
            if (f->params[0].name_len != 4 || memcmp(f->params[0].name, "self", 4))
                return INVALID(v, "method should have a first argument called `self`");
            const cm_valtype *p = f->params[0].type;
            if (p->kind != CM_BORROW) return INVALID(v, "method should take a first argument of `(borrow $T)`");
            if (p->resource != res) return INVALID(v, "function does not match expected resource name `%.*s`", (int)ni.res_len, ni.res);
        }
    }
    if (!s->instance_type) TRY(visible(v, &nm->type, what));
    /* an instance declared in a type is a new one too, and has its own resources */
    if ((import || !s->component) && nm->type.sort == CM_INSTANCE) TRY(freshen(v, &nm->type));
    uint8_t kind = import ? NAMED_IMPORT : NAMED_EXPORT;
    if (nm->type.sort == CM_INSTANCE && !cm_pset_put(v->vis, nm->type.instance, NAMED(kind))) return NOMEM(v);
    if (nm->type.sort == CM_INSTANCE && !s->instance_type) TRY(name_instance_types(v, nm->type.instance, kind, 0));
    cm_entry e;
    uint8_t named;
    TRY(extern_entry(v, &nm->type, kind, &e, &named));
    if (nm->type.sort == CM_TYPE) nm->type.type = e.type; /* the list holds the node the export named */
    if (import ? !BASE_VEC_PUSH(s->imports, *nm) : !BASE_VEC_PUSH(s->exports, *nm)) return NOMEM(v);
    return push(v, s, nm->type.sort, e, named);
}

/* ---- aliases (Binary.md "Alias Definitions") ------------------------- */

/* Whether a type refers to a resource (Binary.md "Alias Definitions": an
   outer alias of a type across a component boundary may not). A value or
   function type: any own or borrow. A component or instance type: what it
   says of the resources defined by a concrete component (its own abstract
   ones, declared inside, stay inside). Recursion bounded by type depth. */
static bool val_refers(val *v, const cm_valtype *t, bool any, cm_pset *seen) {
    if (!t || cm_kind_is_prim(t->kind) || cm_pset_has(seen, t)) return false;
    cm_pset_put(seen, t, t);
    if (t->kind == CM_OWN || t->kind == CM_BORROW) return any || cm_pset_has(&v->defined, t->resource);
    for (uint32_t i = 0; i < cm_nmembers(t); i++) {
        if (t->fields && val_refers(v, t->fields[i].type, any, seen)) return true;
        if (t->members && val_refers(v, t->members[i], any, seen)) return true;
    }
    return val_refers(v, t->elem, any, seen) || val_refers(v, t->elem2, any, seen);
}
static bool func_refers(val *v, const cm_functype *f, bool any, cm_pset *seen) {
    for (uint32_t i = 0; i < f->nparams; i++)
        if (val_refers(v, f->params[i].type, any, seen)) return true;
    return val_refers(v, f->result, any, seen);
}
static bool list_refers(val *v, const cm_named *l, uint32_t n, cm_pset *seen);
static bool type_refers(val *v, const cm_type *t, bool any, cm_pset *seen) {
    if (!t) return false;
    switch (t->kind) {
    case CM_TYPE_RESOURCE: return any || t->res->defined;
    case CM_TYPE_VAL: return val_refers(v, t->val, any, seen);
    case CM_TYPE_FUNC: return func_refers(v, t->func, any, seen);
    case CM_TYPE_INSTANCE: return list_refers(v, t->inst->exports, t->inst->nexports, seen);
    case CM_TYPE_COMPONENT:
        return list_refers(v, t->comp->imports, t->comp->nimports, seen) ||
               list_refers(v, t->comp->exports, t->comp->nexports, seen);
    }
    return false;
}
static bool list_refers(val *v, const cm_named *l, uint32_t n, cm_pset *seen) {
    for (uint32_t i = 0; i < n; i++) {
        const cm_extern *e = &l[i].type;
        bool r = false;
        switch (e->sort) {
        case CM_FUNC: r = func_refers(v, e->func, false, seen); break;
        case CM_VALUE: r = val_refers(v, e->value, false, seen); break;
        case CM_TYPE: r = type_refers(v, e->type, false, seen); break;
        case CM_INSTANCE: r = list_refers(v, e->instance->exports, e->instance->nexports, seen); break;
        case CM_COMPONENT:
            r = list_refers(v, e->component->imports, e->component->nimports, seen) ||
                list_refers(v, e->component->exports, e->component->nexports, seen);
            break;
        default: break;
        }
        if (r) return true;
    }
    return false;
}
static bool refers_to_resource(val *v, const cm_type *t) {
    cm_pset seen = {0};
    bool r = type_refers(v, t, true, &seen);
    cm_pset_free(&seen);
    return r;
}

static weft_status alias(val *v, scope *s, const cm_alias *a) {
    cm_entry e = {0};
    uint8_t named = 0;
    if (a->target == 0) { /* export of an instance */
        TRY(index_ok(v, s, CM_INSTANCE, a->a));
        const cm_insttype *it = s->sp[CM_INSTANCE].data[a->a].instance;
        const cm_named *x = find_named(it->exports, it->nexports, a->name.s, a->name.len);
        if (!x) return INVALID(v, "instance %u has no export named `%.*s`", a->a, (int)a->name.len, a->name.s);
        if (x->type.sort != a->sort)
            return INVALID(v, "export `%.*s` for instance %u is not a %s (it is a %s)", (int)a->name.len, a->name.s,
                           a->a, cm_sort_name(a->sort), cm_sort_name(x->type.sort));
        uint8_t from_named = (uint8_t)(uintptr_t)cm_pset_get(v->vis, it);
        TRY(extern_entry(v, &x->type, from_named, &e, &named));
        if (x->type.sort == CM_TYPE) {
            e.type = x->type.type; /* an alias is the same node: named here only if the instance is */
            if (from_named && e.type->kind == CM_TYPE_VAL && !cm_pset_put(v->vis, e.type->val, NAMED(from_named)))
                return NOMEM(v);
        }
        if (x->type.sort == CM_INSTANCE && from_named && !cm_pset_put(v->vis, e.instance, NAMED(from_named)))
            return NOMEM(v);
        return push(v, s, a->sort, e, from_named);
    }
    if (a->target == 1) { /* core export of a core instance */
        TRY(index_ok(v, s, CM_CORE_INSTANCE, a->a));
        const cm_core_insttype *it = s->sp[CM_CORE_INSTANCE].data[a->a].core_inst;
        const cm_core_named *x = NULL;
        for (uint32_t i = 0; i < it->nexports; i++)
            if (it->exports[i].name.len == a->name.len && !memcmp(it->exports[i].name.s, a->name.s, a->name.len))
                x = &it->exports[i];
        if (!x) return INVALID(v, "core instance %u has no export named `%.*s`", a->a, (int)a->name.len, a->name.s);
        if (a->sort > CM_CORE_TAG || x->type.kind != (uint8_t)a->sort)
            return INVALID(v, "export `%.*s` for core instance %u is not a %s", (int)a->name.len, a->name.s, a->a,
                           a->sort <= CM_CORE_TAG ? cm_sort_name(a->sort) + 5 : cm_sort_name(a->sort));
        e.core = x->type;
        return push(v, s, a->sort, e, false);
    }
    /* outer: ct scopes out (Binary.md: ct <= the number of enclosing scopes) */
    scope *t = s;
    bool crosses_component = false;
    for (uint32_t k = 0; k < a->a; k++) {
        if (t->component) crosses_component = true;
        t = t->outer;
        if (!t) return INVALID(v, "invalid outer alias count of %u", a->a);
    }
    if (a->b >= t->sp[a->sort].len)
        return INVALID(v, "unknown %s %u: index out of bounds in the scope %u out", cm_sort_name(a->sort), a->b, a->a);
    e = t->sp[a->sort].data[a->b];
    if (a->sort == CM_TYPE) {
        named = t->type_named.data[a->b];
        if (crosses_component && refers_to_resource(v, e.type))
            return INVALID(v, "outer alias of type %u transitively refers to resources, which may not cross a "
                           "component boundary", a->b);
    }
    return push(v, s, a->sort, e, named);
}

/* ---- substitution for instantiation ----------------------------------- */

typedef struct subst {
    val *v;
    cm_pset map;   /* cm_resource* -> cm_resource* */
    cm_pset rts;   /* a supplied cm_resource* -> its cm_restype (whether it is defined) */
    bool local_only; /* fresh: only the resources declared in the type itself */
    cm_pset memo;  /* node -> copy */
    bool oom;
} subst;

static const cm_valtype *sub_val(subst *x, const cm_valtype *t);
static const cm_valtype *sub_val(subst *x, const cm_valtype *t) {
    if (!t || cm_kind_is_prim(t->kind) || (!x->map.len && !x->memo.len)) return t;
    const cm_valtype *m = cm_pset_get(&x->memo, t);
    if (m) return m;
    cm_valtype *n = alloc(x->v, 1, sizeof *n);
    if (!n) { x->oom = true; return t; }
    *n = *t;
    if (t->fields) {
        cm_field *fs = alloc(x->v, t->n, sizeof *fs);
        if (!fs) { x->oom = true; return t; }
        for (uint32_t i = 0; i < t->n; i++) { fs[i] = t->fields[i]; fs[i].type = sub_val(x, t->fields[i].type); }
        n->fields = fs;
    }
    if (t->members) {
        const cm_valtype **ms = alloc(x->v, t->n, sizeof *ms);
        if (!ms) { x->oom = true; return t; }
        for (uint32_t i = 0; i < t->n; i++) ms[i] = sub_val(x, t->members[i]);
        n->members = ms;
    }
    n->elem = sub_val(x, t->elem);
    n->elem2 = sub_val(x, t->elem2);
    if (t->resource) {
        const cm_resource *r = cm_pset_get(&x->map, t->resource);
        if (r) n->resource = r;
    }
    const void *k = cm_pset_get(x->v->vis, t);
    if (k && !cm_pset_put(x->v->vis, n, k)) x->oom = true;
    if (!cm_pset_put(&x->v->depths, n, cm_pset_get(&x->v->depths, t))) x->oom = true;
    if (!cm_pset_put(&x->memo, t, n)) x->oom = true;
    return n;
}
static const cm_functype *sub_func(subst *x, const cm_functype *f) {
    if (!x->map.len && !x->memo.len) return f;
    cm_functype *n = alloc(x->v, 1, sizeof *n);
    cm_field *ps = alloc(x->v, f->nparams, sizeof *ps);
    if (!n || !ps) { x->oom = true; return f; }
    *n = *f;
    for (uint32_t i = 0; i < f->nparams; i++) { ps[i] = f->params[i]; ps[i].type = sub_val(x, f->params[i].type); }
    n->params = ps;
    n->result = sub_val(x, f->result);
    if (!cm_pset_put(&x->v->depths, n, cm_pset_get(&x->v->depths, f))) x->oom = true;
    return n;
}
static void sub_extern(subst *x, cm_extern *e, bool fresh);
static const cm_named *sub_list(subst *x, const cm_named *l, uint32_t n, bool fresh) {
    cm_named *d = alloc(x->v, n, sizeof *d);
    if (!d) { x->oom = true; return l; }
    for (uint32_t i = 0; i < n; i++) { d[i] = l[i]; sub_extern(x, &d[i].type, fresh); }
    return d;
}
/* fresh: exported abstract resources become new ones (generative). */
static void sub_extern(subst *x, cm_extern *e, bool fresh) {
    switch (e->sort) {
    case CM_FUNC: e->func = sub_func(x, e->func); break;
    case CM_TYPE:
        if (e->type->kind == CM_TYPE_RESOURCE) {
            const cm_resource *m = cm_pset_get(&x->map, e->type->res->res);
            /* instantiation makes every resource a component exports, defined
               in it or abstract in its type, new for the instance (Explainer.md:
               resource types are generative) */
            if (!m && fresh && (!x->local_only || cm_pset_has(&x->v->type_local, e->type->res->res))) {
                cm_resource *r = alloc(x->v, 1, sizeof *r);
                cm_restype *rt = alloc(x->v, 1, sizeof *rt);
                cm_type *t = alloc(x->v, 1, sizeof *t);
                if (!r || !rt || !t) { x->oom = true; break; }
                *r = *e->type->res->res;
                *rt = *e->type->res;
                rt->res = r;
                rt->defined = false; /* the child instance's, not this component's */
                rt->dtor = UINT32_MAX;
                *t = *e->type;
                t->res = rt;
                if (!cm_pset_put(&x->map, e->type->res->res, r)) x->oom = true;
                e->type = t;
            } else if (m) {
                cm_restype *rt = alloc(x->v, 1, sizeof *rt);
                cm_type *t = alloc(x->v, 1, sizeof *t);
                if (!rt || !t) { x->oom = true; break; }
                const cm_restype *supplied = cm_pset_get(&x->rts, m);
                *rt = supplied ? *supplied : *e->type->res;
                rt->res = (cm_resource *)m;
                *t = *e->type;
                t->res = rt;
                e->type = t;
            }
        } else if (e->type->kind == CM_TYPE_VAL) {
            cm_type *t = alloc(x->v, 1, sizeof *t);
            if (!t) { x->oom = true; break; }
            *t = *e->type;
            t->val = sub_val(x, e->type->val);
            e->type = t;
        } else if (e->type->kind == CM_TYPE_FUNC) {
            cm_type *t = alloc(x->v, 1, sizeof *t);
            if (!t) { x->oom = true; break; }
            *t = *e->type;
            t->func = sub_func(x, e->type->func);
            e->type = t;
        }
        break;
    case CM_INSTANCE: {
        cm_insttype *it = alloc(x->v, 1, sizeof *it);
        if (!it) { x->oom = true; break; }
        it->nexports = e->instance->nexports;
        it->exports = sub_list(x, e->instance->exports, it->nexports, fresh);
        if (!cm_pset_put(&x->v->depths, it, cm_pset_get(&x->v->depths, e->instance))) x->oom = true;
        e->instance = it;
        break;
    }
    case CM_COMPONENT: {
        cm_comptype *ct = alloc(x->v, 1, sizeof *ct);
        if (!ct) { x->oom = true; break; }
        *ct = *e->component;
        ct->imports = sub_list(x, e->component->imports, ct->nimports, false);
        ct->exports = sub_list(x, e->component->exports, ct->nexports, false);
        if (!cm_pset_put(&x->v->depths, ct, cm_pset_get(&x->v->depths, e->component))) x->oom = true;
        e->component = ct;
        break;
    }
    default: break;
    }
}

/* An imported instance is a new instance of its type: the abstract
   resources its type declares are fresh for each import (resources.wast:
   two imports of one instance type have different resources). */
static weft_status freshen(val *v, cm_extern *e) {
    subst x = {.v = v, .local_only = true};
    sub_extern(&x, e, true);
    bool oom = x.oom;
    cm_pset_free(&x.map);
    cm_pset_free(&x.memo);
    cm_pset_free(&x.rts);
    return oom ? NOMEM(v) : WEFT_OK;
}

/* a <: b for extern types (Explainer.md "Subtyping"), resources of b
   mapped through x->map, which grows as b's abstract resources meet a's. */
static bool extern_match(subst *x, const cm_extern *a, const cm_extern *b, char *why, size_t cap);
static bool list_match(subst *x, const cm_named *a, uint32_t na, const cm_named *b, uint32_t nb, const char *what,
                       char *why, size_t cap) {
    for (uint32_t i = 0; i < nb; i++) {
        const cm_named *m = find_named(a, na, b[i].name.s, b[i].name.len);
        if (!m) {
            snprintf(why, cap, "missing expected %s `%.*s`", what, (int)b[i].name.len, b[i].name.s);
            return false;
        }
        char sub[300];
        if (!extern_match(x, &m->type, &b[i].type, sub, sizeof sub)) {
            snprintf(why, cap, "type mismatch in %s `%.*s`: %s", what, (int)b[i].name.len, b[i].name.s, sub);
            return false;
        }
    }
    return true;
}
static bool extern_match(subst *x, const cm_extern *a, const cm_extern *b, char *why, size_t cap) {
    if (a->sort != b->sort) {
        snprintf(why, cap, "expected %s, found %s", cm_sort_name(b->sort), cm_sort_name(a->sort));
        return false;
    }
    switch (a->sort) {
    case CM_CORE_MODULE: {
        /* a module type a <: b: a imports no more than b gives, exports at least what b wants */
        for (uint32_t i = 0; i < a->module->nimports; i++) {
            const cm_core_named *ai = &a->module->imports[i];
            const cm_core_named *bi = NULL;
            for (uint32_t k = 0; k < b->module->nimports && !bi; k++)
                if (b->module->imports[k].module.len == ai->module.len && !memcmp(b->module->imports[k].module.s, ai->module.s, ai->module.len) &&
                    b->module->imports[k].name.len == ai->name.len && !memcmp(b->module->imports[k].name.s, ai->name.s, ai->name.len))
                    bi = &b->module->imports[k];
            if (!bi) {
                snprintf(why, cap, "missing expected import `%.*s::%.*s`", (int)ai->module.len, ai->module.s, (int)ai->name.len, ai->name.s);
                return false;
            }
            if (!cm_core_extern_match(&bi->type, &ai->type, why, cap)) return false;
        }
        for (uint32_t i = 0; i < b->module->nexports; i++) {
            const cm_core_named *be = &b->module->exports[i];
            const cm_core_named *ae = NULL;
            for (uint32_t k = 0; k < a->module->nexports && !ae; k++)
                if (a->module->exports[k].name.len == be->name.len && !memcmp(a->module->exports[k].name.s, be->name.s, be->name.len))
                    ae = &a->module->exports[k];
            if (!ae) {
                snprintf(why, cap, "missing expected export `%.*s`", (int)be->name.len, be->name.s);
                return false;
            }
            if (!cm_core_extern_match(&ae->type, &be->type, why, cap)) return false;
        }
        return true;
    }
    case CM_FUNC: return cm_func_match(a->func, b->func, &x->map, why, cap);
    case CM_VALUE: return cm_val_match(a->value, b->value, &x->map, why, cap);
    case CM_TYPE: {
        const cm_type *ta = a->type, *tb = b->type;
        if (tb->kind == CM_TYPE_RESOURCE) {
            if (ta->kind != CM_TYPE_RESOURCE) {
                snprintf(why, cap, "expected resource, found %s", ta->kind == CM_TYPE_VAL ? "defined type" : "a type");
                return false;
            }
            const cm_resource *m = cm_pset_get(&x->map, tb->res->res);
            if (m) {
                if (m != ta->res->res) { snprintf(why, cap, "resource types are not the same"); return false; }
                return true;
            }
            if (tb->res->defined) {
                if (ta->res->res != tb->res->res) { snprintf(why, cap, "resource types are not the same"); return false; }
                return true;
            }
            if (!cm_pset_put(&x->map, tb->res->res, ta->res->res) || !cm_pset_put(&x->rts, ta->res->res, ta->res))
                x->oom = true;
            return true;
        }
        if (ta->kind != tb->kind) {
            snprintf(why, cap, "expected %s, found %s", tb->kind == CM_TYPE_VAL ? "defined type" : "another kind of type",
                     ta->kind == CM_TYPE_RESOURCE ? "resource" : "another kind of type");
            return false;
        }
        if (ta->kind == CM_TYPE_VAL) {
            if (!cm_val_match(ta->val, tb->val, &x->map, why, cap)) return false;
            /* an (eq) type import stands for the supplied node from now on */
            if (!cm_pset_has(&x->memo, tb->val) && !cm_pset_put(&x->memo, tb->val, ta->val)) x->oom = true;
            return true;
        }
        if (ta->kind == CM_TYPE_FUNC) return cm_func_match(ta->func, tb->func, &x->map, why, cap);
        if (ta->kind == CM_TYPE_INSTANCE) {
            cm_extern ea = {.sort = CM_INSTANCE, .instance = ta->inst}, eb = {.sort = CM_INSTANCE, .instance = tb->inst};
            return extern_match(x, &ea, &eb, why, cap);
        }
        if (ta->kind == CM_TYPE_COMPONENT) {
            cm_extern ea = {.sort = CM_COMPONENT, .component = ta->comp}, eb = {.sort = CM_COMPONENT, .component = tb->comp};
            return extern_match(x, &ea, &eb, why, cap);
        }
        return true;
    }
    case CM_INSTANCE:
        return list_match(x, a->instance->exports, a->instance->nexports, b->instance->exports, b->instance->nexports,
                          "export", why, cap);
    case CM_COMPONENT: {
        /* contravariant imports: every import a has must be one b has, b's <: a's */
        for (uint32_t i = 0; i < a->component->nimports; i++) {
            const cm_named *ai = &a->component->imports[i];
            const cm_named *bi = find_named(b->component->imports, b->component->nimports, ai->name.s, ai->name.len);
            if (!bi) {
                snprintf(why, cap, "missing expected import `%.*s`", (int)ai->name.len, ai->name.s);
                return false;
            }
            char sub[300];
            subst rev = {.v = x->v};
            bool ok = extern_match(&rev, &bi->type, &ai->type, sub, sizeof sub);
            /* what a's abstract imports stand for, in b's terms, carries on */
            for (size_t k = 0; k < rev.map.cap; k++)
                if (rev.map.keys && rev.map.keys[k] && !cm_pset_put(&x->map, rev.map.vals[k], rev.map.keys[k])) x->oom = true;
            cm_pset_free(&rev.map);
            cm_pset_free(&rev.memo);
            cm_pset_free(&rev.rts);
            if (!ok) {
                snprintf(why, cap, "type mismatch in import `%.*s`: %s", (int)ai->name.len, ai->name.s, sub);
                return false;
            }
        }
        return list_match(x, a->component->exports, a->component->nexports, b->component->exports,
                          b->component->nexports, "export", why, cap);
    }
    default:
        return true;
    }
}

/* ---- instances ------------------------------------------------------- */

static weft_status arg_names_unique(val *v, const cm_arg *args, uint32_t n, bool core) {
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t j = 0; j < i; j++)
            if (args[i].name.len == args[j].name.len && !memcmp(args[i].name.s, args[j].name.s, args[i].name.len))
                return INVALID(v, core ? "duplicate module instantiation argument named `%.*s`"
                                       : "instantiation argument `%.*s` conflicts with previous argument `%.*s`",
                               (int)args[i].name.len, args[i].name.s, (int)args[j].name.len, args[j].name.s);
    return WEFT_OK;
}

static weft_status core_instance(val *v, scope *s, const cm_def *d) {
    cm_core_insttype *it;
    ALLOC_N(v, it, 1);
    if (d->u.inst.instantiate) {
        TRY(index_ok(v, s, CM_CORE_MODULE, d->u.inst.of));
        TRY(arg_names_unique(v, d->u.inst.args, d->u.inst.nargs, true));
        for (uint32_t i = 0; i < d->u.inst.nargs; i++) {
            const cm_arg *a = &d->u.inst.args[i];
            TRY(index_ok(v, s, CM_CORE_INSTANCE, a->item.idx));
        }
        const cm_core_moduletype *mt = s->sp[CM_CORE_MODULE].data[d->u.inst.of].module;
        for (uint32_t i = 0; i < mt->nimports; i++) {
            const cm_core_named *im = &mt->imports[i];
            const cm_arg *a = NULL;
            for (uint32_t k = 0; k < d->u.inst.nargs && !a; k++)
                if (d->u.inst.args[k].name.len == im->module.len && !memcmp(d->u.inst.args[k].name.s, im->module.s, im->module.len))
                    a = &d->u.inst.args[k];
            if (!a) return INVALID(v, "missing module instantiation argument named `%.*s` (module %u imports `%.*s::%.*s`)",
                                   (int)im->module.len, im->module.s, d->u.inst.of, (int)im->module.len, im->module.s,
                                   (int)im->name.len, im->name.s);
            const cm_core_insttype *ai = s->sp[CM_CORE_INSTANCE].data[a->item.idx].core_inst;
            const cm_core_named *ex = NULL;
            for (uint32_t k = 0; k < ai->nexports && !ex; k++)
                if (ai->exports[k].name.len == im->name.len && !memcmp(ai->exports[k].name.s, im->name.s, im->name.len))
                    ex = &ai->exports[k];
            if (!ex) return INVALID(v, "module instantiation argument `%.*s` does not export an item named `%.*s`",
                                    (int)im->module.len, im->module.s, (int)im->name.len, im->name.s);
            char why[256];
            if (!cm_core_extern_match(&ex->type, &im->type, why, sizeof why))
                return INVALID(v, "type mismatch for import `%.*s::%.*s` of core module %u: %s", (int)im->module.len,
                               im->module.s, (int)im->name.len, im->name.s, d->u.inst.of, why);
        }
        it->nexports = mt->nexports;
        it->exports = mt->exports;
    } else {
        cm_core_named *ex;
        ALLOC_N(v, ex, d->u.inst.nargs);
        for (uint32_t i = 0; i < d->u.inst.nargs; i++) {
            const cm_arg *a = &d->u.inst.args[i];
            for (uint32_t j = 0; j < i; j++)
                if (a->name.len == d->u.inst.args[j].name.len && !memcmp(a->name.s, d->u.inst.args[j].name.s, a->name.len))
                    return INVALID(v, "export name `%.*s` already defined", (int)a->name.len, a->name.s);
            if (a->item.sort > CM_CORE_TAG)
                return INVALID(v, "a core instance may only export functions, tables, memories, globals and tags");
            TRY(index_ok(v, s, a->item.sort, a->item.idx));
            ex[i].name = a->name;
            ex[i].type = s->sp[a->item.sort].data[a->item.idx].core;
        }
        it->nexports = d->u.inst.nargs;
        it->exports = ex;
    }
    return push(v, s, CM_CORE_INSTANCE, (cm_entry){.core_inst = it}, false);
}

static weft_status item_extern(val *v, scope *s, cm_sortidx si, cm_extern *e) {
    TRY(index_ok(v, s, si.sort, si.idx));
    const cm_entry *x = &s->sp[si.sort].data[si.idx];
    memset(e, 0, sizeof *e);
    e->sort = si.sort;
    switch (si.sort) {
    case CM_CORE_MODULE: e->module = x->module; return WEFT_OK;
    case CM_FUNC: e->func = x->func; return WEFT_OK;
    case CM_VALUE: e->value = x->value; return WEFT_OK;
    case CM_TYPE: e->type = x->type; return WEFT_OK;
    case CM_COMPONENT: e->component = x->component; return WEFT_OK;
    case CM_INSTANCE: e->instance = x->instance; return WEFT_OK;
    default:
        return INVALID(v, "a %s cannot be an instantiation argument or a component export (only core modules of "
                       "the core sorts)", cm_sort_name(si.sort));
    }
}

static weft_status instance(val *v, scope *s, const cm_def *d) {
    cm_insttype *it;
    ALLOC_N(v, it, 1);
    if (d->u.inst.instantiate) {
        TRY(index_ok(v, s, CM_COMPONENT, d->u.inst.of));
        TRY(arg_names_unique(v, d->u.inst.args, d->u.inst.nargs, false));
        const cm_comptype *ct = s->sp[CM_COMPONENT].data[d->u.inst.of].component;
        cm_extern *args;
        ALLOC_N(v, args, d->u.inst.nargs);
        for (uint32_t i = 0; i < d->u.inst.nargs; i++) TRY(item_extern(v, s, d->u.inst.args[i].item, &args[i]));
        subst x = {.v = v};
        weft_status st = WEFT_OK;
        for (uint32_t i = 0; i < ct->nimports && st == WEFT_OK; i++) {
            const cm_named *im = &ct->imports[i];
            const cm_extern *a = NULL;
            for (uint32_t k = 0; k < d->u.inst.nargs && !a; k++)
                if (d->u.inst.args[k].name.len == im->name.len && !memcmp(d->u.inst.args[k].name.s, im->name.s, im->name.len))
                    a = &args[k];
            if (!a) {
                st = INVALID(v, "missing import named `%.*s` instantiating component %u", (int)im->name.len, im->name.s,
                             d->u.inst.of);
                break;
            }
            char why[400];
            if (!extern_match(&x, a, &im->type, why, sizeof why))
                st = INVALID(v, "type mismatch for import `%.*s` of component %u: %s", (int)im->name.len, im->name.s,
                             d->u.inst.of, why);
        }
        if (st == WEFT_OK) {
            it->nexports = ct->nexports;
            it->exports = sub_list(&x, ct->exports, ct->nexports, true);
        }
        if (st == WEFT_OK && x.oom) st = NOMEM(v);
        cm_pset_free(&x.map);
        cm_pset_free(&x.memo);
        cm_pset_free(&x.rts);
        TRY(st);
    } else {
        cm_named *ex;
        ALLOC_N(v, ex, d->u.inst.nargs);
        for (uint32_t i = 0; i < d->u.inst.nargs; i++) {
            const cm_arg *a = &d->u.inst.args[i];
            ex[i].name = a->name;
            ex[i].implements = a->implements;
            TRY(item_extern(v, s, a->item, &ex[i].type));
            name_info ni;
            TRY(name_check(v, &ex[i], ex, i, "export", &ni));
        }
        it->nexports = d->u.inst.nargs;
        it->exports = ex;
    }
    TRY(set_depth(v, it, 1 + list_depth(v, it->exports, it->nexports)));
    return push(v, s, CM_INSTANCE, (cm_entry){.instance = it}, false);
}

/* ---- canon (CanonicalABI.md "Canonical definitions") ------------------ */

static bool needs_memory(const cm_valtype *t, cm_pset *seen) {
    if (!t || cm_pset_has(seen, t)) return false;
    if (t->kind == CM_STRING || t->kind == CM_LIST || t->kind == CM_MAP) return true;
    if (cm_kind_is_prim(t->kind)) return false;
    cm_pset_put(seen, t, t);
    for (uint32_t i = 0; i < cm_nmembers(t); i++) {
        if (t->fields && needs_memory(t->fields[i].type, seen)) return true;
        if (t->members && needs_memory(t->members[i], seen)) return true;
    }
    return needs_memory(t->elem, seen) || needs_memory(t->elem2, seen);
}

static const cm_core_functype *core_func_type(scope *s, uint32_t i) { return s->sp[CM_CORE_FUNC].data[i].core.func; }

static bool sig_is(const cm_core_functype *f, uint32_t np, const cm_coreval *p, uint32_t nr, const cm_coreval *r) {
    if (!f) return true;
    return f->nparams == np && f->nresults == nr && (!np || !memcmp(f->params, p, np * sizeof *p)) &&
           (!nr || !memcmp(f->results, r, nr * sizeof *r));
}

static weft_status canon_opts(val *v, scope *s, const cm_canon *c, cm_canon_opts *o, bool lift) {
    static const char *const enc[] = {"utf8", "utf16", "latin1-utf16"};
    *o = (cm_canon_opts){0, UINT32_MAX, UINT32_MAX, UINT32_MAX, UINT32_MAX, false};
    bool has_enc = false;
    for (uint32_t i = 0; i < c->nopts; i++) {
        const cm_canonopt *x = &c->opts[i];
        switch (x->op) {
        case 0: case 1: case 2:
            if (has_enc) return INVALID(v, "canonical encoding option `%s` conflicts with option `%s`", enc[o->string_encoding], enc[x->op]);
            has_enc = true;
            o->string_encoding = x->op;
            break;
        case 3:
            if (o->memory != UINT32_MAX) return INVALID(v, "canonical option `memory` is specified more than once");
            TRY(index_ok(v, s, CM_CORE_MEMORY, x->idx));
            o->memory = x->idx;
            break;
        case 4: {
            if (o->realloc != UINT32_MAX) return INVALID(v, "canonical option `realloc` is specified more than once");
            TRY(index_ok(v, s, CM_CORE_FUNC, x->idx));
            static const cm_coreval p[4] = {0x7f, 0x7f, 0x7f, 0x7f}, r[1] = {0x7f};
            if (!sig_is(core_func_type(s, x->idx), 4, p, 1, r))
                return INVALID(v, "canonical option `realloc` uses a core function with an incorrect signature "
                               "(expected (func (param i32 i32 i32 i32) (result i32)))");
            o->realloc = x->idx;
            break;
        }
        case 5:
            if (o->post_return != UINT32_MAX) return INVALID(v, "canonical option `post-return` is specified more than once");
            if (!lift) return INVALID(v, "canonical option `post-return` cannot be specified for lowerings");
            TRY(index_ok(v, s, CM_CORE_FUNC, x->idx));
            o->post_return = x->idx;
            break;
        case 6:
            if (o->async) return INVALID(v, "canonical option `async` is specified more than once");
            o->async = true;
            break;
        case 7:
            if (o->callback != UINT32_MAX) return INVALID(v, "canonical option `callback` is specified more than once");
            TRY(index_ok(v, s, CM_CORE_FUNC, x->idx));
            o->callback = x->idx;
            break;
        }
    }
    if (o->realloc != UINT32_MAX && o->memory == UINT32_MAX)
        return INVALID(v, "canonical option `realloc` requires `memory` to also be specified");
    if (o->callback != UINT32_MAX && !o->async) return INVALID(v, "canonical option `callback` requires `async`");
    return WEFT_OK;
}

static weft_status add_core_func(val *v, scope *s, uint32_t np, const cm_coreval *p, uint32_t nr, const cm_coreval *r) {
    cm_core_functype *f;
    cm_coreval *vs;
    ALLOC_N(v, f, 1);
    ALLOC_N(v, vs, np + nr);
    if (np) memcpy(vs, p, np * sizeof *p);
    if (nr) memcpy(vs + np, r, nr * sizeof *r);
    *f = (cm_core_functype){np, nr, vs, vs + np};
    cm_entry e = {0};
    e.core.kind = WEFT_EXTERN_FUNC;
    e.core.func = f;
    return push(v, s, CM_CORE_FUNC, e, false);
}

static weft_status canon(val *v, scope *s, cm_def *d) {
    cm_canon *c = &d->u.canon.c;
    cm_canon_opts *o = &d->u.canon.opts;
    static const cm_coreval I32 = 0x7f, I64 = 0x7e;
    const cm_coreval i32x4[4] = {I32, I32, I32, I32};
    (void)I64;
    switch (c->op) {
    case 0x00: case 0x01: {
        bool lift = c->op == 0;
        TRY(canon_opts(v, s, c, o, lift));
        const cm_functype *ft;
        if (lift) {
            TRY(index_ok(v, s, CM_CORE_FUNC, c->func));
            const cm_type *t;
            TRY(type_at(v, s, c->type, &t));
            if (t->kind != CM_TYPE_FUNC) return INVALID(v, "type index %u is not a function type", c->type);
            ft = t->func;
        } else {
            TRY(index_ok(v, s, CM_FUNC, c->func));
            ft = s->sp[CM_FUNC].data[c->func].func;
        }
        cm_coreval buf[2 * (CM_FLAT_MAX + 2)];
        cm_core_functype flat;
        cm_flatten_func(ft, lift, &flat, buf);
        /* memory and realloc where the ABI needs them (CanonicalABI.md "canon lift"/"canon lower") */
        cm_pset seen = {0};
        bool params_mem = false, result_mem = false;
        for (uint32_t i = 0; i < ft->nparams && !params_mem; i++) params_mem = needs_memory(ft->params[i].type, &seen);
        cm_pset_free(&seen);
        result_mem = needs_memory(ft->result, &seen);
        cm_pset_free(&seen);
        uint32_t np = 0;
        for (uint32_t i = 0; i < ft->nparams; i++) np += cm_flat_count(ft->params[i].type);
        uint32_t nr = ft->result ? cm_flat_count(ft->result) : 0;
        if (lift && o->async) { /* an async lift returns through task.return (CanonicalABI.md "canon lift") */
            result_mem = false;
            nr = 0;
        }
        bool spill = np > CM_MAX_FLAT_PARAMS || nr > CM_MAX_FLAT_RESULTS;
        if ((params_mem || result_mem || spill) && o->memory == UINT32_MAX)
            return INVALID(v, "canonical option `memory` is required (the function's type has strings or lists, or "
                           "more flat values than the limits)");
        if (lift ? (params_mem || np > CM_MAX_FLAT_PARAMS) : result_mem) {
            if (o->realloc == UINT32_MAX) return INVALID(v, "canonical option `realloc` is required");
        }
        if (lift) {
            const cm_core_functype *cf = core_func_type(s, c->func);
            if (!o->async && cf) {
                if (cf->nparams != flat.nparams || memcmp(cf->params, flat.params, flat.nparams * sizeof *cf->params))
                    return INVALID(v, "lowered parameter types `%s` do not match parameter types of core function %u",
                                   cm_core_functype_str(&flat, (char[160]){0}, 160), c->func);
                if (cf->nresults != flat.nresults || memcmp(cf->results, flat.results, flat.nresults * sizeof *cf->results))
                    return INVALID(v, "lowered result types `%s` do not match result types of core function %u",
                                   cm_core_functype_str(&flat, (char[160]){0}, 160), c->func);
            }
            if (o->post_return != UINT32_MAX) {
                const cm_core_functype *pr = core_func_type(s, o->post_return);
                if (!sig_is(pr, flat.nresults, flat.results, 0, NULL))
                    return INVALID(v, "canonical option `post-return` uses a core function with an incorrect signature "
                                   "(expected the lifted function's results as parameters and no result)");
            }
            if (o->async && o->callback != UINT32_MAX) {
                static const cm_coreval p[3] = {0x7f, 0x7f, 0x7f}, r[1] = {0x7f};
                if (!sig_is(core_func_type(s, o->callback), 3, p, 1, r))
                    return INVALID(v, "canonical option `callback` uses a core function with an incorrect signature");
            }
            return push(v, s, CM_FUNC, (cm_entry){.func = ft}, false);
        }
        if (o->async) { /* async lowering: (params in memory past 4 flat) -> i32 status */
            static const cm_coreval r[1] = {0x7f};
            return add_core_func(v, s, np > 4 ? 1 : flat.nparams, flat.params, 1, r);
        }
        return add_core_func(v, s, flat.nparams, flat.params, flat.nresults, flat.results);
    }
    case 0x02: case 0x03: case 0x04: {
        const cm_type *t;
        TRY(type_at(v, s, c->type, &t));
        if (t->kind != CM_TYPE_RESOURCE) return INVALID(v, "type index %u is not a resource type", c->type);
        if (c->op != 0x03 && !t->res->defined)
            return INVALID(v, "type index %u is not a local resource (resource.%s needs one this component defines)",
                           c->type, c->op == 0x02 ? "new" : "rep");
        if (c->op == 0x03) return add_core_func(v, s, 1, &I32, 0, NULL);
        return add_core_func(v, s, 1, &I32, 1, &I32);
    }
    default:
        break;
    }
    /* the async built-ins (🔀, 📝, 🧵): type indices checked, their core
       signatures as CanonicalABI.md gives them; run in the next issue */
    switch (c->op) {
    case 0x0e: case 0x0f: case 0x10: case 0x11: case 0x12: case 0x13: case 0x14:
    case 0x15: case 0x16: case 0x17: case 0x18: case 0x19: case 0x1a: case 0x1b: {
        const cm_type *t;
        TRY(type_at(v, s, c->type, &t));
        bool stream = c->op <= 0x14;
        if (t->kind != CM_TYPE_VAL || t->val->kind != (stream ? CM_STREAM : CM_FUTURE))
            return INVALID(v, "type index %u is not a %s type", c->type, stream ? "stream" : "future");
        if (c->op == 0x0f || c->op == 0x10 || c->op == 0x16 || c->op == 0x17) {
            TRY(canon_opts(v, s, c, &d->u.canon.opts, false));
            if (t->val->elem && needs_memory(t->val->elem, &(cm_pset){0}) && d->u.canon.opts.memory == UINT32_MAX)
                return INVALID(v, "canonical option `memory` is required");
        }
        static const cm_coreval i64r = 0x7e;
        switch (c->op) {
        case 0x0e: case 0x15: return add_core_func(v, s, 0, NULL, 1, &i64r);
        case 0x0f: case 0x10: return add_core_func(v, s, 3, i32x4, 1, &I32);
        case 0x16: case 0x17: return add_core_func(v, s, 2, i32x4, 1, &I32);
        case 0x11: case 0x12: case 0x18: case 0x19: return add_core_func(v, s, 1, &I32, 1, &I32);
        default: return add_core_func(v, s, 1, &I32, 0, NULL);
        }
    }
    case 0x09: { /* task.return: the result flattened as params */
        TRY(canon_opts(v, s, c, &d->u.canon.opts, false));
        if (!c->has_result) return add_core_func(v, s, 0, NULL, 0, NULL);
        const cm_valtype *rt;
        TRY(valtype(v, s, c->result, &rt));
        cm_functype ft = {1, &(cm_field){"r", 1, rt}, NULL, false};
        cm_coreval buf[2 * (CM_FLAT_MAX + 2)];
        cm_core_functype flat;
        cm_flatten_func(&ft, false, &flat, buf);
        return add_core_func(v, s, flat.nparams, flat.params, 0, NULL);
    }
    case 0x0a: case 0x0b:
        if (c->coreval != 0x7f) return INVALID(v, "context.get/set take an i32 slot type");
        if (c->slot >= 2) return INVALID(v, "context slot %u out of bounds (there are 2)", c->slot);
        return c->op == 0x0a ? add_core_func(v, s, 0, NULL, 1, &I32) : add_core_func(v, s, 1, &I32, 0, NULL);
    case 0x1c: case 0x1d:
        TRY(canon_opts(v, s, c, &d->u.canon.opts, false));
        return c->op == 0x1c ? add_core_func(v, s, 2, i32x4, 1, &I32) : add_core_func(v, s, 2, i32x4, 0, NULL);
    case 0x20: case 0x21:
        TRY(index_ok(v, s, CM_CORE_MEMORY, c->memory));
        return add_core_func(v, s, 2, i32x4, 1, &I32);
    case 0x27: case 0x41:
        TRY(index_ok(v, s, CM_CORE_TYPE, c->type));
        TRY(index_ok(v, s, CM_CORE_TABLE, c->table));
        return add_core_func(v, s, 2, i32x4, 1, &I32);
    case 0x40:
        TRY(index_ok(v, s, CM_CORE_TYPE, c->type));
        return add_core_func(v, s, 2, i32x4, 1, &I32);
    case 0x24: case 0x25: case 0x05: return add_core_func(v, s, 0, NULL, 0, NULL);
    case 0x06: return add_core_func(v, s, 1, &I32, 1, &I32);
    case 0x0d: case 0x1e: case 0x22: case 0x28: return add_core_func(v, s, 1, &I32, 0, NULL);
    case 0x1f: case 0x26: case 0x42: case 0x29: case 0x0c: return add_core_func(v, s, 0, NULL, 1, &I32);
    case 0x23: return add_core_func(v, s, 2, i32x4, 0, NULL);
    default: return add_core_func(v, s, 1, &I32, 1, &I32);
    }
}

/* ---- components -------------------------------------------------------- */

static weft_status component(val *v, scope *outer, cm_component *c);

static weft_status export_def(val *v, scope *s, cm_def *d) {
    cm_named *nm = &d->u.ie.name;
    TRY(item_extern(v, s, d->u.ie.item, &nm->type));
    if (d->u.ie.item.sort == CM_TYPE && nm->type.type->kind == CM_TYPE_COMPONENT)
        return INVALID(v, "type not valid to be used as export: a component type");
    if (d->u.ie.has_ext) {
        cm_named asc = *nm;
        memset(&asc.type, 0, sizeof asc.type);
        TRY(externdesc(v, s, &d->u.ie.ext, &asc, false));
        subst x = {.v = v};
        char why[400];
        bool ok = extern_match(&x, &nm->type, &asc.type, why, sizeof why);
        cm_pset_free(&x.map);
        cm_pset_free(&x.memo);
        cm_pset_free(&x.rts);
        if (!ok) return INVALID(v, "ascribed type of export is not compatible with item's type: %s", why);
        if (asc.type.sort == CM_TYPE && asc.type.type->kind == CM_TYPE_RESOURCE)
            asc.type = nm->type; /* (sub resource) ascribes the item's own resource */
        nm->type = asc.type;
    }
    return declare(v, s, nm, false);
}

static weft_status component(val *v, scope *outer, cm_component *c) {
    if (++v->depth > VAL_MAX_DEPTH) return INVALID(v, "components nested deeper than %d", CM_MAX_NESTING);
    scope s = {.outer = outer, .component = true, .comp = c};
    cm_pset *saved_vis = v->vis;
    v->vis = &s.visible;
    weft_status st = WEFT_OK;
    BASE_VEC(uint32_t) defs_of[CM_SORT_COUNT];
    memset(defs_of, 0, sizeof defs_of);
    for (uint32_t i = 0; i < c->ndefs && st == WEFT_OK; i++) {
        cm_def *d = &c->defs[i];
        v->offset = d->offset;
        size_t before[CM_SORT_COUNT];
        for (int k = 0; k < CM_SORT_COUNT; k++) before[k] = s.sp[k].len;
        switch (d->kind) {
        case CM_DEF_CORE_MODULE: {
            uint32_t dup = UINT32_MAX;
            const cm_core_moduletype *mt = module_type_of(v, d->u.module, &dup);
            if (mt && dup != UINT32_MAX)
                st = INVALID(v, "duplicate import name `%.*s:%.*s` in core module %zu (two-level names mangle to one "
                             "in a component)", (int)mt->imports[dup].module.len, mt->imports[dup].module.s,
                             (int)mt->imports[dup].name.len, mt->imports[dup].name.s, s.sp[CM_CORE_MODULE].len);
            else
                st = mt ? push(v, &s, CM_CORE_MODULE, (cm_entry){.module = mt}, false) : NOMEM(v);
            break;
        }
        case CM_DEF_CORE_INSTANCE: st = core_instance(v, &s, d); break;
        case CM_DEF_CORE_TYPE: {
            const cm_core_type *ct = NULL;
            st = core_type(v, &s, d->u.core_type, &ct);
            if (st == WEFT_OK) st = push(v, &s, CM_CORE_TYPE, (cm_entry){.core_type = ct}, false);
            break;
        }
        case CM_DEF_COMPONENT:
            st = component(v, &s, d->u.component);
            if (st == WEFT_OK) st = push(v, &s, CM_COMPONENT, (cm_entry){.component = &d->u.component->type}, false);
            break;
        case CM_DEF_INSTANCE: st = instance(v, &s, d); break;
        case CM_DEF_ALIAS: st = alias(v, &s, &d->u.alias); break;
        case CM_DEF_TYPE: {
            const cm_type *t = NULL;
            st = deftype(v, &s, d->u.type, &t);
            if (st == WEFT_OK) st = push(v, &s, CM_TYPE, (cm_entry){.type = t}, false);
            break;
        }
        case CM_DEF_CANON: st = canon(v, &s, d); break;
        case CM_DEF_START:
            st = INVALID(v, "start definitions (🪙, with value imports and exports) are not supported by weft");
            break;
        case CM_DEF_IMPORT: {
            cm_named *nm = &d->u.ie.name;
            st = externdesc(v, &s, &d->u.ie.ext, nm, true);
            if (st == WEFT_OK) st = declare(v, &s, nm, true);
            break;
        }
        case CM_DEF_EXPORT: st = export_def(v, &s, d); break;
        case CM_DEF_VALUE:
            st = INVALID(v, "value definitions (🪙) are not supported by weft");
            break;
        }
        /* every entry this definition added records it */
        for (int k = 0; k < CM_SORT_COUNT && st == WEFT_OK; k++)
            for (size_t j = before[k]; j < s.sp[k].len; j++) s.sp[k].data[j].def = i;
    }
    for (int k = 0; k < CM_SORT_COUNT; k++) BASE_VEC_FREE(defs_of[k]);
    /* the index spaces and the type move into the arena */
    for (int k = 0; k < CM_SORT_COUNT && st == WEFT_OK; k++) {
        c->count[k] = (uint32_t)s.sp[k].len;
        if (!(c->space[k] = alloc(v, s.sp[k].len, sizeof *c->space[k]))) st = NOMEM(v);
        else if (s.sp[k].len) memcpy(c->space[k], s.sp[k].data, s.sp[k].len * sizeof *c->space[k]);
    }
    if (st == WEFT_OK) {
        c->type.nimports = (uint32_t)s.imports.len;
        c->type.nexports = (uint32_t)s.exports.len;
        st = copy_named(v, s.imports.data, s.imports.len, &c->type.imports);
        if (st == WEFT_OK) st = copy_named(v, s.exports.data, s.exports.len, &c->type.exports);
        if (st == WEFT_OK)
            st = set_depth(v, &c->type, 1 + max_u32(list_depth(v, c->type.imports, c->type.nimports),
                                                    list_depth(v, c->type.exports, c->type.nexports)));
    }
    scope_free(&s);
    v->vis = saved_vis;
    v->depth--;
    return st;
}

weft_status cm_validate(cm_component *c, weft_error *err) {
    val v = {.arena = c->arena, .err = err};
    weft_status st = component(&v, NULL, c);
    cm_pset_free(&v.sizes);
    cm_pset_free(&v.depths);
    cm_pset_free(&v.defined);
    cm_pset_free(&v.type_local);
    return st;
}
