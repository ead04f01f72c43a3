/*
 * cf_metrics_endpoints: the per-endpoint metrics as one block of structs. Exact counts after
 * known calls against catfacts-mock, the same figures as cf_metrics' JSON, the percentiles in
 * order, NaN (null in the JSON, no NaN in the Prometheus text) for an endpoint whose every
 * request got no response (a dead port, a dropped connection), the argument errors with
 * out left NULL, and metrics read thousands of times costing no more stack than the first.
 */
#include "harness.h"

#include <math.h>
#include <pthread.h>

/* Not NULL, never a real block: an out-pointer a failing call must reset to NULL. */
static cf_endpoint_stats_array sentinel_target;
#define SENTINEL (&sentinel_target)

/* The time fields of one endpoint, in the order the JSON keys below name them. */
#define TIME_COUNT 7
static const char *const time_keys[TIME_COUNT] = {"avg_ms", "last_ms", "min_ms", "max_ms", "p50_ms", "p95_ms", "p99_ms"};
static void times_of(const cf_endpoint_stats *e, double out[TIME_COUNT]) {
    out[0] = e->avg_ms; out[1] = e->last_ms; out[2] = e->min_ms; out[3] = e->max_ms;
    out[4] = e->p50_ms; out[5] = e->p95_ms; out[6] = e->p99_ms;
}

/* The client's endpoints, or NULL after a counted failure. */
static cf_endpoint_stats_array *endpoints_of(cf_client *c) {
    cf_endpoint_stats_array *stats = SENTINEL;
    if (CHECK_STATUS(cf_metrics_endpoints(c, &stats), CF_OK) != CF_OK) return NULL;
    CHECK(stats != NULL && stats != SENTINEL);
    return stats == SENTINEL ? NULL : stats;
}

/* The entry for path, or NULL. */
static const cf_endpoint_stats *find(const cf_endpoint_stats_array *stats, const char *path) {
    for (int64_t i = 0; i < stats->count; i++) {
        if (strcmp(stats->items[i].endpoint, path) == 0) return &stats->items[i];
    }
    return NULL;
}

/* Every figure of e equals the JSON's entry for the same endpoint (taken with no request between). */
static void check_same_as_json(const cf_endpoint_stats *e, const json_t *entry) {
    CHECKF(entry != NULL, "%s is missing from cf_metrics' endpoints", e->endpoint);
    if (entry == NULL) return;
    CHECK_INT_EQ(e->requests, json_get_int(entry, "requests", -1));
    CHECK_INT_EQ(e->errors, json_get_int(entry, "errors", -1));
    CHECK_INT_EQ(e->bytes, json_get_int(entry, "bytes", -1));
    CHECK_INT_EQ(e->cache_hits, json_get_int(entry, "cache_hits", -1));
    CHECK_INT_EQ(e->retries, json_get_int(entry, "retries", -1));
    double times[TIME_COUNT];
    times_of(e, times);
    for (int i = 0; i < TIME_COUNT; i++) {
        json_t *value = json_object_get(entry, time_keys[i]);
        if (isnan(times[i])) {
            CHECKF(json_is_null(value), "%s %s is NaN but the JSON's is not null", e->endpoint, time_keys[i]);
        } else {
            CHECKF(json_is_number(value) && json_number_value(value) == times[i],
                   "%s %s is %f, the JSON's %f", e->endpoint, time_keys[i], times[i], json_number_value(value));
        }
    }
}

static void check_same_as_metrics_json(cf_client *c, const cf_endpoint_stats_array *stats) {
    char *text = NULL;
    if (CHECK_STATUS(cf_metrics(c, &text), CF_OK) != CF_OK) return;
    json_t *metrics = PARSE_JSON(text);
    cf_free(text);
    CHECK_INT_EQ((long long)json_array_size(json_object_get(metrics, "endpoints")), stats->count);
    for (int64_t i = 0; i < stats->count; i++) check_same_as_json(&stats->items[i], metrics_endpoint(metrics, stats->items[i].endpoint));
    json_decref(metrics);
}

/* Measured times are finite, positive and in order: min <= p50 <= p95 <= p99 <= max, the
   average and the last between min and max (the percentiles to 3 significant digits). */
static void check_times_in_order(const cf_endpoint_stats *e) {
    double times[TIME_COUNT];
    times_of(e, times);
    for (int i = 0; i < TIME_COUNT; i++) CHECKF(isfinite(times[i]) && times[i] > 0, "%s %s is %f", e->endpoint, time_keys[i], times[i]);
    double slack = e->max_ms * 0.001; /* the histogram's 3 significant digits */
    CHECKF(e->min_ms <= e->p50_ms + slack && e->p50_ms <= e->p95_ms && e->p95_ms <= e->p99_ms
           && e->p99_ms <= e->max_ms + slack,
           "%s: min %f p50 %f p95 %f p99 %f max %f", e->endpoint, e->min_ms, e->p50_ms, e->p95_ms, e->p99_ms, e->max_ms);
    CHECKF(e->min_ms <= e->avg_ms && e->avg_ms <= e->max_ms, "%s: avg %f outside %f..%f", e->endpoint, e->avg_ms, e->min_ms, e->max_ms);
    CHECKF(e->min_ms <= e->last_ms && e->last_ms <= e->max_ms, "%s: last %f outside %f..%f", e->endpoint, e->last_ms, e->min_ms, e->max_ms);
}

static void check_no_times(const cf_endpoint_stats *e) {
    double times[TIME_COUNT];
    times_of(e, times);
    for (int i = 0; i < TIME_COUNT; i++) CHECKF(isnan(times[i]), "%s %s is %f, not NaN", e->endpoint, time_keys[i], times[i]);
}

/* Known calls, exact counts: breeds pages 1 and 2 (two requests), page 1 again (a cache hit),
   facts page 1 (one request); sorted by path, the same as the JSON, the times in order. */
static void known_calls_give_exact_counts(void) {
    char url[128];
    REQUIRE_MOCK(NULL, url);
    cf_client *c = NULL;
    /* No read-ahead and no retries: each call below is exactly the requests it says. */
    if (CHECK_STATUS(cf_client_open(url, "{\"retries\":0,\"read_ahead\":0}", &c), CF_OK) == CF_OK) {
        cf_endpoint_stats_array *stats = endpoints_of(c);
        if (stats != NULL) CHECK_INT_EQ(stats->count, 0);
        cf_free(stats);
        char *json = NULL;
        CHECK_STATUS(cf_breeds_page(c, 1, 5, &json), CF_OK);
        cf_free(json);
        CHECK_STATUS(cf_breeds_page(c, 2, 5, &json), CF_OK);
        cf_free(json);
        CHECK_STATUS(cf_breeds_page(c, 1, 5, &json), CF_OK);
        cf_free(json);
        CHECK_STATUS(cf_facts_page(c, 1, 3, 0, &json), CF_OK);
        cf_free(json);
        stats = endpoints_of(c);
        if (stats != NULL) {
            CHECK_INT_EQ(stats->count, 2);
            if (stats->count == 2) {
                CHECK_STR_EQ(stats->items[0].endpoint, "/breeds");
                CHECK_STR_EQ(stats->items[1].endpoint, "/facts");
                const cf_endpoint_stats *breeds = &stats->items[0], *facts = &stats->items[1];
                CHECK_INT_EQ(breeds->requests, 2);
                CHECK_INT_EQ(breeds->errors, 0);
                CHECK_INT_EQ(breeds->cache_hits, 1);
                CHECK_INT_EQ(breeds->retries, 0);
                CHECK(breeds->bytes > 0);
                CHECK_INT_EQ(facts->requests, 1);
                CHECK_INT_EQ(facts->errors, 0);
                CHECK_INT_EQ(facts->cache_hits, 0);
                CHECK(facts->bytes > 0);
                check_times_in_order(breeds);
                check_times_in_order(facts);
                /* One request: every time is that request's. */
                CHECK(facts->min_ms == facts->max_ms && facts->last_ms == facts->max_ms && facts->avg_ms == facts->max_ms);
            }
            check_same_as_metrics_json(c, stats);
        }
        cf_free(stats);
        cf_client_close(c);
    }
    stop_mock();
}

/* A dead port: the request got no response, so /breeds counts it (1 request, 1 error) with
   NaN for every time, null in the JSON, and a histogram of 0 in the Prometheus text. */
static void a_dead_port_gives_nan_times(void) {
    char url[128];
    closed_port_url(url);
    cf_client *c = NULL;
    if (CHECK_STATUS(cf_client_open(url, "{\"retries\":0}", &c), CF_OK) != CF_OK) return;
    char *json = NULL;
    CHECK_STATUS(cf_breeds_page(c, 1, 5, &json), CF_ERR_NETWORK);
    cf_endpoint_stats_array *stats = endpoints_of(c);
    if (stats != NULL) {
        CHECK_INT_EQ(stats->count, 1);
        const cf_endpoint_stats *breeds = find(stats, "/breeds");
        CHECK(breeds != NULL);
        if (breeds != NULL) {
            CHECK_INT_EQ(breeds->requests, 1);
            CHECK_INT_EQ(breeds->errors, 1);
            CHECK_INT_EQ(breeds->bytes, 0);
            check_no_times(breeds);
        }
        check_same_as_metrics_json(c, stats);
    }
    cf_free(stats);
    char *text = NULL;
    if (CHECK_STATUS(cf_metrics_prometheus(c, &text), CF_OK) == CF_OK) {
        CHECKF(strstr(text, "catfacts_request_duration_seconds_count{endpoint=\"/breeds\"} 0\n") != NULL,
               "no histogram count of 0 for /breeds in:\n%s", text);
        CHECKF(strstr(text, "NaN") == NULL && strstr(text, "nan") == NULL, "the Prometheus text holds a NaN:\n%s", text);
    }
    cf_free(text);
    cf_client_close(c);
}

/* The mock drops the first connection (no response: NaN), then answers; an HTTP 500 is a
   response, timed like any other. */
static void a_dropped_connection_has_no_time_and_a_500_has_one(void) {
    char url[128];
    REQUIRE_MOCK("--faults reset,500 --fail-first 2", url);
    cf_client *c = NULL;
    if (CHECK_STATUS(cf_client_open(url, "{\"retries\":0,\"read_ahead\":0}", &c), CF_OK) == CF_OK) {
        char *json = NULL;
        CHECK_STATUS(cf_facts_page(c, 1, 3, 0, &json), CF_ERR_NETWORK);
        CHECK_STATUS(cf_fact_random(c, 0, &json), CF_ERR_HTTP);
        CHECK_STATUS(cf_fact_random(c, 0, &json), CF_OK);
        cf_free(json);
        cf_endpoint_stats_array *stats = endpoints_of(c);
        if (stats != NULL) {
            const cf_endpoint_stats *facts = find(stats, "/facts"), *fact = find(stats, "/fact");
            CHECK(facts != NULL && fact != NULL);
            if (facts != NULL) {
                CHECK_INT_EQ(facts->requests, 1);
                CHECK_INT_EQ(facts->errors, 1);
                check_no_times(facts);
            }
            if (fact != NULL) {
                CHECK_INT_EQ(fact->requests, 2);
                CHECK_INT_EQ(fact->errors, 1);
                check_times_in_order(fact);
            }
            check_same_as_metrics_json(c, stats);
        }
        cf_free(stats);
        cf_client_close(c);
    }
    stop_mock();
}

/* The endpoints' names point into the block, each after the last (one block, one cf_free). */
static void the_names_live_in_the_block(void) {
    char url[128];
    REQUIRE_MOCK(NULL, url);
    cf_client *c = NULL;
    if (CHECK_STATUS(cf_client_open(url, "{\"read_ahead\":0}", &c), CF_OK) == CF_OK) {
        char *json = NULL;
        CHECK_STATUS(cf_fact_random(c, 0, &json), CF_OK);
        cf_free(json);
        CHECK_STATUS(cf_breeds_page(c, 1, 1, &json), CF_OK);
        cf_free(json);
        cf_endpoint_stats_array *stats = endpoints_of(c);
        if (stats != NULL && stats->count == 2) {
            const char *block_start = (const char *)stats;
            const char *first = stats->items[0].endpoint, *second = stats->items[1].endpoint;
            CHECK((const char *)stats->items > block_start && first >= (const char *)(stats->items + 2));
            CHECK(second == first + strlen(first) + 1);
            CHECK_STR_EQ(first, "/breeds");
            CHECK_STR_EQ(second, "/fact");
        } else {
            CHECKF(0, "expected two endpoints");
        }
        cf_free(stats);
        cf_client_close(c);
    }
    stop_mock();
}

static void bad_arguments_leave_out_null(void) {
    cf_endpoint_stats_array *stats = SENTINEL;
    CHECK_FAILS(cf_metrics_endpoints(NULL, &stats), CF_ERR_ARGUMENT, "client");
    CHECK(stats == NULL);
    cf_client *c = NULL;
    if (CHECK_STATUS(cf_client_open("http://127.0.0.1:1", NULL, &c), CF_OK) != CF_OK) return;
    CHECK_FAILS(cf_metrics_endpoints(c, NULL), CF_ERR_ARGUMENT, "out");
    /* After a success, cf_last_error is "" again. */
    stats = SENTINEL;
    CHECK_STATUS(cf_metrics_endpoints(c, &stats), CF_OK);
    CHECK_STR_EQ(cf_last_error(), "");
    CHECK(stats != NULL && stats != SENTINEL && stats->count == 0);
    if (stats != SENTINEL) cf_free(stats);
    cf_client_close(c);
}

/* The metrics read on a thread of its own with a small stack, as a host's worker may have. */
#define SMALL_STACK (256 * 1024)
struct small_stack_read { cf_client *client; cf_status json, prometheus, endpoints; };
static void *read_metrics(void *arg) {
    struct small_stack_read *read = arg;
    char *json = NULL, *text = NULL;
    cf_endpoint_stats_array *stats = NULL;
    read->json = cf_metrics(read->client, &json);
    read->prometheus = cf_metrics_prometheus(read->client, &text);
    read->endpoints = cf_metrics_endpoints(read->client, &stats);
    cf_free(json);
    cf_free(text);
    cf_free(stats);
    return NULL;
}

/* Each read of the metrics once nested the reader of the exporter's figures two calls deeper
 * (0.1.0): after 1,000 reads a thread with a 128 kB stack crashed on the next, after some
 * 30,000 a main thread of 8 MB. 5,000 reads, then one on a 256 kB stack. */
static void many_reads_cost_no_more_stack_than_one(void) {
    char url[128];
    closed_port_url(url);
    cf_client *c = NULL;
    if (CHECK_STATUS(cf_client_open(url, "{\"retries\":0}", &c), CF_OK) != CF_OK) return;
    int failed = 0;
    for (int i = 0; i < 5000 && !failed; i++) {
        char *json = NULL;
        failed = cf_metrics(c, &json) != CF_OK;
        cf_free(json);
    }
    CHECKF(!failed, "cf_metrics failed: %s", cf_last_error());
    struct small_stack_read read = {c, CF_ERR_INTERNAL, CF_ERR_INTERNAL, CF_ERR_INTERNAL};
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setstacksize(&attributes, SMALL_STACK);
    pthread_t thread;
    int started = pthread_create(&thread, &attributes, read_metrics, &read);
    pthread_attr_destroy(&attributes);
    CHECKF(started == 0, "pthread_create: %d", started);
    if (started == 0) pthread_join(thread, NULL);
    CHECK_INT_EQ(read.json, CF_OK);
    CHECK_INT_EQ(read.prometheus, CF_OK);
    CHECK_INT_EQ(read.endpoints, CF_OK);
    cf_client_close(c);
}

int main(void) {
    RUN(known_calls_give_exact_counts);
    RUN(a_dead_port_gives_nan_times);
    RUN(a_dropped_connection_has_no_time_and_a_500_has_one);
    RUN(the_names_live_in_the_block);
    RUN(bad_arguments_leave_out_null);
    RUN(many_reads_cost_no_more_stack_than_one);
    return harness_report("metrics_endpoints_test");
}
