/*
 * breed_detail - one breed in full, found by name with cf_breed_find.
 *
 *   breed_detail [--base-url URL] NAME
 *
 * NAME matches case-insensitively ("abyssinian" finds "Abyssinian"). Output: one
 * "Label: value" line per field, in the order Breed, Country, Origin, Coat, Pattern
 * (a field the API leaves out says "(not given)"), then any field a later library adds.
 * Exit status: 0, 1 when the breed is not found or a call fails (one line on stderr),
 * 2 for bad arguments.
 */
#include <catfacts.h>
#include <jansson.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *program = "breed_detail";

/* The fields of a breed object (catfacts.h, cf_breeds_page), in the order they print. */
static const struct { const char *key, *label; } known_fields[] = {
    {"breed", "Breed"}, {"country", "Country"}, {"origin", "Origin"},
    {"coat", "Coat"}, {"pattern", "Pattern"},
};
#define KNOWN_FIELD_COUNT (sizeof known_fields / sizeof known_fields[0])

static void usage(FILE *to) {
    fprintf(to,
        "usage: %s [--base-url URL] NAME\n"
        "Prints every field of the breed named NAME (matched case-insensitively).\n"
        "\n"
        "  --base-url URL  the API to ask (default: the library's, https://catfact.ninja)\n"
        "  -h, --help      this help\n",
        program);
}

#include "sample.h"

static int is_known(const char *key) {
    for (size_t i = 0; i < KNOWN_FIELD_COUNT; i++)
        if (strcmp(known_fields[i].key, key) == 0) return 1;
    return 0;
}

/* A key a later library adds, as a label: "life_span" prints as "Life span". */
static void print_label(const char *key) {
    for (size_t i = 0; key[i]; i++) {
        int c = (unsigned char)key[i];
        putchar(i == 0 ? toupper(c) : c == '_' ? ' ' : c);
    }
}

static void print_value(json_t *value) {
    if (json_is_string(value) && json_string_length(value) > 0) {
        fputs(json_string_value(value), stdout);
    } else if (value == NULL || json_is_null(value) || json_is_string(value)) {
        fputs("(not given)", stdout);
    } else {
        char *text = json_dumps(value, JSON_COMPACT | JSON_ENCODE_ANY);
        fputs(text ? text : "?", stdout);
        free(text);
    }
    putchar('\n');
}

int main(int argc, char **argv) {
    const char *base_url = NULL;
    const char *name = NULL;
    int options_done = 0;

    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        if (!options_done && (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0)) {
            usage(stdout);
            return 0;
        } else if (!options_done && strcmp(arg, "--base-url") == 0) {
            if (i + 1 >= argc) return usage_error("missing value for ", arg);
            base_url = argv[++i];
        } else if (!options_done && strncmp(arg, "--base-url=", 11) == 0) {
            base_url = arg + 11;
        } else if (!options_done && strcmp(arg, "--") == 0) {
            options_done = 1;
        } else if (!options_done && arg[0] == '-' && arg[1] != '\0') {
            return usage_error("unknown option: ", arg);
        } else if (name == NULL) {
            name = arg;
        } else {
            return usage_error("one NAME only; unexpected: ", arg);
        }
    }
    if (name == NULL) return usage_error("missing NAME", NULL);

    cf_client *client = open_client(base_url);
    if (client == NULL) return 1;
    char *text = NULL;
    cf_status status = cf_breed_find(client, name, &text);
    if (status != CF_OK) {
        char doing[160];
        snprintf(doing, sizeof doing, "cannot find breed \"%.120s\"", name);
        report_failure(doing, status);
        cf_client_close(client);
        return 1;
    }
    cf_client_close(client);

    json_t *breed = parse_object(text, "the breed");
    if (breed == NULL) return 1;
    for (size_t i = 0; i < KNOWN_FIELD_COUNT; i++) {
        printf("%s: ", known_fields[i].label);
        print_value(json_object_get(breed, known_fields[i].key));
    }
    const char *key;
    json_t *value;
    json_object_foreach(breed, key, value) {
        if (is_known(key)) continue;
        print_label(key);
        fputs(": ", stdout);
        print_value(value);
    }
    json_decref(breed);
    return 0;
}
