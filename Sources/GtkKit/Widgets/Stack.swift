import CGtk

/// A `GtkStack`: named pages, one shown at a time (an empty state or the list, the options or
/// the progress of a dialog).
@MainActor
open class Stack: Widget {
    open override class var gType: GType { gtk_stack_get_type() }

    /// The name of the page shown. Setting a name no page has shows nothing new (GTK warns).
    public var visibleChildName: String? {
        get { gtk_stack_get_visible_child_name(opaquePointer).map { String(cString: $0) } }
        set { gtk_stack_set_visible_child_name(opaquePointer, newValue) }
    }
}
