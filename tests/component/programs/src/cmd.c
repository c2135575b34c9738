/* A WASI preview1 command that touches every interface the preview1
   adapter maps to WASI 0.2 (`jco new --wasi-command` wraps it into a
   component): arguments, environment, stdout and stderr, a file written,
   read back, listed, renamed and removed in a preopened directory, the
   clocks, random bytes, stdin, and an exit status of its choosing.
   tests/component/run.sh runs the component under weft run and compares
   its output with expected/cmd.out; the same program as a module must
   print the same. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
    printf("argc=%d\n", argc);
    for (int i = 1; i < argc; i++) printf("argv[%d]=%s\n", i, argv[i]);
    const char *v = getenv("CMD_TEST");
    printf("CMD_TEST=%s\n", v ? v : "(unset)");
    fprintf(stderr, "to stderr\n");

    const char *dir = argc > 1 ? argv[1] : NULL;
    if (dir) {
        char path[256], path2[256];
        snprintf(path, sizeof path, "%s/a.txt", dir);
        snprintf(path2, sizeof path2, "%s/b.txt", dir);
        FILE *f = fopen(path, "w");
        if (!f) { printf("fopen w: %s\n", strerror(errno)); return 3; }
        for (int i = 0; i < 1000; i++) fprintf(f, "line %d\n", i);
        fclose(f);
        struct stat st;
        if (stat(path, &st) != 0) { printf("stat: %s\n", strerror(errno)); return 3; }
        printf("size=%lld\n", (long long)st.st_size);
        f = fopen(path, "r");
        char line[64];
        int n = 0;
        long sum = 0;
        while (fgets(line, sizeof line, f)) { n++; sum += (long)strlen(line); }
        fclose(f);
        printf("read %d lines, %ld bytes\n", n, sum);
        if (rename(path, path2) != 0) { printf("rename: %s\n", strerror(errno)); return 3; }
        DIR *d = opendir(dir);
        struct dirent *e;
        int found = 0;
        while (d && (e = readdir(d))) if (!strcmp(e->d_name, "b.txt")) found = 1;
        if (d) closedir(d);
        printf("listed b.txt: %d\n", found);
        printf("open outside: %s\n", open("/etc/passwd", O_RDONLY) < 0 ? "refused" : "OPENED");
        char up[300];
        snprintf(up, sizeof up, "%s/../../etc/passwd", dir);
        printf("open ..: %s\n", open(up, O_RDONLY) < 0 ? "refused" : "OPENED");
        if (unlink(path2) != 0) { printf("unlink: %s\n", strerror(errno)); return 3; }
        printf("exists after unlink: %d\n", access(path2, F_OK) == 0);
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    printf("monotonic ok: %d\n", t1.tv_sec > t0.tv_sec || (t1.tv_sec == t0.tv_sec && t1.tv_nsec >= t0.tv_nsec));
    struct timespec w;
    clock_gettime(CLOCK_REALTIME, &w);
    printf("realtime after 2020: %d\n", w.tv_sec > 1577836800);
    unsigned char r[16] = {0};
    arc4random_buf(r, sizeof r);
    int nz = 0;
    for (int i = 0; i < 16; i++) nz |= r[i];
    printf("random nonzero: %d\n", nz != 0);
    char buf[128];
    size_t got = fread(buf, 1, sizeof buf - 1, stdin);
    buf[got] = 0;
    printf("stdin: %s\n", buf);
    fflush(stdout);
    return argc > 2 ? atoi(argv[2]) : 0;
}
