/* The system's zlib (zlib1g; zlib1g-dev for the header), for gzip-compressed OTLP exports
 * (Sources/CatFactsKit/Telemetry/Gzip.swift). libcurl already depends on it, so linking it
 * adds no library a system with libcurl lacks.
 *
 * deflateInit2 is a macro passing the header's version and the stream's size, which Swift
 * does not import: the function below calls it. */
#ifndef CATFACTS_CZLIB_SHIM_H
#define CATFACTS_CZLIB_SHIM_H

#include <zlib.h>

/* deflateInit2 for a gzip wrapper (windowBits 15 + 16) at `level`, memLevel 8. */
static inline int catfacts_deflate_init_gzip(z_stream *stream, int level) {
    return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

#endif
