#define _GNU_SOURCE
#include "catfacts_process.h"

#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <unistd.h>
#if defined(__APPLE__)
#include <crt_externs.h>
#endif

const char *catfacts_program_name(void) {
#if defined(__GLIBC__)
    return program_invocation_short_name ? program_invocation_short_name : "";
#elif defined(__APPLE__)
    const char *name = getprogname();
    return name ? name : "";
#else
    return "";
#endif
}

int catfacts_affinity_cpu_count(void) {
#if defined(__linux__)
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) == 0) return CPU_COUNT(&set);
#endif
    return 0;
}

char *const *catfacts_environment(void) {
#if defined(__APPLE__)
    return *_NSGetEnviron();
#else
    return environ;
#endif
}
