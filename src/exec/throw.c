/*
 * throw.c — exceptions at run time (Wasm 3.0 §4.4.8 throw, throw_ref,
 * try_table; the legacy try/catch/delegate): the handler lookup the
 * interpreter's unwinder calls, the report of an exception no frame
 * caught, and the host side (weft_caller_throw, weft_caller_rethrow).
 *
 * Exceptions never cross a host function silently: one that leaves a wasm
 * call made by weft_func_call (or weft_exec_run) ends it with
 * WEFT_ERR_EXCEPTION and the exception in err->exception; a host function
 * that wants it to go on through its own wasm caller returns
 * WEFT_ERR_EXCEPTION after weft_caller_rethrow.
 */
#include "exec.h"

#include <stdio.h>

const cmp_handler *exec_handler_find(const cmp_func *fn, const weft_instance *inst, uint32_t pc,
                                     const weft_exn *x) {
    uint32_t limit = UINT32_MAX; /* handlers deeper than this are skipped (delegate) */
    for (uint32_t i = 0; i < fn->nhandlers; i++) {
        const cmp_handler *h = &fn->handlers[i];
        if (pc < h->start || pc >= h->end || h->depth > limit) continue;
        if (h->kind == CMP_HANDLER_DELEGATE) {
            if (h->delegate_to < limit) limit = h->delegate_to;
            continue;
        }
        if (h->tag == CMP_CATCH_ALL || inst->tags[h->tag] == x->tag) return h;
    }
    return NULL;
}

/* The tag's name for messages: an export or import of `inst`'s module
   naming it, else its index there, else "(a host's)". */
static void tag_name(char *buf, size_t cap, const weft_instance *inst, const weft_tag *t) {
    const mod_module *m = inst ? inst->module : NULL;
    if (m) {
        for (uint32_t i = 0; i < m->nexports; i++) {
            const mod_export *x = &m->exports[i];
            if (x->kind == WEFT_EXTERN_TAG && inst->tags[x->index] == t) {
                snprintf(buf, cap, "$%.*s", (int)(x->name_len > 64 ? 64 : x->name_len), x->name);
                return;
            }
        }
        for (uint32_t i = 0, k = 0; i < m->nimports; i++) {
            const mod_import *im = &m->imports[i];
            if (im->kind != WEFT_EXTERN_TAG) continue;
            if (inst->tags[k++] == t) {
                snprintf(buf, cap, "$%.*s", (int)(im->name_len > 64 ? 64 : im->name_len), im->name);
                return;
            }
        }
        for (uint32_t i = 0; i < m->ntags; i++)
            if (inst->tags[i] == t) {
                snprintf(buf, cap, "%u", i);
                return;
            }
    }
    snprintf(buf, cap, "(defined by the host)");
}

weft_status exec_uncaught(weft_exec *e, weft_exn *x, const weft_instance *inst, weft_error *err,
                          const cmp_func *at_fn, const uint32_t *ip, uint32_t depth) {
    if (err) {
        char name[96];
        tag_name(name, sizeof name, inst, x->tag);
        base_fail(err, WEFT_ERR_EXCEPTION, "uncaught exception: tag %s", name);
        err->exception = x;
        if (at_fn) exec_backtrace(e, depth, at_fn, inst, ip, err);
    }
    e->depth = 0;
    return WEFT_ERR_EXCEPTION;
}

bool weft_caller_throw(weft_caller *caller, weft_tag *tag, const weft_val *args, size_t nargs) {
    if (!caller || !caller->exec || !tag || tag->type->nparams != nargs || (nargs && !args)) return false;
    const mod_functype *ft = tag->type;
    uint64_t small[32];
    uint32_t n = rt_tag_slots(tag);
    uint64_t *slots = n <= 32 ? small : malloc(n * sizeof *slots);
    if (!slots) return false;
    bool ok = true;
    for (uint32_t i = 0, at = 0; i < ft->nparams && ok; i++) {
        ok = args[i].type == ft->params[i];
        if (ok) at += rt_val_put(slots + at, args[i]);
    }
    weft_exn *x = ok ? rt_exn_new(tag->store, tag, slots) : NULL;
    if (slots != small) free(slots);
    if (!x) return false;
    caller->exec->host_thrown = x;
    return true;
}

bool weft_caller_rethrow(weft_caller *caller, weft_exn *exn) {
    if (!caller || !caller->exec || !exn) return false;
    caller->exec->host_thrown = exn;
    return true;
}
