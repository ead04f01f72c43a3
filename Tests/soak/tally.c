/* tally.c - the soak driver's counters (see tally.h). */
#include "tally.h"

#include <stdatomic.h>
#include <string.h>

/* One slot per cf_status value (CF_OK .. CF_ERR_INTERNAL), then one for any other value. */
#define STATUS_SLOTS (CF_ERR_INTERNAL + 2)
/* Wrong answers printed on stderr before they are only counted. */
#define WRONG_SHOWN 20

static const char *const kind_names[SOAK_KIND_COUNT] = {
    [SOAK_PAGE_JSON] = "page_json",   [SOAK_PAGE_ITEMS] = "page_items",
    [SOAK_FACT] = "fact",             [SOAK_BREED_FIND] = "breed_find",
    [SOAK_QUERY] = "query",           [SOAK_LIST_ITEM] = "list_item",
    [SOAK_LIST_BATCH] = "list_batch", [SOAK_LIST_WAIT] = "list_wait",
    [SOAK_LIST_RETRY] = "list_retry", [SOAK_LIST_OPEN] = "list_open",
    [SOAK_SEARCH] = "search",         [SOAK_METRICS] = "metrics",
    [SOAK_PROMETHEUS] = "prometheus", [SOAK_INTERRUPT] = "interrupt",
    [SOAK_CLIENT_OPEN] = "client_open", [SOAK_CLIENT_CALL] = "client_call",
    [SOAK_CLIENT_CLOSE] = "client_close",
};

static const char *const status_names[STATUS_SLOTS] = {
    "OK", "PENDING", "ARGUMENT", "NETWORK", "TIMEOUT", "HTTP", "RATE_LIMITED",
    "DECODE", "NOT_FOUND", "OFFLINE", "CANCELLED", "INTERNAL", "UNKNOWN",
};

static atomic_long calls[SOAK_KIND_COUNT][STATUS_SLOTS];
static atomic_long wrong[SOAK_KIND_COUNT];
static atomic_long deadlines[SOAK_KIND_COUNT];
static atomic_long wrong_shown;

/* Listener calls, by listener. */
static const char *const listener_names[] = {"metrics", "online", "list", "search"};
#define LISTENERS (sizeof listener_names / sizeof listener_names[0])
static atomic_long listeners[LISTENERS];

static int slot(cf_status s) {
    return (int)s >= CF_OK && (int)s <= CF_ERR_INTERNAL ? (int)s : STATUS_SLOTS - 1;
}

const char *tally_status_name(cf_status s) {
    return status_names[slot(s)];
}

void tally_call(soak_kind kind, cf_status s) {
    /* The message is "the call's deadline of N ms passed ..." when deadline_ms, not one
     * attempt's timeout_ms, ended the call. */
    if (s == CF_ERR_TIMEOUT && strstr(cf_last_error(), "deadline") != NULL) {
        atomic_fetch_add_explicit(&deadlines[kind], 1, memory_order_relaxed);
    }
    atomic_fetch_add_explicit(&calls[kind][slot(s)], 1, memory_order_relaxed);
    /* No call of the driver passes a bad argument, so these are never right: show why. */
    if ((s == CF_ERR_ARGUMENT || slot(s) >= CF_ERR_INTERNAL) &&
        atomic_fetch_add_explicit(&wrong_shown, 1, memory_order_relaxed) < WRONG_SHOWN) {
        fprintf(stderr, "soak_driver: %s returned %s: %s\n", kind_names[kind], cf_status_string(s), cf_last_error());
    }
}

void tally_wrong(soak_kind kind, const char *what) {
    atomic_fetch_add_explicit(&wrong[kind], 1, memory_order_relaxed);
    if (atomic_fetch_add_explicit(&wrong_shown, 1, memory_order_relaxed) < WRONG_SHOWN) {
        fprintf(stderr, "soak_driver: wrong answer from %s: %s\n", kind_names[kind], what);
    }
}

void tally_listener(const char *which) {
    for (size_t i = 0; i < LISTENERS; i++) {
        if (strcmp(which, listener_names[i]) == 0) {
            atomic_fetch_add_explicit(&listeners[i], 1, memory_order_relaxed);
        }
    }
}

void tally_print(FILE *out) {
    for (int k = 0; k < SOAK_KIND_COUNT; k++) {
        for (int s = 0; s < STATUS_SLOTS; s++) {
            long n = atomic_load(&calls[k][s]);
            if (n > 0) fprintf(out, "call %s %s %ld\n", kind_names[k], status_names[s], n);
        }
        fprintf(out, "wrong %s %ld\n", kind_names[k], atomic_load(&wrong[k]));
        fprintf(out, "deadline %s %ld\n", kind_names[k], atomic_load(&deadlines[k]));
    }
    for (size_t i = 0; i < LISTENERS; i++) {
        fprintf(out, "listener %s %ld\n", listener_names[i], atomic_load(&listeners[i]));
    }
}
