import Foundation
import GtkKit
import Library
import ObjectGraph
import Platform

/// The article open in the editor, and what the writer does to one article: create it, star it,
/// file it, drop it on the sidebar.
extension MainWindow {
    /// Opens an article in the editor, saving and closing the one open before.
    func open(_ objectID: ManagedObjectID?) {
        guard session?.objectID != objectID else { return }
        closeArticle()
        guard let objectID else { return }
        let started = ContinuousClock.now
        editor.openStarted = started
        do {
            if let unsaved = unsavedClosedSessions.removeValue(forKey: objectID), unsaved.hasUnsavedChanges {
                unsaved.reopen()
                session = unsaved
            } else {
                session = try DraftSession(
                    objectID: objectID, viewContext: library.viewContext, library: library, recorder: recorder, editor: editor,
                    window: window, report: { [weak self] heading, error in self?.showError(heading, error) })
            }
            if let readOnlyReason { editor.readOnlyReason = readOnlyReason }
            session?.afterEdit = { [weak self] in self?.writerEdited() }
            editor.attachments.store = session.map { session in
                var store = ArticleAttachments(library: library, articleID: session.articleID) { [weak self] heading, error in
                    self?.showError(heading, error)
                }
                store.fetch = { [sync] reference in await sync.fetchAttachment(reference, of: session.articleID) }
                return store
            }
            showArticleDetails()
            editorStack.visibleChildName = "editor"
            // Unfolded too, so that a window made narrow later folds to the open article.
            let focus = window.focusedWidget
            leaflet.showChild(editorStack)
            // With the focus in the list, the leaflet hands the editor the widget last focused in
            // it (the tag entry, say: issue 18). Unfolded, the list stays in sight and keeps the
            // focus; folded, the article is read from its text, where F6 into the editor goes too.
            if let focus, focus.isInside(listPane) {
                if leaflet.isFolded { editor.focusBody() } else if focus.isMapped { _ = focus.grabFocus() }
            }
            feltSpeed?.report("article-shown-ms", since: started, afterNextFrameOf: window)
        } catch {
            showError(gettext("Could not open the article"), error)
        }
        updateActions()
    }

    /// Shows the open article as the store now holds it when `change` brought in other values
    /// for it and the writer has nothing unsaved (``DraftSession/showStoredContent()``).
    func showOpenArticle(ifRefreshedIn change: ObjectsDidChange) {
        guard let session, change.refreshed.contains(where: { $0.objectID == session.objectID }) else { return }
        do {
            try session.showStoredContent()
        } catch {
            showError(String(cFormat: gettext("Could not show the changes to “%s”"), ConflictDialog.displayTitle(session.article.title)), error)
        }
    }

    /// Saves and closes the open article, if any. When its text could not be saved (a conflict,
    /// a failure), the session is kept until it is (``unsavedClosedSessions``).
    func closeArticle() {
        guard let session else { return }
        unsavedClosedSessions = unsavedClosedSessions.filter { $0.value.hasUnsavedChanges }
        if let removingRecoveryCopy = session.close() {
            errors.track(removingRecoveryCopy)
        } else {
            unsavedClosedSessions[session.objectID] = session
        }
        endEditingSession(of: session.articleID)
        self.session = nil
        editor.attachments.store = nil
        showArticleDetails()
        editorStack.visibleChildName = "none"
        updateActions()
    }

    /// Creates an empty article in the place shown (a folder's articles go into the folder),
    /// opens it and puts the cursor in its title. It is saved at once, with its outbox operation,
    /// in the view context, so that what the writer types next goes into its title.
    func newArticle() {
        if sidebar.selected == .trash || sidebar.selected == .favorites { sidebar.select(.all) }
        if articleList.query.isSearching { searchBar.isSearchModeEnabled = false }
        closeArticle()
        do {
            let created = try library.createArticleInViewContext(ArticleContent(
                title: "", body: "", folder: sidebar.selected.folderName, language: preferences.defaultLanguage))
            articleList.select(created)
            editor.focusTitle()
        } catch {
            showError(gettext("Could not create an article"), error)
        }
    }

    func setFavorite(_ isFavorite: Bool) {
        guard let session else { return }
        session.save()
        let id = session.articleID
        run(gettext("Could not change the favorite")) { [library] in
            try await library.setFavorite(isFavorite, for: [id])
            return {}
        }
    }

    func moveSelectedArticle(toFolder name: String?) {
        guard let session else { return }
        move(session.articleID, toFolder: name)
    }

    /// Files an article in a folder (nil: none). When the open article moves out of the folder
    /// shown, the list selects the next.
    private func move(_ id: UUID, toFolder name: String?) {
        if let session, session.articleID == id {
            session.save()
            articleList.selectNeighbour(whenLeaving: session.objectID)
        }
        run(gettext("Could not move the article")) { [library] in
            try await library.moveArticles([id], toFolder: name)
            return {}
        }
    }

    /// What an article dropped on a place of the sidebar does: a folder files it there, All
    /// Articles takes it out of its folder, the Trash trashes it. Returns false, changing
    /// nothing, when it is in the Trash, already there, or the library is read-only.
    func drop(_ id: UUID, on item: SidebarItem) -> Bool {
        guard readOnlyReason == nil else { return false }
        let article: StoredArticle
        do {
            guard let found = try viewArticle(id), found.trashed == nil else { return false }
            article = found
        } catch {
            showError(gettext("Could not read the dropped article"), error)
            return false
        }
        switch item {
        case .trash:
            // The open article's title may be typed but not saved yet.
            let openTitle = session?.articleID == id ? session?.article.title : nil
            moveToTrash(id, title: openTitle ?? article.title)
        case .all, .folder:
            guard article.folder?.name != item.folderName else { return false }
            move(id, toFolder: item.folderName)
        case .favorites, .tag:
            return false
        }
        return true
    }

    /// The article with `id` in the view context, nil when there is none.
    func viewArticle(_ id: UUID) throws -> StoredArticle? {
        try library.viewContext.fetch(FetchRequest<StoredArticle>(predicate: \.id == id, fetchLimit: 1)).first
    }
}
