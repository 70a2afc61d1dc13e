import Foundation
@testable import SyncServer
import SyncProtocol
import Testing

/// 50 clients × 200 writes over loopback, half of them on ten shared articles so that bases go
/// stale all the time: no update may be lost, and the feed must hold each committed change once.
/// (Serialized: each case runs 58 threads against the machine; the two storage kinds take turns.)
@Suite(.serialized) struct LoadTests {
    static let clients = 50
    static let writesPerClient = 200
    static let sharedArticles = 10

    struct Success: Hashable {
        var article: String
        var base: Int64?
        var revision: Int64
        var title: String
    }

    @Test(arguments: StorageKind.allCases)
    func concurrentClientsWithConflictsLoseNoUpdate(_ kind: StorageKind) throws {
        let server = try TestServer(kind) { $0.threads = 8 }
        defer { server.stop() }
        let token = try server.addAccount("load")
        let setup = server.client(token)
        var initial: [Success] = []
        for index in 0..<Self.sharedArticles {
            let title = "shared-\(index) created"
            let created = try setup.create("shared-\(index)", ArticlePayload(title: title, body: ""))
            initial.append(Success(article: "shared-\(index)", base: nil, revision: try #require(created.revision), title: title))
        }

        let successes = LockedList<Success>()
        let conflicts = LockedList<String>()
        let failures = LockedList<String>()
        let group = DispatchGroup()
        for clientIndex in 0..<Self.clients {
            group.enter()
            Thread {
                defer { group.leave() }
                let client = server.client(token)
                var known: [String: Int64] = [:]
                for write in 0..<Self.writesPerClient {
                    let article = write % 2 == 0 ? "shared-\((write / 2 + clientIndex) % Self.sharedArticles)" : "own-\(clientIndex)"
                    let title = "c\(clientIndex) w\(write)"
                    let content = ArticlePayload(title: title, body: "Written by client \(clientIndex), write \(write).")
                    let base = known[article] ?? (article.hasPrefix("shared") ? 1 : nil)
                    do {
                        let key = "c\(clientIndex)-w\(write)"
                        let response = try base.map { try client.update(article, content, base: $0, key: key) }
                            ?? client.create(article, content, key: key)
                        switch (response.status, response.revision, response.problem?.current?.revision) {
                        case let (200, revision?, _), let (201, revision?, _):
                            successes.append(Success(article: article, base: base, revision: revision, title: title))
                            known[article] = revision
                        case let (412, _, current?):
                            conflicts.append(article)
                            known[article] = current
                        default:
                            failures.append("\(article): \(response.status) \(response.text)")
                        }
                    } catch {
                        failures.append("\(article): \(error)")
                    }
                }
            }.start()
        }
        group.wait()
        // The setup client's connection sat idle through the load, which on a busy machine lasts
        // longer than the server's client timeout (30 s): the server has closed it. Check on a new one.
        let check = server.client(token)

        #expect(failures.all.isEmpty, "\(failures.all.prefix(5))")
        #expect(conflicts.all.count > 100, "the shared articles should conflict often")
        let committed = initial + successes.all
        #expect(successes.all.count + conflicts.all.count == Self.clients * Self.writesPerClient)

        // Per article, each accepted write is based on the one accepted before it.
        for (article, writes) in Dictionary(grouping: committed, by: \.article) {
            let ordered = writes.sorted { $0.revision < $1.revision }
            #expect(ordered.first?.base == nil, "\(article) did not start with its creation")
            for (earlier, later) in zip(ordered, ordered.dropFirst()) {
                #expect(later.base == earlier.revision, "\(article): a write based on \(later.base ?? 0) followed \(earlier.revision)")
            }
            let current = try check.send("GET", SyncPath.article(article)).decode(Article.self)
            #expect(current.revision == ordered.last?.revision && current.content.title == ordered.last?.title)
        }

        // The feed holds every committed change exactly once, in commit order.
        let feed = try check.allChanges()
        #expect(zip(feed, feed.dropFirst()).allSatisfy { $0.cursor < $1.cursor })
        #expect(feed.count == committed.count)
        #expect(Set(feed.map { Success(article: $0.id, base: nil, revision: $0.revision, title: $0.article?.content.title ?? "") })
            == Set(committed.map { Success(article: $0.article, base: nil, revision: $0.revision, title: $0.title) }))
    }
}
