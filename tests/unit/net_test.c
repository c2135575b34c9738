/*
 * net_test.c — the shared socket layer of src/wasi/sock.c (wasi_net_*),
 * which preview1, WASI 0.2's wasi:sockets and weft serve use: sockets on
 * loopback made, bound, listened on, connected and accepted without
 * waiting; datagrams with their sender and truncation; the options;
 * name lookup on its own thread (a numeric address at once, `localhost`
 * through getaddrinfo, a name that does not exist, the bound on running
 * lookups); and the permission rule of weft_wasi_config.net.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <unistd.h>

#include "check.h"
#include "wasi/wasi.h"

static wasi_sockaddr v4(const char *ip, uint16_t port) {
    wasi_sockaddr a;
    memset(&a, 0, sizeof a);
    struct sockaddr_in *in = (struct sockaddr_in *)&a.ss;
    in->sin_family = AF_INET;
    in->sin_port = htons(port);
    CHECK(inet_pton(AF_INET, ip, &in->sin_addr) == 1, "inet_pton %s", ip);
    a.len = sizeof *in;
    return a;
}

static uint16_t port_of(const wasi_sockaddr *a) {
    return ntohs(a->ss.ss_family == AF_INET ? ((const struct sockaddr_in *)&a->ss)->sin_port
                                            : ((const struct sockaddr_in6 *)&a->ss)->sin6_port);
}

/* Waits (test side, up to 2 s) until fd is ready for events. */
static bool ready(int fd, short events) {
    struct pollfd p = {.fd = fd, .events = events};
    return poll(&p, 1, 2000) == 1;
}

static void test_tcp(void) {
    int l, c, a;
    EXPECT(wasi_net_open(AF_UNIX, SOCK_STREAM, &l) == WASI_EAFNOSUPPORT && l == -1);
    EXPECT(wasi_net_open(AF_INET, SOCK_RAW, &l) == WASI_EPROTOTYPE);
    CHECK(wasi_net_open(AF_INET, SOCK_STREAM, &l) == 0, "open");
    EXPECT(fcntl(l, F_GETFL) & O_NONBLOCK);
    EXPECT(fcntl(l, F_GETFD) & FD_CLOEXEC);
    wasi_sockaddr any = v4("127.0.0.1", 0), local;
    CHECK(wasi_net_bind(l, &any) == 0, "bind");
    int v;
    EXPECT(wasi_net_getopt(l, SOL_SOCKET, SO_REUSEADDR, &v) == 0 && v == 1);
    EXPECT(wasi_net_name(l, false, &local) == 0 && port_of(&local) != 0);
    /* nothing listens yet: refused (now or once the handshake fails) */
    CHECK(wasi_net_open(AF_INET, SOCK_STREAM, &c) == 0, "open");
    wasi_errno e = wasi_net_connect(c, &local);
    if (e == WASI_EINPROGRESS) {
        EXPECT(ready(c, POLLOUT));
        e = wasi_net_connect_status(c);
    }
    EXPECT(e == WASI_ECONNREFUSED);
    close(c);
    /* the same address bound twice: in use */
    int d;
    CHECK(wasi_net_open(AF_INET, SOCK_STREAM, &d) == 0, "open");
    CHECK(wasi_net_listen(l, 4) == 0, "listen");
    EXPECT(wasi_net_bind(d, &local) == WASI_EADDRINUSE);
    close(d);
    /* nothing pending: EAGAIN without waiting */
    EXPECT(wasi_net_accept(l, &a, NULL) == WASI_EAGAIN && a == -1);
    CHECK(wasi_net_open(AF_INET, SOCK_STREAM, &c) == 0, "open");
    e = wasi_net_connect(c, &local);
    EXPECT(e == 0 || e == WASI_EINPROGRESS);
    EXPECT(ready(c, POLLOUT));
    EXPECT(wasi_net_connect_status(c) == 0);
    EXPECT(ready(l, POLLIN));
    wasi_sockaddr peer, cl;
    CHECK(wasi_net_accept(l, &a, &peer) == 0, "accept");
    EXPECT(fcntl(a, F_GETFL) & O_NONBLOCK);
    EXPECT(wasi_net_name(c, false, &cl) == 0 && port_of(&cl) == port_of(&peer));
    wasi_sockaddr rp;
    EXPECT(wasi_net_name(c, true, &rp) == 0 && port_of(&rp) == port_of(&local));
    /* an echo both ways */
    size_t n;
    EXPECT(wasi_net_send(c, "ping", 4, NULL, &n) == 0 && n == 4);
    EXPECT(ready(a, POLLIN));
    char buf[16];
    bool trunc;
    EXPECT(wasi_net_recv(a, buf, sizeof buf, NULL, &n, &trunc) == 0 && n == 4 && !trunc &&
           memcmp(buf, "ping", 4) == 0);
    EXPECT(wasi_net_recv(a, buf, sizeof buf, NULL, &n, NULL) == WASI_EAGAIN && n == 0);
    /* options */
    EXPECT(wasi_net_setopt(c, SOL_SOCKET, SO_KEEPALIVE, 1) == 0);
    EXPECT(wasi_net_getopt(c, SOL_SOCKET, SO_KEEPALIVE, &v) == 0 && v == 1);
    EXPECT(wasi_net_setopt(c, IPPROTO_TCP, TCP_KEEPCNT, 0) == WASI_EINVAL);
    /* a closed peer: EPIPE, never SIGPIPE (the test does not ignore it) */
    close(a);
    shutdown(c, SHUT_RD);
    for (int i = 0; i < 50; i++) {
        e = wasi_net_send(c, "x", 1, NULL, &n);
        if (e) break;
        sleep_ms(2);
    }
    EXPECT(e == WASI_EPIPE || e == WASI_ECONNRESET);
    close(c);
    close(l);
    /* IPv6 sockets are v6-only */
    int s6;
    if (wasi_net_open(AF_INET6, SOCK_STREAM, &s6) == 0) {
        EXPECT(wasi_net_getopt(s6, IPPROTO_IPV6, IPV6_V6ONLY, &v) == 0 && v == 1);
        close(s6);
    }
}

static void test_udp(void) {
    int s, r;
    CHECK(wasi_net_open(AF_INET, SOCK_DGRAM, &s) == 0 && wasi_net_open(AF_INET, SOCK_DGRAM, &r) == 0,
          "open");
    wasi_sockaddr any = v4("127.0.0.1", 0), ra, sa, from;
    CHECK(wasi_net_bind(r, &any) == 0 && wasi_net_name(r, false, &ra) == 0, "bind");
    int v;
    EXPECT(wasi_net_getopt(r, SOL_SOCKET, SO_REUSEADDR, &v) == 0 && v == 0); /* datagrams: not */
    /* a second bind of the same port is refused */
    int t;
    CHECK(wasi_net_open(AF_INET, SOCK_DGRAM, &t) == 0, "open");
    EXPECT(wasi_net_bind(t, &ra) == WASI_EADDRINUSE);
    close(t);
    size_t n;
    char buf[8];
    bool trunc;
    EXPECT(wasi_net_recv(r, buf, sizeof buf, &from, &n, &trunc) == WASI_EAGAIN);
    EXPECT(wasi_net_send(s, "0123456789", 10, &ra, &n) == 0 && n == 10);
    EXPECT(wasi_net_name(s, false, &sa) == 0); /* bound implicitly by the send */
    EXPECT(ready(r, POLLIN));
    EXPECT(wasi_net_recv(r, buf, 4, &from, &n, &trunc) == 0 && n == 4 && trunc &&
           memcmp(buf, "0123", 4) == 0 && port_of(&from) == port_of(&sa));
    /* connected: send without an address; then dissolved again */
    EXPECT(wasi_net_connect(s, &ra) == 0);
    EXPECT(wasi_net_send(s, "ab", 2, NULL, &n) == 0 && n == 2);
    EXPECT(ready(r, POLLIN) && wasi_net_recv(r, buf, sizeof buf, NULL, &n, &trunc) == 0 && n == 2 &&
           !trunc);
    EXPECT(wasi_net_connect(s, NULL) == 0);
    EXPECT(wasi_net_send(s, "ab", 2, NULL, &n) == WASI_EDESTADDRREQ);
    close(s);
    close(r);
}

/* Waits (test side) for a lookup and returns its result. */
static wasi_errno lookup(weft_wasi *w, const char *name, const wasi_sockaddr **addrs, size_t *n,
                         int *gai, wasi_lookup **out) {
    wasi_errno e = wasi_net_lookup_start(w, name, out);
    if (e) return e;
    EXPECT(ready(wasi_net_lookup_fd(*out), POLLIN) || 1); /* DNS may take longer: loop below */
    for (int i = 0; i < 3000; i++) {
        e = wasi_net_lookup_result(*out, addrs, n, gai);
        if (e != WASI_EAGAIN) return e;
        sleep_ms(5);
    }
    return e;
}

static void test_lookup(void) {
    weft_wasi_config cfg;
    weft_wasi_config_init(&cfg);
    EXPECT(cfg.net == (WEFT_WASI_NET_TCP | WEFT_WASI_NET_UDP));
    weft_wasi *w;
    weft_error err;
    CHECK(weft_wasi_new(&cfg, &w, &err) == WEFT_OK, "weft_wasi_new: %s", err.message);
    wasi_sockaddr a = v4("127.0.0.1", 80);
    EXPECT(!wasi_net_permits(w, &a)); /* no inherit-network: no address */
    const wasi_sockaddr *addrs;
    size_t n;
    int gai;
    wasi_lookup *l;
    /* numeric: answered before the call returns, no thread */
    CHECK(wasi_net_lookup_start(w, "10.1.2.3", &l) == 0, "numeric");
    EXPECT(w->lookups == 0);
    EXPECT(wasi_net_lookup_result(l, &addrs, &n, &gai) == 0 && gai == 0 && n == 1 &&
           addrs[0].ss.ss_family == AF_INET);
    struct pollfd p = {.fd = wasi_net_lookup_fd(l), .events = POLLIN};
    EXPECT(poll(&p, 1, 0) == 1);
    wasi_net_lookup_free(l);
    CHECK(wasi_net_lookup_start(w, "::1", &l) == 0, "numeric v6");
    EXPECT(wasi_net_lookup_result(l, &addrs, &n, &gai) == 0 && n == 1 &&
           addrs[0].ss.ss_family == AF_INET6);
    wasi_net_lookup_free(l);
    /* localhost through the resolver thread */
    EXPECT(lookup(w, "localhost", &addrs, &n, &gai, &l) == 0);
    EXPECTF(gai == 0 && n >= 1, "localhost: gai %d (%s), %zu addresses", gai, gai_strerror(gai), n);
    bool loop = false;
    for (size_t i = 0; i < n; i++)
        if (addrs[i].ss.ss_family == AF_INET &&
            ((const struct sockaddr_in *)&addrs[i].ss)->sin_addr.s_addr == htonl(INADDR_LOOPBACK))
            loop = true;
        else if (addrs[i].ss.ss_family == AF_INET6 &&
                 IN6_IS_ADDR_LOOPBACK(&((const struct sockaddr_in6 *)&addrs[i].ss)->sin6_addr))
            loop = true;
    EXPECT(loop);
    wasi_net_lookup_free(l);
    /* a name under .invalid (RFC 6761) never resolves */
    EXPECT(lookup(w, "no-such-host.invalid", &addrs, &n, &gai, &l) == 0);
    EXPECTF(gai != 0 && n == 0, "no-such-host.invalid: gai %d", gai);
    wasi_net_lookup_free(l);
    /* the bound on running lookups: started and given up at once, some
       may be refused with EAGAIN but never more than the bound run */
    int started = 0, refused = 0;
    for (int i = 0; i < 3 * WASI_NET_LOOKUPS_MAX; i++) {
        wasi_errno e = wasi_net_lookup_start(w, "localhost", &l);
        if (e == 0) {
            started++;
            wasi_net_lookup_free(l); /* freed by its thread when done */
        } else {
            EXPECT(e == WASI_EAGAIN);
            refused++;
        }
        pthread_mutex_lock(&w->lock);
        EXPECT(w->lookups <= WASI_NET_LOOKUPS_MAX);
        pthread_mutex_unlock(&w->lock);
    }
    EXPECT(started >= 1 && started + refused == 3 * WASI_NET_LOOKUPS_MAX);
    weft_wasi_free(w); /* waits for the threads still running */

    cfg.net = WEFT_WASI_NET_INHERIT;
    CHECK(weft_wasi_new(&cfg, &w, &err) == WEFT_OK, "weft_wasi_new: %s", err.message);
    EXPECT(wasi_net_permits(w, &a));
    weft_wasi_free(w);
}

int main(void) {
    test_tcp();
    test_udp();
    test_lookup();
    return check_summary("net_test");
}
