/*
 * calls.h - one call of the soak: a kind drawn at random, made on the shared client or
 * lists, its status counted and its answer checked (tally.h).
 */
#ifndef SOAK_CALLS_H
#define SOAK_CALLS_H

#include <catfacts.h>
#include <stdint.h>

/* What every worker thread shares: one client and two lists opened on it. */
struct soak_shared {
    const char *base_url;
    cf_client *client;
    cf_list *breeds;
    cf_list *facts;
};

/* Breed names a worker has seen in pages, for cf_breed_find. */
#define SOAK_NAMES 32

/* One worker's state: its random generator and the names it has seen. */
struct soak_worker {
    const struct soak_shared *shared;
    uint64_t random;
    char *names[SOAK_NAMES];
    int name_count;
};

/* Makes one call of a kind drawn at random, counts it and checks its answer. */
void soak_call(struct soak_worker *w);

/* Frees what the worker kept (the names). */
void soak_worker_free(struct soak_worker *w);

/* A random number in [0, bound) from the worker's generator (xorshift64*). */
uint64_t soak_random(uint64_t *state, uint64_t bound);

/* The list listener the driver sets on every list: it counts events. */
void soak_list_listener(void *ctx, cf_event event, int64_t first, int64_t count);

#endif
