import CGtk

/// A `GtkRevealer`: shows or hides its child with an animation (a banner, an optional row).
@MainActor
open class Revealer: Widget {
    open override class var gType: GType { gtk_revealer_get_type() }

    /// Whether the child is shown (or being revealed).
    public var revealsChild: Bool {
        get { gtk_revealer_get_reveal_child(opaquePointer) != 0 }
        set { gtk_revealer_set_reveal_child(opaquePointer, newValue ? 1 : 0) }
    }
}
