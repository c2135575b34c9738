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

/* Reservations of freed memories, reused by the next memory of the same
   reserved size: mapping and unmapping 4 GiB of address space (the page
   tables above all) is most of what an instance costs. A pooled
   reservation has its touched pages discarded (they read as zero again),
   exactly like a fresh one. */
#define RT_POOL_MAX 16
struct rt_mem_pool {
    pthread_mutex_t lock;
    uint32_t n;
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
    pthread_mutex_destroy(&p->lock);
    free(p);
}

static uint8_t *rt_pool_take(struct rt_mem_pool *p, uint64_t reserved) {
    uint8_t *data = NULL;
    if (!p) return NULL;
    pthread_mutex_lock(&p->lock);
    for (uint32_t i = 0; i < p->n; i++)
        if (p->slots[i].reserved == reserved) {
            data = p->slots[i].data;
            p->slots[i] = p->slots[--p->n];
            break;
        }
    pthread_mutex_unlock(&p->lock);
    return data;
}

/* Gives `data` (with `used` bytes accessible) to the pool; false if the
   pool is full or the pages could not be reset (then the caller unmaps). */
static bool rt_pool_give(struct rt_mem_pool *p, uint8_t *data, uint64_t reserved, uint64_t used) {
    if (!p) return false;
    if (used && madvise(data, (size_t)used, MADV_DONTNEED) != 0) return false;
    bool kept = false;
    pthread_mutex_lock(&p->lock);
    if (p->n < RT_POOL_MAX) {
        p->slots[p->n].data = data;
        p->slots[p->n].reserved = reserved;
        p->n++;
        kept = true;
    }
    pthread_mutex_unlock(&p->lock);
    return kept;
}

weft_status rt_memory_alloc(weft_engine *engine, weft_limits limits,
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
    weft_status st = rt_memory_alloc(store ? store->engine : NULL, limits, out, err);
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
