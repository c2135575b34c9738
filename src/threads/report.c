/*
 * report.c — the end of a process in words (weft_process_report), as
 * `weft run` prints it after "error: ":
 *
 *   thread 2: unreachable
 *     0: func 3 <worker> at 0x1a2
 *     1: func 5 <wasi_thread_start> at 0x1f0
 *
 *   timeout: the process ran past its time limit of 5.000 s and was stopped
 *
 *   deadlock: every thread is blocked and nothing can wake them (tids 1, 2)
 *     thread 1 is waiting on address 0x10440 (futex, memory.atomic.wait32, no timeout)
 *       0: func 4 <mutex_lock> at 0x11c
 *       ...
 *
 * plus "note: ..." with the reason of the last failed thread-spawn when the
 * program failed (a trap, a deadlock, a non-zero exit).
 */
#include <stdio.h>
#include <string.h>

#include "threads.h"

typedef struct thr_text {
    char *s;
    size_t len, cap;
    bool failed;
} thr_text;

static void thr_put(thr_text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void thr_put(thr_text *t, const char *fmt, ...) {
    if (t->failed) return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(t->s ? t->s + t->len : NULL, t->s ? t->cap - t->len : 0, fmt, ap);
        va_end(ap);
        if (n < 0) {
            t->failed = true;
            return;
        }
        if (t->s && t->len + (size_t)n < t->cap) {
            t->len += (size_t)n;
            return;
        }
        size_t cap = (t->cap ? t->cap * 2 : 256) + (size_t)n;
        char *s = realloc(t->s, cap);
        if (!s) {
            t->failed = true;
            return;
        }
        t->s = s;
        t->cap = cap;
    }
}

static void thr_put_backtrace(thr_text *t, const weft_error *err, const char *indent) {
    for (uint32_t i = 0; i < err->frame_count && i < WEFT_BACKTRACE_MAX; i++) {
        const weft_frame *f = &err->frames[i];
        if (!f->module) {
            thr_put(t, "%s%u: <host function>\n", indent, i);
            continue;
        }
        const char *name = weft_module_func_name(f->module, f->func_index);
        if (name)
            thr_put(t, "%s%u: func %u <%s> at 0x%x\n", indent, i, f->func_index, name, f->offset);
        else
            thr_put(t, "%s%u: func %u at 0x%x\n", indent, i, f->func_index, f->offset);
    }
    if (err->frames_dropped) thr_put(t, "%s... %u more frames\n", indent, err->frames_dropped);
}

void thr_report_build(thr_process *p) {
    thr_text t = {0};
    const weft_process_outcome *o = &p->outcome;
    bool failed = true;
    switch (o->end) {
    case WEFT_PROCESS_EXIT:
        failed = o->exit_code != 0;
        thr_put(&t, "%s", "");
        break;
    case WEFT_PROCESS_TRAP: {
        const char *msg = o->error.message[0] ? o->error.message : weft_trap_message(o->error.trap);
        thr_put(&t, "thread %u: %s\n", o->tid, msg);
        thr_put_backtrace(&t, &o->error, "  ");
        break;
    }
    case WEFT_PROCESS_DEADLOCK:
        thr_put(&t, "deadlock: every thread is blocked and nothing can wake them (tids ");
        for (size_t i = 0; i < p->waiters.len; i++)
            thr_put(&t, "%s%u", i ? ", " : "", p->waiters.data[i].tid);
        thr_put(&t, ")\n");
        for (size_t i = 0; i < p->waiters.len; i++) {
            const weft_process_waiter *w = &p->waiters.data[i];
            thr_put(&t, "  thread %u is waiting on address 0x%llx (futex, memory.atomic.wait%u, no timeout)\n",
                    w->tid, (unsigned long long)w->addr, w->width * 8);
            thr_put_backtrace(&t, &w->where, "    ");
        }
        break;
    case WEFT_PROCESS_STOPPED:
        thr_put(&t, "the process was stopped by its host\n");
        break;
    case WEFT_PROCESS_FAILED:
        thr_put(&t, "thread %u: %s\n", o->tid, o->error.message);
        break;
    case WEFT_PROCESS_TIMEOUT:
        thr_put(&t, "timeout: the process ran past its time limit of %.3f s and was stopped\n",
                (double)p->timeout_ns / 1e9);
        break;
    }
    if (failed && p->spawn_error) thr_put(&t, "note: %s\n", p->spawn_error);
    free(p->report);
    p->report = t.failed ? NULL : t.s;
    if (t.failed) free(t.s);
}
