/* fd_pread and fd_pwrite: positional, leave the offset alone. */
#include "common.h"
int main(void) {
    __wasi_fd_t fd = xopen("data.txt", 0, RIGHTS_ALL, 0);
    __wasi_ciovec_t w[2] = {{(const uint8_t *)"XY", 2}, {(const uint8_t *)"Z", 1}};
    __wasi_size_t n;
    T("fd_pwrite(at 3)", __wasi_fd_pwrite(fd, w, 2, 3, &n));
    SAY("wrote %u\n", (unsigned)n);
    __wasi_filesize_t pos;
    (void)__wasi_fd_tell(fd, &pos);
    SAY("offset still %llu\n", (unsigned long long)pos);
    char a[3] = {0}, b[8] = {0};
    __wasi_iovec_t r[2] = {{(uint8_t *)a, 2}, {(uint8_t *)b, 7}};
    T("fd_pread(at 1)", __wasi_fd_pread(fd, r, 2, 1, &n));
    SAY("read %u: [%s][%s]\n", (unsigned)n, a, b);
    T("fd_pread(past end)", __wasi_fd_pread(fd, r, 2, 1000, &n));
    SAY("read %u\n", (unsigned)n);
    T("fd_pread(bad fd)", __wasi_fd_pread(77, r, 2, 0, &n));
    T("fd_pwrite(bad fd)", __wasi_fd_pwrite(77, w, 2, 0, &n));
    __wasi_fd_t ro = xopen("data.txt", 0, __WASI_RIGHTS_FD_READ, 0);
    T("fd_pread(no seek right)", __wasi_fd_pread(ro, r, 2, 0, &n));
    T("fd_pwrite(read-only fd)", __wasi_fd_pwrite(ro, w, 2, 0, &n));
    T("fd_pwrite(directory)", __wasi_fd_pwrite(DIRFD, w, 2, 0, &n));
    return 0;
}
