import Expenses
import Friends
import Groups
import Interchange
import Primitives

/// Imports on top of the areas' services, as the acting user: people through Friends (matched,
/// or made contacts), the group through Groups, and the entries through Expenses, in one
/// transaction there.
public struct LiveInterchangeService: InterchangeService {
    let expenses: any ExpensesService
    let friends: any FriendsService
    let groups: any GroupsService

    public init(expenses: any ExpensesService, friends: any FriendsService, groups: any GroupsService) {
        self.expenses = expenses
        self.friends = friends
        self.groups = groups
    }

    public func plan(_ sheet: Sheet, options: ImportOptions, by user: UserID) async throws(InterchangeError) -> ImportPlan {
        try await prepare(sheet, options: options, by: user).plan
    }

    public func run(_ sheet: Sheet, options: ImportOptions, by user: UserID, progress: ImportProgress?) async throws(InterchangeError) -> ImportPlan {
        var prepared = try await prepare(sheet, options: options, by: user)
        guard !prepared.plan.adding.isEmpty else { return prepared.plan }
        // The contacts it needs, then its group, then every entry in one write.
        for (index, person) in prepared.plan.people.enumerated() where person.match == .newContact {
            do throws(FriendsError) {
                prepared.ids[index] = try await friends.addContact(name: person.name, email: nil, by: user).id
            } catch {
                throw .refused(row: nil, "\(person.name) cannot be made a contact: \(error.message)")
            }
        }
        var groups: [String: GroupID] = [:]
        for planned in prepared.plan.groups {
            let entries = prepared.plan.adding.filter { (options.group ?? $0.group)?.lowercased() == planned.name.lowercased() }
            guard let first = entries.first else { continue }
            let people = entries.reduce(into: Set<Int>()) { $0.formUnion($1.people) }.compactMap { prepared.ids[$0] }.filter { $0 != user }
            groups[planned.name.lowercased()] = try await group(named: planned.name, with: people.sorted { $0.rawValue < $1.rawValue }, currency: first.amount.currency, by: user)
        }
        let entries = prepared.plan.adding.map { entry in
            Self.entry(entry, ids: prepared.ids, group: (options.group ?? entry.group).flatMap { groups[$0.lowercased()] })
        }
        let written: Set<String>
        do throws(ExpensesError) {
            written = try await expenses.importEntries(entries, by: user, progress: progress)
        } catch {
            throw Self.refusal(error)
        }
        prepared.plan.adding = prepared.plan.adding.filter { written.contains($0.key) }
        prepared.plan.alreadyImported += entries.count - written.count
        return prepared.plan
    }

    /// A plan, and the ids of the people it matched (by their place in the sheet).
    private struct Prepared {
        var plan: ImportPlan
        var ids: [Int: UserID]
    }

    private func prepare(_ sheet: Sheet, options: ImportOptions, by user: UserID) async throws(InterchangeError) -> Prepared {
        let known: [Friend]
        let yourName: String?
        do throws(FriendsError) {
            known = try await friends.friends(of: user)
            yourName = try await friends.names(of: [user], for: user)[user]?.value
        } catch {
            throw .storeUnavailable(error.message)
        }
        let place = { (name: String) in sheet.people.firstIndex { $0.lowercased() == name.lowercased() } }
        // The name given; else the user's own; else, in an export of Flows', its exporter.
        let me: Int
        if let name = options.me {
            guard let index = place(name) else { throw .whoAreYou(name, among: sheet.people) }
            me = index
        } else if let index = yourName.flatMap(place) ?? sheet.exporter {
            me = index
        } else {
            throw .whoAreYou(yourName, among: sheet.people)
        }
        for name in options.matches.keys where place(name) == nil {
            throw .badMatch("--map names \(name), who is not in the file (\(sheet.people.joined(separator: ", "))).")
        }
        let matches = Dictionary(options.matches.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })

        // The user's entries; the others are left out, saying between whom they are.
        var mine: [SheetEntry] = []
        var leftOut = sheet.passed
        for entry in sheet.entries {
            if entry.people.contains(me) {
                mine.append(entry)
            } else {
                let names = entry.people.sorted().map { sheet.people[$0] }.listedInWords
                leftOut.append(SheetNote(row: entry.row, "\(entry.description) is between \(names), without you: left out."))
            }
        }
        let involved = mine.reduce(into: Set<Int>()) { $0.formUnion($1.people) }.subtracting([me])

        var ids: [Int: UserID] = [me: user]
        var people: [ImportPlan.Person] = []
        var unmatched: [String] = []
        for (index, name) in sheet.people.enumerated() {
            guard index != me else {
                people.append(ImportPlan.Person(name: name, match: .you))
                continue
            }
            guard involved.contains(index) else {
                people.append(ImportPlan.Person(name: name, match: .notNeeded))
                continue
            }
            let found: Friend?
            switch matches[name.lowercased()] {
            case .email(let email)?:
                let key = EmailAddress.key(for: email)
                found = known.first { $0.email?.key == key }
                guard found != nil else { throw .badMatch("No friend or contact of yours has the email \(email) (--map \"\(name)=\(email)\").") }
            case .contact?:
                found = known.first { $0.isContact && $0.name.value.lowercased() == name.lowercased() }
            case nil:
                // By the email the file gives, else by name.
                let key = sheet.emails[index].map(EmailAddress.key(for:))
                found = known.first { friend in key != nil && friend.email?.key == key } ?? known.first { $0.name.value.lowercased() == name.lowercased() }
                if found == nil { unmatched.append(name) }
            }
            if let found {
                ids[index] = found.id
                people.append(ImportPlan.Person(name: name, match: .friend(found.id, name: found.name.value)))
            } else {
                people.append(ImportPlan.Person(name: name, match: .newContact))
            }
        }
        guard unmatched.isEmpty else { throw .unmatched(unmatched) }

        // Each entry as the ledger will check it, so that a refusal names its row.
        for entry in mine {
            guard case .expense = entry.movement else { continue }
            let stand = Dictionary(uniqueKeysWithValues: entry.people.map { ($0, UserID(rawValue: "person-\($0)")) })
            guard case .expense(let draft) = Self.entry(entry, ids: stand, group: nil).kind else { continue }
            do {
                _ = try Expense(id: ExpenseID(rawValue: "check"), draft: draft)
            } catch {
                throw .refused(row: entry.row, error.message)
            }
        }
        let before: Set<String>
        do throws(ExpensesError) {
            before = try await expenses.importedKeys(among: mine.map(\.key), by: user)
        } catch {
            throw Self.refusal(error)
        }
        let adding = mine.filter { !before.contains($0.key) }
        var planned: [PlannedGroup] = []
        var names: [String] = options.group.map { [$0] } ?? []
        if options.group == nil {
            for entry in adding { if let name = entry.group, !names.contains(where: { $0.lowercased() == name.lowercased() }) { names.append(name) } }
        }
        if !names.isEmpty {
            let open: [Group]
            do throws(GroupsError) { open = try await groups.groups(of: user, archived: false) } catch { throw .storeUnavailable(error.message) }
            planned = names.map { name in PlannedGroup(name: name, isNew: !open.contains { $0.name.lowercased() == name.lowercased() }) }
        }
        let plan = ImportPlan(
            format: sheet.format, people: people, adding: adding, alreadyImported: before.count,
            leftOut: leftOut.sorted { ($0.row ?? 0) < ($1.row ?? 0) }, groups: planned
        )
        return Prepared(plan: plan, ids: ids)
    }

    /// The user's open group of that name, with the people added who are not in it yet; or a
    /// new one with them.
    private func group(named name: String, with people: [UserID], currency: Currency, by user: UserID) async throws(InterchangeError) -> GroupID {
        do throws(GroupsError) {
            if let group = try await groups.groups(of: user, archived: false).first(where: { $0.name.lowercased() == name.lowercased() }) {
                let missing = people.filter { !group.members.contains($0) }
                if !missing.isEmpty { _ = try await groups.addMembers(missing, to: group.id, by: user) }
                return group.id
            }
            return try await groups.create(GroupDraft(name: name, currency: currency, members: people), by: user).id
        } catch {
            throw .refused(row: nil, "the group \(name) cannot be made or joined: \(error.message)")
        }
    }

    /// A sheet's entry as the ledger takes it, with each person's id.
    static func entry(_ entry: SheetEntry, ids: [Int: UserID], group: GroupID?) -> ImportedEntry {
        let currency = entry.amount.currency
        let id = { (index: Int) in ids[index] ?? UserID(rawValue: "unknown") }
        switch entry.movement {
        case .expense(let paid, let parts):
            let draft = ExpenseDraft(
                description: description(entry.description), amount: entry.amount, day: entry.day, category: entry.category,
                payers: paid.list.map { Payer(user: id($0.person), amount: Money(minorUnits: $0.amount, currency: currency)) },
                participants: parts.list.map { id($0.person) },
                rule: .exact(Dictionary(parts.list.map { (id($0.person), Money(minorUnits: $0.amount, currency: currency)) }, uniquingKeysWith: { first, _ in first })),
                note: entry.note, group: group
            )
            return ImportedEntry(key: entry.key, kind: .expense(draft), id: entry.id.map(ExpenseID.init(rawValue:)))
        case .payment(let from, let to):
            return ImportedEntry(
                key: entry.key, kind: .payment(from: id(from), to: id(to), amount: entry.amount, day: entry.day, group: group),
                id: entry.id.map(ExpenseID.init(rawValue:))
            )
        }
    }

    /// A file's description as a ledger's: one without any is "Imported expense"; a long one is
    /// cut to the limit, ending in "…".
    static func description(_ text: String) -> String {
        guard !text.isEmpty else { return "Imported expense" }
        guard text.count > Expense.descriptionLimit else { return text }
        return String(text.prefix(Expense.descriptionLimit - 1)) + "…"
    }

    private static func refusal(_ error: ExpensesError) -> InterchangeError {
        switch error {
        case .storeUnavailable(let reason): .storeUnavailable(reason)
        default: .refused(row: nil, error.message)
        }
    }
}

extension Friend {
    /// Their email: an account's, or a contact's if one was given.
    var email: EmailAddress? {
        switch kind {
        case .account(let email, _): email
        case .contact(let email): email
        }
    }
}
