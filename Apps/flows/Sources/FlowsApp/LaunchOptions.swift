import ArgumentParser
import FlowKit
import FlowTerminal
import Foundation

/// The options of a launch, as parsed (`RunOptions` is how the argument parser reads them; a
/// plain `flows` or `flows run NAME` takes them all as they are by default).
struct LaunchOptions: Sendable {
    var json = false
    var noInput = false
    var answers: [String] = []
    var plain = false
    var color: TerminalStyle.Choice = .auto
    var theme: TerminalStyle.Theme?
    var record: String?
    var server: String?

    /// The server to use: --server, else FLOWS_SERVER; nil for the store on this machine.
    func serverURL(environment: ProcessEnvironment = ProcessEnvironment()) throws -> URL? {
        guard let text = server ?? environment["FLOWS_SERVER"].flatMap({ $0.isEmpty ? nil : $0 }) else { return nil }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme),
            let host = url.host, !host.isEmpty, url.query == nil, url.fragment == nil
        else {
            throw ValidationError("--server takes a server's address, as in --server http://localhost:8080; got '\(text)'")
        }
        return url
    }

    /// The answers given with --set, by field identifier.
    func parsedAnswers() throws -> [ElementID: String] {
        var parsed: [ElementID: String] = [:]
        for answer in answers {
            guard let equals = answer.firstIndex(of: "="), equals != answer.startIndex else {
                throw ValidationError("--set takes ID=VALUE, as in --set email=ada@example.com; got '\(answer)'")
            }
            parsed[ElementID(String(answer[..<equals]))] = String(answer[answer.index(after: equals)...])
        }
        return parsed
    }

    func validate() throws {
        _ = try parsedAnswers()
        _ = try serverURL()
    }
}
