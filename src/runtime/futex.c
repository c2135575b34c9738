/*
 * futex.c — memory.atomic.wait32/wait64 and memory.atomic.notify (threads
 * proposal, "Wait and notify"), as real futexes.
 *
 * Layout. Each shared memory owns a table of RT_FUTEX_BUCKETS buckets; a
 * bucket is a mutex and a doubly linked FIFO list of waiters whose address
 * hashes to it. A waiter is a record on the waiting thread's C stack (or,
 * for an execution that parks on a scheduler, in the execution: see
 * rt_park_locked): the address, the waiting execution, and its state
 * (WAITING until a notify takes it off the list and marks it WOKEN).
 *
 * Guarantees.
 *  - The value check and the enqueue happen under the bucket lock, and a
 *    notify takes waiters off under the same lock, so a wait that saw the
 *    old value is always on the list before a notify that follows the store
 *    can look (no lost wake-up).
 *  - notify(addr, n) wakes the first n waiters on addr in the order they
 *    started to wait (FIFO), and returns exactly how many it took off. A
 *    waiter taken off returns 0 even if its timeout or an interrupt comes
 *    at the same moment, so a wake-up counted by notify is never lost
 *    (none is stolen by a timeout).
 *  - A waiter that times out or is interrupted removes itself under the
 *    bucket lock, so it can never be counted by a later notify.
 *  - Lifetimes: the notifier marks a waiter woken and signals it while
 *    holding that execution's park_lock (inside the bucket lock). A waiter
 *    that sees itself woken under park_lock returns at once: the notifier
 *    is done with its record and execution. A waiter that leaves for any
 *    other reason takes the bucket lock once more to settle, so no notifier
 *    can be touching it when it returns.
 *
 * Sleeping. The waiter sleeps on its execution's park_cond under park_lock
 * and re-checks, under park_lock, its state and the execution's attention
 * word before each sleep. A notify and weft_exec_request both take
 * park_lock to signal, so neither can slip between check and sleep. Lock
 * order: bucket lock, then park_lock; nothing takes them the other way.
 *
 * Deadlock accounting. An untimed wait tells the execution's group (a
 * process) when it is queued and when it leaves the queue; the notifier
 * reports the waiters it takes off, before dropping the bucket lock, so a
 * woken thread is counted as runnable from the instant it is chosen.
 */
#include <errno.h>
#include <time.h>

#include "../exec/exec.h"
#include "internal.h"

#define RT_FUTEX_BUCKETS 64u

enum { RT_WAITING = 0, RT_WOKEN = 1 };

typedef exec_waiter rt_waiter; /* exec.h: it may live in a parked execution */

typedef struct rt_bucket {
    pthread_mutex_t lock;
    rt_waiter *head, *tail;
    char pad[64 - (sizeof(pthread_mutex_t) + 2 * sizeof(void *)) % 64]; /* one per cache line */
} rt_bucket;

struct rt_futex {
    rt_bucket buckets[RT_FUTEX_BUCKETS];
};

rt_futex *rt_futex_new(void) {
    rt_futex *f = calloc(1, sizeof *f);
    if (!f) return NULL;
    for (uint32_t i = 0; i < RT_FUTEX_BUCKETS; i++) {
        if (pthread_mutex_init(&f->buckets[i].lock, NULL) != 0) {
            while (i--) pthread_mutex_destroy(&f->buckets[i].lock);
            free(f);
            return NULL;
        }
        f->buckets[i].head = f->buckets[i].tail = NULL;
    }
    return f;
}

void rt_futex_free(rt_futex *f) {
    if (!f) return;
    for (uint32_t i = 0; i < RT_FUTEX_BUCKETS; i++) pthread_mutex_destroy(&f->buckets[i].lock);
    free(f);
}

static rt_bucket *rt_bucket_of(rt_futex *f, uint64_t addr) {
    uint64_t h = (addr >> 2) * 0x9E3779B97F4A7C15ull;
    return &f->buckets[h >> 58]; /* top 6 bits: 64 buckets */
}

static void rt_unlink(rt_bucket *b, rt_waiter *w) {
    if (w->prev) w->prev->next = w->next;
    else b->head = w->next;
    if (w->next) w->next->prev = w->prev;
    else b->tail = w->prev;
    w->prev = w->next = NULL;
}

/* The deadline `ns` from now on CLOCK_MONOTONIC, saturating. */
static struct timespec rt_deadline(int64_t ns) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    int64_t sec = ns / 1000000000, nsec = now.tv_nsec + ns % 1000000000;
    if (nsec >= 1000000000) {
        nsec -= 1000000000;
        sec++;
    }
    struct timespec d;
    d.tv_sec = sec > (int64_t)(INT64_MAX / 2) - (int64_t)now.tv_sec ? (time_t)(INT64_MAX / 2)
                                                                   : now.tv_sec + (time_t)sec;
    d.tv_nsec = (long)nsec;
    return d;
}

static void rt_enqueue(rt_bucket *b, rt_waiter *w) {
    w->next = NULL;
    w->prev = b->tail;
    if (b->tail) b->tail->next = w;
    else b->head = w;
    b->tail = w;
}

/* Parking (an execution with a parker, src/sched): the waiter is the
   execution's own, queued like any other; the execution returns to its
   runner, and settles the wait when it runs again (rt_futex_settle). A
   notify takes it off the queue and tells the parker, under this bucket
   lock; a timeout or a request makes the scheduler run it again while it
   is still queued, and it leaves the queue itself. So only the waiting
   execution and notifiers ever touch the queue, and a wake-up counted by
   a notify is always the result (0) the execution sees. */
static int rt_park_locked(weft_exec *e, rt_bucket *b, uint64_t addr, int width, int64_t timeout_ns,
                          const struct timespec *deadline) {
    rt_waiter *w = &e->waiter;
    w->addr = addr;
    w->exec = e;
    w->bucket = b;
    w->gen++;
    w->untimed = timeout_ns < 0 && e->group;
    atomic_store_explicit(&w->state, RT_WAITING, memory_order_relaxed);
    rt_enqueue(b, w);
    if (w->untimed) e->group->blocked(e->group, e, addr, width);
    pthread_mutex_unlock(&b->lock);
    e->park_deadline = timeout_ns > 0 ? (int64_t)deadline->tv_sec * 1000000000 + deadline->tv_nsec : 0;
    e->park_timeout = timeout_ns > 0 ? timeout_ns : 0;
    return RT_WAIT_PARKED;
}

int rt_futex_settle(weft_exec *e) {
    rt_waiter *w = &e->waiter;
    rt_bucket *b = w->bucket;
    int result = 0;
    pthread_mutex_lock(&b->lock);
    if (atomic_load_explicit(&w->state, memory_order_relaxed) == RT_WAITING) {
        rt_unlink(b, w);
        if (w->untimed) e->group->unblocked(e->group, e);
        result = e->wake_reason == EXEC_WAKE_TIMEOUT ? 2 : RT_WAIT_INTERRUPTED;
    }
    pthread_mutex_unlock(&b->lock);
    return result;
}

int rt_atomic_wait(weft_exec *e, weft_memory *mem, uint64_t addr, uint64_t expected, int width,
                   int64_t timeout_ns) {
    if (!mem->limits.shared || !mem->futex) return RT_WAIT_UNSHARED;
    rt_bucket *b = rt_bucket_of(mem->futex, addr);
    struct timespec deadline = {0, 0};
    if (timeout_ns > 0) deadline = rt_deadline(timeout_ns);

    pthread_mutex_lock(&b->lock);
    uint64_t now = width == 4 ? __atomic_load_n((uint32_t *)(mem->data + addr), __ATOMIC_SEQ_CST)
                              : __atomic_load_n((uint64_t *)(mem->data + addr), __ATOMIC_SEQ_CST);
    if (now != expected) {
        pthread_mutex_unlock(&b->lock);
        return 1;
    }
    if (timeout_ns == 0) {
        pthread_mutex_unlock(&b->lock);
        return 2;
    }
    if (atomic_load_explicit(&e->attention, memory_order_acquire) & EXEC_ATTN_REQUESTS) {
        pthread_mutex_unlock(&b->lock);
        return RT_WAIT_INTERRUPTED;
    }
    if (e->parker) return rt_park_locked(e, b, addr, width, timeout_ns, &deadline);
    rt_waiter w;
    w.addr = addr;
    w.exec = e;
    w.untimed = timeout_ns < 0 && e->group;
    atomic_init(&w.state, RT_WAITING);
    rt_enqueue(b, &w);
    if (w.untimed) e->group->blocked(e->group, e, addr, width);
    pthread_mutex_unlock(&b->lock);

    bool timed_out = false, woken = false;
    pthread_mutex_lock(&e->park_lock);
    for (;;) {
        if (atomic_load_explicit(&w.state, memory_order_acquire) != RT_WAITING) {
            woken = true;
            break;
        }
        if (atomic_load_explicit(&e->attention, memory_order_acquire) & EXEC_ATTN_REQUESTS) break;
        if (timeout_ns < 0) {
            pthread_cond_wait(&e->park_cond, &e->park_lock);
        } else if (pthread_cond_timedwait(&e->park_cond, &e->park_lock, &deadline) == ETIMEDOUT) {
            timed_out = true;
            break;
        }
    }
    pthread_mutex_unlock(&e->park_lock);
    /* Woken, seen under park_lock: the notifier marked us and signalled
       while holding park_lock, and is done with us once it let go of it. */
    if (woken) return 0;

    /* Settle under the bucket lock: a notify may have taken us off the list
       after the loop above ended; if so, that wake-up is ours (0). */
    int result = 0;
    pthread_mutex_lock(&b->lock);
    if (atomic_load_explicit(&w.state, memory_order_relaxed) == RT_WAITING) {
        rt_unlink(b, &w);
        if (w.untimed) e->group->unblocked(e->group, e);
        /* A timeout wins over an interrupt that came with it: the program
           goes on (and honours the request at its next check) instead of
           waiting its whole timeout again after a resume. */
        result = timed_out ? 2 : RT_WAIT_INTERRUPTED;
    }
    pthread_mutex_unlock(&b->lock);
    return result;
}

uint32_t rt_atomic_notify(weft_memory *mem, uint64_t addr, uint32_t count) {
    if (!mem->limits.shared || !mem->futex || count == 0) return 0;
    rt_bucket *b = rt_bucket_of(mem->futex, addr);
    uint32_t woken = 0;
    pthread_mutex_lock(&b->lock);
    rt_waiter *w = b->head;
    while (w && woken < count) {
        rt_waiter *next = w->next;
        if (w->addr == addr) {
            rt_unlink(b, w);
            weft_exec *e = w->exec;
            if (w->untimed) e->group->unblocked(e->group, e);
            if (e->parker) {
                atomic_store_explicit(&w->state, RT_WOKEN, memory_order_relaxed);
                e->parker->wake(e->parker, e, w->gen);
            } else {
                pthread_mutex_lock(&e->park_lock);
                atomic_store_explicit(&w->state, RT_WOKEN, memory_order_release);
                pthread_cond_signal(&e->park_cond);
                pthread_mutex_unlock(&e->park_lock);
            }
            woken++;
        }
        w = next;
    }
    pthread_mutex_unlock(&b->lock);
    return woken;
}

uint32_t rt_futex_waiters(weft_memory *mem, uint64_t addr) {
    if (!mem || !mem->futex) return 0;
    rt_bucket *b = rt_bucket_of(mem->futex, addr);
    uint32_t n = 0;
    pthread_mutex_lock(&b->lock);
    for (rt_waiter *w = b->head; w; w = w->next)
        if (w->addr == addr) n++;
    pthread_mutex_unlock(&b->lock);
    return n;
}
