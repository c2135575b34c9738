/*
 * weft.h — the public interface of libweft, a WebAssembly runtime.
 *
 * This header is the manual. Every function says what it borrows, copies or
 * transfers, and from which threads it may be called.
 *
 * The objects, from the longest-lived to the shortest:
 *
 *   weft_engine    configuration and limits. Thread-safe; outlives everything.
 *   weft_module    a decoded, validated and compiled module. Immutable after
 *                  weft_module_load, so it may be shared by any number of
 *                  threads and instances. Reference counted.
 *   weft_store     owns instances and the host objects made in it (functions,
 *                  tables, memories, globals); all are freed together with
 *                  the store. Objects of one store may only be linked with
 *                  objects of the same store. A store is used by one thread at
 *                  a time unless a function says otherwise.
 *   weft_instance  an instantiated module, owned by its store.
 *   weft_exec      one execution (a call in progress, or suspended), with its
 *                  own operand and frame stacks.
 *
 * Errors: every fallible call returns a weft_status and, when given a
 * non-NULL weft_error, fills it with a message a person can act on. A
 * weft_error is a plain caller-owned struct: nothing to free.
 */
#ifndef WEFT_H
#define WEFT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define WEFT_API __attribute__((visibility("default")))
#else
#define WEFT_API
#endif

/* The version of this header; weft_version() gives the library's, which
   differs only when a program runs against another libweft.so than the
   one it was built with. The Makefile reads the number from here (the
   shared library's soname is libweft.so.MAJOR). */
#define WEFT_VERSION_MAJOR 0
#define WEFT_VERSION_MINOR 1
#define WEFT_VERSION_PATCH 0
#define WEFT_VERSION "0.1.0"
/* "0.1.0": the version of the library linked in. Static string. */
WEFT_API const char *weft_version(void);

/* ------------------------------------------------------------------------
 * Status codes, grouped by kind.
 * ------------------------------------------------------------------------ */
typedef enum weft_status {
    WEFT_OK = 0,
    WEFT_SUSPENDED = 1,      /* execution paused at a safe point; resumable */
    WEFT_ERR_MALFORMED = 10, /* the bytes are not a well-formed module */
    WEFT_ERR_INVALID = 11,   /* well-formed but fails validation */
    WEFT_ERR_LINK = 12,      /* an import is missing or has the wrong type */
    WEFT_ERR_TRAP = 13,      /* execution trapped (see weft_error.trap) */
    WEFT_ERR_EXIT = 14,      /* the guest asked to exit (WASI proc_exit);
                                weft_error.exit_code holds the code */
    WEFT_ERR_EXCEPTION = 15, /* a wasm exception left the call uncaught
                                (weft_error.exception: its tag and payload);
                                a host function returns it to throw */
    WEFT_ERR_NOMEM = 20,     /* out of memory, or a resource limit */
    WEFT_ERR_LIMIT = 21,     /* a configured limit was exceeded */
    WEFT_ERR_MISUSE = 30,    /* the API was called wrongly (bad argument) */
    WEFT_ERR_NOT_FOUND = 31, /* a name or index does not exist */
    WEFT_ERR_IO = 32,        /* reading a file failed */
    /* Channels (workers): */
    WEFT_ERR_TIMEOUT = 40,   /* the wait's deadline passed (nothing to
                                take, or a join before the end) */
    WEFT_ERR_FULL = 41,      /* the channel's message or byte count is at
                                its limit (after waiting, if asked to) */
    WEFT_ERR_TOO_LARGE = 42, /* the message is over the channel's limit */
    WEFT_ERR_CLOSED = 43,    /* the channel is closed: no more sends; a
                                receive sees it once drained (end of stream) */
} weft_status;

/* Why an execution trapped. The message of each is the spec's wording. */
typedef enum weft_trap {
    WEFT_TRAP_NONE = 0,
    WEFT_TRAP_UNREACHABLE,          /* "unreachable" */
    WEFT_TRAP_MEM_OOB,              /* "out of bounds memory access" */
    WEFT_TRAP_TABLE_OOB,            /* "out of bounds table access" */
    WEFT_TRAP_INDIRECT_OOB,         /* "undefined element" */
    WEFT_TRAP_INDIRECT_NULL,        /* "uninitialized element" */
    WEFT_TRAP_INDIRECT_TYPE,        /* "indirect call type mismatch" */
    WEFT_TRAP_DIV_ZERO,             /* "integer divide by zero" */
    WEFT_TRAP_INT_OVERFLOW,         /* "integer overflow" */
    WEFT_TRAP_BAD_CONVERSION,       /* "invalid conversion to integer" */
    WEFT_TRAP_STACK_EXHAUSTED,      /* "call stack exhausted" */
    WEFT_TRAP_NULL_REF,             /* "null reference" (reserved) */
    WEFT_TRAP_UNALIGNED_ATOMIC,     /* "unaligned atomic" */
    WEFT_TRAP_EXPECTED_SHARED,      /* "expected shared memory" */
    WEFT_TRAP_HOST,                 /* a host function reported a trap */
    WEFT_TRAP_STOPPED,              /* execution stopped on request */
    WEFT_TRAP_OUT_OF_FUEL,          /* "all fuel consumed" (weft_store_set_fuel) */
    WEFT_TRAP_COUNT_
} weft_trap;

/* The spec's message for a trap kind ("integer divide by zero", ...). */
WEFT_API const char *weft_trap_message(weft_trap trap);

/* One frame of a trap backtrace, innermost first. */
typedef struct weft_frame {
    uint32_t func_index; /* function index in its module */
    uint32_t offset;     /* byte offset of the instruction in the module */
    const struct weft_module *module; /* borrowed; NULL for host frames */
} weft_frame;

#define WEFT_ERROR_MESSAGE_MAX 512
#define WEFT_BACKTRACE_MAX 32

/* Filled by every fallible call given a non-NULL pointer. Caller-owned. */
typedef struct weft_error {
    weft_status status;
    weft_trap trap;          /* for WEFT_ERR_TRAP */
    int32_t exit_code;       /* for WEFT_ERR_EXIT */
    uint32_t func_index;     /* where it applies, else UINT32_MAX */
    uint32_t offset;         /* byte offset in the module, else UINT32_MAX */
    uint32_t frame_count;    /* backtrace frames recorded (<= MAX) */
    uint32_t frames_dropped; /* frames beyond WEFT_BACKTRACE_MAX */
    weft_frame frames[WEFT_BACKTRACE_MAX];
    char message[WEFT_ERROR_MESSAGE_MAX];
    /* WEFT_ERR_EXCEPTION: the exception (weft_exn_tag, weft_exn_args),
       owned by the store it was thrown in and valid as long as it. */
    struct weft_exn *exception;
} weft_error;

/* Human-readable name of a status ("malformed module", "trap", ...). */
WEFT_API const char *weft_status_name(weft_status status);

/* ------------------------------------------------------------------------
 * Types. Value types use the binary format's codes.
 * ------------------------------------------------------------------------ */
typedef uint8_t weft_valtype;
#define WEFT_I32 0x7F
#define WEFT_I64 0x7E
#define WEFT_F32 0x7D
#define WEFT_F64 0x7C
#define WEFT_V128 0x7B
#define WEFT_FUNCREF 0x70
#define WEFT_EXTERNREF 0x6F
/* exnref (exception handling, Wasm 3.0 §2.3.3): a nullable reference to
   an exception (weft_exn). */
#define WEFT_EXNREF 0x69
/* Wasm 3.0 typed references ((ref null? $t), (ref func), ...) reach a host
   as the top type of their hierarchy: every function reference, typed or
   not, nullable or not, is WEFT_FUNCREF (a weft_func *, NULL for null);
   every external one WEFT_EXTERNREF. weft_func_call refuses a NULL
   argument for a non-nullable parameter (WEFT_ERR_MISUSE); it does not
   check that a function passed for a (ref $t) parameter has type $t. */

/* The text name of a value type ("i32", "funcref", ...). */
WEFT_API const char *weft_valtype_name(weft_valtype t);

typedef struct weft_functype {
    uint32_t nparams;
    uint32_t nresults;
    const weft_valtype *params;  /* borrowed */
    const weft_valtype *results; /* borrowed */
} weft_functype;

typedef struct weft_limits {
    uint64_t min;
    uint64_t max;    /* meaningful only when has_max */
    bool has_max;
    bool shared;     /* memories only (threads proposal) */
    bool is64;       /* memories only (memory64): i64 addresses, min and max
                        up to 2^48 pages. weft gives such a memory up to
                        weft_config's max_memory_bytes, 16 GiB when that
                        is 0 (docs/cli.md, "Limits"). */
} weft_limits;

typedef enum weft_extern_kind {
    WEFT_EXTERN_FUNC = 0,
    WEFT_EXTERN_TABLE = 1,
    WEFT_EXTERN_MEMORY = 2,
    WEFT_EXTERN_GLOBAL = 3,
    WEFT_EXTERN_TAG = 4, /* exception tags (Wasm 3.0 §2.5.10) */
} weft_extern_kind;

/* The type of an import or export. Pointers are borrowed from the module. */
typedef struct weft_externtype {
    weft_extern_kind kind;
    weft_functype func;           /* WEFT_EXTERN_FUNC; WEFT_EXTERN_TAG: the
                                     tag's type (params, no results) */
    weft_valtype table_elem;      /* WEFT_EXTERN_TABLE */
    weft_limits limits;           /* tables (elements) and memories (pages) */
    weft_valtype global_type;     /* WEFT_EXTERN_GLOBAL */
    bool global_mutable;
} weft_externtype;

/* ------------------------------------------------------------------------
 * Values. Floats are carried as bit patterns so NaN payloads survive.
 * ------------------------------------------------------------------------ */
typedef struct weft_func weft_func;

typedef struct weft_val {
    weft_valtype type;
    union {
        int32_t i32;
        int64_t i64;
        uint32_t f32_bits;
        uint64_t f64_bits;
        weft_func *func;   /* funcref; NULL is ref.null func */
        void *externref;   /* externref; NULL is ref.null extern */
        struct weft_exn *exnref; /* exnref; NULL is ref.null exn */
        uint64_t bits;
        uint8_t v128[16];  /* v128 (SIMD): its bytes, lane 0 first (little-endian) */
    } of;
} weft_val;

/* ------------------------------------------------------------------------
 * Engine.
 * ------------------------------------------------------------------------ */
typedef struct weft_config {
    /* Bytes of operand/frame stack per execution. 0 = default (8 MiB). */
    uint64_t max_stack_bytes;
    /* Maximum nesting of wasm calls per execution. 0 = default: one per 64
       bytes of stack, at least 100000. */
    uint32_t max_call_depth;
    /* Upper bound on any linear memory, in bytes. 0 = no bound beyond the
       module's own maximum (4 GiB for 32-bit memories), and 16 GiB for a
       64-bit one (memory64; at most 2^47 bytes in any case). A memory
       reserves address space for its bound (MAP_NORESERVE), committed as
       touched. */
    uint64_t max_memory_bytes;
    /* Proposals to turn off (WEFT_FEATURE_* bits); 0 = all that weft
       implements are on. With threads off, the decoder reads exactly Wasm
       2.0: shared-memory limit flags are malformed and 0xFE is an illegal
       opcode. */
    uint32_t disabled_features;
    /* When function bodies are translated into weft's internal code:
       WEFT_COMPILE_LAZY (0, the default) on each function's first call, so
       start-up costs what runs and the code of what never runs costs no
       memory; WEFT_COMPILE_EAGER all at load (as before: the first call
       of a function never compiles, and weft_module_load reports any
       failure to translate). Validation (§3) is complete at load either
       way: a module invalid anywhere is refused by weft_module_load. */
    uint32_t compile_mode;
    /* Encodings that are off unless named here (WEFT_FEATURE_* bits of
       that kind; 0 = none): WEFT_FEATURE_COMPACT_IMPORTS. */
    uint32_t enabled_features;
    /* Which tier runs wasm code (docs/jit.md): WEFT_TIER_INTERP (0, the
       default) the interpreter alone; WEFT_TIER_JIT every function is
       also compiled to machine code when it is translated (its first
       call, or at load with WEFT_COMPILE_EAGER), and runs as that, the
       interpreter taking what the compiled code leaves to it. A build
       without the compiler tier (weft_jit_built() false: anything but
       x86-64 Linux) runs WEFT_TIER_JIT as WEFT_TIER_INTERP.
       WEFT_TIER_AUTO: functions start interpreted and a function found
       hot is compiled while it runs (sampled each millisecond of running:
       at its second sample), a running loop going on in the machine code
       at its next safe point. Results, traps, fuel and deterministic
       interleavings are the same on every tier. */
    uint32_t tier;
} weft_config;

#define WEFT_COMPILE_LAZY 0u
#define WEFT_COMPILE_EAGER 1u
#define WEFT_TIER_INTERP 0u
#define WEFT_TIER_JIT 1u
#define WEFT_TIER_AUTO 2u

#define WEFT_FEATURE_THREADS 0x1u /* shared memories, atomics, wait/notify */
#define WEFT_FEATURE_SIMD 0x2u    /* fixed-width SIMD: the v128 type and the 0xFD
                                     prefix; off, both are malformed */
/* Wasm 3.0 features (issue 24), one bit each, named as wasmtime's -W keys.
   A bit for a feature this build does not implement yet changes nothing:
   the feature is off whatever the config says (weft_features_supported()
   tells which are there). Off, the decoder and validator read Wasm 2.0. */
#define WEFT_FEATURE_EXTENDED_CONST 0x4u /* i32/i64.add/sub/mul and global.get of
                                            any earlier immutable global in
                                            constant expressions (§3.4.10) */
#define WEFT_FEATURE_MULTI_MEMORY 0x8u   /* more than one memory */
#define WEFT_FEATURE_MEMORY64 0x10u      /* 64-bit memories and tables */
#define WEFT_FEATURE_TAIL_CALL 0x20u     /* return_call, return_call_indirect */
#define WEFT_FEATURE_EXCEPTIONS 0x40u    /* tags, throw, try_table, exnref */
#define WEFT_FEATURE_FUNCTION_REFERENCES 0x80u /* typed function references */
#define WEFT_FEATURE_RELAXED_SIMD 0x100u /* relaxed SIMD: one fixed result per
                                            operation, docs/simd.md */
/* Off unless a config's enabled_features has it: the compact import
   encoding of the compact-import-section proposal (not part of Wasm 3.0),
   which wast2json 1.0.41 --enable-all writes into the Wasm 3.0 spec
   scripts' modules; weft-spectest turns it on for those. Without it, a
   module in that encoding is malformed, as Wasm 3.0 says. */
#define WEFT_FEATURE_COMPACT_IMPORTS 0x10000u
/* Every WEFT_FEATURE_* bit that some Wasm 3.0 feature uses. */
#define WEFT_FEATURES_WASM3                                                    \
    (WEFT_FEATURE_EXTENDED_CONST | WEFT_FEATURE_MULTI_MEMORY |                 \
     WEFT_FEATURE_MEMORY64 | WEFT_FEATURE_TAIL_CALL | WEFT_FEATURE_EXCEPTIONS | \
     WEFT_FEATURE_FUNCTION_REFERENCES | WEFT_FEATURE_RELAXED_SIMD)

/* The WEFT_FEATURE_* bits this build implements (on unless a config's
   disabled_features turns them off; WEFT_FEATURE_COMPACT_IMPORTS off
   unless its enabled_features turns it on). Thread-safe; no allocation. */
WEFT_API uint32_t weft_features_supported(void);
/* The name of one WEFT_FEATURE_* bit as wasmtime's -W key spells it
   ("threads", "tail-call", ...), or NULL if `feature` is not exactly one
   known bit. A static string. Thread-safe. */
WEFT_API const char *weft_feature_name(uint32_t feature);

/* How this build and CPU run SIMD lanes: "portable C" (built with
   -DWEFT_SIMD_PORTABLE=1, or not x86-64), "sse2", or "sse2+ssse3" (SSSE3
   found at run time; shuffles and swizzles use it). A static string.
   Thread-safe. */
WEFT_API const char *weft_simd_backend(void);
/* Whether this build has the compiler tier (x86-64 Linux). */
WEFT_API bool weft_jit_built(void);
/* Functions the compiler tier compiled, and those it left to the
   interpreter (an operation it does not handle yet), in this process so
   far. */
WEFT_API void weft_jit_stats(uint64_t *compiled, uint64_t *fell_back);
/* Of the functions compiled so far in this process: the bytes of their
   wasm bodies, of the machine code made for them (without the page
   rounding of its mappings), and the CPU nanoseconds spent translating
   weft's internal code into machine code (the wasm was compiled to that
   code before, as for the interpreter). Any
   pointer may be NULL. */
WEFT_API void weft_jit_sizes(uint64_t *wasm_bytes, uint64_t *code_bytes, uint64_t *compile_ns);

typedef struct weft_engine weft_engine;

/* Creates an engine. `config` is copied; NULL means defaults.
   Returns NULL only when out of memory. Thread-safe. */
WEFT_API weft_engine *weft_engine_new(const weft_config *config);
/* Frees the engine. Every module, store and exec made with it must be freed
   first. Accepts NULL. */
WEFT_API void weft_engine_free(weft_engine *engine);

/* ------------------------------------------------------------------------
 * Modules: decode + validate + compile, once; then shared read-only.
 * ------------------------------------------------------------------------ */
typedef struct weft_module weft_module;

/* Decodes, validates and compiles `bytes` (copied; the caller keeps them).
   On success *out is a new module with one reference. On failure returns
   WEFT_ERR_MALFORMED, WEFT_ERR_INVALID or WEFT_ERR_NOMEM, *out is NULL and
   err says why and where (byte offset, function index). Thread-safe. */
WEFT_API weft_status weft_module_load(weft_engine *engine, const uint8_t *bytes,
                                      size_t len, weft_module **out,
                                      weft_error *err);
/* Reads a file and loads it as above; WEFT_ERR_IO if it cannot be read. */
WEFT_API weft_status weft_module_load_file(weft_engine *engine, const char *path,
                                           weft_module **out, weft_error *err);
/* Adds a reference. Thread-safe. */
WEFT_API weft_module *weft_module_retain(weft_module *module);
/* Drops a reference; the last one frees the module. Instances hold their own
   reference, so a module may be released while its instances live.
   Accepts NULL. Thread-safe. */
WEFT_API void weft_module_release(weft_module *module);

/* A name from a module: `len` bytes of UTF-8 at `data`. Wasm names may
   contain NUL bytes, so compare with the length (weft_instance_export_n,
   weft_linker_define_n take one); data[len] is always a NUL, so a name
   without NULs can also be used as a C string. Borrowed from the module. */
typedef struct weft_name {
    const char *data;
    size_t len;
} weft_name;
/* True when `name` is exactly the C string `s` (so "a\0b" is not "a"). */
WEFT_API bool weft_name_is(weft_name name, const char *s);

/* Inspection: what a module imports, exports and carries, for embedders
   that link by name or list a module's contents. Everything is borrowed
   from the module and lives as long as it does. Each function takes an
   index from 0 to its count - 1 (WEFT_ERR_NOT_FOUND past it, MISUSE for a
   NULL module) and fills the non-NULL out-pointers. Thread-safe. */

/* Imports, in module order. */
WEFT_API uint32_t weft_module_import_count(const weft_module *module);
WEFT_API weft_status weft_module_import(const weft_module *module, uint32_t index,
                                        weft_name *module_name, weft_name *name,
                                        weft_externtype *type);
/* Exports, in module order. */
WEFT_API uint32_t weft_module_export_count(const weft_module *module);
WEFT_API weft_status weft_module_export(const weft_module *module, uint32_t index,
                                        weft_name *name, weft_externtype *type);
/* Custom sections (§5.5.3), in module order, the "name" section included:
   the section's name and its payload (the bytes after the name). */
WEFT_API uint32_t weft_module_custom_count(const weft_module *module);
WEFT_API weft_status weft_module_custom(const weft_module *module, uint32_t index,
                                        weft_name *name, const uint8_t **data,
                                        size_t *len);
/* The function's name from the name section, or NULL. Borrowed. */
WEFT_API const char *weft_module_func_name(const weft_module *module,
                                           uint32_t func_index);

/* ------------------------------------------------------------------------
 * Components (the component model, Binary.md and Explainer.md): decoded and
 * validated once, then shared read-only, instantiated many times (below,
 * after WASI: weft_component_instantiate_wasi).
 * ------------------------------------------------------------------------ */
typedef struct weft_component weft_component;

/* What a binary is, from its first 8 bytes: the layer word tells a core
   module (version 1, layer 0) from a component (layer 1). */
typedef enum weft_binary_type {
    WEFT_BINARY_UNKNOWN = 0,   /* not WebAssembly, or too short to say */
    WEFT_BINARY_MODULE = 1,
    WEFT_BINARY_COMPONENT = 2,
} weft_binary_type;
/* Reads at most 8 bytes of `bytes` (borrowed). Thread-safe. */
WEFT_API weft_binary_type weft_binary_kind(const uint8_t *bytes, size_t len);

/* Decodes and validates a component (`bytes` copied; the caller keeps
   them); its core modules are loaded as by weft_module_load (compiled
   once, shared by every future instance). On success *out has one
   reference. On failure returns WEFT_ERR_MALFORMED (not a well-formed
   component: err->offset is the byte), WEFT_ERR_INVALID (a validation
   rule of the component model, or a core module's), WEFT_ERR_NOMEM or
   WEFT_ERR_LIMIT (docs/components.md lists the limits); *out is NULL.
   Thread-safe. */
WEFT_API weft_status weft_component_load(weft_engine *engine, const uint8_t *bytes, size_t len,
                                         weft_component **out, weft_error *err);
/* Reads a file and loads it as above; WEFT_ERR_IO if it cannot be read. */
WEFT_API weft_status weft_component_load_file(weft_engine *engine, const char *path,
                                              weft_component **out, weft_error *err);
/* Adds a reference. Thread-safe. */
WEFT_API weft_component *weft_component_retain(weft_component *component);
/* Drops a reference; the last one frees the component (its core modules
   are released). Accepts NULL. Thread-safe. */
WEFT_API void weft_component_release(weft_component *component);

/* Inspection: the component's imports and exports, in binary order. The
   name is borrowed from the component (as weft_name: data[len] is not
   NUL here, use the length); the type is written as text into `type`
   ("func(x: u32) -> string", "instance { export \"f\": func() }", ...;
   `cap` bytes, NUL-terminated, cut with "..." when longer) when `type`
   is not NULL. WEFT_ERR_NOT_FOUND past the count, MISUSE for NULL.
   Thread-safe. */
WEFT_API uint32_t weft_component_import_count(const weft_component *component);
WEFT_API weft_status weft_component_import(const weft_component *component, uint32_t index,
                                           weft_name *name, char *type, size_t cap);
WEFT_API uint32_t weft_component_export_count(const weft_component *component);
WEFT_API weft_status weft_component_export(const weft_component *component, uint32_t index,
                                           weft_name *name, char *type, size_t cap);

/* ------------------------------------------------------------------------
 * Stores and the objects in them.
 * ------------------------------------------------------------------------ */
typedef struct weft_store weft_store;
typedef struct weft_instance weft_instance;
typedef struct weft_table weft_table;
typedef struct weft_memory weft_memory;
typedef struct weft_global weft_global;
typedef struct weft_tag weft_tag;
typedef struct weft_exn weft_exn;

/* Creates an empty store. NULL when out of memory. `engine` may be NULL (a
   store of host objects): its calls and memories then have the default
   limits. */
WEFT_API weft_store *weft_store_new(weft_engine *engine);
/* Frees the store and everything in it (instances, host functions, tables,
   memories, globals). No execution may be running in it. Accepts NULL. */
WEFT_API void weft_store_free(weft_store *store);

/* Fuel: a deterministic bound on how much wasm a store may run.
 *
 * The unit is one counted safe point passed, and the rule is defined on
 * the wasm code, whatever the compiler makes of it:
 *  - a back-edge taken costs one unit: a br, br_if or br_table that
 *    branches to a loop label (so every loop iteration that goes round
 *    again costs one, whatever instruction closes it);
 *  - a call costs one unit: a wasm function entered by wasm (call,
 *    call_indirect, call_ref, return_call*); the function the host calls
 *    first and host functions called by wasm count nothing;
 *  - nothing else costs anything: straight-line code, forward branches
 *    (to a block's or an if's end, if/else) and returns are free.
 * A loop of N iterations closed by a back-edge costs N - 1; a loop that
 * calls a function in every iteration costs two units an iteration. A
 * program's fuel is the same on every run with the same inputs, on any
 * machine, whatever the scheduling of other programs; it is not
 * wasmtime's unit (one per instruction). The safe point that finds the
 * budget empty traps with WEFT_TRAP_OUT_OF_FUEL ("all fuel consumed")
 * before the back-edge or the callee's first instruction runs: with a
 * budget of N, the program passes N counted safe points and the next one
 * traps. The deterministic scheduler's steps and the cooperative slices
 * counted in safe points (weft_sched_config) count the same points.
 *
 * Every execution of the store (every thread of a process) draws from the
 * same budget, in chunks of up to 1024 units that it gives back when its
 * call ends; so a multi-threaded program as a whole passes at most N safe
 * points, and which thread traps depends on the scheduling.
 *
 * Cost: none without a budget (the interpreter's safe points read the
 * attention word, as they always do); with one, every safe point goes
 * through the attention handler.
 *
 * Sets the budget to `fuel` units for calls started from now on (a call
 * already started keeps the metering it started with);
 * WEFT_FUEL_UNLIMITED turns metering off (the default). Not while an
 * execution of the store runs. WEFT_ERR_MISUSE for a NULL store. */
#define WEFT_FUEL_UNLIMITED UINT64_MAX
WEFT_API weft_status weft_store_set_fuel(weft_store *store, uint64_t fuel);
/* The budget left, WEFT_FUEL_UNLIMITED when not metered. Exact between
   calls; while executions run, each may hold up to a chunk not counted
   here. Any thread. */
WEFT_API uint64_t weft_store_fuel(const weft_store *store);

typedef struct weft_extern {
    weft_extern_kind kind;
    union {
        weft_func *func;
        weft_table *table;
        weft_memory *memory;
        weft_global *global;
        weft_tag *tag;
    } of;
} weft_extern;

/* Passed to host functions: who is calling. Valid only during the call. */
typedef struct weft_caller weft_caller;
/* The calling instance's memory 0, or NULL if it has none. */
WEFT_API weft_memory *weft_caller_memory(weft_caller *caller);
/* The calling instance (NULL when the host calls a host function directly). */
WEFT_API weft_instance *weft_caller_instance(weft_caller *caller);
/* Sets the message of the trap a host function is about to return
   (printf-style). The host function then returns WEFT_ERR_TRAP. */
WEFT_API void weft_caller_trap(weft_caller *caller, const char *fmt, ...);
/* Asks the program to exit with `code` (WASI proc_exit); the host function
   then returns WEFT_ERR_EXIT. */
WEFT_API void weft_caller_exit(weft_caller *caller, int32_t code);
/* Exceptions (Wasm 3.0 exception handling). A host function throws by
   calling one of these and returning WEFT_ERR_EXCEPTION: the exception
   unwinds the calling wasm frames as if the call instruction had thrown
   it. weft_caller_throw makes an exception of `tag` (same store as the
   caller) with `args` (the tag's param types, copied); weft_caller_rethrow
   throws `exn` again (one weft_func_call reported, to pass it on). False,
   with nothing thrown, for a NULL or mismatched argument or out of
   memory: the host function then should trap instead. */
WEFT_API bool weft_caller_throw(weft_caller *caller, weft_tag *tag, const weft_val *args, size_t nargs);
WEFT_API bool weft_caller_rethrow(weft_caller *caller, weft_exn *exn);
/* A word a restartable host function keeps across its restarts: 0 on the
   first call of this host call, then whatever the function stored (e.g.
   the time of the first call, for a relative timeout). */
WEFT_API uint64_t *weft_caller_restart_word(weft_caller *caller);

/* A host function. `args` holds type->nparams values, `results` has room for
   type->nresults values, to be filled with the right types. Return WEFT_OK,
   or WEFT_ERR_TRAP (after weft_caller_trap) to trap, or WEFT_ERR_EXIT (after
   weft_caller_exit) to end the program.

   Or return WEFT_SUSPENDED, having done nothing the guest can see, to be
   called again later with the same arguments (a restartable call): the
   execution pauses on the call, weft_exec_run returns WEFT_SUSPENDED, and
   the next weft_exec_run calls the function again (unless the execution
   was asked to stop meanwhile: then it ends with WEFT_TRAP_STOPPED). On a
   scheduler the agent goes to the back of its queue; WASI calls that
   would block use this to park their agent until their fds are ready or
   their deadline has passed. weft_func_call, which has no one to resume
   for, calls such a function again at once. */
typedef weft_status (*weft_host_fn)(weft_caller *caller, void *env,
                                    const weft_val *args, weft_val *results);

/* Makes a host function in `store`. The type is copied. `env` is passed to
   every call; `finalizer` (may be NULL) is called with env when the store is
   freed. Returns NULL when out of memory. */
WEFT_API weft_func *weft_func_new(weft_store *store, const weft_functype *type,
                                  weft_host_fn fn, void *env,
                                  void (*finalizer)(void *env));
/* The function's type; pointers borrowed from the function. */
WEFT_API weft_functype weft_func_type(const weft_func *func);

/* Host-made tables, memories and globals, owned by the store.
   Return WEFT_ERR_MISUSE for bad limits/types, WEFT_ERR_NOMEM when out of
   memory. Memory limits are in 64 KiB pages. */
WEFT_API weft_status weft_table_new(weft_store *store, weft_valtype elem,
                                    weft_limits limits, weft_table **out,
                                    weft_error *err);
WEFT_API weft_status weft_memory_new(weft_store *store, weft_limits limits,
                                     weft_memory **out, weft_error *err);
WEFT_API weft_status weft_global_new(weft_store *store, weft_val value,
                                     bool mutable_, weft_global **out,
                                     weft_error *err);

/* Tags (exception handling): a host-made tag of `type` (params only;
   results must be empty), owned by the store; its identity is the object,
   so two tags of one type are different tags. NULL for a type with
   results or out of memory. */
WEFT_API weft_tag *weft_tag_new(weft_store *store, const weft_functype *type);
/* The tag's type; pointers borrowed from the tag. */
WEFT_API weft_functype weft_tag_type(const weft_tag *tag);
/* An exception's tag, and its payload: writes up to `cap` values of the
   tag's param types to `out` and returns how many the payload has. The
   exception (from weft_error.exception, or an exnref value) is owned by
   its store: it lives as long as the store (exceptions are not collected
   before GC lands, issue 24). Any thread. */
WEFT_API weft_tag *weft_exn_tag(const weft_exn *exn);
WEFT_API size_t weft_exn_args(const weft_exn *exn, weft_val *out, size_t cap);

/* Memory access. The data pointer stays valid for the memory's whole life:
   memories never move (they are reserved up front and grow in place).
   Size is in bytes. Grow is in pages; *old_pages gets the previous size.
   Grow fails with WEFT_ERR_LIMIT past the maximum. For shared memories
   these may be called from any thread. */
WEFT_API uint8_t *weft_memory_data(weft_memory *mem);
WEFT_API uint64_t weft_memory_size(const weft_memory *mem);
WEFT_API weft_status weft_memory_grow(weft_memory *mem, uint64_t delta_pages,
                                      uint64_t *old_pages);
WEFT_API weft_limits weft_memory_limits(const weft_memory *mem);

/* Tables. get/set fail with WEFT_ERR_NOT_FOUND out of bounds, set with
   WEFT_ERR_MISUSE for a value of the wrong type. */
WEFT_API uint32_t weft_table_size(const weft_table *table);
WEFT_API weft_valtype weft_table_elem_type(const weft_table *table);
WEFT_API weft_status weft_table_get(const weft_table *table, uint32_t index,
                                    weft_val *out);
WEFT_API weft_status weft_table_set(weft_table *table, uint32_t index,
                                    weft_val value);
WEFT_API weft_status weft_table_grow(weft_table *table, uint32_t delta,
                                     weft_val init, uint32_t *old_size);

/* Globals. set fails with WEFT_ERR_MISUSE on an immutable global or a value
   of the wrong type. */
WEFT_API weft_val weft_global_get(const weft_global *global);
WEFT_API weft_status weft_global_set(weft_global *global, weft_val value);
WEFT_API bool weft_global_mutable(const weft_global *global);

/* ------------------------------------------------------------------------
 * Instances.
 * ------------------------------------------------------------------------ */

/* Instantiates `module` in `store` with `imports` given in the module's
   import order (exactly weft_module_import_count of them). Checks each
   import's kind and type (WEFT_ERR_LINK with the import's name and both
   types), allocates globals, tables and memories, applies element and data
   segments in the spec's order and runs the start function. If a segment is
   out of bounds or the start function traps, returns WEFT_ERR_TRAP; the
   instance is then not returned, but effects on imported tables and
   memories remain, as the spec says. The instance is owned by the store. */
WEFT_API weft_status weft_instance_new(weft_store *store, weft_module *module,
                                       const weft_extern *imports,
                                       uint32_t nimports, weft_instance **out,
                                       weft_error *err);
/* The module the instance was made from (borrowed). */
WEFT_API weft_module *weft_instance_module(const weft_instance *inst);
/* Looks an export up by name. WEFT_ERR_NOT_FOUND if absent. */
WEFT_API weft_status weft_instance_export(weft_instance *inst, const char *name,
                                          weft_extern *out);
/* The same for a name of `len` bytes, which may contain NUL bytes (export
   names are any valid UTF-8). */
WEFT_API weft_status weft_instance_export_n(weft_instance *inst, const char *name,
                                            size_t len, weft_extern *out);
/* Convenience: the exported function `name`, or NULL. */
WEFT_API weft_func *weft_instance_func(weft_instance *inst, const char *name);

/* A linker resolves imports by module and name. It borrows the externs
   defined in it; they must belong to the linker's store. */
typedef struct weft_linker weft_linker;
WEFT_API weft_linker *weft_linker_new(weft_store *store);
WEFT_API void weft_linker_free(weft_linker *linker);
/* Defines (module, name) -> extern. Names are copied. A later definition of
   the same pair replaces the earlier one. */
WEFT_API weft_status weft_linker_define(weft_linker *linker, const char *module,
                                        const char *name, weft_extern ext);
/* The same with names of explicit length, which may contain NUL bytes. */
WEFT_API weft_status weft_linker_define_n(weft_linker *linker, weft_name module,
                                          weft_name name, weft_extern ext);
/* Looks (module, name) up: WEFT_OK with *out, WEFT_ERR_NOT_FOUND when it
   is not defined, WEFT_ERR_MISUSE for a NULL argument. */
WEFT_API weft_status weft_linker_get(const weft_linker *linker, weft_name module,
                                     weft_name name, weft_extern *out);
/* Defines every export of `inst` under the module name `module`. */
WEFT_API weft_status weft_linker_define_instance(weft_linker *linker,
                                                 const char *module,
                                                 weft_instance *inst);
/* Resolves every import of `module` (WEFT_ERR_LINK naming the first one that
   is missing: "unknown import: env.foo") and calls weft_instance_new. */
WEFT_API weft_status weft_linker_instantiate(weft_linker *linker,
                                             weft_module *module,
                                             weft_instance **out,
                                             weft_error *err);

/* ------------------------------------------------------------------------
 * Calls and executions.
 * ------------------------------------------------------------------------ */

/* Calls `func` with `nargs` arguments of its parameter types and stores its
   results in `results` (room for `nresults`, which must equal the type's).
   Runs to completion on the calling thread. Returns WEFT_OK, WEFT_ERR_TRAP
   (err has the trap, message and backtrace), WEFT_ERR_EXIT, or
   WEFT_ERR_MISUSE for wrong argument counts or types. */
WEFT_API weft_status weft_func_call(weft_func *func, const weft_val *args,
                                    size_t nargs, weft_val *results,
                                    size_t nresults, weft_error *err);

/* An execution: a call that can be paused at a safe point and resumed,
   possibly on another OS thread. Its frames and operands live in memory it
   owns, never on the C stack. Use from one thread at a time, except
   weft_exec_request, which any thread may call at any time. */
typedef struct weft_exec weft_exec;

/* Makes an execution context for calls into `store`. NULL when out of memory. */
WEFT_API weft_exec *weft_exec_new(weft_store *store);
WEFT_API void weft_exec_free(weft_exec *exec);
/* Prepares a call of `func` with `args` (copied). The call runs on the next
   weft_exec_run. WEFT_ERR_MISUSE if the arguments do not match the type, or
   if a call is already in progress. */
WEFT_API weft_status weft_exec_start(weft_exec *exec, weft_func *func,
                                     const weft_val *args, size_t nargs);
/* Runs (or resumes) the prepared call. Returns WEFT_OK when it finished
   (results via weft_exec_results), WEFT_SUSPENDED when paused by
   WEFT_ATTN_SUSPEND (call weft_exec_run again to resume), or an error. */
WEFT_API weft_status weft_exec_run(weft_exec *exec, weft_error *err);
/* Copies the results of the finished call. */
WEFT_API weft_status weft_exec_results(weft_exec *exec, weft_val *results,
                                       size_t nresults);

/* Requests for a running execution, set in its attention word. The
   interpreter looks at the word at every function entry and loop back-edge.
   A wall-clock limit for a call is a timer that sends WEFT_ATTN_STOP (a
   process has one built in: weft_process_config.timeout_ns). Other bits
   are reserved and ignored. */
#define WEFT_ATTN_SUSPEND 0x1u /* pause at the next safe point; resumable */
#define WEFT_ATTN_STOP 0x2u    /* end with trap WEFT_TRAP_STOPPED */
/* Sets request bits. Safe from any thread, at any time, also while the
   execution runs on another thread. The bits are cleared when honoured. */
WEFT_API void weft_exec_request(weft_exec *exec, uint32_t bits);

/* ------------------------------------------------------------------------
 * The scheduler: executions as agents on a few runner threads.
 * ------------------------------------------------------------------------
 *
 * A scheduler runs agents — today the threads of processes made with
 * weft_process_config.sched — on a few OS threads of its own (runners),
 * the way Go runs goroutines. A runner takes the next ready agent and runs
 * it until it parks, ends, or its time slice is over: then the agent's
 * attention word asks it to yield at its next safe point (function entry
 * or loop back-edge) and it goes to the back of the queue, so a guest that
 * spins cannot starve the others, even on one runner. An agent in a futex
 * wait parks without holding an OS thread; a notify, its timeout or a stop
 * request makes it ready again. So does one in a blocking WASI call (a
 * read of a pipe or socket, poll_oneoff, a sleep): the call parks the
 * agent until its fd is ready or its deadline passes, and is made again
 * (restartable host calls, weft_host_fn). An agent that stays in a host
 * function longer than a slice anyway (a slow disk, a host import that
 * blocks) keeps its runner, and a replacement runner starts in its place,
 * up to max_runners.
 *
 * Ordering and fairness. Ready agents wait in four priority levels; a
 * runner always takes from the highest level that has one. Within a
 * level, ready processes take turns (round robin), and within a process
 * its ready agents are FIFO; so a process gets at least its share of the
 * runners (runners / processes with ready agents) however many threads
 * the others have. A woken agent goes to the back of its process's queue.
 * Timeouts fire within a slice of their deadline (a monitor thread ticks
 * every half slice while agents run).
 *
 * A cooperative scheduler (weft_sched_config.cooperative, below) has no
 * thread at all: the host's event loop runs its agents.
 */
typedef struct weft_sched weft_sched;

typedef enum weft_priority {
    WEFT_PRIORITY_DEFAULT = 0, /* NORMAL */
    WEFT_PRIORITY_MAX = 1,
    WEFT_PRIORITY_HIGH = 2,
    WEFT_PRIORITY_NORMAL = 3,
    WEFT_PRIORITY_LOW = 4,
} weft_priority;

typedef struct weft_sched_config {
    uint32_t runners;     /* runner threads; 0 = the number of cores */
    uint32_t max_runners; /* with replacements for runners held in host
                             calls; 0 = 4 x runners + 4 */
    uint64_t slice_ns;    /* time slice; 0 = 2 ms */
    /* Deterministic mode (docs/sched.md): one runner; an agent gives way
       after a number of executed safe points (here and below: the points
       fuel counts, back-edges taken and calls; weft_store_set_fuel), and
       the next one is picked, both by a PRNG seeded with `seed`; the WASI
       clocks of its processes are a virtual clock that advances with
       executed work (and jumps to the earliest deadline when every agent
       waits on one), random_get is a stream seeded by `seed`, and blocking
       reads wait in place. So the same seed and inputs give the same
       interleaving and output. */
    bool deterministic;
    uint64_t seed;
    /* Deterministic mode's strategy: 0 = a random walk (random step
       lengths, a random ready agent next); d = 1..8: PCT of depth d (random
       priorities, d-1 priority drops at points drawn from the first
       pct_steps executed safe points, default 100,000). */
    uint32_t pct_depth;
    uint64_t pct_steps;
    /* Cooperative mode (docs/coop.md): no thread of the scheduler's own —
       no runner, monitor or poller. Nothing runs until the host calls
       weft_sched_run_until_idle from its event loop, on its thread. A
       call is bounded in time (call_budget_ns, below) or, with
       slice_points, in executed safe points; neither needs a timer
       thread. `runners` and `max_runners` must be 0; not with
       `deterministic`. */
    bool cooperative;
    /* The host wake hook of a cooperative scheduler: called when an agent
       becomes runnable while the scheduler is idle (the last
       weft_sched_run_until_idle returned WEFT_SCHED_IDLE, or none ran
       yet) — a message posted, an async host call completed, a stop
       requested, from any thread — once per such edge: the next call is
       made only after a weft_sched_run_until_idle has returned idle
       again. It runs on the thread that made the agent runnable, possibly
       while weft holds a lock of that operation (a channel's), so it must
       only ask the host's loop for a drain (uv_async_send, a write to an
       eventfd, a flag) and call nothing of weft; two edges' calls may run
       at once on two threads. Not called for what the host drives itself
       (a deadline it reported as passed, an fd of weft_sched_fd, anything
       made runnable inside weft_sched_run_until_idle). NULL = none. */
    void (*wake)(weft_sched *sched, void *user);
    void *wake_user;
    /* Cooperative mode: the wall-clock budget of one
       weft_sched_run_until_idle, in ns; 0 = 1 ms. The call gives no slice
       once it is spent, and a slice ends at the budget's end or slice_ns,
       whichever comes first: the running agent reads the clock every few
       thousand executed safe points (at most 4096, fewer when its safe
       points are slow), so a call returns within the budget plus one such
       interval (docs/coop.md has the figures), whatever the guests do but
       a host call that blocks. */
    uint64_t call_budget_ns;
    /* Cooperative mode: when non-zero, a slice is exactly this many
       executed safe points (at least 2) and nothing reads the clock: a
       count that does not depend on the machine's speed or load (tests, a
       replay), with no time bound on a call but the wall of one slice per
       agent. 0 = slices and calls bounded in time as above. */
    uint64_t slice_points;
} weft_sched_config;

/* Makes a scheduler and starts its runners. `config` is copied (NULL =
   defaults). WEFT_ERR_NOMEM if a thread cannot be made. Thread-safe. */
WEFT_API weft_status weft_sched_new(weft_engine *engine, const weft_sched_config *config,
                                    weft_sched **out, weft_error *err);
/* Stops the runners and frees the scheduler. Every process run on it must
   have returned from weft_process_run first. Accepts NULL. */
WEFT_API void weft_sched_free(weft_sched *sched);
/* Writes what every agent is doing, one line each, into buf (always
   NUL-terminated when size > 0) and returns the length the whole text
   needs, like snprintf: "thread 2 of process 1 is waiting on address
   0x1040 (futex) after 5.01 s". Any thread, any time. */
WEFT_API size_t weft_sched_dump(weft_sched *sched, char *buf, size_t size);
/* Deterministic mode: the safe points executed so far by all its agents
   (the length of a run, e.g. to choose pct_steps); 0 otherwise. */
WEFT_API uint64_t weft_sched_executed(weft_sched *sched);

/* ---- Cooperative mode (weft_sched_config.cooperative; docs/coop.md) ---- */

typedef enum weft_sched_outcome {
    WEFT_SCHED_IDLE = 0,    /* nothing is runnable: wait for the wake hook,
                               the deadline, or weft_sched_fd */
    WEFT_SCHED_YIELDED = 1, /* the fairness wall: `runnable` agents still
                               are; call again soon (after the host's own
                               work) */
} weft_sched_outcome;

/* What one agent's slice ended in. */
typedef enum weft_sched_step {
    WEFT_SCHED_STEP_READY = 0,  /* preempted or yielded: still runnable */
    WEFT_SCHED_STEP_PARKED = 1, /* waits (a message, a futex, an fd, a
                                   deadline, an async host call) */
    WEFT_SCHED_STEP_ENDED = 2,  /* returned, exited, or was stopped */
    WEFT_SCHED_STEP_FAILED = 3, /* trapped or failed */
} weft_sched_step;

/* One slice of weft_sched_run_until_idle. Agents are named as
   weft_sched_dump names them: `group` is the worker's id
   (weft_worker_id), the process's number, or weft_sched_start's id;
   `member` the thread's tid in a process, else 0. */
typedef struct weft_sched_event {
    uint32_t group;
    uint32_t member;
    weft_sched_step step;
    weft_status status;     /* ENDED, FAILED: how its execution ended */
    weft_trap trap;         /* WEFT_ERR_TRAP: which */
} weft_sched_event;

typedef struct weft_sched_summary {
    weft_sched_outcome outcome;
    /* IDLE: the earliest deadline of a parked agent (CLOCK_MONOTONIC ns,
       as clock_gettime gives it), or -1 when none waits on one: once it
       has passed, call weft_sched_run_until_idle. */
    int64_t deadline;
    uint32_t runnable;      /* YIELDED: agents runnable at the return, exactly */
    /* This call's slices, by how they ended (exact). */
    uint32_t ran, parked, ended, failed;
    /* In: the caller's array for the slices' events (may be NULL) and its
       room. Out: events written, in the order the slices ran (at most
       `events_cap`: the counts above stay exact when it is short). */
    weft_sched_event *events;
    uint32_t events_cap;
    uint32_t nevents;
} weft_sched_summary;

/* Runs what is runnable on the calling thread, at most one slice per agent
   (the fairness wall: an agent made runnable again in this call, or
   preempted, waits for the next, as does one started during it; so at
   most as many slices as there were agents), and returns: WEFT_OK with *summary
   filled (it may be NULL); WEFT_ERR_MISUSE when `sched` is not
   cooperative, or a call on it is already running (a host function or
   hook calling it from inside, another thread at the same time). Due
   timers fire and weft_sched_fd's ready fds are taken first; host
   functions, `ended` callbacks and workers' wake hooks run inside it, on
   this thread. Never sleeps; a host call that blocks (a WASI write to a
   full pipe) holds it, as it would hold a runner. */
WEFT_API weft_status weft_sched_run_until_idle(weft_sched *sched, weft_sched_summary *summary);
/* Cooperative mode: the fd of the scheduler's epoll set, in which the fds
   of parked blocking WASI calls are watched. It becomes readable when one
   is ready: add it to the host's loop (uv_poll, epoll, poll) for reading,
   and call weft_sched_run_until_idle then. Owned by the scheduler (do not
   close or read it); -1 for a scheduler that is not cooperative. */
WEFT_API int weft_sched_fd(weft_sched *sched);

/* An execution of the host's as an agent (any mode): `exec` has been
   started (weft_exec_start) and is borrowed until `ended` is called, on
   the thread that ran its last slice (a runner, or inside
   weft_sched_run_until_idle), with how its run ended; the scheduler no
   longer touches it then (`ended` may free it). weft_exec_request (STOP)
   stops it. *id (may be NULL) gets its group number (events, dump:
   "execution 3"). WEFT_ERR_MISUSE (NULL, not started), WEFT_ERR_NOMEM. */
typedef void (*weft_sched_ended_fn)(weft_exec *exec, weft_status status, const weft_error *err,
                                    void *user);
WEFT_API weft_status weft_sched_start(weft_sched *sched, weft_exec *exec, weft_priority priority,
                                      weft_sched_ended_fn ended, void *user, uint32_t *id,
                                      weft_error *err);

/* ---- Async host functions ---- */
/*
 * A host function that answers later: it starts the host's own work (an
 * HTTP fetch, a database query), keeps the completion token and returns
 * WEFT_SUSPENDED ("pending"). The calling agent parks without holding a
 * thread; when the host completes the token, from any thread, the agent
 * becomes runnable and the call returns those results to the guest (or
 * traps it with the message of weft_async_fail). In pool mode and in
 * cooperative mode alike; called off a scheduler (weft_func_call, a
 * process on OS threads) the calling thread waits for the completion.
 * A stop request (terminate, the process's end) ends a parked call at
 * once: the token must still be completed, which then only frees it.
 */
typedef struct weft_async weft_async;
/* `results` has room for the type's results. Return WEFT_SUSPENDED and
   complete `token` exactly once later (also from inside this call);
   or return WEFT_OK with `results` filled, or WEFT_ERR_TRAP /
   WEFT_ERR_EXIT as any host function: then `token` is not used. */
typedef weft_status (*weft_async_fn)(weft_caller *caller, void *env, const weft_val *args,
                                     weft_val *results, weft_async *token);
/* Makes an async host function in `store`, as weft_func_new. */
WEFT_API weft_func *weft_func_new_async(weft_store *store, const weft_functype *type,
                                        weft_async_fn fn, void *env, void (*finalizer)(void *env));
/* Completes the call: `results` (copied; the function type's results, of
   their types) go to the guest. WEFT_ERR_MISUSE for a wrong count or
   type (the token stays pending). Any thread; the token is gone after
   WEFT_OK. */
WEFT_API weft_status weft_async_complete(weft_async *token, const weft_val *results, size_t nresults);
/* Completes the call with a trap of the guest (WEFT_TRAP_HOST, the
   message printf-style). Any thread; the token is gone after. */
WEFT_API void weft_async_fail(weft_async *token, const char *fmt, ...);

/* ------------------------------------------------------------------------
 * Processes: a WASI command with wasi-threads.
 * ------------------------------------------------------------------------
 *
 * A process runs one WASI command (its `_start`) and the threads it makes
 * with `wasi.thread-spawn` (the wasi-threads proposal): every thread is a
 * fresh instance of the same compiled module (never decoded or compiled
 * again), bound to the same imports — the one shared memory, the same WASI
 * state — and runs `wasi_thread_start(tid, start_arg)` on an OS thread of
 * its own, in parallel with the others. The main thread is tid 1; spawned
 * tids count up from 2 and are never reused.
 *
 * One process, one fate. The process ends when
 *   - the main thread returns from _start (exit code 0; the other threads
 *     are stopped),
 *   - any thread calls proc_exit (or proc_raise): that code,
 *   - any thread traps: reported as "thread N: <trap message>",
 *   - every live thread waits in memory.atomic.wait without a timeout and
 *     none is in a host call that can end by itself: nothing can ever wake
 *     them, which is reported as a deadlock instead of hanging,
 *   - its time limit passes (weft_process_config.timeout_ns),
 *   - or the host calls weft_process_stop.
 * Ending stops every other thread promptly: a thread running wasm is
 * stopped at its next function entry or loop back-edge, one in a futex wait
 * is woken, one blocked in a WASI call (fd_read, poll_oneoff, sock_accept,
 * sleeping) has that call end. weft_process_run returns only when every
 * thread has ended; the host process itself is never ended.
 *
 * The module. A module that imports wasi.thread-spawn must import exactly
 * one memory, shared and with a maximum, and export
 * wasi_thread_start (param i32 i32); anything else is refused by
 * weft_process_new with the reason and the build flags that fix it. The
 * process creates the imported memory (env.memory for wasi-libc) from the
 * import's own limits. A module without thread-spawn runs as a
 * single-threaded process (its memory import, if any, is created the same
 * way).
 */
typedef struct weft_wasi weft_wasi;
typedef struct weft_process weft_process;

typedef struct weft_process_config {
    /* Threads alive at once, the main thread included. A thread-spawn at
       the limit waits up to 100 ms for a thread to end, then returns -6
       (WASI EAGAIN), and the reason is kept for the report. 0 = the
       default, 128. */
    uint32_t max_threads;
    /* Run the threads as agents of this scheduler (borrowed; it must
       outlive the run) instead of one OS thread each. NULL = OS threads. */
    weft_sched *sched;
    weft_priority priority; /* on the scheduler; 0 = NORMAL */
    /* Wall-clock limit of weft_process_run, in nanoseconds from its start;
       0 = none. When it passes, the process ends with WEFT_PROCESS_TIMEOUT
       and every thread is stopped as on any other end: a running one at
       its next safe point, a parked one woken, one in a blocking WASI call
       interrupted. */
    uint64_t timeout_ns;
    /* Fuel budget of the whole process, shared by its threads (see
       weft_store_set_fuel); 0 = unmetered. Running out is a trap of the
       thread that found the budget empty: WEFT_PROCESS_TRAP with
       WEFT_TRAP_OUT_OF_FUEL. */
    uint64_t fuel;
    /* The memory budget of the whole process, in bytes; 0 = none. It
       bounds what a guest can make weft commit: the pages of every linear
       memory (its initial size, and every grow: memory.grow returns -1
       when the budget has no room), the elements of every table (8 bytes
       each; table.grow -1), and every thread's wasm stack as it is
       touched (operand slots and call records, in 16 KiB chunks; a thread
       gets its first two chunks when it is spawned, and thread-spawn
       returns -6 when they do not fit). A thread whose stack cannot grow
       traps with "call stack exhausted" (WEFT_TRAP_STACK_EXHAUSTED), which
       ends the process as any trap does; weft itself never runs out. A
       thread that ends gives its stack back. docs/threads.md, "One memory
       budget". `weft run --max-memory` sets it. */
    uint64_t max_memory_bytes;
} weft_process_config;

typedef enum weft_process_end {
    WEFT_PROCESS_EXIT = 0,     /* _start returned (code 0), or proc_exit */
    WEFT_PROCESS_TRAP = 1,     /* thread `tid` trapped; error has it */
    WEFT_PROCESS_DEADLOCK = 2, /* every thread blocked for good; see
                                  weft_process_waiter */
    WEFT_PROCESS_STOPPED = 3,  /* weft_process_stop */
    WEFT_PROCESS_FAILED = 4,   /* the host failed (out of memory starting
                                  the main thread, ...); error says why */
    WEFT_PROCESS_TIMEOUT = 5,  /* weft_process_config.timeout_ns passed */
} weft_process_end;

typedef struct weft_process_outcome {
    weft_process_end end;
    int32_t exit_code;         /* WEFT_PROCESS_EXIT: the program's code */
    uint32_t tid;              /* the thread that ended it (exit, trap),
                                  0 when none did */
    uint32_t threads;          /* threads that ran, the main one included */
    weft_error error;          /* TRAP: trap, message and backtrace of
                                  thread tid; FAILED: why */
} weft_process_outcome;

/* What one thread of a deadlocked process waits on. */
typedef struct weft_process_waiter {
    uint32_t tid;
    uint32_t width;            /* 4 (wait32) or 8 (wait64) */
    uint64_t addr;             /* the address in the shared memory */
    weft_error where;          /* its backtrace (frames[0] is the function
                                  that waits); the message is not used */
} weft_process_waiter;

/* Makes a process for `module`, checks it (see above: WEFT_ERR_LINK with
   the reason and the fix), creates its store, its memory and its main
   instance (running the module's start function: WEFT_ERR_TRAP if it
   traps). `module` gets a reference of the process's own; `wasi` is
   borrowed and must outlive the process, and must not be used by anything
   else while weft_process_run runs (the process makes its blocking calls
   interruptible). `config` is copied; NULL means defaults. */
WEFT_API weft_status weft_process_new(weft_engine *engine, weft_module *module,
                                      weft_wasi *wasi,
                                      const weft_process_config *config,
                                      weft_process **out, weft_error *err);
/* Runs the program to its end, on OS threads of the process's own (the
   calling thread only supervises), and fills *out. Returns WEFT_OK when the
   program ran, whatever its end (see out->end), WEFT_ERR_MISUSE if called
   twice, WEFT_ERR_NOMEM if not even the main thread could start. */
WEFT_API weft_status weft_process_run(weft_process *process,
                                      weft_process_outcome *out);
/* The same in two halves, for a host that must not block (a cooperative
   scheduler: weft_process_run would wait for agents nobody runs).
   weft_process_start starts the main thread and returns (WEFT_ERR_MISUSE
   when run or started before, WEFT_ERR_NOMEM); weft_process_wait waits up
   to `timeout_ns` (0 = look, negative = forever) for the end: WEFT_OK with
   *out filled (also when called again), WEFT_ERR_TIMEOUT while threads
   remain. A time limit (timeout_ns) is checked in weft_process_wait.
   (weft_process_run itself may still be used with a cooperative
   scheduler from a thread other than the one that drives it.) */
WEFT_API weft_status weft_process_start(weft_process *process);
WEFT_API weft_status weft_process_wait(weft_process *process, int64_t timeout_ns,
                                       weft_process_outcome *out);
/* Ends a running process (WEFT_PROCESS_STOPPED) as promptly as a proc_exit
   would. Any thread, any time, also before weft_process_run (which then
   returns at once) and after it (no effect). */
WEFT_API void weft_process_stop(weft_process *process);
/* A person's account of the end, as `weft run` prints it: empty for a
   plain exit, else "thread 2: unreachable" and a backtrace, or the
   deadlock report, plus a note on why a thread-spawn failed if one did.
   Borrowed; valid until weft_process_free. Empty before the run ends. */
WEFT_API const char *weft_process_report(const weft_process *process);
/* Writes what every live thread of the process is doing, one line each,
   into buf (always NUL-terminated when size > 0) and returns the length
   the whole text needs, like snprintf and weft_sched_dump: "thread 2 of
   process 1 is waiting on address 0x1040 (futex) after 5.01 s". On a
   scheduler these are its lines for the process's agents; on OS threads
   (no scheduler) the process's own record, oldest thread first: "thread
   2 is waiting on address 0x1040 (futex) after 5.01 s" (an untimed
   wait), "thread 3 is reading host fd 0 after 1.00 s" (a blocking WASI
   call), "... is in a host call", "thread 1 is running". Any thread, any time while the process exists (weft run
   --sched os prints it on SIGQUIT). NULL process: writes "" and
   returns 0. */
WEFT_API size_t weft_process_dump(weft_process *process, char *buf, size_t size);
/* After a deadlock: the threads that wait, by tid; index < count.
   Borrowed; valid until weft_process_free. */
WEFT_API uint32_t weft_process_waiter_count(const weft_process *process);
WEFT_API const weft_process_waiter *weft_process_waiter_get(const weft_process *process,
                                                            uint32_t index);
/* Why the last failed thread-spawn failed, or NULL. Borrowed. */
WEFT_API const char *weft_process_spawn_error(const weft_process *process);
/* Frees the process: its store, instances, memory and module reference.
   Not while weft_process_run runs. Accepts NULL. */
WEFT_API void weft_process_free(weft_process *process);

/* ---- WASI ---- */
/*
 * WASI preview1 (wasi_snapshot_preview1, and wasi_unstable for programs
 * built against the older snapshot). See docs/wasi.md for the sandbox
 * rules, the errno each escape attempt gets and the wasi_unstable layouts.
 *
 * A weft_wasi is the WASI state of one process: arguments, environment,
 * and the fd table (stdio, preopened directories, listening sockets, and
 * everything the guest opens). It may be shared by every thread of a
 * process (wasi-threads): all functions below except weft_wasi_free may be
 * called from any thread, and the host functions it defines may run on
 * several threads at once (one mutex guards the fd table).
 */
typedef struct weft_wasi weft_wasi;

/* A directory the guest may reach: host_path is opened once, at
   weft_wasi_new, and the guest sees it under guest_path (what
   fd_prestat_dir_name reports; wasi-libc resolves absolute and relative
   paths against these names). */
typedef struct weft_wasi_preopen {
    const char *host_path;
    const char *guest_path;  /* NULL = the same as host_path */
} weft_wasi_preopen;

/* Everything is borrowed for the call to weft_wasi_new and copied there. */
typedef struct weft_wasi_config {
    uint32_t argc;
    const char *const *argv;      /* argv[0] is the program name */
    uint32_t envc;
    const char *const *env;       /* "NAME=VALUE" strings */
    uint32_t npreopens;
    const weft_wasi_preopen *preopens; /* guest fds 3, 4, ... in order */
    uint32_t nlisten;
    const char *const *listen;    /* "HOST:PORT" ("[::1]:80"): weft binds and
                                     listens; guest fds after the preopens */
    uint32_t nlisten_fds;
    const int *listen_fds;        /* host listening sockets, duplicated;
                                     guest fds after `listen` */
    int stdio[3];                 /* host fds for guest 0, 1, 2; borrowed,
                                     never closed. -1 = not open. */
    uint32_t net;                 /* WEFT_WASI_NET_* bits: what WASI 0.2's
                                     wasi:sockets may do (docs/wasi.md) */
} weft_wasi_config;

/* weft_wasi_config.net: the network a component's wasi:sockets reaches
   (wasmtime's -S options of the same names). Without INHERIT no address
   may be bound, connected to, listened on or sent to: those calls answer
   the WIT's access-denied. TCP and UDP (set by weft_wasi_config_init)
   allow creating sockets of that kind at all; NAME_LOOKUP allows
   wasi:sockets/ip-name-lookup. A zeroed config allows nothing. */
#define WEFT_WASI_NET_INHERIT 0x1u
#define WEFT_WASI_NET_NAME_LOOKUP 0x2u
#define WEFT_WASI_NET_TCP 0x4u
#define WEFT_WASI_NET_UDP 0x8u

/* Fills `config` with defaults: no arguments, no environment, no preopens,
   stdio = the process's own 0, 1, 2, net = WEFT_WASI_NET_TCP |
   WEFT_WASI_NET_UDP (sockets may be made, but reach no address). */
WEFT_API void weft_wasi_config_init(weft_wasi_config *config);

/* Makes a WASI context. Opens every preopen and listen address now:
   WEFT_ERR_IO with the path or address and the host's reason when one
   cannot be opened, WEFT_ERR_MISUSE for a malformed config, WEFT_ERR_NOMEM.
   On success *out owns the context (free with weft_wasi_free). */
WEFT_API weft_status weft_wasi_new(const weft_wasi_config *config,
                                   weft_wasi **out, weft_error *err);

/* Defines every implemented WASI function in `linker`, under
   "wasi_snapshot_preview1" and (those that exist there) "wasi_unstable".
   The host functions are made in `store`, which must be the linker's
   store, and refer to `wasi`, which must outlive that store. May be called
   for several stores and linkers. WEFT_ERR_NOMEM, or the linker's error. */
WEFT_API weft_status weft_wasi_define(weft_wasi *wasi, weft_store *store,
                                      weft_linker *linker, weft_error *err);

/* Closes every descriptor the context opened (never the borrowed stdio)
   and frees it. No host function of it may be running. Accepts NULL. */
WEFT_API void weft_wasi_free(weft_wasi *wasi);

/* The implemented functions, from the one table that weft_wasi_define
   registers (so a listing made from it cannot drift). Index from 0 to
   count-1; the strings are static. */
typedef struct weft_wasi_function_info {
    const char *name;        /* "fd_read" */
    const char *params;      /* one letter per parameter: 'i' i32, 'I' i64 */
    const char *results;     /* "i" (an errno) or "" */
    bool in_unstable;        /* also defined under "wasi_unstable" */
} weft_wasi_function_info;
WEFT_API uint32_t weft_wasi_function_count(void);
WEFT_API weft_status weft_wasi_function(uint32_t index,
                                        weft_wasi_function_info *out);

/* ------------------------------------------------------------------------
 * Component instances (docs/components.md): a component instantiated in a
 * store, its imports served by weft's hosts.
 * ------------------------------------------------------------------------ */
typedef struct weft_component_instance weft_component_instance;

/* Instantiates `component` in `store` with WASI 0.2 as its host: each
   import of a wasi:cli, wasi:io, wasi:clocks, wasi:random or
   wasi:filesystem interface at any 0.2.x version is served by weft's
   WASI 0.2 (made from `config` as for a preview1 program: arguments,
   environment, preopened directories with the same sandbox; NULL for the
   defaults). WEFT_ERR_LINK names an import weft does not have or whose
   type differs from weft's; WEFT_ERR_TRAP when a core start function
   traps; WEFT_ERR_IO when a preopen cannot be opened. The store must
   outlive the instance; the component is retained. One thread at a time
   may use the instance. */
WEFT_API weft_status weft_component_instantiate_wasi(weft_store *store, weft_component *component,
                                                     const weft_wasi_config *config,
                                                     weft_component_instance **out,
                                                     weft_error *err);
/* Runs a command component: calls `run` of its export wasi:cli/run@0.2.x on
   the calling thread. WEFT_OK with *exit_code 0 when it returned ok, 1 when
   it returned an error, the code wasi:cli/exit gave when it exited;
   WEFT_ERR_TRAP (err: the message, as for a module); WEFT_ERR_NOT_FOUND if
   the component exports no wasi:cli/run. */
WEFT_API weft_status weft_component_run(weft_component_instance *instance, int32_t *exit_code,
                                        weft_error *err);
/* Frees the instance and what its hosts hold (open files). Accepts NULL. */
WEFT_API void weft_component_instance_free(weft_component_instance *instance);

/* ------------------------------------------------------------------------
 * Component values and calls (docs/components.md "The C API"): the
 * canonical ABI's lifted values as a documented struct, the types of an
 * export's parameters and result, calls of an instance's exported
 * functions, and WAVE, the WebAssembly Value Encoding (the text form
 * `wasmtime run --invoke` takes and prints).
 * ------------------------------------------------------------------------ */

/* The kind of a component value type (Explainer.md "Value types"). The
   order is fixed: it is weft's internal one. */
typedef enum weft_ckind {
    WEFT_CBOOL, WEFT_CS8, WEFT_CU8, WEFT_CS16, WEFT_CU16, WEFT_CS32, WEFT_CU32,
    WEFT_CS64, WEFT_CU64, WEFT_CF32, WEFT_CF64, WEFT_CCHAR, WEFT_CSTRING,
    WEFT_CERROR_CONTEXT, /* async (issue 37): not given nor taken by the API */
    WEFT_CRECORD, WEFT_CVARIANT, WEFT_CLIST, WEFT_CFIXED_LIST, WEFT_CTUPLE,
    WEFT_CFLAGS, WEFT_CENUM, WEFT_COPTION, WEFT_CRESULT, WEFT_COWN, WEFT_CBORROW,
    WEFT_CSTREAM, WEFT_CFUTURE, /* async (issue 37) */
    WEFT_CMAP,
    WEFT_CKIND_COUNT_
} weft_ckind;

/* A component value type: part of the component (or of the host's
   declarations) it came from, immutable, valid as long as that is.
   Thread-safe to read. */
typedef struct weft_ctype weft_ctype;

/* Its kind. */
WEFT_API weft_ckind weft_ctype_kind(const weft_ctype *type);
/* Members: a record's fields, a variant's cases, an enum's or flags'
   labels, a tuple's members (0 for other kinds). */
WEFT_API uint32_t weft_ctype_count(const weft_ctype *type);
/* Member i's name (records, variants, enums, flags; NULL otherwise or past
   the count). Borrowed, `*len` bytes, not NUL-terminated. */
WEFT_API const char *weft_ctype_name(const weft_ctype *type, uint32_t i, size_t *len);
/* Member i's type: a record field's, a variant case's payload (NULL for a
   case without one), a tuple member's; NULL otherwise. */
WEFT_API const weft_ctype *weft_ctype_member(const weft_ctype *type, uint32_t i);
/* A list's, fixed list's or option's element, a result's ok type, a map's
   key; NULL when there is none (`result<_, E>`). */
WEFT_API const weft_ctype *weft_ctype_elem(const weft_ctype *type);
/* A result's error type, a map's value; NULL when none. */
WEFT_API const weft_ctype *weft_ctype_elem2(const weft_ctype *type);
/* A fixed list's length. */
WEFT_API uint32_t weft_ctype_length(const weft_ctype *type);
/* The type in WIT-like text ("list<u32>", "record { a: u8, b: string }",
   "own<file>"), NUL-terminated in `buf` (`cap` bytes, cut with "..." when
   longer). Returns the length the whole text needs. */
WEFT_API size_t weft_ctype_text(const weft_ctype *type, char *buf, size_t cap);

/* A lifted value (CanonicalABI.md "Lifting and Lowering"). `kind` is the
   kind of its type; which member of `v` is meaningful, and what `n`
   counts, follow from it:

     bool          v.b
     s8 .. s64     v.s (sign-extended)      u8 .. u64   v.u
     f32, f64      v.f32, v.f64 (NaNs arrive canonical, CanonicalABI.md
                   "canonicalize_nan")
     char          v.ch, a Unicode scalar value
     string        v.str: n bytes of UTF-8 (not NUL-terminated); v.str_src
                   0 when a host makes one (weft sets it to the encoding
                   a lifted string came from)
     record, tuple v.items: n values, fields in their type's order
     list, fixed list   v.items: n elements
     map           v.items: n entries, each a 2-tuple (key, value)
     variant, enum v.c.index: the case; v.c.payload: the payload, NULL
                   when the case has none (always for an enum)
     option        v.c.index 0 none, 1 some (payload the value)
     result        v.c.index 0 ok, 1 err (payload NULL when the side
                   has no type)
     flags         v.flags: bit i set when label i is
     own, borrow   v.rep: the resource's representation (a host
                   resource's rep, weft_component_resource_new)

   A host makes values in its own memory (weft reads them during the
   call and keeps no pointer); values weft makes (results, WAVE parses)
   live in a weft_cval_pool. */
typedef struct weft_cval weft_cval;
struct weft_cval {
    uint32_t kind; /* a weft_ckind */
    uint32_t n;
    union {
        bool b;
        int64_t s;
        uint64_t u;
        float f32;
        double f64;
        uint32_t ch;
        struct {
            const char *str;
            uint8_t str_src;
        };
        weft_cval *items;
        struct {
            uint32_t index;
            weft_cval *payload;
        } c;
        uint32_t flags;
        uint32_t rep;
        uint32_t handle; /* stream, future, error-context (async, issue 37) */
    } v;
};

/* Where values weft makes live: a bump allocator, freed (or reset) as a
   whole. `limit` bounds its bytes (0: 1 GiB); an allocation past it fails
   with WEFT_ERR_LIMIT (for a call's results, the trap "value too large
   for the host"). One thread at a time. */
typedef struct weft_cval_pool weft_cval_pool;
WEFT_API weft_cval_pool *weft_cval_pool_new(size_t limit);
/* Frees every value made in it; keeps its first block for reuse. */
WEFT_API void weft_cval_pool_reset(weft_cval_pool *pool);
/* Accepts NULL. */
WEFT_API void weft_cval_pool_free(weft_cval_pool *pool);
/* `size` bytes aligned to 16 in the pool, for a host building values
   whose parts weft should own; NULL when out of memory or past the limit. */
WEFT_API void *weft_cval_pool_alloc(weft_cval_pool *pool, size_t size);

/* A function an instance exports: borrowed from the instance, valid until
   it is freed. */
typedef struct weft_component_func weft_component_func;

/* Finds an exported function by name, as `wasmtime run --invoke` does:
   "name" (a function the component exports, else the one function of
   that name among its exported instances: WEFT_ERR_NOT_FOUND naming the
   candidates when several have it), "ns:pkg/iface.name@1.2.3" or
   "ns:pkg/iface@1.2.3#name" (a function of an exported instance; the
   version matches semver-compatibly: 0.2.1 finds 0.2.0), "iface.name"
   for an instance with a plain name. WEFT_ERR_NOT_FOUND with the message
   saying what is missing. Same thread rule as the instance. */
WEFT_API weft_status weft_component_instance_func(weft_component_instance *instance,
                                                  const char *name,
                                                  weft_component_func **out,
                                                  weft_error *err);
/* Its parameters (name borrowed: `*name_len` bytes, not NUL-terminated;
   NULL past the count) and its result type (NULL: none). */
WEFT_API uint32_t weft_component_func_param_count(const weft_component_func *func);
WEFT_API const weft_ctype *weft_component_func_param(const weft_component_func *func,
                                                     uint32_t i, const char **name,
                                                     size_t *name_len);
WEFT_API const weft_ctype *weft_component_func_result(const weft_component_func *func);

/* Calls the function (CanonicalABI.md "canon lift", synchronous) on the
   calling thread: `args` (nargs of them, one per parameter, borrowed:
   weft copies them into the instance's memory) are lowered into the
   instance, its core function runs, its result is lifted into *result
   (made in `pool`, valid until the pool is reset or freed; untouched
   when the function has none), post-return runs. WEFT_ERR_MISUSE when a
   value does not match its parameter's type or nargs is not the count
   (the message names the parameter); WEFT_ERR_TRAP for a trap (the
   canonical ABI's, the core code's, a host's); WEFT_ERR_EXIT when
   wasi:cli/exit was called (err->exit_code). One thread at a time per
   instance; a call may not be made while another of the same instance
   tree is running on this thread from a host callback into it ("cannot
   enter component instance", a trap). */
WEFT_API weft_status weft_component_func_call(weft_component_func *func, const weft_cval *args,
                                              uint32_t nargs, weft_cval *result,
                                              weft_cval_pool *pool, weft_error *err);

/* WAVE (wasm-tools' crates/wasm-wave README; docs/components.md "WAVE").
   Parses `len` bytes of `text` as one value of `type` into *out (made in
   `pool`). WEFT_ERR_MALFORMED with err->offset the byte where the text
   goes wrong and a message saying what was expected or why the value
   does not fit the type. Thread-safe for distinct pools. */
WEFT_API weft_status weft_wave_parse(const weft_ctype *type, const char *text, size_t len,
                                     weft_cval *out, weft_cval_pool *pool, weft_error *err);
/* Parses a call, "name(arg, ...)": the function found by name
   (weft_component_instance_func's forms) and its arguments against its
   parameters; trailing option parameters may be left out (none). *args
   (*nargs of them) are made in `pool`. WEFT_ERR_MALFORMED for the text,
   WEFT_ERR_NOT_FOUND for the name. */
WEFT_API weft_status weft_wave_parse_call(weft_component_instance *instance, const char *text,
                                          weft_component_func **func, weft_cval **args,
                                          uint32_t *nargs, weft_cval_pool *pool,
                                          weft_error *err);
/* Writes `value` of `type` as WAVE into `buf` (`cap` bytes, NUL-terminated
   when cap > 0, cut when shorter than needed), the form wasm-wave's
   writer gives (wasmtime prints results with it): *needed (may be NULL)
   is the length of the whole text without the NUL. WEFT_ERR_MISUSE when
   the value does not match the type (a resource handle has no WAVE form:
   WEFT_ERR_MISUSE too). */
WEFT_API weft_status weft_wave_print(const weft_ctype *type, const weft_cval *value, char *buf,
                                     size_t cap, size_t *needed, weft_error *err);

/* ------------------------------------------------------------------------
 * Host functions and resources for components (docs/components.md "The
 * C API"): a linker holds, by interface name ("example:host/log@0.1.0")
 * and function name ("write", "[method]file.read"), C callbacks that take
 * and return lifted values, and host resource types; instantiation serves
 * a component's instance imports from it (and from WASI 0.2 if asked).
 * The component's own declared types are the functions' types (as
 * wasmtime's untyped `func_new`): the callback reads them from the call.
 * ------------------------------------------------------------------------ */
typedef struct weft_component_linker weft_component_linker;
/* A new, empty linker; NULL when out of memory. Defining is one thread at
   a time; once defined, instantiating from it is thread-safe. */
WEFT_API weft_component_linker *weft_component_linker_new(void);
/* Drops the caller's reference: the linker (and the envs it holds, by
   their env_free) is freed when no instance made from it remains.
   Accepts NULL. */
WEFT_API void weft_component_linker_free(weft_component_linker *linker);

/* One call of a host function, valid during the callback. */
typedef struct weft_component_host_call weft_component_host_call;
/* The pool the result (and everything it points to) may be made in; it
   lives until weft has lowered the result. Do not reset or free it. */
WEFT_API weft_cval_pool *weft_component_host_call_pool(weft_component_host_call *call);
/* The function's parameter types and result type (NULL: none), as the
   importing component declares them. */
WEFT_API const weft_ctype *weft_component_host_call_param(const weft_component_host_call *call,
                                                          uint32_t i);
WEFT_API const weft_ctype *weft_component_host_call_result(const weft_component_host_call *call);
/* The core caller (its store, its fuel), or NULL. */
WEFT_API weft_caller *weft_component_host_call_caller(weft_component_host_call *call);

/* A host function: `args` (nargs, one per parameter; borrowed for the
   call: strings and lists point into weft's copy) and *result to fill
   when the function has a result (parts in the call's pool, or in memory
   the host keeps valid until the next call). own and borrow arguments
   carry the resource's rep. Returns WEFT_OK, or an error status with
   err->message written (snprintf into it): the calling component traps
   with that message. Runs on the thread that called into the component. */
typedef weft_status (*weft_component_host_fn)(void *env, weft_component_host_call *call,
                                              const weft_cval *args, uint32_t nargs,
                                              weft_cval *result, weft_error *err);

/* Defines `name` in `interface` ("ns:pkg/iface@1.2.3", or a plain name;
   a component's import of a semver-compatible version is served by it,
   the rule of weft's WASI 0.2). `env` is passed to each call and freed
   with env_free (may be NULL) when the linker is. WEFT_ERR_MISUSE for a
   name defined twice or a NULL argument, WEFT_ERR_NOMEM. The names are
   copied. */
WEFT_API weft_status weft_component_linker_define_func(weft_component_linker *linker,
                                                       const char *interface, const char *name,
                                                       weft_component_host_fn fn, void *env,
                                                       void (*env_free)(void *), weft_error *err);

/* A host resource type (Explainer.md "Resource types"): the host chooses
   each resource's representation, a uint32 `rep` that means something to
   it (an index into its own table). A host function makes a resource by
   returning an `own` value with that rep (weft_cval kind WEFT_COWN,
   v.rep); the component gets a handle to it; when the component drops its
   last own handle (resource.drop), `dtor(env, rep)` runs. A borrow or own
   the component passes to a host function arrives with its rep. */
typedef struct weft_component_resource weft_component_resource;
typedef void (*weft_component_resource_dtor)(void *env, uint32_t rep);
/* Defines the resource type `name` ("file") in `interface`, which the
   component imports as `(export "file" (type (sub resource)))`; *out
   (may be NULL) is owned by the linker. dtor may be NULL. */
WEFT_API weft_status weft_component_linker_define_resource(weft_component_linker *linker,
                                                           const char *interface,
                                                           const char *name,
                                                           weft_component_resource_dtor dtor,
                                                           void *env, void (*env_free)(void *),
                                                           weft_component_resource **out,
                                                           weft_error *err);
/* Runs the resource type's destructor for `rep` from the host side (for a
   resource the component handed to the host with an own). */
WEFT_API void weft_component_resource_drop(weft_component_resource *resource, uint32_t rep);

/* Instantiates `component` in `store` with its instance imports served by
   the linker and, when `wasi` is not NULL, by WASI 0.2 made from it (as
   weft_component_instantiate_wasi; weft_wasi_config_init gives the
   defaults): an
   interface the linker defines is the linker's. WEFT_ERR_LINK names an
   import nobody serves, or a function the linker lacks. The instance holds
   a reference to the linker. Same rules as weft_component_instantiate_wasi. */
WEFT_API weft_status weft_component_linker_instantiate(weft_component_linker *linker,
                                                       weft_store *store,
                                                       weft_component *component,
                                                       const weft_wasi_config *wasi,
                                                       weft_component_instance **out,
                                                       weft_error *err);

/* ------------------------------------------------------------------------
 * Workers: isolated instances on a scheduler, with bounded channels.
 * ------------------------------------------------------------------------
 *
 * A worker is a fresh instance of a compiled module (never decoded or
 * compiled again) in a store of its own: its own memory, its own WASI
 * context or none, its own execution. It runs one entry export with input
 * bytes as an agent of a scheduler (weft_sched): it holds no OS thread
 * while it waits, is preempted like any agent, and is its own group there
 * (the unit of fair share), so 100,000 workers share the runners fairly.
 *
 * It talks to its host over two channels, bounded FIFO queues of byte
 * messages: the inbox (host -> worker) and the outbox (worker -> host).
 * The guest side is the `weft:worker` imports (docs/workers.md,
 * include/weft_worker_guest.h).
 *
 * Channels. Each has three limits (weft_channel_limits): bytes per message,
 * bytes queued, messages queued. A send past one fails with its own status
 * and the message is not queued (nothing of it is kept): WEFT_ERR_TOO_LARGE
 * (over the per-message limit, or over the queue's byte limit on its own:
 * it could never fit), WEFT_ERR_FULL (the queue is at its count or byte
 * limit: with a timeout the send waits for room first — backpressure),
 * WEFT_ERR_CLOSED, WEFT_ERR_NOMEM. Messages are taken in the order they were
 * queued. Closing a channel wakes every waiter on both sides; messages
 * queued before can still be taken, then a receive gets WEFT_ERR_CLOSED
 * (end of stream). Timeouts are in nanoseconds: 0 polls, negative waits
 * forever.
 *
 * Lifecycle. weft_worker_spawn makes the worker and queues it; it runs
 * until its entry returns (DONE), traps or fails (FAILED, with the trap's
 * message and backtrace), or is stopped (STOPPED). Either end closes both
 * channels: what the worker queued in its outbox can still be taken, what
 * it left in its inbox is dropped. The end state and the result bytes are
 * kept until weft_worker_free, however late the host looks.
 *
 *  - weft_worker_close closes the inbox: the graceful end. The worker takes
 *    what is queued, then its receive returns end-of-stream and it ends
 *    when its code does.
 *  - weft_worker_terminate stops it: a worker running wasm stops at its
 *    next function entry or loop back-edge (a spin loop too), a parked one
 *    (in a receive or a send that waits) is woken and stops at once, one
 *    that has not run yet stops before it does anything through its
 *    channels; one parked in a blocking WASI call (a read of a pipe, a
 *    sleep) likewise. A worker held longer than the grace period (default
 *    100 ms) in a host call that does not see the request (a WASI write
 *    bigger than a pipe's room blocks in the kernel) is stopped hard: its end is fixed as STOPPED then, and what it does
 *    afterwards (messages, result) is discarded; its resources go when it
 *    comes back.
 *
 * Cost. A worker reserves address space for its memory's declared maximum,
 * capped by max_memory_bytes (default 256 MiB, so a module without a
 * maximum does not take 4 GiB), and its execution stack (default 256 KiB
 * and 4096 frames); both are committed only as touched. An idle worker
 * costs the guest's touched pages plus a few KiB (bench/README.md,
 * "workers").
 *
 * Threads. Every weft_worker_* function may be called from any thread, at
 * any time, except that none may be called on a worker after
 * weft_worker_free. A build without NDEBUG checks: every function that
 * takes a worker or a scheduler looks at a tag word in it first, and a
 * freed one (or a pointer that is no handle) is reported on stderr
 * ("weft: weft_worker_post: 0x... is a worker freed already
 * (weft_worker_free): a use after free") and aborts.
 *
 * NULL handles. A NULL worker is misuse, never a crash: weft_worker_spawn
 * (NULL sched, module or out), _post, _recv, _join, _take_result and
 * _channel_stats return WEFT_ERR_MISUSE (post and recv fill err);
 * weft_worker_close, _terminate and _free do nothing; weft_worker_user
 * returns NULL and weft_worker_id 0; weft_worker_config_init(NULL) does
 * nothing. weft_shared_memory_get(NULL) returns NULL, _retain(NULL)
 * returns NULL, _release(NULL) does nothing.
 *
 * On a cooperative scheduler (weft_sched_config.cooperative) the wake
 * hook runs inside weft_sched_run_until_idle, on the loop's thread. There
 * nothing may wait for the worker: post and recv with timeout 0 only, no
 * join but with timeout 0, and no weft_worker_free of a running worker
 * (it joins): terminate it, run the scheduler until it has ended, then
 * free it (docs/coop.md).
 */
typedef struct weft_worker weft_worker;

typedef struct weft_channel_limits {
    uint64_t max_message_bytes; /* per message; 0 = 64 MiB */
    uint64_t max_queued_bytes;  /* queued at once; 0 = 256 MiB */
    uint32_t max_messages;      /* queued at once; 0 = 1024 */
} weft_channel_limits;

/* A memory handed to workers on purpose, so they can use atomics and
   memory.atomic.wait/notify on it (the only memory two workers ever
   share). Reference counted: the host holds one reference, each worker
   spawned with it one more, released when the worker's instance goes; the
   last release frees it. Thread-safe. */
typedef struct weft_shared_memory weft_shared_memory;
/* Makes a shared memory of `limits` (pages; a maximum is required, shared
   is implied) with one reference. WEFT_ERR_MISUSE for bad limits,
   WEFT_ERR_NOMEM. */
WEFT_API weft_status weft_shared_memory_new(weft_engine *engine, weft_limits limits,
                                            weft_shared_memory **out, weft_error *err);
/* The memory itself, for weft_memory_data/size/grow from the host.
   Borrowed; valid while a reference is held. */
WEFT_API weft_memory *weft_shared_memory_get(weft_shared_memory *shared);
WEFT_API weft_shared_memory *weft_shared_memory_retain(weft_shared_memory *shared);
/* Drops a reference; the last frees the memory. Accepts NULL. */
WEFT_API void weft_shared_memory_release(weft_shared_memory *shared);

typedef struct weft_worker_config {
    /* The export to run, of type () -> () or () -> (i32) (its value is the
       end's exit_code). NULL = "_start". */
    const char *entry;
    /* The worker's input (weft:worker.input); copied at spawn. */
    const uint8_t *input;
    size_t input_len;
    /* A WASI context of the worker's own, made from this config (borrowed
       for the spawn, copied there) and freed with the worker; proc_exit
       ends the worker (DONE with that exit_code). NULL = no WASI: a module
       importing WASI functions then fails to link. A blocking WASI call
       (a read of a pipe or socket, poll_oneoff, a sleep) parks the worker
       like a receive, and a terminate ends it. */
    const weft_wasi_config *wasi;
    weft_channel_limits inbox, outbox;
    /* Cap on each memory the worker's instance defines, in bytes (the
       declared maximum when lower; memory.grow fails past it);
       0 = 256 MiB. */
    uint64_t max_memory_bytes;
    /* Operand stack and call depth of its execution; 0 = 256 KiB and
       stack/64 frames. Reserved, committed as used. */
    uint64_t max_stack_bytes;
    uint32_t max_call_depth;
    weft_priority priority;       /* on the scheduler; 0 = NORMAL */
    /* How long a terminated worker may take to end before it is stopped
       hard (see above); 0 = 100 ms. */
    uint64_t grace_ns;
    /* A fuel budget for the worker (weft_store_set_fuel); 0 = unmetered. */
    uint64_t fuel;
    /* Bound to every memory the module imports (it must be shared);
       retained by the worker. NULL: a module that imports a memory fails
       to link. */
    weft_shared_memory *shared_memory;
    /* The host wake hook: called when the worker has something for the
       host — a message arrived in an empty outbox, the outbox was closed,
       the worker ended — once per such edge (a message into an outbox that
       already holds one calls nothing). From any thread (usually a runner,
       right after the change, with no lock of the worker's held), never
       after weft_worker_free has returned, never twice at once for one
       worker. It may call weft_worker_recv, _post, _join (timeout 0) and
       _end on the worker, not weft_worker_free. NULL = none. */
    void (*wake)(weft_worker *worker, void *user);
    void *user;                   /* for `wake` and weft_worker_user */
} weft_worker_config;

/* Defaults: entry "_start", no input, no WASI, default limits. */
WEFT_API void weft_worker_config_init(weft_worker_config *config);

/* Spawns a worker of `module` on `sched`: a new store, WASI context (if
   asked), instance (the module's start function runs here, on the calling
   thread) and execution of the entry, queued to run. `module` gets a
   reference of the worker's own; `sched` is borrowed and must outlive the
   worker. `config` is copied (NULL = defaults). Errors, with nothing left
   behind: WEFT_ERR_MISUSE (NULL argument, bad config), WEFT_ERR_NOT_FOUND
   (no such entry export), WEFT_ERR_LINK (the entry has another type, an
   import is missing or of the wrong type: named in the message),
   WEFT_ERR_LIMIT (the memory's minimum is over max_memory_bytes),
   WEFT_ERR_TRAP (the start function or _initialize trapped),
   WEFT_ERR_NOMEM. A reactor module's `_initialize` (exported, of type
   () -> (); wasi-libc's reactors run their constructors in it) is called
   here too, after the start function and before the entry is queued,
   unless the entry is `_initialize` itself. */
WEFT_API weft_status weft_worker_spawn(weft_sched *sched, weft_module *module,
                                       const weft_worker_config *config,
                                       weft_worker **out, weft_error *err);

/* Sends `len` bytes (copied) to the worker's inbox, waiting up to
   `timeout_ns` for room when it is full. WEFT_OK, or WEFT_ERR_TOO_LARGE,
   WEFT_ERR_FULL (no room before the timeout), WEFT_ERR_CLOSED, WEFT_ERR_NOMEM;
   err says which limit, and for CLOSED why: "worker 7 ended: trap:
   unreachable" (or "done (exit code 0)", "stopped ..."), "worker 7 is
   ending", or "worker 7's inbox is closed (weft_worker_close)". */
WEFT_API weft_status weft_worker_post(weft_worker *worker, const void *data, size_t len,
                                      int64_t timeout_ns, weft_error *err);
/* Takes the next message of the worker's outbox, waiting up to
   `timeout_ns` for one. On WEFT_OK *data is a malloc'd copy the caller
   frees with free() (NULL when *len is 0). WEFT_ERR_TIMEOUT when none came,
   WEFT_ERR_CLOSED when the outbox is closed and empty (end of stream: the
   worker ended or closed it). */
WEFT_API weft_status weft_worker_recv(weft_worker *worker, int64_t timeout_ns,
                                      uint8_t **data, size_t *len, weft_error *err);
/* Closes the inbox (graceful end, see above). Idempotent. */
WEFT_API void weft_worker_close(weft_worker *worker);
/* Stops the worker (see above) and closes its inbox. Returns at once;
   weft_worker_join waits for the end. Idempotent; no effect on an ended
   worker. */
WEFT_API void weft_worker_terminate(weft_worker *worker);

typedef enum weft_worker_state {
    WEFT_WORKER_RUNNING = 0,  /* not ended (ready, running or parked) */
    WEFT_WORKER_DONE = 1,     /* the entry returned, or WASI proc_exit */
    WEFT_WORKER_FAILED = 2,   /* a trap, or the host failed it; error says */
    WEFT_WORKER_STOPPED = 3,  /* weft_worker_terminate (or weft_worker_free) */
} weft_worker_state;

typedef struct weft_worker_end {
    weft_worker_state state;
    int32_t exit_code;        /* DONE: the entry's i32, proc_exit's code, or 0 */
    const uint8_t *result;    /* weft:worker.set_result's bytes, NULL if none
                                 (or taken); borrowed until weft_worker_free */
    size_t result_len;
    weft_error error;         /* FAILED: status, trap, message, backtrace;
                                 STOPPED: why ("stopped by the host") */
} weft_worker_end;

/* Waits up to `timeout_ns` for the worker to end and fills *out (may be
   NULL). WEFT_OK when it has ended (also when called again: the end is
   kept), WEFT_ERR_TIMEOUT when the deadline passed first (out->state is
   RUNNING). A terminated worker still held in a host call when its grace
   period has passed counts as ended then (stopped hard); any other
   terminated worker ends at its next step. */
WEFT_API weft_status weft_worker_join(weft_worker *worker, int64_t timeout_ns,
                                      weft_worker_end *out);
/* The result bytes, transferred: *data is malloc'd (free with free()), and
   the worker no longer holds them. WEFT_ERR_NOT_FOUND when there are none
   (not ended, none set, or taken already). */
WEFT_API weft_status weft_worker_take_result(weft_worker *worker, uint8_t **data, size_t *len);

typedef enum weft_worker_channel {
    WEFT_WORKER_INBOX = 0,
    WEFT_WORKER_OUTBOX = 1,
} weft_worker_channel;

/* A channel's counters, exact at the instant they are read. */
typedef struct weft_channel_stats {
    uint32_t queued_messages;
    uint64_t queued_bytes;
    uint64_t sent;            /* messages queued since spawn */
    uint64_t received;        /* messages taken */
    uint64_t dropped;         /* queued messages discarded (the inbox at
                                 the end, the outbox of a hard stop) */
    uint64_t refused;         /* sends that failed, for any reason: every
                                 non-OK post, every negative guest send
                                 (-4 .. -8, a bad buffer's -8 too) */
    bool closed;
    weft_channel_limits limits; /* in force (defaults filled in) */
} weft_channel_stats;
WEFT_API weft_status weft_worker_channel_stats(weft_worker *worker, weft_worker_channel which,
                                               weft_channel_stats *out);
/* The config's `user` pointer. */
WEFT_API void *weft_worker_user(const weft_worker *worker);
/* The worker's number on its scheduler (as weft_sched_dump names it:
   "worker 7 is receiving on its inbox after 0.20 s"). */
WEFT_API uint32_t weft_worker_id(const weft_worker *worker);
/* Frees the worker: terminates it if it runs and waits for its end (for a
   worker held in a host call, at most its grace period), then releases
   everything it holds; a worker stopped hard is released when it comes
   back from its host call. No wake hook call happens after it returns.
   Its scheduler must outlive it (and any worker stopped hard must have
   come back before weft_sched_free). Accepts NULL. */
WEFT_API void weft_worker_free(weft_worker *worker);

#ifdef __cplusplus
}
#endif
#endif /* WEFT_H */
