import Dispatch
import Library
import Synchronization

/// One save of the editor's text (``Library/saveEditorText(_:)``) running off the main thread.
/// The autosave awaits ``task``; a step that needs the text in the store before it goes on
/// (switching article, quitting) blocks on ``wait()`` instead, as the save on the main thread
/// did before.
final class EditorSaveRun: Sendable {
    /// What is being saved.
    let text: Library.EditorText
    /// The save; its value is the outcome.
    let task: Task<Result<Library.EditorSaveOutcome, any Error>, Never>
    private let finished: Finished

    /// The outcome, and a signal for whoever blocks on it.
    private final class Finished: Sendable {
        let outcome = Mutex<Result<Library.EditorSaveOutcome, any Error>?>(nil)
        let signal = DispatchSemaphore(value: 0)
    }

    /// Starts saving `text` in `library`.
    init(_ text: Library.EditorText, library: Library) {
        let finished = Finished()
        self.finished = finished
        self.text = text
        // Detached: a task started from the main actor would wait for the main thread, which
        // `wait()` may be blocking.
        task = Task.detached {
            let outcome: Result<Library.EditorSaveOutcome, any Error>
            do {
                outcome = .success(try await library.saveEditorText(text))
            } catch {
                outcome = .failure(error)
            }
            finished.outcome.withLock { $0 = outcome }
            finished.signal.signal()
            return outcome
        }
    }

    /// Blocks the calling thread until the save has returned.
    func wait() {
        finished.signal.wait()
        finished.signal.signal()
    }

    /// The outcome, once the save has returned (``wait()`` or ``task``).
    func outcome() -> Result<Library.EditorSaveOutcome, any Error> {
        wait()
        return finished.outcome.withLock { $0! }
    }
}
