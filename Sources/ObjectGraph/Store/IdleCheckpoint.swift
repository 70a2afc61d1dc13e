import Dispatch

/// A timer that runs a store's checkpoint once no commit has come for `delay`: each commit
/// postpones it (``postpone()``), and it fires once per quiet spell. The store holds it under its
/// lock; the work runs on a private queue and takes the lock itself.
final class IdleCheckpoint {
    private let timer: any DispatchSourceTimer
    private let delay: DispatchTimeInterval

    init(delay: Duration, _ work: @escaping @Sendable () -> Void) {
        let (seconds, attoseconds) = delay.components
        let (nanoseconds, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        self.delay = .nanoseconds(overflow ? Int.max : Int(clamping: nanoseconds + attoseconds / 1_000_000_000))
        timer = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "objectgraph.idle-checkpoint"))
        timer.setEventHandler(handler: work)
        timer.schedule(deadline: .distantFuture)
        timer.resume()
    }

    /// A commit came: the checkpoint waits for `delay` from now.
    func postpone() {
        timer.schedule(deadline: .now() + delay)
    }

    func cancel() {
        timer.cancel()
    }
}
