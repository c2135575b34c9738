/*
 * proc.c — arguments, environment, clocks, randomness and process exit.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>

#include "wasi.h"

/* Writes n strings as a pointer array at `ptrs` and NUL-terminated bytes
   at `buf` (args_get / environ_get). */
static wasi_errno wasi_put_strings(wasi_call *c, char **s, uint32_t n, size_t bytes,
                                   uint32_t ptrs, uint32_t buf) {
    uint8_t *pp = wasi_mem(c, ptrs, (uint64_t)n * 4);
    uint8_t *bp = wasi_mem(c, buf, bytes);
    if (!pp || !bp) return WASI_EFAULT;
    uint32_t off = 0;
    for (uint32_t i = 0; i < n; i++) {
        size_t len = strlen(s[i]) + 1;
        wasi_st32(pp + 4 * i, buf + off);
        memcpy(bp + off, s[i], len);
        off += (uint32_t)len;
    }
    return WASI_ESUCCESS;
}

static wasi_errno wasi_put_sizes(wasi_call *c, uint32_t n, size_t bytes,
                                 uint32_t count_ptr, uint32_t size_ptr) {
    if (bytes > UINT32_MAX) return WASI_EOVERFLOW;
    if (!wasi_mem(c, count_ptr, 4) || !wasi_mem(c, size_ptr, 4)) return WASI_EFAULT;
    wasi_put32(c, count_ptr, n);
    wasi_put32(c, size_ptr, (uint32_t)bytes);
    return WASI_ESUCCESS;
}

uint32_t wasi_args_get(wasi_call *c, const weft_val *a) {
    return wasi_put_strings(c, c->w->argv, c->w->argc, c->w->argv_bytes,
                            WASI_U32(a, 0), WASI_U32(a, 1));
}

uint32_t wasi_args_sizes_get(wasi_call *c, const weft_val *a) {
    return wasi_put_sizes(c, c->w->argc, c->w->argv_bytes, WASI_U32(a, 0), WASI_U32(a, 1));
}

uint32_t wasi_environ_get(wasi_call *c, const weft_val *a) {
    return wasi_put_strings(c, c->w->env, c->w->envc, c->w->env_bytes, WASI_U32(a, 0),
                            WASI_U32(a, 1));
}

uint32_t wasi_environ_sizes_get(wasi_call *c, const weft_val *a) {
    return wasi_put_sizes(c, c->w->envc, c->w->env_bytes, WASI_U32(a, 0), WASI_U32(a, 1));
}

int wasi_host_clock(uint32_t id) {
    switch (id) {
    case WASI_CLOCK_REALTIME: return CLOCK_REALTIME;
    case WASI_CLOCK_MONOTONIC: return CLOCK_MONOTONIC;
    case WASI_CLOCK_PROCESS_CPUTIME: return CLOCK_PROCESS_CPUTIME_ID;
    case WASI_CLOCK_THREAD_CPUTIME: return CLOCK_THREAD_CPUTIME_ID;
    default: return -1;
    }
}

uint32_t wasi_clock_res_get(wasi_call *c, const weft_val *a) {
    int clk = wasi_host_clock(WASI_U32(a, 0));
    if (clk < 0) return WASI_EINVAL;
    struct timespec ts;
    if (clock_getres(clk, &ts) != 0) return wasi_errno_from_host(errno);
    return wasi_put64(c, WASI_U32(a, 1),
                      (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec);
}

uint32_t wasi_clock_time_get(wasi_call *c, const weft_val *a) {
    /* The precision argument (a[1]) is a hint; the clock is used as is. */
    int64_t t = wasi_clock_now(c->w, WASI_U32(a, 0));
    if (t < 0) return wasi_errno_from_host((int)-t);
    return wasi_put64(c, WASI_U32(a, 2), (uint64_t)t);
}

uint32_t wasi_random_get(wasi_call *c, const weft_val *a) {
    uint32_t len = WASI_U32(a, 1);
    uint8_t *p = wasi_mem(c, WASI_U32(a, 0), len);
    if (!p) return WASI_EFAULT;
    if (c->w->random_hook && c->w->random_hook(c->w->block_env, p, len)) return WASI_ESUCCESS;
    size_t done = 0;
    while (done < len) {
        ssize_t n = getrandom(p + done, len - done, 0);
        if (n < 0) {
            if (errno == EINTR) continue;
            return wasi_errno_from_host(errno);
        }
        done += (size_t)n;
    }
    return WASI_ESUCCESS;
}

uint32_t wasi_proc_exit(wasi_call *c, const weft_val *a) {
    weft_caller_exit(c->caller, (int32_t)WASI_U32(a, 0));
    c->status = WEFT_ERR_EXIT;
    return 0;
}

/* proc_raise: there are no signal handlers in a WASI guest, so every valid
   signal takes its default action for a command, which weft reports as
   exiting with 128 + the WASI signal number (as a shell reports a process
   killed by that signal). Signal 0 ("none") and numbers past SYS (30) are
   EINVAL. */
uint32_t wasi_proc_raise(wasi_call *c, const weft_val *a) {
    uint32_t sig = WASI_U32(a, 0);
    if (sig == 0 || sig > 30) return WASI_EINVAL;
    weft_caller_exit(c->caller, (int32_t)(128 + sig));
    c->status = WEFT_ERR_EXIT;
    return 0;
}
