/*
 * component.c — `weft run` of a component (weft.h: component instances):
 * load, instantiate with WASI 0.2 from the same options a module gets,
 * call the command's wasi:cli/run. What a component cannot have yet is
 * refused by name with exit 2.
 */
#include <stdio.h>
#include <string.h>

#include "cli.h"

int cli_run_component(const cli_run_opts *o, weft_engine *engine, const weft_wasi_config *wc) {
    /* Options whose machinery runs a core module's _start as a process
       (process.c) or calls a core export: components get them later. */
    const char *unsupported = o->timeout_ns      ? "--timeout"
                              : o->deterministic ? "--deterministic"
                              : o->explore       ? "--explore"
                                                 : NULL;
    if (unsupported) {
        fprintf(stderr,
                "error: %s: %s is not supported for components yet (weft runs a component's "
                "wasi:cli/run or --invoke; --fuel, --dir, --env and the limits apply)\n",
                o->file, unsupported);
        return CLI_EXIT_USAGE;
    }
    weft_error err;
    memset(&err, 0, sizeof err);
    int rc = CLI_EXIT_USAGE;
    weft_component *comp = NULL;
    weft_store *store = NULL;
    weft_component_instance *ci = NULL;
    weft_status st = weft_component_load_file(engine, o->file, &comp, &err);
    if (st != WEFT_OK) {
        fprintf(stderr, "error: %s: %s: %s\n", o->file, weft_status_name(st), err.message);
        rc = st == WEFT_ERR_NOMEM ? CLI_EXIT_FAILURE : CLI_EXIT_USAGE;
        goto out;
    }
    store = weft_store_new(engine);
    if (!store) {
        fprintf(stderr, "error: out of memory\n");
        rc = CLI_EXIT_FAILURE;
        goto out;
    }
    if (o->fuel) weft_store_set_fuel(store, o->fuel);
    st = weft_component_instantiate_wasi(store, comp, wc, &ci, &err);
    if (st == WEFT_ERR_TRAP) {
        cli_print_trap(&err);
        rc = CLI_EXIT_TRAP;
        goto out;
    }
    if (st != WEFT_OK) {
        fprintf(stderr, "error: %s: %s: %s\n", o->file, weft_status_name(st), err.message);
        rc = st == WEFT_ERR_NOMEM ? CLI_EXIT_FAILURE : CLI_EXIT_USAGE;
        goto out;
    }
    if (o->invoke) {
        rc = cli_invoke_component(o, ci);
        goto out;
    }
    int32_t code = 0;
    st = weft_component_run(ci, &code, &err);
    switch (st) {
    case WEFT_OK:
        rc = code & 0xff;
        break;
    case WEFT_ERR_TRAP:
    case WEFT_ERR_EXCEPTION:
        cli_print_trap(&err);
        rc = CLI_EXIT_TRAP;
        break;
    case WEFT_ERR_NOT_FOUND:
        fprintf(stderr, "error: %s: %s\n", o->file, err.message);
        rc = CLI_EXIT_USAGE;
        break;
    default:
        fprintf(stderr, "error: %s: %s\n", weft_status_name(st), err.message);
        rc = CLI_EXIT_FAILURE;
        break;
    }
out:
    fflush(stdout);
    weft_component_instance_free(ci);
    weft_store_free(store);
    weft_component_release(comp);
    return rc;
}
