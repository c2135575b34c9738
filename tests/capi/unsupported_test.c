/* unsupported_test.c — binaries weft does not run, told by what they are
   (issue 39): a WebAssembly component given to the core module loader,
   and a module that uses the GC proposal in any of its forms (struct,
   array, rec and sub types; GC heap types in value types, in short and
   long form; a 0xFB instruction, met at load whether bodies are
   translated lazily or eagerly). Each is refused by weft_module_load
   (weft.h) and by weft_wasm_module_new (wasm.h) with the one message
   that names what is missing; before, they read "unknown binary
   version", "malformed function type 0x5f" and "illegal opcode 0xfb". */
#include "check.h"

#define HDR 0x00, 'a', 's', 'm', 0x01, 0x00, 0x00, 0x00
/* A type section of one type: `form` and its bytes (n in all). */
#define TYPES(n, ...) HDR, 0x01, (n) + 1, 0x01, __VA_ARGS__

static const uint8_t component[] = {0x00, 'a', 's', 'm', 0x0d, 0x00, 0x01, 0x00};
static const uint8_t gc_struct[] = {TYPES(2, 0x5F, 0x00)};           /* (struct) */
static const uint8_t gc_array[] = {TYPES(3, 0x5E, 0x7F, 0x00)};      /* (array i32) */
static const uint8_t gc_rec[] = {TYPES(5, 0x4E, 0x01, 0x60, 0x00, 0x00)};   /* (rec (func)) */
static const uint8_t gc_sub[] = {TYPES(5, 0x50, 0x00, 0x60, 0x00, 0x00)};   /* (sub (func)) */
static const uint8_t gc_final[] = {TYPES(5, 0x4F, 0x00, 0x60, 0x00, 0x00)}; /* (sub final (func)) */
static const uint8_t gc_anyref[] = {TYPES(4, 0x60, 0x01, 0x6E, 0x00)};      /* (func (param anyref)) */
static const uint8_t gc_refany[] = {TYPES(5, 0x60, 0x01, 0x63, 0x6E, 0x00)}; /* (ref null any) */
static const uint8_t gc_refi31[] = {TYPES(5, 0x60, 0x01, 0x64, 0x6C, 0x00)}; /* (ref i31) */
/* (func (drop (ref.i31 (i32.const 0)))): 0xFB 0x1C */
static const uint8_t gc_instr[] = {HDR, 0x01, 0x04, 0x01, 0x60, 0x00, 0x00, 0x03, 0x02, 0x01, 0x00,
                                   0x0A, 0x09, 0x01, 0x07, 0x00, 0x41, 0x00, 0xFB, 0x1C, 0x1A, 0x0B};

static const struct {
    const char *name;
    const uint8_t *bytes;
    size_t len;
    const char *says; /* the message contains it */
} cases[] = {
    {"a component", component, sizeof component,
     "this is a WebAssembly component (component model, binary version 0x0d, layer 1), not a core module: "
     "weft_module_load takes core modules only; load a component with weft_component_load"},
    {"a struct type", gc_struct, sizeof gc_struct, "type 0 is a struct type (0x5f): it needs the GC proposal"},
    {"an array type", gc_array, sizeof gc_array, "type 0 is an array type (0x5e): it needs the GC proposal"},
    {"a rec group", gc_rec, sizeof gc_rec, "type 0 is a recursive type group (rec) (0x4e): it needs the GC proposal"},
    {"a sub type", gc_sub, sizeof gc_sub, "type 0 is a subtype declaration (sub) (0x50): it needs the GC proposal"},
    {"a sub final type", gc_final, sizeof gc_final,
     "type 0 is a final subtype declaration (sub final) (0x4f): it needs the GC proposal"},
    {"anyref", gc_anyref, sizeof gc_anyref, "reference type 0x6e (any) needs the GC proposal"},
    {"(ref null any)", gc_refany, sizeof gc_refany, "heap type 0x6e (any) needs the GC proposal"},
    {"(ref i31)", gc_refi31, sizeof gc_refi31, "heap type 0x6c (i31) needs the GC proposal"},
    {"a 0xfb instruction", gc_instr, sizeof gc_instr, "a GC instruction (prefix 0xfb) needs the GC proposal"},
};

/* Every GC message ends the same way. */
#define GC_TAIL "which weft does not support yet (wasmtime runs such modules with -W gc)"

static void expect(const char *api, const char *name, const char *mode, weft_status st, const weft_error *err,
                   const char *says, bool gc) {
    char what[200];
    snprintf(what, sizeof what, "%s, %s%s: refused as malformed", api, name, mode);
    CHECK(what, st == WEFT_ERR_MALFORMED);
    snprintf(what, sizeof what, "%s, %s%s: says what it is and what weft lacks", api, name, mode);
    CHECK(what, strstr(err->message, says) != NULL && (!gc || strstr(err->message, GC_TAIL) != NULL));
    if (strstr(err->message, says) == NULL) printf("  got: %s\n", err->message);
}

int main(void) {
    for (int eager = 0; eager < 2; eager++) {
        weft_config cfg = {.compile_mode = eager ? WEFT_COMPILE_EAGER : WEFT_COMPILE_LAZY};
        weft_engine *engine = weft_engine_new(&cfg);
        for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
            weft_module *m = NULL;
            weft_error err;
            weft_status st = weft_module_load(engine, cases[i].bytes, cases[i].len, &m, &err);
            expect("weft_module_load", cases[i].name, eager ? " (eager)" : "", st, &err, cases[i].says, i > 0);
            weft_module_release(m);
        }
        weft_engine_free(engine);
    }

    wasm_engine_t *engine = wasm_engine_new();
    wasm_store_t *store = wasm_store_new(engine);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        wasm_byte_vec_t bin;
        wasm_byte_vec_new(&bin, cases[i].len, (const wasm_byte_t *)cases[i].bytes);
        weft_error err;
        wasm_module_t *m = weft_wasm_module_new(store, &bin, &err);
        CHECK("weft_wasm_module_new gives no module", m == NULL);
        expect("weft_wasm_module_new", cases[i].name, "", err.status, &err, cases[i].says, i > 0);
        CHECK("wasm_module_validate says no", !wasm_module_validate(store, &bin));
        wasm_module_delete(m);
        wasm_byte_vec_delete(&bin);
    }
    wasm_store_delete(store);
    wasm_engine_delete(engine);
    return check_done();
}
