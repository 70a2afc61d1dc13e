import CGtk

/// A `GtkExpander`: a label that shows or hides its child when clicked, such as an error's
/// details under a sentence for the writer.
///
/// ```swift
/// let details = Expander(label: "Details")
/// details.child = Label(error.description)
/// ```
@MainActor
open class Expander: Widget {
    open override class var gType: GType { gtk_expander_get_type() }

    /// A new, closed expander.
    public convenience init(label: String) {
        self.init(owning: gtk_expander_new(label))
    }

    /// The label that opens and closes it.
    public var label: String {
        get { gtk_expander_get_label(opaquePointer).map { String(cString: $0) } ?? "" }
        set { gtk_expander_set_label(opaquePointer, newValue) }
    }

    /// What it shows when open.
    public var child: Widget? {
        get { gtk_expander_get_child(opaquePointer).map { Widget(retaining: $0) } }
        set { gtk_expander_set_child(opaquePointer, newValue?.widgetPointer) }
    }

    /// Whether the child is shown.
    public var isExpanded: Bool {
        get { gtk_expander_get_expanded(opaquePointer) != 0 }
        set { gtk_expander_set_expanded(opaquePointer, newValue ? 1 : 0) }
    }
}
