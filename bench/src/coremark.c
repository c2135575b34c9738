/* coremark.c — a CoreMark-like mix of small kernels.
 *
 * Each iteration runs four kernels over small working sets that stay in
 * cache, in the spirit of EEMBC CoreMark (this is an independent program,
 * not CoreMark, and its scores are not comparable with CoreMark's):
 *   - list:   a linked list of records: search, reverse, merge sort by
 *             value, merge sort back by index;
 *   - matrix: 16-bit integer matrices: add and multiply by a constant,
 *             matrix times vector, matrix times matrix, bit extraction;
 *   - state:  a character-driven state machine that classifies tokens of a
 *             text buffer as integers, decimals, exponents or invalid;
 *   - crc:    CRC-16/CCITT over every kernel's results.
 * The iteration's seed perturbs the inputs so no kernel's work can be hoisted
 * out of the loop. Prints the final CRC and per-kernel totals. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#ifndef ITERATIONS
#define ITERATIONS 15000
#endif

/* ---- crc ---------------------------------------------------------------- */

static uint16_t crc_byte(uint16_t crc, uint8_t b)
{
    crc ^= (uint16_t)(b << 8);
    for (int i = 0; i < 8; i++)
        crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
    return crc;
}

static uint16_t crc_u16(uint16_t crc, uint16_t v)
{
    crc = crc_byte(crc, (uint8_t)v);
    return crc_byte(crc, (uint8_t)(v >> 8));
}

static uint16_t crc_u32(uint16_t crc, uint32_t v)
{
    crc = crc_u16(crc, (uint16_t)v);
    return crc_u16(crc, (uint16_t)(v >> 16));
}

/* ---- list --------------------------------------------------------------- */

#define LIST_LEN 96

struct rec {
    struct rec *next;
    int16_t value;
    int16_t index;
};

static struct rec rec_pool[LIST_LEN];

static struct rec *list_build(uint16_t seed)
{
    struct rec *head = NULL;
    for (int i = LIST_LEN - 1; i >= 0; i--) {
        struct rec *r = &rec_pool[i];
        r->index = (int16_t)i;
        r->value = (int16_t)(((i * 7919 + seed * 31) ^ (i << 3)) & 0x3fff);
        r->next = head;
        head = r;
    }
    return head;
}

static int rec_cmp_value(const struct rec *a, const struct rec *b)
{
    return a->value != b->value ? a->value - b->value : a->index - b->index;
}

static int rec_cmp_index(const struct rec *a, const struct rec *b)
{
    return a->index - b->index;
}

/* Bottom-up merge sort of a singly linked list, stable. */
static struct rec *list_sort(struct rec *list,
                             int (*cmp)(const struct rec *, const struct rec *))
{
    int width = 1;
    for (;;) {
        struct rec *p = list, *tail = NULL;
        int merges = 0;
        list = NULL;
        while (p) {
            struct rec *q = p;
            int psize = 0, qsize = width;
            merges++;
            while (psize < width && q) {
                psize++;
                q = q->next;
            }
            while (psize > 0 || (qsize > 0 && q)) {
                struct rec *e;
                if (psize == 0) {
                    e = q; q = q->next; qsize--;
                } else if (qsize == 0 || !q || cmp(p, q) <= 0) {
                    e = p; p = p->next; psize--;
                } else {
                    e = q; q = q->next; qsize--;
                }
                if (tail) tail->next = e; else list = e;
                tail = e;
            }
            p = q;
        }
        tail->next = NULL;
        if (merges <= 1)
            return list;
        width *= 2;
    }
}

static struct rec *list_reverse(struct rec *list)
{
    struct rec *prev = NULL;
    while (list) {
        struct rec *next = list->next;
        list->next = prev;
        prev = list;
        list = next;
    }
    return prev;
}

static int list_find(struct rec *list, int16_t value)
{
    int pos = 0;
    for (; list; list = list->next, pos++)
        if ((list->value & 0xff) == value)
            return pos;
    return -1;
}

static uint16_t bench_list(uint16_t seed, uint16_t crc)
{
    struct rec *list = list_build(seed);
    int found = 0, missed = 0;
    for (int16_t v = 0; v < 48; v++) {
        int pos = list_find(list, (int16_t)((v * 5 + seed) & 0xff));
        if (pos >= 0) found += pos; else missed++;
        if (v % 8 == 0)
            list = list_reverse(list);
    }
    list = list_sort(list, rec_cmp_value);
    for (struct rec *r = list; r; r = r->next)
        crc = crc_u16(crc, (uint16_t)r->value);
    list = list_sort(list, rec_cmp_index);
    int16_t sum = 0;
    for (struct rec *r = list; r; r = r->next)
        sum = (int16_t)(sum * 3 + r->value);
    crc = crc_u16(crc, (uint16_t)found);
    crc = crc_u16(crc, (uint16_t)missed);
    return crc_u16(crc, (uint16_t)sum);
}

/* ---- matrix ------------------------------------------------------------- */

#define MN 24

static int16_t mat_a[MN][MN], mat_b[MN][MN];
static int32_t mat_c[MN][MN], vec_c[MN];

static void mat_init(uint16_t seed)
{
    for (int i = 0; i < MN; i++)
        for (int j = 0; j < MN; j++) {
            mat_a[i][j] = (int16_t)(((i * MN + j + seed) * 17) % 509 - 254);
            mat_b[i][j] = (int16_t)(((j * MN + i) * 29 + seed) % 251 - 125);
        }
}

static uint16_t bench_matrix(uint16_t seed, uint16_t crc)
{
    int16_t k = (int16_t)(seed | 0xf000);
    mat_init(seed);

    for (int i = 0; i < MN; i++)
        for (int j = 0; j < MN; j++)
            mat_a[i][j] = (int16_t)(mat_a[i][j] + k);
    for (int i = 0; i < MN; i++)
        for (int j = 0; j < MN; j++)
            mat_c[i][j] = (int32_t)mat_a[i][j] * k;
    uint32_t acc = 0;
    for (int i = 0; i < MN; i++)
        for (int j = 0; j < MN; j++)
            acc += mat_c[i][j] > 0 ? 1u : (uint32_t)(mat_c[i][j] >> 20);
    crc = crc_u32(crc, acc);

    for (int i = 0; i < MN; i++) {
        int32_t s = 0;
        for (int j = 0; j < MN; j++)
            s += (int32_t)mat_a[i][j] * mat_b[j][0];
        vec_c[i] = s;
    }
    for (int i = 0; i < MN; i++)
        crc = crc_u32(crc, (uint32_t)vec_c[i]);

    for (int i = 0; i < MN; i++)
        for (int j = 0; j < MN; j++) {
            int32_t s = 0;
            for (int x = 0; x < MN; x++)
                s += (int32_t)mat_a[i][x] * mat_b[x][j];
            mat_c[i][j] = s;
        }
    acc = 0;
    for (int i = 0; i < MN; i++)
        for (int j = 0; j < MN; j++)
            acc += (uint32_t)(mat_c[i][j] ^ (mat_c[i][j] >> 7));
    crc = crc_u32(crc, acc);

    for (int i = 0; i < MN; i++)
        for (int j = 0; j < MN; j++) {
            int32_t s = 0;
            for (int x = 0; x < MN; x++) {
                int32_t t = (int32_t)mat_a[i][x] * mat_b[x][j];
                s += (t >> 2) & 0xf;
                s += (t >> 5) & 0x7f;
            }
            mat_c[i][j] = s;
        }
    acc = 0;
    for (int i = 0; i < MN; i++)
        for (int j = 0; j < MN; j++)
            acc += (uint32_t)mat_c[i][j];
    return crc_u32(crc, acc);
}

/* ---- state machine ------------------------------------------------------ */

enum state { S_START, S_SIGN, S_INT, S_DOT, S_FRAC, S_E, S_ESIGN, S_EXP, S_BAD, S_COUNT };

static const char *const tokens[] = {
    "5012", "1234", "-874", "+122", "3.14159", "-0.5", "+.25", "7.0e-3",
    "1e10", "-2.5E+4", "abc", "1.2.3", "--4", "9e", "e9", "0", "42x", ".",
};
#define NTOKENS (sizeof tokens / sizeof tokens[0])

static char text[1024];
static size_t text_len;

static void text_build(void)
{
    text_len = 0;
    for (size_t i = 0; text_len + 16 < sizeof text; i++) {
        const char *t = tokens[(i * 7) % NTOKENS];
        size_t n = strlen(t);
        memcpy(text + text_len, t, n);
        text_len += n;
        text[text_len++] = ',';
    }
    text[text_len] = '\0';
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* Advances over one token; returns the final state and counts transitions. */
static enum state scan_token(const char **pp, uint32_t *transitions)
{
    const char *p = *pp;
    enum state s = S_START;
    for (; *p && *p != ','; p++) {
        char c = *p;
        enum state n = s;
        switch (s) {
        case S_START:
            n = is_digit(c) ? S_INT : (c == '+' || c == '-') ? S_SIGN : c == '.' ? S_DOT : S_BAD;
            break;
        case S_SIGN:
            n = is_digit(c) ? S_INT : c == '.' ? S_DOT : S_BAD;
            break;
        case S_INT:
            n = is_digit(c) ? S_INT : c == '.' ? S_DOT : (c == 'e' || c == 'E') ? S_E : S_BAD;
            break;
        case S_DOT:
            n = is_digit(c) ? S_FRAC : S_BAD;
            break;
        case S_FRAC:
            n = is_digit(c) ? S_FRAC : (c == 'e' || c == 'E') ? S_E : S_BAD;
            break;
        case S_E:
            n = is_digit(c) ? S_EXP : (c == '+' || c == '-') ? S_ESIGN : S_BAD;
            break;
        case S_ESIGN:
        case S_EXP:
            n = is_digit(c) ? S_EXP : S_BAD;
            break;
        default:
            n = S_BAD;
            break;
        }
        if (n != s)
            (*transitions)++;
        s = n;
    }
    *pp = *p ? p + 1 : p;
    return s;
}

static uint16_t bench_state(uint16_t seed, uint16_t crc)
{
    uint32_t counts[S_COUNT] = {0};
    uint32_t transitions = 0;
    /* corrupt a few characters, scan, then restore */
    size_t stride = 17 + (seed & 15);
    for (size_t i = seed % stride; i < text_len; i += stride)
        if (text[i] != ',')
            text[i] = (char)(text[i] ^ 0x01);
    for (const char *p = text; *p;)
        counts[scan_token(&p, &transitions)]++;
    for (size_t i = seed % stride; i < text_len; i += stride)
        if (text[i] != ',')
            text[i] = (char)(text[i] ^ 0x01);
    for (int i = 0; i < S_COUNT; i++)
        crc = crc_u32(crc, counts[i]);
    return crc_u32(crc, transitions);
}

int main(void)
{
    uint16_t crc = 0xffff, crc_list = 0, crc_mat = 0, crc_state = 0;
    text_build();
    for (uint32_t it = 0; it < ITERATIONS; it++) {
        uint16_t seed = (uint16_t)(it * 0x9e37u + crc);
        crc_list = bench_list(seed, crc_list);
        crc_mat = bench_matrix(seed, crc_mat);
        crc_state = bench_state(seed, crc_state);
        crc = crc_u16(crc, crc_list);
        crc = crc_u16(crc, crc_mat);
        crc = crc_u16(crc, crc_state);
    }
    printf("coremark-like: iterations=%d list=%04x matrix=%04x state=%04x final=%04x\n",
           ITERATIONS, crc_list, crc_mat, crc_state, crc);
    return 0;
}
