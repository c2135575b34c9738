/*
 * process.c — `weft run` for WASI commands that import their memory or
 * spawn threads (wasi-threads): run as a weft_process, and turn its
 * outcome into an exit status and a report on stderr.
 *
 * SIGQUIT (Ctrl-\) prints what every thread is doing (weft_process_dump,
 * under --sched pool and --sched os) on stderr and the program goes on, like a JVM's
 * thread dump: the signal is blocked in every thread, and one thread of
 * weft's takes it with sigwait, so the dump runs in no signal handler.
 */
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The scheduler of --sched pool (NULL under --sched os), the process once
   made, and the thread that dumps them on SIGQUIT. */
typedef struct cli_pool {
    weft_sched *sched;
    _Atomic(weft_process *) proc;
    sigset_t old_mask;
    pthread_t dumper;
    bool dumping;
    _Atomic bool done;
} cli_pool;

static void *cli_dump_main(void *arg) {
    cli_pool *d = arg;
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGQUIT);
    for (;;) {
        int sig;
        if (sigwait(&set, &sig) != 0 || atomic_load(&d->done)) break;
        /* The process's own dump (on OS threads, its records; on a pool,
           its agents); before it exists, the scheduler's. */
        weft_process *proc = atomic_load(&d->proc);
        size_t need = (proc ? weft_process_dump(proc, NULL, 0) : weft_sched_dump(d->sched, NULL, 0)) + 1;
        char *buf = malloc(need);
        if (!buf) continue;
        if (proc) weft_process_dump(proc, buf, need);
        else weft_sched_dump(d->sched, buf, need);
        fprintf(stderr, "weft: what every thread is doing (SIGQUIT):\n%s", buf);
        free(buf);
    }
    return NULL;
}

/* Blocks SIGQUIT (so every thread of weft's inherits the mask), makes the
   scheduler (--sched pool), then the thread that takes the signal. */
static weft_status cli_pool_start(cli_pool *d, weft_engine *engine, const cli_run_opts *o, weft_error *err) {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGQUIT);
    atomic_init(&d->done, false);
    atomic_init(&d->proc, NULL);
    pthread_sigmask(SIG_BLOCK, &set, &d->old_mask);
    weft_status st = WEFT_OK;
    if (o->sched_pool) {
        weft_sched_config sc = {.runners = o->runners, .max_runners = o->max_runners,
                                .deterministic = o->deterministic, .seed = o->seed,
                                .pct_depth = o->pct_depth, .pct_steps = o->pct_steps};
        st = weft_sched_new(engine, &sc, &d->sched, err);
    }
    if (st == WEFT_OK) d->dumping = pthread_create(&d->dumper, NULL, cli_dump_main, d) == 0;
    return st;
}

static void cli_dump_stop(cli_pool *d) {
    if (d->dumping) {
        atomic_store(&d->done, true);
        pthread_kill(d->dumper, SIGQUIT);
        pthread_join(d->dumper, NULL);
        d->dumping = false;
    }
}

static void cli_pool_stop(cli_pool *d) {
    cli_dump_stop(d);
    weft_sched_free(d->sched);
    pthread_sigmask(SIG_SETMASK, &d->old_mask, NULL);
}

bool cli_wants_process(const weft_module *m) {
    uint32_t n = weft_module_import_count(m);
    for (uint32_t i = 0; i < n; i++) {
        weft_name mod, name;
        weft_externtype t;
        if (weft_module_import(m, i, &mod, &name, &t) != WEFT_OK) continue;
        if (t.kind == WEFT_EXTERN_MEMORY) return true;
        if (t.kind == WEFT_EXTERN_FUNC && weft_name_is(mod, "wasi") &&
            weft_name_is(name, "thread-spawn"))
            return true;
    }
    return false;
}

int cli_run_process(const cli_run_opts *o, weft_engine *engine, weft_module *module,
                    weft_wasi *wasi, bool plain) {
    weft_process_config pc;
    memset(&pc, 0, sizeof pc);
    pc.max_threads = o->max_threads;
    pc.timeout_ns = o->timeout_ns;
    pc.fuel = o->fuel;
    pc.max_memory_bytes = o->max_memory; /* one budget: memories, tables, thread stacks */
    weft_process *proc = NULL;
    weft_error err;
    weft_status st = WEFT_OK;
    cli_pool pool = {0};
    if (o->deterministic && !o->sched_pool) {
        fprintf(stderr, "error: --deterministic runs on a scheduler of its own; drop --sched os\n");
        return CLI_EXIT_USAGE;
    }
    st = cli_pool_start(&pool, engine, o, &err);
    pc.sched = pool.sched;
    if (st == WEFT_OK) st = weft_process_new(engine, module, wasi, &pc, &proc, &err);
    if (st != WEFT_OK) {
        cli_pool_stop(&pool);
        if (st == WEFT_ERR_TRAP || st == WEFT_ERR_EXCEPTION) {
            cli_print_trap(&err);
            return CLI_EXIT_TRAP;
        }
        if (st == WEFT_ERR_EXIT) return err.exit_code & 0xff; /* proc_exit in the start function */
        fprintf(stderr, "error: %s: %s: %s\n", o->file, weft_status_name(st), err.message);
        return st == WEFT_ERR_LINK || st == WEFT_ERR_MISUSE ? CLI_EXIT_USAGE : CLI_EXIT_FAILURE;
    }
    atomic_store(&pool.proc, proc);
    weft_process_outcome out;
    st = weft_process_run(proc, &out);
    fflush(stdout);
    int rc;
    const char *report = weft_process_report(proc);
    if (st != WEFT_OK) {
        fprintf(stderr, "error: %s\n", report[0] ? report : weft_status_name(st));
        rc = CLI_EXIT_FAILURE;
    } else {
        switch (out.end) {
        case WEFT_PROCESS_EXIT:
            fputs(report, stderr); /* a note on a failed thread-spawn, if any */
            rc = out.exit_code & 0xff;
            break;
        case WEFT_PROCESS_TRAP:
            if (plain) cli_print_trap(&out.error);
            else fprintf(stderr, "error: %s", report);
            rc = CLI_EXIT_TRAP;
            break;
        case WEFT_PROCESS_TIMEOUT:
            cli_print_timeout(o);
            rc = CLI_EXIT_TIMEOUT;
            break;
        default:
            fprintf(stderr, "error: %s", report);
            rc = CLI_EXIT_FAILURE;
            break;
        }
    }
    cli_dump_stop(&pool); /* first: it may look at the process */
    weft_process_free(proc);
    cli_pool_stop(&pool);
    return rc;
}
