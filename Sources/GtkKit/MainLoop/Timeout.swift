import CGtk

/// A one-shot GLib timeout on the main context: calls `body` once after an interval, unless it
/// is cancelled first. Releasing the timeout cancels it, so keep it as long as it should fire.
///
/// ```swift
/// autosave = Timeout(milliseconds: 800) { [weak self] in self?.save() }
/// ```
@MainActor
public final class Timeout {
    private var sourceID: guint = 0
    /// Whether `body` has run.
    public private(set) var hasFired = false

    /// Schedules `body` to run once after `milliseconds` on the main loop.
    public init(milliseconds: UInt32, _ body: @escaping @MainActor () -> Void) {
        let fire: @MainActor () -> Void = { [weak self] in
            self?.hasFired = true
            self?.sourceID = 0
            body()
        }
        let box = Unmanaged.passRetained(SignalHandlerBox(fire)).toOpaque()
        sourceID = g_timeout_add_full(
            G_PRIORITY_DEFAULT, milliseconds,
            { data in
                let fire = SignalHandlerBox<@MainActor () -> Void>.handler(from: data)
                MainActor.assumeIsolated { fire() }
                return 0  // G_SOURCE_REMOVE
            }, box, { data in Unmanaged<AnyObject>.fromOpaque(data!).release() })
    }

    /// Whether the timeout is still waiting to fire.
    public var isPending: Bool { sourceID != 0 }

    /// Stops the timeout if it has not fired yet.
    public func cancel() {
        guard sourceID != 0 else { return }
        g_source_remove(sourceID)
        sourceID = 0
    }

    isolated deinit {
        cancel()
    }
}
