/* clock_res_get, clock_time_get on the four clocks, and their errors. */
#include "common.h"
RAW(clock_time_get) int32_t raw_clock_time_get(int32_t, int64_t, int32_t);
static const char *names[] = {"realtime", "monotonic", "process_cputime", "thread_cputime"};
int main(void) {
    for (int id = 0; id < 4; id++) {
        __wasi_timestamp_t res = 0, t = 0;
        __wasi_errno_t e1 = __wasi_clock_res_get(id, &res);
        __wasi_errno_t e2 = __wasi_clock_time_get(id, 1, &t);
        SAY("%s: res %s (%s), time %s\n", names[id], en(e1), res > 0 && res <= 1000000000 ? "sane" : "odd",
            en(e2));
    }
    __wasi_timestamp_t a, b, r;
    (void)__wasi_clock_time_get(__WASI_CLOCKID_MONOTONIC, 0, &a);
    volatile uint64_t x = 0;
    for (int i = 0; i < 2000000; i++) x += i;
    if (x == 1) SAY("impossible\n");
    (void)__wasi_clock_time_get(__WASI_CLOCKID_MONOTONIC, 0, &b);
    SAY("monotonic advances: %s\n", b > a ? "yes" : "no");
    (void)__wasi_clock_time_get(__WASI_CLOCKID_REALTIME, 0, &r);
    SAY("realtime after 2020: %s\n", r > 1577836800ull * 1000000000ull ? "yes" : "no");
    (void)__wasi_clock_time_get(__WASI_CLOCKID_PROCESS_CPUTIME_ID, 0, &r);
    SAY("process cputime > 0: %s\n", r > 0 ? "yes" : "no");
    __wasi_timestamp_t dummy;
    T("clock_res_get(4)", __wasi_clock_res_get(4, &dummy));
    T("clock_time_get(99)", __wasi_clock_time_get(99, 0, &dummy));
    T("clock_time_get(bad pointer)", raw_clock_time_get(1, 0, BAD_PTR));
    return 0;
}
