/* libFuzzer's driver, for the fuzz targets' own main (Tests/Fuzz/Driver). It is in
 * the runtime that -sanitize=fuzzer links (LLVM's FuzzerDriver.cpp): it parses libFuzzer's
 * flags from argv and calls `test_one_input` for every input, as libFuzzer's main would. */
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test_one_input)(const uint8_t *data, size_t size));
