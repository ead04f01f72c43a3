/*
 * endpoint_times - makes a few rounds of calls, then prints each endpoint's request times from
 * cf_metrics_endpoints: plain structs, no JSON parser (it builds with catfacts alone).
 *
 *   endpoint_times [--base-url URL] [--rounds N]
 *
 * Each round asks for breeds page R, facts page R (10 items each) and a random fact; read-ahead
 * is off, so each call is one request (plus any retries). A call that fails is reported on
 * stderr, one line each, and the rounds go on. Output: a row per endpoint, sorted by path:
 * requests, errors, then avg, min, p50, p95, p99 and max in ms; a time with nothing measured
 * (every request failed without a response) shows as "—", never as 0. Exit status: 0, 1 when
 * a call failed (the table is printed all the same), 2 for bad arguments.
 */
#define SAMPLE_WITHOUT_JANSSON
#include <catfacts.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *program = "endpoint_times";

/* The most rounds: enough for percentiles to mean something, few enough for a quick run. */
#define MAX_ROUNDS 1000

static void usage(FILE *to) {
    fprintf(to,
        "usage: %s [--base-url URL] [--rounds N]\n"
        "Asks for breeds page R, facts page R and a random fact for R = 1..N, then prints\n"
        "each endpoint's request times (ms) from cf_metrics_endpoints.\n"
        "\n"
        "  --base-url URL  the API to ask (default: the library's, https://catfact.ninja)\n"
        "  --rounds N      rounds of calls, 1..%d (default 3)\n"
        "  -h, --help      this help\n"
        "\n"
        "A time with nothing measured (every request failed) shows as \"—\".\n",
        program, MAX_ROUNDS);
}

#include "sample.h"

/* A time right-aligned in width columns: one decimal, or "—" (one column, three bytes) for NaN. */
static void print_time(double ms, int width) {
    if (isnan(ms))
        printf(" %*s—", width - 1, "");
    else
        printf(" %*.1f", width, ms);
}

static void print_table(const cf_endpoint_stats_array *stats) {
    printf("%-9s %8s %6s %8s %8s %8s %8s %8s %8s\n", "Endpoint", "Requests", "Errors", "Avg ms", "Min ms",
           "p50 ms", "p95 ms", "p99 ms", "Max ms");
    for (int64_t i = 0; i < stats->count; i++) {
        const cf_endpoint_stats *e = &stats->items[i];
        printf("%-9s %8lld %6lld", e->endpoint, (long long)e->requests, (long long)e->errors);
        print_time(e->avg_ms, 8);
        print_time(e->min_ms, 8);
        print_time(e->p50_ms, 8);
        print_time(e->p95_ms, 8);
        print_time(e->p99_ms, 8);
        print_time(e->max_ms, 8);
        putchar('\n');
    }
    if (stats->count == 0) printf("(no requests recorded)\n");
}

/* One call's outcome: a failure reported (before any other cf_ call: cf_last_error is the
   calling thread's last call's), its answer freed. Returns 1 when it succeeded. */
static int settle(cf_status status, char *answer, const char *doing, long long round) {
    if (status != CF_OK) {
        char what[64];
        snprintf(what, sizeof what, "%s (round %lld)", doing, round);
        report_failure(what, status);
    }
    cf_free(answer);
    return status == CF_OK;
}

int main(int argc, char **argv) {
    const char *base_url = NULL;
    long long rounds = 3;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value = NULL;
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(arg, "--base-url") == 0 || strcmp(arg, "--rounds") == 0) {
            if (i + 1 >= argc) return usage_error("missing value for ", arg);
            value = argv[++i];
        } else if (strncmp(arg, "--base-url=", 11) == 0 || strncmp(arg, "--rounds=", 9) == 0) {
            value = strchr(arg, '=') + 1;
        } else {
            return usage_error("unexpected argument: ", arg);
        }
        if (strncmp(arg, "--base-url", 10) == 0) {
            base_url = value;
        } else {
            char *end = NULL;
            errno = 0;
            rounds = strtoll(value, &end, 10);
            if (errno != 0 || end == value || *end != '\0' || rounds < 1 || rounds > MAX_ROUNDS)
                return usage_error("--rounds wants a whole number from 1 to 1000, not ", value);
        }
    }

    /* Read-ahead off: pages asked in order would otherwise load the next ones too, and the
       counts would be more than the calls made. */
    cf_client *client = NULL;
    cf_status status = cf_client_open(base_url, "{\"read_ahead\":0}", &client);
    if (status != CF_OK) {
        report_failure("cannot open a client", status);
        return 1;
    }

    int all_ok = 1;
    for (long long round = 1; round <= rounds; round++) {
        char *answer = NULL;
        status = cf_breeds_page(client, round, 10, &answer);
        all_ok &= settle(status, answer, "cannot fetch a breeds page", round);
        status = cf_facts_page(client, round, 10, 0, &answer);
        all_ok &= settle(status, answer, "cannot fetch a facts page", round);
        status = cf_fact_random(client, 0, &answer);
        all_ok &= settle(status, answer, "cannot fetch a random fact", round);
    }

    cf_endpoint_stats_array *stats = NULL;
    status = cf_metrics_endpoints(client, &stats);
    if (status != CF_OK) {
        report_failure("cannot read the metrics", status);
        cf_client_close(client);
        return 1;
    }
    cf_client_close(client);
    /* The block is ours and outlives the client: one cf_free releases it, names and all. */
    print_table(stats);
    cf_free(stats);
    return all_ok ? 0 : 1;
}
