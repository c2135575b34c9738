/* sock_accept, sock_recv, sock_send, sock_shutdown on a --listen socket
   (fd 4, after the preopen). Serves one client: reads a line, answers it
   upper-cased, shuts down. The harness connects after "ready". */
#include <ctype.h>
#include "common.h"
#define LISTEN 4
int main(void) {
    __wasi_fdstat_t st;
    T("fdstat(listener)", __wasi_fd_fdstat_get(LISTEN, &st));
    SAY("listener type=%u can accept: %s\n", st.fs_filetype,
        (st.fs_rights_base & __WASI_RIGHTS_SOCK_ACCEPT) ? "yes" : "no");
    __wasi_fd_t c;
    /* Whether accept waits is the listener's own NONBLOCK flag; the flags
       argument is for the new connection's fd. */
    T("listener set nonblock", __wasi_fd_fdstat_set_flags(LISTEN, __WASI_FDFLAGS_NONBLOCK));
    T("accept(nobody yet)", __wasi_sock_accept(LISTEN, 0, &c));
    T("listener set blocking", __wasi_fd_fdstat_set_flags(LISTEN, 0));
    T("accept(bad flags)", __wasi_sock_accept(LISTEN, 1, &c));
    T("accept(file)", __wasi_sock_accept(DIRFD, 0, &c));
    T("accept(bad fd)", __wasi_sock_accept(77, 0, &c));
    SAY("ready\n");
    T("accept (waits for the client)", __wasi_sock_accept(LISTEN, __WASI_FDFLAGS_NONBLOCK, &c));
    T("connection back to blocking", __wasi_fd_fdstat_set_flags(c, 0));
    char buf[64];
    size_t have = 0;
    while (have < sizeof buf - 1) {
        __wasi_iovec_t v = {(uint8_t *)buf + have, sizeof buf - 1 - have};
        __wasi_size_t n;
        __wasi_roflags_t fl;
        __wasi_errno_t e = __wasi_sock_recv(c, &v, 1, 0, &n, &fl);
        if (e || n == 0) { if (e) SAY("recv: %s\n", en(e)); break; }
        have += n;
        if (memchr(buf, '\n', have)) break;
    }
    buf[have] = 0;
    SAY("received [%.*s]\n", (int)(have && buf[have - 1] == '\n' ? have - 1 : have), buf);
    for (size_t i = 0; i < have; i++) buf[i] = (char)toupper((unsigned char)buf[i]);
    __wasi_ciovec_t w = {(const uint8_t *)buf, have};
    __wasi_size_t sent;
    T("send", __wasi_sock_send(c, &w, 1, 0, &sent));
    SAY("sent %u\n", (unsigned)sent);
    T("send(bad flags)", __wasi_sock_send(c, &w, 1, 1, &sent));
    T("shutdown(bad how)", __wasi_sock_shutdown(c, 0));
    T("shutdown(write)", __wasi_sock_shutdown(c, __WASI_SDFLAGS_WR));
    __wasi_iovec_t v = {(uint8_t *)buf, sizeof buf};
    __wasi_size_t n;
    __wasi_roflags_t fl;
    T("recv after peer closed", __wasi_sock_recv(c, &v, 1, 0, &n, &fl));
    SAY("got %u bytes\n", (unsigned)n);
    T("recv(file)", __wasi_sock_recv(DIRFD, &v, 1, 0, &n, &fl));
    T("send(file)", __wasi_sock_send(1, &w, 1, 0, &sent));
    T("shutdown(file)", __wasi_sock_shutdown(1, __WASI_SDFLAGS_WR));
    T("close", __wasi_fd_close(c));
    return 0;
}
