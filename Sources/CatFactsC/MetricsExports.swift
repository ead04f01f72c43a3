import CatFactsKit
import CCatFactsHeader

// The per-endpoint metrics of include/catfacts.h as data (cf_metrics_endpoints): the
// figures of cf_metrics' "endpoints" in one block of structs, for C programs with no JSON parser.

@_cdecl("cf_metrics_endpoints")
public func cf_metrics_endpoints(_ client: OpaquePointer?,
                                 _ out: UnsafeMutablePointer<UnsafeMutablePointer<cf_endpoint_stats_array>?>?) -> cf_status {
    out?.pointee = nil
    return Call.status { () throws(CatFactsError) in
        let client = try ClientHandle.client(client)
        guard let out else { throw .argument("out (the cf_endpoint_stats_array ** to fill) is NULL") }
        out.pointee = CEndpointStatsBlock.make(client.metrics.endpoints())
    }
}
