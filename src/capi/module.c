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

/* The serialized form, all numbers little-endian:
     0  "weftmod\0"
     8  format version (u32): 2
    12  the binary's length (u64)
    20  the weft version that wrote it (WEFT_VERSION, NUL-padded to 16)
    36  checksum (u64): 64-bit FNV-1a over bytes 0-35 and the binary
    44  the module's binary, which weft keeps (its lazy translation reads
        function bodies from it)
   Deserializing checks all of it before the binary is decoded and
   validated again, so bytes altered on disk or in transit are refused
   even when they still make a valid module (format 1, before issue 39,
   had no checksum and is refused). */
#define CAPI_SER_MAGIC "weftmod"
#define CAPI_SER_VERSION 2u
#define CAPI_SER_TAG 16u
#define CAPI_SER_SUM_AT 36u
#define CAPI_SER_HEADER 44u

static uint64_t capi_fnv1a(uint64_t h, const uint8_t *p, size_t n) {
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 0x100000001b3ull;
    return h;
}

/* The checksum of a serialized module of `len` binary bytes at p. */
static uint64_t capi_ser_sum(const uint8_t *p, size_t len) {
    uint64_t h = capi_fnv1a(0xcbf29ce484222325ull, p, CAPI_SER_SUM_AT);
    return capi_fnv1a(h, p + CAPI_SER_HEADER, len);
}

void wasm_module_serialize(const wasm_module_t *module, own wasm_byte_vec_t *out) {
    const weft_module *m = capi_module_of(module);
    size_t len = 0;
    const uint8_t *bytes = m ? capi_module_bytes(m, &len) : NULL;
    wasm_byte_vec_new_uninitialized(out, bytes ? CAPI_SER_HEADER + len : 0);
    if (!out->size) return;
    uint8_t *p = (uint8_t *)out->data;
    memset(p, 0, CAPI_SER_HEADER);
    memcpy(p, CAPI_SER_MAGIC, 8); /* with its NUL */
    for (int i = 0; i < 4; i++) p[8 + i] = (uint8_t)(CAPI_SER_VERSION >> (8 * i));
    for (int i = 0; i < 8; i++) p[12 + i] = (uint8_t)((uint64_t)len >> (8 * i));
    strncpy((char *)p + 20, WEFT_VERSION, CAPI_SER_TAG - 1);
    memcpy(p + CAPI_SER_HEADER, bytes, len);
    uint64_t sum = capi_ser_sum(p, len);
    for (int i = 0; i < 8; i++) p[CAPI_SER_SUM_AT + i] = (uint8_t)(sum >> (8 * i));
}

/* Fills err (may be NULL) with a refusal; returns NULL. */
static wasm_module_t *capi_ser_refuse(weft_error *err, weft_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static wasm_module_t *capi_ser_refuse(weft_error *err, weft_status st, const char *fmt, ...) {
    if (!err) return NULL;
    memset(err, 0, sizeof *err);
    err->status = st;
    int n = snprintf(err->message, sizeof err->message, "wasm_module_deserialize: ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message + n, sizeof err->message - (size_t)n, fmt, ap);
    va_end(ap);
    return NULL;
}

wasm_module_t *weft_wasm_module_deserialize(wasm_store_t *store, const wasm_byte_vec_t *bytes, weft_error *err) {
    if (!store || !bytes || (bytes->size && !bytes->data))
        return capi_ser_refuse(err, WEFT_ERR_MISUSE, "NULL argument");
    const uint8_t *p = (const uint8_t *)bytes->data;
    if (bytes->size < CAPI_SER_HEADER || memcmp(p, CAPI_SER_MAGIC, 8) != 0)
        return capi_ser_refuse(err, WEFT_ERR_MALFORMED, "not bytes made by wasm_module_serialize "
                                                        "(no \"weftmod\" header of %u bytes)", CAPI_SER_HEADER);
    uint32_t version = 0;
    uint64_t len = 0, sum = 0;
    for (int i = 0; i < 4; i++) version |= (uint32_t)p[8 + i] << (8 * i);
    for (int i = 0; i < 8; i++) len |= (uint64_t)p[12 + i] << (8 * i);
    for (int i = 0; i < 8; i++) sum |= (uint64_t)p[CAPI_SER_SUM_AT + i] << (8 * i);
    if (version != CAPI_SER_VERSION)
        return capi_ser_refuse(err, WEFT_ERR_MALFORMED, "serialized in format %u; this weft (%s) reads "
                               "format %u: serialize the module again", version, WEFT_VERSION, CAPI_SER_VERSION);
    char tag[CAPI_SER_TAG + 1] = {0};
    memcpy(tag, p + 20, CAPI_SER_TAG);
    if (strcmp(tag, WEFT_VERSION) != 0)
        return capi_ser_refuse(err, WEFT_ERR_MALFORMED, "serialized by weft %.16s; this is weft %s: "
                               "serialize the module again", tag, WEFT_VERSION);
    if (len != bytes->size - CAPI_SER_HEADER)
        return capi_ser_refuse(err, WEFT_ERR_MALFORMED, "the header says %llu bytes of module and %zu follow "
                               "(truncated or padded)", (unsigned long long)len, bytes->size - CAPI_SER_HEADER);
    if (capi_ser_sum(p, (size_t)len) != sum)
        return capi_ser_refuse(err, WEFT_ERR_MALFORMED, "checksum mismatch: the serialized bytes were altered "
                                                        "or corrupted after wasm_module_serialize");
    wasm_byte_vec_t binary = {(size_t)len, (wasm_byte_t *)(p + CAPI_SER_HEADER)};
    return weft_wasm_module_new(store, &binary, err);
}

own wasm_module_t *wasm_module_deserialize(wasm_store_t *store, const wasm_byte_vec_t *bytes) {
    return weft_wasm_module_deserialize(store, bytes, NULL);
}
