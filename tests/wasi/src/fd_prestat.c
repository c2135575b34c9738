/* fd_prestat_get and fd_prestat_dir_name. */
#include "common.h"
int main(void) {
    __wasi_prestat_t ps;
    for (__wasi_fd_t fd = 3; fd < 5; fd++) {
        T("fd_prestat_get", __wasi_fd_prestat_get(fd, &ps));
        char name[64] = {0};
        T("fd_prestat_dir_name", __wasi_fd_prestat_dir_name(fd, (uint8_t *)name, ps.u.dir.pr_name_len));
        SAY("fd %u: tag=%u len=%u name=[%s]\n", fd, ps.tag, (unsigned)ps.u.dir.pr_name_len, name);
    }
    T("fd_prestat_get(5, after the preopens)", __wasi_fd_prestat_get(5, &ps));
    T("fd_prestat_get(stdout)", __wasi_fd_prestat_get(1, &ps));
    char small[2];
    T("fd_prestat_dir_name(short buffer)", __wasi_fd_prestat_dir_name(3, (uint8_t *)small, 2));
    __wasi_fd_t f = xopen("data.txt", 0, R_READ, 0);
    T("fd_prestat_get(opened file)", __wasi_fd_prestat_get(f, &ps));
    return 0;
}
