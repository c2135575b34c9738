/*
 * decode_test.c — the decoder against the spec tests' binary modules, plus
 * a few hand-made modules for what the spec tests do not look at (the name
 * section, C.refs, the index spaces, local declarations).
 *
 * For every core JSON file (WEFT_SPEC_DIR, else ../shared/spec/core, run
 * from the repository root) it decodes the .wasm of each command:
 *   module / assert_unlinkable / assert_uninstantiable: must decode;
 *   assert_malformed (binary): WEFT_ERR_MALFORMED with the expected text in
 *     the message, except the body-level cases listed in `deferred` below,
 *     which belong to the compile stage and must decode;
 *   assert_invalid (binary): WEFT_ERR_INVALID with the expected text, or
 *     success when the module has function bodies (body validation is the
 *     compile stage's); counted as deferred.
 * Set WEFT_TEST_VERBOSE=1 to list the deferred cases.
 */
#include "module/module.h"

#include "check.h"

#include <dirent.h>
#include <stdio.h>

static int ndefer_malformed, ndefer_invalid;
static bool verbose;

/* Malformed binaries whose fault lies inside a function body's
   instructions: the decoder stores bodies undecoded, the compile stage
   reports these. file, line, why. */
static const struct {
    const char *file;
    int line;
    const char *why;
} deferred[] = {
    {"binary.json", 418, "body: `else` where the body's `end` is expected"},
    {"binary.json", 439, "body: no final `end`, instructions run to the module end"},
    {"binary.json", 455, "body: no final `end`; the reference reads on into the next section"},
    {"binary.json", 483, "body: memarg LEB128"},
    {"binary.json", 502, "body: memarg LEB128"},
    {"binary.json", 521, "body: memarg LEB128"},
    {"binary.json", 540, "body: memarg LEB128"},
    {"binary.json", 620, "body: memarg LEB128"},
    {"binary.json", 639, "body: memarg LEB128"},
    {"binary.json", 658, "body: memarg LEB128"},
    {"binary.json", 676, "body: memarg LEB128"},
    {"binary.json", 695, "body: memarg LEB128"},
    {"binary.json", 714, "body: memarg LEB128"},
    {"binary.json", 733, "body: memarg LEB128"},
    {"binary.json", 752, "body: memarg LEB128"},
    {"binary.json", 857, "body: memory.grow reserved byte"},
    {"binary.json", 877, "body: memory.grow reserved byte"},
    {"binary.json", 897, "body: memory.grow reserved byte"},
    {"binary.json", 916, "body: memory.grow reserved byte"},
    {"binary.json", 935, "body: memory.grow reserved byte"},
    {"binary.json", 955, "body: memory.size reserved byte"},
    {"binary.json", 974, "body: memory.size reserved byte"},
    {"binary.json", 993, "body: memory.size reserved byte"},
    {"binary.json", 1011, "body: memory.size reserved byte"},
    {"binary.json", 1029, "body: memory.size reserved byte"},
    {"binary.json", 1205, "body: memory.init without a data count section"},
    {"binary.json", 1227, "body: data.drop without a data count section"},
    {"binary.json", 1817, "body: unterminated block after br_table"},
    {"binary-leb128.json", 405, "body: memarg LEB128"},
    {"binary-leb128.json", 424, "body: memarg LEB128"},
    {"binary-leb128.json", 443, "body: memarg LEB128"},
    {"binary-leb128.json", 462, "body: memarg LEB128"},
    {"binary-leb128.json", 731, "body: memarg LEB128"},
    {"binary-leb128.json", 750, "body: memarg LEB128"},
    {"binary-leb128.json", 769, "body: memarg LEB128"},
    {"binary-leb128.json", 787, "body: memarg LEB128"},
    {"binary-leb128.json", 806, "body: memarg LEB128"},
    {"binary-leb128.json", 825, "body: memarg LEB128"},
    {"binary-leb128.json", 844, "body: memarg LEB128"},
    {"binary-leb128.json", 863, "body: memarg LEB128"},
    {"binary-leb128.json", 988, "body: 0xFC sub-opcode LEB128"},
};

/* Validation failures no function body can cause: the decoder must report
   them even when the module has bodies. */
static const char *const decoder_only_invalid[] = {
    "duplicate export name", "multiple memories", "memory size must be at most",
    "size minimum must not be greater than maximum", "start function",
    "constant expression required",
};

static const char *find_deferred(const char *file, int line) {
    for (size_t i = 0; i < sizeof deferred / sizeof *deferred; i++)
        if (deferred[i].line == line && strcmp(deferred[i].file, file) == 0) return deferred[i].why;
    return NULL;
}

/* ---- decoding one module ---- */

typedef struct result {
    weft_status status;
    weft_error err;
    uint32_t nbodies;
} result;

/* The core spec binaries are Wasm 2.0: decode them with threads and the
   Wasm 3.0 features off. */
static weft_engine wasm20_engine = {
    .config = {.disabled_features = WEFT_FEATURE_THREADS | WEFT_FEATURES_WASM3}};

static result decode_bytes(const uint8_t *bytes, size_t len) {
    result res = {0};
    mod_module *m = calloc(1, sizeof *m);
    uint8_t *copy = malloc(len ? len : 1);
    if (!m || !copy) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    memcpy(copy, bytes, len);
    m->bytes = copy;
    m->len = len;
    m->engine = &wasm20_engine;
    base_error_clear(&res.err);
    res.status = mod_decode(m, &res.err);
    res.nbodies = m->funcs ? m->nfuncs - m->nfunc_imports : 0;
    mod_free_contents(m);
    free(copy);
    free(m);
    return res;
}

/* ---- a tiny scanner for wast2json output (one command per line) ---- */

static bool json_str(const char *line, const char *key, char *out, size_t cap) {
    char pat[64];
    snprintf(pat, sizeof pat, "\"%s\": \"", key);
    const char *p = strstr(line, pat);
    if (!p) return false;
    p += strlen(pat);
    size_t n = 0;
    while (*p && *p != '"' && n + 1 < cap) {
        if (*p == '\\' && p[1]) {
            p++;
            if (*p == 'u' && strlen(p) >= 5) {
                unsigned cp = (unsigned)strtoul((char[5]){p[1], p[2], p[3], p[4], 0}, NULL, 16);
                out[n++] = cp < 0x80 ? (char)cp : '?';
                p += 5;
                continue;
            }
            out[n++] = *p == 'n' ? '\n' : *p == 't' ? '\t' : *p;
            p++;
            continue;
        }
        out[n++] = *p++;
    }
    out[n] = 0;
    return true;
}

static int json_line_no(const char *line) {
    const char *p = strstr(line, "\"line\": ");
    return p ? atoi(p + 8) : 0;
}

static void run_command(const char *dir, const char *json, const char *line) {
    char type[64], file[512], text[256], mtype[32], path[1024];
    if (!json_str(line, "type", type, sizeof type) || !json_str(line, "filename", file, sizeof file))
        return;
    bool must_decode = !strcmp(type, "module") || !strcmp(type, "assert_unlinkable") ||
                       !strcmp(type, "assert_uninstantiable");
    bool malformed = !strcmp(type, "assert_malformed"), invalid = !strcmp(type, "assert_invalid");
    if (!must_decode && !malformed && !invalid) return;
    if (json_str(line, "module_type", mtype, sizeof mtype) && strcmp(mtype, "binary") != 0) return;
    size_t flen = strlen(file);
    if (flen < 5 || strcmp(file + flen - 5, ".wasm") != 0) return;
    if (!json_str(line, "text", text, sizeof text)) text[0] = 0;
    int lineno = json_line_no(line);

    snprintf(path, sizeof path, "%s/%s", dir, file);
    uint8_t *bytes;
    size_t len, cap;
    weft_error ferr;
    if (base_read_file(path, &bytes, &len, &cap, &ferr) != WEFT_OK) {
        EXPECTF(false, "%s:%d: %s", json, lineno, ferr.message);
        return;
    }
    result r = decode_bytes(bytes, len);
    base_bulk_free(bytes, cap);

    if (must_decode) {
        EXPECTF(r.status == WEFT_OK, "%s:%d %s (%s): expected success, got %s @%u: %s", json, lineno,
              type, file, weft_status_name(r.status), r.err.offset, r.err.message);
    } else if (malformed) {
        const char *why = find_deferred(json, lineno);
        if (why && r.status == WEFT_OK) {
            ndefer_malformed++;
            if (verbose) printf("deferred %s:%d malformed \"%s\": %s\n", json, lineno, text, why);
            return;
        }
        EXPECTF(r.status == WEFT_ERR_MALFORMED && strstr(r.err.message, text),
              "%s:%d (%s): expected malformed \"%s\", got %s @%u: %s", json, lineno, file, text,
              weft_status_name(r.status), r.err.offset, r.err.message);
    } else {
        bool decoder_only = r.nbodies == 0;
        for (size_t i = 0; i < sizeof decoder_only_invalid / sizeof *decoder_only_invalid; i++)
            if (strstr(text, decoder_only_invalid[i])) decoder_only = true;
        if (r.status == WEFT_OK && !decoder_only) {
            ndefer_invalid++;
            if (verbose) printf("deferred %s:%d invalid \"%s\"\n", json, lineno, text);
            return;
        }
        EXPECTF(r.status == WEFT_ERR_INVALID && strstr(r.err.message, text),
              "%s:%d (%s): expected invalid \"%s\", got %s @%u: %s", json, lineno, file, text,
              weft_status_name(r.status), r.err.offset, r.err.message);
    }
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static int run_spec_dir(const char *dir) {
    DIR *dp = opendir(dir);
    if (!dp) return -1;
    char *names[512];
    size_t n = 0;
    struct dirent *e;
    while ((e = readdir(dp)) && n < sizeof names / sizeof *names) {
        size_t l = strlen(e->d_name);
        if (l > 5 && !strcmp(e->d_name + l - 5, ".json")) names[n++] = base_strndup(e->d_name, l);
    }
    closedir(dp);
    qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        uint8_t *text;
        size_t len, cap;
        weft_error err;
        if (base_read_file(path, &text, &len, &cap, &err) != WEFT_OK) {
            EXPECTF(false, "%s", err.message);
            free(names[i]);
            continue;
        }
        char *s = malloc(len + 1);
        if (!s) exit(2);
        memcpy(s, text, len);
        s[len] = 0;
        base_bulk_free(text, cap);
        for (char *line = s; line && *line;) {
            char *nl = strchr(line, '\n');
            if (nl) *nl = 0;
            if (strstr(line, "{\"type\": \"")) run_command(dir, names[i], line);
            line = nl ? nl + 1 : NULL;
        }
        free(s);
        free(names[i]);
    }
    return (int)n;
}

/* ---- hand-made modules ---- */

#define HDR 0x00, 0x61, 0x73, 0x6D, 0x01, 0x00, 0x00, 0x00

static const uint8_t sample[] = {
    HDR,
    /* types: [] -> [], [i32] -> [i64] */
    0x01, 0x09, 0x02, 0x60, 0x00, 0x00, 0x60, 0x01, 0x7F, 0x01, 0x7E,
    /* import env.f : func type 0 */
    0x02, 0x09, 0x01, 0x03, 'e', 'n', 'v', 0x01, 'f', 0x00, 0x00,
    /* functions 1..3: types 0, 1, 0 */
    0x03, 0x04, 0x03, 0x00, 0x01, 0x00,
    /* table funcref min 3 */
    0x04, 0x04, 0x01, 0x70, 0x00, 0x03,
    /* global funcref = ref.func 1 */
    0x06, 0x06, 0x01, 0x70, 0x00, 0xD2, 0x01, 0x0B,
    /* export "e" = func 0 */
    0x07, 0x05, 0x01, 0x01, 'e', 0x00, 0x00,
    /* elem: active table 0 at i32.const 0: func 2 */
    0x09, 0x07, 0x01, 0x00, 0x41, 0x00, 0x0B, 0x01, 0x02,
    /* code: (local i32 i32 i64) end | i64.const 0 end | end */
    0x0A, 0x10, 0x03, 0x06, 0x02, 0x02, 0x7F, 0x01, 0x7E, 0x0B, 0x04, 0x00, 0x42, 0x00, 0x0B,
    0x02, 0x00, 0x0B,
    /* name: module "m"; functions 0 "im", 3 "z" */
    0x00, 0x13, 0x04, 'n', 'a', 'm', 'e', 0x00, 0x02, 0x01, 'm', 0x01, 0x08, 0x02, 0x00, 0x02,
    'i', 'm', 0x03, 0x01, 'z',
};

static mod_module *decode_keep(const uint8_t *bytes, size_t len, weft_status *st, weft_error *err) {
    mod_module *m = calloc(1, sizeof *m);
    m->bytes = malloc(len);
    memcpy(m->bytes, bytes, len);
    m->len = len;
    *st = mod_decode(m, err);
    return m;
}

static void drop(mod_module *m) {
    mod_free_contents(m);
    free(m->bytes);
    free(m);
}

static void test_sample(void) {
    weft_error err;
    weft_status st;
    mod_module *m = decode_keep(sample, sizeof sample, &st, &err);
    EXPECTF(st == WEFT_OK, "sample: %s", err.message);
    if (st != WEFT_OK) {
        drop(m);
        return;
    }
    EXPECTF(m->nfuncs == 4 && m->nfunc_imports == 1, "sample: function counts");
    EXPECTF(m->func_types[0] == 0 && m->func_types[1] == 0 && m->func_types[2] == 1 &&
              m->func_types[3] == 0, "sample: func_types");
    EXPECTF(mod_func_type(m, 2)->nparams == 1 && mod_func_type(m, 2)->params[0] == WEFT_I32 &&
              mod_func_type(m, 2)->results[0] == WEFT_I64, "sample: type of function 2");
    EXPECTF(m->funcs[0].nlocals == 3 && m->funcs[0].local_types[0] == WEFT_I32 &&
              m->funcs[0].local_types[1] == WEFT_I32 && m->funcs[0].local_types[2] == WEFT_I64,
          "sample: locals");
    EXPECTF(m->funcs[0].body_len == 1 && m->funcs[0].body[0] == 0x0B &&
              m->funcs[0].body == m->bytes + m->funcs[0].body_offset, "sample: body 0");
    EXPECTF(m->funcs[1].body_len == 3 && m->funcs[1].body[0] == 0x42, "sample: body 1");
    EXPECTF(m->ntables == 1 && m->tables[0].elem == WEFT_FUNCREF && m->tables[0].limits.min == 3,
          "sample: table");
    EXPECTF(m->nglobals == 1 && m->globals[0].init.op == 0xD2 && m->globals[0].init.value == 1 &&
              m->globals[0].init.type == mod_ref_idx(0, false) &&
              mod_valtype_pub(m->globals[0].init.type) == WEFT_FUNCREF,
          "sample: global (Wasm 3.0: ref.func 1 is a (ref 0), which hosts see as funcref)");
    EXPECTF(m->nelems == 1 && m->elems[0].count == 1 && m->elems[0].items[0].op == 0xD2 &&
              m->elems[0].items[0].value == 2 && m->elems[0].offset.op == 0x41, "sample: elem");
    EXPECTF(m->func_declared[0] && m->func_declared[1] && m->func_declared[2] && !m->func_declared[3],
          "sample: C.refs");
    EXPECTF(m->name && !strcmp(m->name, "m"), "sample: module name");
    EXPECTF(m->func_names && m->func_names[0] && !strcmp(m->func_names[0], "im") &&
              !m->func_names[1] && m->func_names[3] && !strcmp(m->func_names[3], "z"),
          "sample: function names");
    drop(m);

    /* A bad name section is ignored, not an error. */
    uint8_t bad[sizeof sample];
    memcpy(bad, sample, sizeof sample);
    bad[sizeof bad - 1] = 0xFF;
    m = decode_keep(bad, sizeof bad, &st, &err);
    EXPECTF(st == WEFT_OK && !m->name && !m->func_names, "bad name section: %s", err.message);
    drop(m);

    /* Every truncation of the sample fails cleanly (and, under ASan,
       without leaks), except those that end right after the header, the
       type, the import or the code section, which leave a valid module. */
    for (size_t n = 0; n < sizeof sample - 1; n++) {
        result r = decode_bytes(sample, n);
        if (n == 8 || n == 19 || n == 30 || n == 84)
            EXPECTF(r.status == WEFT_OK, "truncated to %zu: %s", n, r.err.message);
        else
            EXPECTF(r.status == WEFT_ERR_MALFORMED, "truncated to %zu: %s", n, r.err.message);
    }
}

static void test_small(void) {
    static const uint8_t dcount[] = {HDR, 0x0C, 0x01, 0x01};
    result r = decode_bytes(dcount, sizeof dcount);
    EXPECTF(r.status == WEFT_ERR_MALFORMED && strstr(r.err.message, "data count and data section"),
          "data count without data section: %s", r.err.message);

    static const uint8_t shared[] = {HDR, 0x05, 0x04, 0x01, 0x03, 0x01, 0x02};
    weft_error err;
    weft_status st;
    mod_module *m = decode_keep(shared, sizeof shared, &st, &err);
    EXPECTF(st == WEFT_OK && m->nmems == 1 && m->mems[0].shared && m->mems[0].has_max &&
              m->mems[0].min == 1 && m->mems[0].max == 2, "shared memory: %s", err.message);
    drop(m);

    /* Out-of-order sections. */
    static const uint8_t order[] = {HDR, 0x03, 0x01, 0x00, 0x01, 0x01, 0x00};
    r = decode_bytes(order, sizeof order);
    EXPECTF(r.status == WEFT_ERR_MALFORMED && strstr(r.err.message, "unexpected content after last section"),
          "section order: %s", r.err.message);

    /* A global initialiser of global.get of an own global. */
    static const uint8_t gget[] = {HDR, 0x06, 0x0B, 0x02, 0x7F, 0x00, 0x41, 0x00, 0x0B,
                                   0x7F, 0x00, 0x23, 0x00, 0x0B};
    r = decode_bytes(gget, sizeof gget);
    EXPECTF(r.status == WEFT_ERR_INVALID && strstr(r.err.message, "unknown global 0"),
          "global.get own global: %s", r.err.message);

    /* Malformed beats invalid: an unknown type, then junk. */
    static const uint8_t both[] = {HDR, 0x03, 0x02, 0x01, 0x05, 0x0D, 0x00};
    r = decode_bytes(both, sizeof both);
    EXPECTF(r.status == WEFT_ERR_MALFORMED, "malformed after invalid: %s", r.err.message);

    /* v128.const in a global is decoded (the compile stage rejects SIMD). */
    static const uint8_t v128[] = {HDR, 0x06, 0x16, 0x01, 0x7B, 0x00, 0xFD, 0x0C,
                                   1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 0x0B};
    m = decode_keep(v128, sizeof v128, &st, &err);
    EXPECTF(st == WEFT_OK && m->globals[0].init.type == WEFT_V128 &&
              m->bytes[m->globals[0].init.value] == 1, "v128 global: %s", err.message);
    drop(m);
}

/* The compact import encoding (decode.c, tests/spectest/README.md): read
   with WEFT_FEATURE_COMPACT_IMPORTS only. Module "m": a 0x7F group of
   f (func 0) and g (global i32), a plain "m" "t" (global i64), then a 0x7E
   group of two i32 globals, "a" and "b"; five imports in all. */
static void test_compact_imports(void) {
    static const uint8_t compact[] = {
        HDR, 0x01, 0x04, 0x01, 0x60, 0x00, 0x00, /* type 0: [] -> [] */
        0x02, 0x22, 0x05,                         /* import section, 5 imports */
        0x01, 'm', 0x00, 0x7F, 0x02,              /* "m" "" 0x7F, 2 items */
        0x01, 'f', 0x00, 0x00,                    /*   "f" func 0 */
        0x01, 'g', 0x03, 0x7F, 0x00,              /*   "g" global i32 const */
        0x01, 'm', 0x01, 't', 0x03, 0x7E, 0x00,   /* "m" "t" global i64 const */
        0x01, 'm', 0x00, 0x7E, 0x03, 0x7F, 0x01, 0x02, /* "m" "" 0x7E global i32 mut, 2 names */
        0x01, 'a', 0x01, 'b'};
    weft_engine on = {.config = {.enabled_features = WEFT_FEATURE_COMPACT_IMPORTS}};
    weft_error err;
    weft_status st;
    mod_module *m = calloc(1, sizeof *m);
    m->bytes = malloc(sizeof compact);
    memcpy(m->bytes, compact, sizeof compact);
    m->len = sizeof compact;
    m->engine = &on;
    st = mod_decode(m, &err);
    EXPECTF(st == WEFT_OK, "compact imports: %s", err.message);
    if (st == WEFT_OK) {
        static const char *const names[] = {"f", "g", "t", "a", "b"};
        EXPECTF(m->nimports == 5 && m->nfunc_imports == 1 && m->nglobal_imports == 4, "compact: counts");
        for (uint32_t i = 0; i < 5 && i < m->nimports; i++)
            EXPECTF(!strcmp(m->imports[i].module, "m") && m->imports[i].module_len == 1 &&
                        !strcmp(m->imports[i].name, names[i]),
                    "compact: import %u is m.%s", i, names[i]);
        EXPECTF(m->global_types[0].type == WEFT_I32 && !m->global_types[0].mut &&
                    m->global_types[1].type == WEFT_I64 && m->global_types[2].type == WEFT_I32 &&
                    m->global_types[2].mut && m->global_types[3].type == WEFT_I32 && m->global_types[3].mut,
                "compact: global types (the 0x7E group's shared by both)");
    }
    drop(m);

    /* Off (the default): Wasm 3.0's "malformed import kind". */
    result r = decode_bytes(compact, sizeof compact);
    EXPECTF(r.status == WEFT_ERR_MALFORMED && strstr(r.err.message, "malformed import kind 0x7f"),
            "compact imports off: %s", r.err.message);

    /* A group with more items than the section's count is malformed. */
    uint8_t over[sizeof compact];
    memcpy(over, compact, sizeof compact);
    over[16] = 0x01; /* the section's count: 1 import, but the first group has 2 */
    m = calloc(1, sizeof *m);
    m->bytes = malloc(sizeof over);
    memcpy(m->bytes, over, sizeof over);
    m->len = sizeof over;
    m->engine = &on;
    st = mod_decode(m, &err);
    EXPECTF(st == WEFT_ERR_MALFORMED && strstr(err.message, "more imports than its count"),
            "compact imports over the count: %s", err.message);
    drop(m);
}

int main(void) {
    verbose = getenv("WEFT_TEST_VERBOSE") != NULL;
    test_sample();
    test_small();
    test_compact_imports();

    const char *env = getenv("WEFT_SPEC_DIR");
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/core", env ? env : "../shared/spec");
    int nfiles = run_spec_dir(dir);
    if (nfiles < 0 && env) {
        snprintf(dir, sizeof dir, "%s", env);
        nfiles = run_spec_dir(dir);
    }
    if (nfiles <= 0) EXPECTF(false, "no spec tests found in %s (set WEFT_SPEC_DIR)", dir);
    printf("deferred to the compile stage: %d malformed, %d invalid\n", ndefer_malformed, ndefer_invalid);
    int nfail = atomic_load(&check_failures);
    printf("%d passed, %d failed\n", atomic_load(&check_count) - nfail, nfail);
    return nfail ? 1 : 0;
}
