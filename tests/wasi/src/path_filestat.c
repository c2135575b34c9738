/* path_filestat_get and path_filestat_set_times. */
#include "common.h"
static void show(const char *path, __wasi_lookupflags_t fl) {
    __wasi_filestat_t st;
    __wasi_errno_t e = __wasi_path_filestat_get(DIRFD, fl, path, &st);
    if (e) SAY("stat %s%s: %s\n", path, fl ? " (follow)" : "", en(e));
    else if (st.filetype == __WASI_FILETYPE_DIRECTORY) /* size and nlink vary by filesystem */
        SAY("stat %s%s: type=%u\n", path, fl ? " (follow)" : "", st.filetype);
    else SAY("stat %s%s: type=%u size=%llu nlink=%llu\n", path, fl ? " (follow)" : "", st.filetype,
             (unsigned long long)st.size, (unsigned long long)st.nlink);
}
int main(void) {
    show("file.txt", 0);
    show("dir", 0);
    show("dir/", 0);
    show("link", 0);
    show("link", __WASI_LOOKUPFLAGS_SYMLINK_FOLLOW);
    show("dangling", 0);
    show("dangling", __WASI_LOOKUPFLAGS_SYMLINK_FOLLOW);
    show("missing", 0);
    show("file.txt/", 0);
    show("dir/../file.txt", 0);
    T("set_times(file)", __wasi_path_filestat_set_times(DIRFD, 0, "file.txt", 7000000000ull,
                                                          8000000000ull,
                                                          __WASI_FSTFLAGS_ATIM | __WASI_FSTFLAGS_MTIM));
    __wasi_filestat_t st;
    (void)__wasi_path_filestat_get(DIRFD, 0, "file.txt", &st);
    SAY("atim=%llu mtim=%llu\n", (unsigned long long)st.atim, (unsigned long long)st.mtim);
    T("set_times(link, follow)", __wasi_path_filestat_set_times(DIRFD, __WASI_LOOKUPFLAGS_SYMLINK_FOLLOW,
                                                                  "link", 0, 9000000000ull,
                                                                  __WASI_FSTFLAGS_MTIM));
    (void)__wasi_path_filestat_get(DIRFD, 0, "file.txt", &st);
    SAY("target mtim=%llu\n", (unsigned long long)st.mtim);
    T("set_times(missing)", __wasi_path_filestat_set_times(DIRFD, 0, "missing", 0, 0, __WASI_FSTFLAGS_MTIM_NOW));
    T("set_times(bad flags)", __wasi_path_filestat_set_times(DIRFD, 0, "file.txt", 0, 0,
                                                             __WASI_FSTFLAGS_MTIM | __WASI_FSTFLAGS_MTIM_NOW));
    T("filestat_get(bad fd)", __wasi_path_filestat_get(77, 0, "file.txt", &st));
    __wasi_fd_t d = xopen("dir", __WASI_OFLAGS_DIRECTORY, __WASI_RIGHTS_PATH_OPEN, 0);
    T("filestat_get(no right)", __wasi_path_filestat_get(d, 0, ".", &st));
    T("set_times(no right)", __wasi_path_filestat_set_times(d, 0, ".", 0, 0, __WASI_FSTFLAGS_MTIM_NOW));
    return 0;
}
