/*
 * cabi_test.c — weft's side of the canonical ABI's differential test
 * (tests/component/cabi_diff.py runs definitions.py on the same cases and
 * compares the answers line by line).
 *
 * One case per input line, one answer per output line. A case:
 *   OP ENC HEAP MEM TABLE ARGS...
 *     OP     load T PTR | store T PTR V | liftv MAX N T... FLAT | lowerv MAX N T... V... OUT
 *            | sig ASYNC CALLBACK lift|lower NP T... NR T... (flatten_functype; answers
 *            ok PARAMS/RESULTS, core types comma-separated)
 *     ENC    utf8 | utf16 | latin1+utf16
 *     HEAP   start,fault_at,fault_kind,grow: the realloc (a bump allocator as
 *            run_tests.py's Heap; call fault_at does fault_kind: 1 misaligned
 *            result, 2 just past the memory, 3 trap, 4 0xffffffff rounded down
 *            to the alignment; grow: 1 memory grows to fit instead of trapping,
 *            2 the old contents are not copied)
 *     MEM    the memory's bytes in hex, or - for none
 *     TABLE  - or ops on the instance's handle table, comma-separated:
 *            a<rt>.<rep>.<o|b> add, r<i> drop, l<i> lend once
 *   types:   bool s8 u8 s16 u16 s32 u32 s64 u64 f32 f64 char str
 *            list(T) flist<N>(T) rec(T,...) tup(T,...) var(T|_,...) enum<N>
 *            opt(T) res(T|_,T|_) flags<N> own<R> borrow<R> map(K,V)
 *   values:  t f | integers | x<hex bits> (floats) | code point (char) |
 *            s<src>:<hex utf-8> | [v,...] | c<i> or c<i>(v) | F<bits> | r<rep>
 *   FLAT:    - or i<u32>,I<u64>,f<hex>,d<hex> comma-separated
 *   OUT:     - or the out-pointer
 * An answer:
 *   ok RESULT MEMHASH REALLOCS TABLE     or     trap CODE REALLOCS
 * (tests/component/cabi_diff.py prints the same from Python).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "component/cabi.h"
#include "component/resource.h"

#define MAXLINE (1 << 22)

/* ---- the test's world: memory, realloc, resources ------------------------- */

typedef struct heap {
    uint8_t *mem;
    uint64_t size;
    uint64_t last;
    int64_t fault_at;
    int fault_kind, grow;
    uint32_t ncalls;
    char *log; /* the realloc calls, as cabi_diff.py prints them */
    size_t log_len, log_cap;
} heap;

static void logf_(heap *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void logf_(heap *h, const char *fmt, ...) {
    char buf[128];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (h->log_len + (size_t)n + 1 > h->log_cap) {
        h->log_cap = (h->log_len + (size_t)n + 1) * 2;
        h->log = realloc(h->log, h->log_cap);
    }
    memcpy(h->log + h->log_len, buf, (size_t)n + 1);
    h->log_len += (size_t)n;
}

static uint8_t *mem_fn(void *env, uint64_t *size) {
    heap *h = env;
    *size = h->size;
    return h->mem;
}

static uint64_t align_up(uint64_t p, uint64_t a) { return (p + a - 1) / a * a; }

static weft_status realloc_fn(void *env, uint32_t old, uint32_t old_size, uint32_t align,
                              uint32_t new_size, uint32_t *out, weft_error *err) {
    heap *h = env;
    logf_(h, "%s%u.%u.%u.%u", h->ncalls ? ";" : "", old, old_size, align, new_size);
    uint32_t k = h->ncalls++;
    if ((int64_t)k == h->fault_at && h->fault_kind == 3) {
        snprintf(err->message, sizeof err->message, "test realloc: asked to trap");
        err->status = WEFT_ERR_TRAP;
        return WEFT_ERR_TRAP;
    }
    uint64_t ret;
    if (old != 0 && new_size < old_size) {
        ret = align_up(old, align);
    } else {
        ret = align_up(h->last, align);
        h->last = ret + new_size;
        if (h->last > h->size) {
            if (!(h->grow & 1)) {
                snprintf(err->message, sizeof err->message, "test realloc: out of heap");
                err->status = WEFT_ERR_TRAP;
                return WEFT_ERR_TRAP;
            }
            uint64_t nsize = align_up(h->last, 64);
            uint8_t *nm = malloc(nsize ? nsize : 1); /* a new place: the base moves */
            memcpy(nm, h->mem, h->size);
            memset(nm + h->size, 0, nsize - h->size);
            free(h->mem);
            h->mem = nm;
            h->size = nsize;
        }
        uint32_t keep = h->grow & 2 ? 0 : old_size < new_size ? old_size : new_size;
        if ((uint64_t)old + keep > h->size) {
            snprintf(err->message, sizeof err->message, "test realloc: copy out of range");
            err->status = WEFT_ERR_TRAP;
            return WEFT_ERR_TRAP;
        }
        memmove(h->mem + ret, h->mem + old, keep);
    }
    if ((int64_t)k == h->fault_at) {
        if (h->fault_kind == 1) ret += 1;
        else if (h->fault_kind == 2) ret = align_up(h->size + 1, align);
        else if (h->fault_kind == 4) ret = 0xffffffffu / align * align;
    }
    ret &= 0xffffffffu;
    logf_(h, "=%" PRIu64, ret);
    *out = (uint32_t)ret;
    return WEFT_OK;
}

static int inst_id, other_id;
static cm_resource R[3] = {
    {.name = "R0", .owner = &inst_id},
    {.name = "R1", .owner = &other_id},
    {.name = "R2", .owner = &other_id},
};

/* ---- parsing ------------------------------------------------------------- */

typedef struct parser {
    const char *s;
    cm_arena *arena;
    int bad;
} parser;

static void *alloc(parser *p, size_t n) {
    void *r = cm_arena_alloc(p->arena, n ? n : 1, 16);
    if (!r) {
        fprintf(stderr, "cabi_test: out of memory\n");
        exit(2);
    }
    memset(r, 0, n ? n : 1);
    return r;
}

static bool eat(parser *p, const char *w) {
    size_t n = strlen(w);
    if (strncmp(p->s, w, n) == 0) {
        p->s += n;
        return true;
    }
    return false;
}

static void expect(parser *p, char c) {
    if (*p->s == c) p->s++;
    else p->bad = 1;
}

static uint64_t num(parser *p) {
    char *end;
    uint64_t v = strtoull(p->s, &end, 10);
    if (end == p->s) p->bad = 1;
    p->s = end;
    return v;
}

static cm_valtype *new_type(parser *p, cm_kind k) {
    cm_valtype *t = alloc(p, sizeof *t);
    t->kind = k;
    return t;
}

static const cm_valtype *parse_type(parser *p);

/* T,T,... ) with "_" for none */
static uint32_t parse_types(parser *p, const cm_valtype ***out) {
    const cm_valtype *buf[1024];
    uint32_t n = 0;
    expect(p, '(');
    while (!p->bad && n < 1024) {
        if (eat(p, "_")) buf[n++] = NULL;
        else buf[n++] = parse_type(p);
        if (*p->s == ',') {
            p->s++;
            continue;
        }
        break;
    }
    expect(p, ')');
    *out = alloc(p, n * sizeof **out);
    memcpy(*out, buf, n * sizeof **out);
    return n;
}

static cm_field *fields_of(parser *p, const cm_valtype **ts, uint32_t n) {
    cm_field *f = alloc(p, n * sizeof *f);
    for (uint32_t i = 0; i < n; i++) {
        f[i].name = "x";
        f[i].name_len = 1;
        f[i].type = ts[i];
    }
    return f;
}

static const cm_valtype *parse_type(parser *p) {
    static const struct { const char *w; cm_kind k; } prims[] = {
        {"bool", CM_BOOL}, {"s8", CM_S8}, {"u8", CM_U8}, {"s16", CM_S16}, {"u16", CM_U16},
        {"s32", CM_S32}, {"u32", CM_U32}, {"s64", CM_S64}, {"u64", CM_U64}, {"f32", CM_F32},
        {"f64", CM_F64}, {"char", CM_CHAR}, {"str", CM_STRING},
    };
    const cm_valtype **ts;
    cm_valtype *t;
    uint32_t n;
    if (eat(p, "list(")) {
        t = new_type(p, CM_LIST);
        t->elem = parse_type(p);
        expect(p, ')');
        return t;
    }
    if (eat(p, "flist<")) {
        t = new_type(p, CM_FIXED_LIST);
        t->n = (uint32_t)num(p);
        expect(p, '>');
        expect(p, '(');
        t->elem = parse_type(p);
        expect(p, ')');
        return t;
    }
    if (eat(p, "rec") || eat(p, "var")) {
        bool rec = p->s[-3] == 'r';
        n = parse_types(p, &ts);
        t = new_type(p, rec ? CM_RECORD : CM_VARIANT);
        t->n = n;
        t->fields = fields_of(p, ts, n);
        return t;
    }
    if (eat(p, "tup")) {
        n = parse_types(p, &ts);
        t = new_type(p, CM_TUPLE);
        t->n = n;
        t->members = ts;
        return t;
    }
    if (eat(p, "enum<") || eat(p, "flags<")) {
        bool en = p->s[-2] == 'm';
        t = new_type(p, en ? CM_ENUM : CM_FLAGS);
        t->n = (uint32_t)num(p);
        expect(p, '>');
        const cm_valtype **none = alloc(p, t->n * sizeof *none);
        t->fields = fields_of(p, none, t->n);
        return t;
    }
    if (eat(p, "opt(")) {
        t = new_type(p, CM_OPTION);
        t->elem = parse_type(p);
        expect(p, ')');
        return t;
    }
    if (eat(p, "res") || eat(p, "map")) {
        bool res = p->s[-3] == 'r';
        n = parse_types(p, &ts);
        if (n != 2) p->bad = 1;
        t = new_type(p, res ? CM_RESULT : CM_MAP);
        if (n == 2) t->elem = ts[0], t->elem2 = ts[1];
        return t;
    }
    if (eat(p, "own<") || eat(p, "borrow<")) {
        bool own = p->s[-2] == 'n';
        t = new_type(p, own ? CM_OWN : CM_BORROW);
        uint64_t r = num(p);
        if (r > 2) p->bad = 1;
        else t->resource = &R[r];
        expect(p, '>');
        return t;
    }
    for (size_t i = 0; i < sizeof prims / sizeof prims[0]; i++)
        if (eat(p, prims[i].w)) return cm_prim(prims[i].k);
    p->bad = 1;
    return cm_prim(CM_BOOL);
}

static uint32_t ncases_of(const cm_valtype *t) {
    return t->kind == CM_OPTION || t->kind == CM_RESULT ? 2 : t->n;
}

static const cm_valtype *case_of(const cm_valtype *t, uint32_t i) {
    switch (t->kind) {
    case CM_VARIANT: return t->fields[i].type;
    case CM_OPTION: return i ? t->elem : NULL;
    case CM_RESULT: return i ? t->elem2 : t->elem;
    default: return NULL;
    }
}

static int hexval(char c) {
    return c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

static void parse_val(parser *p, const cm_valtype *t, cm_val *v) {
    memset(v, 0, sizeof *v);
    v->kind = t->kind;
    switch (t->kind) {
    case CM_BOOL:
        v->v.b = *p->s == 't';
        p->s++;
        return;
    case CM_S8:
    case CM_S16:
    case CM_S32:
    case CM_S64: {
        char *end;
        v->v.s = strtoll(p->s, &end, 10);
        p->s = end;
        return;
    }
    case CM_U8:
    case CM_U16:
    case CM_U32:
    case CM_U64:
    case CM_CHAR:
        v->v.u = num(p);
        if (t->kind == CM_CHAR) v->v.ch = (uint32_t)v->v.u, v->v.u = v->v.ch;
        return;
    case CM_F32:
    case CM_F64: {
        expect(p, 'x');
        char *end;
        uint64_t bits = strtoull(p->s, &end, 16);
        p->s = end;
        if (t->kind == CM_F32) {
            uint32_t b = (uint32_t)bits;
            memcpy(&v->v.f32, &b, 4);
        } else {
            memcpy(&v->v.f64, &bits, 8);
        }
        return;
    }
    case CM_STRING: {
        expect(p, 's');
        v->v.str_src = (uint8_t)num(p);
        expect(p, ':');
        size_t n = 0;
        while (hexval(p->s[n]) >= 0) n++;
        char *s = alloc(p, n / 2 + 1);
        for (size_t i = 0; i + 1 < n; i += 2) s[i / 2] = (char)(hexval(p->s[i]) << 4 | hexval(p->s[i + 1]));
        p->s += n;
        v->n = (uint32_t)(n / 2);
        v->v.str = s;
        return;
    }
    case CM_FLAGS:
        expect(p, 'F');
        v->v.flags = (uint32_t)num(p);
        return;
    case CM_OWN:
    case CM_BORROW:
        expect(p, 'r');
        v->v.rep = (uint32_t)num(p);
        return;
    case CM_VARIANT:
    case CM_ENUM:
    case CM_OPTION:
    case CM_RESULT: {
        expect(p, 'c');
        v->v.c.index = (uint32_t)num(p);
        if (v->v.c.index >= ncases_of(t)) {
            p->bad = 1;
            return;
        }
        const cm_valtype *c = case_of(t, v->v.c.index);
        if (c) {
            expect(p, '(');
            v->v.c.payload = alloc(p, sizeof(cm_val));
            parse_val(p, c, v->v.c.payload);
            expect(p, ')');
        }
        return;
    }
    default: break;
    }
    /* [v,...] */
    expect(p, '[');
    cm_val buf_small[8], *items = buf_small;
    uint32_t n = 0, cap = 8;
    while (!p->bad && *p->s != ']') {
        if (n == cap) {
            cm_val *bigger = alloc(p, 2 * cap * sizeof *bigger);
            memcpy(bigger, items, n * sizeof *items);
            items = bigger;
            cap *= 2;
        }
        const cm_valtype *et = t->kind == CM_LIST || t->kind == CM_FIXED_LIST ? t->elem
                               : t->kind == CM_TUPLE                          ? t->members[n < t->n ? n : 0]
                               : t->kind == CM_RECORD                         ? t->fields[n < t->n ? n : 0].type
                                                                              : NULL;
        if (t->kind == CM_MAP) { /* [k,v] */
            cm_val *kv = alloc(p, 2 * sizeof *kv);
            expect(p, '[');
            parse_val(p, t->elem, &kv[0]);
            expect(p, ',');
            parse_val(p, t->elem2, &kv[1]);
            expect(p, ']');
            items[n] = (cm_val){.kind = CM_TUPLE, .n = 2, .v.items = kv};
        } else {
            parse_val(p, et, &items[n]);
        }
        n++;
        if (*p->s == ',') p->s++;
    }
    expect(p, ']');
    v->n = n;
    v->v.items = alloc(p, n * sizeof(cm_val));
    memcpy(v->v.items, items, n * sizeof(cm_val));
}

/* ---- printing ------------------------------------------------------------- */

typedef struct out {
    char *b;
    size_t len, cap;
} out;

static void put(out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(out *o, const char *fmt, ...) {
    va_list ap;
    if (!o->b) {
        o->cap = 256;
        o->b = malloc(o->cap);
    }
    for (;;) {
        va_start(ap, fmt);
        int n = vsnprintf(o->b + o->len, o->cap - o->len, fmt, ap);
        va_end(ap);
        if ((size_t)n < o->cap - o->len) {
            o->len += (size_t)n;
            return;
        }
        o->cap = (o->cap + (size_t)n + 1) * 2;
        o->b = realloc(o->b, o->cap);
    }
}

static int src_digit(const cm_val *v) { return v->v.str_src; }

static void print_val(out *o, const cm_valtype *t, const cm_val *v) {
    switch (t->kind) {
    case CM_BOOL: put(o, v->v.b ? "t" : "f"); return;
    case CM_S8:
    case CM_S16:
    case CM_S32:
    case CM_S64: put(o, "%" PRId64, v->v.s); return;
    case CM_U8:
    case CM_U16:
    case CM_U32:
    case CM_U64: put(o, "%" PRIu64, v->v.u); return;
    case CM_F32: {
        uint32_t b;
        memcpy(&b, &v->v.f32, 4);
        put(o, "x%08" PRIx32, b);
        return;
    }
    case CM_F64: {
        uint64_t b;
        memcpy(&b, &v->v.f64, 8);
        put(o, "x%016" PRIx64, b);
        return;
    }
    case CM_CHAR: put(o, "%" PRIu32, v->v.ch); return;
    case CM_STRING:
        put(o, "s%d:", src_digit(v));
        for (uint32_t i = 0; i < v->n; i++) put(o, "%02x", (uint8_t)v->v.str[i]);
        return;
    case CM_FLAGS: put(o, "F%" PRIu32, v->v.flags); return;
    case CM_OWN:
    case CM_BORROW: put(o, "r%" PRIu32, v->v.rep); return;
    case CM_VARIANT:
    case CM_ENUM:
    case CM_OPTION:
    case CM_RESULT: {
        put(o, "c%" PRIu32, v->v.c.index);
        const cm_valtype *c = case_of(t, v->v.c.index);
        if (c) {
            put(o, "(");
            print_val(o, c, v->v.c.payload);
            put(o, ")");
        }
        return;
    }
    default: break;
    }
    put(o, "[");
    for (uint32_t i = 0; i < v->n; i++) {
        if (i) put(o, ",");
        if (t->kind == CM_MAP) {
            put(o, "[");
            print_val(o, t->elem, &v->v.items[i].v.items[0]);
            put(o, ",");
            print_val(o, t->elem2, &v->v.items[i].v.items[1]);
            put(o, "]");
        } else {
            const cm_valtype *et = t->kind == CM_TUPLE    ? t->members[i]
                                   : t->kind == CM_RECORD ? t->fields[i].type
                                                          : t->elem;
            print_val(o, et, &v->v.items[i]);
        }
    }
    put(o, "]");
}

static void print_flat(out *o, const weft_val *f, uint32_t n) {
    if (n == 0) put(o, "-");
    for (uint32_t i = 0; i < n; i++) {
        if (i) put(o, ",");
        switch (f[i].type) {
        case WEFT_I32: put(o, "i%" PRIu32, (uint32_t)f[i].of.i32); break;
        case WEFT_I64: put(o, "I%" PRIu64, (uint64_t)f[i].of.i64); break;
        case WEFT_F32: put(o, "f%08" PRIx32, f[i].of.f32_bits); break;
        default: put(o, "d%016" PRIx64, f[i].of.f64_bits); break;
        }
    }
}

static const char *trap_name(cm_trap c) {
    switch (c) {
#define NAME_(code, phrase) case code: return &#code[8];
        CM_TRAPS(NAME_)
#undef NAME_
    case CM_TRAP_OTHER: return "CALLEE";
    default: return "NONE";
    }
}

/* CRC-32 (zlib's, which cabi_diff.py uses) of the memory */
static uint32_t crc32(const uint8_t *p, uint64_t n) {
    uint32_t c = 0xffffffffu;
    for (uint64_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++) c = c >> 1 ^ (0xedb88320u & -(c & 1));
    }
    return c ^ 0xffffffffu;
}

/* ---- one case --------------------------------------------------------------- */

static char *word(char **s) {
    while (**s == ' ') (*s)++;
    char *w = *s;
    while (**s && **s != ' ' && **s != '\n') (*s)++;
    if (**s) *(*s)++ = 0;
    return w;
}

static void run_case(char *line, out *o, cm_arena *arena) {
    char *s = line;
    char *op = word(&s), *enc = word(&s), *heapspec = word(&s), *memhex = word(&s), *tops = word(&s);
    parser p = {.arena = arena};
    heap h = {0};
    long long start, fault_at;
    int fk, grow;
    if (sscanf(heapspec, "%lld,%lld,%d,%d", &start, &fault_at, &fk, &grow) != 4) {
        put(o, "bad heap\n");
        return;
    }
    h.last = (uint64_t)start;
    h.fault_at = fault_at;
    h.fault_kind = fk;
    h.grow = grow;
    size_t hexlen = strcmp(memhex, "-") ? strlen(memhex) : 0;
    h.size = hexlen / 2;
    h.mem = malloc(h.size ? h.size : 1);
    for (size_t i = 0; i < h.size; i++) h.mem[i] = (uint8_t)(hexval(memhex[2 * i]) << 4 | hexval(memhex[2 * i + 1]));

    cm_abi_opts opts = {
        .encoding = !strcmp(enc, "utf8") ? CM_ENC_UTF8 : !strcmp(enc, "utf16") ? CM_ENC_UTF16 : CM_ENC_LATIN1_UTF16,
        .memory = mem_fn, .memory_env = &h, .realloc = realloc_fn, .realloc_env = &h,
    };
    cm_inst_state inst;
    cm_inst_state_init(&inst, &inst_id);
    cm_task old_task, task;
    cm_task_begin(&old_task, &inst);
    cm_task_begin(&task, &inst);
    cm_subtask sub;
    cm_subtask_begin(&sub, &inst);
    weft_error err = {0};

    /* the table's starting state */
    if (strcmp(tops, "-")) {
        for (char *t = strtok(tops, ","); t; t = strtok(NULL, ",")) {
            unsigned rt, rep, idx;
            char ob;
            if (sscanf(t, "a%u.%u.%c", &rt, &rep, &ob) == 3) {
                cm_handle hd = {.kind = ob == 'o' ? CM_ELEM_OWN : CM_ELEM_BORROW, .rep = rep, .rt = &R[rt % 3],
                                .scope = ob == 'o' ? NULL : &old_task};
                cm_handles_add(&inst.handles, &hd, &idx, &err);
            } else if (sscanf(t, "r%u", &idx) == 1) {
                if (cm_handles_get(&inst.handles, idx)) cm_handles_remove(&inst.handles, idx);
            } else if (sscanf(t, "l%u", &idx) == 1) {
                cm_handle *hd = cm_handles_get(&inst.handles, idx);
                if (hd) hd->num_lends++;
            }
        }
    }

    cm_abi_cx cx;
    cm_abi_cx_init(&cx, &opts, &inst, arena, &err);
    cx.task = &task;
    cx.subtask = &sub;

    weft_status st = WEFT_OK;
    out res = {0};
    put(&res, "%s", "");
    bool lifting = !strcmp(op, "load") || !strcmp(op, "liftv");
    if (!strcmp(op, "sig")) { /* sig ASYNC CALLBACK lift|lower NP T... NR T... */
        bool async = word(&s)[0] == '1', callback = word(&s)[0] == '1';
        bool lift = !strcmp(word(&s), "lift");
        cm_functype ft = {.async = async};
        ft.nparams = (uint32_t)strtoul(word(&s), NULL, 10);
        cm_field *ps = alloc(&p, ft.nparams * sizeof *ps);
        for (uint32_t i = 0; i < ft.nparams && !p.bad && st == WEFT_OK; i++) {
            p.s = word(&s);
            ps[i].type = parse_type(&p);
            if (!p.bad) st = cm_abi_layout((cm_valtype *)ps[i].type, &err);
        }
        ft.params = ps;
        if (strtoul(word(&s), NULL, 10) == 1 && !p.bad && st == WEFT_OK) {
            p.s = word(&s);
            ft.result = parse_type(&p);
            if (!p.bad) st = cm_abi_layout((cm_valtype *)ft.result, &err);
        }
        if (!p.bad && st == WEFT_OK) {
            cm_core_sig sig;
            cm_abi_flatten_functype(&ft, async, callback, lift ? CM_ABI_LIFT : CM_ABI_LOWER, &sig);
            static const char *names[] = {[WEFT_I32] = "i32", [WEFT_I64] = "i64", [WEFT_F32] = "f32", [WEFT_F64] = "f64"};
            for (uint32_t i = 0; i < sig.nparams; i++) put(&res, "%s%s", i ? "," : "", names[sig.params[i]]);
            put(&res, "/");
            for (uint32_t i = 0; i < sig.nresults; i++) put(&res, "%s%s", i ? "," : "", names[sig.results[i]]);
            put(o, "ok %s\n", res.b);
        } else {
            put(o, "bad case\n");
        }
        free(res.b);
        free(h.mem);
        cm_inst_state_free(&inst);
        return;
    }
    if (!strcmp(op, "load") || !strcmp(op, "store")) {
        p.s = word(&s);
        const cm_valtype *t = parse_type(&p);
        uint32_t ptr = (uint32_t)strtoul(word(&s), NULL, 10);
        st = cm_abi_layout((cm_valtype *)t, &err);
        if (st == WEFT_OK && !p.bad) {
            if (op[0] == 'l') {
                cm_val v;
                st = cm_abi_load(&cx, ptr, t, &v);
                if (st == WEFT_OK) print_val(&res, t, &v);
            } else {
                cm_val v;
                p.s = word(&s);
                parse_val(&p, t, &v);
                if (!p.bad) st = cm_abi_store(&cx, &v, t, ptr);
                put(&res, "-");
            }
        }
    } else {
        uint32_t max = (uint32_t)strtoul(word(&s), NULL, 10), n = (uint32_t)strtoul(word(&s), NULL, 10);
        const cm_valtype **ts = alloc(&p, n * sizeof *ts);
        for (uint32_t i = 0; i < n && !p.bad; i++) {
            p.s = word(&s);
            ts[i] = parse_type(&p);
            if (!p.bad) st = cm_abi_layout((cm_valtype *)ts[i], &err);
            if (st != WEFT_OK) break;
        }
        cm_typelist tl = {.n = n, .types = ts};
        cm_val *vs = alloc(&p, n * sizeof *vs);
        if (st == WEFT_OK && !p.bad && lifting) {
            char *f = word(&s);
            weft_val flat[64];
            uint32_t nf = 0;
            if (strcmp(f, "-")) {
                for (char *t = strtok(f, ","); t && nf < 64; t = strtok(NULL, ",")) {
                    weft_val *fv = &flat[nf++];
                    memset(fv, 0, sizeof *fv);
                    switch (t[0]) {
                    case 'i': fv->type = WEFT_I32; fv->of.i32 = (int32_t)strtoul(t + 1, NULL, 10); break;
                    case 'I': fv->type = WEFT_I64; fv->of.i64 = (int64_t)strtoull(t + 1, NULL, 10); break;
                    case 'f': fv->type = WEFT_F32; fv->of.f32_bits = (uint32_t)strtoul(t + 1, NULL, 16); break;
                    default: fv->type = WEFT_F64; fv->of.f64_bits = strtoull(t + 1, NULL, 16); break;
                    }
                }
            }
            st = cm_abi_lift_flat_values(&cx, max, tl, flat, nf, NULL, vs);
            if (st == WEFT_OK) {
                put(&res, "[");
                for (uint32_t i = 0; i < n; i++) {
                    if (i) put(&res, ",");
                    print_val(&res, ts[i], &vs[i]);
                }
                put(&res, "]");
            }
        } else if (st == WEFT_OK && !p.bad) {
            for (uint32_t i = 0; i < n && !p.bad; i++) {
                p.s = word(&s);
                parse_val(&p, ts[i], &vs[i]);
            }
            char *outp = word(&s);
            uint32_t out_param = (uint32_t)strtoul(outp, NULL, 10);
            weft_val flat[CM_MAX_FLAT_PARAMS + 1];
            uint32_t nf = 0;
            if (!p.bad)
                st = cm_abi_lower_flat_values(&cx, max, tl, vs, strcmp(outp, "-") ? &out_param : NULL, flat, &nf);
            if (st == WEFT_OK) print_flat(&res, flat, nf);
        }
    }

    if (p.bad) {
        put(o, "bad case\n");
    } else if (st == WEFT_ERR_TRAP) {
        put(o, "trap %s %s\n", trap_name(cm_trap_code(&err)), h.log_len ? h.log : "-");
    } else if (st != WEFT_OK) {
        put(o, "error %d %s\n", (int)st, err.message);
    } else {
        uint64_t hash = crc32(h.mem, h.size);
        put(o, "ok %s %016" PRIx64 "/%" PRIu64 " %s ", res.b, hash, h.size, h.log_len ? h.log : "-");
        /* the table: free list bottom to top, then each element */
        cm_handles *tb = &inst.handles;
        uint32_t fl[4096], nfl = 0;
        for (uint32_t i = tb->free_head; i && nfl < 4096; i = tb->elems[i].next_free) fl[nfl++] = i;
        put(o, "F");
        for (uint32_t i = nfl; i-- > 0;) put(o, "%s%u", i == nfl - 1 ? "" : ".", fl[i]);
        put(o, "/");
        for (uint32_t i = 1; i < tb->len; i++) {
            cm_handle *e = &tb->elems[i];
            if (i > 1) put(o, ",");
            if (e->kind == CM_ELEM_FREE) {
                put(o, ".");
                continue;
            }
            put(o, "%c%d.%u.%u", e->kind == CM_ELEM_OWN ? 'o' : 'b', (int)(e->rt - R), e->rep, e->num_lends);
            if (e->kind == CM_ELEM_BORROW)
                put(o, ".%c", e->scope == &task ? 'c' : e->scope == &old_task ? 'x' : 'n');
        }
        if (lifting) {
            put(o, "/L");
            for (uint32_t i = 0; i < sub.nlenders; i++) put(o, "%s%u", i ? "." : "", sub.lenders[i]);
        } else {
            put(o, "/B%u", task.num_borrows);
        }
        put(o, "\n");
    }
    free(res.b);
    free(h.log);
    free(h.mem);
    free(sub.lenders);
    cm_inst_state_free(&inst);
}

int main(void) {
    char *line = malloc(MAXLINE);
    out o = {0};
    cm_arena arena = {.limit = 64u << 20};
    while (fgets(line, MAXLINE, stdin)) {
        o.len = 0;
        put(&o, "%s", "");
        run_case(line, &o, &arena);
        fputs(o.b, stdout);
        fflush(stdout);
        cm_arena_reset(&arena);
    }
    cm_arena_free(&arena);
    free(o.b);
    free(line);
    return 0;
}
