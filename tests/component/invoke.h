/* invoke.h — the runner's instances and calls (invoke.c). */
#ifndef WEFT_TESTS_COMPONENT_INVOKE_H
#define WEFT_TESTS_COMPONENT_INVOKE_H

#include "../spectest/spectest.h"
#include "weft.h"

typedef struct cmr_comp {
    char *name;
    weft_component *comp;
} cmr_comp;
typedef struct cmr_inst {
    char *name;
    weft_store *store;
    struct cm_inst *inst;
} cmr_inst;
/* One script's components and instances. */
typedef struct cmr_state {
    cmr_comp *comps;
    size_t ncomps;
    cmr_inst *insts;
    size_t ninsts, current;
    bool has_current;
} cmr_state;

typedef enum cmr_result { CMR_PASS, CMR_FAIL, CMR_SKIP, CMR_OTHER_TRAP } cmr_result;

void cmr_reset(cmr_state *s);
void cmr_define(cmr_state *s, const char *name, weft_component *comp);
weft_component *cmr_find_comp(cmr_state *s, const char *name);
/* Instantiates comp (no imports) in a store of its own; it becomes the
   current instance. */
weft_status cmr_instantiate(cmr_state *s, weft_engine *engine, weft_component *comp, const char *name,
                            weft_error *err);
/* Calls the action's function; checks its result against expected, or
   that it traps (with trap_text in the message). msg: why not. */
cmr_result cmr_invoke(cmr_state *s, const json_value *action, const json_value *expected,
                      bool expect_trap, const char *trap_text, char *msg, size_t cap);

#endif
