import Foundation
import ObjectGraph

/// What `quire check` reports of a library file, found without writing to it: SQLite's integrity
/// check (on a copy), the library's format against this Quire's, whether it may be written, the
/// rows of each entity, and the upgrade backups kept beside it.
///
///     let check = LibraryCheck.run(url)
///     print(check.classification.code)   // ok, needs-upgrade, upgrade-interrupted, or a problem's code
public struct LibraryCheck: Sendable {
    /// The verdict, most serious first.
    public enum Classification: Sendable, Hashable {
        /// The library is sound and of the current format.
        case ok
        /// A sound library of an older format; opening it upgrades it.
        case needsUpgrade(from: Int, to: Int)
        /// An upgrade was interrupted; opening the library resumes it (the library is as it was).
        case upgradeInterrupted(from: Int, state: MigrationState)
        /// A problem, with what to tell the writer.
        case problem(LibraryProblem)

        /// `ok`, `needs-upgrade`, `upgrade-interrupted`, or the problem's ``LibraryProblem/code``.
        public var code: String {
            switch self {
            case .ok: return "ok"
            case .needsUpgrade: return "needs-upgrade"
            case .upgradeInterrupted: return "upgrade-interrupted"
            case .problem(let problem): return problem.code
            }
        }
    }

    /// The library file.
    public var url: URL
    /// The verdict.
    public var classification: Classification
    /// SQLite's verdict on a copy of the file (nil when there is no file).
    public var integrity: StoreIntegrity.Verdict?
    /// Whether the integrity check ran on a copy (false: no room for one, the file was read read-only).
    public var checkedCopy: Bool
    /// The format the library has, when readable, and the one this Quire writes.
    public var version: SchemaVersion?
    public var currentVersion: SchemaVersion
    /// Rows per entity, as far as they could be counted.
    public var rowCounts: [String: Int64]
    /// The backups earlier upgrades left.
    public var backups: [StoreBackups.Entry]
    /// Attachments whose bytes cannot be read back as they were added, with their articles
    /// (looked for in a sound library of the current format only).
    public var attachmentProblems: [AttachmentProblem] = []

    /// Checks the library at `url`.
    public static func run(_ url: URL) -> LibraryCheck {
        let url = url.standardizedFileURL
        let path = url.path
        let plan = LibrarySchema.migrationPlan()
        var check = LibraryCheck(
            url: url, classification: .ok, integrity: nil, checkedCopy: false, version: nil,
            currentVersion: SchemaVersion(version: plan.current.version, checksum: plan.current.checksum), rowCounts: [:],
            backups: (try? StoreBackups(folder: Library.backupFolder(for: url)).entries()) ?? [])
        guard FileManager.default.fileExists(atPath: path) else {
            check.classification = .problem(LibraryProblem(.missing, path: path))
            return check
        }
        do {
            let report = try StoreIntegrity.check(url)
            check.integrity = report.verdict
            check.checkedCopy = report.checkedCopy
            check.version = report.metadata?.schema
            check.rowCounts = report.rowCounts
            switch report.verdict {
            case .notADatabase(let reason):
                check.classification = .problem(LibraryProblem(.damaged(.notADatabase), path: path, detail: reason))
                return check
            case .damaged(let messages):
                check.classification = .problem(LibraryProblem(
                    .damaged(.corrupt), path: path, detail: messages.prefix(5).joined(separator: "; ")))
                return check
            case .ok:
                break
            }
            switch try StoreMigrator(plan: plan, store: url, options: MigrationOptions(backupFolder: Library.backupFolder(for: url))).status() {
            case .needed(let from, _):
                check.classification = .needsUpgrade(from: from.version, to: plan.current.version)
            case .interrupted(let from, let state):
                check.classification = .upgradeInterrupted(from: from.version, state: state)
            case .unknownSchema(let found, let current):
                throw MigrationError.unknownSchema(found: found, current: current)
            case .upToDate, .missing:
                if let reason = Library.readOnlyReason(url) {
                    check.classification = .problem(LibraryProblem(.readOnly(reason), path: path))
                }
                check.attachmentProblems = try AttachmentProblem.all(inLibraryAt: url)
            }
        } catch {
            check.classification = .problem(LibraryProblem.classify(error, path: path))
        }
        return check
    }
}
