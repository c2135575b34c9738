/* capi_host.c — a whole host on the standard wasm.h (docs/capi.md), with
   weft's WASI through weft_wasm.h:

       capi_host MODULE.wasm

   Loads a WASI command, gives it WASI (stdio, no directories) and one host
   function of its own, env.log(ptr, len), which prints a string from the
   guest's memory; runs its _start and reports how it ended: exit code,
   trap with backtrace, or a link error naming the import. Everything the
   host owns is deleted on every path. Builds with
     cc capi_host.c $(pkg-config --cflags --libs weft)           */
#include <stdio.h>
#include <stdlib.h>

#include "wasm.h"
#include "weft_wasm.h"

/* env.log(ptr, len): the memory is the instance's export "memory", which
   the host finds after instantiating (env points at the slot). */
static wasm_trap_t *host_log(void *env, const wasm_val_vec_t *args, wasm_val_vec_t *results) {
    (void)results;
    wasm_memory_t *mem = *(wasm_memory_t **)env;
    uint32_t ptr = (uint32_t)args->data[0].of.i32, len = (uint32_t)args->data[1].of.i32;
    if (!mem || (uint64_t)ptr + len > wasm_memory_data_size(mem)) {
        wasm_message_t msg;
        wasm_name_new_from_string_nt(&msg, "env.log: string out of bounds");
        wasm_trap_t *trap = wasm_trap_new(NULL, &msg);
        wasm_name_delete(&msg);
        return trap;
    }
    printf("[log] %.*s\n", (int)len, wasm_memory_data(mem) + ptr);
    fflush(stdout); /* WASI writes to fd 1 directly: keep the order */
    return NULL;
}

/* Prints a trap's message and backtrace. */
static void print_trap(const wasm_trap_t *trap) {
    wasm_message_t msg;
    wasm_trap_message(trap, &msg);
    fprintf(stderr, "trap: %s\n", msg.data);
    wasm_byte_vec_delete(&msg);
    wasm_frame_vec_t trace;
    wasm_trap_trace(trap, &trace);
    for (size_t i = 0; i < trace.size; i++)
        fprintf(stderr, "  #%zu func %u at module offset 0x%zx\n", i, wasm_frame_func_index(trace.data[i]),
                wasm_frame_module_offset(trace.data[i]));
    wasm_frame_vec_delete(&trace);
}

static int read_file(const char *path, wasm_byte_vec_t *out) {
    FILE *f = fopen(path, "rb");
    if (!f) return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    wasm_byte_vec_new_uninitialized(out, n > 0 ? (size_t)n : 0);
    int ok = n > 0 && out->size == (size_t)n && fread(out->data, 1, out->size, f) == out->size;
    fclose(f);
    if (!ok) wasm_byte_vec_delete(out);
    return ok ? 0 : -1;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: capi_host MODULE.wasm\n");
        return 2;
    }
    int status = 1;
    wasm_byte_vec_t binary = WASM_EMPTY_VEC;
    wasm_module_t *module = NULL;
    wasm_func_t *log_func = NULL;
    wasm_memory_t *memory = NULL; /* borrowed from `exports` */
    wasm_extern_vec_t imports = WASM_EMPTY_VEC, exports = WASM_EMPTY_VEC;
    wasm_instance_t *instance = NULL;
    weft_wasi *wasi = NULL;
    weft_error err;

    wasm_engine_t *engine = wasm_engine_new();
    wasm_store_t *store = engine ? wasm_store_new(engine) : NULL;
    if (!store) {
        fprintf(stderr, "out of memory\n");
        goto done;
    }
    if (read_file(argv[1], &binary) != 0) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        goto done;
    }
    /* weft_wasm_module_new is wasm_module_new with the reason of a refusal. */
    module = weft_wasm_module_new(store, &binary, &err);
    if (!module) {
        fprintf(stderr, "%s: %s\n", argv[1], err.message);
        status = 2;
        goto done;
    }

    /* WASI: a context (weft.h) whose functions the store gets. */
    weft_wasi_config wc;
    weft_wasi_config_init(&wc);
    wc.argc = 1;
    wc.argv = (const char *const *)argv + 1;
    if (weft_wasi_new(&wc, &wasi, &err) != WEFT_OK || weft_wasi_define_store(store, wasi, &err) != WEFT_OK) {
        fprintf(stderr, "WASI: %s\n", err.message);
        goto done;
    }

    /* The imports in the module's order: WASI's filled in, ours by name. */
    weft_wasi_imports(store, module, &imports);
    wasm_importtype_vec_t types;
    wasm_module_imports(module, &types);
    for (size_t i = 0; i < types.size; i++) {
        const wasm_name_t *mod = wasm_importtype_module(types.data[i]);
        const wasm_name_t *name = wasm_importtype_name(types.data[i]);
        if (imports.data[i] || mod->size != 3 || memcmp(mod->data, "env", 3) != 0 || name->size != 3 ||
            memcmp(name->data, "log", 3) != 0)
            continue;
        wasm_functype_t *type = wasm_functype_new_2_0(wasm_valtype_new_i32(), wasm_valtype_new_i32());
        log_func = wasm_func_new_with_env(store, type, host_log, &memory, NULL);
        wasm_functype_delete(type);
        imports.data[i] = wasm_func_as_extern(wasm_func_copy(log_func)); /* the vector owns one */
    }
    wasm_importtype_vec_delete(&types);

    wasm_trap_t *trap = NULL;
    instance = wasm_instance_new(store, module, &imports, &trap);
    if (!instance) {
        print_trap(trap); /* a missing import is named in the message */
        wasm_trap_delete(trap);
        goto done;
    }

    /* The exports: the memory for env.log, and _start. */
    wasm_exporttype_vec_t etypes;
    wasm_module_exports(module, &etypes);
    wasm_instance_exports(instance, &exports);
    const wasm_func_t *start = NULL;
    for (size_t i = 0; i < etypes.size; i++) {
        const wasm_name_t *name = wasm_exporttype_name(etypes.data[i]);
        if (name->size == 6 && memcmp(name->data, "memory", 6) == 0) memory = wasm_extern_as_memory(exports.data[i]);
        if (name->size == 6 && memcmp(name->data, "_start", 6) == 0) start = wasm_extern_as_func(exports.data[i]);
    }
    wasm_exporttype_vec_delete(&etypes);
    if (!start) {
        fprintf(stderr, "%s exports no _start\n", argv[1]);
        goto done;
    }

    wasm_val_vec_t none = WASM_EMPTY_VEC;
    trap = wasm_func_call(start, &none, &none);
    int32_t code = 0;
    if (!trap) {
        status = 0;
    } else if (weft_wasm_trap_exit_code(trap, &code)) { /* WASI proc_exit */
        status = code;
    } else {
        print_trap(trap);
        status = 134;
    }
    wasm_trap_delete(trap);

done:
    wasm_extern_vec_delete(&exports);
    wasm_instance_delete(instance);
    wasm_extern_vec_delete(&imports);
    wasm_func_delete(log_func);
    wasm_module_delete(module);
    wasm_byte_vec_delete(&binary);
    wasm_store_delete(store); /* before the WASI context it uses */
    weft_wasi_free(wasi);
    wasm_engine_delete(engine);
    return status;
}
