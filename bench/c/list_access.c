#define _POSIX_C_SOURCE 200809L /* clock_gettime */
/* ns per cf_list_breed on a loaded item (with the cf_breed_free it calls for), per item of
 * cf_list_breeds reading the whole loaded page of 50 at once (with its cf_free), and per
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
    /* The same number of items, a page (50) per call; every name's first byte read. */
    long batches = calls / 50 > 0 ? calls / 50 : 1;
    long name_bytes = 0;
    start = now_ns();
    for (long i = 0; i < batches; i++) {
        cf_breed_array *batch = NULL;
        if (cf_list_breeds(list, 0, 50, &batch) != CF_OK || batch->count != 50) {
            fprintf(stderr, "list_access: batch %ld: %s\n", i, cf_last_error());
            return 1;
        }
        for (int64_t k = 0; k < batch->count; k++) name_bytes += batch->items[k].breed[0] != 0;
        cf_free(batch);
    }
    double batch_ns = (now_ns() - start) / ((double)batches * 50);
    int64_t sum = 0;
    start = now_ns();
    for (long i = 0; i < calls; i++) sum += cf_list_count(list);
    double count_ns = (now_ns() - start) / calls;
    printf("{\"calls\":%ld,\"ns_per_list_breed\":%.1f,\"ns_per_batch_item\":%.1f,\"ns_per_list_count\":%.1f,"
           "\"checksum\":%lld}\n", calls, breed_ns, batch_ns, count_ns, (long long)((sum + name_bytes) % 1000));
    cf_list_close(list);
    cf_client_close(client);
    return 0;
}
