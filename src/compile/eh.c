/*
 * eh.c — exception handling in the one-pass validator and translator
 * (Wasm 3.0 §3.3.8 control instructions: try_table, throw, throw_ref; and
 * the legacy form deployed toolchains still emit: try, catch, catch_all,
 * rethrow, delegate).
 *
 * Nothing runs for a handler until something throws. A try's catch
 * clauses become entries of the function's handler table (code.h
 * cmp_handler): the code range they cover, where to continue, which tag,
 * and the slots the payload and the exnref go to. The unwinder
 * (exec/throw.c) looks the throwing word up in the table, then each
 * caller's call word, innermost first.
 *
 * try_table: each catch clause branches to a label of the enclosing
 * context with the payload (catch, catch_ref: and the exnref). Its
 * landing pad is one BR to that label (RETURN for the function's), laid
 * out before the body behind a BR that skips them; the unwinder writes
 * the values to the label's home slots, where a branch would have moved
 * them, and jumps to the pad. The range is the body, closed at `end`.
 *
 * The legacy try: the body ends at the first catch, catch_all or
 * delegate; each catch arm starts with the tag's payload in the try's
 * home slots (as a block's params) and the caught exception kept in a
 * temp slot of its own, which `rethrow` throws again. `delegate l` is an
 * entry that makes the unwinder skip the handlers nested deeper than
 * label l (those of the try blocks between), so the exception goes to
 * label l's try, or out of the function for its label.
 */
#include "compiler.h"

/* Types a catch clause hands its label (§3.3.8.x try_table): the tag's
   params for catch and catch_ref, then an exnref for the _ref forms. */
static weft_status check_clause(compiler *c, uint8_t kind, uint32_t tag, ctl *label) {
    const mod_functype *ft = kind < 2 ? mod_tag_type(c->m, tag) : NULL;
    uint32_t np = ft ? ft->nparams : 0, want = np + (kind == 1 || kind == 3);
    uint32_t n;
    const mod_valtype *types;
    cmp_label_types(label, &n, &types);
    bool ok = n == want;
    for (uint32_t i = 0; ok && i < np; i++) ok = mod_valtype_sub(c->m, ft->params[i], types[i]);
    if (ok && want > np) ok = types[np] == WEFT_EXNREF;
    return ok ? WEFT_OK : cmp_fail(c, WEFT_ERR_INVALID, "type mismatch in catch clause");
}

static weft_status need_tag(compiler *c, uint32_t tag) {
    return tag < c->m->ntags ? WEFT_OK : cmp_fail(c, WEFT_ERR_INVALID, "unknown tag %u", tag);
}

static void add_handler(compiler *c, const cmp_handler *h) {
    if (!BASE_VEC_PUSH(c->handlers, *h)) c->oom = true;
}

/* Slots the payload of `tag` takes. */
static uint32_t payload_slots(const compiler *c, uint32_t tag) {
    const mod_functype *ft = mod_tag_type(c->m, tag);
    uint32_t w = 0;
    for (uint32_t i = 0; i < ft->nparams; i++) w += cmp_slot_width(ft->params[i]);
    return w;
}

/* A position only the unwinder jumps to: nothing before it may be merged
   with what follows. */
static void landing(compiler *c) {
    c->last_target = (uint32_t)c->code.len;
    c->producer_end = NO_POS;
    c->copy_end = NO_POS;
}

typedef struct clause {
    uint8_t kind;   /* 0 catch, 1 catch_ref, 2 catch_all, 3 catch_all_ref */
    uint32_t tag;
    uint32_t label; /* ctl index */
} clause;

/* try_table bt catch* instr* end (Wasm 3.0 §3.3.8.x, binary §5.4.1). */
static weft_status compile_try_table(compiler *c) {
    ctl nf;
    memset(&nf, 0, sizeof nf);
    nf.kind = CTL_TRY_TABLE;
    TRY(cmp_read_blocktype(c, &nf));
    uint32_t n;
    READ_U32(&n);
    if (n > (size_t)(c->r.end - c->r.p) / 2) return cmp_fail(c, WEFT_ERR_MALFORMED, "unexpected end");
    clause small[8];
    clause *cl = n <= 8 ? small : malloc(n * sizeof *cl);
    if (!cl) return cmp_fail(c, WEFT_ERR_NOMEM, "out of memory");
    weft_status st = WEFT_OK;
    for (uint32_t i = 0; i < n && st == WEFT_OK; i++) {
        uint32_t depth;
        cl[i].tag = CMP_CATCH_ALL;
        if (!base_read_u8(&c->r, &cl[i].kind)) { st = cmp_read_fail(c); break; }
        if (cl[i].kind > 3) { st = cmp_fail(c, WEFT_ERR_MALFORMED, "malformed catch clause"); break; }
        if (cl[i].kind < 2 && !base_read_u32(&c->r, &cl[i].tag)) { st = cmp_read_fail(c); break; }
        if (!base_read_u32(&c->r, &depth)) { st = cmp_read_fail(c); break; }
        if (cl[i].kind < 2 && (st = need_tag(c, cl[i].tag)) != WEFT_OK) break;
        if (depth >= c->ctls.len) { st = cmp_fail(c, WEFT_ERR_INVALID, "unknown label %u", depth); break; }
        cl[i].label = (uint32_t)c->ctls.len - 1 - depth;
        st = check_clause(c, cl[i].kind, cl[i].tag, &c->ctls.data[cl[i].label]);
    }
    if (st == WEFT_OK) st = cmp_open_block(c, &nf);
    if (st != WEFT_OK) goto out;
    ctl *f = cmp_top_ctl(c);
    uint32_t depth = (uint32_t)c->ctls.len - 1;
    f->first_handler = (uint32_t)c->handlers.len;
    f->nhandlers = n;
    if (n) {
        cmp_emit_op(c, CMP_BR);
        uint32_t skip = (uint32_t)c->code.len;
        cmp_emit(c, 0);
        for (uint32_t i = 0; i < n; i++) {
            ctl *l = &c->ctls.data[cl[i].label];
            uint32_t dst = l->kind == CTL_FUNC ? 0 : cmp_home(c, l->height);
            cmp_handler h = {.target = (uint32_t)c->code.len, .tag = cl[i].tag, .dst = CMP_NO_SLOT,
                             .exn_slot = CMP_NO_SLOT, .depth = depth, .kind = CMP_HANDLER_CATCH};
            if (cl[i].kind < 2) h.dst = dst;
            if (cl[i].kind == 1) h.exn_slot = dst + payload_slots(c, cl[i].tag);
            if (cl[i].kind == 3) h.exn_slot = dst;
            if (l->kind == CTL_FUNC) {
                cmp_emit_op(c, CMP_RETURN);
            } else {
                cmp_emit_op(c, CMP_BR);
                cmp_emit_target(c, l);
            }
            add_handler(c, &h);
        }
        cmp_set_target(c, skip, (uint32_t)c->code.len);
    }
    f = cmp_top_ctl(c);
    f->body_start = (uint32_t)c->code.len;
    landing(c);
out:
    if (cl != small) free(cl);
    return st;
}

void cmp_eh_end(compiler *c, ctl *f) {
    for (uint32_t i = 0; i < f->nhandlers && f->first_handler + i < c->handlers.len; i++) {
        cmp_handler *h = &c->handlers.data[f->first_handler + i];
        h->start = f->body_start;
        h->end = (uint32_t)c->code.len;
    }
}

/* The legacy catch x / catch_all: ends the try's body (or the previous
   arm) like `else`, and opens an arm the unwinder enters. */
static weft_status compile_catch(compiler *c, bool all) {
    ctl *f = cmp_top_ctl(c);
    if (f->kind != CTL_TRY && f->kind != CTL_CATCH)
        return cmp_fail(c, WEFT_ERR_MALFORMED, all ? "catch_all without try" : "catch without try");
    uint32_t tag = CMP_CATCH_ALL;
    if (!all) {
        READ_U32(&tag);
        TRY(need_tag(c, tag));
    }
    TRY(cmp_close_arm(c));
    if (!f->unreachable) {
        cmp_emit_op(c, CMP_BR);
        cmp_emit_target(c, f);
    }
    if (f->kind == CTL_TRY) {
        f->body_end = (uint32_t)c->code.len;
        /* The caught exception's slot, below the operand stack (as an if's
           saved params: compile_function compiles again with room). */
        f->exn_slot = c->nlocal_slots + cmp_const_area(c) + c->ntemps;
        c->ntemps += 1;
    }
    cmp_handler h = {.start = f->body_start, .end = f->body_end, .target = (uint32_t)c->code.len,
                     .tag = tag, .dst = all ? CMP_NO_SLOT : cmp_home(c, f->height),
                     .exn_slot = f->exn_slot, .depth = (uint32_t)c->ctls.len - 1,
                     .kind = CMP_HANDLER_CATCH};
    add_handler(c, &h);
    f->kind = all ? CTL_CATCH_ALL : CTL_CATCH;
    f->unreachable = false;
    c->stack.len = f->height;
    if (!all) {
        const mod_functype *ft = mod_tag_type(c->m, tag);
        for (uint32_t i = 0; i < ft->nparams; i++) cmp_push(c, ft->params[i]);
    }
    landing(c);
    return WEFT_OK;
}

/* The legacy delegate l: ends the try (which has no catch) as `end`
   does, and hands what its body throws to label l, counted from outside
   the try. */
static weft_status compile_delegate(compiler *c) {
    ctl *f = cmp_top_ctl(c);
    if (f->kind != CTL_TRY) return cmp_fail(c, WEFT_ERR_MALFORMED, "delegate without try");
    uint32_t depth;
    READ_U32(&depth);
    if (depth >= c->ctls.len - 1) return cmp_fail(c, WEFT_ERR_INVALID, "unknown label %u", depth);
    cmp_handler h = {.start = f->body_start, .end = (uint32_t)c->code.len, .tag = CMP_CATCH_ALL,
                     .dst = CMP_NO_SLOT, .exn_slot = CMP_NO_SLOT,
                     .depth = (uint32_t)c->ctls.len - 1, .kind = CMP_HANDLER_DELEGATE,
                     .delegate_to = (uint32_t)c->ctls.len - 2 - depth};
    add_handler(c, &h);
    TRY(cmp_close_arm(c));
    f = cmp_top_ctl(c);
    cmp_patch_fixups(c, f, (uint32_t)c->code.len);
    uint32_t height = f->height, n = f->nresults;
    const mod_valtype *res = f->results;
    c->ctls.len--;
    c->stack.len = height;
    for (uint32_t i = 0; i < n; i++) cmp_push(c, res[i]);
    landing(c);
    return WEFT_OK;
}

weft_status cmp_compile_eh(compiler *c, uint8_t opcode) {
    uint32_t idx;
    centry a;
    switch (opcode) {
    case 0x1F: /* try_table */
        return compile_try_table(c);
    case 0x06: { /* try bt (legacy) */
        ctl nf;
        memset(&nf, 0, sizeof nf);
        nf.kind = CTL_TRY;
        TRY(cmp_read_blocktype(c, &nf));
        TRY(cmp_open_block(c, &nf));
        ctl *f = cmp_top_ctl(c);
        f->exn_slot = CMP_NO_SLOT;
        f->body_start = (uint32_t)c->code.len;
        landing(c);
        return WEFT_OK;
    }
    case 0x07: /* catch x (legacy) */
        return compile_catch(c, false);
    case 0x19: /* catch_all (legacy) */
        return compile_catch(c, true);
    case 0x18: /* delegate l (legacy) */
        return compile_delegate(c);
    case 0x08: { /* throw x: the payload in consecutive home slots */
        READ_U32(&idx);
        TRY(need_tag(c, idx));
        const mod_functype *ft = mod_tag_type(c->m, idx);
        TRY(cmp_pop_types(c, ft->nparams, ft->params));
        cmp_emit_op(c, CMP_THROW);
        cmp_emit(c, idx);
        cmp_emit(c, cmp_home(c, c->stack.len));
        cmp_set_unreachable(c);
        return WEFT_OK;
    }
    case 0x0A: /* throw_ref */
        TRY(cmp_pop(c, WEFT_EXNREF, &a));
        if (a.slot == NO_SLOT) {
            cmp_emit_op(c, CMP_UNREACHABLE); /* unreachable code: nothing to throw */
        } else {
            cmp_emit_op(c, CMP_THROW_REF);
            cmp_emit_src(c, a.slot);
        }
        cmp_set_unreachable(c);
        return WEFT_OK;
    case 0x09: { /* rethrow l (legacy): the exception of catch arm l */
        ctl *l;
        TRY(cmp_read_label(c, &l));
        if (l->kind != CTL_CATCH && l->kind != CTL_CATCH_ALL)
            return cmp_fail(c, WEFT_ERR_INVALID, "invalid rethrow label");
        cmp_emit_op(c, CMP_THROW_REF);
        cmp_emit(c, l->exn_slot);
        cmp_set_unreachable(c);
        return WEFT_OK;
    }
    }
    return cmp_fail(c, WEFT_ERR_MALFORMED, "illegal opcode 0x%02x", opcode);
}

typedef struct eh_key {
    uint32_t depth, index;
} eh_key;

static int eh_key_order(const void *a, const void *b) {
    const eh_key *x = a, *y = b;
    if (x->depth != y->depth) return x->depth > y->depth ? -1 : 1;
    return x->index < y->index ? -1 : x->index > y->index;
}

/* Innermost first: the ranges containing one code word are nested, so
   ordering by depth (deepest first, a try's clauses in their order) puts
   every handler of an inner try before those of the tries around it. */
bool cmp_eh_finish(compiler *c, cmp_func *cf) {
    cf->handlers = NULL;
    cf->nhandlers = 0;
    uint32_t n = (uint32_t)c->handlers.len;
    if (!n) return true;
    eh_key *keys = malloc(n * sizeof *keys);
    cf->handlers = malloc(n * sizeof *cf->handlers);
    if (!keys || !cf->handlers) {
        free(keys);
        free(cf->handlers);
        cf->handlers = NULL;
        return false;
    }
    for (uint32_t i = 0; i < n; i++) keys[i] = (eh_key){c->handlers.data[i].depth, i};
    qsort(keys, n, sizeof *keys, eh_key_order);
    for (uint32_t i = 0; i < n; i++) cf->handlers[i] = c->handlers.data[keys[i].index];
    free(keys);
    cf->nhandlers = n;
    return true;
}
