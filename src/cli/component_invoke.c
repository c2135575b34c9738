/*
 * component_invoke.c — `weft run --invoke 'name(args)' FILE.wasm` for a
 * component, as `wasmtime run --invoke` does: the call is WAVE (the
 * function's name in the forms weft_component_instance_func takes, the
 * arguments parsed against its parameter types), the result printed in
 * WAVE on stdout ("()" when the function has none). A text or name that
 * does not fit is exit 2 with the place shown; a trap 134.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

/* The text with a caret under byte `at`, when it is one line. */
static void show_at(const char *text, uint32_t at) {
    size_t n = strlen(text);
    if (at > n || memchr(text, '\n', n) || n > 200) return;
    fprintf(stderr, "  %s\n  %*s^\n", text, (int)at, "");
}

int cli_invoke_component(const cli_run_opts *o, weft_component_instance *ci) {
    weft_error err;
    memset(&err, 0, sizeof err);
    int rc = CLI_EXIT_USAGE;
    char *text = NULL;
    weft_cval_pool *pool = weft_cval_pool_new(0);
    if (!pool) {
        fprintf(stderr, "error: out of memory\n");
        return CLI_EXIT_FAILURE;
    }
    weft_component_func *fn;
    weft_cval *args;
    uint32_t nargs;
    weft_status st = weft_wave_parse_call(ci, o->invoke, &fn, &args, &nargs, pool, &err);
    if (st != WEFT_OK) {
        fprintf(stderr, "error: --invoke '%s': %s\n", o->invoke, err.message);
        if (st == WEFT_ERR_MALFORMED) show_at(o->invoke, err.offset);
        rc = st == WEFT_ERR_NOMEM ? CLI_EXIT_FAILURE : CLI_EXIT_USAGE;
        goto out;
    }
    weft_cval result;
    memset(&result, 0, sizeof result);
    st = weft_component_func_call(fn, args, nargs, &result, pool, &err);
    switch (st) {
    case WEFT_OK: break;
    case WEFT_ERR_EXIT:
        rc = err.exit_code & 0xff;
        goto out;
    case WEFT_ERR_TRAP:
    case WEFT_ERR_EXCEPTION:
        cli_print_trap(&err);
        rc = CLI_EXIT_TRAP;
        goto out;
    default:
        fprintf(stderr, "error: %s: %s\n", weft_status_name(st), err.message);
        rc = CLI_EXIT_FAILURE;
        goto out;
    }
    const weft_ctype *rt = weft_component_func_result(fn);
    size_t need = 2;
    if (rt) {
        char small[256];
        st = weft_wave_print(rt, &result, small, sizeof small, &need, &err);
        if (st == WEFT_OK && need < sizeof small) {
            printf("%s\n", small);
            rc = 0;
            goto out;
        }
        if (st == WEFT_OK) {
            text = malloc(need + 1);
            if (!text) {
                fprintf(stderr, "error: out of memory printing the result\n");
                rc = CLI_EXIT_FAILURE;
                goto out;
            }
            st = weft_wave_print(rt, &result, text, need + 1, NULL, &err);
        }
        if (st != WEFT_OK) {
            fprintf(stderr, "error: --invoke '%s': the result: %s\n", o->invoke, err.message);
            rc = CLI_EXIT_FAILURE;
            goto out;
        }
        printf("%s\n", text);
    } else {
        printf("()\n"); /* wasm-wave's DisplayFuncResults of no results */
    }
    rc = 0;
out:
    fflush(stdout);
    free(text);
    weft_cval_pool_free(pool);
    return rc;
}
