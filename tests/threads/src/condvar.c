/* condvar — producer/consumer over a bounded ring with one mutex and two
   condition variables: 2 producers put 1..5000 each, 2 consumers take
   until they see the end marker; the sums and counts must match. */
#include "rt.h"

#define CAP 8
#define PER 5000
static rt_mutex m;
static rt_cond not_full, not_empty;
static i32 ring[CAP], head, count, producers_left = 2; /* guarded by m */
static i64 taken_sum[2];
static i32 taken_n[2];

static void producer(void *arg) {
    (void)arg;
    for (i32 i = 1; i <= PER; i++) {
        rt_lock(&m);
        while (count == CAP) rt_cond_wait(&not_full, &m);
        ring[(head + count) % CAP] = i;
        count++;
        rt_cond_signal(&not_empty);
        rt_unlock(&m);
    }
    rt_lock(&m);
    producers_left--;
    rt_cond_broadcast(&not_empty);
    rt_unlock(&m);
}

static void consumer(void *arg) {
    i32 me = (i32)(size_t)arg;
    i64 sum = 0;
    i32 n = 0;
    for (;;) {
        rt_lock(&m);
        while (count == 0 && producers_left > 0) rt_cond_wait(&not_empty, &m);
        if (count == 0) {
            rt_unlock(&m);
            break;
        }
        i32 v = ring[head];
        head = (head + 1) % CAP;
        count--;
        rt_cond_signal(&not_full);
        rt_unlock(&m);
        sum += v;
        n++;
    }
    taken_sum[me] = sum;
    taken_n[me] = n;
}

void _start(void) {
    rt_thread *t[4];
    RT_CHECK(t[0] = rt_spawn(consumer, (void *)0, 0), "spawn");
    RT_CHECK(t[1] = rt_spawn(consumer, (void *)1, 0), "spawn");
    RT_CHECK(t[2] = rt_spawn(producer, 0, 0), "spawn");
    RT_CHECK(t[3] = rt_spawn(producer, 0, 0), "spawn");
    for (i32 i = 0; i < 4; i++) rt_join(t[i]);
    rt_say("items", taken_n[0] + taken_n[1]);
    rt_say("sum", taken_sum[0] + taken_sum[1]);
    RT_CHECK(taken_n[0] + taken_n[1] == 2 * PER, "count");
    RT_CHECK(taken_sum[0] + taken_sum[1] == 2 * (i64)PER * (PER + 1) / 2, "sum");
}
