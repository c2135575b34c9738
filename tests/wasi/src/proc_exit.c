/* proc_exit: the exit status is the code; nothing after it runs. */
#include "common.h"
int main(void) {
    SAY("before\n");
    __wasi_proc_exit(42);
    SAY("after\n");
    return 0;
}
