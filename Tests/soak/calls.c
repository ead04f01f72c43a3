/*
 * calls.c - the soak's calls, one function per kind (see calls.h). Each makes its call,
 * counts the status (tally_call) and checks what a successful answer must hold; a failed
 * one-shot call must also carry error fields that match its status.
 */
#define _POSIX_C_SOURCE 200809L
#include "calls.h"
#include "tally.h"

#include <jansson.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

/* The longest a worker waits for a list item or a search answer before it counts a hang:
 * far beyond any call's deadline, so only a hang reaches it. */
#define HANG_MS 120000
/* Longest list wait a worker asks for: long enough for a page under faults, short enough
 * that some waits end CF_PENDING. */
#define LIST_WAIT_MS 3000
/* Indices drawn for list reads: past the catalogs' ends too (2000 breeds, 5000 facts). */
#define LIST_SPAN 5200

uint64_t soak_random(uint64_t *state, uint64_t bound) {
    uint64_t x = *state;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *state = x;
    return bound == 0 ? 0 : (x * 0x2545F4914F6CDD1DULL) % bound;
}

void soak_list_listener(void *ctx, cf_event event, int64_t first, int64_t count) {
    (void)ctx; (void)event; (void)first; (void)count;
    tally_listener("list");
}

/* ---- checks shared by the calls ---- */

static int is_source(const char *source) {
    return source != NULL && (strcmp(source, "network") == 0 || strcmp(source, "cache") == 0 ||
                              strcmp(source, "offline-catalog") == 0);
}

/* A failed blocking call's error fields agree with its status: the HTTP status for
 * CF_ERR_HTTP and CF_ERR_RATE_LIMITED (429), none for failures without a response. */
static void check_fields(soak_kind kind, cf_status s) {
    int32_t http = cf_last_error_http_status();
    char what[128];
    int ok = 1;
    switch (s) {
    case CF_ERR_RATE_LIMITED: ok = http == 429; break;
    case CF_ERR_HTTP: ok = http >= 400 && http <= 599; break;
    case CF_ERR_NETWORK: case CF_ERR_DECODE: case CF_ERR_OFFLINE: ok = http == 0; break;
    default: break;
    }
    if (!ok) {
        snprintf(what, sizeof what, "%s with cf_last_error_http_status() %d", tally_status_name(s), (int)http);
        tally_wrong(kind, what);
    }
}

/* Keeps a breed name seen in an answer, for cf_breed_find (the oldest is replaced). */
static void remember_name(struct soak_worker *w, const char *name) {
    if (name == NULL || name[0] == '\0') return;
    int slot = w->name_count < SOAK_NAMES ? w->name_count++ : (int)soak_random(&w->random, SOAK_NAMES);
    free(w->names[slot]);
    w->names[slot] = strdup(name);
}

/* A page's JSON: the page asked for, at most limit items, each breed named or each fact
 * with its text and a length within max_length. */
static void check_page_json(struct soak_worker *w, const char *json, int breeds, int64_t page,
                            int64_t limit, int64_t max_length) {
    json_t *root = json_loads(json, 0, NULL);
    json_t *items = json_object_get(root, "items");
    if (root == NULL || !json_is_array(items)) {
        tally_wrong(SOAK_PAGE_JSON, "a page that is not JSON with \"items\"");
    } else if (json_integer_value(json_object_get(root, "page")) != page || (int64_t)json_array_size(items) > limit ||
               !is_source(json_string_value(json_object_get(root, "source")))) {
        tally_wrong(SOAK_PAGE_JSON, "a page with another number, more items than its limit, or no source");
    } else {
        size_t i;
        json_t *item;
        json_array_foreach(items, i, item) {
            if (breeds) {
                const char *name = json_string_value(json_object_get(item, "breed"));
                if (name == NULL) tally_wrong(SOAK_PAGE_JSON, "a breed without a name");
                else if (i == 0) remember_name(w, name);
            } else {
                json_int_t length = json_integer_value(json_object_get(item, "length"));
                if (json_string_value(json_object_get(item, "fact")) == NULL || length < 1 ||
                    (max_length > 0 && length > max_length)) {
                    tally_wrong(SOAK_PAGE_JSON, "a fact without text or longer than max_length");
                }
            }
        }
    }
    json_decref(root);
}

/* ---- one function per kind ---- */

static void page_json(struct soak_worker *w) {
    int breeds = soak_random(&w->random, 2) == 0;
    int64_t limits[] = {5, 25, 100};
    int64_t limit = limits[soak_random(&w->random, 3)];
    int64_t page = 1 + (int64_t)soak_random(&w->random, 60);
    int64_t max_length = soak_random(&w->random, 3) == 0 ? 150 : 0;
    char *json = NULL;
    cf_client *c = w->shared->client;
    cf_status s = breeds ? cf_breeds_page(c, page, limit, &json) : cf_facts_page(c, page, limit, max_length, &json);
    tally_call(SOAK_PAGE_JSON, s);
    if (s == CF_OK) check_page_json(w, json, breeds, page, limit, breeds ? 0 : max_length);
    else check_fields(SOAK_PAGE_JSON, s);
    cf_free(json);
}

static void page_items(struct soak_worker *w) {
    int64_t limit = 1 + (int64_t)soak_random(&w->random, 100);
    int64_t page = 1 + (int64_t)soak_random(&w->random, 2000 / limit + 2);
    cf_breed_page *p = NULL;
    cf_status s = cf_breeds_page_items(w->shared->client, page, limit, &p);
    tally_call(SOAK_PAGE_ITEMS, s);
    if (s != CF_OK) {
        check_fields(SOAK_PAGE_ITEMS, s);
        return;
    }
    if (p->page != page || p->breeds.count < 0 || p->breeds.count > limit || !is_source(p->source)) {
        tally_wrong(SOAK_PAGE_ITEMS, "a block with another page, more breeds than its limit, or no source");
    }
    for (int64_t i = 0; i < p->breeds.count; i++) {
        if (p->breeds.items[i].breed == NULL) tally_wrong(SOAK_PAGE_ITEMS, "a breed without a name");
    }
    cf_free(p);
}

static void fact(struct soak_worker *w) {
    int64_t max_length = soak_random(&w->random, 2) == 0 ? 0 : 200;
    char *json = NULL;
    cf_status s = cf_fact_random(w->shared->client, max_length, &json);
    tally_call(SOAK_FACT, s);
    if (s != CF_OK) {
        check_fields(SOAK_FACT, s);
        return;
    }
    json_t *root = json_loads(json, 0, NULL);
    json_int_t length = json_integer_value(json_object_get(root, "length"));
    if (json_string_value(json_object_get(root, "fact")) == NULL || length < 1 || (max_length > 0 && length > max_length)) {
        tally_wrong(SOAK_FACT, "a fact without text or longer than max_length");
    }
    json_decref(root);
    cf_free(json);
}

static void breed_find(struct soak_worker *w) {
    /* One call in four asks for a name no catalog has: that must be CF_ERR_NOT_FOUND. */
    int known = w->name_count > 0 && soak_random(&w->random, 4) != 0;
    const char *name = known ? w->names[soak_random(&w->random, (uint64_t)w->name_count)] : "No Such Soak Breed";
    char *json = NULL;
    cf_status s = cf_breed_find(w->shared->client, name, &json);
    tally_call(SOAK_BREED_FIND, s);
    if (s == CF_OK) {
        json_t *root = json_loads(json, 0, NULL);
        const char *found = json_string_value(json_object_get(root, "breed"));
        if (!known || found == NULL || strcasecmp(found, name) != 0) tally_wrong(SOAK_BREED_FIND, "another breed than the one named");
        json_decref(root);
    } else if (s == CF_ERR_NOT_FOUND) {
        if (known) tally_wrong(SOAK_BREED_FIND, "CF_ERR_NOT_FOUND for a name a page held");
    } else {
        check_fields(SOAK_BREED_FIND, s);
    }
    cf_free(json);
}

static void query(struct soak_worker *w) {
    static const char *const queries[] = {
        "{\"search\":\"a\"}",
        "{\"group_by\":\"country\"}",
        "{\"sort_by\":\"coat\",\"descending\":true,\"limit\":50}",
        "{\"where\":{\"coat\":\"Short\"},\"limit\":20}",
        "{\"present\":[\"pattern\"],\"sort_by\":\"origin\"}",
    };
    int which = (int)soak_random(&w->random, sizeof queries / sizeof queries[0]);
    char *json = NULL;
    cf_status s = cf_breeds_query(w->shared->client, queries[which], &json);
    tally_call(SOAK_QUERY, s);
    if (s != CF_OK) {
        check_fields(SOAK_QUERY, s);
        return;
    }
    json_t *root = json_loads(json, 0, NULL);
    json_t *answer = json_object_get(root, which == 1 ? "groups" : "items");
    if (!json_is_array(answer) || (which == 2 && json_array_size(answer) > 50) ||
        (which == 3 && json_array_size(answer) > 20)) {
        tally_wrong(SOAK_QUERY, "an answer without its array, or longer than its limit");
    }
    json_decref(root);
    cf_free(json);
}

/* One of the shared lists, and whether it holds breeds. */
static cf_list *shared_list(struct soak_worker *w, int *breeds) {
    *breeds = soak_random(&w->random, 2) == 0;
    return *breeds ? w->shared->breeds : w->shared->facts;
}

/* CF_ERR_NOT_FOUND is right only at or past the end: never below a count already known. */
static void check_not_found(soak_kind kind, cf_list *l, int64_t index) {
    int64_t count = cf_list_count(l);
    if (count >= 0 && index < count) tally_wrong(kind, "CF_ERR_NOT_FOUND inside the list");
}

/* A failed page is loaded again only after cf_list_retry: a reader that saw the failure asks. */
static void retry_if_failed(cf_list *l, cf_status s) {
    if (s == CF_OK || s == CF_PENDING || s == CF_ERR_NOT_FOUND || s == CF_ERR_CANCELLED) return;
    tally_call(SOAK_LIST_RETRY, cf_list_retry(l));
}

static void list_item(struct soak_worker *w) {
    int breeds;
    cf_list *l = shared_list(w, &breeds);
    int64_t index = (int64_t)soak_random(&w->random, LIST_SPAN);
    cf_status s;
    if (breeds) {
        cf_breed *b = NULL;
        s = cf_list_breed(l, index, &b);
        tally_call(SOAK_LIST_ITEM, s);
        if (s == CF_OK && b->breed == NULL) tally_wrong(SOAK_LIST_ITEM, "a breed without a name");
        cf_breed_free(b);
    } else {
        cf_fact *f = NULL;
        s = cf_list_fact(l, index, &f);
        tally_call(SOAK_LIST_ITEM, s);
        if (s == CF_OK && (f->fact == NULL || f->length < 1)) tally_wrong(SOAK_LIST_ITEM, "a fact without text");
        cf_fact_free(f);
    }
    if (s == CF_ERR_NOT_FOUND) check_not_found(SOAK_LIST_ITEM, l, index);
    retry_if_failed(l, s);
}

static void list_batch(struct soak_worker *w) {
    int breeds;
    cf_list *l = shared_list(w, &breeds);
    int64_t index = (int64_t)soak_random(&w->random, LIST_SPAN);
    int64_t max_count = 1 + (int64_t)soak_random(&w->random, 50);
    int64_t count = 0;
    cf_status s;
    if (breeds) {
        cf_breed_array *a = NULL;
        s = cf_list_breeds(l, index, max_count, &a);
        if (s == CF_OK) {
            count = a->count;
            for (int64_t i = 0; i < a->count; i++) {
                if (a->items[i].breed == NULL) tally_wrong(SOAK_LIST_BATCH, "a breed without a name");
            }
        }
        cf_free(a);
    } else {
        cf_fact_array *a = NULL;
        s = cf_list_facts(l, index, max_count, &a);
        if (s == CF_OK) count = a->count;
        cf_free(a);
    }
    tally_call(SOAK_LIST_BATCH, s);
    if (s == CF_OK && (count < 1 || count > max_count)) tally_wrong(SOAK_LIST_BATCH, "a batch of 0 items or more than asked");
    if (s == CF_ERR_NOT_FOUND) check_not_found(SOAK_LIST_BATCH, l, index);
    retry_if_failed(l, s);
}

static void list_wait(struct soak_worker *w) {
    int breeds;
    cf_list *l = shared_list(w, &breeds);
    int64_t index = (int64_t)soak_random(&w->random, LIST_SPAN);
    cf_status s = cf_list_wait(l, index, LIST_WAIT_MS);
    tally_call(SOAK_LIST_WAIT, s);
    if (s == CF_ERR_NOT_FOUND) check_not_found(SOAK_LIST_WAIT, l, index);
    retry_if_failed(l, s);
}

/* A list of its own: opened, waited on (or not: then closed while its first page loads). */
static void list_open(struct soak_worker *w) {
    int breeds = soak_random(&w->random, 2) == 0;
    char options[96];
    snprintf(options, sizeof options, "{\"page_size\":%d,\"max_cached_items\":300}", 5 + (int)soak_random(&w->random, 46));
    cf_list *l = NULL;
    cf_status s = cf_list_open(w->shared->client, breeds ? CF_BREEDS : CF_FACTS, options, &l);
    tally_call(SOAK_LIST_OPEN, s);
    if (s != CF_OK) return;
    cf_list_set_listener(l, soak_list_listener, NULL);
    int64_t index = (int64_t)soak_random(&w->random, 300);
    if (soak_random(&w->random, 4) == 0) {
        cf_breed *b = NULL;
        cf_fact *f = NULL;
        /* The access starts the load; the close cancels it. */
        s = breeds ? cf_list_breed(l, index, &b) : cf_list_fact(l, index, &f);
        tally_call(SOAK_LIST_ITEM, s);
        cf_breed_free(b);
        cf_fact_free(f);
    } else {
        s = cf_list_wait(l, index, HANG_MS);
        tally_call(SOAK_LIST_WAIT, s);
        if (s == CF_PENDING) tally_wrong(SOAK_LIST_WAIT, "an item of a new list not loaded within the hang bound");
    }
    cf_list_close(l);
}

/* ---- search sessions ---- */

/* What a session's listener heard, guarded by its mutex. */
struct search_answers {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int64_t generation;   /* the latest generation heard */
    cf_status status;
    int out_of_order;     /* an answer came for a generation older than one already heard */
    int unreadable;       /* an OK answer without its items, or for another text */
    char text[8];         /* the whole burst: generation g sets its first g characters */
};

static void heard_search(void *ctx, int64_t generation, cf_status s, const char *results_json) {
    struct search_answers *a = ctx;
    tally_listener("search");
    json_t *root = json_loads(results_json, 0, NULL);
    pthread_mutex_lock(&a->lock);
    if (generation <= a->generation) a->out_of_order = 1;
    const char *text = json_string_value(json_object_get(root, "text"));
    if (s == CF_OK && (!json_is_array(json_object_get(root, "items")) || text == NULL ||
                       (int64_t)strlen(text) != generation || strncmp(text, a->text, strlen(text)) != 0)) {
        a->unreadable = 1;
    }
    a->generation = generation;
    a->status = s;
    pthread_cond_broadcast(&a->changed);
    pthread_mutex_unlock(&a->lock);
    json_decref(root);
}

static void search(struct soak_worker *w) {
    struct search_answers a = {.generation = 0, .status = CF_OK};
    /* A burst of typing: each key a prefix of the next, set while earlier ones settle. */
    int keys = 1 + (int)soak_random(&w->random, 4);
    for (int k = 0; k < keys; k++) a.text[k] = (char)('a' + soak_random(&w->random, 26));
    pthread_mutex_init(&a.lock, NULL);
    pthread_cond_init(&a.changed, NULL);
    char options[64];
    snprintf(options, sizeof options, "{\"debounce_ms\":%d,\"limit\":10}", (int)soak_random(&w->random, 40));
    cf_search *session = NULL;
    cf_status s = cf_search_open(w->shared->client, options, heard_search, &a, &session);
    if (s != CF_OK) {
        tally_call(SOAK_SEARCH, s);
    } else {
        char text[sizeof a.text] = "";
        for (int k = 0; k < keys; k++) {
            text[k] = a.text[k];
            if (cf_search_set(session, text) != CF_OK) tally_wrong(SOAK_SEARCH, "cf_search_set failed");
        }
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_sec += HANG_MS / 1000;
        pthread_mutex_lock(&a.lock);
        int waited = 0;
        while (a.generation < keys && waited == 0) waited = pthread_cond_timedwait(&a.changed, &a.lock, &until);
        int answered = a.generation == keys;
        cf_status answer = a.status;
        pthread_mutex_unlock(&a.lock);
        /* Closing never waits for the network, and no answer comes after it returns. */
        cf_search_close(session);
        if (!answered) {
            tally_wrong(SOAK_SEARCH, "no answer to the last text within the hang bound");
        } else {
            /* The status the listener heard, counted as the call's (cf_last_error is this
             * thread's, not the listener's: no deadline split for searches). */
            tally_call(SOAK_SEARCH, answer);
        }
        if (a.out_of_order) tally_wrong(SOAK_SEARCH, "an answer to an older text after a newer one");
        if (a.unreadable) tally_wrong(SOAK_SEARCH, "an answer without its items or text");
    }
    pthread_cond_destroy(&a.changed);
    pthread_mutex_destroy(&a.lock);
}

/* ---- metrics ---- */

static void metrics(struct soak_worker *w) {
    char *json = NULL;
    cf_status s = cf_metrics(w->shared->client, &json);
    tally_call(SOAK_METRICS, s);
    if (s != CF_OK) return;
    json_t *root = json_loads(json, 0, NULL);
    if (!json_is_array(json_object_get(root, "endpoints")) || !json_is_object(json_object_get(root, "memory")) ||
        !json_is_boolean(json_object_get(root, "online"))) {
        tally_wrong(SOAK_METRICS, "metrics without endpoints, memory or online");
    }
    json_decref(root);
    cf_free(json);
}

static void prometheus(struct soak_worker *w) {
    char *text = NULL;
    cf_status s = cf_metrics_prometheus(w->shared->client, &text);
    tally_call(SOAK_PROMETHEUS, s);
    if (s != CF_OK) return;
    size_t length = strlen(text);
    if (length == 0 || text[length - 1] != '\n' || strstr(text, "catfacts_resident_memory_bytes") == NULL) {
        tally_wrong(SOAK_PROMETHEUS, "exposition text without the memory gauge or its final newline");
    }
    cf_free(text);
}

/* ---- drawing a kind ---- */

/* Each kind with its weight: how often it is drawn, out of the sum. */
static const struct {
    void (*call)(struct soak_worker *);
    unsigned weight;
} kinds[] = {
    {page_json, 16}, {page_items, 10}, {fact, 8},      {breed_find, 6}, {query, 6},
    {list_item, 16}, {list_batch, 10}, {list_wait, 8}, {list_open, 4},  {search, 5},
    {metrics, 5},    {prometheus, 3},
};

void soak_call(struct soak_worker *w) {
    unsigned total = 0;
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) total += kinds[i].weight;
    unsigned draw = (unsigned)soak_random(&w->random, total);
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
        if (draw < kinds[i].weight) {
            kinds[i].call(w);
            return;
        }
        draw -= kinds[i].weight;
    }
}

void soak_worker_free(struct soak_worker *w) {
    for (int i = 0; i < w->name_count; i++) free(w->names[i]);
    w->name_count = 0;
}
