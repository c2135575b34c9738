/*
 * instance.c — instantiation of a validated component and the linker of
 * its imports (instance.h). The calls across the canonical ABI are in
 * call.c.
 *
 * Explainer.md "Instance Definitions" and "Component Definitions": a
 * component's definitions are replayed in binary order; each appends to
 * the index spaces the entry the validator recorded for it (component.h:
 * cm_entry.def), with its run-time value.
 */
#include "instance.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/base.h"
#include "call.h"

static void *inst_alloc(cm_inst *inst, size_t size, weft_error *err) {
    void *p = cm_arena_alloc(inst->arena, size, 16);
    if (!p) base_fail(err, WEFT_ERR_NOMEM, "out of memory instantiating a component");
    else memset(p, 0, size);
    return p;
}

static bool name_eq(cm_name a, const char *b, size_t blen) {
    return a.len == blen && memcmp(a.s, b, blen) == 0;
}

/* ---- resource identities (instance.h: static to run-time) ------------ */

static const cm_resource *resmap_get(const cm_inst *inst, const cm_resource *stat) {
    for (uint32_t i = 0; i < inst->nresmap; i++)
        if (inst->resmap[i].stat == stat) return inst->resmap[i].run;
    return NULL;
}

static weft_status resmap_put(cm_inst *inst, const cm_resource *stat, const cm_resource *run,
                              weft_error *err) {
    if (!stat || !run) return WEFT_OK;
    for (uint32_t i = 0; i < inst->nresmap; i++) {
        if (inst->resmap[i].stat == stat) {
            inst->resmap[i].run = run;
            return WEFT_OK;
        }
    }
    if (inst->nresmap == inst->capresmap) {
        uint32_t cap = inst->capresmap ? inst->capresmap * 2 : 16;
        cm_resmap *m = cm_arena_alloc(inst->arena, cap * sizeof *m, 8);
        if (!m) return base_fail(err, WEFT_ERR_NOMEM, "out of memory instantiating a component");
        if (inst->nresmap) memcpy(m, inst->resmap, inst->nresmap * sizeof *m);
        inst->resmap = m;
        inst->capresmap = cap;
    }
    inst->resmap[inst->nresmap++] = (cm_resmap){stat, run};
    return WEFT_OK;
}

const cm_resource *cm_inst_resolve(void *env, const cm_resource *stat) {
    const cm_inst *inst = env;
    const cm_resource *run = resmap_get(inst, stat);
    return run ? run : stat;
}

/* Maps the static resources an instance type names to the run-time ones
   of the value that satisfies it (an import, an argument, the exports of
   a nested instance). */
static weft_status bind_insttype(cm_inst *inst, const cm_insttype *t, const cm_rinst *v,
                                 uint32_t depth, weft_error *err) {
    if (!t || !v) return WEFT_OK;
    if (depth > CM_MAX_NESTING) return base_fail(err, WEFT_ERR_LIMIT, "instance types nest too deep");
    for (uint32_t i = 0; i < t->nexports; i++) {
        const cm_named *e = &t->exports[i];
        const cm_rexport *x = cm_rinst_get(v, e->name.s, e->name.len);
        if (!x) continue; /* the linker reported it already */
        if (e->type.sort == CM_TYPE && e->type.type && e->type.type->kind == CM_TYPE_RESOURCE) {
            weft_status rc = resmap_put(inst, e->type.type->res->res, x->item.res, err);
            if (rc != WEFT_OK) return rc;
        } else if (e->type.sort == CM_INSTANCE) {
            weft_status rc = bind_insttype(inst, e->type.instance, x->item.inst, depth + 1, err);
            if (rc != WEFT_OK) return rc;
        }
    }
    return WEFT_OK;
}

/* ---- lookups ------------------------------------------------------ */

const cm_rexport *cm_rinst_get(const cm_rinst *ri, const char *name, size_t len) {
    if (!ri) return NULL;
    for (uint32_t i = 0; i < ri->n; i++)
        if (name_eq(ri->exports[i].name, name, len)) return &ri->exports[i];
    return NULL;
}

static bool core_export(const cm_core_inst *ci, const char *name, size_t len, weft_extern *out) {
    if (ci->inst) return weft_instance_export_n(ci->inst, name, len, out) == WEFT_OK;
    for (uint32_t i = 0; i < ci->n; i++) {
        if (name_eq(ci->names[i], name, len)) {
            *out = ci->items[i];
            return true;
        }
    }
    return false;
}


/* ---- semver (instance.h) -------------------------------------------- */

/* Reads "MAJOR.MINOR.PATCH" (anything after: pre-release or build). */
static bool parse_ver(const char *s, size_t n, unsigned long v[3], size_t *rest) {
    size_t i = 0;
    for (int k = 0; k < 3; k++) {
        if (i >= n || s[i] < '0' || s[i] > '9') return false;
        unsigned long x = 0;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            x = x * 10 + (unsigned long)(s[i] - '0');
            if (x > 0xffffffffUL) return false;
            i++;
        }
        v[k] = x;
        if (k < 2) {
            if (i >= n || s[i] != '.') return false;
            i++;
        }
    }
    *rest = i;
    return true;
}

bool cm_version_compatible(const char *a, size_t alen, const char *b, size_t blen) {
    unsigned long va[3], vb[3];
    size_t ra, rb;
    if (!parse_ver(a, alen, va, &ra) || !parse_ver(b, blen, vb, &rb))
        return alen == blen && memcmp(a, b, alen) == 0;
    /* A pre-release is only itself. */
    if (ra != alen || rb != blen) return alen == blen && memcmp(a, b, alen) == 0;
    if (va[0] != vb[0]) return false;
    if (va[0] > 0) return true;
    if (va[1] != vb[1]) return false;
    if (va[1] > 0) return true;
    return va[2] == vb[2];
}

/* Splits "ns:pkg/iface@1.2.3" into the part before '@' and the version. */
static void split_version(const char *s, size_t n, size_t *base, const char **ver, size_t *vlen) {
    const char *at = memchr(s, '@', n);
    if (!at) {
        *base = n;
        *ver = NULL;
        *vlen = 0;
        return;
    }
    *base = (size_t)(at - s);
    *ver = at + 1;
    *vlen = n - *base - 1;
}

const cm_host_instance *cm_host_find(const cm_host_instance *hosts, uint32_t n, const char *name,
                                     size_t len) {
    if (!hosts || !name) return NULL;
    cm_name want = {.s = name, .len = len};
    size_t wbase, wvlen;
    const char *wver;
    split_version(want.s, want.len, &wbase, &wver, &wvlen);
    const cm_host_instance *best = NULL;
    for (uint32_t i = 0; i < n; i++) {
        const cm_host_instance *h = &hosts[i];
        size_t hn = strlen(h->name), hbase, hvlen;
        const char *hver;
        split_version(h->name, hn, &hbase, &hver, &hvlen);
        if (hbase != wbase || memcmp(h->name, want.s, wbase) != 0) continue;
        if (!wver && !hver) return h;
        if (!wver || !hver) continue;
        if (cm_version_compatible(wver, wvlen, hver, hvlen)) best = h;
    }
    return best;
}

/* ---- type equality for the linker ----------------------------------- */

/* Whether the host's type `h` is the import's `t` as inst sees it: the
   same structure and names, own/borrow of the same run-time resource.
   (Equality rather than subtyping: the host's functions are generated
   from the same WIT the component was built against.) */
static bool valtype_same(const cm_inst *inst, const cm_valtype *t, const cm_valtype *h,
                         uint32_t depth) {
    if (t == h) return true;
    if (!t || !h || t->kind != h->kind || depth > CM_MAX_TYPE_DEPTH) return false;
    switch (t->kind) {
    case CM_RECORD: case CM_VARIANT: case CM_FLAGS: case CM_ENUM:
        if (t->n != h->n) return false;
        for (uint32_t i = 0; i < t->n; i++) {
            if (t->fields[i].name_len != h->fields[i].name_len ||
                memcmp(t->fields[i].name, h->fields[i].name, t->fields[i].name_len) != 0)
                return false;
            if (!valtype_same(inst, t->fields[i].type, h->fields[i].type, depth + 1)) return false;
        }
        return true;
    case CM_TUPLE:
        if (t->n != h->n) return false;
        for (uint32_t i = 0; i < t->n; i++)
            if (!valtype_same(inst, t->members[i], h->members[i], depth + 1)) return false;
        return true;
    case CM_FIXED_LIST:
        if (t->n != h->n) return false;
        /* fall through */
    case CM_LIST: case CM_OPTION: case CM_STREAM: case CM_FUTURE:
        return valtype_same(inst, t->elem, h->elem, depth + 1);
    case CM_RESULT: case CM_MAP:
        return valtype_same(inst, t->elem, h->elem, depth + 1) &&
               valtype_same(inst, t->elem2, h->elem2, depth + 1);
    case CM_OWN: case CM_BORROW:
        return cm_inst_resolve((void *)inst, t->resource) == h->resource;
    default:
        return cm_kind_is_prim(t->kind);
    }
}

static bool functype_same(const cm_inst *inst, const cm_functype *t, const cm_functype *h) {
    if (t->nparams != h->nparams || t->async != h->async) return false;
    for (uint32_t i = 0; i < t->nparams; i++)
        if (!valtype_same(inst, t->params[i].type, h->params[i].type, 0)) return false;
    return valtype_same(inst, t->result, h->result, 0);
}

/* A host instance as the value of an instance import: its functions and
   resources by name, checked against the import's instance type t. */
static weft_status host_rinst(cm_inst *inst, const cm_host_instance *h, const cm_host_env *env,
                              const cm_insttype *t, cm_name iname, cm_rinst **out,
                              weft_error *err) {
    cm_rinst *ri = inst_alloc(inst, sizeof *ri, err);
    if (!ri) return WEFT_ERR_NOMEM;
    uint32_t n = h->nfuncs + h->nresources;
    ri->exports = n ? inst_alloc(inst, n * sizeof *ri->exports, err) : NULL;
    if (n && !ri->exports) return WEFT_ERR_NOMEM;
    for (uint32_t i = 0; i < h->nresources; i++) {
        cm_rexport *x = &ri->exports[ri->n++];
        x->name = (cm_name){h->resources[i].name, (uint32_t)strlen(h->resources[i].name)};
        x->sort = CM_TYPE;
        x->item.res = h->resources[i].type;
    }
    for (uint32_t i = 0; i < h->nfuncs; i++) {
        cm_func *f = inst_alloc(inst, sizeof *f, err);
        if (!f) return WEFT_ERR_NOMEM;
        f->kind = CM_FUNC_HOST;
        f->type = h->funcs[i].type;
        f->host = &h->funcs[i];
        f->host_ctx = env->ctx;
        cm_rexport *x = &ri->exports[ri->n++];
        x->name = (cm_name){h->funcs[i].name, (uint32_t)strlen(h->funcs[i].name)};
        x->sort = CM_FUNC;
        x->item.func = f;
    }
    /* Every export the import's type asks for must be there, of its sort;
       resources first, so the functions' types compare by run-time
       resource. */
    for (uint32_t i = 0; t && i < t->nexports; i++) {
        const cm_named *e = &t->exports[i];
        const cm_rexport *x = cm_rinst_get(ri, e->name.s, e->name.len);
        bool is_res = e->type.sort == CM_TYPE && e->type.type &&
                      e->type.type->kind == CM_TYPE_RESOURCE;
        if (e->type.sort == CM_TYPE && !is_res) continue; /* a value type: structural */
        if (!x || x->sort != e->type.sort)
            return base_fail(err, WEFT_ERR_LINK,
                             "import `%.*s`: the host's %s has no %s named `%.*s`",
                             (int)iname.len, iname.s, h->name, cm_sort_name(e->type.sort),
                             (int)e->name.len, e->name.s);
        if (is_res) {
            weft_status rc = resmap_put(inst, e->type.type->res->res, x->item.res, err);
            if (rc != WEFT_OK) return rc;
        }
    }
    for (uint32_t i = 0; t && i < t->nexports; i++) {
        const cm_named *e = &t->exports[i];
        if (e->type.sort != CM_FUNC) continue;
        const cm_rexport *x = cm_rinst_get(ri, e->name.s, e->name.len);
        if (!functype_same(inst, e->type.func, x->item.func->type)) {
            char want[256], have[256];
            cm_extern want_e = {.sort = CM_FUNC, .func = e->type.func};
            cm_extern have_e = {.sort = CM_FUNC, .func = x->item.func->type};
            cm_extern_str(&want_e, want, sizeof want);
            cm_extern_str(&have_e, have, sizeof have);
            return base_fail(err, WEFT_ERR_LINK,
                             "import `%.*s`: function `%.*s` has type %s in the component, %s in "
                             "weft's %s",
                             (int)iname.len, iname.s, (int)e->name.len, e->name.s, want, have,
                             h->name);
        }
    }
    *out = ri;
    return WEFT_OK;
}

/* ---- resources a component defines ---------------------------------- */

typedef struct dtor_env {
    cm_inst *inst;
    weft_func *dtor;
} dtor_env;

/* The destructor of a resource type a component defined: its core
   function, called with the rep (CanonicalABI.md "canon resource.drop":
   `rt.dtor(h.rep)`). */
static weft_status call_core_dtor(const cm_resource *rt, uint32_t rep, void *env,
                                  weft_error *err) {
    (void)rt;
    dtor_env *d = env;
    weft_val arg = {.type = WEFT_I32, .of.i32 = (int32_t)rep};
    return weft_func_call(d->dtor, &arg, 1, NULL, 0, err);
}

/* ---- the walk ------------------------------------------------------- */

/* An instantiation's arguments, by name (a nested component's), or the
   host environment (the root's). */
typedef struct inst_args {
    uint32_t n;
    const cm_name *names;
    const cm_sort *sorts;
    const cm_item *items;
    const cm_host_env *env;
} inst_args;

static weft_status instantiate(weft_store *store, const cm_component *c, cm_inst *parent,
                               cm_inst *outer, cm_arena *arena, const inst_args *args,
                               cm_inst **out, weft_error *err);

static weft_status make_core_instance(cm_inst *inst, const cm_def *d, cm_item *it,
                                      weft_error *err) {
    cm_core_inst *ci = inst_alloc(inst, sizeof *ci, err);
    if (!ci) return WEFT_ERR_NOMEM;
    it->core_inst = ci;
    if (!d->u.inst.instantiate) { /* inline exports */
        uint32_t n = d->u.inst.nargs;
        ci->n = n;
        ci->names = n ? inst_alloc(inst, n * sizeof *ci->names, err) : NULL;
        ci->items = n ? inst_alloc(inst, n * sizeof *ci->items, err) : NULL;
        if (n && (!ci->names || !ci->items)) return WEFT_ERR_NOMEM;
        for (uint32_t i = 0; i < n; i++) {
            const cm_arg *a = &d->u.inst.args[i];
            ci->names[i] = a->name;
            ci->items[i] = inst->space[a->item.sort][a->item.idx].core;
        }
        return WEFT_OK;
    }
    weft_module *m = inst->space[CM_CORE_MODULE][d->u.inst.of].module;
    uint32_t n = weft_module_import_count(m);
    weft_extern *imports = n ? calloc(n, sizeof *imports) : NULL;
    if (n && !imports) return base_fail(err, WEFT_ERR_NOMEM, "out of memory instantiating a component");
    weft_status rc = WEFT_OK;
    for (uint32_t i = 0; i < n; i++) {
        weft_name mod, name;
        weft_externtype type;
        weft_module_import(m, i, &mod, &name, &type);
        const cm_arg *a = NULL;
        for (uint32_t k = 0; k < d->u.inst.nargs; k++)
            if (name_eq(d->u.inst.args[k].name, mod.data, mod.len)) a = &d->u.inst.args[k];
        if (!a || !core_export(inst->space[CM_CORE_INSTANCE][a->item.idx].core_inst, name.data,
                               name.len, &imports[i])) {
            /* the validator matched every import; only a core instance of
               unknown exports (none today) could get here */
            rc = base_fail(err, WEFT_ERR_LINK, "core instantiation: no `%.*s` `%.*s` among the arguments",
                           (int)mod.len, mod.data, (int)name.len, name.data);
            goto out;
        }
    }
    rc = weft_instance_new(inst->store, m, imports, n, &ci->inst, err);
out:
    free(imports);
    return rc;
}

static weft_status make_instance(cm_inst *inst, const cm_def *d, uint32_t idx, cm_item *it,
                                 weft_error *err) {
    uint32_t n = d->u.inst.nargs;
    if (!d->u.inst.instantiate) { /* inline exports */
        cm_rinst *ri = inst_alloc(inst, sizeof *ri, err);
        if (!ri) return WEFT_ERR_NOMEM;
        ri->exports = n ? inst_alloc(inst, n * sizeof *ri->exports, err) : NULL;
        if (n && !ri->exports) return WEFT_ERR_NOMEM;
        ri->n = n;
        for (uint32_t i = 0; i < n; i++) {
            const cm_arg *a = &d->u.inst.args[i];
            ri->exports[i] = (cm_rexport){a->name, a->item.sort, inst->space[a->item.sort][a->item.idx]};
        }
        it->inst = ri;
        return WEFT_OK;
    }
    const cm_item *ci = &inst->space[CM_COMPONENT][d->u.inst.of];
    cm_name *names = n ? inst_alloc(inst, n * sizeof *names, err) : NULL;
    cm_sort *sorts = n ? inst_alloc(inst, n * sizeof *sorts, err) : NULL;
    cm_item *items = n ? inst_alloc(inst, n * sizeof *items, err) : NULL;
    if (n && (!names || !sorts || !items)) return WEFT_ERR_NOMEM;
    for (uint32_t i = 0; i < n; i++) {
        const cm_arg *a = &d->u.inst.args[i];
        names[i] = a->name;
        sorts[i] = a->item.sort;
        items[i] = inst->space[a->item.sort][a->item.idx];
    }
    inst_args args = {n, names, sorts, items, NULL};
    cm_inst *child;
    weft_status rc = instantiate(inst->store, ci->comp, inst, ci->comp_env, inst->arena, &args,
                                 &child, err);
    if (rc != WEFT_OK) return rc;
    child->next_sibling = inst->children;
    inst->children = child;
    it->inst = &child->exports;
    /* the instance's type as this component sees it: its resources are
       the child's (Explainer.md: exported resources are fresh per
       instantiation) */
    return bind_insttype(inst, inst->comp->space[CM_INSTANCE][idx].instance, it->inst, 0, err);
}

static weft_status make_alias(cm_inst *inst, const cm_def *d, cm_sort sort, const cm_entry *e,
                              cm_item *it, weft_error *err) {
    const cm_alias *a = &d->u.alias;
    switch (a->target) {
    case 0: { /* export of a component instance */
        const cm_rexport *x = cm_rinst_get(inst->space[CM_INSTANCE][a->a].inst, a->name.s, a->name.len);
        /* a value type (record, variant, ...) has no run-time identity: a
           host instance does not list it */
        if (!x && sort == CM_TYPE && (!e->type || e->type->kind != CM_TYPE_RESOURCE)) return WEFT_OK;
        if (!x || x->sort != sort)
            return base_fail(err, WEFT_ERR_LINK, "alias: the instance has no %s `%.*s`",
                             cm_sort_name(sort), (int)a->name.len, a->name.s);
        *it = x->item;
        return WEFT_OK;
    }
    case 1: /* export of a core instance */
        if (!core_export(inst->space[CM_CORE_INSTANCE][a->a].core_inst, a->name.s, a->name.len,
                         &it->core))
            return base_fail(err, WEFT_ERR_LINK, "alias: the core instance has no export `%.*s`",
                             (int)a->name.len, a->name.s);
        return WEFT_OK;
    default: { /* outer: a counts the enclosing components out */
        cm_inst *o = inst;
        for (uint32_t k = 0; k < a->a && o; k++) o = o->outer;
        if (!o || a->b >= o->count[sort])
            return base_fail(err, WEFT_ERR_LINK, "alias outer %u %u: no such %s", a->a, a->b,
                             cm_sort_name(sort));
        *it = o->space[sort][a->b];
        return WEFT_OK;
    }
    }
}

static weft_status make_type(cm_inst *inst, const cm_entry *e, cm_item *it, weft_error *err) {
    const cm_type *t = e->type;
    if (!t || t->kind != CM_TYPE_RESOURCE || !t->res->defined) return WEFT_OK;
    cm_resource *r = inst_alloc(inst, sizeof *r, err);
    if (!r) return WEFT_ERR_NOMEM;
    r->name = t->res->res->name;
    r->owner = inst;
    if (t->res->dtor != UINT32_MAX) {
        dtor_env *d = inst_alloc(inst, sizeof *d, err);
        if (!d) return WEFT_ERR_NOMEM;
        d->inst = inst;
        d->dtor = inst->space[CM_CORE_FUNC][t->res->dtor].core.of.func;
        r->dtor = call_core_dtor;
        r->dtor_env = d;
    }
    it->res = r;
    return WEFT_OK;
}

static weft_status make_import(cm_inst *inst, const cm_def *d, const cm_entry *e,
                               const inst_args *args, cm_item *it, weft_error *err) {
    cm_name name = d->u.ie.name.name;
    if (args->env) { /* the root: from the host */
        if (e->instance == NULL || d->u.ie.name.type.sort != CM_INSTANCE)
            return base_fail(err, WEFT_ERR_LINK,
                             "import `%.*s`: weft's hosts give instances (interfaces) only, not a %s",
                             (int)name.len, name.s, cm_sort_name(d->u.ie.name.type.sort));
        const cm_host_instance *h =
            args->env ? cm_host_find(args->env->hosts, args->env->nhosts, name.s, name.len) : NULL;
        if (!h)
            return base_fail(err, WEFT_ERR_LINK,
                             "import `%.*s`: no such interface in this host (weft has WASI 0.2: "
                             "wasi:cli, wasi:io, wasi:clocks, wasi:random, wasi:filesystem)",
                             (int)name.len, name.s);
        return host_rinst(inst, h, args->env, e->instance, name, &it->inst, err);
    }
    for (uint32_t i = 0; i < args->n; i++) {
        if (name_eq(args->names[i], name.s, name.len)) {
            *it = args->items[i];
            if (e->instance) return bind_insttype(inst, e->instance, it->inst, 0, err);
            return WEFT_OK;
        }
    }
    return base_fail(err, WEFT_ERR_LINK, "instantiation: no argument for import `%.*s`",
                     (int)name.len, name.s);
}

static weft_status make_entry(cm_inst *inst, const cm_def *d, cm_sort sort, uint32_t idx,
                              const inst_args *args, weft_error *err) {
    const cm_entry *e = &inst->comp->space[sort][idx];
    cm_item *it = &inst->space[sort][idx];
    weft_status rc = WEFT_OK;
    switch (d->kind) {
    case CM_DEF_CORE_MODULE:
        it->module = d->u.module;
        break;
    case CM_DEF_CORE_INSTANCE:
        rc = make_core_instance(inst, d, it, err);
        break;
    case CM_DEF_CORE_TYPE:
        break;
    case CM_DEF_COMPONENT:
        it->comp = d->u.component;
        it->comp_env = inst;
        break;
    case CM_DEF_INSTANCE:
        rc = make_instance(inst, d, idx, it, err);
        break;
    case CM_DEF_ALIAS:
        rc = make_alias(inst, d, sort, e, it, err);
        break;
    case CM_DEF_TYPE:
        rc = make_type(inst, e, it, err);
        break;
    case CM_DEF_CANON:
        rc = cm_make_canon(inst, d, sort, idx, it, err);
        break;
    case CM_DEF_IMPORT:
        rc = make_import(inst, d, e, args, it, err);
        break;
    case CM_DEF_EXPORT:
        *it = inst->space[d->u.ie.item.sort][d->u.ie.item.idx];
        break;
    case CM_DEF_START:
    case CM_DEF_VALUE:
        return base_fail(err, WEFT_ERR_LINK, "component values and start functions (🪙) are not supported");
    }
    if (rc != WEFT_OK) return rc;
    /* A type entry that is a resource: its static identity now means this
       run-time one in this instance. */
    if (sort == CM_TYPE && e->type && e->type->kind == CM_TYPE_RESOURCE && it->res)
        rc = resmap_put(inst, e->type->res->res, it->res, err);
    return rc;
}

static weft_status instantiate(weft_store *store, const cm_component *c, cm_inst *parent,
                               cm_inst *outer, cm_arena *arena, const inst_args *args,
                               cm_inst **out, weft_error *err) {
    if (c->depth > CM_MAX_NESTING)
        return base_fail(err, WEFT_ERR_LIMIT, "components nest deeper than %d", CM_MAX_NESTING);
    cm_inst *inst = cm_arena_alloc(arena, sizeof *inst, 16);
    if (!inst) return base_fail(err, WEFT_ERR_NOMEM, "out of memory instantiating a component");
    memset(inst, 0, sizeof *inst);
    inst->arena = arena;
    inst->store = store;
    inst->comp = c;
    inst->parent = parent;
    inst->outer = outer;
    inst->may_enter = true;
    cm_inst_state_init(&inst->state, inst);
    *out = inst;
    for (int s = 0; s < CM_SORT_COUNT; s++) {
        if (!c->count[s]) continue;
        inst->space[s] = inst_alloc(inst, c->count[s] * sizeof(cm_item), err);
        if (!inst->space[s]) return WEFT_ERR_NOMEM;
    }
    uint32_t nexports = 0;
    for (uint32_t di = 0; di < c->ndefs; di++) nexports += c->defs[di].kind == CM_DEF_EXPORT;
    if (nexports && !(inst->exports.exports = inst_alloc(inst, nexports * sizeof(cm_rexport), err)))
        return WEFT_ERR_NOMEM;
    uint32_t cursor[CM_SORT_COUNT] = {0};
    for (uint32_t di = 0; di < c->ndefs; di++) {
        const cm_def *d = &c->defs[di];
        for (int s = 0; s < CM_SORT_COUNT; s++) {
            while (cursor[s] < c->count[s] && c->space[s][cursor[s]].def == di) {
                weft_status rc = make_entry(inst, d, (cm_sort)s, cursor[s], args, err);
                if (rc != WEFT_OK) return rc;
                inst->count[s] = ++cursor[s];
            }
        }
        if (d->kind == CM_DEF_EXPORT) /* the component's exports, by name */
            inst->exports.exports[inst->exports.n++] =
                (cm_rexport){d->u.ie.name.name, d->u.ie.item.sort,
                             inst->space[d->u.ie.item.sort][d->u.ie.item.idx]};
    }
    inst->exports.inst = inst;
    return WEFT_OK;
}

weft_status cm_instantiate(weft_store *store, const cm_component *c, const cm_host_env *env,
                           cm_inst **out, weft_error *err) {
    cm_arena *arena = calloc(1, sizeof *arena);
    if (!arena) return base_fail(err, WEFT_ERR_NOMEM, "out of memory instantiating a component");
    inst_args args = {0, NULL, NULL, NULL, env};
    cm_inst *inst = NULL;
    weft_status rc = instantiate(store, c, NULL, NULL, arena, &args, &inst, err);
    if (rc != WEFT_OK) {
        if (inst) cm_inst_free(inst);
        else free(arena);
        return rc;
    }
    *out = inst;
    return WEFT_OK;
}

static void free_states(cm_inst *inst) {
    for (cm_inst *c = inst->children; c; c = c->next_sibling) free_states(c);
    cm_inst_state_free(&inst->state);
}

void cm_inst_free(cm_inst *inst) {
    if (!inst) return;
    cm_arena *arena = inst->arena;
    free_states(inst);
    cm_arena_free(arena);
    free(arena);
}
