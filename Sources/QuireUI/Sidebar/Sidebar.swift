import Foundation
import GtkKit
import Library

/// The sidebar: All Articles, Favorites, the library's folders with their article counts, and
/// the Trash, in a `GtkListBox` from the main window's builder file. Exactly one place is selected.
///
/// An article dragged from the list (``ArticleDrag``) can be dropped on All Articles, a folder
/// or the Trash; the place under it is outlined (`sidebar.css`).
@MainActor
final class Sidebar {
    /// The place selected; setting it selects its row (All Articles when it is not listed).
    private(set) var selected: SidebarItem = .all
    /// Called when the writer (or code) selects another place.
    var selectionChanged: (@MainActor (SidebarItem) -> Void)?
    /// Called when an article is dropped on a place; returns whether the drop did something.
    var articleDropped: (@MainActor (UUID, SidebarItem) -> Bool)?

    /// The places in order, as listed.
    private(set) var items: [SidebarItem] = []
    /// The folders as last shown, with their counts.
    private(set) var folders: [FolderSummary] = []
    /// The drop targets of the places that take dragged articles, as last listed.
    private(set) var dropTargets: [SidebarItem: DropTarget] = [:]
    private let listBox: ListBox
    private let acceptsArticleDrops: Bool
    private var isRebuilding = false

    /// Attaches to the list box and lists the places without folders. With `acceptsArticleDrops`
    /// false (a read-only library) no place takes dragged articles.
    init(listBox: ListBox, acceptsArticleDrops: Bool) {
        self.listBox = listBox
        self.acceptsArticleDrops = acceptsArticleDrops
        StyleSheet.addToDisplay(resource: Quire.resourcePath + "sidebar/sidebar.css")
        listBox.connect(.rowSelected) { [weak self] row in self?.rowSelected(row) }
        show(folders: [])
    }

    /// Lists `folders` (with their counts) between Favorites and the Trash, and selects `item`
    /// or keeps the selection; a selected folder that is gone selects All Articles.
    func show(folders: [FolderSummary], selecting item: SidebarItem? = nil) {
        self.folders = folders
        isRebuilding = true
        listBox.removeAll()
        items = [.all, .favorites] + folders.map { .folder($0.name) } + [.trash]
        let counts = Dictionary(folders.map { ($0.name, $0.articleCount) }, uniquingKeysWith: { first, _ in first })
        dropTargets = [:]
        for item in items {
            let row = ListBoxRow()
            row.child = Self.makeRowContent(item, count: item.folderName.flatMap { counts[$0] })
            // The drop target goes on the row, whose :drop(active) state the style sheet outlines.
            listBox.append(row)
            if acceptsArticleDrops && item.takesArticleDrops {
                dropTargets[item] = DropTarget(on: row, accepting: ArticleDrag.contentType) { [weak self] string in
                    guard let self, let id = ArticleDrag.articleID(in: string) else { return false }
                    return articleDropped?(id, item) ?? false
                }
            }
        }
        isRebuilding = false
        select(item ?? selected)
    }

    /// Selects a place (All Articles when it is not listed).
    func select(_ item: SidebarItem) {
        let item = items.contains(item) ? item : .all
        let index = items.firstIndex(of: item) ?? 0
        if let row = listBox.row(at: index) { listBox.select(row) }
        setSelected(item)
    }

    /// The count a folder's row shows, as the writer reads it.
    func countText(ofFolder name: String) -> String? {
        guard let index = items.firstIndex(of: .folder(name)), let row = listBox.row(at: index) else { return nil }
        return row.descendants(ofType: Label.self).last?.text
    }

    private func rowSelected(_ row: ListBoxRow?) {
        guard !isRebuilding, let row else { return }
        let index = row.index
        guard items.indices.contains(index) else { return }
        setSelected(items[index])
    }

    private func setSelected(_ item: SidebarItem) {
        guard item != selected else { return }
        selected = item
        selectionChanged?(item)
    }

    private static func makeRowContent(_ item: SidebarItem, count: Int?) -> Widget {
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
        return box
    }
}
