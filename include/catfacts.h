/*
 * catfacts.h - the C interface of libCatFacts, a client for the Cat Facts API
 * (https://catfact.ninja): paged breeds and facts, per-endpoint metrics, an
 * offline catalog.
 *
 * Conventions (they hold for every function below):
 * - Every fallible function returns a cf_status; CF_OK is 0. Its comment's "Returns:" lists
 *   every status it can return and when. Any of them may also return CF_ERR_INTERNAL (a bug
 *   in libCatFacts, or memory exhausted), listed nowhere else: please report its message.
 * - On failure, cf_last_error() describes the cause for the calling thread, and the
 *   cf_last_error_* getters give its fields; see "Errors" for how long they last.
 * - An out-pointer is set to NULL on failure (the comment says "NULL on failure"), so a
 *   program may cf_free (or close) whatever it holds afterwards without checking the status.
 * - What the library hands out through an out-pointer is the caller's: see "Freeing".
 *   Strings returned directly (cf_version(), cf_status_string(), cf_last_error()) belong
 *   to the library: never free them.
 * - All text is UTF-8.
 * - Every function may be called from any thread; "Threads" below says which calls may
 *   run at once, from listeners and from signal handlers, and each function's own
 *   "Threads:" line says it for that function.
 * - A NULL handle or out-pointer is CF_ERR_ARGUMENT naming it, never a crash; so is every
 *   pointer that is not an open handle of the kind the function takes: a closed handle, a
 *   handle of another kind (a cf_list * cast to cf_client *), a small integer, a pointer into
 *   an unmapped or PROT_NONE page, a misaligned one. Handles are looked up by their value in
 *   the library's table of open handles, never read through; the message says which ("the
 *   client is NULL", "the client is not a cf_client *: it was closed", "...: a handle of
 *   another kind (a cf_list *)", "...: not a handle of this library"). Closing or
 *   interrupting any of them does nothing. A handle's value is an address the library
 *   reserves and never maps (dereferencing one faults at once); a closed handle's value is
 *   given to a new handle only after its place in the table has been reused 256 times, so
 *   using a closed handle is reported, not undefined, until then. A handle inherited across
 *   fork() is refused too (see "The process").
 * - Text handed in must be UTF-8: anything else is CF_ERR_ARGUMENT naming the argument
 *   or option and the first byte at fault.
 *
 * Link with -lCatFacts (pkg-config: catfacts).
 *
 * Example, a whole program: every breed, a page at a time, until the last page (against
 * catfacts-mock, which serves http://127.0.0.1:8106; a NULL base URL is the real API):
 * ```c
 * #include <stdio.h>
 * #include <catfacts.h>
 *
 * int main(void) {
 *     cf_client *client;
 *     if (cf_client_open("http://127.0.0.1:8106", NULL, &client) != CF_OK) {
 *         fprintf(stderr, "%s\n", cf_last_error());
 *         return 1;
 *     }
 *     int64_t last_page = 1;
 *     for (int64_t number = 1; number <= last_page; number++) {
 *         cf_breed_page *page;
 *         cf_status status = cf_breeds_page_items(client, number, 25, &page);
 *         if (status != CF_OK) {
 *             fprintf(stderr, "%s (%s)\n", cf_last_error(), cf_status_string(status));
 *             cf_client_close(client);
 *             return 1;
 *         }
 *         for (int64_t i = 0; i < page->breeds.count; i++) puts(page->breeds.items[i].breed);
 *         last_page = page->last_page;
 *         cf_free(page);
 *     }
 *     cf_client_close(client);
 *     return 0;
 * }
 * ```
 * It prints one breed a line, all 98 of the mock's catalog.
 *
 * Freeing (one rule for everything handed out): what a call hands out through an
 * out-pointer, other than a handle, is one block of memory, the caller's, freed whole with
 * cf_free(), once. Every hand-out, and the calls that hand it out:
 *   char * (JSON or text)            cf_breeds_page, cf_facts_page, cf_fact_random,
 *                                    cf_breed_find, cf_breeds_query, cf_metrics,
 *                                    cf_metrics_prometheus
 *   cf_breed_page, cf_fact_page      cf_breeds_page_items, cf_facts_page_items
 *   cf_breed_array, cf_fact_array    cf_list_breeds, cf_list_facts
 *   cf_breed, cf_fact                cf_list_breed, cf_list_fact
 *   cf_endpoint_stats_array          cf_metrics_endpoints
 * The items and strings inside a block point into it and go with it: never free them
 * apart. A block may be freed on any thread, after its client or list is closed too.
 * cf_breed_free() and cf_fact_free() free a single item exactly as cf_free() does; they
 * remain because programs written before this rule call them, and the library only gains
 * functions. Handles are not freed but closed: a cf_client with cf_client_close, a cf_list
 * with cf_list_close, a cf_search with cf_search_close. Never freed by the caller: the strings
 * returned directly (cf_version, cf_status_string, cf_last_error: the library's), and what
 * a listener is passed (cf_metrics_listener's endpoint, cf_search_listener's results_json:
 * borrowed for the call).
 *
 * Errors (one rule for the message and its fields):
 * - The calling thread's cf_last_error() and its fields (cf_last_error_http_status,
 *   cf_last_error_retry_after_ms, cf_last_error_attempts) are set by every function that
 *   returns a cf_status, and by cf_list_count: to the failure's, or to "" and the fields'
 *   "no failure" values (0, -1, 0) when the call succeeds. CF_PENDING leaves a message
 *   saying which item is loading.
 * - No other function changes them: cf_last_error and the three field getters themselves,
 *   cf_version, cf_status_string, cf_free, cf_breed_free, cf_fact_free, cf_client_interrupt,
 *   cf_client_close, cf_list_close and cf_search_close. So after a failure a program may read
 *   the message and the fields in any order, and free what it holds or close a handle, before
 *   or between the readings; the next call that returns a cf_status, or cf_list_count,
 *   replaces them. cf_last_error()'s string stays valid until then, on that thread.
 * - Another thread's calls never change them (each thread has its own), and neither does a
 *   listener running on a library thread.
 *
 * Lifetimes (one rule for lists and searches):
 * - A client's handle lives from cf_client_open to cf_client_close. Lists and searches
 *   opened on it keep the client itself alive until they are closed, and keep working
 *   after cf_client_close, which ends the handle and the client's own listeners (metrics,
 *   online) only.
 * - A list lives from cf_list_open to cf_list_close, a search from cf_search_open to
 *   cf_search_close. Closing either cancels its work under way without waiting for the
 *   network, and once the close returns its listener is never called again (a call under
 *   way on another thread is waited for; a listener may close its own list or search), so
 *   the listener's ctx may be freed then.
 *
 * Threads:
 * - One client: any number of threads may call any functions on it at once (one-shot
 *   calls, queries, metrics, cf_list_open, setting listeners, cf_client_interrupt); the
 *   calls of one thread never see another's cf_last_error() or fields.
 * - One list: any number of threads may read it at once (cf_list_breed, cf_list_breeds,
 *   cf_list_fact, cf_list_facts, cf_list_count, cf_list_wait, cf_list_retry,
 *   cf_list_set_listener); one load per page however many ask.
 * - One search: any number of threads may set its text at once (cf_search_set); the text
 *   set last is the one answered.
 * - Closing: cf_client_close and cf_list_close may run while other threads are blocked in
 *   calls on the same handle (interrupt them first to have them return at once: a closed
 *   list wakes its waiters with CF_ERR_CANCELLED), but, as with free(), no thread may start
 *   a call with a handle once its close has begun, and a handle is closed once (a search
 *   too: cf_search_close).
 * - Listeners run on library threads, several at once when requests or loads finish
 *   together (make them thread-safe), and a list's listener also on the caller's own thread
 *   inside cf_list_breed, cf_list_breeds, cf_list_fact, cf_list_facts or cf_list_retry when
 *   that access drops pages. A listener may call any function that does not block, on its
 *   own client, list or search too: read items and counts, cf_metrics, set or remove
 *   listeners (its own included), cf_search_set, cf_client_interrupt, and close its own
 *   list, search or client (what it closes must not be used afterwards, by it or by the
 *   code that was calling into it). It must not call cf_list_wait or a blocking one-shot
 *   call (cf_breeds_page, cf_breeds_page_items, cf_facts_page, cf_facts_page_items,
 *   cf_fact_random, cf_breed_find, cf_breeds_query): they may wait for the very thread
 *   the listener runs on.
 * - Signal handlers may call cf_client_interrupt and nothing else (it only sets a flag
 *   and writes a byte to a pipe).
 *
 * The process (what stays after the last client, and what a host may rely on):
 * - The first client starts what then stays for the life of the process: one thread (the
 *   interrupt watcher, which cf_client_interrupt wakes) with one pipe (two descriptors);
 *   once a call has waited on a timer, the event thread of libdispatch (the Swift
 *   concurrency runtime's), with an epoll, an eventfd and a timerfd; libcurl, loaded at the
 *   first request and never unloaded; handlers registered with pthread_atfork (below); and
 *   4 GiB of reserved address space, never mapped (no memory: handles are addresses in it).
 *   Calls also use the runtime's pool threads (about one per CPU), which end after some
 *   seconds idle. Everything else is a client's own and ends with its cf_client_close (its
 *   HTTP thread and connections, its cache file), so once every client is closed and the
 *   pool is idle the process holds at most two threads and five descriptors more than before
 *   the first client, however many clients came and went.
 * - exec: every descriptor the library opens is close-on-exec, so a program exec'd while
 *   clients are open inherits none of them: its own (the pipe, a cache file and its
 *   journal, libdispatch's) and libcurl's (an open client's connections, and the socket
 *   pair per client that wakes its HTTP thread, which libcurl makes without close-on-exec
 *   and the library marks as soon as the client is open). One exception, brief: while
 *   libcurl resolves a host name (not an IP address) its resolver thread holds a socket
 *   pair of its own, not close-on-exec, closed when the name is resolved.
 * - fork(): the library works in the child, whatever the parent was doing (calls in flight
 *   on other threads included): new clients work, with threads of their own. A client, list
 *   or search inherited from the parent is refused at once with CF_ERR_ARGUMENT, whose message
 *   says to open a new client (its threads stayed in the parent, and its connections and
 *   cache file are shared with it); closing or interrupting it in the child does nothing
 *   harmful and returns at once (its memory stays: a few kB). The parent's handles and calls
 *   go on unaffected. In a child the runtime's jobs run on threads of the library's own
 *   (libdispatch's pool may never start a thread again there). fork() waits for the
 *   library's calls into SQLite (its caches) that are under way, a statement each, so that
 *   the child finds none of SQLite's own locks held: at most a cache file's busy wait.
 * - Unloading: dlclose() leaves the library loaded (it is linked with -z nodelete): its
 *   threads and fork handlers run its code for the life of the process.
 * - Memory: the library allocates with malloc on its own threads (each client's HTTP
 *   thread, the runtime's pool threads) as well as on the callers'. glibc gives threads
 *   arenas of their own, up to 8 per CPU, and an arena keeps the pages it frees below its
 *   highest block in use, so under a steady load a host's RSS climbs to some MB above
 *   malloc's bytes in use, most of it in the first minutes (fragmentation, not a leak: the
 *   bytes in use stay flat). The library leaves malloc's settings to the host; a host that
 *   wants RSS to follow use starts with MALLOC_ARENA_MAX=2 in its environment (or
 *   GLIBC_TUNABLES=glibc.malloc.arena_max=2), at some cost in lock contention when many
 *   threads allocate at once. malloc_trim(0) gives those free pages back at once, but while
 *   calls go on they are touched again within the minute; the library calls neither mallopt
 *   nor malloc_trim.
 */
#ifndef CATFACTS_H
#define CATFACTS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* version */

#define CF_VERSION_MAJOR 0
#define CF_VERSION_MINOR 2
#define CF_VERSION_PATCH 0
/* "MAJOR.MINOR.PATCH" of this header; compare with cf_version() at run time. */
#define CF_VERSION "0.2.0"
/* The version as one number, 0xMMNNPP, for #if comparisons. */
#define CF_VERSION_HEX ((CF_VERSION_MAJOR << 16) | (CF_VERSION_MINOR << 8) | CF_VERSION_PATCH)

/* status codes */

/* What a call did. The values are stable: they never change once released. */
typedef enum cf_status {
    CF_OK = 0,                /* success */
    CF_PENDING = 1,           /* an item is not loaded yet; its page is loading */
    CF_ERR_ARGUMENT = 2,      /* a NULL handle or pointer, a bad option, page, limit or URL */
    CF_ERR_NETWORK = 3,       /* the server could not be reached, or the connection broke */
    CF_ERR_TIMEOUT = 4,       /* no complete answer within the timeout */
    CF_ERR_HTTP = 5,          /* the server answered an error status (the message says which) */
    CF_ERR_RATE_LIMITED = 6,  /* the server answered 429; the message gives Retry-After */
    CF_ERR_DECODE = 7,        /* the body was not what the API sends, or too large */
    CF_ERR_NOT_FOUND = 8,     /* no such breed, or an index past the end of a list */
    CF_ERR_OFFLINE = 9,       /* offline (requests in a row got no response; see
                                 cf_client_open), and nothing cached or bundled can answer */
    CF_ERR_CANCELLED = 10,    /* the call was cancelled */
    CF_ERR_INTERNAL = 11      /* a bug in libCatFacts; please report the message */
} cf_status;

/* library */

/*
 * The library's version, "MAJOR.MINOR.PATCH" (e.g. "0.2.0").
 * Returns: a static string; never NULL, never free it.
 * Threads: any thread, a listener's too, any number at once.
 */
const char *cf_version(void);

/*
 * A name and short description of a status, e.g.
 * "CF_ERR_TIMEOUT: timed out". An unknown value gives "unknown status".
 * Returns: a static string; never NULL, never free it.
 * Threads: any thread, a listener's too, any number at once.
 */
const char *cf_status_string(cf_status s);

/*
 * The message of the calling thread's last failed call: what failed, why,
 * and where (the URL, key, page or name). "" when that thread's last call
 * succeeded or it made none. One line of UTF-8: control characters in text it
 * quotes (yours or a server's) are written as escapes (\e, \n, \x07, \u{9B}),
 * so it is safe to log or print as it is.
 * Returns: a string owned by the library, valid until the calling thread's next call
 * that returns a cf_status, or cf_list_count (see "Errors": the getters, cf_free and the
 * closes leave it be); never NULL, never free it (copy it to keep it longer).
 * Threads: any thread, a listener's too; it reads the calling thread's own last call,
 *   never another thread's.
 */
const char *cf_last_error(void);

/*
 * Fields of the calling thread's last failed call, beside cf_last_error()'s message, so
 * that a program can act without parsing English (read as sqlite3_extended_errcode() is:
 * after a call returned an error status). Like the message they belong to the calling
 * thread and last as it does (see "Errors"): reading one never resets the message or the
 * others, and a call that succeeds sets them back to 0, -1 and 0.
 * There is no "source" field: a failed call has no answer to have a
 * source, and a call answered from the cache or the bundled catalog succeeds, its JSON
 * saying so ("source":"cache" or "offline-catalog"; cf_search answers too).
 */

/*
 * The HTTP status the server answered when the failure was one (404, 429, 503, ...: the
 * call returned CF_ERR_HTTP or CF_ERR_RATE_LIMITED); 0 for every other failure (no
 * response, a bad argument, a body that did not decode) and after a success.
 * Returns: the status, or 0.
 * Threads: as cf_last_error: the calling thread's own last call.
 */
int32_t cf_last_error_http_status(void);

/*
 * The server's Retry-After with that status (a 429, or a 503 for maintenance), in
 * milliseconds, seconds and HTTP dates alike.
 * Returns: the milliseconds (>= 0), or -1 when it sent none, for other failures and after a
 *   success.
 * Threads: as cf_last_error: the calling thread's own last call.
 */
int64_t cf_last_error_retry_after_ms(void);

/*
 * How many requests the failed call sent: 1 plus its retries; 0 when it sent none (a bad
 * argument, offline, an item of a list, which never blocks on the network).
 * Returns: the count (>= 0); 0 after a success.
 * Threads: as cf_last_error: the calling thread's own last call.
 */
int32_t cf_last_error_attempts(void);

/*
 * Frees anything this library handed out through an out-pointer other than a handle: a
 * string, a page, a batch or a single item, each one block freed whole (see "Freeing").
 * p: the string or block; NULL is a no-op. Free each once.
 * Threads: any thread, a listener's too, whichever thread the block was handed out on.
 */
void cf_free(void *p);

/* client */

/* A connection to the Cat Facts API: options, metrics, known breeds. Opaque. */
typedef struct cf_client cf_client;

/*
 * Opens a client.
 *
 * base_url: NULL for "https://catfact.ninja". http or https only; it may carry a
 *   path prefix ("http://proxy:8080/catfacts"): endpoint paths are appended to it,
 *   and metrics still name the endpoint ("/breeds"), not the prefix. At most 2048
 *   bytes, with no control characters (CR, LF, ...) and no spaces.
 * options_json: NULL for the defaults, else a JSON object with any of the keys below.
 *   An integer is a JSON number with no fraction (2500 and 2500.0; not 2.5) within its
 *   range; one outside it is CF_ERR_ARGUMENT naming the key, the value and the range.
 *   A key given twice: the first one counts. Arrays and objects nest at most 64 deep
 *   (JSON deeper than that is CF_ERR_ARGUMENT saying the level and the byte where it
 *   passed 64, found in time linear in the text's length: any text is refused quickly).
 *   "timeout_ms"          1..86400000  one attempt's whole time (default 30000)
 *   "connect_timeout_ms"  1..86400000  connect/idle timeout (default 10000)
 *   "deadline_ms"         1..86400000  the most a whole call may take: its attempts, the
 *                                      waits between them, Retry-After waits and the pages
 *                                      of a walk (cf_breed_find, cf_breeds_query); then
 *                                      CF_ERR_TIMEOUT saying the time and the attempts.
 *                                      A wait that would pass it fails at once. Absent: no
 *                                      bound but each attempt's timeout_ms
 *   "retries"             0..100       retries of a failed GET (default 2): network
 *                                      errors, timeouts, 429, 502, 503, 504; with
 *                                      exponential backoff and full jitter; a 429 or
 *                                      503 with Retry-After (seconds or an HTTP date)
 *                                      waits exactly that, or fails at once when it asks
 *                                      for more than 30 s (the message says how long)
 *   "read_ahead"          0..16        pages fetched ahead when pages are asked in order
 *                                      (default 2): after page p then p+1 of one list (same
 *                                      function, limit and max_length), the next ones load
 *                                      in the background, so the loop's next calls find them
 *                                      (never past the last page; a jump stops it). They are
 *                                      requests like any other in cf_metrics. 0: off
 *   "max_connections"     1..256       connections open to one host at once (default 8),
 *                                      so over HTTP/1.1 the requests to it under way at
 *                                      once; more calls wait their turn. 8 is polite to a
 *                                      public API; raise it for many concurrent calls to a
 *                                      server of yours (64: 40 calls at once all go out at
 *                                      once). Over HTTP/2 (https, when the server offers it)
 *                                      one connection carries several requests
 *   "cache_path"          string       SQLite cache file (its folder is created); absent:
 *                                      the cache lives in memory and dies with the client.
 *                                      Several clients and processes may share one file.
 *                                      A corrupt or foreign file is renamed
 *                                      "<path>.corrupt-<timestamp>" and a new one made;
 *                                      a file that cannot be used at all falls back to
 *                                      memory (never an error)
 *   "cache_max_bytes"     0..2^40      the cache's size cap (default 52428800 for a file,
 *                                      2097152 in memory): bodies,
 *                                      keys and 64 bytes per page; past it the least
 *                                      recently used pages are evicted; a page larger
 *                                      than the cap is not cached. 0 turns the cache off
 *                                      (no file is opened, nothing is stored or served)
 *   "cache_ttl_ms"        0..31536000000 how long a cached page answers without a request
 *                                      (default 300000). After it the page is revalidated
 *                                      (If-None-Match / If-Modified-Since; a 304 answers
 *                                      from the cache). 0: revalidate every time
 *   "offline_fallback"    bool         answer from the bundled catalog when the server
 *                                      cannot be reached (default false); such pages
 *                                      say "source":"offline-catalog"
 *   "user_agent"          string       the User-Agent header; at most 1024 bytes, no
 *                                      control characters (CR, LF, ...: they would
 *                                      forge headers)
 *   "proxy"               string       the proxy for every request ("http://host:3128",
 *                                      "socks5h://host:1080"), or "" for none; at most
 *                                      2048 bytes, no spaces or control characters. Absent:
 *                                      http_proxy, https_proxy (or HTTPS_PROXY), all_proxy
 *                                      (or ALL_PROXY) and no_proxy (or NO_PROXY) from the
 *                                      environment when the client is opened, as curl reads
 *                                      them. Loopback hosts (localhost, 127.0.0.0/8, ::1)
 *                                      never go through a proxy. A proxy that fails is
 *                                      CF_ERR_NETWORK naming it (without its password)
 *   "ca_file"             string       a PEM file of CA certificates that https servers
 *                                      are verified against instead of the system's (a
 *                                      company proxy's or an internal mirror's own CA); at
 *                                      most 4096 bytes; "", a folder or a file that cannot
 *                                      be read is CF_ERR_ARGUMENT at once. Absent:
 *                                      CURL_CA_BUNDLE, else SSL_CERT_FILE and SSL_CERT_DIR
 *                                      (an empty one counts as unset) from the environment
 *                                      as it is when the client is opened, as curl reads
 *                                      them; else the system's bundle (ca-certificates).
 *                                      A server the bundle in use does not verify, or a
 *                                      variable's bundle that cannot be used (not checked
 *                                      at open), fails https calls with CF_ERR_NETWORK
 *                                      naming the bundle and where it came from; without
 *                                      any bundle, saying what to install or set
 *   "max_body_bytes"      1..2^31      larger bodies are refused (default 8388608)
 *   "otlp_endpoint"       string       an OTLP/HTTP collector's base URL
 *                                      ("http://127.0.0.1:4318"): spans and metrics are
 *                                      POSTed (OTLP/HTTP, protobuf by default) to
 *                                      <base>/v1/traces and <base>/v1/metrics from the
 *                                      process's one exporter thread for those settings,
 *                                      shared by every client exporting with them (each
 *                                      client's metric points carry its catfacts.client.id;
 *                                      the last client to close flushes), and each request
 *                                      carries a W3C traceparent; http or https, at most
 *                                      2048 bytes, no spaces or control characters.
 *                                      "" turns export off whatever the environment says.
 *                                      Absent: OTEL_EXPORTER_OTLP_ENDPOINT (or
 *                                      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT /
 *                                      _METRICS_ENDPOINT, full URLs) turns it on; also read,
 *                                      each signal's own (_TRACES_ / _METRICS_) over the
 *                                      general one: OTEL_EXPORTER_OTLP_PROTOCOL
 *                                      (http/protobuf or http/json), _COMPRESSION (gzip or
 *                                      none), _HEADERS, _TIMEOUT (ms, 10000),
 *                                      _CERTIFICATE, _CLIENT_CERTIFICATE, _CLIENT_KEY (PEM
 *                                      files); OTEL_SERVICE_NAME (else service.name in
 *                                      OTEL_RESOURCE_ATTRIBUTES, else
 *                                      unknown_service:<program>), OTEL_RESOURCE_ATTRIBUTES,
 *                                      OTEL_METRIC_EXPORT_INTERVAL (ms, 60000),
 *                                      OTEL_METRIC_EXPORT_TIMEOUT (ms, 30000),
 *                                      OTEL_BSP_MAX_QUEUE_SIZE (2048),
 *                                      OTEL_BSP_SCHEDULE_DELAY (ms, 5000),
 *                                      OTEL_BSP_MAX_EXPORT_BATCH_SIZE (512),
 *                                      OTEL_BSP_EXPORT_TIMEOUT (ms, 30000),
 *                                      OTEL_TRACES_EXPORTER / OTEL_METRICS_EXPORTER (none:
 *                                      that signal is not sent), OTEL_SDK_DISABLED. Any
 *                                      other OTEL_EXPORTER_OTLP_*, OTEL_BSP_* or
 *                                      OTEL_METRIC_EXPORT_* draws a warning naming it.
 *                                      A bad environment value is ignored (its default
 *                                      used) with a warning in cf_metrics' "export"; a bad
 *                                      option is CF_ERR_ARGUMENT. Calls never wait for the
 *                                      exporter: past the queue's bound the oldest spans
 *                                      are dropped and counted; a collector that is down is
 *                                      retried with backoff (0.5 s doubling to 30 s).
 *                                      cf_client_close sends what is left, within 2 s
 *                                      (or the export timeout if smaller)
 * out: receives the client (yours: close it with cf_client_close); NULL on failure.
 *
 * The cache: pages of /breeds and /facts are stored by their whole URL (the base URL's
 * scheme, host, port and path, without credentials, then the endpoint and the sorted
 * query), so one cache file serves clients of any number of servers without one answering
 * for another; with their ETag and Last-Modified; random facts (/fact) never are. Pages
 * earlier builds filed without their server are dropped when the file is opened. A page answered
 * from the cache says "source":"cache" and its "fetched_at" is when it was fetched or last
 * revalidated, so its age shows. When the server cannot answer (network error, timeout,
 * 5xx or 429, after the retries) a cached page answers whatever its age; a body that does
 * not decode (CF_ERR_DECODE) and other 4xx are returned as errors, never hidden behind
 * an old page.
 *
 * Offline: after 3 calls in a row got no response (network error or timeout, after
 * their retries: a call counts once) the client is offline ("online":false in
 * cf_metrics; cf_client_set_online_listener hears it) for 30 s: calls send nothing and
 * answer from the cache, else from the bundled catalog (offline_fallback), else fail
 * with CF_ERR_OFFLINE at once. Meanwhile a probe (GET /fact?max_length=1, not counted
 * in the metrics) after 1 s, then every 2 s, brings it back online as soon as the
 * server answers; after the 30 s, calls try the network again.
 *
 * Returns: CF_OK; CF_ERR_ARGUMENT for a NULL out, a URL that is not http(s), JSON
 *   that is not an object, an unknown key or a value of the wrong type, null included
 *   (the message names the key); CF_ERR_INTERNAL on Linux when /proc is not mounted (a
 *   chroot, a sandbox): the Swift runtime's libdispatch reads it and would stop the process
 *   a second into its calls, so the message says to mount it instead.
 * Threads: any thread, a listener's too, any number at once (each opens a client of its
 *   own).
 */
cf_status cf_client_open(const char *base_url, const char *options_json, cf_client **out);

/*
 * Closes a client. NULL is a no-op. Calls under way on other threads finish first;
 * lists and searches opened on it keep working until they are closed (see "Lifetimes").
 * Once it returns, the metrics listener is never called again (a call under way on
 * another thread is waited for). Using the handle afterwards is undefined.
 * Threads: any thread, a listener of c's too, while other threads are blocked in calls on
 *   c (see "Closing" above); once per client, and no call on c may start once it has
 *   begun.
 */
void cf_client_close(cf_client *c);

/* one-shot calls: they block until answered; results are JSON strings */

/*
 * A page of breeds (GET /breeds).
 *
 * page: from 1; a page past the end is a page with no items, not an error.
 * limit: items per page, >= 1 (the server may cap it; "per_page" says what it applied).
 * out_json: receives (yours: free with cf_free)
 *   {"page":1,"last_page":10,"per_page":10,"total":98,
 *    "items":[{"breed":"Abyssinian","country":"Ethiopia","origin":"Natural/Standard",
 *              "coat":"Short","pattern":"Ticked"}, ...],
 *    "source":"network"|"cache"|"offline-catalog","fetched_at":"2026-11-21T10:00:00Z"}
 *   Absent breed fields are left out, never "".
 *   NULL on failure.
 * Returns: CF_OK (from the network, or from the cache: see cf_client_open); CF_ERR_ARGUMENT
 *   (NULL c or out_json, page or limit < 1); CF_ERR_NETWORK (the server could not be
 *   reached), CF_ERR_TIMEOUT (timeout_ms, connect_timeout_ms or deadline_ms passed),
 *   CF_ERR_HTTP (an error status), CF_ERR_RATE_LIMITED (a 429), each after the retries and
 *   with nothing cached; CF_ERR_DECODE (a body that is not what the API sends, or too
 *   large); CF_ERR_OFFLINE when the client is offline, nothing is cached and
 *   offline_fallback is off; CF_ERR_CANCELLED when cf_client_interrupt cut it short.
 * Threads: any number of threads at once on one client; not from a listener: it blocks,
 *   and may wait for the very thread the listener runs on.
 */
cf_status cf_breeds_page(cf_client *c, int64_t page, int64_t limit, char **out_json);

/*
 * A page of facts (GET /facts), as cf_breeds_page; items are
 * {"fact":"...","length":106}.
 * max_length: only facts no longer than this; 0 for no limit (negative:
 *   CF_ERR_ARGUMENT).
 * out_json: receives the page (yours: free with cf_free); NULL on failure.
 * Returns: CF_OK (from the network, or from the cache); CF_ERR_ARGUMENT (NULL c or
 *   out_json, page or limit < 1, a negative max_length); CF_ERR_NETWORK (the server could
 *   not be reached), CF_ERR_TIMEOUT (timeout_ms, connect_timeout_ms or deadline_ms passed),
 *   CF_ERR_HTTP (an error status), CF_ERR_RATE_LIMITED (a 429), each after the retries and
 *   with nothing cached; CF_ERR_DECODE (a body that is not what the API sends, or too
 *   large); CF_ERR_OFFLINE when the client is offline, nothing is cached and
 *   offline_fallback is off; CF_ERR_CANCELLED when cf_client_interrupt cut it short.
 * Threads: as cf_breeds_page; must not be called from a listener.
 */
cf_status cf_facts_page(cf_client *c, int64_t page, int64_t limit, int64_t max_length, char **out_json);

/*
 * A random fact (GET /fact). Random facts are never cached.
 * max_length: 0 for no limit (negative: CF_ERR_ARGUMENT).
 * out_json: receives {"fact":"...","length":61} (yours: free with cf_free);
 *   NULL on failure.
 * Returns: CF_OK; CF_ERR_ARGUMENT (NULL c or out_json, a negative max_length); CF_ERR_HTTP
 *   (404) when no fact is that short; CF_ERR_OFFLINE also when the server cannot be
 *   reached, offline_fallback is on and no bundled fact is that short; and as
 *   cf_breeds_page: CF_ERR_NETWORK (the server could not be reached), CF_ERR_TIMEOUT
 *   (timeout_ms, connect_timeout_ms or deadline_ms passed), CF_ERR_HTTP (an error status),
 *   CF_ERR_RATE_LIMITED (a 429), each after the retries and with nothing cached;
 *   CF_ERR_DECODE (a body that is not what the API sends, or too large); CF_ERR_OFFLINE
 *   when the client is offline, nothing is cached and offline_fallback is off;
 *   CF_ERR_CANCELLED when cf_client_interrupt cut it short.
 * Threads: as cf_breeds_page; must not be called from a listener.
 */
cf_status cf_fact_random(cf_client *c, int64_t max_length, char **out_json);

/*
 * One breed by name, matched case-insensitively (and ignoring surrounding blanks)
 * among the breeds the client knows, fetching the breed list when it does not know
 * the name yet (the API has no detail endpoint).
 * name: UTF-8.
 * out_json: receives a breed object as in cf_breeds_page (yours: free with
 *   cf_free); NULL on failure.
 * Returns: CF_OK; CF_ERR_NOT_FOUND when no breed has that name; CF_ERR_ARGUMENT for a NULL
 *   c, name or out_json, an empty name or invalid UTF-8; while the breeds are fetched, as
 *   cf_breeds_page: CF_ERR_NETWORK (the server could not be reached), CF_ERR_TIMEOUT
 *   (timeout_ms, connect_timeout_ms or deadline_ms passed), CF_ERR_HTTP (an error status),
 *   CF_ERR_RATE_LIMITED (a 429), each after the retries and with nothing cached;
 *   CF_ERR_DECODE (a body that is not what the API sends, or too large); CF_ERR_OFFLINE
 *   when the client is offline, nothing is cached and offline_fallback is off;
 *   CF_ERR_CANCELLED when cf_client_interrupt cut it short.
 * Threads: as cf_breeds_page; must not be called from a listener.
 */
cf_status cf_breed_find(cf_client *c, const char *name, char **out_json);

/* queries over the breeds */

/*
 * Answers a question about the breeds: which (a name prefix, field values, fields
 * present), in what order, grouped or not. The API has no search or filter, so the
 * client fetches every breed once (at the largest page size the server allows) and
 * answers from that; later queries send no request.
 *
 * query_json: NULL or "{}" for every breed by name, else a JSON object with any of:
 *   "search"      string    names starting with it (case- and diacritic-insensitive)
 *   "group_by"    field     group by it: groups ascend by key, breeds without it left out
 *   "sort_by"     field     sort by it (default "breed"): natural order ("Item 9" before
 *                           "Item 10"), case- and diacritic-insensitive, the same in every
 *                           locale; breeds without it last; ties by name
 *   "descending"  bool      sort descending
 *   "where"       object    field -> value: keep breeds whose field equals or contains it
 *   "present"     array     fields a breed must have
 *   "limit"       0..1000000 at most this many breeds (over all groups)
 *   A field is one of "breed", "country", "origin", "coat", "pattern". As for
 *   cf_client_open's options: a key given twice counts the first time, and the JSON
 *   nests at most 64 deep.
 * out_json: receives (yours: free with cf_free) {"items":[breed, ...]}, or with
 *   group_by {"groups":[{"key":"Egypt","items":[breed, ...]}, ...]}; breeds as in
 *   cf_breeds_page. NULL on failure.
 * Returns: CF_OK (an empty answer is not an error); CF_ERR_ARGUMENT for NULL c or out_json,
 *   JSON that is not an object, an unknown key or field, a wrong type; while the breeds are
 *   fetched, as cf_breeds_page: CF_ERR_NETWORK (the server could not be reached),
 *   CF_ERR_TIMEOUT (timeout_ms, connect_timeout_ms or deadline_ms passed), CF_ERR_HTTP (an
 *   error status), CF_ERR_RATE_LIMITED (a 429), each after the retries and with nothing
 *   cached; CF_ERR_DECODE (a body that is not what the API sends, or too large);
 *   CF_ERR_OFFLINE when the client is offline, nothing is cached and offline_fallback is
 *   off; CF_ERR_CANCELLED when cf_client_interrupt cut it short.
 * Threads: as cf_breeds_page; must not be called from a listener.
 */
cf_status cf_breeds_query(cf_client *c, const char *query_json, char **out_json);

/* search as you type */

/* A search that follows the text as it is typed. Opaque. */
typedef struct cf_search cf_search;

/*
 * Hears a search's answers. generation: which cf_search_set call it answers (the first is
 * 1): only the latest text is ever answered, so an earlier generation is never delivered
 * after a later one. s: CF_OK, or why the breeds could not be loaded (the errors of
 * cf_breeds_page). results_json: borrowed for the call (copy it to keep it), keys sorted:
 *   {"items":[breed, ...],"source":"network"|"cache"|"offline-catalog","text":"ab"}
 * or {"error":"...","source":...,"text":...} when s is not CF_OK; breeds as in
 * cf_breeds_page, in name order. "source" says where the breeds searched came from:
 * offline, the cache or the bundled catalog (with offline_fallback).
 * Runs on a library thread (see "Threads"); it may call cf_search_set and close its own
 * search, but no blocking call.
 */
typedef void (*cf_search_listener)(void *ctx, int64_t generation, cf_status s, const char *results_json);

/*
 * Opens a search over c's breeds (a name prefix, case- and diacritic-insensitive, as the
 * "search" of cf_breeds_query). The breeds start loading in the background when the
 * search opens (every page, as for cf_breeds_query, unless c has them already), so they are
 * there or on their way when the first key is typed; they are kept, and searches send no
 * request (a load that failed is tried again by the next search).
 * options_json: NULL, or an object with any of:
 *   "debounce_ms"  0..60000  how long the text must stay unchanged before it is searched
 *                            (default 150): a burst of typing costs one search
 *   "limit"        1..10000  most breeds per answer (default 20)
 *   "fields"       array     the fields each answered breed carries, of "breed",
 *                            "country", "origin", "coat", "pattern" (default all; the
 *                            name, "breed", always): ["breed"] for a list of names
 * fn: hears the answers (required); ctx is passed to it.
 * out: receives the search (yours: close it with cf_search_close; as a list, it keeps
 *   working after cf_client_close of c, which it keeps alive until it is closed: see
 *   "Lifetimes"); NULL on failure.
 * Returns: CF_OK; CF_ERR_ARGUMENT for a NULL c, fn or out, or bad options.
 * Threads: any thread, a listener's too (it never blocks: the breeds load in the
 *   background), any number at once on one client.
 */
cf_status cf_search_open(cf_client *c, const char *options_json, cf_search_listener fn, void *ctx,
                         cf_search **out);

/*
 * Sets the text (UTF-8, at most 1024 bytes; "" matches every breed): never blocks. The
 * answer to the previous text, if still waiting or being searched, is dropped: it will
 * not be delivered.
 * Returns: CF_OK; CF_ERR_ARGUMENT for a NULL s or text, or text that is not UTF-8 or too long.
 * Threads: any thread, a listener's too (its own search's included), any number at once
 *   on one search: the text set last is the one answered.
 */
cf_status cf_search_set(cf_search *s, const char *text);

/*
 * Closes s: when it returns, no answer is being delivered on another thread and none will
 * be (a listener may close its own search). Never waits for the network: a search under
 * way is cancelled. NULL is a no-op.
 * Threads: any thread, a listener's too (its own search's included); once per search, and
 *   no cf_search_set on s may start once it has begun.
 */
void cf_search_close(cf_search *s);

/* metrics */

/*
 * The client's metrics (yours: free with cf_free):
 *   {"endpoints":[{"endpoint":"/breeds","requests":3,"errors":0,"avg_ms":12.1,
 *      "last_ms":10.4,"min_ms":9.8,"max_ms":15.0,"p50_ms":11.0,"p95_ms":15.0,
 *      "p99_ms":15.0,"bytes":20480,"cache_hits":1,"retries":0}, ...],
 *    "device":{"make":"...","model":"...","arch":"x86_64","cpus":2},
 *    "os":{"name":"Debian GNU/Linux","version":"12","kernel":"6.1.0"},
 *    "app":{"name":"<host process>","library_version":"0.2.0"},
 *    "memory":{"resident_bytes":123,"peak_resident_bytes":456},
 *    "online":true,"collected_at":"<RFC 3339>",
 *    "cache":{"path":"/var/cache/app/catfacts.sqlite","bytes":20736,"max_bytes":52428800,
 *      "entries":4,"hits":1,"writes_failed":0,"evicted_entries":0,"evicted_bytes":0,
 *      "warnings":["..."]},
 *    "export":{"endpoint":"http://127.0.0.1:4318","sent":12,"dropped":0,"failures":0,
 *      "queued":0,"warnings":[]}}
 * "requests" counts requests sent, retries included; a call answered without one
 * counts in "cache_hits", and so does one answered by a 304 (which also counts as a
 * request, as it was sent). "online" is false while the client is offline (see
 * cf_client_open). Times are wall time in milliseconds from sending a request
 * to having its whole body, over the requests that got a whole response (whatever its
 * status); a time is null, never 0, when there is none to measure (only cache hits, or
 * every request failed without a response). cf_metrics_endpoints gives the same as structs.
 * "cache" is null when the cache is off (cache_max_bytes 0), else: "path" the file, null
 * for a memory cache (also when the file could not be used; a warning says why); "bytes"
 * the pages take as cache_max_bytes counts them ("max_bytes"); "entries" pages stored;
 * "hits" the endpoints' "cache_hits" summed; "writes_failed" writes that failed;
 * "evicted_entries" and "evicted_bytes" what was evicted to stay within the cap; and
 * "warnings", what went wrong with the cache without failing a call, oldest first (at
 * most 100): a damaged file, with the name it was moved to ("the cache file P is not a
 * valid SQLite database (...); moved it to P.corrupt-<time> and started a new cache"), a
 * folder that is not writable, a failed read or write with its cause ("disk full: 3 cache
 * writes failed; the last: ..."; also "read-only", "permission denied", "I/O error",
 * "locked", "damaged"), pages evicted for the cap ("evicted 3 cached pages (1155 bytes) so
 * far, ..."). A fault that recurs is one line, rewritten with its count.
 * "export" is null when the client does not export (see "otlp_endpoint" at cf_client_open),
 * else: "endpoint" the collector (null when the environment's was refused: export is off
 * and "warnings" says why); "sent" the spans plus the metric data points the collector
 * took; "dropped" spans discarded past the queue's bound (OTEL_BSP_MAX_QUEUE_SIZE), oldest
 * first; "failures" export requests that failed (refused, timed out, a status other than
 * 2xx); "queued" spans waiting to be sent; "warnings" the OTEL_* variables ignored, and why;
 * "traces_endpoint" and "metrics_endpoint" where each signal goes (null when it is not sent).
 * "sent", "dropped" and "queued" are this client's own, though clients exporting with the same
 * settings share one exporter; "failures" are the exporter's.
 * out_json: receives the JSON above (yours: free with cf_free); NULL on failure.
 * Returns: CF_OK; CF_ERR_ARGUMENT for a NULL c or out_json.
 * Threads: any thread, a listener's too, any number at once on one client.
 */
cf_status cf_metrics(cf_client *c, char **out_json);

/*
 * The same metrics in the Prometheus text exposition format (version 0.0.4), metric
 * names prefixed "catfacts_" (yours: free with cf_free), following Prometheus' naming
 * conventions, so `promtool check metrics` accepts it: base units, counters ending in
 * "_total" (catfacts_requests_total, _request_errors_total, _retries_total,
 * _cache_hits_total, _received_bytes_total, each with an "endpoint" label), request times
 * as the histogram catfacts_request_duration_seconds (Prometheus' default buckets,
 * 5 ms to 10 s, with _sum and _count; an endpoint with no time to measure has _count 0 and
 * every bucket 0, as Prometheus' client libraries write a histogram with no observations:
 * no NaN, no invented time), and the gauges catfacts_resident_memory_bytes,
 * _peak_resident_memory_bytes, _online (1 or 0) and _info (labels: library version, OS,
 * device); with a cache, its state as in cf_metrics: the gauges catfacts_cache_entries,
 * _cache_bytes, _cache_max_bytes and _cache_warnings (lines kept), and the counters
 * catfacts_cache_writes_failed_total, _cache_evicted_entries_total and
 * _cache_evicted_bytes_total; with OTLP export on, its figures as in cf_metrics' "export":
 * the counters catfacts_export_sent_total, _export_dropped_total and _export_failures_total
 * and the gauge catfacts_export_queued. The text ends with a newline; scrape it as it is.
 * out_text: receives the text (yours: free with cf_free); NULL on failure.
 * Returns: CF_OK; CF_ERR_ARGUMENT for a NULL c or out_text.
 * Threads: as cf_metrics (a listener may call it).
 */
cf_status cf_metrics_prometheus(cf_client *c, char **out_text);

/*
 * One endpoint's figures: the counts and times of cf_metrics' "endpoints", as numbers
 * rather than JSON.
 * endpoint: the path alone ("/breeds", "/facts", "/fact"), pointing into the block.
 * requests: requests sent, retries included; errors: those that failed; bytes: body bytes
 *   received; cache_hits: calls answered from the cache (a 304 too); retries: requests
 *   sent again after a failure.
 * avg_ms, last_ms, min_ms, max_ms, p50_ms, p95_ms, p99_ms: wall time in milliseconds from
 *   sending a request to having its whole body, over the requests that got a whole
 *   response (whatever its status). NaN when there is no response to measure (none was
 *   sent yet, only cache hits, or every request failed without a response): test with
 *   isnan() from <math.h>, and show it as "no data", never as 0. Otherwise
 *   min_ms <= p50_ms <= p95_ms <= p99_ms <= max_ms (percentiles to 3 significant digits).
 */
typedef struct cf_endpoint_stats {
    const char *endpoint;
    int64_t requests;
    int64_t errors;
    int64_t bytes;
    int64_t cache_hits;
    int64_t retries;
    double avg_ms;
    double last_ms;
    double min_ms;
    double max_ms;
    double p50_ms;
    double p95_ms;
    double p99_ms;
} cf_endpoint_stats;

/*
 * A client's endpoints, one block (yours: free it with cf_free, once; items and their
 * endpoint names point into it and go with it).
 * count: how many endpoints the client has used (0 before its first call).
 * items: count endpoints, sorted by path (as in cf_metrics).
 */
typedef struct cf_endpoint_stats_array {
    int64_t count;
    const cf_endpoint_stats *items;
} cf_endpoint_stats_array;

/*
 * The client's per-endpoint metrics as structs: what cf_metrics' "endpoints" holds, for a
 * program with no JSON parser (bindings/c/endpoint_times.c prints them). Sends nothing
 * and never blocks.
 * out: receives the block (yours: free it with cf_free) on CF_OK; NULL on failure.
 * Returns: CF_OK; CF_ERR_ARGUMENT for a NULL c or out.
 * Threads: as cf_metrics (a listener may call it).
 */
cf_status cf_metrics_endpoints(cf_client *c, cf_endpoint_stats_array **out);

/*
 * Called after every request the client sends (retries included), on a library
 * thread: endpoint ("/breeds"; valid during the call only), the request's wall time
 * in ms, and its outcome (CF_OK or the error). It must not call cf_list_wait or a
 * blocking one-shot call. ctx is passed back as given.
 */
typedef void (*cf_metrics_listener)(void *ctx, const char *endpoint, double ms, cf_status s);

/*
 * Sets the client's metrics listener; fn NULL removes it. A call of the previous
 * listener already under way on another thread may still finish after this returns.
 * Returns: CF_OK; CF_ERR_ARGUMENT for a NULL c.
 * Threads: any thread, a listener's too (removing or replacing itself included), any
 *   number at once on one client: the listener set last is the one kept.
 */
cf_status cf_client_set_metrics_listener(cf_client *c, cf_metrics_listener fn, void *ctx);

/*
 * Interrupts every call in progress on c, from any thread or from a signal handler (as
 * sqlite3_interrupt does): each blocking call (one-shot calls, walks, cf_list_wait) returns
 * CF_ERR_CANCELLED within milliseconds, with no request left running and no list in a bad
 * state; a list's page whose load was cut off loads again on the next access. It only sets
 * a flag and writes a byte to a pipe (async-signal-safe); a library thread does the rest, so
 * a call that starts in between is interrupted too. Calls made afterwards run normally.
 * c must be open (between cf_client_open and cf_client_close); NULL does nothing.
 * Threads: any thread, a listener's too, and signal handlers (the one function they may
 *   call), any number at once on one client.
 */
void cf_client_interrupt(cf_client *c);

/*
 * Called when the client turns offline (online 0: calls in a row got no response, see
 * cf_client_open) and when it is back (online 1: a probe or a call got a response), once
 * per change, on a library thread. It must not call cf_list_wait or a blocking one-shot
 * call. ctx is passed back as given.
 */
typedef void (*cf_online_listener)(void *ctx, int online);

/*
 * Sets the client's online listener; fn NULL removes it. A call of the previous listener
 * already under way on another thread may still finish after this returns; after
 * cf_client_close it is never called again, so ctx may be freed then.
 * Returns: CF_OK; CF_ERR_ARGUMENT for a NULL c.
 * Threads: as cf_client_set_metrics_listener (a listener may call it).
 */
cf_status cf_client_set_online_listener(cf_client *c, cf_online_listener fn, void *ctx);

/*
 * Sets the host's W3C trace context (traceparent "00-<32 hex trace id>-<16 hex parent
 * id>-<2 hex flags>", lowercase), copied: calls that start afterwards carry its trace id,
 * and their spans have its parent id as the parent; NULL clears it. With a trace parent set
 * or export on ("otlp_endpoint"), every request carries "traceparent: 00-<trace id>-<that
 * attempt's span id>-01" ("-00" when the trace parent is not sampled: its flags' bit 0 is
 * clear; those calls' spans are then not exported); with neither, no header is added. The
 * trace id of a call made without a trace parent is new. A thread's own context
 * (cf_client_set_trace_context) comes first for the calls that thread makes.
 * Returns: CF_OK; CF_ERR_ARGUMENT for a NULL c or a malformed value (wrong length, not
 * lowercase hex, an all-zero id, version ff: cf_last_error() says which), which leaves the
 * trace parent as it was.
 * Threads: any thread, a listener's too, any number at once on one client; calls under way
 *   keep the trace parent they started with.
 */
cf_status cf_client_set_trace_parent(cf_client *c, const char *traceparent);

/*
 * Sets the W3C trace context of the calls the calling thread makes on c from now on, over
 * the client's (cf_client_set_trace_parent), which other threads' calls keep using:
 * traceparent as cf_client_set_trace_parent takes it, with tracestate ("vendor=value,...",
 * printable ASCII, at most 16447 bytes; NULL or "" for none), copied. The calls' requests
 * carry its trace id (and the tracestate), their spans have its parent id as the parent and
 * carry the tracestate. An unsampled parent (flags 00) is sent on as such ("-00"), and those
 * calls' spans are not exported (their metrics are). traceparent "" : the thread's calls
 * have no host parent, whatever the client's is; NULL removes the thread's context (the
 * client's applies again). A thread's contexts end with it. The Python package sets it
 * around each call from the calling thread's or task's context (contextvars).
 * Returns: CF_OK; CF_ERR_ARGUMENT for a NULL c or a malformed value (as
 * cf_client_set_trace_parent; a tracestate too long or not printable ASCII: cf_last_error()
 * says which), which leaves the thread's context as it was.
 * Threads: any thread, any number at once on one client; each sets its own only. Calls
 *   under way keep the context they started with.
 */
cf_status cf_client_set_trace_context(cf_client *c, const char *traceparent, const char *tracestate);

/* paged lists: windowed, prefetching, for very long lists */

/* A list over a whole collection that loads pages around where it is read. Opaque. */
typedef struct cf_list cf_list;

/* Which collection a list walks. */
typedef enum cf_collection { CF_BREEDS = 0, CF_FACTS = 1 } cf_collection;

/* A breed handed out by cf_list_breed; absent fields are NULL. */
typedef struct cf_breed {
    const char *breed, *country, *origin, *coat, *pattern;
} cf_breed;

/* A fact handed out by cf_list_fact. */
typedef struct cf_fact {
    const char *fact;
    int64_t length;
} cf_fact;

/* Listener events: what happened to a range of indices. */
typedef enum cf_event {
    CF_EVENT_LOADED = 1,  /* the items are loaded */
    CF_EVENT_FAILED = 2,  /* their page failed to load; cf_list_retry loads it again */
    CF_EVENT_DROPPED = 3  /* dropped to stay within max_cached_items; reloaded on access */
} cf_event;

/*
 * Opens a list over the breeds or the facts of c. Nothing loads until the first access.
 *
 * options_json: NULL for the defaults, else a JSON object with any of these integers
 *   (whole numbers within their range; keys and nesting as for cf_client_open's options):
 *   "page_size"          1..100000     items per request (default 25; the server's cap
 *                                      is adopted if lower)
 *   "prefetch_distance"  0..1000000    items kept loaded on each side of the latest
 *                                      access (default 2 x page_size)
 *   "max_cached_items"   1..10000000   most items held (default 500); at least
 *                                      page_size + 2 x prefetch_distance
 *   "max_length"         0..1000000    facts only: no longer than this (0: no limit)
 * out: receives the list (yours: close it with cf_list_close; it keeps working after
 *   cf_client_close of its client, which it keeps alive until it is closed);
 *   NULL on failure.
 * Returns: CF_OK; CF_ERR_ARGUMENT for a NULL c or out, an unknown collection, an
 *   unknown key, a wrong type (null included) or options that do not fit together.
 * Threads: any thread, a listener's too (nothing loads until the first access), any
 *   number at once on one client.
 */
cf_status cf_list_open(cf_client *c, cf_collection what, const char *options_json, cf_list **out);

/* cf_list_count's answer while the total is not known yet (before the first page loads). */
#define CF_COUNT_UNKNOWN (-1)
/* cf_list_count's answer for a NULL list (or one of another kind); cf_last_error() says which. */
#define CF_COUNT_INVALID (-2)

/*
 * The number of items in the list, >= 0 once the first page has loaded (then updated from
 * every later page); CF_COUNT_UNKNOWN before; CF_COUNT_INVALID for a NULL l. Never blocks
 * and never starts a load. cf_last_error() is "" after a count or CF_COUNT_UNKNOWN, and
 * names the argument after CF_COUNT_INVALID.
 * Returns: the count, CF_COUNT_UNKNOWN or CF_COUNT_INVALID.
 * Threads: any thread, a listener's too, any number at once on one list.
 */
int64_t cf_list_count(cf_list *l);

/*
 * The breed at index (from 0), without blocking. The access starts loading its page
 * if needed and moves the prefetch window.
 * out: receives the breed (yours: free with cf_free, or cf_breed_free) on CF_OK;
 *   NULL on failure and with CF_PENDING.
 * Returns: CF_OK; CF_PENDING while its page loads; the page's error if its load failed
 *   (CF_ERR_NETWORK, CF_ERR_TIMEOUT, CF_ERR_HTTP, CF_ERR_RATE_LIMITED, CF_ERR_DECODE or
 *   CF_ERR_OFFLINE, as cf_breeds_page returns them), until cf_list_retry;
 *   CF_ERR_NOT_FOUND at or past the end, or for a negative index; CF_ERR_ARGUMENT
 *   for NULL l or out, or a list of facts; CF_ERR_CANCELLED once the list is closing.
 * Threads: any thread, a listener's too (on its own list too), any number at once on one
 *   list: one load per page however many ask.
 */
cf_status cf_list_breed(cf_list *l, int64_t index, cf_breed **out);

/*
 * The fact at index, as cf_list_breed (free it with cf_free, or cf_fact_free).
 * out: receives the fact on CF_OK; NULL on failure and with CF_PENDING.
 * Returns: as cf_list_breed: CF_OK; CF_PENDING; the page's error (CF_ERR_NETWORK,
 *   CF_ERR_TIMEOUT, CF_ERR_HTTP, CF_ERR_RATE_LIMITED, CF_ERR_DECODE or CF_ERR_OFFLINE);
 *   CF_ERR_NOT_FOUND; CF_ERR_ARGUMENT (NULL l or out, or a list of breeds);
 *   CF_ERR_CANCELLED.
 * Threads: as cf_list_breed (a listener may call it).
 */
cf_status cf_list_fact(cf_list *l, int64_t index, cf_fact **out);

/*
 * Blocks until index is loaded, failed or known to be past the end, for at most
 * timeout_ms milliseconds. Must not be called from a listener.
 * Returns: what cf_list_breed would return then: CF_OK, the page's error
 *   (CF_ERR_NETWORK, CF_ERR_TIMEOUT, CF_ERR_HTTP, CF_ERR_RATE_LIMITED, CF_ERR_DECODE or
 *   CF_ERR_OFFLINE), CF_ERR_NOT_FOUND, or CF_PENDING if the timeout passed first;
 *   CF_ERR_ARGUMENT for NULL l or a negative timeout; CF_ERR_CANCELLED when
 *   cf_client_interrupt of the list's client or cf_list_close ended the wait.
 * Threads: any number of threads at once on one list; not from a listener: it blocks, and
 *   may wait for the very thread the listener runs on. cf_client_interrupt of the list's
 *   client or cf_list_close ends it.
 */
cf_status cf_list_wait(cf_list *l, int64_t index, int64_t timeout_ms);

/*
 * Forgets the failed pages so the next access loads them again, and reloads those
 * around the latest access now.
 * Returns: CF_OK; CF_ERR_ARGUMENT for NULL l.
 * Threads: any thread, a listener's too, any number at once on one list.
 */
cf_status cf_list_retry(cf_list *l);

/*
 * Called when a range of indices is loaded, failed or dropped: event says which, first is
 * the range's first index, count its length. It runs on a library thread, or on the
 * caller's thread inside cf_list_breed, cf_list_breeds, cf_list_fact, cf_list_facts or
 * cf_list_retry for the pages that access drops (see "Threads" at the top). It must not call
 * cf_list_wait or a blocking one-shot call. ctx is passed back as given.
 */
typedef void (*cf_list_listener)(void *ctx, cf_event event, int64_t first, int64_t count);

/*
 * Sets the list's listener; fn NULL removes it. A call of the previous listener
 * already under way on another thread may still finish after this returns.
 * Returns: CF_OK; CF_ERR_ARGUMENT for NULL l.
 * Threads: any thread, a listener's too (removing or replacing itself included), any
 *   number at once on one list: the listener set last is the one kept.
 */
cf_status cf_list_set_listener(cf_list *l, cf_list_listener fn, void *ctx);

/*
 * Closes a list, cancelling its loads and waking its waiters. NULL is a no-op. Once it
 * returns, the list's listener is never called again (a call under way on another
 * thread is waited for), so its ctx may be freed.
 * Threads: any thread, a listener of l's too, while other threads are blocked in calls on
 *   l (they return CF_ERR_CANCELLED); once per list, and no call on l may start once it
 *   has begun.
 */
void cf_list_close(cf_list *l);

/*
 * Frees a breed from cf_list_breed, strings included, as cf_free does (see "Freeing": it
 * remains for the programs that call it). NULL is a no-op.
 * Threads: as cf_free.
 */
void cf_breed_free(cf_breed *b);

/*
 * Frees a fact from cf_list_fact, its text included, as cf_free does (see "Freeing": it
 * remains for the programs that call it). NULL is a no-op.
 * Threads: as cf_free.
 */
void cf_fact_free(cf_fact *f);

/* batches: many items in one block, for loops over whole pages and lists */

/*
 * Breeds handed out together, in one block with their strings (yours: free the block with
 * cf_free, once; items and text point into it and go with it).
 *
 * items: count breeds, as cf_list_breed gives them (absent fields NULL).
 * text: every string of items in order, five per breed (breed, country, origin, coat,
 *   pattern), each followed by a NUL; an absent field is an empty string (a present one
 *   never is). So text holds exactly 5 x count NULs, and a caller can split it without
 *   reading items (the Python package does). A string holding a NUL (JSON's "\u0000") is
 *   cut there, as every C string is: a field cut to nothing is absent (NULL in items), a
 *   name cut to nothing is "" (never NULL).
 * text_size: the bytes of text, the NULs included.
 */
typedef struct cf_breed_array {
    int64_t count;
    const cf_breed *items;
    const char *text;
    size_t text_size;
} cf_breed_array;

/*
 * A page of breeds as a block of items rather than JSON (yours: free it with cf_free, once).
 * page, last_page, per_page, total, source: as in cf_breeds_page's JSON ("source" is
 *   "network", "cache" or "offline-catalog", pointing into static memory).
 * fetched_at_ms: when the page was fetched (for a cached page: cached), in milliseconds
 *   since 1970-01-01T00:00:00Z.
 * breeds: the page's breeds; count 0 past the last page.
 */
typedef struct cf_breed_page {
    int64_t page;
    int64_t last_page;
    int64_t per_page;
    int64_t total;
    const char *source;
    int64_t fetched_at_ms;
    cf_breed_array breeds;
} cf_breed_page;

/*
 * A page of breeds (GET /breeds), as cf_breeds_page, handed out as one block of items: no
 * JSON to parse. It blocks until answered; the read-ahead of cf_breeds_page (client option
 * "read_ahead") serves it too, so asking pages 1, 2, 3, ... in turn finds the next ones
 * loading already.
 *
 * out: receives the page (yours: free it with cf_free) on CF_OK; NULL on failure.
 * Returns: CF_OK (from the network, or from the cache); CF_ERR_ARGUMENT for NULL c or out,
 *   page or limit < 1; CF_ERR_NETWORK, CF_ERR_TIMEOUT, CF_ERR_HTTP, CF_ERR_RATE_LIMITED, CF_ERR_DECODE,
 *   CF_ERR_OFFLINE and CF_ERR_CANCELLED as cf_breeds_page returns them.
 * Threads: as cf_breeds_page; must not be called from a listener.
 */
cf_status cf_breeds_page_items(cf_client *c, int64_t page, int64_t limit, cf_breed_page **out);

/*
 * Up to max_count breeds of a list from index on, in one call and one block, without
 * blocking: every item of index's page from index on that fits (a batch never crosses a
 * page; call again from index + count for the next). The access moves the prefetch window
 * as cf_list_breed's does. Iterating a list this way costs one call per page, not per item.
 *
 * index: from 0. max_count: >= 1.
 * out: receives the breeds (yours: free the block with cf_free), count >= 1, on CF_OK;
 *   NULL on failure and with CF_PENDING.
 * Returns: CF_OK; CF_PENDING while index's page loads; the page's error if its load
 *   failed (CF_ERR_NETWORK, CF_ERR_TIMEOUT, CF_ERR_HTTP, CF_ERR_RATE_LIMITED, CF_ERR_DECODE
 *   or CF_ERR_OFFLINE, until cf_list_retry); CF_ERR_NOT_FOUND at or past the end, or for a negative
 *   index; CF_ERR_ARGUMENT for NULL l or out, max_count < 1, or a list of facts;
 *   CF_ERR_CANCELLED once the list is closing.
 * Threads: as cf_list_breed (a listener may call it).
 */
cf_status cf_list_breeds(cf_list *l, int64_t index, int64_t max_count, cf_breed_array **out);

/*
 * Facts handed out together, in one block with their texts (yours: free the block with
 * cf_free, once; items and text point into it and go with it).
 *
 * items: count facts, as cf_list_fact gives them.
 * text: the texts of items in order, each followed by a NUL (exactly count NULs; a text
 *   holding a NUL is cut there, as every C string is).
 * text_size: the bytes of text, the NULs included.
 */
typedef struct cf_fact_array {
    int64_t count;
    const cf_fact *items;
    const char *text;
    size_t text_size;
} cf_fact_array;

/*
 * Up to max_count facts of a list from index on, in one call and one block, without
 * blocking: as cf_list_breeds, for a list of facts.
 * out: receives the facts (yours: free the block with cf_free), count >= 1, on CF_OK;
 *   NULL on failure and with CF_PENDING.
 * Returns: as cf_list_breeds: CF_OK; CF_PENDING; the page's error (CF_ERR_NETWORK,
 *   CF_ERR_TIMEOUT, CF_ERR_HTTP, CF_ERR_RATE_LIMITED, CF_ERR_DECODE or CF_ERR_OFFLINE);
 *   CF_ERR_NOT_FOUND; CF_ERR_ARGUMENT (NULL l or out, max_count < 1, or a list of breeds);
 *   CF_ERR_CANCELLED.
 * Threads: as cf_list_fact (a listener may call it).
 */
cf_status cf_list_facts(cf_list *l, int64_t index, int64_t max_count, cf_fact_array **out);

/*
 * A page of facts as a block of items rather than JSON (yours: free it with cf_free, once).
 * page, last_page, per_page, total, source, fetched_at_ms: as in cf_breed_page.
 * facts: the page's facts; count 0 past the last page.
 */
typedef struct cf_fact_page {
    int64_t page;
    int64_t last_page;
    int64_t per_page;
    int64_t total;
    const char *source;
    int64_t fetched_at_ms;
    cf_fact_array facts;
} cf_fact_page;

/*
 * A page of facts (GET /facts), as cf_facts_page, handed out as one block of items: no JSON
 * to parse. As cf_breeds_page_items, it blocks until answered, and the read-ahead of
 * cf_facts_page (client option "read_ahead") serves it too.
 *
 * max_length: only facts no longer than this; 0 for no limit.
 * out: receives the page (yours: free it with cf_free) on CF_OK; NULL on failure.
 * Returns: CF_OK (from the network, or from the cache); CF_ERR_ARGUMENT for NULL c or out,
 *   page or limit < 1, a negative max_length; CF_ERR_NETWORK, CF_ERR_TIMEOUT, CF_ERR_HTTP,
 *   CF_ERR_RATE_LIMITED, CF_ERR_DECODE, CF_ERR_OFFLINE and CF_ERR_CANCELLED as
 *   cf_breeds_page returns them.
 * Threads: as cf_facts_page; must not be called from a listener.
 */
cf_status cf_facts_page_items(cf_client *c, int64_t page, int64_t limit, int64_t max_length,
                              cf_fact_page **out);

#ifdef __cplusplus
}
#endif

#endif /* CATFACTS_H */
