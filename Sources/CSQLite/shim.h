/* The system's SQLite, for the page cache (Sources/CatFactsKit/Store).
 *
 * SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift does not
 * import: the function below hands it over, so bound text and blobs are copied by SQLite
 * before the Swift buffers they came from go away. */
#ifndef CATFACTS_CSQLITE_SHIM_H
#define CATFACTS_CSQLITE_SHIM_H

#include <sqlite3.h>

static inline sqlite3_destructor_type catfacts_sqlite_transient(void) { return SQLITE_TRANSIENT; }

#endif
