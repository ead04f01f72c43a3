extension LiveSearch {
    /// Search as you type over `client`'s breeds: the catalog is
    /// ``CatFactsClient/breedCatalog(refresh:)``, fetched once per client and shared with its
    /// queries. The other parameters are those of
    /// ``init(debounce:limit:fields:catalog:listener:)``.
    public convenience init(client: CatFactsClient, debounce: Duration = .milliseconds(150), limit: Int = 20,
                            fields: Set<Breed.Field> = Set(Breed.Field.allCases),
                            listener: @escaping @Sendable (Answer) -> Void) {
        self.init(debounce: debounce, limit: limit, fields: fields,
                  catalog: { () async throws(CatFactsError) in try await client.breedCatalog() }, listener: listener)
    }
}
