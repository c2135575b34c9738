/* fuzz.h — the libFuzzer entry points every harness defines (fuzz/README.md). */
#ifndef WEFT_FUZZ_H
#define WEFT_FUZZ_H

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* Optional: called once before the first input. */
int LLVMFuzzerInitialize(int *argc, char ***argv);

#endif
