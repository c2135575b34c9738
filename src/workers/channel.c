/*
 * channel.c — the bounded FIFO channels between a worker and its host.
 *
 * Ordering: messages are taken in the order they were queued (one list,
 * appended under the lock). Limits: a message is queued only if the count
 * stays within max_messages and the bytes within max_queued_bytes; a
 * message over max_message_bytes, or over max_queued_bytes on its own, is
 * refused for good (WEFT_ERR_TOO_LARGE), one that merely does not fit now
 * is refused (WEFT_ERR_FULL) or waits for room when the sender asked to.
 * A refused message is freed by the sender's path, never queued.
 *
 * Wake-ups: every change a waiter may wait for happens under ch->lock and
 * wakes under it — a queued message wakes a receiver, a taken one a sender,
 * the close everyone — the agent through the scheduler (sched_agent_wake:
 * a wake of an agent still running is kept until its step ends, so the
 * agent may register, unlock and return to park without losing one), host
 * threads through ch->cond. Host threads re-check after every wake-up and
 * at their deadline.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "workers.h"

int64_t wk_now(void) { return base_now_ns(); }

int64_t wk_deadline(int64_t timeout_ns) {
    if (timeout_ns < 0) return -1;
    if (timeout_ns == 0) return 0;
    int64_t now = wk_now();
    return timeout_ns > INT64_MAX - now ? -1 : now + timeout_ns;
}

bool wk_channel_init(wk_channel *ch, const weft_channel_limits *limits) {
    memset(ch, 0, sizeof *ch);
    if (limits) ch->limits = *limits;
    if (!ch->limits.max_message_bytes) ch->limits.max_message_bytes = WK_DEFAULT_MESSAGE_BYTES;
    if (!ch->limits.max_queued_bytes) ch->limits.max_queued_bytes = WK_DEFAULT_QUEUED_BYTES;
    if (!ch->limits.max_messages) ch->limits.max_messages = WK_DEFAULT_MESSAGES;
    pthread_condattr_t ca;
    if (pthread_condattr_init(&ca) != 0) return false;
    bool ok = pthread_condattr_setclock(&ca, CLOCK_MONOTONIC) == 0 && pthread_cond_init(&ch->cond, &ca) == 0;
    pthread_condattr_destroy(&ca);
    if (!ok) return false;
    if (base_mutex_init_handoff(&ch->lock) != 0) {
        pthread_cond_destroy(&ch->cond);
        return false;
    }
    return true;
}

void wk_channel_destroy(wk_channel *ch) {
    for (wk_msg *m = ch->head, *next; m; m = next) {
        next = m->next;
        wk_msg_free(m);
    }
    ch->head = ch->tail = NULL;
    pthread_cond_destroy(&ch->cond);
    pthread_mutex_destroy(&ch->lock);
}

wk_msg *wk_msg_new(const void *data, size_t len) {
    size_t at = (len + _Alignof(wk_msg) - 1) & ~(size_t)(_Alignof(wk_msg) - 1);
    if (at < len || at > SIZE_MAX - sizeof(wk_msg)) return NULL;
    uint8_t *block = malloc(at + sizeof(wk_msg));
    if (!block) return NULL;
    wk_msg *m = (wk_msg *)(block + at);
    m->next = NULL;
    m->len = len;
    m->data = block;
    if (data && len) memcpy(block, data, len);
    return m;
}

weft_status wk_send_check_locked(wk_channel *ch, size_t len, weft_error *err) {
    const weft_channel_limits *l = &ch->limits;
    if (ch->closed) return base_fail(err, WEFT_ERR_CLOSED, "the channel is closed");
    if (len > l->max_message_bytes)
        return base_fail(err, WEFT_ERR_TOO_LARGE,
                         "a message of %zu bytes is over the channel's limit of %llu bytes per message",
                         len, (unsigned long long)l->max_message_bytes);
    if (len > l->max_queued_bytes)
        return base_fail(err, WEFT_ERR_TOO_LARGE,
                         "a message of %zu bytes can never fit in the channel's %llu queued bytes", len,
                         (unsigned long long)l->max_queued_bytes);
    if (ch->count >= l->max_messages || len > l->max_queued_bytes - ch->bytes) return WK_AGAIN;
    return WEFT_OK;
}

/* The reason a send that waited (or could not) found no room. */
static weft_status wk_full(wk_channel *ch, size_t len, weft_error *err) {
    if (ch->count >= ch->limits.max_messages)
        return base_fail(err, WEFT_ERR_FULL, "the channel is full: %u messages queued (its limit)", ch->count);
    return base_fail(err, WEFT_ERR_FULL,
                     "the channel is full: %llu bytes queued, %zu more would pass its limit of %llu",
                     (unsigned long long)ch->bytes, len, (unsigned long long)ch->limits.max_queued_bytes);
}

/* Wakes the agent if it waits on ch (under ch->lock). */
static void wk_wake_agent_locked(wk_channel *ch) {
    if (ch->agent_waits && ch->agent) {
        ch->agent_waits = false;
        sched_agent_wake(ch->agent);
    }
}

bool wk_push_locked(wk_channel *ch, wk_msg *m) {
    atomic_fetch_add_explicit(&ch->changes, 1, memory_order_release);
    bool was_empty = ch->head == NULL;
    m->next = NULL;
    if (ch->tail) ch->tail->next = m;
    else ch->head = m;
    ch->tail = m;
    ch->count++;
    ch->bytes += m->len;
    ch->sent++;
    wk_wake_agent_locked(ch);
    if (ch->host_waiters) ch->host_owed = true;
    return was_empty;
}

wk_msg *wk_pop_locked(wk_channel *ch) {
    wk_msg *m = ch->head;
    if (!m) return NULL;
    atomic_fetch_add_explicit(&ch->changes, 1, memory_order_release);
    ch->head = m->next;
    if (!ch->head) ch->tail = NULL;
    ch->count--;
    ch->bytes -= m->len;
    ch->received++;
    m->next = NULL;
    wk_wake_agent_locked(ch);
    if (ch->host_waiters) ch->host_owed = true;
    return m;
}

bool wk_close_locked(wk_channel *ch) {
    if (ch->closed) return false;
    atomic_fetch_add_explicit(&ch->changes, 1, memory_order_release);
    ch->closed = true;
    wk_wake_agent_locked(ch);
    ch->host_owed = true;
    return true;
}

void wk_drop_locked(wk_channel *ch) {
    atomic_fetch_add_explicit(&ch->changes, 1, memory_order_release);
    for (wk_msg *m = ch->head, *next; m; m = next) {
        next = m->next;
        wk_msg_free(m);
        ch->dropped++;
    }
    ch->head = ch->tail = NULL;
    ch->count = 0;
    ch->bytes = 0;
    wk_wake_agent_locked(ch);
    if (ch->host_waiters) ch->host_owed = true;
}

/* How long a host waiter spins before it sleeps: long enough for a
   worker's answer on an idle core (a round trip is a few µs), while the
   gate (base_spin) keeps a host thread on a loaded machine from burning
   its share of the core (issue 26: the round trip's p99 beside one
   CPU-bound process per core). One gate per host thread. */
#define WK_SPIN_NS 50000
static _Thread_local base_spin_gate wk_spin_gate;

typedef struct wk_spin_arg {
    wk_channel *ch;
    uint32_t seen;
} wk_spin_arg;

static bool wk_spin_changed(void *arg) {
    wk_spin_arg *a = arg;
    return atomic_load_explicit(&a->ch->changes, memory_order_acquire) != a->seen;
}

/* Waits on ch->cond until woken or `deadline` (under ch->lock). False when
   the deadline has passed (or was 0). */
static bool wk_host_wait_locked(wk_channel *ch, int64_t deadline) {
    if (deadline == 0) return false;
    if (deadline > 0 && wk_now() >= deadline) return false;
    /* Spin a little first: a worker usually answers within microseconds,
       and a sleep and a wake-up cost more than that. */
    wk_spin_arg spin = {ch, atomic_load_explicit(&ch->changes, memory_order_relaxed)};
    wk_unlock(ch);
    base_spin(&wk_spin_gate, WK_SPIN_NS, wk_spin_changed, &spin);
    pthread_mutex_lock(&ch->lock);
    if (atomic_load_explicit(&ch->changes, memory_order_relaxed) != spin.seen) return true;
    ch->host_waiters++;
    wk_flush_owed_locked(ch);
    if (deadline < 0) {
        pthread_cond_wait(&ch->cond, &ch->lock);
    } else {
        struct timespec ts = {(time_t)(deadline / 1000000000), (long)(deadline % 1000000000)};
        pthread_cond_timedwait(&ch->cond, &ch->lock, &ts);
    }
    ch->host_waiters--;
    return true;
}

weft_status wk_host_send(wk_channel *ch, wk_msg *m, int64_t deadline, bool *edge, weft_error *err) {
    *edge = false;
    pthread_mutex_lock(&ch->lock);
    weft_status st;
    for (;;) {
        st = wk_send_check_locked(ch, m->len, err);
        if (st != WK_AGAIN) break;
        if (!wk_host_wait_locked(ch, deadline)) {
            st = wk_full(ch, m->len, err);
            break;
        }
    }
    if (st == WEFT_OK) *edge = wk_push_locked(ch, m);
    else ch->refused++;
    wk_unlock(ch);
    if (st != WEFT_OK) wk_msg_free(m);
    return st;
}

weft_status wk_host_recv(wk_channel *ch, int64_t deadline, wk_msg **out, weft_error *err) {
    *out = NULL;
    pthread_mutex_lock(&ch->lock);
    weft_status st = WEFT_OK;
    while (!(*out = wk_pop_locked(ch))) {
        if (ch->closed) {
            st = base_fail(err, WEFT_ERR_CLOSED, "the channel is closed and empty (end of stream)");
            break;
        }
        if (!wk_host_wait_locked(ch, deadline)) {
            st = base_fail(err, WEFT_ERR_TIMEOUT, "no message came before the deadline");
            break;
        }
    }
    wk_unlock(ch);
    return st;
}
