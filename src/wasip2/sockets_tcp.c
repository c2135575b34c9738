/*
 * sockets_tcp.c — wasi:sockets/tcp and tcp-create-socket@0.2.12: the
 * tcp-socket state machine of tcp.wit (unbound, bind-in-progress, bound,
 * listen-in-progress, listening, connect-in-progress, connected, closed),
 * on the shared socket layer (src/wasi/sock.c) and sockets.c's helpers.
 *
 * Nothing waits: bind and listen happen in their start-* call (the WIT
 * allows it), connect is started by start-connect and looked at by
 * finish-connect (would-block until the handshake ends), accept answers
 * would-block when nothing is pending. A guest waits on subscribe's
 * pollable, an fd pollable on the socket for POLLIN | POLLOUT, which
 * poll parks on like any other: a listening socket is ready when a
 * connection is pending, a connecting one when the handshake ends (either
 * way), an unconnected one at once (POLLHUP), a connected one when it can
 * be written or read.
 *
 * A socket is a preview1 socket fd of the state's context; the input and
 * output streams of a connected one are wasi:io streams on it (io.c), so
 * they read and write what a preview1 sock_recv / sock_send would and
 * outlive the socket's drop (the host socket closes with the last one).
 */
#include <errno.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "wasip2.h"

/* The backlog of listen when set-listen-backlog-size was not called (what
   wasmtime and Rust's std use). */
#define WP2_TCP_BACKLOG 128
/* Linux's bounds of TCP_KEEPIDLE / TCP_KEEPINTVL (s) and TCP_KEEPCNT
   (MAX_TCP_KEEPIDLE, MAX_TCP_KEEPINTVL, MAX_TCP_KEEPCNT): tcp.wit lets a
   value be "silently clamped and/or rounded". */
#define WP2_TCP_KEEP_SECS_MAX 32767
#define WP2_TCP_KEEP_COUNT_MAX 127

static wp2_tcp *wp2_tcp_of(cm_host_call *call, const cm_val *arg) {
    return wp2_get(wp2_of(call), WP2_RES_SOCKETS_TCP_SOCKET, arg->v.rep);
}

#define WP2_TCP_GET(t, args, err)                                                  \
    wp2_tcp *t = wp2_tcp_of(call, &(args)[0]);                                     \
    if (!t) return wp2_bad_rep(err, "tcp-socket", (args)[0].v.rep)

static weft_status wp2_tcp_fail(cm_host_call *call, cm_val *result, uint32_t code,
                                const char *what, weft_error *err) {
    return wp2_net_fail(call, result, code, what, err);
}

static weft_status wp2_tcp_ok(cm_val *result) {
    wp2_set_ok(result, NULL);
    return WEFT_OK;
}

/* A new tcp-socket object for host socket `host` (taken over) in `state`. */
static uint32_t wp2_tcp_new(wp2_ctx *x, int host, int family, int state, wasi_errno *e) {
    wp2_tcp *t = calloc(1, sizeof *t);
    if (!t) {
        close(host);
        *e = WASI_ENOMEM;
        return 0;
    }
    if ((*e = wp2_net_adopt(x, host, true, &t->fd, &t->ref))) {
        free(t);
        return 0;
    }
    t->family = family;
    t->state = state;
    t->backlog = WP2_TCP_BACKLOG;
    uint32_t fd = t->fd;
    wasi_ref ref = t->ref;
    uint32_t rep = wp2_add(x, WP2_RES_SOCKETS_TCP_SOCKET, t); /* frees t when it fails */
    if (!rep) {
        wp2_net_close(x, fd, &ref);
        *e = WASI_ENOMEM;
    }
    return rep;
}

/* create-tcp-socket: func(address-family) -> result<tcp-socket, error-code>.
   access-denied when TCP is not allowed (-S tcp=n; wasmtime's answer). */
weft_status wp2_sockets_tcp_create_socket_create_tcp_socket(cm_host_call *call, const cm_val *args,
                                                            cm_val *result, weft_error *err) {
    const char *what = "create-tcp-socket";
    wp2_ctx *x = wp2_of(call);
    if (!(x->w->net & WEFT_WASI_NET_TCP))
        return wp2_tcp_fail(call, result, WP2_SOCKETS_ERROR_CODE_ACCESS_DENIED, what, err);
    int family = wp2_net_family(args[0].v.c.index);
    int host;
    wasi_errno e = wasi_net_open(family, SOCK_STREAM, &host);
    if (e) return wp2_tcp_fail(call, result, wp2_net_error(e), what, err);
    uint32_t rep = wp2_tcp_new(x, host, family, WP2_TCP_UNBOUND, &e);
    if (!rep) {
        if (e == WASI_ENOMEM) return wp2_nomem(err, what);
        return wp2_tcp_fail(call, result, wp2_net_error(e), what, err);
    }
    cm_val *ok = wp2_vals(call, 1);
    if (!ok) return wp2_nomem(err, what);
    wp2_set_handle(ok, CM_OWN, rep);
    wp2_set_ok(result, ok);
    return WEFT_OK;
}

/* start-bind(network, local-address): the bind itself (the WIT lets it be
   done here). invalid-state once bound or connecting/listening;
   concurrency-conflict while a bind is in progress. */
weft_status wp2_sockets_tcp_socket_start_bind(cm_host_call *call, const cm_val *args,
                                              cm_val *result, weft_error *err) {
    const char *what = "start-bind";
    WP2_TCP_GET(t, args, err);
    wp2_ctx *x = wp2_of(call);
    if (!wp2_get(x, WP2_RES_SOCKETS_NETWORK, args[1].v.rep))
        return wp2_bad_rep(err, "network", args[1].v.rep);
    if (t->state == WP2_TCP_BIND_STARTED)
        return wp2_tcp_fail(call, result, WP2_SOCKETS_ERROR_CODE_CONCURRENCY_CONFLICT, what, err);
    if (t->state != WP2_TCP_UNBOUND)
        return wp2_tcp_fail(call, result, WP2_SOCKETS_ERROR_CODE_INVALID_STATE, what, err);
    wasi_sockaddr a;
    if (!wp2_net_addr_in(&args[2], &a))
        return wp2_tcp_fail(call, result, WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT, what, err);
    uint32_t bad = wp2_net_addr_check(&a, t->family, false);
    if (bad != WP2_NET_OK) return wp2_tcp_fail(call, result, bad, what, err);
    if (!wasi_net_permits(x->w, &a))
        return wp2_tcp_fail(call, result, WP2_SOCKETS_ERROR_CODE_ACCESS_DENIED, what, err);
    wasi_errno e = wasi_net_bind(t->ref.host, &a);
    if (e) return wp2_tcp_fail(call, result, wp2_net_error(e), what, err);
    t->state = WP2_TCP_BIND_STARTED;
    return wp2_tcp_ok(result);
}

weft_status wp2_sockets_tcp_socket_finish_bind(cm_host_call *call, const cm_val *args,
                                               cm_val *result, weft_error *err) {
    WP2_TCP_GET(t, args, err);
    if (t->state != WP2_TCP_BIND_STARTED)
        return wp2_tcp_fail(call, result, WP2_SOCKETS_ERROR_CODE_NOT_IN_PROGRESS, "finish-bind",
                            err);
    t->state = WP2_TCP_BOUND;
    return wp2_tcp_ok(result);
}

/* start-connect(network, remote-address): connect(2) started. A failure
   of the connection itself (refused, unreachable, ...) found at once is
   kept and told by finish-connect, as one found later is, so the socket
   goes to `closed` in the one place. */
weft_status wp2_sockets_tcp_socket_start_connect(cm_host_call *call, const cm_val *args,
                                                 cm_val *result, weft_error *err) {
    const char *what = "start-connect";
    WP2_TCP_GET(t, args, err);
    wp2_ctx *x = wp2_of(call);
    if (!wp2_get(x, WP2_RES_SOCKETS_NETWORK, args[1].v.rep))
        return wp2_bad_rep(err, "network", args[1].v.rep);
    switch (t->state) {
    case WP2_TCP_UNBOUND:
    case WP2_TCP_BOUND: break;
    case WP2_TCP_BIND_STARTED:
    case WP2_TCP_LISTEN_STARTED:
    case WP2_TCP_CONNECT_STARTED:
        return wp2_tcp_fail(call, result, WP2_SOCKETS_ERROR_CODE_CONCURRENCY_CONFLICT, what, err);
    default: return wp2_tcp_fail(call, result, WP2_SOCKETS_ERROR_CODE_INVALID_STATE, what, err);
    }
    wasi_sockaddr a;
    if (!wp2_net_addr_in(&args[2], &a))
        return wp2_tcp_fail(call, result, WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT, what, err);
    uint32_t bad = wp2_net_addr_check(&a, t->family, true);
    if (bad != WP2_NET_OK) return wp2_tcp_fail(call, result, bad, what, err);
    if (!wasi_net_permits(x->w, &a))
        return wp2_tcp_fail(call, result, WP2_SOCKETS_ERROR_CODE_ACCESS_DENIED, what, err);
    wasi_errno e = wasi_net_connect(t->ref.host, &a);
    t->pending = e == WASI_EINPROGRESS ? WASI_ESUCCESS : e;
    t->state = WP2_TCP_CONNECT_STARTED;
    return wp2_tcp_ok(result);
}

/* ok((input-stream, output-stream)) of a connected socket in *out. */
static weft_status wp2_tcp_streams(cm_host_call *call, wp2_tcp *t, cm_val *items,
                                   const char *what, weft_error *err) {
    wp2_ctx *x = wp2_of(call);
    wasi_errno e;
    uint32_t in = wp2_stream_new(x, WP2_RES_IO_INPUT_STREAM, t->fd, false, false, 0, &e);
    if (!in) return wp2_nomem(err, what);
    uint32_t out = wp2_stream_new(x, WP2_RES_IO_OUTPUT_STREAM, t->fd, false, false, 0, &e);
    if (!out) {
        weft_error ignored;
        wp2_io_input_stream_drop(&x->res[WP2_RES_IO_INPUT_STREAM], in, x, &ignored);
        return wp2_nomem(err, what);
    }
    wp2_set_handle(&items[0], CM_OWN, in);
    wp2_set_handle(&items[1], CM_OWN, out);
    return WEFT_OK;
}

/* finish-connect: would-block while the handshake goes on; its failure
   (closed from then on); or the connection's two streams. */
weft_status wp2_sockets_tcp_socket_finish_connect(cm_host_call *call, const cm_val *args,
                                                  cm_val *result, weft_error *err) {
    const char *what = "finish-connect";
    WP2_TCP_GET(t, args, err);
    if (t->state != WP2_TCP_CONNECT_STARTED)
        return wp2_tcp_fail(call, result, WP2_SOCKETS_ERROR_CODE_NOT_IN_PROGRESS, what, err);
    wasi_errno e = t->pending ? t->pending : wasi_net_connect_status(t->ref.host);
    if (e == WASI_EAGAIN)
        return wp2_tcp_fail(call, result, WP2_SOCKETS_ERROR_CODE_WOULD_BLOCK, what, err);
    if (e) {
        t->state = WP2_TCP_CLOSED;
        /* tcp.wit's finish-connect: EADDRNOTAVAIL from the implicit bind is
           address-in-use (no ephemeral port) */
        uint32_t code = e == WASI_EADDRNOTAVAIL ? WP2_SOCKETS_ERROR_CODE_ADDRESS_IN_USE
                                                : wp2_net_error(e);
        return wp2_tcp_fail(call, result, code, what, err);
    }
    cm_val *v = wp2_vals(call, 3);
    if (!v) return wp2_nomem(err, what);
    weft_status st = wp2_tcp_streams(call, t, &v[1], what, err);
    if (st) return st;
    t->state = WP2_TCP_CONNECTED;
    v[0] = (cm_val){.kind = CM_TUPLE, .n = 2, .v.items = &v[1]};
    wp2_set_ok(result, &v[0]);
    return WEFT_OK;
}

/* start-listen: the socket must be bound (tcp.wit: "Unlike POSIX, the
   socket must already be explicitly bound"); listen(2) here. */
weft_status wp2_sockets_tcp_socket_start_listen(cm_host_call *call, const cm_val *args,
                                                cm_val *result, weft_error *err) {
    const char *what = "start-listen";
    WP2_TCP_GET(t, args, err);
    switch (t->state) {
    case WP2_TCP_BOUND: break;
    case WP2_TCP_BIND_STARTED:
    case WP2_TCP_LISTEN_STARTED:
    case WP2_TCP_CONNECT_STARTED:
        return wp2_tcp_fail(call, result, WP2_SOCKETS_ERROR_CODE_CONCURRENCY_CONFLICT, what, err);
    default: return wp2_tcp_fail(call, result, WP2_SOCKETS_ERROR_CODE_INVALID_STATE, what, err);
    }
    wasi_sockaddr local;
    wasi_errno e = wasi_net_name(t->ref.host, false, &local);
    if (!e && !wasi_net_permits(wp2_of(call)->w, &local))
        return wp2_tcp_fail(call, result, WP2_SOCKETS_ERROR_CODE_ACCESS_DENIED, what, err);
    if (!e) e = wasi_net_listen(t->ref.host, t->backlog);
    if (e) return wp2_tcp_fail(call, result, wp2_net_error(e), what, err);
    t->state = WP2_TCP_LISTEN_STARTED;
    return wp2_tcp_ok(result);
}

weft_status wp2_sockets_tcp_socket_finish_listen(cm_host_call *call, const cm_val *args,
                                                 cm_val *result, weft_error *err) {
    WP2_TCP_GET(t, args, err);
    if (t->state != WP2_TCP_LISTEN_STARTED)
        return wp2_tcp_fail(call, result, WP2_SOCKETS_ERROR_CODE_NOT_IN_PROGRESS, "finish-listen",
                            err);
    t->state = WP2_TCP_LISTENING;
    return wp2_tcp_ok(result);
}

/* accept: would-block when nothing is pending; else a connected socket
   (Linux gives it the listener's options, as tcp.wit lists) and its two
   streams. */
weft_status wp2_sockets_tcp_socket_accept(cm_host_call *call, const cm_val *args, cm_val *result,
                                          weft_error *err) {
    const char *what = "accept";
    WP2_TCP_GET(t, args, err);
    wp2_ctx *x = wp2_of(call);
    if (t->state != WP2_TCP_LISTENING)
        return wp2_tcp_fail(call, result, WP2_SOCKETS_ERROR_CODE_INVALID_STATE, what, err);
    int host;
    wasi_sockaddr peer;
    wasi_errno e;
    for (;;) {
        e = wasi_net_accept(t->ref.host, &host, &peer);
        if (e) return wp2_tcp_fail(call, result, wp2_net_error(e), what, err);
        if (wasi_net_permits(x->w, &peer)) break;
        close(host); /* a peer the network may not reach never gets to the guest */
    }
    uint32_t rep = wp2_tcp_new(x, host, t->family, WP2_TCP_CONNECTED, &e);
    if (!rep) {
        if (e == WASI_ENOMEM) return wp2_nomem(err, what);
        return wp2_tcp_fail(call, result, wp2_net_error(e), what, err);
    }
    wp2_tcp *c = wp2_get(x, WP2_RES_SOCKETS_TCP_SOCKET, rep);
    cm_val *v = wp2_vals(call, 4);
    weft_status st = v ? wp2_tcp_streams(call, c, &v[2], what, err) : wp2_nomem(err, what);
    if (st) {
        weft_error ignored;
        wp2_sockets_tcp_socket_drop(&x->res[WP2_RES_SOCKETS_TCP_SOCKET], rep, x, &ignored);
        return st;
    }
    wp2_set_handle(&v[1], CM_OWN, rep);
    v[0] = (cm_val){.kind = CM_TUPLE, .n = 3, .v.items = &v[1]};
    wp2_set_ok(result, &v[0]);
    return WEFT_OK;
}

static weft_status wp2_tcp_address(cm_host_call *call, const cm_val *args, cm_val *result,
                                   weft_error *err, bool remote) {
    const char *what = remote ? "remote-address" : "local-address";
    WP2_TCP_GET(t, args, err);
    bool ok = remote ? t->state == WP2_TCP_CONNECTED
                     : t->state != WP2_TCP_UNBOUND && t->state != WP2_TCP_BIND_STARTED &&
                           t->state != WP2_TCP_CLOSED;
    if (!ok) return wp2_tcp_fail(call, result, WP2_SOCKETS_ERROR_CODE_INVALID_STATE, what, err);
    wasi_sockaddr a;
    wasi_errno e = wasi_net_name(t->ref.host, remote, &a);
    if (e) return wp2_tcp_fail(call, result, wp2_net_error(e), what, err);
    cm_val *v = wp2_vals(call, 1);
    if (!v || !wp2_net_addr_out(call, &a, v)) return wp2_nomem(err, what);
    wp2_set_ok(result, v);
    return WEFT_OK;
}

weft_status wp2_sockets_tcp_socket_local_address(cm_host_call *call, const cm_val *args,
                                                 cm_val *result, weft_error *err) {
    return wp2_tcp_address(call, args, result, err, false);
}

weft_status wp2_sockets_tcp_socket_remote_address(cm_host_call *call, const cm_val *args,
                                                  cm_val *result, weft_error *err) {
    return wp2_tcp_address(call, args, result, err, true);
}

weft_status wp2_sockets_tcp_socket_is_listening(cm_host_call *call, const cm_val *args,
                                                cm_val *result, weft_error *err) {
    WP2_TCP_GET(t, args, err);
    result->kind = CM_BOOL;
    result->v.b = t->state == WP2_TCP_LISTENING;
    return WEFT_OK;
}

weft_status wp2_sockets_tcp_socket_address_family(cm_host_call *call, const cm_val *args,
                                                  cm_val *result, weft_error *err) {
    WP2_TCP_GET(t, args, err);
    wp2_set_case(result, CM_ENUM,
                 t->family == AF_INET ? WP2_SOCKETS_IP_ADDRESS_FAMILY_IPV4
                                      : WP2_SOCKETS_IP_ADDRESS_FAMILY_IPV6,
                 NULL);
    return WEFT_OK;
}

/* set-listen-backlog-size: 0 is invalid-argument; clamped to 1..INT_MAX;
   kept for listen, or given to listen(2) again on a listening socket
   (Linux takes a new backlog so). */
weft_status wp2_sockets_tcp_socket_set_listen_backlog_size(cm_host_call *call, const cm_val *args,
                                                           cm_val *result, weft_error *err) {
    const char *what = "set-listen-backlog-size";
    WP2_TCP_GET(t, args, err);
    uint64_t v = args[1].v.u;
    if (v == 0) return wp2_tcp_fail(call, result, WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT, what, err);
    if (t->state == WP2_TCP_CONNECT_STARTED || t->state == WP2_TCP_CONNECTED ||
        t->state == WP2_TCP_CLOSED)
        return wp2_tcp_fail(call, result, WP2_SOCKETS_ERROR_CODE_INVALID_STATE, what, err);
    int backlog = v > INT_MAX ? INT_MAX : (int)v;
    if (t->state == WP2_TCP_LISTEN_STARTED || t->state == WP2_TCP_LISTENING) {
        if (wasi_net_listen(t->ref.host, backlog))
            return wp2_tcp_fail(call, result, WP2_SOCKETS_ERROR_CODE_NOT_SUPPORTED, what, err);
    }
    t->backlog = backlog;
    return wp2_tcp_ok(result);
}

/* The options act on the socket in every state but `closed`. */
#define WP2_TCP_OPTION(t, args, err, what)                                          \
    WP2_TCP_GET(t, args, err);                                                      \
    if (t->state == WP2_TCP_CLOSED)                                                 \
    return wp2_tcp_fail(call, result, WP2_SOCKETS_ERROR_CODE_INVALID_STATE, what, err)

static weft_status wp2_tcp_getopt(cm_host_call *call, cm_val *result, int host, int level,
                                  int name, cm_kind kind, uint64_t scale, const char *what,
                                  weft_error *err) {
    int v;
    wasi_errno e = wasi_net_getopt(host, level, name, &v);
    if (e) return wp2_tcp_fail(call, result, wp2_net_error(e), what, err);
    return wp2_net_ok_u(call, result, kind, (uint64_t)(v < 0 ? 0 : v) * scale, what, err);
}

static weft_status wp2_tcp_setopt(cm_host_call *call, cm_val *result, int host, int level,
                                  int name, int v, const char *what, weft_error *err) {
    wasi_errno e = wasi_net_setopt(host, level, name, v);
    if (e) return wp2_tcp_fail(call, result, wp2_net_error(e), what, err);
    return wp2_tcp_ok(result);
}

weft_status wp2_sockets_tcp_socket_keep_alive_enabled(cm_host_call *call, const cm_val *args,
                                                      cm_val *result, weft_error *err) {
    WP2_TCP_OPTION(t, args, err, "keep-alive-enabled");
    return wp2_tcp_getopt(call, result, t->ref.host, SOL_SOCKET, SO_KEEPALIVE, CM_BOOL, 1,
                          "keep-alive-enabled", err);
}

weft_status wp2_sockets_tcp_socket_set_keep_alive_enabled(cm_host_call *call, const cm_val *args,
                                                          cm_val *result, weft_error *err) {
    WP2_TCP_OPTION(t, args, err, "set-keep-alive-enabled");
    return wp2_tcp_setopt(call, result, t->ref.host, SOL_SOCKET, SO_KEEPALIVE, args[1].v.b ? 1 : 0,
                          "set-keep-alive-enabled", err);
}

/* A duration (ns) as the whole seconds Linux keeps: rounded up, clamped
   to 1..32767. */
static int wp2_tcp_secs(uint64_t ns) {
    uint64_t s = ns / 1000000000u + (ns % 1000000000u != 0);
    return s > WP2_TCP_KEEP_SECS_MAX ? WP2_TCP_KEEP_SECS_MAX : s < 1 ? 1 : (int)s;
}

weft_status wp2_sockets_tcp_socket_keep_alive_idle_time(cm_host_call *call, const cm_val *args,
                                                        cm_val *result, weft_error *err) {
    WP2_TCP_OPTION(t, args, err, "keep-alive-idle-time");
    return wp2_tcp_getopt(call, result, t->ref.host, IPPROTO_TCP, TCP_KEEPIDLE, CM_U64, 1000000000u,
                          "keep-alive-idle-time", err);
}

weft_status wp2_sockets_tcp_socket_set_keep_alive_idle_time(cm_host_call *call, const cm_val *args,
                                                            cm_val *result, weft_error *err) {
    const char *what = "set-keep-alive-idle-time";
    WP2_TCP_OPTION(t, args, err, what);
    if (args[1].v.u == 0)
        return wp2_tcp_fail(call, result, WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT, what, err);
    return wp2_tcp_setopt(call, result, t->ref.host, IPPROTO_TCP, TCP_KEEPIDLE,
                          wp2_tcp_secs(args[1].v.u), what, err);
}

weft_status wp2_sockets_tcp_socket_keep_alive_interval(cm_host_call *call, const cm_val *args,
                                                       cm_val *result, weft_error *err) {
    WP2_TCP_OPTION(t, args, err, "keep-alive-interval");
    return wp2_tcp_getopt(call, result, t->ref.host, IPPROTO_TCP, TCP_KEEPINTVL, CM_U64,
                          1000000000u, "keep-alive-interval", err);
}

weft_status wp2_sockets_tcp_socket_set_keep_alive_interval(cm_host_call *call, const cm_val *args,
                                                           cm_val *result, weft_error *err) {
    const char *what = "set-keep-alive-interval";
    WP2_TCP_OPTION(t, args, err, what);
    if (args[1].v.u == 0)
        return wp2_tcp_fail(call, result, WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT, what, err);
    return wp2_tcp_setopt(call, result, t->ref.host, IPPROTO_TCP, TCP_KEEPINTVL,
                          wp2_tcp_secs(args[1].v.u), what, err);
}

weft_status wp2_sockets_tcp_socket_keep_alive_count(cm_host_call *call, const cm_val *args,
                                                    cm_val *result, weft_error *err) {
    WP2_TCP_OPTION(t, args, err, "keep-alive-count");
    return wp2_tcp_getopt(call, result, t->ref.host, IPPROTO_TCP, TCP_KEEPCNT, CM_U32, 1,
                          "keep-alive-count", err);
}

weft_status wp2_sockets_tcp_socket_set_keep_alive_count(cm_host_call *call, const cm_val *args,
                                                        cm_val *result, weft_error *err) {
    const char *what = "set-keep-alive-count";
    WP2_TCP_OPTION(t, args, err, what);
    uint64_t v = args[1].v.u;
    if (v == 0) return wp2_tcp_fail(call, result, WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT, what, err);
    if (v > WP2_TCP_KEEP_COUNT_MAX) v = WP2_TCP_KEEP_COUNT_MAX;
    return wp2_tcp_setopt(call, result, t->ref.host, IPPROTO_TCP, TCP_KEEPCNT, (int)v, what, err);
}

weft_status wp2_sockets_tcp_socket_hop_limit(cm_host_call *call, const cm_val *args,
                                             cm_val *result, weft_error *err) {
    WP2_TCP_OPTION(t, args, err, "hop-limit");
    return wp2_net_hop_limit(call, t->ref.host, t->family, false, NULL, result, err);
}

weft_status wp2_sockets_tcp_socket_set_hop_limit(cm_host_call *call, const cm_val *args,
                                                 cm_val *result, weft_error *err) {
    WP2_TCP_OPTION(t, args, err, "set-hop-limit");
    return wp2_net_hop_limit(call, t->ref.host, t->family, true, &args[1], result, err);
}

weft_status wp2_sockets_tcp_socket_receive_buffer_size(cm_host_call *call, const cm_val *args,
                                                       cm_val *result, weft_error *err) {
    WP2_TCP_OPTION(t, args, err, "receive-buffer-size");
    return wp2_net_buffer_size(call, t->ref.host, false, true, NULL, result, err);
}

weft_status wp2_sockets_tcp_socket_set_receive_buffer_size(cm_host_call *call, const cm_val *args,
                                                           cm_val *result, weft_error *err) {
    WP2_TCP_OPTION(t, args, err, "set-receive-buffer-size");
    return wp2_net_buffer_size(call, t->ref.host, true, true, &args[1], result, err);
}

weft_status wp2_sockets_tcp_socket_send_buffer_size(cm_host_call *call, const cm_val *args,
                                                    cm_val *result, weft_error *err) {
    WP2_TCP_OPTION(t, args, err, "send-buffer-size");
    return wp2_net_buffer_size(call, t->ref.host, false, false, NULL, result, err);
}

weft_status wp2_sockets_tcp_socket_set_send_buffer_size(cm_host_call *call, const cm_val *args,
                                                        cm_val *result, weft_error *err) {
    WP2_TCP_OPTION(t, args, err, "set-send-buffer-size");
    return wp2_net_buffer_size(call, t->ref.host, true, false, &args[1], result, err);
}

weft_status wp2_sockets_tcp_socket_subscribe(cm_host_call *call, const cm_val *args,
                                             cm_val *result, weft_error *err) {
    WP2_TCP_GET(t, args, err);
    return wp2_net_subscribe(call, WP2_RES_SOCKETS_TCP_SOCKET, args[0].v.rep, WP2_POLL_FD,
                             t->ref.host, POLLIN | POLLOUT, result, err);
}

/* shutdown(receive | send | both): connected sockets only; idempotent (a
   peer already gone is not an error). */
weft_status wp2_sockets_tcp_socket_shutdown(cm_host_call *call, const cm_val *args,
                                            cm_val *result, weft_error *err) {
    WP2_TCP_GET(t, args, err);
    if (t->state != WP2_TCP_CONNECTED)
        return wp2_tcp_fail(call, result, WP2_SOCKETS_ERROR_CODE_INVALID_STATE, "shutdown", err);
    uint32_t how = args[1].v.c.index;
    int h = how == WP2_SOCKETS_SHUTDOWN_TYPE_RECEIVE ? SHUT_RD
            : how == WP2_SOCKETS_SHUTDOWN_TYPE_SEND  ? SHUT_WR
                                                     : SHUT_RDWR;
    if (shutdown(t->ref.host, h) != 0 && errno != ENOTCONN)
        return wp2_tcp_fail(call, result, wp2_net_error(wasi_errno_from_host(errno)), "shutdown",
                            err);
    return wp2_tcp_ok(result);
}

weft_status wp2_sockets_tcp_socket_drop(const cm_resource *rt, uint32_t rep, void *env,
                                        weft_error *err) {
    wp2_ctx *x = env;
    wp2_tcp *t = wp2_get(x, WP2_RES_SOCKETS_TCP_SOCKET, rep);
    if (!t) return wp2_bad_rep(err, rt->name, rep);
    if (t->children) return wp2_net_children_trap(err, rt->name, t->children);
    wp2_remove(x, WP2_RES_SOCKETS_TCP_SOCKET, rep);
    wp2_net_close(x, t->fd, &t->ref);
    free(t);
    return WEFT_OK;
}
