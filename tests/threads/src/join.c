/* join — 3 threads compute sums of different ranges; main joins each and
   reads its result (written before the join's release). Tids are 2, 3, 4. */
#include "rt.h"

typedef struct job {
    i64 from, to, result;
} job;

static void sum(void *arg) {
    job *j = arg;
    i64 s = 0;
    for (i64 i = j->from; i < j->to; i++) s += i * i % 7;
    j->result = s;
}

void _start(void) {
    static job jobs[3] = {{0, 100000, 0}, {100000, 200000, 0}, {200000, 300000, 0}};
    rt_thread *t[3];
    for (i32 i = 0; i < 3; i++) RT_CHECK(t[i] = rt_spawn(sum, &jobs[i], 0), "spawn");
    i64 total = 0;
    for (i32 i = 0; i < 3; i++) {
        rt_join(t[i]);
        RT_CHECK(t[i]->tid == i + 2, "tids must count from 2");
        total += jobs[i].result;
    }
    i64 expect = 0;
    for (i64 i = 0; i < 300000; i++) expect += i * i % 7;
    rt_say("total", total);
    RT_CHECK(total == expect, "wrong result");
}
