/*
 * module.h — the decoded module: what the decoder produces and every later
 * stage reads. After weft_module_load returns, nothing here changes: the
 * struct is shared read-only by all instances and threads.
 *
 * Index spaces follow the spec (§2.5.1): imported items come first, then the
 * module's own definitions, in one array per kind.
 */
#ifndef WEFT_MODULE_H
#define WEFT_MODULE_H

#include <pthread.h>
#include <stdatomic.h>

#include "../base/base.h"

struct cmp_func; /* compiled code of one function, see compile/code.h */

/* A value type inside weft (Wasm 3.0 §2.3.4 valtype, §2.3.3 reftype), 32
   bits, used by the decoder, the validators and the compiler:

     bits 0-7    the public code, what a host sees (weft_valtype): 0x7F i32,
                 0x7E i64, 0x7D f32, 0x7C f64, 0x7B v128, and for a
                 reference the top of its heap type's hierarchy: 0x70
                 funcref for every function reference, 0x6F externref,
                 0x69 exnref
     bit 8       MOD_T_NONNULL: (ref ht) rather than (ref null ht)
     bit 9       MOD_T_IDX: the heap type is a type index, in bits 12-31
     bits 16-23  otherwise, the abstract heap type's code when it is not
                 the low byte's: 0 for func, extern, exn; the bottom of
                 the hierarchy (§2.3.4, below) for nofunc 0x73, noextern
                 0x72, noexn 0x74; GC's inner types later (eq, struct, ...)

   So the 2.0 types keep their one-byte codes exactly ((ref null func) is
   0x70), a host's view of any type is its low byte (mod_valtype_pub), and
   GC can add heap types without a new layout: a struct or array type
   index would carry 0x6E (anyref) as its public code.

   Bottom types (Wasm 3.0 §2.3.4 Heap Types, binary §5.3.3: nofunc 0x73,
   noextern 0x72, noexn 0x74; §3.3.3 Matching of heap types: nofunc <:
   func and every function type, noextern <: extern, noexn <: exn).
   Their only value is null, so they need nothing of GC and weft takes
   them without it: (ref null nofunc) is nullfuncref, (ref nofunc)
   has no value at all. A host sees the hierarchy's top (funcref,
   externref, exnref) and may store only null where one is expected.
   `none` (0x71), the bottom of GC's any hierarchy, is refused with the
   rest of GC: every type it is a subtype of is one of GC's. */
typedef uint32_t mod_valtype;
#define MOD_T_NONNULL 0x100u
#define MOD_T_IDX 0x200u
#define MOD_T_IDX_SHIFT 12
#define MOD_T_MAX_TYPES (1u << 20) /* type indices a mod_valtype can hold */
/* A 64-bit memory whose type keeps it at most this many pages (4 GiB -
   64 KiB) is "small": its i64 addresses and offsets are saturated to 32
   bits (ADDR64, interp.c), which is exact below 2^32 - 16. A larger one,
   or one without a maximum, is "big" (cmp_mem_big): its accesses take the
   64-bit path (ADDR64_WIN; docs/pipeline.md). */
#define MOD_SMALL_PAGES64 65535u
#define MOD_HT_NOFUNC 0x73u
#define MOD_HT_NOEXTERN 0x72u
#define MOD_HT_NOEXN 0x74u
#define MOD_T_NULLFUNCREF (WEFT_FUNCREF | (MOD_HT_NOFUNC << 16))
#define MOD_T_NULLEXTERNREF (WEFT_EXTERNREF | (MOD_HT_NOEXTERN << 16))
#define MOD_T_NULLEXNREF (WEFT_EXNREF | (MOD_HT_NOEXN << 16))

static inline weft_valtype mod_valtype_pub(mod_valtype t) { return (weft_valtype)(t & 0xFF); }
static inline bool mod_is_ref(mod_valtype t) {
    uint8_t b = (uint8_t)t;
    return b == WEFT_FUNCREF || b == WEFT_EXTERNREF || b == WEFT_EXNREF;
}
static inline bool mod_nullable(mod_valtype t) { return !(t & MOD_T_NONNULL); }
static inline bool mod_is_idx(mod_valtype t) { return (t & MOD_T_IDX) != 0; }
/* Whether t is a reference to a bottom heap type (nofunc, noextern,
   noexn), null or not: a value of it can only be null. */
static inline bool mod_is_bottom(mod_valtype t) {
    return mod_is_ref(t) && !(t & MOD_T_IDX) && (t >> 16) != 0;
}
static inline uint32_t mod_type_idx(mod_valtype t) { return t >> MOD_T_IDX_SHIFT; }
/* (ref null? $idx) of a function type. */
static inline mod_valtype mod_ref_idx(uint32_t idx, bool nullable) {
    return WEFT_FUNCREF | MOD_T_IDX | (idx << MOD_T_IDX_SHIFT) | (nullable ? 0 : MOD_T_NONNULL);
}
/* Whether a local of type t has a default value (§3.3.5.4 defaultable):
   numbers, vectors and nullable references. */
static inline bool mod_defaultable(mod_valtype t) { return !(t & MOD_T_NONNULL); }

/* A function type. params and results point into one allocation owned by
   the module (or by a host function). */
typedef struct mod_functype {
    uint32_t nparams, nresults;
    mod_valtype *params;
    mod_valtype *results;
    /* The host's view (mod_valtype_pub) of params then results, for
       weft_functype: pub_params[nparams + i] is result i. */
    weft_valtype *pub_params;
    const struct weft_module *owner; /* whose type indices these are; NULL
                                        for a host function's type */
} mod_functype;

/* Type equivalence of function types (Wasm 3.0 §3.1.3 / §4.5.3): a and b
   of modules ma and mb (a host function's type has no module: NULL), equal
   when their value types are, type indices compared by the types they
   name (a type naming itself matches one naming itself). The modules are
   the types' owners. */
bool mod_functype_equal(const mod_functype *a, const mod_functype *b);
/* Subtyping of value types (Wasm 3.0 §3.3.1 matching, without GC): a <: b,
   both of module m. (ref ht) <: (ref null ht); (ref $t) <: (ref func);
   a bottom type <: every heap type of its hierarchy (nofunc <: $t). */
bool mod_valtype_sub(const struct weft_module *m, mod_valtype a, mod_valtype b);
/* Matching across modules (import matching of constant globals): a of ma
   <: b of mb; a NULL module is a host's, whose types are plain. */
bool mod_valtype_match(const struct weft_module *ma, mod_valtype a, const struct weft_module *mb,
                       mod_valtype b);
/* Equivalence of value types across modules (import matching of globals
   and tables). */
bool mod_valtype_equiv(const struct weft_module *ma, mod_valtype a, const struct weft_module *mb,
                       mod_valtype b);
/* Writes the text form of t ("i32", "funcref", "(ref null 3)", "(ref func)")
   into buf and returns buf. */
const char *mod_valtype_str(mod_valtype t, char buf[32]);

typedef struct mod_tabletype {
    mod_valtype elem; /* a reference type */
    weft_limits limits;
} mod_tabletype;

typedef struct mod_globaltype {
    mod_valtype type;
    bool mut;
} mod_globaltype;

/* A constant expression (Wasm 3.0 §3.4.10). One instruction then `end` is
   kept as that instruction (`op` its opcode); a longer one, which extended
   constant expressions allow (i32/i64.add/sub/mul over constants and
   global.get), as MOD_CONSTEXPR_SEQ: its bytes, evaluated at
   instantiation by rt_eval_const. */
#define MOD_CONSTEXPR_SEQ 0x01 /* never a constant instruction (0x01 is nop) */
typedef struct mod_constexpr {
    uint8_t op;     /* 0x41 i32.const, 0x42 i64.const, 0x43 f32.const,
                       0x44 f64.const, 0xD0 ref.null, 0xD2 ref.func,
                       0x23 global.get, 0xFD v128.const (SIMD; then
                       `value` is the module offset of its 16 bytes),
                       MOD_CONSTEXPR_SEQ (then `value` is the module
                       offset of its first instruction) */
    mod_valtype type; /* the value type it produces */
    uint64_t value;    /* constant bits; for ref.func/global.get the index */
    uint32_t len;       /* MOD_CONSTEXPR_SEQ: bytes, the final `end` included */
    uint32_t max_depth; /* MOD_CONSTEXPR_SEQ: the deepest operand stack */
} mod_constexpr;

typedef struct mod_import {
    char *module;   /* NUL-terminated, valid UTF-8 (may contain NUL: use len) */
    char *name;
    uint32_t module_len, name_len;
    weft_extern_kind kind;
    uint32_t type_index;       /* WEFT_EXTERN_FUNC, WEFT_EXTERN_TAG: index into types */
    mod_tabletype table;       /* WEFT_EXTERN_TABLE */
    weft_limits memory;        /* WEFT_EXTERN_MEMORY, in pages */
    mod_globaltype global;     /* WEFT_EXTERN_GLOBAL */
} mod_import;

typedef struct mod_export {
    char *name;
    uint32_t name_len;
    weft_extern_kind kind;
    uint32_t index;
} mod_export;

/* A custom section (§5.5.3), in module order. */
typedef struct mod_custom {
    char *name;           /* NUL-terminated copy (may contain NUL: use len) */
    uint32_t name_len;
    uint32_t offset, len; /* the payload, in the module's copy of the binary */
} mod_custom;

/* A function defined in the module (not imported). */
typedef struct mod_func {
    uint32_t type_index;
    uint32_t nlocals;           /* declared locals, not counting params */
    mod_valtype *local_types;   /* nlocals entries */
    const uint8_t *body;        /* instructions after the local declarations,
                                   up to and including the final `end` */
    uint32_t body_len;
    uint32_t body_offset;       /* module offset of `body` */
} mod_func;

typedef struct mod_global {
    mod_globaltype type;
    mod_constexpr init;
} mod_global;

typedef enum mod_segmode {
    MOD_SEG_ACTIVE,
    MOD_SEG_PASSIVE,
    MOD_SEG_DECLARATIVE,
} mod_segmode;

typedef struct mod_elem {
    mod_segmode mode;
    mod_valtype type;       /* a reference type */
    uint32_t table_index;   /* active only */
    mod_constexpr offset;   /* active only, i32 */
    uint32_t count;
    mod_constexpr *items;   /* ref.func / ref.null / global.get */
} mod_elem;

typedef struct mod_data {
    mod_segmode mode;       /* ACTIVE or PASSIVE */
    uint32_t memory_index;
    mod_constexpr offset;
    const uint8_t *bytes;   /* points into the module's copy of the binary */
    uint32_t len;
} mod_data;

struct weft_module {
    _Atomic uint32_t refcount;
    weft_engine *engine;

    uint8_t *bytes;         /* owned copy of the binary */
    size_t len;
    size_t bytes_cap;       /* its base_bulk_alloc size (0: malloc'd) */

    uint32_t ntypes;
    mod_functype *types;
    /* Some value type of the module (a function type's, a local's, a
       global's, a table's, a segment's, a block type's is found by the
       compiler) is more than its public code: a typed or non-nullable
       reference. The fast validator, which keeps one byte per type,
       leaves such modules to the compiler. */
    bool typed_refs;

    uint32_t nimports;
    mod_import *imports;

    /* Index spaces. For each kind: first the imported ones, then own. */
    uint32_t nfuncs, nfunc_imports;
    uint32_t *func_types;       /* type index of every function (nfuncs) */
    mod_func *funcs;            /* own functions: funcs[i - nfunc_imports] */

    uint32_t ntables, ntable_imports;
    mod_tabletype *tables;      /* all tables, imported first */
    /* Own tables' initialiser expressions (table section form 0x40 0x00,
       Wasm 3.0 §5.5.7), table_inits[i - ntable_imports]; op 0 when the
       table has none (its elements start null). */
    mod_constexpr *table_inits;

    uint32_t nmems, nmem_imports;
    weft_limits *mems;          /* all memories, imported first, in pages */

    uint32_t nglobals, nglobal_imports;
    mod_globaltype *global_types; /* all globals, imported first */
    mod_global *globals;          /* own globals: globals[i - nglobal_imports] */

    /* Tags (exception handling, Wasm 3.0 §2.5.10): the type index of
       every tag, imported first; each names a function type with no
       results, whose params are the exception's payload. */
    uint32_t ntags, ntag_imports;
    uint32_t *tag_types;

    uint32_t nexports;
    mod_export *exports;

    bool has_start;
    uint32_t start;

    uint32_t nelems;
    mod_elem *elems;

    /* Offset just past the code section once all of it decoded (0 before):
       a later decoding error is reported after the bodies' own (load.c). */
    uint32_t code_end;

    bool has_data_count;
    uint32_t data_count;
    uint32_t ndatas;
    mod_data *datas;

    /* C.refs (§3.4.10): functions that may be named by ref.func in bodies,
       i.e. those referenced outside function bodies. One byte each. */
    uint8_t *func_declared;

    uint32_t ncustoms;
    mod_custom *customs;

    /* Name section (custom "name"), for diagnostics only. */
    char *name;                  /* module name or NULL */
    char **func_names;           /* nfuncs entries, each NULL or a name */

    /* Filled by the compile stage (compile/code.h): the code of own
       functions, code[i - nfunc_imports]. Lazy translation starts each
       entry at the function's stub (stubs[i - nfunc_imports], whose code
       is the one operation LAZY) and replaces it, once, with the compiled
       code on the first call: a release store under compile_lock, read
       with acquire loads and no lock (cmp_func_code). Code, once there,
       never changes until the module is freed. */
    _Atomic(struct cmp_func *) *code;
    struct cmp_func *stubs;
    pthread_mutex_t compile_lock;
    bool compile_lock_ready;
    _Atomic uint32_t ncompiled; /* functions translated so far (tests, statistics) */
};

typedef struct weft_module mod_module;

/* The function type of function `index` (imported or own). */
static inline const mod_functype *mod_func_type(const mod_module *m, uint32_t index) {
    return &m->types[m->func_types[index]];
}

/* The type of tag `index` (imported or own). */
static inline const mod_functype *mod_tag_type(const mod_module *m, uint32_t index) {
    return &m->types[m->tag_types[index]];
}

/* A reader over own function fn's instructions, whose numbers may be
   looked at past the body's end up to the module's (base_reader's
   `limit`: the reference decoder reads on past a body's size). */
static inline base_reader mod_body_reader(const mod_module *m, const mod_func *fn) {
    return (base_reader){m->bytes, fn->body, fn->body + fn->body_len, NULL, m->bytes + m->len};
}
/* What a module that uses the GC proposal (Wasm 3.0's struct, array, rec
   and sub types, GC heap types, the 0xFB instructions) is told, after what
   it used: one wording wherever the decoder or compiler meets GC, naming
   what is missing rather than calling the module malformed. */
#define MOD_GC_NEEDED                                                                      \
    "needs the GC proposal (garbage collection), which weft does not support yet "        \
    "(wasmtime runs such modules with -W gc)"
/* The name of a GC heap type's one-byte code (any, eq, i31, struct, array,
   none), or NULL for any other byte. */
const char *mod_gc_heap_name(uint8_t b);

/* Reading value types (Wasm 3.0 §5.3.4-5.3.5), shared by the decoder and
   the compiler (block types, select t, ref.null). */
typedef enum mod_read_result {
    MOD_READ_OK,
    MOD_READ_SHORT,     /* the reader failed: its `why` says how */
    MOD_READ_MALFORMED, /* e->msg; a GC type: "... " MOD_GC_NEEDED */
    MOD_READ_INVALID,   /* read, but names a type index >= ntypes: e->msg
                           "unknown type N"; *t is set */
} mod_read_result;
typedef struct mod_valtype_err {
    uint32_t offset;
    char msg[256];
} mod_valtype_err;
/* A value type (ref_only: a reference type, §5.3.3): the one-byte codes,
   and with typed function references 0x63 ht (ref null ht) and 0x64 ht
   (ref ht), and the short forms nullfuncref 0x73 and nullexternref 0x72.
   Type indices below `ntypes` are known (the type section passes how
   many precede the one being read, plus itself). exnref and nullexnref
   (0x74) need WEFT_FEATURE_EXCEPTIONS. */
/* A one-byte reference type (§5.3.4: funcref, externref, exnref and the
   short forms nullfuncref, nullexternref, nullexnref) that m's features
   allow, as a mod_valtype; 0 for any other byte. */
mod_valtype mod_short_reftype(const mod_module *m, uint8_t b);
mod_read_result mod_read_valtype(base_reader *r, const mod_module *m, uint32_t ntypes, bool ref_only,
                                 mod_valtype *t, mod_valtype_err *e);
/* ref.null's immediate: a heap type (3.0), a reference type's byte (2.0);
   *t is the nullable reference type it makes. */
mod_read_result mod_read_heaptype(base_reader *r, const mod_module *m, mod_valtype *t,
                                  mod_valtype_err *e);

/* Decodes `bytes` into `m` (zeroed by the caller; m->bytes/len already set to
   the module's own copy) and performs every module-level validation check
   except function bodies: index bounds, limits, constant expressions, export
   name uniqueness, start function type, C.refs, data count. Returns
   WEFT_OK, WEFT_ERR_MALFORMED (binary format §5) or WEFT_ERR_INVALID
   (validation §3) with the spec's wording and the byte offset. */
weft_status mod_decode(mod_module *m, weft_error *err);

/* Frees everything mod_decode allocated (not m itself, not m->code). */
void mod_free_contents(mod_module *m);

#endif
