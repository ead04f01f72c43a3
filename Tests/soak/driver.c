/*
 * driver.c - the C side of `make soak`: one client, shared by 8 worker threads making calls
 * of every kind (calls.c) and an interrupter thread, for a given time; beside it 20 more
 * clients, each opened, used, closed and opened again all through the run by a churn
 * threads (10 clients each), exporting spans and metrics to OTLP_URL when given (a collector
 * the orchestrator kills and restarts).
 *
 *   soak_driver BASE_URL CACHE_PATH SECONDS SEED [OTLP_URL]
 *
 * Talks to Tests/soak/soak.py on stdin and stdout, so that the orchestrator measures the
 * process at the same points every run:
 *   "ready"   the client and the shared lists are open and the threads run;
 *   "heap N"  malloc's bytes in use, in kB (every arena: what the process holds, without
 *             the pages malloc keeps free), answering "collect" on stdin (then "collected"),
 *             and again just before "quiet";
 *   "quiet"   the time is up and every thread has returned; the client is still open, and
 *             so are the 20 churning clients (all of them, so that each sample before
 *             and this one count about as many).
 *             The driver then waits for "go" on stdin (or its end) before it closes.
 *   then "metrics JSON" (cf_metrics), the counters (tally.h's lines), "fds_before_open N
 *   (S sockets)", "fds_after_close N (S sockets) M ms after the last close" (once its sockets
 *   are down to their number before the first open, or 10 s), "fds_added FD=WHAT …" (those
 *   not open before the first open), "end".
 * Exit status 0 once it has reported, whatever it counted: the orchestrator judges.
 */
#define _POSIX_C_SOURCE 200809L
#include "calls.h"
#include "tally.h"

#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <malloc.h>
#include <time.h>
#include <unistd.h>

#define WORKERS 8
#define CHURN_CLIENTS 20
#define CHURNERS 2

/* The churning clients' options: no cache file (the shared one is the main client's), the
 * same deadlines, and export to the collector when there is one. */
static char churn_options[2048];
static cf_client *churn[CHURN_CLIENTS];

static struct soak_shared shared;
static struct timespec stop_at;

static int time_is_up(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec > stop_at.tv_sec || (now.tv_sec == stop_at.tv_sec && now.tv_nsec >= stop_at.tv_nsec);
}

/* Pauses ms milliseconds: pacing between calls, so the soak is steady traffic rather than a
 * benchmark on the 2 cores the mock shares (nothing is checked after it). */
static void pause_ms(uint64_t ms) {
    struct timespec pause = {.tv_sec = (time_t)(ms / 1000), .tv_nsec = (long)(ms % 1000) * 1000000L};
    nanosleep(&pause, NULL);
}

/* The descriptors open before the first cf_client_open (numbers below FD_MARKS). */
#define FD_MARKS 1024
static unsigned char open_before[FD_MARKS];

/* Open file descriptors of this process (the directory's own descriptor left out, and any
 * closed between the listing and its reading), and how many of them are sockets. With
 * `marks`, marks each one open there; with `added` (of `size` bytes), writes each one not
 * marked in `open_before` as " FD=WHAT" (" 7=pipe:[…]"). */
static int open_fds(int *sockets, unsigned char *marks, char *added, size_t size) {
    DIR *dir = opendir("/proc/self/fd");
    if (dir == NULL) return -1;
    int n = 0;
    *sockets = 0;
    if (added != NULL && size > 0) added[0] = '\0';
    for (struct dirent *entry; (entry = readdir(dir)) != NULL;) {
        if (entry->d_name[0] == '.') continue;
        char target[64];
        ssize_t length = readlinkat(dirfd(dir), entry->d_name, target, sizeof target - 1);
        /* Closed since the listing (a connection closing on another thread): not open, and
         * not counted, or the socket it was would pass for a descriptor of another kind. */
        if (length < 0) continue;
        target[length] = '\0';
        if (strncmp(target, "socket:", 7) == 0) (*sockets)++;
        int fd = atoi(entry->d_name);
        if (fd != dirfd(dir) && fd >= 0 && fd < FD_MARKS) {
            if (marks != NULL) marks[fd] = 1;
            if (added != NULL && !open_before[fd]) {
                size_t used = strlen(added);
                snprintf(added + used, size - used, " %d=%s", fd, target);
            }
        }
        n++;
    }
    closedir(dir);
    return n - 1;
}

static void heard_request(void *ctx, const char *endpoint, double ms, cf_status s) {
    (void)ctx; (void)endpoint; (void)ms; (void)s;
    tally_listener("metrics");
}

static void heard_online(void *ctx, int online) {
    (void)ctx; (void)online;
    tally_listener("online");
}

static void *work(void *arg) {
    struct soak_worker *w = arg;
    while (!time_is_up()) {
        soak_call(w);
        pause_ms(soak_random(&w->random, 10));
    }
    return NULL;
}

/* cf_client_interrupt from a thread of its own, every 0.2 to 1.5 s: whatever calls are under
 * way on the client then return CF_ERR_CANCELLED, whichever worker made them. */
static void *interrupt_now_and_then(void *arg) {
    uint64_t random = *(uint64_t *)arg;
    while (!time_is_up()) {
        pause_ms(200 + soak_random(&random, 1300));
        cf_client_interrupt(shared.client);
        tally_call(SOAK_INTERRUPT, CF_OK);
    }
    return NULL;
}

/* malloc's bytes in use, in kB: small blocks in every arena and the large ones it mapped. */
static size_t heap_kb(void) {
    struct mallinfo2 info = mallinfo2();
    return (info.uordblks + info.hblkhd) / 1024;
}

/* soak.py's lines: "collect" before each sample (answered with the heap), "go" or the end of
 * stdin once the driver said "quiet". */
static pthread_mutex_t go_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t go_cond = PTHREAD_COND_INITIALIZER;
static int go_said;

static void *obey(void *arg) {
    (void)arg;
    char line[64];
    while (fgets(line, sizeof line, stdin) != NULL) {
        if (strncmp(line, "collect", 7) == 0) {
            printf("heap %zu\ncollected\n", heap_kb());
            fflush(stdout);
        } else if (strncmp(line, "go", 2) == 0) {
            break;
        }
    }
    pthread_mutex_lock(&go_lock);
    go_said = 1;
    pthread_cond_signal(&go_cond);
    pthread_mutex_unlock(&go_lock);
    return NULL;
}

static void churn_open(int slot) {
    cf_status s = cf_client_open(shared.base_url, churn_options, &churn[slot]);
    tally_call(SOAK_CLIENT_OPEN, s);
    if (s != CF_OK) {
        churn[slot] = NULL;
        fprintf(stderr, "soak_driver: cf_client_open (churn): %s\n", cf_last_error());
    }
}

struct churner {
    int first_slot;
    uint64_t random;
};

/* One churn thread's 10 clients: each turn picks one, which makes a call (3 times in 4) or
 * is closed and opened again at once (so that about as many are open at every sample, and
 * threads and fds can be compared); one that failed to open is tried again. */
static void *churn_clients(void *arg) {
    struct churner *churner = arg;
    uint64_t random = churner->random;
    int slots = CHURN_CLIENTS / CHURNERS;
    for (int i = 0; i < slots; i++) churn_open(churner->first_slot + i);
    while (!time_is_up()) {
        int slot = churner->first_slot + (int)soak_random(&random, (uint64_t)slots);
        if (churn[slot] == NULL) {
            churn_open(slot);
        } else if (soak_random(&random, 4) == 0) {
            cf_client_close(churn[slot]);
            churn[slot] = NULL;
            tally_call(SOAK_CLIENT_CLOSE, CF_OK);
            churn_open(slot);
        } else {
            char *json = NULL;
            cf_status s = soak_random(&random, 2) == 0
                ? cf_breeds_page(churn[slot], 1 + (int64_t)soak_random(&random, 50), 20, &json)
                : cf_fact_random(churn[slot], 0, &json);
            tally_call(SOAK_CLIENT_CALL, s);
            cf_free(json);
        }
        pause_ms(soak_random(&random, 10));
    }
    for (int i = 0; i < slots; i++) if (churn[churner->first_slot + i] == NULL) churn_open(churner->first_slot + i);
    return NULL;
}

static cf_list *open_list(cf_collection what, const char *options) {
    cf_list *l = NULL;
    if (cf_list_open(shared.client, what, options, &l) != CF_OK) {
        fprintf(stderr, "soak_driver: cf_list_open: %s\n", cf_last_error());
        exit(2);
    }
    cf_list_set_listener(l, soak_list_listener, NULL);
    return l;
}

int main(int argc, char **argv) {
    if (argc != 5 && argc != 6) {
        fprintf(stderr, "usage: soak_driver BASE_URL CACHE_PATH SECONDS SEED [OTLP_URL]\n");
        return 2;
    }
    shared.base_url = argv[1];
    int seconds = atoi(argv[3]);
    uint64_t seed = strtoull(argv[4], NULL, 10);
    int sockets_before_open;
    int fds_before_open = open_fds(&sockets_before_open, open_before, NULL, 0);

    /* A deadline that a slow body (the mock's --slow-ms 1200) after a Retry-After wait
     * (--retry-after 1), or two such waits, pass: deadlines are hit now and then, not
     * always; one attempt alone, a slow body included, fits in timeout_ms. A small cache
     * file, so pages are evicted, and a short TTL, so they are revalidated (304s) too. */
    char options[1024];
    snprintf(options, sizeof options,
             "{\"cache_path\":\"%s\",\"cache_max_bytes\":1048576,\"cache_ttl_ms\":2000,"
             "\"deadline_ms\":1500,\"timeout_ms\":1400,\"retries\":2}", argv[2]);
    if (cf_client_open(argv[1], options, &shared.client) != CF_OK) {
        fprintf(stderr, "soak_driver: cf_client_open: %s\n", cf_last_error());
        return 2;
    }
    /* otlp_endpoint "" turns export off whatever the environment says. */
    snprintf(churn_options, sizeof churn_options,
             "{\"deadline_ms\":1500,\"timeout_ms\":1400,\"retries\":2,\"otlp_endpoint\":\"%s\"}",
             argc == 6 ? argv[5] : "");
    cf_client_set_metrics_listener(shared.client, heard_request, NULL);
    cf_client_set_online_listener(shared.client, heard_online, NULL);
    /* Small windows over long lists: pages load, drop and load again all the time. */
    shared.breeds = open_list(CF_BREEDS, "{\"page_size\":20,\"prefetch_distance\":20,\"max_cached_items\":100}");
    shared.facts = open_list(CF_FACTS, "{\"page_size\":50,\"prefetch_distance\":50,\"max_cached_items\":300}");

    clock_gettime(CLOCK_MONOTONIC, &stop_at);
    stop_at.tv_sec += seconds;
    static struct soak_worker workers[WORKERS];
    pthread_t threads[WORKERS], interrupter, churn_threads[CHURNERS];
    for (int i = 0; i < WORKERS; i++) {
        workers[i].shared = &shared;
        workers[i].random = seed * 2654435761u + (uint64_t)i * 0x9E3779B97F4A7C15ULL + 1;
        pthread_create(&threads[i], NULL, work, &workers[i]);
    }
    uint64_t interrupter_seed = seed ^ 0xD1B54A32D192ED03ULL;
    pthread_create(&interrupter, NULL, interrupt_now_and_then, &interrupter_seed);
    static struct churner churners[CHURNERS];
    for (int i = 0; i < CHURNERS; i++) {
        churners[i] = (struct churner){i * (CHURN_CLIENTS / CHURNERS), (seed ^ 0x94D049BB133111EBULL) + (uint64_t)i};
        pthread_create(&churn_threads[i], NULL, churn_clients, &churners[i]);
    }
    pthread_t listener;
    pthread_create(&listener, NULL, obey, NULL);
    printf("ready\n");
    fflush(stdout);

    for (int i = 0; i < WORKERS; i++) pthread_join(threads[i], NULL);
    pthread_join(interrupter, NULL);
    for (int i = 0; i < CHURNERS; i++) pthread_join(churn_threads[i], NULL);
    printf("heap %zu\nquiet\n", heap_kb());
    fflush(stdout);
    pthread_mutex_lock(&go_lock);
    while (!go_said) pthread_cond_wait(&go_cond, &go_lock);
    pthread_mutex_unlock(&go_lock);
    pthread_join(listener, NULL);
    /* The client's own account of the run: requests, errors and retries per endpoint. */
    char *metrics = NULL;
    if (cf_metrics(shared.client, &metrics) == CF_OK) printf("metrics %s\n", metrics);
    cf_free(metrics);

    cf_list_close(shared.breeds);
    cf_list_close(shared.facts);
    cf_client_close(shared.client);
    for (int slot = 0; slot < CHURN_CLIENTS; slot++) if (churn[slot] != NULL) cf_client_close(churn[slot]);
    for (int i = 0; i < WORKERS; i++) soak_worker_free(&workers[i]);
    tally_print(stdout);
    /* The shared exporter sends its last batch after the last close (within its bound of 2
     * s) and connections close as their transfers end: counted once the sockets are down to
     * their number before the first open, or after 10 s. */
    int sockets_after_close, waited_ms = 0;
    static char added[4096];
    int fds_after_close = open_fds(&sockets_after_close, NULL, added, sizeof added);
    for (; sockets_after_close > sockets_before_open && waited_ms < 10000; waited_ms += 20) {
        pause_ms(20);
        fds_after_close = open_fds(&sockets_after_close, NULL, added, sizeof added);
    }
    printf("fds_before_open %d (%d sockets)\nfds_after_close %d (%d sockets) %d ms after the last close\n"
           "fds_added%s\nend\n", fds_before_open, sockets_before_open, fds_after_close, sockets_after_close,
           waited_ms, added);
    fflush(stdout);
    return 0;
}
