/* environ_sizes_get, environ_get: only the --env variables, in order. */
#include "common.h"
RAW(environ_sizes_get) int32_t raw_environ_sizes_get(int32_t, int32_t);
RAW(environ_get) int32_t raw_environ_get(int32_t, int32_t);
int main(void) {
    __wasi_size_t n, size;
    T("environ_sizes_get", __wasi_environ_sizes_get(&n, &size));
    SAY("count=%u bytes=%u\n", (unsigned)n, (unsigned)size);
    uint8_t **env = malloc((n + 1) * sizeof *env);
    uint8_t *buf = malloc(size + 1);
    T("environ_get", __wasi_environ_get(env, buf));
    for (unsigned i = 0; i < n; i++) SAY("env[%u]=[%s]\n", i, (char *)env[i]);
    SAY("getenv(B)=[%s]\n", getenv("B") ? getenv("B") : "(null)");
    T("environ_get(bad pointer)", raw_environ_get(BAD_PTR, BAD_PTR));
    T("environ_sizes_get(bad pointer)", raw_environ_sizes_get(0, BAD_PTR));
    return 0;
}
