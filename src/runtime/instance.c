/*
 * instance.c — instantiation (Wasm 2.0 §4.5 "Modules": external typing,
 * import matching, allocation, instantiation) and export lookup.
 *
 * weft_instance_new follows the spec's steps in order:
 *   1. match every import against the module's import types (§4.5.3);
 *   2. allocate the functions, tables, memories and globals, evaluating the
 *      globals' initialisers in order, and the element and data segment
 *      instances (§4.5.4 allocation);
 *   3. hand the new objects to the store — from here on effects are visible
 *      (imported tables and memories may be written), so a failure leaves
 *      the half-made instance in the store, as the spec leaves it in its
 *      store, but does not return it;
 *   4. for each element segment in module order: an active one is
 *      table.init then elem.drop, a declarative one is elem.drop; then for
 *      each data segment: an active one is memory.init then data.drop
 *      (§4.5.4 instantiation, steps 14-15 of Wasm 2.0);
 *   5. the start function.
 */
#include "internal.h"

#include <stdio.h>

/* ---- constant expressions (Wasm 3.0 §3.4.10 validation, §4.5.x
   evaluation: a constant expression is executed like a function body in
   a frame of the instance, and leaves one value) ---- */

/* One instruction of a MOD_CONSTEXPR_SEQ: its opcode and immediate.
   Reads the validated bytes of `m` at *p. */
static uint64_t rt_const_read_leb(const uint8_t **p, bool is_signed, unsigned bits) {
    uint64_t x = 0;
    unsigned shift = 0;
    uint8_t b;
    do {
        b = *(*p)++;
        if (shift < 64) x |= (uint64_t)(b & 0x7F) << shift;
        shift += 7;
    } while (b & 0x80);
    if (is_signed && shift < 64 && (b & 0x40)) x |= ~(uint64_t)0 << shift;
    if (bits == 32) x = (uint32_t)x;
    return x;
}

/* An extended constant expression: integer arithmetic over i32/i64.const
   and global.get (validated: every operand has the result's type, the
   stack never passes e->max_depth). i32 values are kept zero-extended. */
static weft_status rt_eval_seq(const weft_instance *inst, const mod_constexpr *e,
                               uint64_t *out, weft_error *err) {
    const uint8_t *p = inst->module->bytes + e->value;
    const uint8_t *end = p + e->len;
    bool wide = e->type == WEFT_I64;
    uint64_t small[16], *stack = small;
    uint32_t h = 0;
    if (e->max_depth > 16) {
        stack = base_calloc(e->max_depth, sizeof *stack);
        if (!stack)
            return base_fail(err, WEFT_ERR_NOMEM, "out of memory evaluating a constant expression");
    }
    while (p < end) {
        uint8_t op = *p++;
        uint64_t a, b;
        switch (op) {
        case 0x41: stack[h++] = (uint32_t)rt_const_read_leb(&p, true, 32); break;
        case 0x42: stack[h++] = rt_const_read_leb(&p, true, 64); break;
        case 0x23: stack[h++] = inst->globals[rt_const_read_leb(&p, false, 32)]->value; break;
        case 0x6A: case 0x7C: /* add */
        case 0x6B: case 0x7D: /* sub */
        case 0x6C: case 0x7E: /* mul */
            b = stack[--h];
            a = stack[--h];
            if (op == 0x6A || op == 0x7C) a += b;
            else if (op == 0x6B || op == 0x7D) a -= b;
            else a *= b;
            stack[h++] = wide ? a : (uint32_t)a;
            break;
        case 0x0B: /* end */
            p = end;
            break;
        }
    }
    *out = stack[0];
    if (stack != small) free(stack);
    return WEFT_OK;
}

weft_status rt_eval_const(const weft_instance *inst, const mod_constexpr *e,
                          uint64_t *out, weft_error *err) {
    uint64_t x = 0; /* unreachable default for validated modules */
    switch (e->op) {
    case 0x41: /* i32.const */
    case 0x43: /* f32.const */
        x = (uint32_t)e->value;
        break;
    case 0x42: /* i64.const */
    case 0x44: /* f64.const */
        x = e->value;
        break;
    case 0xD0: /* ref.null */
        x = 0;
        break;
    case 0xD2: /* ref.func x */
        x = (uint64_t)(uintptr_t)inst->funcs[e->value];
        break;
    case 0x23: /* global.get x */
        x = inst->globals[e->value]->value;
        break;
    case MOD_CONSTEXPR_SEQ:
        return rt_eval_seq(inst, e, out, err);
    }
    *out = x;
    return WEFT_OK;
}

/* ---- external typing and matching (§4.5.1, §4.5.3) ---- */

weft_store *rt_extern_store(const weft_extern *ext) {
    switch (ext->kind) {
    case WEFT_EXTERN_FUNC: return ext->of.func ? ext->of.func->store : NULL;
    case WEFT_EXTERN_TABLE: return ext->of.table ? ext->of.table->store : NULL;
    case WEFT_EXTERN_MEMORY: return ext->of.memory ? ext->of.memory->store : NULL;
    case WEFT_EXTERN_GLOBAL: return ext->of.global ? ext->of.global->store : NULL;
    case WEFT_EXTERN_TAG: return ext->of.tag ? ext->of.tag->store : NULL;
    }
    return NULL;
}

/* §4.5.3 limits matching: {min n1, max m1?} matches {min n2, max m2?} iff
   n1 >= n2 and, when m2 is given, m1 is given and m1 <= m2. */
static bool rt_limits_match(weft_limits actual, weft_limits declared) {
    if (actual.min < declared.min) return false;
    if (!declared.has_max) return true;
    return actual.has_max && actual.max <= declared.max;
}

/* A type in the text format's words, for messages: "(func (param i32))",
   "(table 1 10 funcref)", "(memory 1 shared)", "(global (mut i32))". */
typedef struct rt_buf {
    char *p;
    size_t cap, len;
} rt_buf;

static void rt_put(rt_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void rt_put(rt_buf *b, const char *fmt, ...) {
    if (b->len >= b->cap) return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    if (n > 0) b->len += (size_t)n;
    if (b->len >= b->cap) b->len = b->cap - 1;
}

static void rt_put_functype(rt_buf *b, const mod_functype *t) {
    rt_put(b, "(func");
    if (t->nparams) {
        rt_put(b, " (param");
        for (uint32_t i = 0; i < t->nparams; i++) rt_put(b, " %s", weft_valtype_name(t->params[i]));
        rt_put(b, ")");
    }
    if (t->nresults) {
        rt_put(b, " (result");
        for (uint32_t i = 0; i < t->nresults; i++) rt_put(b, " %s", weft_valtype_name(t->results[i]));
        rt_put(b, ")");
    }
    rt_put(b, ")");
}

static void rt_put_limits(rt_buf *b, weft_limits l) {
    rt_put(b, " %llu", (unsigned long long)l.min);
    if (l.has_max) rt_put(b, " %llu", (unsigned long long)l.max);
}

static void rt_put_globaltype(rt_buf *b, weft_valtype t, bool mut) {
    if (mut) rt_put(b, "(global (mut %s))", weft_valtype_name(t));
    else rt_put(b, "(global %s)", weft_valtype_name(t));
}

/* The declared type of import `imp`. */
static void rt_put_import_type(rt_buf *b, const mod_module *m, const mod_import *imp) {
    switch (imp->kind) {
    case WEFT_EXTERN_FUNC: rt_put_functype(b, &m->types[imp->type_index]); break;
    case WEFT_EXTERN_TABLE:
        rt_put(b, "(table");
        rt_put_limits(b, imp->table.limits);
        rt_put(b, " %s)", weft_valtype_name(imp->table.elem));
        break;
    case WEFT_EXTERN_MEMORY:
        rt_put(b, "(memory%s", imp->memory.is64 ? " i64" : "");
        rt_put_limits(b, imp->memory);
        rt_put(b, "%s)", imp->memory.shared ? " shared" : "");
        break;
    case WEFT_EXTERN_GLOBAL: rt_put_globaltype(b, imp->global.type, imp->global.mut); break;
    case WEFT_EXTERN_TAG:
        rt_put(b, "(tag ");
        rt_put_functype(b, &m->types[imp->type_index]);
        rt_put(b, ")");
        break;
    }
}

/* The external type of `ext` (§4.5.1). */
static void rt_put_extern_type(rt_buf *b, const weft_extern *ext) {
    switch (ext->kind) {
    case WEFT_EXTERN_FUNC: rt_put_functype(b, ext->of.func->type); break;
    case WEFT_EXTERN_TABLE:
        rt_put(b, "(table");
        rt_put_limits(b, rt_table_current_limits(ext->of.table));
        rt_put(b, " %s)", weft_valtype_name(ext->of.table->elem));
        break;
    case WEFT_EXTERN_MEMORY: {
        weft_limits l = rt_memory_current_limits(ext->of.memory);
        rt_put(b, "(memory%s", l.is64 ? " i64" : "");
        rt_put_limits(b, l);
        rt_put(b, "%s)", l.shared ? " shared" : "");
        break;
    }
    case WEFT_EXTERN_GLOBAL:
        rt_put_globaltype(b, ext->of.global->type, ext->of.global->mut);
        break;
    case WEFT_EXTERN_TAG:
        rt_put(b, "(tag ");
        rt_put_functype(b, ext->of.tag->type);
        rt_put(b, ")");
        break;
    }
}

/* §4.5.3: does `ext` match the type of import `imp`? */
static bool rt_import_matches(const mod_module *m, const mod_import *imp, const weft_extern *ext) {
    if (ext->kind != imp->kind) return false;
    switch (imp->kind) {
    case WEFT_EXTERN_FUNC:
        return mod_functype_equal(&m->types[imp->type_index], ext->of.func->type);
    case WEFT_EXTERN_TABLE:
        /* Wasm 3.0 §4.5.3 (without GC): element types equivalent. */
        return mod_valtype_equiv(ext->of.table->owner, ext->of.table->full_type, m, imp->table.elem) &&
               rt_table_current_limits(ext->of.table).is64 == imp->table.limits.is64 &&
               rt_limits_match(rt_table_current_limits(ext->of.table), imp->table.limits);
    case WEFT_EXTERN_MEMORY: {
        weft_limits l = rt_memory_current_limits(ext->of.memory);
        return l.shared == imp->memory.shared && l.is64 == imp->memory.is64 &&
               rt_limits_match(l, imp->memory);
    }
    case WEFT_EXTERN_GLOBAL:
        /* Wasm 3.0 §4.5.3: a constant global's type matches a supertype,
           a mutable one only an equivalent type. */
        if (ext->of.global->mut != imp->global.mut) return false;
        if (imp->global.mut)
            return mod_valtype_equiv(ext->of.global->owner, ext->of.global->full_type, m, imp->global.type);
        return mod_valtype_match(ext->of.global->owner, ext->of.global->full_type, m, imp->global.type);
    case WEFT_EXTERN_TAG: /* Wasm 3.0 §4.5.3 tags: the types are equal */
        return mod_functype_equal(&m->types[imp->type_index], ext->of.tag->type);
    }
    return false;
}

static weft_status rt_check_imports(weft_store *store, const mod_module *m,
                                    const weft_extern *imports, weft_error *err) {
    for (uint32_t i = 0; i < m->nimports; i++) {
        const mod_import *imp = &m->imports[i];
        const weft_extern *ext = &imports[i];
        char mod[160], name[160];
        weft_store *owner = rt_extern_store(ext);
        bool lent = owner && owner->lends_memories && ext->kind == WEFT_EXTERN_MEMORY &&
                    ext->of.memory->limits.shared;
        if (!owner || (owner != store && !lent)) {
            rt_quote_name(mod, sizeof mod, imp->module, imp->module_len);
            rt_quote_name(name, sizeof name, imp->name, imp->name_len);
            return base_fail(err, WEFT_ERR_MISUSE,
                             owner ? "import %s.%s: the extern belongs to another store"
                                   : "import %s.%s: the extern is empty or of no known kind",
                             mod, name);
        }
        if (rt_import_matches(m, imp, ext)) continue;
        char want[160], got[160];
        rt_buf bw = {want, sizeof want, 0}, bg = {got, sizeof got, 0};
        want[0] = got[0] = 0;
        rt_put_import_type(&bw, m, imp);
        rt_put_extern_type(&bg, ext);
        rt_quote_name(mod, sizeof mod, imp->module, imp->module_len);
        rt_quote_name(name, sizeof name, imp->name, imp->name_len);
        return base_fail(err, WEFT_ERR_LINK,
                         "incompatible import type for %s.%s: expected %s, got %s",
                         mod, name, want, got);
    }
    return WEFT_OK;
}

/* ---- allocation ---- */

void rt_instance_destroy(weft_instance *inst) {
    if (!inst) return;
    const mod_module *m = inst->module;
    if (inst->elem_refs)
        for (uint32_t i = 0; i < m->nelems; i++) free(inst->elem_refs[i]);
    /* The arrays share the instance's allocation (rt_instance_alloc). */
    weft_module_release(inst->module);
    free(inst);
}

/* Frees an instance that never reached the store, with the tables and
   memories it made. */
static void rt_instance_discard(weft_instance *inst) {
    const mod_module *m = inst->module;
    if (inst->tables)
        for (uint32_t i = m->ntable_imports; i < m->ntables; i++) rt_table_destroy(inst->tables[i]);
    if (inst->mems)
        for (uint32_t i = m->nmem_imports; i < m->nmems; i++) rt_memory_destroy(inst->mems[i]);
    rt_instance_destroy(inst);
}

#define RT_NOMEM_GOTO(err, what, label)                                                     \
    do {                                                                                    \
        st = base_fail(err, WEFT_ERR_NOMEM, "out of memory allocating an instance's %s", \
                       what);                                                               \
        goto label;                                                                         \
    } while (0)

/* Allocation (§4.5.4 "Allocation"): everything the instance owns, nothing
   visible to anyone else yet. */
static weft_status rt_instance_alloc(weft_store *store, mod_module *m,
                                     const weft_extern *imports, weft_instance **out,
                                     weft_error *err) {
    weft_status st = WEFT_OK;
    uint32_t nown_funcs = m->nfuncs - m->nfunc_imports;
    uint32_t nown_globals = m->nglobals - m->nglobal_imports;

    /* The instance and all its arrays in one zeroed allocation: one call to
       the allocator per instance instead of ten, and one free. */
    size_t size = 0, at[11];
#define RT_CARVE(i, n, elem) (size = (size + 15) & ~(size_t)15, at[i] = size, size += (size_t)(n) * (elem))
    RT_CARVE(0, 1, sizeof(weft_instance));
    RT_CARVE(1, m->nfuncs, sizeof(weft_func *));
    RT_CARVE(2, nown_funcs, sizeof(weft_func));
    RT_CARVE(3, m->ntables, sizeof(weft_table *));
    RT_CARVE(4, m->nmems, sizeof(weft_memory *));
    RT_CARVE(5, m->nglobals, sizeof(weft_global *));
    RT_CARVE(6, nown_globals, sizeof(weft_global));
    RT_CARVE(7, m->nelems, sizeof(void **) + sizeof(uint32_t));
    RT_CARVE(8, m->ndatas, sizeof(uint32_t));
    RT_CARVE(9, m->ntags, sizeof(weft_tag *));
    RT_CARVE(10, m->ntags - m->ntag_imports, sizeof(weft_tag));
#undef RT_CARVE
    char *block = calloc(1, size);
    if (!block) return base_fail(err, WEFT_ERR_NOMEM, "out of memory allocating an instance");
    weft_instance *inst = (weft_instance *)block;
    inst->funcs = (weft_func **)(block + at[1]);
    inst->own_funcs = (weft_func *)(block + at[2]);
    inst->tables = (weft_table **)(block + at[3]);
    inst->mems = (weft_memory **)(block + at[4]);
    inst->globals = (weft_global **)(block + at[5]);
    inst->own_globals = (weft_global *)(block + at[6]);
    inst->elem_refs = (void ***)(block + at[7]);
    inst->elem_len = (uint32_t *)(block + at[7] + m->nelems * sizeof(void **));
    inst->data_len = (uint32_t *)(block + at[8]);
    inst->tags = (weft_tag **)(block + at[9]);
    inst->own_tags = (weft_tag *)(block + at[10]);
    inst->module = weft_module_retain(m);
    inst->store = store;

    /* Imports fill the front of each index space (§2.5.1), in import order. */
    uint32_t nf = 0, nt = 0, nm = 0, ng = 0, ntag = 0;
    for (uint32_t i = 0; i < m->nimports; i++) {
        const weft_extern *ext = &imports[i];
        switch (ext->kind) {
        case WEFT_EXTERN_FUNC: inst->funcs[nf++] = ext->of.func; break;
        case WEFT_EXTERN_TABLE: inst->tables[nt++] = ext->of.table; break;
        case WEFT_EXTERN_MEMORY: inst->mems[nm++] = ext->of.memory; break;
        case WEFT_EXTERN_GLOBAL: inst->globals[ng++] = ext->of.global; break;
        case WEFT_EXTERN_TAG: inst->tags[ntag++] = ext->of.tag; break;
        }
    }
    /* Own tags (Wasm 3.0 §4.5.3.x alloctag): a fresh identity each, part
       of the instance's allocation. */
    for (uint32_t i = m->ntag_imports; i < m->ntags; i++) {
        weft_tag *t = &inst->own_tags[i - m->ntag_imports];
        t->type = mod_tag_type(m, i);
        t->store = store;
        inst->tags[i] = t;
    }

    for (uint32_t i = 0; i < nown_funcs; i++) {
        weft_func *f = &inst->own_funcs[i];
        uint32_t index = m->nfunc_imports + i;
        f->type = mod_func_type(m, index);
        f->inst = inst;
        /* The code if some instance called it already, else the stub. */
        atomic_init(&f->code, m->code ? atomic_load_explicit(&m->code[i], memory_order_acquire) : NULL);
        f->index = index;
        f->store = store;
        inst->funcs[index] = f;
    }

    for (uint32_t i = m->ntable_imports; i < m->ntables; i++) {
        st = rt_table_alloc(m->tables[i].elem, m->tables[i].limits, NULL, store->budget, &inst->tables[i],
                            err);
        if (st != WEFT_OK) goto fail;
        inst->tables[i]->store = store;
        inst->tables[i]->full_type = m->tables[i].elem;
        inst->tables[i]->owner = m;
    }
    for (uint32_t i = m->nmem_imports; i < m->nmems; i++) {
        st = rt_memory_alloc(store->engine, store->max_memory_bytes, store->budget, m->mems[i],
                             &inst->mems[i], err);
        if (st != WEFT_OK) goto fail;
        inst->mems[i]->store = store;
    }
    inst->mem0 = m->nmems ? inst->mems[0] : NULL;

    /* Globals in order: an initialiser may read imported globals (and, with
       extended constant expressions, earlier ones) and name any function. */
    for (uint32_t i = 0; i < nown_globals; i++) {
        weft_global *g = &inst->own_globals[i];
        const mod_global *mg = &m->globals[i];
        g->type = mod_valtype_pub(mg->type.type);
        g->full_type = mg->type.type;
        g->owner = m;
        g->mut = mg->type.mut;
        g->store = store;
        st = rt_eval_const(inst, &mg->init, &g->value, err);
        if (st != WEFT_OK) goto fail;
        if (mg->init.op == 0xFD) { /* v128.const: its 16 bytes in the module */
            memcpy(&g->value, m->bytes + mg->init.value, 8);
            memcpy(&g->value_hi, m->bytes + mg->init.value + 8, 8);
        } else if (mg->init.op == 0x23) { /* global.get: a v128 has a high half too */
            g->value_hi = inst->globals[mg->init.value]->value_hi;
        }
        inst->globals[m->nglobal_imports + i] = g;
    }

    /* Tables with an initialiser (Wasm 3.0 §4.5.4: evaluated after the
       globals, every element set to its value). */
    for (uint32_t i = m->ntable_imports; i < m->ntables && m->table_inits; i++) {
        const mod_constexpr *init = &m->table_inits[i - m->ntable_imports];
        if (init->op == 0) continue;
        uint64_t r;
        st = rt_eval_const(inst, init, &r, err);
        if (st != WEFT_OK) goto fail;
        weft_table *t = inst->tables[i];
        for (uint32_t k = 0; k < t->size; k++) t->elems[k] = (void *)(uintptr_t)r;
    }

    /* Element segment instances (§4.2.12): their references, evaluated now. */
    for (uint32_t i = 0; i < m->nelems; i++) {
        const mod_elem *e = &m->elems[i];
        if (e->count == 0) continue;
        void **refs = base_calloc(e->count, sizeof *refs);
        if (!refs) RT_NOMEM_GOTO(err, "element segments", fail);
        inst->elem_refs[i] = refs;
        for (uint32_t k = 0; k < e->count; k++) {
            uint64_t r;
            st = rt_eval_const(inst, &e->items[k], &r, err);
            if (st != WEFT_OK) goto fail;
            refs[k] = (void *)(uintptr_t)r;
        }
        inst->elem_len[i] = e->count;
    }
    for (uint32_t i = 0; i < m->ndatas; i++) inst->data_len[i] = m->datas[i].len;

    *out = inst;
    return WEFT_OK;
fail:
    rt_instance_discard(inst);
    return st;
}

static weft_status rt_trap(weft_error *err, weft_trap trap) {
    base_fail(err, WEFT_ERR_TRAP, "%s", weft_trap_message(trap));
    if (err) err->trap = trap;
    return WEFT_ERR_TRAP;
}

static void rt_elem_drop(weft_instance *inst, uint32_t i) {
    free(inst->elem_refs[i]);
    inst->elem_refs[i] = NULL;
    inst->elem_len[i] = 0;
}

/* Steps 14-15 of instantiation (Wasm 2.0): active element segments are
   table.init + elem.drop, declarative ones elem.drop; then active data
   segments are memory.init + data.drop. Each bounds check is done before
   anything of that segment is written (§4.4.6 table.init, §4.4.7
   memory.init), but earlier segments stay written. */
static weft_status rt_init_segments(weft_instance *inst, weft_error *err) {
    const mod_module *m = inst->module;
    for (uint32_t i = 0; i < m->nelems; i++) {
        const mod_elem *e = &m->elems[i];
        if (e->mode == MOD_SEG_ACTIVE) {
            weft_table *t = inst->tables[e->table_index];
            uint64_t off64;
            weft_status st = rt_eval_const(inst, &e->offset, &off64, err);
            if (st != WEFT_OK) return st;
            /* An i64 offset of a 64-bit table (memory64) is taken whole. */
            if (!m->tables[e->table_index].limits.is64) off64 = (uint32_t)off64;
            uint32_t n = inst->elem_len[i];
            if (off64 > t->size || n > t->size - off64) return rt_trap(err, WEFT_TRAP_TABLE_OOB);
            uint32_t off = (uint32_t)off64;
            if (n) memcpy(t->elems + off, inst->elem_refs[i], (size_t)n * sizeof(void *));
            rt_elem_drop(inst, i);
        } else if (e->mode == MOD_SEG_DECLARATIVE) {
            rt_elem_drop(inst, i);
        }
    }
    for (uint32_t i = 0; i < m->ndatas; i++) {
        const mod_data *d = &m->datas[i];
        if (d->mode != MOD_SEG_ACTIVE) continue;
        weft_memory *mem = inst->mems[d->memory_index];
        uint64_t off;
        weft_status st = rt_eval_const(inst, &d->offset, &off, err);
        if (st != WEFT_OK) return st;
        if (!m->mems[d->memory_index].is64) off = (uint32_t)off; /* i32 offset */
        uint32_t n = inst->data_len[i];
        uint64_t size = weft_memory_size(mem);
        if (off > size || n > size - off) return rt_trap(err, WEFT_TRAP_MEM_OOB);
        if (n) memcpy(mem->data + off, d->bytes, n);
        inst->data_len[i] = 0;
    }
    return WEFT_OK;
}

weft_status weft_instance_new(weft_store *store, weft_module *module,
                              const weft_extern *imports, uint32_t nimports,
                              weft_instance **out, weft_error *err) {
    if (out) *out = NULL;
    if (!store || !module || !out || (nimports && !imports))
        return base_fail(err, WEFT_ERR_MISUSE, "weft_instance_new: NULL argument");
    if (nimports != module->nimports)
        return base_fail(err, WEFT_ERR_MISUSE,
                         "the module has %u imports but %u externs were given",
                         module->nimports, nimports);
    weft_status st = rt_check_imports(store, module, imports, err);
    if (st != WEFT_OK) return st;

    weft_instance *inst = NULL;
    st = rt_instance_alloc(store, module, imports, &inst, err);
    if (st != WEFT_OK) return st;
    if (!rt_store_adopt_instance(store, inst, inst->tables + module->ntable_imports,
                                 module->ntables - module->ntable_imports,
                                 inst->mems + module->nmem_imports,
                                 module->nmems - module->nmem_imports)) {
        rt_instance_discard(inst);
        return base_fail(err, WEFT_ERR_NOMEM, "out of memory registering an instance");
    }

    /* From here the instance lives in the store: references to it may
       already sit in imported tables when a later step fails. */
    st = rt_init_segments(inst, err);
    if (st != WEFT_OK) return st;
    if (module->has_start) {
        st = weft_func_call(inst->funcs[module->start], NULL, 0, NULL, 0, err);
        if (st != WEFT_OK) return st;
    }
    base_error_clear(err);
    *out = inst;
    return WEFT_OK;
}

/* ---- exports ---- */

weft_module *weft_instance_module(const weft_instance *inst) {
    return inst ? inst->module : NULL;
}

weft_status rt_instance_export_n(weft_instance *inst, const char *name, size_t len,
                                 weft_extern *out) {
    if (!inst || (!name && len) || !out) return WEFT_ERR_MISUSE;
    const mod_module *m = inst->module;
    for (uint32_t i = 0; i < m->nexports; i++) {
        const mod_export *x = &m->exports[i];
        if (x->name_len != len || (len && memcmp(x->name, name, len) != 0)) continue;
        out->kind = x->kind;
        switch (x->kind) {
        case WEFT_EXTERN_FUNC: out->of.func = inst->funcs[x->index]; break;
        case WEFT_EXTERN_TABLE: out->of.table = inst->tables[x->index]; break;
        case WEFT_EXTERN_MEMORY: out->of.memory = inst->mems[x->index]; break;
        case WEFT_EXTERN_GLOBAL: out->of.global = inst->globals[x->index]; break;
        case WEFT_EXTERN_TAG: out->of.tag = inst->tags[x->index]; break;
        }
        return WEFT_OK;
    }
    return WEFT_ERR_NOT_FOUND;
}

weft_status weft_instance_export(weft_instance *inst, const char *name, weft_extern *out) {
    if (!name) return WEFT_ERR_MISUSE;
    return rt_instance_export_n(inst, name, strlen(name), out);
}

weft_func *weft_instance_func(weft_instance *inst, const char *name) {
    weft_extern ext;
    if (weft_instance_export(inst, name, &ext) != WEFT_OK) return NULL;
    return ext.kind == WEFT_EXTERN_FUNC ? ext.of.func : NULL;
}

weft_status weft_instance_export_n(weft_instance *inst, const char *name, size_t len, weft_extern *out) {
    return rt_instance_export_n(inst, name, len, out);
}
