import Foundation
import GtkKit
import Platform

/// Tells the writer what failed, the one way QuireUI does it: an ``ErrorDialog`` over a window
/// with a heading that says what did not happen ("Could not create the folder “Notes”"), the
/// writer's sentence (``ErrorExplanation``) and the technical details behind an expander. The
/// same goes to standard error, for bug reports.
///
/// It also runs a window's background work (library operations off the main thread), so that
/// every failure of it reaches the writer this way, and so that tests and quitting can wait for
/// it:
///
/// ```swift
/// errors.run("Could not empty the Trash") { [library] in
///     _ = try await library.emptyTrash()
///     return { [weak self] in self?.showEmptyTrash() }   // back on the main actor
/// }
/// errors.present("Could not open the article", error)
/// ```
@MainActor
final class ErrorPresenter {
    /// The window the dialogs are modal to.
    weak var parent: Window?
    /// The library file, named in sentences about its store.
    let libraryPath: String
    /// Each error shown so far, as `heading: sentence (details)` (tests read them).
    private(set) var shown: [String] = []
    /// The dialog shown last, while it is open.
    private(set) var dialog: ErrorDialog?
    /// Background work started and not finished yet.
    private var pendingWork: [UUID: Task<Void, Never>] = [:]

    /// A presenter of errors about the library at `libraryPath`, modal over `parent`.
    init(libraryPath: String, over parent: Window?) {
        self.libraryPath = libraryPath
        self.parent = parent
    }

    /// What the writer reads about `error`.
    func explain(_ error: any Error) -> ErrorExplanation {
        ErrorExplanation(error, libraryPath: libraryPath)
    }

    /// Shows `error` under `heading` in a dialog over ``parent``, and on standard error.
    func present(_ heading: String, _ error: any Error) {
        let explanation = explain(error)
        let entry = "\(heading): \(explanation.sentence) (\(explanation.details))"
        shown.append(entry)
        FileHandle.standardError.write(Data("quire: \(entry)\n".utf8))
        do {
            let dialog = try ErrorDialog(heading: heading, explanation: explanation, over: parent)
            dialog.window.addResponse("close", label: gettext("_Close"))
            dialog.window.defaultResponse = "close"
            let shownWindow = dialog.window.objectPointer
            dialog.window.onDestroyed { [weak self] in
                if self?.dialog?.window.objectPointer == shownWindow { self?.dialog = nil }
            }
            self.dialog = dialog
            dialog.window.present()
        } catch {
            // The dialog's file is compiled into the binary; standard error has the message.
            FileHandle.standardError.write(Data("quire: cannot show the error dialog: \(error)\n".utf8))
        }
    }

    /// Runs `body` (a library operation) off the main thread; the closure it returns runs back
    /// on the main actor. A failure is shown under `heading`.
    func run(_ heading: String, _ body: @escaping @Sendable () async throws -> @MainActor () -> Void) {
        let key = UUID()
        // The task runs on the main actor, so it cannot finish before it is registered.
        pendingWork[key] = Task { @MainActor [weak self] in
            do {
                let then = try await body()
                then()
            } catch {
                self?.present(heading, error)
            }
            self?.pendingWork[key] = nil
        }
    }

    /// Counts `work` (started elsewhere) among the background work until it ends.
    func track(_ work: Task<Void, Never>) {
        let key = UUID()
        pendingWork[key] = Task { @MainActor [weak self] in
            await work.value
            self?.pendingWork[key] = nil
        }
    }

    /// Whether background work has not finished yet.
    var hasPendingWork: Bool { !pendingWork.isEmpty }

    /// Waits for the work started so far, and the work it starts.
    func waitForPendingWork() async {
        while let task = pendingWork.values.first {
            await task.value
        }
    }
}
