/* proc_raise: invalid signals are EINVAL; SIGTERM (15) ends with 128+15. */
#include "common.h"
int main(void) {
    T("proc_raise(0)", raw_proc_raise(0));
    T("proc_raise(31)", raw_proc_raise(31));
    SAY("raising SIGTERM\n");
    T("proc_raise(15)", raw_proc_raise(15));
    SAY("not reached\n");
    return 0;
}
