/* uv_host.c — weft in cooperative mode inside a libuv loop, on one OS
   thread (docs/coop.md): the scheduler has no thread of its own, and the
   loop drives it.

       uv_host [GUEST_DIR]     (default: the repository's test guests)

   What runs in the one uv loop, at once:
     - two echo workers playing ping-pong, relayed by the host from their
       wake hooks (1,000 rounds);
     - a threaded WASI program (wasi-threads: 4 threads and a mutex,
       tests/threads/wasm/mutex_counter.wasm), a process of the same
       scheduler;
     - an execution whose async host import `host.fetch` is answered by a
       uv timer 5 ms later, three times (coop.wasm, fetch_sum);
     - a WASI worker reading its stdin (a pipe), parked;
   and once those are done (so that the scheduler is idle and only the
   loop can wake it):
     - a process whose futex waits time out (timed_wait.wasm): deadlines
       handed to a uv timer;
     - a uv timer writes to the reader's stdin: woken through uv_poll.

   How the loop drives weft:
     - uv_async: the scheduler's wake hook (an agent became runnable while
       the scheduler was idle) sends it; its callback drains;
     - uv_idle: while a drain ended "yielded for fairness", the next one
       runs on the next loop iteration, after the loop's other handles;
     - uv_timer: when a drain ends idle with a deadline (a futex timeout),
       it fires then, and drains;
     - uv_poll: the scheduler's epoll fd (weft_sched_fd), readable when a
       parked WASI read's fd is; its callback drains.
   A drain is one weft_sched_run_until_idle: at most one slice per agent,
   so the loop gets control back after every call. */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uv.h>

#include "weft.h"

#define ROUNDS 1000

static uv_loop_t *loop;
static uv_async_t wake_async;
static uv_idle_t again_idle;
static uv_timer_t deadline_timer, stdin_timer;
static uv_poll_t sched_poll;
static weft_sched *sched;
static weft_engine *engine;

static struct {
    unsigned drains, yielded, deadlines, polls, wakes;
} stats;

static void fail(const char *what, const weft_error *err) {
    fprintf(stderr, "uv_host: %s: %s\n", what, err ? err->message : "failed");
    exit(1);
}

/* ---- Driving the scheduler ---- */

static void drain(void);
static void on_again(uv_idle_t *h) { (void)h; drain(); }
static void on_deadline(uv_timer_t *h) { (void)h; stats.deadlines++; drain(); }
static void on_wake(uv_async_t *h) { (void)h; stats.wakes++; drain(); }
static void on_poll(uv_poll_t *h, int status, int events) {
    (void)h, (void)status, (void)events;
    stats.polls++;
    drain();
}

/* The scheduler's wake hook: any thread, maybe under a lock of weft's, so
   it only wakes the loop (uv_async_send is safe from anywhere). */
static void sched_wake(weft_sched *s, void *user) {
    (void)s, (void)user;
    uv_async_send(&wake_async);
}

static void check_done(void);

static void drain(void) {
    weft_sched_summary sum = {0};
    if (weft_sched_run_until_idle(sched, &sum) != WEFT_OK) fail("run_until_idle", NULL);
    stats.drains++;
    if (sum.outcome == WEFT_SCHED_YIELDED) {
        stats.yielded++;
        uv_idle_start(&again_idle, on_again);
    } else {
        uv_idle_stop(&again_idle);
        if (sum.deadline >= 0) {
            uint64_t now = uv_hrtime();
            uint64_t ms = (uint64_t)sum.deadline > now ? ((uint64_t)sum.deadline - now + 999999) / 1000000 : 0;
            uv_timer_start(&deadline_timer, on_deadline, ms, 0);
        } else {
            uv_timer_stop(&deadline_timer);
        }
    }
    check_done();
}

/* ---- Ping-pong between two workers, through the host ---- */

static weft_worker *ping, *pong;
static int rounds;

static void relay(weft_worker *w, void *user) {
    (void)user;
    uint8_t *data;
    size_t len;
    weft_error err;
    while (weft_worker_recv(w, 0, &data, &len, &err) == WEFT_OK) {
        if (w == pong && ++rounds == ROUNDS) {
            weft_worker_close(ping);
            weft_worker_close(pong);
        } else if (rounds < ROUNDS &&
                   weft_worker_post(w == ping ? pong : ping, data, len, 0, &err) != WEFT_OK) {
            fail("relay", &err);
        }
        free(data);
    }
}

/* ---- The async host function: answered by a uv timer ---- */

typedef struct fetch_job {
    uv_timer_t timer;
    weft_async *token;
    int32_t x;
} fetch_job;

static int fetches;

static void fetch_close(uv_handle_t *h) { free(h->data); }

static void fetch_done(uv_timer_t *t) {
    fetch_job *job = t->data;
    weft_val v = {.type = WEFT_I32, .of.i32 = 2 * job->x};
    if (weft_async_complete(job->token, &v, 1) != WEFT_OK) fail("complete", NULL);
    fetches++;
    uv_close((uv_handle_t *)&job->timer, fetch_close);
}

/* Runs inside weft_sched_run_until_idle, on the loop's thread. */
static weft_status fetch(weft_caller *caller, void *env, const weft_val *args, weft_val *results,
                         weft_async *token) {
    (void)caller, (void)env, (void)results;
    fetch_job *job = calloc(1, sizeof *job);
    if (!job) return WEFT_ERR_TRAP;
    job->token = token;
    job->x = args[0].of.i32;
    uv_timer_init(loop, &job->timer);
    job->timer.data = job;
    uv_timer_start(&job->timer, fetch_done, 5, 0);
    return WEFT_SUSPENDED; /* pending */
}

static int fetch_result = -1;
static weft_store *fetch_store;

static void fetch_ended(weft_exec *e, weft_status st, const weft_error *err, void *user) {
    (void)user;
    weft_val v;
    if (st != WEFT_OK) fail("fetch_sum", err);
    weft_exec_results(e, &v, 1);
    fetch_result = v.of.i32;
    weft_exec_free(e);
}

static void start_fetch(weft_module *m) {
    weft_error err;
    fetch_store = weft_store_new(engine);
    weft_valtype i32 = WEFT_I32;
    weft_functype ft = {1, 1, &i32, &i32};
    weft_extern imp = {.kind = WEFT_EXTERN_FUNC, .of.func = weft_func_new_async(fetch_store, &ft, fetch, NULL, NULL)};
    weft_instance *inst;
    if (weft_instance_new(fetch_store, m, &imp, 1, &inst, &err) != WEFT_OK) fail("instance", &err);
    weft_exec *e = weft_exec_new(fetch_store);
    weft_val args[2] = {{.type = WEFT_I32, .of.i32 = 10}, {.type = WEFT_I32, .of.i32 = 3}};
    if (!e || weft_exec_start(e, weft_instance_func(inst, "fetch_sum"), args, 2) != WEFT_OK)
        fail("exec", NULL);
    if (weft_sched_start(sched, e, WEFT_PRIORITY_DEFAULT, fetch_ended, NULL, NULL, &err) != WEFT_OK)
        fail("sched_start", &err);
}

/* ---- A WASI worker reading a pipe ---- */

static int stdin_pipe[2];
static weft_worker *reader;
static int reader_got = -1;

static void reader_wake(weft_worker *w, void *user) {
    (void)user;
    uint8_t *data;
    size_t len;
    weft_error err;
    if (weft_worker_recv(w, 0, &data, &len, &err) == WEFT_OK) {
        reader_got = (int)len; /* wasi.wat: sends one byte after its read, then spins */
        free(data);
        weft_worker_terminate(w);
    }
}

static void write_stdin(uv_timer_t *t) {
    (void)t;
    if (write(stdin_pipe[1], "ping", 4) != 4) fail("write", NULL);
}

/* ---- Processes ---- */

typedef struct proc {
    const char *name;
    weft_wasi *wasi;
    weft_process *p;
    bool done;
    weft_process_outcome out;
} proc;

static proc procs[2] = {{.name = "mutex_counter"}, {.name = "timed_wait"}};

static void start_process(proc *pr, const char *dir) {
    char path[512];
    snprintf(path, sizeof path, "%s/threads/wasm/%s.wasm", dir, pr->name);
    weft_module *m;
    weft_error err;
    if (weft_module_load_file(engine, path, &m, &err) != WEFT_OK) fail(path, &err);
    weft_wasi_config wc;
    weft_wasi_config_init(&wc);
    const char *argv[1] = {pr->name};
    wc.argc = 1;
    wc.argv = argv;
    if (weft_wasi_new(&wc, &pr->wasi, &err) != WEFT_OK) fail("wasi", &err);
    weft_process_config pc = {.sched = sched};
    if (weft_process_new(engine, m, pr->wasi, &pc, &pr->p, &err) != WEFT_OK) fail(pr->name, &err);
    weft_module_release(m);
    if (weft_process_start(pr->p) != WEFT_OK) fail("process start", NULL);
}

/* ---- The end ---- */

static bool finished, second_phase;
static const char *guest_dir;

static void check_done(void) {
    if (finished) return;
    for (int i = 0; i < 2; i++)
        if (procs[i].p && !procs[i].done && weft_process_wait(procs[i].p, 0, &procs[i].out) == WEFT_OK)
            procs[i].done = true;
    weft_worker_end e1, e2, e3;
    bool first = procs[0].done && fetch_result >= 0 && weft_worker_join(ping, 0, &e1) == WEFT_OK &&
                 weft_worker_join(pong, 0, &e2) == WEFT_OK;
    if (first && !second_phase) {
        second_phase = true;
        start_process(&procs[1], guest_dir);
        uv_timer_start(&stdin_timer, write_stdin, 20, 0);
    }
    if (!first || !procs[1].done || weft_worker_join(reader, 0, &e3) != WEFT_OK) return;
    finished = true;
    uv_close((uv_handle_t *)&wake_async, NULL);
    uv_close((uv_handle_t *)&again_idle, NULL);
    uv_close((uv_handle_t *)&deadline_timer, NULL);
    uv_close((uv_handle_t *)&stdin_timer, NULL);
    uv_close((uv_handle_t *)&sched_poll, NULL);
}

static int os_threads(void) {
    int n = 0;
    DIR *d = opendir("/proc/self/task");
    for (struct dirent *e; d && (e = readdir(d));)
        if (e->d_name[0] != '.') n++;
    if (d) closedir(d);
    return n;
}

int main(int argc, char **argv) {
    const char *dir = argc > 1 ? argv[1] : "tests";
    char path[512];
    weft_error err;
    loop = uv_default_loop();
    engine = weft_engine_new(NULL);
    weft_sched_config sc = {.cooperative = true, .slice_ns = 500000, .wake = sched_wake};
    if (!engine || weft_sched_new(engine, &sc, &sched, &err) != WEFT_OK) fail("scheduler", &err);

    uv_async_init(loop, &wake_async, on_wake);
    uv_idle_init(loop, &again_idle);
    uv_timer_init(loop, &deadline_timer);
    uv_timer_init(loop, &stdin_timer);
    uv_poll_init(loop, &sched_poll, weft_sched_fd(sched));
    uv_poll_start(&sched_poll, UV_READABLE, on_poll);

    weft_module *guest, *wasi_mod, *coop;
    snprintf(path, sizeof path, "%s/workers/wasm/guest.wasm", dir);
    if (weft_module_load_file(engine, path, &guest, &err) != WEFT_OK) fail(path, &err);
    snprintf(path, sizeof path, "%s/workers/wasm/wasi.wasm", dir);
    if (weft_module_load_file(engine, path, &wasi_mod, &err) != WEFT_OK) fail(path, &err);
    snprintf(path, sizeof path, "%s/unit/data/coop.wasm", dir);
    if (weft_module_load_file(engine, path, &coop, &err) != WEFT_OK) fail(path, &err);

    weft_worker_config wc;
    weft_worker_config_init(&wc);
    wc.entry = "echo";
    wc.wake = relay;
    if (weft_worker_spawn(sched, guest, &wc, &ping, &err) != WEFT_OK) fail("spawn", &err);
    if (weft_worker_spawn(sched, guest, &wc, &pong, &err) != WEFT_OK) fail("spawn", &err);
    if (weft_worker_post(ping, "ball", 4, 0, &err) != WEFT_OK) fail("serve", &err);

    if (pipe(stdin_pipe) != 0) fail("pipe", NULL);
    weft_wasi_config wasi;
    weft_wasi_config_init(&wasi);
    wasi.stdio[0] = stdin_pipe[0];
    weft_worker_config rc;
    weft_worker_config_init(&rc);
    rc.entry = "read_stdin";
    rc.wasi = &wasi;
    rc.wake = reader_wake;
    if (weft_worker_spawn(sched, wasi_mod, &rc, &reader, &err) != WEFT_OK) fail("spawn reader", &err);

    guest_dir = dir;
    start_process(&procs[0], dir);
    start_fetch(coop);

    /* Everything above made agents runnable: the hook has sent the async
       already, so the loop starts with a drain. */
    uv_run(loop, UV_RUN_DEFAULT);

    weft_worker_end end;
    weft_worker_join(ping, 0, &end);
    printf("uv_host: ping-pong: %d rounds, both workers %s\n", rounds,
           end.state == WEFT_WORKER_DONE ? "done" : "not done");
    printf("uv_host: async fetch_sum(10, 3) = %d (%d calls answered by uv timers)\n", fetch_result, fetches);
    printf("uv_host: fd: the reader's stdin woke it through uv_poll (%s, sent %d byte)\n",
           stats.polls ? "polled" : "never polled", reader_got);
    for (int i = 0; i < 2; i++)
        printf("uv_host: process %s: end %d, exit code %d, %u threads\n", procs[i].name, procs[i].out.end,
               procs[i].out.exit_code, procs[i].out.threads);
    printf("uv_host: deadlines handed to uv timers: %s\n", stats.deadlines ? "yes" : "none");
    printf("uv_host: drains %u (yielded %u), wakes %u, polls %u, deadlines %u\n", stats.drains, stats.yielded,
           stats.wakes, stats.polls, stats.deadlines);
    printf("uv_host: OS threads: %d\n", os_threads());

    weft_worker_free(ping);
    weft_worker_free(pong);
    weft_worker_free(reader);
    for (int i = 0; i < 2; i++) {
        weft_process_free(procs[i].p);
        weft_wasi_free(procs[i].wasi);
    }
    weft_store_free(fetch_store);
    weft_module_release(guest);
    weft_module_release(wasi_mod);
    weft_module_release(coop);
    weft_sched_free(sched);
    weft_engine_free(engine);
    close(stdin_pipe[0]);
    close(stdin_pipe[1]);
    uv_loop_close(loop);
    printf("uv_host: done\n");
    return 0;
}
