import CZlib

/// gzip (RFC 1952) by the system's zlib, for `OTEL_EXPORTER_OTLP_COMPRESSION=gzip`.
enum Gzip {
    /// `bytes` compressed at zlib's default level; `nil` when zlib failed (out of memory), and
    /// the export then goes uncompressed.
    static func compressed(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count < Int(uInt.max / 2) else { return nil }
        var stream = z_stream()
        guard catfacts_deflate_init_gzip(&stream, Z_DEFAULT_COMPRESSION) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        // deflateBound covers the worst case, so one deflate call with Z_FINISH ends the stream.
        let bound = Int(deflateBound(&stream, uLong(bytes.count)))
        var output = [UInt8](repeating: 0, count: bound)
        var input = bytes
        let result: Int32 = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = uInt(inputBuffer.count)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = uInt(outputBuffer.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard result == Z_STREAM_END else { return nil }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }
}
