/*
 * check.c — "loud at load, never silently wrong": a module that asks for
 * wasi-threads in a shape weft cannot run correctly is refused before it
 * runs, with the reason and the build flags that fix it. Running such a
 * module anyway would give each thread its own memory (so the threads would
 * silently not share anything) or no way to start a thread at all.
 */
#include <stdio.h>
#include <string.h>

#include "threads.h"

static bool thr_functype_is(const weft_functype *t, uint32_t np, const weft_valtype *p,
                            uint32_t nr, const weft_valtype *r) {
    if (t->nparams != np || t->nresults != nr) return false;
    for (uint32_t i = 0; i < np; i++)
        if (t->params[i] != p[i]) return false;
    for (uint32_t i = 0; i < nr; i++)
        if (t->results[i] != r[i]) return false;
    return true;
}

weft_status thr_check_module(const weft_module *m, thr_shape *shape, weft_error *err) {
    static const weft_valtype i32x2[2] = {WEFT_I32, WEFT_I32};
    memset(shape, 0, sizeof *shape);
    uint32_t nmem_imports = 0;
    uint32_t nimports = weft_module_import_count(m);
    for (uint32_t i = 0; i < nimports; i++) {
        weft_name mod, name;
        weft_externtype t;
        if (weft_module_import(m, i, &mod, &name, &t) != WEFT_OK) continue;
        if (t.kind == WEFT_EXTERN_FUNC && weft_name_is(mod, "wasi") &&
            weft_name_is(name, "thread-spawn")) {
            if (!thr_functype_is(&t.func, 1, i32x2, 1, i32x2))
                return base_fail(err, WEFT_ERR_LINK,
                                 "wasi-threads: this module imports wasi.thread-spawn with the "
                                 "wrong type; it must be (func (param i32) (result i32)); %s",
                                 THR_FIX);
            shape->spawns = true;
        } else if (t.kind == WEFT_EXTERN_MEMORY) {
            nmem_imports++;
            shape->has_memory_import = true;
            shape->mem_module = mod;
            shape->mem_name = name;
            shape->mem_limits = t.limits;
        }
    }
    if (nmem_imports > 1)
        return base_fail(err, WEFT_ERR_LINK,
                         "this module imports %u memories; a WASI process provides one "
                         "(env.memory)", nmem_imports);

    bool has_thread_start = false, bad_thread_start = false;
    uint32_t nexports = weft_module_export_count(m);
    for (uint32_t i = 0; i < nexports; i++) {
        weft_name name;
        weft_externtype t;
        if (weft_module_export(m, i, &name, &t) != WEFT_OK) continue;
        if (!weft_name_is(name, "wasi_thread_start")) continue;
        has_thread_start = true;
        if (t.kind != WEFT_EXTERN_FUNC || !thr_functype_is(&t.func, 2, i32x2, 0, NULL))
            bad_thread_start = true;
    }
    if (!shape->spawns) return WEFT_OK;

    /* A module that spawns threads. */
    if (!shape->has_memory_import)
        return base_fail(err, WEFT_ERR_LINK,
                         "wasi-threads: this module imports wasi.thread-spawn but does not "
                         "import its memory (it defines its own, or has none), so its threads "
                         "could not share one address space; %s", THR_FIX);
    if (!shape->mem_limits.shared)
        return base_fail(err, WEFT_ERR_LINK,
                         "wasi-threads: this module imports wasi.thread-spawn but its memory "
                         "%s.%s is not shared, so it cannot back more than one thread; %s",
                         shape->mem_module.data, shape->mem_name.data, THR_FIX);
    if (!shape->mem_limits.has_max)
        return base_fail(err, WEFT_ERR_LINK,
                         "wasi-threads: the shared memory %s.%s declares no maximum size, so "
                         "it cannot be reserved once for every thread; %s",
                         shape->mem_module.data, shape->mem_name.data, THR_FIX);
    if (!has_thread_start)
        return base_fail(err, WEFT_ERR_LINK,
                         "wasi-threads: this module imports wasi.thread-spawn but exports no "
                         "wasi_thread_start, so a new thread has no entry point; %s", THR_FIX);
    if (bad_thread_start)
        return base_fail(err, WEFT_ERR_LINK,
                         "wasi-threads: the export wasi_thread_start must be a function "
                         "(param i32 i32) (the tid and the start argument); %s", THR_FIX);
    return WEFT_OK;
}
