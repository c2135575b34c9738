/*
 * options.c — the one description of `weft run`'s options: the table the
 * parser (main.c) looks names up in, and the text of `weft --help` and of
 * the man page (`weft --help-man` writes docs/weft.1; `make man` runs it).
 * Help and man page are printed from the same strings, so they cannot
 * disagree; tests/install checks that the committed page is current.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* weft's own options, in the order the help lists them. */
const cli_option cli_options[] = {
    {CLI_OPT_DIR, "--dir", "HOST[::GUEST]",
     "Give the program the host directory HOST, seen as GUEST (default: HOST as written). "
     "Repeatable."},
    {CLI_OPT_ENV, "--env", "NAME[=VALUE]",
     "Set an environment variable; NAME alone copies weft's own value, if it has one. "
     "Repeatable. The program sees no other variables (unless --inherit-env)."},
    {CLI_OPT_INHERIT_ENV, "--inherit-env", NULL,
     "Give the program every environment variable of weft's, before the --env ones."},
    {CLI_OPT_LISTEN, "--listen", "HOST:PORT",
     "Open a listening TCP socket for the program (sock_accept). Repeatable; its fds "
     "follow the --dir fds."},
    {CLI_OPT_ARGV0, "--argv0", "NAME",
     "The program's argv[0] (default: FILE as written)."},
    {CLI_OPT_INVOKE, "--invoke", "NAME",
     "Call the export NAME with ARGS parsed by its parameter types (integers in decimal, "
     "floats as decimal numbers, nan, inf) and print each result on its own line, instead "
     "of running _start."},
    {CLI_OPT_MAX_MEMORY, "--max-memory", "BYTES",
     "Cap every linear memory: memory.grow fails (returns -1) past it. A WASI command that "
     "imports its memory or spawns threads runs under one budget of BYTES: its memories, "
     "tables and every thread's wasm stack as touched; a thread whose stack cannot grow "
     "traps with \"call stack exhausted\"."},
    {CLI_OPT_MAX_STACK, "--max-stack", "BYTES",
     "The wasm operand and frame stack of each execution (default 64M); exceeding it traps "
     "with \"call stack exhausted\"."},
    {CLI_OPT_MAX_THREADS, "--max-threads", "N",
     "wasi-threads alive at once, the main thread included (default 128); thread-spawn past "
     "it returns -EAGAIN."},
    {CLI_OPT_TIMEOUT, "--timeout", "DURATION",
     "Stop the program when it has run this long (wall clock): every thread stops at its "
     "next safe point, those parked in a futex wait or blocked in a WASI call (a read, a "
     "sleep, an accept) included; weft then exits 124. DURATION is a number with a unit: "
     "ns, us, ms, s, m or h (a bare number is seconds), as 5s, 1.5s or 200ms."},
    {CLI_OPT_FUEL, "--fuel", "N",
     "Let the program pass N safe points, then trap with \"all fuel consumed\" (exit 134). "
     "A safe point is a wasm function entered or a branch taken (each loop iteration takes "
     "one), so the count is the same on every run; the threads of a program share the N."},
    {CLI_OPT_TIER, "--tier", "auto|interp|jit",
     "Start every function in the interpreter and compile to x86-64 machine code the ones "
     "that run for a few milliseconds, while they run (auto, the default); or the "
     "interpreter alone (interp); or compile each function on its first call (jit). "
     "Functions with an operation the compiler does not handle yet stay interpreted. "
     "Results, traps, fuel and --deterministic runs are the same on every tier. Builds for "
     "other machines have interp only (weft --version says)."},
    {CLI_OPT_SCHED, "--sched", "os|pool",
     "Run wasi-threads as agents of a scheduler's few runner threads (pool, the "
     "default: waits and blocking WASI calls park without an OS thread), or on one OS "
     "thread each (os)."},
    {CLI_OPT_RUNNERS, "--runners", "N", "Runner threads of --sched pool (default: the cores)."},
    {CLI_OPT_DETERMINISTIC, "--deterministic", "SEED",
     "Run deterministically: one runner, threads giving way after a number of executed safe "
     "points and picked in an order both drawn from SEED (a number), virtual clocks that "
     "advance with executed work, random_get seeded by SEED, a blocking read parked until "
     "no other thread can run (or a virtual second has passed), then waited for in place. "
     "The same SEED and inputs give the same interleaving and output (docs/sched.md)."},
    {CLI_OPT_EXPLORE, "--explore", "N",
     "Run the program N times deterministically, with seeds S to S+N-1 (--explore-seed S, "
     "default 1), stdin empty and stdout kept in memory; print each distinct outcome (how "
     "it ended, a hash of stdout) with its count and the first seed that gives it, for "
     "--deterministic SEED to replay. Exit 1 when the outcomes differ."},
    {CLI_OPT_EXPLORE_SEED, "--explore-seed", "S", "The first seed of --explore (default 1)."},
    {CLI_OPT_PCT, "--pct", "D[:STEPS]",
     "With --deterministic or --explore: schedule by PCT of depth D (1 to 8: random thread "
     "priorities, D-1 priority drops at points drawn from the first STEPS executed safe "
     "points) instead of a random walk. --explore measures STEPS with a first run when it "
     "is not given, and prints it in each replay command."},
    {CLI_OPT_MAX_RUNNERS, "--max-runners", "N",
     "Runner threads of --sched pool at most, replacements of runners held in host calls "
     "included (default 4 x runners + 4)."},
    {CLI_OPT_WASI, "-S", "KEY[=VALUE]",
     "A wasmtime WASI option (also --wasi KEY[=VALUE]; KEY=VALUE,KEY=VALUE lists too): "
     "inherit-env, tcplisten=ADDR, threads, cli, and for a component's wasi:sockets "
     "inherit-network, allow-ip-name-lookup, tcp, udp. See WASMTIME SPELLINGS."},
    {CLI_OPT_WASM, "-W", "KEY[=VALUE]",
     "A wasmtime wasm option (also --wasm KEY[=VALUE]): max-memory-size=N, "
     "max-wasm-stack=N, timeout=DURATION, fuel=N, threads[=y|n], and the always-on "
     "bulk-memory, multi-value, reference-types. See WASMTIME SPELLINGS."},
};
const size_t cli_option_count = sizeof cli_options / sizeof cli_options[0];

/* wasmtime's spellings. A key with `weft` set is accepted and does what
   that weft option does; one with only `advice` is refused with it. Keys
   not listed are refused as unknown. */
const cli_wasmtime_key cli_wasmtime_keys[] = {
    {'S', "inherit-env", "[=y|n]", CLI_OPT_INHERIT_ENV, "--inherit-env", NULL},
    {'S', "tcplisten", "=ADDR", CLI_OPT_LISTEN, "--listen ADDR", NULL},
    {'S', "threads", "[=y]", CLI_OPT_NOOP, "(always on)",
     "wasi-threads is always on in weft: a module that imports wasi.thread-spawn gets it"},
    {'S', "cli", "[=y]", CLI_OPT_NOOP, "(always on)",
     "WASI (preview1 for modules, wasi:cli 0.2 for components) is always on in weft"},
    {'S', "preview2", "[=y]", CLI_OPT_NOOP, "(always on)",
     "WASI 0.2 is always on in weft for components (a module gets preview1)"},
    {'S', "p3", NULL, CLI_OPT_NONE, NULL,
     "weft does not implement WASI 0.3 yet (it needs component-model async): components "
     "run with WASI 0.2"},
    {'S', "http", NULL, CLI_OPT_NONE, NULL, "weft has no wasi-http"},
    {'S', "nn", NULL, CLI_OPT_NONE, NULL, "weft has no wasi-nn"},
    {'S', "network", NULL, CLI_OPT_NONE, NULL,
     "use -S inherit-network (a component's wasi:sockets), or --listen HOST:PORT for a "
     "module's listening socket"},
    /* a component's wasi:sockets (docs/wasi.md "wasi:sockets"); a module
       has no use for them and runs as without */
    {'S', "inherit-network", "[=y|n]", CLI_OPT_NET, "(wasi:sockets reaches any address; off by default)",
     NULL},
    {'S', "allow-ip-name-lookup", "[=y|n]", CLI_OPT_NET, "(wasi:sockets name lookup; off by default)",
     NULL},
    {'S', "tcp", "[=y|n]", CLI_OPT_NET, "(wasi:sockets TCP; on by default)", NULL},
    {'S', "udp", "[=y|n]", CLI_OPT_NET, "(wasi:sockets UDP; on by default)", NULL},
    {'W', "max-memory-size", "=N", CLI_OPT_MAX_MEMORY, "--max-memory N", NULL},
    {'W', "max-wasm-stack", "=N", CLI_OPT_MAX_STACK, "--max-stack N",
     NULL},
    {'W', "timeout", "=DURATION", CLI_OPT_TIMEOUT, "--timeout DURATION", NULL},
    {'W', "fuel", "=N", CLI_OPT_FUEL, "--fuel N", NULL},
    {'W', "threads", "[=y|n]", CLI_OPT_THREADS_PROPOSAL, "(on by default)", NULL},
    {'W', "bulk-memory", "[=y]", CLI_OPT_NOOP, "(always on)",
     "bulk memory is part of Wasm 2.0 and always on in weft"},
    {'W', "multi-value", "[=y]", CLI_OPT_NOOP, "(always on)",
     "multi-value is part of Wasm 2.0 and always on in weft"},
    {'W', "reference-types", "[=y]", CLI_OPT_NOOP, "(always on)",
     "reference types are part of Wasm 2.0 and always on in weft"},
    {'W', "simd", "[=y|n]", CLI_OPT_SIMD_PROPOSAL, "(on by default)", NULL},
    /* Wasm 3.0 features (issue 24): on by default as in wasmtime when this
       build has them; one it lacks is refused with =y (and bare) and
       accepted with =n. main.c asks weft_features_supported(), so the
       texts here only describe this build. */
    {'W', "extended-const", "[=y|n]", CLI_OPT_FEATURE, "(on by default)", NULL},
    {'W', "tail-call", "[=y|n]", CLI_OPT_FEATURE, "(on by default)", NULL},
    {'W', "exceptions", "[=y|n]", CLI_OPT_FEATURE, "(on by default)", NULL},
    {'W', "multi-memory", "[=y|n]", CLI_OPT_FEATURE, "(on by default)", NULL},
    {'W', "memory64", "[=y|n]", CLI_OPT_FEATURE, "(on by default)", NULL},
    {'W', "function-references", "[=y|n]", CLI_OPT_FEATURE, "(on by default)", NULL},
    {'W', "relaxed-simd", "[=y|n]", CLI_OPT_FEATURE, "(on by default)", NULL},
    {'W', "gc", NULL, CLI_OPT_NONE, NULL, "weft does not implement wasm GC"},
    {'W', "component-model", "[=y]", CLI_OPT_NOOP, "(always on)",
     "weft always runs components (without async) as well as modules"},
    {'W', "component-model-async", NULL, CLI_OPT_NONE, NULL,
     "weft does not implement component-model async yet (streams, futures, async "
     "lift and lower): it runs synchronous components"},
    {'W', "epoch-interruption", NULL, CLI_OPT_NONE, NULL,
     "weft needs no epochs: use -W timeout=DURATION (or --timeout)"},
    {'W', "nan-canonicalization", NULL, CLI_OPT_NONE, NULL,
     "weft does not canonicalise NaNs; it keeps the payloads the spec allows"},
    {'W', "max-table-elements", NULL, CLI_OPT_NONE, NULL,
     "weft has no table limit beyond the module's own; --max-memory bounds memories"},
    {'W', "max-instances", NULL, CLI_OPT_NONE, NULL,
     "weft has no instance limit; --max-threads bounds the instances threads make"},
    {'W', "max-tables", NULL, CLI_OPT_NONE, NULL, "weft has no such limit"},
    {'W', "max-memories", NULL, CLI_OPT_NONE, NULL, "weft has no such limit"},
    {'W', "trap-on-grow-failure", NULL, CLI_OPT_NONE, NULL,
     "in weft a memory.grow past a limit returns -1, as the spec says"},
    {'W', "unknown-imports-trap", NULL, CLI_OPT_NONE, NULL,
     "weft refuses a module with an unknown import (exit 2) rather than trap later"},
    {'W', "unknown-imports-default", NULL, CLI_OPT_NONE, NULL,
     "weft refuses a module with an unknown import (exit 2)"},
};
const size_t cli_wasmtime_key_count = sizeof cli_wasmtime_keys / sizeof cli_wasmtime_keys[0];

/* wasmtime options (not -S/-W keys) that weft refuses, with what to do. */
const cli_wasmtime_refused cli_wasmtime_refused_opts[] = {
    {"--mapdir", true, "use --dir HOST::GUEST"},
    {"--tcplisten", true, "use --listen HOST:PORT or -S tcplisten=ADDR"},
    {"--preload", true, "weft links one module with WASI; it cannot preload others"},
    {"--profile", true, "weft has no built-in profiler; run it under perf (WEFT_PERFMAP=1 names compiled functions for it: docs/jit.md)"},
    {"--allow-precompiled", false, "weft runs .wasm binaries only"},
    {"--wasm-features", true, "use -W KEY=y|n"},
    {"--wasi-modules", true, "use -S KEY=y|n"},
    {"-O", true, "weft has no optimisation levels (its compiler tier is one pass; --tier chooses it): drop the option"},
    {"--optimize", true, "weft has no optimisation levels (its compiler tier is one pass; --tier chooses it): drop the option"},
    {"-C", true, "weft has no code generation options (no cache, no target): drop the option"},
    {"--codegen", true, "weft has no code generation options (no cache, no target): drop the option"},
    {"-D", true, "weft has no debugger support; a trap prints a backtrace with function names"},
    {"--debug", true, "weft has no debugger support; a trap prints a backtrace with function names"},
};
const size_t cli_wasmtime_refused_count =
    sizeof cli_wasmtime_refused_opts / sizeof cli_wasmtime_refused_opts[0];

/* Exit statuses of `weft run`. */
static const struct {
    const char *code, *text;
} cli_exits[] = {
    {"N", "The program's proc_exit code (0 when _start returns; proc_raise(SIG) gives 128+SIG)."},
    {"134", "A trap, after \"error: trap: MESSAGE\" and a backtrace on stderr (with threads: "
            "\"error: thread N: MESSAGE\"); running out of --fuel is the trap \"all fuel consumed\"."},
    {"124", "--timeout passed: \"error: timeout: ...\" on stderr."},
    {"2", "The module cannot be read, decoded, validated or linked, or the arguments are wrong "
          "(the reason is printed; a wasmtime option weft lacks is named, with what to use "
          "instead)."},
    {"1", "Any other runtime error, a deadlock between threads included."},
};

/* ---- --help ---------------------------------------------------------- */

/* Prints `text` wrapped to 80 columns, every line indented by `indent`,
   the first one starting at column `col`. */
static void cli_wrap(FILE *f, const char *text, int indent, int col) {
    const char *p = text;
    while (*p) {
        while (*p == ' ') p++;
        size_t n = strcspn(p, " ");
        if (col > indent && col + 1 + (int)n > 79) {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
        } else if (col > indent) {
            fputc(' ', f);
            col++;
        } else if (col < indent) {
            fprintf(f, "%*s", indent - col, "");
            col = indent;
        }
        fwrite(p, 1, n, f);
        col += (int)n;
        p += n;
    }
    fputc('\n', f);
}

static void cli_help_option(FILE *f, const cli_option *o) {
    char head[64];
    snprintf(head, sizeof head, "  %s%s%s", o->name, o->metavar ? " " : "", o->metavar ? o->metavar : "");
    int col = fprintf(f, "%s", head);
    if (col > 24) {
        fputc('\n', f);
        col = 0;
    }
    cli_wrap(f, o->help, 26, col);
}

void cli_help(FILE *f) {
    fprintf(f,
            "weft %s - a WebAssembly runtime\n"
            "\n"
            "Usage:\n"
            "  weft run [OPTIONS] [--] FILE.wasm [ARGS...]   run a WASI command (or --invoke an export)\n"
            "  weft FILE.wasm [ARGS...]                      the same as 'weft run FILE.wasm ...'\n"
            "  weft validate FILE.wasm                       check a module; prints \"valid\" or why not\n"
            "  weft --help | --version\n"
            "\n"
            "Options of 'weft run' (before FILE; everything after FILE goes to the program):\n",
            WEFT_VERSION);
    for (size_t i = 0; i < cli_option_count; i++) cli_help_option(f, &cli_options[i]);
    fprintf(f, "  --                      End of options.\n");
    cli_wrap(f, "BYTES, and the N of --fuel, may end in K, M or G (powers of 1024). The program's "
                "stdin, stdout and stderr are weft's.", 2, 0);
    fprintf(f, "\nwasmtime's spellings, accepted beside weft's own (man weft: WASMTIME SPELLINGS):\n");
    fprintf(f, "  --dir HOST::GUEST, --env NAME[=VAL], --invoke NAME, --argv0 NAME  the same\n");
    for (size_t i = 0; i < cli_wasmtime_key_count; i++) {
        const cli_wasmtime_key *k = &cli_wasmtime_keys[i];
        if (!k->weft) continue;
        char sp[64];
        snprintf(sp, sizeof sp, "-%c %s%s", k->group, k->key, k->value ? k->value : "");
        fprintf(f, "  %-28s %s\n", sp, k->weft);
    }
    cli_wrap(f, "Any other wasmtime option is refused by name, with what to use instead.", 2, 0);
    fprintf(f, "\nExit status of 'weft run':\n");
    for (size_t i = 0; i < sizeof cli_exits / sizeof cli_exits[0]; i++) {
        int col = fprintf(f, "  %-4s", cli_exits[i].code);
        cli_wrap(f, cli_exits[i].text, 8, col);
    }
    fprintf(f, "Exit status of 'weft validate': 0 valid, 1 not valid (or unreadable), 2 bad arguments.\n\n");
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

/* ---- the man page ---------------------------------------------------- */

/* Writes text with troff's special characters escaped; a line may not
   start with '.' or '\''. */
static void cli_troff(FILE *f, const char *s) {
    if (*s == '.' || *s == '\'') fputs("\\&", f);
    for (; *s; s++) {
        if (*s == '-') fputs("\\-", f);
        else if (*s == '\\') fputs("\\e", f);
        else fputc(*s, f);
    }
}

void cli_man(FILE *f) {
    fprintf(f, ".\\\" weft.1 - generated by 'weft --help-man' (make man) from src/cli/options.c;\n"
               ".\\\" edit that file, not this one.\n");
    fprintf(f, ".TH WEFT 1 \"\" \"weft %s\" \"User Commands\"\n", WEFT_VERSION);
    /* No hyphenation: option names and values must read as typed. */
    fprintf(f, ".nh\n.SH NAME\nweft \\- a WebAssembly runtime\n");
    fprintf(f, ".SH SYNOPSIS\n"
               ".B weft run\n[\\fIOPTIONS\\fR] [\\fB\\-\\-\\fR] \\fIFILE.wasm\\fR [\\fIARGS\\fR...]\n.br\n"
               ".B weft\n\\fIFILE.wasm\\fR [\\fIARGS\\fR...]\n.br\n"
               ".B weft validate\n\\fIFILE.wasm\\fR\n.br\n"
               ".B weft\n\\fB\\-\\-help\\fR | \\fB\\-\\-version\\fR\n");
    fprintf(f, ".SH DESCRIPTION\n"
               ".B weft run\nruns a WASI command (a wasm32\\-wasi program, preview1), with its "
               "wasi\\-threads on OS threads or on a scheduler, or calls one export of a module "
               "(\\fB\\-\\-invoke\\fR). Options come before \\fIFILE\\fR; everything after it goes "
               "to the program, whose argv[0] is \\fIFILE\\fR as written. Its stdin, stdout and "
               "stderr are weft's.\n.PP\n"
               ".B weft validate\ndecodes and validates a module and prints \\(lqvalid\\(rq, or "
               "the reason it is not.\n.PP\n"
               ".B weft \\-\\-version\nprints the version and the features compiled in;\n"
               ".B weft \\-\\-help\nprints this page's options and the WASI functions implemented.\n");
    fprintf(f, ".SH OPTIONS\n");
    for (size_t i = 0; i < cli_option_count; i++) {
        const cli_option *o = &cli_options[i];
        fprintf(f, ".TP\n.B ");
        cli_troff(f, o->name);
        if (o->metavar) {
            fputs(" \\fI", f);
            cli_troff(f, o->metavar);
            fputs("\\fR", f);
        }
        fputc('\n', f);
        cli_troff(f, o->help);
        fputc('\n', f);
    }
    fprintf(f, ".TP\n.B \\-\\-\nEnd of options.\n.PP\n");
    fprintf(f, "BYTES, and the N of \\fB\\-\\-fuel\\fR, may end in K, M or G (powers of 1024).\n");
    fprintf(f, ".SH WASMTIME SPELLINGS\n"
               "weft accepts wasmtime's spellings of the options it has an equivalent of. "
               "\\fB\\-\\-dir\\fR \\fIHOST\\fR::\\fIGUEST\\fR, \\fB\\-\\-env\\fR "
               "\\fINAME\\fR[=\\fIVAL\\fR], \\fB\\-\\-invoke\\fR \\fINAME\\fR and "
               "\\fB\\-\\-argv0\\fR \\fINAME\\fR are spelled the same. "
               "The \\fB\\-S\\fR and \\fB\\-W\\fR keys:\n");
    for (size_t i = 0; i < cli_wasmtime_key_count; i++) {
        const cli_wasmtime_key *k = &cli_wasmtime_keys[i];
        if (!k->weft) continue;
        fprintf(f, ".TP\n.B \\-%c ", k->group);
        cli_troff(f, k->key);
        if (k->value) {
            fputs("\\fI", f);
            cli_troff(f, k->value);
            fputs("\\fR", f);
        }
        fputc('\n', f);
        cli_troff(f, k->weft);
        fputc('\n', f);
    }
    fprintf(f, ".PP\nRefused, each with what to use instead: ");
    for (size_t i = 0; i < cli_wasmtime_refused_count; i++) {
        fprintf(f, "%s\\fB", i ? ", " : "");
        cli_troff(f, cli_wasmtime_refused_opts[i].name);
        fputs("\\fR", f);
    }
    for (size_t i = 0; i < cli_wasmtime_key_count; i++) {
        const cli_wasmtime_key *k = &cli_wasmtime_keys[i];
        if (k->weft) continue;
        fprintf(f, ", \\fB\\-%c ", k->group);
        cli_troff(f, k->key);
        fputs("\\fR", f);
    }
    fprintf(f, ", and any other. The units differ in two places: wasmtime's fuel counts "
               "instructions, weft's counts safe points (see \\fB\\-\\-fuel\\fR); "
               "\\fBmax\\-wasm\\-stack\\fR is weft's wasm operand and frame stack, not a "
               "native stack. A timeout is a trap (exit 134) in wasmtime, exit 124 in weft.\n");
    fprintf(f, ".SH EXIT STATUS\n");
    for (size_t i = 0; i < sizeof cli_exits / sizeof cli_exits[0]; i++) {
        fprintf(f, ".TP\n.B %s\n", cli_exits[i].code);
        cli_troff(f, cli_exits[i].text);
        fputc('\n', f);
    }
    fprintf(f, ".PP\n.B weft validate\nexits 0 for a valid module, 1 for one that is not (or "
               "cannot be read), 2 for bad arguments.\n");
    uint32_t n = weft_wasi_function_count();
    fprintf(f, ".SH WASI FUNCTIONS\n"
               "The %u functions of wasi_snapshot_preview1 implemented; those marked * are not "
               "under wasi_unstable, every other one is:\n", n);
    for (uint32_t i = 0; i < n; i++) {
        weft_wasi_function_info info;
        if (weft_wasi_function(i, &info) != WEFT_OK) continue;
        fprintf(f, "%s", i ? ",\n" : "");
        cli_troff(f, info.name);
        fputs(info.in_unstable ? "" : "*", f);
    }
    fprintf(f, ".\n");
    fprintf(f, ".SH EXAMPLES\n.nf\n"
               "weft run \\-\\-dir ./data::/data \\-\\-env K=V prog.wasm\n"
               "weft run \\-\\-invoke add mod.wasm 1 2\n"
               "weft run \\-\\-timeout 5s \\-\\-fuel 100M prog.wasm\n"
               "weft run \\-S inherit\\-env \\-W max\\-memory\\-size=67108864 prog.wasm\n"
               "weft run \\-\\-sched pool \\-\\-runners 2 threaded.wasm\n"
               ".fi\n");
    fprintf(f, ".SH SEE ALSO\n"
               "The C library: the header \\fIweft.h\\fR and \\fBpkg\\-config \\-\\-cflags "
               "\\-\\-libs weft\\fR. The project's docs/cli.md, docs/wasi.md, docs/threads.md.\n");
}
