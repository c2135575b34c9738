/*
 * tier.c — WEFT_TIER_AUTO (docs/jit.md, "Tiers"): functions start in the
 * interpreter and the hot ones are compiled while they run.
 *
 * Hotness is sampled, and counted only where counting is free: counting
 * every call and back-edge would cost the interpreter an increment on its
 * hottest paths, and a loop that runs for a minute in a function called
 * once would still need a back-edge counter to be found. Instead one
 * ticker thread (per process, started with the first auto execution)
 * asks every running execution of an auto engine for a sample each
 * millisecond, by setting EXEC_ATTN_TIERUP in its attention word; the
 * interpreter reads that word at every safe point anyway, and the next
 * one credits the function it is in (exec_tier_sample) or, when that one
 * has machine code, its innermost interpreted caller: the time is spent
 * under that caller, whose own safe points a loop of calls to compiled
 * functions seldom reaches. The calls compiled code hands to the
 * interpreter because the callee has no machine code yet are counted
 * too (exec_tier_call, on that exit's path only): a flat profile, where
 * hundreds of functions each take a little of the time, needs hundreds
 * of samples before each function has two, but compiled callers find
 * their callees in 32 calls. A function's count reaches TIER_HOT with two
 * samples, 32 such calls or a mix, and it is compiled (jit_compile) in
 * that thread, there and then; the interpreter then goes on at the same
 * operation in the machine code, since both tiers keep the same frame
 * (docs/jit.md): the running loop itself moves to the compiled code, no
 * on-stack replacement needed. Other agents running the function
 * (another thread, a later call) find its code on their next entry,
 * return or attention.
 *
 * Samples go where the time goes, so a function that runs 2 ms (in one
 * call or a thousand) is compiled and one that never does is never paid
 * for. A sample is a request like SUSPEND: it counts no fuel, no
 * deterministic slice, interrupts no futex wait, so results, traps, fuel
 * and interleavings are the same whatever was compiled when.
 *
 * The list of running executions is under one lock, taken twice per
 * weft_exec_run of an auto engine (a step of an agent, a call) and once
 * per tick; the ticker sleeps on a condition while the list is empty,
 * and ticks less often while every execution on it waits (a host call,
 * a futex, a sleep: TIER_TICK_MAX_NS).
 */
#include <pthread.h>
#include <time.h>

#include "exec.h"
#include "../jit/jit.h"

#define TIER_TICK_NS 1000000L /* a sample of every running execution each ms */
/* ... while one takes them: when every running execution still has the
   last tick's request (none reached a safe point since: each waits in a
   host call, a futex or a sleep), the ticker waits twice as long, up to
   this, and a taken sample brings it back to TIER_TICK_NS. A program
   that sleeps then wakes the ticker about 16 times a second, not 1,000;
   its next hot loop is sampled within 64 ms. */
#define TIER_TICK_MAX_NS 64000000L
/* A function is compiled when its count reaches TIER_HOT: a sample adds
   TIER_SAMPLE, a call 1, so two samples, 32 calls or a mix of both. */
#define TIER_HOT 32u
#define TIER_SAMPLE 16u
#define TIER_WALK 64 /* callers a sample may go up to (exec_tier_sample) */

static pthread_mutex_t tier_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t tier_work = PTHREAD_COND_INITIALIZER;
static weft_exec *tier_running; /* the list, under tier_lock */
static bool tier_started;

static void *tier_ticker(void *arg) {
    (void)arg;
    long tick_ns = TIER_TICK_NS;
    pthread_mutex_lock(&tier_lock);
    for (;;) {
        while (!tier_running) {
            pthread_cond_wait(&tier_work, &tier_lock);
            tick_ns = TIER_TICK_NS;
        }
        bool idle = true;
        for (weft_exec *e = tier_running; e; e = e->tier_next)
            if (!(atomic_fetch_or_explicit(&e->attention, EXEC_ATTN_TIERUP, memory_order_relaxed) &
                  EXEC_ATTN_TIERUP))
                idle = false;
        tick_ns = !idle ? TIER_TICK_NS : tick_ns < TIER_TICK_MAX_NS / 2 ? 2 * tick_ns : TIER_TICK_MAX_NS;
        pthread_mutex_unlock(&tier_lock);
        const struct timespec tick = {0, tick_ns};
        nanosleep(&tick, NULL);
        pthread_mutex_lock(&tier_lock);
    }
    return NULL;
}

void exec_tier_enter(weft_exec *e) {
    if (!WEFT_JIT) return;
    pthread_mutex_lock(&tier_lock);
    if (!tier_started) {
        /* One thread for the process, for good (it sleeps while no auto
           execution runs). Without it nothing is sampled: the interpreter
           alone, which is still right. */
        pthread_t t;
        pthread_attr_t a;
        if (pthread_attr_init(&a) == 0) {
            pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
            pthread_attr_setstacksize(&a, 64 * 1024);
            tier_started = pthread_create(&t, &a, tier_ticker, NULL) == 0;
            if (tier_started) pthread_setname_np(t, "weft-tier"); /* for ps, top, tests */
            pthread_attr_destroy(&a);
        }
    }
    e->tier_prev = NULL;
    e->tier_next = tier_running;
    if (tier_running) tier_running->tier_prev = e;
    else pthread_cond_signal(&tier_work);
    tier_running = e;
    pthread_mutex_unlock(&tier_lock);
}

void exec_tier_leave(weft_exec *e) {
    if (!WEFT_JIT) return;
    pthread_mutex_lock(&tier_lock);
    if (e->tier_prev) e->tier_prev->tier_next = e->tier_next;
    else tier_running = e->tier_next;
    if (e->tier_next) e->tier_next->tier_prev = e->tier_prev;
    e->tier_prev = e->tier_next = NULL;
    pthread_mutex_unlock(&tier_lock);
    /* A sample asked for after the last safe point waits for the next
       run (or is cleared by the next weft_exec_start): harmless. */
}

/* Adds `weight` to fn's count; the one that takes it to TIER_HOT
   compiles it (a function the tier cannot take stays interpreted, and is
   not tried again: its count goes past the mark). */
static void tier_credit(const cmp_func *fn, const weft_instance *inst, uint32_t weight) {
    cmp_func *cf = (cmp_func *)fn; /* the module's code: its jit and samples change, nothing else */
    uint32_t old = atomic_fetch_add_explicit(&cf->samples, weight, memory_order_relaxed);
    if (old < TIER_HOT && old + weight >= TIER_HOT) jit_compile(inst->module, cf);
}

void exec_tier_sample(const cmp_func *fn, const weft_instance *inst, const exec_frame *frame,
                      const exec_frame *base) {
    if (!WEFT_JIT) return;
    /* A sample in machine code credits the innermost interpreted caller:
       the time is spent under it, and an interpreted loop that calls
       compiled functions would otherwise never be credited (its samples
       land at its callees' safe points). At most TIER_WALK frames up. */
    for (int k = 0; atomic_load_explicit(&fn->jit, memory_order_relaxed) || cmp_is_lazy(fn); k++) {
        if (frame <= base || k == TIER_WALK) return;
        fn = (--frame)->fn;
        inst = frame->inst;
        if (!fn) return;
    }
    tier_credit(fn, inst, TIER_SAMPLE);
}

void exec_tier_call(const cmp_func *fn, const weft_instance *inst) {
    /* A stub's first call translates it, and is not counted; nor are the
       calls of a function past the mark (one the tier could not take). */
    if (cmp_is_lazy(fn) || atomic_load_explicit(&fn->samples, memory_order_relaxed) >= TIER_HOT) return;
    tier_credit(fn, inst, 1);
}
