/* instance.c — instances: wasm_instance_new on weft_instance_new, and
   their exports. An instance is owned by its store (weft.h), so its
   exports keep working after wasm_instance_delete, until the store goes. */
#include "capi.h"

/* "env.f", the import's names for messages. */
static void capi_import_name(const weft_module *m, uint32_t i, char *buf, size_t cap) {
    weft_name mod = {"", 0}, name = {"", 0};
    weft_module_import(m, i, &mod, &name, NULL);
    snprintf(buf, cap, "%.*s.%.*s", (int)(mod.len > 100 ? 100 : mod.len), mod.data,
             (int)(name.len > 100 ? 100 : name.len), name.data);
}

static const char *capi_kind_name(int kind) {
    switch (kind) {
    case CAPI_FUNC: return "a function";
    case CAPI_GLOBAL: return "a global";
    case CAPI_TABLE: return "a table";
    case CAPI_MEMORY: return "a memory";
    }
    return "not an extern";
}

own wasm_instance_t *wasm_instance_new(wasm_store_t *store, const wasm_module_t *module,
                                       const wasm_extern_vec_t *imports, own wasm_trap_t **trap) {
    capi_obj *t = NULL;
    weft_extern *ext = NULL;
    wasm_instance_t *result = NULL;
    char name[240];
    if (trap) *trap = NULL;
    weft_module *m = weft_wasm_module(module);
    if (!store || !m) {
        t = capi_trap_fmt("wasm_instance_new: %s", !store ? "NULL store" : "not a module");
        goto out;
    }
    uint32_t n = weft_module_import_count(m);
    size_t given = imports ? imports->size : 0;
    if (given != n) {
        t = capi_trap_fmt("wasm_instance_new: the module has %u imports, %zu were given", n, given);
        goto out;
    }
    ext = n ? base_calloc(n, sizeof *ext) : NULL;
    if (n && !ext) {
        t = capi_trap_fmt("wasm_instance_new: out of memory");
        goto out;
    }
    for (uint32_t i = 0; i < n; i++) {
        const capi_obj *o = CAPI_OBJ(imports->data[i]);
        if (!o || !CAPI_IS_EXTERN(o->kind) || !weft_wasm_extern(imports->data[i], &ext[i])) {
            capi_import_name(m, i, name, sizeof name);
            t = capi_trap_fmt("wasm_instance_new: import %u (%s): %s", i, name,
                              !o ? "missing (NULL)" : !CAPI_IS_EXTERN(o->kind) ? "not an extern"
                                                                               : "its store was deleted");
            goto out;
        }
        if (o->store != store && !(o->kind == CAPI_MEMORY && o->store && weft_memory_limits(o->of.memory).shared)) {
            capi_import_name(m, i, name, sizeof name);
            t = capi_trap_fmt("wasm_instance_new: import %u (%s): %s of another store", i, name,
                              capi_kind_name(o->kind));
            goto out;
        }
    }
    weft_error err;
    weft_instance *inst = NULL;
    weft_status st = weft_instance_new(store->store, m, ext, n, &inst, &err);
    if (st != WEFT_OK) {
        t = capi_trap_from_error(store, &err, st, NULL);
        goto out;
    }
    result = (wasm_instance_t *)capi_obj_ref(capi_store_obj(store, CAPI_INSTANCE, inst));
    if (!result) t = capi_trap_fmt("wasm_instance_new: out of memory");
out:
    free(ext);
    if (trap) *trap = (wasm_trap_t *)t;
    else capi_obj_unref(t);
    return result;
}

void wasm_instance_exports(const wasm_instance_t *instance, own wasm_extern_vec_t *out) {
    const capi_obj *o = CAPI_OBJ(instance);
    weft_instance *inst = o && o->kind == CAPI_INSTANCE ? o->of.instance : NULL;
    weft_module *m = inst ? weft_instance_module(inst) : NULL;
    wasm_extern_vec_new_uninitialized(out, m ? weft_module_export_count(m) : 0);
    for (uint32_t i = 0; i < out->size; i++) {
        weft_name name;
        weft_extern ext;
        if (weft_module_export(m, i, &name, NULL) != WEFT_OK ||
            weft_instance_export_n(inst, name.data, name.len, &ext) != WEFT_OK)
            goto fail;
        capi_kind kind = ext.kind == WEFT_EXTERN_FUNC ? CAPI_FUNC
                         : ext.kind == WEFT_EXTERN_GLOBAL ? CAPI_GLOBAL
                         : ext.kind == WEFT_EXTERN_TABLE ? CAPI_TABLE
                                                          : CAPI_MEMORY;
        void *ptr = ext.kind == WEFT_EXTERN_FUNC ? (void *)ext.of.func
                    : ext.kind == WEFT_EXTERN_GLOBAL ? (void *)ext.of.global
                    : ext.kind == WEFT_EXTERN_TABLE ? (void *)ext.of.table
                                                     : (void *)ext.of.memory;
        if (!(out->data[i] = (wasm_extern_t *)capi_obj_ref(capi_store_obj(o->store, kind, ptr)))) goto fail;
    }
    return;
fail: /* out of memory */
    wasm_extern_vec_delete(out);
}

weft_instance *weft_wasm_instance(const wasm_instance_t *instance) {
    const capi_obj *o = CAPI_OBJ(instance);
    return o && o->kind == CAPI_INSTANCE ? o->of.instance : NULL;
}
