import CommandLineArguments
import Foundation
import Library
import ObjectGraph
import Platform

/// `quire check`: SQLite's integrity check on a copy of a library and its classification (`ok`,
/// `needs-upgrade`, `upgrade-interrupted`, or a problem such as `damaged`, `not-a-database`,
/// `newer-version`, `read-only`); with `--recover`, a damaged library is moved to quarantine and
/// what is readable salvaged into a new library. Exits with 1 when the library has a problem.
struct CheckVerb: Verb {
    static let name = "check"
    static let summary = gettext("Check a library's integrity and say what state it is in (--recover salvages a damaged one)")
    static let usage = "[--library PATH] [--recover] [--json]"

    let library: LibraryOption
    let recovers: Bool
    let emitsJSON: Bool

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        library = try LibraryOption(arguments: &arguments)
        recovers = arguments.flag("--recover")
        emitsJSON = arguments.flag("--json")
    }

    func run() async throws {
        let check = LibraryCheck.run(library.url)
        if case .ok = check.classification {
            // The check reads through read-only connections, which SQLite does not let remove the
            // library's log files; a sound library of this format is then opened and closed as
            // every verb leaves it. A damaged one is never opened for writing.
            (try? Library(url: library.url, createIfMissing: false))?.close()
        }
        let recovery: LibraryRecovery.Report?
        if recovers, case .problem(let problem) = check.classification, problem.remedies.contains(.recover) {
            recovery = try await LibraryRecovery.recover(libraryAt: library.url)
        } else {
            recovery = nil
        }
        if emitsJSON {
            try VerbOutput.printJSON(CheckedLibrary(check, recovery: recovery))
        } else {
            print(Self.text(check, recovery: recovery), terminator: "")
        }
        if case .problem = check.classification, recovery == nil { throw CheckFailure(code: check.classification.code) }
        if !check.attachmentProblems.isEmpty { throw CheckFailure(code: "attachments") }
    }

    static func text(_ check: LibraryCheck, recovery: LibraryRecovery.Report?) -> String {
        var lines = ["library: \(check.url.path)", "classification: \(check.classification.code)"]
        let current = check.currentVersion.version
        switch check.classification {
        case .ok:
            lines.append(String(cFormat: gettext("format: %1$s (this Quire writes format %2$d)"), check.version.map { "\($0.version)" } ?? "?", current))
        case .needsUpgrade(let from, _):
            lines.append(String(cFormat: gettext("format: %1$s; this Quire writes format %2$d: 'quire migrate' (or any verb) upgrades it, keeping a backup"), "\(from)", current))
        case .upgradeInterrupted(let from, let state):
            lines.append(String(cFormat: gettext("format: %1$s; an upgrade to format %2$d was interrupted (%3$s): 'quire migrate' resumes it"), "\(from)", current, "\(state)"))
        case .problem(let problem):
            lines.append(String(cFormat: gettext("problem: %s"), problem.message.translated))
            if !problem.detail.isEmpty { lines.append(String(cFormat: gettext("detail: %s"), problem.detail)) }
            if problem.remedies.contains(.recover) && recovery == nil {
                lines.append(gettext("'quire check --recover' moves the file to quarantine (nothing is deleted) and recovers what it can"))
            }
        }
        switch check.integrity {
        case .ok?: lines.append(check.checkedCopy ? gettext("integrity: ok (checked on a copy)") : gettext("integrity: ok"))
        case .damaged(let messages)?: lines += [gettext("integrity: damaged")] + messages.prefix(10).map { "  \($0)" }
        case .notADatabase(let reason)?: lines.append(String(cFormat: gettext("integrity: not a database (%s)"), reason))
        case nil: break
        }
        if !check.rowCounts.isEmpty {
            lines.append(gettext("rows: ") + check.rowCounts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
        for problem in check.attachmentProblems {
            lines.append("attachment: \(problem)")
        }
        for backup in check.backups {
            lines.append(String(cFormat: gettext("backup: %1$s (format %2$d, used on %3$d of %4$d days before it goes)"), backup.file, backup.fromVersion, backup.daysUsed.count, StoreBackups.Retention.default.daysUsed))
        }
        if let recovery {
            lines += [String(cFormat: gettext("recovered: %s"), recovery.summary.translated), String(cFormat: gettext("new library: %s"), recovery.library.path), String(cFormat: gettext("quarantine: %s"), recovery.quarantine.path)]
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// `quire check` found a problem (its report is printed already).
struct CheckFailure: Error, CustomStringConvertible {
    let code: String
    var description: String { String(cFormat: gettext("the library is not usable as it is (%s)"), code) }
}

/// `quire check --json`.
struct CheckedLibrary: Encodable {
    let library: String
    let classification: String
    let message: String?
    let format: Int?
    let currentFormat: Int
    let integrity: [String]
    let rows: [String: Int64]
    let backups: [String]
    /// Attachments that cannot be read back as added: kind, file name, article, path.
    let attachments: [[String: String]]
    let recovered: [String: Int]?
    let quarantine: String?

    init(_ check: LibraryCheck, recovery: LibraryRecovery.Report?) {
        library = check.url.path
        classification = check.classification.code
        if case .problem(let problem) = check.classification { message = problem.message.english } else { message = nil }
        format = check.version?.version
        currentFormat = check.currentVersion.version
        switch check.integrity {
        case .ok?: integrity = ["ok"]
        case .damaged(let messages)?: integrity = messages
        case .notADatabase(let reason)?: integrity = ["not a database: \(reason)"]
        case nil: integrity = []
        }
        rows = check.rowCounts
        backups = check.backups.map(\.file)
        attachments = check.attachmentProblems.map { problem in
            ["problem": problem.kind.rawValue, "fileName": problem.attachment.fileName, "sha256": problem.attachment.sha256,
             "article": problem.attachment.article?.uuidString.lowercased() ?? "", "articleTitle": problem.articleTitle,
             "path": problem.path ?? ""]
        }
        recovered = recovery?.recovered
        quarantine = recovery?.quarantine.path
    }
}
