/* The program's arguments as the C library passed them to main, for the executables
 * (catfacts, catfacts-mock).
 *
 * Swift's CommandLine.arguments reads /proc/self/cmdline on Linux: where /proc is not
 * mounted (a chroot, a build sandbox, some containers) it is empty, and a program parsing it
 * runs as if given no arguments at all. glibc passes argc, argv and envp to every function in
 * a program's .init_array; catfacts_command_line.c keeps them from there. */
#ifndef CATFACTS_COMMAND_LINE_H
#define CATFACTS_COMMAND_LINE_H

/* argv as main received it (argv[0] first), its length in *count; NULL with *count 0 when
 * the C library did not pass it (not glibc). The strings live as long as the process. */
char *const *catfacts_command_line(int *count);

#endif
