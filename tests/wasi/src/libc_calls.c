/* What wasi-libc's own test suite (issue 27, tests/libc-suite) checks of
   the runtime, through the libc calls a C program makes: each answer
   below is wasmtime's, where WASI preview1 is silent (docs/wasi.md). The
   raw calls behind them are checked in fd_advise, fd_allocate,
   fd_fdstat_get, fd_fdstat_set_flags, path_open and poll_oneoff. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void say(const char *what, int r, int err) {
    if (r == -1) printf("%s: -1 %s\n", what, strerror(err));
    else printf("%s: %d\n", what, r);
}
#define CALL(what, expr) do { errno = 0; int r_ = (expr); say(what, r_, errno); } while (0)
/* posix_fadvise and posix_fallocate return the error number. */
#define RET(what, expr) do { int r_ = (expr); printf("%s: %s\n", what, r_ ? strerror(r_) : "0"); } while (0)

int main(void) {
    setvbuf(stdout, NULL, _IONBF, 0);
    if (chdir("/sandbox") != 0) return 99;
    int fd = open("f.txt", O_RDWR | O_CREAT | O_EXCL, 0600);
    if (fd < 0 || write(fd, "hello", 6) != 6) return 99;
    mkdir("d", 0755);
    int dir = open("d", O_RDONLY | O_DIRECTORY);

    /* fadvise: files take advice; a directory and stdout are EBADF. */
    RET("posix_fadvise(file)", posix_fadvise(fd, 0, 3, POSIX_FADV_WILLNEED));
    RET("posix_fadvise(directory)", posix_fadvise(dir, 0, 3, POSIX_FADV_WILLNEED));
    RET("posix_fadvise(stdout)", posix_fadvise(1, 0, 3, POSIX_FADV_WILLNEED));
    /* fallocate: not supported; the file keeps its size. */
    RET("posix_fallocate(file)", posix_fallocate(fd, 6, 5));
    struct stat st;
    fstat(fd, &st);
    printf("size after: %lld\n", (long long)st.st_size);
    /* poll: a negative fd is skipped; one that is not open fails the call. */
    struct pollfd p = {.fd = fd, .events = POLLRDNORM};
    CALL("poll(file)", poll(&p, 1, -1));
    p.fd = -300;
    CALL("poll(fd -300)", poll(&p, 1, 0));
    p.fd = 300;
    CALL("poll(fd 300, not open)", poll(&p, 1, 0));
    /* A path that is not UTF-8 is refused; nothing is made. */
    CALL("open(\"d/\\xff\\xff\", O_CREAT)", open("d/\xff\xff", O_WRONLY | O_CREAT, 0600));
    /* faccessat through a directory opened O_RDONLY: read yes, write no. */
    CALL("faccessat(dir, ., F_OK)", faccessat(dir, ".", F_OK, 0));
    CALL("faccessat(dir, ., R_OK)", faccessat(dir, ".", R_OK, 0));
    CALL("faccessat(dir, ., W_OK)", faccessat(dir, ".", W_OK, 0));
    CALL("access(f.txt, W_OK) (via the preopen)", access("f.txt", W_OK));
    /* fcntl F_SETFL: files change, the host's stdio does not. */
    CALL("fcntl(file, F_SETFL, O_APPEND|O_NONBLOCK)", fcntl(fd, F_SETFL, O_APPEND | O_NONBLOCK));
    CALL("fcntl(file, F_GETFL) == O_RDWR|O_APPEND|O_NONBLOCK",
         fcntl(fd, F_GETFL) == (O_RDWR | O_APPEND | O_NONBLOCK));
    CALL("fcntl(0, F_SETFL, O_NONBLOCK)", fcntl(0, F_SETFL, O_NONBLOCK));
    CALL("fcntl(1, F_SETFL, O_APPEND)", fcntl(1, F_SETFL, O_APPEND));
    CALL("fcntl(2, F_SETFL, O_NONBLOCK)", fcntl(2, F_SETFL, O_NONBLOCK));
    close(dir);
    close(fd);
    return 0;
}
