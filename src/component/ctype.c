/*
 * ctype.c — the primitive value types and the arena (ctype.h).
 */
#include "ctype.h"

#include <stdlib.h>

#include "../base/base.h"

/* size and alignment of the primitives (CanonicalABI.md "Alignment",
   "Element Size"); flat_count 1 each. error-context is an i32 handle. */
static const cm_valtype prims[CM_ERROR_CONTEXT + 1] = {
    [CM_BOOL] = {.kind = CM_BOOL, .size = 1, .align = 1, .flat_count = 1},
    [CM_S8] = {.kind = CM_S8, .size = 1, .align = 1, .flat_count = 1},
    [CM_U8] = {.kind = CM_U8, .size = 1, .align = 1, .flat_count = 1},
    [CM_S16] = {.kind = CM_S16, .size = 2, .align = 2, .flat_count = 1},
    [CM_U16] = {.kind = CM_U16, .size = 2, .align = 2, .flat_count = 1},
    [CM_S32] = {.kind = CM_S32, .size = 4, .align = 4, .flat_count = 1},
    [CM_U32] = {.kind = CM_U32, .size = 4, .align = 4, .flat_count = 1},
    [CM_S64] = {.kind = CM_S64, .size = 8, .align = 8, .flat_count = 1},
    [CM_U64] = {.kind = CM_U64, .size = 8, .align = 8, .flat_count = 1},
    [CM_F32] = {.kind = CM_F32, .size = 4, .align = 4, .flat_count = 1},
    [CM_F64] = {.kind = CM_F64, .size = 8, .align = 8, .flat_count = 1},
    [CM_CHAR] = {.kind = CM_CHAR, .size = 4, .align = 4, .flat_count = 1},
    /* a string is a pointer and a length: two i32 */
    [CM_STRING] = {.kind = CM_STRING, .size = 8, .align = 4, .flat_count = 2},
    [CM_ERROR_CONTEXT] = {.kind = CM_ERROR_CONTEXT, .size = 4, .align = 4, .flat_count = 1},
};

const cm_valtype *cm_prim(cm_kind kind) {
    return cm_kind_is_prim(kind) ? &prims[kind] : NULL;
}

struct cm_arena_block {
    cm_arena_block *next;
    size_t cap;
    _Alignas(16) unsigned char data[];
};

#define CM_ARENA_MIN_BLOCK 4096u

void *cm_arena_alloc(cm_arena *a, size_t size, size_t align) {
    if (align == 0) align = 1;
    if (a->head) {
        size_t at = (a->used + align - 1) & ~(align - 1);
        if (at >= a->used && at <= a->cap && size <= a->cap - at) {
            a->used = at + size;
            return a->head->data + at;
        }
    }
    size_t cap = a->head ? a->head->cap * 2 : CM_ARENA_MIN_BLOCK;
    if (cap < size + align) cap = size + align;
    if (cap < size || (a->limit && (a->total + cap > a->limit || a->total + cap < a->total)))
        return NULL;
    cm_arena_block *b = malloc(sizeof *b + cap);
    if (!b) return NULL;
    b->next = a->head;
    b->cap = cap;
    a->head = b;
    a->cap = cap;
    a->total += cap;
    size_t at = 0; /* data is 16-aligned; a larger alignment pads */
    uintptr_t p = (uintptr_t)b->data;
    if (p % align) at = align - p % align;
    a->used = at + size;
    return b->data + at;
}

void cm_arena_reset(cm_arena *a) {
    if (!a->head) return;
    cm_arena_block *keep = a->head;
    while (keep->next) { /* the oldest block is the smallest: keep the newest, the largest */
        cm_arena_block *old = keep->next;
        keep->next = old->next;
        a->total -= old->cap;
        free(old);
    }
    a->used = 0;
    a->cap = keep->cap;
}

void cm_arena_free(cm_arena *a) {
    cm_arena_block *b = a->head;
    while (b) {
        cm_arena_block *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
    a->used = a->cap = a->total = 0;
}
