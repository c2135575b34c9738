/*
 * rt.h — a tiny freestanding runtime for the thread test guests (Debian's
 * wasi-libc has no thread support): WASI imports, output, a futex mutex,
 * a condition variable, a barrier, and threads over wasi.thread-spawn with
 * join. Built with clang --target=wasm32 -matomics -mbulk-memory
 * -nostdlib; start.s provides wasi_thread_start.
 *
 * Every shared word is touched with atomics or under the mutex, so the
 * guests are free of data races (the ThreadSanitizer build checks the
 * engine with them).
 */
#ifndef RT_H
#define RT_H

typedef unsigned int u32;
typedef int i32;
typedef unsigned long long u64;
typedef long long i64;
typedef unsigned long size_t;

#define WASI(name) __attribute__((import_module("wasi_snapshot_preview1"), import_name(#name)))

typedef struct rt_iovec {
    const void *buf;
    size_t len;
} rt_iovec;

WASI(fd_write) i32 rt_fd_write(i32 fd, const rt_iovec *iov, i32 n, size_t *written);
WASI(fd_read) i32 rt_fd_read(i32 fd, const rt_iovec *iov, i32 n, size_t *got);
WASI(proc_exit) _Noreturn void rt_proc_exit(i32 code);
WASI(clock_time_get) i32 rt_clock_time_get(i32 id, u64 precision, u64 *out);
WASI(poll_oneoff) i32 rt_poll_oneoff(const void *in, void *out, i32 n, size_t *nevents);
WASI(sched_yield) i32 rt_sched_yield(void);
WASI(args_sizes_get) i32 rt_args_sizes_get(size_t *argc, size_t *bytes);
WASI(args_get) i32 rt_args_get(char **argv, char *buf);
__attribute__((import_module("wasi"), import_name("thread-spawn"))) i32 rt_thread_spawn(void *arg);

/* ---- atomics ---- */
#define rt_load(p) __atomic_load_n((p), __ATOMIC_SEQ_CST)
#define rt_store(p, v) __atomic_store_n((p), (v), __ATOMIC_SEQ_CST)
#define rt_xchg(p, v) __atomic_exchange_n((p), (v), __ATOMIC_SEQ_CST)
#define rt_add(p, v) __atomic_fetch_add((p), (v), __ATOMIC_SEQ_CST)
#define rt_sub(p, v) __atomic_fetch_sub((p), (v), __ATOMIC_SEQ_CST)
static inline i32 rt_cas(i32 *p, i32 expected, i32 desired) {
    __atomic_compare_exchange_n(p, &expected, desired, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    return expected;
}
/* memory.atomic.wait32: 0 woken, 1 not equal, 2 timed out. */
static inline i32 rt_wait(i32 *p, i32 expected, i64 timeout_ns) {
    return __builtin_wasm_memory_atomic_wait32(p, expected, timeout_ns);
}
static inline i32 rt_wait64(i64 *p, i64 expected, i64 timeout_ns) {
    return __builtin_wasm_memory_atomic_wait64(p, expected, timeout_ns);
}
static inline u32 rt_notify(i32 *p, u32 count) {
    return __builtin_wasm_memory_atomic_notify(p, count);
}

/* ---- output ---- */
static inline size_t rt_strlen(const char *s) {
    size_t n = 0;
    while (s[n]) n++;
    return n;
}
static inline void rt_write(i32 fd, const char *s, size_t n) {
    rt_iovec v = {s, n};
    size_t w;
    rt_fd_write(fd, &v, 1, &w);
}
static inline void rt_puts(const char *s) { rt_write(1, s, rt_strlen(s)); }
static inline void rt_eputs(const char *s) { rt_write(2, s, rt_strlen(s)); }
static inline char *rt_fmt_i64(char *end, i64 v) {
    u64 u = v < 0 ? (u64)0 - (u64)v : (u64)v;
    *--end = 0;
    do *--end = (char)('0' + u % 10);
    while (u /= 10);
    if (v < 0) *--end = '-';
    return end;
}
/* Prints "label value\n" on stdout. */
static inline void rt_say(const char *label, i64 v) {
    char buf[32];
    rt_puts(label);
    rt_puts(" ");
    rt_puts(rt_fmt_i64(buf + sizeof buf, v));
    rt_puts("\n");
}
static inline void rt_fail(const char *why) {
    rt_eputs("FAIL: ");
    rt_eputs(why);
    rt_eputs("\n");
    rt_proc_exit(99);
}
#define RT_CHECK(c, why) do { if (!(c)) rt_fail(why); } while (0)

/* ---- arguments ---- */
/* The integer value of argument i (argv[0] is the program), or `dflt`. */
static inline i64 rt_arg_int(u32 i, i64 dflt) {
    static char buf[1024];
    static char *argv[32];
    size_t argc, bytes;
    if (rt_args_sizes_get(&argc, &bytes) || argc > 32 || bytes > sizeof buf || i >= argc)
        return dflt;
    rt_args_get(argv, buf);
    i64 v = 0;
    for (const char *p = argv[i]; *p >= '0' && *p <= '9'; p++) v = v * 10 + (*p - '0');
    return v;
}

/* ---- time ---- */
static inline i64 rt_now(i32 clock) {
    u64 t = 0;
    rt_clock_time_get(clock, 1, &t);
    return (i64)t;
}
#define RT_MONOTONIC 1
#define RT_REALTIME 0
/* Sleeps `ns` through poll_oneoff with one relative clock subscription. */
static inline void rt_sleep(i64 ns) {
    struct {
        u64 userdata;
        unsigned char tag, pad[7];
        u32 clock_id, pad2;
        u64 timeout, precision;
        unsigned short flags, pad3[3];
    } sub = {0};
    sub.tag = 0;
    sub.clock_id = RT_MONOTONIC;
    sub.timeout = (u64)ns;
    unsigned char ev[32];
    size_t n;
    rt_poll_oneoff(&sub, ev, 1, &n);
}

/* ---- mutex (three states: 0 free, 1 locked, 2 locked with waiters) ---- */
typedef struct rt_mutex {
    i32 state;
} rt_mutex;
static inline void rt_lock(rt_mutex *m) {
    i32 c = rt_cas(&m->state, 0, 1);
    if (c == 0) return;
    if (c != 2) c = rt_xchg(&m->state, 2);
    while (c != 0) {
        rt_wait(&m->state, 2, -1);
        c = rt_xchg(&m->state, 2);
    }
}
static inline void rt_unlock(rt_mutex *m) {
    if (rt_sub(&m->state, 1) != 1) {
        rt_store(&m->state, 0);
        rt_notify(&m->state, 1);
    }
}

/* ---- condition variable (a sequence word) ---- */
typedef struct rt_cond {
    i32 seq;
} rt_cond;
static inline void rt_cond_wait(rt_cond *c, rt_mutex *m) {
    i32 seq = rt_load(&c->seq);
    rt_unlock(m);
    rt_wait(&c->seq, seq, -1);
    /* Relock as "contended": another waiter may be queued on the mutex. */
    while (rt_xchg(&m->state, 2) != 0) rt_wait(&m->state, 2, -1);
}
static inline void rt_cond_signal(rt_cond *c) {
    rt_add(&c->seq, 1);
    rt_notify(&c->seq, 1);
}
static inline void rt_cond_broadcast(rt_cond *c) {
    rt_add(&c->seq, 1);
    rt_notify(&c->seq, 0x7fffffff);
}

/* ---- barrier ---- */
typedef struct rt_barrier {
    i32 count, gen, n;
} rt_barrier;
static inline void rt_barrier_wait(rt_barrier *b) {
    i32 gen = rt_load(&b->gen);
    if (rt_add(&b->count, 1) + 1 == b->n) {
        rt_store(&b->count, 0);
        rt_add(&b->gen, 1);
        rt_notify(&b->gen, 0x7fffffff);
    } else {
        while (rt_load(&b->gen) == gen) rt_wait(&b->gen, gen, -1);
    }
}

/* ---- threads ---- */
#ifndef RT_STACK
#define RT_STACK 8192  /* shadow stack of each thread */
#endif
#ifndef RT_SLOTS
#define RT_SLOTS 160   /* threads alive at once */
#endif
typedef struct rt_thread {
    i32 stack_top;            /* read by start.s: must stay first */
    void (*fn)(void *);
    void *arg;
    i32 tid;
    i32 done;                 /* 1 when fn returned; futex word for join */
    i32 slot;
} rt_thread;

static rt_thread rt_threads[RT_SLOTS];
static char rt_stacks[RT_SLOTS][RT_STACK] __attribute__((aligned(16)));
static i32 rt_slot_used[RT_SLOTS];

/* Called by start.s on the new thread. */
__attribute__((used)) void rt_thread_entry(i32 tid, rt_thread *t);
__attribute__((used)) void rt_thread_entry(i32 tid, rt_thread *t) {
    (void)tid;
    t->fn(t->arg);
    rt_store(&t->done, 1);
    rt_notify(&t->done, 0x7fffffff);
}

/* Starts fn(arg) on a new thread. Returns the thread, or 0 with *err set to
   thread-spawn's negative result. */
static inline rt_thread *rt_spawn(void (*fn)(void *), void *arg, i32 *err) {
    i32 s = -1;
    for (i32 i = 0; i < RT_SLOTS && s < 0; i++)
        if (rt_cas(&rt_slot_used[i], 0, 1) == 0) s = i;
    RT_CHECK(s >= 0, "out of thread slots");
    rt_thread *t = &rt_threads[s];
    t->stack_top = (i32)(size_t)(rt_stacks[s] + RT_STACK);
    t->fn = fn;
    t->arg = arg;
    t->slot = s;
    rt_store(&t->done, 0);
    i32 tid = rt_thread_spawn(t);
    if (tid < 0) {
        rt_store(&rt_slot_used[s], 0);
        if (err) *err = tid;
        return 0;
    }
    t->tid = tid;
    return t;
}

/* Waits for t to finish and frees its slot. Its stack may be reused once
   `done` is set: the entry touches no stack memory after that store. */
static inline void rt_join(rt_thread *t) {
    while (rt_load(&t->done) == 0) rt_wait(&t->done, 0, -1);
    rt_store(&rt_slot_used[t->slot], 0);
}

#endif
