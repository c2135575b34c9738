/*
 * capi.c — component values and export calls through weft.h: value
 * pools, the types of an export's parameters and result, finding an
 * exported function by the names `wasmtime run --invoke` takes, calling
 * it with lifted values, and WAVE (wave.c) for hosts.
 *
 * weft.h's weft_ctype is a cm_valtype, weft_component_func a cm_func and
 * weft_cval the cm_val itself (ctype.h): the API hands out the library's
 * own records, never copies.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/base.h"
#include "api.h"
#include "wave.h"

#define POOL_DEFAULT_LIMIT ((size_t)1 << 30)

weft_cval_pool *weft_cval_pool_new(size_t limit) {
    weft_cval_pool *p = base_calloc(1, sizeof *p);
    if (p) p->arena.limit = limit ? limit : POOL_DEFAULT_LIMIT;
    return p;
}

void weft_cval_pool_reset(weft_cval_pool *pool) {
    if (pool) cm_arena_reset(&pool->arena);
}

void weft_cval_pool_free(weft_cval_pool *pool) {
    if (!pool) return;
    cm_arena_free(&pool->arena);
    free(pool);
}

void *weft_cval_pool_alloc(weft_cval_pool *pool, size_t size) {
    return pool ? cm_arena_alloc(&pool->arena, size ? size : 1, 16) : NULL;
}

/* ---- types ----------------------------------------------------------- */

static const cm_valtype *T(const weft_ctype *t) { return (const cm_valtype *)t; }
static const weft_ctype *W(const cm_valtype *t) { return (const weft_ctype *)t; }

weft_ckind weft_ctype_kind(const weft_ctype *type) {
    return type ? (weft_ckind)T(type)->kind : WEFT_CKIND_COUNT_;
}

static bool has_fields(const cm_valtype *t) {
    return t->kind == CM_RECORD || t->kind == CM_VARIANT || t->kind == CM_ENUM ||
           t->kind == CM_FLAGS;
}

uint32_t weft_ctype_count(const weft_ctype *type) {
    if (!type) return 0;
    const cm_valtype *t = T(type);
    return has_fields(t) || t->kind == CM_TUPLE ? t->n : 0;
}

const char *weft_ctype_name(const weft_ctype *type, uint32_t i, size_t *len) {
    if (len) *len = 0;
    if (!type || !has_fields(T(type)) || i >= T(type)->n) return NULL;
    if (len) *len = T(type)->fields[i].name_len;
    return T(type)->fields[i].name;
}

const weft_ctype *weft_ctype_member(const weft_ctype *type, uint32_t i) {
    if (!type || i >= T(type)->n) return NULL;
    const cm_valtype *t = T(type);
    if (t->kind == CM_TUPLE) return W(t->members[i]);
    if (t->kind == CM_RECORD || t->kind == CM_VARIANT) return W(t->fields[i].type);
    return NULL;
}

const weft_ctype *weft_ctype_elem(const weft_ctype *type) {
    if (!type) return NULL;
    switch (T(type)->kind) {
    case CM_LIST: case CM_FIXED_LIST: case CM_OPTION: case CM_RESULT: case CM_MAP:
    case CM_STREAM: case CM_FUTURE:
        return W(T(type)->elem);
    default: return NULL;
    }
}

const weft_ctype *weft_ctype_elem2(const weft_ctype *type) {
    if (!type || (T(type)->kind != CM_RESULT && T(type)->kind != CM_MAP)) return NULL;
    return W(T(type)->elem2);
}

uint32_t weft_ctype_length(const weft_ctype *type) {
    return type && T(type)->kind == CM_FIXED_LIST ? T(type)->n : 0;
}

size_t weft_ctype_text(const weft_ctype *type, char *buf, size_t cap) {
    cm_wave_out o = {buf, buf ? cap : 0, 0};
    if (!type) {
        static const char none[] = "(none)";
        o.len = 0;
        if (o.cap) {
            strncpy(buf, none, cap - 1);
            buf[cap - 1] = 0;
        }
        return sizeof none - 1;
    }
    cm_wave_type_text(T(type), &o);
    if (o.cap && o.len >= o.cap && o.cap >= 4) memcpy(buf + o.cap - 4, "...", 4);
    return o.len;
}

/* ---- finding an export ----------------------------------------------- */

static const cm_functype *FT(const weft_component_func *f) { return ((const cm_func *)f)->type; }

/* The root export `name` of `sort`: the exact name, else (for an
   interface name with a version) one of the same interface whose version
   is semver-compatible (wasmtime's lookup: 0.1.2 finds 0.1.0). */
static const cm_rexport *find_export(const cm_rinst *ri, const char *name, size_t len,
                                     cm_sort sort) {
    for (uint32_t i = 0; i < ri->n; i++) {
        const cm_rexport *x = &ri->exports[i];
        if (x->sort == sort && x->name.len == len && memcmp(x->name.s, name, len) == 0) return x;
    }
    const char *at = memchr(name, '@', len);
    if (!at) return NULL;
    size_t base = (size_t)(at - name);
    for (uint32_t i = 0; i < ri->n; i++) {
        const cm_rexport *x = &ri->exports[i];
        if (x->sort != sort || x->name.len <= base || memcmp(x->name.s, name, base) != 0 ||
            x->name.s[base] != '@')
            continue;
        if (cm_version_compatible(at + 1, len - base - 1, x->name.s + base + 1,
                                  x->name.len - base - 1))
            return x;
    }
    return NULL;
}

static weft_status not_found(weft_error *err, const char *name, size_t len) {
    return base_fail(err, WEFT_ERR_NOT_FOUND, "no exported function named `%.*s` in the component",
                     (int)len, name);
}

/* Splits "ns:pkg/iface.func@ver" / "iface.func" into the instance name
   ("ns:pkg/iface@ver") and the function; "ns:pkg/iface@ver#func" too. */
static bool split_item(const char *name, size_t len, char *inst, size_t cap, size_t *ilen,
                       const char **fn, size_t *flen) {
    const char *hash = memchr(name, '#', len);
    if (hash) {
        *ilen = (size_t)(hash - name);
        if (*ilen >= cap) return false;
        memcpy(inst, name, *ilen);
        *fn = hash + 1;
        *flen = len - *ilen - 1;
        return *ilen > 0 && *flen > 0;
    }
    const char *at = memchr(name, '@', len);
    size_t base = at ? (size_t)(at - name) : len;
    const char *dot = NULL;
    for (size_t i = base; i > 0; i--)
        if (name[i - 1] == '.') {
            dot = name + i - 1;
            break;
        }
    if (!dot) return false;
    size_t ib = (size_t)(dot - name);
    *fn = dot + 1;
    *flen = base - ib - 1;
    *ilen = ib + (len - base);
    if (*ilen >= cap || ib == 0 || *flen == 0) return false;
    memcpy(inst, name, ib);
    memcpy(inst + ib, name + base, len - base);
    return true;
}

static weft_status lookup(weft_component_instance *ci, const char *name, size_t len,
                          cm_func **out, weft_error *err) {
    const cm_rinst *root = &ci->inst->exports;
    /* a function the component exports by that very name */
    const cm_rexport *x = find_export(root, name, len, CM_FUNC);
    if (x) {
        *out = x->item.func;
        return WEFT_OK;
    }
    char inst[512];
    size_t ilen, flen;
    const char *fn;
    if (split_item(name, len, inst, sizeof inst, &ilen, &fn, &flen)) {
        const cm_rexport *ix = find_export(root, inst, ilen, CM_INSTANCE);
        const cm_rexport *fx = ix ? cm_rinst_get(ix->item.inst, fn, flen) : NULL;
        if (!fx || fx->sort != CM_FUNC) return not_found(err, name, len);
        *out = fx->item.func;
        return WEFT_OK;
    }
    /* a plain name: the one exported instance that has a function of it */
    cm_func *found = NULL;
    uint32_t nfound = 0;
    char cands[400];
    size_t cl = 0;
    cands[0] = 0;
    for (uint32_t i = 0; i < root->n; i++) {
        const cm_rexport *ix = &root->exports[i];
        if (ix->sort != CM_INSTANCE) continue;
        const cm_rexport *fx = cm_rinst_get(ix->item.inst, name, len);
        if (!fx || fx->sort != CM_FUNC) continue;
        found = fx->item.func;
        nfound++;
        /* wasmtime writes the candidates as item names: ns:pkg/iface.func@ver */
        const char *at = memchr(ix->name.s, '@', ix->name.len);
        size_t base = at ? (size_t)(at - ix->name.s) : ix->name.len;
        int w = snprintf(cands + cl, sizeof cands - cl, "%s`%.*s.%.*s%.*s`", nfound > 1 ? ", " : "",
                         (int)base, ix->name.s, (int)len, name, (int)(ix->name.len - base),
                         ix->name.s + base);
        if (w > 0) cl = cl + (size_t)w < sizeof cands ? cl + (size_t)w : sizeof cands - 1;
    }
    if (nfound == 1) {
        *out = found;
        return WEFT_OK;
    }
    if (nfound > 1)
        return base_fail(err, WEFT_ERR_NOT_FOUND,
                         "several exported instances have a function named `%.*s`; name one: %s",
                         (int)len, name, cands);
    return not_found(err, name, len);
}

weft_status weft_component_instance_func(weft_component_instance *instance, const char *name,
                                         weft_component_func **out, weft_error *err) {
    base_error_clear(err);
    if (!instance || !name || !out)
        return base_fail(err, WEFT_ERR_MISUSE, "weft_component_instance_func: NULL argument");
    *out = NULL;
    cm_func *f;
    weft_status rc = lookup(instance, name, strlen(name), &f, err);
    if (rc == WEFT_OK) *out = (weft_component_func *)f;
    return rc;
}

uint32_t weft_component_func_param_count(const weft_component_func *func) {
    return func ? FT(func)->nparams : 0;
}

const weft_ctype *weft_component_func_param(const weft_component_func *func, uint32_t i,
                                            const char **name, size_t *name_len) {
    if (name) *name = NULL;
    if (name_len) *name_len = 0;
    if (!func || i >= FT(func)->nparams) return NULL;
    const cm_field *p = &FT(func)->params[i];
    if (name) *name = p->name;
    if (name_len) *name_len = p->name_len;
    return W(p->type);
}

const weft_ctype *weft_component_func_result(const weft_component_func *func) {
    return func ? W(FT(func)->result) : NULL;
}

weft_status weft_component_func_call(weft_component_func *func, const weft_cval *args,
                                     uint32_t nargs, weft_cval *result, weft_cval_pool *pool,
                                     weft_error *err) {
    base_error_clear(err);
    if (!func || !pool || (nargs && !args) || (FT(func)->result && !result))
        return base_fail(err, WEFT_ERR_MISUSE, "weft_component_func_call: NULL argument");
    cm_func *f = (cm_func *)func;
    if (nargs != f->type->nparams)
        return base_fail(err, WEFT_ERR_MISUSE, "the function takes %u argument%s, %u given",
                         f->type->nparams, f->type->nparams == 1 ? "" : "s", nargs);
    cm_val scratch;
    memset(&scratch, 0, sizeof scratch);
    return cm_call(f, NULL, NULL, args, result ? result : &scratch, &pool->arena, err);
}

/* ---- WAVE ------------------------------------------------------------ */

weft_status weft_wave_parse(const weft_ctype *type, const char *text, size_t len, weft_cval *out,
                            weft_cval_pool *pool, weft_error *err) {
    if (!pool) return base_fail(err, WEFT_ERR_MISUSE, "weft_wave_parse: NULL argument");
    return cm_wave_parse(T(type), text, len, out, &pool->arena, err);
}

weft_status weft_wave_parse_call(weft_component_instance *instance, const char *text,
                                 weft_component_func **func, weft_cval **args, uint32_t *nargs,
                                 weft_cval_pool *pool, weft_error *err) {
    base_error_clear(err);
    if (!instance || !text || !func || !args || !nargs || !pool)
        return base_fail(err, WEFT_ERR_MISUSE, "weft_wave_parse_call: NULL argument");
    *func = NULL;
    *args = NULL;
    *nargs = 0;
    size_t len = strlen(text), b = 0;
    while (b < len && (text[b] == ' ' || text[b] == '\t' || text[b] == '\n' || text[b] == '\r')) b++;
    const char *open = memchr(text + b, '(', len - b);
    if (!open) {
        base_fail_at(err, WEFT_ERR_MALFORMED, UINT32_MAX, (uint32_t)len,
                     "WAVE at byte %zu: expected `(`: a call is written name(arguments), "
                     "as 'run()' or 'add(1, 2)'",
                     len);
        return WEFT_ERR_MALFORMED;
    }
    size_t e = (size_t)(open - text);
    while (e > b && (text[e - 1] == ' ' || text[e - 1] == '\t')) e--;
    if (e == b) {
        base_fail_at(err, WEFT_ERR_MALFORMED, UINT32_MAX, (uint32_t)b,
                     "WAVE at byte %zu: a function name must come before `(`", b);
        return WEFT_ERR_MALFORMED;
    }
    for (size_t i = b; i < e; i++)
        if ((unsigned char)text[i] <= ' ') {
            base_fail_at(err, WEFT_ERR_MALFORMED, UINT32_MAX, (uint32_t)i,
                         "WAVE at byte %zu: a function name has no spaces", i);
            return WEFT_ERR_MALFORMED;
        }
    cm_func *f;
    weft_status rc = lookup(instance, text + b, e - b, &f, err);
    if (rc != WEFT_OK) return rc;
    rc = cm_wave_parse_args(f->type, text, len, (size_t)(open - text), args, &pool->arena, err);
    if (rc != WEFT_OK) return rc;
    *func = (weft_component_func *)f;
    *nargs = f->type->nparams;
    return WEFT_OK;
}

weft_status weft_wave_print(const weft_ctype *type, const weft_cval *value, char *buf, size_t cap,
                            size_t *needed, weft_error *err) {
    if (!type || !value || (cap && !buf))
        return base_fail(err, WEFT_ERR_MISUSE, "weft_wave_print: NULL argument");
    cm_wave_out o = {buf, cap, 0};
    weft_status rc = cm_wave_print(T(type), value, &o, err);
    if (needed) *needed = o.len;
    return rc;
}
