/* A C program built with clang -mtail-call (Wasm 3.0 tail calls, issue
   24): a bytecode interpreter threaded with musttail, each handler ending
   in a tail call through the handler table (return_call_indirect), and a
   pair of mutually recursive functions (return_call). Both run millions
   of calls deep in constant wasm stack; without tail calls (wasm32-wasi's
   default) the program would exhaust it. tests/cli/run.sh runs it. */
#include <stdio.h>
#include <stdlib.h>

typedef struct vm { const unsigned char *code; long acc, steps; } vm;
typedef long (*handler)(vm *m, unsigned pc);
static long op_add(vm *m, unsigned pc);
static long op_mul(vm *m, unsigned pc);
static long op_dec(vm *m, unsigned pc);
static long op_loop(vm *m, unsigned pc);
static long op_halt(vm *m, unsigned pc);
static const handler table[] = {op_add, op_mul, op_dec, op_loop, op_halt};

#define DISPATCH(m, pc) __attribute__((musttail)) return table[(m)->code[pc]]((m), (pc))
__attribute__((noinline)) static long op_add(vm *m, unsigned pc) { m->acc += 7; m->steps++; DISPATCH(m, pc + 1); }
__attribute__((noinline)) static long op_mul(vm *m, unsigned pc) { m->acc = (m->acc * 3) % 1000003; m->steps++; DISPATCH(m, pc + 1); }
__attribute__((noinline)) static long op_dec(vm *m, unsigned pc) { m->steps--; m->steps++; DISPATCH(m, pc + 1); }
/* Back to the start while steps < the limit in code[pc + 1] * 100000. */
__attribute__((noinline)) static long op_loop(vm *m, unsigned pc) {
    m->steps++;
    if (m->steps < (long)m->code[pc + 1] * 100000) DISPATCH(m, 0);
    DISPATCH(m, pc + 2);
}
__attribute__((noinline)) static long op_halt(vm *m, unsigned pc) { (void)pc; return m->acc; }

static int odd(unsigned n);
__attribute__((noinline)) static int even(unsigned n) {
    if (n == 0) return 1;
    __attribute__((musttail)) return odd(n - 1);
}
__attribute__((noinline)) static int odd(unsigned n) {
    if (n == 0) return 0;
    __attribute__((musttail)) return even(n - 1);
}

int main(int argc, char **argv) {
    unsigned n = argc > 1 ? (unsigned)strtoul(argv[1], NULL, 10) : 3000000;
    static const unsigned char code[] = {0, 1, 2, 3, 40, 4}; /* add mul dec loop(40) halt */
    vm m = {code, 1, 0};
    long acc = table[code[0]](&m, 0);
    printf("vm: %ld steps, acc %ld\n", m.steps, acc);
    printf("even(%u) = %d\n", n, even(n));
    return 0;
}
