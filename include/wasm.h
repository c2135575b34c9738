/*
 * wasm.h — the standard WebAssembly C API (github.com/WebAssembly/wasm-c-api),
 * as libweft implements it.
 *
 * This is weft's own text of the interface that wasmtime, WAMR, wasmer and V8
 * also implement: the same names, signatures, ownership rules and meaning,
 * so a host written against any of them builds against libweft unchanged
 * (`cc host.c $(pkg-config --cflags --libs weft)`). docs/capi.md is the
 * guide; include/weft_wasm.h reaches what the standard does not cover (WASI,
 * the weft objects behind a store or module, shared memories).
 *
 * Ownership. `own` marks what changes hands, read like `const`:
 *   - an `own T*` result: the caller now owns it and deletes it once, with
 *     wasm_T_delete (every delete accepts NULL);
 *   - an `own T*` parameter: the callee takes it over (the caller must not
 *     delete it afterwards);
 *   - an `own` pointer parameter named `out`: the callee fills it and the
 *     caller owns what it put there;
 *   - an `own` vector owns its array and every element in it; a deleted
 *     vector deletes its elements.
 * Everything else is borrowed for the call.
 *
 * References. wasm_func_t, wasm_global_t, wasm_table_t, wasm_memory_t,
 * wasm_extern_t, wasm_instance_t, wasm_foreign_t, wasm_module_t and
 * wasm_trap_t are kinds of wasm_ref_t. Deleting a reference drops the
 * caller's hold on the object, not the object: functions, globals, tables,
 * memories, instances and foreign objects live in their store until
 * wasm_store_delete; modules and traps live until their last reference
 * goes. wasm_T_copy makes another reference to the same object (in weft,
 * the same pointer); wasm_T_same says whether two references are to one
 * object. Host info (wasm_T_set_host_info) belongs to the object, so every
 * reference sees it, and its finalizer runs when the object goes (for store
 * objects: in wasm_store_delete). NULL is the null reference.
 *
 * Threads. A store and everything made in it belong to one thread at a
 * time. Engines may be used from any thread. A module moves to another
 * thread's store through wasm_module_share / wasm_module_obtain (weft
 * compiles it once and shares the code). wasm_shared_module_t and the types
 * (valtype ... exporttype) are plain data, safe to read from any thread.
 *
 * Errors. Functions that make an object return NULL (or false) when the
 * arguments are wrong or memory runs out; they never abort. Traps carry a
 * message a person can read, the frame where they happened and a
 * backtrace.
 */
#ifndef WASM_H
#define WASM_H

#include <assert.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#ifndef WASM_API_EXTERN
#if defined(__GNUC__)
#define WASM_API_EXTERN __attribute__((visibility("default")))
#else
#define WASM_API_EXTERN
#endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Basic types and the macros that declare each family of functions.
 * ------------------------------------------------------------------------ */

typedef char byte_t;
typedef float float32_t;
typedef double float64_t;

/* Marks a transfer of ownership (see the top of this file); expands to
   nothing. Undefined again at the end of the header. */
#define own

/* An owned object type: `wasm_NAME_t` and its destructor. */
#define WASM_DECLARE_OWN(name)                       \
    typedef struct wasm_##name##_t wasm_##name##_t;  \
    WASM_API_EXTERN void wasm_##name##_delete(own wasm_##name##_t *);

/* A vector: `size` elements at `data` (NULL when size is 0). Elements are
   `wasm_NAME_t` values, or pointers to them when ptr_or_none is `*`.
     new_empty(out)               size 0, data NULL
     new_uninitialized(out, n)    room for n; pointer elements start NULL
     new(out, n, elems)           copies the n elements' bytes; for pointer
                                  vectors the objects are taken over (own)
     copy(out, vec)               a deep copy: each element copied
     delete(vec)                  deletes each element, then the array, and
                                  leaves size 0, data NULL */
#define WASM_DECLARE_VEC(name, ptr_or_none)                                                   \
    typedef struct wasm_##name##_vec_t {                                                      \
        size_t size;                                                                          \
        wasm_##name##_t ptr_or_none *data;                                                    \
    } wasm_##name##_vec_t;                                                                    \
    WASM_API_EXTERN void wasm_##name##_vec_new_empty(own wasm_##name##_vec_t *out);           \
    WASM_API_EXTERN void wasm_##name##_vec_new_uninitialized(own wasm_##name##_vec_t *out,    \
                                                             size_t size);                    \
    WASM_API_EXTERN void wasm_##name##_vec_new(own wasm_##name##_vec_t *out, size_t size,     \
                                               own wasm_##name##_t ptr_or_none const data[]); \
    WASM_API_EXTERN void wasm_##name##_vec_copy(own wasm_##name##_vec_t *out,                 \
                                                const wasm_##name##_vec_t *src);              \
    WASM_API_EXTERN void wasm_##name##_vec_delete(own wasm_##name##_vec_t *vec);

/* Bytes, and names (byte vectors of UTF-8, not NUL-terminated unless said). */
typedef byte_t wasm_byte_t;
WASM_DECLARE_VEC(byte, )

typedef wasm_byte_vec_t wasm_name_t;
#define wasm_name wasm_byte_vec
#define wasm_name_new wasm_byte_vec_new
#define wasm_name_new_empty wasm_byte_vec_new_empty
#define wasm_name_new_uninitialized wasm_byte_vec_new_uninitialized
#define wasm_name_new_new_uninitialized wasm_byte_vec_new_uninitialized /* upstream's spelling */
#define wasm_name_copy wasm_byte_vec_copy
#define wasm_name_delete wasm_byte_vec_delete

/* A name of the bytes of `s`, without its NUL. */
static inline void wasm_name_new_from_string(own wasm_name_t *out, const char *s) {
    wasm_name_new(out, strlen(s), s);
}
/* The same with the NUL counted in (what wasm_message_t wants). */
static inline void wasm_name_new_from_string_nt(own wasm_name_t *out, const char *s) {
    wasm_name_new(out, strlen(s) + 1, s);
}

/* ------------------------------------------------------------------------
 * Configuration, engine, store.
 * ------------------------------------------------------------------------ */

/* Engine options; weft's are set through weft_wasm_config_set
   (weft_wasm.h). wasm_engine_new_with_config takes the config over. */
WASM_DECLARE_OWN(config)
WASM_API_EXTERN own wasm_config_t *wasm_config_new(void);

/* An engine: weft's weft_engine (limits, features, the memory reservation
   pool). Any number may exist; any thread may use one. Delete it after
   every store and module made with it. NULL when out of memory. */
WASM_DECLARE_OWN(engine)
WASM_API_EXTERN own wasm_engine_t *wasm_engine_new(void);
WASM_API_EXTERN own wasm_engine_t *wasm_engine_new_with_config(own wasm_config_t *config);

/* A store: the owner of every function, global, table, memory, instance and
   foreign object made in it, all freed (and their finalizers run) by
   wasm_store_delete. One thread at a time. */
WASM_DECLARE_OWN(store)
WASM_API_EXTERN own wasm_store_t *wasm_store_new(wasm_engine_t *engine);

/* ------------------------------------------------------------------------
 * Types: plain data, made by the host or read from a module.
 * ------------------------------------------------------------------------ */

typedef uint8_t wasm_mutability_t;
enum wasm_mutability_enum {
    WASM_CONST,
    WASM_VAR,
};

/* Sizes in elements (tables) or 64 KiB pages (memories); max is
   wasm_limits_max_default when there is none. */
typedef struct wasm_limits_t {
    uint32_t min;
    uint32_t max;
} wasm_limits_t;

static const uint32_t wasm_limits_max_default = 0xffffffff;

/* A type family: owned, vectors of pointers, and a copy. */
#define WASM_DECLARE_TYPE(name)  \
    WASM_DECLARE_OWN(name)       \
    WASM_DECLARE_VEC(name, *)    \
    WASM_API_EXTERN own wasm_##name##_t *wasm_##name##_copy(const wasm_##name##_t *);

/* Value types. */
WASM_DECLARE_TYPE(valtype)

typedef uint8_t wasm_valkind_t;
enum wasm_valkind_enum {
    WASM_I32,
    WASM_I64,
    WASM_F32,
    WASM_F64,
    /* weft's addition: SIMD's v128 appears in the types of modules that
       use it; wasm_val_t cannot hold one, so such functions cannot be
       called through this API (wasm_func_call returns a trap saying so). */
    WASM_V128 = 4,
    WASM_EXTERNREF = 128,
    WASM_FUNCREF,
};

/* NULL for a kind that is none of the above. */
WASM_API_EXTERN own wasm_valtype_t *wasm_valtype_new(wasm_valkind_t kind);
WASM_API_EXTERN wasm_valkind_t wasm_valtype_kind(const wasm_valtype_t *type);

static inline bool wasm_valkind_is_num(wasm_valkind_t k) { return k < WASM_EXTERNREF; }
static inline bool wasm_valkind_is_ref(wasm_valkind_t k) { return k >= WASM_EXTERNREF; }
static inline bool wasm_valtype_is_num(const wasm_valtype_t *t) {
    return wasm_valkind_is_num(wasm_valtype_kind(t));
}
static inline bool wasm_valtype_is_ref(const wasm_valtype_t *t) {
    return wasm_valkind_is_ref(wasm_valtype_kind(t));
}

/* Function types: takes both vectors over (they are left empty). NULL if
   an element is NULL. */
WASM_DECLARE_TYPE(functype)
WASM_API_EXTERN own wasm_functype_t *wasm_functype_new(own wasm_valtype_vec_t *params,
                                                       own wasm_valtype_vec_t *results);
/* Borrowed from the function type. */
WASM_API_EXTERN const wasm_valtype_vec_t *wasm_functype_params(const wasm_functype_t *type);
WASM_API_EXTERN const wasm_valtype_vec_t *wasm_functype_results(const wasm_functype_t *type);

/* Global types: takes the value type over. */
WASM_DECLARE_TYPE(globaltype)
WASM_API_EXTERN own wasm_globaltype_t *wasm_globaltype_new(own wasm_valtype_t *content,
                                                           wasm_mutability_t mutability);
WASM_API_EXTERN const wasm_valtype_t *wasm_globaltype_content(const wasm_globaltype_t *type);
WASM_API_EXTERN wasm_mutability_t wasm_globaltype_mutability(const wasm_globaltype_t *type);

/* Table types: takes the element type over (a reference type); the
   limits are copied. */
WASM_DECLARE_TYPE(tabletype)
WASM_API_EXTERN own wasm_tabletype_t *wasm_tabletype_new(own wasm_valtype_t *element,
                                                         const wasm_limits_t *limits);
WASM_API_EXTERN const wasm_valtype_t *wasm_tabletype_element(const wasm_tabletype_t *type);
WASM_API_EXTERN const wasm_limits_t *wasm_tabletype_limits(const wasm_tabletype_t *type);

/* Memory types: limits in pages, copied. (A shared memory's type says so
   through weft_wasm_memorytype_shared, weft_wasm.h.) */
WASM_DECLARE_TYPE(memorytype)
WASM_API_EXTERN own wasm_memorytype_t *wasm_memorytype_new(const wasm_limits_t *limits);
WASM_API_EXTERN const wasm_limits_t *wasm_memorytype_limits(const wasm_memorytype_t *type);

/* Extern types: any of the four above. The as_ conversions return the same
   object seen as another type (borrowed, no copy), or NULL when it is of
   another kind. */
WASM_DECLARE_TYPE(externtype)

typedef uint8_t wasm_externkind_t;
enum wasm_externkind_enum {
    WASM_EXTERN_FUNC,
    WASM_EXTERN_GLOBAL,
    WASM_EXTERN_TABLE,
    WASM_EXTERN_MEMORY,
};

WASM_API_EXTERN wasm_externkind_t wasm_externtype_kind(const wasm_externtype_t *type);

WASM_API_EXTERN wasm_externtype_t *wasm_functype_as_externtype(wasm_functype_t *);
WASM_API_EXTERN wasm_externtype_t *wasm_globaltype_as_externtype(wasm_globaltype_t *);
WASM_API_EXTERN wasm_externtype_t *wasm_tabletype_as_externtype(wasm_tabletype_t *);
WASM_API_EXTERN wasm_externtype_t *wasm_memorytype_as_externtype(wasm_memorytype_t *);

WASM_API_EXTERN wasm_functype_t *wasm_externtype_as_functype(wasm_externtype_t *);
WASM_API_EXTERN wasm_globaltype_t *wasm_externtype_as_globaltype(wasm_externtype_t *);
WASM_API_EXTERN wasm_tabletype_t *wasm_externtype_as_tabletype(wasm_externtype_t *);
WASM_API_EXTERN wasm_memorytype_t *wasm_externtype_as_memorytype(wasm_externtype_t *);

WASM_API_EXTERN const wasm_externtype_t *wasm_functype_as_externtype_const(const wasm_functype_t *);
WASM_API_EXTERN const wasm_externtype_t *wasm_globaltype_as_externtype_const(const wasm_globaltype_t *);
WASM_API_EXTERN const wasm_externtype_t *wasm_tabletype_as_externtype_const(const wasm_tabletype_t *);
WASM_API_EXTERN const wasm_externtype_t *wasm_memorytype_as_externtype_const(const wasm_memorytype_t *);

WASM_API_EXTERN const wasm_functype_t *wasm_externtype_as_functype_const(const wasm_externtype_t *);
WASM_API_EXTERN const wasm_globaltype_t *wasm_externtype_as_globaltype_const(const wasm_externtype_t *);
WASM_API_EXTERN const wasm_tabletype_t *wasm_externtype_as_tabletype_const(const wasm_externtype_t *);
WASM_API_EXTERN const wasm_memorytype_t *wasm_externtype_as_memorytype_const(const wasm_externtype_t *);

/* Import types: module name, name, type; all three taken over. */
WASM_DECLARE_TYPE(importtype)
WASM_API_EXTERN own wasm_importtype_t *wasm_importtype_new(own wasm_name_t *module,
                                                           own wasm_name_t *name,
                                                           own wasm_externtype_t *type);
WASM_API_EXTERN const wasm_name_t *wasm_importtype_module(const wasm_importtype_t *type);
WASM_API_EXTERN const wasm_name_t *wasm_importtype_name(const wasm_importtype_t *type);
WASM_API_EXTERN const wasm_externtype_t *wasm_importtype_type(const wasm_importtype_t *type);

/* Export types: name and type, taken over. */
WASM_DECLARE_TYPE(exporttype)
WASM_API_EXTERN own wasm_exporttype_t *wasm_exporttype_new(own wasm_name_t *name,
                                                           own wasm_externtype_t *type);
WASM_API_EXTERN const wasm_name_t *wasm_exporttype_name(const wasm_exporttype_t *type);
WASM_API_EXTERN const wasm_externtype_t *wasm_exporttype_type(const wasm_exporttype_t *type);

/* ------------------------------------------------------------------------
 * Values.
 * ------------------------------------------------------------------------ */

/* A reference passed into wasm (an argument, a global's or a table's
   value) must belong to the store it goes to: a funcref a function of it,
   an externref any reference of it, or a module or trap (which the store
   then keeps while wasm may hold them). Others are refused. */
struct wasm_ref_t;

/* A value and its kind. A value of a reference kind owns its reference when
   the value itself is owned (wasm_val_delete drops it). */
typedef struct wasm_val_t {
    wasm_valkind_t kind;
    union {
        int32_t i32;
        int64_t i64;
        float32_t f32;
        float64_t f64;
        struct wasm_ref_t *ref;
    } of;
} wasm_val_t;

/* Drops the reference of a reference value (nothing for numbers). */
WASM_API_EXTERN void wasm_val_delete(own wasm_val_t *v);
/* Copies a value; a reference is copied with wasm_ref_copy. */
WASM_API_EXTERN void wasm_val_copy(own wasm_val_t *out, const wasm_val_t *v);

WASM_DECLARE_VEC(val, )

/* ------------------------------------------------------------------------
 * References: the functions every reference kind has.
 * ------------------------------------------------------------------------ */

/* copy, same, and host info (see the top of this file). A finalizer set
   with the info is called once with it: when the object goes, or when the
   info is replaced (then with the old info). */
#define WASM_DECLARE_REF_BASE(name)                                                            \
    WASM_DECLARE_OWN(name)                                                                     \
    WASM_API_EXTERN own wasm_##name##_t *wasm_##name##_copy(const wasm_##name##_t *);          \
    WASM_API_EXTERN bool wasm_##name##_same(const wasm_##name##_t *, const wasm_##name##_t *); \
    WASM_API_EXTERN void *wasm_##name##_get_host_info(const wasm_##name##_t *);                \
    WASM_API_EXTERN void wasm_##name##_set_host_info(wasm_##name##_t *, void *);               \
    WASM_API_EXTERN void wasm_##name##_set_host_info_with_finalizer(wasm_##name##_t *, void *, \
                                                                    void (*)(void *));

/* ... plus conversions to and from wasm_ref_t: the same object, borrowed;
   wasm_ref_as_NAME gives NULL for a reference of another kind. */
#define WASM_DECLARE_REF(name)                                                                \
    WASM_DECLARE_REF_BASE(name)                                                               \
    WASM_API_EXTERN wasm_ref_t *wasm_##name##_as_ref(wasm_##name##_t *);                      \
    WASM_API_EXTERN wasm_##name##_t *wasm_ref_as_##name(wasm_ref_t *);                        \
    WASM_API_EXTERN const wasm_ref_t *wasm_##name##_as_ref_const(const wasm_##name##_t *);    \
    WASM_API_EXTERN const wasm_##name##_t *wasm_ref_as_##name##_const(const wasm_ref_t *);

/* ... plus a form that may cross threads: share makes a thread-safe handle,
   obtain makes a reference of it in a store of another (or the same)
   thread. */
#define WASM_DECLARE_SHARABLE_REF(name)                                                       \
    WASM_DECLARE_REF(name)                                                                    \
    WASM_DECLARE_OWN(shared_##name)                                                           \
    WASM_API_EXTERN own wasm_shared_##name##_t *wasm_##name##_share(const wasm_##name##_t *); \
    WASM_API_EXTERN own wasm_##name##_t *wasm_##name##_obtain(wasm_store_t *,                 \
                                                              const wasm_shared_##name##_t *);

WASM_DECLARE_REF_BASE(ref)

/* ------------------------------------------------------------------------
 * Frames and traps.
 * ------------------------------------------------------------------------ */

/* One frame of a trap's backtrace: the instance (borrowed from the frame;
   NULL when weft cannot tell which instance of the module it was), the
   function index in its module, the byte offset of the instruction from
   the start of the function's body and from the start of the module. */
WASM_DECLARE_OWN(frame)
WASM_DECLARE_VEC(frame, *)
WASM_API_EXTERN own wasm_frame_t *wasm_frame_copy(const wasm_frame_t *frame);
WASM_API_EXTERN struct wasm_instance_t *wasm_frame_instance(const wasm_frame_t *frame);
WASM_API_EXTERN uint32_t wasm_frame_func_index(const wasm_frame_t *frame);
WASM_API_EXTERN size_t wasm_frame_func_offset(const wasm_frame_t *frame);
WASM_API_EXTERN size_t wasm_frame_module_offset(const wasm_frame_t *frame);

/* A trap's message: bytes ending with a NUL, counted in `size`. */
typedef wasm_name_t wasm_message_t;

WASM_DECLARE_REF(trap)

/* A trap with a copy of `message` (a NUL is added when it lacks one), for a
   host function to return. Traps are not kept by the store. */
WASM_API_EXTERN own wasm_trap_t *wasm_trap_new(wasm_store_t *store, const wasm_message_t *message);
/* A copy of the message, NUL included. For a trap of wasm code it is the
   spec's wording ("unreachable", "integer divide by zero", ...); for a trap
   a host function returned, that trap's own message. */
WASM_API_EXTERN void wasm_trap_message(const wasm_trap_t *trap, own wasm_message_t *out);
/* The innermost frame, or NULL when the trap has no wasm frame (one made
   with wasm_trap_new and never passed through wasm). */
WASM_API_EXTERN own wasm_frame_t *wasm_trap_origin(const wasm_trap_t *trap);
/* Every frame, innermost first (at most 32; weft's backtrace limit). */
WASM_API_EXTERN void wasm_trap_trace(const wasm_trap_t *trap, own wasm_frame_vec_t *out);

/* ------------------------------------------------------------------------
 * Foreign objects: host values that wasm holds as externref.
 * ------------------------------------------------------------------------ */

WASM_DECLARE_REF(foreign)
/* A new object, owned by the store until wasm_store_delete. */
WASM_API_EXTERN own wasm_foreign_t *wasm_foreign_new(wasm_store_t *store);

/* ------------------------------------------------------------------------
 * Modules.
 * ------------------------------------------------------------------------ */

WASM_DECLARE_SHARABLE_REF(module)

/* Decodes, validates and compiles `binary` (copied) with the store's
   engine. NULL when the bytes are not a valid module or memory runs out;
   weft_wasm_module_new (weft_wasm.h) does the same and says why. */
WASM_API_EXTERN own wasm_module_t *wasm_module_new(wasm_store_t *store, const wasm_byte_vec_t *binary);
/* True when `binary` is a valid module. */
WASM_API_EXTERN bool wasm_module_validate(wasm_store_t *store, const wasm_byte_vec_t *binary);

/* What the module imports and exports, in module order. */
WASM_API_EXTERN void wasm_module_imports(const wasm_module_t *module, own wasm_importtype_vec_t *out);
WASM_API_EXTERN void wasm_module_exports(const wasm_module_t *module, own wasm_exporttype_vec_t *out);

/* Bytes that wasm_module_deserialize turns back into the module, with any
   engine of the same libweft version. weft's form is a short header (magic
   "weftmod", format version, length, the weft version that wrote it, a
   64-bit checksum of header and module) followed by the module's binary:
   weft translates functions lazily on first call, so there is no machine
   code worth keeping, and deserializing validates again (it accepts
   nothing that wasm_module_new would not). An empty vector when out of
   memory. wasm_module_deserialize gives NULL for bytes not made by
   wasm_module_serialize (of this weft version), altered since (the
   checksum: even a change that leaves a valid module), or not a valid
   module; weft_wasm_module_deserialize (weft_wasm.h) says which. */
WASM_API_EXTERN void wasm_module_serialize(const wasm_module_t *module, own wasm_byte_vec_t *out);
WASM_API_EXTERN own wasm_module_t *wasm_module_deserialize(wasm_store_t *store, const wasm_byte_vec_t *bytes);

/* ------------------------------------------------------------------------
 * Functions.
 * ------------------------------------------------------------------------ */

WASM_DECLARE_REF(func)

/* A host function. `args` holds the parameters (borrowed: copy a reference
   to keep it); `results` has room for the results, whose kinds and values
   the function sets (references in it are taken over). Return NULL, or a
   trap (taken over) to trap the caller: wasm_func_call then returns that
   same trap, with the frames of the wasm code that called the host. */
typedef own wasm_trap_t *(*wasm_func_callback_t)(const wasm_val_vec_t *args,
                                                 own wasm_val_vec_t *results);
typedef own wasm_trap_t *(*wasm_func_callback_with_env_t)(void *env, const wasm_val_vec_t *args,
                                                          wasm_val_vec_t *results);

/* Makes a host function of `type` (copied) in the store. With an env, every
   call gets it, and `finalizer` (may be NULL) is called with it when the
   store is deleted. NULL for a NULL argument or when out of memory. */
WASM_API_EXTERN own wasm_func_t *wasm_func_new(wasm_store_t *store, const wasm_functype_t *type,
                                               wasm_func_callback_t callback);
WASM_API_EXTERN own wasm_func_t *wasm_func_new_with_env(wasm_store_t *store,
                                                        const wasm_functype_t *type,
                                                        wasm_func_callback_with_env_t callback,
                                                        void *env, void (*finalizer)(void *));

WASM_API_EXTERN own wasm_functype_t *wasm_func_type(const wasm_func_t *func);
WASM_API_EXTERN size_t wasm_func_param_arity(const wasm_func_t *func);
WASM_API_EXTERN size_t wasm_func_result_arity(const wasm_func_t *func);

/* Calls `func` on this thread. `args` must hold the parameters, of their
   kinds; `results` must have one place per result (the result arity,
   wasm_func_result_arity) and gets the results (its values are
   overwritten; references put there are owned by the caller). NULL on
   success, else an owned trap: the guest's trap, a host function's, a WASI
   exit (weft_wasm_trap_exit_code), or a wrong call (a wrong count or kind
   of arguments, a results vector of another size: a trap saying which,
   and nothing runs) — never a crash. A call from inside a host function
   is refused with the trap "call stack exhausted" when the thread's
   native stack is nearly spent (docs/capi.md, "Native stack"). */
WASM_API_EXTERN own wasm_trap_t *wasm_func_call(const wasm_func_t *func, const wasm_val_vec_t *args,
                                                wasm_val_vec_t *results);

/* ------------------------------------------------------------------------
 * Globals.
 * ------------------------------------------------------------------------ */

WASM_DECLARE_REF(global)

/* A global of `type` holding `value` (of the type's kind). NULL on a kind
   mismatch. */
WASM_API_EXTERN own wasm_global_t *wasm_global_new(wasm_store_t *store, const wasm_globaltype_t *type,
                                                   const wasm_val_t *value);
WASM_API_EXTERN own wasm_globaltype_t *wasm_global_type(const wasm_global_t *global);
WASM_API_EXTERN void wasm_global_get(const wasm_global_t *global, own wasm_val_t *out);
/* Does nothing for an immutable global or a value of another kind. */
WASM_API_EXTERN void wasm_global_set(wasm_global_t *global, const wasm_val_t *value);

/* ------------------------------------------------------------------------
 * Tables.
 * ------------------------------------------------------------------------ */

WASM_DECLARE_REF(table)

typedef uint32_t wasm_table_size_t;

/* A table of `type`, every element `init` (NULL: null). NULL for bad
   limits, or an init of the wrong kind. */
WASM_API_EXTERN own wasm_table_t *wasm_table_new(wasm_store_t *store, const wasm_tabletype_t *type,
                                                 wasm_ref_t *init);
WASM_API_EXTERN own wasm_tabletype_t *wasm_table_type(const wasm_table_t *table);
/* The element at `index`: NULL for a null element or out of bounds. */
WASM_API_EXTERN own wasm_ref_t *wasm_table_get(const wasm_table_t *table, wasm_table_size_t index);
/* False out of bounds, or for a reference of the wrong kind or of another
   store. */
WASM_API_EXTERN bool wasm_table_set(wasm_table_t *table, wasm_table_size_t index, wasm_ref_t *ref);
WASM_API_EXTERN wasm_table_size_t wasm_table_size(const wasm_table_t *table);
/* False past the maximum. */
WASM_API_EXTERN bool wasm_table_grow(wasm_table_t *table, wasm_table_size_t delta, wasm_ref_t *init);

/* ------------------------------------------------------------------------
 * Memories.
 * ------------------------------------------------------------------------ */

WASM_DECLARE_REF(memory)

typedef uint32_t wasm_memory_pages_t;

static const size_t MEMORY_PAGE_SIZE = 0x10000;

WASM_API_EXTERN own wasm_memory_t *wasm_memory_new(wasm_store_t *store, const wasm_memorytype_t *type);
WASM_API_EXTERN own wasm_memorytype_t *wasm_memory_type(const wasm_memory_t *memory);
/* The bytes: weft's memories never move, so the pointer stays valid across
   growth for the memory's whole life. */
WASM_API_EXTERN byte_t *wasm_memory_data(wasm_memory_t *memory);
WASM_API_EXTERN size_t wasm_memory_data_size(const wasm_memory_t *memory);
WASM_API_EXTERN wasm_memory_pages_t wasm_memory_size(const wasm_memory_t *memory);
/* False past the maximum. */
WASM_API_EXTERN bool wasm_memory_grow(wasm_memory_t *memory, wasm_memory_pages_t delta);

/* ------------------------------------------------------------------------
 * Externs: a function, global, table or memory, as imports and exports.
 * ------------------------------------------------------------------------ */

WASM_DECLARE_REF(extern)
WASM_DECLARE_VEC(extern, *)

WASM_API_EXTERN wasm_externkind_t wasm_extern_kind(const wasm_extern_t *ext);
WASM_API_EXTERN own wasm_externtype_t *wasm_extern_type(const wasm_extern_t *ext);

/* The same object seen as an extern, or an extern seen as what it is
   (NULL when it is another kind). Borrowed. */
WASM_API_EXTERN wasm_extern_t *wasm_func_as_extern(wasm_func_t *);
WASM_API_EXTERN wasm_extern_t *wasm_global_as_extern(wasm_global_t *);
WASM_API_EXTERN wasm_extern_t *wasm_table_as_extern(wasm_table_t *);
WASM_API_EXTERN wasm_extern_t *wasm_memory_as_extern(wasm_memory_t *);

WASM_API_EXTERN wasm_func_t *wasm_extern_as_func(wasm_extern_t *);
WASM_API_EXTERN wasm_global_t *wasm_extern_as_global(wasm_extern_t *);
WASM_API_EXTERN wasm_table_t *wasm_extern_as_table(wasm_extern_t *);
WASM_API_EXTERN wasm_memory_t *wasm_extern_as_memory(wasm_extern_t *);

WASM_API_EXTERN const wasm_extern_t *wasm_func_as_extern_const(const wasm_func_t *);
WASM_API_EXTERN const wasm_extern_t *wasm_global_as_extern_const(const wasm_global_t *);
WASM_API_EXTERN const wasm_extern_t *wasm_table_as_extern_const(const wasm_table_t *);
WASM_API_EXTERN const wasm_extern_t *wasm_memory_as_extern_const(const wasm_memory_t *);

WASM_API_EXTERN const wasm_func_t *wasm_extern_as_func_const(const wasm_extern_t *);
WASM_API_EXTERN const wasm_global_t *wasm_extern_as_global_const(const wasm_extern_t *);
WASM_API_EXTERN const wasm_table_t *wasm_extern_as_table_const(const wasm_extern_t *);
WASM_API_EXTERN const wasm_memory_t *wasm_extern_as_memory_const(const wasm_extern_t *);

/* ------------------------------------------------------------------------
 * Instances.
 * ------------------------------------------------------------------------ */

WASM_DECLARE_REF(instance)

/* Instantiates `module` with `imports`, one per import of the module in
   its order (borrowed). Runs the start function. NULL on failure; then,
   when `trap` is not NULL, *trap is an owned trap saying why: the start
   function's trap, a segment out of bounds, or a link error (a missing
   import, one of the wrong kind or type, the wrong number of imports, named
   in the message). On success *trap is set to NULL. */
WASM_API_EXTERN own wasm_instance_t *wasm_instance_new(wasm_store_t *store, const wasm_module_t *module,
                                                       const wasm_extern_vec_t *imports,
                                                       own wasm_trap_t **trap);
/* The exports, in module order. */
WASM_API_EXTERN void wasm_instance_exports(const wasm_instance_t *instance, own wasm_extern_vec_t *out);

/* ------------------------------------------------------------------------
 * Shorthands.
 * ------------------------------------------------------------------------ */

#define WASM_EMPTY_VEC {0, NULL}
#define WASM_ARRAY_VEC(array) {sizeof(array) / sizeof(*(array)), array}

static inline own wasm_valtype_t *wasm_valtype_new_i32(void) { return wasm_valtype_new(WASM_I32); }
static inline own wasm_valtype_t *wasm_valtype_new_i64(void) { return wasm_valtype_new(WASM_I64); }
static inline own wasm_valtype_t *wasm_valtype_new_f32(void) { return wasm_valtype_new(WASM_F32); }
static inline own wasm_valtype_t *wasm_valtype_new_f64(void) { return wasm_valtype_new(WASM_F64); }
static inline own wasm_valtype_t *wasm_valtype_new_externref(void) {
    return wasm_valtype_new(WASM_EXTERNREF);
}
static inline own wasm_valtype_t *wasm_valtype_new_funcref(void) {
    return wasm_valtype_new(WASM_FUNCREF);
}

/* wasm_functype_new_P_R: a function type of P parameters and R results,
   taking the value types over (weft_wasm_functype_new_ is their common
   body, not part of the standard). */
static inline own wasm_functype_t *weft_wasm_functype_new_(wasm_valtype_t *const *ps, size_t np,
                                                         wasm_valtype_t *const *rs, size_t nr) {
    wasm_valtype_vec_t params, results;
    if (np) wasm_valtype_vec_new(&params, np, ps);
    else wasm_valtype_vec_new_empty(&params);
    if (nr) wasm_valtype_vec_new(&results, nr, rs);
    else wasm_valtype_vec_new_empty(&results);
    return wasm_functype_new(&params, &results);
}
static inline own wasm_functype_t *wasm_functype_new_0_0(void) {
    return weft_wasm_functype_new_(NULL, 0, NULL, 0);
}
static inline own wasm_functype_t *wasm_functype_new_1_0(own wasm_valtype_t *p) {
    wasm_valtype_t *ps[1] = {p};
    return weft_wasm_functype_new_(ps, 1, NULL, 0);
}
static inline own wasm_functype_t *wasm_functype_new_2_0(own wasm_valtype_t *p1, own wasm_valtype_t *p2) {
    wasm_valtype_t *ps[2] = {p1, p2};
    return weft_wasm_functype_new_(ps, 2, NULL, 0);
}
static inline own wasm_functype_t *wasm_functype_new_3_0(own wasm_valtype_t *p1, own wasm_valtype_t *p2,
                                                         own wasm_valtype_t *p3) {
    wasm_valtype_t *ps[3] = {p1, p2, p3};
    return weft_wasm_functype_new_(ps, 3, NULL, 0);
}
static inline own wasm_functype_t *wasm_functype_new_0_1(own wasm_valtype_t *r) {
    wasm_valtype_t *rs[1] = {r};
    return weft_wasm_functype_new_(NULL, 0, rs, 1);
}
static inline own wasm_functype_t *wasm_functype_new_1_1(own wasm_valtype_t *p, own wasm_valtype_t *r) {
    wasm_valtype_t *ps[1] = {p}, *rs[1] = {r};
    return weft_wasm_functype_new_(ps, 1, rs, 1);
}
static inline own wasm_functype_t *wasm_functype_new_2_1(own wasm_valtype_t *p1, own wasm_valtype_t *p2,
                                                         own wasm_valtype_t *r) {
    wasm_valtype_t *ps[2] = {p1, p2}, *rs[1] = {r};
    return weft_wasm_functype_new_(ps, 2, rs, 1);
}
static inline own wasm_functype_t *wasm_functype_new_3_1(own wasm_valtype_t *p1, own wasm_valtype_t *p2,
                                                         own wasm_valtype_t *p3, own wasm_valtype_t *r) {
    wasm_valtype_t *ps[3] = {p1, p2, p3}, *rs[1] = {r};
    return weft_wasm_functype_new_(ps, 3, rs, 1);
}
static inline own wasm_functype_t *wasm_functype_new_0_2(own wasm_valtype_t *r1, own wasm_valtype_t *r2) {
    wasm_valtype_t *rs[2] = {r1, r2};
    return weft_wasm_functype_new_(NULL, 0, rs, 2);
}
static inline own wasm_functype_t *wasm_functype_new_1_2(own wasm_valtype_t *p, own wasm_valtype_t *r1,
                                                         own wasm_valtype_t *r2) {
    wasm_valtype_t *ps[1] = {p}, *rs[2] = {r1, r2};
    return weft_wasm_functype_new_(ps, 1, rs, 2);
}
static inline own wasm_functype_t *wasm_functype_new_2_2(own wasm_valtype_t *p1, own wasm_valtype_t *p2,
                                                         own wasm_valtype_t *r1, own wasm_valtype_t *r2) {
    wasm_valtype_t *ps[2] = {p1, p2}, *rs[2] = {r1, r2};
    return weft_wasm_functype_new_(ps, 2, rs, 2);
}
static inline own wasm_functype_t *wasm_functype_new_3_2(own wasm_valtype_t *p1, own wasm_valtype_t *p2,
                                                         own wasm_valtype_t *p3, own wasm_valtype_t *r1,
                                                         own wasm_valtype_t *r2) {
    wasm_valtype_t *ps[3] = {p1, p2, p3}, *rs[2] = {r1, r2};
    return weft_wasm_functype_new_(ps, 3, rs, 2);
}

/* A pointer carried in an integer value of the pointer's width. */
static inline void wasm_val_init_ptr(own wasm_val_t *out, void *p) {
#if UINTPTR_MAX == UINT32_MAX
    out->kind = WASM_I32;
    out->of.i32 = (int32_t)(intptr_t)p;
#else
    out->kind = WASM_I64;
    out->of.i64 = (int64_t)(intptr_t)p;
#endif
}
static inline void *wasm_val_ptr(const wasm_val_t *val) {
#if UINTPTR_MAX == UINT32_MAX
    return (void *)(intptr_t)val->of.i32;
#else
    return (void *)(intptr_t)val->of.i64;
#endif
}

/* Initialisers of wasm_val_t. */
#define WASM_I32_VAL(i) {.kind = WASM_I32, .of = {.i32 = i}}
#define WASM_I64_VAL(i) {.kind = WASM_I64, .of = {.i64 = i}}
#define WASM_F32_VAL(z) {.kind = WASM_F32, .of = {.f32 = z}}
#define WASM_F64_VAL(z) {.kind = WASM_F64, .of = {.f64 = z}}
#define WASM_REF_VAL(r) {.kind = WASM_EXTERNREF, .of = {.ref = r}}
#define WASM_INIT_VAL {.kind = WASM_EXTERNREF, .of = {.ref = NULL}}

#undef own

#ifdef __cplusplus
}
#endif
#endif /* WASM_H */
