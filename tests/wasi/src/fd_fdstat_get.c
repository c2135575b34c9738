/* fd_fdstat_get: filetype, flags, rights. A directory opened by path_open
   shows as inheriting only the access it was opened for (wasmtime's
   answer): never the write rights, the read right only when its own base
   rights asked for FD_READ; path_open through it still grants what its
   real inheriting rights allow. */
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
    __wasi_fd_t dir = xopendir("sub");
    show("directory", dir);
    __wasi_fd_t noread;
    T("open directory without FD_READ",
      __wasi_path_open(DIRFD, 0, "sub", __WASI_OFLAGS_DIRECTORY, RIGHTS_DIR & ~__WASI_RIGHTS_FD_READ,
                       RIGHTS_ALL, 0, &noread));
    show("directory without FD_READ", noread);
    __wasi_fd_t f;
    T("open a file for writing through it",
      __wasi_path_open(noread, 0, "new.txt", __WASI_OFLAGS_CREAT, R_WRITE | __WASI_RIGHTS_FD_READ, 0, 0, &f));
    show("that file", f);
    show("bad fd", 77);
    T("fd_fdstat_get(bad pointer)", raw_fd_fdstat_get(DIRFD, BAD_PTR));
    return 0;
}
