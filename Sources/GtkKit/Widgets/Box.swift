import CGtk

/// Which way a box lines its children up.
public enum Orientation: Sendable {
    case horizontal, vertical

    var gtkOrientation: GtkOrientation {
        self == .horizontal ? GTK_ORIENTATION_HORIZONTAL : GTK_ORIENTATION_VERTICAL
    }
}

/// A `GtkBox`: children in a row or a column.
///
/// ```swift
/// let row = Box(.horizontal, spacing: 12)
/// row.append(Image(iconName: "folder-symbolic"))
/// row.append(Label("Notes"))
/// ```
///
/// The box holds a reference to each child; the child's wrapper may be dropped.
@MainActor
open class Box: Widget {
    open override class var gType: GType { gtk_box_get_type() }

    /// A new, empty box.
    public convenience init(_ orientation: Orientation, spacing: Int = 0) {
        self.init(owning: gtk_box_new(orientation.gtkOrientation, gint(spacing)))
    }

    private var boxPointer: UnsafeMutablePointer<GtkBox> { pointer(as: GtkBox.self) }

    /// Adds `child` after the others.
    public func append(_ child: Widget) { gtk_box_append(boxPointer, child.widgetPointer) }

    /// Adds `child` before the others.
    public func prepend(_ child: Widget) { gtk_box_prepend(boxPointer, child.widgetPointer) }

    /// Takes `child` out of the box.
    public func remove(_ child: Widget) { gtk_box_remove(boxPointer, child.widgetPointer) }
}
