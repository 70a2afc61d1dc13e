import Foundation
import Library
import SyncClient

/// `quire sync`: one push/pull cycle with the library's server, and a summary of what it did.
struct SyncVerb: Verb {
    static let name = "sync"
    static let summary = "Push the library's changes to its server and pull the server's"
    static let usage = "[--library PATH] [--server URL --token T] [--allow-insecure] [--ca-file FILE] [--timeout SECONDS] [--json]"

    let library: LibraryOption
    let account: AccountOption
    let timeout: TimeInterval
    let emitsJSON: Bool

    init(arguments: inout VerbArguments) throws(CommandLineError) {
        library = try LibraryOption(arguments: &arguments)
        account = try AccountOption(arguments: &arguments)
        emitsJSON = arguments.flag("--json")
        if let text = try arguments.option("--timeout") {
            guard let seconds = TimeInterval(text), seconds >= 1, seconds <= 3600 else {
                throw .invalidValue(option: "--timeout", value: text, expected: "a number of seconds from 1 to 3600")
            }
            timeout = seconds
        } else {
            timeout = 30
        }
    }

    func run() async throws {
        // A first sync on a new device fills a new library.
        let library = try library.open(creatingIfMissing: true)
        let account = try account.account(for: library)
        let worker = SyncWorker(library: library, account: account, requestTimeout: timeout)
        // Retries that come due within a few seconds are waited for rather than left for next time.
        let summary = try await worker.synchronize(settling: min(10, timeout))
        if emitsJSON {
            try VerbOutput.printJSON(SyncReport(summary))
            return
        }
        print(Self.text(of: summary))
    }

    static func text(of summary: SyncSummary) -> String {
        var lines: [String] = []
        let pulled = summary.pulled
        lines.append("pushed \(summary.pushed) change\(summary.pushed == 1 ? "" : "s"), pulled \(pulled.taken + pulled.merged) "
            + "(\(pulled.merged + summary.pushConflicts.merged) merged automatically)" + (summary.resynced ? ", resynced from the snapshot" : ""))
        let status = summary.status
        if status.waitingChanges > 0 {
            lines.append("\(status.waitingChanges) change\(status.waitingChanges == 1 ? "" : "s") still wait\(status.waitingChanges == 1 ? "s" : "") to be sent")
        }
        if status.openConflicts > 0 {
            lines.append("\(status.openConflicts) conflict\(status.openConflicts == 1 ? "" : "s") to resolve: see 'quire conflicts'")
        }
        for failure in status.failures {
            lines.append("refused: \(failure.articleTitle.map { "'\($0)'" } ?? failure.articleID.uuidString.lowercased()): \(failure.rejection)")
        }
        if let problem = status.lastProblem { lines.append("problem: \(problem)") }
        return lines.joined(separator: "\n")
    }
}

/// `quire sync --json`.
struct SyncReport: Encodable {
    let pushed: Int
    let refused: Int
    let pulled: Int
    let merged: Int
    let conflictsFound: Int
    let resynced: Bool
    let waiting: Int
    let openConflicts: Int
    let failures: [String]
    let lastSynced: Date?
    let problem: String?

    init(_ summary: SyncSummary) {
        pushed = summary.pushed
        refused = summary.refused
        pulled = summary.pulled.taken + summary.pulled.merged
        merged = summary.pulled.merged + summary.pushConflicts.merged
        conflictsFound = summary.pulled.conflicts + summary.pushConflicts.conflicts
        resynced = summary.resynced
        waiting = summary.status.waitingChanges
        openConflicts = summary.status.openConflicts
        failures = summary.status.failures.map { "\($0.articleID.uuidString.lowercased()): \($0.rejection)" }
        lastSynced = summary.status.lastSynced
        problem = summary.status.lastProblem?.description
    }
}
