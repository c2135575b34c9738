/* strict_test.c — what wasm.h used to accept quietly (issue 39):
   - a results vector of another size than the function's result count
     (shorter: the results were dropped; longer: ignored) is now a trap
     saying so, on the numbers-only fast path and the general one, and the
     function does not run;
   - a serialized module altered after wasm_module_serialize (here one byte
     of an export name, which still makes a valid module), truncated, of
     another format or weft version, is refused by wasm_module_deserialize,
     and weft_wasm_module_deserialize says why. */
#include "check.h"

static wasm_func_t *export_func(const wasm_instance_t *inst, const wasm_module_t *m, const char *name,
                                wasm_extern_vec_t *exps) {
    wasm_exporttype_vec_t types;
    wasm_module_exports(m, &types);
    wasm_func_t *f = NULL;
    for (size_t i = 0; i < types.size && i < exps->size; i++) {
        const wasm_name_t *n = wasm_exporttype_name(types.data[i]);
        if (n->size == strlen(name) && memcmp(n->data, name, n->size) == 0) f = wasm_extern_as_func(exps->data[i]);
    }
    wasm_exporttype_vec_delete(&types);
    (void)inst;
    return f;
}

static int32_t count_calls(const wasm_func_t *count) {
    wasm_val_t r[1] = {WASM_INIT_VAL};
    wasm_val_vec_t none = WASM_EMPTY_VEC, rv = WASM_ARRAY_VEC(r);
    wasm_trap_t *t = wasm_func_call(count, &none, &rv);
    if (t) {
        wasm_trap_delete(t);
        return -1;
    }
    return r[0].of.i32;
}

static void test_results(wasm_store_t *store, const wasm_module_t *mod) {
    wasm_extern_vec_t none_imports = WASM_EMPTY_VEC;
    wasm_instance_t *inst = wasm_instance_new(store, mod, &none_imports, NULL);
    CHECK("the guest instantiates", inst != NULL);
    wasm_extern_vec_t exps;
    wasm_instance_exports(inst, &exps);
    const wasm_func_t *two = export_func(inst, mod, "two", &exps);
    const wasm_func_t *ref = export_func(inst, mod, "ref", &exps);
    const wasm_func_t *count = export_func(inst, mod, "count", &exps);
    wasm_val_vec_t none = WASM_EMPTY_VEC;
    wasm_val_t r[3] = {WASM_INIT_VAL, WASM_INIT_VAL, WASM_INIT_VAL};

    for (size_t n = 0; n <= 3; n++) {
        if (n == 2) continue;
        wasm_val_vec_t rv = {n, n ? r : NULL};
        const char *msg = check_trap_message(wasm_func_call(two, &none, &rv));
        char want[120], name[120];
        snprintf(want, sizeof want, "wasm_func_call: a results vector of size %zu for a function of 2 results", n);
        snprintf(name, sizeof name, "two() with %zu result places traps saying so", n);
        CHECK(name, strstr(msg, want) != NULL);
    }
    CHECK("a refused call does not run", count_calls(count) == 0);
    wasm_val_vec_t rv2 = {2, r};
    wasm_trap_t *t = wasm_func_call(two, &none, &rv2);
    CHECK("two() with 2 places returns both", !t && r[0].of.i32 == 7 && r[1].of.i64 == 8);
    if (t) wasm_trap_delete(t);
    CHECK("and ran once", count_calls(count) == 1);

    /* The general path (a reference result). */
    wasm_val_vec_t rv0 = WASM_EMPTY_VEC;
    const char *msg = check_trap_message(wasm_func_call(ref, &none, &rv0));
    CHECK("ref() with no result place traps saying so",
          strstr(msg, "a results vector of size 0 for a function of 1 results") != NULL);
    CHECK("ref() refused did not run", count_calls(count) == 1);
    wasm_val_vec_t rv1 = {1, r};
    t = wasm_func_call(ref, &none, &rv1);
    CHECK("ref() with its place returns null", !t && r[0].kind == WASM_EXTERNREF && r[0].of.ref == NULL);
    if (t) wasm_trap_delete(t);

    wasm_extern_vec_delete(&exps);
    wasm_instance_delete(inst);
}

/* Deserializes `bytes`: CHECKs it is refused by both calls, with `says`
   in the reason. */
static void refused(wasm_store_t *store, const wasm_byte_vec_t *bytes, const char *what, const char *says) {
    char name[200];
    wasm_module_t *m = wasm_module_deserialize(store, bytes);
    snprintf(name, sizeof name, "%s: wasm_module_deserialize refuses it", what);
    CHECK(name, m == NULL);
    wasm_module_delete(m);
    weft_error err;
    m = weft_wasm_module_deserialize(store, bytes, &err);
    snprintf(name, sizeof name, "%s: weft_wasm_module_deserialize says \"%s\"", what, says);
    CHECK(name, m == NULL && err.status == WEFT_ERR_MALFORMED && strstr(err.message, says) != NULL);
    if (!strstr(err.message, says)) printf("  got: %s\n", err.message);
    wasm_module_delete(m);
}

static void test_serialize(wasm_store_t *store, const wasm_module_t *mod, const wasm_byte_vec_t *binary) {
    wasm_byte_vec_t ser, bad;
    wasm_module_serialize(mod, &ser);
    CHECK("serialized", ser.size > binary->size);
    weft_error err;
    wasm_module_t *back = weft_wasm_module_deserialize(store, &ser, &err);
    CHECK("taken back whole", back != NULL);
    wasm_module_delete(back);

    /* One byte of the export name "count" changed: the module inside is
       still valid (it loads by itself), only the checksum tells. */
    wasm_byte_vec_copy(&bad, &ser);
    size_t at = 0;
    for (size_t i = 0; i + 5 <= bad.size; i++)
        if (memcmp(bad.data + i, "count", 5) == 0) at = i;
    CHECK("the export name is in the serialized bytes", at > 0);
    bad.data[at] = 'C';
    size_t header = ser.size - binary->size;
    wasm_byte_vec_t inner = {binary->size, bad.data + header};
    wasm_module_t *still = wasm_module_new(store, &inner);
    CHECK("the altered module is still valid", still != NULL);
    wasm_module_delete(still);
    refused(store, &bad, "an export name altered", "checksum mismatch");
    wasm_byte_vec_delete(&bad);

    wasm_byte_vec_copy(&bad, &ser);
    bad.size--;
    refused(store, &bad, "one byte short", "truncated or padded");
    bad.size++;
    wasm_byte_vec_delete(&bad);

    wasm_byte_vec_copy(&bad, &ser);
    bad.data[8] = 1; /* format 1: no checksum */
    refused(store, &bad, "format 1", "serialized in format 1");
    wasm_byte_vec_delete(&bad);

    wasm_byte_vec_copy(&bad, &ser);
    memcpy(bad.data + 20, "0.0.1-other\0", 12);
    refused(store, &bad, "another weft version", "serialized by weft 0.0.1-other");
    wasm_byte_vec_delete(&bad);

    refused(store, binary, "a plain binary", "not bytes made by wasm_module_serialize");
    wasm_byte_vec_delete(&ser);
}

int main(void) {
    wasm_byte_vec_t binary;
    check_read("tests/capi/wasm/results.wasm", &binary);
    wasm_engine_t *engine = wasm_engine_new();
    wasm_store_t *store = wasm_store_new(engine);
    wasm_module_t *mod = wasm_module_new(store, &binary);
    CHECK("the guest loads", mod != NULL);
    if (!mod) return check_done();
    test_results(store, mod);
    test_serialize(store, mod, &binary);
    wasm_module_delete(mod);
    wasm_store_delete(store);
    wasm_engine_delete(engine);
    wasm_byte_vec_delete(&binary);
    return check_done();
}
