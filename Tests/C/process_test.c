/*
 * catfacts.h's "The process" promises, one test each: what the first client leaves behind
 * for the life of the process (threads, descriptors), that none of the library's descriptors
 * survives exec, and that dlclose leaves the library loaded (so nothing it registered
 * points into unmapped code). fork() has fork_test.c.
 *
 * This program is run with "--list-fds" by its own exec test: it then prints the
 * descriptors it was started with, one a line, and exits.
 */
#include "harness.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char url[128];
static const char *self_path;

/* The entries of a /proc folder of this process, but the one reading it. */
static int count_entries(const char *path) {
    DIR *dir = opendir(path);
    if (dir == NULL) return -1;
    int count = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL) {
        if (entry->d_name[0] == '.') continue;
        if (atoi(entry->d_name) == dirfd(dir) && strcmp(path, "/proc/self/fd") == 0) continue;
        count++;
    }
    closedir(dir);
    return count;
}

static int threads(void) { return count_entries("/proc/self/task"); }
static int descriptors(void) { return count_entries("/proc/self/fd"); }

/* Before any client (main calls it first): the process without the library's work. */
static int threads_before, descriptors_before;

/*
 * The header's numbers: what stays once every client is closed and the pool is idle. The
 * interrupt watcher and its pipe; libdispatch's event thread, with its epoll, eventfd and
 * timerfd (the concurrency runtime's timers: the calls below wait on both kinds the library
 * sets, a list's timeout and a retry's delay, which must share it).
 */
#define THREADS_LEFT 2
#define DESCRIPTORS_LEFT 5

/* The descriptors open before the library was first used, "0\n1\n...": an exec'd program
 * may have these, and no other. */
static char descriptors_at_start[512];

static void use_a_client_fully(const char *cache_path) {
    cf_client *c = NULL;
    char options[256];
    snprintf(options, sizeof options, "{\"cache_path\":\"%s\"}", cache_path);
    if (CHECK_STATUS(cf_client_open(url, options, &c), CF_OK) != CF_OK) return;
    char *json = NULL;
    /* The mock's first answer is a 429 with Retry-After: 1 (main), so the first call waits a
     * retry's delay before its second attempt. */
    CHECK_STATUS(cf_breeds_page(c, 1, 10, &json), CF_OK);
    cf_free(json);
    cf_list *l = NULL;
    if (CHECK_STATUS(cf_list_open(c, CF_FACTS, "{\"page_size\":5}", &l), CF_OK) == CF_OK)
        CHECK_STATUS(cf_list_wait(l, 12, harness_hang_ms()), CF_OK);
    cf_client_interrupt(c);
    cf_list_close(l);
    cf_client_close(c);
}

/* Every client closed: what stays is what the header names, and no more (the concurrency
 * pool's threads end once idle: waited for, not timed). */
static void the_first_client_leaves_what_the_header_names(void) {
    char folder[64];
    if (make_temp_folder("process", folder) != 0) return;
    char cache_path[128];
    snprintf(cache_path, sizeof cache_path, "%s/cache.sqlite", folder);
    use_a_client_fully(cache_path);
    WAIT_UNTIL(threads() <= threads_before + THREADS_LEFT);
    CHECKF(threads() == threads_before + THREADS_LEFT, "threads: %d before the first client, %d after the last closed",
           threads_before, threads());
    CHECKF(descriptors() == descriptors_before + DESCRIPTORS_LEFT, "descriptors: %d before, %d after",
           descriptors_before, descriptors());
    /* And a second client's life leaves nothing more. */
    use_a_client_fully(cache_path);
    WAIT_UNTIL(threads() <= threads_before + THREADS_LEFT);
    CHECK_INT_EQ(threads(), threads_before + THREADS_LEFT);
    CHECK_INT_EQ(descriptors(), descriptors_before + DESCRIPTORS_LEFT);
    remove_temp_folder(folder);
}

/* With clients open and calls made, an exec'd program gets none of the library's descriptors. */
static void no_descriptor_of_the_library_survives_exec(void) {
    char folder[64];
    if (make_temp_folder("process-exec", folder) != 0) return;
    char options[256];
    snprintf(options, sizeof options, "{\"cache_path\":\"%s/cache.sqlite\"}", folder);
    cf_client *c = NULL;
    if (CHECK_STATUS(cf_client_open(url, options, &c), CF_OK) != CF_OK) { remove_temp_folder(folder); return; }
    char *json = NULL;
    CHECK_STATUS(cf_breeds_page(c, 2, 10, &json), CF_OK); /* a connection kept open, the file open */
    cf_free(json);
    int out[2];
    if (pipe(out) != 0) { CHECK(!"pipe"); cf_client_close(c); return; }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        alarm((unsigned)harness_hang_s());
        dup2(out[1], 1);
        close(out[0]);
        close(out[1]);
        execl(self_path, self_path, "--list-fds", (char *)NULL);
        _exit(127);
    }
    close(out[1]);
    char listed[512] = {0};
    size_t length = 0;
    ssize_t n;
    while (length < sizeof listed - 1 && (n = read(out[0], listed + length, sizeof listed - 1 - length)) != 0) {
        if (n < 0 && errno == EINTR) continue;
        if (n < 0) break;
        length += (size_t)n;
    }
    close(out[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    CHECK(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    /* Only what the process had before it used the library (the standard three, the
     * harness's pipe to the mock, what the shell that started it left open): nothing of the
     * library's own (its pipe, the cache file and its journal, libdispatch's descriptors),
     * nor of libcurl's (the client's connection, its engine's wake-up socket pair). */
    char *line = listed;
    while (*line != '\0') {
        int fd = atoi(line);
        char entry[16], before[520];
        snprintf(entry, sizeof entry, "\n%d\n", fd);
        snprintf(before, sizeof before, "\n%s", descriptors_at_start);
        struct stat status;
        int socket = fstat(fd, &status) == 0 && S_ISSOCK(status.st_mode);
        CHECKF(strstr(before, entry) != NULL, "descriptor %d survived exec (%s): not the process's before the library was used", fd, socket ? "a socket" : "not a socket");
        line = strchr(line, '\n');
        if (line == NULL) break;
        line++;
    }
    cf_client_close(c);
    remove_temp_folder(folder);
}

/* dlclose leaves the library loaded, and the process goes on working after it (a fork too,
 * whose handlers the library registered). */
static void dlclose_leaves_the_library_loaded(void) {
    const char *directory = getenv("CF_LIB_DIR") ? getenv("CF_LIB_DIR") : ".build/debug";
    char path[512];
    snprintf(path, sizeof path, "%s/libCatFacts.so", directory);
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) { CHECKF(0, "dlopen: %s", dlerror()); return; }
    CHECK_INT_EQ(dlclose(library), 0);
    CHECKF(dlopen(path, RTLD_NOW | RTLD_NOLOAD) != NULL, "after dlclose the library was unloaded");
    /* The library this program links, still working, across a fork. */
    cf_client *c = NULL;
    if (CHECK_STATUS(cf_client_open(url, NULL, &c), CF_OK) != CF_OK) return;
    /* The child answers through a pipe and ends itself with SIGKILL (as in fork_test.c: its
     * exit would run valgrind's leak check, which counts the parent's threads' memory). */
    int answer[2];
    if (pipe(answer) != 0) { CHECK(!"pipe"); cf_client_close(c); return; }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        alarm((unsigned)harness_hang_s());
        cf_client *fresh = NULL;
        char *json = NULL;
        char ok = cf_client_open(url, NULL, &fresh) == CF_OK && cf_fact_random(fresh, 0, &json) == CF_OK;
        ssize_t written = write(answer[1], &ok, 1);
        (void)written;
        kill(getpid(), SIGKILL);
        _exit(0);
    }
    close(answer[1]);
    char ok = 0;
    ssize_t n;
    do n = read(answer[0], &ok, 1); while (n < 0 && errno == EINTR);
    close(answer[0]);
    int status = 0;
    waitpid(pid, &status, 0);
    CHECKF(n == 1 && ok, "the child after dlclose: %s", n == 1 ? "its client failed" : "no answer (hung or crashed)");
    cf_client_close(c);
}

/* This process's descriptors, sorted, one a line, into text; those marked close-on-exec
 * left out with skip_cloexec (what an exec'd program would get). */
static void list_descriptors(char text[static 512], int skip_cloexec) {
    text[0] = '\0';
    DIR *dir = opendir("/proc/self/fd");
    if (dir == NULL) return;
    int seen[64], count = 0;
    struct dirent *entry;
    while ((entry = readdir(dir)) != NULL && count < 64) {
        int fd = atoi(entry->d_name);
        if (entry->d_name[0] == '.' || fd == dirfd(dir)) continue;
        if (skip_cloexec && (fcntl(fd, F_GETFD) & FD_CLOEXEC)) continue;
        seen[count++] = fd;
    }
    closedir(dir);
    for (int i = 0; i < count; i++)
        for (int j = i + 1; j < count; j++)
            if (seen[j] < seen[i]) { int t = seen[i]; seen[i] = seen[j]; seen[j] = t; }
    size_t used = 0;
    for (int i = 0; i < count && used < 500; i++) used += (size_t)snprintf(text + used, 512 - used, "%d\n", seen[i]);
}

int main(int argc, char **argv) {
    if (argc > 1 && strcmp(argv[1], "--list-fds") == 0) {
        char text[512];
        list_descriptors(text, 0);
        fputs(text, stdout);
        return 0;
    }
    self_path = argv[0];
    if (start_mock("--fail-first 1 --faults 429 --retry-after 1", url) != 0) return 1;
    threads_before = threads();
    descriptors_before = descriptors();
    list_descriptors(descriptors_at_start, 1);
    RUN(the_first_client_leaves_what_the_header_names);
    RUN(no_descriptor_of_the_library_survives_exec);
    RUN(dlclose_leaves_the_library_loaded);
    stop_mock();
    return harness_report("process_test");
}
