import CGtk
import Glibc
import GtkShim

/// A `GListModel` that presents a ``ListSource`` to GTK without touching more of it than GTK
/// shows.
///
/// - Row items (``ListRowItem``) are created when GTK asks for them and carry the row's
///   identity and current position. The same item comes back for an identity while someone
///   holds it and the row stays in the list; items nobody holds are dropped.
/// - Each batch of the source becomes the fewest `items-changed` emissions that replay it
///   exactly: one per gap between rows the batch leaves alone. Updated and moved rows emit
///   their item's `updated` signal, which bound rows use to show the new data.
/// - A reload to at most 1000 rows is published as one `items_changed(0, n, n')`, so rows in
///   both lists keep their row widgets (GTK asks for each new row once to find them); a reload
///   to more rows as `items_changed(0, n, 0)` then `items_changed(0, 0, n')`, so GTK asks only
///   for the rows it shows (a ``ListView`` restores the scroll position; a ``SelectionModel``
///   keeps its selection by identity). A batch that would need more than ``reloadThreshold``
///   emissions is published as a reload.
///
/// ```swift
/// let model = ListModel(source: articleRows)
/// let selection = SelectionModel(model: model, mode: .multiple)
/// ```
@MainActor
public final class ListModel<Source: ListSource> {
    /// The `GListModel` (a `GtkShimListModel`) to hand to GTK, usually through a
    /// ``SelectionModel``.
    public let object: Object
    let presented: PresentedList<Source>

    /// Presents `source`, becoming its observer. A source is presented by one model.
    public init(source: Source) {
        precondition(source.observer == nil, "the source is already presented by another list model")
        let presented = PresentedList(source: source) { error in
            ListModel.logInconsistency(error)
        }
        self.presented = presented
        object = Object(owning: presented.makeListModel())
        presented.model = object.opaquePointer
        source.observer = ListSourceObserver(
            apply: { [weak presented] changes in presented?.apply(changes) },
            reload: { [weak presented] in presented?.reload() })
    }

    /// The source presented.
    public var source: Source { presented.source }

    /// The number of rows GTK has been told about: the source's count, except while a change
    /// is being published.
    public var count: Int { presented.count }

    /// The row item at `position`, as GTK gets it (`g_list_model_get_item`).
    public func item(at position: Int) -> ListRowItem? {
        presented.rowItem(at: position).map { ListRowItem(owning: $0) }
    }

    /// The identity a row item of this model carries.
    public func identity(of item: ListRowItem) -> Source.Identity {
        item.payload(as: RowItemIdentity<Source>.self).identity
    }

    /// Batches that need more `items-changed` emissions than this (changes scattered over
    /// many places, such as a batch delete) are published as a reload, which costs GTK two
    /// emissions and a fresh set of visible rows. 1000 by default.
    public var reloadThreshold: Int {
        get { presented.reloadThreshold }
        set { presented.reloadThreshold = newValue }
    }

    /// Told when the source reports a batch that does not fit the list GTK has (a bug in the
    /// source); the model then reloads, so GTK's view stays exact. Logs a GLib warning by
    /// default.
    public var inconsistencyHandler: @MainActor (ListChangeError) -> Void {
        get { presented.inconsistencyHandler }
        set { presented.inconsistencyHandler = newValue }
    }

    /// Logs a GLib warning in the `GtkKit` domain, like GTK's own (`G_DEBUG=fatal-warnings`
    /// makes it fatal, which is what a test run wants).
    private static func logInconsistency(_ error: ListChangeError) {
        let fields: [(key: StaticString, value: String)] = [
            ("GLIB_DOMAIN", "GtkKit"),
            ("MESSAGE", "list source reported an inconsistent batch, reloading: \(error)"),
        ]
        let values = fields.map { strdup($0.value) }
        defer { values.forEach { free($0) } }
        var logFields = zip(fields, values).map { field, value in
            GLogField(key: UnsafeRawPointer(field.key.utf8Start).assumingMemoryBound(to: CChar.self), value: value, length: -1)
        }
        g_log_structured_array(G_LOG_LEVEL_WARNING, &logFields, gsize(logFields.count))
    }
}
