/*
 * ctx.c — the WASI 0.2 instance state: building the type trees and host
 * instances from witgen.py's rows, the tables of host objects, and the
 * helpers the package files share (values in the call's arena, traps,
 * calls into the preview1 layer).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "../component/instance.h"
#include "wasip2.h"

/* ---- Types and instances from the rows ---- */

static const cm_valtype *wp2_type(const wp2_ctx *x, wp2_tref t) {
    if (t == WP2_NONE) return NULL;
    if (t < 0) return cm_prim((cm_kind)(-1 - t));
    return &x->nodes[t];
}

static void wp2_build(wp2_ctx *x) {
    for (uint32_t i = 0; i < WP2_RES_COUNT; i++) {
        x->res[i].name = wp2_resource_descs[i].name;
        x->res[i].dtor = wp2_resource_descs[i].dtor;
        x->res[i].dtor_env = x;
        x->res[i].owner = NULL; /* a host's resource */
    }
    for (uint32_t i = 0; i < WP2_NFIELDS; i++) {
        x->fields[i].name = wp2_field_descs[i].name;
        x->fields[i].name_len = (uint32_t)strlen(wp2_field_descs[i].name);
        x->fields[i].type = wp2_type(x, wp2_field_descs[i].type);
    }
    for (uint32_t i = 0; i < WP2_NMEMBERS; i++) x->members[i] = wp2_type(x, wp2_member_descs[i]);
    for (uint32_t i = 0; i < WP2_NNODES; i++) {
        const wp2_node_desc *d = &wp2_node_descs[i];
        cm_valtype *t = &x->nodes[i];
        t->kind = d->kind;
        t->n = d->n;
        if (d->kind == CM_TUPLE) t->members = &x->members[d->first];
        else if (d->n) t->fields = &x->fields[d->first];
        t->elem = wp2_type(x, d->elem);
        t->elem2 = wp2_type(x, d->elem2);
        t->resource = d->res >= 0 ? &x->res[d->res] : NULL;
        t->size = d->size;
        t->align = d->align;
        t->flat_count = d->flat;
    }
    for (uint32_t i = 0; i < WP2_NFUNCTYPES; i++) {
        const wp2_functype_desc *d = &wp2_functype_descs[i];
        x->functypes[i] = (cm_functype){d->nparams, d->nparams ? &x->fields[d->first_param] : NULL,
                                        wp2_type(x, d->result), false};
    }
    for (uint32_t i = 0; i < WP2_NFUNCS; i++)
        x->funcs[i] = (cm_host_func){wp2_func_descs[i].name,
                                     &x->functypes[wp2_func_descs[i].functype],
                                     wp2_func_descs[i].fn, NULL};
    for (uint32_t i = 0; i < WP2_NHRES; i++)
        x->hres[i] = (cm_host_resource){wp2_hres_descs[i].name, &x->res[wp2_hres_descs[i].res]};
    for (uint32_t i = 0; i < WP2_NTYPES; i++) {
        x->types[i].name = wp2_type_descs[i].name;
        x->types[i].name_len = (uint32_t)strlen(wp2_type_descs[i].name);
        x->types[i].type = wp2_type(x, wp2_type_descs[i].type);
    }
    for (uint32_t i = 0; i < WP2_NINSTANCES; i++) {
        const wp2_instance_desc *d = &wp2_instance_descs[i];
        x->instances[i] = (cm_host_instance){
            .name = d->name, .nfuncs = d->nfuncs, .nresources = d->nres,
            .funcs = d->nfuncs ? &x->funcs[d->first_func] : NULL,
            .resources = d->nres ? &x->hres[d->first_res] : NULL,
            .ntypes = d->ntypes, .types = d->ntypes ? &x->types[d->first_type] : NULL};
    }
}

bool wp2_fill_random(weft_wasi *w, void *buf, size_t len) {
    if (w->random_hook && w->random_hook(w->block_env, buf, len)) return true;
    size_t done = 0;
    while (done < len) {
        ssize_t n = getrandom((uint8_t *)buf + done, len - done, 0);
        if (n < 0) return false;
        done += (size_t)n;
    }
    return true;
}

weft_status wp2_ctx_new(const weft_wasi_config *config, wp2_ctx **out, weft_error *err) {
    if (!out) return wasi_fail(err, WEFT_ERR_MISUSE, "wp2_ctx_new: out is NULL");
    *out = NULL;
    wp2_ctx *x = calloc(1, sizeof *x);
    if (!x) return wasi_fail(err, WEFT_ERR_NOMEM, "out of memory");
    weft_status st = weft_wasi_new(config, &x->w, err);
    if (st != WEFT_OK) {
        free(x);
        return st;
    }
    if (!wp2_fill_random(x->w, x->insecure_seed, sizeof x->insecure_seed) ||
        !wp2_fill_random(x->w, x->hash_key, sizeof x->hash_key)) {
        weft_wasi_free(x->w);
        free(x);
        return wasi_fail(err, WEFT_ERR_IO, "cannot read the host's random source");
    }
    wp2_build(x);
    *out = x;
    return WEFT_OK;
}

void wp2_ctx_free(wp2_ctx *x) {
    if (!x) return;
    /* Children before parents: pollables hold their stream's or socket's
       host fd; streams, sockets, directory streams and descriptors hold
       preview1 fds. */
    static const int order[] = {WP2_RES_IO_POLLABLE, WP2_RES_IO_INPUT_STREAM, WP2_RES_IO_OUTPUT_STREAM,
                                WP2_RES_SOCKETS_INCOMING_DATAGRAM_STREAM,
                                WP2_RES_SOCKETS_OUTGOING_DATAGRAM_STREAM,
                                WP2_RES_SOCKETS_RESOLVE_ADDRESS_STREAM, WP2_RES_SOCKETS_TCP_SOCKET,
                                WP2_RES_SOCKETS_UDP_SOCKET, WP2_RES_SOCKETS_NETWORK,
                                WP2_RES_FILESYSTEM_DIRECTORY_ENTRY_STREAM,
                                WP2_RES_FILESYSTEM_DESCRIPTOR, WP2_RES_IO_ERROR,
                                WP2_RES_CLI_TERMINAL_INPUT, WP2_RES_CLI_TERMINAL_OUTPUT};
    _Static_assert(sizeof order / sizeof *order == WP2_RES_COUNT, "every resource type");
    for (size_t k = 0; k < WP2_RES_COUNT; k++) {
        int r = order[k];
        for (uint32_t i = 0; i < x->tab[r].cap; i++) {
            if (!x->tab[r].objs[i]) continue;
            weft_error e;
            x->res[r].dtor(&x->res[r], i + 1, x, &e);
        }
        free(x->tab[r].objs);
    }
    weft_wasi_free(x->w);
    free(x);
}

const cm_host_instance *wp2_ctx_instances(const wp2_ctx *x, uint32_t *n) {
    if (n) *n = x ? WP2_NINSTANCES : 0;
    return x ? x->instances : NULL;
}

/* The component linker's rule (cm_host_find), so a lookup here and a
   link agree. */
const cm_host_instance *wp2_ctx_instance(const wp2_ctx *x, const char *name) {
    if (!x || !name) return NULL;
    return cm_host_find(x->instances, WP2_NINSTANCES, name, strlen(name));
}

weft_wasi *wp2_ctx_wasi(wp2_ctx *x) { return x ? x->w : NULL; }

/* ---- Tables ---- */

uint32_t wp2_add(wp2_ctx *x, int res, void *obj) {
    if (!obj) return 0;
    wp2_table *t = &x->tab[res];
    uint32_t i = 0;
    while (i < t->cap && t->objs[i]) i++;
    if (i == t->cap) {
        uint32_t n = t->cap ? t->cap * 2 : 8;
        if (n > (1u << 24)) { /* far past any program's need: a leak in the guest */
            free(obj);
            return 0;
        }
        void **o = realloc(t->objs, n * sizeof *o);
        if (!o) {
            free(obj);
            return 0;
        }
        memset(o + t->cap, 0, (n - t->cap) * sizeof *o);
        t->objs = o;
        t->cap = n;
    }
    t->objs[i] = obj;
    return i + 1;
}

void *wp2_get(wp2_ctx *x, int res, uint32_t rep) {
    wp2_table *t = &x->tab[res];
    return rep >= 1 && rep <= t->cap ? t->objs[rep - 1] : NULL;
}

void *wp2_remove(wp2_ctx *x, int res, uint32_t rep) {
    void *o = wp2_get(x, res, rep);
    if (o) x->tab[res].objs[rep - 1] = NULL;
    return o;
}

/* ---- Errors ---- */

weft_status wp2_trap(weft_error *err, const char *fmt, ...) {
    if (err) {
        memset(err, 0, sizeof *err);
        err->status = WEFT_ERR_TRAP;
        err->trap = WEFT_TRAP_HOST;
        err->func_index = UINT32_MAX;
        err->offset = UINT32_MAX;
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->message, sizeof err->message, fmt, ap);
        va_end(ap);
    }
    return WEFT_ERR_TRAP;
}

weft_status wp2_bad_rep(weft_error *err, const char *what, uint32_t rep) {
    return wp2_trap(err, "%s: handle representation %u names no live %s", what, rep, what);
}

weft_status wp2_nomem(weft_error *err, const char *what) {
    return wp2_trap(err, "%s: out of memory for the result", what);
}

/* ---- Preview1 ---- */

uint32_t wp2_p1_call(const cm_host_call *call, wasi_impl fn, uint8_t *mem, uint64_t size,
                     const weft_val *args, uint32_t nargs) {
    (void)nargs;
    wasi_call c = wp2_wcall(call);
    c.mem = mem;
    c.size = size;
    return fn(&c, args);
}

/* ---- Values ---- */

cm_val *wp2_vals(const cm_host_call *call, uint32_t n) {
    cm_val *v = cm_arena_alloc(call->arena, (size_t)(n ? n : 1) * sizeof(cm_val), _Alignof(cm_val));
    if (v) memset(v, 0, (size_t)(n ? n : 1) * sizeof(cm_val));
    return v;
}

bool wp2_set_str(const cm_host_call *call, cm_val *out, const char *s, size_t len) {
    char *p = cm_arena_alloc(call->arena, len ? len : 1, 1);
    if (!p || len > UINT32_MAX) return false;
    memcpy(p, s, len);
    out->kind = CM_STRING;
    out->n = (uint32_t)len;
    out->v.str = p;
    return true;
}

bool wp2_set_bytes(const cm_host_call *call, cm_val *out, const uint8_t *b, size_t len) {
    if (len > UINT32_MAX) return false;
    cm_val *items = wp2_vals(call, (uint32_t)len);
    if (!items) return false;
    for (size_t i = 0; i < len; i++) {
        items[i].kind = CM_U8;
        items[i].v.u = b[i];
    }
    out->kind = CM_LIST;
    out->n = (uint32_t)len;
    out->v.items = items;
    return true;
}

void wp2_get_bytes(const cm_val *v, uint8_t *buf) {
    for (uint32_t i = 0; i < v->n; i++) buf[i] = (uint8_t)v->v.items[i].v.u;
}

bool wp2_set_err(const cm_host_call *call, cm_val *out, cm_kind kind, uint32_t index) {
    cm_val *p = wp2_vals(call, 1);
    if (!p) return false;
    wp2_set_case(p, kind, index, NULL);
    wp2_set_case(out, CM_RESULT, 1, p);
    return true;
}
