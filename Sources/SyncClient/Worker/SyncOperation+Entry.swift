import Foundation
import Library
import SyncProtocol

/// The outbox rows of the library store as SyncClient's values, field for field (the table in
/// Library's `SyncOperation`; `OutboxContractTests` checks that the rows hold every entry).
extension SyncOperation {
    /// The row as an outbox entry, a put with what it sends (``SyncOperation/contentToSend()``: for
    /// one never sent, its article as stored now). Throws ``SyncStoreError/damagedOperation(_:_:)``
    /// for a row that lost a column its state needs, and the store's error when reading fails.
    func entry() throws -> OutboxEntry {
        let change: OutboxChange
        switch self.change {
        case .put:
            guard let payload = try contentToSend() else {
                throw SyncStoreError.damagedOperation(operationID, "a put whose article is no longer in the library")
            }
            change = .put(payload)
        case .delete:
            change = .delete
        }
        let precondition: WritePrecondition?
        switch self.precondition {
        case nil: precondition = nil
        case .absent?: precondition = .absent
        case .revision?:
            guard let baseRevision else {
                throw SyncStoreError.damagedOperation(operationID, "a revision precondition without its revision")
            }
            precondition = .revision(baseRevision)
        }
        return OutboxEntry(
            id: operationID, articleID: articleID.uuidString, sequence: sequence, change: change,
            precondition: precondition, state: operationState)
    }

    /// The row's place and state, without decoding its content.
    func position() -> OutboxPosition {
        OutboxPosition(id: operationID, articleID: articleID.uuidString, sequence: sequence, state: operationState)
    }

    private var operationState: OperationState {
        switch state {
        case .pending: .pending
        case .sending: .sending(attempt: attempt)
        case .waitingRetry: .waitingRetry(attempt: attempt, next: nextAttempt ?? .distantPast)
        case .unknownOutcome: .unknownOutcome(attempt: attempt, nextLookup: nextAttempt ?? .distantPast)
        case .lookingUp: .lookingUp(attempt: attempt)
        case .acknowledged: .acknowledged(revision: acknowledgedRevision)
        case .conflicted: .conflicted
        case .terminalFailure: .terminalFailure(rejection)
        }
    }

    /// The refusal a terminal failure keeps, as JSON in `failure`.
    var rejection: RequestRejection {
        guard let failure, let rejection = try? JSONDecoder().decode(RequestRejection.self, from: Data(failure.utf8)) else {
            return RequestRejection(reason: .unexpectedStatus, status: nil, detail: failure ?? "no reason was stored")
        }
        return rejection
    }

    /// Writes `entry`'s change, precondition and state into the row (its ID, article and sequence
    /// are the row's already). Only values that differ are set, so an unchanged row stays clean.
    /// A put's content is written once the entry is no longer pending: from its first send on,
    /// every resend under its key carries the same content; until then the article is its content.
    func update(from entry: OutboxEntry) {
        switch entry.change {
        case let .put(payload):
            if change != .put { change = .put }
            let fixed = entry.state == .pending ? nil : payload
            if self.payload != fixed { self.payload = fixed }
        case .delete:
            if change != .delete { change = .delete }
            if payload != nil { payload = nil }
        }
        switch entry.precondition {
        case nil:
            if precondition != nil { precondition = nil }
        case .absent?:
            if precondition != .absent { precondition = .absent }
        case let .revision(revision)?:
            if precondition != .revision { precondition = .revision }
            if baseRevision != revision { baseRevision = revision }
        }
        if state != entry.state.kind { state = entry.state.kind }
        if attempt != entry.state.attempt { attempt = entry.state.attempt }
        if nextAttempt != entry.state.scheduledTime { nextAttempt = entry.state.scheduledTime }
        if case let .acknowledged(revision) = entry.state, acknowledgedRevision != revision { acknowledgedRevision = revision }
        if case let .terminalFailure(rejection) = entry.state {
            let json = (try? JSONEncoder().encode(rejection)).map { String(decoding: $0, as: UTF8.self) }
            if failure != json { failure = json }
        }
    }
}
