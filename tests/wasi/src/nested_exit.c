/* exit() from three calls deep: atexit handlers run, stdio is flushed,
   the status is the code. */
#include <stdio.h>
#include <stdlib.h>

static void bye(void) { printf("atexit handler ran\n"); }
__attribute__((noinline)) static void level3(int code) {
    printf("level3: exiting with %d\n", code);
    exit(code);
}
__attribute__((noinline)) static void level2(int code) { level3(code + 1); printf("not reached\n"); }
__attribute__((noinline)) static void level1(int code) { level2(code + 1); printf("not reached\n"); }

int main(int argc, char **argv) {
    atexit(bye);
    printf("main: %d args\n", argc);
    level1(argc > 1 ? atoi(argv[1]) : 0);
    return 99;
}
