/*
 * io.c — wasi:io@0.2.12: error, poll (pollable, poll) and streams
 * (input-stream, output-stream) (../shared/spec/wasi-wit/v0.2.12/
 * proposals/io).
 *
 * A stream holds a counted preview1 fd reference (wasi_ref): stdio, a
 * pipe or socket, or a regular file read or written at its own position
 * (read-via-stream, write-via-stream, append-via-stream). Non-blocking
 * calls look with poll(2) at timeout 0; blocking ones wait through
 * wasi_wait_ready / wasi_block_on, the preview1 layer's one place of
 * waiting, so that on a scheduler they park the agent (WEFT_SUSPENDED,
 * the call made again on resume) before anything is read or written.
 * Writes to a pipe or terminal then complete on the calling thread, as
 * preview1's fd_write does. Nothing is buffered: flush has nothing to do.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wasip2.h"

/* Bytes one read, skip or splice moves at most, and what check-write
   permits: each byte of a list<u8> is a cm_val (ctype.h), so a call's
   result stays within a few MiB. Guests loop (wasi-libc, the preview1
   adapter, Rust's std all do). */
#define WP2_CHUNK 65536u
/* blocking-write-and-flush and blocking-write-zeroes-and-flush take at
   most 4096 bytes (streams.wit; more traps). */
#define WP2_BLOCKING_MAX 4096u

/* Not an errno: the stream reached its end or its peer closed it. */
#define WP2_CLOSED ((wasi_errno)0xfffe)

/* ---- error ---- */

uint32_t wp2_error_new(wp2_ctx *x, wasi_errno code, const char *what) {
    wp2_error *e = malloc(sizeof *e);
    if (!e) return 0;
    e->code = code;
    snprintf(e->what, sizeof e->what, "%s", what);
    return wp2_add(x, WP2_RES_IO_ERROR, e);
}

/* to-debug-string: "OPERATION failed: error-code LABEL (preview1 errno N)". */
weft_status wp2_io_error_to_debug_string(cm_host_call *call, const cm_val *args, cm_val *result,
                                         weft_error *err) {
    wp2_error *e = wp2_get(wp2_of(call), WP2_RES_IO_ERROR, args[0].v.rep);
    if (!e) return wp2_bad_rep(err, "error", args[0].v.rep);
    char buf[192];
    int n = snprintf(buf, sizeof buf, "%s failed: %s (preview1 errno %u)", e->what,
                     wp2_error_code_name(wp2_error_code(e->code)), (unsigned)e->code);
    if (!wp2_set_str(call, result, buf, (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1))
        return wp2_nomem(err, "to-debug-string");
    return WEFT_OK;
}

weft_status wp2_io_error_drop(const cm_resource *rt, uint32_t rep, void *env, weft_error *err) {
    wp2_error *e = wp2_remove(env, WP2_RES_IO_ERROR, rep);
    if (!e) return wp2_bad_rep(err, rt->name, rep);
    free(e);
    return WEFT_OK;
}

/* ---- pollable ---- */

uint32_t wp2_pollable_new(wp2_ctx *x, const wp2_pollable *p) {
    wp2_pollable *o = malloc(sizeof *o);
    if (!o) return 0;
    *o = *p;
    uint32_t rep = wp2_add(x, WP2_RES_IO_POLLABLE, o);
    if (rep && p->parent_res >= 0) {
        uint32_t *n = wp2_children(x, p->parent_res, p->parent_rep);
        if (n) (*n)++;
    }
    return rep;
}

uint32_t *wp2_children(wp2_ctx *x, int res, uint32_t rep) {
    void *o = wp2_get(x, res, rep);
    if (!o) return NULL;
    switch (res) {
    case WP2_RES_IO_INPUT_STREAM:
    case WP2_RES_IO_OUTPUT_STREAM: return &((wp2_stream *)o)->children;
    case WP2_RES_SOCKETS_TCP_SOCKET: return &((wp2_tcp *)o)->children;
    case WP2_RES_SOCKETS_UDP_SOCKET: return &((wp2_udp *)o)->children;
    case WP2_RES_SOCKETS_INCOMING_DATAGRAM_STREAM:
    case WP2_RES_SOCKETS_OUTGOING_DATAGRAM_STREAM: return &((wp2_dgram *)o)->children;
    case WP2_RES_SOCKETS_RESOLVE_ADDRESS_STREAM: return &((wp2_resolve *)o)->children;
    default: return NULL;
    }
}

/* Whether `p` is ready now; `revents` is what a wait reported for its
   fd (-1: look). */
static bool wp2_ready_now(wp2_ctx *x, const wp2_pollable *p, int revents) {
    switch (p->kind) {
    case WP2_POLL_CLOCK:
        return wasi_clock_now(x->w, WASI_CLOCK_MONOTONIC) >= p->deadline;
    case WP2_POLL_FD:
        if (revents < 0) {
            struct pollfd pf = {.fd = p->host, .events = p->events};
            revents = poll(&pf, 1, 0) > 0 ? pf.revents : 0;
        }
        return revents != 0; /* readable, writable, hung up or failed: the next call says */
    default:
        return true;
    }
}

weft_status wp2_io_pollable_ready(cm_host_call *call, const cm_val *args, cm_val *result,
                                  weft_error *err) {
    wp2_pollable *p = wp2_get(wp2_of(call), WP2_RES_IO_POLLABLE, args[0].v.rep);
    if (!p) return wp2_bad_rep(err, "pollable", args[0].v.rep);
    result->kind = CM_BOOL;
    result->v.b = wp2_ready_now(wp2_of(call), p, -1);
    return WEFT_OK;
}

/* Waits until at least one of `ps` is ready; ready[i] says which. Parks
   through the blocker (WASI_EPARKED) when the wait would block. */
static wasi_errno wp2_wait(cm_host_call *call, wp2_pollable *const *ps, uint32_t n, bool *ready,
                           uint32_t *nready) {
    wp2_ctx *x = wp2_of(call);
    struct pollfd *pfds = calloc(n, sizeof *pfds);
    int *slot = calloc(n, sizeof *slot);
    wasi_errno r = WASI_ESUCCESS;
    if (!pfds || !slot) {
        r = WASI_ENOMEM;
        goto done;
    }
    size_t nfds = 0;
    int64_t earliest = -1;
    for (uint32_t i = 0; i < n; i++) {
        slot[i] = -1;
        if (ps[i]->kind == WP2_POLL_FD) {
            slot[i] = (int)nfds;
            pfds[nfds].fd = ps[i]->host;
            pfds[nfds].events = ps[i]->events;
            nfds++;
        } else if (ps[i]->kind == WP2_POLL_CLOCK && (earliest < 0 || ps[i]->deadline < earliest)) {
            earliest = ps[i]->deadline;
        }
    }
    bool first = true;
    for (;;) {
        *nready = 0;
        for (uint32_t i = 0; i < n; i++) {
            int rev = slot[i] >= 0 && !first ? pfds[slot[i]].revents : -1;
            ready[i] = wp2_ready_now(x, ps[i], rev);
            *nready += ready[i];
        }
        if (*nready) break;
        /* Nothing ready: wait on the fds until the earliest clock, as
           poll_oneoff does; restartable, since nothing has happened. */
        for (size_t k = 0; k < nfds; k++) pfds[k].revents = 0;
        wasi_wait wt = {nfds ? pfds : NULL, nfds, earliest, call->caller, true};
        int got = wasi_block_on(x->w, &wt);
        if (got == WASI_BLOCK_PARKED) {
            r = WASI_EPARKED;
            break;
        }
        if (got == -EINTR) {
            /* The process is ending (src/threads/block.c): answer at once,
               every pollable ready (poll.wit: a source that fails is
               ready), and the guest stops at its next safe point, as
               after poll_oneoff's EINTR. */
            for (uint32_t i = 0; i < n; i++) ready[i] = true;
            *nready = n;
            break;
        }
        if (got < 0) {
            r = wasi_errno_from_host(-got);
            break;
        }
        first = false;
    }
done:
    free(pfds);
    free(slot);
    return r;
}

static weft_status wp2_wait_status(wasi_errno r, weft_error *err, const char *what) {
    if (r == WASI_EPARKED) return WEFT_SUSPENDED;
    if (r == WASI_ENOMEM) return wp2_trap(err, "%s: out of memory", what);
    return wp2_trap(err, "%s: the wait failed (preview1 errno %u)", what, (unsigned)r);
}

/* block: func(): poll on this one. */
weft_status wp2_io_pollable_block(cm_host_call *call, const cm_val *args, cm_val *result,
                                  weft_error *err) {
    (void)result;
    wp2_pollable *p = wp2_get(wp2_of(call), WP2_RES_IO_POLLABLE, args[0].v.rep);
    if (!p) return wp2_bad_rep(err, "pollable", args[0].v.rep);
    bool ready;
    uint32_t nready;
    wasi_errno r = wp2_wait(call, &p, 1, &ready, &nready);
    return r ? wp2_wait_status(r, err, "pollable.block") : WEFT_OK;
}

/* poll: func(in: list<borrow<pollable>>) -> list<u32>: the indices of
   the ready ones, in order, at least one. Traps on an empty list
   (poll.wit). */
weft_status wp2_io_poll_poll(cm_host_call *call, const cm_val *args, cm_val *result,
                             weft_error *err) {
    uint32_t n = args[0].n;
    if (n == 0) return wp2_trap(err, "poll: the list of pollables is empty");
    wp2_pollable **ps = malloc((size_t)n * sizeof *ps);
    bool *ready = malloc(n);
    weft_status st = WEFT_OK;
    if (!ps || !ready) {
        st = wp2_trap(err, "poll: out of memory");
        goto done;
    }
    for (uint32_t i = 0; i < n; i++) {
        ps[i] = wp2_get(wp2_of(call), WP2_RES_IO_POLLABLE, args[0].v.items[i].v.rep);
        if (!ps[i]) {
            st = wp2_bad_rep(err, "pollable", args[0].v.items[i].v.rep);
            goto done;
        }
    }
    uint32_t nready;
    wasi_errno r = wp2_wait(call, ps, n, ready, &nready);
    if (r) {
        st = wp2_wait_status(r, err, "poll");
        goto done;
    }
    cm_val *items = wp2_vals(call, nready);
    if (!items) {
        st = wp2_nomem(err, "poll");
        goto done;
    }
    uint32_t k = 0;
    for (uint32_t i = 0; i < n; i++) {
        if (!ready[i]) continue;
        items[k].kind = CM_U32;
        items[k].v.u = i;
        k++;
    }
    result->kind = CM_LIST;
    result->n = nready;
    result->v.items = items;
done:
    free(ps);
    free(ready);
    return st;
}

weft_status wp2_io_pollable_drop(const cm_resource *rt, uint32_t rep, void *env, weft_error *err) {
    wp2_ctx *x = env;
    wp2_pollable *p = wp2_remove(x, WP2_RES_IO_POLLABLE, rep);
    if (!p) return wp2_bad_rep(err, rt->name, rep);
    if (p->parent_res >= 0) {
        uint32_t *n = wp2_children(x, p->parent_res, p->parent_rep);
        if (n && *n) (*n)--;
    }
    free(p);
    return WEFT_OK;
}

/* ---- streams ---- */

uint32_t wp2_stream_new(wp2_ctx *x, int res, uint32_t fd, bool file, bool append, uint64_t pos,
                        wasi_errno *e) {
    wp2_stream *s = calloc(1, sizeof *s);
    if (!s) {
        *e = WASI_ENOMEM;
        return 0;
    }
    s->ref.host = -1;
    if (fd == WP2_NO_FD) {
        s->closed = true;
    } else if ((*e = wasi_fd_acquire(x->w, fd, 0, &s->ref))) {
        free(s);
        return 0;
    }
    s->file = file;
    s->append = append;
    s->pos = pos;
    uint32_t rep = wp2_add(x, res, s);
    if (!rep) {
        wasi_fd_release(x->w, &s->ref);
        *e = WASI_ENOMEM;
    }
    return rep;
}

static wp2_stream *wp2_stream_of(cm_host_call *call, int res, const cm_val *arg) {
    return wp2_get(wp2_of(call), res, arg->v.rep);
}

/* Sets *result to err(stream-error) for `e`: closed, or
   last-operation-failed with a new error resource. */
static weft_status wp2_stream_fail(cm_host_call *call, cm_val *result, wasi_errno e,
                                   const char *what, weft_error *err) {
    cm_val *se = wp2_vals(call, 2);
    if (!se) return wp2_nomem(err, what);
    if (e == WP2_CLOSED || e == WASI_EPIPE) {
        wp2_set_case(&se[0], CM_VARIANT, WP2_IO_STREAM_ERROR_CLOSED, NULL);
    } else {
        uint32_t rep = wp2_error_new(wp2_of(call), e, what);
        if (!rep) return wp2_nomem(err, what);
        wp2_set_handle(&se[1], CM_OWN, rep);
        wp2_set_case(&se[0], CM_VARIANT, WP2_IO_STREAM_ERROR_LAST_OPERATION_FAILED, &se[1]);
    }
    wp2_set_case(result, CM_RESULT, 1, &se[0]);
    return WEFT_OK;
}

/* Reads at most len bytes into buf. *got 0 with success: nothing to read
   now (non-blocking only). WP2_CLOSED at the end; WASI_EPARKED when a
   blocking read parked before reading. */
static wasi_errno wp2_read_some(cm_host_call *call, wp2_stream *s, uint8_t *buf, size_t len,
                                bool block, size_t *got) {
    *got = 0;
    if (s->closed) return WP2_CLOSED;
    if (len == 0) return WASI_ESUCCESS;
    ssize_t n;
    if (s->file) {
        n = pread(s->ref.host, buf, len, (off_t)s->pos);
    } else {
        if (block) {
            wasi_call c = wp2_wcall(call);
            wasi_errno r = wasi_wait_ready(&c, s->ref.host, POLLIN, false, true);
            if (r == WASI_EPARKED) return r;
            if (r && r != WASI_EAGAIN) return r;
        } else {
            struct pollfd pf = {.fd = s->ref.host, .events = POLLIN};
            if (poll(&pf, 1, 0) <= 0) return WASI_ESUCCESS;
        }
        n = read(s->ref.host, buf, len);
    }
    if (n < 0) {
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return WASI_ESUCCESS;
        return wasi_errno_from_host(errno);
    }
    if (n == 0) {
        s->closed = true;
        return WP2_CLOSED;
    }
    if (s->file) s->pos += (uint64_t)n;
    *got = (size_t)n;
    return WASI_ESUCCESS;
}

/* read / blocking-read: func(len: u64) -> result<list<u8>, stream-error>. */
static weft_status wp2_read(cm_host_call *call, const cm_val *args, cm_val *result,
                            weft_error *err, bool block, bool skip) {
    const char *what = skip ? (block ? "blocking-skip" : "skip") : (block ? "blocking-read" : "read");
    wp2_stream *s = wp2_stream_of(call, WP2_RES_IO_INPUT_STREAM, &args[0]);
    if (!s) return wp2_bad_rep(err, "input-stream", args[0].v.rep);
    size_t len = args[1].v.u < WP2_CHUNK ? (size_t)args[1].v.u : WP2_CHUNK;
    uint8_t *buf = cm_arena_alloc(call->arena, len ? len : 1, 1);
    if (!buf) return wp2_nomem(err, what);
    size_t got;
    wasi_errno e = wp2_read_some(call, s, buf, len, block, &got);
    if (e == WASI_EPARKED) return WEFT_SUSPENDED;
    if (e) return wp2_stream_fail(call, result, e, what, err);
    cm_val *ok = wp2_vals(call, 1);
    if (!ok) return wp2_nomem(err, what);
    if (skip) wp2_set_u64(ok, got);
    else if (!wp2_set_bytes(call, ok, buf, got)) return wp2_nomem(err, what);
    wp2_set_ok(result, ok);
    return WEFT_OK;
}

weft_status wp2_io_input_stream_read(cm_host_call *call, const cm_val *args, cm_val *result,
                                     weft_error *err) {
    return wp2_read(call, args, result, err, false, false);
}

weft_status wp2_io_input_stream_blocking_read(cm_host_call *call, const cm_val *args,
                                              cm_val *result, weft_error *err) {
    return wp2_read(call, args, result, err, true, false);
}

weft_status wp2_io_input_stream_skip(cm_host_call *call, const cm_val *args, cm_val *result,
                                     weft_error *err) {
    return wp2_read(call, args, result, err, false, true);
}

weft_status wp2_io_input_stream_blocking_skip(cm_host_call *call, const cm_val *args,
                                              cm_val *result, weft_error *err) {
    return wp2_read(call, args, result, err, true, true);
}

/* subscribe: a pollable, child of the stream: ready when a read would
   not block (a regular file, a closed stream: at once). */
static weft_status wp2_subscribe(cm_host_call *call, int res, const cm_val *args, cm_val *result,
                                 weft_error *err, short events) {
    wp2_stream *s = wp2_stream_of(call, res, &args[0]);
    if (!s) return wp2_bad_rep(err, "stream", args[0].v.rep);
    wp2_pollable p = {.kind = s->file || s->closed ? WP2_POLL_READY : WP2_POLL_FD,
                      .host = s->ref.host, .events = events, .parent_res = res,
                      .parent_rep = args[0].v.rep};
    uint32_t rep = wp2_pollable_new(wp2_of(call), &p);
    if (!rep) return wp2_nomem(err, "subscribe");
    wp2_set_handle(result, CM_OWN, rep);
    return WEFT_OK;
}

weft_status wp2_io_input_stream_subscribe(cm_host_call *call, const cm_val *args, cm_val *result,
                                          weft_error *err) {
    return wp2_subscribe(call, WP2_RES_IO_INPUT_STREAM, args, result, err, POLLIN);
}

weft_status wp2_io_output_stream_subscribe(cm_host_call *call, const cm_val *args, cm_val *result,
                                           weft_error *err) {
    return wp2_subscribe(call, WP2_RES_IO_OUTPUT_STREAM, args, result, err, POLLOUT);
}

static weft_status wp2_stream_drop(const cm_resource *rt, uint32_t rep, void *env, int res,
                                   weft_error *err) {
    wp2_ctx *x = env;
    wp2_stream *s = wp2_get(x, res, rep);
    if (!s) return wp2_bad_rep(err, rt->name, rep);
    /* streams.wit: "Implementations may trap if the stream is dropped
       before all derived pollables created with this function are
       dropped" — weft does, as wasmtime: the pollable holds its fd. */
    if (s->children)
        return wp2_trap(err, "%s dropped while %u pollable%s made by its subscribe %s live",
                        rt->name, s->children, s->children == 1 ? "" : "s",
                        s->children == 1 ? "is" : "are");
    wp2_remove(x, res, rep);
    wasi_fd_release(x->w, &s->ref);
    free(s);
    return WEFT_OK;
}

weft_status wp2_io_input_stream_drop(const cm_resource *rt, uint32_t rep, void *env,
                                     weft_error *err) {
    return wp2_stream_drop(rt, rep, env, WP2_RES_IO_INPUT_STREAM, err);
}

weft_status wp2_io_output_stream_drop(const cm_resource *rt, uint32_t rep, void *env,
                                      weft_error *err) {
    return wp2_stream_drop(rt, rep, env, WP2_RES_IO_OUTPUT_STREAM, err);
}

/* Writes all of buf (NULL: zeroes). A pipe or terminal that is full is
   waited for on this thread (not restartable: bytes may have gone). */
static wasi_errno wp2_write_all(cm_host_call *call, wp2_stream *s, const uint8_t *buf, size_t len) {
    static const uint8_t zeroes[4096];
    if (s->closed) return WP2_CLOSED;
    size_t done = 0;
    if (s->file && s->append) {
        struct stat st;
        if (fstat(s->ref.host, &st) != 0) return wasi_errno_from_host(errno);
        s->pos = (uint64_t)st.st_size;
    }
    while (done < len) {
        const uint8_t *p = buf ? buf + done : zeroes;
        size_t n = len - done;
        if (!buf && n > sizeof zeroes) n = sizeof zeroes;
        /* a socket never raises SIGPIPE (a closed peer is EPIPE: closed), as
           preview1's sock_send */
        ssize_t w = s->file ? pwrite(s->ref.host, p, n, (off_t)s->pos)
                    : s->ref.filetype == WASI_FILETYPE_SOCKET_STREAM
                        ? send(s->ref.host, p, n, MSG_NOSIGNAL)
                        : write(s->ref.host, p, n);
        if (w < 0) {
            if (errno == EINTR) continue;
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                wasi_call c = wp2_wcall(call);
                wasi_errno r = wasi_wait_ready(&c, s->ref.host, POLLOUT, false, false);
                if (r && r != WASI_EAGAIN) return r;
                continue;
            }
            if (errno == EPIPE) s->closed = true;
            return wasi_errno_from_host(errno);
        }
        done += (size_t)w;
        if (s->file) s->pos += (uint64_t)w;
    }
    return WASI_ESUCCESS;
}

/* check-write: func() -> result<u64, stream-error>: WP2_CHUNK for a file;
   for a pipe, terminal or socket that poll(2) says is writable, PIPE_BUF
   (4096 on Linux: what such a write takes whole, mostly at once); 0 when
   it is not. */
weft_status wp2_io_output_stream_check_write(cm_host_call *call, const cm_val *args, cm_val *result,
                                             weft_error *err) {
    wp2_stream *s = wp2_stream_of(call, WP2_RES_IO_OUTPUT_STREAM, &args[0]);
    if (!s) return wp2_bad_rep(err, "output-stream", args[0].v.rep);
    if (s->closed) return wp2_stream_fail(call, result, WP2_CLOSED, "check-write", err);
    uint64_t permit = WP2_CHUNK;
    if (!s->file) {
        struct pollfd pf = {.fd = s->ref.host, .events = POLLOUT};
        int n = poll(&pf, 1, 0);
        if (n > 0 && (pf.revents & (POLLERR | POLLHUP)) && !(pf.revents & POLLOUT)) {
            s->closed = true;
            return wp2_stream_fail(call, result, WP2_CLOSED, "check-write", err);
        }
        permit = n > 0 ? WP2_BLOCKING_MAX : 0;
    }
    s->permit = permit;
    cm_val *ok = wp2_vals(call, 1);
    if (!ok) return wp2_nomem(err, "check-write");
    wp2_set_u64(ok, permit);
    wp2_set_ok(result, ok);
    return WEFT_OK;
}

/* write / write-zeroes: within the permit of the last check-write, or
   trap (streams.wit). */
static weft_status wp2_write(cm_host_call *call, const cm_val *args, cm_val *result,
                             weft_error *err, bool zeroes) {
    const char *what = zeroes ? "write-zeroes" : "write";
    wp2_stream *s = wp2_stream_of(call, WP2_RES_IO_OUTPUT_STREAM, &args[0]);
    if (!s) return wp2_bad_rep(err, "output-stream", args[0].v.rep);
    uint64_t len = zeroes ? args[1].v.u : args[1].n;
    if (len > s->permit)
        return wp2_trap(err, "output-stream.%s of %llu bytes past the %llu check-write permitted",
                        what, (unsigned long long)len, (unsigned long long)s->permit);
    s->permit -= len;
    uint8_t *buf = NULL;
    if (!zeroes) {
        buf = cm_arena_alloc(call->arena, len ? len : 1, 1);
        if (!buf) return wp2_nomem(err, what);
        wp2_get_bytes(&args[1], buf);
    }
    wasi_errno e = wp2_write_all(call, s, buf, (size_t)len);
    if (e) return wp2_stream_fail(call, result, e, what, err);
    wp2_set_ok(result, NULL);
    return WEFT_OK;
}

weft_status wp2_io_output_stream_write(cm_host_call *call, const cm_val *args, cm_val *result,
                                       weft_error *err) {
    return wp2_write(call, args, result, err, false);
}

weft_status wp2_io_output_stream_write_zeroes(cm_host_call *call, const cm_val *args,
                                              cm_val *result, weft_error *err) {
    return wp2_write(call, args, result, err, true);
}

/* blocking-write-and-flush / blocking-write-zeroes-and-flush: at most
   4096 bytes (more traps); waits (parking) until the stream takes bytes,
   then writes them all. */
static weft_status wp2_blocking_write(cm_host_call *call, const cm_val *args, cm_val *result,
                                      weft_error *err, bool zeroes) {
    const char *what = zeroes ? "blocking-write-zeroes-and-flush" : "blocking-write-and-flush";
    wp2_stream *s = wp2_stream_of(call, WP2_RES_IO_OUTPUT_STREAM, &args[0]);
    if (!s) return wp2_bad_rep(err, "output-stream", args[0].v.rep);
    uint64_t len = zeroes ? args[1].v.u : args[1].n;
    if (len > WP2_BLOCKING_MAX)
        return wp2_trap(err, "output-stream.%s of %llu bytes, past its limit of %u", what,
                        (unsigned long long)len, WP2_BLOCKING_MAX);
    if (s->closed) return wp2_stream_fail(call, result, WP2_CLOSED, what, err);
    if (!s->file) {
        wasi_call c = wp2_wcall(call);
        wasi_errno r = wasi_wait_ready(&c, s->ref.host, POLLOUT, false, true);
        if (r == WASI_EPARKED) return WEFT_SUSPENDED;
    }
    uint8_t buf[WP2_BLOCKING_MAX];
    if (!zeroes) wp2_get_bytes(&args[1], buf);
    wasi_errno e = wp2_write_all(call, s, zeroes ? NULL : buf, (size_t)len);
    if (e) return wp2_stream_fail(call, result, e, what, err);
    wp2_set_ok(result, NULL);
    return WEFT_OK;
}

weft_status wp2_io_output_stream_blocking_write_and_flush(cm_host_call *call, const cm_val *args,
                                                          cm_val *result, weft_error *err) {
    return wp2_blocking_write(call, args, result, err, false);
}

weft_status wp2_io_output_stream_blocking_write_zeroes_and_flush(cm_host_call *call,
                                                                 const cm_val *args,
                                                                 cm_val *result, weft_error *err) {
    return wp2_blocking_write(call, args, result, err, true);
}

/* flush / blocking-flush: nothing is buffered; err(closed) on a closed
   stream. */
static weft_status wp2_flush(cm_host_call *call, const cm_val *args, cm_val *result,
                             weft_error *err, const char *what) {
    wp2_stream *s = wp2_stream_of(call, WP2_RES_IO_OUTPUT_STREAM, &args[0]);
    if (!s) return wp2_bad_rep(err, "output-stream", args[0].v.rep);
    if (s->closed) return wp2_stream_fail(call, result, WP2_CLOSED, what, err);
    wp2_set_ok(result, NULL);
    return WEFT_OK;
}

weft_status wp2_io_output_stream_flush(cm_host_call *call, const cm_val *args, cm_val *result,
                                       weft_error *err) {
    return wp2_flush(call, args, result, err, "flush");
}

weft_status wp2_io_output_stream_blocking_flush(cm_host_call *call, const cm_val *args,
                                                cm_val *result, weft_error *err) {
    return wp2_flush(call, args, result, err, "blocking-flush");
}

/* splice / blocking-splice: func(src: borrow<input-stream>, len: u64) ->
   result<u64, stream-error>: reads what src has (blocking: waits for
   some, parking) up to len, and writes it all. */
static weft_status wp2_splice(cm_host_call *call, const cm_val *args, cm_val *result,
                              weft_error *err, bool block) {
    const char *what = block ? "blocking-splice" : "splice";
    wp2_stream *dst = wp2_stream_of(call, WP2_RES_IO_OUTPUT_STREAM, &args[0]);
    if (!dst) return wp2_bad_rep(err, "output-stream", args[0].v.rep);
    wp2_stream *src = wp2_stream_of(call, WP2_RES_IO_INPUT_STREAM, &args[1]);
    if (!src) return wp2_bad_rep(err, "input-stream", args[1].v.rep);
    if (dst->closed) return wp2_stream_fail(call, result, WP2_CLOSED, what, err);
    size_t len = args[2].v.u < WP2_CHUNK ? (size_t)args[2].v.u : WP2_CHUNK;
    uint8_t *buf = cm_arena_alloc(call->arena, len ? len : 1, 1);
    if (!buf) return wp2_nomem(err, what);
    size_t got;
    wasi_errno e = wp2_read_some(call, src, buf, len, block, &got);
    if (e == WASI_EPARKED) return WEFT_SUSPENDED;
    if (!e) e = wp2_write_all(call, dst, buf, got);
    if (e) return wp2_stream_fail(call, result, e, what, err);
    cm_val *ok = wp2_vals(call, 1);
    if (!ok) return wp2_nomem(err, what);
    wp2_set_u64(ok, got);
    wp2_set_ok(result, ok);
    return WEFT_OK;
}

weft_status wp2_io_output_stream_splice(cm_host_call *call, const cm_val *args, cm_val *result,
                                        weft_error *err) {
    return wp2_splice(call, args, result, err, false);
}

weft_status wp2_io_output_stream_blocking_splice(cm_host_call *call, const cm_val *args,
                                                 cm_val *result, weft_error *err) {
    return wp2_splice(call, args, result, err, true);
}
