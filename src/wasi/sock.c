/*
 * sock.c — sockets: the listening sockets the host hands in (--listen),
 * sock_accept / sock_recv / sock_send / sock_shutdown on them and on the
 * connections they accept, and the socket layer WASI 0.2's wasi:sockets
 * shares (wasi_net_*: open, bind, listen, connect, accept, options,
 * datagrams, name lookup; wasi.h says the rules).
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "wasi.h"

weft_status wasi_listen_open(const char *addr, int *out, weft_error *err) {
    *out = -1;
    char host[256];
    const char *port;
    if (!addr) return wasi_fail(err, WEFT_ERR_MISUSE, "listen address is NULL");
    if (addr[0] == '[') {
        const char *end = strchr(addr, ']');
        if (!end || end[1] != ':' || (size_t)(end - addr - 1) >= sizeof host)
            return wasi_fail(err, WEFT_ERR_MISUSE,
                             "bad listen address '%s': expected [IPV6]:PORT", addr);
        memcpy(host, addr + 1, (size_t)(end - addr - 1));
        host[end - addr - 1] = '\0';
        port = end + 2;
    } else {
        const char *colon = strrchr(addr, ':');
        if (!colon || (size_t)(colon - addr) >= sizeof host)
            return wasi_fail(err, WEFT_ERR_MISUSE,
                             "bad listen address '%s': expected HOST:PORT", addr);
        memcpy(host, addr, (size_t)(colon - addr));
        host[colon - addr] = '\0';
        port = colon + 1;
    }
    if (!*port)
        return wasi_fail(err, WEFT_ERR_MISUSE, "bad listen address '%s': no port", addr);
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_PASSIVE | AI_NUMERICSERV};
    struct addrinfo *res = NULL;
    int gai = getaddrinfo(host[0] ? host : NULL, port, &hints, &res);
    if (gai != 0)
        return wasi_fail(err, WEFT_ERR_IO, "cannot resolve listen address '%s': %s", addr,
                         gai_strerror(gai));
    int last = 0;
    for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
        int s = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);
        if (s < 0) {
            last = errno;
            continue;
        }
        int one = 1;
        setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(s, ai->ai_addr, ai->ai_addrlen) == 0 && listen(s, 128) == 0) {
            freeaddrinfo(res);
            *out = s;
            return WEFT_OK;
        }
        last = errno;
        close(s);
    }
    freeaddrinfo(res);
    return wasi_fail(err, WEFT_ERR_IO, "cannot listen on '%s': %s", addr, strerror(last));
}

/* Takes fd `fd` as a socket with rights `need`: ENOTSOCK for any other
   kind of fd (before rights are looked at, as the host would say). */
static wasi_errno wasi_sock_acquire(wasi_call *c, uint32_t fd, uint64_t need,
                                    wasi_ref *ref) {
    wasi_errno r = wasi_fd_acquire(c->w, fd, 0, ref);
    if (r) return r;
    if (ref->filetype != WASI_FILETYPE_SOCKET_STREAM &&
        ref->filetype != WASI_FILETYPE_SOCKET_DGRAM)
        r = WASI_ENOTSOCK;
    else if ((ref->base & need) != need)
        r = WASI_ENOTCAPABLE;
    if (r) wasi_fd_release(c->w, ref);
    return r;
}

uint32_t wasi_sock_accept(wasi_call *c, const weft_val *a) {
    uint32_t fd = WASI_U32(a, 0), flags = WASI_U32(a, 1), out = WASI_U32(a, 2);
    if (flags & ~WASI_FDFLAG_NONBLOCK) return WASI_EINVAL;
    if (!wasi_mem(c, out, 4)) return WASI_EFAULT;
    wasi_ref ref;
    wasi_errno r = wasi_sock_acquire(c, fd, WASI_RIGHT_SOCK_ACCEPT, &ref);
    if (r) return r;
    r = wasi_wait_ready(c, ref.host, POLLIN, ref.flags & WASI_FDFLAG_NONBLOCK, true);
    if (!r) {
        int s = accept4(ref.host, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (s < 0) {
            r = wasi_errno_from_host(errno);
        } else {
            /* Host sockets stay non-blocking; weft waits through the
               blocker unless the guest asked for NONBLOCK. */
            uint32_t nfd;
            r = wasi_fd_insert(c->w, s, WASI_FILETYPE_SOCKET_STREAM, (uint16_t)flags,
                               WASI_RIGHTS_SOCKET, 0, 0, &nfd);
            if (!r) r = wasi_put32(c, out, nfd);
        }
    }
    wasi_fd_release(c->w, &ref);
    return r;
}

uint32_t wasi_sock_recv(wasi_call *c, const weft_val *a) {
    uint32_t fd = WASI_U32(a, 0), iovs = WASI_U32(a, 1), n = WASI_U32(a, 2),
             riflags = WASI_U32(a, 3), len_ptr = WASI_U32(a, 4), fl_ptr = WASI_U32(a, 5);
    if (riflags & ~(WASI_RIFLAG_PEEK | WASI_RIFLAG_WAITALL)) return WASI_EINVAL;
    if (!wasi_mem(c, len_ptr, 4) || !wasi_mem(c, fl_ptr, 2)) return WASI_EFAULT;
    wasi_ref ref;
    wasi_errno r = wasi_sock_acquire(c, fd, WASI_RIGHT_FD_READ, &ref);
    if (r) return r;
    struct iovec *v = NULL;
    size_t total;
    r = wasi_iovecs(c, iovs, n, &v, &total);
    struct iovec *v0 = v;
    bool nonblock = ref.flags & WASI_FDFLAG_NONBLOCK;
    int mflags = MSG_DONTWAIT;
    if (riflags & WASI_RIFLAG_PEEK) mflags |= MSG_PEEK;
    size_t got_total = 0;
    uint16_t roflags = 0;
    while (!r) {
        /* Restartable until something has been received (WAITALL waits
           again after a part, holding its runner). */
        if (total > 0) r = wasi_wait_ready(c, ref.host, POLLIN, nonblock, got_total == 0);
        if (r) break;
        struct msghdr msg = {.msg_iov = v, .msg_iovlen = n};
        ssize_t got = recvmsg(ref.host, &msg, mflags);
        if (got < 0) {
            if (errno == EAGAIN && !nonblock) continue;
            r = wasi_errno_from_host(errno);
            break;
        }
        if (msg.msg_flags & MSG_TRUNC) roflags |= WASI_ROFLAG_TRUNCATED;
        got_total += (size_t)got;
        /* WAITALL: go on until the buffers are full or the peer is done. */
        if (!(riflags & WASI_RIFLAG_WAITALL) || got == 0 || got_total == total ||
            (riflags & WASI_RIFLAG_PEEK))
            break;
        size_t skip = (size_t)got;
        while (n > 0 && skip >= v[0].iov_len) {
            skip -= v[0].iov_len;
            v++;
            n--;
        }
        if (n > 0) {
            v[0].iov_base = (char *)v[0].iov_base + skip;
            v[0].iov_len -= skip;
        }
        if (n == 0) break;
    }
    if (!r) {
        wasi_put32(c, len_ptr, (uint32_t)got_total);
        uint8_t *p = wasi_mem(c, fl_ptr, 2);
        wasi_st16(p, roflags);
    }
    free(v0);
    wasi_fd_release(c->w, &ref);
    return r;
}

uint32_t wasi_sock_send(wasi_call *c, const weft_val *a) {
    uint32_t fd = WASI_U32(a, 0), iovs = WASI_U32(a, 1), n = WASI_U32(a, 2),
             siflags = WASI_U32(a, 3), out = WASI_U32(a, 4);
    if (siflags != 0) return WASI_EINVAL;
    if (!wasi_mem(c, out, 4)) return WASI_EFAULT;
    wasi_ref ref;
    wasi_errno r = wasi_sock_acquire(c, fd, WASI_RIGHT_FD_WRITE, &ref);
    if (r) return r;
    struct iovec *v = NULL;
    size_t total;
    r = wasi_iovecs(c, iovs, n, &v, &total);
    bool nonblock = ref.flags & WASI_FDFLAG_NONBLOCK;
    while (!r) {
        if (total > 0) r = wasi_wait_ready(c, ref.host, POLLOUT, nonblock, true);
        if (r) break;
        struct msghdr msg = {.msg_iov = v, .msg_iovlen = n};
        ssize_t put = sendmsg(ref.host, &msg, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (put < 0) {
            if (errno == EAGAIN && !nonblock) continue;
            r = wasi_errno_from_host(errno);
            break;
        }
        r = wasi_put32(c, out, (uint32_t)put);
        break;
    }
    free(v);
    wasi_fd_release(c->w, &ref);
    return r;
}

uint32_t wasi_sock_shutdown(wasi_call *c, const weft_val *a) {
    uint32_t fd = WASI_U32(a, 0), how = WASI_U32(a, 1);
    if (how == 0 || how > 3) return WASI_EINVAL;
    wasi_ref ref;
    wasi_errno r = wasi_sock_acquire(c, fd, WASI_RIGHT_SOCK_SHUTDOWN, &ref);
    if (r) return r;
    int h = how == 3 ? SHUT_RDWR : how == WASI_SDFLAG_RD ? SHUT_RD : SHUT_WR;
    if (shutdown(ref.host, h) != 0) r = wasi_errno_from_host(errno);
    wasi_fd_release(c->w, &ref);
    return r;
}

/* ---- The shared socket layer ---- */

bool wasi_net_permits(const struct weft_wasi *w, const wasi_sockaddr *a) {
    (void)a; /* one rule today: all addresses or none (wasmtime's -S inherit-network) */
    return (w->net & WEFT_WASI_NET_INHERIT) != 0;
}

wasi_errno wasi_net_open(int family, int type, int *out) {
    *out = -1;
    if (family != AF_INET && family != AF_INET6) return WASI_EAFNOSUPPORT;
    if (type != SOCK_STREAM && type != SOCK_DGRAM) return WASI_EPROTOTYPE;
    int s = socket(family, type | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (s < 0) return wasi_errno_from_host(errno);
    if (family == AF_INET6) {
        int one = 1;
        if (setsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof one) != 0) {
            int e = errno;
            close(s);
            return wasi_errno_from_host(e);
        }
    }
    *out = s;
    return WASI_ESUCCESS;
}

wasi_errno wasi_net_bind(int s, const wasi_sockaddr *a) {
    int type = 0;
    socklen_t tl = sizeof type;
    if (getsockopt(s, SOL_SOCKET, SO_TYPE, &type, &tl) == 0 && type == SOCK_STREAM) {
        int one = 1;
        setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    }
    if (bind(s, (const struct sockaddr *)&a->ss, a->len) != 0) return wasi_errno_from_host(errno);
    return WASI_ESUCCESS;
}

wasi_errno wasi_net_listen(int s, int backlog) {
    return listen(s, backlog) == 0 ? WASI_ESUCCESS : wasi_errno_from_host(errno);
}

wasi_errno wasi_net_connect(int s, const wasi_sockaddr *a) {
    int r;
    if (a) {
        r = connect(s, (const struct sockaddr *)&a->ss, a->len);
    } else {
        struct sockaddr unspec = {.sa_family = AF_UNSPEC};
        r = connect(s, &unspec, sizeof unspec);
    }
    if (r == 0) return WASI_ESUCCESS;
    if (errno == EINPROGRESS || errno == EINTR) return WASI_EINPROGRESS;
    return wasi_errno_from_host(errno);
}

wasi_errno wasi_net_connect_status(int s) {
    struct pollfd p = {.fd = s, .events = POLLOUT};
    int n = poll(&p, 1, 0);
    if (n < 0) return wasi_errno_from_host(errno);
    if (n == 0) return WASI_EAGAIN;
    int e = 0;
    socklen_t el = sizeof e;
    if (getsockopt(s, SOL_SOCKET, SO_ERROR, &e, &el) != 0) return wasi_errno_from_host(errno);
    if (e) return wasi_errno_from_host(e);
    /* POLLHUP without an error: nothing was ever connected. */
    if (!(p.revents & POLLOUT)) return WASI_ENOTCONN;
    return WASI_ESUCCESS;
}

wasi_errno wasi_net_accept(int s, int *out, wasi_sockaddr *peer) {
    wasi_sockaddr tmp;
    if (!peer) peer = &tmp;
    peer->len = sizeof peer->ss;
    int c = accept4(s, (struct sockaddr *)&peer->ss, &peer->len, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (c < 0) {
        *out = -1;
        return errno == EWOULDBLOCK ? WASI_EAGAIN : wasi_errno_from_host(errno);
    }
    *out = c;
    return WASI_ESUCCESS;
}

wasi_errno wasi_net_name(int s, bool peer, wasi_sockaddr *out) {
    out->len = sizeof out->ss;
    int r = peer ? getpeername(s, (struct sockaddr *)&out->ss, &out->len)
                 : getsockname(s, (struct sockaddr *)&out->ss, &out->len);
    return r == 0 ? WASI_ESUCCESS : wasi_errno_from_host(errno);
}

wasi_errno wasi_net_getopt(int s, int level, int name, int *v) {
    socklen_t l = sizeof *v;
    *v = 0;
    return getsockopt(s, level, name, v, &l) == 0 ? WASI_ESUCCESS : wasi_errno_from_host(errno);
}

wasi_errno wasi_net_setopt(int s, int level, int name, int v) {
    return setsockopt(s, level, name, &v, sizeof v) == 0 ? WASI_ESUCCESS
                                                         : wasi_errno_from_host(errno);
}

wasi_errno wasi_net_send(int s, const void *buf, size_t len, const wasi_sockaddr *to,
                         size_t *sent) {
    *sent = 0;
    ssize_t n;
    do {
        n = sendto(s, buf, len, MSG_NOSIGNAL | MSG_DONTWAIT,
                   to ? (const struct sockaddr *)&to->ss : NULL, to ? to->len : 0);
    } while (n < 0 && errno == EINTR);
    if (n < 0) return errno == EWOULDBLOCK ? WASI_EAGAIN : wasi_errno_from_host(errno);
    *sent = (size_t)n;
    return WASI_ESUCCESS;
}

wasi_errno wasi_net_recv(int s, void *buf, size_t cap, wasi_sockaddr *from, size_t *got,
                         bool *truncated) {
    wasi_sockaddr tmp;
    if (!from) from = &tmp;
    *got = 0;
    if (truncated) *truncated = false;
    struct iovec v = {.iov_base = buf, .iov_len = cap};
    struct msghdr msg = {.msg_name = &from->ss, .msg_namelen = sizeof from->ss,
                         .msg_iov = &v, .msg_iovlen = 1};
    ssize_t n;
    do {
        /* msg_flags' MSG_TRUNC tells a datagram cut short (the flag itself
           would discard a stream's bytes) */
        n = recvmsg(s, &msg, MSG_DONTWAIT);
    } while (n < 0 && errno == EINTR);
    if (n < 0) return errno == EWOULDBLOCK ? WASI_EAGAIN : wasi_errno_from_host(errno);
    from->len = msg.msg_namelen;
    if (truncated && (msg.msg_flags & MSG_TRUNC)) *truncated = true;
    *got = (size_t)n;
    return WASI_ESUCCESS;
}

/* ---- Name lookup ----

   One thread per lookup runs getaddrinfo (it may wait seconds on DNS);
   the guest's agent waits on the lookup's pipe, through the blocker like
   any descriptor. The lookup is shared by its owner and its thread: the
   last of them to let go frees it. */
struct wasi_lookup {
    pthread_mutex_t mu;
    int refs;                /* owner + running thread */
    bool done;
    int gai;                 /* EAI_* or 0 */
    wasi_sockaddr *addrs;
    size_t n;
    int pipe[2];             /* [0] readable once done */
    struct weft_wasi *w;     /* counts running lookups; outlives them (lookups_wait) */
    char *name;
};

static void wasi_lookup_unref(wasi_lookup *l) {
    pthread_mutex_lock(&l->mu);
    int left = --l->refs;
    pthread_mutex_unlock(&l->mu);
    if (left) return;
    pthread_mutex_destroy(&l->mu);
    if (l->pipe[0] >= 0) close(l->pipe[0]);
    if (l->pipe[1] >= 0) close(l->pipe[1]);
    free(l->addrs);
    free(l->name);
    free(l);
}

/* getaddrinfo's answer as addresses, one per address (asking for one
   socket type, so each address comes once); *gai on failure. */
static void wasi_lookup_run(wasi_lookup *l, int flags) {
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                             .ai_flags = flags};
    struct addrinfo *res = NULL;
    int gai = getaddrinfo(l->name, NULL, &hints, &res);
    size_t n = 0;
    wasi_sockaddr *addrs = NULL;
    if (gai == 0) {
        for (struct addrinfo *ai = res; ai; ai = ai->ai_next) n++;
        addrs = calloc(n ? n : 1, sizeof *addrs);
        if (!addrs) {
            gai = EAI_MEMORY;
            n = 0;
        } else {
            size_t k = 0;
            for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
                if ((ai->ai_family != AF_INET && ai->ai_family != AF_INET6) ||
                    ai->ai_addrlen > sizeof addrs[k].ss)
                    continue;
                memcpy(&addrs[k].ss, ai->ai_addr, ai->ai_addrlen);
                addrs[k].len = ai->ai_addrlen;
                k++;
            }
            n = k;
        }
        freeaddrinfo(res);
    }
    pthread_mutex_lock(&l->mu);
    l->gai = gai;
    l->addrs = addrs;
    l->n = n;
    l->done = true;
    pthread_mutex_unlock(&l->mu);
    char one = 1;
    ssize_t wr = write(l->pipe[1], &one, 1);
    (void)wr; /* a pipe just made, with room; the reader looks at `done` */
}

static void *wasi_lookup_thread(void *arg) {
    wasi_lookup *l = arg;
    struct weft_wasi *w = l->w;
    wasi_lookup_run(l, 0);
    wasi_lookup_unref(l);
    pthread_mutex_lock(&w->lock);
    w->lookups--;
    pthread_cond_broadcast(&w->lookups_done);
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

wasi_errno wasi_net_lookup_start(struct weft_wasi *w, const char *name, wasi_lookup **out) {
    *out = NULL;
    wasi_lookup *l = calloc(1, sizeof *l);
    if (!l) return WASI_ENOMEM;
    l->pipe[0] = l->pipe[1] = -1;
    l->refs = 1;
    l->w = w;
    pthread_mutex_init(&l->mu, NULL);
    if (!(l->name = strdup(name)) || pipe2(l->pipe, O_CLOEXEC | O_NONBLOCK) != 0) {
        wasi_lookup_unref(l);
        return WASI_ENOMEM;
    }
    /* A numeric address needs no resolver: answered now. */
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_NUMERICHOST};
    struct addrinfo *res = NULL;
    if (getaddrinfo(name, NULL, &hints, &res) == 0) {
        freeaddrinfo(res);
        wasi_lookup_run(l, AI_NUMERICHOST);
        *out = l;
        return WASI_ESUCCESS;
    }
    pthread_mutex_lock(&w->lock);
    bool room = w->lookups < WASI_NET_LOOKUPS_MAX;
    if (room) w->lookups++;
    pthread_mutex_unlock(&w->lock);
    if (!room) {
        wasi_lookup_unref(l);
        return WASI_EAGAIN;
    }
    l->refs = 2;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attr, 256 * 1024);
    pthread_t t;
    int e = pthread_create(&t, &attr, wasi_lookup_thread, l);
    pthread_attr_destroy(&attr);
    if (e != 0) {
        pthread_mutex_lock(&w->lock);
        w->lookups--;
        pthread_mutex_unlock(&w->lock);
        l->refs = 1;
        wasi_lookup_unref(l);
        return WASI_EAGAIN;
    }
    *out = l;
    return WASI_ESUCCESS;
}

int wasi_net_lookup_fd(const wasi_lookup *l) { return l->pipe[0]; }

wasi_errno wasi_net_lookup_result(wasi_lookup *l, const wasi_sockaddr **addrs, size_t *n,
                                  int *gai) {
    pthread_mutex_lock(&l->mu);
    bool done = l->done;
    pthread_mutex_unlock(&l->mu);
    if (!done) return WASI_EAGAIN;
    /* Done: the thread wrote its fields before `done`, and never again. */
    *addrs = l->addrs;
    *n = l->n;
    *gai = l->gai;
    return WASI_ESUCCESS;
}

void wasi_net_lookup_free(wasi_lookup *l) {
    if (l) wasi_lookup_unref(l);
}

void wasi_net_lookups_wait(struct weft_wasi *w) {
    pthread_mutex_lock(&w->lock);
    while (w->lookups) pthread_cond_wait(&w->lookups_done, &w->lock);
    pthread_mutex_unlock(&w->lock);
}
