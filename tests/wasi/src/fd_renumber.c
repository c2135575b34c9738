/* fd_renumber. */
#include "common.h"
int main(void) {
    __wasi_fd_t a = xopen("a.txt", 0, R_READ, 0);
    __wasi_fd_t b = xopen("b.txt", 0, R_READ, 0);
    SAY("a=%u b=%u\n", a, b);
    T("fd_renumber(a, b)", __wasi_fd_renumber(a, b));
    char buf[16];
    T("read b", rstr(b, buf, sizeof buf));
    SAY("b now reads [%s]\n", buf);
    T("read a", rstr(a, buf, sizeof buf));
    T("fd_renumber(closed a, b)", __wasi_fd_renumber(a, b));
    T("fd_renumber(b, 99 not open)", __wasi_fd_renumber(b, 99));
    T("fd_renumber(b, b)", __wasi_fd_renumber(b, b));
    __wasi_fdstat_t st;
    (void)__wasi_fd_fdstat_get(0, &st);
    SAY("stdin type before=%u\n", st.fs_filetype);
    T("fd_renumber(b, 0) replaces stdin", __wasi_fd_renumber(b, 0));
    (void)__wasi_fd_fdstat_get(0, &st);
    SAY("stdin type after=%u\n", st.fs_filetype);
    __wasi_filesize_t pos;
    T("seek 0 to start", __wasi_fd_seek(0, 0, __WASI_WHENCE_SET, &pos));
    T("read 0", rstr(0, buf, sizeof buf));
    SAY("fd 0 now reads [%s]\n", buf);
    T("read b (moved away)", rstr(b, buf, sizeof buf));
    return 0;
}
