/* Which calls allocate large blocks, in every process of a run: a preloaded logger of each
 * malloc, calloc and realloc of 16 kB or more, with the call's stack.
 *
 *   cc -O1 -shared -fPIC -o .build/soak/large_allocations.so Tests/soak/large_allocations.c
 *   mkdir -p .build/soak/allocations
 *   LD_PRELOAD=$PWD/.build/soak/large_allocations.so LARGE_ALLOCATIONS_DIR=$PWD/.build/soak/allocations \
 *       SOAK_S=150 Tests/soak/run.sh
 *   python3 Tests/soak/large_allocations.py .build/soak/allocations/PID.log LIBRARY
 *
 * Each process writes LARGE_ALLOCATIONS_DIR/PID.log (nothing when it is unset): one line a
 * block, "malloc SIZE | frame | frame ...", the frames as backtrace_symbols(3) names them.
 * Large blocks are the ones that matter to malloc's arenas: below the mmap threshold (128 kB,
 * raised by glibc to the largest mapped block a process has freed, up to 32 MB) they come from
 * the arena of the thread that asks, and one freed among smaller blocks that live on leaves
 * a hole only a block as large fills. docs/architecture.md ("Resident memory and malloc's
 * arenas") has what it found in the soak. A diagnosis tool, slow (a stack for each block):
 * never part of a measured run. */
#define _GNU_SOURCE
#include <execinfo.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t count, size_t size);
extern void *__libc_realloc(void *block, size_t size);

enum { LARGE = 16384, DEPTH = 16 };

static __thread int logging;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static FILE *out;
static int unset;

static void note(const char *call, size_t size) {
    if (size < LARGE || logging || unset) return;
    logging = 1;  /* backtrace and stdio allocate: their blocks are not logged */
    void *frames[DEPTH];
    int count = backtrace(frames, DEPTH);
    char **names = backtrace_symbols(frames, count);
    pthread_mutex_lock(&lock);
    if (!out) {
        const char *dir = getenv("LARGE_ALLOCATIONS_DIR");
        char path[4096];
        if (dir && snprintf(path, sizeof path, "%s/%d.log", dir, (int)getpid()) < (int)sizeof path) out = fopen(path, "w");
        if (!out) unset = 1;
    }
    if (out) {
        fprintf(out, "%s %zu", call, size);
        /* The first two frames are note() and the wrapper. */
        for (int i = 2; names && i < count; i++) fprintf(out, " | %s", names[i]);
        fputc('\n', out);
        fflush(out);
    }
    pthread_mutex_unlock(&lock);
    free(names);
    logging = 0;
}

void *malloc(size_t size) {
    note("malloc", size);
    return __libc_malloc(size);
}

void *calloc(size_t count, size_t size) {
    size_t bytes;
    if (!__builtin_mul_overflow(count, size, &bytes)) note("calloc", bytes);
    return __libc_calloc(count, size);
}

void *realloc(void *block, size_t size) {
    note("realloc", size);
    return __libc_realloc(block, size);
}
