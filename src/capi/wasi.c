/* wasi.c — WASI preview1 for a wasm.h host (weft_wasm.h): the store's WASI
   functions, defined by weft_wasi_define in a linker of the store's own,
   and the import vector of a module with them filled in. */
#include "capi.h"

weft_status weft_wasi_define_store(wasm_store_t *store, weft_wasi *wasi, weft_error *err) {
    if (!store || !wasi) {
        if (err) {
            memset(err, 0, sizeof *err);
            err->status = WEFT_ERR_MISUSE;
            snprintf(err->message, sizeof err->message, "weft_wasi_define_store: NULL argument");
        }
        return WEFT_ERR_MISUSE;
    }
    weft_linker *l = weft_linker_new(store->store);
    if (!l) {
        if (err) {
            memset(err, 0, sizeof *err);
            err->status = WEFT_ERR_NOMEM;
            snprintf(err->message, sizeof err->message, "out of memory");
        }
        return WEFT_ERR_NOMEM;
    }
    weft_status st = weft_wasi_define(wasi, store->store, l, err);
    if (st != WEFT_OK) {
        weft_linker_free(l); /* functions already made stay in the store */
        return st;
    }
    weft_linker_free(store->wasi_linker);
    store->wasi_linker = l;
    return WEFT_OK;
}

size_t weft_wasi_imports(wasm_store_t *store, const wasm_module_t *module, wasm_extern_vec_t *out) {
    weft_module *m = weft_wasm_module(module);
    uint32_t n = store && m ? weft_module_import_count(m) : 0;
    wasm_extern_vec_new_uninitialized(out, n);
    size_t missing = out->size;
    for (uint32_t i = 0; i < out->size && store->wasi_linker; i++) {
        weft_name mod, name;
        weft_extern ext;
        if (weft_module_import(m, i, &mod, &name, NULL) != WEFT_OK ||
            weft_linker_get(store->wasi_linker, mod, name, &ext) != WEFT_OK || ext.kind != WEFT_EXTERN_FUNC)
            continue;
        out->data[i] = (wasm_extern_t *)capi_obj_ref(capi_store_obj(store, CAPI_FUNC, ext.of.func));
        if (out->data[i]) missing--;
    }
    return missing;
}
