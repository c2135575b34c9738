/*
 * cli.h — the `weft` command, shared between its files. Uses the public
 * API (weft.h) only.
 */
#ifndef WEFT_CLI_H
#define WEFT_CLI_H

#include <stdint.h>

#include "weft.h"

#define CLI_VERSION "0.1.0"

/* Exit statuses, as documented in `weft --help`. */
#define CLI_EXIT_FAILURE 1  /* validate: not valid; run: a runtime error */
#define CLI_EXIT_USAGE 2    /* bad arguments; run: module not loadable */
#define CLI_EXIT_TRAP 134   /* a trap (128 + SIGABRT, as wasmtime) */

/* The CLI's default wasm operand/frame stack: big real programs (language
   interpreters, synthesis tools) recurse deeply. Address space only: the
   engine maps it lazily. */
#define CLI_DEFAULT_STACK (64ull << 20)

typedef struct cli_run_opts {
    const char **dirs;      /* "HOST[::GUEST]" */
    uint32_t ndirs;
    const char **envs;      /* "K=V" (or "K": inherit) */
    uint32_t nenvs;
    const char **listens;   /* "HOST:PORT" */
    uint32_t nlistens;
    const char *invoke;     /* export to call instead of _start, or NULL */
    uint64_t max_memory;    /* 0 = no bound */
    uint64_t max_stack;     /* 0 = CLI_DEFAULT_STACK */
    uint32_t max_threads;   /* wasi-threads alive at once; 0 = default (128) */
    bool sched_pool;        /* --sched pool: threads as agents of a scheduler */
    uint32_t runners;       /* its runner threads; 0 = the cores */
    uint32_t max_runners;   /* with replacements; 0 = the scheduler's default */
    const char *file;
    const char **args;      /* guest arguments after FILE */
    uint32_t nargs;
} cli_run_opts;

/* `weft run`: returns the process exit status. */
int cli_run(const cli_run_opts *opts);
/* process.c: true for a command that imports its memory or spawns threads;
   such a command runs as a weft_process (wasi-threads). */
bool cli_wants_process(const weft_module *module);
int cli_run_process(const cli_run_opts *opts, weft_engine *engine, weft_module *module,
                    weft_wasi *wasi);
/* Prints `error: trap: ...` and the backtrace for err to stderr. */
void cli_print_trap(const weft_error *err);
/* Formats a float as Rust's Display does (shortest round-trip digits, no
   exponent), as wasmtime prints --invoke results. */
void cli_format_f64(double v, char *out, size_t size);
void cli_format_f32(float v, char *out, size_t size);

#endif
