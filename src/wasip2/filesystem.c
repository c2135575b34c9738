/*
 * filesystem.c — wasi:filesystem@0.2.12: types (descriptor, directory-
 * entry-stream, filesystem-error-code) and preopens
 * (../shared/spec/wasi-wit/v0.2.12/proposals/filesystem).
 *
 * There is no second file layer here. A descriptor is a preview1 fd of the
 * state's weft_wasi, and each method is the preview1 function that does
 * the same thing (docs/wasi.md "WASI 0.2" has the table), called through
 * wp2_p1_call with its path and results in a scratch memory of the host:
 * the same sandboxed resolution (path.c), the same kernel rules per call
 * (fs.c), the same rights checks, the same errno, mapped to error-code by
 * wp2_error_code. The descriptor-flags of wasi:filesystem become preview1
 * rights (wp2_rights), so that a flag missing is preview1's ENOTCAPABLE,
 * which wasi:filesystem calls not-permitted, as are the sandbox's own
 * refusals (an absolute path, `..` above the preopen, a symlink out).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wasip2.h"

/* ---- Error codes ---- */

uint32_t wp2_error_code(wasi_errno e) {
    switch (e) {
    case WASI_EACCES: return WP2_FILESYSTEM_ERROR_CODE_ACCESS;
    case WASI_EAGAIN: return WP2_FILESYSTEM_ERROR_CODE_WOULD_BLOCK;
    case WASI_EALREADY: return WP2_FILESYSTEM_ERROR_CODE_ALREADY;
    case WASI_EBADF: return WP2_FILESYSTEM_ERROR_CODE_BAD_DESCRIPTOR;
    case WASI_EBUSY: return WP2_FILESYSTEM_ERROR_CODE_BUSY;
    case WASI_EDEADLK: return WP2_FILESYSTEM_ERROR_CODE_DEADLOCK;
    case WASI_EDQUOT: return WP2_FILESYSTEM_ERROR_CODE_QUOTA;
    case WASI_EEXIST: return WP2_FILESYSTEM_ERROR_CODE_EXIST;
    case WASI_EFBIG: return WP2_FILESYSTEM_ERROR_CODE_FILE_TOO_LARGE;
    case WASI_EILSEQ: return WP2_FILESYSTEM_ERROR_CODE_ILLEGAL_BYTE_SEQUENCE;
    case WASI_EINPROGRESS: return WP2_FILESYSTEM_ERROR_CODE_IN_PROGRESS;
    case WASI_EINTR: return WP2_FILESYSTEM_ERROR_CODE_INTERRUPTED;
    case WASI_EINVAL: return WP2_FILESYSTEM_ERROR_CODE_INVALID;
    case WASI_EISDIR: return WP2_FILESYSTEM_ERROR_CODE_IS_DIRECTORY;
    case WASI_ELOOP: return WP2_FILESYSTEM_ERROR_CODE_LOOP;
    case WASI_EMLINK: return WP2_FILESYSTEM_ERROR_CODE_TOO_MANY_LINKS;
    case WASI_EMSGSIZE: return WP2_FILESYSTEM_ERROR_CODE_MESSAGE_SIZE;
    case WASI_ENAMETOOLONG: return WP2_FILESYSTEM_ERROR_CODE_NAME_TOO_LONG;
    case WASI_ENODEV: return WP2_FILESYSTEM_ERROR_CODE_NO_DEVICE;
    case WASI_ENOENT: return WP2_FILESYSTEM_ERROR_CODE_NO_ENTRY;
    case WASI_ENOLCK: return WP2_FILESYSTEM_ERROR_CODE_NO_LOCK;
    case WASI_ENOMEM: return WP2_FILESYSTEM_ERROR_CODE_INSUFFICIENT_MEMORY;
    case WASI_ENOSPC: return WP2_FILESYSTEM_ERROR_CODE_INSUFFICIENT_SPACE;
    case WASI_ENOTDIR: return WP2_FILESYSTEM_ERROR_CODE_NOT_DIRECTORY;
    case WASI_ENOTEMPTY: return WP2_FILESYSTEM_ERROR_CODE_NOT_EMPTY;
    case WASI_ENOTRECOVERABLE: return WP2_FILESYSTEM_ERROR_CODE_NOT_RECOVERABLE;
    case WASI_ENOTSUP: case WASI_ENOSYS: return WP2_FILESYSTEM_ERROR_CODE_UNSUPPORTED;
    case WASI_ENOTTY: return WP2_FILESYSTEM_ERROR_CODE_NO_TTY;
    case WASI_ENXIO: return WP2_FILESYSTEM_ERROR_CODE_NO_SUCH_DEVICE;
    case WASI_EOVERFLOW: return WP2_FILESYSTEM_ERROR_CODE_OVERFLOW;
    case WASI_EPERM: case WASI_ENOTCAPABLE: return WP2_FILESYSTEM_ERROR_CODE_NOT_PERMITTED;
    case WASI_EPIPE: return WP2_FILESYSTEM_ERROR_CODE_PIPE;
    case WASI_EROFS: return WP2_FILESYSTEM_ERROR_CODE_READ_ONLY;
    case WASI_ESPIPE: return WP2_FILESYSTEM_ERROR_CODE_INVALID_SEEK;
    case WASI_ETXTBSY: return WP2_FILESYSTEM_ERROR_CODE_TEXT_FILE_BUSY;
    case WASI_EXDEV: return WP2_FILESYSTEM_ERROR_CODE_CROSS_DEVICE;
    default: return WP2_FILESYSTEM_ERROR_CODE_IO;
    }
}

const char *wp2_error_code_name(uint32_t code) {
    for (uint32_t i = 0; i < WP2_NTYPES; i++) {
        if (strcmp(wp2_type_descs[i].name, "error-code") != 0 || wp2_type_descs[i].type < 0) continue;
        const wp2_node_desc *d = &wp2_node_descs[wp2_type_descs[i].type];
        if (d->kind == CM_ENUM && code < d->n && d->n == WP2_FILESYSTEM_ERROR_CODE_CROSS_DEVICE + 1)
            return wp2_field_descs[d->first + code].name;
    }
    return "io";
}

/* ---- Descriptor flags and preview1 rights ---- */

/* What every descriptor may do whatever its flags (none of it writes). */
#define WP2_RIGHTS_ANY                                                                  \
    (WASI_RIGHT_FD_SEEK | WASI_RIGHT_FD_TELL | WASI_RIGHT_FD_FDSTAT_SET_FLAGS |       \
     WASI_RIGHT_FD_SYNC | WASI_RIGHT_FD_DATASYNC | WASI_RIGHT_FD_ADVISE |             \
     WASI_RIGHT_FD_FILESTAT_GET | WASI_RIGHT_PATH_OPEN | WASI_RIGHT_PATH_FILESTAT_GET | \
     WASI_RIGHT_PATH_READLINK | WASI_RIGHT_POLL_FD_READWRITE)
/* What `mutate-directory` allows: every call that changes a directory. */
#define WP2_RIGHTS_MUTATE                                                               \
    (WASI_RIGHT_PATH_CREATE_DIRECTORY | WASI_RIGHT_PATH_CREATE_FILE |                 \
     WASI_RIGHT_PATH_LINK_SOURCE | WASI_RIGHT_PATH_LINK_TARGET |                      \
     WASI_RIGHT_PATH_RENAME_SOURCE | WASI_RIGHT_PATH_RENAME_TARGET |                  \
     WASI_RIGHT_PATH_FILESTAT_SET_SIZE | WASI_RIGHT_PATH_FILESTAT_SET_TIMES |         \
     WASI_RIGHT_PATH_SYMLINK | WASI_RIGHT_PATH_REMOVE_DIRECTORY |                     \
     WASI_RIGHT_PATH_UNLINK_FILE | WASI_RIGHT_FD_FILESTAT_SET_TIMES)

/* The preview1 rights of a descriptor opened with `flags` (descriptor-
   flags), as base and inheriting rights alike: through a directory
   opened without write or mutate-directory nothing can be opened with
   them (not-permitted), as in wasmtime. */
static uint64_t wp2_rights(uint32_t flags) {
    uint64_t r = WP2_RIGHTS_ANY;
    if (flags & WP2_FILESYSTEM_DESCRIPTOR_FLAGS_READ) r |= WASI_RIGHT_FD_READ | WASI_RIGHT_FD_READDIR;
    if (flags & WP2_FILESYSTEM_DESCRIPTOR_FLAGS_WRITE)
        r |= WASI_RIGHT_FD_WRITE | WASI_RIGHT_FD_ALLOCATE | WASI_RIGHT_FD_FILESTAT_SET_SIZE |
             WASI_RIGHT_FD_FILESTAT_SET_TIMES;
    if (flags & WP2_FILESYSTEM_DESCRIPTOR_FLAGS_MUTATE_DIRECTORY) r |= WP2_RIGHTS_MUTATE;
    return r;
}

/* A preopen's flags: it may be read and changed (its preview1 fd holds
   every directory right). */
#define WP2_PREOPEN_FLAGS \
    (WP2_FILESYSTEM_DESCRIPTOR_FLAGS_READ | WP2_FILESYSTEM_DESCRIPTOR_FLAGS_MUTATE_DIRECTORY)

/* ---- Calls into preview1 ---- */

#define I32(v) ((weft_val){.type = WEFT_I32, .of.i32 = (int32_t)(uint32_t)(v)})
#define I64(v) ((weft_val){.type = WEFT_I64, .of.i64 = (int64_t)(uint64_t)(v)})

/* The scratch memory of one call: `path` (and `path2`) first, then room
   for results at `out` (8-aligned), `extra` bytes of it. */
typedef struct wp2_mem {
    uint8_t *mem;
    uint32_t size, path, path_len, path2, path2_len, out;
} wp2_mem;

static bool wp2_mem_make(cm_host_call *call, wp2_mem *m, const cm_val *path, const cm_val *path2,
                         uint32_t extra) {
    uint64_t l1 = path ? path->n : 0, l2 = path2 ? path2->n : 0;
    uint64_t out = (l1 + l2 + 7) & ~7ull, size = out + extra;
    if (size > UINT32_MAX) return false;
    m->mem = cm_arena_alloc(call->arena, size ? size : 1, 8);
    if (!m->mem) return false;
    m->size = (uint32_t)size;
    m->path = 0;
    m->path_len = (uint32_t)l1;
    m->path2 = (uint32_t)l1;
    m->path2_len = (uint32_t)l2;
    m->out = (uint32_t)out;
    if (l1) memcpy(m->mem, path->v.str, l1);
    if (l2) memcpy(m->mem + l1, path2->v.str, l2);
    return true;
}

static uint32_t wp2_p1(cm_host_call *call, wasi_impl fn, wp2_mem *m, const weft_val *a, uint32_t n) {
    return wp2_p1_call(call, fn, m ? m->mem : NULL, m ? m->size : 0, a, n);
}

static wp2_descriptor *wp2_desc(cm_host_call *call, const cm_val *arg) {
    return wp2_get(wp2_of(call), WP2_RES_FILESYSTEM_DESCRIPTOR, arg->v.rep);
}

/* Sets *result to ok(payload) or err(error-code of e). */
static weft_status wp2_answer(cm_host_call *call, cm_val *result, wasi_errno e, cm_val *payload,
                              weft_error *err, const char *what) {
    if (e == WASI_ESUCCESS) {
        wp2_set_ok(result, payload);
        return WEFT_OK;
    }
    if (e == WASI_EPARKED) return WEFT_SUSPENDED; /* no path or fd call parks; kept exact */
    if (!wp2_set_err(call, result, CM_ENUM, wp2_error_code(e))) return wp2_nomem(err, what);
    return WEFT_OK;
}

#define WP2_DESC_OR_TRAP(d, arg, err)                                             \
    wp2_descriptor *d = wp2_desc(call, (arg));                                    \
    if (!d) return wp2_bad_rep((err), "descriptor", (arg)->v.rep)

/* ---- Stat ---- */

static uint32_t wp2_type_of(uint8_t filetype) {
    switch (filetype) {
    case WASI_FILETYPE_BLOCK_DEVICE: return WP2_FILESYSTEM_DESCRIPTOR_TYPE_BLOCK_DEVICE;
    case WASI_FILETYPE_CHARACTER_DEVICE: return WP2_FILESYSTEM_DESCRIPTOR_TYPE_CHARACTER_DEVICE;
    case WASI_FILETYPE_DIRECTORY: return WP2_FILESYSTEM_DESCRIPTOR_TYPE_DIRECTORY;
    case WASI_FILETYPE_REGULAR_FILE: return WP2_FILESYSTEM_DESCRIPTOR_TYPE_REGULAR_FILE;
    case WASI_FILETYPE_SOCKET_DGRAM:
    case WASI_FILETYPE_SOCKET_STREAM: return WP2_FILESYSTEM_DESCRIPTOR_TYPE_SOCKET;
    case WASI_FILETYPE_SYMBOLIC_LINK: return WP2_FILESYSTEM_DESCRIPTOR_TYPE_SYMBOLIC_LINK;
    default: return WP2_FILESYSTEM_DESCRIPTOR_TYPE_UNKNOWN;
    }
}

/* some(datetime) of a preview1 timestamp (ns). */
static bool wp2_time(cm_host_call *call, cm_val *out, uint64_t ns) {
    cm_val *v = wp2_vals(call, 3);
    if (!v) return false;
    wp2_set_u64(&v[1], ns / 1000000000u);
    v[2].kind = CM_U32;
    v[2].v.u = ns % 1000000000u;
    v[0].kind = CM_RECORD;
    v[0].n = 2;
    v[0].v.items = &v[1];
    wp2_set_case(out, CM_OPTION, 1, &v[0]);
    return true;
}

/* descriptor-stat of a preview1 filestat (64 bytes: dev 0, ino 8,
   filetype 16, nlink 24, size 32, atim 40, mtim 48, ctim 56). */
static cm_val *wp2_stat_val(cm_host_call *call, const uint8_t *fs) {
    cm_val *r = wp2_vals(call, 7);
    if (!r) return NULL;
    cm_val *f = &r[1];
    wp2_set_case(&f[0], CM_ENUM, wp2_type_of(fs[16]), NULL);
    wp2_set_u64(&f[1], wasi_ld64(fs + 24));
    wp2_set_u64(&f[2], wasi_ld64(fs + 32));
    if (!wp2_time(call, &f[3], wasi_ld64(fs + 40)) || !wp2_time(call, &f[4], wasi_ld64(fs + 48)) ||
        !wp2_time(call, &f[5], wasi_ld64(fs + 56)))
        return NULL;
    r[0].kind = CM_RECORD;
    r[0].n = 6;
    r[0].v.items = f;
    return r;
}

/* fd_filestat_get of d into m (64 bytes at m->out). */
static wasi_errno wp2_fstat(cm_host_call *call, const wp2_descriptor *d, wp2_mem *m) {
    if (!wp2_mem_make(call, m, NULL, NULL, 64)) return WASI_ENOMEM;
    weft_val a[] = {I32(d->fd), I32(m->out)};
    return wp2_p1(call, wasi_fd_filestat_get, m, a, 2);
}

weft_status wp2_filesystem_descriptor_stat(cm_host_call *call, const cm_val *args, cm_val *result,
                                           weft_error *err) {
    WP2_DESC_OR_TRAP(d, &args[0], err);
    wp2_mem m;
    wasi_errno e = wp2_fstat(call, d, &m);
    cm_val *v = NULL;
    if (!e && !(v = wp2_stat_val(call, m.mem + m.out))) return wp2_nomem(err, "stat");
    return wp2_answer(call, result, e, v, err, "stat");
}

/* path_filestat_get into m (64 bytes at m->out). */
static wasi_errno wp2_stat_at(cm_host_call *call, const wp2_descriptor *d, uint32_t pflags,
                              const cm_val *path, wp2_mem *m) {
    if (!wp2_mem_make(call, m, path, NULL, 64)) return WASI_ENOMEM;
    weft_val a[] = {I32(d->fd), I32(pflags & WP2_FILESYSTEM_PATH_FLAGS_SYMLINK_FOLLOW ? WASI_LOOKUP_SYMLINK_FOLLOW : 0),
                    I32(m->path), I32(m->path_len), I32(m->out)};
    return wp2_p1(call, wasi_path_filestat_get, m, a, 5);
}

weft_status wp2_filesystem_descriptor_stat_at(cm_host_call *call, const cm_val *args,
                                              cm_val *result, weft_error *err) {
    WP2_DESC_OR_TRAP(d, &args[0], err);
    wp2_mem m;
    wasi_errno e = wp2_stat_at(call, d, args[1].v.flags, &args[2], &m);
    cm_val *v = NULL;
    if (!e && !(v = wp2_stat_val(call, m.mem + m.out))) return wp2_nomem(err, "stat-at");
    return wp2_answer(call, result, e, v, err, "stat-at");
}

weft_status wp2_filesystem_descriptor_get_type(cm_host_call *call, const cm_val *args,
                                               cm_val *result, weft_error *err) {
    WP2_DESC_OR_TRAP(d, &args[0], err);
    wp2_mem m;
    wasi_errno e = wp2_fstat(call, d, &m);
    cm_val *v = NULL;
    if (!e) {
        if (!(v = wp2_vals(call, 1))) return wp2_nomem(err, "get-type");
        wp2_set_case(v, CM_ENUM, wp2_type_of(m.mem[m.out + 16]), NULL);
    }
    return wp2_answer(call, result, e, v, err, "get-type");
}

weft_status wp2_filesystem_descriptor_get_flags(cm_host_call *call, const cm_val *args,
                                                cm_val *result, weft_error *err) {
    WP2_DESC_OR_TRAP(d, &args[0], err);
    cm_val *v = wp2_vals(call, 1);
    if (!v) return wp2_nomem(err, "get-flags");
    v->kind = CM_FLAGS;
    v->v.flags = d->flags;
    return wp2_answer(call, result, WASI_ESUCCESS, v, err, "get-flags");
}

/* metadata-hash-value of (dev, ino): a keyed mix (splitmix64's finalizer)
   with the state's random key, so equal objects hash equal within the
   instance and the value tells nothing of the host's numbers. */
static uint64_t wp2_mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static cm_val *wp2_hash_val(cm_host_call *call, const uint8_t *fs) {
    const uint64_t *k = wp2_of(call)->hash_key;
    uint64_t dev = wasi_ld64(fs), ino = wasi_ld64(fs + 8);
    cm_val *r = wp2_vals(call, 3);
    if (!r) return NULL;
    uint64_t lo = wp2_mix(wp2_mix(dev ^ k[0]) ^ ino);
    wp2_set_u64(&r[1], lo);
    wp2_set_u64(&r[2], wp2_mix(lo ^ k[1]));
    r[0].kind = CM_RECORD;
    r[0].n = 2;
    r[0].v.items = &r[1];
    return r;
}

weft_status wp2_filesystem_descriptor_metadata_hash(cm_host_call *call, const cm_val *args,
                                                    cm_val *result, weft_error *err) {
    WP2_DESC_OR_TRAP(d, &args[0], err);
    wp2_mem m;
    wasi_errno e = wp2_fstat(call, d, &m);
    cm_val *v = NULL;
    if (!e && !(v = wp2_hash_val(call, m.mem + m.out))) return wp2_nomem(err, "metadata-hash");
    return wp2_answer(call, result, e, v, err, "metadata-hash");
}

weft_status wp2_filesystem_descriptor_metadata_hash_at(cm_host_call *call, const cm_val *args,
                                                       cm_val *result, weft_error *err) {
    WP2_DESC_OR_TRAP(d, &args[0], err);
    wp2_mem m;
    wasi_errno e = wp2_stat_at(call, d, args[1].v.flags, &args[2], &m);
    cm_val *v = NULL;
    if (!e && !(v = wp2_hash_val(call, m.mem + m.out))) return wp2_nomem(err, "metadata-hash-at");
    return wp2_answer(call, result, e, v, err, "metadata-hash-at");
}

/* is-same-object: both stat, same device and inode. */
weft_status wp2_filesystem_descriptor_is_same_object(cm_host_call *call, const cm_val *args,
                                                     cm_val *result, weft_error *err) {
    WP2_DESC_OR_TRAP(a, &args[0], err);
    WP2_DESC_OR_TRAP(b, &args[1], err);
    wp2_mem ma, mb;
    bool same = false;
    if (wp2_fstat(call, a, &ma) == WASI_ESUCCESS && wp2_fstat(call, b, &mb) == WASI_ESUCCESS)
        same = memcmp(ma.mem + ma.out, mb.mem + mb.out, 16) == 0;
    result->kind = CM_BOOL;
    result->v.b = same;
    return WEFT_OK;
}

/* ---- Times ---- */

/* new-timestamp (no-change, now, timestamp(datetime)) into preview1's
   (ns, fstflags bits) for one of the two times. */
static wasi_errno wp2_new_time(const cm_val *v, uint32_t set, uint32_t now, uint64_t *ns,
                               uint32_t *fst) {
    *ns = 0;
    if (v->v.c.index == WP2_FILESYSTEM_NEW_TIMESTAMP_NOW) {
        *fst |= now;
    } else if (v->v.c.index == WP2_FILESYSTEM_NEW_TIMESTAMP_TIMESTAMP) {
        const cm_val *dt = v->v.c.payload;
        uint64_t s = dt->v.items[0].v.u, n = dt->v.items[1].v.u;
        if (n >= 1000000000u) return WASI_EINVAL;
        if (s > (UINT64_MAX - n) / 1000000000u) return WASI_EOVERFLOW;
        *ns = s * 1000000000u + n;
        *fst |= set;
    }
    return WASI_ESUCCESS;
}

static wasi_errno wp2_times(const cm_val *atim, const cm_val *mtim, uint64_t *a, uint64_t *m,
                            uint32_t *fst) {
    *fst = 0;
    wasi_errno e = wp2_new_time(atim, WASI_FSTFLAG_ATIM, WASI_FSTFLAG_ATIM_NOW, a, fst);
    return e ? e : wp2_new_time(mtim, WASI_FSTFLAG_MTIM, WASI_FSTFLAG_MTIM_NOW, m, fst);
}

weft_status wp2_filesystem_descriptor_set_times(cm_host_call *call, const cm_val *args,
                                                cm_val *result, weft_error *err) {
    WP2_DESC_OR_TRAP(d, &args[0], err);
    uint64_t at, mt;
    uint32_t fst;
    wasi_errno e = wp2_times(&args[1], &args[2], &at, &mt, &fst);
    if (!e) {
        weft_val a[] = {I32(d->fd), I64(at), I64(mt), I32(fst)};
        e = wp2_p1(call, wasi_fd_filestat_set_times, NULL, a, 4);
    }
    return wp2_answer(call, result, e, NULL, err, "set-times");
}

weft_status wp2_filesystem_descriptor_set_times_at(cm_host_call *call, const cm_val *args,
                                                   cm_val *result, weft_error *err) {
    WP2_DESC_OR_TRAP(d, &args[0], err);
    uint64_t at, mt;
    uint32_t fst;
    wasi_errno e = wp2_times(&args[3], &args[4], &at, &mt, &fst);
    wp2_mem m;
    if (!e && !wp2_mem_make(call, &m, &args[2], NULL, 0)) return wp2_nomem(err, "set-times-at");
    if (!e) {
        weft_val a[] = {I32(d->fd),
                        I32(args[1].v.flags & WP2_FILESYSTEM_PATH_FLAGS_SYMLINK_FOLLOW ? WASI_LOOKUP_SYMLINK_FOLLOW : 0),
                        I32(m.path), I32(m.path_len), I64(at), I64(mt), I32(fst)};
        e = wp2_p1(call, wasi_path_filestat_set_times, &m, a, 7);
    }
    return wp2_answer(call, result, e, NULL, err, "set-times-at");
}

/* ---- Whole-descriptor calls ---- */

static weft_status wp2_fd_call(cm_host_call *call, const cm_val *args, cm_val *result,
                               weft_error *err, wasi_impl fn, const char *what) {
    WP2_DESC_OR_TRAP(d, &args[0], err);
    weft_val a[] = {I32(d->fd)};
    return wp2_answer(call, result, wp2_p1(call, fn, NULL, a, 1), NULL, err, what);
}

weft_status wp2_filesystem_descriptor_sync_data(cm_host_call *call, const cm_val *args,
                                                cm_val *result, weft_error *err) {
    return wp2_fd_call(call, args, result, err, wasi_fd_datasync, "sync-data");
}

weft_status wp2_filesystem_descriptor_sync(cm_host_call *call, const cm_val *args, cm_val *result,
                                           weft_error *err) {
    return wp2_fd_call(call, args, result, err, wasi_fd_sync, "sync");
}

/* advise: the advice enum has preview1's order (normal .. no-reuse). */
weft_status wp2_filesystem_descriptor_advise(cm_host_call *call, const cm_val *args,
                                             cm_val *result, weft_error *err) {
    WP2_DESC_OR_TRAP(d, &args[0], err);
    weft_val a[] = {I32(d->fd), I64(args[1].v.u), I64(args[2].v.u), I32(args[3].v.c.index)};
    return wp2_answer(call, result, wp2_p1(call, wasi_fd_advise, NULL, a, 4), NULL, err, "advise");
}

weft_status wp2_filesystem_descriptor_set_size(cm_host_call *call, const cm_val *args,
                                               cm_val *result, weft_error *err) {
    WP2_DESC_OR_TRAP(d, &args[0], err);
    weft_val a[] = {I32(d->fd), I64(args[1].v.u)};
    return wp2_answer(call, result, wp2_p1(call, wasi_fd_filestat_set_size, NULL, a, 2), NULL, err,
                      "set-size");
}

/* read: func(length, offset) -> result<tuple<list<u8>, bool>, error-code>:
   fd_pread of at most 64 KiB; the bool says the end of the file was
   reached (fewer bytes than asked). */
#define WP2_READ_MAX 65536u
weft_status wp2_filesystem_descriptor_read(cm_host_call *call, const cm_val *args, cm_val *result,
                                           weft_error *err) {
    WP2_DESC_OR_TRAP(d, &args[0], err);
    uint32_t len = args[1].v.u < WP2_READ_MAX ? (uint32_t)args[1].v.u : WP2_READ_MAX;
    wp2_mem m;
    if (!wp2_mem_make(call, &m, NULL, NULL, 16 + len)) return wp2_nomem(err, "read");
    wasi_st32(m.mem + m.out, m.out + 16);
    wasi_st32(m.mem + m.out + 4, len);
    weft_val a[] = {I32(d->fd), I32(m.out), I32(1), I64(args[2].v.u), I32(m.out + 8)};
    wasi_errno e = wp2_p1(call, wasi_fd_pread, &m, a, 5);
    cm_val *v = NULL;
    if (!e) {
        uint32_t got = wasi_ld32(m.mem + m.out + 8);
        v = wp2_vals(call, 3);
        if (!v || !wp2_set_bytes(call, &v[1], m.mem + m.out + 16, got)) return wp2_nomem(err, "read");
        v[2].kind = CM_BOOL;
        v[2].v.b = got < len;
        v[0].kind = CM_TUPLE;
        v[0].n = 2;
        v[0].v.items = &v[1];
    }
    return wp2_answer(call, result, e, v, err, "read");
}

/* write: func(buffer, offset) -> result<filesize, error-code>: fd_pwrite. */
weft_status wp2_filesystem_descriptor_write(cm_host_call *call, const cm_val *args, cm_val *result,
                                            weft_error *err) {
    WP2_DESC_OR_TRAP(d, &args[0], err);
    uint32_t len = args[1].n;
    wp2_mem m;
    if (!wp2_mem_make(call, &m, NULL, NULL, 16 + len)) return wp2_nomem(err, "write");
    wp2_get_bytes(&args[1], m.mem + m.out + 16);
    wasi_st32(m.mem + m.out, m.out + 16);
    wasi_st32(m.mem + m.out + 4, len);
    weft_val a[] = {I32(d->fd), I32(m.out), I32(1), I64(args[2].v.u), I32(m.out + 8)};
    wasi_errno e = wp2_p1(call, wasi_fd_pwrite, &m, a, 5);
    cm_val *v = NULL;
    if (!e) {
        if (!(v = wp2_vals(call, 1))) return wp2_nomem(err, "write");
        wp2_set_u64(v, wasi_ld32(m.mem + m.out + 8));
    }
    return wp2_answer(call, result, e, v, err, "write");
}

/* ---- Streams on a descriptor ---- */

/* read-via-stream / write-via-stream / append-via-stream: a stream over
   the descriptor's host file at `offset` (or its end). The descriptor
   must have been opened for reading (writing): else bad-descriptor, as
   wasmtime answers; a directory is bad-descriptor too. */
static weft_status wp2_via_stream(cm_host_call *call, const cm_val *args, cm_val *result,
                                  weft_error *err, int res, uint32_t need, bool append,
                                  uint64_t offset, const char *what) {
    WP2_DESC_OR_TRAP(d, &args[0], err);
    wp2_ctx *x = wp2_of(call);
    wasi_ref ref;
    wasi_errno e = wasi_fd_acquire(x->w, d->fd, 0, &ref);
    bool file = false;
    if (!e) {
        if (!(d->flags & need) || ref.filetype == WASI_FILETYPE_DIRECTORY) e = WASI_EBADF;
        file = ref.filetype == WASI_FILETYPE_REGULAR_FILE;
        wasi_fd_release(x->w, &ref);
    }
    cm_val *v = NULL;
    if (!e) {
        uint32_t rep = wp2_stream_new(x, res, d->fd, file, append, offset, &e);
        if (rep) {
            if (!(v = wp2_vals(call, 1))) return wp2_nomem(err, what);
            wp2_set_handle(v, CM_OWN, rep);
        } else if (e == WASI_ENOMEM) {
            return wp2_nomem(err, what);
        }
    }
    return wp2_answer(call, result, e, v, err, what);
}

weft_status wp2_filesystem_descriptor_read_via_stream(cm_host_call *call, const cm_val *args,
                                                      cm_val *result, weft_error *err) {
    return wp2_via_stream(call, args, result, err, WP2_RES_IO_INPUT_STREAM,
                          WP2_FILESYSTEM_DESCRIPTOR_FLAGS_READ, false, args[1].v.u, "read-via-stream");
}

weft_status wp2_filesystem_descriptor_write_via_stream(cm_host_call *call, const cm_val *args,
                                                       cm_val *result, weft_error *err) {
    return wp2_via_stream(call, args, result, err, WP2_RES_IO_OUTPUT_STREAM,
                          WP2_FILESYSTEM_DESCRIPTOR_FLAGS_WRITE, false, args[1].v.u,
                          "write-via-stream");
}

weft_status wp2_filesystem_descriptor_append_via_stream(cm_host_call *call, const cm_val *args,
                                                        cm_val *result, weft_error *err) {
    return wp2_via_stream(call, args, result, err, WP2_RES_IO_OUTPUT_STREAM,
                          WP2_FILESYSTEM_DESCRIPTOR_FLAGS_WRITE, true, 0, "append-via-stream");
}

/* ---- Path calls ---- */

weft_status wp2_filesystem_descriptor_open_at(cm_host_call *call, const cm_val *args,
                                              cm_val *result, weft_error *err) {
    WP2_DESC_OR_TRAP(d, &args[0], err);
    uint32_t pflags = args[1].v.flags, of = args[3].v.flags, flags = args[4].v.flags;
    uint32_t oflags = 0, fdflags = 0;
    if (of & WP2_FILESYSTEM_OPEN_FLAGS_CREATE) oflags |= WASI_OFLAG_CREAT;
    if (of & WP2_FILESYSTEM_OPEN_FLAGS_DIRECTORY) oflags |= WASI_OFLAG_DIRECTORY;
    if (of & WP2_FILESYSTEM_OPEN_FLAGS_EXCLUSIVE) oflags |= WASI_OFLAG_EXCL;
    if (of & WP2_FILESYSTEM_OPEN_FLAGS_TRUNCATE) oflags |= WASI_OFLAG_TRUNC;
    if (flags & WP2_FILESYSTEM_DESCRIPTOR_FLAGS_FILE_INTEGRITY_SYNC) fdflags |= WASI_FDFLAG_SYNC;
    if (flags & WP2_FILESYSTEM_DESCRIPTOR_FLAGS_DATA_INTEGRITY_SYNC) fdflags |= WASI_FDFLAG_DSYNC;
    if (flags & WP2_FILESYSTEM_DESCRIPTOR_FLAGS_REQUESTED_WRITE_SYNC) fdflags |= WASI_FDFLAG_RSYNC;
    /* A directory opened through d may be changed as d may (wasmtime:
       a child directory inherits its parent's permissions; the preview1
       adapter opens "." with read alone and then creates in it). */
    if (of & WP2_FILESYSTEM_OPEN_FLAGS_DIRECTORY)
        flags |= d->flags & (WP2_FILESYSTEM_DESCRIPTOR_FLAGS_READ | WP2_FILESYSTEM_DESCRIPTOR_FLAGS_MUTATE_DIRECTORY);
    uint64_t rights = wp2_rights(flags);
    /* and what is opened through it may be read and written as through
       its parent (the preopen's file permissions, as wasmtime's
       file_perms): a directory's inheriting rights are all of them, the
       preview1 layer keeping them within the parent's */
    uint64_t inherit = of & WP2_FILESYSTEM_OPEN_FLAGS_DIRECTORY
                           ? wp2_rights(WP2_FILESYSTEM_DESCRIPTOR_FLAGS_READ | WP2_FILESYSTEM_DESCRIPTOR_FLAGS_WRITE |
                                        (d->flags & WP2_FILESYSTEM_DESCRIPTOR_FLAGS_MUTATE_DIRECTORY))
                           : rights;
    wp2_mem m;
    if (!wp2_mem_make(call, &m, &args[2], NULL, 8)) return wp2_nomem(err, "open-at");
    weft_val a[] = {I32(d->fd), I32(pflags & WP2_FILESYSTEM_PATH_FLAGS_SYMLINK_FOLLOW ? WASI_LOOKUP_SYMLINK_FOLLOW : 0),
                    I32(m.path), I32(m.path_len), I32(oflags), I64(rights), I64(inherit),
                    I32(fdflags), I32(m.out)};
    wasi_errno e = wp2_p1(call, wasi_path_open, &m, a, 9);
    cm_val *v = NULL;
    if (!e) {
        uint32_t fd = wasi_ld32(m.mem + m.out);
        wp2_descriptor *nd = malloc(sizeof *nd);
        if (nd) *nd = (wp2_descriptor){fd, flags, true};
        uint32_t rep = wp2_add(wp2_of(call), WP2_RES_FILESYSTEM_DESCRIPTOR, nd);
        if (!rep || !(v = wp2_vals(call, 1))) {
            weft_val c[] = {I32(fd)};
            if (rep) free(wp2_remove(wp2_of(call), WP2_RES_FILESYSTEM_DESCRIPTOR, rep));
            wp2_p1(call, wasi_fd_close, NULL, c, 1);
            return wp2_nomem(err, "open-at");
        }
        wp2_set_handle(v, CM_OWN, rep);
    }
    return wp2_answer(call, result, e, v, err, "open-at");
}

/* A preview1 call of (fd, path ptr, path len). */
static weft_status wp2_path_call(cm_host_call *call, const cm_val *args, cm_val *result,
                                 weft_error *err, wasi_impl fn, const char *what) {
    WP2_DESC_OR_TRAP(d, &args[0], err);
    wp2_mem m;
    if (!wp2_mem_make(call, &m, &args[1], NULL, 0)) return wp2_nomem(err, what);
    weft_val a[] = {I32(d->fd), I32(m.path), I32(m.path_len)};
    return wp2_answer(call, result, wp2_p1(call, fn, &m, a, 3), NULL, err, what);
}

weft_status wp2_filesystem_descriptor_create_directory_at(cm_host_call *call, const cm_val *args,
                                                          cm_val *result, weft_error *err) {
    return wp2_path_call(call, args, result, err, wasi_path_create_directory, "create-directory-at");
}

weft_status wp2_filesystem_descriptor_remove_directory_at(cm_host_call *call, const cm_val *args,
                                                          cm_val *result, weft_error *err) {
    return wp2_path_call(call, args, result, err, wasi_path_remove_directory, "remove-directory-at");
}

weft_status wp2_filesystem_descriptor_unlink_file_at(cm_host_call *call, const cm_val *args,
                                                     cm_val *result, weft_error *err) {
    return wp2_path_call(call, args, result, err, wasi_path_unlink_file, "unlink-file-at");
}

/* readlink-at -> result<string, error-code>: the whole target (up to
   PATH_MAX); one that is not UTF-8 cannot be a WIT string:
   illegal-byte-sequence. */
weft_status wp2_filesystem_descriptor_readlink_at(cm_host_call *call, const cm_val *args,
                                                  cm_val *result, weft_error *err) {
    WP2_DESC_OR_TRAP(d, &args[0], err);
    wp2_mem m;
    if (!wp2_mem_make(call, &m, &args[1], NULL, 8 + PATH_MAX)) return wp2_nomem(err, "readlink-at");
    weft_val a[] = {I32(d->fd), I32(m.path), I32(m.path_len), I32(m.out + 8), I32(PATH_MAX),
                    I32(m.out)};
    wasi_errno e = wp2_p1(call, wasi_path_readlink, &m, a, 6);
    cm_val *v = NULL;
    if (!e) {
        uint32_t n = wasi_ld32(m.mem + m.out);
        if (!base_utf8_valid(m.mem + m.out + 8, n)) {
            e = WASI_EILSEQ;
        } else if (!(v = wp2_vals(call, 1)) ||
                   !wp2_set_str(call, v, (const char *)m.mem + m.out + 8, n)) {
            return wp2_nomem(err, "readlink-at");
        }
    }
    return wp2_answer(call, result, e, v, err, "readlink-at");
}

/* rename-at(old-path, new-descriptor, new-path) and link-at(old-path-flags,
   old-path, new-descriptor, new-path): two descriptors, two paths. */
weft_status wp2_filesystem_descriptor_rename_at(cm_host_call *call, const cm_val *args,
                                                cm_val *result, weft_error *err) {
    WP2_DESC_OR_TRAP(d, &args[0], err);
    WP2_DESC_OR_TRAP(nd, &args[2], err);
    wp2_mem m;
    if (!wp2_mem_make(call, &m, &args[1], &args[3], 0)) return wp2_nomem(err, "rename-at");
    weft_val a[] = {I32(d->fd), I32(m.path), I32(m.path_len), I32(nd->fd), I32(m.path2), I32(m.path2_len)};
    return wp2_answer(call, result, wp2_p1(call, wasi_path_rename, &m, a, 6), NULL, err, "rename-at");
}

weft_status wp2_filesystem_descriptor_link_at(cm_host_call *call, const cm_val *args,
                                              cm_val *result, weft_error *err) {
    WP2_DESC_OR_TRAP(d, &args[0], err);
    WP2_DESC_OR_TRAP(nd, &args[3], err);
    wp2_mem m;
    if (!wp2_mem_make(call, &m, &args[2], &args[4], 0)) return wp2_nomem(err, "link-at");
    weft_val a[] = {I32(d->fd),
                    I32(args[1].v.flags & WP2_FILESYSTEM_PATH_FLAGS_SYMLINK_FOLLOW ? WASI_LOOKUP_SYMLINK_FOLLOW : 0),
                    I32(m.path), I32(m.path_len), I32(nd->fd), I32(m.path2), I32(m.path2_len)};
    return wp2_answer(call, result, wp2_p1(call, wasi_path_link, &m, a, 7), NULL, err, "link-at");
}

/* symlink-at(old-path, new-path): old-path is the link's target text. */
weft_status wp2_filesystem_descriptor_symlink_at(cm_host_call *call, const cm_val *args,
                                                 cm_val *result, weft_error *err) {
    WP2_DESC_OR_TRAP(d, &args[0], err);
    wp2_mem m;
    if (!wp2_mem_make(call, &m, &args[1], &args[2], 0)) return wp2_nomem(err, "symlink-at");
    weft_val a[] = {I32(m.path), I32(m.path_len), I32(d->fd), I32(m.path2), I32(m.path2_len)};
    return wp2_answer(call, result, wp2_p1(call, wasi_path_symlink, &m, a, 5), NULL, err, "symlink-at");
}

/* ---- Directories ---- */

/* read-directory: a directory-entry-stream on a preview1 fd of its own
   (a dup of the directory's host descriptor; fd_readdir opens its own
   position on it), so the stream outlives the descriptor's drop. */
weft_status wp2_filesystem_descriptor_read_directory(cm_host_call *call, const cm_val *args,
                                                     cm_val *result, weft_error *err) {
    WP2_DESC_OR_TRAP(d, &args[0], err);
    wp2_ctx *x = wp2_of(call);
    wasi_ref ref;
    wasi_errno e = wasi_fd_acquire(x->w, d->fd, 0, &ref);
    if (!e && ref.filetype != WASI_FILETYPE_DIRECTORY) e = WASI_ENOTDIR;
    else if (!e && !(ref.base & WASI_RIGHT_FD_READDIR)) e = WASI_ENOTCAPABLE;
    uint32_t fd = 0;
    if (!e) {
        int h = fcntl(ref.host, F_DUPFD_CLOEXEC, 0);
        e = h < 0 ? wasi_errno_from_host(errno)
                  : wasi_fd_insert(x->w, h, WASI_FILETYPE_DIRECTORY, 0, WASI_RIGHT_FD_READDIR, 0, 0, &fd);
    }
    if (ref.e) wasi_fd_release(x->w, &ref);
    cm_val *v = NULL;
    if (!e) {
        wp2_dir_stream *s = malloc(sizeof *s);
        if (s) *s = (wp2_dir_stream){fd, 0};
        uint32_t rep = wp2_add(x, WP2_RES_FILESYSTEM_DIRECTORY_ENTRY_STREAM, s);
        if (!rep || !(v = wp2_vals(call, 1))) {
            if (rep) free(wp2_remove(x, WP2_RES_FILESYSTEM_DIRECTORY_ENTRY_STREAM, rep));
            weft_val c[] = {I32(fd)};
            wp2_p1(call, wasi_fd_close, NULL, c, 1);
            return wp2_nomem(err, "read-directory");
        }
        wp2_set_handle(v, CM_OWN, rep);
    }
    return wp2_answer(call, result, e, v, err, "read-directory");
}

/* read-directory-entry -> result<option<directory-entry>, error-code>:
   the next entry from fd_readdir, "." and ".." left out (types.wit); a
   name that is not UTF-8 is illegal-byte-sequence. */
weft_status wp2_filesystem_directory_entry_stream_read_directory_entry(cm_host_call *call,
                                                                       const cm_val *args,
                                                                       cm_val *result,
                                                                       weft_error *err) {
    wp2_dir_stream *s = wp2_get(wp2_of(call), WP2_RES_FILESYSTEM_DIRECTORY_ENTRY_STREAM, args[0].v.rep);
    if (!s) return wp2_bad_rep(err, "directory-entry-stream", args[0].v.rep);
    wp2_mem m;
    enum { HEAD = 24, BUF = HEAD + NAME_MAX + 1 };
    if (!wp2_mem_make(call, &m, NULL, NULL, 8 + BUF)) return wp2_nomem(err, "read-directory-entry");
    for (;;) {
        weft_val a[] = {I32(s->fd), I32(m.out + 8), I32(BUF), I64(s->cookie), I32(m.out)};
        wasi_errno e = wp2_p1(call, wasi_fd_readdir, &m, a, 5);
        if (e) return wp2_answer(call, result, e, NULL, err, "read-directory-entry");
        uint32_t used = wasi_ld32(m.mem + m.out);
        const uint8_t *ent = m.mem + m.out + 8;
        cm_val *v = wp2_vals(call, 4);
        if (!v) return wp2_nomem(err, "read-directory-entry");
        if (used < HEAD) { /* the end */
            wp2_set_case(v, CM_OPTION, 0, NULL);
            return wp2_answer(call, result, WASI_ESUCCESS, v, err, "read-directory-entry");
        }
        uint32_t namelen = wasi_ld32(ent + 16);
        if (namelen > used - HEAD) /* cannot be: the buffer holds any name */
            return wp2_answer(call, result, WASI_EIO, NULL, err, "read-directory-entry");
        s->cookie = wasi_ld64(ent);
        const char *name = (const char *)ent + HEAD;
        if ((namelen == 1 && name[0] == '.') || (namelen == 2 && name[0] == '.' && name[1] == '.'))
            continue;
        if (!base_utf8_valid((const uint8_t *)name, namelen))
            return wp2_answer(call, result, WASI_EILSEQ, NULL, err, "read-directory-entry");
        wp2_set_case(&v[2], CM_ENUM, wp2_type_of(ent[20]), NULL);
        if (!wp2_set_str(call, &v[3], name, namelen)) return wp2_nomem(err, "read-directory-entry");
        v[1].kind = CM_RECORD;
        v[1].n = 2;
        v[1].v.items = &v[2];
        wp2_set_case(&v[0], CM_OPTION, 1, &v[1]);
        return wp2_answer(call, result, WASI_ESUCCESS, v, err, "read-directory-entry");
    }
}

/* filesystem-error-code(err: borrow<error>) -> option<error-code>: every
   error this host makes carries a preview1 errno, so: some. */
weft_status wp2_filesystem_types_filesystem_error_code(cm_host_call *call, const cm_val *args,
                                                       cm_val *result, weft_error *err) {
    wp2_error *e = wp2_get(wp2_of(call), WP2_RES_IO_ERROR, args[0].v.rep);
    if (!e) return wp2_bad_rep(err, "error", args[0].v.rep);
    cm_val *v = wp2_vals(call, 1);
    if (!v) return wp2_nomem(err, "filesystem-error-code");
    wp2_set_case(v, CM_ENUM, wp2_error_code(e->code), NULL);
    wp2_set_case(result, CM_OPTION, 1, v);
    return WEFT_OK;
}

/* ---- Preopens ---- */

/* get-directories -> list<tuple<descriptor, string>>: the config's
   preopens in order, each a new descriptor (read, mutate-directory) on
   the preopen's preview1 fd, which its drop leaves open. */
weft_status wp2_filesystem_preopens_get_directories(cm_host_call *call, const cm_val *args,
                                                    cm_val *result, weft_error *err) {
    (void)args;
    wp2_ctx *x = wp2_of(call);
    weft_wasi *w = x->w;
    uint32_t n = 0;
    pthread_mutex_lock(&w->lock);
    for (uint32_t i = 0; i < w->nfds; i++) n += w->fds[i] && w->fds[i]->preopen;
    cm_val *items = wp2_vals(call, n);
    uint32_t k = 0;
    weft_status st = items ? WEFT_OK : wp2_nomem(err, "get-directories");
    for (uint32_t i = 0; i < w->nfds && st == WEFT_OK; i++) {
        if (!w->fds[i] || !w->fds[i]->preopen) continue;
        wp2_descriptor *d = malloc(sizeof *d);
        if (d) *d = (wp2_descriptor){i, WP2_PREOPEN_FLAGS, false};
        uint32_t rep = wp2_add(x, WP2_RES_FILESYSTEM_DESCRIPTOR, d);
        cm_val *pair = rep ? wp2_vals(call, 2) : NULL;
        const char *name = w->fds[i]->preopen;
        if (!pair || !wp2_set_str(call, &pair[1], name, strlen(name))) {
            st = wp2_nomem(err, "get-directories");
            break;
        }
        wp2_set_handle(&pair[0], CM_OWN, rep);
        items[k].kind = CM_TUPLE;
        items[k].n = 2;
        items[k].v.items = pair;
        k++;
    }
    pthread_mutex_unlock(&w->lock);
    if (st != WEFT_OK) return st;
    result->kind = CM_LIST;
    result->n = k;
    result->v.items = items;
    return WEFT_OK;
}

/* ---- Destructors ---- */

weft_status wp2_filesystem_descriptor_drop(const cm_resource *rt, uint32_t rep, void *env,
                                           weft_error *err) {
    wp2_ctx *x = env;
    wp2_descriptor *d = wp2_remove(x, WP2_RES_FILESYSTEM_DESCRIPTOR, rep);
    if (!d) return wp2_bad_rep(err, rt->name, rep);
    if (d->owned) {
        wasi_call c = {.w = x->w, .status = WEFT_OK};
        weft_val a[] = {I32(d->fd)};
        wasi_fd_close(&c, a);
    }
    free(d);
    return WEFT_OK;
}

weft_status wp2_filesystem_directory_entry_stream_drop(const cm_resource *rt, uint32_t rep,
                                                       void *env, weft_error *err) {
    wp2_ctx *x = env;
    wp2_dir_stream *s = wp2_remove(x, WP2_RES_FILESYSTEM_DIRECTORY_ENTRY_STREAM, rep);
    if (!s) return wp2_bad_rep(err, rt->name, rep);
    wasi_call c = {.w = x->w, .status = WEFT_OK};
    weft_val a[] = {I32(s->fd)};
    wasi_fd_close(&c, a);
    free(s);
    return WEFT_OK;
}
