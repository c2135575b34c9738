/*
 * tier.c — WEFT_TIER_AUTO (docs/jit.md, "Tiers"): functions start in the
 * interpreter and the hot ones are compiled while they run.
 *
 * Hotness is sampled, not counted: counting calls and back-edges would
 * cost the interpreter an increment on its hottest paths, and a loop
 * that runs for a minute in a function called once would still need a
 * back-edge counter to be found. Instead one ticker thread (per process,
 * started with the first auto execution) asks every running execution of
 * an auto engine for a sample each millisecond, by setting
 * EXEC_ATTN_TIERUP in its attention word; the interpreter reads that word
 * at every safe point anyway, and the next one credits the function it is
 * in (exec_tier_sample). A function's second sample compiles it
 * (jit_compile), in that thread, there and then; the interpreter then
 * goes on at the same operation in the machine code, since both tiers
 * keep the same frame (docs/jit.md): the running loop itself moves to the
 * compiled code, no on-stack replacement needed. Other agents running the
 * function (another thread, a later call) find its code on their next
 * entry, return or attention.
 *
 * Samples go where the time goes, so a function that runs 2 ms (in one
 * call or a thousand) is compiled and one that never does is never paid
 * for. A sample is a request like SUSPEND: it counts no fuel, no
 * deterministic slice, interrupts no futex wait, so results, traps, fuel
 * and interleavings are the same whatever was compiled when.
 *
 * The list of running executions is under one lock, taken twice per
 * weft_exec_run of an auto engine (a step of an agent, a call) and once
 * per tick; the ticker sleeps on a condition while the list is empty.
 */
#include <pthread.h>
#include <time.h>

#include "exec.h"
#include "../jit/jit.h"

#define TIER_TICK_NS 1000000L /* a sample of every running execution each ms */
#define TIER_HOT_SAMPLES 2u   /* compiled at its second sample */

static pthread_mutex_t tier_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t tier_work = PTHREAD_COND_INITIALIZER;
static weft_exec *tier_running; /* the list, under tier_lock */
static bool tier_started;

static void *tier_ticker(void *arg) {
    (void)arg;
    const struct timespec tick = {0, TIER_TICK_NS};
    pthread_mutex_lock(&tier_lock);
    for (;;) {
        while (!tier_running) pthread_cond_wait(&tier_work, &tier_lock);
        for (weft_exec *e = tier_running; e; e = e->tier_next)
            atomic_fetch_or_explicit(&e->attention, EXEC_ATTN_TIERUP, memory_order_relaxed);
        pthread_mutex_unlock(&tier_lock);
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

void exec_tier_sample(const cmp_func *fn) {
    if (!WEFT_JIT || atomic_load_explicit(&fn->jit, memory_order_relaxed)) return;
    cmp_func *cf = (cmp_func *)fn; /* the module's code: its jit and samples change, nothing else */
    /* One thread sees the count reach the mark, and only it compiles;
       a function the tier cannot take stays interpreted (and is not
       tried again: its count goes past the mark). */
    if (atomic_fetch_add_explicit(&cf->samples, 1, memory_order_relaxed) + 1 == TIER_HOT_SAMPLES)
        jit_compile(NULL, cf);
}
