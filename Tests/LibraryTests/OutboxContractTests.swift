import Foundation
import ObjectGraph
import SyncClient
import SyncProtocol
import Testing
@testable import Library

/// The outbox rows hold SyncClient's `OutboxEntry` losslessly: every change, precondition and
/// state survives a save and a read in another context.
@Suite struct OutboxContractTests {
    @Test func stateNamesAreSyncClientsKinds() {
        #expect(SyncOperationState.allCases.map(\.rawValue) == OperationState.Kind.allCases.map(\.rawValue))
        for state in SyncOperationState.allCases {
            #expect(state.isFinal == OperationState.Kind(rawValue: state.rawValue).map(Self.isFinal))
        }
    }

    @Test func everyEntryRoundTripsThroughARow() throws {
        let store = try TemporaryLibrary()
        let time = Date(timeIntervalSince1970: 1_800_000_000.25)
        let full = ArticlePayload(title: "T", body: "B\r\n", folder: "F", tags: ["x", "y"], status: .ready, favorite: true)
        let bare = ArticlePayload(title: "", body: "")
        let rejection = RequestRejection(reason: .tooLarge, status: 413, problemType: nil, detail: "too big", field: "body")
        let states: [OperationState] = [
            .pending, .sending(attempt: 2), .waitingRetry(attempt: 3, next: time), .unknownOutcome(attempt: 1, nextLookup: time),
            .lookingUp(attempt: 4), .acknowledged(revision: 9), .acknowledged(revision: nil), .conflicted,
            .terminalFailure(rejection),
        ]
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

        try store.inspect { context in
            for entry in entries { try Self.write(entry, into: SyncOperation(context: context), at: time) }
            try context.save()
        }
        let read = try store.inspect { context in
            try context.fetch(FetchRequest<SyncOperation>(sortDescriptors: [.ascending(\.sequence)])).map(Self.entry)
        }
        #expect(read == entries)
    }

    // MARK: The mapping a sync worker writes

    private static func write(_ entry: OutboxEntry, into row: SyncOperation, at time: Date) throws {
        row.operationID = entry.id
        row.articleID = try #require(UUID(uuidString: entry.articleID))
        row.sequence = entry.sequence
        switch entry.change {
        case .put(let payload):
            row.change = .put
            row.payload = payload
        case .delete:
            row.change = .delete
            row.payload = nil
        }
        switch entry.precondition {
        case nil: row.precondition = nil
        case .absent?: row.precondition = .absent
        case .revision(let revision)?:
            row.precondition = .revision
            row.baseRevision = revision
        }
        row.state = try #require(SyncOperationState(rawValue: entry.state.kind.rawValue))
        row.attempt = entry.state.attempt
        row.nextAttempt = entry.state.scheduledTime
        if case .acknowledged(let revision) = entry.state { row.acknowledgedRevision = revision }
        if case .terminalFailure(let rejection) = entry.state {
            row.failure = String(decoding: try JSONEncoder().encode(rejection), as: UTF8.self)
        }
        row.created = time
    }

    private static func entry(_ row: SyncOperation) throws -> OutboxEntry {
        let change: OutboxChange = row.change == .put ? .put(try #require(row.payload)) : .delete
        let precondition: WritePrecondition?
        switch row.precondition {
        case nil: precondition = nil
        case .absent?: precondition = .absent
        case .revision?: precondition = .revision(try #require(row.baseRevision))
        }
        let state: OperationState
        switch row.state {
        case .pending: state = .pending
        case .sending: state = .sending(attempt: row.attempt)
        case .waitingRetry: state = .waitingRetry(attempt: row.attempt, next: try #require(row.nextAttempt))
        case .unknownOutcome: state = .unknownOutcome(attempt: row.attempt, nextLookup: try #require(row.nextAttempt))
        case .lookingUp: state = .lookingUp(attempt: row.attempt)
        case .acknowledged: state = .acknowledged(revision: row.acknowledgedRevision)
        case .conflicted: state = .conflicted
        case .terminalFailure:
            state = .terminalFailure(try JSONDecoder().decode(RequestRejection.self, from: Data(try #require(row.failure).utf8)))
        }
        return OutboxEntry(
            id: row.operationID, articleID: row.articleID.uuidString, sequence: row.sequence, change: change,
            precondition: precondition, state: state)
    }

    private static func isFinal(_ kind: OperationState.Kind) -> Bool {
        kind == .acknowledged || kind == .conflicted || kind == .terminalFailure
    }
}
