/*
 * fs.c — the path_* functions. Each one checks the directory fd's rights,
 * resolves the guest path inside the sandbox (path.c) and applies the
 * host call in its no-follow *at form on the resolved (dir, name).
 *
 * Errno exactness: every call answers what the Linux system call would
 * answer for the same path from the same directory (the sandbox's own
 * refusals aside), checked case by case against the kernel by
 * tests/wasidiff. Since the kernel only ever sees a plain name, the rules
 * it applies to a final "." or "..", to a slash after the final
 * component, and the order of its checks, are applied here, each citing
 * the kernel function (fs/namei.c) that makes them.
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

/* ---- Rights and host access ---- */

/* The one table of which rights need which access to the host descriptor
   (docs/wasi.md, "Rights"): a right needs read (write) access iff the Linux
   call it grants fails on a descriptor opened without it: read(2) is EBADF
   on O_WRONLY; write(2) and fallocate(2) are EBADF and ftruncate(2) EINVAL
   on O_RDONLY. Every other right's call works on any descriptor
   (fdatasync, fsync, getdents on a directory, lseek, fstat, futimens,
   fadvise) and needs nothing; tests/wasidiff checks each row on the
   kernel. path_open opens with the access its base rights need, so a
   directory asked for with one of the write rights fails with EISDIR, as
   on Linux; stdio descriptors (ctx.c) get no right that needs an access
   they lack. */
static const struct {
    uint64_t right;
    unsigned access;
} wasi_rights_access_table[] = {
    {WASI_RIGHT_FD_READ, WASI_ACCESS_READ},
    {WASI_RIGHT_FD_WRITE, WASI_ACCESS_WRITE},
    {WASI_RIGHT_FD_ALLOCATE, WASI_ACCESS_WRITE},
    {WASI_RIGHT_FD_FILESTAT_SET_SIZE, WASI_ACCESS_WRITE},
};

uint64_t wasi_rights_needing(unsigned access) {
    uint64_t m = 0;
    for (size_t i = 0; i < sizeof wasi_rights_access_table / sizeof *wasi_rights_access_table; i++)
        if (wasi_rights_access_table[i].access & access) m |= wasi_rights_access_table[i].right;
    return m;
}

/* O_RDONLY, O_WRONLY or O_RDWR for a set of base rights (O_RDONLY when
   they need neither: a descriptor has some mode). */
static int wasi_open_mode(uint64_t base) {
    bool rd = base & wasi_rights_needing(WASI_ACCESS_READ);
    bool wr = base & wasi_rights_needing(WASI_ACCESS_WRITE);
    return rd && wr ? O_RDWR : wr ? O_WRONLY : O_RDONLY;
}

/* ---- Resolution and the kernel's checks on final components ---- */

/* Acquires directory fd `fd` for a path of `len` bytes, checking it holds
   `need`. The kernel's order: an empty path is ENOENT and a path relative
   to anything but a directory ENOTDIR (as wasmtime answers too); only then
   does a missing right give ENOTCAPABLE, before anything is looked up. */
static wasi_errno wasi_acquire_dir(wasi_call *c, uint32_t fd, uint64_t need,
                                   uint32_t len, wasi_ref *ref) {
    wasi_errno r = wasi_fd_acquire(c->w, fd, 0, ref);
    if (r) return r;
    if (len == 0) r = WASI_ENOENT;
    else if (ref->filetype != WASI_FILETYPE_DIRECTORY) r = WASI_ENOTDIR;
    else if ((ref->base & need) != need) r = WASI_ENOTCAPABLE;
    if (r) wasi_fd_release(c->w, ref);
    return r;
}

/* Acquires fd `fd` with `need` and resolves the path at (ptr, len); `how`
   as for wasi_path_resolve. */
static wasi_errno wasi_open_path(wasi_call *c, uint32_t fd, uint64_t need,
                                 uint32_t ptr, uint32_t len, unsigned how,
                                 wasi_ref *ref, wasi_path *path) {
    path->dirfd = -1;
    path->name = NULL;
    wasi_errno r = wasi_acquire_dir(c, fd, need, len, ref);
    if (r) return r;
    r = wasi_path_resolve(c, ref, ptr, len, how, path);
    if (r) wasi_fd_release(c->w, ref);
    return r;
}

static void wasi_close_path(wasi_call *c, wasi_ref *ref, wasi_path *path) {
    wasi_path_done(path);
    wasi_fd_release(c->w, ref);
}

/* A looked-up path with a slash after its final component names a
   directory (the lookup followed it): ENOTDIR otherwise. */
static wasi_errno wasi_check_slash(const wasi_path *p) {
    if (!p->trailing_slash) return WASI_ESUCCESS;
    struct stat st;
    if (fstatat(p->dirfd, p->name, &st, AT_SYMLINK_NOFOLLOW) != 0)
        return wasi_errno_from_host(errno);
    return S_ISDIR(st.st_mode) ? WASI_ESUCCESS : WASI_ENOTDIR;
}

/* The kernel's checks on a name to be made by path_link and path_symlink
   (filename_create): a final "." or ".." exists (EEXIST); so does any
   existing name, a symlink not followed (EEXIST); a missing name with a
   slash after it is ENOENT, since only a directory could be meant. */
static wasi_errno wasi_check_create(const wasi_path *p) {
    if (p->last != WASI_LAST_NORM) return WASI_EEXIST;
    struct stat st;
    if (fstatat(p->dirfd, p->name, &st, AT_SYMLINK_NOFOLLOW) == 0) return WASI_EEXIST;
    if (errno != ENOENT) return wasi_errno_from_host(errno);
    return p->trailing_slash ? WASI_ENOENT : WASI_ESUCCESS;
}

uint32_t wasi_path_create_directory(wasi_call *c, const weft_val *a) {
    wasi_ref ref;
    wasi_path p;
    /* A slash after the name is fine for mkdir; the name is never
       followed ("dangling/" exists: EEXIST); "." and ".." exist. */
    wasi_errno r = wasi_open_path(c, WASI_U32(a, 0), WASI_RIGHT_PATH_CREATE_DIRECTORY,
                                  WASI_U32(a, 1), WASI_U32(a, 2), WASI_RESOLVE_CREATE, &ref, &p);
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
                                  WASI_RESOLVE_LOOKUP(flags & WASI_LOOKUP_SYMLINK_FOLLOW), &ref, &p);
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
                       WASI_RESOLVE_LOOKUP(flags & WASI_LOOKUP_SYMLINK_FOLLOW), &ref, &p);
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
    /* The kernel's order (do_linkat): the source is looked up whole
       (missing: ENOENT; a slash after a non-directory: ENOTDIR), then the
       new name is checked as any name to be made, and only then is a
       directory source refused (vfs_link: EPERM). */
    wasi_errno r = wasi_open_path(c, WASI_U32(a, 0), WASI_RIGHT_PATH_LINK_SOURCE,
                                  WASI_U32(a, 2), WASI_U32(a, 3),
                                  WASI_RESOLVE_LOOKUP(oflags & WASI_LOOKUP_SYMLINK_FOLLOW),
                                  &oref, &op);
    if (r) return r;
    struct stat st;
    if (fstatat(op.dirfd, op.name, &st, AT_SYMLINK_NOFOLLOW) != 0) r = wasi_errno_from_host(errno);
    else if (op.trailing_slash && !S_ISDIR(st.st_mode)) r = WASI_ENOTDIR;
    if (r) {
        wasi_close_path(c, &oref, &op);
        return r;
    }
    r = wasi_open_path(c, WASI_U32(a, 4), WASI_RIGHT_PATH_LINK_TARGET, WASI_U32(a, 5),
                       WASI_U32(a, 6), WASI_RESOLVE_CREATE, &nref, &np);
    if (r) {
        wasi_close_path(c, &oref, &op);
        return r;
    }
    r = wasi_check_create(&np);
    if (!r && S_ISDIR(st.st_mode)) r = WASI_EPERM; /* no hard links to directories */
    if (!r && linkat(op.dirfd, op.name, np.dirfd, np.name, 0) != 0)
        r = wasi_errno_from_host(errno);
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
    /* open(2) cannot make a directory: Linux (since 6.4, build_open_flags)
       and wasmtime refuse O_CREAT with O_DIRECTORY before any lookup. */
    if ((oflags & WASI_OFLAG_CREAT) && (oflags & WASI_OFLAG_DIRECTORY)) return WASI_EINVAL;
    uint64_t need = WASI_RIGHT_PATH_OPEN;
    if (oflags & WASI_OFLAG_CREAT) need |= WASI_RIGHT_PATH_CREATE_FILE;
    if (oflags & WASI_OFLAG_TRUNC) need |= WASI_RIGHT_PATH_FILESTAT_SET_SIZE;
    wasi_ref ref;
    wasi_errno r = wasi_acquire_dir(c, fd, need, plen, &ref);
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
    /* Without O_CREAT the path is looked up (a slash after the final
       component follows it and asks for a directory). With O_CREAT the
       final name is followed only when the guest follows and O_EXCL is not
       set, never because of a slash; a slash after a name to be created is
       EISDIR (open_last_lookups), but for "." and "..", which are
       directories that exist (do_open: EEXIST with O_EXCL, else EISDIR,
       as the host's openat answers for "."). */
    bool creat = oflags & WASI_OFLAG_CREAT, excl = oflags & WASI_OFLAG_EXCL;
    bool follow = dirflags & WASI_LOOKUP_SYMLINK_FOLLOW;
    unsigned how = !creat ? WASI_RESOLVE_LOOKUP(follow)
                   : follow && !excl ? WASI_RESOLVE_FOLLOW | WASI_RESOLVE_SLASH_STOPS
                                     : WASI_RESOLVE_CREATE;
    wasi_path p;
    r = wasi_path_resolve(c, &ref, path, plen, how, &p);
    if (r) {
        wasi_fd_release(c->w, &ref);
        return r;
    }
    if (creat && p.trailing_slash && p.last == WASI_LAST_NORM) {
        r = WASI_EISDIR;
        goto done;
    }
    /* The access the rights need (the table above): a directory asked for
       with a write right fails with EISDIR, as on Linux and wasmtime. */
    int flags = O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | wasi_open_mode(base);
    if ((oflags & WASI_OFLAG_DIRECTORY) || (p.trailing_slash && !creat)) flags |= O_DIRECTORY;
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
    /* What fd_fdstat_get shows of a directory's inheriting rights: only
       the access the directory was itself opened for. WASI preview1 is
       silent; wasmtime derives the rights it reports for a directory that
       is not a preopen from the access it was opened with (crates/wasi/src/
       p1.rs, fd_fdstat_get: inheriting = base, FD_WRITE only when opened
       for writing, FD_READ only for reading), while path_open through it
       grants whatever it is asked. So here: the rights needing write are
       never shown (a directory opened for writing failed above), those
       needing read only when FD_READ was asked for; path_open still checks
       the whole set. wasi-libc reads the shown set: faccessat(dirfd, W_OK)
       on a directory opened O_RDONLY fails (its test access), and openat()
       through such an fd asks for no write right, as on wasmtime.
       fd_fdstat_set_rights leaves the rights not shown as they are (fd.c),
       so writing the shown set back drops nothing (wasi-testsuite's
       fd_fdstat_set_rights, issue 39). */
    uint64_t unshown = wasi_rights_needing(WASI_ACCESS_WRITE);
    if (!(base & WASI_RIGHT_FD_READ)) unshown |= wasi_rights_needing(WASI_ACCESS_READ);
    uint32_t newfd;
    r = wasi_fd_insert(c->w, h, type, (uint16_t)fdflags, base & type_rights, new_inh,
                       type == WASI_FILETYPE_DIRECTORY ? unshown : 0, &newfd);
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
    /* A lookup that does not follow, but for a slash after the name: then
       it names a directory (not a link: EINVAL) or is ENOTDIR. */
    wasi_errno r = wasi_open_path(c, WASI_U32(a, 0), WASI_RIGHT_PATH_READLINK,
                                  WASI_U32(a, 1), WASI_U32(a, 2), WASI_RESOLVE_LOOKUP(false),
                                  &ref, &p);
    if (r) return r;
    char *tmp = malloc(PATH_MAX);
    ssize_t n = -1;
    if (!tmp) {
        r = WASI_ENOMEM;
    } else if ((r = wasi_check_slash(&p))) {
        /* r set */
    } else if ((n = readlinkat(p.dirfd, p.name, tmp, PATH_MAX)) < 0) {
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
    /* The name is never followed (a symlink, slash or not, is ENOTDIR);
       do_rmdir answers a final ".." ENOTEMPTY and "." EINVAL. */
    wasi_errno r = wasi_open_path(c, WASI_U32(a, 0), WASI_RIGHT_PATH_REMOVE_DIRECTORY,
                                  WASI_U32(a, 1), WASI_U32(a, 2), WASI_RESOLVE_CREATE, &ref, &p);
    if (r) return r;
    if (p.last == WASI_LAST_DOTDOT) r = WASI_ENOTEMPTY;
    else if (p.last == WASI_LAST_DOT) r = WASI_EINVAL;
    else if (unlinkat(p.dirfd, p.name, AT_REMOVEDIR) != 0) r = wasi_errno_from_host(errno);
    wasi_close_path(c, &ref, &p);
    return r;
}

uint32_t wasi_path_rename(wasi_call *c, const weft_val *a) {
    wasi_ref oref, nref;
    wasi_path op, np;
    /* Neither name is followed. The kernel's order (do_renameat2): both
       paths are walked, a final "." or ".." on either is EBUSY, the source
       must exist, and a slash after either name needs a directory source
       (ENOTDIR); the rest is renameat's own. */
    wasi_errno r = wasi_open_path(c, WASI_U32(a, 0), WASI_RIGHT_PATH_RENAME_SOURCE,
                                  WASI_U32(a, 1), WASI_U32(a, 2), WASI_RESOLVE_CREATE, &oref, &op);
    if (r) return r;
    r = wasi_open_path(c, WASI_U32(a, 3), WASI_RIGHT_PATH_RENAME_TARGET, WASI_U32(a, 4),
                       WASI_U32(a, 5), WASI_RESOLVE_CREATE, &nref, &np);
    if (r) {
        wasi_close_path(c, &oref, &op);
        return r;
    }
    if (op.last != WASI_LAST_NORM || np.last != WASI_LAST_NORM) {
        r = WASI_EBUSY;
    } else if (op.trailing_slash || np.trailing_slash) {
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
    if (!base_utf8_valid(src, olen)) return WASI_EILSEQ; /* a WASI string: see path.c */
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
                                  WASI_U32(a, 3), WASI_U32(a, 4), WASI_RESOLVE_CREATE, &ref, &p);
    if (!r) {
        r = wasi_check_create(&p);
        if (!r && symlinkat(target, p.dirfd, p.name) != 0) r = wasi_errno_from_host(errno);
        wasi_close_path(c, &ref, &p);
    }
    free(target);
    return r;
}

uint32_t wasi_path_unlink_file(wasi_call *c, const weft_val *a) {
    wasi_ref ref;
    wasi_path p;
    /* The name is never followed; do_unlinkat answers a final "." or ".."
       EISDIR, and with a slash after the name: ENOENT if missing, EISDIR
       for a directory, ENOTDIR for anything else (a symlink included). */
    wasi_errno r = wasi_open_path(c, WASI_U32(a, 0), WASI_RIGHT_PATH_UNLINK_FILE,
                                  WASI_U32(a, 1), WASI_U32(a, 2), WASI_RESOLVE_CREATE, &ref, &p);
    if (r) return r;
    if (p.last != WASI_LAST_NORM) {
        r = WASI_EISDIR;
    } else if (p.trailing_slash) {
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
