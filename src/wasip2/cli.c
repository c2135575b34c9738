/*
 * cli.c — wasi:cli@0.2.12: environment, exit, stdin/stdout/stderr and the
 * terminal interfaces (../shared/spec/wasi-wit/v0.2.12/proposals/cli).
 * Arguments and environment are the preview1 context's copies of the
 * config's; stdio streams are preview1 fds 0, 1, 2.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "wasip2.h"

/* get-environment: func() -> list<tuple<string, string>>. Each "K=V" of
   the config splits at its first '='; one without '=' is a name with an
   empty value. */
weft_status wp2_cli_environment_get_environment(cm_host_call *call, const cm_val *args,
                                                cm_val *result, weft_error *err) {
    (void)args;
    weft_wasi *w = wp2_of(call)->w;
    cm_val *items = wp2_vals(call, w->envc);
    if (!items) return wp2_nomem(err, "get-environment");
    for (uint32_t i = 0; i < w->envc; i++) {
        const char *kv = w->env[i];
        const char *eq = strchr(kv, '=');
        size_t klen = eq ? (size_t)(eq - kv) : strlen(kv);
        const char *val = eq ? eq + 1 : "";
        cm_val *pair = wp2_vals(call, 2);
        if (!pair || !wp2_set_str(call, &pair[0], kv, klen) ||
            !wp2_set_str(call, &pair[1], val, strlen(val)))
            return wp2_nomem(err, "get-environment");
        items[i].kind = CM_TUPLE;
        items[i].n = 2;
        items[i].v.items = pair;
    }
    result->kind = CM_LIST;
    result->n = w->envc;
    result->v.items = items;
    return WEFT_OK;
}

/* get-arguments: func() -> list<string>: argv as configured, argv[0] the
   program name (as preview1's args_get). */
weft_status wp2_cli_environment_get_arguments(cm_host_call *call, const cm_val *args,
                                              cm_val *result, weft_error *err) {
    (void)args;
    weft_wasi *w = wp2_of(call)->w;
    cm_val *items = wp2_vals(call, w->argc);
    if (!items) return wp2_nomem(err, "get-arguments");
    for (uint32_t i = 0; i < w->argc; i++)
        if (!wp2_set_str(call, &items[i], w->argv[i], strlen(w->argv[i])))
            return wp2_nomem(err, "get-arguments");
    result->kind = CM_LIST;
    result->n = w->argc;
    result->v.items = items;
    return WEFT_OK;
}

/* initial-cwd: func() -> option<string>: none. The sandbox has no
   working directory (paths are relative to a preopen), as wasmtime
   answers by default. */
weft_status wp2_cli_environment_initial_cwd(cm_host_call *call, const cm_val *args,
                                            cm_val *result, weft_error *err) {
    (void)call;
    (void)args;
    (void)err;
    wp2_set_case(result, CM_OPTION, 0, NULL);
    return WEFT_OK;
}

static weft_status wp2_exit_with(cm_host_call *call, int32_t code, weft_error *err) {
    weft_caller_exit(call->caller, code); /* as preview1's proc_exit */
    if (err) {
        memset(err, 0, sizeof *err);
        err->status = WEFT_ERR_EXIT;
        err->exit_code = code;
        err->func_index = UINT32_MAX;
        err->offset = UINT32_MAX;
        snprintf(err->message, sizeof err->message, "exit with status %d", (int)code);
    }
    return WEFT_ERR_EXIT;
}

/* exit: func(status: result): ok is status 0, error status 1 (exit.wit:
   "the status is an unspecified error"; wasmtime and the preview1
   adapter use 1). */
weft_status wp2_cli_exit_exit(cm_host_call *call, const cm_val *args, cm_val *result,
                              weft_error *err) {
    (void)result;
    return wp2_exit_with(call, args[0].v.c.index == 0 ? 0 : 1, err);
}

/* exit-with-code: func(status-code: u8) (@since 0.2.12). */
weft_status wp2_cli_exit_exit_with_code(cm_host_call *call, const cm_val *args, cm_val *result,
                                        weft_error *err) {
    (void)result;
    return wp2_exit_with(call, (int32_t)(args[0].v.u & 0xff), err);
}

/* get-stdin / get-stdout / get-stderr: a new stream on preview1 fd 0, 1
   or 2 each call (the host descriptor is borrowed: dropping the stream
   never closes it). A stdio descriptor the config left closed (-1) gives
   a stream that is closed at once. */
static weft_status wp2_stdio(cm_host_call *call, int res, uint32_t fd, cm_val *result,
                             weft_error *err, const char *what) {
    wasi_errno e;
    uint32_t rep = wp2_stream_new(wp2_of(call), res, fd, false, false, 0, &e);
    if (!rep && e == WASI_EBADF) /* not open: a stream closed from the start */
        rep = wp2_stream_new(wp2_of(call), res, WP2_NO_FD, false, false, 0, &e);
    if (!rep) return wp2_nomem(err, what);
    wp2_set_handle(result, CM_OWN, rep);
    return WEFT_OK;
}

weft_status wp2_cli_stdin_get_stdin(cm_host_call *call, const cm_val *args, cm_val *result,
                                    weft_error *err) {
    (void)args;
    return wp2_stdio(call, WP2_RES_IO_INPUT_STREAM, 0, result, err, "get-stdin");
}

weft_status wp2_cli_stdout_get_stdout(cm_host_call *call, const cm_val *args, cm_val *result,
                                      weft_error *err) {
    (void)args;
    return wp2_stdio(call, WP2_RES_IO_OUTPUT_STREAM, 1, result, err, "get-stdout");
}

weft_status wp2_cli_stderr_get_stderr(cm_host_call *call, const cm_val *args, cm_val *result,
                                      weft_error *err) {
    (void)args;
    return wp2_stdio(call, WP2_RES_IO_OUTPUT_STREAM, 2, result, err, "get-stderr");
}

/* get-terminal-*: some(terminal) when the stdio descriptor is a terminal
   (isatty), else none. */
static weft_status wp2_get_terminal(cm_host_call *call, int res, int which, cm_val *result,
                                weft_error *err) {
    wp2_ctx *x = wp2_of(call);
    wasi_ref ref;
    bool tty = false;
    if (wasi_fd_acquire(x->w, (uint32_t)which, 0, &ref) == WASI_ESUCCESS) {
        tty = isatty(ref.host) == 1;
        wasi_fd_release(x->w, &ref);
    }
    if (!tty) {
        wp2_set_case(result, CM_OPTION, 0, NULL);
        return WEFT_OK;
    }
    wp2_terminal *t = malloc(sizeof *t);
    if (t) t->which = which;
    uint32_t rep = wp2_add(x, res, t);
    cm_val *h = rep ? wp2_vals(call, 1) : NULL;
    if (!h) return wp2_nomem(err, "get-terminal");
    wp2_set_handle(h, CM_OWN, rep);
    wp2_set_case(result, CM_OPTION, 1, h);
    return WEFT_OK;
}

weft_status wp2_cli_terminal_stdin_get_terminal_stdin(cm_host_call *call, const cm_val *args,
                                                      cm_val *result, weft_error *err) {
    (void)args;
    return wp2_get_terminal(call, WP2_RES_CLI_TERMINAL_INPUT, 0, result, err);
}

weft_status wp2_cli_terminal_stdout_get_terminal_stdout(cm_host_call *call, const cm_val *args,
                                                        cm_val *result, weft_error *err) {
    (void)args;
    return wp2_get_terminal(call, WP2_RES_CLI_TERMINAL_OUTPUT, 1, result, err);
}

weft_status wp2_cli_terminal_stderr_get_terminal_stderr(cm_host_call *call, const cm_val *args,
                                                        cm_val *result, weft_error *err) {
    (void)args;
    return wp2_get_terminal(call, WP2_RES_CLI_TERMINAL_OUTPUT, 2, result, err);
}

static weft_status wp2_terminal_drop(const cm_resource *rt, uint32_t rep, void *env, int res,
                                     weft_error *err) {
    wp2_ctx *x = env;
    wp2_terminal *t = wp2_remove(x, res, rep);
    if (!t) return wp2_bad_rep(err, rt->name, rep);
    free(t);
    return WEFT_OK;
}

weft_status wp2_cli_terminal_input_drop(const cm_resource *rt, uint32_t rep, void *env,
                                        weft_error *err) {
    return wp2_terminal_drop(rt, rep, env, WP2_RES_CLI_TERMINAL_INPUT, err);
}

weft_status wp2_cli_terminal_output_drop(const cm_resource *rt, uint32_t rep, void *env,
                                         weft_error *err) {
    return wp2_terminal_drop(rt, rep, env, WP2_RES_CLI_TERMINAL_OUTPUT, err);
}
