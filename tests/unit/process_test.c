/* process_test — the C API of weft_process: a host runs threaded WASI
   programs that exit from a thread, trap in a thread, deadlock, hit the
   thread limit or are stopped by the host, and survives each one with the
   outcome as a value, with one OS thread per wasm thread and on a
   scheduler (weft_sched). After every run no thread of the program is
   left (the host process is back to its own threads) and no descriptor
   leaked; under AddressSanitizer, nothing is leaked either. Last, two
   processes share one runner: one spins in 17 threads, and the other
   still runs to its end (it is not starved; bench/sched measures its
   share). */
#include <dirent.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "weft.h"

#include "check.h"

static weft_engine *engine;
static weft_sched *sched; /* the scheduler of this round, or NULL */
static int devnull, stdin_pipe[2], stdout_pipe[2];
/* The guests' stdout and stderr: /dev/null, or a pipe when a test reads
   it. */
static int guest_stdout, guest_stderr;

static int count_dir(const char *path) {
    DIR *d = opendir(path);
    if (!d) return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.') n++;
    closedir(d);
    return n;
}

static int64_t now_ms(void) { return now_ns() / 1000000; }

typedef struct run_result {
    weft_module *mod;          /* kept until the next run: frames borrow it */
    weft_status new_status;
    weft_error new_err;
    weft_process_outcome out;
    char report[4096];
    char spawn_error[512];
    uint32_t nwaiters;
    weft_process_waiter waiters[4];
    int64_t ms;
    int64_t end_realtime_ns;   /* when weft_process_run returned */
} run_result;

/* The host thread that stops a running guest: once the guest has printed
   "ready" on its stdout (ready_fd), every thread of it started and going
   into its wait, it calls weft_process_stop; then weft_process_run must
   return (run_done) within STOP_LIMIT_MS, or the test fails here instead
   of hanging. The stop is tied to the guest's state, not to a delay: a
   stop after a fixed 20 ms raced a guest that exits by itself 50 ms after
   its threads start, and lost under load (the exit came first). */
#define STOP_LIMIT_MS 10000
typedef struct stopper {
    weft_process *proc;
    int ready_fd;
    _Atomic int run_done;
} stopper;

static void *stop_when_ready(void *p) {
    stopper *s = p;
    char line[16];
    size_t n = 0;
    int64_t end = now_ms() + 60000;
    while (n < sizeof line - 1 && (n == 0 || line[n - 1] != '\n')) {
        struct pollfd pfd = {s->ready_fd, POLLIN, 0};
        int64_t left = end - now_ms();
        CHECK(left > 0 && poll(&pfd, 1, (int)left) == 1, "the guest never printed ready");
        CHECK(read(s->ready_fd, line + n, 1) == 1, "reading the guest's stdout");
        n++;
    }
    line[n] = 0;
    CHECK(strcmp(line, "ready\n") == 0, "the guest printed %s", line);
    weft_process_stop(s->proc);
    end = now_ms() + STOP_LIMIT_MS;
    while (!s->run_done) {
        CHECK(now_ms() < end, "weft_process_stop did not end the run in %d ms", STOP_LIMIT_MS);
        sleep_ms(1);
    }
    return NULL;
}

/* Loads and runs one guest; everything is freed before returning. stop:
   STOP_NONE, STOP_BEFORE (weft_process_stop before the run) or
   STOP_READY (stop_when_ready above, reading the guest's stdout). */
enum { STOP_NONE, STOP_BEFORE, STOP_READY };
static weft_module *load_guest(const char *name) {
    return CHECK_LOAD(engine, "tests/threads/wasm/%s.wasm", name);
}

static weft_wasi *make_wasi(const char *name) {
    weft_wasi_config wc;
    weft_wasi_config_init(&wc);
    const char *argv[1] = {name};
    wc.argc = 1;
    wc.argv = argv;
    wc.stdio[0] = stdin_pipe[0];
    wc.stdio[1] = guest_stdout;
    wc.stdio[2] = guest_stderr;
    weft_wasi *wasi;
    weft_error err;
    CHECK(weft_wasi_new(&wc, &wasi, &err) == WEFT_OK, "wasi: %s", err.message);
    return wasi;
}

static void run_guest(const char *name, uint32_t max_threads, int stop, run_result *r) {
    weft_module_release(r->mod);
    memset(r, 0, sizeof *r);
    weft_module *mod = load_guest(name);
    weft_wasi *wasi = make_wasi(name);
    weft_process_config pc = {.max_threads = max_threads, .sched = sched};
    weft_process *proc = NULL;
    r->new_status = weft_process_new(engine, mod, wasi, &pc, &proc, &r->new_err);
    r->mod = mod; /* the process holds a reference of its own too */
    if (r->new_status == WEFT_OK) {
        pthread_t stopper_thread;
        stopper s = {proc, stdout_pipe[0], 0};
        if (stop == STOP_BEFORE) weft_process_stop(proc);
        if (stop == STOP_READY)
            CHECK(pthread_create(&stopper_thread, NULL, stop_when_ready, &s) == 0, "pthread_create");
        int64_t t0 = now_ms();
        CHECK(weft_process_run(proc, &r->out) == WEFT_OK, "%s: run failed", name);
        r->ms = now_ms() - t0;
        struct timespec rt;
        clock_gettime(CLOCK_REALTIME, &rt);
        r->end_realtime_ns = (int64_t)rt.tv_sec * 1000000000 + rt.tv_nsec;
        s.run_done = 1;
        if (stop == STOP_READY) pthread_join(stopper_thread, NULL);
        CHECK(weft_process_run(proc, &r->out) == WEFT_ERR_MISUSE, "a second run must be refused");
        snprintf(r->report, sizeof r->report, "%s", weft_process_report(proc));
        const char *se = weft_process_spawn_error(proc);
        if (se) snprintf(r->spawn_error, sizeof r->spawn_error, "%s", se);
        r->nwaiters = weft_process_waiter_count(proc);
        for (uint32_t i = 0; i < r->nwaiters && i < 4; i++)
            r->waiters[i] = *weft_process_waiter_get(proc, i);
        CHECK(weft_process_waiter_get(proc, r->nwaiters) == NULL, "waiter past the end");
        weft_process_free(proc);
    }
    weft_wasi_free(wasi);
}

static bool frames_name(const weft_error *e, const char *fn) {
    for (uint32_t i = 0; i < e->frame_count; i++) {
        const char *n = e->frames[i].module
                            ? weft_module_func_name(e->frames[i].module, e->frames[i].func_index)
                            : NULL;
        if (n && strcmp(n, fn) == 0) return true;
    }
    return false;
}

typedef struct bg_run {
    weft_process *proc;
    weft_process_outcome out;
} bg_run;

static void *run_in_background(void *arg) {
    bg_run *b = arg;
    CHECK(weft_process_run(b->proc, &b->out) == WEFT_OK, "background run failed");
    return NULL;
}

/* Two processes on one scheduler with one runner: spinners (16 threads
   and main spinning, never ending) and join (a fixed job). join must end
   while spinners still runs: preemption takes the runner from a spinner
   after its slice, and round robin between processes gives join every
   other slice, whatever the spinners' thread count. */
static void fair_share(void) {
    weft_sched *one;
    weft_error err;
    weft_sched_config sc = {.runners = 1};
    CHECK(weft_sched_new(engine, &sc, &one, &err) == WEFT_OK, "sched: %s", err.message);
    weft_module *spin_mod = load_guest("spinners"), *job_mod = load_guest("join");
    weft_wasi *spin_wasi = make_wasi("spinners"), *job_wasi = make_wasi("join");
    weft_process_config pc = {.sched = one};
    bg_run spin = {0};
    weft_process *job;
    CHECK(weft_process_new(engine, spin_mod, spin_wasi, &pc, &spin.proc, &err) == WEFT_OK, "%s",
          err.message);
    CHECK(weft_process_new(engine, job_mod, job_wasi, &pc, &job, &err) == WEFT_OK, "%s", err.message);
    pthread_t bg;
    CHECK(pthread_create(&bg, NULL, run_in_background, &spin) == 0, "pthread_create");
    /* join starts once all 17 spinners are live (the dump lists them). */
    char dump[4096];
    for (int i = 0; i < 5000; i++) {
        weft_sched_dump(one, dump, sizeof dump);
        if (strstr(dump, "thread 17 of process 1 is ")) break;
        usleep(1000);
    }
    CHECK(strstr(dump, "thread 17 of process 1 is "), "the spinners never all ran:\n%s", dump);
    weft_process_outcome out;
    int64_t t0 = now_ms();
    CHECK(weft_process_run(job, &out) == WEFT_OK, "join: run failed");
    int64_t ms = now_ms() - t0;
    CHECK(out.end == WEFT_PROCESS_EXIT && out.exit_code == 0, "join beside spinners: end %d code %d",
          out.end, out.exit_code);
    weft_sched_dump(one, dump, sizeof dump);
    CHECK(strstr(dump, "thread 17 of process 1 is "), "the spinners stopped before join ended:\n%s", dump);
    weft_process_stop(spin.proc);
    pthread_join(bg, NULL);
    CHECK(spin.out.end == WEFT_PROCESS_STOPPED, "spinners: end %d", spin.out.end);
    printf("process_test: join ran in %lld ms beside %u spinning threads on one runner\n",
           (long long)ms, spin.out.threads);
    weft_process_free(job);
    weft_process_free(spin.proc);
    weft_wasi_free(job_wasi);
    weft_wasi_free(spin_wasi);
    weft_module_release(job_mod);
    weft_module_release(spin_mod);
    weft_sched_free(one);
}

int main(void) {
    engine = weft_engine_new(NULL);
    devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
    CHECK(devnull >= 0 && pipe(stdin_pipe) == 0 && pipe2(stdout_pipe, O_CLOEXEC) == 0, "setup");
    int err_pipe[2];
    CHECK(pipe2(err_pipe, O_NONBLOCK | O_CLOEXEC) == 0, "setup");
    guest_stdout = guest_stderr = devnull;
    int64_t latency_us[2][16];
    int nlatency[2] = {0, 0};
    int threads0 = count_dir("/proc/self/task");
    int fds0 = count_dir("/proc/self/fd");
    run_result *r = calloc(1, sizeof *r);
    /* Rounds 0-3 with OS threads, 4-7 on a scheduler of two runners, made
       before round 0 so its threads are in the baseline. */
    weft_sched *pool;
    weft_error err;
    weft_sched_config sc = {.runners = 2};
    CHECK(weft_sched_new(engine, &sc, &pool, &err) == WEFT_OK, "sched: %s", err.message);

    for (int round = 0; round < 8; round++) {
        sched = round >= 4 ? pool : NULL;
        /* A plain successful run. */
        run_guest("mutex_counter", 0, STOP_NONE, r);
        CHECK(r->new_status == WEFT_OK, "new: %s", r->new_err.message);
        CHECK(r->out.end == WEFT_PROCESS_EXIT && r->out.exit_code == 0 && r->out.tid == 1,
              "mutex_counter: end %d code %d tid %u", r->out.end, r->out.exit_code, r->out.tid);
        CHECK(r->out.threads == 5, "mutex_counter ran %u threads", r->out.threads);
        CHECK(r->report[0] == 0, "a clean exit has an empty report: %s", r->report);

        /* proc_exit from thread 7 while the others wait, sleep, read the
           (never written) stdin pipe, spin; then a trap instead. The
           latency runs from the guest's clock just before the call
           ("exit-at NS" on its stderr) to weft_process_run's return,
           every thread ended and freed. */
        for (int k = 0; k < 2; k++) {
            const char *name = k ? "trap_from_thread" : "exit_from_thread";
            guest_stderr = err_pipe[1];
            run_guest(name, 0, STOP_NONE, r);
            guest_stderr = devnull;
            if (k == 0)
                CHECK(r->out.end == WEFT_PROCESS_EXIT && r->out.exit_code == 7 && r->out.tid == 7,
                      "%s: end %d code %d tid %u", name, r->out.end, r->out.exit_code, r->out.tid);
            else
                CHECK(r->out.end == WEFT_PROCESS_TRAP && r->out.tid == 7, "%s: end %d tid %u", name,
                      r->out.end, r->out.tid);
            char text[256] = {0};
            ssize_t got = read(err_pipe[0], text, sizeof text - 1);
            long long at = 0;
            const char *line = got > 0 ? strstr(text, "exit-at ") : NULL;
            CHECK(line && sscanf(line, "exit-at %lld", &at) == 1, "%s: no exit-at line", name);
            int64_t us = (r->end_realtime_ns - at) / 1000;
            CHECK(us >= 0 && us < 1000000, "%s: %lld us from the call to the end", name, (long long)us);
            latency_us[round >= 4][nlatency[round >= 4]++] = us;
        }

        /* A trap in thread 2. */
        run_guest("trap_in_thread", 0, STOP_NONE, r);
        CHECK(r->out.end == WEFT_PROCESS_TRAP && r->out.tid == 2, "trap: end %d tid %u",
              r->out.end, r->out.tid);
        CHECK(r->out.error.trap == WEFT_TRAP_UNREACHABLE, "trap kind %d", r->out.error.trap);
        CHECK(frames_name(&r->out.error, "crash"), "the backtrace must name crash");
        CHECK(strstr(r->report, "thread 2: unreachable"), "report: %s", r->report);

        /* A deadlock between thread 1 and thread 2. */
        run_guest("deadlock", 0, STOP_NONE, r);
        CHECK(r->out.end == WEFT_PROCESS_DEADLOCK, "deadlock: end %d", r->out.end);
        CHECK(r->ms < 1000, "deadlock took %lld ms to report", (long long)r->ms);
        CHECK(r->nwaiters == 2 && r->waiters[0].tid == 1 && r->waiters[1].tid == 2,
              "waiters: %u", r->nwaiters);
        CHECK(r->waiters[0].width == 4 && r->waiters[0].addr && r->waiters[1].addr &&
                  r->waiters[0].addr != r->waiters[1].addr,
              "waiter addresses");
        CHECK(frames_name(&r->waiters[0].where, "_start"), "thread 1 backtrace");
        CHECK(frames_name(&r->waiters[1].where, "second"), "thread 2 backtrace");
        CHECK(strstr(r->report, "deadlock: every thread is blocked and nothing can wake them "
                                "(tids 1, 2)"),
              "report: %s", r->report);

        /* The thread limit, and its reason in the report of a failed run. */
        run_guest("thread_limit_fail", 4, STOP_NONE, r);
        CHECK(r->out.end == WEFT_PROCESS_EXIT && r->out.exit_code == 1, "limit: end %d code %d",
              r->out.end, r->out.exit_code);
        CHECK(strstr(r->spawn_error, "--max-threads 4"), "spawn error: %s", r->spawn_error);
        CHECK(strstr(r->report, "note: thread-spawn returned -EAGAIN"), "report: %s", r->report);

        /* Refused at load. */
        run_guest("load_unshared", 0, STOP_NONE, r);
        CHECK(r->new_status == WEFT_ERR_LINK, "load_unshared: status %d", r->new_status);
        CHECK(strstr(r->new_err.message, "--shared-memory"), "no fix in: %s", r->new_err.message);

        /* Stopped by the host: before the run, and while threads block
           (parked_forever: a futex, a read of stdin, a sleep, a timed
           wait; it never ends by itself). */
        run_guest("mutex_counter", 0, STOP_BEFORE, r);
        CHECK(r->out.end == WEFT_PROCESS_STOPPED && r->out.threads == 0, "stop before run");
        guest_stdout = stdout_pipe[1];
        run_guest("parked_forever", 0, STOP_READY, r);
        guest_stdout = devnull;
        CHECK(r->out.end == WEFT_PROCESS_STOPPED && r->out.threads == 5, "stop during run: end %d, %u threads",
              r->out.end, r->out.threads);

        /* Nothing of the programs is left in the host. The baseline is
           taken after the first round: a sanitizer's runtime starts a
           thread of its own at some point. */
        if (round == 0) {
            threads0 = count_dir("/proc/self/task");
            fds0 = count_dir("/proc/self/fd");
            continue;
        }
        int64_t end = now_ms() + 2000;
        while (count_dir("/proc/self/task") != threads0 && now_ms() < end) usleep(1000);
        CHECK(count_dir("/proc/self/task") == threads0, "threads left: %d (had %d)",
              count_dir("/proc/self/task"), threads0);
        CHECK(count_dir("/proc/self/fd") == fds0, "descriptors leaked: %d (had %d)",
              count_dir("/proc/self/fd"), fds0);
    }
    weft_module_release(r->mod);
    free(r);
    weft_sched_free(pool);
    for (int m = 0; m < 2; m++) {
        int n = nlatency[m];
        for (int i = 1; i < n; i++) /* insertion sort: a handful of values */
            for (int j = i; j > 0 && latency_us[m][j - 1] > latency_us[m][j]; j--) {
                int64_t t = latency_us[m][j];
                latency_us[m][j] = latency_us[m][j - 1];
                latency_us[m][j - 1] = t;
            }
        printf("process_test: exit/trap with parked threads to the end of weft_process_run, %s: "
               "median %lld us, max %lld us over %d runs\n",
               m ? "on a scheduler" : "OS threads", (long long)latency_us[m][n / 2],
               (long long)latency_us[m][n - 1], n);
    }
    close(err_pipe[0]);
    close(err_pipe[1]);
    fair_share();
    close(devnull);
    close(stdin_pipe[0]);
    close(stdin_pipe[1]);
    close(stdout_pipe[0]);
    close(stdout_pipe[1]);
    weft_engine_free(engine);
    printf("process_test: ok\n");
    return 0;
}
