import Foundation
import GtkKit
import Library

/// The window's actions whose state follows what is selected and open.
@MainActor
struct WindowActions {
    /// The open article's star (a toggle).
    let favorite: Action
    /// The list's order: `updated`, `created` or `title`.
    let sort: Action
    let renameFolder: Action
    let emptyTrash: Action
    let restore: Action
    /// Actions on the open article, off without one and in the Trash.
    let article: [Action]
    /// Actions that write to the library, off while it is read-only.
    let writing: [Action]
}

extension MainWindow {
    /// Adds the `win` actions and the list's `list.trash-article` (Delete belongs to the list: in
    /// the editor it deletes text).
    func addActions() -> WindowActions {
        let newArticle = window.addAction("new-article", accelerators: ["<Control>n"]) { [weak self] in self?.newArticle() }
        window.addAction("save", accelerators: ["<Control>s"]) { [weak self] in self?.session?.save() }
        window.addAction("search", accelerators: ["<Control>f"]) { [weak self] in self?.search() }
        window.addAction("sync-now", accelerators: ["<Control>r"]) { [weak self] in self?.sync.syncNow() }
        window.addAction("preferences", accelerators: ["<Control>comma"]) { [weak self] in self?.showPreferences() }
        window.addAction("export", accelerators: ["<Control><Shift>e"]) { [weak self] in self?.showExport() }
        let importArticles = window.addAction("import", accelerators: ["<Control><Shift>i"]) { [weak self] in self?.showImport() }
        let newFolder = window.addAction("new-folder") { [weak self] in self?.askForNewFolder() }
        let renameFolder = window.addAction("rename-folder") { [weak self] in self?.askToRenameFolder() }
        let emptyTrash = window.addAction("empty-trash") { [weak self] in self?.emptyTrash() }
        window.addAction("go-back") { [weak self] in self?.goBack() }
        let trash = window.addAction("trash-article") { [weak self] in self?.trashSelectedArticle() }
        let restore = window.addAction("restore-article") { [weak self] in self?.restoreSelectedArticle() }
        let undoTrash = Action(name: TrashToast.undoAction, parameter: String.self) { [weak self] id in
            guard let id = UUID(uuidString: id) else { return }
            self?.undoTrash(id)
        }
        window.add(undoTrash)
        let favorite = Action(name: "favorite", state: false) { [weak self] isFavorite in self?.setFavorite(isFavorite) }
        window.add(favorite)
        let sort = Action(name: "sort", state: "updated", accepting: { Self.order(named: $0) != nil }) { [weak self] name in
            guard let order = Self.order(named: name) else { return }
            self?.articleList.query.order = order
        }
        window.add(sort)
        let history = window.addAction("history", accelerators: ["<Control><Shift>h"]) { [weak self] in self?.showHistory() }
        let insertImage = window.addAction("insert-image", accelerators: ["<Control><Shift>m"]) { [weak self] in
            self?.editor.attachments.chooseImages()
        }
        let move = Action(name: "move-to-folder", parameter: String.self) { [weak self] name in
            self?.moveSelectedArticle(toFolder: name.isEmpty ? nil : name)
        }
        window.add(move)
        let listActions = ActionGroup(prefix: "list", on: articleList.listView.widget)
        listActions.addAction("trash-article", accelerators: ["Delete"]) { [weak self] in self?.trashSelectedArticle() }
        return WindowActions(
            favorite: favorite, sort: sort, renameFolder: renameFolder, emptyTrash: emptyTrash, restore: restore,
            article: [trash, favorite, move, history, insertImage],
            writing: [newArticle, importArticles, newFolder, renameFolder, emptyTrash, undoTrash] + addSidebarActions())
    }

    /// The sort order an action target names.
    static func order(named name: String) -> ArticleQuery.Order? {
        switch name {
        case "updated": .updated
        case "created": .created
        case "title": .title
        default: nil
        }
    }

    /// Turns actions on and off for what is selected and open, and shows the open article's star.
    func updateActions() {
        let hasArticle = session != nil
        let inTrash = sidebar.selected == .trash
        let writable = readOnlyReason == nil
        for action in actions.article { action.isEnabled = writable && hasArticle && !inTrash }
        for action in actions.writing { action.isEnabled = writable }
        actions.renameFolder.isEnabled = writable && sidebar.selected.folderName != nil
        actions.emptyTrash.isEnabled = writable && inTrash
        actions.restore.isEnabled = writable && hasArticle && inTrash
        trashButton.isVisible = !inTrash && !isNarrow
        restoreButton.isVisible = inTrash && !isNarrow
        if let article = session?.article, actions.favorite.state != article.isFavorite {
            actions.favorite.setState(article.isFavorite)
        }
    }

    /// Ctrl+F: in the editor it finds in the article, elsewhere it searches the library.
    func search() {
        if let focus = window.focusedWidget, focus.isInside(editor.widget) {
            _ = editor.widget.activateAction("editor.find")
            return
        }
        searchBar.isSearchModeEnabled = true
        // In a folded window the search bar is on the list's page: show it, or the keys typed
        // go into a field the writer cannot see.
        if leaflet.isFolded { leaflet.showChild(listPane) }
        searchEntry.grabFocus()
    }
}
