/*
 * sample.h - what the C samples share: a usage error, the one-line report of a failed call,
 * opening the client, reading a JSON object the library handed out (with jansson, unless
 * SAMPLE_WITHOUT_JANSSON is defined). Header-only, so that each sample still builds from its
 * one .c file (cc page_breeds.c $(pkg-config --cflags --libs catfacts jansson), as scripts/dist-check.sh
 * builds it). A sample includes it after defining `program` (its name: every message starts
 * with it) and `usage(FILE *to)` (its help text).
 */
#ifndef CATFACTS_SAMPLE_H
#define CATFACTS_SAMPLE_H

#include <catfacts.h>
#include <stdio.h>

/* A bad argument: the message and its detail on stderr, then the usage. Returns the exit status, 2. */
static inline int usage_error(const char *message, const char *detail) {
    fprintf(stderr, "%s: %s%s\n", program, message, detail ? detail : "");
    usage(stderr);
    return 2;
}

/* One line on stderr: what we were doing, the library's message, its status. */
static inline void report_failure(const char *doing, cf_status status) {
    /* Read cf_last_error() before any other cf_ call: the next call replaces it. */
    const char *message = cf_last_error();
    fprintf(stderr, "%s: %s: %s", program, doing, message[0] ? message : "(no message)");
    fprintf(stderr, " [%s]\n", cf_status_string(status));
}

/* A client of base_url (NULL: the library's default), or NULL after reporting why. */
static inline cf_client *open_client(const char *base_url) {
    cf_client *client = NULL;
    cf_status status = cf_client_open(base_url, NULL, &client);
    if (status != CF_OK) report_failure("cannot open a client", status);
    return client;
}

/* A sample that reads no JSON (endpoint_times.c) defines SAMPLE_WITHOUT_JANSSON first: it
   builds with catfacts alone. */
#ifndef SAMPLE_WITHOUT_JANSSON
#include <jansson.h>

/*
 * text, a JSON object from the library, parsed (and freed with cf_free, as every hand-out is);
 * NULL after saying on stderr that `what` ("the breed") is not the object the header documents.
 */
static inline json_t *parse_object(char *text, const char *what) {
    json_error_t error;
    json_t *object = json_loads(text, 0, &error);
    cf_free(text);
    if (json_is_object(object)) return object;
    fprintf(stderr, "%s: cannot read %s: not the JSON object the header documents (%s)\n",
            program, what, object ? "not an object" : error.text);
    json_decref(object);
    return NULL;
}
#endif /* SAMPLE_WITHOUT_JANSSON */

#endif /* CATFACTS_SAMPLE_H */
