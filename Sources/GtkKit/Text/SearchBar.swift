import CGtk

/// A `GtkSearchEntry`: an entry for search text, which reports a change after a short pause in
/// typing (``Signal/searchChanged``), and Ctrl+G / Ctrl+Shift+G for the next and previous match.
@MainActor
open class SearchEntry: Widget, Editable {
    open override class var gType: GType { gtk_search_entry_get_type() }

    /// A new, empty search entry.
    public convenience init() {
        self.init(owning: gtk_search_entry_new())
    }

    /// How long the entry waits after a change of its text before it reports it
    /// (``Signal/searchChanged``), in milliseconds; GTK's default is 150. (An emptied entry
    /// reports at once.)
    public var searchDelay: UInt32 {
        get { gtk_search_entry_get_search_delay(opaquePointer) }
        set { gtk_search_entry_set_search_delay(opaquePointer, newValue) }
    }
}

/// A `GtkSearchBar`: a bar that slides in over content for searching it, with a search entry.
///
/// ```swift
/// bar.connect(entry: entry)          // Escape in the entry closes the bar
/// bar.isSearchModeEnabled = true     // shows the bar
/// bar.connect(.notify("search-mode-enabled")) { _ in ... }
/// ```
@MainActor
open class SearchBar: Widget {
    open override class var gType: GType { gtk_search_bar_get_type() }

    /// Whether the bar is shown.
    public var isSearchModeEnabled: Bool {
        get { gtk_search_bar_get_search_mode(opaquePointer) != 0 }
        set { gtk_search_bar_set_search_mode(opaquePointer, newValue ? 1 : 0) }
    }

    /// Makes `entry` the bar's entry: Escape in it closes the bar, and typing while the bar's
    /// window has the focus elsewhere can be sent to it. Keys typed at once after the bar opens
    /// reach the entry, even while its opening animation still hides it.
    public func connect(entry: some Editable) {
        gtk_search_bar_connect_entry(opaquePointer, entry.opaquePointer)
        // Opening gives the entry's text the focus at once, but the animation shows it, and so
        // first realizes it, only in its second frame. GTK 4.8 drops every key on its way to a
        // widget never realized ("Harbour" typed after Ctrl+F searched "arbour"); realized but
        // hidden, the text gets the keys through the bar, which hands them on to its entry.
        // Only in a window on screen: a widget can be realized only after its window (GTK warns
        // otherwise, and the window then realizes it as it shows).
        connect(.notify("search-mode-enabled")) { [weak self, weak entry] _ in
            guard let self, let entry, isSearchModeEnabled else { return }
            let text = Self.text(of: entry)
            guard let window = gtk_widget_get_root(text.widgetPointer),
                gtk_widget_get_realized(UnsafeMutableRawPointer(window).assumingMemoryBound(to: GtkWidget.self)) != 0
            else { return }
            gtk_widget_realize(text.widgetPointer)
        }
        // The bar hands letters on to the hidden entry, but not a space, an arrow or Home: those
        // were lost when typed before the entry was shown. Handed on here the same way.
        KeyController(on: self, handingOn: { [weak self, weak entry] _, handOn in
            guard let self, let entry, isSearchModeEnabled else { return false }
            let text = Self.text(of: entry)
            return !text.isMapped && handOn(text)
        })
    }

    /// The widget inside `entry` that takes the typing (its `GtkText`).
    private static func text(of entry: some Editable) -> Widget {
        gtk_editable_get_delegate(entry.opaquePointer).map { Widget(retaining: UnsafeMutableRawPointer($0)) } ?? entry
    }
}

extension Signal where Handler == () -> Void {
    /// `GtkSearchEntry::search-changed`, after a short pause in typing.
    public static var searchChanged: Self { Self("search-changed") }
    /// `GtkSearchEntry::next-match` (Ctrl+G in the entry).
    public static var nextMatch: Self { Self("next-match") }
    /// `GtkSearchEntry::previous-match` (Ctrl+Shift+G in the entry).
    public static var previousMatch: Self { Self("previous-match") }
}
