import Foundation
import GtkKit

/// Measures how long the main thread goes without running its main loop: a high-priority GLib
/// timeout asks to run every millisecond, and the longest gap between two runs (less that
/// millisecond) is the longest stall: a frame GTK could not draw, a keystroke it could not take.
///
/// Beside it, the longest main-thread CPU burst: the thread's own CPU time between the same two
/// runs. On a loaded machine a stall is mostly the main thread waiting for a core, which the app
/// cannot change; the CPU burst is the work the app itself put between two frames, whatever
/// the load.
///
/// `QUIRE_REPORT_STALLS=1 quire` runs one; SIGUSR1 starts the measurement again (so a benchmark
/// leaves out the start-up); the quit action (Ctrl+Q) stops it, so the saves made on the way
/// out are left out too, and on quitting the application prints `max-stall-ms VALUE` and
/// `max-main-cpu-ms VALUE` on standard output. `quire-bench app-start` reads them.
///
/// To find what a burst is, `QUIRE_BURSTS_FILE=PATH` (an existing file) appends a line for every
/// burst of ``loggedBurst`` or more as it happens, with its CLOCK_MONOTONIC start and end in
/// seconds (and one for every reset), to line up with `perf record -k CLOCK_MONOTONIC` samples
/// of the main thread.
@MainActor
final class MainThreadStallMonitor {
    /// The longest stall since the last reset, in milliseconds.
    private(set) var longestStall: Double = 0
    /// The most CPU time the main thread used between two runs since the last reset, in milliseconds.
    private(set) var longestCPUBurst: Double = 0
    private var last = DispatchTime.now().uptimeNanoseconds
    private var lastCPU = MainThreadStallMonitor.threadCPUTime()
    private var ticks: Timeout?
    private var resets: UnixSignalWatch?
    /// The shortest CPU burst (ms) that `QUIRE_BURSTS_FILE` logs: half a frame.
    static let loggedBurst = 8.0
    private let burstLog = ProcessInfo.processInfo.environment["QUIRE_BURSTS_FILE"].flatMap { FileHandle(forWritingAtPath: $0) }

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
        longestCPUBurst = 0
        last = DispatchTime.now().uptimeNanoseconds
        lastCPU = Self.threadCPUTime()
        log("reset \(Self.monotonicSeconds())")
    }

    private func tick() {
        let now = DispatchTime.now().uptimeNanoseconds
        let previous = last
        longestStall = max(longestStall, Double(now - last) / 1_000_000 - 1)
        last = now
        let cpu = Self.threadCPUTime()
        let burst = Double(cpu - lastCPU) / 1_000_000
        longestCPUBurst = max(longestCPUBurst, burst)
        if burst >= Self.loggedBurst {
            let end = Self.monotonicSeconds()
            log("main-cpu-burst \(burst) ms, monotonic \(end - Double(now - previous) / 1e9) to \(end)")
        }
        lastCPU = cpu
    }

    /// Appends `line`, after the process ID, to the `QUIRE_BURSTS_FILE`, if there is one.
    private func log(_ line: String) {
        guard let burstLog else { return }
        burstLog.seekToEndOfFile()
        burstLog.write(Data("\(getpid()) \(line)\n".utf8))
    }

    private static func monotonicSeconds() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// The calling thread's CPU time so far, in nanoseconds.
    private static func threadCPUTime() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
}
