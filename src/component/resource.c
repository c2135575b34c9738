/*
 * resource.c — handle tables, calls' borrow scopes and the resource
 * built-ins (resource.h; CanonicalABI.md "Table State", "Resource
 * State", "canon resource.new", "canon resource.drop", "canon
 * resource.rep", lift_own/lift_borrow/lower_own/lower_borrow).
 *
 * Where the spec removes a handle and then checks it (lift_own,
 * canon_resource_drop), the checks come first here: a trap leaves the
 * table as it was, which no one can observe (the instance is dead after a
 * trap) but keeps every lender index valid for cm_subtask_end.
 */
#include "resource.h"

#include <stdlib.h>
#include <string.h>

#include "../base/base.h"

/* ---- the table ("Table State") ---------------------------------------- */

static const char *rt_name(const cm_resource *rt) {
    return rt && rt->name ? rt->name : "resource";
}

cm_handle *cm_handles_get(cm_handles *t, uint32_t index) {
    if (index == 0 || index >= t->len) return NULL;
    cm_handle *h = &t->elems[index];
    return h->kind == CM_ELEM_FREE ? NULL : h;
}

/* Table.get: trap_if(i >= len(array)); trap_if(array[i] is None). */
static weft_status table_get(cm_handles *t, uint32_t index, cm_handle **out, weft_error *err) {
    cm_handle *h = cm_handles_get(t, index);
    if (!h) return cm_trap_fail(err, CM_TRAP_HANDLE_UNKNOWN, "unknown handle index %u", index);
    *out = h;
    return WEFT_OK;
}

/* Table.add: the last freed index first, else the next one, trapping past
   the limit (the spec's MAX_LENGTH, or weft's lower bound). */
weft_status cm_handles_add(cm_handles *t, const cm_handle *h, uint32_t *index, weft_error *err) {
    uint32_t i;
    if (t->free_head) {
        i = t->free_head;
        t->free_head = t->elems[i].next_free;
    } else {
        if (t->len == 0) t->len = 1; /* element 0: the reserved null */
        i = t->len;
        if (i > t->limit)
            return cm_trap_fail(err, CM_TRAP_TABLE_FULL, "%u handles in the instance (the limit)",
                                t->limit);
        if (i >= t->cap) {
            uint32_t ncap = t->cap ? t->cap * 2 : 16;
            if (ncap > t->limit + 1u) ncap = t->limit + 1u;
            cm_handle *ne = base_reallocarray(t->elems, ncap, sizeof *ne);
            if (!ne) return base_fail(err, WEFT_ERR_NOMEM, "out of memory growing a handle table");
            memset(ne + t->cap, 0, (size_t)(ncap - t->cap) * sizeof *ne);
            t->elems = ne;
            t->cap = ncap;
        }
        t->len = i + 1;
    }
    t->elems[i] = *h;
    t->elems[i].next_free = 0;
    *index = i;
    return WEFT_OK;
}

/* Table.remove (of an element table_get found). */
void cm_handles_remove(cm_handles *t, uint32_t index) {
    cm_handle *h = &t->elems[index];
    memset(h, 0, sizeof *h);
    h->kind = CM_ELEM_FREE;
    h->next_free = t->free_head;
    t->free_head = index;
}

void cm_inst_state_init(cm_inst_state *s, const void *id) {
    memset(s, 0, sizeof *s);
    s->handles.limit = CM_HANDLES_DEFAULT_LIMIT;
    s->id = id;
    s->may_leave = true;
}

void cm_inst_state_free(cm_inst_state *s) {
    free(s->handles.elems);
    s->handles.elems = NULL;
    s->handles.len = s->handles.cap = s->handles.free_head = 0;
}

/* trap_if(h.rt is not rt) */
static weft_status check_type(const cm_handle *h, const cm_resource *rt, uint32_t index,
                              weft_error *err) {
    if (h->rt == rt) return WEFT_OK;
    return cm_trap_fail(err, CM_TRAP_HANDLE_TYPE,
                        "handle index %u used with the wrong type, expected %s but found %s", index,
                        rt_name(rt), rt_name(h->rt));
}

/* The element at index, which must be a handle of rt (the lookup every
   built-in and lift starts with). */
static weft_status get_typed(cm_inst_state *inst, const cm_resource *rt, uint32_t index, cm_handle **h,
                             weft_error *err) {
    weft_status st = table_get(&inst->handles, index, h, err);
    return st == WEFT_OK ? check_type(*h, rt, index, err) : st;
}

/* ---- calls ("Tasks", "Subtask State") ------------------------------------ */

void cm_task_begin(cm_task *task, cm_inst_state *callee) {
    task->inst = callee;
    task->num_borrows = 0;
}

weft_status cm_task_return(cm_task *task, weft_error *err) {
    if (task->num_borrows == 0) return WEFT_OK;
    uint32_t left = task->num_borrows;
    cm_handles *t = &task->inst->handles;
    for (uint32_t i = 1; i < t->len; i++)
        if (t->elems[i].kind == CM_ELEM_BORROW && t->elems[i].scope == task) t->elems[i].scope = NULL;
    task->num_borrows = 0;
    return cm_trap_fail(err, CM_TRAP_BORROWS_REMAIN, "%u borrow handle%s not dropped by the callee",
                        left, left == 1 ? "" : "s");
}

void cm_subtask_begin(cm_subtask *sub, cm_inst_state *caller) {
    memset(sub, 0, sizeof *sub);
    sub->inst = caller;
}

void cm_subtask_end(cm_subtask *sub) {
    cm_handles *t = &sub->inst->handles;
    for (uint32_t i = 0; i < sub->nlenders; i++) {
        uint32_t x = sub->lenders[i];
        /* a lent handle cannot be removed (drop and lift_own trap first) */
        if (x < t->len && t->elems[x].kind != CM_ELEM_FREE && t->elems[x].num_lends)
            t->elems[x].num_lends--;
    }
    free(sub->lenders);
    sub->lenders = NULL;
    sub->nlenders = sub->cap = 0;
}

/* Subtask.add_lender */
static weft_status add_lender(cm_subtask *sub, uint32_t index, cm_handle *h, weft_error *err) {
    if (sub->nlenders == sub->cap) {
        uint32_t ncap = sub->cap ? sub->cap * 2 : 8;
        uint32_t *nl = base_reallocarray(sub->lenders, ncap, sizeof *nl);
        if (!nl) return base_fail(err, WEFT_ERR_NOMEM, "out of memory lending a handle");
        sub->lenders = nl;
        sub->cap = ncap;
    }
    sub->lenders[sub->nlenders++] = index;
    h->num_lends++;
    return WEFT_OK;
}

/* ---- the built-ins ------------------------------------------------------- */

weft_status cm_resource_new(cm_inst_state *inst, const cm_resource *rt, uint32_t rep,
                            uint32_t *index, weft_error *err) {
    if (!inst->may_leave)
        return cm_trap_fail(err, CM_TRAP_CANNOT_LEAVE, "resource.new called during realloc");
    cm_handle h = {.kind = CM_ELEM_OWN, .rep = rep, .rt = rt};
    return cm_handles_add(&inst->handles, &h, index, err);
}

weft_status cm_resource_drop(cm_inst_state *inst, const cm_resource *rt, uint32_t index,
                             weft_error *err) {
    if (!inst->may_leave)
        return cm_trap_fail(err, CM_TRAP_CANNOT_LEAVE, "resource.drop called during realloc");
    cm_handle *h = NULL;
    weft_status st = get_typed(inst, rt, index, &h, err);
    if (st != WEFT_OK) return st;
    if (h->num_lends != 0)
        return cm_trap_fail(err, CM_TRAP_HANDLE_LENT,
                            "resource.drop of handle index %u, lent to %u call%s in progress", index,
                            h->num_lends, h->num_lends == 1 ? "" : "s");
    cm_handle old = *h;
    cm_handles_remove(&inst->handles, index);
    if (old.kind == CM_ELEM_OWN) {
        /* the destructor runs with the rep given to resource.new */
        if (rt->dtor) return rt->dtor(rt, old.rep, rt->dtor_env, err);
        return WEFT_OK;
    }
    if (old.scope && old.scope->num_borrows) old.scope->num_borrows--;
    return WEFT_OK;
}

weft_status cm_resource_rep(cm_inst_state *inst, const cm_resource *rt, uint32_t index,
                            uint32_t *rep, weft_error *err) {
    cm_handle *h = NULL;
    weft_status st = get_typed(inst, rt, index, &h, err);
    if (st != WEFT_OK) return st;
    *rep = h->rep;
    return WEFT_OK;
}

/* ---- lifting and lowering handles ---------------------------------------- */

weft_status cm_lift_own(cm_inst_state *inst, const cm_resource *rt, uint32_t index, uint32_t *rep,
                        weft_error *err) {
    cm_handle *h = NULL;
    weft_status st = get_typed(inst, rt, index, &h, err);
    if (st != WEFT_OK) return st;
    if (h->num_lends != 0)
        return cm_trap_fail(err, CM_TRAP_HANDLE_LENT,
                            "own handle index %u moved out while lent to %u call%s", index,
                            h->num_lends, h->num_lends == 1 ? "" : "s");
    if (h->kind != CM_ELEM_OWN)
        return cm_trap_fail(err, CM_TRAP_HANDLE_NOT_OWN, "handle index %u is a borrow of %s", index,
                            rt_name(rt));
    *rep = h->rep;
    cm_handles_remove(&inst->handles, index);
    return WEFT_OK;
}

weft_status cm_lift_borrow(cm_inst_state *inst, cm_subtask *sub, const cm_resource *rt,
                           uint32_t index, uint32_t *rep, weft_error *err) {
    cm_handle *h = NULL;
    weft_status st = get_typed(inst, rt, index, &h, err);
    if (st != WEFT_OK) return st;
    if (!sub) return base_fail(err, WEFT_ERR_MISUSE, "a borrow lifted outside a call (no subtask)");
    st = add_lender(sub, index, h, err);
    if (st != WEFT_OK) return st;
    *rep = h->rep;
    return WEFT_OK;
}

weft_status cm_lower_own(cm_inst_state *inst, const cm_resource *rt, uint32_t rep,
                         uint32_t *index, weft_error *err) {
    cm_handle h = {.kind = CM_ELEM_OWN, .rep = rep, .rt = rt};
    return cm_handles_add(&inst->handles, &h, index, err);
}

weft_status cm_lower_borrow(cm_inst_state *inst, cm_task *task, const cm_resource *rt,
                            uint32_t rep, uint32_t *index, weft_error *err) {
    /* if cx.inst is t.rt.impl: return rep */
    if (rt->owner && rt->owner == inst->id) {
        *index = rep;
        return WEFT_OK;
    }
    if (!task) return base_fail(err, WEFT_ERR_MISUSE, "a borrow lowered outside a call (no task)");
    cm_handle h = {.kind = CM_ELEM_BORROW, .rep = rep, .rt = rt, .scope = task};
    weft_status st = cm_handles_add(&inst->handles, &h, index, err);
    if (st == WEFT_OK) task->num_borrows++;
    return st;
}
