import Foundation
import GtkKit
import Library
import Platform

/// The open article's History panel (`win.history`, Ctrl+Shift+H) and Restore This Version: one
/// save with its outbox operation through Library (which first records the text it replaces),
/// shown in the editor as a change the writer can undo.
extension MainWindow {
    /// Opens the History panel of the open article, after saving it so that the panel compares
    /// with the text as saved.
    func showHistory() {
        guard let session else { return }
        session.save()
        let id = session.articleID
        do {
            let panel = try HistoryPanel(
                current: (editor.title, editor.body), versions: try library.historyInViewContext(of: id), over: window,
                readVersion: { [library] versionID in try library.versionInViewContext(versionID) },
                report: { [weak self] heading, error in self?.showError(heading, error) })
            panel.restoreChosen = { [weak self] versionID in self?.restoreVersion(versionID, of: id) }
            historyPanel = panel
            panel.present()
        } catch {
            showError(gettext("Could not read the article’s history"), error)
        }
    }

    /// Restores a version of the open article and shows it in the editor (undoable there).
    func restoreVersion(_ versionID: UUID, of id: UUID) {
        guard let session, session.articleID == id, readOnlyReason == nil, session.save() else { return }
        do {
            let restored = try library.restoreVersionInViewContext(versionID)
            try session.adoptStored()
            editor.showRestored(title: restored.title, body: restored.body)
        } catch {
            showError(gettext("Could not restore the version"), error)
        }
    }
}
