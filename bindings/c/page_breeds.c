/*
 * page_breeds - pages through every breed with cf_breeds_page and prints them numbered.
 *
 *   page_breeds [--base-url URL] [--limit N]
 *
 * One request per page, from page 1 until the page the server calls the last.
 * Output: one row per breed, "  1. Abyssinian — Ethiopia, Natural/Standard, Short, Ticked"
 * (country, origin, coat, pattern; a field the API leaves out shows as "n/a"), then a summary
 * "98 breeds in 4 pages (source: network)". Exit status: 0, 1 when a call fails (one line on
 * stderr), 2 for bad arguments.
 */
#include <catfacts.h>
#include <jansson.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *program = "page_breeds";

/* What a breed field the API left out looks like in a row. */
static const char *const absent_field = "n/a";

static void usage(FILE *to) {
    fprintf(to,
        "usage: %s [--base-url URL] [--limit N]\n"
        "Pages through all breeds of the Cat Facts API and prints them numbered.\n"
        "\n"
        "  --base-url URL  the API to ask (default: the library's, https://catfact.ninja)\n"
        "  --limit N       breeds per page, N >= 1 (default 25; the server may cap it)\n"
        "  -h, --help      this help\n"
        "\n"
        "A field the API leaves out shows as \"%s\".\n",
        program, absent_field);
}

#include "sample.h"

/* The string at key, or NULL when it is absent, null or not a string. */
static const char *string_at(json_t *object, const char *key) {
    return json_string_value(json_object_get(object, key));
}

/* The integer at key into *out; 0 when it is absent or not an integer. */
static int integer_at(json_t *object, const char *key, long long *out) {
    json_t *value = json_object_get(object, key);
    if (!json_is_integer(value)) return 0;
    *out = (long long)json_integer_value(value);
    return 1;
}

static const char *or_absent(const char *text) {
    return text && text[0] ? text : absent_field;
}

/* The distinct "source" values seen, in the order first seen. */
#define MAX_SOURCES 4
static char sources[MAX_SOURCES][32];
static int source_count;

static void note_source(const char *source) {
    if (!source) source = "unknown";
    for (int i = 0; i < source_count; i++)
        if (strcmp(sources[i], source) == 0) return;
    if (source_count == MAX_SOURCES) return;
    snprintf(sources[source_count++], sizeof sources[0], "%s", source);
}

static int digits(long long n) {
    int count = 1;
    while (n >= 10) { n /= 10; count++; }
    return count;
}

int main(int argc, char **argv) {
    const char *base_url = NULL;
    long long limit = 25;

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        const char *value = NULL;
        if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
            usage(stdout);
            return 0;
        } else if (strcmp(arg, "--base-url") == 0 || strcmp(arg, "--limit") == 0) {
            if (i + 1 >= argc) return usage_error("missing value for ", arg);
            value = argv[++i];
        } else if (strncmp(arg, "--base-url=", 11) == 0 || strncmp(arg, "--limit=", 8) == 0) {
            value = strchr(arg, '=') + 1;
        } else {
            return usage_error("unexpected argument: ", arg);
        }
        if (strncmp(arg, "--base-url", 10) == 0) {
            base_url = value;
        } else {
            char *end = NULL;
            errno = 0;
            limit = strtoll(value, &end, 10);
            if (errno != 0 || end == value || *end != '\0' || limit < 1)
                return usage_error("--limit wants a whole number >= 1, not ", value);
        }
    }

    cf_client *client = open_client(base_url);
    if (client == NULL) return 1;

    int exit_code = 0;
    long long listed = 0, total = -1, pages = 0;
    int number_width = 3;
    for (long long page = 1;; page++) {
        char *text = NULL;
        cf_status status = cf_breeds_page(client, page, limit, &text);
        if (status != CF_OK) {
            char doing[64];
            snprintf(doing, sizeof doing, "cannot fetch breeds page %lld", page);
            report_failure(doing, status);
            exit_code = 1;
            break;
        }
        json_error_t error;
        json_t *root = json_loads(text, 0, &error);
        cf_free(text);
        long long last_page = 0;
        json_t *items = json_object_get(root, "items");
        if (!root || !json_is_array(items) || !integer_at(root, "last_page", &last_page)
            || !integer_at(root, "total", &total)) {
            fprintf(stderr, "%s: breeds page %lld is not the JSON the header documents: %s\n",
                    program, page, root ? "no items, last_page or total" : error.text);
            json_decref(root);
            exit_code = 1;
            break;
        }
        pages++;
        if (page == 1 && digits(total) + 1 > number_width) number_width = digits(total) + 1;
        note_source(string_at(root, "source"));

        size_t index;
        json_t *breed;
        json_array_foreach(items, index, breed) {
            const char *name = string_at(breed, "breed");
            printf("%*lld. %s \xE2\x80\x94 %s, %s, %s, %s\n", number_width, ++listed,
                   name && name[0] ? name : "(unnamed)",
                   or_absent(string_at(breed, "country")), or_absent(string_at(breed, "origin")),
                   or_absent(string_at(breed, "coat")), or_absent(string_at(breed, "pattern")));
        }
        size_t on_page = json_array_size(items);
        json_decref(root);
        if (page >= last_page) break;
        if (on_page == 0) {
            fprintf(stderr, "%s: breeds page %lld is empty but the last page is %lld\n",
                    program, page, last_page);
            exit_code = 1;
            break;
        }
    }
    cf_client_close(client);
    if (exit_code != 0) return exit_code;

    printf("%lld breed%s in %lld page%s (source%s: ", listed, listed == 1 ? "" : "s",
           pages, pages == 1 ? "" : "s", source_count == 1 ? "" : "s");
    for (int i = 0; i < source_count; i++) printf("%s%s", i ? ", " : "", sources[i]);
    printf(")\n");
    if (total >= 0 && listed != total)
        fprintf(stderr, "%s: warning: the server reports %lld breeds but listed %lld\n",
                program, total, listed);
    return 0;
}
