/* instantiate.c — µs to instantiate a small module through the C API.
 *
 *   instantiate [MODULE.wasm [ROUNDS]]     (default bench/micro/small.wasm)
 *
 * The module is decoded, validated and compiled once (weft_module_load);
 * what is timed is making instances of it:
 *
 *   instance_new          weft_instance_new in a store that already exists
 *                         (BATCH instances per store; the store's creation
 *                         and freeing are not timed)
 *   store_new+instance    weft_store_new + weft_instance_new (the stores are
 *                         freed afterwards, untimed)
 *   store_free            weft_store_free of a store holding one instance
 *   store+instance+free   the whole cycle a host pays per isolated request
 *
 * For small.wasm an instance is one 1-page memory (4 GiB of address space
 * reserved, one page committed and written by the data segment), a 4-entry
 * table filled by an element segment, one global and the export map. */
#include "micro.h"

#define BATCH 200
#define MAX_ROUNDS 101

static weft_instance *make_instance(weft_store *store, weft_module *module) {
    weft_error err;
    weft_instance *inst = NULL;
    micro_check(weft_instance_new(store, module, NULL, 0, &inst, &err), &err, "weft_instance_new");
    return inst;
}

static weft_store *make_store(weft_engine *engine) {
    weft_store *s = weft_store_new(engine);
    if (!s) {
        fprintf(stderr, "micro: out of memory making a store\n");
        exit(1);
    }
    return s;
}

/* Instances made by the benchmark must work: checksum() reads the data
   segment through the table and must give the known value. */
static void check_instance(weft_instance *inst) {
    weft_func *f = weft_instance_func(inst, "checksum");
    weft_val r;
    weft_error err;
    if (!f) {
        fprintf(stderr, "micro: the module has no export \"checksum\"\n");
        exit(1);
    }
    micro_check(weft_func_call(f, NULL, 0, &r, 1, &err), &err, "checksum()");
    if (r.of.i32 != -68) {
        fprintf(stderr, "micro: checksum() = %d, expected -68\n", (int)r.of.i32);
        exit(1);
    }
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "bench/micro/small.wasm";
    int rounds = micro_rounds(argc, argv, 21);
    if (rounds > MAX_ROUNDS) rounds = MAX_ROUNDS;
    weft_engine *engine;
    weft_module *module = micro_load(&engine, path);
    static weft_store *stores[BATCH];
    double t_inst[MAX_ROUNDS], t_store_inst[MAX_ROUNDS], t_free[MAX_ROUNDS], t_cycle[MAX_ROUNDS];

    {
        weft_store *s = make_store(engine);
        check_instance(make_instance(s, module));
        weft_store_free(s);
    }

    /* Round 0 is the warm-up; rounds 1..rounds are recorded. */
    for (int r = 0; r <= rounds; r++) {
        weft_store *s = make_store(engine);
        uint64_t t0 = micro_now_ns();
        for (int i = 0; i < BATCH; i++) make_instance(s, module);
        uint64_t t1 = micro_now_ns();
        weft_store_free(s);
        if (r) t_inst[r - 1] = (double)(t1 - t0) / BATCH / 1e3;
    }

    for (int r = 0; r <= rounds; r++) {
        uint64_t t0 = micro_now_ns();
        for (int i = 0; i < BATCH; i++) {
            stores[i] = make_store(engine);
            make_instance(stores[i], module);
        }
        uint64_t t1 = micro_now_ns();
        for (int i = 0; i < BATCH; i++) weft_store_free(stores[i]);
        uint64_t t2 = micro_now_ns();
        if (r) {
            t_store_inst[r - 1] = (double)(t1 - t0) / BATCH / 1e3;
            t_free[r - 1] = (double)(t2 - t1) / BATCH / 1e3;
        }
    }

    for (int r = 0; r <= rounds; r++) {
        uint64_t t0 = micro_now_ns();
        for (int i = 0; i < BATCH; i++) {
            weft_store *s = make_store(engine);
            make_instance(s, module);
            weft_store_free(s);
        }
        uint64_t t1 = micro_now_ns();
        if (r) t_cycle[r - 1] = (double)(t1 - t0) / BATCH / 1e3;
    }

    char what[96];
    snprintf(what, sizeof what, "%d rounds of %d", rounds, BATCH);
    micro_report("instance_new", t_inst, rounds, "us", what);
    micro_report("store_new+instance_new", t_store_inst, rounds, "us", what);
    micro_report("store_free", t_free, rounds, "us", what);
    micro_report("store+instance+free", t_cycle, rounds, "us", what);

    weft_module_release(module);
    weft_engine_free(engine);
    return 0;
}
