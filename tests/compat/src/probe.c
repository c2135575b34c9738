/* probe — prints what a WASI program is given, so that two spellings of
   the same weft options can be compared: argv, the environment (in order),
   and each descriptor from 3 on: a preopened directory with its name, or
   another kind (a listening socket) with its WASI file type. */
#include <stdio.h>
#include <stdlib.h>
#include <wasi/api.h>

extern char **environ;

int main(int argc, char **argv) {
    for (int i = 0; i < argc; i++) printf("argv[%d]=%s\n", i, argv[i]);
    for (char **e = environ; e && *e; e++) printf("env %s\n", *e);
    for (__wasi_fd_t fd = 3; fd < 16; fd++) {
        __wasi_fdstat_t st;
        if (__wasi_fd_fdstat_get(fd, &st) != 0) continue;
        __wasi_prestat_t pre;
        if (__wasi_fd_prestat_get(fd, &pre) == 0) {
            char name[256] = {0};
            size_t n = pre.u.dir.pr_name_len < 255 ? pre.u.dir.pr_name_len : 255;
            if (__wasi_fd_prestat_dir_name(fd, (uint8_t *)name, n) != 0) continue;
            printf("fd %u: preopen %s\n", (unsigned)fd, name);
        } else {
            printf("fd %u: filetype %u\n", (unsigned)fd, (unsigned)st.fs_filetype);
        }
    }
    return 0;
}
