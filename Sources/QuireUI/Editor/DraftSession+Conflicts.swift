import Foundation
import GtkKit
import Library
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
                editor.saveState = .unsaved
            }
            // Saving over the text stored now makes the next save go through; an article deleted
            // meanwhile keeps the text as a new article.
            guard let stored else {
                keepAsNewArticle(article.content)
                return
            }
            base = (stored.title, stored.body)
            save()
        case .resolve(.keepTheirs), .resolve(.acceptDelete):
            takeTheirs()
        case .resolve(.keepBoth):
            keepAsNewArticle(article.content.withTitle(ConflictResolution.conflictedCopyTitle(of: article.title)))
            takeTheirs()
        }
    }

    /// Drops the writer's edits and shows the article as it is now.
    private func takeTheirs() {
        draft.rollback()
        _ = try? readStored()
        try? draft.refresh(article, mergeChanges: false)
        base = (article.title, article.body)
        show(title: article.title, body: article.body)
        bodyEdited = false
        removeRecoveryCopy()
    }

    private func keepAsNewArticle(_ content: ArticleContent) {
        let (library, report) = (library, report)
        Task {
            do {
                try await library.createArticle(content)
            } catch {
                report(gettext("Could not keep your version as a new article"), error)
            }
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
