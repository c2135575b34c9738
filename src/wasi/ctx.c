/*
 * ctx.c — the WASI context: configuration, the fd table, host errno
 * mapping, guest-memory helpers, and registration of the function table.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include "wasi.h"

/* ---- The function table ---- */

#define WASI_ROW(n, p, r, u) {#n, p, r, u, wasi_##n},
static const wasi_func wasi_table[] = {WASI_FUNCS(WASI_ROW)};
#undef WASI_ROW
#define WASI_NFUNCS (sizeof wasi_table / sizeof wasi_table[0])

uint32_t weft_wasi_function_count(void) { return (uint32_t)WASI_NFUNCS; }

weft_status weft_wasi_function(uint32_t index, weft_wasi_function_info *out) {
    if (index >= WASI_NFUNCS || !out) return WEFT_ERR_NOT_FOUND;
    out->name = wasi_table[index].name;
    out->params = wasi_table[index].params;
    out->results = wasi_table[index].results;
    out->in_unstable = wasi_table[index].unstable;
    return WEFT_OK;
}

/* ---- Errors ---- */

weft_status wasi_fail(weft_error *err, weft_status st, const char *fmt, ...) {
    if (err) {
        memset(err, 0, sizeof *err);
        err->status = st;
        err->func_index = UINT32_MAX;
        err->offset = UINT32_MAX;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return st;
}

wasi_errno wasi_errno_from_host(int err) {
    switch (err) {
    case 0: return WASI_ESUCCESS;
    case E2BIG: return WASI_E2BIG;
    case EACCES: return WASI_EACCES;
    case EADDRINUSE: return WASI_EADDRINUSE;
    case EADDRNOTAVAIL: return WASI_EADDRNOTAVAIL;
    case EAFNOSUPPORT: return WASI_EAFNOSUPPORT;
    case EAGAIN: return WASI_EAGAIN;
    case EALREADY: return WASI_EALREADY;
    case EBADF: return WASI_EBADF;
    case EBADMSG: return WASI_EBADMSG;
    case EBUSY: return WASI_EBUSY;
    case ECANCELED: return WASI_ECANCELED;
    case ECHILD: return WASI_ECHILD;
    case ECONNABORTED: return WASI_ECONNABORTED;
    case ECONNREFUSED: return WASI_ECONNREFUSED;
    case ECONNRESET: return WASI_ECONNRESET;
    case EDEADLK: return WASI_EDEADLK;
    case EDESTADDRREQ: return WASI_EDESTADDRREQ;
    case EDOM: return WASI_EDOM;
    case EDQUOT: return WASI_EDQUOT;
    case EEXIST: return WASI_EEXIST;
    case EFAULT: return WASI_EFAULT;
    case EFBIG: return WASI_EFBIG;
    case EHOSTUNREACH: return WASI_EHOSTUNREACH;
    case EIDRM: return WASI_EIDRM;
    case EILSEQ: return WASI_EILSEQ;
    case EINPROGRESS: return WASI_EINPROGRESS;
    case EINTR: return WASI_EINTR;
    case EINVAL: return WASI_EINVAL;
    case EIO: return WASI_EIO;
    case EISCONN: return WASI_EISCONN;
    case EISDIR: return WASI_EISDIR;
    case ELOOP: return WASI_ELOOP;
    case EMFILE: return WASI_EMFILE;
    case EMLINK: return WASI_EMLINK;
    case EMSGSIZE: return WASI_EMSGSIZE;
    case EMULTIHOP: return WASI_EMULTIHOP;
    case ENAMETOOLONG: return WASI_ENAMETOOLONG;
    case ENETDOWN: return WASI_ENETDOWN;
    case ENETRESET: return WASI_ENETRESET;
    case ENETUNREACH: return WASI_ENETUNREACH;
    case ENFILE: return WASI_ENFILE;
    case ENOBUFS: return WASI_ENOBUFS;
    case ENODEV: return WASI_ENODEV;
    case ENOENT: return WASI_ENOENT;
    case ENOEXEC: return WASI_ENOEXEC;
    case ENOLCK: return WASI_ENOLCK;
    case ENOLINK: return WASI_ENOLINK;
    case ENOMEM: return WASI_ENOMEM;
    case ENOMSG: return WASI_ENOMSG;
    case ENOPROTOOPT: return WASI_ENOPROTOOPT;
    case ENOSPC: return WASI_ENOSPC;
    case ENOSYS: return WASI_ENOSYS;
    case ENOTCONN: return WASI_ENOTCONN;
    case ENOTDIR: return WASI_ENOTDIR;
    case ENOTEMPTY: return WASI_ENOTEMPTY;
    case ENOTRECOVERABLE: return WASI_ENOTRECOVERABLE;
    case ENOTSOCK: return WASI_ENOTSOCK;
    case ENOTSUP: return WASI_ENOTSUP;
    case ENOTTY: return WASI_ENOTTY;
    case ENXIO: return WASI_ENXIO;
    case EOVERFLOW: return WASI_EOVERFLOW;
    case EOWNERDEAD: return WASI_EOWNERDEAD;
    case EPERM: return WASI_EPERM;
    case EPIPE: return WASI_EPIPE;
    case EPROTO: return WASI_EPROTO;
    case EPROTONOSUPPORT: return WASI_EPROTONOSUPPORT;
    case EPROTOTYPE: return WASI_EPROTOTYPE;
    case ERANGE: return WASI_ERANGE;
    case EROFS: return WASI_EROFS;
    case ESPIPE: return WASI_ESPIPE;
    case ESRCH: return WASI_ESRCH;
    case ESTALE: return WASI_ESTALE;
    case ETIMEDOUT: return WASI_ETIMEDOUT;
    case ETXTBSY: return WASI_ETXTBSY;
    case EXDEV: return WASI_EXDEV;
    default: return WASI_EIO;
    }
}

uint8_t wasi_filetype_from_mode(unsigned mode) {
    switch (mode & S_IFMT) {
    case S_IFREG: return WASI_FILETYPE_REGULAR_FILE;
    case S_IFDIR: return WASI_FILETYPE_DIRECTORY;
    case S_IFCHR: return WASI_FILETYPE_CHARACTER_DEVICE;
    case S_IFBLK: return WASI_FILETYPE_BLOCK_DEVICE;
    case S_IFLNK: return WASI_FILETYPE_SYMBOLIC_LINK;
    case S_IFSOCK: return WASI_FILETYPE_SOCKET_STREAM;
    default: return WASI_FILETYPE_UNKNOWN; /* FIFOs, as wasmtime */
    }
}

/* ---- Guest memory ---- */

wasi_errno wasi_put32(wasi_call *c, uint32_t ptr, uint32_t v) {
    uint8_t *p = wasi_mem(c, ptr, 4);
    if (!p) return WASI_EFAULT;
    wasi_st32(p, v);
    return WASI_ESUCCESS;
}

wasi_errno wasi_put64(wasi_call *c, uint32_t ptr, uint64_t v) {
    uint8_t *p = wasi_mem(c, ptr, 8);
    if (!p) return WASI_EFAULT;
    wasi_st64(p, v);
    return WASI_ESUCCESS;
}

wasi_errno wasi_iovecs(wasi_call *c, uint32_t iovs, uint32_t n,
                       struct iovec **out, size_t *total) {
    *out = NULL;
    *total = 0;
    const uint8_t *arr = wasi_mem(c, iovs, (uint64_t)n * 8);
    if (!arr) return WASI_EFAULT;
    if (n > 1024) return WASI_EINVAL; /* IOV_MAX */
    struct iovec *v = calloc(n ? n : 1, sizeof *v);
    if (!v) return WASI_ENOMEM;
    size_t sum = 0;
    for (uint32_t i = 0; i < n; i++) {
        uint32_t buf = wasi_ld32(arr + 8 * i), len = wasi_ld32(arr + 8 * i + 4);
        uint8_t *p = wasi_mem(c, buf, len);
        if (!p) {
            free(v);
            return WASI_EFAULT;
        }
        v[i].iov_base = p;
        v[i].iov_len = len;
        sum += len;
    }
    *out = v;
    *total = sum;
    return WASI_ESUCCESS;
}

static uint64_t wasi_ns(struct timespec ts) {
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

wasi_errno wasi_put_filestat(wasi_call *c, uint32_t ptr, const struct stat *st) {
    /* preview1: dev 0, ino 8, filetype 16, nlink u64 24, size 32, atim 40,
       mtim 48, ctim 56 (64 bytes). wasi_unstable: nlink is u32 at 20 and
       everything after moves up by 8 (56 bytes). */
    uint32_t sz = c->unstable ? 56 : 64;
    uint8_t *p = wasi_mem(c, ptr, sz);
    if (!p) return WASI_EFAULT;
    memset(p, 0, sz);
    wasi_st64(p, (uint64_t)st->st_dev);
    wasi_st64(p + 8, (uint64_t)st->st_ino);
    p[16] = wasi_filetype_from_mode(st->st_mode);
    uint32_t o = c->unstable ? 24 : 32;
    if (c->unstable)
        wasi_st32(p + 20, (uint32_t)st->st_nlink);
    else
        wasi_st64(p + 24, (uint64_t)st->st_nlink);
    wasi_st64(p + o, (uint64_t)st->st_size);
    wasi_st64(p + o + 8, wasi_ns(st->st_atim));
    wasi_st64(p + o + 16, wasi_ns(st->st_mtim));
    wasi_st64(p + o + 24, wasi_ns(st->st_ctim));
    return WASI_ESUCCESS;
}

/* ---- The fd table ---- */

wasi_fd *wasi_fd_entry_new(int host, bool close_host, uint8_t filetype,
                           uint16_t flags, uint64_t base, uint64_t inheriting) {
    wasi_fd *e = calloc(1, sizeof *e);
    if (!e) return NULL;
    e->host = host;
    e->close_host = close_host;
    e->filetype = filetype;
    e->flags = flags;
    e->base = base;
    e->inheriting = inheriting;
    e->refs = 1;
    pthread_mutex_init(&e->dir_lock, NULL);
    return e;
}

void wasi_fd_entry_destroy(wasi_fd *e) {
    if (!e) return;
    if (e->dir) closedir(e->dir);
    if (e->close_host && e->host >= 0) close(e->host);
    pthread_mutex_destroy(&e->dir_lock);
    free(e->preopen);
    free(e);
}

/* Drops one reference (lock held); the entry to free, if it was the last,
   goes to *to_free so the close happens outside the lock. */
void wasi_fd_entry_unref_locked(wasi_fd *e, wasi_fd **to_free) {
    if (--e->refs == 0) *to_free = e;
}

wasi_errno wasi_fd_acquire(struct weft_wasi *w, uint32_t fd, uint64_t need,
                           wasi_ref *out) {
    memset(out, 0, sizeof *out);
    out->host = -1;
    pthread_mutex_lock(&w->lock);
    wasi_fd *e = fd < w->nfds ? w->fds[fd] : NULL;
    wasi_errno r = WASI_ESUCCESS;
    if (!e) {
        r = WASI_EBADF;
    } else if ((e->base & need) != need) {
        r = WASI_ENOTCAPABLE;
    } else {
        e->refs++;
        out->e = e;
        out->host = e->host;
        out->filetype = e->filetype;
        out->flags = e->flags;
        out->base = e->base;
        out->inheriting = e->inheriting;
    }
    pthread_mutex_unlock(&w->lock);
    return r;
}

void wasi_fd_release(struct weft_wasi *w, wasi_ref *ref) {
    if (!ref->e) return;
    wasi_fd *to_free = NULL;
    pthread_mutex_lock(&w->lock);
    wasi_fd_entry_unref_locked(ref->e, &to_free);
    pthread_mutex_unlock(&w->lock);
    wasi_fd_entry_destroy(to_free);
    ref->e = NULL;
}

/* Puts `e` in the lowest free slot (lock held). */
static wasi_errno wasi_fd_place_locked(struct weft_wasi *w, wasi_fd *e,
                                       uint32_t *out_fd) {
    uint32_t i = 0;
    while (i < w->nfds && w->fds[i]) i++;
    if (i == w->nfds) {
        if (w->nfds >= (1u << 20)) return WASI_EMFILE;
        uint32_t n = w->nfds ? w->nfds * 2 : 16;
        wasi_fd **nf = realloc(w->fds, n * sizeof *nf);
        if (!nf) return WASI_ENOMEM;
        memset(nf + w->nfds, 0, (n - w->nfds) * sizeof *nf);
        w->fds = nf;
        w->nfds = n;
    }
    w->fds[i] = e;
    *out_fd = i;
    return WASI_ESUCCESS;
}

wasi_errno wasi_fd_insert(struct weft_wasi *w, int host, uint8_t filetype,
                          uint16_t flags, uint64_t base, uint64_t inheriting,
                          uint64_t unshown, uint32_t *out_fd) {
    wasi_fd *e = wasi_fd_entry_new(host, true, filetype, flags, base, inheriting);
    if (!e) {
        close(host);
        return WASI_ENOMEM;
    }
    e->unshown = unshown;
    pthread_mutex_lock(&w->lock);
    wasi_errno r = wasi_fd_place_locked(w, e, out_fd);
    pthread_mutex_unlock(&w->lock);
    if (r) wasi_fd_entry_destroy(e);
    return r;
}

/* ---- Creating the context ---- */

void weft_wasi_config_init(weft_wasi_config *config) {
    if (!config) return;
    memset(config, 0, sizeof *config);
    config->stdio[0] = 0;
    config->stdio[1] = 1;
    config->stdio[2] = 2;
    config->net = WEFT_WASI_NET_TCP | WEFT_WASI_NET_UDP;
}

static char **wasi_copy_strings(uint32_t n, const char *const *src, size_t *bytes) {
    char **out = calloc(n ? n : 1, sizeof *out);
    if (!out) return NULL;
    *bytes = 0;
    for (uint32_t i = 0; i < n; i++) {
        out[i] = strdup(src[i] ? src[i] : "");
        if (!out[i]) {
            for (uint32_t j = 0; j < i; j++) free(out[j]);
            free(out);
            return NULL;
        }
        *bytes += strlen(out[i]) + 1;
    }
    return out;
}

/* Rights of stdio descriptor `which` (0, 1, 2) given its host type. */
static void wasi_stdio_rights(int which, uint8_t type, uint64_t *base) {
    uint64_t r = type == WASI_FILETYPE_REGULAR_FILE ? WASI_RIGHTS_REGULAR
                                                    : WASI_RIGHTS_STREAM;
    if (type == WASI_FILETYPE_SOCKET_STREAM) r |= WASI_RIGHT_SOCK_SHUTDOWN;
    /* stdin is read, stdout and stderr written: no right that needs the
       other access (the table in fs.c); stdin is not synced either. */
    if (which == 0) r &= ~(wasi_rights_needing(WASI_ACCESS_WRITE) |
                           WASI_RIGHT_FD_DATASYNC | WASI_RIGHT_FD_SYNC);
    else r &= ~wasi_rights_needing(WASI_ACCESS_READ);
    *base = r;
}

/* Puts `e` at slot `index` (which must be free), growing the table. */
static weft_status wasi_put_at(weft_wasi *w, uint32_t index, wasi_fd *e,
                               weft_error *err) {
    if (!e) return wasi_fail(err, WEFT_ERR_NOMEM, "out of memory");
    if (index >= w->nfds) {
        uint32_t n = w->nfds ? w->nfds : 16;
        while (n <= index) n *= 2;
        wasi_fd **nf = realloc(w->fds, n * sizeof *nf);
        if (!nf) {
            wasi_fd_entry_destroy(e);
            return wasi_fail(err, WEFT_ERR_NOMEM, "out of memory");
        }
        memset(nf + w->nfds, 0, (n - w->nfds) * sizeof *nf);
        w->fds = nf;
        w->nfds = n;
    }
    w->fds[index] = e;
    return WEFT_OK;
}

weft_status weft_wasi_new(const weft_wasi_config *config, weft_wasi **out,
                          weft_error *err) {
    weft_wasi_config defaults;
    if (!out) return wasi_fail(err, WEFT_ERR_MISUSE, "weft_wasi_new: out is NULL");
    *out = NULL;
    if (!config) {
        weft_wasi_config_init(&defaults);
        config = &defaults;
    }
    if ((config->argc && !config->argv) || (config->envc && !config->env) ||
        (config->npreopens && !config->preopens) ||
        (config->nlisten && !config->listen) ||
        (config->nlisten_fds && !config->listen_fds))
        return wasi_fail(err, WEFT_ERR_MISUSE,
                         "weft_wasi_new: a count is non-zero but its array is NULL");
    weft_wasi *w = calloc(1, sizeof *w);
    if (!w) return wasi_fail(err, WEFT_ERR_NOMEM, "out of memory");
    pthread_mutex_init(&w->lock, NULL);
    w->block = wasi_block_default;
    pthread_cond_init(&w->lookups_done, NULL);
    w->net = config->net;
    weft_status st = WEFT_OK;

    w->argc = config->argc;
    w->envc = config->envc;
    w->argv = wasi_copy_strings(config->argc, config->argv, &w->argv_bytes);
    w->env = wasi_copy_strings(config->envc, config->env, &w->env_bytes);
    w->bindings = calloc(2 * WASI_NFUNCS, sizeof *w->bindings);
    if (!w->argv || !w->env || !w->bindings) {
        st = wasi_fail(err, WEFT_ERR_NOMEM, "out of memory");
        goto fail;
    }
    for (size_t i = 0; i < WASI_NFUNCS; i++) {
        w->bindings[i] = (wasi_binding){w, &wasi_table[i], false};
        w->bindings[WASI_NFUNCS + i] = (wasi_binding){w, &wasi_table[i], true};
    }

    /* Guest fds 0, 1, 2: the stdio descriptors, borrowed (a closed one
       leaves its slot empty); preopens from 3 in order; then sockets. */
    for (uint32_t i = 0; i < 3; i++) {
        int h = config->stdio[i];
        struct stat sb;
        if (h < 0 || fstat(h, &sb) != 0) continue;
        uint8_t type = wasi_filetype_from_mode(sb.st_mode);
        uint64_t base;
        wasi_stdio_rights((int)i, type, &base);
        int fl = fcntl(h, F_GETFL);
        uint16_t flags = (fl >= 0 && (fl & O_APPEND)) ? WASI_FDFLAG_APPEND : 0;
        wasi_fd *e = wasi_fd_entry_new(h, false, type, flags, base, 0);
        if (e) e->stdio = true;
        if ((st = wasi_put_at(w, i, e, err))) goto fail;
    }
    uint32_t next = 3;
    for (uint32_t i = 0; i < config->npreopens; i++) {
        const weft_wasi_preopen *p = &config->preopens[i];
        if (!p->host_path) {
            st = wasi_fail(err, WEFT_ERR_MISUSE, "preopen %u has no host path", i);
            goto fail;
        }
        int h = open(p->host_path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (h < 0) {
            st = wasi_fail(err, WEFT_ERR_IO, "cannot open directory '%s': %s",
                           p->host_path, strerror(errno));
            goto fail;
        }
        wasi_fd *e = wasi_fd_entry_new(h, true, WASI_FILETYPE_DIRECTORY, 0,
                                       WASI_RIGHTS_DIRECTORY,
                                       WASI_RIGHTS_DIRECTORY | WASI_RIGHTS_REGULAR);
        if (!e) close(h);
        else if (!(e->preopen = strdup(p->guest_path ? p->guest_path : p->host_path))) {
            wasi_fd_entry_destroy(e);
            e = NULL;
        }
        if ((st = wasi_put_at(w, next++, e, err))) goto fail;
    }
    for (uint32_t i = 0; i < config->nlisten + config->nlisten_fds; i++) {
        int h;
        if (i < config->nlisten) {
            if ((st = wasi_listen_open(config->listen[i], &h, err))) goto fail;
        } else {
            int src = config->listen_fds[i - config->nlisten];
            h = fcntl(src, F_DUPFD_CLOEXEC, 3);
            if (h < 0) {
                st = wasi_fail(err, WEFT_ERR_IO, "cannot use listening socket %d: %s",
                               src, strerror(errno));
                goto fail;
            }
        }
        wasi_fd *e = wasi_fd_entry_new(h, true, WASI_FILETYPE_SOCKET_STREAM, 0,
                                       WASI_RIGHTS_LISTENER, WASI_RIGHTS_SOCKET);
        if (!e) close(h);
        if ((st = wasi_put_at(w, next++, e, err))) goto fail;
    }
    *out = w;
    return WEFT_OK;
fail:
    weft_wasi_free(w);
    return st;
}

void weft_wasi_free(weft_wasi *w) {
    if (!w) return;
    wasi_net_lookups_wait(w);
    for (uint32_t i = 0; i < w->nfds; i++) wasi_fd_entry_destroy(w->fds[i]);
    free(w->fds);
    if (w->argv)
        for (uint32_t i = 0; i < w->argc; i++) free(w->argv[i]);
    if (w->env)
        for (uint32_t i = 0; i < w->envc; i++) free(w->env[i]);
    free(w->argv);
    free(w->env);
    free(w->bindings);
    pthread_cond_destroy(&w->lookups_done);
    pthread_mutex_destroy(&w->lock);
    free(w);
}

/* ---- Registration ---- */

/* Every WASI host function goes through here: read the memory once, run
   the implementation, store its errno. */
static weft_status wasi_trampoline(weft_caller *caller, void *env,
                                   const weft_val *args, weft_val *results) {
    const wasi_binding *b = env;
    wasi_call c = {.w = b->w, .caller = caller, .unstable = b->unstable,
                   .status = WEFT_OK};
    weft_memory *m = weft_caller_memory(caller);
    if (m && weft_memory_limits(m).is64) {
        /* WASI preview 1 is defined on 32-bit pointers (memory64 has no
           WASI of its own yet): refuse rather than misread them. */
        weft_caller_trap(caller, "WASI needs a 32-bit memory 0 (%s called with a 64-bit memory 0)",
                         b->fn->name);
        return WEFT_ERR_TRAP;
    }
    if (m) {
        c.mem = weft_memory_data(m);
        c.size = weft_memory_size(m);
    }
    uint32_t e = b->fn->impl(&c, args);
    if (c.status != WEFT_OK) return c.status;
    if (e == WASI_EPARKED) return WEFT_SUSPENDED; /* a restartable call parked */
    if (b->fn->results[0]) {
        results[0].type = WEFT_I32;
        results[0].of.i32 = (int32_t)e;
    }
    return WEFT_OK;
}

static void wasi_sig(const char *s, weft_valtype *out, uint32_t *n) {
    *n = 0;
    for (; *s; s++) out[(*n)++] = *s == 'I' ? WEFT_I64 : WEFT_I32;
}

weft_status weft_wasi_define(weft_wasi *w, weft_store *store,
                             weft_linker *linker, weft_error *err) {
    if (!w || !store || !linker)
        return wasi_fail(err, WEFT_ERR_MISUSE, "weft_wasi_define: NULL argument");
    for (size_t u = 0; u < 2; u++) {
        const char *module = u ? "wasi_unstable" : "wasi_snapshot_preview1";
        for (size_t i = 0; i < WASI_NFUNCS; i++) {
            const wasi_func *f = &wasi_table[i];
            if (u && !f->unstable) continue;
            weft_valtype params[16], results[1];
            weft_functype type;
            wasi_sig(f->params, params, &type.nparams);
            wasi_sig(f->results, results, &type.nresults);
            type.params = params;
            type.results = results;
            weft_func *fn = weft_func_new(store, &type, wasi_trampoline,
                                          &w->bindings[u * WASI_NFUNCS + i], NULL);
            if (!fn) return wasi_fail(err, WEFT_ERR_NOMEM, "out of memory");
            weft_extern ext = {.kind = WEFT_EXTERN_FUNC, .of.func = fn};
            weft_status st = weft_linker_define(linker, module, f->name, ext);
            if (st != WEFT_OK)
                return wasi_fail(err, st, "cannot define %s.%s", module, f->name);
        }
    }
    return WEFT_OK;
}
