/*
 * validate.c — a validation-only pass over one function body (§3.3, with
 * the algorithm of the spec's appendix "Validation Algorithm"), run on
 * every body at load so that an invalid module is refused there, while
 * translation into code waits for the function's first call (compile.c,
 * cmp_func_code).
 *
 * It answers one question: is this body certainly valid? It covers what
 * compilers emit for wasm32 programs: the 1.0 instructions, sign
 * extension, saturating truncation, multi-value block types, select with
 * a type, ref.null/ref.is_null/ref.func and memory.copy/memory.fill.
 * Anything else (SIMD, atomics, table and segment instructions, and every
 * error) makes it answer "not sure", and the caller runs the compiler's
 * one-pass validation on that body instead, which stays the authority on
 * error messages and on which error a module reports first (malformed
 * before invalid, §5 before §3). A wrong "not sure" costs time, never a
 * verdict; only a wrong "valid" would be a bug, and the compiler, which
 * validates again as it translates, would still refuse the body on its
 * first call (a clear error, not a crash).
 *
 * Why a second validator beside the compiler's: validation alone is a walk
 * over a byte stack of types, several times faster than translating
 * (no slots, constants, fusion or code to emit), and for a big program it
 * is the whole of start-up that must be paid before `_start`.
 */
#include "compiler.h"

#include <pthread.h>
#include <unistd.h>

#define V_UNKNOWN 0 /* the bottom type of an unreachable stack (T_UNKNOWN) */

typedef struct vctl {
    uint8_t kind; /* CTL_* */
    bool unreachable;
    uint32_t height; /* stack height below the block's params */
    uint32_t nparams, nresults;
    const mod_valtype *params, *results;
} vctl;

struct cmp_validator {
    uint8_t *stack; /* value types */
    uint32_t sp, scap;
    vctl *ctls;
    uint32_t nctl, ccap;
};

cmp_validator *cmp_validator_new(void) { return calloc(1, sizeof(cmp_validator)); }

void cmp_validator_free(cmp_validator *v) {
    if (!v) return;
    free(v->stack);
    free(v->ctls);
    free(v);
}

/* Numeric instructions by opcode (0x100 + n: 0xFC n): arity, result and
   operand type, from the one opcode table; plus the operations the
   compiler translates to nothing (i64.extend_i32_u, reinterpretations). */
typedef struct vnum {
    uint8_t arity, rt, at;
} vnum;

static const vnum vnum_table[CMP_NUM_TABLE_SIZE] = {
#define CMP_X_NUM(name, code, cls, shape, rt, at, n, of, fx)                                 \
    CMP_WHEN(cls, NUM)([CMP_NUM_INDEX(code)] = {CMP_SHAPE_GET(0, shape) - 1, CMP_TY_##rt, CMP_TY_##at},)
    CMP_OPS(CMP_X_NUM)
#undef CMP_X_NUM
    [0xAD] = {1, WEFT_I64, WEFT_I32}, [0xBC] = {1, WEFT_I32, WEFT_F32},
    [0xBD] = {1, WEFT_I64, WEFT_F64}, [0xBE] = {1, WEFT_F32, WEFT_I32},
    [0xBF] = {1, WEFT_F64, WEFT_I64},
};

/* Loads and stores (0x28..0x3E): access size and value type. */
typedef struct vmem {
    uint8_t bytes, type;
} vmem;

static const vmem vmem_table[0x40] = {
#define CMP_X(code, t, op) [code] = {CMP_BYTES_##op, WEFT_##t},
    CMP_WASM_MEMORY(CMP_X)
#undef CMP_X
};

static bool v_valtype(uint8_t t) {
    return t == WEFT_I32 || t == WEFT_I64 || t == WEFT_F32 || t == WEFT_F64 || t == WEFT_FUNCREF ||
           t == WEFT_EXTERNREF;
}

/* LEB128 with the one-byte case inline; the rest as the decoder reads it,
   so this pass is exactly as strict about the binary form. */
static inline bool v_u32(base_reader *r, uint32_t *out) {
    if (BASE_LIKELY(r->p < r->end && *r->p < 0x80)) {
        *out = *r->p++;
        return true;
    }
    return base_read_u32(r, out);
}

static inline bool v_skip_sleb(base_reader *r, unsigned bits) {
    if (BASE_LIKELY(r->p < r->end && *r->p < 0x80)) {
        r->p++;
        return true;
    }
    int64_t v;
    return base_read_sleb(r, bits, &v);
}

static bool v_grow_stack(cmp_validator *v, uint32_t n) {
    if (v->sp + (uint64_t)n <= v->scap) return true;
    uint64_t cap = v->scap ? v->scap : 256;
    while (cap < v->sp + (uint64_t)n) cap *= 2;
    if (cap > UINT32_MAX) return false;
    uint8_t *s = realloc(v->stack, cap);
    if (!s) return false;
    v->stack = s;
    v->scap = (uint32_t)cap;
    return true;
}

static inline bool v_push(cmp_validator *v, uint8_t t) {
    if (BASE_UNLIKELY(v->sp == v->scap) && !v_grow_stack(v, 1)) return false;
    v->stack[v->sp++] = t;
    return true;
}

static bool v_push_n(cmp_validator *v, uint32_t n, const mod_valtype *types) {
    if (!v_grow_stack(v, n)) return false;
    /* One byte per type: modules with more than that (m->typed_refs) are
       left to the compiler. */
    for (uint32_t i = 0; i < n; i++) v->stack[v->sp + i] = (uint8_t)types[i];
    v->sp += n;
    return true;
}

/* Pops a value of type `expect` (V_UNKNOWN: any); false on a mismatch or
   an empty stack outside unreachable code. */
static inline bool v_pop(cmp_validator *v, uint8_t expect) {
    const vctl *f = &v->ctls[v->nctl - 1];
    if (v->sp == f->height) return f->unreachable;
    uint8_t t = v->stack[--v->sp];
    return t == expect || t == V_UNKNOWN || expect == V_UNKNOWN;
}

/* Pops any value, giving its type (V_UNKNOWN below an unreachable). */
static inline bool v_pop_any(cmp_validator *v, uint8_t *t) {
    const vctl *f = &v->ctls[v->nctl - 1];
    if (v->sp == f->height) {
        *t = V_UNKNOWN;
        return f->unreachable;
    }
    *t = v->stack[--v->sp];
    return true;
}

static bool v_pop_n(cmp_validator *v, uint32_t n, const mod_valtype *types) {
    for (uint32_t i = n; i-- > 0;)
        if (!v_pop(v, types[i])) return false;
    return true;
}

static void v_unreachable(cmp_validator *v) {
    vctl *f = &v->ctls[v->nctl - 1];
    v->sp = f->height;
    f->unreachable = true;
}

/* Label types of a branch target (§3.3.8: a loop's label takes its params). */
static inline void v_label(const vctl *f, uint32_t *n, const mod_valtype **types) {
    if (f->kind == CTL_LOOP) {
        *n = f->nparams;
        *types = f->params;
    } else {
        *n = f->nresults;
        *types = f->results;
    }
}

/* One-element result lists for single-value block types. */
static const mod_valtype v_single[256] = {
    [WEFT_I32] = WEFT_I32, [WEFT_I64] = WEFT_I64, [WEFT_F32] = WEFT_F32, [WEFT_F64] = WEFT_F64,
    [WEFT_FUNCREF] = WEFT_FUNCREF, [WEFT_EXTERNREF] = WEFT_EXTERNREF,
};

/* Block type (§5.4.1) and opening the block (§3.3.8). */
static bool v_open(cmp_validator *v, const mod_module *m, base_reader *r, uint8_t kind) {
    vctl f = {.kind = kind};
    if (r->p >= r->end) return false;
    uint8_t b = *r->p;
    if (b == 0x40) {
        r->p++;
    } else if (v_valtype(b)) {
        r->p++;
        f.nresults = 1;
        f.results = &v_single[b];
    } else {
        int64_t idx;
        if (!base_read_sleb(r, 33, &idx) || idx < 0 || (uint64_t)idx >= m->ntypes) return false;
        const mod_functype *ft = &m->types[idx];
        f.nparams = ft->nparams;
        f.params = ft->params;
        f.nresults = ft->nresults;
        f.results = ft->results;
    }
    if (kind == CTL_IF && !v_pop(v, WEFT_I32)) return false;
    if (!v_pop_n(v, f.nparams, f.params)) return false;
    f.height = v->sp;
    if (v->nctl == v->ccap) {
        uint32_t cap = v->ccap ? 2 * v->ccap : 64;
        vctl *c = realloc(v->ctls, cap * sizeof *c);
        if (!c) return false;
        v->ctls = c;
        v->ccap = cap;
    }
    v->ctls[v->nctl++] = f;
    return v_push_n(v, f.nparams, f.params);
}

/* The end of a block's arm: exactly its results on the stack. */
static bool v_close_arm(cmp_validator *v) {
    const vctl *f = &v->ctls[v->nctl - 1];
    return v_pop_n(v, f->nresults, f->results) && v->sp == f->height;
}

/* memarg (§5.4.6) of an access of `bytes`: alignment at most natural. */
static bool v_memarg(const mod_module *m, base_reader *r, uint32_t bytes) {
    uint32_t align, offset;
    if (!v_u32(r, &align) || !v_u32(r, &offset)) return false;
    return m->nmems > 0 && align < 32 && (1u << align) <= bytes;
}

/* A call's signature: params popped, results pushed. */
static bool v_call(cmp_validator *v, const mod_functype *ft) {
    return v_pop_n(v, ft->nparams, ft->params) && v_push_n(v, ft->nresults, ft->results);
}

static bool v_zero_byte(base_reader *r) {
    if (r->p >= r->end || *r->p != 0) return false;
    r->p++;
    return true;
}

/* br_table (§3.3.8): every label takes the default's arity, and the
   operands must match each label's types (checked without popping, as
   the spec's push_vals(pop_vals(...)) does). */
static bool v_br_table(cmp_validator *v, base_reader *r) {
    uint32_t count, depth, dflt = 0;
    if (!v_u32(r, &count) || count > (uint32_t)(r->end - r->p)) return false;
    base_reader first = *r;
    for (uint32_t i = 0; i <= count; i++) {
        if (!v_u32(r, &depth) || depth >= v->nctl) return false;
        dflt = depth;
    }
    if (!v_pop(v, WEFT_I32)) return false;
    uint32_t arity;
    const mod_valtype *types;
    v_label(&v->ctls[v->nctl - 1 - dflt], &arity, &types);
    for (uint32_t i = 0; i <= count; i++) {
        v_u32(&first, &depth); /* read once above: cannot fail */
        uint32_t n;
        v_label(&v->ctls[v->nctl - 1 - depth], &n, &types);
        if (n != arity) return false;
        uint32_t sp = v->sp;
        if (!v_pop_n(v, n, types)) return false;
        v->sp = sp;
    }
    v_unreachable(v);
    return true;
}

bool cmp_validate_fast(cmp_validator *v, const mod_module *m, uint32_t own_index) {
    const mod_func *fn = &m->funcs[own_index];
    const mod_functype *type = &m->types[fn->type_index];
    uint32_t nparams = type->nparams;
    uint64_t nlocals = (uint64_t)nparams + fn->nlocals;
    base_reader r = mod_body_reader(m, fn);
    /* A 64-bit memory 0 (memory64): its i64 addresses are the compiler's
       to check; this validator vouches for no body of such a module.
       Memarg flag bit 6 (another memory) is not sure either (v_memarg). */
    if (m->nmems > 0 && m->mems[0].is64) return false;
    /* Typed references need more than a byte per type. */
    if (m->typed_refs) return false;
    v->sp = 0;
    v->nctl = 0;
    if (!v->ccap) {
        v->ctls = malloc(64 * sizeof *v->ctls);
        if (!v->ctls) return false;
        v->ccap = 64;
    }
    v->ctls[v->nctl++] = (vctl){.kind = CTL_FUNC, .nresults = type->nresults, .results = type->results};
    uint32_t idx, idx2;
    uint8_t t, t2;
    for (;;) {
        if (BASE_UNLIKELY(r.p >= r.end)) return false;
        uint8_t op = *r.p++;
        if (op >= 0x45 && op <= 0xC4) { /* numeric (§3.3.1) */
            const vnum *n = &vnum_table[op];
            if (!n->arity || !v_pop(v, n->at)) return false;
            if (n->arity == 2 && !v_pop(v, n->at)) return false;
            if (!v_push(v, n->rt)) return false;
            continue;
        }
        switch (op) {
        case 0x00: /* unreachable */
            v_unreachable(v);
            break;
        case 0x01: /* nop */
            break;
        case 0x02: /* block */
            if (!v_open(v, m, &r, CTL_BLOCK)) return false;
            break;
        case 0x03: /* loop */
            if (!v_open(v, m, &r, CTL_LOOP)) return false;
            break;
        case 0x04: /* if */
            if (!v_open(v, m, &r, CTL_IF)) return false;
            break;
        case 0x05: { /* else */
            vctl *f = &v->ctls[v->nctl - 1];
            if (f->kind != CTL_IF || !v_close_arm(v)) return false;
            f->kind = CTL_ELSE;
            f->unreachable = false;
            if (!v_push_n(v, f->nparams, f->params)) return false;
            break;
        }
        case 0x0B: { /* end */
            vctl f = v->ctls[v->nctl - 1];
            if (!v_close_arm(v)) return false;
            /* An if without else passes its params through (§3.3.8). */
            if (f.kind == CTL_IF &&
                (f.nparams != f.nresults || (f.nparams && memcmp(f.params, f.results, f.nparams))))
                return false;
            v->nctl--;
            if (f.kind == CTL_FUNC) return r.p == r.end;
            if (!v_push_n(v, f.nresults, f.results)) return false;
            break;
        }
        case 0x0C: { /* br */
            uint32_t n;
            const mod_valtype *types;
            if (!v_u32(&r, &idx) || idx >= v->nctl) return false;
            v_label(&v->ctls[v->nctl - 1 - idx], &n, &types);
            if (!v_pop_n(v, n, types)) return false;
            v_unreachable(v);
            break;
        }
        case 0x0D: { /* br_if */
            uint32_t n;
            const mod_valtype *types;
            if (!v_u32(&r, &idx) || idx >= v->nctl || !v_pop(v, WEFT_I32)) return false;
            v_label(&v->ctls[v->nctl - 1 - idx], &n, &types);
            if (!v_pop_n(v, n, types) || !v_push_n(v, n, types)) return false;
            break;
        }
        case 0x0E: /* br_table */
            if (!v_br_table(v, &r)) return false;
            break;
        case 0x0F: /* return */
            if (!v_pop_n(v, v->ctls[0].nresults, v->ctls[0].results)) return false;
            v_unreachable(v);
            break;
        case 0x10: /* call */
            if (!v_u32(&r, &idx) || idx >= m->nfuncs || !v_call(v, mod_func_type(m, idx))) return false;
            break;
        case 0x11: /* call_indirect typeidx tableidx */
            if (!v_u32(&r, &idx) || !v_u32(&r, &idx2)) return false;
            if (idx2 >= m->ntables || m->tables[idx2].elem != WEFT_FUNCREF || idx >= m->ntypes) return false;
            if (m->tables[idx2].limits.is64) return false; /* an i64 index: the compiler's */
            if (!v_pop(v, WEFT_I32) || !v_call(v, &m->types[idx])) return false;
            break;
        case 0x1A: /* drop */
            if (!v_pop_any(v, &t)) return false;
            break;
        case 0x1B: /* select: numeric operands of one type (§3.3.4) */
            if (!v_pop(v, WEFT_I32) || !v_pop_any(v, &t) || !v_pop_any(v, &t2)) return false;
            if (t == WEFT_FUNCREF || t == WEFT_EXTERNREF || t2 == WEFT_FUNCREF || t2 == WEFT_EXTERNREF) return false;
            if (t == WEFT_V128 || t2 == WEFT_V128) return false;
            if (t != t2 && t != V_UNKNOWN && t2 != V_UNKNOWN) return false;
            if (!v_push(v, t == V_UNKNOWN ? t2 : t)) return false;
            break;
        case 0x1C: /* select t */
            if (!v_u32(&r, &idx) || idx != 1 || r.p >= r.end || !v_valtype(*r.p)) return false;
            t = *r.p++;
            if (!v_pop(v, WEFT_I32) || !v_pop(v, t) || !v_pop(v, t) || !v_push(v, t)) return false;
            break;
        case 0x20: /* local.get */
            if (!v_u32(&r, &idx) || idx >= nlocals) return false;
            if (!v_push(v, idx < nparams ? type->params[idx] : fn->local_types[idx - nparams])) return false;
            break;
        case 0x21: /* local.set */
        case 0x22: /* local.tee */
            if (!v_u32(&r, &idx) || idx >= nlocals) return false;
            t = idx < nparams ? type->params[idx] : fn->local_types[idx - nparams];
            if (!v_pop(v, t) || (op == 0x22 && !v_push(v, t))) return false;
            break;
        case 0x23: /* global.get */
            if (!v_u32(&r, &idx) || idx >= m->nglobals || !v_push(v, m->global_types[idx].type)) return false;
            break;
        case 0x24: /* global.set */
            if (!v_u32(&r, &idx) || idx >= m->nglobals || !m->global_types[idx].mut) return false;
            if (!v_pop(v, m->global_types[idx].type)) return false;
            break;
        case 0x3F: /* memory.size 0x00 */
            if (!v_zero_byte(&r) || m->nmems == 0 || !v_push(v, WEFT_I32)) return false;
            break;
        case 0x40: /* memory.grow 0x00 */
            if (!v_zero_byte(&r) || m->nmems == 0 || !v_pop(v, WEFT_I32) || !v_push(v, WEFT_I32)) return false;
            break;
        case 0x41: /* i32.const */
            if (!v_skip_sleb(&r, 32) || !v_push(v, WEFT_I32)) return false;
            break;
        case 0x42: /* i64.const */
            if (!v_skip_sleb(&r, 64) || !v_push(v, WEFT_I64)) return false;
            break;
        case 0x43: /* f32.const */
            if (r.end - r.p < 4 || !v_push(v, WEFT_F32)) return false;
            r.p += 4;
            break;
        case 0x44: /* f64.const */
            if (r.end - r.p < 8 || !v_push(v, WEFT_F64)) return false;
            r.p += 8;
            break;
        case 0xD0: /* ref.null t */
            if (r.p >= r.end || (*r.p != WEFT_FUNCREF && *r.p != WEFT_EXTERNREF)) return false;
            if (!v_push(v, *r.p++)) return false;
            break;
        case 0xD1: /* ref.is_null */
            if (!v_pop_any(v, &t) || !(t == WEFT_FUNCREF || t == WEFT_EXTERNREF || t == V_UNKNOWN)) return false;
            if (!v_push(v, WEFT_I32)) return false;
            break;
        case 0xD2: /* ref.func x: x in C.refs (§3.3.2) */
            if (!v_u32(&r, &idx) || idx >= m->nfuncs || !m->func_declared || !m->func_declared[idx]) return false;
            if (!v_push(v, WEFT_FUNCREF)) return false;
            break;
        case 0xFC: {
            if (!v_u32(&r, &idx)) return false;
            if (idx <= 7) { /* saturating truncations */
                const vnum *n = &vnum_table[0x100 + idx];
                if (!v_pop(v, n->at) || !v_push(v, n->rt)) return false;
                break;
            }
            /* memory.copy 0x00 0x00, memory.fill 0x00 (§3.3.7) */
            if (idx != 10 && idx != 11) return false;
            if (!v_zero_byte(&r) || (idx == 10 && !v_zero_byte(&r)) || m->nmems == 0) return false;
            if (!v_pop(v, WEFT_I32) || !v_pop(v, WEFT_I32) || !v_pop(v, WEFT_I32)) return false;
            break;
        }
        default:
            if (op >= 0x28 && op <= 0x3E) { /* loads and stores (§3.3.7) */
                const vmem *a = &vmem_table[op];
                if (!v_memarg(m, &r, a->bytes)) return false;
                if (op <= 0x35) {
                    if (!v_pop(v, WEFT_I32) || !v_push(v, a->type)) return false;
                } else if (!v_pop(v, a->type) || !v_pop(v, WEFT_I32)) {
                    return false;
                }
                break;
            }
            return false; /* SIMD, atomics, tables, segments, or not an opcode */
        }
    }
}

/* ------------------------------------------------------------------------
 * Every body, on two cores for a big module
 * ------------------------------------------------------------------------ */

/* Bodies above this many bytes in all are split between this thread and
   one more: about 5 ms of validation at the measured ~370 MB/s, well above
   the ~0.1 ms a thread costs to start and join. */
#define CMP_VALIDATE_SPLIT_BYTES (2u << 20)

typedef struct vrange {
    const mod_module *m;
    uint32_t from, to;
    uint8_t *ok;
    bool nomem;
} vrange;

static void validate_range(vrange *r) {
    cmp_validator *v = cmp_validator_new();
    if (!v) {
        r->nomem = true;
        return;
    }
    for (uint32_t i = r->from; i < r->to; i++) r->ok[i] = cmp_validate_fast(v, r->m, i);
    cmp_validator_free(v);
}

static void *validate_thread(void *arg) {
    validate_range(arg);
    return NULL;
}

bool cmp_validate_all(const mod_module *m, uint8_t *ok) {
    uint32_t nown = m->nfuncs - m->nfunc_imports;
    uint64_t total = 0;
    for (uint32_t i = 0; i < nown; i++) total += m->funcs[i].body_len;
    vrange head = {m, 0, nown, ok, false}, tail = {m, nown, nown, ok, false};
    pthread_t t;
    bool threaded = false;
    if (total > CMP_VALIDATE_SPLIT_BYTES && sysconf(_SC_NPROCESSORS_ONLN) > 1) {
        /* Split by bytes, not by count: sizes vary by orders of magnitude. */
        uint64_t half = 0;
        uint32_t mid = 0;
        while (mid < nown && half < total / 2) half += m->funcs[mid++].body_len;
        head.to = tail.from = mid;
        threaded = pthread_create(&t, NULL, validate_thread, &tail) == 0;
        if (!threaded) head.to = nown; /* no thread: all of it here */
    }
    validate_range(&head);
    if (threaded) pthread_join(t, NULL);
    return !head.nomem && !tail.nomem;
}
