/*
 * main.c — weft-spectest: runs wast2json spec scripts against libweft.
 *
 *   weft-spectest [-v] [--loose-text] [--skip FILE]... [DIR_OR_JSON...]
 *
 * With no paths it runs $WEFT_SPEC_DIR, else ../shared/spec/core. A
 * directory means every *.json in it, in name order. The features of the
 * engine a script runs on follow its group (the directory's name): threads
 * is Wasm 2.0 plus threads; wasm-3.0 and proposals-* have every Wasm 3.0
 * feature weft implements on and threads off; any other (core, simd) is
 * Wasm 2.0. Prints one line per
 * script and ends with "N passed, N failed, N skipped"; exits 1 if anything
 * failed (a script that cannot be read or parsed counts as a failure), 2 on
 * a usage error.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "spectest.h"

#define DEFAULT_SPEC_DIR "../shared/spec/core"
/* The skip lists read when no --skip is given (each only if present):
   the 2.0 and threads groups' entries; the Wasm 3.0 groups' permanent ones
   (GC, outdated proposal snapshots); the Wasm 3.0 scripts that wait for a
   feature weft does not implement yet (issue 24), which
   tests/spectest/wasm3-status.sh leaves out to report the real state. */
static const char *const default_skip_files[] = {
    "tests/spectest/skip.txt",
    "tests/spectest/skip-wasm3.txt",
    "tests/spectest/pending-wasm3.txt",
};
#define DEFAULT_MAX_SHOWN 5

typedef struct path_list {
    char **items;
    size_t count, cap;
} path_list;

static bool path_push(path_list *l, char *p)
{
    if (!p)
        return false;
    if (l->count == l->cap) {
        size_t ncap = l->cap ? l->cap * 2 : 64;
        char **n = realloc(l->items, ncap * sizeof *n);
        if (!n) {
            free(p);
            return false;
        }
        l->items = n;
        l->cap = ncap;
    }
    l->items[l->count++] = p;
    return true;
}

static void path_list_free(path_list *l)
{
    for (size_t i = 0; i < l->count; i++)
        free(l->items[i]);
    free(l->items);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds the scripts that `arg` names: itself if a file, its *.json (sorted)
   if a directory. false with a message printed if it cannot be read. */
static bool collect(const char *arg, path_list *out)
{
    struct stat st;
    if (stat(arg, &st) != 0) {
        printf("%s: cannot open: %s\n", arg, strerror(errno));
        return false;
    }
    if (!S_ISDIR(st.st_mode)) {
        if (!path_push(out, strdup(arg))) {
            printf("%s: out of memory\n", arg);
            return false;
        }
        return true;
    }
    DIR *d = opendir(arg);
    if (!d) {
        printf("%s: cannot read the directory: %s\n", arg, strerror(errno));
        return false;
    }
    path_list found = {0};
    bool ok = true;
    struct dirent *e;
    size_t alen = strlen(arg);
    bool slash = alen && arg[alen - 1] == '/';
    while ((e = readdir(d))) {
        size_t n = strlen(e->d_name);
        if (n <= 5 || strcmp(e->d_name + n - 5, ".json") != 0)
            continue;
        char *p = malloc(alen + n + 2);
        if (p)
            snprintf(p, alen + n + 2, "%s%s%s", arg, slash ? "" : "/", e->d_name);
        if (!path_push(&found, p)) {
            printf("%s: out of memory\n", arg);
            ok = false;
            break;
        }
    }
    closedir(d);
    if (ok && found.count == 0) {
        printf("%s: no .json scripts in this directory\n", arg);
        ok = false;
    }
    if (found.count)
        qsort(found.items, found.count, sizeof *found.items, cmp_str);
    for (size_t i = 0; i < found.count; i++) {
        if (ok && !path_push(out, found.items[i])) {
            printf("%s: out of memory\n", arg);
            ok = false;
        } else if (!ok) {
            free(found.items[i]);
        }
    }
    free(found.items);
    return ok;
}

/* True when the script's directory is named `group`. */
static bool in_group(const char *json_path, const char *group)
{
    const char *slash = strrchr(json_path, '/');
    if (!slash)
        return false;
    size_t glen = strlen(group);
    const char *dir = slash;
    while (dir > json_path && dir[-1] != '/')
        dir--;
    return (size_t)(slash - dir) == glen && strncmp(dir, group, glen) == 0;
}

/* True when the script's directory name starts with `prefix`. */
static bool in_group_prefix(const char *json_path, const char *prefix)
{
    const char *slash = strrchr(json_path, '/');
    if (!slash)
        return false;
    const char *dir = slash;
    while (dir > json_path && dir[-1] != '/')
        dir--;
    size_t plen = strlen(prefix);
    return (size_t)(slash - dir) > plen && strncmp(dir, prefix, plen) == 0;
}

/* ---- The skip list ------------------------------------------------------ */

const spec_skip *spec_skip_find(const spec_skiplist *skips, const char *json_path,
                                unsigned long line)
{
    size_t plen = strlen(json_path);
    for (size_t i = 0; i < skips->count; i++) {
        const spec_skip *k = &skips->items[i];
        if (k->line != line && k->line != 0) /* 0: the whole script */
            continue;
        size_t flen = strlen(k->file);
        if (flen > plen || strcmp(json_path + plen - flen, k->file) != 0)
            continue;
        if (flen == plen || json_path[plen - flen - 1] == '/')
            return k;
    }
    return NULL;
}

static void skiplist_free(spec_skiplist *l)
{
    for (size_t i = 0; i < l->count; i++) {
        free(l->items[i].file);
        free(l->items[i].reason);
    }
    free(l->items);
}

/* Reads "FILE:LINE reason..." lines; '#' starts a comment line. FILE is
   matched against the end of the script's path at a '/' boundary, so
   "imports.json:310" matches every group's imports.json and
   "threads/imports.json:310" only the threads one. "FILE:*" skips every
   command of the script (stored as line 0). */
static bool skiplist_load(const char *path, bool must_exist, spec_skiplist *out)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        if (!must_exist && errno == ENOENT)
            return true;
        fprintf(stderr, "weft-spectest: cannot open the skip list %s: %s\n", path,
                strerror(errno));
        return false;
    }
    char line[4096];
    unsigned long lineno = 0;
    bool ok = true;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *p = line;
        p[strcspn(p, "\r\n")] = '\0';
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p || *p == '#')
            continue;
        bool category_only = false;
        if (strncmp(p, "category-only", 13) == 0 && (p[13] == ' ' || p[13] == '\t')) {
            category_only = true;
            p += 13;
            while (*p == ' ' || *p == '\t')
                p++;
        }
        size_t tok = strcspn(p, " \t");
        char *reason = p + tok;
        while (*reason == ' ' || *reason == '\t')
            reason++;
        p[tok] = '\0';
        char *colon = strrchr(p, ':');
        char *endp = NULL;
        unsigned long ln = 0;
        bool whole = colon && colon != p && strcmp(colon + 1, "*") == 0;
        if (colon && colon != p && colon[1] && !whole) {
            errno = 0;
            ln = strtoul(colon + 1, &endp, 10);
        }
        if (!whole && (!colon || colon == p || !endp || *endp || errno || ln == 0)) {
            fprintf(stderr, "%s:%lu: expected \"FILE:LINE reason\" or \"FILE:* reason\"\n",
                    path, lineno);
            ok = false;
            break;
        }
        if (!*reason) {
            fprintf(stderr, "%s:%lu: the entry gives no reason\n", path, lineno);
            ok = false;
            break;
        }
        if (whole && category_only) {
            fprintf(stderr, "%s:%lu: category-only needs a line, not *\n", path, lineno);
            ok = false;
            break;
        }
        *colon = '\0';
        if (out->count == out->cap) {
            size_t ncap = out->cap ? out->cap * 2 : 16;
            spec_skip *n = realloc(out->items, ncap * sizeof *n);
            if (!n) {
                ok = false;
                break;
            }
            out->items = n;
            out->cap = ncap;
        }
        spec_skip *k = &out->items[out->count];
        k->file = strdup(p);
        k->line = ln;
        k->category_only = category_only;
        k->reason = strdup(reason);
        if (!k->file || !k->reason) {
            free(k->file);
            free(k->reason);
            fprintf(stderr, "weft-spectest: out of memory\n");
            ok = false;
            break;
        }
        out->count++;
    }
    fclose(f);
    return ok;
}

static void usage(FILE *f)
{
    fprintf(f,
            "usage: weft-spectest [-v] [--loose-text] [--skip FILE]... [DIR_OR_JSON...]\n"
            "  Runs wast2json spec scripts (default: $WEFT_SPEC_DIR, else %s).\n"
            "  -v            print every failure, and every skip with its reason\n"
            "  --loose-text  don't require the script's text in the messages of\n"
            "                invalid, malformed and unlinkable modules\n"
            "  --skip FILE   a skip list, lines \"FILE:LINE reason\" or \"FILE:* reason\"\n"
            "                (may repeat; default: those of tests/spectest that exist:\n"
            "                skip.txt, skip-wasm3.txt, pending-wasm3.txt)\n",
            DEFAULT_SPEC_DIR);
}

int main(int argc, char **argv)
{
    spec_options opt = {false, false, DEFAULT_MAX_SHOWN};
    const char **skip_paths = calloc((size_t)argc + 1, sizeof *skip_paths);
    size_t nskip_paths = 0;
    path_list args = {0};
    bool opts_done = false;
    int rc = 2;

    /* The positional arguments are borrowed from argv; collect() copies. */
    const char **paths = calloc((size_t)argc + 1, sizeof *paths);
    size_t npaths = 0;
    if (!paths || !skip_paths) {
        free(paths);
        free(skip_paths);
        return 2;
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (opts_done || a[0] != '-' || !a[1]) {
            paths[npaths++] = a;
        } else if (strcmp(a, "--") == 0) {
            opts_done = true;
        } else if (strcmp(a, "-v") == 0 || strcmp(a, "--verbose") == 0) {
            opt.verbose = true;
        } else if (strcmp(a, "--loose-text") == 0) {
            opt.loose_text = true;
        } else if (strcmp(a, "--skip") == 0 && i + 1 < argc) {
            skip_paths[nskip_paths++] = argv[++i];
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            free(paths);
            free(skip_paths);
            return 0;
        } else {
            fprintf(stderr, "weft-spectest: unknown option %s\n", a);
            usage(stderr);
            free(paths);
            free(skip_paths);
            return 2;
        }
    }
    if (npaths == 0) {
        const char *env = getenv("WEFT_SPEC_DIR");
        paths[npaths++] = env && *env ? env : DEFAULT_SPEC_DIR;
    }

    spec_skiplist skips = {0};
    weft_engine *engine = NULL, *threads_engine = NULL, *wasm3_engine = NULL;
    spec_counts total = {0, 0, 0};
    if (nskip_paths) {
        for (size_t i = 0; i < nskip_paths; i++)
            if (!skiplist_load(skip_paths[i], true, &skips))
                goto out;
    } else {
        for (size_t i = 0; i < sizeof default_skip_files / sizeof *default_skip_files; i++)
            if (!skiplist_load(default_skip_files[i], false, &skips))
                goto out;
    }

    for (size_t i = 0; i < npaths; i++)
        if (!collect(paths[i], &args))
            total.failed++;

    /* Each group is run with the features its scripts were written for:
       core, simd and any other as Wasm 2.0 (their binaries hold cases that later
       features make legal: a second memory, global.get of a module's own
       global), "threads" as 2.0 plus threads, and the Wasm 3.0 groups
       (wasm-3.0, proposals-*) with every 3.0 feature and without threads,
       which 3.0 does not include. */
    weft_config plain = {0}, threads = {0}, wasm3 = {0};
    plain.disabled_features = WEFT_FEATURE_THREADS | WEFT_FEATURES_WASM3;
    threads.disabled_features = WEFT_FEATURES_WASM3;
    wasm3.disabled_features = WEFT_FEATURE_THREADS;
    /* wast2json 1.0.41 --enable-all wrote the wasm-3.0 group's modules
       with the compact import encoding, a proposal beyond Wasm 3.0: the
       runner reads it there; weft's default config does not (README.md). */
    wasm3.enabled_features = WEFT_FEATURE_COMPACT_IMPORTS;
    /* WEFT_TIER=jit runs every script on the compiler tier (docs/jit.md);
       WEFT_JIT_STATS=1 then says how many functions it compiled. Read
       here, by the runner: the library reads no environment. */
    const char *tier = getenv("WEFT_TIER");
    if (tier && strcmp(tier, "jit") == 0) plain.tier = threads.tier = wasm3.tier = WEFT_TIER_JIT;
    else if (tier && strcmp(tier, "auto") == 0) plain.tier = threads.tier = wasm3.tier = WEFT_TIER_AUTO;
    else if (tier && *tier && strcmp(tier, "interp") != 0) {
        fprintf(stderr, "weft-spectest: WEFT_TIER must be interp, jit or auto, not %s\n", tier);
        goto out;
    }
    engine = weft_engine_new(&plain);
    threads_engine = weft_engine_new(&threads);
    wasm3_engine = weft_engine_new(&wasm3);
    if (!engine || !threads_engine || !wasm3_engine) {
        fprintf(stderr, "weft-spectest: cannot make an engine\n");
        goto out;
    }
    for (size_t i = 0; i < args.count; i++) {
        const char *p = args.items[i];
        weft_engine *e = engine;
        if (in_group(p, "threads"))
            e = threads_engine;
        else if (in_group(p, "wasm-3.0") || in_group_prefix(p, "proposals-"))
            e = wasm3_engine;
        spec_run_script(e, &opt, &skips, p, &total);
    }

    printf("%lu passed, %lu failed, %lu skipped\n", total.passed, total.failed,
           total.skipped);
    const char *stats = getenv("WEFT_JIT_STATS");
    if (stats && *stats && strcmp(stats, "0") != 0) {
        uint64_t compiled, fell_back;
        weft_jit_stats(&compiled, &fell_back);
        printf("jit: %llu functions compiled, %llu left to the interpreter\n",
               (unsigned long long)compiled, (unsigned long long)fell_back);
        /* A run on the compiler tier that compiled nothing tested nothing. */
        if (plain.tier == WEFT_TIER_JIT && weft_jit_built() && compiled == 0) {
            printf("jit: no function was compiled\n");
            total.failed++;
        }
    }
    rc = total.failed ? 1 : 0;
out:
    weft_engine_free(engine);
    weft_engine_free(threads_engine);
    weft_engine_free(wasm3_engine);
    skiplist_free(&skips);
    path_list_free(&args);
    free(paths);
    free(skip_paths);
    return rc;
}
