/*
 * invoke.c — the runner's instances and calls (runner.c): instantiate a
 * script's components, call their exported functions with the script's
 * argument values and compare what comes back (assert_return,
 * assert_trap). Values are convert.mjs's JSON form:
 * {"type": "u32", "value": "7"}, {"type": "list", "value": [...]},
 * {"type": "record", "value": [{"field": F, "value": V}...]},
 * {"type": "variant", "value": {"case": C, "value": V?}},
 * {"type": "enum", "value": L}, {"type": "flags", "value": [L...]},
 * {"type": "option.some"/"option.none", "value": [V?]},
 * {"type": "result.ok"/"result.err", "value": [V?]}.
 * It calls the canonical ABI directly (component/instance.h), as the
 * spec runner calls exports through weft.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../spectest/spectest.h"
#include "component/instance.h"
#include "invoke.h"

static bool label_is(const cm_field *f, const char *s, size_t n) {
    return f->name_len == n && memcmp(f->name, s, n) == 0;
}

static const json_value *jval(const json_value *v) { return json_get(v, "value"); }

static bool jtype_is(const json_value *v, const char *t) {
    const char *s = json_get_string(v, "type", NULL);
    return s && !strcmp(s, t);
}

/* A JSON value of type t as a cm_val (allocated in a). false: the JSON
   does not fit the type (a converter's or script's mistake). */
static bool from_json(cm_arena *a, const cm_valtype *t, const json_value *j, cm_val *out,
                      uint32_t depth) {
    memset(out, 0, sizeof *out);
    out->kind = t->kind;
    if (!j || depth > 64) return false;
    const json_value *v = jval(j);
    const char *s = v && v->kind == JSON_STRING ? v->text : NULL;
    switch (t->kind) {
    case CM_BOOL:
        if (!s) return false;
        out->v.b = !strcmp(s, "true");
        return true;
    case CM_S8: case CM_S16: case CM_S32: case CM_S64:
        if (!s) return false;
        out->v.s = strtoll(s, NULL, 0);
        return true;
    case CM_U8: case CM_U16: case CM_U32: case CM_U64:
        if (!s) return false;
        out->v.u = strtoull(s, NULL, 0);
        return true;
    case CM_F32:
        if (!s) return false;
        out->v.f32 = strtof(s, NULL);
        return true;
    case CM_F64:
        if (!s) return false;
        out->v.f64 = strtod(s, NULL);
        return true;
    case CM_CHAR: {
        if (!s || !v->len) return false;
        const unsigned char *p = (const unsigned char *)s;
        uint32_t c = p[0];
        int n = c < 0x80 ? 0 : c < 0xe0 ? 1 : c < 0xf0 ? 2 : 3;
        c &= n == 0 ? 0x7f : n == 1 ? 0x1f : n == 2 ? 0x0f : 0x07;
        for (int i = 1; i <= n; i++) c = c << 6 | (p[i] & 0x3f);
        out->v.ch = c;
        return true;
    }
    case CM_STRING:
        if (!s) return false;
        out->v.str = s;
        out->n = (uint32_t)v->len;
        return true;
    case CM_LIST: case CM_FIXED_LIST: case CM_TUPLE: {
        if (!v || v->kind != JSON_ARRAY) return false;
        out->n = (uint32_t)v->count;
        if (t->kind != CM_LIST && out->n != t->n) return false;
        out->v.items = out->n ? cm_arena_alloc(a, out->n * sizeof(cm_val), 16) : NULL;
        for (uint32_t i = 0; i < out->n; i++) {
            const cm_valtype *et = t->kind == CM_TUPLE ? t->members[i] : t->elem;
            if (!from_json(a, et, v->items[i], &out->v.items[i], depth + 1)) return false;
        }
        return true;
    }
    case CM_RECORD: {
        if (!v || v->kind != JSON_ARRAY || v->count != t->n) return false;
        out->n = t->n;
        out->v.items = cm_arena_alloc(a, t->n * sizeof(cm_val), 16);
        for (uint32_t i = 0; i < t->n; i++) {
            const json_value *fv = jval(v->items[i]);
            if (!fv || fv->kind != JSON_OBJECT) return false; /* a field value the converter lost */
            if (!from_json(a, t->fields[i].type, fv, &out->v.items[i], depth + 1)) return false;
        }
        return true;
    }
    case CM_VARIANT: {
        const char *cs = v ? json_get_string(v, "case", NULL) : NULL;
        if (!cs) return false;
        for (uint32_t i = 0; i < t->n; i++) {
            if (!label_is(&t->fields[i], cs, strlen(cs))) continue;
            out->v.c.index = i;
            if (t->fields[i].type) {
                out->v.c.payload = cm_arena_alloc(a, sizeof(cm_val), 16);
                return from_json(a, t->fields[i].type, jval(v), out->v.c.payload, depth + 1);
            }
            return true;
        }
        return false;
    }
    case CM_ENUM:
        if (!s) return false;
        for (uint32_t i = 0; i < t->n; i++)
            if (label_is(&t->fields[i], s, v->len)) {
                out->v.c.index = i;
                return true;
            }
        return false;
    case CM_FLAGS:
        if (!v || v->kind != JSON_ARRAY) return false;
        for (size_t k = 0; k < v->count; k++) {
            const json_value *l = v->items[k];
            uint32_t i = 0;
            while (i < t->n && !(l->kind == JSON_STRING && label_is(&t->fields[i], l->text, l->len))) i++;
            if (i == t->n) return false;
            out->v.flags |= 1u << i;
        }
        return true;
    case CM_OPTION: case CM_RESULT: {
        bool opt = t->kind == CM_OPTION;
        uint32_t idx = opt ? (jtype_is(j, "option.some") ? 1u : 0u) : (jtype_is(j, "result.err") ? 1u : 0u);
        const cm_valtype *pt = opt ? (idx ? t->elem : NULL) : (idx ? t->elem2 : t->elem);
        out->v.c.index = idx;
        if (!pt) return true;
        if (!v || v->kind != JSON_ARRAY || v->count != 1) return false;
        out->v.c.payload = cm_arena_alloc(a, sizeof(cm_val), 16);
        return from_json(a, pt, v->items[0], out->v.c.payload, depth + 1);
    }
    default:
        return false; /* own, borrow, stream, future, map: not in the scripts' values */
    }
}

static bool f_same(double a, double b) { return (isnan(a) && isnan(b)) || a == b; }

/* Whether the value x of type t is what the JSON says. */
static bool matches(cm_arena *a, const cm_valtype *t, const cm_val *x, const json_value *j) {
    cm_val want;
    if (!from_json(a, t, j, &want, 0)) return false;
    switch (t->kind) {
    case CM_F32: return f_same(x->v.f32, want.v.f32);
    case CM_F64: return f_same(x->v.f64, want.v.f64);
    default: return cm_val_equal(x, &want);
    }
}

/* ---- the runner's instances ---------------------------------------- */

void cmr_reset(cmr_state *s) {
    for (size_t i = 0; i < s->ninsts; i++) {
        cm_inst_free(s->insts[i].inst);
        weft_store_free(s->insts[i].store);
        free(s->insts[i].name);
    }
    for (size_t i = 0; i < s->ncomps; i++) {
        weft_component_release(s->comps[i].comp);
        free(s->comps[i].name);
    }
    free(s->insts);
    free(s->comps);
    memset(s, 0, sizeof *s);
}

void cmr_define(cmr_state *s, const char *name, weft_component *comp) {
    s->comps = realloc(s->comps, (s->ncomps + 1) * sizeof *s->comps);
    s->comps[s->ncomps++] = (cmr_comp){name ? strdup(name) : NULL, weft_component_retain(comp)};
}

weft_component *cmr_find_comp(cmr_state *s, const char *name) {
    for (size_t i = s->ncomps; i-- > 0;)
        if (s->comps[i].name && name && !strcmp(s->comps[i].name, name)) return s->comps[i].comp;
    return NULL;
}

weft_status cmr_instantiate(cmr_state *s, weft_engine *engine, weft_component *comp, const char *name,
                            weft_error *err) {
    weft_store *store = weft_store_new(engine);
    if (!store) return WEFT_ERR_NOMEM;
    cm_inst *inst;
    weft_status st = cm_instantiate(store, comp->root, NULL, &inst, err);
    if (st != WEFT_OK) {
        weft_store_free(store);
        s->has_current = false; /* the script's next calls have no instance */
        return st;
    }
    s->insts = realloc(s->insts, (s->ninsts + 1) * sizeof *s->insts);
    s->insts[s->ninsts++] = (cmr_inst){name ? strdup(name) : NULL, store, inst};
    s->current = s->ninsts - 1;
    s->has_current = true;
    return WEFT_OK;
}

static cm_inst *find_inst(cmr_state *s, const char *name) {
    if (name) {
        for (size_t i = s->ninsts; i-- > 0;)
            if (s->insts[i].name && !strcmp(s->insts[i].name, name)) return s->insts[i].inst;
        return NULL;
    }
    return s->has_current ? s->insts[s->current].inst : NULL;
}

cmr_result cmr_invoke(cmr_state *s, const json_value *action, const json_value *expected,
                      bool expect_trap, const char *trap_text, char *msg, size_t cap) {
    cm_inst *inst = find_inst(s, json_get_string(action, "module", NULL));
    if (!inst) {
        snprintf(msg, cap, "no instance to call");
        return CMR_SKIP;
    }
    size_t flen;
    const char *field = json_get_string(action, "field", &flen);
    const cm_rexport *x = field ? cm_rinst_get(&inst->exports, field, flen) : NULL;
    if (!x || x->sort != CM_FUNC) {
        snprintf(msg, cap, "no exported function `%s`", field ? field : "?");
        return CMR_FAIL;
    }
    cm_func *f = x->item.func;
    const cm_functype *ft = f->type;
    const json_value *args = json_get_array(action, "args");
    cm_arena a = {.limit = (size_t)1 << 28};
    cmr_result r = CMR_FAIL;
    if ((args ? args->count : 0) != ft->nparams) {
        snprintf(msg, cap, "%zu arguments given, the function takes %u", args ? args->count : 0, ft->nparams);
        goto out;
    }
    cm_val *vals = ft->nparams ? cm_arena_alloc(&a, ft->nparams * sizeof *vals, 16) : NULL;
    for (uint32_t i = 0; i < ft->nparams; i++) {
        if (!from_json(&a, ft->params[i].type, args->items[i], &vals[i], 0)) {
            snprintf(msg, cap, "argument %u: a value the runner cannot make", i);
            r = CMR_SKIP;
            goto out;
        }
    }
    cm_val result;
    memset(&result, 0, sizeof result);
    weft_error e;
    memset(&e, 0, sizeof e);
    weft_status st = cm_call(f, NULL, NULL, vals, &result, &a, &e);
    if (expect_trap) {
        if (st == WEFT_ERR_TRAP) {
            if (trap_text && !strstr(e.message, trap_text)) {
                snprintf(msg, cap, "trapped with \"%s\", expected \"%s\"", e.message, trap_text);
                r = CMR_OTHER_TRAP;
            } else {
                r = CMR_PASS;
            }
        } else {
            snprintf(msg, cap, "expected a trap (\"%s\"), got %s %s", trap_text ? trap_text : "",
                     weft_status_name(st), st == WEFT_OK ? "" : e.message);
        }
        goto out;
    }
    if (st != WEFT_OK) {
        snprintf(msg, cap, "%s: %s", weft_status_name(st), e.message);
        goto out;
    }
    size_t nexp = expected ? expected->count : 0;
    if (nexp != (ft->result ? 1u : 0u)) {
        snprintf(msg, cap, "%zu results expected, the function has %u", nexp, ft->result ? 1u : 0u);
        goto out;
    }
    if (nexp && !matches(&a, ft->result, &result, expected->items[0])) {
        snprintf(msg, cap, "result differs from the expected value");
        goto out;
    }
    r = CMR_PASS;
out:
    cm_arena_free(&a);
    return r;
}
