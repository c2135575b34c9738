/*
 * wave.c — WAVE, the WebAssembly Value Encoding (wasm-tools'
 * crates/wasm-wave README, "Encoding"; its lexer and parser are the
 * reference for what the README leaves open), parsed straight against
 * the value's type, and printed as wasm-wave's writer prints.
 *
 * Tokens (README "Whitespace", "Comments", "Keywords", "Labels"):
 * punctuation { } ( ) [ ] : , ; numbers -?(0|[1-9][0-9]*)(.[0-9]+)?
 * ([eE][-+]?[0-9]+)? and -inf; labels %?word(-word)* where a word is one
 * letter then letters and digits of one case (a later word may start
 * with a digit); chars '…' and strings "…" with the escapes \' \" \\ \t
 * \n \r \u{1-6 hex digits}; multiline strings """…""". Whitespace is
 * space, tab, CR, LF; // comments run to the end of the line. The
 * keywords true false some none ok err inf nan are labels without `%`.
 *
 * The text must be UTF-8 (checked first, so a bad byte is reported where
 * it is). A value's type decides what it may be: an option takes some(x),
 * none, or x itself when x's type is neither an option nor a result
 * (README "Options"); a result ok/err with or without a payload, or the
 * ok payload itself under the same rule; a record omits option fields
 * that are none and is {:} when empty; flags are {a, b}.
 */
#include "wave.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/base.h"

/* ---- UTF-8 ----------------------------------------------------------- */

/* Decodes one scalar value at s[0..n); returns its length (0: invalid). */
static size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp) {
    if (n == 0) return 0;
    unsigned char c = s[0];
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    size_t len;
    uint32_t v, min;
    if ((c & 0xe0) == 0xc0) len = 2, v = c & 0x1f, min = 0x80;
    else if ((c & 0xf0) == 0xe0) len = 3, v = c & 0x0f, min = 0x800;
    else if ((c & 0xf8) == 0xf0) len = 4, v = c & 0x07, min = 0x10000;
    else return 0;
    if (n < len) return 0;
    for (size_t i = 1; i < len; i++) {
        if ((s[i] & 0xc0) != 0x80) return 0;
        v = v << 6 | (s[i] & 0x3f);
    }
    if (v < min || v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) return 0;
    *cp = v;
    return len;
}

static size_t utf8_encode(uint32_t cp, char *out) {
    if (cp < 0x80) {
        out[0] = (char)cp;
        return 1;
    }
    if (cp < 0x800) {
        out[0] = (char)(0xc0 | cp >> 6);
        out[1] = (char)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        out[0] = (char)(0xe0 | cp >> 12);
        out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
        out[2] = (char)(0x80 | (cp & 0x3f));
        return 3;
    }
    out[0] = (char)(0xf0 | cp >> 18);
    out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
    out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
    out[3] = (char)(0x80 | (cp & 0x3f));
    return 4;
}

static bool valid_scalar(uint32_t cp) { return cp <= 0x10ffff && (cp < 0xd800 || cp > 0xdfff); }

/* ---- the lexer ------------------------------------------------------- */

typedef enum tok_kind {
    T_EOF, T_LBRACE, T_RBRACE, T_LPAREN, T_RPAREN, T_LBRACKET, T_RBRACKET, T_COLON, T_COMMA,
    T_NUMBER, T_LABEL, T_CHAR, T_STRING, T_MSTRING, T_BAD
} tok_kind;

typedef struct tok {
    tok_kind k;
    size_t at, len; /* bytes of the text */
    const char *why; /* T_BAD: what is wrong */
} tok;

typedef struct wave_p {
    const char *s;
    size_t n, pos;
    cm_arena *a;
    weft_error *err;
    uint32_t depth;
} wave_p;

static bool fail_at(wave_p *p, size_t at, weft_status st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static bool fail_at(wave_p *p, size_t at, weft_status st, const char *fmt, ...) {
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    base_fail_at(p->err, st, UINT32_MAX, (uint32_t)(at > UINT32_MAX ? UINT32_MAX : at),
                 "WAVE at byte %zu: %s", at, msg);
    return false;
}

static bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
static bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }
static bool is_digit(char c) { return c >= '0' && c <= '9'; }

/* One word of a label from s[i]: letters of one case and digits; `first`
   words start with a letter. Returns its end (i when none). */
static size_t lex_word(const char *s, size_t n, size_t i, bool first) {
    if (i >= n) return i;
    if (first && !is_lower(s[i]) && !is_upper(s[i])) return i;
    int c = 0; /* 0 undecided, 1 lower, 2 upper */
    size_t j = i;
    while (j < n) {
        char ch = s[j];
        if (is_digit(ch)) j++;
        else if (is_lower(ch) && c != 2) c = 1, j++;
        else if (is_upper(ch) && c != 1) c = 2, j++;
        else break;
    }
    return j;
}

/* An escape at s[i] ('\\'): the character and the escape's length (0:
   invalid). README "Chars". */
static size_t lex_escape(const char *s, size_t n, size_t i, uint32_t *cp) {
    if (i + 1 >= n) return 0;
    switch (s[i + 1]) {
    case '\'': *cp = '\''; return 2;
    case '"': *cp = '"'; return 2;
    case '\\': *cp = '\\'; return 2;
    case 't': *cp = '\t'; return 2;
    case 'n': *cp = '\n'; return 2;
    case 'r': *cp = '\r'; return 2;
    case 'u': break;
    default: return 0;
    }
    if (i + 2 >= n || s[i + 2] != '{') return 0;
    uint32_t v = 0;
    size_t j = i + 3, digits = 0;
    while (j < n && s[j] != '}') {
        char c = s[j];
        uint32_t d = is_digit(c) ? (uint32_t)(c - '0')
                     : (c >= 'a' && c <= 'f') ? (uint32_t)(c - 'a' + 10)
                     : (c >= 'A' && c <= 'F') ? (uint32_t)(c - 'A' + 10)
                                              : 16;
        if (d == 16 || ++digits > 6) return 0;
        v = v << 4 | d;
        j++;
    }
    if (j >= n || digits == 0 || !valid_scalar(v)) return 0;
    *cp = v;
    return j + 1 - i;
}

static tok lex(const wave_p *p, size_t i) {
    const char *s = p->s;
    size_t n = p->n;
    for (;;) {
        while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')) i++;
        if (i + 1 < n && s[i] == '/' && s[i + 1] == '/') {
            while (i < n && s[i] != '\n') i++;
            continue;
        }
        break;
    }
    tok t = {T_EOF, i, 0, NULL};
    if (i >= n) return t;
    char c = s[i];
    static const char punct[] = "{}()[]:,";
    const char *pc = memchr(punct, c, sizeof punct - 1);
    if (pc) {
        t.k = (tok_kind)(T_LBRACE + (pc - punct));
        t.len = 1;
        return t;
    }
    if (c == '-' || is_digit(c)) {
        size_t j = i;
        if (c == '-') {
            j++;
            if (j + 3 <= n && memcmp(s + j, "inf", 3) == 0 && lex_word(s, n, j, true) == j + 3) {
                t.k = T_NUMBER;
                t.len = 4;
                return t;
            }
        }
        if (j >= n || !is_digit(s[j])) {
            t.k = T_BAD, t.len = j - i + (j < n), t.why = "`-` must begin a number";
            return t;
        }
        if (s[j] == '0') j++;
        else
            while (j < n && is_digit(s[j])) j++;
        if (j + 1 < n && s[j] == '.' && is_digit(s[j + 1])) {
            j++;
            while (j < n && is_digit(s[j])) j++;
        }
        if (j < n && (s[j] == 'e' || s[j] == 'E')) {
            size_t k = j + 1;
            if (k < n && (s[k] == '+' || s[k] == '-')) k++;
            if (k < n && is_digit(s[k])) {
                while (k < n && is_digit(s[k])) k++;
                j = k;
            }
        }
        t.k = T_NUMBER;
        t.len = j - i;
        return t;
    }
    if (c == '%' || is_lower(c) || is_upper(c)) {
        size_t j = i + (c == '%');
        size_t e = lex_word(s, n, j, true);
        if (e == j) {
            t.k = T_BAD, t.len = 1, t.why = "`%` must begin a label";
            return t;
        }
        while (e + 1 < n && s[e] == '-') {
            size_t e2 = lex_word(s, n, e + 1, false);
            if (e2 == e + 1) break;
            e = e2;
        }
        t.k = T_LABEL;
        t.len = e - i;
        return t;
    }
    if (c == '\'') {
        size_t j = i + 1;
        uint32_t cp;
        size_t l;
        if (j < n && s[j] == '\\') l = lex_escape(s, n, j, &cp);
        else if (j < n && s[j] != '\'' && s[j] != '\n')
            l = utf8_decode((const unsigned char *)s + j, n - j, &cp);
        else l = 0;
        if (l == 0 || j + l >= n || s[j + l] != '\'') {
            t.k = T_BAD, t.len = 1;
            t.why = l == 0 && j < n && s[j] == '\\' ? "invalid escape in a char"
                                                    : "a char is one character between ' and '";
            return t;
        }
        t.k = T_CHAR;
        t.len = l + 2;
        return t;
    }
    if (c == '"') {
        if (i + 2 < n && s[i + 1] == '"' && s[i + 2] == '"') {
            /* a multiline string runs to the next """ (the lexer's rule) */
            for (size_t j = i + 3; j + 2 < n; j++)
                if (s[j] == '"' && s[j + 1] == '"' && s[j + 2] == '"') {
                    t.k = T_MSTRING;
                    t.len = j + 3 - i;
                    return t;
                }
            t.k = T_BAD, t.len = 3, t.why = "unterminated multiline string";
            return t;
        }
        size_t j = i + 1;
        while (j < n && s[j] != '"') {
            if (s[j] == '\n') {
                t.k = T_BAD, t.len = j - i, t.why = "a newline in a string must be written \\n";
                return t;
            }
            if (s[j] == '\\') {
                uint32_t cp;
                size_t l = lex_escape(s, n, j, &cp);
                if (!l) {
                    t.k = T_BAD, t.at = j, t.len = 1, t.why = "invalid escape in a string";
                    return t;
                }
                j += l;
            } else j++;
        }
        if (j >= n) {
            t.k = T_BAD, t.len = 1, t.why = "unterminated string";
            return t;
        }
        t.k = T_STRING;
        t.len = j + 1 - i;
        return t;
    }
    t.k = T_BAD;
    t.len = 1;
    t.why = "unexpected character";
    return t;
}

static tok peek(const wave_p *p) { return lex(p, p->pos); }

static tok next(wave_p *p) {
    tok t = lex(p, p->pos);
    p->pos = t.at + t.len;
    return t;
}

static bool tok_is(const wave_p *p, tok t, const char *word) {
    size_t l = strlen(word);
    return t.k == T_LABEL && t.len == l && memcmp(p->s + t.at, word, l) == 0;
}

static bool is_keyword(const char *s, size_t n) {
    static const char *const kw[] = {"true", "false", "some", "none", "ok", "err", "inf", "nan"};
    for (size_t i = 0; i < sizeof kw / sizeof kw[0]; i++)
        if (strlen(kw[i]) == n && memcmp(kw[i], s, n) == 0) return true;
    return false;
}

/* What a token is, for messages. */
static const char *tok_what(const wave_p *p, tok t, char *buf, size_t cap) {
    switch (t.k) {
    case T_EOF: return "the end of the text";
    case T_NUMBER: snprintf(buf, cap, "the number `%.*s`", (int)(t.len > 40 ? 40 : t.len), p->s + t.at); return buf;
    case T_LABEL: snprintf(buf, cap, "`%.*s`", (int)(t.len > 40 ? 40 : t.len), p->s + t.at); return buf;
    case T_CHAR: return "a char";
    case T_STRING: case T_MSTRING: return "a string";
    case T_BAD: return t.why;
    default: snprintf(buf, cap, "`%c`", p->s[t.at]); return buf;
    }
}

static bool bad_token(wave_p *p, tok t) {
    return fail_at(p, t.at, WEFT_ERR_MALFORMED, "%s", t.why);
}

/* "expected TYPE, found X" */
static bool expected(wave_p *p, tok t, const cm_valtype *ty, const char *hint) {
    if (t.k == T_BAD) return bad_token(p, t);
    char tb[200], wb[80];
    cm_wave_out o = {tb, sizeof tb, 0};
    cm_wave_type_text(ty, &o);
    return fail_at(p, t.at, WEFT_ERR_MALFORMED, "expected a value of type %s%s, found %s", tb,
                   hint ? hint : "", tok_what(p, t, wb, sizeof wb));
}

static bool expect_tok(wave_p *p, tok_kind k, const char *what) {
    tok t = next(p);
    if (t.k == k) return true;
    if (t.k == T_BAD) return bad_token(p, t);
    char wb[80];
    return fail_at(p, t.at, WEFT_ERR_MALFORMED, "expected %s, found %s", what,
                   tok_what(p, t, wb, sizeof wb));
}

static void *alloc(wave_p *p, size_t size) {
    void *m = cm_arena_alloc(p->a, size ? size : 1, 16);
    if (!m) fail_at(p, p->pos, WEFT_ERR_LIMIT, "the value is too large (out of memory or past the limit)");
    return m;
}

/* ---- scalars --------------------------------------------------------- */

static bool parse_int(wave_p *p, tok t, const cm_valtype *ty, cm_val *out) {
    if (t.k != T_NUMBER) return expected(p, t, ty, NULL);
    const char *s = p->s + t.at;
    size_t n = t.len;
    bool neg = s[0] == '-';
    for (size_t i = neg; i < n; i++)
        if (!is_digit(s[i]))
            return fail_at(p, t.at, WEFT_ERR_MALFORMED, "`%.*s` is not an integer", (int)n, s);
    static const struct { int64_t min; uint64_t max; } range[] = {
        [CM_S8] = {INT8_MIN, INT8_MAX}, [CM_U8] = {0, UINT8_MAX},
        [CM_S16] = {INT16_MIN, INT16_MAX}, [CM_U16] = {0, UINT16_MAX},
        [CM_S32] = {INT32_MIN, INT32_MAX}, [CM_U32] = {0, UINT32_MAX},
        [CM_S64] = {INT64_MIN, INT64_MAX}, [CM_U64] = {0, UINT64_MAX},
    };
    bool sign = ty->kind == CM_S8 || ty->kind == CM_S16 || ty->kind == CM_S32 || ty->kind == CM_S64;
    uint64_t mag = 0;
    bool over = false;
    for (size_t i = neg; i < n; i++) {
        uint64_t d = (uint64_t)(s[i] - '0');
        if (mag > (UINT64_MAX - d) / 10) over = true;
        else mag = mag * 10 + d;
    }
    char tb[16];
    cm_wave_out o = {tb, sizeof tb, 0};
    cm_wave_type_text(ty, &o);
    if (neg && !sign)
        return fail_at(p, t.at, WEFT_ERR_MALFORMED, "`%.*s` is out of range for %s", (int)n, s, tb);
    uint64_t limit = neg ? (uint64_t)(-(range[ty->kind].min + 1)) + 1 : range[ty->kind].max;
    if (over || mag > limit)
        return fail_at(p, t.at, WEFT_ERR_MALFORMED, "`%.*s` is out of range for %s", (int)n, s, tb);
    out->kind = ty->kind;
    if (sign) out->v.s = neg ? (int64_t)(0 - mag) : (int64_t)mag;
    else out->v.u = mag;
    return true;
}

static bool parse_float(wave_p *p, tok t, const cm_valtype *ty, cm_val *out) {
    bool is32 = ty->kind == CM_F32;
    double d;
    float f = 0;
    if (tok_is(p, t, "nan")) d = NAN, f = NAN;
    else if (tok_is(p, t, "inf")) d = INFINITY, f = INFINITY;
    else if (t.k == T_NUMBER && t.len == 4 && memcmp(p->s + t.at, "-inf", 4) == 0)
        d = -INFINITY, f = -INFINITY;
    else if (t.k == T_NUMBER) {
        char buf[64];
        char *heap = NULL, *num = buf;
        if (t.len >= sizeof buf) {
            heap = malloc(t.len + 1);
            if (!heap) return fail_at(p, t.at, WEFT_ERR_NOMEM, "out of memory");
            num = heap;
        }
        memcpy(num, p->s + t.at, t.len);
        num[t.len] = 0;
        /* correctly rounded; past the range it is ±inf, as Rust's parse */
        if (is32) f = strtof(num, NULL);
        else d = strtod(num, NULL);
        free(heap);
    } else return expected(p, t, ty, NULL);
    out->kind = ty->kind;
    if (is32) out->v.f32 = f;
    else out->v.f64 = d;
    return true;
}

/* The characters of a string or char token's inside s[i..e) with its
   escapes decoded, appended to buf (which has room: decoding never grows
   the text). */
static size_t unescape_into(const char *s, size_t i, size_t e, char *buf) {
    size_t o = 0;
    while (i < e) {
        if (s[i] == '\\') {
            uint32_t cp = 0;
            size_t l = lex_escape(s, e, i, &cp); /* checked by the lexer */
            if (!l) break;
            o += utf8_encode(cp, buf + o);
            i += l;
        } else buf[o++] = s[i++];
    }
    return o;
}

/* README "Multiline Strings": """ NEWLINE lines NEWLINE spaces """; the
   closing line's spaces are the indent every other line starts with and
   loses; a CR before a line's end is dropped. */
static bool parse_mstring(wave_p *p, tok t, char **out, size_t *olen) {
    const char *s = p->s;
    size_t b = t.at + 3, e = t.at + t.len - 3;
    if (b < e && s[b] == '\r') b++;
    if (b >= e || s[b] != '\n')
        return fail_at(p, t.at, WEFT_ERR_MALFORMED, "opening \"\"\" must be followed immediately by a newline");
    b++;
    /* the last line: the indent */
    size_t last = e; /* the start of the closing line (b: no content lines) */
    while (last > b && s[last - 1] != '\n') last--;
    for (size_t i = last; i < e; i++)
        if (s[i] != ' ')
            return fail_at(p, e, WEFT_ERR_MALFORMED,
                           "closing \"\"\" must be on a line preceded only by spaces");
    size_t indent = e - last;
    char *buf = alloc(p, e - b + 1);
    if (!buf) return false;
    size_t o = 0;
    size_t i = b;
    bool firstline = true;
    if (last == b) { /* no content lines: the first newline was the closing line's */
        *out = buf;
        *olen = 0;
        return true;
    }
    while (i < last) {
        size_t le = i;
        while (le < last && s[le] != '\n') le++; /* le < last: s[le] == '\n' */
        if (le - i < indent || memcmp(s + i, s + last, indent) != 0)
            return fail_at(p, i, WEFT_ERR_MALFORMED,
                           "lines must be indented at least as much as the closing \"\"\"");
        size_t cb = i + indent, ce = le;
        if (ce > cb && s[ce - 1] == '\r') ce--;
        if (!firstline) buf[o++] = '\n';
        firstline = false;
        /* escapes were not checked by the lexer here */
        for (size_t k = cb; k < ce;) {
            if (s[k] == '\\') {
                uint32_t cp;
                size_t l = lex_escape(s, ce, k, &cp);
                if (!l) return fail_at(p, k, WEFT_ERR_MALFORMED, "invalid escape in a string");
                o += utf8_encode(cp, buf + o);
                k += l;
            } else buf[o++] = s[k++];
        }
        i = le + 1;
    }
    *out = buf;
    *olen = o;
    return true;
}

/* ---- values ---------------------------------------------------------- */

static bool parse_value(wave_p *p, const cm_valtype *ty, cm_val *out);

static bool flattenable(const cm_valtype *t) {
    return t->kind != CM_OPTION && t->kind != CM_RESULT;
}

/* The index of label s[0..n) (without its %) among fields, or UINT32_MAX. */
static uint32_t find_label(const cm_valtype *ty, const char *s, size_t n) {
    for (uint32_t i = 0; i < ty->n; i++)
        if (ty->fields[i].name_len == n && memcmp(ty->fields[i].name, s, n) == 0) return i;
    return UINT32_MAX;
}

/* A label token's name without `%`. */
static void label_of(const wave_p *p, tok t, const char **s, size_t *n) {
    *s = p->s + t.at;
    *n = t.len;
    if (**s == '%') (*s)++, (*n)--;
}

/* A comma-separated sequence of values up to `close`, trailing comma
   allowed: `each` is called for item i. */
typedef bool (*item_fn)(wave_p *p, void *env, uint32_t i);

static bool parse_seq(wave_p *p, tok_kind close, const char *close_s, item_fn each, void *env,
                      uint32_t *count) {
    uint32_t i = 0;
    if (peek(p).k == close) {
        next(p);
        *count = 0;
        return true;
    }
    for (;;) {
        if (i == UINT32_MAX) return fail_at(p, p->pos, WEFT_ERR_LIMIT, "too many items");
        if (!each(p, env, i)) return false;
        i++;
        tok t = next(p);
        if (t.k == close) break;
        if (t.k != T_COMMA) {
            if (t.k == T_BAD) return bad_token(p, t);
            char wb[80];
            return fail_at(p, t.at, WEFT_ERR_MALFORMED, "expected `,` or `%s`, found %s", close_s,
                           tok_what(p, t, wb, sizeof wb));
        }
        if (peek(p).k == close) {
            next(p);
            break;
        }
    }
    *count = i;
    return true;
}

/* Elements gathered in a growing malloc'd array, then moved to the arena. */
typedef struct list_env {
    const cm_valtype *elem;
    cm_val *items;
    uint32_t cap;
} list_env;

static bool list_item(wave_p *p, void *env, uint32_t i) {
    list_env *L = env;
    if (i == L->cap) {
        uint32_t cap = L->cap ? L->cap * 2 : 8;
        cm_val *n = base_reallocarray(L->items, cap, sizeof *n);
        if (!n) return fail_at(p, p->pos, WEFT_ERR_NOMEM, "out of memory");
        L->items = n;
        L->cap = cap;
    }
    memset(&L->items[i], 0, sizeof L->items[i]);
    return parse_value(p, L->elem, &L->items[i]);
}

static bool parse_list(wave_p *p, tok t, const cm_valtype *ty, cm_val *out) {
    if (t.k != T_LBRACKET) return expected(p, t, ty, NULL);
    list_env L = {ty->elem, NULL, 0};
    uint32_t n = 0;
    bool ok = parse_seq(p, T_RBRACKET, "]", list_item, &L, &n);
    if (ok && ty->kind == CM_FIXED_LIST && n != ty->n)
        ok = fail_at(p, t.at, WEFT_ERR_MALFORMED, "a list<_, %u> has %u elements, %u given", ty->n,
                     ty->n, n);
    if (ok) {
        out->kind = ty->kind;
        out->n = n;
        out->v.items = NULL;
        if (n) {
            out->v.items = alloc(p, (size_t)n * sizeof(cm_val));
            if (!out->v.items) ok = false;
            else memcpy(out->v.items, L.items, (size_t)n * sizeof(cm_val));
        }
    }
    free(L.items);
    return ok;
}

typedef struct tuple_env {
    const cm_valtype *ty;
    cm_val *items;
} tuple_env;

static bool tuple_item(wave_p *p, void *env, uint32_t i) {
    tuple_env *T = env;
    if (i >= T->ty->n)
        return fail_at(p, lex(p, p->pos).at, WEFT_ERR_MALFORMED, "a tuple of %u members has no member %u",
                       T->ty->n, i + 1);
    return parse_value(p, T->ty->members[i], &T->items[i]);
}

static bool parse_tuple(wave_p *p, tok t, const cm_valtype *ty, cm_val *out) {
    if (t.k != T_LPAREN) return expected(p, t, ty, NULL);
    tuple_env T = {ty, alloc(p, (size_t)ty->n * sizeof(cm_val))};
    if (!T.items) return false;
    memset(T.items, 0, (size_t)ty->n * sizeof(cm_val));
    uint32_t n;
    if (!parse_seq(p, T_RPAREN, ")", tuple_item, &T, &n)) return false;
    if (n == 0) return fail_at(p, t.at, WEFT_ERR_MALFORMED, "empty tuple");
    if (n != ty->n)
        return fail_at(p, t.at, WEFT_ERR_MALFORMED, "a tuple of %u members, %u given", ty->n, n);
    out->kind = CM_TUPLE;
    out->n = n;
    out->v.items = T.items;
    return true;
}

static bool parse_record(wave_p *p, tok t, const cm_valtype *ty, cm_val *out) {
    if (t.k != T_LBRACE) return expected(p, t, ty, NULL);
    cm_val *items = alloc(p, (size_t)ty->n * sizeof(cm_val));
    bool *seen = alloc(p, ty->n);
    if (!items || !seen) return false;
    memset(items, 0, (size_t)ty->n * sizeof(cm_val));
    memset(seen, 0, ty->n);
    tok f = next(p);
    if (f.k == T_COLON) {
        if (!expect_tok(p, T_RBRACE, "`}` (an empty record is `{:}`)")) return false;
    } else if (f.k == T_RBRACE) {
        return fail_at(p, t.at, WEFT_ERR_MALFORMED,
                       "`{}` is empty flags; a record with every field none is written `{:}`");
    } else {
        for (;;) {
            if (f.k != T_LABEL) {
                if (f.k == T_BAD) return bad_token(p, f);
                char wb[80];
                return fail_at(p, f.at, WEFT_ERR_MALFORMED, "expected a field name, found %s",
                               tok_what(p, f, wb, sizeof wb));
            }
            const char *ls;
            size_t ln;
            label_of(p, f, &ls, &ln);
            uint32_t i = find_label(ty, ls, ln);
            if (i == UINT32_MAX)
                return fail_at(p, f.at, WEFT_ERR_MALFORMED, "the record has no field `%.*s`",
                               (int)ln, ls);
            if (seen[i])
                return fail_at(p, f.at, WEFT_ERR_MALFORMED, "duplicate field `%.*s`", (int)ln, ls);
            seen[i] = true;
            tok c = next(p);
            if (c.k != T_COLON) {
                if (c.k == T_BAD) return bad_token(p, c);
                return fail_at(p, c.at, WEFT_ERR_MALFORMED,
                               "expected `:` after the field name (flags are not a record)");
            }
            if (!parse_value(p, ty->fields[i].type, &items[i])) return false;
            tok sep = next(p);
            if (sep.k == T_COMMA) {
                if (peek(p).k == T_RBRACE) {
                    next(p);
                    break;
                }
                f = next(p);
                continue;
            }
            if (sep.k == T_RBRACE) break;
            if (sep.k == T_BAD) return bad_token(p, sep);
            char wb[80];
            return fail_at(p, sep.at, WEFT_ERR_MALFORMED, "expected `,` or `}`, found %s",
                           tok_what(p, sep, wb, sizeof wb));
        }
    }
    for (uint32_t i = 0; i < ty->n; i++) {
        if (seen[i]) continue;
        if (ty->fields[i].type->kind != CM_OPTION)
            return fail_at(p, t.at, WEFT_ERR_MALFORMED, "missing field `%.*s`",
                           (int)ty->fields[i].name_len, ty->fields[i].name);
        items[i].kind = CM_OPTION;
        items[i].v.c.index = 0;
        items[i].v.c.payload = NULL;
    }
    out->kind = CM_RECORD;
    out->n = ty->n;
    out->v.items = items;
    return true;
}

static bool parse_flags(wave_p *p, tok t, const cm_valtype *ty, cm_val *out) {
    if (t.k != T_LBRACE) return expected(p, t, ty, NULL);
    uint32_t bits = 0;
    tok f = next(p);
    if (f.k != T_RBRACE) {
        for (;;) {
            if (f.k != T_LABEL) {
                if (f.k == T_BAD) return bad_token(p, f);
                char wb[80];
                return fail_at(p, f.at, WEFT_ERR_MALFORMED, "expected a flag name, found %s",
                               tok_what(p, f, wb, sizeof wb));
            }
            const char *ls;
            size_t ln;
            label_of(p, f, &ls, &ln);
            uint32_t i = find_label(ty, ls, ln);
            if (i == UINT32_MAX)
                return fail_at(p, f.at, WEFT_ERR_MALFORMED, "no flag `%.*s` in the flags type",
                               (int)ln, ls);
            if (bits & (1u << i))
                return fail_at(p, f.at, WEFT_ERR_MALFORMED, "duplicate flag `%.*s`", (int)ln, ls);
            bits |= 1u << i;
            tok sep = next(p);
            if (sep.k == T_COMMA) {
                if (peek(p).k == T_RBRACE) {
                    next(p);
                    break;
                }
                f = next(p);
                continue;
            }
            if (sep.k == T_RBRACE) break;
            if (sep.k == T_BAD) return bad_token(p, sep);
            if (sep.k == T_COLON)
                return fail_at(p, sep.at, WEFT_ERR_MALFORMED, "expected flags, found a record");
            char wb[80];
            return fail_at(p, sep.at, WEFT_ERR_MALFORMED, "expected `,` or `}`, found %s",
                           tok_what(p, sep, wb, sizeof wb));
        }
    }
    out->kind = CM_FLAGS;
    out->v.flags = bits;
    return true;
}

/* An optional "(payload)" after a case label; `pty` the payload's type
   (NULL: none allowed). */
static bool parse_payload(wave_p *p, tok label, const cm_valtype *pty, cm_val **payload) {
    *payload = NULL;
    bool has = peek(p).k == T_LPAREN;
    const char *ls;
    size_t ln;
    label_of(p, label, &ls, &ln);
    if (has && !pty)
        return fail_at(p, label.at, WEFT_ERR_MALFORMED, "`%.*s` takes no payload", (int)ln, ls);
    if (!has && pty)
        return fail_at(p, label.at, WEFT_ERR_MALFORMED, "`%.*s` needs a payload: `%.*s(...)`",
                       (int)ln, ls, (int)ln, ls);
    if (!has) return true;
    next(p);
    cm_val *v = alloc(p, sizeof *v);
    if (!v) return false;
    memset(v, 0, sizeof *v);
    if (!parse_value(p, pty, v)) return false;
    if (!expect_tok(p, T_RPAREN, "`)` after the payload")) return false;
    *payload = v;
    return true;
}

static bool parse_case(wave_p *p, tok t, const cm_valtype *ty, cm_val *out) {
    if (t.k != T_LABEL) return expected(p, t, ty, NULL);
    const char *ls;
    size_t ln;
    label_of(p, t, &ls, &ln);
    bool pct = p->s[t.at] == '%';
    const char *what = ty->kind == CM_ENUM ? "enum" : "variant";
    if (!pct && is_keyword(ls, ln)) {
        uint32_t i = find_label(ty, ls, ln);
        if (i != UINT32_MAX)
            return fail_at(p, t.at, WEFT_ERR_MALFORMED,
                           "`%.*s` is a WAVE keyword: write the %s case as `%%%.*s`", (int)ln, ls,
                           what, (int)ln, ls);
        return expected(p, t, ty, NULL);
    }
    uint32_t i = find_label(ty, ls, ln);
    if (i == UINT32_MAX)
        return fail_at(p, t.at, WEFT_ERR_MALFORMED, "the %s has no case `%.*s`", what, (int)ln, ls);
    cm_val *payload = NULL;
    if (!parse_payload(p, t, ty->kind == CM_ENUM ? NULL : ty->fields[i].type, &payload)) return false;
    out->kind = ty->kind;
    out->v.c.index = i;
    out->v.c.payload = payload;
    return true;
}

static bool parse_option(wave_p *p, tok t, const cm_valtype *ty, cm_val *out) {
    out->kind = CM_OPTION;
    if (tok_is(p, t, "none")) {
        out->v.c.index = 0;
        out->v.c.payload = NULL;
        return true;
    }
    if (tok_is(p, t, "some")) {
        out->v.c.index = 1;
        if (peek(p).k != T_LPAREN)
            return fail_at(p, t.at, WEFT_ERR_MALFORMED, "`some` needs a payload: `some(...)`");
        return parse_payload(p, t, ty->elem, &out->v.c.payload);
    }
    if (!flattenable(ty->elem))
        return expected(p, t, ty, " (some(...) or none: an option of an option or result is not flattened)");
    /* README "Options": the payload itself is `some` */
    p->pos = t.at;
    cm_val *v = alloc(p, sizeof *v);
    if (!v) return false;
    memset(v, 0, sizeof *v);
    if (!parse_value(p, ty->elem, v)) return false;
    out->v.c.index = 1;
    out->v.c.payload = v;
    return true;
}

static bool parse_result(wave_p *p, tok t, const cm_valtype *ty, cm_val *out) {
    out->kind = CM_RESULT;
    if (tok_is(p, t, "ok") || tok_is(p, t, "err")) {
        bool is_err = tok_is(p, t, "err");
        out->v.c.index = is_err;
        return parse_payload(p, t, is_err ? ty->elem2 : ty->elem, &out->v.c.payload);
    }
    if (!ty->elem || !flattenable(ty->elem))
        return expected(p, t, ty, " (ok or err)");
    p->pos = t.at;
    cm_val *v = alloc(p, sizeof *v);
    if (!v) return false;
    memset(v, 0, sizeof *v);
    if (!parse_value(p, ty->elem, v)) return false;
    out->v.c.index = 0;
    out->v.c.payload = v;
    return true;
}

static bool parse_value(wave_p *p, const cm_valtype *ty, cm_val *out) {
    if (p->depth >= CM_WAVE_MAX_DEPTH)
        return fail_at(p, p->pos, WEFT_ERR_MALFORMED, "nesting deeper than %d", CM_WAVE_MAX_DEPTH);
    p->depth++;
    tok t = next(p);
    bool ok;
    memset(out, 0, sizeof *out);
    switch (ty->kind) {
    case CM_BOOL:
        if (tok_is(p, t, "true") || tok_is(p, t, "false")) {
            out->kind = CM_BOOL;
            out->v.b = tok_is(p, t, "true");
            ok = true;
        } else ok = expected(p, t, ty, NULL);
        break;
    case CM_S8: case CM_U8: case CM_S16: case CM_U16: case CM_S32: case CM_U32: case CM_S64:
    case CM_U64:
        ok = parse_int(p, t, ty, out);
        break;
    case CM_F32: case CM_F64:
        ok = parse_float(p, t, ty, out);
        break;
    case CM_CHAR:
        if (t.k != T_CHAR) {
            ok = expected(p, t, ty, NULL);
            break;
        }
        if (p->s[t.at + 1] == '\\') lex_escape(p->s, p->n, t.at + 1, &out->v.ch);
        else utf8_decode((const unsigned char *)p->s + t.at + 1, t.len - 2, &out->v.ch);
        out->kind = CM_CHAR;
        ok = true;
        break;
    case CM_STRING: {
        char *buf = NULL;
        size_t len = 0;
        if (t.k == T_STRING) {
            buf = alloc(p, t.len);
            ok = buf != NULL;
            if (ok) len = unescape_into(p->s, t.at + 1, t.at + t.len - 1, buf);
        } else if (t.k == T_MSTRING) {
            ok = parse_mstring(p, t, &buf, &len);
        } else {
            ok = expected(p, t, ty, NULL);
            break;
        }
        if (!ok) break;
        if (len > UINT32_MAX) {
            ok = fail_at(p, t.at, WEFT_ERR_LIMIT, "string too long");
            break;
        }
        out->kind = CM_STRING;
        out->n = (uint32_t)len;
        out->v.str = buf;
        out->v.str_src = CM_STR_UTF8;
        break;
    }
    case CM_LIST: case CM_FIXED_LIST: ok = parse_list(p, t, ty, out); break;
    case CM_TUPLE: ok = parse_tuple(p, t, ty, out); break;
    case CM_RECORD: ok = parse_record(p, t, ty, out); break;
    case CM_FLAGS: ok = parse_flags(p, t, ty, out); break;
    case CM_VARIANT: case CM_ENUM: ok = parse_case(p, t, ty, out); break;
    case CM_OPTION: ok = parse_option(p, t, ty, out); break;
    case CM_RESULT: ok = parse_result(p, t, ty, out); break;
    default: {
        char tb[100];
        cm_wave_out o = {tb, sizeof tb, 0};
        cm_wave_type_text(ty, &o);
        ok = fail_at(p, t.at, WEFT_ERR_MALFORMED, "a value of type %s has no WAVE form", tb);
        break;
    }
    }
    p->depth--;
    return ok;
}

static bool check_utf8(wave_p *p) {
    const unsigned char *s = (const unsigned char *)p->s;
    for (size_t i = 0; i < p->n;) {
        uint32_t cp;
        size_t l = utf8_decode(s + i, p->n - i, &cp);
        if (!l) return fail_at(p, i, WEFT_ERR_MALFORMED, "not UTF-8");
        i += l;
    }
    return true;
}

static bool expect_end(wave_p *p) {
    tok t = next(p);
    if (t.k == T_EOF) return true;
    if (t.k == T_BAD) return bad_token(p, t);
    char wb[80];
    return fail_at(p, t.at, WEFT_ERR_MALFORMED, "trailing characters: %s after the value",
                   tok_what(p, t, wb, sizeof wb));
}

weft_status cm_wave_parse(const cm_valtype *t, const char *text, size_t len, cm_val *out,
                          cm_arena *a, weft_error *err) {
    base_error_clear(err);
    if (!t || (!text && len) || !out || !a)
        return base_fail(err, WEFT_ERR_MISUSE, "weft_wave_parse: NULL argument");
    wave_p p = {text ? text : "", len, 0, a, err, 0};
    if (!check_utf8(&p) || !parse_value(&p, t, out) || !expect_end(&p))
        return err ? err->status : WEFT_ERR_MALFORMED;
    return WEFT_OK;
}

typedef struct args_env {
    const cm_functype *ft;
    cm_val *vals;
} args_env;

static bool arg_item(wave_p *p, void *env, uint32_t i) {
    args_env *A = env;
    if (i >= A->ft->nparams)
        return fail_at(p, lex(p, p->pos).at, WEFT_ERR_MALFORMED,
                       "more arguments than the function's %u parameter%s", A->ft->nparams,
                       A->ft->nparams == 1 ? "" : "s");
    return parse_value(p, A->ft->params[i].type, &A->vals[i]);
}

weft_status cm_wave_parse_args(const cm_functype *ft, const char *text, size_t len, size_t at,
                               cm_val **args, cm_arena *a, weft_error *err) {
    base_error_clear(err);
    wave_p p = {text, len, 0, a, err, 0};
    if (!check_utf8(&p)) return err ? err->status : WEFT_ERR_MALFORMED;
    p.pos = at;
    args_env A = {ft, alloc(&p, (size_t)ft->nparams * sizeof(cm_val))};
    if (!A.vals) return err ? err->status : WEFT_ERR_LIMIT;
    memset(A.vals, 0, (size_t)ft->nparams * sizeof(cm_val));
    tok open = next(&p);
    if (open.k != T_LPAREN) {
        char wb[80];
        if (open.k == T_BAD) bad_token(&p, open);
        else
            fail_at(&p, open.at, WEFT_ERR_MALFORMED,
                    "expected `(` and the arguments after the function's name, found %s",
                    tok_what(&p, open, wb, sizeof wb));
        return err ? err->status : WEFT_ERR_MALFORMED;
    }
    uint32_t n;
    if (!parse_seq(&p, T_RPAREN, ")", arg_item, &A, &n) || !expect_end(&p))
        return err ? err->status : WEFT_ERR_MALFORMED;
    /* README "Function arguments": trailing option none may be left out */
    for (uint32_t i = n; i < ft->nparams; i++) {
        if (ft->params[i].type->kind != CM_OPTION) {
            char tb[200];
            cm_wave_out o = {tb, sizeof tb, 0};
            cm_wave_type_text(ft->params[i].type, &o);
            fail_at(&p, len, WEFT_ERR_MALFORMED,
                    "the function takes %u argument%s, %u given: `%.*s: %s` is missing",
                    ft->nparams, ft->nparams == 1 ? "" : "s", n, (int)ft->params[i].name_len,
                    ft->params[i].name, tb);
            return err ? err->status : WEFT_ERR_MALFORMED;
        }
        A.vals[i].kind = CM_OPTION;
    }
    *args = A.vals;
    return WEFT_OK;
}

/* ---- printing -------------------------------------------------------- */

static void put(cm_wave_out *o, const char *s, size_t n) {
    if (o->cap && o->len < o->cap - 1) {
        size_t room = o->cap - 1 - o->len;
        memcpy(o->buf + o->len, s, n < room ? n : room);
    }
    o->len += n;
    if (o->cap) o->buf[o->len < o->cap - 1 ? o->len : o->cap - 1] = 0;
}

static void puts_(cm_wave_out *o, const char *s) { put(o, s, strlen(s)); }

static void putf(cm_wave_out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(cm_wave_out *o, const char *fmt, ...) {
    char b[64];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    if (n > 0) put(o, b, (size_t)n < sizeof b ? (size_t)n : sizeof b - 1);
}

/* Characters Rust's char::escape_debug writes as \u{…} beyond the C0/C1
   controls: the format characters, separators and combining marks of the
   common ranges (Rust's own tables are finer; what is escaped here parses
   back the same). */
static bool escape_debug(uint32_t c) {
    static const uint32_t ranges[][2] = {
        {0x00ad, 0x00ad}, {0x0300, 0x036f}, {0x0483, 0x0489}, {0x0591, 0x05bd},
        {0x061c, 0x061c}, {0x064b, 0x065f}, {0x180e, 0x180e}, {0x1ab0, 0x1aff},
        {0x1dc0, 0x1dff}, {0x200b, 0x200f}, {0x2028, 0x202e}, {0x2060, 0x206f},
        {0x20d0, 0x20ff}, {0xd800, 0xdfff}, {0xe000, 0xf8ff}, {0xfe00, 0xfe0f},
        {0xfe20, 0xfe2f}, {0xfeff, 0xfeff}, {0xfff0, 0xfffb}, {0xfffe, 0xffff},
        {0xe0000, 0xe0fff}, {0xf0000, 0x10ffff},
    };
    for (size_t i = 0; i < sizeof ranges / sizeof ranges[0]; i++)
        if (c >= ranges[i][0] && c <= ranges[i][1]) return true;
    return false;
}

/* wasm-wave's Writer::write_char. */
static void put_char(cm_wave_out *o, uint32_t c) {
    switch (c) {
    case '\\': puts_(o, "\\\\"); return;
    case '"': puts_(o, "\\\""); return;
    case '\'': puts_(o, "\\'"); return;
    case '\t': puts_(o, "\\t"); return;
    case '\r': puts_(o, "\\r"); return;
    case '\n': puts_(o, "\\n"); return;
    default: break;
    }
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f) || escape_debug(c)) {
        putf(o, "\\u{%x}", c);
        return;
    }
    char b[4];
    put(o, b, utf8_encode(c, b));
}

/* Rust's Display of a float: the shortest digits that read back as the
   same value, written out without an exponent ("1", "0.1", "1e21" as
   1000000000000000000000, "-0", "inf", "-inf"; NaN is written "nan"). */
static void put_float(cm_wave_out *o, double d, bool is32) {
    if (isnan(d)) {
        puts_(o, "nan");
        return;
    }
    if (isinf(d)) {
        puts_(o, d < 0 ? "-inf" : "inf");
        return;
    }
    char e[40];
    for (int prec = 0; prec < 17; prec++) {
        snprintf(e, sizeof e, "%.*e", prec, d);
        if (is32 ? strtof(e, NULL) == (float)d : strtod(e, NULL) == d) break;
    }
    /* e: [-]D[.DDD]e[+-]XX */
    const char *s = e;
    if (*s == '-') {
        puts_(o, "-");
        s++;
    }
    char digits[24];
    size_t nd = 0;
    while (*s && *s != 'e') {
        if (is_digit(*s)) digits[nd++] = *s;
        s++;
    }
    int exp = atoi(s + 1);
    while (nd > 1 && digits[nd - 1] == '0') nd--;
    if (nd == 1 && digits[0] == '0') {
        puts_(o, "0");
        return;
    }
    if (exp >= (int)nd - 1) {
        put(o, digits, nd);
        for (int i = 0; i < exp - ((int)nd - 1); i++) puts_(o, "0");
    } else if (exp < 0) {
        puts_(o, "0.");
        for (int i = 0; i < -exp - 1; i++) puts_(o, "0");
        put(o, digits, nd);
    } else {
        put(o, digits, (size_t)exp + 1);
        puts_(o, ".");
        put(o, digits + exp + 1, nd - (size_t)exp - 1);
    }
}

static void put_label(cm_wave_out *o, const cm_field *f, bool case_label) {
    if (case_label && is_keyword(f->name, f->name_len)) puts_(o, "%");
    put(o, f->name, f->name_len);
}

static weft_status mismatch(weft_error *err, const cm_valtype *t) {
    char tb[100];
    cm_wave_out o = {tb, sizeof tb, 0};
    cm_wave_type_text(t, &o);
    return base_fail(err, WEFT_ERR_MISUSE, "the value does not match its type %s", tb);
}

static weft_status print_value(const cm_valtype *t, const cm_val *v, cm_wave_out *o,
                               weft_error *err, uint32_t depth) {
    if (!t || !v || v->kind != t->kind) return mismatch(err, t);
    if (depth > 2 * CM_WAVE_MAX_DEPTH + 56)
        return base_fail(err, WEFT_ERR_LIMIT, "value nested too deeply to print");
    weft_status rc;
    switch (t->kind) {
    case CM_BOOL: puts_(o, v->v.b ? "true" : "false"); return WEFT_OK;
    case CM_S8: case CM_S16: case CM_S32: case CM_S64:
        putf(o, "%lld", (long long)v->v.s);
        return WEFT_OK;
    case CM_U8: case CM_U16: case CM_U32: case CM_U64:
        putf(o, "%llu", (unsigned long long)v->v.u);
        return WEFT_OK;
    case CM_F32: put_float(o, v->v.f32, true); return WEFT_OK;
    case CM_F64: put_float(o, v->v.f64, false); return WEFT_OK;
    case CM_CHAR:
        if (!valid_scalar(v->v.ch)) return base_fail(err, WEFT_ERR_MISUSE, "invalid char value");
        puts_(o, "'");
        put_char(o, v->v.ch);
        puts_(o, "'");
        return WEFT_OK;
    case CM_STRING: {
        puts_(o, "\"");
        const unsigned char *s = (const unsigned char *)v->v.str;
        for (uint32_t i = 0; i < v->n;) {
            uint32_t cp;
            size_t l = utf8_decode(s + i, v->n - i, &cp);
            if (!l) return base_fail(err, WEFT_ERR_MISUSE, "a string value is not UTF-8");
            put_char(o, cp);
            i += (uint32_t)l;
        }
        puts_(o, "\"");
        return WEFT_OK;
    }
    case CM_LIST: case CM_FIXED_LIST: case CM_TUPLE: {
        bool tuple = t->kind == CM_TUPLE;
        if ((tuple || t->kind == CM_FIXED_LIST) && v->n != t->n) return mismatch(err, t);
        puts_(o, tuple ? "(" : "[");
        for (uint32_t i = 0; i < v->n; i++) {
            if (i) puts_(o, ", ");
            rc = print_value(tuple ? t->members[i] : t->elem, &v->v.items[i], o, err, depth + 1);
            if (rc != WEFT_OK) return rc;
        }
        puts_(o, tuple ? ")" : "]");
        return WEFT_OK;
    }
    case CM_RECORD: {
        if (v->n != t->n) return mismatch(err, t);
        puts_(o, "{");
        bool first = true;
        for (uint32_t i = 0; i < t->n; i++) {
            const cm_val *f = &v->v.items[i];
            if (t->fields[i].type->kind == CM_OPTION && f->kind == CM_OPTION && f->v.c.index == 0)
                continue; /* a none field is left out (the writer's rule) */
            if (!first) puts_(o, ", ");
            first = false;
            put_label(o, &t->fields[i], false);
            puts_(o, ": ");
            rc = print_value(t->fields[i].type, f, o, err, depth + 1);
            if (rc != WEFT_OK) return rc;
        }
        if (first) puts_(o, ":");
        puts_(o, "}");
        return WEFT_OK;
    }
    case CM_VARIANT: case CM_ENUM: {
        if (v->v.c.index >= t->n) return mismatch(err, t);
        const cm_field *f = &t->fields[v->v.c.index];
        put_label(o, f, true);
        if (t->kind == CM_VARIANT && f->type) {
            puts_(o, "(");
            rc = print_value(f->type, v->v.c.payload, o, err, depth + 1);
            if (rc != WEFT_OK) return rc;
            puts_(o, ")");
        }
        return WEFT_OK;
    }
    case CM_OPTION:
        if (v->v.c.index > 1) return mismatch(err, t);
        if (v->v.c.index == 0) {
            puts_(o, "none");
            return WEFT_OK;
        }
        puts_(o, "some(");
        rc = print_value(t->elem, v->v.c.payload, o, err, depth + 1);
        if (rc != WEFT_OK) return rc;
        puts_(o, ")");
        return WEFT_OK;
    case CM_RESULT: {
        if (v->v.c.index > 1) return mismatch(err, t);
        const cm_valtype *pt = v->v.c.index ? t->elem2 : t->elem;
        puts_(o, v->v.c.index ? "err" : "ok");
        if (pt) {
            puts_(o, "(");
            rc = print_value(pt, v->v.c.payload, o, err, depth + 1);
            if (rc != WEFT_OK) return rc;
            puts_(o, ")");
        }
        return WEFT_OK;
    }
    case CM_FLAGS: {
        puts_(o, "{");
        bool first = true;
        for (uint32_t i = 0; i < t->n; i++) {
            if (!(v->v.flags & (1u << i))) continue;
            if (!first) puts_(o, ", ");
            first = false;
            put_label(o, &t->fields[i], false);
        }
        puts_(o, "}");
        return WEFT_OK;
    }
    default: {
        char tb[100];
        cm_wave_out to = {tb, sizeof tb, 0};
        cm_wave_type_text(t, &to);
        return base_fail(err, WEFT_ERR_MISUSE, "a value of type %s has no WAVE form", tb);
    }
    }
}

weft_status cm_wave_print(const cm_valtype *t, const cm_val *v, cm_wave_out *out,
                          weft_error *err) {
    base_error_clear(err);
    if (out->cap) out->buf[0] = 0;
    return print_value(t, v, out, err, 0);
}

weft_status cm_wave_print_results(const cm_functype *ft, const cm_val *result, cm_wave_out *out,
                                  weft_error *err) {
    base_error_clear(err);
    if (out->cap) out->buf[0] = 0;
    if (!ft->result) {
        puts_(out, "()");
        return WEFT_OK;
    }
    return print_value(ft->result, result, out, err, 0);
}

/* ---- types as text --------------------------------------------------- */

static void type_text(const cm_valtype *t, cm_wave_out *o, uint32_t depth) {
    static const char *const prim[] = {
        "bool", "s8", "u8", "s16", "u16", "s32", "u32", "s64", "u64", "f32", "f64", "char",
        "string", "error-context",
    };
    if (!t) {
        puts_(o, "_");
        return;
    }
    if (depth > 8) {
        puts_(o, "...");
        return;
    }
    if (cm_kind_is_prim(t->kind)) {
        puts_(o, prim[t->kind]);
        return;
    }
    switch (t->kind) {
    case CM_LIST: puts_(o, "list<"); type_text(t->elem, o, depth + 1); puts_(o, ">"); return;
    case CM_FIXED_LIST:
        puts_(o, "list<");
        type_text(t->elem, o, depth + 1);
        putf(o, ", %u>", t->n);
        return;
    case CM_OPTION: puts_(o, "option<"); type_text(t->elem, o, depth + 1); puts_(o, ">"); return;
    case CM_RESULT:
        puts_(o, "result");
        if (t->elem || t->elem2) {
            puts_(o, "<");
            type_text(t->elem, o, depth + 1);
            if (t->elem2) {
                puts_(o, ", ");
                type_text(t->elem2, o, depth + 1);
            }
            puts_(o, ">");
        }
        return;
    case CM_TUPLE:
        puts_(o, "tuple<");
        for (uint32_t i = 0; i < t->n; i++) {
            if (i) puts_(o, ", ");
            type_text(t->members[i], o, depth + 1);
        }
        puts_(o, ">");
        return;
    case CM_RECORD: case CM_VARIANT: case CM_ENUM: case CM_FLAGS: {
        puts_(o, t->kind == CM_RECORD    ? "record { "
                 : t->kind == CM_VARIANT ? "variant { "
                 : t->kind == CM_ENUM    ? "enum { "
                                         : "flags { ");
        for (uint32_t i = 0; i < t->n; i++) {
            if (i) puts_(o, ", ");
            put(o, t->fields[i].name, t->fields[i].name_len);
            if (t->kind == CM_RECORD) {
                puts_(o, ": ");
                type_text(t->fields[i].type, o, depth + 1);
            } else if (t->kind == CM_VARIANT && t->fields[i].type) {
                puts_(o, "(");
                type_text(t->fields[i].type, o, depth + 1);
                puts_(o, ")");
            }
        }
        puts_(o, " }");
        return;
    }
    case CM_OWN: case CM_BORROW:
        puts_(o, t->kind == CM_OWN ? "own<" : "borrow<");
        puts_(o, t->resource && t->resource->name ? t->resource->name : "resource");
        puts_(o, ">");
        return;
    case CM_STREAM: case CM_FUTURE:
        puts_(o, t->kind == CM_STREAM ? "stream" : "future");
        if (t->elem) {
            puts_(o, "<");
            type_text(t->elem, o, depth + 1);
            puts_(o, ">");
        }
        return;
    case CM_MAP:
        puts_(o, "map<");
        type_text(t->elem, o, depth + 1);
        puts_(o, ", ");
        type_text(t->elem2, o, depth + 1);
        puts_(o, ">");
        return;
    default: puts_(o, "?"); return;
    }
}

void cm_wave_type_text(const cm_valtype *t, cm_wave_out *out) {
    if (out->cap) out->buf[0] = 0;
    type_text(t, out, 0);
}
