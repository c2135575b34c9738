/* fd_fdstat_get: filetype, flags, rights. */
#include "common.h"
RAW(fd_fdstat_get) int32_t raw_fd_fdstat_get(int32_t, int32_t);
static void show(const char *what, __wasi_fd_t fd) {
    __wasi_fdstat_t st;
    __wasi_errno_t e = __wasi_fd_fdstat_get(fd, &st);
    if (e) { SAY("%s: %s\n", what, en(e)); return; }
    SAY("%s: type=%u flags=%u base=0x%llx inheriting=0x%llx\n", what, st.fs_filetype, st.fs_flags,
        (unsigned long long)st.fs_rights_base, (unsigned long long)st.fs_rights_inheriting);
}
int main(void) {
    show("stdout (file)", 1);
    show("preopen", DIRFD);
    show("file opened read-only", xopen("data.txt", 0, R_READ, 0));
    show("file opened append", xopen("data.txt", 0, R_WRITE, __WASI_FDFLAGS_APPEND));
    show("directory", xopendir("sub"));
    show("bad fd", 77);
    T("fd_fdstat_get(bad pointer)", raw_fd_fdstat_get(DIRFD, BAD_PTR));
    return 0;
}
