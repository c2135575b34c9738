/* trap.c — traps and their frames.

   A trap owns its message (NUL-terminated, the NUL counted in size) and
   its frames (innermost first). A frame names its instance, function
   index, and the instruction's offset from the function body's first
   instruction and from the module's start. weft's backtrace (weft_error)
   gives each frame's module and module offset; the instance is the
   instance of that module in the store that the call went to (the called
   function's own when the module matches, else the first one found), so
   it is exact unless two instances of one module call each other. */
#include <stdio.h>

#include "capi.h"

struct wasm_frame_t {
    capi_obj *instance;        /* counted, or NULL */
    uint32_t func_index;
    size_t func_offset;
    size_t module_offset;
};

struct capi_trap {
    wasm_message_t message;
    bool is_exit;              /* a WASI exit, not a trap */
    int32_t exit_code;
    size_t nframes;
    wasm_frame_t *frames;      /* nframes entries */
};

/* ---- frames ---- */

static wasm_frame_t *capi_frame_new(const wasm_frame_t *f) {
    wasm_frame_t *c = malloc(sizeof *c);
    if (!c) return NULL;
    *c = *f;
    capi_obj_ref(c->instance);
    return c;
}

void wasm_frame_delete(own wasm_frame_t *frame) {
    if (!frame) return;
    capi_obj_unref(frame->instance);
    free(frame);
}

own wasm_frame_t *wasm_frame_copy(const wasm_frame_t *frame) { return frame ? capi_frame_new(frame) : NULL; }

struct wasm_instance_t *wasm_frame_instance(const wasm_frame_t *frame) {
    return frame ? (struct wasm_instance_t *)frame->instance : NULL;
}
uint32_t wasm_frame_func_index(const wasm_frame_t *frame) { return frame ? frame->func_index : 0; }
size_t wasm_frame_func_offset(const wasm_frame_t *frame) { return frame ? frame->func_offset : 0; }
size_t wasm_frame_module_offset(const wasm_frame_t *frame) { return frame ? frame->module_offset : 0; }

/* ---- traps ---- */

capi_obj *capi_trap_new(const char *message, size_t len) {
    capi_obj *o = capi_obj_new(CAPI_TRAP);
    capi_trap *t = calloc(1, sizeof *t);
    bool nul = len > 0 && message[len - 1] == 0;
    size_t size = nul ? len : len + 1;
    char *bytes = malloc(size);
    if (!o || !t || !bytes) {
        free(o);
        free(t);
        free(bytes);
        return NULL;
    }
    if (len) memcpy(bytes, message, len);
    bytes[size - 1] = 0;
    t->message.size = size;
    t->message.data = bytes;
    o->of.trap = t;
    return o;
}

capi_obj *capi_trap_fmt(const char *fmt, ...) {
    char buf[WEFT_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (n < 0) n = 0;
    return capi_trap_new(buf, strlen(buf));
}

void capi_trap_release(capi_obj *o) {
    capi_trap *t = o->of.trap;
    if (!t) return;
    for (size_t i = 0; i < t->nframes; i++) capi_obj_unref(t->frames[i].instance);
    free(t->frames);
    wasm_byte_vec_delete(&t->message);
    free(t);
    o->of.trap = NULL;
}

own wasm_trap_t *wasm_trap_new(wasm_store_t *store, const wasm_message_t *message) {
    BASE_UNUSED(store); /* traps do not live in stores */
    if (!message) return (wasm_trap_t *)capi_trap_new("", 0);
    return (wasm_trap_t *)capi_trap_new(message->data, message->size);
}

void wasm_trap_message(const wasm_trap_t *trap, own wasm_message_t *out) {
    const capi_obj *o = CAPI_OBJ(trap);
    if (!o || o->kind != CAPI_TRAP || !o->of.trap) {
        wasm_byte_vec_new_empty(out);
        return;
    }
    wasm_byte_vec_copy(out, &o->of.trap->message);
}

own wasm_frame_t *wasm_trap_origin(const wasm_trap_t *trap) {
    const capi_obj *o = CAPI_OBJ(trap);
    if (!o || o->kind != CAPI_TRAP || !o->of.trap || !o->of.trap->nframes) return NULL;
    return capi_frame_new(&o->of.trap->frames[0]);
}

void wasm_trap_trace(const wasm_trap_t *trap, own wasm_frame_vec_t *out) {
    const capi_obj *o = CAPI_OBJ(trap);
    size_t n = o && o->kind == CAPI_TRAP && o->of.trap ? o->of.trap->nframes : 0;
    wasm_frame_vec_new_uninitialized(out, n);
    for (size_t i = 0; i < out->size; i++)
        if (!(out->data[i] = capi_frame_new(&o->of.trap->frames[i]))) {
            wasm_frame_vec_delete(out); /* out of memory: nothing rather than a hole */
            return;
        }
}

bool weft_wasm_trap_exit_code(const wasm_trap_t *trap, int32_t *code) {
    const capi_obj *o = CAPI_OBJ(trap);
    if (!o || o->kind != CAPI_TRAP || !o->of.trap || !o->of.trap->is_exit) return false;
    if (code) *code = o->of.trap->exit_code;
    return true;
}

/* The store's instance object of `module`: `hint` when it is one, else
   the first in the store's map. NULL when none (the store may hold none
   when the trap came from a host-made function's call into another
   store's code, which linking forbids, or out of memory). */
static capi_obj *capi_frame_instance(wasm_store_t *store, const weft_module *module, weft_instance *hint) {
    if (!store || !module) return NULL;
    if (hint && weft_instance_module(hint) == module) return capi_store_obj(store, CAPI_INSTANCE, hint);
    const capi_map *m = &store->objs;
    for (size_t i = 0; i < m->cap; i++) {
        capi_obj *o = m->keys[i] ? m->vals[i] : NULL;
        if (o && o->kind == CAPI_INSTANCE && o->of.instance && weft_instance_module(o->of.instance) == module)
            return o;
    }
    return NULL;
}

/* Fills the trap's frames from weft's backtrace. False when out of memory. */
static bool capi_trap_set_frames(capi_trap *t, wasm_store_t *store, const weft_error *err, weft_instance *hint) {
    size_t n = 0;
    t->frames = err->frame_count ? base_calloc(err->frame_count, sizeof *t->frames) : NULL;
    if (err->frame_count && !t->frames) return false;
    for (uint32_t i = 0; i < err->frame_count; i++) {
        const weft_frame *wf = &err->frames[i];
        if (!wf->module) continue; /* a host frame: nothing the standard can name */
        wasm_frame_t *f = &t->frames[n++];
        f->func_index = wf->func_index;
        f->module_offset = wf->offset;
        uint32_t start = capi_func_body_offset(wf->module, wf->func_index);
        f->func_offset = start != UINT32_MAX && wf->offset >= start ? wf->offset - start : 0;
        f->instance = capi_obj_ref(capi_frame_instance(store, wf->module, hint));
    }
    t->nframes = n;
    return true;
}

capi_obj *capi_trap_from_error(wasm_store_t *store, const weft_error *err, weft_status st, weft_instance *hint) {
    capi_obj *o = NULL;
    if (st == WEFT_ERR_TRAP && err->trap == WEFT_TRAP_HOST && store && store->pending_trap) {
        /* A host function's own trap: hand that very object back. */
        o = store->pending_trap;
        store->pending_trap = NULL;
    } else {
        const char *msg = err->message[0] ? err->message : weft_status_name(st);
        o = capi_trap_new(msg, strlen(msg));
        if (!o) return NULL;
        if (st == WEFT_ERR_EXIT) {
            o->of.trap->is_exit = true;
            o->of.trap->exit_code = err->exit_code;
        }
    }
    if (o->of.trap && !o->of.trap->nframes && err->frame_count)
        capi_trap_set_frames(o->of.trap, store, err, hint); /* out of memory: no frames */
    return o;
}
