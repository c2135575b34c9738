/* futex_test — the wait queues of src/runtime/futex.c driven directly from C
   threads: results 0/1/2, unshared memory, FIFO wake order, exact wake
   counts, addresses that do not wake each other, interrupts through the
   attention word, timeouts, the group (deadlock) accounting, and a
   ping-pong that would hang on a single lost wake-up. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "exec/exec.h"

#include "check.h"

static weft_store *store;
static weft_memory *mem;

static uint32_t *word(uint64_t addr) { return (uint32_t *)(weft_memory_data(mem) + addr); }

/* Waits until `n` executions wait on addr (or fails after 5 s). */
static void await_waiters(uint64_t addr, uint32_t n) {
    int64_t end = now_ns() + 5000000000;
    while (rt_futex_waiters(mem, addr) != n) {
        CHECK(now_ns() < end, "expected %u waiters on %llu, have %u", n, (unsigned long long)addr,
              rt_futex_waiters(mem, addr));
        sleep_ms(1);
    }
}

typedef struct waiter {
    pthread_t thread;
    weft_exec *exec;
    uint64_t addr;
    int64_t timeout;
    int id;
    int result;
    _Atomic int done;
    _Atomic int *order; /* where to append id when woken */
    _Atomic int *norder;
} waiter;

static void *wait_thread(void *p) {
    waiter *w = p;
    w->result = rt_atomic_wait(w->exec, mem, w->addr, 0, 4, w->timeout);
    if (w->order) w->order[atomic_fetch_add(w->norder, 1)] = w->id;
    atomic_store(&w->done, 1);
    return NULL;
}

static void start_waiter(waiter *w, uint64_t addr, int64_t timeout, int id) {
    w->exec = weft_exec_new(store);
    CHECK(w->exec, "weft_exec_new");
    w->addr = addr;
    w->timeout = timeout;
    w->id = id;
    w->result = -100;
    atomic_store(&w->done, 0);
    CHECK(pthread_create(&w->thread, NULL, wait_thread, w) == 0, "pthread_create");
}

static void join_waiter(waiter *w) {
    pthread_join(w->thread, NULL);
    weft_exec_free(w->exec);
    w->exec = NULL;
}

/* ---- group accounting ---- */
typedef struct test_group {
    exec_group g;
    _Atomic int blocked, unblocked;
    _Atomic uint64_t last_addr;
} test_group;

static void tg_blocked(exec_group *g, weft_exec *e, uint64_t addr, int width) {
    (void)e;
    (void)width;
    test_group *t = (test_group *)g;
    atomic_fetch_add(&t->blocked, 1);
    atomic_store(&t->last_addr, addr);
}

static void tg_unblocked(exec_group *g, weft_exec *e) {
    (void)e;
    atomic_fetch_add(&((test_group *)g)->unblocked, 1);
}

/* ---- ping-pong: two threads hand a token back and forth N times ---- */
typedef struct pp_arg {
    weft_exec *exec;
    uint32_t me;  /* 0 or 1: whose turn the word says */
    uint32_t rounds;
} pp_arg;

static void *pp_thread(void *p) {
    pp_arg *a = p;
    uint32_t *turn = word(256);
    for (uint32_t i = 0; i < a->rounds; i++) {
        while (__atomic_load_n(turn, __ATOMIC_SEQ_CST) != a->me)
            rt_atomic_wait(a->exec, mem, 256, 1 - a->me, 4, -1);
        __atomic_store_n(turn, 1 - a->me, __ATOMIC_SEQ_CST);
        rt_atomic_notify(mem, 256, 1);
    }
    return NULL;
}

int main(void) {
    weft_engine *engine = weft_engine_new(NULL);
    store = weft_store_new(engine);
    weft_error err;
    weft_limits shared = {.min = 1, .max = 1, .has_max = true, .shared = true};
    CHECK(weft_memory_new(store, shared, &mem, &err) == WEFT_OK, "memory: %s", err.message);
    weft_limits plain = {.min = 1, .max = 1, .has_max = true, .shared = false};
    weft_memory *unshared;
    CHECK(weft_memory_new(store, plain, &unshared, &err) == WEFT_OK, "memory: %s", err.message);
    weft_exec *self = weft_exec_new(store);

    /* Immediate answers. */
    *word(0) = 5;
    CHECK(rt_atomic_wait(self, mem, 0, 4, 4, -1) == 1, "not-equal must return 1");
    CHECK(rt_atomic_wait(self, mem, 0, 5, 4, 0) == 2, "timeout 0 must return 2");
    CHECK(rt_atomic_wait(self, unshared, 0, 0, 4, -1) == RT_WAIT_UNSHARED, "unshared must trap");
    CHECK(rt_atomic_notify(unshared, 0, 1) == 0, "notify on unshared returns 0");
    CHECK(rt_atomic_notify(mem, 0, 5) == 0, "notify with no waiters returns 0");
    *(uint64_t *)(weft_memory_data(mem) + 8) = 0x100000000ull;
    CHECK(rt_atomic_wait(self, mem, 8, 0, 8, -1) == 1, "wait64 compares all 64 bits");

    /* A timed wait expires, not early. */
    int64_t t0 = now_ns();
    *word(16) = 0;
    CHECK(rt_atomic_wait(self, mem, 16, 0, 4, 30000000) == 2, "timed wait must return 2");
    CHECK(now_ns() - t0 >= 30000000, "timed wait ended early");
    CHECK(rt_futex_waiters(mem, 16) == 0, "a timed-out waiter left a record");

    /* FIFO: waiters queued one after the other wake in that order. */
    enum { NW = 6 };
    waiter ws[NW];
    _Atomic int order[NW];
    _Atomic int norder = 0;
    *word(32) = 0;
    for (int i = 0; i < NW; i++) {
        ws[i].order = order;
        ws[i].norder = &norder;
        start_waiter(&ws[i], 32, -1, i);
        await_waiters(32, (uint32_t)i + 1);
    }
    for (int i = 0; i < NW; i++) {
        CHECK(rt_atomic_notify(mem, 32, 1) == 1, "notify 1 must wake exactly 1");
        int64_t end = now_ns() + 5000000000;
        while (atomic_load(&norder) != i + 1) CHECK(now_ns() < end, "woken waiter did not return");
    }
    for (int i = 0; i < NW; i++) {
        join_waiter(&ws[i]);
        CHECK(ws[i].result == 0, "woken waiter must return 0, got %d", ws[i].result);
        CHECK(order[i] == i, "FIFO order broken: position %d woke waiter %d", i, (int)order[i]);
    }

    /* Exact counts, and other addresses (sharing buckets or not) untouched. */
    for (int i = 0; i < NW; i++) {
        ws[i].order = NULL;
        start_waiter(&ws[i], i < 5 ? 64 : 68, -1, i);
    }
    await_waiters(64, 5);
    await_waiters(68, 1);
    CHECK(rt_atomic_notify(mem, 64, 2) == 2, "notify 2 of 5 must return 2");
    /* The two woken return whenever the OS runs them (seconds under a
       sanitizer on a loaded machine); then no third may follow. */
    int returned = 0;
    for (int64_t end = now_ns() + 5000000000; returned < 2 && now_ns() < end; sleep_ms(1)) {
        returned = 0;
        for (int i = 0; i < NW; i++) returned += atomic_load(&ws[i].done);
    }
    sleep_ms(20);
    returned = 0;
    for (int i = 0; i < NW; i++) returned += atomic_load(&ws[i].done);
    CHECK(returned == 2, "notify 2 let %d waiters go", returned);
    CHECK(rt_futex_waiters(mem, 64) == 3 && rt_futex_waiters(mem, 68) == 1, "queues wrong");
    CHECK(rt_atomic_notify(mem, 64, 100) == 3, "notify 100 must return the 3 left");
    CHECK(rt_atomic_notify(mem, 68, 1) == 1, "the waiter on 68 must still be there");
    for (int i = 0; i < NW; i++) {
        join_waiter(&ws[i]);
        CHECK(ws[i].result == 0, "result %d", ws[i].result);
    }

    /* Interrupt: weft_exec_request ends an untimed wait promptly, and a
       timed one before its timeout; the group sees block and unblock. */
    test_group tg = {.g = {tg_blocked, tg_unblocked}};
    waiter iw;
    iw.order = NULL;
    start_waiter(&iw, 96, -1, 0);
    await_waiters(96, 1);
    t0 = now_ns();
    weft_exec_request(iw.exec, WEFT_ATTN_STOP);
    pthread_join(iw.thread, NULL);
    CHECK(iw.result == RT_WAIT_INTERRUPTED, "interrupted wait returned %d", iw.result);
    CHECK(now_ns() - t0 < 100000000, "interrupt took %lld ns", (long long)(now_ns() - t0));
    weft_exec_free(iw.exec);
    iw.exec = weft_exec_new(store);
    iw.exec->group = &tg.g;
    iw.addr = 100;
    iw.timeout = -1;
    CHECK(pthread_create(&iw.thread, NULL, wait_thread, &iw) == 0, "pthread_create");
    await_waiters(100, 1);
    CHECK(atomic_load(&tg.blocked) == 1 && atomic_load(&tg.last_addr) == 100, "group not told");
    CHECK(rt_atomic_notify(mem, 100, 1) == 1, "notify grouped waiter");
    pthread_join(iw.thread, NULL);
    CHECK(iw.result == 0 && atomic_load(&tg.unblocked) == 1, "group not told of the wake-up");
    /* A timed wait is not reported (it can end by itself). */
    atomic_store(&iw.exec->attention, 0);
    CHECK(rt_atomic_wait(iw.exec, mem, 100, 0, 4, 1000000) == 2, "timed");
    CHECK(atomic_load(&tg.blocked) == 1, "a timed wait was reported as blocked");
    weft_exec_free(iw.exec);

    /* Ping-pong: 200000 hand-overs; one lost wake-up hangs it. */
    pp_arg a = {weft_exec_new(store), 0, 100000}, b = {weft_exec_new(store), 1, 100000};
    *word(256) = 0;
    pthread_t ta, tb;
    t0 = now_ns();
    pthread_create(&ta, NULL, pp_thread, &a);
    pthread_create(&tb, NULL, pp_thread, &b);
    pthread_join(ta, NULL);
    pthread_join(tb, NULL);
    CHECK(*word(256) == 0, "ping-pong ended on the wrong turn");
    weft_exec_free(a.exec);
    weft_exec_free(b.exec);

    weft_exec_free(self);
    weft_store_free(store);
    weft_engine_free(engine);
    printf("futex_test: ok (ping-pong 100000 round trips in %.0f ms)\n",
           (double)(now_ns() - t0) / 1e6);
    return 0;
}
