/* fd_read: scatter into two buffers, EOF, rights, bad iovecs. */
#include "common.h"
int main(void) {
    __wasi_fd_t fd = xopen("data.txt", 0, R_READ, 0);
    char a[4] = {0}, b[5] = {0};
    __wasi_iovec_t v[2] = {{(uint8_t *)a, 3}, {(uint8_t *)b, 4}};
    __wasi_size_t n;
    T("fd_read", __wasi_fd_read(fd, v, 2, &n));
    SAY("read %u: [%s][%s]\n", (unsigned)n, a, b);
    char rest[64];
    T("fd_read(rest)", rstr(fd, rest, sizeof rest));
    SAY("rest=[%s]\n", rest);
    T("fd_read(at EOF)", __wasi_fd_read(fd, v, 2, &n));
    SAY("read %u\n", (unsigned)n);
    __wasi_fd_t wo = xopen("data.txt", 0, R_WRITE, 0);
    T("fd_read(write-only)", __wasi_fd_read(wo, v, 2, &n));
    T("fd_read(directory)", __wasi_fd_read(DIRFD, v, 2, &n));
    T("fd_read(bad fd)", __wasi_fd_read(77, v, 2, &n));
    T("fd_read(bad iovec array)", raw_fd_read(fd, BAD_PTR, 1, 1024));
    static uint32_t iov[2];
    iov[0] = BAD_PTR; iov[1] = 16;
    T("fd_read(iovec past memory)", raw_fd_read(fd, (int32_t)(uintptr_t)iov, 1, 1024));
    T("fd_read(stdout)", __wasi_fd_read(1, v, 2, &n));
    return 0;
}
