/* See include/catfacts_command_line.h. */
#include "catfacts_command_line.h"

#include <stdlib.h> /* defines __GLIBC__ on glibc (through features.h) */

static int captured_count;
static char *const *captured_arguments;

#if defined(__GLIBC__)
/* glibc calls .init_array functions with main's argc, argv and envp (the ELF ABI leaves it
 * open; musl passes nothing, so only glibc is trusted). */
static void capture(int count, char **arguments, char **environment) {
    (void)environment;
    if (count > 0 && arguments) {
        captured_count = count;
        captured_arguments = arguments;
    }
}
__attribute__((section(".init_array"), used)) static void (*capture_entry)(int, char **, char **) = capture;
#endif

char *const *catfacts_command_line(int *count) {
    *count = captured_count;
    return captured_arguments;
}
