/* fd_allocate: ENOTSUP on every fd holding FD_ALLOCATE, the file left as
   it was (wasmtime's answer, docs/wasi.md "Where WASI preview1 is
   silent"); the errors before it as for any fd_* call. */
#include "common.h"
int main(void) {
    __wasi_fd_t fd = xopen("alloc.bin", __WASI_OFLAGS_CREAT, RIGHTS_ALL, 0);
    __wasi_filestat_t st;
    T("fd_allocate(0, 100)", __wasi_fd_allocate(fd, 0, 100));
    (void)__wasi_fd_filestat_get(fd, &st);
    SAY("size=%llu\n", (unsigned long long)st.size);
    T("fd_allocate(len 0)", __wasi_fd_allocate(fd, 0, 0));
    T("fd_allocate(bad fd)", __wasi_fd_allocate(77, 0, 1));
    T("fd_allocate(directory)", __wasi_fd_allocate(DIRFD, 0, 1));
    __wasi_fd_t ro = xopen("alloc.bin", 0, R_READ, 0);
    T("fd_allocate(no right)", __wasi_fd_allocate(ro, 0, 200));
    return 0;
}
