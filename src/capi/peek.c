/* peek.c — the facts the wasm.h layer needs that weft.h does not give,
   read from the runtime's and module's structs. Kept to this file so the
   rest of src/capi stays on the public API. */
#include "../runtime/runtime.h"
#include "capi.h"

weft_instance *capi_func_instance(const weft_func *f) { return f ? f->inst : NULL; }

uint32_t capi_func_body_offset(const weft_module *m, uint32_t func_index) {
    if (!m || func_index < m->nfunc_imports || func_index >= m->nfuncs) return UINT32_MAX;
    return m->funcs[func_index - m->nfunc_imports].body_offset;
}

const uint8_t *capi_module_bytes(const weft_module *m, size_t *len) {
    *len = m->len;
    return m->bytes;
}

weft_limits capi_table_limits(const weft_table *t) {
    weft_limits l = t->limits;
    l.min = t->size;
    return l;
}
