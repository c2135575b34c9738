/* module.c — modules: load, validate, imports and exports, share/obtain
   across threads, serialize/deserialize.

   A wasm_module_t holds a counted weft_module (immutable, compiled once,
   shared by every instance and thread; weft.h). It belongs to no store:
   the store only lends its engine to the load. */
#include "capi.h"

void capi_module_release(capi_obj *o) {
    weft_module_release(o->of.module);
    o->of.module = NULL;
}

/* A module object holding `m` (the reference is taken over). */
static wasm_module_t *capi_module_wrap(weft_module *m) {
    capi_obj *o = capi_obj_new(CAPI_MODULE);
    if (!o) {
        weft_module_release(m);
        return NULL;
    }
    o->of.module = m;
    return (wasm_module_t *)o;
}

static const weft_module *capi_module_of(const wasm_module_t *module) {
    const capi_obj *o = CAPI_OBJ(module);
    return o && o->kind == CAPI_MODULE ? o->of.module : NULL;
}

weft_module *weft_wasm_module(const wasm_module_t *module) { return (weft_module *)capi_module_of(module); }

wasm_module_t *weft_wasm_module_new(wasm_store_t *store, const wasm_byte_vec_t *binary, weft_error *err) {
    if (!store || !binary || (binary->size && !binary->data)) {
        if (err) {
            memset(err, 0, sizeof *err);
            err->status = WEFT_ERR_MISUSE;
            snprintf(err->message, sizeof err->message, "wasm_module_new: NULL argument");
        }
        return NULL;
    }
    weft_module *m = NULL;
    if (weft_module_load(store->engine->engine, (const uint8_t *)binary->data, binary->size, &m, err) != WEFT_OK)
        return NULL;
    return capi_module_wrap(m);
}

own wasm_module_t *wasm_module_new(wasm_store_t *store, const wasm_byte_vec_t *binary) {
    return weft_wasm_module_new(store, binary, NULL);
}

bool wasm_module_validate(wasm_store_t *store, const wasm_byte_vec_t *binary) {
    wasm_module_t *m = wasm_module_new(store, binary);
    wasm_module_delete(m);
    return m != NULL;
}

void wasm_module_imports(const wasm_module_t *module, own wasm_importtype_vec_t *out) {
    const weft_module *m = capi_module_of(module);
    uint32_t n = m ? weft_module_import_count(m) : 0;
    wasm_importtype_vec_new_uninitialized(out, n);
    for (uint32_t i = 0; i < out->size; i++) {
        weft_name mod, name;
        weft_externtype type;
        wasm_name_t wm, wn;
        if (weft_module_import(m, i, &mod, &name, &type) != WEFT_OK) goto fail;
        wasm_name_new(&wm, mod.len, mod.data);
        wasm_name_new(&wn, name.len, name.data);
        if (!(out->data[i] = wasm_importtype_new(&wm, &wn, capi_externtype_from_weft(&type)))) goto fail;
    }
    return;
fail: /* out of memory */
    wasm_importtype_vec_delete(out);
}

void wasm_module_exports(const wasm_module_t *module, own wasm_exporttype_vec_t *out) {
    const weft_module *m = capi_module_of(module);
    uint32_t n = m ? weft_module_export_count(m) : 0;
    wasm_exporttype_vec_new_uninitialized(out, n);
    for (uint32_t i = 0; i < out->size; i++) {
        weft_name name;
        weft_externtype type;
        wasm_name_t wn;
        if (weft_module_export(m, i, &name, &type) != WEFT_OK) goto fail;
        wasm_name_new(&wn, name.len, name.data);
        if (!(out->data[i] = wasm_exporttype_new(&wn, capi_externtype_from_weft(&type)))) goto fail;
    }
    return;
fail:
    wasm_exporttype_vec_delete(out);
}

/* ---- sharing across threads ---- */

/* A shared module: a counted weft_module, which is immutable and counted
   atomically, so any thread may obtain from it at any time. */
struct wasm_shared_module_t {
    weft_module *module;
};

own wasm_shared_module_t *wasm_module_share(const wasm_module_t *module) {
    const weft_module *m = capi_module_of(module);
    wasm_shared_module_t *s = m ? malloc(sizeof *s) : NULL;
    if (s) s->module = weft_module_retain((weft_module *)m);
    return s;
}

void wasm_shared_module_delete(own wasm_shared_module_t *shared) {
    if (!shared) return;
    weft_module_release(shared->module);
    free(shared);
}

own wasm_module_t *wasm_module_obtain(wasm_store_t *store, const wasm_shared_module_t *shared) {
    if (!store || !shared) return NULL;
    return capi_module_wrap(weft_module_retain(shared->module));
}

/* ---- serialization ---- */

/* "weftmod\0", a format version (u32, little-endian), the binary's length
   (u64, little-endian), then the module's binary, which weft keeps (its
   lazy translation reads function bodies from it). */
#define CAPI_SER_MAGIC "weftmod"
#define CAPI_SER_VERSION 1u
#define CAPI_SER_HEADER 20u

void wasm_module_serialize(const wasm_module_t *module, own wasm_byte_vec_t *out) {
    const weft_module *m = capi_module_of(module);
    size_t len = 0;
    const uint8_t *bytes = m ? capi_module_bytes(m, &len) : NULL;
    wasm_byte_vec_new_uninitialized(out, bytes ? CAPI_SER_HEADER + len : 0);
    if (!out->size) return;
    uint8_t *p = (uint8_t *)out->data;
    memcpy(p, CAPI_SER_MAGIC, 8); /* with its NUL */
    for (int i = 0; i < 4; i++) p[8 + i] = (uint8_t)(CAPI_SER_VERSION >> (8 * i));
    for (int i = 0; i < 8; i++) p[12 + i] = (uint8_t)((uint64_t)len >> (8 * i));
    memcpy(p + CAPI_SER_HEADER, bytes, len);
}

own wasm_module_t *wasm_module_deserialize(wasm_store_t *store, const wasm_byte_vec_t *bytes) {
    if (!store || !bytes || bytes->size < CAPI_SER_HEADER || !bytes->data) return NULL;
    const uint8_t *p = (const uint8_t *)bytes->data;
    if (memcmp(p, CAPI_SER_MAGIC, 8) != 0) return NULL;
    uint32_t version = 0;
    uint64_t len = 0;
    for (int i = 0; i < 4; i++) version |= (uint32_t)p[8 + i] << (8 * i);
    for (int i = 0; i < 8; i++) len |= (uint64_t)p[12 + i] << (8 * i);
    if (version != CAPI_SER_VERSION || len != bytes->size - CAPI_SER_HEADER) return NULL;
    wasm_byte_vec_t binary = {(size_t)len, (wasm_byte_t *)(p + CAPI_SER_HEADER)};
    return wasm_module_new(store, &binary);
}
