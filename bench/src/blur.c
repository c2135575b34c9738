/* blur.c — a byte-crunching image kernel: 3x3 box blur of an 8-bit
 * grayscale image (separable: a horizontal pass into 16-bit sums, a
 * vertical pass back to bytes, divided by 9 with a fixed-point multiply),
 * then a sharpening blend that saturates at 0 and 255. ROUNDS passes over
 * a 1024 x 768 xorshift image, each fed back. Integer only, so every target
 * prints the same checksums; plain loops that compilers vectorise (the
 * -msimd128 build, bench/wasm/blur-simd.wasm). Prints the pixel sum and an
 * FNV-1a hash of the final image. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#define W 1024
#define H 768
#define ROUNDS 40

static void blur_h(uint16_t *restrict t, const uint8_t *restrict in)
{
    for (int y = 0; y < H; y++) {
        const uint8_t *row = in + y * W;
        uint16_t *out = t + y * W;
        const uint8_t *l = row, *m = row + 1, *r = row + 2;
        uint16_t *o = out + 1;
        out[0] = (uint16_t)(3 * row[0]);
        for (int x = 0; x < W - 2; x++)
            o[x] = (uint16_t)(l[x] + m[x] + r[x]);
        out[W - 1] = (uint16_t)(3 * row[W - 1]);
    }
}

static void blur_v(uint8_t *restrict out, const uint16_t *restrict t)
{
    for (int x = 0; x < W; x++)
        out[x] = (uint8_t)(((uint32_t)t[x] * 3u * 7282u) >> 16);
    for (int y = 1; y < H - 1; y++) {
        const uint16_t *a = t + (y - 1) * W, *b = t + y * W, *c = t + (y + 1) * W;
        uint8_t *o = out + y * W;
        for (int x = 0; x < W; x++)
            o[x] = (uint8_t)(((uint32_t)(a[x] + b[x] + c[x]) * 7282u) >> 16);
    }
    for (int x = 0; x < W; x++)
        out[(H - 1) * W + x] = (uint8_t)(((uint32_t)t[(H - 1) * W + x] * 3u * 7282u) >> 16);
}

/* img = clamp(2 * img - blurred), per byte. */
static void sharpen(uint8_t *restrict img, const uint8_t *restrict blurred)
{
    for (int i = 0; i < W * H; i++) {
        int v = 2 * img[i] - blurred[i];
        img[i] = (uint8_t)(v < 0 ? 0 : v > 255 ? 255 : v);
    }
}

int main(void)
{
    uint8_t *img = malloc(W * H), *tmp8 = malloc(W * H);
    uint16_t *tmp16 = malloc(sizeof(uint16_t) * W * H);
    if (!img || !tmp8 || !tmp16) {
        fprintf(stderr, "blur: out of memory\n");
        return 1;
    }
    uint32_t s = 2463534242u;
    for (int i = 0; i < W * H; i++) {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        img[i] = (uint8_t)(s >> 24);
    }
    for (int r = 0; r < ROUNDS; r++) {
        blur_h(tmp16, img);
        blur_v(tmp8, tmp16);
        if (r % 4 == 3)
            sharpen(img, tmp8);
        else
            for (int i = 0; i < W * H; i++)
                img[i] = tmp8[i];
    }
    uint64_t sum = 0;
    uint32_t h = 2166136261u;
    for (int i = 0; i < W * H; i++) {
        sum += img[i];
        h = (h ^ img[i]) * 16777619u;
    }
    printf("blur: %dx%d rounds=%d sum=%llu fnv=%08x\n", W, H, ROUNDS, (unsigned long long)sum,
           (unsigned)h);
    free(img);
    free(tmp8);
    free(tmp16);
    return 0;
}
