/* tag.c — tags (Wasm 3.0 §4.2.10 tag instances) and exceptions (§4.2.11
   exception instances).

   Exceptions and their lifetime. An exception is made by `throw` (or a
   host's weft_caller_throw) and referred to by exnref values, which wasm
   may keep anywhere a reference goes: operand slots, locals, globals,
   tables. Without a collector nothing can tell when the last reference
   went away, so each exception belongs to the store it was thrown in and
   is freed with it: a list pushed with one compare-and-swap (throws on
   several threads of a process share the store), walked once by
   weft_store_free. The cost is memory: a program that throws without end
   keeps every exception (16 bytes plus its payload) until its store goes.
   GC (issue 24's next step) subsumes this: an exception becomes a heap
   object the collector traces from the same roots as every other
   reference, and this list goes away. */
#include "internal.h"

uint32_t rt_tag_slots(const weft_tag *tag) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < tag->type->nparams; i++) n += rt_val_slots(tag->type->params[i]);
    return n;
}

weft_exn *rt_exn_new(weft_store *store, weft_tag *tag, const uint64_t *slots) {
    uint32_t n = rt_tag_slots(tag);
    weft_exn *x = malloc(sizeof *x + (size_t)n * sizeof(uint64_t));
    if (!x) return NULL;
    x->tag = tag;
    x->nslots = n;
    if (n) memcpy(x->slots, slots, (size_t)n * sizeof(uint64_t));
    x->next = atomic_load_explicit(&store->exns, memory_order_relaxed);
    while (!atomic_compare_exchange_weak_explicit(&store->exns, &x->next, x, memory_order_release,
                                                  memory_order_relaxed))
        ;
    return x;
}

void rt_store_free_exns(weft_store *store) {
    weft_exn *x = atomic_load_explicit(&store->exns, memory_order_acquire);
    while (x) {
        weft_exn *next = x->next;
        free(x);
        x = next;
    }
    atomic_store_explicit(&store->exns, NULL, memory_order_relaxed);
}

void rt_tag_destroy(weft_tag *tag) {
    if (!tag) return;
    free(tag->own_type.params);
    free(tag->own_type.pub_params);
    free(tag);
}

weft_tag *weft_tag_new(weft_store *store, const weft_functype *type) {
    if (!store || !type || type->nresults || (type->nparams && !type->params)) return NULL;
    for (uint32_t i = 0; i < type->nparams; i++)
        if (!rt_valtype_ok(type->params[i])) return NULL;
    weft_tag *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    /* The internal types and their public view, as weft_func_new keeps
       them (never NULL). */
    t->own_type.nparams = type->nparams;
    t->own_type.params = base_calloc((size_t)type->nparams + 1, sizeof *t->own_type.params);
    t->own_type.pub_params = base_calloc((size_t)type->nparams + 1, sizeof *t->own_type.pub_params);
    if (!t->own_type.params || !t->own_type.pub_params) {
        free(t->own_type.params);
        free(t->own_type.pub_params);
        free(t);
        return NULL;
    }
    for (uint32_t i = 0; i < type->nparams; i++) t->own_type.params[i] = t->own_type.pub_params[i] = type->params[i];
    t->own_type.results = t->own_type.params + type->nparams;
    t->type = &t->own_type;
    t->store = store;
    pthread_mutex_lock(&store->lock);
    bool ok = BASE_VEC_PUSH(store->tags, t);
    pthread_mutex_unlock(&store->lock);
    if (!ok) {
        rt_tag_destroy(t);
        return NULL;
    }
    return t;
}

weft_functype weft_tag_type(const weft_tag *tag) {
    weft_functype ft = {0};
    if (!tag) return ft;
    ft.nparams = tag->type->nparams;
    ft.params = tag->type->pub_params;
    return ft;
}

weft_tag *weft_exn_tag(const weft_exn *exn) { return exn ? exn->tag : NULL; }

size_t weft_exn_args(const weft_exn *exn, weft_val *out, size_t cap) {
    if (!exn) return 0;
    const mod_functype *ft = exn->tag->type;
    const uint64_t *p = exn->slots;
    for (uint32_t i = 0; i < ft->nparams; i++) {
        if (out && i < cap) out[i] = rt_val_get(ft->params[i], p);
        p += rt_val_slots(ft->params[i]);
    }
    return ft->nparams;
}
