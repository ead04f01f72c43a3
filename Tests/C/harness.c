/* harness.c - see harness.h. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* unshare(2) */
#endif
#include "harness.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* ---- counting checks ---- */

static int passed_count, failed_count;

int harness_count(int ok) {
    __atomic_fetch_add(ok ? &passed_count : &failed_count, 1, __ATOMIC_RELAXED);
    return ok;
}

cf_status harness_check_status(cf_status actual, cf_status expected, const char *substring,
                               int must_have_message, const char *call, const char *file, int line) {
    /* Copy the message first: it is valid only until this thread's next cf_ call. */
    char message[1024];
    const char *last = cf_last_error();
    snprintf(message, sizeof message, "%s", last ? last : "(null)");
    int ok = actual == expected;
    if (!harness_count(ok)) {
        fprintf(stderr, "%s:%d: %s returned %s, expected %s (last error: \"%s\")\n", file, line, call,
                cf_status_string(actual), cf_status_string(expected), message);
        return actual;
    }
    if (!must_have_message) return actual;
    if (!harness_count(last != NULL && message[0] != '\0')) {
        fprintf(stderr, "%s:%d: %s failed with %s but cf_last_error() is empty\n", file, line, call,
                cf_status_string(actual));
    } else if (substring != NULL && !harness_count(strstr(message, substring) != NULL)) {
        fprintf(stderr, "%s:%d: %s: the message \"%s\" does not contain \"%s\"\n", file, line, call,
                message, substring);
    }
    return actual;
}

int harness_report(const char *name) {
    int passed = __atomic_load_n(&passed_count, __ATOMIC_RELAXED);
    int failed = __atomic_load_n(&failed_count, __ATOMIC_RELAXED);
    printf("%s: %d passed, %d failed\n", name, passed, failed);
    fflush(stdout);
    return failed == 0 ? 0 : 1;
}

void harness_run(const char *name, void (*test)(void)) {
    int verbose = getenv("CF_TEST_VERBOSE") != NULL && getenv("CF_TEST_VERBOSE")[0] != '\0';
    int failed_before = __atomic_load_n(&failed_count, __ATOMIC_RELAXED);
    double start = now_seconds();
    if (verbose) fprintf(stderr, "  %s ...\n", name);
    test();
    int failed_now = __atomic_load_n(&failed_count, __ATOMIC_RELAXED) - failed_before;
    if (verbose || failed_now > 0) {
        fprintf(stderr, "  %s: %s (%.2f s)\n", name, failed_now == 0 ? "ok" : "FAILED", now_seconds() - start);
    }
}

/* ---- time ---- */

double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

void sleep_ms(long ms) {
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&t, &t) != 0 && errno == EINTR) {}
}

double harness_slowdown(void) {
    const char *text = getenv("CF_TEST_SLOWDOWN");
    double factor = text ? atof(text) : 1.0;
    return factor >= 1.0 ? factor : 1.0;
}

double harness_hang_s(void) {
    return 20.0 * harness_slowdown();
}

int64_t harness_hang_ms(void) {
    return (int64_t)(harness_hang_s() * 1000);
}

/* ---- the mock server ---- */

#define MAX_MOCKS 4
#define MAX_ARGS 64

static struct { pid_t pid; int fd; } mocks[MAX_MOCKS];
static int mock_count;
static int cleanup_registered;

static void stop_all_mocks(void) {
    while (mock_count > 0) stop_mock();
}

/* Splits a copy of flags on blanks into argv[first...]; returns the new argc or -1 when too many. */
static int split_flags(char *copy, char **argv, int first) {
    int argc = first;
    for (char *word = strtok(copy, " \t\n"); word != NULL; word = strtok(NULL, " \t\n")) {
        if (argc >= MAX_ARGS - 3) return -1;
        argv[argc++] = word;
    }
    return argc;
}

pid_t start_child(const char *what, char *const argv[], int *out_fd) {
    int fds[2];
    if (pipe(fds) != 0) {
        fprintf(stderr, "%s: pipe: %s\n", what, strerror(errno));
        return -1;
    }
    fflush(NULL);
    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "%s: fork: %s\n", what, strerror(errno));
        close(fds[0]);
        close(fds[1]);
        return -1;
    }
    if (pid == 0) {
        /* The child: stdout to the pipe, stdin from /dev/null, stderr shared; dies with the test. */
        prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (getppid() != parent) _exit(126);
        dup2(fds[1], STDOUT_FILENO);
        close(fds[0]);
        close(fds[1]);
        int null = open("/dev/null", O_RDONLY);
        if (null >= 0) {
            dup2(null, STDIN_FILENO);
            close(null);
        }
        execvp(argv[0], argv);
        fprintf(stderr, "%s: cannot run %s: %s\n", what, argv[0], strerror(errno));
        _exit(127);
    }
    close(fds[1]);
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    *out_fd = fds[0];
    return pid;
}

const char *read_lines(int fd, int count, double deadline, char *text, size_t size) {
    size_t used = 0;
    text[0] = '\0';
    while (1) {
        int lines = 0;
        for (const char *c = text; *c; c++) lines += *c == '\n';
        if (lines >= count) return NULL;
        if (used == size - 1) return "its first lines are too long";
        double left = deadline - now_seconds();
        if (left <= 0) return "it printed too few lines in time";
        struct pollfd p = {fd, POLLIN, 0};
        int ready = poll(&p, 1, (int)(left * 1000) + 1);
        if (ready <= 0) continue;
        ssize_t got = read(fd, text + used, size - 1 - used);
        if (got < 0 && errno == EINTR) continue;
        if (got <= 0) return "it exited before it was listening (see its message above)";
        used += (size_t)got;
        text[used] = '\0';
    }
}

const char *enter_mount_namespace(const char *root_for) {
    static char reason[200];
    if (geteuid() != 0) {
        snprintf(reason, sizeof reason, "not root (%s needs root)", root_for);
        return reason;
    }
    int threads = 0;
    DIR *tasks = opendir("/proc/self/task");
    for (struct dirent *entry; tasks != NULL && (entry = readdir(tasks)) != NULL;) threads += entry->d_name[0] != '.';
    if (tasks != NULL) closedir(tasks);
    if (threads != 1) {
        /* unshare would move this thread alone: the library's threads would not see the mounts. */
        snprintf(reason, sizeof reason, "the process has %d threads before main's first call, not 1", threads);
        return reason;
    }
    /* ("none" where the kernel ignores the source or type: valgrind checks every pointer
     * mount(2) is given.) */
    if (unshare(CLONE_NEWNS) != 0 || mount("none", "/", "none", MS_REC | MS_PRIVATE, NULL) != 0) {
        snprintf(reason, sizeof reason, "no private mount namespace: %s", strerror(errno));
        return reason;
    }
    return NULL;
}

int start_mock(const char *flags, char url[static 128]) {
    url[0] = '\0';
    if (mock_count == MAX_MOCKS) {
        fprintf(stderr, "start_mock: %d mocks are running already; stop one first\n", MAX_MOCKS);
        return -1;
    }
    const char *path = getenv("CATFACTS_MOCK");
    if (path == NULL || path[0] == '\0') path = ".build/debug/catfacts-mock";
    if (access(path, X_OK) != 0) {
        fprintf(stderr, "start_mock: %s is not an executable (%s); build it with "
                "`swift build --product catfacts-mock` or set CATFACTS_MOCK\n", path, strerror(errno));
        return -1;
    }
    char copy[1024];
    snprintf(copy, sizeof copy, "%s", flags ? flags : "");
    char *argv[MAX_ARGS];
    argv[0] = (char *)path;
    int argc = split_flags(copy, argv, 1);
    if (argc < 0) {
        fprintf(stderr, "start_mock: too many flags in \"%s\"\n", flags);
        return -1;
    }
    if (flags == NULL || strstr(flags, "--port") == NULL) {
        argv[argc++] = "--port";
        argv[argc++] = "0";
    }
    argv[argc] = NULL;

    int fd = -1;
    pid_t pid = start_child("start_mock", argv, &fd);
    if (pid < 0) return -1;
    if (!cleanup_registered) {
        atexit(stop_all_mocks);
        cleanup_registered = 1;
    }

    /* Read the first line, "listening on http://127.0.0.1:PORT", within the deadline. */
    char line[256];
    const char *why = read_lines(fd, 1, now_seconds() + 20.0 * harness_slowdown(), line, sizeof line);
    if (why == NULL) {
        *strchr(line, '\n') = '\0';
        const char *prefix = "listening on ";
        if (strncmp(line, prefix, strlen(prefix)) != 0 || strlen(line + strlen(prefix)) >= 128) {
            why = "its first line is not \"listening on URL\"";
        } else {
            snprintf(url, 128, "%s", line + strlen(prefix));
        }
    }
    if (why != NULL) {
        fprintf(stderr, "start_mock: %s %s: %s (output so far: \"%s\")\n", path, flags ? flags : "", why, line);
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        close(fd);
        url[0] = '\0';
        return -1;
    }
    mocks[mock_count].pid = pid;
    mocks[mock_count].fd = fd; /* kept open so a later write cannot SIGPIPE the mock */
    mock_count++;
    return 0;
}

void stop_mock(void) {
    if (mock_count == 0) return;
    mock_count--;
    pid_t pid = mocks[mock_count].pid;
    kill(pid, SIGTERM);
    double deadline = now_seconds() + 5.0 * harness_slowdown();
    int status = 0;
    pid_t done;
    while ((done = waitpid(pid, &status, WNOHANG)) == 0 && now_seconds() < deadline) sleep_ms(10);
    if (done == 0) {
        fprintf(stderr, "stop_mock: the mock (pid %d) ignored SIGTERM for 5 s; killing it\n", (int)pid);
        kill(pid, SIGKILL);
        waitpid(pid, &status, 0);
    }
    close(mocks[mock_count].fd);
}

void kill_mock(void) {
    if (mock_count == 0) return;
    mock_count--;
    kill(mocks[mock_count].pid, SIGKILL);
    waitpid(mocks[mock_count].pid, NULL, 0);
    close(mocks[mock_count].fd);
}

void closed_port_url(char url[static 128]) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in address;
    memset(&address, 0, sizeof address);
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    socklen_t length = sizeof address;
    int port = 9; /* discard: closed on any sane test machine, if the socket calls fail */
    if (s >= 0 && bind(s, (struct sockaddr *)&address, sizeof address) == 0 &&
        getsockname(s, (struct sockaddr *)&address, &length) == 0) {
        port = ntohs(address.sin_port);
        /* Kept open, bound but never listening: connections are refused, and no other
         * process (tests run side by side) can take the port, as it could once closed. */
        fcntl(s, F_SETFD, FD_CLOEXEC);
    } else if (s >= 0) {
        close(s);
    }
    snprintf(url, 128, "http://127.0.0.1:%d", port);
}

/* ---- JSON ---- */

json_t *parse_json(const char *text, const char *file, int line) {
    if (text == NULL) {
        harness_count(0);
        fprintf(stderr, "%s:%d: expected JSON, got NULL\n", file, line);
        return NULL;
    }
    json_error_t error;
    json_t *value = json_loads(text, JSON_REJECT_DUPLICATES, &error);
    if (!harness_count(value != NULL)) {
        fprintf(stderr, "%s:%d: not JSON (%s at %d): %.300s\n", file, line, error.text, error.position, text);
    }
    return value;
}

const char *json_get_str(const json_t *obj, const char *key) {
    json_t *value = json_object_get(obj, key);
    return json_is_string(value) ? json_string_value(value) : NULL;
}

long long json_get_int(const json_t *obj, const char *key, long long otherwise) {
    json_t *value = json_object_get(obj, key);
    return json_is_integer(value) ? (long long)json_integer_value(value) : otherwise;
}

json_t *metrics_endpoint(const json_t *metrics, const char *endpoint) {
    json_t *endpoints = json_object_get(metrics, "endpoints");
    size_t i;
    json_t *entry;
    json_array_foreach(endpoints, i, entry) {
        const char *name = json_get_str(entry, "endpoint");
        if (name != NULL && strcmp(name, endpoint) == 0) return entry;
    }
    return NULL;
}

long long client_metric(cf_client *c, const char *endpoint, const char *key) {
    char *text = NULL;
    if (cf_metrics(c, &text) != CF_OK) return -1;
    json_t *metrics = json_loads(text, 0, NULL);
    cf_free(text);
    long long value = json_get_int(metrics_endpoint(metrics, endpoint), key, -1);
    json_decref(metrics);
    return value;
}

long long client_total_requests(cf_client *c) {
    char *text = NULL;
    if (cf_metrics(c, &text) != CF_OK) return -1;
    json_t *metrics = json_loads(text, 0, NULL);
    cf_free(text);
    json_t *endpoints = json_object_get(metrics, "endpoints");
    long long total = json_is_array(endpoints) ? 0 : -1;
    size_t i;
    json_t *entry;
    json_array_foreach(endpoints, i, entry) {
        long long requests = json_get_int(entry, "requests", -1);
        if (requests < 0) { total = -1; break; }
        total += requests;
    }
    json_decref(metrics);
    return total;
}

/* ---- text ---- */

static int ascii_lower(char c) {
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

int contains_ci(const char *haystack, const char *needle) {
    if (haystack == NULL || needle == NULL) return 0;
    size_t n = strlen(needle);
    for (const char *p = haystack;; p++) {
        size_t i = 0;
        while (i < n && p[i] != '\0' && ascii_lower(p[i]) == ascii_lower(needle[i])) i++;
        if (i == n) return 1;
        if (*p == '\0') return 0;
    }
}

long long utf8_length(const char *text) {
    const unsigned char *p = (const unsigned char *)text;
    long long count = 0;
    while (*p) {
        int extra = *p < 0x80 ? 0 : (*p >> 5) == 0x6 ? 1 : (*p >> 4) == 0xE ? 2 : (*p >> 3) == 0x1E ? 3 : -1;
        if (extra < 0) return -1;
        p++;
        for (int i = 0; i < extra; i++, p++) {
            if ((*p & 0xC0) != 0x80) return -1;
        }
        count++;
    }
    return count;
}

static int digits(const char *p, int n) {
    for (int i = 0; i < n; i++) {
        if (p[i] < '0' || p[i] > '9') return 0;
    }
    return 1;
}

int is_rfc3339(const char *t) {
    if (t == NULL || strlen(t) < 20) return 0;
    if (!digits(t, 4) || t[4] != '-' || !digits(t + 5, 2) || t[7] != '-' || !digits(t + 8, 2) ||
        (t[10] != 'T' && t[10] != 't') || !digits(t + 11, 2) || t[13] != ':' || !digits(t + 14, 2) ||
        t[16] != ':' || !digits(t + 17, 2)) {
        return 0;
    }
    const char *p = t + 19;
    if (*p == '.') {
        p++;
        if (!digits(p, 1)) return 0;
        while (*p >= '0' && *p <= '9') p++;
    }
    if ((*p == 'Z' || *p == 'z') && p[1] == '\0') return 1;
    return (*p == '+' || *p == '-') && digits(p + 1, 2) && p[3] == ':' && digits(p + 4, 2) && p[6] == '\0';
}

/* ---- files ---- */

int make_temp_folder(const char *name, char folder[static 64]) {
    snprintf(folder, 64, "/tmp/cf-%s-XXXXXX", name);
    if (mkdtemp(folder) == NULL) {
        harness_count(0);
        fprintf(stderr, "cannot create a temporary folder %s: %s\n", folder, strerror(errno));
        return -1;
    }
    return 0;
}

void remove_temp_folder(const char *folder) {
    char command[128];
    snprintf(command, sizeof command, "rm -rf '%s'", folder);
    if (system(command) != 0) fprintf(stderr, "could not remove %s\n", folder);
}
