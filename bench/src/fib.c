/* fib.c — naive doubly recursive Fibonacci.
 *
 * Measures the cost of direct calls and returns with almost no work per call:
 * fib(N) makes about 2*fib(N) calls. N is read through a volatile so the
 * compiler cannot fold the result. Prints fib(N). */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>

#ifndef FIB_N
#define FIB_N 41 /* tests/pairs builds these programs smaller */
#endif

static uint32_t fib(uint32_t n)
{
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

int main(void)
{
    volatile uint32_t n = FIB_N;
    uint32_t r = fib(n);
    printf("fib(%" PRIu32 ") = %" PRIu32 "\n", (uint32_t)n, r);
    return 0;
}
