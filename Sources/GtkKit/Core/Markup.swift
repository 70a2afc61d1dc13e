import CGtk

/// Pango markup, which labels with `use-markup`, toast titles and message-dialog bodies with
/// `body-use-markup` read.
public enum Markup {
    /// `text` with `<`, `>`, `&`, quotes escaped, so that it shows as written.
    public static func escape(_ text: String) -> String {
        let escaped = g_markup_escape_text(text, -1)!
        defer { g_free(escaped) }
        return String(cString: escaped)
    }
}
