import Foundation
import Library

/// How verbs print: JSON with the archive's conventions (sorted keys, ISO 8601 dates to the
/// nanosecond), dates for people, and progress for long jobs.
enum VerbOutput {
    /// `value` as one JSON document on standard output.
    static func printJSON(_ value: some Encodable) throws {
        var data = try LibraryArchive.makeEncoder().encode(value)
        data.append(UInt8(ascii: "\n"))
        FileHandle.standardOutput.write(data)
    }

    /// `2024-05-01 09:30` in the local time zone.
    static func date(_ date: Date) -> String {
        let parts = Calendar.current.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        return String(
            format: "%04d-%02d-%02d %02d:%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0, parts.hour ?? 0,
            parts.minute ?? 0)
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
}
