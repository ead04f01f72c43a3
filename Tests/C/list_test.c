/*
 * The paged-list section of catfacts.h, from C, against catfacts-mock: options, pending
 * then loaded items, counts, listener events, failed pages and retry, the end of the list,
 * dropping past max_cached_items, a jump into a million breeds, closing with waiters.
 */
#include "harness.h"

#include <pthread.h>

#define SENTINEL ((void *)&sentinel_target)
static int sentinel_target;

/* The mock most tests share: the bundled catalog (98 breeds, 160 facts), 100 ms per answer
 * so that waits wait. (A first access says CF_PENDING however fast the server: the access
 * starts its page's load, as catfacts.h says, and answers with the state it found.) */
static char default_url[128];

static cf_client *open_client(const char *base_url, const char *options_json) {
    cf_client *c = NULL;
    if (CHECK_STATUS(cf_client_open(base_url, options_json, &c), CF_OK) != CF_OK) return NULL;
    CHECK(c != NULL);
    return c;
}

static cf_list *open_list(cf_client *c, cf_collection what, const char *options_json) {
    cf_list *l = NULL;
    if (CHECK_STATUS(cf_list_open(c, what, options_json, &l), CF_OK) != CF_OK) return NULL;
    CHECK(l != NULL);
    return l;
}

/* Waits for index (a bound only a hang reaches), then returns the breed there (or NULL). */
static cf_breed *wait_breed(cf_list *l, int64_t index) {
    cf_breed *b = NULL;
    CHECK_STATUS(cf_list_wait(l, index, harness_hang_ms()), CF_OK);
    CHECK_STATUS(cf_list_breed(l, index, &b), CF_OK);
    return b;
}

/* ---- a listener that records events ---- */

#define MAX_EVENTS 1024

struct event { cf_event kind; int64_t first, count; };

struct recorder {
    pthread_mutex_t lock;
    int n;
    struct event events[MAX_EVENTS];
};

static void record(void *ctx, cf_event kind, int64_t first, int64_t count) {
    struct recorder *r = ctx;
    pthread_mutex_lock(&r->lock);
    if (r->n < MAX_EVENTS) r->events[r->n] = (struct event){kind, first, count};
    r->n++;
    pthread_mutex_unlock(&r->lock);
}

static void recorder_init(struct recorder *r) {
    memset(r, 0, sizeof *r);
    pthread_mutex_init(&r->lock, NULL);
}

/* Whether the recorder has seen (kind, first, count). */
static int seen(struct recorder *r, cf_event kind, int64_t first, int64_t count) {
    pthread_mutex_lock(&r->lock);
    int found = 0;
    for (int i = 0; i < r->n && i < MAX_EVENTS; i++) {
        if (r->events[i].kind == kind && r->events[i].first == first && r->events[i].count == count) found = 1;
    }
    pthread_mutex_unlock(&r->lock);
    return found;
}

/* Waits for an event (listeners run on a library thread, maybe after cf_list_wait returns). */
static int await_event(struct recorder *r, cf_event kind, int64_t first, int64_t count) {
    WAIT_UNTIL(seen(r, kind, first, count));
    return seen(r, kind, first, count);
}

static int count_kind(struct recorder *r, cf_event kind) {
    pthread_mutex_lock(&r->lock);
    int n = 0;
    for (int i = 0; i < r->n && i < MAX_EVENTS; i++) n += r->events[i].kind == kind;
    pthread_mutex_unlock(&r->lock);
    return n;
}

static void print_events(struct recorder *r) {
    pthread_mutex_lock(&r->lock);
    for (int i = 0; i < r->n && i < MAX_EVENTS; i++) {
        fprintf(stderr, "    event %d: kind %d first %lld count %lld\n", i, r->events[i].kind,
                (long long)r->events[i].first, (long long)r->events[i].count);
    }
    pthread_mutex_unlock(&r->lock);
}

/* ---- NULLs and options ---- */

static void list_calls_reject_null_handles_and_out_pointers(void) {
    cf_list *l = SENTINEL;
    CHECK_FAILS(cf_list_open(NULL, CF_BREEDS, NULL, &l), CF_ERR_ARGUMENT, NULL);
    CHECK(l == NULL);
    cf_breed *b = SENTINEL;
    CHECK_FAILS(cf_list_breed(NULL, 0, &b), CF_ERR_ARGUMENT, NULL);
    CHECK(b == NULL);
    cf_fact *f = SENTINEL;
    CHECK_FAILS(cf_list_fact(NULL, 0, &f), CF_ERR_ARGUMENT, NULL);
    CHECK(f == NULL);
    CHECK_FAILS(cf_list_wait(NULL, 0, 100), CF_ERR_ARGUMENT, NULL);
    CHECK_FAILS(cf_list_retry(NULL), CF_ERR_ARGUMENT, NULL);
    CHECK_FAILS(cf_list_set_listener(NULL, NULL, NULL), CF_ERR_ARGUMENT, NULL);
    CHECK_INT_EQ(cf_list_count(NULL), CF_COUNT_INVALID);
    CHECK(strstr(cf_last_error(), "the list is NULL") != NULL);

    cf_client *c = open_client(default_url, NULL);
    if (c == NULL) return;
    CHECK_FAILS(cf_list_open(c, CF_BREEDS, NULL, NULL), CF_ERR_ARGUMENT, NULL);
    l = open_list(c, CF_BREEDS, NULL);
    if (l != NULL) {
        CHECK_FAILS(cf_list_breed(l, 0, NULL), CF_ERR_ARGUMENT, NULL);
        CHECK_FAILS(cf_list_wait(l, 0, -1), CF_ERR_ARGUMENT, NULL);
        cf_list_close(l);
    }
    l = open_list(c, CF_FACTS, NULL);
    if (l != NULL) {
        CHECK_FAILS(cf_list_fact(l, 0, NULL), CF_ERR_ARGUMENT, NULL);
        cf_list_close(l);
    }
    cf_client_close(c);
}

static void closing_or_freeing_null_is_a_no_op(void) {
    cf_list_close(NULL);
    cf_breed_free(NULL);
    cf_fact_free(NULL);
    CHECK(1); /* reaching this line is the check */
}

static void list_open_rejects_an_unknown_collection(void) {
    cf_client *c = open_client(default_url, NULL);
    if (c == NULL) return;
    cf_list *l = SENTINEL;
    CHECK_FAILS(cf_list_open(c, (cf_collection)7, NULL, &l), CF_ERR_ARGUMENT, NULL);
    CHECK(l == NULL);
    l = SENTINEL;
    CHECK_FAILS(cf_list_open(c, (cf_collection)-1, NULL, &l), CF_ERR_ARGUMENT, NULL);
    CHECK(l == NULL);
    cf_client_close(c);
}

static void list_open_rejects_bad_options_naming_the_key(void) {
    cf_client *c = open_client(default_url, NULL);
    if (c == NULL) return;
    static const struct { cf_collection what; const char *json, *named; } bad[] = {
        {CF_BREEDS, "[]", NULL},
        {CF_BREEDS, "25", NULL},
        {CF_BREEDS, "{\"page_size\":", NULL},
        {CF_BREEDS, "{\"colour\":1}", "colour"},
        {CF_BREEDS, "{\"page_size\":\"ten\"}", "page_size"},
        {CF_BREEDS, "{\"page_size\":2.5}", "page_size"},
        /* D2: sizes this large overflowed the paging arithmetic and trapped the process. */
        {CF_BREEDS, "{\"page_size\":4611686018427387904}", "'page_size' in list options must be in 1..100000; got 4611686018427387904"},
        {CF_BREEDS, "{\"prefetch_distance\":9223372036854775807}", "prefetch_distance"},
        {CF_BREEDS, "{\"max_cached_items\":9223372036854775807}", "max_cached_items"},
        {CF_FACTS, "{\"max_length\":-1}", "'max_length' in list options must be in 0..1000000; got -1"},
        {CF_BREEDS, "{\"page_size\":0}", "page_size"},
        {CF_BREEDS, "{\"prefetch_distance\":-1}", "prefetch_distance"},
        {CF_BREEDS, "{\"prefetch_distance\":true}", "prefetch_distance"},
        {CF_BREEDS, "{\"max_cached_items\":\"many\"}", "max_cached_items"},
        {CF_FACTS, "{\"max_length\":-1}", "max_length"},
        {CF_FACTS, "{\"max_length\":\"short\"}", "max_length"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cf_list *l = SENTINEL;
        CHECK_FAILS(cf_list_open(c, bad[i].what, bad[i].json, &l), CF_ERR_ARGUMENT, bad[i].named);
        CHECKF(l == NULL, "out not set to NULL for %s", bad[i].json);
        if (l != NULL && l != SENTINEL) cf_list_close(l);
    }
    cf_client_close(c);
}

static void list_open_rejects_a_cache_smaller_than_its_window(void) {
    cf_client *c = open_client(default_url, NULL);
    if (c == NULL) return;
    cf_list *l = SENTINEL;
    /* 10 + 2 x 5 = 20 items needed. */
    CHECK_FAILS(cf_list_open(c, CF_BREEDS, "{\"page_size\":10,\"prefetch_distance\":5,\"max_cached_items\":19}", &l),
                CF_ERR_ARGUMENT, "max_cached_items");
    CHECK(l == NULL);
    /* The default prefetch distance is 2 x page_size: 25 + 100 = 125 needed. */
    l = SENTINEL;
    CHECK_FAILS(cf_list_open(c, CF_BREEDS, "{\"max_cached_items\":100}", &l), CF_ERR_ARGUMENT, "max_cached_items");
    CHECK(l == NULL);
    /* Exactly enough is fine. */
    l = open_list(c, CF_BREEDS, "{\"page_size\":10,\"prefetch_distance\":5,\"max_cached_items\":20}");
    cf_list_close(l);
    cf_client_close(c);
}

static void list_open_accepts_every_documented_option(void) {
    cf_client *c = open_client(default_url, NULL);
    if (c == NULL) return;
    cf_list *l = open_list(c, CF_FACTS,
                           "{\"page_size\":10,\"prefetch_distance\":0,\"max_cached_items\":50,\"max_length\":80}");
    cf_list_close(l);
    l = open_list(c, CF_BREEDS, "{}");
    cf_list_close(l);
    l = open_list(c, CF_BREEDS, "{\"page_size\":5,\"prefetch_distance\":10,\"max_cached_items\":25}");
    cf_list_close(l);
    cf_client_close(c);
}

/* ---- loading ---- */

static void first_access_is_pending_then_ok_after_wait(void) {
    cf_client *c = open_client(default_url, NULL);
    if (c == NULL) return;
    cf_list *l = open_list(c, CF_BREEDS, "{\"page_size\":10}");
    if (l != NULL) {
        CHECK_FAILS(cf_list_retry(NULL), CF_ERR_ARGUMENT, "the list is NULL");
        CHECK_INT_EQ(cf_list_count(l), CF_COUNT_UNKNOWN);
        CHECK_STR_EQ(cf_last_error(), ""); /* not known yet is no failure */
        cf_breed *b = SENTINEL;
        CHECK_STATUS(cf_list_breed(l, 0, &b), CF_PENDING);
        CHECK(b == NULL);
        CHECK_STATUS(cf_list_wait(l, 0, harness_hang_ms()), CF_OK);
        CHECK_INT_EQ(cf_list_count(l), 98);
        CHECK_STR_EQ(cf_last_error(), "");
        b = NULL;
        if (CHECK_STATUS(cf_list_breed(l, 0, &b), CF_OK) == CF_OK && b != NULL) {
            CHECK_STR_EQ(b->breed, "Abyssinian");
            CHECK_STR_EQ(b->country, "Ethiopia");
            CHECK_STR_EQ(b->origin, "Natural/Standard");
            CHECK_STR_EQ(b->coat, "Short");
            CHECK_STR_EQ(b->pattern, "Ticked");
        }
        cf_breed_free(b);
        b = NULL;
        if (CHECK_STATUS(cf_list_breed(l, 1, &b), CF_OK) == CF_OK && b != NULL) {
            CHECK_STR_EQ(b->breed, "Aegean");
            CHECK_STR_EQ(b->coat, "Semi-long");
        }
        cf_breed_free(b);
        cf_list_close(l);
    }
    cf_client_close(c);
}

/* The server answers after 10 s: CF_PENDING from a 200 ms wait shows it ended at its
 * timeout, not when the page came (how soon after the timeout is for make bench). */
static void wait_times_out_as_pending(void) {
    char url[128];
    REQUIRE_MOCK("--latency-ms 10000", url);
    cf_client *c = open_client(url, NULL);
    cf_list *l = c ? open_list(c, CF_BREEDS, "{\"page_size\":10,\"prefetch_distance\":0}") : NULL;
    if (l != NULL) {
        double start = now_seconds();
        CHECK_STATUS(cf_list_wait(l, 0, 200), CF_PENDING);
        double took = now_seconds() - start;
        CHECKF(took >= 0.15, "waited %.3f s", took);
        CHECK_STATUS(cf_list_wait(l, 0, 0), CF_PENDING);
        cf_list_close(l);
    }
    cf_client_close(c);
    kill_mock(); /* not waiting for the answer still to come */
}

static void breeds_read_through_the_list_match_the_pages(void) {
    cf_client *c = open_client(default_url, NULL);
    if (c == NULL) return;
    char *json = NULL;
    json_t *page = NULL;
    if (CHECK_STATUS(cf_breeds_page(c, 1, 100, &json), CF_OK) == CF_OK) page = PARSE_JSON(json);
    cf_free(json);
    json_t *items = json_object_get(page, "items");
    cf_list *l = open_list(c, CF_BREEDS, "{\"page_size\":7,\"prefetch_distance\":14}");
    if (l != NULL && json_array_size(items) == 98) {
        int mismatches = 0;
        for (int64_t i = 0; i < 98; i++) {
            cf_breed *b = wait_breed(l, i);
            json_t *expected = json_array_get(items, (size_t)i);
            if (b == NULL || b->breed == NULL || strcmp(b->breed, json_get_str(expected, "breed")) != 0 ||
                (b->pattern == NULL) != (json_get_str(expected, "pattern") == NULL) ||
                (b->country == NULL) != (json_get_str(expected, "country") == NULL)) {
                mismatches++;
                fprintf(stderr, "index %lld: list has %s, page has %s\n", (long long)i,
                        b && b->breed ? b->breed : "(null)", json_get_str(expected, "breed"));
            }
            cf_breed_free(b);
        }
        CHECK_INT_EQ(mismatches, 0);
    }
    cf_list_close(l);
    json_decref(page);
    cf_client_close(c);
}

static void listener_sees_loaded_ranges_of_page_size(void) {
    cf_client *c = open_client(default_url, NULL);
    if (c == NULL) return;
    cf_list *l = open_list(c, CF_BREEDS, "{\"page_size\":10,\"prefetch_distance\":10}");
    if (l != NULL) {
        struct recorder r;
        recorder_init(&r);
        CHECK_STATUS(cf_list_set_listener(l, record, &r), CF_OK);
        cf_breed *b = wait_breed(l, 0);
        cf_breed_free(b);
        /* Index 0 and 10 items ahead: pages [0,10) and [10,20). */
        CHECK(await_event(&r, CF_EVENT_LOADED, 0, 10));
        CHECK(await_event(&r, CF_EVENT_LOADED, 10, 10));
        /* The last page is short: 98 = 9 x 10 + 8. */
        b = wait_breed(l, 95);
        cf_breed_free(b);
        CHECK(await_event(&r, CF_EVENT_LOADED, 90, 8));
        CHECK(await_event(&r, CF_EVENT_LOADED, 80, 10));
        pthread_mutex_lock(&r.lock);
        int bad = 0;
        for (int i = 0; i < r.n && i < MAX_EVENTS; i++) {
            struct event e = r.events[i];
            if (e.kind == CF_EVENT_LOADED && (e.first % 10 != 0 || (e.count != 10 && !(e.first == 90 && e.count == 8))))
                bad++;
            if (e.kind == CF_EVENT_FAILED) bad++;
        }
        pthread_mutex_unlock(&r.lock);
        CHECK_INT_EQ(bad, 0);
        if (bad) print_events(&r);
        CHECK_STATUS(cf_list_set_listener(l, NULL, NULL), CF_OK);
        cf_list_close(l);
        pthread_mutex_destroy(&r.lock);
    }
    cf_client_close(c);
}

static void listener_is_not_called_after_removal(void) {
    cf_client *c = open_client(default_url, NULL);
    if (c == NULL) return;
    cf_list *l = open_list(c, CF_BREEDS, "{\"page_size\":10,\"prefetch_distance\":0}");
    if (l != NULL) {
        struct recorder r;
        recorder_init(&r);
        CHECK_STATUS(cf_list_set_listener(l, record, &r), CF_OK);
        cf_breed_free(wait_breed(l, 0));
        CHECK(await_event(&r, CF_EVENT_LOADED, 0, 10));
        CHECK_STATUS(cf_list_set_listener(l, NULL, NULL), CF_OK);
        pthread_mutex_lock(&r.lock);
        int before = r.n;
        pthread_mutex_unlock(&r.lock);
        cf_breed_free(wait_breed(l, 50));
        sleep_ms(200); /* a broken list would call by now; safe on a slow machine: a working one never calls, however long we wait */
        pthread_mutex_lock(&r.lock);
        CHECK_INT_EQ(r.n, before);
        pthread_mutex_unlock(&r.lock);
        cf_list_close(l);
        pthread_mutex_destroy(&r.lock);
    }
    cf_client_close(c);
}

static void list_adopts_the_server_page_cap(void) {
    char url[128];
    REQUIRE_MOCK("--max-limit 10", url);
    cf_client *c = open_client(url, NULL);
    cf_list *l = c ? open_list(c, CF_BREEDS, "{\"page_size\":25,\"prefetch_distance\":0}") : NULL;
    if (l != NULL) {
        struct recorder r;
        recorder_init(&r);
        CHECK_STATUS(cf_list_set_listener(l, record, &r), CF_OK);
        cf_breed *b = wait_breed(l, 0);
        CHECK(b != NULL && b->breed && strcmp(b->breed, "Abyssinian") == 0);
        cf_breed_free(b);
        b = wait_breed(l, 15);
        CHECK(b != NULL && b->breed != NULL);
        cf_breed_free(b);
        CHECK(await_event(&r, CF_EVENT_LOADED, 0, 10));
        CHECK(await_event(&r, CF_EVENT_LOADED, 10, 10));
        CHECK_INT_EQ(cf_list_count(l), 98);
        cf_list_close(l);
        pthread_mutex_destroy(&r.lock);
    }
    cf_client_close(c);
    stop_mock();
}

/* ---- failures ---- */

static void failed_page_fails_every_index_until_retry(void) {
    char url[128];
    REQUIRE_MOCK("--fail-first 1 --faults 500", url);
    cf_client *c = open_client(url, "{\"retries\":0}");
    cf_list *l = c ? open_list(c, CF_BREEDS, "{\"page_size\":10,\"prefetch_distance\":0}") : NULL;
    if (l != NULL) {
        struct recorder r;
        recorder_init(&r);
        CHECK_STATUS(cf_list_set_listener(l, record, &r), CF_OK);
        cf_breed *b = SENTINEL;
        CHECK_STATUS(cf_list_breed(l, 0, &b), CF_PENDING);
        CHECK_FAILS(cf_list_wait(l, 0, harness_hang_ms()), CF_ERR_HTTP, "500");
        for (int64_t i = 0; i < 10; i++) {
            b = SENTINEL;
            CHECK_FAILS(cf_list_breed(l, i, &b), CF_ERR_HTTP, "500");
            CHECKF(b == NULL, "index %lld: out not NULL", (long long)i);
        }
        CHECK(await_event(&r, CF_EVENT_FAILED, 0, 10));
        CHECK_INT_EQ(cf_list_count(l), CF_COUNT_UNKNOWN);
        /* Still failed a while later: no silent reload. */
        sleep_ms(200);
        b = SENTINEL;
        CHECK_STATUS(cf_list_breed(l, 3, &b), CF_ERR_HTTP);
        CHECK(b == NULL);

        CHECK_STATUS(cf_list_retry(l), CF_OK);
        b = wait_breed(l, 0);
        CHECK(b != NULL && b->breed != NULL && strcmp(b->breed, "Abyssinian") == 0);
        cf_breed_free(b);
        for (int64_t i = 0; i < 10; i++) {
            b = NULL;
            CHECK_STATUS(cf_list_breed(l, i, &b), CF_OK);
            cf_breed_free(b);
        }
        CHECK(await_event(&r, CF_EVENT_LOADED, 0, 10));
        CHECK_INT_EQ(cf_list_count(l), 98);
        cf_list_close(l);
        pthread_mutex_destroy(&r.lock);
    }
    cf_client_close(c);
    stop_mock();
}

static void unreachable_server_fails_the_page_with_a_network_error(void) {
    char closed[128];
    closed_port_url(closed);
    cf_client *c = open_client(closed, "{\"retries\":0}");
    cf_list *l = c ? open_list(c, CF_FACTS, "{\"page_size\":10,\"prefetch_distance\":0}") : NULL;
    if (l != NULL) {
        CHECK_FAILS(cf_list_wait(l, 0, harness_hang_ms()), CF_ERR_NETWORK, NULL);
        cf_fact *f = SENTINEL;
        CHECK_FAILS(cf_list_fact(l, 0, &f), CF_ERR_NETWORK, NULL);
        CHECK(f == NULL);
        cf_list_close(l);
    }
    cf_client_close(c);
}

static void indices_past_the_end_are_not_found(void) {
    cf_client *c = open_client(default_url, NULL);
    if (c == NULL) return;
    cf_list *l = open_list(c, CF_BREEDS, "{\"page_size\":10}");
    if (l != NULL) {
        cf_breed *b = SENTINEL;
        CHECK_STATUS(cf_list_breed(l, -1, &b), CF_ERR_NOT_FOUND); /* negative: even before the count is known */
        CHECK(b == NULL);
        cf_breed_free(wait_breed(l, 0));
        CHECK_INT_EQ(cf_list_count(l), 98);
        cf_breed_free(wait_breed(l, 97));
        static const int64_t past[] = {98, 99, 1000, INT64_MAX, -1, INT64_MIN};
        for (size_t i = 0; i < sizeof past / sizeof past[0]; i++) {
            b = SENTINEL;
            CHECK_STATUS(cf_list_breed(l, past[i], &b), CF_ERR_NOT_FOUND);
            CHECKF(b == NULL, "index %lld: out not NULL", (long long)past[i]);
        }
        CHECK_STATUS(cf_list_wait(l, 98, 1000), CF_ERR_NOT_FOUND);
        CHECK_STATUS(cf_list_wait(l, -1, 1000), CF_ERR_NOT_FOUND);
        cf_list_close(l);
    }
    cf_client_close(c);
}

static void index_past_the_end_is_not_found_even_before_the_count_is_known(void) {
    cf_client *c = open_client(default_url, NULL);
    if (c == NULL) return;
    cf_list *l = open_list(c, CF_BREEDS, "{\"page_size\":10,\"prefetch_distance\":0}");
    if (l != NULL) {
        /* Its page (1000) is past the end: the answer, once in, is "not found". */
        CHECK_STATUS(cf_list_wait(l, 10000, harness_hang_ms()), CF_ERR_NOT_FOUND);
        cf_breed *b = SENTINEL;
        CHECK_STATUS(cf_list_breed(l, 10000, &b), CF_ERR_NOT_FOUND);
        CHECK(b == NULL);
        cf_list_close(l);
    }
    cf_client_close(c);
}

/* ---- facts lists and kinds ---- */

static void facts_list_keeps_to_max_length(void) {
    cf_client *c = open_client(default_url, NULL);
    if (c == NULL) return;
    char *json = NULL;
    long long expected_total = -1;
    if (CHECK_STATUS(cf_facts_page(c, 1, 1, 60, &json), CF_OK) == CF_OK) {
        json_t *page = PARSE_JSON(json);
        expected_total = json_get_int(page, "total", -1);
        json_decref(page);
    }
    cf_free(json);
    cf_list *l = open_list(c, CF_FACTS, "{\"page_size\":10,\"max_length\":60}");
    if (l != NULL) {
        cf_fact *f = SENTINEL;
        CHECK_STATUS(cf_list_fact(l, 0, &f), CF_PENDING);
        CHECK(f == NULL);
        CHECK_STATUS(cf_list_wait(l, 0, harness_hang_ms()), CF_OK);
        int64_t count = cf_list_count(l);
        CHECK_INT_EQ(count, expected_total);
        int bad = 0;
        for (int64_t i = 0; i < count && i < 1000; i++) {
            f = NULL;
            if (CHECK_STATUS(cf_list_wait(l, i, harness_hang_ms()), CF_OK) != CF_OK) break;
            if (CHECK_STATUS(cf_list_fact(l, i, &f), CF_OK) != CF_OK) break;
            if (f == NULL || f->fact == NULL || f->length < 1 || f->length > 60 || utf8_length(f->fact) > 60) {
                bad++;
                fprintf(stderr, "fact %lld: %s (length %lld)\n", (long long)i, f && f->fact ? f->fact : "(null)",
                        f ? (long long)f->length : -1LL);
            }
            cf_fact_free(f);
        }
        CHECK_INT_EQ(bad, 0);
        f = SENTINEL;
        CHECK_STATUS(cf_list_fact(l, count, &f), CF_ERR_NOT_FOUND);
        CHECK(f == NULL);
        cf_list_close(l);
    }
    cf_client_close(c);
}

static void facts_list_holds_every_fact_by_default(void) {
    cf_client *c = open_client(default_url, NULL);
    if (c == NULL) return;
    cf_list *l = open_list(c, CF_FACTS, NULL);
    if (l != NULL) {
        CHECK_STATUS(cf_list_wait(l, 159, harness_hang_ms()), CF_OK);
        CHECK_INT_EQ(cf_list_count(l), 160);
        cf_fact *f = NULL;
        if (CHECK_STATUS(cf_list_fact(l, 159, &f), CF_OK) == CF_OK) {
            CHECK(f != NULL && f->fact != NULL && f->fact[0] != '\0' && f->length > 0);
        }
        cf_fact_free(f);
        cf_list_close(l);
    }
    cf_client_close(c);
}

static void list_of_the_other_kind_is_an_argument_error(void) {
    cf_client *c = open_client(default_url, NULL);
    if (c == NULL) return;
    cf_list *facts = open_list(c, CF_FACTS, "{\"page_size\":10}");
    cf_list *breeds = open_list(c, CF_BREEDS, "{\"page_size\":10}");
    if (facts != NULL && breeds != NULL) {
        cf_breed *b = SENTINEL;
        CHECK_FAILS(cf_list_breed(facts, 0, &b), CF_ERR_ARGUMENT, NULL);
        CHECK(b == NULL);
        cf_fact *f = SENTINEL;
        CHECK_FAILS(cf_list_fact(breeds, 0, &f), CF_ERR_ARGUMENT, NULL);
        CHECK(f == NULL);
        /* Also once loaded. */
        CHECK_STATUS(cf_list_wait(facts, 0, harness_hang_ms()), CF_OK);
        CHECK_STATUS(cf_list_wait(breeds, 0, harness_hang_ms()), CF_OK);
        b = SENTINEL;
        CHECK_FAILS(cf_list_breed(facts, 0, &b), CF_ERR_ARGUMENT, NULL);
        CHECK(b == NULL);
        f = SENTINEL;
        CHECK_FAILS(cf_list_fact(breeds, 0, &f), CF_ERR_ARGUMENT, NULL);
        CHECK(f == NULL);
    }
    cf_list_close(facts);
    cf_list_close(breeds);
    cf_client_close(c);
}

/* ---- memory bounds ---- */

static void pages_past_max_cached_items_are_dropped_and_reload(void) {
    cf_client *c = open_client(default_url, NULL);
    if (c == NULL) return;
    cf_list *l = open_list(c, CF_BREEDS, "{\"page_size\":10,\"prefetch_distance\":0,\"max_cached_items\":20}");
    if (l != NULL) {
        struct recorder r;
        recorder_init(&r);
        CHECK_STATUS(cf_list_set_listener(l, record, &r), CF_OK);
        for (int64_t i = 0; i <= 40; i += 10) cf_breed_free(wait_breed(l, i));
        /* Five pages read, room for two: [0,10) went first (the farthest). */
        CHECK(await_event(&r, CF_EVENT_DROPPED, 0, 10));
        WAIT_UNTIL(count_kind(&r, CF_EVENT_DROPPED) >= 3);
        CHECK(count_kind(&r, CF_EVENT_DROPPED) >= 3);
        cf_breed *b = SENTINEL;
        CHECK_STATUS(cf_list_breed(l, 0, &b), CF_PENDING); /* dropped: loads again */
        CHECK(b == NULL);
        b = wait_breed(l, 0);
        CHECK(b != NULL && b->breed != NULL && strcmp(b->breed, "Abyssinian") == 0);
        cf_breed_free(b);
        cf_list_close(l);
        pthread_mutex_destroy(&r.lock);
    }
    cf_client_close(c);
}

static void jump_into_a_million_breeds_loads_only_around_the_index(void) {
    char url[128];
    REQUIRE_MOCK("--breeds 1000000", url);
    cf_client *c = open_client(url, NULL);
    cf_list *l = c ? open_list(c, CF_BREEDS, NULL) : NULL;
    if (l != NULL) {
        struct recorder r;
        recorder_init(&r);
        CHECK_STATUS(cf_list_set_listener(l, record, &r), CF_OK);
        cf_breed *b = SENTINEL;
        CHECK_STATUS(cf_list_breed(l, 654321, &b), CF_PENDING);
        CHECK(b == NULL);
        b = wait_breed(l, 654321);
        /* Synthetic names end with the breed's 1-based number. */
        const char *suffix = " 654322";
        CHECKF(b != NULL && b->breed != NULL && strlen(b->breed) > strlen(suffix) &&
               strcmp(b->breed + strlen(b->breed) - strlen(suffix), suffix) == 0,
               "breed 654321 is \"%s\"", b && b->breed ? b->breed : "(null)");
        CHECK_INT_EQ(cf_list_count(l), 1000000);
        /* The same breed as the one-shot call gives (default page size 25: page 26173, item 21). */
        char *json = NULL;
        if (b != NULL && CHECK_STATUS(cf_breeds_page(c, 654321 / 25 + 1, 25, &json), CF_OK) == CF_OK) {
            json_t *page = PARSE_JSON(json);
            json_t *expected = json_array_get(json_object_get(page, "items"), 654321 % 25);
            CHECK_STR_EQ(b->breed, json_get_str(expected, "breed"));
            const char *country = json_get_str(expected, "country");
            CHECK((b->country == NULL && country == NULL) ||
                  (b->country != NULL && country != NULL && strcmp(b->country, country) == 0));
            json_decref(page);
        }
        cf_free(json);
        cf_breed_free(b);
        /* Only the pages of the window were loaded (default: 25 items a page, 50 items each
         * side): pages [654250,654275) to [654350,654375), each heard once loaded. */
        for (int64_t first = 654250; first <= 654350; first += 25) {
            CHECKF(await_event(&r, CF_EVENT_LOADED, first, 25), "no event for the page from %lld", (long long)first);
        }
        pthread_mutex_lock(&r.lock);
        int far = 0;
        for (int i = 0; i < r.n && i < MAX_EVENTS; i++) {
            if (r.events[i].kind == CF_EVENT_LOADED &&
                (r.events[i].first < 654321 - 200 || r.events[i].first > 654321 + 200)) far++;
        }
        int loads = r.n;
        pthread_mutex_unlock(&r.lock);
        CHECK_INT_EQ(far, 0);
        CHECKF(loads == 5, "%d events", loads);
        CHECK(client_metric(c, "/breeds", "requests") <= 10);
        cf_list_close(l);
        pthread_mutex_destroy(&r.lock);
    }
    cf_client_close(c);
    stop_mock();
}

/* ---- closing ---- */

/* A thread waiting for an index; `calling` is set just before it calls cf_list_wait. */
struct waiter { cf_list *list; int64_t index; int calling; cf_status status; double took; };

static void *wait_in_thread(void *arg) {
    struct waiter *w = arg;
    double start = now_seconds();
    __atomic_store_n(&w->calling, 1, __ATOMIC_RELEASE);
    w->status = cf_list_wait(w->list, w->index, harness_hang_ms());
    w->took = now_seconds() - start;
    return NULL;
}

static void waiter_gets_its_item_even_if_its_page_is_dropped_while_loading(void) {
    char url[128];
    REQUIRE_MOCK("--latency-ms 500", url);
    cf_client *c = open_client(url, NULL);
    /* Room for two pages: reading two other places would drop the page being waited for. */
    cf_list *l = c ? open_list(c, CF_BREEDS, "{\"page_size\":10,\"prefetch_distance\":0,\"max_cached_items\":20}")
                   : NULL;
    if (l != NULL) {
        cf_breed *b = SENTINEL;
        CHECK_STATUS(cf_list_breed(l, 0, &b), CF_PENDING); /* page [0,10) loads from here on */
        struct waiter w = {l, 0, 0, CF_OK, 0};
        pthread_t thread;
        CHECK(pthread_create(&thread, NULL, wait_in_thread, &w) == 0);
        WAIT_UNTIL(__atomic_load_n(&w.calling, __ATOMIC_ACQUIRE));
        /* Most likely asleep in cf_list_wait by now; if not, it waits for the page's reload:
         * the answer must be the same. */
        sleep_ms(100);
        b = SENTINEL;
        CHECK_STATUS(cf_list_breed(l, 50, &b), CF_PENDING);
        b = SENTINEL;
        CHECK_STATUS(cf_list_breed(l, 90, &b), CF_PENDING); /* three pages: room is made */
        pthread_join(thread, NULL);
        /* Its load cancelled under it, the waiter would sleep through its whole timeout (a
         * bound only a hang reaches) and get CF_PENDING: it must get the item. */
        CHECKF(w.status == CF_OK, "the waiter got %s after %.2f s", cf_status_string(w.status), w.took);
        cf_list_close(l);
    }
    cf_client_close(c);
    stop_mock();
}

static void closing_a_list_with_loads_in_flight_is_clean(void) {
    char url[128];
    REQUIRE_MOCK("--latency-ms 500", url);
    cf_client *c = open_client(url, NULL);
    cf_list *l = c ? open_list(c, CF_BREEDS, "{\"page_size\":10}") : NULL;
    if (l != NULL) {
        cf_breed *b = SENTINEL;
        CHECK_STATUS(cf_list_breed(l, 0, &b), CF_PENDING);
        CHECK(b == NULL);
        cf_list_close(l); /* loads of pages 0..2 still in flight */
    }
    sleep_ms(700); /* let the cancelled loads finish, so they would crash now if they touched the list */
    cf_client_close(c);
    stop_mock();
}

/*
 * A list closes only once its waiter is inside cf_list_wait (no call may start once close
 * has begun): room for one page, so the waiter's own access drops the page loaded before
 * and the listener hears it, from within the wait. Its page takes 5 s to come and the wait
 * may last as long as only a hang takes: CF_ERR_CANCELLED shows close woke it.
 */
static void closing_a_list_wakes_its_waiters(void) {
    char url[128];
    REQUIRE_MOCK("--latency-ms 5000", url);
    cf_client *c = open_client(url, NULL);
    cf_list *l = c ? open_list(c, CF_BREEDS, "{\"page_size\":10,\"prefetch_distance\":0,\"max_cached_items\":10}")
                   : NULL;
    if (l != NULL) {
        cf_breed_free(wait_breed(l, 0));
        struct recorder r;
        recorder_init(&r);
        CHECK_STATUS(cf_list_set_listener(l, record, &r), CF_OK);
        struct waiter w = {l, 50, 0, CF_OK, 0};
        pthread_t thread;
        CHECK(pthread_create(&thread, NULL, wait_in_thread, &w) == 0);
        int inside = await_event(&r, CF_EVENT_DROPPED, 0, 10);
        CHECKF(inside, "the waiter's access dropped no page");
        if (inside) {
            sleep_ms(100); /* most likely asleep by now; if not, it finds the list closed */
            cf_list_close(l);
            pthread_join(thread, NULL);
            CHECKF(w.status == CF_ERR_CANCELLED, "the waiter got %s after %.2f s", cf_status_string(w.status), w.took);
        } else {
            pthread_join(thread, NULL); /* never close a list a call may still start on */
            cf_list_close(l);
        }
        pthread_mutex_destroy(&r.lock);
    }
    cf_client_close(c);
    kill_mock(); /* not waiting for the answer still to come */
}

int main(void) {
    RUN(closing_or_freeing_null_is_a_no_op);
    RUN(unreachable_server_fails_the_page_with_a_network_error);
    if (start_mock("--latency-ms 100", default_url) == 0) {
        RUN(list_calls_reject_null_handles_and_out_pointers);
        RUN(list_open_rejects_an_unknown_collection);
        RUN(list_open_rejects_bad_options_naming_the_key);
        RUN(list_open_rejects_a_cache_smaller_than_its_window);
        RUN(list_open_accepts_every_documented_option);
        RUN(first_access_is_pending_then_ok_after_wait);
        RUN(breeds_read_through_the_list_match_the_pages);
        RUN(listener_sees_loaded_ranges_of_page_size);
        RUN(listener_is_not_called_after_removal);
        RUN(indices_past_the_end_are_not_found);
        RUN(index_past_the_end_is_not_found_even_before_the_count_is_known);
        RUN(facts_list_keeps_to_max_length);
        RUN(facts_list_holds_every_fact_by_default);
        RUN(list_of_the_other_kind_is_an_argument_error);
        RUN(pages_past_max_cached_items_are_dropped_and_reload);
        stop_mock();
    } else {
        CHECKF(0, "cannot start the shared mock; skipped the tests that need it");
    }
    RUN(wait_times_out_as_pending);
    RUN(list_adopts_the_server_page_cap);
    RUN(failed_page_fails_every_index_until_retry);
    RUN(jump_into_a_million_breeds_loads_only_around_the_index);
    RUN(waiter_gets_its_item_even_if_its_page_is_dropped_while_loading);
    RUN(closing_a_list_with_loads_in_flight_is_clean);
    RUN(closing_a_list_wakes_its_waiters); /* last: a library bug here may crash the program */
    return harness_report("list_test");
}
