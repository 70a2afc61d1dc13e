import CGtk
import GtkShim

/// A `GtkListView` presenting a ``ListSource`` through a ``SelectionModel`` and a
/// ``ListRowFactory``, which keeps the writer's place when the list reloads.
///
/// A reload reaches GTK as "every row left, then new rows arrived", after which GTK would show
/// the top of the list. The list view notes the row at the top of the view and how far it is
/// scrolled into it before the reload, and scrolls back to that row, by identity, after it.
/// The selection survives by itself (``SelectionModel``).
///
/// Put ``widget`` in a `GtkScrolledWindow`, or attach to a list view from a builder file with
/// ``init(listView:selection:factory:)``. Keep the `ListView` as long as the widget is shown
/// (its controller usually holds it).
///
/// ```swift
/// let list = ListView(selection: selection, factory: factory)
/// list.onActivate = { [weak self] id in self?.open(id) }
/// scrolledWindow.child = list.widget
/// ```
@MainActor
public final class ListView<Source: ListSource> {
    /// Where the view was scrolled before a reload.
    private struct ScrollAnchor {
        /// The row at the top of the view, if a row item for it was alive.
        let identity: Source.Identity?
        let index: Int
        /// How far the view was scrolled into that row, in pixels.
        let offset: Double
        /// The height of a row, separators included.
        let rowPitch: Double
    }

    /// The `GtkListView`.
    public let widget: Widget
    /// The selection, over the list model.
    public let selection: SelectionModel<Source>
    /// The `GtkListItemFactory` the rows come from.
    private let factory: Object
    private var anchor: ScrollAnchor?

    /// A new `GtkListView` over `selection` with rows from `factory`.
    public convenience init<Row>(selection: SelectionModel<Source>, factory: ListRowFactory<Source, Row>) {
        self.init(listView: Widget(owning: gtk_list_view_new(nil, nil)), selection: selection, factory: factory)
    }

    /// Attaches to an existing `GtkListView`, such as one from a builder file, setting its
    /// model and factory.
    public init<Row>(listView: Widget, selection: SelectionModel<Source>, factory: ListRowFactory<Source, Row>) {
        precondition(listView.isA(gtk_list_view_get_type()), "\(listView.typeName) is not a GtkListView")
        widget = listView
        self.selection = selection
        self.factory = factory.object
        gtk_list_view_set_factory(listView.opaquePointer, factory.object.opaquePointer)
        gtk_list_view_set_model(listView.opaquePointer, selection.object.opaquePointer)
        selection.model.presented.observe { [weak self] event in
            switch event {
            case .willReload: self?.anchor = self?.scrollAnchor()
            case .didReload: self?.restoreScrollPosition()
            case .willApply, .didApply: break
            }
        }
    }

    /// The list model.
    public var model: ListModel<Source> { selection.model }

    /// Leaves the list without rows until just after its window's next frame (the first, for a
    /// window not shown yet). GTK 4.8's list view makes about 200 rows whatever its height;
    /// making, binding and measuring them can take as long as the rest of a window, and would
    /// hold back its first frame.
    public func makeRowsAfterNextFrame() {
        gtk_list_view_set_factory(widget.opaquePointer, nil)
        rowsHeldBack = true
        widget.afterNextFrame { [weak self] in
            guard let self else { return }
            gtk_list_view_set_factory(widget.opaquePointer, factory.opaquePointer)
            widget.afterNextFrame { [weak self] in self?.rowsShown() }
        }
    }

    /// Whether the list makes rows (false until the frame ``makeRowsAfterNextFrame()`` waits for).
    public var makesRows: Bool { gtk_list_view_get_factory(widget.opaquePointer) != nil }

    /// Runs `body` once the list has drawn its rows: at once when it has, otherwise after the
    /// first frame that shows the rows ``makeRowsAfterNextFrame()`` holds back. For work that
    /// would add rows to that frame (GTK makes a row for each of up to 200 items).
    public func whenRowsShown(_ body: @escaping @MainActor () -> Void) {
        if rowsHeldBack { waitingForRows.append(body) } else { body() }
    }

    /// Whether ``makeRowsAfterNextFrame()`` holds the rows back, or their first frame is still to come.
    private var rowsHeldBack = false
    private var waitingForRows: [@MainActor () -> Void] = []

    private func rowsShown() {
        rowsHeldBack = false
        let waiting = waitingForRows
        waitingForRows = []
        for body in waiting { body() }
    }

    /// Called when the writer activates a row (double click, or Enter), with its identity.
    public var onActivate: (@MainActor (Source.Identity) -> Void)? {
        didSet {
            activation?.disconnect()
            activation = nil
            guard onActivate != nil else { return }
            activation = widget.connect(.positionActivated) { [weak self] position in
                guard let self, Int(position) < model.count else { return }
                onActivate?(model.presented.identity(at: Int(position)))
            }
        }
    }
    private var activation: SignalConnection?

    /// Scrolls as little as needed to show the row at `index` (GTK's `list.scroll-to-item`).
    public func scroll(toRowAt index: Int) {
        guard index >= 0, index < model.count else { return }
        let position = g_variant_ref_sink(g_variant_new_uint32(guint32(index)))
        defer { g_variant_unref(position) }
        gtk_widget_activate_action_variant(widget.widgetPointer, "list.scroll-to-item", position)
    }

    /// The vertical adjustment, once the list view is in a scrolled window.
    private var verticalAdjustment: UnsafeMutablePointer<GtkAdjustment>? {
        gtk_scrollable_get_vadjustment(widget.opaquePointer)
    }

    private func scrollAnchor() -> ScrollAnchor? {
        guard let adjustment = verticalAdjustment else { return nil }
        let value = gtk_adjustment_get_value(adjustment)
        let height = gtk_adjustment_get_upper(adjustment)
        let count = model.count
        // Not scrollable: nothing to restore.
        guard count > 0, height > gtk_adjustment_get_page_size(adjustment) else { return nil }
        // Rows have a fixed height, so the list's height is count rows exactly.
        let pitch = height / Double(count)
        let index = min(Int(value / pitch), count - 1)
        return ScrollAnchor(
            identity: model.presented.liveIdentity(at: index), index: index,
            offset: value - Double(index) * pitch, rowPitch: pitch)
    }

    private func restoreScrollPosition() {
        guard let anchor, model.count > 0 else { return }
        self.anchor = nil
        let index = anchor.identity.flatMap(model.source.index(of:)) ?? min(anchor.index, model.count - 1)
        // Right after the rows arrived GTK has not measured any of them, so scrolling to a row
        // anchors it at the top of the view; the first frame shows it there.
        scroll(toRowAt: index)
        guard anchor.offset > 0 else { return }
        // The part of a row scrolled past needs row heights, which GTK knows after a frame.
        widget.afterNextFrame { [weak self] in
            guard let adjustment = self?.verticalAdjustment else { return }
            gtk_adjustment_set_value(adjustment, Double(index) * anchor.rowPitch + anchor.offset)
        }
    }
}

extension Signal where Handler == (UInt32) -> Void {
    /// `GtkListView::activate(position)`.
    static var positionActivated: Self { Self("activate") }
}
