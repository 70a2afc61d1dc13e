import Foundation
import Synchronization

/// Why the worker woke up.
enum WakeReason: Sendable, Hashable {
    /// A local save added or changed outbox operations.
    case localSave
    /// The writer asked to sync now.
    case syncNow
    /// The system says the network may have changed: check the server now.
    case networkChanged
    /// The time the worker set came.
    case timer
    /// The worker is stopping.
    case stop
}

/// Where the worker sleeps between cycles: until a deadline or until someone signals a reason.
/// Signals that come while the worker is busy are kept for its next wait.
final class WakeSignal: Sendable {
    private let state = Mutex(State())

    private struct State {
        var reasons: Set<WakeReason> = []
        var waiter: CheckedContinuation<Set<WakeReason>, Never>?
        var timer: Task<Void, Never>?
    }

    /// Wakes the worker (or makes its next wait return at once).
    func signal(_ reason: WakeReason) {
        let wakeUp = state.withLock { state -> (CheckedContinuation<Set<WakeReason>, Never>, Set<WakeReason>)? in
            state.reasons.insert(reason)
            guard let waiter = state.waiter else { return nil }
            state.waiter = nil
            state.timer?.cancel()
            state.timer = nil
            let reasons = state.reasons
            state.reasons = []
            return (waiter, reasons)
        }
        if let (waiter, reasons) = wakeUp { waiter.resume(returning: reasons) }
    }

    /// Waits until `deadline` (nil: until a signal) or a signal; answers the reasons.
    func wait(until deadline: Date?) async -> Set<WakeReason> {
        await withCheckedContinuation { continuation in
            state.withLock { state in
                if !state.reasons.isEmpty {
                    let reasons = state.reasons
                    state.reasons = []
                    continuation.resume(returning: reasons)
                    return
                }
                state.waiter = continuation
                guard let deadline else { return }
                let delay = max(0, deadline.timeIntervalSinceNow)
                state.timer = Task { [weak self] in
                    try? await Task.sleep(for: .milliseconds(Int((delay * 1000).rounded(.up))))
                    guard !Task.isCancelled else { return }
                    self?.signal(.timer)
                }
            }
        }
    }
}
