/*
 * profile.c — the profiling build's count of operation pairs, from which
 * the super-instructions (CMP_PAIR_OPS) are chosen (tools/pairs/count.sh).
 *
 * Built in only with -DWEFT_PROFILE_PAIRS=1; otherwise this file is empty
 * and the interpreter's dispatch is untouched. In that build every
 * dispatch calls exec_profile_dispatch with the operation dispatched
 * before it. A dispatch *falls through* when it starts where the previous
 * one ends (a pair's word ends after both of its operations), that is,
 * when it was not reached by a branch, a call or a return: only those
 * could have been one dispatch as a pair. Each thread counts into its own
 * table, indexed by the two code words (plain operations, pairs or their
 * dependent forms), so the profile of a program already run with pairs
 * shows what is left to pair.
 *
 * At exit the tables are added up and written to the file named by the
 * environment variable WEFT_PROFILE_PAIRS_OUT (nothing is written when it
 * is not set): lines "# dispatches N", "# fallthrough N", then one line
 * "COUNT FIRST SECOND" per pair counted, with cmp_op_name's names
 * ("I32_ADD_IMM+LOAD32:1" for a pair's dependent form), largest first.
 *
 * The tables are process-wide mutable state, against guideline 4: this
 * is a measuring tool that no shipped build contains.
 */
#include "exec.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#ifndef WEFT_PROFILE_PAIRS
#define WEFT_PROFILE_PAIRS 0
#endif

#if WEFT_PROFILE_PAIRS

/* One thread's counts. */
typedef struct prof_table {
    struct prof_table *next;
    uint64_t dispatches, fallthrough;
    uint64_t counts[]; /* [first word * CMP_OP_COUNT + second word] */
} prof_table;

static pthread_mutex_t prof_lock = PTHREAD_MUTEX_INITIALIZER;
static prof_table *prof_tables;       /* every thread's, under prof_lock */
static _Thread_local prof_table *prof_mine;
static bool prof_is_pair[CMP_OP_COUNT]; /* words that run two operations */

typedef struct {
    uint64_t count;
    uint32_t first, second;
} prof_row;

static int prof_row_cmp(const void *a, const void *b) {
    const prof_row *x = a, *y = b;
    return x->count < y->count ? 1 : x->count > y->count ? -1 : 0;
}

static void prof_dump(void) {
    const char *path = getenv("WEFT_PROFILE_PAIRS_OUT");
    if (!path || !*path) return;
    pthread_mutex_lock(&prof_lock);
    uint64_t dispatches = 0, fallthrough = 0;
    size_t n = 0, cap = 1024;
    prof_row *rows = malloc(cap * sizeof *rows);
    for (uint32_t i = 0; rows && i < CMP_OP_COUNT; i++) {
        for (uint32_t j = 0; j < CMP_OP_COUNT; j++) {
            uint64_t c = 0;
            for (prof_table *t = prof_tables; t; t = t->next) c += t->counts[(size_t)i * CMP_OP_COUNT + j];
            if (!c) continue;
            if (n == cap) {
                prof_row *more = realloc(rows, 2 * cap * sizeof *rows);
                if (!more) break;
                rows = more;
                cap *= 2;
            }
            rows[n++] = (prof_row){c, i, j};
        }
    }
    for (prof_table *t = prof_tables; t; t = t->next) {
        dispatches += t->dispatches;
        fallthrough += t->fallthrough;
    }
    pthread_mutex_unlock(&prof_lock);
    FILE *f = fopen(path, "w");
    if (!f || !rows) {
        fprintf(stderr, "weft: cannot write the pair profile to %s\n", path);
        if (f) fclose(f);
        free(rows);
        return;
    }
    qsort(rows, n, sizeof *rows, prof_row_cmp);
    fprintf(f, "# dispatches %llu\n# fallthrough %llu\n", (unsigned long long)dispatches,
            (unsigned long long)fallthrough);
    for (size_t k = 0; k < n; k++)
        fprintf(f, "%llu %s %s\n", (unsigned long long)rows[k].count, cmp_op_name(rows[k].first),
                cmp_op_name(rows[k].second));
    fclose(f);
    free(rows);
}

static prof_table *prof_new_table(void) {
    prof_table *t = calloc(1, sizeof *t + (size_t)CMP_OP_COUNT * CMP_OP_COUNT * sizeof(uint64_t));
    if (!t) {
        fprintf(stderr, "weft: out of memory for the pair profile\n");
        abort(); /* a measuring build: better no profile than a wrong one */
    }
    pthread_mutex_lock(&prof_lock);
    if (!prof_tables) {
        for (uint32_t i = 0; i < CMP_OP_COUNT; i++) prof_is_pair[i] = strchr(cmp_op_name(i), '+') != NULL;
        atexit(prof_dump);
    }
    t->next = prof_tables;
    prof_tables = t;
    pthread_mutex_unlock(&prof_lock);
    return t;
}

const uint32_t *exec_profile_dispatch(const uint32_t *prev, const uint32_t *ip) {
    prof_table *t = prof_mine;
    if (BASE_UNLIKELY(!t)) t = prof_mine = prof_new_table();
    t->dispatches++;
    if (prev) {
        const uint32_t *end = prev + cmp_op_length(prev);
        if (prof_is_pair[prev[0]]) end += cmp_op_length(end);
        if (end == ip) {
            t->fallthrough++;
            t->counts[(size_t)prev[0] * CMP_OP_COUNT + ip[0]]++;
        }
    }
    return ip;
}

#else
typedef int exec_profile_unused; /* an empty file is not valid C */
#endif
