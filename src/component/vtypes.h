/*
 * vtypes.h — type questions the validator asks (vtypes.c): matching,
 * flattening, sizes, printing; and a pointer set/map.
 */
#ifndef WEFT_COMPONENT_VTYPES_H
#define WEFT_COMPONENT_VTYPES_H

#include <stdarg.h>

#include "cabi.h" /* CM_MAX_FLAT_PARAMS, CM_MAX_FLAT_RESULTS */
#include "component.h"

/* An open-addressing set (and map: vals) of pointers; zeroed is empty. */
typedef struct cm_pset {
    const void **keys, **vals;
    size_t len, cap;
} cm_pset;
bool cm_pset_has(const cm_pset *s, const void *p);
const void *cm_pset_get(const cm_pset *s, const void *p);
bool cm_pset_put(cm_pset *s, const void *p, const void *v); /* false: out of memory */
void cm_pset_free(cm_pset *s);

#define CM_FLAT_MAX 17 /* flat values kept: one past the params' limit (cabi.h's) */

/* a matches b (a is what is supplied, b what is expected), b's resources
   replaced through `map` (NULL: none). On a mismatch, why says how. */
bool cm_val_match(const cm_valtype *a, const cm_valtype *b, const cm_pset *map, char *why, size_t cap);
bool cm_func_match(const cm_functype *a, const cm_functype *b, const cm_pset *map, char *why, size_t cap);
bool cm_core_extern_match(const cm_core_extern *a, const cm_core_extern *b, char *why, size_t cap);
const char *cm_core_functype_str(const cm_core_functype *f, char *buf, size_t cap);

/* The core signature of ft lifted (lift true) or lowered, without the
   async ABI; buf holds 2 * (CM_FLAT_MAX + 2) values for out's arrays. */
void cm_flatten_func(const cm_functype *ft, bool lift, cm_core_functype *out, cm_coreval *buf);
uint32_t cm_flat_count(const cm_valtype *t); /* the count, exact up to CM_FLAT_MAX + 1 */
/* elem_size and alignment with 64-bit pointers (Binary.md's limit). */
void cm_size_align(const cm_valtype *t, cm_pset *memo, uint64_t *size, uint32_t *align);

const char *cm_kind_name(cm_kind k);

/* How many member nodes t has (fields, cases, labels, tuple members): n,
   except for a fixed list, whose n is its length (up to 2^32) and whose
   one member is elem. Loops over members use this, never n alone. */
static inline uint32_t cm_nmembers(const cm_valtype *t) { return t->fields || t->members ? t->n : 0; }

#endif
