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
}
