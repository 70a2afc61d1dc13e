import Foundation
import Synchronization

/// The worker's status as a value the main actor can follow: read ``current``, or iterate
/// ``updates()`` (each stream starts with the current status and then gets every change; a slow
/// reader gets the newest).
///
///     Task { @MainActor in
///         for await status in worker.status.updates() { headerBar.show(status.headline) }
///     }
public final class SyncStatusFeed: Sendable {
    private let state: Mutex<State>

    private struct State {
        var status: SyncStatus
        var continuations: [UUID: AsyncStream<SyncStatus>.Continuation] = [:]
    }

    init(_ status: SyncStatus = SyncStatus()) {
        state = Mutex(State(status: status))
    }

    /// The status now.
    public var current: SyncStatus { state.withLock { $0.status } }

    /// The current status, then every change of it, until the stream's reader stops.
    public func updates() -> AsyncStream<SyncStatus> {
        let (stream, continuation) = AsyncStream.makeStream(of: SyncStatus.self, bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        state.withLock { state in
            continuation.yield(state.status)
            state.continuations[id] = continuation
        }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { _ = $0.continuations.removeValue(forKey: id) }
        }
        return stream
    }

    /// Changes the status and tells the readers when it differs.
    func update(_ change: (inout SyncStatus) -> Void) {
        state.withLock { state in
            var status = state.status
            change(&status)
            guard status != state.status else { return }
            state.status = status
            for continuation in state.continuations.values { continuation.yield(status) }
        }
    }
}
