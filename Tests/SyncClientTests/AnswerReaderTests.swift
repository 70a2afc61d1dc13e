import Foundation
@testable import SyncClient
import SyncProtocol
import Testing

/// The checks on answers, one contradiction at a time, without a network.
@Suite struct AnswerReaderTests {
    let reader = AnswerReader(method: "GET", path: "/test")
    let content = ArticlePayload(title: "T", body: "B")

    func json(_ status: Int, _ value: some Encodable, headers: [String: String] = [:]) throws -> HTTPAnswer {
        HTTPAnswer(status: status, headers: headers, body: try SyncJSON.encoder().encode(value))
    }

    func article(_ id: String, _ revision: Int64) -> Article {
        Article(id: id, revision: revision, updatedAt: Date(timeIntervalSince1970: 1_800_000_000), content: content)
    }

    func change(_ id: String, cursor: Int64, revision: Int64, deleted: Bool = false) -> ArticleChange {
        ArticleChange(cursor: cursor, id: id, revision: revision, deleted: deleted, changedAt: Date(timeIntervalSince1970: 1_800_000_000),
                      article: deleted ? nil : article(id, revision))
    }

    func stale(_ current: ArticleChange?) -> Problem {
        Problem(type: .staleRevision, title: "stale", status: 412, current: current)
    }

    func isInvalid<Value>(_ read: () throws -> Value) -> Bool {
        do {
            _ = try read()
            return false
        } catch let error as TransportError {
            if case .invalidAnswer = error { return true }
            return false
        } catch {
            return false
        }
    }

    @Test func changesPagesMustMoveForwardAndEndHonestly() throws {
        let good = ChangesPage(changes: [change("a", cursor: 5, revision: 5), change("b", cursor: 7, revision: 3, deleted: true)],
                               nextCursor: 7, hasMore: true)
        #expect(try reader.changes(try json(200, good), since: 4) == .success(good))
        #expect(try reader.changes(try json(200, ChangesPage(changes: [], nextCursor: 9, hasMore: false)), since: 9)
                == .success(ChangesPage(changes: [], nextCursor: 9, hasMore: false)))

        var backwards = good
        backwards.changes.reverse()
        #expect(isInvalid { try reader.changes(try json(200, backwards), since: 4) })
        #expect(isInvalid { try reader.changes(try json(200, good), since: 5) }, "a change at or before since")
        #expect(isInvalid { try reader.changes(try json(200, ChangesPage(changes: good.changes, nextCursor: 6, hasMore: true)), since: 4) })
        #expect(isInvalid { try reader.changes(try json(200, ChangesPage(changes: [], nextCursor: 4, hasMore: true)), since: 4) },
                "an empty page that promises more would loop forever")
        #expect(isInvalid { try reader.changes(try json(200, ChangesPage(changes: [], nextCursor: 2, hasMore: false)), since: 4) })
        var deletionWithArticle = change("a", cursor: 5, revision: 5)
        deletionWithArticle.deleted = true
        #expect(isInvalid { try reader.changes(try json(200, ChangesPage(changes: [deletionWithArticle], nextCursor: 5, hasMore: false)), since: 0) })
        var otherArticle = change("a", cursor: 5, revision: 5)
        otherArticle.article = article("b", 5)
        #expect(isInvalid { try reader.changes(try json(200, ChangesPage(changes: [otherArticle], nextCursor: 5, hasMore: false)), since: 0) })
        var badID = change("a", cursor: 5, revision: 5)
        badID.id = "../a"
        badID.article?.id = "../a"
        #expect(isInvalid { try reader.changes(try json(200, ChangesPage(changes: [badID], nextCursor: 5, hasMore: false)), since: 0) })

        let resync = Problem(type: .resyncRequired, title: "resync", status: 410)
        #expect(try reader.changes(try json(410, resync), since: 4) == .resyncRequired)
        #expect(isInvalid { try reader.changes(HTTPAnswer(status: 410, headers: [:], body: Data("gone".utf8)), since: 4) })
    }

    @Test func snapshotPagesMustListArticlesInOrderAfterTheirStart() throws {
        let good = ArticlesPage(articles: [article("b", 2), article("c", 9)], cursor: 12, hasMore: false)
        #expect(try reader.snapshot(try json(200, good), after: "a") == .success(good))
        #expect(isInvalid { try reader.snapshot(try json(200, good), after: "b") })
        #expect(isInvalid { try reader.snapshot(try json(200, ArticlesPage(articles: good.articles.reversed(), cursor: 12, hasMore: false)), after: nil) })
        #expect(isInvalid { try reader.snapshot(try json(200, ArticlesPage(articles: [article("b", 0)], cursor: 12, hasMore: false)), after: nil) })
        #expect(isInvalid { try reader.snapshot(try json(200, ArticlesPage(articles: [], cursor: 12, hasMore: true)), after: nil) })
    }

    @Test func conflictsMustNameAVersionThatIsNotTheBase() throws {
        let update = WriteRequest(articleID: "a", idempotencyKey: "k", action: .put(content, .revision(5)))
        let create = WriteRequest(articleID: "a", idempotencyKey: "k", action: .put(content, .absent))
        let delete = WriteRequest(articleID: "a", idempotencyKey: "k", action: .delete(base: 5))
        let newer = change("a", cursor: 8, revision: 8)
        let tombstone = change("a", cursor: 8, revision: 8, deleted: true)
        #expect(try reader.write(try json(412, stale(newer)), for: update) == .conflict(current: newer))
        #expect(try reader.write(try json(412, stale(tombstone)), for: update) == .conflict(current: tombstone))
        #expect(try reader.write(try json(412, stale(nil)), for: update) == .conflict(current: nil))
        #expect(try reader.write(try json(412, stale(newer)), for: delete) == .conflict(current: newer))

        #expect(isInvalid { try reader.write(try json(412, stale(change("a", cursor: 5, revision: 5))), for: update) }, "the base itself")
        #expect(isInvalid { try reader.write(try json(412, stale(change("b", cursor: 8, revision: 8))), for: update) }, "another article")
        #expect(isInvalid { try reader.write(try json(412, stale(tombstone)), for: create) }, "a create over a tombstone succeeds")
        #expect(isInvalid { try reader.write(try json(412, stale(nil)), for: create) }, "a create conflicts only with a live article")
        #expect(isInvalid { try reader.write(try json(412, stale(tombstone)), for: delete) }, "a deleted article answers 404")
        var wrongStatus = stale(newer)
        wrongStatus.status = 400
        #expect(isInvalid { try reader.write(try json(412, wrongStatus), for: update) })
    }

    @Test func deletesMustLeaveATombstoneAfterTheBase() throws {
        let delete = WriteRequest(articleID: "a", idempotencyKey: "k", action: .delete(base: 5))
        let tombstone = change("a", cursor: 6, revision: 6, deleted: true)
        #expect(try reader.write(try json(200, tombstone, headers: ["ETag": #""6""#, "Idempotent-Replayed": "true"]), for: delete)
                == .applied(.deleted(tombstone: tombstone), replayed: true))
        #expect(isInvalid { try reader.write(try json(200, change("a", cursor: 6, revision: 6)), for: delete) }, "not a tombstone")
        #expect(isInvalid { try reader.write(try json(200, change("a", cursor: 6, revision: 4, deleted: true)), for: delete) })
        #expect(isInvalid { try reader.write(try json(200, tombstone, headers: ["ETag": #""7""#]), for: delete) })

        let gone = Problem(type: .notFound, title: "Not found", status: 404, current: tombstone)
        #expect(try reader.write(try json(404, gone), for: delete) == .applied(.deleted(tombstone: tombstone), replayed: false))
        let never = Problem(type: .notFound, title: "Not found", status: 404)
        #expect(try reader.write(try json(404, never), for: delete) == .applied(.deleted(tombstone: nil), replayed: false))
        let liveIn404 = Problem(type: .notFound, title: "Not found", status: 404, current: change("a", cursor: 6, revision: 6))
        #expect(isInvalid { try reader.write(try json(404, liveIn404), for: delete) })
        let otherType = Problem(type: .methodNotAllowed, title: "No", status: 404)
        #expect(isInvalid { try reader.write(try json(404, otherType), for: delete) })
    }

    @Test func lookupsMustBeAboutTheWriteAskedFor() throws {
        let update = WriteRequest(articleID: "a", idempotencyKey: "k", action: .put(content, .revision(5)))
        let completed = OperationOutcome(key: "k", state: .completed, method: "PUT", articleID: "a", status: 200, eTag: #""6""#,
                                         article: article("a", 6))
        #expect(try reader.lookup(try json(200, completed), for: update) == .completed(.applied(.live(article("a", 6)), replayed: true)))
        let running = OperationOutcome(key: "k", state: .running, method: "PUT", articleID: "a")
        #expect(try reader.lookup(try json(200, running, headers: ["Retry-After": "2"]), for: update) == .running(retryAfter: .seconds(2)))
        let storedConflict = OperationOutcome(key: "k", state: .completed, method: "PUT", articleID: "a", status: 412,
                                              problem: stale(change("a", cursor: 9, revision: 9)))
        #expect(try reader.lookup(try json(200, storedConflict), for: update) == .completed(.conflict(current: change("a", cursor: 9, revision: 9))))
        let notFound = Problem(type: .notFound, title: "Not found", status: 404)
        #expect(try reader.lookup(try json(404, notFound), for: update) == .neverApplied)

        for wrong in [OperationOutcome(key: "other", state: .running, method: "PUT", articleID: "a"),
                      OperationOutcome(key: "k", state: .running, method: "DELETE", articleID: "a"),
                      OperationOutcome(key: "k", state: .running, method: "PUT", articleID: "b"),
                      OperationOutcome(key: "k", state: .completed, method: "PUT", articleID: "a"),
                      OperationOutcome(key: "k", state: .completed, method: "PUT", articleID: "a", status: 200),
                      OperationOutcome(key: "k", state: .completed, method: "PUT", articleID: "a", status: 200, article: article("a", 4))] {
            #expect(isInvalid { try reader.lookup(try json(200, wrong), for: update) }, "\(wrong)")
        }
        #expect(isInvalid { try reader.lookup(HTTPAnswer(status: 404, headers: [:], body: Data()), for: update) },
                "only the protocol's 404 means never applied")
    }

    @Test func healthMustBeOkWithLimits() throws {
        let ok = HealthStatus(status: "ok", protocolVersion: 1, maximumBodyBytes: 4096, maximumPageSize: 100)
        #expect(try reader.health(try json(200, ok)) == .success(ok))
        #expect(try reader.health(try json(503, HealthStatus(status: "unavailable", protocolVersion: 1, maximumBodyBytes: 1, maximumPageSize: 1),
                                           headers: ["Retry-After": "5"])) == .retry(RetryAdvice(status: 503, retryAfter: .seconds(5))))
        #expect(isInvalid { try reader.health(try json(200, HealthStatus(status: "unavailable", protocolVersion: 1, maximumBodyBytes: 1, maximumPageSize: 1))) })
        #expect(isInvalid { try reader.health(try json(200, HealthStatus(status: "ok", protocolVersion: 1, maximumBodyBytes: 0, maximumPageSize: 1))) })
    }
}
