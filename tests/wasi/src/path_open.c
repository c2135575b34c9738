/* path_open: oflags, lookup flags, rights, fdflags, and every error path. */
#include "common.h"
static __wasi_fd_t fd;
static __wasi_errno_t op(__wasi_fd_t dir, __wasi_lookupflags_t lf, const char *p, __wasi_oflags_t of,
                         __wasi_rights_t r, __wasi_fdflags_t ff) {
    return __wasi_path_open(dir, lf, p, of, r, r, ff, &fd);
}
#define F __WASI_LOOKUPFLAGS_SYMLINK_FOLLOW
int main(void) {
    char buf[64];
    T("open existing", op(DIRFD, F, "file.txt", 0, R_READ, 0));
    T("read it", rstr(fd, buf, sizeof buf));
    SAY("content=[%s]\n", buf);
    T("create new.txt", op(DIRFD, F, "new.txt", __WASI_OFLAGS_CREAT, R_WRITE, 0));
    T("write", wstr(fd, "fresh"));
    T("create+excl existing", op(DIRFD, F, "new.txt", __WASI_OFLAGS_CREAT | __WASI_OFLAGS_EXCL, R_WRITE, 0));
    T("create+excl via symlink", op(DIRFD, F, "link", __WASI_OFLAGS_CREAT | __WASI_OFLAGS_EXCL, R_WRITE, 0));
    T("trunc", op(DIRFD, F, "trunc.txt", __WASI_OFLAGS_TRUNC, R_WRITE, 0));
    __wasi_filestat_t st;
    (void)__wasi_fd_filestat_get(fd, &st);
    SAY("truncated size=%llu\n", (unsigned long long)st.size);
    T("append", op(DIRFD, F, "app.txt", 0, R_WRITE, __WASI_FDFLAGS_APPEND));
    T("write", wstr(fd, "+more"));
    T("follow symlink", op(DIRFD, F, "link", 0, R_READ, 0));
    T("read it", rstr(fd, buf, sizeof buf));
    SAY("content=[%s]\n", buf);
    T("no-follow on symlink", op(DIRFD, 0, "link", 0, R_READ, 0));
    T("create through dangling symlink", op(DIRFD, F, "dangling", __WASI_OFLAGS_CREAT, R_WRITE, 0));
    /* A directory is never writable: asked for with the write rights it
       fails as open(2) does; with the rest it opens. */
    T("directory flag on dir, all rights", op(DIRFD, F, "dir", __WASI_OFLAGS_DIRECTORY, RIGHTS_ALL, 0));
    T("directory flag on dir, all but write", __wasi_path_open(DIRFD, F, "dir", __WASI_OFLAGS_DIRECTORY,
                                                               RIGHTS_DIR, RIGHTS_ALL, 0, &fd));
    __wasi_fdstat_t fs;
    (void)__wasi_fd_fdstat_get(fd, &fs);
    SAY("dir fd type=%u\n", fs.fs_filetype);
    T("open from the dir fd", op(fd, F, "inner.txt", 0, R_READ, 0));
    T("directory flag on file", op(DIRFD, F, "file.txt", __WASI_OFLAGS_DIRECTORY, R_READ, 0));
    T("trailing slash on file", op(DIRFD, F, "file.txt/", 0, R_READ, 0));
    T("dir opened for write", op(DIRFD, F, "dir", 0, R_WRITE, 0));
    T("dir opened read-only", op(DIRFD, F, "dir", 0, R_READ, 0));
    T("missing", op(DIRFD, F, "missing.txt", 0, R_READ, 0));
    T("missing parent", op(DIRFD, F, "nodir/x.txt", __WASI_OFLAGS_CREAT, R_WRITE, 0));
    T("file as a directory", op(DIRFD, F, "file.txt/x", 0, R_READ, 0));
    T("empty path", op(DIRFD, F, "", 0, R_READ, 0));
    T("path with NUL", raw_path_open(DIRFD, 0, (int32_t)(uintptr_t)"file.txt\0x", 10, 0, R_READ, R_READ, 0,
                                     (int32_t)(uintptr_t)&fd));
    T("path past memory", raw_path_open(DIRFD, 0, BAD_PTR, 10, 0, R_READ, R_READ, 0, (int32_t)(uintptr_t)&fd));
    T("bad oflags", op(DIRFD, F, "file.txt", 0x10, R_READ, 0));
    T("bad fdflags", op(DIRFD, F, "file.txt", 0, R_READ, 0x20));
    T("bad fd", op(77, F, "file.txt", 0, R_READ, 0));
    __wasi_fd_t file;
    (void)op(DIRFD, F, "file.txt", 0, RIGHTS_ALL, 0);
    file = fd;
    T("relative to a file fd", op(file, F, "x", 0, R_READ, 0));
    /* A directory fd with fewer rights. */
    __wasi_fd_t d;
    d = xopendir("dir");
    (void)__wasi_fd_fdstat_set_rights(d, __WASI_RIGHTS_PATH_OPEN, R_READ);
    T("rights beyond inheriting", __wasi_path_open(d, F, "inner.txt", 0, R_WRITE, 0, 0, &fd));
    T("rights within inheriting", __wasi_path_open(d, F, "inner.txt", 0, R_READ, 0, 0, &fd));
    T("create without PATH_CREATE_FILE", __wasi_path_open(d, F, "c.txt", __WASI_OFLAGS_CREAT, R_READ, 0, 0, &fd));
    T("trunc without PATH_FILESTAT_SET_SIZE", __wasi_path_open(d, F, "inner.txt", __WASI_OFLAGS_TRUNC, R_READ, 0, 0, &fd));
    (void)__wasi_fd_fdstat_set_rights(d, 0, R_READ);
    T("no PATH_OPEN", __wasi_path_open(d, F, "inner.txt", 0, R_READ, 0, 0, &fd));
    /* Reopening the preopen with exactly the rights it has (fd_datasync
       among them, which needs no write access). */
    __wasi_fdstat_t pre;
    (void)__wasi_fd_fdstat_get(DIRFD, &pre);
    T("reopen . with the preopen's rights", __wasi_path_open(DIRFD, F, ".", 0, pre.fs_rights_base,
                                                             pre.fs_rights_inheriting, 0, &fd));
    T("rights are per type (file gets no readdir)", op(DIRFD, F, "file.txt", 0, RIGHTS_ALL, 0));
    (void)__wasi_fd_fdstat_get(fd, &fs);
    SAY("file base has FD_READDIR: %s, has FD_READ: %s\n",
        (fs.fs_rights_base & __WASI_RIGHTS_FD_READDIR) ? "yes" : "no",
        (fs.fs_rights_base & __WASI_RIGHTS_FD_READ) ? "yes" : "no");
    /* Paths are WASI strings, UTF-8: anything else is EILSEQ and nothing
       is made (wasmtime's answer). */
    T("create \"\\xff\\xff\" (not UTF-8)", op(DIRFD, F, "\xff\xff", __WASI_OFLAGS_CREAT, RIGHTS_ALL, 0));
    T("create \"caf\\xc3\\xa9\" (UTF-8)", op(DIRFD, F, "caf\xc3\xa9", __WASI_OFLAGS_CREAT, RIGHTS_ALL, 0));
    T("open \"\\xc0\\xaf\" (overlong \"/\")", op(DIRFD, F, "\xc0\xaf", 0, R_READ, 0));
    T("open \"\\xed\\xa0\\x80\" (a surrogate)", op(DIRFD, F, "\xed\xa0\x80", 0, R_READ, 0));
    T("open \"dir/\\xe2\\x82\" (cut short)", op(DIRFD, F, "dir/\xe2\x82", 0, R_READ, 0));
    T("mkdir \"\\xf5x\" (past U+10FFFF)", __wasi_path_create_directory(DIRFD, "\xf5x"));
    T("symlink to \"\\xff\" (target not UTF-8)", __wasi_path_symlink("\xff", DIRFD, "badlink"));
    return 0;
}
