/*
 * The cache from C, against catfacts-mock: "cache_path" shared by two clients, a stale
 * page when the server is gone, CF_ERR_OFFLINE when offline with nothing to answer, and
 * a corrupt cache file moved aside.
 */
#include "harness.h"

#include <dirent.h>
#include <stdint.h>

/* `{"cache_path":"<folder>/cache.sqlite"<extra>}` into options. */
static void cache_options(char options[static 256], const char *folder, const char *extra) {
    snprintf(options, 256, "{\"cache_path\":\"%s/cache.sqlite\",\"retries\":0%s}", folder, extra ? extra : "");
}

/* The number of entries in folder whose names contain part. */
static int count_files(const char *folder, const char *part) {
    DIR *dir = opendir(folder);
    if (dir == NULL) return -1;
    int n = 0;
    for (struct dirent *entry; (entry = readdir(dir)) != NULL;) {
        if (strstr(entry->d_name, part) != NULL) n++;
    }
    closedir(dir);
    return n;
}

/* cf_breeds_page's JSON parsed, or NULL after a counted failure. */
static json_t *breeds_page(cf_client *c, int64_t page, int64_t limit, cf_status expected) {
    char *out = NULL;
    if (CHECK_STATUS(cf_breeds_page(c, page, limit, &out), expected) != CF_OK) return NULL;
    json_t *json = PARSE_JSON(out);
    cf_free(out);
    return json;
}

static void a_cache_file_serves_a_second_client_without_a_request(void) {
    char folder[64], url[128], options[256];
    if (make_temp_folder("cache-test", folder) != 0) return;
    REQUIRE_MOCK(NULL, url);
    cache_options(options, folder, NULL);
    cf_client *first = NULL, *second = NULL;
    CHECK_STATUS(cf_client_open(url, options, &first), CF_OK);
    CHECK_STATUS(cf_client_open(url, options, &second), CF_OK);
    json_t *a = breeds_page(first, 2, 5, CF_OK);
    json_t *b = breeds_page(second, 2, 5, CF_OK);
    if (a != NULL && b != NULL) {
        CHECK_STR_EQ(json_get_str(a, "source"), "network");
        CHECK_STR_EQ(json_get_str(b, "source"), "cache");
        CHECK(json_equal(json_object_get(a, "items"), json_object_get(b, "items")));
        CHECK_STR_EQ(json_get_str(b, "fetched_at"), json_get_str(a, "fetched_at"));
    }
    CHECK_INT_EQ(client_metric(first, "/breeds", "requests"), 1);
    CHECK_INT_EQ(client_metric(second, "/breeds", "requests"), 0);
    CHECK_INT_EQ(client_metric(second, "/breeds", "cache_hits"), 1);
    json_decref(a);
    json_decref(b);
    cf_client_close(first);
    cf_client_close(second);
    stop_mock();
    remove_temp_folder(folder);
}

static void a_dead_server_gets_the_stale_page_labelled_cache(void) {
    char folder[64], url[128], options[256];
    if (make_temp_folder("cache-test", folder) != 0) return;
    REQUIRE_MOCK(NULL, url);
    cache_options(options, folder, NULL);
    cf_client *c = NULL;
    CHECK_STATUS(cf_client_open(url, options, &c), CF_OK);
    json_t *fresh = breeds_page(c, 1, 10, CF_OK);
    cf_client_close(c);
    stop_mock();

    /* The refused connection gives the stale page at once, not at a timeout: with timeouts of
     * 60 s, half of that is a bound only a hang reaches (how soon is for make bench). */
    cache_options(options, folder, ",\"cache_ttl_ms\":0,\"connect_timeout_ms\":60000,\"timeout_ms\":60000");
    c = NULL;
    CHECK_STATUS(cf_client_open(url, options, &c), CF_OK);
    double start = now_seconds();
    json_t *stale = breeds_page(c, 1, 10, CF_OK);
    CHECKF(now_seconds() - start < 30, "took %.2f s", now_seconds() - start);
    if (fresh != NULL && stale != NULL) {
        CHECK_STR_EQ(json_get_str(stale, "source"), "cache");
        CHECK_STR_EQ(json_get_str(stale, "fetched_at"), json_get_str(fresh, "fetched_at"));
        CHECK(json_equal(json_object_get(fresh, "items"), json_object_get(stale, "items")));
    }
    CHECK_INT_EQ(client_metric(c, "/breeds", "errors"), 1);
    CHECK_INT_EQ(client_metric(c, "/breeds", "cache_hits"), 1);
    json_decref(fresh);
    json_decref(stale);
    cf_client_close(c);
    remove_temp_folder(folder);
}

static void offline_with_nothing_cached_and_no_fallback_is_cf_err_offline(void) {
    char closed[128];
    closed_port_url(closed);
    cf_client *c = NULL;
    if (CHECK_STATUS(cf_client_open(closed, "{\"retries\":0}", &c), CF_OK) != CF_OK) return;
    char *out = NULL;
    for (int i = 0; i < 3; i++) CHECK_FAILS(cf_breeds_page(c, 1, 10, &out), CF_ERR_NETWORK, NULL);
    /* Offline: answered without a request (the count below), so at once; how fast is for
     * make bench. */
    CHECK_FAILS(cf_breeds_page(c, 1, 10, &out), CF_ERR_OFFLINE, "offline");
    CHECK(out == NULL);
    CHECK_FAILS(cf_fact_random(c, 0, &out), CF_ERR_OFFLINE, NULL);
    char *metrics = NULL;
    if (CHECK_STATUS(cf_metrics(c, &metrics), CF_OK) == CF_OK) {
        json_t *m = PARSE_JSON(metrics);
        CHECK(json_is_false(json_object_get(m, "online")));
        json_decref(m);
    }
    cf_free(metrics);
    CHECK_INT_EQ(client_metric(c, "/breeds", "requests"), 3); /* nothing sent while offline */
    CHECK(client_metric(c, "/fact", "requests") <= 0);         /* absent or zero */
    cf_client_close(c);
}

static void a_corrupt_cache_file_is_moved_aside(void) {
    char folder[64], url[128], options[256], path[128];
    if (make_temp_folder("cache-test", folder) != 0) return;
    snprintf(path, sizeof path, "%s/cache.sqlite", folder);
    FILE *file = fopen(path, "wb");
    CHECK(file != NULL);
    if (file == NULL) return;
    srand(42);
    for (int i = 0; i < 8192; i++) fputc(rand() & 0xff, file);
    fclose(file);
    REQUIRE_MOCK(NULL, url);
    cache_options(options, folder, NULL);
    cf_client *c = NULL;
    CHECK_STATUS(cf_client_open(url, options, &c), CF_OK);
    json_t *page = breeds_page(c, 1, 5, CF_OK);
    CHECK_STR_EQ(json_get_str(page, "source"), "network");
    json_decref(page);
    page = breeds_page(c, 1, 5, CF_OK);
    CHECK_STR_EQ(json_get_str(page, "source"), "cache");
    json_decref(page);
    CHECK_INT_EQ(count_files(folder, "cache.sqlite.corrupt-"), 1);
    cf_client_close(c);
    stop_mock();
    remove_temp_folder(folder);
}

static void cache_options_are_checked(void) {
    static const struct { const char *json, *key; } bad[] = {
        {"{\"cache_path\":\"\"}", "cache_path"},
        {"{\"cache_path\":1}", "cache_path"},
        {"{\"cache_ttl_ms\":-1}", "cache_ttl_ms"},
        {"{\"cache_ttl_ms\":\"5\"}", "cache_ttl_ms"},
        {"{\"cache_max_bytes\":-1}", "cache_max_bytes"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cf_client *c = NULL;
        CHECK_FAILS(cf_client_open("http://127.0.0.1:1", bad[i].json, &c), CF_ERR_ARGUMENT, bad[i].key);
        CHECK(c == NULL);
    }
}

static void a_cap_of_zero_turns_the_cache_off(void) {
    char folder[64], url[128], options[256];
    if (make_temp_folder("cache-test", folder) != 0) return;
    REQUIRE_MOCK(NULL, url);
    cache_options(options, folder, ",\"cache_max_bytes\":0");
    cf_client *c = NULL;
    CHECK_STATUS(cf_client_open(url, options, &c), CF_OK);
    for (int i = 0; i < 2; i++) {
        json_t *page = breeds_page(c, 1, 5, CF_OK);
        CHECK_STR_EQ(json_get_str(page, "source"), "network");
        json_decref(page);
    }
    CHECK_INT_EQ(client_metric(c, "/breeds", "requests"), 2);
    CHECK_INT_EQ(count_files(folder, "cache.sqlite"), 0);
    cf_client_close(c);
    stop_mock();
    remove_temp_folder(folder);
}

int main(void) {
    RUN(cache_options_are_checked);
    RUN(a_cache_file_serves_a_second_client_without_a_request);
    RUN(a_dead_server_gets_the_stale_page_labelled_cache);
    RUN(offline_with_nothing_cached_and_no_fallback_is_cf_err_offline);
    RUN(a_corrupt_cache_file_is_moved_aside);
    RUN(a_cap_of_zero_turns_the_cache_off);
    return harness_report("cache_test");
}
