/* fd_sync and fd_datasync. */
#include "common.h"
int main(void) {
    __wasi_fd_t fd = xopen("data.txt", 0, RIGHTS_ALL, 0);
    T("fd_sync", __wasi_fd_sync(fd));
    T("fd_datasync", __wasi_fd_datasync(fd));
    T("fd_sync(directory)", __wasi_fd_sync(DIRFD));
    T("fd_sync(bad fd)", __wasi_fd_sync(77));
    T("fd_datasync(bad fd)", __wasi_fd_datasync(77));
    __wasi_fd_t ro = xopen("data.txt", 0, R_READ, 0);
    T("fd_sync(no right)", __wasi_fd_sync(ro));
    T("fd_datasync(no right)", __wasi_fd_datasync(ro));
    return 0;
}
