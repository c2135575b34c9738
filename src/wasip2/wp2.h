/*
 * wp2.h — the WASI 0.2 hosts as the component linker sees them: one state
 * per component instance, made from the same weft_wasi_config a preview1
 * program gets, and the host instances it satisfies imports with
 * (wasi:cli, wasi:io, wasi:clocks, wasi:random, wasi:filesystem at
 * 0.2.12; a component importing @0.2.x of the same interface is served by
 * them, the linker's semver rule).
 *
 * Calling a host function: cm_host_call.ctx = the wp2_ctx, .arena = the
 * call's arena (results are allocated there), .caller = the core caller
 * (NULL from C). The function may return:
 *   WEFT_OK           *result filled (when the type has a result);
 *   WEFT_ERR_TRAP     err filled: trap the caller (misuse the WIT names:
 *                     a write past check-write's permit, an empty poll
 *                     list, a stream dropped before its pollables, ...);
 *   WEFT_ERR_EXIT     wasi:cli/exit: err->exit_code is the status, and
 *                     weft_caller_exit(caller) has been called, as
 *                     preview1's proc_exit does;
 *   WEFT_SUSPENDED    a blocking call (blocking-read, blocking-write-and-
 *                     flush, blocking-splice, pollable.block, poll) parked
 *                     the caller's agent through the preview1 blocker
 *                     having done nothing the guest can see: make the
 *                     same call again with the same arguments when the
 *                     agent resumes (host.h). Without a scheduler (the
 *                     default blocker) the calls wait on the calling
 *                     thread and never return it.
 * Resource destructors (cm_resource.dtor, dtor_env = the wp2_ctx) close
 * what the object holds; dropping a stream that still has pollables traps.
 */
#ifndef WEFT_WASIP2_WP2_H
#define WEFT_WASIP2_WP2_H

#include "../component/host.h"

typedef struct wp2_ctx wp2_ctx;

/* Makes a state: a preview1 context from `config` (weft_wasi_new: opens
   the preopens now; NULL = defaults), the type trees and host instances.
   WEFT_ERR_IO / WEFT_ERR_MISUSE / WEFT_ERR_NOMEM as weft_wasi_new. */
weft_status wp2_ctx_new(const weft_wasi_config *config, wp2_ctx **out, weft_error *err);
/* Frees the state and every object still in its tables, closing their
   descriptors. No host function of it may be running. Accepts NULL. */
void wp2_ctx_free(wp2_ctx *x);

/* The host instances (*n of them), valid while the state lives. Their
   resources' cm_resource identities belong to this state. */
const cm_host_instance *wp2_ctx_instances(const wp2_ctx *x, uint32_t *n);
/* The host instance that serves an import named `name`
   ("wasi:io/streams@0.2.6"): same package and interface, and a version of
   the same 0.2 line (any 0.2.x: the linker's rule, cm_host_find, which is
   wasmtime's); NULL if none. */
const cm_host_instance *wp2_ctx_instance(const wp2_ctx *x, const char *name);

/* The preview1 context under the state: a process swaps its blocker
   (w->block) so that waits park the agent, as for a preview1 program;
   borrowed. */
weft_wasi *wp2_ctx_wasi(wp2_ctx *x);

#endif
