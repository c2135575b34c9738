/* base.c — errors, allocation, the byte reader. */
#include "base.h"

#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static void base_vfill(weft_error *err, weft_status status, uint32_t func_index,
                       uint32_t offset, const char *fmt, va_list ap) {
    if (!err) return;
    err->status = status;
    err->trap = WEFT_TRAP_NONE;
    err->exit_code = 0;
    err->func_index = func_index;
    err->offset = offset;
    err->frame_count = 0;
    err->frames_dropped = 0;
    err->exception = NULL;
    vsnprintf(err->message, sizeof err->message, fmt, ap);
}

weft_status base_fail(weft_error *err, weft_status status, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    base_vfill(err, status, UINT32_MAX, UINT32_MAX, fmt, ap);
    va_end(ap);
    return status;
}

weft_status base_fail_at(weft_error *err, weft_status status, uint32_t func_index,
                         uint32_t offset, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    base_vfill(err, status, func_index, offset, fmt, ap);
    va_end(ap);
    return status;
}

void base_error_clear(weft_error *err) {
    if (!err) return;
    err->status = WEFT_OK;
    err->trap = WEFT_TRAP_NONE;
    err->exit_code = 0;
    err->func_index = UINT32_MAX;
    err->offset = UINT32_MAX;
    err->frame_count = 0;
    err->frames_dropped = 0;
    err->message[0] = 0;
    err->exception = NULL;
}

void *base_calloc(size_t n, size_t size) {
    if (n == 0 || size == 0) return calloc(1, 1);
    return calloc(n, size);
}

void *base_reallocarray(void *p, size_t n, size_t size) {
    if (size && n > SIZE_MAX / size) return NULL;
    return realloc(p, (n && size) ? n * size : 1);
}

char *base_strndup(const char *s, size_t n) {
    char *d = malloc(n + 1);
    if (!d) return NULL;
    memcpy(d, s, n);
    d[n] = 0;
    return d;
}

bool base_vec_reserve(void **data, size_t *cap, size_t need, size_t elem) {
    if (need <= *cap) return true;
    size_t ncap = *cap ? *cap * 2 : 8;
    while (ncap < need) ncap *= 2;
    void *p = base_reallocarray(*data, ncap, elem);
    if (!p) return false;
    *data = p;
    *cap = ncap;
    return true;
}

bool base_read_u8(base_reader *r, uint8_t *out) {
    if (r->p >= r->end) {
        r->why = "unexpected end";
        return false;
    }
    *out = *r->p++;
    return true;
}

bool base_read_bytes(base_reader *r, size_t n, const uint8_t **out) {
    if ((size_t)(r->end - r->p) < n) {
        r->why = "unexpected end";
        return false;
    }
    *out = r->p;
    r->p += n;
    return true;
}

/* A failed LEB128 read: the reason, and the cursor where it stopped (at
   most `end`, where offsets in errors point). */
static bool leb_fail(base_reader *r, const uint8_t *p, const char *why) {
    r->why = why;
    r->p = p < r->end ? p : r->end;
    return false;
}

/* Both readers look at bytes up to `stop`, the reader's `limit` where it
   has one past `end` (base_reader), so that a number running past `end`
   is reported by its own error if it has one; a number that is well
   formed but ends past `end` is "unexpected end". */
bool base_read_uleb(base_reader *r, unsigned bits, uint64_t *out) {
    uint64_t result = 0;
    unsigned shift = 0;
    unsigned max_bytes = (bits + 6) / 7;
    const uint8_t *p = r->p, *stop = r->limit > r->end ? r->limit : r->end;
    for (unsigned i = 0;; i++) {
        if (p >= stop) return leb_fail(r, p, "unexpected end");
        uint8_t b = *p++;
        if (i == max_bytes - 1) {
            /* Last permitted byte: no continuation, and the bits beyond
               `bits` must be zero. */
            if (b & 0x80) return leb_fail(r, p, "integer representation too long");
            unsigned used = bits - shift; /* value bits this byte may carry */
            if (used < 7 && (b >> used) != 0) return leb_fail(r, p, "integer too large");
        }
        result |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
        if (!(b & 0x80)) break;
    }
    if (p > r->end) return leb_fail(r, p, "unexpected end");
    r->p = p;
    *out = result;
    return true;
}

bool base_read_sleb(base_reader *r, unsigned bits, int64_t *out) {
    uint64_t result = 0;
    unsigned shift = 0;
    unsigned max_bytes = (bits + 6) / 7;
    uint8_t b;
    const uint8_t *p = r->p, *stop = r->limit > r->end ? r->limit : r->end;
    for (unsigned i = 0;; i++) {
        if (p >= stop) return leb_fail(r, p, "unexpected end");
        b = *p++;
        if (i == max_bytes - 1) {
            if (b & 0x80) return leb_fail(r, p, "integer representation too long");
            /* The unused high bits of the last byte must all equal the sign
               bit of the value (bit `bits - 1`). */
            unsigned used = bits - shift;
            if (used < 7) {
                int8_t sb = (int8_t)(b << 1) >> 1; /* sign-extend 7 bits */
                int8_t top = (int8_t)(sb >> (used - 1));
                if (top != 0 && top != -1) return leb_fail(r, p, "integer too large");
            }
        }
        result |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
        if (!(b & 0x80)) break;
    }
    if (p > r->end) return leb_fail(r, p, "unexpected end");
    r->p = p;
    if (shift < 64 && (b & 0x40)) result |= ~(uint64_t)0 << shift;
    *out = (int64_t)result;
    return true;
}

bool base_read_f32(base_reader *r, uint32_t *bits) {
    const uint8_t *p;
    if (!base_read_bytes(r, 4, &p)) return false;
    *bits = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
    return true;
}

bool base_read_f64(base_reader *r, uint64_t *bits) {
    const uint8_t *p;
    if (!base_read_bytes(r, 8, &p)) return false;
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--) v = v << 8 | p[i];
    *bits = v;
    return true;
}

bool base_utf8_valid(const uint8_t *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        uint8_t c = s[i];
        if (c < 0x80) {
            i++;
            continue;
        }
        size_t len;
        uint32_t cp, min;
        if ((c & 0xE0) == 0xC0) { len = 2; cp = c & 0x1F; min = 0x80; }
        else if ((c & 0xF0) == 0xE0) { len = 3; cp = c & 0x0F; min = 0x800; }
        else if ((c & 0xF8) == 0xF0) { len = 4; cp = c & 0x07; min = 0x10000; }
        else return false;
        if (n - i < len) return false;
        for (size_t k = 1; k < len; k++) {
            if ((s[i + k] & 0xC0) != 0x80) return false;
            cp = cp << 6 | (s[i + k] & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        i += len;
    }
    return true;
}

/* Measured on the 2-core VM (2026-12-05, a 30 MB file already in the page
   cache): read into malloc'd memory 85 ms (7,600 page faults), into 2 MiB
   pages 4 to 40 ms (95 faults; the spread is the host's). */
#define BASE_HUGE ((size_t)2 << 20)
void *base_bulk_alloc(size_t size) {
    if (size < BASE_BULK_MIN) return malloc(size ? size : 1);
    size_t len = (size + BASE_HUGE - 1) & ~(BASE_HUGE - 1);
    uint8_t *p = mmap(NULL, len + BASE_HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return NULL;
    /* Aligned to 2 MiB (a huge page maps only an aligned one): the rest
       of the reservation goes back. */
    uint8_t *a = (uint8_t *)(((uintptr_t)p + BASE_HUGE - 1) & ~(uintptr_t)(BASE_HUGE - 1));
    if (a > p) munmap(p, (size_t)(a - p));
    if (a + len < p + len + BASE_HUGE) munmap(a + len, (size_t)(p + len + BASE_HUGE - (a + len)));
#ifdef MADV_HUGEPAGE
    madvise(a, len, MADV_HUGEPAGE); /* a hint: without it, 4 KiB pages */
#endif
    return a;
}

void base_bulk_free(void *p, size_t size) {
    if (!p) return;
    if (size < BASE_BULK_MIN) free(p);
    else munmap(p, (size + BASE_HUGE - 1) & ~(BASE_HUGE - 1));
}

weft_status base_read_file(const char *path, uint8_t **out, size_t *len, size_t *cap_out, weft_error *err) {
    FILE *f = fopen(path, "rb");
    if (!f) return base_fail(err, WEFT_ERR_IO, "cannot open %s: %s", path, strerror(errno));
    uint8_t *buf = NULL;
    size_t n = 0, cap = 0, bulk = 0;
    /* A regular file: one buffer of its size plus one byte to see the
       end. Anything else, or a file that grew while read: doublings of a
       malloc'd buffer from what was read so far. */
    struct stat sb;
    if (fstat(fileno(f), &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0) {
        bulk = (size_t)sb.st_size + 1;
        buf = base_bulk_alloc(bulk);
        if (!buf) {
            fclose(f);
            return base_fail(err, WEFT_ERR_NOMEM, "out of memory reading %s", path);
        }
        cap = bulk;
    }
    for (;;) {
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 65536;
            uint8_t *nb = bulk ? malloc(ncap) : realloc(buf, ncap);
            if (!nb) {
                base_bulk_free(buf, bulk);
                fclose(f);
                return base_fail(err, WEFT_ERR_NOMEM, "out of memory reading %s", path);
            }
            if (bulk) { /* the file grew: on in malloc'd memory */
                memcpy(nb, buf, n);
                base_bulk_free(buf, bulk);
                bulk = 0;
            }
            buf = nb;
            cap = ncap;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0) break;
    }
    if (ferror(f)) {
        base_bulk_free(buf, bulk);
        fclose(f);
        return base_fail(err, WEFT_ERR_IO, "cannot read %s", path);
    }
    fclose(f);
    *out = buf;
    *len = n;
    *cap_out = bulk;
    return WEFT_OK;
}

int64_t base_clock_ns(clockid_t clock) {
    struct timespec t;
    if (clock_gettime(clock, &t) != 0) return -1;
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

int64_t base_now_ns(void) { return base_clock_ns(CLOCK_MONOTONIC); }

/* This thread's stack floor: the lowest address a frame may be at before
   base_native_stack_low says so (its stack's low end plus the reserve);
   0 before the thread's first question, 1 when the bounds cannot be read
   (nothing is refused then). Per thread, as the stack is: not state of
   any runtime object. */
static _Thread_local uintptr_t base_stack_floor;

static uintptr_t base_stack_floor_read(void) {
    uintptr_t floor = 1;
    pthread_attr_t a;
    if (pthread_getattr_np(pthread_self(), &a) != 0) return base_stack_floor = floor;
    void *lo = NULL;
    size_t size = 0;
    /* The reserve, or half of what is left below this first frame when
       that is less than twice the reserve: a small stack, or one whose
       top holds much else (glibc puts a thread's static TLS there, which
       ThreadSanitizer's runtime makes large: at the reserve's 160 KiB a
       256 KiB thread under it refused its first call). */
    uintptr_t here = (uintptr_t)__builtin_frame_address(0);
    if (pthread_attr_getstack(&a, &lo, &size) == 0 && lo && size && here > (uintptr_t)lo &&
        here <= (uintptr_t)lo + size) {
        uintptr_t left = here - (uintptr_t)lo;
        floor = (uintptr_t)lo + (left / 2 < BASE_NATIVE_STACK_RESERVE ? left / 2 : BASE_NATIVE_STACK_RESERVE);
    }
    pthread_attr_destroy(&a);
    return base_stack_floor = floor;
}

bool base_native_stack_low(void) {
    uintptr_t floor = base_stack_floor;
    if (BASE_UNLIKELY(floor == 0)) floor = base_stack_floor_read();
    /* The frame's own address (a local's would be on ASan's fake stack). */
    return (uintptr_t)__builtin_frame_address(0) < floor;
}

int base_mutex_init_handoff(pthread_mutex_t *m) {
#ifdef PTHREAD_ADAPTIVE_MUTEX_INITIALIZER_NP
    pthread_mutexattr_t a;
    if (pthread_mutexattr_init(&a) != 0) return -1;
    int r = pthread_mutexattr_settype(&a, PTHREAD_MUTEX_ADAPTIVE_NP);
    if (r == 0) r = pthread_mutex_init(m, &a);
    pthread_mutexattr_destroy(&a);
    return r;
#else
    return pthread_mutex_init(m, NULL);
#endif
}

#define BASE_SPIN_GAP_NS 20000           /* a gap this long while spinning: preempted */
#define BASE_SPIN_OFF_MIN_NS 1000000     /* the first pause after a preemption */
/* How often a gate asks the kernel for its thread's involuntary switches:
   getrusage is a system call (about 1 µs on the 2-core VM, 2026-12-05)
   and was asked at every spin, twice in each worker round trip; a
   preemption costs milliseconds, so a look once in this long sees it in
   time. */
#define BASE_SPIN_LOOK_NS 1000000
#define BASE_SPIN_OFF_MAX_NS 100000000   /* the longest */

#define BASE_OTHERS_WINDOW_NS 50000000   /* how often base_others_busy looks again */

/* Whether other processes (or the hypervisor, as steal time) used half a
   core or more over the last window: the machine's busy time
   (/proc/stat's first line: user, nice, system, irq, softirq, steal; in
   clock ticks, so a 50 ms window reads within about 20 ms) less this
   process's own CPU time. One judgement per process, renewed by the
   first thread that asks once it is a window old (a trylock: the others
   take the last one); busy until the first window ends, and whenever
   /proc/stat cannot be read. */
static pthread_mutex_t base_others_lock = PTHREAD_MUTEX_INITIALIZER;
static _Atomic int64_t base_others_at;  /* when judged (base_now_ns; 0: never) */
static _Atomic bool base_others_flag = true;
static int64_t base_others_sys, base_others_own; /* under the lock: the window's start */

static int64_t base_machine_busy_ns(void) {
    int fd = open("/proc/stat", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    char buf[512];
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    if (n <= 0) return -1;
    buf[n] = 0;
    unsigned long long v[8];
    if (sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4],
               &v[5], &v[6], &v[7]) != 8)
        return -1;
    long hz = sysconf(_SC_CLK_TCK);
    if (hz <= 0) return -1;
    return (int64_t)(v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) * (1000000000 / hz);
}

static bool base_others_busy(int64_t now) {
    if (now - atomic_load_explicit(&base_others_at, memory_order_relaxed) < BASE_OTHERS_WINDOW_NS ||
        pthread_mutex_trylock(&base_others_lock) != 0)
        return atomic_load_explicit(&base_others_flag, memory_order_relaxed);
    int64_t at = atomic_load_explicit(&base_others_at, memory_order_relaxed);
    if (now - at >= BASE_OTHERS_WINDOW_NS) {
        int64_t sys = base_machine_busy_ns(), own = base_clock_ns(CLOCK_PROCESS_CPUTIME_ID);
        bool busy = true;
        if (at && sys >= 0 && own >= 0 && base_others_sys >= 0)
            busy = (sys - base_others_sys) - (own - base_others_own) >= (now - at) / 2;
        base_others_sys = sys;
        base_others_own = own;
        atomic_store_explicit(&base_others_flag, busy, memory_order_relaxed);
        atomic_store_explicit(&base_others_at, now, memory_order_relaxed);
    }
    pthread_mutex_unlock(&base_others_lock);
    return atomic_load_explicit(&base_others_flag, memory_order_relaxed);
}

/* A preemption seen: closes the gate, unless only this process's own
   threads compete (then false). */
static bool base_spin_preempted(base_spin_gate *g, int64_t now) {
    if (!base_others_busy(now)) return false;
    g->off_ns = g->off_ns ? g->off_ns * 2 : BASE_SPIN_OFF_MIN_NS;
    if (g->off_ns > BASE_SPIN_OFF_MAX_NS) g->off_ns = BASE_SPIN_OFF_MAX_NS;
    g->off_until = now + g->off_ns;
    return true;
}

bool base_spin(base_spin_gate *g, int64_t max_ns, bool (*done)(void *), void *arg) {
    int64_t now = base_now_ns();
    struct rusage ru;
    if (now - g->looked_at >= BASE_SPIN_LOOK_NS && getrusage(RUSAGE_THREAD, &ru) == 0) {
        if (ru.ru_nivcsw != g->nivcsw && g->nivcsw) base_spin_preempted(g, now);
        g->nivcsw = ru.ru_nivcsw;
        g->looked_at = now;
    }
    if (!atomic_load_explicit(&base_others_at, memory_order_relaxed)) base_others_busy(now); /* the first window starts */
    if (now < g->off_until) return done(arg);
    int64_t until = now + max_ns, last = now;
    for (uint32_t i = 1; !done(arg); i++) {
        base_pause();
        if (i % 32 != 0) continue;
        int64_t t = base_now_ns();
        if (t - last > BASE_SPIN_GAP_NS && base_spin_preempted(g, t)) return done(arg);
        last = t;
        if (t >= until) break;
    }
    g->off_ns = 0; /* a whole spin without a preemption */
    return done(arg);
}
