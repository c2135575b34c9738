/* fd_filestat_set_times: explicit times with ns, NOW, and bad flags. */
#include "common.h"
int main(void) {
    __wasi_fd_t fd = xopen("data.txt", 0, RIGHTS_ALL, 0);
    __wasi_filestat_t st;
    T("set_times(atim, mtim)",
      __wasi_fd_filestat_set_times(fd, 1000000000123456789ull, 1200000000987654321ull,
                                   __WASI_FSTFLAGS_ATIM | __WASI_FSTFLAGS_MTIM));
    (void)__wasi_fd_filestat_get(fd, &st);
    SAY("atim=%llu mtim=%llu\n", (unsigned long long)st.atim, (unsigned long long)st.mtim);
    T("set_times(mtim only)", __wasi_fd_filestat_set_times(fd, 0, 5000000000ull, __WASI_FSTFLAGS_MTIM));
    (void)__wasi_fd_filestat_get(fd, &st);
    SAY("atim=%llu mtim=%llu\n", (unsigned long long)st.atim, (unsigned long long)st.mtim);
    T("set_times(mtim now)", __wasi_fd_filestat_set_times(fd, 0, 0, __WASI_FSTFLAGS_MTIM_NOW));
    (void)__wasi_fd_filestat_get(fd, &st);
    SAY("mtim is recent: %s\n", st.mtim > 1577836800ull * 1000000000ull ? "yes" : "no");
    T("set_times(atim and atim_now)",
      __wasi_fd_filestat_set_times(fd, 1, 0, __WASI_FSTFLAGS_ATIM | __WASI_FSTFLAGS_ATIM_NOW));
    T("set_times(unknown flag)", __wasi_fd_filestat_set_times(fd, 0, 0, 0x10));
    T("set_times(bad fd)", __wasi_fd_filestat_set_times(77, 0, 0, 0));
    __wasi_fd_t ro = xopen("data.txt", 0, R_READ, 0);
    T("set_times(no right)", __wasi_fd_filestat_set_times(ro, 0, 0, __WASI_FSTFLAGS_MTIM_NOW));
    return 0;
}
