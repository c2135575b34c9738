/* fd_filestat_get. */
#include "common.h"
RAW(fd_filestat_get) int32_t raw_fd_filestat_get(int32_t, int32_t);
int main(void) {
    __wasi_fd_t fd = xopen("data.txt", 0, RIGHTS_ALL, 0);
    __wasi_filestat_t st;
    T("fd_filestat_get(file)", __wasi_fd_filestat_get(fd, &st));
    SAY("type=%u size=%llu nlink=%llu mtim ns set: %s\n", st.filetype,
        (unsigned long long)st.size, (unsigned long long)st.nlink,
        st.mtim > 1000000000ull && st.atim > 0 && st.ctim > 0 ? "yes" : "no");
    T("fd_filestat_get(dir)", __wasi_fd_filestat_get(DIRFD, &st));
    SAY("type=%u\n", st.filetype);
    __wasi_fd_t fd2 = xopen("data.txt", 0, RIGHTS_ALL, 0);
    __wasi_filestat_t st2;
    (void)__wasi_fd_filestat_get(fd2, &st2);
    (void)__wasi_fd_filestat_get(fd, &st);
    SAY("same inode through two fds: %s\n", st.ino == st2.ino && st.dev == st2.dev ? "yes" : "no");
    T("fd_filestat_get(bad fd)", __wasi_fd_filestat_get(77, &st));
    T("fd_filestat_get(bad pointer)", raw_fd_filestat_get(fd, BAD_PTR));
    __wasi_fd_t nr = xopen("data.txt", 0, __WASI_RIGHTS_FD_READ, 0);
    T("fd_filestat_get(no right)", __wasi_fd_filestat_get(nr, &st));
    return 0;
}
