import CGtk

/// A `GtkListBox`: a short list of rows made by hand (the sidebar's places, a dialog's list of
/// changes). Long lists of data go in a ``ListView``.
///
/// ```swift
/// let row = ListBoxRow()
/// row.child = Label("Notes")
/// list.append(row)
/// list.connect(.rowSelected) { [weak self] row in self?.select(row?.index) }
/// ```
@MainActor
open class ListBox: Widget {
    open override class var gType: GType { gtk_list_box_get_type() }

    /// A new, empty list.
    public convenience init() {
        self.init(owning: gtk_list_box_new())
    }

    private var listBoxPointer: OpaquePointer { opaquePointer }

    /// Adds `row` at the end (a widget that is not a `GtkListBoxRow` gets a row of its own).
    public func append(_ row: Widget) { gtk_list_box_append(listBoxPointer, row.widgetPointer) }

    /// Takes `row` out of the list.
    public func remove(_ row: Widget) { gtk_list_box_remove(listBoxPointer, row.widgetPointer) }

    /// Takes every row out of the list.
    public func removeAll() {
        while let row = gtk_list_box_get_row_at_index(listBoxPointer, 0) {
            gtk_list_box_remove(listBoxPointer, UnsafeMutableRawPointer(row).assumingMemoryBound(to: GtkWidget.self))
        }
    }

    /// The row at `index`, nil past the end.
    public func row(at index: Int) -> ListBoxRow? {
        gtk_list_box_get_row_at_index(listBoxPointer, gint(index)).map { ListBoxRow(retaining: $0) }
    }

    /// Selects `row` (emitting ``Signal/rowSelected`` when the selection changes).
    public func select(_ row: ListBoxRow) { gtk_list_box_select_row(listBoxPointer, row.rowPointer) }
}

/// A `GtkListBoxRow`: one row of a ``ListBox``.
@MainActor
open class ListBoxRow: Widget {
    open override class var gType: GType { gtk_list_box_row_get_type() }

    /// A new, empty row.
    public convenience init() {
        self.init(owning: gtk_list_box_row_new())
    }

    var rowPointer: UnsafeMutablePointer<GtkListBoxRow> { pointer(as: GtkListBoxRow.self) }

    /// What the row shows.
    public var child: Widget? {
        get { gtk_list_box_row_get_child(rowPointer).map { Widget(retaining: $0) } }
        set { gtk_list_box_row_set_child(rowPointer, newValue?.widgetPointer) }
    }

    /// The row's position in its list, -1 outside a list.
    public var index: Int { Int(gtk_list_box_row_get_index(rowPointer)) }
}

extension Signal where Handler == (ListBoxRow?) -> Void {
    /// `GtkListBox::row-selected(row)`: another row (or none) is selected.
    public static var rowSelected: Self { Self("row-selected") }
    /// `GtkListBox::row-activated(row)`: the writer clicked a row or pressed Enter on it.
    public static var rowActivated: Self { Self("row-activated") }
}
