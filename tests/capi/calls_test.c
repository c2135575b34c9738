/* calls_test.c — wasm.h with code running: host functions (with and
   without env, a trapping one, finalizers), imports of every extern kind,
   exports and their identity, calls of every value kind, null and
   foreign references through wasm, traps with message, origin and trace,
   instantiation failures, globals, tables and memories from the host,
   host info on every reference kind, objects used after their store is
   gone, and WASI through weft_wasi_define_store. */
#include <unistd.h>

#include "check.h"

/* ---- host functions ---- */

static int add_calls;
static wasm_trap_t *cb_add(const wasm_val_vec_t *args, wasm_val_vec_t *results) {
    add_calls++;
    results->data[0].kind = WASM_I32;
    results->data[0].of.i32 = args->data[0].of.i32 + args->data[1].of.i32;
    return NULL;
}

/* Traps with a message and host info of its own; keeps a reference of the
   trap it returns in `fail_trap` to compare with what the call gives. */
static wasm_trap_t *fail_trap;
static int fail_info;
static wasm_trap_t *cb_fail(void *env, const wasm_val_vec_t *args, wasm_val_vec_t *results) {
    (void)args;
    (void)results;
    wasm_message_t msg;
    wasm_name_new_from_string(&msg, "boom from the host"); /* no NUL: the trap adds one */
    wasm_trap_t *t = wasm_trap_new((wasm_store_t *)env, &msg);
    wasm_name_delete(&msg);
    wasm_trap_set_host_info(t, &fail_info);
    fail_trap = wasm_trap_copy(t);
    return t;
}

/* Returns its externref argument (a copy: results are owned). */
static void *ident_seen;
static wasm_trap_t *cb_ident(void *env, const wasm_val_vec_t *args, wasm_val_vec_t *results) {
    (void)env;
    ident_seen = args->data[0].of.ref ? wasm_ref_get_host_info(args->data[0].of.ref) : NULL;
    wasm_val_copy(&results->data[0], &args->data[0]);
    return NULL;
}

static int finalized[4];
static void fin(void *p) { (*(int *)p)++; }

/* A host function that returns a value of the wrong kind. */
static wasm_trap_t *cb_wrong(const wasm_val_vec_t *args, wasm_val_vec_t *results) {
    (void)args;
    results->data[0].kind = WASM_F64;
    results->data[0].of.f64 = 1;
    return NULL;
}

/* ---- helpers ---- */

static wasm_func_t *export_func(const wasm_extern_vec_t *exps, const wasm_module_t *m, const char *name) {
    wasm_exporttype_vec_t types;
    wasm_module_exports(m, &types);
    wasm_func_t *f = NULL;
    for (size_t i = 0; i < types.size && i < exps->size; i++) {
        const wasm_name_t *n = wasm_exporttype_name(types.data[i]);
        if (n->size == strlen(name) && memcmp(n->data, name, n->size) == 0) f = wasm_extern_as_func(exps->data[i]);
    }
    wasm_exporttype_vec_delete(&types);
    return f;
}

static wasm_extern_t *export_at(const wasm_extern_vec_t *exps, const wasm_module_t *m, const char *name) {
    wasm_exporttype_vec_t types;
    wasm_module_exports(m, &types);
    wasm_extern_t *e = NULL;
    for (size_t i = 0; i < types.size && i < exps->size; i++) {
        const wasm_name_t *n = wasm_exporttype_name(types.data[i]);
        if (n->size == strlen(name) && memcmp(n->data, name, n->size) == 0) e = exps->data[i];
    }
    wasm_exporttype_vec_delete(&types);
    return e;
}

/* Calls f(args) -> one i32, or INT32_MIN on a trap (deleted). */
static int32_t call_i32(const wasm_func_t *f, wasm_val_t *args, size_t nargs) {
    wasm_val_t r[1] = {WASM_INIT_VAL};
    wasm_val_vec_t av = {nargs, args}, rv = WASM_ARRAY_VEC(r);
    wasm_trap_t *t = wasm_func_call(f, &av, &rv);
    if (t) {
        wasm_trap_delete(t);
        return INT32_MIN;
    }
    return r[0].of.i32;
}

/* Checks the host-info functions of one reference kind on `r`, and the
   conversions to and from wasm_ref_t (`other` is a reference of another
   kind). Ends with info set and a finalizer counting into finalized[k]. */
#define CHECK_REF_KIND(name, r, other, k)                                                              \
    do {                                                                                               \
        wasm_##name##_t *c_ = wasm_##name##_copy(r);                                                   \
        CHECK(#name " copy is the same", c_ && wasm_##name##_same(c_, r) && !wasm_##name##_same(r, NULL)); \
        static int info_;                                                                              \
        wasm_##name##_set_host_info(r, &info_);                                                        \
        CHECK(#name " host info seen through a copy", wasm_##name##_get_host_info(c_) == &info_);      \
        wasm_##name##_set_host_info_with_finalizer(c_, &finalized[k], fin);                            \
        CHECK(#name " host info replaced", wasm_##name##_get_host_info(r) == &finalized[k]);           \
        wasm_ref_t *ref_ = wasm_##name##_as_ref(r);                                                    \
        CHECK(#name " as_ref and back", wasm_ref_as_##name(ref_) == r &&                               \
                                            wasm_ref_as_##name##_const(wasm_##name##_as_ref_const(r)) == r); \
        CHECK(#name " ref_as of another kind is NULL",                                                 \
              wasm_ref_as_##name(other) == NULL && wasm_ref_as_##name##_const(other) == NULL);         \
        CHECK(#name " ref host info is the object's", wasm_ref_get_host_info(ref_) == &finalized[k]);  \
        wasm_##name##_delete(c_);                                                                      \
    } while (0)

/* ---- the test ---- */

static void test_basic(void) {
    wasm_engine_t *engine = wasm_engine_new();
    wasm_store_t *store = wasm_store_new(engine);
    wasm_byte_vec_t bin;
    check_read("tests/capi/wasm/basic.wasm", &bin);
    wasm_module_t *module = wasm_module_new(store, &bin);
    wasm_byte_vec_delete(&bin);
    CHECK("basic.wasm loads", module != NULL);
    if (!module) return;

    /* Imports: one of each kind, made by the host. */
    wasm_functype_t *t_add = wasm_functype_new_2_1(wasm_valtype_new_i32(), wasm_valtype_new_i32(), wasm_valtype_new_i32());
    wasm_functype_t *t_fail = wasm_functype_new_0_0();
    wasm_functype_t *t_ident = wasm_functype_new_1_1(wasm_valtype_new_externref(), wasm_valtype_new_externref());
    wasm_func_t *f_add = wasm_func_new(store, t_add, cb_add);
    wasm_func_t *f_fail = wasm_func_new_with_env(store, t_fail, cb_fail, store, NULL);
    wasm_func_t *f_ident = wasm_func_new_with_env(store, t_ident, cb_ident, &finalized[3], fin);
    CHECK("func new", f_add && f_fail && f_ident);
    CHECK("func new of NULL is NULL", wasm_func_new(store, NULL, cb_add) == NULL && wasm_func_new(NULL, t_add, cb_add) == NULL);
    CHECK("func arities", wasm_func_param_arity(f_add) == 2 && wasm_func_result_arity(f_add) == 1 &&
                              wasm_func_param_arity(f_fail) == 0);
    wasm_functype_t *got = wasm_func_type(f_ident);
    CHECK("func type", got && wasm_valtype_kind(wasm_functype_results(got)->data[0]) == WASM_EXTERNREF);
    wasm_functype_delete(got);

    wasm_val_t g0 = WASM_I32_VAL(10);
    wasm_globaltype_t *gt = wasm_globaltype_new(wasm_valtype_new_i32(), WASM_VAR);
    wasm_global_t *g = wasm_global_new(store, gt, &g0);
    wasm_val_t wrong = WASM_F32_VAL(1);
    CHECK("global new", g && wasm_global_new(store, gt, &wrong) == NULL);
    wasm_globaltype_delete(gt);
    wasm_limits_t tl = {2, wasm_limits_max_default};
    wasm_tabletype_t *tt = wasm_tabletype_new(wasm_valtype_new_funcref(), &tl);
    wasm_table_t *t = wasm_table_new(store, tt, wasm_func_as_ref(f_add));
    wasm_tabletype_delete(tt);
    CHECK("table new with init", t && wasm_table_size(t) == 2);
    wasm_limits_t ml = {1, 2};
    wasm_memorytype_t *mt = wasm_memorytype_new(&ml);
    wasm_memory_t *mem = wasm_memory_new(store, mt);
    wasm_memorytype_delete(mt);
    CHECK("memory new", mem && wasm_memory_size(mem) == 1 && wasm_memory_data_size(mem) == 65536);

    /* Instantiation failures: wrong count, a wrong kind, NULL. */
    wasm_extern_t *few[1] = {wasm_func_as_extern(f_add)};
    wasm_extern_vec_t fewv = WASM_ARRAY_VEC(few);
    wasm_trap_t *trap = NULL;
    CHECK("instance with too few imports is NULL", wasm_instance_new(store, module, &fewv, &trap) == NULL && trap);
    CHECK("... and the trap says how many", strstr(check_trap_message(trap), "6 imports") != NULL);
    wasm_extern_t *swapped[6] = {wasm_func_as_extern(f_add), wasm_func_as_extern(f_fail), wasm_func_as_extern(f_ident),
                                 wasm_memory_as_extern(mem), wasm_table_as_extern(t), wasm_global_as_extern(g)};
    wasm_extern_vec_t swv = WASM_ARRAY_VEC(swapped);
    CHECK("instance with imports of the wrong kind is NULL", wasm_instance_new(store, module, &swv, &trap) == NULL);
    CHECK("... and the trap names the import", strstr(check_trap_message(trap), "import type for \"env\".\"g\"") != NULL);
    swapped[3] = NULL;
    CHECK("instance with a NULL import is NULL", wasm_instance_new(store, module, &swv, &trap) == NULL);
    CHECK("... missing", strstr(check_trap_message(trap), "missing") != NULL);
    CHECK("instance without a trap pointer", wasm_instance_new(store, module, &fewv, NULL) == NULL);

    wasm_extern_t *imps[6] = {wasm_func_as_extern(f_add), wasm_func_as_extern(f_fail), wasm_func_as_extern(f_ident),
                              wasm_global_as_extern(g), wasm_table_as_extern(t), wasm_memory_as_extern(mem)};
    wasm_extern_vec_t iv = WASM_ARRAY_VEC(imps);
    trap = (wasm_trap_t *)1;
    wasm_instance_t *inst = wasm_instance_new(store, module, &iv, &trap);
    CHECK("instance new", inst && trap == NULL && weft_wasm_instance(inst));
    if (!inst) return;
    wasm_extern_vec_t exps;
    wasm_instance_exports(inst, &exps);
    CHECK("exports", exps.size == 25);

    /* Exports of imported objects are the host's own objects. */
    CHECK("exported import is the same func", wasm_func_same(wasm_extern_as_func(export_at(&exps, module, "add")), f_add));
    CHECK("exported memory is the host's", wasm_memory_same(wasm_extern_as_memory(export_at(&exps, module, "mem")), mem));
    CHECK("exported global is the host's", wasm_global_same(wasm_extern_as_global(export_at(&exps, module, "g")), g));
    CHECK("exported table is the host's", wasm_table_same(wasm_extern_as_table(export_at(&exps, module, "t")), t));
    CHECK("extern kinds", wasm_extern_kind(export_at(&exps, module, "tab")) == WASM_EXTERN_TABLE &&
                              wasm_extern_kind(export_at(&exps, module, "pi")) == WASM_EXTERN_GLOBAL &&
                              wasm_extern_kind(export_at(&exps, module, "mem")) == WASM_EXTERN_MEMORY &&
                              wasm_extern_kind(export_at(&exps, module, "double")) == WASM_EXTERN_FUNC);
    CHECK("extern as other kinds is NULL", !wasm_extern_as_global(export_at(&exps, module, "tab")) &&
                                               !wasm_extern_as_table(export_at(&exps, module, "mem")) &&
                                               !wasm_extern_as_memory(export_at(&exps, module, "pi")) &&
                                               !wasm_extern_as_func(export_at(&exps, module, "pi")));
    const wasm_extern_t *ce = wasm_func_as_extern_const(f_add);
    CHECK("const extern conversions", wasm_extern_as_func_const(ce) == f_add &&
                                          wasm_extern_as_global_const(wasm_global_as_extern_const(g)) == g &&
                                          wasm_extern_as_table_const(wasm_table_as_extern_const(t)) == t &&
                                          wasm_extern_as_memory_const(wasm_memory_as_extern_const(mem)) == mem &&
                                          wasm_extern_as_table_const(ce) == NULL);
    wasm_externtype_t *et = wasm_extern_type(export_at(&exps, module, "tab"));
    CHECK("extern type of a table", et && wasm_tabletype_limits(wasm_externtype_as_tabletype(et))->min == 3 &&
                                        wasm_tabletype_limits(wasm_externtype_as_tabletype(et))->max == 10);
    wasm_externtype_delete(et);
    et = wasm_extern_type(wasm_func_as_extern(f_add));
    CHECK("extern type of a func", et && wasm_externtype_kind(et) == WASM_EXTERN_FUNC);
    wasm_externtype_delete(et);
    wasm_extern_t *ecopy = wasm_extern_copy(export_at(&exps, module, "pi"));
    CHECK("extern copy", ecopy && wasm_extern_same(ecopy, export_at(&exps, module, "pi")));
    wasm_extern_delete(ecopy);
    {
        wasm_extern_vec_t c;
        wasm_extern_vec_copy(&c, &exps);
        CHECK("extern vec copy", c.size == exps.size && wasm_extern_same(c.data[0], exps.data[0]));
        wasm_extern_vec_delete(&c);
        wasm_extern_t *two[2] = {wasm_extern_copy(exps.data[0]), wasm_extern_copy(exps.data[1])};
        wasm_extern_vec_new(&c, 2, two);
        CHECK("extern vec new", c.size == 2);
        wasm_extern_vec_delete(&c);
        wasm_extern_vec_new_empty(&c);
        wasm_extern_vec_delete(&c);
        wasm_extern_vec_new_uninitialized(&c, 2);
        CHECK("extern vec uninitialized", c.size == 2 && !c.data[0]);
        wasm_extern_vec_delete(&c);
    }

    /* Calls: into wasm and back out to the host. */
    wasm_val_t a2[2] = {WASM_I32_VAL(40), WASM_I32_VAL(2)};
    CHECK("call_add -> host add", call_i32(export_func(&exps, module, "call_add"), a2, 2) == 42 && add_calls == 1);
    CHECK("host func called directly", call_i32(f_add, a2, 2) == 42 && add_calls == 2);
    wasm_val_t one[1] = {WASM_I32_VAL(21)};
    CHECK("double", call_i32(export_func(&exps, module, "double"), one, 1) == 42);
    wasm_val_t badkind[1] = {WASM_I64_VAL(21)};
    wasm_val_t r1[1];
    wasm_val_vec_t bv = WASM_ARRAY_VEC(badkind), rv1 = WASM_ARRAY_VEC(r1), nov = WASM_EMPTY_VEC;
    CHECK("argument of the wrong kind traps with why",
          strstr(check_trap_message(wasm_func_call(export_func(&exps, module, "double"), &bv, &rv1)), "argument 0") != NULL);
    CHECK("wrong argument count traps",
          strstr(check_trap_message(wasm_func_call(export_func(&exps, module, "double"), &nov, &rv1)), "arguments") != NULL);
    CHECK("call of NULL traps", strstr(check_trap_message(wasm_func_call(NULL, &nov, &nov)), "not a function") != NULL);
    wasm_val_t sw[3] = {WASM_I64_VAL(-7), WASM_F32_VAL(2.5f), WASM_F64_VAL(-0.25)};
    wasm_val_t swr[3];
    wasm_val_vec_t swa = WASM_ARRAY_VEC(sw), swrv = WASM_ARRAY_VEC(swr);
    wasm_trap_t *st = wasm_func_call(export_func(&exps, module, "swap"), &swa, &swrv);
    CHECK("multi-value: i64 f32 f64 -> f64 f32 i64", !st && swr[0].kind == WASM_F64 && swr[0].of.f64 == -0.25 &&
                                                         swr[1].kind == WASM_F32 && swr[1].of.f32 == 2.5f &&
                                                         swr[2].kind == WASM_I64 && swr[2].of.i64 == -7);
    wasm_val_t vz[1] = {WASM_I32_VAL(0)};
    wasm_val_vec_t vzv = WASM_ARRAY_VEC(vz);
    CHECK("v128 functions cannot be called through wasm.h",
          strstr(check_trap_message(wasm_func_call(export_func(&exps, module, "simd"), &vzv, &rv1)), "v128") != NULL);

    /* Globals. */
    CHECK("get_g sees the host's value", call_i32(export_func(&exps, module, "get_g"), NULL, 0) == 10);
    wasm_val_t g5 = WASM_I32_VAL(5), gv;
    wasm_global_set(g, &g5);
    CHECK("wasm sees wasm_global_set", call_i32(export_func(&exps, module, "get_g"), NULL, 0) == 5);
    wasm_val_t s9[1] = {WASM_I32_VAL(9)};
    wasm_val_vec_t s9v = WASM_ARRAY_VEC(s9);
    wasm_trap_delete(wasm_func_call(export_func(&exps, module, "set_g"), &s9v, &nov));
    wasm_global_get(g, &gv);
    CHECK("host sees global.set", gv.kind == WASM_I32 && gv.of.i32 == 9);
    wasm_global_t *pi = wasm_extern_as_global(export_at(&exps, module, "pi"));
    wasm_global_get(pi, &gv);
    wasm_val_t p1 = WASM_F64_VAL(1);
    wasm_global_set(pi, &p1); /* immutable: ignored */
    wasm_val_t gv2;
    wasm_global_get(pi, &gv2);
    CHECK("immutable global stays", gv.of.f64 == 3.5 && gv2.of.f64 == 3.5);
    wasm_globaltype_t *pgt = wasm_global_type(pi);
    CHECK("global type", pgt && wasm_globaltype_mutability(pgt) == WASM_CONST &&
                             wasm_valtype_kind(wasm_globaltype_content(pgt)) == WASM_F64);
    wasm_globaltype_delete(pgt);
    wasm_global_t *og = wasm_extern_as_global(export_at(&exps, module, "own_global"));
    wasm_global_set(og, &p1); /* wrong kind: ignored */
    wasm_global_get(og, &gv);
    CHECK("global keeps its kind", gv.kind == WASM_I64 && gv.of.i64 == 7);

    /* Tables and funcrefs. */
    CHECK("host table: element 0 is the host add, called as i32 -> i32 traps (type mismatch)",
          call_i32(export_func(&exps, module, "call_t"), (wasm_val_t[]){WASM_I32_VAL(0), WASM_I32_VAL(1)}, 2) == INT32_MIN);
    wasm_func_t *dbl = export_func(&exps, module, "double");
    CHECK("table set", wasm_table_set(t, 1, wasm_func_as_ref(dbl)));
    CHECK("call_indirect through the host table",
          call_i32(export_func(&exps, module, "call_t"), (wasm_val_t[]){WASM_I32_VAL(1), WASM_I32_VAL(8)}, 2) == 16);
    wasm_ref_t *e1 = wasm_table_get(t, 1);
    CHECK("table get gives the same function", e1 && wasm_ref_same(e1, wasm_func_as_ref(dbl)));
    wasm_ref_delete(e1);
    CHECK("table get out of bounds is NULL", wasm_table_get(t, 99) == NULL);
    CHECK("table set out of bounds fails", !wasm_table_set(t, 99, NULL));
    wasm_foreign_t *fo = wasm_foreign_new(store);
    CHECK("table set of a foreign in a funcref table fails", !wasm_table_set(t, 0, wasm_foreign_as_ref(fo)));
    CHECK("table set null", wasm_table_set(t, 0, NULL));
    wasm_ref_t *e0 = wasm_table_get(t, 0);
    CHECK("null element is NULL", e0 == NULL);
    CHECK("table grow", wasm_table_grow(t, 3, wasm_func_as_ref(dbl)) && wasm_table_size(t) == 5);
    wasm_table_t *tab = wasm_extern_as_table(export_at(&exps, module, "tab"));
    CHECK("table grow past max fails", !wasm_table_grow(tab, 8, NULL) && wasm_table_size(tab) == 3);
    wasm_tabletype_t *ttype = wasm_table_type(t);
    CHECK("table type: current size", ttype && wasm_tabletype_limits(ttype)->min == 5);
    wasm_tabletype_delete(ttype);
    wasm_val_t fr[1];
    wasm_val_vec_t frv = WASM_ARRAY_VEC(fr);
    st = wasm_func_call(export_func(&exps, module, "get_double"), &nov, &frv);
    CHECK("funcref result is the exported function", !st && fr[0].kind == WASM_FUNCREF &&
                                                         wasm_ref_same(fr[0].of.ref, wasm_func_as_ref(dbl)));
    wasm_val_t cr[2] = {WASM_REF_VAL(fr[0].of.ref), WASM_I32_VAL(4)};
    CHECK("funcref argument, called by wasm", call_i32(export_func(&exps, module, "call_ref"), cr, 2) == 8);
    wasm_val_delete(&fr[0]);
    wasm_val_t crf[2] = {WASM_REF_VAL(wasm_foreign_as_ref(fo)), WASM_I32_VAL(4)};
    CHECK("a foreign as a funcref argument traps", call_i32(export_func(&exps, module, "call_ref"), crf, 2) == INT32_MIN);

    /* Externrefs: foreign objects and null through wasm and back. */
    wasm_foreign_set_host_info(fo, &fail_info);
    wasm_val_t ea[1] = {WASM_REF_VAL(wasm_foreign_as_ref(fo))}, er[1];
    wasm_val_vec_t eav = WASM_ARRAY_VEC(ea), erv = WASM_ARRAY_VEC(er);
    st = wasm_func_call(export_func(&exps, module, "ident"), &eav, &erv);
    CHECK("foreign through wasm and a host function comes back the same",
          !st && er[0].of.ref && wasm_ref_same(er[0].of.ref, wasm_foreign_as_ref(fo)) && ident_seen == &fail_info);
    wasm_val_delete(&er[0]);
    ea[0].of.ref = NULL;
    st = wasm_func_call(export_func(&exps, module, "ident"), &eav, &erv);
    CHECK("null externref round trip", !st && er[0].of.ref == NULL && ident_seen == NULL);
    wasm_global_t *eg = wasm_extern_as_global(export_at(&exps, module, "ext_global"));
    wasm_val_t efo = WASM_REF_VAL(wasm_foreign_as_ref(fo));
    wasm_global_set(eg, &efo);
    wasm_global_get(eg, &gv);
    CHECK("externref global holds the foreign", gv.kind == WASM_EXTERNREF && wasm_ref_same(gv.of.ref, wasm_foreign_as_ref(fo)));
    wasm_val_delete(&gv);
    /* A module reference as an externref: the store adopts it. */
    wasm_val_t em = WASM_REF_VAL(wasm_module_as_ref(module));
    wasm_global_set(eg, &em);
    wasm_global_get(eg, &gv);
    CHECK("any reference as an externref", wasm_ref_as_module(gv.of.ref) == module);
    wasm_val_delete(&gv);

    /* References of another store are refused. */
    wasm_store_t *other_store = wasm_store_new(engine);
    wasm_foreign_t *alien = wasm_foreign_new(other_store);
    wasm_val_t aa[1] = {WASM_REF_VAL(wasm_foreign_as_ref(alien))};
    wasm_val_vec_t aav = WASM_ARRAY_VEC(aa);
    CHECK("a foreign of another store as an externref argument traps",
          strstr(check_trap_message(wasm_func_call(export_func(&exps, module, "ident"), &aav, &erv)), "same store") != NULL);
    wasm_func_t *alien_f = wasm_func_new(other_store, t_add, cb_add);
    CHECK("a function of another store in a table is refused", !wasm_table_set(t, 0, wasm_func_as_ref(alien_f)));
    wasm_func_delete(alien_f);
    wasm_foreign_delete(alien);
    wasm_store_delete(other_store);

    /* Memories. */
    wasm_val_t sa[2] = {WASM_I32_VAL(8), WASM_I32_VAL(0x01020304)};
    wasm_val_vec_t sav = WASM_ARRAY_VEC(sa);
    wasm_trap_delete(wasm_func_call(export_func(&exps, module, "store"), &sav, &nov));
    byte_t *data = wasm_memory_data(mem);
    CHECK("host sees wasm's store", data && data[8] == 4 && data[11] == 1);
    data[100] = 7;
    CHECK("wasm sees the host's write", call_i32(export_func(&exps, module, "load"), (wasm_val_t[]){WASM_I32_VAL(100)}, 1) == 7);
    CHECK("memory grow", wasm_memory_grow(mem, 1) && wasm_memory_size(mem) == 2 && wasm_memory_data(mem) == data);
    CHECK("memory grow past max fails", !wasm_memory_grow(mem, 1) && wasm_memory_size(mem) == 2);
    CHECK("memory.grow from wasm past max", call_i32(export_func(&exps, module, "grow"), (wasm_val_t[]){WASM_I32_VAL(1)}, 1) == -1);
    wasm_memorytype_t *mty = wasm_memory_type(mem);
    CHECK("memory type: current size, max", mty && wasm_memorytype_limits(mty)->min == 2 && wasm_memorytype_limits(mty)->max == 2);
    wasm_memorytype_delete(mty);

    /* Traps: the guest's, with origin and trace. */
    wasm_trap_t *tr = wasm_func_call(export_func(&exps, module, "unreachable"), &nov, &nov);
    wasm_message_t msg;
    wasm_trap_message(tr, &msg);
    CHECK("trap message is the spec's, NUL-terminated", msg.size == 12 && strcmp(msg.data, "unreachable") == 0);
    wasm_byte_vec_delete(&msg);
    wasm_frame_t *origin = wasm_trap_origin(tr);
    CHECK("origin: function 12, offset 1 (after the nop)", origin && wasm_frame_func_index(origin) == 12 &&
                                                             wasm_frame_func_offset(origin) == 1 &&
                                                             wasm_frame_module_offset(origin) > 1);
    CHECK("origin: the instance", origin && wasm_instance_same(wasm_frame_instance(origin), inst));
    wasm_frame_t *fc = wasm_frame_copy(origin);
    CHECK("frame copy", fc && wasm_frame_func_index(fc) == 12 && wasm_frame_module_offset(fc) == wasm_frame_module_offset(origin));
    wasm_frame_delete(fc);
    wasm_frame_delete(origin);
    wasm_frame_vec_t trace;
    wasm_trap_trace(tr, &trace);
    CHECK("trace of one frame", trace.size == 1);
    {
        wasm_frame_vec_t c;
        wasm_frame_vec_copy(&c, &trace);
        CHECK("frame vec copy", c.size == 1 && wasm_frame_func_index(c.data[0]) == 12);
        wasm_frame_vec_delete(&c);
        wasm_frame_vec_new_empty(&c);
        wasm_frame_vec_delete(&c);
        wasm_frame_vec_new_uninitialized(&c, 1);
        wasm_frame_vec_delete(&c);
        wasm_frame_t *fs[1] = {wasm_frame_copy(trace.data[0])};
        wasm_frame_vec_new(&c, 1, fs);
        CHECK("frame vec new", c.size == 1);
        wasm_frame_vec_delete(&c);
    }
    wasm_frame_vec_delete(&trace);
    wasm_trap_delete(tr);
    CHECK("divide by zero", strcmp(check_trap_message(wasm_func_call(export_func(&exps, module, "div"),
                                   &(wasm_val_vec_t){2, (wasm_val_t[]){WASM_I32_VAL(1), WASM_I32_VAL(0)}}, &rv1)),
                                   "integer divide by zero") == 0);
    tr = wasm_func_call(export_func(&exps, module, "deep"), &(wasm_val_vec_t){1, one}, &rv1);
    wasm_trap_trace(tr, &trace);
    CHECK("stack exhausted: a trace of weft's 32 frames", trace.size == 32);
    wasm_frame_vec_delete(&trace);
    CHECK("stack exhausted message", strcmp(check_trap_message(tr), "call stack exhausted") == 0);

    /* A host function's trap comes back as itself, with wasm's frames. */
    tr = wasm_func_call(export_func(&exps, module, "call_fail"), &nov, &nov);
    CHECK("host trap is the callback's own object", tr && wasm_trap_same(tr, fail_trap) &&
                                                         wasm_trap_get_host_info(tr) == &fail_info);
    origin = wasm_trap_origin(tr);
    CHECK("host trap origin: the wasm caller (function 5)", origin && wasm_frame_func_index(origin) == 5);
    wasm_frame_delete(origin);
    CHECK("host trap message", strcmp(check_trap_message(tr), "boom from the host") == 0);
    wasm_trap_delete(fail_trap);
    tr = wasm_func_call(f_fail, &nov, &nov);
    CHECK("host trap from a direct call", tr && wasm_trap_same(tr, fail_trap));
    origin = wasm_trap_origin(tr);
    CHECK("... has no wasm frame", origin == NULL);
    wasm_trap_delete(tr);
    wasm_trap_delete(fail_trap);
    wasm_trap_t *made = wasm_trap_new(store, NULL);
    wasm_trap_message(made, &msg);
    CHECK("trap of no message has just the NUL", msg.size == 1 && msg.data[0] == 0);
    wasm_byte_vec_delete(&msg);
    wasm_trap_trace(made, &trace);
    CHECK("made trap has no trace", trace.size == 0 && trace.data == NULL);
    wasm_frame_vec_delete(&trace);
    CHECK("a trap is not an exit", !weft_wasm_trap_exit_code(made, NULL));
    wasm_functype_t *t_wrong = wasm_functype_new_0_1(wasm_valtype_new_i32());
    wasm_func_t *f_wrong = wasm_func_new(store, t_wrong, cb_wrong);
    CHECK("host result of the wrong kind traps",
          strstr(check_trap_message(wasm_func_call(f_wrong, &nov, &rv1)), "result 0") != NULL);
    wasm_functype_delete(t_wrong);
    wasm_func_delete(f_wrong);

    /* Host info on every reference kind. */
    wasm_ref_t *other = wasm_trap_as_ref(made);
    CHECK_REF_KIND(func, f_add, other, 0);
    CHECK_REF_KIND(global, g, other, 0);
    CHECK_REF_KIND(table, t, other, 0);
    CHECK_REF_KIND(memory, mem, other, 0);
    CHECK_REF_KIND(instance, inst, other, 1);
    CHECK_REF_KIND(foreign, fo, other, 1);
    CHECK_REF_KIND(module, module, other, 2);
    CHECK_REF_KIND(extern, export_at(&exps, module, "tab"), other, 1);
    CHECK_REF_KIND(trap, made, wasm_foreign_as_ref(fo), 2);
    wasm_ref_t *rc = wasm_ref_copy(wasm_func_as_ref(f_add));
    CHECK("ref copy and same", wasm_ref_same(rc, wasm_func_as_ref(f_add)));
    wasm_ref_set_host_info_with_finalizer(rc, &finalized[0], fin);
    wasm_ref_set_host_info(rc, NULL); /* runs the finalizer: 5 so far on [0] */
    wasm_ref_delete(rc);
    CHECK("finalizers run when replaced", finalized[0] == 2);
    wasm_trap_delete(made); /* a trap goes with its last reference: finalizer [2] */
    CHECK("trap finalizer on its last delete", finalized[2] == 1);

    wasm_extern_vec_delete(&exps);
    wasm_instance_delete(inst);
    wasm_func_delete(f_add);
    wasm_func_delete(f_fail);
    wasm_global_delete(g);
    wasm_table_delete(t);
    wasm_functype_delete(t_add);
    wasm_functype_delete(t_fail);
    wasm_functype_delete(t_ident);
    /* Kept past the store: a husk that fails cleanly. */
    wasm_memory_t *kept = mem;
    wasm_foreign_delete(fo);
    wasm_func_t *kept_func = f_ident;
    CHECK("store objects' finalizers wait for the store", finalized[1] == 0 && finalized[3] == 0);
    wasm_store_delete(store);
    CHECK("store delete runs host-info finalizers (instance, foreign, extern)", finalized[1] == 3);
    CHECK("... and those of objects the host still holds", finalized[0] == 5);
    CHECK("... but not of a module it adopted", finalized[2] == 1);
    CHECK("store delete runs a host function's env finalizer", finalized[3] == 1);
    CHECK("memory of a deleted store: no data", wasm_memory_data(kept) == NULL && wasm_memory_size(kept) == 0 &&
                                                     !wasm_memory_grow(kept, 1));
    CHECK("call of a deleted store's function traps",
          strstr(check_trap_message(wasm_func_call(kept_func, &nov, &nov)), "live store") != NULL);
    wasm_memory_delete(kept);
    wasm_func_delete(kept_func);
    CHECK("module outlives its store", wasm_module_get_host_info(module) == &finalized[2]);
    wasm_module_delete(module);
    CHECK("module finalizer on its last delete", finalized[2] == 2);
    wasm_engine_delete(engine);
}

/* Start function traps, segments out of bounds. */
static void test_instantiation_traps(void) {
    wasm_engine_t *engine = wasm_engine_new();
    wasm_store_t *store = wasm_store_new(engine);
    const char *files[2] = {"tests/capi/wasm/start.wasm", "tests/capi/wasm/oob.wasm"};
    const char *want[2] = {"unreachable", "out of bounds memory access"};
    for (int i = 0; i < 2; i++) {
        wasm_byte_vec_t bin;
        check_read(files[i], &bin);
        wasm_module_t *m = wasm_module_new(store, &bin);
        wasm_byte_vec_delete(&bin);
        wasm_extern_vec_t none = WASM_EMPTY_VEC;
        wasm_trap_t *trap = NULL;
        wasm_instance_t *inst = wasm_instance_new(store, m, &none, &trap);
        CHECK("instantiation trap: no instance", inst == NULL && trap != NULL);
        if (i == 0) {
            wasm_frame_t *o = wasm_trap_origin(trap);
            CHECK("start trap: origin in function 0", o && wasm_frame_func_index(o) == 0);
            wasm_frame_delete(o);
        }
        CHECK(want[i], strcmp(check_trap_message(trap), want[i]) == 0);
        wasm_module_delete(m);
    }
    wasm_store_delete(store);
    wasm_engine_delete(engine);
}

/* WASI: fd_write to a pipe, proc_exit as an exit code. */
static int note_value = -1;
static wasm_trap_t *cb_note(const wasm_val_vec_t *args, wasm_val_vec_t *results) {
    (void)results;
    note_value = args->data[0].of.i32;
    return NULL;
}

static void test_wasi(void) {
    int fds[2];
    if (pipe(fds) != 0) {
        CHECK("pipe", 0);
        return;
    }
    weft_wasi_config wc;
    weft_wasi_config_init(&wc);
    wc.stdio[1] = fds[1];
    weft_wasi *wasi = NULL;
    weft_error err;
    CHECK("weft_wasi_new", weft_wasi_new(&wc, &wasi, &err) == WEFT_OK);
    wasm_engine_t *engine = wasm_engine_new();
    wasm_store_t *store = wasm_store_new(engine);
    wasm_byte_vec_t bin;
    check_read("tests/capi/wasm/wasi.wasm", &bin);
    wasm_module_t *m = wasm_module_new(store, &bin);
    wasm_byte_vec_delete(&bin);
    wasm_extern_vec_t imports;
    CHECK("no WASI defined: every import left", weft_wasi_imports(store, m, &imports) == 3);
    wasm_extern_vec_delete(&imports);
    CHECK("weft_wasi_define_store of NULL", weft_wasi_define_store(store, NULL, &err) == WEFT_ERR_MISUSE);
    CHECK("weft_wasi_define_store", weft_wasi_define_store(store, wasi, &err) == WEFT_OK);
    CHECK("WASI imports: one left for the host", weft_wasi_imports(store, m, &imports) == 1 && imports.size == 3 &&
                                                      imports.data[0] && !imports.data[1] && imports.data[2]);
    wasm_functype_t *nt = wasm_functype_new_1_0(wasm_valtype_new_i32());
    wasm_func_t *note = wasm_func_new(store, nt, cb_note);
    wasm_functype_delete(nt);
    imports.data[1] = wasm_func_as_extern(note); /* the vector owns it now */
    wasm_trap_t *trap = NULL;
    wasm_instance_t *inst = wasm_instance_new(store, m, &imports, &trap);
    CHECK("WASI instance", inst && !trap);
    wasm_extern_vec_t exps;
    wasm_instance_exports(inst, &exps);
    wasm_func_t *start = exps.size == 2 ? wasm_extern_as_func(exps.data[1]) : NULL;
    wasm_val_vec_t nov = WASM_EMPTY_VEC;
    trap = wasm_func_call(start, &nov, &nov);
    int32_t code = -1;
    CHECK("proc_exit(3) is an exit trap with code 3", trap && weft_wasm_trap_exit_code(trap, &code) && code == 3);
    wasm_trap_delete(trap);
    char buf[64] = {0};
    ssize_t n = read(fds[0], buf, sizeof buf - 1);
    CHECK("fd_write reached the host's fd", n == 11 && strcmp(buf, "hello wasi\n") == 0);
    CHECK("fd_write reported 11 bytes", note_value == 11);
    wasm_extern_vec_delete(&exps);
    wasm_extern_vec_delete(&imports);
    wasm_instance_delete(inst);
    wasm_module_delete(m);
    wasm_store_delete(store);
    wasm_engine_delete(engine);
    weft_wasi_free(wasi);
    close(fds[0]);
    close(fds[1]);
}

int main(void) {
    test_basic();
    test_instantiation_traps();
    test_wasi();
    return check_done();
}
