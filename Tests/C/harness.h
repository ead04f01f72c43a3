/*
 * harness.h - what the C tests of catfacts.h share: checks that count and explain
 * themselves, a catfacts-mock started and stopped per test, clocks, JSON helpers.
 *
 * Include it first (it sets the POSIX feature macros before any system header).
 * Each test program ends with `return harness_report("name_test");`, which prints the
 * one line `name_test: N passed, N failed` on stdout; everything else goes to stderr.
 *
 * Environment:
 *   CATFACTS_MOCK      path of catfacts-mock (default .build/debug/catfacts-mock)
 *   CF_TEST_SLOWDOWN   factor for time limits, e.g. 10 under valgrind (default 1)
 *   CF_TEST_VERBOSE    set: name and time each test on stderr
 */
#ifndef CF_TEST_HARNESS_H
#define CF_TEST_HARNESS_H

#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L
#endif
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif

#include <catfacts.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- counting checks ---- */

/* Counts one check as passed (ok != 0) or failed; safe from any thread. Returns ok. */
int harness_count(int ok);

/* Counts one check; on failure prints where and what on stderr. */
#define CHECK(cond) do { \
    if (!harness_count((cond) ? 1 : 0)) fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
} while (0)

/* As CHECK, with a printf-style explanation: CHECKF(n == 3, "n is %d", n). */
#define CHECKF(cond, ...) do { \
    if (!harness_count((cond) ? 1 : 0)) { \
        fprintf(stderr, "%s:%d: check failed: %s: ", __FILE__, __LINE__, #cond); \
        fprintf(stderr, __VA_ARGS__); fputc('\n', stderr); } \
} while (0)

/* Two integers are equal (printed as long long when they are not). */
#define CHECK_INT_EQ(actual, expected) do { \
    long long cf_a_ = (long long)(actual), cf_e_ = (long long)(expected); \
    CHECKF(cf_a_ == cf_e_, "got %lld, expected %lld", cf_a_, cf_e_); \
} while (0)

/* Two C strings are equal; NULL is equal to nothing. */
#define CHECK_STR_EQ(actual, expected) do { \
    const char *cf_a_ = (actual), *cf_e_ = (expected); \
    CHECKF(cf_a_ != NULL && cf_e_ != NULL && strcmp(cf_a_, cf_e_) == 0, "got \"%s\", expected \"%s\"", \
           cf_a_ ? cf_a_ : "(null)", cf_e_ ? cf_e_ : "(null)"); \
} while (0)

/* `call` returns `expected`; else prints both statuses and cf_last_error(). Evaluates to the status. */
#define CHECK_STATUS(call, expected) \
    harness_check_status((call), (expected), NULL, 0, #call, __FILE__, __LINE__)

/*
 * `call` fails with `expected`, cf_last_error() is non-empty and contains `substring`
 * (NULL: any non-empty message). Checks the message before any other cf_ call.
 */
#define CHECK_FAILS(call, expected, substring) \
    harness_check_status((call), (expected), (substring), 1, #call, __FILE__, __LINE__)

cf_status harness_check_status(cf_status actual, cf_status expected, const char *substring,
                               int must_have_message, const char *call, const char *file, int line);

/* Prints `name: N passed, N failed` on stdout; the exit code for main (0 only without failures). */
int harness_report(const char *name);

/* Runs one test function, naming and timing it on stderr when CF_TEST_VERBOSE is set. */
#define RUN(test) harness_run(#test, test)
void harness_run(const char *name, void (*test)(void));

/* ---- child programs ---- */

/*
 * Runs argv (argv[0] looked up in PATH) as a child of the test: its stdout into a pipe whose
 * read end goes to *out_fd (close-on-exec), stdin from /dev/null, stderr shared; it gets
 * SIGTERM when the test dies. Returns its pid, or -1 after saying why on stderr, naming
 * `what`.
 */
pid_t start_child(const char *what, char *const argv[], int *out_fd);

/*
 * Reads from fd until `count` whole lines have come, at most until `deadline` (now_seconds()):
 * into text (NUL-terminated, at most size - 1 bytes). Returns NULL, or why it stopped short.
 */
const char *read_lines(int fd, int count, double deadline, char *text, size_t size);

/*
 * Enters a mount namespace of the process's own, for a test that mounts (a tmpfs over a
 * folder): call it at the start of main, while the process has one thread, so every library
 * thread started later sees the mounts. Returns NULL, or why mounts cannot be made here
 * (not root: `root_for` says what root was needed for; a thread already running; unshare or
 * mount refused), for the test to print when it skips.
 */
const char *enter_mount_namespace(const char *root_for);

/* ---- the mock server ---- */

/*
 * Starts catfacts-mock with `flags` (space-separated, e.g. "--breeds 1000 --latency-ms 50";
 * NULL or "" for none; "--port 0" is added unless flags name a port) and writes its base URL
 * ("http://127.0.0.1:PORT") to url. Waits for the "listening on" line for at most 20 s
 * (times CF_TEST_SLOWDOWN). Returns 0, or -1 after saying why on stderr (url is then "").
 * Up to 4 mocks may run at once; stop_mock() stops the latest.
 */
int start_mock(const char *flags, char url[static 128]);

/* Stops the latest mock started: SIGTERM, then SIGKILL if it has not exited within 5 s. */
void stop_mock(void);

/*
 * Stops the latest mock started at once, with SIGKILL: for a test that leaves a slow answer
 * in flight, which the mock would otherwise finish (up to 5 s) before it exits.
 */
void kill_mock(void);

/* Starts a mock or, when it cannot, counts a failure and returns from the calling test. */
#define REQUIRE_MOCK(flags, url) do { \
    if (start_mock((flags), (url)) != 0) { \
        harness_count(0); fprintf(stderr, "%s:%d: cannot start catfacts-mock %s\n", __FILE__, __LINE__, (flags) ? (flags) : ""); \
        return; \
    } \
} while (0)

/*
 * "http://127.0.0.1:PORT" for a port nothing listens on and nothing else can take: a socket
 * of this process holds it, bound but never listening, until the process exits.
 */
void closed_port_url(char url[static 128]);

/* ---- files ---- */

/*
 * Makes a fresh folder /tmp/cf-NAME-XXXXXX for one test's files and writes its path to folder.
 * Returns 0, or -1 after counting a failure and saying why on stderr.
 */
int make_temp_folder(const char *name, char folder[static 64]);

/* Removes a folder made by make_temp_folder and everything in it. */
void remove_temp_folder(const char *folder);

/* ---- time ---- */

/* Seconds on the monotonic clock. */
double now_seconds(void);

/* Sleeps for ms milliseconds. */
void sleep_ms(long ms);

/* CF_TEST_SLOWDOWN (default 1): multiply upper time limits by it. */
double harness_slowdown(void);

/* ---- waiting ---- */

/*
 * The bound on waiting for something that must happen: 20 s times CF_TEST_SLOWDOWN, which
 * only a hang reaches (a request to the local mock takes milliseconds, even under valgrind on
 * a loaded machine). It bounds a wait and never measures speed: that is `make bench`'s job.
 */
double harness_hang_s(void);

/* harness_hang_s() in milliseconds, e.g. for cf_list_wait's timeout. */
int64_t harness_hang_ms(void);

/*
 * Evaluates cond every 5 ms until it holds or harness_hang_s() has passed. It checks
 * nothing: follow it with a CHECK of the condition (or of what the condition waited for).
 */
#define WAIT_UNTIL(cond) do { \
    /* Polls every 5 ms: the wait ends when cond holds, the sleep only paces the polling. */ \
    double cf_until_ = now_seconds() + harness_hang_s(); \
    while (!(cond) && now_seconds() < cf_until_) sleep_ms(5); \
} while (0)

/* ---- interrupts ---- */

/*
 * `status = call`, made again while it is cancelled, three times at most: how a test says
 * "the next call works" after interrupting a client, whenever the library acts on the
 * interrupt. cf_client_interrupt only sets a flag that a library thread acts on later, and
 * a call that starts in between is interrupted too (catfacts.h). That thread may be acting
 * on an earlier interrupt, then on the last one: two calls at most can still be cancelled.
 */
#define CALL_PAST_INTERRUPTS(status, call) do { \
    int cf_tries_ = 0; \
    do (status) = (call); while ((status) == CF_ERR_CANCELLED && ++cf_tries_ < 3); \
} while (0)

/* ---- JSON ---- */

/* Parses text (rejecting duplicate keys); NULL, with a counted failure and the reason, if it is not JSON. */
json_t *parse_json(const char *text, const char *file, int line);
#define PARSE_JSON(text) parse_json((text), __FILE__, __LINE__)

/* obj[key] as a string, or NULL when absent or not a string. */
const char *json_get_str(const json_t *obj, const char *key);

/* obj[key] as an integer, or `otherwise` when absent or not an integer. */
long long json_get_int(const json_t *obj, const char *key, long long otherwise);

/* The entry of metrics["endpoints"] whose "endpoint" is endpoint, or NULL. */
json_t *metrics_endpoint(const json_t *metrics, const char *endpoint);

/* metrics["endpoints"][endpoint][key] for a client, fetched now; -1 when absent. */
long long client_metric(cf_client *c, const char *endpoint, const char *key);

/* The sum of "requests" over every endpoint of the client's metrics; -1 on failure. */
long long client_total_requests(cf_client *c);

/* ---- text ---- */

/* Whether haystack contains needle, ignoring ASCII case. */
int contains_ci(const char *haystack, const char *needle);

/* The number of code points in valid UTF-8 text (-1 if it is not valid UTF-8). */
long long utf8_length(const char *text);

/* Whether text looks like an RFC 3339 date-time: 2026-11-21T10:00:00[.fff](Z|+hh:mm|-hh:mm). */
int is_rfc3339(const char *text);

#endif /* CF_TEST_HARNESS_H */
