/* measure.c — run one command and report its wall time and peak RSS.
 *
 *   measure TIMEOUT_SECONDS REPORT_FILE command [args...]
 *
 * Forks, execs the command with stdin/stdout/stderr inherited, and waits for
 * it with wait4. Writes one line to REPORT_FILE:
 *     <elapsed nanoseconds> <peak RSS KiB> <CPU nanoseconds> <status>
 * where status is the exit code, "signal N", "timeout" or "exec-failed".
 * Exists because a child forked from a large process (the python runner)
 * inherits that process's resident-set high-water mark through exec, which
 * would inflate the peak RSS of small programs such as hello.wasm; this
 * launcher is small, so what it reports is close to the program's own.
 * The CPU time (user + system, of the command and the children it waited
 * for) is what the runner compares when wall time is too noisy: on a shared
 * machine a run that waits for a core loses wall time but not CPU time. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t timed_out;
static pid_t child;

/* The command runs in its own process group so that a timeout or an
 * interrupt of the runner also ends whatever the command started. */
static void on_alarm(int sig)
{
    (void)sig;
    timed_out = 1;
    if (child > 0)
        kill(-child, SIGKILL);
}

static void on_interrupt(int sig)
{
    if (child > 0)
        kill(-child, SIGKILL);
    signal(sig, SIG_DFL);
    raise(sig);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: measure TIMEOUT_SECONDS REPORT_FILE command [args...]\n");
        return 2;
    }
    double timeout = atof(argv[1]);
    FILE *report = fopen(argv[2], "w");
    if (!report) {
        fprintf(stderr, "measure: %s: %s\n", argv[2], strerror(errno));
        return 2;
    }

    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_alarm;
    sigaction(SIGALRM, &sa, NULL);
    sa.sa_handler = on_interrupt;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);

    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    child = fork();
    if (child < 0) {
        fprintf(report, "0 0 0 exec-failed\n");
        fclose(report);
        return 2;
    }
    if (child == 0) {
        setpgid(0, 0);
        execvp(argv[3], argv + 3);
        _exit(127);
    }
    setpgid(child, child); /* also here, so a timeout can't race the child's own */
    if (timeout > 0) {
        struct itimerval it;
        memset(&it, 0, sizeof it);
        it.it_value.tv_sec = (time_t)timeout;
        it.it_value.tv_usec = (suseconds_t)((timeout - (double)(time_t)timeout) * 1e6);
        setitimer(ITIMER_REAL, &it, NULL);
    }
    int st;
    struct rusage ru;
    pid_t r;
    do
        r = wait4(child, &st, 0, &ru);
    while (r < 0 && errno == EINTR);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    long long ns = (long long)(t1.tv_sec - t0.tv_sec) * 1000000000LL + (t1.tv_nsec - t0.tv_nsec);
    long long cpu = r < 0 ? 0 :
        ((long long)ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000000LL +
        ((long long)ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1000LL;

    if (r < 0)
        fprintf(report, "%lld 0 0 exec-failed\n", ns);
    else if (timed_out)
        fprintf(report, "%lld %ld %lld timeout\n", ns, ru.ru_maxrss, cpu);
    else if (WIFSIGNALED(st))
        fprintf(report, "%lld %ld %lld signal %d\n", ns, ru.ru_maxrss, cpu, WTERMSIG(st));
    else if (WEXITSTATUS(st) == 127)
        fprintf(report, "%lld %ld %lld 127\n", ns, ru.ru_maxrss, cpu);
    else
        fprintf(report, "%lld %ld %lld %d\n", ns, ru.ru_maxrss, cpu, WEXITSTATUS(st));
    fclose(report);
    return 0;
}
