/* A file copier: copy SRC DST with stdio in 4 KiB chunks; exit 1 with a
   message on any error. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: copy SRC DST\n"); return 2; }
    FILE *in = fopen(argv[1], "rb");
    if (!in) { printf("cannot open %s: %s\n", argv[1], strerror(errno)); return 1; }
    FILE *out = fopen(argv[2], "wb");
    if (!out) { printf("cannot create %s: %s\n", argv[2], strerror(errno)); return 1; }
    char buf[4096];
    size_t n, total = 0;
    while ((n = fread(buf, 1, sizeof buf, in)) > 0) {
        if (fwrite(buf, 1, n, out) != n) { printf("write error\n"); return 1; }
        total += n;
    }
    fclose(in);
    if (fclose(out) != 0) { printf("close error\n"); return 1; }
    printf("copied %zu bytes\n", total);
    return 0;
}
