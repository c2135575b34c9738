/* vec.c — the vector functions of every wasm.h vector type: new_empty,
   new_uninitialized, new, copy, delete. A vector of size 0 has data NULL.
   Out of memory leaves an empty vector (the standard has no way to say
   more). */
#include "capi.h"

/* The array of a new vector of `n` elements of `size` bytes, zeroed (so a
   vector of pointers starts all NULL and can be deleted before it is
   filled). NULL for n == 0, and when out of memory. */
static void *capi_vec_alloc(size_t n, size_t size) {
    return n ? base_calloc(n, size) : NULL;
}

/* The five functions of a vector of `elem` (wasm.h's WASM_DECLARE_VEC):
   copy_elem(out, in) copies one element into place, delete_elem(p)
   deletes one in place. */
#define CAPI_VEC(name, elem, copy_elem, delete_elem)                                             \
    void wasm_##name##_vec_new_empty(own wasm_##name##_vec_t *out) {                              \
        out->size = 0;                                                                            \
        out->data = NULL;                                                                         \
    }                                                                                             \
    void wasm_##name##_vec_new_uninitialized(own wasm_##name##_vec_t *out, size_t size) {         \
        out->data = capi_vec_alloc(size, sizeof *out->data);                                      \
        out->size = out->data ? size : 0;                                                         \
    }                                                                                             \
    void wasm_##name##_vec_new(own wasm_##name##_vec_t *out, size_t size, own elem const data[]) { \
        wasm_##name##_vec_new_uninitialized(out, size);                                           \
        if (out->size && data) memcpy(out->data, data, size * sizeof *out->data);                 \
    }                                                                                             \
    void wasm_##name##_vec_copy(own wasm_##name##_vec_t *out, const wasm_##name##_vec_t *src) {   \
        wasm_##name##_vec_new_uninitialized(out, src ? src->size : 0);                            \
        for (size_t i = 0; i < out->size; i++) copy_elem(&out->data[i], &src->data[i]);           \
    }                                                                                             \
    void wasm_##name##_vec_delete(own wasm_##name##_vec_t *vec) {                                 \
        if (!vec) return;                                                                         \
        for (size_t i = 0; vec->data && i < vec->size; i++) delete_elem(&vec->data[i]);           \
        free(vec->data);                                                                          \
        vec->size = 0;                                                                            \
        vec->data = NULL;                                                                         \
    }

/* Vectors of plain values: bytes and wasm_val_t. */
#define CAPI_VEC_PLAIN(name, copy_elem, delete_elem) CAPI_VEC(name, wasm_##name##_t, copy_elem, delete_elem)

/* Vectors of owned pointers: new takes the objects over; copy copies each
   with wasm_NAME_copy; delete deletes each with wasm_NAME_delete. */
#define CAPI_VEC_OWN(name)                                                                        \
    static inline void capi_##name##_elem_copy(wasm_##name##_t **out, wasm_##name##_t *const *in) { \
        *out = *in ? wasm_##name##_copy(*in) : NULL;                                              \
    }                                                                                             \
    static inline void capi_##name##_elem_delete(wasm_##name##_t **p) { wasm_##name##_delete(*p); } \
    CAPI_VEC(name, wasm_##name##_t *, capi_##name##_elem_copy, capi_##name##_elem_delete)

static inline void capi_byte_copy(wasm_byte_t *out, const wasm_byte_t *b) { *out = *b; }
static inline void capi_byte_delete(wasm_byte_t *b) { BASE_UNUSED(b); }

CAPI_VEC_PLAIN(byte, capi_byte_copy, capi_byte_delete)
CAPI_VEC_PLAIN(val, wasm_val_copy, wasm_val_delete)
CAPI_VEC_OWN(valtype)
CAPI_VEC_OWN(functype)
CAPI_VEC_OWN(globaltype)
CAPI_VEC_OWN(tabletype)
CAPI_VEC_OWN(memorytype)
CAPI_VEC_OWN(externtype)
CAPI_VEC_OWN(importtype)
CAPI_VEC_OWN(exporttype)
CAPI_VEC_OWN(frame)
CAPI_VEC_OWN(extern)
