/*
 * call.h — what instance.c needs of call.c: the run-time value of a
 * `canon` definition, and the resolver of resource identities the
 * canonical ABI calls.
 */
#ifndef WEFT_COMPONENT_CALL_H
#define WEFT_COMPONENT_CALL_H

#include "instance.h"

/* The item a canon definition d makes at index idx of sort (a component
   function for `canon lift`, a core function for every other). */
weft_status cm_make_canon(cm_inst *inst, const cm_def *d, cm_sort sort, uint32_t idx, cm_item *it,
                          weft_error *err);

/* cm_abi_cx.resolve for an instance: the run-time resource its static
   identity names there (env is the cm_inst). */
const cm_resource *cm_inst_resolve(void *env, const cm_resource *stat);

#endif
