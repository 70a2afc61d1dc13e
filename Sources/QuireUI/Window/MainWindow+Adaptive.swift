import GtkKit
import Platform

/// The window from 360 pixels wide up. Below ``narrowWidth`` the header bar keeps only what a
/// narrow window needs (back, new, search, the sync status's icon, one menu): the article's own
/// actions (favorite, move to a folder, trash or restore) and the list's order move into the
/// main menu, above its own items. The leaflet folds to one pane with its back button, and the editor shows its preview
/// instead of the text rather than beside it, its status line keeping only the word count
/// (``EditorPane``).
extension MainWindow {
    /// Under this width the header bar folds its article buttons into a menu. It is wider than
    /// the header bar with every button needs (about 640 pixels), so a window can always be
    /// made narrow enough to fold.
    static let narrowWidth = 720

    /// Whether the header bar shows the narrow window's Article menu.
    var isNarrow: Bool { articleMenuButton.isVisible }

    func windowWidthChanged(_ width: Int) {
        let narrow = width < Self.narrowWidth
        guard narrow != isNarrow else { return }
        articleMenuButton.isVisible = narrow
        primaryMenuButton.isVisible = !narrow
        for button in [sortButton, favoriteButton, moveButton] { button.isVisible = !narrow }
        // The sync status keeps its icon (its popover says the rest); the editor its word count.
        syncStatus.label.isVisible = !narrow
        editor.foldStatus(narrow)
        updateActions()
    }

    /// The narrow window's menu: the article's actions, with `moveMenu` (the folders) as a
    /// submenu, the list's order, then the main menu.
    func showArticleMenu(moving moveMenu: Menu) {
        let menu = Menu()
        let article = Menu()
        article.append(gettext("Favorite"), action: "win.favorite")
        article.appendSubmenu(gettext("Move to Folder"), moveMenu)
        article.append(gettext("Move to Trash"), action: "win.trash-article")
        article.append(gettext("Restore from Trash"), action: "win.restore-article")
        menu.appendSection(article)
        articleList.rowMenu = article
        let order = Menu()
        order.append(gettext("Last Changed"), action: "win.sort", target: "updated")
        order.append(gettext("Created"), action: "win.sort", target: "created")
        order.append(gettext("Title"), action: "win.sort", target: "title")
        menu.appendSection(order, label: gettext("Sort By"))
        menu.appendSection(primaryMenu)
        articleMenuButton.menuModel = menu
    }
}
