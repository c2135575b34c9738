/*
 * explore.c — `weft run --explore N`: the program run N times in one weft
 * process (compiled once), each on its own deterministic scheduler with
 * seed S, S+1, ..., S+N-1 (S: --explore-seed, default 1), its stdout and
 * stderr kept in memory and its stdin empty. The runs are grouped by
 * outcome (how the process ended, the exit code or trap, a hash of
 * stdout), and each outcome is printed with its count and the first seed
 * that gives it, so `weft run --deterministic SEED` replays that run.
 * Exit status: 0 when every run had the same outcome, 1 when they differ.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cli.h"

typedef struct cli_outcome_group {
    weft_process_end end;
    int32_t code;         /* exit code, or trap kind */
    uint64_t out_hash;    /* FNV-1a of stdout */
    char what[600];       /* in words, for the report */
    char first_out[64];   /* the start of stdout, for the report */
    uint64_t first_seed;
    uint64_t count;
} cli_outcome_group;

static uint64_t cli_fnv(const char *p, size_t n, uint64_t h) {
    for (size_t i = 0; i < n; i++) h = (h ^ (uint8_t)p[i]) * 0x100000001b3ull;
    return h;
}

/* Reads all of memfd `fd` (from 0), hashing it, keeping its start. */
static uint64_t cli_memfd_hash(int fd, char *start, size_t len) {
    uint64_t h = 0xcbf29ce484222325ull;
    char buf[4096];
    ssize_t n;
    size_t kept = 0;
    lseek(fd, 0, SEEK_SET);
    while ((n = read(fd, buf, sizeof buf)) > 0) {
        h = cli_fnv(buf, (size_t)n, h);
        for (ssize_t i = 0; i < n && kept + 1 < len; i++) start[kept++] = buf[i] == '\n' ? ' ' : buf[i];
    }
    start[kept] = '\0';
    return h;
}

int cli_explore(const cli_run_opts *o, weft_engine *engine, weft_module *module,
                const weft_wasi_config *base) {
    int out_fd = memfd_create("weft-explore-stdout", MFD_CLOEXEC);
    int err_fd = memfd_create("weft-explore-stderr", MFD_CLOEXEC);
    int null_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    cli_outcome_group *groups = NULL;
    size_t ngroups = 0, cap = 0;
    int rc = CLI_EXIT_FAILURE;
    if (out_fd < 0 || err_fd < 0 || null_fd < 0) {
        perror("error: --explore");
        goto out;
    }
    uint64_t pct_steps = o->pct_steps;
    /* PCT needs the run's length: the run before the first (a random
       walk) measures it when --pct gave none. */
    for (uint64_t i = o->pct_depth && !pct_steps ? (uint64_t)-1 : 0; i == (uint64_t)-1 || i < o->explore; i++) {
        bool measuring = i == (uint64_t)-1;
        uint64_t seed = measuring ? o->explore_seed : o->explore_seed + i;
        if (ftruncate(out_fd, 0) != 0 || ftruncate(err_fd, 0) != 0) {
            perror("error: --explore");
            goto out;
        }
        lseek(out_fd, 0, SEEK_SET);
        lseek(err_fd, 0, SEEK_SET);
        weft_wasi_config wc = *base;
        wc.stdio[0] = null_fd;
        wc.stdio[1] = out_fd;
        wc.stdio[2] = err_fd;
        weft_error err;
        weft_wasi *wasi = NULL;
        weft_sched *sched = NULL;
        weft_process *proc = NULL;
        weft_sched_config sc = {.deterministic = true, .seed = seed,
                                .pct_depth = measuring ? 0 : o->pct_depth, .pct_steps = pct_steps};
        weft_process_config pc;
        memset(&pc, 0, sizeof pc);
        pc.max_threads = o->max_threads;
        pc.timeout_ns = o->timeout_ns;
        pc.fuel = o->fuel;
        weft_status st = weft_wasi_new(&wc, &wasi, &err);
        if (st == WEFT_OK) st = weft_sched_new(engine, &sc, &sched, &err);
        pc.sched = sched;
        if (st == WEFT_OK) st = weft_process_new(engine, module, wasi, &pc, &proc, &err);
        weft_process_outcome out;
        if (st == WEFT_OK) st = weft_process_run(proc, &out);
        weft_process_free(proc);
        if (measuring) pct_steps = weft_sched_executed(sched) ? weft_sched_executed(sched) : 1;
        weft_sched_free(sched);
        weft_wasi_free(wasi);
        if (st != WEFT_OK) {
            fprintf(stderr, "error: --explore, seed %llu: %s: %s\n", (unsigned long long)seed,
                    weft_status_name(st), err.message);
            goto out;
        }
        if (measuring) continue;
        char start[sizeof groups->first_out];
        uint64_t h = cli_memfd_hash(out_fd, start, sizeof start);
        int32_t code = out.end == WEFT_PROCESS_EXIT ? out.exit_code
                       : out.end == WEFT_PROCESS_TRAP ? (int32_t)out.error.trap : 0;
        size_t g = 0;
        while (g < ngroups && !(groups[g].end == out.end && groups[g].code == code && groups[g].out_hash == h))
            g++;
        if (g == ngroups) {
            if (ngroups == cap) {
                cap = cap ? 2 * cap : 8;
                cli_outcome_group *more = realloc(groups, cap * sizeof *groups);
                if (!more) {
                    fprintf(stderr, "error: out of memory\n");
                    goto out;
                }
                groups = more;
            }
            cli_outcome_group *n = &groups[ngroups++];
            memset(n, 0, sizeof *n);
            n->end = out.end;
            n->code = code;
            n->out_hash = h;
            n->first_seed = seed;
            snprintf(n->first_out, sizeof n->first_out, "%s", start);
            switch (out.end) {
            case WEFT_PROCESS_EXIT: snprintf(n->what, sizeof n->what, "exit %d", (int)code); break;
            case WEFT_PROCESS_TRAP:
                snprintf(n->what, sizeof n->what, "trap in thread %u: %.500s", out.tid, out.error.message);
                break;
            case WEFT_PROCESS_DEADLOCK: snprintf(n->what, sizeof n->what, "deadlock"); break;
            case WEFT_PROCESS_TIMEOUT: snprintf(n->what, sizeof n->what, "timeout"); break;
            default: snprintf(n->what, sizeof n->what, "%.500s", out.error.message); break;
            }
        }
        groups[g].count++;
    }
    printf("explored %llu runs (seeds %llu..%llu): %zu distinct outcome%s\n",
           (unsigned long long)o->explore, (unsigned long long)o->explore_seed,
           (unsigned long long)(o->explore_seed + o->explore - 1), ngroups, ngroups == 1 ? "" : "s");
    char pct[48] = "";
    if (o->pct_depth)
        snprintf(pct, sizeof pct, " --pct %u:%llu", o->pct_depth, (unsigned long long)pct_steps);
    for (size_t g = 0; g < ngroups; g++)
        printf("  %llu runs: %s, stdout %016llx \"%s\"; replay: weft run --deterministic %llu%s %s\n",
               (unsigned long long)groups[g].count, groups[g].what, (unsigned long long)groups[g].out_hash,
               groups[g].first_out, (unsigned long long)groups[g].first_seed, pct, o->file);
    rc = ngroups == 1 ? 0 : CLI_EXIT_FAILURE;
out:
    free(groups);
    if (out_fd >= 0) close(out_fd);
    if (err_fd >= 0) close(err_fd);
    if (null_fd >= 0) close(null_fd);
    return rc;
}
