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
/// waiting for between two keystrokes. This thread's nice value is 10 (``niceness``), so the
/// kernel gives the main thread about nine times its share while both want a core, and the
/// passes still run whenever the main thread does not.
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

    /// The thread's nice value (0 is the main thread's; higher runs less).
    let niceness: Int32
    private let jobs = Mutex<[@Sendable () -> Void]>([])
    private let waiting = DispatchSemaphore(value: 0)

    /// Starts a worker thread called `name` with `niceness`; it lives as long as the process.
    init(name: String, niceness: Int32 = 10) {
        self.niceness = niceness
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
        // On Linux a nice value belongs to the thread that sets it (`who` 0 is the caller), not
        // to the whole process: the main thread keeps its own.
        setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
        while true {
            waiting.wait()
            let job = jobs.withLock { $0.removeFirst() }
            job()
        }
    }

    /// The worker thread's nice value as the kernel holds it (tests check it took).
    func currentNiceness() async -> Int32 {
        await run {
            errno = 0
            return getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
        }
    }
}
