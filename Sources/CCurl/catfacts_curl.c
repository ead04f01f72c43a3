/* See include/catfacts_curl.h. */
#define _GNU_SOURCE /* dladdr */
#include "catfacts_curl.h"

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <limits.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The libcurl functions used, resolved once by load(). */
static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *);
    CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
    CURLMcode (*multi_add_handle)(CURLM *, CURL *);
    CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
    CURLMcode (*multi_perform)(CURLM *, int *);
    CURLMsg *(*multi_info_read)(CURLM *, int *);
    CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd[], unsigned int, int, int *);
    CURLMcode (*multi_wakeup)(CURLM *);
    curl_version_info_data *(*version_info)(CURLversion);
} api;

/* The CA bundles of the common distributions, tried in this order when libcurl's own is
 * missing: Debian, Ubuntu and Arch; Fedora and RHEL; openSUSE; Alpine and the BSDs. */
static const char *const known_ca_bundles[] = {
    "/etc/ssl/certs/ca-certificates.crt",
    "/etc/pki/tls/certs/ca-bundle.crt",
    "/etc/ssl/ca-bundle.pem",
    "/etc/ssl/cert.pem",
};
/* The bundle every new easy handle is given, or NULL to keep libcurl's default. */
static const char *ca_bundle;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static int load_result = -1;
static char load_error[1024];

#define RESOLVE(field, name)                                                                   \
    do {                                                                                       \
        *(void **)(&api.field) = dlsym(library, name);                                         \
        if (!api.field) {                                                                      \
            snprintf(load_error, sizeof load_error, "%s has no %s (libcurl 7.85 or later is needed)", "libcurl", name); \
            return;                                                                            \
        }                                                                                      \
    } while (0)

/* dlerror()'s message, or a stand-in when it has none. */
static const char *load_failure(void) {
    const char *why = dlerror();
    return why ? why : "unknown reason";
}

/* Writes to path the anchor's path in the folder of the file this code was loaded from
 * (libCatFacts.so.0, or a program linking it statically); 0 when dladdr cannot tell the
 * folder or the path would not fit. Only an absolute path is trusted: a relative one (a
 * program's argv[0], a relative LD_LIBRARY_PATH entry) names a folder relative to where
 * the process started, which need not be where it is now. */
static int bundled_anchor_path(char *path, size_t size) {
    Dl_info info;
    if (!dladdr((const void *)&catfacts_curl_load, &info) || !info.dli_fname || info.dli_fname[0] != '/') return 0;
    const char *slash = strrchr(info.dli_fname, '/');
    if (!slash) return 0;
    int written = snprintf(path, size, "%.*s/%s", (int)(slash - info.dli_fname), info.dli_fname,
                           CATFACTS_LIBCURL_ANCHOR);
    return written > 0 && (size_t)written < size;
}

/* The default order (see the header): the bundled libcurl, then the system's. NULL, with
 * load_error naming what was tried and why each failed, when neither loads. */
static void *open_default(void) {
    char anchor[PATH_MAX];
    char anchor_failure[512] = ""; /* a copy: the next dlopen overwrites dlerror's message */
    int has_anchor = bundled_anchor_path(anchor, sizeof anchor) && access(anchor, F_OK) == 0;
    if (has_anchor) {
        void *library = dlopen(anchor, RTLD_NOW | RTLD_LOCAL);
        if (library) return library;
        snprintf(anchor_failure, sizeof anchor_failure, "%s", load_failure());
    }
    void *library = dlopen(CATFACTS_SYSTEM_LIBCURL, RTLD_NOW | RTLD_LOCAL);
    if (library) return library;
    if (has_anchor)
        snprintf(load_error, sizeof load_error, "neither the libcurl bundled beside libCatFacts (%s: %s) nor %s (%s) could be loaded; "
                 "install libcurl4, or name the library in CATFACTS_LIBCURL",
                 anchor, anchor_failure, CATFACTS_SYSTEM_LIBCURL, load_failure());
    else
        snprintf(load_error, sizeof load_error, "%s could not be loaded (%s); install libcurl4, or name the library in CATFACTS_LIBCURL",
                 CATFACTS_SYSTEM_LIBCURL, load_failure());
    return NULL;
}

/* Sets ca_bundle when libcurl names a default bundle that is not on this system (the wheel's
 * libcurl, built on Debian, on Fedora) and a known one is. A libcurl with no default file
 * (a CA folder, or the TLS library's own store) is left alone. */
static void choose_ca_bundle(void) {
    const curl_version_info_data *info = api.version_info(CURLVERSION_NOW);
    if (!info || !info->cainfo || access(info->cainfo, R_OK) == 0) return;
    for (size_t i = 0; i < sizeof known_ca_bundles / sizeof *known_ca_bundles; i++) {
        if (access(known_ca_bundles[i], R_OK) == 0) {
            ca_bundle = known_ca_bundles[i];
            return;
        }
    }
}

static void free_making_multi(void);

static void load(void) {
    pthread_atfork(NULL, NULL, free_making_multi);
    /* RTLD_LOCAL: libcurl's symbols stay out of the process's global namespace. Never
     * closed: libcurl keeps process-wide state once initialised. For the anchor, dlsym
     * below searches its dependencies, where libcurl is. */
    const char *chosen = getenv("CATFACTS_LIBCURL");
    void *library;
    if (chosen && *chosen) {
        library = dlopen(chosen, RTLD_NOW | RTLD_LOCAL);
        if (!library) {
            snprintf(load_error, sizeof load_error, "%s could not be loaded (%s); install libcurl4, or name the library in CATFACTS_LIBCURL",
                     chosen, load_failure());
            return;
        }
    } else {
        library = open_default();
        if (!library) return;
    }
    RESOLVE(global_init, "curl_global_init");
    RESOLVE(easy_init, "curl_easy_init");
    RESOLVE(easy_cleanup, "curl_easy_cleanup");
    RESOLVE(easy_strerror, "curl_easy_strerror");
    RESOLVE(easy_setopt, "curl_easy_setopt");
    RESOLVE(easy_getinfo, "curl_easy_getinfo");
    RESOLVE(slist_append, "curl_slist_append");
    RESOLVE(slist_free_all, "curl_slist_free_all");
    RESOLVE(multi_init, "curl_multi_init");
    RESOLVE(multi_cleanup, "curl_multi_cleanup");
    RESOLVE(multi_setopt, "curl_multi_setopt");
    RESOLVE(multi_add_handle, "curl_multi_add_handle");
    RESOLVE(multi_remove_handle, "curl_multi_remove_handle");
    RESOLVE(multi_perform, "curl_multi_perform");
    RESOLVE(multi_info_read, "curl_multi_info_read");
    RESOLVE(multi_poll, "curl_multi_poll");
    RESOLVE(multi_wakeup, "curl_multi_wakeup");
    RESOLVE(version_info, "curl_version_info");
    CURLcode code = api.global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) {
        snprintf(load_error, sizeof load_error, "libcurl could not be initialised (curl_global_init: %s)",
                 api.easy_strerror(code));
        return;
    }
    choose_ca_bundle();
    load_result = 0;
}

int catfacts_curl_load(const char **error) {
    pthread_once(&once, load);
    if (load_result != 0 && error) *error = load_error;
    return load_result;
}

/* libcurl's sockets for connections, opened close-on-exec (libcurl opens them without, so a
 * program a host execs would inherit every open connection). Atomic, unlike setting
 * FD_CLOEXEC afterwards: a fork and exec on another thread cannot come in between. */
static curl_socket_t open_socket_closed_on_exec(void *context, curlsocktype purpose, struct curl_sockaddr *address) {
    (void)context;
    (void)purpose;
    return socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
}

CURL *catfacts_curl_easy_init(void) {
    CURL *handle = api.easy_init();
    if (handle && ca_bundle) api.easy_setopt(handle, CURLOPT_CAINFO, ca_bundle);
    if (handle) api.easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, open_socket_closed_on_exec);
    return handle;
}
void catfacts_curl_easy_cleanup(CURL *handle) { api.easy_cleanup(handle); }
const char *catfacts_curl_easy_strerror(CURLcode code) { return api.easy_strerror(code); }

CURLcode catfacts_curl_set_long(CURL *handle, CURLoption option, long value) {
    return api.easy_setopt(handle, option, value);
}

/* The protocols of a CURLOPT_PROTOCOLS_STR value ("http,https") as CURLPROTO_* bits, or 0 when
 * it names one this fallback does not know. */
static long protocol_bits(const char *value) {
    long bits = 0;
    while (value != NULL && *value != '\0') {
        size_t length = strcspn(value, ",");
        if (length == 4 && strncmp(value, "http", 4) == 0) {
            bits |= CURLPROTO_HTTP;
        } else if (length == 5 && strncmp(value, "https", 5) == 0) {
            bits |= CURLPROTO_HTTPS;
        } else {
            return 0;
        }
        value += length;
        if (*value == ',') value++;
    }
    return bits;
}

CURLcode catfacts_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    CURLcode code = api.easy_setopt(handle, option, value);
    /* CURLOPT_PROTOCOLS_STR and CURLOPT_REDIR_PROTOCOLS_STR came with libcurl 7.85; the
     * libcurl of Debian 11 and RHEL 8 (7.74, 7.61) knows only the bitmask options they
     * replaced (deprecated since, still honoured): those, with the same protocols. */
    if (code == CURLE_UNKNOWN_OPTION && (option == CURLOPT_PROTOCOLS_STR || option == CURLOPT_REDIR_PROTOCOLS_STR)) {
        long bits = protocol_bits(value);
        if (bits == 0) return code;
        /* CURLOPT_PROTOCOLS (181) and CURLOPT_REDIR_PROTOCOLS (182), by number: the names
         * are marked deprecated in the headers, and this is the one place that needs them. */
        CURLoption legacy = (CURLoption)(CURLOPTTYPE_LONG + (option == CURLOPT_PROTOCOLS_STR ? 181 : 182));
        return api.easy_setopt(handle, legacy, bits);
    }
    return code;
}

CURLcode catfacts_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return api.easy_setopt(handle, option, value);
}

CURLcode catfacts_curl_set_callback(CURL *handle, CURLoption option, catfacts_curl_data_callback callback) {
    return api.easy_setopt(handle, option, callback);
}

CURLcode catfacts_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return api.easy_getinfo(handle, info, value);
}

struct curl_slist *catfacts_curl_slist_append(struct curl_slist *list, const char *text) {
    return api.slist_append(list, text);
}

void catfacts_curl_slist_free_all(struct curl_slist *list) { api.slist_free_all(list); }

/* What is known of one descriptor that could be an end of a multi handle's wake-up pair:
 * a Unix socket not marked close-on-exec, with its unread and unsent bytes. */
struct unix_socket {
    int fd;
    int unread;
    int unsent;
};

enum { most_sockets = 256 };

/* The process's Unix sockets not marked close-on-exec, at most `most_sockets`; their count.
 * Read from /proc/self/fd, or without /proc by trying each descriptor up to the limit
 * (bounded by 4096). */
static int unix_sockets(struct unix_socket sockets[static most_sockets]) {
    int count = 0;
    DIR *folder = opendir("/proc/self/fd");
    int own = folder ? dirfd(folder) : -1;
    struct rlimit limit = {0};
    int last = getrlimit(RLIMIT_NOFILE, &limit) == 0 && limit.rlim_cur < 4096 ? (int)limit.rlim_cur : 4096;
    for (int next = 0; count < most_sockets;) {
        int fd;
        if (folder) {
            struct dirent *entry = readdir(folder);
            if (!entry) break;
            if (entry->d_name[0] < '0' || entry->d_name[0] > '9') continue;
            fd = atoi(entry->d_name);
            if (fd == own) continue;
        } else {
            if (next >= last) break;
            fd = next++;
        }
        int flags = fcntl(fd, F_GETFD);
        struct stat status;
        int domain = 0;
        socklen_t length = sizeof domain;
        if (flags < 0 || (flags & FD_CLOEXEC) || fstat(fd, &status) != 0 || !S_ISSOCK(status.st_mode)) continue;
        if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &length) != 0 || domain != AF_UNIX) continue;
        struct unix_socket *socket = &sockets[count++];
        socket->fd = fd;
        if (ioctl(fd, FIONREAD, &socket->unread) != 0) socket->unread = -1;
        if (ioctl(fd, TIOCOUTQ, &socket->unsent) != 0) socket->unsent = -1;
    }
    if (folder) closedir(folder);
    return count;
}

/* The entry for `fd` in `sockets`, or NULL. */
static const struct unix_socket *find_socket(const struct unix_socket *sockets, int count, int fd) {
    for (int i = 0; i < count; i++) if (sockets[i].fd == fd) return &sockets[i];
    return NULL;
}

/* One multi handle made at a time, so that two wake-ups never mix. */
static pthread_mutex_t making_multi = PTHREAD_MUTEX_INITIALIZER;

/* In a child of fork() the thread that held `making_multi` (another thread of the parent,
 * making a client) does not exist: the lock starts free again, so that the child can make
 * clients of its own. Registered once, when libcurl is loaded. */
static void free_making_multi(void) {
    pthread_mutex_t unlocked = PTHREAD_MUTEX_INITIALIZER;
    making_multi = unlocked;
}

/* curl_multi_init, with the pair of sockets it makes for curl_multi_wakeup marked
 * close-on-exec. libcurl (7.88 at least) makes that pair without SOCK_CLOEXEC and offers no
 * way to reach it, so a program a host execs would inherit two sockets per client. The pair
 * is found by what it does: of the Unix sockets that appeared with the handle, the one that
 * gains exactly one unread byte when the handle is woken is the reading end, and the one
 * whose unsent bytes grow then is the writing end. Then a poll without waiting takes the
 * byte back. When that finds anything other than one of each (a libcurl that uses an
 * eventfd, or already marks the pair), nothing is changed. */
CURLM *catfacts_curl_multi_init(void) {
    pthread_mutex_lock(&making_multi);
    static struct unix_socket before[most_sockets], made[most_sockets], woken[most_sockets];
    int before_count = unix_sockets(before);
    CURLM *multi = api.multi_init();
    if (multi) {
        int made_count = unix_sockets(made);
        api.multi_wakeup(multi);
        int woken_count = unix_sockets(woken);
        int reader = -1, writer = -1, readers = 0, writers = 0;
        for (int i = 0; i < woken_count; i++) {
            const struct unix_socket *now = &woken[i];
            const struct unix_socket *then = find_socket(made, made_count, now->fd);
            if (!then || find_socket(before, before_count, now->fd)) continue;
            if (then->unread == 0 && now->unread == 1) { reader = now->fd; readers++; }
            if (then->unsent == 0 && now->unsent > 0) { writer = now->fd; writers++; }
        }
        if (readers == 1 && writers == 1 && reader != writer) {
            fcntl(reader, F_SETFD, fcntl(reader, F_GETFD) | FD_CLOEXEC);
            fcntl(writer, F_SETFD, fcntl(writer, F_GETFD) | FD_CLOEXEC);
        }
        api.multi_poll(multi, NULL, 0, 0, NULL);
    }
    pthread_mutex_unlock(&making_multi);
    return multi;
}
CURLMcode catfacts_curl_multi_cleanup(CURLM *multi) { return api.multi_cleanup(multi); }

CURLMcode catfacts_curl_multi_set_long(CURLM *multi, CURLMoption option, long value) {
    return api.multi_setopt(multi, option, value);
}

CURLMcode catfacts_curl_multi_add_handle(CURLM *multi, CURL *handle) { return api.multi_add_handle(multi, handle); }
CURLMcode catfacts_curl_multi_remove_handle(CURLM *multi, CURL *handle) { return api.multi_remove_handle(multi, handle); }
CURLMcode catfacts_curl_multi_perform(CURLM *multi, int *running) { return api.multi_perform(multi, running); }
CURLMsg *catfacts_curl_multi_info_read(CURLM *multi, int *queued) { return api.multi_info_read(multi, queued); }
CURLMcode catfacts_curl_multi_poll(CURLM *multi, int timeout_ms) { return api.multi_poll(multi, NULL, 0, timeout_ms, NULL); }
CURLMcode catfacts_curl_multi_wakeup(CURLM *multi) { return api.multi_wakeup(multi); }
