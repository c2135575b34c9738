/*
 * taildup.c — a layout pass over a compiled function (code.h): tail
 * duplication of short branch targets. It runs once per function, after
 * translation (compile_function), on the finished words.
 *
 * An unconditional BR whose target starts a short straight-line run that
 * ends in an unconditional transfer (BR, BR_TABLE, RETURN, UNREACHABLE) is
 * replaced by a copy of that run. A BR ending the run is followed into the
 * run at its target, so the chain BR -> ops -> BR -> ops -> BR_TABLE
 * becomes one copy ending in the BR_TABLE. This is the shape of every
 * interpreter written in C with a switch loop: each case ends with a br to
 * the end of the switch, where the loop's increment and the back-edge to
 * the dispatch follow. After the pass each case ends with its own
 * increment and dispatch (two taken branches fewer per iteration, and a
 * BR_TABLE of its own), and a function's early exits end with their own
 * epilogue and RETURN.
 *
 * Bounds. One copy: at most TD_MAX_OPS operations and TD_MAX_WORDS words,
 * a BR_TABLE counted with its entries (the table is data the interpreter
 * reads: N copies of an N-entry table are N^2 words of data cache, so big
 * tables stay shared). One function: it grows by at most half its length
 * plus TD_ALLOWANCE words; BRs are taken in code order until that is
 * spent. Following stops at a run already in the copy (a cycle) and at a
 * run that does not fit; the BR that leads there then stays, as the
 * copy's last operation.
 *
 * What is copied: the operations that fall through to the next (slots,
 * memory, globals, tables, SIMD) and the transfers that end a run. A run
 * containing anything else is not a candidate:
 *  - conditional branches (BR_IF, BR_UNLESS, the fused compare-and-branch
 *    operations): a run is straight-line;
 *  - calls (CALL, CALL_INTERNAL, CALL_INDIRECT): a frame saves the return
 *    address, a position in this code, read by RETURN, the backtrace
 *    (exec_trap, at ret_ip - 1), a restartable host call (e->ip) and a
 *    failed lazy entry. A copied call would work (each of those goes on
 *    in the copy or looks the offset up in pcmap), but a call costs
 *    several times a BR, so little is gained, and leaving calls out keeps
 *    every saved return address at an original call site;
 *  - ATOMIC_WAIT32/64: a parked wait saves ip on the wait and resumes
 *    there (rt_futex_settle, after_wait); a wait blocks, so nothing is
 *    gained by copying it;
 *  - LAZY: a stub's only operation, never in compiled code.
 *
 * Safe points: fuel and the deterministic scheduler's slices count one
 * unit per taken back-edge (a branch to a wasm loop label) and one per
 * function entry, none elsewhere (docs/code-format.md, "Safe points"),
 * whatever this pass does to the code. Which target words are back-edges
 * is f->back_edges, marked on the compiler's output (cmp_mark_back_edges)
 * and carried through the map to every copy of a branch. A BR that a copy
 * replaces, or that a copy follows into the next run, disappears; when it
 * was a back-edge, the copy has a SAFE_POINT operation in its place, which
 * takes the unit exactly where the BR took it: before anything after it
 * runs, so a fuel trap or a slice's end sees the same state. (Without it,
 * `(loop ... (br 0))` became two iterations per taken branch, and fuel
 * counted half its iterations.) A copy of a forward BR costs nothing.
 *
 * Relocation: branch targets are relative to the word holding them. The
 * new code is built with a map from each old operation's position to its
 * new one, and every target word (BR's, BR_IF's, BR_UNLESS's, the fused
 * branches', each BR_TABLE entry) is re-encoded from the old absolute
 * target through the map; a target that was a replaced BR lands on its
 * copy, which does the same. Nothing else in the format is a code
 * position. pcmap is rebuilt with one entry per operation, a copied
 * operation taking its source's byte offset, so a trap in a copy names the
 * wasm instruction it came from.
 */
#include "compiler.h"

enum {
    TD_MAX_OPS = 8,      /* operations in one copy */
    TD_MAX_WORDS = 64,   /* words in one copy, a BR_TABLE's entries included */
    TD_MAX_RUNS = 8,     /* runs followed into one copy */
    TD_ALLOWANCE = 2048, /* words a function may grow by beyond half its length */
};

/* Functions longer than this are left alone: positions must stay below
   2^31 after growth for the relative targets' arithmetic. */
#define TD_MAX_LEN (1u << 30)

/* What an operation is to the pass. */
typedef enum td_kind {
    TD_PLAIN, /* falls through to the next operation: may be copied */
    TD_END,   /* an unconditional transfer: ends a run, may be copied */
    TD_STOP,  /* never copied: a run containing it is not a candidate */
} td_kind;

/* From the operations table: the class JUMP ends a run (BR, BR_TABLE,
   RETURN, UNREACHABLE); any other safe point stops it: a conditional
   branch is no straight line, and a call, a wait or LAZY saves the
   position it is at, to return or resume there. */
static const uint8_t kinds[CMP_OP_COUNT] = {
#define TD_X_KIND(name, code, cls, shape, rt, at, n, of, fx)                                 \
    [CMP_##name] = CMP_CLASS_##cls == CMP_CLASS_JUMP   ? TD_END                          \
                   : (CMP_FX_##fx & CMP_FX_SAFE) ? TD_STOP                               \
                                                        : TD_PLAIN,
    CMP_OPS(TD_X_KIND)
#undef TD_X_KIND
};

static td_kind kind_of(uint32_t op) { return (td_kind)kinds[op]; }

/* The absolute position a target word at `word` names. */
static int64_t target_at(const uint32_t *code, uint32_t word) {
    return (int64_t)word + (int32_t)code[word];
}

/* A copy: n runs, run i from its first operation at from[i] to the
   transfer at end[i] that ends it. Every run but the last ends in the BR
   that leads to the next one, which the copy leaves out. ops and words:
   the copy's size. */
typedef struct td_copy {
    uint32_t n, ops, words;
    uint32_t safe; /* SAFE_POINTs among ops (one a word): back-edge BRs left out */
    uint32_t from[TD_MAX_RUNS], end[TD_MAX_RUNS];
} td_copy;

/* Scans the straight-line run at `at` (an operation's position or the
   code's end): true when it ends in a transfer within `max_ops`
   operations and `max_words` words; *ops and *words are then its size,
   *end the transfer's position. */
static bool scan_run(const cmp_func *f, uint32_t at, uint32_t max_ops, uint32_t max_words, uint32_t *ops,
                     uint32_t *words, uint32_t *end) {
    uint32_t n = 0, w = 0;
    while (at < f->code_len) {
        td_kind k = kind_of(f->code[at]);
        uint32_t len = cmp_op_length(f->code + at);
        if (k == TD_STOP || ++n > max_ops || len > max_words - w) return false;
        w += len;
        if (k == TD_END) {
            *ops = n;
            *words = w;
            *end = at;
            return true;
        }
        at += len;
    }
    return false;
}

/* True when an operation starts at `t`, or `t` is the code's end: map
   holds NO_POS at every other position (lay_out overwrites starts only). */
static bool is_start(const cmp_func *f, const uint32_t *map, int64_t t) {
    return t >= 0 && t <= f->code_len && map[t] != NO_POS;
}

/* Plans the copy that would replace the BR at `br` (whose target is
   checked): false when there is none worth making (the first run does not
   fit, or the copy would be the BR itself). Deterministic: the rewriting
   pass plans again and finds the same. */
static bool plan_copy(const cmp_func *f, const uint32_t *map, uint32_t br, td_copy *p) {
    const uint32_t *code = f->code;
    int64_t at = target_at(code, br + 1);
    /* A replaced back-edge's unit: the copy's first operation. */
    p->n = 0;
    p->ops = p->words = p->safe = cmp_is_back_edge(f, br + 1);
    while (p->n < TD_MAX_RUNS && is_start(f, map, at)) {
        /* Following the previous run's BR leaves it out of the copy, or,
           a back-edge, puts a SAFE_POINT (one word) in its place. */
        uint32_t base_ops = p->ops, base_words = p->words, base_safe = p->safe;
        if (p->n) {
            bool back = cmp_is_back_edge(f, p->end[p->n - 1] + 1);
            base_ops -= !back;
            base_words -= back ? 1 : 2;
            base_safe += back;
        }
        bool seen = false;
        for (uint32_t i = 0; i < p->n; i++) seen |= p->from[i] == at;
        uint32_t ops, words, end;
        if (seen ||
            !scan_run(f, (uint32_t)at, TD_MAX_OPS - base_ops, TD_MAX_WORDS - base_words, &ops, &words, &end))
            break;
        p->from[p->n] = (uint32_t)at;
        p->end[p->n] = end;
        p->n++;
        p->ops = base_ops + ops;
        p->words = base_words + words;
        p->safe = base_safe;
        if (code[end] != CMP_BR) break;
        at = target_at(code, end + 1);
    }
    if (p->n == 0) return false;
    uint32_t last = p->end[p->n - 1];
    return !(p->ops - p->safe == 1 && code[last] == CMP_BR && target_at(code, last + 1) == target_at(code, br + 1));
}

static void set_bit(uint32_t *bits, uint32_t i) { bits[i / 32] |= 1u << (i % 32); }

/* Copies the operation at old position `from` to new position `to` of
   `out`, re-encoding its targets through `map` and marking in `back` (the
   new code's back_edges, NULL when there are none) those that were
   back-edges; returns its length. */
static uint32_t emit_op(const cmp_func *f, const uint32_t *map, uint32_t from, uint32_t *out, uint32_t to,
                        uint32_t *back) {
    const uint32_t *at = f->code + from;
    uint32_t len = cmp_op_length(at), last;
    memcpy(out + to, at, len * sizeof *at);
    for (uint32_t k = cmp_target_words(at, &last); k && k <= last; k++) {
        out[to + k] = (uint32_t)((int32_t)map[target_at(f->code, from + k)] - (int32_t)(to + k));
        if (back && cmp_is_back_edge(f, from + k)) set_bit(back, to + k);
    }
    return len;
}

bool cmp_mark_back_edges(cmp_func *f) {
    /* The compiler sets a branch to a loop label to the loop's header,
       which is before the branch, and every other branch forward (block
       and if ends, else, its own stubs): on its output, and only there,
       a back-edge is a negative relative target. */
    uint32_t *bits = NULL, last;
    for (uint32_t pos = 0; pos < f->code_len; pos += cmp_op_length(f->code + pos)) {
        if (f->code[pos] >= CMP_OP_COUNT) break;
        for (uint32_t k = cmp_target_words(f->code + pos, &last); k && k <= last; k++) {
            if ((int32_t)f->code[pos + k] >= 0) continue;
            if (!bits && !(bits = calloc(f->code_len / 32 + 1, sizeof *bits))) return false;
            set_bit(bits, pos + k);
        }
    }
    free(f->back_edges);
    f->back_edges = bits;
    return true;
}

/* Fills `map` with 0 where operations start (the code's end included)
   and NO_POS elsewhere: false for code this pass does not understand,
   which it leaves as it is. */
static bool mark_starts(const cmp_func *f, uint32_t *map) {
    uint32_t len = f->code_len;
    memset(map, 0xFF, ((size_t)len + 1) * sizeof *map); /* NO_POS */
    for (uint32_t pos = 0, n; pos < len; pos += n) {
        n = cmp_op_length(f->code + pos);
        if (f->code[pos] >= CMP_OP_COUNT || n > len - pos) return false;
        map[pos] = 0;
    }
    map[len] = 0;
    return true;
}

/* Checks every target (an operation or the end: the map is read there),
   decides which BRs are replaced (dup[p] for the BR at p), in code order
   while the growth budget lasts, and puts in map[p] the new position of
   the operation at p (map[len]: the new length). *nops: the operations of
   the new code. False when nothing changes, or a target is not an
   operation. */
static bool lay_out(const cmp_func *f, uint32_t *map, uint8_t *dup, uint32_t *nops) {
    const uint32_t *code = f->code;
    uint32_t len = f->code_len, at = 0, last;
    int64_t budget = len / 2 + TD_ALLOWANCE;
    bool changed = false;
    *nops = 0;
    for (uint32_t pos = 0, n; pos < len; pos += n) {
        n = cmp_op_length(code + pos);
        for (uint32_t k = cmp_target_words(code + pos, &last); k && k <= last; k++)
            if (!is_start(f, map, target_at(code, pos + k))) return false;
        map[pos] = at;
        td_copy p;
        if (code[pos] == CMP_BR && plan_copy(f, map, pos, &p) && (int64_t)p.words - 2 <= budget) {
            budget -= (int64_t)p.words - 2;
            dup[pos] = 1;
            changed = true;
            at += p.words;
            *nops += p.ops;
        } else {
            at += n;
            ++*nops;
        }
    }
    map[len] = at;
    return changed;
}

/* Writes the new code and pcmap as laid out, and puts them in f. False
   when out of memory, with f unchanged. */
static bool rewrite(cmp_func *f, const uint32_t *map, const uint8_t *dup, uint32_t nops) {
    const uint32_t *code = f->code;
    uint32_t len = f->code_len, new_len = map[len];
    uint32_t *ncode = malloc((size_t)new_len * sizeof *ncode);
    uint32_t *npcmap = malloc((size_t)nops * 2 * sizeof *npcmap);
    uint32_t *nback = f->back_edges ? calloc(new_len / 32 + 1, sizeof *nback) : NULL;
    if (!ncode || !npcmap || (f->back_edges && !nback)) {
        free(ncode);
        free(npcmap);
        free(nback);
        return false;
    }
    /* pc: the old pcmap entry of the operation at pos (cmp_offset_of's
       answer, found walking); a copied operation looks its source up. */
    uint32_t npc = 0, pc = 0;
    for (uint32_t pos = 0, n; pos < len; pos += n) {
        n = cmp_op_length(code + pos);
        while (pc + 1 < f->npcmap && f->pcmap[2 * (pc + 1)] <= pos) pc++;
        if (!dup[pos]) {
            emit_op(f, map, pos, ncode, map[pos], nback);
            npcmap[2 * npc] = map[pos];
            npcmap[2 * npc++ + 1] = f->npcmap ? f->pcmap[2 * pc + 1] : 0;
            continue;
        }
        td_copy p;
        plan_copy(f, map, pos, &p);
        uint32_t to = map[pos];
        /* A back-edge BR left out becomes a SAFE_POINT, named by the BR's
           offset (plan_copy counted it). */
#define TD_SAFE_POINT(br)                                                            \
    do {                                                                             \
        if (cmp_is_back_edge(f, (br) + 1)) {                                         \
            npcmap[2 * npc] = to;                                                    \
            npcmap[2 * npc++ + 1] = cmp_offset_of(f, (br));                          \
            ncode[to++] = CMP_SAFE_POINT;                                            \
        }                                                                            \
    } while (0)
        TD_SAFE_POINT(pos);
        for (uint32_t r = 0; r < p.n; r++) {
            for (uint32_t at = p.from[r];; at += cmp_op_length(code + at)) {
                if (at == p.end[r] && r + 1 < p.n) { /* the BR followed */
                    TD_SAFE_POINT(at);
                    break;
                }
                npcmap[2 * npc] = to;
                npcmap[2 * npc++ + 1] = cmp_offset_of(f, at);
                to += emit_op(f, map, at, ncode, to, nback);
                if (at == p.end[r]) break;
            }
        }
#undef TD_SAFE_POINT
    }
    free(f->code);
    free(f->pcmap);
    free(f->back_edges);
    f->code = ncode;
    f->code_len = new_len;
    f->pcmap = npcmap;
    f->npcmap = npc;
    f->back_edges = nback;
    return true;
}

bool cmp_taildup(cmp_func *f) {
    uint32_t len = f->code_len;
    if (len > TD_MAX_LEN) return true;
    bool any = false;
    for (uint32_t pos = 0; pos < len && !any; pos += cmp_op_length(f->code + pos)) {
        if (f->code[pos] >= CMP_OP_COUNT) return true;
        any = f->code[pos] == CMP_BR;
    }
    if (!any) return true;
    /* map: per old position, then dup: per old position, one byte. */
    uint32_t *map = malloc(((size_t)len + 1) * sizeof *map + len);
    if (!map) return false;
    uint8_t *dup = (uint8_t *)(map + len + 1);
    memset(dup, 0, len);
    uint32_t nops;
    bool ok = true;
    if (mark_starts(f, map) && lay_out(f, map, dup, &nops)) ok = rewrite(f, map, dup, nops);
    free(map);
    return ok;
}
