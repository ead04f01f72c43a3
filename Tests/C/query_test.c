/* cf_breeds_query: the same questions, and the same answers, as the Swift and Python suites. */
#include "harness.h"

#include <jansson.h>
#include <string.h>

static char mock_url[128];

/* The names of an {"items":[...]} answer, or of the first group's items, joined by '|'. */
static void names_of(json_t *items, char *out, size_t size) {
    out[0] = '\0';
    size_t i;
    json_t *item;
    json_array_foreach(items, i, item) {
        if (i) strncat(out, "|", size - strlen(out) - 1);
        strncat(out, json_string_value(json_object_get(item, "breed")), size - strlen(out) - 1);
    }
}

static json_t *query(cf_client *c, const char *text) {
    char *answer = NULL;
    if (CHECK_STATUS(cf_breeds_query(c, text, &answer), CF_OK) != CF_OK) return NULL;
    json_t *root = json_loads(answer, 0, NULL);
    cf_free(answer);
    CHECK(root != NULL);
    return root;
}

static void groups_ascend_and_sort_inside(cf_client *c) {
    json_t *root = query(c, "{\"group_by\":\"country\",\"where\":{\"country\":\"thailand\"},\"sort_by\":\"breed\",\"descending\":true}");
    if (!root) return;
    json_t *groups = json_object_get(root, "groups");
    CHECK(json_array_size(groups) == 1);
    CHECK_STR_EQ(json_string_value(json_object_get(json_array_get(groups, 0), "key")), "Thailand");
    char names[1024];
    names_of(json_object_get(json_array_get(groups, 0), "items"), names, sizeof names);
    CHECK_STR_EQ(names, "Thai Lilac|Thai|Suphalak|Siamese|Sam Sawet|Korn Ja|Korat|Khao Manee");
    json_decref(root);
}

static void grouping_by_origin_leaves_out_breeds_without_one(cf_client *c) {
    json_t *root = query(c, "{\"group_by\":\"origin\"}");
    if (!root) return;
    json_t *groups = json_object_get(root, "groups");
    static const char *keys[] = {"Crossbreed", "Hybrid", "Mutation", "Natural", "Natural/Standard"};
    static const size_t counts[] = {30, 4, 17, 39, 2};
    CHECK(json_array_size(groups) == 5);
    for (size_t i = 0; i < 5 && i < json_array_size(groups); i++) {
        json_t *group = json_array_get(groups, i);
        CHECK_STR_EQ(json_string_value(json_object_get(group, "key")), keys[i]);
        CHECK(json_array_size(json_object_get(group, "items")) == counts[i]);
    }
    json_decref(root);
}

static void prefix_search_ignores_case_and_honours_the_limit(cf_client *c) {
    json_t *root = query(c, "{\"search\":\"SI\",\"limit\":10}");
    if (!root) return;
    char names[1024];
    names_of(json_object_get(root, "items"), names, sizeof names);
    CHECK_STR_EQ(names, "Siamese|Siberian|Singapura");
    json_decref(root);
    root = query(c, "{\"search\":\"xq\"}");
    if (!root) return;
    CHECK(json_array_size(json_object_get(root, "items")) == 0);
    json_decref(root);
}

static void filters_keep_contained_values_and_present_fields(cf_client *c) {
    json_t *root = query(c, "{\"where\":{\"coat\":\"LONG\"},\"present\":[\"pattern\"],\"limit\":5}");
    if (!root) return;
    char names[1024];
    names_of(json_object_get(root, "items"), names, sizeof names);
    CHECK_STR_EQ(names, "Aegean|American Bobtail|American Curl|Balinese|Birman");
    json_decref(root);
}

static void bad_queries_are_argument_errors_naming_what(cf_client *c) {
    char *answer = NULL;
    CHECK_FAILS(cf_breeds_query(c, "{\"group_by\":\"colour\"}", &answer), CF_ERR_ARGUMENT, "colour");
    CHECK(answer == NULL);
    CHECK_FAILS(cf_breeds_query(c, "{\"where\":{\"coat\":1}}", &answer), CF_ERR_ARGUMENT, "where.coat");
    CHECK_FAILS(cf_breeds_query(c, "{\"present\":\"coat\"}", &answer), CF_ERR_ARGUMENT, "present");
    CHECK_FAILS(cf_breeds_query(c, "{\"size\":1}", &answer), CF_ERR_ARGUMENT, "size");
    CHECK_FAILS(cf_breeds_query(c, "[]", &answer), CF_ERR_ARGUMENT, "JSON object");
    CHECK_FAILS(cf_breeds_query(NULL, "{}", &answer), CF_ERR_ARGUMENT, "client");
    CHECK_FAILS(cf_breeds_query(c, "{}", NULL), CF_ERR_ARGUMENT, "out_json");
}

static void no_query_is_every_breed_by_name(cf_client *c) {
    json_t *root = query(c, NULL);
    if (!root) return;
    json_t *items = json_object_get(root, "items");
    CHECK(json_array_size(items) == 98);
    CHECK_STR_EQ(json_string_value(json_object_get(json_array_get(items, 0), "breed")), "Abyssinian");
    json_decref(root);
}

int main(void) {
    if (start_mock("", mock_url) != 0) {
        harness_count(0);
        return harness_report("query_test");
    }
    cf_client *c = NULL;
    if (CHECK_STATUS(cf_client_open(mock_url, "{\"retries\":0}", &c), CF_OK) == CF_OK) {
        groups_ascend_and_sort_inside(c);
        grouping_by_origin_leaves_out_breeds_without_one(c);
        prefix_search_ignores_case_and_honours_the_limit(c);
        filters_keep_contained_values_and_present_fields(c);
        bad_queries_are_argument_errors_naming_what(c);
        no_query_is_every_breed_by_name(c);
    }
    cf_client_close(c);
    stop_mock();
    return harness_report("query_test");
}
