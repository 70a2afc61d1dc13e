import Foundation
import GtkKit
import Library
import ObjectGraph
import Platform
import SyncProtocol

/// The widgets of one row of the article list: title, status and tags (only when set: a status
/// other than Draft, any tag), updated date, sync badge and excerpt. A row can be dragged onto
/// the sidebar (``ArticleDrag``), unless its article is in the Trash; a right click on it asks
/// for its context menu (``menuRequested``).
@MainActor
final class ArticleRow: ListRowView {
    let widget: Widget
    /// What drags the row, nil when the list's rows are not draggable (a read-only library).
    private(set) var dragSource: DragSource?
    /// The article a drag of the row carries: the one shown, unless it is in the Trash.
    private(set) var draggableArticleID: UUID?
    /// The article shown.
    private(set) var objectID: ManagedObjectID?
    /// Called with the row and the point (the row's coordinates) of a right click on it.
    var menuRequested: (@MainActor (ArticleRow, Double, Double) -> Void)?
    /// The context menu, made at the first right click and kept by the row's widget.
    private var contextMenu: PopoverMenu?
    private let titleLabel: Label
    private let dateLabel: Label
    /// The status and tags, compactly: “Ready · essay, harbour”.
    let detailsLabel: Label
    private let excerptLabel: Label
    private let syncBadge: Image
    /// The badge's state in words, its tooltip.
    private var syncDescription = ""

    /// The height of every row: two lines of excerpt under the title.
    static let height = 76

    /// A row; `draggable` gives it a drag source.
    ///
    /// Made in code, not from a builder file: GTK 4.8's list view makes about two hundred rows
    /// as it opens, whatever it shows, and parsing a builder file for each was a third of making them.
    init(draggable: Bool) {
        titleLabel = Label()
        titleLabel.expandsHorizontally = true
        titleLabel.horizontalAlignment = 0
        titleLabel.ellipsizesAtEnd = true
        titleLabel.setStyleClass("heading", on: true)

        detailsLabel = Label()
        detailsLabel.isVisible = false
        detailsLabel.ellipsizesAtEnd = true
        detailsLabel.maximumWidthInCharacters = 24
        detailsLabel.setStyleClass("caption", on: true)
        detailsLabel.setStyleClass("accent", on: true)

        syncBadge = Image()
        syncBadge.pixelSize = 12

        dateLabel = Label()
        dateLabel.setStyleClass("caption", on: true)
        dateLabel.setStyleClass("dim-label", on: true)

        excerptLabel = Label()
        excerptLabel.horizontalAlignment = 0
        excerptLabel.ellipsizesAtEnd = true
        excerptLabel.maximumLines = 2
        excerptLabel.wraps = true
        excerptLabel.wrapsInsideWords = true
        excerptLabel.setStyleClass("dim-label", on: true)

        let heading = Box(.horizontal, spacing: 6)
        for part in [titleLabel, detailsLabel, syncBadge, dateLabel] as [Widget] { heading.append(part) }
        let row = Box(.vertical, spacing: 2)
        row.marginTop = 6
        row.marginBottom = 6
        row.marginStart = 6
        row.marginEnd = 6
        row.append(heading)
        row.append(excerptLabel)
        widget = row

        // Read when due: set on every bind, the text would cost a round trip to the display
        // server for each of the couple of hundred rows a list makes as it opens.
        syncBadge.showsTooltip { [weak self] in self?.syncDescription }
        widget.onSecondaryClick(atPoint: { [weak self] x, y in
            guard let self else { return }
            menuRequested?(self, x, y)
        })
        guard draggable else { return }
        dragSource = DragSource(on: widget) { [weak self] in
            self?.draggableArticleID.map(ArticleDrag.contentProvider(for:))
        }
    }

    /// Shows an article; a fault of the list's batch, read here.
    func show(_ article: StoredArticle) {
        draggableArticleID = article.trashed == nil ? article.id : nil
        objectID = article.objectID
        titleLabel.text = ConflictDialog.displayTitle(article.title)
        excerptLabel.text = article.excerpt
        dateLabel.text = Self.dateText(article.updated)
        let details = Self.detailsText(status: article.status, tags: article.tagNames)
        detailsLabel.text = details
        detailsLabel.isVisible = !details.isEmpty
        let badge = SyncBadge(state: article.syncState)
        syncBadge.iconName = badge.iconName
        syncDescription = badge.description
        syncBadge.setStyleClass("warning", on: badge.isWarning)
        // What a screen reader says for the row: what it shows, and the badge's state in words.
        widget.setAccessibleLabel([titleLabel.text, dateLabel.text, details, badge.description].filter { !$0.isEmpty }.joined(separator: gettext(", ")))
    }

    /// Opens `menu` as the row's context menu, pointing at `x`, `y`; returns the popover.
    @discardableResult
    func openMenu(_ menu: MenuModel, atX x: Double, y: Double) -> PopoverMenu {
        let popover = contextMenu ?? PopoverMenu(menu: menu)
        if contextMenu == nil {
            popover.attach(to: widget)
            contextMenu = popover
        }
        popover.menuModel = menu
        popover.point(atX: x, y: y)
        popover.popup()
        return popover
    }

    /// The status and tags as the row shows them; Draft, every article's start, goes unsaid.
    nonisolated static func detailsText(status: ArticleStatus, tags: [String]) -> String {
        let parts = [status == .draft ? "" : status.title, tags.joined(separator: ", ")]
        return parts.filter { !$0.isEmpty }.joined(separator: " · ")
    }

    /// Today's times by the clock, older ones by the date.
    static func dateText(_ date: Date, now: Date = Date()) -> String {
        (Calendar.current.isDate(date, inSameDayAs: now) ? timeFormatter : dateFormatter).string(from: date)
    }

    // Made once: making a formatter costs more than the rest of binding a row (opening an ICU
    // formatter), and a list binds a couple of hundred rows as it opens.
    private static let timeFormatter = formatter(date: .none, time: .short)
    private static let dateFormatter = formatter(date: .short, time: .none)

    private static func formatter(date: DateFormatter.Style, time: DateFormatter.Style) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.dateStyle = date
        formatter.timeStyle = time
        return formatter
    }
}
