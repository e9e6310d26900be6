import FlowsAPI
import FlowsWire
import Preferences
import Primitives
import PrimitivesRemote

/// The Preferences operations of the contract, each declared once: flows-server serves them
/// and ``RemotePreferencesService`` calls them. (The event stream of changes is served apart.)
///
/// Those of the service's operations tagged `/// - Contract:` are declared from the contract in
/// `PreferencesAPI+Contract.swift`, which `Scripts/generate-services` writes; the rest are here.
public enum PreferencesAPI {
    public typealias Call<Input: Sendable, Output: Sendable> = Endpoint<Input, Output, PreferencesError>


    /// Preferences' errors as the contract's refusals, and back.
    public static let problems = ProblemTable<PreferencesError>(
        problem: { error in
            switch error {
            case .storeUnavailable(let reason), .serverUnreachable(let reason): .storeUnavailable(reason)
            case .signedOut: .unauthenticated(error.message, tokenSent: true)
            }
        },
        failure: { failure in
            if failure.isSignedOut { return .signedOut }
            return failure.code == .storeUnavailable ? .storeUnavailable(failure.message) : .serverUnreachable(failure.description)
        }
    )
}

extension Wire {
    public static var preferences: WireValue<Preferences, Components.Schemas.Preferences> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                Preferences(theme: try theme.read(wire.theme, "\(field)/theme"), defaultCurrency: try currency.read(wire.defaultCurrency, "\(field)/defaultCurrency"))
            },
            write: { .init(theme: theme.write($0.theme), defaultCurrency: $0.defaultCurrency.code) }
        )
    }

    static var preferencesUpdate: WireValue<Preferences, Components.Schemas.PreferencesUpdate> {
        WireValue(
            read: { wire, field throws(APIProblem) in try preferences.read(.init(theme: wire.theme, defaultCurrency: wire.defaultCurrency), field) },
            write: { .init(theme: theme.write($0.theme), defaultCurrency: $0.defaultCurrency.code) }
        )
    }

    /// The contract's themes are the domain's, name for name.
    static var theme: WireValue<Theme, Components.Schemas.Theme> {
        WireValue(
            read: { wire, field throws(APIProblem) in
                guard let theme = Theme(rawValue: wire.rawValue) else { throw .invalidRequest("\(field) is not a theme this app knows.", field: field) }
                return theme
            },
            write: { Components.Schemas.Theme(rawValue: $0.rawValue) ?? .dark }
        )
    }
}
