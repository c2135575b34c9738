/* Clocks and randomness through the libc: time(), clock_gettime,
   clock(), getentropy, arc4random. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(void) {
    time_t now = time(NULL);
    printf("time() after 2020: %s\n", now > 1577836800 ? "yes" : "no");
    struct timespec a, b, res;
    clock_gettime(CLOCK_MONOTONIC, &a);
    clock_getres(CLOCK_MONOTONIC, &res);
    volatile double x = 0;
    for (int i = 0; i < 3000000; i++) x += i * 0.5;
    clock_gettime(CLOCK_MONOTONIC, &b);
    if (x < 0) printf("impossible\n");
    long long ns = (b.tv_sec - a.tv_sec) * 1000000000ll + (b.tv_nsec - a.tv_nsec);
    printf("loop took > 0 ns: %s; resolution <= 1 ms: %s\n", ns > 0 ? "yes" : "no",
           res.tv_sec == 0 && res.tv_nsec <= 1000000 ? "yes" : "no");
    struct timespec cpu;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cpu);
    printf("process cpu time > 0: %s\n", cpu.tv_sec > 0 || cpu.tv_nsec > 0 ? "yes" : "no");
    unsigned char e1[16], e2[16];
    int r1 = getentropy(e1, sizeof e1), r2 = getentropy(e2, sizeof e2);
    int same = 1;
    for (int i = 0; i < 16; i++) same &= e1[i] == e2[i];
    printf("getentropy: %d %d, differ: %s\n", r1, r2, same ? "no" : "yes");
    uint32_t v[8];
    int distinct = 1;
    for (int i = 0; i < 8; i++) {
        v[i] = arc4random();
        for (int j = 0; j < i; j++) distinct &= v[i] != v[j];
    }
    printf("arc4random distinct: %s\n", distinct ? "yes" : "no");
    int dice[6] = {0};
    for (int i = 0; i < 6000; i++) dice[arc4random_uniform(6)]++;
    int fair = 1;
    for (int i = 0; i < 6; i++) fair &= dice[i] > 800 && dice[i] < 1200;
    printf("dice roughly fair: %s\n", fair ? "yes" : "no");
    return 0;
}
