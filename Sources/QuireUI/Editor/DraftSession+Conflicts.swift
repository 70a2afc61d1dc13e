import Foundation
import GtkKit
import Library
import ObjectGraph
import Platform

/// A save that met a change made elsewhere: the writer decides in the ``ConflictDialog`` between
/// their text and the article as stored now.
extension DraftSession {
    /// Shows the conflict dialog: the writer's text against `theirs`, the article as stored now
    /// (nil: deleted), over the text the writer started from.
    func askAboutConflict(theirs stored: ArticleSnapshot?) {
        let current = article.content
        var base = current
        (base.title, base.body) = self.base
        var theirs = current
        let dialogConflict: ConflictDialog.Conflict
        if let stored {
            (theirs.title, theirs.body) = (stored.title, stored.body)
            dialogConflict = .edited(
                base: base, mine: .init(content: current, device: gettext("This device"), time: Date()),
                theirs: .init(content: theirs, device: gettext("Elsewhere"), time: stored.updated))
        } else {
            dialogConflict = .deleted(mine: .init(content: current, device: gettext("This device"), time: Date()), device: gettext("another window"), time: Date())
        }
        do {
            let dialog = try ConflictDialog(conflict: dialogConflict, over: window)
            conflictDialog = dialog
            dialog.decided = { [weak self] decision in self?.apply(decision, theirs: stored) }
            dialog.present()
        } catch {
            report(gettext("Could not show the conflict"), error)
        }
    }

    private func apply(_ decision: ConflictDialog.Decision, theirs stored: ArticleSnapshot?) {
        conflictDialog = nil
        switch decision {
        case .decideLater:
            // The text stays in the draft (and in draft recovery); the next save asks again.
            return
        case .resolve(.keepMine), .resolve(.restoreMine), .resolve(.merged):
            if case .resolve(.merged(let merged)) = decision {
                article.title = merged.title
                article.body = merged.body
                show(title: merged.title, body: merged.body)
                bodyEdited = false
                shownEditor?.saveState = .unsaved
            }
            // Saving over the text stored now makes the next save go through; an article deleted
            // meanwhile keeps the text as a new article, and then lets the draft go.
            guard let stored else {
                if keepAsNewArticle(article.content) { takeTheirs(deleted: true) }
                return
            }
            base = (stored.title, stored.body)
            // A closed session's text is saved as its closing would have: ending the editing
            // session, and its recovery copy removed once saved.
            if save(endingSession: isClosed), isClosed { removeRecoveryCopy() }
        case .resolve(.keepTheirs), .resolve(.acceptDelete):
            takeTheirs(deleted: stored == nil)
        case .resolve(.keepBoth):
            guard keepAsNewArticle(article.content.withTitle(ConflictResolution.conflictedCopyTitle(of: article.title))) else { return }
            takeTheirs(deleted: stored == nil)
        }
    }

    /// Drops the writer's edits and shows the article as the store holds it now. It is read
    /// first: when that fails, the edits stay (in the editor and in draft recovery, the next save
    /// asks again) and the writer is told, instead of the editor taking its old text for theirs.
    /// An article `deleted` meanwhile, as the dialog said, is not there to read and shows empty.
    private func takeTheirs(deleted: Bool) {
        let theirs: (title: String, body: String)
        do {
            theirs = try readTheirs(deleted: deleted)
            draft.rollback()
            // Forgets the draft's copy of the row (reads nothing): it takes the one just read.
            try draft.refresh(article, mergeChanges: false)
        } catch {
            report(gettext("Could not read the article as it is now: your version is still in the editor"), error)
            return
        }
        base = theirs
        show(title: theirs.title, body: theirs.body)
        bodyEdited = false
        removeRecoveryCopy()
    }

    /// The title and body the store holds now; empty for an article `deleted` as the dialog said.
    private func readTheirs(deleted: Bool) throws -> (title: String, body: String) {
        do {
            let stored = try readStored()
            return (stored.title, stored.body)
        } catch ObjectGraphError.objectNotFound where deleted {
            return ("", "")
        }
    }

    /// Keeps `content`, the writer's version, as a new article, committed before it returns (in
    /// the view context, on the main thread, so that no key the writer presses meanwhile is lost
    /// when the draft lets the version go next). Returns whether it is kept; if not, the writer
    /// is told that it is still in the editor.
    private func keepAsNewArticle(_ content: ArticleContent) -> Bool {
        do {
            _ = try library.createArticleInViewContext(content)
            return true
        } catch {
            report(gettext("Could not keep your version as a new article: it is still in the editor"), error)
            return false
        }
    }
}

extension ArticleContent {
    /// The same content under another title.
    func withTitle(_ title: String) -> ArticleContent {
        var content = self
        content.title = title
        return content
    }
}
