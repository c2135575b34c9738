/*
 * cabi_impl.h — what cabi.c and cabi_string.c share (private to them):
 * memory access through the context, realloc, the arena.
 *
 * Memory is addressed by 64-bit offsets from the context's base, which
 * is read again after every realloc call (cm_abi_reallocate): no pointer
 * into linear memory is held across one. Every access is bounds-checked
 * by its caller as the spec's trap_if conditions say; the accessors
 * check again and report an internal error rather than touch memory out
 * of range.
 */
#ifndef WEFT_COMPONENT_CABI_IMPL_H
#define WEFT_COMPONENT_CABI_IMPL_H

#include <string.h>

#include "../base/base.h"
#include "cabi.h"
#include "resource.h"

static inline bool cm_in_range(const cm_abi_cx *cx, uint64_t ptr, uint64_t len) {
    return ptr <= cx->mem_size && len <= cx->mem_size - ptr;
}

/* little-endian load_int / store_int of nbytes (1, 2, 4, 8), in range */
static inline uint64_t cm_rd(const cm_abi_cx *cx, uint64_t ptr, unsigned nbytes) {
    uint64_t v = 0;
    for (unsigned i = 0; i < nbytes; i++) v |= (uint64_t)cx->mem[ptr + i] << (8 * i);
    return v;
}

static inline void cm_wr(cm_abi_cx *cx, uint64_t ptr, uint64_t v, unsigned nbytes) {
    for (unsigned i = 0; i < nbytes; i++) cx->mem[ptr + i] = (uint8_t)(v >> (8 * i));
}

static inline uint64_t cm_align_to(uint64_t ptr, uint64_t align) {
    return (ptr + align - 1) / align * align;
}

/* An internal inconsistency (a bug of weft, never the guest's input). */
weft_status cm_abi_internal(cm_abi_cx *cx, const char *what);

/* Reads the memory's base and size again. */
void cm_abi_refresh(cm_abi_cx *cx);

/* LiftLowerContext.reallocate: the realloc option called with may_leave
   cleared, then the memory read again. WEFT_ERR_MISUSE without a realloc
   option. */
weft_status cm_abi_reallocate(cm_abi_cx *cx, uint32_t old, uint32_t old_size, uint32_t align,
                              uint32_t new_size, uint32_t *out);

/* size bytes of the arena, or NULL with err filled (CM_TRAP_TOO_LARGE). */
void *cm_abi_alloc(cm_abi_cx *cx, uint64_t size, size_t align);

/* load_string_from_range and store_string_into_range (cabi_string.c). */
weft_status cm_abi_load_string(cm_abi_cx *cx, uint32_t ptr, uint32_t tagged_code_units,
                               cm_val *out);
weft_status cm_abi_store_string(cm_abi_cx *cx, const cm_val *v, uint32_t *ptr,
                                uint32_t *tagged_code_units);

/* utf16_tag for a 32-bit memory */
#define CM_UTF16_TAG (1u << 31)

#endif
