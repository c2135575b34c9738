/*
 * main.c — runs a fuzz harness without a fuzzing engine: every file named
 * on the command line, or found in a directory named there (not
 * recursively), is given once to LLVMFuzzerTestOneInput. This is how CI
 * replays the committed corpus with gcc and the sanitizers, and how a
 * crash file is reproduced by hand:
 *
 *   build/fuzz/load fuzz/corpus/load            # every file of the corpus
 *   build/fuzz/load crash-1234                  # one file
 *
 * A harness reports a finding by crashing (a sanitizer, or abort()), as it
 * does under libFuzzer, so reaching the end means every input passed. The
 * last line is "N passed, 0 failed" for tests/run.sh.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"

/* A harness need not define it. */
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static unsigned long ran;

static int run_file(const char *path) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s\n", path);
        return 1;
    }
    uint8_t *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (len == cap) {
            cap = cap ? cap * 2 : 4096;
            uint8_t *nb = realloc(buf, cap);
            if (!nb) {
                fprintf(stderr, "out of memory reading %s\n", path);
                free(buf);
                fclose(f);
                return 1;
            }
            buf = nb;
        }
        size_t n = fread(buf + len, 1, cap - len, f);
        if (n == 0) break;
        len += n;
    }
    fclose(f);
    if (getenv("FUZZ_VERBOSE")) fprintf(stderr, "%s (%zu bytes)\n", path, len);
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    ran++;
    return 0;
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A directory's regular files, in name order so runs are repeatable. */
static int run_dir(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(stderr, "cannot open directory %s\n", dir);
        return 1;
    }
    char **names = NULL;
    size_t n = 0, cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            char **nn = realloc(names, cap * sizeof *names);
            if (!nn) break;
            names = nn;
        }
        size_t need = strlen(dir) + strlen(e->d_name) + 2;
        names[n] = malloc(need);
        if (!names[n]) break;
        snprintf(names[n], need, "%s/%s", dir, e->d_name);
        n++;
    }
    closedir(d);
    if (n) qsort(names, n, sizeof *names, cmp_str);
    int bad = 0;
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) bad |= run_file(names[i]);
        free(names[i]);
    }
    free(names);
    return bad;
}

int main(int argc, char **argv) {
    if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0) {
            fprintf(stderr, "cannot open %s\n", argv[i]);
            bad = 1;
        } else if (S_ISDIR(st.st_mode)) {
            bad |= run_dir(argv[i]);
        } else {
            bad |= run_file(argv[i]);
        }
    }
    printf("%s: %lu inputs\n", argv[0], ran);
    printf("%lu passed, %d failed\n", ran, bad);
    return bad;
}
