/* path_symlink. */
#include "common.h"
int main(void) {
    T("symlink file.txt -> s1", __wasi_path_symlink("file.txt", DIRFD, "s1"));
    T("symlink ../file.txt -> dir/s2", __wasi_path_symlink("../file.txt", DIRFD, "dir/s2"));
    char buf[32];
    __wasi_fd_t fd = xopen("dir/s2", 0, R_READ, 0);
    T("read through dir/s2", rstr(fd, buf, sizeof buf));
    SAY("content=[%s]\n", buf);
    T("symlink onto existing", __wasi_path_symlink("x", DIRFD, "s1"));
    T("symlink dangling", __wasi_path_symlink("nowhere", DIRFD, "s3"));
    T("symlink absolute target", __wasi_path_symlink("/etc/passwd", DIRFD, "s4"));
    T("symlink empty target", __wasi_path_symlink("", DIRFD, "s5"));
    T("symlink in missing dir", __wasi_path_symlink("x", DIRFD, "none/s6"));
    /* A slash after the new name: ENOENT when missing, EEXIST when it
       exists (a dangling symlink included), as symlink(2). */
    T("symlink onto new/ (missing)", __wasi_path_symlink("file.txt", DIRFD, "new/"));
    T("symlink onto s3/ (dangling link)", __wasi_path_symlink("file.txt", DIRFD, "s3/"));
    T("symlink bad fd", __wasi_path_symlink("x", 77, "s7"));
    __wasi_fd_t d = xopen("dir", __WASI_OFLAGS_DIRECTORY, __WASI_RIGHTS_PATH_OPEN, 0);
    T("symlink no right", __wasi_path_symlink("x", d, "s8"));
    return 0;
}
