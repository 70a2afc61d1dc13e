import GtkKit

/// The About Quire window (`about-window.ui`), with the version from ``Quire/version``.
@MainActor
enum AboutWindow {
    /// Opens a new About window as a dialog of `parent`.
    @discardableResult
    static func present(over parent: Window?) throws -> Window {
        let builder = try Builder(resource: Quire.resourcePath + "about/about-window.ui")
        let window = try builder.object("about_window", as: Window.self)
        window.setProperty("version", Quire.version)
        window.transientFor = parent
        window.present()
        return window
    }
}
