/*
 * The client section of catfacts.h, from C, against catfacts-mock: opening and options,
 * the one-shot calls and their JSON, every status a caller can meet, metrics (JSON,
 * Prometheus, listener) and the offline fallback.
 */
#include "harness.h"

#include <pthread.h>

/* A non-NULL value out-pointers start with, so a failure that leaves them alone shows. */
#define SENTINEL ((void *)&sentinel_target)
static int sentinel_target;

/* The mock most tests share: the bundled catalog, no faults. */
static char default_url[128];

static cf_client *open_client(const char *base_url, const char *options_json) {
    cf_client *c = NULL;
    if (CHECK_STATUS(cf_client_open(base_url, options_json, &c), CF_OK) != CF_OK) return NULL;
    CHECK(c != NULL);
    return c;
}

/* The host:port part of an http URL ("127.0.0.1:4242"), for checking that messages name it. */
static const char *host_port(const char *url) {
    const char *p = strstr(url, "://");
    return p ? p + 3 : url;
}

/* ---- opening a client ---- */

static void client_open_with_defaults_succeeds(void) {
    cf_client *c = SENTINEL;
    CHECK_STATUS(cf_client_open(NULL, NULL, &c), CF_OK);
    CHECK(c != NULL && c != SENTINEL);
    CHECK_STR_EQ(cf_last_error(), "");
    cf_client_close(c);
}

static void client_open_rejects_a_null_out(void) {
    CHECK_FAILS(cf_client_open("http://127.0.0.1:1", NULL, NULL), CF_ERR_ARGUMENT, NULL);
    CHECK_FAILS(cf_client_open(NULL, "{}", NULL), CF_ERR_ARGUMENT, NULL);
}

static void client_open_rejects_urls_that_are_not_http(void) {
    static const struct { const char *url, *named; } bad[] = {
        {"ftp://x", "ftp"},
        {"file:///etc/passwd", "file"},
        {"catfact.ninja", NULL},
        {"", NULL},
        {"http://", NULL},
        {"not a url at all", NULL},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cf_client *c = SENTINEL;
        CHECK_FAILS(cf_client_open(bad[i].url, NULL, &c), CF_ERR_ARGUMENT, bad[i].named);
        CHECKF(c == NULL, "out not set to NULL for \"%s\"", bad[i].url);
        if (c != NULL && c != SENTINEL) cf_client_close(c);
    }
}

static void client_open_accepts_http_https_and_a_path_prefix(void) {
    static const char *good[] = {"https://catfact.ninja", "http://127.0.0.1:8106",
                                 "http://proxy.example:8080/catfacts", "https://catfact.ninja/"};
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        cf_client *c = NULL;
        CHECK_STATUS(cf_client_open(good[i], NULL, &c), CF_OK);
        CHECK(c != NULL);
        cf_client_close(c);
    }
}

static void client_open_rejects_options_that_are_not_a_json_object(void) {
    static const char *bad[] = {"[]", "[1,2]", "42", "\"timeout_ms\"", "null", "true", "{", "", "{\"retries\":}",
                                "{\"retries\":1} trailing"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cf_client *c = SENTINEL;
        CHECK_FAILS(cf_client_open("http://127.0.0.1:1", bad[i], &c), CF_ERR_ARGUMENT, NULL);
        CHECKF(c == NULL, "out not set to NULL for options %s", bad[i]);
    }
}

static void client_open_rejects_unknown_option_keys_naming_them(void) {
    cf_client *c = SENTINEL;
    CHECK_FAILS(cf_client_open("http://127.0.0.1:1", "{\"colour\":\"tabby\"}", &c), CF_ERR_ARGUMENT, "colour");
    CHECK(c == NULL);
    c = SENTINEL;
    CHECK_FAILS(cf_client_open("http://127.0.0.1:1", "{\"timeout_ms\":1000,\"retrys\":1}", &c), CF_ERR_ARGUMENT,
                "retrys");
    CHECK(c == NULL);
}

static void client_open_rejects_wrong_option_types_naming_the_key(void) {
    static const struct { const char *json, *key; } bad[] = {
        {"{\"timeout_ms\":\"fast\"}", "timeout_ms"},
        {"{\"connect_timeout_ms\":true}", "connect_timeout_ms"},
        {"{\"retries\":\"2\"}", "retries"},
        {"{\"retries\":1.5}", "retries"},
        {"{\"cache_max_bytes\":\"big\"}", "cache_max_bytes"},
        {"{\"offline_fallback\":\"yes\"}", "offline_fallback"},
        {"{\"offline_fallback\":1}", "offline_fallback"},
        {"{\"user_agent\":42}", "user_agent"},
        {"{\"max_body_bytes\":[]}", "max_body_bytes"},
        {"{\"cache_path\":3}", "cache_path"},
        {"{\"ca_file\":3}", "ca_file"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cf_client *c = SENTINEL;
        CHECK_FAILS(cf_client_open("http://127.0.0.1:1", bad[i].json, &c), CF_ERR_ARGUMENT, bad[i].key);
        CHECKF(c == NULL, "out not set to NULL for options %s", bad[i].json);
    }
}

/* null is not a number, a bool or a string: the header lists no key that takes null. */
static void client_open_rejects_null_option_values_naming_the_key(void) {
    static const struct { const char *json, *key; } bad[] = {
        {"{\"timeout_ms\":null}", "timeout_ms"},
        {"{\"offline_fallback\":null}", "offline_fallback"},
        {"{\"user_agent\":null}", "user_agent"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cf_client *c = SENTINEL;
        CHECK_FAILS(cf_client_open("http://127.0.0.1:1", bad[i].json, &c), CF_ERR_ARGUMENT, bad[i].key);
        CHECKF(c == NULL, "out not set to NULL for options %s", bad[i].json);
        if (c != NULL && c != SENTINEL) cf_client_close(c);
    }
}

static void client_open_rejects_option_values_out_of_range_naming_the_key(void) {
    static const struct { const char *json, *key; } bad[] = {
        {"{\"timeout_ms\":0}", "timeout_ms"},
        {"{\"timeout_ms\":-1}", "timeout_ms"},
        {"{\"connect_timeout_ms\":0}", "connect_timeout_ms"},
        {"{\"retries\":-1}", "retries"},
        {"{\"cache_max_bytes\":-1}", "cache_max_bytes"},
        {"{\"max_body_bytes\":0}", "max_body_bytes"},
        /* D1: a timeout this large trapped the process at the first request. */
        {"{\"timeout_ms\":9223372036854775807}", "'timeout_ms' in client options must be in 1..86400000; got 9223372036854775807"},
        {"{\"timeout_ms\":-9223372036854775808}", "'timeout_ms' in client options must be in 1..86400000"},
        {"{\"connect_timeout_ms\":86400001}", "connect_timeout_ms"},
        {"{\"retries\":101}", "'retries' in client options must be in 0..100; got 101"},
        {"{\"deadline_ms\":0}", "'deadline_ms' in client options must be in 1..86400000; got 0"},
        {"{\"cache_ttl_ms\":9223372036854775807}", "cache_ttl_ms"},
        {"{\"max_body_bytes\":9223372036854775807}", "max_body_bytes"},
        {"{\"timeout_ms\":2.5}", "'timeout_ms' in client options must be an integer in 1..86400000"},
        {"{\"timeout_ms\":\"5000\"}", "'timeout_ms' in client options must be an integer"},
        /* D3: a line break in a header field would forge headers. */
        {"{\"user_agent\":\"x\\r\\nX-Injected: 1\"}", "user_agent=\"x\\r\\nX-Injected: 1\": contains a control character"},
        {"{\"proxy\":\"http://p:1\\r\\n\"}", "contains a space or a control character"},
        /* A CA bundle libcurl could not read would fail every https call as a TLS error. */
        {"{\"ca_file\":\"/nonexistent/ca.pem\"}",
         "ca_file='/nonexistent/ca.pem': cannot be read (No such file or directory); name a PEM file of CA certificates"},
        {"{\"ca_file\":\"/tmp\"}", "ca_file='/tmp': is a folder"},
        {"{\"ca_file\":\"\"}", "ca_file=\"\": is empty"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cf_client *c = SENTINEL;
        CHECK_FAILS(cf_client_open("http://127.0.0.1:1", bad[i].json, &c), CF_ERR_ARGUMENT, bad[i].key);
        CHECKF(c == NULL, "out not set to NULL for options %s", bad[i].json);
    }
}

static void a_key_given_twice_counts_the_first_time(void) {
    cf_client *c = open_client("http://127.0.0.1:1", "{\"retries\":1,\"retries\":101}");
    CHECK(c != NULL);
    cf_client_close(c);
    c = SENTINEL;
    CHECK_FAILS(cf_client_open("http://127.0.0.1:1", "{\"retries\":101,\"retries\":1}", &c), CF_ERR_ARGUMENT,
                "'retries' in client options must be in 0..100; got 101");
    CHECK(c == NULL);
}

static void client_open_accepts_every_other_documented_option(void) {
    cf_client *c = open_client("http://127.0.0.1:1",
                               "{\"timeout_ms\":5000,\"connect_timeout_ms\":1000,\"retries\":1,"
                               "\"cache_max_bytes\":1048576,\"offline_fallback\":false,"
                               "\"user_agent\":\"client_test/1.0\",\"max_body_bytes\":100000,"
                               "\"ca_file\":\"/etc/ssl/certs/ca-certificates.crt\"}");
    cf_client_close(c);
    c = open_client("http://127.0.0.1:1", "{}");
    cf_client_close(c);
    c = open_client("http://127.0.0.1:1", "  { \"timeout_ms\" : 2500.0 }  ");
    cf_client_close(c);
}

/* ---- NULL handles and out-pointers ---- */

static void one_shot_calls_reject_a_null_client(void) {
    char *out = SENTINEL;
    CHECK_FAILS(cf_breeds_page(NULL, 1, 10, &out), CF_ERR_ARGUMENT, NULL);
    CHECK(out == NULL);
    out = SENTINEL;
    CHECK_FAILS(cf_facts_page(NULL, 1, 10, 0, &out), CF_ERR_ARGUMENT, NULL);
    CHECK(out == NULL);
    out = SENTINEL;
    CHECK_FAILS(cf_fact_random(NULL, 0, &out), CF_ERR_ARGUMENT, NULL);
    CHECK(out == NULL);
    out = SENTINEL;
    CHECK_FAILS(cf_breed_find(NULL, "Abyssinian", &out), CF_ERR_ARGUMENT, NULL);
    CHECK(out == NULL);
    out = SENTINEL;
    CHECK_FAILS(cf_metrics(NULL, &out), CF_ERR_ARGUMENT, NULL);
    CHECK(out == NULL);
    out = SENTINEL;
    CHECK_FAILS(cf_metrics_prometheus(NULL, &out), CF_ERR_ARGUMENT, NULL);
    CHECK(out == NULL);
}

static void one_shot_calls_reject_null_out_pointers(void) {
    char closed[128];
    closed_port_url(closed);
    cf_client *c = open_client(closed, "{\"retries\":0}");
    if (c == NULL) return;
    CHECK_FAILS(cf_breeds_page(c, 1, 10, NULL), CF_ERR_ARGUMENT, NULL);
    CHECK_FAILS(cf_facts_page(c, 1, 10, 0, NULL), CF_ERR_ARGUMENT, NULL);
    CHECK_FAILS(cf_fact_random(c, 0, NULL), CF_ERR_ARGUMENT, NULL);
    CHECK_FAILS(cf_breed_find(c, "Abyssinian", NULL), CF_ERR_ARGUMENT, NULL);
    CHECK_FAILS(cf_metrics(c, NULL), CF_ERR_ARGUMENT, NULL);
    CHECK_FAILS(cf_metrics_prometheus(c, NULL), CF_ERR_ARGUMENT, NULL);
    CHECK_INT_EQ(client_total_requests(c), 0); /* refused before sending anything */
    cf_client_close(c);
}

static void metrics_listener_rejects_a_null_client(void) {
    CHECK_FAILS(cf_client_set_metrics_listener(NULL, NULL, NULL), CF_ERR_ARGUMENT, NULL);
}

static void closing_or_freeing_null_is_a_no_op(void) {
    cf_client_close(NULL);
    cf_list_close(NULL);
    cf_breed_free(NULL);
    cf_fact_free(NULL);
    cf_free(NULL);
    CHECK(1); /* reaching this line is the check */
}

/* ---- argument checks before any request ---- */

static void pages_reject_zero_and_negative_page_and_limit(void) {
    char closed[128];
    closed_port_url(closed);
    cf_client *c = open_client(closed, "{\"retries\":0}");
    if (c == NULL) return;
    static const struct { int64_t page, limit; const char *named; } bad[] = {
        {0, 10, "page"}, {-1, 10, "page"}, {INT64_MIN, 10, "page"},
        {1, 0, "limit"}, {1, -5, "limit"}, {1, INT64_MIN, "limit"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *out = SENTINEL;
        CHECK_FAILS(cf_breeds_page(c, bad[i].page, bad[i].limit, &out), CF_ERR_ARGUMENT, bad[i].named);
        CHECK(out == NULL);
        out = SENTINEL;
        CHECK_FAILS(cf_facts_page(c, bad[i].page, bad[i].limit, 0, &out), CF_ERR_ARGUMENT, bad[i].named);
        CHECK(out == NULL);
    }
    CHECK_INT_EQ(client_total_requests(c), 0);
    cf_client_close(c);
}

static void negative_max_length_is_an_argument_error(void) {
    char closed[128];
    closed_port_url(closed);
    cf_client *c = open_client(closed, "{\"retries\":0}");
    if (c == NULL) return;
    char *out = SENTINEL;
    CHECK_FAILS(cf_facts_page(c, 1, 10, -1, &out), CF_ERR_ARGUMENT, "max_length");
    CHECK(out == NULL);
    out = SENTINEL;
    CHECK_FAILS(cf_fact_random(c, -1, &out), CF_ERR_ARGUMENT, "max_length");
    CHECK(out == NULL);
    CHECK_INT_EQ(client_total_requests(c), 0);
    cf_client_close(c);
}

static void breed_find_rejects_null_empty_and_invalid_utf8_names(void) {
    char closed[128];
    closed_port_url(closed);
    cf_client *c = open_client(closed, "{\"retries\":0}");
    if (c == NULL) return;
    static const char *bad[] = {
        "",
        "\xff\xfe",           /* never valid in UTF-8 */
        "Abyssini\xc3",       /* a sequence cut short */
        "\xc0\xaf",           /* an overlong "/" */
        "Aby\xed\xa0\x80",    /* a UTF-16 surrogate */
        "Abyssinian\x80",     /* a stray continuation byte */
    };
    char *out = SENTINEL;
    CHECK_FAILS(cf_breed_find(c, NULL, &out), CF_ERR_ARGUMENT, NULL);
    CHECK(out == NULL);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        out = SENTINEL;
        CHECK_FAILS(cf_breed_find(c, bad[i], &out), CF_ERR_ARGUMENT, NULL);
        CHECKF(out == NULL, "out not set to NULL for name #%zu", i);
    }
    CHECK_INT_EQ(client_total_requests(c), 0);
    cf_client_close(c);
}

static void last_error_is_cleared_by_a_successful_call(void) {
    cf_client *c = SENTINEL;
    CHECK_FAILS(cf_client_open("ftp://x", NULL, &c), CF_ERR_ARGUMENT, "ftp");
    c = open_client(default_url, NULL);
    if (c == NULL) return;
    CHECK_STR_EQ(cf_last_error(), "");
    char *out = NULL;
    CHECK_FAILS(cf_breeds_page(c, 0, 10, &out), CF_ERR_ARGUMENT, "page");
    CHECK_STATUS(cf_metrics(c, &out), CF_OK);
    CHECK_STR_EQ(cf_last_error(), "");
    cf_free(out);
    out = NULL;
    CHECK_FAILS(cf_breeds_page(c, 0, 10, &out), CF_ERR_ARGUMENT, "page");
    CHECK_STATUS(cf_breeds_page(c, 1, 1, &out), CF_OK);
    CHECK_STR_EQ(cf_last_error(), "");
    cf_free(out);
    cf_client_close(c);
}

/* ---- pages ---- */

static void check_abyssinian(const json_t *breed) {
    CHECK_STR_EQ(json_get_str(breed, "breed"), "Abyssinian");
    CHECK_STR_EQ(json_get_str(breed, "country"), "Ethiopia");
    CHECK_STR_EQ(json_get_str(breed, "origin"), "Natural/Standard");
    CHECK_STR_EQ(json_get_str(breed, "coat"), "Short");
    CHECK_STR_EQ(json_get_str(breed, "pattern"), "Ticked");
    CHECK_INT_EQ(json_object_size(breed), 5);
}

static void breeds_page_has_the_documented_shape(void) {
    cf_client *c = open_client(default_url, NULL);
    if (c == NULL) return;
    char *out = SENTINEL;
    if (CHECK_STATUS(cf_breeds_page(c, 1, 10, &out), CF_OK) == CF_OK) {
        json_t *page = PARSE_JSON(out);
        CHECK(json_is_object(page));
        static const char *keys[] = {"page", "last_page", "per_page", "total", "items", "source", "fetched_at"};
        for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
            CHECKF(json_object_get(page, keys[i]) != NULL, "no \"%s\" in %s", keys[i], out);
        }
        CHECK_INT_EQ(json_get_int(page, "page", -1), 1);
        CHECK_INT_EQ(json_get_int(page, "per_page", -1), 10);
        CHECK_INT_EQ(json_get_int(page, "total", -1), 98);
        CHECK_INT_EQ(json_get_int(page, "last_page", -1), 10);
        CHECK_STR_EQ(json_get_str(page, "source"), "network");
        CHECKF(is_rfc3339(json_get_str(page, "fetched_at")), "fetched_at is \"%s\"",
               json_get_str(page, "fetched_at") ? json_get_str(page, "fetched_at") : "(absent)");
        json_t *items = json_object_get(page, "items");
        CHECK(json_is_array(items));
        CHECK_INT_EQ(json_array_size(items), 10);
        check_abyssinian(json_array_get(items, 0));
        json_t *aegean = json_array_get(items, 1);
        CHECK_STR_EQ(json_get_str(aegean, "breed"), "Aegean");
        CHECK_STR_EQ(json_get_str(aegean, "country"), "Greece");
        CHECK_STR_EQ(json_get_str(aegean, "origin"), "Natural/Standard");
        CHECK_STR_EQ(json_get_str(aegean, "coat"), "Semi-long");
        CHECK_STR_EQ(json_get_str(aegean, "pattern"), "Bicolor");
        json_decref(page);
    }
    cf_free(out);
    cf_client_close(c);
}

static void breeds_page_two_of_five_holds_the_sixth_to_tenth_breeds(void) {
    cf_client *c = open_client(default_url, NULL);
    if (c == NULL) return;
    char *first = NULL, *second = NULL;
    if (CHECK_STATUS(cf_breeds_page(c, 1, 10, &first), CF_OK) == CF_OK &&
        CHECK_STATUS(cf_breeds_page(c, 2, 5, &second), CF_OK) == CF_OK) {
        json_t *ten = PARSE_JSON(first), *five = PARSE_JSON(second);
        CHECK_INT_EQ(json_get_int(five, "page", -1), 2);
        CHECK_INT_EQ(json_get_int(five, "per_page", -1), 5);
        CHECK_INT_EQ(json_get_int(five, "last_page", -1), 20);
        json_t *expected = json_object_get(ten, "items"), *items = json_object_get(five, "items");
        CHECK_INT_EQ(json_array_size(items), 5);
        for (size_t i = 0; i < 5; i++) {
            CHECKF(json_equal(json_array_get(items, i), json_array_get(expected, 5 + i)),
                   "item %zu of page 2 is not breed %zu", i, 6 + i);
        }
        json_decref(ten);
        json_decref(five);
    }
    cf_free(first);
    cf_free(second);
    cf_client_close(c);
}

static void breeds_leave_absent_fields_out(void) {
    cf_client *c = open_client(default_url, NULL);
    if (c == NULL) return;
    char *out = NULL;
    if (CHECK_STATUS(cf_breeds_page(c, 1, 100, &out), CF_OK) == CF_OK) {
        json_t *page = PARSE_JSON(out);
        json_t *items = json_object_get(page, "items");
        CHECK_INT_EQ(json_array_size(items), 98);
        int bad = 0, partial = 0;
        size_t i;
        json_t *breed;
        json_array_foreach(items, i, breed) {
            const char *key;
            json_t *value;
            if (json_get_str(breed, "breed") == NULL) bad++;
            if (json_object_size(breed) < 5) partial++;
            json_object_foreach(breed, key, value) {
                int known = !strcmp(key, "breed") || !strcmp(key, "country") || !strcmp(key, "origin") ||
                            !strcmp(key, "coat") || !strcmp(key, "pattern");
                if (!known || !json_is_string(value) || json_string_length(value) == 0) {
                    bad++;
                    fprintf(stderr, "breed %zu: \"%s\" is unknown, not a string or empty\n", i, key);
                }
            }
        }
        CHECK_INT_EQ(bad, 0);
        CHECKF(partial > 0, "no bundled breed lacks a field, so this test proves nothing");
        json_decref(page);
    }
    cf_free(out);
    cf_client_close(c);
}

static void page_past_the_end_has_no_items(void) {
    cf_client *c = open_client(default_url, NULL);
    if (c == NULL) return;
    char *out = NULL;
    if (CHECK_STATUS(cf_breeds_page(c, 50, 10, &out), CF_OK) == CF_OK) {
        json_t *page = PARSE_JSON(out);
        CHECK_INT_EQ(json_get_int(page, "page", -1), 50);
        CHECK_INT_EQ(json_get_int(page, "total", -1), 98);
        CHECK(json_is_array(json_object_get(page, "items")));
        CHECK_INT_EQ(json_array_size(json_object_get(page, "items")), 0);
        json_decref(page);
    }
    cf_free(out);
    cf_client_close(c);
}

static void limit_over_the_server_cap_is_capped(void) {
    char url[128];
    REQUIRE_MOCK("--max-limit 50", url);
    cf_client *c = open_client(url, NULL);
    char *out = NULL;
    if (c != NULL && CHECK_STATUS(cf_breeds_page(c, 1, 100, &out), CF_OK) == CF_OK) {
        json_t *page = PARSE_JSON(out);
        CHECK_INT_EQ(json_get_int(page, "per_page", -1), 50);
        CHECK_INT_EQ(json_array_size(json_object_get(page, "items")), 50);
        CHECK_INT_EQ(json_get_int(page, "last_page", -1), 2);
        CHECK_INT_EQ(json_get_int(page, "total", -1), 98);
        json_decref(page);
    }
    cf_free(out);
    cf_client_close(c);
    stop_mock();
}

static void facts_page_holds_every_fact_without_max_length(void) {
    cf_client *c = open_client(default_url, NULL);
    if (c == NULL) return;
    char *out = NULL;
    if (CHECK_STATUS(cf_facts_page(c, 1, 10, 0, &out), CF_OK) == CF_OK) {
        json_t *page = PARSE_JSON(out);
        CHECK_INT_EQ(json_get_int(page, "total", -1), 160);
        CHECK_INT_EQ(json_get_int(page, "per_page", -1), 10);
        CHECK_INT_EQ(json_get_int(page, "last_page", -1), 16);
        CHECK_STR_EQ(json_get_str(page, "source"), "network");
        CHECK(is_rfc3339(json_get_str(page, "fetched_at")));
        json_t *items = json_object_get(page, "items");
        CHECK_INT_EQ(json_array_size(items), 10);
        size_t i;
        json_t *fact;
        json_array_foreach(items, i, fact) {
            const char *text = json_get_str(fact, "fact");
            CHECK(text != NULL && text[0] != '\0');
            CHECK(json_get_int(fact, "length", -1) > 0);
            CHECK_INT_EQ(json_object_size(fact), 2);
        }
        json_decref(page);
    }
    cf_free(out);
    cf_client_close(c);
}

static void facts_page_keeps_to_max_length(void) {
    cf_client *c = open_client(default_url, NULL);
    if (c == NULL) return;
    char *out = NULL;
    if (CHECK_STATUS(cf_facts_page(c, 1, 200, 60, &out), CF_OK) == CF_OK) {
        json_t *page = PARSE_JSON(out);
        json_t *items = json_object_get(page, "items");
        long long total = json_get_int(page, "total", -1);
        CHECK(total > 0 && total < 160);
        CHECK_INT_EQ(json_array_size(items), total);
        size_t i;
        json_t *fact;
        json_array_foreach(items, i, fact) {
            long long length = json_get_int(fact, "length", -1);
            const char *text = json_get_str(fact, "fact");
            CHECKF(length >= 1 && length <= 60, "fact %zu has length %lld", i, length);
            CHECKF(text != NULL && utf8_length(text) <= 60, "fact %zu is \"%s\"", i, text ? text : "(null)");
        }
        json_decref(page);
    }
    cf_free(out);
    cf_client_close(c);
}

static void fact_random_returns_a_fact_within_max_length(void) {
    cf_client *c = open_client(default_url, NULL);
    if (c == NULL) return;
    for (int i = 0; i < 5; i++) {
        char *out = NULL;
        if (CHECK_STATUS(cf_fact_random(c, i == 0 ? 0 : 80, &out), CF_OK) != CF_OK) break;
        json_t *fact = PARSE_JSON(out);
        const char *text = json_get_str(fact, "fact");
        long long length = json_get_int(fact, "length", -1);
        CHECK(text != NULL && text[0] != '\0');
        CHECK(length > 0);
        if (i > 0) CHECKF(length <= 80 && text != NULL && utf8_length(text) <= 80, "length %lld", length);
        json_decref(fact);
        cf_free(out);
    }
    CHECK_INT_EQ(client_metric(c, "/fact", "requests"), 5);
    cf_client_close(c);
}

static void fact_random_shorter_than_every_fact_is_http_404(void) {
    cf_client *c = open_client(default_url, NULL);
    if (c == NULL) return;
    char *out = SENTINEL;
    CHECK_FAILS(cf_fact_random(c, 1, &out), CF_ERR_HTTP, "404");
    CHECK(out == NULL);
    cf_client_close(c);
}

/* ---- cf_breed_find ---- */

static void breed_find_matches_names_ignoring_case_and_blanks(void) {
    cf_client *c = open_client(default_url, NULL);
    if (c == NULL) return;
    char *out = NULL;
    if (CHECK_STATUS(cf_breed_find(c, "abyssinian", &out), CF_OK) == CF_OK) {
        json_t *breed = PARSE_JSON(out);
        check_abyssinian(breed);
        json_decref(breed);
    }
    cf_free(out);
    out = NULL;
    if (CHECK_STATUS(cf_breed_find(c, "  AEGEAN  ", &out), CF_OK) == CF_OK) {
        json_t *breed = PARSE_JSON(out);
        CHECK_STR_EQ(json_get_str(breed, "breed"), "Aegean");
        CHECK_STR_EQ(json_get_str(breed, "country"), "Greece");
        json_decref(breed);
    }
    cf_free(out);
    cf_client_close(c);
}

static void breed_find_of_an_unknown_name_is_not_found_naming_it(void) {
    cf_client *c = open_client(default_url, NULL);
    if (c == NULL) return;
    char *out = SENTINEL;
    CHECK_FAILS(cf_breed_find(c, "Unicorn Cat", &out), CF_ERR_NOT_FOUND, "Unicorn Cat");
    CHECK(out == NULL);
    cf_client_close(c);
}

static void breed_find_of_a_known_breed_sends_no_request(void) {
    cf_client *c = open_client(default_url, NULL);
    if (c == NULL) return;
    char *out = NULL;
    CHECK_STATUS(cf_breed_find(c, "Abyssinian", &out), CF_OK);
    cf_free(out);
    long long before = client_total_requests(c);
    CHECK(before >= 1);
    for (int i = 0; i < 3; i++) {
        out = NULL;
        CHECK_STATUS(cf_breed_find(c, "ABYSSINIAN", &out), CF_OK);
        cf_free(out);
    }
    CHECK_INT_EQ(client_total_requests(c), before);
    cf_client_close(c);
}

/* ---- metrics ---- */

/* Requests sent to /breeds so far, from cf_metrics. */
static long long breeds_requests(cf_client *c) {
    char *text = NULL;
    if (cf_metrics(c, &text) != CF_OK) return -1;
    json_error_t error;
    json_t *m = json_loads(text, 0, &error);
    cf_free(text);
    long long n = 0;
    json_t *endpoints = json_object_get(m, "endpoints");
    for (size_t i = 0; i < json_array_size(endpoints); i++) {
        json_t *e = json_array_get(endpoints, i);
        if (strcmp(json_string_value(json_object_get(e, "endpoint")), "/breeds") == 0) {
            n = json_integer_value(json_object_get(e, "requests"));
        }
    }
    json_decref(m);
    return n;
}

/* Waits until /breeds has `want` requests, then a little more so that one too many (a
   request that must never be sent) can show; a count that is right cannot change then. */
static long long breeds_requests_settled(cf_client *c, long long want) {
    WAIT_UNTIL(breeds_requests(c) >= want);
    sleep_ms(100);
    return breeds_requests(c);
}

static void pages_asked_in_order_are_read_ahead_two_by_default(void) {
    cf_client *c = open_client(default_url, "{\"cache_max_bytes\":0}");
    if (c == NULL) return;
    char *out = NULL;
    CHECK_STATUS(cf_breeds_page(c, 1, 10, &out), CF_OK);
    cf_free(out);
    CHECK_INT_EQ(breeds_requests_settled(c, 1), 1);
    CHECK_STATUS(cf_breeds_page(c, 2, 10, &out), CF_OK);
    cf_free(out);
    /* Pages 3 and 4 on their way without being asked. */
    CHECK_INT_EQ(breeds_requests_settled(c, 4), 4);
    /* Page 3 answered by the read-ahead (no cache), and page 5 started. */
    CHECK_STATUS(cf_breeds_page(c, 3, 10, &out), CF_OK);
    CHECKF(out != NULL && strstr(out, "\"page\":3") != NULL, "page 3: %s", out ? out : "(null)");
    cf_free(out);
    CHECK_INT_EQ(breeds_requests_settled(c, 5), 5);
    cf_client_close(c);

    c = open_client(default_url, "{\"cache_max_bytes\":0,\"read_ahead\":0}");
    if (c == NULL) return;
    for (int64_t page = 1; page <= 3; page++) {
        CHECK_STATUS(cf_breeds_page(c, page, 10, &out), CF_OK);
        cf_free(out);
    }
    CHECK_INT_EQ(breeds_requests_settled(c, 3), 3);
    cf_client_close(c);
}

static int is_number(const json_t *obj, const char *key) {
    return json_is_number(json_object_get(obj, key));
}

static void metrics_have_the_documented_keys_and_exact_counts(void) {
    /* No read-ahead: the count is of the pages asked. */
    cf_client *c = open_client(default_url, "{\"read_ahead\":0}");
    if (c == NULL) return;
    for (int64_t page = 1; page <= 3; page++) {
        char *out = NULL;
        CHECK_STATUS(cf_breeds_page(c, page, 10, &out), CF_OK);
        cf_free(out);
    }
    char *text = SENTINEL;
    if (CHECK_STATUS(cf_metrics(c, &text), CF_OK) != CF_OK) {
        cf_client_close(c);
        return;
    }
    json_t *m = PARSE_JSON(text);
    json_t *breeds = metrics_endpoint(m, "/breeds");
    CHECKF(breeds != NULL, "no /breeds endpoint in %s", text);
    CHECK_INT_EQ(json_get_int(breeds, "requests", -1), 3);
    CHECK_INT_EQ(json_get_int(breeds, "errors", -1), 0);
    CHECK_INT_EQ(json_get_int(breeds, "cache_hits", -1), 0);
    CHECK_INT_EQ(json_get_int(breeds, "retries", -1), 0);
    CHECK(json_get_int(breeds, "bytes", -1) > 0);
    static const char *times[] = {"avg_ms", "last_ms", "min_ms", "max_ms", "p50_ms", "p95_ms", "p99_ms"};
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
        CHECKF(is_number(breeds, times[i]), "\"%s\" is not a number", times[i]);
        CHECKF(json_number_value(json_object_get(breeds, times[i])) >= 0, "\"%s\" is negative", times[i]);
    }
    double min = json_number_value(json_object_get(breeds, "min_ms"));
    double max = json_number_value(json_object_get(breeds, "max_ms"));
    double avg = json_number_value(json_object_get(breeds, "avg_ms"));
    double p50 = json_number_value(json_object_get(breeds, "p50_ms"));
    double p95 = json_number_value(json_object_get(breeds, "p95_ms"));
    double p99 = json_number_value(json_object_get(breeds, "p99_ms"));
    double last = json_number_value(json_object_get(breeds, "last_ms"));
    /* Percentiles may come from a histogram: allow its rounding (1%) past min and max. */
    CHECKF(min <= avg && avg <= max, "min %g avg %g max %g", min, avg, max);
    CHECKF(min * 0.99 <= p50 && p50 <= p95 && p95 <= p99 && p99 <= max * 1.01 + 0.01,
           "min %g p50 %g p95 %g p99 %g max %g", min, p50, p95, p99, max);
    CHECKF(min <= last && last <= max, "min %g last %g max %g", min, last, max);

    json_t *device = json_object_get(m, "device");
    CHECK(json_get_str(device, "make") != NULL);
    CHECK(json_get_str(device, "model") != NULL);
    CHECK(json_get_str(device, "arch") != NULL && json_get_str(device, "arch")[0] != '\0');
    CHECK(json_get_int(device, "cpus", 0) >= 1);
    json_t *os = json_object_get(m, "os");
    CHECK(json_get_str(os, "name") != NULL && json_get_str(os, "name")[0] != '\0');
    CHECK(json_get_str(os, "version") != NULL);
    CHECK(json_get_str(os, "kernel") != NULL && json_get_str(os, "kernel")[0] != '\0');
    json_t *app = json_object_get(m, "app");
    CHECK(json_get_str(app, "name") != NULL && json_get_str(app, "name")[0] != '\0');
    CHECK_STR_EQ(json_get_str(app, "library_version"), cf_version());
    json_t *memory = json_object_get(m, "memory");
    long long resident = json_get_int(memory, "resident_bytes", -1);
    long long peak = json_get_int(memory, "peak_resident_bytes", -1);
    CHECKF(resident > 0 && peak >= resident, "resident %lld peak %lld", resident, peak);
    CHECK(json_is_true(json_object_get(m, "online")));
    CHECK(is_rfc3339(json_get_str(m, "collected_at")));
    json_decref(m);
    cf_free(text);
    cf_client_close(c);
}

static void metrics_count_errors_per_endpoint(void) {
    cf_client *c = open_client(default_url, NULL);
    if (c == NULL) return;
    char *out = NULL;
    CHECK_FAILS(cf_fact_random(c, 1, &out), CF_ERR_HTTP, "404");
    CHECK_STATUS(cf_fact_random(c, 0, &out), CF_OK);
    cf_free(out);
    CHECK_INT_EQ(client_metric(c, "/fact", "requests"), 2);
    CHECK_INT_EQ(client_metric(c, "/fact", "errors"), 1);
    CHECK(client_metric(c, "/breeds", "requests") <= 0); /* absent or zero */
    cf_client_close(c);
}

static void metrics_name_the_endpoint_not_the_path_prefix(void) {
    char prefixed[160];
    snprintf(prefixed, sizeof prefixed, "%s/nope", default_url);
    cf_client *c = open_client(prefixed, "{\"retries\":0}");
    if (c == NULL) return;
    char *out = NULL;
    CHECK_FAILS(cf_breeds_page(c, 1, 10, &out), CF_ERR_HTTP, "404");
    char *text = NULL;
    if (CHECK_STATUS(cf_metrics(c, &text), CF_OK) == CF_OK) {
        json_t *m = PARSE_JSON(text);
        json_t *breeds = metrics_endpoint(m, "/breeds");
        CHECKF(breeds != NULL, "no /breeds endpoint in %s", text);
        CHECK_INT_EQ(json_get_int(breeds, "requests", -1), 1);
        CHECK_INT_EQ(json_get_int(breeds, "errors", -1), 1);
        CHECKF(strstr(text, "/nope") == NULL, "the prefix shows in %s", text);
        json_decref(m);
    }
    cf_free(text);
    cf_client_close(c);
}

static void prometheus_text_counts_requests_per_endpoint(void) {
    /* No read-ahead: pages 1 then 2 are a read in order, and pages fetched ahead would be
     * counted too, or not, depending on when they land. */
    cf_client *c = open_client(default_url, "{\"read_ahead\":0}");
    if (c == NULL) return;
    for (int64_t page = 1; page <= 2; page++) {
        char *out = NULL;
        CHECK_STATUS(cf_breeds_page(c, page, 5, &out), CF_OK);
        cf_free(out);
    }
    char *text = SENTINEL;
    if (CHECK_STATUS(cf_metrics_prometheus(c, &text), CF_OK) == CF_OK) {
        const char *series = "catfacts_requests_total{endpoint=\"/breeds\"}";
        const char *at = strstr(text, series);
        CHECKF(at != NULL, "no %s in:\n%s", series, text);
        if (at != NULL) {
            double value = -1;
            CHECK(sscanf(at + strlen(series), " %lf", &value) == 1);
            CHECKF(value == 2, "%s is %g, expected 2", series, value);
        }
        /* Every line: blank, a # comment, or a catfacts_ sample. */
        size_t length = strlen(text);
        CHECK(length > 0 && text[length - 1] == '\n');
        int bad = 0;
        for (const char *line = text; *line; ) {
            const char *end = strchr(line, '\n');
            size_t n = end ? (size_t)(end - line) : strlen(line);
            if (n > 0 && line[0] != '#' && strncmp(line, "catfacts_", 9) != 0) {
                bad++;
                fprintf(stderr, "not a catfacts_ sample: %.*s\n", (int)n, line);
            }
            line += n + (end ? 1 : 0);
        }
        CHECK_INT_EQ(bad, 0);
        cf_free(text);
    }
    cf_client_close(c);
}

/* ---- the metrics listener ---- */

struct heard {
    pthread_mutex_t lock;
    int calls;
    char endpoints[16][16];
    cf_status statuses[16];
    double ms[16];
};

static void hear(void *ctx, const char *endpoint, double ms, cf_status s) {
    struct heard *h = ctx;
    pthread_mutex_lock(&h->lock);
    if (h->calls < 16) {
        snprintf(h->endpoints[h->calls], sizeof h->endpoints[0], "%s", endpoint ? endpoint : "(null)");
        h->statuses[h->calls] = s;
        h->ms[h->calls] = ms;
    }
    h->calls++;
    pthread_mutex_unlock(&h->lock);
}

static int heard_calls(struct heard *h) {
    pthread_mutex_lock(&h->lock);
    int calls = h->calls;
    pthread_mutex_unlock(&h->lock);
    return calls;
}

/* Waits (listeners run on a library thread) for at least `calls` calls; returns the calls. */
static int wait_heard(struct heard *h, int calls) {
    WAIT_UNTIL(heard_calls(h) >= calls);
    return heard_calls(h);
}

static void metrics_listener_hears_each_request_with_endpoint_and_status(void) {
    cf_client *c = open_client(default_url, "{\"retries\":0}");
    if (c == NULL) return;
    struct heard h;
    memset(&h, 0, sizeof h);
    pthread_mutex_init(&h.lock, NULL);
    CHECK_STATUS(cf_client_set_metrics_listener(c, hear, &h), CF_OK);
    /* Each call's wall time: the request it heard of took no longer. */
    double took[4];
    double start = now_seconds();
    char *out = NULL;
    CHECK_STATUS(cf_breeds_page(c, 1, 5, &out), CF_OK);
    took[0] = now_seconds() - start;
    cf_free(out);
    out = NULL;
    start = now_seconds();
    CHECK_STATUS(cf_facts_page(c, 1, 5, 0, &out), CF_OK);
    took[1] = now_seconds() - start;
    cf_free(out);
    out = NULL;
    start = now_seconds();
    CHECK_STATUS(cf_fact_random(c, 0, &out), CF_OK);
    took[2] = now_seconds() - start;
    cf_free(out);
    start = now_seconds();
    CHECK_FAILS(cf_fact_random(c, 1, &out), CF_ERR_HTTP, "404");
    took[3] = now_seconds() - start;
    CHECK_INT_EQ(wait_heard(&h, 4), 4);
    sleep_ms(100); /* a fifth call would show by now; safe on a slow machine: it can only miss a bug, never fail a working library */
    CHECK_INT_EQ(heard_calls(&h), 4); /* once per request, not more */
    pthread_mutex_lock(&h.lock);
    static const char *endpoints[] = {"/breeds", "/facts", "/fact", "/fact"};
    static const cf_status statuses[] = {CF_OK, CF_OK, CF_OK, CF_ERR_HTTP};
    for (int i = 0; i < 4 && i < h.calls; i++) {
        CHECK_STR_EQ(h.endpoints[i], endpoints[i]);
        CHECKF(h.statuses[i] == statuses[i], "call %d: %s", i, cf_status_string(h.statuses[i]));
        CHECKF(h.ms[i] >= 0 && h.ms[i] <= took[i] * 1000 + 1, "call %d: a request of %g ms in a call of %g ms", i,
               h.ms[i], took[i] * 1000);
    }
    pthread_mutex_unlock(&h.lock);
    CHECK_STATUS(cf_client_set_metrics_listener(c, NULL, NULL), CF_OK);
    cf_client_close(c);
    pthread_mutex_destroy(&h.lock);
}

static void metrics_listener_is_not_called_after_removal(void) {
    /* No read-ahead: pages 2 to 4 in order would start requests of pages 5 and 6 that land
     * on whichever listener is set then. */
    cf_client *c = open_client(default_url, "{\"retries\":0,\"read_ahead\":0}");
    if (c == NULL) return;
    struct heard h;
    memset(&h, 0, sizeof h);
    pthread_mutex_init(&h.lock, NULL);
    CHECK_STATUS(cf_client_set_metrics_listener(c, hear, &h), CF_OK);
    char *out = NULL;
    CHECK_STATUS(cf_breeds_page(c, 1, 5, &out), CF_OK);
    cf_free(out);
    CHECK_INT_EQ(wait_heard(&h, 1), 1);
    CHECK_STATUS(cf_client_set_metrics_listener(c, NULL, NULL), CF_OK);
    for (int64_t page = 2; page <= 4; page++) {
        out = NULL;
        CHECK_STATUS(cf_breeds_page(c, page, 5, &out), CF_OK);
        cf_free(out);
    }
    sleep_ms(200); /* a broken client would call by now; safe on a slow machine: a working one never calls, however long we wait */
    CHECK_INT_EQ(heard_calls(&h), 1);
    /* A second listener replaces the first. */
    struct heard other;
    memset(&other, 0, sizeof other);
    pthread_mutex_init(&other.lock, NULL);
    CHECK_STATUS(cf_client_set_metrics_listener(c, hear, &h), CF_OK);
    CHECK_STATUS(cf_client_set_metrics_listener(c, hear, &other), CF_OK);
    out = NULL;
    CHECK_STATUS(cf_breeds_page(c, 5, 5, &out), CF_OK);
    cf_free(out);
    CHECK_INT_EQ(wait_heard(&other, 1), 1);
    sleep_ms(100);
    CHECK_INT_EQ(heard_calls(&h), 1);
    CHECK_STATUS(cf_client_set_metrics_listener(c, NULL, NULL), CF_OK);
    cf_client_close(c);
    pthread_mutex_destroy(&h.lock);
    pthread_mutex_destroy(&other.lock);
}

/* ---- failures: network, HTTP, rate limits, decoding, timeouts ---- */

/* A refused connection ends the call at once, not at a timeout: with timeouts of 60 s, half
 * of that is a bound only a hang reaches (how soon is for make bench). */
static void closed_port_is_a_network_error_quickly(void) {
    char closed[128];
    closed_port_url(closed);
    cf_client *c = open_client(closed, "{\"retries\":0,\"connect_timeout_ms\":60000,\"timeout_ms\":60000}");
    if (c == NULL) return;
    char *out = SENTINEL;
    double start = now_seconds();
    CHECK_FAILS(cf_breeds_page(c, 1, 10, &out), CF_ERR_NETWORK, host_port(closed));
    double took = now_seconds() - start;
    CHECKF(took < 30, "took %.2f s", took);
    CHECK(out == NULL);
    out = SENTINEL;
    CHECK_FAILS(cf_breed_find(c, "Abyssinian", &out), CF_ERR_NETWORK, NULL);
    CHECK(out == NULL);
    cf_client_close(c);
}

static void http_404_is_an_http_error_naming_the_status(void) {
    char prefixed[160];
    snprintf(prefixed, sizeof prefixed, "%s/nope", default_url);
    cf_client *c = open_client(prefixed, "{\"retries\":0}");
    if (c == NULL) return;
    char *out = SENTINEL;
    CHECK_FAILS(cf_breeds_page(c, 1, 10, &out), CF_ERR_HTTP, "404");
    CHECK(out == NULL);
    out = SENTINEL;
    CHECK_FAILS(cf_facts_page(c, 1, 10, 0, &out), CF_ERR_HTTP, "/nope/facts");
    CHECK(out == NULL);
    cf_client_close(c);
}

static void error_fields_give_the_status_retry_after_and_attempts(void) {
    char url[128];
    REQUIRE_MOCK("--fail-rate 1 --faults 429", url);
    cf_client *c = open_client(url, "{\"retries\":0}");
    if (c != NULL) {
        char *out = SENTINEL;
        CHECK_FAILS(cf_breeds_page(c, 1, 10, &out), CF_ERR_RATE_LIMITED, "429");
        CHECK_INT_EQ(cf_last_error_http_status(), 429);
        CHECK_INT_EQ(cf_last_error_retry_after_ms(), 1000);
        CHECK_INT_EQ(cf_last_error_attempts(), 1);
        /* A failure that sent nothing resets them all. */
        CHECK_FAILS(cf_breeds_page(c, 0, 10, &out), CF_ERR_ARGUMENT, "page 0");
        CHECK_INT_EQ(cf_last_error_http_status(), 0);
        CHECK_INT_EQ(cf_last_error_retry_after_ms(), -1);
        CHECK_INT_EQ(cf_last_error_attempts(), 0);
    }
    cf_client_close(c);
    stop_mock();
}

static void error_fields_count_every_attempt_and_clear_on_success(void) {
    char url[128];
    REQUIRE_MOCK("--fail-first 3 --faults 500", url);
    cf_client *c = open_client(url, "{\"retries\":2}");
    if (c != NULL) {
        char *out = SENTINEL;
        /* A 500 is not retried: one attempt. */
        CHECK_FAILS(cf_facts_page(c, 1, 5, 0, &out), CF_ERR_HTTP, "500");
        CHECK_INT_EQ(cf_last_error_http_status(), 500);
        CHECK_INT_EQ(cf_last_error_retry_after_ms(), -1);
        CHECK_INT_EQ(cf_last_error_attempts(), 1);
        out = NULL;
        CHECK_FAILS(cf_facts_page(c, 1, 5, 0, &out), CF_ERR_HTTP, "500");
        out = NULL;
        CHECK_FAILS(cf_facts_page(c, 1, 5, 0, &out), CF_ERR_HTTP, "500");
        out = NULL;
        CHECK_STATUS(cf_facts_page(c, 1, 5, 0, &out), CF_OK);
        cf_free(out);
        CHECK_INT_EQ(cf_last_error_http_status(), 0);
        CHECK_INT_EQ(cf_last_error_attempts(), 0);
    }
    cf_client_close(c);
    stop_mock();
    char dead[128];
    closed_port_url(dead);
    c = open_client(dead, "{\"retries\":2}");
    if (c != NULL) {
        char *out = SENTINEL;
        CHECK_FAILS(cf_breeds_page(c, 1, 10, &out), CF_ERR_NETWORK, "refused");
        CHECK_INT_EQ(cf_last_error_http_status(), 0);
        CHECK_INT_EQ(cf_last_error_attempts(), 3);
    }
    cf_client_close(c);
}

/* The server answers after 30 s, each attempt may take 60 s: a call ended by its 1 s
 * deadline ends long before either (how soon after 1 s is for make bench). */
static void deadline_bounds_the_whole_call_whatever_the_retries(void) {
    char url[128];
    REQUIRE_MOCK("--latency-ms 30000", url);
    cf_client *c = open_client(url, "{\"deadline_ms\":1000,\"retries\":5,\"timeout_ms\":60000}");
    if (c != NULL) {
        char *out = SENTINEL;
        double start = now_seconds();
        CHECK_FAILS(cf_breeds_page(c, 1, 5, &out), CF_ERR_TIMEOUT, "the call's deadline of 1000 ms passed after 1 attempt");
        double took = now_seconds() - start;
        /* In C's words: the option to raise is deadline_ms. */
        static const char advice[] = "; raise deadline_ms to wait longer";
        const char *said = cf_last_error();
        size_t length = said != NULL ? strlen(said) : 0;
        CHECKF(length >= sizeof advice && strcmp(said + length - (sizeof advice - 1), advice) == 0, "got \"%s\"",
               said != NULL ? said : "(null)");
        CHECKF(took >= 0.95 && took < 15, "took %.3f s for a deadline of 1 s", took);
        CHECK_INT_EQ(cf_last_error_attempts(), 1);
        CHECK(out == NULL);
    }
    cf_client_close(c);
    kill_mock(); /* not waiting for the answer still to come */
}

static void rate_limit_without_retries_is_rate_limited_with_retry_after(void) {
    char url[128];
    REQUIRE_MOCK("--fail-rate 1 --faults 429", url);
    cf_client *c = open_client(url, "{\"retries\":0}");
    if (c != NULL) {
        char *out = SENTINEL;
        cf_status s = CHECK_FAILS(cf_breeds_page(c, 1, 10, &out), CF_ERR_RATE_LIMITED, "429");
        char message[512];
        snprintf(message, sizeof message, "%s", cf_last_error());
        CHECKF(s != CF_ERR_RATE_LIMITED || contains_ci(message, "retry after 1 s"),
               "the message does not give Retry-After: \"%s\"", message);
        CHECK(out == NULL);
        CHECK_INT_EQ(client_metric(c, "/breeds", "requests"), 1);
    }
    cf_client_close(c);
    stop_mock();
}

static void rate_limit_is_retried_after_retry_after(void) {
    char url[128];
    REQUIRE_MOCK("--fail-first 1 --faults 429", url);
    cf_client *c = open_client(url, NULL);
    if (c != NULL) {
        char *out = NULL;
        double start = now_seconds();
        CHECK_STATUS(cf_breeds_page(c, 1, 10, &out), CF_OK);
        double took = now_seconds() - start;
        CHECKF(took >= 0.9, "answered after %.3f s: Retry-After: 1 was not honoured", took);
        /* Generous: a wait of 1 s and two local requests, on a loaded machine. */
        CHECKF(took < 10.0 * harness_slowdown(), "took %.2f s", took);
        json_t *page = PARSE_JSON(out);
        CHECK_INT_EQ(json_array_size(json_object_get(page, "items")), 10);
        json_decref(page);
        cf_free(out);
        CHECK_INT_EQ(client_metric(c, "/breeds", "retries"), 1);
        CHECK_INT_EQ(client_metric(c, "/breeds", "requests"), 2); /* retries included */
    }
    cf_client_close(c);
    stop_mock();
}

static void server_error_500_is_an_http_error(void) {
    char url[128];
    REQUIRE_MOCK("--fail-rate 1 --faults 500", url);
    cf_client *c = open_client(url, "{\"retries\":0}");
    if (c != NULL) {
        char *out = SENTINEL;
        CHECK_FAILS(cf_breeds_page(c, 1, 10, &out), CF_ERR_HTTP, "500");
        CHECK(out == NULL);
        out = SENTINEL;
        CHECK_FAILS(cf_fact_random(c, 0, &out), CF_ERR_HTTP, "500");
        CHECK(out == NULL);
    }
    cf_client_close(c);
    stop_mock();
}

static void server_error_500_is_not_retried(void) {
    char url[128];
    REQUIRE_MOCK("--fail-first 1 --faults 500", url);
    cf_client *c = open_client(url, NULL); /* default retries: 2, but not for 500 */
    if (c != NULL) {
        char *out = SENTINEL;
        CHECK_FAILS(cf_breeds_page(c, 1, 10, &out), CF_ERR_HTTP, "500");
        CHECK(out == NULL);
        CHECK_INT_EQ(client_metric(c, "/breeds", "requests"), 1);
        CHECK_INT_EQ(client_metric(c, "/breeds", "retries"), 0);
    }
    cf_client_close(c);
    stop_mock();
}

static void connection_reset_is_a_network_error(void) {
    char url[128];
    REQUIRE_MOCK("--fail-rate 1 --faults reset", url);
    cf_client *c = open_client(url, "{\"retries\":0}");
    if (c != NULL) {
        char *out = SENTINEL;
        CHECK_FAILS(cf_breeds_page(c, 1, 10, &out), CF_ERR_NETWORK, host_port(url));
        CHECK(out == NULL);
    }
    cf_client_close(c);
    stop_mock();
}

static void connection_reset_is_retried(void) {
    char url[128];
    REQUIRE_MOCK("--fail-first 1 --faults reset", url);
    cf_client *c = open_client(url, NULL);
    if (c != NULL) {
        char *out = NULL;
        CHECK_STATUS(cf_breeds_page(c, 1, 10, &out), CF_OK);
        cf_free(out);
        CHECK_INT_EQ(client_metric(c, "/breeds", "retries"), 1);
    }
    cf_client_close(c);
    stop_mock();
}

static void malformed_body_is_a_decode_error(void) {
    char url[128];
    REQUIRE_MOCK("--fail-rate 1 --faults malformed", url);
    cf_client *c = open_client(url, "{\"retries\":0}");
    if (c != NULL) {
        char *out = SENTINEL;
        CHECK_FAILS(cf_breeds_page(c, 1, 10, &out), CF_ERR_DECODE, host_port(url));
        CHECK(out == NULL);
        out = SENTINEL;
        CHECK_FAILS(cf_fact_random(c, 0, &out), CF_ERR_DECODE, NULL);
        CHECK(out == NULL);
    }
    cf_client_close(c);
    stop_mock();
}

static void truncated_body_is_a_decode_error(void) {
    char url[128];
    REQUIRE_MOCK("--fail-rate 1 --faults truncated", url);
    cf_client *c = open_client(url, "{\"retries\":0}");
    if (c != NULL) {
        char *out = SENTINEL;
        CHECK_FAILS(cf_breeds_page(c, 1, 10, &out), CF_ERR_DECODE, NULL);
        CHECK(out == NULL);
        out = SENTINEL;
        CHECK_FAILS(cf_facts_page(c, 1, 10, 0, &out), CF_ERR_DECODE, NULL);
        CHECK(out == NULL);
    }
    cf_client_close(c);
    stop_mock();
}

static void body_over_max_body_bytes_is_a_decode_error(void) {
    cf_client *c = open_client(default_url, "{\"retries\":0,\"max_body_bytes\":200}");
    if (c == NULL) return;
    char *out = SENTINEL;
    CHECK_FAILS(cf_breeds_page(c, 1, 50, &out), CF_ERR_DECODE, NULL);
    CHECK(out == NULL);
    cf_client_close(c);
}

/* The body takes 30 s to come: a call that ends with CF_ERR_TIMEOUT long before ended at
 * its 500 ms timeout (how soon after it is for make bench). */
static void slow_answer_times_out(void) {
    char url[128];
    REQUIRE_MOCK("--fail-rate 1 --faults slow --slow-ms 30000", url);
    cf_client *c = open_client(url, "{\"timeout_ms\":500,\"retries\":0}");
    if (c != NULL) {
        char *out = SENTINEL;
        double start = now_seconds();
        CHECK_FAILS(cf_breeds_page(c, 1, 10, &out), CF_ERR_TIMEOUT, host_port(url));
        double took = now_seconds() - start;
        CHECKF(took >= 0.4 && took < 15, "timed out after %.3f s", took);
        CHECK(out == NULL);
    }
    cf_client_close(c);
    kill_mock(); /* not waiting for the slow body to end */
}

/* ---- offline fallback ---- */

static void offline_fallback_serves_the_bundled_catalog(void) {
    char closed[128];
    closed_port_url(closed);
    cf_client *c = open_client(closed, "{\"offline_fallback\":true}");
    if (c == NULL) return;
    char *out = NULL;
    if (CHECK_STATUS(cf_breeds_page(c, 1, 10, &out), CF_OK) == CF_OK) {
        json_t *page = PARSE_JSON(out);
        CHECK_STR_EQ(json_get_str(page, "source"), "offline-catalog");
        CHECK_INT_EQ(json_get_int(page, "total", -1), 98);
        CHECK_INT_EQ(json_get_int(page, "page", -1), 1);
        CHECK_INT_EQ(json_get_int(page, "per_page", -1), 10);
        CHECK(is_rfc3339(json_get_str(page, "fetched_at")));
        json_t *items = json_object_get(page, "items");
        CHECK_INT_EQ(json_array_size(items), 10);
        check_abyssinian(json_array_get(items, 0));
        json_decref(page);
    }
    cf_free(out);
    out = NULL;
    if (CHECK_STATUS(cf_facts_page(c, 1, 5, 0, &out), CF_OK) == CF_OK) {
        json_t *page = PARSE_JSON(out);
        CHECK_STR_EQ(json_get_str(page, "source"), "offline-catalog");
        CHECK_INT_EQ(json_array_size(json_object_get(page, "items")), 5);
        json_decref(page);
    }
    cf_free(out);
    cf_client_close(c);
}

static void offline_fallback_finds_bundled_breeds(void) {
    char closed[128];
    closed_port_url(closed);
    cf_client *c = open_client(closed, "{\"offline_fallback\":true,\"retries\":0}");
    if (c == NULL) return;
    char *out = NULL;
    if (CHECK_STATUS(cf_breed_find(c, "aegean", &out), CF_OK) == CF_OK) {
        json_t *breed = PARSE_JSON(out);
        CHECK_STR_EQ(json_get_str(breed, "breed"), "Aegean");
        CHECK_STR_EQ(json_get_str(breed, "country"), "Greece");
        json_decref(breed);
    }
    cf_free(out);
    out = NULL;
    if (CHECK_STATUS(cf_fact_random(c, 0, &out), CF_OK) == CF_OK) {
        json_t *fact = PARSE_JSON(out);
        CHECK(json_get_str(fact, "fact") != NULL && json_get_int(fact, "length", -1) > 0);
        json_decref(fact);
    }
    cf_free(out);
    cf_client_close(c);
}

/* CF_ERR_OFFLINE: "offline, and nothing cached or bundled can answer". No bundled fact is 1 character long. */
/* What an online listener heard: each change, in order, and when the last came. */
typedef struct {
    pthread_mutex_t lock;
    int changes[8];
    int count;
    double last_at;
} online_heard;

static void hear_online(void *ctx, int online) {
    online_heard *h = ctx;
    pthread_mutex_lock(&h->lock);
    if (h->count < 8) h->changes[h->count] = online;
    h->count++;
    h->last_at = now_seconds();
    pthread_mutex_unlock(&h->lock);
}

static int online_changes(online_heard *h) {
    pthread_mutex_lock(&h->lock);
    int count = h->count;
    pthread_mutex_unlock(&h->lock);
    return count;
}

static void online_listener_hears_the_server_go_and_come_back(void) {
    char url[128], flags[64];
    REQUIRE_MOCK(NULL, url);
    const char *port = strrchr(url, ':') + 1;
    snprintf(flags, sizeof flags, "--port %s", port);
    cf_client *c = open_client(url, "{\"retries\":1,\"offline_fallback\":true}");
    online_heard h = {.count = 0};
    pthread_mutex_init(&h.lock, NULL);
    if (c != NULL && CHECK_STATUS(cf_client_set_online_listener(c, hear_online, &h), CF_OK) == CF_OK) {
        char *out = NULL;
        CHECK_STATUS(cf_breeds_page(c, 1, 5, &out), CF_OK);
        cf_free(out);
        stop_mock();
        /* Three failed calls (their retries count once each) turn the client offline. */
        for (int call = 1; call <= 3; call++) {
            out = NULL;
            CHECK_STATUS(cf_facts_page(c, call, 5, 0, &out), CF_OK); /* the bundled catalog answers */
            cf_free(out);
            if (call == 3) WAIT_UNTIL(online_changes(&h) >= 1); /* heard on a library thread */
            CHECK_INT_EQ(online_changes(&h), call == 3 ? 1 : 0);
        }
        if (start_mock(flags, url) == 0) {
            double back = now_seconds(); /* the server answers from here on */
            WAIT_UNTIL(online_changes(&h) >= 2);
            CHECK_INT_EQ(online_changes(&h), 2);
            CHECK_INT_EQ(h.changes[0], 0);
            CHECK_INT_EQ(h.changes[1], 1);
            pthread_mutex_lock(&h.lock);
            double took = h.last_at - back;
            pthread_mutex_unlock(&h.lock);
            /* Probes come at most 2 s apart: online within 2 s, plus the probe's round trip. The
             * bound (three intervals) is generous for a loaded machine; it still tells probing
             * every 2 s from probing rarely. */
            CHECKF(took <= 6.0 * harness_slowdown(), "back online %.2f s after the server came back (goal 2 s)", took);
            stop_mock();
        } else {
            CHECKF(0, "cannot restart the mock on port %s", port);
        }
    }
    cf_client_close(c);
    /* Closed: the listener is never called again, so h may go. */
    pthread_mutex_destroy(&h.lock);
    CHECK_FAILS(cf_client_set_online_listener(NULL, hear_online, NULL), CF_ERR_ARGUMENT, "NULL");
}

static void offline_with_nothing_bundled_to_answer_is_offline(void) {
    char closed[128];
    closed_port_url(closed);
    cf_client *c = open_client(closed, "{\"offline_fallback\":true,\"retries\":0}");
    if (c == NULL) return;
    char *out = SENTINEL;
    CHECK_FAILS(cf_fact_random(c, 1, &out), CF_ERR_OFFLINE, NULL);
    CHECK(out == NULL);
    cf_client_close(c);
}

int main(void) {
    RUN(client_open_with_defaults_succeeds);
    RUN(client_open_rejects_a_null_out);
    RUN(client_open_rejects_urls_that_are_not_http);
    RUN(client_open_accepts_http_https_and_a_path_prefix);
    RUN(client_open_rejects_options_that_are_not_a_json_object);
    RUN(client_open_rejects_unknown_option_keys_naming_them);
    RUN(client_open_rejects_wrong_option_types_naming_the_key);
    RUN(client_open_rejects_null_option_values_naming_the_key);
    RUN(client_open_rejects_option_values_out_of_range_naming_the_key);
    RUN(client_open_accepts_every_other_documented_option);
    RUN(a_key_given_twice_counts_the_first_time);
    RUN(one_shot_calls_reject_a_null_client);
    RUN(one_shot_calls_reject_null_out_pointers);
    RUN(metrics_listener_rejects_a_null_client);
    RUN(closing_or_freeing_null_is_a_no_op);
    RUN(pages_reject_zero_and_negative_page_and_limit);
    RUN(negative_max_length_is_an_argument_error);
    RUN(breed_find_rejects_null_empty_and_invalid_utf8_names);
    RUN(closed_port_is_a_network_error_quickly);
    RUN(offline_fallback_serves_the_bundled_catalog);
    RUN(offline_fallback_finds_bundled_breeds);
    RUN(offline_with_nothing_bundled_to_answer_is_offline);
    RUN(online_listener_hears_the_server_go_and_come_back);

    if (start_mock(NULL, default_url) == 0) {
        RUN(last_error_is_cleared_by_a_successful_call);
        RUN(breeds_page_has_the_documented_shape);
        RUN(breeds_page_two_of_five_holds_the_sixth_to_tenth_breeds);
        RUN(breeds_leave_absent_fields_out);
        RUN(page_past_the_end_has_no_items);
        RUN(facts_page_holds_every_fact_without_max_length);
        RUN(facts_page_keeps_to_max_length);
        RUN(fact_random_returns_a_fact_within_max_length);
        RUN(fact_random_shorter_than_every_fact_is_http_404);
        RUN(breed_find_matches_names_ignoring_case_and_blanks);
        RUN(breed_find_of_an_unknown_name_is_not_found_naming_it);
        RUN(breed_find_of_a_known_breed_sends_no_request);
        RUN(metrics_have_the_documented_keys_and_exact_counts);
        RUN(pages_asked_in_order_are_read_ahead_two_by_default);
        RUN(metrics_count_errors_per_endpoint);
        RUN(metrics_name_the_endpoint_not_the_path_prefix);
        RUN(prometheus_text_counts_requests_per_endpoint);
        RUN(metrics_listener_hears_each_request_with_endpoint_and_status);
        RUN(metrics_listener_is_not_called_after_removal);
        RUN(http_404_is_an_http_error_naming_the_status);
        RUN(body_over_max_body_bytes_is_a_decode_error);
        stop_mock();
    } else {
        CHECKF(0, "cannot start the shared mock; skipped the tests that need it");
    }

    RUN(limit_over_the_server_cap_is_capped);
    RUN(rate_limit_without_retries_is_rate_limited_with_retry_after);
    RUN(error_fields_give_the_status_retry_after_and_attempts);
    RUN(error_fields_count_every_attempt_and_clear_on_success);
    RUN(deadline_bounds_the_whole_call_whatever_the_retries);
    RUN(rate_limit_is_retried_after_retry_after);
    RUN(server_error_500_is_an_http_error);
    RUN(server_error_500_is_not_retried);
    RUN(connection_reset_is_a_network_error);
    RUN(connection_reset_is_retried);
    RUN(malformed_body_is_a_decode_error);
    RUN(truncated_body_is_a_decode_error);
    RUN(slow_answer_times_out);
    return harness_report("client_test");
}
