/*
 * tally.h - what the soak driver counts: calls per kind and status, answers that were
 * wrong, deadlines that passed. Every counter is atomic: the eight worker threads, the
 * interrupter and the library's listener threads all count at once.
 */
#ifndef SOAK_TALLY_H
#define SOAK_TALLY_H

#include <catfacts.h>
#include <stdio.h>

/* The kinds of call the driver makes; names in tally.c (the soak's table uses them). */
typedef enum soak_kind {
    SOAK_PAGE_JSON,     /* cf_breeds_page, cf_facts_page */
    SOAK_PAGE_ITEMS,    /* cf_breeds_page_items */
    SOAK_FACT,          /* cf_fact_random */
    SOAK_BREED_FIND,    /* cf_breed_find */
    SOAK_QUERY,         /* cf_breeds_query */
    SOAK_LIST_ITEM,     /* cf_list_breed, cf_list_fact on a shared list */
    SOAK_LIST_BATCH,    /* cf_list_breeds, cf_list_facts on a shared list */
    SOAK_LIST_WAIT,     /* cf_list_wait on a shared list */
    SOAK_LIST_RETRY,    /* cf_list_retry after a failed item */
    SOAK_LIST_OPEN,     /* a list opened, waited on and closed while it may be loading */
    SOAK_SEARCH,        /* a cf_search session: the answer to its last text */
    SOAK_METRICS,       /* cf_metrics */
    SOAK_PROMETHEUS,    /* cf_metrics_prometheus */
    SOAK_INTERRUPT,     /* cf_client_interrupt from the interrupter thread */
    SOAK_CLIENT_OPEN,   /* cf_client_open of one of the 20 churning clients */
    SOAK_CLIENT_CALL,   /* a call on one of them (cf_breeds_page or cf_fact_random) */
    SOAK_CLIENT_CLOSE,  /* cf_client_close of one of them (reopened later) */
    SOAK_KIND_COUNT
} soak_kind;

/* Counts one call of kind that returned s; a CF_ERR_TIMEOUT whose message says the call's
 * deadline passed also counts as a deadline hit. Reads cf_last_error(): call it right after
 * the call, before any other cf_ call on this thread. */
void tally_call(soak_kind kind, cf_status s);

/* Counts an answer of kind that was wrong (a status other than the documented ones is not
 * this: it is counted by status); prints the first few with what was wrong. */
void tally_wrong(soak_kind kind, const char *what);

/* Counts a listener call: which listener ("metrics", "online", "list", "search"). */
void tally_listener(const char *which);

/* Writes every counter as lines the soak's orchestrator reads:
 *   call KIND STATUS N      (STATUS: OK, PENDING, NETWORK, ... as cf_status without "CF_ERR_")
 *   wrong KIND N
 *   deadline KIND N
 *   listener WHICH N */
void tally_print(FILE *out);

/* The name of a status as the soak's tables write it: "OK", "NETWORK", ...; "UNKNOWN" else. */
const char *tally_status_name(cf_status s);

#endif
