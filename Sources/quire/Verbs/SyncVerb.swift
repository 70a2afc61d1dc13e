import CommandLineArguments
import Foundation
import Library
import Platform
import SyncClient

/// `quire sync`: one push/pull cycle with the library's server, and a summary of what it did. A
/// server that cannot be reached, refuses, or a busy library end it with an exit status of their
/// own (``SyncVerbFailure``), so that a script can tell them apart.
struct SyncVerb: Verb {
    static let name = "sync"
    static let summary = gettext("Push the library's changes to its server and pull the server's")
    static let usage = "[--library PATH] [--server URL --token T] [--allow-insecure] [--ca-file FILE] [--timeout SECONDS] [--json]"
    static let details = [
        gettext("Options:\n  --server URL --token T  Sync with this account for this run (else the library's saved\n                          account: 'quire account set')\n  --allow-insecure        Allow http:// to a server on another computer (the token and\n                          the articles cross the network unencrypted)\n  --ca-file FILE          Trust the certificate authorities in this PEM file (a\n                          self-signed server) instead of the system's\n  --timeout SECONDS       How long one request may take (1 to 3600; default 30)\n  --json                  Print one JSON object: pushed, refused, pulled, merged,\n                          conflictsFound, resynced, waiting, openConflicts, lastSynced,\n                          failures (changes the server refused, each with kind, status,\n                          articleId, title, operationId and message) and problem (null, or\n                          kind and message; kind is unreachable, waitRequested or refused)"),
        gettext("Exit status:\n  0   synced; conflicts may still wait for a decision ('quire conflicts')\n  69  the server could not be reached or asked to wait: nothing is lost, run it again later\n  75  the library is busy: another Quire process syncs it or holds it; run it again later\n  76  the server refused: the account's token, the protocol, or a change it will never take\n      (the failures say which); running again will not help\n  1   any other failure (the message says what); 2 a usage error"),
    ].joined(separator: "\n\n")

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
                throw .invalidValue(option: "--timeout", value: text, expected: gettext("a number of seconds from 1 to 3600"))
            }
            timeout = seconds
        } else {
            timeout = 30
        }
    }

    func run() async throws {
        let summary: SyncSummary
        do {
            // A first sync on a new device fills a new library.
            let library = try library.open(creatingIfMissing: true)
            let account = try account.account(for: library)
            let worker = SyncWorker(library: library, account: account, requestTimeout: timeout)
            // Retries that come due within a few seconds are waited for rather than left for next time.
            summary = try await worker.synchronize(settling: min(10, timeout))
        } catch let error as SyncStoreError {
            guard case .leaseHeldElsewhere = error else { throw error }
            throw SyncVerbFailure(kind: .busy, message: error.description)
        } catch AccountError.tokenRefused(let detail) {
            throw SyncVerbFailure(kind: .refused, message: AccountError.tokenRefused(detail: detail).description)
        } catch let error where LibraryProblem.classify(error, path: library.url.path).kind == .busy {
            throw SyncVerbFailure(kind: .busy, message: VerbRunner.describe(error))
        }
        if emitsJSON {
            try VerbOutput.printJSON(SyncReport(summary))
        } else {
            print(Self.text(of: summary))
        }
        if let failure = SyncVerbFailure(summary) { throw failure }
    }

    static func text(of summary: SyncSummary) -> String {
        var lines: [String] = []
        let pulled = summary.pulled
        let merged = pulled.merged + summary.pushConflicts.merged
        let pushedText = String(cFormat: ngettext("pushed %d change", "pushed %d changes", summary.pushed), summary.pushed)
        let pulledText = String(cFormat: ngettext("pulled %1$d (%2$d merged automatically)", "pulled %1$d (%2$d merged automatically)", pulled.taken + pulled.merged), pulled.taken + pulled.merged, merged)
        lines.append(pushedText + ", " + pulledText + (summary.resynced ? gettext(", resynced from the snapshot") : ""))
        let status = summary.status
        if status.waitingChanges > 0 {
            lines.append(String(cFormat: ngettext("%d change still waits to be sent", "%d changes still wait to be sent", status.waitingChanges), status.waitingChanges))
        }
        if status.openConflicts > 0 {
            lines.append(String(cFormat: ngettext("%d conflict to resolve: see 'quire conflicts'", "%d conflicts to resolve: see 'quire conflicts'", status.openConflicts), status.openConflicts))
        }
        for failure in status.failures {
            let article = failure.articleTitle.map { "'\($0)'" } ?? failure.articleID.uuidString.lowercased()
            lines.append(String(cFormat: gettext("refused: %1$s: %2$s"), article, failure.rejection.description))
        }
        // A problem that ends the run in a failure is said on standard error instead.
        if let problem = status.lastProblem, SyncVerbFailure(summary) == nil { lines.append(String(cFormat: gettext("problem: %s"), problem.description)) }
        return lines.joined(separator: "\n")
    }
}

/// Why `quire sync` did not sync, with its exit status.
struct SyncVerbFailure: VerbFailure {
    enum Kind: String, Encodable {
        /// The server could not be reached (69).
        case unreachable
        /// The server asked to wait: 429 or 503 (69).
        case waitRequested
        /// The server refused: the token, the protocol, or changes it will never take (76).
        case refused
        /// Another Quire process syncs the library or holds it (75).
        case busy
    }

    let kind: Kind
    let message: String

    var description: String { message }

    var exitStatus: Int32 {
        switch kind {
        case .unreachable, .waitRequested: VerbRunner.ExitStatus.unavailable
        case .refused: VerbRunner.ExitStatus.refused
        case .busy: VerbRunner.ExitStatus.tryAgain
        }
    }

    init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    /// The failure a finished cycle ends in; nil when it synced. Changes refused in this run count
    /// before a problem that came after them.
    init?(_ summary: SyncSummary) {
        if summary.refused > 0 {
            let message = ngettext(
                "the server refused %d change for good; it stays in this library (see the failures)",
                "the server refused %d changes for good; they stay in this library (see the failures)", summary.refused)
            self.init(kind: .refused, message: String(cFormat: message, summary.refused))
            return
        }
        guard let problem = summary.status.lastProblem, let kind = Self.kind(of: problem) else { return nil }
        self.init(kind: kind, message: problem.description)
    }

    /// The kind of a problem the worker reported.
    static func kind(of problem: SyncProblem) -> Kind? {
        switch problem.kind {
        case .network: .unreachable
        case .server: .waitRequested
        case .refused: .refused
        case .store: nil
        }
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
    let failures: [Failure]
    let lastSynced: Date?
    let problem: Problem?

    /// A change the server refused for good.
    struct Failure: Encodable {
        /// Why: `invalidRequest`, `tooLarge`, `idempotencyKeyReused`, `refusedBeforeSending`, `unexpectedStatus`.
        let kind: String
        let status: Int?
        let articleID: String
        let title: String?
        let operationID: String
        let message: String

        private enum CodingKeys: String, CodingKey {
            case kind, status, articleID = "articleId", title, operationID = "operationId", message
        }

        // Absent values are written as null, so every object has every key.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(kind, forKey: .kind)
            try container.encode(status, forKey: .status)
            try container.encode(articleID, forKey: .articleID)
            try container.encode(title, forKey: .title)
            try container.encode(operationID, forKey: .operationID)
            try container.encode(message, forKey: .message)
        }
    }

    /// What kept the cycle from syncing everything.
    struct Problem: Encodable {
        /// `unreachable`, `waitRequested`, `refused`, or `store` (the library failed).
        let kind: String
        let message: String
    }

    init(_ summary: SyncSummary) {
        pushed = summary.pushed
        refused = summary.refused
        pulled = summary.pulled.taken + summary.pulled.merged
        merged = summary.pulled.merged + summary.pushConflicts.merged
        conflictsFound = summary.pulled.conflicts + summary.pushConflicts.conflicts
        resynced = summary.resynced
        waiting = summary.status.waitingChanges
        openConflicts = summary.status.openConflicts
        failures = summary.status.failures.map { failure in
            Failure(
                kind: failure.rejection.reason.rawValue, status: failure.rejection.status,
                articleID: failure.articleID.uuidString.lowercased(), title: failure.articleTitle, operationID: failure.id,
                message: failure.rejection.description)
        }
        lastSynced = summary.status.lastSynced
        problem = summary.status.lastProblem.map { problem in
            Problem(kind: SyncVerbFailure.kind(of: problem)?.rawValue ?? "store", message: problem.description)
        }
    }

    private enum CodingKeys: String, CodingKey {
        case pushed, refused, pulled, merged, conflictsFound, resynced, waiting, openConflicts, failures, lastSynced, problem
    }

    // Absent values are written as null, so every object has every key.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(pushed, forKey: .pushed)
        try container.encode(refused, forKey: .refused)
        try container.encode(pulled, forKey: .pulled)
        try container.encode(merged, forKey: .merged)
        try container.encode(conflictsFound, forKey: .conflictsFound)
        try container.encode(resynced, forKey: .resynced)
        try container.encode(waiting, forKey: .waiting)
        try container.encode(openConflicts, forKey: .openConflicts)
        try container.encode(failures, forKey: .failures)
        try container.encode(lastSynced, forKey: .lastSynced)
        try container.encode(problem, forKey: .problem)
    }
}
