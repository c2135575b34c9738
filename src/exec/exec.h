/*
 * exec.h — an execution: the operand/frame stacks of one call in progress,
 * its attention word, and the saved registers of a suspended run.
 *
 * Ownership: a weft_exec is owned by whoever made it and used by one thread
 * at a time. Only `attention` is touched by other threads (atomically).
 */
#ifndef WEFT_EXEC_H
#define WEFT_EXEC_H

#include "../compile/code.h"
#include "../runtime/runtime.h"

/* The caller's registers saved by a call: where to continue. */
typedef struct exec_frame {
    const uint32_t *ret_ip;
    uint64_t *fp;
    const cmp_func *fn;
    weft_instance *inst;
} exec_frame;

/* A group of executions that can wake each other (the threads of a
   process, src/threads). The futexes tell it when a member starts and stops
   waiting without a timeout, so it can tell when every member is blocked
   for good (deadlock). Both calls are made with a futex bucket lock held:
   they must not wait, and must not take a bucket lock. */
typedef struct exec_group exec_group;
struct exec_group {
    /* `e` is now queued, untimed, on the `width`-byte word at `addr`. */
    void (*blocked)(exec_group *g, weft_exec *e, uint64_t addr, int width);
    /* `e` left that queue (notified, or interrupted). */
    void (*unblocked)(exec_group *g, weft_exec *e);
};

typedef enum exec_state {
    EXEC_IDLE,      /* nothing prepared */
    EXEC_READY,     /* weft_exec_start done, not yet run */
    EXEC_SUSPENDED, /* paused at a safe point */
    EXEC_PARKED,    /* paused inside a futex wait (scheduler only), or on
                       a restartable host call (host_pending) */
    EXEC_DONE,      /* finished; results in stack[0..] */
} exec_state;

/* The scheduler's side of an execution it runs as an agent (src/sched).
   With a parker, a futex wait does not block its OS thread: the execution
   queues itself, returns WEFT_SUSPENDED in state EXEC_PARKED, and is run
   again once woken; it settles its wait itself when it resumes. */
typedef struct exec_parker exec_parker;
struct exec_parker {
    /* The parked wait number `gen` of `e` was woken by a notify (its
       result is 0). Called under a futex bucket lock: must not wait or
       take a bucket lock. */
    void (*wake)(exec_parker *pk, weft_exec *e, uint32_t gen);
    /* Request bits were just set on `e` (weft_exec_request); a parked
       execution must run to honour them. Any thread, any lock but a
       bucket lock held. */
    void (*poke)(exec_parker *pk, weft_exec *e);
};

/* Why a parked execution runs again (set by the scheduler). */
enum { EXEC_WAKE_NOTIFY = 0, EXEC_WAKE_TIMEOUT = 1, EXEC_WAKE_POKE = 2,
       EXEC_WAKE_IO = 3 /* an fd of a parked host call is ready */ };

/* A futex waiter (futex.c): on the waiting thread's C stack in 1:1 mode,
   in its execution (exec->waiter) when the execution parks. */
typedef struct exec_waiter {
    struct exec_waiter *prev, *next;
    uint64_t addr;
    weft_exec *exec;
    void *bucket;            /* where it is queued (parked waits) */
    uint32_t gen;            /* parked waits: which one */
    bool untimed;            /* reported to exec->group */
    _Atomic int state;       /* RT_WAITING, RT_WOKEN (set under the bucket lock) */
} exec_waiter;

/* The attention word's own bit beside the public WEFT_ATTN_* requests:
   set for the whole of a call started in a store with a fuel budget
   (weft_store_set_fuel), so that every safe point enters the attention
   handler, which meters it. Never set by weft_exec_request and never
   cleared by the handler; futex waits ignore it. An execution takes fuel
   from its store in chunks of EXEC_FUEL_CHUNK. */
#define EXEC_ATTN_FUEL 0x80000000u
/* The other own bit: set by a deterministic scheduler for one step of an
   agent (src/sched), so that every safe point counts down slice_left and
   the step ends (suspended) when it reaches 0: slices measured in
   executed safe points, never in time. */
#define EXEC_ATTN_SLICE 0x40000000u
#define EXEC_ATTN_OWN (EXEC_ATTN_FUEL | EXEC_ATTN_SLICE)
/* A request of the tier-up ticker (tier.c, WEFT_TIER_AUTO): at its next
   safe point the execution credits the function it is in with a sample,
   and compiles it when it is hot. Cleared with the other requests; it
   counts nothing (no fuel, no slice) and interrupts no wait. */
#define EXEC_ATTN_TIERUP 0x20000000u
#define EXEC_ATTN_REQUESTS (WEFT_ATTN_SUSPEND | WEFT_ATTN_STOP)
#define EXEC_FUEL_CHUNK 1024u

struct weft_caller {
    weft_instance *inst;  /* calling instance, may be NULL */
    weft_exec *exec;
    int32_t exit_code;
    char message[WEFT_ERROR_MESSAGE_MAX];
};

/* Host calls of up to this many parameters (and results) take their
   values from the execution's own arrays (exec_call_host). */
#define EXEC_HOST_SMALL 16

struct weft_exec {
    weft_store *store;
    _Atomic uint32_t attention; /* WEFT_ATTN_* requests, EXEC_ATTN_FUEL */
    uint64_t slice_left;        /* EXEC_ATTN_SLICE: safe points left in the step */
    uint64_t fuel_left;         /* metered: safe points this execution
                                   may still pass before it takes more */

    uint64_t *stack;      /* operand slots: one reservation with the frames */
    uint64_t *stack_end;
    size_t stack_bytes;
    exec_frame *frames;   /* saved callers, after the operand slots */
    weft_engine *map_engine; /* whose pool the reservation came from, if pooled */
    bool pooled;
    uint32_t max_depth;
    uint32_t depth;       /* frames in use */

    exec_state state;
    weft_func *entry;     /* the function called */
    /* Registers of a suspended or ready run. */
    const uint32_t *ip;
    uint64_t *fp;
    const cmp_func *fn;
    weft_instance *inst;
    /* The memory a MEM_SELECT chose when the run stopped between it and
       its one operation (a memory.atomic.wait on memory n that parked or
       was interrupted: the wait is made again on resume); NULL: memory 0. */
    weft_memory *mem_sel;

    /* Parking (futex.c). A waiting execution sleeps on park_cond (a
       CLOCK_MONOTONIC condition) under park_lock; a notify or
       weft_exec_request takes park_lock and signals it. */
    pthread_mutex_t park_lock;
    pthread_cond_t park_cond;
    exec_group *group;    /* set by the owner before running; may be NULL */
    void *group_member;   /* the owner's record for this execution */

    /* Parked waits (with a parker). waiter.gen counts them; the deadline
       (CLOCK_MONOTONIC ns, 0 = none) and wake_reason are read and written
       by the scheduler under its lock. */
    exec_parker *parker;
    exec_waiter waiter;
    int64_t park_deadline;
    int64_t park_timeout; /* a futex wait's timeout (ns, 0 = none), for a
                             scheduler that keeps its own clock */
    uint8_t wake_reason;
    /* Odd while inside a host function: incremented on the way in and on
       the way out, so the scheduler, looking twice, tells one host call
       that takes long (a runner is then handed off) from many short ones
       (issue 26: a worker that sends in a loop is in a host call at most
       looks, and was given a second runner each slice). */
    _Atomic uint32_t in_host;
    /* A host call that returned WEFT_SUSPENDED, to be made again on
       resume: the function, where its arguments are, and the word it
       keeps across restarts (weft_caller_restart_word). */
    weft_func *host_pending;
    uint64_t *host_slots;
    uint64_t host_word;
    /* The exception a host function threw (weft_caller_throw), taken by
       the interpreter when the function returns WEFT_ERR_EXCEPTION. */
    weft_exn *host_thrown;
    /* The records of the host call in progress (an execution makes one at
       a time; a host function that calls wasm again does so on another
       execution). Here rather than on the C stack, which a host
       re-entering wasm spends per level (issue 39). */
    weft_caller host_caller;
    weft_val host_args[EXEC_HOST_SMALL], host_res[EXEC_HOST_SMALL];

    /* What the interpreter's call checks compare with (interp.c's
       `enter`): the operand slots [stack, commit_end) and the frame records
       [frames, frame_commit) a call may use without asking. Without a
       budget they are the whole reservation (stack_end, frames +
       max_depth). Under a memory budget (exec_budget_attach; a process's,
       src/threads) they are what the budget has paid for, in
       EXEC_STACK_CHUNK steps, so a call past them is the only one that
       asks for more (exec_stack_charge): checking costs nothing more than
       the stack limit's check did. `charged` is what the budget gave;
       stack_denied: the last refusal was the budget's, not the limit's. */
    uint64_t *commit_end;
    exec_frame *frame_commit;
    rt_budget *budget;
    uint64_t charged;
    bool stack_denied;

    /* WEFT_TIER_AUTO: on the ticker's list while it runs (tier.c), unless
       its owner asks for the samples itself (a cooperative scheduler:
       no thread of weft's runs then). */
    struct weft_exec *tier_prev, *tier_next;
    bool tier_by_owner;
};

/* tier.c, WEFT_TIER_AUTO (docs/jit.md, "Tiers"): an execution of an
   engine with the auto tier is on the ticker's list while it runs; the
   ticker asks every one on it for a sample each millisecond
   (EXEC_ATTN_TIERUP), and the interpreter gives it at its next safe point
   (exec_tier_sample, with the frame records, to credit the innermost
   interpreted function); compiled code's calls of a function without
   machine code are counted as they leave for the interpreter
   (exec_tier_call). Two samples or 32 such calls compile a function. */
void exec_tier_enter(weft_exec *e);
void exec_tier_leave(weft_exec *e);
void exec_tier_sample(const cmp_func *fn, const weft_instance *inst, const exec_frame *frame,
                      const exec_frame *base);
void exec_tier_call(const cmp_func *fn, const weft_instance *inst);

#define EXEC_STACK_CHUNK 16384u
/* A call needs operand slots up to `need` and a frame record at `frame`,
   past e->commit_end or e->frame_commit: charges e's budget for them, in
   whole chunks, and moves those limits. False when e has no budget or the
   stack's own limit is reached (stack_denied false), or when the budget
   refused (stack_denied true): the call traps "call stack exhausted". */
bool exec_stack_charge(weft_exec *e, uint64_t *need, const exec_frame *frame);
/* Makes `budget` pay for e's stack as touched: charges its first chunks
   now (false, nothing charged, when the budget has no room). */
bool exec_budget_attach(weft_exec *e, rt_budget *budget);
/* Gives back what e's stack was charged and discards its pages (a thread
   ended; its execution may be reused). No effect without a budget. */
void exec_budget_detach(weft_exec *e);
/* The message of a call refused by the budget. */
#define EXEC_BUDGET_STACK_MSG                                                        \
    "call stack exhausted: the memory budget (max_memory_bytes) has no room for the thread's stack"


/* A new execution with `stack_bytes` of operand stack (rounded up to a
   page) and room for `max_depth` frames, reserved in one mapping and
   committed as touched (weft_exec_new sizes them from the engine's config;
   workers from their limits). NULL when out of memory or address space. */
weft_exec *exec_new_sized(weft_store *store, size_t stack_bytes, uint32_t max_depth);

/* Fuel (exec.c): takes the next chunk from the store's budget into
   e->fuel_left; false when the budget is empty. */
bool exec_fuel_take(weft_exec *e);
/* Gives e->fuel_left back to the store's budget (a call ended). */
void exec_fuel_return(weft_exec *e);

/* Runs `e` from its saved registers until it finishes, traps or is
   suspended (the interpreter loop, interp.c). */
weft_status exec_run(weft_exec *e, weft_error *err);

/* The profiling build's count (-DWEFT_PROFILE_PAIRS=1, profile.c): called
   by every dispatch of the interpreter with the operation dispatched
   before (`prev`, NULL at the loop's start) and the one now (`ip`);
   returns `ip`, the next call's `prev`. */
const uint32_t *exec_profile_dispatch(const uint32_t *prev, const uint32_t *ip);

/* Calls a host function with arguments in `slots` and leaves its results
   there. On failure fills err (trap or exit), without a backtrace. */
weft_status exec_call_host(weft_exec *e, weft_func *f, weft_instance *caller, uint64_t *slots,
                           weft_error *err);

/* Lazy translation (compile/code.h): the compiled code of the function
   whose stub is `stub`, in `inst`, compiling it on its first call; also
   stores it in inst's handle of the function. On failure *out is the
   stub again and err says why (cmp_func_code). */
weft_status exec_lazy_code(weft_instance *inst, const cmp_func *stub, const cmp_func **out, weft_error *err);
/* The LAZY operation (interp.c), with e's registers saved just after a
   stub was entered: compiles the function, checks that its frame fits,
   zeroes its locals, copies its constants, and leaves e->fn and e->ip at
   its code. WEFT_ERR_TRAP: the frame does not fit, and e's registers are
   back at the call (the stack is exhausted); any other failure is the
   compile's, with err filled. */
weft_status exec_lazy_enter(weft_exec *e, weft_error *err);
/* Exceptions (throw.c). The first handler of `fn` (running in `inst`)
   that catches `x` thrown at code word `pc`, or NULL. */
const cmp_handler *exec_handler_find(const cmp_func *fn, const weft_instance *inst, uint32_t pc,
                                     const weft_exn *x);
/* `x` left the outermost frame (last in `inst`): fills err
   (WEFT_ERR_EXCEPTION, err->exception, "uncaught exception: tag ...")
   and returns its status. */
/* An exception no frame caught, thrown at `ip` of `at_fn` with `depth`
   frame records below it (their records are intact: unwinding only
   reads them), whose backtrace err gets as a trap's (at_fn NULL: none). */
weft_status exec_uncaught(weft_exec *e, weft_exn *x, const weft_instance *inst, weft_error *err,
                          const cmp_func *at_fn, const uint32_t *ip, uint32_t depth);
/* err->frames: the backtrace of a run stopped at `ip` of `fn` (of
   `inst`) with `depth` frame records below, innermost first. */
void exec_backtrace(const weft_exec *e, uint32_t depth, const cmp_func *fn, const weft_instance *inst,
                    const uint32_t *ip, weft_error *err);

/* Fills err with a trap and the backtrace of e's frames; `ip` is where the
   innermost frame stopped. */
weft_status exec_trap(weft_exec *e, weft_trap trap, const char *message, const cmp_func *fn,
                      weft_instance *inst, const uint32_t *ip, weft_error *err);

/* A function's frame at fp on entry (code.h): its declared locals zeroed,
   its constants copied to the slots right after them. The parameters are
   in place already. Every entry does this: a call (interp.c's `enter`), a
   first call through a stub (exec_lazy_enter), weft_exec_start. */
static inline void exec_frame_init(uint64_t *fp, const cmp_func *cf) {
    uint64_t *p = fp + cf->nparams, *end = fp + cf->nlocals;
    while (p < end) *p++ = 0;
    const uint64_t *k = cf->consts;
    for (end = p + cf->nconsts; p < end;) *p++ = *k++;
}

#endif
