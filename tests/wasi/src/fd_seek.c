/* fd_seek and fd_tell. */
#include "common.h"
int main(void) {
    __wasi_fd_t fd = xopen("data.txt", 0, RIGHTS_ALL, 0);
    __wasi_filesize_t pos;
    T("seek(SET 3)", __wasi_fd_seek(fd, 3, __WASI_WHENCE_SET, &pos));
    SAY("pos=%llu\n", (unsigned long long)pos);
    T("seek(CUR 2)", __wasi_fd_seek(fd, 2, __WASI_WHENCE_CUR, &pos));
    SAY("pos=%llu\n", (unsigned long long)pos);
    T("seek(END -1)", __wasi_fd_seek(fd, -1, __WASI_WHENCE_END, &pos));
    SAY("pos=%llu\n", (unsigned long long)pos);
    char buf[8];
    T("read", rstr(fd, buf, sizeof buf));
    SAY("last byte [%s]\n", buf);
    T("tell", __wasi_fd_tell(fd, &pos));
    SAY("pos=%llu\n", (unsigned long long)pos);
    T("seek(SET -1)", __wasi_fd_seek(fd, -1, __WASI_WHENCE_SET, &pos));
    T("seek(whence 3)", __wasi_fd_seek(fd, 0, 3, &pos));
    T("seek(past end)", __wasi_fd_seek(fd, 100, __WASI_WHENCE_SET, &pos));
    SAY("pos=%llu\n", (unsigned long long)pos);
    T("seek(stdin pipe)", __wasi_fd_seek(0, 0, __WASI_WHENCE_SET, &pos));
    T("tell(stdin pipe)", __wasi_fd_tell(0, &pos));
    T("seek(bad fd)", __wasi_fd_seek(77, 0, __WASI_WHENCE_SET, &pos));
    T("tell(bad fd)", __wasi_fd_tell(77, &pos));
    __wasi_fd_t t = xopen("data.txt", 0, __WASI_RIGHTS_FD_READ | __WASI_RIGHTS_FD_TELL, 0);
    T("tell with TELL only", __wasi_fd_tell(t, &pos));
    T("seek(CUR 0) with TELL only", __wasi_fd_seek(t, 0, __WASI_WHENCE_CUR, &pos));
    T("seek(SET 1) with TELL only", __wasi_fd_seek(t, 1, __WASI_WHENCE_SET, &pos));
    __wasi_fd_t r = xopen("data.txt", 0, __WASI_RIGHTS_FD_READ, 0);
    T("tell with no right", __wasi_fd_tell(r, &pos));
    return 0;
}
