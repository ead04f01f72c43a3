/*
 * catfacts.h from many threads at once: one client shared by 8 threads making mixed calls
 * (with every request accounted for in the metrics), one list read by several threads,
 * and clients opened, used and closed in parallel. Passing means: right answers, exact
 * request counts, thread-local error messages, and no crash.
 *
 * CF_THREAD_ITERATIONS sets the calls per thread (default 1000), e.g. lower under valgrind.
 */
#include "harness.h"

#include <pthread.h>

#define THREADS 8

static char mock_url[128];

static int iterations(void) {
    const char *text = getenv("CF_THREAD_ITERATIONS");
    int n = text ? atoi(text) : 0;
    return n > 0 ? n : 1000;
}

/* ---- one client, mixed calls ---- */

struct worker {
    pthread_t thread;
    cf_client *client;
    int index;
    long requests;   /* requests this thread's calls sent */
    long failures;   /* calls that did not do what they should */
};

static long heard_requests; /* counted by the metrics listener, atomically */
/* Set on the worker threads: the threads making calls, where no listener may run (the
 * header: listeners run on library threads; a call answers on its caller's thread when its
 * answer is ready, and must hand requests, which listeners hear of, to the library's). */
static __thread int is_caller_thread;
static long heard_on_a_caller; /* listener calls that ran on a worker thread */

static void count_request(void *ctx, const char *endpoint, double ms, cf_status s) {
    (void)ctx; (void)endpoint; (void)ms; (void)s;
    __atomic_fetch_add(&heard_requests, 1, __ATOMIC_RELAXED);
    if (is_caller_thread) __atomic_fetch_add(&heard_on_a_caller, 1, __ATOMIC_RELAXED);
}

/* Reports a failed call from a worker: the first few are printed, all are counted. */
static void worker_failed(struct worker *w, int i, const char *what, cf_status s) {
    if (w->failures++ < 5) {
        fprintf(stderr, "thread %d, call %d: %s: %s (%s)\n", w->index, i, what, cf_status_string(s), cf_last_error());
    }
}

static void *mixed_calls(void *arg) {
    struct worker *w = arg;
    cf_client *c = w->client;
    int n = iterations();
    is_caller_thread = 1;
    for (int i = 0; i < n; i++) {
        char *out = NULL;
        cf_status s;
        switch ((i + w->index) % 8) {
        case 0: /* a page no other call asks for: (page, limit) unique to this thread and call */
            s = cf_breeds_page(c, i + 1, w->index + 1, &out);
            w->requests++;
            if (s != CF_OK || out == NULL || strstr(out, "\"items\"") == NULL) worker_failed(w, i, "cf_breeds_page", s);
            break;
        case 1:
            s = cf_facts_page(c, i + 1, w->index + 1, 0, &out);
            w->requests++;
            if (s != CF_OK || out == NULL || strstr(out, "\"items\"") == NULL) worker_failed(w, i, "cf_facts_page", s);
            break;
        case 2:
            s = cf_fact_random(c, 0, &out);
            w->requests++;
            if (s != CF_OK || out == NULL || strstr(out, "\"fact\"") == NULL) worker_failed(w, i, "cf_fact_random", s);
            break;
        case 3: {
            s = cf_metrics(c, &out);
            json_t *m = s == CF_OK ? json_loads(out, 0, NULL) : NULL;
            if (m == NULL || !json_is_array(json_object_get(m, "endpoints"))) worker_failed(w, i, "cf_metrics", s);
            json_decref(m);
            break;
        }
        case 4: /* known since the start: answered from memory, no request */
            s = cf_breed_find(c, "abyssinian", &out);
            if (s != CF_OK || out == NULL || strstr(out, "\"Abyssinian\"") == NULL) {
                worker_failed(w, i, "cf_breed_find", s);
            }
            break;
        case 5: {
            const char *text = cf_status_string(CF_ERR_TIMEOUT);
            if (strncmp(text, "CF_ERR_TIMEOUT:", 15) != 0) worker_failed(w, i, "cf_status_string", CF_OK);
            break;
        }
        case 6: { /* this thread's own message, whatever the others are failing with */
            long long page = -(100000LL * (w->index + 1) + i);
            char number[32];
            snprintf(number, sizeof number, "%lld", page);
            s = cf_breeds_page(c, page, 10, &out);
            const char *message = cf_last_error();
            if (s != CF_ERR_ARGUMENT || out != NULL || strstr(message, number) == NULL) {
                worker_failed(w, i, "cf_last_error after a bad page", s);
            }
            break;
        }
        default: /* 7 */
            s = cf_metrics_prometheus(c, &out);
            if (s != CF_OK || out == NULL || strstr(out, "catfacts_") == NULL) {
                worker_failed(w, i, "cf_metrics_prometheus", s);
            }
            break;
        }
        cf_free(out);
    }
    return NULL;
}

static void shared_client_counts_every_request_from_eight_threads(void) {
    cf_client *c = NULL;
    if (CHECK_STATUS(cf_client_open(mock_url, "{\"retries\":0}", &c), CF_OK) != CF_OK) return;
    /* Learn the breed once, up front: cf_breed_find sends no request after this. */
    char *out = NULL;
    CHECK_STATUS(cf_breed_find(c, "Abyssinian", &out), CF_OK);
    cf_free(out);
    long long before = client_total_requests(c);
    CHECK(before >= 1);
    CHECK_STATUS(cf_client_set_metrics_listener(c, count_request, NULL), CF_OK);

    struct worker workers[THREADS];
    double start = now_seconds();
    for (int t = 0; t < THREADS; t++) {
        workers[t] = (struct worker){.client = c, .index = t};
        CHECK(pthread_create(&workers[t].thread, NULL, mixed_calls, &workers[t]) == 0);
    }
    long sent = 0, failures = 0;
    for (int t = 0; t < THREADS; t++) {
        pthread_join(workers[t].thread, NULL);
        sent += workers[t].requests;
        failures += workers[t].failures;
    }
    double took = now_seconds() - start;
    if (getenv("CF_TEST_VERBOSE")) {
        fprintf(stderr, "    %d x %d calls, %ld requests in %.2f s\n", THREADS, iterations(), sent, took);
    }
    CHECK_INT_EQ(failures, 0);
    long long after = client_total_requests(c);
    CHECKF(after - before == sent, "metrics count %lld requests, the threads sent %ld", after - before, sent);
    /* The listener runs on a library thread: wait for the last calls. */
    WAIT_UNTIL(__atomic_load_n(&heard_requests, __ATOMIC_RELAXED) >= sent);
    CHECK_INT_EQ(__atomic_load_n(&heard_requests, __ATOMIC_RELAXED), sent);
    CHECK_INT_EQ(__atomic_load_n(&heard_on_a_caller, __ATOMIC_RELAXED), 0);
    CHECK_INT_EQ(client_metric(c, "/breeds", "errors"), 0);
    CHECK_STATUS(cf_client_set_metrics_listener(c, NULL, NULL), CF_OK);
    cf_client_close(c);
}

/* ---- one list, several readers ---- */

struct reader {
    pthread_t thread;
    cf_list *list;
    int index;
    long failures;    /* items never read */
    long stuck_waits; /* cf_list_wait calls that ran out their timeout, a hang's bound */
};

static void *read_list(void *arg) {
    struct reader *r = arg;
    unsigned seed = 12345u + (unsigned)r->index;
    int n = iterations() / 4 + 1;
    for (int i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        int64_t index = (seed >> 8) % 98;
        cf_breed *b = NULL;
        /* Another reader may drop the page between a wait and the read: read until it sticks. */
        double deadline = now_seconds() + harness_hang_s();
        cf_status s = cf_list_breed(r->list, index, &b);
        while (s == CF_PENDING && now_seconds() < deadline) {
            int64_t timeout_ms = harness_hang_ms();
            cf_status waited = cf_list_wait(r->list, index, timeout_ms);
            if (waited == CF_PENDING && r->stuck_waits++ < 3) {
                fprintf(stderr, "reader %d: cf_list_wait(%lld) timed out (%lld ms) on a server that answers at once\n",
                        r->index, (long long)index, (long long)timeout_ms);
            }
            s = cf_list_breed(r->list, index, &b);
        }
        if (s != CF_OK || b == NULL || b->breed == NULL || b->breed[0] == '\0') {
            if (r->failures++ < 3) {
                fprintf(stderr, "reader %d: index %lld: %s (%s)\n", r->index, (long long)index, cf_status_string(s),
                        cf_last_error());
            }
        }
        cf_breed_free(b);
    }
    return NULL;
}

static void shared_list_reads_from_four_threads(void) {
    cf_client *c = NULL;
    if (CHECK_STATUS(cf_client_open(mock_url, "{\"retries\":0}", &c), CF_OK) != CF_OK) return;
    cf_list *l = NULL;
    /* Small pages and a small cache: the readers make the list load and drop all the time. */
    if (CHECK_STATUS(cf_list_open(c, CF_BREEDS, "{\"page_size\":5,\"prefetch_distance\":5,\"max_cached_items\":40}", &l),
                     CF_OK) == CF_OK) {
        struct reader readers[4];
        for (int t = 0; t < 4; t++) {
            readers[t] = (struct reader){.list = l, .index = t};
            CHECK(pthread_create(&readers[t].thread, NULL, read_list, &readers[t]) == 0);
        }
        long failures = 0, stuck = 0;
        for (int t = 0; t < 4; t++) {
            pthread_join(readers[t].thread, NULL);
            failures += readers[t].failures;
            stuck += readers[t].stuck_waits;
        }
        CHECKF(failures == 0, "%ld reads never got their breed", failures);
        CHECKF(stuck == 0, "%ld waits slept through their timeout", stuck);
        CHECK_INT_EQ(cf_list_count(l), 98);
        cf_list_close(l);
    }
    cf_client_close(c);
}

/* ---- a client per thread ---- */

struct opener { pthread_t thread; int index; long failures; };

static void *open_use_close(void *arg) {
    struct opener *o = arg;
    int n = iterations() / 50 + 1;
    for (int i = 0; i < n; i++) {
        cf_client *c = NULL;
        cf_status s = cf_client_open(mock_url, "{\"retries\":0}", &c);
        char *out = NULL;
        if (s == CF_OK) s = cf_breeds_page(c, 1, 2, &out);
        if (s == CF_OK && (out == NULL || strstr(out, "Abyssinian") == NULL)) s = CF_ERR_INTERNAL;
        cf_free(out);
        out = NULL;
        if (s == CF_OK) s = cf_metrics(c, &out);
        cf_free(out);
        cf_client_close(c);
        if (s != CF_OK && o->failures++ < 5) {
            fprintf(stderr, "opener %d, round %d: %s (%s)\n", o->index, i, cf_status_string(s), cf_last_error());
        }
    }
    return NULL;
}

static void clients_open_and_close_in_parallel(void) {
    struct opener openers[THREADS];
    for (int t = 0; t < THREADS; t++) {
        openers[t] = (struct opener){.index = t};
        CHECK(pthread_create(&openers[t].thread, NULL, open_use_close, &openers[t]) == 0);
    }
    long failures = 0;
    for (int t = 0; t < THREADS; t++) {
        pthread_join(openers[t].thread, NULL);
        failures += openers[t].failures;
    }
    CHECK_INT_EQ(failures, 0);
}

int main(void) {
    if (start_mock(NULL, mock_url) != 0) {
        CHECKF(0, "cannot start catfacts-mock");
        return harness_report("thread_test");
    }
    RUN(shared_client_counts_every_request_from_eight_threads);
    RUN(shared_list_reads_from_four_threads);
    RUN(clients_open_and_close_in_parallel);
    stop_mock();
    return harness_report("thread_test");
}
