/*
 * linker.c — resolving imports by (module, name) (the embedder's side of
 * §4.5.4: it supplies the external values in the module's import order).
 *
 * A definition list with copied names; names are compared with their
 * lengths since import names may hold NUL bytes. Lookups are linear: a
 * linker holds a few hundred names at most in practice (the spec tests'
 * registered modules, WASI's functions).
 */
#include "internal.h"

typedef struct rt_def {
    char *module, *name;
    size_t module_len, name_len;
    weft_extern ext;
} rt_def;

struct weft_linker {
    weft_store *store;
    BASE_VEC(rt_def) defs;
};

weft_linker *weft_linker_new(weft_store *store) {
    if (!store) return NULL;
    weft_linker *l = calloc(1, sizeof *l);
    if (!l) return NULL;
    l->store = store;
    return l;
}

void weft_linker_free(weft_linker *linker) {
    if (!linker) return;
    for (size_t i = 0; i < linker->defs.len; i++) {
        free(linker->defs.data[i].module);
        free(linker->defs.data[i].name);
    }
    BASE_VEC_FREE(linker->defs);
    free(linker);
}

static rt_def *rt_linker_find(weft_linker *l, const char *module, size_t module_len,
                              const char *name, size_t name_len) {
    for (size_t i = 0; i < l->defs.len; i++) {
        rt_def *d = &l->defs.data[i];
        if (d->module_len == module_len && d->name_len == name_len &&
            memcmp(d->module, module, module_len) == 0 && memcmp(d->name, name, name_len) == 0)
            return d;
    }
    return NULL;
}

weft_status weft_linker_get(const weft_linker *linker, weft_name module, weft_name name,
                            weft_extern *out) {
    if (!linker || !out || (module.len && !module.data) || (name.len && !name.data)) return WEFT_ERR_MISUSE;
    rt_def *d = rt_linker_find((weft_linker *)linker, module.data, module.len, name.data, name.len);
    if (!d) return WEFT_ERR_NOT_FOUND;
    *out = d->ext;
    return WEFT_OK;
}

/* Defines (module, name) with explicit lengths; replaces an earlier one. */
static weft_status rt_linker_define(weft_linker *l, const char *module, size_t module_len,
                                    const char *name, size_t name_len, weft_extern ext) {
    weft_store *owner = rt_extern_store(&ext);
    bool lent = owner && owner->lends_memories && ext.kind == WEFT_EXTERN_MEMORY; /* src/workers */
    if (owner != l->store && !lent) return WEFT_ERR_MISUSE;
    rt_def *d = rt_linker_find(l, module, module_len, name, name_len);
    if (d) {
        d->ext = ext;
        return WEFT_OK;
    }
    rt_def nd = {0};
    nd.module = base_strndup(module, module_len);
    nd.name = base_strndup(name, name_len);
    nd.module_len = module_len;
    nd.name_len = name_len;
    nd.ext = ext;
    if (!nd.module || !nd.name || !BASE_VEC_PUSH(l->defs, nd)) {
        free(nd.module);
        free(nd.name);
        return WEFT_ERR_NOMEM;
    }
    return WEFT_OK;
}

weft_status weft_linker_define(weft_linker *linker, const char *module, const char *name,
                               weft_extern ext) {
    if (!linker || !module || !name) return WEFT_ERR_MISUSE;
    return rt_linker_define(linker, module, strlen(module), name, strlen(name), ext);
}

weft_status weft_linker_define_n(weft_linker *linker, weft_name module, weft_name name,
                                 weft_extern ext) {
    if (!linker || (!module.data && module.len) || (!name.data && name.len)) return WEFT_ERR_MISUSE;
    return rt_linker_define(linker, module.data ? module.data : "", module.len,
                            name.data ? name.data : "", name.len, ext);
}

weft_status weft_linker_define_instance(weft_linker *linker, const char *module,
                                        weft_instance *inst) {
    if (!linker || !module || !inst) return WEFT_ERR_MISUSE;
    if (inst->store != linker->store) return WEFT_ERR_MISUSE;
    const mod_module *m = inst->module;
    size_t module_len = strlen(module);
    for (uint32_t i = 0; i < m->nexports; i++) {
        const mod_export *x = &m->exports[i];
        weft_extern ext;
        ext.kind = x->kind;
        switch (x->kind) {
        case WEFT_EXTERN_FUNC: ext.of.func = inst->funcs[x->index]; break;
        case WEFT_EXTERN_TABLE: ext.of.table = inst->tables[x->index]; break;
        case WEFT_EXTERN_MEMORY: ext.of.memory = inst->mems[x->index]; break;
        case WEFT_EXTERN_GLOBAL: ext.of.global = inst->globals[x->index]; break;
        case WEFT_EXTERN_TAG: ext.of.tag = inst->tags[x->index]; break;
        }
        weft_status st = rt_linker_define(linker, module, module_len, x->name, x->name_len, ext);
        if (st != WEFT_OK) return st;
    }
    return WEFT_OK;
}

weft_status weft_linker_instantiate(weft_linker *linker, weft_module *module,
                                    weft_instance **out, weft_error *err) {
    if (out) *out = NULL;
    if (!linker || !module || !out)
        return base_fail(err, WEFT_ERR_MISUSE, "weft_linker_instantiate: NULL argument");
    weft_extern *imports = base_calloc(module->nimports, sizeof *imports);
    if (!imports) return base_fail(err, WEFT_ERR_NOMEM, "out of memory resolving imports");
    weft_status st;
    for (uint32_t i = 0; i < module->nimports; i++) {
        const mod_import *imp = &module->imports[i];
        rt_def *d = rt_linker_find(linker, imp->module, imp->module_len, imp->name, imp->name_len);
        if (!d) {
            char mod[200], name[200];
            rt_quote_name(mod, sizeof mod, imp->module, imp->module_len);
            rt_quote_name(name, sizeof name, imp->name, imp->name_len);
            st = base_fail(err, WEFT_ERR_LINK, "unknown import: %s.%s", mod, name);
            goto done;
        }
        imports[i] = d->ext;
    }
    st = weft_instance_new(linker->store, module, imports, module->nimports, out, err);
done:
    free(imports);
    return st;
}
