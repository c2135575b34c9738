/* calls.c — call-heavy code: many small functions, direct and indirect calls.
 *
 * Four phases, each dominated by call overhead rather than by the work done
 * inside the callees (all marked noinline so the compiler keeps the calls):
 *   - table:    a stream of opcodes dispatched through an array of 16
 *               function pointers (call_indirect in wasm);
 *   - objects:  "virtual methods" on a mix of shapes through per-kind
 *               method tables;
 *   - chains:   nests of direct calls with several arguments;
 *   - callback: a generic fold and a generic binary search taking function
 *               pointers.
 * All arithmetic is 32-bit unsigned so the results are exact. Prints each
 * phase's result. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#define NOINLINE __attribute__((noinline))
#ifndef REPEAT
#define REPEAT 4000
#endif

/* ---- table -------------------------------------------------------------- */

typedef uint32_t (*binop)(uint32_t, uint32_t);

static NOINLINE uint32_t f_add(uint32_t a, uint32_t b) { return a + b; }
static NOINLINE uint32_t f_sub(uint32_t a, uint32_t b) { return a - b; }
static NOINLINE uint32_t f_xor(uint32_t a, uint32_t b) { return a ^ b; }
static NOINLINE uint32_t f_mul(uint32_t a, uint32_t b) { return a * (b | 1); }
static NOINLINE uint32_t f_rotl(uint32_t a, uint32_t b) { b &= 31; return b ? (a << b) | (a >> (32 - b)) : a; }
static NOINLINE uint32_t f_rotr(uint32_t a, uint32_t b) { b &= 31; return b ? (a >> b) | (a << (32 - b)) : a; }
static NOINLINE uint32_t f_min(uint32_t a, uint32_t b) { return a < b ? a : b; }
static NOINLINE uint32_t f_max(uint32_t a, uint32_t b) { return a > b ? a : b; }
static NOINLINE uint32_t f_avg(uint32_t a, uint32_t b) { return (a & b) + ((a ^ b) >> 1); }
static NOINLINE uint32_t f_or(uint32_t a, uint32_t b) { return a | (b >> 3); }
static NOINLINE uint32_t f_and(uint32_t a, uint32_t b) { return a & (b | 0x0f0f0f0f); }
static NOINLINE uint32_t f_neg(uint32_t a, uint32_t b) { return ~a + (b & 7); }
static NOINLINE uint32_t f_mix(uint32_t a, uint32_t b) { return (a ^ (a >> 15)) * 0x2c1b3c6d + b; }
static NOINLINE uint32_t f_div(uint32_t a, uint32_t b) { return a / ((b & 0xff) + 1) + a; }
static NOINLINE uint32_t f_mod(uint32_t a, uint32_t b) { return a % ((b & 0xffff) + 3) ^ a; }
static NOINLINE uint32_t f_sel(uint32_t a, uint32_t b) { return (b & 1) ? a + 0x9e3779b9 : a - b; }

static binop const table[16] = {
    f_add, f_sub, f_xor, f_mul, f_rotl, f_rotr, f_min, f_max,
    f_avg, f_or, f_and, f_neg, f_mix, f_div, f_mod, f_sel,
};

#define PROG_LEN 4096
static uint8_t prog[PROG_LEN];

static NOINLINE uint32_t run_table(uint32_t acc, binop const *tab)
{
    for (uint32_t i = 0; i < PROG_LEN; i++)
        acc = tab[prog[i]](acc, i * 0x01000193u);
    return acc;
}

/* ---- objects ------------------------------------------------------------ */

struct shape;
struct shape_ops {
    uint32_t (*area)(const struct shape *);
    uint32_t (*perimeter)(const struct shape *);
    void (*grow)(struct shape *, uint32_t);
};

struct shape {
    const struct shape_ops *ops;
    uint32_t a, b, c;
};

static NOINLINE uint32_t rect_area(const struct shape *s) { return s->a * s->b; }
static NOINLINE uint32_t rect_perim(const struct shape *s) { return 2 * (s->a + s->b); }
static NOINLINE void rect_grow(struct shape *s, uint32_t d) { s->a += d & 3; s->b += d & 1; }
static NOINLINE uint32_t sq_area(const struct shape *s) { return s->a * s->a; }
static NOINLINE uint32_t sq_perim(const struct shape *s) { return 4 * s->a; }
static NOINLINE void sq_grow(struct shape *s, uint32_t d) { s->a += d & 1; }
static NOINLINE uint32_t tri_area(const struct shape *s) { return (s->a * s->b) >> 1; }
static NOINLINE uint32_t tri_perim(const struct shape *s) { return s->a + s->b + s->c; }
static NOINLINE void tri_grow(struct shape *s, uint32_t d) { s->c += d & 7; }
static NOINLINE uint32_t circ_area(const struct shape *s) { return (s->a * s->a * 355) / 113; }
static NOINLINE uint32_t circ_perim(const struct shape *s) { return (s->a * 710) / 113; }
static NOINLINE void circ_grow(struct shape *s, uint32_t d) { s->a ^= d & 2; }

static const struct shape_ops rect_ops = {rect_area, rect_perim, rect_grow};
static const struct shape_ops sq_ops = {sq_area, sq_perim, sq_grow};
static const struct shape_ops tri_ops = {tri_area, tri_perim, tri_grow};
static const struct shape_ops circ_ops = {circ_area, circ_perim, circ_grow};

#define NSHAPES 256
static struct shape shapes[NSHAPES];

static void shapes_init(void)
{
    static const struct shape_ops *const kinds[4] = {&rect_ops, &sq_ops, &tri_ops, &circ_ops};
    for (uint32_t i = 0; i < NSHAPES; i++) {
        shapes[i].ops = kinds[(i * 7 + (i >> 3)) & 3];
        shapes[i].a = 1 + i % 13;
        shapes[i].b = 2 + i % 7;
        shapes[i].c = 3 + i % 5;
    }
}

static NOINLINE uint32_t run_objects(uint32_t round)
{
    uint32_t total = 0;
    for (uint32_t i = 0; i < NSHAPES; i++) {
        struct shape *s = &shapes[i];
        total += s->ops->area(s);
        total ^= s->ops->perimeter(s) << (i & 7);
        s->ops->grow(s, round + i);
        if (s->a > 1000) s->a = 1 + (s->a & 15);
        if (s->b > 1000) s->b = 2 + (s->b & 15);
        if (s->c > 1000) s->c = 3 + (s->c & 15);
    }
    return total;
}

/* ---- chains ------------------------------------------------------------- */

static NOINLINE uint32_t leaf1(uint32_t x) { return x * 3 + 1; }
static NOINLINE uint32_t leaf2(uint32_t x, uint32_t y) { return (x ^ y) + (x >> 2); }
static NOINLINE uint32_t leaf3(uint32_t x, uint32_t y, uint32_t z) { return x + y * 5 - z; }
static NOINLINE uint32_t mid1(uint32_t x, uint32_t y) { return leaf2(leaf1(x), y) + leaf1(y); }
static NOINLINE uint32_t mid2(uint32_t x, uint32_t y, uint32_t z) { return leaf3(x, leaf1(y), z) ^ leaf2(z, x); }
static NOINLINE uint32_t top(uint32_t x, uint32_t y, uint32_t z, uint32_t w)
{
    return mid1(x, y) + mid2(y, z, w) + mid1(w, x);
}

static NOINLINE uint32_t run_chains(uint32_t seed)
{
    uint32_t acc = seed;
    for (uint32_t i = 0; i < 1024; i++)
        acc = top(acc, i, acc >> 3, i * 7);
    return acc;
}

/* ---- callback ----------------------------------------------------------- */

#define NVALS 1024
static uint32_t vals[NVALS];

static NOINLINE uint32_t fold(const uint32_t *v, uint32_t n, uint32_t init,
                              uint32_t (*fn)(uint32_t, uint32_t))
{
    for (uint32_t i = 0; i < n; i++)
        init = fn(init, v[i]);
    return init;
}

static NOINLINE int cmp_u32(uint32_t a, uint32_t b) { return a < b ? -1 : a > b; }

static NOINLINE int32_t search(const uint32_t *v, uint32_t n, uint32_t key,
                               int (*cmp)(uint32_t, uint32_t))
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        int c = cmp(v[mid], key);
        if (c == 0) return (int32_t)mid;
        if (c < 0) lo = mid + 1; else hi = mid;
    }
    return -1;
}

static NOINLINE uint32_t run_callback(uint32_t round)
{
    uint32_t r = fold(vals, NVALS, round, f_add);
    r ^= fold(vals, NVALS, r, f_mix);
    r += fold(vals, NVALS, r, f_max);
    uint32_t found = 0;
    for (uint32_t k = 0; k < 512; k++) {
        int32_t at = search(vals, NVALS, (k + round) * 12, cmp_u32);
        if (at >= 0) found += (uint32_t)at + 1;
    }
    return r + found;
}

int main(void)
{
    uint32_t x = 1;
    for (uint32_t i = 0; i < PROG_LEN; i++) {
        x = x * 1103515245u + 12345u;
        prog[i] = (uint8_t)(x >> 16) & 15;
    }
    for (uint32_t i = 0; i < NVALS; i++)
        vals[i] = i * 5; /* sorted */
    shapes_init();

    uint32_t r_table = 0x12345678, r_obj = 0, r_chain = 0, r_cb = 0;
    for (uint32_t round = 0; round < REPEAT; round++) {
        r_table = run_table(r_table, table);
        r_obj = r_obj * 33 + run_objects(round);
        r_chain ^= run_chains(round + r_chain);
        r_cb = r_cb * 17 + run_callback(round);
    }
    printf("calls: table=%08" PRIx32 " objects=%08" PRIx32 " chains=%08" PRIx32
           " callback=%08" PRIx32 "\n", r_table, r_obj, r_chain, r_cb);
    return 0;
}
