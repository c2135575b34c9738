/*
 * command.c — weft_component_instantiate_wasi (weft.h): a component
 * instance whose imports WASI 0.2 serves, from the same weft_wasi_config
 * a preview1 program gets.
 */
#include "../component/linker.h"
#include "wp2.h"

static void free_ctx(void *x) { wp2_ctx_free(x); }

weft_status weft_component_instantiate_wasi(weft_store *store, weft_component *component,
                                            const weft_wasi_config *config,
                                            weft_component_instance **out, weft_error *err) {
    wp2_ctx *x;
    weft_status rc = wp2_ctx_new(config, &x, err);
    if (rc != WEFT_OK) return rc;
    uint32_t n;
    const cm_host_instance *hosts = wp2_ctx_instances(x, &n);
    cm_host_env env = {hosts, n, x};
    return cm_api_instantiate(store, component, &env, x, free_ctx, out, err);
}

weft_status weft_component_linker_instantiate(weft_component_linker *linker, weft_store *store,
                                              weft_component *component,
                                              const weft_wasi_config *wasi,
                                              weft_component_instance **out, weft_error *err) {
    if (!wasi) return cm_linker_instantiate(linker, store, component, NULL, 0, NULL, NULL, out, err);
    wp2_ctx *x;
    weft_status rc = wp2_ctx_new(wasi, &x, err);
    if (rc != WEFT_OK) return rc;
    uint32_t n;
    const cm_host_instance *hosts = wp2_ctx_instances(x, &n);
    return cm_linker_instantiate(linker, store, component, hosts, n, x, free_ctx, out, err);
}
