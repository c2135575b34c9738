/*
 * mem64.c — a memory64 guest (wasm64, freestanding: no libc for wasm64):
 * 64-bit pointers, a bump allocator over memory.grow with an i64 page
 * count, a hash table of linked entries, and addresses past 4 GiB.
 * Built by tests/Makefile (clang --target=wasm64-unknown-unknown); run by
 * tests/cli/run.sh with --invoke, which checks each result.
 */
typedef unsigned long size_t; /* 64 bits on wasm64 */
typedef unsigned long long u64;

extern unsigned char __heap_base;
static unsigned char *brk = &__heap_base;

/* A bump allocator: grows memory (memory.grow, i64 pages) as needed. */
static void *alloc(size_t n) {
    unsigned char *p = brk;
    size_t end = (size_t)(p + n);
    size_t have = __builtin_wasm_memory_size(0) * 65536;
    if (end > have && __builtin_wasm_memory_grow(0, (end - have + 65535) / 65536) == (size_t)-1)
        return 0;
    brk = p + ((n + 15) & ~(size_t)15);
    return p;
}

typedef struct entry {
    u64 key, value;
    struct entry *next;
} entry;

/* Inserts n keys into a table of 1024 chains, then sums every value found
   by looking each key up again: sizeof(void *) is 8, so each entry is 24
   bytes. Returns the sum, or 0 when memory ran out. */
__attribute__((export_name("table"))) u64 table(unsigned n) {
    entry **heads = alloc(1024 * sizeof *heads);
    if (!heads) return 0; /* zero: the allocator never reuses memory */
    for (unsigned i = 0; i < n; i++) {
        entry *e = alloc(sizeof *e);
        if (!e) return 0;
        e->key = (u64)i * 0x9E3779B97F4A7C15ull;
        e->value = i;
        e->next = heads[e->key >> 54];
        heads[e->key >> 54] = e;
    }
    u64 sum = 0;
    for (unsigned i = 0; i < n; i++) {
        u64 k = (u64)i * 0x9E3779B97F4A7C15ull;
        for (entry *e = heads[k >> 54]; e; e = e->next)
            if (e->key == k) sum += e->value;
    }
    return sum;
}

/* The size of a pointer and of memory in pages (memory.size: i64). */
__attribute__((export_name("ptr_size"))) unsigned ptr_size(void) { return sizeof(void *); }
__attribute__((export_name("pages"))) u64 pages(void) { return __builtin_wasm_memory_size(0); }

/* A load from address `a` (i64): past the memory's end it traps. */
__attribute__((export_name("peek"))) unsigned peek(u64 a) { return *(volatile unsigned char *)a; }

/* Pointer arithmetic past 4 GiB and back: the address is 64-bit all
   along, so the byte read is the one written. */
__attribute__((export_name("round_trip"))) unsigned round_trip(void) {
    volatile unsigned char *p = alloc(16);
    p[3] = 0x5a;
    volatile unsigned char *far = p + (1ull << 33);
    return *(far - (1ull << 33) + 3);
}
