/*
 * main.c — the `weft` command: argument parsing, help, `weft validate`.
 * `weft run` itself is in run.c.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

static void cli_usage_error(const char *fmt, const char *arg) {
    fprintf(stderr, "error: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n(see 'weft --help')\n");
}

static void cli_help(FILE *f) {
    fprintf(f,
        "weft %s - a WebAssembly runtime\n"
        "\n"
        "Usage:\n"
        "  weft run [OPTIONS] [--] FILE.wasm [ARGS...]   run a WASI command (or --invoke an export)\n"
        "  weft FILE.wasm [ARGS...]                      the same as 'weft run FILE.wasm ...'\n"
        "  weft validate FILE.wasm                       check a module; prints \"valid\" or why not\n"
        "  weft --help | --version\n"
        "\n"
        "Options of 'weft run' (before FILE; everything after FILE goes to the program):\n"
        "  --dir HOST[::GUEST]    give the program the host directory HOST, seen as GUEST\n"
        "                         (default: HOST as written); repeatable\n"
        "  --env NAME=VALUE       set an environment variable (--env NAME copies weft's own);\n"
        "                         repeatable. The program sees no other variables.\n"
        "  --listen HOST:PORT     open a listening TCP socket for the program (sock_accept);\n"
        "                         repeatable; fds follow the --dir fds\n"
        "  --invoke NAME          call the export NAME with ARGS parsed by its parameter types\n"
        "                         (integers in decimal, floats as decimal numbers, nan, inf)\n"
        "                         and print each result on its own line, instead of _start\n"
        "  --max-memory BYTES     cap every linear memory (memory.grow fails past it)\n"
        "  --max-stack BYTES      wasm operand/frame stack per execution (default 64M);\n"
        "                         exceeding it traps with \"call stack exhausted\"\n"
        "  --max-threads N        wasi-threads alive at once, the main thread included\n"
        "                         (default 128); thread-spawn past it returns -EAGAIN\n"
        "  --sched os|pool        run wasi-threads on one OS thread each (os, the default),\n"
        "                         or as agents of a scheduler's few runner threads (pool)\n"
        "  --runners N            runner threads of --sched pool (default: the cores)\n"
        "  --max-runners N        with the runners that stand in for ones held in a\n"
        "                         blocking host call (default 4 x runners + 4)\n"
        "  --                     end of options\n"
        "  BYTES may end in K, M or G (powers of 1024).\n"
        "\n"
        "The program's argv[0] is FILE as written. Its stdin, stdout and stderr are weft's.\n"
        "\n"
        "Exit status of 'weft run':\n"
        "  the program's proc_exit code (0 when _start returns; proc_raise(SIG) gives 128+SIG);\n"
        "  134 on a trap, after 'error: trap: MESSAGE' and a backtrace on stderr;\n"
        "  2 when the module cannot be read, decoded, validated or linked, or the arguments\n"
        "    are wrong (the reason is printed);\n"
        "  1 on any other runtime error, a deadlock between threads included.\n"
        "With threads (wasi-threads), a trap in thread N prints 'error: thread N: MESSAGE'.\n"
        "Exit status of 'weft validate': 0 valid, 1 not valid (or unreadable), 2 bad arguments.\n"
        "\n",
        CLI_VERSION);
    uint32_t n = weft_wasi_function_count();
    fprintf(f,
        "WASI functions implemented (%u, module wasi_snapshot_preview1; those marked * are\n"
        "not under wasi_unstable, every other one is):\n", n);
    int col = 0;
    for (uint32_t i = 0; i < n; i++) {
        weft_wasi_function_info info;
        if (weft_wasi_function(i, &info) != WEFT_OK) continue;
        char item[64];
        snprintf(item, sizeof item, "%s%s", info.name, info.in_unstable ? "" : "*");
        int len = (int)strlen(item);
        if (col > 0 && col + 1 + len > 78) {
            fputc('\n', f);
            col = 0;
        }
        col += fprintf(f, "%s%s", col ? " " : "  ", item);
    }
    fprintf(f, "\n");
}

/* Parses BYTES with an optional K/M/G suffix. */
/* A count from 1 to max, in decimal; 0 when it is one, else -1. */
static int cli_parse_count(const char *s, uint32_t max, uint32_t *out) {
    char *end;
    errno = 0;
    unsigned long n = strtoul(s, &end, 10);
    if (errno || end == s || *end || n == 0 || n > max) return -1;
    *out = (uint32_t)n;
    return 0;
}

static int cli_parse_bytes(const char *s, uint64_t *out) {
    if (!s || !*s || *s == '-') return -1;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s) return -1;
    unsigned shift = 0;
    if (*end == 'k' || *end == 'K') shift = 10, end++;
    else if (*end == 'm' || *end == 'M') shift = 20, end++;
    else if (*end == 'g' || *end == 'G') shift = 30, end++;
    if (*end == 'i' || *end == 'I') end++;
    if ((*end == 'b' || *end == 'B') && shift) end++;
    if (*end) return -1;
    if (shift && v > (UINT64_MAX >> shift)) return -1;
    *out = (uint64_t)v << shift;
    return 0;
}

static int cli_validate(int argc, char **argv) {
    const char *file = NULL;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--") == 0) {
            if (i + 1 < argc && !file) file = argv[++i];
            if (i + 1 < argc) {
                cli_usage_error("'weft validate' takes one file, got also '%s'", argv[i + 1]);
                return CLI_EXIT_USAGE;
            }
            break;
        }
        if (argv[i][0] == '-' && argv[i][1]) {
            cli_usage_error("unknown option '%s' for 'weft validate'", argv[i]);
            return CLI_EXIT_USAGE;
        }
        if (file) {
            cli_usage_error("'weft validate' takes one file, got also '%s'", argv[i]);
            return CLI_EXIT_USAGE;
        }
        file = argv[i];
    }
    if (!file) {
        cli_usage_error("%s", "'weft validate' needs a FILE.wasm");
        return CLI_EXIT_USAGE;
    }
    weft_engine *engine = weft_engine_new(NULL);
    if (!engine) {
        fprintf(stderr, "error: out of memory\n");
        return CLI_EXIT_FAILURE;
    }
    weft_module *module = NULL;
    weft_error err;
    weft_status st = weft_module_load_file(engine, file, &module, &err);
    int rc;
    if (st == WEFT_OK) {
        printf("valid\n");
        rc = 0;
    } else {
        fprintf(stderr, "error: %s: %s: %s\n", file, weft_status_name(st), err.message);
        rc = CLI_EXIT_FAILURE;
    }
    weft_module_release(module);
    weft_engine_free(engine);
    return rc;
}

/* Grows a string array by one. */
static int cli_push(const char ***arr, uint32_t *n, const char *s) {
    const char **a = realloc(*arr, (*n + 1) * sizeof *a);
    if (!a) return -1;
    a[(*n)++] = s;
    *arr = a;
    return 0;
}

/* Matches "--name VALUE" or "--name=VALUE"; advances *i past the value. */
static int cli_opt(int argc, char **argv, int *i, const char *name, const char **val) {
    const char *a = argv[*i];
    size_t n = strlen(name);
    if (strncmp(a, name, n) != 0) return 0;
    if (a[n] == '=') {
        *val = a + n + 1;
        return 1;
    }
    if (a[n] != '\0') return 0;
    if (*i + 1 >= argc) {
        *val = NULL;
        return -1;
    }
    *val = argv[++*i];
    return 1;
}

static int cli_run_main(int argc, char **argv) {
    cli_run_opts o;
    memset(&o, 0, sizeof o);
    int rc = CLI_EXIT_USAGE;
    int i = 0;
    for (; i < argc; i++) {
        const char *a = argv[i], *v;
        int m;
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (a[0] != '-' || a[1] == '\0') break; /* FILE */
        if ((m = cli_opt(argc, argv, &i, "--dir", &v))) {
            if (m < 0 || !*v) goto missing;
            if (cli_push(&o.dirs, &o.ndirs, v)) goto oom;
        } else if ((m = cli_opt(argc, argv, &i, "--env", &v))) {
            if (m < 0 || !*v || *v == '=') {
                if (m < 0) goto missing;
                cli_usage_error("bad --env '%s': expected NAME=VALUE or NAME", v);
                goto out;
            }
            if (cli_push(&o.envs, &o.nenvs, v)) goto oom;
        } else if ((m = cli_opt(argc, argv, &i, "--listen", &v))) {
            if (m < 0) goto missing;
            if (!strchr(v, ':')) {
                cli_usage_error("bad --listen '%s': expected HOST:PORT", v);
                goto out;
            }
            if (cli_push(&o.listens, &o.nlistens, v)) goto oom;
        } else if ((m = cli_opt(argc, argv, &i, "--invoke", &v))) {
            if (m < 0) goto missing;
            o.invoke = v;
        } else if ((m = cli_opt(argc, argv, &i, "--max-memory", &v))) {
            if (m < 0) goto missing;
            if (cli_parse_bytes(v, &o.max_memory) || o.max_memory == 0) {
                cli_usage_error("bad --max-memory '%s': expected a positive number of bytes", v);
                goto out;
            }
        } else if ((m = cli_opt(argc, argv, &i, "--max-stack", &v))) {
            if (m < 0) goto missing;
            if (cli_parse_bytes(v, &o.max_stack) || o.max_stack < 4096) {
                cli_usage_error("bad --max-stack '%s': expected a number of bytes (at least 4096)", v);
                goto out;
            }
        } else if ((m = cli_opt(argc, argv, &i, "--max-threads", &v))) {
            if (m < 0) goto missing;
            if (cli_parse_count(v, 100000, &o.max_threads)) {
                cli_usage_error("bad --max-threads '%s': expected a number from 1 to 100000", v);
                goto out;
            }
        } else if ((m = cli_opt(argc, argv, &i, "--sched", &v))) {
            if (m < 0) goto missing;
            if (strcmp(v, "os") == 0) o.sched_pool = false;
            else if (strcmp(v, "pool") == 0) o.sched_pool = true;
            else {
                cli_usage_error("bad --sched '%s': expected os or pool", v);
                goto out;
            }
        } else if ((m = cli_opt(argc, argv, &i, "--runners", &v))) {
            if (m < 0) goto missing;
            if (cli_parse_count(v, 1024, &o.runners)) {
                cli_usage_error("bad --runners '%s': expected a number from 1 to 1024", v);
                goto out;
            }
        } else if ((m = cli_opt(argc, argv, &i, "--max-runners", &v))) {
            if (m < 0) goto missing;
            if (cli_parse_count(v, 4096, &o.max_runners)) {
                cli_usage_error("bad --max-runners '%s': expected a number from 1 to 4096", v);
                goto out;
            }
        } else {
            cli_usage_error("unknown option '%s' for 'weft run'", a);
            goto out;
        }
        continue;
    missing:
        cli_usage_error("option '%s' needs a value", a);
        goto out;
    }
    if (i >= argc) {
        cli_usage_error("%s", "'weft run' needs a FILE.wasm");
        goto out;
    }
    o.file = argv[i];
    o.args = (const char **)(argv + i + 1);
    o.nargs = (uint32_t)(argc - i - 1);
    rc = cli_run(&o);
    goto out;
oom:
    fprintf(stderr, "error: out of memory\n");
    rc = CLI_EXIT_FAILURE;
out:
    free(o.dirs);
    free(o.envs);
    free(o.listens);
    return rc;
}

int main(int argc, char **argv) {
    /* A write to a closed pipe or socket must come back to the guest as
       EPIPE, not kill weft. */
    signal(SIGPIPE, SIG_IGN);
    if (argc < 2) {
        cli_help(stderr);
        return CLI_EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
        cli_help(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) {
        printf("weft %s\n", CLI_VERSION);
        return 0;
    }
    if (strcmp(cmd, "run") == 0) return cli_run_main(argc - 2, argv + 2);
    if (strcmp(cmd, "validate") == 0) return cli_validate(argc - 2, argv + 2);
    if (cmd[0] == '-') return cli_run_main(argc - 1, argv + 1);
    /* `weft FILE.wasm ARGS...` */
    if (strchr(cmd, '.') || strchr(cmd, '/')) return cli_run_main(argc - 1, argv + 1);
    cli_usage_error("unknown command '%s'", cmd);
    return CLI_EXIT_USAGE;
}
