/* The wasi_unstable module: fd_seek's older whence numbers, the 56-byte
   filestat, and the 56-byte subscription of poll_oneoff. */
#include "common.h"
#define U(name) __attribute__((import_module("wasi_unstable"), import_name(#name)))
U(fd_seek) int32_t u_fd_seek(int32_t fd, int64_t off, int32_t whence, int32_t out);
U(fd_filestat_get) int32_t u_fd_filestat_get(int32_t fd, int32_t out);
U(path_filestat_get) int32_t u_path_filestat_get(int32_t fd, int32_t fl, int32_t p, int32_t len, int32_t out);
U(poll_oneoff) int32_t u_poll_oneoff(int32_t in, int32_t out, int32_t n, int32_t nev);
U(fd_write) int32_t u_fd_write(int32_t fd, int32_t iovs, int32_t n, int32_t out);
#define P(x) ((int32_t)(uintptr_t)(x))
int main(void) {
    __wasi_fd_t fd = xopen("data.txt", 0, RIGHTS_ALL, 0);
    uint64_t pos = 0;
    T("unstable fd_seek(2 = SET, 4)", u_fd_seek(fd, 4, 2, P(&pos)));
    SAY("pos=%llu\n", (unsigned long long)pos);
    T("unstable fd_seek(0 = CUR, 1)", u_fd_seek(fd, 1, 0, P(&pos)));
    SAY("pos=%llu\n", (unsigned long long)pos);
    T("unstable fd_seek(1 = END, -2)", u_fd_seek(fd, -2, 1, P(&pos)));
    SAY("pos=%llu\n", (unsigned long long)pos);
    uint8_t st[64];
    memset(st, 0xee, sizeof st);
    T("unstable fd_filestat_get", u_fd_filestat_get(fd, P(st)));
    uint32_t nlink;
    uint64_t size;
    memcpy(&nlink, st + 20, 4);
    memcpy(&size, st + 24, 8);
    SAY("filetype=%u nlink(u32 @20)=%u size(@24)=%llu byte 56 untouched: %s\n", st[16], nlink,
        (unsigned long long)size, st[56] == 0xee ? "yes" : "no");
    memset(st, 0xee, sizeof st);
    T("unstable path_filestat_get", u_path_filestat_get(DIRFD, 0, P("data.txt"), 8, P(st)));
    memcpy(&size, st + 24, 8);
    SAY("size(@24)=%llu\n", (unsigned long long)size);
    /* Subscription: userdata 0, tag 8, clock {identifier 16, id 24,
       timeout 32, precision 40, flags 48}; 56 bytes. */
    uint8_t sub[56], ev[32];
    memset(sub, 0, sizeof sub);
    uint64_t ud = 77, timeout = 10000000;
    uint32_t id = 1, nev = 0;
    memcpy(sub, &ud, 8);
    sub[8] = 0;
    memcpy(sub + 24, &id, 4);
    memcpy(sub + 32, &timeout, 8);
    T("unstable poll_oneoff(10 ms)", u_poll_oneoff(P(sub), P(ev), 1, P(&nev)));
    uint64_t eud;
    memcpy(&eud, ev, 8);
    SAY("events=%u userdata=%llu type=%u\n", nev, (unsigned long long)eud, ev[10]);
    uint32_t iov[2] = {P("unstable fd_write ok\n"), 21};
    uint32_t n;
    T("unstable fd_write", u_fd_write(1, P(iov), 1, P(&n)));
    return 0;
}
