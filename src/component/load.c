/*
 * load.c — weft_component_load and the inspection of a component (weft.h):
 * bytes → decode.c → validate.c → a shared, immutable weft_component.
 */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "../base/base.h"
#include "cabi.h"
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


/* ---- the canonical ABI's layout of every type (cabi.h cm_abi_layout) --
   Done once at load, so instances (on any thread) only read it. */

static weft_status layout_extern(const cm_extern *e, uint32_t depth, weft_error *err);

static weft_status layout_val(const cm_valtype *t, weft_error *err) {
    return t ? cm_abi_layout((cm_valtype *)t, err) : WEFT_OK;
}

static weft_status layout_func(const cm_functype *f, weft_error *err) {
    if (!f) return WEFT_OK;
    for (uint32_t i = 0; i < f->nparams; i++) {
        weft_status rc = layout_val(f->params[i].type, err);
        if (rc != WEFT_OK) return rc;
    }
    return layout_val(f->result, err);
}

static weft_status layout_named(const cm_named *n, uint32_t count, uint32_t depth, weft_error *err) {
    for (uint32_t i = 0; i < count; i++) {
        weft_status rc = layout_extern(&n[i].type, depth + 1, err);
        if (rc != WEFT_OK) return rc;
    }
    return WEFT_OK;
}

static weft_status layout_type(const cm_type *t, uint32_t depth, weft_error *err) {
    if (!t) return WEFT_OK;
    switch (t->kind) {
    case CM_TYPE_VAL: return layout_val(t->val, err);
    case CM_TYPE_FUNC: return layout_func(t->func, err);
    case CM_TYPE_COMPONENT:
        if (!t->comp) return WEFT_OK;
        if (layout_named(t->comp->imports, t->comp->nimports, depth, err) != WEFT_OK) return err->status;
        return layout_named(t->comp->exports, t->comp->nexports, depth, err);
    case CM_TYPE_INSTANCE:
        return t->inst ? layout_named(t->inst->exports, t->inst->nexports, depth, err) : WEFT_OK;
    default: return WEFT_OK;
    }
}

static weft_status layout_extern(const cm_extern *e, uint32_t depth, weft_error *err) {
    if (depth > 4 * CM_MAX_NESTING) return base_fail(err, WEFT_ERR_LIMIT, "types nest too deep");
    weft_status rc = layout_func(e->func, err);
    if (rc == WEFT_OK) rc = layout_val(e->value, err);
    if (rc == WEFT_OK) rc = layout_type(e->type, depth, err);
    if (rc == WEFT_OK && e->component) {
        rc = layout_named(e->component->imports, e->component->nimports, depth, err);
        if (rc == WEFT_OK) rc = layout_named(e->component->exports, e->component->nexports, depth, err);
    }
    if (rc == WEFT_OK && e->instance) rc = layout_named(e->instance->exports, e->instance->nexports, depth, err);
    return rc;
}

static weft_status layout_component(const cm_component *c, weft_error *err) {
    for (int s = 0; s < CM_SORT_COUNT; s++) {
        for (uint32_t i = 0; i < c->count[s]; i++) {
            const cm_entry *e = &c->space[s][i];
            cm_extern x = {.sort = (cm_sort)s, .func = e->func, .value = e->value, .type = e->type,
                           .component = e->component, .instance = e->instance};
            weft_status rc = layout_extern(&x, 0, err);
            if (rc != WEFT_OK) return rc;
        }
    }
    for (uint32_t i = 0; i < c->ndefs; i++) {
        if (c->defs[i].kind != CM_DEF_COMPONENT) continue;
        weft_status rc = layout_component(c->defs[i].u.component, err);
        if (rc != WEFT_OK) return rc;
    }
    return WEFT_OK;
}

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
    if (st == WEFT_OK) st = layout_component(c->root, err);
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
