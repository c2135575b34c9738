/* micro.h — timing helpers shared by the C API micro-benchmarks.
 *
 * Each benchmark times ROUNDS batches of BATCH operations and reports the
 * per-operation time of the fastest batch (min) and of the median batch:
 * the machine is shared and noisy, and the min is what the code costs when
 * nothing else interferes while the median says what a host typically sees.
 * One untimed batch runs first to warm caches, the allocator and the page
 * tables. */
#ifndef BENCH_MICRO_H
#define BENCH_MICRO_H

/* clock_gettime under -std=c11; include this header first. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "weft.h"

static inline uint64_t micro_now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static inline int micro_cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts per_op[0..n) in place; *min and *median get its min and median. */
static inline void micro_summary(double *per_op, int n, double *min, double *median) {
    qsort(per_op, (size_t)n, sizeof *per_op, micro_cmp_double);
    *min = per_op[0];
    *median = n % 2 ? per_op[n / 2] : (per_op[n / 2 - 1] + per_op[n / 2]) / 2;
}

/* One result line, in a fixed format that bench/run copies as it is:
   "<name>  min <x> <unit>  median <y> <unit>  (<what>)". */
static inline void micro_report(const char *name, double *per_op, int n, const char *unit,
                                const char *what) {
    double mn, md;
    micro_summary(per_op, n, &mn, &md);
    printf("%-28s min %9.3f %s  median %9.3f %s  (%s)\n", name, mn, unit, md, unit, what);
    fflush(stdout);
}

/* Exits with a message when a weft call failed; a benchmark that silently
   timed failing calls would report nonsense. */
static inline void micro_check(weft_status st, const weft_error *err, const char *what) {
    if (st == WEFT_OK) return;
    fprintf(stderr, "micro: %s: %s: %s\n", what, weft_status_name(st),
            err && err->message[0] ? err->message : "(no message)");
    exit(1);
}

/* Loads the module at `path` once, with a fresh engine. */
static inline weft_module *micro_load(weft_engine **engine, const char *path) {
    weft_error err;
    weft_module *m = NULL;
    *engine = weft_engine_new(NULL);
    if (!*engine) {
        fprintf(stderr, "micro: out of memory making an engine\n");
        exit(1);
    }
    micro_check(weft_module_load_file(*engine, path, &m, &err), &err, path);
    return m;
}

/* Parses "ROUNDS" from argv[2] when given (bench/run --quick passes fewer). */
static inline int micro_rounds(int argc, char **argv, int dflt) {
    int r = argc > 2 ? atoi(argv[2]) : dflt;
    return r >= 1 ? r : dflt;
}

#endif /* BENCH_MICRO_H */
