import CGtk

/// Widgets drawn over a ``TextView``'s text without being part of it (the buffer's text stays the
/// writer's; no U+FFFC anchor), such as a thumbnail below a line: room left below the line with a
/// tag (``TextBuffer/addSpaceBelowTag(_:pixels:)``) and the widget placed there, in buffer
/// coordinates, so that it scrolls with the text. The owner moves it when the line moves.
///
/// A child stays until the view goes: GTK 4.8's `gtk_text_view_remove` knows only children
/// anchored in the text, and for one placed over it warns "… is not a child of …" and keeps it
/// (later GTK removes it). So an owner hides a child it no longer needs and shows it again for the
/// next use (a ``Picture`` takes another texture with ``Picture/setTexture(_:)``).
extension TextView {
    private var overlayViewPointer: UnsafeMutablePointer<GtkTextView> { pointer(as: GtkTextView.self) }

    /// Places `child` over the text with its top left corner at `x`, `y` (buffer coordinates).
    public func addOverlay(_ child: Widget, x: Int, y: Int) {
        gtk_text_view_add_overlay(overlayViewPointer, child.widgetPointer, gint(x), gint(y))
    }

    /// Moves a child added with ``addOverlay(_:x:y:)``.
    public func moveOverlay(_ child: Widget, x: Int, y: Int) {
        gtk_text_view_move_overlay(overlayViewPointer, child.widgetPointer, gint(x), gint(y))
    }

    /// The top and the height of the line holding the character at `offset`, in buffer
    /// coordinates: the whole paragraph, its wrapped lines and the space above and below it
    /// included (as far as GTK has laid it out).
    public func verticalExtent(ofLineAt offset: Int) -> (y: Int, height: Int) {
        guard let buffer = gtk_text_view_get_buffer(overlayViewPointer) else { return (0, 0) }
        var position = GtkTextIter()
        gtk_text_buffer_get_iter_at_offset(buffer, &position, gint(offset))
        var y: gint = 0
        var height: gint = 0
        gtk_text_view_get_line_yrange(overlayViewPointer, &position, &y, &height)
        return (Int(y), Int(height))
    }

    /// Where the character at `offset` starts, in buffer coordinates.
    public func left(ofCharacterAt offset: Int) -> Int {
        guard let buffer = gtk_text_view_get_buffer(overlayViewPointer) else { return 0 }
        var position = GtkTextIter()
        gtk_text_buffer_get_iter_at_offset(buffer, &position, gint(offset))
        var location = GdkRectangle()
        gtk_text_view_get_iter_location(overlayViewPointer, &position, &location)
        return Int(location.x)
    }

    /// The view's vertical scrolling, whose range changes whenever the laid-out text grows or
    /// shrinks (nil before the view is put in a scrolled window).
    public var verticalAdjustment: Adjustment? {
        gtk_scrollable_get_vadjustment(opaquePointer).map { Adjustment(retaining: UnsafeMutableRawPointer($0)) }
    }
}

extension TextBuffer {
    /// Adds a tag that leaves `pixels` of blank space below the paragraphs it covers (GTK reads
    /// it from the tags at a paragraph's start): room for a widget placed over the text.
    public func addSpaceBelowTag(_ name: String, pixels: Int) {
        let tag = Object(owning: UnsafeMutableRawPointer(gtk_text_tag_new(name)))
        tag.setProperty("pixels-below-lines", Int32(pixels))
        gtk_text_tag_table_add(gtk_text_buffer_get_tag_table(textBufferPointer), tag.pointer(as: GtkTextTag.self))
    }
}
