/*
 * wasidiff.c — the differential test of weft's WASI file layer against the
 * Linux kernel (docs/wasi.md, "Differential test").
 *
 * One source, two programs. Built for wasm32-wasi it is the guest: every
 * operation is a raw preview1 call (<wasi/api.h>) run by weft. Built
 * natively it is the twin: the same operation as the *at system call a
 * POSIX program would make (openat, linkat, symlinkat, renameat, ...), on
 * the same path bytes, so the kernel decides the answer. The twin also
 * builds the scratch trees and compares the two runs:
 *
 *   wasidiff setup DIR            one directory per case, DIR/cNNNN/{box,outside}
 *   wasidiff run DIR              (native) run every case in DIR/cNNNN/box
 *   weft run --dir DIR::/scratch wasidiff.wasm run
 *                                 (guest) the same cases, through weft
 *   wasidiff compare NATIVE.out WEFT.out NATIVE_DIR WEFT_DIR PRISTINE_DIR
 *                                 errno + results + resulting tree per case
 *   wasidiff selfcheck DIR        checks the test's rights table (below)
 *                                 against the kernel
 *   wasidiff list                 every case's name
 *
 * A case is one call (path_open optionally followed by one fd_* probe on
 * the opened fd) relative to a directory fd on the case's `box`. Its result
 * line holds the errno (the native errno mapped to WASI by the table
 * below) and whatever the call returns that does not depend on inode
 * numbers or clocks. Both must match, and so must the case's directory
 * afterwards (names, types, sizes, modes, file contents, link targets, and
 * times the case set). The only differences allowed are the sandbox's own,
 * listed with their reasons in `allowed[]`: there weft must answer
 * ENOTCAPABLE and leave the tree exactly as it was set up.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __wasi__
#include <wasi/api.h>
#else
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <sys/stat.h>
#include <unistd.h>
#endif

/* ---- WASI constants (witx, wasi_snapshot_preview1), for both sides ---- */

#define R_FD_DATASYNC (1ull << 0)
#define R_FD_READ (1ull << 1)
#define R_FD_SEEK (1ull << 2)
#define R_FD_FDSTAT_SET_FLAGS (1ull << 3)
#define R_FD_SYNC (1ull << 4)
#define R_FD_TELL (1ull << 5)
#define R_FD_WRITE (1ull << 6)
#define R_FD_ADVISE (1ull << 7)
#define R_FD_ALLOCATE (1ull << 8)
#define R_FD_READDIR (1ull << 14)
#define R_FD_FILESTAT_GET (1ull << 21)
#define R_FD_FILESTAT_SET_SIZE (1ull << 22)
#define R_FD_FILESTAT_SET_TIMES (1ull << 23)
#define R_ALL ((1ull << 30) - 1)
/* Every right that only matters for paths (bits 9-13, 15-20, 24-26). */
#define R_PATHS (((1ull << 14) - (1ull << 9)) | ((1ull << 21) - (1ull << 15)) | \
                 ((1ull << 27) - (1ull << 24)))

#define O_CREAT_W 1u
#define O_DIRECTORY_W 2u
#define O_EXCL_W 4u
#define O_TRUNC_W 8u
#define FDFLAG_APPEND_W 1u

/* Times that path_filestat_set_times / fd_filestat_set_times set (s). */
#define T_ATIM 1000000000ll
#define T_MTIM 1000000001ll

static const char *const errnames[] = {
    "ok", "E2BIG", "EACCES", "EADDRINUSE", "EADDRNOTAVAIL", "EAFNOSUPPORT", "EAGAIN",
    "EALREADY", "EBADF", "EBADMSG", "EBUSY", "ECANCELED", "ECHILD", "ECONNABORTED",
    "ECONNREFUSED", "ECONNRESET", "EDEADLK", "EDESTADDRREQ", "EDOM", "EDQUOT", "EEXIST",
    "EFAULT", "EFBIG", "EHOSTUNREACH", "EIDRM", "EILSEQ", "EINPROGRESS", "EINTR", "EINVAL",
    "EIO", "EISCONN", "EISDIR", "ELOOP", "EMFILE", "EMLINK", "EMSGSIZE", "EMULTIHOP",
    "ENAMETOOLONG", "ENETDOWN", "ENETRESET", "ENETUNREACH", "ENFILE", "ENOBUFS", "ENODEV",
    "ENOENT", "ENOEXEC", "ENOLCK", "ENOLINK", "ENOMEM", "ENOMSG", "ENOPROTOOPT", "ENOSPC",
    "ENOSYS", "ENOTCONN", "ENOTDIR", "ENOTEMPTY", "ENOTRECOVERABLE", "ENOTSOCK", "ENOTSUP",
    "ENOTTY", "ENXIO", "EOVERFLOW", "EOWNERDEAD", "EPERM", "EPIPE", "EPROTO",
    "EPROTONOSUPPORT", "EPROTOTYPE", "ERANGE", "EROFS", "ESPIPE", "ESRCH", "ESTALE",
    "ETIMEDOUT", "ETXTBSY", "EXDEV", "ENOTCAPABLE"};
#define W_ENOTCAPABLE 76

static const char *ename(int e) {
    static char buf[32];
    if (e >= 0 && e < (int)(sizeof errnames / sizeof errnames[0])) return errnames[e];
    snprintf(buf, sizeof buf, "errno%d", e);
    return buf;
}

/* ---- The cases ---- */

enum { OP_OPEN, OP_MKDIR, OP_STAT, OP_UTIMES, OP_LINK, OP_RENAME, OP_SYMLINK,
       OP_READLINK, OP_RMDIR, OP_UNLINK };
static const char *const opnames[] = {"path_open", "path_create_directory",
    "path_filestat_get", "path_filestat_set_times", "path_link", "path_rename",
    "path_symlink", "path_readlink", "path_remove_directory", "path_unlink_file"};

/* What a path_open case does with the fd it got. */
enum { PR_NONE, PR_READ, PR_WRITE, PR_SET_SIZE, PR_ALLOCATE, PR_DATASYNC, PR_SYNC,
       PR_READDIR, PR_STAT, PR_TIMES, PR_SEEK, PR_COUNT };
static const struct {
    const char *name;
    uint64_t right; /* the right the probe's call needs */
    int on_dir;     /* a call that makes sense on a directory */
} probes[PR_COUNT] = {
    {"none", 0, 1},
    {"fd_read", R_FD_READ, 0},
    {"fd_write", R_FD_WRITE, 0},
    {"fd_filestat_set_size", R_FD_FILESTAT_SET_SIZE, 0},
    {"fd_allocate", R_FD_ALLOCATE, 0},
    {"fd_datasync", R_FD_DATASYNC, 1},
    {"fd_sync", R_FD_SYNC, 1},
    {"fd_readdir", R_FD_READDIR, 1},
    {"fd_filestat_get", R_FD_FILESTAT_GET, 1},
    {"fd_filestat_set_times", R_FD_FILESTAT_SET_TIMES, 1},
    {"fd_seek", R_FD_SEEK, 0},
};

/* Rights a path_open case asks for (base; inheriting is the same). */
#define RS_OF_BASE 0 /* exactly the rights the directory fd itself has */
static const struct {
    const char *name;
    uint64_t rights;
} rsets[] = {
    {"of_base", 0},
    {"none", 0},
    {"read", R_FD_READ | R_FD_SEEK | R_FD_TELL | R_FD_FILESTAT_GET},
    {"write", R_FD_WRITE | R_FD_SEEK | R_FD_TELL | R_FD_FILESTAT_GET},
    {"rw", R_FD_READ | R_FD_WRITE | R_FD_SEEK | R_FD_TELL | R_FD_FILESTAT_GET},
    {"datasync", R_FD_DATASYNC | R_FD_SYNC | R_FD_FILESTAT_GET},
    {"set_size", R_FD_FILESTAT_SET_SIZE | R_FD_FILESTAT_GET},
    {"allocate", R_FD_ALLOCATE | R_FD_FILESTAT_GET},
    {"readdir", R_FD_READDIR | R_FD_FILESTAT_GET},
    {"times", R_FD_FILESTAT_SET_TIMES | R_FD_FILESTAT_GET},
    /* What wasi-libc's open() asks for with O_RDONLY, O_WRONLY, O_RDWR. */
    {"libc_rdonly", R_ALL & ~(R_FD_DATASYNC | R_FD_WRITE | R_FD_ALLOCATE | R_FD_FILESTAT_SET_SIZE)},
    {"libc_wronly", R_ALL & ~(R_FD_READ | R_FD_READDIR)},
    {"libc_rdwr", R_ALL},
    /* Every right a directory fd can use (fd_datasync included). */
    {"dir_all", R_PATHS | R_FD_READDIR | R_FD_DATASYNC | R_FD_SYNC | R_FD_ADVISE |
                    R_FD_FDSTAT_SET_FLAGS | R_FD_FILESTAT_GET | R_FD_FILESTAT_SET_TIMES},
};
#define NRSETS ((int)(sizeof rsets / sizeof rsets[0]))

/* What the directory fd on each case's box is opened with (guest), as
   wasi-libc opens a directory for reading. */
#define BOX_RIGHTS (R_ALL & ~(R_FD_DATASYNC | R_FD_WRITE | R_FD_ALLOCATE | R_FD_FILESTAT_SET_SIZE))

/* The test's statement of which rights need a readable or writable host
   descriptor: a right does iff the Linux call it grants fails on a
   descriptor opened without that access. `selfcheck` proves each row on the
   kernel. The native twin opens with the access the asked rights need
   (O_RDONLY when none: a descriptor needs some mode). */
static const struct {
    uint64_t right;
    const char *call;
    char access; /* 'r', 'w', or '-' (any descriptor) */
} rights_access[] __attribute__((unused)) = {
    {R_FD_READ, "read", 'r'},
    {R_FD_WRITE, "write", 'w'},
    {R_FD_ALLOCATE, "posix_fallocate", 'w'},
    {R_FD_FILESTAT_SET_SIZE, "ftruncate", 'w'},
    {R_FD_DATASYNC, "fdatasync", '-'},
    {R_FD_SYNC, "fsync", '-'},
    {R_FD_READDIR, "getdents", '-'},
    {R_FD_SEEK, "lseek", '-'},
    {R_FD_FILESTAT_GET, "fstat", '-'},
    {R_FD_FILESTAT_SET_TIMES, "futimens", '-'},
};
#define NACCESS ((int)(sizeof rights_access / sizeof rights_access[0]))

typedef struct dcase {
    uint8_t op, follow, oflags, rset, probe;
    uint8_t root; /* relative to: 0 the box, 1 the preopen, 2 an fd on box/file */
    uint8_t fdflags;
    const char *a, *b;
} dcase;

static dcase *cases;
static int ncases, capcases;

static void add(dcase c) {
    if (ncases == capcases) {
        capcases = capcases ? capcases * 2 : 1024;
        cases = realloc(cases, (size_t)capcases * sizeof *cases);
        if (!cases) abort();
    }
    cases[ncases++] = c;
}

/* Every box holds:
     file            "abc"
     dir/            dir/inner "in", dir/uplink -> ../file
     empty/
     link_file -> file, link_dir -> dir, dangling -> missing
     loop -> loop, loopa -> loopb -> loopa
     out_link -> ../outside  (leaves the box: the sandbox's case)
   and beside the box: outside/secret "s". */
static const char *const paths[] = {
    "file", "file/", "file/.", "file/x", "./file", "dir/../file", "dir//inner",
    "dir", "dir/", "dir//", "dir/.", "dir/inner", "dir/inner/", "dir/..", "dir/uplink",
    "empty", "empty/", ".", "./", "missing", "missing/", "missing/x", "dir/missing",
    "link_file", "link_file/", "link_file/x", "link_dir", "link_dir/", "link_dir/inner",
    "link_dir/uplink", "dangling", "dangling/", "loop", "loop/", "loopa", "loopa/x",
    "..", "../outside/secret", "dir/../..", "out_link", "out_link/secret", "",
};
#define NPATHS ((int)(sizeof paths / sizeof paths[0]))

static void build_cases(void) {
    if (ncases) return;
    /* path_open: every path, every oflags combination, both lookups. */
    for (int p = 0; p < NPATHS; p++)
        for (int of = 0; of < 16; of++)
            for (int f = 1; f >= 0; f--)
                add((dcase){OP_OPEN, (uint8_t)f, (uint8_t)of, 2, PR_NONE, 0, 0, paths[p], NULL});
    /* path_open: each rights set on files, directories and missing names. */
    static const char *const rpaths[] = {"file", "dir", ".", "link_file", "link_dir", "missing",
                                         "dir/", "file/", "empty", "dangling", "link_dir/"};
    static const uint8_t roflags[] = {0, O_CREAT_W, O_DIRECTORY_W, O_TRUNC_W,
                                      O_CREAT_W | O_EXCL_W, O_CREAT_W | O_TRUNC_W};
    for (int p = 0; p < (int)(sizeof rpaths / sizeof *rpaths); p++)
        for (int o = 0; o < (int)sizeof roflags; o++)
            for (int r = 0; r < NRSETS; r++)
                add((dcase){OP_OPEN, 1, roflags[o], (uint8_t)r, PR_NONE, 0, 0, rpaths[p], NULL});
    /* path_open then one call the rights allow, on files and directories. */
    static const struct { const char *path; uint8_t oflags; int dir; } ppaths[] = {
        {"file", 0, 0}, {"link_file", 0, 0}, {"missing", O_CREAT_W, 0},
        {"file", O_TRUNC_W, 0}, {"dir", 0, 1}, {"dir", O_DIRECTORY_W, 1}, {".", 0, 1},
        {"link_dir/", 0, 1}};
    for (int p = 0; p < (int)(sizeof ppaths / sizeof *ppaths); p++)
        for (int pr = 1; pr < PR_COUNT; pr++) {
            if (ppaths[p].dir && !probes[pr].on_dir) continue;
            for (int r = 1; r < NRSETS; r++) {
                if (!(rsets[r].rights & probes[pr].right)) continue;
                add((dcase){OP_OPEN, 1, ppaths[p].oflags, (uint8_t)r, (uint8_t)pr, 0, 0,
                            ppaths[p].path, NULL});
                if (pr == PR_WRITE)
                    add((dcase){OP_OPEN, 1, ppaths[p].oflags, (uint8_t)r, (uint8_t)pr, 0,
                                FDFLAG_APPEND_W, ppaths[p].path, NULL});
            }
        }
    /* Reopening the directory fd itself (the box, and the preopen root). */
    for (int root = 0; root < 2; root++)
        for (int r = 0; r < NRSETS; r++)
            for (int o = 0; o < 2; o++)
                add((dcase){OP_OPEN, 1, o ? O_DIRECTORY_W : 0, (uint8_t)r,
                            (uint8_t)(root ? PR_NONE : PR_READDIR * (r == RS_OF_BASE)),
                            (uint8_t)root, 0, ".", NULL});
    /* Every call relative to a regular file's fd instead of a directory's
       (base 2: an fd on box/file). */
    static const char *const fpaths[] = {"x", "", ".", "..", "x/"};
    for (int p = 0; p < (int)(sizeof fpaths / sizeof *fpaths); p++) {
        const char *x = fpaths[p];
        add((dcase){OP_OPEN, 1, 0, 2, PR_NONE, 2, 0, x, NULL});
        add((dcase){OP_OPEN, 1, O_CREAT_W, 3, PR_NONE, 2, 0, x, NULL});
        add((dcase){OP_MKDIR, 0, 0, 0, 0, 2, 0, x, NULL});
        add((dcase){OP_STAT, 1, 0, 0, 0, 2, 0, x, NULL});
        add((dcase){OP_UTIMES, 0, 0, 0, 0, 2, 0, x, NULL});
        add((dcase){OP_LINK, 0, 0, 0, 0, 2, 0, x, "y"});
        add((dcase){OP_RENAME, 0, 0, 0, 0, 2, 0, x, "y"});
        add((dcase){OP_SYMLINK, 0, 0, 0, 0, 2, 0, "t", x});
        add((dcase){OP_READLINK, 0, 0, 0, 0, 2, 0, x, NULL});
        add((dcase){OP_RMDIR, 0, 0, 0, 0, 2, 0, x, NULL});
        add((dcase){OP_UNLINK, 0, 0, 0, 0, 2, 0, x, NULL});
    }
    /* Names that are not UTF-8 (the kernel takes any bytes; a WASI string
       is UTF-8: chosen[]), and one that is, which must match the kernel. */
    static const char *const u8[] = {"\xff\xff", "dir/\xc0\xaf", "caf\xc3\xa9"};
    for (int p = 0; p < (int)(sizeof u8 / sizeof *u8); p++) {
        add((dcase){OP_OPEN, 1, O_CREAT_W, 4, PR_WRITE, 0, 0, u8[p], NULL});
        add((dcase){OP_MKDIR, 0, 0, 0, 0, 0, 0, u8[p], NULL});
        add((dcase){OP_STAT, 1, 0, 0, 0, 0, 0, u8[p], NULL});
        add((dcase){OP_LINK, 0, 0, 0, 0, 0, 0, "file", u8[p]});
        add((dcase){OP_RENAME, 0, 0, 0, 0, 0, 0, "file", u8[p]});
        add((dcase){OP_SYMLINK, 0, 0, 0, 0, 0, 0, u8[p], "new"});
        add((dcase){OP_SYMLINK, 0, 0, 0, 0, 0, 0, "file", u8[p]});
    }
    /* The single-path calls. */
    for (int p = 0; p < NPATHS; p++) {
        add((dcase){OP_MKDIR, 0, 0, 0, 0, 0, 0, paths[p], NULL});
        add((dcase){OP_READLINK, 0, 0, 0, 0, 0, 0, paths[p], NULL});
        add((dcase){OP_RMDIR, 0, 0, 0, 0, 0, 0, paths[p], NULL});
        add((dcase){OP_UNLINK, 0, 0, 0, 0, 0, 0, paths[p], NULL});
        for (int f = 1; f >= 0; f--) {
            add((dcase){OP_STAT, (uint8_t)f, 0, 0, 0, 0, 0, paths[p], NULL});
            add((dcase){OP_UTIMES, (uint8_t)f, 0, 0, 0, 0, 0, paths[p], NULL});
        }
    }
    /* path_link: sources x new paths, both lookups for the source. */
    static const char *const lsrc[] = {"file", "file/", "dir", "dir/", "link_file",
                                       "link_file/", "link_dir", "dangling", "missing",
                                       "missing/", "loop", "."};
    static const char *const ldst[] = {"new", "new/", "file", "file/", "dir", "dir/",
                                       "missing/new", "dir/new", "link_dir/new", "dangling",
                                       "dangling/", "new/.", "..", "../new", "empty/"};
    for (int s = 0; s < (int)(sizeof lsrc / sizeof *lsrc); s++)
        for (int d = 0; d < (int)(sizeof ldst / sizeof *ldst); d++)
            for (int f = 1; f >= 0; f--)
                add((dcase){OP_LINK, (uint8_t)f, 0, 0, 0, 0, 0, lsrc[s], ldst[d]});
    /* path_rename. */
    static const char *const rsrc[] = {"file", "file/", "dir", "dir/", "empty", "empty/",
                                       "link_file", "link_file/", "link_dir", "link_dir/",
                                       "dangling", "missing", ".", "dir/inner", "dir/.."};
    static const char *const rdst[] = {"new", "new/", "file", "file/", "dir", "dir/", "empty",
                                       "empty/", "link_dir", "link_dir/", "missing/new",
                                       "dir/new", "dangling", "dangling/", "../new",
                                       "dir/inner", "."};
    for (int s = 0; s < (int)(sizeof rsrc / sizeof *rsrc); s++)
        for (int d = 0; d < (int)(sizeof rdst / sizeof *rdst); d++)
            add((dcase){OP_RENAME, 0, 0, 0, 0, 0, 0, rsrc[s], rdst[d]});
    /* path_symlink: targets x new paths. */
    static const char *const starg[] = {"file", "missing", "dir", "dir/", "../outside",
                                        "a/b", "/etc"};
    static const char *const sdst[] = {"new", "new/", "file", "file/", "dir", "dir/",
                                       "dangling", "dangling/", "missing/new", "link_dir/new",
                                       "../new", "new/.", "link_file/", "loop/"};
    for (int t = 0; t < (int)(sizeof starg / sizeof *starg); t++)
        for (int d = 0; d < (int)(sizeof sdst / sizeof *sdst); d++)
            add((dcase){OP_SYMLINK, 0, 0, 0, 0, 0, 0, starg[t], sdst[d]});
}

static const char *oflags_name(unsigned of) {
    static char buf[48];
    if (!of) return "0";
    snprintf(buf, sizeof buf, "%s%s%s%s", of & O_CREAT_W ? "|creat" : "",
             of & O_DIRECTORY_W ? "|directory" : "", of & O_EXCL_W ? "|excl" : "",
             of & O_TRUNC_W ? "|trunc" : "");
    return buf + 1;
}

/* A case's name: what fnmatch patterns in allowed[] and required[] see. */
__attribute__((unused)) static const char *case_name(const dcase *c) {
    static char buf[256];
    static const char *const bases[3] = {"", "@preopen", "@file"};
    int n = snprintf(buf, sizeof buf, "%s%s a=\"%s\"", opnames[c->op], bases[c->root], c->a);
    if (c->b) n += snprintf(buf + n, sizeof buf - (size_t)n, " b=\"%s\"", c->b);
    if (c->op == OP_OPEN || c->op == OP_STAT || c->op == OP_UTIMES || c->op == OP_LINK)
        n += snprintf(buf + n, sizeof buf - (size_t)n, " %s", c->follow ? "follow" : "nofollow");
    if (c->op == OP_OPEN) {
        n += snprintf(buf + n, sizeof buf - (size_t)n, " oflags=%s rights=%s",
                      oflags_name(c->oflags), rsets[c->rset].name);
        if (c->fdflags) n += snprintf(buf + n, sizeof buf - (size_t)n, " fdflags=append");
        if (c->probe)
            snprintf(buf + n, sizeof buf - (size_t)n, " then %s", probes[c->probe].name);
    }
    return buf;
}

/* ---- Running one case: the guest side ---- */
#ifdef __wasi__

#define SCRATCH 3 /* the first --dir preopen */

static int w_probe(__wasi_fd_t fd, int probe, char *out, size_t cap) {
    uint8_t buf[4096];
    __wasi_errno_t e = 0;
    switch (probe) {
    case PR_READ: {
        __wasi_iovec_t v = {buf, 1};
        __wasi_size_t n = 0;
        e = __wasi_fd_read(fd, &v, 1, &n);
        if (!e) snprintf(out, cap, " n=%u", (unsigned)n);
        break;
    }
    case PR_WRITE: {
        __wasi_ciovec_t v = {(const uint8_t *)"x", 1};
        __wasi_size_t n = 0;
        e = __wasi_fd_write(fd, &v, 1, &n);
        if (!e) snprintf(out, cap, " n=%u", (unsigned)n);
        break;
    }
    case PR_SET_SIZE: e = __wasi_fd_filestat_set_size(fd, 1); break;
    case PR_ALLOCATE: e = __wasi_fd_allocate(fd, 0, 8); break;
    case PR_DATASYNC: e = __wasi_fd_datasync(fd); break;
    case PR_SYNC: e = __wasi_fd_sync(fd); break;
    case PR_READDIR: {
        __wasi_size_t used = 0;
        e = __wasi_fd_readdir(fd, buf, sizeof buf, 0, &used);
        if (!e) {
            unsigned count = 0;
            for (size_t at = 0; at + 24 <= used; count++) {
                uint32_t namlen;
                memcpy(&namlen, buf + at + 16, 4);
                at += 24 + namlen;
            }
            snprintf(out, cap, " entries=%u", count);
        }
        break;
    }
    case PR_STAT: {
        __wasi_filestat_t st;
        e = __wasi_fd_filestat_get(fd, &st);
        if (!e)
            snprintf(out, cap, " type=%u size=%llu", st.filetype,
                     st.filetype == __WASI_FILETYPE_DIRECTORY ? 0ull : (unsigned long long)st.size);
        break;
    }
    case PR_TIMES:
        e = __wasi_fd_filestat_set_times(fd, (uint64_t)T_ATIM * 1000000000u,
                                         (uint64_t)T_MTIM * 1000000000u,
                                         __WASI_FSTFLAGS_ATIM | __WASI_FSTFLAGS_MTIM);
        break;
    case PR_SEEK: {
        __wasi_filesize_t off = 0;
        e = __wasi_fd_seek(fd, 0, __WASI_WHENCE_END, &off);
        if (!e) snprintf(out, cap, " off=%llu", (unsigned long long)off);
        break;
    }
    }
    return e;
}

static void run_case(int i, const dcase *c, __wasi_fd_t box, __wasi_fd_t file) {
    char extra[128] = "";
    __wasi_errno_t e = 0;
    __wasi_fd_t base = c->root == 2 ? file : c->root ? SCRATCH : box;
    switch (c->op) {
    case OP_OPEN: {
        uint64_t r = rsets[c->rset].rights, inh = r;
        if (c->rset == RS_OF_BASE) {
            __wasi_fdstat_t fs;
            if ((e = __wasi_fd_fdstat_get(base, &fs))) break;
            r = fs.fs_rights_base;
            inh = fs.fs_rights_inheriting;
        }
        __wasi_fd_t fd;
        e = __wasi_path_open(base, c->follow ? __WASI_LOOKUPFLAGS_SYMLINK_FOLLOW : 0, c->a,
                             c->oflags, r, inh, c->fdflags, &fd);
        if (e) break;
        __wasi_fdstat_t fs;
        int n = 0;
        if (__wasi_fd_fdstat_get(fd, &fs) == 0)
            n = snprintf(extra, sizeof extra, " type=%u", fs.fs_filetype);
        if (c->probe) {
            char pout[64] = "";
            int pe = w_probe(fd, c->probe, pout, sizeof pout);
            snprintf(extra + n, sizeof extra - (size_t)n, " %s=%s%s", probes[c->probe].name,
                     ename(pe), pout);
        }
        (void)__wasi_fd_close(fd);
        break;
    }
    case OP_MKDIR: e = __wasi_path_create_directory(base, c->a); break;
    case OP_STAT: {
        __wasi_filestat_t st;
        e = __wasi_path_filestat_get(base, c->follow ? __WASI_LOOKUPFLAGS_SYMLINK_FOLLOW : 0,
                                     c->a, &st);
        if (!e)
            snprintf(extra, sizeof extra, " type=%u nlink=%llu size=%llu", st.filetype,
                     (unsigned long long)st.nlink,
                     st.filetype == __WASI_FILETYPE_DIRECTORY ? 0ull : (unsigned long long)st.size);
        break;
    }
    case OP_UTIMES:
        e = __wasi_path_filestat_set_times(base, c->follow ? __WASI_LOOKUPFLAGS_SYMLINK_FOLLOW : 0,
                                           c->a, (uint64_t)T_ATIM * 1000000000u,
                                           (uint64_t)T_MTIM * 1000000000u,
                                           __WASI_FSTFLAGS_ATIM | __WASI_FSTFLAGS_MTIM);
        break;
    case OP_LINK:
        e = __wasi_path_link(base, c->follow ? __WASI_LOOKUPFLAGS_SYMLINK_FOLLOW : 0, c->a,
                             base, c->b);
        break;
    case OP_RENAME: e = __wasi_path_rename(base, c->a, base, c->b); break;
    case OP_SYMLINK: e = __wasi_path_symlink(c->a, base, c->b); break;
    case OP_READLINK: {
        uint8_t buf[256];
        __wasi_size_t n = 0;
        e = __wasi_path_readlink(base, c->a, buf, sizeof buf, &n);
        if (!e) snprintf(extra, sizeof extra, " -> %.*s", (int)n, (const char *)buf);
        break;
    }
    case OP_RMDIR: e = __wasi_path_remove_directory(base, c->a); break;
    case OP_UNLINK: e = __wasi_path_unlink_file(base, c->a); break;
    }
    printf("%d %s%s\n", i, ename(e), extra);
}

static int run_all(const char *dir) {
    (void)dir;
    for (int i = 0; i < ncases; i++) {
        char name[32];
        snprintf(name, sizeof name, "c%04d/box", i);
        __wasi_fd_t box;
        __wasi_errno_t e = __wasi_path_open(SCRATCH, 0, name, __WASI_OFLAGS_DIRECTORY,
                                            BOX_RIGHTS, R_ALL, 0, &box);
        if (e) {
            printf("%d box:%s\n", i, ename(e));
            continue;
        }
        __wasi_fd_t file = (__wasi_fd_t)-1;
        if (cases[i].root == 2 &&
            (e = __wasi_path_open(box, 0, "file", 0, rsets[2].rights, 0, 0, &file))) {
            printf("%d file:%s\n", i, ename(e));
            (void)__wasi_fd_close(box);
            continue;
        }
        run_case(i, &cases[i], box, file);
        if (cases[i].root == 2) (void)__wasi_fd_close(file);
        (void)__wasi_fd_close(box);
    }
    return 0;
}

int main(int argc, char **argv) {
    build_cases();
    if (argc >= 2 && strcmp(argv[1], "run") == 0) return run_all(argc > 2 ? argv[2] : "");
    fprintf(stderr, "usage: weft run --dir DIR::/scratch wasidiff.wasm run\n");
    return 2;
}

#else /* ---- The native twin ---- */

/* Linux errno -> WASI errno, by name (the WASI numbering of witx). */
static const struct { int host, wasi; } errmap[] = {
    {0, 0}, {E2BIG, 1}, {EACCES, 2}, {EADDRINUSE, 3}, {EADDRNOTAVAIL, 4}, {EAFNOSUPPORT, 5},
    {EAGAIN, 6}, {EALREADY, 7}, {EBADF, 8}, {EBADMSG, 9}, {EBUSY, 10}, {ECANCELED, 11},
    {ECHILD, 12}, {ECONNABORTED, 13}, {ECONNREFUSED, 14}, {ECONNRESET, 15}, {EDEADLK, 16},
    {EDESTADDRREQ, 17}, {EDOM, 18}, {EDQUOT, 19}, {EEXIST, 20}, {EFAULT, 21}, {EFBIG, 22},
    {EHOSTUNREACH, 23}, {EIDRM, 24}, {EILSEQ, 25}, {EINPROGRESS, 26}, {EINTR, 27},
    {EINVAL, 28}, {EIO, 29}, {EISCONN, 30}, {EISDIR, 31}, {ELOOP, 32}, {EMFILE, 33},
    {EMLINK, 34}, {EMSGSIZE, 35}, {EMULTIHOP, 36}, {ENAMETOOLONG, 37}, {ENETDOWN, 38},
    {ENETRESET, 39}, {ENETUNREACH, 40}, {ENFILE, 41}, {ENOBUFS, 42}, {ENODEV, 43},
    {ENOENT, 44}, {ENOEXEC, 45}, {ENOLCK, 46}, {ENOLINK, 47}, {ENOMEM, 48}, {ENOMSG, 49},
    {ENOPROTOOPT, 50}, {ENOSPC, 51}, {ENOSYS, 52}, {ENOTCONN, 53}, {ENOTDIR, 54},
    {ENOTEMPTY, 55}, {ENOTRECOVERABLE, 56}, {ENOTSOCK, 57}, {ENOTSUP, 58}, {ENOTTY, 59},
    {ENXIO, 60}, {EOVERFLOW, 61}, {EOWNERDEAD, 62}, {EPERM, 63}, {EPIPE, 64}, {EPROTO, 65},
    {EPROTONOSUPPORT, 66}, {EPROTOTYPE, 67}, {ERANGE, 68}, {EROFS, 69}, {ESPIPE, 70},
    {ESRCH, 71}, {ESTALE, 72}, {ETIMEDOUT, 73}, {ETXTBSY, 74}, {EXDEV, 75}};

static int to_wasi(int host) {
    for (size_t i = 0; i < sizeof errmap / sizeof *errmap; i++)
        if (errmap[i].host == host) return errmap[i].wasi;
    return 1000 + host; /* printed as errnoN: never equal to a WASI answer */
}

static int wasi_type(mode_t m) {
    switch (m & S_IFMT) {
    case S_IFBLK: return 1;
    case S_IFCHR: return 2;
    case S_IFDIR: return 3;
    case S_IFREG: return 4;
    case S_IFSOCK: return 6;
    case S_IFLNK: return 7;
    default: return 0;
    }
}

/* The access mode a set of rights needs, from rights_access[]. */
static int access_of(uint64_t rights) {
    int r = 0, w = 0;
    for (int i = 0; i < NACCESS; i++) {
        if (!(rights & rights_access[i].right)) continue;
        if (rights_access[i].access == 'r') r = 1;
        if (rights_access[i].access == 'w') w = 1;
    }
    return r && w ? O_RDWR : w ? O_WRONLY : O_RDONLY;
}

static int n_probe(int fd, int probe, char *out, size_t cap) {
    char buf[16];
    switch (probe) {
    case PR_READ: {
        ssize_t n = read(fd, buf, 1);
        if (n < 0) return errno;
        snprintf(out, cap, " n=%d", (int)n);
        return 0;
    }
    case PR_WRITE: {
        ssize_t n = write(fd, "x", 1);
        if (n < 0) return errno;
        snprintf(out, cap, " n=%d", (int)n);
        return 0;
    }
    case PR_SET_SIZE: return ftruncate(fd, 1) ? errno : 0;
    case PR_ALLOCATE: return posix_fallocate(fd, 0, 8);
    case PR_DATASYNC: return fdatasync(fd) ? errno : 0;
    case PR_SYNC: return fsync(fd) ? errno : 0;
    case PR_READDIR: {
        int d = dup(fd);
        DIR *dp = d >= 0 ? fdopendir(d) : NULL;
        if (!dp) {
            int e = errno;
            if (d >= 0) close(d);
            return e;
        }
        rewinddir(dp);
        unsigned count = 0;
        errno = 0;
        while (readdir(dp)) count++;
        int e = errno;
        closedir(dp);
        if (e) return e;
        snprintf(out, cap, " entries=%u", count);
        return 0;
    }
    case PR_STAT: {
        struct stat st;
        if (fstat(fd, &st)) return errno;
        snprintf(out, cap, " type=%d size=%llu", wasi_type(st.st_mode),
                 S_ISDIR(st.st_mode) ? 0ull : (unsigned long long)st.st_size);
        return 0;
    }
    case PR_TIMES: {
        struct timespec ts[2] = {{T_ATIM, 0}, {T_MTIM, 0}};
        return futimens(fd, ts) ? errno : 0;
    }
    case PR_SEEK: {
        off_t o = lseek(fd, 0, SEEK_END);
        if (o < 0) return errno;
        snprintf(out, cap, " off=%lld", (long long)o);
        return 0;
    }
    }
    return 0;
}

/* The native form of each call: what a POSIX program writes for it. */
static void run_case(FILE *out, int i, const dcase *c, int box, int root, int file) {
    char extra[128] = "";
    int e = 0;
    int base = c->root == 2 ? file : c->root ? root : box;
    int nofollow = c->follow ? 0 : AT_SYMLINK_NOFOLLOW;
    struct timespec ts[2] = {{T_ATIM, 0}, {T_MTIM, 0}};
    switch (c->op) {
    case OP_OPEN: {
        /* The rights of the directory fd itself: the access mode it has. */
        int acc = c->rset == RS_OF_BASE ? (fcntl(base, F_GETFL) & O_ACCMODE)
                                        : access_of(rsets[c->rset].rights);
        int fl = acc | O_CLOEXEC | O_NOCTTY;
        if (c->oflags & O_CREAT_W) fl |= O_CREAT;
        if (c->oflags & O_DIRECTORY_W) fl |= O_DIRECTORY;
        if (c->oflags & O_EXCL_W) fl |= O_EXCL;
        if (c->oflags & O_TRUNC_W) fl |= O_TRUNC;
        if (c->fdflags & FDFLAG_APPEND_W) fl |= O_APPEND;
        if (!c->follow) fl |= O_NOFOLLOW;
        int fd = openat(base, c->a, fl, 0666);
        if (fd < 0) {
            e = errno;
            break;
        }
        struct stat st;
        int n = 0;
        if (fstat(fd, &st) == 0) n = snprintf(extra, sizeof extra, " type=%d", wasi_type(st.st_mode));
        if (c->probe) {
            char pout[64] = "";
            int pe = n_probe(fd, c->probe, pout, sizeof pout);
            snprintf(extra + n, sizeof extra - (size_t)n, " %s=%s%s", probes[c->probe].name,
                     ename(to_wasi(pe)), pout);
        }
        close(fd);
        break;
    }
    case OP_MKDIR: e = mkdirat(base, c->a, 0777) ? errno : 0; break;
    case OP_STAT: {
        struct stat st;
        if (fstatat(base, c->a, &st, nofollow)) e = errno;
        else
            snprintf(extra, sizeof extra, " type=%d nlink=%llu size=%llu", wasi_type(st.st_mode),
                     (unsigned long long)st.st_nlink,
                     S_ISDIR(st.st_mode) ? 0ull : (unsigned long long)st.st_size);
        break;
    }
    case OP_UTIMES: e = utimensat(base, c->a, ts, nofollow) ? errno : 0; break;
    case OP_LINK:
        e = linkat(base, c->a, base, c->b, c->follow ? AT_SYMLINK_FOLLOW : 0) ? errno : 0;
        break;
    case OP_RENAME: e = renameat(base, c->a, base, c->b) ? errno : 0; break;
    case OP_SYMLINK: e = symlinkat(c->a, base, c->b) ? errno : 0; break;
    case OP_READLINK: {
        char buf[256];
        ssize_t n = readlinkat(base, c->a, buf, sizeof buf);
        if (n < 0) e = errno;
        else snprintf(extra, sizeof extra, " -> %.*s", (int)n, buf);
        break;
    }
    case OP_RMDIR: e = unlinkat(base, c->a, AT_REMOVEDIR) ? errno : 0; break;
    case OP_UNLINK: e = unlinkat(base, c->a, 0) ? errno : 0; break;
    }
    fprintf(out, "%d %s%s\n", i, ename(to_wasi(e)), extra);
}

static void die(const char *what, const char *arg) {
    fprintf(stderr, "wasidiff: %s %s: %s\n", what, arg, strerror(errno));
    exit(2);
}

static int run_all(const char *dir) {
    int root = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (root < 0) die("cannot open", dir);
    for (int i = 0; i < ncases; i++) {
        char name[32];
        snprintf(name, sizeof name, "c%04d/box", i);
        int box = openat(root, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (box < 0) {
            printf("%d box:%s\n", i, ename(to_wasi(errno)));
            continue;
        }
        int file = -1;
        if (cases[i].root == 2 && (file = openat(box, "file", O_RDONLY | O_CLOEXEC)) < 0) {
            printf("%d file:%s\n", i, ename(to_wasi(errno)));
            close(box);
            continue;
        }
        run_case(stdout, i, &cases[i], box, root, file);
        if (file >= 0) close(file);
        close(box);
    }
    close(root);
    return 0;
}

/* ---- Setting up the trees ---- */

static void put_file(int dir, const char *name, const char *text) {
    int fd = openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0 || write(fd, text, strlen(text)) != (ssize_t)strlen(text)) die("cannot write", name);
    close(fd);
}

static void put_link(int dir, const char *target, const char *name) {
    if (symlinkat(target, dir, name)) die("cannot symlink", name);
}

static void put_dir(int dir, const char *name) {
    if (mkdirat(dir, name, 0755)) die("cannot mkdir", name);
}

static int setup(const char *dir) {
    if (mkdir(dir, 0755) && errno != EEXIST) die("cannot mkdir", dir);
    int root = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (root < 0) die("cannot open", dir);
    for (int i = 0; i < ncases; i++) {
        char name[32];
        snprintf(name, sizeof name, "c%04d", i);
        put_dir(root, name);
        int c = openat(root, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (c < 0) die("cannot open", name);
        put_dir(c, "outside");
        put_file(c, "outside/secret", "s");
        put_dir(c, "box");
        int b = openat(c, "box", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (b < 0) die("cannot open", "box");
        put_file(b, "file", "abc");
        put_dir(b, "dir");
        put_file(b, "dir/inner", "in");
        put_link(b, "../file", "dir/uplink");
        put_dir(b, "empty");
        put_link(b, "file", "link_file");
        put_link(b, "dir", "link_dir");
        put_link(b, "missing", "dangling");
        put_link(b, "loop", "loop");
        put_link(b, "loopb", "loopa");
        put_link(b, "loopa", "loopb");
        put_link(b, "../outside", "out_link");
        close(b);
        close(c);
    }
    close(root);
    return 0;
}

/* ---- Comparing ---- */

/* Differences the sandbox makes on purpose (docs/wasi.md, "The sandbox").
   A case whose name matches a pattern may differ from the kernel only by
   weft answering ENOTCAPABLE with the case's tree as it was set up. */
static const struct {
    const char *pattern;
    const char *reason;
} allowed[] = {
    {"* a=\"..\"*", "`..` at the directory fd the path is relative to: every fd is its own root"},
    {"* a=\"../*", "`..` at the directory fd the path is relative to: every fd is its own root"},
    {"* b=\"..\"*", "`..` at the directory fd the path is relative to: every fd is its own root"},
    {"* b=\"../*", "`..` at the directory fd the path is relative to: every fd is its own root"},
    {"* a=\"dir/../..\"*", "`..` above the directory fd, after going down and up"},
    {"* a=\"out_link/*", "a symlink (-> ../outside) leading out of the directory fd"},
    {"* a=\"out_link\" follow*", "following a symlink (-> ../outside) out of the directory fd"},
    {"path_symlink a=\"/etc\"*", "an absolute symlink target could only be followed outside"},
};
#define NALLOWED ((int)(sizeof allowed / sizeof allowed[0]))

/* Answers where weft follows wasmtime rather than the kernel, WASI
   preview1 being silent or defining it otherwise (docs/wasi.md, "Where
   WASI preview1 is silent"). A case whose name matches `pattern` passes
   when weft's result is the kernel's with `kernel` replaced by `weft`, and
   the case's tree is the kernel's but for the sizes and contents of
   regular files (what the call weft refuses would have written); with
   `kernel` NULL, when weft's result is `weft` and the tree is as it was set
   up (the call refused before it did anything). */
static const struct {
    const char *pattern, *kernel, *weft, *reason;
} chosen[] = {
    {"path_open * then fd_allocate", "fd_allocate=ok", "fd_allocate=ENOTSUP",
     "fd_allocate is ENOTSUP on every file, as wasmtime answers"},
    {"*\"*\xff*", NULL, "EILSEQ", "a path or target that is not UTF-8 is EILSEQ, as wasmtime answers"},
    {"*\"*\xc0\xaf*", NULL, "EILSEQ", "an overlong UTF-8 form is not UTF-8: EILSEQ"},
};
#define NCHOSEN ((int)(sizeof chosen / sizeof chosen[0]))

/* Whether weft's result `w` is the kernel's `n` with chosen[k]'s
   replacement made. */
static int chosen_match(int k, const char *n, const char *w) {
    if (!chosen[k].kernel) return !strcmp(w, chosen[k].weft);
    const char *at = strstr(n, chosen[k].kernel);
    if (!at) return 0;
    size_t pre = (size_t)(at - n), kl = strlen(chosen[k].kernel), wl = strlen(chosen[k].weft);
    return strlen(w) == strlen(n) - kl + wl && !strncmp(w, n, pre) &&
           !strncmp(w + pre, chosen[k].weft, wl) && !strcmp(w + pre + wl, at + kl);
}

/* A tree listing without the " [size] data" of regular files. */
static char *without_file_data(const char *tree) {
    char *out = strdup(tree), *o = out;
    if (!out) abort();
    for (const char *line = tree; *line;) {
        const char *end = strchr(line, '\n');
        size_t len = end ? (size_t)(end - line) : strlen(line);
        const char *cut = memchr(line, '[', len);
        size_t keep = cut ? (size_t)(cut - line) : len;
        memcpy(o, line, keep);
        o += keep;
        *o++ = '\n';
        line += len + (end ? 1 : 0);
    }
    *o = '\0';
    return out;
}

/* Cases that must exist and match the kernel exactly: the ones issue 13
   reported by hand. */
static const char *const required[] = {
    "path_link a=\"file\" b=\"new/\" follow",
    "path_link a=\"file\" b=\"new/\" nofollow",
    "path_symlink a=\"file\" b=\"new/\"",
    "path_open@preopen a=\".\" follow oflags=0 rights=of_base",
    "path_open@preopen a=\".\" follow oflags=directory rights=of_base",
    "path_open a=\"dir\" follow oflags=0 rights=write",
    "path_open a=\"dir\" follow oflags=directory rights=write",
};
#define NREQUIRED ((int)(sizeof required / sizeof required[0]))

typedef struct sbuf {
    char *p;
    size_t n, cap;
} sbuf;

static void sb_add(sbuf *b, const char *s, size_t n) {
    if (b->n + n + 1 > b->cap) {
        b->cap = (b->n + n + 1) * 2;
        b->p = realloc(b->p, b->cap);
        if (!b->p) abort();
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = '\0';
}

static void sb_printf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
#include <stdarg.h>
static void sb_printf(sbuf *b, const char *fmt, ...) {
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    sb_add(b, tmp, n < 0 ? 0 : (size_t)n >= sizeof tmp ? sizeof tmp - 1 : (size_t)n);
}

static int by_name(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* One line per entry under `dir` (relative names, sorted): type, mode,
   size, contents or target, and the times the cases set. */
static void list_tree(int at, const char *prefix, sbuf *out) {
    int d = openat(at, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *dp = d >= 0 ? fdopendir(d) : NULL;
    if (!dp) {
        sb_printf(out, "%s: cannot list\n", prefix);
        if (d >= 0) close(d);
        return;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *de;
    while ((de = readdir(dp))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, "..")) continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 16;
            names = realloc(names, cap * sizeof *names);
            if (!names) abort();
        }
        names[n++] = strdup(de->d_name);
    }
    qsort(names, n, sizeof *names, by_name);
    int dfd = dirfd(dp);
    for (size_t i = 0; i < n; i++) {
        char path[512];
        snprintf(path, sizeof path, "%s%s", prefix, names[i]);
        struct stat st;
        if (fstatat(dfd, names[i], &st, AT_SYMLINK_NOFOLLOW)) {
            sb_printf(out, "%s ?\n", path);
            continue;
        }
        const char *times = st.st_mtim.tv_sec == T_MTIM && st.st_atim.tv_sec == T_ATIM
                                ? " times-set" : "";
        if (S_ISLNK(st.st_mode)) {
            char t[256];
            ssize_t k = readlinkat(dfd, names[i], t, sizeof t - 1);
            t[k < 0 ? 0 : k] = '\0';
            sb_printf(out, "%s -> %s%s\n", path, t, times);
        } else if (S_ISDIR(st.st_mode)) {
            sb_printf(out, "%s/ %o%s\n", path, (unsigned)(st.st_mode & 07777), times);
            int sub = openat(dfd, names[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
            if (sub >= 0) {
                char p2[520];
                snprintf(p2, sizeof p2, "%s/", path);
                list_tree(sub, p2, out);
                close(sub);
            }
        } else {
            char data[33] = "";
            int f = openat(dfd, names[i], O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
            ssize_t k = f >= 0 ? read(f, data, 32) : -1;
            if (f >= 0) close(f);
            data[k < 0 ? 0 : k] = '\0';
            for (ssize_t j = 0; j < k; j++)
                if (data[j] < 32 || data[j] > 126) data[j] = '.';
            sb_printf(out, "%s %o [%lld] %s%s\n", path, (unsigned)(st.st_mode & 07777),
                      (long long)st.st_size, data, times);
        }
        free(names[i]);
    }
    free(names);
    closedir(dp);
}

static char *case_tree(int root, int i) {
    char name[32];
    snprintf(name, sizeof name, "c%04d", i);
    sbuf b = {0};
    sb_add(&b, "", 0);
    int d = openat(root, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (d < 0) {
        sb_printf(&b, "missing case directory\n");
        return b.p;
    }
    list_tree(d, "", &b);
    close(d);
    return b.p;
}

/* Reads result lines "INDEX REST" into lines[INDEX]. */
static char **read_results(const char *file) {
    FILE *f = fopen(file, "r");
    if (!f) die("cannot read", file);
    char **lines = calloc((size_t)ncases, sizeof *lines);
    char buf[1024];
    while (fgets(buf, sizeof buf, f)) {
        char *sp = strchr(buf, ' ');
        if (!sp) continue;
        int i = atoi(buf);
        if (i < 0 || i >= ncases || lines[i]) continue;
        buf[strcspn(buf, "\n")] = '\0';
        lines[i] = strdup(sp + 1);
    }
    fclose(f);
    return lines;
}

static void show_tree_diff(const char *a, const char *b) {
    /* Lines of a not in b and of b not in a, in order. */
    const char *s[2] = {a, b};
    for (int k = 0; k < 2; k++) {
        const char *p = s[k];
        while (*p) {
            const char *e = strchr(p, '\n');
            size_t n = e ? (size_t)(e - p) + 1 : strlen(p);
            char line[600];
            snprintf(line, sizeof line, "%.*s", (int)n, p);
            if (!strstr(s[1 - k], line)) printf("      %s %s", k ? "weft:  " : "kernel:", line);
            p += n;
        }
    }
}

static int compare(char **argv) {
    char **nat = read_results(argv[0]), **wef = read_results(argv[1]);
    int rn = open(argv[2], O_RDONLY | O_DIRECTORY), rw = open(argv[3], O_RDONLY | O_DIRECTORY),
        rp = open(argv[4], O_RDONLY | O_DIRECTORY);
    if (rn < 0 || rw < 0 || rp < 0) die("cannot open a tree", argv[2]);
    int pass = 0, fail = 0, nallowed = 0;
    int verbose = getenv("WASIDIFF_VERBOSE") != NULL;
    int per_allowed[NALLOWED] = {0}, per_chosen[NCHOSEN] = {0}, nchosen = 0;
    for (int i = 0; i < ncases; i++) {
        const char *name = case_name(&cases[i]);
        const char *n = nat[i] ? nat[i] : "(no result)", *w = wef[i] ? wef[i] : "(no result)";
        char *tn = case_tree(rn, i), *tw = case_tree(rw, i);
        int same = nat[i] && wef[i] && !strcmp(n, w) && !strcmp(tn, tw);
        int ch = -1;
        for (int k = 0; k < NCHOSEN && ch < 0 && !same; k++)
            if (fnmatch(chosen[k].pattern, name, 0) == 0) ch = k;
        if (ch >= 0 && nat[i] && wef[i] && chosen_match(ch, n, w)) {
            char *sn = chosen[ch].kernel ? without_file_data(tn) : case_tree(rp, i),
                 *sw = chosen[ch].kernel ? without_file_data(tw) : strdup(tw);
            if (!sw) abort();
            if (!strcmp(sn, sw)) {
                same = 1;
                nchosen++;
                per_chosen[ch]++;
                if (verbose) printf("chosen %d %s: kernel %s, weft %s (%s)\n", i, name, n, w,
                                    chosen[ch].reason);
            }
            free(sn);
            free(sw);
        }
        if (same) {
            pass++;
        } else {
            int a = -1;
            for (int k = 0; k < NALLOWED && a < 0; k++)
                if (fnmatch(allowed[k].pattern, name, 0) == 0) a = k;
            char *tp = a >= 0 ? case_tree(rp, i) : NULL;
            if (a >= 0 && wef[i] && !strcmp(w, "ENOTCAPABLE") && !strcmp(tw, tp)) {
                pass++;
                nallowed++;
                per_allowed[a]++;
                if (verbose) printf("allowed %d %s: kernel %s, weft %s (%s)\n", i, name, n, w,
                                    allowed[a].reason);
            } else {
                fail++;
                printf("DIFF %d %s: kernel %s, weft %s%s\n", i, name, n, w,
                       a >= 0 ? " (a sandbox case, but not ENOTCAPABLE with the tree untouched)" : "");
                if (strcmp(tn, tw)) show_tree_diff(tn, tw);
            }
            free(tp);
        }
        free(tn);
        free(tw);
    }
    for (int r = 0; r < NREQUIRED; r++) {
        int found = -1;
        for (int i = 0; i < ncases && found < 0; i++)
            if (!strcmp(case_name(&cases[i]), required[r])) found = i;
        if (found < 0) {
            printf("MISSING required case: %s\n", required[r]);
            fail++;
        }
    }
    printf("%d cases: %d as the kernel answers, %d sandbox differences (allowed[]):\n", ncases,
           pass - nallowed - nchosen, nallowed);
    for (int k = 0; k < NALLOWED; k++)
        if (per_allowed[k]) printf("  %4d  %s  (%s)\n", per_allowed[k], allowed[k].pattern,
                                   allowed[k].reason);
    printf("%d explained: wasmtime's answers where WASI preview1 is silent (chosen[]):\n", nchosen);
    for (int k = 0; k < NCHOSEN; k++)
        if (per_chosen[k]) {
            printf("  %4d  ", per_chosen[k]);
            for (const unsigned char *c = (const unsigned char *)chosen[k].pattern; *c; c++)
                printf(*c < 0x80 ? "%c" : "\\x%02x", *c);
            printf("  (%s)\n", chosen[k].reason);
        }
    printf("%d passed, %d failed\n", pass, fail);
    return fail ? 1 : 0;
}

/* ---- The self-check of rights_access[] against the kernel ---- */

static int self_probe(uint64_t right, int fd) {
    char buf[4];
    struct stat st;
    struct timespec ts[2] = {{T_ATIM, 0}, {T_MTIM, 0}};
    if (right == R_FD_READ) return read(fd, buf, 1) < 0 ? errno : 0;
    if (right == R_FD_WRITE) return write(fd, "x", 1) < 0 ? errno : 0;
    if (right == R_FD_ALLOCATE) return posix_fallocate(fd, 0, 8);
    if (right == R_FD_FILESTAT_SET_SIZE) return ftruncate(fd, 2) ? errno : 0;
    if (right == R_FD_DATASYNC) return fdatasync(fd) ? errno : 0;
    if (right == R_FD_SYNC) return fsync(fd) ? errno : 0;
    if (right == R_FD_SEEK) return lseek(fd, 0, SEEK_END) < 0 ? errno : 0;
    if (right == R_FD_FILESTAT_GET) return fstat(fd, &st) ? errno : 0;
    if (right == R_FD_FILESTAT_SET_TIMES) return futimens(fd, ts) ? errno : 0;
    if (right == R_FD_READDIR) {
        int d = dup(fd);
        DIR *dp = fdopendir(d);
        if (!dp) return errno;
        errno = 0;
        int e = readdir(dp) ? 0 : errno ? errno : ENOENT;
        closedir(dp);
        return e;
    }
    return -1;
}

/* For each row: the call works on a descriptor with the row's access and
   fails without it ('-': works on a read-only one). Files, except readdir
   (a directory: it can only ever be opened read-only, as EISDIR for
   O_WRONLY and O_RDWR shows). */
static int selfcheck(const char *dir) {
    int root = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (root < 0) die("cannot open", dir);
    int pass = 0, fail = 0;
    for (int i = 0; i < NACCESS; i++) {
        int isdir = rights_access[i].right == R_FD_READDIR;
        char name[32];
        snprintf(name, sizeof name, "self%d", i);
        if (isdir) put_dir(root, name);
        else put_file(root, name, "abc");
        static const int modes[3] = {O_RDONLY, O_WRONLY, O_RDWR};
        static const char *const mname[3] = {"O_RDONLY", "O_WRONLY", "O_RDWR"};
        for (int m = 0; m < 3; m++) {
            int fd = openat(root, name, modes[m] | O_CLOEXEC);
            int e = fd < 0 ? errno : self_probe(rights_access[i].right, fd);
            if (fd >= 0) close(fd);
            int has = rights_access[i].access == '-' ||
                      (rights_access[i].access == 'r' && modes[m] != O_WRONLY) ||
                      (rights_access[i].access == 'w' && modes[m] != O_RDONLY);
            /* A directory opened for writing: EISDIR is the expected failure. */
            int want_ok = isdir ? modes[m] == O_RDONLY : has;
            if ((e == 0) == want_ok) {
                pass++;
            } else {
                fail++;
                printf("SELFCHECK %s (%c) on %s %s: %s\n", rights_access[i].call,
                       rights_access[i].access, isdir ? "a directory" : "a file", mname[m],
                       e ? strerror(e) : "works");
            }
        }
    }
    close(root);
    printf("%d passed, %d failed\n", pass, fail);
    return fail ? 1 : 0;
}

int main(int argc, char **argv) {
    build_cases();
    if (argc == 3 && !strcmp(argv[1], "setup")) return setup(argv[2]);
    if (argc == 3 && !strcmp(argv[1], "run")) return run_all(argv[2]);
    if (argc == 7 && !strcmp(argv[1], "compare")) return compare(argv + 2);
    if (argc == 3 && !strcmp(argv[1], "selfcheck")) return selfcheck(argv[2]);
    if (argc == 2 && !strcmp(argv[1], "list")) {
        for (int i = 0; i < ncases; i++) printf("%d %s\n", i, case_name(&cases[i]));
        return 0;
    }
    fprintf(stderr, "usage: wasidiff setup|run|selfcheck DIR | compare NAT WEFT NATDIR WEFTDIR "
                    "PRISTINEDIR | list\n");
    return 2;
}
#endif
