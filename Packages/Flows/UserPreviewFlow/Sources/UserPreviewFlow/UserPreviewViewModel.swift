import Accounts
import Expenses
import FlowKit
import FormFields
import Friends
import Primitives
import Rates

/// What a friend's preview shows.
struct UserPreviewViewState: Equatable, Sendable {
    /// Where the preview is: choosing whom (when started without someone), the person, or one of
    /// the two changes that ask first.
    enum Step: Equatable, Sendable {
        case pick
        case preview
        case confirmRemove
        case confirmBlock
        case rename
        case link
        case confirmLink
    }

    /// How the account a contact is linked to is named.
    enum LinkHow: String, Sendable, CaseIterable {
        case friendCode = "friend-code"
        case email

        var label: String {
            switch self {
            case .friendCode: "By friend code"
            case .email: "By email"
            }
        }
    }

    /// One of the friends to choose from.
    struct Person: Equatable, Sendable {
        var id: ElementID
        var label: String
    }

    var step = Step.preview
    var people: [Person] = []
    /// Whether what the screen lists was read: after a failed read it says nothing of it (not
    /// "settled up" or "none yet"), only why.
    var isLoaded = false
    var name = ""
    var isContact = false
    /// Who they are: an account (email, friend code) or a contact.
    var about: [String] = []
    var figure: Figure?
    /// One sentence per currency, or that the two are settled up.
    var balances: [String] = []
    /// Each open balance's line in its tone.
    var tones: [TonedPhrase] = []
    var canSettle = false
    /// The shared expenses of this page, one line each, newest first.
    var expenses: [String] = []
    /// Which expenses the page shows ("1 to 10").
    var range: String?
    var hasNewer = false
    var hasOlder = false
    /// A contact's new name, as typed, with what the name rules find wrong with it.
    var newName = TextEntry()
    var linkHow = LinkHow.friendCode
    var linkValue = ""
    var linkError: String?
    /// The account found for a link, in words, to confirm.
    var linkFound: [String] = []
    var phase = Phase.idle
    var notice: String?
}

/// Turns the friend, the balances and the shared expenses into the preview's state.
struct UserPreviewViewModel: ViewModel {
    /// Shared expenses per page.
    static let pageSize = 10

    /// A state for each thing the screen can show.
    static var examples: [UserPreviewViewState] {
        let someone = UserID(rawValue: "someone")
        guard let name = try? DisplayName("Someone"), let email = try? EmailAddress("someone@example.com") else { return [] }
        let code = FriendCode.random(using: SeededRandomSource(seed: 1))
        let account = Friend(id: someone, name: name, kind: .account(email: email, friendCode: code))
        let contact = Friend(id: someone, name: name, kind: .contact(email: nil))
        var states: [UserPreviewViewState] = []
        var picking = UserPreviewViewModel(friend: nil)
        picking.pickable([account])
        states.append(picking.state)
        var nobody = UserPreviewViewModel(friend: nil)
        nobody.pickable([])
        states.append(nobody.state)
        for friend in [account, contact] {
            var model = UserPreviewViewModel(friend: friend)
            model.loaded(balances: [], page: [], user: someone, names: [:], avatar: nil)
            states.append(model.state)
            model.confirmingRemove()
            states.append(model.state)
        }
        // A balance to settle, and shared expenses on more pages than one: the second is shown.
        let owed = Money(minorUnits: 1200, currency: .eur)
        if let day = try? Day("2026-11-22"), let lunch = try? Expense(id: ExpenseID(rawValue: "e"), draft: ExpenseDraft(
            description: "Lunch", amount: owed, day: day, category: .food, payers: [Payer(user: someone, amount: owed)],
            participants: [someone, UserID(rawValue: "me")], rule: .equal
        )) {
            var paging = UserPreviewViewModel(friend: account)
            paging.turn(older: true)
            paging.loaded(balances: [owed], page: Array(repeating: lunch, count: pageSize + 1), user: someone, names: [:], avatar: nil)
            states.append(paging.state)
        }
        var blocking = UserPreviewViewModel(friend: account)
        blocking.loaded(balances: [], page: [], user: someone, names: [:], avatar: nil)
        blocking.confirmingBlock()
        states.append(blocking.state)
        var renaming = UserPreviewViewModel(friend: contact)
        renaming.loaded(balances: [], page: [], user: someone, names: [:], avatar: nil)
        renaming.renaming()
        states.append(renaming.state)
        for refusal in [FriendsError.contactNameTaken(name), .invalidName(.empty)] {
            var refused = renaming
            refused.renameFailed(refusal)
            states.append(refused.state)
        }
        renaming.renamed(contact)
        states.append(renaming.state)
        var linking = UserPreviewViewModel(friend: contact)
        linking.loaded(balances: [], page: [], user: someone, names: [:], avatar: nil)
        linking.linking()
        states.append(linking.state)
        for error in [FriendsError.unknownEmail(FlowInventory.anyDetail), .cannotLink(FlowInventory.anyDetail)] {
            var refused = linking
            refused.linkFailed(error)
            states.append(refused.state)
        }
        linking.linkFound(PublicProfile(id: someone, name: name))
        states.append(linking.state)
        // Removing refused while a balance is open (the message names them), and a store failure.
        let refusal = FriendsError.notSettled(name, []).message
        let unsettled = (refusal.components(separatedBy: name.value).first ?? refusal) + FlowInventory.anyDetail
        for message in [unsettled, FriendsError.storeUnavailable(FlowInventory.anyDetail).message] {
            var failed = UserPreviewViewModel(friend: account)
            failed.failed(message)
            states.append(failed.state)
        }
        return states
    }

    private(set) var state = UserPreviewViewState()
    /// Whose preview it is; nil while the user chooses.
    private(set) var friend: Friend?
    /// Where the page of shared expenses starts.
    private(set) var offset = 0
    /// Whether the friend's avatar is read: once per preview, not at every page.
    private(set) var hasAvatar = false
    private var choices: [(id: ElementID, friend: Friend)] = []

    init(friend: Friend?) {
        if let friend { chose(friend) } else { state.step = .pick }
    }

    // MARK: - Choosing whom

    /// The friends to choose from, by name.
    mutating func pickable(_ friends: [Friend]) {
        let ids = ElementID.readable(for: friends.map(\.name.value))
        choices = Array(zip(ids, friends)).map { (id: $0.0, friend: $0.1) }
        state.people = choices.map { UserPreviewViewState.Person(id: $0.id, label: $0.friend.name.value + ($0.friend.isContact ? " (contact)" : "")) }
        state.step = .pick
        state.isLoaded = true
        state.phase = .idle
    }

    func person(_ id: ElementID) -> Friend? {
        choices.first { $0.id == id }?.friend
    }

    mutating func chose(_ friend: Friend) {
        self.friend = friend
        offset = 0
        hasAvatar = false
        state.figure = nil
        state.step = .preview
        state.isLoaded = false
        state.name = friend.name.value
        switch friend.kind {
        case .account(let email, let code):
            state.isContact = false
            state.about = ["A friend with an account: \(email.value), friend code \(code)."]
        case .contact(let email):
            state.isContact = true
            state.about = ["A contact without an account" + (email.map { ": \($0.value), linked to them if they sign up with it." } ?? ".")]
        }
    }

    // MARK: - The preview

    /// The balances with the friend (open ones only), a page of shared expenses (one more than a
    /// page when there are older ones), the names of the others in them, and the avatar when it
    /// was read (nil keeps the one shown).
    ///
    /// `inGroups` is each group's part of the balances (the pair's balance within it): the
    /// preview splits the balance by group, what is outside any group last.
    mutating func loaded(
        balances: [Money], inGroups: [(group: String, amount: Money)] = [], page: [Expense], user: UserID, names: [UserID: String], avatar: Avatar?,
        converted: ConvertedTotal? = nil
    ) {
        guard let friend else { return }
        let name = friend.name
        let open = balances.sorted { $0.currency.code < $1.currency.code }
        state.balances = open.isEmpty ? [BalanceWords.sentence(.zero(.eur), name: name.value)] : open.map { BalanceWords.sentence($0, name: name.value) }
        if let converted { state.balances.append(converted.sentence(with: name.value)) }
        state.balances += Self.split(open, inGroups: inGroups, name: name.value)
        state.tones = open.map { TonedPhrase(BalanceWords.sentence($0, name: name.value), $0.isNegative ? .negative : .positive) }
        state.canSettle = !balances.isEmpty
        state.isLoaded = true
        var names = names
        names[user] = "you"
        names[friend.id] = name.value
        let shown = page.prefix(Self.pageSize)
        state.expenses = shown.map { Self.line(for: $0, user: user, friend: friend, names: names) }
        state.range = shown.isEmpty ? nil : "\(offset + 1) to \(offset + shown.count)"
        state.hasOlder = page.count > Self.pageSize
        state.hasNewer = offset > 0
        if let avatar {
            state.figure = Self.figure(for: avatar, of: friend)
            hasAvatar = true
        }
        state.step = .preview
        state.phase = .idle
    }

    /// The next page of older expenses, or the one before it.
    mutating func turn(older: Bool) {
        offset = older ? offset + Self.pageSize : max(0, offset - Self.pageSize)
        state.notice = nil
    }

    // MARK: - Removing and linking

    mutating func confirmingRemove() {
        state.step = .confirmRemove
        state.notice = nil
        state.phase = .idle
    }

    mutating func confirmingBlock() {
        state.step = .confirmBlock
        state.notice = nil
        state.phase = .idle
    }

    mutating func renaming() {
        state.step = .rename
        state.newName = TextEntry(state.name)
        state.notice = nil
        state.phase = .idle
    }

    mutating func nameChanged(_ name: String) {
        state.newName = TextEntry(name)
        state.phase = .idle
    }

    /// Checks the name as the service will; true when it can be sent.
    mutating func checkName() -> Bool {
        state.newName = TextEntry(state.newName.text, as: DisplayName.self)
        return state.newName.error == nil
    }

    /// The contact under their new name, back on the preview.
    mutating func renamed(_ contact: Friend) {
        friend = contact
        state.name = contact.name.value
        state.step = .preview
        state.phase = .idle
        state.notice = "Renamed to \(contact.name.value)."
    }

    /// A refusal of the name goes under the field; anything else on the form's status.
    mutating func renameFailed(_ error: FriendsError) {
        state.step = .rename
        switch error {
        case .invalidName, .contactNameTaken:
            state.newName.error = error.message
            state.phase = .idle
        default:
            state.phase = .failed(error.message)
        }
    }

    mutating func linking() {
        state.step = .link
        state.notice = nil
        state.phase = .idle
    }

    mutating func linkHowChosen(_ how: UserPreviewViewState.LinkHow) {
        guard how != state.linkHow else { return }
        state.linkHow = how
        state.linkValue = ""
        state.linkError = nil
    }

    mutating func linkValueChanged(_ value: String) {
        state.linkValue = value
        state.linkError = nil
        state.phase = .idle
    }

    /// Checks the value as the service will; true when it can be looked up.
    mutating func checkLink() -> Bool {
        state.linkError = linkQuery.problem?.message
        return state.linkError == nil
    }

    var linkQuery: AccountQuery {
        state.linkHow == .friendCode ? .friendCode(state.linkValue) : .email(state.linkValue)
    }

    /// The account the contact would be linked to, to confirm.
    mutating func linkFound(_ account: PublicProfile) {
        var details = ["Link \(state.name) to \(account.name.value)'s account?"]
        details.append("Found by their \(linkQuery.summary).")
        details.append(
            "Every expense, payment and balance you have with \(state.name) becomes theirs once they accept your friend request (at once if they are your friend already). This cannot be undone."
        )
        state.linkFound = details
        state.step = .confirmLink
        state.phase = .idle
    }

    /// A refusal of the link goes under the field when it is about what was typed.
    mutating func linkFailed(_ error: FriendsError) {
        state.step = .link
        switch error {
        case .invalidFriendCode, .unknownFriendCode, .invalidEmail, .unknownEmail, .notTakingRequests, .blockedByYou:
            state.linkError = error.message
            state.phase = .idle
        default:
            state.phase = .failed(error.message)
        }
    }

    /// Back one step: from a confirmation or the link form to the preview. False at the preview
    /// (or the choice), which back leaves.
    mutating func back() -> Bool {
        switch state.step {
        case .pick, .preview:
            return false
        case .confirmRemove, .confirmBlock, .rename, .link:
            state.step = .preview
        case .confirmLink:
            state.step = .link
        }
        state.phase = .idle
        return true
    }

    mutating func busy() {
        state.phase = .loading
    }

    /// A refusal or a failure, shown on the preview.
    mutating func failed(_ message: String) {
        if state.step != .pick { state.step = .preview }
        state.phase = .failed(message)
    }

    // MARK: - Words

    /// The balances split by group, a line each: `In Kyoto trip: Bob Stone owes you 10.00 EUR.`,
    /// then what is outside any group; nothing when no group has a part.
    static func split(_ balances: [Money], inGroups: [(group: String, amount: Money)], name: String) -> [String] {
        let parts = inGroups.filter { !$0.amount.isZero }.sorted { ($0.group.lowercased(), $0.amount.currency.code) < ($1.group.lowercased(), $1.amount.currency.code) }
        guard !parts.isEmpty else { return [] }
        var lines = parts.map { "In \($0.group): \(BalanceWords.sentence($0.amount, name: name))" }
        let currencies = Set(balances.map(\.currency) + parts.map(\.amount.currency)).sorted { $0.code < $1.code }
        for currency in currencies {
            // What the groups do not account for (an overall balance of zero may hide two parts
            // that cancel); in 128 bits, as the parts may be many.
            let overall = Int128(balances.first { $0.currency == currency }?.minorUnits ?? 0)
            let inside = parts.filter { $0.amount.currency == currency }.reduce(Int128(0)) { $0 + Int128($1.amount.minorUnits) }
            guard overall != inside, let units = Int64(exactly: overall - inside) else { continue }
            lines.append("Outside groups: \(BalanceWords.sentence(Money(minorUnits: units, currency: currency), name: name))")
        }
        return lines
    }

    /// "you owe Bob 3.00 USD" as a sentence.
    /// `2026-11-20 Dinner: 42.00 EUR paid by you; your part 21.00 EUR, Bob's 21.00 EUR`.
    private static func line(for expense: Expense, user: UserID, friend: Friend, names: [UserID: String]) -> String {
        let payers = expense.payers.map { names[$0.user] ?? "someone else" }.listedInWords
        func part(of person: UserID, as owner: String, none: String) -> String {
            guard let part = expense.split.parts.first(where: { $0.user == person }), part.amount.minorUnits > 0 else { return none }
            return "\(owner) \(part.amount)"
        }
        let mine = part(of: user, as: "your part", none: "no part for you")
        let theirs = part(of: friend.id, as: "\(friend.name.value)'s", none: "no part for \(friend.name.value)")
        return "\(expense.day) \(expense.description): \(expense.amount) paid by \(payers); \(mine), \(theirs)"
    }

    /// An account's avatar as a figure: the picture, or the initials on their colour.
    private static func figure(for avatar: Avatar, of friend: Friend) -> Figure? {
        let initials = friend.name.initials
        return switch avatar {
        case .none: nil
        case .initials(let colour): .initials(initials, colour: colour.rawValue)
        case .image(let image):
            .picture(Picture(
                bytes: image.bytes, format: image.format == .png ? .png : .jpeg, width: image.width, height: image.height,
                initials: initials, colour: AvatarColour.standIn(for: friend.id).rawValue
            ))
        }
    }
}
