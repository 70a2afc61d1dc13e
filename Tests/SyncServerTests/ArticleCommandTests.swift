import Foundation
@testable import SyncServer
import SyncProtocol
import Testing

/// The precondition rules of a write, without storage: what each current version leads to.
@Suite struct ArticleCommandTests {
    let content = ArticlePayload(title: "T", body: "B")
    let date = Date(timeIntervalSince1970: 1_700_000_000)

    func live(_ revision: Int64) -> ArticleChange {
        ArticleChange(cursor: revision, id: "a", revision: revision, deleted: false, changedAt: date,
                      article: Article(id: "a", revision: revision, updatedAt: date, content: content))
    }

    func tombstone(_ revision: Int64) -> ArticleChange {
        ArticleChange(cursor: revision, id: "a", revision: revision, deleted: true, changedAt: date, article: nil)
    }

    /// Runs the command against `current`; answers the status, the problem's current revision
    /// and what was committed.
    func run(_ action: ArticleCommand.Action, current: ArticleChange?) throws -> (Int, Int64?, [ArticlePayload?]) {
        var committed: [ArticlePayload?] = []
        let answer = try ArticleCommand(articleID: "a", action: action).answer(current: current) { content in
            committed.append(content)
            return content.map { _ in live(9) } ?? tombstone(9)
        }
        let problem = try? SyncJSON.decoder().decode(Problem.self, from: Data(answer.body))
        return (answer.status, answer.isSuccess ? nil : problem?.current?.revision, committed)
    }

    @Test func createSucceedsWhenAbsentOrDeleted() throws {
        #expect(try run(.put(content, .absent), current: nil).0 == 201)
        let (status, _, committed) = try run(.put(content, .absent), current: tombstone(4))
        #expect(status == 201 && committed == [content])
    }

    @Test func createOverALiveArticleIsStale() throws {
        let (status, current, committed) = try run(.put(content, .absent), current: live(4))
        #expect(status == 412 && current == 4 && committed.isEmpty)
    }

    @Test func updateNeedsTheCurrentLiveRevision() throws {
        #expect(try run(.put(content, .revision(4)), current: live(4)).0 == 200)
        let stale = try run(.put(content, .revision(3)), current: live(4))
        #expect(stale.0 == 412 && stale.1 == 4 && stale.2.isEmpty)
        let deleted = try run(.put(content, .revision(4)), current: tombstone(4))
        #expect(deleted.0 == 412 && deleted.1 == 4 && deleted.2.isEmpty)
        let absent = try run(.put(content, .revision(4)), current: nil)
        #expect(absent.0 == 412 && absent.1 == nil && absent.2.isEmpty)
    }

    @Test func deleteLeavesATombstoneOnlyFromTheCurrentRevision() throws {
        let (status, _, committed) = try run(.delete(.revision(4)), current: live(4))
        #expect(status == 200 && committed == [nil])
        #expect(try run(.delete(.revision(3)), current: live(4)).0 == 412)
        #expect(try run(.delete(.revision(4)), current: tombstone(4)).0 == 404)
        #expect(try run(.delete(.revision(4)), current: nil).0 == 404)
    }

    @Test func fingerprintsTellRequestsApartButNotJSONSpelling() throws {
        let base = ArticleCommand(articleID: "a", action: .put(content, .revision(3)))
        #expect(try base.fingerprint() == ArticleCommand(articleID: "a", action: .put(ArticlePayload(title: "T", body: "B"), .revision(3))).fingerprint())
        let others = [
            ArticleCommand(articleID: "b", action: .put(content, .revision(3))),
            ArticleCommand(articleID: "a", action: .put(content, .revision(4))),
            ArticleCommand(articleID: "a", action: .put(content, .absent)),
            ArticleCommand(articleID: "a", action: .put(ArticlePayload(title: "T", body: "C"), .revision(3))),
            ArticleCommand(articleID: "a", action: .delete(.revision(3))),
            ArticleCommand(articleID: "a", action: .put(content, .unmatchedTag("\"03\""))),
        ]
        for other in others { #expect(try other.fingerprint() != base.fingerprint()) }
    }
}
