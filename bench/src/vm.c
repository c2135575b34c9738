/* vm.c — an interpreter inside the interpreter: a small stack-based bytecode VM.
 *
 * A tiny assembler (labels, forward fixups) builds three guest programs, and a
 * switch-dispatched loop runs them:
 *   - collatz: total Collatz steps for every start value below a bound;
 *   - fib:     recursive Fibonacci through the VM's CALL/RET and frames;
 *   - sort:    fills guest memory with a pseudo-random sequence, insertion
 *              sorts it and folds it into a checksum.
 * Exercises the host's handling of a dense switch (an indirect branch), loads
 * and stores to a small array-backed stack, and unpredictable branches. Prints
 * each program's result and the number of VM instructions executed. */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

enum op {
    OP_HALT, OP_PUSH, OP_POP, OP_DUP, OP_SWAP, OP_OVER,
    OP_GET, OP_SET, OP_TEE,           /* frame slot access */
    OP_LOADM, OP_STOREM,              /* guest memory */
    OP_ADD, OP_SUB, OP_MUL, OP_AND, OP_OR, OP_XOR, OP_SHL, OP_SHR,
    OP_LT, OP_LE, OP_EQ, OP_NE,
    OP_JMP, OP_JZ, OP_JNZ,
    OP_CALL, OP_RET,
    OP_INC,                           /* slot += imm */
};

#define CODE_MAX 1024
#define STACK_MAX 4096
#define MEM_WORDS 2048
#define MAX_LABELS 32
/* The guest programs' sizes (tests/pairs builds them smaller). */
#ifndef VM_COLLATZ
#define VM_COLLATZ 100000
#endif
#ifndef VM_FIB
#define VM_FIB 25
#endif
#ifndef VM_SORT
#define VM_SORT 1500
#endif
#ifndef VM_SORT_ROUNDS
#define VM_SORT_ROUNDS 4
#endif

struct asm_ctx {
    int32_t code[CODE_MAX];
    int len;
    int label_at[MAX_LABELS];
    int fixup_at[CODE_MAX];
    int fixup_label[CODE_MAX];
    int nfixups;
};

static void emit(struct asm_ctx *a, int32_t w)
{
    if (a->len >= CODE_MAX) {
        fprintf(stderr, "vm: code overflow\n");
        exit(1);
    }
    a->code[a->len++] = w;
}

static void emit1(struct asm_ctx *a, enum op op) { emit(a, op); }
static void emit2(struct asm_ctx *a, enum op op, int32_t imm) { emit(a, op); emit(a, imm); }

static void label(struct asm_ctx *a, int l) { a->label_at[l] = a->len; }

static void emit_jump(struct asm_ctx *a, enum op op, int l)
{
    emit(a, op);
    a->fixup_at[a->nfixups] = a->len;
    a->fixup_label[a->nfixups++] = l;
    emit(a, 0);
}

/* CALL target nargs nlocals */
static void emit_call(struct asm_ctx *a, int l, int nargs, int nlocals)
{
    emit_jump(a, OP_CALL, l);
    emit(a, nargs);
    emit(a, nlocals);
}

static void resolve(struct asm_ctx *a)
{
    for (int i = 0; i < a->nfixups; i++)
        a->code[a->fixup_at[i]] = a->label_at[a->fixup_label[i]];
}

struct vm {
    uint32_t stack[STACK_MAX];
    uint32_t mem[MEM_WORDS];
    uint64_t steps;
};

/* Frame layout: [args..., locals..., saved fp, saved pc] then the operand
 * stack. fp points at the first argument. */
static uint32_t vm_run(struct vm *vm, const int32_t *code, int entry, int nlocals)
{
    uint32_t *sp = vm->stack + nlocals; /* next free slot */
    uint32_t *fp = vm->stack;
    const int32_t *pc = code + entry;
    uint64_t steps = 0;
    for (int i = 0; i < nlocals; i++)
        vm->stack[i] = 0;
    for (;;) {
        steps++;
        switch ((enum op)*pc++) {
        case OP_HALT:
            vm->steps += steps;
            return sp[-1];
        case OP_PUSH: *sp++ = (uint32_t)*pc++; break;
        case OP_POP: sp--; break;
        case OP_DUP: *sp = sp[-1]; sp++; break;
        case OP_SWAP: { uint32_t t = sp[-1]; sp[-1] = sp[-2]; sp[-2] = t; break; }
        case OP_OVER: *sp = sp[-2]; sp++; break;
        case OP_GET: *sp++ = fp[*pc++]; break;
        case OP_SET: fp[*pc++] = *--sp; break;
        case OP_TEE: fp[*pc++] = sp[-1]; break;
        case OP_LOADM: sp[-1] = vm->mem[sp[-1] % MEM_WORDS]; break;
        case OP_STOREM: sp -= 2; vm->mem[sp[0] % MEM_WORDS] = sp[1]; break;
        case OP_ADD: sp--; sp[-1] += sp[0]; break;
        case OP_SUB: sp--; sp[-1] -= sp[0]; break;
        case OP_MUL: sp--; sp[-1] *= sp[0]; break;
        case OP_AND: sp--; sp[-1] &= sp[0]; break;
        case OP_OR: sp--; sp[-1] |= sp[0]; break;
        case OP_XOR: sp--; sp[-1] ^= sp[0]; break;
        case OP_SHL: sp--; sp[-1] <<= (sp[0] & 31); break;
        case OP_SHR: sp--; sp[-1] >>= (sp[0] & 31); break;
        case OP_LT: sp--; sp[-1] = sp[-1] < sp[0]; break;
        case OP_LE: sp--; sp[-1] = sp[-1] <= sp[0]; break;
        case OP_EQ: sp--; sp[-1] = sp[-1] == sp[0]; break;
        case OP_NE: sp--; sp[-1] = sp[-1] != sp[0]; break;
        case OP_JMP: pc = code + *pc; break;
        case OP_JZ: pc = *--sp ? pc + 1 : code + *pc; break;
        case OP_JNZ: pc = *--sp ? code + *pc : pc + 1; break;
        case OP_CALL: {
            int target = pc[0], nargs = pc[1], nl = pc[2];
            uint32_t *nfp = sp - nargs;
            for (int i = 0; i < nl; i++)
                sp[i] = 0;
            sp += nl;
            if (sp + 2 >= vm->stack + STACK_MAX) {
                fprintf(stderr, "vm: stack overflow\n");
                exit(1);
            }
            *sp++ = (uint32_t)(fp - vm->stack);
            *sp++ = (uint32_t)(pc + 3 - code);
            fp = nfp;
            pc = code + target;
            break;
        }
        case OP_RET: {
            /* frame: fp[0..n) args+locals, then saved fp, saved pc, then the result */
            uint32_t result = sp[-1];
            uint32_t *base = fp;
            /* find the saved pair: it sits just below the operand stack; the
             * callee's operand stack holds only the result at this point */
            uint32_t saved_pc = sp[-2];
            uint32_t saved_fp = sp[-3];
            fp = vm->stack + saved_fp;
            pc = code + saved_pc;
            sp = base;
            *sp++ = result;
            break;
        }
        case OP_INC: fp[pc[0]] += (uint32_t)pc[1]; pc += 2; break;
        default:
            fprintf(stderr, "vm: bad opcode %d\n", (int)pc[-1]);
            exit(1);
        }
    }
}

/* collatz(limit): locals n=0, x=1, total=2 */
static int build_collatz(struct asm_ctx *a, uint32_t limit)
{
    enum { L_OUTER, L_INNER, L_EVEN, L_NEXT, L_DONE };
    int entry = a->len;
    emit2(a, OP_PUSH, 1); emit2(a, OP_SET, 0);
    label(a, L_OUTER);
    emit2(a, OP_GET, 0); emit2(a, OP_PUSH, (int32_t)limit); emit1(a, OP_LT);
    emit_jump(a, OP_JZ, L_DONE);
    emit2(a, OP_GET, 0); emit2(a, OP_SET, 1);
    label(a, L_INNER);
    emit2(a, OP_GET, 1); emit2(a, OP_PUSH, 1); emit1(a, OP_NE);
    emit_jump(a, OP_JZ, L_NEXT);
    emit(a, OP_INC); emit(a, 2); emit(a, 1);
    emit2(a, OP_GET, 1); emit2(a, OP_PUSH, 1); emit1(a, OP_AND);
    emit_jump(a, OP_JZ, L_EVEN);
    emit2(a, OP_GET, 1); emit2(a, OP_PUSH, 3); emit1(a, OP_MUL);
    emit2(a, OP_PUSH, 1); emit1(a, OP_ADD); emit2(a, OP_SET, 1);
    emit_jump(a, OP_JMP, L_INNER);
    label(a, L_EVEN);
    emit2(a, OP_GET, 1); emit2(a, OP_PUSH, 1); emit1(a, OP_SHR); emit2(a, OP_SET, 1);
    emit_jump(a, OP_JMP, L_INNER);
    label(a, L_NEXT);
    emit(a, OP_INC); emit(a, 0); emit(a, 1);
    emit_jump(a, OP_JMP, L_OUTER);
    label(a, L_DONE);
    emit2(a, OP_GET, 2);
    emit1(a, OP_HALT);
    return entry;
}

/* main: push n; call fib; halt.  fib(n): if n < 2 return n; else fib(n-1)+fib(n-2) */
static int build_fib(struct asm_ctx *a, uint32_t n)
{
    enum { L_FIB = 10, L_BASE };
    int entry = a->len;
    emit2(a, OP_PUSH, (int32_t)n);
    emit_call(a, L_FIB, 1, 0);
    emit1(a, OP_HALT);
    label(a, L_FIB);
    emit2(a, OP_GET, 0); emit2(a, OP_PUSH, 2); emit1(a, OP_LT);
    emit_jump(a, OP_JNZ, L_BASE);
    emit2(a, OP_GET, 0); emit2(a, OP_PUSH, 1); emit1(a, OP_SUB);
    emit_call(a, L_FIB, 1, 0);
    emit2(a, OP_GET, 0); emit2(a, OP_PUSH, 2); emit1(a, OP_SUB);
    emit_call(a, L_FIB, 1, 0);
    emit1(a, OP_ADD);
    emit1(a, OP_RET);
    label(a, L_BASE);
    emit2(a, OP_GET, 0);
    emit1(a, OP_RET);
    return entry;
}

/* sort: locals i=0, j=1, v=2, x=3, sum=4, round=5 */
static int build_sort(struct asm_ctx *a, uint32_t n, uint32_t rounds)
{
    enum { L_ROUND = 20, L_FILL, L_FILLED, L_OUTER, L_INNER, L_PLACE, L_SORTED, L_SUM,
           L_SUMMED, L_END };
    int entry = a->len;
    emit2(a, OP_PUSH, 7); emit2(a, OP_SET, 3);
    label(a, L_ROUND);
    emit2(a, OP_GET, 5); emit2(a, OP_PUSH, (int32_t)rounds); emit1(a, OP_LT);
    emit_jump(a, OP_JZ, L_END);
    /* fill: mem[i] = x = x * 1664525 + 1013904223 */
    emit2(a, OP_PUSH, 0); emit2(a, OP_SET, 0);
    label(a, L_FILL);
    emit2(a, OP_GET, 0); emit2(a, OP_PUSH, (int32_t)n); emit1(a, OP_LT);
    emit_jump(a, OP_JZ, L_FILLED);
    emit2(a, OP_GET, 0);
    emit2(a, OP_GET, 3); emit2(a, OP_PUSH, 1664525); emit1(a, OP_MUL);
    emit2(a, OP_PUSH, 1013904223); emit1(a, OP_ADD); emit2(a, OP_TEE, 3);
    emit2(a, OP_PUSH, 8); emit1(a, OP_SHR);
    emit1(a, OP_STOREM);
    emit(a, OP_INC); emit(a, 0); emit(a, 1);
    emit_jump(a, OP_JMP, L_FILL);
    label(a, L_FILLED);
    /* insertion sort */
    emit2(a, OP_PUSH, 1); emit2(a, OP_SET, 0);
    label(a, L_OUTER);
    emit2(a, OP_GET, 0); emit2(a, OP_PUSH, (int32_t)n); emit1(a, OP_LT);
    emit_jump(a, OP_JZ, L_SORTED);
    emit2(a, OP_GET, 0); emit1(a, OP_LOADM); emit2(a, OP_SET, 2);
    emit2(a, OP_GET, 0); emit2(a, OP_SET, 1);
    label(a, L_INNER);
    /* while j > 0 && mem[j-1] > v */
    emit2(a, OP_GET, 1);
    emit_jump(a, OP_JZ, L_PLACE);
    emit2(a, OP_GET, 2);
    emit2(a, OP_GET, 1); emit2(a, OP_PUSH, 1); emit1(a, OP_SUB); emit1(a, OP_LOADM);
    emit1(a, OP_LT);
    emit_jump(a, OP_JZ, L_PLACE);
    emit2(a, OP_GET, 1);
    emit2(a, OP_GET, 1); emit2(a, OP_PUSH, 1); emit1(a, OP_SUB); emit1(a, OP_LOADM);
    emit1(a, OP_STOREM);
    emit(a, OP_INC); emit(a, 1); emit(a, -1);
    emit_jump(a, OP_JMP, L_INNER);
    label(a, L_PLACE);
    emit2(a, OP_GET, 1); emit2(a, OP_GET, 2); emit1(a, OP_STOREM);
    emit(a, OP_INC); emit(a, 0); emit(a, 1);
    emit_jump(a, OP_JMP, L_OUTER);
    label(a, L_SORTED);
    /* sum = sum * 31 + mem[i] ^ i over all i */
    emit2(a, OP_PUSH, 0); emit2(a, OP_SET, 0);
    label(a, L_SUM);
    emit2(a, OP_GET, 0); emit2(a, OP_PUSH, (int32_t)n); emit1(a, OP_LT);
    emit_jump(a, OP_JZ, L_SUMMED);
    emit2(a, OP_GET, 4); emit2(a, OP_PUSH, 31); emit1(a, OP_MUL);
    emit2(a, OP_GET, 0); emit1(a, OP_LOADM); emit2(a, OP_GET, 0); emit1(a, OP_XOR);
    emit1(a, OP_ADD); emit2(a, OP_SET, 4);
    emit(a, OP_INC); emit(a, 0); emit(a, 1);
    emit_jump(a, OP_JMP, L_SUM);
    label(a, L_SUMMED);
    emit(a, OP_INC); emit(a, 5); emit(a, 1);
    emit_jump(a, OP_JMP, L_ROUND);
    label(a, L_END);
    emit2(a, OP_GET, 4);
    emit1(a, OP_HALT);
    return entry;
}

int main(void)
{
    static struct asm_ctx a;
    static struct vm vm;

    int e_collatz = build_collatz(&a, VM_COLLATZ);
    int e_fib = build_fib(&a, VM_FIB);
    int e_sort = build_sort(&a, VM_SORT, VM_SORT_ROUNDS);
    resolve(&a);

    uint32_t r_collatz = vm_run(&vm, a.code, e_collatz, 3);
    uint32_t r_fib = vm_run(&vm, a.code, e_fib, 0);
    uint32_t r_sort = vm_run(&vm, a.code, e_sort, 6);
    printf("vm: collatz=%" PRIu32 " fib=%" PRIu32 " sort=%08" PRIx32 " steps=%" PRIu64 "\n",
           r_collatz, r_fib, r_sort, vm.steps);
    return 0;
}
