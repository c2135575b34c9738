/* hash_worker.c — the worker of examples/pool.c: takes jobs from its
   inbox (a 4-byte job number, then the bytes to hash), answers each with
   the job number and the bytes' SHA-256, until end of stream; its result
   is how many jobs it did. A plain C program for wasm32 (see the
   Makefile's examples rule); include/weft_worker_guest.h is its ABI. */
#include "sha256.h"
#include "weft_worker_guest.h"

#define MAX_JOB (4 + (1 << 20))

static uint8_t job[MAX_JOB];

__attribute__((export_name("run"))) int run(void) {
    int done = 0;
    for (;;) {
        int32_t n = weft_recv(job, MAX_JOB, WEFT_WORKER_FOREVER);
        if (n == WEFT_WORKER_END) break;
        if (n < 4) return n < 0 ? n : -100; /* a malformed job */
        uint8_t answer[4 + 32];
        memcpy(answer, job, 4);
        sha256(job + 4, (size_t)n - 4, answer + 4);
        if (weft_send(answer, sizeof answer, WEFT_WORKER_FOREVER) != 0) return -101;
        done++;
    }
    weft_set_result(&done, sizeof done);
    return 0;
}
