/*
 * host.c — the `spectest` module that spec scripts import from, as the
 * spec's reference interpreter defines it (../shared/spec/README.md):
 * print functions that do nothing, four immutable globals holding 666 or
 * 666.6, a funcref table 10..20, a memory 1..2 and a shared memory 1..2.
 * Everything is made in the script's store, so it is freed with it.
 */
#include <string.h>

#include "spectest.h"

static weft_status spec_print(weft_caller *caller, void *env,
                              const weft_val *args, weft_val *results)
{
    (void)caller;
    (void)env;
    (void)args;
    (void)results;
    return WEFT_OK;
}

static weft_status define(weft_linker *linker, const char *name, weft_extern ext,
                          weft_error *err)
{
    weft_status st = weft_linker_define(linker, "spectest", name, ext);
    if (st != WEFT_OK && err) {
        memset(err, 0, sizeof *err);
        err->status = st;
        strcpy(err->message, "cannot define a spectest export in the linker");
    }
    return st;
}

weft_status spec_host_define(weft_store *store, weft_linker *linker,
                             const char **note, weft_error *err)
{
    static const weft_valtype i32[] = {WEFT_I32}, i64[] = {WEFT_I64},
                              f32[] = {WEFT_F32}, f64[] = {WEFT_F64},
                              i32_f32[] = {WEFT_I32, WEFT_F32},
                              f64_f64[] = {WEFT_F64, WEFT_F64};
    static const struct {
        const char *name;
        uint32_t nparams;
        const weft_valtype *params;
    } funcs[] = {
        {"print", 0, NULL},         {"print_i32", 1, i32},
        {"print_i64", 1, i64},      {"print_f32", 1, f32},
        {"print_f64", 1, f64},      {"print_i32_f32", 2, i32_f32},
        {"print_f64_f64", 2, f64_f64},
    };
    weft_status st;
    weft_extern ext;
    *note = NULL;

    for (size_t i = 0; i < sizeof funcs / sizeof funcs[0]; i++) {
        weft_functype ft = {funcs[i].nparams, 0, funcs[i].params, NULL};
        weft_func *f = weft_func_new(store, &ft, spec_print, NULL, NULL);
        if (!f) {
            if (err) {
                memset(err, 0, sizeof *err);
                err->status = WEFT_ERR_NOMEM;
                strcpy(err->message, "weft_func_new failed for a spectest function");
            }
            return WEFT_ERR_NOMEM;
        }
        ext.kind = WEFT_EXTERN_FUNC;
        ext.of.func = f;
        if ((st = define(linker, funcs[i].name, ext, err)) != WEFT_OK)
            return st;
    }

    /* 666.6 rounded to f32 and to f64, as the reference interpreter has it. */
    float f32v = 666.6f;
    double f64v = 666.6;
    weft_val globals[4];
    memset(globals, 0, sizeof globals);
    globals[0].type = WEFT_I32;
    globals[0].of.i32 = 666;
    globals[1].type = WEFT_I64;
    globals[1].of.i64 = 666;
    globals[2].type = WEFT_F32;
    memcpy(&globals[2].of.f32_bits, &f32v, sizeof f32v);
    globals[3].type = WEFT_F64;
    memcpy(&globals[3].of.f64_bits, &f64v, sizeof f64v);
    static const char *const global_names[4] = {"global_i32", "global_i64",
                                                 "global_f32", "global_f64"};
    for (size_t i = 0; i < 4; i++) {
        weft_global *g;
        if ((st = weft_global_new(store, globals[i], false, &g, err)) != WEFT_OK)
            return st;
        ext.kind = WEFT_EXTERN_GLOBAL;
        ext.of.global = g;
        if ((st = define(linker, global_names[i], ext, err)) != WEFT_OK)
            return st;
    }

    weft_limits tl = {.min = 10, .max = 20, .has_max = true};
    weft_table *table;
    if ((st = weft_table_new(store, WEFT_FUNCREF, tl, &table, err)) != WEFT_OK)
        return st;
    ext.kind = WEFT_EXTERN_TABLE;
    ext.of.table = table;
    if ((st = define(linker, "table", ext, err)) != WEFT_OK)
        return st;
    /* The reference interpreter's spectest also has a table with 64-bit
       indices (memory64): (table (export "table64") i64 10 20 funcref). */
    weft_limits tl64 = {.min = 10, .max = 20, .has_max = true, .is64 = true};
    if ((st = weft_table_new(store, WEFT_FUNCREF, tl64, &table, err)) != WEFT_OK)
        return st;
    ext.of.table = table;
    if ((st = define(linker, "table64", ext, err)) != WEFT_OK)
        return st;

    weft_limits ml = {.min = 1, .max = 2, .has_max = true};
    weft_memory *mem;
    if ((st = weft_memory_new(store, ml, &mem, err)) != WEFT_OK)
        return st;
    ext.kind = WEFT_EXTERN_MEMORY;
    ext.of.memory = mem;
    if ((st = define(linker, "memory", ext, err)) != WEFT_OK)
        return st;

    /* Only the threads group imports this one; an engine without shared
       memories yet still runs every other group. */
    weft_limits sl = {.min = 1, .max = 2, .has_max = true, .shared = true};
    weft_error serr;
    if (weft_memory_new(store, sl, &mem, &serr) != WEFT_OK) {
        *note = "spectest.shared_memory left out: the engine refused a shared memory";
        return WEFT_OK;
    }
    ext.of.memory = mem;
    return define(linker, "shared_memory", ext, err);
}
