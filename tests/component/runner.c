/*
 * runner.c — runs the component model's spec scripts as converted by
 * convert.mjs (tests/component/data/<group>/<script>.json and their .wasm
 * files): the decode and validate commands (a component that must load,
 * assert_invalid, assert_malformed) pass or fail; what needs instantiation
 * (assert_return, assert_trap, assert_unlinkable, invoke, component
 * instance, and instantiating a loaded component) is counted as skipped
 * until instantiation lands, and so is each entry of the skip list.
 *
 *   weft-component-test [-v] [-s SKIPFILE] DIR|FILE.json...
 *
 * The skip list (tests/component/skip.txt) holds lines
 * "group/script.json:LINE reason"; '#' starts a comment. An entry that
 * names no command is reported, so the list cannot rot silently. The last
 * line is "N passed, N failed, N skipped".
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../spectest/spectest.h"
#include "invoke.h"
#include "weft.h"

typedef struct skip_entry {
    char *key;    /* group/script.json:LINE */
    char *reason;
    bool used;
} skip_entry;

typedef struct run {
    weft_engine *engine;
    bool verbose;
    unsigned passed, failed, skipped, other_kind, other_trap;
    skip_entry *skips;
    size_t nskips;
} run;

static char *read_all(const char *path, size_t *len) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *b = malloc((size_t)n + 1);
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    if (b) {
        b[n] = 0;
        *len = (size_t)n;
    }
    return b;
}

static void load_skips(run *r, const char *path) {
    size_t len;
    char *text = read_all(path, &len);
    if (!text) {
        fprintf(stderr, "cannot read skip list %s\n", path);
        exit(2);
    }
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (line[0] == '#' || line[0] == 0) continue;
        char *sp = strchr(line, ' ');
        if (!sp) continue;
        *sp = 0;
        r->skips = realloc(r->skips, (r->nskips + 1) * sizeof *r->skips);
        r->skips[r->nskips++] = (skip_entry){strdup(line), strdup(sp + 1), false};
    }
    free(text);
}

static const char *skip_reason(run *r, const char *key) {
    for (size_t i = 0; i < r->nskips; i++)
        if (!strcmp(r->skips[i].key, key)) {
            r->skips[i].used = true;
            return r->skips[i].reason;
        }
    return NULL;
}

static void skip(run *r, const char *where, const char *reason) {
    r->skipped++;
    if (r->verbose) printf("%s: skipped: %s\n", where, reason);
}

static void run_file(run *r, const char *path) {
    size_t len;
    char *text = read_all(path, &len);
    char err[256];
    json_value *doc = text ? json_parse(text, len, err, sizeof err) : NULL;
    if (!doc) {
        printf("%s: cannot read: %s\n", path, text ? err : "no such file");
        r->failed++;
        free(text);
        return;
    }
    /* the key of the skip list: the last two parts of the path */
    const char *slash = strrchr(path, '/');
    const char *key0 = path;
    if (slash) {
        const char *p = slash;
        while (p > path && p[-1] != '/') p--;
        key0 = p;
    }
    char dir[1024];
    snprintf(dir, sizeof dir, "%.*s", slash ? (int)(slash - path) : 1, slash ? path : ".");
    const json_value *cmds = json_get_array(doc, "commands");
    cmr_state st_ = {0};
    for (size_t i = 0; cmds && i < cmds->count; i++) {
        const json_value *c = cmds->items[i];
        const char *type = json_get_string(c, "type", NULL);
        unsigned long line = 0;
        json_get_uint(c, "line", &line);
        char where[1200];
        snprintf(where, sizeof where, "%s:%lu", key0, line);
        const char *why = skip_reason(r, where);
        if (why) {
            skip(r, where, why);
            /* a skipped component or instance is no instance to call */
            if (type && (!strcmp(type, "instance") || (!strcmp(type, "module") && !json_get(c, "definition"))))
                st_.has_current = false;
            continue;
        }
        if (!type) continue;
        if (!strcmp(type, "skip")) {
            skip(r, where, json_get_string(c, "reason", NULL));
            continue;
        }
        bool load = !strcmp(type, "module");
        bool bad = !strcmp(type, "assert_invalid") || !strcmp(type, "assert_malformed");
        if (!strcmp(type, "instance")) {
            weft_component *of = cmr_find_comp(&st_, json_get_string(c, "of", NULL));
            weft_error e;
            weft_status ist = of ? cmr_instantiate(&st_, r->engine, of, json_get_string(c, "name", NULL), &e)
                                 : WEFT_ERR_NOT_FOUND;
            if (ist == WEFT_OK) {
                r->passed++;
            } else {
                r->failed++;
                printf("%s: instantiation failed: %s: %s\n", where, weft_status_name(ist),
                       of ? e.message : "no such component");
            }
            continue;
        }
        bool call = !strcmp(type, "invoke") || !strcmp(type, "assert_return") || !strcmp(type, "assert_trap");
        if (call) {
            const json_value *action = json_get(c, "action");
            if (!action) action = c; /* a bare invoke */
            char msg[1200];
            bool trap = !strcmp(type, "assert_trap");
            cmr_result res = cmr_invoke(&st_, action, json_get_array(c, "expected"), trap,
                                        json_get_string(c, "text", NULL), msg, sizeof msg);
            if (res == CMR_PASS) {
                r->passed++;
            } else if (res == CMR_SKIP) {
                skip(r, where, msg);
            } else if (res == CMR_OTHER_TRAP) {
                r->passed++; /* it trapped; the message is wasmtime's wording, not the spec's */
                r->other_trap++;
                if (r->verbose) printf("%s: %s\n", where, msg);
            } else {
                r->failed++;
                printf("%s: %s\n", where, msg);
            }
            continue;
        }
        if (!load && !bad) {
            skip(r, where, "not run by this runner yet");
            continue;
        }
        const char *file = json_get_string(c, "filename", NULL);
        char wasm[2400];
        snprintf(wasm, sizeof wasm, "%s/%s", dir, file ? file : "?");
        weft_component *comp = NULL;
        weft_error e;
        weft_status st = weft_component_load_file(r->engine, wasm, &comp, &e);
        if (load) {
            if (st == WEFT_OK) {
                r->passed++;
                const char *name = json_get_string(c, "name", NULL);
                cmr_define(&st_, name, comp);
                if (!json_get(c, "definition")) {
                    weft_status ist = cmr_instantiate(&st_, r->engine, comp, name, &e);
                    if (ist == WEFT_OK) {
                        r->passed++;
                    } else {
                        r->failed++;
                        printf("%s: %s should instantiate, got %s: %s\n", where, file, weft_status_name(ist), e.message);
                    }
                }
            } else {
                r->failed++;
                printf("%s: %s should load, got %s: %s\n", where, file, weft_status_name(st), e.message);
            }
            weft_component_release(comp);
            continue;
        }
        weft_component_release(comp);
        const char *expect = json_get_string(c, "text", NULL);
        bool malformed = !strcmp(type, "assert_malformed");
        if (st == WEFT_ERR_MALFORMED || st == WEFT_ERR_INVALID) {
            r->passed++;
            if ((st == WEFT_ERR_MALFORMED) != malformed) r->other_kind++;
            if (r->verbose)
                printf("%s: %s: %s (expected \"%s\")\n", where, weft_status_name(st), e.message, expect ? expect : "");
        } else {
            r->failed++;
            printf("%s: %s should fail %s (\"%s\"), got %s%s%s\n", where, file, malformed ? "to decode" : "to validate",
                   expect ? expect : "", weft_status_name(st), st == WEFT_OK ? "" : ": ", st == WEFT_OK ? "" : e.message);
        }
    }
    cmr_reset(&st_);
    json_free(doc);
    free(text);
}

static int cmp_str(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

static void run_path(run *r, const char *path) {
    size_t n = strlen(path);
    if (n > 5 && !strcmp(path + n - 5, ".json")) {
        run_file(r, path);
        return;
    }
    DIR *d = opendir(path);
    if (!d) {
        printf("%s: cannot open\n", path);
        r->failed++;
        return;
    }
    char **names = NULL;
    size_t count = 0;
    struct dirent *de;
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.') continue;
        names = realloc(names, (count + 1) * sizeof *names);
        size_t k = strlen(path) + strlen(de->d_name) + 2;
        names[count] = malloc(k);
        snprintf(names[count++], k, "%s/%s", path, de->d_name);
    }
    closedir(d);
    qsort(names, count, sizeof *names, cmp_str);
    for (size_t i = 0; i < count; i++) {
        size_t k = strlen(names[i]);
        if (k > 5 && !strcmp(names[i] + k - 5, ".json")) run_file(r, names[i]);
        else if (k > 5 && strcmp(names[i] + k - 5, ".wasm")) run_path(r, names[i]);
        free(names[i]);
    }
    free(names);
}

int main(int argc, char **argv) {
    run r = {0};
    int i = 1;
    for (; i < argc && argv[i][0] == '-'; i++) {
        if (!strcmp(argv[i], "-v")) r.verbose = true;
        else if (!strcmp(argv[i], "-s") && i + 1 < argc) load_skips(&r, argv[++i]);
        else {
            fprintf(stderr, "usage: %s [-v] [-s SKIPFILE] DIR|FILE.json...\n", argv[0]);
            return 2;
        }
    }
    r.engine = weft_engine_new(NULL);
    if (!r.engine) return 2;
    for (; i < argc; i++) run_path(&r, argv[i]);
    for (size_t k = 0; k < r.nskips; k++) {
        if (!r.skips[k].used) {
            printf("skip list entry %s names no command (remove it)\n", r.skips[k].key);
            r.failed++;
        }
        free(r.skips[k].key);
        free(r.skips[k].reason);
    }
    free(r.skips);
    weft_engine_free(r.engine);
    if (r.other_kind)
        printf("(%u refused with the other error kind than the script's: malformed for invalid or back)\n", r.other_kind);
    if (r.other_trap)
        printf("(%u trapped with another message than the script's)\n", r.other_trap);
    printf("%u passed, %u failed, %u skipped\n", r.passed, r.failed, r.skipped);
    return r.failed ? 1 : 0;
}
