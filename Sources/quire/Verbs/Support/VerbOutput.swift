import Foundation
import Library
import Platform
import QuireUI
import Transfer
import ObjectGraph
import Synchronization

/// How verbs print: JSON with the archive's conventions (sorted keys, ISO 8601 dates to the
/// nanosecond), dates for people, and progress for long jobs.
enum VerbOutput {
    /// `value` as one JSON document on standard output.
    static func printJSON(_ value: some Encodable) throws {
        var data = try LibraryArchive.makeEncoder().encode(value)
        data.append(UInt8(ascii: "\n"))
        FileHandle.standardOutput.write(data)
    }

    /// A date and time for people, as their locale writes it, in the local time zone (Platform's
    /// ``dateTimeText(_:)``; `--json` writes ISO 8601 instead).
    static func date(_ date: Date) -> String {
        dateTimeText(date)
    }

    /// Progress on standard error, on one rewritten line, when a person is watching it.
    static func progress(_ label: String) -> @Sendable (ExportProgress) -> Void {
        guard isatty(STDERR_FILENO) == 1 else { return { _ in } }
        return { progress in
            guard progress.completed % 50 == 0 || progress.completed == progress.total else { return }
            let percent = Int(progress.fractionCompleted * 100)
            FileHandle.standardError.write(Data("\r\(label) \(percent)%\(progress.completed == progress.total ? "\n" : "")".utf8))
        }
    }

    /// A line on standard error, for what the writer should know besides a verb's output.
    static func note(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    /// An upgrade's progress on standard error: one line per phase, and on a terminal the percentage
    /// rewritten in place.
    static func upgradeProgress() -> @Sendable (MigrationProgress) -> Void {
        let terminal = isatty(STDERR_FILENO) == 1
        let state = UpgradeProgressLine()
        return { progress in
            let percent = Int(progress.fractionCompleted * 100)
            guard let line = state.update(phase: progress.phase.phrase, percent: percent) else { return }
            FileHandle.standardError.write(Data((terminal ? "\r\u{1B}[K" + line : line + "\n").utf8))
            if terminal && progress.phase == .finished { FileHandle.standardError.write(Data("\n".utf8)) }
        }
    }
}

/// The last upgrade progress printed, so that only changes are printed.
private final class UpgradeProgressLine: Sendable {
    /// The phase and percent last printed.
    private let printed = Mutex((phase: "", percent: -1))
    private let terminal = isatty(STDERR_FILENO) == 1

    /// The line to print for this progress, or nil when it adds nothing.
    func update(phase: String, percent: Int) -> String? {
        printed.withLock { printed in
            // A terminal line is rewritten at every percent; a log gets a line per phase and per tenth.
            let changed = phase != printed.phase || (terminal ? percent != printed.percent : percent / 10 != printed.percent / 10)
            guard changed else { return nil }
            printed = (phase, percent)
            return "\(phase)… \(percent)%"
        }
    }
}

/// A value of the small JSON objects verbs print about what they did (`quire import --json`).
enum JSONValue: Encodable {
    case string(String)
    case number(Int)
    case bool(Bool)
    case strings([String])

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .number(let number): try container.encode(number)
        case .bool(let value): try container.encode(value)
        case .strings(let texts): try container.encode(texts)
        }
    }
}
