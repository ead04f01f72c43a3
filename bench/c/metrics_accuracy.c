#define _POSIX_C_SOURCE 200809L /* clock_gettime */
/* Metrics accuracy: REQUESTS sequential cf_breeds_page calls (a different page each, limit 1,
 * so each is a request) against a mock with injected latency; the avg_ms and p50_ms cf_metrics reports
 * for /breeds, beside the wall time per call measured here. Prints one JSON object.
 *   Usage: metrics_accuracy BASE_URL [REQUESTS] */
#include <catfacts.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static double number_after(const char *json, const char *key) {
    const char *p = strstr(json, key);
    return p ? atof(p + strlen(key)) : -1;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s BASE_URL [REQUESTS]\n", argv[0]);
        return 2;
    }
    int requests = argc > 2 ? atoi(argv[2]) : 50;
    cf_client *client = NULL;
    /* No read-ahead: each call is one request, so the wall time around it is comparable. */
    if (cf_client_open(argv[1], "{\"retries\":0,\"read_ahead\":0}", &client) != CF_OK) {
        fprintf(stderr, "metrics_accuracy: %s\n", cf_last_error());
        return 1;
    }
    double start = now_ms();
    for (int i = 0; i < requests; i++) {
        char *json = NULL;
        if (cf_breeds_page(client, 1 + i, 1, &json) != CF_OK) {
            fprintf(stderr, "metrics_accuracy: %s\n", cf_last_error());
            return 1;
        }
        cf_free(json);
    }
    double wall = (now_ms() - start) / requests;
    char *metrics = NULL;
    if (cf_metrics(client, &metrics) != CF_OK) return 1;
    /* The /breeds endpoint's object, whatever the order of its keys. */
    char *found = strstr(metrics, "\"/breeds\"");
    if (!found) return 1;
    char *open = found, *close = strchr(found, '}');
    while (open > metrics && *open != '{') open--;
    if (close) *close = '\0';
    const char *breeds = open;
    printf("{\"requests\":%.0f,\"avg_ms\":%.3f,\"p50_ms\":%.3f,\"min_ms\":%.3f,\"max_ms\":%.3f,\"wall_ms_per_call\":%.3f}\n",
           number_after(breeds, "\"requests\":"), number_after(breeds, "\"avg_ms\":"),
           number_after(breeds, "\"p50_ms\":"), number_after(breeds, "\"min_ms\":"),
           number_after(breeds, "\"max_ms\":"), wall);
    cf_free(metrics);
    cf_client_close(client);
    return 0;
}
