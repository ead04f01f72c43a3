/*
 * The batches section of catfacts.h, from C, against catfacts-mock: cf_breeds_page_items
 * against cf_breeds_page's JSON (fields, absent fields, Unicode, the text's layout, a page
 * past the end), cf_list_breeds against cf_list_breed (a batch stops at its page's end,
 * the last partial page, pending, past the end), cf_list_facts against cf_list_fact.
 */
#include "harness.h"

#include <jansson.h>

/* Not NULL, never a real block: an out-pointer the call must reset to NULL. */
static cf_breed_array sentinel_target;
#define SENTINEL_ARRAY (&sentinel_target)

static cf_client *open_client(const char *base_url) {
    cf_client *c = NULL;
    if (CHECK_STATUS(cf_client_open(base_url, NULL, &c), CF_OK) != CF_OK) return NULL;
    return c;
}

/* Whether a breed field (NULL when absent) is what a JSON breed object says (absent: no key). */
static int field_matches(const char *field, const json_t *breed, const char *key) {
    const char *expected = json_get_str(breed, key);
    if (field == NULL || expected == NULL) return field == NULL && expected == NULL;
    return strcmp(field, expected) == 0;
}

static int breed_matches(const cf_breed *b, const json_t *breed) {
    return field_matches(b->breed, breed, "breed") && field_matches(b->country, breed, "country")
        && field_matches(b->origin, breed, "origin") && field_matches(b->coat, breed, "coat")
        && field_matches(b->pattern, breed, "pattern");
}

/* The array's text is its items' strings in order, five per breed, absent ones empty. */
static void check_text_layout(const cf_breed_array *a) {
    const char *cursor = a->text;
    for (int64_t i = 0; i < a->count; i++) {
        const cf_breed *b = &a->items[i];
        const char *fields[5] = {b->breed, b->country, b->origin, b->coat, b->pattern};
        for (int f = 0; f < 5; f++) {
            CHECKF(strcmp(cursor, fields[f] ? fields[f] : "") == 0, "breed %lld field %d: text has \"%s\"",
                   (long long)i, f, cursor);
            if (fields[f] != NULL) CHECKF(fields[f] == cursor, "breed %lld field %d points outside the text", (long long)i, f);
            cursor += strlen(cursor) + 1;
        }
    }
    CHECK_INT_EQ((long long)(cursor - a->text), (long long)a->text_size);
}

/* Page 2 of 10 through both calls: the same numbers and breeds, in the same order. */
static void page_items_hold_what_the_json_page_holds(const char *url) {
    cf_client *c = open_client(url);
    if (c == NULL) return;
    char *json = NULL;
    cf_breed_page *page = NULL;
    if (CHECK_STATUS(cf_breeds_page(c, 2, 10, &json), CF_OK) == CF_OK &&
        CHECK_STATUS(cf_breeds_page_items(c, 2, 10, &page), CF_OK) == CF_OK) {
        json_t *root = PARSE_JSON(json);
        json_t *items = json_object_get(root, "items");
        CHECK_INT_EQ(page->page, 2);
        CHECK_INT_EQ(page->last_page, json_get_int(root, "last_page", -1));
        CHECK_INT_EQ(page->per_page, 10);
        CHECK_INT_EQ(page->total, json_get_int(root, "total", -1));
        CHECK_STR_EQ(page->source, "cache"); /* the JSON call fetched it a moment ago */
        CHECK(page->fetched_at_ms > 1700000000000LL);
        CHECK_INT_EQ(page->breeds.count, (long long)json_array_size(items));
        for (int64_t i = 0; i < page->breeds.count && i < (int64_t)json_array_size(items); i++) {
            CHECKF(breed_matches(&page->breeds.items[i], json_array_get(items, (size_t)i)),
                   "breed %lld (%s) differs from the JSON page's", (long long)i, page->breeds.items[i].breed);
        }
        check_text_layout(&page->breeds);
        json_decref(root);
    }
    cf_free(json);
    cf_free(page);
    cf_client_close(c);
}

static void page_items_from_the_network_say_so(const char *url) {
    cf_client *c = open_client(url);
    if (c == NULL) return;
    cf_breed_page *page = NULL;
    if (CHECK_STATUS(cf_breeds_page_items(c, 1, 5, &page), CF_OK) == CF_OK) {
        CHECK_STR_EQ(page->source, "network");
        CHECK_INT_EQ(page->breeds.count, 5);
        CHECK_STR_EQ(page->breeds.items[0].breed, "Abyssinian");
        check_text_layout(&page->breeds);
    }
    cf_free(page);
    cf_client_close(c);
}

static void a_page_past_the_end_has_no_breeds(const char *url) {
    cf_client *c = open_client(url);
    if (c == NULL) return;
    cf_breed_page *page = NULL;
    if (CHECK_STATUS(cf_breeds_page_items(c, 1000, 10, &page), CF_OK) == CF_OK) {
        CHECK_INT_EQ(page->page, 1000);
        CHECK_INT_EQ(page->breeds.count, 0);
        CHECK_INT_EQ((long long)page->breeds.text_size, 0);
        CHECK_INT_EQ(page->total, 98);
    }
    cf_free(page);
    cf_client_close(c);
}

/* A synthetic catalog: names with accents (UTF-8 of two bytes and more) and absent fields. */
static void unicode_names_and_absent_fields_come_through(void) {
    char url[128];
    REQUIRE_MOCK("--breeds 300", url);
    cf_client *c = open_client(url);
    char *json = NULL;
    cf_breed_page *page = NULL;
    if (c != NULL && CHECK_STATUS(cf_breeds_page(c, 1, 300, &json), CF_OK) == CF_OK &&
        CHECK_STATUS(cf_breeds_page_items(c, 1, 300, &page), CF_OK) == CF_OK) {
        json_t *root = PARSE_JSON(json);
        json_t *items = json_object_get(root, "items");
        int non_ascii = 0, absent = 0;
        CHECK_INT_EQ(page->breeds.count, 300);
        for (int64_t i = 0; i < page->breeds.count && i < (int64_t)json_array_size(items); i++) {
            const cf_breed *b = &page->breeds.items[i];
            CHECKF(breed_matches(b, json_array_get(items, (size_t)i)), "breed %lld (%s) differs", (long long)i, b->breed);
            non_ascii += utf8_length(b->breed) != (long long)strlen(b->breed);
            absent += b->country == NULL || b->origin == NULL || b->coat == NULL || b->pattern == NULL;
        }
        CHECKF(non_ascii > 0, "no name outside ASCII among 300: the test proves nothing about UTF-8");
        CHECKF(absent > 0, "no absent field among 300: the test proves nothing about them");
        check_text_layout(&page->breeds);
        json_decref(root);
    }
    cf_free(json);
    cf_free(page);
    cf_client_close(c);
    stop_mock();
}

/* 98 breeds in pages of 10: a batch is the rest of its page, the last page holds 8. */
static void list_batches_stop_at_the_end_of_their_page(const char *url) {
    cf_client *c = open_client(url);
    cf_list *l = NULL;
    if (c == NULL || CHECK_STATUS(cf_list_open(c, CF_BREEDS, "{\"page_size\":10,\"prefetch_distance\":0}", &l), CF_OK) != CF_OK) {
        cf_client_close(c);
        return;
    }
    static const struct { int64_t index, max_count, expected; } cases[] = {
        {0, 100, 10}, {3, 100, 7}, {3, 4, 4}, {9, 100, 1}, {90, 100, 8}, {95, 2, 2}, {97, 100, 1},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        CHECK_STATUS(cf_list_wait(l, cases[k].index, harness_hang_ms()), CF_OK);
        cf_breed_array *batch = NULL;
        if (CHECK_STATUS(cf_list_breeds(l, cases[k].index, cases[k].max_count, &batch), CF_OK) != CF_OK) continue;
        CHECKF(batch->count == cases[k].expected, "from %lld, at most %lld: %lld breeds, expected %lld",
               (long long)cases[k].index, (long long)cases[k].max_count, (long long)batch->count,
               (long long)cases[k].expected);
        for (int64_t i = 0; i < batch->count; i++) {
            cf_breed *one = NULL;
            if (CHECK_STATUS(cf_list_breed(l, cases[k].index + i, &one), CF_OK) != CF_OK) continue;
            const cf_breed *b = &batch->items[i];
            CHECKF(strcmp(b->breed, one->breed) == 0, "index %lld: batch has %s, cf_list_breed %s",
                   (long long)(cases[k].index + i), b->breed, one->breed);
            CHECK((b->country == NULL) == (one->country == NULL));
            CHECK((b->pattern == NULL) == (one->pattern == NULL));
            cf_breed_free(one);
        }
        check_text_layout(batch);
        cf_free(batch);
    }
    cf_breed_array *batch = SENTINEL_ARRAY;
    CHECK_FAILS(cf_list_breeds(l, 98, 1, &batch), CF_ERR_NOT_FOUND, "index 98 is past the end");
    CHECK(batch == NULL);
    CHECK_FAILS(cf_list_breeds(l, -1, 1, &batch), CF_ERR_NOT_FOUND, "past the end");
    cf_list_close(l);
    cf_client_close(c);
}

/* The first access of a loading page: pending, and the access starts the load. */
static void a_batch_of_a_loading_page_is_pending(void) {
    char url[128];
    REQUIRE_MOCK("--latency-ms 200", url);
    cf_client *c = open_client(url);
    cf_list *l = NULL;
    if (c != NULL && CHECK_STATUS(cf_list_open(c, CF_BREEDS, "{\"page_size\":10}", &l), CF_OK) == CF_OK) {
        cf_breed_array *batch = SENTINEL_ARRAY;
        CHECK_FAILS(cf_list_breeds(l, 20, 10, &batch), CF_PENDING, "item 20 is not loaded yet");
        CHECK(batch == NULL);
        CHECK_STATUS(cf_list_wait(l, 20, harness_hang_ms()), CF_OK);
        if (CHECK_STATUS(cf_list_breeds(l, 20, 10, &batch), CF_OK) == CF_OK) CHECK_INT_EQ(batch->count, 10);
        cf_free(batch);
        cf_list_close(l);
    }
    cf_client_close(c);
    stop_mock();
}

/* 160 facts in pages of 25: a batch is the rest of its page, matching cf_list_fact. */
static void fact_batches_match_the_facts_one_by_one(const char *url) {
    cf_client *c = open_client(url);
    cf_list *l = NULL;
    if (c == NULL || CHECK_STATUS(cf_list_open(c, CF_FACTS, "{\"page_size\":25,\"prefetch_distance\":0}", &l), CF_OK) != CF_OK) {
        cf_client_close(c);
        return;
    }
    static const struct { int64_t index, max_count, expected; } cases[] = {{0, 100, 25}, {30, 7, 7}, {150, 100, 10}};
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        CHECK_STATUS(cf_list_wait(l, cases[k].index, harness_hang_ms()), CF_OK);
        cf_fact_array *batch = NULL;
        if (CHECK_STATUS(cf_list_facts(l, cases[k].index, cases[k].max_count, &batch), CF_OK) != CF_OK) continue;
        CHECK_INT_EQ(batch->count, cases[k].expected);
        const char *cursor = batch->text;
        for (int64_t i = 0; i < batch->count; i++) {
            cf_fact *one = NULL;
            if (CHECK_STATUS(cf_list_fact(l, cases[k].index + i, &one), CF_OK) != CF_OK) continue;
            CHECK_STR_EQ(batch->items[i].fact, one->fact);
            CHECK_INT_EQ(batch->items[i].length, one->length);
            CHECK(batch->items[i].fact == cursor);
            cursor += strlen(cursor) + 1;
            cf_fact_free(one);
        }
        CHECK_INT_EQ((long long)(cursor - batch->text), (long long)batch->text_size);
        cf_free(batch);
    }
    cf_list_close(l);
    cf_client_close(c);
}

static char default_url[128];

static void page_items_match(void) { page_items_hold_what_the_json_page_holds(default_url); }
static void page_items_network(void) { page_items_from_the_network_say_so(default_url); }
static void page_items_past_end(void) { a_page_past_the_end_has_no_breeds(default_url); }
static void list_batches(void) { list_batches_stop_at_the_end_of_their_page(default_url); }
static void fact_batches(void) { fact_batches_match_the_facts_one_by_one(default_url); }

int main(void) {
    if (start_mock(NULL, default_url) == 0) {
        RUN(page_items_match);
        RUN(page_items_network);
        RUN(page_items_past_end);
        RUN(list_batches);
        RUN(fact_batches);
        stop_mock();
    } else {
        CHECKF(0, "cannot start the shared mock; skipped the tests that need it");
    }
    RUN(unicode_names_and_absent_fields_come_through);
    RUN(a_batch_of_a_loading_page_is_pending);
    return harness_report("batch_test");
}
