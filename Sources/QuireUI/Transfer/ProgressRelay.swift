import Synchronization

/// Carries progress reports from the thread an export or import runs on to the main actor, keeping
/// only the latest one: an export reports after every article, thousands of times a second, and
/// the dialog needs one update per turn of the main loop, not a queue of them.
final class ProgressRelay<Progress: Sendable>: Sendable {
    private struct Pending {
        var latest: Progress?
        var isScheduled = false
    }

    private let pending = Mutex(Pending())
    private let show: @MainActor @Sendable (Progress) -> Void

    /// A relay that calls `show` on the main actor with the latest report.
    init(show: @escaping @MainActor @Sendable (Progress) -> Void) {
        self.show = show
    }

    /// Records `progress` (from any thread) and, unless an update is already on its way, schedules one.
    func report(_ progress: Progress) {
        let schedules = pending.withLock { pending in
            pending.latest = progress
            defer { pending.isScheduled = true }
            return !pending.isScheduled
        }
        guard schedules else { return }
        Task { @MainActor in
            let latest = self.pending.withLock { pending in
                pending.isScheduled = false
                defer { pending.latest = nil }
                return pending.latest
            }
            if let latest { self.show(latest) }
        }
    }
}
