/*
 * component.c — fuzz target: decode and validate arbitrary bytes as a
 * component (weft_component_load: src/component/decode.c, validate.c, and
 * the core module loader for its core modules), then list every import and
 * export with its printed type, as `weft validate` and an embedder would.
 *
 * The property: any input loads or is refused with a status that says why
 * (malformed, invalid, out of memory, a limit) and a non-empty message;
 * never a crash, a leak, a sanitizer report or unbounded recursion (deep
 * nestings are refused at CM_MAX_NESTING). Seeds: the spec scripts'
 * components (tests/component/data), a few dozen in fuzz/corpus/component.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "weft.h"

static weft_engine *engine;
static volatile size_t sink;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    engine = weft_engine_new(NULL);
    if (!engine) abort();
    return 0;
}

static void list(const weft_component *c, bool imports) {
    uint32_t n = imports ? weft_component_import_count(c) : weft_component_export_count(c);
    char type[256];
    for (uint32_t i = 0; i <= n; i++) {
        weft_name name = {0};
        weft_status st = imports ? weft_component_import(c, i, &name, type, sizeof type)
                                 : weft_component_export(c, i, &name, type, sizeof type);
        if (i == n) {
            if (st != WEFT_ERR_NOT_FOUND) abort(); /* past the count */
            break;
        }
        if (st != WEFT_OK || strlen(type) >= sizeof type) abort();
        for (size_t k = 0; k < name.len; k++) sink += (unsigned char)name.data[k];
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!engine) LLVMFuzzerInitialize(NULL, NULL);
    weft_component *c = NULL;
    weft_error err;
    weft_status st = weft_component_load(engine, data, size, &c, &err);
    if (st == WEFT_OK) {
        if (!c) abort();
        list(c, true);
        list(c, false);
        weft_component_release(c);
        return 0;
    }
    if (c) abort();
    if (st != WEFT_ERR_MALFORMED && st != WEFT_ERR_INVALID && st != WEFT_ERR_NOMEM && st != WEFT_ERR_LIMIT) abort();
    if (!err.message[0]) abort();
    sink += weft_binary_kind(data, size);
    return 0;
}
