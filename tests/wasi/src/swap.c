/* The harness keeps swapping sandbox/swap between a real directory and
   symlinks to the outside (absolute and relative) while this opens
   swap/f.txt (create, follow) and writes to it, and makes swap/d, over and
   over for about a second. Whatever interleaving happens, nothing may be
   created outside. Prints only what does not depend on luck. */
#include "common.h"
static uint64_t now(void) {
    __wasi_timestamp_t t;
    (void)__wasi_clock_time_get(__WASI_CLOCKID_MONOTONIC, 0, &t);
    return t;
}
int main(void) {
    uint64_t end = now() + 1000000000ull;
    int tries = 0;
    while (tries < 1000 || now() < end) {
        __wasi_fd_t fd;
        __wasi_errno_t e = __wasi_path_open(DIRFD, __WASI_LOOKUPFLAGS_SYMLINK_FOLLOW, "swap/f.txt",
                                            __WASI_OFLAGS_CREAT, R_WRITE, 0, 0, &fd);
        if (!e) {
            (void)wstr(fd, "x");
            (void)__wasi_fd_close(fd);
        }
        (void)__wasi_path_create_directory(DIRFD, "swap/d");
        (void)__wasi_path_remove_directory(DIRFD, "swap/d");
        tries++;
    }
    SAY("done\n");
    return 0;
}
