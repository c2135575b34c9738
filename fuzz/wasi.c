/*
 * wasi.c — fuzz target: random sequences of WASI path and fd calls in a
 * sandbox, checking that nothing escapes it and nothing crashes.
 *
 * Once per process: a temp dir (mkdtemp in $TMPDIR, else /dev/shm, else
 * /tmp) holding `box/`, the guest's one preopen (fd 3, "/sandbox"), and
 * beside it `outside/secret` and `secret-top`, both holding MARKER; and a
 * tiny module, built here, that imports the WASI functions of FZ_FUNCS
 * and exports a one-page memory and one wrapper per import. (A host
 * function called straight from the host has no caller memory, so the
 * calls must come from the instance.) Guest fds 0-2 are /dev/null.
 *
 * Per input: box/ is emptied (never following a symlink) and refilled:
 * files `a`, `b`, `sub/c`, symlinks `link -> a`, `sub/up -> ../a`,
 * `dlink -> sub`, `out -> ../outside`, `outs -> ../outside/secret`, `abs`
 * and `abss` (absolute, to the temp dir and to the secret), `loop -> loop`.
 * A fresh weft_wasi, store and instance run the input and are freed, so
 * inputs are independent.
 *
 * The input is a sequence of at most MAX_OPS operations (fz_ops), each an
 * opcode byte (low 5 bits: which; bit 7: the next byte picks one i32
 * argument of the call to replace by a pointer or length at or past the
 * end of memory) and the bytes of its arguments: fds from {3, fds the
 * sequence opened, stdio, invalid numbers}, paths joined from a dictionary
 * of components or whole paths that try each escape, rights, flags,
 * offsets, times and buffer sizes from small tables. A missing byte reads
 * as 0. fuzz/wasi_seeds.py writes the seed corpus with the same encoding.
 *
 * Findings (abort, with "finding:" on stderr): (a) MARKER in anything the
 * guest reads back (fd_read, fd_pread, fd_readdir, path_readlink), or an
 * fd, a filestat or a dirent (but "..") naming an object outside box/;
 * (b) after the sequence, the temp dir or outside/ differs from how it
 * was made (names, inodes, link counts, sizes, times, contents); (c) a
 * call that traps or returns an errno past 76; (d) fd_tell disagreeing
 * with the fd_seek just before, a count larger than its buffer, an fd
 * from path_open that is not open or holds rights not asked for, a wrong
 * preopen name; and a host descriptor leaked across inputs. The harness's
 * own failures say "harness:".
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz.h"
#include "wasi/wasi.h"
#include "weft.h"

#define MARKER "\xff\xfe weft fuzz: outside the sandbox 9d3a61 \xfe\xff"
#define GUEST_NAME "/sandbox"
#define MAX_OPS 64

/* Guest memory layout (one page). */
enum { PATH1 = 0x0000, PATH2 = 0x2000, RES = 0x4000, IOV = 0x4100, DATA = 0x5000,
       MEM_SIZE = 0x10000 };

/* The imported functions: X(enum suffix, WASI name, from wasi_unstable). */
#define FZ_FUNCS(X)                                                              \
    X(PATH_OPEN, path_open, 0) X(PATH_CREATE_DIRECTORY, path_create_directory, 0) \
    X(PATH_REMOVE_DIRECTORY, path_remove_directory, 0)                           \
    X(PATH_UNLINK_FILE, path_unlink_file, 0) X(PATH_RENAME, path_rename, 0)      \
    X(PATH_LINK, path_link, 0) X(PATH_SYMLINK, path_symlink, 0)                  \
    X(PATH_READLINK, path_readlink, 0) X(PATH_FILESTAT_GET, path_filestat_get, 0) \
    X(PATH_FILESTAT_SET_TIMES, path_filestat_set_times, 0)                       \
    X(FD_READ, fd_read, 0) X(FD_PREAD, fd_pread, 0) X(FD_WRITE, fd_write, 0)      \
    X(FD_PWRITE, fd_pwrite, 0) X(FD_READDIR, fd_readdir, 0) X(FD_SEEK, fd_seek, 0) \
    X(FD_TELL, fd_tell, 0) X(FD_CLOSE, fd_close, 0) X(FD_RENUMBER, fd_renumber, 0) \
    X(FD_FDSTAT_GET, fd_fdstat_get, 0)                                           \
    X(FD_FDSTAT_SET_FLAGS, fd_fdstat_set_flags, 0)                               \
    X(FD_FDSTAT_SET_RIGHTS, fd_fdstat_set_rights, 0)                             \
    X(FD_FILESTAT_GET, fd_filestat_get, 0)                                       \
    X(FD_FILESTAT_SET_SIZE, fd_filestat_set_size, 0)                             \
    X(FD_FILESTAT_SET_TIMES, fd_filestat_set_times, 0)                           \
    X(FD_ALLOCATE, fd_allocate, 0) X(FD_SYNC, fd_sync, 0)                        \
    X(FD_DATASYNC, fd_datasync, 0) X(FD_ADVISE, fd_advise, 0)                    \
    X(FD_PRESTAT_GET, fd_prestat_get, 0)                                         \
    X(FD_PRESTAT_DIR_NAME, fd_prestat_dir_name, 0)                               \
    X(U_FD_SEEK, fd_seek, 1) X(U_FD_FILESTAT_GET, fd_filestat_get, 1)            \
    X(U_PATH_FILESTAT_GET, path_filestat_get, 1)

#define FZ_ENUM(e, n, u) F_##e,
enum { FZ_FUNCS(FZ_ENUM) F_COUNT };
#undef FZ_ENUM
#define FZ_ROW(e, n, u) {#n, u},
static const struct { const char *name; bool unstable; } fz_funcs[F_COUNT] = {FZ_FUNCS(FZ_ROW)};
#undef FZ_ROW

/* Byte strings that may hold NUL. */
typedef struct fz_str {
    const char *s;
    size_t len;
} fz_str;
#define S(x) {x, sizeof(x) - 1}

/* 17 nested directories (op_make_chain): deeper than the 16 the
   resolver's stack of directories starts with. */
#define FZ_CHAIN "deep/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d/d"
#define FZ_CHAIN_DEPTH 17
#define FZ_UP8 "../../../../../../../../"

static char fz_long[300];       /* 'x's: components of 255 and 256 bytes */
static char fz_too_long[4400];  /* "a/" * 2200: longer than PATH_MAX */
static char fz_abs_secret[512]; /* the temp dir + "/outside/secret" */
static char fz_abs_box_a[512];  /* the temp dir + "/box/a" */

/* Path components, joined by '/' or "//" (".." twice: escapes need it).
   This table, fz_specials, fz_ops and the value tables are mirrored in
   fuzz/wasi_seeds.py. */
static fz_str fz_comps[] = {
    S("a"), S("b"), S("sub"), S("c"), S("link"), S("up"), S("out"), S("outs"), S("abs"),
    S("abss"), S("loop"), S("dlink"), S("new"), S("d"), S("outside"), S("secret"), S("box"),
    S("deep"), S("."), S(".."), S(".."), S(""), {fz_long, 255}, {fz_long, 256}, S("a\0b"),
    S("sub\0"),
};
/* Whole paths, each an escape attempt or an edge case. */
static fz_str fz_specials[] = {
    S("/"), S("//"), S(".."), S("../"), S("../outside"), S("../outside/secret"),
    S("../box/a"), S("../secret-top"), S("sub/../../outside/secret"),
    S("sub/../sub/../../outside/secret"), S("out/secret"), S("out/"), S("outs"), S("abs"),
    S("abs/outside/secret"), S("abss"), S("dlink/up"), S("dlink/../out/secret"),
    S("sub/up/../../outside"), S("/sandbox/a"), S("/etc/passwd"), {fz_abs_secret, 0},
    {fz_abs_box_a, 0}, {fz_too_long, sizeof fz_too_long}, S("a/"), S("sub/"), S("sub//c/"),
    S("./a"), S("."), S("./"), S("link/"), S("loop/x"), S("a\0"), S(""), S(FZ_CHAIN "/new"),
    S(FZ_CHAIN "/" FZ_UP8 FZ_UP8 "../a"), S(FZ_CHAIN "/" FZ_UP8 FZ_UP8 "../../outside/secret"),
};
#define NCOMPS (sizeof fz_comps / sizeof fz_comps[0])
#define NSPECIALS (sizeof fz_specials / sizeof fz_specials[0])

/* What the temp dir holds, as made. */
enum { W_ROOT, W_OUTSIDE, W_SECRET, W_TOP, W_BOX, NWATCH };
static const char *const fz_watch[NWATCH] = {".", "outside", "outside/secret", "secret-top",
                                              "box"};
typedef struct fz_seen {
    struct stat st;
    char names[128];           /* a directory's entries, sorted, '/'-separated */
    char data[128];            /* a file's contents */
    ssize_t len;
} fz_seen;

/* The process's state: the harness's own, not weft's. */
static struct {
    weft_engine *engine;
    weft_module *module;
    const char *params[F_COUNT]; /* 'i'/'I' per parameter, from weft's table */
    char root[256], box[512];
    int rootfd, boxfd, devnull;
    fz_seen made[NWATCH];
    int idle_fds;              /* open host descriptors between inputs */
} fz;

/* One input's run. */
typedef struct fz_run {
    weft_wasi *wasi;
    weft_store *store;
    weft_linker *linker;
    weft_func *fn[F_COUNT];
    uint8_t *mem;
    const uint8_t *in;
    size_t left;
    uint32_t opened[8];        /* recent fds from path_open and fd_renumber */
    unsigned nopened;
    int bad;                   /* byte naming the argument to spoil, or -1 */
    bool spoiled;              /* the last call had an argument spoiled */
    bool chained;              /* op_make_chain ran */
} fz_run;

static void fz_die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void fz_die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("wasi fuzz: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

/* ---- The module ---- */

typedef struct fz_bytes {
    uint8_t b[8192];
    size_t n;
} fz_bytes;

static void fz_put(fz_bytes *o, uint8_t v) {
    if (o->n == sizeof o->b) fz_die("harness: module too big");
    o->b[o->n++] = v;
}

static void fz_put_u32(fz_bytes *o, uint32_t v) {
    do {
        uint8_t x = v & 0x7f;
        v >>= 7;
        fz_put(o, (uint8_t)(x | (v ? 0x80 : 0)));
    } while (v);
}

static void fz_put_str(fz_bytes *o, const char *s) {
    fz_put_u32(o, (uint32_t)strlen(s));
    while (*s) fz_put(o, (uint8_t)*s++);
}

static void fz_put_section(fz_bytes *m, uint8_t id, const fz_bytes *s) {
    fz_put(m, id);
    fz_put_u32(m, (uint32_t)s->n);
    for (size_t i = 0; i < s->n; i++) fz_put(m, s->b[i]);
}

static const char *fz_params_of(const char *name) {
    weft_wasi_function_info info;
    for (uint32_t i = 0; weft_wasi_function(i, &info) == WEFT_OK; i++)
        if (strcmp(info.name, name) == 0) return info.params;
    fz_die("harness: weft has no WASI function %s", name);
}

/* Types, imports, functions, memory, exports ("memory", and "N" for the
   wrapper of import N), code: wrapper N passes its arguments to import N.
   Every index and count is below 128, so one LEB128 byte each. */
static void fz_build_module(fz_bytes *m) {
    static const uint8_t head[8] = {0, 'a', 's', 'm', 1, 0, 0, 0};
    fz_bytes sec[6] = {0};
    for (size_t i = 0; i < 8; i++) fz_put(m, head[i]);
    for (int s = 0; s < 6; s++) fz_put_u32(&sec[s], s == 3 ? 1 : s == 4 ? F_COUNT + 1 : F_COUNT);
    for (uint32_t i = 0; i < F_COUNT; i++) {
        const char *p = fz.params[i] = fz_params_of(fz_funcs[i].name);
        size_t np = strlen(p);
        fz_put(&sec[0], 0x60);
        fz_put_u32(&sec[0], (uint32_t)np);
        for (size_t k = 0; k < np; k++) fz_put(&sec[0], p[k] == 'I' ? WEFT_I64 : WEFT_I32);
        fz_put(&sec[0], 1);
        fz_put(&sec[0], WEFT_I32);
        fz_put_str(&sec[1], fz_funcs[i].unstable ? "wasi_unstable" : "wasi_snapshot_preview1");
        fz_put_str(&sec[1], fz_funcs[i].name);
        fz_put(&sec[1], 0x00);
        fz_put_u32(&sec[1], i);
        fz_put_u32(&sec[2], i);
        char name[16];
        snprintf(name, sizeof name, "%u", i);
        fz_put_str(&sec[4], name);
        fz_put(&sec[4], 0x00);
        fz_put_u32(&sec[4], F_COUNT + i);
        fz_put_u32(&sec[5], (uint32_t)(2 * np + 4)); /* body size */
        fz_put(&sec[5], 0);                          /* no locals */
        for (size_t k = 0; k < np; k++) {
            fz_put(&sec[5], 0x20); /* local.get k */
            fz_put(&sec[5], (uint8_t)k);
        }
        fz_put(&sec[5], 0x10); /* call i */
        fz_put_u32(&sec[5], i);
        fz_put(&sec[5], 0x0b);
    }
    const uint8_t mem[3] = {0x01, 1, 1}; /* limits: min 1, max 1 page */
    for (int k = 0; k < 3; k++) fz_put(&sec[3], mem[k]);
    fz_put_str(&sec[4], "memory");
    fz_put(&sec[4], 0x02);
    fz_put(&sec[4], 0);
    static const uint8_t ids[6] = {1, 2, 3, 5, 7, 10};
    for (int s = 0; s < 6; s++) fz_put_section(m, ids[s], &sec[s]);
}

/* ---- The temp dir ---- */

static void fz_write_file(int dir, const char *name, const char *text) {
    int fd = openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    size_t n = strlen(text);
    if (fd < 0 || write(fd, text, n) != (ssize_t)n) fz_die("harness: cannot write %s", name);
    close(fd);
}

/* Removes everything in `dir`; never follows a symlink. */
static void fz_clear(int dir) {
    int fd = openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) fz_die("harness: cannot list the sandbox: %s", strerror(errno));
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        if (unlinkat(fd, e->d_name, e->d_type == DT_DIR ? AT_REMOVEDIR : 0) == 0) continue;
        int sub = errno == EISDIR || errno == ENOTEMPTY
                      ? openat(fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                      : -1;
        if (sub < 0) fz_die("harness: cannot remove %s: %s", e->d_name, strerror(errno));
        fz_clear(sub);
        close(sub);
        if (unlinkat(fd, e->d_name, AT_REMOVEDIR) != 0)
            fz_die("harness: cannot remove %s: %s", e->d_name, strerror(errno));
    }
    closedir(d);
}

/* The box's tree at the start of every input. */
static void fz_make_box(void) {
    static const char *const links[][2] = {
        {"a", "link"},           {"../a", "sub/up"},   {"sub", "dlink"},
        {"../outside", "out"},   {"../outside/secret", "outs"},
        {fz.root, "abs"},        {fz_abs_secret, "abss"}, {"loop", "loop"},
    };
    fz_write_file(fz.boxfd, "a", "alpha\n");
    fz_write_file(fz.boxfd, "b", "");
    if (mkdirat(fz.boxfd, "sub", 0755) != 0) fz_die("harness: mkdir sub: %s", strerror(errno));
    fz_write_file(fz.boxfd, "sub/c", "gamma gamma gamma\n");
    for (size_t i = 0; i < sizeof links / sizeof links[0]; i++)
        if (symlinkat(links[i][0], fz.boxfd, links[i][1]) != 0)
            fz_die("harness: symlink %s: %s", links[i][1], strerror(errno));
}

static int fz_cmp_names(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A directory's entry names, sorted, into out ("a/b/c/"). */
static void fz_list(const char *rel, char *out, size_t cap) {
    int fd = openat(fz.rootfd, rel, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    out[0] = '\0';
    if (!d) {
        if (fd >= 0) close(fd);
        return;
    }
    char buf[16][NAME_MAX + 1], *names[16];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(d)) && n < 16) {
        strcpy(buf[n], e->d_name);
        names[n] = buf[n];
        n++;
    }
    closedir(d);
    qsort(names, n, sizeof names[0], fz_cmp_names);
    for (size_t i = 0; i < n; i++) {
        strncat(out, names[i], cap - strlen(out) - 1);
        strncat(out, "/", cap - strlen(out) - 1);
    }
}

static void fz_look(fz_seen *s, const char *rel) {
    memset(s, 0, sizeof *s);
    if (fstatat(fz.rootfd, rel, &s->st, AT_SYMLINK_NOFOLLOW) != 0) return; /* st_ino 0 */
    if (S_ISDIR(s->st.st_mode)) fz_list(rel, s->names, sizeof s->names);
    if (!S_ISREG(s->st.st_mode)) return;
    int fd = openat(fz.rootfd, rel, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    s->len = fd >= 0 ? read(fd, s->data, sizeof s->data) : -1;
    if (fd >= 0) close(fd);
}

static bool fz_same_time(struct timespec a, struct timespec b) {
    return a.tv_sec == b.tv_sec && a.tv_nsec == b.tv_nsec;
}

/* (b): the temp dir and outside/ are as made (box/ only by identity). */
static void fz_check_outside(void) {
    for (int i = 0; i < NWATCH; i++) {
        fz_seen now;
        fz_look(&now, fz_watch[i]);
        const fz_seen *was = &fz.made[i];
        bool same = now.st.st_ino == was->st.st_ino && now.st.st_mode == was->st.st_mode;
        if (i != W_BOX)
            same = same && now.st.st_nlink == was->st.st_nlink &&
                   now.st.st_size == was->st.st_size &&
                   fz_same_time(now.st.st_mtim, was->st.st_mtim) &&
                   fz_same_time(now.st.st_ctim, was->st.st_ctim) &&
                   strcmp(now.names, was->names) == 0 && now.len == was->len &&
                   memcmp(now.data, was->data, sizeof now.data) == 0;
        if (!same) fz_die("finding: %s/%s changed outside the sandbox", fz.root, fz_watch[i]);
    }
}

/* Is (dev, ino) one of the objects outside box/? */
static bool fz_is_outside(uint64_t dev, uint64_t ino) {
    for (int i = 0; i < W_BOX; i++)
        if ((uint64_t)fz.made[i].st.st_ino == ino && (uint64_t)fz.made[i].st.st_dev == dev)
            return true;
    return false;
}

static void fz_check_host_fd(int host, uint32_t fd) {
    struct stat st;
    if (fstat(host, &st) != 0) fz_die("finding: guest fd %u has a closed host descriptor", fd);
    if (fz_is_outside((uint64_t)st.st_dev, (uint64_t)st.st_ino))
        fz_die("finding: guest fd %u refers to an object outside the sandbox", fd);
}

static int fz_count_fds(void) {
    DIR *d = opendir("/proc/self/fd");
    if (!d) fz_die("harness: cannot list /proc/self/fd");
    int n = 0;
    while (readdir(d)) n++;
    closedir(d);
    return n;
}

static void fz_remove_all(void) {
    fz_clear(fz.rootfd);
    rmdir(fz.root);
}

/* $TMPDIR, else /dev/shm: on a disk filesystem, making the box's links
   and directories costs about 0.4 ms each (measured on ext4), 30 times
   tmpfs, and that would be most of the time per input. Else /tmp. */
static const char *fz_tmpdir(void) {
    const char *tmp = getenv("TMPDIR");
    if (tmp && *tmp) return tmp;
    return access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : "/tmp";
}

static void fz_make_root(void) {
    snprintf(fz.root, sizeof fz.root, "%s/weft-fuzz-wasi-XXXXXX", fz_tmpdir());
    if (!mkdtemp(fz.root)) fz_die("harness: mkdtemp %s: %s", fz.root, strerror(errno));
    fz.rootfd = open(fz.root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fz.rootfd < 0 || mkdirat(fz.rootfd, "box", 0755) || mkdirat(fz.rootfd, "outside", 0755))
        fz_die("harness: cannot make the temp dir %s", fz.root);
    fz_write_file(fz.rootfd, "outside/secret", MARKER);
    fz_write_file(fz.rootfd, "secret-top", MARKER "\n");
    fz.boxfd = openat(fz.rootfd, "box", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    fz.devnull = open("/dev/null", O_RDWR | O_CLOEXEC);
    if (fz.boxfd < 0 || fz.devnull < 0) fz_die("harness: cannot open box/ or /dev/null");
    snprintf(fz_abs_secret, sizeof fz_abs_secret, "%s/outside/secret", fz.root);
    snprintf(fz_abs_box_a, sizeof fz_abs_box_a, "%s/box/a", fz.root);
    snprintf(fz.box, sizeof fz.box, "%s/box", fz.root);
    for (size_t i = 0; i < NSPECIALS; i++) /* the two absolute paths */
        if (fz_specials[i].s == fz_abs_secret || fz_specials[i].s == fz_abs_box_a)
            fz_specials[i].len = strlen(fz_specials[i].s);
    for (int i = 0; i < NWATCH; i++) fz_look(&fz.made[i], fz_watch[i]);
    atexit(fz_remove_all);
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    memset(fz_long, 'x', sizeof fz_long);
    for (size_t i = 0; i < sizeof fz_too_long; i += 2) memcpy(fz_too_long + i, "a/", 2);
    fz_make_root();
    weft_config cfg = {.max_stack_bytes = 64 << 10};
    fz.engine = weft_engine_new(&cfg);
    fz_bytes m = {0};
    fz_build_module(&m);
    weft_error err = {.message = "out of memory"};
    if (!fz.engine || weft_module_load(fz.engine, m.b, m.n, &fz.module, &err) != WEFT_OK)
        fz_die("harness: the module does not load: %s", err.message);
    fz.idle_fds = fz_count_fds();
    return 0;
}

/* ---- One run: context, store, instance ---- */

static void fz_start(fz_run *r, const uint8_t *data, size_t size) {
    memset(r, 0, sizeof *r);
    r->in = data;
    r->left = size;
    r->bad = -1;
    weft_wasi_preopen pre = {fz.box, GUEST_NAME};
    weft_wasi_config wc;
    weft_wasi_config_init(&wc);
    wc.npreopens = 1;
    wc.preopens = &pre;
    for (int i = 0; i < 3; i++) wc.stdio[i] = fz.devnull;
    weft_error err = {.message = "out of memory"};
    weft_instance *inst;
    weft_extern mem;
    if (weft_wasi_new(&wc, &r->wasi, &err) || !(r->store = weft_store_new(fz.engine)) ||
        !(r->linker = weft_linker_new(r->store)) ||
        weft_wasi_define(r->wasi, r->store, r->linker, &err) ||
        weft_linker_instantiate(r->linker, fz.module, &inst, &err) ||
        weft_instance_export(inst, "memory", &mem))
        fz_die("harness: cannot instantiate: %s", err.message);
    r->mem = weft_memory_data(mem.of.memory);
    for (uint32_t i = 0; i < F_COUNT; i++) {
        char name[16];
        snprintf(name, sizeof name, "%u", i);
        if (!(r->fn[i] = weft_instance_func(inst, name))) fz_die("harness: no export %s", name);
    }
}

static void fz_finish(fz_run *r) {
    weft_wasi *w = r->wasi;
    for (uint32_t i = 0; i < w->nfds; i++)
        if (w->fds[i]) fz_check_host_fd(w->fds[i]->host, i);
    fz_check_outside();
    weft_linker_free(r->linker);
    weft_store_free(r->store);
    weft_wasi_free(w);
    int n = fz_count_fds();
    if (n != fz.idle_fds) fz_die("finding: %d host descriptors open, %d before", n, fz.idle_fds);
}

/* ---- Decoding the input ---- */

static uint8_t fz_byte(fz_run *r) {
    if (!r->left) return 0;
    r->left--;
    return *r->in++;
}

static uint32_t fz_ld32(const fz_run *r, uint32_t at) { return wasi_ld32(r->mem + at); }
static uint64_t fz_ld64(const fz_run *r, uint32_t at) { return wasi_ld64(r->mem + at); }

/* An fd: 3 (byte < 0x40), a remembered one (< 0xb0; low 3 bits pick
   it), or one of `odd`. */
static uint32_t fz_fd(fz_run *r) {
    static const uint32_t odd[] = {0, 1, 2, 3, 4, 5, 9, 64, 0x7fffffff, 0xffffffff};
    uint8_t b = fz_byte(r);
    if (b < 0x40) return 3;
    if (b < 0xb0) return r->nopened ? r->opened[(b & 7) % r->nopened] : 3;
    return odd[b % (sizeof odd / sizeof odd[0])];
}

static void fz_remember(fz_run *r, uint32_t fd) {
    if (r->nopened < 8) r->opened[r->nopened++] = fd;
    else r->opened[fd % 8] = fd;
}

static void fz_emit(fz_run *r, uint32_t *at, fz_str s) {
    memcpy(r->mem + *at, s.s, s.len);
    *at += (uint32_t)s.len;
}

/* Writes a path at `base`; returns its length. One byte k: k < 0x30 picks
   a whole path; else 1 + (k & 3) components, a trailing '/' if k & 4,
   each component one byte (bit 7: joined by "//"). */
static uint32_t fz_path(fz_run *r, uint32_t base) {
    uint8_t k = fz_byte(r);
    uint32_t at = base;
    if (k < 0x30) {
        fz_emit(r, &at, fz_specials[k % NSPECIALS]);
        return at - base;
    }
    for (int i = 0; i <= (k & 3); i++) {
        uint8_t c = fz_byte(r);
        if (i) fz_emit(r, &at, c & 0x80 ? (fz_str)S("//") : (fz_str)S("/"));
        fz_emit(r, &at, fz_comps[c % NCOMPS]);
    }
    if (k & 4) fz_emit(r, &at, (fz_str)S("/"));
    return at - base;
}

static uint64_t fz_rights(fz_run *r) {
    static const uint64_t table[] = {
        ~0ull, 0, WASI_RIGHTS_REGULAR, WASI_RIGHTS_DIRECTORY,
        WASI_RIGHTS_REGULAR | WASI_RIGHTS_DIRECTORY, WASI_RIGHT_FD_READ, WASI_RIGHT_FD_WRITE,
        WASI_RIGHT_FD_READ | WASI_RIGHT_FD_WRITE | WASI_RIGHT_FD_SEEK | WASI_RIGHT_FD_TELL,
        WASI_RIGHT_FD_WRITE | WASI_RIGHT_FD_TELL, WASI_RIGHT_FD_READDIR,
        WASI_RIGHT_FD_READ | WASI_RIGHT_FD_READDIR | WASI_RIGHT_PATH_OPEN,
        WASI_RIGHT_FD_FILESTAT_SET_SIZE | WASI_RIGHT_FD_ALLOCATE, WASI_RIGHT_SOCK_ACCEPT,
        1ull << 40, WASI_RIGHTS_DIRECTORY & ~WASI_RIGHT_PATH_OPEN,
    };
    uint8_t b = fz_byte(r);
    if (b < 0xf0) return table[b % (sizeof table / sizeof table[0])];
    uint64_t v = 0;
    for (int i = 0; i < 8; i++) v = v << 8 | fz_byte(r);
    return v;
}

/* Flags: usually only the defined bits, sometimes all 8 bits. */
static uint32_t fz_flags(fz_run *r, uint32_t defined) {
    uint8_t b = fz_byte(r);
    return b & 0x80 ? b : b & defined;
}

/* File offsets and sizes, kept small unless they are meant to fail. */
static uint64_t fz_offset(fz_run *r) {
    static const uint64_t table[] = {0, 1, 2, 5, 7, 100, 4096, 1u << 20, 1ull << 40,
                                     INT64_MAX - 1, INT64_MAX, (uint64_t)INT64_MAX + 1,
                                     UINT64_MAX, (uint64_t)-5, (uint64_t)-1 << 20, 3};
    return table[fz_byte(r) % (sizeof table / sizeof table[0])];
}

/* Lengths for fd_allocate: never a big real allocation. */
static uint64_t fz_alloc_len(fz_run *r) {
    static const uint64_t table[] = {0, 1, 10, 4096, 65536, (uint64_t)INT64_MAX + 1, UINT64_MAX};
    return table[fz_byte(r) % (sizeof table / sizeof table[0])];
}

static uint64_t fz_time(fz_run *r) {
    static const uint64_t table[] = {0, 1, 1000000000, 1700000000123456789ull, INT64_MAX,
                                     UINT64_MAX};
    return table[fz_byte(r) % (sizeof table / sizeof table[0])];
}

/* Up to 4 iovecs at IOV covering [DATA, DATA + *total). */
static uint32_t fz_iovs(fz_run *r, uint32_t *total) {
    uint32_t n = fz_byte(r) % 5, at = DATA;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t len = fz_byte(r) * 16u;
        wasi_st32(r->mem + IOV + 8 * i, at);
        wasi_st32(r->mem + IOV + 8 * i + 4, len);
        at += len;
    }
    *total = at - DATA;
    return n;
}

/* ---- Calls and checks ---- */

/* Calls import f; (c): no trap, an errno in range. With r->bad set, one
   i32 argument is first replaced by a pointer or length past memory. */
static uint32_t fz_call(fz_run *r, int f, const uint64_t *args) {
    static const uint32_t bad[8] = {MEM_SIZE, MEM_SIZE - 1, MEM_SIZE - 3, MEM_SIZE - 7,
                                    0x7fffffff, 0x80000000, 0xfffffff8, 0xffffffff};
    const char *p = fz.params[f];
    weft_val v[16], res;
    size_t n = strlen(p), nint = 0, spoil = SIZE_MAX;
    for (size_t i = 0; i < n; i++) nint += p[i] == 'i';
    r->spoiled = r->bad >= 0 && nint;
    if (r->spoiled) spoil = (size_t)(r->bad & 7) % nint;
    for (size_t i = 0; i < n; i++) {
        v[i].type = p[i] == 'I' ? WEFT_I64 : WEFT_I32;
        if (p[i] == 'I') {
            v[i].of.i64 = (int64_t)args[i];
            continue;
        }
        v[i].of.i32 = (int32_t)(spoil-- == 0 ? bad[r->bad >> 3 & 7] : (uint32_t)args[i]);
    }
    r->bad = -1;
    weft_error err;
    if (weft_func_call(r->fn[f], v, n, &res, 1, &err) != WEFT_OK)
        fz_die("finding: %s trapped: %s", fz_funcs[f].name, err.message);
    uint32_t e = (uint32_t)res.of.i32;
    if (e > WASI_ENOTCAPABLE) fz_die("finding: %s returned errno %u", fz_funcs[f].name, e);
    /* A spoiled pointer near the end of memory can be valid: the call may
       have written anywhere. */
    if (r->spoiled && e == 0 && memmem(r->mem, MEM_SIZE, MARKER, sizeof MARKER - 1))
        fz_die("finding: %s read the secret", fz_funcs[f].name);
    return e;
}

/* True when the call succeeded with the arguments as given, so that its
   results are where the harness asked for them. */
static bool fz_ok(fz_run *r, int f, const uint64_t *args) {
    return fz_call(r, f, args) == 0 && !r->spoiled;
}

/* (a): MARKER is not in [at, at + len). */
static void fz_no_marker(const fz_run *r, uint32_t at, uint32_t len, const char *what) {
    if (memmem(r->mem + at, len, MARKER, sizeof MARKER - 1))
        fz_die("finding: %s read the secret", what);
}

static void fz_check_filestat(const fz_run *r, const char *what) {
    if (fz_is_outside(fz_ld64(r, RES), fz_ld64(r, RES + 8)))
        fz_die("finding: %s reached an object outside the sandbox", what);
}

/* The fd path_open returned: open, inside, no rights beyond `base`. */
static void fz_check_opened(fz_run *r, uint64_t base) {
    uint32_t fd = fz_ld32(r, RES);
    weft_wasi *w = r->wasi;
    wasi_fd *e = fd < w->nfds ? w->fds[fd] : NULL;
    if (!e) fz_die("finding: path_open returned fd %u, which is not open", fd);
    if (e->base & ~base) fz_die("finding: path_open gave fd %u rights not asked for", fd);
    fz_check_host_fd(e->host, fd);
    fz_remember(r, fd);
}

/* fd_readdir's buffer: no dirent other than ".." names an outside inode
   (everything is on the temp dir's device). */
static void fz_check_dirents(const fz_run *r, uint32_t used) {
    uint64_t dev = (uint64_t)fz.made[W_ROOT].st.st_dev;
    const uint8_t *p = r->mem + DATA;
    for (uint32_t off = 0; off + 24 <= used;) {
        uint32_t namelen = wasi_ld32(p + off + 16);
        uint32_t seen = used - off - 24 < namelen ? used - off - 24 : namelen;
        if (namelen > NAME_MAX) fz_die("finding: fd_readdir: name of %u bytes", namelen);
        bool dotdot = namelen == 2 && memcmp(p + off + 24, "..", seen) == 0;
        if (!dotdot && fz_is_outside(dev, wasi_ld64(p + off + 8)))
            fz_die("finding: fd_readdir listed an object outside the sandbox");
        off += 24 + namelen;
    }
}

/* ---- The operations ---- */

static void op_path_open(fz_run *r) {
    uint32_t fd = fz_fd(r), dirflags = fz_byte(r) & 1u, len = fz_path(r, PATH1);
    uint32_t oflags = fz_flags(r, 0xf);
    uint64_t base = fz_rights(r), inh = fz_rights(r);
    uint64_t a[9] = {fd, dirflags, PATH1, len, oflags, base, inh, fz_flags(r, 0x1f), RES};
    if (fz_ok(r, F_PATH_OPEN, a)) fz_check_opened(r, base);
}

/* The calls taking (fd, path): create/remove directory, unlink. */
static void op_path_simple(fz_run *r, int f) {
    uint32_t fd = fz_fd(r);
    uint64_t a[3] = {fd, PATH1, fz_path(r, PATH1)};
    fz_call(r, f, a);
}
static void op_path_create_directory(fz_run *r) { op_path_simple(r, F_PATH_CREATE_DIRECTORY); }
static void op_path_remove_directory(fz_run *r) { op_path_simple(r, F_PATH_REMOVE_DIRECTORY); }
static void op_path_unlink_file(fz_run *r) { op_path_simple(r, F_PATH_UNLINK_FILE); }

static void op_path_rename(fz_run *r) {
    uint32_t fd = fz_fd(r), len = fz_path(r, PATH1), fd2 = fz_fd(r);
    uint64_t a[6] = {fd, PATH1, len, fd2, PATH2, fz_path(r, PATH2)};
    fz_call(r, F_PATH_RENAME, a);
}

static void op_path_link(fz_run *r) {
    uint32_t fd = fz_fd(r), flags = fz_byte(r) & 1u, len = fz_path(r, PATH1), fd2 = fz_fd(r);
    uint64_t a[7] = {fd, flags, PATH1, len, fd2, PATH2, fz_path(r, PATH2)};
    fz_call(r, F_PATH_LINK, a);
}

static void op_path_symlink(fz_run *r) {
    uint32_t tlen = fz_path(r, PATH2), fd = fz_fd(r);
    uint64_t a[5] = {PATH2, tlen, fd, PATH1, fz_path(r, PATH1)};
    fz_call(r, F_PATH_SYMLINK, a);
}

static void op_path_readlink(fz_run *r) {
    uint32_t fd = fz_fd(r), len = fz_path(r, PATH1), blen = fz_byte(r) * 4u;
    uint64_t a[6] = {fd, PATH1, len, DATA, blen, RES};
    if (!fz_ok(r, F_PATH_READLINK, a)) return;
    uint32_t used = fz_ld32(r, RES);
    if (used > blen) fz_die("finding: path_readlink used %u of %u bytes", used, blen);
    fz_no_marker(r, DATA, used, "path_readlink");
}

static void op_path_filestat_get(fz_run *r) {
    uint8_t b = fz_byte(r);
    uint32_t fd = fz_fd(r);
    uint64_t a[5] = {fd, b & 1u, PATH1, fz_path(r, PATH1), RES};
    if (fz_ok(r, b & 0x80 ? F_U_PATH_FILESTAT_GET : F_PATH_FILESTAT_GET, a))
        fz_check_filestat(r, "path_filestat_get");
}

static void op_path_filestat_set_times(fz_run *r) {
    uint32_t fd = fz_fd(r), flags = fz_byte(r) & 1u, len = fz_path(r, PATH1);
    uint64_t atim = fz_time(r), mtim = fz_time(r);
    uint64_t a[7] = {fd, flags, PATH1, len, atim, mtim, fz_flags(r, 0xf)};
    fz_call(r, F_PATH_FILESTAT_SET_TIMES, a);
}

/* fd_read, fd_pread, fd_write, fd_pwrite. Written bytes are lowercase
   letters, so MARKER can only reach guest memory from the outside. */
static void op_fd_io(fz_run *r, int f) {
    bool positioned = f == F_FD_PREAD || f == F_FD_PWRITE;
    bool write = f == F_FD_WRITE || f == F_FD_PWRITE;
    uint32_t fd = fz_fd(r), total, n = fz_iovs(r, &total);
    if (write) {
        uint8_t seed = fz_byte(r);
        for (uint32_t i = 0; i < total; i++) r->mem[DATA + i] = (uint8_t)('a' + (seed + i) % 26);
    }
    uint64_t a[5] = {fd, IOV, n, RES, RES};
    if (positioned) a[3] = fz_offset(r);
    if (!fz_ok(r, f, a)) return;
    uint32_t moved = fz_ld32(r, RES);
    if (moved > total) fz_die("finding: %s moved %u of %u bytes", fz_funcs[f].name, moved, total);
    if (!write) fz_no_marker(r, DATA, moved, fz_funcs[f].name);
}
static void op_fd_read(fz_run *r) { op_fd_io(r, F_FD_READ); }
static void op_fd_pread(fz_run *r) { op_fd_io(r, F_FD_PREAD); }
static void op_fd_write(fz_run *r) { op_fd_io(r, F_FD_WRITE); }
static void op_fd_pwrite(fz_run *r) { op_fd_io(r, F_FD_PWRITE); }

static void op_fd_readdir(fz_run *r) {
    uint32_t fd = fz_fd(r), len = fz_byte(r) * 8u;
    uint8_t c = fz_byte(r);
    uint64_t cookie = c < 0xf0 ? c % 16u : c & 1 ? UINT64_MAX : 1ull << 40;
    uint64_t a[5] = {fd, DATA, len, cookie, RES};
    if (!fz_ok(r, F_FD_READDIR, a)) return;
    uint32_t used = fz_ld32(r, RES);
    if (used > len) fz_die("finding: fd_readdir used %u of %u bytes", used, len);
    fz_no_marker(r, DATA, used, "fd_readdir");
    fz_check_dirents(r, used);
}

/* (d): after a successful seek, fd_tell (if allowed) says the same. */
static void op_fd_seek(fz_run *r) {
    uint8_t b = fz_byte(r);
    uint32_t fd = fz_fd(r);
    uint64_t a[4] = {fd, fz_offset(r), b & 3u, RES};
    if (!fz_ok(r, b & 0x80 ? F_U_FD_SEEK : F_FD_SEEK, a)) return;
    uint64_t t[2] = {fd, RES + 8};
    if (fz_ok(r, F_FD_TELL, t) && fz_ld64(r, RES + 8) != fz_ld64(r, RES))
        fz_die("finding: fd_tell says %llu after fd_seek said %llu",
               (unsigned long long)fz_ld64(r, RES + 8), (unsigned long long)fz_ld64(r, RES));
}

static void op_fd_tell(fz_run *r) {
    uint64_t a[2] = {fz_fd(r), RES};
    fz_call(r, F_FD_TELL, a);
}

static void op_fd_close(fz_run *r) {
    uint64_t a[1] = {fz_fd(r)};
    fz_call(r, F_FD_CLOSE, a);
}

static void op_fd_renumber(fz_run *r) {
    uint32_t from = fz_fd(r), to = fz_fd(r);
    uint64_t a[2] = {from, to};
    if (fz_ok(r, F_FD_RENUMBER, a)) fz_remember(r, to);
}

static void op_fd_fdstat_get(fz_run *r) {
    uint64_t a[2] = {fz_fd(r), RES};
    if (fz_ok(r, F_FD_FDSTAT_GET, a) && r->mem[RES] > WASI_FILETYPE_SYMBOLIC_LINK)
        fz_die("finding: fd_fdstat_get: filetype %u", r->mem[RES]);
}

static void op_fd_fdstat_set_flags(fz_run *r) {
    uint32_t fd = fz_fd(r);
    uint64_t a[2] = {fd, fz_flags(r, 0x1f)};
    fz_call(r, F_FD_FDSTAT_SET_FLAGS, a);
}

static void op_fd_fdstat_set_rights(fz_run *r) {
    uint32_t fd = fz_fd(r);
    uint64_t base = fz_rights(r);
    uint64_t a[3] = {fd, base, fz_rights(r)};
    fz_call(r, F_FD_FDSTAT_SET_RIGHTS, a);
}

static void op_fd_filestat_get(fz_run *r) {
    uint8_t b = fz_byte(r);
    uint64_t a[2] = {fz_fd(r), RES};
    if (fz_ok(r, b & 0x80 ? F_U_FD_FILESTAT_GET : F_FD_FILESTAT_GET, a))
        fz_check_filestat(r, "fd_filestat_get");
}

static void op_fd_filestat_set_size(fz_run *r) {
    uint32_t fd = fz_fd(r);
    uint64_t a[2] = {fd, fz_offset(r)};
    fz_call(r, F_FD_FILESTAT_SET_SIZE, a);
}

static void op_fd_filestat_set_times(fz_run *r) {
    uint32_t fd = fz_fd(r);
    uint64_t atim = fz_time(r), mtim = fz_time(r);
    uint64_t a[4] = {fd, atim, mtim, fz_flags(r, 0xf)};
    fz_call(r, F_FD_FILESTAT_SET_TIMES, a);
}

static void op_fd_allocate(fz_run *r) {
    uint32_t fd = fz_fd(r);
    uint64_t off = fz_offset(r);
    uint64_t a[3] = {fd, off, fz_alloc_len(r)};
    fz_call(r, F_FD_ALLOCATE, a);
}

static void op_fd_sync(fz_run *r) {
    uint8_t b = fz_byte(r);
    uint64_t a[1] = {fz_fd(r)};
    fz_call(r, b & 1 ? F_FD_DATASYNC : F_FD_SYNC, a);
}

static void op_fd_advise(fz_run *r) {
    uint32_t fd = fz_fd(r);
    uint64_t off = fz_offset(r), len = fz_offset(r);
    uint64_t a[4] = {fd, off, len, fz_byte(r) % 7u};
    fz_call(r, F_FD_ADVISE, a);
}

static void op_fd_prestat_get(fz_run *r) {
    uint64_t a[2] = {fz_fd(r), RES};
    if (fz_ok(r, F_FD_PRESTAT_GET, a) && fz_ld32(r, RES + 4) != strlen(GUEST_NAME))
        fz_die("finding: fd_prestat_get: name length %u", fz_ld32(r, RES + 4));
}

static void op_fd_prestat_dir_name(fz_run *r) {
    uint32_t fd = fz_fd(r);
    uint64_t a[3] = {fd, DATA, fz_byte(r) % 16u};
    if (fz_ok(r, F_FD_PRESTAT_DIR_NAME, a) &&
        memcmp(r->mem + DATA, GUEST_NAME, strlen(GUEST_NAME)) != 0)
        fz_die("finding: fd_prestat_dir_name: wrong name");
}

/* 32 entries, so the opcode's low 5 bits pick one: path_open, which most
   sequences need, has two. */
/* Not a WASI call: the harness makes FZ_CHAIN in the box, which the guest
   could not build in MAX_OPS calls of 4-component paths (and which would
   cost too much to make for every input). Once per input; it never
   follows a symlink and stops where something is in the way. */
static void op_make_chain(fz_run *r) {
    if (r->chained) return;
    r->chained = true;
    int cur = fz.boxfd;
    for (int i = 0; i < FZ_CHAIN_DEPTH; i++) {
        const char *name = i ? "d" : "deep";
        mkdirat(cur, name, 0755); /* it may be there already */
        int next = openat(cur, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (cur != fz.boxfd) close(cur);
        if (next < 0) return;
        cur = next;
    }
    close(cur);
}

static void (*const fz_ops[32])(fz_run *) = {
    op_path_open, op_path_create_directory, op_path_remove_directory, op_path_unlink_file,
    op_path_rename, op_path_link, op_path_symlink, op_path_readlink, op_path_filestat_get,
    op_path_filestat_set_times, op_fd_read, op_fd_pread, op_fd_write, op_fd_pwrite,
    op_fd_readdir, op_fd_seek, op_fd_tell, op_fd_close, op_fd_renumber, op_fd_fdstat_get,
    op_fd_fdstat_set_flags, op_fd_fdstat_set_rights, op_fd_filestat_get,
    op_fd_filestat_set_size, op_fd_filestat_set_times, op_fd_allocate, op_fd_sync,
    op_fd_advise, op_fd_prestat_get, op_fd_prestat_dir_name, op_path_open, op_make_chain,
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    fz_clear(fz.boxfd);
    fz_make_box();
    fz_run r;
    fz_start(&r, data, size);
    for (int i = 0; i < MAX_OPS && r.left; i++) {
        uint8_t op = fz_byte(&r);
        if (op & 0x80) r.bad = fz_byte(&r);
        fz_ops[op & 0x1f](&r);
    }
    fz_finish(&r);
    return 0;
}
