/*
 * load.c — fuzz target: decode, validate and compile arbitrary bytes
 * (weft_module_load), then read everything the module shows an embedder
 * (imports, exports, custom sections, function names).
 *
 * The property: any input either loads or is refused with a status that
 * says why (malformed, invalid, out of memory) and a message; never a
 * crash, a leak or a sanitizer report. A refused module's error must carry
 * a non-empty message. And lazy translation (the default: bodies checked
 * by the fast validator, compiled on first call) must give exactly the
 * verdict and message of eager translation (every body through the
 * compiler, whose one pass validates too), so this target exercises the
 * compiler on every body and checks the fast validator against it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "weft.h"

static weft_engine *engine, *eager;
static volatile size_t sink;

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    engine = weft_engine_new(NULL);
    weft_config cfg = {.compile_mode = WEFT_COMPILE_EAGER};
    eager = weft_engine_new(&cfg);
    if (!engine || !eager) abort();
    return 0;
}

/* Touches every byte of a name so ASan checks its whole length. */
static size_t touch(weft_name n) {
    size_t h = 0;
    for (size_t i = 0; i < n.len; i++) h = h * 31 + (unsigned char)n.data[i];
    if (n.data && n.data[n.len] != '\0') abort(); /* documented terminator */
    return h;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    weft_module *m = NULL;
    weft_error err;
    weft_status st = weft_module_load(engine, data, size, &m, &err);
    weft_module *me = NULL;
    weft_error eerr;
    weft_status est = weft_module_load(eager, data, size, &me, &eerr);
    if (st != WEFT_ERR_NOMEM && est != WEFT_ERR_NOMEM) {
        if (st != est) abort(); /* the two validations disagree */
        if (st != WEFT_OK && strcmp(err.message, eerr.message) != 0) abort();
    }
    weft_module_release(me);
    if (st != WEFT_OK) {
        if (m || err.message[0] == '\0') abort();
        if (st != WEFT_ERR_MALFORMED && st != WEFT_ERR_INVALID && st != WEFT_ERR_NOMEM) abort();
        return 0;
    }
    size_t h = 0;
    weft_externtype t;
    for (uint32_t i = 0; i < weft_module_import_count(m); i++) {
        weft_name mod, name;
        if (weft_module_import(m, i, &mod, &name, &t) != WEFT_OK) abort();
        h += touch(mod) + touch(name) + t.kind;
    }
    for (uint32_t i = 0; i < weft_module_export_count(m); i++) {
        weft_name name;
        if (weft_module_export(m, i, &name, &t) != WEFT_OK) abort();
        h += touch(name) + t.kind;
    }
    for (uint32_t i = 0; i < weft_module_custom_count(m); i++) {
        weft_name name;
        const uint8_t *bytes;
        size_t len;
        if (weft_module_custom(m, i, &name, &bytes, &len) != WEFT_OK) abort();
        h += touch(name) + len;
        for (size_t k = 0; k < len; k++) h += bytes[k];
    }
    for (uint32_t i = 0; i < 64; i++) {
        const char *fn = weft_module_func_name(m, i);
        if (fn) h += strlen(fn);
    }
    weft_module_release(m);
    sink = h; /* keeps the reads from being optimised out */
    return 0;
}
