import Foundation
import GtkKit

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
    private var ticks: Timeout?
    private var resets: UnixSignalWatch?

    /// Starts measuring.
    init() {
        ticks = Timeout(milliseconds: 1, priority: .high, repeats: true) { [weak self] in self?.tick() }
        resets = UnixSignalWatch(SIGUSR1, priority: .high) { [weak self] in self?.reset() }
    }

    /// Stops measuring.
    func stop() {
        ticks?.cancel()
        resets?.cancel()
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
