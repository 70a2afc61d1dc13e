import GtkKit

/// What a view does when reading the store for it failed, so that it follows the store again
/// once the store can be read: it shows what it had, says so once, and reads again after a
/// pause, doubled after each attempt that fails too (1 s, 2 s … up to 30 s), until one succeeds.
///
///     let rereading = ReadAgainAfterFailure { [weak self] in self?.read() }
///     // after a failed read:     if rereading.failed() { show(error) }
///     // after a successful one:  rereading.succeeded()
@MainActor
final class ReadAgainAfterFailure {
    /// The first and the longest pause, in milliseconds.
    static let firstPause: UInt32 = 1000
    static let longestPause: UInt32 = 30_000

    private let read: @MainActor () -> Void
    private var attempt: Timeout?
    private var pause = ReadAgainAfterFailure.firstPause

    /// `read` reads again; it reports its outcome with ``failed()`` or ``succeeded()``.
    init(read: @escaping @MainActor () -> Void) {
        self.read = read
    }

    /// A read failed: the next attempt is scheduled, unless one is already. Returns whether this
    /// is the first failure since the last success, the one to report.
    func failed() -> Bool {
        guard attempt == nil else { return false }
        let isFirst = pause == Self.firstPause
        let wait = pause
        pause = min(pause * 2, Self.longestPause)
        attempt = Timeout(milliseconds: wait) { [weak self] in
            guard let self else { return }
            attempt = nil
            read()
        }
        return isFirst
    }

    /// A read succeeded: no attempt is pending any more, and the next failure is reported.
    func succeeded() {
        attempt = nil
        pause = Self.firstPause
    }
}
