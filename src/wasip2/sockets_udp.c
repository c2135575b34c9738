/*
 * sockets_udp.c — wasi:sockets/udp and udp-create-socket@0.2.12: a
 * udp-socket is bound (start-bind/finish-bind), then stream() gives an
 * incoming-datagram-stream and an outgoing-datagram-stream, optionally
 * limited to one peer (connect(2) of a datagram socket). On the shared
 * socket layer (src/wasi/sock.c); nothing waits: receive gives what is
 * there, check-send says how many datagrams send may take, subscribe's
 * pollables (POLLIN, POLLOUT on the socket) are what a guest waits on.
 */
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "wasip2.h"

/* Datagrams one receive gives at most, and the bytes after which it
   stops (each byte of a list<u8> is a cm_val: ctype.h); what check-send
   permits when the socket can be written. */
#define WP2_UDP_RECV_MAX 16u
#define WP2_UDP_RECV_BYTES 65536u
#define WP2_UDP_SEND_PERMIT 16u
/* The largest UDP payload (IPv4: 65535 - 8 - 20). */
#define WP2_UDP_DATAGRAM_MAX 65535u

static weft_status wp2_udp_fail(cm_host_call *call, cm_val *result, uint32_t code,
                                const char *what, weft_error *err) {
    return wp2_net_fail(call, result, code, what, err);
}

#define WP2_UDP_GET(u, args, err)                                                              \
    wp2_udp *u = wp2_get(wp2_of(call), WP2_RES_SOCKETS_UDP_SOCKET, (args)[0].v.rep);           \
    if (!u) return wp2_bad_rep(err, "udp-socket", (args)[0].v.rep)

/* create-udp-socket: access-denied when UDP is not allowed (-S udp=n). */
weft_status wp2_sockets_udp_create_socket_create_udp_socket(cm_host_call *call, const cm_val *args,
                                                            cm_val *result, weft_error *err) {
    const char *what = "create-udp-socket";
    wp2_ctx *x = wp2_of(call);
    if (!(x->w->net & WEFT_WASI_NET_UDP))
        return wp2_udp_fail(call, result, WP2_SOCKETS_ERROR_CODE_ACCESS_DENIED, what, err);
    int family = wp2_net_family(args[0].v.c.index);
    int host;
    wasi_errno e = wasi_net_open(family, SOCK_DGRAM, &host);
    if (e) return wp2_udp_fail(call, result, wp2_net_error(e), what, err);
    wp2_udp *u = calloc(1, sizeof *u);
    if (!u) {
        close(host);
        return wp2_nomem(err, what);
    }
    if ((e = wp2_net_adopt(x, host, false, &u->fd, &u->ref))) {
        free(u);
        return wp2_udp_fail(call, result, wp2_net_error(e), what, err);
    }
    u->family = family;
    u->state = WP2_TCP_UNBOUND;
    u->id = ++x->udp_ids;
    uint32_t fd = u->fd;
    wasi_ref ref = u->ref;
    uint32_t rep = wp2_add(x, WP2_RES_SOCKETS_UDP_SOCKET, u);
    cm_val *ok = rep ? wp2_vals(call, 1) : NULL;
    if (!rep) {
        wp2_net_close(x, fd, &ref);
        return wp2_nomem(err, what);
    }
    if (!ok) return wp2_nomem(err, what);
    wp2_set_handle(ok, CM_OWN, rep);
    wp2_set_ok(result, ok);
    return WEFT_OK;
}

weft_status wp2_sockets_udp_socket_start_bind(cm_host_call *call, const cm_val *args,
                                              cm_val *result, weft_error *err) {
    const char *what = "start-bind";
    WP2_UDP_GET(u, args, err);
    wp2_ctx *x = wp2_of(call);
    if (!wp2_get(x, WP2_RES_SOCKETS_NETWORK, args[1].v.rep))
        return wp2_bad_rep(err, "network", args[1].v.rep);
    if (u->state == WP2_TCP_BIND_STARTED)
        return wp2_udp_fail(call, result, WP2_SOCKETS_ERROR_CODE_CONCURRENCY_CONFLICT, what, err);
    if (u->state != WP2_TCP_UNBOUND)
        return wp2_udp_fail(call, result, WP2_SOCKETS_ERROR_CODE_INVALID_STATE, what, err);
    wasi_sockaddr a;
    if (!wp2_net_addr_in(&args[2], &a))
        return wp2_udp_fail(call, result, WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT, what, err);
    uint32_t bad = wp2_net_addr_check(&a, u->family, false);
    if (bad != WP2_NET_OK) return wp2_udp_fail(call, result, bad, what, err);
    if (!wasi_net_permits(x->w, &a))
        return wp2_udp_fail(call, result, WP2_SOCKETS_ERROR_CODE_ACCESS_DENIED, what, err);
    wasi_errno e = wasi_net_bind(u->ref.host, &a);
    if (e) return wp2_udp_fail(call, result, wp2_net_error(e), what, err);
    u->state = WP2_TCP_BIND_STARTED;
    wp2_set_ok(result, NULL);
    return WEFT_OK;
}

weft_status wp2_sockets_udp_socket_finish_bind(cm_host_call *call, const cm_val *args,
                                               cm_val *result, weft_error *err) {
    WP2_UDP_GET(u, args, err);
    if (u->state != WP2_TCP_BIND_STARTED)
        return wp2_udp_fail(call, result, WP2_SOCKETS_ERROR_CODE_NOT_IN_PROGRESS, "finish-bind",
                            err);
    u->state = WP2_TCP_BOUND;
    wp2_set_ok(result, NULL);
    return WEFT_OK;
}

/* A datagram stream of socket `u` (res: incoming or outgoing): its rep, 0
   when out of memory. */
static uint32_t wp2_dgram_new(wp2_ctx *x, int res, wp2_udp *u, uint32_t sock_rep) {
    wp2_dgram *d = calloc(1, sizeof *d);
    if (!d) return 0;
    if (wasi_fd_acquire(x->w, u->fd, 0, &d->ref)) {
        free(d);
        return 0;
    }
    d->family = u->family;
    d->connected = u->connected;
    d->remote = u->remote;
    d->sock_rep = sock_rep;
    d->sock_id = u->id;
    wasi_ref ref = d->ref;
    uint32_t rep = wp2_add(x, res, d);
    if (!rep) wasi_fd_release(x->w, &ref);
    else u->streams++;
    return rep;
}

/* %stream(remote-address: option<ip-socket-address>): the socket must be
   bound; some(address) limits the pair to that peer (connect(2)), none
   lifts a limit set before. The streams of an earlier call must have been
   dropped (udp.wit: implementations may trap; weft does, naming them). */
weft_status wp2_sockets_udp_socket_stream(cm_host_call *call, const cm_val *args, cm_val *result,
                                          weft_error *err) {
    const char *what = "stream";
    WP2_UDP_GET(u, args, err);
    wp2_ctx *x = wp2_of(call);
    if (u->state != WP2_TCP_BOUND)
        return wp2_udp_fail(call, result, WP2_SOCKETS_ERROR_CODE_INVALID_STATE, what, err);
    if (u->streams)
        return wp2_trap(err, "udp-socket.stream called while %u datagram stream%s of its last "
                             "call %s live (drop them first)",
                        u->streams, u->streams == 1 ? "" : "s", u->streams == 1 ? "is" : "are");
    const cm_val *opt = &args[1];
    wasi_errno e;
    if (opt->v.c.index == 1) {
        wasi_sockaddr a;
        if (!wp2_net_addr_in(opt->v.c.payload, &a))
            return wp2_udp_fail(call, result, WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT, what, err);
        uint32_t bad = wp2_net_addr_check(&a, u->family, true);
        if (bad != WP2_NET_OK) return wp2_udp_fail(call, result, bad, what, err);
        if (!wasi_net_permits(x->w, &a))
            return wp2_udp_fail(call, result, WP2_SOCKETS_ERROR_CODE_ACCESS_DENIED, what, err);
        e = wasi_net_connect(u->ref.host, &a);
        if (e) {
            uint32_t code = e == WASI_ECONNRESET || e == WASI_ENETRESET
                                ? WP2_SOCKETS_ERROR_CODE_REMOTE_UNREACHABLE
                                : wp2_net_error(e);
            return wp2_udp_fail(call, result, code, what, err);
        }
        u->connected = true;
        u->remote = a;
    } else if (u->connected) {
        e = wasi_net_connect(u->ref.host, NULL);
        if (e && e != WASI_EAFNOSUPPORT) /* some systems answer so, dissolved all the same */
            return wp2_udp_fail(call, result, wp2_net_error(e), what, err);
        u->connected = false;
    }
    cm_val *v = wp2_vals(call, 3);
    if (!v) return wp2_nomem(err, what);
    uint32_t in = wp2_dgram_new(x, WP2_RES_SOCKETS_INCOMING_DATAGRAM_STREAM, u, args[0].v.rep);
    uint32_t out = in ? wp2_dgram_new(x, WP2_RES_SOCKETS_OUTGOING_DATAGRAM_STREAM, u, args[0].v.rep)
                      : 0;
    if (!out) {
        weft_error ignored;
        if (in)
            wp2_sockets_incoming_datagram_stream_drop(
                &x->res[WP2_RES_SOCKETS_INCOMING_DATAGRAM_STREAM], in, x, &ignored);
        return wp2_nomem(err, what);
    }
    wp2_set_handle(&v[1], CM_OWN, in);
    wp2_set_handle(&v[2], CM_OWN, out);
    v[0] = (cm_val){.kind = CM_TUPLE, .n = 2, .v.items = &v[1]};
    wp2_set_ok(result, &v[0]);
    return WEFT_OK;
}

static weft_status wp2_udp_address(cm_host_call *call, const cm_val *args, cm_val *result,
                                   weft_error *err, bool remote) {
    const char *what = remote ? "remote-address" : "local-address";
    WP2_UDP_GET(u, args, err);
    if (remote ? !u->connected : u->state != WP2_TCP_BOUND)
        return wp2_udp_fail(call, result, WP2_SOCKETS_ERROR_CODE_INVALID_STATE, what, err);
    wasi_sockaddr a;
    wasi_errno e = wasi_net_name(u->ref.host, remote, &a);
    if (e) return wp2_udp_fail(call, result, wp2_net_error(e), what, err);
    cm_val *v = wp2_vals(call, 1);
    if (!v || !wp2_net_addr_out(call, &a, v)) return wp2_nomem(err, what);
    wp2_set_ok(result, v);
    return WEFT_OK;
}

weft_status wp2_sockets_udp_socket_local_address(cm_host_call *call, const cm_val *args,
                                                 cm_val *result, weft_error *err) {
    return wp2_udp_address(call, args, result, err, false);
}

weft_status wp2_sockets_udp_socket_remote_address(cm_host_call *call, const cm_val *args,
                                                  cm_val *result, weft_error *err) {
    return wp2_udp_address(call, args, result, err, true);
}

weft_status wp2_sockets_udp_socket_address_family(cm_host_call *call, const cm_val *args,
                                                  cm_val *result, weft_error *err) {
    WP2_UDP_GET(u, args, err);
    wp2_set_case(result, CM_ENUM,
                 u->family == AF_INET ? WP2_SOCKETS_IP_ADDRESS_FAMILY_IPV4
                                      : WP2_SOCKETS_IP_ADDRESS_FAMILY_IPV6,
                 NULL);
    return WEFT_OK;
}

weft_status wp2_sockets_udp_socket_unicast_hop_limit(cm_host_call *call, const cm_val *args,
                                                     cm_val *result, weft_error *err) {
    WP2_UDP_GET(u, args, err);
    return wp2_net_hop_limit(call, u->ref.host, u->family, false, NULL, result, err);
}

weft_status wp2_sockets_udp_socket_set_unicast_hop_limit(cm_host_call *call, const cm_val *args,
                                                         cm_val *result, weft_error *err) {
    WP2_UDP_GET(u, args, err);
    return wp2_net_hop_limit(call, u->ref.host, u->family, true, &args[1], result, err);
}

weft_status wp2_sockets_udp_socket_receive_buffer_size(cm_host_call *call, const cm_val *args,
                                                       cm_val *result, weft_error *err) {
    WP2_UDP_GET(u, args, err);
    return wp2_net_buffer_size(call, u->ref.host, false, true, NULL, result, err);
}

weft_status wp2_sockets_udp_socket_set_receive_buffer_size(cm_host_call *call, const cm_val *args,
                                                           cm_val *result, weft_error *err) {
    WP2_UDP_GET(u, args, err);
    return wp2_net_buffer_size(call, u->ref.host, true, true, &args[1], result, err);
}

weft_status wp2_sockets_udp_socket_send_buffer_size(cm_host_call *call, const cm_val *args,
                                                    cm_val *result, weft_error *err) {
    WP2_UDP_GET(u, args, err);
    return wp2_net_buffer_size(call, u->ref.host, false, false, NULL, result, err);
}

weft_status wp2_sockets_udp_socket_set_send_buffer_size(cm_host_call *call, const cm_val *args,
                                                        cm_val *result, weft_error *err) {
    WP2_UDP_GET(u, args, err);
    return wp2_net_buffer_size(call, u->ref.host, true, false, &args[1], result, err);
}

/* subscribe: nothing of the socket itself waits, so ready at once (the
   streams' pollables wait for datagrams and room). */
weft_status wp2_sockets_udp_socket_subscribe(cm_host_call *call, const cm_val *args,
                                             cm_val *result, weft_error *err) {
    WP2_UDP_GET(u, args, err);
    return wp2_net_subscribe(call, WP2_RES_SOCKETS_UDP_SOCKET, args[0].v.rep, WP2_POLL_READY, -1, 0,
                             result, err);
}

weft_status wp2_sockets_udp_socket_drop(const cm_resource *rt, uint32_t rep, void *env,
                                        weft_error *err) {
    wp2_ctx *x = env;
    wp2_udp *u = wp2_get(x, WP2_RES_SOCKETS_UDP_SOCKET, rep);
    if (!u) return wp2_bad_rep(err, rt->name, rep);
    if (u->children) return wp2_net_children_trap(err, rt->name, u->children);
    wp2_remove(x, WP2_RES_SOCKETS_UDP_SOCKET, rep);
    wp2_net_close(x, u->fd, &u->ref);
    free(u);
    return WEFT_OK;
}

/* ---- Datagram streams ---- */

static wp2_dgram *wp2_dgram_of(cm_host_call *call, int res, const cm_val *arg) {
    return wp2_get(wp2_of(call), res, arg->v.rep);
}

/* udp.wit receive's and send's errors for an errno. */
static uint32_t wp2_udp_error(wasi_errno e) {
    switch (e) {
    case WASI_ECONNRESET:
    case WASI_ENETRESET: return WP2_SOCKETS_ERROR_CODE_REMOTE_UNREACHABLE;
    default: return wp2_net_error(e);
    }
}

/* receive(max-results): the datagrams there now, at most max-results (and
   WP2_UDP_RECV_MAX, and none past WP2_UDP_RECV_BYTES after the first);
   an empty list when none is there (never would-block). */
weft_status wp2_sockets_incoming_datagram_stream_receive(cm_host_call *call, const cm_val *args,
                                                         cm_val *result, weft_error *err) {
    const char *what = "receive";
    wp2_dgram *d = wp2_dgram_of(call, WP2_RES_SOCKETS_INCOMING_DATAGRAM_STREAM, &args[0]);
    if (!d) return wp2_bad_rep(err, "incoming-datagram-stream", args[0].v.rep);
    wp2_ctx *x = wp2_of(call);
    uint64_t max = args[1].v.u < WP2_UDP_RECV_MAX ? args[1].v.u : WP2_UDP_RECV_MAX;
    cm_val *items = wp2_vals(call, (uint32_t)(max ? max : 1));
    uint8_t *buf = malloc(WP2_UDP_DATAGRAM_MAX);
    if (!items || !buf) {
        free(buf);
        return wp2_nomem(err, what);
    }
    uint32_t k = 0;
    size_t bytes = 0;
    wasi_errno e = WASI_ESUCCESS;
    weft_status st = WEFT_OK;
    while (k < max && bytes < WP2_UDP_RECV_BYTES) {
        wasi_sockaddr from;
        size_t got;
        e = wasi_net_recv(d->ref.host, buf, WP2_UDP_DATAGRAM_MAX, &from, &got, NULL);
        if (e) break;
        if (!wasi_net_permits(x->w, &from)) continue; /* dropped before the guest, as wasmtime */
        cm_val *rec = wp2_vals(call, 2);
        if (!rec || !wp2_set_bytes(call, &rec[0], buf, got) ||
            !wp2_net_addr_out(call, &from, &rec[1])) {
            st = wp2_nomem(err, what);
            break;
        }
        items[k++] = (cm_val){.kind = CM_RECORD, .n = 2, .v.items = rec};
        bytes += got;
    }
    free(buf);
    if (st) return st;
    if (e && e != WASI_EAGAIN && k == 0) return wp2_udp_fail(call, result, wp2_udp_error(e), what, err);
    cm_val *list = wp2_vals(call, 1);
    if (!list) return wp2_nomem(err, what);
    *list = (cm_val){.kind = CM_LIST, .n = k, .v.items = items};
    wp2_set_ok(result, list);
    return WEFT_OK;
}

weft_status wp2_sockets_incoming_datagram_stream_subscribe(cm_host_call *call, const cm_val *args,
                                                           cm_val *result, weft_error *err) {
    wp2_dgram *d = wp2_dgram_of(call, WP2_RES_SOCKETS_INCOMING_DATAGRAM_STREAM, &args[0]);
    if (!d) return wp2_bad_rep(err, "incoming-datagram-stream", args[0].v.rep);
    return wp2_net_subscribe(call, WP2_RES_SOCKETS_INCOMING_DATAGRAM_STREAM, args[0].v.rep,
                             WP2_POLL_FD, d->ref.host, POLLIN, result, err);
}

/* check-send: WP2_UDP_SEND_PERMIT datagrams when the socket can be
   written now, else 0 (never would-block). */
weft_status wp2_sockets_outgoing_datagram_stream_check_send(cm_host_call *call, const cm_val *args,
                                                            cm_val *result, weft_error *err) {
    wp2_dgram *d = wp2_dgram_of(call, WP2_RES_SOCKETS_OUTGOING_DATAGRAM_STREAM, &args[0]);
    if (!d) return wp2_bad_rep(err, "outgoing-datagram-stream", args[0].v.rep);
    struct pollfd p = {.fd = d->ref.host, .events = POLLOUT};
    d->permit = poll(&p, 1, 0) > 0 && (p.revents & POLLOUT) ? WP2_UDP_SEND_PERMIT : 0;
    return wp2_net_ok_u(call, result, CM_U64, d->permit, "check-send", err);
}

static bool wp2_same_addr(const wasi_sockaddr *a, const wasi_sockaddr *b) {
    if (a->ss.ss_family != b->ss.ss_family) return false;
    if (a->ss.ss_family == AF_INET) {
        const struct sockaddr_in *x = (const void *)&a->ss, *y = (const void *)&b->ss;
        return x->sin_port == y->sin_port && x->sin_addr.s_addr == y->sin_addr.s_addr;
    }
    const struct sockaddr_in6 *x = (const void *)&a->ss, *y = (const void *)&b->ss;
    return x->sin6_port == y->sin6_port &&
           memcmp(&x->sin6_addr, &y->sin6_addr, sizeof x->sin6_addr) == 0;
}

/* The checks of one outgoing datagram's address (udp.wit send): the
   label, or WP2_NET_OK and *to (NULL: the connected peer). */
static uint32_t wp2_dgram_dest(wp2_ctx *x, const wp2_dgram *d, const cm_val *opt,
                               wasi_sockaddr *buf, const wasi_sockaddr **to) {
    *to = NULL;
    if (opt->v.c.index == 0)
        return d->connected ? WP2_NET_OK : WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT;
    if (!wp2_net_addr_in(opt->v.c.payload, buf)) return WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT;
    uint32_t bad = wp2_net_addr_check(buf, d->family, true);
    if (bad != WP2_NET_OK) return bad;
    if (d->connected)
        return wp2_same_addr(buf, &d->remote) ? WP2_NET_OK : WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT;
    if (!wasi_net_permits(x->w, buf)) return WP2_SOCKETS_ERROR_CODE_ACCESS_DENIED;
    *to = buf;
    return WP2_NET_OK;
}

/* send(datagrams): each in turn until one cannot go now or fails; traps
   past check-send's permit (udp.wit); ok(count sent), or the first
   datagram's error when none went. */
weft_status wp2_sockets_outgoing_datagram_stream_send(cm_host_call *call, const cm_val *args,
                                                      cm_val *result, weft_error *err) {
    const char *what = "send";
    wp2_dgram *d = wp2_dgram_of(call, WP2_RES_SOCKETS_OUTGOING_DATAGRAM_STREAM, &args[0]);
    if (!d) return wp2_bad_rep(err, "outgoing-datagram-stream", args[0].v.rep);
    uint32_t n = args[1].n;
    if (n > d->permit)
        return wp2_trap(err, "outgoing-datagram-stream.send of %u datagrams past the %llu "
                             "check-send permitted",
                        n, (unsigned long long)d->permit);
    d->permit -= n;
    if (n == 0) return wp2_net_ok_u(call, result, CM_U64, 0, what, err);
    wp2_ctx *x = wp2_of(call);
    uint8_t *buf = malloc(WP2_UDP_DATAGRAM_MAX);
    if (!buf) return wp2_nomem(err, what);
    uint64_t sent = 0;
    uint32_t code = WP2_NET_OK;
    for (uint32_t i = 0; i < n; i++) {
        const cm_val *dg = &args[1].v.items[i];
        const cm_val *data = &dg->v.items[0];
        wasi_sockaddr tobuf;
        const wasi_sockaddr *to;
        code = wp2_dgram_dest(x, d, &dg->v.items[1], &tobuf, &to);
        if (code != WP2_NET_OK) break;
        if (data->n > WP2_UDP_DATAGRAM_MAX) {
            code = WP2_SOCKETS_ERROR_CODE_DATAGRAM_TOO_LARGE;
            break;
        }
        wp2_get_bytes(data, buf);
        size_t put;
        wasi_errno e = wasi_net_send(d->ref.host, buf, data->n, to, &put);
        if (e == WASI_EAGAIN) break;
        if (e) {
            code = wp2_udp_error(e);
            break;
        }
        sent++;
    }
    free(buf);
    if (code != WP2_NET_OK && sent == 0) return wp2_udp_fail(call, result, code, what, err);
    return wp2_net_ok_u(call, result, CM_U64, sent, what, err);
}

weft_status wp2_sockets_outgoing_datagram_stream_subscribe(cm_host_call *call, const cm_val *args,
                                                           cm_val *result, weft_error *err) {
    wp2_dgram *d = wp2_dgram_of(call, WP2_RES_SOCKETS_OUTGOING_DATAGRAM_STREAM, &args[0]);
    if (!d) return wp2_bad_rep(err, "outgoing-datagram-stream", args[0].v.rep);
    return wp2_net_subscribe(call, WP2_RES_SOCKETS_OUTGOING_DATAGRAM_STREAM, args[0].v.rep,
                             WP2_POLL_FD, d->ref.host, POLLOUT, result, err);
}

static weft_status wp2_dgram_drop(const cm_resource *rt, uint32_t rep, void *env, int res,
                                  weft_error *err) {
    wp2_ctx *x = env;
    wp2_dgram *d = wp2_get(x, res, rep);
    if (!d) return wp2_bad_rep(err, rt->name, rep);
    if (d->children) return wp2_net_children_trap(err, rt->name, d->children);
    wp2_remove(x, res, rep);
    wp2_udp *u = wp2_get(x, WP2_RES_SOCKETS_UDP_SOCKET, d->sock_rep);
    if (u && u->id == d->sock_id && u->streams) u->streams--;
    wasi_fd_release(x->w, &d->ref);
    free(d);
    return WEFT_OK;
}

weft_status wp2_sockets_incoming_datagram_stream_drop(const cm_resource *rt, uint32_t rep,
                                                      void *env, weft_error *err) {
    return wp2_dgram_drop(rt, rep, env, WP2_RES_SOCKETS_INCOMING_DATAGRAM_STREAM, err);
}

weft_status wp2_sockets_outgoing_datagram_stream_drop(const cm_resource *rt, uint32_t rep,
                                                      void *env, weft_error *err) {
    return wp2_dgram_drop(rt, rep, env, WP2_RES_SOCKETS_OUTGOING_DATAGRAM_STREAM, err);
}
