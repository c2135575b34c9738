/*
 * resource.h — handle tables and resources (CanonicalABI.md "Table
 * State", "Resource State", "Tasks", "Subtask State", "canon
 * resource.new", "canon resource.drop", "canon resource.rep", and
 * lift_own/lift_borrow/lower_own/lower_borrow of "Loading"/"Storing").
 *
 * Each component instance has one handles table (cm_handles) in its
 * cm_inst_state; an i32 handle is an index into it. Index 0 is never
 * used; freed indices are reused last-freed first, as the spec's free
 * list does (the component model's tests assert exact indices).
 *
 * A call into an instance (canon lift) has a cm_task: borrow handles
 * lowered into the callee for that call count in its num_borrows, each
 * dropped borrow uncounts, and the call must end with none left. A call
 * out of an instance (canon lower) has a cm_subtask: each handle lent
 * as a borrow argument has its num_lends raised until the call returns
 * (cm_subtask_end), and an own handle cannot be dropped or moved while
 * lent. Both records are the synchronous part of the spec's Task and
 * Subtask; the async issue adds their states, threads and events.
 *
 * Not thread-safe: an instance's state is used by the one thread running
 * it at a time.
 */
#ifndef WEFT_COMPONENT_RESOURCE_H
#define WEFT_COMPONENT_RESOURCE_H

#include "cabi.h"

/* The spec's Table.MAX_LENGTH: indices keep their top 4 bits clear. */
#define CM_HANDLES_MAX ((1u << 28) - 1)
/* weft's default bound on an instance's table (each element is 32 bytes
   of host memory: 32 MiB at this bound); cm_inst_state.handles.limit may
   be set anywhere up to CM_HANDLES_MAX. Past it resource.new and
   lowering an own or borrow trap (CM_TRAP_TABLE_FULL). */
#define CM_HANDLES_DEFAULT_LIMIT (1u << 20)

/* What an element of the table holds. The async issue adds waitables,
   waitable sets and error contexts, which share the table. */
typedef enum cm_elem_kind {
    CM_ELEM_FREE = 0,
    CM_ELEM_OWN,    /* an owning handle ("ResourceHandle", own = True) */
    CM_ELEM_BORROW, /* a borrowed one (own = False) */
} cm_elem_kind;

typedef struct cm_handle {
    uint8_t kind;          /* cm_elem_kind */
    uint32_t rep;          /* the resource's representation */
    uint32_t num_lends;    /* borrows lent from this handle to calls in progress */
    uint32_t next_free;    /* FREE: the next index of the free list (0: end) */
    const cm_resource *rt; /* the resource type (compared by pointer) */
    cm_task *scope;        /* BORROW made by lower_borrow: the call it lives for */
} cm_handle;

typedef struct cm_handles {
    cm_handle *elems; /* elems[0] is the reserved null element */
    uint32_t len, cap;
    uint32_t free_head; /* last freed index, 0 when none */
    uint32_t limit;     /* the largest index allowed (<= CM_HANDLES_MAX) */
} cm_handles;

/* The canonical ABI's state of one component instance ("Component
   Instances"): the part that the ABI and the resource built-ins use. The
   instance (the linker's) embeds one. */
struct cm_inst_state {
    cm_handles handles;
    const void *id;   /* the identity a cm_resource it defines holds as owner */
    bool may_leave;   /* false while realloc runs for a lift or lower into it */
};

void cm_inst_state_init(cm_inst_state *s, const void *id);
/* Frees the table (the resources still in it are not destroyed: an
   instance's end drops no handle, as in the spec). */
void cm_inst_state_free(cm_inst_state *s);

/* A call into an instance ("Task"): inst is the callee. */
struct cm_task {
    cm_inst_state *inst;
    uint32_t num_borrows; /* borrow handles lowered into inst for this call, not yet dropped */
};

/* A call out of an instance ("Subtask"): inst is the caller; the
   handles it lent (indices into inst's table) get their num_lends back
   when the call is over. */
struct cm_subtask {
    cm_inst_state *inst;
    uint32_t *lenders;
    uint32_t nlenders, cap;
};

void cm_task_begin(cm_task *task, cm_inst_state *callee);
/* Task.return_: the callee is returning. WEFT_ERR_TRAP
   (CM_TRAP_BORROWS_REMAIN) if a borrow lowered for this call was not
   dropped; those handles are then detached from the task (their later
   drop counts nowhere), so no handle keeps a pointer to an ended call. */
weft_status cm_task_return(cm_task *task, weft_error *err);

void cm_subtask_begin(cm_subtask *sub, cm_inst_state *caller);
/* Subtask.deliver_resolve: every lent handle's num_lends goes back down;
   frees the list. Call it once the callee returned (or trapped). */
void cm_subtask_end(cm_subtask *sub);

/* canon resource.new: a new own handle of rt for rep in inst's table.
   Traps: CM_TRAP_CANNOT_LEAVE (inside realloc), CM_TRAP_TABLE_FULL. */
weft_status cm_resource_new(cm_inst_state *inst, const cm_resource *rt, uint32_t rep,
                            uint32_t *index, weft_error *err);
/* canon resource.drop: removes the handle; an own handle's resource is
   destroyed (rt->dtor with its rep, when rt has one; its failure is
   returned), a borrow handle ends its borrow. Traps: CANNOT_LEAVE,
   HANDLE_UNKNOWN, HANDLE_TYPE, HANDLE_LENT (an own handle lent to a call
   in progress). */
weft_status cm_resource_drop(cm_inst_state *inst, const cm_resource *rt, uint32_t index,
                             weft_error *err);
/* canon resource.rep. Traps: HANDLE_UNKNOWN, HANDLE_TYPE. */
weft_status cm_resource_rep(cm_inst_state *inst, const cm_resource *rt, uint32_t index,
                            uint32_t *rep, weft_error *err);

/* lift_own: moves an own handle out of inst (removed from the table),
   giving its rep. Traps: HANDLE_UNKNOWN, HANDLE_TYPE, HANDLE_LENT,
   HANDLE_NOT_OWN. */
weft_status cm_lift_own(cm_inst_state *inst, const cm_resource *rt, uint32_t index, uint32_t *rep,
                        weft_error *err);
/* lift_borrow: lends the handle (own or borrow) to the call `sub` for its
   duration, giving its rep. Traps: HANDLE_UNKNOWN, HANDLE_TYPE. */
weft_status cm_lift_borrow(cm_inst_state *inst, cm_subtask *sub, const cm_resource *rt,
                           uint32_t index, uint32_t *rep, weft_error *err);
/* lower_own: a new own handle for rep in inst. Trap: TABLE_FULL. */
weft_status cm_lower_own(cm_inst_state *inst, const cm_resource *rt, uint32_t rep,
                         uint32_t *index, weft_error *err);
/* lower_borrow: in the instance that defined rt the rep itself; elsewhere
   a borrow handle that lives for the call `task`. Trap: TABLE_FULL. */
weft_status cm_lower_borrow(cm_inst_state *inst, cm_task *task, const cm_resource *rt,
                            uint32_t rep, uint32_t *index, weft_error *err);

/* The table's element at index, or NULL (free or out of range). */
cm_handle *cm_handles_get(cm_handles *t, uint32_t index);
/* Table.add: h into the last freed index, else a new one; WEFT_ERR_TRAP
   (CM_TRAP_TABLE_FULL) past the limit, WEFT_ERR_NOMEM. For the elements
   the built-ins above do not make (the async issue's waitables). */
weft_status cm_handles_add(cm_handles *t, const cm_handle *h, uint32_t *index, weft_error *err);
/* Table.remove of an element cm_handles_get finds: nothing else happens
   (no destructor, no borrow count). */
void cm_handles_remove(cm_handles *t, uint32_t index);

#endif
