/*
 * component.h — a decoded and validated component (Binary.md, Explainer.md),
 * the shape instantiation walks.
 *
 * Two stages fill it (docs/components.md, "Loading and validation"):
 *  - decode.c reads the binary into `defs`, the component's definitions in
 *    binary order, each with its syntax only (indices as written, names as
 *    bytes of the binary); core modules are loaded through weft_module_load
 *    (decoded, validated, compiled once, shared by every instantiation) and
 *    nested components decoded recursively;
 *  - validate.c walks `defs` in order as the index spaces grow
 *    (Explainer.md "Index Spaces"), checks every rule, resolves every type
 *    to its tree (ctype.h: no consumer below sees a type index) and fills
 *    `space`: for each sort, what each index is and its type.
 *
 * Instantiation is the same walk at run time: each definition of `defs`, in
 * order, appends to the instance's index spaces exactly the entries
 * `space` records for it (cm_entry.def names the definition that made an
 * entry), so the instance's index i of a sort is `space[sort][i]`.
 *
 * Everything here is allocated in the component's arena and immutable once
 * weft_component_load returns; components nested in it share its arena.
 */
#ifndef WEFT_COMPONENT_COMPONENT_H
#define WEFT_COMPONENT_COMPONENT_H

#include "ctype.h"

/* Limits (docs/components.md): the depth of nested components and of
   nested component/instance types (each a C recursion of the decoder and
   the validator, so a deep binary cannot exhaust the stack), of value types
   (defvaltypes refer to earlier indices only, so a type tree's depth is
   bounded by this too: deeper is refused), and the count of any one vector. */
#define CM_MAX_NESTING 100
#define CM_MAX_TYPE_DEPTH 100
#define CM_MAX_COUNT 1000000u
/* Binary.md "Type Definitions": elem_size(t) < 2^28 for every defvaltype. */
#define CM_MAX_VALUE_SIZE (1u << 28)

/* Sorts (Binary.md `sort`, `core:sort`): the index spaces. */
typedef enum cm_sort {
    CM_CORE_FUNC, CM_CORE_TABLE, CM_CORE_MEMORY, CM_CORE_GLOBAL, CM_CORE_TAG,
    CM_CORE_TYPE, CM_CORE_MODULE, CM_CORE_INSTANCE,
    CM_FUNC, CM_VALUE, CM_TYPE, CM_COMPONENT, CM_INSTANCE,
    CM_SORT_COUNT
} cm_sort;
const char *cm_sort_name(cm_sort s); /* "core func", "instance", ... */

/* A name of the binary: len bytes, not NUL-terminated, valid UTF-8. */
typedef struct cm_name {
    const char *s;
    uint32_t len;
} cm_name;

/* ---- core types (Binary.md `core:type`) ---------------------------- */

/* A core value type: the binary's one-byte code (i32 0x7f ... externref
   0x6f); a typed reference (ref null? ht) is its abstract top's code with
   CM_CORE_NONNULL when not nullable (the heap type's index is dropped:
   component core types are compared up to that). */
typedef uint32_t cm_coreval;
#define CM_CORE_NONNULL 0x100u

typedef struct cm_core_functype {
    uint32_t nparams, nresults;
    const cm_coreval *params, *results;
} cm_core_functype;

/* A core extern type (core:externtype): kind is WEFT_EXTERN_*. */
typedef struct cm_core_extern {
    uint8_t kind;
    const cm_core_functype *func; /* func, tag */
    cm_coreval elem;              /* table */
    weft_limits limits;           /* table, memory */
    cm_coreval global;            /* global */
    bool mut;
} cm_core_extern;

typedef struct cm_core_named {
    cm_name module; /* imports only */
    cm_name name;
    cm_core_extern type;
} cm_core_named;

/* A core module's type (core:moduletype), and a core instance's: its exports. */
typedef struct cm_core_moduletype {
    uint32_t nimports, nexports;
    const cm_core_named *imports, *exports;
} cm_core_moduletype;
typedef struct cm_core_insttype {
    uint32_t nexports;
    const cm_core_named *exports;
} cm_core_insttype;

/* An entry of the core type index space. */
typedef struct cm_core_type {
    bool is_module;
    bool is_func;        /* false with is_module false: a GC struct/array type */
    cm_core_functype func;
    cm_core_moduletype module;
} cm_core_type;

/* ---- component types (Binary.md `type`) ---------------------------- */

typedef struct cm_type cm_type;
typedef struct cm_comptype cm_comptype;
typedef struct cm_insttype cm_insttype;

/* A resource type as the validator knows it (Explainer.md "Resource
   types"): `res` is its identity (ctype.h). `defined`: made by a
   resourcetype of this component (rep i32, destructor `dtor`, a core func
   index, UINT32_MAX for none); otherwise abstract: imported, or exported
   by a component type, and replaced by the supplied one at instantiation. */
typedef struct cm_restype {
    cm_resource *res;
    bool defined;
    uint32_t dtor;
} cm_restype;

/* An extern type (Binary.md `externtype`) once resolved: its sort (one of
   CM_CORE_MODULE, CM_FUNC, CM_VALUE, CM_TYPE, CM_COMPONENT, CM_INSTANCE)
   and the type. A type export/import (`(type (eq i))` or
   `(type (sub resource))`) carries the type it names. */
typedef struct cm_extern {
    cm_sort sort;
    const cm_core_moduletype *module;
    const cm_functype *func;
    const cm_valtype *value;
    const cm_type *type;
    const cm_comptype *component;
    const cm_insttype *instance;
} cm_extern;

/* An import or export: its name (Explainer.md "Import and Export
   Definitions": the externname; attributes kept for the linker: the
   interface an `implements` names, a version suffix) and its type. */
typedef struct cm_named {
    cm_name name;
    cm_name implements;      /* s NULL: none */
    cm_name version_suffix;  /* s NULL: none */
    cm_extern type;
} cm_named;

struct cm_insttype {
    uint32_t nexports;
    const cm_named *exports;
};
/* A component type: its imports and exports. The resources its imports
   declare `(sub resource)` are abstract: instantiation substitutes the
   supplied ones; those its exports declare are fresh per instance. */
struct cm_comptype {
    uint32_t nimports, nexports;
    const cm_named *imports, *exports;
};

typedef enum cm_type_kind {
    CM_TYPE_VAL, CM_TYPE_FUNC, CM_TYPE_COMPONENT, CM_TYPE_INSTANCE, CM_TYPE_RESOURCE
} cm_type_kind;

/* An entry of the type index space. */
struct cm_type {
    cm_type_kind kind;
    const cm_valtype *val;       /* CM_TYPE_VAL */
    const cm_functype *func;     /* CM_TYPE_FUNC */
    const cm_comptype *comp;     /* CM_TYPE_COMPONENT */
    const cm_insttype *inst;     /* CM_TYPE_INSTANCE */
    const cm_restype *res;       /* CM_TYPE_RESOURCE */
};

/* ---- definitions (Binary.md sections 1-12) -------------------------- */

typedef enum cm_def_kind {
    CM_DEF_CORE_MODULE,   /* section 1 */
    CM_DEF_CORE_INSTANCE, /* section 2 */
    CM_DEF_CORE_TYPE,     /* section 3 */
    CM_DEF_COMPONENT,     /* section 4 */
    CM_DEF_INSTANCE,      /* section 5 */
    CM_DEF_ALIAS,         /* section 6 */
    CM_DEF_TYPE,          /* section 7 */
    CM_DEF_CANON,         /* section 8 */
    CM_DEF_START,         /* section 9 (🪙, refused by the validator) */
    CM_DEF_IMPORT,        /* section 10 */
    CM_DEF_EXPORT,        /* section 11 */
    CM_DEF_VALUE,         /* section 12 (🪙, refused by the decoder) */
} cm_def_kind;

typedef struct cm_sortidx {
    cm_sort sort;
    uint32_t idx;
} cm_sortidx;

/* An instantiate argument or an inline export: a name and what it is. */
typedef struct cm_arg {
    cm_name name;
    cm_name implements;  /* an inline export's `implements` attribute (s NULL: none) */
    cm_sortidx item;
} cm_arg;

/* The syntax of a type as the binary says it (raw: indices unresolved). */
typedef uint64_t cm_rawval; /* valtype: a type index, or CM_RAW_PRIM | primvaltype code */
#define CM_RAW_PRIM (1ull << 32)

typedef struct cm_rawlabel {
    cm_name label;
    bool has_type;
    cm_rawval type;
} cm_rawlabel;

typedef struct cm_rawextern {
    uint8_t kind;    /* externtype's byte: 0 core module, 1 func, 2 value, 3 type, 4 component, 5 instance */
    uint8_t bound;   /* type: 0 (eq idx), 1 (sub resource); value: 0 (eq idx), 1 valtype */
    uint32_t idx;
    cm_rawval val;   /* value bound 1 */
} cm_rawextern;

typedef struct cm_rawtype cm_rawtype;
typedef struct cm_rawcoretype cm_rawcoretype;

/* An alias (Binary.md "Alias Definitions"). */
typedef struct cm_alias {
    cm_sort sort;
    uint8_t target;   /* 0 export, 1 core export, 2 outer */
    uint32_t a;       /* instance index; outer: the count of scopes out */
    uint32_t b;       /* outer: the index in that scope */
    cm_name name;     /* export, core export */
} cm_alias;

/* A declaration of a component or instance type (componentdecl/instancedecl). */
typedef struct cm_rawdecl {
    uint8_t kind;     /* 0x00 core type, 0x01 type, 0x02 alias, 0x03 import, 0x04 export */
    uint32_t offset;
    const cm_rawcoretype *core;
    const cm_rawtype *type;
    cm_alias alias;
    cm_named name;    /* import, export: name and attributes (type unset) */
    cm_rawextern ext;
} cm_rawdecl;

/* A core module type's declaration (core:moduledecl). */
typedef struct cm_rawcoredecl {
    uint8_t kind;     /* 0 import, 1 type, 2 alias outer, 3 export */
    uint32_t offset;
    cm_name module, name;
    const cm_rawcoretype *core;
    uint32_t ct, idx;         /* alias outer */
    uint8_t ext_kind;         /* WEFT_EXTERN_* */
    uint32_t type_idx;        /* func, tag */
    cm_coreval elem, global;
    weft_limits limits;
    bool mut;
} cm_rawcoredecl;

struct cm_rawcoretype {
    uint8_t form;             /* 0x60 func, 0x50 module, 0x5f struct, 0x5e array */
    uint32_t nparams, nresults;
    cm_coreval *params, *results;
    uint32_t ndecls;
    cm_rawcoredecl *decls;
};

struct cm_rawtype {
    uint8_t form;             /* 0x40/0x43 func, 0x41 component, 0x42 instance, 0x3f resource,
                                 else a defvaltype opcode (a primvaltype code included) */
    uint32_t offset;
    uint32_t n;               /* labels, cases, members, params; fixed-list length */
    cm_rawlabel *labels;      /* record fields, variant cases, flags/enum labels, params,
                                 tuple members (label empty) */
    bool has_a, has_b;
    cm_rawval a, b;           /* list/option/stream/future elem, result ok/err, map key/value,
                                 own/borrow type index (a), function result (a) */
    uint32_t ndecls;          /* component, instance */
    cm_rawdecl *decls;
    cm_coreval rep;           /* resource */
    bool has_dtor;
    uint32_t dtor;
};

/* A canonical option (Binary.md `canonopt`). */
typedef struct cm_canonopt {
    uint8_t op;      /* 0 utf8, 1 utf16, 2 latin1+utf16, 3 memory, 4 realloc, 5 post-return,
                        6 async, 7 callback */
    uint32_t idx;
} cm_canonopt;

/* A canon definition: op is Binary.md's first byte (0x00 lift, 0x01 lower,
   0x02 resource.new, ... 0x42 thread.available-parallelism). The
   immediates a built-in has land in the fields named for them. */
typedef struct cm_canon {
    uint8_t op;
    uint32_t func;          /* lift: core func; lower: func */
    uint32_t type;          /* lift: functype; resource.*, stream.*, future.*: the type;
                               thread.*: core type */
    uint32_t table;         /* thread.new-indirect / spawn-indirect */
    uint32_t memory;        /* waitable-set.wait/poll */
    uint32_t nopts;
    cm_canonopt *opts;
    bool flag;              /* async? / cancel? / shared? */
    cm_coreval coreval;     /* context.get/set */
    uint32_t slot;          /* context.get/set index */
    bool has_result;        /* task.return */
    cm_rawval result;
} cm_canon;

/* Resolved canon options (filled by the validator; CanonicalABI.md
   "Canonical ABI Options"). Indices are core indices; UINT32_MAX: absent. */
typedef struct cm_canon_opts {
    uint8_t string_encoding;   /* 0 utf8 (the default), 1 utf16, 2 latin1+utf16 */
    uint32_t memory, realloc, post_return, callback;
    bool async;
} cm_canon_opts;

typedef struct cm_component cm_component;

typedef struct cm_def {
    cm_def_kind kind;
    uint32_t offset;          /* of the definition in the binary */
    union {
        struct weft_module *module;          /* CORE_MODULE (a reference owned here) */
        struct {                             /* CORE_INSTANCE, INSTANCE */
            bool instantiate;                /* else inline exports */
            uint32_t of;                     /* module / component index */
            uint32_t nargs;
            cm_arg *args;                    /* args, or inline exports */
        } inst;
        const cm_rawcoretype *core_type;     /* CORE_TYPE */
        cm_component *component;             /* COMPONENT */
        cm_alias alias;                      /* ALIAS */
        const cm_rawtype *type;              /* TYPE */
        struct {                             /* CANON */
            cm_canon c;
            cm_canon_opts opts;              /* by the validator */
        } canon;
        struct {                             /* START */
            uint32_t func, nargs, nresults;
            uint32_t *args;
        } start;
        struct {                             /* IMPORT, EXPORT */
            cm_named name;                   /* the type: filled by the validator */
            cm_rawextern ext;                /* import; export's ascription when has_ext */
            bool has_ext;
            cm_sortidx item;                 /* export */
        } ie;
    } u;
} cm_def;

/* An entry of an index space: the definition that made it (an index of
   `defs`) and its type (which fields are set depends on the sort). */
typedef struct cm_entry {
    uint32_t def;
    cm_core_extern core;                 /* core func/table/memory/global/tag */
    const cm_core_moduletype *module;    /* core module */
    const cm_core_insttype *core_inst;   /* core instance */
    const cm_core_type *core_type;       /* core type */
    const cm_functype *func;             /* func */
    const cm_valtype *value;             /* value */
    const cm_type *type;                 /* type */
    const cm_comptype *component;        /* component */
    const cm_insttype *instance;         /* instance */
} cm_entry;

struct cm_component {
    cm_arena *arena;          /* the outermost component's; shared by nested ones */
    uint32_t offset, len;     /* of this component in the outermost binary */
    uint32_t depth;           /* 0 for the outermost */
    uint32_t ndefs;
    cm_def *defs;
    /* By the validator: the index spaces, and this component's type
       (its imports and exports, resolved, in binary order). */
    uint32_t count[CM_SORT_COUNT];
    cm_entry *space[CM_SORT_COUNT];
    cm_comptype type;
    const cm_component *parent;
};

/* Decodes `len` bytes at `bytes` (the outermost component's copy, which
   the arena's owner keeps) into *out, allocated in `arena`; core modules
   are loaded with `engine`. WEFT_ERR_MALFORMED with the byte offset for a
   binary that is not a component; WEFT_ERR_INVALID for a core module that
   does not validate; WEFT_ERR_NOMEM. On failure what was loaded is
   released (cm_component_free_modules). */
weft_status cm_decode(weft_engine *engine, cm_arena *arena, const uint8_t *bytes, size_t len,
                      cm_component **out, weft_error *err);
/* Checks every validation rule and fills the index spaces and the type. */
weft_status cm_validate(cm_component *c, weft_error *err);
/* Releases the core modules of c and of its nested components. */
void cm_component_free_modules(cm_component *c);

/* The text of a type for listings ("func(x: u32) -> string",
   "instance { ... }"), written into buf (cap bytes, NUL-terminated,
   truncated with "..."). */
void cm_extern_str(const cm_extern *e, char *buf, size_t cap);

/* The public handle (weft.h). */
struct weft_component {
    _Atomic uint32_t refcount;
    weft_engine *engine;
    uint8_t *bytes;
    size_t len;
    cm_arena arena;
    cm_component *root;
};

#endif
