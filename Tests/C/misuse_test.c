/*
 * catfacts.h used as a hostile or careless caller would: JSON nested without end (D5), and
 * (below) every function with NULL and wrong-kind handles, every option out of range, of the
 * wrong type or with bad text, every listener calling back into the library. Each case
 * asserts the exact status and that cf_last_error() names the culprit. No case may crash,
 * leak or hang: run.sh runs this program under valgrind, `make c-misuse` under ASan+UBSan.
 * Needs no mock: nothing here reaches a server except through a closed port.
 */
#include "harness.h"

/* A non-NULL value out-pointers start with, so a failure that leaves them alone shows. */
#define SENTINEL ((void *)&sentinel_target)
static int sentinel_target;

/* A URL nothing listens on: options are checked before anything is sent. */
static const char *const nowhere = "http://127.0.0.1:1";

/*
 * `{"<key>":` then `depth - 1` times `open`, as many `close`, and `}`: JSON nested `depth`
 * deep in all (the outer object counts). Yours: free().
 */
static char *nested_json(const char *key, long depth, char open, char close) {
    size_t key_length = strlen(key);
    char *text = malloc(key_length + 2 * (size_t)depth + 8);
    if (text == NULL) return NULL;
    char *p = text;
    *p++ = '{';
    *p++ = '"';
    memcpy(p, key, key_length);
    p += key_length;
    *p++ = '"';
    *p++ = ':';
    for (long i = 1; i < depth; i++) *p++ = open;
    for (long i = 1; i < depth; i++) *p++ = close;
    *p++ = '}';
    *p = '\0';
    return text;
}

/* ---- D5: nesting ---- */

/* Deepest allowed: the value is then merely of the wrong type, and the message says so. */
static void options_nested_64_deep_are_read(void) {
    char *arrays = nested_json("retries", 64, '[', ']');
    cf_client *c = SENTINEL;
    CHECK_FAILS(cf_client_open(nowhere, arrays, &c), CF_ERR_ARGUMENT, "'retries' in client options must be an integer");
    CHECK(c == NULL);
    free(arrays);
}

static void options_nested_65_deep_are_refused_naming_the_depth(void) {
    char *arrays = nested_json("retries", 65, '[', ']');
    cf_client *c = SENTINEL;
    CHECK_FAILS(cf_client_open(nowhere, arrays, &c), CF_ERR_ARGUMENT,
                "client options: JSON nested deeper than 64 levels (level 65 at byte 74)");
    CHECK(c == NULL);
    free(arrays);
}

/* The case of issue #16 (1.4 s, quadratic), then one a quadratic parser would never finish. */
static void deep_nesting_is_refused_in_linear_time(void) {
    static const long depths[] = {500, 1000000};
    for (size_t i = 0; i < sizeof depths / sizeof depths[0]; i++) {
        char *arrays = nested_json("retries", depths[i], '[', ']');
        cf_client *c = SENTINEL;
        double start = now_seconds();
        CHECK_FAILS(cf_client_open(nowhere, arrays, &c), CF_ERR_ARGUMENT, "nested deeper than 64 levels");
        double seconds = now_seconds() - start;
        /* A linear scan of 2 MB takes milliseconds; the bound only tells linear from not. */
        CHECKF(seconds < 2.0 * harness_slowdown(), "%ld deep took %.3f s", depths[i], seconds);
        CHECK(c == NULL);
        free(arrays);
    }
}

static void brackets_inside_strings_do_not_count(void) {
    /* 200 '[' and an escaped quote inside a string: one level deep, so the key is what fails. */
    char text[512];
    char brackets[201];
    memset(brackets, '[', 200);
    brackets[200] = '\0';
    snprintf(text, sizeof text, "{\"user_agent\":\"a\\\"%s\",\"retries\":-1}", brackets);
    cf_client *c = SENTINEL;
    CHECK_FAILS(cf_client_open(nowhere, text, &c), CF_ERR_ARGUMENT, "'retries' in client options must be in 0...100");
    CHECK(c == NULL);
}

static void list_options_and_queries_have_the_same_limit(void) {
    cf_client *c = NULL;
    if (CHECK_STATUS(cf_client_open(nowhere, NULL, &c), CF_OK) != CF_OK) return;
    char *objects = nested_json("page_size", 500, '[', ']');
    cf_list *l = SENTINEL;
    CHECK_FAILS(cf_list_open(c, CF_BREEDS, objects, &l), CF_ERR_ARGUMENT,
                "list options: JSON nested deeper than 64 levels (level 65 at byte 76)");
    CHECK(l == NULL);
    free(objects);

    /* {"where":{"a":{"a":...}}}: objects this time; refused before any breed is fetched. */
    size_t depth = 500;
    char *query = malloc(16 + 6 * depth);
    char *p = query;
    p += sprintf(p, "{\"where\":");
    for (size_t i = 1; i < depth; i++) p += sprintf(p, "{\"a\":");
    p += sprintf(p, "1");
    for (size_t i = 1; i < depth; i++) *p++ = '}';
    *p++ = '}';
    *p = '\0';
    char *out = SENTINEL;
    CHECK_FAILS(cf_breeds_query(c, query, &out), CF_ERR_ARGUMENT, "the query: JSON nested deeper than 64 levels");
    CHECK(out == NULL);
    CHECK_INT_EQ(client_total_requests(c), 0);
    free(query);
    cf_client_close(c);
}

/* The header's rule for a key given twice, in the query as in the options: the first counts. */
static void a_query_key_given_twice_counts_the_first_time(void) {
    cf_client *c = NULL;
    if (CHECK_STATUS(cf_client_open(nowhere, NULL, &c), CF_OK) != CF_OK) return;
    char *out = SENTINEL;
    CHECK_FAILS(cf_breeds_query(c, "{\"sort_by\":\"colour\",\"sort_by\":\"country\"}", &out), CF_ERR_ARGUMENT,
                "names no field: 'colour'");
    CHECK(out == NULL);
    cf_client_close(c);
}

int main(void) {
    RUN(options_nested_64_deep_are_read);
    RUN(options_nested_65_deep_are_refused_naming_the_depth);
    RUN(deep_nesting_is_refused_in_linear_time);
    RUN(brackets_inside_strings_do_not_count);
    RUN(list_options_and_queries_have_the_same_limit);
    RUN(a_query_key_given_twice_counts_the_first_time);
    return harness_report("misuse_test");
}
