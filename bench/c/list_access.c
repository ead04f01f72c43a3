#define _POSIX_C_SOURCE 200809L /* clock_gettime */
/* ns per cf_list_breed on a loaded item (with the cf_breed_free it calls for), and per
 * cf_list_count. Prints one JSON object.  Usage: list_access BASE_URL [CALLS] */
#include <catfacts.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e9 + t.tv_nsec;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s BASE_URL [CALLS]\n", argv[0]);
        return 2;
    }
    long calls = argc > 2 ? atol(argv[2]) : 1000000;
    cf_client *client = NULL;
    cf_list *list = NULL;
    if (cf_client_open(argv[1], NULL, &client) != CF_OK ||
        cf_list_open(client, CF_BREEDS, "{\"page_size\":50,\"prefetch_distance\":0,\"max_cached_items\":50}", &list) != CF_OK ||
        cf_list_wait(list, 0, 10000) != CF_OK) {
        fprintf(stderr, "list_access: %s\n", cf_last_error());
        return 1;
    }
    cf_breed *breed = NULL;
    double start = now_ns();
    for (long i = 0; i < calls; i++) {
        if (cf_list_breed(list, i % 50, &breed) != CF_OK) {
            fprintf(stderr, "list_access: item %ld: %s\n", i % 50, cf_last_error());
            return 1;
        }
        cf_breed_free(breed);
    }
    double breed_ns = (now_ns() - start) / calls;
    int64_t sum = 0;
    start = now_ns();
    for (long i = 0; i < calls; i++) sum += cf_list_count(list);
    double count_ns = (now_ns() - start) / calls;
    printf("{\"calls\":%ld,\"ns_per_list_breed\":%.1f,\"ns_per_list_count\":%.1f,\"checksum\":%lld}\n",
           calls, breed_ns, count_ns, (long long)(sum % 1000));
    cf_list_close(list);
    cf_client_close(client);
    return 0;
}
