import CGtk

/// A `GtkTextView`: shows and edits a ``TextBuffer`` (a `GtkSourceView` is one too).
@MainActor
open class TextView: Widget {
    open override class var gType: GType { gtk_text_view_get_type() }

    private var textViewPointer: UnsafeMutablePointer<GtkTextView> { pointer(as: GtkTextView.self) }

    /// Whether the writer can change the text (selecting and copying work either way).
    public var isEditable: Bool {
        get { gtk_text_view_get_editable(textViewPointer) != 0 }
        set { gtk_text_view_set_editable(textViewPointer, newValue ? 1 : 0) }
    }

    /// The space left of the text, in pixels.
    public var leftMargin: Int {
        get { Int(gtk_text_view_get_left_margin(textViewPointer)) }
        set { gtk_text_view_set_left_margin(textViewPointer, gint(newValue)) }
    }

    /// The space right of the text, in pixels.
    public var rightMargin: Int {
        get { Int(gtk_text_view_get_right_margin(textViewPointer)) }
        set { gtk_text_view_set_right_margin(textViewPointer, gint(newValue)) }
    }

    /// Scrolls so that `mark` is on screen, at least `margin` (a fraction of the view's size) from
    /// the edges. With `alignment` (x and y from 0 to 1) the mark goes to that place in the view
    /// instead, as far as the text allows. Works before the text is laid out: the view scrolls
    /// once its lines are measured.
    public func scroll(to mark: TextMark, margin: Double = 0, alignment: (x: Double, y: Double)? = nil) {
        gtk_text_view_scroll_to_mark(
            textViewPointer, mark.markPointer, margin, alignment == nil ? 0 : 1, alignment?.x ?? 0, alignment?.y ?? 0)
    }
}
