/* path_create_directory. */
#include "common.h"
int main(void) {
    T("mkdir new", __wasi_path_create_directory(DIRFD, "new"));
    T("mkdir new/inner", __wasi_path_create_directory(DIRFD, "new/inner"));
    T("mkdir new (again)", __wasi_path_create_directory(DIRFD, "new"));
    T("mkdir missing/x", __wasi_path_create_directory(DIRFD, "missing/x"));
    T("mkdir file.txt/x", __wasi_path_create_directory(DIRFD, "file.txt/x"));
    T("mkdir trailing/", __wasi_path_create_directory(DIRFD, "trailing/"));
    T("mkdir .", __wasi_path_create_directory(DIRFD, "."));
    T("mkdir ''", __wasi_path_create_directory(DIRFD, ""));
    T("mkdir ../escape", __wasi_path_create_directory(DIRFD, "../escape"));
    T("mkdir (bad fd)", __wasi_path_create_directory(77, "x"));
    __wasi_fd_t f = xopen("file.txt", 0, RIGHTS_ALL, 0);
    T("mkdir under a file fd", __wasi_path_create_directory(f, "x"));
    __wasi_fd_t d = xopen("new", __WASI_OFLAGS_DIRECTORY, __WASI_RIGHTS_PATH_OPEN, 0);
    T("mkdir (no right)", __wasi_path_create_directory(d, "x"));
    return 0;
}
