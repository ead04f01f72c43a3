/// Bodies in the shapes the real service sends (https://catfact.ninja, a Laravel paginator).
enum Fixtures {
    /// `/breeds?limit=2&page=1`: `per_page` as a string (echoed from the query), escaped
    /// slashes, empty fields, the full `links` array.
    static let breedsPerPageString = #"""
    {"current_page":1,"data":[{"breed":"Abyssinian","country":"Ethiopia","origin":"Natural\/Standard","coat":"Short","pattern":"Ticked"},{"breed":"Aegean","country":"Greece","origin":"Natural\/Standard","coat":"","pattern":""}],"first_page_url":"https:\/\/catfact.ninja\/breeds?page=1","from":1,"last_page":49,"last_page_url":"https:\/\/catfact.ninja\/breeds?page=49","links":[{"url":null,"label":"&laquo; Previous","active":false},{"url":"https:\/\/catfact.ninja\/breeds?page=1","label":"1","active":true},{"url":"https:\/\/catfact.ninja\/breeds?page=2","label":"2","active":false},{"url":null,"label":"...","active":false},{"url":"https:\/\/catfact.ninja\/breeds?page=49","label":"49","active":false},{"url":"https:\/\/catfact.ninja\/breeds?page=2","label":"Next &raquo;","active":false}],"next_page_url":"https:\/\/catfact.ninja\/breeds?page=2","path":"https:\/\/catfact.ninja\/breeds","per_page":"2","prev_page_url":null,"to":2,"total":98}
    """#

    /// `/breeds` with no limit: `per_page` as a number.
    static let breedsPerPageNumber = #"""
    {"current_page":4,"data":[{"breed":"Chartreux","country":"France","origin":"Natural","coat":"Short","pattern":"Solid"}],"first_page_url":"https:\/\/catfact.ninja\/breeds?page=1","from":76,"last_page":4,"last_page_url":"https:\/\/catfact.ninja\/breeds?page=4","links":[],"next_page_url":null,"path":"https:\/\/catfact.ninja\/breeds","per_page":25,"prev_page_url":"https:\/\/catfact.ninja\/breeds?page=3","to":76,"total":76}
    """#

    /// A page past the end: no data, `from` and `to` null.
    static let breedsPastTheEnd = #"""
    {"current_page":60,"data":[],"first_page_url":"https:\/\/catfact.ninja\/breeds?page=1","from":null,"last_page":4,"last_page_url":"https:\/\/catfact.ninja\/breeds?page=4","links":[{"url":"https:\/\/catfact.ninja\/breeds?page=59","label":"&laquo; Previous","active":false},{"url":null,"label":"Next &raquo;","active":false}],"next_page_url":null,"path":"https:\/\/catfact.ninja\/breeds","per_page":"25","prev_page_url":"https:\/\/catfact.ninja\/breeds?page=59","to":null,"total":98}
    """#

    /// `/facts`: curly quotes and an en dash as `\u` escapes, and one written raw.
    static let factsWithUnicode = #"""
    {"current_page":1,"data":[{"fact":"A cat\u2019s \u201cknead\u201d comes from kittenhood \u2013 it\u2019s comfort.","length":52},{"fact":"Cats see at 1\/6 the light level we need; body temp 38.6 °C.","length":59}],"first_page_url":"https:\/\/catfact.ninja\/facts?page=1","from":1,"last_page":166,"last_page_url":"https:\/\/catfact.ninja\/facts?page=166","links":[],"next_page_url":"https:\/\/catfact.ninja\/facts?page=2","path":"https:\/\/catfact.ninja\/facts","per_page":"2","prev_page_url":null,"to":2,"total":332}
    """#

    /// `/fact`.
    static let randomFact = #"{"fact":"Cats have 32 muscles in each ear.","length":33}"#
}
