/* fd_advise: advice on files; a directory and the host's stdio are EBADF,
   as wasmtime answers (docs/wasi.md, "Where WASI preview1 is silent"). */
#include "common.h"
int main(void) {
    __wasi_fd_t fd = xopen("data.txt", 0, RIGHTS_ALL, 0);
    T("fd_advise(normal)", __wasi_fd_advise(fd, 0, 100, __WASI_ADVICE_NORMAL));
    T("fd_advise(dontneed)", __wasi_fd_advise(fd, 0, 0, __WASI_ADVICE_DONTNEED));
    T("fd_advise(advice 6)", __wasi_fd_advise(fd, 0, 0, 6));
    T("fd_advise(bad fd)", __wasi_fd_advise(77, 0, 0, 0));
    __wasi_fd_t ro = xopen("data.txt", 0, __WASI_RIGHTS_FD_READ, 0);
    T("fd_advise(no right)", __wasi_fd_advise(ro, 0, 0, 0));
    T("fd_advise(directory)", __wasi_fd_advise(xopendir("sub"), 0, 0, __WASI_ADVICE_WILLNEED));
    T("fd_advise(preopen)", __wasi_fd_advise(DIRFD, 0, 0, __WASI_ADVICE_WILLNEED));
    T("fd_advise(stdout, a file here)", __wasi_fd_advise(1, 0, 0, __WASI_ADVICE_NORMAL));
    return 0;
}
