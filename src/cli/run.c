/*
 * run.c — `weft run`: load, link with WASI, run _start (or --invoke an
 * export), and turn the outcome into an exit status.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli.h"

extern char **environ;

void cli_print_timeout(const cli_run_opts *o) {
    fprintf(stderr, "error: timeout: the program ran past its time limit (%s) and was stopped\n",
            o->timeout_text ? o->timeout_text : "--timeout");
}

/* ---- --timeout for --invoke ----------------------------------------------
 * A command's _start runs as a process, whose supervisor keeps the time
 * (process.c). An --invoke call runs on this thread; a watchdog thread
 * sends WEFT_ATTN_STOP to its execution when the time is up, so it stops
 * at its next safe point. A WASI call blocked outside a process is not
 * interrupted (docs/cli.md). */
typedef struct cli_watchdog {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    pthread_t thread;
    bool started, done, fired;
    struct timespec deadline;
    weft_exec *exec; /* the call in progress, or NULL */
} cli_watchdog;

static void *cli_watchdog_main(void *arg) {
    cli_watchdog *w = arg;
    pthread_mutex_lock(&w->lock);
    while (!w->done && pthread_cond_timedwait(&w->cond, &w->lock, &w->deadline) != ETIMEDOUT) {}
    if (!w->done) {
        w->fired = true;
        if (w->exec) weft_exec_request(w->exec, WEFT_ATTN_STOP);
    }
    pthread_mutex_unlock(&w->lock);
    return NULL;
}

static int cli_watchdog_start(cli_watchdog *w, uint64_t timeout_ns) {
    memset(w, 0, sizeof *w);
    pthread_condattr_t ca;
    if (pthread_condattr_init(&ca)) return -1;
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    int bad = pthread_cond_init(&w->cond, &ca);
    pthread_condattr_destroy(&ca);
    if (bad) return -1;
    pthread_mutex_init(&w->lock, NULL);
    clock_gettime(CLOCK_MONOTONIC, &w->deadline);
    uint64_t ns = (uint64_t)w->deadline.tv_nsec + timeout_ns % 1000000000u;
    w->deadline.tv_sec += (time_t)(timeout_ns / 1000000000u + ns / 1000000000u);
    w->deadline.tv_nsec = (long)(ns % 1000000000u);
    if (pthread_create(&w->thread, NULL, cli_watchdog_main, w)) {
        pthread_cond_destroy(&w->cond);
        pthread_mutex_destroy(&w->lock);
        return -1;
    }
    w->started = true;
    return 0;
}

static void cli_watchdog_stop(cli_watchdog *w) {
    if (!w->started) return;
    pthread_mutex_lock(&w->lock);
    w->done = true;
    pthread_cond_signal(&w->cond);
    pthread_mutex_unlock(&w->lock);
    pthread_join(w->thread, NULL);
    pthread_cond_destroy(&w->cond);
    pthread_mutex_destroy(&w->lock);
    w->started = false;
}

/* weft_func_call, under the watchdog when there is one. */
static weft_status cli_call(cli_watchdog *w, weft_store *store, weft_func *fn, const weft_val *args,
                            size_t nargs, weft_val *results, size_t nresults, weft_error *err) {
    if (!w || !w->started) return weft_func_call(fn, args, nargs, results, nresults, err);
    weft_exec *e = weft_exec_new(store);
    if (!e) {
        snprintf(err->message, sizeof err->message, "out of memory making an execution");
        return err->status = WEFT_ERR_NOMEM;
    }
    weft_status st = weft_exec_start(e, fn, args, nargs);
    if (st != WEFT_OK) {
        weft_exec_free(e);
        snprintf(err->message, sizeof err->message, "cannot start the call");
        return err->status = st;
    }
    pthread_mutex_lock(&w->lock);
    w->exec = e;
    if (w->fired) weft_exec_request(e, WEFT_ATTN_STOP);
    pthread_mutex_unlock(&w->lock);
    do st = weft_exec_run(e, err);
    while (st == WEFT_SUSPENDED);
    pthread_mutex_lock(&w->lock);
    w->exec = NULL;
    pthread_mutex_unlock(&w->lock);
    if (st == WEFT_OK) weft_exec_results(e, results, nresults);
    weft_exec_free(e);
    return st;
}

void cli_print_trap(const weft_error *err) {
    const char *msg = err->message[0] ? err->message : weft_trap_message(err->trap);
    if (err->status == WEFT_ERR_EXCEPTION) /* "uncaught exception: tag $e", ended like a trap */
        fprintf(stderr, "error: %s\n", msg);
    else
        fprintf(stderr, "error: trap: %s\n", msg);
    for (uint32_t i = 0; i < err->frame_count && i < WEFT_BACKTRACE_MAX; i++) {
        const weft_frame *f = &err->frames[i];
        if (!f->module) {
            fprintf(stderr, "  %u: <host function>\n", i);
            continue;
        }
        const char *name = weft_module_func_name(f->module, f->func_index);
        if (name)
            fprintf(stderr, "  %u: func %u <%s> at 0x%x\n", i, f->func_index, name, f->offset);
        else
            fprintf(stderr, "  %u: func %u at 0x%x\n", i, f->func_index, f->offset);
    }
    if (err->frames_dropped)
        fprintf(stderr, "  ... %u more frames\n", err->frames_dropped);
}

/* Shortest decimal digits of v (significant digits, and the decimal
   exponent of the first one) that read back to the same value. */
static void cli_shortest(double v, bool is_f32, char *digits, int *exp10) {
    char buf[64];
    for (int prec = 1; prec <= 17; prec++) {
        snprintf(buf, sizeof buf, "%.*e", prec - 1, v);
        bool same = is_f32 ? (strtof(buf, NULL) == (float)v) : (strtod(buf, NULL) == v);
        if (same) break;
    }
    /* buf is d.ddde[+-]xx */
    char *e = strchr(buf, 'e');
    *exp10 = atoi(e + 1);
    int n = 0;
    for (char *p = buf; p < e; p++)
        if (*p >= '0' && *p <= '9') digits[n++] = *p;
    while (n > 1 && digits[n - 1] == '0') n--;
    digits[n] = '\0';
}

static void cli_format(double v, bool is_f32, char *out, size_t size) {
    if (isnan(v)) {
        snprintf(out, size, "NaN");
        return;
    }
    if (isinf(v)) {
        snprintf(out, size, v < 0 ? "-inf" : "inf");
        return;
    }
    const char *sign = signbit(v) ? "-" : "";
    if (v == 0) {
        snprintf(out, size, "%s0", sign);
        return;
    }
    char digits[32];
    int exp10;
    cli_shortest(fabs(v), is_f32, digits, &exp10);
    int nd = (int)strlen(digits);
    char body[400];
    size_t k = 0;
    if (exp10 < 0) {
        body[k++] = '0';
        body[k++] = '.';
        for (int i = 0; i < -exp10 - 1; i++) body[k++] = '0';
        for (int i = 0; i < nd; i++) body[k++] = digits[i];
    } else {
        for (int i = 0; i <= exp10 || i < nd; i++) {
            if (i == exp10 + 1) body[k++] = '.';
            body[k++] = i < nd ? digits[i] : '0';
        }
    }
    body[k] = '\0';
    snprintf(out, size, "%s%s", sign, body);
}

void cli_format_f64(double v, char *out, size_t size) { cli_format(v, false, out, size); }
void cli_format_f32(float v, char *out, size_t size) { cli_format(v, true, out, size); }

/* Parses one --invoke argument as type t. */
static int cli_parse_val(const char *s, weft_valtype t, weft_val *out) {
    memset(out, 0, sizeof *out);
    out->type = t;
    char *end;
    errno = 0;
    switch (t) {
    case WEFT_I32:
    case WEFT_I64: {
        long long v;
        if (s[0] == '-') {
            v = strtoll(s, &end, 10);
        } else {
            unsigned long long u = strtoull(s, &end, 10);
            if (t == WEFT_I32 && u > UINT32_MAX) errno = ERANGE;
            v = (long long)u;
        }
        if (errno || end == s || *end) return -1;
        if (t == WEFT_I32) {
            if (v < INT32_MIN || v > (long long)UINT32_MAX) return -1;
            out->of.i32 = (int32_t)(uint32_t)v;
        } else {
            out->of.i64 = v;
        }
        return 0;
    }
    case WEFT_F32: {
        float f = strtof(s, &end);
        if (end == s || *end) return -1;
        memcpy(&out->of.f32_bits, &f, 4);
        return 0;
    }
    case WEFT_F64: {
        double d = strtod(s, &end);
        if (end == s || *end) return -1;
        memcpy(&out->of.f64_bits, &d, 8);
        return 0;
    }
    case WEFT_V128: {
        /* As wasmtime: one 128-bit number, 0x-hex (lane 0 in the lowest
           digits) or decimal up to 2^64. */
        if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
            size_t n = strlen(s + 2);
            if (n == 0 || n > 32) return -1;
            for (size_t i = 0; i < n; i++) {
                char ch = s[2 + n - 1 - i];
                int d = ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                        : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
                if (d < 0) return -1;
                out->of.v128[i / 2] |= (uint8_t)(d << (4 * (i % 2)));
            }
            return 0;
        }
        unsigned long long u = strtoull(s, &end, 10);
        if (errno || end == s || *end || s[0] == '-') return -1;
        memcpy(out->of.v128, &u, 8); /* little-endian host */
        return 0;
    }
    default:
        return -1;
    }
}

static void cli_print_val(const weft_val *v) {
    char buf[512];
    switch (v->type) {
    case WEFT_I32: printf("%" PRId32 "\n", v->of.i32); break;
    case WEFT_I64: printf("%" PRId64 "\n", v->of.i64); break;
    case WEFT_F32: {
        float f;
        memcpy(&f, &v->of.f32_bits, 4);
        cli_format_f32(f, buf, sizeof buf);
        printf("%s\n", buf);
        break;
    }
    case WEFT_F64: {
        double d;
        memcpy(&d, &v->of.f64_bits, 8);
        cli_format_f64(d, buf, sizeof buf);
        printf("%s\n", buf);
        break;
    }
    case WEFT_FUNCREF: printf(v->of.func ? "<funcref>\n" : "<null funcref>\n"); break;
    case WEFT_EXTERNREF: printf(v->of.externref ? "<externref>\n" : "<null externref>\n"); break;
    case WEFT_V128:
        printf("0x");
        for (int i = 15; i >= 0; i--) printf("%02x", v->of.v128[i]);
        printf("\n");
        break;
    default: printf("<%s>\n", weft_valtype_name(v->type)); break;
    }
}

/* The exit status for the outcome of a call (or of instantiation); `w`:
   the watchdog of --timeout, or NULL. */
static int cli_outcome(const cli_run_opts *o, const cli_watchdog *w, weft_status st,
                       const weft_error *err) {
    switch (st) {
    case WEFT_OK: return 0;
    case WEFT_ERR_EXIT: return err->exit_code & 0xff;
    case WEFT_ERR_TRAP:
        if (w && w->fired && err->trap == WEFT_TRAP_STOPPED) {
            cli_print_timeout(o);
            return CLI_EXIT_TIMEOUT;
        }
        cli_print_trap(err);
        return CLI_EXIT_TRAP;
    case WEFT_ERR_EXCEPTION: /* an exception no frame caught: as a trap */
        cli_print_trap(err);
        return CLI_EXIT_TRAP;
    default:
        fprintf(stderr, "error: %s: %s\n", weft_status_name(st), err->message);
        return CLI_EXIT_FAILURE;
    }
}

static bool cli_has_import_module(const weft_module *m, const char *name) {
    uint32_t n = weft_module_import_count(m);
    for (uint32_t i = 0; i < n; i++) {
        weft_name mod;
        weft_externtype t;
        if (weft_module_import(m, i, &mod, NULL, &t) == WEFT_OK && weft_name_is(mod, name))
            return true;
    }
    return false;
}

int cli_run(const cli_run_opts *o) {
    int rc = CLI_EXIT_USAGE;
    weft_error err;
    memset(&err, 0, sizeof err);
    weft_engine *engine = NULL;
    weft_module *module = NULL;
    weft_store *store = NULL;
    weft_linker *linker = NULL;
    weft_wasi *wasi = NULL;
    weft_instance *inst = NULL;
    weft_wasi_preopen *pre = calloc(o->ndirs ? o->ndirs : 1, sizeof *pre);
    char **pre_strs = calloc(o->ndirs ? o->ndirs : 1, sizeof *pre_strs);
    size_t ninherit = 0;
    if (o->inherit_env)
        while (environ && environ[ninherit]) ninherit++;
    const char **env = calloc(o->nenvs + ninherit + 1, sizeof *env);
    char **env_owned = calloc(o->nenvs ? o->nenvs : 1, sizeof *env_owned);
    const char **argv = calloc((size_t)o->nargs + 1, sizeof *argv);
    weft_val *args = NULL, *results = NULL;
    cli_watchdog dog;
    memset(&dog, 0, sizeof dog);
    if (!pre || !pre_strs || !env || !env_owned || !argv) goto oom;

    /* --dir HOST[::GUEST] */
    for (uint32_t i = 0; i < o->ndirs; i++) {
        pre_strs[i] = strdup(o->dirs[i]);
        if (!pre_strs[i]) goto oom;
        char *sep = strstr(pre_strs[i], "::");
        pre[i].host_path = pre_strs[i];
        pre[i].guest_path = NULL;
        if (sep) {
            *sep = '\0';
            pre[i].guest_path = sep + 2;
            if (!*pre[i].host_path || !*pre[i].guest_path) {
                fprintf(stderr, "error: bad --dir '%s': expected HOST or HOST::GUEST\n",
                        o->dirs[i]);
                goto out;
            }
        }
    }
    /* --env NAME=VALUE, or NAME alone: weft's own value, if it has one. */
    uint32_t nenv = 0;
    /* --inherit-env: weft's whole environment first, then the --env ones. */
    for (size_t i = 0; i < ninherit; i++) env[nenv++] = environ[i];
    for (uint32_t i = 0; i < o->nenvs; i++) {
        if (strchr(o->envs[i], '=')) {
            env[nenv++] = o->envs[i];
        } else {
            const char *val = getenv(o->envs[i]);
            if (!val) continue;
            char *kv = malloc(strlen(o->envs[i]) + strlen(val) + 2);
            if (!kv) goto oom;
            sprintf(kv, "%s=%s", o->envs[i], val);
            env_owned[i] = kv;
            env[nenv++] = kv;
        }
    }
    argv[0] = o->argv0 ? o->argv0 : o->file;
    for (uint32_t i = 0; i < o->nargs; i++) argv[i + 1] = o->args[i];

    weft_config cfg = {0};
    cfg.max_stack_bytes = o->max_stack ? o->max_stack : CLI_DEFAULT_STACK;
    cfg.max_memory_bytes = o->max_memory;
    cfg.tier = o->tier;
    if (o->no_threads_proposal) cfg.disabled_features |= WEFT_FEATURE_THREADS;
    if (o->no_simd_proposal) cfg.disabled_features |= WEFT_FEATURE_SIMD;
    cfg.disabled_features |= o->disabled_features;
    engine = weft_engine_new(&cfg);
    if (!engine) goto oom;

    weft_wasi_config wc;
    weft_wasi_config_init(&wc);
    wc.argc = o->nargs + 1; /* with --invoke too, as wasmtime */
    wc.argv = argv;
    wc.envc = nenv;
    wc.env = env;
    wc.npreopens = o->ndirs;
    wc.preopens = pre;
    wc.nlisten = o->nlistens;
    wc.listen = o->listens;
    wc.net = (wc.net | o->net_on) & ~o->net_off;
    if (cli_file_kind(o->file) == WEFT_BINARY_COMPONENT) {
        rc = cli_run_component(o, engine, &wc);
        goto out;
    }
    weft_status st = weft_module_load_file(engine, o->file, &module, &err);
    if (st != WEFT_OK) {
        fprintf(stderr, "error: %s: %s: %s\n", o->file, weft_status_name(st), err.message);
        if (strstr(err.message, "shared memory must have maximum"))
            fprintf(stderr, "note: a wasi-threads program must declare its shared memory's "
                            "maximum; rebuild with: clang --target=wasm32-wasip1-threads "
                            "-pthread -Wl,--import-memory,--shared-memory,--max-memory=N\n");
        rc = st == WEFT_ERR_NOMEM ? CLI_EXIT_FAILURE : CLI_EXIT_USAGE;
        goto out;
    }
    st = weft_wasi_new(&wc, &wasi, &err);
    if (st != WEFT_OK) {
        fprintf(stderr, "error: %s\n", err.message);
        rc = st == WEFT_ERR_NOMEM ? CLI_EXIT_FAILURE : CLI_EXIT_USAGE;
        goto out;
    }
    /* A command with threads runs as a process; so does any command with
       a limit, whose supervisor keeps the time and can interrupt blocking
       WASI calls. */
    if (o->explore && !o->invoke) {
        rc = cli_explore(o, engine, module, &wc);
        goto out;
    }
    if (!o->invoke && (cli_wants_process(module) || o->timeout_ns || o->fuel || o->deterministic)) {
        rc = cli_run_process(o, engine, module, wasi, !cli_wants_process(module));
        goto out;
    }
    store = weft_store_new(engine);
    linker = store ? weft_linker_new(store) : NULL;
    if (!linker) goto oom;
    if (o->fuel) weft_store_set_fuel(store, o->fuel);
    st = weft_wasi_define(wasi, store, linker, &err);
    if (st != WEFT_OK) {
        rc = cli_outcome(o, &dog, st, &err);
        goto out;
    }
    st = weft_linker_instantiate(linker, module, &inst, &err);
    if (st == WEFT_ERR_LINK) {
        fprintf(stderr, "error: %s: %s: %s\n", o->file, weft_status_name(st), err.message);
        rc = CLI_EXIT_USAGE;
        goto out;
    }
    if (st != WEFT_OK) {
        rc = cli_outcome(o, &dog, st, &err);
        goto out;
    }

    if (!o->invoke) {
        weft_func *start = weft_instance_func(inst, "_start");
        if (!start) {
            fprintf(stderr,
                    "error: %s: the module exports no _start function%s; use --invoke NAME "
                    "to call one of its exports\n",
                    o->file,
                    cli_has_import_module(module, "wasi_snapshot_preview1") ? "" : " (it is not a WASI command)");
            rc = CLI_EXIT_USAGE;
            goto out;
        }
        weft_functype ft = weft_func_type(start);
        if (ft.nparams || ft.nresults) {
            fprintf(stderr, "error: %s: _start must take no parameters and return nothing\n",
                    o->file);
            rc = CLI_EXIT_USAGE;
            goto out;
        }
        st = cli_call(NULL, store, start, NULL, 0, NULL, 0, &err);
        rc = cli_outcome(o, &dog, st, &err);
        goto out;
    }

    /* --invoke NAME ARGS...: a reactor's _initialize runs first. */
    weft_func *fn = weft_instance_func(inst, o->invoke);
    if (!fn) {
        fprintf(stderr, "error: %s: no exported function named '%s'\n", o->file, o->invoke);
        rc = CLI_EXIT_USAGE;
        goto out;
    }
    weft_functype ft = weft_func_type(fn);
    if (ft.nparams != o->nargs) {
        fprintf(stderr, "error: '%s' takes %u argument%s, %u given\n", o->invoke, ft.nparams,
                ft.nparams == 1 ? "" : "s", o->nargs);
        rc = CLI_EXIT_USAGE;
        goto out;
    }
    args = calloc(ft.nparams ? ft.nparams : 1, sizeof *args);
    results = calloc(ft.nresults ? ft.nresults : 1, sizeof *results);
    if (!args || !results) goto oom;
    for (uint32_t i = 0; i < ft.nparams; i++) {
        if (cli_parse_val(o->args[i], ft.params[i], &args[i])) {
            fprintf(stderr, "error: argument %u of '%s': '%s' is not a valid %s\n", i + 1,
                    o->invoke, o->args[i], weft_valtype_name(ft.params[i]));
            rc = CLI_EXIT_USAGE;
            goto out;
        }
    }
    if (o->timeout_ns && cli_watchdog_start(&dog, o->timeout_ns)) goto oom;
    weft_func *init = weft_instance_func(inst, "_initialize");
    if (init) {
        st = cli_call(&dog, store, init, NULL, 0, NULL, 0, &err);
        if (st != WEFT_OK) {
            rc = cli_outcome(o, &dog, st, &err);
            goto out;
        }
    }
    st = cli_call(&dog, store, fn, args, ft.nparams, results, ft.nresults, &err);
    if (st == WEFT_OK)
        for (uint32_t i = 0; i < ft.nresults; i++) cli_print_val(&results[i]);
    fflush(stdout);
    rc = cli_outcome(o, &dog, st, &err);
    goto out;
oom:
    fprintf(stderr, "error: out of memory\n");
    rc = CLI_EXIT_FAILURE;
out:
    cli_watchdog_stop(&dog);
    fflush(stdout);
    free(args);
    free(results);
    weft_linker_free(linker);
    weft_store_free(store);
    weft_wasi_free(wasi);
    weft_module_release(module);
    weft_engine_free(engine);
    if (pre_strs)
        for (uint32_t i = 0; i < o->ndirs; i++) free(pre_strs[i]);
    free(pre_strs);
    free(pre);
    if (env_owned)
        for (uint32_t i = 0; i < o->nenvs; i++) free(env_owned[i]);
    free(env_owned);
    free(env);
    free(argv);
    return rc;
}
