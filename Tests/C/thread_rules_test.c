/*
 * The thread rules of catfacts.h ("Threads", at its top) that a test can hold to, beside
 * thread_test.c (one client and one list shared by many threads) and interrupt_test.c
 * (cf_client_interrupt from a signal handler): each thread's own last error; interrupts
 * from one thread while others call; listeners set and removed while loads finish on
 * library threads. Passing means: only the statuses the rules allow, and no crash or hang.
 *
 * CF_THREAD_ITERATIONS sets the rounds per thread (default 200), e.g. lower under valgrind.
 */
#include "harness.h"

#include <pthread.h>

static char mock_url[128];

static int rounds(void) {
    const char *text = getenv("CF_THREAD_ITERATIONS");
    int n = text ? atoi(text) : 0;
    return n > 0 && n < 200 ? n : 200;
}

/* ---- each thread's own last error ---- */

static pthread_barrier_t barrier;

static void *fail_then_look_again(void *arg) {
    int *ok = arg;
    char *out = NULL;
    cf_status s = cf_breeds_page(NULL, 1, 10, &out);
    pthread_barrier_wait(&barrier); /* 1: this thread has failed */
    pthread_barrier_wait(&barrier); /* 2: the other thread has succeeded meanwhile */
    *ok = s == CF_ERR_ARGUMENT && strstr(cf_last_error(), "the client is NULL") != NULL;
    return NULL;
}

static void a_success_on_one_thread_leaves_another_threads_error(void) {
    cf_client *c = NULL;
    if (CHECK_STATUS(cf_client_open(mock_url, NULL, &c), CF_OK) != CF_OK) return;
    pthread_barrier_init(&barrier, NULL, 2);
    int ok = 0;
    pthread_t thread;
    CHECK(pthread_create(&thread, NULL, fail_then_look_again, &ok) == 0);
    pthread_barrier_wait(&barrier);
    char *json = NULL;
    CHECK_STATUS(cf_metrics(c, &json), CF_OK);
    CHECK_STR_EQ(cf_last_error(), "");
    cf_free(json);
    pthread_barrier_wait(&barrier);
    pthread_join(thread, NULL);
    CHECKF(ok, "the failing thread's message was lost");
    pthread_barrier_destroy(&barrier);
    cf_client_close(c);
}

/* ---- interrupts from one thread while others call ---- */

struct caller {
    pthread_t thread;
    cf_client *client;
    int stop;       /* set by the test */
    long calls;     /* read by the test while the thread runs: atomic */
    long ok, cancelled, other;
    cf_status first_other;
};

static void *call_until_stopped(void *arg) {
    struct caller *w = arg;
    while (!__atomic_load_n(&w->stop, __ATOMIC_ACQUIRE)) {
        char *out = NULL;
        long calls = __atomic_load_n(&w->calls, __ATOMIC_RELAXED);
        cf_status s = calls % 2 ? cf_breeds_page(w->client, 1 + calls % 5, 10, &out)
                                : cf_fact_random(w->client, 0, &out);
        __atomic_store_n(&w->calls, calls + 1, __ATOMIC_RELAXED);
        if (s == CF_OK) w->ok++;
        else if (s == CF_ERR_CANCELLED) w->cancelled++;
        else if (w->other++ == 0) w->first_other = s;
        cf_free(out);
    }
    return NULL;
}

static int every_caller_has_called(struct caller *callers, int n) {
    for (int i = 0; i < n; i++) {
        if (__atomic_load_n(&callers[i].calls, __ATOMIC_RELAXED) == 0) return 0;
    }
    return 1;
}

/* Calls racing interrupts end well or cancelled, nothing else; afterwards calls work. */
static void calls_racing_interrupts_end_ok_or_cancelled(void) {
    cf_client *c = NULL;
    if (CHECK_STATUS(cf_client_open(mock_url, "{\"retries\":0}", &c), CF_OK) != CF_OK) return;
    struct caller callers[3];
    memset(callers, 0, sizeof callers);
    for (int i = 0; i < 3; i++) {
        callers[i].client = c;
        CHECK(pthread_create(&callers[i].thread, NULL, call_until_stopped, &callers[i]) == 0);
    }
    /* The interrupts start once every thread is calling, however late a thread starts. */
    WAIT_UNTIL(every_caller_has_called(callers, 3));
    CHECKF(every_caller_has_called(callers, 3), "a thread made no call in %.0f s", harness_hang_s());
    for (int i = 0; i < rounds(); i++) {
        cf_client_interrupt(c);
        sleep_ms(1);
    }
    for (int i = 0; i < 3; i++) __atomic_store_n(&callers[i].stop, 1, __ATOMIC_RELEASE);
    for (int i = 0; i < 3; i++) {
        pthread_join(callers[i].thread, NULL);
        CHECKF(callers[i].other == 0, "thread %d: %ld calls ended neither CF_OK nor cancelled, first %s", i,
               callers[i].other, cf_status_string(callers[i].first_other));
        if (getenv("CF_TEST_VERBOSE")) fprintf(stderr, "  thread %d: %ld calls, %ld ok, %ld cancelled\n", i, callers[i].calls, callers[i].ok, callers[i].cancelled);
    }
    char *out = NULL;
    cf_status s;
    CALL_PAST_INTERRUPTS(s, cf_breeds_page(c, 1, 10, &out));
    CHECK_STATUS(s, CF_OK);
    cf_free(out);
    cf_client_close(c);
}

/* ---- listeners set and removed while loads finish ---- */

static long heard; /* events the listener heard, atomically */

static void count_event(void *ctx, cf_event event, int64_t first, int64_t count) {
    (void)ctx; (void)event; (void)first; (void)count;
    __atomic_fetch_add(&heard, 1, __ATOMIC_RELAXED);
}

struct reader {
    pthread_t thread;
    cf_list *list;
    int offset;
    long failures;
};

static void *read_around(void *arg) {
    struct reader *r = arg;
    for (int i = 0; i < rounds(); i++) {
        cf_breed *b = NULL;
        int64_t index = (r->offset + i * 37) % 1000;
        cf_status s = cf_list_breed(r->list, index, &b);
        if (s == CF_OK) cf_breed_free(b);
        else if (s != CF_PENDING) r->failures++;
        if (i % 50 == 0 && cf_list_wait(r->list, index, harness_hang_ms()) != CF_OK) r->failures++;
    }
    return NULL;
}

/*
 * An index of the list whose page is not loaded, so that its load finishes after this
 * access: one of ten far apart (at most six pages fit in 60 items, loaded or loading, and
 * an access loads only its neighbours), looked at twice over; -1 if every one was loaded.
 */
static int64_t index_still_to_load(cf_list *l) {
    for (int i = 0; i < 20; i++) {
        cf_breed *b = NULL;
        int64_t index = 100 * (i % 10) + 55;
        cf_status s = cf_list_breed(l, index, &b);
        cf_breed_free(b);
        if (s == CF_PENDING) return index;
    }
    return -1;
}

/*
 * Readers on three threads move the window of a small list (so pages load and drop on
 * library threads and on theirs) while the test's thread sets and removes the listener; the
 * listener set last hears a load that starts after it, whenever the readers' loads ended;
 * once the list is closed the listener is never called again.
 */
static void a_listener_swapped_while_pages_load_and_drop(void) {
    char url[128];
    REQUIRE_MOCK("--breeds 1000", url);
    cf_client *c = NULL;
    cf_list *l = NULL;
    if (CHECK_STATUS(cf_client_open(url, NULL, &c), CF_OK) == CF_OK &&
        CHECK_STATUS(cf_list_open(c, CF_BREEDS, "{\"page_size\":10,\"prefetch_distance\":10,\"max_cached_items\":60}", &l),
                     CF_OK) == CF_OK) {
        struct reader readers[3];
        memset(readers, 0, sizeof readers);
        for (int i = 0; i < 3; i++) {
            readers[i].list = l;
            readers[i].offset = i * 333;
            CHECK(pthread_create(&readers[i].thread, NULL, read_around, &readers[i]) == 0);
        }
        for (int i = 0; i < rounds(); i++) {
            CHECK_STATUS(cf_list_set_listener(l, i % 2 ? NULL : count_event, NULL), CF_OK);
            sleep_ms(1);
        }
        CHECK_STATUS(cf_list_set_listener(l, count_event, NULL), CF_OK);
        for (int i = 0; i < 3; i++) {
            pthread_join(readers[i].thread, NULL);
            CHECKF(readers[i].failures == 0, "reader %d: %ld reads failed", i, readers[i].failures);
        }
        /* A page seen loading now finishes after the last swap: its event reaches the listener
         * (on a library thread, maybe after cf_list_wait returns). */
        long before = __atomic_load_n(&heard, __ATOMIC_RELAXED);
        int64_t index = index_still_to_load(l);
        CHECKF(index >= 0, "every index looked at was loaded already");
        if (index >= 0) {
            CHECK_STATUS(cf_list_wait(l, index, harness_hang_ms()), CF_OK);
            WAIT_UNTIL(__atomic_load_n(&heard, __ATOMIC_RELAXED) > before);
            CHECKF(__atomic_load_n(&heard, __ATOMIC_RELAXED) > before, "the listener set last heard no load");
        }
        /* Closed with its neighbours' loads likely in flight: none may be heard once
         * cf_list_close returned. The pause only gives a broken list time to show it. */
        cf_list_close(l);
        long at_close = __atomic_load_n(&heard, __ATOMIC_RELAXED);
        sleep_ms(100);
        CHECK_INT_EQ(__atomic_load_n(&heard, __ATOMIC_RELAXED), at_close);
    }
    cf_client_close(c);
    stop_mock();
}

int main(void) {
    if (start_mock(NULL, mock_url) != 0) {
        harness_count(0);
        fprintf(stderr, "thread_rules_test: cannot start catfacts-mock\n");
        return harness_report("thread_rules_test");
    }
    RUN(a_success_on_one_thread_leaves_another_threads_error);
    RUN(calls_racing_interrupts_end_ok_or_cancelled);
    stop_mock();
    RUN(a_listener_swapped_while_pages_load_and_drop);
    return harness_report("thread_rules_test");
}
