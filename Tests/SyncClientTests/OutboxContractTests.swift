import Foundation
import Library
import ObjectGraph
import SyncProtocol
import Testing
@testable import SyncClient

/// The library's outbox rows hold SyncClient's `OutboxEntry` losslessly: every change,
/// precondition and state the worker writes into a row (`update(from:)`) survives a save and is
/// read back the same (`entry()`) in another context. A pending put keeps no copy of its content:
/// it reads back as its article's content.
@Suite struct OutboxContractTests {
    @Test func everyEntryRoundTripsThroughARow() async throws {
        let client = try ClientLibrary("outbox-contract")
        let time = Date(timeIntervalSince1970: 1_800_000_000.25)
        let full = ArticlePayload(title: "T", body: "B\r\n", folder: "F", tags: ["x", "y"], status: .ready, favorite: true)
        let bare = ArticlePayload(title: "", body: "")
        let rejection = RequestRejection(reason: .tooLarge, status: 413, problemType: nil, detail: "too big", field: "body")
        let states: [OperationState] = [
            .pending, .sending(attempt: 2), .waitingRetry(attempt: 3, next: time), .unknownOutcome(attempt: 1, nextLookup: time),
            .lookingUp(attempt: 4), .acknowledged(revision: 9), .acknowledged(revision: nil), .conflicted,
            .terminalFailure(rejection),
        ]
        #expect(Set(states.map(\.kind)) == Set(SyncOperationState.allCases), "every state the column holds is written")
        let changes: [OutboxChange] = [.put(full), .put(bare), .delete]
        let preconditions: [WritePrecondition?] = [nil, .absent, .revision(5)]
        var entries: [OutboxEntry] = []
        for (index, state) in states.enumerated() {
            for (offset, change) in changes.enumerated() {
                let sequence = Int64(index * 10 + offset)
                entries.append(OutboxEntry(
                    id: UUID().uuidString, articleID: UUID().uuidString, sequence: sequence, change: change,
                    precondition: preconditions[(index + offset) % 3], state: state))
            }
        }

        let written = entries
        let expected = try await client.library.container.performBackgroundTask { context in
            var expected: [OutboxEntry] = []
            for var entry in written {
                if case let .put(payload) = entry.change, entry.state == .pending {
                    // Its article holds the content it sends, as the library stores it.
                    let article = StoredArticle(context: context)
                    article.id = try #require(UUID(uuidString: entry.articleID))
                    article.created = time
                    article.updated = time
                    try article.setContent(ArticleContent(payload), at: time)
                    article.refreshDerivedFields()
                    entry.change = .put(article.payload)
                }
                expected.append(entry)
                // What the library writes for a new operation; the worker's mapping writes the rest.
                let row = SyncOperation(context: context)
                row.operationID = entry.id
                row.articleID = try #require(UUID(uuidString: entry.articleID))
                row.sequence = entry.sequence
                row.created = time
                row.change = .delete
                row.state = .pending
                row.update(from: entry)
            }
            _ = try context.save()
            return expected
        }
        let (read, copies) = try await client.library.container.performBackgroundTask { context in
            let rows = try context.fetch(FetchRequest<SyncOperation>(sortDescriptors: [.ascending(\.sequence)]))
            return (try rows.map { try $0.entry() }, rows.filter { $0.state == .pending && $0.payload != nil }.count)
        }
        #expect(read == expected)
        #expect(copies == 0, "no pending put holds a copy of its content")
    }
}
