/* path_unlink_file. */
#include "common.h"
int main(void) {
    T("unlink a.txt", __wasi_path_unlink_file(DIRFD, "a.txt"));
    T("unlink a.txt (again)", __wasi_path_unlink_file(DIRFD, "a.txt"));
    T("unlink dir", __wasi_path_unlink_file(DIRFD, "dir"));
    T("unlink b.txt/", __wasi_path_unlink_file(DIRFD, "b.txt/"));
    T("unlink link (removes the link only)", __wasi_path_unlink_file(DIRFD, "link"));
    T("unlink dir/inner.txt", __wasi_path_unlink_file(DIRFD, "dir/inner.txt"));
    T("unlink bad fd", __wasi_path_unlink_file(77, "b.txt"));
    __wasi_fd_t d = xopen("dir", __WASI_OFLAGS_DIRECTORY, __WASI_RIGHTS_PATH_OPEN, 0);
    T("unlink no right", __wasi_path_unlink_file(d, "x"));
    return 0;
}
