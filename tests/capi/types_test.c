/* types_test.c — wasm.h without running code: vectors of every element
   type (empty, zero-length, filled, copied), value types, function,
   global, table, memory, extern, import and export types and their
   conversions, values, configs and engines, and modules (validate, new,
   imports, exports, serialize, share/obtain). Every owned result is deleted
   once: the ASan build (LeakSanitizer) finds anything left over. */
#include "check.h"

/* ---- vectors ---- */

/* Checks the five functions of a vector of owned pointers; `make` makes one
   new element. */
#define CHECK_PTR_VEC(name, make)                                                          \
    do {                                                                                   \
        wasm_##name##_vec_t e, u, v, c, ce;                                                \
        wasm_##name##_vec_new_empty(&e);                                                   \
        CHECK(#name " vec new_empty is size 0, data NULL", e.size == 0 && e.data == NULL); \
        wasm_##name##_vec_new_uninitialized(&u, 0);                                        \
        CHECK(#name " vec of 0 is empty", u.size == 0 && u.data == NULL);                  \
        wasm_##name##_vec_delete(&u);                                                      \
        wasm_##name##_vec_new_uninitialized(&u, 3);                                        \
        CHECK(#name " vec uninitialized holds NULLs",                                      \
              u.size == 3 && !u.data[0] && !u.data[1] && !u.data[2]);                      \
        wasm_##name##_vec_delete(&u);                                                      \
        CHECK(#name " vec delete empties", u.size == 0 && u.data == NULL);                 \
        wasm_##name##_t *elems[2] = {make, make};                                          \
        wasm_##name##_vec_new(&v, 2, elems);                                               \
        CHECK(#name " vec new takes the elements", v.size == 2 && v.data[0] == elems[0]);  \
        wasm_##name##_vec_copy(&c, &v);                                                    \
        CHECK(#name " vec copy has copies", c.size == 2 && c.data[0] && c.data[1]);        \
        wasm_##name##_vec_copy(&ce, &e);                                                   \
        CHECK(#name " vec copy of empty is empty", ce.size == 0);                          \
        wasm_##name##_vec_delete(&v);                                                      \
        wasm_##name##_vec_delete(&c);                                                      \
        wasm_##name##_vec_delete(&ce);                                                     \
        wasm_##name##_vec_delete(&e);                                                      \
        wasm_##name##_vec_delete(NULL);                                                    \
    } while (0)

static wasm_externtype_t *make_externtype(void) {
    wasm_limits_t l = {1, 2};
    return wasm_memorytype_as_externtype(wasm_memorytype_new(&l));
}

static wasm_importtype_t *make_importtype(void) {
    wasm_name_t m, n;
    wasm_name_new_from_string(&m, "env");
    wasm_name_new_from_string(&n, "f");
    return wasm_importtype_new(&m, &n, wasm_functype_as_externtype(wasm_functype_new_0_0()));
}

static wasm_exporttype_t *make_exporttype(void) {
    wasm_name_t n;
    wasm_name_new_from_string(&n, "g");
    return wasm_exporttype_new(&n, wasm_globaltype_as_externtype(
                                       wasm_globaltype_new(wasm_valtype_new_i64(), WASM_VAR)));
}

static wasm_globaltype_t *make_globaltype(void) {
    return wasm_globaltype_new(wasm_valtype_new_f32(), WASM_CONST);
}

static wasm_tabletype_t *make_tabletype(void) {
    wasm_limits_t l = {0, wasm_limits_max_default};
    return wasm_tabletype_new(wasm_valtype_new_funcref(), &l);
}

static wasm_memorytype_t *make_memorytype(void) {
    wasm_limits_t l = {0, 1};
    return wasm_memorytype_new(&l);
}

static void test_byte_and_val_vecs(void) {
    wasm_byte_vec_t b, c, e;
    wasm_byte_vec_new_empty(&e);
    CHECK("byte vec empty", e.size == 0 && e.data == NULL);
    wasm_byte_vec_new(&b, 3, "abc");
    CHECK("byte vec new copies", b.size == 3 && memcmp(b.data, "abc", 3) == 0);
    wasm_byte_vec_copy(&c, &b);
    CHECK("byte vec copy", c.size == 3 && c.data != b.data && memcmp(c.data, "abc", 3) == 0);
    wasm_byte_vec_delete(&c);
    wasm_byte_vec_new_uninitialized(&c, 0);
    CHECK("byte vec of 0", c.size == 0);
    wasm_byte_vec_delete(&c);
    wasm_byte_vec_copy(&c, &e);
    CHECK("byte vec copy of empty", c.size == 0 && c.data == NULL);
    wasm_byte_vec_delete(&c);
    wasm_byte_vec_delete(&b);
    wasm_byte_vec_delete(&e);

    wasm_name_t n;
    wasm_name_new_from_string(&n, "hi");
    CHECK("name from string has no NUL", n.size == 2);
    wasm_name_delete(&n);
    wasm_name_new_from_string_nt(&n, "hi");
    CHECK("name from string_nt counts the NUL", n.size == 3 && n.data[2] == 0);
    wasm_name_delete(&n);

    wasm_val_t vals[2] = {WASM_I32_VAL(1), WASM_F64_VAL(2.5)};
    wasm_val_vec_t v, vc, ve;
    wasm_val_vec_new(&v, 2, vals);
    CHECK("val vec new", v.size == 2 && v.data[1].kind == WASM_F64 && v.data[1].of.f64 == 2.5);
    wasm_val_vec_copy(&vc, &v);
    CHECK("val vec copy", vc.size == 2 && vc.data[0].of.i32 == 1);
    wasm_val_vec_new_empty(&ve);
    CHECK("val vec empty", ve.size == 0 && ve.data == NULL);
    wasm_val_vec_delete(&ve);
    wasm_val_vec_new_uninitialized(&ve, 0);
    CHECK("val vec of 0", ve.size == 0);
    wasm_val_vec_delete(&ve);
    wasm_val_vec_delete(&v);
    wasm_val_vec_delete(&vc);
}

/* ---- types ---- */

static void test_types(void) {
    for (wasm_valkind_t k = 0; k <= 4; k++) {
        wasm_valtype_t *t = wasm_valtype_new(k);
        CHECK("valtype new/kind (numbers)", t && wasm_valtype_kind(t) == k && wasm_valtype_is_num(t));
        wasm_valtype_delete(t);
    }
    wasm_valtype_t *ext = wasm_valtype_new_externref(), *fun = wasm_valtype_new_funcref();
    CHECK("valtype externref/funcref are refs",
          wasm_valtype_is_ref(ext) && wasm_valtype_kind(fun) == WASM_FUNCREF && !wasm_valkind_is_num(WASM_FUNCREF));
    wasm_valtype_t *copy = wasm_valtype_copy(ext);
    CHECK("valtype copy", copy && copy != ext && wasm_valtype_kind(copy) == WASM_EXTERNREF);
    CHECK("valtype of an unknown kind is NULL", wasm_valtype_new(77) == NULL);
    CHECK("valkind_is_ref", wasm_valkind_is_ref(WASM_EXTERNREF) && !wasm_valkind_is_ref(WASM_I64));
    wasm_valtype_delete(copy);
    wasm_valtype_delete(ext);
    wasm_valtype_delete(fun);
    wasm_valtype_delete(NULL);
    wasm_valtype_t *i64 = wasm_valtype_new_i64(), *f32 = wasm_valtype_new_f32(), *f64 = wasm_valtype_new_f64();
    CHECK("valtype shorthands", wasm_valtype_kind(i64) == WASM_I64 && wasm_valtype_kind(f32) == WASM_F32 &&
                                    wasm_valtype_kind(f64) == WASM_F64);
    wasm_valtype_delete(i64);
    wasm_valtype_delete(f32);
    wasm_valtype_delete(f64);

    /* Function types, and every shorthand's arities. */
    wasm_functype_t *ft = wasm_functype_new_2_1(wasm_valtype_new_i32(), wasm_valtype_new_f64(),
                                                wasm_valtype_new_i64());
    const wasm_valtype_vec_t *ps = wasm_functype_params(ft), *rs = wasm_functype_results(ft);
    CHECK("functype params/results", ps->size == 2 && rs->size == 1 && wasm_valtype_kind(ps->data[1]) == WASM_F64 &&
                                         wasm_valtype_kind(rs->data[0]) == WASM_I64);
    wasm_functype_t *ftc = wasm_functype_copy(ft);
    CHECK("functype copy is deep", ftc && wasm_functype_params(ftc)->data[0] != ps->data[0] &&
                                       wasm_functype_params(ftc)->size == 2);
    wasm_functype_delete(ftc);
    wasm_functype_delete(ft);
    struct { wasm_functype_t *t; size_t np, nr; } shorts[] = {
        {wasm_functype_new_0_0(), 0, 0},
        {wasm_functype_new_1_0(wasm_valtype_new_i32()), 1, 0},
        {wasm_functype_new_2_0(wasm_valtype_new_i32(), wasm_valtype_new_i32()), 2, 0},
        {wasm_functype_new_3_0(wasm_valtype_new_i32(), wasm_valtype_new_i32(), wasm_valtype_new_i32()), 3, 0},
        {wasm_functype_new_0_1(wasm_valtype_new_i32()), 0, 1},
        {wasm_functype_new_1_1(wasm_valtype_new_i32(), wasm_valtype_new_i32()), 1, 1},
        {wasm_functype_new_3_1(wasm_valtype_new_i32(), wasm_valtype_new_i32(), wasm_valtype_new_i32(),
                               wasm_valtype_new_i32()), 3, 1},
        {wasm_functype_new_0_2(wasm_valtype_new_i32(), wasm_valtype_new_i32()), 0, 2},
        {wasm_functype_new_1_2(wasm_valtype_new_i32(), wasm_valtype_new_i32(), wasm_valtype_new_i32()), 1, 2},
        {wasm_functype_new_2_2(wasm_valtype_new_i32(), wasm_valtype_new_i32(), wasm_valtype_new_i32(),
                               wasm_valtype_new_i32()), 2, 2},
        {wasm_functype_new_3_2(wasm_valtype_new_i32(), wasm_valtype_new_i32(), wasm_valtype_new_i32(),
                               wasm_valtype_new_i32(), wasm_valtype_new_i32()), 3, 2},
    };
    for (size_t i = 0; i < sizeof shorts / sizeof *shorts; i++) {
        CHECK("functype shorthand arities", shorts[i].t && wasm_functype_params(shorts[i].t)->size == shorts[i].np &&
                                                wasm_functype_results(shorts[i].t)->size == shorts[i].nr);
        wasm_functype_delete(shorts[i].t);
    }
    /* A vector holding a NULL element is refused (and consumed). */
    wasm_valtype_vec_t bad, none;
    wasm_valtype_vec_new_uninitialized(&bad, 1);
    wasm_valtype_vec_new_empty(&none);
    CHECK("functype with a NULL param is NULL", wasm_functype_new(&bad, &none) == NULL);

    /* Globals, tables, memories. */
    wasm_globaltype_t *gt = wasm_globaltype_new(wasm_valtype_new_f32(), WASM_VAR);
    CHECK("globaltype content/mutability", wasm_valtype_kind(wasm_globaltype_content(gt)) == WASM_F32 &&
                                               wasm_globaltype_mutability(gt) == WASM_VAR);
    wasm_globaltype_t *gtc = wasm_globaltype_copy(gt);
    CHECK("globaltype copy", gtc && wasm_globaltype_mutability(gtc) == WASM_VAR);
    wasm_globaltype_delete(gtc);
    wasm_limits_t lim = {2, 9};
    wasm_tabletype_t *tt = wasm_tabletype_new(wasm_valtype_new_externref(), &lim);
    CHECK("tabletype element/limits", wasm_valtype_kind(wasm_tabletype_element(tt)) == WASM_EXTERNREF &&
                                          wasm_tabletype_limits(tt)->min == 2 && wasm_tabletype_limits(tt)->max == 9);
    wasm_tabletype_t *ttc = wasm_tabletype_copy(tt);
    CHECK("tabletype copy", ttc && wasm_tabletype_limits(ttc)->max == 9);
    wasm_tabletype_delete(ttc);
    CHECK("tabletype of a number type is NULL", wasm_tabletype_new(wasm_valtype_new_i32(), &lim) == NULL);
    wasm_memorytype_t *mt = wasm_memorytype_new(&lim);
    CHECK("memorytype limits", wasm_memorytype_limits(mt)->min == 2 && wasm_memorytype_limits(mt)->max == 9 &&
                                   !weft_wasm_memorytype_shared(mt));
    wasm_memorytype_t *mtc = wasm_memorytype_copy(mt);
    CHECK("memorytype copy", mtc && wasm_memorytype_limits(mtc)->min == 2);
    wasm_memorytype_delete(mtc);
    wasm_memorytype_t *smt = weft_wasm_memorytype_new_shared(&lim);
    CHECK("shared memorytype", smt && weft_wasm_memorytype_shared(smt));
    wasm_limits_t nomax = {1, wasm_limits_max_default};
    CHECK("shared memorytype needs a maximum", weft_wasm_memorytype_new_shared(&nomax) == NULL);
    wasm_memorytype_delete(smt);

    /* Extern types: the conversions give the same object or NULL. */
    wasm_functype_t *f0 = wasm_functype_new_0_0();
    wasm_externtype_t *ef = wasm_functype_as_externtype(f0);
    wasm_externtype_t *eg = wasm_globaltype_as_externtype(gt);
    wasm_externtype_t *et = wasm_tabletype_as_externtype(tt);
    wasm_externtype_t *em = wasm_memorytype_as_externtype(mt);
    CHECK("externtype kinds", wasm_externtype_kind(ef) == WASM_EXTERN_FUNC &&
                                  wasm_externtype_kind(eg) == WASM_EXTERN_GLOBAL &&
                                  wasm_externtype_kind(et) == WASM_EXTERN_TABLE &&
                                  wasm_externtype_kind(em) == WASM_EXTERN_MEMORY);
    CHECK("externtype as_X round trip", wasm_externtype_as_functype(ef) == f0 && wasm_externtype_as_globaltype(eg) == gt &&
                                            wasm_externtype_as_tabletype(et) == tt &&
                                            wasm_externtype_as_memorytype(em) == mt);
    CHECK("externtype as_X of another kind is NULL",
          !wasm_externtype_as_functype(eg) && !wasm_externtype_as_globaltype(ef) &&
              !wasm_externtype_as_tabletype(em) && !wasm_externtype_as_memorytype(et));
    CHECK("externtype const conversions",
          wasm_functype_as_externtype_const(f0) == ef && wasm_globaltype_as_externtype_const(gt) == eg &&
              wasm_tabletype_as_externtype_const(tt) == et && wasm_memorytype_as_externtype_const(mt) == em &&
              wasm_externtype_as_functype_const(ef) == f0 && wasm_externtype_as_globaltype_const(eg) == gt &&
              wasm_externtype_as_tabletype_const(et) == tt && wasm_externtype_as_memorytype_const(em) == mt &&
              !wasm_externtype_as_functype_const(em));
    wasm_externtype_t *ec = wasm_externtype_copy(et);
    CHECK("externtype copy keeps the kind", ec && wasm_externtype_kind(ec) == WASM_EXTERN_TABLE && ec != et);
    wasm_externtype_delete(ec);
    wasm_externtype_delete(ef);
    wasm_externtype_delete(eg);
    wasm_externtype_delete(et);
    wasm_externtype_delete(em);

    /* Import and export types. */
    wasm_importtype_t *it = make_importtype();
    CHECK("importtype module/name/type", wasm_importtype_module(it)->size == 3 &&
                                             memcmp(wasm_importtype_name(it)->data, "f", 1) == 0 &&
                                             wasm_externtype_kind(wasm_importtype_type(it)) == WASM_EXTERN_FUNC);
    wasm_importtype_t *itc = wasm_importtype_copy(it);
    CHECK("importtype copy", itc && wasm_importtype_name(itc)->size == 1);
    wasm_importtype_delete(itc);
    wasm_importtype_delete(it);
    wasm_exporttype_t *xt = make_exporttype();
    CHECK("exporttype name/type", wasm_exporttype_name(xt)->size == 1 &&
                                      wasm_externtype_kind(wasm_exporttype_type(xt)) == WASM_EXTERN_GLOBAL);
    wasm_exporttype_t *xtc = wasm_exporttype_copy(xt);
    CHECK("exporttype copy", xtc && wasm_exporttype_name(xtc)->data[0] == 'g');
    wasm_exporttype_delete(xtc);
    wasm_exporttype_delete(xt);

    CHECK_PTR_VEC(valtype, wasm_valtype_new_i32());
    CHECK_PTR_VEC(functype, wasm_functype_new_0_0());
    CHECK_PTR_VEC(globaltype, make_globaltype());
    CHECK_PTR_VEC(tabletype, make_tabletype());
    CHECK_PTR_VEC(memorytype, make_memorytype());
    CHECK_PTR_VEC(externtype, make_externtype());
    CHECK_PTR_VEC(importtype, make_importtype());
    CHECK_PTR_VEC(exporttype, make_exporttype());
}

/* ---- values ---- */

static void test_values(void) {
    wasm_val_t v = WASM_I64_VAL(-5), c;
    wasm_val_copy(&c, &v);
    CHECK("val copy of a number", c.kind == WASM_I64 && c.of.i64 == -5);
    wasm_val_delete(&c);
    wasm_val_t f = WASM_F32_VAL(1.5f), n = WASM_INIT_VAL, r = WASM_REF_VAL(NULL);
    CHECK("val initialisers", f.kind == WASM_F32 && f.of.f32 == 1.5f && n.kind == WASM_EXTERNREF && !n.of.ref &&
                                  r.of.ref == NULL);
    wasm_val_copy(&c, &r);
    CHECK("val copy of a null ref", c.kind == WASM_EXTERNREF && c.of.ref == NULL);
    wasm_val_delete(&c);
    int x;
    wasm_val_init_ptr(&c, &x);
    CHECK("val pointers", wasm_val_ptr(&c) == &x);
}

/* ---- config, engine, store, modules ---- */

static void test_modules(void) {
    wasm_config_t *config = wasm_config_new();
    weft_config wc = {0};
    wc.max_call_depth = 500;
    weft_wasm_config_set(config, &wc);
    wasm_engine_t *engine = wasm_engine_new_with_config(config);
    CHECK("engine with config", engine != NULL && weft_wasm_engine(engine) != NULL);
    wasm_engine_t *plain = wasm_engine_new();
    CHECK("engine", plain != NULL);
    wasm_engine_delete(plain);
    wasm_config_delete(wasm_config_new());
    CHECK("store of no engine is NULL", wasm_store_new(NULL) == NULL);
    wasm_store_t *store = wasm_store_new(engine);
    CHECK("store", store && weft_wasm_store(store));

    wasm_byte_vec_t bin;
    check_read("tests/capi/wasm/basic.wasm", &bin);
    CHECK("validate a valid module", wasm_module_validate(store, &bin));
    wasm_byte_vec_t junk, empty;
    wasm_byte_vec_new(&junk, 9, "\0asm\1\0\0\0\x01");
    wasm_byte_vec_new_empty(&empty);
    CHECK("validate junk", !wasm_module_validate(store, &junk));
    CHECK("validate zero bytes", !wasm_module_validate(store, &empty));
    CHECK("module of junk is NULL", wasm_module_new(store, &junk) == NULL);
    CHECK("module of NULL is NULL", wasm_module_new(store, NULL) == NULL && wasm_module_new(NULL, &bin) == NULL);
    weft_error err;
    CHECK("weft_wasm_module_new says why",
          weft_wasm_module_new(store, &junk, &err) == NULL && err.status == WEFT_ERR_MALFORMED && err.message[0]);
    wasm_byte_vec_delete(&junk);

    wasm_module_t *m = wasm_module_new(store, &bin);
    CHECK("module new", m && weft_wasm_module(m));
    wasm_importtype_vec_t imps;
    wasm_module_imports(m, &imps);
    CHECK("imports: 6 in order", imps.size == 6 &&
                                     memcmp(wasm_importtype_name(imps.data[0])->data, "add", 3) == 0 &&
                                     memcmp(wasm_importtype_module(imps.data[0])->data, "env", 3) == 0);
    if (imps.size == 6) {
        const wasm_externtype_t *t3 = wasm_importtype_type(imps.data[3]);
        const wasm_globaltype_t *g = wasm_externtype_as_globaltype_const(t3);
        CHECK("import 3 is a (mut i32) global", g && wasm_globaltype_mutability(g) == WASM_VAR &&
                                                    wasm_valtype_kind(wasm_globaltype_content(g)) == WASM_I32);
        const wasm_tabletype_t *t = wasm_externtype_as_tabletype_const(wasm_importtype_type(imps.data[4]));
        CHECK("import 4 is a table 2 funcref", t && wasm_tabletype_limits(t)->min == 2 &&
                                                   wasm_tabletype_limits(t)->max == wasm_limits_max_default &&
                                                   wasm_valtype_kind(wasm_tabletype_element(t)) == WASM_FUNCREF);
        const wasm_memorytype_t *mt = wasm_externtype_as_memorytype_const(wasm_importtype_type(imps.data[5]));
        CHECK("import 5 is a memory 1 2", mt && wasm_memorytype_limits(mt)->min == 1 &&
                                              wasm_memorytype_limits(mt)->max == 2);
        const wasm_functype_t *ft = wasm_externtype_as_functype_const(wasm_importtype_type(imps.data[2]));
        CHECK("import 2 is externref -> externref",
              ft && wasm_valtype_kind(wasm_functype_params(ft)->data[0]) == WASM_EXTERNREF);
    }
    wasm_importtype_vec_delete(&imps);
    wasm_exporttype_vec_t exps;
    wasm_module_exports(m, &exps);
    bool simd_seen = false;
    for (size_t i = 0; i < exps.size; i++) {
        const wasm_name_t *n = wasm_exporttype_name(exps.data[i]);
        if (n->size == 4 && memcmp(n->data, "simd", 4) == 0) {
            const wasm_functype_t *ft = wasm_externtype_as_functype_const(wasm_exporttype_type(exps.data[i]));
            simd_seen = ft && wasm_valtype_kind(wasm_functype_params(ft)->data[0]) == WASM_V128;
        }
    }
    CHECK("exports: all of them, v128 as WASM_V128", exps.size == 25 && simd_seen);
    wasm_exporttype_vec_delete(&exps);

    /* Serialize: deserializing gives a module with the same exports;
       anything else is refused. */
    wasm_byte_vec_t ser;
    wasm_module_serialize(m, &ser);
    CHECK("serialize", ser.size > bin.size);
    wasm_module_t *d = wasm_module_deserialize(store, &ser);
    wasm_exporttype_vec_t dexps;
    wasm_module_exports(d, &dexps);
    CHECK("deserialize", d && dexps.size == 25);
    wasm_exporttype_vec_delete(&dexps);
    wasm_module_delete(d);
    CHECK("deserialize of a plain binary is NULL", wasm_module_deserialize(store, &bin) == NULL);
    ser.data[ser.size - 1] ^= 0x55; /* the binary no longer valid, or a different one */
    ser.data[12] ^= 1;              /* the length no longer matches */
    CHECK("deserialize of damaged bytes is NULL", wasm_module_deserialize(store, &ser) == NULL);
    CHECK("deserialize of nothing is NULL", wasm_module_deserialize(store, &empty) == NULL);
    wasm_byte_vec_delete(&ser);

    /* Share and obtain in another store. */
    wasm_shared_module_t *sh = wasm_module_share(m);
    wasm_store_t *store2 = wasm_store_new(engine);
    wasm_module_t *m2 = wasm_module_obtain(store2, sh);
    CHECK("obtain gives the same compiled module", m2 && weft_wasm_module(m2) == weft_wasm_module(m));
    CHECK("obtain of NULL is NULL", wasm_module_obtain(store2, NULL) == NULL && wasm_module_share(NULL) == NULL);
    wasm_shared_module_delete(sh);
    wasm_module_delete(m); /* m2 keeps the weft module */
    wasm_importtype_vec_t imps2;
    wasm_module_imports(m2, &imps2);
    CHECK("obtained module outlives the original", imps2.size == 6);
    wasm_importtype_vec_delete(&imps2);

    /* Module references: copy, same, host info. */
    int info = 0;
    wasm_module_t *m3 = wasm_module_copy(m2);
    wasm_module_set_host_info(m2, &info);
    CHECK("module copy is the same module with its host info",
          wasm_module_same(m2, m3) && wasm_module_get_host_info(m3) == &info);
    wasm_module_delete(m3);
    wasm_module_delete(m2);
    wasm_store_delete(store2);
    wasm_byte_vec_delete(&bin);
    wasm_byte_vec_delete(&empty);
    wasm_store_delete(store);
    wasm_store_delete(NULL);
    wasm_engine_delete(engine);
    wasm_engine_delete(NULL);
}

int main(void) {
    test_byte_and_val_vecs();
    test_types();
    test_values();
    test_modules();
    return check_done();
}
