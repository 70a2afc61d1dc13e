import CGtk

/// What a spell checker needs of a text view and its buffer: a wavy error underline, the
/// characters a right-click lands on, items of its own in the view's context menu, and where each
/// insertion went.
extension TextBuffer {
    /// Adds a tag that underlines with Pango's wavy error line in `color` (a CSS colour that reads
    /// on light and dark backgrounds alike).
    public func addErrorUnderlineTag(_ name: String, color: String) {
        let tag = Object(owning: UnsafeMutableRawPointer(gtk_text_tag_new(name)))
        tag.setProperty("underline", Int32(PANGO_UNDERLINE_ERROR.rawValue))
        var rgba = GdkRGBA()
        if gdk_rgba_parse(&rgba, color) != 0 {
            var value = GValue()
            g_value_init(&value, gdk_rgba_get_type())
            g_value_set_boxed(&value, &rgba)
            g_object_set_property(tag.objectPointer, "underline-rgba", &value)
            g_value_unset(&value)
        }
        gtk_text_tag_table_add(gtk_text_buffer_get_tag_table(textBufferPointer), tag.pointer(as: GtkTextTag.self))
    }

    /// Calls `handler` after each insertion with the characters it added, however it came
    /// (typed, pasted, undone).
    @discardableResult
    public func onInserted(_ handler: @escaping @MainActor (Range<Int>) -> Void) -> SignalConnection {
        connect(Signal<(UnsafeMutableRawPointer?, String, Int32) -> Void>("insert-text"), after: true) { location, text, _ in
            // After the default handler the iterator sits at the end of the insertion.
            guard let end = location?.assumingMemoryBound(to: GtkTextIter.self).pointee.offset else { return }
            handler(end - text.unicodeScalars.count..<end)
        }
    }

    /// Calls `handler` after each deletion with the offset where the deleted characters were
    /// (however it came: typed, cut, undone, replaced).
    @discardableResult
    public func onDeleted(_ handler: @escaping @MainActor (Int) -> Void) -> SignalConnection {
        connect(Signal<(UnsafeMutableRawPointer?, UnsafeMutableRawPointer?) -> Void>("delete-range"), after: true) { start, _ in
            // After the default handler both iterators sit where the text was.
            guard let offset = start?.assumingMemoryBound(to: GtkTextIter.self).pointee.offset else { return }
            handler(offset)
        }
    }
}

extension TextView {
    /// Items GTK adds to the view's context menu after its own (Cut, Copy, Paste, Select All…).
    public func setExtraMenu(_ menu: MenuModel?) {
        gtk_text_view_set_extra_menu(pointer(as: GtkTextView.self), menu?.pointer(as: GMenuModel.self))
    }

    /// The character offset under a point of the view (widget coordinates), clamped to the text.
    public func offset(atX x: Double, y: Double) -> Int {
        let view = pointer(as: GtkTextView.self)
        var bufferX: Int32 = 0
        var bufferY: Int32 = 0
        gtk_text_view_window_to_buffer_coords(view, GTK_TEXT_WINDOW_WIDGET, Int32(x), Int32(y), &bufferX, &bufferY)
        var iter = GtkTextIter()
        gtk_text_view_get_iter_at_location(view, &iter, bufferX, bufferY)
        return iter.offset
    }

    /// Calls `handler` with the character offset under each secondary (right) click, before the
    /// view opens its context menu there: the moment to change the menu's extra items.
    @discardableResult
    public func onSecondaryClick(_ handler: @escaping @MainActor (Int) -> Void) -> Object {
        // The widget's method of the same base name, which this one's shadows.
        (self as Widget).onSecondaryClick(atPoint: { [weak self] (x: Double, y: Double) in
            guard let self else { return }
            handler(self.offset(atX: x, y: y))
        })
    }
}
