/*
 * component_test.c — the component loader's limits and refusals, on
 * binaries generated here (the spec scripts, tests/component, cover the
 * rest): weft_binary_kind; a core module given to weft_component_load and
 * a component to weft_module_load; nesting past CM_MAX_NESTING (components
 * and instance types) refused as malformed; a chain of value types past
 * CM_MAX_TYPE_DEPTH refused as invalid (every walk over types recurses at
 * most that deep); a value type of 2^28 bytes; the listing of imports and
 * exports with their printed types. Exits 0 when every check passes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "component/component.h"

typedef struct buf {
    uint8_t *p;
    size_t len, cap;
} buf;

static void put(buf *b, const void *data, size_t n) {
    if (b->len + n > b->cap) {
        b->cap = (b->len + n) * 2 + 64;
        b->p = realloc(b->p, b->cap);
        if (!b->p) abort();
    }
    memcpy(b->p + b->len, data, n);
    b->len += n;
}
static void put8(buf *b, uint8_t v) { put(b, &v, 1); }
static void uleb(buf *b, uint64_t v) {
    do {
        uint8_t c = v & 0x7f;
        v >>= 7;
        put8(b, c | (v ? 0x80 : 0));
    } while (v);
}
/* a non-negative s33 (a valtype's type index) */
static void sleb(buf *b, uint64_t v) {
    for (;;) {
        uint8_t c = v & 0x7f;
        v >>= 7;
        if (v == 0 && !(c & 0x40)) {
            put8(b, c);
            return;
        }
        put8(b, c | 0x80);
    }
}
static void preamble(buf *b) { put(b, "\0asm\x0d\0\x01\0", 8); }
/* section id with the contents of s */
static void section(buf *b, uint8_t id, const buf *s) {
    put8(b, id);
    uleb(b, s->len);
    put(b, s->p, s->len);
}

static weft_status load(weft_engine *e, const buf *b, weft_error *err) {
    weft_component *c = NULL;
    weft_status st = weft_component_load(e, b->p, b->len, &c, err);
    weft_component_release(c);
    return st;
}

/* n components each nested in the one before */
static void nested_components(buf *out, int n) {
    if (n == 0) {
        preamble(out);
        return;
    }
    buf inner = {0};
    nested_components(&inner, n - 1);
    preamble(out);
    section(out, 4, &inner);
    free(inner.p);
}

int main(void) {
    weft_engine *e = weft_engine_new(NULL);
    CHECK(e, "engine");
    weft_error err;

    /* the header */
    EXPECT(weft_binary_kind((const uint8_t *)"\0asm\x0d\0\x01\0", 8) == WEFT_BINARY_COMPONENT);
    EXPECT(weft_binary_kind((const uint8_t *)"\0asm\x01\0\0\0", 8) == WEFT_BINARY_MODULE);
    EXPECT(weft_binary_kind((const uint8_t *)"\0asm\x01\0", 6) == WEFT_BINARY_UNKNOWN);
    EXPECT(weft_binary_kind((const uint8_t *)"\0ASM\x01\0\0\0", 8) == WEFT_BINARY_UNKNOWN);
    EXPECT(weft_binary_kind(NULL, 0) == WEFT_BINARY_UNKNOWN);

    /* a module where a component is wanted */
    buf m = {0};
    put(&m, "\0asm\x01\0\0\0", 8);
    EXPECT(load(e, &m, &err) == WEFT_ERR_MALFORMED);
    EXPECTF(strstr(err.message, "core module"), "message: %s", err.message);
    free(m.p);

    /* the empty component loads, and lists nothing */
    buf c0 = {0};
    preamble(&c0);
    weft_component *c = NULL;
    EXPECT(weft_component_load(e, c0.p, c0.len, &c, &err) == WEFT_OK);
    EXPECT(c && weft_component_import_count(c) == 0 && weft_component_export_count(c) == 0);
    EXPECT(weft_component_import(c, 0, NULL, NULL, 0) == WEFT_ERR_NOT_FOUND);
    EXPECT(weft_component_retain(c) == c);
    weft_component_release(c);
    weft_component_release(c);
    weft_component_release(NULL);
    EXPECT(weft_component_load(e, NULL, 3, &c, &err) == WEFT_ERR_MISUSE);
    free(c0.p);

    /* nesting: 100 levels load, 101 are refused */
    buf deep = {0};
    nested_components(&deep, CM_MAX_NESTING);
    EXPECTF(load(e, &deep, &err) == WEFT_OK, "%d nested components: %s", CM_MAX_NESTING, err.message);
    free(deep.p);
    deep = (buf){0};
    nested_components(&deep, CM_MAX_NESTING + 1);
    EXPECT(load(e, &deep, &err) == WEFT_ERR_MALFORMED);
    EXPECTF(strstr(err.message, "nested deeper"), "message: %s", err.message);
    free(deep.p);

    /* instance types nested 1000 deep: (instance (type (instance (type ...)))) */
    buf t = {0}, types = {0};
    int levels = 1000;
    for (int i = 0; i < levels; i++) put(&t, "\x42\x01\x01", 3); /* instance, 1 decl, a type decl */
    put(&t, "\x42\x00", 2);
    put8(&types, 1);
    put(&types, t.p, t.len);
    buf ct = {0};
    preamble(&ct);
    section(&ct, 7, &types);
    EXPECT(load(e, &ct, &err) == WEFT_ERR_MALFORMED);
    EXPECTF(strstr(err.message, "nested deeper"), "message: %s", err.message);
    free(t.p);
    free(types.p);
    free(ct.p);

    /* a chain of option<option<...>> through type indices: each a new
       definition, so the decoder never recurses; the validator refuses the
       one past CM_MAX_TYPE_DEPTH */
    for (int n = CM_MAX_TYPE_DEPTH; n <= CM_MAX_TYPE_DEPTH + 1; n++) {
        buf sec = {0}, comp = {0};
        uleb(&sec, (uint64_t)n);
        put(&sec, "\x6b\x79", 2); /* option<u32> */
        for (int i = 1; i < n; i++) {
            put8(&sec, 0x6b);
            sleb(&sec, (uint64_t)(i - 1));
        }
        preamble(&comp);
        section(&comp, 7, &sec);
        weft_status st = load(e, &comp, &err);
        if (n <= CM_MAX_TYPE_DEPTH) EXPECTF(st == WEFT_OK, "depth %d: %s", n, err.message);
        else {
            EXPECT(st == WEFT_ERR_INVALID);
            EXPECTF(strstr(err.message, "nested deeper"), "message: %s", err.message);
        }
        free(sec.p);
        free(comp.p);
    }

    /* a record of 2 x 2^27-byte fixed lists is 2^28 bytes: refused */
    {
        buf sec = {0}, comp = {0};
        uleb(&sec, 2);
        put8(&sec, 0x67);
        put8(&sec, 0x7d); /* u8 */
        uleb(&sec, 1u << 27);
        put(&sec, "\x72\x02", 2);
        put(&sec, "\x01" "a" "\x00", 3);
        put(&sec, "\x01" "b" "\x00", 3);
        preamble(&comp);
        section(&comp, 7, &sec);
        EXPECT(load(e, &comp, &err) == WEFT_ERR_INVALID);
        EXPECTF(strstr(err.message, "maximum byte size"), "message: %s", err.message);
        free(sec.p);
        free(comp.p);
    }

    /* listing: (type (func (param "x" u32) (result string))) (import "f" (func (type 0))) */
    {
        buf sec = {0}, imp = {0}, comp = {0};
        put(&sec, "\x01\x40\x01\x01x\x79\x00\x73", 8);
        put(&imp, "\x01\x00\x01" "f" "\x01\x00", 6);
        preamble(&comp);
        section(&comp, 7, &sec);
        section(&comp, 10, &imp);
        c = NULL;
        EXPECTF(weft_component_load(e, comp.p, comp.len, &c, &err) == WEFT_OK, "%s", err.message);
        weft_name name;
        char type[64];
        EXPECT(c && weft_component_import_count(c) == 1);
        EXPECT(weft_component_import(c, 0, &name, type, sizeof type) == WEFT_OK);
        EXPECT(name.len == 1 && name.data[0] == 'f');
        EXPECTF(!strcmp(type, "func(x: u32) -> string"), "type: %s", type);
        EXPECT(weft_component_import(c, 0, &name, type, 8) == WEFT_OK && strlen(type) == 7);
        weft_component_release(c);
        free(sec.p);
        free(imp.p);
        free(comp.p);
    }

    weft_engine_free(e);
    printf("component_test: %d checks, %d failed\n", check_count, check_failures);
    return check_failures ? 1 : 0;
}
