/* Reads stdin to EOF in small reads and echoes it, then counts. */
#include <stdio.h>
#include <unistd.h>

int main(void) {
    char buf[7];
    long bytes = 0, lines = 0;
    ssize_t n;
    while ((n = read(0, buf, sizeof buf)) > 0) {
        for (ssize_t i = 0; i < n; i++) lines += buf[i] == '\n';
        bytes += n;
        if (write(1, buf, (size_t)n) != n) return 1;
    }
    if (n < 0) { perror("read"); return 1; }
    printf("-- %ld bytes, %ld lines\n", bytes, lines);
    return 0;
}
