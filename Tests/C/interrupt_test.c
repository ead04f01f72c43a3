/*
 * cf_client_interrupt, from another thread, from a listener and from a signal handler,
 * against catfacts-mock: a slow page, a Retry-After wait, a walk over many pages and a list
 * wait each return CF_ERR_CANCELLED, and the client's next call works. Each interrupt is
 * forced to come while its call is in progress, however slow the machine; how soon the call
 * returns after it (the goal is 50 ms) is a speed, for make bench, not asserted here.
 */
#define _DEFAULT_SOURCE
#include "harness.h"

#include <pthread.h>
#include <signal.h>

/*
 * A thread that interrupts a client every 20 ms, from after_ms past the moment the caller is
 * about to call until that call returned: however late the call starts or the library's
 * watcher thread runs, an interrupt comes while the call is in progress. With send_signal
 * set it sends SIGUSR1 to the caller's thread instead, whose handler interrupts.
 */
typedef struct {
    cf_client *client;
    long after_ms;
    int send_signal;  /* set: pthread_kill(caller, SIGUSR1) instead of cf_client_interrupt */
    pthread_t caller; /* set by interrupter_start */
    int calling;      /* set by the caller just before the call */
    int returned;     /* set by the caller once the call returned */
} interrupter;

static void *interrupt_until_returned(void *arg) {
    interrupter *i = arg;
    WAIT_UNTIL(__atomic_load_n(&i->calling, __ATOMIC_ACQUIRE));
    sleep_ms(i->after_ms);
    while (!__atomic_load_n(&i->returned, __ATOMIC_ACQUIRE)) {
        if (i->send_signal) pthread_kill(i->caller, SIGUSR1);
        else cf_client_interrupt(i->client);
        sleep_ms(20);
    }
    return NULL;
}

static void interrupter_start(interrupter *i, pthread_t *thread) {
    i->caller = pthread_self();
    CHECK(pthread_create(thread, NULL, interrupt_until_returned, i) == 0);
    __atomic_store_n(&i->calling, 1, __ATOMIC_RELEASE);
}

/* After it, the interrupter sends nothing more (a signal it sent has reached the caller). */
static void interrupter_stop(interrupter *i, pthread_t thread) {
    __atomic_store_n(&i->returned, 1, __ATOMIC_RELEASE);
    pthread_join(thread, NULL);
}

/* Runs `call` while another thread interrupts c from delay_ms on; checks CF_ERR_CANCELLED. */
#define CHECK_INTERRUPTED(c, delay_ms, call) do { \
    interrupter i_ = {.client = (c), .after_ms = (delay_ms)}; \
    pthread_t t_; \
    interrupter_start(&i_, &t_); \
    CHECK_FAILS((call), CF_ERR_CANCELLED, "cancelled"); \
    interrupter_stop(&i_, t_); \
} while (0)

/* The first request's body trickles in over 20 s, so the call is in progress that long; the
 * requests after it are answered at once. */
static void a_slow_page_is_interrupted_and_the_next_call_works(void) {
    char url[128];
    REQUIRE_MOCK("--fail-first 1 --faults slow --slow-ms 20000", url);
    cf_client *c = NULL;
    CHECK_STATUS(cf_client_open(url, "{\"retries\":0,\"timeout_ms\":60000}", &c), CF_OK);
    if (c != NULL) {
        char *out = NULL;
        CHECK_INTERRUPTED(c, 300, cf_breeds_page(c, 1, 5, &out));
        CHECK(out == NULL);
        CHECK_INT_EQ(cf_last_error_attempts(), 1);
        /* Not left interrupted: the next call (past any interrupt sent meanwhile) is answered. */
        cf_status s;
        CALL_PAST_INTERRUPTS(s, cf_fact_random(c, 0, &out));
        CHECK_STATUS(s, CF_OK);
        CHECKF(out != NULL && strstr(out, "\"fact\"") != NULL, "got %s", out ? out : "(null)");
        cf_free(out);
    }
    cf_client_close(c);
    kill_mock(); /* not waiting for the slow body to end */
}

/* Metrics listener: interrupts its client (ctx) once a request was rate limited. It runs
 * within the call, before the call waits out the Retry-After. */
static void interrupt_when_rate_limited(void *ctx, const char *endpoint, double ms, cf_status s) {
    (void)endpoint; (void)ms;
    if (s == CF_ERR_RATE_LIMITED) cf_client_interrupt(ctx);
}

static void a_retry_after_wait_is_interrupted(void) {
    char url[128];
    REQUIRE_MOCK("--fail-first 1 --faults 429 --retry-after 20", url);
    cf_client *c = NULL;
    /* The mock's 429 asks for 20 s; the interrupt comes as the call starts that wait, so only
     * a watcher thread that stayed asleep 20 s could let the retry go. */
    CHECK_STATUS(cf_client_open(url, "{\"retries\":3}", &c), CF_OK);
    if (c != NULL) {
        CHECK_STATUS(cf_client_set_metrics_listener(c, interrupt_when_rate_limited, c), CF_OK);
        char *out = NULL;
        double start = now_seconds();
        CHECK_FAILS(cf_facts_page(c, 1, 5, 0, &out), CF_ERR_CANCELLED, "cancelled");
        double took = now_seconds() - start;
        CHECK_INT_EQ(cf_last_error_attempts(), 1);
        CHECK_INT_EQ(client_metric(c, "/facts", "requests"), 1); /* the retry never went */
        CHECKF(took < 10, "returned after %.2f s: the 20 s wait was not cut short", took);
        CHECK_STATUS(cf_client_set_metrics_listener(c, NULL, NULL), CF_OK);
        /* The one interrupt was taken by the call it cancelled: the next call runs. */
        CHECK_STATUS(cf_facts_page(c, 1, 5, 0, &out), CF_OK);
        cf_free(out);
    }
    cf_client_close(c);
    stop_mock();
}

/* 100 pages of 1000 breeds, 200 ms each: a walk that would take 20 s. */
static void a_walk_is_interrupted_between_or_during_pages(void) {
    char url[128];
    REQUIRE_MOCK("--breeds 100000 --latency-ms 200", url);
    cf_client *c = NULL;
    CHECK_STATUS(cf_client_open(url, "{\"retries\":0}", &c), CF_OK);
    if (c != NULL) {
        char *out = NULL;
        CHECK_INTERRUPTED(c, 500, cf_breed_find(c, "no such breed", &out));
        CHECK(out == NULL);
    }
    cf_client_close(c);
    kill_mock(); /* not waiting for the page that was coming */
}

/* The page takes 5 s to come: the wait is in progress that long. */
static void a_list_wait_is_interrupted_and_the_list_still_loads(void) {
    char url[128];
    REQUIRE_MOCK("--latency-ms 5000", url);
    cf_client *c = NULL;
    cf_list *l = NULL;
    CHECK_STATUS(cf_client_open(url, "{\"retries\":0}", &c), CF_OK);
    if (c != NULL && CHECK_STATUS(cf_list_open(c, CF_BREEDS, "{\"page_size\":10}", &l), CF_OK) == CF_OK) {
        cf_breed *b = NULL;
        CHECK_STATUS(cf_list_breed(l, 0, &b), CF_PENDING);
        CHECK_INTERRUPTED(c, 200, cf_list_wait(l, 0, harness_hang_ms()));
        /* The list is unharmed: the page arrives and the item reads. */
        cf_status s;
        CALL_PAST_INTERRUPTS(s, cf_list_wait(l, 0, harness_hang_ms()));
        CHECK_STATUS(s, CF_OK);
        if (CHECK_STATUS(cf_list_breed(l, 0, &b), CF_OK) == CF_OK) {
            CHECK_STR_EQ(b->breed, "Abyssinian");
            cf_breed_free(b);
        }
    }
    cf_list_close(l);
    cf_client_close(c);
    kill_mock(); /* not waiting for the pages read ahead */
}

static cf_client *signalled_client;

static void on_signal(int signal_number) {
    (void)signal_number;
    cf_client_interrupt(signalled_client);
}

/* The signal's handler runs on the thread in the call, as a terminal's ^C would in a tool. */
static void an_interrupt_from_a_signal_handler_cancels_the_call(void) {
    char url[128];
    REQUIRE_MOCK("--latency-ms 20000", url);
    CHECK_STATUS(cf_client_open(url, "{\"retries\":0,\"timeout_ms\":60000}", &signalled_client), CF_OK);
    if (signalled_client != NULL) {
        struct sigaction action, previous;
        memset(&action, 0, sizeof action);
        action.sa_handler = on_signal;
        action.sa_flags = SA_RESTART;
        sigemptyset(&action.sa_mask);
        CHECK(sigaction(SIGUSR1, &action, &previous) == 0);
        interrupter i = {.after_ms = 300, .send_signal = 1};
        pthread_t thread;
        double start = now_seconds();
        interrupter_start(&i, &thread);
        char *out = NULL;
        CHECK_FAILS(cf_breeds_page(signalled_client, 1, 5, &out), CF_ERR_CANCELLED, "cancelled");
        double took = now_seconds() - start;
        interrupter_stop(&i, thread);
        CHECKF(took >= 0.29, "returned %.3f s after the call began, before the first signal (0.3 s)", took);
        sigaction(SIGUSR1, &previous, NULL);
    }
    cf_client_close(signalled_client);
    kill_mock(); /* not waiting for the answer still to come */
}

static void interrupting_null_or_an_idle_client_does_nothing(void) {
    cf_client_interrupt(NULL);
    char url[128];
    REQUIRE_MOCK(NULL, url);
    cf_client *c = NULL;
    CHECK_STATUS(cf_client_open(url, NULL, &c), CF_OK);
    if (c != NULL) {
        cf_client_interrupt(c);
        /* The watcher thread acts on it with nothing to cancel, usually within this pause; a
         * call that starts before it does is cancelled too (catfacts.h), so what must hold,
         * however late it runs, is that the calls after that one run normally. */
        sleep_ms(50);
        char *out = NULL;
        cf_status s;
        CALL_PAST_INTERRUPTS(s, cf_breeds_page(c, 1, 5, &out));
        CHECK_STATUS(s, CF_OK);
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
