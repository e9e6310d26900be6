/// Reads a file a user names at a prompt (an avatar picture): the whole of it, up to a limit.
/// The path is the user's text as typed: `~/` means their home folder, and a relative path
/// starts at the folder the app was started from.
public protocol UserFiles: Sendable {
    func contents(of path: String, atMost limit: Int) throws(UserFileProblem) -> [UInt8]
}

/// Why a file a user named could not be read, naming the file.
public enum UserFileProblem: Error, Equatable, Sendable {
    case noPath
    /// A path holding a control character: never a file a person meant to name.
    case controlCharacters
    case notFound(String)
    case isFolder(String)
    case unreadable(String, reason: String)
    case tooLarge(String, bytes: Int, limit: Int)

    public var message: String {
        switch self {
        case .noPath: "Enter the path of a file."
        case .controlCharacters: "A file name cannot contain control characters."
        case .notFound(let path): "There is no file \(path)."
        case .isFolder(let path): "\(path) is a folder, not a file."
        case .unreadable(let path, let reason): "\(path) cannot be read: \(reason)."
        case .tooLarge(let path, let bytes, let limit):
            "\(path) is \(Self.size(bytes)); at most \(Self.size(limit)) is taken."
        }
    }

    /// A size as people read it: bytes, KiB or MiB with one decimal, rounded up.
    private static func size(_ bytes: Int) -> String {
        if bytes < 1024 { return "\(bytes) bytes" }
        let unit = bytes < 1 << 20 ? (1 << 10, "KiB") : (1 << 20, "MiB")
        let tenths = (bytes.multipliedReportingOverflow(by: 10).partialValue + unit.0 - 1) / unit.0
        return tenths % 10 == 0 ? "\(tenths / 10) \(unit.1)" : "\(tenths / 10).\(tenths % 10) \(unit.1)"
    }
}
