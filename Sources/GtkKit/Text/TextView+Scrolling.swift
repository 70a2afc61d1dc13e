import CGtk

/// Spacing and scrolling of a ``TextView`` by lines: line spacing, margins around the text,
/// which line is at the top (scroll sync), and the caret's place (a popover at the caret,
/// typewriter scrolling).
extension TextView {
    private var viewPointer: UnsafeMutablePointer<GtkTextView> { pointer(as: GtkTextView.self) }

    /// The space above the first line, in pixels.
    public var topMargin: Int {
        get { Int(gtk_text_view_get_top_margin(viewPointer)) }
        set { gtk_text_view_set_top_margin(viewPointer, gint(newValue)) }
    }

    /// The space below the last line, in pixels.
    public var bottomMargin: Int {
        get { Int(gtk_text_view_get_bottom_margin(viewPointer)) }
        set { gtk_text_view_set_bottom_margin(viewPointer, gint(newValue)) }
    }

    /// Pixels between the wrapped lines of one paragraph.
    public var pixelsInsideWrap: Int {
        get { Int(gtk_text_view_get_pixels_inside_wrap(viewPointer)) }
        set { gtk_text_view_set_pixels_inside_wrap(viewPointer, gint(newValue)) }
    }

    /// Pixels below each paragraph (each line of the buffer).
    public var pixelsBelowLines: Int {
        get { Int(gtk_text_view_get_pixels_below_lines(viewPointer)) }
        set { gtk_text_view_set_pixels_below_lines(viewPointer, gint(newValue)) }
    }

    /// The buffer line at the top of the visible part, and how far into it (0 to 1) the view is
    /// scrolled.
    public var topVisibleLine: (line: Int, fraction: Double) {
        var visible = GdkRectangle()
        gtk_text_view_get_visible_rect(viewPointer, &visible)
        var start = GtkTextIter()
        var lineTop: gint = 0
        gtk_text_view_get_line_at_y(viewPointer, &start, visible.y, &lineTop)
        var y: gint = 0
        var height: gint = 0
        gtk_text_view_get_line_yrange(viewPointer, &start, &y, &height)
        let fraction = height > 0 ? min(1, max(0, Double(visible.y - y) / Double(height))) : 0
        return (Int(gtk_text_iter_get_line(&start)), fraction)
    }

    /// Scrolls so that `line` (from 0), `fraction` of the way into it, is at the top of the view.
    /// Returns false when the line is not laid out yet (GTK measures long texts in steps after
    /// the first frame).
    @discardableResult
    public func scroll(toLine line: Int, fraction: Double = 0, in adjustment: Adjustment) -> Bool {
        guard let buffer = gtk_text_view_get_buffer(viewPointer) else { return false }
        var start = GtkTextIter()
        gtk_text_buffer_get_iter_at_line(buffer, &start, gint(max(0, line)))
        var y: gint = 0
        var height: gint = 0
        gtk_text_view_get_line_yrange(viewPointer, &start, &y, &height)
        let target = Double(y) + fraction * Double(height)
        adjustment.value = min(target, max(0, adjustment.upper - adjustment.pageSize))
        return true
    }
}
