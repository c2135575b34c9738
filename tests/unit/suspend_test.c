/* suspend_test — an execution is paused from another OS thread through its
   attention word while it runs a loop that would otherwise take seconds,
   resumed on a different OS thread, and must compute exactly what an
   uninterrupted run computes. */
#include <pthread.h>
#include <stdio.h>

#include "weft.h"

#include "check.h"

static const int64_t N = 60000000; /* a second or more of interpretation */

typedef struct run_arg {
    weft_exec *exec;
    weft_status status;
} run_arg;

static void *run_on_thread(void *p) {
    run_arg *a = p;
    weft_error err;
    a->status = weft_exec_run(a->exec, &err);
    return NULL;
}

/* The reference result, computed natively with the same recurrence. */
static int64_t reference(int64_t n) {
    uint64_t h = 88172645463325252ull;
    for (; n != 0; n--) {
        uint64_t x = h;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        h = x + (uint64_t)n;
    }
    return (int64_t)h;
}

int main(void) {
    weft_engine *engine = weft_engine_new(NULL);
    weft_error err;
    weft_module *mod = CHECK_LOAD(engine, "tests/unit/data/suspend_loop.wasm");
    weft_store *store = weft_store_new(engine);
    weft_instance *inst;
    CHECK(weft_instance_new(store, mod, NULL, 0, &inst, &err) == WEFT_OK, "instantiate: %s", err.message);
    weft_func *run = weft_instance_func(inst, "run");
    CHECK(run, "no export run");

    /* A short uninterrupted run checks the recurrence itself. */
    weft_val arg = {.type = WEFT_I64, .of.i64 = 1000}, res;
    CHECK(weft_func_call(run, &arg, 1, &res, 1, &err) == WEFT_OK, "call: %s", err.message);
    CHECK(res.of.i64 == reference(1000), "short run: got %lld, want %lld", (long long)res.of.i64,
          (long long)reference(1000));

    weft_exec *exec = weft_exec_new(store);
    CHECK(exec, "exec_new");
    arg.of.i64 = N;
    CHECK(weft_exec_start(exec, run, &arg, 1) == WEFT_OK, "exec_start");

    /* Run on thread A; pause it from here after 50 ms. */
    run_arg a = {.exec = exec};
    pthread_t ta;
    pthread_create(&ta, NULL, run_on_thread, &a);
    sleep_ms(50);
    weft_exec_request(exec, WEFT_ATTN_SUSPEND);
    pthread_join(ta, NULL);
    CHECK(a.status == WEFT_SUSPENDED, "expected WEFT_SUSPENDED, got %d (the loop finished before the request?)",
          a.status);

    /* Resume on another OS thread B, pausing and resuming a few more
       times on fresh threads, then let it finish. */
    int pauses = 1;
    for (;;) {
        run_arg b = {.exec = exec};
        pthread_t tb;
        pthread_create(&tb, NULL, run_on_thread, &b);
        if (pauses < 4) {
            sleep_ms(50);
            weft_exec_request(exec, WEFT_ATTN_SUSPEND);
        }
        pthread_join(tb, NULL);
        if (b.status == WEFT_SUSPENDED) {
            pauses++;
            continue;
        }
        CHECK(b.status == WEFT_OK, "resumed run failed: %d", b.status);
        break;
    }
    CHECK(weft_exec_results(exec, &res, 1) == WEFT_OK, "results");
    int64_t want = reference(N);
    CHECK(res.of.i64 == want, "after %d pauses: got %lld, want %lld", pauses, (long long)res.of.i64,
          (long long)want);
    printf("suspend_test: paused %d times across threads, result %lld matches\n", pauses, (long long)want);

    weft_exec_free(exec);
    weft_store_free(store);
    weft_module_release(mod);
    weft_engine_free(engine);
    return 0;
}
