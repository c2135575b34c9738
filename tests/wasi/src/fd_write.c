/* fd_write: gather to stdout and a file, rights, bad iovecs. */
#include "common.h"
int main(void) {
    __wasi_ciovec_t v[3] = {{(const uint8_t *)"hello", 5}, {(const uint8_t *)", ", 2},
                            {(const uint8_t *)"world\n", 6}};
    __wasi_size_t n;
    T("fd_write(stdout)", __wasi_fd_write(1, v, 3, &n));
    SAY("wrote %u\n", (unsigned)n);
    __wasi_fd_t fd = xopen("out.txt", __WASI_OFLAGS_CREAT | __WASI_OFLAGS_TRUNC, R_WRITE, 0);
    T("fd_write(file)", __wasi_fd_write(fd, v, 3, &n));
    T("fd_write(zero iovecs)", __wasi_fd_write(fd, v, 0, &n));
    SAY("wrote %u\n", (unsigned)n);
    __wasi_fd_t ro = xopen("out.txt", 0, R_READ, 0);
    T("fd_write(read-only)", __wasi_fd_write(ro, v, 3, &n));
    T("fd_write(stdin)", __wasi_fd_write(0, v, 3, &n));
    T("fd_write(bad fd)", __wasi_fd_write(77, v, 3, &n));
    T("fd_write(bad iovec array)", raw_fd_write(1, BAD_PTR, 1, 1024));
    T("fd_write(bad result pointer)", raw_fd_write(1, (int32_t)(uintptr_t)v, 1, BAD_PTR));
    fflush(stdout);
    return 0;
}
