import CGtk
import Glibc

/// Runs `body` on the main loop each time the process receives a Unix signal (`SIGUSR1`,
/// say), through GLib's safe signal source, until the watch is cancelled or released.
///
/// ```swift
/// resetWatch = UnixSignalWatch(SIGUSR1) { [weak self] in self?.reset() }
/// ```
@MainActor
public final class UnixSignalWatch {
    private var source: MainLoopSource?

    /// Watches `signal` (one of `SIGHUP`, `SIGINT`, `SIGTERM`, `SIGUSR1`, `SIGUSR2`, `SIGWINCH`).
    public init(_ signal: Int32, priority: Timeout.Priority = .default, _ body: @escaping @MainActor () -> Void) {
        source = MainLoopSource(body) { box, release in
            g_unix_signal_add_full(
                priority.glibPriority, signal,
                { data in
                    let body = SignalHandlerBox<@MainActor () -> Void>.handler(from: data)
                    MainActor.assumeIsolated { body() }
                    return 1  // G_SOURCE_CONTINUE
                }, box, release)
        }
    }

    /// Stops watching.
    public func cancel() {
        source?.remove()
    }

    isolated deinit {
        cancel()
    }
}
