import CGtk

/// A `GtkPopover`: a small window that points at the widget it belongs to (a menu button's: a
/// link's address, an outline of headings).
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

    /// Opens it.
    public func popup() { gtk_popover_popup(popoverPointer) }

    /// Closes it.
    public func popdown() { gtk_popover_popdown(popoverPointer) }
}

extension Signal where Handler == () -> Void {
    /// `GtkPopover::closed`.
    public static var closed: Self { Self("closed") }
}
