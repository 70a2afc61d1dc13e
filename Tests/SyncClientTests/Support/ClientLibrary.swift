import Foundation
import Library
import ObjectGraph
import SyncProtocol
import SyncTestSupport
import Testing
@testable import SyncClient

/// A library in a temporary folder, as one device holds it, with what the sync tests compare.
final class ClientLibrary: Sendable {
    let folder: URL
    let library: Library

    init(_ name: String) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("quire-sync-\(name)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        library = try Library(url: folder.appendingPathComponent("library.quire"))
    }

    /// The same library file opened again, as a second process would.
    init(sharing other: ClientLibrary) throws {
        folder = other.folder
        library = try Library(url: other.library.url)
    }

    /// A worker that syncs with `server` (through `port`, a proxy, when given), paced for tests.
    func worker(
        _ server: TestServer, token: String, port: UInt16? = nil, timeout: TimeInterval = 2,
        configure: (inout SyncWorkerConfiguration) -> Void = { _ in }
    ) -> SyncWorker {
        let url = URL(string: "http://127.0.0.1:\(server.port)")!
        var configuration = SyncWorkerConfiguration.forTests(server: url)
        configure(&configuration)
        return SyncWorker(
            library: library, transport: server.transport(token: token, port: port, timeout: timeout), configuration: configuration)
    }

    /// One push/pull cycle straight to the server.
    @discardableResult
    func sync(_ server: TestServer, token: String) async throws -> SyncSummary {
        try await worker(server, token: token).synchronize(settling: 5)
    }

    /// The live articles' content by ID (the trash left out): what every device and the server
    /// must agree on.
    func articles() async throws -> [UUID: ArticleContent] {
        try await library.container.performBackgroundTask { context in
            var contents: [UUID: ArticleContent] = [:]
            for article in try context.fetch(FetchRequest<StoredArticle>(predicate: .isNil(\.trashed))) {
                contents[article.id] = article.content.normalized
            }
            return contents
        }
    }

    /// The bodies of the articles in the trash, by ID.
    func trashedBodies() async throws -> [UUID: String] {
        try await library.container.performBackgroundTask { context in
            var bodies: [UUID: String] = [:]
            for article in try context.fetch(FetchRequest<StoredArticle>(predicate: .isNotNil(\.trashed))) {
                bodies[article.id] = article.body
            }
            return bodies
        }
    }

    /// Replaces one line of the article's body in one save, as an editor does with its buffer:
    /// read and written together, so that a merge the worker saved meanwhile is never written over
    /// with an older copy (the save then meets it, or its outbox sequence, and reads again).
    func edit(_ id: UUID, line: Int, to text: String) async throws {
        for attempt in 1...10 {
            let context = library.container.newBackgroundContext()
            do {
                try await context.perform {
                    let article = try #require(try context.fetch(FetchRequest<StoredArticle>(predicate: \.id == id, fetchLimit: 1)).first)
                    var lines = article.body.components(separatedBy: "\n")
                    lines[line] = text
                    article.body = lines.joined(separator: "\n")
                    try LocalChanges.record(in: context)
                    _ = try context.save()
                }
                return
            } catch ObjectGraphError.mergeConflicts where attempt < 10 {
                continue
            } catch let error as ValidationError where attempt < 10 && error.issues.allSatisfy(\.isNotUnique) {
                // The worker saved a merge's outbox operation under the sequence this save took.
                continue
            }
        }
    }

    /// The outbox operations that are not final.
    func waitingOperations() async throws -> Int {
        try await library.container.performBackgroundTask { context in
            try context.count(for: FetchRequest<SyncOperation>(predicate: .in(\.state, [
                SyncOperationState.pending, .sending, .waitingRetry, .unknownOutcome, .lookingUp,
            ])))
        }
    }

    func remove() {
        try? FileManager.default.removeItem(at: folder)
    }
}

extension SyncWorkerConfiguration {
    /// Short waits, small pages: a test's server answers in milliseconds.
    static func forTests(server: URL) -> SyncWorkerConfiguration {
        SyncWorkerConfiguration(
            server: server, pullInterval: 0.5, leaseDuration: 5, pageSize: 7, maximumInFlight: 4,
            retryPolicy: RetryPolicy(baseDelay: 0.05, maximumDelay: 0.3, maximumRetryAfter: 0.3), probeDelay: 0.05...0.3)
    }
}

extension TestServer {
    /// The live articles the server holds for the token's account, by ID.
    func articles(token: String) async throws -> [UUID: ArticleContent] {
        let transport = transport(token: token)
        var contents: [UUID: ArticleContent] = [:]
        var after: String?
        while true {
            guard case let .success(page) = try await transport.snapshot(after: after, limit: 500) else {
                throw ProxyError("the snapshot did not answer")
            }
            for article in page.articles { contents[UUID(uuidString: article.id)!] = ArticleContent(article.content) }
            guard page.hasMore, let last = page.articles.last else { return contents }
            after = last.id
        }
    }
}
