/* abi_calls_test — the canonical ABI's call-level API (src/component/
   cabi.h) as the linker uses it, a call from component A (utf8) into
   component B (utf16) played by hand on two C memories:
   - cm_abi_flatten_functype: the core signatures of both sides, spills;
   - canon lower in A: cm_abi_lift_params reads A's arguments; canon lift
     into B: cm_abi_lower_params writes them into B through B's realloc
     (transcoded); B's result lifted (cm_abi_lift_results, through the
     returned pointer) and lowered into A through A's out-pointer
     (cm_abi_lower_results);
   - twenty params spill into a realloc'd tuple and come back;
   - own and borrow handles across: moved out of A, lent and given back
     (cm_subtask_end), B's borrow dropped before cm_task_return;
   - a memory that moves at every realloc (the base is read again);
   - misuse (wrong flat count or type, a value of the wrong kind, no
     realloc option) is WEFT_ERR_MISUSE, a type nested past
     CM_ABI_MAX_DEPTH is refused by cm_abi_layout. */
#include <stdlib.h>
#include <string.h>

#include "component/cabi.h"
#include "component/resource.h"

#include "check.h"

/* A memory that moves to a new allocation at every realloc call. */
typedef struct mem {
    uint8_t *base;
    uint64_t size, last;
    int moves;
} mem;

static uint8_t *mem_fn(void *env, uint64_t *size) {
    mem *m = env;
    *size = m->size;
    return m->base;
}

static weft_status realloc_fn(void *env, uint32_t old, uint32_t old_size, uint32_t align,
                              uint32_t new_size, uint32_t *out, weft_error *err) {
    (void)err;
    mem *m = env;
    uint64_t at = (m->last + align - 1) / align * align;
    uint64_t nsize = at + new_size > m->size ? at + new_size : m->size;
    uint8_t *nb = malloc(nsize); /* always somewhere else */
    memcpy(nb, m->base, m->size);
    memset(nb + m->size, 0, nsize - m->size);
    memset(m->base, 0xdd, m->size); /* the old place is garbage now */
    free(m->base);
    m->base = nb;
    m->size = nsize;
    m->moves++;
    if (old_size) memmove(m->base + at, m->base + old, old_size < new_size ? old_size : new_size);
    m->last = at + new_size;
    *out = (uint32_t)at;
    return WEFT_OK;
}

static void mem_init(mem *m, uint64_t size, uint64_t heap_start) {
    m->base = calloc(1, size);
    m->size = size;
    m->last = heap_start;
    m->moves = 0;
}

static void put32(mem *m, uint32_t at, uint32_t v) { memcpy(m->base + at, &v, 4); }
static uint32_t get32(const mem *m, uint32_t at) {
    uint32_t v;
    memcpy(&v, m->base + at, 4);
    return v;
}

static int id_a, id_b;
static cm_resource R = {.name = "R", .owner = &id_a}; /* A's resource */

static void test_call(void) {
    /* f(s: string, l: list<u32>) -> string */
    cm_valtype list_u32 = {.kind = CM_LIST, .elem = cm_prim(CM_U32)};
    weft_error err;
    CHECK(cm_abi_layout(&list_u32, &err) == WEFT_OK, "layout");
    cm_field ps[2] = {{.name = "s", .name_len = 1, .type = cm_prim(CM_STRING)},
                      {.name = "l", .name_len = 1, .type = &list_u32}};
    cm_functype ft = {.nparams = 2, .params = ps, .result = cm_prim(CM_STRING)};
    cm_core_sig lift, lower;
    cm_abi_flatten_functype(&ft, false, false, CM_ABI_LIFT, &lift);
    cm_abi_flatten_functype(&ft, false, false, CM_ABI_LOWER, &lower);
    EXPECT(lift.nparams == 4 && lift.nresults == 1 && lift.results_spilled && !lift.params_spilled);
    EXPECT(lower.nparams == 5 && lower.nresults == 0 && lower.results_spilled);
    for (uint32_t i = 0; i < 5; i++) EXPECT(lower.params[i] == WEFT_I32);

    /* A's core code called the lowered import: "héllo" at 100, [1,2,3] at 200, out-pointer 300 */
    mem ma, mb;
    mem_init(&ma, 1024, 512);
    mem_init(&mb, 256, 16);
    memcpy(ma.base + 100, "h\xc3\xa9llo", 6);
    for (uint32_t i = 0; i < 3; i++) put32(&ma, 200 + 4 * i, i + 1);
    weft_val args[5];
    uint32_t av[5] = {100, 6, 200, 3, 300};
    for (int i = 0; i < 5; i++) args[i] = (weft_val){.type = WEFT_I32, .of.i32 = (int32_t)av[i]};
    cm_abi_opts oa = {.encoding = CM_ENC_UTF8, .memory = mem_fn, .memory_env = &ma, .realloc = realloc_fn, .realloc_env = &ma};
    cm_abi_opts ob = {.encoding = CM_ENC_UTF16, .memory = mem_fn, .memory_env = &mb, .realloc = realloc_fn, .realloc_env = &mb};
    cm_inst_state sa, sb;
    cm_inst_state_init(&sa, &id_a);
    cm_inst_state_init(&sb, &id_b);
    cm_arena arena = {.limit = 1 << 20};
    cm_abi_cx cxa, cxb;
    cm_abi_cx_init(&cxa, &oa, &sa, &arena, &err);
    cm_abi_cx_init(&cxb, &ob, &sb, &arena, &err);
    cm_subtask sub;
    cm_subtask_begin(&sub, &sa);
    cm_task task;
    cm_task_begin(&task, &sb);
    cxa.subtask = &sub;
    cxb.task = &task;

    cm_val vals[2];
    CHECK(cm_abi_lift_params(&cxa, &ft, args, 5, vals) == WEFT_OK, "lift_params: %s", err.message);
    EXPECT(vals[0].kind == CM_STRING && vals[0].n == 6 && memcmp(vals[0].v.str, "h\xc3\xa9llo", 6) == 0);
    EXPECT(vals[0].v.str_src == CM_STR_UTF8);
    EXPECT(vals[1].kind == CM_LIST && vals[1].n == 3 && vals[1].v.items[2].v.u == 3);

    weft_val flat[CM_MAX_FLAT_PARAMS + 1];
    uint32_t nflat;
    CHECK(cm_abi_lower_params(&cxb, &ft, vals, flat, &nflat) == WEFT_OK, "lower_params: %s", err.message);
    EXPECT(nflat == 4);
    EXPECT(mb.moves >= 2); /* B's memory moved under the lowering */
    uint32_t sp = (uint32_t)flat[0].of.i32, sl = (uint32_t)flat[1].of.i32;
    EXPECT(sl == 5 && sp % 2 == 0);
    static const uint16_t want16[5] = {'h', 0xe9, 'l', 'l', 'o'};
    EXPECT(sp + 10 <= mb.size && memcmp(mb.base + sp, want16, 10) == 0);
    uint32_t lp = (uint32_t)flat[2].of.i32;
    EXPECT(flat[3].of.i32 == 3 && get32(&mb, lp) == 1 && get32(&mb, lp + 8) == 3);

    /* B returns "ok✓" in utf16 at 200, its (ptr, len) at 240: the result pointer */
    static const uint16_t ok16[3] = {'o', 'k', 0x2713};
    memcpy(mb.base + 200, ok16, 6);
    put32(&mb, 240, 200);
    put32(&mb, 244, 3);
    weft_val r = {.type = WEFT_I32, .of.i32 = 240};
    cm_val result;
    CHECK(cm_abi_lift_results(&cxb, &ft, &r, 1, &result) == WEFT_OK, "lift_results: %s", err.message);
    EXPECT(result.n == 5 && memcmp(result.v.str, "ok\xe2\x9c\x93", 5) == 0 && result.v.str_src == CM_STR_UTF16);
    EXPECT(cm_task_return(&task, &err) == WEFT_OK);

    /* back into A through its out-pointer 300 */
    int moves = ma.moves;
    CHECK(cm_abi_lower_results(&cxa, &ft, &result, args, 5, flat, &nflat) == WEFT_OK, "lower_results: %s", err.message);
    EXPECT(nflat == 0);
    uint32_t rp = get32(&ma, 300), rl = get32(&ma, 304);
    EXPECT(rl == 5 && rp + 5 <= ma.size && memcmp(ma.base + rp, "ok\xe2\x9c\x93", 5) == 0);
    /* from utf16 into utf8: units (3), then 3 x units (9), then shrunk to 5 */
    EXPECT(ma.moves - moves == 3);
    cm_subtask_end(&sub);

    /* misuse */
    EXPECT(cm_abi_lift_params(&cxa, &ft, args, 4, vals) == WEFT_ERR_MISUSE); /* the out-pointer missing */
    weft_val bad[5];
    memcpy(bad, args, sizeof bad);
    bad[1].type = WEFT_I64;
    EXPECT(cm_abi_lift_params(&cxa, &ft, bad, 5, vals) == WEFT_ERR_MISUSE);
    EXPECT(strstr(err.message, "flat value 1 is i64 where i32 is expected"));
    cm_val wrong[2] = {{.kind = CM_U32, .v.u = 1}, vals[1]};
    EXPECT(cm_abi_lower_params(&cxb, &ft, wrong, flat, &nflat) == WEFT_ERR_MISUSE);
    cm_abi_opts noalloc = ob;
    noalloc.realloc = NULL;
    cm_abi_cx cxn;
    cm_abi_cx_init(&cxn, &noalloc, &sb, &arena, &err);
    EXPECT(cm_abi_lower_params(&cxn, &ft, vals, flat, &nflat) == WEFT_ERR_MISUSE);

    cm_arena_free(&arena);
    cm_inst_state_free(&sa);
    cm_inst_state_free(&sb);
    free(ma.base);
    free(mb.base);
}

static void test_spill(void) {
    cm_field ps[20];
    for (int i = 0; i < 20; i++) ps[i] = (cm_field){.name = "p", .name_len = 1, .type = cm_prim(i % 2 ? CM_U64 : CM_U8)};
    cm_functype ft = {.nparams = 20, .params = ps};
    cm_core_sig sig;
    cm_abi_flatten_functype(&ft, false, false, CM_ABI_LIFT, &sig);
    EXPECT(sig.params_spilled && sig.nparams == 1 && sig.params[0] == WEFT_I32 && sig.nresults == 0);
    mem m;
    mem_init(&m, 64, 8);
    cm_abi_opts o = {.encoding = CM_ENC_UTF8, .memory = mem_fn, .memory_env = &m, .realloc = realloc_fn, .realloc_env = &m};
    cm_inst_state s;
    cm_inst_state_init(&s, &id_b);
    cm_arena arena = {0};
    weft_error err;
    cm_abi_cx cx;
    cm_abi_cx_init(&cx, &o, &s, &arena, &err);
    cm_val v[20], back[20];
    for (int i = 0; i < 20; i++) v[i] = (cm_val){.kind = ps[i].type->kind, .v.u = i % 2 ? 0x100000000ull * i + 7 : (uint64_t)i};
    weft_val flat[CM_MAX_FLAT_PARAMS + 1];
    uint32_t nflat;
    CHECK(cm_abi_lower_params(&cx, &ft, v, flat, &nflat) == WEFT_OK, "lower: %s", err.message);
    uint32_t p = (uint32_t)flat[0].of.i32;
    EXPECT(nflat == 1 && p % 8 == 0 && m.moves == 1);
    EXPECT(m.base[p] == 0 && m.base[p + 8] == 7); /* u8 0, then u64 at 8 */
    CHECK(cm_abi_lift_params(&cx, &ft, flat, 1, back) == WEFT_OK, "lift: %s", err.message);
    for (int i = 0; i < 20; i++) EXPECT(cm_val_equal(&v[i], &back[i]));
    /* the tuple must be aligned and within memory */
    flat[0].of.i32 = (int32_t)(p + 4);
    EXPECT(cm_abi_lift_params(&cx, &ft, flat, 1, back) == WEFT_ERR_TRAP && cm_trap_code(&err) == CM_TRAP_UNALIGNED);
    flat[0].of.i32 = (int32_t)(m.size - 8);
    EXPECT(cm_abi_lift_params(&cx, &ft, flat, 1, back) == WEFT_ERR_TRAP && cm_trap_code(&err) == CM_TRAP_OOB);
    cm_arena_free(&arena);
    cm_inst_state_free(&s);
    free(m.base);
}

static void test_handles_across(void) {
    /* g(o: own<R>, b: borrow<R>) from A (which defines R) into B */
    cm_valtype own = {.kind = CM_OWN, .resource = &R}, bor = {.kind = CM_BORROW, .resource = &R};
    weft_error err;
    CHECK(cm_abi_layout(&own, &err) == WEFT_OK && cm_abi_layout(&bor, &err) == WEFT_OK, "layout");
    cm_field ps[2] = {{.name = "o", .name_len = 1, .type = &own}, {.name = "b", .name_len = 1, .type = &bor}};
    cm_functype ft = {.nparams = 2, .params = ps};
    cm_inst_state sa, sb;
    cm_inst_state_init(&sa, &id_a);
    cm_inst_state_init(&sb, &id_b);
    uint32_t h1, h2;
    CHECK(cm_resource_new(&sa, &R, 11, &h1, &err) == WEFT_OK && cm_resource_new(&sa, &R, 22, &h2, &err) == WEFT_OK, "new");
    cm_abi_opts o = {.encoding = CM_ENC_UTF8};
    cm_arena arena = {0};
    cm_abi_cx cxa, cxb;
    cm_abi_cx_init(&cxa, &o, &sa, &arena, &err);
    cm_abi_cx_init(&cxb, &o, &sb, &arena, &err);
    cm_subtask sub;
    cm_subtask_begin(&sub, &sa);
    cm_task task;
    cm_task_begin(&task, &sb);
    cxa.subtask = &sub;
    cxb.task = &task;
    weft_val args[2] = {{.type = WEFT_I32, .of.i32 = (int32_t)h1}, {.type = WEFT_I32, .of.i32 = (int32_t)h2}};
    cm_val v[2];
    CHECK(cm_abi_lift_params(&cxa, &ft, args, 2, v) == WEFT_OK, "lift: %s", err.message);
    EXPECT(v[0].v.rep == 11 && v[1].v.rep == 22);
    EXPECT(cm_handles_get(&sa.handles, h1) == NULL);                /* moved out */
    EXPECT(cm_handles_get(&sa.handles, h2)->num_lends == 1);        /* lent */
    weft_val flat[CM_MAX_FLAT_PARAMS + 1];
    uint32_t nflat;
    CHECK(cm_abi_lower_params(&cxb, &ft, v, flat, &nflat) == WEFT_OK, "lower: %s", err.message);
    uint32_t bo = (uint32_t)flat[0].of.i32, bb = (uint32_t)flat[1].of.i32;
    EXPECT(cm_handles_get(&sb.handles, bo)->kind == CM_ELEM_OWN && cm_handles_get(&sb.handles, bb)->kind == CM_ELEM_BORROW);
    EXPECT(task.num_borrows == 1);
    EXPECT(cm_task_return(&task, &err) == WEFT_ERR_TRAP && cm_trap_code(&err) == CM_TRAP_BORROWS_REMAIN);
    cm_task_begin(&task, &sb);
    CHECK(cm_resource_drop(&sb, &R, bb, &err) == WEFT_OK, "drop the borrow");
    cm_subtask_end(&sub);
    EXPECT(cm_handles_get(&sa.handles, h2)->num_lends == 0);
    EXPECT(cm_resource_drop(&sa, &R, h2, &err) == WEFT_OK);
    cm_arena_free(&arena);
    cm_inst_state_free(&sa);
    cm_inst_state_free(&sb);
}

static void test_depth(void) {
    cm_valtype chain[200];
    for (int i = 0; i < 200; i++) chain[i] = (cm_valtype){.kind = CM_OPTION, .elem = i ? &chain[i - 1] : cm_prim(CM_U8)};
    weft_error err;
    EXPECT(cm_abi_layout(&chain[199], &err) == WEFT_ERR_INVALID && strstr(err.message, "deeper than"));
    EXPECT(cm_abi_layout(&chain[100], &err) == WEFT_OK && chain[100].flat_count == 102);
}

int main(void) {
    test_call();
    test_spill();
    test_handles_across();
    test_depth();
    return check_summary("abi_calls_test");
}
