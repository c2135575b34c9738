/* hashtable.c — a malloc-heavy string-keyed hash table.
 *
 * Separate chaining with every node and every key in its own malloc block;
 * the bucket array doubles when the load factor passes 1. Each round inserts
 * KEYS keys built from a counter, looks up twice as many (half of them
 * absent), updates some values, deletes a third of the keys, reinserts part
 * of them, and finally frees the whole table. Exercises malloc/free, string
 * hashing (FNV-1a), strcmp-style compares and pointer chasing. Prints the
 * totals a correct table must produce. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef KEYS
#define KEYS 60000u
#endif
#ifndef ROUNDS
#define ROUNDS 12
#endif

struct node {
    struct node *next;
    uint32_t hash;
    uint32_t value;
    char *key;
};

struct table {
    struct node **buckets;
    uint32_t nbuckets; /* power of two */
    uint32_t count;
};

static void *xmalloc(size_t n)
{
    void *p = malloc(n);
    if (!p) {
        fprintf(stderr, "hashtable: out of memory\n");
        exit(1);
    }
    return p;
}

static uint32_t hash_str(const char *s)
{
    uint32_t h = 2166136261u;
    for (; *s; s++)
        h = (h ^ (uint8_t)*s) * 16777619u;
    return h;
}

/* Writes a key such as "user:7f3a-12" for n into buf; returns its length. */
static size_t make_key(char *buf, uint32_t n, uint32_t round)
{
    static const char digits[] = "0123456789abcdef";
    char tmp[16];
    size_t len = 0, t = 0;
    memcpy(buf, "key:", 4);
    len = 4;
    uint32_t m = n * 2654435761u;
    do {
        tmp[t++] = digits[m & 15];
        m >>= 4;
    } while (m);
    while (t)
        buf[len++] = tmp[--t];
    buf[len++] = '-';
    uint32_t r = n % (round + 3);
    do {
        tmp[t++] = (char)('0' + r % 10);
        r /= 10;
    } while (r);
    while (t)
        buf[len++] = tmp[--t];
    buf[len] = '\0';
    return len;
}

static void table_init(struct table *t)
{
    t->nbuckets = 16;
    t->count = 0;
    t->buckets = calloc(t->nbuckets, sizeof *t->buckets);
    if (!t->buckets) {
        fprintf(stderr, "hashtable: out of memory\n");
        exit(1);
    }
}

static void table_grow(struct table *t)
{
    uint32_t n = t->nbuckets * 2;
    struct node **nb = calloc(n, sizeof *nb);
    if (!nb) {
        fprintf(stderr, "hashtable: out of memory\n");
        exit(1);
    }
    for (uint32_t i = 0; i < t->nbuckets; i++) {
        struct node *e = t->buckets[i];
        while (e) {
            struct node *next = e->next;
            uint32_t b = e->hash & (n - 1);
            e->next = nb[b];
            nb[b] = e;
            e = next;
        }
    }
    free(t->buckets);
    t->buckets = nb;
    t->nbuckets = n;
}

static struct node *table_find(const struct table *t, const char *key, uint32_t h)
{
    for (struct node *e = t->buckets[h & (t->nbuckets - 1)]; e; e = e->next)
        if (e->hash == h && strcmp(e->key, key) == 0)
            return e;
    return NULL;
}

/* Inserts or updates; returns 1 if the key was new. */
static int table_put(struct table *t, const char *key, size_t len, uint32_t value)
{
    uint32_t h = hash_str(key);
    struct node *e = table_find(t, key, h);
    if (e) {
        e->value = value;
        return 0;
    }
    if (t->count >= t->nbuckets)
        table_grow(t);
    e = xmalloc(sizeof *e);
    e->key = xmalloc(len + 1);
    memcpy(e->key, key, len + 1);
    e->hash = h;
    e->value = value;
    uint32_t b = h & (t->nbuckets - 1);
    e->next = t->buckets[b];
    t->buckets[b] = e;
    t->count++;
    return 1;
}

static int table_remove(struct table *t, const char *key)
{
    uint32_t h = hash_str(key);
    struct node **pp = &t->buckets[h & (t->nbuckets - 1)];
    for (struct node *e = *pp; e; pp = &e->next, e = e->next)
        if (e->hash == h && strcmp(e->key, key) == 0) {
            *pp = e->next;
            free(e->key);
            free(e);
            t->count--;
            return 1;
        }
    return 0;
}

static void table_free(struct table *t)
{
    for (uint32_t i = 0; i < t->nbuckets; i++) {
        struct node *e = t->buckets[i];
        while (e) {
            struct node *next = e->next;
            free(e->key);
            free(e);
            e = next;
        }
    }
    free(t->buckets);
    t->buckets = NULL;
}

int main(void)
{
    char key[64];
    uint64_t found_sum = 0;
    uint32_t inserted = 0, hits = 0, misses = 0, removed = 0, final_count = 0;

    for (uint32_t round = 0; round < ROUNDS; round++) {
        struct table t;
        table_init(&t);
        uint32_t nkeys = KEYS + round * 1000;
        for (uint32_t i = 0; i < nkeys; i++) {
            size_t len = make_key(key, i, round);
            inserted += (uint32_t)table_put(&t, key, len, i ^ round);
        }
        for (uint32_t i = 0; i < 2 * nkeys; i++) {
            make_key(key, i, round);
            struct node *e = table_find(&t, key, hash_str(key));
            if (e) {
                hits++;
                found_sum += e->value;
                if ((i & 7) == 0)
                    e->value += 3;
            } else {
                misses++;
            }
        }
        for (uint32_t i = 0; i < nkeys; i += 3) {
            make_key(key, i, round);
            removed += (uint32_t)table_remove(&t, key);
        }
        for (uint32_t i = 0; i < nkeys; i += 6) {
            size_t len = make_key(key, i, round);
            inserted += (uint32_t)table_put(&t, key, len, i);
        }
        for (uint32_t b = 0; b < t.nbuckets; b++)
            for (struct node *e = t.buckets[b]; e; e = e->next)
                found_sum += (uint64_t)e->value * (e->hash & 0xff);
        final_count += t.count;
        table_free(&t);
    }
    printf("hashtable: rounds=%d inserted=%" PRIu32 " hits=%" PRIu32 " misses=%" PRIu32
           " removed=%" PRIu32 " final=%" PRIu32 " sum=%" PRIu64 "\n",
           ROUNDS, inserted, hits, misses, removed, final_count, found_sum);
    return 0;
}
