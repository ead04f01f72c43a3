/* libcurl for CatFactsKit's HTTP transport (Sources/CatFactsKit/Transport), loaded on first
 * use with dlopen("libcurl.so.4") rather than linked: libcurl brings some thirty shared
 * libraries (TLS, LDAP, Kerberos, SSH...) whose loading took about 8 ms of every process
 * start, network or not (see BENCHMARKS.md, cold start). Headers from libcurl4-openssl-dev.
 *
 * Which libcurl, in this order:
 *   1. the file $CATFACTS_LIBCURL names, when it is set and not empty, and nothing else (a
 *      choice made on purpose is not second-guessed);
 *   2. the libcurl bundled with the library: the anchor CATFACTS_LIBCURL_ANCHOR in the
 *      folder of libCatFacts.so.0 (found with dladdr), a library whose only job is to be
 *      linked against libcurl.so.4. The Python wheel carries it (bindings/python/setup.py
 *      builds it); `auditwheel repair` then vendors libcurl and the libraries it needs into
 *      catfacts.libs/ and points the anchor at them with an $ORIGIN RPATH, so a repaired
 *      wheel brings its own libcurl and behaves the same on every system. Loading the
 *      anchor loads that libcurl, and dlsym through the anchor's handle finds its functions.
 *      Skipped when there is no anchor (make install, the Debian packages); when the anchor
 *      is there but does not load (a wheel that was not repaired, on a system without
 *      libcurl4), the next step is tried;
 *   3. the system's libcurl4, CATFACTS_SYSTEM_LIBCURL.
 * When none loads, the error names each one tried and dlerror's reason.
 *
 * CA certificates: a libcurl looks for them where the system it was built on keeps them, so
 * the wheel's (built on Debian) would find none on Fedora or openSUSE. When the bundle
 * libcurl names is missing, each easy handle made here is given the first of the common
 * distributions' bundles that exists (the list is in catfacts_curl.c).
 *
 * Call catfacts_curl_load() first; the other functions may be called once it returned 0.
 * curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which Swift
 * cannot call: the typed functions pass each kind of argument through. */
#ifndef CATFACTS_CURL_H
#define CATFACTS_CURL_H

#include <curl/curl.h>

/* The file name of the anchor a wheel carries beside libCatFacts.so.0 (see above); setup.py
 * uses the same name. */
#define CATFACTS_LIBCURL_ANCHOR "_curl_anchor.so"
/* The system's libcurl, by SONAME. */
#define CATFACTS_SYSTEM_LIBCURL "libcurl.so.4"

/* Loads libcurl, runs curl_global_init and chooses the CA bundle once per process (later calls return the first
 * result at once; safe from any thread). 0 on success; else -1, and *error (if not NULL)
 * points to a static message saying why (dlerror's, or curl_global_init's code). */
int catfacts_curl_load(const char **error);

typedef size_t (*catfacts_curl_data_callback)(char *data, size_t size, size_t count, void *context);

/* A new easy handle, given the CA bundle chosen at load (see above), if any. */
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
