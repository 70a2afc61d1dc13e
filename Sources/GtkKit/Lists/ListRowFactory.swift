import CGtk
import GtkShim

/// The widgets of one row, made once per row widget GTK creates and bound to one row after
/// another as the list scrolls.
@MainActor
public protocol ListRowView: AnyObject {
    /// The row's root widget.
    var widget: Widget { get }
}

/// Makes and binds the rows of a `GtkListView` over a ``ListModel`` (a
/// `GtkSignalListItemFactory` underneath).
///
/// - Rows have a fixed height: each row view sits in a bin of `rowHeight` pixels (content
///   that asks for more is clipped), so GTK's estimate for rows it has not measured is exact
///   and scrolling a million rows stays smooth and exact.
/// - Rows take the list's width and ask for none of their own: GTK measures the width of every
///   row it keeps (about 200) on every change, and measuring a wrapping label's width lays its
///   whole text out on one line. Content wider than the list is clipped, so a list needs a
///   minimum width (a `width-request` on it or its pane) that its rows fit in.
/// - Row views outlive their rows: GTK 4.8 destroys the row widget of every row that leaves
///   the list (a search that replaces the rows replaces about 200 of them), so the factory keeps
///   the views of rows GTK tears down, up to as many as GTK keeps, and gives them to the next
///   rows GTK sets up instead of making new ones.
/// - Rows bind lazily, from the source's data, only for the rows GTK shows (about 200 around
///   the visible ones). Before binding a row outside the range asked for last, the factory
///   asks the source to ``ListSource/prefetch(_:)`` the next `prefetchCount` rows in the
///   direction of scrolling, so the source loads them in one batch.
/// - When the source reports a row updated or moved, a bound row is bound again.
///
/// ```swift
/// let factory = ListRowFactory(model: model, rowHeight: 56, makeRow: ArticleRowView.init) { row, id, _ in
///     row.show(source.article(with: id))
/// }
/// ```
@MainActor
public final class ListRowFactory<Source: ListSource, Row: ListRowView> {
    /// The `GtkListItemFactory` to hand to a `GtkListView` (a ``ListView`` does).
    public let object: Object
    /// The height of every row, in pixels.
    public let rowHeight: Int

    /// A factory for the rows of `model`.
    ///
    /// - Parameters:
    ///   - rowHeight: the height of every row in pixels.
    ///   - prefetchCount: how many rows to ask the source to prefetch at a time; enough to cover
    ///     the row widgets GTK keeps (about 200).
    ///   - makeRow: makes the widgets of one row.
    ///   - bind: shows the row with an identity at an index in a row view (again after the
    ///     row's data changed).
    ///   - unbind: called when a row view stops showing a row.
    public init(
        model: ListModel<Source>, rowHeight: Int, prefetchCount: Int = 256,
        makeRow: @escaping @MainActor () -> Row,
        bind: @escaping @MainActor (_ row: Row, _ identity: Source.Identity, _ index: Int) -> Void,
        unbind: @escaping @MainActor (_ row: Row) -> Void = { _ in }
    ) {
        precondition(rowHeight > 0, "rows need a height")
        precondition(prefetchCount > 0, "prefetch at least one row")
        self.rowHeight = rowHeight
        let binder = RowBinder(
            list: model.presented, rowHeight: rowHeight, prefetchCount: prefetchCount,
            makeRow: makeRow, bind: bind, unbind: unbind)
        object = Object(owning: gtk_signal_list_item_factory_new())
        // The factory instance keeps these handlers, and through them the binder, alive.
        object.connect(.listItemSetup) { listItem in binder.setUp(OpaquePointer(listItem!)) }
        object.connect(.listItemBind) { listItem in binder.bind(OpaquePointer(listItem!)) }
        object.connect(.listItemUnbind) { listItem in binder.unbind(OpaquePointer(listItem!)) }
        object.connect(.listItemTeardown) { listItem in binder.tearDown(OpaquePointer(listItem!)) }
    }
}

/// Does the work of a ``ListRowFactory`` for each `GtkListItem`: keeps its row view on it,
/// binds it, rebinds it on updates, prefetches ahead, and keeps the views of torn-down rows for
/// the next rows set up.
@MainActor
final class RowBinder<Source: ListSource, Row: ListRowView> {
    /// What a `GtkListItem` carries: its row view in its fixed-height bin and, while bound, the
    /// connection to its row item's `updated` signal.
    @MainActor
    final class BoundRow {
        let row: Row
        /// The bin the list item shows. Referenced here as well as by the list item, so that the
        /// row view survives its list item.
        let bin: Widget
        var updates: SignalConnection?

        init(row: Row, rowHeight: Int) {
            self.row = row
            bin = Widget(owning: gtkshim_fixed_height_bin_new(row.widget.widgetPointer, gint(rowHeight)))
        }
    }

    /// How many views of torn-down rows are kept: as many row widgets as GTK 4.8's list view
    /// keeps at most (205 around its anchor, 5 around each of its focus and selection), so a
    /// reload that replaces every row finds a view for each new one.
    static var spareRowLimit: Int { 215 }

    private let list: PresentedList<Source>
    private let rowHeight: Int
    private let prefetchCount: Int
    private let makeRow: @MainActor () -> Row
    private let bindRow: @MainActor (Row, Source.Identity, Int) -> Void
    private let unbindRow: @MainActor (Row) -> Void
    /// The rows the source was last asked to prefetch.
    private(set) var prefetched: Range<Int> = 0..<0
    /// Row views of torn-down list items, unbound and without a parent, for the next `setUp`.
    private var spareRows: [BoundRow] = []

    init(
        list: PresentedList<Source>, rowHeight: Int, prefetchCount: Int,
        makeRow: @escaping @MainActor () -> Row,
        bind: @escaping @MainActor (Row, Source.Identity, Int) -> Void,
        unbind: @escaping @MainActor (Row) -> Void
    ) {
        self.list = list
        self.rowHeight = rowHeight
        self.prefetchCount = prefetchCount
        self.makeRow = makeRow
        bindRow = bind
        unbindRow = unbind
        list.observe { [weak self] event in
            // After a reload the rows at those indices are others.
            if case .willReload = event { self?.prefetched = 0..<0 }
        }
    }

    func setUp(_ listItem: OpaquePointer) {
        let boundRow = spareRows.popLast() ?? BoundRow(row: makeRow(), rowHeight: rowHeight)
        gtk_list_item_set_child(listItem, boundRow.bin.widgetPointer)
        g_object_set_qdata_full(
            UnsafeMutableRawPointer(listItem).assumingMemoryBound(to: GObject.self), boundRowQuark,
            Unmanaged.passRetained(boundRow).toOpaque(), { Unmanaged<AnyObject>.fromOpaque($0!).release() })
    }

    func bind(_ listItem: OpaquePointer) {
        guard let boundRow = boundRow(of: listItem), let itemPointer = gtk_list_item_get_item(listItem) else { return }
        let item = ListRowItem(retaining: itemPointer)
        let identity = item.payload(as: RowItemIdentity<Source>.self).identity
        let position = Int(gtk_list_item_get_position(listItem))
        if let index = list.sourceIndex(at: position) { prefetch(around: index) }
        bindRow(boundRow.row, identity, position)
        boundRow.updates = item.connect(.rowUpdated) { [weak self, weak boundRow] in
            guard let self, let boundRow else { return }
            bindRow(boundRow.row, identity, Int(gtk_list_item_get_position(listItem)))
        }
    }

    func unbind(_ listItem: OpaquePointer) {
        guard let boundRow = boundRow(of: listItem) else { return }
        boundRow.updates?.disconnect()
        boundRow.updates = nil
        unbindRow(boundRow.row)
    }

    func tearDown(_ listItem: OpaquePointer) {
        // GTK 4.8 has taken the bin off the list item already; this makes sure of it.
        gtk_list_item_set_child(listItem, nil)
        if let boundRow = boundRow(of: listItem), spareRows.count < Self.spareRowLimit,
            gtk_widget_get_parent(boundRow.bin.widgetPointer) == nil
        {
            spareRows.append(boundRow)
        }
        g_object_set_qdata(UnsafeMutableRawPointer(listItem).assumingMemoryBound(to: GObject.self), boundRowQuark, nil)
    }

    private func boundRow(of listItem: OpaquePointer) -> BoundRow? {
        g_object_get_qdata(UnsafeMutableRawPointer(listItem).assumingMemoryBound(to: GObject.self), boundRowQuark)
            .map { Unmanaged<BoundRow>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Asks the source to prefetch the rows about to be bound, unless `index` was in the
    /// last range. GTK binds a fresh set of rows from the top down, and scrolling adds rows at
    /// one edge, so: next to the last range, continue it in that direction; elsewhere, start
    /// at `index` and go down.
    func prefetch(around index: Int) {
        guard !prefetched.contains(index) else { return }
        let count = list.source.count
        let range: Range<Int>
        if !prefetched.isEmpty, index < prefetched.lowerBound, prefetched.lowerBound - index < prefetchCount {
            range = max(0, prefetched.lowerBound - prefetchCount)..<prefetched.lowerBound
        } else if !prefetched.isEmpty, index >= prefetched.upperBound, index - prefetched.upperBound < prefetchCount {
            range = prefetched.upperBound..<min(count, prefetched.upperBound + prefetchCount)
        } else {
            range = index..<min(count, index + prefetchCount)
        }
        prefetched = range
        list.source.prefetch(range)
    }
}

/// The key of a `GtkListItem`'s ``RowBinder/BoundRow``.
private let boundRowQuark = g_quark_from_string("gtkkit-bound-row")

extension Signal where Handler == (UnsafeMutableRawPointer?) -> Void {
    /// `GtkSignalListItemFactory::setup`, with the `GtkListItem`.
    static var listItemSetup: Self { Self("setup") }
    /// `GtkSignalListItemFactory::bind`, with the `GtkListItem`.
    static var listItemBind: Self { Self("bind") }
    /// `GtkSignalListItemFactory::unbind`, with the `GtkListItem`.
    static var listItemUnbind: Self { Self("unbind") }
    /// `GtkSignalListItemFactory::teardown`, with the `GtkListItem`.
    static var listItemTeardown: Self { Self("teardown") }
}
