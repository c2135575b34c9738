/* Sandbox escape attempts. The preopen is /sandbox; the harness puts
   outside/secret.txt beside it and the symlinks listed in docs/wasi.md
   inside it. Each attempt prints the errno it gets; nothing may happen
   outside the preopen. */
#include "common.h"
#define F __WASI_LOOKUPFLAGS_SYMLINK_FOLLOW
static __wasi_fd_t fd;
static void try_open(const char *p, __wasi_lookupflags_t lf, __wasi_oflags_t of) {
    char label[160];
    snprintf(label, sizeof label, "open %s%s%s", p, lf ? "" : " (nofollow)", of & __WASI_OFLAGS_CREAT ? " (create)" : "");
    __wasi_errno_t e = __wasi_path_open(DIRFD, lf, p, of, R_READ | R_WRITE, 0, 0, &fd);
    if (e) { T(label, e); return; }
    char buf[32];
    __wasi_errno_t r = rstr(fd, buf, sizeof buf);
    SAY("%s: ok, reads [%s]%s\n", label, buf, r ? en(r) : "");
    (void)__wasi_fd_close(fd);
}
int main(void) {
    try_open("../outside/secret.txt", F, 0);
    try_open("..", F, 0);
    try_open("sub/../../outside/secret.txt", F, 0);
    try_open("sub/../sub/../../outside/secret.txt", F, 0);
    try_open("/etc/passwd", F, 0);
    try_open("/sandbox/file.txt", F, 0);
    try_open("abs_dir_link/secret.txt", F, 0);
    try_open("abs_file_link", F, 0);
    try_open("abs_file_link", 0, 0);
    try_open("rel_dir_link/secret.txt", F, 0);
    try_open("rel_dir_link/secret.txt", 0, 0);
    try_open("sub/rel_file_link", F, 0);
    try_open("sub/deep_link", F, 0);
    try_open("loop_a", F, 0);
    try_open("loop_a/x", 0, 0);
    try_open("self", F, 0);
    try_open("c0", F, 0);   /* 41 links */
    try_open("c1", F, 0);   /* 40 links: allowed */
    try_open("in_link/../file.txt", F, 0);
    try_open("sub/inside_up", F, 0);
    try_open("sub/..", F, 0);
    try_open("sub/../..", F, 0);
    try_open("./././file.txt", F, 0);
    try_open("rel_dir_link/new.txt", F, __WASI_OFLAGS_CREAT);
    try_open("dangling_out", F, __WASI_OFLAGS_CREAT);
    T("mkdir ../escaped", __wasi_path_create_directory(DIRFD, "../escaped"));
    T("mkdir rel_dir_link/escaped", __wasi_path_create_directory(DIRFD, "rel_dir_link/escaped"));
    T("symlink newlink -> ../outside (made, inside)", __wasi_path_symlink("../outside", DIRFD, "newlink"));
    try_open("newlink/secret.txt", F, 0);
    T("symlink abs -> /etc", __wasi_path_symlink("/etc", DIRFD, "abs2"));
    T("rename file.txt -> ../outside/moved", __wasi_path_rename(DIRFD, "file.txt", DIRFD, "../outside/moved"));
    T("rename ../outside/secret.txt -> stolen", __wasi_path_rename(DIRFD, "../outside/secret.txt", DIRFD, "stolen"));
    T("rename via rel_dir_link", __wasi_path_rename(DIRFD, "rel_dir_link/secret.txt", DIRFD, "stolen"));
    T("link file.txt -> rel_dir_link/hard", __wasi_path_link(DIRFD, 0, "file.txt", DIRFD, "rel_dir_link/hard"));
    T("link abs_file_link (follow) -> stolen", __wasi_path_link(DIRFD, F, "abs_file_link", DIRFD, "stolen"));
    T("unlink rel_dir_link/secret.txt", __wasi_path_unlink_file(DIRFD, "rel_dir_link/secret.txt"));
    T("unlink ../outside/secret.txt", __wasi_path_unlink_file(DIRFD, "../outside/secret.txt"));
    T("rmdir ../outside", __wasi_path_remove_directory(DIRFD, "../outside"));
    __wasi_filestat_t st;
    T("stat abs_dir_link (follow)", __wasi_path_filestat_get(DIRFD, F, "abs_dir_link", &st));
    T("stat abs_dir_link (nofollow)", __wasi_path_filestat_get(DIRFD, 0, "abs_dir_link", &st));
    T("stat rel_dir_link/secret.txt", __wasi_path_filestat_get(DIRFD, 0, "rel_dir_link/secret.txt", &st));
    T("set_times via rel_dir_link", __wasi_path_filestat_set_times(DIRFD, F, "rel_dir_link/secret.txt", 0, 0, __WASI_FSTFLAGS_MTIM_NOW));
    char buf[256];
    __wasi_size_t n;
    T("readlink abs_dir_link (reading a link is allowed)", __wasi_path_readlink(DIRFD, "abs_dir_link", (uint8_t *)buf, sizeof buf, &n));
    T("readlink rel_dir_link/x", __wasi_path_readlink(DIRFD, "rel_dir_link/x", (uint8_t *)buf, sizeof buf, &n));
    /* Through a directory fd opened below the preopen, `..` stops at it. */
    __wasi_fd_t sub;
    T("open sub", __wasi_path_open(DIRFD, F, "sub", __WASI_OFLAGS_DIRECTORY, RIGHTS_DIR, RIGHTS_ALL, 0, &sub));
    T("from sub: ../file.txt", __wasi_path_open(sub, F, "../file.txt", 0, R_READ, 0, 0, &fd));
    T("from sub: inside_up (link to ../file.txt)", __wasi_path_open(sub, F, "inside_up", 0, R_READ, 0, 0, &fd));
    return 0;
}
