/* The library section of catfacts.h, from C: version, status strings, last error, free. */
#include <catfacts.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;

#define CHECK(cond) do { \
    if (cond) { passed++; } \
    else { failed++; fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); } \
} while (0)

static void version_matches_header(void) {
    char expected[32];
    snprintf(expected, sizeof expected, "%d.%d.%d", CF_VERSION_MAJOR, CF_VERSION_MINOR, CF_VERSION_PATCH);
    CHECK(strcmp(cf_version(), expected) == 0);
    CHECK(strcmp(cf_version(), CF_VERSION) == 0);
    CHECK(CF_VERSION_HEX == ((CF_VERSION_MAJOR << 16) | (CF_VERSION_MINOR << 8) | CF_VERSION_PATCH));
    CHECK(cf_version() == cf_version()); /* static: the same pointer every time */
}

static void every_status_has_its_name(void) {
    static const struct { cf_status status; const char *name; } table[] = {
        {CF_OK, "CF_OK"}, {CF_PENDING, "CF_PENDING"}, {CF_ERR_ARGUMENT, "CF_ERR_ARGUMENT"},
        {CF_ERR_NETWORK, "CF_ERR_NETWORK"}, {CF_ERR_TIMEOUT, "CF_ERR_TIMEOUT"}, {CF_ERR_HTTP, "CF_ERR_HTTP"},
        {CF_ERR_RATE_LIMITED, "CF_ERR_RATE_LIMITED"}, {CF_ERR_DECODE, "CF_ERR_DECODE"},
        {CF_ERR_NOT_FOUND, "CF_ERR_NOT_FOUND"}, {CF_ERR_OFFLINE, "CF_ERR_OFFLINE"},
        {CF_ERR_CANCELLED, "CF_ERR_CANCELLED"}, {CF_ERR_INTERNAL, "CF_ERR_INTERNAL"},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        const char *text = cf_status_string(table[i].status);
        CHECK(text != NULL);
        /* "CF_ERR_HTTP: HTTP error": the name, then a colon (so CF_ERR_HTTP does not match CF_ERR_HTTPS). */
        CHECK(strncmp(text, table[i].name, strlen(table[i].name)) == 0 && text[strlen(table[i].name)] == ':');
    }
    CHECK(strcmp(cf_status_string((cf_status)99), "unknown status") == 0);
    CHECK(strcmp(cf_status_string((cf_status)-1), "unknown status") == 0);
}

static void last_error_is_empty_before_any_failure(void) {
    const char *message = cf_last_error();
    CHECK(message != NULL);
    CHECK(message[0] == '\0');
}

int main(void) {
    version_matches_header();
    every_status_has_its_name();
    last_error_is_empty_before_any_failure();
    cf_free(NULL); /* a no-op: reaching the next line is the check */
    printf("library_test: %d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
