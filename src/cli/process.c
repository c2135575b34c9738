/*
 * process.c — `weft run` for WASI commands that import their memory or
 * spawn threads (wasi-threads): run as a weft_process, and turn its
 * outcome into an exit status and a report on stderr.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

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
                    weft_wasi *wasi) {
    weft_process_config pc;
    memset(&pc, 0, sizeof pc);
    pc.max_threads = o->max_threads;
    weft_process *proc = NULL;
    weft_error err;
    weft_status st = WEFT_OK;
    if (o->sched_pool) {
        weft_sched_config sc = {.runners = o->runners};
        st = weft_sched_new(engine, &sc, &pc.sched, &err);
    }
    if (st == WEFT_OK) st = weft_process_new(engine, module, wasi, &pc, &proc, &err);
    if (st != WEFT_OK) {
        weft_sched_free(pc.sched);
        if (st == WEFT_ERR_TRAP) {
            cli_print_trap(&err);
            return CLI_EXIT_TRAP;
        }
        fprintf(stderr, "error: %s: %s: %s\n", o->file, weft_status_name(st), err.message);
        return st == WEFT_ERR_LINK || st == WEFT_ERR_MISUSE ? CLI_EXIT_USAGE : CLI_EXIT_FAILURE;
    }
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
            fprintf(stderr, "error: %s", report);
            rc = CLI_EXIT_TRAP;
            break;
        default:
            fprintf(stderr, "error: %s", report);
            rc = CLI_EXIT_FAILURE;
            break;
        }
    }
    weft_process_free(proc);
    weft_sched_free(pc.sched);
    return rc;
}
