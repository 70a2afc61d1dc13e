import CGtk

/// A `GtkCssProvider`: CSS for the widgets of the default display, loaded from a registered
/// GResource (a feature's `editor.css` beside its `.ui` file), or for one widget, loaded from a
/// string that changes while the app runs (a colour that follows the style scheme).
///
/// ```swift
/// StyleSheet.addToDisplay(resource: Quire.resourcePath + "editor/editor.css")
///
/// let background = StyleSheet()
/// pane.add(background)
/// background.load(css: ".quire-editor-pane { background-color: #ffffff; }")
/// ```
@MainActor
public final class StyleSheet: Object {
    public override class var gType: GType { gtk_css_provider_get_type() }

    /// An empty style sheet.
    public convenience init() {
        self.init(owning: UnsafeMutableRawPointer(gtk_css_provider_new()))
    }

    /// Replaces the style sheet's rules with `css`. A syntax error is a programming error that GTK
    /// reports as a warning.
    public func load(css: String) {
        gtk_css_provider_load_from_data(pointer(as: GtkCssProvider.self), css, -1)
    }

    /// The style sheets added to the display so far, by resource path; GTK keeps its own
    /// reference to each.
    private static var added: Set<String> = []

    /// Adds the style sheet at `path` to every widget of the default display, with application
    /// priority. Later calls with the same path do nothing.
    public static func addToDisplay(resource path: String) {
        guard !added.contains(path), let display = gdk_display_get_default() else { return }
        let provider = StyleSheet()
        gtk_css_provider_load_from_resource(provider.pointer(as: GtkCssProvider.self), path)
        gtk_style_context_add_provider_for_display(
            display, provider.opaquePointer, guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
        added.insert(path)
    }
}

extension Widget {
    /// Applies `styleSheet` to this widget (not its children), with application priority, for
    /// as long as the widget exists; later changes of the sheet apply at once.
    public func add(_ styleSheet: StyleSheet) {
        gtk_style_context_add_provider(
            gtk_widget_get_style_context(widgetPointer), styleSheet.opaquePointer,
            guint(GTK_STYLE_PROVIDER_PRIORITY_APPLICATION))
    }
}
