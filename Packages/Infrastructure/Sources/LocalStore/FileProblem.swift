import Foundation
import GRDB

/// The operating system's reason for a failed file or database operation, in its own words
/// ("Permission denied", "No space left on device"), without the frameworks' wrapping
/// ("NSCocoaErrorDomain error 256", "SQLite error 14").
public enum FileProblem {
    public static func reason(_ error: any Error) -> String {
        if let database = error as? DatabaseError {
            return database.message ?? "SQLite result \(database.extendedResultCode)"
        }
        let nsError = error as NSError
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSCocoaErrorDomain {
            switch CocoaError.Code(rawValue: nsError.code) {
            case .fileNoSuchFile, .fileReadNoSuchFile: return String(cString: strerror(ENOENT))
            case .fileReadNoPermission, .fileWriteNoPermission: return String(cString: strerror(EACCES))
            case .fileWriteOutOfSpace: return String(cString: strerror(ENOSPC))
            case .fileWriteVolumeReadOnly: return String(cString: strerror(EROFS))
            case .fileReadInapplicableStringEncoding, .fileReadCorruptFile: return "it is not valid UTF-8 text"
            case .fileWriteFileExists: return String(cString: strerror(EEXIST))
            default: break
            }
        }
        return nsError.localizedFailureReason ?? nsError.localizedDescription
    }
}
