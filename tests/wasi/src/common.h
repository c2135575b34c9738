/* Shared by the WASI test guests: errno names, raw imports for calls the
   libc wrappers cannot make (bad pointers, NUL bytes, proc_raise), and
   small helpers. Every check prints "label: RESULT" so expected outputs
   read as a list of facts. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wasi/api.h>

#define DIRFD 3 /* the first --dir preopen */
#define BAD_PTR 0xfffffff0u

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

static inline const char *en(int e) {
    static char buf[24];
    if (e >= 0 && e < (int)(sizeof errnames / sizeof errnames[0])) return errnames[e];
    snprintf(buf, sizeof buf, "errno %d", e);
    return buf;
}

/* Unbuffered stdout: printf output and raw fd_write calls stay in order. */
__attribute__((constructor)) static void unbuffer_stdout(void) { setvbuf(stdout, NULL, _IONBF, 0); }

#define T(label, expr) printf("%s: %s\n", label, en(expr))
#define SAY(...) printf(__VA_ARGS__)

#define RAW(name) \
    __attribute__((import_module("wasi_snapshot_preview1"), import_name(#name)))

RAW(fd_write) int32_t raw_fd_write(int32_t fd, int32_t iovs, int32_t n, int32_t out);
RAW(fd_read) int32_t raw_fd_read(int32_t fd, int32_t iovs, int32_t n, int32_t out);
RAW(path_open) int32_t raw_path_open(int32_t fd, int32_t dirflags, int32_t path, int32_t len,
                                     int32_t oflags, int64_t base, int64_t inh,
                                     int32_t fdflags, int32_t out);
RAW(proc_raise) int32_t raw_proc_raise(int32_t sig);

#define RIGHTS_ALL ((__wasi_rights_t)0x3fffffff)
/* All rights but those that need a writable host descriptor (fd_write,
   fd_allocate, fd_filestat_set_size): a directory asked for with any of
   them fails with EISDIR, as open(2) of a directory for writing does. */
#define RIGHTS_DIR (RIGHTS_ALL & ~(__wasi_rights_t)(__WASI_RIGHTS_FD_WRITE | __WASI_RIGHTS_FD_ALLOCATE | \
                                                   __WASI_RIGHTS_FD_FILESTAT_SET_SIZE))
#define R_READ (__WASI_RIGHTS_FD_READ | __WASI_RIGHTS_FD_SEEK | __WASI_RIGHTS_FD_TELL | \
                __WASI_RIGHTS_FD_FILESTAT_GET)
#define R_WRITE (__WASI_RIGHTS_FD_WRITE | __WASI_RIGHTS_FD_SEEK | __WASI_RIGHTS_FD_TELL | \
                 __WASI_RIGHTS_FD_FILESTAT_GET)

/* Opens `path` under the preopen; on failure prints why and exits 99. */
static inline __wasi_fd_t xopen(const char *path, __wasi_oflags_t of, __wasi_rights_t r,
                                __wasi_fdflags_t ff) {
    __wasi_fd_t fd;
    __wasi_errno_t e = __wasi_path_open(DIRFD, __WASI_LOOKUPFLAGS_SYMLINK_FOLLOW, path, of,
                                        r, r, ff, &fd);
    if (e) {
        printf("xopen %s: %s\n", path, en(e));
        exit(99);
    }
    return fd;
}

/* Opens directory `path` under the preopen with RIGHTS_DIR (inheriting
   every right); on failure prints why and exits 99. */
static inline __wasi_fd_t xopendir(const char *path) {
    __wasi_fd_t fd;
    __wasi_errno_t e = __wasi_path_open(DIRFD, __WASI_LOOKUPFLAGS_SYMLINK_FOLLOW, path,
                                        __WASI_OFLAGS_DIRECTORY, RIGHTS_DIR, RIGHTS_ALL, 0, &fd);
    if (e) {
        printf("xopendir %s: %s\n", path, en(e));
        exit(99);
    }
    return fd;
}

static inline __wasi_errno_t wstr(__wasi_fd_t fd, const char *s) {
    __wasi_ciovec_t v = {(const uint8_t *)s, strlen(s)};
    __wasi_size_t n;
    return __wasi_fd_write(fd, &v, 1, &n);
}

/* Reads up to cap-1 bytes from fd at its offset; NUL-terminates. */
static inline __wasi_errno_t rstr(__wasi_fd_t fd, char *buf, size_t cap) {
    __wasi_iovec_t v = {(uint8_t *)buf, cap - 1};
    __wasi_size_t n = 0;
    __wasi_errno_t e = __wasi_fd_read(fd, &v, 1, &n);
    buf[e ? 0 : n] = '\0';
    return e;
}
