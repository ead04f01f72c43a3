import CatFactsKit
import CCatFactsHeader
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// The library section of include/catfacts.h: version, status strings, last error, free.

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

@_cdecl("cf_free")
public func cf_free(_ pointer: UnsafeMutableRawPointer?) {
    free(pointer)
}
