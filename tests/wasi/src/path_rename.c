/* path_rename. */
#include "common.h"
int main(void) {
    T("rename a.txt b2.txt", __wasi_path_rename(DIRFD, "a.txt", DIRFD, "b2.txt"));
    T("rename b2.txt over c.txt", __wasi_path_rename(DIRFD, "b2.txt", DIRFD, "c.txt"));
    T("rename missing", __wasi_path_rename(DIRFD, "a.txt", DIRFD, "x.txt"));
    T("rename dir into dir", __wasi_path_rename(DIRFD, "d1", DIRFD, "d2/moved"));
    T("rename dir over non-empty dir", __wasi_path_rename(DIRFD, "d3", DIRFD, "d2"));
    T("rename file over dir", __wasi_path_rename(DIRFD, "c.txt", DIRFD, "d3"));
    T("rename dir over file", __wasi_path_rename(DIRFD, "d3", DIRFD, "c.txt"));
    T("rename file with trailing slash", __wasi_path_rename(DIRFD, "c.txt/", DIRFD, "e.txt"));
    T("rename to missing parent", __wasi_path_rename(DIRFD, "c.txt", DIRFD, "none/e.txt"));
    T("rename symlink (moves the link)", __wasi_path_rename(DIRFD, "link", DIRFD, "link2"));
    T("rename bad fd", __wasi_path_rename(77, "c.txt", DIRFD, "e.txt"));
    __wasi_fd_t d = xopen("d2", __WASI_OFLAGS_DIRECTORY, __WASI_RIGHTS_PATH_OPEN, 0);
    T("rename no source right", __wasi_path_rename(d, "moved", DIRFD, "back"));
    T("rename no target right", __wasi_path_rename(DIRFD, "c.txt", d, "c.txt"));
    return 0;
}
