import CGtk

/// A `GtkTextBuffer`: the text of a ``TextView``, with its undo history, tags and marks.
/// Positions are character offsets (Unicode scalars), as `GtkTextIter` counts them.
///
/// ```swift
/// buffer.load(article.body)                        // not undoable, cursor at the start
/// buffer.replace(10..<14, with: "tide")            // one undoable edit
/// buffer.addLineTag("changed", background: "rgba(53, 132, 228, 0.16)")
/// buffer.applyTag("changed", to: 0..<20)
/// ```
///
/// A `GtkSourceBuffer` is one too: subclass it for what GtkSourceView adds.
@MainActor
open class TextBuffer: Object {
    open override class var gType: GType { gtk_text_buffer_get_type() }

    /// The instance as a `GtkTextBuffer *`.
    public var textBufferPointer: UnsafeMutablePointer<GtkTextBuffer> { pointer(as: GtkTextBuffer.self) }

    /// The whole text.
    public var text: String {
        var start = GtkTextIter()
        var end = GtkTextIter()
        gtk_text_buffer_get_bounds(textBufferPointer, &start, &end)
        return text(from: start, to: end)
    }

    /// The characters in `range`.
    public func text(in range: Range<Int>) -> String {
        text(from: iter(at: range.lowerBound), to: iter(at: range.upperBound))
    }

    private func text(from start: GtkTextIter, to end: GtkTextIter) -> String {
        var start = start
        var end = end
        let characters = gtk_text_buffer_get_text(textBufferPointer, &start, &end, 1)!
        defer { g_free(characters) }
        return String(cString: characters)
    }

    /// Replaces the whole text outside the undo history (which it clears) and marks the buffer
    /// unmodified, with the cursor at the start: for loading, which is not an edit the writer
    /// could undo.
    public func load(_ text: String) {
        gtk_text_buffer_begin_irreversible_action(textBufferPointer)
        Self.withBufferText(text) { gtk_text_buffer_set_text(textBufferPointer, $0, $1) }
        gtk_text_buffer_end_irreversible_action(textBufferPointer)
        gtk_text_buffer_set_modified(textBufferPointer, 0)
        var start = GtkTextIter()
        gtk_text_buffer_get_start_iter(textBufferPointer, &start)
        gtk_text_buffer_place_cursor(textBufferPointer, &start)
    }

    /// Replaces the characters in `range` as one undoable action of the writer's.
    public func replace(_ range: Range<Int>, with text: String) {
        gtk_text_buffer_begin_user_action(textBufferPointer)
        var start = iter(at: range.lowerBound)
        var end = iter(at: range.upperBound)
        gtk_text_buffer_delete(textBufferPointer, &start, &end)
        Self.withBufferText(text) { gtk_text_buffer_insert(textBufferPointer, &start, $0, $1) }
        gtk_text_buffer_end_user_action(textBufferPointer)
    }

    /// Inserts `text` at the cursor, as typing or pasting it would.
    public func insertAtCursor(_ text: String) {
        Self.withBufferText(text) { gtk_text_buffer_insert_at_cursor(textBufferPointer, $0, $1) }
    }

    /// Rewrites text before the buffer takes it, however it comes: typed, pasted, dropped or
    /// loaded. Text that `rewrite` returns unchanged is inserted as it is; otherwise the rewritten
    /// text is inserted in its place, in the same undo step. `rewrite` must leave its own output
    /// unchanged (it sees that insertion too).
    ///
    /// ```swift
    /// titleBuffer.rewriteInsertions { $0.replacingOccurrences(of: "\n", with: " ") }
    /// ```
    public func rewriteInsertions(_ rewrite: @escaping @MainActor (String) -> String) {
        connect(Signal<(UnsafeMutableRawPointer?, String, Int32) -> Void>("insert-text")) { [weak self] location, text, _ in
            guard let self, let location else { return }
            let rewritten = rewrite(text)
            guard rewritten != text else { return }
            // Instead of the default handler: inserting at the signal's own iterator revalidates
            // it to the end of the insertion, as the default handler would, for the caller.
            g_signal_stop_emission_by_name(objectPointer, "insert-text")
            let iterator = location.assumingMemoryBound(to: GtkTextIter.self)
            Self.withBufferText(rewritten) { gtk_text_buffer_insert(textBufferPointer, iterator, $0, $1) }
        }
    }

    /// Calls `body` with `text` as UTF-8 and its byte length. GtkTextBuffer refuses text holding
    /// NUL (it is not valid UTF-8 to GLib, so the whole insertion would be dropped); each NUL
    /// becomes U+FFFD, which keeps every other character and every offset.
    private static func withBufferText<Result>(_ text: String, _ body: (UnsafePointer<CChar>, Int32) -> Result) -> Result {
        let safe = text.utf8.contains(0) ? String(text.unicodeScalars.map { $0 == "\0" ? "\u{FFFD}" : Character($0) }) : text
        return safe.withCString { body($0, Int32(safe.utf8.count)) }
    }

    /// The position at a character offset (clamped to the end), for C functions that take a
    /// `GtkTextIter` (GtkSourceView's search, for one). ``GtkTextIter/offset`` reads it back.
    public func iter(at offset: Int) -> GtkTextIter {
        var iter = GtkTextIter()
        gtk_text_buffer_get_iter_at_offset(textBufferPointer, &iter, Int32(clamping: offset))
        return iter
    }

    /// The number of characters.
    public var characterCount: Int { Int(gtk_text_buffer_get_char_count(textBufferPointer)) }

    /// The selected characters, or the cursor's position as an empty range.
    public var selection: Range<Int> {
        var start = GtkTextIter()
        var end = GtkTextIter()
        gtk_text_buffer_get_selection_bounds(textBufferPointer, &start, &end)
        return start.offset..<end.offset
    }

    /// Selects the characters in `range` (an empty range places the cursor).
    public func select(_ range: Range<Int>) {
        var start = iter(at: range.lowerBound)
        var end = iter(at: range.upperBound)
        gtk_text_buffer_select_range(textBufferPointer, &end, &start)
    }

    // MARK: Undo

    /// Whether there is an edit to undo.
    public var canUndo: Bool { gtk_text_buffer_get_can_undo(textBufferPointer) != 0 }

    /// Whether there is an undone edit to redo.
    public var canRedo: Bool { gtk_text_buffer_get_can_redo(textBufferPointer) != 0 }

    /// Undoes the last edit (one user action: a typed word, a paste, a replace-all).
    public func undo() { gtk_text_buffer_undo(textBufferPointer) }

    /// Redoes the last undone edit.
    public func redo() { gtk_text_buffer_redo(textBufferPointer) }

    // MARK: Tags

    /// Adds a tag that paints whole lines in `background` (a CSS colour); later tags paint over
    /// earlier ones.
    public func addLineTag(_ name: String, background: String) {
        let tag = Object(owning: UnsafeMutableRawPointer(gtk_text_tag_new(name)))
        tag.setProperty("paragraph-background", background)
        gtk_text_tag_table_add(gtk_text_buffer_get_tag_table(textBufferPointer), tag.pointer(as: GtkTextTag.self))
    }

    /// Adds a tag that paints the characters it covers in `background` (a CSS colour): the words
    /// that differ, inside lines a line tag paints.
    public func addCharacterTag(_ name: String, background: String) {
        let tag = Object(owning: UnsafeMutableRawPointer(gtk_text_tag_new(name)))
        tag.setProperty("background", background)
        gtk_text_tag_table_add(gtk_text_buffer_get_tag_table(textBufferPointer), tag.pointer(as: GtkTextTag.self))
    }

    /// Adds a tag that draws the characters it covers smaller (`scale`, 1 is the text's size) and
    /// in `foreground` (a CSS colour): text the writer need not read, beside what matters.
    public func addQuietTag(_ name: String, foreground: String, scale: Double) {
        let tag = Object(owning: UnsafeMutableRawPointer(gtk_text_tag_new(name)))
        tag.setProperty("foreground", foreground)
        tag.setProperty("scale", scale)
        gtk_text_tag_table_add(gtk_text_buffer_get_tag_table(textBufferPointer), tag.pointer(as: GtkTextTag.self))
    }

    /// Applies the tag `name` to the characters in `range`.
    public func applyTag(_ name: String, to range: Range<Int>) {
        var start = iter(at: range.lowerBound)
        var end = iter(at: range.upperBound)
        gtk_text_buffer_apply_tag_by_name(textBufferPointer, name, &start, &end)
    }

    /// The character ranges the tag `name` covers, in order.
    public func ranges(ofTag name: String) -> [Range<Int>] {
        guard let tag = gtk_text_tag_table_lookup(gtk_text_buffer_get_tag_table(textBufferPointer), name) else { return [] }
        var ranges: [Range<Int>] = []
        var iter = self.iter(at: 0)
        // From outside the tag, the next toggle is where it starts.
        while gtk_text_iter_starts_tag(&iter, tag) != 0 || gtk_text_iter_forward_to_tag_toggle(&iter, tag) != 0 {
            let start = iter.offset
            gtk_text_iter_forward_to_tag_toggle(&iter, tag)
            ranges.append(start..<iter.offset)
        }
        return ranges
    }

    // MARK: Marks

    /// A new mark at a character offset. A mark with left gravity stays before text inserted at
    /// its place; one with right gravity moves after it.
    public func addMark(at offset: Int, leftGravity: Bool) -> TextMark {
        var position = iter(at: offset)
        // The buffer owns the mark (transfer none); the wrapper adds its own reference.
        return TextMark(retaining: gtk_text_buffer_create_mark(textBufferPointer, nil, &position, leftGravity ? 1 : 0))
    }

    /// Moves `mark` to a character offset.
    public func move(_ mark: TextMark, to offset: Int) {
        var position = iter(at: offset)
        gtk_text_buffer_move_mark(textBufferPointer, mark.markPointer, &position)
    }

    /// The character offset of a mark.
    public func offset(of mark: TextMark) -> Int {
        var position = GtkTextIter()
        gtk_text_buffer_get_iter_at_mark(textBufferPointer, &position, mark.markPointer)
        return position.offset
    }

    /// The mark at the cursor (GTK's `insert` mark), which moves with it.
    public var cursorMark: TextMark { TextMark(retaining: gtk_text_buffer_get_insert(textBufferPointer)) }
}

/// A `GtkTextMark`: a place in a ``TextBuffer`` that stays with its text while text around it
/// changes.
@MainActor
public final class TextMark: Object {
    public override class var gType: GType { gtk_text_mark_get_type() }

    /// The instance as a `GtkTextMark *`.
    var markPointer: UnsafeMutablePointer<GtkTextMark> { pointer(as: GtkTextMark.self) }
}

extension GtkTextIter {
    /// The character offset of the position (for an iterator a C function filled in).
    public var offset: Int {
        var iter = self
        return Int(gtk_text_iter_get_offset(&iter))
    }
}
