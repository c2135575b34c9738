/*
 * capi.h — the standard wasm.h on weft.h's objects: what the files of
 * src/capi/ share.
 *
 * Objects. Every reference kind of wasm.h (func, global, table, memory,
 * extern, instance, foreign, module, trap, ref) is one struct, capi_obj,
 * seen through the public types by casts; so wasm_func_as_extern,
 * wasm_extern_as_func, wasm_func_as_ref ... return the pointer they get.
 * A capi_obj is the one wasm.h object of its weft object: a store keeps a
 * map from each weft object (weft_func*, weft_instance*, ...) to its
 * capi_obj, so a function that comes back out of wasm (an export, a
 * funcref, a table element) is the same capi_obj as before, with its host
 * info. An externref's bits are the capi_obj pointer itself.
 *
 * Counting. obj->refs counts the references handed to the host (each own
 * result is one; wasm_T_copy adds one, wasm_T_delete drops one) plus one
 * while the store holds the object (in_store). Store objects are held from
 * their making until wasm_store_delete, which runs their host-info
 * finalizers, frees the weft store, and leaves what the host still holds
 * as husks (kind kept, weft pointer NULL: every call on one fails cleanly)
 * freed by their last delete. Modules and traps are not store objects:
 * they go with their last reference, unless a store adopted one because it
 * became an externref (capi_obj_pin), which holds it until the store goes.
 *
 * Threads: a store and its objects are used by one thread at a time
 * (wasm.h's rule), so the counts are plain integers. Shared modules hold a
 * counted weft_module (atomic) and nothing else.
 *
 * Layering: weft.h, and base.h's helpers; peek.c alone reads four facts
 * from weft's internal structs that weft.h does not give (a function's
 * instance and body offset, a module's binary, a table's declared
 * limits).
 */
#ifndef WEFT_CAPI_H
#define WEFT_CAPI_H

#include <stdio.h>

#include "../base/base.h"
#include "wasm.h"
#include "weft_wasm.h"

#define own

typedef enum capi_kind {
    /* The four extern kinds first, equal to wasm_externkind_t's values. */
    CAPI_FUNC = WASM_EXTERN_FUNC,
    CAPI_GLOBAL = WASM_EXTERN_GLOBAL,
    CAPI_TABLE = WASM_EXTERN_TABLE,
    CAPI_MEMORY = WASM_EXTERN_MEMORY,
    CAPI_INSTANCE,
    CAPI_FOREIGN,
    CAPI_MODULE,
    CAPI_TRAP,
} capi_kind;

typedef struct capi_trap capi_trap;
typedef struct capi_call capi_call;

typedef struct capi_obj {
    uint8_t kind;              /* capi_kind */
    bool in_store;             /* the store holds one of refs */
    uint32_t refs;
    wasm_store_t *store;       /* NULL: no store (modules, traps) or gone */
    void *host_info;
    void (*finalizer)(void *);
    struct capi_sig *sig;      /* functions: their signature for calls, made
                                  on the first (func.c); freed with the obj */
    union {
        weft_func *func;
        weft_global *global;
        weft_table *table;
        weft_memory *memory;
        weft_instance *instance;
        weft_module *module;   /* counted reference */
        capi_trap *trap;
        void *any;             /* the map's key; foreign: the obj itself */
    } of;
} capi_obj;

#define CAPI_OBJ(p) ((capi_obj *)(p))
#define CAPI_IS_EXTERN(kind) ((kind) <= CAPI_MEMORY)

/* Pointer -> capi_obj, open addressing with linear probing. */
typedef struct capi_map {
    void **keys;
    capi_obj **vals;
    size_t cap, len;           /* cap: a power of two, or 0 */
} capi_map;

struct wasm_config_t {
    weft_config config;
};

struct wasm_engine_t {
    weft_engine *engine;
};

struct wasm_store_t {
    wasm_engine_t *engine;     /* borrowed */
    weft_store *store;
    capi_map objs;             /* every object the store holds */
    /* The trap a host function returned, waiting for the wasm_func_call
       (or wasm_instance_new) around it to hand it back (func.c). */
    capi_obj *pending_trap;
    weft_linker *wasi_linker;  /* weft_wasi_define_store */
    /* The execution wasm_func_call runs its calls on (made on the first),
       busy while one runs: a call made from inside a host function then
       goes through weft_func_call. No atomics: one thread at a time. */
    weft_exec *exec;
    bool exec_busy;
    /* The records of the call on `exec` (func.c), made with it. */
    struct capi_call *call;
    BASE_VEC(weft_shared_memory *) shared; /* retained, released at delete */
};

/* ---- Types (types.c) ---- */
struct wasm_valtype_t {
    wasm_valkind_t kind;
};
struct wasm_externtype_t {
    wasm_externkind_t kind;    /* the header of the four below */
};
struct wasm_functype_t {
    wasm_externkind_t kind;
    wasm_valtype_vec_t params, results;
};
struct wasm_globaltype_t {
    wasm_externkind_t kind;
    wasm_mutability_t mutability;
    wasm_valtype_t *content;
};
struct wasm_tabletype_t {
    wasm_externkind_t kind;
    wasm_valtype_t *element;
    wasm_limits_t limits;
};
struct wasm_memorytype_t {
    wasm_externkind_t kind;
    bool shared;
    wasm_limits_t limits;
};
struct wasm_importtype_t {
    wasm_name_t module, name;
    wasm_externtype_t *type;
};
struct wasm_exporttype_t {
    wasm_name_t name;
    wasm_externtype_t *type;
};

/* wasm.h kinds <-> weft.h value types. 0 when there is none. */
weft_valtype capi_valtype_to_weft(wasm_valkind_t kind);
wasm_valkind_t capi_valkind_from_weft(weft_valtype type);
/* weft.h limits <-> wasm_limits_t (max = wasm_limits_max_default for none). */
wasm_limits_t capi_limits_from_weft(weft_limits l);
weft_limits capi_limits_to_weft(const wasm_limits_t *l, bool shared);
/* A new wasm.h type from a weft.h one; NULL when out of memory. */
wasm_externtype_t *capi_externtype_from_weft(const weft_externtype *t);
wasm_functype_t *capi_functype_from_weft(const weft_functype *t);

/* ---- Objects and stores (store.c) ---- */

/* The object of `ptr` (a weft object of `kind`) in `store`, made and held
   by the store on first sight. Not counted for the caller: add a
   reference (capi_obj_ref) to hand it out. NULL when out of memory. */
capi_obj *capi_store_obj(wasm_store_t *store, capi_kind kind, void *ptr);
/* A new object that the store holds and maps from the object itself
   (foreign). NULL when out of memory. */
capi_obj *capi_store_new_obj(wasm_store_t *store, capi_kind kind);
/* Makes the store hold `o` (a module or trap that became an externref),
   so its pointer stays valid while wasm may hold it. False when out of
   memory. */
bool capi_obj_pin(wasm_store_t *store, capi_obj *o);
/* A free-standing object (module, trap) with one reference. */
capi_obj *capi_obj_new(capi_kind kind);
static inline capi_obj *capi_obj_ref(capi_obj *o) {
    if (o) o->refs++;
    return o;
}
void capi_obj_unref(capi_obj *o);
/* Frees what a module or trap object owns (module.c, trap.c). */
void capi_module_release(capi_obj *o);
void capi_trap_release(capi_obj *o);

/* ---- Values (values.c) ---- */

/* The wasm.h kind of a weft number type, -1 for a reference or a v128.
   Calls copy numbers' 8 bytes of value directly between weft_val and
   wasm_val_t (both unions keep i32/f32 in the low 4 bytes, and weft reads
   only those for them): the fast path of func.c. */
static inline int capi_num_kind(weft_valtype t) {
    switch (t) {
    case WEFT_I32: return WASM_I32;
    case WEFT_I64: return WASM_I64;
    case WEFT_F32: return WASM_F32;
    case WEFT_F64: return WASM_F64;
    }
    return -1;
}

/* wasm_val_t -> weft_val of type `want` for a call into `store`. False
   with a reason in `why` (a static string) on a kind mismatch or a ref of
   the wrong kind. References stay the caller's (they are not consumed). */
bool capi_val_to_weft(wasm_store_t *store, const wasm_val_t *v, weft_valtype want, weft_val *out,
                      const char **why);
/* weft_val -> wasm_val_t. A reference becomes an owned reference when
   `owned` (a result for the host), a borrowed one otherwise (arguments of
   a host function). False when out of memory or for a v128. */
bool capi_val_from_weft(wasm_store_t *store, const weft_val *v, wasm_val_t *out, bool owned);

/* ---- Traps (trap.c) ---- */

/* An owned trap with `message` (len bytes, a NUL added if missing). */
capi_obj *capi_trap_new(const char *message, size_t len);
/* An owned trap from a failed weft call: the pending host trap when the
   failure is one, else weft's message; the frames from `err`, resolved
   against `store` (`hint`: the instance most likely running, may be NULL).
   NULL only when out of memory. */
capi_obj *capi_trap_from_error(wasm_store_t *store, const weft_error *err, weft_status st,
                               weft_instance *hint);
/* printf-style trap; NULL when out of memory. */
capi_obj *capi_trap_fmt(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ---- Functions (func.c) ---- */
/* A function's signature as calls use it: counts, weft types and wasm.h
   kinds of the parameters then the results, and whether all are numbers
   (the fast path of wasm_func_call). */
typedef struct capi_sig {
    uint32_t nparams, nresults;
    bool numeric;
    weft_valtype *types;       /* nparams + nresults */
    wasm_valkind_t *kinds;     /* nparams + nresults */
} capi_sig;
void capi_sig_free(capi_sig *sig);

/* ---- What weft.h does not say (peek.c, the one file that reads
   weft's internal structs) ---- */
/* The instance of a wasm function, NULL for a host function. */
weft_instance *capi_func_instance(const weft_func *f);
/* The module offset of the first instruction of function `func_index`'s
   body; UINT32_MAX for an imported function or a bad index. */
uint32_t capi_func_body_offset(const weft_module *m, uint32_t func_index);
/* The module's binary as loaded (weft keeps a copy). */
const uint8_t *capi_module_bytes(const weft_module *m, size_t *len);
/* The declared limits of a table (the size is the current minimum). */
weft_limits capi_table_limits(const weft_table *t);

#endif
