/*
 * weft_wasm.h — where a wasm.h host reaches weft beyond the standard: WASI,
 * engine options, error messages, shared memories, and the weft.h objects
 * behind the wasm.h ones (to use the scheduler, workers or processes on a
 * module loaded through wasm.h). docs/capi.md shows a whole host.
 *
 * Everything here follows wasm.h's rules (ownership, one thread per store)
 * and weft.h's (statuses, weft_error). Borrowed weft objects stay valid as
 * long as the wasm.h object they came from.
 */
#ifndef WEFT_WASM_H
#define WEFT_WASM_H

#include "wasm.h"
#include "weft.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- Engine options ---- */

/* Sets the weft configuration (weft.h, weft_config: stack, call depth,
   memory cap, features, compile mode) that an engine made from `config`
   will have. `settings` is copied. */
WEFT_API void weft_wasm_config_set(wasm_config_t *config, const weft_config *settings);

/* ---- The weft objects behind wasm.h objects (borrowed) ---- */

WEFT_API weft_engine *weft_wasm_engine(const wasm_engine_t *engine);
WEFT_API weft_store *weft_wasm_store(const wasm_store_t *store);
/* Retain it (weft_module_retain) to keep it beyond the wasm_module_t. */
WEFT_API weft_module *weft_wasm_module(const wasm_module_t *module);
/* NULL once the instance's store is deleted. */
WEFT_API weft_instance *weft_wasm_instance(const wasm_instance_t *instance);
/* The extern as weft.h sees it; false when `ext` is NULL or its store is
   gone. */
WEFT_API bool weft_wasm_extern(const wasm_extern_t *ext, weft_extern *out);

/* ---- Errors ---- */

/* wasm_module_new with the reason for a failure: `err` (may be NULL) gets
   the status and message (byte offset, function) on NULL. */
WEFT_API wasm_module_t *weft_wasm_module_new(wasm_store_t *store, const wasm_byte_vec_t *binary,
                                             weft_error *err);
/* wasm_module_deserialize with the reason for a failure: `err` (may be
   NULL) gets the status and message on NULL. Bytes not made by
   wasm_module_serialize, made by another weft version or serialization
   format, truncated, or altered anywhere (a checksum covers the header
   and the module: a change that still makes a valid module is refused
   too) are WEFT_ERR_MALFORMED with a message saying which; then the
   module is decoded and validated as weft_wasm_module_new does. */
WEFT_API wasm_module_t *weft_wasm_module_deserialize(wasm_store_t *store, const wasm_byte_vec_t *bytes,
                                                     weft_error *err);
/* True when `trap` is a WASI proc_exit (or proc_raise) rather than a trap:
   *code (may be NULL) gets the exit code. */
WEFT_API bool weft_wasm_trap_exit_code(const wasm_trap_t *trap, int32_t *code);

/* ---- WASI (preview1) for a wasm.h host, as wasmtime's wasi.h offers ---- */

/* Defines every WASI function of `wasi` (weft.h: weft_wasi_new) in `store`,
   under "wasi_snapshot_preview1" and "wasi_unstable". `wasi` is borrowed and
   must outlive the store. Once per store: a second call replaces the first.
   WEFT_ERR_MISUSE (NULL), WEFT_ERR_NOMEM. */
WEFT_API weft_status weft_wasi_define_store(wasm_store_t *store, weft_wasi *wasi, weft_error *err);

/* Fills `out` with one entry per import of `module`, in order, ready for
   wasm_instance_new: the WASI function defined in the store for a WASI
   import (after weft_wasi_define_store), NULL for any other import, which
   the host sets itself (the vector owns what it holds: put an owned
   reference there, e.g. wasm_func_as_extern(wasm_func_copy(f))).
   Returns how many imports are left NULL. */
WEFT_API size_t weft_wasi_imports(wasm_store_t *store, const wasm_module_t *module,
                                  wasm_extern_vec_t *out);

/* ---- Shared memories (threads proposal) ---- */

/* wasm_memorytype_t cannot say "shared" in the standard: these can. A
   shared memory type needs a maximum. */
WEFT_API wasm_memorytype_t *weft_wasm_memorytype_new_shared(const wasm_limits_t *limits);
WEFT_API bool weft_wasm_memorytype_shared(const wasm_memorytype_t *type);

/* A reference in `store` to a memory that several stores (threads) share:
   made with weft_shared_memory_new (weft.h) and retained here until the
   store is deleted. Every store that obtains it and every instance that
   imports it there use the same bytes, atomics and wait queues. NULL for a
   NULL argument or when out of memory. */
WEFT_API wasm_memory_t *weft_wasm_memory_obtain_shared(wasm_store_t *store, weft_shared_memory *shared);

#ifdef __cplusplus
}
#endif
#endif /* WEFT_WASM_H */
