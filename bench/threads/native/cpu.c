/* cpu (native) — the control for cpu.wasm: the same job, split the same
   way over T pthreads (argv[1], default 1), N = argv[2] million integers
   (default 120). Prints the same lines as the guest, so the scheduler
   benchmark sets weft's 2-runner speedup beside what this machine gives a
   native program in the same run. */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

typedef struct slice {
    uint64_t from, to, sum;
} slice;

static void *work(void *arg) {
    slice *s = arg;
    uint64_t sum = 0;
    for (uint64_t i = s->from; i < s->to; i++) {
        uint64_t x = i * 0x9E3779B97F4A7C15ull;
        x ^= x >> 29;
        x *= 0xBF58476D1CE4E5B9ull;
        x ^= x >> 32;
        sum += x & 0xffff;
    }
    /* The store the compiler cannot drop, as the guest's. */
    *(volatile uint64_t *)&s->sum = sum;
    return NULL;
}

static int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int main(int argc, char **argv) {
    int t = argc > 1 ? atoi(argv[1]) : 1;
    uint64_t n = (uint64_t)(argc > 2 ? atoll(argv[2]) : 120) * 1000000ull;
    if (t < 1 || t > 16) {
        fprintf(stderr, "threads must be 1..16\n");
        return 1;
    }
    static slice s[16];
    for (int k = 0; k < t; k++) {
        s[k].from = n * (uint64_t)k / (uint64_t)t;
        s[k].to = n * (uint64_t)(k + 1) / (uint64_t)t;
    }
    int64_t t0 = now_ns();
    pthread_t th[16];
    for (int k = 1; k < t; k++)
        if (pthread_create(&th[k], NULL, work, &s[k]) != 0) return 1;
    work(&s[0]);
    uint64_t sum = s[0].sum;
    for (int k = 1; k < t; k++) {
        pthread_join(th[k], NULL);
        sum += s[k].sum;
    }
    int64_t dt = now_ns() - t0;
    printf("threads %d\nchecksum %lld\nms %lld\n", t, (long long)sum, (long long)(dt / 1000000));
    return 0;
}
