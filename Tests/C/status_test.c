/*
 * Every status a one-shot call documents, driven at least once: the list comes from the
 * header's own "Returns:" lines (header_text.h), so a status added there without a way to
 * drive it here fails, and so does a call whose comment lost one. Each situation is real: a
 * NULL handle and a bad argument (CF_ERR_ARGUMENT), a dead port (CF_ERR_NETWORK), catfacts-mock
 * answering slowly (CF_ERR_TIMEOUT), with a 500, a 429 or a malformed body (CF_ERR_HTTP,
 * CF_ERR_RATE_LIMITED, CF_ERR_DECODE), a breed it does not have (CF_ERR_NOT_FOUND), a client
 * gone offline (CF_ERR_OFFLINE), cf_client_interrupt from another thread (CF_ERR_CANCELLED).
 * Every failure leaves its out-pointer NULL and a message; every success hands out a block.
 * Then the "Errors" rule of the header: which calls leave the message and its fields be.
 */
#define _DEFAULT_SOURCE
#include "harness.h"
#include "header_text.h"

#include <pthread.h>

/* The one-shot calls this test drives, as the header names them. */
typedef enum {
    BREEDS_PAGE, FACTS_PAGE, FACT_RANDOM, BREED_FIND, BREEDS_QUERY, BREEDS_PAGE_ITEMS, FACTS_PAGE_ITEMS,
    METRICS, METRICS_PROMETHEUS, METRICS_ENDPOINTS, CALL_COUNT
} one_shot;
static const char *const call_names[CALL_COUNT] = {
    "cf_breeds_page", "cf_facts_page", "cf_fact_random", "cf_breed_find", "cf_breeds_query",
    "cf_breeds_page_items", "cf_facts_page_items", "cf_metrics", "cf_metrics_prometheus", "cf_metrics_endpoints"};

/* The statuses each call documents (a bit per value), read from the header. */
static unsigned documented[CALL_COUNT];
/* The statuses each call was driven to and returned. */
static unsigned driven[CALL_COUNT];

/* How a call's arguments are chosen: all good; one bad (page 0, an empty name, JSON that is
   not an object, a NULL out); or a breed the catalog does not have. */
typedef enum { ARGUMENTS_GOOD, ARGUMENTS_BAD, ARGUMENTS_UNKNOWN_BREED } arguments;

/* Not NULL, never a real hand-out: what a failing call must reset to NULL (aligned for every
   type of hand-out it stands in for). */
static union { cf_breed_page breeds; cf_fact_page facts; cf_endpoint_stats_array endpoints; } sentinel_target;
#define SENTINEL ((void *)&sentinel_target)

/* The out-pointer after a call: NULL, the sentinel (untouched) or a hand-out (then freed). */
static void settle_out(one_shot f, cf_status status, void *left) {
    if (status == CF_OK) {
        CHECKF(left != NULL && left != SENTINEL, "%s succeeded without handing anything out", call_names[f]);
        if (left != SENTINEL) cf_free(left);
    } else {
        CHECKF(left == NULL, "%s failed with %s and left its out-pointer %s", call_names[f],
               cf_status_string(status), left == SENTINEL ? "untouched" : "set");
    }
}

/* Calls f on c with the arguments asked for; checks the message and the out-pointer, and
   returns the status. */
static cf_status call(one_shot f, cf_client *c, arguments args) {
    int bad = args == ARGUMENTS_BAD;
    int64_t page = bad ? 0 : 1;
    cf_status status = CF_ERR_INTERNAL;
    void *left = SENTINEL;
    switch (f) {
    case BREEDS_PAGE: { char *o = SENTINEL; status = cf_breeds_page(c, page, 5, &o); left = o; break; }
    case FACTS_PAGE: { char *o = SENTINEL; status = cf_facts_page(c, page, 5, 0, &o); left = o; break; }
    case FACT_RANDOM: { char *o = SENTINEL; status = cf_fact_random(c, bad ? -1 : 0, &o); left = o; break; }
    case BREED_FIND: {
        char *o = SENTINEL;
        status = cf_breed_find(c, bad ? "" : args == ARGUMENTS_UNKNOWN_BREED ? "No Such Cat" : "Abyssinian", &o);
        left = o;
        break;
    }
    case BREEDS_QUERY: { char *o = SENTINEL; status = cf_breeds_query(c, bad ? "[1]" : "{\"limit\":3}", &o); left = o; break; }
    case BREEDS_PAGE_ITEMS: { cf_breed_page *o = SENTINEL; status = cf_breeds_page_items(c, page, 5, &o); left = o; break; }
    case FACTS_PAGE_ITEMS: { cf_fact_page *o = SENTINEL; status = cf_facts_page_items(c, page, 5, 0, &o); left = o; break; }
    /* The metrics calls have one argument to get wrong: the out-pointer. */
    case METRICS: { char *o = SENTINEL; status = cf_metrics(c, bad ? NULL : &o); left = bad ? NULL : o; break; }
    case METRICS_PROMETHEUS: { char *o = SENTINEL; status = cf_metrics_prometheus(c, bad ? NULL : &o); left = bad ? NULL : o; break; }
    case METRICS_ENDPOINTS: {
        cf_endpoint_stats_array *o = SENTINEL;
        status = cf_metrics_endpoints(c, bad ? NULL : &o);
        left = bad ? NULL : o;
        break;
    }
    case CALL_COUNT: break;
    }
    /* The message first: cf_free below leaves it be (the header's "Errors"), but read it as a
       careful caller does. */
    const char *message = cf_last_error();
    if (status == CF_OK) CHECKF(message[0] == '\0', "%s succeeded but cf_last_error() is \"%s\"", call_names[f], message);
    else CHECKF(message[0] != '\0', "%s failed with %s and no message", call_names[f], cf_status_string(status));
    settle_out(f, status, left);
    return status;
}

/* One situation that makes the calls return `status`: the mock's flags (NULL: a dead port),
   the client's options, and what else it takes. */
typedef struct {
    cf_status status;
    const char *mock_flags;
    const char *options;
    arguments args;
    int go_offline;  /* fail three calls first, so the client is offline */
    int interrupt;   /* interrupt the client from another thread while the call runs */
    int slow;        /* the mock answers after 5 s: kill it rather than wait for its answers */
} situation;

#define PLAIN_OPTIONS "{\"retries\":0,\"read_ahead\":0}"
static const situation situations[] = {
    {CF_OK, "", PLAIN_OPTIONS, ARGUMENTS_GOOD, 0, 0, 0},
    /* A NULL client is the other CF_ERR_ARGUMENT, driven in every_call_refuses_a_null_client. */
    {CF_ERR_ARGUMENT, NULL, PLAIN_OPTIONS, ARGUMENTS_BAD, 0, 0, 0},
    {CF_ERR_NETWORK, NULL, PLAIN_OPTIONS, ARGUMENTS_GOOD, 0, 0, 0},
    {CF_ERR_TIMEOUT, "--latency-ms 5000", "{\"retries\":0,\"read_ahead\":0,\"timeout_ms\":100}", ARGUMENTS_GOOD, 0, 0, 1},
    {CF_ERR_HTTP, "--faults 500 --fail-rate 1", PLAIN_OPTIONS, ARGUMENTS_GOOD, 0, 0, 0},
    {CF_ERR_RATE_LIMITED, "--faults 429 --fail-rate 1", PLAIN_OPTIONS, ARGUMENTS_GOOD, 0, 0, 0},
    {CF_ERR_DECODE, "--faults malformed --fail-rate 1", PLAIN_OPTIONS, ARGUMENTS_GOOD, 0, 0, 0},
    {CF_ERR_NOT_FOUND, "", PLAIN_OPTIONS, ARGUMENTS_UNKNOWN_BREED, 0, 0, 0},
    {CF_ERR_OFFLINE, NULL, PLAIN_OPTIONS, ARGUMENTS_GOOD, 1, 0, 0},
    {CF_ERR_CANCELLED, "--latency-ms 5000", "{\"retries\":0,\"read_ahead\":0,\"timeout_ms\":60000}", ARGUMENTS_GOOD, 0, 1, 1},
};
#define SITUATION_COUNT (sizeof situations / sizeof situations[0])

/* Whether c's metrics say it is offline. */
static int is_offline(cf_client *c) {
    char *text = NULL;
    if (cf_metrics(c, &text) != CF_OK) return 0;
    json_t *metrics = json_loads(text, 0, NULL);
    cf_free(text);
    int offline = json_is_false(json_object_get(metrics, "online"));
    json_decref(metrics);
    return offline;
}

/* Interrupts a client every 5 ms until told to stop: however late the call starts, an
   interrupt comes while it is in progress (an earlier one may cancel it too: the header). */
typedef struct {
    cf_client *client;
    int stop;
} interrupter;

static void *interrupt_until_stopped(void *arg) {
    interrupter *i = arg;
    while (!__atomic_load_n(&i->stop, __ATOMIC_ACQUIRE)) {
        cf_client_interrupt(i->client);
        /* Safe on a slow machine: only the pace of the interrupts, not a wait for an event;
           the loop runs until the driven call has returned, whenever that is. */
        sleep_ms(5);
    }
    return NULL;
}

/* f in situation s, on a client of its own (offline and interrupted states stay with a client). */
static void drive(const situation *s, const char *url, one_shot f) {
    cf_client *c = NULL;
    if (CHECK_STATUS(cf_client_open(url, s->options, &c), CF_OK) != CF_OK) return;
    if (s->go_offline) {
        char *out = NULL;
        for (int i = 0; i < 3; i++) CHECK_STATUS(cf_fact_random(c, 0, &out), CF_ERR_NETWORK);
        WAIT_UNTIL(is_offline(c));
        CHECKF(is_offline(c), "the client is not offline after three calls in a row got no response");
    }
    interrupter i = {.client = c};
    pthread_t thread;
    int interrupting = s->interrupt && pthread_create(&thread, NULL, interrupt_until_stopped, &i) == 0;
    CHECKF(interrupting == s->interrupt, "cannot start the interrupting thread");
    cf_status status = call(f, c, s->args);
    if (interrupting) {
        __atomic_store_n(&i.stop, 1, __ATOMIC_RELEASE);
        pthread_join(thread, NULL);
    }
    CHECKF(status == s->status, "%s returned %s, expected %s", call_names[f], cf_status_string(status),
           cf_status_string(s->status));
    if (status == s->status) driven[f] |= 1u << s->status;
    cf_client_close(c);
}

static void read_the_documented_statuses(void) {
    char *text = header_read();
    if (text == NULL) return;
    const char *cursor = text, *latest_comment = NULL;
    header_function f;
    while (header_next_function(&cursor, &latest_comment, &f)) {
        for (int i = 0; i < CALL_COUNT; i++) {
            if (strcmp(f.name, call_names[i]) != 0) continue;
            char unknown[64] = "";
            CHECKF(header_documented_statuses(&f, &documented[i], unknown) == 1, "%s: no \"Returns:\" with only statuses (%s)",
                   f.name, unknown);
        }
    }
    for (int i = 0; i < CALL_COUNT; i++) {
        CHECKF(documented[i] & (1u << CF_OK), "%s: the header documents no CF_OK (is it still declared?)", call_names[i]);
    }
    free(text);
}

/* For each situation, every call whose "Returns:" names its status. */
static void every_documented_status_is_driven(void) {
    for (size_t k = 0; k < SITUATION_COUNT; k++) {
        const situation *s = &situations[k];
        char url[128];
        if (s->mock_flags == NULL) {
            closed_port_url(url);
        } else if (start_mock(s->mock_flags, url) != 0) {
            CHECKF(0, "cannot start catfacts-mock %s", s->mock_flags);
            continue;
        }
        for (int f = 0; f < CALL_COUNT; f++) {
            if (documented[f] & (1u << s->status)) drive(s, url, (one_shot)f);
        }
        if (s->mock_flags != NULL) {
            if (s->slow) kill_mock();
            else stop_mock();
        }
    }
    /* What the header documents and nothing here drives fails: a status with no situation. */
    for (int f = 0; f < CALL_COUNT; f++) {
        unsigned missing = documented[f] & ~driven[f];
        for (int status = 0; status < HEADER_STATUS_COUNT; status++) {
            CHECKF(!(missing & (1u << status)), "%s documents %s, which this test did not drive", call_names[f],
                   header_status_names[status]);
        }
    }
}

/* The other CF_ERR_ARGUMENT: a NULL handle, for every call, with out NULL and a message
   naming the client. */
static void every_call_refuses_a_null_client(void) {
    for (int f = 0; f < CALL_COUNT; f++) {
        cf_status status = call((one_shot)f, NULL, ARGUMENTS_GOOD);
        CHECKF(status == CF_ERR_ARGUMENT, "%s(NULL, ...) returned %s", call_names[f], cf_status_string(status));
    }
}

/* The header's "Errors": after a failure, the getters, the frees, cf_version,
   cf_status_string, cf_client_interrupt and the closes leave the message and its fields be,
   in any order; the next call that returns a status (or cf_list_count) replaces them. */
static void only_calls_that_return_a_status_replace_the_last_error(void) {
    char url[128];
    REQUIRE_MOCK("--faults 500 --fail-rate 1", url);
    cf_client *c = NULL, *other = NULL;
    if (CHECK_STATUS(cf_client_open(url, PLAIN_OPTIONS, &c), CF_OK) == CF_OK
        && CHECK_STATUS(cf_client_open(url, NULL, &other), CF_OK) == CF_OK) {
        char *out = NULL;
        CHECK_STATUS(cf_breeds_page(c, 1, 5, &out), CF_ERR_HTTP);
        const char *message = cf_last_error();
        char copy[512];
        snprintf(copy, sizeof copy, "%s", message);
        CHECK(strstr(copy, "500") != NULL);
        /* Fields first, then the message, then the fields again, with frees and closes between. */
        CHECK_INT_EQ(cf_last_error_http_status(), 500);
        CHECK_INT_EQ(cf_last_error_attempts(), 1);
        CHECK_INT_EQ(cf_last_error_retry_after_ms(), -1);
        cf_free(NULL);
        cf_breed_free(NULL);
        cf_fact_free(NULL);
        CHECK(cf_version()[0] != '\0' && cf_status_string(CF_ERR_HTTP)[0] != '\0');
        cf_client_interrupt(other);
        cf_client_close(other);
        cf_list_close(NULL);
        cf_search_close(NULL);
        CHECK(cf_last_error() == message);
        CHECK_STR_EQ(cf_last_error(), copy);
        CHECK_INT_EQ(cf_last_error_http_status(), 500);
        CHECK_INT_EQ(cf_last_error_attempts(), 1);
        /* A call that returns a status replaces them: here a success clears them. */
        char *metrics = NULL;
        CHECK_STATUS(cf_metrics(c, &metrics), CF_OK);
        cf_free(metrics);
        CHECK_STR_EQ(cf_last_error(), "");
        CHECK_INT_EQ(cf_last_error_http_status(), 0);
        CHECK_INT_EQ(cf_last_error_attempts(), 0);
        CHECK_INT_EQ(cf_last_error_retry_after_ms(), -1);
        /* cf_list_count sets them too. */
        CHECK_INT_EQ(cf_list_count(NULL), CF_COUNT_INVALID);
        CHECK(cf_last_error()[0] != '\0');
    }
    cf_client_close(c);
    stop_mock();
}

int main(void) {
    RUN(read_the_documented_statuses);
    RUN(every_documented_status_is_driven);
    RUN(every_call_refuses_a_null_client);
    RUN(only_calls_that_return_a_status_replace_the_last_error);
    return harness_report("status_test");
}
