/* fd_readdir: every entry with "." and "..", types, cookies that resume
   exactly, tiny buffers, errors. */
#include "common.h"
typedef struct { char name[64]; uint64_t next; uint8_t type; } ent;
static int cmp(const void *a, const void *b) { return strcmp(((const ent *)a)->name, ((const ent *)b)->name); }

/* Reads the whole directory with buffers of `bufsize` bytes. */
static int read_all(__wasi_fd_t fd, size_t bufsize, ent *out, int max) {
    uint8_t *buf = malloc(bufsize);
    uint64_t cookie = 0;
    int n = 0;
    for (;;) {
        __wasi_size_t used;
        __wasi_errno_t e = __wasi_fd_readdir(fd, buf, bufsize, cookie, &used);
        if (e) { SAY("readdir: %s\n", en(e)); break; }
        size_t off = 0;
        int progress = 0;
        while (off + sizeof(__wasi_dirent_t) <= used) {
            __wasi_dirent_t d;
            memcpy(&d, buf + off, sizeof d);
            if (off + sizeof d + d.d_namlen > used) break; /* cut: ask again */
            if (n < max) {
                memcpy(out[n].name, buf + off + sizeof d, d.d_namlen);
                out[n].name[d.d_namlen] = 0;
                out[n].next = d.d_next;
                out[n].type = d.d_type;
                n++;
            }
            cookie = d.d_next;
            off += sizeof d + d.d_namlen;
            progress = 1;
        }
        if (used < bufsize) break;
        if (!progress && bufsize < sizeof(__wasi_dirent_t) + 64) { SAY("no progress\n"); break; }
    }
    free(buf);
    return n;
}

int main(void) {
    __wasi_fd_t d = xopendir("dir");
    ent e1[32], e2[32], e3[32];
    int n1 = read_all(d, 4096, e1, 32);
    int n2 = read_all(d, 60, e2, 32); /* entries are cut at the end of the buffer */
    SAY("entries: %d (big buffer), %d (60-byte buffer)\n", n1, n2);
    int same = n1 == n2;
    for (int i = 0; same && i < n1; i++) same = strcmp(e1[i].name, e2[i].name) == 0 && e1[i].next == e2[i].next;
    SAY("same order and cookies: %s\n", same ? "yes" : "no");
    /* Resuming from the cookie of entry 2 gives entry 3 onwards. */
    uint8_t buf[4096];
    __wasi_size_t used;
    T("readdir(cookie of entry 2)", __wasi_fd_readdir(d, buf, sizeof buf, e1[2].next, &used));
    __wasi_dirent_t first;
    memcpy(&first, buf, sizeof first);
    char nm[64] = {0};
    memcpy(nm, buf + sizeof first, first.d_namlen);
    SAY("resumes at entry 3: %s\n", strcmp(nm, e1[3].name) == 0 ? "yes" : "no");
    T("readdir(cookie past the end)", __wasi_fd_readdir(d, buf, sizeof buf, 1000, &used));
    SAY("used=%u\n", (unsigned)used);
    int n3 = read_all(d, 4096, e3, 32);
    SAY("reading again from 0: %d\n", n3);
    qsort(e1, n1, sizeof e1[0], cmp);
    for (int i = 0; i < n1; i++) SAY("  %s type=%u\n", e1[i].name, e1[i].type);
    __wasi_fd_t f = xopen("dir/a.txt", 0, RIGHTS_ALL, 0);
    T("readdir(file)", __wasi_fd_readdir(f, buf, sizeof buf, 0, &used));
    T("readdir(bad fd)", __wasi_fd_readdir(77, buf, sizeof buf, 0, &used));
    __wasi_fd_t nr = xopen("dir", __WASI_OFLAGS_DIRECTORY, __WASI_RIGHTS_PATH_OPEN, 0);
    T("readdir(no right)", __wasi_fd_readdir(nr, buf, sizeof buf, 0, &used));
    return 0;
}
