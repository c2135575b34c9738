/*
 * mem64_big_test.c — 64-bit memories past 4 GiB (issue 39), on the
 * interpreter and on the compiler tier: tests/unit/data/mem64_big.wat
 * grows a 64-bit memory without a maximum to 6 GiB and a second one with
 * a maximum of 70000 pages past 4 GiB, then loads, stores (plain, SIMD,
 * atomic) at 5 GiB and at the last byte, traps one byte further, traps an
 * effective address address + offset that passes 2^64 as out of bounds
 * (aligned; an unaligned atomic one traps as unaligned, the threads
 * proposal's order), and runs memory.fill/copy/init across the 4 GiB
 * line and between the two memories. Then the bounds: 16 GiB by default
 * (grow to it works, one page more is -1) and max_memory_bytes above it.
 *
 * Only a few pages are touched (the memories are reserved, MAP_NORESERVE).
 * Where the system refuses the reservation (no overcommit, a small
 * address-space limit) the test says so and passes as a skip.
 */
#define CHECK_OWN_TIER
#include "check.h"

#define DATA "tests/unit/data/"
#define GIB ((uint64_t)1 << 30)
#define PAGES(bytes) ((bytes) / 65536)

typedef struct run {
    weft_engine *engine;
    weft_module *mod;
    weft_store *store;
    weft_instance *inst;
    const char *tier;
} run;

/* false (and the reason in `why`) when the memories cannot be reserved. */
static bool open_run(run *r, uint32_t tier, uint64_t max_memory, char *why, size_t whysize) {
    weft_config cfg = {.tier = tier, .max_memory_bytes = max_memory};
    weft_error err;
    r->tier = tier == WEFT_TIER_JIT ? "jit" : "interp";
    r->engine = weft_engine_new(&cfg);
    CHECK(r->engine, "engine");
    r->mod = CHECK_LOAD(r->engine, DATA "mem64_big.wasm");
    r->store = weft_store_new(r->engine);
    CHECK(r->store, "store");
    weft_status st = weft_instance_new(r->store, r->mod, NULL, 0, &r->inst, &err);
    if (st == WEFT_ERR_NOMEM && strstr(err.message, "cannot reserve")) {
        snprintf(why, whysize, "%s", err.message);
        return false;
    }
    CHECK(st == WEFT_OK, "instantiate (%s): %s", r->tier, err.message);
    return true;
}

static void close_run(run *r) {
    weft_store_free(r->store);
    weft_module_release(r->mod);
    weft_engine_free(r->engine);
}

/* Calls export `name` with up to three i64/i32 arguments (types from the
   function); the trap kind (WEFT_TRAP_NONE when it returned) and the
   result in *out. */
static weft_trap call(run *r, const char *name, uint64_t *out, int nargs, uint64_t a0, uint64_t a1, uint64_t a2) {
    weft_func *f = weft_instance_func(r->inst, name);
    CHECK(f, "export %s", name);
    weft_functype ft = weft_func_type(f);
    const uint64_t raw[3] = {a0, a1, a2};
    weft_val args[3], res = {0};
    for (int i = 0; i < nargs; i++) {
        args[i].type = ft.params[i];
        if (ft.params[i] == WEFT_I32) args[i].of.i32 = (int32_t)raw[i];
        else args[i].of.i64 = (int64_t)raw[i];
    }
    uint32_t nres = ft.nresults;
    weft_error err;
    weft_status st = weft_func_call(f, args, (uint32_t)nargs, &res, nres, &err);
    if (st == WEFT_ERR_TRAP) return err.trap;
    CHECK(st == WEFT_OK, "%s (%s): %s", name, r->tier, err.message);
    if (out) *out = res.type == WEFT_I32 ? (uint32_t)res.of.i32 : (uint64_t)res.of.i64;
    return WEFT_TRAP_NONE;
}

#define WANT(r, name, want, ...)                                                                  \
    do {                                                                                          \
        uint64_t got_ = 0xdeadbeef;                                                               \
        weft_trap t_ = call(r, name, &got_, __VA_ARGS__);                                         \
        EXPECTF(t_ == WEFT_TRAP_NONE && got_ == (uint64_t)(want), "%s %s(%s): got %s 0x%llx, want 0x%llx", \
                (r)->tier, name, #__VA_ARGS__, t_ ? "trap" : "", (unsigned long long)got_,        \
                (unsigned long long)(want));                                                      \
    } while (0)
#define TRAPS(r, name, kind, ...)                                                                 \
    do {                                                                                          \
        weft_trap t_ = call(r, name, NULL, __VA_ARGS__);                                          \
        EXPECTF(t_ == (kind), "%s %s(%s): trap %d, want %d", (r)->tier, name, #__VA_ARGS__, (int)t_, \
                (int)(kind));                                                                     \
    } while (0)

#define OOB WEFT_TRAP_MEM_OOB
#define UNALIGNED WEFT_TRAP_UNALIGNED_ATOMIC

static void accesses(run *r) {
    const uint64_t G4 = 4 * GIB, G5 = 5 * GIB, END = 6 * GIB, LAST = END - 1, NEG = 0;
    WANT(r, "size", 1, 0, 0, 0, 0);
    WANT(r, "grow", 1, 1, PAGES(END) - 1, 0, 0); /* to 6 GiB */
    WANT(r, "size", PAGES(END), 0, 0, 0, 0);

    /* plain accesses at 5 GiB, the last byte, one past */
    WANT(r, "store64", 0, 2, G5, 0x1122334455667788ull, 0);
    WANT(r, "load64", 0x1122334455667788ull, 1, G5, 0, 0);
    WANT(r, "load8", 0x88, 1, G5, 0, 0);
    WANT(r, "load8", 0, 1, G5 - 1, 0, 0);
    WANT(r, "store8", 0, 2, LAST, 0xab, 0);
    WANT(r, "load8", 0xab, 1, LAST, 0, 0);
    TRAPS(r, "load8", OOB, 1, END, 0, 0);
    TRAPS(r, "store8", OOB, 2, END, 1, 0);
    WANT(r, "load64", 0xab00000000000000ull, 1, LAST - 7, 0, 0);
    TRAPS(r, "load64", OOB, 1, LAST - 6, 0, 0);
    TRAPS(r, "store64", OOB, 2, LAST - 6, 1, 0);
    WANT(r, "load32_off8", 0xab000000u, 1, LAST - 11, 0, 0);
    TRAPS(r, "load32_off8", OOB, 1, LAST - 10, 0, 0);
    TRAPS(r, "load8", OOB, 1, UINT64_MAX, 0, 0);
    /* offset 0xffffffff from 1: 4 GiB exactly */
    WANT(r, "store8", 0, 2, G4, 7, 0);
    WANT(r, "load8_offmax", 7, 1, 1, 0, 0);
    TRAPS(r, "load8_offmax", OOB, 1, END - 0xffffffffull, 0, 0);
    /* address + offset past 2^64: out of bounds, never a wrapped address
       (the low bytes are not zero there) */
    WANT(r, "store64", 0, 2, 0, 0x0807060504030201ull, 0);
    TRAPS(r, "load32_off8", OOB, 1, NEG - 4, 0, 0);
    TRAPS(r, "load32_off8", OOB, 1, NEG - 8, 0, 0);
    TRAPS(r, "load8_offmax", OOB, 1, NEG - 0xfffffffeull, 0, 0);
    /* v128 */
    WANT(r, "store64", 0, 2, G5 + 8, 0x99, 0);
    WANT(r, "v128_load", 0x99, 1, G5, 0, 0);
    WANT(r, "v128_load", 0xab00000000000000ull, 1, LAST - 15, 0, 0);
    TRAPS(r, "v128_load", OOB, 1, LAST - 14, 0, 0);

    /* atomics: in bounds; past the end; past 2^64 aligned (out of bounds)
       and unaligned (the alignment is checked first) */
    WANT(r, "atomic_add64", 0x99, 2, G5 + 8, 5, 0);
    WANT(r, "load64", 0x9e, 1, G5 + 8, 0, 0);
    WANT(r, "atomic_add64", 0xab00000000000000ull, 2, LAST - 7, 1, 0);
    WANT(r, "load8", 1, 1, LAST - 7, 0, 0);
    TRAPS(r, "atomic_add64", OOB, 2, END, 1, 0);
    TRAPS(r, "atomic_add64", UNALIGNED, 2, LAST - 3, 1, 0);
    WANT(r, "atomic_cmpxchg32", 0, 3, G5 + 16, 0, 9);
    WANT(r, "atomic_cmpxchg32", 9, 3, G5 + 16, 0, 10);
    WANT(r, "atomic_load32_off8", 9, 1, G5 + 8, 0, 0);
    TRAPS(r, "atomic_load32_off8", OOB, 1, NEG - 8, 0, 0);  /* ea = 2^64 */
    TRAPS(r, "atomic_load32_off8", OOB, 1, NEG - 4, 0, 0);  /* ea = 2^64 + 4 */
    TRAPS(r, "atomic_load32_off8", UNALIGNED, 1, NEG - 6, 0, 0);
    TRAPS(r, "atomic_load32_off8", OOB, 1, END - 8, 0, 0);
    WANT(r, "notify", 0, 1, G5, 0, 0);
    WANT(r, "notify", 0, 1, LAST - 3, 0, 0);
    TRAPS(r, "notify", OOB, 1, END, 0, 0);
    TRAPS(r, "notify", OOB, 1, NEG - 4, 0, 0);
    TRAPS(r, "notify", UNALIGNED, 1, G5 + 2, 0, 0);
    TRAPS(r, "wait32", WEFT_TRAP_EXPECTED_SHARED, 1, G5, 0, 0);
    TRAPS(r, "wait32", OOB, 1, END, 0, 0);

    /* bulk operations across the 4 GiB line: bounds first, nothing
       written when out of bounds */
    WANT(r, "fill", 0, 3, G4 - 8, 0x5a, 16);
    WANT(r, "load64", 0x5a5a5a5a5a5a5a5aull, 1, G4 - 8, 0, 0);
    WANT(r, "load64", 0x5a5a5a5a5a5a5a5aull, 1, G4, 0, 0);
    WANT(r, "load8", 0, 1, G4 + 8, 0, 0);
    TRAPS(r, "fill", OOB, 3, LAST - 3, 0x11, 5);
    WANT(r, "load8", 1, 1, LAST - 7, 0, 0);
    WANT(r, "load8", 0xab, 1, LAST, 0, 0);
    TRAPS(r, "fill", OOB, 3, UINT64_MAX, 0, 2);
    WANT(r, "fill", 0, 3, END, 0, 0);
    TRAPS(r, "fill", OOB, 3, END + 1, 0, 0);
    WANT(r, "copy", 0, 3, G5 + 64, G4 - 4, 8);
    WANT(r, "load64", 0x5a5a5a5a5a5a5a5aull, 1, G5 + 64, 0, 0);
    WANT(r, "copy", 0, 3, G4 - 2, G5, 4); /* 88 77 66 55 across the line */
    WANT(r, "load32_off8", 0x55667788u, 1, G4 - 10, 0, 0);
    TRAPS(r, "copy", OOB, 3, LAST, 0, 2);
    TRAPS(r, "copy", OOB, 3, 0, LAST, 2);
    TRAPS(r, "copy", OOB, 3, 0, UINT64_MAX, 2);
    WANT(r, "init", 0, 3, G4 - 4, 0, 9); /* "weft-data" */
    WANT(r, "load8", 'w', 1, G4 - 4, 0, 0);
    WANT(r, "load8", 'a', 1, G4 + 4, 0, 0);
    TRAPS(r, "init", OOB, 3, LAST - 7, 0, 9);
    TRAPS(r, "init", OOB, 3, G4, 1, 9);

    /* memory 1: declared maximum 70000 pages, grown past 4 GiB */
    WANT(r, "grow_b", 1, 1, 65600 - 1, 0, 0);
    WANT(r, "store8_b", 0, 2, G4 + 8, 0x77, 0);
    WANT(r, "load8_b", 0x77, 1, G4 + 8, 0, 0);
    TRAPS(r, "load8_b", OOB, 1, (uint64_t)65600 * 65536, 0, 0);
    WANT(r, "grow_b", UINT64_MAX, 1, 70000 - 65600 + 1, 0, 0);
    WANT(r, "copy_b_m", 0, 3, G4 + 16, G5, 8);
    WANT(r, "load8_b", 0x88, 1, G4 + 16, 0, 0);
    TRAPS(r, "copy_b_m", OOB, 3, (uint64_t)65600 * 65536 - 4, G5, 8);

    /* the default bound: 16 GiB (reserved, nothing touched) */
    WANT(r, "grow", PAGES(END), 1, PAGES(16 * GIB) - PAGES(END), 0, 0);
    WANT(r, "grow", UINT64_MAX, 1, 1, 0, 0);
    WANT(r, "load8", 0, 1, 16 * GIB - 1, 0, 0);
    TRAPS(r, "load8", OOB, 1, 16 * GIB, 0, 0);
}

/* max_memory_bytes (24 GiB here) above 16 GiB lets a 64-bit memory grow
   to it. */
static void bound(run *r) {
    WANT(r, "grow", 1, 1, PAGES(20 * GIB) - 1, 0, 0);
    WANT(r, "grow", PAGES(20 * GIB), 1, PAGES(4 * GIB), 0, 0);
    WANT(r, "grow", UINT64_MAX, 1, 1, 0, 0);
    WANT(r, "store8", 0, 2, 24 * GIB - 1, 3, 0);
    WANT(r, "load8", 3, 1, 24 * GIB - 1, 0, 0);
    TRAPS(r, "load8", OOB, 1, 24 * GIB, 0, 0);
}

int main(void) {
    uint32_t tiers[2] = {WEFT_TIER_INTERP, WEFT_TIER_JIT};
    for (int k = 0; k < (weft_jit_built() ? 2 : 1); k++) {
        run r;
        char why[600];
        if (!open_run(&r, tiers[k], 0, why, sizeof why)) {
            printf("mem64_big_test: skipped: the system refuses the reservation (%s)\n", why);
            return 0;
        }
        accesses(&r);
        close_run(&r);
        if (!open_run(&r, tiers[k], 24 * GIB, why, sizeof why)) {
            printf("mem64_big_test: skipped: the system refuses the reservation (%s)\n", why);
            return 0;
        }
        bound(&r);
        close_run(&r);
    }
    return check_summary("mem64_big_test");
}
