import Foundation
import GtkKit
import Library

/// Watches an open library's condition and tells the writer when the disk fills up: writing has
/// stopped, nothing typed is lost (the editor keeps it, and ``DraftRecorder`` keeps a copy in the
/// draft-rescue file), and Quire saves again by itself once there is space. The dialog offers
/// "Try Again" (looks at the free space at once) and "Keep Writing" (closes it; the editor goes on
/// holding the text); it closes by itself when the library can be written again.
@MainActor
public final class LibraryConditionAlert {
    private let library: Library
    private weak var parent: Window?
    private var watch: Task<Void, Never>?
    /// The dialog while the disk is full and the writer has not closed it.
    private(set) var dialog: LibraryProblemDialog?

    /// Starts watching `library`; dialogs are modal over `parent`. Watching stops with ``stop()``
    /// or when the alert is released.
    public init(library: Library, over parent: Window?) {
        self.library = library
        self.parent = parent
        let updates = library.conditionUpdates()
        watch = Task { [weak self] in
            for await condition in updates {
                guard let self else { return }
                self.show(condition)
            }
        }
    }

    deinit { watch?.cancel() }

    /// Stops watching and closes the dialog.
    public func stop() {
        watch?.cancel()
        watch = nil
        dialog?.withdraw()
        dialog = nil
    }

    private func show(_ condition: LibraryCondition) {
        guard case .diskFull(let available) = condition else {
            // Writable again (or read-only, which the startup notice explained): nothing to say.
            dialog?.withdraw()
            dialog = nil
            return
        }
        guard dialog == nil else { return }
        let problem = LibraryProblem(.diskFull(available: available), path: library.url.path)
        let shown = built { try LibraryProblemDialog(problem, choices: [.dismiss, .retry], over: parent) }
        dialog = shown
        shown.present()
        Task { [weak self] in
            let choice = await shown.awaitChoice()
            guard let self, self.dialog === shown else { return }
            self.dialog = nil
            // Still full: the dialog comes back with the free space of now.
            if choice == .retry, case .diskFull = self.library.checkSpaceAgain() { self.show(self.library.condition) }
        }
    }
}
