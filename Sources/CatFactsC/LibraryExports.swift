import CatFactsKit
import CCatFactsHeader
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The library section of include/catfacts.h: version, status strings, last error, and
// freeing (cf_free, with cf_breed_free and cf_fact_free of the lists section).

@_cdecl("cf_version")
public func cf_version() -> UnsafePointer<CChar> {
    StaticCStrings.version
}

@_cdecl("cf_status_string")
public func cf_status_string(_ status: cf_status) -> UnsafePointer<CChar> {
    guard let known = Status(status) else { return StaticCStrings.unknownStatus }
    return StaticCStrings.statuses[Int(known.rawValue)]
}

@_cdecl("cf_last_error")
public func cf_last_error() -> UnsafePointer<CChar> {
    LastError.message
}

@_cdecl("cf_last_error_http_status")
public func cf_last_error_http_status() -> Int32 {
    ErrorFields.current.httpStatus
}

@_cdecl("cf_last_error_retry_after_ms")
public func cf_last_error_retry_after_ms() -> Int64 {
    ErrorFields.current.retryAfterMilliseconds
}

@_cdecl("cf_last_error_attempts")
public func cf_last_error_attempts() -> Int32 {
    ErrorFields.current.attempts
}

// The one freeing rule (include/catfacts.h, "Freeing"): every hand-out but a handle is one
// malloc'd block (CBlock, CItems, ownedCString), so free releases any of them whole.
@_cdecl("cf_free")
public func cf_free(_ pointer: UnsafeMutableRawPointer?) {
    free(pointer)
}

// cf_free under the names that programs written before the one rule call for single items.
@_cdecl("cf_breed_free")
public func cf_breed_free(_ breed: UnsafeMutablePointer<cf_breed>?) {
    free(breed)
}

@_cdecl("cf_fact_free")
public func cf_fact_free(_ fact: UnsafeMutablePointer<cf_fact>?) {
    free(fact)
}
