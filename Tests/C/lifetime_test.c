/*
 * The header's "Freeing" and "Lifetimes" rules, against catfacts-mock: everything handed out
 * through an out-pointer is freed with cf_free (single items too, and cf_breed_free and
 * cf_fact_free still free them), blocks stay valid after their list and client are closed,
 * and a list and a search both keep working after cf_client_close of their client. A
 * leaked or wrongly freed block shows under valgrind and ASan (make c-valgrind, c-asan).
 */
#include "harness.h"

#include <pthread.h>

static char default_url[128];

/* The catalog's breed at index 11 (page 2 in pages of 10): no pattern. */
#define BREED_11 "Bambino"

static cf_client *open_client(void) {
    cf_client *c = NULL;
    if (CHECK_STATUS(cf_client_open(default_url, NULL, &c), CF_OK) != CF_OK) return NULL;
    return c;
}

/* cf_list_breed's and cf_list_fact's items freed with cf_free, as every other hand-out. */
static void single_items_are_freed_with_cf_free(void) {
    cf_client *c = open_client();
    if (c == NULL) return;
    cf_list *breeds = NULL, *facts = NULL;
    if (CHECK_STATUS(cf_list_open(c, CF_BREEDS, "{\"page_size\":10}", &breeds), CF_OK) == CF_OK &&
        CHECK_STATUS(cf_list_open(c, CF_FACTS, "{\"page_size\":10}", &facts), CF_OK) == CF_OK) {
        CHECK_STATUS(cf_list_wait(breeds, 11, harness_hang_ms()), CF_OK);
        CHECK_STATUS(cf_list_wait(facts, 0, harness_hang_ms()), CF_OK);
        cf_breed *b = NULL;
        if (CHECK_STATUS(cf_list_breed(breeds, 11, &b), CF_OK) == CF_OK) {
            CHECK_STR_EQ(b->breed, BREED_11);
            CHECK_STR_EQ(b->coat, "Hairless");
            CHECK(b->pattern == NULL);
        }
        cf_free(b);
        cf_fact *f = NULL;
        if (CHECK_STATUS(cf_list_fact(facts, 0, &f), CF_OK) == CF_OK) {
            CHECK_STR_EQ(f->fact, "Cats sleep for around 12 to 16 hours a day.");
            CHECK_INT_EQ(f->length, 43);
        }
        cf_free(f);
        /* The older names free the same items the same way. Item 0's page was asked for
         * first but may still be loading when item 11's has come: waited for too. */
        b = NULL;
        CHECK_STATUS(cf_list_wait(breeds, 0, harness_hang_ms()), CF_OK);
        if (CHECK_STATUS(cf_list_breed(breeds, 0, &b), CF_OK) == CF_OK) CHECK_STR_EQ(b->breed, "Abyssinian");
        cf_breed_free(b);
        f = NULL;
        CHECK_STATUS(cf_list_fact(facts, 1, &f), CF_OK);
        cf_fact_free(f);
    }
    cf_list_close(breeds);
    cf_list_close(facts);
    cf_client_close(c);
}

/* Every kind of block outlives the list and the client it came from. */
static void blocks_stay_valid_after_their_list_and_client_close(void) {
    cf_client *c = open_client();
    if (c == NULL) return;
    cf_list *l = NULL;
    char *json = NULL;
    cf_breed_page *breed_page = NULL;
    cf_fact_page *fact_page = NULL;
    cf_breed_array *batch = NULL;
    cf_breed *one = NULL;
    CHECK_STATUS(cf_breeds_page(c, 1, 2, &json), CF_OK);
    CHECK_STATUS(cf_breeds_page_items(c, 2, 10, &breed_page), CF_OK);
    CHECK_STATUS(cf_facts_page_items(c, 1, 1, 0, &fact_page), CF_OK);
    if (CHECK_STATUS(cf_list_open(c, CF_BREEDS, "{\"page_size\":10}", &l), CF_OK) == CF_OK) {
        CHECK_STATUS(cf_list_wait(l, 11, harness_hang_ms()), CF_OK);
        CHECK_STATUS(cf_list_breeds(l, 10, 10, &batch), CF_OK);
        CHECK_STATUS(cf_list_breed(l, 11, &one), CF_OK);
        cf_list_close(l);
    }
    cf_client_close(c);
    CHECK(json != NULL && strstr(json, "\"breed\":\"Aegean\"") != NULL);
    CHECK(breed_page != NULL && breed_page->breeds.count == 10 && strcmp(breed_page->breeds.items[1].breed, BREED_11) == 0);
    CHECK(fact_page != NULL && fact_page->facts.count == 1 && fact_page->facts.items[0].length == 43);
    CHECK(batch != NULL && batch->count == 10 && strcmp(batch->items[1].breed, BREED_11) == 0);
    CHECK(one != NULL && strcmp(one->breed, BREED_11) == 0);
    cf_free(json);
    cf_free(breed_page);
    cf_free(fact_page);
    cf_free(batch);
    cf_free(one);
}

/* ---- a list and a search after cf_client_close: the same rule ---- */

struct answer {
    pthread_mutex_t lock;
    int count;
    cf_status status;
    char *json;
};

static void record(void *ctx, int64_t generation, cf_status s, const char *results_json) {
    (void)generation;
    struct answer *a = ctx;
    pthread_mutex_lock(&a->lock);
    a->count++;
    a->status = s;
    free(a->json);
    a->json = strdup(results_json);
    pthread_mutex_unlock(&a->lock);
}

static int answer_count(struct answer *a) {
    pthread_mutex_lock(&a->lock);
    int n = a->count;
    pthread_mutex_unlock(&a->lock);
    return n;
}

static void a_list_and_a_search_keep_working_after_their_client_closes(void) {
    cf_client *c = open_client();
    if (c == NULL) return;
    struct answer a = {.count = 0, .status = CF_OK, .json = NULL};
    pthread_mutex_init(&a.lock, NULL);
    cf_list *l = NULL;
    cf_search *s = NULL;
    CHECK_STATUS(cf_list_open(c, CF_BREEDS, "{\"page_size\":10,\"prefetch_distance\":0}", &l), CF_OK);
    CHECK_STATUS(cf_search_open(c, "{\"debounce_ms\":0}", record, &a, &s), CF_OK);
    cf_client_close(c);
    if (l != NULL) {
        /* Page 2 was never asked for: it loads now, through the closed client's connection. */
        CHECK_STATUS(cf_list_wait(l, 11, harness_hang_ms()), CF_OK);
        cf_breed *b = NULL;
        if (CHECK_STATUS(cf_list_breed(l, 11, &b), CF_OK) == CF_OK) CHECK_STR_EQ(b->breed, BREED_11);
        cf_free(b);
        cf_list_close(l);
    }
    if (s != NULL) {
        CHECK_STATUS(cf_search_set(s, "Bamb"), CF_OK);
        WAIT_UNTIL(answer_count(&a) >= 1);
        cf_search_close(s);
        /* Once close returned no answer is being delivered: reading without the lock is safe. */
        CHECK_INT_EQ(a.count, 1);
        CHECK_INT_EQ(a.status, CF_OK);
        json_t *root = a.json ? PARSE_JSON(a.json) : NULL;
        json_t *items = json_object_get(root, "items");
        CHECK_INT_EQ(json_array_size(items), 1);
        CHECK_STR_EQ(json_get_str(json_array_get(items, 0), "breed"), BREED_11);
        CHECK_STR_EQ(json_get_str(root, "text"), "Bamb");
        json_decref(root);
    }
    free(a.json);
    pthread_mutex_destroy(&a.lock);
}

int main(void) {
    if (start_mock(NULL, default_url) != 0) {
        CHECKF(0, "cannot start the mock");
        return harness_report("lifetime_test");
    }
    RUN(single_items_are_freed_with_cf_free);
    RUN(blocks_stay_valid_after_their_list_and_client_close);
    RUN(a_list_and_a_search_keep_working_after_their_client_closes);
    stop_mock();
    return harness_report("lifetime_test");
}
