/* coop.c — cooperative mode (docs/coop.md): the cost of driving a
 * scheduler from the host's loop.
 *
 *   coop [IGNORED [ROUNDS]]     (run from the repository root: it loads
 *                                tests/workers/wasm/guest.wasm and
 *                                tests/unit/data/coop.wasm)
 *
 * What is timed (ns per operation, min and median of ROUNDS batches):
 *
 *   run_until_idle, idle       one weft_sched_run_until_idle with nothing
 *                              to do (goal: <= 100 ns)
 *   run_until_idle, 1000 ready one call with 1,000 runnable agents, each
 *                              a spinning execution given the shortest
 *                              slice, two safe points (slice_ns 4): the scheduler's
 *                              cost of a call and of 1,000 slices
 *   ... per slice              the same divided by 1,000
 *   echo round trip            weft_worker_post to an echo worker,
 *                              run_until_idle, weft_worker_recv of its
 *                              answer: host -> guest -> host through the
 *                              loop (goal: <= 1 us)
 *   ping-pong round            two echo workers, the host relaying each
 *                              answer to the other from their wake hooks
 *                              inside run_until_idle: time per round
 *                              trip A -> host -> B -> host -> A (one
 *                              call of two slices: the wall sets A
 *                              aside for the next call)
 */
#include "micro.h"

#define MAX_ROUNDS 101
#define AGENTS 1000

static weft_sched *coop_sched(weft_engine *engine, uint64_t slice_ns) {
    weft_sched_config c = {.cooperative = true, .slice_ns = slice_ns};
    weft_sched *s;
    weft_error err;
    micro_check(weft_sched_new(engine, &c, &s, &err), &err, "cooperative scheduler");
    return s;
}

static void drain(weft_sched *s) {
    weft_sched_summary sum = {0}; /* no events array */
    do micro_check(weft_sched_run_until_idle(s, &sum), NULL, "run_until_idle");
    while (sum.outcome != WEFT_SCHED_IDLE);
}

static void bench_idle(weft_engine *engine, int rounds) {
    weft_sched *s = coop_sched(engine, 0);
    enum { BATCH = 100000 }; /* about 1 ms */
    double per[MAX_ROUNDS];
    weft_sched_summary sum = {0}; /* no events array */
    for (int r = -1; r < rounds; r++) {
        uint64_t t0 = micro_now_ns();
        for (int i = 0; i < BATCH; i++) weft_sched_run_until_idle(s, &sum);
        uint64_t t1 = micro_now_ns();
        if (r >= 0) per[r] = (double)(t1 - t0) / BATCH;
    }
    if (sum.outcome != WEFT_SCHED_IDLE || sum.ran) {
        fprintf(stderr, "coop: not idle\n");
        exit(1);
    }
    micro_report("run_until_idle, idle", per, rounds, "ns", "nothing to do");
    weft_sched_free(s);
}

static weft_status no_fetch(weft_caller *c, void *env, const weft_val *args, weft_val *results,
                            weft_async *token) {
    (void)c, (void)env, (void)args, (void)token;
    results[0].type = WEFT_I32;
    results[0].of.i32 = 0;
    return WEFT_OK;
}

static void bench_ready(weft_engine *engine, weft_module *coop, int rounds) {
    weft_sched *s = coop_sched(engine, 4); /* the shortest slice: two safe points */
    weft_store *store = weft_store_new(engine);
    weft_valtype i32 = WEFT_I32;
    weft_functype ft = {1, 1, &i32, &i32};
    weft_extern imp = {.kind = WEFT_EXTERN_FUNC, .of.func = weft_func_new_async(store, &ft, no_fetch, NULL, NULL)};
    weft_instance *inst;
    weft_error err;
    micro_check(weft_instance_new(store, coop, &imp, 1, &inst, &err), &err, "instance");
    weft_func *spin = weft_instance_func(inst, "spin");
    static weft_exec *execs[AGENTS];
    for (int i = 0; i < AGENTS; i++) {
        execs[i] = weft_exec_new(store);
        if (!execs[i]) micro_check(WEFT_ERR_NOMEM, NULL, "exec");
        micro_check(weft_exec_start(execs[i], spin, NULL, 0), NULL, "exec_start");
        micro_check(weft_sched_start(s, execs[i], 0, NULL, NULL, NULL, &err), &err, "sched_start");
    }
    enum { BATCH = 20 };
    double per[MAX_ROUNDS], per_slice[MAX_ROUNDS];
    weft_sched_summary sum = {0}; /* no events array */
    for (int r = -1; r < rounds; r++) {
        uint64_t t0 = micro_now_ns();
        for (int i = 0; i < BATCH; i++) weft_sched_run_until_idle(s, &sum);
        uint64_t t1 = micro_now_ns();
        if (r >= 0) {
            per[r] = (double)(t1 - t0) / BATCH / 1000.0;
            per_slice[r] = (double)(t1 - t0) / BATCH / AGENTS;
        }
    }
    if (sum.outcome != WEFT_SCHED_YIELDED || sum.ran != AGENTS || sum.runnable != AGENTS) {
        fprintf(stderr, "coop: expected %d slices and %d runnable, got %u and %u\n", AGENTS, AGENTS, sum.ran,
                sum.runnable);
        exit(1);
    }
    micro_report("run_until_idle, 1000 ready", per, rounds, "us", "1,000 slices of two safe points");
    micro_report("... per slice", per_slice, rounds, "ns", "scheduler + exec_run per agent");
    for (int i = 0; i < AGENTS; i++) weft_exec_request(execs[i], WEFT_ATTN_STOP);
    drain(s); /* they end; the executions are ours */
    for (int i = 0; i < AGENTS; i++) weft_exec_free(execs[i]);
    weft_sched_free(s);
    weft_store_free(store);
}

static weft_worker *spawn_echo(weft_sched *s, weft_module *guest, void (*wake)(weft_worker *, void *),
                               void *user) {
    weft_worker_config c;
    weft_worker_config_init(&c);
    c.entry = "echo";
    c.wake = wake;
    c.user = user;
    weft_worker *w;
    weft_error err;
    micro_check(weft_worker_spawn(s, guest, &c, &w, &err), &err, "spawn");
    return w;
}

static void stop_worker(weft_sched *s, weft_worker *w) {
    weft_worker_close(w);
    drain(s);
    weft_worker_free(w);
}

static void bench_echo(weft_engine *engine, weft_module *guest, int rounds) {
    weft_sched *s = coop_sched(engine, 0);
    weft_worker *w = spawn_echo(s, guest, NULL, NULL);
    drain(s);
    enum { BATCH = 2000 }; /* about 1 ms: short enough that the min batch ran unpreempted */
    double per[MAX_ROUNDS];
    weft_error err;
    uint8_t *data;
    size_t len;
    for (int r = -1; r < rounds; r++) {
        uint64_t t0 = micro_now_ns();
        for (int i = 0; i < BATCH; i++) {
            weft_worker_post(w, "ping", 4, 0, &err);
            weft_sched_run_until_idle(s, NULL);
            if (weft_worker_recv(w, 0, &data, &len, &err) != WEFT_OK || len != 4) {
                fprintf(stderr, "coop: no answer\n");
                exit(1);
            }
            free(data);
        }
        uint64_t t1 = micro_now_ns();
        if (r >= 0) per[r] = (double)(t1 - t0) / BATCH;
    }
    micro_report("echo round trip", per, rounds, "ns", "post, run_until_idle, recv");
    stop_worker(s, w);
    weft_sched_free(s);
}

typedef struct pair {
    weft_worker *a, *b;
    uint64_t rounds;
} pair;

static void relay(weft_worker *w, void *user) {
    pair *p = user;
    uint8_t *data;
    size_t len;
    weft_error err;
    while (weft_worker_recv(w, 0, &data, &len, &err) == WEFT_OK) {
        if (w == p->b) p->rounds++;
        weft_worker_post(w == p->a ? p->b : p->a, data, len, 0, &err);
        free(data);
    }
}

static void bench_pingpong(weft_engine *engine, weft_module *guest, int rounds) {
    weft_sched *s = coop_sched(engine, 0);
    pair p = {0};
    p.a = spawn_echo(s, guest, relay, &p);
    p.b = spawn_echo(s, guest, relay, &p);
    weft_error err;
    weft_worker_post(p.a, "ball", 4, 0, &err);
    enum { BATCH = 2000 }; /* about 1 ms: short enough that the min batch ran unpreempted */
    double per[MAX_ROUNDS];
    for (int r = -1; r < rounds; r++) {
        uint64_t start = p.rounds;
        uint64_t t0 = micro_now_ns();
        while (p.rounds - start < BATCH) weft_sched_run_until_idle(s, NULL);
        uint64_t t1 = micro_now_ns();
        if (r >= 0) per[r] = (double)(t1 - t0) / (double)(p.rounds - start);
    }
    micro_report("ping-pong round", per, rounds, "ns", "A -> host -> B -> host -> A, in the loop");
    weft_worker_close(p.a);
    weft_worker_close(p.b);
    drain(s);
    weft_worker_free(p.a);
    weft_worker_free(p.b);
    weft_sched_free(s);
}

int main(int argc, char **argv) {
    int rounds = micro_rounds(argc, argv, 21);
    if (rounds > MAX_ROUNDS) rounds = MAX_ROUNDS;
    weft_engine *engine;
    weft_module *guest = micro_load(&engine, "tests/workers/wasm/guest.wasm");
    weft_module *coop;
    weft_error err;
    micro_check(weft_module_load_file(engine, "tests/unit/data/coop.wasm", &coop, &err), &err, "coop.wasm");
    bench_idle(engine, rounds);
    bench_ready(engine, coop, rounds);
    bench_echo(engine, guest, rounds);
    bench_pingpong(engine, guest, rounds);
    weft_module_release(guest);
    weft_module_release(coop);
    weft_engine_free(engine);
    return 0;
}
