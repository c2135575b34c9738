/* threads_test.c — one module shared to 4 threads (wasm_module_share /
   wasm_module_obtain), each with a store of its own that imports a host
   function of its store and one shared memory (weft_shared_memory_new,
   weft_wasm_memory_obtain_shared), instantiates the module and calls it:
   each thread's calls reach its own callback, and the atomic adds of all
   four land in the one memory. Run under ThreadSanitizer by .ci/run. */
#include <pthread.h>
#include <stdatomic.h>

#include "check.h"

#define NTHREADS 4
#define NCALLS 2000

typedef struct {
    wasm_engine_t *engine;
    const wasm_shared_module_t *shared;
    weft_shared_memory *memory;
    int id;
    /* results, checked by the main thread after the join */
    int calls;             /* callback calls seen */
    int wrong;             /* results that were not cb(x) + 1 */
    bool same_module;      /* obtained the one compiled module */
    bool instantiated;
    weft_module *expect;
} worker;

static wasm_trap_t *cb(void *env, const wasm_val_vec_t *args, wasm_val_vec_t *results) {
    worker *w = env;
    w->calls++;
    results->data[0].kind = WASM_I32;
    results->data[0].of.i32 = args->data[0].of.i32 * 10 + w->id;
    return NULL;
}

static void *run(void *arg) {
    worker *w = arg;
    wasm_store_t *store = wasm_store_new(w->engine);
    wasm_module_t *module = wasm_module_obtain(store, w->shared);
    w->same_module = module && weft_wasm_module(module) == w->expect;
    wasm_functype_t *ft = wasm_functype_new_1_1(wasm_valtype_new_i32(), wasm_valtype_new_i32());
    wasm_func_t *f = wasm_func_new_with_env(store, ft, cb, w, NULL);
    wasm_functype_delete(ft);
    wasm_memory_t *mem = weft_wasm_memory_obtain_shared(store, w->memory);
    wasm_extern_t *imps[2] = {wasm_func_as_extern(f), wasm_memory_as_extern(mem)};
    wasm_extern_vec_t iv = WASM_ARRAY_VEC(imps);
    wasm_trap_t *trap = NULL;
    wasm_instance_t *inst = wasm_instance_new(store, module, &iv, &trap);
    w->instantiated = inst != NULL;
    if (trap) {
        wasm_message_t m;
        wasm_trap_message(trap, &m);
        printf("thread %d: %s\n", w->id, m.data);
        wasm_byte_vec_delete(&m);
        wasm_trap_delete(trap);
    }
    if (inst) {
        wasm_extern_vec_t exps;
        wasm_instance_exports(inst, &exps);
        const wasm_func_t *runf = wasm_extern_as_func(exps.data[0]);
        const wasm_func_t *bump = wasm_extern_as_func(exps.data[1]);
        for (int i = 0; i < NCALLS; i++) {
            wasm_val_t a[1] = {WASM_I32_VAL(i)}, r[1] = {WASM_INIT_VAL};
            wasm_val_vec_t av = WASM_ARRAY_VEC(a), rv = WASM_ARRAY_VEC(r), none = WASM_EMPTY_VEC;
            wasm_trap_t *t = wasm_func_call(runf, &av, &rv);
            if (t || r[0].of.i32 != i * 10 + w->id + 1) w->wrong++;
            wasm_trap_delete(t);
            wasm_val_t one[1] = {WASM_I32_VAL(1)};
            wasm_val_vec_t ov = WASM_ARRAY_VEC(one);
            t = wasm_func_call(bump, &ov, &none);
            if (t) w->wrong++;
            wasm_trap_delete(t);
        }
        wasm_extern_vec_delete(&exps);
        wasm_instance_delete(inst);
    }
    wasm_memory_delete(mem);
    wasm_func_delete(f);
    wasm_module_delete(module);
    wasm_store_delete(store);
    return NULL;
}

int main(void) {
    wasm_engine_t *engine = wasm_engine_new();
    wasm_byte_vec_t bin;
    check_read("tests/capi/wasm/threads.wasm", &bin);
    /* Compiled in a store of the main thread, which goes before the
       threads start: the shared module does not need it. */
    wasm_store_t *store = wasm_store_new(engine);
    wasm_module_t *module = wasm_module_new(store, &bin);
    wasm_byte_vec_delete(&bin);
    CHECK("threads.wasm loads", module != NULL);
    if (!module) return check_done();
    wasm_shared_module_t *shared = wasm_module_share(module);
    weft_module *expect = weft_wasm_module(module);
    weft_module_retain(expect);
    wasm_module_delete(module);
    wasm_store_delete(store);

    weft_shared_memory *sm = NULL;
    weft_limits lim = {.min = 1, .max = 1, .has_max = true, .shared = true};
    weft_error err;
    CHECK("shared memory", weft_shared_memory_new(weft_wasm_engine(engine), lim, &sm, &err) == WEFT_OK);

    worker w[NTHREADS];
    pthread_t th[NTHREADS];
    for (int i = 0; i < NTHREADS; i++) {
        w[i] = (worker){engine, shared, sm, i, 0, 0, false, false, expect};
        pthread_create(&th[i], NULL, run, &w[i]);
    }
    for (int i = 0; i < NTHREADS; i++) pthread_join(th[i], NULL);
    for (int i = 0; i < NTHREADS; i++) {
        CHECK("each thread obtained the one compiled module", w[i].same_module);
        CHECK("each thread instantiated it", w[i].instantiated);
        CHECK("each thread's calls reached its own callback", w[i].calls == NCALLS);
        CHECK("each thread's results were right", w[i].wrong == 0);
    }
    _Atomic uint32_t *word = (_Atomic uint32_t *)weft_memory_data(weft_shared_memory_get(sm));
    CHECK("the atomic adds of every thread reached the one shared memory",
          atomic_load(word) == (uint32_t)(NTHREADS * NCALLS));
    weft_shared_memory_release(sm);
    weft_module_release(expect);
    wasm_shared_module_delete(shared);
    wasm_engine_delete(engine);
    return check_done();
}
