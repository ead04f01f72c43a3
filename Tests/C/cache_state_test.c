/*
 * The cache's state in cf_metrics ("cache": path, bytes, entries, hits, writes_failed,
 * evictions, warnings), with real faults: a cache file whose header was overwritten, a
 * full disk (a tiny tmpfs, filled), a read-only folder (a read-only bind mount), and
 * pages evicted for cache_max_bytes. Calls go on through every one of them.
 *
 * The mounts live in a mount namespace of this process's own (unshare at the start of
 * main, while it has one thread, so every library thread inherits it): nothing is seen,
 * or left behind, outside. Needs root; without it, or without the namespace, the mount
 * tests are skipped and say why.
 */
#define _GNU_SOURCE
#include "harness.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

/* Why the mount tests cannot run, or NULL when they can. */
static const char *no_mounts = NULL;

/* Returns from the calling test, saying so once, when mounts are not available. */
#define REQUIRE_MOUNTS() do { \
    if (no_mounts != NULL) { fprintf(stderr, "cache_state_test: %s skipped: %s\n", __func__, no_mounts); return; } \
} while (0)

/* `{"cache_path":"<path>","retries":0,"read_ahead":0<extra>}` into options: no pages read
 * ahead, so each page asked is one write and the counts are exact. */
static void cache_options(char options[static 256], const char *path, const char *extra) {
    snprintf(options, 256, "{\"cache_path\":\"%s\",\"retries\":0,\"read_ahead\":0%s}", path, extra ? extra : "");
}

/* Fetches a page of breeds, expecting CF_OK; its "source", copied into source. */
static void fetch(cf_client *c, int64_t page, int64_t limit, char source[static 32]) {
    char *out = NULL;
    source[0] = '\0';
    if (CHECK_STATUS(cf_breeds_page(c, page, limit, &out), CF_OK) != CF_OK) return;
    json_t *json = PARSE_JSON(out);
    cf_free(out);
    const char *found = json_get_str(json, "source");
    snprintf(source, 32, "%s", found ? found : "(none)");
    json_decref(json);
}

/* The client's metrics["cache"], parsed (json_decref it), or NULL after a counted failure. */
static json_t *cache_state(cf_client *c) {
    char *out = NULL;
    if (CHECK_STATUS(cf_metrics(c, &out), CF_OK) != CF_OK) return NULL;
    json_t *metrics = PARSE_JSON(out);
    cf_free(out);
    json_t *cache = json_incref(json_object_get(metrics, "cache"));
    json_decref(metrics);
    CHECKF(json_is_object(cache), "metrics[\"cache\"] is not an object");
    return cache;
}

/* cache["warnings"][index], or "" when there is no such string. */
static const char *warning(const json_t *cache, size_t index) {
    const char *text = json_string_value(json_array_get(json_object_get(cache, "warnings"), index));
    return text ? text : "";
}

static long long warning_count(const json_t *cache) {
    const json_t *warnings = json_object_get(cache, "warnings");
    return json_is_array(warnings) ? (long long)json_array_size(warnings) : -1;
}

static int contains(const char *haystack, const char *needle) { return strstr(haystack, needle) != NULL; }

static void a_cache_off_is_null_and_a_memory_cache_has_no_path(void) {
    char url[128];
    REQUIRE_MOCK(NULL, url);
    cf_client *off = NULL, *memory = NULL;
    CHECK_STATUS(cf_client_open(url, "{\"cache_max_bytes\":0}", &off), CF_OK);
    CHECK_STATUS(cf_client_open(url, "{\"cache_max_bytes\":100000,\"read_ahead\":0}", &memory), CF_OK);
    char *out = NULL;
    if (CHECK_STATUS(cf_metrics(off, &out), CF_OK) == CF_OK) {
        json_t *metrics = PARSE_JSON(out);
        CHECK(json_is_null(json_object_get(metrics, "cache")));
        json_decref(metrics);
        cf_free(out);
    }
    char source[32];
    fetch(memory, 1, 5, source);
    CHECK_STR_EQ(source, "network");
    fetch(memory, 1, 5, source);
    CHECK_STR_EQ(source, "cache");
    json_t *cache = cache_state(memory);
    CHECK(json_is_null(json_object_get(cache, "path")));
    CHECK_INT_EQ(json_get_int(cache, "entries", -1), 1);
    CHECK(json_get_int(cache, "bytes", -1) > 0);
    CHECK_INT_EQ(json_get_int(cache, "max_bytes", -1), 100000);
    CHECK_INT_EQ(json_get_int(cache, "hits", -1), 1);
    CHECK_INT_EQ(json_get_int(cache, "writes_failed", -1), 0);
    CHECK_INT_EQ(warning_count(cache), 0);
    json_decref(cache);
    cf_client_close(off);
    cf_client_close(memory);
    stop_mock();
}

/* Copies the file from to a new file to; 0, or -1 after a counted failure. */
static int copy_file(const char *from, const char *to) {
    int in = open(from, O_RDONLY), out = open(to, O_WRONLY | O_CREAT | O_EXCL, 0600);
    char buffer[8192];
    ssize_t n = 0;
    while (in >= 0 && out >= 0 && (n = read(in, buffer, sizeof buffer)) > 0) {
        if (write(out, buffer, (size_t)n) != n) n = -1;
        if (n < 0) break;
    }
    int ok = in >= 0 && out >= 0 && n == 0;
    CHECKF(ok, "copy %s to %s: %s", from, to, strerror(errno));
    if (in >= 0) close(in);
    if (out >= 0) close(out);
    return ok ? 0 : -1;
}

static void a_damaged_file_is_moved_aside_and_the_warning_names_both_files(void) {
    char folder[64], url[128], options[256], live[96], path[96], source[32];
    if (make_temp_folder("cache-state", folder) != 0) return;
    snprintf(live, sizeof live, "%s/live.sqlite", folder);
    snprintf(path, sizeof path, "%s/cache.sqlite", folder);
    REQUIRE_MOCK(NULL, url);
    cache_options(options, live, NULL);
    cf_client *c = NULL;
    CHECK_STATUS(cf_client_open(url, options, &c), CF_OK);
    fetch(c, 1, 5, source);
    cf_client_close(c);
    /* A copy of a cache file, its header (SQLite's magic string, page size, ...) overwritten
     * with garbage. Not the file itself: the closed client's connection may live on until its
     * last task ends, and SQLite shares a file's WAL between the connections of a process,
     * where a good copy of the header could answer. */
    if (copy_file(live, path) != 0) {
        stop_mock();
        remove_temp_folder(folder);
        return;
    }
    int fd = open(path, O_WRONLY);
    CHECK(fd >= 0);
    char garbage[100];
    memset(garbage, 'X', sizeof garbage);
    CHECK_INT_EQ(pwrite(fd, garbage, sizeof garbage, 0), (long long)sizeof garbage);
    close(fd);

    cache_options(options, path, NULL);
    c = NULL;
    CHECK_STATUS(cf_client_open(url, options, &c), CF_OK);
    json_t *cache = cache_state(c);
    CHECK_STR_EQ(json_get_str(cache, "path"), path);
    CHECK_INT_EQ(json_get_int(cache, "entries", -1), 0);
    CHECK_INT_EQ(warning_count(cache), 1);
    const char *text = warning(cache, 0);
    char expected[256];
    snprintf(expected, sizeof expected, "the cache file %s is not a valid SQLite database", path);
    CHECKF(strncmp(text, expected, strlen(expected)) == 0, "warning \"%s\"", text);
    snprintf(expected, sizeof expected, "; moved it to %s.corrupt-", path);
    const char *moved = strstr(text, expected);
    CHECKF(moved != NULL, "warning \"%s\"", text);
    if (moved != NULL) {
        /* The name the warning gives is the file that holds the old bytes. */
        char aside[160];
        snprintf(aside, sizeof aside, "%s", moved + strlen("; moved it to "));
        char *end = strstr(aside, " and started");
        CHECKF(end != NULL, "warning \"%s\"", text);
        if (end != NULL) *end = '\0';
        char head[100];
        int aside_fd = open(aside, O_RDONLY);
        CHECKF(aside_fd >= 0, "%s: %s", aside, strerror(errno));
        if (aside_fd >= 0) {
            CHECK_INT_EQ(read(aside_fd, head, sizeof head), (long long)sizeof head);
            CHECK(memcmp(head, garbage, sizeof head) == 0);
            close(aside_fd);
        }
    }
    json_decref(cache);
    fetch(c, 1, 5, source);
    CHECK_STR_EQ(source, "network");
    fetch(c, 1, 5, source);
    CHECK_STR_EQ(source, "cache");
    cache = cache_state(c);
    CHECK_INT_EQ(json_get_int(cache, "entries", -1), 1);
    CHECK_INT_EQ(json_get_int(cache, "hits", -1), 1);
    CHECK_INT_EQ(warning_count(cache), 1);
    json_decref(cache);
    cf_client_close(c);
    stop_mock();
    remove_temp_folder(folder);
}

/* Writes to path until the file system is full; 0, or -1 (counted) if it never fills. */
static int fill_disk(const char *path) {
    int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    CHECK(fd >= 0);
    if (fd < 0) return -1;
    char block[4096];
    memset(block, 'f', sizeof block);
    ssize_t written;
    long total = 0;
    while ((written = write(fd, block, sizeof block)) > 0) total += written;
    int full = written < 0 && errno == ENOSPC;
    CHECKF(full, "wrote %ld bytes, then: %s", total, written < 0 ? strerror(errno) : "no error");
    close(fd);
    return full ? 0 : -1;
}

static void a_full_disk_counts_failed_writes_in_one_warning_and_calls_go_on(void) {
    REQUIRE_MOUNTS();
    char folder[64], url[128], options[256], path[96], filler[96], source[32];
    if (make_temp_folder("cache-state", folder) != 0) return;
    if (mount("tmpfs", folder, "tmpfs", 0, "size=256k") != 0) {
        CHECKF(0, "mount tmpfs on %s: %s", folder, strerror(errno));
        remove_temp_folder(folder);
        return;
    }
    snprintf(path, sizeof path, "%s/cache.sqlite", folder);
    snprintf(filler, sizeof filler, "%s/filler", folder);
    cf_client *c = NULL;
    if (start_mock(NULL, url) != 0) {
        CHECKF(0, "cannot start catfacts-mock");
        goto unmount;
    }
    cache_options(options, path, NULL);
    /* Opened first: the file, its WAL and shared memory exist before the disk fills. */
    CHECK_STATUS(cf_client_open(url, options, &c), CF_OK);
    if (fill_disk(filler) == 0) {
        for (int page = 1; page <= 3; page++) {
            fetch(c, page, 20, source);
            CHECK_STR_EQ(source, "network");
        }
        json_t *cache = cache_state(c);
        CHECK_STR_EQ(json_get_str(cache, "path"), path);
        CHECK_INT_EQ(json_get_int(cache, "writes_failed", -1), 3);
        CHECK_INT_EQ(json_get_int(cache, "entries", -1), 0);
        CHECK_INT_EQ(warning_count(cache), 1);
        const char *text = warning(cache, 0);
        CHECKF(strncmp(text, "disk full: 3 cache writes failed; the last: the cache could not write ", 70) == 0,
               "warning \"%s\"", text);
        CHECKF(contains(text, "/breeds?limit=20&page=3: SQLite error 13: database or disk is full - "), "warning \"%s\"", text);
        json_decref(cache);

        /* Room again: the next page is stored, and the count stays. */
        CHECK(unlink(filler) == 0);
        fetch(c, 4, 20, source);
        fetch(c, 4, 20, source);
        CHECK_STR_EQ(source, "cache");
        cache = cache_state(c);
        CHECK_INT_EQ(json_get_int(cache, "writes_failed", -1), 3);
        CHECK_INT_EQ(json_get_int(cache, "entries", -1), 1);
        CHECK_INT_EQ(warning_count(cache), 1);
        json_decref(cache);
    }
    cf_client_close(c);
    stop_mock();
unmount:
    CHECKF(umount2(folder, MNT_DETACH) == 0, "umount %s: %s", folder, strerror(errno));
    remove_temp_folder(folder);
}

static void a_read_only_folder_is_named_and_the_cache_moves_to_memory(void) {
    REQUIRE_MOUNTS();
    char folder[64], url[128], options[256], path[96], source[32];
    if (make_temp_folder("cache-state", folder) != 0) return;
    /* root ignores file modes: read-only has to be the mount's. */
    if (mount(folder, folder, "none", MS_BIND, NULL) != 0 ||
        mount("none", folder, "none", MS_REMOUNT | MS_BIND | MS_RDONLY, NULL) != 0) {
        CHECKF(0, "a read-only bind mount of %s: %s", folder, strerror(errno));
        umount2(folder, MNT_DETACH);
        remove_temp_folder(folder);
        return;
    }
    snprintf(path, sizeof path, "%s/cache.sqlite", folder);
    cf_client *c = NULL;
    if (start_mock(NULL, url) != 0) {
        CHECKF(0, "cannot start catfacts-mock");
        goto unmount;
    }
    cache_options(options, path, NULL);
    CHECK_STATUS(cf_client_open(url, options, &c), CF_OK);
    fetch(c, 1, 5, source);
    CHECK_STR_EQ(source, "network");
    fetch(c, 1, 5, source);
    CHECK_STR_EQ(source, "cache");
    json_t *cache = cache_state(c);
    CHECK(json_is_null(json_object_get(cache, "path")));
    CHECK_INT_EQ(json_get_int(cache, "entries", -1), 1);
    CHECK_INT_EQ(json_get_int(cache, "hits", -1), 1);
    CHECK_INT_EQ(json_get_int(cache, "writes_failed", -1), 0);
    CHECK_INT_EQ(warning_count(cache), 2);
    char expected[256];
    snprintf(expected, sizeof expected, "cannot use the cache file %s: its folder %s is not writable "
             "(Read-only file system)", path, folder);
    CHECK_STR_EQ(warning(cache, 0), expected);
    snprintf(expected, sizeof expected, "the cache file %s cannot be used; caching in memory instead", path);
    CHECK_STR_EQ(warning(cache, 1), expected);
    json_decref(cache);
    cf_client_close(c);
    stop_mock();
unmount:
    CHECKF(umount2(folder, MNT_DETACH) == 0, "umount %s: %s", folder, strerror(errno));
    remove_temp_folder(folder);
}

static void evictions_keep_the_cap_and_one_warning_says_how_many(void) {
    char url[128], source[32];
    REQUIRE_MOCK(NULL, url);
    cf_client *c = NULL;
    const long long cap = 8000;
    char options[96];
    snprintf(options, sizeof options, "{\"cache_max_bytes\":%lld,\"read_ahead\":0}", cap);
    CHECK_STATUS(cf_client_open(url, options, &c), CF_OK);
    const int pages = 10;
    for (int page = 1; page <= pages; page++) fetch(c, page, 5, source);
    json_t *cache = cache_state(c);
    long long entries = json_get_int(cache, "entries", -1), bytes = json_get_int(cache, "bytes", -1);
    long long evicted = json_get_int(cache, "evicted_entries", -1), evicted_bytes = json_get_int(cache, "evicted_bytes", -1);
    CHECKF(entries >= 1 && entries < pages, "entries %lld", entries);
    CHECK_INT_EQ(entries + evicted, pages);
    CHECKF(bytes > 0 && bytes <= cap, "bytes %lld", bytes);
    CHECKF(evicted_bytes > evicted, "evicted_bytes %lld for %lld pages", evicted_bytes, evicted);
    CHECK_INT_EQ(warning_count(cache), 1);
    char expected[256];
    snprintf(expected, sizeof expected, "evicted %lld cached pages (%lld bytes) so far, least recently used first, "
             "to keep the cache within cache_max_bytes (%lld bytes); they load again when asked", evicted, evicted_bytes, cap);
    CHECK_STR_EQ(warning(cache, 0), expected);
    json_decref(cache);
    /* The newest page is kept, the oldest was evicted. */
    fetch(c, pages, 5, source);
    CHECK_STR_EQ(source, "cache");
    fetch(c, 1, 5, source);
    CHECK_STR_EQ(source, "network");
    cache = cache_state(c);
    CHECK_INT_EQ(json_get_int(cache, "hits", -1), 1);
    CHECK_INT_EQ(json_get_int(cache, "entries", -1) + json_get_int(cache, "evicted_entries", -1), pages + 1);
    CHECK_INT_EQ(warning_count(cache), 1);
    json_decref(cache);
    cf_client_close(c);
    stop_mock();
}

int main(void) {
    no_mounts = enter_mount_namespace("mounting a tmpfs or a read-only folder");
    RUN(a_cache_off_is_null_and_a_memory_cache_has_no_path);
    RUN(a_damaged_file_is_moved_aside_and_the_warning_names_both_files);
    RUN(a_full_disk_counts_failed_writes_in_one_warning_and_calls_go_on);
    RUN(a_read_only_folder_is_named_and_the_cache_moves_to_memory);
    RUN(evictions_keep_the_cap_and_one_warning_says_how_many);
    return harness_report("cache_state_test");
}
