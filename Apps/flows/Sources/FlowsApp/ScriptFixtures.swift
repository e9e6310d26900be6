import Accounts
import FlowTesting

/// What `given` steps can set up in a test container.
///
/// - `given account EMAIL PASSWORD NAME`: an account, signed out.
/// - `given signed-in EMAIL PASSWORD NAME`: an account, signed in.
enum ScriptFixtures {
    static func prepare(_ container: AppContainer) -> ScriptRunner.Prepare {
        { words in
            switch words.first {
            case "account", "signed-in":
                guard words.count == 4 else {
                    throw FixtureError("write it as: given \(words[0]) EMAIL PASSWORD NAME")
                }
                do {
                    _ = try await container.accounts.signUp(email: words[1], displayName: words[3], password: words[2])
                    if words[0] == "account" { try await container.accounts.signOut() }
                } catch {
                    throw FixtureError("could not set up the account: \((error as? AccountsError)?.message ?? "\(error)")")
                }
            default:
                throw FixtureError("unknown setup '\(words.joined(separator: " "))'; known: account, signed-in")
            }
        }
    }

    struct FixtureError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
