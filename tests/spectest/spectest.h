/*
 * spectest.h — shared declarations of the spec test runner (weft-spectest).
 *
 * The runner reads the JSON scripts that wabt's wast2json writes (see
 * ../shared/spec/README.md) and checks libweft against them through the
 * public API (include/weft.h) only. Files:
 *   json.c    a small JSON parser (objects, arrays, strings, numbers)
 *   values.c  script values: parsing, expected results, comparison, printing
 *   host.c    the `spectest` host module
 *   script.c  running one script: every command kind
 *   main.c    options, file lists, the skip list, the summary
 */
#ifndef SPECTEST_H
#define SPECTEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "weft.h"

/* ---- JSON (json.c) ------------------------------------------------------ */

typedef enum json_kind {
    JSON_NULL,
    JSON_BOOL,
    JSON_NUMBER,
    JSON_STRING,
    JSON_ARRAY,
    JSON_OBJECT,
} json_kind;

typedef struct json_value json_value;
struct json_value {
    json_kind kind;
    bool boolean;         /* JSON_BOOL */
    char *text;           /* JSON_STRING: decoded bytes, NUL-terminated but
                             may hold NUL bytes (use len);
                             JSON_NUMBER: the literal as written */
    size_t len;           /* bytes in text, without the terminator */
    size_t count;         /* JSON_ARRAY / JSON_OBJECT: number of items */
    json_value **items;   /* the elements, or the members' values */
    char **keys;          /* JSON_OBJECT: member names, decoded like text */
    size_t *key_lens;
};

/* Parses `len` bytes of JSON. Returns the tree (free with json_free), or
   NULL with a message in err (line and reason) on bad input or when out of
   memory. Nesting deeper than 256 levels is refused. */
json_value *json_parse(const char *text, size_t len, char *err, size_t errcap);
/* Frees a tree from json_parse. Accepts NULL. */
void json_free(json_value *v);
/* The member `key` of an object, or NULL (also when v is not an object). */
const json_value *json_get(const json_value *obj, const char *key);
/* The member `key` if it is a string (its length in *len if len != NULL),
   else NULL. */
const char *json_get_string(const json_value *obj, const char *key, size_t *len);
/* The member `key` if it is an array, else NULL. */
const json_value *json_get_array(const json_value *obj, const char *key);
/* Reads a non-negative integer member (a JSON number). false if absent. */
bool json_get_uint(const json_value *obj, const char *key, unsigned long *out);

/* ---- Values (values.c) -------------------------------------------------- */

/* A bounded text buffer; appending never overflows, it truncates. */
typedef struct spec_buf {
    char *data;
    size_t cap;
    size_t len;
} spec_buf;

void spec_buf_init(spec_buf *b, char *data, size_t cap);
void spec_buf_printf(spec_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Appends bytes, escaping everything that is not printable ASCII. */
void spec_buf_escaped(spec_buf *b, const char *bytes, size_t len);

typedef enum spec_parse_result {
    SPEC_VALUE_OK = 0,
    SPEC_VALUE_BAD = -1,  /* malformed JSON value: a failure */
} spec_parse_result;

/* What an assert_return accepts in one result position. */
typedef enum spec_expect_kind {
    SPEC_EXPECT_VALUE,          /* exactly `val` (floats: same bits) */
    SPEC_EXPECT_NAN_CANONICAL,  /* a canonical NaN of `type`, either sign */
    SPEC_EXPECT_NAN_ARITHMETIC, /* an arithmetic NaN of `type` */
    SPEC_EXPECT_NONNULL_REF,    /* any non-null reference of `type` */
    SPEC_EXPECT_TYPE,           /* any value of `type` (type-only entry) */
} spec_expect_kind;

typedef struct spec_expect {
    spec_expect_kind kind;
    weft_val val; /* val.type is always set */
    /* v128 (kind SPEC_EXPECT_VALUE): the script's lane shape, and per lane
       0 (exactly val's bits) or a NaN class, SPEC_EXPECT_NAN_*. */
    unsigned lane_bits;
    bool lane_float;
    uint8_t lane_nan[16];
} spec_expect;

/* The script's name of a value type ("i32", "externref", ...). */
const char *spec_type_name(weft_valtype t);

/* The host reference that stands for "ref.extern N": a distinct non-null
   opaque pointer per N. */
void *spec_externref(uint64_t n);

/* Parses an argument value {"type": T, "value": V}. On SPEC_VALUE_BAD the
   reason is in err. */
spec_parse_result spec_parse_value(const json_value *v, weft_val *out,
                                   spec_buf *err);
/* Parses an expected result (a value, a NaN class or a type-only entry). */
spec_parse_result spec_parse_expect(const json_value *v, spec_expect *out,
                                    spec_buf *err);
/* Whether `got` satisfies `e`. */
bool spec_expect_match(const spec_expect *e, const weft_val *got);
/* Appends a value as "i32:4294967295", "f32:0x7fc00000 (nan)", ... */
void spec_format_val(spec_buf *b, const weft_val *v);
void spec_format_expect(spec_buf *b, const spec_expect *e);

/* ---- The spectest host module (host.c) ---------------------------------- */

/* Makes the `spectest` module's functions, globals, table and memories in
   `store` and defines them in `linker` under the module name "spectest".
   Returns WEFT_OK or the first error (err filled). A shared memory that the
   engine refuses is left out without error (only the threads group uses
   it); *note is then set to a sentence saying so, else to NULL. */
weft_status spec_host_define(weft_store *store, weft_linker *linker,
                             const char **note, weft_error *err);

/* ---- Running scripts (script.c, main.c) --------------------------------- */

typedef struct spec_options {
    bool verbose;        /* -v: every failure and every skip in detail */
    bool loose_text;     /* --loose-text: don't compare invalid/malformed/
                            unlinkable messages with the script's text */
    unsigned max_shown;  /* failures shown per file without -v */
} spec_options;

typedef struct spec_skip {
    char *file;          /* matched against the end of the JSON path */
    unsigned long line;
    char *reason;
    bool category_only;  /* run it, but compare only the failure's kind */
} spec_skip;

typedef struct spec_skiplist {
    spec_skip *items;
    size_t count, cap; /* entries of every skip file read, in order */
} spec_skiplist;

typedef struct spec_counts {
    unsigned long passed;
    unsigned long failed;
    unsigned long skipped;
} spec_counts;

/* The skip entry for (json_path, line), or NULL. */
const spec_skip *spec_skip_find(const spec_skiplist *skips,
                                const char *json_path, unsigned long line);

/* Runs the script `json_path` in a fresh store of `engine`, prints its
   failures (and skips when verbose) and adds its counts to *counts.
   A file that cannot be read or parsed counts as one failure. */
void spec_run_script(weft_engine *engine, const spec_options *opt,
                     const spec_skiplist *skips, const char *json_path,
                     spec_counts *counts);

#endif /* SPECTEST_H */
