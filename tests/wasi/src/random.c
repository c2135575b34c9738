/* random_get: fills, differs between calls, bounds-checked. */
#include "common.h"
RAW(random_get) int32_t raw_random_get(int32_t, int32_t);
int main(void) {
    uint8_t a[64], b[64];
    memset(a, 0, sizeof a);
    memset(b, 0, sizeof b);
    T("random_get", __wasi_random_get(a, sizeof a));
    T("random_get again", __wasi_random_get(b, sizeof b));
    SAY("buffers differ: %s\n", memcmp(a, b, sizeof a) ? "yes" : "no");
    int zeros = 0;
    for (int i = 0; i < 64; i++) zeros += a[i] == 0;
    SAY("mostly non-zero: %s\n", zeros < 16 ? "yes" : "no");
    T("random_get(len 0)", __wasi_random_get(a, 0));
    T("random_get(bad pointer)", raw_random_get(BAD_PTR, 64));
    static uint8_t big[1 << 20];
    T("random_get(1 MiB)", __wasi_random_get(big, sizeof big));
    return 0;
}
