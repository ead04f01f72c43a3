extension BundledCatalog {
    /// The bundled breeds, in alphabetical order of name. Names are unique, even
    /// ignoring case; a field that is not well established is left out (`nil`).
    public static let breeds: [Breed] = breedTable.split(separator: "\n").map { line in
        let fields = line.split(separator: "|", omittingEmptySubsequences: false)
        func field(_ index: Int) -> String? { index < fields.count && !fields[index].isEmpty ? String(fields[index]) : nil }
        return Breed(breed: field(0) ?? "", country: field(1), origin: field(2), coat: field(3), pattern: field(4))
    }

    /// One breed a line: name|country|origin|coat|pattern, a field left out empty. Text, not
    /// 98 initialisers: the shared library carries the data, not the code that would make it
    /// (about 30 kB of machine code for 5 kB of text).
    private static let breedTable = """
        Abyssinian|Ethiopia|Natural/Standard|Short|Ticked
        Aegean|Greece|Natural/Standard|Semi-long|Bicolor
        American Bobtail|United States|Mutation|Short/Long|All
        American Curl|United States|Mutation|Short/Long|All
        American Shorthair|United States|Natural|Short|All
        American Wirehair|United States|Mutation|Rex|All
        Anatolian|Turkey|Natural|Short|All
        Arabian Mau|United Arab Emirates|Natural|Short|
        Asian|United Kingdom|Crossbreed|Short|
        Australian Mist|Australia|Crossbreed|Short|Spotted
        Balinese|United States|Mutation|Long|Colorpoint
        Bambino|United States|Crossbreed|Hairless|
        Bengal|United States|Hybrid|Short|Spotted
        Birman|France|Natural|Semi-long|Colorpoint
        Bohemian Rex|Czech Republic|Mutation|Rex|
        Bombay|United States|Crossbreed|Short|Solid
        Brazilian Shorthair|Brazil|Natural|Short|All
        British Longhair|United Kingdom|Crossbreed|Long|All
        British Shorthair|United Kingdom|Natural|Short|All
        Burmese|Myanmar|Natural|Short|Solid
        Burmilla|United Kingdom|Crossbreed|Short/Long|Shaded
        California Spangled|United States|Crossbreed|Short|Spotted
        Chantilly-Tiffany|United States||Semi-long|
        Chartreux|France|Natural|Short|Solid
        Chausie|Egypt|Hybrid|Short|Ticked
        Colorpoint Shorthair|United States|Crossbreed|Short|Colorpoint
        Cornish Rex|United Kingdom|Mutation|Rex|All
        Cymric|Canada|Mutation|Long|All
        Cyprus|Cyprus|Natural|Short/Long|All
        Devon Rex|United Kingdom|Mutation|Rex|All
        Donskoy|Russia|Mutation|Hairless|All
        Dragon Li|China|Natural|Short|Mackerel
        Egyptian Mau|Egypt|Natural|Short|Spotted
        European Shorthair||Natural|Short|All
        Exotic Shorthair|United States|Crossbreed|Short|All
        Foldex|Canada|Crossbreed|Short|
        German Rex|Germany|Mutation|Rex|All
        Havana Brown|United Kingdom|Crossbreed|Short|Solid
        Highlander|United States|Crossbreed|Short/Long|
        Himalayan|United States|Crossbreed|Long|Colorpoint
        Japanese Bobtail|Japan|Natural|Short/Long|All
        Javanese|||Long|Colorpoint
        Kanaani|Israel|Hybrid|Short|Spotted
        Karelian Bobtail|Russia|Natural|Short/Long|
        Khao Manee|Thailand|Natural|Short|Solid
        Korat|Thailand|Natural|Short|Solid
        Korn Ja|Thailand|Natural|Short|Solid
        Kurilian Bobtail|Russia|Natural|Short/Long|All
        LaPerm|United States|Mutation|Rex|All
        Lykoi|United States|Mutation|Partly hairless|Roan
        Maine Coon|United States|Natural|Long|All
        Mandalay|New Zealand|Crossbreed|Short|Solid
        Manx|United Kingdom|Natural|Short/Long|All
        Mekong Bobtail|Russia|Natural|Short|Colorpoint
        Minskin|United States|Crossbreed|Hairless|
        Minuet|United States|Crossbreed|Short/Long|All
        Munchkin|United States|Mutation|Short/Long|All
        Nebelung|United States||Semi-long|Solid
        Neva Masquerade|Russia|Natural|Semi-long|Colorpoint
        Norwegian Forest Cat|Norway|Natural|Long|All
        Ocicat|United States|Crossbreed|Short|Spotted
        Ojos Azules|United States|||
        Oregon Rex|United States||Rex|
        Oriental Bicolor||Crossbreed|Short|Bicolor
        Oriental Longhair||Crossbreed|Semi-long|All
        Oriental Shorthair||Crossbreed|Short|All
        Persian|Iran|Natural|Long|All
        Peterbald|Russia|Crossbreed|Hairless|All
        Pixie-bob|United States|Natural|Short|Spotted
        Raas|Indonesia|Natural|Short|
        Ragamuffin|United States|Crossbreed|Long|All
        Ragdoll|United States|Crossbreed|Long|Colorpoint
        Russian Blue|Russia|Natural|Short|Solid
        Sam Sawet|Thailand|Natural|Short|Solid
        Savannah|United States|Hybrid|Short|Spotted
        Scottish Fold|United Kingdom|Mutation|Short/Long|All
        Selkirk Rex|United States|Mutation|Rex|All
        Serengeti|United States|Crossbreed|Short|Spotted
        Seychellois|United Kingdom|Crossbreed|Short/Long|Colorpoint
        Siamese|Thailand|Natural|Short|Colorpoint
        Siberian|Russia|Natural|Semi-long|All
        Singapura|Singapore|Natural|Short|Ticked
        Snowshoe|United States|Crossbreed|Short|Colorpoint
        Sokoke|Kenya|Natural|Short|Classic tabby
        Somali||Mutation|Long|Ticked
        Sphynx|Canada|Mutation|Hairless|All
        Suphalak|Thailand|Natural|Short|Solid
        Thai|Thailand|Natural|Short|Colorpoint
        Thai Lilac|Thailand|Natural|Short|Solid
        Tiffanie|United Kingdom|Crossbreed|Semi-long|
        Tonkinese|Canada|Crossbreed|Short|Colorpoint
        Toybob|Russia|Natural|Short/Long|Colorpoint
        Toyger|United States|Crossbreed|Short|Mackerel
        Turkish Angora|Turkey|Natural|Semi-long|All
        Turkish Van|Turkey|Natural|Semi-long|Van
        Ukrainian Levkoy|Ukraine|Crossbreed|Hairless|All
        Ural Rex|Russia||Rex|
        York Chocolate|United States|Natural|Long|Solid
        """
}
