/* path_readlink. */
#include "common.h"
int main(void) {
    char buf[64];
    __wasi_size_t n;
    memset(buf, 0, sizeof buf);
    T("readlink link", __wasi_path_readlink(DIRFD, "link", (uint8_t *)buf, sizeof buf, &n));
    SAY("target=[%.*s] n=%u\n", (int)n, buf, (unsigned)n);
    memset(buf, 0, sizeof buf);
    T("readlink into 3 bytes", __wasi_path_readlink(DIRFD, "link", (uint8_t *)buf, 3, &n));
    SAY("target=[%.*s] n=%u\n", (int)n, buf, (unsigned)n);
    T("readlink dir/uplink", __wasi_path_readlink(DIRFD, "dir/uplink", (uint8_t *)buf, sizeof buf, &n));
    SAY("target=[%.*s]\n", (int)n, buf);
    T("readlink regular file", __wasi_path_readlink(DIRFD, "file.txt", (uint8_t *)buf, sizeof buf, &n));
    T("readlink missing", __wasi_path_readlink(DIRFD, "missing", (uint8_t *)buf, sizeof buf, &n));
    T("readlink bad fd", __wasi_path_readlink(77, "link", (uint8_t *)buf, sizeof buf, &n));
    __wasi_fd_t d = xopen("dir", __WASI_OFLAGS_DIRECTORY, __WASI_RIGHTS_PATH_OPEN, 0);
    T("readlink no right", __wasi_path_readlink(d, "uplink", (uint8_t *)buf, sizeof buf, &n));
    return 0;
}
