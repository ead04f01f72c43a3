/* Resident memory of an idle client: VmRSS at start (library loaded), after cf_client_open,
 * after one page of breeds, and once the client is closed. Prints one JSON object.
 *   Usage: idle_rss BASE_URL */
#include <catfacts.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long rss_kb(void) {
    FILE *f = fopen("/proc/self/status", "r");
    char line[256];
    long kb = -1;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmRSS:", 6) == 0) kb = atol(line + 6);
    if (f) fclose(f);
    return kb;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s BASE_URL\n", argv[0]);
        return 2;
    }
    long start = rss_kb();
    cf_client *client = NULL;
    if (cf_client_open(argv[1], NULL, &client) != CF_OK) {
        fprintf(stderr, "idle_rss: %s\n", cf_last_error());
        return 1;
    }
    long opened = rss_kb();
    char *json = NULL;
    if (cf_breeds_page(client, 1, 25, &json) != CF_OK) {
        fprintf(stderr, "idle_rss: %s\n", cf_last_error());
        return 1;
    }
    cf_free(json);
    long paged = rss_kb();
    cf_client_close(client);
    long closed = rss_kb();
    printf("{\"rss_start_kb\":%ld,\"rss_after_open_kb\":%ld,\"rss_after_first_page_kb\":%ld,\"rss_after_close_kb\":%ld}\n",
           start, opened, paged, closed);
    return 0;
}
