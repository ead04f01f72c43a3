/*
 * catfacts.h - the C interface of libCatFacts, a client for the Cat Facts API
 * (https://catfact.ninja): paged breeds and facts, per-endpoint metrics, an
 * offline catalog.
 *
 * Conventions (they hold for every function below):
 * - Every fallible function returns a cf_status; CF_OK is 0.
 * - On failure, cf_last_error() describes the cause for the calling thread.
 * - Strings the library hands out through an out-pointer are the caller's:
 *   free them with cf_free(). Strings returned directly (cf_version(),
 *   cf_status_string(), cf_last_error()) belong to the library: never free them.
 * - All text is UTF-8.
 * - Every function may be called from any thread.
 *
 * Link with -lCatFacts (pkg-config: catfacts).
 */
#ifndef CATFACTS_H
#define CATFACTS_H

#ifdef __cplusplus
extern "C" {
#endif

/* version */

#define CF_VERSION_MAJOR 0
#define CF_VERSION_MINOR 1
#define CF_VERSION_PATCH 0
/* "MAJOR.MINOR.PATCH" of this header; compare with cf_version() at run time. */
#define CF_VERSION "0.1.0"
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
    CF_ERR_OFFLINE = 9,       /* offline, and nothing cached or bundled can answer */
    CF_ERR_CANCELLED = 10,    /* the call was cancelled */
    CF_ERR_INTERNAL = 11      /* a bug in libCatFacts; please report the message */
} cf_status;

/* library */

/*
 * The library's version, "MAJOR.MINOR.PATCH" (e.g. "0.1.0").
 * Returns: a static string; never NULL, never free it.
 */
const char *cf_version(void);

/*
 * A name and short description of a status, e.g.
 * "CF_ERR_TIMEOUT: timed out". An unknown value gives "unknown status".
 * Returns: a static string; never NULL, never free it.
 */
const char *cf_status_string(cf_status s);

/*
 * The message of the calling thread's last failed call: what failed, why,
 * and where (the URL, key, page or name). "" when that thread's last call
 * succeeded or it made none.
 * Returns: a string owned by the library, valid until the calling thread's next
 * cf_ call; never NULL, never free it (copy it to keep it).
 */
const char *cf_last_error(void);

/*
 * Frees a string this library handed out through an out-pointer.
 * p: the string; NULL is a no-op. Free each string once.
 */
void cf_free(void *p);

#ifdef __cplusplus
}
#endif

#endif /* CATFACTS_H */
