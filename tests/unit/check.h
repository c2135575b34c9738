/*
 * check.h — what the unit test programs share: checks and their counts,
 * the monotonic clock, short sleeps, loading a module. Each program is one
 * file, tests/unit/NAME.c, run from the repository root; it includes this
 * once (everything here is static).
 *
 * Two kinds of check, both counted in check_count, from any thread:
 *
 *   CHECK(cond, fmt, ...)    the program cannot go on without it: on
 *                            failure prints "NAME:LINE: message" on stderr
 *                            and exits with status 1;
 *   EXPECT(cond)             the program goes on: on failure prints
 *                            "FILE:LINE: check failed: cond" on stderr and
 *                            counts one in check_failures;
 *   EXPECTF(cond, fmt, ...)  the same, "FILE:LINE: message".
 *
 * A message's arguments are evaluated only when the check fails.
 */
#ifndef WEFT_TEST_CHECK_H
#define WEFT_TEST_CHECK_H

#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "weft.h"

static _Atomic int check_count;    /* checks made, passed or not */
static _Atomic int check_failures; /* EXPECTs that failed */

#define CHECK(cond, ...)                                                   \
    do {                                                                   \
        check_count++;                                                     \
        if (!(cond)) check_abort(__FILE__, __LINE__, __VA_ARGS__);         \
    } while (0)

#define EXPECTF(cond, ...)                                                 \
    do {                                                                   \
        check_count++;                                                     \
        if (!(cond)) check_failed(__FILE__, __LINE__, __VA_ARGS__);        \
    } while (0)

#define EXPECT(cond) EXPECTF(cond, "check failed: %s", #cond)

/* A failed CHECK: "NAME:LINE: message", NAME being the file's name
   without its directory and extension (the program's name). */
__attribute__((format(printf, 3, 4))) static inline _Noreturn void
check_abort(const char *file, int line, const char *fmt, ...) {
    const char *name = strrchr(file, '/');
    name = name ? name + 1 : file;
    const char *dot = strrchr(name, '.');
    fprintf(stderr, "%.*s:%d: ", dot ? (int)(dot - name) : (int)strlen(name), name, line);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    exit(1);
}

/* A failed EXPECT: counts it, prints "FILE:LINE: message". Called
   directly for a check a helper makes on its caller's line. */
__attribute__((format(printf, 3, 4))) static inline void check_failed(const char *file, int line,
                                                                      const char *fmt, ...) {
    check_failures++;
    fprintf(stderr, "%s:%d: ", file, line);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
}

/* Prints "NAME: N checks, N failed"; returns the program's exit status
   (1 when an EXPECT failed). */
static inline int check_summary(const char *name) {
    printf("%s: %d checks, %d failed\n", name, atomic_load(&check_count), atomic_load(&check_failures));
    return atomic_load(&check_failures) ? 1 : 0;
}

/* CLOCK_MONOTONIC, in nanoseconds. */
static inline int64_t now_ns(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static inline void sleep_ms(int ms) {
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

/* The module at the path `fmt`, ... (printf-style, from the repository
   root), loaded by `engine`; NULL after "cannot load PATH: message" on
   stderr. */
__attribute__((format(printf, 2, 3))) static inline weft_module *load_module(weft_engine *engine,
                                                                             const char *fmt, ...) {
    char path[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(path, sizeof path, fmt, ap);
    va_end(ap);
    weft_module *m = NULL;
    weft_error err;
    if (weft_module_load_file(engine, path, &m, &err) != WEFT_OK) {
        fprintf(stderr, "cannot load %s: %s\n", path, err.message);
        return NULL;
    }
    return m;
}

/* WEFT_TIER=interp|jit|auto in the environment runs every engine a test
   makes without choosing a tier on that tier: `WEFT_TIER=jit make test`
   runs the unit tests (the workers' and the scheduler's scenarios among
   them) on compiled code alone, as weft run does its suites (docs/jit.md,
   "Forced-jit suites"). A test that chooses its tiers itself defines
   CHECK_OWN_TIER before including this file. */
#ifndef CHECK_OWN_TIER
static inline weft_engine *check_engine_new(const weft_config *config) {
    weft_config c = {0};
    if (config) c = *config;
    const char *t = getenv("WEFT_TIER");
    if (t && c.tier == WEFT_TIER_INTERP) {
        if (strcmp(t, "jit") == 0) c.tier = WEFT_TIER_JIT;
        else if (strcmp(t, "auto") == 0) c.tier = WEFT_TIER_AUTO;
    }
    return weft_engine_new(&c);
}
#define weft_engine_new check_engine_new
#endif

/* load_module as a CHECK: the module, or the program ends. */
#define CHECK_LOAD(engine, ...)                                            \
    check_loaded(load_module((engine), __VA_ARGS__), __FILE__, __LINE__)

static inline weft_module *check_loaded(weft_module *m, const char *file, int line) {
    check_count++;
    if (!m) check_abort(file, line, "load failed");
    return m;
}

#endif
