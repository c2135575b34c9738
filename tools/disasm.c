/* weft-disasm FILE.wasm [FUNC...] — prints the compiled code of a module's
   functions (all, or the given indices). A developer tool. */
#include <stdio.h>
#include <stdlib.h>

#include "compile/code.h"

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: weft-disasm FILE.wasm [FUNC_INDEX...]\n");
        return 2;
    }
    weft_engine *engine = weft_engine_new(NULL);
    weft_module *m;
    weft_error err;
    if (weft_module_load_file(engine, argv[1], &m, &err) != WEFT_OK) {
        fprintf(stderr, "error: %s\n", err.message);
        return 1;
    }
    for (uint32_t i = m->nfunc_imports; i < m->nfuncs; i++) {
        bool want = argc == 2;
        for (int a = 2; a < argc; a++)
            if ((uint32_t)strtoul(argv[a], NULL, 0) == i) want = true;
        if (!want) continue;
        const char *name = m->func_names ? m->func_names[i] : NULL;
        if (name) printf("; %s\n", name);
        const cmp_func *cf;
        if (cmp_func_code(m, i - m->nfunc_imports, &cf, &err) != WEFT_OK) {
            fprintf(stderr, "error: %s\n", err.message);
            return 1;
        }
        cmp_disasm(stdout, cf);
    }
    weft_module_release(m);
    weft_engine_free(engine);
    return 0;
}
