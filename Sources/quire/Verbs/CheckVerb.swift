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
    }

    static func text(_ check: LibraryCheck, recovery: LibraryRecovery.Report?) -> String {
        var lines = ["library: \(check.url.path)", "classification: \(check.classification.code)"]
        let current = "format \(check.currentVersion.version)"
        switch check.classification {
        case .ok:
            lines.append("format: \(check.version.map { "\($0.version)" } ?? "?") (this Quire writes \(current))")
        case .needsUpgrade(let from, _):
            lines.append("format: \(from); this Quire writes \(current): 'quire migrate' (or any verb) upgrades it, keeping a backup")
        case .upgradeInterrupted(let from, let state):
            lines.append("format: \(from); an upgrade to \(current) was interrupted (\(state)): 'quire migrate' resumes it")
        case .problem(let problem):
            lines.append("problem: \(problem.message)")
            if !problem.detail.isEmpty { lines.append("detail: \(problem.detail)") }
            if problem.remedies.contains(.recover) && recovery == nil {
                lines.append("'quire check --recover' moves the file to quarantine (nothing is deleted) and recovers what it can")
            }
        }
        switch check.integrity {
        case .ok?: lines.append("integrity: ok\(check.checkedCopy ? " (checked on a copy)" : "")")
        case .damaged(let messages)?: lines += ["integrity: damaged"] + messages.prefix(10).map { "  \($0)" }
        case .notADatabase(let reason)?: lines.append("integrity: not a database (\(reason))")
        case nil: break
        }
        if !check.rowCounts.isEmpty {
            lines.append("rows: " + check.rowCounts.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
        }
        for backup in check.backups {
            lines.append("backup: \(backup.file) (format \(backup.fromVersion), used on \(backup.daysUsed.count) of "
                + "\(StoreBackups.Retention.default.daysUsed) days before it goes)")
        }
        if let recovery {
            lines += ["recovered: \(recovery.summary)", "new library: \(recovery.library.path)", "quarantine: \(recovery.quarantine.path)"]
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// `quire check` found a problem (its report is printed already).
struct CheckFailure: Error, CustomStringConvertible {
    let code: String
    var description: String { "the library is not usable as it is (\(code))" }
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
    let recovered: [String: Int]?
    let quarantine: String?

    init(_ check: LibraryCheck, recovery: LibraryRecovery.Report?) {
        library = check.url.path
        classification = check.classification.code
        if case .problem(let problem) = check.classification { message = problem.message } else { message = nil }
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
        recovered = recovery?.recovered
        quarantine = recovery?.quarantine.path
    }
}
