/* workers_many_test — 10,000 workers on one scheduler (bench/workers runs
   100,000): all spawned, each parked in recv (the scheduler's dump says
   so for every one, and no runner is held); then each gets one message
   and answers it; then all are closed and joined, and freed. Under
   AddressSanitizer nothing may leak (under ThreadSanitizer: 1,000). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "weft.h"

#include "check.h"

/* ThreadSanitizer's own allocator runs out of room for the shadow of
   10,000 workers' mappings; under it the test runs 1,000. */
#if defined(__SANITIZE_THREAD__)
#define N 1000
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define N 1000
#endif
#endif
#ifndef N
#define N 10000
#endif

/* How many lines of the dump say "is receiving on its inbox". */
static size_t count_parked(weft_sched *s, char *buf, size_t size) {
    size_t need = weft_sched_dump(s, buf, size);
    CHECK(need < size, "dump of %zu bytes", need);
    size_t n = 0;
    for (const char *p = buf; (p = strstr(p, " is receiving on its inbox")); p++) n++;
    return n;
}

int main(void) {
    weft_engine *engine = weft_engine_new(NULL);
    CHECK(engine, "engine");
    weft_error err;
    weft_sched *sched;
    CHECK(weft_sched_new(engine, NULL, &sched, &err) == WEFT_OK, "sched: %s", err.message);
    weft_module *mod = CHECK_LOAD(engine, "tests/workers/wasm/guest.wasm");
    weft_worker **w = calloc(N, sizeof *w);
    CHECK(w, "calloc");
    weft_worker_config c;
    weft_worker_config_init(&c);
    c.entry = "once";
    for (int i = 0; i < N; i++) {
        weft_status st = weft_worker_spawn(sched, mod, &c, &w[i], &err);
        CHECK(st == WEFT_OK, "spawn %d: %s", i, err.message);
    }
    size_t size = (size_t)N * 96 + 4096;
    char *buf = malloc(size);
    CHECK(buf, "malloc");
    size_t parked = 0;
    for (int tries = 0; tries < 30000 && (parked = count_parked(sched, buf, size)) < N; tries++) sleep_ms(1);
    CHECK(parked == N, "%zu of %d workers parked in recv", parked, N);
    for (int i = 0; i < N; i++) {
        char msg[16];
        int n = snprintf(msg, sizeof msg, "%d", i);
        CHECK(weft_worker_post(w[i], msg, (size_t)n, -1, &err) == WEFT_OK, "post %d: %s", i, err.message);
    }
    for (int i = 0; i < N; i++) {
        char msg[16];
        int n = snprintf(msg, sizeof msg, "%d", i);
        uint8_t *data;
        size_t len;
        CHECK(weft_worker_recv(w[i], -1, &data, &len, &err) == WEFT_OK, "recv %d: %s", i, err.message);
        CHECK(len == (size_t)n && memcmp(data, msg, len) == 0, "worker %d answered %.*s", i, (int)len, data);
        free(data);
    }
    for (int i = 0; i < N; i++) weft_worker_close(w[i]);
    for (int i = 0; i < N; i++) {
        weft_worker_end end;
        CHECK(weft_worker_join(w[i], -1, &end) == WEFT_OK, "join %d", i);
        CHECK(end.state == WEFT_WORKER_DONE && end.exit_code == 0, "worker %d: end %d code %d (%s)", i,
              end.state, end.exit_code, end.error.message);
        weft_worker_free(w[i]);
    }
    CHECK(weft_sched_dump(sched, buf, size) == 0, "agents left: %.200s", buf);
    free(buf);
    free(w);
    weft_module_release(mod);
    weft_sched_free(sched);
    weft_engine_free(engine);
    printf("workers_many_test: ok (%d workers)\n", N);
    return 0;
}
