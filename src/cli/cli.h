/*
 * cli.h — the `weft` command, shared between its files. Uses the public
 * API (weft.h) only.
 */
#ifndef WEFT_CLI_H
#define WEFT_CLI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "weft.h"

#define CLI_VERSION WEFT_VERSION

/* Exit statuses, as documented in `weft --help`. */
#define CLI_EXIT_FAILURE 1  /* validate: not valid; run: a runtime error */
#define CLI_EXIT_USAGE 2    /* bad arguments; run: module not loadable */
#define CLI_EXIT_TRAP 134   /* a trap (128 + SIGABRT, as wasmtime) */
#define CLI_EXIT_TIMEOUT 124 /* --timeout passed (as timeout(1)) */

/* The CLI's default wasm operand/frame stack: big real programs (language
   interpreters, synthesis tools) recurse deeply. Address space only: the
   engine maps it lazily. */
#define CLI_DEFAULT_STACK (64ull << 20)

/* The options of `weft run` (options.c holds their names and help). */
typedef enum cli_opt_id {
    CLI_OPT_NONE,             /* a refused wasmtime key */
    CLI_OPT_NOOP,             /* a wasmtime key for what weft always does */
    CLI_OPT_DIR,
    CLI_OPT_ENV,
    CLI_OPT_INHERIT_ENV,
    CLI_OPT_LISTEN,
    CLI_OPT_NET,              /* -S inherit-network, allow-ip-name-lookup, tcp, udp
                                 [=y|n]: the WEFT_WASI_NET_* bit of the key */
    CLI_OPT_ARGV0,
    CLI_OPT_INVOKE,
    CLI_OPT_MAX_MEMORY,
    CLI_OPT_MAX_STACK,
    CLI_OPT_MAX_THREADS,
    CLI_OPT_TIMEOUT,
    CLI_OPT_FUEL,
    CLI_OPT_SCHED,
    CLI_OPT_TIER,
    CLI_OPT_RUNNERS,
    CLI_OPT_MAX_RUNNERS,
    CLI_OPT_DETERMINISTIC,
    CLI_OPT_EXPLORE,
    CLI_OPT_EXPLORE_SEED,
    CLI_OPT_PCT,
    CLI_OPT_WASI,             /* -S KEY[=VALUE] */
    CLI_OPT_WASM,             /* -W KEY[=VALUE] */
    CLI_OPT_THREADS_PROPOSAL, /* -W threads[=y|n] */
    CLI_OPT_SIMD_PROPOSAL,    /* -W simd[=y|n] */
    CLI_OPT_FEATURE,          /* -W KEY[=y|n] of a Wasm 3.0 feature: KEY is its
                                 weft_feature_name() */
} cli_opt_id;

typedef struct cli_option {
    cli_opt_id id;
    const char *name;    /* "--dir" */
    const char *metavar; /* its value, or NULL for a flag */
    const char *help;    /* one paragraph */
} cli_option;

/* A key of wasmtime's -S (WASI) or -W (wasm) options. */
typedef struct cli_wasmtime_key {
    char group;          /* 'S' or 'W' */
    const char *key;
    const char *value;   /* how its value is written ("=N", "[=y|n]"), or NULL */
    cli_opt_id id;       /* what it does; CLI_OPT_NONE: refused */
    const char *weft;    /* the weft spelling it maps to, for the help; NULL: refused */
    const char *advice;  /* why it is refused and what to use (for NOOP keys: why
                            "=n" is refused; for FEATURE keys: why "=y" is, when
                            this build lacks the feature) */
} cli_wasmtime_key;

/* A wasmtime option weft refuses, and what to use instead. */
typedef struct cli_wasmtime_refused {
    const char *name;
    bool takes_value;
    const char *advice;
} cli_wasmtime_refused;

extern const cli_option cli_options[];
extern const size_t cli_option_count;
extern const cli_wasmtime_key cli_wasmtime_keys[];
extern const size_t cli_wasmtime_key_count;
extern const cli_wasmtime_refused cli_wasmtime_refused_opts[];
extern const size_t cli_wasmtime_refused_count;

/* `weft --help` and the man page (`weft --help-man`), from the tables. */
void cli_help(FILE *f);
void cli_man(FILE *f);

typedef struct cli_run_opts {
    const char **dirs;      /* "HOST[::GUEST]" */
    uint32_t ndirs;
    const char **envs;      /* "K=V" (or "K": inherit) */
    uint32_t nenvs;
    const char **listens;   /* "HOST:PORT" */
    uint32_t nlistens;
    bool inherit_env;       /* --inherit-env, -S inherit-env */
    uint32_t net_on, net_off; /* WEFT_WASI_NET_* bits -S turned on / off (the last one wins) */
    const char *argv0;      /* --argv0, or NULL: FILE */
    const char *invoke;     /* export to call instead of _start, or NULL */
    uint64_t timeout_ns;    /* --timeout; 0 = none */
    const char *timeout_text; /* as written, for the message */
    uint64_t fuel;          /* --fuel; 0 = unmetered */
    uint32_t tier;          /* --tier: WEFT_TIER_INTERP (default), _JIT or _AUTO */
    bool no_threads_proposal; /* -W threads=n */
    bool no_simd_proposal;    /* -W simd=n */
    uint32_t disabled_features; /* WEFT_FEATURE_* bits of -W KEY=n (Wasm 3.0 features) */
    uint64_t max_memory;    /* 0 = no bound */
    uint64_t max_stack;     /* 0 = CLI_DEFAULT_STACK */
    uint32_t max_threads;   /* wasi-threads alive at once; 0 = default (128) */
    bool sched_pool;        /* threads as agents of a scheduler (default; --sched os: not) */
    bool deterministic;     /* --deterministic SEED: the scheduler's deterministic mode */
    uint64_t seed;
    uint64_t explore;       /* --explore N: runs, 0 = not exploring */
    uint64_t explore_seed;  /* the first run's seed (default 1) */
    uint32_t pct_depth;     /* --pct D[:STEPS]: deterministic runs use PCT of depth D */
    uint64_t pct_steps;     /* ... over the first STEPS safe points (0: explore measures) */
    uint32_t runners;       /* its runner threads; 0 = the cores */
    uint32_t max_runners;   /* with replacements; 0 = the scheduler's default */
    const char **owned;     /* strings the options point into; freed after */
    uint32_t nowned;
    const char *file;
    const char **args;      /* guest arguments after FILE */
    uint32_t nargs;
} cli_run_opts;

/* `weft run`: returns the process exit status. */
int cli_run(const cli_run_opts *opts);
/* `weft run` of a component (component.c), with the WASI configuration
   the options made. */
int cli_run_component(const cli_run_opts *opts, weft_engine *engine, const weft_wasi_config *wc);
/* --invoke 'name(args)' of an instantiated component (component_invoke.c):
   the WAVE call parsed against the export's type, called, its result
   printed in WAVE on stdout. Returns the exit status. */
int cli_invoke_component(const cli_run_opts *opts, weft_component_instance *ci);
/* process.c: true for a command that imports its memory or spawns threads;
   such a command runs as a weft_process (wasi-threads). */
bool cli_wants_process(const weft_module *module);
/* `plain`: the module would not run as a process but for a limit; its
   trap is then printed as without one ("error: trap: ..."). */
int cli_run_process(const cli_run_opts *opts, weft_engine *engine, weft_module *module,
                    weft_wasi *wasi, bool plain);
/* "error: timeout: ..." for --timeout. */
void cli_print_timeout(const cli_run_opts *opts);
/* Prints `error: trap: ...` and the backtrace for err to stderr. */
void cli_print_trap(const weft_error *err);
/* Formats a float as Rust's Display does (shortest round-trip digits, no
   exponent), as wasmtime prints --invoke results. */
void cli_format_f64(double v, char *out, size_t size);
void cli_format_f32(float v, char *out, size_t size);

/* --explore N (explore.c): N deterministic runs of `module`, each with
   `base` and its own in-memory stdio; prints the distinct outcomes. */
int cli_explore(const cli_run_opts *o, weft_engine *engine, weft_module *module,
                const weft_wasi_config *base);

/* What the file at path is, from its first 8 bytes (weft_binary_kind);
   WEFT_BINARY_UNKNOWN when it cannot be read (the loader then says why). */
weft_binary_type cli_file_kind(const char *path);

#endif
