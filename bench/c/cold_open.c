#define _POSIX_C_SOURCE 200809L /* clock_gettime */
/* Time to dlopen libCatFacts and open a client, in a fresh process: what a program pays
 * before its first call. Prints one JSON object.  Usage: cold_open LIBRARY_PATH */
#include <dlfcn.h>
#include <stdio.h>
#include <time.h>

typedef int (*open_fn)(const char *, const char *, void **);
typedef void (*close_fn)(void *);

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s LIBRARY_PATH\n", argv[0]);
        return 2;
    }
    double start = now_ms();
    void *library = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        fprintf(stderr, "cold_open: %s\n", dlerror());
        return 1;
    }
    double loaded = now_ms();
    open_fn cf_client_open = (open_fn)(size_t)dlsym(library, "cf_client_open");
    close_fn cf_client_close = (close_fn)(size_t)dlsym(library, "cf_client_close");
    void *client = NULL;
    if (!cf_client_open || !cf_client_close || cf_client_open("http://127.0.0.1:9", NULL, &client) != 0) {
        fprintf(stderr, "cold_open: cf_client_open failed\n");
        return 1;
    }
    double opened = now_ms();
    cf_client_close(client);
    printf("{\"dlopen_ms\":%.3f,\"client_open_ms\":%.3f,\"total_ms\":%.3f}\n", loaded - start, opened - loaded,
           opened - start);
    return 0;
}
