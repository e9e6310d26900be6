import Accounts
import FlowKit
import SignInFlow

/// A flow the CLI can launch by name: its name (the type's, without `Flow`), a line about it,
/// how to build it on a container, and what it can show.
public struct FlowEntry: Sendable {
    public let summary: String
    /// Whether the flow needs a signed-in user, so that a launch without a session signs in first.
    public let needsUser: Bool
    /// The flow's type and the types of the flows it starts, each named when asked for. A
    /// type's first use sets up its metadata, a few microseconds each: the catalog is built at
    /// every start, and finding the flow to launch reads only the names before it.
    private let type: @Sendable () -> any InventoriedFlow.Type
    private let childTypes: @Sendable () -> [any InventoriedFlow.Type]
    /// Made only when asked for (coverage), not on the way to a first screen.
    private let makeInventory: @Sendable () -> FlowInventory
    private let run: @Sendable (AppContainer, AppRouter) async -> AnyFlowOutcome

    /// A flow that needs nothing but the container.
    init<F: InventoriedFlow>(
        _ type: @escaping @Sendable @autoclosure () -> F.Type,
        _ summary: String,
        children: @escaping @Sendable @autoclosure () -> [any InventoriedFlow.Type] = [],
        make: @escaping @Sendable (AppContainer, AppRouter) -> F
    ) {
        self.type = type
        self.summary = summary
        childTypes = children
        needsUser = false
        makeInventory = { F.inventory }
        run = { container, router in AnyFlowOutcome(await make(container, router).perform()) }
    }

    /// A flow for a signed-in user: the stored session's, or, when nobody is signed in, the one
    /// who signs in first.
    init<F: InventoriedFlow>(
        _ type: @escaping @Sendable @autoclosure () -> F.Type,
        _ summary: String,
        children: @escaping @Sendable @autoclosure () -> [any InventoriedFlow.Type] = [],
        make: @escaping @Sendable (User, AppContainer, AppRouter) -> F
    ) {
        self.type = type
        self.summary = summary
        childTypes = children
        needsUser = true
        makeInventory = { F.inventory }
        run = { container, router in
            await Self.withSignedInUser(container: container, router: router) { user in
                AnyFlowOutcome(await make(user, container, router).perform())
            } cancelled: {
                AnyFlowOutcome(F.FlowResult.cancelled)
            }
        }
    }

    /// The flow's name: its type's, without `Flow`.
    public var name: String { Self.name(of: type()) }

    /// The names of the flows this one starts (its children in the flow hierarchy).
    public var children: [String] { childTypes().map(Self.name(of:)) }

    /// What the flow's own screens can show, for coverage.
    public var inventory: FlowInventory { makeInventory() }

    /// Every field this flow and the flows it starts can ask for, by identifier (sign-in's
    /// fields for a flow that signs in first).
    public var fields: [ElementID] {
        reachedScreens.flatMap(\.fields).reduce(into: []) { fields, field in if !fields.contains(field) { fields.append(field) } }
    }

    /// The fields among ``fields`` that are tables, whose cells are answered one by one.
    var tables: Set<ElementID> {
        Set(reachedScreens.flatMap(\.tables))
    }

    /// Every screen of this flow and of the flows it starts (sign-in's for a flow that signs in first).
    private var reachedScreens: [FlowInventory.ScreenEntry] {
        // A flow for a signed-in user signs in first when nobody is.
        var reached = needsUser ? [name, FlowEntry.name(of: SignInFlow.self)] : [name]
        var index = 0
        while index < reached.count {
            for child in FlowCatalog.entry(named: reached[index])?.children ?? [] where !reached.contains(child) {
                reached.append(child)
            }
            index += 1
        }
        return reached.compactMap(FlowCatalog.entry(named:)).flatMap(\.inventory.screens)
    }

    /// Refuses answers given in advance (`--set`) for fields this flow never asks for.
    func checkAnswers(_ identifiers: some Sequence<ElementID>) throws {
        let known = fields
        let tables = tables
        // A table's cell is its field and a row: `parts.bob-stone`; no other field has cells.
        let unknown = identifiers.filter { id in
            !known.contains(id) && !tables.contains { id.row(in: $0) != nil }
        }.map(\.rawValue).sorted()
        guard !unknown.isEmpty else { return }
        let offered = known.isEmpty ? "it asks for nothing" : "its fields are " + known.map(\.rawValue).joined(separator: ", ")
        throw UsageError("--set \(unknown.joined(separator: ", ")): \(name) has no such field; \(offered)")
    }

    /// Runs the flow with the container's services, drawing through `router`.
    public func run(container: AppContainer, router: AppRouter) async -> AnyFlowOutcome {
        await run(container, router)
    }

    static func name(of type: Any.Type) -> String {
        // Read from the metadata: String(describing:) would first ask, by dynamic casts, whether the
        // metatype describes itself, each a scan of every conformance in the binary at start-up.
        let name = _typeName(type, qualified: false)
        return name.hasSuffix("Flow") ? String(name.dropLast(4)) : name
    }

    /// Runs `body` with the signed-in user; when nobody is signed in, runs SignIn first.
    private static func withSignedInUser(
        container: AppContainer,
        router: AppRouter,
        body: (User) async -> AnyFlowOutcome,
        cancelled: () -> AnyFlowOutcome
    ) async -> AnyFlowOutcome {
        let stored: StoredSession
        do {
            stored = try await container.accounts.storedSession()
        } catch {
            return AnyFlowOutcome(LaunchOutcome.failed(error.message))
        }
        if case .signedIn(let user) = stored { return await body(user) }
        let notice = stored == .expired ? StoredSession.expiredNotice : nil
        switch await router.start(SignInFlow(dependencies: container, router: router, notice: notice)) {
        case .signedIn(let user), .signedUp(let user): return await body(user)
        case .cancelled: return cancelled()
        }
    }
}

/// The result of a launch that failed before its flow could start.
enum LaunchOutcome: FlowOutcome {
    case failed(String)
    case cancelled

    var name: String {
        switch self {
        case .failed: "failed"
        case .cancelled: "cancelled"
        }
    }

    var status: FlowOutcomeStatus {
        switch self {
        case .failed: .failed
        case .cancelled: .cancelled
        }
    }

    var failureReason: String? {
        if case .failed(let message) = self { message } else { nil }
    }

    func encodeDetails(to container: inout KeyedEncodingContainer<OutcomeCodingKey>) throws {
        if case .failed(let message) = self { try container.encode(message, forKey: "error") }
    }
}
