/* fd_fdstat_set_rights: rights only shrink, and are enforced. */
#include "common.h"
int main(void) {
    __wasi_fd_t fd = xopen("data.txt", 0, R_READ | R_WRITE, 0);
    T("write before", wstr(fd, "AB"));
    T("drop write", __wasi_fd_fdstat_set_rights(fd, R_READ, 0));
    T("write after", wstr(fd, "CD"));
    T("add write back", __wasi_fd_fdstat_set_rights(fd, R_READ | R_WRITE, 0));
    char buf[32];
    __wasi_filesize_t pos;
    (void)__wasi_fd_seek(fd, 0, __WASI_WHENCE_SET, &pos);
    T("read", rstr(fd, buf, sizeof buf));
    SAY("content=[%s]\n", buf);
    T("drop everything", __wasi_fd_fdstat_set_rights(fd, 0, 0));
    T("seek with no rights", __wasi_fd_seek(fd, 0, __WASI_WHENCE_SET, &pos));
    T("set_rights(bad fd)", __wasi_fd_fdstat_set_rights(77, 0, 0));
    /* A directory whose inheriting rights lack FD_WRITE opens files without it. */
    __wasi_fd_t d = xopendir("sub");
    T("dir drops inheritable write",
      __wasi_fd_fdstat_set_rights(d, __WASI_RIGHTS_PATH_OPEN, R_READ));
    __wasi_fd_t f;
    T("open for write under it", __wasi_path_open(d, 0, "f.txt", 0, R_WRITE, 0, 0, &f));
    T("open for read under it", __wasi_path_open(d, 0, "f.txt", 0, R_READ, 0, 0, &f));
    T("create under it (no PATH_CREATE_FILE)",
      __wasi_path_open(d, 0, "new.txt", __WASI_OFLAGS_CREAT, R_READ, 0, 0, &f));
    return 0;
}
