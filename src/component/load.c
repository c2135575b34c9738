/*
 * load.c — weft_component_load and the inspection of a component (weft.h):
 * bytes → decode.c → validate.c → a shared, immutable weft_component.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../base/base.h"
#include "component.h"

weft_binary_type weft_binary_kind(const uint8_t *bytes, size_t len) {
    if (!bytes || len < 8 || memcmp(bytes, "\0asm", 4) != 0) return WEFT_BINARY_UNKNOWN;
    if (bytes[6] == 1 && bytes[7] == 0) return WEFT_BINARY_COMPONENT; /* layer 1 */
    if (bytes[4] == 1 && bytes[5] == 0 && bytes[6] == 0 && bytes[7] == 0) return WEFT_BINARY_MODULE;
    return WEFT_BINARY_UNKNOWN;
}

/* A component's arena is bounded: a binary of n bytes needs far less than
   CM_ARENA_PER_BYTE * n + 64 MiB of types and definitions. */
#define CM_ARENA_PER_BYTE 512u

static weft_status load_owned(weft_engine *engine, uint8_t *copy, size_t len, weft_component **out,
                              weft_error *err) {
    weft_component *c = base_calloc(1, sizeof *c);
    if (!c) {
        free(copy);
        return base_fail(err, WEFT_ERR_NOMEM, "out of memory loading a component");
    }
    atomic_init(&c->refcount, 1);
    c->engine = engine;
    c->bytes = copy;
    c->len = len;
    c->arena.limit = (size_t)64 << 20;
    if (len < ((size_t)1 << 40) / CM_ARENA_PER_BYTE) c->arena.limit += len * CM_ARENA_PER_BYTE;
    weft_status st = cm_decode(engine, &c->arena, copy, len, &c->root, err);
    if (st == WEFT_OK) st = cm_validate(c->root, err);
    if (st != WEFT_OK) {
        if (st == WEFT_ERR_NOMEM && c->arena.total + (1u << 20) > c->arena.limit)
            base_fail(err, WEFT_ERR_LIMIT, "the component's types need more than %zu MiB (weft's limit for a "
                      "component of %zu bytes)", c->arena.limit >> 20, len);
        weft_component_release(c);
        return st == WEFT_ERR_NOMEM && err && err->status == WEFT_ERR_LIMIT ? WEFT_ERR_LIMIT : st;
    }
    *out = c;
    return WEFT_OK;
}

weft_status weft_component_load(weft_engine *engine, const uint8_t *bytes, size_t len, weft_component **out,
                                weft_error *err) {
    base_error_clear(err);
    if (!out || !engine || (!bytes && len)) return base_fail(err, WEFT_ERR_MISUSE, "weft_component_load: NULL argument");
    *out = NULL;
    uint8_t *copy = malloc(len ? len : 1);
    if (!copy) return base_fail(err, WEFT_ERR_NOMEM, "out of memory loading a component");
    if (len) memcpy(copy, bytes, len);
    return load_owned(engine, copy, len, out, err);
}

weft_status weft_component_load_file(weft_engine *engine, const char *path, weft_component **out, weft_error *err) {
    base_error_clear(err);
    if (!out || !engine || !path) return base_fail(err, WEFT_ERR_MISUSE, "weft_component_load_file: NULL argument");
    *out = NULL;
    uint8_t *bytes;
    size_t len, cap;
    weft_status st = base_read_file(path, &bytes, &len, &cap, err);
    if (st != WEFT_OK) return st;
    /* base_read_file's buffer may be a bulk mapping: keep a malloc'd copy */
    uint8_t *copy = malloc(len ? len : 1);
    if (copy && len) memcpy(copy, bytes, len);
    base_bulk_free(bytes, cap);
    if (!copy) return base_fail(err, WEFT_ERR_NOMEM, "out of memory loading a component");
    return load_owned(engine, copy, len, out, err);
}

weft_component *weft_component_retain(weft_component *c) {
    if (c) atomic_fetch_add_explicit(&c->refcount, 1, memory_order_relaxed);
    return c;
}

void weft_component_release(weft_component *c) {
    if (!c || atomic_fetch_sub_explicit(&c->refcount, 1, memory_order_acq_rel) != 1) return;
    cm_component_free_modules(c->root);
    cm_arena_free(&c->arena);
    free(c->bytes);
    free(c);
}

static weft_status named_at(const cm_named *list, uint32_t n, uint32_t index, weft_name *name, char *type,
                            size_t cap) {
    if (index >= n) return WEFT_ERR_NOT_FOUND;
    if (name) *name = (weft_name){list[index].name.s, list[index].name.len};
    if (type && cap) cm_extern_str(&list[index].type, type, cap);
    return WEFT_OK;
}

uint32_t weft_component_import_count(const weft_component *c) { return c && c->root ? c->root->type.nimports : 0; }
uint32_t weft_component_export_count(const weft_component *c) { return c && c->root ? c->root->type.nexports : 0; }

weft_status weft_component_import(const weft_component *c, uint32_t index, weft_name *name, char *type, size_t cap) {
    if (!c) return WEFT_ERR_MISUSE;
    return named_at(c->root->type.imports, c->root->type.nimports, index, name, type, cap);
}
weft_status weft_component_export(const weft_component *c, uint32_t index, weft_name *name, char *type, size_t cap) {
    if (!c) return WEFT_ERR_MISUSE;
    return named_at(c->root->type.exports, c->root->type.nexports, index, name, type, cap);
}
