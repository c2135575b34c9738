/* matmul.c — double-precision dense matrix multiply.
 *
 * Multiplies two N x N matrices of doubles (i-k-j loop order, row-major),
 * ROUNDS times, feeding a scaled copy of each product back in as the left
 * operand. Only +, * and / are used, so results are bit-identical on every
 * IEEE-754 target that does not contract into fused multiply-add (neither
 * x86-64 -O2 without -mfma nor wasm32 does). Prints a checksum of the final
 * matrix as a sum and as a weighted sum. */
#include <stdio.h>
#include <stdlib.h>

#ifndef N
#define N 256
#endif
#ifndef ROUNDS
#define ROUNDS 32
#endif

static double *mat_new(void)
{
    double *m = malloc(sizeof(double) * N * N);
    if (!m) {
        fprintf(stderr, "matmul: out of memory\n");
        exit(1);
    }
    return m;
}

static void mat_mul(double *c, const double *a, const double *b)
{
    for (int i = 0; i < N * N; i++)
        c[i] = 0.0;
    for (int i = 0; i < N; i++)
        for (int k = 0; k < N; k++) {
            double aik = a[i * N + k];
            const double *brow = &b[k * N];
            double *crow = &c[i * N];
            for (int j = 0; j < N; j++)
                crow[j] += aik * brow[j];
        }
}

int main(void)
{
    double *a = mat_new(), *b = mat_new(), *c = mat_new();
    for (int i = 0; i < N; i++)
        for (int j = 0; j < N; j++) {
            a[i * N + j] = (double)((i * 131 + j * 71) % 97) / 97.0 - 0.5;
            b[i * N + j] = (double)((i * 37 + j * 113 + 5) % 89) / 89.0 - 0.5;
        }
    for (int r = 0; r < ROUNDS; r++) {
        mat_mul(c, a, b);
        /* rescale the product so values stay in a sane range */
        double maxabs = 0.0;
        for (int i = 0; i < N * N; i++) {
            double v = c[i] < 0 ? -c[i] : c[i];
            if (v > maxabs)
                maxabs = v;
        }
        for (int i = 0; i < N * N; i++)
            a[i] = c[i] / maxabs;
    }
    double sum = 0.0, wsum = 0.0;
    for (int i = 0; i < N * N; i++) {
        sum += c[i];
        wsum += c[i] * (double)(i % 13 + 1);
    }
    printf("matmul: n=%d rounds=%d sum=%.9e wsum=%.9e c[0]=%.9e c[last]=%.9e\n",
           N, ROUNDS, sum, wsum, c[0], c[N * N - 1]);
    free(a);
    free(b);
    free(c);
    return 0;
}
