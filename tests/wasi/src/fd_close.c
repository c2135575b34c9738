/* fd_close. */
#include "common.h"
int main(void) {
    __wasi_fd_t fd = xopen("data.txt", 0, RIGHTS_ALL, 0);
    SAY("opened fd %u\n", fd);
    T("fd_close", __wasi_fd_close(fd));
    T("fd_close(again)", __wasi_fd_close(fd));
    T("fd_write(closed)", wstr(fd, "x"));
    T("fd_close(1000)", __wasi_fd_close(1000));
    __wasi_fd_t fd2 = xopen("data.txt", 0, RIGHTS_ALL, 0);
    SAY("lowest free fd reused: %s\n", fd2 == fd ? "yes" : "no");
    return 0;
}
