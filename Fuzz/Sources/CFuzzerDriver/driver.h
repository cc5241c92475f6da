#ifndef UAAUDIT_FUZZER_DRIVER_H
#define UAAUDIT_FUZZER_DRIVER_H
#include <stddef.h>
#include <stdint.h>
/* libFuzzer's entry for programs that have their own main (libclang_rt.fuzzer). */
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*UserCb)(const uint8_t *Data, size_t Size));
#endif
