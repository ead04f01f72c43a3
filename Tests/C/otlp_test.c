/*
 * OTLP export and trace context (cf_client_set_trace_parent, "otlp_endpoint", cf_metrics'
 * "export"), against the real mock run with --log-requests (a line per request with the
 * traceparent it carried) and the test collector, Tests/otlp/collector.py, which decodes every
 * payload with the OpenTelemetry protobuf definitions and answers GET /_collector/summary with
 * lines this test reads with sscanf. Closing a client flushes its spans and metrics, so each
 * test reads the collector's summary right after cf_client_close, never waiting on an interval.
 *
 * The exporter reads OTEL_* variables when a client is opened: each test sets those it needs
 * with setenv before cf_client_open and removes them after.
 */
#include "harness.h"

#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

/* A server this test started itself: the mock with its request log, or the collector. */
typedef struct {
    pid_t pid;
    int out;           /* its stdout, after the "listening on" line */
    char url[128];
    char pending[8192]; /* output read but not yet taken as lines */
    size_t used;
} server;

/* Starts argv (argv[0] a path) with stdout to a pipe and waits for its "listening on URL"
 * line (the harness's bound). 0, or -1 after counting a failure and saying why. The harness's
 * start_mock keeps the mock's output to itself; this test needs the log lines after it. */
static int start_server(char *const argv[], server *s) {
    memset(s, 0, sizeof *s);
    s->pid = -1;
    int fds[2];
    if (pipe(fds) != 0) {
        harness_count(0);
        fprintf(stderr, "otlp_test: pipe: %s\n", strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid == 0) {
        prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (getppid() != parent) _exit(126);
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        close(fds[1]);
        execvp(argv[0], argv);
        fprintf(stderr, "otlp_test: cannot run %s: %s\n", argv[0], strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    s->pid = pid;
    s->out = fds[0];
    char line[256];
    double until = now_seconds() + harness_hang_s();
    while (now_seconds() < until) {
        struct pollfd p = {s->out, POLLIN, 0};
        if (poll(&p, 1, 50) <= 0) continue;
        ssize_t got = read(s->out, s->pending + s->used, sizeof s->pending - 1 - s->used);
        if (got <= 0) break;
        s->used += (size_t)got;
        s->pending[s->used] = '\0';
        char *end = strchr(s->pending, '\n');
        if (end == NULL) continue;
        size_t length = (size_t)(end - s->pending);
        snprintf(line, sizeof line, "%.*s", (int)length, s->pending);
        memmove(s->pending, end + 1, s->used - length - 1);
        s->used -= length + 1;
        if (strncmp(line, "listening on ", 13) == 0 && strlen(line + 13) < sizeof s->url) {
            snprintf(s->url, sizeof s->url, "%s", line + 13);
            return 0;
        }
        break;
    }
    harness_count(0);
    fprintf(stderr, "otlp_test: %s printed no \"listening on\" line\n", argv[0]);
    kill(pid, SIGKILL);
    waitpid(pid, NULL, 0);
    close(s->out);
    s->pid = -1;
    return -1;
}

static void stop_server(server *s) {
    if (s->pid <= 0) return;
    kill(s->pid, SIGKILL);
    waitpid(s->pid, NULL, 0);
    close(s->out);
    s->pid = -1;
}

static int start_mock_logging(server *s) {
    const char *path = getenv("CATFACTS_MOCK");
    char *argv[] = {(char *)(path && path[0] ? path : ".build/debug/catfacts-mock"), "--port", "0", "--log-requests", NULL};
    return start_server(argv, s);
}

static int start_collector(const char *mode, server *s) {
    char *argv[] = {"python3", "Tests/otlp/collector.py", "--port", "0", "--mode", (char *)mode, NULL};
    return start_server(argv, s);
}

/* The next line the server printed, waiting up to the hang bound; 0, or -1 when none came. */
static int next_line(server *s, char *line, size_t size) {
    double until = now_seconds() + harness_hang_s();
    while (1) {
        char *end = memchr(s->pending, '\n', s->used);
        if (end != NULL) {
            size_t length = (size_t)(end - s->pending);
            snprintf(line, size, "%.*s", (int)length, s->pending);
            memmove(s->pending, end + 1, s->used - length - 1);
            s->used -= length + 1;
            return 0;
        }
        if (now_seconds() >= until || s->used == sizeof s->pending - 1) return -1;
        struct pollfd p = {s->out, POLLIN, 0};
        if (poll(&p, 1, 50) <= 0) continue;
        ssize_t got = read(s->out, s->pending + s->used, sizeof s->pending - 1 - s->used);
        if (got <= 0) return -1;
        s->used += (size_t)got;
    }
}

/* GET path from the server at url ("http://127.0.0.1:PORT") with HTTP/1.0; the body into
 * body (NUL-terminated). 0, or -1. */
static int http_get(const char *url, const char *path, char *body, size_t size) {
    int port = 0;
    if (sscanf(url, "http://127.0.0.1:%d", &port) != 1) return -1;
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address = {0};
    address.sin_family = AF_INET;
    address.sin_port = htons((uint16_t)port);
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (s < 0 || connect(s, (struct sockaddr *)&address, sizeof address) != 0) {
        if (s >= 0) close(s);
        return -1;
    }
    char request[256];
    int length = snprintf(request, sizeof request, "GET %s HTTP/1.0\r\nHost: 127.0.0.1\r\n\r\n", path);
    if (write(s, request, (size_t)length) != length) {
        close(s);
        return -1;
    }
    size_t used = 0;
    ssize_t got;
    while (used < size - 1 && (got = read(s, body + used, size - 1 - used)) > 0) used += (size_t)got;
    close(s);
    body[used] = '\0';
    char *start = strstr(body, "\r\n\r\n");
    if (start == NULL) return -1;
    memmove(body, start + 4, strlen(start + 4) + 1);
    return 0;
}

/* One span of the collector's summary. */
typedef struct {
    char trace[33], id[17], parent[17], name[64];
    int kind, status;
} span;

typedef struct {
    long long metrics_requests, trace_requests, spans, errors, protobuf_requests, gzip_requests;
    span list[64];
    int count;
    long long duration_count, requests_total; /* the metrics' totals; -1 when absent */
} summary;

static int read_summary(const char *url, summary *out) {
    static char body[1 << 16];
    memset(out, 0, sizeof *out);
    out->duration_count = out->requests_total = -1;
    if (http_get(url, "/_collector/summary", body, sizeof body) != 0) return -1;
    for (char *line = strtok(body, "\n"); line != NULL; line = strtok(NULL, "\n")) {
        char name[128], unit[32];
        long long points = 0, total = 0;
        sscanf(line, "metrics_requests %lld", &out->metrics_requests);
        sscanf(line, "trace_requests %lld", &out->trace_requests);
        sscanf(line, "spans %lld", &out->spans);
        sscanf(line, "errors %lld", &out->errors);
        sscanf(line, "protobuf_requests %lld", &out->protobuf_requests);
        sscanf(line, "gzip_requests %lld", &out->gzip_requests);
        span *sp = &out->list[out->count];
        if (out->count < 64 && sscanf(line, "span %32s %16s %16s %d %d %63[^\n]", sp->trace, sp->id, sp->parent,
                                      &sp->kind, &sp->status, sp->name) == 6) {
            out->count++;
        }
        if (sscanf(line, "metric %127s %31s %lld %lld", name, unit, &points, &total) == 4) {
            if (strcmp(name, "http.client.request.duration") == 0 && strcmp(unit, "s") == 0) out->duration_count = total;
            if (strcmp(name, "catfacts.client.requests") == 0) out->requests_total = total;
        }
    }
    return 0;
}

static const span *find_span(const summary *s, const char *id) {
    for (int i = 0; i < s->count; i++) {
        if (strcmp(s->list[i].id, id) == 0) return &s->list[i];
    }
    return NULL;
}

/* cf_metrics' "export" object, parsed (free with json_decref), or NULL when it is null. */
static json_t *export_block(cf_client *c) {
    char *text = NULL;
    if (cf_metrics(c, &text) != CF_OK) return NULL;
    json_t *metrics = PARSE_JSON(text);
    cf_free(text);
    json_t *export = json_incref(json_object_get(metrics, "export"));
    json_decref(metrics);
    if (json_is_null(export)) {
        json_decref(export);
        return NULL;
    }
    return export;
}

static cf_client *open_exporting(const char *mock, const char *endpoint) {
    char options[512];
    snprintf(options, sizeof options, "{\"otlp_endpoint\":\"%s\",\"retries\":0,\"read_ahead\":0,\"cache_max_bytes\":0}", endpoint);
    cf_client *c = NULL;
    CHECK_STATUS(cf_client_open(mock, options, &c), CF_OK);
    return c;
}

#define HOST_TRACE "4bf92f3577b34da6a3ce929d0e0e4736"
#define HOST_PARENT "00f067aa0ba902b7"

/* Calls with the host's trace parent, then one without: the collector has one call span per
 * call and one attempt span per request, with the ids the mock received. */
static void spans_carry_the_ids_the_server_received(void) {
    server mock, collector;
    if (start_mock_logging(&mock) != 0) return;
    if (start_collector("ok", &collector) != 0) {
        stop_server(&mock);
        return;
    }
    cf_client *c = open_exporting(mock.url, collector.url);
    if (c == NULL) goto done;
    char *json = NULL;
    CHECK_STATUS(cf_client_set_trace_parent(c, "00-" HOST_TRACE "-" HOST_PARENT "-01"), CF_OK);
    CHECK_STATUS(cf_breeds_page(c, 1, 5, &json), CF_OK);
    cf_free(json);
    CHECK_STATUS(cf_facts_page(c, 1, 3, 0, &json), CF_OK);
    cf_free(json);
    CHECK_STATUS(cf_fact_random(c, 0, &json), CF_OK);
    cf_free(json);
    CHECK_STATUS(cf_client_set_trace_parent(c, NULL), CF_OK);
    CHECK_STATUS(cf_breeds_page(c, 2, 5, &json), CF_OK);
    cf_free(json);
    json_t *export = export_block(c);
    CHECK(export != NULL);
    CHECK_STR_EQ(json_get_str(export, "endpoint"), collector.url);
    CHECK_INT_EQ(json_get_int(export, "dropped", -1), 0);
    json_decref(export);
    cf_client_close(c);

    summary s;
    CHECK_INT_EQ(read_summary(collector.url, &s), 0);
    CHECK_INT_EQ(s.errors, 0);
    CHECK_INT_EQ(s.spans, 8);
    CHECK_INT_EQ(s.count, 8);
    CHECK(s.metrics_requests >= 1);
    CHECK_INT_EQ(s.duration_count, 4);
    CHECK_INT_EQ(s.requests_total, 4);

    /* Each request line's traceparent names an attempt span, whose parent is a call span. */
    const char *expected[] = {"GET /breeds", "GET /facts", "GET /fact", "GET /breeds"};
    char first_trace[33] = "";
    for (int i = 0; i < 4; i++) {
        char line[512], trace[33] = "", id[17] = "";
        CHECK_INT_EQ(next_line(&mock, line, sizeof line), 0);
        const char *tp = strstr(line, "traceparent=00-");
        CHECKF(tp != NULL && sscanf(tp, "traceparent=00-%32[0-9a-f]-%16[0-9a-f]-01", trace, id) == 2, "request line: %s", line);
        const span *attempt = find_span(&s, id);
        CHECKF(attempt != NULL, "no span %s in the collector for: %s", id, line);
        if (attempt == NULL) continue;
        CHECK_STR_EQ(attempt->trace, trace);
        CHECK_STR_EQ(attempt->name, expected[i]);
        CHECK_INT_EQ(attempt->kind, 3);
        CHECK_INT_EQ(attempt->status, 0);
        const span *call = find_span(&s, attempt->parent);
        CHECKF(call != NULL, "the attempt %s has no call span %s", id, attempt->parent);
        if (call == NULL) continue;
        CHECK_STR_EQ(call->trace, trace);
        CHECK_STR_EQ(call->name, expected[i]);
        CHECK_INT_EQ(call->kind, 3);
        CHECK_INT_EQ(call->status, 0);
        if (i < 3) {
            CHECK_STR_EQ(trace, HOST_TRACE);
            CHECK_STR_EQ(call->parent, HOST_PARENT);
        } else {
            /* Cleared: a new trace, the call span its root. */
            CHECK(strcmp(trace, HOST_TRACE) != 0);
            CHECK_STR_EQ(call->parent, "-");
        }
        if (i == 0) snprintf(first_trace, sizeof first_trace, "%s", trace);
    }

    /* Without export and without a trace parent no header is added. */
    cf_client *quiet = NULL;
    CHECK_STATUS(cf_client_open(mock.url, "{\"otlp_endpoint\":\"\",\"retries\":0,\"cache_max_bytes\":0}", &quiet), CF_OK);
    CHECK_STATUS(cf_fact_random(quiet, 0, &json), CF_OK);
    cf_free(json);
    CHECK(export_block(quiet) == NULL);
    cf_client_close(quiet);
    char line[512];
    CHECK_INT_EQ(next_line(&mock, line, sizeof line), 0);
    CHECKF(strstr(line, "request GET /fact") == line && strstr(line, " traceparent=-") != NULL, "line: %s", line);
done:
    stop_server(&collector);
    stop_server(&mock);
}

/* cf_client_set_trace_context: the calling thread's context (over the client's, which
 * another thread's call keeps), its tracestate on the exported spans, "" for no parent, NULL
 * back to the client's; an unsampled parent goes on as -00 and its spans are not exported. */
typedef struct {
    cf_client *c;
    char traceparent[64]; /* of the request the thread made */
} thread_call;

static void *call_on_a_thread(void *arg) {
    thread_call *call = arg;
    char *json = NULL;
    if (cf_fact_random(call->c, 0, &json) == CF_OK) cf_free(json);
    return NULL;
}

static int request_traceparent(server *mock, char *out, size_t size) {
    char line[512];
    if (next_line(mock, line, sizeof line) != 0) return -1;
    const char *tp = strstr(line, "traceparent=");
    snprintf(out, size, "%s", tp ? tp + strlen("traceparent=") : "");
    return 0;
}

#define OTHER_TRACE "0af7651916cd43dd8448eb211c80319c"
#define OTHER_PARENT "b7ad6b7169203331"

static void a_threads_trace_context_comes_first_and_unsampled_is_not_exported(void) {
    server mock, collector;
    if (start_mock_logging(&mock) != 0) return;
    if (start_collector("ok", &collector) != 0) {
        stop_server(&mock);
        return;
    }
    cf_client *c = open_exporting(mock.url, collector.url);
    if (c == NULL) goto done;
    char *json = NULL, tp[64];
    CHECK_STATUS(cf_client_set_trace_parent(c, "00-" OTHER_TRACE "-" OTHER_PARENT "-01"), CF_OK);
    CHECK_STATUS(cf_client_set_trace_context(c, "00-" HOST_TRACE "-" HOST_PARENT "-01", "congo=t61rcWkgMzE"), CF_OK);
    CHECK_STATUS(cf_fact_random(c, 0, &json), CF_OK); /* this thread's context */
    cf_free(json);
    CHECK_INT_EQ(request_traceparent(&mock, tp, sizeof tp), 0);
    CHECKF(strncmp(tp, "00-" HOST_TRACE "-", 36) == 0 && strcmp(tp + 52, "-01") == 0, "traceparent %s", tp);
    thread_call other = {.c = c};
    pthread_t thread;
    CHECK_INT_EQ(pthread_create(&thread, NULL, call_on_a_thread, &other), 0);
    pthread_join(thread, NULL); /* another thread: the client's */
    CHECK_INT_EQ(request_traceparent(&mock, tp, sizeof tp), 0);
    CHECKF(strncmp(tp, "00-" OTHER_TRACE "-", 36) == 0, "traceparent %s", tp);
    CHECK_STATUS(cf_client_set_trace_context(c, "00-" HOST_TRACE "-" HOST_PARENT "-00", NULL), CF_OK);
    CHECK_STATUS(cf_fact_random(c, 0, &json), CF_OK); /* unsampled: sent on as such, not exported */
    cf_free(json);
    CHECK_INT_EQ(request_traceparent(&mock, tp, sizeof tp), 0);
    CHECKF(strncmp(tp, "00-" HOST_TRACE "-", 36) == 0 && strcmp(tp + 52, "-00") == 0, "traceparent %s", tp);
    CHECK_STATUS(cf_client_set_trace_context(c, "", NULL), CF_OK);
    CHECK_STATUS(cf_fact_random(c, 0, &json), CF_OK); /* no parent: a trace of its own */
    cf_free(json);
    CHECK_INT_EQ(request_traceparent(&mock, tp, sizeof tp), 0);
    CHECKF(strncmp(tp, "00-", 3) == 0 && strncmp(tp + 3, HOST_TRACE, 32) != 0 && strncmp(tp + 3, OTHER_TRACE, 32) != 0,
           "traceparent %s", tp);
    CHECK_STATUS(cf_client_set_trace_context(c, NULL, NULL), CF_OK);
    CHECK_STATUS(cf_fact_random(c, 0, &json), CF_OK); /* back to the client's */
    cf_free(json);
    CHECK_INT_EQ(request_traceparent(&mock, tp, sizeof tp), 0);
    CHECKF(strncmp(tp, "00-" OTHER_TRACE "-", 36) == 0, "traceparent %s", tp);
    CHECK_FAILS(cf_client_set_trace_context(c, "00-" HOST_TRACE "-" HOST_PARENT "-01", "caf\xc3\xa9"), CF_ERR_ARGUMENT,
                "outside printable ASCII");
    CHECK_FAILS(cf_client_set_trace_context(c, "00-" HOST_TRACE "-" HOST_PARENT, NULL), CF_ERR_ARGUMENT, "characters long");
    CHECK_FAILS(cf_client_set_trace_context(NULL, NULL, NULL), CF_ERR_ARGUMENT, NULL);
    cf_client_close(c);

    summary s;
    CHECK_INT_EQ(read_summary(collector.url, &s), 0);
    CHECK_INT_EQ(s.errors, 0);
    CHECK_INT_EQ(s.spans, 8); /* 5 calls of one request each, one unsampled */
    int hosts = 0;
    for (int i = 0; i < s.count; i++) {
        if (strcmp(s.list[i].trace, HOST_TRACE) == 0) hosts++;
    }
    CHECK_INT_EQ(hosts, 2);
    CHECK_INT_EQ(s.requests_total, 5); /* the metrics count every call, sampled or not */
done:
    stop_server(&collector);
    stop_server(&mock);
}

/* With the collector down and a queue of 3 spans, calls succeed and everything past the
 * bound is dropped and counted: 5 calls make 10 spans (a call span and an attempt span
 * each), none delivered, so 7 dropped and 3 queued. */
static void a_dead_collector_drops_the_oldest_past_the_bound(void) {
    char mock[128], dead[128];
    REQUIRE_MOCK(NULL, mock);
    closed_port_url(dead);
    setenv("OTEL_BSP_MAX_QUEUE_SIZE", "3", 1);
    setenv("OTEL_BSP_SCHEDULE_DELAY", "0", 1);
    cf_client *c = open_exporting(mock, dead);
    unsetenv("OTEL_BSP_MAX_QUEUE_SIZE");
    unsetenv("OTEL_BSP_SCHEDULE_DELAY");
    if (c == NULL) {
        stop_mock();
        return;
    }
    for (int i = 1; i <= 5; i++) {
        char *json = NULL;
        CHECK_STATUS(cf_breeds_page(c, i, 2, &json), CF_OK);
        cf_free(json);
    }
    json_t *export = export_block(c);
    CHECK(export != NULL);
    CHECK_STR_EQ(json_get_str(export, "endpoint"), dead);
    CHECK_INT_EQ(json_get_int(export, "dropped", -1), 7);
    CHECK_INT_EQ(json_get_int(export, "queued", -1), 3);
    CHECK_INT_EQ(json_get_int(export, "sent", -1), 0);
    CHECK_INT_EQ(json_array_size(json_object_get(export, "warnings")), 0);
    json_decref(export);
    double started = now_seconds();
    cf_client_close(c);
    CHECKF(now_seconds() - started < harness_hang_s(), "close took %.1f s", now_seconds() - started);
    stop_mock();
}

/* A collector that never answers: calls go on, and cf_client_close returns (its bound is the
 * export timeout here, 300 ms, below the 2 s default). */
static void a_hung_collector_does_not_hang_close(void) {
    char mock[128];
    server collector;
    REQUIRE_MOCK(NULL, mock);
    if (start_collector("hang", &collector) != 0) {
        stop_mock();
        return;
    }
    setenv("OTEL_BSP_SCHEDULE_DELAY", "0", 1);
    setenv("OTEL_EXPORTER_OTLP_TIMEOUT", "300", 1);
    cf_client *c = open_exporting(mock, collector.url);
    unsetenv("OTEL_BSP_SCHEDULE_DELAY");
    unsetenv("OTEL_EXPORTER_OTLP_TIMEOUT");
    if (c != NULL) {
        for (int i = 0; i < 3; i++) {
            char *json = NULL;
            CHECK_STATUS(cf_fact_random(c, 0, &json), CF_OK);
            cf_free(json);
        }
        double started = now_seconds();
        cf_client_close(c);
        double took = now_seconds() - started;
        CHECKF(took < harness_hang_s(), "close took %.1f s", took);
        if (getenv("CF_TEST_VERBOSE")) fprintf(stderr, "otlp_test: close with a hung collector took %.3f s\n", took);
    }
    stop_server(&collector);
    stop_mock();
}

/* This process's threads, as the kernel counts them (/proc/self/task); -1 if unreadable. */
static int thread_count(void) {
    DIR *tasks = opendir("/proc/self/task");
    if (tasks == NULL) return -1;
    int count = 0;
    for (struct dirent *entry = readdir(tasks); entry != NULL; entry = readdir(tasks)) {
        if (entry->d_name[0] != '.') count++;
    }
    closedir(tasks);
    return count;
}

/* 20 clients exporting to one collector run one thread more than 20 that do not (they share
 * one exporter thread), gzip-compressed protobuf
 * (OTEL_EXPORTER_OTLP_COMPRESSION=gzip; protobuf is the default); the last close sends every
 * client's spans and metrics, and the thread ends. Nothing is sent before the closes (a day's
 * delay and interval). */
static void clients_share_one_exporter_thread(void) {
    enum { CLIENTS = 20 };
    char mock[128];
    server collector;
    REQUIRE_MOCK(NULL, mock);
    if (start_collector("ok", &collector) != 0) {
        stop_mock();
        return;
    }
    /* Each client's calls have a thread of the library's, exporting or not: the count to
     * compare with is 20 clients that do not export. */
    cf_client *clients[CLIENTS] = {0};
    char *json = NULL;
    int before = thread_count();
    for (int i = 0; i < CLIENTS; i++) {
        CHECK_STATUS(cf_client_open(mock, "{\"otlp_endpoint\":\"\",\"read_ahead\":0,\"cache_max_bytes\":0}", &clients[i]), CF_OK);
        if (clients[i] != NULL && cf_fact_random(clients[i], 0, &json) == CF_OK) cf_free(json);
    }
    int without_export = thread_count();
    for (int i = 0; i < CLIENTS; i++) cf_client_close(clients[i]);
    WAIT_UNTIL(thread_count() <= before);
    CHECKF(thread_count() <= before, "%d threads left, %d before", thread_count(), before);
    setenv("OTEL_EXPORTER_OTLP_COMPRESSION", "gzip", 1);
    setenv("OTEL_BSP_SCHEDULE_DELAY", "86400000", 1);
    setenv("OTEL_METRIC_EXPORT_INTERVAL", "86400000", 1);
    for (int i = 0; i < CLIENTS; i++) {
        clients[i] = open_exporting(mock, collector.url);
        if (clients[i] != NULL && cf_fact_random(clients[i], 0, &json) == CF_OK) cf_free(json);
    }
    unsetenv("OTEL_EXPORTER_OTLP_COMPRESSION");
    unsetenv("OTEL_BSP_SCHEDULE_DELAY");
    unsetenv("OTEL_METRIC_EXPORT_INTERVAL");
    int during = thread_count();
    CHECKF(during <= without_export + 1, "%d threads with %d clients exporting, %d without export", during, CLIENTS,
           without_export);
    for (int i = 0; i < CLIENTS; i++) cf_client_close(clients[i]);
    WAIT_UNTIL(thread_count() <= before);
    CHECKF(thread_count() <= before, "%d threads left, %d before", thread_count(), before);
    summary s;
    CHECK_INT_EQ(read_summary(collector.url, &s), 0);
    CHECK_INT_EQ(s.errors, 0);
    CHECK_INT_EQ(s.spans, 2 * CLIENTS);
    CHECK_INT_EQ(s.metrics_requests, 1);
    CHECK_INT_EQ(s.requests_total, CLIENTS); /* one request per client, each its own point */
    CHECK_INT_EQ(s.protobuf_requests, s.metrics_requests + s.trace_requests);
    CHECK_INT_EQ(s.gzip_requests, s.metrics_requests + s.trace_requests);
    stop_server(&collector);
    stop_mock();
}

/* Malformed trace parents and collector URLs are refused naming what is wrong; a bad
 * environment value is ignored with a warning in "export". */
static void bad_input_is_refused_saying_why(void) {
    cf_client *c = NULL;
    CHECK_STATUS(cf_client_open("http://127.0.0.1:9", "{\"otlp_endpoint\":\"\"}", &c), CF_OK);
    if (c == NULL) return;
    CHECK_FAILS(cf_client_set_trace_parent(NULL, "00-" HOST_TRACE "-" HOST_PARENT "-01"), CF_ERR_ARGUMENT, NULL);
    CHECK_FAILS(cf_client_set_trace_parent(c, "00-" HOST_TRACE "-" HOST_PARENT "-1"), CF_ERR_ARGUMENT, "characters long");
    CHECK_FAILS(cf_client_set_trace_parent(c, "00-" HOST_TRACE "-00f067aa0ba902bG-01"), CF_ERR_ARGUMENT, "parent id is not 16 lowercase hex");
    CHECK_FAILS(cf_client_set_trace_parent(c, "00-00000000000000000000000000000000-" HOST_PARENT "-01"), CF_ERR_ARGUMENT, "trace id is all zeros");
    CHECK_FAILS(cf_client_set_trace_parent(c, "00-" HOST_TRACE "-0000000000000000-01"), CF_ERR_ARGUMENT, "parent id is all zeros");
    CHECK_FAILS(cf_client_set_trace_parent(c, "ff-" HOST_TRACE "-" HOST_PARENT "-01"), CF_ERR_ARGUMENT, "version ff");
    CHECK_FAILS(cf_client_set_trace_parent(c, "\xff\xfe"), CF_ERR_ARGUMENT, "not valid UTF-8");
    CHECK_STATUS(cf_client_set_trace_parent(c, NULL), CF_OK);
    cf_client_close(c);

    cf_client *bad = NULL;
    CHECK_FAILS(cf_client_open("http://127.0.0.1:9", "{\"otlp_endpoint\":\"ftp://127.0.0.1:4318\"}", &bad), CF_ERR_ARGUMENT, "only http and https");
    CHECK_FAILS(cf_client_open("http://127.0.0.1:9", "{\"otlp_endpoint\":\"http://127.0.0.1:4318/\\r\\nX: y\"}", &bad),
                CF_ERR_ARGUMENT, "otlp_endpoint contains a control character");
    CHECK_FAILS(cf_client_open("http://127.0.0.1:9", "{\"otlp_endpoint\":4318}", &bad), CF_ERR_ARGUMENT, "otlp_endpoint");
    static char options[3100];
    snprintf(options, sizeof options, "{\"otlp_endpoint\":\"http://%03000d\"}", 1);
    CHECK_FAILS(cf_client_open("http://127.0.0.1:9", options, &bad), CF_ERR_ARGUMENT, "at most 2048");
    CHECK(bad == NULL);

    setenv("OTEL_BSP_MAX_QUEUE_SIZE", "lots", 1);
    cf_client *warned = NULL;
    CHECK_STATUS(cf_client_open("http://127.0.0.1:9", "{\"otlp_endpoint\":\"http://127.0.0.1:9\"}", &warned), CF_OK);
    unsetenv("OTEL_BSP_MAX_QUEUE_SIZE");
    if (warned == NULL) return;
    json_t *export = export_block(warned);
    const char *warning = json_string_value(json_array_get(json_object_get(export, "warnings"), 0));
    CHECK_STR_EQ(warning, "OTEL_BSP_MAX_QUEUE_SIZE 'lots' ignored: expected a whole number from 1 to 1000000; using 2048");
    json_decref(export);
    cf_client_close(warned);
}

int main(void) {
    /* The environment must not turn export on for the clients that expect it off. */
    unsetenv("OTEL_EXPORTER_OTLP_ENDPOINT");
    unsetenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT");
    unsetenv("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT");
    RUN(spans_carry_the_ids_the_server_received);
    RUN(a_threads_trace_context_comes_first_and_unsampled_is_not_exported);
    RUN(a_dead_collector_drops_the_oldest_past_the_bound);
    RUN(a_hung_collector_does_not_hang_close);
    RUN(bad_input_is_refused_saying_why);
    RUN(clients_share_one_exporter_thread);
    return harness_report("otlp_test");
}
