/* eh_test — exceptions (Wasm 3.0 exception handling) at the host API:
   a host-made tag imported by a module; a host function that throws
   (weft_caller_throw) caught in wasm; an uncaught exception reported by
   weft_func_call with its tag and payload (WEFT_ERR_EXCEPTION); an
   exception passed on through a host frame (weft_caller_rethrow); a trap
   that catch_all does not catch; and try_table handlers that still catch
   after the execution was preempted inside them many times on a
   cooperative scheduler (slices of a few safe points).
   Guests: tests/unit/data/eh_host.wat (legacy try form) and eh_table.py
   (try_table, written byte by byte). */
#include <stdio.h>

#include "weft.h"

#include "check.h"

static weft_tag *tag_e;
static weft_func *throw_out;

/* env.host_throw (param i32): throws $e with the argument. */
static weft_status host_throw(weft_caller *caller, void *env, const weft_val *args, weft_val *results) {
    (void)env;
    (void)results;
    weft_val v = {.type = WEFT_I32, .of.i32 = args[0].of.i32};
    CHECK(weft_caller_throw(caller, tag_e, &v, 1), "weft_caller_throw");
    return WEFT_ERR_EXCEPTION;
}

/* env.host_call_back (param i32): calls throw_out, which throws; passes
   the exception on to its own wasm caller. */
static weft_status host_call_back(weft_caller *caller, void *env, const weft_val *args, weft_val *results) {
    (void)env;
    (void)results;
    weft_error err;
    weft_status st = weft_func_call(throw_out, args, 1, NULL, 0, &err);
    CHECK(st == WEFT_ERR_EXCEPTION && err.exception, "call back: %s", err.message);
    CHECK(weft_caller_rethrow(caller, err.exception), "rethrow");
    return WEFT_ERR_EXCEPTION;
}

static int32_t call_i32(weft_instance *inst, const char *name, int32_t arg, weft_status want) {
    weft_func *f = weft_instance_func(inst, name);
    CHECK(f, "no export %s", name);
    weft_val a = {.type = WEFT_I32, .of.i32 = arg}, r = {0};
    weft_error err;
    weft_functype ft = weft_func_type(f);
    weft_status st = weft_func_call(f, &a, ft.nparams, &r, ft.nresults, &err);
    CHECK(st == want, "%s: status %d (%s)", name, (int)st, err.message);
    return r.of.i32;
}

static void host_boundary(weft_engine *engine) {
    weft_module *mod = CHECK_LOAD(engine, "tests/unit/data/eh_host.wasm");
    weft_store *store = weft_store_new(engine);
    weft_valtype i32 = WEFT_I32;
    weft_functype tt = {.nparams = 1, .params = &i32};
    tag_e = weft_tag_new(store, &tt);
    CHECK(tag_e, "weft_tag_new");
    weft_functype with_result = {.nparams = 1, .params = &i32, .nresults = 1, .results = &i32};
    CHECK(!weft_tag_new(store, &with_result), "a tag type with results is refused");
    weft_functype ht = {.nparams = 1, .params = &i32};
    weft_linker *l = weft_linker_new(store);
    weft_extern x = {.kind = WEFT_EXTERN_TAG, .of.tag = tag_e};
    CHECK(weft_linker_define(l, "env", "e", x) == WEFT_OK, "define tag");
    x = (weft_extern){.kind = WEFT_EXTERN_FUNC, .of.func = weft_func_new(store, &ht, host_throw, NULL, NULL)};
    CHECK(weft_linker_define(l, "env", "host_throw", x) == WEFT_OK, "define host_throw");
    x.of.func = weft_func_new(store, &ht, host_call_back, NULL, NULL);
    CHECK(weft_linker_define(l, "env", "host_call_back", x) == WEFT_OK, "define host_call_back");
    weft_instance *inst;
    weft_error err;
    CHECK(weft_linker_instantiate(l, mod, &inst, &err) == WEFT_OK, "instantiate: %s", err.message);
    throw_out = weft_instance_func(inst, "throw_out");

    /* Thrown by the host, caught in wasm. */
    EXPECT(call_i32(inst, "catch_host", 41, WEFT_OK) == 42);

    /* Uncaught: the status, the tag, the payload, the message. */
    weft_val a = {.type = WEFT_I32, .of.i32 = 99};
    CHECK(weft_func_call(throw_out, &a, 1, NULL, 0, &err) == WEFT_ERR_EXCEPTION, "throw_out");
    CHECK(err.exception && weft_exn_tag(err.exception) == tag_e, "the host's tag");
    weft_val got[2];
    EXPECT(weft_exn_args(err.exception, got, 2) == 1 && got[0].type == WEFT_I32 && got[0].of.i32 == 99);
    EXPECTF(strcmp(err.message, "uncaught exception: tag $e") == 0, "message: %s", err.message);

    /* A tag the module defines: its own identity, a payload of two. */
    weft_extern lx;
    CHECK(weft_instance_export(inst, "local", &lx) == WEFT_OK && lx.kind == WEFT_EXTERN_TAG, "export local");
    weft_functype lt = weft_tag_type(lx.of.tag);
    EXPECT(lt.nparams == 2 && lt.params[0] == WEFT_I64 && lt.params[1] == WEFT_F64 && lt.nresults == 0);
    weft_val two[2] = {{.type = WEFT_I64, .of.i64 = -5}, {.type = WEFT_F64, .of.f64_bits = 0x4004000000000000ull}};
    CHECK(weft_func_call(weft_instance_func(inst, "throw_local"), two, 2, NULL, 0, &err) == WEFT_ERR_EXCEPTION,
          "throw_local");
    EXPECT(weft_exn_tag(err.exception) == lx.of.tag && weft_exn_tag(err.exception) != tag_e);
    EXPECT(weft_exn_args(err.exception, got, 2) == 2 && got[0].of.i64 == -5 &&
           got[1].of.f64_bits == 0x4004000000000000ull);
    EXPECTF(strcmp(err.message, "uncaught exception: tag $local") == 0, "message: %s", err.message);

    /* Uncaught three frames deep: the backtrace is the throw's. */
    CHECK(weft_func_call(weft_instance_func(inst, "throw_deep"), &a, 1, NULL, 0, &err) == WEFT_ERR_EXCEPTION,
          "throw_deep");
    const char *want[] = {"throw_out", "mid", NULL};
    EXPECTF(err.frame_count == 3, "uncaught exception's backtrace: %u frames, want 3", err.frame_count);
    for (uint32_t i = 0; i < 2 && i < err.frame_count; i++) {
        const char *name = weft_module_func_name(mod, err.frames[i].func_index);
        EXPECTF(name && strcmp(name, want[i]) == 0, "frame %u: %s, want %s", i, name ? name : "?", want[i]);
    }

    /* Passed on through a host frame, caught by the wasm caller. */
    EXPECT(call_i32(inst, "through_host", 21, WEFT_OK) == 42);

    /* A trap is not an exception. */
    call_i32(inst, "trap_not_caught", 0, WEFT_ERR_TRAP);

    weft_linker_free(l);
    weft_store_free(store);
    weft_module_release(mod);
}

typedef struct ended_rec {
    bool done;
    weft_status status;
    int32_t result;
} ended_rec;

static void on_ended(weft_exec *exec, weft_status status, const weft_error *err, void *user) {
    (void)err;
    ended_rec *r = user;
    r->status = status;
    if (status == WEFT_OK) {
        weft_val v;
        weft_exec_results(exec, &v, 1);
        r->result = v.of.i32;
    }
    r->done = true;
}

/* try_table on a cooperative scheduler whose slices are a few safe
   points: the loop inside the try_table (in a callee) is preempted many
   times, and the throw at its end is still caught by the handler. */
static void preempted_in_try_table(weft_engine *engine) {
    weft_module *mod = CHECK_LOAD(engine, "tests/unit/data/eh_table.wasm");
    weft_store *store = weft_store_new(engine);
    weft_instance *inst;
    weft_error err;
    CHECK(weft_instance_new(store, mod, NULL, 0, &inst, &err) == WEFT_OK, "instantiate: %s", err.message);
    EXPECT(call_i32(inst, "rethrow_ref", 0, WEFT_OK) == 7);

    weft_sched_config c = {.cooperative = true, .slice_points = 8};
    weft_sched *s;
    CHECK(weft_sched_new(engine, &c, &s, &err) == WEFT_OK, "sched: %s", err.message);
    weft_exec *e = weft_exec_new(store);
    weft_val a = {.type = WEFT_I32, .of.i32 = 1000};
    CHECK(weft_exec_start(e, weft_instance_func(inst, "run"), &a, 1) == WEFT_OK, "start");
    ended_rec r = {0};
    CHECK(weft_sched_start(s, e, 0, on_ended, &r, NULL, &err) == WEFT_OK, "sched start: %s", err.message);
    uint32_t slices = 0;
    for (int i = 0; i < 100000 && !r.done; i++) {
        weft_sched_summary sum = {0}; /* .events is read: none wanted */
        CHECK(weft_sched_run_until_idle(s, &sum) == WEFT_OK, "run");
        slices += sum.ran;
    }
    CHECK(r.done, "the execution ended");
    EXPECTF(r.status == WEFT_OK && r.result == 107, "status %d result %d", (int)r.status, r.result);
    EXPECTF(slices > 50, "preempted inside the try_table: %u slices", slices);
    weft_sched_free(s);
    weft_exec_free(e);
    weft_store_free(store);
    weft_module_release(mod);
}

int main(void) {
    weft_engine *engine = weft_engine_new(NULL);
    host_boundary(engine);
    preempted_in_try_table(engine);
    weft_engine_free(engine);
    return check_summary("eh_test");
}
