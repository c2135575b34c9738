/* poll_oneoff: relative and absolute clocks, fd readiness, every ready
   event returned, errors per subscription, but an fd that is not open fails
   the whole call with EBADF (wasmtime's answer). stdin is a pipe holding
   "ping". */
#include "common.h"
RAW(poll_oneoff) int32_t raw_poll_oneoff(int32_t, int32_t, int32_t, int32_t);
static __wasi_subscription_t clk(uint64_t ud, __wasi_clockid_t id, uint64_t t, int abs) {
    __wasi_subscription_t s;
    memset(&s, 0, sizeof s);
    s.userdata = ud;
    s.u.tag = __WASI_EVENTTYPE_CLOCK;
    s.u.u.clock.id = id;
    s.u.u.clock.timeout = t;
    s.u.u.clock.flags = abs ? __WASI_SUBCLOCKFLAGS_SUBSCRIPTION_CLOCK_ABSTIME : 0;
    return s;
}
static __wasi_subscription_t fdsub(uint64_t ud, __wasi_eventtype_t type, __wasi_fd_t fd) {
    __wasi_subscription_t s;
    memset(&s, 0, sizeof s);
    s.userdata = ud;
    s.u.tag = type;
    s.u.u.fd_read.file_descriptor = fd;
    return s;
}
static uint64_t now(void) {
    __wasi_timestamp_t t;
    (void)__wasi_clock_time_get(__WASI_CLOCKID_MONOTONIC, 0, &t);
    return t;
}
static void run(const char *label, __wasi_subscription_t *s, int n) {
    __wasi_event_t ev[8];
    __wasi_size_t got = 0;
    uint64_t t0 = now();
    __wasi_errno_t e = __wasi_poll_oneoff(s, ev, n, &got);
    uint64_t ms = (now() - t0) / 1000000;
    SAY("%s: %s, %u event(s)%s\n", label, en(e), (unsigned)got, ms >= 5 ? ", waited" : "");
    for (unsigned i = 0; i < got; i++)
        SAY("  userdata=%llu type=%u error=%s nbytes=%llu hangup=%u\n", (unsigned long long)ev[i].userdata,
            ev[i].type, en(ev[i].error),
            (unsigned long long)(ev[i].type ? ev[i].fd_readwrite.nbytes : 0),
            ev[i].type ? (ev[i].fd_readwrite.flags & 1) : 0);
}
int main(void) {
    __wasi_subscription_t s[4];
    s[0] = clk(1, __WASI_CLOCKID_MONOTONIC, 20000000, 0);
    run("relative 20 ms", s, 1);
    s[0] = clk(1, __WASI_CLOCKID_MONOTONIC, 10000000, 0);
    s[1] = clk(2, __WASI_CLOCKID_MONOTONIC, 5000000000ull, 0);
    run("10 ms and 5 s: only the first", s, 2);
    s[0] = clk(7, __WASI_CLOCKID_MONOTONIC, now() + 15000000, 1);
    run("absolute monotonic +15 ms", s, 1);
    __wasi_timestamp_t real;
    (void)__wasi_clock_time_get(__WASI_CLOCKID_REALTIME, 0, &real);
    s[0] = clk(8, __WASI_CLOCKID_REALTIME, real - 1000000000ull, 1);
    run("absolute realtime in the past", s, 1);
    s[0] = fdsub(3, __WASI_EVENTTYPE_FD_READ, 0);
    s[1] = clk(4, __WASI_CLOCKID_MONOTONIC, 5000000000ull, 0);
    run("stdin pipe with data", s, 2);
    __wasi_fd_t f = xopen("data.txt", 0, RIGHTS_ALL, 0);
    s[0] = fdsub(5, __WASI_EVENTTYPE_FD_READ, f);
    s[1] = fdsub(6, __WASI_EVENTTYPE_FD_WRITE, 1);
    s[2] = clk(7, __WASI_CLOCKID_MONOTONIC, 5000000000ull, 0);
    run("file read + stdout write: both at once", s, 3);
    s[0] = clk(10, 9, 0, 0);
    s[1] = clk(11, __WASI_CLOCKID_PROCESS_CPUTIME_ID, 0, 0);
    run("bad clock, cputime clock", s, 2);
    s[0] = clk(10, 9, 0, 0);
    s[1] = clk(1, __WASI_CLOCKID_MONOTONIC, 0, 0);
    s[2] = fdsub(9, __WASI_EVENTTYPE_FD_READ, 77);
    run("bad clock, a clock due now, fd not open", s, 3);
    s[0] = fdsub(9, __WASI_EVENTTYPE_FD_WRITE, 77);
    run("write on an fd not open", s, 1);
    __wasi_fd_t nr = xopen("data.txt", 0, __WASI_RIGHTS_FD_READ, 0);
    s[0] = fdsub(12, __WASI_EVENTTYPE_FD_READ, nr);
    run("fd without POLL_FD_READWRITE", s, 1);
    char buf[16];
    T("drain stdin", rstr(0, buf, sizeof buf));
    SAY("stdin=[%s]\n", buf);
    s[0] = fdsub(13, __WASI_EVENTTYPE_FD_READ, 0);
    run("stdin at EOF (hangup)", s, 1);
    __wasi_event_t ev[2];
    __wasi_size_t got;
    T("zero subscriptions", __wasi_poll_oneoff(s, ev, 0, &got));
    T("subscriptions past memory", raw_poll_oneoff(BAD_PTR, (int32_t)(uintptr_t)ev, 1, (int32_t)(uintptr_t)&got));
    return 0;
}
