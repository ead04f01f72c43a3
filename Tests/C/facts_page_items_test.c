/*
 * cf_facts_page_items against catfacts-mock's bundled facts (160 of them, in catalog order):
 * the exact facts and numbers of a page, the same page as cf_facts_page's JSON, max_length,
 * a page past the end, a limit past the server's cap, the read-ahead it shares with
 * cf_facts_page, and the errors for bad arguments (each leaving out NULL).
 */
#include "harness.h"

#include <jansson.h>

/* Not NULL, never a real block: an out-pointer a failing call must reset to NULL. */
static cf_fact_page sentinel_target;
#define SENTINEL_PAGE (&sentinel_target)

static char default_url[128];

static cf_client *open_client(const char *options) {
    cf_client *c = NULL;
    if (CHECK_STATUS(cf_client_open(default_url, options, &c), CF_OK) != CF_OK) return NULL;
    return c;
}

/* The page's text is its facts' texts in order, each followed by a NUL, and they point into it. */
static void check_text_layout(const cf_fact_array *a) {
    const char *cursor = a->text;
    for (int64_t i = 0; i < a->count; i++) {
        CHECKF(a->items[i].fact == cursor, "fact %lld does not point at its place in the text", (long long)i);
        cursor += strlen(cursor) + 1;
    }
    CHECK_INT_EQ((long long)(cursor - a->text), (long long)a->text_size);
}

/* The first three facts of the catalog, exactly, with the page's numbers: 160 in pages of 3. */
static void the_first_page_holds_the_catalogs_first_facts(void) {
    cf_client *c = open_client(NULL);
    if (c == NULL) return;
    cf_fact_page *page = NULL;
    if (CHECK_STATUS(cf_facts_page_items(c, 1, 3, 0, &page), CF_OK) == CF_OK) {
        CHECK_INT_EQ(page->page, 1);
        CHECK_INT_EQ(page->last_page, 54);
        CHECK_INT_EQ(page->per_page, 3);
        CHECK_INT_EQ(page->total, 160);
        CHECK_STR_EQ(page->source, "network");
        CHECK(page->fetched_at_ms > 1700000000000LL);
        CHECK_INT_EQ(page->facts.count, 3);
        if (page->facts.count == 3) {
            CHECK_STR_EQ(page->facts.items[0].fact, "Cats sleep for around 12 to 16 hours a day.");
            CHECK_INT_EQ(page->facts.items[0].length, 43);
            CHECK_STR_EQ(page->facts.items[1].fact, "Adult cats have 30 teeth, while kittens have 26 baby teeth.");
            CHECK_INT_EQ(page->facts.items[1].length, 59);
            CHECK_STR_EQ(page->facts.items[2].fact, "Most cats have five toes on each front paw and four on each back paw.");
            CHECK_INT_EQ(page->facts.items[2].length, 69);
        }
        check_text_layout(&page->facts);
    }
    cf_free(page);
    cf_client_close(c);
}

/* Page 2 in pages of 5 starts at the catalog's sixth fact, whose text is not ASCII: its length
   counts characters (54), its text is UTF-8 (59 bytes). */
static void a_later_page_starts_where_it_should_and_keeps_utf8(void) {
    cf_client *c = open_client(NULL);
    if (c == NULL) return;
    cf_fact_page *page = NULL;
    if (CHECK_STATUS(cf_facts_page_items(c, 2, 5, 0, &page), CF_OK) == CF_OK) {
        CHECK_INT_EQ(page->page, 2);
        CHECK_INT_EQ(page->last_page, 32);
        CHECK_INT_EQ(page->facts.count, 5);
        if (page->facts.count == 5) {
            const cf_fact *first = &page->facts.items[0];
            CHECK_STR_EQ(first->fact, "A healthy cat\xE2\x80\x99s body temperature sits around 38\xE2\x80\x93" "39 \xC2\xB0" "C.");
            CHECK_INT_EQ(first->length, 54);
            CHECK_INT_EQ(strlen(first->fact), 59);
            CHECK_STR_EQ(page->facts.items[4].fact, "Cats have a third eyelid, called the nictitating membrane.");
        }
        check_text_layout(&page->facts);
    }
    cf_free(page);
    cf_client_close(c);
}

/* The same page through both calls: the same numbers and facts, in the same order. */
static void the_block_holds_what_the_json_page_holds(void) {
    cf_client *c = open_client(NULL);
    if (c == NULL) return;
    char *json = NULL;
    cf_fact_page *page = NULL;
    if (CHECK_STATUS(cf_facts_page(c, 4, 10, 0, &json), CF_OK) == CF_OK &&
        CHECK_STATUS(cf_facts_page_items(c, 4, 10, 0, &page), CF_OK) == CF_OK) {
        json_t *root = PARSE_JSON(json);
        json_t *items = json_object_get(root, "items");
        CHECK_INT_EQ(page->page, json_get_int(root, "page", -1));
        CHECK_INT_EQ(page->last_page, json_get_int(root, "last_page", -1));
        CHECK_INT_EQ(page->per_page, json_get_int(root, "per_page", -1));
        CHECK_INT_EQ(page->total, json_get_int(root, "total", -1));
        CHECK_STR_EQ(page->source, "cache"); /* the JSON call fetched it a moment ago */
        CHECK_INT_EQ(page->facts.count, 10);
        CHECK_INT_EQ(page->facts.count, (long long)json_array_size(items));
        for (int64_t i = 0; i < page->facts.count && i < (int64_t)json_array_size(items); i++) {
            json_t *fact = json_array_get(items, (size_t)i);
            CHECK_STR_EQ(page->facts.items[i].fact, json_get_str(fact, "fact"));
            CHECK_INT_EQ(page->facts.items[i].length, json_get_int(fact, "length", -1));
        }
        json_decref(root);
    }
    cf_free(json);
    cf_free(page);
    cf_client_close(c);
}

/* max_length 60: the 35 facts of at most 60 characters, on one page. */
static void max_length_keeps_the_short_facts_only(void) {
    cf_client *c = open_client(NULL);
    if (c == NULL) return;
    cf_fact_page *page = NULL;
    if (CHECK_STATUS(cf_facts_page_items(c, 1, 200, 60, &page), CF_OK) == CF_OK) {
        CHECK_INT_EQ(page->total, 35);
        CHECK_INT_EQ(page->last_page, 1);
        CHECK_INT_EQ(page->facts.count, 35);
        for (int64_t i = 0; i < page->facts.count; i++) {
            const cf_fact *f = &page->facts.items[i];
            CHECKF(f->length >= 1 && f->length <= 60, "fact %lld has length %lld", (long long)i, (long long)f->length);
            CHECK_INT_EQ(utf8_length(f->fact), f->length);
        }
        check_text_layout(&page->facts);
    }
    cf_free(page);
    cf_client_close(c);
}

static void a_page_past_the_end_has_no_facts(void) {
    cf_client *c = open_client(NULL);
    if (c == NULL) return;
    cf_fact_page *page = NULL;
    if (CHECK_STATUS(cf_facts_page_items(c, 1000, 10, 0, &page), CF_OK) == CF_OK) {
        CHECK_INT_EQ(page->page, 1000);
        CHECK_INT_EQ(page->total, 160);
        CHECK_INT_EQ(page->facts.count, 0);
        CHECK_INT_EQ((long long)page->facts.text_size, 0);
    }
    cf_free(page);
    cf_client_close(c);
}

/* A limit past the mock's cap of 1000 a page is served at the cap: all 160 facts on page 1. */
static void the_largest_limit_is_served_at_the_servers_cap(void) {
    cf_client *c = open_client(NULL);
    if (c == NULL) return;
    cf_fact_page *page = NULL;
    if (CHECK_STATUS(cf_facts_page_items(c, 1, INT64_MAX, 0, &page), CF_OK) == CF_OK) {
        CHECK_INT_EQ(page->per_page, 1000);
        CHECK_INT_EQ(page->last_page, 1);
        CHECK_INT_EQ(page->facts.count, 160);
        check_text_layout(&page->facts);
    }
    cf_free(page);
    cf_client_close(c);
}

/* Pages 1 then 2 asked in order (no cache): pages 3 and 4 load without being asked, and
   page 3 then answers with the catalog's facts 21 to 30. */
static void pages_asked_in_order_are_read_ahead(void) {
    cf_client *c = open_client("{\"cache_max_bytes\":0}");
    if (c == NULL) return;
    for (int64_t number = 1; number <= 2; number++) {
        cf_fact_page *page = NULL;
        CHECK_STATUS(cf_facts_page_items(c, number, 10, 0, &page), CF_OK);
        cf_free(page);
    }
    WAIT_UNTIL(client_metric(c, "/facts", "requests") >= 4);
    CHECK_INT_EQ(client_metric(c, "/facts", "requests"), 4);
    cf_fact_page *page = NULL;
    if (CHECK_STATUS(cf_facts_page_items(c, 3, 10, 0, &page), CF_OK) == CF_OK) {
        CHECK_INT_EQ(page->page, 3);
        CHECK_INT_EQ(page->facts.count, 10);
        if (page->facts.count == 10) CHECK_STR_EQ(page->facts.items[0].fact, "Cats are most active around dawn and dusk.");
    }
    cf_free(page);
    cf_client_close(c);
}

static void bad_arguments_are_refused_naming_them(void) {
    cf_client *c = open_client(NULL);
    if (c == NULL) return;
    cf_list *l = NULL;
    CHECK_STATUS(cf_list_open(c, CF_FACTS, NULL, &l), CF_OK);
    cf_fact_page *page = SENTINEL_PAGE;
    CHECK_FAILS(cf_facts_page_items(NULL, 1, 10, 0, &page), CF_ERR_ARGUMENT, "the client is NULL");
    CHECK(page == NULL);
    page = SENTINEL_PAGE;
    CHECK_FAILS(cf_facts_page_items((cf_client *)l, 1, 10, 0, &page), CF_ERR_ARGUMENT, "the client is not a cf_client *");
    CHECK(page == NULL);
    CHECK_FAILS(cf_facts_page_items(c, 1, 10, 0, NULL), CF_ERR_ARGUMENT, "out (the cf_fact_page ** to fill) is NULL");
    static const int64_t bad[] = {0, -1, INT64_MIN};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        page = SENTINEL_PAGE;
        CHECK_FAILS(cf_facts_page_items(c, bad[i], 10, 0, &page), CF_ERR_ARGUMENT, "pages are numbered from 1");
        CHECK(page == NULL);
        page = SENTINEL_PAGE;
        CHECK_FAILS(cf_facts_page_items(c, 1, bad[i], 0, &page), CF_ERR_ARGUMENT, "a page holds at least 1 item");
        CHECK(page == NULL);
    }
    page = SENTINEL_PAGE;
    CHECK_FAILS(cf_facts_page_items(c, 1, 10, -1, &page), CF_ERR_ARGUMENT, "max_length -1 is negative");
    CHECK(page == NULL);
    /* Refused before any request: nothing reached the server. */
    CHECK_INT_EQ(client_total_requests(c), 0);
    cf_list_close(l);
    cf_client_close(c);
}

/* A server that cannot be reached: the network error, out NULL. */
static void a_closed_port_is_a_network_error(void) {
    char url[128];
    closed_port_url(url);
    cf_client *c = NULL;
    if (CHECK_STATUS(cf_client_open(url, "{\"retries\":0}", &c), CF_OK) != CF_OK) return;
    cf_fact_page *page = SENTINEL_PAGE;
    CHECK_FAILS(cf_facts_page_items(c, 1, 10, 0, &page), CF_ERR_NETWORK, url + strlen("http://"));
    CHECK(page == NULL);
    cf_client_close(c);
}

int main(void) {
    if (start_mock(NULL, default_url) == 0) {
        RUN(the_first_page_holds_the_catalogs_first_facts);
        RUN(a_later_page_starts_where_it_should_and_keeps_utf8);
        RUN(the_block_holds_what_the_json_page_holds);
        RUN(max_length_keeps_the_short_facts_only);
        RUN(a_page_past_the_end_has_no_facts);
        RUN(the_largest_limit_is_served_at_the_servers_cap);
        RUN(pages_asked_in_order_are_read_ahead);
        RUN(bad_arguments_are_refused_naming_them);
        stop_mock();
    } else {
        CHECKF(0, "cannot start the mock; skipped the tests that need it");
    }
    RUN(a_closed_port_is_a_network_error);
    return harness_report("facts_page_items_test");
}
