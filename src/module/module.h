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

/* A function type. params and results point into one allocation owned by
   the module (or by a host function). */
typedef struct mod_functype {
    uint32_t nparams, nresults;
    weft_valtype *params;
    weft_valtype *results;
} mod_functype;

bool mod_functype_equal(const mod_functype *a, const mod_functype *b);

typedef struct mod_tabletype {
    weft_valtype elem; /* WEFT_FUNCREF or WEFT_EXTERNREF */
    weft_limits limits;
} mod_tabletype;

typedef struct mod_globaltype {
    weft_valtype type;
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
    weft_valtype type; /* the value type it produces */
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
    weft_valtype *local_types;  /* nlocals entries */
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
    weft_valtype type;      /* WEFT_FUNCREF or WEFT_EXTERNREF */
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

    uint32_t ntypes;
    mod_functype *types;

    uint32_t nimports;
    mod_import *imports;

    /* Index spaces. For each kind: first the imported ones, then own. */
    uint32_t nfuncs, nfunc_imports;
    uint32_t *func_types;       /* type index of every function (nfuncs) */
    mod_func *funcs;            /* own functions: funcs[i - nfunc_imports] */

    uint32_t ntables, ntable_imports;
    mod_tabletype *tables;      /* all tables, imported first */

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
