import AccountsData
import Expenses
import FlowTesting
import FlowsApp
import FlowsServer
import Foundation
import Primitives
import Sync
import Testing

/// The conflict walkthrough, a golden (docs/sync.md): two clients, one expense, one offline edit.
/// Bob changes Dinner's description with his app offline; Ada changes its amount meanwhile; Bob's
/// sync finds the conflict, says both changes, and Bob, on his home's Sync screen, makes his again
/// on top of Ada's. What Bob
/// sees, step by step, must be `Walkthroughs/conflict.txt` word for word
/// (`FLOWS_UPDATE_WALKTHROUGHS=1` writes it anew, to be read before it is committed).
@Suite(.timeLimit(.minutes(2)))
struct ConflictWalkthroughTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Walkthroughs/conflict.txt")
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("Bob's offline edit of Dinner meets Ada's: both changes told, his made again on top of hers")
    func walkthrough() async throws {
        let services = ServerServices.sqlite(.memory, fast: true, now: { Self.now })
        let server = try await RunningServer.start(services: services)
        let ada = try await services.accounts.signUp(email: "ada@example.com", displayName: "Ada Lovelace", password: "correct horse")
        let bob = try await services.accounts.signUp(email: "bob@example.com", displayName: "Bob Stone", password: "correct horse")
        _ = try await services.friends.add(.email("ada@example.com"), by: bob.id)
        _ = try await services.friends.accept(bob.id, by: ada.id)
        let amount = Money(minorUnits: 3000, currency: .eur)
        let dinner = try await services.expenses.add(
            ExpenseDraft(
                description: "Dinner", amount: amount, day: try Day("2026-11-20"), category: .food, payers: [Payer(user: bob.id, amount: amount)],
                participants: [bob.id, ada.id], rule: .equal
            ),
            by: bob.id
        )
        let cable = Cable(serverUp: Flag(true))
        let app = AppContainer.remote(
            server: server.url, tokens: InMemorySessionTokenStore(), now: { Self.now }, timeZone: .gmt, replicasInMemory: true, transport: cable
        )
        _ = try await app.accounts.signIn(email: "bob@example.com", password: "correct horse")
        var walkthrough: [String] = []

        walkthrough.append("## Bob's app is offline; he changes Dinner's description.")
        cable.online = false
        walkthrough.append(try await Self.run(
            """
            flow ExpenseDetail
            choose expense dinner
            tap edit
            fill description "Team dinner"
            tap save
            expect text "Saved."
            back
            """,
            on: app
        ))
        let waiting = try await #require(app.writeQueue(of: bob.id)).writes(of: bob.id)
        walkthrough.append("Waiting: \(waiting.map(\.summary).joined(separator: "; "))")

        walkthrough.append("## Meanwhile Ada changes its amount to 36.00 EUR.")
        var hers = dinner.draft
        hers.amount = Money(minorUnits: 3600, currency: .eur)
        hers.payers = [Payer(user: bob.id, amount: hers.amount)]
        _ = try await services.expenses.edit(dinner.id, to: hers, from: 1, by: ada.id)

        walkthrough.append("## Bob's app is back and syncs.")
        cable.online = true
        let report = try #require(await app.syncReplica(of: bob.id)).get()
        walkthrough.append("Pushed \(report.push.pushed), refused \(report.push.refused), in conflict \(report.push.conflicts).")
        let queue = try #require(app.writeQueue(of: bob.id))
        let conflict = try #require(try await queue.writes(of: bob.id).first)
        walkthrough.append("In conflict: \(conflict.summary): \(await app.explanation(of: conflict, for: bob.id) ?? "(no explanation)")")
        walkthrough.append(try await Self.run(
            """
            flow ExpenseDetail
            choose expense dinner
            back
            """,
            on: app
        ))

        walkthrough.append("## On his home, Sync shows the conflict; Bob makes his again on top of hers.")
        walkthrough.append(try await Self.run(
            """
            flow Authenticated
            back
            expect text "1 change not synced"
            tap sync
            expect text "In conflict: change Team dinner, 30.00 EUR"
            tap apply-mine
            expect text "Made yours again on top of theirs: Team dinner, 36.00 EUR."
            expect text "All your changes are on the server."
            back
            tap quit
            """,
            on: app
        ))
        let merged = try #require(try await services.expenses.expense(dinner.id, for: bob.id))
        walkthrough.append("Made again: \(merged.description), \(merged.amount), version \(merged.version).")
        walkthrough.append(try await Self.run(
            """
            flow ExpenseDetail
            choose expense team-dinner
            back
            """,
            on: app
        ))
        #expect(try await services.expenses.expense(dinner.id, for: ada.id) == merged)
        #expect(merged.description == "Team dinner" && merged.amount.minorUnits == 3600)
        #expect(try await queue.writes(of: bob.id).isEmpty)
        await server.stop()

        let text = walkthrough.joined(separator: "\n") + "\n"
        if ProcessInfo.processInfo.environment["FLOWS_UPDATE_WALKTHROUGHS"] != nil {
            try FileManager.default.createDirectory(at: Self.golden.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: Self.golden, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: Self.golden, encoding: .utf8)
        #expect(text == expected, "the walkthrough differs from Walkthroughs/conflict.txt:\n\(text)")
    }

    /// `script`'s transcript, run on `app` as `flows` runs the flow it names.
    static func run(_ script: String, on app: AppContainer) async throws -> String {
        let parsed = try ScriptParser.parse(script, file: "walkthrough.flows")
        let name = try #require(parsed.flow)
        let entry = try #require(FlowCatalog.entry(named: name))
        let run = await ScriptRunner.run(parsed, flow: name) { router in await entry.run(container: app, router: router) }
        #expect(run.failure == nil, "\(run.failure.map { "\($0)" } ?? "")\n\(run.transcript)")
        return run.transcript
    }
}
