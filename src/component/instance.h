/*
 * instance.h — component instances: instantiation of a validated
 * component (Explainer.md "Instance Definitions", "Component
 * Definitions"), the linker that satisfies its imports by interface name
 * and version, and calls across the canonical ABI (CanonicalABI.md
 * "canon lift", "canon lower", "canon resource.new/drop/rep").
 *
 * Instantiation replays the component's definitions in binary order
 * (component.h: `defs`), and each appends to the instance's index spaces
 * the entries the validator recorded for it, now with run-time values:
 * core modules become core instances (ordinary weft_instances of the
 * store), `canon lift` makes a component function (cm_func), `canon
 * lower` a core host function (a trampoline that lifts the arguments out
 * of the caller's memory, calls the component function and lowers its
 * results), resource types fresh cm_resources, nested components
 * instances of their own.
 *
 * Resource types are generative (Explainer.md "Resource types"): the
 * validator's cm_resource of a type is only its static identity, shared
 * by every instance of the component. Each instance maps those static
 * identities to run-time ones (its own fresh resources, or the ones its
 * imports supplied) and the canonical ABI resolves every own and borrow
 * through that map (cm_abi_cx.resolve), so handle types are checked by
 * run-time identity as the spec's ResourceType objects are.
 *
 * Every core instance of one instance tree lives in one weft_store (the
 * spec's Store); an instance tree is used by one thread at a time.
 */
#ifndef WEFT_COMPONENT_INSTANCE_H
#define WEFT_COMPONENT_INSTANCE_H

#include "component.h"
#include "host.h"
#include "resource.h"

typedef struct cm_inst cm_inst;
typedef struct cm_func cm_func;
typedef struct cm_core_inst cm_core_inst;
typedef struct cm_rinst cm_rinst;

/* One entry of a run-time index space. Which member is set depends on the
   sort (component.h cm_sort). */
typedef struct cm_item {
    weft_extern core;          /* core func, table, memory, global, tag */
    weft_module *module;       /* core module (borrowed from the component) */
    cm_core_inst *core_inst;   /* core instance */
    cm_func *func;             /* func */
    cm_rinst *inst;            /* instance */
    const cm_component *comp;  /* component (its definition)... */
    cm_inst *comp_env;         /* ...and the instance its outer aliases read */
    const cm_resource *res;    /* type: the run-time resource when it is one */
} cm_item;

/* A core instance: made by instantiating a module (inst set), or a bag of
   named core items (inline exports, Explainer.md "core instance ...
   (export ...)"). */
struct cm_core_inst {
    weft_instance *inst;
    uint32_t n;
    cm_name *names;
    weft_extern *items;
};

/* A component instance as a value (what an instance index names): its
   exports by name. */
typedef struct cm_rexport {
    cm_name name;
    cm_sort sort;
    cm_item item;
} cm_rexport;
struct cm_rinst {
    uint32_t n;
    cm_rexport *exports;
    cm_inst *inst; /* the instance it is the exports of; NULL for a host's or inline one */
};

/* A component function. */
typedef enum cm_func_kind { CM_FUNC_LIFTED, CM_FUNC_HOST } cm_func_kind;
struct cm_func {
    cm_func_kind kind;
    const cm_functype *type;
    /* lifted: the core function of `inst` and the canon lift options */
    cm_inst *inst;
    weft_func *core;
    weft_func *post_return; /* NULL: none */
    cm_abi_opts opts;       /* memory and realloc: the core ones, as their envs */
    /* host */
    const cm_host_func *host;
    void *host_ctx;
};

/* One static resource identity mapped to its run-time resource. */
typedef struct cm_resmap {
    const cm_resource *stat;
    const cm_resource *run;
} cm_resmap;

struct cm_inst {
    cm_inst_state state;       /* handles, may_leave (resource.h) */
    bool may_enter;            /* Explainer.md: false while a call into it runs (sync) */
    cm_inst *parent;           /* the instance that instantiated it; NULL for the root */
    cm_inst *outer;            /* the instance of the enclosing component (outer aliases) */
    const cm_component *comp;
    weft_store *store;
    cm_arena *arena;           /* the root's: every record of the tree lives here */
    uint32_t count[CM_SORT_COUNT];
    cm_item *space[CM_SORT_COUNT];
    cm_resmap *resmap;
    uint32_t nresmap, capresmap;
    cm_rinst exports;          /* what it exports */
    cm_inst *children;         /* instances of nested components, for cm_inst_free */
    cm_inst *next_sibling;
};

/* What satisfies the root's imports: host instances matched by name
   ("wasi:io/streams@0.2.12" satisfies an import of
   "wasi:io/streams@0.2.4": the same interface, semver-compatible: same
   major, and for 0.x the same minor, the host's patch at least... see
   cm_version_compatible), each with the context its functions get. */
typedef struct cm_host_env {
    const cm_host_instance *hosts; /* an array of nhosts */
    uint32_t nhosts;
    void *ctx;
} cm_host_env;

/* Instantiates the validated component c (the root of a weft_component)
   in store: every import from env (WEFT_ERR_LINK naming a missing one or
   a type that does not match), then its definitions. *out is freed with
   cm_inst_free. WEFT_ERR_TRAP when a core start function or a core
   instance's segments trap. */
weft_status cm_instantiate(weft_store *store, const cm_component *c, const cm_host_env *env,
                           cm_inst **out, weft_error *err);
void cm_inst_free(cm_inst *inst);

/* The root's export `name` (an instance, a func, ...), or NULL. */
const cm_rexport *cm_rinst_get(const cm_rinst *ri, const char *name, size_t len);

/* Calls a component function from the host (caller NULL) or from a
   lowering trampoline (caller the calling instance): the arguments are
   lowered into the callee, its results lifted into result (allocated in
   arena). The errors of weft_func_call, and the canonical ABI's traps. */
weft_status cm_call(cm_func *f, cm_inst *caller, weft_caller *wc, const cm_val *args, cm_val *result,
                    cm_arena *arena, weft_error *err);

/* Whether a host version satisfies an import's: both "MAJOR.MINOR.PATCH"
   (pre-release and build parts compared as text), compatible in the
   sense of semver's caret (wasmtime's rule for WASI interfaces). */
bool cm_version_compatible(const char *import_ver, size_t ilen, const char *host_ver, size_t hlen);
/* The host instance of hosts[0..n) that serves an import named
   name[0..len) ("wasi:io/streams@0.2.6"): the same name before '@' and a
   compatible version (cm_version_compatible; the last one listed wins
   when several are), or an unversioned name equal to it. NULL if none. */
const cm_host_instance *cm_host_find(const cm_host_instance *hosts, uint32_t n, const char *name,
                                     size_t len);

#endif
