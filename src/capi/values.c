/* values.c — wasm_val_t: delete, copy, and the conversions to and from
   weft_val that calls, globals and tables go through.

   References in wasm: a funcref is the weft_func*; an externref is the
   capi_obj* of whatever reference the host passed (a foreign object, a
   function, ... any kind), which the store holds for as long as wasm might
   (capi_obj_pin for the kinds a store does not hold anyway). */
#include "capi.h"

void wasm_val_delete(own wasm_val_t *v) {
    if (v && wasm_valkind_is_ref(v->kind) && v->of.ref) {
        capi_obj_unref(CAPI_OBJ(v->of.ref));
        v->of.ref = NULL;
    }
}

void wasm_val_copy(own wasm_val_t *out, const wasm_val_t *v) {
    *out = *v;
    if (wasm_valkind_is_ref(v->kind)) capi_obj_ref(CAPI_OBJ(v->of.ref));
}

bool capi_val_to_weft(wasm_store_t *store, const wasm_val_t *v, weft_valtype want, weft_val *out,
                      const char **why) {
    out->type = want;
    out->of.bits = 0;
    switch (want) {
    case WEFT_I32:
        if (v->kind != WASM_I32) break;
        out->of.i32 = v->of.i32;
        return true;
    case WEFT_I64:
        if (v->kind != WASM_I64) break;
        out->of.i64 = v->of.i64;
        return true;
    case WEFT_F32:
        if (v->kind != WASM_F32) break;
        memcpy(&out->of.f32_bits, &v->of.f32, 4);
        return true;
    case WEFT_F64:
        if (v->kind != WASM_F64) break;
        memcpy(&out->of.f64_bits, &v->of.f64, 8);
        return true;
    case WEFT_FUNCREF: {
        /* Hosts write WASM_REF_VAL (kind externref) for any reference, as
           upstream's examples do: the reference's own kind decides. */
        if (!wasm_valkind_is_ref(v->kind)) break;
        const capi_obj *o = CAPI_OBJ(v->of.ref);
        if (o && (o->kind != CAPI_FUNC || !o->of.func || o->store != store)) {
            *why = "a funcref must be a function of the same store (or null)";
            return false;
        }
        out->of.func = o ? o->of.func : NULL;
        return true;
    }
    case WEFT_EXTERNREF: {
        if (!wasm_valkind_is_ref(v->kind)) break;
        capi_obj *o = CAPI_OBJ(v->of.ref);
        if (o && o->in_store && o->store != store) {
            /* Its store may go first and take the object with it. */
            *why = "an externref must be a reference of the same store (or a module, a trap, or null)";
            return false;
        }
        if (o && !capi_obj_pin(store, o)) {
            *why = "out of memory";
            return false;
        }
        out->of.externref = o;
        return true;
    }
    case WEFT_V128:
        *why = "v128 values cannot be passed through wasm.h (wasm_val_t has no v128)";
        return false;
    }
    *why = "a value of the wrong kind";
    return false;
}

bool capi_val_from_weft(wasm_store_t *store, const weft_val *v, wasm_val_t *out, bool owned) {
    switch (v->type) {
    case WEFT_I32: out->kind = WASM_I32; out->of.i32 = v->of.i32; return true;
    case WEFT_I64: out->kind = WASM_I64; out->of.i64 = v->of.i64; return true;
    case WEFT_F32: out->kind = WASM_F32; memcpy(&out->of.f32, &v->of.f32_bits, 4); return true;
    case WEFT_F64: out->kind = WASM_F64; memcpy(&out->of.f64, &v->of.f64_bits, 8); return true;
    case WEFT_FUNCREF: {
        out->kind = WASM_FUNCREF;
        out->of.ref = NULL;
        if (!v->of.func) return true;
        capi_obj *o = capi_store_obj(store, CAPI_FUNC, v->of.func);
        if (!o) return false;
        out->of.ref = (wasm_ref_t *)(owned ? capi_obj_ref(o) : o);
        return true;
    }
    case WEFT_EXTERNREF: {
        out->kind = WASM_EXTERNREF;
        capi_obj *o = v->of.externref;
        out->of.ref = (wasm_ref_t *)(owned ? capi_obj_ref(o) : o);
        return true;
    }
    }
    out->kind = WASM_V128;
    out->of.i64 = 0;
    return false;
}
