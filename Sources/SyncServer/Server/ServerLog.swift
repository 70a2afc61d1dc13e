import Foundation

/// Where the server writes its log: one line per request and one per notable event.
///
/// Lines hold methods, paths, statuses, durations, account numbers and error descriptions; never
/// bodies, article text or tokens. Paths are only logged when made of ID characters, so that a
/// client cannot smuggle text into the log through a malformed URL.
public struct ServerLog: Sendable {
    private let sink: @Sendable (String) -> Void

    /// A log that hands each line, without its newline, to `sink` (from any thread).
    public init(sink: @escaping @Sendable (String) -> Void) { self.sink = sink }

    /// Lines to standard error, whole lines at a time.
    public static let standardError = ServerLog { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// A log that drops every line, for benchmarks.
    public static let discarding = ServerLog { _ in }

    /// Writes `message` after a timestamp, escaped (see `escaped`). Callers must keep article
    /// text and tokens out of it.
    public func write(_ message: String) {
        sink("\(Date().formatted(.iso8601)) \(Self.escaped(message))")
    }

    /// `text` with every control character (C0, DEL, C1: line breaks and terminal escape
    /// sequences among them) and every backslash written as an escape (`\u{1B}`, `\\`), so that
    /// what a client sends can neither forge a log line nor reach a terminal as a command.
    static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == "\\" || $0.properties.generalCategory == .control }) else {
            return text
        }
        var result = ""
        for scalar in text.unicodeScalars {
            if scalar == "\\" {
                result += "\\\\"
            } else if scalar.properties.generalCategory == .control {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// One request's line. The path is logged only when made of ID characters (a client chooses
    /// it); the query, which may name an article, never.
    func access(method: String, path: Substring, status: Int, milliseconds: Double, note: String?) {
        let safePath = path.utf8.allSatisfy(Self.isPathByte) ? path : "(path withheld)"
        let duration = String(format: "%.1fms", milliseconds)
        write("\(method) \(safePath) \(status) \(duration)" + (note.map { " \($0)" } ?? ""))
    }

    private static func isPathByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: "-"), UInt8(ascii: "."),
             UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }
}
