/* check.h — the checks of the wasm.h tests: each CHECK names what it
   asserts; a failure prints the name and the line, and the program ends
   with "N passed, N failed" (tests/run.sh adds those up). */
#ifndef CAPI_CHECK_H
#define CAPI_CHECK_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "weft_wasm.h"

static int check_pass, check_fail;

#define CHECK(name, cond)                                                  \
    do {                                                                   \
        if (cond) {                                                        \
            check_pass++;                                                  \
        } else {                                                           \
            check_fail++;                                                  \
            printf("FAIL %s (%s:%d: %s)\n", name, __FILE__, __LINE__, #cond); \
        }                                                                  \
    } while (0)

static inline int check_done(void) {
    printf("%d passed, %d failed\n", check_pass, check_fail);
    return check_fail ? 1 : 0;
}

/* Reads a file into a byte vector (owned); exits when it cannot. */
static inline void check_read(const char *path, wasm_byte_vec_t *out) {
    FILE *f = fopen(path, "rb");
    if (!f) {
        printf("FAIL cannot open %s (run from the repository root)\n", path);
        exit(1);
    }
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    wasm_byte_vec_new_uninitialized(out, (size_t)n);
    if (n <= 0 || fread(out->data, 1, (size_t)n, f) != (size_t)n) {
        printf("FAIL cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
}

/* The message of a trap as a C string (static buffer); deletes the trap. */
static inline const char *check_trap_message(wasm_trap_t *trap) {
    static char buf[600];
    buf[0] = 0;
    if (!trap) return "(no trap)";
    wasm_message_t m;
    wasm_trap_message(trap, &m);
    snprintf(buf, sizeof buf, "%.*s", (int)m.size, m.size ? m.data : "");
    wasm_byte_vec_delete(&m);
    wasm_trap_delete(trap);
    return buf;
}

#endif
