import Foundation

/// Blocking work an async test awaits (a child process's end, a read from its pipe), run on a
/// thread of its own: blocking in an async test would hold one of the few threads every test's
/// tasks share (two on a two-core CI machine) for as long as it waits, and a wait for something
/// that itself needs one of those threads may never end.
///
///     let line = try await BlockingWork.run { try output.fileHandleForReading.read(upToCount: 6) }
///     await process.exited()
public enum BlockingWork {
    /// Runs `work` on a new thread and returns what it returned, or throws what it threw.
    public static func run<Value: Sendable, Failure: Error>(
        _ work: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, Failure>, Never>) in
            Thread.detachNewThread {
                continuation.resume(returning: Result { () throws(Failure) -> Value in try work() })
            }
        }
        return try result.get()
    }
}

extension Process {
    /// Waits until the process has ended, on a thread of its own (``BlockingWork``).
    public func exited() async {
        await BlockingWork.run { self.waitUntilExit() }
    }
}
