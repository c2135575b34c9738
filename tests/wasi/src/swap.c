/* The harness keeps swapping sandbox/swap between a real directory and a
   symlink to the outside while this opens swap/f.txt (create, follow) and
   writes to it, many times. Whatever interleaving happens, nothing may be
   created outside. Prints only the total, which does not depend on luck. */
#include "common.h"
int main(void) {
    int tries = 0;
    for (int i = 0; i < 3000; i++) {
        __wasi_fd_t fd;
        __wasi_errno_t e = __wasi_path_open(DIRFD, __WASI_LOOKUPFLAGS_SYMLINK_FOLLOW, "swap/f.txt",
                                            __WASI_OFLAGS_CREAT, R_WRITE, 0, 0, &fd);
        if (!e) {
            (void)wstr(fd, "x");
            (void)__wasi_fd_close(fd);
        }
        (void)__wasi_path_create_directory(DIRFD, "swap/d");
        tries++;
    }
    SAY("%d attempts\n", tries);
    return 0;
}
