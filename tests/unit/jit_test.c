/*
 * jit_test — the compiler tier (docs/jit.md, src/jit/).
 *
 * 1. The emitter's encodings (src/jit/x64.h) against the bytes of the
 *    Intel SDM's forms (checked with GNU as/objdump when written; the test
 *    does not need binutils).
 * 2. Compiled code computes what the interpreter computes, and counts the
 *    same fuel: tests/unit/data/suspend_loop.wasm (a loop with a call in
 *    every iteration) under WEFT_TIER_INTERP and WEFT_TIER_JIT.
 * 3. Compiled code honours the attention word: a long run on the compiler
 *    tier is suspended from another thread, resumed, and finishes with the
 *    uninterrupted result.
 * 4. The auto tier (WEFT_TIER_AUTO, src/exec/tier.c): a long metered run
 *    of the loop is compiled while it runs (the compile count moves during
 *    the one call) and ends with the interpreter's result and fuel left.
 * 5. Traps: tests/unit/data/jit_trap.wasm (built with `wat2wasm
 *    --debug-names` from the .wat beside it) traps three compiled calls
 *    deep; with every fuel budget from 1 to 110 (running out at a branch
 *    or at a compiled call's entry) and unmetered, both tiers give the
 *    same trap, message and backtrace.
 * 6. The scalar operations and step exits (tests/unit/data/jit_scalar.wat):
 *    every export called with every pair of special bit patterns (NaN
 *    payloads, -0, the truncations' bounds) gives the same result bits or
 *    the same trap on both tiers, and all of its functions compile.
 * 7. The v128 operations (tests/unit/data/jit_simd.wat, written by
 *    jit_simd.py beside it): every export called with every pair of a list
 *    of vectors (NaN lanes, lane bounds, shift counts at and past the lane
 *    width, addresses at the end of memory and past it) gives the same
 *    bits or the same trap and message on both tiers, and the memories
 *    stay the same (stores at each address around the end of memory).
 * 8. br_table (tests/unit/data/jit_brtable.wat): a loop whose back-edges
 *    are br_table targets runs out of fuel at the same point, with the
 *    same fuel left, on both tiers, for every budget up to its need.
 * 9. The auto tier (tests/unit/data/jit_tierup.wat): a sample in compiled
 *    code credits the interpreted caller, and compiled code's calls of an
 *    interpreted function are counted, so a loop's caller and a callee
 *    that takes no time are compiled too.
 * 10. Compiled calls on the machine stack (tests/unit/data/jit_calls.wat):
 *    a self recursion deeper than one run's machine stack, a chain of
 *    direct and indirect calls with step exits on the way back, and the
 *    recursion that exhausts the call stack give the same results, traps,
 *    messages and fuel on both tiers, with every budget around the
 *    point where the fuel runs out mid-chain.
 * 11. The atomics (tests/unit/data/jit_atomic.wat, written by
 *    jit_atomic.py beside it): every load, store, read-modify-write and
 *    cmpxchg of memory 0, at aligned, misaligned and out-of-bounds
 *    addresses with a list of values, gives the same results, traps and
 *    messages on both tiers and leaves the same bytes in memory.
 *
 * 12. Loop registers (tests/unit/data/jit_loops.wat): loops whose
 *    variables compiled code keeps in registers across the branch back
 *    (one or two branches back, a way out in the middle, a float write
 *    to a kept variable, a pointer walk, traps inside the loop, a
 *    br_table back, nested loops, more variables than registers, a call
 *    or a step exit in the loop) give the same results, traps, messages,
 *    backtraces and fuel left on both tiers: unmetered, with every budget
 *    that runs out within their first iterations, and with a large one
 *    that the execution takes in chunks (an exit at a branch back with
 *    the registers dirty, the interpreter going on from the frame); a
 *    long loop suspended from another thread and resumed gives the
 *    uninterrupted result; and its loops are compiled with registers.
 * 13. memory.copy and memory.fill (tests/unit/data/jit_bulk.wat): called
 *    with every triple of addresses, values and lengths around the end of
 *    memory and past 2^32, alone, beside values kept in registers, in a
 *    loop, and into a page grown in the same call, they give the same
 *    results, traps and messages on both tiers and leave the same bytes
 *    after every call; and none of the functions falls back.
 * 14. Tail calls (tests/unit/data/jit_tail.wasm, written by jit_tail.py):
 *    return_call between two functions and to itself, return_call_indirect
 *    (and its three traps), a tail call into a frame past the stack, a
 *    trap at the end of a chain: the same results, traps, messages,
 *    backtraces and fuel left on both tiers, unmetered and with every
 *    budget that runs out within the chains.
 *
 * Exits 0 when every check passes. On a build without the tier (not x86-64
 * Linux) parts 1 and 2's compile count are skipped, saying so.
 */
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#include "jit/jit.h"

/* jit_test picks each engine's tier itself (check.h's WEFT_TIER would override its interpreter runs). */
#define CHECK_OWN_TIER
#include "check.h"

#if WEFT_JIT
#include "jit/x64.h"

static void encodings(void) {
    x64_buf b = {0};
    x64_rm_slot(&b, 0, 1, 0x8B, X64_RAX, 2);                      /* mov rax, [rbx+16] */
    x64_rm_slot(&b, 0, 0, 0x8B, X64_RCX, 100);                    /* mov ecx, [rbx+800] */
    x64_rm_mem(&b, 0, 0, 0x0FB6, X64_RAX, 8);                     /* movzx eax, byte [r12+rax+8] */
    x64_rr(&b, 0, 1, 0x39, X64_R13, X64_RCX);                     /* cmp rcx, r13 */
    x64_rm_slot(&b, 0xF2, 0, 0x0F58, 0, 1);                       /* addsd xmm0, [rbx+8] */
    x64_rr(&b, 0x66, 1, 0x0F7E, 0, X64_RAX);                      /* movq rax, xmm0 */
    x64_rm_base(&b, 0, 1, 0x8B, X64_RAX, X64_R15, 24);            /* mov rax, [r15+24] */
    x64_mov_imm64(&b, X64_RAX, 0x1122334455667788ull);            /* mov rax, imm64 */
    x64_rr(&b, 0, 0, 0x0FB6, X64_RAX, X64_RAX);                   /* movzx eax, al */
    x64_setcc(&b, X64_CC_L, X64_RAX);                             /* setl al */
    x64_rm_mem(&b, 0x66, 0, 0x89, X64_RDX, 4);                    /* mov [r12+rax+4], dx */
    x64_rr(&b, 0, 1, 0xD3, 4, X64_RAX);                           /* shl rax, cl */
    x64_rm_base(&b, 0, 1, 0x8D, X64_RCX, X64_RAX, 12);            /* lea rcx, [rax+12] */
    x64_rr(&b, 0, 0, 0x69, X64_RAX, X64_RAX);                     /* imul eax, eax, 100 */
    x64_u32(&b, 100);
    x64_rr(&b, 0, 0, 0x0F43, X64_RAX, X64_RCX);                   /* cmovae eax, ecx */
    x64_rm_slot(&b, 0, 1, 0x0FBD, X64_RAX, 1);                    /* bsr rax, [rbx+8] */
    x64_rr(&b, 0, 1, 0x0FBA, 7, X64_RAX);                         /* btc rax, 63 */
    x64_byte(&b, 63);
    x64_rr(&b, 0xF2, 1, 0x0F2A, 0, X64_RAX);                      /* cvtsi2sd xmm0, rax */
    x64_rm_slot(&b, 0, 0, 0x0F2E, 0, 2);                          /* ucomiss xmm0, [rbx+16] */
    x64_rm_mem(&b, 0, 1, 0x63, X64_RAX, 0x12345);                 /* movsxd rax, [r12+rax+0x12345] */
    x64_rm_mem(&b, 0, 0, 0x88, X64_RDX, 0);                       /* mov [r12+rax+0], dl */
    x64_mov_imm32(&b, X64_RCX, 7);                                /* mov ecx, 7 */
    x64_rm_slot(&b, 0, 1, 0x81, 7, 3);                            /* cmp qword [rbx+24], -1 */
    x64_u32(&b, 0xFFFFFFFF);
    static const uint8_t want[] = {
        0x48, 0x8b, 0x43, 0x10, 0x8b, 0x8b, 0x20, 0x03, 0x00, 0x00, 0x41, 0x0f,
        0xb6, 0x84, 0x04, 0x08, 0x00, 0x00, 0x00, 0x4c, 0x39, 0xe9, 0xf2, 0x0f,
        0x58, 0x43, 0x08, 0x66, 0x48, 0x0f, 0x7e, 0xc0, 0x49, 0x8b, 0x47, 0x18,
        0x48, 0xb8, 0x88, 0x77, 0x66, 0x55, 0x44, 0x33, 0x22, 0x11, 0x0f, 0xb6,
        0xc0, 0x0f, 0x9c, 0xc0, 0x66, 0x41, 0x89, 0x94, 0x04, 0x04, 0x00, 0x00,
        0x00, 0x48, 0xd3, 0xe0, 0x48, 0x8d, 0x48, 0x0c, 0x69, 0xc0, 0x64, 0x00,
        0x00, 0x00, 0x0f, 0x43, 0xc1, 0x48, 0x0f, 0xbd, 0x43, 0x08, 0x48, 0x0f,
        0xba, 0xf8, 0x3f, 0xf2, 0x48, 0x0f, 0x2a, 0xc0, 0x0f, 0x2e, 0x43, 0x10,
        0x49, 0x63, 0x84, 0x04, 0x45, 0x23, 0x01, 0x00, 0x41, 0x88, 0x94, 0x04,
        0x00, 0x00, 0x00, 0x00, 0xb9, 0x07, 0x00, 0x00, 0x00, 0x48, 0x81, 0x7b,
        0x18, 0xff, 0xff, 0xff, 0xff};
    CHECK(!b.oom, "emitter out of memory");
    EXPECTF(b.len == sizeof want, "emitted %zu bytes, want %zu", b.len, sizeof want);
    for (size_t i = 0; i < b.len && i < sizeof want; i++)
        if (b.p[i] != want[i]) {
            EXPECTF(false, "byte %zu: 0x%02x, want 0x%02x", i, b.p[i], want[i]);
            break;
        }
    /* The atomics' forms (bytes checked with objdump): lock cmpxchg
       [r12+rcx+4], edx; lock xadd [r12+rax+2], dx; test cl, 7. */
    b.len = 0;
    x64_byte(&b, 0xF0);
    x64_rm_mem_at(&b, 0, 0, 0x0FB1, X64_RDX, X64_RCX, 4);
    x64_byte(&b, 0xF0);
    x64_rm_mem(&b, 0x66, 0, 0x0FC1, X64_RDX, 2);
    static const uint8_t atomics[] = {0xF0, 0x41, 0x0F, 0xB1, 0x94, 0x0C, 0x04, 0x00, 0x00, 0x00, 0xF0,
                                      0x66, 0x41, 0x0F, 0xC1, 0x94, 0x04, 0x02, 0x00, 0x00, 0x00};
    EXPECT(b.len == sizeof atomics && memcmp(b.p, atomics, sizeof atomics) == 0);
    /* Jumps: a forward jcc rel8 landed, a rel32 patched backwards. */
    b.len = 0;
    size_t skip = x64_jcc8(&b, X64_CC_E);
    x64_byte(&b, 0x90);
    x64_land8(&b, skip);
    size_t at = x64_jmp32(&b);
    x64_patch_rel32(&b, at, 0);
    static const uint8_t jumps[] = {0x74, 0x01, 0x90, 0xE9, 0xF8, 0xFF, 0xFF, 0xFF};
    EXPECT(b.len == sizeof jumps && memcmp(b.p, jumps, sizeof jumps) == 0);
    /* The scalar operations' forms (popcnt, SSE4.1 rounds[sd], cvtts[sd]2si,
       min/max, the NaN and ±0 paths, constants into xmm1), and jmp rel8. */
    b.len = 0;
    x64_rm_slot(&b, 0xF3, 1, 0x0FB8, X64_RAX, 1);                 /* popcnt rax, [rbx+8] */
    x64_rm_slot(&b, 0xF3, 0, 0x0FB8, X64_RAX, 1);                 /* popcnt eax, [rbx+8] */
    x64_rm_slot(&b, 0x66, 0, 0x0F3A0B, 0, 1);                     /* roundsd xmm0, [rbx+8], 0x0A */
    x64_byte(&b, 0x0A);
    x64_rm_slot(&b, 0x66, 0, 0x0F3A0A, 0, 2);                     /* roundss xmm0, [rbx+16], 0x08 */
    x64_byte(&b, 0x08);
    x64_rr(&b, 0xF2, 1, 0x0F2C, X64_RAX, 0);                      /* cvttsd2si rax, xmm0 */
    x64_rr(&b, 0xF3, 0, 0x0F2C, X64_RAX, 0);                      /* cvttss2si eax, xmm0 */
    x64_rr(&b, 0x66, 1, 0x0F6E, 1, X64_RCX);                      /* movq xmm1, rcx */
    x64_rr(&b, 0x66, 0, 0x0F6E, 1, X64_RCX);                      /* movd xmm1, ecx */
    x64_rr(&b, 0xF3, 0, 0x0F5D, 0, 1);                            /* minss xmm0, xmm1 */
    x64_rr(&b, 0xF2, 0, 0x0F5F, 0, 1);                            /* maxsd xmm0, xmm1 */
    x64_rr(&b, 0x66, 0, 0x0F56, 0, 1);                            /* orpd xmm0, xmm1 */
    x64_rr(&b, 0, 0, 0x0F54, 0, 1);                               /* andps xmm0, xmm1 */
    x64_rr(&b, 0x66, 0, 0x0F2E, 1, 0);                            /* ucomisd xmm1, xmm0 */
    x64_rr(&b, 0, 1, 0x0F47, X64_RAX, X64_RCX);                   /* cmova rax, rcx */
    x64_rr(&b, 0, 1, 0x0FBA, 6, X64_RAX);                         /* btr rax, 63 */
    x64_byte(&b, 63);
    x64_rr(&b, 0xF2, 0, 0x0F5C, 0, 1);                            /* subsd xmm0, xmm1 */
    x64_rr(&b, 0, 1, 0x8B, X64_R13, X64_RAX);                     /* mov r13, rax */
    skip = x64_jmp8(&b);                                          /* jmp +1 */
    x64_byte(&b, 0x90);
    x64_land8(&b, skip);
    static const uint8_t scalar[] = {
        0xf3, 0x48, 0x0f, 0xb8, 0x43, 0x08, 0xf3, 0x0f, 0xb8, 0x43, 0x08, 0x66,
        0x0f, 0x3a, 0x0b, 0x43, 0x08, 0x0a, 0x66, 0x0f, 0x3a, 0x0a, 0x43, 0x10,
        0x08, 0xf2, 0x48, 0x0f, 0x2c, 0xc0, 0xf3, 0x0f, 0x2c, 0xc0, 0x66, 0x48,
        0x0f, 0x6e, 0xc9, 0x66, 0x0f, 0x6e, 0xc9, 0xf3, 0x0f, 0x5d, 0xc1, 0xf2,
        0x0f, 0x5f, 0xc1, 0x66, 0x0f, 0x56, 0xc1, 0x0f, 0x54, 0xc1, 0x66, 0x0f,
        0x2e, 0xc8, 0x48, 0x0f, 0x47, 0xc1, 0x48, 0x0f, 0xba, 0xf0, 0x3f, 0xf2,
        0x0f, 0x5c, 0xc1, 0x4c, 0x8b, 0xe8, 0xeb, 0x01, 0x90};
    EXPECTF(b.len == sizeof scalar, "emitted %zu bytes, want %zu", b.len, sizeof scalar);
    for (size_t i = 0; i < b.len && i < sizeof scalar; i++)
        if (b.p[i] != scalar[i]) {
            EXPECTF(false, "scalar byte %zu: 0x%02x, want 0x%02x", i, b.p[i], scalar[i]);
            break;
        }
    /* A rel8 that cannot reach fails the buffer instead of wrapping. */
    b.len = 0;
    skip = x64_jcc8(&b, X64_CC_E);
    for (int i = 0; i < 128; i++) x64_byte(&b, 0x90);
    x64_land8(&b, skip);
    EXPECT(b.oom);
    free(b.p);
}
#endif

/* The reference result of suspend_loop.wasm's run(n). */
static int64_t reference(int64_t n) {
    uint64_t h = 88172645463325252ull;
    for (; n != 0; n--) {
        uint64_t x = h;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        h = x + (uint64_t)n;
    }
    return (int64_t)h;
}

/* One module instantiated on an engine of one tier. */
typedef struct tier_run {
    weft_engine *engine;
    weft_module *mod;
    weft_store *store;
    weft_instance *inst;
    weft_func *run; /* its export "run", if any */
} tier_run;

/* stack_bytes: each execution's wasm stack (0: the default). */
static void tier_open_stack(tier_run *t, uint32_t tier, const char *file, uint64_t stack_bytes) {
    weft_config cfg = {.tier = tier, .max_stack_bytes = stack_bytes};
    weft_error err;
    t->engine = weft_engine_new(&cfg);
    CHECK(t->engine, "engine");
    t->mod = CHECK_LOAD(t->engine, "%s", file);
    t->store = weft_store_new(t->engine);
    CHECK(weft_instance_new(t->store, t->mod, NULL, 0, &t->inst, &err) == WEFT_OK, "instantiate: %s", err.message);
    t->run = weft_instance_func(t->inst, "run");
}
static void tier_open(tier_run *t, uint32_t tier, const char *file) { tier_open_stack(t, tier, file, 0); }
static void tier_close(tier_run *t) {
    weft_store_free(t->store);
    weft_module_release(t->mod);
    weft_engine_free(t->engine);
}

/* Fuel left after run(n) with `budget`, or UINT64_MAX if it trapped out of fuel. */
static uint64_t fuel_after(tier_run *t, int64_t n, uint64_t budget) {
    weft_error err;
    CHECK(weft_store_set_fuel(t->store, budget) == WEFT_OK, "set fuel");
    weft_val arg = {.type = WEFT_I64, .of.i64 = n}, res;
    weft_status st = weft_func_call(t->run, &arg, 1, &res, 1, &err);
    if (st == WEFT_ERR_TRAP && err.trap == WEFT_TRAP_OUT_OF_FUEL) return UINT64_MAX;
    CHECK(st == WEFT_OK, "metered call: %s", err.message);
    EXPECT(res.of.i64 == reference(n));
    return weft_store_fuel(t->store);
}

/* The trap of jit_trap.wasm's _start with `fuel` (0: unmetered), as text. */
static void trap_text(uint32_t tier, uint64_t fuel, char *out, size_t size) {
    weft_config cfg = {.tier = tier};
    weft_error err;
    weft_engine *engine = weft_engine_new(&cfg);
    CHECK(engine, "engine");
    weft_module *mod = CHECK_LOAD(engine, "tests/unit/data/jit_trap.wasm");
    weft_store *store = weft_store_new(engine);
    weft_instance *inst;
    CHECK(weft_instance_new(store, mod, NULL, 0, &inst, &err) == WEFT_OK, "instantiate: %s", err.message);
    CHECK(weft_store_set_fuel(store, fuel ? fuel : WEFT_FUEL_UNLIMITED) == WEFT_OK, "fuel");
    weft_status st = weft_func_call(weft_instance_func(inst, "_start"), NULL, 0, NULL, 0, &err);
    int n = snprintf(out, size, "%s %d %s:", weft_status_name(st), (int)err.trap, err.message);
    for (uint32_t i = 0; i < err.frame_count && n > 0 && (size_t)n < size; i++)
        n += snprintf(out + n, size - (size_t)n, " %u@%u", err.frames[i].func_index, err.frames[i].offset);
    weft_store_free(store);
    weft_module_release(mod);
    weft_engine_free(engine);
}

/* Part 6: jit_scalar.wasm's exports (each (i64 a, i64 b) -> i64) called
   with every pair of these bit patterns on both tiers, in one store each
   (memory and table grow along the calls, the same way on both). f32
   operations read the low 32 bits. */
static const uint64_t scalar_bits[] = {
    /* f64: zeros, ones, halves, NaNs (quiet, payload, signalling), infinities */
    0, 0x8000000000000000ull, 0x3FF0000000000000ull, 0xBFF0000000000000ull, 0x3FE0000000000000ull,
    0xBFE0000000000000ull, 0x3FF8000000000000ull, 0x4004000000000000ull, 0xC004000000000000ull,
    0x7FF8000000000000ull, 0xFFF8000000000123ull, 0x7FF0000000000001ull, 0x7FF4000000000000ull,
    0x7FF0000000000000ull, 0xFFF0000000000000ull, 0xBFEFFFFFFFFFFFFFull, 0x0000000000000001ull,
    0x7FEFFFFFFFFFFFFFull,
    /* f64 around the truncations' bounds: 2^31, -2^31, -2^31 - 1, -2^31 - 0.5,
       2^32, 2^32 - 0.5, 2^63, -2^63, 2^64, below 2^63 and 2^64 */
    0x41E0000000000000ull, 0xC1E0000000000000ull, 0xC1E0000000200000ull, 0xC1E0000000100000ull,
    0x41F0000000000000ull, 0x41EFFFFFFFF00000ull, 0x43E0000000000000ull, 0xC3E0000000000000ull,
    0x43F0000000000000ull, 0x43DFFFFFFFFFFFFFull, 0x43EFFFFFFFFFFFFFull,
    /* f32 (low bits): -0, 1, -1, 0.5, -0.5, 1.5, 2.5, NaNs, infinities, 2^31,
       -2^31, 2^32, 2^63, -2^63, 2^64, just below 2^31, 2^63 and 2^64, -0.99999994 */
    0x80000000u, 0x3F800000u, 0xBF800000u, 0x3F000000u, 0xBF000000u, 0x3FC00000u, 0x40200000u,
    0x7FC00000u, 0xFFC00001u, 0x7F800001u, 0x7FA00000u, 0x7F800000u, 0xFF800000u, 0x4F000000u,
    0xCF000000u, 0x4F800000u, 0x5F000000u, 0xDF000000u, 0x5F800000u, 0x4EFFFFFFu, 0x5EFFFFFFu,
    0x5F7FFFFFu, 0xBF7FFFFFu,
    /* integers for convert_i64_u and popcnt: around 2^63, halfway cases */
    0x7FFFFFFFFFFFFFFFull, 0x8000000000000001ull, 0x8000000000000401ull, 0x8000000000000400ull,
    0x80000000000007FFull, 0xFFFFFFFFFFFFFFFFull, 0xFFFFFFFFFFFFF800ull, 0x0020000000000001ull,
    0x9007199254740993ull, 0x00000000FFFFFFFFull, 0x5555555555555555ull};
#define NSCALAR (sizeof scalar_bits / sizeof scalar_bits[0])

static void scalar_call(tier_run *s, const char *name, size_t len, uint64_t a, uint64_t b, char *out, size_t size) {
    weft_extern x;
    CHECK(weft_instance_export_n(s->inst, name, len, &x) == WEFT_OK && x.kind == WEFT_EXTERN_FUNC, "export");
    weft_val args[2] = {{.type = WEFT_I64, .of.i64 = (int64_t)a}, {.type = WEFT_I64, .of.i64 = (int64_t)b}}, res;
    weft_error err;
    weft_status st = weft_func_call(x.of.func, args, 2, &res, 1, &err);
    if (st == WEFT_OK) snprintf(out, size, "ok %016llx", (unsigned long long)res.of.i64);
    else snprintf(out, size, "%s %d %.150s", weft_status_name(st), (int)err.trap, err.message);
}
static void scalar_ops(void) {
    tier_run in, jt;
    uint64_t compiled0, fell0, compiled1, fell1;
    weft_jit_stats(&compiled0, &fell0);
    tier_open(&in, WEFT_TIER_INTERP, "tests/unit/data/jit_scalar.wasm");
    tier_open(&jt, WEFT_TIER_JIT, "tests/unit/data/jit_scalar.wasm");
    uint32_t nexports = weft_module_export_count(jt.mod), calls = 0;
    for (uint32_t e = 0; e < nexports; e++) {
        weft_name name;
        weft_externtype t;
        CHECK(weft_module_export(jt.mod, e, &name, &t) == WEFT_OK, "export %u", e);
        char nm[64];
        snprintf(nm, sizeof nm, "%.*s", (int)name.len, name.data);
        bool unary = !strstr(nm, ".min") && !strstr(nm, ".max") && !strstr(nm, "copysign") && !strstr(nm, ".add") &&
                     !strstr(nm, ".sub") && !strstr(nm, ".mul") && !strstr(nm, ".div");
        for (size_t i = 0; i < NSCALAR; i++)
            for (size_t j = 0; j < (unary ? 1 : NSCALAR); j++) {
                char a[200], b[200];
                scalar_call(&in, name.data, name.len, scalar_bits[i], scalar_bits[j], a, sizeof a);
                scalar_call(&jt, name.data, name.len, scalar_bits[i], scalar_bits[j], b, sizeof b);
                calls++;
                EXPECTF(strcmp(a, b) == 0, "%.*s(%016llx, %016llx): interp \"%s\", jit \"%s\"", (int)name.len,
                        name.data, (unsigned long long)scalar_bits[i], (unsigned long long)scalar_bits[j], a, b);
            }
    }
    weft_jit_stats(&compiled1, &fell1);
    /* Every function of the module compiled (the exports and $one, never
       called: lazily translated, so not counted), none left whole. */
    if (weft_jit_built())
        EXPECTF(compiled1 - compiled0 >= nexports && fell1 == fell0, "scalar: %llu compiled, %llu fell back",
                (unsigned long long)(compiled1 - compiled0), (unsigned long long)(fell1 - fell0));
    EXPECT(calls > 1000);
    tier_close(&in);
    tier_close(&jt);
}

/* The instance's exported memory "mem", as bytes. */
static const uint8_t *tier_mem(tier_run *s, uint64_t *size) {
    weft_extern x;
    CHECK(weft_instance_export_n(s->inst, "mem", 3, &x) == WEFT_OK && x.kind == WEFT_EXTERN_MEMORY, "memory");
    *size = weft_memory_size(x.of.memory);
    return weft_memory_data(x.of.memory);
}
static bool tier_same_memory(tier_run *in, tier_run *jt) {
    uint64_t n_in, n_jt;
    const uint8_t *m_in = tier_mem(in, &n_in), *m_jt = tier_mem(jt, &n_jt);
    return n_in == n_jt && memcmp(m_in, m_jt, (size_t)n_in) == 0;
}

/* Part 11: jit_atomic.wasm's exports (each (i64 address, i64 value) ->
   i64, one atomic operation at the address) called with every pair of
   these addresses (aligned for every width, misaligned for each, at the
   end of the page and past it) and values, on both tiers, one store each:
   the same results, the same traps (unaligned before out of bounds) and
   messages, and at the end the same bytes in both memories. */
static void atomic_ops(void) {
    static const uint64_t addrs[] = {0, 1, 2, 3, 4, 6, 8, 12, 16, 17, 24, 65520, 65524, 65528, 65530,
                                     65531, 65532, 65534, 65535, 65536, 0xFFFFFFF8u, 0xFFFFFFFFu};
    static const uint64_t vals[] = {0, 1, 0x80, 0xFF, 0x8000, 0xFFFF, 0x80000000u, 0xFFFFFFFFu,
                                    0x0123456789ABCDEFull, 0xFFFFFFFFFFFFFFFFull, 0x8000000000000001ull};
    tier_run in, jt;
    uint64_t compiled0, fell0, compiled1, fell1;
    weft_jit_stats(&compiled0, &fell0);
    tier_open(&in, WEFT_TIER_INTERP, "tests/unit/data/jit_atomic.wasm");
    tier_open(&jt, WEFT_TIER_JIT, "tests/unit/data/jit_atomic.wasm");
    uint32_t nexports = weft_module_export_count(jt.mod), calls = 0, funcs = 0;
    for (uint32_t e = 0; e < nexports; e++) {
        weft_name name;
        weft_externtype t;
        CHECK(weft_module_export(jt.mod, e, &name, &t) == WEFT_OK, "export %u", e);
        if (t.kind != WEFT_EXTERN_FUNC) continue;
        funcs++;
        for (size_t i = 0; i < sizeof addrs / sizeof addrs[0]; i++)
            for (size_t j = 0; j < sizeof vals / sizeof vals[0]; j++) {
                char a[200], b[200];
                scalar_call(&in, name.data, name.len, addrs[i], vals[j], a, sizeof a);
                scalar_call(&jt, name.data, name.len, addrs[i], vals[j], b, sizeof b);
                calls++;
                EXPECTF(strcmp(a, b) == 0, "%.*s(%llx, %016llx): interp \"%s\", jit \"%s\"", (int)name.len,
                        name.data, (unsigned long long)addrs[i], (unsigned long long)vals[j], a, b);
            }
    }
    uint64_t size;
    tier_mem(&in, &size);
    EXPECT(size == 65536 && tier_same_memory(&in, &jt));
    weft_jit_stats(&compiled1, &fell1);
    if (weft_jit_built())
        EXPECTF(compiled1 - compiled0 >= funcs && fell1 == fell0, "atomic: %llu compiled, %llu fell back",
                (unsigned long long)(compiled1 - compiled0), (unsigned long long)(fell1 - fell0));
    EXPECT(funcs == 126 && calls == funcs * 22 * 11);
    tier_close(&in);
    tier_close(&jt);
}

/* Part 7: jit_simd.wasm's exports, each (i64 a0, a1, b0, b1) -> (i64, i64),
   called with every pair of these vectors (lo, hi) as (a, b) on both
   tiers, one store each (stores persist the same way on both). b's low
   half is also the scalar operand: shift counts, lane values, addresses. */
static const uint64_t simd_vecs[][2] = {
    {0, 0}, {~0ull, ~0ull}, {0x8000000000000000ull, 0x7FFFFFFFFFFFFFFFull},
    {0x0123456789ABCDEFull, 0xFEDCBA9876543210ull},
    {0x807F00FF01FE7F80ull, 0x00FF80017F7E8081ull},                       /* i8 bounds */
    {0x80007FFFFFFF0001ull, 0x7FFF80000000FFFEull},                       /* i16 bounds */
    {0x800000007FFFFFFFull, 0xFFFFFFFF00000001ull},                       /* i32 bounds */
    {0xFFC000017FC00000ull, 0x7FA000007F800001ull},                       /* f32 NaNs, quiet and signalling */
    {0x800000003F800000ull, 0xFF8000007F800000ull},                       /* f32 1, -0, inf, -inf */
    {0x402000003FC00000ull, 0x4F000000BF000000ull},                       /* f32 1.5, 2.5, -0.5, 2^31 */
    {0x7FC000003F800000ull, 0x3F8000007FA00000ull},                       /* f32 NaN beside numbers */
    {0x7FF8000000000000ull, 0xFFF8000000000123ull},                       /* f64 NaNs */
    {0x7FF0000000000001ull, 0x7FF4000000000000ull},                       /* f64 signalling NaNs */
    {0x8000000000000000ull, 0x3FF0000000000000ull},                       /* f64 -0, 1 */
    {0x7FF0000000000000ull, 0xC004000000000000ull},                       /* f64 inf, -2.5 */
    {0x3FE0000000000000ull, 0xBFF8000000000000ull},                       /* f64 0.5, -1.5 */
    {0x0F0E0D0C03020100ull, 0x7F8010111F20FF05ull},                       /* swizzle indices */
    {0x0100000101000003ull, 0x80000080FFFFFF80ull},                       /* u32 -> f32 ties */
    {0x4EFFFFFFCF000000ull, 0xCF0000017F7FFFFFull},                       /* f32 at the i32 bounds */
    /* shift counts and lane values (low half), then addresses: the end
       of the one page, just past it, far past it */
    {1, 0x8000}, {7, 3}, {8, 0x100}, {15, 0xFFFF}, {16, 31}, {31, 32}, {32, 33}, {63, 64}, {64, 65},
    {65, 127}, {0x80, 0x8000000000000000ull}, {0xFFFFFFFFull, 0x80000000ull},
    {65520, 0}, {65521, 65520}, {65527, 1}, {65528, 65519}, {65535, 0}, {65536, 0},
    {0xFFFFFFF0ull, 0}, {0x10, 0x7FFFFFFFull}};
#define NVECS (sizeof simd_vecs / sizeof simd_vecs[0])

static void simd_call(tier_run *s, const char *name, size_t len, const uint64_t *a, const uint64_t *b, char *out,
                      size_t size) {
    weft_extern x;
    CHECK(weft_instance_export_n(s->inst, name, len, &x) == WEFT_OK && x.kind == WEFT_EXTERN_FUNC, "export");
    weft_val args[4], res[2];
    const uint64_t in[4] = {a[0], a[1], b[0], b[1]};
    for (int i = 0; i < 4; i++) args[i] = (weft_val){.type = WEFT_I64, .of.i64 = (int64_t)in[i]};
    weft_error err;
    weft_status st = weft_func_call(x.of.func, args, 4, res, 2, &err);
    if (st == WEFT_OK)
        snprintf(out, size, "ok %016llx %016llx", (unsigned long long)res[1].of.i64, (unsigned long long)res[0].of.i64);
    else snprintf(out, size, "%s %d %.150s", weft_status_name(st), (int)err.trap, err.message);
}
static void simd_ops(void) {
    tier_run in, jt;
    uint64_t compiled0, fell0, compiled1, fell1;
    weft_jit_stats(&compiled0, &fell0);
    tier_open(&in, WEFT_TIER_INTERP, "tests/unit/data/jit_simd.wasm");
    tier_open(&jt, WEFT_TIER_JIT, "tests/unit/data/jit_simd.wasm");
    uint32_t nexports = weft_module_export_count(jt.mod), calls = 0, traps = 0;
    for (uint32_t e = 0; e < nexports; e++) {
        weft_name name;
        weft_externtype t;
        CHECK(weft_module_export(jt.mod, e, &name, &t) == WEFT_OK, "export %u", e);
        if (t.kind != WEFT_EXTERN_FUNC) continue;
        for (size_t i = 0; i < NVECS; i++)
            for (size_t j = 0; j < NVECS; j++) {
                char a[200], b[200];
                simd_call(&in, name.data, name.len, simd_vecs[i], simd_vecs[j], a, sizeof a);
                simd_call(&jt, name.data, name.len, simd_vecs[i], simd_vecs[j], b, sizeof b);
                calls++;
                traps += a[0] != 'o';
                EXPECTF(strcmp(a, b) == 0, "%.*s(%016llx %016llx, %016llx %016llx): interp \"%s\", jit \"%s\"",
                        (int)name.len, name.data, (unsigned long long)simd_vecs[i][1],
                        (unsigned long long)simd_vecs[i][0], (unsigned long long)simd_vecs[j][1],
                        (unsigned long long)simd_vecs[j][0], a, b);
            }
    }
    /* The memory operations again at each address from 40 bytes below
       the end of memory to the end: every access's last address in
       bounds and first out, whatever its size and offset. */
    for (uint32_t e = 0; e < nexports; e++) {
        weft_name name;
        weft_externtype t;
        CHECK(weft_module_export(jt.mod, e, &name, &t) == WEFT_OK, "export %u", e);
        char nm[64];
        snprintf(nm, sizeof nm, "%.*s", (int)name.len, name.data);
        if (t.kind != WEFT_EXTERN_FUNC || (!strstr(nm, "load") && !strstr(nm, "store"))) continue;
        for (size_t i = 0; i < 4; i++)
            for (uint64_t k = 0; k <= 40; k++) {
                uint64_t addr[2] = {65536 - k, 65536 - k};
                char a[200], b[200];
                simd_call(&in, name.data, name.len, simd_vecs[i], addr, a, sizeof a);
                simd_call(&jt, name.data, name.len, simd_vecs[i], addr, b, sizeof b);
                calls++;
                EXPECTF(strcmp(a, b) == 0, "%s(%016llx %016llx, address %llu): interp \"%s\", jit \"%s\"", nm,
                        (unsigned long long)simd_vecs[i][1], (unsigned long long)simd_vecs[i][0],
                        (unsigned long long)addr[0], a, b);
                /* a store that traps must not have written a byte, and one
                   that does not, all of its bytes */
                if (strstr(nm, "store"))
                    EXPECTF(tier_same_memory(&in, &jt), "%s(address %llu): the memories differ", nm,
                            (unsigned long long)addr[0]);
            }
    }
    EXPECT(tier_same_memory(&in, &jt));
    weft_jit_stats(&compiled1, &fell1);
    if (weft_jit_built())
        EXPECTF(compiled1 - compiled0 >= nexports - 1 && fell1 == fell0, "simd: %llu compiled, %llu fell back",
                (unsigned long long)(compiled1 - compiled0), (unsigned long long)(fell1 - fell0));
    EXPECT(calls > 100000 && traps > 1000); /* the out-of-bounds addresses trap */
    tier_close(&in);
    tier_close(&jt);
}

typedef struct run_arg {
    weft_exec *exec;
    weft_status status;
} run_arg;
static void *run_on_thread(void *p) {
    run_arg *a = p;
    weft_error err;
    a->status = weft_exec_run(a->exec, &err);
    return NULL;
}

/* br_table metered as the interpreter meters it (part 8): run(n) of
   tests/unit/data/jit_brtable.wasm, whose back-edges are br_table targets
   and plain br, with every fuel budget up to past its need: the same
   result, or the same out-of-fuel trap, and the same fuel left. */
static void brtable_fuel(void) {
    tier_run in, jt;
    tier_open(&in, WEFT_TIER_INTERP, "tests/unit/data/jit_brtable.wasm");
    tier_open(&jt, WEFT_TIER_JIT, "tests/unit/data/jit_brtable.wasm");
    CHECK(in.run && jt.run, "jit_brtable: no export run");
    tier_run *t[2] = {&in, &jt};
    weft_val arg = {.type = WEFT_I64, .of.i64 = 200};
    int64_t unmetered = 0;
    for (uint64_t budget = 0; budget <= 700; budget++) {
        weft_status st[2];
        int64_t res[2];
        uint64_t left[2];
        for (int k = 0; k < 2; k++) {
            weft_error err;
            weft_val r = {0};
            CHECK(weft_store_set_fuel(t[k]->store, budget ? budget : WEFT_FUEL_UNLIMITED) == WEFT_OK, "fuel");
            st[k] = weft_func_call(t[k]->run, &arg, 1, &r, 1, &err);
            if (st[k] == WEFT_ERR_TRAP) CHECK(err.trap == WEFT_TRAP_OUT_OF_FUEL, "br_table: %s", err.message);
            else CHECK(st[k] == WEFT_OK, "br_table: %s", err.message);
            res[k] = st[k] == WEFT_OK ? r.of.i64 : 0;
            left[k] = weft_store_fuel(t[k]->store);
        }
        if (budget == 0) unmetered = res[0];
        EXPECTF(st[0] == st[1] && res[0] == res[1] && left[0] == left[1],
                "br_table, fuel %llu: interp %s %llx left %llu, jit %s %llx left %llu", (unsigned long long)budget,
                weft_status_name(st[0]), (unsigned long long)res[0], (unsigned long long)left[0],
                weft_status_name(st[1]), (unsigned long long)res[1], (unsigned long long)left[1]);
        if (st[0] == WEFT_OK) EXPECT(res[0] == unmetered);
        if (budget == 700) EXPECTF(st[0] == WEFT_OK, "700 units: %s", weft_status_name(st[0]));
    }
    tier_close(&in);
    tier_close(&jt);
}

/* The auto tier's tier-up (part 9): tests/unit/data/jit_tierup.wat's run
   calls $work (nearly every safe point) and $tiny (no time at all). A
   sample landing in compiled $work credits its interpreted caller run,
   and run's calls of $tiny, leaving compiled code for the interpreter,
   are counted: all three are compiled within a few calls of run, which
   samples alone would not do (tier.c). Runs until they are, at most 10 s. */
static void auto_tierup(void) {
    if (!weft_jit_built()) return;
    tier_run au, in;
    tier_open(&au, WEFT_TIER_AUTO, "tests/unit/data/jit_tierup.wasm");
    tier_open(&in, WEFT_TIER_INTERP, "tests/unit/data/jit_tierup.wasm");
    CHECK(au.run && in.run, "jit_tierup: no export run");
    uint64_t before, now;
    weft_jit_stats(&before, NULL);
    weft_val arg = {.type = WEFT_I64, .of.i64 = 20}, want, got;
    weft_error err;
    CHECK(weft_func_call(in.run, &arg, 1, &want, 1, &err) == WEFT_OK, "interp: %s", err.message);
    int64_t t0 = now_ns();
    int calls = 0;
    do {
        CHECK(weft_func_call(au.run, &arg, 1, &got, 1, &err) == WEFT_OK, "auto: %s", err.message);
        EXPECTF(got.of.i64 == want.of.i64, "auto run(20): %llx, interp %llx", (unsigned long long)got.of.i64,
                (unsigned long long)want.of.i64);
        calls++;
        weft_jit_stats(&now, NULL);
    } while (now < before + 3 && now_ns() - t0 < 10000000000LL);
    EXPECTF(now == before + 3, "auto: %llu of the 3 functions compiled in %d calls",
            (unsigned long long)(now - before), calls);
    tier_close(&au);
    tier_close(&in);
}

#define CALLS_WASM_STACK (64u << 20)
/* Part 10: export `name`(n) of jit_calls.wasm with `budget` (0:
   unmetered), as text: status, trap, message or result, fuel left. */
static void calls_text(tier_run *t, const char *name, int64_t n, uint64_t budget, char *out, size_t size) {
    weft_error err;
    weft_val arg = {.type = WEFT_I64, .of.i64 = n}, r = {0};
    CHECK(weft_store_set_fuel(t->store, budget ? budget : WEFT_FUEL_UNLIMITED) == WEFT_OK, "fuel");
    weft_status st = weft_func_call(weft_instance_func(t->inst, name), &arg, 1, &r, 1, &err);
    snprintf(out, size, "%s %d %.200s %llx left %llu", weft_status_name(st), st == WEFT_OK ? 0 : (int)err.trap,
             st == WEFT_OK ? "" : err.message, (unsigned long long)r.of.i64,
             (unsigned long long)weft_store_fuel(t->store));
}
static void *machine_stack_calls_on(void *unused) {
    (void)unused;
    tier_run in, jt;
    tier_open_stack(&in, WEFT_TIER_INTERP, "tests/unit/data/jit_calls.wasm", CALLS_WASM_STACK);
    tier_open_stack(&jt, WEFT_TIER_JIT, "tests/unit/data/jit_calls.wasm", CALLS_WASM_STACK);
    char a[512], b[512];
    static const struct {
        const char *name;
        int64_t n;
        uint64_t from, to; /* fuel budgets tried, beside unmetered */
    } runs[] = {
        {"deep", 10000, 9990, 10010},   /* a recursion 5 runs' machine stacks deep */
        {"deep", 3000, 1, 40},          /* out of fuel with calls open on the machine stack */
        {"walk", 3000, 0, 0},
        {"walk", 60, 1, 200},           /* ... and after a step exit, at returns to older records */
        {"deep", 100000000, 0, 0},      /* call stack exhausted */
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        for (uint64_t budget = runs[i].from; budget <= runs[i].to; budget++) {
            uint64_t fuel = budget == runs[i].from && runs[i].from ? 0 : budget; /* the first: unmetered */
            calls_text(&in, runs[i].name, runs[i].n, fuel, a, sizeof a);
            calls_text(&jt, runs[i].name, runs[i].n, fuel, b, sizeof b);
            EXPECTF(strcmp(a, b) == 0, "%s(%lld), fuel %llu: interp [%s], jit [%s]", runs[i].name,
                    (long long)runs[i].n, (unsigned long long)fuel, a, b);
        }
    }
    /* The results themselves (the interpreter's, checked above to be the same). */
    calls_text(&jt, "deep", 10000, 0, b, sizeof b);
    EXPECTF(strstr(b, " 2fb0408 ") != NULL, "deep(10000): %s, want 50005000 = 0x2fb0408", b);
    tier_close(&in);
    tier_close(&jt);
    return NULL;
}
/* On a thread whose own stack (4 MiB: room for the interpreter's frame,
   about 0.5 MiB in the sanitizer builds at -O0) is half of the 8 bytes a
   compiled call takes of it times the call depth the wasm stack allows
   (64 MiB / 64 = 1,048,576 frames): compiled calls must stay within
   their share (JIT_NATIVE_STACK) or this crashes. */
static void machine_stack_calls(void) {
    pthread_attr_t a;
    pthread_t th;
    CHECK(pthread_attr_init(&a) == 0 && pthread_attr_setstacksize(&a, 4u << 20) == 0, "attr");
    CHECK(pthread_create(&th, &a, machine_stack_calls_on, NULL) == 0, "thread");
    pthread_join(th, NULL);
    pthread_attr_destroy(&a);
}

/* Part 12: export `name`(n) of jit_loops.wasm with `budget` (0:
   unmetered), as text: status, trap, message, backtrace or result, fuel
   left. */
static void loop_text(tier_run *t, const char *name, int64_t n, uint64_t budget, char *out, size_t size) {
    weft_error err;
    weft_val arg = {.type = WEFT_I64, .of.i64 = n}, r = {0};
    CHECK(weft_store_set_fuel(t->store, budget ? budget : WEFT_FUEL_UNLIMITED) == WEFT_OK, "fuel");
    weft_status st = weft_func_call(weft_instance_func(t->inst, name), &arg, 1, &r, 1, &err);
    int k = snprintf(out, size, "%s %d %.200s %llx left %llu:", weft_status_name(st), st == WEFT_OK ? 0 : (int)err.trap,
                     st == WEFT_OK ? "" : err.message, (unsigned long long)r.of.i64,
                     (unsigned long long)weft_store_fuel(t->store));
    for (uint32_t i = 0; st != WEFT_OK && i < err.frame_count && k > 0 && (size_t)k < size; i++)
        k += snprintf(out + k, size - (size_t)k, " %u@%u", err.frames[i].func_index, err.frames[i].offset);
}
/* What export "count"(n) computes (the loop runs once at least). */
static uint64_t loop_count_ref(uint64_t n) {
    uint64_t acc = 7, i = 0;
    do acc = acc * 31 + i++;
    while (i < n);
    return acc ^ i;
}
static void loop_registers(void) {
    tier_run in, jt;
    uint64_t loops0 = jit_loop_count();
    tier_open(&in, WEFT_TIER_INTERP, "tests/unit/data/jit_loops.wasm");
    tier_open(&jt, WEFT_TIER_JIT, "tests/unit/data/jit_loops.wasm");
    static const char *const names[] = {"count", "wide", "two_edges", "exit_mid", "walk", "trap_oob",
                                        "trap_div", "table_back", "nested", "many", "with_call", "grow"};
    static const int64_t ns[] = {0, 1, 2, 3, 4, 5, 7, 17, 100, 5000, 70000};
    char a[640], b[640];
    uint32_t checks = 0;
    for (size_t f = 0; f < sizeof names / sizeof names[0]; f++)
        for (size_t k = 0; k < sizeof ns / sizeof ns[0]; k++) {
            int64_t n = ns[k];
            /* Unmetered; then every budget through the first iterations
               (n up to 17), or a large budget taken in chunks. */
            uint64_t last = n <= 17 ? 40 + 12 * (uint64_t)n : 0;
            for (uint64_t budget = 0; budget <= last; budget++) {
                loop_text(&in, names[f], n, budget, a, sizeof a);
                loop_text(&jt, names[f], n, budget, b, sizeof b);
                EXPECTF(strcmp(a, b) == 0, "%s(%lld), fuel %llu: interp [%s], jit [%s]", names[f], (long long)n,
                        (unsigned long long)budget, a, b);
                checks++;
            }
            if (n > 17) {
                loop_text(&in, names[f], n, (uint64_t)1 << 40, a, sizeof a);
                loop_text(&jt, names[f], n, (uint64_t)1 << 40, b, sizeof b);
                EXPECTF(strcmp(a, b) == 0, "%s(%lld), fuel 2^40: interp [%s], jit [%s]", names[f], (long long)n, a, b);
                checks++;
            }
        }
    /* The interpreter's results are the loops' own. */
    loop_text(&jt, "count", 5000, 0, b, sizeof b);
    snprintf(a, sizeof a, "ok 0  %llx left", (unsigned long long)loop_count_ref(5000));
    EXPECTF(strncmp(a, b, strlen(a)) == 0, "count(5000): [%s], want [%s]", b, a);
    loop_text(&jt, "trap_div", 9, 0, b, sizeof b);
    EXPECTF(strstr(b, "integer divide by zero") != NULL, "trap_div(9): %s", b);
    loop_text(&jt, "trap_oob", 9, 0, b, sizeof b);
    EXPECTF(strstr(b, "out of bounds memory access") != NULL, "trap_oob(9): %s", b);
    EXPECT(checks > 1000);
    if (weft_jit_built())
        EXPECTF(jit_loop_count() - loops0 >= 8, "%llu loops compiled with registers, want 8 or more",
                (unsigned long long)(jit_loop_count() - loops0));

    /* Suspended from another thread inside the loop, resumed to the end. */
    const int64_t N = 60000000;
    CHECK(weft_store_set_fuel(jt.store, WEFT_FUEL_UNLIMITED) == WEFT_OK, "unmetered");
    weft_exec *exec = weft_exec_new(jt.store);
    CHECK(exec, "exec_new");
    weft_val arg = {.type = WEFT_I64, .of.i64 = N}, res;
    CHECK(weft_exec_start(exec, weft_instance_func(jt.inst, "count"), &arg, 1) == WEFT_OK, "exec_start");
    run_arg ra = {exec, WEFT_OK};
    int rounds = 0;
    do {
        pthread_t th;
        CHECK(pthread_create(&th, NULL, run_on_thread, &ra) == 0, "thread");
        sleep_ms(5);
        weft_exec_request(exec, WEFT_ATTN_SUSPEND);
        pthread_join(th, NULL);
    } while (ra.status == WEFT_SUSPENDED && ++rounds < 100000);
    CHECK(ra.status == WEFT_OK, "count: %s", weft_status_name(ra.status));
    CHECK(weft_exec_results(exec, &res, 1) == WEFT_OK, "results");
    EXPECTF((uint64_t)res.of.i64 == loop_count_ref((uint64_t)N), "count(%lld) suspended %d times: %llx, want %llx",
            (long long)N, rounds, (unsigned long long)res.of.i64, (unsigned long long)loop_count_ref((uint64_t)N));
    weft_exec_free(exec);
    printf("jit_test: part 12: %llu loops with registers, count(%lld) suspended %d times\n",
           (unsigned long long)(jit_loop_count() - loops0), (long long)N, rounds);
    tier_close(&in);
    tier_close(&jt);
}

/* Part 13: jit_bulk.wasm's exports (d, s, n) -> i32 with every triple
   of these on both tiers, one store each; the memories compared after
   every call. */
static void bulk_call(tier_run *t, const char *name, uint32_t d, uint32_t s, uint32_t n, char *out, size_t size) {
    weft_func *f = weft_instance_func(t->inst, name);
    CHECK(f, "export %s", name);
    weft_val args[3] = {{.type = WEFT_I32, .of.i32 = (int32_t)d},
                        {.type = WEFT_I32, .of.i32 = (int32_t)s},
                        {.type = WEFT_I32, .of.i32 = (int32_t)n}},
             res;
    weft_error err;
    weft_status st = weft_func_call(f, args, 3, &res, 1, &err);
    if (st == WEFT_OK) snprintf(out, size, "ok %d", (int)res.of.i32);
    else snprintf(out, size, "%s %d %.150s", weft_status_name(st), (int)err.trap, err.message);
}
static void bulk_memory_ops(void) {
    static const uint32_t addrs[] = {0, 1, 5, 16, 100, 65500, 65519, 65535, 65536, 65537, 0x7FFFFFFFu, 0xFFFFFFFFu};
    static const uint32_t lens[] = {0, 1, 2, 7, 16, 17, 36, 100, 1000, 65536, 0xFFFFFFFFu};
    static const char *const names[] = {"copy", "fill", "around", "loop"};
    tier_run in, jt;
    uint64_t compiled0, fell0, compiled1, fell1;
    weft_jit_stats(&compiled0, &fell0);
    tier_open(&in, WEFT_TIER_INTERP, "tests/unit/data/jit_bulk.wasm");
    tier_open(&jt, WEFT_TIER_JIT, "tests/unit/data/jit_bulk.wasm");
    uint32_t calls = 0, traps = 0;
    for (size_t f = 0; f < 4; f++)
        for (size_t i = 0; i < sizeof addrs / sizeof addrs[0]; i++)
            for (size_t j = 0; j < sizeof addrs / sizeof addrs[0]; j++)
                for (size_t k = 0; k < sizeof lens / sizeof lens[0]; k++) {
                    char a[200], b[200];
                    bulk_call(&in, names[f], addrs[i], addrs[j], lens[k], a, sizeof a);
                    bulk_call(&jt, names[f], addrs[i], addrs[j], lens[k], b, sizeof b);
                    calls++;
                    traps += strncmp(a, "ok", 2) != 0;
                    EXPECTF(strcmp(a, b) == 0 && tier_same_memory(&in, &jt),
                            "%s(%x, %x, %x): interp \"%s\", jit \"%s\"%s", names[f], addrs[i], addrs[j], lens[k], a, b,
                            tier_same_memory(&in, &jt) ? "" : ", memories differ");
                }
    /* Growing to the maximum (3 pages) and past it. */
    for (uint32_t g = 0; g < 4; g++) {
        char a[200], b[200];
        bulk_call(&in, "grow", 65500 + g, 100 * g, 36 + 40000 * g, a, sizeof a);
        bulk_call(&jt, "grow", 65500 + g, 100 * g, 36 + 40000 * g, b, sizeof b);
        EXPECTF(strcmp(a, b) == 0 && tier_same_memory(&in, &jt), "grow %u: interp \"%s\", jit \"%s\"", g, a, b);
    }
    uint64_t size;
    tier_mem(&jt, &size);
    EXPECT(size == 3 * 65536);
    weft_jit_stats(&compiled1, &fell1);
    if (weft_jit_built())
        EXPECTF(compiled1 - compiled0 >= 5 && fell1 == fell0, "bulk: %llu compiled, %llu fell back",
                (unsigned long long)(compiled1 - compiled0), (unsigned long long)(fell1 - fell0));
    EXPECTF(calls == 4 * 12 * 12 * 11 && traps > calls / 4 && traps < calls, "%u calls, %u traps", calls, traps);
    tier_close(&in);
    tier_close(&jt);
}

/* Part 14: an export of jit_tail.wasm called with n and a fuel budget
   (0: unmetered), as text: status, trap, message, backtrace, result, fuel
   left. */
static void tail_text(tier_run *t, const char *name, int64_t n, uint64_t budget, char *out, size_t size) {
    weft_error err;
    weft_val arg = {.type = WEFT_I64, .of.i64 = n}, r = {0};
    CHECK(weft_store_set_fuel(t->store, budget ? budget : WEFT_FUEL_UNLIMITED) == WEFT_OK, "fuel");
    weft_func *f = weft_instance_func(t->inst, name);
    CHECK(f, "export %s", name);
    weft_status st = weft_func_call(f, &arg, 1, &r, 1, &err);
    int k = snprintf(out, size, "%s %d %.150s %llx left %llu:", weft_status_name(st),
                     st == WEFT_OK ? 0 : (int)err.trap, st == WEFT_OK ? "" : err.message,
                     (unsigned long long)r.of.i64, (unsigned long long)weft_store_fuel(t->store));
    for (uint32_t i = 0; st != WEFT_OK && i < err.frame_count && k > 0 && (size_t)k < size; i++)
        k += snprintf(out + k, size - (size_t)k, " %u@%u", err.frames[i].func_index, err.frames[i].offset);
}
static void tail_calls(void) {
    static const struct {
        const char *name;
        int64_t n;
        uint64_t from, to; /* fuel budgets tried after an unmetered run (0, 0: none) */
        bool small;        /* on a 64 KiB stack */
    } runs[] = {
        {"even", 3000000, 0, 0, false}, {"even", 41, 1, 60, false}, {"sum", 100000, 0, 0, false},
        {"sum", 30, 1, 50, false},      {"ind", 100001, 0, 0, false}, {"ind", 25, 1, 40, false},
        {"bad", 0, 1, 5, false},        {"bad", 1, 0, 0, false},      {"bad", 2, 0, 0, false},
        {"bad", 3, 1, 4, false},        {"bad", 4, 0, 0, false},      {"bad", 9, 0, 0, false},
        {"to_big", 5, 1, 4, false},     {"to_big", 5, 0, 0, true},    {"boom", 20, 1, 30, false},
    };
    tier_run in, jt, in_small, jt_small;
    uint64_t compiled0, fell0, compiled1, fell1;
    weft_jit_stats(&compiled0, &fell0);
    tier_open(&in, WEFT_TIER_INTERP, "tests/unit/data/jit_tail.wasm");
    tier_open(&jt, WEFT_TIER_JIT, "tests/unit/data/jit_tail.wasm");
    tier_open_stack(&in_small, WEFT_TIER_INTERP, "tests/unit/data/jit_tail.wasm", 64 << 10);
    tier_open_stack(&jt_small, WEFT_TIER_JIT, "tests/unit/data/jit_tail.wasm", 64 << 10);
    char a[600], b[600];
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        tier_run *ti = runs[i].small ? &in_small : &in, *tj = runs[i].small ? &jt_small : &jt;
        for (uint64_t budget = runs[i].from ? runs[i].from - 1 : 0; budget <= runs[i].to; budget++) {
            uint64_t fuel = runs[i].from && budget == runs[i].from - 1 ? 0 : budget; /* the first: unmetered */
            tail_text(ti, runs[i].name, runs[i].n, fuel, a, sizeof a);
            tail_text(tj, runs[i].name, runs[i].n, fuel, b, sizeof b);
            EXPECTF(strcmp(a, b) == 0, "%s(%lld), fuel %llu: interp [%s], jit [%s]", runs[i].name,
                    (long long)runs[i].n, (unsigned long long)fuel, a, b);
        }
    }
    /* The results themselves (the interpreter's, the same as above). */
    tail_text(&jt, "sum", 100000, 0, b, sizeof b);
    EXPECTF(strstr(b, "ok 0  12a06b550 ") == b, "sum(100000): %s, want 5000050000 = 0x12a06b550", b);
    tail_text(&jt, "even", 3000000, 0, b, sizeof b);
    EXPECTF(strstr(b, "ok 0  1 ") == b, "even(3000000): %s", b);
    tail_text(&jt_small, "to_big", 5, 0, b, sizeof b);
    EXPECTF(strstr(b, "call stack exhausted") != NULL, "to_big on 64 KiB: %s", b);
    tail_text(&jt, "boom", 20, 0, b, sizeof b);
    EXPECTF(strstr(b, "unreachable") != NULL, "boom(20): %s", b);
    weft_jit_stats(&compiled1, &fell1);
    if (weft_jit_built())
        EXPECTF(compiled1 - compiled0 >= 8 && fell1 == fell0, "tail: %llu compiled, %llu fell back",
                (unsigned long long)(compiled1 - compiled0), (unsigned long long)(fell1 - fell0));
    tier_close(&in);
    tier_close(&jt);
    tier_close(&in_small);
    tier_close(&jt_small);
}

int main(void) {
#if WEFT_JIT
    encodings();
#else
    printf("jit_test: no compiler tier in this build: encodings and compile counts not checked\n");
#endif
    tier_run in, jt;
    tier_open(&in, WEFT_TIER_INTERP, "tests/unit/data/suspend_loop.wasm");
    tier_open(&jt, WEFT_TIER_JIT, "tests/unit/data/suspend_loop.wasm");
    CHECK(in.run && jt.run, "no export run");
    uint64_t before, after;
    weft_jit_stats(&before, NULL);

    /* Same results. */
    weft_error err;
    for (int64_t n = 0; n < 2000; n += 333) {
        weft_val arg = {.type = WEFT_I64, .of.i64 = n}, a, b;
        CHECK(weft_func_call(in.run, &arg, 1, &a, 1, &err) == WEFT_OK, "interp: %s", err.message);
        CHECK(weft_func_call(jt.run, &arg, 1, &b, 1, &err) == WEFT_OK, "jit: %s", err.message);
        EXPECTF(a.of.i64 == reference(n) && b.of.i64 == a.of.i64, "run(%lld): interp %llx, jit %llx",
                (long long)n, (unsigned long long)a.of.i64, (unsigned long long)b.of.i64);
    }
    weft_jit_stats(&after, NULL);
    if (weft_jit_built()) EXPECTF(after >= before + 2, "compiled %llu functions, want both", (unsigned long long)(after - before));

    /* Same fuel: every safe point counted once, whichever tier passes it;
       and the same point of running out. */
    EXPECT(fuel_after(&in, 500, 100000) == fuel_after(&jt, 500, 100000));
    EXPECT(fuel_after(&in, 500, 100000) != UINT64_MAX);
    for (uint64_t budget = 995; budget <= 1010; budget++) {
        uint64_t a = fuel_after(&in, 500, budget), b = fuel_after(&jt, 500, budget);
        EXPECTF(a == b, "budget %llu: interp %llu, jit %llu", (unsigned long long)budget, (unsigned long long)a,
                (unsigned long long)b);
    }
    CHECK(weft_store_set_fuel(jt.store, WEFT_FUEL_UNLIMITED) == WEFT_OK, "unmetered");

    /* Suspended from another thread while in compiled code, resumed. */
    const int64_t N = 30000000;
    weft_exec *exec = weft_exec_new(jt.store);
    CHECK(exec, "exec_new");
    weft_val arg = {.type = WEFT_I64, .of.i64 = N}, res;
    CHECK(weft_exec_start(exec, jt.run, &arg, 1) == WEFT_OK, "exec_start");
    run_arg ra = {exec, WEFT_OK};
    pthread_t th;
    CHECK(pthread_create(&th, NULL, run_on_thread, &ra) == 0, "thread");
    sleep_ms(30);
    weft_exec_request(exec, WEFT_ATTN_SUSPEND);
    pthread_join(th, NULL);
    EXPECTF(ra.status == WEFT_SUSPENDED, "first run: %s (the machine may be too fast for %lld steps)",
            weft_status_name(ra.status), (long long)N);
    int rounds = 0;
    while (ra.status == WEFT_SUSPENDED && rounds++ < 1000) {
        CHECK(pthread_create(&th, NULL, run_on_thread, &ra) == 0, "thread");
        pthread_join(th, NULL);
    }
    CHECK(ra.status == WEFT_OK, "resumed run: %s", weft_status_name(ra.status));
    CHECK(weft_exec_results(exec, &res, 1) == WEFT_OK, "results");
    EXPECTF(res.of.i64 == reference(N), "suspended run: got %llx, want %llx", (unsigned long long)res.of.i64,
            (unsigned long long)reference(N));
    weft_exec_free(exec);

    /* Auto: the loop starts interpreted, metered, and is compiled at its
       second millisecond's sample, in the middle of the call. */
    tier_run au;
    tier_open(&au, WEFT_TIER_AUTO, "tests/unit/data/suspend_loop.wasm");
    CHECK(au.run, "no export run");
    const int64_t M = 3000000;
    uint64_t big = (uint64_t)1 << 40;
    uint64_t fuel_interp = fuel_after(&in, M, big);
    weft_jit_stats(&before, NULL);
    after = before;
    /* (Each call takes tens of ms; a loaded machine may hold the ticker
       off for one, not for fifty.) */
    for (int i = 0; i < 50 && after == before; i++) {
        EXPECT(fuel_after(&au, M, big) == fuel_interp);
        weft_jit_stats(&after, NULL);
    }
    if (weft_jit_built())
        EXPECTF(after > before, "auto: nothing compiled during a long run (%llu before, %llu after)",
                (unsigned long long)before, (unsigned long long)after);
    tier_close(&au);

    tier_close(&in);
    tier_close(&jt);

    scalar_ops();
    atomic_ops();
    simd_ops();
    brtable_fuel();
    auto_tierup();
    machine_stack_calls();
    loop_registers();
    bulk_memory_ops();
    tail_calls();

    for (uint64_t fuel = 0; fuel <= 110; fuel++) {
        char a[512], b[512];
        trap_text(WEFT_TIER_INTERP, fuel, a, sizeof a);
        trap_text(WEFT_TIER_JIT, fuel, b, sizeof b);
        EXPECTF(strcmp(a, b) == 0, "fuel %llu: interp \"%s\", jit \"%s\"", (unsigned long long)fuel, a, b);
        if (fuel == 0) EXPECTF(strstr(a, "out of bounds memory access: 0@") != NULL, "unmetered: %s", a);
    }
    return check_summary("jit_test");
}
