/* component_test.c — weft.h's component values, calls and linker
   (docs/components.md "The C API"): exports called with values the host
   builds, types inspected, WAVE through the API, host functions and a
   host resource served to examples/component_guest.wasm, WASI
   0.2 beside the linker (an interface the linker defines shadows WASI's),
   and the errors: a missing import or function, a value of the wrong
   shape, a host function that fails. */
#include <ctype.h>
#include <fcntl.h>
#include <unistd.h>

#include "check.h"

#define PROGRAMS "tests/component/programs/wasm/"
#define GUEST "examples/component_guest.wasm"

static weft_component *load(weft_engine *e, const char *name) {
    weft_component *c = NULL;
    weft_error err;
    char path[256];
    snprintf(path, sizeof path, PROGRAMS "%s", name);
    if (weft_component_load_file(e, path, &c, &err) != WEFT_OK) {
        printf("FAIL cannot load %s: %s\n", path, err.message);
        exit(1);
    }
    return c;
}

/* ---- the host of host.wasm ---------------------------------------------- */

typedef struct host {
    char log[256];
    uint32_t counters[16];
    uint32_t ncounters;
    uint32_t dropped[16];
    uint32_t ndropped;
    int fail_shout;      /* shout fails with a message */
    int bad_sum;         /* sum returns a string instead of a u32 */
    int env_freed;
} host;

static weft_status h_log(void *env, weft_component_host_call *call, const weft_cval *args,
                         uint32_t nargs, weft_cval *result, weft_error *err) {
    (void)call, (void)result, (void)err;
    host *h = env;
    if (nargs == 1 && args[0].kind == WEFT_CSTRING)
        snprintf(h->log + strlen(h->log), sizeof h->log - strlen(h->log), "[%.*s]",
                 (int)args[0].n, args[0].v.str);
    return WEFT_OK;
}

static weft_status h_shout(void *env, weft_component_host_call *call, const weft_cval *args,
                           uint32_t nargs, weft_cval *result, weft_error *err) {
    host *h = env;
    (void)nargs;
    if (h->fail_shout) {
        snprintf(err->message, sizeof err->message, "shout: the host refuses");
        return WEFT_ERR_TRAP;
    }
    char *s = weft_cval_pool_alloc(weft_component_host_call_pool(call), args[0].n + 1);
    if (!s) return WEFT_ERR_NOMEM;
    for (uint32_t i = 0; i < args[0].n; i++) s[i] = (char)toupper((unsigned char)args[0].v.str[i]);
    result->kind = WEFT_CSTRING;
    result->n = args[0].n;
    result->v.str = s;
    result->v.str_src = 0;
    return WEFT_OK;
}

static weft_status h_sum(void *env, weft_component_host_call *call, const weft_cval *args,
                         uint32_t nargs, weft_cval *result, weft_error *err) {
    (void)call, (void)nargs, (void)err;
    host *h = env;
    if (h->bad_sum) {
        result->kind = WEFT_CSTRING;
        result->n = 0;
        result->v.str = "";
        return WEFT_OK;
    }
    uint64_t s = 0;
    for (uint32_t i = 0; i < args[0].n; i++) s += args[0].v.items[i].v.u;
    result->kind = WEFT_CU32;
    result->v.u = (uint32_t)s;
    return WEFT_OK;
}

static weft_status h_make(void *env, weft_component_host_call *call, const weft_cval *args,
                          uint32_t nargs, weft_cval *result, weft_error *err) {
    (void)nargs, (void)err;
    host *h = env;
    if (h->ncounters == 16) return WEFT_ERR_LIMIT;
    CHECK("make-counter's result type is own", weft_ctype_kind(weft_component_host_call_result(call)) == WEFT_COWN);
    CHECK("make-counter's parameter is a u32", weft_ctype_kind(weft_component_host_call_param(call, 0)) == WEFT_CU32);
    CHECK("a host call has a core caller", weft_component_host_call_caller(call) != NULL);
    h->counters[h->ncounters] = (uint32_t)args[0].v.u;
    result->kind = WEFT_COWN;
    result->v.rep = 100 + h->ncounters++; /* the host's rep: 100 + its index */
    return WEFT_OK;
}

static weft_status h_bump(void *env, weft_component_host_call *call, const weft_cval *args,
                          uint32_t nargs, weft_cval *result, weft_error *err) {
    (void)call, (void)nargs;
    host *h = env;
    uint32_t i = args[0].v.rep - 100;
    if (args[0].kind != WEFT_CBORROW || i >= h->ncounters) {
        snprintf(err->message, sizeof err->message, "bump: not a counter (rep %u)", args[0].v.rep);
        return WEFT_ERR_TRAP;
    }
    result->kind = WEFT_CU32;
    result->v.u = ++h->counters[i];
    return WEFT_OK;
}

static void h_dtor(void *env, uint32_t rep) {
    host *h = env;
    if (h->ndropped < 16) h->dropped[h->ndropped++] = rep;
}

static void h_env_free(void *env) { ((host *)env)->env_freed++; }

static weft_component_linker *host_linker(host *h, bool with_sum, weft_component_resource **res) {
    weft_component_linker *l = weft_component_linker_new();
    weft_error err;
    const char *api = "example:host/api@0.1.2"; /* serves the import of @0.1.0 */
    CHECK("define log", weft_component_linker_define_func(l, api, "log", h_log, h, h_env_free, &err) == WEFT_OK);
    CHECK("define shout", weft_component_linker_define_func(l, api, "shout", h_shout, h, NULL, &err) == WEFT_OK);
    if (with_sum)
        CHECK("define sum", weft_component_linker_define_func(l, api, "sum", h_sum, h, NULL, &err) == WEFT_OK);
    CHECK("define make-counter", weft_component_linker_define_func(l, api, "make-counter", h_make, h, NULL, &err) == WEFT_OK);
    CHECK("define bump", weft_component_linker_define_func(l, api, "[method]counter.bump", h_bump, h, NULL, &err) == WEFT_OK);
    CHECK("define counter", weft_component_linker_define_resource(l, api, "counter", h_dtor, h, NULL, res, &err) == WEFT_OK);
    CHECK("a name defined twice is refused",
          weft_component_linker_define_func(l, api, "log", h_log, h, NULL, &err) == WEFT_ERR_MISUSE &&
              strstr(err.message, "already defined"));
    CHECK("a NULL callback is refused",
          weft_component_linker_define_func(l, api, "x", NULL, h, NULL, &err) == WEFT_ERR_MISUSE);
    return l;
}

static weft_component_func *func(weft_component_instance *ci, const char *name) {
    weft_component_func *f = NULL;
    weft_error err;
    if (weft_component_instance_func(ci, name, &f, &err) != WEFT_OK) {
        printf("FAIL no export %s: %s\n", name, err.message);
        exit(1);
    }
    return f;
}

static void test_linker(weft_engine *e) {
    weft_component *c = NULL;
    if (weft_component_load_file(e, GUEST, &c, NULL) != WEFT_OK) {
        printf("FAIL cannot load %s\n", GUEST);
        exit(1);
    }
    weft_store *s = weft_store_new(e);
    weft_error err;
    weft_component_instance *ci = NULL;

    /* nothing defined: the import is named */
    weft_component_linker *empty = weft_component_linker_new();
    CHECK("an import nobody serves is a link error",
          weft_component_linker_instantiate(empty, s, c, NULL, &ci, &err) == WEFT_ERR_LINK &&
              strstr(err.message, "example:host/api@0.1.0") && ci == NULL);
    weft_component_linker_free(empty);

    host h;
    memset(&h, 0, sizeof h);
    weft_component_resource *counter = NULL;
    /* a function missing: named */
    weft_component_linker *partial = host_linker(&h, false, &counter);
    CHECK("a function the linker lacks is named",
          weft_component_linker_instantiate(partial, s, c, NULL, &ci, &err) == WEFT_ERR_LINK &&
              strstr(err.message, "sum"));
    weft_component_linker_free(partial);
    CHECK("the envs are freed with the linker", h.env_freed == 1);

    memset(&h, 0, sizeof h);
    weft_component_linker *l = host_linker(&h, true, &counter);
    CHECK("instantiate with the linker", weft_component_linker_instantiate(l, s, c, NULL, &ci, &err) == WEFT_OK);
    if (!ci) {
        printf("FAIL instantiate: %s\n", err.message);
        exit(1);
    }
    weft_component_linker_free(l); /* the instance keeps it */
    CHECK("the instance keeps the linker's envs", h.env_freed == 0);
    weft_cval_pool *pool = weft_cval_pool_new(0);

    /* strings both ways through a host function */
    weft_cval arg = {.kind = WEFT_CSTRING, .n = 5, .v.str = "hello"}, res;
    CHECK("greet", weft_component_func_call(func(ci, "greet"), &arg, 1, &res, pool, &err) == WEFT_OK);
    CHECK("greet's result is the host's shout", res.kind == WEFT_CSTRING && res.n == 5 && memcmp(res.v.str, "HELLO", 5) == 0);
    CHECK("the host's log saw the argument", strcmp(h.log, "[hello]") == 0);

    /* a list the host builds */
    weft_cval items[4] = {{.kind = WEFT_CU32, .v.u = 1}, {.kind = WEFT_CU32, .v.u = 20},
                          {.kind = WEFT_CU32, .v.u = 300}, {.kind = WEFT_CU32, .v.u = 4000}};
    weft_cval list = {.kind = WEFT_CLIST, .n = 4, .v.items = items};
    CHECK("sum-host", weft_component_func_call(func(ci, "sum-host"), &list, 1, &res, pool, &err) == WEFT_OK &&
                          res.kind == WEFT_CU32 && res.v.u == 4321);

    /* a host resource: made, bumped through borrows, dropped by the guest */
    weft_cval cargs[2] = {{.kind = WEFT_CU32, .v.u = 10}, {.kind = WEFT_CU32, .v.u = 3}};
    CHECK("count", weft_component_func_call(func(ci, "count"), cargs, 2, &res, pool, &err) == WEFT_OK &&
                       res.v.u == 13);
    CHECK("the guest's drop ran the host's destructor with the rep", h.ndropped == 1 && h.dropped[0] == 100);
    /* an own the host gives: the guest drops it */
    weft_cval own = {.kind = WEFT_COWN, .v.rep = 77};
    CHECK("take", weft_component_func_call(func(ci, "take"), &own, 1, NULL, pool, &err) == WEFT_OK);
    CHECK("an own given to the guest and dropped there reaches the destructor",
          h.ndropped == 2 && h.dropped[1] == 77);
    /* a borrow the host lends: used, not destroyed */
    weft_cval bor = {.kind = WEFT_CBORROW, .v.rep = 100};
    CHECK("bump-borrowed", weft_component_func_call(func(ci, "bump-borrowed"), &bor, 1, &res, pool, &err) == WEFT_OK &&
                               res.v.u == 14);
    CHECK("a lent borrow is not destroyed", h.ndropped == 2);
    weft_component_resource_drop(counter, 5);
    CHECK("weft_component_resource_drop runs the destructor", h.ndropped == 3 && h.dropped[2] == 5);

    /* a host function that fails: the guest traps with its message */
    h.fail_shout = 1;
    CHECK("a failing host function traps the call",
          weft_component_func_call(func(ci, "greet"), &arg, 1, &res, pool, &err) == WEFT_ERR_TRAP &&
              strstr(err.message, "shout: the host refuses"));
    h.fail_shout = 0;
    h.bad_sum = 1;
    CHECK("a host result of the wrong type traps, never crashes",
          weft_component_func_call(func(ci, "sum-host"), &list, 1, &res, pool, &err) == WEFT_ERR_TRAP);
    h.bad_sum = 0;
    /* values of the wrong shape from the host: misuse */
    weft_cval wrong = {.kind = WEFT_CU32, .v.u = 1};
    CHECK("an argument of the wrong kind is misuse",
          weft_component_func_call(func(ci, "greet"), &wrong, 1, &res, pool, &err) == WEFT_ERR_MISUSE);
    CHECK("a wrong argument count is misuse, named",
          weft_component_func_call(func(ci, "count"), cargs, 1, &res, pool, &err) == WEFT_ERR_MISUSE &&
              strstr(err.message, "takes 2 arguments, 1 given"));
    CHECK("the instance still works after misuse",
          weft_component_func_call(func(ci, "count"), cargs, 2, &res, pool, &err) == WEFT_OK && res.v.u == 13);
    /* an own the guest keeps: dropped with the instance? the host's dtor runs
       only on resource.drop (the instance's end does not drop handles) */
    weft_cval_pool_free(pool);
    weft_component_instance_free(ci);
    CHECK("freeing the last instance frees the linker's envs", h.env_freed == 1);
    weft_store_free(s);
    weft_component_release(c);
}

/* ---- values.wasm: types, calls, WAVE ------------------------------------ */

static void test_values(weft_engine *e) {
    weft_component *c = load(e, "values.wasm");
    weft_store *s = weft_store_new(e);
    weft_error err;
    weft_component_instance *ci = NULL;
    weft_wasi_config wc;
    weft_wasi_config_init(&wc);
    CHECK("instantiate values.wasm", weft_component_instantiate_wasi(s, c, &wc, &ci, &err) == WEFT_OK);
    weft_component_func *f = NULL;
    CHECK("unknown export", weft_component_instance_func(ci, "nope", &f, &err) == WEFT_ERR_NOT_FOUND && !f);
    CHECK("ambiguous export", weft_component_instance_func(ci, "mul", &f, &err) == WEFT_ERR_NOT_FOUND &&
                                  strstr(err.message, "example:demo/other.mul"));
    CHECK("an instance's function by item name",
          weft_component_instance_func(ci, "example:demo/math.mul@0.1.0", &f, &err) == WEFT_OK && f);

    weft_component_func *ep = func(ci, "echo-point");
    CHECK("echo-point has one parameter", weft_component_func_param_count(ep) == 1);
    const char *pname;
    size_t plen;
    const weft_ctype *pt = weft_component_func_param(ep, 0, &pname, &plen);
    CHECK("its name is x", plen == 1 && pname[0] == 'x');
    CHECK("it is a record of 3 fields", weft_ctype_kind(pt) == WEFT_CRECORD && weft_ctype_count(pt) == 3);
    size_t nl;
    const char *n2 = weft_ctype_name(pt, 2, &nl);
    CHECK("field 2 is label", nl == 5 && memcmp(n2, "label", 5) == 0);
    const weft_ctype *lt = weft_ctype_member(pt, 2);
    CHECK("label is option<string>", weft_ctype_kind(lt) == WEFT_COPTION &&
                                        weft_ctype_kind(weft_ctype_elem(lt)) == WEFT_CSTRING);
    char tb[128];
    CHECK("the record as text", weft_ctype_text(pt, tb, sizeof tb) > 0 &&
                                    strcmp(tb, "record { x: s32, y: s32, label: option<string> }") == 0);
    char small[8];
    size_t need = weft_ctype_text(pt, small, sizeof small);
    CHECK("a cut text says so and gives the length", need == strlen(tb) && strcmp(small, "reco...") == 0);
    CHECK("no name past the count", weft_ctype_name(pt, 3, &nl) == NULL && nl == 0);

    /* a record the host builds, echoed, printed */
    weft_cval label_s = {.kind = WEFT_CSTRING, .n = 2, .v.str = "hi"};
    weft_cval fields[3] = {{.kind = WEFT_CS32, .v.s = -1}, {.kind = WEFT_CS32, .v.s = 2},
                           {.kind = WEFT_COPTION, .v.c = {1, &label_s}}};
    weft_cval rec = {.kind = WEFT_CRECORD, .n = 3, .v.items = fields}, out;
    weft_cval_pool *pool = weft_cval_pool_new(0);
    CHECK("echo-point", weft_component_func_call(ep, &rec, 1, &out, pool, &err) == WEFT_OK);
    char text[128];
    size_t tl;
    CHECK("print it", weft_wave_print(weft_component_func_result(ep), &out, text, sizeof text, &tl, &err) == WEFT_OK &&
                          strcmp(text, "{x: -1, y: 2, label: some(\"hi\")}") == 0 && tl == strlen(text));
    CHECK("a short buffer: cut, NUL-terminated, the whole length given",
          weft_wave_print(weft_component_func_result(ep), &out, small, sizeof small, &need, &err) == WEFT_OK &&
              need == tl && strlen(small) == sizeof small - 1);
    weft_cval bad = {.kind = WEFT_CU8, .v.u = 1};
    CHECK("printing a value of the wrong type is misuse",
          weft_wave_print(pt, &bad, text, sizeof text, NULL, &err) == WEFT_ERR_MISUSE);

    /* WAVE parse through the API */
    weft_cval pv;
    const char *src = "{y: 5, x: 6}";
    CHECK("parse a record", weft_wave_parse(pt, src, strlen(src), &pv, pool, &err) == WEFT_OK &&
                                pv.kind == WEFT_CRECORD && pv.v.items[0].v.s == 6 &&
                                pv.v.items[2].kind == WEFT_COPTION && pv.v.items[2].v.c.index == 0);
    src = "{y: 5}";
    CHECK("a missing field: malformed at its offset",
          weft_wave_parse(pt, src, strlen(src), &pv, pool, &err) == WEFT_ERR_MALFORMED && err.offset == 0 &&
              strstr(err.message, "missing field `x`"));
    weft_component_func *cf;
    weft_cval *args;
    uint32_t nargs;
    CHECK("parse a call", weft_wave_parse_call(ci, "opt-args(4)", &cf, &args, &nargs, pool, &err) == WEFT_OK &&
                              nargs == 3 && args[1].kind == WEFT_COPTION && args[1].v.c.index == 0);
    CHECK("call what was parsed", weft_component_func_call(cf, args, nargs, &out, pool, &err) == WEFT_OK &&
                                      out.v.u == 400);
    CHECK("parse a call of an unknown function",
          weft_wave_parse_call(ci, "zzz()", &cf, &args, &nargs, pool, &err) == WEFT_ERR_NOT_FOUND);
    weft_cval_pool_free(pool);

    /* a pool's limit */
    weft_cval_pool *tiny = weft_cval_pool_new(64);
    weft_component_func *el = func(ci, "echo-list-u32");
    src = "[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]";
    CHECK("a parse past the pool's limit is WEFT_ERR_LIMIT",
          weft_wave_parse(weft_component_func_param(el, 0, NULL, NULL), src, strlen(src), &pv, tiny, &err) ==
              WEFT_ERR_LIMIT);
    weft_cval_pool_free(tiny);
    weft_component_instance_free(ci);
    weft_store_free(s);
    weft_component_release(c);
}

/* ---- WASI beside the linker, and shadowing ---------------------------- */

static weft_status env_get_environment(void *env, weft_component_host_call *call,
                                       const weft_cval *args, uint32_t nargs, weft_cval *result,
                                       weft_error *err) {
    (void)env, (void)args, (void)nargs, (void)err;
    weft_cval_pool *p = weft_component_host_call_pool(call);
    weft_cval *pair = weft_cval_pool_alloc(p, 2 * sizeof *pair);
    weft_cval *tuple = weft_cval_pool_alloc(p, sizeof *tuple);
    if (!pair || !tuple) return WEFT_ERR_NOMEM;
    pair[0] = (weft_cval){.kind = WEFT_CSTRING, .n = 8, .v.str = "CMD_TEST"};
    pair[1] = (weft_cval){.kind = WEFT_CSTRING, .n = 11, .v.str = "from-linker"};
    *tuple = (weft_cval){.kind = WEFT_CTUPLE, .n = 2, .v.items = pair};
    *result = (weft_cval){.kind = WEFT_CLIST, .n = 1, .v.items = tuple};
    return WEFT_OK;
}

static weft_status env_get_arguments(void *env, weft_component_host_call *call,
                                     const weft_cval *args, uint32_t nargs, weft_cval *result,
                                     weft_error *err) {
    (void)env, (void)call, (void)args, (void)nargs, (void)err;
    static weft_cval argv0 = {.kind = WEFT_CSTRING, .n = 4, .v.str = "prog"};
    *result = (weft_cval){.kind = WEFT_CLIST, .n = 1, .v.items = &argv0};
    return WEFT_OK;
}

static weft_status env_initial_cwd(void *env, weft_component_host_call *call,
                                   const weft_cval *args, uint32_t nargs, weft_cval *result,
                                   weft_error *err) {
    (void)env, (void)call, (void)args, (void)nargs, (void)err;
    *result = (weft_cval){.kind = WEFT_COPTION, .v.c = {0, NULL}};
    return WEFT_OK;
}

static void test_wasi(weft_engine *e) {
    weft_component *c = load(e, "cmd.wasm");
    weft_store *s = weft_store_new(e);
    weft_error err;
    weft_component_linker *l = weft_component_linker_new();
    const char *envi = "wasi:cli/environment@0.2.0";
    weft_component_linker_define_func(l, envi, "get-environment", env_get_environment, NULL, NULL, &err);
    weft_component_linker_define_func(l, envi, "get-arguments", env_get_arguments, NULL, NULL, &err);
    weft_component_linker_define_func(l, envi, "initial-cwd", env_initial_cwd, NULL, NULL, &err);
    char outp[] = "/tmp/weft-component-test-XXXXXX";
    int fd = mkstemp(outp);
    int nul = open("/dev/null", O_RDWR);
    weft_wasi_config wc;
    weft_wasi_config_init(&wc);
    wc.stdio[0] = nul;
    wc.stdio[1] = fd;
    wc.stdio[2] = nul;
    weft_component_instance *ci = NULL;
    CHECK("without WASI the command's imports are missing",
          weft_component_linker_instantiate(l, s, c, NULL, &ci, &err) == WEFT_ERR_LINK && strstr(err.message, "wasi:"));
    CHECK("with WASI it links", weft_component_linker_instantiate(l, s, c, &wc, &ci, &err) == WEFT_OK);
    int32_t code = -1;
    CHECK("and runs", ci && weft_component_run(ci, &code, &err) == WEFT_OK && code == 0);
    char buf[256] = {0};
    ssize_t n = pread(fd, buf, sizeof buf - 1, 0);
    CHECK("the linker's wasi:cli/environment shadows WASI's",
          n > 0 && strncmp(buf, "argc=1\nCMD_TEST=from-linker\n", 28) == 0);
    weft_component_instance_free(ci);
    weft_component_linker_free(l);
    close(fd);
    close(nul);
    unlink(outp);
    weft_store_free(s);
    weft_component_release(c);
}

int main(void) {
    weft_engine *e = weft_engine_new(NULL);
    test_linker(e);
    test_values(e);
    test_wasi(e);
    weft_engine_free(e);
    return check_done();
}
