/*
 * host.h — the contract between a component and the functions a host
 * implements for it (the WASI 0.2 interfaces, a C API host's functions):
 * the host sees lifted values (ctype.h), the canonical ABI lowers and
 * lifts around the call (cabi.c), the linker matches each host function's
 * declared type against the component's import (subtyping, Explainer.md
 * "Subtyping").
 */
#ifndef WEFT_COMPONENT_HOST_H
#define WEFT_COMPONENT_HOST_H

#include "ctype.h"

/* One call of a host function. */
typedef struct cm_host_call {
    cm_arena *arena;       /* the result and everything it points to are allocated here;
                              the caller lowers it, then resets the arena */
    weft_caller *caller;   /* the core caller (its store and execution: parking, fuel);
                              NULL when the host itself calls through the C API */
    void *ctx;             /* what the host gave when it defined the function (for WASI
                              0.2, its per-instance state) */
    const struct cm_host_func *func; /* the function called (its `data`) */
} cm_host_call;

/* A host function. args are the lifted parameters, one per parameter of its
   type, in order; own/borrow arguments carry the resource's rep (ctype.h).
   On WEFT_OK, *result holds the one result when the type has one.
   WEFT_ERR_TRAP (err filled) traps the caller; the WASI exit is the trap
   the preview1 layer uses for proc_exit (weft_caller_exit). WEFT_SUSPENDED:
   the function parked its caller's agent having done nothing visible
   (as a preview1 call that returns WASI_EPARKED does); the call is made
   again with the same arguments on resume. */
typedef weft_status (*cm_host_fn)(cm_host_call *call, const cm_val *args, cm_val *result,
                                  weft_error *err);

/* A host function as the linker sees it: the name within its instance
   ("get-stdout", "[method]output-stream.write", "[static]...",
   "[constructor]..."), its type, the code. */
typedef struct cm_host_func {
    const char *name;
    const cm_functype *type;
    cm_host_fn fn;
    void *data; /* the function's own (the C API's callback and its env); NULL for WASI */
} cm_host_func;

/* A host resource type an instance exports ("output-stream"): the
   resource's identity, whose dtor runs when the guest drops its last own
   handle (resource-drop of the import). */
typedef struct cm_host_resource {
    const char *name;
    cm_resource *type;
} cm_host_resource;

/* A host instance: what satisfies one instance import of a component
   ("wasi:io/streams@0.2.12"), matched by interface name and a semver-
   compatible version (the linker's rule). */
typedef struct cm_host_instance {
    const char *name;     /* "wasi:io/streams@0.2.12" */
    uint32_t nfuncs, nresources;
    const cm_host_func *funcs;
    const cm_host_resource *resources;
    /* further types the instance exports (records, variants, enums,
       flags used by its functions) are named here for the linker's
       `type` export checks */
    uint32_t ntypes;
    const cm_field *types; /* name and type */
} cm_host_instance;

#endif
