/*
 * sockets.c — wasi:sockets@0.2.12 (../shared/spec/wasi-wit/v0.2.12/
 * proposals/sockets): network, instance-network, ip-name-lookup, and
 * what tcp (sockets_tcp.c) and udp (sockets_udp.c) share: the error-code
 * of a failure, addresses as values, the WIT's address checks, sockets as
 * preview1 fds, pollables, the options both kinds have.
 *
 * There is no socket layer here: every system call is src/wasi/sock.c's
 * (wasi_net_*), which preview1 and weft serve use too, and every wait is
 * a pollable of wasi:io (io.c) that poll parks on like any other. What a
 * socket may reach is weft_wasi_config.net (wasmtime's -S inherit-network,
 * allow-ip-name-lookup, tcp, udp): without inherit-network no address may
 * be bound, connected to, listened on or sent to (access-denied).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "wasip2.h"

/* ---- Errors ---- */

/* network.wit's error-code for each POSIX equivalent it names. */
uint32_t wp2_net_error(wasi_errno e) {
    switch (e) {
    case WASI_EACCES:
    case WASI_EPERM: return WP2_SOCKETS_ERROR_CODE_ACCESS_DENIED;
    case WASI_ENOTSUP:
    case WASI_ENOPROTOOPT:
    case WASI_EPROTONOSUPPORT:
    case WASI_EPROTOTYPE:
    case WASI_EAFNOSUPPORT: return WP2_SOCKETS_ERROR_CODE_NOT_SUPPORTED;
    case WASI_EINVAL: return WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT;
    case WASI_ENOMEM:
    case WASI_ENOBUFS: return WP2_SOCKETS_ERROR_CODE_OUT_OF_MEMORY;
    case WASI_ETIMEDOUT: return WP2_SOCKETS_ERROR_CODE_TIMEOUT;
    case WASI_EALREADY: return WP2_SOCKETS_ERROR_CODE_CONCURRENCY_CONFLICT;
    case WASI_EAGAIN: return WP2_SOCKETS_ERROR_CODE_WOULD_BLOCK;
    case WASI_EISCONN:
    case WASI_ENOTCONN:
    case WASI_EDESTADDRREQ: return WP2_SOCKETS_ERROR_CODE_INVALID_STATE;
    case WASI_EMFILE:
    case WASI_ENFILE: return WP2_SOCKETS_ERROR_CODE_NEW_SOCKET_LIMIT;
    case WASI_EADDRNOTAVAIL: return WP2_SOCKETS_ERROR_CODE_ADDRESS_NOT_BINDABLE;
    case WASI_EADDRINUSE: return WP2_SOCKETS_ERROR_CODE_ADDRESS_IN_USE;
    case WASI_EHOSTUNREACH:
    case WASI_ENETUNREACH:
    case WASI_ENETDOWN: return WP2_SOCKETS_ERROR_CODE_REMOTE_UNREACHABLE;
    case WASI_ECONNREFUSED: return WP2_SOCKETS_ERROR_CODE_CONNECTION_REFUSED;
    case WASI_ECONNRESET: return WP2_SOCKETS_ERROR_CODE_CONNECTION_RESET;
    case WASI_ECONNABORTED: return WP2_SOCKETS_ERROR_CODE_CONNECTION_ABORTED;
    case WASI_EMSGSIZE: return WP2_SOCKETS_ERROR_CODE_DATAGRAM_TOO_LARGE;
    default: return WP2_SOCKETS_ERROR_CODE_UNKNOWN;
    }
}

weft_status wp2_net_fail(const cm_host_call *call, cm_val *result, uint32_t code, const char *what,
                         weft_error *err) {
    if (!wp2_set_err(call, result, CM_ENUM, code)) return wp2_nomem(err, what);
    return WEFT_OK;
}

weft_status wp2_net_ok_u(cm_host_call *call, cm_val *result, cm_kind kind, uint64_t v,
                         const char *what, weft_error *err) {
    cm_val *ok = wp2_vals(call, 1);
    if (!ok) return wp2_nomem(err, what);
    ok->kind = kind;
    if (kind == CM_BOOL) ok->v.b = v != 0;
    else ok->v.u = v;
    wp2_set_ok(result, ok);
    return WEFT_OK;
}

/* ---- Addresses ---- */

int wp2_net_family(uint32_t label) {
    return label == WP2_SOCKETS_IP_ADDRESS_FAMILY_IPV4   ? AF_INET
           : label == WP2_SOCKETS_IP_ADDRESS_FAMILY_IPV6 ? AF_INET6
                                                         : -1;
}

/* ip-socket-address: variant { ipv4(record { port: u16, address:
   tuple<u8 x 4> }), ipv6(record { port: u16, flow-info: u32, address:
   tuple<u16 x 8>, scope-id: u32 }) } (network.wit). */
bool wp2_net_addr_in(const cm_val *v, wasi_sockaddr *out) {
    memset(out, 0, sizeof *out);
    if (v->kind != CM_VARIANT || !v->v.c.payload) return false;
    const cm_val *r = v->v.c.payload;
    if (v->v.c.index == WP2_SOCKETS_IP_SOCKET_ADDRESS_IPV4) {
        if (r->n != 2 || r->v.items[1].n != 4) return false;
        struct sockaddr_in *in = (struct sockaddr_in *)&out->ss;
        in->sin_family = AF_INET;
        in->sin_port = htons((uint16_t)r->v.items[0].v.u);
        uint8_t *b = (uint8_t *)&in->sin_addr;
        for (int i = 0; i < 4; i++) b[i] = (uint8_t)r->v.items[1].v.items[i].v.u;
        out->len = sizeof *in;
        return true;
    }
    if (v->v.c.index == WP2_SOCKETS_IP_SOCKET_ADDRESS_IPV6) {
        if (r->n != 4 || r->v.items[2].n != 8) return false;
        struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&out->ss;
        in6->sin6_family = AF_INET6;
        in6->sin6_port = htons((uint16_t)r->v.items[0].v.u);
        in6->sin6_flowinfo = htonl((uint32_t)r->v.items[1].v.u);
        for (int i = 0; i < 8; i++) {
            uint16_t w = (uint16_t)r->v.items[2].v.items[i].v.u;
            in6->sin6_addr.s6_addr[2 * i] = (uint8_t)(w >> 8);
            in6->sin6_addr.s6_addr[2 * i + 1] = (uint8_t)w;
        }
        in6->sin6_scope_id = (uint32_t)r->v.items[3].v.u;
        out->len = sizeof *in6;
        return true;
    }
    return false;
}

static void wp2_set_uint(cm_val *v, cm_kind kind, uint64_t u) {
    v->kind = kind;
    v->n = 0;
    v->v.u = u;
}

/* An ip-address (with_port false: the tuple inside variant ip-address)
   or ip-socket-address value for `a`. */
static bool wp2_net_value(const cm_host_call *call, const wasi_sockaddr *a, bool with_port,
                          cm_val *out) {
    if (a->ss.ss_family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)&a->ss;
        cm_val *rec = wp2_vals(call, 2), *tup = wp2_vals(call, 4);
        if (!rec || !tup) return false;
        const uint8_t *b = (const uint8_t *)&in->sin_addr;
        for (int i = 0; i < 4; i++) wp2_set_uint(&tup[i], CM_U8, b[i]);
        if (!with_port) {
            rec[0] = (cm_val){.kind = CM_TUPLE, .n = 4, .v.items = tup};
            wp2_set_case(out, CM_VARIANT, WP2_SOCKETS_IP_ADDRESS_IPV4, &rec[0]);
            return true;
        }
        wp2_set_uint(&rec[0], CM_U16, ntohs(in->sin_port));
        rec[1] = (cm_val){.kind = CM_TUPLE, .n = 4, .v.items = tup};
        cm_val *r = wp2_vals(call, 1);
        if (!r) return false;
        *r = (cm_val){.kind = CM_RECORD, .n = 2, .v.items = rec};
        wp2_set_case(out, CM_VARIANT, WP2_SOCKETS_IP_SOCKET_ADDRESS_IPV4, r);
        return true;
    }
    if (a->ss.ss_family == AF_INET6) {
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)&a->ss;
        cm_val *rec = wp2_vals(call, 4), *tup = wp2_vals(call, 8);
        if (!rec || !tup) return false;
        for (int i = 0; i < 8; i++)
            wp2_set_uint(&tup[i], CM_U16,
                         (uint16_t)(in6->sin6_addr.s6_addr[2 * i] << 8 |
                                    in6->sin6_addr.s6_addr[2 * i + 1]));
        if (!with_port) {
            rec[0] = (cm_val){.kind = CM_TUPLE, .n = 8, .v.items = tup};
            wp2_set_case(out, CM_VARIANT, WP2_SOCKETS_IP_ADDRESS_IPV6, &rec[0]);
            return true;
        }
        wp2_set_uint(&rec[0], CM_U16, ntohs(in6->sin6_port));
        wp2_set_uint(&rec[1], CM_U32, ntohl(in6->sin6_flowinfo));
        rec[2] = (cm_val){.kind = CM_TUPLE, .n = 8, .v.items = tup};
        wp2_set_uint(&rec[3], CM_U32, in6->sin6_scope_id);
        cm_val *r = wp2_vals(call, 1);
        if (!r) return false;
        *r = (cm_val){.kind = CM_RECORD, .n = 4, .v.items = rec};
        wp2_set_case(out, CM_VARIANT, WP2_SOCKETS_IP_SOCKET_ADDRESS_IPV6, r);
        return true;
    }
    return false;
}

bool wp2_net_addr_out(const cm_host_call *call, const wasi_sockaddr *a, cm_val *out) {
    return wp2_net_value(call, a, true, out);
}

/* tcp.wit start-bind / start-connect and udp.wit's "Typical errors":
   invalid-argument for the wrong family, a multicast or broadcast address,
   an IPv4-mapped IPv6 address; wasmtime also refuses the deprecated
   IPv4-compatible form (::a.b.c.d other than :: and ::1), whose handling
   differs between systems. For a remote address, also the unspecified
   address and port 0. */
uint32_t wp2_net_addr_check(const wasi_sockaddr *a, int family, bool remote) {
    const uint32_t bad = WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT;
    if (a->ss.ss_family != family) return bad;
    if (family == AF_INET) {
        const struct sockaddr_in *in = (const struct sockaddr_in *)&a->ss;
        uint32_t ip = ntohl(in->sin_addr.s_addr);
        if ((ip >> 28) == 0xe || ip == 0xffffffffu) return bad;
        if (remote && (ip == 0 || in->sin_port == 0)) return bad;
        return WP2_NET_OK;
    }
    const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)&a->ss;
    const struct in6_addr *ip = &in6->sin6_addr;
    if (IN6_IS_ADDR_MULTICAST(ip) || IN6_IS_ADDR_V4MAPPED(ip)) return bad;
    static const uint8_t zero12[12];
    if (memcmp(ip->s6_addr, zero12, 12) == 0 && !IN6_IS_ADDR_UNSPECIFIED(ip) &&
        !IN6_IS_ADDR_LOOPBACK(ip))
        return bad; /* IPv4-compatible */
    if (remote && (IN6_IS_ADDR_UNSPECIFIED(ip) || in6->sin6_port == 0)) return bad;
    return WP2_NET_OK;
}

/* ---- Sockets as preview1 fds ---- */

wasi_errno wp2_net_adopt(wp2_ctx *x, int host, bool stream, uint32_t *fd, wasi_ref *ref) {
    wasi_errno e = wasi_fd_insert(x->w, host,
                                  stream ? WASI_FILETYPE_SOCKET_STREAM : WASI_FILETYPE_SOCKET_DGRAM,
                                  0, WASI_RIGHTS_SOCKET, 0, 0, fd);
    if (e) return e; /* host closed by wasi_fd_insert */
    e = wasi_fd_acquire(x->w, *fd, 0, ref);
    if (e) {
        wasi_call c = {.w = x->w, .status = WEFT_OK};
        weft_val a[] = {{.type = WEFT_I32, .of.i32 = (int32_t)*fd}};
        wasi_fd_close(&c, a);
    }
    return e;
}

void wp2_net_close(wp2_ctx *x, uint32_t fd, wasi_ref *ref) {
    wasi_fd_release(x->w, ref);
    wasi_call c = {.w = x->w, .status = WEFT_OK};
    weft_val a[] = {{.type = WEFT_I32, .of.i32 = (int32_t)fd}};
    wasi_fd_close(&c, a);
}

weft_status wp2_net_subscribe(cm_host_call *call, int res, uint32_t rep, int kind, int host,
                              short events, cm_val *result, weft_error *err) {
    wp2_pollable p = {.kind = kind, .host = host, .events = events, .parent_res = res,
                      .parent_rep = rep};
    uint32_t prep = wp2_pollable_new(wp2_of(call), &p);
    if (!prep) return wp2_nomem(err, "subscribe");
    wp2_set_handle(result, CM_OWN, prep);
    return WEFT_OK;
}

weft_status wp2_net_children_trap(weft_error *err, const char *what, uint32_t n) {
    return wp2_trap(err, "%s dropped while %u pollable%s made by its subscribe %s live", what, n,
                    n == 1 ? "" : "s", n == 1 ? "is" : "are");
}

/* ---- Options both kinds have ---- */

/* receive-buffer-size / send-buffer-size (SO_RCVBUF / SO_SNDBUF): 0 is
   invalid-argument; a value past INT_MAX is clamped (tcp.wit: "might be
   silently clamped"); Linux doubles what it is given and reports the
   double, so the value read is halved, as wasmtime does, to give back
   about what was set. */
weft_status wp2_net_buffer_size(cm_host_call *call, int host, bool set, bool rcv,
                                const cm_val *value, cm_val *result, weft_error *err) {
    const char *what = rcv ? "receive-buffer-size" : "send-buffer-size";
    int name = rcv ? SO_RCVBUF : SO_SNDBUF;
    wasi_errno e;
    if (set) {
        uint64_t v = value->v.u;
        if (v == 0)
            return wp2_net_fail(call, result, WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT, what, err);
        if (v > INT32_MAX) v = INT32_MAX;
        e = wasi_net_setopt(host, SOL_SOCKET, name, (int)v);
        if (e) return wp2_net_fail(call, result, wp2_net_error(e), what, err);
        wp2_set_ok(result, NULL);
        return WEFT_OK;
    }
    int v;
    e = wasi_net_getopt(host, SOL_SOCKET, name, &v);
    if (e) return wp2_net_fail(call, result, wp2_net_error(e), what, err);
    return wp2_net_ok_u(call, result, CM_U64, (uint64_t)(v > 0 ? v / 2 : 0), what, err);
}

/* hop-limit / unicast-hop-limit: IP_TTL or IPV6_UNICAST_HOPS; 0 is
   invalid-argument. */
weft_status wp2_net_hop_limit(cm_host_call *call, int host, int family, bool set,
                              const cm_val *value, cm_val *result, weft_error *err) {
    int level = family == AF_INET ? IPPROTO_IP : IPPROTO_IPV6;
    int name = family == AF_INET ? IP_TTL : IPV6_UNICAST_HOPS;
    wasi_errno e;
    if (set) {
        if (value->v.u == 0)
            return wp2_net_fail(call, result, WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT,
                                "hop-limit", err);
        e = wasi_net_setopt(host, level, name, (int)value->v.u);
        if (e) return wp2_net_fail(call, result, wp2_net_error(e), "hop-limit", err);
        wp2_set_ok(result, NULL);
        return WEFT_OK;
    }
    int v;
    e = wasi_net_getopt(host, level, name, &v);
    if (e) return wp2_net_fail(call, result, wp2_net_error(e), "hop-limit", err);
    if (v < 1 || v > 255) return wp2_net_fail(call, result, WP2_SOCKETS_ERROR_CODE_NOT_SUPPORTED,
                                              "hop-limit", err);
    return wp2_net_ok_u(call, result, CM_U8, (uint64_t)v, "hop-limit", err);
}

/* ---- network, instance-network ---- */

weft_status wp2_sockets_instance_network_instance_network(cm_host_call *call, const cm_val *args,
                                                          cm_val *result, weft_error *err) {
    (void)args;
    wp2_network *n = calloc(1, sizeof *n);
    uint32_t rep = wp2_add(wp2_of(call), WP2_RES_SOCKETS_NETWORK, n);
    if (!rep) return wp2_nomem(err, "instance-network");
    wp2_set_handle(result, CM_OWN, rep);
    return WEFT_OK;
}

weft_status wp2_sockets_network_drop(const cm_resource *rt, uint32_t rep, void *env,
                                     weft_error *err) {
    wp2_network *n = wp2_remove(env, WP2_RES_SOCKETS_NETWORK, rep);
    if (!n) return wp2_bad_rep(err, rt->name, rep);
    free(n);
    return WEFT_OK;
}

/* ---- ip-name-lookup ---- */

/* Whether `name` (len bytes) is a name resolve-addresses takes: an IP
   address (an IPv6 one may be in brackets), or a DNS name of ASCII
   letters, digits, '-', '_' and '.', in labels of 1 to 63 bytes, at
   most 253 bytes. Unicode names would need IDNA (ip-name-lookup.wit),
   which weft does not do: they are invalid-argument. The name to give
   getaddrinfo goes to buf (NUL-terminated). */
static bool wp2_lookup_name(const char *name, size_t len, char *buf, size_t cap) {
    if (len >= 2 && name[0] == '[' && name[len - 1] == ']') {
        name++;
        len -= 2;
        if (len == 0 || len >= cap) return false;
        memcpy(buf, name, len);
        buf[len] = '\0';
        struct in6_addr a6;
        return inet_pton(AF_INET6, buf, &a6) == 1;
    }
    if (len == 0 || len >= cap) return false;
    memcpy(buf, name, len);
    buf[len] = '\0';
    struct in6_addr a6;
    if (inet_pton(AF_INET6, buf, &a6) == 1) return true;
    if (len > 253) return false;
    size_t label = 0;
    for (size_t i = 0; i < len; i++) {
        char ch = name[i];
        if (ch == '.') {
            if (label == 0) return false;
            label = 0;
            continue;
        }
        bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
                  ch == '-' || ch == '_';
        if (!ok || ++label > 63) return false;
    }
    return true;
}

weft_status wp2_sockets_ip_name_lookup_resolve_addresses(cm_host_call *call, const cm_val *args,
                                                         cm_val *result, weft_error *err) {
    const char *what = "resolve-addresses";
    wp2_ctx *x = wp2_of(call);
    if (!wp2_get(x, WP2_RES_SOCKETS_NETWORK, args[0].v.rep))
        return wp2_bad_rep(err, "network", args[0].v.rep);
    if (!(x->w->net & WEFT_WASI_NET_NAME_LOOKUP))
        return wp2_net_fail(call, result, WP2_SOCKETS_ERROR_CODE_ACCESS_DENIED, what, err);
    char name[256];
    if (!wp2_lookup_name(args[1].v.str, args[1].n, name, sizeof name))
        return wp2_net_fail(call, result, WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT, what, err);
    wp2_resolve *r = calloc(1, sizeof *r);
    if (!r) return wp2_nomem(err, what);
    wasi_errno e = wasi_net_lookup_start(x->w, name, &r->lookup);
    if (e) {
        free(r);
        /* EAGAIN: as many lookups run as one context may have */
        return wp2_net_fail(call, result,
                            e == WASI_EAGAIN ? WP2_SOCKETS_ERROR_CODE_TEMPORARY_RESOLVER_FAILURE
                                             : wp2_net_error(e),
                            what, err);
    }
    uint32_t rep = wp2_add(x, WP2_RES_SOCKETS_RESOLVE_ADDRESS_STREAM, r);
    if (!rep) {
        wasi_net_lookup_free(r->lookup);
        return wp2_nomem(err, what);
    }
    cm_val *ok = wp2_vals(call, 1);
    if (!ok) return wp2_nomem(err, what);
    wp2_set_handle(ok, CM_OWN, rep);
    wp2_set_ok(result, ok);
    return WEFT_OK;
}

/* ip-name-lookup.wit's errors for getaddrinfo's. */
static uint32_t wp2_gai_error(int gai) {
    switch (gai) {
    case EAI_NONAME:
#ifdef EAI_NODATA
    case EAI_NODATA:
#endif
#ifdef EAI_ADDRFAMILY
    case EAI_ADDRFAMILY:
#endif
        return WP2_SOCKETS_ERROR_CODE_NAME_UNRESOLVABLE;
    case EAI_AGAIN: return WP2_SOCKETS_ERROR_CODE_TEMPORARY_RESOLVER_FAILURE;
    case EAI_MEMORY: return WP2_SOCKETS_ERROR_CODE_OUT_OF_MEMORY;
    default: return WP2_SOCKETS_ERROR_CODE_PERMANENT_RESOLVER_FAILURE;
    }
}

/* resolve-next-address: func() -> result<option<ip-address>, error-code>:
   would-block until the answer is there; then each address in turn (an
   IPv4-mapped IPv6 one as the IPv4 address: never mapped, the WIT says),
   then none. */
weft_status wp2_sockets_resolve_address_stream_resolve_next_address(cm_host_call *call,
                                                                    const cm_val *args,
                                                                    cm_val *result,
                                                                    weft_error *err) {
    const char *what = "resolve-next-address";
    wp2_resolve *r = wp2_get(wp2_of(call), WP2_RES_SOCKETS_RESOLVE_ADDRESS_STREAM, args[0].v.rep);
    if (!r) return wp2_bad_rep(err, "resolve-address-stream", args[0].v.rep);
    const wasi_sockaddr *addrs;
    size_t n;
    int gai;
    wasi_errno e = wasi_net_lookup_result(r->lookup, &addrs, &n, &gai);
    if (e) return wp2_net_fail(call, result, WP2_SOCKETS_ERROR_CODE_WOULD_BLOCK, what, err);
    if (gai) return wp2_net_fail(call, result, wp2_gai_error(gai), what, err);
    cm_val *opt = wp2_vals(call, 2);
    if (!opt) return wp2_nomem(err, what);
    if (r->next >= n) {
        wp2_set_case(&opt[0], CM_OPTION, 0, NULL);
    } else {
        wasi_sockaddr a = addrs[r->next++];
        const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)&a.ss;
        if (a.ss.ss_family == AF_INET6 && IN6_IS_ADDR_V4MAPPED(&in6->sin6_addr)) {
            struct sockaddr_in in = {.sin_family = AF_INET};
            memcpy(&in.sin_addr, &in6->sin6_addr.s6_addr[12], 4);
            memset(&a, 0, sizeof a);
            memcpy(&a.ss, &in, sizeof in);
            a.len = sizeof in;
        }
        if (!wp2_net_value(call, &a, false, &opt[1])) return wp2_nomem(err, what);
        wp2_set_case(&opt[0], CM_OPTION, 1, &opt[1]);
    }
    wp2_set_ok(result, &opt[0]);
    return WEFT_OK;
}

/* subscribe: ready once the answer is there (the lookup's pipe). */
weft_status wp2_sockets_resolve_address_stream_subscribe(cm_host_call *call, const cm_val *args,
                                                         cm_val *result, weft_error *err) {
    wp2_resolve *r = wp2_get(wp2_of(call), WP2_RES_SOCKETS_RESOLVE_ADDRESS_STREAM, args[0].v.rep);
    if (!r) return wp2_bad_rep(err, "resolve-address-stream", args[0].v.rep);
    return wp2_net_subscribe(call, WP2_RES_SOCKETS_RESOLVE_ADDRESS_STREAM, args[0].v.rep,
                             WP2_POLL_FD, wasi_net_lookup_fd(r->lookup), POLLIN, result, err);
}

weft_status wp2_sockets_resolve_address_stream_drop(const cm_resource *rt, uint32_t rep, void *env,
                                                    weft_error *err) {
    wp2_resolve *r = wp2_get(env, WP2_RES_SOCKETS_RESOLVE_ADDRESS_STREAM, rep);
    if (!r) return wp2_bad_rep(err, rt->name, rep);
    if (r->children) return wp2_net_children_trap(err, rt->name, r->children);
    wp2_remove(env, WP2_RES_SOCKETS_RESOLVE_ADDRESS_STREAM, rep);
    wasi_net_lookup_free(r->lookup);
    free(r);
    return WEFT_OK;
}
