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

/* A count from 1 to max, in decimal; 0 when it is one, else -1. */
static int cli_parse_count(const char *s, uint32_t max, uint32_t *out) {
    char *end;
    errno = 0;
    unsigned long n = strtoul(s, &end, 10);
    if (errno || end == s || *end || n == 0 || n > max) return -1;
    *out = (uint32_t)n;
    return 0;
}

/* Parses BYTES with an optional K/M/G suffix (powers of 1024; "KiB", "KB"
   too). */
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

weft_binary_type cli_file_kind(const char *path) {
    uint8_t head[8];
    FILE *f = fopen(path, "rb");
    if (!f) return WEFT_BINARY_UNKNOWN;
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    return weft_binary_kind(head, n);
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
    weft_component *component = NULL;
    weft_error err;
    /* the header tells a component from a module (weft_binary_kind) */
    weft_status st = cli_file_kind(file) == WEFT_BINARY_COMPONENT
                         ? weft_component_load_file(engine, file, &component, &err)
                         : weft_module_load_file(engine, file, &module, &err);
    weft_component_release(component);
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


/* Parses a DURATION: a decimal number (a fraction allowed) and a unit,
   ns, us, ms, s, m, min or h; a bare number is seconds (as wasmtime). At
   least 1 ns, at most about 292 years. */
static int cli_parse_duration(const char *s, uint64_t *ns) {
    if (!s || !*s || *s == '-' || *s == '+') return -1;
    errno = 0;
    char *end;
    double v = strtod(s, &end);
    if (errno || end == s || v != v) return -1;
    static const struct {
        const char *unit;
        double scale;
    } units[] = {{"", 1e9},     {"s", 1e9},     {"sec", 1e9},  {"secs", 1e9}, {"ms", 1e6},
                 {"us", 1e3},   {"ns", 1.0},    {"m", 60e9},   {"min", 60e9}, {"mins", 60e9},
                 {"h", 3600e9}, {"hr", 3600e9}, {"hour", 3600e9}};
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
        if (strcmp(end, units[i].unit) != 0) continue;
        double t = v * units[i].scale;
        if (!(t >= 1.0) || t > 9.2e18) return -1;
        *ns = (uint64_t)t;
        return 0;
    }
    return -1;
}

/* y/yes/true/on (or nothing) and n/no/false/off, as wasmtime's flags. */
static int cli_parse_bool(const char *v, bool *out) {
    if (!v || !*v || !strcmp(v, "y") || !strcmp(v, "yes") || !strcmp(v, "true") || !strcmp(v, "on"))
        return *out = true, 0;
    if (!strcmp(v, "n") || !strcmp(v, "no") || !strcmp(v, "false") || !strcmp(v, "off"))
        return *out = false, 0;
    return -1;
}

/* Grows a string array by one. */
static int cli_push(const char ***arr, uint32_t *n, const char *s) {
    const char **a = realloc(*arr, (*n + 1) * sizeof *a);
    if (!a) return -1;
    a[(*n)++] = s;
    *arr = a;
    return 0;
}

/* Does what option `id` does with value `v` (NULL for a flag), spelled
   `as` for messages. 0, or -1 after printing why not (or out of memory). */
static int cli_apply(cli_run_opts *o, cli_opt_id id, const char *v, const char *as) {
    switch (id) {
    case CLI_OPT_DIR:
        if (!*v) break;
        return cli_push(&o->dirs, &o->ndirs, v) ? (fprintf(stderr, "error: out of memory\n"), -1) : 0;
    case CLI_OPT_ENV:
        if (!*v || *v == '=') {
            cli_usage_error("bad --env '%s': expected NAME=VALUE or NAME", v);
            return -1;
        }
        return cli_push(&o->envs, &o->nenvs, v) ? (fprintf(stderr, "error: out of memory\n"), -1) : 0;
    case CLI_OPT_INHERIT_ENV: {
        bool on;
        if (cli_parse_bool(v, &on)) break;
        o->inherit_env = on;
        return 0;
    }
    case CLI_OPT_LISTEN:
        if (!strchr(v, ':')) {
            fprintf(stderr, "error: bad %s '%s': expected HOST:PORT\n(see 'weft --help')\n", as, v);
            return -1;
        }
        return cli_push(&o->listens, &o->nlistens, v) ? (fprintf(stderr, "error: out of memory\n"), -1) : 0;
    case CLI_OPT_ARGV0:
        o->argv0 = v;
        return 0;
    case CLI_OPT_INVOKE:
        o->invoke = v;
        return 0;
    case CLI_OPT_MAX_MEMORY:
        if (cli_parse_bytes(v, &o->max_memory) || o->max_memory == 0) {
            fprintf(stderr, "error: bad %s '%s': expected a positive number of bytes\n(see 'weft --help')\n", as, v);
            return -1;
        }
        return 0;
    case CLI_OPT_MAX_STACK:
        if (cli_parse_bytes(v, &o->max_stack) || o->max_stack < 4096) {
            fprintf(stderr, "error: bad %s '%s': expected a number of bytes (at least 4096)\n(see 'weft --help')\n", as, v);
            return -1;
        }
        return 0;
    case CLI_OPT_MAX_THREADS:
        if (cli_parse_count(v, 100000, &o->max_threads)) {
            cli_usage_error("bad --max-threads '%s': expected a number from 1 to 100000", v);
            return -1;
        }
        return 0;
    case CLI_OPT_TIMEOUT:
        if (cli_parse_duration(v, &o->timeout_ns)) {
            fprintf(stderr, "error: bad %s '%s': expected a duration such as 5s, 1.5s, 200ms or 2m\n"
                            "(see 'weft --help')\n", as, v);
            return -1;
        }
        o->timeout_text = v;
        return 0;
    case CLI_OPT_FUEL:
        if (cli_parse_bytes(v, &o->fuel) || o->fuel == 0 || o->fuel == UINT64_MAX) {
            fprintf(stderr, "error: bad %s '%s': expected a positive number of fuel units\n"
                            "(see 'weft --help')\n", as, v);
            return -1;
        }
        return 0;
    case CLI_OPT_TIER:
        if (strcmp(v, "interp") == 0) o->tier = WEFT_TIER_INTERP;
        else if (strcmp(v, "jit") == 0) o->tier = WEFT_TIER_JIT;
        else if (strcmp(v, "auto") == 0) o->tier = WEFT_TIER_AUTO;
        else {
            fprintf(stderr, "error: bad %s '%s': expected interp, jit or auto\n(see 'weft --help')\n", as, v);
            return -1;
        }
        return 0;
    case CLI_OPT_SCHED:
        if (strcmp(v, "os") == 0) o->sched_pool = false;
        else if (strcmp(v, "pool") == 0) o->sched_pool = true;
        else {
            cli_usage_error("bad --sched '%s': expected os or pool", v);
            return -1;
        }
        return 0;
    case CLI_OPT_RUNNERS:
        if (cli_parse_count(v, 1024, &o->runners)) {
            cli_usage_error("bad --runners '%s': expected a number from 1 to 1024", v);
            return -1;
        }
        return 0;
    case CLI_OPT_DETERMINISTIC: {
        char *end;
        errno = 0;
        unsigned long long seed = strtoull(v, &end, 0);
        if (!*v || *end || errno || *v == '-') {
            cli_usage_error("bad --deterministic '%s': expected a seed (a number from 0 to 2^64-1)", v);
            return -1;
        }
        o->deterministic = true;
        o->sched_pool = true;
        o->seed = seed;
        return 0;
    }
    case CLI_OPT_EXPLORE:
    case CLI_OPT_EXPLORE_SEED: {
        char *end;
        errno = 0;
        unsigned long long n = strtoull(v, &end, 0);
        bool runs = id == CLI_OPT_EXPLORE;
        if (!*v || *end || errno || *v == '-' || (runs && (n == 0 || n > 100000000))) {
            cli_usage_error(runs ? "bad --explore '%s': expected a number of runs from 1 to 100000000"
                                 : "bad --explore-seed '%s': expected a number from 0 to 2^64-1",
                            v);
            return -1;
        }
        if (runs) o->explore = n;
        else o->explore_seed = n;
        return 0;
    }
    case CLI_OPT_PCT: {
        char depth[16];
        const char *colon = strchr(v, ':');
        size_t n = colon ? (size_t)(colon - v) : strlen(v);
        char *end = NULL;
        errno = 0;
        unsigned long long steps = colon ? strtoull(colon + 1, &end, 0) : 0;
        if (n == 0 || n >= sizeof depth || (colon && (!colon[1] || *end || errno || colon[1] == '-' || !steps))) {
            cli_usage_error("bad --pct '%s': expected D or D:STEPS (D from 1 to 8)", v);
            return -1;
        }
        memcpy(depth, v, n);
        depth[n] = '\0';
        if (cli_parse_count(depth, 8, &o->pct_depth)) {
            cli_usage_error("bad --pct '%s': expected D or D:STEPS (D from 1 to 8)", v);
            return -1;
        }
        o->pct_steps = steps;
        return 0;
    }
    case CLI_OPT_MAX_RUNNERS:
        if (cli_parse_count(v, 4096, &o->max_runners)) {
            cli_usage_error("bad --max-runners '%s': expected a number from 1 to 4096", v);
            return -1;
        }
        return 0;
    case CLI_OPT_THREADS_PROPOSAL: {
        bool on;
        if (cli_parse_bool(v, &on)) break;
        o->no_threads_proposal = !on;
        return 0;
    }
    case CLI_OPT_SIMD_PROPOSAL: {
        bool on;
        if (cli_parse_bool(v, &on)) break;
        o->no_simd_proposal = !on;
        return 0;
    }
    case CLI_OPT_NET: {
        bool on;
        if (cli_parse_bool(v, &on)) break;
        /* `as` is "-S KEY": the bit of KEY */
        const char *key = strrchr(as, ' ') ? strrchr(as, ' ') + 1 : as;
        uint32_t bit = strcmp(key, "inherit-network") == 0        ? WEFT_WASI_NET_INHERIT
                       : strcmp(key, "allow-ip-name-lookup") == 0 ? WEFT_WASI_NET_NAME_LOOKUP
                       : strcmp(key, "tcp") == 0                  ? WEFT_WASI_NET_TCP
                                                                  : WEFT_WASI_NET_UDP;
        if (on) {
            o->net_on |= bit;
            o->net_off &= ~bit;
        } else {
            o->net_off |= bit;
            o->net_on &= ~bit;
        }
        return 0;
    }
    case CLI_OPT_NOOP:
    case CLI_OPT_NONE:
    case CLI_OPT_FEATURE:
    case CLI_OPT_WASI:
    case CLI_OPT_WASM:
        break;
    }
    fprintf(stderr, "error: bad value '%s' for %s\n(see 'weft --help')\n", v ? v : "", as);
    return -1;
}

/* One KEY[=VALUE] of wasmtime's -S (group 'S') or -W ('W'). */
static int cli_wasmtime_item(cli_run_opts *o, char group, const char *item) {
    size_t klen = strcspn(item, "=");
    const char *val = item[klen] == '=' ? item + klen + 1 : NULL;
    char spelled[160];
    snprintf(spelled, sizeof spelled, "-%c %.*s", group, (int)klen, item);
    for (size_t i = 0; i < cli_wasmtime_key_count; i++) {
        const cli_wasmtime_key *k = &cli_wasmtime_keys[i];
        if (k->group != group || strlen(k->key) != klen || strncmp(k->key, item, klen) != 0) continue;
        if (k->id == CLI_OPT_NONE) {
            fprintf(stderr, "error: wasmtime's option '%s' is not supported: %s\n(see 'weft --help')\n",
                    spelled, k->advice);
            return -1;
        }
        if (k->id == CLI_OPT_NOOP) {
            bool on;
            if (cli_parse_bool(val, &on)) break;
            if (!on) {
                fprintf(stderr, "error: '%s=%s' is not supported: %s\n", spelled, val, k->advice);
                return -1;
            }
            return 0;
        }
        if (k->id == CLI_OPT_FEATURE) {
            bool on;
            if (cli_parse_bool(val, &on)) break;
            /* The key is the feature's name (weft_feature_name). */
            uint32_t k_feature = 1;
            while (k_feature &&
                   !(weft_feature_name(k_feature) && strcmp(weft_feature_name(k_feature), k->key) == 0))
                k_feature <<= 1;
            if (!on) {
                o->disabled_features |= k_feature;
            } else if (!(weft_features_supported() & k_feature)) {
                fprintf(stderr, "error: '%s%s%s' is not supported: %s; '%s=n' is accepted\n",
                        spelled, val ? "=" : "", val ? val : "",
                        k->advice ? k->advice : "this build does not have it", spelled);
                return -1;
            } else {
                o->disabled_features &= ~k_feature;
            }
            return 0;
        }
        bool needs_value = k->value && k->value[0] == '=';
        if (needs_value && (!val || !*val)) {
            fprintf(stderr, "error: option '%s' needs a value (%s%s)\n(see 'weft --help')\n", spelled,
                    spelled, k->value);
            return -1;
        }
        return cli_apply(o, k->id, val, spelled);
    }
    bool known = false;
    for (size_t i = 0; i < cli_wasmtime_key_count; i++)
        if (cli_wasmtime_keys[i].group == group && strlen(cli_wasmtime_keys[i].key) == klen &&
            strncmp(cli_wasmtime_keys[i].key, item, klen) == 0)
            known = true;
    if (known) {
        fprintf(stderr, "error: bad value '%s' for '%s': expected y or n\n(see 'weft --help')\n", val, spelled);
        return -1;
    }
    fprintf(stderr, "error: unknown option '%s': weft has no such %s option\n(see 'weft --help' for "
                    "the -%c keys it has)\n", spelled, group == 'S' ? "WASI" : "wasm", group);
    return -1;
}

/* wasmtime's -S/-W value: a comma-separated list of KEY[=VALUE]. */
static int cli_wasmtime_list(cli_run_opts *o, char group, const char *list) {
    if (!*list) {
        fprintf(stderr, "error: option '-%c' needs KEY[=VALUE]\n(see 'weft --help')\n", group);
        return -1;
    }
    char *copy = strdup(list);
    if (!copy) {
        fprintf(stderr, "error: out of memory\n");
        return -1;
    }
    /* Kept to the end of the run: -S tcplisten=ADDR points into it. */
    if (cli_push(&o->owned, &o->nowned, copy)) {
        free(copy);
        fprintf(stderr, "error: out of memory\n");
        return -1;
    }
    int rc = 0;
    for (char *save = NULL, *item = strtok_r(copy, ",", &save); item && rc == 0;
         item = strtok_r(NULL, ",", &save))
        rc = cli_wasmtime_item(o, group, item);
    return rc;
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

/* WEFT_JIT_STATS=1: what the compiler tier did, on stderr at exit
   (every exit: a program's proc_exit too). docs/jit.md, "Measured". */
static void cli_jit_report(void) {
    uint64_t compiled, left, wasm, code, ns;
    weft_jit_stats(&compiled, &left);
    weft_jit_sizes(&wasm, &code, &ns);
    fprintf(stderr,
            "jit: %llu functions compiled, %llu left to the interpreter; %.1f KiB of wasm code in %.2f ms "
            "(%.1f MB/s), %.1f KiB of machine code (%.2f bytes per wasm byte)\n",
            (unsigned long long)compiled, (unsigned long long)left, wasm / 1024.0, ns / 1e6,
            ns ? wasm * 1e3 / (double)ns : 0.0, code / 1024.0, wasm ? (double)code / (double)wasm : 0.0);
}

static int cli_run_main(int argc, char **argv) {
    cli_run_opts o;
    memset(&o, 0, sizeof o);
    o.sched_pool = true; /* docs/sched.md: it passes every suite and measures better */
    o.explore_seed = 1;
    /* docs/jit.md, "Tiers": hot functions compiled while they run, where
       the compiler tier is built (elsewhere auto is the interpreter). */
    o.tier = WEFT_TIER_AUTO;
    int rc = CLI_EXIT_USAGE;
    /* WEFT_TIER=interp|jit|auto changes that default, as a --tier before
       the others would: a whole test suite runs on one tier without
       changing its command lines (docs/jit.md, "Forced-jit suites"). */
    const char *jit_stats = getenv("WEFT_JIT_STATS");
    if (jit_stats && *jit_stats && strcmp(jit_stats, "0") != 0) atexit(cli_jit_report);
    const char *env_tier = getenv("WEFT_TIER");
    if (env_tier && *env_tier && cli_apply(&o, CLI_OPT_TIER, env_tier, "WEFT_TIER") != 0) return CLI_EXIT_USAGE;
    int i = 0;
    for (; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        int m = 0;
        if (strcmp(a, "--") == 0) {
            i++;
            break;
        }
        if (a[0] != '-' || a[1] == '\0') break; /* FILE */
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            cli_help(stdout);
            rc = 0;
            goto out;
        }
        /* wasmtime's -S/-W (also attached: -Sinherit-env) and --wasi/--wasm. */
        char group = 0;
        if ((a[1] == 'S' || a[1] == 'W') && a[0] == '-') {
            group = a[1];
            if (a[2]) v = a + 2;
            else if (i + 1 < argc) v = argv[++i];
            else goto missing;
        } else if ((m = cli_opt(argc, argv, &i, "--wasi", &v)) || (m = cli_opt(argc, argv, &i, "--wasm", &v))) {
            if (m < 0) goto missing;
            group = a[5] == 'i' ? 'S' : 'W';
        }
        if (group) {
            if (cli_wasmtime_list(&o, group, v)) goto out;
            continue;
        }
        const cli_option *opt = NULL;
        for (size_t k = 0; k < cli_option_count && !opt; k++) {
            const cli_option *c = &cli_options[k];
            if (c->id == CLI_OPT_WASI || c->id == CLI_OPT_WASM) continue;
            if (!c->metavar) {
                if (strcmp(a, c->name) == 0) opt = c;
            } else if ((m = cli_opt(argc, argv, &i, c->name, &v))) {
                opt = c;
            }
        }
        if (opt) {
            if (opt->metavar && (m < 0 || (!*v && opt->id == CLI_OPT_DIR))) goto missing;
            if (cli_apply(&o, opt->id, v, opt->name)) goto out;
            continue;
        }
        /* A wasmtime option weft does not have: say what to use. */
        for (size_t k = 0; k < cli_wasmtime_refused_count; k++) {
            const cli_wasmtime_refused *r = &cli_wasmtime_refused_opts[k];
            size_t n = strlen(r->name);
            bool hit = strcmp(a, r->name) == 0 || (strncmp(a, r->name, n) == 0 &&
                                                   (a[n] == '=' || (r->name[1] != '-' && a[n])));
            if (hit) {
                fprintf(stderr, "error: wasmtime's option '%s' is not supported: %s\n(see 'weft --help')\n",
                        r->name, r->advice);
                goto out;
            }
        }
        cli_usage_error("unknown option '%s' for 'weft run'", a);
        goto out;
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
out:
    for (uint32_t k = 0; k < o.nowned; k++) free((char *)o.owned[k]);
    free(o.owned);
    free(o.dirs);
    free(o.envs);
    free(o.listens);
    return rc;
}

/* `weft --version`: the version and what this build has. */
static void cli_version(void) {
    printf("weft %s\n", CLI_VERSION);
    if (strcmp(weft_version(), WEFT_VERSION) != 0) printf("libweft %s\n", weft_version());
    /* The Wasm 3.0 features by their -W names, from the library: those it
       has (on by default) among the features, the others not built in. */
    char have[256] = "", lack[256] = "";
    for (uint32_t bit = WEFT_FEATURE_EXTENDED_CONST; bit & WEFT_FEATURES_WASM3; bit <<= 1) {
        char *to = (weft_features_supported() & bit) ? have : lack;
        size_t len = strlen(to);
        snprintf(to + len, 256 - len, "%s, ", weft_feature_name(bit));
    }
    if (*have) have[strlen(have) - 2] = '\0';
    printf("features: wasm-2.0 simd (v128, %s) threads (shared memory, atomics, wait/notify) "
           "wasm-3.0 (%s) wasi-preview1 (%u functions, also wasi_unstable) wasi-threads "
           "sched-pool fuel timeout components (synchronous) wasi-preview2 (cli, io, clocks, "
           "random, filesystem)\n", weft_simd_backend(), *have ? have : "none yet",
           weft_wasi_function_count());
    printf("not built in: %sgc, component-model async, wasi-preview3, wasi:sockets, wasi:http%s\n", lack,
           weft_jit_built() ? "" : ", jit");
    if (weft_jit_built())
        printf("tiers: auto (the default: hot functions compiled while they run), interp, "
               "jit (every function compiled on its first call); x86-64 baseline compiler\n");
    printf("build: %s%s%s%s\n",
#if defined(__clang__)
           "clang " __clang_version__,
#elif defined(__GNUC__)
           "gcc " __VERSION__,
#else
           "cc",
#endif
#if defined(__SANITIZE_ADDRESS__)
           ", AddressSanitizer",
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
           ", AddressSanitizer",
#else
           "",
#endif
#else
           "",
#endif
#if defined(__SANITIZE_THREAD__)
           ", ThreadSanitizer",
#else
           "",
#endif
    /* The super-instructions (src/compile/pairs.c): in what ships (make
       release), not in the everyday build (Makefile, PAIRS). */
#if defined(WEFT_NO_PAIRS) && WEFT_NO_PAIRS
           ", no super-instructions"
#else
           ", super-instructions"
#endif
    );
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
        cli_version();
        return 0;
    }
    if (strcmp(cmd, "--help-man") == 0) { /* the source of docs/weft.1 (make man) */
        cli_man(stdout);
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
