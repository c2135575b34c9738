/* load.c — weft_module_load: the pipeline from bytes to a shared module
   (decode + module-level validation, then body validation, and compilation
   now or, by default, on each function's first call: compile.c). */
#include "code.h"

/* The pipeline on `buf` (len bytes, from base_bulk_alloc(cap), 0:
   malloc), which the module takes over whatever the outcome: a file read
   for loading is never copied again, so start-up holds one copy of the
   binary, not two. */
static weft_status load_owned(weft_engine *engine, uint8_t *buf, size_t len, size_t cap, weft_module **out,
                              weft_error *err) {
    weft_module *m = calloc(1, sizeof *m);
    if (!m) {
        base_bulk_free(buf, cap);
        return base_fail(err, WEFT_ERR_NOMEM, "out of memory loading module");
    }
    m->bytes = buf;
    m->len = len;
    m->bytes_cap = cap;
    m->engine = engine;
    atomic_init(&m->refcount, 1);
    weft_status st = mod_decode(m, err);
    if (st == WEFT_ERR_MALFORMED && m->code_end && err && err->offset >= m->code_end) {
        /* Decoding is one pass in file order (§5.5): a body's malformed
           instruction is found before a later section's error. mod_decode
           leaves the instructions to this stage, so read them first. */
        weft_error body_err;
        if (cmp_check_bodies(m, &body_err) == WEFT_ERR_MALFORMED) *err = body_err;
    }
    if (st == WEFT_OK) st = cmp_compile_module(m, err);
    if (st != WEFT_OK) {
        weft_module_release(m);
        return st;
    }
    *out = m;
    return WEFT_OK;
}

weft_status weft_module_load(weft_engine *engine, const uint8_t *bytes, size_t len,
                             weft_module **out, weft_error *err) {
    base_error_clear(err);
    if (!out || (!bytes && len)) return base_fail(err, WEFT_ERR_MISUSE, "weft_module_load: NULL argument");
    *out = NULL;
    if (len > UINT32_MAX) return base_fail(err, WEFT_ERR_LIMIT, "module larger than 4 GiB");
    uint8_t *copy = base_bulk_alloc(len);
    if (!copy) return base_fail(err, WEFT_ERR_NOMEM, "out of memory loading module");
    if (len) memcpy(copy, bytes, len);
    return load_owned(engine, copy, len, len, out, err);
}

weft_status weft_module_load_file(weft_engine *engine, const char *path, weft_module **out,
                                  weft_error *err) {
    uint8_t *bytes;
    size_t len, cap;
    base_error_clear(err);
    if (!out) return base_fail(err, WEFT_ERR_MISUSE, "weft_module_load_file: NULL argument");
    *out = NULL;
    weft_status st = base_read_file(path, &bytes, &len, &cap, err);
    if (st != WEFT_OK) return st;
    if (len > UINT32_MAX) {
        base_bulk_free(bytes, cap);
        return base_fail(err, WEFT_ERR_LIMIT, "module larger than 4 GiB");
    }
    if (!bytes) { /* an empty file: malformed, as weft_module_load says */
        bytes = malloc(1);
        if (!bytes) return base_fail(err, WEFT_ERR_NOMEM, "out of memory loading module");
    }
    return load_owned(engine, bytes, len, cap, out, err);
}

weft_module *weft_module_retain(weft_module *m) {
    if (m) atomic_fetch_add_explicit(&m->refcount, 1, memory_order_relaxed);
    return m;
}

void weft_module_release(weft_module *m) {
    if (!m) return;
    if (atomic_fetch_sub_explicit(&m->refcount, 1, memory_order_acq_rel) != 1) return;
    cmp_free_module_code(m);
    mod_free_contents(m);
    base_bulk_free(m->bytes, m->bytes_cap);
    free(m);
}
