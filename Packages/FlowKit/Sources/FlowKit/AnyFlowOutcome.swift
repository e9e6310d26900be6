/// A flow's result with its type erased, for launchers that run flows by name.
public struct AnyFlowOutcome: Sendable {
    public let name: String
    public let status: FlowOutcomeStatus
    public let failureReason: String?
    /// The result as its flow encodes it.
    public let value: any FlowOutcome

    public init(_ outcome: some FlowOutcome) {
        name = outcome.name
        status = outcome.status
        failureReason = outcome.failureReason
        value = outcome
    }
}
