@testable import CatFactsKit
import Testing

@Suite("The breeds a client has seen: bounded, and never a name it saw answered as unknown")
struct KnownBreedsTests {
    private func arena(_ names: [String]) throws -> BreedArena {
        let items = names.map { #"{"breed":"\#($0)","country":"","origin":"","coat":"","pattern":""}"# }
        let body = #"{"current_page":1,"data":[\#(items.joined(separator: ","))],"last_page":1,"per_page":10,"total":\#(names.count)}"#
        return try ScanningPageDecoder().decodeBreedArena(from: Array(body.utf8)).arena
    }

    @Test func aPageDecodedAgainDoesNotCrowdOutTheNextOne() throws {
        // Capacity 4: page A decoded twice (two arenas of the same names) must not count as
        // four names and leave page B out, while a walk says the list was seen whole.
        let known = KnownBreeds(capacity: 4)
        known.add(try arena(["Abyssinian", "Aegean"]))
        known.add(try arena(["Abyssinian", "Aegean"]))
        known.add(try arena(["Bengal", "Birman"]))
        known.markComplete()
        #expect(known.breed(forKey: TextFolding.nameKey("Bengal"))?.breed == "Bengal")
        #expect(known.breed(forKey: TextFolding.nameKey("Aegean"))?.breed == "Aegean")
    }

    @Test func namesLeftOutForTheCapacityMakeTheListIncomplete() throws {
        let known = KnownBreeds(capacity: 2)
        known.add(try arena(["Abyssinian", "Aegean"]))
        known.add(try arena(["Bengal", "Birman"]))
        known.markComplete()
        // Bengal was seen but not kept: "complete" must not let a lookup answer not found.
        #expect(!known.isComplete)
    }
}
