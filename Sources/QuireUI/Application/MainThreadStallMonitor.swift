import CGtk
import Foundation

/// Measures how long the main thread goes without running its main loop: a high-priority GLib
/// timeout asks to run every millisecond, and the longest gap between two runs (less that
/// millisecond) is the longest stall: a frame GTK could not draw, a keystroke it could not take.
///
/// `QUIRE_REPORT_STALLS=1 quire` runs one; SIGUSR1 starts the measurement again (so a benchmark
/// leaves out the start-up), and on quitting the application prints `max-stall-ms VALUE` on
/// standard output. `quire-bench app-start` reads it.
@MainActor
final class MainThreadStallMonitor {
    /// The longest stall since the last reset, in milliseconds.
    private(set) var longestStall: Double = 0
    private var last = DispatchTime.now().uptimeNanoseconds
    private var sources: [guint] = []

    /// Starts measuring.
    init() {
        let box = Unmanaged.passUnretained(self).toOpaque()
        sources.append(g_timeout_add_full(G_PRIORITY_HIGH, 1, { data in
            MainActor.assumeIsolated { Unmanaged<MainThreadStallMonitor>.fromOpaque(data!).takeUnretainedValue().tick() }
            return 1  // G_SOURCE_CONTINUE
        }, box, nil))
        sources.append(g_unix_signal_add_full(G_PRIORITY_HIGH, SIGUSR1, { data in
            MainActor.assumeIsolated { Unmanaged<MainThreadStallMonitor>.fromOpaque(data!).takeUnretainedValue().reset() }
            return 1
        }, box, nil))
    }

    /// Stops measuring; the sources hold the monitor unretained, so they go first.
    func stop() {
        for source in sources { g_source_remove(source) }
        sources = []
    }

    /// Forgets the stalls so far.
    func reset() {
        longestStall = 0
        last = DispatchTime.now().uptimeNanoseconds
    }

    private func tick() {
        let now = DispatchTime.now().uptimeNanoseconds
        longestStall = max(longestStall, Double(now - last) / 1_000_000 - 1)
        last = now
    }
}
