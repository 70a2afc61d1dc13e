import Foundation
import Synchronization

/// Where the server writes its log: one line per request and one per notable event, as plain
/// text (`<time> <message>`) or as one JSON object a line, for log collectors.
///
/// Lines hold methods, paths, statuses, durations, client addresses, account numbers and error
/// descriptions; never bodies, article text or tokens. Paths are only logged when made of ID
/// characters, so that a client cannot smuggle text into the log through a malformed URL, and
/// every field is escaped (see `escaped`).
public struct ServerLog: Sendable {
    /// How much is written: each level includes the ones before it.
    public enum Level: Int, Sendable, Comparable, CaseIterable, CustomStringConvertible {
        /// Failures: storage errors, a purge that failed.
        case error
        /// Things an operator should look at: clients cut for being slow, a shutdown past its grace.
        case warning
        /// One line per request and per start, stop and purge (the default).
        case info

        public var description: String {
            switch self {
            case .error: return "error"
            case .warning: return "warning"
            case .info: return "info"
            }
        }

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    /// How a line is written.
    public enum Format: String, Sendable, CaseIterable {
        /// `2026-03-01T09:30:00Z GET /v1/changes 200 1.2ms client=… account=3`.
        case plain
        /// `{"time":…,"level":"info","event":"request","method":"GET",…}`, keys sorted.
        case json
    }

    private let sink: @Sendable (String) -> Void
    /// Format and level, shared by every copy of the log so that `reconfigure` reaches them all.
    private let style: Style

    /// A log that hands each line, without its newline, to `sink` (from any thread).
    public init(format: Format = .plain, level: Level = .info, sink: @escaping @Sendable (String) -> Void) {
        style = Style(format: format, level: level)
        self.sink = sink
    }

    /// Writes the lines from now on in `format`, at most as detailed as `level` (SIGHUP), in this
    /// log and every copy of it.
    public func reconfigure(format: Format, level: Level) {
        style.current = (format, level)
    }

    private final class Style: Sendable {
        private let value: Mutex<(format: Format, level: Level)>

        init(format: Format, level: Level) { value = Mutex((format, level)) }

        var current: (format: Format, level: Level) {
            get { value.withLock { $0 } }
            set { value.withLock { $0 = newValue } }
        }
    }

    /// Lines to `output`, whole lines at a time: standard error (journald reads it under systemd)
    /// or a log file, which SIGHUP may reopen.
    public static func writing(to output: LogOutput, format: Format = .plain, level: Level = .info) -> ServerLog {
        ServerLog(format: format, level: level) { line in output.write(line) }
    }

    /// A log that drops every line, for benchmarks.
    public static let discarding = ServerLog { _ in }

    /// Writes `message` at `level`. Callers must keep article text and tokens out of it.
    public func write(_ message: String, level: Level = .info) {
        let style = style.current
        guard level <= style.level else { return }
        switch style.format {
        case .plain:
            let prefix = level == .info ? "" : "\(level): "
            sink("\(Self.now()) \(prefix)\(Self.escaped(message))")
        case .json:
            json(["level": level.description, "message": message])
        }
    }

    /// One request's line. The path is logged only when made of ID characters (a client chooses
    /// it); the query, which may name an article, never.
    func access(method: String, path: Substring, status: Int, milliseconds: Double, client: String, note: String?) {
        let style = style.current
        guard style.level >= .info else { return }
        let safePath = path.utf8.allSatisfy(Self.isPathByte) ? String(path) : "(path withheld)"
        let duration = String(format: "%.1f", milliseconds)
        switch style.format {
        case .plain:
            sink("\(Self.now()) " + Self.escaped("\(method) \(safePath) \(status) \(duration)ms client=\(client)"
                + (note.map { " \($0)" } ?? "")))
        case .json:
            var fields: [String: Any] = ["level": "info", "event": "request", "method": method, "path": safePath,
                                         "status": status, "ms": Double(duration) ?? milliseconds, "client": client]
            if let note { fields["note"] = note }
            json(fields)
        }
    }

    private func json(_ fields: [String: Any]) {
        var escapedFields: [String: Any] = ["time": Self.now()]
        for (key, value) in fields { escapedFields[key] = (value as? String).map(Self.escaped) ?? value }
        // Strings, numbers and the fixed keys above: JSONSerialization cannot fail on them.
        let data = try! JSONSerialization.data(withJSONObject: escapedFields, options: [.sortedKeys, .withoutEscapingSlashes])
        sink(String(decoding: data, as: UTF8.self))
    }

    private static func now() -> String { Date().formatted(.iso8601) }

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
