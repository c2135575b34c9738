/*
 * wasi.h — internals of the WASI preview1 layer: the per-process context,
 * its fd table, guest-memory access, sandboxed path resolution, the one
 * blocking helper, and the table of host functions.
 *
 * Everything here uses only the public API (weft.h) plus libc/POSIX.
 *
 * Thread safety: one weft_wasi serves every thread of a process
 * (wasi-threads). The fd table is guarded by `lock`; an entry is reference
 * counted so that fd_close from one thread cannot pull a host descriptor
 * from under a read blocked in another: the host descriptor closes when the
 * last reference goes. The lock is never held across a blocking call.
 */
#ifndef WEFT_WASI_H
#define WEFT_WASI_H

#include <dirent.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <time.h>

#include "weft.h"
#include "../base/base.h" /* base_utf8_valid: the one UTF-8 check */

#define WASI_INTERNAL __attribute__((visibility("hidden")))

/* ---- Constants of the preview1 ABI (witx, wasi_snapshot_preview1) ---- */

typedef uint16_t wasi_errno;
enum {
    WASI_ESUCCESS = 0, WASI_E2BIG = 1, WASI_EACCES = 2, WASI_EADDRINUSE = 3,
    WASI_EADDRNOTAVAIL = 4, WASI_EAFNOSUPPORT = 5, WASI_EAGAIN = 6,
    WASI_EALREADY = 7, WASI_EBADF = 8, WASI_EBADMSG = 9, WASI_EBUSY = 10,
    WASI_ECANCELED = 11, WASI_ECHILD = 12, WASI_ECONNABORTED = 13,
    WASI_ECONNREFUSED = 14, WASI_ECONNRESET = 15, WASI_EDEADLK = 16,
    WASI_EDESTADDRREQ = 17, WASI_EDOM = 18, WASI_EDQUOT = 19,
    WASI_EEXIST = 20, WASI_EFAULT = 21, WASI_EFBIG = 22,
    WASI_EHOSTUNREACH = 23, WASI_EIDRM = 24, WASI_EILSEQ = 25,
    WASI_EINPROGRESS = 26, WASI_EINTR = 27, WASI_EINVAL = 28, WASI_EIO = 29,
    WASI_EISCONN = 30, WASI_EISDIR = 31, WASI_ELOOP = 32, WASI_EMFILE = 33,
    WASI_EMLINK = 34, WASI_EMSGSIZE = 35, WASI_EMULTIHOP = 36,
    WASI_ENAMETOOLONG = 37, WASI_ENETDOWN = 38, WASI_ENETRESET = 39,
    WASI_ENETUNREACH = 40, WASI_ENFILE = 41, WASI_ENOBUFS = 42,
    WASI_ENODEV = 43, WASI_ENOENT = 44, WASI_ENOEXEC = 45, WASI_ENOLCK = 46,
    WASI_ENOLINK = 47, WASI_ENOMEM = 48, WASI_ENOMSG = 49,
    WASI_ENOPROTOOPT = 50, WASI_ENOSPC = 51, WASI_ENOSYS = 52,
    WASI_ENOTCONN = 53, WASI_ENOTDIR = 54, WASI_ENOTEMPTY = 55,
    WASI_ENOTRECOVERABLE = 56, WASI_ENOTSOCK = 57, WASI_ENOTSUP = 58,
    WASI_ENOTTY = 59, WASI_ENXIO = 60, WASI_EOVERFLOW = 61,
    WASI_EOWNERDEAD = 62, WASI_EPERM = 63, WASI_EPIPE = 64, WASI_EPROTO = 65,
    WASI_EPROTONOSUPPORT = 66, WASI_EPROTOTYPE = 67, WASI_ERANGE = 68,
    WASI_EROFS = 69, WASI_ESPIPE = 70, WASI_ESRCH = 71, WASI_ESTALE = 72,
    WASI_ETIMEDOUT = 73, WASI_ETXTBSY = 74, WASI_EXDEV = 75,
    WASI_ENOTCAPABLE = 76,
    /* Not an errno: the call parked its agent and will be made again
       (wasi_wait_ready); never seen by the guest. */
    WASI_EPARKED = 0xffff,
};

/* What a path that tries to leave its preopen gets (absolute path, `..`
   above the root, a symlink to an absolute path or out of the root).
   wasmtime before 2023 and node/uvwasi answer ENOTCAPABLE; wasmtime's
   current preview1 adapter answers EPERM. See docs/wasi.md. */
#define WASI_ESCAPE WASI_ENOTCAPABLE
/* Symlinks followed during one resolution before ELOOP (as Linux). */
#define WASI_MAX_SYMLINKS 40

#define WASI_RIGHT_FD_DATASYNC (1ull << 0)
#define WASI_RIGHT_FD_READ (1ull << 1)
#define WASI_RIGHT_FD_SEEK (1ull << 2)
#define WASI_RIGHT_FD_FDSTAT_SET_FLAGS (1ull << 3)
#define WASI_RIGHT_FD_SYNC (1ull << 4)
#define WASI_RIGHT_FD_TELL (1ull << 5)
#define WASI_RIGHT_FD_WRITE (1ull << 6)
#define WASI_RIGHT_FD_ADVISE (1ull << 7)
#define WASI_RIGHT_FD_ALLOCATE (1ull << 8)
#define WASI_RIGHT_PATH_CREATE_DIRECTORY (1ull << 9)
#define WASI_RIGHT_PATH_CREATE_FILE (1ull << 10)
#define WASI_RIGHT_PATH_LINK_SOURCE (1ull << 11)
#define WASI_RIGHT_PATH_LINK_TARGET (1ull << 12)
#define WASI_RIGHT_PATH_OPEN (1ull << 13)
#define WASI_RIGHT_FD_READDIR (1ull << 14)
#define WASI_RIGHT_PATH_READLINK (1ull << 15)
#define WASI_RIGHT_PATH_RENAME_SOURCE (1ull << 16)
#define WASI_RIGHT_PATH_RENAME_TARGET (1ull << 17)
#define WASI_RIGHT_PATH_FILESTAT_GET (1ull << 18)
#define WASI_RIGHT_PATH_FILESTAT_SET_SIZE (1ull << 19)
#define WASI_RIGHT_PATH_FILESTAT_SET_TIMES (1ull << 20)
#define WASI_RIGHT_FD_FILESTAT_GET (1ull << 21)
#define WASI_RIGHT_FD_FILESTAT_SET_SIZE (1ull << 22)
#define WASI_RIGHT_FD_FILESTAT_SET_TIMES (1ull << 23)
#define WASI_RIGHT_PATH_SYMLINK (1ull << 24)
#define WASI_RIGHT_PATH_REMOVE_DIRECTORY (1ull << 25)
#define WASI_RIGHT_PATH_UNLINK_FILE (1ull << 26)
#define WASI_RIGHT_POLL_FD_READWRITE (1ull << 27)
#define WASI_RIGHT_SOCK_SHUTDOWN (1ull << 28)
#define WASI_RIGHT_SOCK_ACCEPT (1ull << 29)
#define WASI_RIGHTS_ALL ((1ull << 30) - 1)

/* Rights that make sense per kind of object. */
#define WASI_RIGHTS_REGULAR                                                   \
    (WASI_RIGHT_FD_DATASYNC | WASI_RIGHT_FD_READ | WASI_RIGHT_FD_SEEK |       \
     WASI_RIGHT_FD_FDSTAT_SET_FLAGS | WASI_RIGHT_FD_SYNC | WASI_RIGHT_FD_TELL | \
     WASI_RIGHT_FD_WRITE | WASI_RIGHT_FD_ADVISE | WASI_RIGHT_FD_ALLOCATE |    \
     WASI_RIGHT_FD_FILESTAT_GET | WASI_RIGHT_FD_FILESTAT_SET_SIZE |           \
     WASI_RIGHT_FD_FILESTAT_SET_TIMES | WASI_RIGHT_POLL_FD_READWRITE)
#define WASI_RIGHTS_DIRECTORY                                                 \
    (WASI_RIGHT_FD_FDSTAT_SET_FLAGS | WASI_RIGHT_FD_SYNC |                    \
     WASI_RIGHT_FD_ADVISE | WASI_RIGHT_PATH_CREATE_DIRECTORY |                \
     WASI_RIGHT_PATH_CREATE_FILE | WASI_RIGHT_PATH_LINK_SOURCE |              \
     WASI_RIGHT_PATH_LINK_TARGET | WASI_RIGHT_PATH_OPEN |                     \
     WASI_RIGHT_FD_READDIR | WASI_RIGHT_PATH_READLINK |                       \
     WASI_RIGHT_PATH_RENAME_SOURCE | WASI_RIGHT_PATH_RENAME_TARGET |          \
     WASI_RIGHT_PATH_FILESTAT_GET | WASI_RIGHT_PATH_FILESTAT_SET_SIZE |       \
     WASI_RIGHT_PATH_FILESTAT_SET_TIMES | WASI_RIGHT_FD_FILESTAT_GET |        \
     WASI_RIGHT_FD_FILESTAT_SET_TIMES | WASI_RIGHT_PATH_SYMLINK |             \
     WASI_RIGHT_PATH_REMOVE_DIRECTORY | WASI_RIGHT_PATH_UNLINK_FILE |         \
     WASI_RIGHT_FD_DATASYNC)
#define WASI_RIGHTS_STREAM                                                    \
    (WASI_RIGHT_FD_READ | WASI_RIGHT_FD_WRITE |                               \
     WASI_RIGHT_FD_FDSTAT_SET_FLAGS | WASI_RIGHT_FD_FILESTAT_GET |            \
     WASI_RIGHT_POLL_FD_READWRITE)
#define WASI_RIGHTS_SOCKET                                                    \
    (WASI_RIGHTS_STREAM | WASI_RIGHT_SOCK_SHUTDOWN)
#define WASI_RIGHTS_LISTENER                                                  \
    (WASI_RIGHT_FD_FDSTAT_SET_FLAGS | WASI_RIGHT_FD_FILESTAT_GET |            \
     WASI_RIGHT_POLL_FD_READWRITE | WASI_RIGHT_SOCK_ACCEPT |                  \
     WASI_RIGHT_SOCK_SHUTDOWN | WASI_RIGHT_FD_READ)

enum {
    WASI_FILETYPE_UNKNOWN = 0, WASI_FILETYPE_BLOCK_DEVICE = 1,
    WASI_FILETYPE_CHARACTER_DEVICE = 2, WASI_FILETYPE_DIRECTORY = 3,
    WASI_FILETYPE_REGULAR_FILE = 4, WASI_FILETYPE_SOCKET_DGRAM = 5,
    WASI_FILETYPE_SOCKET_STREAM = 6, WASI_FILETYPE_SYMBOLIC_LINK = 7,
};

#define WASI_FDFLAG_APPEND 0x1u
#define WASI_FDFLAG_DSYNC 0x2u
#define WASI_FDFLAG_NONBLOCK 0x4u
#define WASI_FDFLAG_RSYNC 0x8u
#define WASI_FDFLAG_SYNC 0x10u
#define WASI_FDFLAGS_ALL 0x1fu

#define WASI_OFLAG_CREAT 0x1u
#define WASI_OFLAG_DIRECTORY 0x2u
#define WASI_OFLAG_EXCL 0x4u
#define WASI_OFLAG_TRUNC 0x8u

#define WASI_LOOKUP_SYMLINK_FOLLOW 0x1u

#define WASI_FSTFLAG_ATIM 0x1u
#define WASI_FSTFLAG_ATIM_NOW 0x2u
#define WASI_FSTFLAG_MTIM 0x4u
#define WASI_FSTFLAG_MTIM_NOW 0x8u

enum { WASI_CLOCK_REALTIME = 0, WASI_CLOCK_MONOTONIC = 1,
       WASI_CLOCK_PROCESS_CPUTIME = 2, WASI_CLOCK_THREAD_CPUTIME = 3 };
enum { WASI_EVENT_CLOCK = 0, WASI_EVENT_FD_READ = 1, WASI_EVENT_FD_WRITE = 2 };
#define WASI_SUBCLOCK_ABSTIME 0x1u
#define WASI_EVENTRW_HANGUP 0x1u
#define WASI_RIFLAG_PEEK 0x1u
#define WASI_RIFLAG_WAITALL 0x2u
#define WASI_ROFLAG_TRUNCATED 0x1u
#define WASI_SDFLAG_RD 0x1u
#define WASI_SDFLAG_WR 0x2u

/* ---- The context ---- */

/* One open guest descriptor. `host` is the host descriptor; `close_host`
   says whether it is ours to close (not for a borrowed stdio descriptor).
   Rights and flags change only under the context's lock. */
typedef struct wasi_fd {
    int host;
    bool close_host;
    uint8_t filetype;
    uint16_t flags;         /* WASI fdflags */
    uint64_t base;          /* rights on this fd */
    uint64_t inheriting;    /* rights of fds opened through it */
    uint64_t unshown;       /* of those, the ones fd_fdstat_get does not show
                               (a directory opened by path_open: fs.c), which
                               fd_fdstat_set_rights leaves as they are */
    char *preopen;          /* guest name of a preopened directory, or NULL */
    bool stdio;             /* one of the host's stdio descriptors (guest 0, 1, 2
                               at start; fd_renumber moves it with the entry) */
    uint32_t refs;          /* table slot + calls in flight; under the lock */
    pthread_mutex_t dir_lock; /* guards dir and dir_pos (fd_readdir) */
    DIR *dir;               /* readdir stream on a dup of host, lazily */
    uint64_t dir_pos;       /* index of the next entry `dir` returns */
} wasi_fd;

/* A reference to an fd taken for the length of one call: a snapshot of its
   rights and flags and a counted pointer. Release with wasi_fd_release. */
typedef struct wasi_ref {
    wasi_fd *e;
    int host;
    uint8_t filetype;
    uint16_t flags;
    uint64_t base, inheriting;
} wasi_ref;

struct weft_wasi;

/* How to wait (see wasi_block_on). */
typedef struct wasi_wait {
    struct pollfd *fds;     /* may be NULL when nfds == 0 */
    size_t nfds;
    int64_t deadline;       /* CLOCK_MONOTONIC ns; -1 = no deadline */
    /* The call that waits, and whether it has had no effect yet, so that
       it may be abandoned now and made again from the start (then the
       blocker may park the caller instead of its OS thread). */
    weft_caller *caller;
    bool restartable;
} wasi_wait;

/* The blocker: waits until one of wait->fds is ready or the deadline has
   passed, and fills revents. nfds == 0 with deadline 0 means "yield".
   Returns the number of ready descriptors (0 on deadline), or -errno, or
   (restartable waits only) WASI_BLOCK_PARKED: the caller's agent parks
   until an fd is ready or the deadline passes, and the call must return
   at once with no effect (WASI_EPARKED); it is then made again. */
typedef int (*wasi_blocker)(struct weft_wasi *w, wasi_wait *wait);
#define WASI_BLOCK_PARKED (-0x10000)

/* How a host function was called through a module. */
typedef struct wasi_binding {
    struct weft_wasi *w;
    const struct wasi_func *fn;
    bool unstable;          /* through wasi_unstable (older layouts) */
} wasi_binding;

struct weft_wasi {
    pthread_mutex_t lock;   /* guards fds, nfds */
    wasi_fd **fds;          /* slot per guest fd; NULL = free */
    uint32_t nfds;          /* slots allocated */
    char **argv;            /* copied */
    uint32_t argc;
    size_t argv_bytes;      /* sum of strlen + 1 */
    char **env;             /* copied "K=V" */
    uint32_t envc;
    size_t env_bytes;
    wasi_blocker block;     /* wasi_block_default until a scheduler swaps it */
    void *block_env;        /* for the blocker that swapped it (a process) */
    /* A process may take over the clocks and random_get too (deterministic
       mode), with block_env: the time of a WASI clock in ns, or -1 for the
       host's; true when it filled the buffer. NULL: the host's. */
    int64_t (*clock_hook)(void *env, uint32_t wasi_clock);
    bool (*random_hook)(void *env, void *buf, size_t len);
    wasi_binding *bindings; /* 2 * wasi_func_count (preview1, unstable) */
    uint32_t net;           /* WEFT_WASI_NET_* (weft_wasi_config.net) */
    uint32_t lookups;       /* name lookups whose thread still runs (sock.c); under lock */
    pthread_cond_t lookups_done; /* signalled when `lookups` falls */
};

/* A host call in progress. `mem`/`size` are read once per call: memory
   never moves but can grow, and growth only makes more room. */
typedef struct wasi_call {
    struct weft_wasi *w;
    weft_caller *caller;
    uint8_t *mem;
    uint64_t size;
    bool unstable;
    weft_status status;     /* WEFT_OK, or WEFT_ERR_EXIT from proc_exit */
} wasi_call;

typedef uint32_t (*wasi_impl)(wasi_call *c, const weft_val *args);

/* One row of the function table. Params: 'i' i32, 'I' i64. */
typedef struct wasi_func {
    const char *name;
    const char *params;
    const char *results;   /* "i" or "" (proc_exit) */
    bool unstable;         /* also provided under wasi_unstable */
    wasi_impl impl;
} wasi_func;

/* The function table: X(name, params, results, in_wasi_unstable). Every
   registration and the `weft --help` list come from this one list. */
#define WASI_FUNCS(X)                                   \
    X(args_get, "ii", "i", true)                        \
    X(args_sizes_get, "ii", "i", true)                  \
    X(environ_get, "ii", "i", true)                     \
    X(environ_sizes_get, "ii", "i", true)               \
    X(clock_res_get, "ii", "i", true)                   \
    X(clock_time_get, "iIi", "i", true)                 \
    X(fd_advise, "iIIi", "i", true)                     \
    X(fd_allocate, "iII", "i", true)                    \
    X(fd_close, "i", "i", true)                         \
    X(fd_datasync, "i", "i", true)                      \
    X(fd_fdstat_get, "ii", "i", true)                   \
    X(fd_fdstat_set_flags, "ii", "i", true)             \
    X(fd_fdstat_set_rights, "iII", "i", true)           \
    X(fd_filestat_get, "ii", "i", true)                 \
    X(fd_filestat_set_size, "iI", "i", true)            \
    X(fd_filestat_set_times, "iIIi", "i", true)         \
    X(fd_pread, "iiiIi", "i", true)                     \
    X(fd_prestat_get, "ii", "i", true)                  \
    X(fd_prestat_dir_name, "iii", "i", true)            \
    X(fd_pwrite, "iiiIi", "i", true)                    \
    X(fd_read, "iiii", "i", true)                       \
    X(fd_readdir, "iiiIi", "i", true)                   \
    X(fd_renumber, "ii", "i", true)                     \
    X(fd_seek, "iIii", "i", true)                       \
    X(fd_sync, "i", "i", true)                          \
    X(fd_tell, "ii", "i", true)                         \
    X(fd_write, "iiii", "i", true)                      \
    X(path_create_directory, "iii", "i", true)          \
    X(path_filestat_get, "iiiii", "i", true)            \
    X(path_filestat_set_times, "iiiiIIi", "i", true)    \
    X(path_link, "iiiiiii", "i", true)                  \
    X(path_open, "iiiiiIIii", "i", true)                \
    X(path_readlink, "iiiiii", "i", true)               \
    X(path_remove_directory, "iii", "i", true)          \
    X(path_rename, "iiiiii", "i", true)                 \
    X(path_symlink, "iiiii", "i", true)                 \
    X(path_unlink_file, "iii", "i", true)               \
    X(poll_oneoff, "iiii", "i", true)                   \
    X(proc_exit, "i", "", true)                         \
    X(proc_raise, "i", "i", true)                       \
    X(random_get, "ii", "i", true)                      \
    X(sched_yield, "", "i", true)                       \
    X(sock_accept, "iii", "i", false)                   \
    X(sock_recv, "iiiiii", "i", true)                   \
    X(sock_send, "iiiii", "i", true)                    \
    X(sock_shutdown, "ii", "i", true)

#define WASI_DECLARE(name, p, r, u) \
    WASI_INTERNAL uint32_t wasi_##name(wasi_call *c, const weft_val *a);
WASI_FUNCS(WASI_DECLARE)
#undef WASI_DECLARE

/* Argument accessors: the engine has already checked the types. */
#define WASI_U32(a, i) ((uint32_t)(a)[i].of.i32)
#define WASI_U64(a, i) ((uint64_t)(a)[i].of.i64)

/* ---- ctx.c: fd table, errno mapping, guest memory ---- */

/* Fills `err` (if non-NULL) and returns `st`. */
WASI_INTERNAL weft_status wasi_fail(weft_error *err, weft_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* UTF-8 checks use base_utf8_valid (base/base.h), the runtime's own. */
/* Maps a host errno value to the WASI errno. */
WASI_INTERNAL wasi_errno wasi_errno_from_host(int err);
/* The WASI filetype of a host st_mode. */
WASI_INTERNAL uint8_t wasi_filetype_from_mode(unsigned mode);

/* Takes a reference to guest fd `fd`, checking that it holds every right in
   `need`. EBADF if the fd is not open, ENOTCAPABLE if a right is missing. */
WASI_INTERNAL wasi_errno wasi_fd_acquire(struct weft_wasi *w, uint32_t fd,
                                         uint64_t need, wasi_ref *out);
WASI_INTERNAL void wasi_fd_release(struct weft_wasi *w, wasi_ref *ref);
/* Makes an entry for host descriptor `host` (taken over: closed with the
   entry) and puts it in the lowest free slot. *out_fd gets the guest fd.
   `unshown`: inheriting rights fd_fdstat_get leaves out (wasi_fd).
   On failure the host descriptor is closed. */
WASI_INTERNAL wasi_errno wasi_fd_insert(struct weft_wasi *w, int host,
                                        uint8_t filetype, uint16_t flags,
                                        uint64_t base, uint64_t inheriting,
                                        uint64_t unshown, uint32_t *out_fd);
WASI_INTERNAL wasi_fd *wasi_fd_entry_new(int host, bool close_host,
                                         uint8_t filetype, uint16_t flags,
                                         uint64_t base, uint64_t inheriting);
WASI_INTERNAL void wasi_fd_entry_unref_locked(wasi_fd *e, wasi_fd **to_free);
WASI_INTERNAL void wasi_fd_entry_destroy(wasi_fd *e);

/* Bounds-checked pointer into guest memory: NULL when [ptr, ptr+len) is not
   inside memory (the caller answers EFAULT). */
static inline uint8_t *wasi_mem(const wasi_call *c, uint64_t ptr, uint64_t len) {
    if (!c->mem || ptr > c->size || len > c->size - ptr) return NULL;
    return c->mem + ptr;
}
/* Little-endian stores/loads at a checked address. */
static inline void wasi_st16(uint8_t *p, uint16_t v) { p[0] = (uint8_t)v; p[1] = (uint8_t)(v >> 8); }
static inline void wasi_st32(uint8_t *p, uint32_t v) {
    for (int i = 0; i < 4; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline void wasi_st64(uint8_t *p, uint64_t v) {
    for (int i = 0; i < 8; i++) p[i] = (uint8_t)(v >> (8 * i));
}
static inline uint16_t wasi_ld16(const uint8_t *p) { return (uint16_t)(p[0] | (p[1] << 8)); }
static inline uint32_t wasi_ld32(const uint8_t *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}
static inline uint64_t wasi_ld64(const uint8_t *p) {
    return (uint64_t)wasi_ld32(p) | (uint64_t)wasi_ld32(p + 4) << 32;
}
/* Stores a u32 / u64 result at guest address ptr; EFAULT if out of bounds. */
WASI_INTERNAL wasi_errno wasi_put32(wasi_call *c, uint32_t ptr, uint32_t v);
WASI_INTERNAL wasi_errno wasi_put64(wasi_call *c, uint32_t ptr, uint64_t v);

/* Turns the guest iovec array at (iovs, n) into host iovecs pointing into
   guest memory. *out is malloc'd (free it). EFAULT / EINVAL / ENOMEM. */
struct iovec;
WASI_INTERNAL wasi_errno wasi_iovecs(wasi_call *c, uint32_t iovs, uint32_t n,
                                     struct iovec **out, size_t *total);

/* Writes a filestat (preview1 64-byte or wasi_unstable 56-byte layout). */
struct stat;
WASI_INTERNAL wasi_errno wasi_put_filestat(wasi_call *c, uint32_t ptr,
                                           const struct stat *st);

/* Turns WASI (atim, mtim, fstflags) into utimensat's two timespecs
   (UTIME_NOW / UTIME_OMIT). EINVAL for unknown or contradictory flags. */
WASI_INTERNAL wasi_errno wasi_timespecs(uint64_t atim, uint64_t mtim,
                                        uint32_t fst, struct timespec ts[2]);

/* ---- fs.c: rights and host access ---- */

#define WASI_ACCESS_READ 0x1u
#define WASI_ACCESS_WRITE 0x2u
/* The rights whose calls need `access` (WASI_ACCESS_*) on the host
   descriptor: the one table of it is in fs.c (docs/wasi.md, "Rights"). */
WASI_INTERNAL uint64_t wasi_rights_needing(unsigned access);

/* ---- path.c: sandboxed resolution ---- */

/* The result of resolving a guest path: a directory `dirfd` inside the
   sandbox (owned: close with wasi_path_done) and a final component `name`
   (never containing '/', never empty; "." when the path names the directory
   itself). With follow, a final symlink has been followed (inside the
   sandbox), so `name` is not a symlink at the time of resolution; callers
   still use the NOFOLLOW form of every *at call so a symlink swapped in
   afterwards is never followed by the host. */
typedef struct wasi_path {
    int dirfd;
    char *name;
    bool trailing_slash;    /* a '/' came after the final component */
    uint8_t last;           /* WASI_LAST_*: what the final component was */
} wasi_path;
enum { WASI_LAST_NORM, WASI_LAST_DOT, WASI_LAST_DOTDOT };

/* How wasi_path_resolve treats the final component (`how`): */
#define WASI_RESOLVE_FOLLOW 0x1u        /* a symlink there is followed */
#define WASI_RESOLVE_SLASH_FOLLOWS 0x2u /* ... also when a '/' comes after it */
#define WASI_RESOLVE_SLASH_STOPS 0x4u   /* ... but not when a '/' comes after it */
/* A lookup (open, stat, readlink, a link's source) passes
   WASI_RESOLVE_SLASH_FOLLOWS, plus FOLLOW when the guest asked for it; a
   call that creates, removes or renames the name passes 0: then the final
   component is never followed, as the kernel never follows it. path_open
   with O_CREAT follows (without O_EXCL) but never through a slash. */
#define WASI_RESOLVE_LOOKUP(follow) \
    (WASI_RESOLVE_SLASH_FOLLOWS | ((follow) ? WASI_RESOLVE_FOLLOW : 0u))
#define WASI_RESOLVE_CREATE 0u

/* Resolves `len` bytes of guest path at `ptr` against directory fd `ref`.
   Returns EFAULT, EINVAL (NUL byte), ENOENT (empty), WASI_ESCAPE (absolute,
   `..` above the root, symlink leaving it), ELOOP (more than 40 symlinks),
   ENOTDIR, ENAMETOOLONG, or the host error of an intermediate step. */
WASI_INTERNAL wasi_errno wasi_path_resolve(wasi_call *c, const wasi_ref *ref,
                                           uint32_t ptr, uint32_t len,
                                           unsigned how, wasi_path *out);
WASI_INTERNAL void wasi_path_done(wasi_path *p);

/* ---- block.c ---- */

/* Every blocking wait of the WASI layer goes through here (fd_read on a
   pipe or socket, sock_accept, sock_recv, poll_oneoff, sched_yield), so a
   scheduler can take it over (w->block). */
WASI_INTERNAL int wasi_block_on(struct weft_wasi *w, wasi_wait *wait);
WASI_INTERNAL int wasi_block_default(struct weft_wasi *w, wasi_wait *wait);
/* Waits until `host` is ready for `events` (POLLIN / POLLOUT), unless the
   fd is non-blocking (then returns EAGAIN when it is not ready now).
   `restartable`: call `c` has had no effect yet; the wait may then answer
   WASI_EPARKED, which the call returns at once, undoing nothing. */
WASI_INTERNAL wasi_errno wasi_wait_ready(wasi_call *c, int host, short events,
                                         bool nonblock, bool restartable);
/* The time of the first attempt of call `c` (CLOCK_MONOTONIC ns): now, or
   when a restarted call was first made, so its relative timeouts hold. */
WASI_INTERNAL int64_t wasi_call_start(wasi_call *c);
/* The time of WASI clock `id` as the guest sees it (w->clock_hook or the
   host's clock), ns; -errno for a clock the host lacks. */
WASI_INTERNAL int64_t wasi_clock_now(struct weft_wasi *w, uint32_t id);
/* The time left until the monotonic `deadline` (ns; negative: none, then
   NULL) as a timespec in *ts, for ppoll and friends. */
WASI_INTERNAL struct timespec *wasi_time_left(int64_t deadline, struct timespec *ts);
/* What a blocking wait is for, in words ("reading host fd 3", "sleeping
   (poll_oneoff)"), for weft_sched_dump and the SIGQUIT report. */
WASI_INTERNAL void wasi_wait_describe(const wasi_wait *wait, char *buf, size_t len);
/* Host clock for a WASI clock id, or -1 if the id is unknown. */
WASI_INTERNAL int wasi_host_clock(uint32_t id);

/* ---- sock.c: the one socket layer ----

   preview1's sock_* and --listen, WASI 0.2's wasi:sockets (src/wasip2/
   sockets*.c) and anything else of weft's that speaks TCP or UDP for a
   guest use these. Every host socket made here is non-blocking and
   close-on-exec; nothing here waits (a caller that must wait does it
   through wasi_block_on / wasi_wait_ready, so a scheduler can park it);
   nothing raises SIGPIPE. Failures are preview1 errnos (the host's errno
   mapped one to one by wasi_errno_from_host), which the WASI 0.2 layer
   maps on to its error-code. */

/* Opens a listening TCP socket on "HOST:PORT" ("[::1]:8080" for IPv6). */
WASI_INTERNAL weft_status wasi_listen_open(const char *addr, int *out,
                                           weft_error *err);

/* A socket address as the host's calls take it. */
typedef struct wasi_sockaddr {
    struct sockaddr_storage ss;
    socklen_t len;
} wasi_sockaddr;

/* Whether context `w` may use address `a` for a bind, connect, listen,
   accept or send: only with WEFT_WASI_NET_INHERIT (the guest otherwise
   reaches no address; wasmtime's default, whose answer is access-denied). */
WASI_INTERNAL bool wasi_net_permits(const struct weft_wasi *w, const wasi_sockaddr *a);
/* A new socket of `family` (AF_INET, AF_INET6) and `type` (SOCK_STREAM,
   SOCK_DGRAM) in *out. An IPv6 socket is IPV6_V6ONLY (wasi:sockets:
   "enabled by default and can't be configured otherwise"). EAFNOSUPPORT,
   EMFILE, ENFILE, ENOBUFS, ENOMEM. */
WASI_INTERNAL wasi_errno wasi_net_open(int family, int type, int *out);
/* bind(2); a stream socket gets SO_REUSEADDR first, so a port in
   TIME_WAIT binds again (tcp.wit's implementors note). */
WASI_INTERNAL wasi_errno wasi_net_bind(int s, const wasi_sockaddr *a);
WASI_INTERNAL wasi_errno wasi_net_listen(int s, int backlog);
/* Starts connect(2): 0 when connected at once, WASI_EINPROGRESS when the
   handshake goes on (then wasi_net_connect_status, or wait for POLLOUT),
   else the failure. `a` NULL dissolves a datagram socket's association
   (connect to AF_UNSPEC). */
WASI_INTERNAL wasi_errno wasi_net_connect(int s, const wasi_sockaddr *a);
/* Where a started connect is, looking without waiting: WASI_EAGAIN while
   in progress, 0 once connected, else why it failed (SO_ERROR). */
WASI_INTERNAL wasi_errno wasi_net_connect_status(int s);
/* accept4(2) without waiting: the new (non-blocking) socket in *out and
   its peer in *peer (may be NULL). WASI_EAGAIN when nothing is pending. */
WASI_INTERNAL wasi_errno wasi_net_accept(int s, int *out, wasi_sockaddr *peer);
/* getsockname(2) (peer false) or getpeername(2) (peer true). */
WASI_INTERNAL wasi_errno wasi_net_name(int s, bool peer, wasi_sockaddr *out);
/* An int socket option (getsockopt / setsockopt). */
WASI_INTERNAL wasi_errno wasi_net_getopt(int s, int level, int name, int *v);
WASI_INTERNAL wasi_errno wasi_net_setopt(int s, int level, int name, int v);
/* One datagram or stream send without waiting: to `to` (NULL: the
   connected peer); *sent bytes taken. WASI_EAGAIN when it would wait. */
WASI_INTERNAL wasi_errno wasi_net_send(int s, const void *buf, size_t len,
                                       const wasi_sockaddr *to, size_t *sent);
/* One receive without waiting into buf (cap bytes): *got bytes, the
   sender in *from (may be NULL), *truncated when a datagram was longer
   than cap (the rest is lost, as recvfrom(2)). WASI_EAGAIN when nothing
   is there. */
WASI_INTERNAL wasi_errno wasi_net_recv(int s, void *buf, size_t cap, wasi_sockaddr *from,
                                       size_t *got, bool *truncated);

/* Name lookup (getaddrinfo(3), which may wait on DNS): started on a
   thread of its own, so the guest's agent never waits for it; its
   descriptor (wasi_net_lookup_fd) turns readable when the answer is
   there, for a pollable or a wasi_wait. A numeric address is answered at
   once. At most WASI_NET_LOOKUPS_MAX lookups of one context run at once
   (a guest cannot make threads without bound); weft_wasi_free waits for
   those still running. */
#define WASI_NET_LOOKUPS_MAX 16
typedef struct wasi_lookup wasi_lookup;
/* Starts resolving host `name` (NUL-terminated) for context `w`. ENOMEM,
   EAGAIN (WASI_NET_LOOKUPS_MAX running, or no thread to be had). */
WASI_INTERNAL wasi_errno wasi_net_lookup_start(struct weft_wasi *w, const char *name,
                                               wasi_lookup **out);
/* Readable once the answer is there. */
WASI_INTERNAL int wasi_net_lookup_fd(const wasi_lookup *l);
/* The answer without waiting: WASI_EAGAIN while running; else 0 with the
   addresses in *addrs (n of them, owned by l, in getaddrinfo's order, one
   per address) or the failure as getaddrinfo's EAI_* code in *gai. */
WASI_INTERNAL wasi_errno wasi_net_lookup_result(wasi_lookup *l, const wasi_sockaddr **addrs,
                                                size_t *n, int *gai);
/* Gives up the lookup; one still running frees itself when done. */
WASI_INTERNAL void wasi_net_lookup_free(wasi_lookup *l);
/* Waits until no lookup of `w` runs (weft_wasi_free). */
WASI_INTERNAL void wasi_net_lookups_wait(struct weft_wasi *w);

#endif
