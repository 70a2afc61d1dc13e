import CGtk

/// An `AdwPreferencesWindow`: pages of preferences under a view switcher.
@MainActor
open class PreferencesWindow: Window {
    open override class var gType: GType { adw_preferences_window_get_type() }

    private var preferencesPointer: UnsafeMutablePointer<AdwPreferencesWindow> { pointer(as: AdwPreferencesWindow.self) }

    /// Adds `page` after the pages it has.
    public func add(_ page: PreferencesPage) {
        adw_preferences_window_add(preferencesPointer, page.pointer(as: AdwPreferencesPage.self))
    }

    /// Whether the window offers a search of its rows (Ctrl+F, a search button). Without it
    /// the search's entry and result pages can never be shown, but GTK 4.8 presents them to
    /// screen readers (all pages of a stack are presented): they are hidden from them.
    public var isSearchEnabled: Bool {
        get { adw_preferences_window_get_search_enabled(preferencesPointer) != 0 }
        set {
            adw_preferences_window_set_search_enabled(preferencesPointer, newValue ? 1 : 0)
            // libadwaita names the search's stack pages "search" (in the title and the content).
            for stack in descendants(ofType: gtk_stack_get_type()) {
                guard let search = gtk_stack_get_child_by_name(OpaquePointer(stack.widgetPointer), "search") else { continue }
                Widget(retaining: search).setHiddenFromScreenReaders(!newValue)
            }
        }
    }

    /// Shows the window, its parts libadwaita makes named for a screen reader first: each
    /// page's scrolling area by the page's title, and a password row's reveal button by its
    /// tooltip ("Show Text"), which GTK 4.8 would call "GtkImage".
    open override func present() {
        for page in descendants(ofType: PreferencesPage.self) {
            page.descendants(ofType: gtk_scrolled_window_get_type()).first?.setAccessibleLabel(page.title)
        }
        for row in descendants(ofType: PasswordEntryRow.self) {
            for button in row.descendants(ofType: gtk_button_get_type()) { button.nameByTooltip() }
        }
        super.present()
    }

    /// The page shown.
    public var visiblePage: Widget? {
        get { adw_preferences_window_get_visible_page(preferencesPointer).map { Widget(retaining: $0) } }
        set {
            guard let newValue else { return }
            adw_preferences_window_set_visible_page(preferencesPointer, newValue.pointer(as: AdwPreferencesPage.self))
        }
    }
}

/// An `AdwPreferencesPage`: one page of a ``PreferencesWindow``, of ``PreferencesGroup``s.
@MainActor
open class PreferencesPage: Widget {
    open override class var gType: GType { adw_preferences_page_get_type() }

    /// The title its tab shows.
    public var title: String {
        adw_preferences_page_get_title(pointer(as: AdwPreferencesPage.self)).map { String(cString: $0) } ?? ""
    }
}
