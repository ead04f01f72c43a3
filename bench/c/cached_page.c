#define _POSIX_C_SOURCE 200809L /* clock_gettime */
/* One page of /breeds through cf_breeds_page_items, asked again and again once it is cached:
 * what a cache hit costs a C program (the lookup and the block). Page 1 is fetched once, then
 * CALLS more calls answer from the cache (its TTL, 300 s by default, is not reached).
 * Prints one JSON object: CPU per call (this process's, getrusage) and wall time per call.
 *   Usage: cached_page BASE_URL LIMIT CALLS [OPTIONS] */
#include <catfacts.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static double cpu_s(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv) {
    if (argc < 4) {
        fprintf(stderr, "usage: %s BASE_URL LIMIT CALLS [OPTIONS]\n", argv[0]);
        return 2;
    }
    long long limit = atoll(argv[2]), calls = atoll(argv[3]);
    if (limit < 1 || calls < 1) return 2;
    cf_client *client = NULL;
    if (cf_client_open(argv[1], argc > 4 ? argv[4] : NULL, &client) != CF_OK) {
        fprintf(stderr, "cached_page: %s\n", cf_last_error());
        return 1;
    }
    cf_breed_page *page = NULL;
    if (cf_breeds_page_items(client, 1, limit, &page) != CF_OK) {
        fprintf(stderr, "cached_page: %s\n", cf_last_error());
        return 1;
    }
    long long count = page->breeds.count;
    size_t text_size = page->breeds.text_size;
    cf_free(page);
    long long items = 0, from_cache = 0;
    double wall = now_s(), cpu = cpu_s();
    for (long long i = 0; i < calls; i++) {
        if (cf_breeds_page_items(client, 1, limit, &page) != CF_OK) {
            fprintf(stderr, "cached_page: call %lld: %s\n", i, cf_last_error());
            return 1;
        }
        items += page->breeds.count;
        from_cache += strcmp(page->source, "cache") == 0;
        cf_free(page);
    }
    cpu = cpu_s() - cpu;
    wall = now_s() - wall;
    cf_client_close(client);
    if (items != count * calls || from_cache != calls) {
        fprintf(stderr, "cached_page: %lld items, %lld of %lld calls from the cache\n", items, from_cache, calls);
        return 1;
    }
    printf("{\"items\":%lld,\"text_bytes\":%zu,\"calls\":%lld,\"cpu_ms_per_call\":%.5f,\"wall_ms_per_call\":%.5f}\n",
           count, text_size, calls, cpu * 1000 / calls, wall * 1000 / calls);
    return 0;
}
