/*
 * call.c — calls across the canonical ABI (CanonicalABI.md "canon lift",
 * "canon lower", "canon resource.new", "canon resource.drop", "canon
 * resource.rep"), synchronous: a component function called from the host
 * or from another component, and the core functions `canon lower` and
 * the resource built-ins give a core instance.
 */
#include "call.h"

#include <stdlib.h>
#include <string.h>

#include "../base/base.h"

/* Lifted values of one call out of a component may not grow past this
   (a hostile list length cannot make the host allocate more). */
#define CM_CALL_ARENA_LIMIT ((size_t)1 << 30)

/* ---- may_enter (CanonicalABI.md "Component Instances": entering_set) -- */

static bool is_ancestor_or_self(const cm_inst *a, const cm_inst *of) {
    for (const cm_inst *p = of; p; p = p->parent)
        if (p == a) return true;
    return false;
}

/* The instances a call from caller into callee enters: the callee and its
   ancestors that are not the caller or its ancestors. */
static bool may_enter_from(const cm_inst *callee, const cm_inst *caller) {
    for (const cm_inst *p = callee; p; p = p->parent)
        if (!is_ancestor_or_self(p, caller) && !p->may_enter) return false;
    return true;
}

static void set_entered(cm_inst *callee, const cm_inst *caller, bool entered) {
    for (cm_inst *p = callee; p; p = p->parent)
        if (!is_ancestor_or_self(p, caller)) p->may_enter = !entered;
}

/* ---- options --------------------------------------------------------- */

static uint8_t *memory_of(void *env, uint64_t *size) {
    weft_memory *m = env;
    *size = weft_memory_size(m);
    return weft_memory_data(m);
}

static weft_status realloc_of(void *env, uint32_t old_ptr, uint32_t old_size, uint32_t align,
                              uint32_t new_size, uint32_t *new_ptr, weft_error *err) {
    weft_val args[4] = {
        {.type = WEFT_I32, .of.i32 = (int32_t)old_ptr},
        {.type = WEFT_I32, .of.i32 = (int32_t)old_size},
        {.type = WEFT_I32, .of.i32 = (int32_t)align},
        {.type = WEFT_I32, .of.i32 = (int32_t)new_size},
    };
    weft_val r;
    weft_status rc = weft_func_call(env, args, 4, &r, 1, err);
    if (rc == WEFT_OK) *new_ptr = (uint32_t)r.of.i32;
    return rc;
}

static void cx_setup(cm_abi_cx *cx, const cm_abi_opts *opts, cm_inst *inst, cm_arena *arena,
                     weft_error *err) {
    cm_abi_cx_init(cx, opts, &inst->state, arena, err);
    cx->resolve = cm_inst_resolve;
    cx->resolve_env = inst;
}

/* ---- calls into a component ----------------------------------------- */

weft_status cm_call(cm_func *f, cm_inst *caller, weft_caller *wc, const cm_val *args,
                    cm_val *result, cm_arena *arena, weft_error *err) {
    if (f->kind == CM_FUNC_HOST) {
        cm_host_call hc = {.arena = arena, .caller = wc, .ctx = f->host_ctx, .func = f->host};
        return f->host->fn(&hc, args, result, err);
    }
    cm_inst *ci = f->inst;
    if (!may_enter_from(ci, caller))
        return cm_trap_fail(err, CM_TRAP_OTHER, "cannot enter component instance");
    set_entered(ci, caller, true);
    cm_task task;
    cm_task_begin(&task, &ci->state);
    cm_abi_cx cx;
    cx_setup(&cx, &f->opts, ci, arena, err);
    cx.task = &task;
    weft_val flat[CM_MAX_FLAT_PARAMS + 1], res[CM_MAX_FLAT_RESULTS];
    uint32_t nflat = 0;
    weft_functype ct = weft_func_type(f->core);
    weft_status rc = cm_abi_lower_params(&cx, f->type, args, flat, &nflat);
    if (rc != WEFT_OK) goto out;
    rc = weft_func_call(f->core, flat, nflat, res, ct.nresults, err);
    if (rc != WEFT_OK) goto out;
    rc = cm_abi_lift_results(&cx, f->type, res, ct.nresults, result);
    if (rc != WEFT_OK) goto out;
    rc = cm_task_return(&task, err);
    if (rc != WEFT_OK) goto out;
    if (f->post_return) {
        ci->state.may_leave = false;
        rc = weft_func_call(f->post_return, res, ct.nresults, NULL, 0, err);
        ci->state.may_leave = true;
    }
out:
    set_entered(ci, caller, false);
    return rc;
}

/* ---- canon lower: the core function a component calls -------------- */

typedef struct lower_env {
    cm_inst *inst;           /* the calling instance (whose memory it is) */
    cm_func *callee;
    const cm_functype *ft;   /* the function's type as the caller sees it */
    cm_abi_opts opts;
    uint32_t nflat_params;
} lower_env;

/* Reports a failure of the call to the core code that made it. */
static weft_status to_caller(weft_caller *wc, weft_status rc, const weft_error *e) {
    switch (rc) {
    case WEFT_OK:
    case WEFT_SUSPENDED:
        return rc;
    case WEFT_ERR_EXIT:
        weft_caller_exit(wc, e->exit_code);
        return WEFT_ERR_EXIT;
    default:
        weft_caller_trap(wc, "%s", e->message[0] ? e->message : weft_status_name(rc));
        return WEFT_ERR_TRAP;
    }
}

static weft_status lower_call(weft_caller *wc, void *env, const weft_val *args,
                              weft_val *results) {
    lower_env *L = env;
    cm_inst *inst = L->inst;
    weft_error *e = calloc(1, sizeof *e); /* off the C stack: calls nest */
    if (!e) {
        weft_caller_trap(wc, "out of memory calling a component import");
        return WEFT_ERR_TRAP;
    }
    weft_status rc;
    cm_arena arena = {.limit = CM_CALL_ARENA_LIMIT};
    cm_subtask sub;
    cm_subtask_begin(&sub, &inst->state);
    if (!inst->state.may_leave) {
        rc = cm_trap_fail(e, CM_TRAP_CANNOT_LEAVE, "cannot leave component instance");
        goto out;
    }
    cm_abi_cx cx;
    cx_setup(&cx, &L->opts, inst, &arena, e);
    cx.subtask = &sub;
    cm_val *vals = L->ft->nparams ? cm_arena_alloc(&arena, L->ft->nparams * sizeof *vals, 16) : NULL;
    if (L->ft->nparams && !vals) {
        rc = base_fail(e, WEFT_ERR_NOMEM, "out of memory calling a component import");
        goto out;
    }
    rc = cm_abi_lift_params(&cx, L->ft, args, L->nflat_params, vals);
    if (rc != WEFT_OK) goto out;
    cm_val result;
    memset(&result, 0, sizeof result);
    rc = cm_call(L->callee, inst, wc, vals, &result, &arena, e);
    if (rc != WEFT_OK) goto out;
    uint32_t nres = 0;
    rc = cm_abi_lower_results(&cx, L->ft, &result, args, L->nflat_params, results, &nres);
out:
    cm_subtask_end(&sub); /* the lent handles are theirs again (Subtask.deliver_resolve) */
    rc = to_caller(wc, rc, e);
    cm_arena_free(&arena);
    free(e);
    return rc;
}

/* ---- resource built-ins --------------------------------------------- */

typedef struct res_env {
    cm_inst *inst;
    const cm_resource *rt;
} res_env;

static weft_status res_new(weft_caller *wc, void *env, const weft_val *args, weft_val *results) {
    res_env *R = env;
    weft_error e;
    uint32_t idx;
    weft_status rc = cm_resource_new(&R->inst->state, R->rt, (uint32_t)args[0].of.i32, &idx, &e);
    if (rc != WEFT_OK) return to_caller(wc, rc, &e);
    results[0] = (weft_val){.type = WEFT_I32, .of.i32 = (int32_t)idx};
    return WEFT_OK;
}

static weft_status res_drop(weft_caller *wc, void *env, const weft_val *args, weft_val *results) {
    (void)results;
    res_env *R = env;
    weft_error e;
    weft_status rc = cm_resource_drop(&R->inst->state, R->rt, (uint32_t)args[0].of.i32, &e);
    return rc == WEFT_OK ? WEFT_OK : to_caller(wc, rc, &e);
}

static weft_status res_rep(weft_caller *wc, void *env, const weft_val *args, weft_val *results) {
    res_env *R = env;
    weft_error e;
    uint32_t rep;
    weft_status rc = cm_resource_rep(&R->inst->state, R->rt, (uint32_t)args[0].of.i32, &rep, &e);
    if (rc != WEFT_OK) return to_caller(wc, rc, &e);
    results[0] = (weft_val){.type = WEFT_I32, .of.i32 = (int32_t)rep};
    return WEFT_OK;
}

/* ---- canon definitions ---------------------------------------------- */

static const char *canon_name(uint8_t op) {
    static const char *const names[] = {
        [0x05] = "task.cancel", [0x06] = "subtask.cancel", [0x07] = "resource.drop async",
        [0x09] = "task.return", [0x0a] = "context.get", [0x0b] = "context.set",
        [0x0c] = "thread.yield", [0x0d] = "subtask.drop", [0x0e] = "stream.new",
        [0x0f] = "stream.read", [0x10] = "stream.write", [0x11] = "stream.cancel-read",
        [0x12] = "stream.cancel-write", [0x13] = "stream.drop-readable",
        [0x14] = "stream.drop-writable", [0x15] = "future.new", [0x16] = "future.read",
        [0x17] = "future.write", [0x18] = "future.cancel-read", [0x19] = "future.cancel-write",
        [0x1a] = "future.drop-readable", [0x1b] = "future.drop-writable",
        [0x1c] = "error-context.new", [0x1d] = "error-context.debug-message",
        [0x1e] = "error-context.drop", [0x1f] = "waitable-set.new", [0x20] = "waitable-set.wait",
        [0x21] = "waitable-set.poll", [0x22] = "waitable-set.drop", [0x23] = "waitable.join",
        [0x24] = "backpressure.inc", [0x25] = "backpressure.dec", [0x26] = "thread.index",
        [0x27] = "thread.new-indirect", [0x28] = "thread.resume-later",
        [0x29] = "thread.suspend",
    };
    if (op < sizeof names / sizeof names[0] && names[op]) return names[op];
    return "built-in";
}

static void opts_of(cm_inst *inst, const cm_canon_opts *o, cm_abi_opts *out) {
    memset(out, 0, sizeof *out);
    out->encoding = (cm_encoding)o->string_encoding;
    if (o->memory != UINT32_MAX) {
        out->memory = memory_of;
        out->memory_env = inst->space[CM_CORE_MEMORY][o->memory].core.of.memory;
    }
    if (o->realloc != UINT32_MAX) {
        out->realloc = realloc_of;
        out->realloc_env = inst->space[CM_CORE_FUNC][o->realloc].core.of.func;
    }
}

weft_status cm_make_canon(cm_inst *inst, const cm_def *d, cm_sort sort, uint32_t idx, cm_item *it,
                          weft_error *err) {
    const cm_canon *c = &d->u.canon.c;
    const cm_canon_opts *o = &d->u.canon.opts;
    switch (c->op) {
    case 0x00: { /* lift */
        if (o->async)
            return base_fail(err, WEFT_ERR_LINK,
                             "canon lift async (component-model async) is not supported yet");
        cm_func *f = cm_arena_alloc(inst->arena, sizeof *f, 16);
        if (!f) return base_fail(err, WEFT_ERR_NOMEM, "out of memory instantiating a component");
        memset(f, 0, sizeof *f);
        f->kind = CM_FUNC_LIFTED;
        f->type = inst->comp->space[CM_FUNC][idx].func;
        f->inst = inst;
        f->core = inst->space[CM_CORE_FUNC][c->func].core.of.func;
        opts_of(inst, o, &f->opts);
        if (o->post_return != UINT32_MAX)
            f->post_return = inst->space[CM_CORE_FUNC][o->post_return].core.of.func;
        it->func = f;
        return WEFT_OK;
    }
    case 0x01: { /* lower */
        if (o->async)
            return base_fail(err, WEFT_ERR_LINK,
                             "canon lower async (component-model async) is not supported yet");
        lower_env *L = cm_arena_alloc(inst->arena, sizeof *L, 16);
        if (!L) return base_fail(err, WEFT_ERR_NOMEM, "out of memory instantiating a component");
        memset(L, 0, sizeof *L);
        L->inst = inst;
        L->callee = inst->space[CM_FUNC][c->func].func;
        L->ft = inst->comp->space[CM_FUNC][c->func].func;
        opts_of(inst, o, &L->opts);
        cm_core_sig sig;
        cm_abi_flatten_functype(L->ft, false, false, CM_ABI_LOWER, &sig);
        L->nflat_params = sig.nparams;
        weft_valtype *types = cm_arena_alloc(inst->arena, sig.nparams + sig.nresults + 1, 1);
        if (!types) return base_fail(err, WEFT_ERR_NOMEM, "out of memory instantiating a component");
        memcpy(types, sig.params, sig.nparams);
        memcpy(types + sig.nparams, sig.results, sig.nresults);
        weft_functype ft = {sig.nparams, sig.nresults, types, types + sig.nparams};
        weft_func *fn = weft_func_new(inst->store, &ft, lower_call, L, NULL);
        if (!fn) return base_fail(err, WEFT_ERR_NOMEM, "out of memory instantiating a component");
        it->core = (weft_extern){.kind = WEFT_EXTERN_FUNC, .of.func = fn};
        return WEFT_OK;
    }
    case 0x02: case 0x03: case 0x04: { /* resource.new, .drop, .rep */
        res_env *R = cm_arena_alloc(inst->arena, sizeof *R, 16);
        if (!R) return base_fail(err, WEFT_ERR_NOMEM, "out of memory instantiating a component");
        R->inst = inst;
        const cm_type *t = inst->comp->space[CM_TYPE][c->type].type;
        R->rt = cm_inst_resolve(inst, t->res->res);
        static const weft_valtype i32[2] = {WEFT_I32, WEFT_I32};
        weft_functype ft = {1, c->op == 0x03 ? 0u : 1u, i32, i32 + 1};
        weft_host_fn fn = c->op == 0x02 ? res_new : c->op == 0x03 ? res_drop : res_rep;
        weft_func *f = weft_func_new(inst->store, &ft, fn, R, NULL);
        if (!f) return base_fail(err, WEFT_ERR_NOMEM, "out of memory instantiating a component");
        it->core = (weft_extern){.kind = WEFT_EXTERN_FUNC, .of.func = f};
        return WEFT_OK;
    }
    default:
        (void)sort;
        return base_fail(err, WEFT_ERR_LINK,
                         "canon %s: component-model async and threads built-ins are not "
                         "supported yet",
                         canon_name(c->op));
    }
}
