import FlowKit

/// How this terminal draws pictures, if it can: the kitty graphics protocol (kitty, Ghostty) or
/// iTerm2's inline images (iTerm2, WezTerm).
///
/// Found from the environment the terminal sets, never assumed: an unknown terminal, GNU screen
/// and tmux without `allow-passthrough` get none, and the renderer draws a picture's initials
/// badge instead. Inside tmux with passthrough on, every sequence is wrapped for tmux to pass on.
public struct TerminalImages: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case kitty
        case iTerm2 = "iterm2"
    }

    public let kind: Kind
    public let throughTmux: Bool

    public init(kind: Kind, throughTmux: Bool = false) {
        self.kind = kind
        self.throughTmux = throughTmux
    }

    /// The protocol the environment names; `tmuxPassthrough` is asked only inside tmux (it runs
    /// `tmux show-options -gv allow-passthrough` in the app).
    public static func detect(environment: [String: String], tmuxPassthrough: () -> Bool) -> TerminalImages? {
        func has(_ name: String) -> Bool { !(environment[name] ?? "").isEmpty }
        let term = environment["TERM"] ?? ""
        let program = environment["TERM_PROGRAM"] ?? ""
        guard term != "dumb", !has("STY") else { return nil }
        let kind: Kind
        if term == "xterm-kitty" || has("KITTY_WINDOW_ID") || term == "xterm-ghostty" || program == "ghostty" {
            kind = .kitty
        } else if program == "iTerm.app" || environment["LC_TERMINAL"] == "iTerm2" || program == "WezTerm" {
            kind = .iTerm2
        } else {
            return nil
        }
        guard has("TMUX") else { return TerminalImages(kind: kind) }
        return tmuxPassthrough() ? TerminalImages(kind: kind, throughTmux: true) : nil
    }

    /// Whether pictures of this format can be drawn: kitty takes PNG only (its other formats are
    /// raw pixels, and nothing here decodes a JPEG); iTerm2 takes both.
    public func draws(_ format: Picture.Format) -> Bool {
        kind == .iTerm2 || format == .png
    }

    /// The cells a picture takes: four rows, and as many columns as keep its shape on cells about
    /// twice as tall as wide (from 2 to 16).
    static func cells(for picture: Picture) -> (columns: Int, rows: Int) {
        let rows = 4
        let width = min(max(picture.width, 1), 1 << 20)
        let height = min(max(picture.height, 1), 1 << 20)
        return (min(16, max(2, (2 * rows * width + height / 2) / height)), rows)
    }

    /// kitty: sends the picture's bytes once, under `id`, without drawing it.
    func transmit(_ picture: Picture, id: UInt32) -> String {
        guard kind == .kitty else { return "" }
        let encoded = Array(Base64.encode(picture.bytes).utf8)
        var result = ""
        var start = 0
        repeat {
            let end = min(encoded.count, start + 4096)
            let more = end < encoded.count ? 1 : 0
            let keys = start == 0 ? "a=t,f=100,t=d,i=\(id),q=2,m=\(more)" : "m=\(more)"
            result += wrapped("\u{1B}_G\(keys);\(String(decoding: encoded[start..<end], as: UTF8.self))\u{1B}\\")
            start = end
        } while start < encoded.count
        return result
    }

    /// Draws the picture at the cursor, `columns` by `rows` cells, and leaves the cursor where
    /// it was. kitty places the picture sent under `id` as placement `placement`; iTerm2 sends the
    /// whole file each time.
    func place(_ picture: Picture, id: UInt32, placement: UInt32, columns: Int, rows: Int) -> String {
        switch kind {
        case .kitty:
            return wrapped("\u{1B}_Ga=p,i=\(id),p=\(placement),c=\(columns),r=\(rows),C=1,q=2\u{1B}\\")
        case .iTerm2:
            let file = "\u{1B}]1337;File=inline=1;size=\(picture.bytes.count);width=\(columns);height=\(rows);preserveAspectRatio=1:\(Base64.encode(picture.bytes))\u{07}"
            // Saved and restored around the picture: iTerm2 moves the cursor past it.
            return "\u{1B}7" + wrapped(file) + "\u{1B}8"
        }
    }

    /// Takes a placement away before the region is drawn again (kitty keeps placements through
    /// an erase; iTerm2's pictures are cells, erased with the text).
    func remove(id: UInt32, placement: UInt32) -> String {
        kind == .kitty ? wrapped("\u{1B}_Ga=d,d=i,i=\(id),p=\(placement),q=2\u{1B}\\") : ""
    }

    /// tmux passes a sequence on to the terminal outside when it comes in `ESC P tmux; ... ESC \`
    /// with every ESC inside doubled.
    private func wrapped(_ sequence: String) -> String {
        guard throughTmux else { return sequence }
        var inner = ""
        for character in sequence {
            if character == "\u{1B}" { inner.append(character) }
            inner.append(character)
        }
        return "\u{1B}Ptmux;" + inner + "\u{1B}\\"
    }
}

/// Standard base64 (RFC 4648, with padding), which both image protocols carry.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            let b0 = UInt32(bytes[index])
            let b1 = count > 1 ? UInt32(bytes[index + 1]) : 0
            let b2 = count > 2 ? UInt32(bytes[index + 2]) : 0
            let group = b0 << 16 | b1 << 8 | b2
            output.append(alphabet[Int(group >> 18 & 63)])
            output.append(alphabet[Int(group >> 12 & 63)])
            output.append(count > 1 ? alphabet[Int(group >> 6 & 63)] : UInt8(ascii: "="))
            output.append(count > 2 ? alphabet[Int(group & 63)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes of base64 text; nil when it is not base64.
    static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var values: [UInt8] = []
        var padding = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: "=") {
                padding += 1
                continue
            }
            guard padding == 0, let value = alphabet.firstIndex(of: byte) else { return nil }
            values.append(UInt8(value))
        }
        guard (values.count + padding) % 4 == 0 || padding == 0 else { return nil }
        var output: [UInt8] = []
        var index = 0
        while index < values.count {
            let chunk = values[index..<min(values.count, index + 4)]
            var group: UInt32 = 0
            for (offset, value) in chunk.enumerated() { group |= UInt32(value) << (18 - 6 * offset) }
            output.append(UInt8(group >> 16 & 0xFF))
            if chunk.count > 2 { output.append(UInt8(group >> 8 & 0xFF)) }
            if chunk.count > 3 { output.append(UInt8(group & 0xFF)) }
            index += 4
        }
        return output
    }
}
