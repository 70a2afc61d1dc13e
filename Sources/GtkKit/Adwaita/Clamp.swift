import CGtk

/// An `AdwClamp`: keeps its child at most ``maximumSize`` pixels wide and centres it, without
/// asking its window for that width (a text column that a narrow window can still shrink).
@MainActor
open class Clamp: Widget {
    open override class var gType: GType { adw_clamp_get_type() }

    /// The widest the child gets, in pixels.
    public var maximumSize: Int {
        get { Int(adw_clamp_get_maximum_size(opaquePointer)) }
        set {
            adw_clamp_set_maximum_size(opaquePointer, gint(newValue))
            adw_clamp_set_tightening_threshold(opaquePointer, gint(newValue))
        }
    }
}

/// An `AdwClampScrollable`: a ``Clamp`` for a scrollable child (a text view in a scrolled
/// window), which keeps scrolling with the scroll bar at the window's edge.
@MainActor
open class ClampScrollable: Widget {
    open override class var gType: GType { adw_clamp_scrollable_get_type() }

    /// The widest the child gets, in pixels.
    public var maximumSize: Int {
        get { Int(adw_clamp_scrollable_get_maximum_size(opaquePointer)) }
        set {
            adw_clamp_scrollable_set_maximum_size(opaquePointer, gint(newValue))
            adw_clamp_scrollable_set_tightening_threshold(opaquePointer, gint(newValue))
        }
    }
}
