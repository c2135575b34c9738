/* host — a small embedder built against an installed weft with nothing
   but `pkg-config --cflags --libs weft` (tests/install/run.sh): prints
   the library's version, calls add(2, 3) of argv[1] (calc.wasm) and
   loop_n(100) of argv[2] (count.wasm) with a budget of 98 units, one too
   few, and prints the trap. */
#include <stdio.h>
#include <string.h>

#include <weft.h>

static weft_instance *instantiate(weft_store *store, weft_engine *engine, const char *path,
                                  weft_wasi **wasi_out) {
    weft_error err;
    weft_module *m;
    if (weft_module_load_file(engine, path, &m, &err) != WEFT_OK) {
        fprintf(stderr, "%s: %s\n", path, err.message);
        return NULL;
    }
    weft_linker *linker = weft_linker_new(store);
    weft_wasi_config wc;
    weft_wasi_config_init(&wc);
    weft_wasi *wasi = NULL;
    weft_instance *inst = NULL;
    if (weft_wasi_new(&wc, &wasi, &err) != WEFT_OK || weft_wasi_define(wasi, store, linker, &err) != WEFT_OK ||
        weft_linker_instantiate(linker, m, &inst, &err) != WEFT_OK)
        fprintf(stderr, "%s: %s\n", path, err.message);
    weft_linker_free(linker);
    weft_module_release(m);
    *wasi_out = wasi; /* the instance's WASI imports use it: freed last */
    return inst;
}

int main(int argc, char **argv) {
    if (argc != 3) return 2;
    printf("libweft %s (header %s)\n", weft_version(), WEFT_VERSION);
    weft_engine *engine = weft_engine_new(NULL);
    weft_store *store = weft_store_new(engine);
    weft_wasi *w1 = NULL, *w2 = NULL;
    weft_instance *calc = instantiate(store, engine, argv[1], &w1);
    weft_instance *count = instantiate(store, engine, argv[2], &w2);
    if (!calc || !count) return 1;
    weft_error err;
    weft_val args[2] = {{.type = WEFT_I32, .of.i32 = 2}, {.type = WEFT_I32, .of.i32 = 3}}, res;
    if (weft_func_call(weft_instance_func(calc, "add"), args, 2, &res, 1, &err) != WEFT_OK) return 1;
    printf("add(2, 3) = %d\n", res.of.i32);
    weft_store_set_fuel(store, 98);
    weft_val n = {.type = WEFT_I32, .of.i32 = 100};
    weft_status st = weft_func_call(weft_instance_func(count, "loop_n"), &n, 1, &res, 1, &err);
    printf("loop_n(100) with 98 units: %s: %s\n", weft_status_name(st), err.message);
    weft_store_free(store);
    weft_wasi_free(w1);
    weft_wasi_free(w2);
    weft_engine_free(engine);
    return 0;
}
