/// A flow's result with its type erased, for launchers that run flows by name.
public struct AnyFlowOutcome: Sendable {
    public let status: FlowOutcomeStatus
    public let failureReason: String?
    /// The result as its flow encodes it.
    public let value: any FlowOutcome

    /// Read when asked for: a result's default name is found by reflection, which a run that
    /// never shows it (no `--json`, no script) should not pay for.
    public var name: String { value.name }

    public init(_ outcome: some FlowOutcome) {
        status = outcome.status
        failureReason = outcome.failureReason
        value = outcome
    }
}
