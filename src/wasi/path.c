/*
 * path.c — sandboxed path resolution.
 *
 * A guest path is resolved one component at a time, starting from the host
 * descriptor of a directory fd (a preopen or a directory opened through
 * one). Each intermediate directory is opened with
 * openat(cur, component, O_PATH | O_DIRECTORY | O_NOFOLLOW): the kernel
 * never follows a symlink and never sees a '/', so nothing that changes on
 * disk while we walk (a directory swapped for a symlink) can move the walk
 * outside. We keep the chain of opened directories as a stack: `..` pops
 * it, and popping the root is refused. A symlink met on the way is read
 * with readlinkat and its target spliced in front of the rest of the path,
 * to be walked the same way from the directory holding the link; absolute
 * targets are refused, and after WASI_MAX_SYMLINKS expansions the walk
 * fails with ELOOP.
 *
 * The final component is followed as the kernel follows it
 * (path_resolution(7)): by a lookup that asks to follow, or whose path ends
 * with a slash after it; never by a call that creates, removes or renames
 * it, slash or not. The result is (directory fd, final name, whether a
 * slash came after it, whether it was "." or ".."), so each call can apply
 * the kernel's own rules for those (fs.c), and then the operation with the
 * *at call in its no-follow form: the final component is never followed by
 * the kernel either.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wasi.h"

typedef struct wasi_walk {
    int *stack;       /* stack[0] borrowed (the base), others owned */
    size_t depth, cap;
} wasi_walk;

static void wasi_walk_free(wasi_walk *wk) {
    for (size_t i = 1; i <= wk->depth; i++) close(wk->stack[i]);
    free(wk->stack);
}

static bool wasi_walk_push(wasi_walk *wk, int fd) {
    if (wk->depth + 1 >= wk->cap) {
        size_t n = wk->cap * 2;
        int *s = realloc(wk->stack, n * sizeof *s);
        if (!s) return false;
        wk->stack = s;
        wk->cap = n;
    }
    wk->stack[++wk->depth] = fd;
    return true;
}

/* Replaces *rest (from position `from`) by target + "/" + remainder. */
static wasi_errno wasi_splice(char **rest, size_t from, const char *target, size_t tlen) {
    const char *remainder = *rest + from;
    size_t rlen = strlen(remainder);
    if (tlen + 1 + rlen >= (size_t)PATH_MAX * 4) return WASI_ENAMETOOLONG;
    char *n = malloc(tlen + rlen + 2);
    if (!n) return WASI_ENOMEM;
    memcpy(n, target, tlen);
    n[tlen] = '/';
    memcpy(n + tlen + 1, remainder, rlen + 1);
    /* A target without trailing slash followed by an empty remainder must
       not gain one: "dir/link" -> "target/" would demand a directory. */
    if (rlen == 0) n[tlen] = '\0';
    free(*rest);
    *rest = n;
    return WASI_ESUCCESS;
}

wasi_errno wasi_path_resolve(wasi_call *c, const wasi_ref *ref, uint32_t ptr,
                             uint32_t len, unsigned how, wasi_path *out) {
    out->dirfd = -1;
    out->name = NULL;
    out->trailing_slash = false;
    out->last = WASI_LAST_NORM;
    const uint8_t *p = wasi_mem(c, ptr, len);
    if (!p) return WASI_EFAULT;
    if (len == 0) return WASI_ENOENT;
    if (ref->filetype != WASI_FILETYPE_DIRECTORY) return WASI_ENOTDIR;
    if (memchr(p, 0, len)) return WASI_EINVAL;
    /* A path is a WASI string, which the witx defines as UTF-8; one that
       is not valid UTF-8 is EILSEQ, as wasmtime answers (crates/wasi/src/
       p1.rs: reading a GuestPtr<str> fails InvalidUtf8 -> Ilseq) and
       wasi-libc's test open_relative_path expects. */
    if (!base_utf8_valid(p, len)) return WASI_EILSEQ;
    if (p[0] == '/') return WASI_ESCAPE;
    if (len >= (uint32_t)PATH_MAX) return WASI_ENAMETOOLONG;

    char *rest = malloc((size_t)len + 1);
    wasi_walk wk = {malloc(16 * sizeof(int)), 0, 16};
    char *link = malloc(PATH_MAX);
    wasi_errno r = WASI_ESUCCESS;
    if (!rest || !wk.stack || !link) {
        r = WASI_ENOMEM;
        goto done;
    }
    memcpy(rest, p, len);
    rest[len] = '\0';
    wk.stack[0] = ref->host;
    unsigned links = 0;
    size_t pos = 0;
    char *final = NULL;

    for (;;) {
        while (rest[pos] == '/') pos++;
        if (rest[pos] == '\0') {
            /* Only slashes left (a symlink to "dir/" spliced in): the path
               names the current directory. */
            out->last = WASI_LAST_DOT;
            final = strdup(".");
            break;
        }
        size_t start = pos;
        while (rest[pos] && rest[pos] != '/') pos++;
        size_t clen = pos - start;
        size_t after = pos;
        while (rest[after] == '/') after++;
        bool last = rest[after] == '\0';
        bool trailing = last && after > pos;
        char comp[NAME_MAX + 1];
        if (clen > NAME_MAX) {
            r = WASI_ENAMETOOLONG;
            goto done;
        }
        memcpy(comp, rest + start, clen);
        comp[clen] = '\0';
        int cur = wk.stack[wk.depth];

        if (strcmp(comp, ".") == 0) {
            if (last) {
                out->last = WASI_LAST_DOT;
                out->trailing_slash = trailing;
                final = strdup(".");
                break;
            }
            continue;
        }
        if (strcmp(comp, "..") == 0) {
            if (wk.depth == 0) {
                r = WASI_ESCAPE;
                goto done;
            }
            close(wk.stack[wk.depth--]);
            if (last) {
                out->last = WASI_LAST_DOTDOT;
                out->trailing_slash = trailing;
                final = strdup(".");
                break;
            }
            continue;
        }
        /* The final component is followed when the call follows, and for
           a lookup also when a slash comes after it (path_resolution(7));
           not by open with O_CREAT when a slash comes after it; never by
           the calls that create, remove or rename it. */
        bool follow = trailing ? (how & (WASI_RESOLVE_SLASH_FOLLOWS | WASI_RESOLVE_FOLLOW)) &&
                                     !(how & WASI_RESOLVE_SLASH_STOPS)
                               : (how & WASI_RESOLVE_FOLLOW);
        if (!last || follow) {
            if (!last) {
                int fd = openat(cur, comp, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (fd >= 0) {
                    if (!wasi_walk_push(&wk, fd)) {
                        close(fd);
                        r = WASI_ENOMEM;
                        goto done;
                    }
                    continue;
                }
                if (errno != ENOTDIR && errno != ELOOP) {
                    r = wasi_errno_from_host(errno);
                    goto done;
                }
            }
            /* Is it a symlink? (For a non-final component: the open said
               "not a directory or a link"; for the final one: follow.) */
            ssize_t n = readlinkat(cur, comp, link, PATH_MAX);
            if (n >= 0) {
                if (n == 0) {
                    r = WASI_ENOENT;
                    goto done;
                }
                if (n >= PATH_MAX) {
                    r = WASI_ENAMETOOLONG;
                    goto done;
                }
                if (++links > WASI_MAX_SYMLINKS) {
                    r = WASI_ELOOP;
                    goto done;
                }
                if (link[0] == '/') {
                    r = WASI_ESCAPE;
                    goto done;
                }
                r = wasi_splice(&rest, pos, link, (size_t)n);
                if (r) goto done;
                pos = 0;
                continue;
            }
            if (!last) {
                r = WASI_ENOTDIR;
                goto done;
            }
            if (errno != EINVAL && errno != ENOENT) {
                r = wasi_errno_from_host(errno);
                goto done;
            }
        }
        out->trailing_slash = trailing;
        final = strdup(comp);
        break;
    }
    if (!final) {
        r = WASI_ENOMEM;
        goto done;
    }
    /* The final directory: an owned descriptor in every case. */
    if (wk.depth == 0) {
        out->dirfd = fcntl(ref->host, F_DUPFD_CLOEXEC, 0);
        if (out->dirfd < 0) {
            r = wasi_errno_from_host(errno);
            free(final);
            goto done;
        }
    } else {
        out->dirfd = wk.stack[wk.depth--];
    }
    out->name = final;
done:
    wasi_walk_free(&wk);
    free(rest);
    free(link);
    return r;
}

void wasi_path_done(wasi_path *p) {
    if (p->dirfd >= 0) close(p->dirfd);
    free(p->name);
    p->dirfd = -1;
    p->name = NULL;
}
