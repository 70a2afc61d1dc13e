import Foundation
import Library
import ObjectGraph
import SyncProtocol

/// One worker's push and pull against one server, each step a transaction of ``SyncStore``. The
/// ``SyncWorker`` decides when to run them; `quire sync` runs them once.
struct SyncCycle: Sendable {
    let store: SyncStore
    let transport: any SyncTransport
    let configuration: SyncWorkerConfiguration
    /// The server's protocol version, which decides the article fields a write carries.
    let serverProtocol = ServerProtocol()
    /// Pulled articles whose images could not be downloaded yet: tried again after each pull.
    let pendingDownloads = PendingDownloads()
    var reducer: OperationReducer { OperationReducer(policy: configuration.retryPolicy) }

    /// Why a cycle could not go on.
    enum Stop: Error, Sendable, Hashable {
        /// 401: the token is unknown or revoked.
        case accountRejected(String?)
        /// The server refused a read for good (a protocol mismatch).
        case rejected(RequestRejection)
    }

    // MARK: Resuming

    /// A worker that took the lease finds the outbox as the store holds it: whatever was on the wire
    /// then has an unknown outcome, and is looked up before anything else.
    func resumeOpenOperations() async throws {
        let reducer = reducer
        try await store.write("resume the outbox") { context, now in
            let open = FetchRequest<SyncOperation>(predicate: .in(\.state, [SyncOperationState.sending, .lookingUp]))
            var followup = OutboxStep.Followup()
            var random = SystemRandomNumberGenerator()
            for row in try context.fetch(open) {
                let step = reducer.reduce(try row.entry(), .resumed, now: now, random: &random)
                try OutboxStep(context: context, now: now).persist(step, row: row, into: &followup)
            }
        }
    }
}
