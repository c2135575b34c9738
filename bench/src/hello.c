/* hello.c — the startup case: instantiate, print one line, exit. */
#include <stdio.h>

int main(void)
{
    printf("hello, world\n");
    return 0;
}
