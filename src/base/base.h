/*
 * base.h — what every layer shares: errors, growable arrays, the byte reader
 * (LEB128, UTF-8), and small helpers. libc only.
 */
#ifndef WEFT_BASE_H
#define WEFT_BASE_H

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "weft.h"

#define BASE_INTERNAL __attribute__((visibility("hidden")))
#define BASE_UNUSED(x) ((void)(x))
#define BASE_LIKELY(x) __builtin_expect(!!(x), 1)
#define BASE_UNLIKELY(x) __builtin_expect(!!(x), 0)

/* The engine: configuration only, read-only after creation (so every thread
   may read it). Defaults are applied by weft_engine_new. */
struct rt_mem_pool;
struct weft_engine {
    weft_config config;
    /* Address-space reservations of freed memories, kept for reuse by the
       next memory of the same size (runtime/memory.c). May be NULL. */
    struct rt_mem_pool *mem_pool;
};

/* The WEFT_FEATURE_* bits this build implements (weft_features_supported). */
#define BASE_FEATURES_SUPPORTED                                                \
    (WEFT_FEATURE_THREADS | WEFT_FEATURE_SIMD | WEFT_FEATURE_EXTENDED_CONST |  \
     WEFT_FEATURE_RELAXED_SIMD | WEFT_FEATURE_MULTI_MEMORY | WEFT_FEATURE_MEMORY64 | \
     WEFT_FEATURE_EXCEPTIONS | WEFT_FEATURE_TAIL_CALL | WEFT_FEATURE_FUNCTION_REFERENCES)

/* Features the decoder and runtime take although function bodies cannot
   use them yet, so weft_features_supported() does not list them: none
   now (multi-memory and memory64 were, until bodies took them). */
#define BASE_FEATURES_PARTIAL 0u

/* Whether `feature` (one WEFT_FEATURE_* bit) is on for modules of engine
   `e`: implemented by this build (wholly, or partly as above) and not in
   its disabled_features. A NULL engine (unit tests decoding without one)
   has every implemented one. */
static inline bool base_feature_on(const weft_engine *e, uint32_t feature) {
    if (!((BASE_FEATURES_SUPPORTED | BASE_FEATURES_PARTIAL) & feature)) return false;
    return !(e && (e->config.disabled_features & feature));
}

/* Fills `err` (if non-NULL): status, printf-style message, no location.
   Returns `status` so callers can write `return base_fail(err, ...)`. */
weft_status base_fail(weft_error *err, weft_status status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Same, with a byte offset and function index (UINT32_MAX when unknown). */
weft_status base_fail_at(weft_error *err, weft_status status, uint32_t func_index,
                         uint32_t offset, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));
/* Resets `err` to "no error". */
void base_error_clear(weft_error *err);

/* Allocation: plain malloc family; callers check for NULL. calloc with an
   overflow check on n * size. */
void *base_calloc(size_t n, size_t size);
void *base_reallocarray(void *p, size_t n, size_t size);
char *base_strndup(const char *s, size_t n);

/* Growable array: `BASE_VEC(T) v = {0}; if (!BASE_VEC_PUSH(v, x)) oom;` */
#define BASE_VEC(T) struct { T *data; size_t len, cap; }
#define BASE_VEC_RESERVE(v, n) \
    base_vec_reserve((void **)&(v).data, &(v).cap, (v).len + (n), sizeof(*(v).data))
#define BASE_VEC_PUSH(v, x) \
    (BASE_VEC_RESERVE(v, 1) ? ((v).data[(v).len++] = (x), true) : false)
#define BASE_VEC_FREE(v) (free((v).data), (v).data = NULL, (v).len = (v).cap = 0)
bool base_vec_reserve(void **data, size_t *cap, size_t need, size_t elem);

/* One round of a spin-wait: tells the core a spinning thread waits, so it
   spends less power and yields its pipeline to a sibling thread. */
static inline void base_pause(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

/* ThreadSanitizer cannot see the loads of machine code (src/jit): a
   compiled call reads the callee from the module's code table with a
   plain load (an acquire on x86-64), so the release that published the
   callee must be paired by hand for TSan: BASE_TSAN_RELEASE where it is
   published, BASE_TSAN_ACQUIRE after machine code ran. No code
   otherwise. */
#if defined(__SANITIZE_THREAD__)
void __tsan_acquire(void *addr);
void __tsan_release(void *addr);
#define BASE_TSAN_ACQUIRE(p) __tsan_acquire((void *)(p))
#define BASE_TSAN_RELEASE(p) __tsan_release((void *)(p))
#else
#define BASE_TSAN_ACQUIRE(p) ((void)0)
#define BASE_TSAN_RELEASE(p) ((void)0)
#endif

/* CLOCK_MONOTONIC in nanoseconds. */
int64_t base_now_ns(void);
/* clock_gettime(clock) in nanoseconds, or -1 when the clock cannot be read. */
int64_t base_clock_ns(clockid_t clock);

/* The native (C) stack. weft's wasm calls never recurse in C, but a host
   function may call into wasm again (weft_func_call, wasm_func_call), and
   each such level costs a few KB of this thread's stack. So every entry
   into wasm (weft_exec_run of a started call) asks base_native_stack_low
   first and refuses the entry with the trap "call stack exhausted" when
   the frame asking is within BASE_NATIVE_STACK_RESERVE bytes of the end
   of the thread's stack: room for the trap to be reported and handed
   back, and for one more level of host code (docs/capi.md, "Native
   stack"). The bounds come from the thread itself (pthread_getattr_np,
   read on the thread's first entry and cached in a thread-local); a
   thread whose bounds cannot be read is not checked; a thread with less
   than twice the reserve left at its first entry keeps half of that.
   Sanitizer builds use several times the stack per frame, so they keep a
   larger reserve: CI's AddressSanitizer build compiles the interpreter at
   -O0 with the super-instructions, and there exec_run's frame alone is
   496 KiB (one level of re-entry past 160 KiB overflowed). */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define BASE_NATIVE_STACK_RESERVE (1024u * 1024u)
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define BASE_NATIVE_STACK_RESERVE (1024u * 1024u)
#endif
#endif
#ifndef BASE_NATIVE_STACK_RESERVE
#define BASE_NATIVE_STACK_RESERVE (48u * 1024u)
#endif
bool base_native_stack_low(void);

/* A field no other shares a cache line with, wherever the struct is
   (malloc aligns to 16 bytes, not to a line): a flag one thread spins on
   while others write beside it would have its line taken away at each of
   their writes. 64 bytes of padding before and after it. */
#define BASE_OWN_LINE(type, name) \
    char name##_pad_before_[64];   \
    type name;                     \
    char name##_pad_after_[64 - sizeof(type) % 64]

/* A lock that threads hand work over through (the scheduler's, a
   channel's): on contention it spins a moment in user space before it
   sleeps in the kernel (glibc's adaptive mutex), since the holder keeps it
   for a few hundred nanoseconds and a sleep and a wake-up cost tens of
   microseconds on a VM (issue 26: 6 futex calls per worker round trip). */
int base_mutex_init_handoff(pthread_mutex_t *m);

/* Spinning before a sleep pays only when the spinner has a core of its
   own: on a machine with more runnable threads than cores the OS counts a
   spinner as busy as a CPU-bound process, so it waits whole time slices
   (milliseconds) whenever it is preempted, and the work handed to it
   waits with it, while a thread that sleeps is woken with the credit of a
   sleeper and gets a core at once. A gate per spinning thread remembers
   whether it was preempted (an involuntary context switch since it last
   looked, at most once a millisecond, or a gap between two looks at the
   clock while spinning): then it does not spin for a while, 1 ms at first and doubling up to 100 ms
   while preemptions go on; a spin that sees none brings the pause back
   to 1 ms. On a quiet machine a stray preemption (a kernel thread, a
   timer) costs one short pause instead of 100 ms without spinning. A
   preemption counts only while other processes keep the machine busy
   (half a core or more over the last 50 ms, /proc/stat less this
   process's CPU time): one by a thread of this process is a hand-over
   within it (a host thread spawning workers, the runner it woke),
   and there the spin still pays (issue 23: a host thread spawning a
   worker every 9 µs beside two runners that slept each time spawned
   half as many a second). */
typedef struct base_spin_gate {
    int64_t off_until; /* no spinning before (base_now_ns) */
    int64_t off_ns;    /* the next pause (0: the shortest) */
    long nivcsw;       /* the thread's involuntary switches at the last look */
    int64_t looked_at; /* when that was (base_now_ns) */
} base_spin_gate;

/* Spins (base_pause) while done(arg) is false, for at most max_ns, unless
   the gate is closed; the calling thread must be the gate's. True when
   done(arg) became true. */
bool base_spin(base_spin_gate *g, int64_t max_ns, bool (*done)(void *), void *arg);

/* A cursor over bytes of a module. `base` is the start of the whole module so
   offsets in errors are module offsets. Reads never go past `end`; a failed
   read returns false and leaves the reason in `why` (a static string).
   `limit`, when set (past `end`: the module's end), is where a LEB128 that
   runs past `end` may still be looked at, only to name its own error: the
   reference decoder reads a function body's numbers on past the body's
   size, so a malformed number there is reported as such ("integer
   representation too long") before the size mismatch it also makes. */
typedef struct base_reader {
    const uint8_t *base;
    const uint8_t *p;
    const uint8_t *end;
    const char *why;
    const uint8_t *limit;
} base_reader;

static inline uint32_t base_reader_offset(const base_reader *r) {
    return (uint32_t)(r->p - r->base);
}
bool base_read_u8(base_reader *r, uint8_t *out);
bool base_read_bytes(base_reader *r, size_t n, const uint8_t **out);
/* Unsigned/signed LEB128 of at most `bits` bits (binary format §5.2.2):
   too long ("integer representation too long") or unused bits set
   ("integer too large") fail. */
bool base_read_uleb(base_reader *r, unsigned bits, uint64_t *out);
bool base_read_sleb(base_reader *r, unsigned bits, int64_t *out);
static inline bool base_read_u32(base_reader *r, uint32_t *out) {
    uint64_t v;
    if (!base_read_uleb(r, 32, &v)) return false;
    *out = (uint32_t)v;
    return true;
}
bool base_read_f32(base_reader *r, uint32_t *bits);
bool base_read_f64(base_reader *r, uint64_t *bits);

/* True when the n bytes at s are valid UTF-8 (no overlongs, no surrogates,
   nothing above U+10FFFF). */
bool base_utf8_valid(const uint8_t *s, size_t n);

/* A buffer for a module's bytes. One of BASE_BULK_MIN bytes or more is
   mapped on its own, in 2 MiB pages where the kernel gives them
   (madvise MADV_HUGEPAGE): copying a 30 MB binary into 4 KiB pages takes
   one page fault each, and on a VM a fault costs microseconds (base.c);
   a smaller one is malloc'd. base_bulk_free takes the size given to
   base_bulk_alloc, or 0 for a buffer from malloc. */
#define BASE_BULK_MIN ((size_t)4 << 20)
void *base_bulk_alloc(size_t size);
void base_bulk_free(void *p, size_t size);

/* Reads a whole file into a buffer of base_bulk_alloc's (*cap bytes, or
   0: malloc'd). */
weft_status base_read_file(const char *path, uint8_t **out, size_t *len, size_t *cap, weft_error *err);

#endif
