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

/* The engine's pool of reservations. Mapping and unmapping 4 GiB of
   address space (the page tables above all) is most of what an instance
   costs, so:
   - memories that may grow to the whole 32-bit range (no declared maximum,
     the common case) take a slot of a chunk of RT_CHUNK_SLOTS such
     reservations, mapped once and never unmapped before the engine goes;
   - other sizes keep up to RT_POOL_MAX freed reservations for reuse by the
     next memory of exactly that size.
   A returned reservation has its touched pages discarded (they read as
   zero again), so it is exactly like a fresh one. One lock guards it all;
   it is taken once per memory made or freed. */
#define RT_POOL_MAX 16
#define RT_CHUNK_SLOTS 16
#define RT_SLOT_BYTES ((uint64_t)RT_MAX_PAGES * RT_PAGE_SIZE + RT_GUARD_BYTES)
struct rt_mem_pool {
    pthread_mutex_t lock;
    BASE_VEC(uint8_t *) chunks;     /* each RT_CHUNK_SLOTS * RT_SLOT_BYTES */
    BASE_VEC(uint8_t *) free_slots; /* slots of the chunks not in use */
    uint32_t n;                     /* cached reservations of other sizes */
    struct { uint8_t *data; uint64_t reserved; } slots[RT_POOL_MAX];
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
    for (uint32_t i = 0; i < p->n; i++) rt_release(p->slots[i].data, p->slots[i].reserved);
    for (size_t i = 0; i < p->chunks.len; i++) rt_release(p->chunks.data[i], RT_CHUNK_SLOTS * RT_SLOT_BYTES);
    BASE_VEC_FREE(p->chunks);
    BASE_VEC_FREE(p->free_slots);
    pthread_mutex_destroy(&p->lock);
    free(p);
}

static bool rt_pool_in_chunk(const struct rt_mem_pool *p, const uint8_t *data) {
    for (size_t i = 0; i < p->chunks.len; i++)
        if (data >= p->chunks.data[i] && data < p->chunks.data[i] + RT_CHUNK_SLOTS * RT_SLOT_BYTES)
            return true;
    return false;
}

/* A reservation of `reserved` bytes from the pool, or NULL (then the
   caller maps its own). Called with the lock held. */
static uint8_t *rt_pool_take_locked(struct rt_mem_pool *p, uint64_t reserved) {
    if (reserved == RT_SLOT_BYTES) {
        if (p->free_slots.len == 0) {
            uint8_t *chunk = rt_reserve(RT_CHUNK_SLOTS * RT_SLOT_BYTES);
            if (!chunk) return NULL;
            if (!BASE_VEC_PUSH(p->chunks, chunk) || !BASE_VEC_RESERVE(p->free_slots, RT_CHUNK_SLOTS)) {
                if (p->chunks.len && p->chunks.data[p->chunks.len - 1] == chunk) p->chunks.len--;
                rt_release(chunk, RT_CHUNK_SLOTS * RT_SLOT_BYTES);
                return NULL;
            }
            for (uint32_t k = RT_CHUNK_SLOTS; k-- > 0;)
                p->free_slots.data[p->free_slots.len++] = chunk + k * RT_SLOT_BYTES;
        }
        return p->free_slots.data[--p->free_slots.len];
    }
    for (uint32_t i = 0; i < p->n; i++)
        if (p->slots[i].reserved == reserved) {
            uint8_t *data = p->slots[i].data;
            p->slots[i] = p->slots[--p->n];
            return data;
        }
    return NULL;
}

static uint8_t *rt_pool_take(struct rt_mem_pool *p, uint64_t reserved) {
    if (!p) return NULL;
    pthread_mutex_lock(&p->lock);
    uint8_t *data = rt_pool_take_locked(p, reserved);
    pthread_mutex_unlock(&p->lock);
    return data;
}

/* Gives `data` (with `used` bytes touched at most) back to the pool; false
   if the pool does not keep it (then the caller unmaps it). */
static bool rt_pool_give(struct rt_mem_pool *p, uint8_t *data, uint64_t reserved, uint64_t used) {
    if (!p) return false;
    if (used && madvise(data, (size_t)used, MADV_DONTNEED) != 0) return false;
    bool kept = false;
    pthread_mutex_lock(&p->lock);
    bool in_chunk = reserved == RT_SLOT_BYTES && rt_pool_in_chunk(p, data);
    if (in_chunk) {
        /* The vector has room: it held this slot before. */
        kept = BASE_VEC_PUSH(p->free_slots, data);
    } else if (p->n < RT_POOL_MAX) {
        p->slots[p->n].data = data;
        p->slots[p->n].reserved = reserved;
        p->n++;
        kept = true;
    }
    pthread_mutex_unlock(&p->lock);
    /* A chunk's slot must never be unmapped on its own. */
    return kept || in_chunk;
}

weft_status rt_memory_alloc(weft_engine *engine, uint64_t store_cap, weft_limits limits,
                            weft_memory **out, weft_error *err) {
    const weft_config *config = engine ? &engine->config : NULL;
    *out = NULL;
    if (limits.min > RT_MAX_PAGES || (limits.has_max && limits.max > RT_MAX_PAGES))
        return base_fail(err, WEFT_ERR_MISUSE,
                         "memory size must be at most %u pages (4 GiB)", RT_MAX_PAGES);
    if (limits.has_max && limits.min > limits.max)
        return base_fail(err, WEFT_ERR_MISUSE,
                         "memory minimum (%llu pages) is above its maximum (%llu pages)",
                         (unsigned long long)limits.min, (unsigned long long)limits.max);

    /* The effective maximum: the declared one (or the whole 32-bit range),
       clamped by the engine's max_memory_bytes. */
    uint64_t max_pages = limits.has_max ? limits.max : RT_MAX_PAGES;
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

    weft_memory *m = calloc(1, sizeof *m);
    if (!m) return base_fail(err, WEFT_ERR_NOMEM, "out of memory allocating a memory");
    m->reserved = max_pages * RT_PAGE_SIZE + RT_GUARD_BYTES;
    m->max_pages = max_pages;
    m->limits = limits;
    if (pthread_mutex_init(&m->grow_lock, NULL) != 0) {
        free(m);
        return base_fail(err, WEFT_ERR_NOMEM, "cannot create a memory's lock");
    }
    if (limits.shared && !(m->futex = rt_futex_new())) {
        pthread_mutex_destroy(&m->grow_lock);
        free(m);
        return base_fail(err, WEFT_ERR_NOMEM, "out of memory making a memory's wait queues");
    }
    m->engine = engine;
    m->data = rt_pool_take(engine ? engine->mem_pool : NULL, m->reserved);
    if (!m->data) m->data = rt_reserve(m->reserved);
    if (!m->data) {
        int e = errno;
        unsigned long long r = (unsigned long long)m->reserved;
        pthread_mutex_destroy(&m->grow_lock);
        rt_futex_free(m->futex);
        free(m);
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
        if (!rt_pool_give(m->engine ? m->engine->mem_pool : NULL, m->data, m->reserved, used))
            rt_release(m->data, m->reserved);
    }
    pthread_mutex_destroy(&m->grow_lock);
    rt_futex_free(m->futex);
    free(m);
}

weft_status rt_memory_create(weft_store *store, weft_limits limits,
                             weft_memory **out, weft_error *err) {
    weft_status st = rt_memory_alloc(store ? store->engine : NULL, store ? store->max_memory_bytes : 0,
                                     limits, out, err);
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
    if (delta <= mem->max_pages - old) {
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
    if (limits.min > RT_MAX_PAGES || (limits.has_max && limits.max > RT_MAX_PAGES))
        return base_fail(err, WEFT_ERR_MISUSE,
                         "memory size must be at most %u pages (4 GiB)", RT_MAX_PAGES);
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
