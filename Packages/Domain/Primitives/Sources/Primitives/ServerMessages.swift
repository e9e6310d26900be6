/// What every area says when its service is a server's (`flows --server URL`) and the
/// conversation with it fails, in one place.
public enum ServerMessages {
    /// The session ended while in use: signed out from elsewhere, its password changed, or
    /// unused for too long.
    public static let signedOut = "Your session has ended; sign in again."

    /// The server did not answer, or answered something it should not.
    public static func unreachable(_ reason: String) -> String {
        "The server cannot be reached: \(reason). Nothing is known to have changed; try again."
    }
}
