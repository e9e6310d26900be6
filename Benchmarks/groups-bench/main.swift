import BenchmarkSupport
import Accounts
import Expenses
import FlowKit
import FlowsApp
import Foundation
import Friends
import Groups
import Primitives

// Groups at scale (Scripts/bench): one user in a group of 50 members (the user and 49 of their
// contacts) with 100,000 expenses filed under it, on the app's in-memory store. Times, as the
// flows run them through the router:
//   - the Groups tab's first screen, from launching the flow to the screen presented;
//   - GroupDetail's first screen, from choosing the group on the tab to its detail presented;
//   - adding an expense in the group against adding one outside any group, through the
//     service, in the same run, alternating blocks, and their ratio.
// Prints figures; asserts nothing. MEMBERS, GROUP_EXPENSES and ADDS scale it.

/// Answers the tab by opening its first group, the detail by leaving it, and the tab shown
/// again by leaving it too; notes when each screen arrived.
actor TimingHost: ScreenHost {
    let clock = ContinuousClock()
    private(set) var tabShown: ContinuousClock.Instant?
    private(set) var chosen: ContinuousClock.Instant?
    private(set) var detailShown: ContinuousClock.Instant?
    private(set) var detailLines = 0

    func present(_ screen: Screen) async { arrived(screen) }
    func update(_ screen: Screen) async { arrived(screen) }
    func dismiss(_ screenID: ScreenID) async {}

    private func arrived(_ screen: Screen) {
        if screen.id == "groups", tabShown == nil, screen.field("group") != nil { tabShown = clock.now }
        if screen.id == "group-detail", detailShown == nil, screen.field("line") != nil {
            detailShown = clock.now
            detailLines = screen.text.count + (screen.field("line")?.input.options.count ?? 0)
        }
    }

    func nextEvent(on screen: Screen) async -> UserEvent {
        if screen.id == "groups", chosen == nil, let first = screen.field("group")?.input.options.first {
            chosen = clock.now
            return .choose("group", [first.id])
        }
        return .cancel
    }
}

let environment = ProcessInfo.processInfo.environment
let memberCount = max(2, Int(environment["MEMBERS"] ?? "") ?? 50)
let expenseCount = Int(environment["GROUP_EXPENSES"] ?? "") ?? 100_000
let adds = Int(environment["ADDS"] ?? "") ?? 2_000
let runs = Int(environment["RUNS"] ?? "") ?? 20

let container = AppContainer.inMemory()
let building = ContinuousClock().now
let ada = try await container.accounts.signUp(email: "ada@example.com", displayName: "Ada Lovelace", password: "correct horse")
var contacts: [UserID] = []
for index in 1..<memberCount { contacts.append(try await container.friends.addContact(name: "Member \(index)", email: nil, by: ada.id).id) }
let members = contacts
let group = try await container.groups.create(GroupDraft(name: "Big trip", kind: .trip, currency: .eur, members: members), by: ada.id)
let start = try Day("2026-11-22")

/// An expense Ada paid, shared with two members, in `group` or outside any.
@MainActor func draft(_ index: Int, in group: GroupID?) -> ExpenseDraft {
    let amount = Money(minorUnits: Int64(300 + index % 9_700), currency: index % 5 == 0 ? .usd : .eur)
    let people = [ada.id, members[index % members.count], members[(index * 7 + 1) % members.count]]
    return ExpenseDraft(
        description: "Expense \(index)", amount: amount, day: start.adding(days: -(index / 100)) ?? start, category: .general,
        payers: [Payer(user: ada.id, amount: amount)], participants: people.reduce(into: [UserID]()) { if !$0.contains($1) { $0.append($1) } }, rule: .equal,
        group: group
    )
}
for index in 0..<expenseCount { _ = try await container.expenses.add(draft(index, in: group.id), by: ada.id) }
print("Data set: 1 user in a group of \(memberCount) members, \(expenseCount) expenses in it, built in \(String(format: "%.1f", milliseconds(ContinuousClock().now - building) / 1000)) s")

guard let entry = FlowCatalog.entry(named: "Groups") else {
    print("the catalog has no Groups flow")
    exit(1)
}
var tabTimes: [Double] = []
var detailTimes: [Double] = []
var lines = 0
for _ in 0..<runs {
    let host = TimingHost()
    let launched = ContinuousClock().now
    _ = await entry.run(container: container, router: AppRouter(host: host))
    guard let tab = await host.tabShown, let chosen = await host.chosen, let detail = await host.detailShown else {
        print("the benchmark did not reach the group's detail")
        exit(1)
    }
    tabTimes.append(milliseconds(tab - launched))
    detailTimes.append(milliseconds(detail - chosen))
    lines = await host.detailLines
}
print("Groups tab, first screen (1 group of \(memberCount), \(expenseCount) expenses), median of \(runs): \(String(format: "%.2f", median(tabTimes))) ms  (target: under 50 ms)")
print("GroupDetail, first screen (\(lines) lines), median of \(runs): \(String(format: "%.2f", median(detailTimes))) ms  (target: under 50 ms)")

// Adding: blocks of 100 in the group and 100 outside, alternating, so that both see the same
// store as it grows and the same machine load.
var inGroup = Duration.zero
var outside = Duration.zero
let clock = ContinuousClock()
var added = 0
while added < adds {
    for (filed, total) in [(Optional(group.id), 0), (nil, 1)] {
        let began = clock.now
        for offset in 0..<100 { _ = try await container.expenses.add(draft(expenseCount + added + offset, in: filed), by: ada.id) }
        if total == 0 { inGroup += clock.now - began } else { outside += clock.now - began }
    }
    added += 100
}
let perGroup = milliseconds(inGroup) * 1000 / Double(added)
let perOutside = milliseconds(outside) * 1000 / Double(added)
print("Adding an expense: \(String(format: "%.1f", perGroup)) µs in the group, \(String(format: "%.1f", perOutside)) µs outside (\(added) each, alternating): \(String(format: "%.2f", perGroup / perOutside))×  (target: at most 1.10×)")
if let verifier = container.verifier { print(try await verifier.verify().summary) }
