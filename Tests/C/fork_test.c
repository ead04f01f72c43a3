/*
 * fork() of a process using the library (catfacts.h, "The process"): in the child a new
 * client works (a page, a list, a search whose debounce is a timer), and a client or list
 * inherited from the parent answers at once with CF_ERR_ARGUMENT saying to open a new
 * client; closing them does nothing harmful. Both with an idle parent and with one whose other threads have calls in flight
 * at the moment of the fork, 5 children each. Every wait is bounded: a child that hangs is
 * killed by its alarm() and counts as a failure, never as a hang of the test.
 */
#include "harness.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHILDREN 5
#define BUSY_THREADS 4

static char url[128];

/* Child exit codes: what went wrong first (0: everything held). */
enum {
    CHILD_OK = 0,
    CHILD_NEW_CLIENT_OPEN = 10,
    CHILD_NEW_CLIENT_CALL = 11,
    CHILD_NEW_LIST = 12,
    CHILD_INHERITED_CLIENT = 13,
    CHILD_INHERITED_LIST = 14,
    CHILD_INHERITED_MESSAGE = 15,
    CHILD_SEARCH = 16,
};

/* A search's answer: its debounce is a timer (Task.sleep), which must fire in a child too. */
static int search_answered;
static void on_answer(void *ctx, int64_t generation, cf_status s, const char *json) {
    (void)ctx; (void)generation; (void)json;
    __atomic_store_n(&search_answered, s == CF_OK ? 1 : -1, __ATOMIC_RELEASE);
}

static int new_client_works(void) {
    cf_client *c = NULL;
    if (cf_client_open(url, "{\"retries\":0}", &c) != CF_OK) {
        fprintf(stderr, "child: cf_client_open: %s\n", cf_last_error());
        return CHILD_NEW_CLIENT_OPEN;
    }
    int result = CHILD_OK;
    cf_breed_page *page = NULL;
    if (cf_breeds_page_items(c, 2, 10, &page) != CF_OK || page->breeds.count != 10) {
        fprintf(stderr, "child: cf_breeds_page_items: %s\n", cf_last_error());
        result = CHILD_NEW_CLIENT_CALL;
    }
    cf_free(page);
    cf_list *l = NULL;
    if (result == CHILD_OK && (cf_list_open(c, CF_FACTS, "{\"page_size\":10}", &l) != CF_OK ||
                               cf_list_wait(l, 12, harness_hang_ms()) != CF_OK)) {
        fprintf(stderr, "child: a new list: %s\n", cf_last_error());
        result = CHILD_NEW_LIST;
    }
    cf_list_close(l);
    cf_search *search = NULL;
    __atomic_store_n(&search_answered, 0, __ATOMIC_RELEASE);
    if (result == CHILD_OK) {
        if (cf_search_open(c, "{\"debounce_ms\":20}", on_answer, NULL, &search) != CF_OK ||
            cf_search_set(search, "be") != CF_OK) {
            result = CHILD_SEARCH;
        } else {
            WAIT_UNTIL(__atomic_load_n(&search_answered, __ATOMIC_ACQUIRE) != 0);
            if (__atomic_load_n(&search_answered, __ATOMIC_ACQUIRE) != 1) result = CHILD_SEARCH;
        }
        if (result == CHILD_SEARCH) fprintf(stderr, "child: a search: %s\n", cf_last_error());
    }
    cf_search_close(search);
    cf_client_close(c);
    return result;
}

/* What the child must find: the inherited handles refused at once, naming the remedy. */
static int inherited_handles_refused(cf_client *inherited, cf_list *inherited_list) {
    char *json = NULL;
    if (cf_breeds_page(inherited, 1, 10, &json) != CF_ERR_ARGUMENT) {
        fprintf(stderr, "child: an inherited client was not refused: %s\n", cf_last_error());
        cf_free(json);
        return CHILD_INHERITED_CLIENT;
    }
    if (strstr(cf_last_error(), "open a new client") == NULL || strstr(cf_last_error(), "fork") == NULL) {
        fprintf(stderr, "child: the message: %s\n", cf_last_error());
        return CHILD_INHERITED_MESSAGE;
    }
    if (inherited_list != NULL && cf_list_wait(inherited_list, 0, harness_hang_ms()) != CF_ERR_ARGUMENT) {
        fprintf(stderr, "child: an inherited list was not refused: %s\n", cf_last_error());
        return CHILD_INHERITED_LIST;
    }
    /* Interrupting and closing them does nothing harmful (and returns). */
    cf_client_interrupt(inherited);
    cf_list_close(inherited_list);
    cf_client_close(inherited);
    return CHILD_OK;
}

static int child(cf_client *inherited, cf_list *inherited_list) {
    /* The bound: a hang ends here, with SIGALRM's default action. */
    alarm((unsigned)(2 * harness_hang_s()) + 1);
    int result = new_client_works();
    if (result == CHILD_OK) result = inherited_handles_refused(inherited, inherited_list);
    /* And a new client again, after the inherited ones were closed. */
    if (result == CHILD_OK) result = new_client_works();
    return result;
}

/*
 * Forks CHILDREN children one after another and checks how each ended. A child writes its
 * result to a pipe and then ends itself with SIGKILL: its exit would run valgrind's leak check
 * (or ASan's) in the child, where every block the parent's threads held is reachable from
 * stacks that did not come along, and so reported lost.
 */
static void fork_children(cf_client *inherited, cf_list *inherited_list, const char *parent) {
    for (int i = 0; i < CHILDREN; i++) {
        int result_pipe[2];
        if (pipe(result_pipe) != 0) { CHECKF(0, "pipe: %s", strerror(errno)); return; }
        fflush(NULL);
        pid_t pid = fork();
        if (pid < 0) { CHECKF(0, "fork: %s", strerror(errno)); return; }
        if (pid == 0) {
            close(result_pipe[0]);
            unsigned char code = (unsigned char)child(inherited, inherited_list);
            ssize_t written = write(result_pipe[1], &code, 1);
            (void)written;
            kill(getpid(), SIGKILL);
            _exit(code);
        }
        close(result_pipe[1]);
        unsigned char code = 0;
        ssize_t n;
        do n = read(result_pipe[0], &code, 1); while (n < 0 && errno == EINTR);
        close(result_pipe[0]);
        int status = 0;
        pid_t ended;
        do ended = waitpid(pid, &status, 0); while (ended < 0 && errno == EINTR);
        CHECKF(ended == pid, "waitpid: %s", strerror(errno));
        if (n == 1) {
            CHECKF(code == CHILD_OK, "%s parent, child %d: ended with %d (a check failed, see above)", parent, i, code);
        } else {
            int signal_number = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
            CHECKF(0, "%s parent, child %d: ended without a result (%s, signal %d)", parent, i,
                   signal_number == SIGALRM ? "hung, killed by its alarm" : "crashed", signal_number);
        }
    }
}

static void with_an_idle_parent(void) {
    cf_client *c = NULL;
    if (CHECK_STATUS(cf_client_open(url, NULL, &c), CF_OK) != CF_OK) return;
    /* The parent has used everything the children inherit: threads, connections, a list. */
    cf_breed_page *page = NULL;
    CHECK_STATUS(cf_breeds_page_items(c, 1, 10, &page), CF_OK);
    cf_free(page);
    cf_list *l = NULL;
    CHECK_STATUS(cf_list_open(c, CF_BREEDS, "{\"page_size\":10}", &l), CF_OK);
    CHECK_STATUS(cf_list_wait(l, 0, harness_hang_ms()), CF_OK);
    fork_children(c, l, "idle");
    /* The parent's own handles are untouched by its children. */
    CHECK_STATUS(cf_list_wait(l, 15, harness_hang_ms()), CF_OK);
    cf_list_close(l);
    cf_client_close(c);
}

struct busy { cf_client *client; int stop; long calls; };

static void *keep_calling(void *arg) {
    struct busy *busy = arg;
    for (long n = 0; !__atomic_load_n(&busy->stop, __ATOMIC_ACQUIRE); n++) {
        char *json = NULL;
        cf_status s = cf_breeds_page(busy->client, 1 + n % 5, 10, &json);
        cf_free(json);
        if (s == CF_OK) __atomic_add_fetch(&busy->calls, 1, __ATOMIC_RELEASE);
    }
    return NULL;
}

/* Calls in flight on other threads of the parent (each waits on the mock's latency). */
static void with_a_busy_parent(void) {
    char slow_url[128];
    REQUIRE_MOCK("--latency-ms 20", slow_url);
    struct busy busy = {NULL, 0, 0};
    if (CHECK_STATUS(cf_client_open(slow_url, "{\"cache_max_bytes\":0}", &busy.client), CF_OK) != CF_OK) { stop_mock(); return; }
    pthread_t threads[BUSY_THREADS];
    for (int i = 0; i < BUSY_THREADS; i++) pthread_create(&threads[i], NULL, keep_calling, &busy);
    WAIT_UNTIL(__atomic_load_n(&busy.calls, __ATOMIC_ACQUIRE) >= BUSY_THREADS);
    fork_children(busy.client, NULL, "busy");
    long before = __atomic_load_n(&busy.calls, __ATOMIC_ACQUIRE);
    /* The parent's calls go on after the forks. */
    WAIT_UNTIL(__atomic_load_n(&busy.calls, __ATOMIC_ACQUIRE) > before + BUSY_THREADS);
    CHECK(__atomic_load_n(&busy.calls, __ATOMIC_ACQUIRE) > before + BUSY_THREADS);
    __atomic_store_n(&busy.stop, 1, __ATOMIC_RELEASE);
    for (int i = 0; i < BUSY_THREADS; i++) pthread_join(threads[i], NULL);
    cf_client_close(busy.client);
    stop_mock();
}

int main(void) {
    if (start_mock(NULL, url) != 0) return 1;
    RUN(with_an_idle_parent);
    RUN(with_a_busy_parent);
    stop_mock();
    return harness_report("fork_test");
}
