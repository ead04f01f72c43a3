import CCatFactsHeader

/// The compiler's proof that every export has the signature include/catfacts.h declares.
/// `@_cdecl` gives a Swift function a C name but compares it with no C declaration; here each
/// export and the header's declaration of it must have one function type, or the build fails
/// (`conflicting arguments to generic parameter`). The exports take the header's own types
/// (cf_status, cf_collection, cf_breed, cf_fact, the listener typedefs), so a changed field,
/// parameter, constant or return type on either side is a compile error; scripts/check-exports.sh
/// checks the names the built library exports. Never called: the type checker is its reader.
enum HeaderSignatures {
    private static func same<Function>(_ declared: Function, _ defined: Function) {}

    static func check() {
        same(CCatFactsHeader.cf_breed_find, CatFactsC.cf_breed_find)
        same(CCatFactsHeader.cf_breed_free, CatFactsC.cf_breed_free)
        same(CCatFactsHeader.cf_breeds_page, CatFactsC.cf_breeds_page)
        same(CCatFactsHeader.cf_breeds_page_items, CatFactsC.cf_breeds_page_items)
        same(CCatFactsHeader.cf_breeds_query, CatFactsC.cf_breeds_query)
        same(CCatFactsHeader.cf_client_close, CatFactsC.cf_client_close)
        same(CCatFactsHeader.cf_client_interrupt, CatFactsC.cf_client_interrupt)
        same(CCatFactsHeader.cf_client_open, CatFactsC.cf_client_open)
        same(CCatFactsHeader.cf_client_set_metrics_listener, CatFactsC.cf_client_set_metrics_listener)
        same(CCatFactsHeader.cf_client_set_online_listener, CatFactsC.cf_client_set_online_listener)
        same(CCatFactsHeader.cf_client_set_trace_context, CatFactsC.cf_client_set_trace_context)
        same(CCatFactsHeader.cf_client_set_trace_parent, CatFactsC.cf_client_set_trace_parent)
        same(CCatFactsHeader.cf_fact_free, CatFactsC.cf_fact_free)
        same(CCatFactsHeader.cf_fact_random, CatFactsC.cf_fact_random)
        same(CCatFactsHeader.cf_facts_page, CatFactsC.cf_facts_page)
        same(CCatFactsHeader.cf_facts_page_items, CatFactsC.cf_facts_page_items)
        same(CCatFactsHeader.cf_free, CatFactsC.cf_free)
        same(CCatFactsHeader.cf_last_error, CatFactsC.cf_last_error)
        same(CCatFactsHeader.cf_last_error_attempts, CatFactsC.cf_last_error_attempts)
        same(CCatFactsHeader.cf_last_error_http_status, CatFactsC.cf_last_error_http_status)
        same(CCatFactsHeader.cf_last_error_retry_after_ms, CatFactsC.cf_last_error_retry_after_ms)
        same(CCatFactsHeader.cf_list_breed, CatFactsC.cf_list_breed)
        same(CCatFactsHeader.cf_list_breeds, CatFactsC.cf_list_breeds)
        same(CCatFactsHeader.cf_list_close, CatFactsC.cf_list_close)
        same(CCatFactsHeader.cf_list_count, CatFactsC.cf_list_count)
        same(CCatFactsHeader.cf_list_fact, CatFactsC.cf_list_fact)
        same(CCatFactsHeader.cf_list_facts, CatFactsC.cf_list_facts)
        same(CCatFactsHeader.cf_list_open, CatFactsC.cf_list_open)
        same(CCatFactsHeader.cf_list_retry, CatFactsC.cf_list_retry)
        same(CCatFactsHeader.cf_list_set_listener, CatFactsC.cf_list_set_listener)
        same(CCatFactsHeader.cf_list_wait, CatFactsC.cf_list_wait)
        same(CCatFactsHeader.cf_metrics, CatFactsC.cf_metrics)
        same(CCatFactsHeader.cf_metrics_endpoints, CatFactsC.cf_metrics_endpoints)
        same(CCatFactsHeader.cf_metrics_prometheus, CatFactsC.cf_metrics_prometheus)
        same(CCatFactsHeader.cf_search_close, CatFactsC.cf_search_close)
        same(CCatFactsHeader.cf_search_open, CatFactsC.cf_search_open)
        same(CCatFactsHeader.cf_search_set, CatFactsC.cf_search_set)
        same(CCatFactsHeader.cf_status_string, CatFactsC.cf_status_string)
        same(CCatFactsHeader.cf_version, CatFactsC.cf_version)
    }
}
