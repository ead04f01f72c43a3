/* libcurl for CatFactsKit's HTTP transport (Sources/CatFactsKit/Transport), loaded on first
 * use with dlopen("libcurl.so.4") rather than linked: libcurl brings some thirty shared
 * libraries (TLS, LDAP, Kerberos, SSH...) whose loading took about 8 ms of every process
 * start, network or not (see BENCHMARKS.md, cold start). Headers from libcurl4-openssl-dev;
 * at run time the system's libcurl4, or the library $CATFACTS_LIBCURL names.
 *
 * Call catfacts_curl_load() first; the other functions may be called once it returned 0.
 * curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which Swift
 * cannot call: the typed functions pass each kind of argument through. */
#ifndef CATFACTS_CURL_H
#define CATFACTS_CURL_H

#include <curl/curl.h>

/* Loads libcurl and runs curl_global_init once per process (later calls return the first
 * result at once; safe from any thread). 0 on success; else -1, and *error (if not NULL)
 * points to a static message saying why (dlerror's, or curl_global_init's code). */
int catfacts_curl_load(const char **error);

typedef size_t (*catfacts_curl_data_callback)(char *data, size_t size, size_t count, void *context);

CURL *catfacts_curl_easy_init(void);
void catfacts_curl_easy_cleanup(CURL *handle);
const char *catfacts_curl_easy_strerror(CURLcode code);
CURLcode catfacts_curl_set_long(CURL *handle, CURLoption option, long value);
/* A string option: curl copies it (CURLOPT_URL, CURLOPT_ACCEPT_ENCODING, ...). */
CURLcode catfacts_curl_set_string(CURL *handle, CURLoption option, const char *value);
/* A pointer option: the caller keeps what it points to alive (CURLOPT_HTTPHEADER,
 * CURLOPT_ERRORBUFFER, the callbacks' contexts). */
CURLcode catfacts_curl_set_pointer(CURL *handle, CURLoption option, void *value);
/* CURLOPT_WRITEFUNCTION or CURLOPT_HEADERFUNCTION. */
CURLcode catfacts_curl_set_callback(CURL *handle, CURLoption option, catfacts_curl_data_callback callback);
CURLcode catfacts_curl_get_long(CURL *handle, CURLINFO info, long *value);

struct curl_slist *catfacts_curl_slist_append(struct curl_slist *list, const char *text);
void catfacts_curl_slist_free_all(struct curl_slist *list);

CURLM *catfacts_curl_multi_init(void);
CURLMcode catfacts_curl_multi_cleanup(CURLM *multi);
CURLMcode catfacts_curl_multi_set_long(CURLM *multi, CURLMoption option, long value);
CURLMcode catfacts_curl_multi_add_handle(CURLM *multi, CURL *handle);
CURLMcode catfacts_curl_multi_remove_handle(CURLM *multi, CURL *handle);
CURLMcode catfacts_curl_multi_perform(CURLM *multi, int *running);
CURLMsg *catfacts_curl_multi_info_read(CURLM *multi, int *queued);
CURLMcode catfacts_curl_multi_poll(CURLM *multi, int timeout_ms);
CURLMcode catfacts_curl_multi_wakeup(CURLM *multi);

#endif
