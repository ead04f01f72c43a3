/* What CatFactsKit asks the C library that Swift's Glibc module does not show: glibc declares
 * these only under _GNU_SOURCE (Sources/CatFactsKit/System/ProcessEnvironment.swift). */
#ifndef CATFACTS_PROCESS_H
#define CATFACTS_PROCESS_H

/* The program's short name (the last part of argv[0]), as the C library keeps it; "" when
 * unknown. Never NULL; valid for the process's life. No /proc needed. */
const char *catfacts_program_name(void);

/* The CPUs this process may run on (its affinity mask); 0 when the system does not say. */
int catfacts_affinity_cpu_count(void);

/* The environment, NULL-terminated, or NULL (after clearenv()): `environ`, which Swift
 * imports as never NULL. */
char *const *catfacts_environment(void);

#endif
