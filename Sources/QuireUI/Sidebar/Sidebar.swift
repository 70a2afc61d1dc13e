import Foundation
import GtkKit
import Library
import Platform
import SyncProtocol

/// The sidebar: All Articles, Favorites, the library's folders, a Tags section with the library's
/// tags (each place with its article count), the Trash, and under them the status filter, in a
/// `GtkListBox` from the main window's builder file. Exactly one place is selected. A folder's and
/// a tag's row have a menu (rename, delete: `win.rename-folder-named`, `win.delete-folder`,
/// `win.rename-tag`, `win.delete-tag`, each with the name as target), opened by its ⋯ button or a
/// right click on the row.
///
/// An article dragged from the list (``ArticleDrag``) can be dropped on All Articles, a folder
/// or the Trash; the place under it is outlined (`sidebar.css`).
@MainActor
final class Sidebar {
    /// The place selected; setting it selects its row (All Articles when it is not listed).
    private(set) var selected: SidebarItem = .all
    /// Called when the writer (or code) selects another place.
    var selectionChanged: (@MainActor (SidebarItem) -> Void)?
    /// Called when the writer chooses a status in the filter under the places (nil: any).
    var statusChosen: (@MainActor (ArticleStatus?) -> Void)?
    /// The status filter, the sidebar's last row: Any Status, then each status.
    let statusFilter = DropDown(choices: [gettext("Any Status")] + ArticleStatus.allCases.map(\.title))
    /// Called when an article is dropped on a place; returns whether the drop did something.
    var articleDropped: (@MainActor (UUID, SidebarItem) -> Bool)?

    /// The places in order, as listed.
    private(set) var items: [SidebarItem] = []
    /// The folders as last shown, with their counts.
    private(set) var folders: [FolderSummary] = []
    /// The tags as last shown, with their counts.
    private(set) var tags: [TagSummary] = []
    /// The drop targets of the places that take dragged articles, as last listed.
    private(set) var dropTargets: [SidebarItem: DropTarget] = [:]
    /// The place of each row, nil for the Tags heading (which cannot be selected).
    private var rowItems: [SidebarItem?] = []
    private let listBox: ListBox
    private let acceptsArticleDrops: Bool
    private var isRebuilding = false

    /// Attaches to the list box and lists the places without folders and without counts: a
    /// count is shown once it is known (``show(_:selecting:)``), never a 0 that is not yet true.
    /// With `acceptsArticleDrops`
    /// false (a read-only library) no place takes dragged articles, and folders and tags have no
    /// menu.
    init(listBox: ListBox, acceptsArticleDrops: Bool) {
        self.listBox = listBox
        self.acceptsArticleDrops = acceptsArticleDrops
        StyleSheet.addToDisplay(resource: Quire.resourcePath + "sidebar/sidebar.css")
        listBox.connect(.rowSelected) { [weak self] row in self?.rowSelected(row) }
        statusFilter.tooltipText = gettext("Show only the articles of one status")
        statusFilter.setAccessibleLabel(statusFilter.tooltipText ?? "")
        statusFilter.connect(.notify("selected")) { [weak self] _ in
            guard let self else { return }
            statusChosen?(filteredStatus)
        }
        show(nil)
    }

    /// Lists the places with their counts: All Articles and Favorites, `counts.folders`, a Tags
    /// heading with `counts.tags` (when there are any), the Trash; selects `item` or keeps the
    /// selection (a selected folder or tag that is gone selects All Articles). With `counts` nil
    /// (not read yet), the places that are always there, without counts.
    func show(_ counts: SidebarCounts?, selecting item: SidebarItem? = nil) {
        folders = counts?.folders ?? []
        tags = counts?.tags ?? []
        isRebuilding = true
        listBox.removeAll()
        let tagItems: [SidebarItem?] = tags.isEmpty ? [] : [nil] + tags.map { .tag($0.name) }
        rowItems = [.all, .favorites] + folders.map { .folder($0.name) } + tagItems + [.trash]
        items = rowItems.compactMap { $0 }
        dropTargets = [:]
        for item in rowItems {
            let row = ListBoxRow()
            guard let item else {
                row.child = Self.makeHeading(gettext("Tags"))
                row.setProperty("selectable", false)
                row.setProperty("activatable", false)
                listBox.append(row)
                continue
            }
            row.child = makeRowContent(item, count: counts?.count(of: item))
            // The drop target goes on the row, whose :drop(active) state the style sheet outlines.
            listBox.append(row)
            if acceptsArticleDrops && item.takesArticleDrops {
                dropTargets[item] = DropTarget(on: row, accepting: ArticleDrag.contentType) { [weak self] string in
                    guard let self, let id = ArticleDrag.articleID(in: string) else { return false }
                    return articleDropped?(id, item) ?? false
                }
            }
        }
        let filterRow = ListBoxRow()
        filterRow.setProperty("selectable", false)
        filterRow.setProperty("activatable", false)
        filterRow.child = statusFilter
        listBox.append(filterRow)
        isRebuilding = false
        select(item ?? selected)
    }

    /// The status the filter shows (nil: any).
    var filteredStatus: ArticleStatus? {
        let index = statusFilter.selectedIndex - 1
        return ArticleStatus.allCases.indices.contains(index) ? ArticleStatus.allCases[index] : nil
    }

    /// Filters by `status` as the writer's choice would (nil: any).
    func filter(by status: ArticleStatus?) {
        statusFilter.selectedIndex = status.flatMap { ArticleStatus.allCases.firstIndex(of: $0) }.map { $0 + 1 } ?? 0
    }

    /// Selects a place (All Articles when it is not listed).
    func select(_ item: SidebarItem) {
        let item = items.contains(item) ? item : .all
        let index = rowItems.firstIndex(of: item) ?? 0
        if let row = listBox.row(at: index) { listBox.select(row) }
        setSelected(item)
    }

    /// The count a folder's row shows, as the writer reads it.
    func countText(ofFolder name: String) -> String? {
        countText(of: .folder(name))
    }

    /// The row of a place, nil when it is not listed.
    func row(of item: SidebarItem) -> ListBoxRow? {
        rowItems.firstIndex(of: item).flatMap(listBox.row(at:))
    }

    /// The count a place's row shows, as the writer reads it (nil without one).
    func countText(of item: SidebarItem) -> String? {
        row(of: item)?.descendants(ofType: Label.self).dropFirst().first?.text
    }

    /// The menu of a folder's or tag's row (nil for other places).
    func menu(of item: SidebarItem) -> MenuButton? {
        row(of: item)?.descendants(ofType: MenuButton.self).first
    }

    private func rowSelected(_ row: ListBoxRow?) {
        guard !isRebuilding, let row else { return }
        let index = row.index
        guard rowItems.indices.contains(index), let item = rowItems[index] else { return }
        setSelected(item)
    }

    private func setSelected(_ item: SidebarItem) {
        guard item != selected else { return }
        selected = item
        selectionChanged?(item)
    }

    private func makeRowContent(_ item: SidebarItem, count: Int?) -> Widget {
        let box = Box(.horizontal, spacing: 12)
        box.marginStart = 6
        box.marginEnd = 6
        let label = Label(item.title)
        label.horizontalAlignment = 0
        label.ellipsizesAtEnd = true
        label.expandsHorizontally = true
        box.append(Image(iconName: item.iconName))
        box.append(label)
        if let count {
            let countLabel = Label(NumberFormatter.localizedString(from: NSNumber(value: count), number: .decimal))
            countLabel.setStyleClass("dim-label", on: true)
            box.append(countLabel)
        }
        if acceptsArticleDrops, let menu = Self.menu(for: item) {
            let button = MenuButton()
            button.setProperty("icon-name", "view-more-symbolic")
            button.setStyleClass("flat", on: true)
            button.tooltipText = String(cFormat: gettext("%s Menu"), item.title)
            button.setAccessibleLabel(button.tooltipText ?? "")
            button.menuModel = menu
            box.append(button)
            // A right click on the row opens the same menu. (The gesture goes with the row, so
            // holding the button's wrapper here keeps nothing alive past the row.)
            box.onSecondaryClick(atPoint: { _, _ in button.popup() })
        }
        return box
    }

    /// A folder's menu (Rename, Delete) or a tag's (Rename, Delete); the actions take the name.
    private static func menu(for item: SidebarItem) -> Menu? {
        let menu = Menu()
        switch item {
        case .folder(let name):
            menu.append(gettext("_Rename Folder…"), action: "win.rename-folder-named", target: name)
            menu.append(gettext("_Delete Folder"), action: "win.delete-folder", target: name)
        case .tag(let name):
            menu.append(gettext("_Rename Tag…"), action: "win.rename-tag", target: name)
            menu.append(gettext("_Delete Tag"), action: "win.delete-tag", target: name)
        case .all, .favorites, .trash:
            return nil
        }
        return menu
    }

    private static func makeHeading(_ title: String) -> Widget {
        let label = Label(title)
        label.horizontalAlignment = 0
        label.marginStart = 6
        label.setStyleClass("heading", on: true)
        label.setStyleClass("dim-label", on: true)
        label.setProperty("margin-top", Int32(12))
        return label
    }
}
