/*
 * linker.c — the C API's component linker (weft.h "Host functions and
 * resources for components"): host functions and resource types by
 * interface and name, turned at each instantiation into the host
 * instances instance.c links (host.h), typed by the component's own
 * import declarations (so the linker's structural check holds by
 * construction, as wasmtime's untyped Linker::func_new), a C callback
 * behind each.
 */
#include "linker.h"

#include <stdlib.h>
#include <string.h>

#include "../base/base.h"

typedef struct lk_func {
    char *name;
    weft_component_host_fn fn;
    void *env;
    void (*env_free)(void *);
} lk_func;

/* weft.h's weft_component_resource. `res` is the resource's identity for
   the canonical ABI; it lives as long as the linker. */
struct weft_component_resource {
    cm_resource res;
    char *name;
    weft_component_resource_dtor dtor;
    void *env;
    void (*env_free)(void *);
};

typedef struct lk_iface {
    char *name;
    BASE_VEC(lk_func) funcs;
    BASE_VEC(weft_component_resource *) res;
} lk_iface;

struct weft_component_linker {
    _Atomic uint32_t refs;
    BASE_VEC(lk_iface *) ifaces;
};

struct weft_component_host_call {
    cm_host_call *hc;
    const cm_functype *ft;
};

weft_component_linker *weft_component_linker_new(void) {
    weft_component_linker *l = base_calloc(1, sizeof *l);
    if (l) l->refs = 1;
    return l;
}

static void linker_release(weft_component_linker *l) {
    if (!l || --l->refs) return;
    for (size_t i = 0; i < l->ifaces.len; i++) {
        lk_iface *f = l->ifaces.data[i];
        for (size_t j = 0; j < f->funcs.len; j++) {
            if (f->funcs.data[j].env_free) f->funcs.data[j].env_free(f->funcs.data[j].env);
            free(f->funcs.data[j].name);
        }
        for (size_t j = 0; j < f->res.len; j++) {
            weft_component_resource *r = f->res.data[j];
            if (r->env_free) r->env_free(r->env);
            free(r->name);
            free(r);
        }
        BASE_VEC_FREE(f->funcs);
        BASE_VEC_FREE(f->res);
        free(f->name);
        free(f);
    }
    BASE_VEC_FREE(l->ifaces);
    free(l);
}

void weft_component_linker_free(weft_component_linker *linker) { linker_release(linker); }

static lk_iface *iface_get(weft_component_linker *l, const char *name, bool make) {
    for (size_t i = 0; i < l->ifaces.len; i++)
        if (strcmp(l->ifaces.data[i]->name, name) == 0) return l->ifaces.data[i];
    if (!make) return NULL;
    lk_iface *f = base_calloc(1, sizeof *f);
    if (!f) return NULL;
    f->name = base_strndup(name, strlen(name));
    if (!f->name || !BASE_VEC_PUSH(l->ifaces, f)) {
        free(f->name);
        free(f);
        return NULL;
    }
    return f;
}

static bool iface_has(const lk_iface *f, const char *name) {
    for (size_t i = 0; i < f->funcs.len; i++)
        if (strcmp(f->funcs.data[i].name, name) == 0) return true;
    for (size_t i = 0; i < f->res.len; i++)
        if (strcmp(f->res.data[i]->name, name) == 0) return true;
    return false;
}

weft_status weft_component_linker_define_func(weft_component_linker *linker,
                                              const char *interface, const char *name,
                                              weft_component_host_fn fn, void *env,
                                              void (*env_free)(void *), weft_error *err) {
    base_error_clear(err);
    if (!linker || !interface || !name || !fn || !*interface || !*name)
        return base_fail(err, WEFT_ERR_MISUSE, "weft_component_linker_define_func: NULL or empty argument");
    lk_iface *f = iface_get(linker, interface, true);
    if (!f) return base_fail(err, WEFT_ERR_NOMEM, "out of memory defining a host function");
    if (iface_has(f, name))
        return base_fail(err, WEFT_ERR_MISUSE, "`%s` is already defined in `%s`", name, interface);
    lk_func lf = {base_strndup(name, strlen(name)), fn, env, env_free};
    if (!lf.name || !BASE_VEC_PUSH(f->funcs, lf)) {
        free(lf.name);
        return base_fail(err, WEFT_ERR_NOMEM, "out of memory defining a host function");
    }
    return WEFT_OK;
}

/* cm_resource.dtor: the host's destructor. */
static weft_status res_dtor(const cm_resource *rt, uint32_t rep, void *env, weft_error *err) {
    (void)rt;
    (void)err;
    weft_component_resource *r = env;
    if (r->dtor) r->dtor(r->env, rep);
    return WEFT_OK;
}

weft_status weft_component_linker_define_resource(weft_component_linker *linker,
                                                  const char *interface, const char *name,
                                                  weft_component_resource_dtor dtor, void *env,
                                                  void (*env_free)(void *),
                                                  weft_component_resource **out,
                                                  weft_error *err) {
    base_error_clear(err);
    if (out) *out = NULL;
    if (!linker || !interface || !name || !*interface || !*name)
        return base_fail(err, WEFT_ERR_MISUSE, "weft_component_linker_define_resource: NULL or empty argument");
    lk_iface *f = iface_get(linker, interface, true);
    if (!f) return base_fail(err, WEFT_ERR_NOMEM, "out of memory defining a host resource");
    if (iface_has(f, name))
        return base_fail(err, WEFT_ERR_MISUSE, "`%s` is already defined in `%s`", name, interface);
    weft_component_resource *r = base_calloc(1, sizeof *r);
    if (!r) return base_fail(err, WEFT_ERR_NOMEM, "out of memory defining a host resource");
    r->name = base_strndup(name, strlen(name));
    if (!r->name || !BASE_VEC_PUSH(f->res, r)) {
        free(r->name);
        free(r);
        return base_fail(err, WEFT_ERR_NOMEM, "out of memory defining a host resource");
    }
    r->dtor = dtor;
    r->env = env;
    r->env_free = env_free;
    r->res.name = r->name;
    r->res.dtor = res_dtor;
    r->res.dtor_env = r;
    r->res.owner = NULL; /* a host's: resource.new and .rep trap in every instance */
    if (out) *out = r;
    return WEFT_OK;
}

void weft_component_resource_drop(weft_component_resource *resource, uint32_t rep) {
    if (resource && resource->dtor) resource->dtor(resource->env, rep);
}

/* ---- calls ----------------------------------------------------------- */

weft_cval_pool *weft_component_host_call_pool(weft_component_host_call *call) {
    /* the call's arena seen as a pool (api.h: the arena is its only member) */
    return call ? (weft_cval_pool *)(void *)call->hc->arena : NULL;
}

const weft_ctype *weft_component_host_call_param(const weft_component_host_call *call,
                                                 uint32_t i) {
    if (!call || i >= call->ft->nparams) return NULL;
    return (const weft_ctype *)call->ft->params[i].type;
}

const weft_ctype *weft_component_host_call_result(const weft_component_host_call *call) {
    return call ? (const weft_ctype *)call->ft->result : NULL;
}

weft_caller *weft_component_host_call_caller(weft_component_host_call *call) {
    return call ? call->hc->caller : NULL;
}

/* cm_host_fn of every C API function: the callback behind it. */
static weft_status lk_call(cm_host_call *hc, const cm_val *args, cm_val *result,
                           weft_error *err) {
    const lk_func *f = hc->func->data;
    weft_component_host_call call = {hc, hc->func->type};
    weft_error local;
    if (!err) err = &local;
    base_error_clear(err);
    weft_status rc = f->fn(f->env, &call, args, call.ft->nparams, result, err);
    if (rc == WEFT_OK || rc == WEFT_ERR_EXIT) return rc;
    if (rc == WEFT_SUSPENDED)
        return base_fail(err, WEFT_ERR_TRAP, "host function `%s` returned WEFT_SUSPENDED, which "
                         "component host functions cannot", f->name);
    if (!err->message[0])
        base_fail(err, rc, "host function `%s` failed: %s", f->name, weft_status_name(rc));
    return rc;
}

/* ---- instantiation ---------------------------------------------------- */

/* What an instance made from a linker holds: the host instances built for
   it (in an arena) and the extra host's state. */
typedef struct lk_inst {
    weft_component_linker *linker;
    cm_arena arena;
    void *extra_ctx;
    void (*extra_free)(void *);
} lk_inst;

static void lk_inst_free(void *p) {
    lk_inst *li = p;
    if (!li) return;
    if (li->extra_free) li->extra_free(li->extra_ctx);
    cm_arena_free(&li->arena);
    linker_release(li->linker);
    free(li);
}

static size_t base_len(const char *s, size_t n) {
    const char *at = memchr(s, '@', n);
    return at ? (size_t)(at - s) : n;
}

/* Whether the linker's interface `have` serves an import named want. */
static bool iface_serves(const char *have, const char *want, size_t wlen) {
    size_t hlen = strlen(have), hb = base_len(have, hlen), wb = base_len(want, wlen);
    if (hb != wb || memcmp(have, want, hb) != 0) return false;
    if (hb == hlen || wb == wlen) return hb == hlen && wb == wlen;
    return cm_version_compatible(want + wb + 1, wlen - wb - 1, have + hb + 1, hlen - hb - 1);
}

static char *lk_strdup(cm_arena *a, const char *s, size_t n) {
    char *d = cm_arena_alloc(a, n + 1, 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

weft_status cm_linker_instantiate(weft_component_linker *linker, weft_store *store,
                                  weft_component *component, const cm_host_instance *extra,
                                  uint32_t nextra, void *extra_ctx, void (*extra_free)(void *),
                                  weft_component_instance **out, weft_error *err) {
    base_error_clear(err);
    if (!linker || !store || !component || !out) {
        if (extra_free) extra_free(extra_ctx);
        return base_fail(err, WEFT_ERR_MISUSE, "weft_component_linker_instantiate: NULL argument");
    }
    *out = NULL;
    lk_inst *li = base_calloc(1, sizeof *li);
    if (!li) {
        if (extra_free) extra_free(extra_ctx);
        return base_fail(err, WEFT_ERR_NOMEM, "out of memory instantiating a component");
    }
    li->linker = linker;
    linker->refs++;
    li->extra_ctx = extra_ctx;
    li->extra_free = extra_free;
    const cm_comptype *ct = &component->root->type;
    cm_host_instance *hosts =
        cm_arena_alloc(&li->arena, ((size_t)ct->nimports + nextra + 1) * sizeof *hosts, 16);
    if (!hosts) goto nomem;
    uint32_t nh = 0;
    for (uint32_t i = 0; i < ct->nimports; i++) {
        const cm_named *imp = &ct->imports[i];
        if (imp->type.sort != CM_INSTANCE || !imp->type.instance) continue;
        const lk_iface *f = NULL;
        for (size_t k = 0; k < linker->ifaces.len && !f; k++)
            if (iface_serves(linker->ifaces.data[k]->name, imp->name.s, imp->name.len))
                f = linker->ifaces.data[k];
        if (!f) continue;
        const cm_insttype *t = imp->type.instance;
        cm_host_instance *h = &hosts[nh++];
        memset(h, 0, sizeof *h);
        h->name = lk_strdup(&li->arena, imp->name.s, imp->name.len);
        cm_host_func *funcs = cm_arena_alloc(&li->arena, (t->nexports + 1) * sizeof *funcs, 16);
        cm_host_resource *res =
            cm_arena_alloc(&li->arena, (f->res.len + 1) * sizeof *res, 16);
        if (!h->name || !funcs || !res) goto nomem;
        for (uint32_t e = 0; e < t->nexports; e++) {
            const cm_named *x = &t->exports[e];
            if (x->type.sort != CM_FUNC) continue;
            for (size_t k = 0; k < f->funcs.len; k++) {
                const lk_func *lf = &f->funcs.data[k];
                if (strlen(lf->name) != x->name.len || memcmp(lf->name, x->name.s, x->name.len))
                    continue;
                /* the import's own type: what the component will lower */
                funcs[h->nfuncs++] = (cm_host_func){lf->name, x->type.func, lk_call, (void *)lf};
                break;
            }
        }
        for (size_t k = 0; k < f->res.len; k++)
            res[h->nresources++] = (cm_host_resource){f->res.data[k]->name, &f->res.data[k]->res};
        h->funcs = funcs;
        h->resources = res;
    }
    /* the extra host's instances, but those of an interface the linker serves */
    for (uint32_t i = 0; i < nextra; i++) {
        size_t en = strlen(extra[i].name), eb = base_len(extra[i].name, en);
        bool shadowed = false;
        for (uint32_t k = 0; k < nh && !shadowed; k++)
            shadowed = base_len(hosts[k].name, strlen(hosts[k].name)) == eb &&
                       memcmp(hosts[k].name, extra[i].name, eb) == 0;
        if (!shadowed) hosts[nh++] = extra[i];
    }
    cm_host_env env = {hosts, nh, extra_ctx};
    return cm_api_instantiate(store, component, &env, li, lk_inst_free, out, err);
nomem:
    lk_inst_free(li);
    return base_fail(err, WEFT_ERR_NOMEM, "out of memory instantiating a component");
}
