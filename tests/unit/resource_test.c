/* resource_test — handle tables and the resource rules of the canonical
   ABI (src/component/resource.c; CanonicalABI.md "Table State", "Resource
   State", "canon resource.new/drop/rep", lift_own/lift_borrow/lower_own/
   lower_borrow), each trap the spec names checked by its condition:
   - indices from 1, reused last-freed first (the order the component
     model's handle-table.wast asserts);
   - unknown index (0, never allocated, freed, 0xffffffff), wrong type,
     double drop;
   - the destructor runs once, with the rep, on the drop of an own handle
     only (not a borrow, not a move out), and its trap is the drop's;
   - an own handle lent to a call cannot be dropped or moved out until
     the call ends (cm_subtask_end), then can;
   - a borrow lowered into a callee must be dropped before it returns
     (cm_task_return traps otherwise), and lowered into the resource's own
     instance it is the rep itself;
   - a borrow handle is not an own handle (lift_own traps);
   - no built-in while realloc runs (may_leave), also from inside a
     realloc the canonical ABI calls;
   - the table's limit;
   - every trap's phrase is unique and none begins another (cm_trap_code). */
#include <string.h>

#include "component/cabi.h"
#include "component/resource.h"

#include "check.h"

static int inst_a, inst_b; /* identities of two instances */
static cm_resource RA = {.name = "RA", .owner = &inst_a}; /* defined by instance A */
static cm_resource RB = {.name = "RB", .owner = &inst_b};

/* the destructor: counts calls, keeps the last rep; traps when asked */
static int dtor_calls;
static uint32_t dtor_rep;
static bool dtor_traps;

static weft_status dtor(const cm_resource *rt, uint32_t rep, void *env, weft_error *err) {
    (void)rt;
    (void)env;
    dtor_calls++;
    dtor_rep = rep;
    if (dtor_traps) return cm_trap_fail(err, CM_TRAP_OTHER, "destructor trapped on %u", rep);
    return WEFT_OK;
}

static cm_trap trap_of(weft_status st, const weft_error *err) {
    return st == WEFT_ERR_TRAP ? cm_trap_code(err) : CM_TRAP_NONE;
}

static void test_indices(void) {
    cm_inst_state s;
    cm_inst_state_init(&s, &inst_a);
    weft_error err;
    uint32_t i;
    for (uint32_t k = 1; k <= 3; k++) {
        CHECK(cm_resource_new(&s, &RA, 100 * k, &i, &err) == WEFT_OK, "new: %s", err.message);
        EXPECTF(i == k, "new gave %u, expected %u", i, k);
    }
    CHECK(cm_resource_drop(&s, &RA, 2, &err) == WEFT_OK, "drop: %s", err.message);
    CHECK(cm_resource_new(&s, &RA, 400, &i, &err) == WEFT_OK, "new");
    EXPECT(i == 2);
    uint32_t rep;
    CHECK(cm_resource_rep(&s, &RA, 2, &rep, &err) == WEFT_OK, "rep");
    EXPECT(rep == 400);
    CHECK(cm_resource_rep(&s, &RA, 1, &rep, &err) == WEFT_OK, "rep");
    EXPECT(rep == 100);
    for (uint32_t k = 1; k <= 3; k++) CHECK(cm_resource_drop(&s, &RA, k, &err) == WEFT_OK, "drop %u", k);
    uint32_t want[] = {3, 2, 1, 4};
    for (int k = 0; k < 4; k++) {
        CHECK(cm_resource_new(&s, &RA, 500 + k, &i, &err) == WEFT_OK, "new");
        EXPECTF(i == want[k], "new %d gave %u, expected %u", k, i, want[k]);
    }
    cm_inst_state_free(&s);
}

static void test_unknown_and_type(void) {
    cm_inst_state s;
    cm_inst_state_init(&s, &inst_a);
    weft_error err;
    uint32_t i, rep;
    CHECK(cm_resource_new(&s, &RA, 7, &i, &err) == WEFT_OK, "new");
    uint32_t bad[] = {0, 5, 0xffffffffu};
    for (int k = 0; k < 3; k++) {
        weft_status st = cm_resource_drop(&s, &RA, bad[k], &err);
        EXPECT(trap_of(st, &err) == CM_TRAP_HANDLE_UNKNOWN);
        char want[64];
        snprintf(want, sizeof want, "unknown handle index %u", bad[k]);
        EXPECTF(strcmp(err.message, want) == 0, "message '%s'", err.message);
        EXPECT(err.trap == WEFT_TRAP_HOST);
        st = cm_resource_rep(&s, &RA, bad[k], &rep, &err);
        EXPECT(trap_of(st, &err) == CM_TRAP_HANDLE_UNKNOWN);
    }
    /* wrong type: drop, rep, lift_own, lift_borrow */
    weft_status st = cm_resource_drop(&s, &RB, i, &err);
    EXPECT(trap_of(st, &err) == CM_TRAP_HANDLE_TYPE);
    EXPECTF(strstr(err.message, "handle index 1 used with the wrong type, expected RB but found RA"),
            "message '%s'", err.message);
    EXPECT(trap_of(cm_resource_rep(&s, &RB, i, &rep, &err), &err) == CM_TRAP_HANDLE_TYPE);
    EXPECT(trap_of(cm_lift_own(&s, &RB, i, &rep, &err), &err) == CM_TRAP_HANDLE_TYPE);
    cm_subtask sub;
    cm_subtask_begin(&sub, &s);
    EXPECT(trap_of(cm_lift_borrow(&s, &sub, &RB, i, &rep, &err), &err) == CM_TRAP_HANDLE_TYPE);
    EXPECT(sub.nlenders == 0);
    cm_subtask_end(&sub);
    /* the handle is still there after those traps, and drops once */
    CHECK(cm_resource_rep(&s, &RA, i, &rep, &err) == WEFT_OK && rep == 7, "rep after traps");
    CHECK(cm_resource_drop(&s, &RA, i, &err) == WEFT_OK, "drop");
    st = cm_resource_drop(&s, &RA, i, &err); /* double drop */
    EXPECT(trap_of(st, &err) == CM_TRAP_HANDLE_UNKNOWN);
    EXPECT(strcmp(err.message, "unknown handle index 1") == 0);
    EXPECT(trap_of(cm_lift_own(&s, &RA, i, &rep, &err), &err) == CM_TRAP_HANDLE_UNKNOWN);
    cm_inst_state_free(&s);
}

static void test_destructor(void) {
    cm_resource RD = {.name = "RD", .owner = &inst_a, .dtor = dtor};
    cm_inst_state s;
    cm_inst_state_init(&s, &inst_a);
    weft_error err;
    uint32_t i, j, rep;
    dtor_calls = 0;
    CHECK(cm_resource_new(&s, &RD, 42, &i, &err) == WEFT_OK, "new");
    CHECK(cm_resource_drop(&s, &RD, i, &err) == WEFT_OK, "drop: %s", err.message);
    EXPECT(dtor_calls == 1 && dtor_rep == 42);
    EXPECT(trap_of(cm_resource_drop(&s, &RD, i, &err), &err) == CM_TRAP_HANDLE_UNKNOWN);
    EXPECT(dtor_calls == 1); /* once */
    /* a move out (lift_own) is no destruction */
    CHECK(cm_resource_new(&s, &RD, 43, &i, &err) == WEFT_OK, "new");
    CHECK(cm_lift_own(&s, &RD, i, &rep, &err) == WEFT_OK && rep == 43, "lift_own");
    EXPECT(dtor_calls == 1);
    EXPECT(cm_handles_get(&s.handles, i) == NULL);
    /* nor is the drop of a borrow */
    cm_inst_state b;
    cm_inst_state_init(&b, &inst_b);
    cm_task task;
    cm_task_begin(&task, &b);
    CHECK(cm_lower_borrow(&b, &task, &RD, 44, &j, &err) == WEFT_OK, "lower_borrow");
    EXPECT(task.num_borrows == 1);
    CHECK(cm_resource_drop(&b, &RD, j, &err) == WEFT_OK, "drop borrow");
    EXPECT(dtor_calls == 1 && task.num_borrows == 0);
    CHECK(cm_task_return(&task, &err) == WEFT_OK, "return");
    /* the destructor's trap is the drop's, and the handle is gone */
    dtor_traps = true;
    CHECK(cm_resource_new(&s, &RD, 45, &i, &err) == WEFT_OK, "new");
    weft_status st = cm_resource_drop(&s, &RD, i, &err);
    EXPECT(st == WEFT_ERR_TRAP && strstr(err.message, "destructor trapped on 45"));
    EXPECT(dtor_calls == 2 && dtor_rep == 45);
    EXPECT(cm_handles_get(&s.handles, i) == NULL);
    dtor_traps = false;
    cm_inst_state_free(&b);
    cm_inst_state_free(&s);
}

static void test_lent(void) {
    cm_resource RD = {.name = "RD", .owner = &inst_a, .dtor = dtor};
    cm_inst_state s;
    cm_inst_state_init(&s, &inst_a);
    weft_error err;
    uint32_t i, rep;
    dtor_calls = 0;
    CHECK(cm_resource_new(&s, &RD, 9, &i, &err) == WEFT_OK, "new");
    cm_subtask sub;
    cm_subtask_begin(&sub, &s);
    /* lent twice to one call */
    CHECK(cm_lift_borrow(&s, &sub, &RD, i, &rep, &err) == WEFT_OK && rep == 9, "lift_borrow");
    CHECK(cm_lift_borrow(&s, &sub, &RD, i, &rep, &err) == WEFT_OK, "lift_borrow");
    EXPECT(cm_handles_get(&s.handles, i)->num_lends == 2);
    weft_status st = cm_resource_drop(&s, &RD, i, &err);
    EXPECT(trap_of(st, &err) == CM_TRAP_HANDLE_LENT);
    EXPECTF(strncmp(err.message, "cannot remove owned resource while borrowed", 43) == 0, "message '%s'", err.message);
    EXPECT(trap_of(cm_lift_own(&s, &RD, i, &rep, &err), &err) == CM_TRAP_HANDLE_LENT);
    EXPECT(dtor_calls == 0 && cm_handles_get(&s.handles, i));
    cm_subtask_end(&sub); /* the call returned */
    EXPECT(cm_handles_get(&s.handles, i)->num_lends == 0);
    CHECK(cm_resource_drop(&s, &RD, i, &err) == WEFT_OK, "drop after the call: %s", err.message);
    EXPECT(dtor_calls == 1 && dtor_rep == 9);
    cm_inst_state_free(&s);
}

static void test_borrow_scope(void) {
    cm_inst_state b; /* the callee, which does not define RA */
    cm_inst_state_init(&b, &inst_b);
    weft_error err;
    uint32_t h1, h2, rep;
    cm_task task;
    cm_task_begin(&task, &b);
    CHECK(cm_lower_borrow(&b, &task, &RA, 5, &h1, &err) == WEFT_OK, "lower_borrow");
    CHECK(cm_lower_borrow(&b, &task, &RA, 6, &h2, &err) == WEFT_OK, "lower_borrow");
    EXPECT(h1 == 1 && h2 == 2 && task.num_borrows == 2);
    EXPECT(cm_handles_get(&b.handles, h1)->kind == CM_ELEM_BORROW);
    CHECK(cm_resource_rep(&b, &RA, h2, &rep, &err) == WEFT_OK && rep == 6, "rep of a borrow");
    /* a borrow is not an own handle */
    EXPECT(trap_of(cm_lift_own(&b, &RA, h1, &rep, &err), &err) == CM_TRAP_HANDLE_NOT_OWN);
    CHECK(cm_resource_drop(&b, &RA, h1, &err) == WEFT_OK, "drop h1");
    EXPECT(task.num_borrows == 1);
    /* returning with h2 not dropped: the borrow would outlive the call */
    weft_status st = cm_task_return(&task, &err);
    EXPECT(trap_of(st, &err) == CM_TRAP_BORROWS_REMAIN);
    EXPECTF(strstr(err.message, "1 borrow handle not dropped"), "message '%s'", err.message);
    EXPECT(cm_handles_get(&b.handles, h2)->scope == NULL); /* no pointer to the ended call */
    /* a call that drops its borrows returns */
    cm_task t2;
    cm_task_begin(&t2, &b);
    CHECK(cm_lower_borrow(&b, &t2, &RA, 7, &h1, &err) == WEFT_OK, "lower_borrow");
    CHECK(cm_resource_drop(&b, &RA, h1, &err) == WEFT_OK, "drop");
    EXPECT(cm_task_return(&t2, &err) == WEFT_OK);
    /* lowered into the instance that defined RA, a borrow is its rep */
    cm_inst_state a;
    cm_inst_state_init(&a, &inst_a);
    cm_task ta;
    cm_task_begin(&ta, &a);
    CHECK(cm_lower_borrow(&a, &ta, &RA, 77, &h1, &err) == WEFT_OK, "lower_borrow to owner");
    EXPECT(h1 == 77 && ta.num_borrows == 0 && a.handles.len <= 1);
    EXPECT(cm_task_return(&ta, &err) == WEFT_OK);
    cm_inst_state_free(&a);
    cm_inst_state_free(&b);
}

/* may_leave: no built-in while realloc runs */
typedef struct leave_env {
    cm_inst_state *s;
    weft_status st;
    weft_error err;
    uint8_t mem[64];
} leave_env;

static uint8_t *leave_mem(void *env, uint64_t *size) {
    *size = sizeof ((leave_env *)env)->mem;
    return ((leave_env *)env)->mem;
}

static weft_status leave_realloc(void *env, uint32_t old, uint32_t old_size, uint32_t align,
                                 uint32_t new_size, uint32_t *out, weft_error *err) {
    (void)old, (void)old_size, (void)align, (void)new_size, (void)err;
    leave_env *e = env;
    uint32_t i;
    e->st = cm_resource_new(e->s, &RA, 1, &i, &e->err);
    *out = 8;
    return WEFT_OK;
}

static void test_may_leave(void) {
    cm_inst_state s;
    cm_inst_state_init(&s, &inst_a);
    weft_error err;
    uint32_t i;
    s.may_leave = false;
    EXPECT(trap_of(cm_resource_new(&s, &RA, 1, &i, &err), &err) == CM_TRAP_CANNOT_LEAVE);
    EXPECT(trap_of(cm_resource_drop(&s, &RA, 1, &err), &err) == CM_TRAP_CANNOT_LEAVE);
    s.may_leave = true;
    /* lowering a string calls realloc, which tries resource.new */
    leave_env e = {.s = &s};
    cm_abi_opts opts = {.encoding = CM_ENC_UTF8, .memory = leave_mem, .memory_env = &e,
                        .realloc = leave_realloc, .realloc_env = &e};
    cm_arena arena = {0};
    cm_abi_cx cx;
    cm_abi_cx_init(&cx, &opts, &s, &arena, &err);
    cm_val v = {.kind = CM_STRING, .n = 2, .v.str = "hi"};
    const cm_valtype *ts[1] = {cm_prim(CM_STRING)};
    weft_val flat[CM_MAX_FLAT_PARAMS + 1];
    uint32_t nflat;
    CHECK(cm_abi_lower_flat_values(&cx, 16, (cm_typelist){.n = 1, .types = ts}, &v, NULL, flat, &nflat) == WEFT_OK,
          "lower: %s", err.message);
    EXPECT(trap_of(e.st, &e.err) == CM_TRAP_CANNOT_LEAVE);
    EXPECT(s.may_leave); /* back after the realloc */
    EXPECT(nflat == 2 && flat[0].of.i32 == 8 && memcmp(e.mem + 8, "hi", 2) == 0);
    cm_arena_free(&arena);
    cm_inst_state_free(&s);
}

static void test_limit(void) {
    cm_inst_state s;
    cm_inst_state_init(&s, &inst_a);
    EXPECT(s.handles.limit == CM_HANDLES_DEFAULT_LIMIT);
    s.handles.limit = 3;
    weft_error err;
    uint32_t i;
    for (int k = 0; k < 3; k++) CHECK(cm_resource_new(&s, &RA, 1, &i, &err) == WEFT_OK, "new %d", k);
    EXPECT(trap_of(cm_resource_new(&s, &RA, 1, &i, &err), &err) == CM_TRAP_TABLE_FULL);
    EXPECT(trap_of(cm_lower_own(&s, &RA, 1, &i, &err), &err) == CM_TRAP_TABLE_FULL);
    CHECK(cm_resource_drop(&s, &RA, 2, &err) == WEFT_OK, "drop");
    EXPECT(cm_resource_new(&s, &RA, 1, &i, &err) == WEFT_OK && i == 2); /* a freed slot is still usable */
    cm_inst_state_free(&s);
}

static void test_phrases(void) {
    for (int a = CM_TRAP_NONE + 1; a < CM_TRAP_OTHER; a++) {
        const char *pa = cm_trap_phrase((cm_trap)a);
        EXPECT(*pa);
        for (int b = CM_TRAP_NONE + 1; b < CM_TRAP_OTHER; b++)
            if (a != b) EXPECTF(strncmp(cm_trap_phrase((cm_trap)b), pa, strlen(pa)) != 0,
                                "'%s' begins '%s'", cm_trap_phrase((cm_trap)b), pa);
        weft_error err;
        cm_trap_fail(&err, (cm_trap)a, "detail");
        EXPECT(cm_trap_code(&err) == (cm_trap)a && err.status == WEFT_ERR_TRAP);
    }
}

int main(void) {
    test_indices();
    test_unknown_and_type();
    test_destructor();
    test_lent();
    test_borrow_scope();
    test_may_leave();
    test_limit();
    test_phrases();
    return check_summary("resource_test");
}
