/* libcurl for CatFactsKit's HTTP transport (Sources/CatFactsKit/Transport/CurlTransport.swift);
 * headers from libcurl4-openssl-dev, the library itself is the system's libcurl4.
 *
 * curl_easy_setopt, curl_easy_getinfo and curl_multi_setopt are variadic, which Swift
 * cannot call: the typed functions below pass each kind of argument through. */
#ifndef CATFACTS_CCURL_SHIM_H
#define CATFACTS_CCURL_SHIM_H

#include <curl/curl.h>

typedef size_t (*catfacts_curl_data_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode catfacts_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode catfacts_curl_set_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/* A string option: curl copies it (CURLOPT_URL, CURLOPT_ACCEPT_ENCODING, ...). */
static inline CURLcode catfacts_curl_set_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

/* A pointer option: the caller keeps what it points to alive (CURLOPT_HTTPHEADER,
 * CURLOPT_ERRORBUFFER, CURLOPT_PRIVATE, the callbacks' contexts). */
static inline CURLcode catfacts_curl_set_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

/* CURLOPT_WRITEFUNCTION or CURLOPT_HEADERFUNCTION. */
static inline CURLcode catfacts_curl_set_callback(CURL *handle, CURLoption option, catfacts_curl_data_callback callback) {
    return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode catfacts_curl_get_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode catfacts_curl_get_pointer(CURL *handle, CURLINFO info, void **value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLMcode catfacts_curl_multi_set_long(CURLM *multi, CURLMoption option, long value) {
    return curl_multi_setopt(multi, option, value);
}

#endif
