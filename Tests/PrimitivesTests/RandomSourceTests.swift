import Foundation
import Primitives
import Testing

@Suite("Random sources and identifiers")
struct RandomSourceTests {
    @Test("a seeded source gives the same bytes for the same seed, other bytes for another")
    func seeded() {
        #expect(SeededRandomSource(seed: 7).bytes(40) == SeededRandomSource(seed: 7).bytes(40))
        #expect(SeededRandomSource(seed: 7).bytes(40) != SeededRandomSource(seed: 8).bytes(40))
        #expect(SeededRandomSource(seed: 1).bytes(13).count == 13)
    }

    @Test("the system source gives as many bytes as asked, and does not repeat itself")
    func system() {
        let source = SystemRandomSource()
        #expect(source.bytes(16) != source.bytes(16))
        for count in [0, 1, 7, 8, 9, 16, 33] { #expect(source.bytes(count).count == count) }
        #expect(source.bytes(-1).isEmpty)
        // Every byte value turns up among 64 KiB: no byte of a word is left out or fixed.
        let seen = Set(source.bytes(1 << 16))
        #expect(seen.count == 256)
        // Each position of a word varies.
        let words = (0..<64).map { _ in source.bytes(8) }
        for position in 0..<8 { #expect(Set(words.map { $0[position] }).count > 1) }
    }

    @Test("user identifiers are version 4 UUIDs")
    func userID() {
        let id = UserID.random(using: SeededRandomSource(seed: 3)).rawValue
        let groups = id.split(separator: "-").map(\.count)
        #expect(groups == [8, 4, 4, 4, 12])
        #expect(id.split(separator: "-")[2].first == "4")
        #expect("89ab".contains(id.split(separator: "-")[3].first!))
        #expect(id == id.lowercased())
    }

    @Test("an identifier spells its bytes as Foundation's UUID does, with the version and variant set")
    func userIDMatchesFoundation() {
        for seed in 0..<200 as Range<UInt64> {
            var bytes = SeededRandomSource(seed: seed).bytes(16)
            bytes[6] = (bytes[6] & 0x0F) | 0x40
            bytes[8] = (bytes[8] & 0x3F) | 0x80
            let foundation = bytes.withUnsafeBytes { UUID(uuid: $0.load(as: uuid_t.self)) }.uuidString.lowercased()
            #expect(UserID.random(using: SeededRandomSource(seed: seed)).rawValue == foundation)
        }
    }
}
