/* fd_fdstat_set_flags: APPEND takes effect, NONBLOCK is kept, bad flags;
   the host's stdio descriptors refuse it with EBADF (wasmtime's answer). */
#include "common.h"
int main(void) {
    __wasi_fd_t fd = xopen("data.txt", 0, RIGHTS_ALL, 0);
    T("set_flags(append)", __wasi_fd_fdstat_set_flags(fd, __WASI_FDFLAGS_APPEND));
    __wasi_fdstat_t st;
    (void)__wasi_fd_fdstat_get(fd, &st);
    SAY("flags now %u\n", st.fs_flags);
    T("write", wstr(fd, "+tail"));
    T("set_flags(0)", __wasi_fd_fdstat_set_flags(fd, 0));
    __wasi_filesize_t pos;
    (void)__wasi_fd_seek(fd, 0, __WASI_WHENCE_SET, &pos);
    T("write at 0", wstr(fd, "HE"));
    T("set_flags(nonblock)", __wasi_fd_fdstat_set_flags(fd, __WASI_FDFLAGS_NONBLOCK));
    (void)__wasi_fd_fdstat_get(fd, &st);
    SAY("flags now %u\n", st.fs_flags);
    T("set_flags(0x100)", __wasi_fd_fdstat_set_flags(fd, 0x100));
    T("set_flags(bad fd)", __wasi_fd_fdstat_set_flags(77, 0));
    __wasi_fd_t ro = xopen("data.txt", 0, R_READ, 0);
    T("set_flags(no right)", __wasi_fd_fdstat_set_flags(ro, 0));
    T("set_flags(stdin, nonblock)", __wasi_fd_fdstat_set_flags(0, __WASI_FDFLAGS_NONBLOCK));
    T("set_flags(stdout, append)", __wasi_fd_fdstat_set_flags(1, __WASI_FDFLAGS_APPEND));
    T("set_flags(stderr, 0)", __wasi_fd_fdstat_set_flags(2, 0));
    (void)__wasi_fd_fdstat_get(1, &st);
    SAY("stdout flags still %u\n", st.fs_flags);
    /* The refusal follows the descriptor, not the number. */
    T("renumber stderr to the file's fd", __wasi_fd_renumber(2, fd));
    T("set_flags(stderr moved, append)", __wasi_fd_fdstat_set_flags(fd, __WASI_FDFLAGS_APPEND));
    return 0;
}
