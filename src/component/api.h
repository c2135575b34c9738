/*
 * api.h — the record behind weft.h's weft_component_instance, for the
 * layers that make one (component/api.c, wasip2/command.c).
 */
#ifndef WEFT_COMPONENT_API_H
#define WEFT_COMPONENT_API_H

#include "instance.h"

struct weft_component_instance {
    weft_store *store;          /* borrowed: it outlives the instance */
    weft_component *component;  /* a reference */
    cm_inst *inst;
    void *host;                 /* the host state its imports use (a wp2_ctx) */
    void (*host_free)(void *host);
};

/* weft.h's value pool: a call's arena (a host function's pool is the
   call's own arena, seen through this struct). */
struct weft_cval_pool {
    cm_arena arena;
};

/* Instantiates component in store with env's host instances; `host` is
   freed with host_free when the instance is (or at once on failure). */
weft_status cm_api_instantiate(weft_store *store, weft_component *component,
                               const cm_host_env *env, void *host, void (*host_free)(void *),
                               weft_component_instance **out, weft_error *err);

#endif
