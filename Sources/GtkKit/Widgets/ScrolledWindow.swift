import CGtk

/// A `GtkScrolledWindow`: a child larger than its place, with scroll bars.
@MainActor
open class ScrolledWindow: Widget {
    open override class var gType: GType { gtk_scrolled_window_get_type() }

    /// A new scrolled window that scrolls only vertically and, with `maximumHeight`, grows
    /// with its child up to that height (in a popover, say).
    public convenience init(maximumHeight: Int? = nil) {
        self.init(owning: gtk_scrolled_window_new())
        gtk_scrolled_window_set_policy(opaquePointer, GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC)
        if let maximumHeight {
            gtk_scrolled_window_set_propagate_natural_height(opaquePointer, 1)
            gtk_scrolled_window_set_max_content_height(opaquePointer, gint(maximumHeight))
        }
    }

    /// What scrolls.
    public var child: Widget? {
        get { gtk_scrolled_window_get_child(opaquePointer).map { Widget(retaining: $0) } }
        set { gtk_scrolled_window_set_child(opaquePointer, newValue?.widgetPointer) }
    }

    /// The horizontal scroll position and range.
    public var horizontalAdjustment: Adjustment {
        Adjustment(retaining: gtk_scrolled_window_get_hadjustment(opaquePointer))
    }

    /// The vertical scroll position and range.
    public var verticalAdjustment: Adjustment {
        Adjustment(retaining: gtk_scrolled_window_get_vadjustment(opaquePointer))
    }
}

/// A `GtkAdjustment`: a value in a range with a page size, such as the scroll position of a view.
/// Its properties notify when they change (``Signal/notify(_:)``), such as `page-size` when the
/// view's width changes.
@MainActor
public final class Adjustment: Object {
    public override class var gType: GType { gtk_adjustment_get_type() }

    private var adjustmentPointer: UnsafeMutablePointer<GtkAdjustment> { pointer(as: GtkAdjustment.self) }

    /// The current value (the scroll position).
    public var value: Double {
        get { gtk_adjustment_get_value(adjustmentPointer) }
        set { gtk_adjustment_set_value(adjustmentPointer, newValue) }
    }

    /// The size of the visible part.
    public var pageSize: Double { gtk_adjustment_get_page_size(adjustmentPointer) }

    /// The end of the range.
    public var upper: Double { gtk_adjustment_get_upper(adjustmentPointer) }
}
