/* args_sizes_get, args_get: argv[0] is the file as given to weft run. */
#include "common.h"
RAW(args_sizes_get) int32_t raw_args_sizes_get(int32_t, int32_t);
RAW(args_get) int32_t raw_args_get(int32_t, int32_t);
int main(void) {
    __wasi_size_t argc, size;
    T("args_sizes_get", __wasi_args_sizes_get(&argc, &size));
    SAY("argc=%u bytes=%u\n", (unsigned)argc, (unsigned)size);
    uint8_t **argv = malloc(argc * sizeof *argv);
    uint8_t *buf = malloc(size);
    T("args_get", __wasi_args_get(argv, buf));
    for (unsigned i = 0; i < argc; i++) SAY("argv[%u]=[%s]\n", i, (char *)argv[i]);
    T("args_sizes_get(bad pointer)", raw_args_sizes_get(BAD_PTR, 0));
    T("args_get(bad pointer)", raw_args_get(BAD_PTR, BAD_PTR));
    return 0;
}
