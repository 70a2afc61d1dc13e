import Foundation
import GtkKit
import Library
import Platform

/// The Trash: moving the open article there (with an Undo toast), restoring it, emptying it.
extension MainWindow {
    func trashSelectedArticle() {
        guard let session, sidebar.selected != .trash else { return }
        moveToTrash(session.articleID, title: session.article.title)
    }

    /// Moves an article to the Trash (the open one is saved and closed first, and the list
    /// selects the next) and leaves a toast whose Undo brings it back.
    func moveToTrash(_ id: UUID, title: String) {
        let wasOpen = session?.articleID == id
        if wasOpen { leaveOpenArticle() }
        run(String(cFormat: gettext("Could not move “%s” to the Trash"), ConflictDialog.displayTitle(title))) { [library] in
            try await library.moveToTrash([id])
            return { [weak self] in self?.offerUndo(trashing: id, title: title, reopening: wasOpen) }
        }
    }

    private func offerUndo(trashing id: UUID, title: String, reopening: Bool) {
        // Only the last move can be undone from a toast; the earlier ones wait in the Trash.
        trashToast?.dismiss()
        let toast = TrashToast(articleID: id, title: title)
        let shown = toast.toast.objectPointer
        toast.toast.connect(.dismissed) { [weak self] in
            // The toast's Undo dismisses it before the action runs: the article to reopen stays known.
            guard let self, trashToast?.toast.objectPointer == shown else { return }
            trashToast = nil
        }
        toast.show(on: toastOverlay)
        trashToast = toast
        reopenedByUndo = reopening ? id : nil
    }

    /// Takes an article out of the Trash again; the one that was open when it was trashed opens.
    func undoTrash(_ id: UUID) {
        trashToast?.dismiss()
        trashToast = nil
        let reopens = reopenedByUndo == id
        run(gettext("Could not take the article out of the Trash")) { [library] in
            try await library.restore([id])
            return { [weak self] in
                guard let self, reopens else { return }
                do {
                    if let article = try viewArticle(id) { articleList.selectWhenListed(article.objectID) }
                } catch {
                    showError(gettext("Could not open the article again"), error)
                }
            }
        }
    }

    /// Puts the article open in the Trash back where it was (its folder, unless the folder was
    /// deleted meanwhile); the list selects the next article in the Trash.
    func restoreSelectedArticle() {
        guard let session, sidebar.selected == .trash else { return }
        let (id, title) = (session.articleID, session.article.title)
        leaveOpenArticle()
        run(String(cFormat: gettext("Could not restore “%s”"), ConflictDialog.displayTitle(title))) { [library] in
            try await library.restore([id])
            return {}
        }
    }

    /// Saves and closes the open article before an operation takes it out of the list, and asks
    /// the list to select the article that takes its place.
    private func leaveOpenArticle() {
        guard let session else { return }
        articleList.selectNeighbour(whenLeaving: session.objectID)
        closeArticle()
    }

    func emptyTrash() {
        closeArticle()
        run(gettext("Could not empty the trash")) { [library] in
            _ = try await library.emptyTrash()
            return {}
        }
    }
}
