/*
 * cf_client_interrupt, from another thread and from a signal handler, against catfacts-mock:
 * a slow page, a Retry-After wait, a walk over many pages and a list wait each return
 * CF_ERR_CANCELLED soon after the interrupt, and the client's next call works.
 */
#define _DEFAULT_SOURCE
#include "harness.h"

#include <pthread.h>
#include <signal.h>
#include <sys/time.h>

/* How long after the interrupt a call may take to return: the goal is 50 ms; the bound
 * leaves room for a busy machine (times CF_TEST_SLOWDOWN). */
#define RETURN_BOUND_S 0.25

typedef struct {
    cf_client *client;
    double delay_s;
    double interrupted_at;
} interrupter;

static void *interrupt_later(void *arg) {
    interrupter *i = arg;
    sleep_ms((int)(i->delay_s * 1000));
    i->interrupted_at = now_seconds();
    cf_client_interrupt(i->client);
    return NULL;
}

/* Runs `call` with an interrupt from another thread after delay_s; checks CF_ERR_CANCELLED
 * came back within RETURN_BOUND_S of it. */
#define CHECK_INTERRUPTED(c, delay_s, call) do { \
    interrupter i_ = {(c), (delay_s), 0}; \
    pthread_t t_; \
    pthread_create(&t_, NULL, interrupt_later, &i_); \
    CHECK_FAILS((call), CF_ERR_CANCELLED, "cancelled"); \
    double late_ = now_seconds() - i_.interrupted_at; \
    pthread_join(t_, NULL); \
    if (getenv("CF_TEST_VERBOSE")) fprintf(stderr, "  returned %.1f ms after the interrupt\n", late_ * 1000); \
    CHECKF(i_.interrupted_at > 0 && late_ <= RETURN_BOUND_S * harness_slowdown(), \
           "returned %.3f s after the interrupt (goal 0.05 s)", late_); \
} while (0)

static void a_slow_page_is_interrupted_and_the_next_call_works(void) {
    char url[128];
    REQUIRE_MOCK("--latency-ms 3000", url);
    cf_client *c = NULL;
    CHECK_STATUS(cf_client_open(url, "{\"retries\":0,\"timeout_ms\":20000}", &c), CF_OK);
    if (c != NULL) {
        char *out = NULL;
        CHECK_INTERRUPTED(c, 0.3, cf_breeds_page(c, 1, 5, &out));
        CHECK(out == NULL);
        CHECK_INT_EQ(cf_last_error_attempts(), 1);
        /* Not left interrupted: the next call goes to the server and waits its latency. */
        double start = now_seconds();
        CHECK_STATUS(cf_fact_random(c, 0, &out), CF_OK);
        CHECKF(now_seconds() - start >= 2.9, "the next call did not reach the server");
        cf_free(out);
    }
    cf_client_close(c);
    stop_mock();
}

static void a_retry_after_wait_is_interrupted(void) {
    char url[128];
    REQUIRE_MOCK("--fail-first 1 --faults 429", url);
    cf_client *c = NULL;
    /* The mock's 429 asks for 1 s; the interrupt comes 0.2 s into that wait. */
    CHECK_STATUS(cf_client_open(url, "{\"retries\":3}", &c), CF_OK);
    if (c != NULL) {
        char *out = NULL;
        CHECK_INTERRUPTED(c, 0.2, cf_facts_page(c, 1, 5, 0, &out));
        CHECK_INT_EQ(cf_last_error_attempts(), 1);
        CHECK_STATUS(cf_facts_page(c, 1, 5, 0, &out), CF_OK);
        cf_free(out);
    }
    cf_client_close(c);
    stop_mock();
}

static void a_walk_is_interrupted_between_or_during_pages(void) {
    char url[128];
    REQUIRE_MOCK("--breeds 100000 --latency-ms 200", url);
    cf_client *c = NULL;
    CHECK_STATUS(cf_client_open(url, "{\"retries\":0}", &c), CF_OK);
    if (c != NULL) {
        char *out = NULL;
        CHECK_INTERRUPTED(c, 0.5, cf_breed_find(c, "no such breed", &out));
        CHECK(out == NULL);
    }
    cf_client_close(c);
    stop_mock();
}

static void a_list_wait_is_interrupted_and_the_list_still_loads(void) {
    char url[128];
    REQUIRE_MOCK("--latency-ms 1500", url);
    cf_client *c = NULL;
    cf_list *l = NULL;
    CHECK_STATUS(cf_client_open(url, "{\"retries\":0}", &c), CF_OK);
    if (c != NULL && CHECK_STATUS(cf_list_open(c, CF_BREEDS, "{\"page_size\":10}", &l), CF_OK) == CF_OK) {
        cf_breed *b = NULL;
        CHECK_STATUS(cf_list_breed(l, 0, &b), CF_PENDING);
        CHECK_INTERRUPTED(c, 0.2, cf_list_wait(l, 0, 10000));
        /* The list is unharmed: the page arrives and the item reads. */
        CHECK_STATUS(cf_list_wait(l, 0, 10000), CF_OK);
        if (CHECK_STATUS(cf_list_breed(l, 0, &b), CF_OK) == CF_OK) {
            CHECK_STR_EQ(b->breed, "Abyssinian");
            cf_breed_free(b);
        }
    }
    cf_list_close(l);
    cf_client_close(c);
    stop_mock();
}

static cf_client *signalled_client;

static void on_alarm(int signal_number) {
    (void)signal_number;
    cf_client_interrupt(signalled_client);
}

static void an_interrupt_from_a_signal_handler_cancels_the_call(void) {
    char url[128];
    REQUIRE_MOCK("--latency-ms 3000", url);
    CHECK_STATUS(cf_client_open(url, "{\"retries\":0,\"timeout_ms\":20000}", &signalled_client), CF_OK);
    if (signalled_client != NULL) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = on_alarm;
        sigemptyset(&action.sa_mask);
        CHECK(sigaction(SIGALRM, &action, NULL) == 0);
        struct itimerval timer = {.it_value = {.tv_sec = 0, .tv_usec = 300000}};
        double start = now_seconds();
        setitimer(ITIMER_REAL, &timer, NULL);
        char *out = NULL;
        CHECK_FAILS(cf_breeds_page(signalled_client, 1, 5, &out), CF_ERR_CANCELLED, "cancelled");
        double took = now_seconds() - start;
        CHECKF(took >= 0.29 && took <= (0.3 + RETURN_BOUND_S) * harness_slowdown(),
               "returned %.3f s after the call began (the signal came at 0.3 s)", took);
        signal(SIGALRM, SIG_DFL);
    }
    cf_client_close(signalled_client);
    stop_mock();
}

static void interrupting_null_or_an_idle_client_does_nothing(void) {
    cf_client_interrupt(NULL);
    char url[128];
    REQUIRE_MOCK(NULL, url);
    cf_client *c = NULL;
    CHECK_STATUS(cf_client_open(url, NULL, &c), CF_OK);
    if (c != NULL) {
        cf_client_interrupt(c);
        sleep_ms(50); /* the watcher has run: nothing was in progress */
        char *out = NULL;
        CHECK_STATUS(cf_breeds_page(c, 1, 5, &out), CF_OK);
        cf_free(out);
    }
    cf_client_close(c);
    stop_mock();
}

int main(void) {
    RUN(interrupting_null_or_an_idle_client_does_nothing);
    RUN(a_slow_page_is_interrupted_and_the_next_call_works);
    RUN(a_retry_after_wait_is_interrupted);
    RUN(a_walk_is_interrupted_between_or_during_pages);
    RUN(a_list_wait_is_interrupted_and_the_list_still_loads);
    RUN(an_interrupt_from_a_signal_handler_cancels_the_call);
    return harness_report("interrupt_test");
}
