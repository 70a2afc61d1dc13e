import Foundation
import Library
import ObjectGraph
import SyncClient
import SyncProtocol
import SyncServer

/// `quire-bench sync`: the sync worker against `quire-server` on loopback, the server started in
/// this process on a SQLite database in the work folder.
///
/// - `first_sync_10k_per_s`: articles per second that `SyncWorker.synchronize()` brings from the
///   server into an empty library (pages of the change feed, each applied in one local
///   transaction with the new cursor). Baseline: the same feed only downloaded and decoded
///   through the same transport, in the same run, so the ratio is what writing the library costs.
/// - `push_1000_per_s`: edits per second that one `synchronize()` pushes when 1000 synced
///   articles each have one unsent edit, including the pull that follows (it brings the 1000
///   new revisions back and skips them) — what the writer waits for after a burst of work.
///   Baseline: 1000 bare `If-Match` PUTs of the same edits to existing articles, through the same
///   transport with as many in flight as the worker.
struct SyncSuite: BenchmarkSuite {
    static let name = "sync"
    static let summary = "sync worker against quire-server on loopback: first sync and push rates"
    /// Articles on the server for the first sync.
    static let defaultRows = 10_000
    /// Edits pushed per repetition (the figure's name fixes it).
    static let edits = 1000

    static func run(_ options: BenchmarkOptions) async throws -> [BenchmarkResult] {
        let loopback = try LoopbackServer(folder: options.workDirectory.appendingPathComponent("server"))
        defer { loopback.server.shutdown() }
        let worker = SyncWorkerConfiguration(server: loopback.url)
        func transport(for account: String) throws -> URLSessionTransport { try loopback.transport(forNewAccount: account) }
        let firstSync = try await measureFirstSync(transport: try transport(for: "reader"), worker: worker, options)
        let push = try await measurePush(
            transport: try transport(for: "writer"), baseline: try transport(for: "baseline"), worker: worker, options)
        return [firstSync, push]
    }

    // MARK: First sync

    private static func measureFirstSync(
        transport: URLSessionTransport, worker: SyncWorkerConfiguration, _ options: BenchmarkOptions
    ) async throws -> BenchmarkResult {
        let rows = options.rows
        try await putConcurrently((0..<rows).map { index in
            WriteRequest(articleID: UUID().uuidString, idempotencyKey: UUID().uuidString,
                         action: .put(payload(index, round: 0), .absent))
        }, through: transport, inFlight: worker.maximumInFlight)

        var round = 0
        let milliseconds = try await measureMilliseconds(repetitions: options.repetitions, setUp: { () throws -> Library in
            // The previous round's library goes here, untimed.
            if round > 0 { try? FileManager.default.removeItem(at: firstSyncFolder(round, options)) }
            round += 1
            return try Library(url: firstSyncFolder(round, options).appendingPathComponent("library.quire"))
        }) { library in
            let summary = try await SyncWorker(library: library, transport: transport, configuration: worker).synchronize()
            guard summary.pulled.taken == rows else {
                throw SyncBenchError("the first sync brought \(summary.pulled.taken) of \(rows) articles")
            }
        }
        let feedMilliseconds = try await measureMilliseconds(repetitions: options.repetitions, setUp: {}) {
            var cursor: Int64 = 0
            var changes = 0
            while true {
                guard case let .success(page) = try await transport.changes(since: cursor, limit: worker.pageSize) else {
                    throw SyncBenchError("GET /v1/changes did not answer with a page")
                }
                changes += page.changes.count
                cursor = page.nextCursor
                if !page.hasMore { break }
            }
            guard changes == rows else { throw SyncBenchError("the feed held \(changes) of \(rows) changes") }
        }
        return BenchmarkResult(
            name: "first_sync_10k_per_s", unit: "per_s", value: Double(rows) / milliseconds * 1000,
            baseline: "feed_download", baselineValue: Double(rows) / feedMilliseconds * 1000)
    }

    private static func firstSyncFolder(_ round: Int, _ options: BenchmarkOptions) -> URL {
        options.workDirectory.appendingPathComponent("first-sync-\(round)")
    }

    // MARK: Push

    private static func measurePush(
        transport: URLSessionTransport, baseline: URLSessionTransport, worker: SyncWorkerConfiguration,
        _ options: BenchmarkOptions
    ) async throws -> BenchmarkResult {
        let library = try Library(url: options.workDirectory.appendingPathComponent("push/library.quire"))
        try await library.container.performBackgroundTask { context in
            for index in 0..<edits {
                let article = StoredArticle(context: context)
                article.id = UUID()
                article.created = Date()
                article.updated = article.created
                try article.setContent(ArticleContent(title: title(index), body: body(round: 0), folder: "Drafts", tags: ["bench"]), at: article.created)
            }
            try LocalChanges.record(in: context)
            _ = try context.save()
        }
        let syncWorker = SyncWorker(library: library, transport: transport, configuration: worker)
        guard try await syncWorker.synchronize().pushed == edits else { throw SyncBenchError("the articles were not all created") }

        var round = 0
        let milliseconds = try await measureMilliseconds(repetitions: options.repetitions, setUp: {
            round += 1
            let edited = round
            // One save edits every article: each gets one pending operation.
            try await library.container.performBackgroundTask { context in
                for article in try context.fetch(FetchRequest<StoredArticle>()) {
                    article.body = body(round: edited)
                }
                try LocalChanges.record(in: context)
                _ = try context.save()
            }
        }) {
            let summary = try await syncWorker.synchronize()
            guard summary.pushed == edits, summary.status.waitingChanges == 0 else {
                throw SyncBenchError("one sync pushed \(summary.pushed) of \(edits) edits")
            }
        }

        // The baseline edits existing articles as the push does: each PUT names the revision it
        // replaces (If-Match), and the next round's PUT the revision this one made.
        let articleIDs = (0..<edits).map { _ in UUID().uuidString }
        var revisions = try await putConcurrently(articleIDs.enumerated().map { index, id in
            WriteRequest(articleID: id, idempotencyKey: UUID().uuidString, action: .put(payload(index, round: 0), .absent))
        }, through: baseline, inFlight: worker.maximumInFlight)
        var baselineRound = 0
        let baselineMilliseconds = try await measureMilliseconds(repetitions: options.repetitions, setUp: { () -> [WriteRequest] in
            baselineRound += 1
            let edited = baselineRound
            return articleIDs.enumerated().map { index, id in
                WriteRequest(articleID: id, idempotencyKey: UUID().uuidString,
                             action: .put(payload(index, round: edited), .revision(revisions[id]!)))
            }
        }) { writes in
            revisions = try await putConcurrently(writes, through: baseline, inFlight: worker.maximumInFlight)
        }
        return BenchmarkResult(
            name: "push_1000_per_s", unit: "per_s", value: Double(edits) / milliseconds * 1000,
            baseline: "bare_puts", baselineValue: Double(edits) / baselineMilliseconds * 1000)
    }

    // MARK: Shared

    private static func title(_ index: Int) -> String { "Benchmark draft \(index)" }

    /// About a kilobyte of Markdown, an ordinary draft; `round` changes it.
    private static func body(round: Int) -> String {
        "Revision \(round).\n" + String(repeating: "A sentence of an ordinary draft, autosaved.\n", count: 24)
    }

    private static func payload(_ index: Int, round: Int) -> ArticlePayload {
        ArticlePayload(title: title(index), body: body(round: round), folder: "Drafts", tags: ["bench"], status: .draft, favorite: false)
    }

    /// Sends `writes` with `inFlight` requests on the wire at once; every one must be applied.
    /// Returns the revision each article is at now.
    @discardableResult
    private static func putConcurrently(
        _ writes: [WriteRequest], through transport: URLSessionTransport, inFlight: Int
    ) async throws -> [String: Int64] {
        try await withThrowingTaskGroup(of: (String, Int64).self) { group in
            var pending = writes.makeIterator()
            func sendNext() {
                guard let write = pending.next() else { return }
                group.addTask {
                    guard case .applied(let version, _) = try await transport.send(write), let revision = version.revision else {
                        throw SyncBenchError("PUT \(write.articleID) was not applied")
                    }
                    return (write.articleID, revision)
                }
            }
            for _ in 0..<inFlight { sendNext() }
            var revisions: [String: Int64] = [:]
            while let (articleID, revision) = try await group.next() {
                revisions[articleID] = revision
                sendNext()
            }
            return revisions
        }
    }
}

private struct SyncBenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
