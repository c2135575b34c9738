/* errors.c — the names of statuses, traps and value types. */
#include "internal.h"

const char *weft_status_name(weft_status status) {
    switch (status) {
    case WEFT_OK: return "ok";
    case WEFT_SUSPENDED: return "suspended";
    case WEFT_ERR_MALFORMED: return "malformed module";
    case WEFT_ERR_INVALID: return "invalid module";
    case WEFT_ERR_LINK: return "link error";
    case WEFT_ERR_TRAP: return "trap";
    case WEFT_ERR_EXIT: return "exit";
    case WEFT_ERR_EXCEPTION: return "uncaught exception";
    case WEFT_ERR_NOMEM: return "out of memory";
    case WEFT_ERR_LIMIT: return "limit exceeded";
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

/* The spec's wording for each trap (the reference interpreter's messages,
   which the spec tests' assert_trap expect). */
static const char *const rt_trap_messages[WEFT_TRAP_COUNT_] = {
    [WEFT_TRAP_NONE] = "no trap",
    [WEFT_TRAP_UNREACHABLE] = "unreachable",
    [WEFT_TRAP_MEM_OOB] = "out of bounds memory access",
    [WEFT_TRAP_TABLE_OOB] = "out of bounds table access",
    [WEFT_TRAP_INDIRECT_OOB] = "undefined element",
    [WEFT_TRAP_INDIRECT_NULL] = "uninitialized element",
    [WEFT_TRAP_INDIRECT_TYPE] = "indirect call type mismatch",
    [WEFT_TRAP_DIV_ZERO] = "integer divide by zero",
    [WEFT_TRAP_INT_OVERFLOW] = "integer overflow",
    [WEFT_TRAP_BAD_CONVERSION] = "invalid conversion to integer",
    [WEFT_TRAP_STACK_EXHAUSTED] = "call stack exhausted",
    [WEFT_TRAP_NULL_REF] = "null reference",
    [WEFT_TRAP_UNALIGNED_ATOMIC] = "unaligned atomic",
    [WEFT_TRAP_EXPECTED_SHARED] = "expected shared memory",
    [WEFT_TRAP_HOST] = "host trap",
    [WEFT_TRAP_STOPPED] = "stopped",
    [WEFT_TRAP_OUT_OF_FUEL] = "all fuel consumed",
};

const char *weft_trap_message(weft_trap trap) {
    if ((unsigned)trap >= WEFT_TRAP_COUNT_) return "unknown trap";
    return rt_trap_messages[trap];
}

void rt_quote_name(char *buf, size_t cap, const char *s, size_t n) {
    static const char hex[] = "0123456789abcdef";
    size_t o = 0;
    if (cap == 0) return;
    /* Room for the closing quote and NUL is kept back; a name too long for
       the buffer ends in "..." inside the quotes. */
    if (cap < 8) { buf[0] = 0; return; }
    buf[o++] = '"';
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        char esc[4];
        size_t k = 0;
        if (c == '"' || c == '\\') { esc[k++] = '\\'; esc[k++] = (char)c; }
        else if (c < 0x20 || c == 0x7f) {
            esc[k++] = '\\'; esc[k++] = hex[c >> 4]; esc[k++] = hex[c & 15];
        } else esc[k++] = (char)c;
        if (o + k + 5 > cap) { memcpy(buf + o, "...", 3); o += 3; break; }
        memcpy(buf + o, esc, k);
        o += k;
    }
    buf[o++] = '"';
    buf[o] = 0;
}
