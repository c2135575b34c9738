/* wasi-testsuite's fd_fdstat_set_rights (tests/rust/wasm32-wasip1/src/bin/
   fd_fdstat_set_rights.rs and its lib.rs helpers, branch prod/testsuite-base),
   call for call. Its supports_rights writes the rights fd_fdstat_get shows
   of a directory back with fd_fdstat_set_rights. weft shows a directory
   opened by path_open fewer inheriting rights than it holds (wasmtime's
   answer, for wasi-libc's faccessat: docs/wasi.md), so writing them back
   must drop nothing, and the file the test then creates through the
   directory for reading and writing opens (it got ENOTCAPABLE, issue 39).
   The suite finds its preopen by the name "/"; here it is fd 3. */
#include "common.h"

/* lib.rs create_tmp_dir's rights, as the suite asks for them. */
#define TMP_BASE                                                                              \
    (__WASI_RIGHTS_FD_FILESTAT_GET | __WASI_RIGHTS_FD_READDIR | __WASI_RIGHTS_PATH_CREATE_FILE | \
     __WASI_RIGHTS_PATH_CREATE_DIRECTORY | __WASI_RIGHTS_PATH_REMOVE_DIRECTORY |                \
     __WASI_RIGHTS_PATH_OPEN | __WASI_RIGHTS_PATH_UNLINK_FILE | __WASI_RIGHTS_PATH_LINK_SOURCE | \
     __WASI_RIGHTS_PATH_LINK_TARGET | __WASI_RIGHTS_PATH_READLINK |                             \
     __WASI_RIGHTS_PATH_RENAME_SOURCE | __WASI_RIGHTS_PATH_RENAME_TARGET |                      \
     __WASI_RIGHTS_PATH_FILESTAT_GET | __WASI_RIGHTS_PATH_FILESTAT_SET_SIZE |                   \
     __WASI_RIGHTS_PATH_FILESTAT_SET_TIMES | __WASI_RIGHTS_PATH_SYMLINK)
#define TMP_INHERITING                                                                        \
    (__WASI_RIGHTS_FD_READ | __WASI_RIGHTS_FD_WRITE | __WASI_RIGHTS_FD_READDIR |                \
     __WASI_RIGHTS_FD_FILESTAT_GET | __WASI_RIGHTS_FD_SEEK | __WASI_RIGHTS_PATH_LINK_SOURCE |    \
     __WASI_RIGHTS_PATH_LINK_TARGET | __WASI_RIGHTS_PATH_OPEN |                                 \
     __WASI_RIGHTS_PATH_UNLINK_FILE | __WASI_RIGHTS_PATH_FILESTAT_GET |                         \
     __WASI_RIGHTS_FD_FDSTAT_SET_FLAGS | __WASI_RIGHTS_FD_SYNC | __WASI_RIGHTS_FD_TELL |        \
     __WASI_RIGHTS_FD_ADVISE | __WASI_RIGHTS_FD_ALLOCATE | __WASI_RIGHTS_FD_FILESTAT_SET_SIZE | \
     __WASI_RIGHTS_FD_FILESTAT_SET_TIMES)

static __wasi_fdstat_t stat_of(__wasi_fd_t fd) {
    __wasi_fdstat_t st;
    __wasi_errno_t e = __wasi_fd_fdstat_get(fd, &st);
    if (e) {
        printf("fd_fdstat_get(%u): %s\n", (unsigned)fd, en(e));
        exit(99);
    }
    return st;
}

/* Exits 99 after a step the rest cannot do without. */
static void need(const char *label, __wasi_errno_t e) {
    T(label, e);
    if (e) exit(99);
}

int main(void) {
    /* root_directory(): "." reopened with the preopen's own rights. */
    __wasi_fdstat_t pre = stat_of(DIRFD);
    __wasi_fd_t root;
    need("open the root", __wasi_path_open(DIRFD, 0, ".", __WASI_OFLAGS_DIRECTORY,
                                           pre.fs_rights_base, pre.fs_rights_inheriting, 0, &root));
    /* create_tmp_dir(root, "rights_dir.cleanup"). */
    need("create rights_dir.cleanup", __wasi_path_create_directory(root, "rights_dir.cleanup"));
    __wasi_fd_t dir;
    need("open it", __wasi_path_open(root, 0, "rights_dir.cleanup", __WASI_OFLAGS_DIRECTORY,
                                     TMP_BASE, TMP_INHERITING, 0, &dir));
    /* The base rights shown are those asked; the inheriting ones leave
       out those needing write, and FD_READ as it was not asked for. */
    __wasi_fdstat_t ds = stat_of(dir);
    SAY("directory shows base asked: %s, inheriting asked: %s\n",
        ds.fs_rights_base == TMP_BASE ? "yes" : "no",
        ds.fs_rights_inheriting == TMP_INHERITING ? "yes" : "no");
    /* supports_rights(dir): the shown rights written back. */
    T("supports_rights: set_rights(shown)",
      __wasi_fd_fdstat_set_rights(dir, ds.fs_rights_base, ds.fs_rights_inheriting));
    __wasi_fdstat_t after = stat_of(dir);
    SAY("rights unchanged: %s\n", after.fs_rights_base == ds.fs_rights_base &&
                                          after.fs_rights_inheriting == ds.fs_rights_inheriting
                                      ? "yes"
                                      : "no");
    /* test_fd_fdstat_set_rights(dir). */
    __wasi_rights_t rw = __WASI_RIGHTS_FD_READ | __WASI_RIGHTS_FD_WRITE | __WASI_RIGHTS_FD_SEEK |
                         __WASI_RIGHTS_FD_TELL;
    __wasi_fd_t fd;
    need("create file.cleanup (READ|WRITE|SEEK|TELL)",
         __wasi_path_open(dir, 0, "file.cleanup", __WASI_OFLAGS_CREAT, rw, 0, 0, &fd));
    uint8_t contents[4] = {0, 1, 2, 3}, back[4] = {9, 9, 9, 9};
    __wasi_ciovec_t cv = {contents, 4};
    __wasi_iovec_t iv = {back, 4};
    __wasi_size_t n = 0;
    T("write 4 bytes", __wasi_fd_write(fd, &cv, 1, &n));
    __wasi_filesize_t pos;
    T("seek to 0", __wasi_fd_seek(fd, 0, __WASI_WHENCE_SET, &pos));
    T("read them back", __wasi_fd_read(fd, &iv, 1, &n));
    SAY("read %u bytes, same: %s\n", (unsigned)n, memcmp(contents, back, 4) == 0 ? "yes" : "no");
    /* drop_rights(fd, READ|WRITE, 0). */
    __wasi_fdstat_t fs = stat_of(fd);
    T("drop READ|WRITE",
      __wasi_fd_fdstat_set_rights(fd, fs.fs_rights_base & ~(__wasi_rights_t)(__WASI_RIGHTS_FD_READ |
                                                                               __WASI_RIGHTS_FD_WRITE),
                                  fs.fs_rights_inheriting));
    fs = stat_of(fd);
    SAY("base has READ|WRITE: %s, has SEEK: %s\n",
        (fs.fs_rights_base & (__WASI_RIGHTS_FD_READ | __WASI_RIGHTS_FD_WRITE)) ? "yes" : "no",
        (fs.fs_rights_base & __WASI_RIGHTS_FD_SEEK) ? "yes" : "no");
    T("read without the right", __wasi_fd_read(fd, &iv, 1, &n));
    T("write without the right", __wasi_fd_write(fd, &cv, 1, &n));
    T("regrant the rights",
      __wasi_fd_fdstat_set_rights(fd, fs.fs_rights_base | rw, fs.fs_rights_inheriting | rw));
    /* Cleanup, as the suite does it. */
    T("close the file", __wasi_fd_close(fd));
    T("unlink file.cleanup", __wasi_path_unlink_file(dir, "file.cleanup"));
    T("close the directory", __wasi_fd_close(dir));
    T("remove rights_dir.cleanup", __wasi_path_remove_directory(root, "rights_dir.cleanup"));
    return 0;
}
