/* Traps two calls deep with an integer division by zero the optimiser
   cannot see through. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) int divide(int a, int b) { return a / b; }
__attribute__((noinline)) int compute(int n) { return divide(100, n - 3) + 1; }

int main(int argc, char **argv) {
    printf("computing\n");
    fflush(stdout);
    int r = compute(argc + 2); /* argc == 1: divides by zero */
    printf("result %d\n", r);
    return 0;
}
