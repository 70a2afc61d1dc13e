import Foundation
import GtkKit
import Library
import Platform

/// The open article's tags and status (``ArticleDetailsBar``): each change the writer makes is
/// one save in the view context with its outbox operation (Library's `…InViewContext`
/// operations), and shows at once.
extension MainWindow {
    func connectArticleDetails() {
        details.tagChips.tagAdded = { [weak self] name in
            self?.editOpenArticle(String(cFormat: gettext("Could not add the tag “%s”"), name)) { library, id in try library.tagArticlesInViewContext([id], with: name) }
        }
        details.tagChips.tagRemoved = { [weak self] name in
            self?.editOpenArticle(String(cFormat: gettext("Could not remove the tag “%s”"), name)) { library, id in try library.untagArticlesInViewContext([id], from: name) }
        }
        details.status.statusChosen = { [weak self] status in
            self?.editOpenArticle(gettext("Could not change the status")) { library, id in try library.setStatusInViewContext(status, for: [id]) }
        }
    }

    private func editOpenArticle(_ heading: String, _ edit: (Library, UUID) throws -> Void) {
        guard let session, readOnlyReason == nil else { return }
        do {
            try edit(library, session.articleID)
        } catch {
            showError(heading, error)
        }
        showArticleDetails()
    }

    /// Shows the open article's tags and status as the view context holds them (hidden without one).
    func showArticleDetails() {
        details.widget.isVisible = session != nil
        guard let session else { return }
        do {
            guard let article = try viewArticle(session.articleID) else { return }
            details.show(
                tags: article.tagNames, status: article.status, known: try library.tagNamesInViewContext(),
                isEditable: readOnlyReason == nil && article.trashed == nil)
        } catch {
            showError(gettext("Could not read the article's tags"), error)
        }
    }
}
