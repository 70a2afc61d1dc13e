import CGtk

/// A `GtkPopover`: a small window that points at a place in its parent widget (a link's address
/// typed at the caret, an outline of headings under a button).
@MainActor
open class Popover: Widget {
    open override class var gType: GType { gtk_popover_get_type() }

    /// A new, empty popover.
    public convenience init() {
        self.init(owning: gtk_popover_new())
    }

    private var popoverPointer: UnsafeMutablePointer<GtkPopover> { pointer(as: GtkPopover.self) }

    /// What the popover shows.
    public var child: Widget? {
        get { gtk_popover_get_child(popoverPointer).map { Widget(retaining: $0) } }
        set { gtk_popover_set_child(popoverPointer, newValue?.widgetPointer) }
    }

    /// Attaches the popover to `parent`, which it points at and whose window it opens over.
    public func attach(to parent: Widget) {
        gtk_widget_set_parent(widgetPointer, parent.widgetPointer)
    }

    /// Points at a rectangle of the parent, in its coordinates.
    public func point(at rectangle: (x: Int, y: Int, width: Int, height: Int)) {
        var rect = GdkRectangle(x: gint(rectangle.x), y: gint(rectangle.y), width: gint(rectangle.width), height: gint(rectangle.height))
        gtk_popover_set_pointing_to(popoverPointer, &rect)
    }

    /// Opens it.
    public func popup() { gtk_popover_popup(popoverPointer) }

    /// Closes it.
    public func popdown() { gtk_popover_popdown(popoverPointer) }
}

extension Signal where Handler == () -> Void {
    /// `GtkPopover::closed`.
    public static var closed: Self { Self("closed") }
}
