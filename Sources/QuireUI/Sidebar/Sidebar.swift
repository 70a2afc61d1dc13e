import CGtk
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
    private let listBox: Widget
    private let acceptsArticleDrops: Bool
    private var isRebuilding = false

    /// Attaches to the list box and lists the places without folders. With `acceptsArticleDrops`
    /// false (a read-only library) no place takes dragged articles.
    init(listBox: Widget, acceptsArticleDrops: Bool) {
        self.listBox = listBox
        self.acceptsArticleDrops = acceptsArticleDrops
        StyleSheet.addToDisplay(resource: Quire.resourcePath + "sidebar/sidebar.css")
        listBox.connect(Signal<(UnsafeMutableRawPointer?) -> Void>("row-selected")) { [weak self] row in
            self?.rowSelected(row.map { OpaquePointer($0) })
        }
        show(folders: [])
    }

    /// Lists `folders` (with their counts) between Favorites and the Trash, and selects `item`
    /// or keeps the selection; a selected folder that is gone selects All Articles.
    func show(folders: [FolderSummary], selecting item: SidebarItem? = nil) {
        self.folders = folders
        isRebuilding = true
        let box = OpaquePointer(listBox.widgetPointer)
        while let row = gtk_list_box_get_row_at_index(box, 0) {
            gtk_list_box_remove(box, UnsafeMutableRawPointer(row).assumingMemoryBound(to: GtkWidget.self))
        }
        items = [.all, .favorites] + folders.map { .folder($0.name) } + [.trash]
        let counts = Dictionary(folders.map { ($0.name, $0.articleCount) }, uniquingKeysWith: { first, _ in first })
        dropTargets = [:]
        for item in items {
            let row = gtk_list_box_row_new()!
            let content = Self.makeRowContent(item, count: item.folderName.flatMap { counts[$0] })
            gtk_list_box_row_set_child(UnsafeMutableRawPointer(row).assumingMemoryBound(to: GtkListBoxRow.self), content)
            // The drop target goes on the row, whose :drop(active) state the style sheet outlines.
            gtk_list_box_append(box, row)
            if acceptsArticleDrops && item.takesArticleDrops {
                dropTargets[item] = DropTarget(on: Widget(retaining: row), accepting: ArticleDrag.contentType) { [weak self] string in
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
        if let row = gtk_list_box_get_row_at_index(OpaquePointer(listBox.widgetPointer), gint(index)) {
            gtk_list_box_select_row(OpaquePointer(listBox.widgetPointer), row)
        }
        setSelected(item)
    }

    /// The count a folder's row shows, as the writer reads it.
    func countText(ofFolder name: String) -> String? {
        guard let index = items.firstIndex(of: .folder(name)),
              let row = gtk_list_box_get_row_at_index(OpaquePointer(listBox.widgetPointer), gint(index)) else { return nil }
        let labels = Widget(retaining: UnsafeMutableRawPointer(row)).descendants(ofType: gtk_label_get_type())
        return labels.last.map { String(cString: gtk_label_get_label($0.opaquePointer)) }
    }

    private func rowSelected(_ row: OpaquePointer?) {
        guard !isRebuilding, let row else { return }
        let index = Int(gtk_list_box_row_get_index(UnsafeMutablePointer(row)))
        guard items.indices.contains(index) else { return }
        setSelected(items[index])
    }

    private func setSelected(_ item: SidebarItem) {
        guard item != selected else { return }
        selected = item
        selectionChanged?(item)
    }

    private static func makeRowContent(_ item: SidebarItem, count: Int?) -> UnsafeMutablePointer<GtkWidget> {
        let box = gtk_box_new(GTK_ORIENTATION_HORIZONTAL, 12)!
        gtk_widget_set_margin_start(box, 6)
        gtk_widget_set_margin_end(box, 6)
        let image = gtk_image_new_from_icon_name(item.iconName)!
        let label = gtk_label_new(item.title)!
        gtk_label_set_xalign(OpaquePointer(label), 0)
        gtk_label_set_ellipsize(OpaquePointer(label), PANGO_ELLIPSIZE_END)
        gtk_widget_set_hexpand(label, 1)
        let row = UnsafeMutableRawPointer(box).assumingMemoryBound(to: GtkBox.self)
        gtk_box_append(row, image)
        gtk_box_append(row, label)
        if let count {
            let countLabel = gtk_label_new(NumberFormatter.localizedString(from: NSNumber(value: count), number: .decimal))!
            gtk_widget_add_css_class(countLabel, "dim-label")
            gtk_box_append(row, countLabel)
        }
        return box
    }
}
