import CGtkSource
import GtkKit

/// A `GtkSourceBuffer` holding Markdown: the text of the editor and of the conflict dialog's
/// versions. What any text buffer does (text, undo, tags, marks) is GtkKit's ``TextBuffer``;
/// this adds what GtkSourceView does: Markdown highlighting in a style scheme that follows
/// libadwaita's light or dark style.
///
/// GtkSourceView is the one C library QuireUI calls itself (here and in ``EditorSearch``):
/// wrapping it in GtkKit would move these few calls without making them typed anywhere else.
@MainActor
final class SourceBuffer: TextBuffer {
    override class var gType: GType { gtk_source_buffer_get_type() }

    /// Registers GtkSourceView's types, so that builder files can hold `GtkSourceView` and
    /// `GtkSourceBuffer` objects. Later calls do nothing.
    static func registerTypes() {
        gtk_source_init()
    }

    /// The instance as a `GtkSourceBuffer *`.
    var sourceBuffer: UnsafeMutablePointer<GtkSourceBuffer> { pointer(as: GtkSourceBuffer.self) }

    /// Highlights Markdown with GtkSourceView's `markdown` language. Costly only the first time in
    /// the process (the language file is parsed); again on the same buffer it changes nothing.
    func highlightMarkdown() {
        let language = gtk_source_language_manager_get_language(gtk_source_language_manager_get_default(), "markdown")
        guard gtk_source_buffer_get_language(sourceBuffer) != language else { return }
        gtk_source_buffer_set_language(sourceBuffer, language)
        gtk_source_buffer_set_highlight_syntax(sourceBuffer, 1)
    }

    /// Uses the `Adwaita` or `Adwaita-dark` style scheme, whichever matches libadwaita's current
    /// light or dark style, now and whenever it changes, until `connections` is released.
    func followStyle(storingIn connections: SignalConnections) {
        applyStyleScheme()
        StyleManager.shared.connect(.notify("dark")) { [weak self] _ in self?.applyStyleScheme() }.store(in: connections)
    }

    private func applyStyleScheme() {
        let scheme = gtk_source_style_scheme_manager_get_scheme(
            gtk_source_style_scheme_manager_get_default(), StyleManager.shared.isDark ? "Adwaita-dark" : "Adwaita")
        gtk_source_buffer_set_style_scheme(sourceBuffer, scheme)
    }

    /// The id of the language highlighted (`markdown`), nil for none.
    var languageID: String? {
        gtk_source_buffer_get_language(sourceBuffer).flatMap { gtk_source_language_get_id($0) }.map { String(cString: $0) }
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
