/* path_link. */
#include "common.h"
int main(void) {
    T("link file.txt hard.txt", __wasi_path_link(DIRFD, 0, "file.txt", DIRFD, "hard.txt"));
    __wasi_filestat_t st;
    (void)__wasi_path_filestat_get(DIRFD, 0, "hard.txt", &st);
    SAY("nlink=%llu size=%llu\n", (unsigned long long)st.nlink, (unsigned long long)st.size);
    T("link onto existing", __wasi_path_link(DIRFD, 0, "file.txt", DIRFD, "hard.txt"));
    T("link a directory", __wasi_path_link(DIRFD, 0, "dir", DIRFD, "dir2"));
    T("link missing", __wasi_path_link(DIRFD, 0, "missing", DIRFD, "x"));
    T("link into dir/", __wasi_path_link(DIRFD, 0, "file.txt", DIRFD, "dir/in.txt"));
    T("link symlink (follow)", __wasi_path_link(DIRFD, __WASI_LOOKUPFLAGS_SYMLINK_FOLLOW, "link", DIRFD, "via_follow"));
    T("link symlink (no follow)", __wasi_path_link(DIRFD, 0, "link", DIRFD, "via_nofollow"));
    (void)__wasi_path_filestat_get(DIRFD, 0, "via_follow", &st);
    SAY("via_follow type=%u\n", st.filetype);
    (void)__wasi_path_filestat_get(DIRFD, 0, "via_nofollow", &st);
    SAY("via_nofollow type=%u\n", st.filetype);
    /* A slash after a new name that does not exist: only a directory could
       be meant (ENOENT, as link(2)); after an existing one: EEXIST. */
    T("link onto new/ (missing)", __wasi_path_link(DIRFD, 0, "file.txt", DIRFD, "new/"));
    T("link onto dir/ (exists)", __wasi_path_link(DIRFD, 0, "file.txt", DIRFD, "dir/"));
    T("link from file.txt/", __wasi_path_link(DIRFD, 0, "file.txt/", DIRFD, "new"));
    T("link dir onto new/", __wasi_path_link(DIRFD, 0, "dir", DIRFD, "new/"));
    T("link bad fd", __wasi_path_link(77, 0, "file.txt", DIRFD, "y"));
    __wasi_fd_t d = xopen("dir", __WASI_OFLAGS_DIRECTORY, __WASI_RIGHTS_PATH_OPEN, 0);
    T("link (no source right)", __wasi_path_link(d, 0, "in.txt", DIRFD, "z"));
    T("link (no target right)", __wasi_path_link(DIRFD, 0, "file.txt", d, "z"));
    return 0;
}
