/*
 * sock.c — sockets: the listening sockets the host hands in (--listen),
 * and sock_accept / sock_recv / sock_send / sock_shutdown on them and on
 * the connections they accept.
 */
#include <errno.h>
#include <netdb.h>
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
