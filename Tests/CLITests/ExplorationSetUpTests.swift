import FlowTesting
import FlowsApp
import Foundation
import Testing

/// `flows test --explore` sets each walk's store up once per process and puts every later fresh
/// store where that left the first: the walks must be the ones the `given` steps, run again for
/// each, would give.
@Suite("Walks on a store put back where its set-up left another")
struct ExplorationSetUpTests {
    /// A flow for the signed-out and one for the signed-in set-up.
    let flows = ["SignIn", "AddExpense"]

    @Test("a store put back holds what the given steps write, and goes on as they leave it: the same next ids and friend codes")
    func sameStore() async throws {
        // An account made after the set-up draws its id and friend code from the seeded source.
        let eve = ["account", "eve@example.com", "correct horse", "Eve Adams"]
        for flow in flows {
            let replayed = try GoldenScripts.exploration(of: flow)
            for words in replayed.given { try await replayed.prepare(words) }
            let expected = await replayed.contents()
            #expect(expected.contains("ada@example.com"))
            try await replayed.prepare(eve)
            let expectedNext = await replayed.contents()
            // The first set-up in the process may run the steps; the second is put back.
            for round in 0..<2 {
                let launch = try GoldenScripts.exploration(of: flow)
                let setUp = try #require(launch.setUp)
                try await setUp()
                #expect(await launch.contents() == expected, "\(flow), set-up \(round + 1)")
                try await launch.prepare(eve)
                #expect(await launch.contents() == expectedNext, "\(flow), set-up \(round + 1)")
            }
        }
    }

    @Test("every screen of every walk is the same whether the given steps run or the store is put back")
    func sameWalks() async throws {
        func explore(puttingBack: Bool) async throws -> Explorer.Summary {
            var explorer = Explorer(launcher: { flow in
                var launch = try GoldenScripts.exploration(of: flow)
                if !puttingBack { launch.setUp = nil }
                return launch
            })
            explorer.collectsCoverage = true
            return try await explorer.explore(flows: flows, walks: 12, seed: 5)
        }
        let replayed = try await explore(puttingBack: false)
        let putBack = try await explore(puttingBack: true)
        #expect(replayed.walks == 24)
        #expect(replayed.findings.isEmpty && putBack.findings.isEmpty)
        #expect(replayed.steps == putBack.steps)
        #expect(replayed.runs.map(\.screens) == putBack.runs.map(\.screens))
        // The walks saw the accounts the set-up made, their friend codes included.
        let texts = replayed.runs.flatMap(\.screens).map { "\($0)" }.joined()
        #expect(texts.contains("Bob Stone"))
    }
}
