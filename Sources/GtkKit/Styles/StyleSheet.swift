import CGtk

/// CSS for every widget of the default display, loaded from a registered GResource, such as a
/// feature's `editor.css` beside its `.ui` file.
///
/// ```swift
/// StyleSheet.addToDisplay(resource: Quire.resourcePath + "editor/editor.css")
/// ```
@MainActor
public enum StyleSheet {
    /// The providers added so far, by resource path; GTK keeps its own reference to each.
    private static var added: Set<String> = []

    /// Adds the style sheet at `path` with application priority. Later calls with the same path do
    /// nothing. A syntax error in the file is a programming error that GTK reports as a warning.
    public static func addToDisplay(resource path: String) {
        guard !added.contains(path), let display = gdk_display_get_default() else { return }
        let provider = gtk_css_provider_new()
        gtk_css_provider_load_from_resource(provider, path)
        gtk_style_context_add_provider_for_display(
            display, OpaquePointer(provider), guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        g_object_unref(provider)
        added.insert(path)
    }
}
