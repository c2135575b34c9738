/*
 * runtime.h — the objects a store owns and an interpreter touches:
 * functions, memories, tables, globals and instances.
 *
 * Ownership: everything here is owned by its weft_store and freed with it.
 * An instance borrows its module through a counted reference.
 *
 * Thread safety: non-shared objects belong to one thread at a time (the one
 * using the store). A shared memory's size is read and written atomically
 * and it grows under its lock; its data never moves.
 */
#ifndef WEFT_RUNTIME_H
#define WEFT_RUNTIME_H

#include <pthread.h>

#include "../module/module.h"

#define RT_PAGE_SIZE 65536u
#define RT_MAX_PAGES 65536u        /* 32-bit memories: 4 GiB */
/* 64-bit memories (memory64): the most a small one (module.h) may have,
   so that every address the interpreter saturates (ADDR64, interp.c) is
   out of bounds. */
#define RT_MAX_PAGES64 MOD_SMALL_PAGES64
/* A 64-bit memory's bound when the engine sets none (max_memory_bytes 0):
   16 GiB (V8's limit for memory64, too). Only address space is reserved
   for it (MAP_NORESERVE), pages are committed as touched. */
#define RT_DEFAULT_MAX_BYTES64 ((uint64_t)16 << 30)
/* The most any 64-bit memory may have: 2^47 bytes, the x86-64 and aarch64
   user address space, so page counts stay below 2^31 (memory.size and
   memory.grow's 32-bit handlers, interp.c). */
#define RT_MAX_BYTES64 ((uint64_t)1 << 47)
#define RT_MAX_TABLE_SIZE 10000000u /* implementation limit on table size */

/* A memory budget (weft_process_config.max_memory_bytes): the bytes a
   guest can make weft commit — every linear memory's pages, every table's
   elements, every thread's wasm stack as it is touched (src/exec) — taken
   and given back atomically; a take that would pass `limit` fails and
   takes nothing. Lives as long as the store that points at it. */
typedef struct rt_budget {
    uint64_t limit;
    _Atomic uint64_t used;
} rt_budget;

/* Takes `bytes` from `b` (NULL: no budget, always true); false when that
   would pass its limit. */
bool rt_budget_take(rt_budget *b, uint64_t bytes);
void rt_budget_give(rt_budget *b, uint64_t bytes);

struct weft_store {
    weft_engine *engine;
    pthread_mutex_t lock; /* guards the lists below (threads add instances) */
    BASE_VEC(weft_instance *) instances;
    BASE_VEC(weft_func *) funcs;       /* host functions */
    BASE_VEC(weft_table *) tables;     /* host-made and instance-made */
    BASE_VEC(weft_memory *) memories;
    BASE_VEC(weft_global *) globals;
    /* One idle execution kept for weft_func_call, so a call from the host
       does not map a fresh stack each time. Taken and returned with atomic
       exchanges; freed with the store through spare_exec_free (set by the
       exec layer, which the runtime does not call directly). */
    _Atomic(weft_exec *) spare_exec;
    void (*spare_exec_free)(weft_exec *exec);
    /* Fuel (weft_store_set_fuel): while fuel_metered, executions started
       in the store draw their fuel from `fuel` in chunks (src/exec). */
    bool fuel_metered;
    _Atomic uint64_t fuel;
    /* A cap on every memory made in this store, in bytes, beside the
       engine's max_memory_bytes (0 = none): a worker's store reserves at
       most its limit, not 4 GiB, for a memory without a maximum. */
    uint64_t max_memory_bytes;
    /* Its shared memories may be imported by instances of other stores (a
       worker's shared memory: src/workers, which keeps the store alive
       while any user does). */
    bool lends_memories;
    /* The memory budget its memories, tables and executions draw from, or
       NULL (a process's: src/threads). */
    rt_budget *budget;
    /* Host-made tags (weft_tag_new), under lock. */
    BASE_VEC(weft_tag *) tags;
    /* Every exception object made in the store (rt_exn_new), a list
       pushed without a lock, freed with the store (tag.c). */
    _Atomic(weft_exn *) exns;
};

struct weft_func {
    const mod_functype *type;     /* module's type, or &own_type for hosts */
    weft_instance *inst;          /* wasm function: its instance */
    /* wasm function: its code, or its stub until first called (the
       first call through this handle stores the compiled code here,
       release; read with acquire loads). NULL for a host function. */
    _Atomic(const struct cmp_func *) code;
    uint32_t index;               /* wasm function: index in its module */
    weft_host_fn host;            /* host function (code == NULL) */
    void *env;
    void (*finalizer)(void *env);
    weft_store *store;
    mod_functype own_type;        /* host function: owned copy of its type */
};

typedef struct rt_futex rt_futex;

struct weft_memory {
    uint8_t *data;                /* reserved once, never moves */
    _Atomic uint64_t size;        /* current size in bytes */
    uint64_t reserved;            /* bytes of address space reserved */
    uint64_t max_pages;           /* effective maximum (limits and engine) */
    weft_limits limits;           /* as declared, in pages */
    pthread_mutex_t grow_lock;    /* serialises growth */
    rt_futex *futex;              /* wait queues (futex.c); shared memories only */
    weft_store *store;
    weft_engine *engine;          /* whose reservation pool takes it back */
    bool pooled;                  /* data is a slot of the pool's (memory.c) */
    rt_budget *budget;            /* its pages are charged to it, or NULL */
};

struct weft_table {
    weft_valtype elem;            /* the host's view of full_type */
    mod_valtype full_type;        /* Wasm 3.0 element type, of `owner`'s types */
    const mod_module *owner;      /* the defining module; NULL: made by a host */
    uint32_t size;
    uint32_t max;                 /* effective maximum */
    weft_limits limits;           /* as declared */
    void **elems;                 /* weft_func* (funcref) or host pointer */
    weft_store *store;
    rt_budget *budget;            /* its elements are charged to it, or NULL */
};

/* A tag (exception handling, Wasm 3.0 §4.2.10 tag instances): its
   identity is its address; `type` has no results, its params are an
   exception's payload. */
struct weft_tag {
    const mod_functype *type;     /* the module's, or &own_type */
    weft_store *store;
    mod_functype own_type;        /* host-made tag: owned copy of its type */
};

/* An exception (Wasm 3.0 §4.2.11 exception instances): a tag and its
   payload in slot form (rt_val_put: one slot a value, two a v128). An
   exnref is its address; null is 0. Owned by the store it was thrown in
   and freed with it (tag.c says why: no GC yet). Never changes once
   made, so any thread may read it. */
struct weft_exn {
    weft_tag *tag;
    weft_exn *next;               /* the store's list */
    uint32_t nslots;
    uint64_t slots[];
};

/* A new exception of `tag` with payload `slots` (tag->type's params in
   slot form), registered in `store`; NULL when out of memory. */
weft_exn *rt_exn_new(weft_store *store, weft_tag *tag, const uint64_t *slots);
/* Slots a tag's payload takes. */
uint32_t rt_tag_slots(const weft_tag *tag);

struct weft_global {
    weft_valtype type;            /* the host's view of full_type */
    mod_valtype full_type;        /* Wasm 3.0 value type, of `owner`'s types */
    const mod_module *owner;      /* the defining module; NULL: made by a host */
    bool mut;
    uint64_t value;               /* bits, as in an operand slot */
    uint64_t value_hi;            /* v128: its high 8 bytes (value: low) */
    weft_store *store;
};

struct weft_instance {
    weft_module *module;          /* counted reference */
    weft_store *store;
    weft_func **funcs;            /* module->nfuncs: imports then own */
    weft_func *own_funcs;         /* the own functions' objects */
    weft_table **tables;          /* module->ntables */
    weft_memory **mems;           /* module->nmems */
    weft_global **globals;        /* module->nglobals */
    weft_global *own_globals;     /* the own globals' objects */
    weft_tag **tags;              /* module->ntags: imports then own */
    weft_tag *own_tags;           /* the own tags' objects */
    weft_memory *mem0;            /* mems[0] or NULL, for the interpreter */
    /* Element segment instances (§4.2.12): evaluated references; a dropped
       segment has length 0. */
    void ***elem_refs;            /* module->nelems arrays */
    uint32_t *elem_len;
    /* Data segment instances: bytes stay in the module; dropped = length 0. */
    uint32_t *data_len;
};

/* Frees an instance before its store, with the tables and memories it
   made (not its imports). Only when nothing refers to its functions,
   tables or memories any more: a wasi-thread's instance once the thread
   has ended. Thread-safe against other users of the store. */
void rt_instance_release(weft_instance *inst);

/* Grows `mem` by `delta` pages. Returns the old size in pages, or -1 if the
   result would pass the maximum or memory cannot be committed (§4.4.7). */
int64_t rt_memory_grow(weft_memory *mem, uint64_t delta);
/* Grows `t` by `delta` elements set to `init`. Returns the old size or -1. */
int64_t rt_table_grow(weft_table *t, uint32_t delta, void *init);

/* Values in slot form (the convention of weft_global.value and operand
   slots): i32 and f32 in the low 32 bits with the high bits zero, i64/f64
   as is, references as pointer bits (0 = null). */
uint64_t rt_val_to_bits(weft_val v);
weft_val rt_val_from_bits(weft_valtype type, uint64_t bits);
/* A list of values in operand slots: one slot each, two for a v128 (low 8
   bytes first). rt_val_put writes v at `slots` and returns the slots it
   took; rt_val_get reads one back. */
static inline uint32_t rt_val_slots(weft_valtype t) { return t == WEFT_V128 ? 2 : 1; }
uint32_t rt_val_put(uint64_t *slots, weft_val v);
weft_val rt_val_get(weft_valtype type, const uint64_t *slots);

/* Looks an export up by its name bytes (export names may hold NUL bytes,
   which weft_instance_export's C string cannot). WEFT_ERR_NOT_FOUND if
   absent. */
weft_status rt_instance_export_n(weft_instance *inst, const char *name, size_t len,
                                 weft_extern *out);

/* Futexes for memory.atomic.wait32/wait64 and memory.atomic.notify
   (threads proposal): waiters are queued per (memory, address) in FIFO
   order. rt_atomic_wait compares the `width`-byte value at `addr` with
   `expected` and, if equal, blocks until notified, until `timeout_ns`
   passes (negative: forever), or until the execution's attention word is
   set. Returns 0 (woken), 1 (not equal), 2 (timed out), RT_WAIT_UNSHARED
   (the memory is not shared: the caller traps) or RT_WAIT_INTERRUPTED.
   rt_atomic_notify wakes up to `count` waiters in FIFO order and returns how
   many it woke (0 on unshared memory). `addr` is checked by the caller. */
#define RT_WAIT_UNSHARED (-1)
#define RT_WAIT_INTERRUPTED (-2)
/* An execution with a parker (src/sched) queued itself and must return to
   its runner; rt_futex_settle gives the wait's result when it resumes. */
#define RT_WAIT_PARKED (-3)
int rt_atomic_wait(weft_exec *e, weft_memory *mem, uint64_t addr, uint64_t expected, int width,
                   int64_t timeout_ns);
/* The result of the parked wait of `e`, as it resumes: 0 when a notify
   took it off the queue, else it leaves the queue now and gets 2 if its
   deadline passed (e->wake_reason), RT_WAIT_INTERRUPTED otherwise. */
int rt_futex_settle(weft_exec *e);
uint32_t rt_atomic_notify(weft_memory *mem, uint64_t addr, uint32_t count);
/* The wait queues of a shared memory (made and freed with it), and how many
   executions wait on `addr` now (diagnostics and tests). */
rt_futex *rt_futex_new(void);
void rt_futex_free(rt_futex *f);
uint32_t rt_futex_waiters(weft_memory *mem, uint64_t addr);

/* Evaluates a constant expression of a validated module in `inst` (the
   globals it reads already set up) into *out: the value's bits (low half
   of a v128; a reference's pointer). WEFT_OK, or WEFT_ERR_NOMEM (err
   filled) when a long extended expression needs a stack it cannot get. */
weft_status rt_eval_const(const weft_instance *inst, const mod_constexpr *e,
                          uint64_t *out, weft_error *err);

/* `bytes` of address space (read-write, zero, committed as touched) from
   the engine's pool of reservations (memory.c), or mapped alone; *pooled
   says which, for the release. Releasing discards the first `used` bytes'
   pages (all that may have been touched) before the slot is reused.
   Memories and executions' stacks come from here. */
uint8_t *rt_reserve_pooled(weft_engine *engine, uint64_t bytes, bool *pooled);
void rt_release_pooled(weft_engine *engine, uint8_t *data, uint64_t bytes, uint64_t used, bool pooled);

/* Memory and table creation for a store, used by instantiation and by the
   public constructors. `limits` is the declared type; the engine's memory
   cap applies. */
weft_status rt_memory_create(weft_store *store, weft_limits limits,
                             weft_memory **out, weft_error *err);
weft_status rt_table_create(weft_store *store, weft_valtype elem,
                            weft_limits limits, void *init,
                            weft_table **out, weft_error *err);

#endif
