#define _POSIX_C_SOURCE 200809L /* clock_gettime */
/* Every page of /breeds through cf_breeds_page (or, with "items", cf_breeds_page_items: the
 * breeds as one block, no JSON), pages shared out to THREADS threads, each with its own
 * client ("own") or all on one client ("shared"), opened with OPTIONS (cf_client_open's JSON;
 * default none). Prints one JSON object.
 *   Usage: sweep BASE_URL LIMIT THREADS own|shared [json|items [OPTIONS]]
 * Each page is asked for once, so every one is a request. Without OPTIONS the library's cache
 * stays on, as a program gets it by default (storing the pages is part of the cost);
 * {"cache_max_bytes":0} turns it off, to compare with curl, which stores nothing. */
#include <catfacts.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *base_url, *options;
static long long limit, last_page;
static int shared_mode, items_mode;
static cf_client *shared_client;
static long long next_page = 1;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

typedef struct { long long items, bytes; int failed; } tally;

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

/* Breeds on a page: each item has exactly one "breed" key. */
static long long count_items(const char *json) {
    long long n = 0;
    for (const char *p = strstr(json, "\"breed\":"); p; p = strstr(p + 8, "\"breed\":")) n++;
    return n;
}

static long long integer_after(const char *json, const char *key) {
    const char *p = strstr(json, key);
    return p ? atoll(p + strlen(key)) : -1;
}

static void *worker(void *arg) {
    tally *t = arg;
    cf_client *client = shared_client;
    if (!shared_mode && cf_client_open(base_url, options, &client) != CF_OK) {
        fprintf(stderr, "sweep: %s\n", cf_last_error());
        t->failed = 1;
        return NULL;
    }
    for (;;) {
        pthread_mutex_lock(&lock);
        long long page = next_page++;
        pthread_mutex_unlock(&lock);
        if (page > last_page) break;
        if (items_mode) {
            cf_breed_page *block = NULL;
            if (cf_breeds_page_items(client, page, limit, &block) != CF_OK) {
                fprintf(stderr, "sweep: page %lld: %s\n", page, cf_last_error());
                t->failed = 1;
                break;
            }
            t->items += block->breeds.count;
            t->bytes += (long long)block->breeds.text_size;
            cf_free(block);
            continue;
        }
        char *json = NULL;
        if (cf_breeds_page(client, page, limit, &json) != CF_OK) {
            fprintf(stderr, "sweep: page %lld: %s\n", page, cf_last_error());
            t->failed = 1;
            break;
        }
        t->items += count_items(json);
        t->bytes += (long long)strlen(json);
        cf_free(json);
    }
    if (!shared_mode) cf_client_close(client);
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 5) {
        fprintf(stderr, "usage: %s BASE_URL LIMIT THREADS own|shared [json|items [OPTIONS]]\n", argv[0]);
        return 2;
    }
    base_url = argv[1];
    limit = atoll(argv[2]);
    int threads = atoi(argv[3]);
    shared_mode = strcmp(argv[4], "shared") == 0;
    items_mode = argc > 5 && strcmp(argv[5], "items") == 0;
    options = argc > 6 ? argv[6] : NULL;
    if (limit < 1 || threads < 1 || threads > 64) return 2;

    double start = now_s();
    /* The page count, as a C program must learn it: from page 1's last_page. */
    cf_client *probe = NULL;
    char *json = NULL;
    if (cf_client_open(base_url, options, &probe) != CF_OK || cf_breeds_page(probe, 1, 1, &json) != CF_OK) {
        fprintf(stderr, "sweep: %s\n", cf_last_error());
        return 1;
    }
    long long total = integer_after(json, "\"total\":");
    cf_free(json);
    last_page = (total + limit - 1) / limit;
    if (shared_mode) shared_client = probe; else cf_client_close(probe);

    pthread_t ids[64];
    tally tallies[64];
    memset(tallies, 0, sizeof tallies);
    for (int i = 0; i < threads; i++) pthread_create(&ids[i], NULL, worker, &tallies[i]);
    long long items = 0, bytes = 0;
    int failed = 0;
    for (int i = 0; i < threads; i++) {
        pthread_join(ids[i], NULL);
        items += tallies[i].items;
        bytes += tallies[i].bytes;
        failed |= tallies[i].failed;
    }
    double seconds = now_s() - start;
    if (shared_mode) cf_client_close(probe);
    if (failed || items != total) {
        fprintf(stderr, "sweep: got %lld breeds of %lld\n", items, total);
        return 1;
    }
    /* json_bytes: the JSON handed out; with "items", the bytes of the blocks' text. */
    printf("{\"pages\":%lld,\"items\":%lld,\"threads\":%d,\"shared\":%d,\"mode\":\"%s\",\"json_bytes\":%lld,"
           "\"seconds\":%.4f}\n", last_page, items, threads, shared_mode, items_mode ? "items" : "json", bytes, seconds);
    return 0;
}
