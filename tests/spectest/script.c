/*
 * script.c — runs one wast2json script against libweft.
 *
 * Every script gets a fresh store and linker holding the `spectest` module;
 * all its modules live in that store and are freed with it. Each command is
 * counted once: passed, failed or skipped (register commands count only when
 * they fail). Text-format modules (.wat) are counted as skipped, never as
 * passed. What each command checks is written at its handler below; the
 * command format is described in ../shared/spec/README.md.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spectest.h"

/* A module defined by a `module` command. */
typedef struct spec_mod {
    char *name;           /* "$id" from the script, or NULL; owned */
    weft_module *module;  /* NULL if it failed to load */
    weft_instance *inst;  /* NULL if it failed to load or instantiate */
} spec_mod;

typedef struct script {
    const spec_options *opt;
    const spec_skiplist *skips;
    const char *path;     /* the JSON file, as given */
    const char *base;     /* its file name, for messages */
    char *dir;            /* the directory the module files are in */
    weft_engine *engine;
    weft_store *store;
    weft_linker *linker;
    spec_mod *mods;
    size_t nmods, capmods;
    size_t current;       /* index of the module commands act on by
                             default; NO_MOD before the first one */
    spec_counts counts;
    unsigned long shown;  /* failures printed so far */
    bool category_only; /* the current command is listed as category-only */
} script;

/* The results of performing an action. */
typedef struct action_out {
    weft_status status;
    weft_error err;
    weft_val *results;    /* owned; nresults values when status is OK */
    size_t nresults;
    char desc[512];       /* "field(args)", for messages */
} action_out;

typedef enum action_ran {
    ACTION_RAN,           /* out->status says how the call went */
    ACTION_SKIPPED,       /* counted as skipped already */
    ACTION_FAILED,        /* counted as failed already (no such module...) */
} action_ran;

#define NO_MOD ((size_t)-1)
#define WAT_REASON "text-format module (.wat)"

static const char *status_str(weft_status st)
{
    switch (st) {
    case WEFT_OK: return "success";
    case WEFT_SUSPENDED: return "suspended";
    case WEFT_ERR_MALFORMED: return "malformed";
    case WEFT_ERR_INVALID: return "invalid";
    case WEFT_ERR_LINK: return "link error";
    case WEFT_ERR_TRAP: return "trap";
    case WEFT_ERR_EXIT: return "exit";
    case WEFT_ERR_EXCEPTION: return "uncaught exception";
    case WEFT_ERR_NOMEM: return "out of memory";
    case WEFT_ERR_LIMIT: return "limit";
    case WEFT_ERR_MISUSE: return "misuse";
    case WEFT_ERR_NOT_FOUND: return "not found";
    case WEFT_ERR_IO: return "I/O error";
    case WEFT_ERR_TIMEOUT: return "timed out";
    case WEFT_ERR_FULL: return "channel full";
    case WEFT_ERR_TOO_LARGE: return "message too large";
    case WEFT_ERR_CLOSED: return "channel closed";
    }
    return "unknown status";
}

/* An error struct the engine may or may not fill: start empty, and make
   sure the message is terminated whatever happened. */
static void err_reset(weft_error *err)
{
    memset(err, 0, sizeof *err);
}

static const char *err_msg(weft_error *err)
{
    err->message[WEFT_ERROR_MESSAGE_MAX - 1] = '\0';
    return err->message;
}

static void fail(script *s, unsigned long line, const char *kind,
                 const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

static void fail(script *s, unsigned long line, const char *kind,
                 const char *fmt, ...)
{
    s->counts.failed++;
    if (!s->opt->verbose && s->shown >= s->opt->max_shown)
        return;
    s->shown++;
    printf("%s:%lu: %s: ", s->base, line, kind);
    va_list ap;
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    putchar('\n');
}

static void skip(script *s, unsigned long line, const char *kind,
                 const char *reason)
{
    s->counts.skipped++;
    if (s->opt->verbose)
        printf("%s:%lu: %s: skipped: %s\n", s->base, line, kind, reason);
}

static void pass(script *s)
{
    s->counts.passed++;
}

/* Reads a whole file into a new NUL-terminated buffer. */
static bool read_file(const char *path, char **data, size_t *len, spec_buf *err)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0;
    if (!f) {
        spec_buf_printf(err, "cannot open %s: %s", path, strerror(errno));
        return false;
    }
    for (;;) {
        if (cap - n < 65536) {
            size_t ncap = cap ? cap * 2 : 65536 * 2;
            char *nbuf = realloc(buf, ncap + 1);
            if (!nbuf) {
                spec_buf_printf(err, "out of memory reading %s", path);
                goto fail;
            }
            buf = nbuf;
            cap = ncap;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        spec_buf_printf(err, "cannot read %s", path);
        goto fail;
    }
    fclose(f);
    buf[n] = '\0';
    *data = buf;
    *len = n;
    return true;
fail:
    free(buf);
    fclose(f);
    return false;
}

/* Loads the module file `filename` next to the script. A file that cannot
   be read is WEFT_ERR_IO with the reason in err. */
static weft_status load_module(script *s, const char *filename, weft_module **out,
                               weft_error *err)
{
    *out = NULL;
    err_reset(err);
    size_t plen = strlen(s->dir) + strlen(filename) + 2;
    char *path = malloc(plen);
    if (!path) {
        err->status = WEFT_ERR_NOMEM;
        strcpy(err->message, "runner: out of memory");
        return WEFT_ERR_NOMEM;
    }
    snprintf(path, plen, "%s/%s", s->dir, filename);
    char *bytes;
    size_t len;
    spec_buf eb;
    spec_buf_init(&eb, err->message, sizeof err->message);
    bool ok = read_file(path, &bytes, &len, &eb);
    free(path);
    if (!ok) {
        err->status = WEFT_ERR_IO;
        return WEFT_ERR_IO;
    }
    weft_status st = weft_module_load(s->engine, (const uint8_t *)bytes, len, out, err);
    free(bytes);
    if (st != WEFT_OK) {
        /* The contract says *out is NULL on failure; don't trust it. */
        *out = NULL;
    }
    return st;
}

static bool is_text_module(const json_value *cmd, const char *filename)
{
    const char *mt = json_get_string(cmd, "module_type", NULL);
    if (mt && strcmp(mt, "text") == 0)
        return true;
    size_t n = filename ? strlen(filename) : 0;
    return n >= 4 && strcmp(filename + n - 4, ".wat") == 0;
}

/* The module named `name` ("$id"), the latest one of that name; the
   current module when name is NULL. */
static spec_mod *find_mod(script *s, const char *name)
{
    if (!name)
        return s->current == NO_MOD ? NULL : &s->mods[s->current];
    for (size_t i = s->nmods; i-- > 0;)
        if (s->mods[i].name && strcmp(s->mods[i].name, name) == 0)
            return &s->mods[i];
    return NULL;
}

static spec_mod *add_mod(script *s, const char *name)
{
    if (s->nmods == s->capmods) {
        size_t ncap = s->capmods ? s->capmods * 2 : 16;
        spec_mod *n = realloc(s->mods, ncap * sizeof *n);
        if (!n)
            return NULL;
        s->mods = n;
        s->capmods = ncap;
    }
    spec_mod *m = &s->mods[s->nmods];
    memset(m, 0, sizeof *m);
    if (name && !(m->name = strdup(name)))
        return NULL;
    s->nmods++;
    return m;
}

/* Looks an export up by its name bytes (which may include NUL). */
static weft_status lookup_export(weft_instance *inst, const char *name, size_t len,
                                 weft_extern *out)
{
    return weft_instance_export_n(inst, name, len, out);
}

static void format_vals(spec_buf *b, const weft_val *vals, size_t n)
{
    spec_buf_printf(b, "(");
    for (size_t i = 0; i < n; i++) {
        if (i)
            spec_buf_printf(b, ", ");
        spec_format_val(b, &vals[i]);
    }
    spec_buf_printf(b, ")");
}

static void format_expects(spec_buf *b, const spec_expect *e, size_t n,
                           const char *sep)
{
    spec_buf_printf(b, "(");
    for (size_t i = 0; i < n; i++) {
        if (i)
            spec_buf_printf(b, "%s", sep);
        spec_format_expect(b, &e[i]);
    }
    spec_buf_printf(b, ")");
}

/* Performs the command's "action" (invoke or get). On ACTION_RAN the caller
   owns out->results and judges out->status; otherwise the command has been
   counted already. */
static action_ran run_action(script *s, const json_value *cmd, unsigned long line,
                             const char *kind, action_out *out)
{
    memset(out, 0, sizeof *out);
    const json_value *action = json_get(cmd, "action");
    const char *atype = json_get_string(action, "type", NULL);
    size_t flen;
    const char *field = json_get_string(action, "field", &flen);
    const char *modname = json_get_string(action, "module", NULL);
    spec_buf desc;
    spec_buf_init(&desc, out->desc, sizeof out->desc);

    if (!atype || !field) {
        fail(s, line, kind, "bad command in the script: action without type or field");
        return ACTION_FAILED;
    }
    bool invoke = strcmp(atype, "invoke") == 0;
    if (!invoke && strcmp(atype, "get") != 0) {
        fail(s, line, kind, "unknown action type \"%s\"", atype);
        return ACTION_FAILED;
    }
    if (modname)
        spec_buf_printf(&desc, "%s.", modname);
    spec_buf_printf(&desc, "\"");
    spec_buf_escaped(&desc, field, flen);
    spec_buf_printf(&desc, "\"");

    /* Arguments. */
    const json_value *jargs = invoke ? json_get_array(action, "args") : NULL;
    size_t nargs = jargs ? jargs->count : 0;
    weft_val *args = calloc(nargs ? nargs : 1, sizeof *args);
    if (!args) {
        fail(s, line, kind, "runner: out of memory");
        return ACTION_FAILED;
    }
    action_ran ran = ACTION_FAILED;
    for (size_t i = 0; i < nargs; i++) {
        char eb[256];
        spec_buf e;
        spec_buf_init(&e, eb, sizeof eb);
        spec_parse_result r = spec_parse_value(jargs->items[i], &args[i], &e);
        if (r != SPEC_VALUE_OK) {
            fail(s, line, kind, "bad argument %zu in the script: %s", i, eb);
            goto done;
        }
    }
    if (invoke)
        format_vals(&desc, args, nargs);

    spec_mod *m = find_mod(s, modname);
    if (!m) {
        fail(s, line, kind, "%s: no module %s", out->desc, modname ? modname : "defined yet");
        goto done;
    }
    if (!m->inst) {
        fail(s, line, kind, "%s: the module did not %s", out->desc,
             m->module ? "instantiate" : "load");
        goto done;
    }
    weft_extern ext;
    weft_status st = lookup_export(m->inst, field, flen, &ext);
    if (st != WEFT_OK) {
        fail(s, line, kind, "%s: no such export (%s)", out->desc, status_str(st));
        goto done;
    }

    if (!invoke) {
        if (ext.kind != WEFT_EXTERN_GLOBAL || !ext.of.global) {
            fail(s, line, kind, "%s: the export is not a global", out->desc);
            goto done;
        }
        out->results = calloc(1, sizeof *out->results);
        if (!out->results) {
            fail(s, line, kind, "runner: out of memory");
            goto done;
        }
        out->results[0] = weft_global_get(ext.of.global);
        out->nresults = 1;
        out->status = WEFT_OK;
        ran = ACTION_RAN;
        goto done;
    }

    if (ext.kind != WEFT_EXTERN_FUNC || !ext.of.func) {
        fail(s, line, kind, "%s: the export is not a function", out->desc);
        goto done;
    }
    weft_functype ft = weft_func_type(ext.of.func);
    bool args_ok = ft.nparams == nargs && (nargs == 0 || ft.params);
    for (size_t i = 0; args_ok && i < nargs; i++)
        if (ft.params[i] != args[i].type)
            args_ok = false;
    if (!args_ok) {
        fail(s, line, kind, "%s: the arguments don't match the export's type "
             "(%u parameters)", out->desc, (unsigned)ft.nparams);
        goto done;
    }
    out->results = calloc(ft.nresults ? ft.nresults : 1, sizeof *out->results);
    if (!out->results) {
        fail(s, line, kind, "runner: out of memory");
        goto done;
    }
    out->nresults = ft.nresults;
    err_reset(&out->err);
    out->status = weft_func_call(ext.of.func, args, nargs, out->results,
                                 ft.nresults, &out->err);
    err_msg(&out->err);
    ran = ACTION_RAN;
done:
    free(args);
    if (ran != ACTION_RAN) {
        free(out->results);
        out->results = NULL;
    }
    return ran;
}

/* Describes a finished action that was expected to fail: "success (...)",
   "trap: message" or "<status>: message". */
static void format_outcome(spec_buf *b, action_out *out)
{
    if (out->status == WEFT_OK) {
        spec_buf_printf(b, "success ");
        format_vals(b, out->results, out->nresults);
    } else {
        spec_buf_printf(b, "%s \"%s\"", status_str(out->status), err_msg(&out->err));
    }
}

/* action: perform it; it must not trap. */
static void cmd_action(script *s, const json_value *cmd, unsigned long line)
{
    action_out out;
    if (run_action(s, cmd, line, "action", &out) != ACTION_RAN)
        return;
    if (out.status == WEFT_OK)
        pass(s);
    else
        fail(s, line, "action", "%s: expected success, got %s \"%s\"", out.desc,
             status_str(out.status), err_msg(&out.err));
    free(out.results);
}

/* assert_return: the results must match "expected" one by one, or the
   single result one of the "either" alternatives. */
static void cmd_assert_return(script *s, const json_value *cmd, unsigned long line)
{
    const char *kind = "assert_return";
    const json_value *jexp = json_get_array(cmd, "expected");
    const json_value *either = json_get_array(cmd, "either");
    const json_value *list = either ? either : jexp;
    size_t nexp = list ? list->count : 0;
    spec_expect *exp = calloc(nexp ? nexp : 1, sizeof *exp);
    action_out out;
    char buf[2048];
    spec_buf b;
    spec_buf_init(&b, buf, sizeof buf);
    if (!exp) {
        fail(s, line, kind, "runner: out of memory");
        return;
    }
    if (!list) {
        fail(s, line, kind, "bad command in the script: no \"expected\"");
        goto done;
    }
    for (size_t i = 0; i < nexp; i++) {
        spec_parse_result r = spec_parse_expect(list->items[i], &exp[i], &b);
        if (r != SPEC_VALUE_OK) {
            fail(s, line, kind, "bad expected value %zu in the script: %s", i, buf);
            goto done;
        }
    }
    if (run_action(s, cmd, line, kind, &out) != ACTION_RAN)
        goto done;

    if (out.status != WEFT_OK) {
        format_expects(&b, exp, nexp, either ? " or " : ", ");
        fail(s, line, kind, "%s: expected %s, got %s \"%s\"", out.desc, buf,
             status_str(out.status), err_msg(&out.err));
        goto done_out;
    }
    bool ok;
    if (either) {
        ok = out.nresults == 1;
        bool any = false;
        for (size_t i = 0; ok && i < nexp && !any; i++)
            any = spec_expect_match(&exp[i], &out.results[0]);
        ok = ok && any;
    } else {
        ok = out.nresults == nexp;
        for (size_t i = 0; ok && i < nexp; i++)
            ok = spec_expect_match(&exp[i], &out.results[i]);
    }
    if (ok) {
        pass(s);
    } else {
        format_expects(&b, exp, nexp, either ? " or " : ", ");
        spec_buf_printf(&b, ", got ");
        format_vals(&b, out.results, out.nresults);
        fail(s, line, kind, "%s: expected %s", out.desc, buf);
    }
done_out:
    free(out.results);
done:
    free(exp);
}

/* assert_trap / assert_exhaustion on an action: it must trap (for
   exhaustion with WEFT_TRAP_STACK_EXHAUSTED) with a message containing the
   script's text. */
static void cmd_assert_trap(script *s, const json_value *cmd, unsigned long line,
                            const char *kind, bool exhaustion)
{
    const char *text = json_get_string(cmd, "text", NULL);
    if (!text)
        text = "";
    action_out out;
    if (run_action(s, cmd, line, kind, &out) != ACTION_RAN)
        return;
    bool ok = out.status == WEFT_ERR_TRAP && strstr(err_msg(&out.err), text) &&
              (!exhaustion || out.err.trap == WEFT_TRAP_STACK_EXHAUSTED);
    if (ok) {
        pass(s);
    } else {
        char buf[1024];
        spec_buf b;
        spec_buf_init(&b, buf, sizeof buf);
        format_outcome(&b, &out);
        if (exhaustion && out.status == WEFT_ERR_TRAP &&
            out.err.trap != WEFT_TRAP_STACK_EXHAUSTED)
            spec_buf_printf(&b, " (trap kind %d, not WEFT_TRAP_STACK_EXHAUSTED)",
                            (int)out.err.trap);
        fail(s, line, kind, "%s: expected trap \"%s\", got %s", out.desc, text, buf);
    }
    free(out.results);
}

/* assert_exception on an action (exception handling): the call must end
   with an exception no frame caught, WEFT_ERR_EXCEPTION with the
   exception in err.exception (the script names no tag). */
static void cmd_assert_exception(script *s, const json_value *cmd, unsigned long line)
{
    action_out out;
    if (run_action(s, cmd, line, "assert_exception", &out) != ACTION_RAN)
        return;
    if (out.status == WEFT_ERR_EXCEPTION && out.err.exception) {
        pass(s);
    } else {
        char buf[1024];
        spec_buf b;
        spec_buf_init(&b, buf, sizeof buf);
        format_outcome(&b, &out);
        fail(s, line, "assert_exception", "%s: expected an uncaught exception, got %s", out.desc, buf);
    }
    free(out.results);
}

/* module: load and instantiate; it becomes the current module, and is
   known by its "name" if it has one. A failure here is a failure, and the
   commands that use the module fail too. */
/* A module definition (Wasm 3.0 scripts' "(module definition ...)",
   "definition" in the JSON): it must decode and validate; it is not
   instantiated and does not become the current module. */
static void cmd_module_definition(script *s, const char *filename, unsigned long line)
{
    weft_error err;
    weft_module *mod = NULL;
    weft_status st = load_module(s, filename, &mod, &err);
    if (st != WEFT_OK)
        fail(s, line, "module definition", "%s: expected to load, got %s \"%s\"", filename,
             status_str(st), err_msg(&err));
    else
        pass(s);
    weft_module_release(mod);
}

static void cmd_module(script *s, const json_value *cmd, unsigned long line)
{
    const char *kind = "module";
    const char *filename = json_get_string(cmd, "filename", NULL);
    const char *name = json_get_string(cmd, "name", NULL);
    const json_value *def = json_get(cmd, "definition");
    if (filename && def && !is_text_module(cmd, filename) &&
        ((def->kind == JSON_BOOL && def->boolean) ||
         (def->kind == JSON_STRING && strcmp(def->text, "true") == 0))) {
        cmd_module_definition(s, filename, line);
        return;
    }
    spec_mod *m = add_mod(s, name);
    if (!m) {
        fail(s, line, kind, "runner: out of memory");
        return;
    }
    s->current = (size_t)(m - s->mods);
    if (!filename) {
        fail(s, line, kind, "bad command in the script: no \"filename\"");
        return;
    }
    if (is_text_module(cmd, filename)) {
        skip(s, line, kind, WAT_REASON);
        return;
    }
    weft_error err;
    weft_status st = load_module(s, filename, &m->module, &err);
    if (st != WEFT_OK) {
        fail(s, line, kind, "%s: expected to load, got %s \"%s\"", filename,
             status_str(st), err_msg(&err));
        return;
    }
    err_reset(&err);
    weft_instance *inst = NULL;
    st = weft_linker_instantiate(s->linker, m->module, &inst, &err);
    if (st != WEFT_OK || !inst) {
        fail(s, line, kind, "%s: expected to instantiate, got %s \"%s\"", filename,
             status_str(st), err_msg(&err));
        return;
    }
    m->inst = inst;
    pass(s);
}

/* register: make a module's exports importable under "as". */
static void cmd_register(script *s, const json_value *cmd, unsigned long line)
{
    const char *as = json_get_string(cmd, "as", NULL);
    const char *name = json_get_string(cmd, "name", NULL);
    spec_mod *m = find_mod(s, name);
    if (!as) {
        fail(s, line, "register", "bad command in the script: no \"as\"");
        return;
    }
    if (!m || !m->inst) {
        fail(s, line, "register", "\"%s\": %s", as,
             !m ? "no such module" : "the module did not instantiate");
        return;
    }
    weft_status st = weft_linker_define_instance(s->linker, as, m->inst);
    if (st != WEFT_OK)
        fail(s, line, "register", "\"%s\": weft_linker_define_instance gave %s", as,
             status_str(st));
}

/* Messages whose wording Wasm 3.0's suite changed: weft says the 3.0 one
   (the current standard's), and a 2.0 script's old text is matched by it.
   Only exact renamings belong here, never looser matches. */
static const struct {
    const char *old_text, *new_text;
} renamed_texts[] = {
    {"global is immutable", "immutable global"}, /* core/global.wast -> wasm-3.0/global.wast */
};

/* Whether `msg` carries the script's `text` (a substring), or its 3.0
   wording. */
static bool message_matches(const char *msg, const char *text)
{
    if (strstr(msg, text))
        return true;
    for (size_t i = 0; i < sizeof renamed_texts / sizeof renamed_texts[0]; i++)
        if (strcmp(text, renamed_texts[i].old_text) == 0 && strstr(msg, renamed_texts[i].new_text))
            return true;
    return false;
}

/* assert_invalid, assert_malformed, assert_unlinkable, assert_uninstantiable:
   a module that must fail at the stage the command names, with that status;
   the message must contain the script's text (not checked for the first
   three under --loose-text; always checked for uninstantiable, whose text
   is a trap message). */
static void cmd_assert_module(script *s, const json_value *cmd, unsigned long line,
                              const char *kind)
{
    const char *filename = json_get_string(cmd, "filename", NULL);
    const char *text = json_get_string(cmd, "text", NULL);
    if (!text)
        text = "";
    if (!filename) {
        fail(s, line, kind, "bad command in the script: no \"filename\"");
        return;
    }
    if (is_text_module(cmd, filename)) {
        skip(s, line, kind, WAT_REASON);
        return;
    }
    bool malformed = strcmp(kind, "assert_malformed") == 0;
    bool invalid = strcmp(kind, "assert_invalid") == 0;
    bool unlinkable = strcmp(kind, "assert_unlinkable") == 0;
    weft_status want = malformed ? WEFT_ERR_MALFORMED
                     : invalid ? WEFT_ERR_INVALID
                     : unlinkable ? WEFT_ERR_LINK : WEFT_ERR_TRAP;
    bool check_text = !(s->opt->loose_text && want != WEFT_ERR_TRAP) && !s->category_only;

    weft_error err;
    weft_module *mod = NULL;
    weft_status st = load_module(s, filename, &mod, &err);
    const char *stage = "load";
    if (st == WEFT_OK && want != WEFT_ERR_MALFORMED && want != WEFT_ERR_INVALID) {
        weft_instance *inst = NULL;
        err_reset(&err);
        st = weft_linker_instantiate(s->linker, mod, &inst, &err);
        stage = "instantiation";
        /* A module that instantiates by mistake stays in the store; it is
           not registered or made current. */
    }
    weft_module_release(mod);

    if (st == want && (!check_text || message_matches(err_msg(&err), text))) {
        pass(s);
        return;
    }
    if (st == WEFT_OK)
        fail(s, line, kind, "%s: expected %s \"%s\", got success", filename,
             status_str(want), text);
    else
        fail(s, line, kind, "%s: expected %s \"%s\", got %s at %s: \"%s\"", filename,
             status_str(want), text, status_str(st), stage, err_msg(&err));
}

static void run_command(script *s, const json_value *cmd, size_t index)
{
    unsigned long line = 0;
    const char *type = json_get_string(cmd, "type", NULL);
    if (!json_get_uint(cmd, "line", &line) || !type) {
        fail(s, line, "command", "bad command %zu in the script: no type or line", index);
        return;
    }
    const spec_skip *sk = spec_skip_find(s->skips, s->path, line);
    s->category_only = sk && sk->category_only;
    if (sk && !sk->category_only) {
        skip(s, line, type, sk->reason);
        return;
    }
    if (strcmp(type, "module") == 0)
        cmd_module(s, cmd, line);
    else if (strcmp(type, "register") == 0)
        cmd_register(s, cmd, line);
    else if (strcmp(type, "action") == 0)
        cmd_action(s, cmd, line);
    else if (strcmp(type, "assert_return") == 0)
        cmd_assert_return(s, cmd, line);
    else if (strcmp(type, "assert_trap") == 0) {
        if (json_get(cmd, "action"))
            cmd_assert_trap(s, cmd, line, type, false);
        else /* a module that traps while instantiating */
            cmd_assert_module(s, cmd, line, "assert_uninstantiable");
    } else if (strcmp(type, "assert_exception") == 0)
        cmd_assert_exception(s, cmd, line);
    else if (strcmp(type, "assert_exhaustion") == 0)
        cmd_assert_trap(s, cmd, line, type, true);
    else if (strcmp(type, "assert_invalid") == 0 ||
             strcmp(type, "assert_malformed") == 0 ||
             strcmp(type, "assert_unlinkable") == 0 ||
             strcmp(type, "assert_uninstantiable") == 0)
        cmd_assert_module(s, cmd, line, type);
    else
        fail(s, line, type, "command kind not supported by the runner");
}

static void summary(script *s, spec_counts *total)
{
    if (s->counts.failed > s->shown)
        printf("%s: %lu more failures not shown (-v shows all)\n", s->base,
               s->counts.failed - s->shown);
    printf("%s: %lu passed, %lu failed, %lu skipped\n", s->base, s->counts.passed,
           s->counts.failed, s->counts.skipped);
    fflush(stdout);
    total->passed += s->counts.passed;
    total->failed += s->counts.failed;
    total->skipped += s->counts.skipped;
}

void spec_run_script(weft_engine *engine, const spec_options *opt,
                     const spec_skiplist *skips, const char *json_path,
                     spec_counts *counts)
{
    script s;
    memset(&s, 0, sizeof s);
    s.opt = opt;
    s.skips = skips;
    s.path = json_path;
    s.engine = engine;
    s.current = NO_MOD;
    const char *slash = strrchr(json_path, '/');
    s.base = slash ? slash + 1 : json_path;
    s.dir = slash ? strndup(json_path, (size_t)(slash - json_path)) : strdup(".");
    if (s.dir && !*s.dir) { /* a file in "/" */
        free(s.dir);
        s.dir = strdup("/");
    }

    char *text = NULL;
    size_t len = 0;
    json_value *root = NULL;
    char eb[512];
    spec_buf e;
    spec_buf_init(&e, eb, sizeof eb);
    if (!s.dir) {
        fail(&s, 0, "script", "runner: out of memory");
        goto out;
    }
    if (opt->verbose)
        printf("%s: running\n", json_path);
    if (!read_file(json_path, &text, &len, &e)) {
        fail(&s, 0, "script", "%s", eb);
        goto out;
    }
    root = json_parse(text, len, eb, sizeof eb);
    if (!root) {
        fail(&s, 0, "script", "cannot parse the JSON: %s", eb);
        goto out;
    }
    const json_value *commands = json_get_array(root, "commands");
    if (!commands) {
        fail(&s, 0, "script", "no \"commands\" array");
        goto out;
    }

    s.store = weft_store_new(engine);
    s.linker = s.store ? weft_linker_new(s.store) : NULL;
    if (!s.linker) {
        fail(&s, 0, "script", "cannot make a store and a linker");
        goto out;
    }
    weft_error err;
    err_reset(&err);
    const char *note = NULL;
    weft_status st = spec_host_define(s.store, s.linker, &note, &err);
    if (st != WEFT_OK) {
        fail(&s, 0, "script", "cannot make the spectest module: %s \"%s\"",
             status_str(st), err_msg(&err));
        goto out;
    }
    if (note && opt->verbose)
        printf("%s: note: %s\n", s.base, note);
    /* A "FILE:*" entry skips every command; say so once, with its reason. */
    for (size_t i = 0; i < skips->count; i++) {
        const spec_skip *k = &skips->items[i];
        if (k->line == 0 && spec_skip_find(skips, json_path, 0) == k) {
            printf("%s: whole script skipped: %s\n", s.base, k->reason);
            break;
        }
    }

    for (size_t i = 0; i < commands->count; i++) {
        const json_value *cmd = commands->items[i];
        if (cmd->kind != JSON_OBJECT) {
            fail(&s, 0, "command", "command %zu is not an object", i);
            continue;
        }
        run_command(&s, cmd, i);
    }

out:
    weft_linker_free(s.linker);
    weft_store_free(s.store);
    for (size_t i = 0; i < s.nmods; i++) {
        weft_module_release(s.mods[i].module);
        free(s.mods[i].name);
    }
    free(s.mods);
    json_free(root);
    free(text);
    summary(&s, counts);
    free(s.dir);
}
