/*
 * wasip2_test.c — the WASI 0.2 hosts (src/wasip2/) called directly, as
 * the component linker will call them: lifted values built in an arena,
 * each result checked against the function's declared type (so a host
 * cannot answer a shape its WIT does not have) and against what the WIT
 * and preview1's semantics say it must be.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "wasip2/wasip2.h"

static wp2_ctx *X;
static cm_arena A;

/* ---- Calling ---- */

static const cm_host_func *find(const char *iface, const char *fn) {
    const cm_host_instance *in = wp2_ctx_instance(X, iface);
    CHECK(in, "no host instance %s", iface);
    for (uint32_t i = 0; i < in->nfuncs; i++)
        if (strcmp(in->funcs[i].name, fn) == 0) return &in->funcs[i];
    CHECK(0, "no %s in %s", fn, iface);
    return NULL;
}

/* Whether v is a value of type t (ctype.h's shapes). */
static bool of_type(const cm_valtype *t, const cm_val *v) {
    if (!t || !v || v->kind != t->kind) return false;
    switch (t->kind) {
    case CM_RECORD:
        if (v->n != t->n) return false;
        for (uint32_t i = 0; i < t->n; i++)
            if (!of_type(t->fields[i].type, &v->v.items[i])) return false;
        return true;
    case CM_TUPLE:
        if (v->n != t->n) return false;
        for (uint32_t i = 0; i < t->n; i++)
            if (!of_type(t->members[i], &v->v.items[i])) return false;
        return true;
    case CM_LIST:
        for (uint32_t i = 0; i < v->n; i++)
            if (!of_type(t->elem, &v->v.items[i])) return false;
        return true;
    case CM_VARIANT:
        if (v->v.c.index >= t->n) return false;
        return t->fields[v->v.c.index].type ? of_type(t->fields[v->v.c.index].type, v->v.c.payload)
                                            : v->v.c.payload == NULL;
    case CM_ENUM: return v->v.c.index < t->n;
    case CM_FLAGS: return t->n == 32 || (v->v.flags >> t->n) == 0;
    case CM_OPTION:
        if (v->v.c.index > 1) return false;
        return v->v.c.index ? of_type(t->elem, v->v.c.payload) : v->v.c.payload == NULL;
    case CM_RESULT: {
        if (v->v.c.index > 1) return false;
        const cm_valtype *p = v->v.c.index ? t->elem2 : t->elem;
        return p ? of_type(p, v->v.c.payload) : v->v.c.payload == NULL;
    }
    case CM_OWN:
    case CM_BORROW: return v->v.rep != 0;
    case CM_STRING: return v->n == 0 || v->v.str != NULL;
    default: return true;
    }
}

static weft_error E;

/* Calls iface.fn with args; on WEFT_OK checks the result has the type. */
static weft_status call(const char *iface, const char *fn, const cm_val *args, uint32_t nargs,
                        cm_val *result) {
    const cm_host_func *f = find(iface, fn);
    CHECK(f->type->nparams == nargs, "%s takes %u arguments, the test gave %u", fn, f->type->nparams,
          nargs);
    for (uint32_t i = 0; i < nargs; i++)
        CHECK(of_type(f->type->params[i].type, &args[i]), "%s: argument %u of the wrong shape", fn, i);
    cm_host_call c = {&A, NULL, X, f};
    memset(result, 0, sizeof *result);
    memset(&E, 0, sizeof E);
    weft_status st = f->fn(&c, args, result, &E);
    if (st == WEFT_OK && f->type->result)
        EXPECTF(of_type(f->type->result, result), "%s: result is not of its declared type", fn);
    return st;
}

static weft_status drop(int res, uint32_t rep) {
    memset(&E, 0, sizeof E);
    return X->res[res].dtor(&X->res[res], rep, X->res[res].dtor_env, &E);
}

/* ---- Values ---- */

static cm_val V_handle(cm_kind k, uint32_t rep) { return (cm_val){.kind = k, .v.rep = rep}; }
static cm_val V_borrow(uint32_t rep) { return V_handle(CM_BORROW, rep); }
static cm_val V_u64(uint64_t u) { return (cm_val){.kind = CM_U64, .v.u = u}; }
static cm_val V_u8(uint64_t u) { return (cm_val){.kind = CM_U8, .v.u = u}; }
static cm_val V_flags(uint32_t f) { return (cm_val){.kind = CM_FLAGS, .v.flags = f}; }
static cm_val V_str(const char *s) { return (cm_val){.kind = CM_STRING, .n = (uint32_t)strlen(s), .v.str = s}; }
static cm_val V_case(cm_kind k, uint32_t i, cm_val *p) {
    return (cm_val){.kind = k, .v.c = {.index = i, .payload = p}};
}
static cm_val V_bytes(const char *s, size_t n) {
    cm_val *items = cm_arena_alloc(&A, (n ? n : 1) * sizeof *items, 8);
    for (size_t i = 0; i < n; i++) items[i] = V_u8((uint8_t)s[i]);
    return (cm_val){.kind = CM_LIST, .n = (uint32_t)n, .v.items = items};
}

/* The bytes of a list<u8> as a NUL-terminated string in the arena. */
static const char *bytes_of(const cm_val *v) {
    char *s = cm_arena_alloc(&A, v->n + 1, 1);
    for (uint32_t i = 0; i < v->n; i++) s[i] = (char)v->v.items[i].v.u;
    s[v->n] = 0;
    return s;
}

static bool str_is(const cm_val *v, const char *s) {
    return v->kind == CM_STRING && v->n == strlen(s) && memcmp(v->v.str, s, v->n) == 0;
}

static bool is_ok(const cm_val *r) { return r->kind == CM_RESULT && r->v.c.index == 0; }
/* The error-code of err(code), or -1. */
static int code_of(const cm_val *r) {
    return r->kind == CM_RESULT && r->v.c.index == 1 ? (int)r->v.c.payload->v.c.index : -1;
}

/* ---- Tests ---- */

static void test_tables(void) {
    uint32_t n;
    const cm_host_instance *all = wp2_ctx_instances(X, &n);
    EXPECT(all && n == 27); /* io 3, cli 10 (not run), clocks 2, random 3, filesystem 2, sockets 7 */
    EXPECT(wp2_ctx_instance(X, "wasi:filesystem/preopens@0.2.6") != NULL);
    EXPECT(wp2_ctx_instance(X, "wasi:io/streams@0.2.0") != NULL);
    EXPECT(wp2_ctx_instance(X, "wasi:io/streams@0.3.0") == NULL);
    /* A later 0.2 patch is served by 0.2.12 too, as wasmtime's linker does
       (semver-aware since wasmtime 19): the linker then checks that every
       function the import lists is there. A pre-release is only itself. */
    EXPECT(wp2_ctx_instance(X, "wasi:io/streams@0.2.13") != NULL);
    EXPECT(wp2_ctx_instance(X, "wasi:io/streams@0.2.13-rc1") == NULL);
    EXPECT(wp2_ctx_instance(X, "wasi:io/streams@1.2.0") == NULL);
    EXPECT(wp2_ctx_instance(X, "wasi:io/streams") == NULL);
    EXPECT(wp2_ctx_instance(X, "wasi:cli/run@0.2.12") == NULL); /* exported by commands, not hosted */
    const cm_host_func *open = find("wasi:filesystem/types@0.2.12", "[method]descriptor.open-at");
    EXPECT(open->type->nparams == 5);
    EXPECT(open->type->params[0].type->kind == CM_BORROW);
    /* result<descriptor, error-code>: own handle (4) and enum (1), variant
       of 2 cases: size 8, align 4, flat 2 (CanonicalABI.md) */
    const cm_valtype *r = open->type->result;
    EXPECT(r->kind == CM_RESULT && r->size == 8 && r->align == 4 && r->flat_count == 2);
    EXPECT(r->elem->kind == CM_OWN && r->elem2->kind == CM_ENUM && r->elem2->n == 37);
    /* The own<descriptor> of preopens is the same resource identity as the
       descriptor resource of types, which is this state's. */
    const cm_host_func *gd = find("wasi:filesystem/preopens@0.2.12", "get-directories");
    const cm_valtype *tup = gd->type->result->elem;
    EXPECT(tup->kind == CM_TUPLE && tup->members[0]->resource == r->elem->resource);
    EXPECT(r->elem->resource == &X->res[WP2_RES_FILESYSTEM_DESCRIPTOR]);
    EXPECT(r->elem->resource->dtor_env == X);
    /* descriptor-stat: enum(1) u64 u64 3x option<datetime>(24, align 8):
       8 + 8 + 8 + 72 = 96 bytes, align 8, flat 1+1+1+3*3 = 12 */
    const cm_host_func *st = find("wasi:filesystem/types@0.2.12", "[method]descriptor.stat");
    const cm_valtype *ds = st->type->result->elem;
    EXPECT(ds->kind == CM_RECORD && ds->n == 6 && ds->size == 96 && ds->align == 8 && ds->flat_count == 12);
    EXPECT(ds->fields[0].name_len == 4 && memcmp(ds->fields[0].name, "type", 4) == 0);
    /* streams: stream-error is a type the instance exports */
    const cm_host_instance *si = wp2_ctx_instance(X, "wasi:io/streams@0.2.12");
    bool found = false;
    for (uint32_t i = 0; i < si->ntypes; i++)
        found |= strcmp(si->types[i].name, "stream-error") == 0 && si->types[i].type->kind == CM_VARIANT;
    EXPECT(found);
    EXPECT(si->nresources == 4); /* error, pollable (used), input-stream, output-stream */
    /* every function of every instance has its implementation */
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k = 0; k < all[i].nfuncs; k++) EXPECT(all[i].funcs[k].fn && all[i].funcs[k].type);
}

static void test_cli(void) {
    cm_val r;
    EXPECT(call("wasi:cli/environment@0.2.12", "get-arguments", NULL, 0, &r) == WEFT_OK);
    EXPECT(r.n == 3 && str_is(&r.v.items[0], "prog.wasm") && str_is(&r.v.items[2], "two words"));
    EXPECT(call("wasi:cli/environment@0.2.12", "get-environment", NULL, 0, &r) == WEFT_OK);
    EXPECT(r.n == 3);
    if (r.n == 3) {
        EXPECT(str_is(&r.v.items[0].v.items[0], "A") && str_is(&r.v.items[0].v.items[1], "1"));
        EXPECT(str_is(&r.v.items[1].v.items[0], "B") && str_is(&r.v.items[1].v.items[1], "x=y"));
        EXPECT(str_is(&r.v.items[2].v.items[0], "EMPTY") && str_is(&r.v.items[2].v.items[1], ""));
    }
    EXPECT(call("wasi:cli/environment@0.2.12", "initial-cwd", NULL, 0, &r) == WEFT_OK);
    EXPECT(r.kind == CM_OPTION && r.v.c.index == 0);

    cm_val a = V_case(CM_RESULT, 0, NULL);
    EXPECT(call("wasi:cli/exit@0.2.12", "exit", &a, 1, &r) == WEFT_ERR_EXIT);
    EXPECT(E.status == WEFT_ERR_EXIT && E.exit_code == 0);
    a = V_case(CM_RESULT, 1, NULL);
    EXPECT(call("wasi:cli/exit@0.2.12", "exit", &a, 1, &r) == WEFT_ERR_EXIT && E.exit_code == 1);
    a = (cm_val){.kind = CM_U8, .v.u = 42};
    EXPECT(call("wasi:cli/exit@0.2.12", "exit-with-code", &a, 1, &r) == WEFT_ERR_EXIT && E.exit_code == 42);

    /* stdio here is two pipes and /dev/null: no terminal */
    EXPECT(call("wasi:cli/terminal-stdin@0.2.12", "get-terminal-stdin", NULL, 0, &r) == WEFT_OK);
    EXPECT(r.v.c.index == 0);
    EXPECT(call("wasi:cli/terminal-stderr@0.2.12", "get-terminal-stderr", NULL, 0, &r) == WEFT_OK);
    EXPECT(r.v.c.index == 0);
}

static void test_clocks_random(void) {
    cm_val r, r2;
    EXPECT(call("wasi:clocks/monotonic-clock@0.2.12", "now", NULL, 0, &r) == WEFT_OK);
    sleep_ms(2);
    EXPECT(call("wasi:clocks/monotonic-clock@0.2.12", "now", NULL, 0, &r2) == WEFT_OK);
    EXPECTF(r2.v.u >= r.v.u + 2000000, "monotonic: %llu then %llu after 2 ms",
            (unsigned long long)r.v.u, (unsigned long long)r2.v.u);
    EXPECT(call("wasi:clocks/monotonic-clock@0.2.12", "resolution", NULL, 0, &r) == WEFT_OK && r.v.u > 0);
    EXPECT(call("wasi:clocks/wall-clock@0.2.12", "now", NULL, 0, &r) == WEFT_OK);
    long long t = (long long)time(NULL);
    EXPECT(r.v.items[0].v.u + 2 >= (uint64_t)t && r.v.items[0].v.u <= (uint64_t)t + 2);
    EXPECT(r.v.items[1].v.u < 1000000000u);

    /* a 30 ms pollable: not ready, then block waits it out */
    cm_val d = V_u64(30000000);
    int64_t t0 = now_ns();
    EXPECT(call("wasi:clocks/monotonic-clock@0.2.12", "subscribe-duration", &d, 1, &r) == WEFT_OK);
    uint32_t p30 = r.v.rep;
    cm_val b = V_borrow(p30);
    EXPECT(call("wasi:io/poll@0.2.12", "[method]pollable.ready", &b, 1, &r) == WEFT_OK && !r.v.b);
    EXPECT(call("wasi:io/poll@0.2.12", "[method]pollable.block", &b, 1, &r) == WEFT_OK);
    EXPECTF(now_ns() - t0 >= 30000000, "block returned after %lld ns", (long long)(now_ns() - t0));
    EXPECT(call("wasi:io/poll@0.2.12", "[method]pollable.ready", &b, 1, &r) == WEFT_OK && r.v.b);
    /* poll([in an hour, an instant already past]) = [1] */
    d = V_u64(3600ull * 1000000000ull);
    EXPECT(call("wasi:clocks/monotonic-clock@0.2.12", "subscribe-duration", &d, 1, &r) == WEFT_OK);
    uint32_t hour = r.v.rep;
    d = V_u64(0);
    EXPECT(call("wasi:clocks/monotonic-clock@0.2.12", "subscribe-instant", &d, 1, &r) == WEFT_OK);
    uint32_t past = r.v.rep;
    cm_val list_items[2] = {V_borrow(hour), V_borrow(past)};
    cm_val list = {.kind = CM_LIST, .n = 2, .v.items = list_items};
    EXPECT(call("wasi:io/poll@0.2.12", "poll", &list, 1, &r) == WEFT_OK);
    EXPECT(r.n == 1 && r.v.items[0].v.u == 1);
    list.n = 0;
    EXPECT(call("wasi:io/poll@0.2.12", "poll", &list, 1, &r) == WEFT_ERR_TRAP);
    EXPECT(strstr(E.message, "empty") != NULL);
    EXPECT(drop(WP2_RES_IO_POLLABLE, p30) == WEFT_OK && drop(WP2_RES_IO_POLLABLE, hour) == WEFT_OK &&
           drop(WP2_RES_IO_POLLABLE, past) == WEFT_OK);
    EXPECT(drop(WP2_RES_IO_POLLABLE, past) == WEFT_ERR_TRAP); /* dropped twice */

    cm_val len = V_u64(32);
    EXPECT(call("wasi:random/random@0.2.12", "get-random-bytes", &len, 1, &r) == WEFT_OK && r.n == 32);
    EXPECT(call("wasi:random/random@0.2.12", "get-random-bytes", &len, 1, &r2) == WEFT_OK && r2.n == 32);
    EXPECT(memcmp(bytes_of(&r), bytes_of(&r2), 32) != 0); /* 2^-256 to fail by chance */
    len = V_u64(0);
    EXPECT(call("wasi:random/insecure@0.2.12", "get-insecure-random-bytes", &len, 1, &r) == WEFT_OK && r.n == 0);
    len = V_u64(1ull << 40);
    EXPECT(call("wasi:random/random@0.2.12", "get-random-bytes", &len, 1, &r) == WEFT_ERR_TRAP);
    EXPECT(call("wasi:random/random@0.2.12", "get-random-u64", NULL, 0, &r) == WEFT_OK);
    EXPECT(call("wasi:random/insecure@0.2.12", "get-insecure-random-u64", NULL, 0, &r) == WEFT_OK);
    EXPECT(call("wasi:random/insecure-seed@0.2.12", "insecure-seed", NULL, 0, &r) == WEFT_OK);
    EXPECT(call("wasi:random/insecure-seed@0.2.12", "insecure-seed", NULL, 0, &r2) == WEFT_OK);
    EXPECT(r.v.items[0].v.u == r2.v.items[0].v.u && r.v.items[1].v.u == r2.v.items[1].v.u);
}

/* A blocker as a scheduler's process installs (src/threads/block.c,
   sched_agent_try_park): a restartable wait on which nothing is ready
   now parks the agent. Counts the parks and the waits it could not
   park. */
static int parked, unrestartable;
static int park_blocker(struct weft_wasi *w, wasi_wait *wait) {
    if (!wait->restartable) {
        unrestartable++;
        return wasi_block_default(w, wait);
    }
    int n = wait->nfds ? poll(wait->fds, wait->nfds, 0) : 0;
    if (n != 0) return n < 0 ? -errno : n;
    if (wait->deadline >= 0 && now_ns() >= wait->deadline) return 0;
    parked++;
    return WASI_BLOCK_PARKED;
}

/* Blocking calls that would wait park through the preview1 blocker and
   return WEFT_SUSPENDED having done nothing: no bytes taken, no pollable
   made; made again, they answer. */
static void test_parking(int in_w) {
    weft_wasi *w = wp2_ctx_wasi(X);
    wasi_blocker saved = w->block;
    w->block = park_blocker;
    cm_val r, a[2];
    EXPECT(call("wasi:cli/stdin@0.2.12", "get-stdin", NULL, 0, &r) == WEFT_OK);
    uint32_t in = r.v.rep;
    a[0] = V_borrow(in);
    a[1] = V_u64(10);
    EXPECT(call("wasi:io/streams@0.2.12", "[method]input-stream.blocking-read", a, 2, &r) == WEFT_SUSPENDED);
    EXPECT(parked == 1);
    EXPECT(call("wasi:io/streams@0.2.12", "[method]input-stream.subscribe", a, 1, &r) == WEFT_OK);
    uint32_t pin = r.v.rep;
    cm_val d = V_u64(3600ull * 1000000000ull);
    EXPECT(call("wasi:clocks/monotonic-clock@0.2.12", "subscribe-duration", &d, 1, &r) == WEFT_OK);
    uint32_t hour = r.v.rep;
    cm_val items[2] = {V_borrow(pin), V_borrow(hour)};
    cm_val list = {.kind = CM_LIST, .n = 2, .v.items = items};
    EXPECT(call("wasi:io/poll@0.2.12", "poll", &list, 1, &r) == WEFT_SUSPENDED);
    EXPECT(call("wasi:io/poll@0.2.12", "[method]pollable.block", &items[1], 1, &r) == WEFT_SUSPENDED);
    EXPECT(parked == 3 && unrestartable == 0);
    /* the fd becomes ready: the same calls, made again, answer */
    EXPECT(write(in_w, "p", 1) == 1);
    EXPECT(call("wasi:io/poll@0.2.12", "poll", &list, 1, &r) == WEFT_OK && r.n == 1 && r.v.items[0].v.u == 0);
    EXPECT(call("wasi:io/streams@0.2.12", "[method]input-stream.blocking-read", a, 2, &r) == WEFT_OK);
    EXPECT(is_ok(&r) && strcmp(bytes_of(r.v.c.payload), "p") == 0);
    EXPECT(parked == 3);
    EXPECT(drop(WP2_RES_IO_POLLABLE, pin) == WEFT_OK && drop(WP2_RES_IO_POLLABLE, hour) == WEFT_OK);
    EXPECT(drop(WP2_RES_IO_INPUT_STREAM, in) == WEFT_OK);
    w->block = saved;
}

/* stdin reads pipe `in` (the test writes in_w); stdout writes pipe `out`
   (the test reads out_r). */
static void test_streams(int in_w, int out_r) {
    cm_val r, a[3];
    EXPECT(call("wasi:cli/stdin@0.2.12", "get-stdin", NULL, 0, &r) == WEFT_OK);
    uint32_t in = r.v.rep;
    a[0] = V_borrow(in);
    a[1] = V_u64(100);
    /* nothing written yet: read answers at once with no bytes */
    EXPECT(call("wasi:io/streams@0.2.12", "[method]input-stream.read", a, 2, &r) == WEFT_OK);
    EXPECT(is_ok(&r) && r.v.c.payload->n == 0);
    EXPECT(write(in_w, "hello", 5) == 5);
    EXPECT(call("wasi:io/streams@0.2.12", "[method]input-stream.blocking-read", a, 2, &r) == WEFT_OK);
    EXPECT(is_ok(&r) && strcmp(bytes_of(r.v.c.payload), "hello") == 0);
    /* a pollable on stdin: poll with a clock an hour away answers [0] once
       bytes arrive */
    EXPECT(call("wasi:io/streams@0.2.12", "[method]input-stream.subscribe", a, 1, &r) == WEFT_OK);
    uint32_t pin = r.v.rep;
    cm_val d = V_u64(3600ull * 1000000000ull);
    EXPECT(call("wasi:clocks/monotonic-clock@0.2.12", "subscribe-duration", &d, 1, &r) == WEFT_OK);
    uint32_t hour = r.v.rep;
    cm_val items[2] = {V_borrow(pin), V_borrow(hour)};
    cm_val list = {.kind = CM_LIST, .n = 2, .v.items = items};
    EXPECT(call("wasi:io/poll@0.2.12", "[method]pollable.ready", items, 1, &r) == WEFT_OK && !r.v.b);
    EXPECT(write(in_w, "xyz", 3) == 3);
    EXPECT(call("wasi:io/poll@0.2.12", "poll", &list, 1, &r) == WEFT_OK);
    EXPECT(r.n == 1 && r.v.items[0].v.u == 0);
    /* the stream cannot go while its pollable lives (streams.wit) */
    EXPECT(drop(WP2_RES_IO_INPUT_STREAM, in) == WEFT_ERR_TRAP);
    EXPECT(strstr(E.message, "pollable") != NULL);
    a[1] = V_u64(1);
    EXPECT(call("wasi:io/streams@0.2.12", "[method]input-stream.skip", a, 2, &r) == WEFT_OK);
    EXPECT(is_ok(&r) && r.v.c.payload->v.u == 1);
    a[1] = V_u64(100);
    EXPECT(call("wasi:io/streams@0.2.12", "[method]input-stream.read", a, 2, &r) == WEFT_OK);
    EXPECT(is_ok(&r) && strcmp(bytes_of(r.v.c.payload), "yz") == 0);
    close(in_w);
    EXPECT(call("wasi:io/streams@0.2.12", "[method]input-stream.blocking-read", a, 2, &r) == WEFT_OK);
    EXPECT(r.v.c.index == 1 && r.v.c.payload->v.c.index == WP2_IO_STREAM_ERROR_CLOSED);
    EXPECT(drop(WP2_RES_IO_POLLABLE, pin) == WEFT_OK && drop(WP2_RES_IO_POLLABLE, hour) == WEFT_OK);
    EXPECT(drop(WP2_RES_IO_INPUT_STREAM, in) == WEFT_OK);

    EXPECT(call("wasi:cli/stdout@0.2.12", "get-stdout", NULL, 0, &r) == WEFT_OK);
    uint32_t out = r.v.rep;
    a[0] = V_borrow(out);
    /* write before any check-write: the permit is 0, so it traps */
    a[1] = V_bytes("abc", 3);
    EXPECT(call("wasi:io/streams@0.2.12", "[method]output-stream.write", a, 2, &r) == WEFT_ERR_TRAP);
    EXPECT(call("wasi:io/streams@0.2.12", "[method]output-stream.check-write", a, 1, &r) == WEFT_OK);
    EXPECT(is_ok(&r) && r.v.c.payload->v.u >= 3);
    EXPECT(call("wasi:io/streams@0.2.12", "[method]output-stream.write", a, 2, &r) == WEFT_OK && is_ok(&r));
    EXPECT(call("wasi:io/streams@0.2.12", "[method]output-stream.flush", a, 1, &r) == WEFT_OK && is_ok(&r));
    a[1] = V_bytes("de", 2);
    EXPECT(call("wasi:io/streams@0.2.12", "[method]output-stream.blocking-write-and-flush", a, 2, &r) == WEFT_OK);
    a[1] = V_u64(2);
    EXPECT(call("wasi:io/streams@0.2.12", "[method]output-stream.blocking-write-zeroes-and-flush", a, 2, &r) == WEFT_OK);
    char buf[16] = {0};
    EXPECT(read(out_r, buf, sizeof buf) == 7 && memcmp(buf, "abcde\0\0", 7) == 0);
    static char big[4097];
    a[1] = V_bytes(big, sizeof big); /* past the 4096 the WIT allows */
    EXPECT(call("wasi:io/streams@0.2.12", "[method]output-stream.blocking-write-and-flush", a, 2, &r) == WEFT_ERR_TRAP);
    /* the reader goes: the stream is closed */
    close(out_r);
    a[1] = V_bytes("x", 1);
    EXPECT(call("wasi:io/streams@0.2.12", "[method]output-stream.blocking-write-and-flush", a, 2, &r) == WEFT_OK);
    EXPECT(r.v.c.index == 1 && r.v.c.payload->v.c.index == WP2_IO_STREAM_ERROR_CLOSED);
    EXPECT(drop(WP2_RES_IO_OUTPUT_STREAM, out) == WEFT_OK);
}

/* ---- Filesystem ---- */

static char ROOT[256];
static uint32_t PRE;

static uint32_t open_at(uint32_t dir, uint32_t pflags, const char *path, uint32_t oflags,
                        uint32_t flags, int *code) {
    cm_val a[5] = {V_borrow(dir), V_flags(pflags), V_str(path), V_flags(oflags), V_flags(flags)};
    cm_val r;
    EXPECT(call("wasi:filesystem/types@0.2.12", "[method]descriptor.open-at", a, 5, &r) == WEFT_OK);
    *code = code_of(&r);
    return is_ok(&r) ? r.v.c.payload->v.rep : 0;
}

/* The error-code of a (descriptor, path) method, or -1 for ok. */
static int path_op(const char *fn, uint32_t d, const char *path) {
    cm_val a[2] = {V_borrow(d), V_str(path)}, r;
    EXPECT(call("wasi:filesystem/types@0.2.12", fn, a, 2, &r) == WEFT_OK);
    return code_of(&r);
}

static int stat_at(uint32_t d, uint32_t pflags, const char *path, cm_val *r) {
    cm_val a[3] = {V_borrow(d), V_flags(pflags), V_str(path)};
    EXPECT(call("wasi:filesystem/types@0.2.12", "[method]descriptor.stat-at", a, 3, r) == WEFT_OK);
    return code_of(r);
}

static bool host_exists(const char *rel) {
    char p[512];
    snprintf(p, sizeof p, "%s/%s", ROOT, rel);
    struct stat st;
    return lstat(p, &st) == 0;
}

static void test_filesystem(void) {
    const char *T = "wasi:filesystem/types@0.2.12";
    cm_val r;
    EXPECT(call("wasi:filesystem/preopens@0.2.6", "get-directories", NULL, 0, &r) == WEFT_OK);
    CHECK(r.n == 1, "one preopen, got %u", r.n);
    EXPECT(str_is(&r.v.items[0].v.items[1], "/sandbox"));
    PRE = r.v.items[0].v.items[0].v.rep;
    cm_val a[6];
    a[0] = V_borrow(PRE);
    EXPECT(call(T, "[method]descriptor.get-flags", a, 1, &r) == WEFT_OK);
    EXPECT(r.v.c.payload->v.flags == (WP2_FILESYSTEM_DESCRIPTOR_FLAGS_READ | WP2_FILESYSTEM_DESCRIPTOR_FLAGS_MUTATE_DIRECTORY));
    EXPECT(call(T, "[method]descriptor.get-type", a, 1, &r) == WEFT_OK);
    EXPECT(r.v.c.payload->v.c.index == WP2_FILESYSTEM_DESCRIPTOR_TYPE_DIRECTORY);

    int code;
    uint32_t rw = WP2_FILESYSTEM_DESCRIPTOR_FLAGS_READ | WP2_FILESYSTEM_DESCRIPTOR_FLAGS_WRITE;
    uint32_t f = open_at(PRE, 0, "f.txt", WP2_FILESYSTEM_OPEN_FLAGS_CREATE, rw, &code);
    CHECK(f, "open-at f.txt create: error-code %d", code);
    EXPECT(host_exists("f.txt"));
    a[0] = V_borrow(f);
    a[1] = V_bytes("hello world", 11);
    a[2] = V_u64(0);
    EXPECT(call(T, "[method]descriptor.write", a, 3, &r) == WEFT_OK && is_ok(&r) && r.v.c.payload->v.u == 11);
    a[1] = V_u64(5);
    a[2] = V_u64(6);
    EXPECT(call(T, "[method]descriptor.read", a, 3, &r) == WEFT_OK && is_ok(&r));
    EXPECT(strcmp(bytes_of(&r.v.c.payload->v.items[0]), "world") == 0 && !r.v.c.payload->v.items[1].v.b);
    a[1] = V_u64(100);
    a[2] = V_u64(0);
    EXPECT(call(T, "[method]descriptor.read", a, 3, &r) == WEFT_OK && is_ok(&r));
    EXPECT(r.v.c.payload->v.items[0].n == 11 && r.v.c.payload->v.items[1].v.b); /* the end reached */
    EXPECT(call(T, "[method]descriptor.stat", a, 1, &r) == WEFT_OK && is_ok(&r));
    const cm_val *st = r.v.c.payload;
    EXPECT(st->v.items[0].v.c.index == WP2_FILESYSTEM_DESCRIPTOR_TYPE_REGULAR_FILE);
    EXPECT(st->v.items[1].v.u == 1 && st->v.items[2].v.u == 11);
    EXPECT(st->v.items[4].v.c.index == 1); /* some(mtime) */

    /* streams on the file: read from 6, write at 0, append */
    a[1] = V_u64(6);
    EXPECT(call(T, "[method]descriptor.read-via-stream", a, 2, &r) == WEFT_OK && is_ok(&r));
    uint32_t is = r.v.c.payload->v.rep;
    cm_val sa[2] = {V_borrow(is), V_u64(64)};
    EXPECT(call("wasi:io/streams@0.2.12", "[method]input-stream.blocking-read", sa, 2, &r) == WEFT_OK);
    EXPECT(is_ok(&r) && strcmp(bytes_of(r.v.c.payload), "world") == 0);
    EXPECT(call("wasi:io/streams@0.2.12", "[method]input-stream.read", sa, 2, &r) == WEFT_OK);
    EXPECT(r.v.c.index == 1 && r.v.c.payload->v.c.index == WP2_IO_STREAM_ERROR_CLOSED);
    EXPECT(drop(WP2_RES_IO_INPUT_STREAM, is) == WEFT_OK);
    EXPECT(call(T, "[method]descriptor.append-via-stream", a, 1, &r) == WEFT_OK && is_ok(&r));
    uint32_t os = r.v.c.payload->v.rep;
    sa[0] = V_borrow(os);
    sa[1] = V_bytes("!", 1);
    EXPECT(call("wasi:io/streams@0.2.12", "[method]output-stream.blocking-write-and-flush", sa, 2, &r) == WEFT_OK && is_ok(&r));
    EXPECT(drop(WP2_RES_IO_OUTPUT_STREAM, os) == WEFT_OK);
    a[1] = V_u64(0);
    EXPECT(call(T, "[method]descriptor.write-via-stream", a, 2, &r) == WEFT_OK && is_ok(&r));
    os = r.v.c.payload->v.rep;
    sa[0] = V_borrow(os);
    sa[1] = V_bytes("J", 1);
    EXPECT(call("wasi:io/streams@0.2.12", "[method]output-stream.blocking-write-and-flush", sa, 2, &r) == WEFT_OK && is_ok(&r));
    EXPECT(drop(WP2_RES_IO_OUTPUT_STREAM, os) == WEFT_OK);
    a[1] = V_u64(100);
    a[2] = V_u64(0);
    EXPECT(call(T, "[method]descriptor.read", a, 3, &r) == WEFT_OK && is_ok(&r));
    EXPECT(strcmp(bytes_of(&r.v.c.payload->v.items[0]), "Jello world!") == 0);

    /* a descriptor opened for reading only: no write stream, no write */
    uint32_t ro = open_at(PRE, 0, "f.txt", 0, WP2_FILESYSTEM_DESCRIPTOR_FLAGS_READ, &code);
    CHECK(ro, "open-at f.txt read: %d", code);
    a[0] = V_borrow(ro);
    a[1] = V_u64(0);
    EXPECT(call(T, "[method]descriptor.write-via-stream", a, 2, &r) == WEFT_OK);
    EXPECT(code_of(&r) == WP2_FILESYSTEM_ERROR_CODE_BAD_DESCRIPTOR);
    a[1] = V_bytes("x", 1);
    a[2] = V_u64(0);
    EXPECT(call(T, "[method]descriptor.write", a, 3, &r) == WEFT_OK);
    EXPECT(code_of(&r) == WP2_FILESYSTEM_ERROR_CODE_NOT_PERMITTED);
    a[1] = V_borrow(f);
    EXPECT(call(T, "[method]descriptor.is-same-object", a, 2, &r) == WEFT_OK && r.v.b);
    a[1] = V_borrow(PRE);
    EXPECT(call(T, "[method]descriptor.is-same-object", a, 2, &r) == WEFT_OK && !r.v.b);
    cm_val h1, h2;
    EXPECT(call(T, "[method]descriptor.metadata-hash", a, 1, &h1) == WEFT_OK && is_ok(&h1));
    cm_val ha[3] = {V_borrow(PRE), V_flags(0), V_str("f.txt")};
    EXPECT(call(T, "[method]descriptor.metadata-hash-at", ha, 3, &h2) == WEFT_OK && is_ok(&h2));
    EXPECT(h1.v.c.payload->v.items[0].v.u == h2.v.c.payload->v.items[0].v.u &&
           h1.v.c.payload->v.items[1].v.u == h2.v.c.payload->v.items[1].v.u);
    EXPECT(drop(WP2_RES_FILESYSTEM_DESCRIPTOR, ro) == WEFT_OK);

    /* directories */
    EXPECT(path_op("[method]descriptor.create-directory-at", PRE, "d") == -1);
    EXPECT(host_exists("d"));
    EXPECT(path_op("[method]descriptor.create-directory-at", PRE, "d") == WP2_FILESYSTEM_ERROR_CODE_EXIST);
    cm_val ra[4] = {V_borrow(PRE), V_str("f.txt"), V_borrow(PRE), V_str("d/g.txt")};
    EXPECT(call(T, "[method]descriptor.rename-at", ra, 4, &r) == WEFT_OK && is_ok(&r));
    EXPECT(!host_exists("f.txt") && host_exists("d/g.txt"));
    EXPECT(stat_at(PRE, 0, "d/../d/g.txt", &r) == -1);
    EXPECT(r.v.c.payload->v.items[2].v.u == 12);
    EXPECT(path_op("[method]descriptor.remove-directory-at", PRE, "d") == WP2_FILESYSTEM_ERROR_CODE_NOT_EMPTY);
    cm_val la[5] = {V_borrow(PRE), V_flags(0), V_str("d/g.txt"), V_borrow(PRE), V_str("hard")};
    EXPECT(call(T, "[method]descriptor.link-at", la, 5, &r) == WEFT_OK && is_ok(&r));
    cm_val sy[3] = {V_borrow(PRE), V_str("d/g.txt"), V_str("soft")};
    EXPECT(call(T, "[method]descriptor.symlink-at", sy, 3, &r) == WEFT_OK && is_ok(&r));
    cm_val rl[2] = {V_borrow(PRE), V_str("soft")};
    EXPECT(call(T, "[method]descriptor.readlink-at", rl, 2, &r) == WEFT_OK && is_ok(&r));
    EXPECT(str_is(r.v.c.payload, "d/g.txt"));
    EXPECT(stat_at(PRE, 0, "soft", &r) == -1 &&
           r.v.c.payload->v.items[0].v.c.index == WP2_FILESYSTEM_DESCRIPTOR_TYPE_SYMBOLIC_LINK);
    EXPECT(stat_at(PRE, WP2_FILESYSTEM_PATH_FLAGS_SYMLINK_FOLLOW, "soft", &r) == -1 &&
           r.v.c.payload->v.items[0].v.c.index == WP2_FILESYSTEM_DESCRIPTOR_TYPE_REGULAR_FILE &&
           r.v.c.payload->v.items[1].v.u == 2); /* g.txt and hard */

    /* set-times-at: an exact mtime */
    cm_val dt_items[2] = {V_u64(1000000), {.kind = CM_U32, .v.u = 5}};
    cm_val dt = {.kind = CM_RECORD, .n = 2, .v.items = dt_items};
    cm_val ta[5] = {V_borrow(PRE), V_flags(0), V_str("hard"),
                    V_case(CM_VARIANT, WP2_FILESYSTEM_NEW_TIMESTAMP_NO_CHANGE, NULL),
                    V_case(CM_VARIANT, WP2_FILESYSTEM_NEW_TIMESTAMP_TIMESTAMP, &dt)};
    EXPECT(call(T, "[method]descriptor.set-times-at", ta, 5, &r) == WEFT_OK && is_ok(&r));
    EXPECT(stat_at(PRE, 0, "hard", &r) == -1);
    const cm_val *mt = r.v.c.payload->v.items[4].v.c.payload;
    EXPECT(mt->v.items[0].v.u == 1000000 && mt->v.items[1].v.u == 5);

    /* read-directory: every name but . and .., each once */
    a[0] = V_borrow(PRE);
    EXPECT(call(T, "[method]descriptor.read-directory", a, 1, &r) == WEFT_OK && is_ok(&r));
    uint32_t ds = r.v.c.payload->v.rep;
    int seen_d = 0, seen_hard = 0, seen_soft = 0, others = 0;
    cm_val da = V_borrow(ds);
    for (int i = 0; i < 10; i++) {
        EXPECT(call(T, "[method]directory-entry-stream.read-directory-entry", &da, 1, &r) == WEFT_OK);
        if (!is_ok(&r) || r.v.c.payload->v.c.index == 0) break;
        const cm_val *ent = r.v.c.payload->v.c.payload;
        if (str_is(&ent->v.items[1], "d")) seen_d += ent->v.items[0].v.c.index == WP2_FILESYSTEM_DESCRIPTOR_TYPE_DIRECTORY;
        else if (str_is(&ent->v.items[1], "hard")) seen_hard++;
        else if (str_is(&ent->v.items[1], "soft")) seen_soft++;
        else others++;
    }
    EXPECT(seen_d == 1 && seen_hard == 1 && seen_soft == 1 && others == 0);
    EXPECT(drop(WP2_RES_FILESYSTEM_DIRECTORY_ENTRY_STREAM, ds) == WEFT_OK);

    /* a directory opened through the preopen has the preopen's permissions
       whatever flags it asked for (wasmtime: a child Dir gets its parent's
       dir and file permissions), as the preview1 adapter relies on: it
       opens "." with read alone, then creates and writes in it */
    uint32_t dro = open_at(PRE, 0, "d", WP2_FILESYSTEM_OPEN_FLAGS_DIRECTORY, WP2_FILESYSTEM_DESCRIPTOR_FLAGS_READ, &code);
    CHECK(dro, "open-at d: %d", code);
    EXPECT(path_op("[method]descriptor.create-directory-at", dro, "e") == -1 && host_exists("d/e"));
    EXPECT(path_op("[method]descriptor.remove-directory-at", dro, "e") == -1 && !host_exists("d/e"));
    uint32_t gf = open_at(dro, 0, "g.txt", 0, rw, &code);
    EXPECT(gf != 0);
    if (gf) EXPECT(drop(WP2_RES_FILESYSTEM_DESCRIPTOR, gf) == WEFT_OK);
    EXPECT(host_exists("d/g.txt"));
    EXPECT(stat_at(dro, 0, "g.txt", &r) == -1);
    EXPECT(drop(WP2_RES_FILESYSTEM_DESCRIPTOR, dro) == WEFT_OK);

    /* the sandbox: what preview1 refuses (ENOTCAPABLE) is not-permitted */
    EXPECT(open_at(PRE, 0, "../x", WP2_FILESYSTEM_OPEN_FLAGS_CREATE, rw, &code) == 0 &&
           code == WP2_FILESYSTEM_ERROR_CODE_NOT_PERMITTED);
    EXPECT(open_at(PRE, 0, "/etc/passwd", 0, WP2_FILESYSTEM_DESCRIPTOR_FLAGS_READ, &code) == 0 &&
           code == WP2_FILESYSTEM_ERROR_CODE_NOT_PERMITTED);
    EXPECT(open_at(PRE, 0, "d/../../x", 0, WP2_FILESYSTEM_DESCRIPTOR_FLAGS_READ, &code) == 0 &&
           code == WP2_FILESYSTEM_ERROR_CODE_NOT_PERMITTED);
    char link[512];
    snprintf(link, sizeof link, "%s/out", ROOT);
    EXPECT(symlink("..", link) == 0); /* made on the host: points out of the preopen */
    EXPECT(stat_at(PRE, WP2_FILESYSTEM_PATH_FLAGS_SYMLINK_FOLLOW, "out", &r) == WP2_FILESYSTEM_ERROR_CODE_NOT_PERMITTED);
    EXPECT(open_at(PRE, 0, "out/escaped", WP2_FILESYSTEM_OPEN_FLAGS_CREATE, rw, &code) == 0 &&
           code == WP2_FILESYSTEM_ERROR_CODE_NOT_PERMITTED);
    EXPECT(path_op("[method]descriptor.create-directory-at", PRE, "out/escaped") == WP2_FILESYSTEM_ERROR_CODE_NOT_PERMITTED);
    char outside[512];
    snprintf(outside, sizeof outside, "%s/../escaped", ROOT);
    struct stat sb;
    EXPECT(lstat(outside, &sb) != 0 && errno == ENOENT);
    cm_val sy2[3] = {V_borrow(PRE), V_str("/etc"), V_str("abs")};
    EXPECT(call(T, "[method]descriptor.symlink-at", sy2, 3, &r) == WEFT_OK &&
           code_of(&r) == WP2_FILESYSTEM_ERROR_CODE_NOT_PERMITTED);
    EXPECT(!host_exists("abs"));
    /* errno answers as preview1's */
    EXPECT(stat_at(PRE, 0, "missing", &r) == WP2_FILESYSTEM_ERROR_CODE_NO_ENTRY);
    EXPECT(stat_at(PRE, 0, "", &r) == WP2_FILESYSTEM_ERROR_CODE_NO_ENTRY);
    EXPECT(stat_at(PRE, 0, "hard/x", &r) == WP2_FILESYSTEM_ERROR_CODE_NOT_DIRECTORY);
    EXPECT(open_at(PRE, 0, "d", WP2_FILESYSTEM_OPEN_FLAGS_CREATE | WP2_FILESYSTEM_OPEN_FLAGS_EXCLUSIVE, rw, &code) == 0 &&
           code == WP2_FILESYSTEM_ERROR_CODE_EXIST);
    EXPECT(path_op("[method]descriptor.unlink-file-at", PRE, "d") == WP2_FILESYSTEM_ERROR_CODE_IS_DIRECTORY);
    EXPECT(path_op("[method]descriptor.readlink-at", PRE, "hard") == WP2_FILESYSTEM_ERROR_CODE_INVALID);

    /* unlink and stat again */
    EXPECT(path_op("[method]descriptor.unlink-file-at", PRE, "d/g.txt") == -1);
    EXPECT(stat_at(PRE, 0, "d/g.txt", &r) == WP2_FILESYSTEM_ERROR_CODE_NO_ENTRY);
    EXPECT(path_op("[method]descriptor.remove-directory-at", PRE, "d") == -1 && !host_exists("d"));

    /* an error resource from a stream answers filesystem-error-code */
    uint32_t err_rep = wp2_error_new(X, WASI_EIO, "read");
    cm_val ea = V_borrow(err_rep);
    EXPECT(call(T, "filesystem-error-code", &ea, 1, &r) == WEFT_OK);
    EXPECT(r.v.c.index == 1 && r.v.c.payload->v.c.index == WP2_FILESYSTEM_ERROR_CODE_IO);
    EXPECT(call("wasi:io/error@0.2.12", "[method]error.to-debug-string", &ea, 1, &r) == WEFT_OK);
    EXPECT(r.n > 0 && memmem(r.v.str, r.n, "io", 2) != NULL);
    EXPECT(drop(WP2_RES_IO_ERROR, err_rep) == WEFT_OK);

    /* the file descriptor outlives nothing: drop it, the preopen's drop
       leaves the preopen usable */
    EXPECT(drop(WP2_RES_FILESYSTEM_DESCRIPTOR, f) == WEFT_OK);
    EXPECT(drop(WP2_RES_FILESYSTEM_DESCRIPTOR, PRE) == WEFT_OK);
    EXPECT(call("wasi:filesystem/preopens@0.2.12", "get-directories", NULL, 0, &r) == WEFT_OK && r.n == 1);
    PRE = r.v.items[0].v.items[0].v.rep;
    EXPECT(stat_at(PRE, 0, "hard", &r) == -1);
}

static void rm_rf(const char *dir) {
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", dir);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN); /* as weft run does: a closed pipe is EPIPE, the stream's `closed` */
    char base[] = "/tmp/weft-wasip2-XXXXXX";
    CHECK(mkdtemp(base), "mkdtemp");
    snprintf(ROOT, sizeof ROOT, "%s/box", base);
    CHECK(mkdir(ROOT, 0777) == 0, "mkdir");
    int in[2], out[2], devnull = open("/dev/null", O_WRONLY);
    CHECK(pipe(in) == 0 && pipe(out) == 0 && devnull >= 0, "pipes");

    weft_wasi_config cfg;
    weft_wasi_config_init(&cfg);
    const char *argv[] = {"prog.wasm", "one", "two words"};
    const char *env[] = {"A=1", "B=x=y", "EMPTY="};
    weft_wasi_preopen pre[] = {{ROOT, "/sandbox"}};
    cfg.argc = 3;
    cfg.argv = argv;
    cfg.envc = 3;
    cfg.env = env;
    cfg.npreopens = 1;
    cfg.preopens = pre;
    cfg.stdio[0] = in[0];
    cfg.stdio[1] = out[1];
    cfg.stdio[2] = devnull;
    weft_error err;
    CHECK(wp2_ctx_new(&cfg, &X, &err) == WEFT_OK, "wp2_ctx_new: %s", err.message);

    test_tables();
    test_cli();
    test_clocks_random();
    test_parking(in[1]);
    test_streams(in[1], out[0]);
    test_filesystem();
    cm_arena_free(&A);

    /* a preopen that cannot be opened: the context is not made */
    weft_wasi_preopen bad[] = {{"/nonexistent/weft-wasip2", "/x"}};
    cfg.preopens = bad;
    wp2_ctx *y = NULL;
    EXPECT(wp2_ctx_new(&cfg, &y, &err) == WEFT_ERR_IO && y == NULL);
    EXPECT(strstr(err.message, "/nonexistent/weft-wasip2") != NULL);

    wp2_ctx_free(X); /* frees what is left (PRE) */
    close(in[0]);
    close(out[1]);
    close(devnull);
    rm_rf(base);
    return check_summary("wasip2_test");
}
