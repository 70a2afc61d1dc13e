import CGtk

/// A `GtkFlowBox`: children in rows that wrap at the box's width (the editor's tag chips).
/// Each child gets a `GtkFlowBoxChild` of its own; ``children(of:)`` reads back what was appended.
///
/// ```swift
/// let chips = FlowBox()
/// chips.append(Label("essay"))
/// ```
@MainActor
open class FlowBox: Widget {
    open override class var gType: GType { gtk_flow_box_get_type() }

    /// A new, empty box whose children cannot be selected (they are controls, not a list).
    public convenience init() {
        self.init(owning: gtk_flow_box_new())
        gtk_flow_box_set_selection_mode(opaquePointer, GTK_SELECTION_NONE)
    }

    /// Adds `child` after the others.
    public func append(_ child: Widget) { gtk_flow_box_append(opaquePointer, child.widgetPointer) }

    /// Takes out every child.
    public func removeAll() {
        while let child = gtk_flow_box_get_child_at_index(opaquePointer, 0) {
            gtk_flow_box_remove(opaquePointer, UnsafeMutableRawPointer(child).assumingMemoryBound(to: GtkWidget.self))
        }
    }

    /// The widgets appended, in order (each without its `GtkFlowBoxChild`).
    public var items: [Widget] {
        var items: [Widget] = []
        var index: gint = 0
        while let child = gtk_flow_box_get_child_at_index(opaquePointer, index) {
            if let widget = gtk_flow_box_child_get_child(child) { items.append(Widget(retaining: widget)) }
            index += 1
        }
        return items
    }

    /// At most this many children in a row (GTK's default is 7).
    public var maximumChildrenPerLine: Int {
        get { Int(gtk_flow_box_get_max_children_per_line(opaquePointer)) }
        set { gtk_flow_box_set_max_children_per_line(opaquePointer, guint(newValue)) }
    }
}
