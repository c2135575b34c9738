/* call.c — ns per call of a wasm export from the host, through the C API.
 *
 *   call [MODULE.wasm [ROUNDS]]     (default bench/micro/small.wasm)
 *
 * One instance of small.wasm; what is timed:
 *
 *   func_call add          weft_func_call of add(i32, i32) -> i32: the
 *                          host-to-wasm round trip of a trivial function
 *   func_call loop(N)      weft_func_call of loop(N), which runs N
 *                          iterations of a 5-instruction loop body, each with
 *                          a taken back-edge (one attention-word read)
 *   loop iteration         (loop(N) - add) / N, the interpreter's cost per
 *                          iteration without the call overhead
 *   exec reused add        the same call through one weft_exec made once
 *                          (weft_exec_start + weft_exec_run +
 *                          weft_exec_results), which a host can keep per
 *                          thread instead of paying weft_func_call's
 *                          execution setup on every call
 *
 * Calls pass a weft_error, as a host that wants trap messages does. */
#include "micro.h"

#define MAX_ROUNDS 101
#define LOOP_N 1000

/* Times `batch` weft_func_call(f, args) per round; fills per_op with ns per
   call and checks every result against `expect`. */
static void time_func_call(weft_func *f, const weft_val *args, size_t nargs, int32_t expect,
                           int batch, int rounds, double *per_op) {
    weft_error err;
    weft_val r;
    for (int k = 0; k <= rounds; k++) {
        int32_t bad = 0;
        uint64_t t0 = micro_now_ns();
        for (int i = 0; i < batch; i++) {
            weft_status st = weft_func_call(f, args, nargs, &r, 1, &err);
            if (st != WEFT_OK) micro_check(st, &err, "weft_func_call");
            bad |= r.of.i32 ^ expect;
        }
        uint64_t t1 = micro_now_ns();
        if (bad) {
            fprintf(stderr, "micro: wrong result %d, expected %d\n", (int)r.of.i32, (int)expect);
            exit(1);
        }
        if (k) per_op[k - 1] = (double)(t1 - t0) / batch;
    }
}

static void time_exec_reused(weft_store *store, weft_func *f, const weft_val *args, size_t nargs,
                             int32_t expect, int batch, int rounds, double *per_op) {
    weft_error err;
    weft_val r;
    weft_exec *e = weft_exec_new(store);
    if (!e) {
        fprintf(stderr, "micro: out of memory making an execution\n");
        exit(1);
    }
    for (int k = 0; k <= rounds; k++) {
        int32_t bad = 0;
        uint64_t t0 = micro_now_ns();
        for (int i = 0; i < batch; i++) {
            weft_status st = weft_exec_start(e, f, args, nargs);
            if (st == WEFT_OK) st = weft_exec_run(e, &err);
            if (st == WEFT_OK) st = weft_exec_results(e, &r, 1);
            if (st != WEFT_OK) micro_check(st, &err, "weft_exec_start/run/results");
            bad |= r.of.i32 ^ expect;
        }
        uint64_t t1 = micro_now_ns();
        if (bad) {
            fprintf(stderr, "micro: wrong result %d, expected %d\n", (int)r.of.i32, (int)expect);
            exit(1);
        }
        if (k) per_op[k - 1] = (double)(t1 - t0) / batch;
    }
    weft_exec_free(e);
}

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "bench/micro/small.wasm";
    int rounds = micro_rounds(argc, argv, 21);
    if (rounds > MAX_ROUNDS) rounds = MAX_ROUNDS;
    weft_engine *engine;
    weft_module *module = micro_load(&engine, path);
    weft_store *store = weft_store_new(engine);
    weft_instance *inst = NULL;
    weft_error err;
    if (!store) {
        fprintf(stderr, "micro: out of memory making a store\n");
        return 1;
    }
    micro_check(weft_instance_new(store, module, NULL, 0, &inst, &err), &err, "weft_instance_new");
    weft_func *add = weft_instance_func(inst, "add");
    weft_func *loop = weft_instance_func(inst, "loop");
    if (!add || !loop) {
        fprintf(stderr, "micro: %s lacks the exports add and loop\n", path);
        return 1;
    }

    weft_val add_args[2] = {{.type = WEFT_I32, .of.i32 = 40}, {.type = WEFT_I32, .of.i32 = 2}};
    weft_val loop_args[1] = {{.type = WEFT_I32, .of.i32 = LOOP_N}};
    uint32_t expect_loop = 0;
    for (uint32_t i = 0; i < LOOP_N; i++) expect_loop += (i * 3) ^ i;

    double t_add[MAX_ROUNDS], t_loop[MAX_ROUNDS], t_iter[MAX_ROUNDS], t_exec[MAX_ROUNDS],
        t_exec_loop[MAX_ROUNDS];
    time_func_call(add, add_args, 2, 42, 5000, rounds, t_add);
    time_func_call(loop, loop_args, 1, (int32_t)expect_loop, 2000, rounds, t_loop);
    time_exec_reused(store, add, add_args, 2, 42, 1000000, rounds, t_exec);
    time_exec_reused(store, loop, loop_args, 1, (int32_t)expect_loop, 5000, rounds, t_exec_loop);
    /* Per iteration from the reused-exec figures, where the fixed part is
       smallest: both sorted, so the min pairs with the min and the median
       with the median. */
    double mn, md;
    micro_summary(t_exec, rounds, &mn, &md);
    micro_summary(t_exec_loop, rounds, &mn, &md);
    for (int k = 0; k < rounds; k++) t_iter[k] = (t_exec_loop[k] - t_exec[k]) / LOOP_N;

    char what[96], what_loop[96];
    snprintf(what, sizeof what, "%d rounds", rounds);
    snprintf(what_loop, sizeof what_loop, "N = %d, %d rounds", LOOP_N, rounds);
    micro_report("func_call add", t_add, rounds, "ns", what);
    micro_report("func_call loop(N)", t_loop, rounds, "ns", what_loop);
    micro_report("exec reused add", t_exec, rounds, "ns", what);
    micro_report("exec reused loop(N)", t_exec_loop, rounds, "ns", what_loop);
    micro_report("loop iteration", t_iter, rounds, "ns", "(exec loop(N) - exec add) / N");

    weft_store_free(store);
    weft_module_release(module);
    weft_engine_free(engine);
    return 0;
}
