/*
 * cabi_string.c — strings in the canonical ABI (CanonicalABI.md
 * "Loading": load_string_from_range; "Storing": store_string_into_range
 * and its transcoders), between a component's encoding (utf8, utf16,
 * latin1+utf16) and cm_val's UTF-8.
 *
 * Lifting copies the bytes out of linear memory once and decodes the copy
 * (a memory another thread writes cannot make it inconsistent), trapping
 * on what Python's strict codecs refuse: for UTF-8 a byte that starts no
 * sequence, a bad continuation, an overlong form, a surrogate or a code
 * point past U+10FFFF, a sequence cut by the end; for UTF-16 an unpaired
 * surrogate. latin1 cannot fail.
 *
 * Lowering follows the spec's functions one for one, with the same
 * realloc calls (the same arguments, in the same order) and the same
 * memory writes, including the reads back from memory after a realloc
 * (store_string_to_latin1_or_utf16 widens what realloc copied, in
 * place): a guest realloc that does not copy sees the same bytes as under
 * the reference. The source encoding is the value's str_src (ctype.h); a
 * string claiming latin1 with a character past U+00FF is taken as UTF-8.
 */
#include "cabi_impl.h"

/* ---- UTF-8 ---------------------------------------------------------------- */

/* Facts about a valid UTF-8 string. */
typedef struct u8_stats {
    uint64_t cps;   /* code points */
    uint64_t u16;   /* UTF-16 code units */
    uint32_t max;   /* the largest code point (0 if empty); where ASCII runs were
                       skipped eight bytes at a time, a bound below 0x80 no
                       smaller than theirs (it is only compared with 0x100) */
} u8_stats;

/* Checks s[0..n) as Python's strict utf-8 decoder does. Returns n when
   valid; else the offset of the bad sequence, with *cut set when it is a
   sequence the end cuts short (nothing wrong in the bytes present). */
static size_t u8_check(const uint8_t *s, size_t n, u8_stats *st, bool *cut) {
    size_t i = 0;
    *cut = false;
    if (st) *st = (u8_stats){0};
    while (i < n) {
        /* ASCII eight bytes at a time (1 KiB took 10 us byte by byte) */
        size_t from = i;
        uint64_t any = 0;
        while (i + 8 <= n) {
            uint64_t w;
            memcpy(&w, s + i, 8);
            if (w & 0x8080808080808080ull) break;
            any |= w;
            i += 8;
        }
        if (st && i > from) {
            st->cps += i - from;
            st->u16 += i - from;
            uint8_t b_or = 0; /* >= each byte's value, below 0x80 */
            for (unsigned k = 0; k < 8; k++) b_or |= (uint8_t)(any >> (8 * k));
            if (b_or > st->max) st->max = b_or;
        }
        if (i >= n) break;
        uint8_t b = s[i];
        uint32_t cp;
        size_t len;
        uint8_t lo = 0x80, hi = 0xbf; /* the second byte's range */
        if (b < 0x80) {
            cp = b;
            len = 1;
        } else if (b < 0xc2) {
            return i; /* a continuation byte, or the overlong C0/C1 */
        } else if (b < 0xe0) {
            cp = b & 0x1f;
            len = 2;
        } else if (b < 0xf0) {
            cp = b & 0x0f;
            len = 3;
            if (b == 0xe0) lo = 0xa0;      /* overlong */
            else if (b == 0xed) hi = 0x9f; /* surrogates */
        } else if (b < 0xf5) {
            cp = b & 0x07;
            len = 4;
            if (b == 0xf0) lo = 0x90;      /* overlong */
            else if (b == 0xf4) hi = 0x8f; /* past U+10FFFF */
        } else {
            return i;
        }
        for (size_t k = 1; k < len; k++) {
            if (i + k >= n) {
                *cut = true;
                return i;
            }
            uint8_t c = s[i + k];
            if (k == 1 ? (c < lo || c > hi) : (c < 0x80 || c > 0xbf)) return i;
            cp = cp << 6 | (c & 0x3f);
        }
        if (st) {
            st->cps++;
            st->u16 += cp >= 0x10000 ? 2 : 1;
            if (cp > st->max) st->max = cp;
        }
        i += len;
    }
    return n;
}

/* The code point at s[*i] of a valid string; advances *i. */
static uint32_t u8_next(const uint8_t *s, size_t *i) {
    uint8_t b = s[*i];
    if (b < 0x80) {
        *i += 1;
        return b;
    }
    size_t len = b < 0xe0 ? 2 : b < 0xf0 ? 3 : 4;
    uint32_t cp = b & (len == 2 ? 0x1f : len == 3 ? 0x0f : 0x07);
    for (size_t k = 1; k < len; k++) cp = cp << 6 | (s[*i + k] & 0x3f);
    *i += len;
    return cp;
}

static size_t u8_put(uint8_t *o, uint32_t cp) {
    if (cp < 0x80) {
        o[0] = (uint8_t)cp;
        return 1;
    }
    if (cp < 0x800) {
        o[0] = (uint8_t)(0xc0 | cp >> 6);
        o[1] = (uint8_t)(0x80 | (cp & 0x3f));
        return 2;
    }
    if (cp < 0x10000) {
        o[0] = (uint8_t)(0xe0 | cp >> 12);
        o[1] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
        o[2] = (uint8_t)(0x80 | (cp & 0x3f));
        return 3;
    }
    o[0] = (uint8_t)(0xf0 | cp >> 18);
    o[1] = (uint8_t)(0x80 | (cp >> 12 & 0x3f));
    o[2] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
    o[3] = (uint8_t)(0x80 | (cp & 0x3f));
    return 4;
}

/* ---- lifting: load_string_from_range --------------------------------------- */

weft_status cm_abi_load_string(cm_abi_cx *cx, uint32_t ptr, uint32_t tagged_code_units,
                               cm_val *out) {
    uint32_t alignment;
    uint64_t byte_length;
    cm_str_src form;
    switch (cx->opts->encoding) {
    case CM_ENC_UTF8:
        alignment = 1;
        byte_length = tagged_code_units;
        form = CM_STR_UTF8;
        break;
    case CM_ENC_UTF16:
        alignment = 2;
        byte_length = 2 * (uint64_t)tagged_code_units;
        form = CM_STR_UTF16;
        break;
    default: /* latin1+utf16 */
        alignment = 2;
        if (tagged_code_units & CM_UTF16_TAG) {
            byte_length = 2 * (uint64_t)(tagged_code_units ^ CM_UTF16_TAG);
            form = CM_STR_LATIN1_UTF16;
        } else {
            byte_length = tagged_code_units;
            form = CM_STR_LATIN1;
        }
        break;
    }
    if (byte_length > CM_MAX_STRING_BYTE_LENGTH)
        return cm_trap_fail(cx->err, CM_TRAP_STRING_LENGTH, "%llu bytes (at most %u)",
                            (unsigned long long)byte_length, CM_MAX_STRING_BYTE_LENGTH);
    if (ptr % alignment)
        return cm_trap_fail(cx->err, CM_TRAP_UNALIGNED, "string at %u, alignment %u", ptr,
                            alignment);
    if (!cm_in_range(cx, ptr, byte_length))
        return cm_trap_fail(cx->err, CM_TRAP_STRING_OOB,
                            "string pointer/length out of bounds of memory (%u + %llu > %llu)",
                            ptr, (unsigned long long)byte_length,
                            (unsigned long long)cx->mem_size);
    const uint8_t *src = byte_length ? cx->mem + ptr : NULL;
    uint8_t *o;
    size_t n = 0;
    if (form == CM_STR_UTF8) {
        o = cm_abi_alloc(cx, byte_length ? byte_length : 1, 1);
        if (!o) return WEFT_ERR_TRAP;
        if (byte_length) memcpy(o, src, byte_length);
        bool cut;
        size_t bad = u8_check(o, byte_length, NULL, &cut);
        if (bad != byte_length)
            return cm_trap_fail(cx->err, CM_TRAP_UTF8, "%s at byte %zu of the string at %u",
                                cut ? "incomplete utf-8 byte sequence" : "invalid byte sequence",
                                bad, ptr);
        n = byte_length;
    } else if (form == CM_STR_LATIN1) {
        o = cm_abi_alloc(cx, 2 * byte_length + 1, 1);
        if (!o) return WEFT_ERR_TRAP;
        for (uint64_t i = 0; i < byte_length; i++) n += u8_put(o + n, src[i]);
    } else {
        uint64_t units = byte_length / 2;
        o = cm_abi_alloc(cx, 3 * units + 1, 1);
        if (!o) return WEFT_ERR_TRAP;
        for (uint64_t i = 0; i < units; i++) {
            uint32_t u = (uint32_t)src[2 * i] | (uint32_t)src[2 * i + 1] << 8;
            if (u >= 0xd800 && u < 0xe000) {
                uint32_t lo = 0;
                if (u < 0xdc00 && i + 1 < units)
                    lo = (uint32_t)src[2 * i + 2] | (uint32_t)src[2 * i + 3] << 8;
                if (u >= 0xdc00 || lo < 0xdc00 || lo >= 0xe000)
                    return cm_trap_fail(cx->err, CM_TRAP_UTF16,
                                        "unpaired surrogate 0x%04x at code unit %llu of the string "
                                        "at %u",
                                        u, (unsigned long long)i, ptr);
                u = 0x10000 + ((u - 0xd800) << 10) + (lo - 0xdc00);
                i++;
            }
            n += u8_put(o + n, u);
        }
    }
    out->kind = CM_STRING;
    out->n = (uint32_t)n;
    out->v.str = (const char *)o;
    out->v.str_src = (uint8_t)form;
    return WEFT_OK;
}

/* ---- lowering: store_string_into_range ------------------------------------- */

/* The string being stored: its UTF-8 and what it is made of. */
typedef struct src_str {
    const uint8_t *s;
    size_t n;
    u8_stats st;
} src_str;

/* Writes the UTF-8 bytes s[from..n) at ptr (in range: checked by caller). */
static void put_utf8(cm_abi_cx *cx, uint64_t ptr, const src_str *src, size_t from) {
    if (src->n > from) memcpy(cx->mem + ptr, src->s + from, src->n - from);
}

/* Writes the UTF-16LE code units of the characters from byte `from` at
   ptr; returns how many bytes. */
static uint64_t put_utf16(cm_abi_cx *cx, uint64_t ptr, const src_str *src, size_t from) {
    uint64_t o = ptr;
    size_t i = from;
    while (i < src->n) {
        uint32_t cp = u8_next(src->s, &i);
        if (cp >= 0x10000) {
            cp -= 0x10000;
            cm_wr(cx, o, 0xd800 | cp >> 10, 2);
            cm_wr(cx, o + 2, 0xdc00 | (cp & 0x3ff), 2);
            o += 4;
        } else {
            cm_wr(cx, o, cp, 2);
            o += 2;
        }
    }
    return o - ptr;
}

/* Writes each character (all below U+0100) as one byte. */
static void put_latin1(cm_abi_cx *cx, uint64_t ptr, const src_str *src) {
    size_t i = 0;
    uint64_t o = ptr;
    while (i < src->n) cx->mem[o++] = (uint8_t)u8_next(src->s, &i);
}

/* The trap_if checks after an allocate or reallocate: alignment (when
   the spec checks it there) and bounds. */
static weft_status check_alloc(cm_abi_cx *cx, uint32_t ptr, uint32_t align, uint64_t len) {
    if (align > 1 && ptr % align)
        return cm_trap_fail(cx->err, CM_TRAP_REALLOC_UNALIGNED,
                            "%u for a string, alignment %u", ptr, align);
    if (!cm_in_range(cx, ptr, len))
        return cm_trap_fail(cx->err, CM_TRAP_REALLOC_OOB,
                            "string content out-of-bounds (%u + %llu > %llu)", ptr,
                            (unsigned long long)len, (unsigned long long)cx->mem_size);
    return WEFT_OK;
}

#define REALLOC_I32_MAX 0xffffffffull

static weft_status too_long(cm_abi_cx *cx, uint64_t bytes) {
    return base_fail(cx->err, WEFT_ERR_LIMIT,
                     "a string needing %llu bytes cannot be lowered into a 32-bit memory",
                     (unsigned long long)bytes);
}

/* store_string_copy(cx, src, src_code_units, dst_code_unit_size, dst_alignment, dst_encoding) */
enum dst_enc { DST_UTF8, DST_UTF16, DST_LATIN1 };

static weft_status store_copy(cm_abi_cx *cx, const src_str *src, uint64_t src_code_units,
                              uint32_t unit_size, uint32_t align, enum dst_enc enc,
                              uint32_t *out_ptr, uint32_t *out_units) {
    uint64_t dst_byte_length = unit_size * src_code_units;
    if (dst_byte_length > REALLOC_I32_MAX) return too_long(cx, dst_byte_length);
    uint32_t ptr;
    weft_status st = cm_abi_reallocate(cx, 0, 0, align, (uint32_t)dst_byte_length, &ptr);
    if (st == WEFT_OK) st = check_alloc(cx, ptr, align, dst_byte_length);
    if (st != WEFT_OK) return st;
    if (enc == DST_UTF8) put_utf8(cx, ptr, src, 0);
    else if (enc == DST_UTF16) put_utf16(cx, ptr, src, 0);
    else put_latin1(cx, ptr, src);
    *out_ptr = ptr;
    *out_units = (uint32_t)src_code_units;
    return WEFT_OK;
}

/* store_string_to_utf8 (from utf16 or latin1: store_utf16_to_utf8,
   store_latin1_to_utf8) */
static weft_status store_to_utf8(cm_abi_cx *cx, const src_str *src, uint64_t src_code_units,
                                 uint64_t worst_case_size, uint32_t *out_ptr,
                                 uint32_t *out_units) {
    if (src_code_units > REALLOC_I32_MAX) return too_long(cx, src_code_units);
    uint32_t ptr;
    weft_status st = cm_abi_reallocate(cx, 0, 0, 1, (uint32_t)src_code_units, &ptr);
    if (st == WEFT_OK) st = check_alloc(cx, ptr, 1, src_code_units);
    if (st != WEFT_OK) return st;
    size_t i = 0, at = 0; /* i: the character's index, at: its byte offset */
    while (at < src->n) {
        size_t next = at;
        uint32_t cp = u8_next(src->s, &next);
        if (cp < 0x80) {
            cx->mem[(uint64_t)ptr + i] = (uint8_t)cp;
            i++;
            at = next;
            continue;
        }
        /* the first non-ASCII character: every one before was one byte */
        if (worst_case_size > REALLOC_I32_MAX) return too_long(cx, worst_case_size);
        st = cm_abi_reallocate(cx, ptr, (uint32_t)src_code_units, 1, (uint32_t)worst_case_size,
                               &ptr);
        if (st == WEFT_OK) st = check_alloc(cx, ptr, 1, worst_case_size);
        if (st != WEFT_OK) return st;
        put_utf8(cx, (uint64_t)ptr + i, src, i);
        if (worst_case_size > src->n) {
            st = cm_abi_reallocate(cx, ptr, (uint32_t)worst_case_size, 1, (uint32_t)src->n, &ptr);
            if (st == WEFT_OK) st = check_alloc(cx, ptr, 1, src->n);
            if (st != WEFT_OK) return st;
        }
        *out_ptr = ptr;
        *out_units = (uint32_t)src->n;
        return WEFT_OK;
    }
    *out_ptr = ptr;
    *out_units = (uint32_t)src_code_units;
    return WEFT_OK;
}

/* store_utf8_to_utf16 */
static weft_status store_utf8_to_utf16(cm_abi_cx *cx, const src_str *src,
                                       uint64_t src_code_units, uint32_t *out_ptr,
                                       uint32_t *out_units) {
    uint64_t worst_case_size = 2 * src_code_units;
    if (worst_case_size > REALLOC_I32_MAX) return too_long(cx, worst_case_size);
    uint32_t ptr;
    weft_status st = cm_abi_reallocate(cx, 0, 0, 2, (uint32_t)worst_case_size, &ptr);
    if (st == WEFT_OK) st = check_alloc(cx, ptr, 2, worst_case_size);
    if (st != WEFT_OK) return st;
    uint64_t len = put_utf16(cx, ptr, src, 0);
    if (len < worst_case_size) {
        st = cm_abi_reallocate(cx, ptr, (uint32_t)worst_case_size, 2, (uint32_t)len, &ptr);
        if (st == WEFT_OK) st = check_alloc(cx, ptr, 2, len);
        if (st != WEFT_OK) return st;
    }
    *out_ptr = ptr;
    *out_units = (uint32_t)(len / 2);
    return WEFT_OK;
}

/* store_string_to_latin1_or_utf16 */
static weft_status store_to_latin1_or_utf16(cm_abi_cx *cx, const src_str *src,
                                            uint64_t src_code_units, uint32_t *out_ptr,
                                            uint32_t *out_units) {
    if (src_code_units > REALLOC_I32_MAX) return too_long(cx, src_code_units);
    uint32_t ptr;
    weft_status st = cm_abi_reallocate(cx, 0, 0, 2, (uint32_t)src_code_units, &ptr);
    if (st == WEFT_OK) st = check_alloc(cx, ptr, 2, src_code_units);
    if (st != WEFT_OK) return st;
    uint64_t dst_byte_length = 0;
    size_t at = 0;
    while (at < src->n) {
        size_t next = at;
        uint32_t usv = u8_next(src->s, &next);
        if (usv < 0x100) {
            cx->mem[(uint64_t)ptr + dst_byte_length] = (uint8_t)usv;
            dst_byte_length++;
            at = next;
            continue;
        }
        uint64_t worst_case_size = 2 * src_code_units;
        if (worst_case_size > REALLOC_I32_MAX) return too_long(cx, worst_case_size);
        st = cm_abi_reallocate(cx, ptr, (uint32_t)src_code_units, 2, (uint32_t)worst_case_size,
                               &ptr);
        if (st == WEFT_OK) st = check_alloc(cx, ptr, 2, worst_case_size);
        if (st != WEFT_OK) return st;
        /* widen the latin1 bytes written so far (as realloc left them) in place */
        for (uint64_t j = dst_byte_length; j-- > 0;) {
            cx->mem[ptr + 2 * j] = cx->mem[ptr + j];
            cx->mem[ptr + 2 * j + 1] = 0;
        }
        uint64_t len = 2 * dst_byte_length + put_utf16(cx, ptr + 2 * dst_byte_length, src, at);
        if (worst_case_size > len) {
            st = cm_abi_reallocate(cx, ptr, (uint32_t)worst_case_size, 2, (uint32_t)len, &ptr);
            if (st == WEFT_OK) st = check_alloc(cx, ptr, 2, len);
            if (st != WEFT_OK) return st;
        }
        *out_ptr = ptr;
        *out_units = (uint32_t)(len / 2) | CM_UTF16_TAG;
        return WEFT_OK;
    }
    if (dst_byte_length < src_code_units) {
        st = cm_abi_reallocate(cx, ptr, (uint32_t)src_code_units, 2, (uint32_t)dst_byte_length,
                               &ptr);
        if (st == WEFT_OK) st = check_alloc(cx, ptr, 2, dst_byte_length);
        if (st != WEFT_OK) return st;
    }
    *out_ptr = ptr;
    *out_units = (uint32_t)dst_byte_length;
    return WEFT_OK;
}

/* store_probably_utf16_to_latin1_or_utf16 */
static weft_status store_probably_utf16(cm_abi_cx *cx, const src_str *src,
                                        uint64_t src_code_units, uint32_t *out_ptr,
                                        uint32_t *out_units) {
    uint64_t src_byte_length = 2 * src_code_units;
    if (src_byte_length > REALLOC_I32_MAX) return too_long(cx, src_byte_length);
    uint32_t ptr;
    weft_status st = cm_abi_reallocate(cx, 0, 0, 2, (uint32_t)src_byte_length, &ptr);
    if (st == WEFT_OK) st = check_alloc(cx, ptr, 2, src_byte_length);
    if (st != WEFT_OK) return st;
    uint64_t len = put_utf16(cx, ptr, src, 0);
    if (src->st.max >= 0x100) {
        *out_ptr = ptr;
        *out_units = (uint32_t)(len / 2) | CM_UTF16_TAG;
        return WEFT_OK;
    }
    uint64_t latin1_size = len / 2;
    for (uint64_t i = 0; i < latin1_size; i++) cx->mem[ptr + i] = cx->mem[ptr + 2 * i];
    st = cm_abi_reallocate(cx, ptr, (uint32_t)src_byte_length, 1, (uint32_t)latin1_size, &ptr);
    if (st == WEFT_OK) st = check_alloc(cx, ptr, 1, latin1_size);
    if (st != WEFT_OK) return st;
    *out_ptr = ptr;
    *out_units = (uint32_t)latin1_size;
    return WEFT_OK;
}

weft_status cm_abi_store_string(cm_abi_cx *cx, const cm_val *v, uint32_t *ptr,
                                uint32_t *tagged_code_units) {
    src_str src = {.s = (const uint8_t *)v->v.str, .n = v->n};
    if (src.n && !src.s) return base_fail(cx->err, WEFT_ERR_MISUSE, "a string value without bytes");
    bool cut;
    if (u8_check(src.s, src.n, &src.st, &cut) != src.n)
        return base_fail(cx->err, WEFT_ERR_MISUSE, "a string value that is not valid UTF-8");
    cm_str_src form = v->v.str_src <= CM_STR_LATIN1_UTF16 ? v->v.str_src : CM_STR_UTF8;
    if (form == CM_STR_LATIN1 && src.st.max >= 0x100) form = CM_STR_UTF8;
    /* src_code_units: in the source's encoding */
    uint64_t units = form == CM_STR_UTF8     ? src.n
                     : form == CM_STR_LATIN1 ? src.st.cps
                                             : src.st.u16;
    switch (cx->opts->encoding) {
    case CM_ENC_UTF8:
        switch (form) {
        case CM_STR_UTF8: return store_copy(cx, &src, units, 1, 1, DST_UTF8, ptr, tagged_code_units);
        case CM_STR_LATIN1: return store_to_utf8(cx, &src, units, 2 * units, ptr, tagged_code_units);
        default: return store_to_utf8(cx, &src, units, 3 * units, ptr, tagged_code_units);
        }
    case CM_ENC_UTF16:
        switch (form) {
        case CM_STR_UTF8: return store_utf8_to_utf16(cx, &src, units, ptr, tagged_code_units);
        default: return store_copy(cx, &src, units, 2, 2, DST_UTF16, ptr, tagged_code_units);
        }
    default: /* latin1+utf16 */
        switch (form) {
        case CM_STR_UTF8:
        case CM_STR_UTF16: return store_to_latin1_or_utf16(cx, &src, units, ptr, tagged_code_units);
        case CM_STR_LATIN1: return store_copy(cx, &src, units, 1, 2, DST_LATIN1, ptr, tagged_code_units);
        default: return store_probably_utf16(cx, &src, units, ptr, tagged_code_units);
        }
    }
}
