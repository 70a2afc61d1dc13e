import Foundation
import SyncClient
import SyncProtocol
import Testing

/// Coalescing of unsent edits, and which entries the worker acts on when.
@Suite struct OutboxTests {
    let now = Date(timeIntervalSince1970: 1_900_000_000)

    func put(_ id: String, _ article: String, _ sequence: Int64, _ body: String, state: OperationState = .pending,
             precondition: WritePrecondition? = nil) -> OutboxEntry {
        OutboxEntry(id: id, articleID: article, sequence: sequence, change: .put(ArticlePayload(title: article, body: body)),
                    precondition: precondition, state: state)
    }

    func delete(_ id: String, _ article: String, _ sequence: Int64, state: OperationState = .pending) -> OutboxEntry {
        OutboxEntry(id: id, articleID: article, sequence: sequence, change: .delete, state: state)
    }

    @Test func consecutiveUnsentEditsOfOneArticleBecomeOneWithTheLastChange() {
        let entries = [put("1", "a", 1, "one"), put("2", "b", 2, "b one"), put("3", "a", 3, "two"), put("4", "a", 4, "three")]
        let result = Outbox.coalesce(entries.shuffled())
        #expect(result.entries == [put("1", "a", 1, "three"), put("2", "b", 2, "b one")])
        #expect(result.rewritten == [put("1", "a", 1, "three")])
        #expect(result.removed == ["3", "4"])
        #expect(result.absorbedInto == ["3": "1", "4": "1"])
    }

    @Test func putThenDeleteIsADeleteAndDeleteThenPutAPut() {
        let deleted = Outbox.coalesce([put("1", "a", 1, "one"), delete("2", "a", 2)])
        #expect(deleted.entries == [OutboxEntry(id: "1", articleID: "a", sequence: 1, change: .delete)])
        let restored = Outbox.coalesce([delete("1", "a", 1), put("2", "a", 2, "again")])
        #expect(restored.entries == [put("1", "a", 1, "again")])
    }

    @Test func sentEntriesNeverMerge() {
        let sent = put("1", "a", 1, "one", state: .sending(attempt: 1), precondition: .revision(3))
        let conflicted = put("4", "b", 4, "b one", state: .conflicted, precondition: .revision(7))
        let entries = [sent, put("2", "a", 2, "two"), put("3", "a", 3, "three"), conflicted, put("5", "b", 5, "b two"),
                       put("6", "b", 6, "b three")]
        let result = Outbox.coalesce(entries)
        #expect(result.entries == [sent, put("2", "a", 2, "three"), conflicted, put("5", "b", 5, "b three")])
        #expect(result.removed == ["3", "6"])
        #expect(Outbox.coalesce([sent, conflicted]).isEmpty)
    }

    @Test func anEntryWithItsOwnBaseStartsANewRun() {
        let resolution = put("2", "a", 2, "merged", precondition: .revision(9))
        let result = Outbox.coalesce([put("1", "a", 1, "one"), resolution, put("3", "a", 3, "after")])
        #expect(result.entries == [put("1", "a", 1, "one"), put("2", "a", 2, "after", precondition: .revision(9))])
    }

    @Test func eachArticleSendsItsFirstOpenEntryAndTerminalFailuresDoNotBlock() {
        let failed = RequestRejection(reason: .tooLarge, status: 413)
        let entries = [
            put("1", "a", 1, "done", state: .acknowledged(revision: 4), precondition: .absent),
            put("2", "a", 2, "too big", state: .terminalFailure(failed), precondition: .revision(4)),
            put("3", "a", 3, "smaller"),
            put("4", "a", 4, "later"),
            put("5", "b", 5, "b", state: .sending(attempt: 1), precondition: .absent),
            put("6", "b", 6, "b later"),
            put("7", "c", 7, "c", state: .conflicted, precondition: .revision(2)),
            put("8", "c", 8, "c later"),
            put("9", "d", 9, "d", state: .waitingRetry(attempt: 2, next: now + 5), precondition: .absent),
            put("10", "e", 10, "e", state: .unknownOutcome(attempt: 1, nextLookup: now - 1), precondition: .absent),
        ]
        #expect(Outbox.heads(entries.reversed()).map(\.id) == ["3", "5", "9", "10"])
        #expect(Outbox.ready(entries, at: now).map(\.id) == ["3", "10"])
        #expect(Outbox.ready(entries, at: now + 5).map(\.id) == ["3", "9", "10"])
        #expect(Outbox.nextWakeUp(entries) == now - 1)
        #expect(Outbox.nextWakeUp([put("1", "a", 1, "x")]) == nil)
    }

    @Test func theRequestFollowsTheChangeAndTheFixedPrecondition() {
        #expect(put("k", "a", 1, "x").request == nil)
        #expect(put("k", "a", 1, "x", precondition: .revision(3)).request
                == WriteRequest(articleID: "a", idempotencyKey: "k", action: .put(ArticlePayload(title: "a", body: "x"), .revision(3))))
        var gone = delete("k", "a", 1)
        gone.precondition = .revision(8)
        #expect(gone.request == WriteRequest(articleID: "a", idempotencyKey: "k", action: .delete(base: 8)))
        gone.precondition = .absent
        #expect(gone.request == nil)
    }
}
