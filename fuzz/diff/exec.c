/*
 * exec.c — the weft side of the differential fuzzer (fuzz/README.md,
 * target diff/): runs modules made by binaryen's `wasm-opt -ttf` and prints
 * what they do, in the format fuzz/diff/exec.mjs prints for node's V8, so
 * that fuzz/diff/run can compare the two outputs line by line.
 *
 *   diff-exec MODULE.wasm...
 *
 * For each module, the way binaryen's own fuzzer drives it (its
 * execution-results.h and the JS wrapper it emits): instantiate with the
 * "fuzzing-support" log-* imports, then for each exported function in
 * module order call hangLimitInitializer (if exported; it bounds loops and
 * recursion) and the function with zero arguments of its parameter types,
 * and go on with the next export after a trap. Output, one line each:
 *
 *   [module PATH]            start of a module
 *   [invalid]                the module does not decode or validate
 *   [skip import M.N]        an import neither side provides (below)
 *   [instantiate trap KIND]  a segment or the start function trapped
 *   [call NAME]              an export is called
 *   [log-i32 VALUE]          a call of an import of "fuzzing-support" (its
 *                            import name and arguments)
 *   [result VALUE...]        the call returned (zero or more values)
 *   [trap KIND]              the call trapped
 *   [exception]              a wasm exception left the call uncaught
 *   [exception TypeError]    the call's signature has a v128, or a
 *                            log-v128 call was not caught (see below)
 *   [skip stack]             the call stack was exhausted; the module ends
 *   [memory PAGES HASH]      size and FNV-1a hash of an exported memory, one
 *                            line per memory in the order of its first
 *                            export (multi-memory modules export several)
 *
 * Values: i32 and i64 in signed decimal, f32 and f64 as their bits in hex,
 * except that every NaN prints as "nan": the spec lets arithmetic produce
 * any NaN payload (§4.3.3, nondeterminism), and V8 does not keep payloads
 * across the JS boundary, so only NaN-ness is compared. References print
 * as "null" or "ref". A trap prints only its kind (the messages of the two
 * engines differ), from the few kinds V8's messages tell apart reliably.
 * Stack exhaustion is not compared at all: V8 and weft have different
 * stack limits, so the runner skips a module that hits it in either.
 *
 * Exceptions (exception handling, docs/exceptions.md): an exception that
 * leaves an export prints "[exception]" (its tag is the module's own and
 * not exported, so JS cannot name it or read its payload), one that leaves
 * the start function "[instantiate exception]".
 *
 * v128 (SIMD): JS has no v128 value, so the JS API throws a TypeError
 * where one would cross the boundary:
 * calling an export with a v128 parameter or result, and a wasm call of a
 * JS function (log-v128) with a v128 parameter. The TypeError is a JS
 * exception, which a legacy catch_all (or try_table's catch_all) catches
 * and a catch of a wasm tag does not. This driver does the same: it does
 * not call such an export and prints "[exception TypeError]", and its
 * log-v128 throws an exception of a tag of its own (made by the host, so
 * no module can name it), which prints "[exception TypeError]" too when
 * it leaves the export.
 *
 * Imports: binaryen's -ttf (version 132; 108 and 119 import the log-*
 * functions alone) also imports functions of "fuzzing-support" that its
 * own JS harness (fuzz_shell.js) gives a meaning: call-export,
 * call-export-catch, call-ref, call-ref-catch, throw, table-get,
 * table-set, sleep; tags "wasmtag" and "jstag"; and immutable externref
 * globals of module "__fuzz_import". Both drivers give every function of
 * "fuzzing-support" one meaning, the log functions' (print the name and
 * the arguments), and return zeros (null references) for its results, so
 * none of them calls back into the module or throws; every tag import
 * gets a new tag of its type (jstag too, which is not V8's JSTag then);
 * every immutable externref global import a non-null reference. Anything
 * else (a function import whose result is a v128 or an exnref, a mutable
 * or other global, a table or memory) is "[skip import]".
 *
 * exnref cannot cross the JS boundary either: V8 throws the same TypeError
 * as for v128 (Wasm 3.0's JS API, ToJSValue/ToWebAssemblyValue), so it is
 * treated as v128 is everywhere below.
 *
 * With `--tier jit` first, the modules run on the compiler tier
 * (docs/jit.md), and with `--messages` a trap line carries its message:
 * fuzz/diff/run compares the two tiers of weft that way, message for
 * message, beside V8.
 *
 * Exit status: 0 when every module was run (whatever it did), 1 on a usage
 * error or a host failure (unreadable file, out of memory).
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "weft.h"

/* FNV-1a, 32 bits: small, and the same few lines in exec.mjs. */
static uint32_t hash_bytes(const uint8_t *p, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) h = (h ^ p[i]) * 16777619u;
    return h;
}

/* Prints one value, after a space, as the file comment says. */
static void print_val(weft_val v) {
    switch (v.type) {
    case WEFT_I32: printf(" %" PRId32, v.of.i32); break;
    case WEFT_I64: printf(" %" PRId64, v.of.i64); break;
    case WEFT_F32:
        if ((v.of.f32_bits & 0x7f800000u) == 0x7f800000u && (v.of.f32_bits & 0x007fffffu))
            printf(" nan");
        else
            printf(" 0x%08" PRIx32, v.of.f32_bits);
        break;
    case WEFT_F64:
        if ((v.of.f64_bits & 0x7ff0000000000000u) == 0x7ff0000000000000u &&
            (v.of.f64_bits & 0x000fffffffffffffu))
            printf(" nan");
        else
            printf(" 0x%016" PRIx64, v.of.f64_bits);
        break;
    case WEFT_FUNCREF: printf(" %s", v.of.func ? "ref" : "null"); break;
    case WEFT_EXTERNREF: printf(" %s", v.of.externref ? "ref" : "null"); break;
    case WEFT_EXNREF: printf(" %s", v.of.exnref ? "ref" : "null"); break;
    default: printf(" ?%s", weft_valtype_name(v.type)); break;
    }
}

/* The trap kinds both engines tell apart. V8 says "table index is out of
   bounds" both for table accesses and for call_indirect past the table's
   end, and "null function or function signature mismatch" for the other
   two call_indirect traps; it has one message for both trunc traps, while
   the spec calls an out-of-range trunc "integer overflow" like the
   division; so those are merged here the same way. "null" is a null
   reference given to throw_ref, call_ref or ref.as_non_null (V8:
   "rethrowing null value", "dereferencing a null pointer"). */
static const char *trap_kind(weft_trap t) {
    switch (t) {
    case WEFT_TRAP_UNREACHABLE: return "unreachable";
    case WEFT_TRAP_MEM_OOB: return "memory";
    case WEFT_TRAP_TABLE_OOB:
    case WEFT_TRAP_INDIRECT_OOB: return "table";
    case WEFT_TRAP_INDIRECT_NULL:
    case WEFT_TRAP_INDIRECT_TYPE: return "indirect";
    case WEFT_TRAP_DIV_ZERO: return "div";
    case WEFT_TRAP_INT_OVERFLOW:
    case WEFT_TRAP_BAD_CONVERSION: return "overflow";
    case WEFT_TRAP_UNALIGNED_ATOMIC: return "unaligned";
    case WEFT_TRAP_NULL_REF: return "null";
    default: return "other";
    }
}

/* One function import of "fuzzing-support": its name and type (borrowed
   from the module, which outlives the store); for one with a v128 or
   exnref parameter or result, the tag of the TypeError V8 throws instead
   of calling it (the file comment). Freed with the store. */
struct log_import {
    weft_name name;
    weft_functype type;
    weft_tag *type_error;
};

static weft_val zero_of(weft_valtype t);

/* Whether JS cannot take or give a value of type t (the file comment). */
static bool not_for_js(weft_valtype t) { return t == WEFT_V128 || t == WEFT_EXNREF; }

/* The host function of every function import: prints "[NAME ARGS...]" and
   returns zeros, or throws the TypeError (the file comment). */
static weft_status log_fn(weft_caller *caller, void *env, const weft_val *args,
                          weft_val *results) {
    const struct log_import *imp = env;
    /* V8 converts the arguments before the call and the results after it:
       a v128 or exnref result throws after the line is printed. */
    bool param_for_js = true;
    for (uint32_t i = 0; i < imp->type.nparams; i++)
        if (not_for_js(imp->type.params[i])) param_for_js = false;
    if (imp->type_error && param_for_js) {
        printf("[%.*s", (int)imp->name.len, imp->name.data);
        for (uint32_t i = 0; i < imp->type.nparams; i++) print_val(args[i]);
        printf("]\n");
    }
    if (imp->type_error) {
        if (!weft_caller_throw(caller, imp->type_error, NULL, 0)) {
            weft_caller_trap(caller, "diff-exec: cannot throw the TypeError");
            return WEFT_ERR_TRAP;
        }
        return WEFT_ERR_EXCEPTION;
    }
    printf("[%.*s", (int)imp->name.len, imp->name.data);
    for (uint32_t i = 0; i < imp->type.nparams; i++) print_val(args[i]);
    printf("]\n");
    for (uint32_t i = 0; i < imp->type.nresults; i++) results[i] = zero_of(imp->type.results[i]);
    return WEFT_OK;
}

/* Prints a failed call or instantiation (PREFIX is "" or "instantiate "):
   "[PREFIXtrap KIND]" for a trap, "[PREFIXexception]" for an uncaught
   exception ("[PREFIXexception TypeError]" for one of `type_error`, which
   may be NULL), "[skip stack]" for stack exhaustion (returns 1: the module
   ends there), "[error ...]" for anything else (V8's side prints its own
   error text there, so that always shows up as a mismatch). With
   --messages, a trap and a wasm exception carry weft's message. */
static bool messages; /* --messages: trap lines carry the message */

static int report_failure(weft_status st, const weft_error *err, const char *prefix,
                          const weft_tag *type_error) {
    if (st == WEFT_ERR_TRAP && err->trap == WEFT_TRAP_STACK_EXHAUSTED) {
        printf("[skip stack]\n");
        return 1;
    }
    if (st == WEFT_ERR_TRAP && messages)
        printf("[%strap %s: %s]\n", prefix, trap_kind(err->trap), err->message);
    else if (st == WEFT_ERR_TRAP)
        printf("[%strap %s]\n", prefix, trap_kind(err->trap));
    else if (st == WEFT_ERR_EXCEPTION && type_error && weft_exn_tag(err->exception) == type_error)
        printf("[%sexception TypeError]\n", prefix);
    else if (st == WEFT_ERR_EXCEPTION && messages)
        printf("[%sexception: %s]\n", prefix, err->message);
    else if (st == WEFT_ERR_EXCEPTION)
        printf("[%sexception]\n", prefix);
    else
        printf("[error %s: %s]\n", weft_status_name(st), err->message);
    return 0;
}

/* Whether a function type has a v128 or exnref parameter or result (the
   JS API cannot call it: the file comment). */
static bool has_v128(const weft_functype *type) {
    for (uint32_t i = 0; i < type->nparams; i++)
        if (not_for_js(type->params[i])) return true;
    for (uint32_t i = 0; i < type->nresults; i++)
        if (not_for_js(type->results[i])) return true;
    return false;
}

/* A zero of type t: the argument binaryen's fuzzer passes. */
static weft_val zero_of(weft_valtype t) {
    weft_val v;
    memset(&v, 0, sizeof v);
    v.type = t;
    if (t == WEFT_FUNCREF) v.of.func = NULL;
    if (t == WEFT_EXTERNREF) v.of.externref = NULL;
    return v;
}

/* Calls hangLimitInitializer (`hang`, may be NULL), then `f` of type
   `type` with zero arguments (unless the type has a v128: the file
   comment), and prints the outcome; `type_error` is the log-v128 imports'
   tag, or NULL. Returns 0, 1 when the call stack ran out, -1 when out of
   memory. */
static int call_export(weft_func *hang, weft_func *f, const weft_functype *type,
                       const weft_tag *type_error) {
    int rc = -1;
    weft_val *args = calloc(type->nparams + 1, sizeof *args);
    weft_val *res = calloc(type->nresults + 1, sizeof *res);
    if (!args || !res) goto done;
    for (uint32_t i = 0; i < type->nparams; i++) args[i] = zero_of(type->params[i]);
    weft_error err;
    weft_status st = hang ? weft_func_call(hang, NULL, 0, NULL, 0, &err) : WEFT_OK;
    if (st == WEFT_OK && has_v128(type)) {
        printf("[exception TypeError]\n");
        rc = 0;
        goto done;
    }
    if (st == WEFT_OK) st = weft_func_call(f, args, type->nparams, res, type->nresults, &err);
    if (st == WEFT_OK) {
        printf("[result");
        for (uint32_t i = 0; i < type->nresults; i++) print_val(res[i]);
        printf("]\n");
        rc = 0;
    } else {
        rc = report_failure(st, &err, "", type_error);
    }
done:
    free(res);
    free(args);
    return rc;
}

/* The non-null externref of every externref global import (the file
   comment): an address no module can read. */
static int externref_value;

/* Makes every import as the file comment says: a host function for each
   function of "fuzzing-support" (those with a v128 or exnref in their type
   throw a tag made here, left in *type_error, else NULL), a new tag for
   each tag, a non-null reference for each immutable externref global.
   Returns 0, 1 after printing "[skip import ...]" for any other import,
   -1 when out of memory. */
static int make_imports(weft_module *m, weft_store *store, weft_extern *imports,
                        weft_tag **type_error) {
    *type_error = NULL;
    uint32_t n = weft_module_import_count(m);
    for (uint32_t i = 0; i < n; i++) {
        weft_name mod, name;
        weft_externtype type;
        weft_error err;
        if (weft_module_import(m, i, &mod, &name, &type) != WEFT_OK) return -1;
        if (type.kind == WEFT_EXTERN_TAG) {
            weft_tag *tag = weft_tag_new(store, &type.func);
            if (!tag) return -1;
            imports[i].kind = WEFT_EXTERN_TAG;
            imports[i].of.tag = tag;
            continue;
        }
        if (type.kind == WEFT_EXTERN_GLOBAL && type.global_type == WEFT_EXTERNREF &&
            !type.global_mutable) {
            weft_val v = zero_of(WEFT_EXTERNREF);
            v.of.externref = &externref_value;
            weft_global *g;
            if (weft_global_new(store, v, false, &g, &err) != WEFT_OK) return -1;
            imports[i].kind = WEFT_EXTERN_GLOBAL;
            imports[i].of.global = g;
            continue;
        }
        if (!weft_name_is(mod, "fuzzing-support") || type.kind != WEFT_EXTERN_FUNC) {
            printf("[skip import %.*s.%.*s]\n", (int)mod.len, mod.data, (int)name.len,
                   name.data);
            return 1;
        }
        struct log_import *li = malloc(sizeof *li);
        if (!li) return -1;
        li->name = name;
        li->type = type.func;
        li->type_error = NULL;
        if (has_v128(&type.func)) {
            weft_functype none = {0};
            if (!*type_error) *type_error = weft_tag_new(store, &none);
            if (!*type_error) {
                free(li);
                return -1;
            }
            li->type_error = *type_error;
        }
        weft_func *f = weft_func_new(store, &type.func, log_fn, li, free);
        if (!f) {
            free(li);
            return -1;
        }
        imports[i].kind = WEFT_EXTERN_FUNC;
        imports[i].of.func = f;
    }
    return 0;
}

/* Runs one module as the file comment says. Returns 0, or -1 on a host
   failure (reported on stderr). */
static int run_module(weft_engine *engine, const char *path) {
    int rc = -1;
    weft_module *m = NULL;
    weft_store *store = NULL;
    weft_extern *imports = NULL;
    weft_error err;

    printf("[module %s]\n", path);
    weft_status st = weft_module_load_file(engine, path, &m, &err);
    if (st == WEFT_ERR_MALFORMED || st == WEFT_ERR_INVALID) {
        printf("[invalid]\n");
        rc = 0;
        goto done;
    }
    if (st != WEFT_OK) {
        fprintf(stderr, "diff-exec: %s: %s\n", path, err.message);
        goto done;
    }
    store = weft_store_new(engine);
    uint32_t nimports = weft_module_import_count(m);
    imports = calloc(nimports + 1, sizeof *imports);
    if (!store || !imports) goto oom;
    weft_tag *type_error;
    int r = make_imports(m, store, imports, &type_error);
    if (r != 0) {
        if (r < 0) goto oom;
        rc = 0;
        goto done;
    }
    weft_instance *inst;
    st = weft_instance_new(store, m, imports, nimports, &inst, &err);
    if (st != WEFT_OK) {
        report_failure(st, &err, "instantiate ", type_error);
        rc = 0;
        goto done;
    }

    weft_func *hang = weft_instance_func(inst, "hangLimitInitializer");
    weft_memory *mems[8];
    uint32_t nmems = 0;
    uint32_t nexports = weft_module_export_count(m);
    for (uint32_t i = 0; i < nexports; i++) {
        weft_name name;
        weft_externtype type;
        weft_extern ext;
        if (weft_module_export(m, i, &name, &type) != WEFT_OK ||
            weft_instance_export_n(inst, name.data, name.len, &ext) != WEFT_OK)
            goto oom;
        if (type.kind == WEFT_EXTERN_MEMORY) {
            uint32_t k = 0;
            while (k < nmems && mems[k] != ext.of.memory) k++;
            if (k == nmems && nmems < 8) mems[nmems++] = ext.of.memory;
        }
        if (type.kind != WEFT_EXTERN_FUNC) continue;
        printf("[call %.*s]\n", (int)name.len, name.data);
        r = call_export(hang, ext.of.func, &type.func, type_error);
        if (r < 0) goto oom;
        if (r > 0) {
            rc = 0;
            goto done;
        }
    }
    for (uint32_t k = 0; k < nmems; k++) {
        uint64_t size = weft_memory_size(mems[k]);
        printf("[memory %" PRIu64 " %08" PRIx32 "]\n", size / 65536,
               hash_bytes(weft_memory_data(mems[k]), (size_t)size));
    }
    rc = 0;
    goto done;
oom:
    fprintf(stderr, "diff-exec: %s: out of memory\n", path);
done:
    fflush(stdout);
    weft_store_free(store);
    free(imports);
    weft_module_release(m);
    return rc;
}

int main(int argc, char **argv) {
    weft_config cfg = {0};
    int first = 1;
    for (; first < argc && argv[first][0] == '-'; first++) {
        if (strcmp(argv[first], "--messages") == 0) {
            messages = true;
        } else if (strcmp(argv[first], "--tier") == 0 && first + 1 < argc &&
                   (strcmp(argv[first + 1], "jit") == 0 || strcmp(argv[first + 1], "interp") == 0)) {
            cfg.tier = strcmp(argv[++first], "jit") == 0 ? WEFT_TIER_JIT : WEFT_TIER_INTERP;
        } else {
            break;
        }
    }
    if (first >= argc) {
        fprintf(stderr, "usage: %s [--tier interp|jit] [--messages] MODULE.wasm...\n", argv[0]);
        return 1;
    }
    weft_engine *engine = weft_engine_new(&cfg);
    if (!engine) {
        fprintf(stderr, "diff-exec: out of memory\n");
        return 1;
    }
    int rc = 0;
    for (int i = first; i < argc && rc == 0; i++) rc = run_module(engine, argv[i]);
    weft_engine_free(engine);
    return rc == 0 ? 0 : 1;
}
