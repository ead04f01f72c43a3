/*
 * metrics - makes a few requests, then reads cf_metrics with jansson and prints it.
 *
 *   metrics [--base-url URL]
 *
 * Calls: page 1 of the breeds, page 1 of the facts, a random fact (one request each, plus
 * any retries the library makes). Output: a table with a row per endpoint (requests,
 * errors, avg/p50/p95/p99 in ms, bytes), then the device, the OS, the memory in MiB and
 * whether the client is online.
 * A value the library does not give prints as "-". Exit status: 0, 1 when a call fails
 * (one line on stderr), 2 for bad arguments.
 */
#include <catfacts.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *program = "metrics";

static void usage(FILE *to) {
    fprintf(to,
        "usage: %s [--base-url URL]\n"
        "Asks for a page of breeds, a page of facts and a random fact, then prints the\n"
        "client's metrics: per endpoint, device, OS, memory, online.\n"
        "\n"
        "  --base-url URL  the API to ask (default: the library's, https://catfact.ninja)\n"
        "  -h, --help      this help\n",
        program);
}

#include "sample.h"

/* The text at key, or fallback when it is absent, null, empty or not a string. */
static const char *text_at(json_t *object, const char *key, const char *fallback) {
    const char *text = json_string_value(json_object_get(object, key));
    return text && text[0] ? text : fallback;
}

/* A number at key, right-aligned in width with the given decimals; "-" when absent. */
static void print_number(json_t *object, const char *key, int width, int decimals) {
    json_t *value = json_object_get(object, key);
    if (json_is_number(value))
        printf(" %*.*f", width, decimals, json_number_value(value));
    else
        printf(" %*s", width, "-");
}

static void print_mib(json_t *object, const char *key) {
    json_t *value = json_object_get(object, key);
    if (json_is_number(value))
        printf("%.1f MiB", json_number_value(value) / (1024.0 * 1024.0));
    else
        printf("-");
}

static int print_endpoints(json_t *endpoints) {
    if (!json_is_array(endpoints)) {
        fprintf(stderr, "%s: the metrics have no \"endpoints\" array\n", program);
        return 0;
    }
    int name_width = (int)strlen("Endpoint");
    size_t index;
    json_t *row;
    json_array_foreach(endpoints, index, row) {
        int length = (int)strlen(text_at(row, "endpoint", "?"));
        if (length > name_width) name_width = length;
    }
    printf("%-*s %9s %7s %9s %9s %9s %9s %11s\n", name_width, "Endpoint", "Requests", "Errors",
           "Avg ms", "p50 ms", "p95 ms", "p99 ms", "Bytes");
    json_array_foreach(endpoints, index, row) {
        printf("%-*s", name_width, text_at(row, "endpoint", "?"));
        print_number(row, "requests", 9, 0);
        print_number(row, "errors", 7, 0);
        print_number(row, "avg_ms", 9, 1);
        print_number(row, "p50_ms", 9, 1);
        print_number(row, "p95_ms", 9, 1);
        print_number(row, "p99_ms", 9, 1);
        print_number(row, "bytes", 11, 0);
        putchar('\n');
    }
    if (json_array_size(endpoints) == 0) printf("(no requests recorded)\n");
    return 1;
}

static void print_system(json_t *metrics) {
    json_t *device = json_object_get(metrics, "device");
    json_t *cpus = json_object_get(device, "cpus");
    printf("\nDevice:  make %s, model %s, arch %s, ", text_at(device, "make", "-"),
           text_at(device, "model", "-"), text_at(device, "arch", "-"));
    if (json_is_integer(cpus))
        printf("%lld CPU%s\n", (long long)json_integer_value(cpus),
               json_integer_value(cpus) == 1 ? "" : "s");
    else
        printf("- CPUs\n");

    json_t *os = json_object_get(metrics, "os");
    printf("OS:      %s %s, kernel %s\n", text_at(os, "name", "-"), text_at(os, "version", "-"),
           text_at(os, "kernel", "-"));

    json_t *memory = json_object_get(metrics, "memory");
    printf("Memory:  resident ");
    print_mib(memory, "resident_bytes");
    printf(", peak ");
    print_mib(memory, "peak_resident_bytes");
    putchar('\n');

    json_t *online = json_object_get(metrics, "online");
    printf("Online:  %s\n", json_is_boolean(online) ? (json_is_true(online) ? "yes" : "no") : "-");
}

int main(int argc, char **argv) {
    const char *base_url = NULL;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(arg, "--base-url") == 0) {
            if (i + 1 >= argc) return usage_error("missing value for ", arg);
            base_url = argv[++i];
        } else if (strncmp(arg, "--base-url=", 11) == 0) {
            base_url = arg + 11;
        } else {
            return usage_error("unexpected argument: ", arg);
        }
    }

    cf_client *client = open_client(base_url);
    if (client == NULL) return 1;

    /* The answers themselves do not matter here, only that the requests were made. */
    char *answer = NULL;
    cf_status status = cf_breeds_page(client, 1, 25, &answer);
    if (status != CF_OK) {
        report_failure("cannot fetch breeds page 1", status);
        cf_client_close(client);
        return 1;
    }
    cf_free(answer);
    status = cf_facts_page(client, 1, 10, 0, &answer);
    if (status != CF_OK) {
        report_failure("cannot fetch facts page 1", status);
        cf_client_close(client);
        return 1;
    }
    cf_free(answer);
    status = cf_fact_random(client, 0, &answer);
    if (status != CF_OK) {
        report_failure("cannot fetch a random fact", status);
        cf_client_close(client);
        return 1;
    }
    cf_free(answer);

    char *text = NULL;
    status = cf_metrics(client, &text);
    if (status != CF_OK) {
        report_failure("cannot read the metrics", status);
        cf_client_close(client);
        return 1;
    }
    cf_client_close(client);

    json_t *metrics = parse_object(text, "the metrics");
    if (metrics == NULL) return 1;
    printf("Asked for breeds page 1, facts page 1 and a random fact.\n\n");
    int ok = print_endpoints(json_object_get(metrics, "endpoints"));
    if (ok) print_system(metrics);
    json_decref(metrics);
    return ok ? 0 : 1;
}
