/* limits_test — fuel and the process time limit through the C API
   (weft_store_set_fuel, weft_process_config.fuel and .timeout_ns), on the
   guests of tests/limits (count.wasm, spin.wasm, sleep.wasm) and
   tests/threads (spinners, parked_forever):
   - fuel is exact and deterministic: (loop_n N) costs N-1 units, (calls_n
     N) 2N-1, across chunk boundaries, on every run; the budget left after a
     call is exact; N-1 units pass and N-2 trap with WEFT_TRAP_OUT_OF_FUEL;
   - a suspend request in the middle of a metered call keeps the count;
   - every shape of the fuel rule (fuel.wasm: br, br_if, br_table, fused
     and paired back-edges, a loop with a call, a recursion, a switch loop
     that tail duplication rewrites, forward branches) costs exactly its
     units: the iterations begun under a budget are counted in a global;
   - without a budget weft_store_fuel says WEFT_FUEL_UNLIMITED;
   - a process's time limit ends a spinning, a sleeping, and a parked
     multi-threaded program with WEFT_PROCESS_TIMEOUT, both on OS threads
     and on a scheduler; a process's fuel traps a spinning thread. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "weft.h"

#include "check.h"

static weft_engine *engine;

/* calls `name`(n) in a fresh store with `fuel` (WEFT_FUEL_UNLIMITED: no
   budget); returns the status, the fuel left in *left. */
static weft_status call_with_fuel(weft_module *m, const char *name, int32_t n, uint64_t fuel,
                                  uint64_t *left, weft_error *err) {
    weft_store *store = weft_store_new(engine);
    weft_linker *linker = weft_linker_new(store);
    weft_wasi_config wc;
    weft_wasi_config_init(&wc);
    weft_wasi *wasi;
    CHECK(weft_wasi_new(&wc, &wasi, err) == WEFT_OK, "wasi: %s", err->message);
    CHECK(weft_wasi_define(wasi, store, linker, err) == WEFT_OK, "define: %s", err->message);
    CHECK(weft_store_set_fuel(store, fuel) == WEFT_OK, "set_fuel");
    weft_instance *inst;
    CHECK(weft_linker_instantiate(linker, m, &inst, err) == WEFT_OK, "instantiate: %s", err->message);
    weft_func *f = weft_instance_func(inst, name);
    CHECK(f, "no export %s", name);
    weft_val arg = {.type = WEFT_I32, .of.i32 = n}, res;
    weft_status st = weft_func_call(f, &arg, 1, &res, 1, err);
    if (st == WEFT_OK) CHECK(res.of.i32 == n, "%s(%d) = %d", name, n, res.of.i32);
    *left = weft_store_fuel(store);
    weft_linker_free(linker);
    weft_store_free(store);
    weft_wasi_free(wasi);
    return st;
}

/* Every shape of the fuel rule (fuel.wat): with a budget of F, each
   export loops until "all fuel consumed", and the global n it counts
   iterations in says how many began: F + 1 for one unit an iteration
   (a back-edge, or a call), F / 2 + 1 for two (a call and a back-edge). */
static void test_fuel_shapes(weft_module *m) {
    static const struct { const char *name; int per; } shapes[] = {
        {"br", 1},      {"br_if", 1},  {"br_table", 1}, {"fused", 1},  {"pair_br_if", 1}, {"pair_br", 1},
        {"call", 2},    {"rec", 1},    {"switch", 1},   {"forward", 1},
    };
    static const uint64_t budgets[] = {1, 2, 3, 1023, 1024, 1025, 4097, 100000};
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++)
        for (size_t b = 0; b < sizeof budgets / sizeof budgets[0]; b++) {
            uint64_t fuel = budgets[b];
            weft_error err;
            weft_store *store = weft_store_new(engine);
            CHECK(weft_store_set_fuel(store, fuel) == WEFT_OK, "set_fuel");
            weft_instance *inst;
            CHECK(weft_instance_new(store, m, NULL, 0, &inst, &err) == WEFT_OK, "instantiate: %s", err.message);
            weft_func *f = weft_instance_func(inst, shapes[s].name);
            CHECK(f, "no export %s", shapes[s].name);
            weft_val arg = {.type = WEFT_I32, .of.i32 = 0};
            weft_status st = weft_func_call(f, &arg, 1, NULL, 0, &err);
            CHECK(st == WEFT_ERR_TRAP && err.trap == WEFT_TRAP_OUT_OF_FUEL, "%s with %llu: status %d trap %d",
                  shapes[s].name, (unsigned long long)fuel, st, err.trap);
            weft_extern n;
            CHECK(weft_instance_export(inst, "n", &n) == WEFT_OK && n.kind == WEFT_EXTERN_GLOBAL, "export n");
            uint32_t got = (uint32_t)weft_global_get(n.of.global).of.i32;
            uint64_t want = fuel / (uint64_t)shapes[s].per + 1;
            CHECK(got == want, "%s with %llu units: %u iterations began, want %llu", shapes[s].name,
                  (unsigned long long)fuel, got, (unsigned long long)want);
            CHECK(weft_store_fuel(store) == 0, "%s: %llu left", shapes[s].name,
                  (unsigned long long)weft_store_fuel(store));
            weft_store_free(store);
        }
}

static void test_fuel_exact(weft_module *m) {
    static const int32_t ns[] = {2, 10, 1000, 1025, 5000, 100000};
    weft_error err;
    uint64_t left;
    for (size_t i = 0; i < sizeof ns / sizeof ns[0]; i++) {
        int32_t n = ns[i];
        uint64_t cost[2] = {(uint64_t)n - 1, 2 * (uint64_t)n - 1};
        const char *fn[2] = {"loop_n", "calls_n"};
        for (int k = 0; k < 2; k++) {
            for (int run = 0; run < 3; run++) { /* the same on every run */
                CHECK(call_with_fuel(m, fn[k], n, cost[k] + 500, &left, &err) == WEFT_OK,
                      "%s(%d): %s", fn[k], n, err.message);
                CHECK(left == 500, "%s(%d) left %llu of %llu (want 500)", fn[k], n,
                      (unsigned long long)left, (unsigned long long)cost[k] + 500);
            }
            CHECK(call_with_fuel(m, fn[k], n, cost[k], &left, &err) == WEFT_OK, "%s(%d) exact: %s",
                  fn[k], n, err.message);
            CHECK(left == 0, "exact budget left %llu", (unsigned long long)left);
            weft_status st = call_with_fuel(m, fn[k], n, cost[k] - 1, &left, &err);
            CHECK(st == WEFT_ERR_TRAP && err.trap == WEFT_TRAP_OUT_OF_FUEL,
                  "%s(%d) with one unit too few: status %d trap %d", fn[k], n, st, err.trap);
            CHECK(strcmp(err.message, "all fuel consumed") == 0, "message '%s'", err.message);
            CHECK(left == 0, "after the trap %llu left", (unsigned long long)left);
        }
    }
    CHECK(call_with_fuel(m, "loop_n", 1000, WEFT_FUEL_UNLIMITED, &left, &err) == WEFT_OK, "unmetered");
    CHECK(left == WEFT_FUEL_UNLIMITED, "unmetered store reports %llu", (unsigned long long)left);
    CHECK(weft_store_fuel(NULL) == WEFT_FUEL_UNLIMITED && weft_store_set_fuel(NULL, 1) == WEFT_ERR_MISUSE,
          "NULL store");
}

/* A suspend request (the scheduler's preemption) in the middle of a
   metered call: the count is the same as without. */
static void test_fuel_suspend(weft_module *m) {
    weft_store *store = weft_store_new(engine);
    weft_linker *linker = weft_linker_new(store);
    weft_wasi_config wc;
    weft_wasi_config_init(&wc);
    weft_wasi *wasi;
    weft_error err;
    CHECK(weft_wasi_new(&wc, &wasi, &err) == WEFT_OK, "wasi");
    CHECK(weft_wasi_define(wasi, store, linker, &err) == WEFT_OK, "define");
    weft_instance *inst;
    CHECK(weft_linker_instantiate(linker, m, &inst, &err) == WEFT_OK, "instantiate");
    const int32_t n = 3000000;
    CHECK(weft_store_set_fuel(store, (uint64_t)n) == WEFT_OK, "set");
    weft_exec *e = weft_exec_new(store);
    weft_val arg = {.type = WEFT_I32, .of.i32 = n};
    CHECK(weft_exec_start(e, weft_instance_func(inst, "loop_n"), &arg, 1) == WEFT_OK, "start");
    weft_exec_request(e, WEFT_ATTN_SUSPEND);
    int suspends = 0;
    weft_status st;
    while ((st = weft_exec_run(e, &err)) == WEFT_SUSPENDED) {
        if (++suspends < 5) weft_exec_request(e, WEFT_ATTN_SUSPEND);
    }
    CHECK(st == WEFT_OK, "run: %s", err.message);
    CHECK(suspends >= 1, "never suspended");
    CHECK(weft_store_fuel(store) == 1, "left %llu after %d suspends (want 1)",
          (unsigned long long)weft_store_fuel(store), suspends);
    weft_exec_free(e);
    weft_linker_free(linker);
    weft_store_free(store);
    weft_wasi_free(wasi);
}

static double now_s(void) { return now_ns() / 1e9; }

/* Runs a guest as a process with the given limits; returns its outcome. */
static weft_process_outcome run_process(const char *path, const char *arg, weft_sched *sched,
                                        uint64_t timeout_ns, uint64_t fuel, double *secs) {
    weft_module *m = CHECK_LOAD(engine, "%s", path);
    int devnull = open("/dev/null", O_RDWR);
    int pipefd[2];
    CHECK(pipe(pipefd) == 0, "pipe");
    weft_wasi_config wc;
    weft_wasi_config_init(&wc);
    const char *argv[2] = {path, arg};
    wc.argc = arg ? 2 : 1;
    wc.argv = argv;
    wc.stdio[0] = pipefd[0]; /* a read of stdin blocks: nobody writes */
    wc.stdio[1] = devnull;
    wc.stdio[2] = devnull;
    weft_wasi *wasi;
    weft_error err;
    CHECK(weft_wasi_new(&wc, &wasi, &err) == WEFT_OK, "wasi: %s", err.message);
    weft_process_config pc;
    memset(&pc, 0, sizeof pc);
    pc.sched = sched;
    pc.timeout_ns = timeout_ns;
    pc.fuel = fuel;
    weft_process *p;
    CHECK(weft_process_new(engine, m, wasi, &pc, &p, &err) == WEFT_OK, "%s: %s", path, err.message);
    weft_process_outcome out;
    double t0 = now_s();
    CHECK(weft_process_run(p, &out) == WEFT_OK, "run");
    *secs = now_s() - t0;
    if (out.end == WEFT_PROCESS_TIMEOUT)
        CHECK(strstr(weft_process_report(p), "timeout: ") == weft_process_report(p), "report '%s'",
              weft_process_report(p));
    weft_process_free(p);
    weft_wasi_free(wasi);
    weft_module_release(m);
    close(pipefd[0]);
    close(pipefd[1]);
    close(devnull);
    return out;
}

static void test_process_limits(weft_sched *sched) {
    const char *mode = sched ? "pool" : "os";
    static const struct {
        const char *path, *arg;
    } progs[] = {
        {"tests/limits/wasm/spin.wasm", NULL},                /* an infinite loop */
        {"tests/limits/wasm/sleep.wasm", NULL},               /* a blocking WASI call */
        {"tests/threads/wasm/parked_forever.wasm", NULL},     /* futex, read, sleep, timed wait */
        {"tests/threads/wasm/spinners.wasm", "3"},            /* four spinning threads */
    };
    for (size_t i = 0; i < sizeof progs / sizeof progs[0]; i++) {
        double secs;
        weft_process_outcome o = run_process(progs[i].path, progs[i].arg, sched, 300000000u, 0, &secs);
        CHECK(o.end == WEFT_PROCESS_TIMEOUT, "%s (%s): end %d, want timeout", progs[i].path, mode, o.end);
        CHECK(secs >= 0.29 && secs < 20, "%s (%s): ended after %.3f s with a 0.3 s limit",
              progs[i].path, mode, secs);
    }
    double secs;
    weft_process_outcome o = run_process("tests/threads/wasm/spinners.wasm", "3", sched, 0, 2000000, &secs);
    CHECK(o.end == WEFT_PROCESS_TRAP && o.error.trap == WEFT_TRAP_OUT_OF_FUEL,
          "spinners with fuel (%s): end %d trap %d", mode, o.end, o.error.trap);
    o = run_process("tests/limits/wasm/count.wasm", NULL, sched, 10000000000u, 1000, &secs);
    CHECK(o.end == WEFT_PROCESS_EXIT && o.exit_code == 0, "count with 1000 units (%s): end %d", mode, o.end);
    o = run_process("tests/limits/wasm/count.wasm", NULL, sched, 0, 999, &secs);
    CHECK(o.end == WEFT_PROCESS_TRAP && o.error.trap == WEFT_TRAP_OUT_OF_FUEL,
          "count with 999 units (%s): end %d", mode, o.end);
}

int main(void) {
    engine = weft_engine_new(NULL);
    CHECK(engine, "engine");
    CHECK(strcmp(weft_version(), WEFT_VERSION) == 0, "version %s", weft_version());
    weft_module *count = CHECK_LOAD(engine, "tests/limits/wasm/count.wasm");
    test_fuel_exact(count);
    test_fuel_suspend(count);
    weft_module_release(count);
    weft_module *shapes = CHECK_LOAD(engine, "tests/limits/wasm/fuel.wasm");
    test_fuel_shapes(shapes);
    weft_module_release(shapes);
    test_process_limits(NULL);
    weft_sched *sched;
    weft_error err;
    weft_sched_config sc = {.runners = 2};
    CHECK(weft_sched_new(engine, &sc, &sched, &err) == WEFT_OK, "sched: %s", err.message);
    test_process_limits(sched);
    weft_sched_free(sched);
    weft_engine_free(engine);
    return 0;
}
