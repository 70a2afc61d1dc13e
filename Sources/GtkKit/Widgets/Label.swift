import CGtk

/// A `GtkLabel`: text the writer reads.
///
/// ```swift
/// let count = Label("12")
/// count.setStyleClass("dim-label", on: true)
/// status.text = "Saved"
/// ```
@MainActor
open class Label: Widget {
    open override class var gType: GType { gtk_label_get_type() }

    /// A new label showing `text` as written (not as markup).
    public convenience init(_ text: String = "") {
        self.init(owning: gtk_label_new(text))
    }

    private var labelPointer: OpaquePointer { opaquePointer }

    /// The text as set (markup included when ``usesMarkup``).
    public var text: String {
        get { String(cString: gtk_label_get_label(labelPointer)) }
        set { gtk_label_set_label(labelPointer, newValue) }
    }

    /// Whether ``text`` is Pango markup.
    public var usesMarkup: Bool {
        get { gtk_label_get_use_markup(labelPointer) != 0 }
        set { gtk_label_set_use_markup(labelPointer, newValue ? 1 : 0) }
    }

    /// Where the text sits in the label's width: 0 at the start, 0.5 centred, 1 at the end.
    public var horizontalAlignment: Double {
        get { Double(gtk_label_get_xalign(labelPointer)) }
        set { gtk_label_set_xalign(labelPointer, Float(newValue)) }
    }

    /// Whether text too long for the label ends in "…" instead of asking for more width.
    public var ellipsizesAtEnd: Bool {
        get { gtk_label_get_ellipsize(labelPointer) == PANGO_ELLIPSIZE_END }
        set { gtk_label_set_ellipsize(labelPointer, newValue ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE) }
    }

    /// Whether long text wraps onto further lines.
    public var wraps: Bool {
        get { gtk_label_get_wrap(labelPointer) != 0 }
        set { gtk_label_set_wrap(labelPointer, newValue ? 1 : 0) }
    }

    /// Whether wrapping may break inside a word that does not fit a line on its own (a long
    /// URL), rather than only between words.
    public var wrapsInsideWords: Bool {
        get { gtk_label_get_wrap_mode(labelPointer) == PANGO_WRAP_WORD_CHAR }
        set { gtk_label_set_wrap_mode(labelPointer, newValue ? PANGO_WRAP_WORD_CHAR : PANGO_WRAP_WORD) }
    }

    /// The most lines a wrapped, ellipsized label shows; -1 for no limit.
    public var maximumLines: Int {
        get { Int(gtk_label_get_lines(labelPointer)) }
        set { gtk_label_set_lines(labelPointer, gint(newValue)) }
    }

    /// The widest the label asks to be, in characters; -1 for no limit.
    public var maximumWidthInCharacters: Int {
        get { Int(gtk_label_get_max_width_chars(labelPointer)) }
        set { gtk_label_set_max_width_chars(labelPointer, gint(newValue)) }
    }

    /// Whether the writer can select (and copy) the text.
    public var isSelectable: Bool {
        get { gtk_label_get_selectable(labelPointer) != 0 }
        set { gtk_label_set_selectable(labelPointer, newValue ? 1 : 0) }
    }

    /// Shows `message` (styled as an error when `isError`), or hides the label for nil: a note
    /// under a form that comes and goes.
    public func showMessage(_ message: String?, isError: Bool = false) {
        isVisible = message != nil
        text = message ?? ""
        setStyleClass("error", on: isError)
    }
}
