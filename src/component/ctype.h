/*
 * ctype.h — the component model's value types and values, the one shape
 * every room of src/component/ shares: the decoder and validator build
 * types (decode.c, validate.c), the canonical ABI lifts and lowers values
 * by them (cabi.c), and the WASI 0.2 hosts take and give values.
 *
 * Types (Binary.md `defvaltype`, Explainer.md "Value types") are trees of
 * cm_valtype nodes allocated in the arena of the component that declared
 * them; a node is immutable once the component is validated and is shared
 * by every instance. A type index of the binary resolves to its node, so
 * no consumer below the decoder sees an index.
 *
 * Values (CanonicalABI.md "lifting and lowering") are cm_val trees in the
 * arena of one call: lifting from a core memory builds one, lowering reads
 * one. Strings in a value are always UTF-8; the canonical ABI transcodes
 * to and from a component's own encoding (utf8, utf16, latin1+utf16).
 */
#ifndef WEFT_COMPONENT_CTYPE_H
#define WEFT_COMPONENT_CTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "weft.h" /* weft_status, weft_error */

/* The kinds of value type. The primitive kinds come first, in the order of
   Binary.md's primvaltype codes 0x7f (bool) down to 0x73 (string), then
   error-context; cm_kind_of_prim maps a code to its kind. */
typedef enum cm_kind {
    CM_BOOL, CM_S8, CM_U8, CM_S16, CM_U16, CM_S32, CM_U32, CM_S64, CM_U64,
    CM_F32, CM_F64, CM_CHAR, CM_STRING,
    CM_ERROR_CONTEXT, /* 0x64, async (🔀/📝) */
    /* defined value types (defvaltype) */
    CM_RECORD,     /* 0x72: fields, n > 0 */
    CM_VARIANT,    /* 0x71: cases, n > 0; a case's type may be NULL */
    CM_LIST,       /* 0x70: elem */
    CM_FIXED_LIST, /* 0x67: elem, n = length > 0 (🔧) */
    CM_TUPLE,      /* 0x6f: members, n > 0 */
    CM_FLAGS,      /* 0x6e: labels in fields (types NULL), 0 < n <= 32 */
    CM_ENUM,       /* 0x6d: labels in fields (types NULL), n > 0 */
    CM_OPTION,     /* 0x6b: elem */
    CM_RESULT,     /* 0x6a: elem = ok type, elem2 = error type, either NULL */
    CM_OWN,        /* 0x69: resource */
    CM_BORROW,     /* 0x68: resource */
    CM_STREAM,     /* 0x66: elem, may be NULL (🔀) */
    CM_FUTURE,     /* 0x65: elem, may be NULL (🔀) */
    CM_MAP,        /* 0x63: elem = key, elem2 = value (🗺️) */
    CM_KIND_COUNT
} cm_kind;

static inline bool cm_kind_is_prim(cm_kind k) { return k <= CM_ERROR_CONTEXT; }

typedef struct cm_valtype cm_valtype;

/* A resource type's identity (Explainer.md "Resource types"): types are
   generative, so two resource types are the same exactly when they are
   the same cm_resource. An abstract resource imported by a component type
   is a cm_resource too; instantiation substitutes the one supplied. The
   canonical ABI checks a handle's type by this pointer. Defined by the
   room that creates resources (the component instance, or a host); the
   decoder and the canonical ABI only compare pointers. */
typedef struct cm_resource cm_resource;
struct cm_resource {
    const char *name; /* for messages: the name it was defined or imported under */
    /* What resource.drop of the last own handle runs (Explainer.md "canon
       resource.drop"; CanonicalABI.md "canon_resource_drop"): the
       defining instance's core destructor, called through its execution,
       or a host's C function. NULL: no destructor. A trap it reports
       (WEFT_ERR_TRAP with err filled) traps the dropping call. */
    weft_status (*dtor)(const cm_resource *rt, uint32_t rep, void *env, weft_error *err);
    void *dtor_env;
    /* The instance that defined it (an opaque pointer compared by
       identity: resource.new and resource.rep trap in any other
       instance); NULL for a host's resource. */
    const void *owner;
};

/* A named member: a record's field, a variant's case (type NULL for a case
   without payload), a flags or enum label (type NULL). Names are the
   binary's bytes, validated UTF-8 kebab-case labels, not NUL-terminated. */
typedef struct cm_field {
    const char *name;
    uint32_t name_len;
    const cm_valtype *type;
} cm_field;

struct cm_valtype {
    cm_kind kind;
    uint32_t n; /* fields, cases, labels, tuple members; a fixed list's length */
    const cm_field *fields;            /* record, variant, flags, enum: n entries */
    const cm_valtype *const *members;  /* tuple: n entries */
    const cm_valtype *elem;            /* list, fixed list, option, result ok, stream, future, map key */
    const cm_valtype *elem2;           /* result error, map value */
    const cm_resource *resource;       /* own, borrow */
    /* The canonical ABI's facts about this type (CanonicalABI.md
       "Alignment", "Element Size", "Flattening"), filled once by
       cm_abi_layout (cabi.c) when the type is created, read-only after:
       size and alignment in linear memory, and the number of core values
       it flattens to (CM_FLAT_UNBOUNDED past MAX_FLAT_PARAMS' reach is
       never needed: the caller compares against the limits). */
    uint32_t size, align, flat_count;
};

/* A component function type (Binary.md `functype`): named parameters,
   at most one result (NULL: none), and whether it is `async` (0x43, the
   next issue's). Shared by the decoder, the validator, the linker and
   the hosts, which declare their functions with it. */
typedef struct cm_functype {
    uint32_t nparams;
    const cm_field *params;  /* name and type of each parameter */
    const cm_valtype *result;
    bool async;
} cm_functype;

/* The primitive types are static nodes shared by every component. */
const cm_valtype *cm_prim(cm_kind kind);

/* A value (CanonicalABI.md: what lift_flat/load produce and lower_flat/
   store consume) is weft.h's weft_cval, the one shape the canonical ABI,
   the hosts and the C API share (no copy between them): `kind` is the
   cm_kind of its type (weft_ckind has the same order), `n` counts a
   string's bytes or a list's, record's, tuple's or map's items, and `v`
   holds the rest as weft.h documents it. */
typedef struct weft_cval cm_val;

/* Where a string value came from (CanonicalABI.md "Loading", String =
   (chars, encoding, tagged code units)): its code units are those of this
   encoding, which the canonical ABI derives from the UTF-8 again. Kept in
   v.str_src; it decides the realloc calls that lowering it makes
   (CanonicalABI.md "store_string_into_range": a String keeps its
   original encoding). 0, CM_STR_UTF8, for a string made by a host. */
typedef enum cm_str_src {
    CM_STR_UTF8 = 0,     /* string-encoding=utf8, or made by a host */
    CM_STR_UTF16,        /* string-encoding=utf16 */
    CM_STR_LATIN1,       /* string-encoding=latin1+utf16, latin1 form (tag clear) */
    CM_STR_LATIN1_UTF16, /* string-encoding=latin1+utf16, utf16 form (tag set) */
} cm_str_src;

_Static_assert((int)CM_MAP == (int)WEFT_CMAP && (int)CM_STRING == (int)WEFT_CSTRING &&
                   (int)CM_RECORD == (int)WEFT_CRECORD && (int)CM_OWN == (int)WEFT_COWN &&
                   (int)CM_KIND_COUNT == (int)WEFT_CKIND_COUNT_,
               "weft_ckind follows cm_kind");

/* A bump allocator for types (one per component, freed with it) and for
   values (one per call, reset after it). Out of memory returns NULL and
   the caller reports it; nothing is freed one by one. */
typedef struct cm_arena_block cm_arena_block;
typedef struct cm_arena {
    cm_arena_block *head;
    size_t used, cap;   /* of the head block */
    size_t total;       /* bytes of every block, for limits */
    size_t limit;       /* 0: none; past it allocations fail */
} cm_arena;

void *cm_arena_alloc(cm_arena *a, size_t size, size_t align);
void cm_arena_reset(cm_arena *a); /* keeps the first block */
void cm_arena_free(cm_arena *a);

#endif
