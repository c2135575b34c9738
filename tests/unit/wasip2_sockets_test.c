/*
 * wasip2_sockets_test.c — wasi:sockets@0.2.12 (src/wasip2/sockets*.c)
 * called as the component linker calls it: lifted values in an arena,
 * each result checked against the function's declared type and against
 * what tcp.wit, udp.wit, ip-name-lookup.wit and network.wit say. On
 * loopback: a TCP echo between a listening and a connecting socket (their
 * streams are wasi:io streams, waited on with wasi:io/poll), UDP
 * datagrams both ways, name lookup of localhost; each error path with
 * the WIT's code (access-denied without inherit-network, invalid-state,
 * not-in-progress, concurrency-conflict, address-in-use,
 * connection-refused, would-block, invalid-argument) and each trap.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <unistd.h>

#include "check.h"
#include "wasip2/wasip2.h"

static wp2_ctx *X;
static cm_arena A;
static weft_error E;

#define TCP "wasi:sockets/tcp@0.2.12"
#define UDP "wasi:sockets/udp@0.2.12"
#define IO "wasi:io/streams@0.2.12"
#define POLL "wasi:io/poll@0.2.12"
#define LOOKUP "wasi:sockets/ip-name-lookup@0.2.12"

/* ---- Calling (as wasip2_test.c) ---- */

static const cm_host_func *find(const char *iface, const char *fn) {
    const cm_host_instance *in = wp2_ctx_instance(X, iface);
    CHECK(in, "no host instance %s", iface);
    for (uint32_t i = 0; i < in->nfuncs; i++)
        if (strcmp(in->funcs[i].name, fn) == 0) return &in->funcs[i];
    CHECK(0, "no %s in %s", fn, iface);
    return NULL;
}

static bool of_type(const cm_valtype *t, const cm_val *v) {
    if (!t || !v || v->kind != t->kind) return false;
    switch (t->kind) {
    case CM_RECORD:
        if (v->n != t->n) return false;
        for (uint32_t i = 0; i < t->n; i++)
            if (!of_type(t->fields[i].type, &v->v.items[i])) return false;
        return true;
    case CM_TUPLE:
        if (v->n != t->n) return false;
        for (uint32_t i = 0; i < t->n; i++)
            if (!of_type(t->members[i], &v->v.items[i])) return false;
        return true;
    case CM_LIST:
        for (uint32_t i = 0; i < v->n; i++)
            if (!of_type(t->elem, &v->v.items[i])) return false;
        return true;
    case CM_VARIANT:
        if (v->v.c.index >= t->n) return false;
        return t->fields[v->v.c.index].type ? of_type(t->fields[v->v.c.index].type, v->v.c.payload)
                                            : v->v.c.payload == NULL;
    case CM_ENUM: return v->v.c.index < t->n;
    case CM_OPTION:
        if (v->v.c.index > 1) return false;
        return v->v.c.index ? of_type(t->elem, v->v.c.payload) : v->v.c.payload == NULL;
    case CM_RESULT: {
        if (v->v.c.index > 1) return false;
        const cm_valtype *p = v->v.c.index ? t->elem2 : t->elem;
        return p ? of_type(p, v->v.c.payload) : v->v.c.payload == NULL;
    }
    case CM_OWN:
    case CM_BORROW: return v->v.rep != 0;
    default: return true;
    }
}

static weft_status call(const char *iface, const char *fn, const cm_val *args, uint32_t nargs,
                        cm_val *result) {
    const cm_host_func *f = find(iface, fn);
    CHECK(f->type->nparams == nargs, "%s takes %u arguments, the test gave %u", fn,
          f->type->nparams, nargs);
    for (uint32_t i = 0; i < nargs; i++)
        CHECK(of_type(f->type->params[i].type, &args[i]), "%s: argument %u of the wrong shape", fn, i);
    cm_host_call c = {&A, NULL, X, f};
    memset(result, 0, sizeof *result);
    memset(&E, 0, sizeof E);
    weft_status st = f->fn(&c, args, result, &E);
    if (st == WEFT_OK && f->type->result)
        EXPECTF(of_type(f->type->result, result), "%s: result is not of its declared type", fn);
    return st;
}

static weft_status drop(int res, uint32_t rep) {
    memset(&E, 0, sizeof E);
    return X->res[res].dtor(&X->res[res], rep, X->res[res].dtor_env, &E);
}

/* ---- Values ---- */

static cm_val V_borrow(uint32_t rep) { return (cm_val){.kind = CM_BORROW, .v.rep = rep}; }
static cm_val V_uint(cm_kind k, uint64_t u) { return (cm_val){.kind = k, .v.u = u}; }
static cm_val V_bool(bool b) { return (cm_val){.kind = CM_BOOL, .v.b = b}; }
static cm_val V_case(cm_kind k, uint32_t i, cm_val *p) {
    return (cm_val){.kind = k, .v.c = {.index = i, .payload = p}};
}
static cm_val *arena_vals(uint32_t n) {
    cm_val *v = cm_arena_alloc(&A, n * sizeof *v, 8);
    memset(v, 0, n * sizeof *v);
    return v;
}
static cm_val V_str(const char *s) {
    return (cm_val){.kind = CM_STRING, .n = (uint32_t)strlen(s), .v.str = s};
}
static cm_val V_bytes(const char *s, size_t n) {
    cm_val *items = arena_vals((uint32_t)(n ? n : 1));
    for (size_t i = 0; i < n; i++) items[i] = V_uint(CM_U8, (uint8_t)s[i]);
    return (cm_val){.kind = CM_LIST, .n = (uint32_t)n, .v.items = items};
}
/* ip-socket-address ipv4(a.b.c.d:port) */
static cm_val V_v4(uint8_t a, uint8_t b, uint8_t c, uint8_t d, uint16_t port) {
    cm_val *rec = arena_vals(2), *tup = arena_vals(4), *r = arena_vals(1);
    uint8_t o[4] = {a, b, c, d};
    for (int i = 0; i < 4; i++) tup[i] = V_uint(CM_U8, o[i]);
    rec[0] = V_uint(CM_U16, port);
    rec[1] = (cm_val){.kind = CM_TUPLE, .n = 4, .v.items = tup};
    *r = (cm_val){.kind = CM_RECORD, .n = 2, .v.items = rec};
    return V_case(CM_VARIANT, WP2_SOCKETS_IP_SOCKET_ADDRESS_IPV4, r);
}
/* ip-socket-address ipv6 with the eight groups g and port */
static cm_val V_v6(const uint16_t g[8], uint16_t port) {
    cm_val *rec = arena_vals(4), *tup = arena_vals(8), *r = arena_vals(1);
    for (int i = 0; i < 8; i++) tup[i] = V_uint(CM_U16, g[i]);
    rec[0] = V_uint(CM_U16, port);
    rec[1] = V_uint(CM_U32, 0);
    rec[2] = (cm_val){.kind = CM_TUPLE, .n = 8, .v.items = tup};
    rec[3] = V_uint(CM_U32, 0);
    *r = (cm_val){.kind = CM_RECORD, .n = 4, .v.items = rec};
    return V_case(CM_VARIANT, WP2_SOCKETS_IP_SOCKET_ADDRESS_IPV6, r);
}
static uint16_t port_of(const cm_val *addr) { return (uint16_t)addr->v.c.payload->v.items[0].v.u; }

static bool is_ok(const cm_val *r) { return r->kind == CM_RESULT && r->v.c.index == 0; }
static int code_of(const cm_val *r) {
    return r->kind == CM_RESULT && r->v.c.index == 1 ? (int)r->v.c.payload->v.c.index : -1;
}
#define EXPECT_CODE(r, code) EXPECTF(code_of(r) == (code), "expected error-code %d, got %d", (code), code_of(r))
static bool is_ok_v(cm_val v) { return is_ok(&v); }
#define EXPECT_CODE_V(v, code)                                                         \
    do {                                                                               \
        cm_val v_ = (v);                                                               \
        EXPECT_CODE(&v_, code);                                                        \
    } while (0)

/* ---- Helpers ---- */

static uint32_t network(void) {
    cm_val r;
    CHECK(call("wasi:sockets/instance-network@0.2.12", "instance-network", NULL, 0, &r) == WEFT_OK &&
              r.kind == CM_OWN,
          "instance-network");
    return r.v.rep;
}

static cm_val create(bool tcp, uint32_t family) {
    cm_val a = V_case(CM_ENUM, family, NULL), r;
    CHECK(call(tcp ? "wasi:sockets/tcp-create-socket@0.2.12" : "wasi:sockets/udp-create-socket@0.2.12",
               tcp ? "create-tcp-socket" : "create-udp-socket", &a, 1, &r) == WEFT_OK,
          "create");
    return r;
}

static uint32_t tcp_new(void) {
    cm_val r = create(true, WP2_SOCKETS_IP_ADDRESS_FAMILY_IPV4);
    CHECK(is_ok(&r), "create-tcp-socket: error %d", code_of(&r));
    return r.v.c.payload->v.rep;
}

static uint32_t udp_new(void) {
    cm_val r = create(false, WP2_SOCKETS_IP_ADDRESS_FAMILY_IPV4);
    CHECK(is_ok(&r), "create-udp-socket: error %d", code_of(&r));
    return r.v.c.payload->v.rep;
}

/* A method of tcp-socket / udp-socket with the socket and `n` more args. */
static cm_val m(const char *iface, const char *res, const char *fn, uint32_t sock, const cm_val *more,
                uint32_t n) {
    cm_val args[4] = {V_borrow(sock)};
    for (uint32_t i = 0; i < n; i++) args[1 + i] = more[i];
    char name[96];
    snprintf(name, sizeof name, "[method]%s.%s", res, fn);
    cm_val r;
    weft_status st = call(iface, name, args, 1 + n, &r);
    EXPECTF(st == WEFT_OK, "%s: status %d (%s)", name, st, E.message);
    return r;
}
#define T(fn, s, ...) m(TCP, "tcp-socket", fn, s, (cm_val[]){__VA_ARGS__}, \
                        sizeof((cm_val[]){__VA_ARGS__}) / sizeof(cm_val))
#define T0(fn, s) m(TCP, "tcp-socket", fn, s, NULL, 0)
#define U(fn, s, ...) m(UDP, "udp-socket", fn, s, (cm_val[]){__VA_ARGS__}, \
                        sizeof((cm_val[]){__VA_ARGS__}) / sizeof(cm_val))
#define U0(fn, s) m(UDP, "udp-socket", fn, s, NULL, 0)

/* Blocks on a pollable (wasi:io/poll poll, which waits through the
   blocker), then drops it. */
static void wait_on(uint32_t pollable) {
    cm_val item = V_borrow(pollable);
    cm_val list = {.kind = CM_LIST, .n = 1, .v.items = &item}, r;
    EXPECT(call(POLL, "poll", &list, 1, &r) == WEFT_OK && r.n == 1);
    EXPECT(drop(WP2_RES_IO_POLLABLE, pollable) == WEFT_OK);
}

static uint32_t subscribe(const char *iface, const char *res, uint32_t rep) {
    cm_val r = m(iface, res, "subscribe", rep, NULL, 0);
    CHECK(r.kind == CM_OWN, "subscribe");
    return r.v.rep;
}

/* start-bind + finish-bind to 127.0.0.1:port; the bound port. */
static uint16_t bind4(bool tcp, uint32_t s, uint32_t net, uint16_t port) {
    cm_val r = tcp ? T("start-bind", s, V_borrow(net), V_v4(127, 0, 0, 1, port))
                   : U("start-bind", s, V_borrow(net), V_v4(127, 0, 0, 1, port));
    CHECK(is_ok(&r), "start-bind: error %d", code_of(&r));
    r = tcp ? T0("finish-bind", s) : U0("finish-bind", s);
    CHECK(is_ok(&r), "finish-bind");
    r = tcp ? T0("local-address", s) : U0("local-address", s);
    CHECK(is_ok(&r), "local-address");
    return port_of(r.v.c.payload);
}

static void write_all(uint32_t out, const char *s) {
    cm_val a[2] = {V_borrow(out)}, r;
    EXPECT(call(IO, "[method]output-stream.check-write", a, 1, &r) == WEFT_OK && is_ok(&r) &&
           r.v.c.payload->v.u >= strlen(s));
    a[1] = V_bytes(s, strlen(s));
    EXPECT(call(IO, "[method]output-stream.write", a, 2, &r) == WEFT_OK && is_ok(&r));
}

/* Reads from a stream until `want` bytes came or it closed (waiting on its
   pollable); the bytes in buf. */
static size_t read_some(uint32_t in, char *buf, size_t want, bool *closed) {
    size_t got = 0;
    *closed = false;
    for (int i = 0; i < 100 && got < want; i++) {
        wait_on(subscribe(IO, "input-stream", in));
        cm_val a[2] = {V_borrow(in), V_uint(CM_U64, want - got)}, r;
        EXPECT(call(IO, "[method]input-stream.read", a, 2, &r) == WEFT_OK);
        if (!is_ok(&r)) {
            *closed = r.v.c.payload->v.c.index == WP2_IO_STREAM_ERROR_CLOSED;
            break;
        }
        for (uint32_t k = 0; k < r.v.c.payload->n; k++) buf[got++] = (char)r.v.c.payload->v.items[k].v.u;
    }
    return got;
}

/* ---- TCP ---- */

static void test_tcp(void) {
    uint32_t net = network();
    uint32_t l = tcp_new();
    cm_val r = T0("address-family", l);
    EXPECT(r.kind == CM_ENUM && r.v.c.index == WP2_SOCKETS_IP_ADDRESS_FAMILY_IPV4);
    /* before bind: no local address, not listening, listen refused */
    EXPECT_CODE_V((r = T0("local-address", l)), WP2_SOCKETS_ERROR_CODE_INVALID_STATE);
    EXPECT_CODE_V((r = T0("start-listen", l)), WP2_SOCKETS_ERROR_CODE_INVALID_STATE);
    EXPECT_CODE_V((r = T0("finish-bind", l)), WP2_SOCKETS_ERROR_CODE_NOT_IN_PROGRESS);
    /* the WIT's address checks */
    EXPECT_CODE_V((r = T("start-bind", l, V_borrow(net), V_v4(224, 0, 0, 1, 0))),
                WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT); /* multicast */
    EXPECT_CODE_V((r = T("start-bind", l, V_borrow(net), V_v4(255, 255, 255, 255, 0))),
                WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT); /* broadcast */
    static const uint16_t lo6[8] = {0, 0, 0, 0, 0, 0, 0, 1};
    EXPECT_CODE_V((r = T("start-bind", l, V_borrow(net), V_v6(lo6, 0))),
                WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT); /* family */
    /* bind in two steps; a second start-bind is concurrency-conflict, then
       invalid-state once bound */
    r = T("start-bind", l, V_borrow(net), V_v4(127, 0, 0, 1, 0));
    EXPECT(is_ok(&r));
    EXPECT_CODE_V((r = T("start-bind", l, V_borrow(net), V_v4(127, 0, 0, 1, 0))),
                WP2_SOCKETS_ERROR_CODE_CONCURRENCY_CONFLICT);
    EXPECT(is_ok_v((r = T0("finish-bind", l))));
    EXPECT_CODE_V((r = T0("finish-bind", l)), WP2_SOCKETS_ERROR_CODE_NOT_IN_PROGRESS);
    EXPECT_CODE_V((r = T("start-bind", l, V_borrow(net), V_v4(127, 0, 0, 1, 0))),
                WP2_SOCKETS_ERROR_CODE_INVALID_STATE);
    r = T0("local-address", l);
    EXPECT(is_ok(&r));
    uint16_t port = port_of(r.v.c.payload);
    EXPECT(port != 0);
    EXPECT_CODE_V((r = T("set-listen-backlog-size", l, V_uint(CM_U64, 0))),
                WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT);
    EXPECT(is_ok_v((r = T("set-listen-backlog-size", l, V_uint(CM_U64, UINT64_MAX))))); /* clamped */
    EXPECT(is_ok_v((r = T0("start-listen", l))));
    EXPECT_CODE_V((r = T0("start-listen", l)), WP2_SOCKETS_ERROR_CODE_CONCURRENCY_CONFLICT);
    EXPECT(is_ok_v((r = T0("finish-listen", l))));
    EXPECT_CODE_V((r = T0("finish-listen", l)), WP2_SOCKETS_ERROR_CODE_NOT_IN_PROGRESS);
    EXPECT((r = T0("is-listening", l)).v.b);
    EXPECT(is_ok_v((r = T("set-listen-backlog-size", l, V_uint(CM_U64, 16)))));
    EXPECT_CODE_V((r = T0("accept", l)), WP2_SOCKETS_ERROR_CODE_WOULD_BLOCK);
    EXPECT_CODE_V((r = T0("remote-address", l)), WP2_SOCKETS_ERROR_CODE_INVALID_STATE);
    EXPECT_CODE_V((r = T("start-connect", l, V_borrow(net), V_v4(127, 0, 0, 1, port))),
                WP2_SOCKETS_ERROR_CODE_INVALID_STATE);

    /* the same port again: address-in-use */
    uint32_t d = tcp_new();
    EXPECT_CODE_V((r = T("start-bind", d, V_borrow(net), V_v4(127, 0, 0, 1, port))),
                WP2_SOCKETS_ERROR_CODE_ADDRESS_IN_USE);
    EXPECT(drop(WP2_RES_SOCKETS_TCP_SOCKET, d) == WEFT_OK);

    /* connect: remote address checks, then the connection */
    uint32_t c = tcp_new();
    EXPECT_CODE_V((r = T("start-connect", c, V_borrow(net), V_v4(0, 0, 0, 0, port))),
                WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT); /* unspecified */
    EXPECT_CODE_V((r = T("start-connect", c, V_borrow(net), V_v4(127, 0, 0, 1, 0))),
                WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT); /* port 0 */
    EXPECT_CODE_V((r = T0("finish-connect", c)), WP2_SOCKETS_ERROR_CODE_NOT_IN_PROGRESS);
    EXPECT(is_ok_v((r = T("start-connect", c, V_borrow(net), V_v4(127, 0, 0, 1, port)))));
    EXPECT_CODE_V((r = T("start-connect", c, V_borrow(net), V_v4(127, 0, 0, 1, port))),
                WP2_SOCKETS_ERROR_CODE_CONCURRENCY_CONFLICT);
    EXPECT_CODE_V((r = T0("start-listen", c)), WP2_SOCKETS_ERROR_CODE_CONCURRENCY_CONFLICT);
    uint32_t cp = subscribe(TCP, "tcp-socket", c);
    /* a socket with a live pollable cannot be dropped */
    EXPECT(drop(WP2_RES_SOCKETS_TCP_SOCKET, c) == WEFT_ERR_TRAP && strstr(E.message, "pollable"));
    cm_val fc;
    for (int i = 0; i < 100; i++) {
        fc = T0("finish-connect", c);
        if (code_of(&fc) != WP2_SOCKETS_ERROR_CODE_WOULD_BLOCK) break;
        wait_on(subscribe(TCP, "tcp-socket", c));
    }
    EXPECT(drop(WP2_RES_IO_POLLABLE, cp) == WEFT_OK);
    CHECK(is_ok(&fc), "finish-connect: error %d", code_of(&fc));
    uint32_t cin = fc.v.c.payload->v.items[0].v.rep, cout = fc.v.c.payload->v.items[1].v.rep;
    EXPECT_CODE_V((r = T0("finish-connect", c)), WP2_SOCKETS_ERROR_CODE_NOT_IN_PROGRESS);
    EXPECT_CODE_V((r = T("start-connect", c, V_borrow(net), V_v4(127, 0, 0, 1, port))),
                WP2_SOCKETS_ERROR_CODE_INVALID_STATE);
    EXPECT_CODE_V((r = T0("start-listen", c)), WP2_SOCKETS_ERROR_CODE_INVALID_STATE);
    EXPECT_CODE_V((r = T("set-listen-backlog-size", c, V_uint(CM_U64, 4))),
                WP2_SOCKETS_ERROR_CODE_INVALID_STATE);
    EXPECT(is_ok_v((r = T0("remote-address", c))) && port_of(r.v.c.payload) == port);
    EXPECT(!(r = T0("is-listening", c)).v.b);

    /* accept, once the listener's pollable says a connection is pending */
    wait_on(subscribe(TCP, "tcp-socket", l));
    cm_val ac = T0("accept", l);
    CHECK(is_ok(&ac), "accept: error %d", code_of(&ac));
    uint32_t s = ac.v.c.payload->v.items[0].v.rep, sin = ac.v.c.payload->v.items[1].v.rep,
             sout = ac.v.c.payload->v.items[2].v.rep;
    EXPECT(is_ok_v((r = T0("local-address", s))) && port_of(r.v.c.payload) == port);
    r = T0("local-address", c);
    uint16_t cport = port_of(r.v.c.payload);
    EXPECT(is_ok_v((r = T0("remote-address", s))) && port_of(r.v.c.payload) == cport);
    EXPECT_CODE_V((r = T0("accept", l)), WP2_SOCKETS_ERROR_CODE_WOULD_BLOCK);

    /* the echo: client -> server -> client */
    char buf[64];
    bool closed;
    write_all(cout, "hello, weft");
    EXPECT(read_some(sin, buf, 11, &closed) == 11 && memcmp(buf, "hello, weft", 11) == 0);
    write_all(sout, "hello, weft");
    EXPECT(read_some(cin, buf, 11, &closed) == 11 && memcmp(buf, "hello, weft", 11) == 0);
    /* shutdown(send): the server's input ends; idempotent */
    cm_val how = V_case(CM_ENUM, WP2_SOCKETS_SHUTDOWN_TYPE_SEND, NULL);
    EXPECT(is_ok_v((r = T("shutdown", c, how))));
    EXPECT(is_ok_v((r = T("shutdown", c, how))));
    EXPECT(read_some(sin, buf, 1, &closed) == 0 && closed);
    EXPECT_CODE_V((r = T("shutdown", l, how)), WP2_SOCKETS_ERROR_CODE_INVALID_STATE);

    /* options, with the WIT's validation and clamping */
    EXPECT_CODE_V((r = T("set-keep-alive-count", c, V_uint(CM_U32, 0))),
                WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT);
    EXPECT(is_ok_v((r = T("set-keep-alive-count", c, V_uint(CM_U32, 1000)))));
    EXPECT(is_ok_v((r = T0("keep-alive-count", c))) && r.v.c.payload->v.u == 127);
    EXPECT_CODE_V((r = T("set-keep-alive-idle-time", c, V_uint(CM_U64, 0))),
                WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT);
    EXPECT(is_ok_v((r = T("set-keep-alive-idle-time", c, V_uint(CM_U64, 1500000000)))));
    EXPECT(is_ok_v((r = T0("keep-alive-idle-time", c))) && r.v.c.payload->v.u == 2000000000);
    EXPECT_CODE_V((r = T("set-keep-alive-interval", c, V_uint(CM_U64, 0))),
                WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT);
    EXPECT(is_ok_v((r = T("set-keep-alive-interval", c, V_uint(CM_U64, UINT64_MAX)))));
    EXPECT(is_ok_v((r = T0("keep-alive-interval", c))) && r.v.c.payload->v.u == 32767000000000ull);
    EXPECT(is_ok_v((r = T("set-keep-alive-enabled", c, V_bool(true)))));
    EXPECT(is_ok_v((r = T0("keep-alive-enabled", c))) && r.v.c.payload->v.b);
    EXPECT_CODE_V((r = T("set-hop-limit", c, V_uint(CM_U8, 0))), WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT);
    EXPECT(is_ok_v((r = T("set-hop-limit", c, V_uint(CM_U8, 42)))));
    EXPECT(is_ok_v((r = T0("hop-limit", c))) && r.v.c.payload->v.u == 42);
    EXPECT_CODE_V((r = T("set-receive-buffer-size", c, V_uint(CM_U64, 0))),
                WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT);
    EXPECT(is_ok_v((r = T("set-receive-buffer-size", c, V_uint(CM_U64, 65536)))));
    EXPECT(is_ok_v((r = T0("receive-buffer-size", c))) && r.v.c.payload->v.u == 65536);
    EXPECT(is_ok_v((r = T("set-send-buffer-size", c, V_uint(CM_U64, UINT64_MAX))))); /* clamped */
    EXPECT(is_ok_v((r = T0("send-buffer-size", c))) && r.v.c.payload->v.u > 0);

    /* the streams outlive their socket's drop */
    EXPECT(drop(WP2_RES_SOCKETS_TCP_SOCKET, s) == WEFT_OK);
    write_all(sout, "after");
    EXPECT(read_some(cin, buf, 5, &closed) == 5 && memcmp(buf, "after", 5) == 0);
    EXPECT(drop(WP2_RES_IO_INPUT_STREAM, sin) == WEFT_OK && drop(WP2_RES_IO_OUTPUT_STREAM, sout) == WEFT_OK);
    /* the last reference gone: the peer sees the end */
    EXPECT(read_some(cin, buf, 1, &closed) == 0 && closed);
    /* writing to the closed peer fails (closed, or the reset's error):
       never a SIGPIPE, which this program does not ignore */
    bool failed = false;
    for (int i = 0; i < 200 && !failed; i++) {
        cm_val w[2] = {V_borrow(cout)};
        EXPECT(call(IO, "[method]output-stream.check-write", w, 1, &r) == WEFT_OK);
        if (!is_ok(&r)) {
            failed = true;
            break;
        }
        if (r.v.c.payload->v.u == 0) continue;
        w[1] = V_bytes("x", 1);
        EXPECT(call(IO, "[method]output-stream.write", w, 2, &r) == WEFT_OK);
        failed = !is_ok(&r);
        usleep(1000);
    }
    EXPECT(failed);
    EXPECT(drop(WP2_RES_IO_INPUT_STREAM, cin) == WEFT_OK && drop(WP2_RES_IO_OUTPUT_STREAM, cout) == WEFT_OK);
    EXPECT(drop(WP2_RES_SOCKETS_TCP_SOCKET, c) == WEFT_OK);
    EXPECT(drop(WP2_RES_SOCKETS_TCP_SOCKET, l) == WEFT_OK);

    /* connection-refused: a port bound but not listening; the socket is
       closed after */
    uint32_t q = tcp_new();
    uint16_t qport = bind4(true, q, net, 0);
    uint32_t k = tcp_new();
    EXPECT(is_ok_v((r = T("start-connect", k, V_borrow(net), V_v4(127, 0, 0, 1, qport)))));
    for (int i = 0; i < 100; i++) {
        r = T0("finish-connect", k);
        if (code_of(&r) != WP2_SOCKETS_ERROR_CODE_WOULD_BLOCK) break;
        wait_on(subscribe(TCP, "tcp-socket", k));
    }
    EXPECT_CODE(&r, WP2_SOCKETS_ERROR_CODE_CONNECTION_REFUSED);
    EXPECT_CODE_V((r = T0("finish-connect", k)), WP2_SOCKETS_ERROR_CODE_NOT_IN_PROGRESS);
    EXPECT_CODE_V((r = T0("local-address", k)), WP2_SOCKETS_ERROR_CODE_INVALID_STATE);
    EXPECT_CODE_V((r = T0("hop-limit", k)), WP2_SOCKETS_ERROR_CODE_INVALID_STATE);
    EXPECT_CODE_V((r = T("start-connect", k, V_borrow(net), V_v4(127, 0, 0, 1, qport))),
                WP2_SOCKETS_ERROR_CODE_INVALID_STATE);
    EXPECT(drop(WP2_RES_SOCKETS_TCP_SOCKET, k) == WEFT_OK);
    EXPECT(drop(WP2_RES_SOCKETS_TCP_SOCKET, q) == WEFT_OK);
    EXPECT(drop(WP2_RES_SOCKETS_NETWORK, net) == WEFT_OK);
}

/* ---- UDP ---- */

static void test_udp(void) {
    uint32_t net = network();
    uint32_t a = udp_new(), b = udp_new();
    cm_val none = V_case(CM_OPTION, 0, NULL), r;
    EXPECT_CODE_V((r = U("stream", a, none)), WP2_SOCKETS_ERROR_CODE_INVALID_STATE); /* unbound */
    EXPECT_CODE_V((r = U0("local-address", a)), WP2_SOCKETS_ERROR_CODE_INVALID_STATE);
    uint16_t pa = bind4(false, a, net, 0), pb = bind4(false, b, net, 0);
    EXPECT(pa && pb && pa != pb);
    EXPECT_CODE_V((r = U("start-bind", a, V_borrow(net), V_v4(127, 0, 0, 1, 0))),
                WP2_SOCKETS_ERROR_CODE_INVALID_STATE);
    uint32_t c = udp_new();
    EXPECT_CODE_V((r = U("start-bind", c, V_borrow(net), V_v4(127, 0, 0, 1, pa))),
                WP2_SOCKETS_ERROR_CODE_ADDRESS_IN_USE);
    EXPECT(drop(WP2_RES_SOCKETS_UDP_SOCKET, c) == WEFT_OK);
    /* a: any peer; b: limited to a */
    cm_val sa = U("stream", a, none);
    CHECK(is_ok(&sa), "stream: %d", code_of(&sa));
    uint32_t ain = sa.v.c.payload->v.items[0].v.rep, aout = sa.v.c.payload->v.items[1].v.rep;
    EXPECT_CODE_V((r = U0("remote-address", a)), WP2_SOCKETS_ERROR_CODE_INVALID_STATE);
    cm_val to_a = V_v4(127, 0, 0, 1, pa);
    cm_val some_a = V_case(CM_OPTION, 1, &to_a);
    cm_val port0 = V_v4(127, 0, 0, 1, 0);
    EXPECT_CODE_V((r = U("stream", b, V_case(CM_OPTION, 1, &port0))),
                WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT); /* port 0 */
    cm_val sb = U("stream", b, some_a);
    CHECK(is_ok(&sb), "stream: %d", code_of(&sb));
    uint32_t bin = sb.v.c.payload->v.items[0].v.rep, bout = sb.v.c.payload->v.items[1].v.rep;
    EXPECT(is_ok_v((r = U0("remote-address", b))) && port_of(r.v.c.payload) == pa);
    /* stream() again while its streams live: a trap */
    EXPECT(call(UDP, "[method]udp-socket.stream", (cm_val[]){V_borrow(b), none}, 2, &r) ==
               WEFT_ERR_TRAP &&
           strstr(E.message, "drop them first"));

    /* send past check-send's permit traps; then b -> a */
    cm_val *dg = arena_vals(2);
    dg[0] = V_bytes("datagram", 8);
    dg[1] = none;
    cm_val one = {.kind = CM_RECORD, .n = 2, .v.items = dg};
    cm_val list = {.kind = CM_LIST, .n = 1, .v.items = &one};
    cm_val args[2] = {V_borrow(bout), list};
    EXPECT(call(UDP, "[method]outgoing-datagram-stream.send", args, 2, &r) == WEFT_ERR_TRAP &&
           strstr(E.message, "check-send"));
    EXPECT(call(UDP, "[method]outgoing-datagram-stream.check-send", args, 1, &r) == WEFT_OK &&
           is_ok(&r) && r.v.c.payload->v.u == 16);
    EXPECT(call(UDP, "[method]outgoing-datagram-stream.send", args, 2, &r) == WEFT_OK && is_ok(&r) &&
           r.v.c.payload->v.u == 1);
    wait_on(subscribe(UDP, "incoming-datagram-stream", ain));
    cm_val rargs[2] = {V_borrow(ain), V_uint(CM_U64, 0)};
    EXPECT(call(UDP, "[method]incoming-datagram-stream.receive", rargs, 2, &r) == WEFT_OK &&
           is_ok(&r) && r.v.c.payload->n == 0); /* max-results 0 */
    rargs[1] = V_uint(CM_U64, 10);
    EXPECT(call(UDP, "[method]incoming-datagram-stream.receive", rargs, 2, &r) == WEFT_OK &&
           is_ok(&r) && r.v.c.payload->n == 1);
    if (is_ok(&r) && r.v.c.payload->n == 1) {
        const cm_val *got = &r.v.c.payload->v.items[0];
        EXPECT(got->v.items[0].n == 8 && got->v.items[0].v.items[0].v.u == 'd');
        EXPECT(port_of(&got->v.items[1]) == pb);
    }
    EXPECT(call(UDP, "[method]incoming-datagram-stream.receive", rargs, 2, &r) == WEFT_OK &&
           is_ok(&r) && r.v.c.payload->n == 0); /* nothing more: empty, never would-block */
    /* a -> b: a is not limited, so a datagram without an address is
       invalid-argument; with b's address it goes */
    args[0] = V_borrow(aout);
    EXPECT(call(UDP, "[method]outgoing-datagram-stream.check-send", args, 1, &r) == WEFT_OK);
    EXPECT(call(UDP, "[method]outgoing-datagram-stream.send", args, 2, &r) == WEFT_OK);
    EXPECT_CODE(&r, WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT);
    cm_val to_b = V_v4(127, 0, 0, 1, pb);
    dg[1] = V_case(CM_OPTION, 1, &to_b);
    EXPECT(call(UDP, "[method]outgoing-datagram-stream.send", args, 2, &r) == WEFT_OK && is_ok(&r) &&
           r.v.c.payload->v.u == 1);
    wait_on(subscribe(UDP, "incoming-datagram-stream", bin));
    rargs[0] = V_borrow(bin);
    EXPECT(call(UDP, "[method]incoming-datagram-stream.receive", rargs, 2, &r) == WEFT_OK &&
           is_ok(&r) && r.v.c.payload->n == 1);
    /* b is limited to a: another destination is invalid-argument */
    args[0] = V_borrow(bout);
    EXPECT(call(UDP, "[method]outgoing-datagram-stream.check-send", args, 1, &r) == WEFT_OK);
    EXPECT(call(UDP, "[method]outgoing-datagram-stream.send", args, 2, &r) == WEFT_OK);
    EXPECT_CODE(&r, WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT);
    /* options */
    EXPECT_CODE_V((r = U("set-unicast-hop-limit", a, V_uint(CM_U8, 0))),
                WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT);
    EXPECT(is_ok_v((r = U("set-unicast-hop-limit", a, V_uint(CM_U8, 9)))));
    EXPECT(is_ok_v((r = U0("unicast-hop-limit", a))) && r.v.c.payload->v.u == 9);
    EXPECT_CODE_V((r = U("set-send-buffer-size", a, V_uint(CM_U64, 0))),
                WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT);
    /* drop the streams, then stream() again dissolves b's limit */
    EXPECT(drop(WP2_RES_SOCKETS_INCOMING_DATAGRAM_STREAM, bin) == WEFT_OK);
    EXPECT(drop(WP2_RES_SOCKETS_OUTGOING_DATAGRAM_STREAM, bout) == WEFT_OK);
    sb = U("stream", b, none);
    EXPECT(is_ok(&sb));
    EXPECT_CODE_V((r = U0("remote-address", b)), WP2_SOCKETS_ERROR_CODE_INVALID_STATE);
    /* the udp socket's own pollable is ready at once */
    uint32_t up = subscribe(UDP, "udp-socket", b);
    cm_val pb_ = V_borrow(up);
    EXPECT(call(POLL, "[method]pollable.ready", &pb_, 1, &r) == WEFT_OK && r.v.b);
    EXPECT(drop(WP2_RES_SOCKETS_UDP_SOCKET, b) == WEFT_ERR_TRAP);
    EXPECT(drop(WP2_RES_IO_POLLABLE, up) == WEFT_OK);
    EXPECT(drop(WP2_RES_SOCKETS_UDP_SOCKET, b) == WEFT_OK);
    /* a's streams outlive a */
    EXPECT(drop(WP2_RES_SOCKETS_UDP_SOCKET, a) == WEFT_OK);
    args[0] = V_borrow(aout);
    EXPECT(call(UDP, "[method]outgoing-datagram-stream.check-send", args, 1, &r) == WEFT_OK &&
           is_ok(&r));
    EXPECT(drop(WP2_RES_SOCKETS_INCOMING_DATAGRAM_STREAM, ain) == WEFT_OK);
    EXPECT(drop(WP2_RES_SOCKETS_OUTGOING_DATAGRAM_STREAM, aout) == WEFT_OK);
    EXPECT(drop(WP2_RES_SOCKETS_INCOMING_DATAGRAM_STREAM, sb.v.c.payload->v.items[0].v.rep) == WEFT_OK);
    EXPECT(drop(WP2_RES_SOCKETS_OUTGOING_DATAGRAM_STREAM, sb.v.c.payload->v.items[1].v.rep) == WEFT_OK);
    EXPECT(drop(WP2_RES_SOCKETS_NETWORK, net) == WEFT_OK);
}

/* ---- Name lookup ---- */

/* All addresses of a lookup of `name`, waiting on its pollable; the
   error-code, or -1 when it ended with none. n: how many came. */
static int resolve(uint32_t net, const char *name, bool *loopback, int *n) {
    cm_val a[2] = {V_borrow(net), V_str(name)}, r;
    EXPECT(call(LOOKUP, "resolve-addresses", a, 2, &r) == WEFT_OK);
    if (!is_ok(&r)) return code_of(&r);
    uint32_t st = r.v.c.payload->v.rep;
    *n = 0;
    *loopback = false;
    int code = -1;
    for (int i = 0; i < 1000; i++) {
        cm_val s = V_borrow(st);
        EXPECT(call(LOOKUP, "[method]resolve-address-stream.resolve-next-address", &s, 1, &r) ==
               WEFT_OK);
        if (code_of(&r) == WP2_SOCKETS_ERROR_CODE_WOULD_BLOCK) {
            wait_on(subscribe(LOOKUP, "resolve-address-stream", st));
            continue;
        }
        if (!is_ok(&r)) {
            code = code_of(&r);
            break;
        }
        const cm_val *opt = r.v.c.payload;
        if (opt->v.c.index == 0) break;
        (*n)++;
        const cm_val *ip = opt->v.c.payload;
        const cm_val *t = ip->v.c.payload;
        if (ip->v.c.index == WP2_SOCKETS_IP_ADDRESS_IPV4)
            *loopback |= t->v.items[0].v.u == 127;
        else
            *loopback |= t->v.items[7].v.u == 1 && t->v.items[0].v.u == 0;
    }
    EXPECT(drop(WP2_RES_SOCKETS_RESOLVE_ADDRESS_STREAM, st) == WEFT_OK);
    return code;
}

static void test_lookup(void) {
    uint32_t net = network();
    bool loop;
    int n;
    EXPECT(resolve(net, "localhost", &loop, &n) == -1 && n >= 1 && loop);
    EXPECT(resolve(net, "127.0.0.1", &loop, &n) == -1 && n == 1 && loop);
    EXPECT(resolve(net, "[::1]", &loop, &n) == -1 && n == 1 && loop);
    EXPECT(resolve(net, "::ffff:127.0.0.1", &loop, &n) == -1 && n == 1 && loop); /* never mapped */
    EXPECT(resolve(net, "", &loop, &n) == WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT);
    EXPECT(resolve(net, "bad name!", &loop, &n) == WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT);
    EXPECT(resolve(net, "a..b", &loop, &n) == WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT);
    EXPECT(resolve(net, "caf\xc3\xa9.example", &loop, &n) == WP2_SOCKETS_ERROR_CODE_INVALID_ARGUMENT);
    int code = resolve(net, "no-such-host.invalid", &loop, &n);
    EXPECTF(code == WP2_SOCKETS_ERROR_CODE_NAME_UNRESOLVABLE ||
                code == WP2_SOCKETS_ERROR_CODE_TEMPORARY_RESOLVER_FAILURE,
            "no-such-host.invalid: %d", code);
    /* a stream with a live pollable cannot be dropped */
    cm_val a[2] = {V_borrow(net), V_str("127.0.0.1")}, r;
    EXPECT(call(LOOKUP, "resolve-addresses", a, 2, &r) == WEFT_OK && is_ok(&r));
    uint32_t st = r.v.c.payload->v.rep, p = subscribe(LOOKUP, "resolve-address-stream", st);
    EXPECT(drop(WP2_RES_SOCKETS_RESOLVE_ADDRESS_STREAM, st) == WEFT_ERR_TRAP);
    EXPECT(drop(WP2_RES_IO_POLLABLE, p) == WEFT_OK);
    EXPECT(drop(WP2_RES_SOCKETS_RESOLVE_ADDRESS_STREAM, st) == WEFT_OK);
    EXPECT(drop(WP2_RES_SOCKETS_NETWORK, net) == WEFT_OK);
}

/* ---- Without the network ---- */

/* weft_wasi_config.net = bits: what each call answers. */
static void test_denied(void) {
    uint32_t net = network();
    cm_val r;
    if (X->w->net & WEFT_WASI_NET_TCP) {
        uint32_t t = tcp_new();
        EXPECT_CODE_V((r = T("start-bind", t, V_borrow(net), V_v4(127, 0, 0, 1, 0))),
                    WP2_SOCKETS_ERROR_CODE_ACCESS_DENIED);
        EXPECT_CODE_V((r = T("start-connect", t, V_borrow(net), V_v4(127, 0, 0, 1, 9))),
                    WP2_SOCKETS_ERROR_CODE_ACCESS_DENIED);
        EXPECT_CODE_V((r = T0("finish-connect", t)), WP2_SOCKETS_ERROR_CODE_NOT_IN_PROGRESS);
        EXPECT(drop(WP2_RES_SOCKETS_TCP_SOCKET, t) == WEFT_OK);
    } else {
        r = create(true, WP2_SOCKETS_IP_ADDRESS_FAMILY_IPV4);
        EXPECT_CODE(&r, WP2_SOCKETS_ERROR_CODE_ACCESS_DENIED);
    }
    if (X->w->net & WEFT_WASI_NET_UDP) {
        uint32_t u = udp_new();
        EXPECT_CODE_V((r = U("start-bind", u, V_borrow(net), V_v4(127, 0, 0, 1, 0))),
                    WP2_SOCKETS_ERROR_CODE_ACCESS_DENIED);
        EXPECT(drop(WP2_RES_SOCKETS_UDP_SOCKET, u) == WEFT_OK);
    } else {
        r = create(false, WP2_SOCKETS_IP_ADDRESS_FAMILY_IPV4);
        EXPECT_CODE(&r, WP2_SOCKETS_ERROR_CODE_ACCESS_DENIED);
    }
    cm_val a[2] = {V_borrow(net), V_str("localhost")};
    EXPECT(call(LOOKUP, "resolve-addresses", a, 2, &r) == WEFT_OK);
    EXPECT_CODE(&r, WP2_SOCKETS_ERROR_CODE_ACCESS_DENIED);
    EXPECT(drop(WP2_RES_SOCKETS_NETWORK, net) == WEFT_OK);
}

static void with_net(uint32_t bits, void (*test)(void)) {
    weft_wasi_config cfg;
    weft_wasi_config_init(&cfg);
    cfg.net = bits;
    weft_error err;
    CHECK(wp2_ctx_new(&cfg, &X, &err) == WEFT_OK, "wp2_ctx_new: %s", err.message);
    test();
    cm_arena_free(&A);
    wp2_ctx_free(X); /* frees what a failed check left */
    X = NULL;
}

int main(void) {
    /* no SIGPIPE handler: a write to a closed peer must not raise it */
    weft_wasi_config cfg;
    weft_wasi_config_init(&cfg);
    const uint32_t all = WEFT_WASI_NET_INHERIT | WEFT_WASI_NET_NAME_LOOKUP | WEFT_WASI_NET_TCP |
                         WEFT_WASI_NET_UDP;
    with_net(cfg.net, test_denied);                       /* weft run without -S options */
    with_net(0, test_denied);                             /* -S tcp=n,udp=n */
    with_net(all, test_tcp);
    with_net(all, test_udp);
    with_net(all, test_lookup);
    return check_summary("wasip2_sockets_test");
}
