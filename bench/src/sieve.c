/* sieve.c — sieve of Eratosthenes plus quicksort.
 *
 * Part one sieves the odd numbers below LIMIT in a byte array (strided
 * stores, a scan), REPEAT times. Part two fills an array with a linear
 * congruential sequence and sorts it with a hand-written quicksort (median of
 * three, insertion sort below a cutoff, recursion on the smaller side),
 * SORT_ROUNDS times on fresh data. Prints the prime count, a prime checksum
 * and a position-weighted checksum of the sorted arrays. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef LIMIT
#define LIMIT 4000000u
#endif
#ifndef REPEAT
#define REPEAT 8
#endif
#ifndef SORT_N
#define SORT_N 500000u
#endif
#ifndef SORT_ROUNDS
#define SORT_ROUNDS 6
#endif

static uint32_t sieve(uint8_t *composite, uint32_t limit, uint64_t *sum)
{
    /* composite[i] describes the odd number 2*i+1 */
    uint32_t half = limit / 2;
    memset(composite, 0, half);
    for (uint32_t i = 1; (2 * i + 1) * (2 * i + 1) < limit; i++) {
        if (composite[i])
            continue;
        uint32_t p = 2 * i + 1;
        for (uint32_t j = (p * p) / 2; j < half; j += p)
            composite[j] = 1;
    }
    uint32_t count = limit > 2 ? 1 : 0; /* the prime 2 */
    uint64_t s = count ? 2 : 0;
    for (uint32_t i = 1; i < half; i++)
        if (!composite[i]) {
            count++;
            s += 2 * i + 1;
        }
    *sum = s;
    return count;
}

static void insertion_sort(uint32_t *a, int32_t lo, int32_t hi)
{
    for (int32_t i = lo + 1; i <= hi; i++) {
        uint32_t v = a[i];
        int32_t j = i - 1;
        while (j >= lo && a[j] > v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
}

static void swap(uint32_t *a, int32_t i, int32_t j)
{
    uint32_t t = a[i];
    a[i] = a[j];
    a[j] = t;
}

static void quicksort(uint32_t *a, int32_t lo, int32_t hi)
{
    while (hi - lo > 16) {
        int32_t mid = lo + (hi - lo) / 2;
        if (a[mid] < a[lo]) swap(a, mid, lo);
        if (a[hi] < a[lo]) swap(a, hi, lo);
        if (a[hi] < a[mid]) swap(a, hi, mid);
        uint32_t pivot = a[mid];
        int32_t i = lo, j = hi;
        while (i <= j) {
            while (a[i] < pivot) i++;
            while (a[j] > pivot) j--;
            if (i <= j) {
                swap(a, i, j);
                i++;
                j--;
            }
        }
        if (j - lo < hi - i) {
            quicksort(a, lo, j);
            lo = i;
        } else {
            quicksort(a, i, hi);
            hi = j;
        }
    }
    insertion_sort(a, lo, hi);
}

int main(void)
{
    uint8_t *composite = malloc(LIMIT / 2);
    uint32_t *arr = malloc(sizeof(uint32_t) * SORT_N);
    if (!composite || !arr) {
        fprintf(stderr, "sieve: out of memory\n");
        return 1;
    }

    uint32_t count = 0;
    uint64_t psum = 0;
    for (int r = 0; r < REPEAT; r++)
        count = sieve(composite, LIMIT - (uint32_t)r * 1000u, &psum);
    printf("sieve: primes below %u: %" PRIu32 ", sum %" PRIu64 "\n",
           LIMIT - (REPEAT - 1) * 1000u, count, psum);

    uint32_t x = 12345;
    uint64_t check = 0;
    for (int r = 0; r < SORT_ROUNDS; r++) {
        for (uint32_t i = 0; i < SORT_N; i++) {
            x = x * 1103515245u + 12345u;
            arr[i] = x >> 1 ^ (x << 7);
        }
        quicksort(arr, 0, (int32_t)SORT_N - 1);
        for (uint32_t i = 1; i < SORT_N; i++)
            if (arr[i - 1] > arr[i]) {
                printf("quicksort: not sorted at %" PRIu32 "\n", i);
                return 1;
            }
        for (uint32_t i = 0; i < SORT_N; i += 7)
            check = check * 31 + arr[i] + i;
    }
    printf("quicksort: n=%u rounds=%d check=%016" PRIx64 "\n", SORT_N, SORT_ROUNDS, check);
    free(composite);
    free(arr);
    return 0;
}
