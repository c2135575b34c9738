/*
 * wave.h — WAVE, the WebAssembly Value Encoding (wasm-tools'
 * crates/wasm-wave README): component values as text, parsed against
 * their type and printed in the form wasm-wave's writer gives (what
 * `wasmtime run --invoke` takes and prints). Untrusted input: every
 * length is bounded by the text, nesting by CM_WAVE_MAX_DEPTH, values
 * by the arena's limit.
 */
#ifndef WEFT_COMPONENT_WAVE_H
#define WEFT_COMPONENT_WAVE_H

#include "ctype.h"

/* Nesting of the text (lists in lists, payloads...), wasm-wave's limit. */
#define CM_WAVE_MAX_DEPTH 100

/* Parses text[0..len) as one value of type t into *out (allocated in a).
   WEFT_ERR_MALFORMED with err->offset the byte where it goes wrong;
   WEFT_ERR_LIMIT when the arena's limit is reached. */
weft_status cm_wave_parse(const cm_valtype *t, const char *text, size_t len, cm_val *out,
                          cm_arena *a, weft_error *err);

/* Parses the argument list of a call, "(arg, ...)" at text[at..len) up to
   the end, against ft's parameters: *args gets ft->nparams values (trailing
   option parameters left out are none). Offsets in errors are of text. */
weft_status cm_wave_parse_args(const cm_functype *ft, const char *text, size_t len, size_t at,
                               cm_val **args, cm_arena *a, weft_error *err);

/* Where printing goes: at most cap - 1 bytes of buf and a NUL; len counts
   the whole text. */
typedef struct cm_wave_out {
    char *buf;
    size_t cap, len;
} cm_wave_out;

/* Prints v of type t (WEFT_ERR_MISUSE if v does not match t, or has no
   WAVE form: handles, streams, futures, maps). */
weft_status cm_wave_print(const cm_valtype *t, const cm_val *v, cm_wave_out *out,
                          weft_error *err);

/* A function's results as wasmtime prints them (wasm-wave's
   DisplayFuncResults): the one value, or "()" when there is none. */
weft_status cm_wave_print_results(const cm_functype *ft, const cm_val *result, cm_wave_out *out,
                                  weft_error *err);

/* The type as WIT-like text ("list<u32>", "record { a: u8 }"). */
void cm_wave_type_text(const cm_valtype *t, cm_wave_out *out);

#endif
