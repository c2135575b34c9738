/*
 * memory.c — linear memories (§4.2.8 memory instances, §4.4.7 memory.grow).
 *
 * A memory never moves (architecture decision 5). At creation we map
 * address space for its effective maximum plus a 64 KiB guard in one call,
 * readable and writable but with MAP_NORESERVE: nothing is committed until
 * a page is touched, and untouched pages read as zero, which is what the
 * spec asks of new memory. Bounds are enforced by the interpreter's checks
 * against `size`, not by page protection, so growing is only publishing a
 * larger size: no system call, no split of the mapping. (One mmap per
 * memory instead of mmap + mprotect is what keeps instantiation in the
 * microseconds; if guard pages ever replace the bounds checks, the part
 * above `size` must become PROT_NONE again.)
 *
 * Shared memories are used by other threads while one grows them: `size`
 * is published with release order, and growth is serialised by grow_lock.
 *
 * The system calls below are the only platform-specific code here; they
 * belong behind src/base/platform.h once that exists.
 */
#include "internal.h"

#include <errno.h>
#include <sys/mman.h>

#define RT_GUARD_BYTES ((uint64_t)RT_PAGE_SIZE)

static void *rt_reserve(uint64_t bytes) {
    if (bytes > SIZE_MAX) return NULL;
    void *p = mmap(NULL, (size_t)bytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return p == MAP_FAILED ? NULL : p;
}

static void rt_release(uint8_t *at, uint64_t bytes) {
    munmap(at, (size_t)bytes);
}

/* The engine's pool of reservations. Mapping and unmapping address space
   (the page tables above all) is most of what a small instance or an
   execution costs, and 100,000 of them would pass the kernel's limit of
   mappings, so reservations come from chunks: a chunk is one mapping of
   `per_chunk` slots of one size (a size class), mapped when the class has
   no free slot and never unmapped before the engine goes. A freed slot has
   its touched pages discarded (they read as zero again) and goes on its
   class's free list, so it is exactly like a fresh one. Up to RT_CLASSES
   sizes get a class, the first ones asked for (in practice a handful: 4
   GiB memories, a worker's memory, execution stacks); others are mapped
   and unmapped one by one. One lock guards it all; it is taken once per
   reservation made or freed.

   A freed slot's pages are not discarded at once: it waits in its
   class's batch of up to RT_DIRTY_SLOTS, then the batch is discarded in
   address order, one madvise for each run of neighbouring slots. Each
   madvise empties the TLB of every core the process runs on (an
   interrupt to each, costly on a VM), and slots freed one after another
   are often neighbours: 100,000 workers ending one after another spent
   2.1 s discarding slot by slot, 0.5 to 1.0 s so. A slot that touched
   more than RT_DIRTY_BYTES / RT_DIRTY_SLOTS (a big memory, an execution
   stack's whole reservation) is discarded at once, a class's batch
   holds at most RT_DIRTY_BYTES / RT_CLASSES of touched ranges, and a
   reservation that finds no clean slot discards its class's batch
   first: so at most RT_DIRTY_BYTES of pages freed (and given back to
   any budget) stay resident, for a while. */
#define RT_CLASSES 8
#define RT_CHUNK_BYTES ((uint64_t)64 << 30)  /* address space per chunk, about */
#define RT_CHUNK_MIN_SLOTS 16
#define RT_CHUNK_MAX_SLOTS 256
#define RT_SLOT_BYTES ((uint64_t)RT_MAX_PAGES * RT_PAGE_SIZE + RT_GUARD_BYTES)
#define RT_DIRTY_SLOTS 32
#define RT_DIRTY_BYTES ((uint64_t)256 << 20)
struct rt_dirty {
    uint8_t *data;
    uint64_t used; /* the bytes from data that may have been touched */
};
struct rt_class {
    uint64_t slot_bytes;
    uint32_t per_chunk;
    size_t nslots;                  /* in all its chunks */
    BASE_VEC(uint8_t *) free_slots; /* with room for every one of them */
    struct rt_dirty dirty[RT_DIRTY_SLOTS]; /* freed, pages not yet discarded */
    uint32_t ndirty;
    uint64_t dirty_used;            /* the sum of their used */
};
struct rt_mem_pool {
    pthread_mutex_t lock;
    BASE_VEC(struct rt_chunk { uint8_t *base; uint64_t bytes; }) chunks;
    struct rt_class classes[RT_CLASSES];
    uint32_t nclasses;
};

struct rt_mem_pool *rt_mem_pool_new(void) {
    struct rt_mem_pool *p = calloc(1, sizeof *p);
    if (p && pthread_mutex_init(&p->lock, NULL) != 0) {
        free(p);
        p = NULL;
    }
    return p;
}

void rt_mem_pool_free(struct rt_mem_pool *p) {
    if (!p) return;
    for (size_t i = 0; i < p->chunks.len; i++) rt_release(p->chunks.data[i].base, p->chunks.data[i].bytes);
    for (uint32_t i = 0; i < p->nclasses; i++) BASE_VEC_FREE(p->classes[i].free_slots);
    BASE_VEC_FREE(p->chunks);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

/* The class of `bytes`, made if there is room for one; NULL if none. */
static struct rt_class *rt_pool_class_locked(struct rt_mem_pool *p, uint64_t bytes) {
    for (uint32_t i = 0; i < p->nclasses; i++)
        if (p->classes[i].slot_bytes == bytes) return &p->classes[i];
    if (p->nclasses == RT_CLASSES || bytes == 0 || bytes > RT_SLOT_BYTES) return NULL;
    struct rt_class *c = &p->classes[p->nclasses++];
    c->slot_bytes = bytes;
    uint64_t n = RT_CHUNK_BYTES / bytes;
    c->per_chunk = n < RT_CHUNK_MIN_SLOTS ? RT_CHUNK_MIN_SLOTS : n > RT_CHUNK_MAX_SLOTS ? RT_CHUNK_MAX_SLOTS : (uint32_t)n;
    return c;
}

static int rt_dirty_cmp(const void *a, const void *b) {
    const uint8_t *x = ((const struct rt_dirty *)a)->data, *y = ((const struct rt_dirty *)b)->data;
    return x < y ? -1 : x > y;
}

/* Takes class c's dirty batch (under the lock) into `batch`; its count. */
static uint32_t rt_take_dirty_locked(struct rt_class *c, struct rt_dirty *batch) {
    uint32_t n = c->ndirty;
    memcpy(batch, c->dirty, n * sizeof *batch);
    c->ndirty = 0;
    c->dirty_used = 0;
    return n;
}

/* Discards the pages of a batch taken from class c (without the lock):
   a run of neighbouring slots is one madvise from the first one's start
   to the last one's touched end. Then the slots go on the free list; a
   run whose pages cannot be discarded stays out of it until the engine
   goes (a slot is never unmapped on its own). */
static void rt_clean(struct rt_mem_pool *p, struct rt_class *c, struct rt_dirty *batch, uint32_t n) {
    qsort(batch, n, sizeof *batch, rt_dirty_cmp);
    uint64_t bytes = c->slot_bytes;
    uint32_t kept = 0;
    for (uint32_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && batch[j].data == batch[j - 1].data + bytes; j++) {}
        uint64_t len = (uint64_t)(batch[j - 1].data - batch[i].data) + batch[j - 1].used;
        if (madvise(batch[i].data, (size_t)len, MADV_DONTNEED) != 0) continue;
        while (i < j) batch[kept++] = batch[i++];
    }
    pthread_mutex_lock(&p->lock);
    for (uint32_t k = 0; k < kept; k++) c->free_slots.data[c->free_slots.len++] = batch[k].data; /* it has room */
    pthread_mutex_unlock(&p->lock);
}

uint8_t *rt_reserve_pooled(weft_engine *engine, uint64_t bytes, bool *pooled) {
    *pooled = false;
    struct rt_mem_pool *p = engine ? engine->mem_pool : NULL;
    uint8_t *data = NULL;
    if (p) {
        pthread_mutex_lock(&p->lock);
        struct rt_class *c = rt_pool_class_locked(p, bytes);
        if (c && c->free_slots.len == 0 && c->ndirty) {
            /* Freed slots wait to be discarded: that first. */
            struct rt_dirty batch[RT_DIRTY_SLOTS];
            uint32_t n = rt_take_dirty_locked(c, batch);
            pthread_mutex_unlock(&p->lock);
            rt_clean(p, c, batch, n);
            pthread_mutex_lock(&p->lock);
        }
        if (c && c->free_slots.len == 0) {
            uint64_t chunk_bytes = (uint64_t)c->per_chunk * bytes;
            uint8_t *chunk = rt_reserve(chunk_bytes);
            struct rt_chunk rec = {chunk, chunk_bytes};
            if (chunk &&
                base_vec_reserve((void **)&c->free_slots.data, &c->free_slots.cap, c->nslots + c->per_chunk,
                                 sizeof *c->free_slots.data) &&
                BASE_VEC_PUSH(p->chunks, rec)) {
                c->nslots += c->per_chunk;
                for (uint32_t k = c->per_chunk; k-- > 0;)
                    c->free_slots.data[c->free_slots.len++] = chunk + k * bytes;
            } else if (chunk) {
                rt_release(chunk, chunk_bytes);
            }
        }
        if (c && c->free_slots.len) {
            data = c->free_slots.data[--c->free_slots.len];
            *pooled = true;
        }
        pthread_mutex_unlock(&p->lock);
    }
    return data ? data : rt_reserve(bytes);
}

void rt_release_pooled(weft_engine *engine, uint8_t *data, uint64_t bytes, uint64_t used, bool pooled) {
    if (!data) return;
    if (!pooled) {
        rt_release(data, bytes);
        return;
    }
    struct rt_mem_pool *p = engine->mem_pool;
    struct rt_dirty batch[RT_DIRTY_SLOTS];
    if (used > bytes) used = bytes;
    if (used > RT_DIRTY_BYTES / RT_DIRTY_SLOTS) {
        batch[0] = (struct rt_dirty){data, used};
        pthread_mutex_lock(&p->lock);
        struct rt_class *c = rt_pool_class_locked(p, bytes);
        pthread_mutex_unlock(&p->lock);
        rt_clean(p, c, batch, 1);
        return;
    }
    uint32_t n = 0;
    pthread_mutex_lock(&p->lock);
    struct rt_class *c = rt_pool_class_locked(p, bytes);
    c->dirty[c->ndirty++] = (struct rt_dirty){data, used};
    c->dirty_used += used;
    if (c->ndirty == RT_DIRTY_SLOTS || c->dirty_used > RT_DIRTY_BYTES / RT_CLASSES)
        n = rt_take_dirty_locked(c, batch);
    pthread_mutex_unlock(&p->lock);
    if (n) rt_clean(p, c, batch, n);
}

weft_status rt_memory_alloc(weft_engine *engine, uint64_t store_cap, rt_budget *budget, weft_limits limits,
                            weft_memory **out, weft_error *err) {
    const weft_config *config = engine ? &engine->config : NULL;
    *out = NULL;
    /* A 64-bit memory (memory64) may declare up to 2^48 pages; weft gives
       it at most the engine's max_memory_bytes, or 16 GiB when that is 0
       (RT_DEFAULT_MAX_BYTES64), and never more than 2^47 bytes (the user
       address space): a larger minimum is refused, a larger maximum is
       clamped, so grow fails past it as the spec allows. One whose type
       keeps it at most RT_MAX_PAGES64 pages is compiled with 32-bit
       addresses (ADDR64, exact there), a larger one with 64-bit ones
       (cmp_mem_big, docs/pipeline.md). Only address space is reserved for
       the maximum (MAP_NORESERVE). */
    uint64_t range = RT_MAX_PAGES;
    if (limits.is64) {
        uint64_t cap = config && config->max_memory_bytes ? config->max_memory_bytes : RT_DEFAULT_MAX_BYTES64;
        if (cap > RT_MAX_BYTES64) cap = RT_MAX_BYTES64;
        range = cap / RT_PAGE_SIZE;
        if (limits.has_max && limits.max <= RT_MAX_PAGES64 && range > RT_MAX_PAGES64) range = RT_MAX_PAGES64;
        if (limits.min > range)
            return base_fail(err, WEFT_ERR_LIMIT,
                             "64-bit memory of %llu pages is above the limit of %llu pages (%s %llu bytes)",
                             (unsigned long long)limits.min, (unsigned long long)range,
                             config && config->max_memory_bytes ? "max_memory_bytes" : "by default",
                             (unsigned long long)(range * RT_PAGE_SIZE));
    } else if (limits.min > RT_MAX_PAGES || (limits.has_max && limits.max > RT_MAX_PAGES)) {
        return base_fail(err, WEFT_ERR_MISUSE,
                         "memory size must be at most %u pages (4 GiB)", RT_MAX_PAGES);
    }
    if (limits.has_max && limits.min > limits.max)
        return base_fail(err, WEFT_ERR_MISUSE,
                         "memory minimum (%llu pages) is above its maximum (%llu pages)",
                         (unsigned long long)limits.min, (unsigned long long)limits.max);

    /* The effective maximum: the declared one (or the whole 32-bit range,
       or a 64-bit memory's bound above), clamped by the engine's
       max_memory_bytes. */
    uint64_t max_pages = limits.has_max && limits.max < range ? limits.max : range;
    if (config && config->max_memory_bytes) {
        uint64_t cap = config->max_memory_bytes / RT_PAGE_SIZE;
        if (max_pages > cap) max_pages = cap;
    }
    if (store_cap && max_pages > store_cap / RT_PAGE_SIZE) {
        /* The store's own cap (a worker's memory limit). */
        max_pages = store_cap / RT_PAGE_SIZE;
        if (limits.min > max_pages)
            return base_fail(err, WEFT_ERR_LIMIT,
                             "memory of %llu pages is above the limit of %llu pages "
                             "(max_memory_bytes %llu)",
                             (unsigned long long)limits.min, (unsigned long long)max_pages,
                             (unsigned long long)store_cap);
    }
    if (limits.min > max_pages)
        return base_fail(err, WEFT_ERR_LIMIT,
                         "memory of %llu pages is above the engine's limit of %llu "
                         "pages (max_memory_bytes %llu)",
                         (unsigned long long)limits.min, (unsigned long long)max_pages,
                         (unsigned long long)(config ? config->max_memory_bytes : 0));

    if (!rt_budget_take(budget, limits.min * RT_PAGE_SIZE))
        return base_fail(err, WEFT_ERR_LIMIT,
                         "a memory of %llu pages is over the memory budget (max_memory_bytes %llu, "
                         "%llu bytes in use)",
                         (unsigned long long)limits.min, (unsigned long long)budget->limit,
                         (unsigned long long)atomic_load(&budget->used));
    weft_memory *m = calloc(1, sizeof *m);
    if (!m) {
        rt_budget_give(budget, limits.min * RT_PAGE_SIZE);
        return base_fail(err, WEFT_ERR_NOMEM, "out of memory allocating a memory");
    }
    m->budget = budget;
    m->reserved = max_pages * RT_PAGE_SIZE + RT_GUARD_BYTES;
    m->max_pages = max_pages;
    m->limits = limits;
    if (pthread_mutex_init(&m->grow_lock, NULL) != 0) {
        free(m);
        rt_budget_give(budget, limits.min * RT_PAGE_SIZE);
        return base_fail(err, WEFT_ERR_NOMEM, "cannot create a memory's lock");
    }
    if (limits.shared && !(m->futex = rt_futex_new())) {
        pthread_mutex_destroy(&m->grow_lock);
        free(m);
        rt_budget_give(budget, limits.min * RT_PAGE_SIZE);
        return base_fail(err, WEFT_ERR_NOMEM, "out of memory making a memory's wait queues");
    }
    m->engine = engine;
    m->data = rt_reserve_pooled(engine, m->reserved, &m->pooled);
    if (!m->data) {
        int e = errno;
        unsigned long long r = (unsigned long long)m->reserved;
        pthread_mutex_destroy(&m->grow_lock);
        rt_futex_free(m->futex);
        free(m);
        rt_budget_give(budget, limits.min * RT_PAGE_SIZE);
        return base_fail(err, WEFT_ERR_NOMEM,
                         "cannot reserve %llu bytes of address space for a memory: %s",
                         r, strerror(e));
    }
    atomic_store_explicit(&m->size, limits.min * RT_PAGE_SIZE, memory_order_relaxed);
    *out = m;
    return WEFT_OK;
}

void rt_memory_destroy(weft_memory *m) {
    if (!m) return;
    if (m->data) {
        uint64_t used = atomic_load_explicit(&m->size, memory_order_relaxed);
        rt_release_pooled(m->engine, m->data, m->reserved, used, m->pooled);
        rt_budget_give(m->budget, used);
    }
    pthread_mutex_destroy(&m->grow_lock);
    rt_futex_free(m->futex);
    free(m);
}

weft_status rt_memory_create(weft_store *store, weft_limits limits,
                             weft_memory **out, weft_error *err) {
    weft_status st = rt_memory_alloc(store ? store->engine : NULL, store ? store->max_memory_bytes : 0,
                                     store ? store->budget : NULL, limits, out, err);
    if (st != WEFT_OK) return st;
    (*out)->store = store;
    if (!rt_store_add_memory(store, *out)) {
        rt_memory_destroy(*out);
        *out = NULL;
        return base_fail(err, WEFT_ERR_NOMEM, "out of memory registering a memory");
    }
    return WEFT_OK;
}

/* §4.4.7 memory.grow: fails (-1) when the new size would pass the maximum,
   or when the pages cannot be committed; the memory is then unchanged. */
int64_t rt_memory_grow(weft_memory *mem, uint64_t delta) {
    pthread_mutex_lock(&mem->grow_lock);
    uint64_t bytes = atomic_load_explicit(&mem->size, memory_order_relaxed);
    uint64_t old = bytes / RT_PAGE_SIZE;
    int64_t result = -1;
    /* Within the maximum and the memory budget (taken under grow_lock, so
       a failed grow changes neither). */
    if (delta <= mem->max_pages - old && rt_budget_take(mem->budget, delta * RT_PAGE_SIZE)) {
        /* The pages are mapped already (and zero until touched): growing
           is publishing the new size. */
        atomic_store_explicit(&mem->size, bytes + delta * RT_PAGE_SIZE, memory_order_release);
        result = (int64_t)old;
    }
    pthread_mutex_unlock(&mem->grow_lock);
    return result;
}

weft_limits rt_memory_current_limits(const weft_memory *m) {
    weft_limits l = m->limits;
    l.min = atomic_load_explicit(&((weft_memory *)m)->size, memory_order_acquire) / RT_PAGE_SIZE;
    return l;
}

/* ---- public API ---- */

weft_status weft_memory_new(weft_store *store, weft_limits limits,
                            weft_memory **out, weft_error *err) {
    if (out) *out = NULL;
    if (!store || !out) return base_fail(err, WEFT_ERR_MISUSE, "weft_memory_new: NULL argument");
    /* §3.2.4 memory types: min <= max <= 65536 pages; the threads proposal
       requires a maximum on shared memories. */
    if (limits.has_max && limits.min > limits.max)
        return base_fail(err, WEFT_ERR_MISUSE,
                         "size minimum must not be greater than maximum (%llu > %llu)",
                         (unsigned long long)limits.min, (unsigned long long)limits.max);
    /* memory64: a 64-bit memory's limits go up to 2^48 pages (weft then
       gives it at most its bound, see rt_memory_alloc). */
    uint64_t range = limits.is64 ? (uint64_t)1 << 48 : RT_MAX_PAGES;
    if (limits.min > range || (limits.has_max && limits.max > range))
        return base_fail(err, WEFT_ERR_MISUSE, "memory size must be at most %llu pages",
                         (unsigned long long)range);
    if (limits.shared && !limits.has_max)
        return base_fail(err, WEFT_ERR_MISUSE, "shared memory must have maximum");
    return rt_memory_create(store, limits, out, err);
}

uint8_t *weft_memory_data(weft_memory *mem) {
    return mem ? mem->data : NULL;
}

uint64_t weft_memory_size(const weft_memory *mem) {
    if (!mem) return 0;
    return atomic_load_explicit(&((weft_memory *)mem)->size, memory_order_acquire);
}

weft_status weft_memory_grow(weft_memory *mem, uint64_t delta_pages, uint64_t *old_pages) {
    if (!mem) return WEFT_ERR_MISUSE;
    int64_t old = rt_memory_grow(mem, delta_pages);
    if (old < 0) return WEFT_ERR_LIMIT;
    if (old_pages) *old_pages = (uint64_t)old;
    return WEFT_OK;
}

weft_limits weft_memory_limits(const weft_memory *mem) {
    if (!mem) return (weft_limits){0};
    return rt_memory_current_limits(mem);
}
