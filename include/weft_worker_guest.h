/*
 * weft_worker_guest.h — the guest's side of a weft worker: the imports of
 * module "weft:worker", for C code built for wasm32 with clang:
 *
 *     clang --target=wasm32-wasi --sysroot=/usr -O2 -I include \
 *           -mexec-model=reactor -Wl,--export=run -o w.wasm w.c
 *
 * (or a plain WASI command: the entry is then _start). A reactor's
 * _initialize (its constructors) is called by weft_worker_spawn before the
 * entry runs. The host spawns the module with weft_worker_spawn
 * (include/weft.h); docs/workers.md has the whole ABI.
 *
 * Every call returns a non-negative value on success or one of the
 * negative WEFT_WORKER_* codes. Timeouts are in nanoseconds: 0 answers at
 * once, a negative one waits for as long as it takes. A call that waits
 * parks the worker without holding an OS thread.
 */
#ifndef WEFT_WORKER_GUEST_H
#define WEFT_WORKER_GUEST_H

#include <stddef.h>
#include <stdint.h>

#define WEFT_WORKER_END (-1)       /* the inbox is closed and drained: end of stream */
#define WEFT_WORKER_TIMEOUT (-2)   /* recv, peek: nothing came before the timeout
                                      (send never returns it: see FULL) */
#define WEFT_WORKER_TOO_SMALL (-3) /* recv: the next message is longer than the buffer;
                                      it stays queued (weft_peek gives its length) */
#define WEFT_WORKER_FULL (-4)      /* send: the outbox is at its limit and no room
                                      came before the timeout (0: at once) */
#define WEFT_WORKER_TOO_LARGE (-5) /* send, set_result: over the per-message limit */
#define WEFT_WORKER_CLOSED (-6)    /* send: the outbox is closed */
#define WEFT_WORKER_NOMEM (-7)     /* the host is out of memory */
#define WEFT_WORKER_FAULT (-8)     /* the buffer is not inside the memory */

#define WEFT_WORKER_FOREVER ((int64_t)-1)

#define WEFT_WORKER_IMPORT(name) __attribute__((import_module("weft:worker"), import_name(name)))

/* The input's length in bytes. */
WEFT_WORKER_IMPORT("input_size") int32_t weft_input_size(void);
/* Copies min(cap, length) bytes of the input to buf; returns its length. */
WEFT_WORKER_IMPORT("input") int32_t weft_input(void *buf, int32_t cap);
/* Takes the next message of the inbox into buf (up to cap bytes), waiting
   up to timeout_ns; returns its length, or END, TIMEOUT, TOO_SMALL, FAULT. */
WEFT_WORKER_IMPORT("recv") int32_t weft_recv(void *buf, int32_t cap, int64_t timeout_ns);
/* The length of the next message, without taking it, waiting up to
   timeout_ns; or END, TIMEOUT. */
WEFT_WORKER_IMPORT("peek") int32_t weft_peek(int64_t timeout_ns);
/* Queues len bytes of buf in the outbox, waiting up to timeout_ns for room
   when it is full; returns 0, or FULL (still no room when the timeout
   passed), TOO_LARGE, CLOSED, NOMEM, FAULT. Every negative answer counts
   in the outbox's `refused`. */
WEFT_WORKER_IMPORT("send") int32_t weft_send(const void *buf, int32_t len, int64_t timeout_ns);
/* The worker's result bytes (copied; a later call replaces them), which
   the host gets with the end; 0, or TOO_LARGE, NOMEM, FAULT. */
WEFT_WORKER_IMPORT("set_result") int32_t weft_set_result(const void *buf, int32_t len);
/* Closes the outbox: the host sees end of stream after what is queued. */
WEFT_WORKER_IMPORT("close") int32_t weft_close(void);

#endif
