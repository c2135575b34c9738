/*
 * values.c — script values: parsing arguments and expected results,
 * comparing results, and printing both.
 *
 * All numbers in wast2json are decimal strings: i32/i64 read as unsigned
 * integers, f32/f64 as the unsigned decimal of their bit pattern. Floats are
 * compared by bits, except for the NaN classes "nan:canonical" and
 * "nan:arithmetic" (spec, 4.3.3 "NaN propagation" and the script format).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spectest.h"

void spec_buf_init(spec_buf *b, char *data, size_t cap)
{
    b->data = data;
    b->cap = cap;
    b->len = 0;
    if (cap)
        data[0] = '\0';
}

void spec_buf_printf(spec_buf *b, const char *fmt, ...)
{
    if (b->len + 1 >= b->cap)
        return;
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(b->data + b->len, b->cap - b->len, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    b->len += (size_t)n;
    if (b->len >= b->cap)
        b->len = b->cap - 1;
}

void spec_buf_escaped(spec_buf *b, const char *bytes, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)bytes[i];
        if (c == '"' || c == '\\')
            spec_buf_printf(b, "\\%c", c);
        else if (c >= 0x20 && c < 0x7F)
            spec_buf_printf(b, "%c", c);
        else
            spec_buf_printf(b, "\\x%02x", c);
    }
}

void *spec_externref(uint64_t n)
{
    /* Opaque to the engine and never dereferenced: N+1 keeps ref.extern 0
       distinct from null. */
    return (void *)(uintptr_t)(n + 1);
}

static const struct {
    const char *name;
    weft_valtype type;
} spec_types[] = {
    {"i32", WEFT_I32},   {"i64", WEFT_I64},         {"f32", WEFT_F32},
    {"f64", WEFT_F64},   {"v128", WEFT_V128},       {"funcref", WEFT_FUNCREF},
    {"externref", WEFT_EXTERNREF}, {"exnref", WEFT_EXNREF},
};

const char *spec_type_name(weft_valtype t)
{
    for (size_t i = 0; i < sizeof spec_types / sizeof spec_types[0]; i++)
        if (spec_types[i].type == t)
            return spec_types[i].name;
    return "?";
}

static bool parse_type(const char *s, weft_valtype *t)
{
    for (size_t i = 0; s && i < sizeof spec_types / sizeof spec_types[0]; i++)
        if (strcmp(s, spec_types[i].name) == 0) {
            *t = spec_types[i].type;
            return true;
        }
    return false;
}

/* Reads a decimal string (unsigned; a leading '-' is also accepted) that
   must fit in `bits` bits. */
static bool parse_uint(const char *s, unsigned bits, uint64_t *out)
{
    if (!s || !*s)
        return false;
    bool neg = false;
    if (*s == '-') {
        neg = true;
        s++;
    }
    if (*s < '0' || *s > '9')
        return false;
    char *endp;
    errno = 0;
    unsigned long long n = strtoull(s, &endp, 10);
    if (errno || *endp != '\0')
        return false;
    uint64_t mask = bits == 64 ? UINT64_MAX : ((uint64_t)1 << bits) - 1;
    if (neg) {
        if (n > (mask >> 1) + 1)
            return false;
        n = (0 - (uint64_t)n) & mask;
    } else if (n > mask) {
        return false;
    }
    *out = (uint64_t)n;
    return true;
}

/* Fills out->of for type t from the string s; "null" for references. */
static spec_parse_result parse_scalar(weft_valtype t, const char *s, weft_val *out,
                                      spec_buf *err)
{
    uint64_t n;
    out->type = t;
    out->of.bits = 0;
    switch (t) {
    case WEFT_I32:
    case WEFT_F32:
        if (!parse_uint(s, 32, &n))
            goto bad;
        if (t == WEFT_I32)
            out->of.i32 = (int32_t)(uint32_t)n;
        else
            out->of.f32_bits = (uint32_t)n;
        return SPEC_VALUE_OK;
    case WEFT_I64:
    case WEFT_F64:
        if (!parse_uint(s, 64, &n))
            goto bad;
        if (t == WEFT_I64)
            out->of.i64 = (int64_t)n;
        else
            out->of.f64_bits = n;
        return SPEC_VALUE_OK;
    case WEFT_FUNCREF:
        if (s && strcmp(s, "null") == 0) {
            out->of.func = NULL;
            return SPEC_VALUE_OK;
        }
        spec_buf_printf(err, "a funcref argument other than null cannot be made");
        return SPEC_VALUE_BAD;
    case WEFT_EXTERNREF:
        if (s && strcmp(s, "null") == 0) {
            out->of.externref = NULL;
            return SPEC_VALUE_OK;
        }
        if (!parse_uint(s, 64, &n) || n == UINT64_MAX)
            goto bad;
        out->of.externref = spec_externref(n);
        return SPEC_VALUE_OK;
    case WEFT_EXNREF:
        if (s && strcmp(s, "null") == 0) {
            out->of.exnref = NULL;
            return SPEC_VALUE_OK;
        }
        spec_buf_printf(err, "an exnref argument other than null cannot be made");
        return SPEC_VALUE_BAD;
    default:
        break;
    }
bad:
    spec_buf_printf(err, "bad %s value \"%s\"", spec_type_name(t), s ? s : "(none)");
    return SPEC_VALUE_BAD;
}

/* A v128 of the script: {"type": "v128", "lane_type": "i8".."f64",
   "value": [lane strings]}. Each lane string is an unsigned or negative
   decimal of the lane's width, or (expectations only, float lanes) a NaN
   class, recorded in e when e != NULL. */
static spec_parse_result parse_v128(const json_value *v, weft_val *out, spec_expect *e,
                                    spec_buf *err)
{
    static const struct { const char *name; unsigned bits; bool is_float; } shapes[] = {
        {"i8", 8, false}, {"i16", 16, false}, {"i32", 32, false},
        {"i64", 64, false}, {"f32", 32, true}, {"f64", 64, true},
    };
    const char *lt = json_get_string(v, "lane_type", NULL);
    const json_value *lanes = json_get_array(v, "value");
    unsigned bits = 0;
    bool is_float = false;
    for (size_t i = 0; lt && i < sizeof shapes / sizeof shapes[0]; i++)
        if (strcmp(lt, shapes[i].name) == 0) {
            bits = shapes[i].bits;
            is_float = shapes[i].is_float;
        }
    if (!bits || !lanes || lanes->count != 128 / bits) {
        spec_buf_printf(err, "bad v128 value (lane_type %s)", lt ? lt : "(none)");
        return SPEC_VALUE_BAD;
    }
    memset(out, 0, sizeof *out);
    out->type = WEFT_V128;
    if (e) {
        e->lane_bits = bits;
        e->lane_float = is_float;
    }
    for (size_t i = 0; i < lanes->count; i++) {
        const json_value *jl = lanes->items[i];
        const char *s = jl->kind == JSON_STRING ? jl->text : NULL;
        if (s && e && is_float && strcmp(s, "nan:canonical") == 0) {
            e->lane_nan[i] = SPEC_EXPECT_NAN_CANONICAL;
            continue;
        }
        if (s && e && is_float && strcmp(s, "nan:arithmetic") == 0) {
            e->lane_nan[i] = SPEC_EXPECT_NAN_ARITHMETIC;
            continue;
        }
        uint64_t n;
        if (!parse_uint(s, bits, &n)) {
            spec_buf_printf(err, "bad v128 lane \"%s\"", s ? s : "(none)");
            return SPEC_VALUE_BAD;
        }
        memcpy(out->of.v128 + i * (bits / 8), &n, bits / 8); /* little-endian host */
    }
    return SPEC_VALUE_OK;
}

spec_parse_result spec_parse_value(const json_value *v, weft_val *out,
                                   spec_buf *err)
{
    weft_valtype t;
    const char *tname = json_get_string(v, "type", NULL);
    if (!tname || !parse_type(tname, &t)) {
        spec_buf_printf(err, "value without a known \"type\"");
        return SPEC_VALUE_BAD;
    }
    if (t == WEFT_V128)
        return parse_v128(v, out, NULL, err);
    const char *s = json_get_string(v, "value", NULL);
    if (!s) {
        spec_buf_printf(err, "%s argument without a \"value\"", tname);
        return SPEC_VALUE_BAD;
    }
    return parse_scalar(t, s, out, err);
}

spec_parse_result spec_parse_expect(const json_value *v, spec_expect *out,
                                    spec_buf *err)
{
    weft_valtype t;
    const char *tname = json_get_string(v, "type", NULL);
    if (!tname || !parse_type(tname, &t)) {
        spec_buf_printf(err, "expected value without a known \"type\"");
        return SPEC_VALUE_BAD;
    }
    memset(out, 0, sizeof *out);
    out->val.type = t;
    const json_value *jv = json_get(v, "value");
    if (!jv) {
        out->kind = SPEC_EXPECT_TYPE;
        return SPEC_VALUE_OK;
    }
    if (t == WEFT_V128) {
        out->kind = SPEC_EXPECT_VALUE;
        return parse_v128(v, &out->val, out, err);
    }
    if (jv->kind != JSON_STRING) {
        spec_buf_printf(err, "expected %s value is not a string", tname);
        return SPEC_VALUE_BAD;
    }
    const char *s = jv->text;
    if (t == WEFT_F32 || t == WEFT_F64) {
        if (strcmp(s, "nan:canonical") == 0) {
            out->kind = SPEC_EXPECT_NAN_CANONICAL;
            return SPEC_VALUE_OK;
        }
        if (strcmp(s, "nan:arithmetic") == 0) {
            out->kind = SPEC_EXPECT_NAN_ARITHMETIC;
            return SPEC_VALUE_OK;
        }
    }
    if (t == WEFT_FUNCREF && strcmp(s, "null") != 0) {
        /* "ref.func": any non-null function reference. */
        out->kind = SPEC_EXPECT_NONNULL_REF;
        return SPEC_VALUE_OK;
    }
    out->kind = SPEC_EXPECT_VALUE;
    return parse_scalar(t, s, &out->val, err);
}

#define F32_EXP_QUIET 0x7FC00000u
#define F32_ABS 0x7FFFFFFFu
#define F64_EXP_QUIET 0x7FF8000000000000u
#define F64_ABS 0x7FFFFFFFFFFFFFFFu

bool spec_expect_match(const spec_expect *e, const weft_val *got)
{
    weft_valtype t = e->val.type;
    if (got->type != t)
        return false;
    switch (e->kind) {
    case SPEC_EXPECT_TYPE:
        return true;
    case SPEC_EXPECT_NONNULL_REF:
        return t == WEFT_FUNCREF ? got->of.func != NULL
               : t == WEFT_EXNREF ? got->of.exnref != NULL
                                  : got->of.externref != NULL;
    case SPEC_EXPECT_NAN_CANONICAL:
        if (t == WEFT_F32)
            return (got->of.f32_bits & F32_ABS) == F32_EXP_QUIET;
        return (got->of.f64_bits & F64_ABS) == F64_EXP_QUIET;
    case SPEC_EXPECT_NAN_ARITHMETIC:
        if (t == WEFT_F32)
            return (got->of.f32_bits & F32_EXP_QUIET) == F32_EXP_QUIET;
        return (got->of.f64_bits & F64_EXP_QUIET) == F64_EXP_QUIET;
    case SPEC_EXPECT_VALUE:
        break;
    }
    switch (t) {
    case WEFT_I32: return got->of.i32 == e->val.of.i32;
    case WEFT_I64: return got->of.i64 == e->val.of.i64;
    case WEFT_F32: return got->of.f32_bits == e->val.of.f32_bits;
    case WEFT_F64: return got->of.f64_bits == e->val.of.f64_bits;
    case WEFT_FUNCREF: return got->of.func == e->val.of.func;
    case WEFT_EXTERNREF: return got->of.externref == e->val.of.externref;
    case WEFT_EXNREF: return got->of.exnref == e->val.of.exnref;
    case WEFT_V128: break;
    default: return false;
    }
    /* v128: lane by lane, each exact or in its NaN class. */
    unsigned w = e->lane_bits / 8;
    for (unsigned i = 0; i < 16 / w; i++) {
        uint64_t g = 0, x = 0;
        memcpy(&g, got->of.v128 + i * w, w);
        memcpy(&x, e->val.of.v128 + i * w, w);
        uint64_t quiet = w == 4 ? F32_EXP_QUIET : F64_EXP_QUIET;
        uint64_t abs = w == 4 ? F32_ABS : F64_ABS;
        if (e->lane_nan[i] == SPEC_EXPECT_NAN_CANONICAL) {
            if ((g & abs) != quiet) return false;
        } else if (e->lane_nan[i] == SPEC_EXPECT_NAN_ARITHMETIC) {
            if ((g & quiet) != quiet) return false;
        } else if (g != x) {
            return false;
        }
    }
    return true;
}

/* A v128 as lanes of `bits` in hex, lane 0 first; NaN classes by name. */
static void format_v128(spec_buf *b, const uint8_t *bytes, unsigned bits, const uint8_t *nan)
{
    unsigned w = bits / 8;
    spec_buf_printf(b, "v128:i%ux%u:", bits, 128 / bits);
    for (unsigned i = 0; i < 16 / w; i++) {
        uint64_t x = 0;
        memcpy(&x, bytes + i * w, w);
        if (nan && nan[i])
            spec_buf_printf(b, " %s", nan[i] == SPEC_EXPECT_NAN_CANONICAL ? "nan:canonical" : "nan:arithmetic");
        else
            spec_buf_printf(b, " 0x%0*llx", (int)(2 * w), (unsigned long long)x);
    }
}

void spec_format_val(spec_buf *b, const weft_val *v)
{
    switch (v->type) {
    case WEFT_I32:
        spec_buf_printf(b, "i32:%u", (unsigned)(uint32_t)v->of.i32);
        if (v->of.i32 < 0)
            spec_buf_printf(b, "(%d)", (int)v->of.i32);
        break;
    case WEFT_I64:
        spec_buf_printf(b, "i64:%llu", (unsigned long long)(uint64_t)v->of.i64);
        if (v->of.i64 < 0)
            spec_buf_printf(b, "(%lld)", (long long)v->of.i64);
        break;
    case WEFT_F32: {
        float f;
        uint32_t bits = v->of.f32_bits;
        memcpy(&f, &bits, sizeof f);
        spec_buf_printf(b, "f32:0x%08x(%.9g)", (unsigned)bits, (double)f);
        break;
    }
    case WEFT_F64: {
        double d;
        uint64_t bits = v->of.f64_bits;
        memcpy(&d, &bits, sizeof d);
        spec_buf_printf(b, "f64:0x%016llx(%.17g)", (unsigned long long)bits, d);
        break;
    }
    case WEFT_FUNCREF:
        spec_buf_printf(b, "funcref:%s", v->of.func ? "non-null" : "null");
        break;
    case WEFT_EXTERNREF:
        if (!v->of.externref)
            spec_buf_printf(b, "externref:null");
        else
            spec_buf_printf(b, "externref:%llu",
                            (unsigned long long)((uintptr_t)v->of.externref - 1));
        break;
    case WEFT_EXNREF:
        spec_buf_printf(b, "exnref:%s", v->of.exnref ? "non-null" : "null");
        break;
    case WEFT_V128:
        format_v128(b, v->of.v128, 32, NULL);
        break;
    default:
        spec_buf_printf(b, "(value of type 0x%02x)", (unsigned)v->type);
        break;
    }
}

void spec_format_expect(spec_buf *b, const spec_expect *e)
{
    const char *t = spec_type_name(e->val.type);
    switch (e->kind) {
    case SPEC_EXPECT_VALUE:
        if (e->val.type == WEFT_V128)
            format_v128(b, e->val.of.v128, e->lane_bits, e->lane_nan);
        else
            spec_format_val(b, &e->val);
        break;
    case SPEC_EXPECT_NAN_CANONICAL: spec_buf_printf(b, "%s:nan:canonical", t); break;
    case SPEC_EXPECT_NAN_ARITHMETIC: spec_buf_printf(b, "%s:nan:arithmetic", t); break;
    case SPEC_EXPECT_NONNULL_REF: spec_buf_printf(b, "%s:non-null", t); break;
    case SPEC_EXPECT_TYPE: spec_buf_printf(b, "%s:any", t); break;
    }
}
