/* fd_filestat_set_size: truncate and extend. */
#include "common.h"
int main(void) {
    __wasi_fd_t fd = xopen("data.txt", 0, RIGHTS_ALL, 0);
    __wasi_filestat_t st;
    T("set_size(3)", __wasi_fd_filestat_set_size(fd, 3));
    (void)__wasi_fd_filestat_get(fd, &st);
    SAY("size=%llu\n", (unsigned long long)st.size);
    T("set_size(6)", __wasi_fd_filestat_set_size(fd, 6));
    (void)__wasi_fd_filestat_get(fd, &st);
    SAY("size=%llu\n", (unsigned long long)st.size);
    T("set_size(2^63)", __wasi_fd_filestat_set_size(fd, 1ull << 63));
    T("set_size(bad fd)", __wasi_fd_filestat_set_size(77, 0));
    __wasi_fd_t ro = xopen("data.txt", 0, R_READ, 0);
    T("set_size(no right)", __wasi_fd_filestat_set_size(ro, 0));
    return 0;
}
