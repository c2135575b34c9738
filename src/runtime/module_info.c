/* module_info.c — the public view of a module's imports, exports and
   function names. Everything returned is borrowed from the module. */
#include "internal.h"

static weft_functype rt_public_functype(const mod_functype *t) {
    weft_functype f;
    f.nparams = t->nparams;
    f.nresults = t->nresults;
    f.params = t->pub_params;
    f.results = t->pub_params + t->nparams;
    return f;
}

bool weft_name_is(weft_name name, const char *s) {
    size_t n = strlen(s);
    return name.len == n && (n == 0 || memcmp(name.data, s, n) == 0);
}

uint32_t weft_module_import_count(const weft_module *module) {
    return module ? module->nimports : 0;
}

weft_status weft_module_import(const weft_module *module, uint32_t index,
                               weft_name *module_name, weft_name *name,
                               weft_externtype *type) {
    if (!module) return WEFT_ERR_MISUSE;
    if (index >= module->nimports) return WEFT_ERR_NOT_FOUND;
    const mod_import *imp = &module->imports[index];
    if (module_name) *module_name = (weft_name){imp->module, imp->module_len};
    if (name) *name = (weft_name){imp->name, imp->name_len};
    if (type) {
        memset(type, 0, sizeof *type);
        type->kind = imp->kind;
        switch (imp->kind) {
        case WEFT_EXTERN_FUNC: type->func = rt_public_functype(&module->types[imp->type_index]); break;
        case WEFT_EXTERN_TABLE:
            type->table_elem = imp->table.elem;
            type->limits = imp->table.limits;
            break;
        case WEFT_EXTERN_MEMORY: type->limits = imp->memory; break;
        case WEFT_EXTERN_GLOBAL:
            type->global_type = imp->global.type;
            type->global_mutable = imp->global.mut;
            break;
        case WEFT_EXTERN_TAG: type->func = rt_public_functype(&module->types[imp->type_index]); break;
        }
    }
    return WEFT_OK;
}

uint32_t weft_module_export_count(const weft_module *module) {
    return module ? module->nexports : 0;
}

weft_status weft_module_export(const weft_module *module, uint32_t index,
                               weft_name *name, weft_externtype *type) {
    if (!module) return WEFT_ERR_MISUSE;
    if (index >= module->nexports) return WEFT_ERR_NOT_FOUND;
    const mod_export *x = &module->exports[index];
    if (name) *name = (weft_name){x->name, x->name_len};
    if (type) {
        memset(type, 0, sizeof *type);
        type->kind = x->kind;
        switch (x->kind) {
        case WEFT_EXTERN_FUNC: type->func = rt_public_functype(mod_func_type(module, x->index)); break;
        case WEFT_EXTERN_TABLE:
            type->table_elem = module->tables[x->index].elem;
            type->limits = module->tables[x->index].limits;
            break;
        case WEFT_EXTERN_MEMORY: type->limits = module->mems[x->index]; break;
        case WEFT_EXTERN_GLOBAL:
            type->global_type = module->global_types[x->index].type;
            type->global_mutable = module->global_types[x->index].mut;
            break;
        case WEFT_EXTERN_TAG: type->func = rt_public_functype(mod_tag_type(module, x->index)); break;
        }
    }
    return WEFT_OK;
}

uint32_t weft_module_custom_count(const weft_module *module) {
    return module ? module->ncustoms : 0;
}

weft_status weft_module_custom(const weft_module *module, uint32_t index, weft_name *name,
                               const uint8_t **data, size_t *len) {
    if (!module) return WEFT_ERR_MISUSE;
    if (index >= module->ncustoms) return WEFT_ERR_NOT_FOUND;
    const mod_custom *cs = &module->customs[index];
    if (name) *name = (weft_name){cs->name, cs->name_len};
    if (data) *data = module->bytes + cs->offset;
    if (len) *len = cs->len;
    return WEFT_OK;
}

const char *weft_module_func_name(const weft_module *module, uint32_t func_index) {
    if (!module || !module->func_names || func_index >= module->nfuncs) return NULL;
    return module->func_names[func_index];
}
