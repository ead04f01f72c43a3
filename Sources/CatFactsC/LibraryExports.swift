import CatFactsKit
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
public func cf_status_string(_ status: Int32) -> UnsafePointer<CChar> {
    guard let known = Status(rawValue: status) else { return StaticCStrings.unknownStatus }
    return StaticCStrings.statuses[Int(known.rawValue)]
}

@_cdecl("cf_last_error")
public func cf_last_error() -> UnsafePointer<CChar> {
    LastError.message
}

@_cdecl("cf_free")
public func cf_free(_ pointer: UnsafeMutableRawPointer?) {
    free(pointer)
}
