/* path_remove_directory. */
#include "common.h"
int main(void) {
    T("rmdir empty", __wasi_path_remove_directory(DIRFD, "empty"));
    T("rmdir empty (again)", __wasi_path_remove_directory(DIRFD, "empty"));
    T("rmdir full", __wasi_path_remove_directory(DIRFD, "full"));
    T("rmdir file", __wasi_path_remove_directory(DIRFD, "file.txt"));
    T("rmdir symlink to dir", __wasi_path_remove_directory(DIRFD, "dirlink"));
    T("rmdir .", __wasi_path_remove_directory(DIRFD, "."));
    T("rmdir full/sub/", __wasi_path_remove_directory(DIRFD, "full/sub/"));
    T("rmdir ..", __wasi_path_remove_directory(DIRFD, ".."));
    T("rmdir bad fd", __wasi_path_remove_directory(77, "x"));
    __wasi_fd_t d = xopen("full", __WASI_OFLAGS_DIRECTORY, __WASI_RIGHTS_PATH_OPEN, 0);
    T("rmdir no right", __wasi_path_remove_directory(d, "x"));
    return 0;
}
