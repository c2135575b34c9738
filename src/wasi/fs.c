/*
 * fs.c — the path_* functions. Each one checks the directory fd's rights,
 * resolves the guest path inside the sandbox (path.c) and applies the
 * host call in its no-follow *at form on the resolved (dir, name).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "wasi.h"

/* Acquires fd `fd` with `need` and resolves the path at (ptr, len). */
static wasi_errno wasi_open_path(wasi_call *c, uint32_t fd, uint64_t need,
                                 uint32_t ptr, uint32_t len, bool follow,
                                 wasi_ref *ref, wasi_path *path) {
    path->dirfd = -1;
    path->name = NULL;
    wasi_errno r = wasi_fd_acquire(c->w, fd, need, ref);
    if (r) return r;
    r = wasi_path_resolve(c, ref, ptr, len, follow, path);
    if (r) wasi_fd_release(c->w, ref);
    return r;
}

static void wasi_close_path(wasi_call *c, wasi_ref *ref, wasi_path *path) {
    wasi_path_done(path);
    wasi_fd_release(c->w, ref);
}

/* A path with a trailing slash names a directory: ENOTDIR otherwise. */
static wasi_errno wasi_check_slash(const wasi_path *p) {
    if (!p->trailing_slash) return WASI_ESUCCESS;
    struct stat st;
    if (fstatat(p->dirfd, p->name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return wasi_errno_from_host(errno);
    return S_ISDIR(st.st_mode) ? WASI_ESUCCESS : WASI_ENOTDIR;
}

uint32_t wasi_path_create_directory(wasi_call *c, const weft_val *a) {
    wasi_ref ref;
    wasi_path p;
    wasi_errno r = wasi_open_path(c, WASI_U32(a, 0), WASI_RIGHT_PATH_CREATE_DIRECTORY,
                                  WASI_U32(a, 1), WASI_U32(a, 2), false, &ref, &p);
    if (r) return r;
    if (mkdirat(p.dirfd, p.name, 0777) != 0) r = wasi_errno_from_host(errno);
    wasi_close_path(c, &ref, &p);
    return r;
}

uint32_t wasi_path_filestat_get(wasi_call *c, const weft_val *a) {
    uint32_t flags = WASI_U32(a, 1), out = WASI_U32(a, 4);
    wasi_ref ref;
    wasi_path p;
    wasi_errno r = wasi_open_path(c, WASI_U32(a, 0), WASI_RIGHT_PATH_FILESTAT_GET,
                                  WASI_U32(a, 2), WASI_U32(a, 3),
                                  flags & WASI_LOOKUP_SYMLINK_FOLLOW, &ref, &p);
    if (r) return r;
    struct stat st;
    if (fstatat(p.dirfd, p.name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        r = wasi_errno_from_host(errno);
    else if (p.trailing_slash && !S_ISDIR(st.st_mode))
        r = WASI_ENOTDIR;
    else
        r = wasi_put_filestat(c, out, &st);
    wasi_close_path(c, &ref, &p);
    return r;
}

uint32_t wasi_path_filestat_set_times(wasi_call *c, const weft_val *a) {
    uint32_t flags = WASI_U32(a, 1);
    struct timespec ts[2];
    wasi_errno r = wasi_timespecs(WASI_U64(a, 4), WASI_U64(a, 5), WASI_U32(a, 6), ts);
    if (r) return r;
    wasi_ref ref;
    wasi_path p;
    r = wasi_open_path(c, WASI_U32(a, 0), WASI_RIGHT_PATH_FILESTAT_SET_TIMES,
                       WASI_U32(a, 2), WASI_U32(a, 3),
                       flags & WASI_LOOKUP_SYMLINK_FOLLOW, &ref, &p);
    if (r) return r;
    if (!(r = wasi_check_slash(&p)) &&
        utimensat(p.dirfd, p.name, ts, AT_SYMLINK_NOFOLLOW) != 0)
        r = wasi_errno_from_host(errno);
    wasi_close_path(c, &ref, &p);
    return r;
}

uint32_t wasi_path_link(wasi_call *c, const weft_val *a) {
    uint32_t oflags = WASI_U32(a, 1);
    wasi_ref oref, nref;
    wasi_path op, np;
    wasi_errno r = wasi_open_path(c, WASI_U32(a, 0), WASI_RIGHT_PATH_LINK_SOURCE,
                                  WASI_U32(a, 2), WASI_U32(a, 3),
                                  oflags & WASI_LOOKUP_SYMLINK_FOLLOW, &oref, &op);
    if (r) return r;
    r = wasi_open_path(c, WASI_U32(a, 4), WASI_RIGHT_PATH_LINK_TARGET, WASI_U32(a, 5),
                       WASI_U32(a, 6), false, &nref, &np);
    if (r) {
        wasi_close_path(c, &oref, &op);
        return r;
    }
    if (op.trailing_slash || np.trailing_slash) {
        /* Hard links to directories do not exist. */
        struct stat st;
        r = fstatat(op.dirfd, op.name, &st, AT_SYMLINK_NOFOLLOW) != 0
                ? wasi_errno_from_host(errno)
                : S_ISDIR(st.st_mode) ? WASI_EPERM : WASI_ENOTDIR;
    } else if (linkat(op.dirfd, op.name, np.dirfd, np.name, 0) != 0) {
        r = wasi_errno_from_host(errno);
    }
    wasi_close_path(c, &nref, &np);
    wasi_close_path(c, &oref, &op);
    return r;
}

uint32_t wasi_path_open(wasi_call *c, const weft_val *a) {
    uint32_t fd = WASI_U32(a, 0), dirflags = WASI_U32(a, 1), path = WASI_U32(a, 2),
             plen = WASI_U32(a, 3), oflags = WASI_U32(a, 4), fdflags = WASI_U32(a, 7),
             out = WASI_U32(a, 8);
    uint64_t base = WASI_U64(a, 5), inh = WASI_U64(a, 6);
    if ((oflags & ~0xfu) || (fdflags & ~WASI_FDFLAGS_ALL)) return WASI_EINVAL;
    uint64_t need = WASI_RIGHT_PATH_OPEN;
    if (oflags & WASI_OFLAG_CREAT) need |= WASI_RIGHT_PATH_CREATE_FILE;
    if (oflags & WASI_OFLAG_TRUNC) need |= WASI_RIGHT_PATH_FILESTAT_SET_SIZE;
    wasi_ref ref;
    wasi_errno r = wasi_fd_acquire(c->w, fd, need, &ref);
    if (r) return r;
    /* Rights that apply to files and directories must be inheritable from
       the directory; bits that apply to neither (socket rights, unknown
       bits, as in a request for ~0) are dropped. */
    const uint64_t applicable = WASI_RIGHTS_DIRECTORY | WASI_RIGHTS_REGULAR;
    if (((base | inh) & applicable) & ~ref.inheriting) {
        wasi_fd_release(c->w, &ref);
        return WASI_ENOTCAPABLE;
    }
    if (!wasi_mem(c, out, 4)) {
        wasi_fd_release(c->w, &ref);
        return WASI_EFAULT;
    }
    bool excl_create = (oflags & WASI_OFLAG_CREAT) && (oflags & WASI_OFLAG_EXCL);
    bool follow = (dirflags & WASI_LOOKUP_SYMLINK_FOLLOW) && !excl_create;
    wasi_path p;
    r = wasi_path_resolve(c, &ref, path, plen, follow, &p);
    if (r) {
        wasi_fd_release(c->w, &ref);
        return r;
    }
    int flags = O_CLOEXEC | O_NOFOLLOW | O_NOCTTY;
    bool rd = base & (WASI_RIGHT_FD_READ | WASI_RIGHT_FD_READDIR);
    bool wr = base & (WASI_RIGHT_FD_DATASYNC | WASI_RIGHT_FD_WRITE |
                      WASI_RIGHT_FD_ALLOCATE | WASI_RIGHT_FD_FILESTAT_SET_SIZE);
    if ((oflags & WASI_OFLAG_DIRECTORY) || p.trailing_slash) {
        flags |= O_DIRECTORY;
        wr = false; /* a directory is never opened for writing */
    }
    flags |= (rd && wr) ? O_RDWR : wr ? O_WRONLY : O_RDONLY;
    if (oflags & WASI_OFLAG_CREAT) flags |= O_CREAT;
    if (oflags & WASI_OFLAG_EXCL) flags |= O_EXCL;
    if (oflags & WASI_OFLAG_TRUNC) flags |= O_TRUNC;
    if (fdflags & WASI_FDFLAG_APPEND) flags |= O_APPEND;
    if (fdflags & WASI_FDFLAG_DSYNC) flags |= O_DSYNC;
    if (fdflags & WASI_FDFLAG_SYNC) flags |= O_SYNC;
    if (fdflags & WASI_FDFLAG_RSYNC) flags |= O_RSYNC;
    int h = openat(p.dirfd, p.name, flags, 0666);
    if (h < 0) {
        r = wasi_errno_from_host(errno);
        goto done;
    }
    struct stat st;
    if (fstat(h, &st) != 0) {
        r = wasi_errno_from_host(errno);
        close(h);
        goto done;
    }
    uint8_t type = wasi_filetype_from_mode(st.st_mode);
    uint64_t type_rights = type == WASI_FILETYPE_DIRECTORY ? WASI_RIGHTS_DIRECTORY
                           : type == WASI_FILETYPE_REGULAR_FILE ? WASI_RIGHTS_REGULAR
                           : type == WASI_FILETYPE_SOCKET_STREAM ? WASI_RIGHTS_SOCKET
                                                                 : WASI_RIGHTS_STREAM;
    uint64_t new_inh = type == WASI_FILETYPE_DIRECTORY ? (inh & ref.inheriting) : 0;
    uint32_t newfd;
    r = wasi_fd_insert(c->w, h, type, (uint16_t)fdflags, base & type_rights, new_inh,
                       &newfd);
    if (!r) r = wasi_put32(c, out, newfd);
done:
    wasi_close_path(c, &ref, &p);
    return r;
}

uint32_t wasi_path_readlink(wasi_call *c, const weft_val *a) {
    uint32_t buf = WASI_U32(a, 3), blen = WASI_U32(a, 4), out = WASI_U32(a, 5);
    uint8_t *dst = wasi_mem(c, buf, blen);
    if (!dst || !wasi_mem(c, out, 4)) return WASI_EFAULT;
    wasi_ref ref;
    wasi_path p;
    wasi_errno r = wasi_open_path(c, WASI_U32(a, 0), WASI_RIGHT_PATH_READLINK,
                                  WASI_U32(a, 1), WASI_U32(a, 2), false, &ref, &p);
    if (r) return r;
    char *tmp = malloc(PATH_MAX);
    ssize_t n = tmp ? readlinkat(p.dirfd, p.name, tmp, PATH_MAX) : -1;
    if (!tmp) {
        r = WASI_ENOMEM;
    } else if (n < 0) {
        r = wasi_errno_from_host(errno);
    } else {
        uint32_t m = (uint64_t)n < blen ? (uint32_t)n : blen;
        memcpy(dst, tmp, m);
        r = wasi_put32(c, out, m);
    }
    free(tmp);
    wasi_close_path(c, &ref, &p);
    return r;
}

uint32_t wasi_path_remove_directory(wasi_call *c, const weft_val *a) {
    wasi_ref ref;
    wasi_path p;
    wasi_errno r = wasi_open_path(c, WASI_U32(a, 0), WASI_RIGHT_PATH_REMOVE_DIRECTORY,
                                  WASI_U32(a, 1), WASI_U32(a, 2), false, &ref, &p);
    if (r) return r;
    if (unlinkat(p.dirfd, p.name, AT_REMOVEDIR) != 0) r = wasi_errno_from_host(errno);
    wasi_close_path(c, &ref, &p);
    return r;
}

uint32_t wasi_path_rename(wasi_call *c, const weft_val *a) {
    wasi_ref oref, nref;
    wasi_path op, np;
    wasi_errno r = wasi_open_path(c, WASI_U32(a, 0), WASI_RIGHT_PATH_RENAME_SOURCE,
                                  WASI_U32(a, 1), WASI_U32(a, 2), false, &oref, &op);
    if (r) return r;
    r = wasi_open_path(c, WASI_U32(a, 3), WASI_RIGHT_PATH_RENAME_TARGET, WASI_U32(a, 4),
                       WASI_U32(a, 5), false, &nref, &np);
    if (r) {
        wasi_close_path(c, &oref, &op);
        return r;
    }
    if (op.trailing_slash || np.trailing_slash) {
        struct stat st;
        if (fstatat(op.dirfd, op.name, &st, AT_SYMLINK_NOFOLLOW) != 0)
            r = wasi_errno_from_host(errno);
        else if (!S_ISDIR(st.st_mode))
            r = WASI_ENOTDIR;
    }
    if (!r && renameat(op.dirfd, op.name, np.dirfd, np.name) != 0)
        r = wasi_errno_from_host(errno);
    wasi_close_path(c, &nref, &np);
    wasi_close_path(c, &oref, &op);
    return r;
}

uint32_t wasi_path_symlink(wasi_call *c, const weft_val *a) {
    uint32_t old = WASI_U32(a, 0), olen = WASI_U32(a, 1);
    const uint8_t *src = wasi_mem(c, old, olen);
    if (!src) return WASI_EFAULT;
    if (olen == 0) return WASI_ENOENT;
    if (memchr(src, 0, olen)) return WASI_EINVAL;
    /* A link to an absolute path could never be followed inside the
       sandbox, and host programs would follow it outside: refused. */
    if (src[0] == '/') return WASI_ESCAPE;
    if (olen >= PATH_MAX) return WASI_ENAMETOOLONG;
    char *target = malloc((size_t)olen + 1);
    if (!target) return WASI_ENOMEM;
    memcpy(target, src, olen);
    target[olen] = '\0';
    wasi_ref ref;
    wasi_path p;
    wasi_errno r = wasi_open_path(c, WASI_U32(a, 2), WASI_RIGHT_PATH_SYMLINK,
                                  WASI_U32(a, 3), WASI_U32(a, 4), false, &ref, &p);
    if (!r) {
        if (symlinkat(target, p.dirfd, p.name) != 0) r = wasi_errno_from_host(errno);
        wasi_close_path(c, &ref, &p);
    }
    free(target);
    return r;
}

uint32_t wasi_path_unlink_file(wasi_call *c, const weft_val *a) {
    wasi_ref ref;
    wasi_path p;
    wasi_errno r = wasi_open_path(c, WASI_U32(a, 0), WASI_RIGHT_PATH_UNLINK_FILE,
                                  WASI_U32(a, 1), WASI_U32(a, 2), false, &ref, &p);
    if (r) return r;
    if (p.trailing_slash) {
        struct stat st;
        r = fstatat(p.dirfd, p.name, &st, AT_SYMLINK_NOFOLLOW) != 0
                ? wasi_errno_from_host(errno)
                : S_ISDIR(st.st_mode) ? WASI_EISDIR : WASI_ENOTDIR;
    } else if (unlinkat(p.dirfd, p.name, 0) != 0) {
        r = wasi_errno_from_host(errno);
    }
    wasi_close_path(c, &ref, &p);
    return r;
}
