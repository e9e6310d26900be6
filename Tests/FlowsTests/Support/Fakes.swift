import Accounts
import Expenses
import Foundation
import Groups
import Preferences
import Primitives
import Testing

// Fakes of the services, for a test that needs answers of its own: each operation is a closure
// the test may give, and an operation it did not give fails loudly (it records an issue and
// throws). `down` stands for a store that cannot be reached: every operation throws, quietly.
// The fakes themselves are generated from the service protocols (ServiceFakes.swift, written by
// Scripts/generate-services): a new operation in a service needs nothing here.

/// What a fake does for an operation the test did not give.
protocol Fake: Sendable {
    associatedtype Failure: Error
    /// Given the operation's name: records an issue and throws, or (for `down`) only throws.
    var otherwise: @Sendable (String) throws(Failure) -> Never { get }
}

extension Fake {
    /// The operation named `operation`, as `otherwise` answers it.
    func missing<each Argument, Value>(_ operation: String) -> @Sendable (repeat each Argument) async throws(Failure) -> Value {
        let otherwise = self.otherwise
        return { (_: repeat each Argument) async throws(Failure) -> Value in try otherwise(operation) }
    }

    /// Records that a test called an operation its fake does not give.
    static func unexpected(_ operation: String) {
        Issue.record("\(operation) was called, but this test's \(Self.self) does not give it")
    }
}
