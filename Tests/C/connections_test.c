/*
 * The "max_connections" client option: its range, and that it bounds the requests under way
 * at once. The mock shows what the client did without timing it: --hold N keeps every
 * request waiting until N are in flight together, and GET /_mock/stats reports the most it
 * saw at once. 40 threads share one client; with 64 connections all 40 requests are under
 * way together, with the default 8 never more than 8 (the mock's latency keeps each request
 * in flight long enough that a client allowing more would show it), and all 40 calls succeed.
 */
#include "harness.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>
#include <unistd.h>

#define CALLS 40

/* ---- the mock's stats ---- */

/*
 * GET /_mock/stats from the mock at url ("http://127.0.0.1:PORT"), over a socket of its own
 * (the client under test must not carry it: it would count, and it might wait its turn).
 * The parsed JSON object (json_decref it), or NULL after counting a failure.
 */
static json_t *mock_stats(const char *url) {
    int port = 0;
    if (sscanf(url, "http://127.0.0.1:%d", &port) != 1) {
        CHECKF(0, "not a loopback mock URL: %s", url);
        return NULL;
    }
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = htons((uint16_t)port);
    if (s < 0 || connect(s, (struct sockaddr *)&address, sizeof address) != 0) {
        CHECKF(0, "cannot connect to the mock at %s", url);
        if (s >= 0) close(s);
        return NULL;
    }
    static const char request[] = "GET /_mock/stats HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n";
    ssize_t sent = send(s, request, sizeof request - 1, 0);
    char response[4096];
    size_t length = 0;
    ssize_t got;
    while (length < sizeof response - 1 && (got = recv(s, response + length, sizeof response - 1 - length, 0)) > 0) {
        length += (size_t)got;
    }
    close(s);
    response[length] = '\0';
    const char *body = strstr(response, "\r\n\r\n");
    CHECKF(sent == (ssize_t)(sizeof request - 1) && strncmp(response, "HTTP/1.1 200", 12) == 0 && body != NULL,
           "GET /_mock/stats answered: %.200s", response);
    return body ? PARSE_JSON(body + 4) : NULL;
}

/* ---- 40 calls at once ---- */

struct call {
    pthread_t thread;
    cf_client *client;
    int64_t page;
    cf_status status;
    long long answered_page; /* the answer's "page", -1 when it did not parse */
};

static void *one_call(void *arg) {
    struct call *call = arg;
    char *json = NULL;
    call->status = cf_breeds_page(call->client, call->page, 10, &json);
    call->answered_page = -1;
    if (call->status == CF_OK) {
        json_t *page = json_loads(json, 0, NULL);
        call->answered_page = json_get_int(page, "page", -1);
        json_decref(page);
    }
    cf_free(json);
    return NULL;
}

/*
 * Opens a client with options on a mock started with mock_flags, makes CALLS calls for
 * distinct pages from as many threads at once, checks that every one answered its page,
 * and checks the mock's peak of requests in flight and its hold state.
 */
static void calls_at_once(const char *mock_flags, const char *options, long long expected_peak) {
    char url[128];
    REQUIRE_MOCK(mock_flags, url);
    cf_client *c = NULL;
    if (CHECK_STATUS(cf_client_open(url, options, &c), CF_OK) != CF_OK) {
        stop_mock();
        return;
    }
    struct call calls[CALLS];
    int started = 0;
    for (int i = 0; i < CALLS; i++) {
        calls[i] = (struct call){.client = c, .page = i + 1};
        if (pthread_create(&calls[i].thread, NULL, one_call, &calls[i]) != 0) break;
        started++;
    }
    CHECK_INT_EQ(started, CALLS);
    int answered = 0;
    for (int i = 0; i < started; i++) {
        pthread_join(calls[i].thread, NULL);
        CHECKF(calls[i].status == CF_OK && calls[i].answered_page == calls[i].page, "page %lld: %s, answered page %lld",
               (long long)calls[i].page, cf_status_string(calls[i].status), calls[i].answered_page);
        answered += calls[i].status == CF_OK;
    }
    CHECK_INT_EQ(answered, CALLS);
    CHECK_INT_EQ(client_metric(c, "/breeds", "requests"), CALLS);
    json_t *stats = mock_stats(url);
    CHECK_INT_EQ(json_get_int(stats, "requests", -1), CALLS);
    CHECK_INT_EQ(json_get_int(stats, "peak_in_flight", -1), expected_peak);
    CHECK_INT_EQ(json_get_int(stats, "in_flight", -1), 0);
    CHECK_STR_EQ(json_get_str(stats, "hold"), "released");
    json_decref(stats);
    cf_client_close(c);
    stop_mock();
}

static void with_64_connections_40_calls_are_all_under_way_at_once(void) {
    /* Held until all 40 are in flight: a client allowing fewer would reach the hold limit,
     * and the stats would say "timed out" and a lower peak. */
    calls_at_once("--breeds 1000 --latency-ms 100 --hold 40", "{\"max_connections\":64,\"read_ahead\":0,\"retries\":0}",
                  CALLS);
}

static void by_default_8_calls_are_under_way_at_once_and_never_more(void) {
    /* Held until 8 are in flight; each then takes 100 ms, while the other 32 calls wait in
     * the client: a 9th connection would be seen in flight beside them. */
    calls_at_once("--breeds 1000 --latency-ms 100 --hold 8", "{\"read_ahead\":0,\"retries\":0}", 8);
}

static void max_connections_of_1_sends_one_request_at_a_time(void) {
    calls_at_once("--breeds 1000 --latency-ms 20 --hold 1", "{\"max_connections\":1,\"read_ahead\":0,\"retries\":0}", 1);
}

/* ---- the option's range ---- */

static void max_connections_takes_1_to_256(void) {
    static const char *const accepted[] = {"{\"max_connections\":1}", "{\"max_connections\":256}",
                                           "{\"max_connections\":8.0}"};
    for (size_t i = 0; i < sizeof accepted / sizeof accepted[0]; i++) {
        cf_client *c = NULL;
        CHECK_STATUS(cf_client_open("http://127.0.0.1:9", accepted[i], &c), CF_OK);
        cf_client_close(c);
    }
    static const struct { const char *json, *message; } refused[] = {
        {"{\"max_connections\":0}", "'max_connections' in client options must be in 1..256; got 0"},
        {"{\"max_connections\":257}", "'max_connections' in client options must be in 1..256; got 257"},
        {"{\"max_connections\":-1}", "'max_connections' in client options must be in 1..256; got -1"},
        {"{\"max_connections\":9223372036854775807}",
         "'max_connections' in client options must be in 1..256; got 9223372036854775807"},
        {"{\"max_connections\":2.5}", "'max_connections' in client options must be an integer in 1..256"},
        {"{\"max_connections\":\"8\"}", "'max_connections' in client options must be an integer in 1..256"},
        {"{\"max_connections\":null}", "'max_connections' in client options must be an integer in 1..256"},
    };
    for (size_t i = 0; i < sizeof refused / sizeof refused[0]; i++) {
        cf_client *c = (cf_client *)1;
        CHECK_FAILS(cf_client_open("http://127.0.0.1:9", refused[i].json, &c), CF_ERR_ARGUMENT, refused[i].message);
        CHECK(c == NULL);
    }
}

int main(void) {
    RUN(max_connections_takes_1_to_256);
    RUN(with_64_connections_40_calls_are_all_under_way_at_once);
    RUN(by_default_8_calls_are_under_way_at_once_and_never_more);
    RUN(max_connections_of_1_sends_one_request_at_a_time);
    return harness_report("connections_test");
}
