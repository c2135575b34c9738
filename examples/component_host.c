/* component_host.c — a C host for a component (docs/components.md "The C
   API"): it serves the component's import `example:host/api@0.1.0` with C
   functions over lifted values and a host resource `counter`, adds WASI
   0.2, and calls the exports named on the command line in WAVE:

     build/examples/component_host examples/component_guest.wasm \
         'greet("world")' 'count(10, 3)' 'sum-host([1, 2, 3])'

   prints each call's result in WAVE, one a line, and what the host saw.
   Exit 0; 1 when a call fails (the message on stderr); 2 when the
   component cannot be loaded or linked. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "weft.h"

/* The host's counters: a resource's rep is its index here. */
typedef struct counters {
    uint32_t value[64];
    uint32_t n;
} counters;

static weft_status host_log(void *env, weft_component_host_call *call, const weft_cval *args,
                            uint32_t nargs, weft_cval *result, weft_error *err) {
    (void)env, (void)call, (void)nargs, (void)result, (void)err;
    fprintf(stderr, "[log] %.*s\n", (int)args[0].n, args[0].v.str);
    return WEFT_OK;
}

/* shout(s: string) -> string: the result is made in the call's pool. */
static weft_status host_shout(void *env, weft_component_host_call *call, const weft_cval *args,
                              uint32_t nargs, weft_cval *result, weft_error *err) {
    (void)env, (void)nargs;
    char *s = weft_cval_pool_alloc(weft_component_host_call_pool(call), args[0].n + 1);
    if (!s) {
        snprintf(err->message, sizeof err->message, "shout: out of memory");
        return WEFT_ERR_NOMEM;
    }
    for (uint32_t i = 0; i < args[0].n; i++) s[i] = (char)toupper((unsigned char)args[0].v.str[i]);
    *result = (weft_cval){.kind = WEFT_CSTRING, .n = args[0].n, .v.str = s};
    return WEFT_OK;
}

static weft_status host_sum(void *env, weft_component_host_call *call, const weft_cval *args,
                            uint32_t nargs, weft_cval *result, weft_error *err) {
    (void)env, (void)call, (void)nargs, (void)err;
    uint32_t s = 0;
    for (uint32_t i = 0; i < args[0].n; i++) s += (uint32_t)args[0].v.items[i].v.u;
    *result = (weft_cval){.kind = WEFT_CU32, .v.u = s};
    return WEFT_OK;
}

/* make-counter(start: u32) -> own<counter>: the host picks the rep. */
static weft_status host_make(void *env, weft_component_host_call *call, const weft_cval *args,
                             uint32_t nargs, weft_cval *result, weft_error *err) {
    (void)call, (void)nargs;
    counters *c = env;
    if (c->n == 64) {
        snprintf(err->message, sizeof err->message, "make-counter: no room for another");
        return WEFT_ERR_TRAP;
    }
    c->value[c->n] = (uint32_t)args[0].v.u;
    *result = (weft_cval){.kind = WEFT_COWN, .v.rep = c->n++};
    return WEFT_OK;
}

/* [method]counter.bump(self: borrow<counter>) -> u32 */
static weft_status host_bump(void *env, weft_component_host_call *call, const weft_cval *args,
                             uint32_t nargs, weft_cval *result, weft_error *err) {
    (void)call, (void)nargs, (void)err;
    counters *c = env;
    *result = (weft_cval){.kind = WEFT_CU32, .v.u = ++c->value[args[0].v.rep]};
    return WEFT_OK;
}

/* The component dropped its last handle to counter `rep`. */
static void counter_dtor(void *env, uint32_t rep) {
    counters *c = env;
    fprintf(stderr, "[counter %u dropped at %u]\n", rep, c->value[rep]);
}

static int call_one(weft_component_instance *ci, const char *text) {
    weft_error err;
    weft_cval_pool *pool = weft_cval_pool_new(0);
    weft_component_func *fn;
    weft_cval *args, result;
    uint32_t nargs;
    int rc = 1;
    if (!pool) return 1;
    if (weft_wave_parse_call(ci, text, &fn, &args, &nargs, pool, &err) != WEFT_OK ||
        weft_component_func_call(fn, args, nargs, &result, pool, &err) != WEFT_OK) {
        fprintf(stderr, "%s: %s\n", text, err.message);
        goto out;
    }
    const weft_ctype *rt = weft_component_func_result(fn);
    char buf[4096];
    if (!rt) printf("()\n");
    else if (weft_wave_print(rt, &result, buf, sizeof buf, NULL, &err) == WEFT_OK) printf("%s\n", buf);
    else {
        fprintf(stderr, "%s: %s\n", text, err.message);
        goto out;
    }
    rc = 0;
out:
    weft_cval_pool_free(pool);
    return rc;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s COMPONENT.wasm 'export(args)'...\n", argv[0]);
        return 2;
    }
    int rc = 2;
    weft_error err;
    counters cnt = {{0}, 0};
    weft_engine *engine = weft_engine_new(NULL);
    weft_store *store = engine ? weft_store_new(engine) : NULL;
    weft_component *comp = NULL;
    weft_component_instance *ci = NULL;
    weft_component_linker *linker = weft_component_linker_new();
    if (!store || !linker) goto out;
    if (weft_component_load_file(engine, argv[1], &comp, &err) != WEFT_OK) {
        fprintf(stderr, "%s: %s\n", argv[1], err.message);
        goto out;
    }
    const char *api = "example:host/api@0.1.0";
    if (weft_component_linker_define_func(linker, api, "log", host_log, NULL, NULL, &err) ||
        weft_component_linker_define_func(linker, api, "shout", host_shout, NULL, NULL, &err) ||
        weft_component_linker_define_func(linker, api, "sum", host_sum, NULL, NULL, &err) ||
        weft_component_linker_define_func(linker, api, "make-counter", host_make, &cnt, NULL, &err) ||
        weft_component_linker_define_func(linker, api, "[method]counter.bump", host_bump, &cnt,
                                          NULL, &err) ||
        weft_component_linker_define_resource(linker, api, "counter", counter_dtor, &cnt, NULL,
                                              NULL, &err)) {
        fprintf(stderr, "defining the host: %s\n", err.message);
        goto out;
    }
    weft_wasi_config wasi;
    weft_wasi_config_init(&wasi);
    if (weft_component_linker_instantiate(linker, store, comp, &wasi, &ci, &err) != WEFT_OK) {
        fprintf(stderr, "%s: %s\n", argv[1], err.message);
        goto out;
    }
    rc = 0;
    for (int i = 2; i < argc; i++)
        if (call_one(ci, argv[i]) != 0) rc = 1;
out:
    weft_component_instance_free(ci);
    weft_component_linker_free(linker);
    weft_component_release(comp);
    weft_store_free(store);
    weft_engine_free(engine);
    return rc;
}
