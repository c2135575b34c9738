/*
 * linker.h — the C API's component linker (weft.h: weft_component_linker)
 * for the layer above that adds WASI 0.2 to it (wasip2/command.c).
 */
#ifndef WEFT_COMPONENT_LINKER_H
#define WEFT_COMPONENT_LINKER_H

#include "api.h"

/* Instantiates component in store with its instance imports served by the
   linker's definitions and by `extra` (nextra host instances, e.g. WASI
   0.2's, whose functions get extra_ctx), an interface the linker defines
   taking precedence. extra_ctx is freed with extra_free with the instance
   (or at once on failure). */
weft_status cm_linker_instantiate(weft_component_linker *linker, weft_store *store,
                                  weft_component *component, const cm_host_instance *extra,
                                  uint32_t nextra, void *extra_ctx, void (*extra_free)(void *),
                                  weft_component_instance **out, weft_error *err);

#endif
