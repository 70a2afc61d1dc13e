import Foundation
import GtkKit
import Library
import Platform

/// Versions of the open article (Library's history): an editing session ends, and a version of
/// the saved text is recorded, when the writer switches to another article, closes the window or
/// quits, and after a long pause in typing (``editingPauseMilliseconds`` after the last edit).
/// The save that ends a session records the version in the same transaction as the text
/// (``DraftSession/save(endingSession:)``); when nothing was left to save, the version is
/// recorded on its own. Library skips a version whose text the latest one already holds.
extension MainWindow {
    /// How long the writer stops typing before the session ends: five minutes, long enough that
    /// a pause to think does not split a session, short enough that an afternoon leaves several.
    static let defaultEditingPauseMilliseconds: UInt32 = 5 * 60 * 1000

    /// Restarts the wait for a long pause (the writer just edited).
    func writerEdited() {
        editingPause?.cancel()
        editingPause = Timeout(milliseconds: editingPauseMilliseconds) { [weak self] in self?.editingPaused() }
    }

    private func editingPaused() {
        editingPause = nil
        guard let session, session.save(endingSession: true) else { return }
        endEditingSession(of: session.articleID)
    }

    /// Records a version of the article's saved text unless the session's last save did (none
    /// for a read-only library).
    func endEditingSession(of id: UUID) {
        editingPause?.cancel()
        editingPause = nil
        guard readOnlyReason == nil else { return }
        do {
            _ = try library.endEditingSessionInViewContext(of: id)
        } catch {
            showError(gettext("Could not keep a version of the article"), error)
        }
    }
}
