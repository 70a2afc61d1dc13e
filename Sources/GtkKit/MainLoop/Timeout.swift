import CGtk

/// A GLib timeout on the main context: calls `body` once after an interval, or after every
/// interval when it `repeats`, until it is cancelled. Releasing the timeout cancels it, so keep
/// it as long as it should fire.
///
/// ```swift
/// autosave = Timeout(milliseconds: 800) { [weak self] in self?.save() }
/// ticker = Timeout(milliseconds: 1, priority: .high, repeats: true) { [weak self] in self?.tick() }
/// ```
@MainActor
public final class Timeout {
    /// Where the timeout stands among the main loop's other work.
    public enum Priority: Sendable {
        /// Before drawing and input (`G_PRIORITY_HIGH`): for measuring the loop itself.
        case high
        /// With ordinary work (`G_PRIORITY_DEFAULT`).
        case `default`
        /// Once the loop has nothing else to do, drawing and ordinary work included
        /// (`G_PRIORITY_DEFAULT_IDLE`): for costly work that can wait, such as loading ahead what
        /// the writer will soon need.
        case idle

        var glibPriority: Int32 {
            switch self {
            case .high: G_PRIORITY_HIGH
            case .default: G_PRIORITY_DEFAULT
            case .idle: G_PRIORITY_DEFAULT_IDLE
            }
        }
    }

    private var source: MainLoopSource?
    /// Whether `body` has run (at least once, for a repeating timeout).
    public private(set) var hasFired = false

    /// Schedules `body` to run after `milliseconds` on the main loop: once, or again after every
    /// interval when `repeats`.
    public init(
        milliseconds: UInt32, priority: Priority = .default, repeats: Bool = false, _ body: @escaping @MainActor () -> Void
    ) {
        let fire: @MainActor () -> Bool = { [weak self] in
            self?.hasFired = true
            if !repeats { self?.source?.forget() }
            body()
            return repeats
        }
        source = MainLoopSource(fire) { box, release in
            g_timeout_add_full(
                priority.glibPriority, milliseconds,
                { data in
                    let fire = SignalHandlerBox<@MainActor () -> Bool>.handler(from: data)
                    return MainActor.assumeIsolated { fire() } ? 1 : 0  // G_SOURCE_CONTINUE : G_SOURCE_REMOVE
                }, box, release)
        }
    }

    /// Whether the timeout is still waiting to fire (a repeating one until it is cancelled).
    public var isPending: Bool { source?.isAttached == true }

    /// Stops the timeout if it has not fired yet, or a repeating one from now on.
    public func cancel() {
        source?.remove()
    }

    isolated deinit {
        cancel()
    }
}
