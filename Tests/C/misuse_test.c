/*
 * catfacts.h used as a hostile or careless caller would: JSON nested without end (D5), and
 * (below) every function with NULL, closed and wrong-kind handles and pointers that are no
 * handle at all (small integers, unmapped and PROT_NONE pages, misaligned pointers), every option out of range, of the
 * wrong type or with bad text, every listener calling back into the library. Each case
 * asserts the exact status and that cf_last_error() names the culprit. No case may crash,
 * leak or hang: run.sh runs this program under valgrind, `make c-misuse` under ASan+UBSan.
 * Needs no mock: nothing here reaches a server except through a closed port.
 */
#include "harness.h"

#include <sys/mman.h>
#include <unistd.h>

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
        /* A linear scan of 2 MB takes milliseconds, a quadratic one hours: the hang-only bound
         * tells them apart on any machine (how fast is for make bench). */
        CHECKF(seconds < harness_hang_s(), "%ld deep took %.3f s", depths[i], seconds);
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
    CHECK_FAILS(cf_client_open(nowhere, text, &c), CF_ERR_ARGUMENT, "'retries' in client options must be in 0..100");
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

/* ---- handles: NULL, of another kind ---- */

/*
 * One call of each function that takes a handle, with valid other arguments; `h` is passed
 * as the handle (cast: the cases below pass NULL and handles of the other kind).
 */
struct handle_case {
    const char *function;
    cf_status (*call)(void *h);
    const char *kind; /* "client", "list" or "search": what the function expects */
};

static cf_status call_breeds_page(void *h) { char *o = SENTINEL; cf_status s = cf_breeds_page(h, 1, 10, &o); CHECK(o == NULL); return s; }
static cf_status call_breeds_page_items(void *h) { cf_breed_page *o = SENTINEL; cf_status s = cf_breeds_page_items(h, 1, 10, &o); CHECK(o == NULL); return s; }
static cf_status call_facts_page_items(void *h) { cf_fact_page *o = SENTINEL; cf_status s = cf_facts_page_items(h, 1, 10, 0, &o); CHECK(o == NULL); return s; }
static cf_status call_facts_page(void *h) { char *o = SENTINEL; cf_status s = cf_facts_page(h, 1, 10, 0, &o); CHECK(o == NULL); return s; }
static cf_status call_fact_random(void *h) { char *o = SENTINEL; cf_status s = cf_fact_random(h, 0, &o); CHECK(o == NULL); return s; }
static cf_status call_breed_find(void *h) { char *o = SENTINEL; cf_status s = cf_breed_find(h, "Abyssinian", &o); CHECK(o == NULL); return s; }
static cf_status call_breeds_query(void *h) { char *o = SENTINEL; cf_status s = cf_breeds_query(h, NULL, &o); CHECK(o == NULL); return s; }
static cf_status call_metrics(void *h) { char *o = SENTINEL; cf_status s = cf_metrics(h, &o); CHECK(o == NULL); return s; }
static cf_status call_metrics_prometheus(void *h) { char *o = SENTINEL; cf_status s = cf_metrics_prometheus(h, &o); CHECK(o == NULL); return s; }
static void ignore_request(void *ctx, const char *endpoint, double ms, cf_status s) { (void)ctx; (void)endpoint; (void)ms; (void)s; }
static void ignore_online(void *ctx, int online) { (void)ctx; (void)online; }
static void ignore_event(void *ctx, cf_event e, int64_t first, int64_t count) { (void)ctx; (void)e; (void)first; (void)count; }
static cf_status call_set_metrics_listener(void *h) { return cf_client_set_metrics_listener(h, ignore_request, NULL); }
static cf_status call_set_online_listener(void *h) { return cf_client_set_online_listener(h, ignore_online, NULL); }
static cf_status call_set_trace_parent(void *h) { return cf_client_set_trace_parent(h, NULL); }
static cf_status call_set_trace_context(void *h) { return cf_client_set_trace_context(h, NULL, NULL); }
static cf_status call_list_open(void *h) { cf_list *o = SENTINEL; cf_status s = cf_list_open(h, CF_BREEDS, NULL, &o); CHECK(o == NULL); return s; }
static cf_status call_list_breed(void *h) { cf_breed *o = SENTINEL; cf_status s = cf_list_breed(h, 0, &o); CHECK(o == NULL); return s; }
static cf_status call_list_breeds(void *h) { cf_breed_array *o = SENTINEL; cf_status s = cf_list_breeds(h, 0, 10, &o); CHECK(o == NULL); return s; }
static cf_status call_list_facts(void *h) { cf_fact_array *o = SENTINEL; cf_status s = cf_list_facts(h, 0, 10, &o); CHECK(o == NULL); return s; }
static cf_status call_list_fact(void *h) { cf_fact *o = SENTINEL; cf_status s = cf_list_fact(h, 0, &o); CHECK(o == NULL); return s; }
static cf_status call_list_wait(void *h) { return cf_list_wait(h, 0, 0); }
static cf_status call_list_retry(void *h) { return cf_list_retry(h); }
static cf_status call_list_set_listener(void *h) { return cf_list_set_listener(h, ignore_event, NULL); }
static void ignore_answer(void *ctx, int64_t generation, cf_status s, const char *json) { (void)ctx; (void)generation; (void)s; (void)json; }
static cf_status call_search_open(void *h) { cf_search *o = SENTINEL; cf_status s = cf_search_open(h, NULL, ignore_answer, NULL, &o); CHECK(o == NULL); return s; }
static cf_status call_search_set(void *h) { return cf_search_set(h, "a"); }

static const struct handle_case handle_cases[] = {
    {"cf_breeds_page", call_breeds_page, "client"},
    {"cf_breeds_page_items", call_breeds_page_items, "client"},
    {"cf_facts_page", call_facts_page, "client"},
    {"cf_facts_page_items", call_facts_page_items, "client"},
    {"cf_fact_random", call_fact_random, "client"},
    {"cf_breed_find", call_breed_find, "client"},
    {"cf_breeds_query", call_breeds_query, "client"},
    {"cf_metrics", call_metrics, "client"},
    {"cf_metrics_prometheus", call_metrics_prometheus, "client"},
    {"cf_client_set_metrics_listener", call_set_metrics_listener, "client"},
    {"cf_client_set_online_listener", call_set_online_listener, "client"},
    {"cf_client_set_trace_parent", call_set_trace_parent, "client"},
    {"cf_client_set_trace_context", call_set_trace_context, "client"},
    {"cf_list_open", call_list_open, "client"},
    {"cf_list_breed", call_list_breed, "list"},
    {"cf_list_breeds", call_list_breeds, "list"},
    {"cf_list_fact", call_list_fact, "list"},
    {"cf_list_facts", call_list_facts, "list"},
    {"cf_list_wait", call_list_wait, "list"},
    {"cf_list_retry", call_list_retry, "list"},
    {"cf_list_set_listener", call_list_set_listener, "list"},
    {"cf_search_open", call_search_open, "client"},
    {"cf_search_set", call_search_set, "search"},
};
#define HANDLE_CASES (sizeof handle_cases / sizeof handle_cases[0])

static void every_function_refuses_a_null_handle_naming_it(void) {
    for (size_t i = 0; i < HANDLE_CASES; i++) {
        char expected[64];
        snprintf(expected, sizeof expected, "the %s is NULL", handle_cases[i].kind);
        cf_status s = CHECK_FAILS(handle_cases[i].call(NULL), CF_ERR_ARGUMENT, expected);
        if (s != CF_ERR_ARGUMENT) fprintf(stderr, "  (in %s)\n", handle_cases[i].function);
    }
    CHECK_INT_EQ(cf_list_count(NULL), CF_COUNT_INVALID);
    CHECK(strstr(cf_last_error(), "the list is NULL") != NULL);
    /* The void functions: NULL is a no-op, and so reaching the next line is the check. */
    cf_client_close(NULL);
    cf_client_interrupt(NULL);
    cf_list_close(NULL);
    cf_search_close(NULL);
    cf_breed_free(NULL);
    cf_fact_free(NULL);
    cf_free(NULL);
}

/* A list where a client is expected, a client where a list is, an item where either is. */
static void every_function_refuses_a_handle_of_another_kind(void) {
    cf_client *c = NULL;
    if (CHECK_STATUS(cf_client_open(nowhere, NULL, &c), CF_OK) != CF_OK) return;
    cf_list *l = NULL;
    if (CHECK_STATUS(cf_list_open(c, CF_BREEDS, NULL, &l), CF_OK) != CF_OK) { cf_client_close(c); return; }
    /* Not a handle at all: memory whose first word is a string pointer, as in a cf_breed. */
    const char *not_a_handle[4] = {"Abyssinian", NULL, NULL, NULL};
    for (size_t i = 0; i < HANDLE_CASES; i++) {
        int wants_client = strcmp(handle_cases[i].kind, "client") == 0;
        void *other = wants_client ? (void *)l : (void *)c;
        char expected[64];
        snprintf(expected, sizeof expected, "the %s is not a cf_%s *", handle_cases[i].kind, handle_cases[i].kind);
        if (CHECK_FAILS(handle_cases[i].call(other), CF_ERR_ARGUMENT, expected) != CF_ERR_ARGUMENT)
            fprintf(stderr, "  (in %s, given a handle of the other kind)\n", handle_cases[i].function);
        if (CHECK_FAILS(handle_cases[i].call((void *)not_a_handle), CF_ERR_ARGUMENT, expected) != CF_ERR_ARGUMENT)
            fprintf(stderr, "  (in %s, given a cf_breed)\n", handle_cases[i].function);
    }
    CHECK_INT_EQ(cf_list_count((cf_list *)c), CF_COUNT_INVALID);
    CHECK(strstr(cf_last_error(), "the list is not a cf_list *") != NULL);
    /* Closing or interrupting a handle of another kind does nothing: both stay usable. */
    cf_client_close((cf_client *)l);
    cf_list_close((cf_list *)c);
    cf_search_close((cf_search *)c);
    cf_client_interrupt((cf_client *)l);
    CHECK_INT_EQ(cf_list_count(l), CF_COUNT_UNKNOWN);
    char *json = NULL;
    CHECK_STATUS(cf_metrics(c, &json), CF_OK);
    cf_free(json);
    cf_list_close(l);
    cf_client_close(c);
}

/*
 * Pointers that are no open handle, in every function: looked up by value, never read
 * through, each named (never a crash, whatever the pointer: run under valgrind and ASan).
 */
struct hostile { const char *what; void *pointer; const char *says; };

static void check_hostile(const struct hostile *h) {
    for (size_t i = 0; i < HANDLE_CASES; i++) {
        char expected[128];
        snprintf(expected, sizeof expected, "the %s is not a cf_%s *: %s", handle_cases[i].kind, handle_cases[i].kind, h->says);
        if (CHECK_FAILS(handle_cases[i].call(h->pointer), CF_ERR_ARGUMENT, expected) != CF_ERR_ARGUMENT)
            fprintf(stderr, "  (in %s, given %s)\n", handle_cases[i].function, h->what);
    }
    CHECK_INT_EQ(cf_list_count(h->pointer), CF_COUNT_INVALID);
    CHECKF(strstr(cf_last_error(), h->says) != NULL, "cf_list_count given %s: %s", h->what, cf_last_error());
    /* The void functions do nothing with it: reaching the next line is the check. */
    cf_client_interrupt(h->pointer);
    cf_client_close(h->pointer);
    cf_list_close(h->pointer);
    cf_search_close(h->pointer);
}

static void every_function_refuses_what_is_no_handle_naming_it(void) {
    long page_size = sysconf(_SC_PAGESIZE);
    void *guarded = mmap(NULL, (size_t)page_size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    void *unmapped = mmap(NULL, (size_t)page_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (guarded == MAP_FAILED || unmapped == MAP_FAILED) { CHECK(!"mmap failed"); return; }
    munmap(unmapped, (size_t)page_size);
    cf_client *c = NULL;
    if (CHECK_STATUS(cf_client_open(nowhere, NULL, &c), CF_OK) != CF_OK) return;
    const char *not_handle = "not a handle of this library";
    struct hostile cases[] = {
        {"(void *)0x10", (void *)0x10, not_handle},
        {"(void *)1", (void *)1, not_handle},
        {"(void *)-1", (void *)-1, not_handle},
        {"a PROT_NONE page", guarded, not_handle},
        {"an unmapped page", unmapped, not_handle},
        {"a misaligned pointer into a PROT_NONE page", (char *)guarded + 3, not_handle},
        {"a client handle plus one", (char *)c + 1, not_handle},
        {"a client handle plus eight", (char *)c + 8, not_handle},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) check_hostile(&cases[i]);
    /* The client itself still works after all that. */
    char *json = NULL;
    CHECK_STATUS(cf_metrics(c, &json), CF_OK);
    cf_free(json);
    cf_client_close(c);
    munmap(guarded, (size_t)page_size);
}

static void ignore_answer_of(void *ctx, int64_t generation, cf_status s, const char *json) { (void)ctx; (void)generation; (void)s; (void)json; }

/* A closed handle of each kind, in every function: "it was closed", not another kind. */
static void every_function_refuses_a_closed_handle_naming_it(void) {
    cf_client *c = NULL, *closed_client = NULL;
    cf_list *closed_list = NULL;
    cf_search *closed_search = NULL;
    if (CHECK_STATUS(cf_client_open(nowhere, NULL, &c), CF_OK) != CF_OK) return;
    CHECK_STATUS(cf_client_open(nowhere, NULL, &closed_client), CF_OK);
    CHECK_STATUS(cf_list_open(c, CF_BREEDS, NULL, &closed_list), CF_OK);
    CHECK_STATUS(cf_search_open(c, NULL, ignore_answer_of, NULL, &closed_search), CF_OK);
    cf_client_close(closed_client);
    cf_list_close(closed_list);
    cf_search_close(closed_search);
    /* New handles after the closes: a closed handle is not mistaken for one reusing its place. */
    cf_client *reopened = NULL;
    cf_list *relisted = NULL;
    CHECK_STATUS(cf_client_open(nowhere, NULL, &reopened), CF_OK);
    CHECK_STATUS(cf_list_open(c, CF_BREEDS, NULL, &relisted), CF_OK);
    struct hostile cases[] = {
        {"a closed client", closed_client, "it was closed"},
        {"a closed list", closed_list, "it was closed"},
        {"a closed search", closed_search, "it was closed"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) check_hostile(&cases[i]);
    CHECK_INT_EQ(cf_list_count(relisted), CF_COUNT_UNKNOWN);
    char *json = NULL;
    CHECK_STATUS(cf_metrics(reopened, &json), CF_OK);
    cf_free(json);
    cf_list_close(relisted);
    cf_client_close(reopened);
    cf_client_close(c);
}

/* A search where a client or a list is expected, and a client and a list where a search is. */
static void every_function_names_the_kind_a_handle_is(void) {
    cf_client *c = NULL;
    cf_list *l = NULL;
    cf_search *s = NULL;
    if (CHECK_STATUS(cf_client_open(nowhere, NULL, &c), CF_OK) != CF_OK) return;
    CHECK_STATUS(cf_list_open(c, CF_BREEDS, NULL, &l), CF_OK);
    CHECK_STATUS(cf_search_open(c, NULL, ignore_answer_of, NULL, &s), CF_OK);
    for (size_t i = 0; i < HANDLE_CASES; i++) {
        const char *kind = handle_cases[i].kind;
        void *others[2];
        const char *names[2];
        size_t n = 0;
        if (strcmp(kind, "client") != 0) { others[n] = c; names[n++] = "cf_client"; }
        if (strcmp(kind, "list") != 0) { others[n] = l; names[n++] = "cf_list"; }
        if (strcmp(kind, "search") != 0) { others[n] = s; names[n++] = "cf_search"; }
        for (size_t j = 0; j < n; j++) {
            char expected[128];
            snprintf(expected, sizeof expected, "the %s is not a cf_%s *: a handle of another kind (a %s *)", kind, kind, names[j]);
            if (CHECK_FAILS(handle_cases[i].call(others[j]), CF_ERR_ARGUMENT, expected) != CF_ERR_ARGUMENT)
                fprintf(stderr, "  (in %s, given a %s *)\n", handle_cases[i].function, names[j]);
        }
    }
    cf_search_close(s);
    cf_list_close(l);
    cf_client_close(c);
}

/* Every out-pointer NULL: CF_ERR_ARGUMENT naming it, with the handle valid. */
static void every_null_out_pointer_is_named(void) {
    cf_client *c = NULL;
    if (CHECK_STATUS(cf_client_open(nowhere, NULL, &c), CF_OK) != CF_OK) return;
    cf_list *breeds = NULL, *facts = NULL;
    CHECK_STATUS(cf_list_open(c, CF_BREEDS, NULL, &breeds), CF_OK);
    CHECK_STATUS(cf_list_open(c, CF_FACTS, NULL, &facts), CF_OK);
    CHECK_FAILS(cf_client_open(nowhere, NULL, NULL), CF_ERR_ARGUMENT, "out (the cf_client ** to fill) is NULL");
    CHECK_FAILS(cf_breeds_page(c, 1, 10, NULL), CF_ERR_ARGUMENT, "out_json is NULL");
    CHECK_FAILS(cf_facts_page(c, 1, 10, 0, NULL), CF_ERR_ARGUMENT, "out_json is NULL");
    CHECK_FAILS(cf_fact_random(c, 0, NULL), CF_ERR_ARGUMENT, "out_json is NULL");
    CHECK_FAILS(cf_breed_find(c, "Abyssinian", NULL), CF_ERR_ARGUMENT, "out_json is NULL");
    CHECK_FAILS(cf_breeds_query(c, NULL, NULL), CF_ERR_ARGUMENT, "out_json is NULL");
    CHECK_FAILS(cf_metrics(c, NULL), CF_ERR_ARGUMENT, "out_json is NULL");
    CHECK_FAILS(cf_metrics_prometheus(c, NULL), CF_ERR_ARGUMENT, "out_text is NULL");
    CHECK_FAILS(cf_list_open(c, CF_BREEDS, NULL, NULL), CF_ERR_ARGUMENT, "out (the cf_list ** to fill) is NULL");
    CHECK_FAILS(cf_list_breed(breeds, 0, NULL), CF_ERR_ARGUMENT, "out (the cf_breed ** to fill) is NULL");
    CHECK_FAILS(cf_list_fact(facts, 0, NULL), CF_ERR_ARGUMENT, "out (the cf_fact ** to fill) is NULL");
    CHECK_FAILS(cf_breeds_page_items(c, 1, 10, NULL), CF_ERR_ARGUMENT, "out (the cf_breed_page ** to fill) is NULL");
    CHECK_FAILS(cf_facts_page_items(c, 1, 10, 0, NULL), CF_ERR_ARGUMENT, "out (the cf_fact_page ** to fill) is NULL");
    CHECK_FAILS(cf_list_breeds(breeds, 0, 10, NULL), CF_ERR_ARGUMENT, "out (the cf_breed_array ** to fill) is NULL");
    CHECK_FAILS(cf_list_facts(facts, 0, 10, NULL), CF_ERR_ARGUMENT, "out (the cf_fact_array ** to fill) is NULL");
    /* The wrong collection for the call. */
    cf_breed_array *batch = SENTINEL;
    CHECK_FAILS(cf_list_breeds(facts, 0, 10, &batch), CF_ERR_ARGUMENT, "the list holds facts; use cf_list_fact");
    CHECK(batch == NULL);
    cf_fact_array *fact_batch = SENTINEL;
    CHECK_FAILS(cf_list_facts(breeds, 0, 10, &fact_batch), CF_ERR_ARGUMENT, "the list holds breeds; use cf_list_breed");
    CHECK(fact_batch == NULL);
    cf_breed *b = SENTINEL;
    CHECK_FAILS(cf_list_breed(facts, 0, &b), CF_ERR_ARGUMENT, "the list holds facts; use cf_list_fact");
    CHECK(b == NULL);
    cf_fact *f = SENTINEL;
    CHECK_FAILS(cf_list_fact(breeds, 0, &f), CF_ERR_ARGUMENT, "the list holds breeds; use cf_list_breed");
    CHECK(f == NULL);
    cf_list_close(breeds);
    cf_list_close(facts);
    cf_client_close(c);
}

/* ---- options: every key with every kind of bad value ---- */

/* Where options go: cf_client_open's, cf_list_open's (a list of facts), cf_breeds_query's. */
enum place { CLIENT, LIST, QUERY, SEARCH };
static const char *const place_names[] = {"client options", "list options", "the query", "search options"};

/* A client that answers queries from the bundled catalog (nothing listens at `nowhere`). */
static cf_client *catalog_client;

/*
 * Hands `json` to the place's function and returns its status; what it opened is closed,
 * its out-pointer is checked to be NULL on failure.
 */
static cf_status try_options(enum place place, const char *json) {
    cf_status s;
    if (place == CLIENT) {
        cf_client *c = SENTINEL;
        s = cf_client_open(nowhere, json, &c);
        CHECKF(s == CF_OK ? c != NULL && c != SENTINEL : c == NULL, "out is %p after %s", (void *)c, cf_status_string(s));
        if (s == CF_OK && c != NULL && c != SENTINEL) cf_client_close(c);
    } else if (place == LIST) {
        cf_list *l = SENTINEL;
        s = cf_list_open(catalog_client, CF_FACTS, json, &l);
        CHECKF(s == CF_OK ? l != NULL && l != SENTINEL : l == NULL, "out is %p after %s", (void *)l, cf_status_string(s));
        if (s == CF_OK && l != NULL && l != SENTINEL) cf_list_close(l);
    } else if (place == SEARCH) {
        cf_search *o = SENTINEL;
        s = cf_search_open(catalog_client, json, ignore_answer, NULL, &o);
        CHECKF(s == CF_OK ? o != NULL && o != SENTINEL : o == NULL, "out is %p after %s", (void *)o, cf_status_string(s));
        if (s == CF_OK && o != NULL && o != SENTINEL) cf_search_close(o);
    } else {
        char *out = SENTINEL;
        s = cf_breeds_query(catalog_client, json, &out);
        CHECKF(s == CF_OK ? out != NULL && out != SENTINEL : out == NULL, "out is %p after %s", (void *)out,
               cf_status_string(s));
        if (s == CF_OK && out != NULL && out != SENTINEL) cf_free(out);
    }
    return s;
}

/* try_options with the JSON {"<key>":<value>}, checking the status and the message. */
static void check_option(enum place place, const char *key, const char *value, cf_status expected,
                         const char *message) {
    size_t size = strlen(key) + strlen(value) + 8;
    char *json = malloc(size);
    snprintf(json, size, "{\"%s\":%s}", key, value);
    cf_status s = harness_check_status(try_options(place, json), expected, message, expected != CF_OK,
                                       "an option", __FILE__, __LINE__);
    if (s != expected) fprintf(stderr, "  (%s: %.120s)\n", place_names[place], json);
    free(json);
}

static const struct integer_option {
    enum place place;
    const char *key;
    long long min, max;
} integer_options[] = {
    {CLIENT, "timeout_ms", 1, 86400000},
    {CLIENT, "connect_timeout_ms", 1, 86400000},
    {CLIENT, "deadline_ms", 1, 86400000},
    {CLIENT, "retries", 0, 100},
    {CLIENT, "cache_max_bytes", 0, 1LL << 40},
    {CLIENT, "cache_ttl_ms", 0, 31536000000LL},
    {CLIENT, "max_body_bytes", 1, 1LL << 31},
    {CLIENT, "read_ahead", 0, 16},
    {CLIENT, "max_connections", 1, 256},
    {LIST, "page_size", 1, 100000},
    {LIST, "prefetch_distance", 0, 1000000},
    {LIST, "max_cached_items", 1, 10000000},
    {LIST, "max_length", 0, 1000000},
    {QUERY, "limit", 0, 1000000},
    {SEARCH, "debounce_ms", 0, 60000},
    {SEARCH, "limit", 1, 10000},
};

static void every_integer_option_refuses_values_outside_its_range(void) {
    for (size_t i = 0; i < sizeof integer_options / sizeof integer_options[0]; i++) {
        const struct integer_option *o = &integer_options[i];
        const long long outside[] = {o->min - 1, o->max + 1, INT64_MAX, INT64_MIN};
        for (size_t j = 0; j < sizeof outside / sizeof outside[0]; j++) {
            char value[32], message[160];
            snprintf(value, sizeof value, "%lld", outside[j]);
            snprintf(message, sizeof message, "'%s' in %s must be in %lld..%lld; got %lld", o->key,
                     place_names[o->place], o->min, o->max, outside[j]);
            check_option(o->place, o->key, value, CF_ERR_ARGUMENT, message);
        }
    }
}

static void every_integer_option_refuses_other_types(void) {
    /* Numbers that are no int64_t, then other JSON types, null included. */
    static const char *const values[] = {"2.5", "1e300", "-1e300", "18446744073709551616", "\"1\"", "true", "null",
                                         "[]", "{}", "[1]"};
    for (size_t i = 0; i < sizeof integer_options / sizeof integer_options[0]; i++) {
        const struct integer_option *o = &integer_options[i];
        char message[160];
        snprintf(message, sizeof message, "'%s' in %s must be an integer in %lld..%lld", o->key,
                 place_names[o->place], o->min, o->max);
        for (size_t j = 0; j < sizeof values / sizeof values[0]; j++) check_option(o->place, o->key, values[j], CF_ERR_ARGUMENT, message);
    }
}

static void client_and_query_integers_accept_their_bounds(void) {
    for (size_t i = 0; i < sizeof integer_options / sizeof integer_options[0]; i++) {
        const struct integer_option *o = &integer_options[i];
        if (o->place == LIST) continue; /* list options must also fit together: below */
        char value[32];
        snprintf(value, sizeof value, "%lld", o->min);
        check_option(o->place, o->key, value, CF_OK, NULL);
        snprintf(value, sizeof value, "%lld", o->max);
        check_option(o->place, o->key, value, CF_OK, NULL);
    }
}

/* D2: every list option at its largest, then reads at the far ends of int64_t. */
static void a_list_at_its_largest_options_reads_any_index_without_trapping(void) {
    static const char *const extremes[] = {
        "{\"page_size\":100000,\"prefetch_distance\":1000000,\"max_cached_items\":10000000}",
        "{\"page_size\":1,\"prefetch_distance\":0,\"max_cached_items\":1}",
    };
    static const int64_t indices[] = {INT64_MAX, INT64_MAX - 1, INT64_MIN, -1, 0, (int64_t)1 << 62};
    for (size_t i = 0; i < sizeof extremes / sizeof extremes[0]; i++) {
        cf_list *l = NULL;
        if (CHECK_STATUS(cf_list_open(catalog_client, CF_BREEDS, extremes[i], &l), CF_OK) != CF_OK) continue;
        for (size_t j = 0; j < sizeof indices / sizeof indices[0]; j++) {
            cf_breed *b = SENTINEL;
            cf_status s = cf_list_breed(l, indices[j], &b);
            if (indices[j] < 0) CHECK_FAILS(s, CF_ERR_NOT_FOUND, "past the end of the list (or negative)");
            else CHECKF(s == CF_OK || s == CF_PENDING || s == CF_ERR_NOT_FOUND, "index %lld: %s", (long long)indices[j],
                        cf_status_string(s));
            if (s == CF_OK) cf_breed_free(b);
            else CHECK(b == NULL);
            /* Waiting for it ends: loaded, failed or past the end (the catalog answers). */
            s = cf_list_wait(l, indices[j], 10000);
            CHECKF(s != CF_PENDING && s != CF_ERR_INTERNAL, "wait for index %lld: %s", (long long)indices[j],
                   cf_status_string(s));
        }
        CHECKF(cf_list_count(l) == 98, "count %lld", (long long)cf_list_count(l));
        cf_list_close(l);
    }
}

static const struct string_option {
    enum place place;
    const char *key;
} string_options[] = {
    {CLIENT, "user_agent"}, {CLIENT, "proxy"}, {CLIENT, "cache_path"},
    {QUERY, "search"}, {QUERY, "group_by"}, {QUERY, "sort_by"},
};

static void every_string_option_refuses_other_types(void) {
    static const char *const values[] = {"1", "true", "null", "[]", "{}", "[\"a\"]"};
    for (size_t i = 0; i < sizeof string_options / sizeof string_options[0]; i++) {
        char message[160];
        snprintf(message, sizeof message, "'%s' in %s must be a string", string_options[i].key,
                 place_names[string_options[i].place]);
        for (size_t j = 0; j < sizeof values / sizeof values[0]; j++)
            check_option(string_options[i].place, string_options[i].key, values[j], CF_ERR_ARGUMENT, message);
    }
    check_option(CLIENT, "offline_fallback", "1", CF_ERR_ARGUMENT, "'offline_fallback' in client options must be true or false");
    check_option(CLIENT, "offline_fallback", "\"true\"", CF_ERR_ARGUMENT, "'offline_fallback' in client options must be true or false");
    check_option(CLIENT, "offline_fallback", "null", CF_ERR_ARGUMENT, "'offline_fallback' in client options must be true or false");
    check_option(QUERY, "descending", "0", CF_ERR_ARGUMENT, "'descending' in the query must be true or false");
    check_option(QUERY, "where", "[\"country\"]", CF_ERR_ARGUMENT, "'where' in the query must be an object of strings");
    check_option(QUERY, "where", "{\"country\":1}", CF_ERR_ARGUMENT, "'where.country' in the query must be a string");
    check_option(QUERY, "present", "\"country\"", CF_ERR_ARGUMENT, "'present' in the query must be an array of strings");
    check_option(QUERY, "present", "[1]", CF_ERR_ARGUMENT, "'present' in the query must be an array of strings");
    check_option(SEARCH, "fields", "\"breed\"", CF_ERR_ARGUMENT, "'fields' in search options must be an array of strings");
    check_option(SEARCH, "fields", "[null]", CF_ERR_ARGUMENT, "'fields' in search options must be an array of strings");
    check_option(SEARCH, "fields", "[\"breed\\r\\n\"]", CF_ERR_ARGUMENT, "'fields' in search options names no field");
    check_option(SEARCH, "fields", "[\"country\",\"coat\"]", CF_OK, NULL);
}

/* CR and LF: refused where text reaches HTTP (D3), harmless elsewhere. */
static void strings_with_cr_lf_are_refused_where_they_reach_http(void) {
    check_option(CLIENT, "user_agent", "\"CatFacts\\r\\nX-Forged: 1\"", CF_ERR_ARGUMENT,
                 "user_agent=\"CatFacts\\r\\nX-Forged: 1\": contains a control character");
    check_option(CLIENT, "proxy", "\"http://proxy:3128\\r\\nX-Forged: 1\"", CF_ERR_ARGUMENT,
                 "contains a space or a control character");
    check_option(QUERY, "search", "\"Aby\\r\\nssinian\"", CF_OK, NULL);
    check_option(QUERY, "group_by", "\"country\\r\\n\"", CF_ERR_ARGUMENT, "'group_by' in the query names no field");
    check_option(QUERY, "sort_by", "\"\\n\"", CF_ERR_ARGUMENT, "'sort_by' in the query names no field");
    check_option(QUERY, "where", "{\"country\":\"Egypt\\r\\n\"}", CF_OK, NULL);
    /* A base URL or a breed name with CR or LF never becomes a request. */
    cf_client *c = SENTINEL;
    CHECK_FAILS(cf_client_open("http://127.0.0.1:1/\r\nX-Forged: 1", NULL, &c), CF_ERR_ARGUMENT,
                "base_url contains a control character or a space at byte 19");
    CHECK(c == NULL);
    CHECK_FAILS(cf_client_open("http://127.0.0.1:1/a b", NULL, &c), CF_ERR_ARGUMENT,
                "base_url contains a control character or a space at byte 20");
    CHECK(c == NULL);
    char *out = SENTINEL;
    CHECK_FAILS(cf_breed_find(catalog_client, "Abyssinian\r\nX-Forged: 1", &out), CF_ERR_NOT_FOUND, "Abyssinian");
    CHECK(out == NULL);
}

/* Whether cf_last_error() holds no control character: no C0 byte, no DEL, no UTF-8 C1. */
static int message_is_one_clean_line(void) {
    const unsigned char *m = (const unsigned char *)cf_last_error();
    for (size_t i = 0; m[i]; i++) {
        if (m[i] < 0x20 || m[i] == 0x7F || (m[i] == 0xC2 && m[i + 1] >= 0x80 && m[i + 1] <= 0x9F)) return 0;
    }
    return 1;
}

/* A message quoting a caller's text shows its control characters as escapes: a host that
 * logs or prints cf_last_error() gets one line, never a terminal escape sequence. */
static void messages_show_control_characters_as_escapes(void) {
    cf_client *c = SENTINEL;
    CHECK_FAILS(cf_client_open(nowhere, "\x1b[2J\anot json\r\n\xc2\x9b", &c), CF_ERR_ARGUMENT,
                "got: \\e[2J\\x07not json\\r\\n\\u{9B}");
    CHECK(c == NULL && message_is_one_clean_line());
    CHECK_FAILS(cf_client_open(nowhere, "{\"bad\\u001bkey\\u0000\":1}", &c), CF_ERR_ARGUMENT,
                "unknown key 'bad\\ekey\\x00' in client options");
    CHECK(c == NULL && message_is_one_clean_line());
    char *out = SENTINEL;
    CHECK_FAILS(cf_breed_find(catalog_client, "Aby\x1b]0;owned\a", &out), CF_ERR_NOT_FOUND, "Aby\\e]0;owned\\x07");
    CHECK(out == NULL && message_is_one_clean_line());
}

/* "aaaa...": a JSON string of `length` bytes. Yours: free(). */
static char *long_json_string(size_t length) {
    char *text = malloc(length + 3);
    text[0] = '"';
    memset(text + 1, 'a', length);
    text[length + 1] = '"';
    text[length + 2] = '\0';
    return text;
}

/* 1 MB; 64 KB under valgrind (CF_TEST_SLOWDOWN > 1), where the checks, not the size, matter. */
static size_t big_length(void) { return harness_slowdown() > 1 ? (size_t)64 << 10 : (size_t)1 << 20; }

static void megabyte_strings_are_refused_or_harmless(void) {
    size_t length = big_length();
    char *big = long_json_string(length);
    char expected[120];
    snprintf(expected, sizeof expected, "user_agent is %zu bytes long; at most 1024", length);
    check_option(CLIENT, "user_agent", big, CF_ERR_ARGUMENT, expected);
    snprintf(expected, sizeof expected, "proxy is %zu bytes long; at most 2048", length);
    check_option(CLIENT, "proxy", big, CF_ERR_ARGUMENT, expected);
    /* A path no file system takes: the cache falls back to memory, as the header says. */
    check_option(CLIENT, "cache_path", big, CF_OK, NULL);
    check_option(QUERY, "search", big, CF_OK, NULL);
    check_option(QUERY, "group_by", big, CF_ERR_ARGUMENT, "'group_by' in the query names no field: 'aaaa");
    /* Messages quote what they refuse, cut short. */
    CHECKF(strlen(cf_last_error()) < 300, "a message of %zu bytes", strlen(cf_last_error()));
    free(big);
    /* A base URL and a breed name as long. */
    size_t size = length + 32;
    char *url = malloc(size);
    strcpy(url, "http://127.0.0.1:1/");
    memset(url + strlen(url), 'a', size - strlen(url) - 1);
    url[size - 1] = '\0';
    cf_client *c = SENTINEL;
    snprintf(expected, sizeof expected, "base_url is %zu bytes long; at most 2048", strlen(url));
    CHECK_FAILS(cf_client_open(url, NULL, &c), CF_ERR_ARGUMENT, expected);
    CHECK(c == NULL);
    char *out = SENTINEL;
    CHECK_FAILS(cf_breed_find(catalog_client, url + 19, &out), CF_ERR_NOT_FOUND, "no breed");
    CHECK(out == NULL);
    free(url);
}

static void invalid_utf8_is_refused_where_it_enters(void) {
    /* 0xC3 0x28: a lead byte then no continuation; 0xFF: never in UTF-8. */
    check_option(CLIENT, "user_agent", "\"Cat\xc3\x28\"", CF_ERR_ARGUMENT, "client options: not valid UTF-8 at byte 18");
    check_option(CLIENT, "cache_path", "\"/tmp/\xff\"", CF_ERR_ARGUMENT, "client options: not valid UTF-8 at byte 20");
    check_option(LIST, "page_size", "\xff", CF_ERR_ARGUMENT, "list options: not valid UTF-8 at byte 13");
    check_option(QUERY, "search", "\"\xc3\x28\"", CF_ERR_ARGUMENT, "the query: not valid UTF-8 at byte 11");
    cf_client *c = SENTINEL;
    CHECK_FAILS(cf_client_open("http://127.0.0.1:1/\xff", NULL, &c), CF_ERR_ARGUMENT, "base_url: not valid UTF-8 at byte 19");
    CHECK(c == NULL);
    char *out = SENTINEL;
    CHECK_FAILS(cf_breed_find(catalog_client, "Aby\xc3\x28", &out), CF_ERR_ARGUMENT, "name: not valid UTF-8 at byte 3");
    CHECK(out == NULL);
}

/* ---- numbers given to calls ---- */

static void page_limit_and_lengths_outside_their_range_are_refused(void) {
    static const int64_t bad[] = {0, -1, INT64_MIN};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char *out = SENTINEL;
        CHECK_FAILS(cf_breeds_page(catalog_client, bad[i], 10, &out), CF_ERR_ARGUMENT, "page");
        CHECK_FAILS(cf_breeds_page(catalog_client, 1, bad[i], &out), CF_ERR_ARGUMENT, "limit");
        cf_breed_page *items = SENTINEL;
        CHECK_FAILS(cf_breeds_page_items(catalog_client, bad[i], 10, &items), CF_ERR_ARGUMENT, "page");
        CHECK_FAILS(cf_breeds_page_items(catalog_client, 1, bad[i], &items), CF_ERR_ARGUMENT, "limit");
        CHECK(items == NULL);
        cf_fact_page *fact_items = SENTINEL;
        CHECK_FAILS(cf_facts_page_items(catalog_client, bad[i], 10, 0, &fact_items), CF_ERR_ARGUMENT, "page");
        CHECK_FAILS(cf_facts_page_items(catalog_client, 1, bad[i], 0, &fact_items), CF_ERR_ARGUMENT, "limit");
        if (bad[i] != 0) CHECK_FAILS(cf_facts_page_items(catalog_client, 1, 10, bad[i], &fact_items), CF_ERR_ARGUMENT, "max_length");
        CHECK(fact_items == NULL);
        CHECK_FAILS(cf_facts_page(catalog_client, bad[i], 10, 0, &out), CF_ERR_ARGUMENT, "page");
        CHECK_FAILS(cf_facts_page(catalog_client, 1, bad[i], 0, &out), CF_ERR_ARGUMENT, "limit");
        CHECK(out == NULL);
        if (bad[i] == 0) continue; /* max_length 0: no limit */
        CHECK_FAILS(cf_facts_page(catalog_client, 1, 10, bad[i], &out), CF_ERR_ARGUMENT, "max_length");
        CHECK_FAILS(cf_fact_random(catalog_client, bad[i], &out), CF_ERR_ARGUMENT, "max_length");
        CHECK_FAILS(cf_list_wait((cf_list *)NULL, 0, bad[i]), CF_ERR_ARGUMENT, "the list is NULL");
        CHECK(out == NULL);
    }
    cf_list *l = NULL;
    if (CHECK_STATUS(cf_list_open(catalog_client, CF_BREEDS, NULL, &l), CF_OK) == CF_OK) {
        CHECK_FAILS(cf_list_wait(l, 0, -1), CF_ERR_ARGUMENT, "timeout_ms -1 is negative");
        CHECK_FAILS(cf_list_wait(l, 0, INT64_MIN), CF_ERR_ARGUMENT, "is negative");
        CHECK_STATUS(cf_list_wait(l, 0, INT64_MAX), CF_OK);
        static const int64_t bad_counts[] = {0, -1, INT64_MIN};
        for (size_t i = 0; i < sizeof bad_counts / sizeof bad_counts[0]; i++) {
            cf_breed_array *batch = SENTINEL;
            CHECK_FAILS(cf_list_breeds(l, 0, bad_counts[i], &batch), CF_ERR_ARGUMENT, "max_count");
            CHECK(batch == NULL);
        }
        cf_breed_array *batch = NULL;
        /* The largest max_count is the rest of the page; INT64_MIN and INT64_MAX indices are answered. */
        if (CHECK_STATUS(cf_list_breeds(l, 0, INT64_MAX, &batch), CF_OK) == CF_OK) CHECK_INT_EQ(batch->count, 25);
        cf_free(batch);
        batch = SENTINEL;
        CHECK_FAILS(cf_list_breeds(l, INT64_MAX, 1, &batch), CF_ERR_NOT_FOUND, "past the end");
        CHECK_FAILS(cf_list_breeds(l, INT64_MIN, 1, &batch), CF_ERR_NOT_FOUND, "past the end");
        CHECK(batch == NULL);
        cf_list_close(l);
    }
    if (CHECK_STATUS(cf_list_open(catalog_client, CF_FACTS, NULL, &l), CF_OK) == CF_OK) {
        CHECK_STATUS(cf_list_wait(l, 0, INT64_MAX), CF_OK);
        cf_fact_array *facts = SENTINEL;
        CHECK_FAILS(cf_list_facts(l, 0, 0, &facts), CF_ERR_ARGUMENT, "max_count 0 is less than 1");
        CHECK_FAILS(cf_list_facts(l, 0, INT64_MIN, &facts), CF_ERR_ARGUMENT, "max_count");
        CHECK_FAILS(cf_list_facts(l, INT64_MAX, 1, &facts), CF_ERR_NOT_FOUND, "past the end");
        CHECK(facts == NULL);
        if (CHECK_STATUS(cf_list_facts(l, 0, INT64_MAX, &facts), CF_OK) == CF_OK) CHECK_INT_EQ(facts->count, 25);
        cf_free(facts);
        cf_list_close(l);
    }
    static const int collections[] = {2, -1, 1000};
    for (size_t i = 0; i < sizeof collections / sizeof collections[0]; i++) {
        l = SENTINEL;
        CHECK_FAILS(cf_list_open(catalog_client, (cf_collection)collections[i], NULL, &l), CF_ERR_ARGUMENT,
                    "is neither CF_BREEDS (0) nor CF_FACTS (1)");
        CHECK(l == NULL);
    }
}

/* Numbers at the far end of int64_t: answered (the catalog has no such page), never a trap (D1). */
static void the_largest_numbers_are_answered_without_trapping(void) {
    char *out = NULL;
    if (CHECK_STATUS(cf_breeds_page(catalog_client, INT64_MAX, 10, &out), CF_OK) == CF_OK) CHECK(strstr(out, "\"items\":[]") != NULL);
    cf_free(out);
    out = NULL;
    if (CHECK_STATUS(cf_breeds_page(catalog_client, 1, INT64_MAX, &out), CF_OK) == CF_OK) CHECK(strstr(out, "Abyssinian") != NULL);
    cf_free(out);
    out = NULL;
    cf_breed_page *items = NULL;
    if (CHECK_STATUS(cf_breeds_page_items(catalog_client, INT64_MAX, INT64_MAX, &items), CF_OK) == CF_OK) {
        CHECK_INT_EQ(items->breeds.count, 0);
        CHECK_INT_EQ((long long)items->breeds.text_size, 0);
    }
    cf_free(items);
    cf_fact_page *fact_items = NULL;
    if (CHECK_STATUS(cf_facts_page_items(catalog_client, INT64_MAX, INT64_MAX, INT64_MAX, &fact_items), CF_OK) == CF_OK) {
        CHECK_INT_EQ(fact_items->facts.count, 0);
        CHECK_INT_EQ((long long)fact_items->facts.text_size, 0);
    }
    cf_free(fact_items);
    if (CHECK_STATUS(cf_facts_page(catalog_client, INT64_MAX, INT64_MAX, INT64_MAX, &out), CF_OK) == CF_OK)
        CHECK(strstr(out, "\"items\":[]") != NULL);
    cf_free(out);
    out = NULL;
    CHECK_STATUS(cf_fact_random(catalog_client, INT64_MAX, &out), CF_OK);
    cf_free(out);
    /* D1: the longest timeouts a client may have, then a request. */
    cf_client *c = NULL;
    if (CHECK_STATUS(cf_client_open(nowhere, "{\"timeout_ms\":86400000,\"connect_timeout_ms\":86400000,"
                                    "\"deadline_ms\":86400000,\"retries\":0,\"cache_ttl_ms\":31536000000}", &c), CF_OK) == CF_OK) {
        out = SENTINEL;
        CHECK_FAILS(cf_breeds_page(c, 1, 10, &out), CF_ERR_NETWORK, "127.0.0.1:1");
        CHECK(out == NULL);
        cf_client_close(c);
    }
}

/* ---- listeners calling back into the library ---- */

/* What a listener saw and did, written on a library thread and read by the test's thread. */
struct reentry {
    cf_client *client;
    cf_list *list;
    int calls;            /* listener calls */
    int calls_after_done; /* calls after it removed itself or closed its handle */
    int done;             /* it removed itself or closed its handle */
    int closing;          /* one call has taken on the closing (calls may run at once) */
    cf_event close_on;    /* list_closing: the event that closes the list */
    cf_status statuses[8];
    char message[256];    /* cf_last_error() after the last status it recorded */
};

static int load_int(const int *p) { return __atomic_load_n(p, __ATOMIC_ACQUIRE); }
static void store_int(int *p, int v) { __atomic_store_n(p, v, __ATOMIC_RELEASE); }

/* Waits (a bound only a hang reaches, not a measure) until *flag is set. */
static int await_flag(const int *flag) {
    WAIT_UNTIL(load_int(flag));
    return load_int(flag);
}

static void keep(struct reentry *r, int i, cf_status s) {
    r->statuses[i] = s;
    snprintf(r->message, sizeof r->message, "%s", cf_last_error());
}

/*
 * Metrics listener: removes itself (first: the list read below sends a request, which would
 * call it again), reads a list without blocking, reads the metrics.
 */
static void metrics_reentering(void *ctx, const char *endpoint, double ms, cf_status status) {
    (void)endpoint; (void)ms; (void)status;
    struct reentry *r = ctx;
    __atomic_fetch_add(&r->calls, 1, __ATOMIC_ACQ_REL);
    if (load_int(&r->done)) { __atomic_fetch_add(&r->calls_after_done, 1, __ATOMIC_ACQ_REL); return; }
    keep(r, 2, cf_client_set_metrics_listener(r->client, NULL, NULL));
    cf_breed *b = NULL;
    keep(r, 1, cf_list_breed(r->list, 0, &b));
    cf_breed_free(b);
    char *json = NULL;
    keep(r, 0, cf_metrics(r->client, &json)); /* last: its success clears the message */
    cf_free(json);
    store_int(&r->done, 1);
}

static void a_metrics_listener_may_call_non_blocking_functions_and_remove_itself(void) {
    char url[128];
    REQUIRE_MOCK(NULL, url);
    struct reentry r = {0};
    if (CHECK_STATUS(cf_client_open(url, NULL, &r.client), CF_OK) == CF_OK &&
        CHECK_STATUS(cf_list_open(r.client, CF_BREEDS, NULL, &r.list), CF_OK) == CF_OK) {
        CHECK_STATUS(cf_client_set_metrics_listener(r.client, metrics_reentering, &r), CF_OK);
        char *out = NULL;
        CHECK_STATUS(cf_breeds_page(r.client, 1, 10, &out), CF_OK);
        cf_free(out);
        CHECK(await_flag(&r.done));
        out = NULL;
        CHECK_STATUS(cf_breeds_page(r.client, 2, 10, &out), CF_OK); /* no listener any more */
        cf_free(out);
        CHECK_INT_EQ(r.statuses[0], CF_OK);
        CHECK(r.statuses[1] == CF_OK || r.statuses[1] == CF_PENDING);
        CHECK_INT_EQ(r.statuses[2], CF_OK);
        CHECK_STR_EQ(r.message, "");
        cf_list_close(r.list);
        cf_client_close(r.client);
        CHECK_INT_EQ(load_int(&r.calls), 1);
    }
    stop_mock();
}

/* List listener: reads the item just loaded, the count, retries, then removes itself. */
static void list_reentering(void *ctx, cf_event event, int64_t first, int64_t count) {
    (void)count;
    struct reentry *r = ctx;
    __atomic_fetch_add(&r->calls, 1, __ATOMIC_ACQ_REL);
    if (load_int(&r->done)) { __atomic_fetch_add(&r->calls_after_done, 1, __ATOMIC_ACQ_REL); return; }
    if (event != CF_EVENT_LOADED) return;
    cf_breed *b = NULL;
    keep(r, 0, cf_list_breed(r->list, first, &b));
    cf_breed_free(b);
    r->statuses[1] = cf_list_count(r->list) == 98 ? CF_OK : CF_ERR_INTERNAL;
    keep(r, 2, cf_list_retry(r->list));
    keep(r, 3, cf_list_set_listener(r->list, NULL, NULL));
    store_int(&r->done, 1);
}

static void a_list_listener_may_read_its_list_and_remove_itself(void) {
    char url[128];
    REQUIRE_MOCK(NULL, url);
    struct reentry r = {0};
    if (CHECK_STATUS(cf_client_open(url, NULL, &r.client), CF_OK) == CF_OK &&
        /* No prefetch: one load at a time, so no other load's event can race the removal. */
        CHECK_STATUS(cf_list_open(r.client, CF_BREEDS, "{\"page_size\":10,\"prefetch_distance\":0}", &r.list),
                     CF_OK) == CF_OK) {
        CHECK_STATUS(cf_list_set_listener(r.list, list_reentering, &r), CF_OK);
        CHECK_STATUS(cf_list_wait(r.list, 0, harness_hang_ms()), CF_OK);
        CHECK(await_flag(&r.done));
        CHECK_INT_EQ(r.statuses[0], CF_OK);
        CHECK_INT_EQ(r.statuses[1], CF_OK);
        CHECK_INT_EQ(r.statuses[2], CF_OK);
        CHECK_INT_EQ(r.statuses[3], CF_OK);
        CHECK_STR_EQ(r.message, "");
        CHECK_STATUS(cf_list_wait(r.list, 50, harness_hang_ms()), CF_OK);
        cf_list_close(r.list);
        CHECK_INT_EQ(load_int(&r.calls), 1); /* page 5's load came after the removal */
    }
    cf_client_close(r.client);
    stop_mock();
}

/* List listener that closes its own list on the first event. */
/*
 * List listener that closes its own list on the first `close_on` event. Listeners may run on
 * several threads at once: only one call closes (closing twice is undefined), and one that
 * starts once cf_list_close has returned counts as a broken promise.
 */
static void list_closing(void *ctx, cf_event event, int64_t first, int64_t count) {
    (void)first; (void)count;
    struct reentry *r = ctx;
    __atomic_fetch_add(&r->calls, 1, __ATOMIC_ACQ_REL);
    if (load_int(&r->done)) { __atomic_fetch_add(&r->calls_after_done, 1, __ATOMIC_ACQ_REL); return; }
    if (event != r->close_on || __atomic_exchange_n(&r->closing, 1, __ATOMIC_ACQ_REL)) return;
    cf_list_close(r->list);
    store_int(&r->done, 1);
}

static void a_list_listener_may_close_its_list(void) {
    char url[128];
    REQUIRE_MOCK(NULL, url);
    struct reentry r = {0};
    if (CHECK_STATUS(cf_client_open(url, NULL, &r.client), CF_OK) == CF_OK &&
        CHECK_STATUS(cf_list_open(r.client, CF_BREEDS, "{\"page_size\":10,\"prefetch_distance\":40}", &r.list),
                     CF_OK) == CF_OK) {
        r.close_on = CF_EVENT_LOADED;
        CHECK_STATUS(cf_list_set_listener(r.list, list_closing, &r), CF_OK);
        cf_breed *b = SENTINEL;
        CHECK_STATUS(cf_list_breed(r.list, 0, &b), CF_PENDING); /* starts 5 loads */
        CHECK(await_flag(&r.done));
        /* The other loads end cancelled or loaded; none may reach the listener now. */
        sleep_ms(200);
        CHECK_INT_EQ(load_int(&r.calls_after_done), 0);
    }
    cf_client_close(r.client);
    stop_mock();
}

/*
 * A far jump on a full list drops a page at once: the listener hears of it on the caller's
 * own thread, inside cf_list_breed, and may close the list there; the call still returns its
 * answer, and the load it started never reaches the listener.
 */
static void a_listener_told_inside_cf_list_breed_may_close_the_list(void) {
    char url[128];
    REQUIRE_MOCK(NULL, url);
    struct reentry r = {0};
    if (CHECK_STATUS(cf_client_open(url, NULL, &r.client), CF_OK) == CF_OK &&
        CHECK_STATUS(cf_list_open(r.client, CF_BREEDS, "{\"page_size\":10,\"prefetch_distance\":0,\"max_cached_items\":10}",
                                  &r.list), CF_OK) == CF_OK) {
        CHECK_STATUS(cf_list_wait(r.list, 0, harness_hang_ms()), CF_OK);
        /* Page 0's own event may still come late, on a library thread: only the drop closes. */
        r.close_on = CF_EVENT_DROPPED;
        CHECK_STATUS(cf_list_set_listener(r.list, list_closing, &r), CF_OK);
        cf_breed *b = SENTINEL;
        CHECK_STATUS(cf_list_breed(r.list, 50, &b), CF_PENDING); /* drops page 0, loads page 5 */
        CHECK(b == NULL);
        CHECK(load_int(&r.done)); /* told before cf_list_breed returned */
        sleep_ms(200);            /* page 5's load, cancelled or done, must stay silent */
        CHECK_INT_EQ(load_int(&r.calls_after_done), 0);
    }
    cf_client_close(r.client);
    stop_mock();
}

/* Metrics listener that closes its client, while the call that made the request goes on. */
static void metrics_closing(void *ctx, const char *endpoint, double ms, cf_status status) {
    (void)endpoint; (void)ms; (void)status;
    struct reentry *r = ctx;
    __atomic_fetch_add(&r->calls, 1, __ATOMIC_ACQ_REL);
    if (load_int(&r->done)) { __atomic_fetch_add(&r->calls_after_done, 1, __ATOMIC_ACQ_REL); return; }
    cf_client_close(r->client);
    store_int(&r->done, 1);
}

static void a_metrics_listener_may_close_its_client(void) {
    char url[128];
    REQUIRE_MOCK(NULL, url);
    struct reentry r = {0};
    if (CHECK_STATUS(cf_client_open(url, NULL, &r.client), CF_OK) == CF_OK) {
        CHECK_STATUS(cf_client_set_metrics_listener(r.client, metrics_closing, &r), CF_OK);
        char *out = NULL;
        /* The call under way finishes with its answer; the handle is gone after it. */
        CHECK_STATUS(cf_breeds_page(r.client, 1, 10, &out), CF_OK);
        cf_free(out);
        CHECK(await_flag(&r.done));
        CHECK_INT_EQ(load_int(&r.calls), 1);
    }
    stop_mock();
}

/* Metrics listener that interrupts its client: the call's retries stop, CF_ERR_CANCELLED. */
static void metrics_interrupting(void *ctx, const char *endpoint, double ms, cf_status status) {
    (void)endpoint; (void)ms; (void)status;
    struct reentry *r = ctx;
    __atomic_fetch_add(&r->calls, 1, __ATOMIC_ACQ_REL);
    cf_client_interrupt(r->client);
}

static void a_metrics_listener_may_interrupt_its_client(void) {
    struct reentry r = {0};
    /* So many retries that, uninterrupted, the call would outlast the test's time limit. */
    if (CHECK_STATUS(cf_client_open(nowhere, "{\"retries\":100}", &r.client), CF_OK) != CF_OK) return;
    CHECK_STATUS(cf_client_set_metrics_listener(r.client, metrics_interrupting, &r), CF_OK);
    char *out = SENTINEL;
    CHECK_FAILS(cf_breeds_page(r.client, 1, 10, &out), CF_ERR_CANCELLED, "cancelled");
    CHECK(out == NULL);
    /* Attempts go on (their backoff can be near 0 ms) until the library's watcher thread acts
     * on the interrupt, however late it runs: fewer than all 101 is what the interrupt
     * guarantees, and CF_ERR_CANCELLED, not CF_ERR_NETWORK, shows the call was cut short. */
    CHECKF(load_int(&r.calls) >= 1 && load_int(&r.calls) <= 100, "%d listener calls", load_int(&r.calls));
    cf_client_close(r.client);
}

/* Online listener: reads the metrics (which say offline), then removes itself. */
static void online_reentering(void *ctx, int online) {
    struct reentry *r = ctx;
    __atomic_fetch_add(&r->calls, 1, __ATOMIC_ACQ_REL);
    if (load_int(&r->done)) { __atomic_fetch_add(&r->calls_after_done, 1, __ATOMIC_ACQ_REL); return; }
    char *json = NULL;
    keep(r, 0, cf_metrics(r->client, &json));
    r->statuses[1] = online == 0 && json != NULL && strstr(json, "\"online\":false") != NULL ? CF_OK : CF_ERR_INTERNAL;
    cf_free(json);
    keep(r, 2, cf_client_set_online_listener(r->client, NULL, NULL));
    store_int(&r->done, 1);
}

static void an_online_listener_may_read_the_metrics_and_remove_itself(void) {
    struct reentry r = {0};
    if (CHECK_STATUS(cf_client_open(nowhere, "{\"retries\":0}", &r.client), CF_OK) != CF_OK) return;
    CHECK_STATUS(cf_client_set_online_listener(r.client, online_reentering, &r), CF_OK);
    for (int i = 0; i < 3; i++) {
        char *out = SENTINEL;
        CHECK_FAILS(cf_fact_random(r.client, 0, &out), CF_ERR_NETWORK, "127.0.0.1:1");
    }
    CHECK(await_flag(&r.done));
    CHECK_INT_EQ(r.statuses[0], CF_OK);
    CHECK_INT_EQ(r.statuses[1], CF_OK);
    CHECK_INT_EQ(r.statuses[2], CF_OK);
    cf_client_close(r.client);
    CHECK_INT_EQ(load_int(&r.calls), 1);
}

int main(void) {
    RUN(every_function_refuses_a_null_handle_naming_it);
    RUN(every_function_refuses_a_handle_of_another_kind);
    RUN(every_function_refuses_what_is_no_handle_naming_it);
    RUN(every_function_refuses_a_closed_handle_naming_it);
    RUN(every_function_names_the_kind_a_handle_is);
    RUN(every_null_out_pointer_is_named);
    if (CHECK_STATUS(cf_client_open(nowhere, "{\"offline_fallback\":true,\"retries\":0}", &catalog_client), CF_OK) == CF_OK) {
        RUN(every_integer_option_refuses_values_outside_its_range);
        RUN(every_integer_option_refuses_other_types);
        RUN(client_and_query_integers_accept_their_bounds);
        RUN(a_list_at_its_largest_options_reads_any_index_without_trapping);
        RUN(every_string_option_refuses_other_types);
        RUN(strings_with_cr_lf_are_refused_where_they_reach_http);
        RUN(messages_show_control_characters_as_escapes);
        RUN(megabyte_strings_are_refused_or_harmless);
        RUN(invalid_utf8_is_refused_where_it_enters);
        RUN(page_limit_and_lengths_outside_their_range_are_refused);
        RUN(the_largest_numbers_are_answered_without_trapping);
        cf_client_close(catalog_client);
    }
    RUN(a_metrics_listener_may_call_non_blocking_functions_and_remove_itself);
    RUN(a_list_listener_may_read_its_list_and_remove_itself);
    RUN(a_list_listener_may_close_its_list);
    RUN(a_listener_told_inside_cf_list_breed_may_close_the_list);
    RUN(a_metrics_listener_may_close_its_client);
    RUN(a_metrics_listener_may_interrupt_its_client);
    RUN(an_online_listener_may_read_the_metrics_and_remove_itself);
    RUN(options_nested_64_deep_are_read);
    RUN(options_nested_65_deep_are_refused_naming_the_depth);
    RUN(deep_nesting_is_refused_in_linear_time);
    RUN(brackets_inside_strings_do_not_count);
    RUN(list_options_and_queries_have_the_same_limit);
    RUN(a_query_key_given_twice_counts_the_first_time);
    return harness_report("misuse_test");
}
