/*
 * json.c — a small JSON parser for wast2json scripts.
 *
 * Recursive descent over a byte buffer, building a tree of json_value.
 * Strings are decoded to bytes with explicit lengths: wast2json writes names
 * with \u escapes for control bytes (including NUL), and a \u escape is a
 * code point that becomes its UTF-8 bytes (surrogate pairs joined; a lone
 * surrogate is kept as its 3-byte form rather than refused). Numbers keep
 * their literal text. Bad input gives an error with a line number, never a
 * crash; nesting is bounded so the recursion stays shallow.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spectest.h"

#define JSON_MAX_DEPTH 256

typedef struct json_parser {
    const char *start;
    const char *p;
    const char *end;
    int depth;
    char *err;
    size_t errcap;
    bool failed;
} json_parser;

static void json_error(json_parser *ps, const char *what)
{
    if (ps->failed)
        return;
    ps->failed = true;
    unsigned long line = 1;
    for (const char *q = ps->start; q < ps->p && q < ps->end; q++)
        if (*q == '\n')
            line++;
    if (ps->err && ps->errcap)
        snprintf(ps->err, ps->errcap, "line %lu: %s", line, what);
}

static void json_skip_ws(json_parser *ps)
{
    while (ps->p < ps->end &&
           (*ps->p == ' ' || *ps->p == '\t' || *ps->p == '\n' || *ps->p == '\r'))
        ps->p++;
}

static json_value *json_node(json_parser *ps, json_kind kind)
{
    json_value *v = calloc(1, sizeof *v);
    if (!v)
        json_error(ps, "out of memory");
    else
        v->kind = kind;
    return v;
}

void json_free(json_value *v)
{
    if (!v)
        return;
    for (size_t i = 0; i < v->count; i++) {
        json_free(v->items[i]);
        if (v->keys)
            free(v->keys[i]);
    }
    free(v->items);
    free(v->keys);
    free(v->key_lens);
    free(v->text);
    free(v);
}

static int json_hex4(const char *s)
{
    int n = 0;
    for (int i = 0; i < 4; i++) {
        char c = s[i];
        n <<= 4;
        if (c >= '0' && c <= '9')
            n |= c - '0';
        else if (c >= 'a' && c <= 'f')
            n |= c - 'a' + 10;
        else if (c >= 'A' && c <= 'F')
            n |= c - 'A' + 10;
        else
            return -1;
    }
    return n;
}

static size_t json_put_utf8(char *out, unsigned long cp)
{
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xC0 | (cp >> 6));
        out[1] = (char)(0x80 | (cp & 0x3F));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xE0 | (cp >> 12));
        out[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
        out[2] = (char)(0x80 | (cp & 0x3F));
        return 3;
    }
    out[0] = (char)(0xF0 | (cp >> 18));
    out[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[3] = (char)(0x80 | (cp & 0x3F));
    return 4;
}

/* Parses a string at ps->p (which is at the opening quote). The decoded
   form is never longer than the source, so one allocation of the source
   span suffices. */
static bool json_string(json_parser *ps, char **out, size_t *out_len)
{
    const char *q = ps->p + 1;
    while (q < ps->end && *q != '"')
        q += (*q == '\\' && ps->end - q >= 2) ? 2 : 1;
    if (q >= ps->end) {
        json_error(ps, "unterminated string");
        return false;
    }
    size_t span = (size_t)(q - (ps->p + 1));
    char *buf = malloc(span + 1);
    if (!buf) {
        json_error(ps, "out of memory");
        return false;
    }
    size_t n = 0;
    ps->p++;
    while (*ps->p != '"') {
        unsigned char c = (unsigned char)*ps->p;
        if (c < 0x20) {
            json_error(ps, "control character in string");
            goto fail;
        }
        if (c != '\\') {
            buf[n++] = (char)c;
            ps->p++;
            continue;
        }
        ps->p++; /* the escape letter; the pre-scan guarantees it exists */
        char e = *ps->p++;
        switch (e) {
        case '"': buf[n++] = '"'; break;
        case '\\': buf[n++] = '\\'; break;
        case '/': buf[n++] = '/'; break;
        case 'b': buf[n++] = '\b'; break;
        case 'f': buf[n++] = '\f'; break;
        case 'n': buf[n++] = '\n'; break;
        case 'r': buf[n++] = '\r'; break;
        case 't': buf[n++] = '\t'; break;
        case 'u': {
            int cp = q - ps->p >= 4 ? json_hex4(ps->p) : -1;
            if (cp < 0) {
                json_error(ps, "bad \\u escape");
                goto fail;
            }
            ps->p += 4;
            unsigned long code = (unsigned long)cp;
            if (cp >= 0xD800 && cp <= 0xDBFF && q - ps->p >= 6 &&
                ps->p[0] == '\\' && ps->p[1] == 'u') {
                int lo = json_hex4(ps->p + 2);
                if (lo >= 0xDC00 && lo <= 0xDFFF) {
                    code = 0x10000 + (((unsigned long)cp - 0xD800) << 10) +
                           ((unsigned long)lo - 0xDC00);
                    ps->p += 6;
                }
            }
            n += json_put_utf8(buf + n, code);
            break;
        }
        default:
            json_error(ps, "bad escape in string");
            goto fail;
        }
    }
    ps->p++; /* closing quote */
    buf[n] = '\0';
    *out = buf;
    *out_len = n;
    return true;
fail:
    free(buf);
    return false;
}

static json_value *json_parse_value(json_parser *ps);

static bool json_push(json_parser *ps, json_value *v, json_value *item,
                      char *key, size_t key_len, size_t *cap)
{
    if (v->count == *cap) {
        size_t ncap = *cap ? *cap * 2 : 8;
        json_value **items = realloc(v->items, ncap * sizeof *items);
        if (!items)
            goto oom;
        v->items = items;
        if (v->kind == JSON_OBJECT) {
            char **keys = realloc(v->keys, ncap * sizeof *keys);
            if (!keys)
                goto oom;
            v->keys = keys;
            size_t *lens = realloc(v->key_lens, ncap * sizeof *lens);
            if (!lens)
                goto oom;
            v->key_lens = lens;
        }
        *cap = ncap;
    }
    v->items[v->count] = item;
    if (v->kind == JSON_OBJECT) {
        v->keys[v->count] = key;
        v->key_lens[v->count] = key_len;
    }
    v->count++;
    return true;
oom:
    json_error(ps, "out of memory");
    return false;
}

static json_value *json_parse_container(json_parser *ps, json_kind kind)
{
    char close = kind == JSON_OBJECT ? '}' : ']';
    json_value *v = json_node(ps, kind);
    if (!v)
        return NULL;
    size_t cap = 0;
    ps->p++; /* '{' or '[' */
    json_skip_ws(ps);
    if (ps->p < ps->end && *ps->p == close) {
        ps->p++;
        return v;
    }
    for (;;) {
        char *key = NULL;
        size_t key_len = 0;
        json_skip_ws(ps);
        if (kind == JSON_OBJECT) {
            if (ps->p >= ps->end || *ps->p != '"') {
                json_error(ps, "expected a member name");
                goto fail;
            }
            if (!json_string(ps, &key, &key_len))
                goto fail;
            json_skip_ws(ps);
            if (ps->p >= ps->end || *ps->p != ':') {
                free(key);
                json_error(ps, "expected ':'");
                goto fail;
            }
            ps->p++;
        }
        json_value *item = json_parse_value(ps);
        if (!item) {
            free(key);
            goto fail;
        }
        if (!json_push(ps, v, item, key, key_len, &cap)) {
            json_free(item);
            free(key);
            goto fail;
        }
        json_skip_ws(ps);
        if (ps->p < ps->end && *ps->p == ',') {
            ps->p++;
            continue;
        }
        if (ps->p < ps->end && *ps->p == close) {
            ps->p++;
            return v;
        }
        json_error(ps, kind == JSON_OBJECT ? "expected ',' or '}'"
                                           : "expected ',' or ']'");
        goto fail;
    }
fail:
    json_free(v);
    return NULL;
}

static json_value *json_parse_number(json_parser *ps)
{
    const char *s = ps->p;
    if (ps->p < ps->end && *ps->p == '-')
        ps->p++;
    size_t digits = 0;
    while (ps->p < ps->end &&
           ((*ps->p >= '0' && *ps->p <= '9') || *ps->p == '.' || *ps->p == 'e' ||
            *ps->p == 'E' || *ps->p == '+' || *ps->p == '-')) {
        if (*ps->p >= '0' && *ps->p <= '9')
            digits++;
        ps->p++;
    }
    if (!digits) {
        json_error(ps, "bad number");
        return NULL;
    }
    json_value *v = json_node(ps, JSON_NUMBER);
    if (!v)
        return NULL;
    v->len = (size_t)(ps->p - s);
    v->text = malloc(v->len + 1);
    if (!v->text) {
        json_error(ps, "out of memory");
        json_free(v);
        return NULL;
    }
    memcpy(v->text, s, v->len);
    v->text[v->len] = '\0';
    return v;
}

static json_value *json_parse_literal(json_parser *ps, const char *word,
                                      json_kind kind, bool b)
{
    size_t n = strlen(word);
    if ((size_t)(ps->end - ps->p) < n || memcmp(ps->p, word, n) != 0) {
        json_error(ps, "unexpected character");
        return NULL;
    }
    ps->p += n;
    json_value *v = json_node(ps, kind);
    if (v)
        v->boolean = b;
    return v;
}

static json_value *json_parse_value(json_parser *ps)
{
    json_skip_ws(ps);
    if (ps->p >= ps->end) {
        json_error(ps, "unexpected end of input");
        return NULL;
    }
    if (++ps->depth > JSON_MAX_DEPTH) {
        json_error(ps, "nesting too deep");
        return NULL;
    }
    json_value *v = NULL;
    switch (*ps->p) {
    case '{': v = json_parse_container(ps, JSON_OBJECT); break;
    case '[': v = json_parse_container(ps, JSON_ARRAY); break;
    case '"': {
        v = json_node(ps, JSON_STRING);
        if (v && !json_string(ps, &v->text, &v->len)) {
            json_free(v);
            v = NULL;
        }
        break;
    }
    case 't': v = json_parse_literal(ps, "true", JSON_BOOL, true); break;
    case 'f': v = json_parse_literal(ps, "false", JSON_BOOL, false); break;
    case 'n': v = json_parse_literal(ps, "null", JSON_NULL, false); break;
    default:
        if (*ps->p == '-' || (*ps->p >= '0' && *ps->p <= '9'))
            v = json_parse_number(ps);
        else
            json_error(ps, "unexpected character");
        break;
    }
    ps->depth--;
    return v;
}

json_value *json_parse(const char *text, size_t len, char *err, size_t errcap)
{
    json_parser ps = {text, text, text + len, 0, err, errcap, false};
    if (err && errcap)
        err[0] = '\0';
    json_value *v = json_parse_value(&ps);
    if (!v)
        return NULL;
    json_skip_ws(&ps);
    if (ps.p != ps.end) {
        json_error(&ps, "content after the top-level value");
        json_free(v);
        return NULL;
    }
    return v;
}

const json_value *json_get(const json_value *obj, const char *key)
{
    if (!obj || obj->kind != JSON_OBJECT)
        return NULL;
    size_t n = strlen(key);
    for (size_t i = 0; i < obj->count; i++)
        if (obj->key_lens[i] == n && memcmp(obj->keys[i], key, n) == 0)
            return obj->items[i];
    return NULL;
}

const char *json_get_string(const json_value *obj, const char *key, size_t *len)
{
    const json_value *v = json_get(obj, key);
    if (!v || v->kind != JSON_STRING)
        return NULL;
    if (len)
        *len = v->len;
    return v->text;
}

const json_value *json_get_array(const json_value *obj, const char *key)
{
    const json_value *v = json_get(obj, key);
    return v && v->kind == JSON_ARRAY ? v : NULL;
}

bool json_get_uint(const json_value *obj, const char *key, unsigned long *out)
{
    const json_value *v = json_get(obj, key);
    if (!v || v->kind != JSON_NUMBER || v->text[0] == '-')
        return false;
    char *endp;
    errno = 0;
    unsigned long n = strtoul(v->text, &endp, 10);
    if (errno || *endp != '\0')
        return false;
    *out = n;
    return true;
}
