import AccountsData
import LocalStore

/// Keeps the current session's token in a file only its owner can read (mode 0600).
public struct FileSessionTokenStore: SessionTokenStore {
    private let file: PrivateFile

    public init(location: StoreLocation) {
        file = PrivateFile(url: location.sessionFile)
    }

    public func load() throws -> String? {
        guard let text = try file.read() else { return nil }
        let token = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        return token.isEmpty ? nil : token
    }

    public func save(_ token: String) throws {
        try file.write(token + "\n")
    }

    public func clear() throws {
        try file.remove()
    }
}
