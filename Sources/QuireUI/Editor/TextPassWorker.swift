import Foundation
import Synchronization

/// A thread that runs one kind of the editor's passes over the writer's text (the word count,
/// the spell check of edited paragraphs, the preview's rendering), one at a time, at a lower
/// scheduling priority than the main thread. Each kind has its own (``wordCount``, ``spelling``,
/// ``preview``): the first spell check of a book takes a second, which a word count or the
/// preview should not wait for.
///
/// Swift's task priorities do not reach the Linux scheduler: a pass in a detached task runs at
/// the main thread's priority, and on a busy machine each one takes the core the main thread is
/// waiting for between two keystrokes. This thread's nice value is the main thread's plus 10
/// (``nicenessAboveMainThread``), so the kernel gives the main thread about nine times its share
/// while both want a core, and the passes still run whenever the main thread does not. Nice
/// values end at 19: under `nice -n 19` both run at 19, as near as the kernel allows.
///
/// ```swift
/// let words = await TextPassWorker.wordCount.run { ArticleText.wordCount(of: text) }
/// ```
final class TextPassWorker: Sendable {
    /// The editors' word counts.
    static let wordCount = TextPassWorker(name: "quire-word-count")
    /// The editors' spell checks.
    static let spelling = TextPassWorker(name: "quire-spelling")
    /// The previews' renderings.
    static let preview = TextPassWorker(name: "quire-preview")

    /// How much higher the thread's nice value is than the main thread's (higher runs less).
    let nicenessAboveMainThread: Int32
    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let waiting = DispatchSemaphore(value: 0)

    /// Starts a worker thread called `name`, `nicenessAboveMainThread` nicer than the main thread;
    /// it lives as long as the process.
    init(name: String, nicenessAboveMainThread: Int32 = 10) {
        self.nicenessAboveMainThread = nicenessAboveMainThread
        let thread = Thread { [self] in work() }
        thread.name = name
        thread.start()
    }

    /// Runs `pass` on the worker after the passes handed over before it, and returns its result.
    func run<Result: Sendable>(_ pass: @escaping @Sendable () -> Result) async -> Result {
        await withCheckedContinuation { continuation in
            jobs.withLock { $0.append { continuation.resume(returning: pass()) } }
            waiting.signal()
        }
    }

    private func work() {
        // Relative to the main thread's, not a fixed value: under `nice -n 15` a fixed 10 would
        // either be refused (an ordinary user may not lower a nice value) or, for root, run the
        // passes ahead of the main thread.
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, Self.niceness(over: Self.mainThreadNiceness, by: nicenessAboveMainThread))
        while true {
            waiting.wait()
            let job = jobs.withLock { $0.removeFirst() }
            job()
        }
    }

    /// The worker thread's nice value as the kernel holds it (tests check it took).
    func currentNiceness() async -> Int32 {
        await run { Self.niceness(ofThread: 0) }
    }

    /// The main thread's nice value. On Linux a nice value belongs to a thread (`who` is a thread
    /// ID, 0 the caller), not to the whole process, and the main thread's ID is the process ID.
    static var mainThreadNiceness: Int32 { niceness(ofThread: id_t(getpid())) }

    /// `base` raised by `step`, within the kernel's range (up to 19).
    static func niceness(over base: Int32, by step: Int32) -> Int32 { min(19, base + step) }

    private static func niceness(ofThread thread: id_t) -> Int32 {
        errno = 0
        return getpriority(__priority_which_t(PRIO_PROCESS.rawValue), thread)
    }
}
