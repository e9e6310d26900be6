import Foundation
import Synchronization

/// The walks in progress of `flows test --explore`, each in a file of its own under the output
/// folder (`walk-in-progress-FLOW-N.flows`) until it ends: a walk that crashes the process is
/// there to replay.
///
/// A walk's script only grows, a step at a time: each file stays open while its walk runs and
/// takes only what was added (one write a step, not an open, a write and a close).
public final class WalkJournal: Sendable {
    private let folder: String
    /// Each walk's open file and how much of its script it holds.
    private let open = Mutex<[String: (descriptor: Int32, written: String)]>([:])

    public init(folder: String) {
        self.folder = folder
    }

    private func path(_ walk: String) -> String {
        (folder as NSString).appendingPathComponent("walk-in-progress-\(walk).flows")
    }

    /// Keeps `script` as walk `walk`'s, or ends the walk's file when `script` is nil.
    public func note(_ walk: String, _ script: String?) {
        open.withLock { open in
            guard let script else {
                if let file = open.removeValue(forKey: walk) { close(file.descriptor) }
                unlink(path(walk))
                return
            }
            var file = open[walk] ?? (Foundation.open(path(walk), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644), "")
            guard file.descriptor >= 0 else { return }
            let added: Substring
            if script.hasPrefix(file.written) {
                added = script.dropFirst(file.written.count)
            } else {
                // Not a longer version of what is there: written whole again.
                _ = ftruncate(file.descriptor, 0)
                _ = lseek(file.descriptor, 0, SEEK_SET)
                added = script[...]
            }
            Self.write(Array(added.utf8), to: file.descriptor)
            file.written = script
            open[walk] = file
        }
    }

    private static func write(_ bytes: [UInt8], to descriptor: Int32) {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            offset += written
        }
    }
}
