import CGtk

/// Lines, grouped edits and character tags of a ``TextBuffer``: what Markdown editing aids,
/// scroll sync and paragraph dimming work with. Lines count from 0, offsets in characters.
extension TextBuffer {
    /// The number of lines (an empty buffer has one).
    public var lineCount: Int { Int(gtk_text_buffer_get_line_count(textBufferPointer)) }

    /// The line holding the character at `offset`.
    public func line(at offset: Int) -> Int {
        var position = iter(at: offset)
        return Int(gtk_text_iter_get_line(&position))
    }

    /// The offset where `line` starts (the end of the text past the last line).
    public func offset(ofLine line: Int) -> Int {
        guard line < lineCount else { return characterCount }
        var position = GtkTextIter()
        gtk_text_buffer_get_iter_at_line(textBufferPointer, &position, gint(max(0, line)))
        return position.offset
    }

    /// The characters of `line` without its line break.
    public func lineRange(_ line: Int) -> Range<Int> {
        let start = offset(ofLine: line)
        var end = iter(at: start)
        if gtk_text_iter_ends_line(&end) == 0 { gtk_text_iter_forward_to_line_end(&end) }
        return start..<end.offset
    }

    /// Runs `edits` as one step of the undo history, as one key press of the writer's.
    public func asOneUserAction(_ edits: () -> Void) {
        gtk_text_buffer_begin_user_action(textBufferPointer)
        edits()
        gtk_text_buffer_end_user_action(textBufferPointer)
    }

    /// Adds a tag that paints text in `foreground` (a CSS colour) above every other tag, the
    /// highlighting's included.
    public func addForegroundTag(_ name: String, foreground: String) {
        let tag = Object(owning: UnsafeMutableRawPointer(gtk_text_tag_new(name)))
        tag.setProperty("foreground", foreground)
        let table = gtk_text_buffer_get_tag_table(textBufferPointer)
        gtk_text_tag_table_add(table, tag.pointer(as: GtkTextTag.self))
        gtk_text_tag_set_priority(tag.pointer(as: GtkTextTag.self), gtk_text_tag_table_get_size(table) - 1)
    }

    /// Changes the colour of a tag added with ``addForegroundTag(_:foreground:)``.
    public func setForeground(_ foreground: String, ofTag name: String) {
        guard let tag = gtk_text_tag_table_lookup(gtk_text_buffer_get_tag_table(textBufferPointer), name) else { return }
        Object(retaining: UnsafeMutableRawPointer(tag)).setProperty("foreground", foreground)
    }

    /// Keeps the tag `name` above the tags added since (GtkSourceView adds highlighting tags
    /// as it meets new kinds of text).
    public func raiseTag(_ name: String) {
        let table = gtk_text_buffer_get_tag_table(textBufferPointer)
        guard let tag = gtk_text_tag_table_lookup(table, name) else { return }
        gtk_text_tag_set_priority(tag, gtk_text_tag_table_get_size(table) - 1)
    }

    /// Removes the tag `name` from the characters in `range`.
    public func removeTag(_ name: String, from range: Range<Int>) {
        var start = iter(at: range.lowerBound)
        var end = iter(at: range.upperBound)
        gtk_text_buffer_remove_tag_by_name(textBufferPointer, name, &start, &end)
    }
}
