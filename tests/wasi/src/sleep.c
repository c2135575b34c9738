/* poll_oneoff with a timeout, through the libc: nanosleep and poll() on
   stdin (a pipe that stays silent) with a 100 ms timeout. */
#include <poll.h>
#include <stdio.h>
#include <time.h>

static long long ms_since(struct timespec a) {
    struct timespec b;
    clock_gettime(CLOCK_MONOTONIC, &b);
    return ((b.tv_sec - a.tv_sec) * 1000000000ll + (b.tv_nsec - a.tv_nsec)) / 1000000;
}

int main(void) {
    struct timespec t0, d = {0, 50 * 1000000};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int r = nanosleep(&d, NULL);
    long long ms = ms_since(t0);
    printf("nanosleep(50 ms) = %d, slept >= 50 ms: %s, < 2 s: %s\n", r, ms >= 50 ? "yes" : "no",
           ms < 2000 ? "yes" : "no");
    struct pollfd p = {.fd = 0, .events = POLLIN};
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int n = poll(&p, 1, 100);
    ms = ms_since(t0);
    printf("poll(stdin, 100 ms) = %d, waited >= 100 ms: %s\n", n, ms >= 100 ? "yes" : "no");
    return 0;
}
