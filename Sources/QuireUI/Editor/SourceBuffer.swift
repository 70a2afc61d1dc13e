import CGtk
import CGtkSource
import GtkKit

/// A `GtkSourceBuffer` holding Markdown: the text of the editor and of the conflict dialog's
/// versions. Positions are character offsets (Unicode scalars), as `GtkTextIter` counts them.
@MainActor
final class SourceBuffer: Object {
    override class var gType: GType { gtk_source_buffer_get_type() }

    /// The instance as a `GtkTextBuffer *`.
    var textBuffer: UnsafeMutablePointer<GtkTextBuffer> { pointer(as: GtkTextBuffer.self) }

    /// The instance as a `GtkSourceBuffer *`.
    var sourceBuffer: UnsafeMutablePointer<GtkSourceBuffer> { pointer(as: GtkSourceBuffer.self) }

    /// The whole text.
    var text: String {
        var start = GtkTextIter()
        var end = GtkTextIter()
        gtk_text_buffer_get_bounds(textBuffer, &start, &end)
        return text(from: start, to: end)
    }

    /// The text between two positions.
    func text(from start: GtkTextIter, to end: GtkTextIter) -> String {
        var start = start
        var end = end
        let characters = gtk_text_buffer_get_text(textBuffer, &start, &end, 1)!
        defer { g_free(characters) }
        return String(cString: characters)
    }

    /// Replaces the whole text outside the undo history (which it clears) and marks the buffer
    /// unmodified: for loading, which is not an edit the writer could undo.
    func load(_ text: String) {
        gtk_text_buffer_begin_irreversible_action(textBuffer)
        Self.withBufferText(text) { gtk_text_buffer_set_text(textBuffer, $0, $1) }
        gtk_text_buffer_end_irreversible_action(textBuffer)
        gtk_text_buffer_set_modified(textBuffer, 0)
        var start = GtkTextIter()
        gtk_text_buffer_get_start_iter(textBuffer, &start)
        gtk_text_buffer_place_cursor(textBuffer, &start)
    }

    /// Replaces the characters in `range` as one undoable action of the writer's.
    func replace(_ range: Range<Int>, with text: String) {
        gtk_text_buffer_begin_user_action(textBuffer)
        var start = iter(at: range.lowerBound)
        var end = iter(at: range.upperBound)
        gtk_text_buffer_delete(textBuffer, &start, &end)
        Self.withBufferText(text) { gtk_text_buffer_insert(textBuffer, &start, $0, $1) }
        gtk_text_buffer_end_user_action(textBuffer)
    }

    /// Calls `body` with `text` as UTF-8 and its byte length. GtkTextBuffer refuses text holding
    /// NUL (it is not valid UTF-8 to GLib, so the whole insertion would be dropped); each NUL
    /// becomes U+FFFD, which keeps every other character and every offset.
    private static func withBufferText<Result>(_ text: String, _ body: (UnsafePointer<CChar>, Int32) -> Result) -> Result {
        let safe = text.utf8.contains(0) ? String(text.unicodeScalars.map { $0 == "\0" ? "\u{FFFD}" : Character($0) }) : text
        return safe.withCString { body($0, Int32(safe.utf8.count)) }
    }

    /// The position at a character offset (clamped to the end).
    func iter(at offset: Int) -> GtkTextIter {
        var iter = GtkTextIter()
        gtk_text_buffer_get_iter_at_offset(textBuffer, &iter, Int32(clamping: offset))
        return iter
    }

    /// The number of characters.
    var characterCount: Int { Int(gtk_text_buffer_get_char_count(textBuffer)) }

    /// The selected characters, or the cursor's position as an empty range.
    var selection: Range<Int> {
        var start = GtkTextIter()
        var end = GtkTextIter()
        gtk_text_buffer_get_selection_bounds(textBuffer, &start, &end)
        return Int(gtk_text_iter_get_offset(&start))..<Int(gtk_text_iter_get_offset(&end))
    }

    /// Selects the characters in `range` (an empty range places the cursor).
    func select(_ range: Range<Int>) {
        var start = iter(at: range.lowerBound)
        var end = iter(at: range.upperBound)
        gtk_text_buffer_select_range(textBuffer, &end, &start)
    }

    // MARK: Undo

    /// Whether there is an edit to undo.
    var canUndo: Bool { gtk_text_buffer_get_can_undo(textBuffer) != 0 }

    /// Whether there is an undone edit to redo.
    var canRedo: Bool { gtk_text_buffer_get_can_redo(textBuffer) != 0 }

    /// Undoes the last edit (one user action: a typed word, a paste, a replace-all).
    func undo() { gtk_text_buffer_undo(textBuffer) }

    /// Redoes the last undone edit.
    func redo() { gtk_text_buffer_redo(textBuffer) }

    // MARK: Tags and marks

    /// Adds a tag that paints whole lines in `background` (a CSS colour); later tags paint over
    /// earlier ones.
    func addLineTag(_ name: String, background: String) {
        let tag = gtk_text_tag_new(name)!
        Object(retaining: UnsafeMutableRawPointer(tag)).setProperty("paragraph-background", background)
        gtk_text_tag_table_add(gtk_text_buffer_get_tag_table(textBuffer), tag)
        g_object_unref(UnsafeMutableRawPointer(tag))
    }

    /// Applies the tag `name` to the characters in `range`.
    func applyTag(_ name: String, to range: Range<Int>) {
        var start = iter(at: range.lowerBound)
        var end = iter(at: range.upperBound)
        gtk_text_buffer_apply_tag_by_name(textBuffer, name, &start, &end)
    }

    /// The character ranges the tag `name` covers, in order.
    func ranges(ofTag name: String) -> [Range<Int>] {
        guard let tag = gtk_text_tag_table_lookup(gtk_text_buffer_get_tag_table(textBuffer), name) else { return [] }
        var ranges: [Range<Int>] = []
        var iter = self.iter(at: 0)
        // From outside the tag, the next toggle is where it starts.
        while gtk_text_iter_starts_tag(&iter, tag) != 0 || gtk_text_iter_forward_to_tag_toggle(&iter, tag) != 0 {
            let start = Int(gtk_text_iter_get_offset(&iter))
            gtk_text_iter_forward_to_tag_toggle(&iter, tag)
            ranges.append(start..<Int(gtk_text_iter_get_offset(&iter)))
        }
        return ranges
    }

    /// A new mark at a character offset. A mark with left gravity stays before text inserted at
    /// its place; one with right gravity moves after it. The buffer owns the mark.
    func addMark(at offset: Int, leftGravity: Bool) -> UnsafeMutablePointer<GtkTextMark> {
        var position = iter(at: offset)
        return gtk_text_buffer_create_mark(textBuffer, nil, &position, leftGravity ? 1 : 0)
    }

    /// The character offset of a mark.
    func offset(of mark: UnsafeMutablePointer<GtkTextMark>) -> Int {
        var position = GtkTextIter()
        gtk_text_buffer_get_iter_at_mark(textBuffer, &position, mark)
        return Int(gtk_text_iter_get_offset(&position))
    }

    // MARK: Highlighting

    /// Highlights Markdown with GtkSourceView's `markdown` language.
    func highlightMarkdown() {
        let language = gtk_source_language_manager_get_language(gtk_source_language_manager_get_default(), "markdown")
        gtk_source_buffer_set_language(sourceBuffer, language)
        gtk_source_buffer_set_highlight_syntax(sourceBuffer, 1)
    }

    /// Uses the `Adwaita` or `Adwaita-dark` style scheme, whichever matches libadwaita's current
    /// light or dark style, now and whenever it changes, until `connections` is released.
    func followStyle(storingIn connections: SignalConnections) {
        let styleManager = Object(retaining: adw_style_manager_get_default())
        applyStyleScheme()
        styleManager.connect(.notify("dark")) { [weak self] _ in self?.applyStyleScheme() }.store(in: connections)
    }

    /// Whether libadwaita currently draws dark.
    static var isDark: Bool { adw_style_manager_get_dark(adw_style_manager_get_default()) != 0 }

    private func applyStyleScheme() {
        let scheme = gtk_source_style_scheme_manager_get_scheme(
            gtk_source_style_scheme_manager_get_default(), Self.isDark ? "Adwaita-dark" : "Adwaita")
        gtk_source_buffer_set_style_scheme(sourceBuffer, scheme)
    }

    /// The background colour of the current scheme's text, as CSS (`#ffffff`), if it sets one.
    var schemeBackground: String? {
        guard let scheme = gtk_source_buffer_get_style_scheme(sourceBuffer),
              let style = gtk_source_style_scheme_get_style(scheme, "text")
        else { return nil }
        let styleObject = Object(retaining: UnsafeMutableRawPointer(style))
        guard styleObject.property("background-set", as: Bool.self) else { return nil }
        return styleObject.property("background", as: String.self)
    }
}
