/*
 * wasip2.c — fuzz target: random sequences of wasi:filesystem host calls
 * (src/wasip2/filesystem.c, and the streams they make) with random paths
 * in a sandbox, checking that nothing outside it is read, written or
 * created, and that nothing crashes or leaks.
 *
 * The WASI 0.2 hosts take lifted values (no guest memory), so the input
 * chooses calls and their values directly: a sequence of at most MAX_OPS
 * operations, each an opcode byte then argument bytes (a missing byte
 * reads as 0): descriptors from {the preopen, those the sequence opened},
 * paths from a dictionary of components or whole paths that try each
 * escape (absolute, `..` above the root, symlinks out, absolute symlinks,
 * loops, over-long), path-flags, open-flags, descriptor-flags, offsets,
 * lengths, times.
 *
 * Once per process: a temp dir holding `box/` (the one preopen,
 * "/sandbox") and beside it `outside/secret` and `secret-top`, both
 * holding MARKER. Per input: box/ is emptied and refilled with files,
 * a directory and symlinks (`link -> a`, `out -> ../outside`,
 * `outs -> ../outside/secret`, `abs` -> the temp dir, `loop -> loop`), a
 * fresh wp2_ctx runs the sequence, and is freed.
 *
 * Findings (abort, "finding:" on stderr): MARKER in anything read back
 * (read, a stream's read, readlink-at, a directory entry); a preview1
 * descriptor of the state naming an object outside box/; the temp dir or
 * outside/ changed (names, inodes, sizes, times, contents); a call that
 * traps or returns a value not of its declared type; a host descriptor
 * left open after the state is freed.
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
#include "wasip2/wasip2.h"

#define MARKER "weft fuzz wasip2: outside the sandbox 41c7e2"
#define MAX_OPS 48

static void fz_die(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
static void fz_die(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("wasip2 fuzz: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    abort();
}

static char fz_long[300];
static char fz_abs_secret[512];

static const char *const fz_comps[] = {"a", "b", "sub", "c", "link", "out", "outs", "abs", "loop",
                                       "new", "d", "outside", "secret", "box", ".", "..", "..",
                                       ""};
static const char *fz_specials[] = {
    "/", "..", "../", "../outside", "../outside/secret", "../box/a", "../secret-top",
    "sub/../../outside/secret", "out/secret", "out/", "outs", "abs", "abs/outside/secret",
    "/sandbox/a", "/etc/passwd", NULL /* fz_abs_secret */, "a/", "sub/", "./a", ".", "link/",
    "loop/x", "sub/c",
};
#define NCOMPS (sizeof fz_comps / sizeof fz_comps[0])
#define NSPECIALS (sizeof fz_specials / sizeof fz_specials[0])

enum { W_ROOT, W_OUTSIDE, W_SECRET, W_TOP, NWATCH };
static const char *const fz_watch[NWATCH] = {".", "outside", "outside/secret", "secret-top"};

static struct {
    char root[256], box[512];
    int rootfd, boxfd, devnull;
    struct stat made[NWATCH];
    dev_t dev[NWATCH];
    int idle_fds;
} fz;

typedef struct fz_run {
    wp2_ctx *x;
    cm_arena arena;
    const uint8_t *in;
    size_t left;
    uint32_t desc[8];
    unsigned ndesc;
} fz_run;

/* ---- The temp dir ---- */

static void fz_write_file(int dir, const char *name, const char *text) {
    int fd = openat(dir, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    size_t n = strlen(text);
    if (fd < 0 || write(fd, text, n) != (ssize_t)n) fz_die("harness: cannot write %s", name);
    close(fd);
}

static void fz_clear(int dir) {
    int fd = openat(dir, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (!d) fz_die("harness: cannot list the sandbox: %s", strerror(errno));
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) continue;
        if (unlinkat(fd, e->d_name, 0) == 0) continue;
        int sub = openat(fd, e->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (sub < 0) fz_die("harness: cannot remove %s: %s", e->d_name, strerror(errno));
        fz_clear(sub);
        close(sub);
        if (unlinkat(fd, e->d_name, AT_REMOVEDIR) != 0)
            fz_die("harness: cannot remove %s: %s", e->d_name, strerror(errno));
    }
    closedir(d);
}

static void fz_make_box(void) {
    const char *const links[][2] = {{"a", "link"}, {"../outside", "out"},
                                    {"../outside/secret", "outs"}, {fz.root, "abs"},
                                    {"loop", "loop"}};
    fz_write_file(fz.boxfd, "a", "alpha\n");
    fz_write_file(fz.boxfd, "b", "");
    if (mkdirat(fz.boxfd, "sub", 0755) != 0) fz_die("harness: mkdir sub: %s", strerror(errno));
    fz_write_file(fz.boxfd, "sub/c", "gamma\n");
    for (size_t i = 0; i < sizeof links / sizeof links[0]; i++)
        if (symlinkat(links[i][0], fz.boxfd, links[i][1]) != 0)
            fz_die("harness: symlink %s: %s", links[i][1], strerror(errno));
}

static void fz_look(struct stat *st, const char *rel) {
    memset(st, 0, sizeof *st);
    fstatat(fz.rootfd, rel, st, AT_SYMLINK_NOFOLLOW);
}

static void fz_check_outside(void) {
    for (int i = 0; i < NWATCH; i++) {
        struct stat now;
        fz_look(&now, fz_watch[i]);
        const struct stat *was = &fz.made[i];
        bool same = now.st_ino == was->st_ino && now.st_mode == was->st_mode &&
                    now.st_nlink == was->st_nlink && now.st_size == was->st_size &&
                    now.st_mtim.tv_sec == was->st_mtim.tv_sec &&
                    now.st_mtim.tv_nsec == was->st_mtim.tv_nsec &&
                    now.st_ctim.tv_sec == was->st_ctim.tv_sec &&
                    now.st_ctim.tv_nsec == was->st_ctim.tv_nsec;
        if (!same) fz_die("finding: %s/%s changed outside the sandbox", fz.root, fz_watch[i]);
    }
}

static void fz_check_state_fds(const fz_run *r) {
    weft_wasi *w = wp2_ctx_wasi(r->x);
    for (uint32_t i = 0; i < w->nfds; i++) {
        if (!w->fds[i]) continue;
        struct stat st;
        if (fstat(w->fds[i]->host, &st) != 0) fz_die("finding: preview1 fd %u has a closed host descriptor", i);
        for (int k = 0; k < NWATCH; k++)
            if (st.st_ino == fz.made[k].st_ino && st.st_dev == fz.made[k].st_dev)
                fz_die("finding: preview1 fd %u refers to %s outside the sandbox", i, fz_watch[k]);
    }
}

/* The descriptors open into the sandbox's tree (what the calls open):
   the count that must come back to where it was after each input. Other
   descriptors are the process's: libFuzzer's RSS thread reads /proc, and
   the sanitizers' symbolizer, started at libFuzzer's first NEW_FUNC line,
   talks over two pipes it keeps (which a count of every descriptor took
   for a leak). */
static int fz_count_fds(void) {
    DIR *d = opendir("/proc/self/fd");
    if (!d) fz_die("harness: cannot list /proc/self/fd");
    int n = 0;
    size_t rl = strlen(fz.root);
    struct dirent *e;
    while ((e = readdir(d))) {
        char p[300], t[512];
        snprintf(p, sizeof p, "/proc/self/fd/%s", e->d_name);
        ssize_t k = readlink(p, t, sizeof t - 1);
        if (k <= 0) continue;
        t[k] = 0;
        if (strncmp(t, fz.root, rl) == 0) n++;
    }
    closedir(d);
    return n;
}

/* What each open descriptor is, on stderr (for a leak's report). */
static void fz_list_fds(void) {
    DIR *d = opendir("/proc/self/fd");
    struct dirent *e;
    while (d && (e = readdir(d))) {
        char p[300], t[512];
        snprintf(p, sizeof p, "/proc/self/fd/%s", e->d_name);
        ssize_t n = readlink(p, t, sizeof t - 1);
        t[n > 0 ? n : 0] = 0;
        fprintf(stderr, "  fd %s -> %s\n", e->d_name, t);
    }
    if (d) closedir(d);
}

static void fz_remove_all(void) {
    fz_clear(fz.rootfd);
    rmdir(fz.root);
}

static const char *fz_tmpdir(void) {
    const char *tmp = getenv("TMPDIR");
    if (tmp && *tmp) return tmp;
    return access("/dev/shm", W_OK | X_OK) == 0 ? "/dev/shm" : "/tmp";
}

int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    memset(fz_long, 'x', sizeof fz_long - 1);
    snprintf(fz.root, sizeof fz.root, "%s/weft-fuzz-wasip2-XXXXXX", fz_tmpdir());
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
    snprintf(fz.box, sizeof fz.box, "%s/box", fz.root);
    for (size_t i = 0; i < NSPECIALS; i++)
        if (!fz_specials[i]) fz_specials[i] = fz_abs_secret;
    for (int i = 0; i < NWATCH; i++) fz_look(&fz.made[i], fz_watch[i]);
    atexit(fz_remove_all);
    fz.idle_fds = fz_count_fds();
    return 0;
}

/* ---- Decoding ---- */

static uint8_t fz_byte(fz_run *r) {
    if (!r->left) return 0;
    r->left--;
    return *r->in++;
}

static uint32_t fz_desc(fz_run *r) {
    uint8_t b = fz_byte(r);
    if (r->ndesc == 0) return 0;
    return r->desc[b % r->ndesc];
}

/* A path: a special, or 1-4 components joined by '/'. */
static cm_val fz_path(fz_run *r) {
    uint8_t b = fz_byte(r);
    char *p = cm_arena_alloc(&r->arena, 1400, 1);
    if (!p) fz_die("harness: out of memory");
    p[0] = 0;
    if (b & 0x80) {
        snprintf(p, 1400, "%s", fz_specials[(b & 0x7f) % NSPECIALS]);
    } else {
        unsigned n = 1 + (b & 3);
        for (unsigned i = 0; i < n; i++) {
            uint8_t c = fz_byte(r);
            const char *comp = c == 0xff ? fz_long : fz_comps[c % NCOMPS];
            if (i) strcat(p, (b & 4) ? "//" : "/");
            strncat(p, comp, 1399 - strlen(p));
        }
        if (b & 8) strncat(p, "/", 1399 - strlen(p));
    }
    return (cm_val){.kind = CM_STRING, .n = (uint32_t)strlen(p), .v.str = p};
}

static cm_val fz_flags(fz_run *r, uint32_t mask) {
    return (cm_val){.kind = CM_FLAGS, .v.flags = fz_byte(r) & mask};
}

static cm_val fz_u64(fz_run *r) {
    static const uint64_t vals[] = {0, 1, 5, 6, 100, 4096, 65536, 1ull << 31, 1ull << 40, UINT64_MAX};
    return (cm_val){.kind = CM_U64, .v.u = vals[fz_byte(r) % (sizeof vals / sizeof vals[0])]};
}

static cm_val fz_time(fz_run *r, cm_val *dt) {
    uint8_t b = fz_byte(r);
    dt[1] = (cm_val){.kind = CM_U64, .v.u = b & 4 ? UINT64_MAX : 1000u * b};
    dt[2] = (cm_val){.kind = CM_U32, .v.u = b & 8 ? 999999999u : b};
    dt[0] = (cm_val){.kind = CM_RECORD, .n = 2, .v.items = &dt[1]};
    return (cm_val){.kind = CM_VARIANT, .v.c = {.index = b % 3u, .payload = b % 3u == 2 ? &dt[0] : NULL}};
}

/* ---- Calls ---- */

static const cm_host_func *fz_func(fz_run *r, const char *iface, const char *name) {
    const cm_host_instance *in = wp2_ctx_instance(r->x, iface);
    for (uint32_t i = 0; in && i < in->nfuncs; i++)
        if (strcmp(in->funcs[i].name, name) == 0) return &in->funcs[i];
    fz_die("harness: no %s in %s", name, iface);
}

static void fz_no_marker(const void *p, size_t n, const char *what) {
    if (n >= 8 && memmem(p, n, "weft fuzz wasip2", 16)) fz_die("finding: %s read outside the sandbox", what);
}

static void fz_no_marker_list(const cm_val *v, const char *what) {
    char buf[65536];
    uint32_t n = v->n < sizeof buf ? v->n : sizeof buf;
    for (uint32_t i = 0; i < n; i++) buf[i] = (char)v->v.items[i].v.u;
    fz_no_marker(buf, n, what);
}

static cm_val fz_call(fz_run *r, const char *iface, const char *name, const cm_val *args) {
    const cm_host_func *f = fz_func(r, iface, name);
    cm_host_call c = {&r->arena, NULL, r->x, f};
    cm_val res;
    memset(&res, 0, sizeof res);
    weft_error err;
    weft_status st = f->fn(&c, args, &res, &err);
    if (st != WEFT_OK) fz_die("finding: %s returned status %d: %s", name, (int)st, err.message);
    if (f->type->result && res.kind != f->type->result->kind)
        fz_die("finding: %s returned a value of kind %d, not %d", name, (int)res.kind,
               (int)f->type->result->kind);
    return res;
}

#define FT "wasi:filesystem/types@0.2.12"
#define IS_OK(x_) ((x_).kind == CM_RESULT && (x_).v.c.index == 0)

static void fz_keep(fz_run *r, uint32_t rep) {
    if (r->ndesc < 8) {
        r->desc[r->ndesc++] = rep;
    } else { /* full: drop the oldest but the preopen */
        weft_error err;
        wp2_ctx *x = r->x;
        if (x->res[WP2_RES_FILESYSTEM_DESCRIPTOR].dtor(&x->res[WP2_RES_FILESYSTEM_DESCRIPTOR], r->desc[1], x, &err))
            fz_die("finding: descriptor drop failed: %s", err.message);
        memmove(&r->desc[1], &r->desc[2], 6 * sizeof r->desc[0]);
        r->desc[7] = rep;
    }
}

static void fz_op(fz_run *r) {
    uint8_t op = fz_byte(r);
    cm_val a[6], dt[2][3], v;
    a[0] = (cm_val){.kind = CM_BORROW, .v.rep = fz_desc(r)};
    switch (op % 20) {
    case 0: /* open-at */
        a[1] = fz_flags(r, 1);
        a[2] = fz_path(r);
        a[3] = fz_flags(r, 0xf);
        a[4] = fz_flags(r, 0x3f);
        v = fz_call(r, FT, "[method]descriptor.open-at", a);
        if (IS_OK(v)) fz_keep(r, v.v.c.payload->v.rep);
        fz_check_state_fds(r);
        break;
    case 1: a[1] = fz_path(r); fz_call(r, FT, "[method]descriptor.create-directory-at", a); break;
    case 2: a[1] = fz_path(r); fz_call(r, FT, "[method]descriptor.remove-directory-at", a); break;
    case 3: a[1] = fz_path(r); fz_call(r, FT, "[method]descriptor.unlink-file-at", a); break;
    case 4:
        a[1] = fz_path(r);
        a[2] = (cm_val){.kind = CM_BORROW, .v.rep = fz_desc(r)};
        a[3] = fz_path(r);
        fz_call(r, FT, "[method]descriptor.rename-at", a);
        break;
    case 5:
        a[1] = fz_flags(r, 1);
        a[2] = fz_path(r);
        a[3] = (cm_val){.kind = CM_BORROW, .v.rep = fz_desc(r)};
        a[4] = fz_path(r);
        fz_call(r, FT, "[method]descriptor.link-at", a);
        break;
    case 6:
        a[1] = fz_path(r);
        a[2] = fz_path(r);
        fz_call(r, FT, "[method]descriptor.symlink-at", a);
        break;
    case 7:
        a[1] = fz_path(r);
        v = fz_call(r, FT, "[method]descriptor.readlink-at", a);
        if (IS_OK(v)) fz_no_marker(v.v.c.payload->v.str, v.v.c.payload->n, "readlink-at");
        break;
    case 8:
        a[1] = fz_flags(r, 1);
        a[2] = fz_path(r);
        fz_call(r, FT, (op & 0x20) ? "[method]descriptor.metadata-hash-at" : "[method]descriptor.stat-at", a);
        break;
    case 9:
        a[1] = fz_flags(r, 1);
        a[2] = fz_path(r);
        a[3] = fz_time(r, dt[0]);
        a[4] = fz_time(r, dt[1]);
        fz_call(r, FT, "[method]descriptor.set-times-at", a);
        break;
    case 10:
        a[1] = fz_u64(r);
        a[2] = fz_u64(r);
        v = fz_call(r, FT, "[method]descriptor.read", a);
        if (IS_OK(v)) fz_no_marker_list(&v.v.c.payload->v.items[0], "read");
        break;
    case 11: {
        static const char text[] = "written by the fuzzer";
        cm_val items[sizeof text];
        uint32_t n = fz_byte(r) % sizeof text;
        for (uint32_t i = 0; i < n; i++) items[i] = (cm_val){.kind = CM_U8, .v.u = (uint8_t)text[i]};
        a[1] = (cm_val){.kind = CM_LIST, .n = n, .v.items = items};
        a[2] = fz_u64(r);
        fz_call(r, FT, "[method]descriptor.write", a);
        break;
    }
    case 12: {
        v = fz_call(r, FT, "[method]descriptor.read-directory", a);
        if (!IS_OK(v)) break;
        cm_val ds = {.kind = CM_BORROW, .v.rep = v.v.c.payload->v.rep};
        for (int i = 0; i < 64; i++) {
            cm_val e = fz_call(r, FT, "[method]directory-entry-stream.read-directory-entry", &ds);
            if (!IS_OK(e) || e.v.c.payload->v.c.index == 0) break;
        }
        weft_error err;
        wp2_ctx *x = r->x;
        if (x->res[WP2_RES_FILESYSTEM_DIRECTORY_ENTRY_STREAM].dtor(
                &x->res[WP2_RES_FILESYSTEM_DIRECTORY_ENTRY_STREAM], ds.v.rep, x, &err))
            fz_die("finding: directory-entry-stream drop failed: %s", err.message);
        break;
    }
    case 13: {
        a[1] = fz_u64(r);
        v = fz_call(r, FT, "[method]descriptor.read-via-stream", a);
        if (!IS_OK(v)) break;
        cm_val sa[2] = {{.kind = CM_BORROW, .v.rep = v.v.c.payload->v.rep}, {.kind = CM_U64, .v.u = 4096}};
        cm_val got = fz_call(r, "wasi:io/streams@0.2.12", "[method]input-stream.blocking-read", sa);
        if (IS_OK(got)) fz_no_marker_list(got.v.c.payload, "input-stream");
        weft_error err;
        wp2_ctx *x = r->x;
        if (x->res[WP2_RES_IO_INPUT_STREAM].dtor(&x->res[WP2_RES_IO_INPUT_STREAM], sa[0].v.rep, x, &err))
            fz_die("finding: input-stream drop failed: %s", err.message);
        break;
    }
    case 14: {
        a[1] = fz_u64(r);
        v = fz_call(r, FT, (op & 0x20) ? "[method]descriptor.append-via-stream" : "[method]descriptor.write-via-stream", a);
        if (!IS_OK(v)) break;
        cm_val items[4] = {{.kind = CM_U8, .v.u = 'w'}, {.kind = CM_U8, .v.u = 'x'}, {.kind = CM_U8, .v.u = 'y'}, {.kind = CM_U8, .v.u = 'z'}};
        cm_val sa[2] = {{.kind = CM_BORROW, .v.rep = v.v.c.payload->v.rep}, {.kind = CM_LIST, .n = 4, .v.items = items}};
        fz_call(r, "wasi:io/streams@0.2.12", "[method]output-stream.blocking-write-and-flush", sa);
        weft_error err;
        wp2_ctx *x = r->x;
        if (x->res[WP2_RES_IO_OUTPUT_STREAM].dtor(&x->res[WP2_RES_IO_OUTPUT_STREAM], sa[0].v.rep, x, &err))
            fz_die("finding: output-stream drop failed: %s", err.message);
        break;
    }
    case 15:
        if (r->ndesc > 1) {
            weft_error err;
            wp2_ctx *x = r->x;
            uint32_t k = 1 + fz_byte(r) % (r->ndesc - 1);
            if (x->res[WP2_RES_FILESYSTEM_DESCRIPTOR].dtor(&x->res[WP2_RES_FILESYSTEM_DESCRIPTOR], r->desc[k], x, &err))
                fz_die("finding: descriptor drop failed: %s", err.message);
            r->desc[k] = r->desc[--r->ndesc];
        }
        break;
    case 16:
        a[1] = (cm_val){.kind = CM_BORROW, .v.rep = fz_desc(r)};
        fz_call(r, FT, "[method]descriptor.is-same-object", a);
        break;
    case 17: a[1] = fz_u64(r); fz_call(r, FT, "[method]descriptor.set-size", a); break;
    case 18:
        fz_call(r, FT, (op & 0x20) ? "[method]descriptor.stat" : "[method]descriptor.get-type", a);
        fz_call(r, FT, "[method]descriptor.get-flags", a);
        break;
    default:
        a[1] = fz_time(r, dt[0]);
        a[2] = fz_time(r, dt[1]);
        fz_call(r, FT, "[method]descriptor.set-times", a);
        break;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!fz.root[0]) LLVMFuzzerInitialize(NULL, NULL);
    fz_clear(fz.boxfd);
    fz_make_box();
    fz_run r;
    memset(&r, 0, sizeof r);
    r.in = data;
    r.left = size;
    weft_wasi_preopen pre = {fz.box, "/sandbox"};
    weft_wasi_config wc;
    weft_wasi_config_init(&wc);
    wc.npreopens = 1;
    wc.preopens = &pre;
    for (int i = 0; i < 3; i++) wc.stdio[i] = fz.devnull;
    weft_error err;
    if (wp2_ctx_new(&wc, &r.x, &err) != WEFT_OK) fz_die("harness: wp2_ctx_new: %s", err.message);
    cm_val d = fz_call(&r, "wasi:filesystem/preopens@0.2.12", "get-directories", NULL);
    if (d.n != 1) fz_die("finding: %u preopens, not 1", d.n);
    r.desc[r.ndesc++] = d.v.items[0].v.items[0].v.rep;
    for (int i = 0; i < MAX_OPS && r.left; i++) {
        fz_op(&r);
        cm_arena_reset(&r.arena);
    }
    fz_check_state_fds(&r);
    fz_check_outside();
    wp2_ctx_free(r.x);
    cm_arena_free(&r.arena);
    int n = fz_count_fds();
    if (n != fz.idle_fds) {
        fz_list_fds();
        fz_die("finding: %d host descriptors open, %d before", n, fz.idle_fds);
    }
    return 0;
}
