import GtkKit

/// Quire's main window: a header bar with the primary menu above the window's content.
///
/// The window's size and maximized state are restored from GSettings when it opens and saved
/// when it closes.
@MainActor
public final class MainWindow {
    /// The window, from `main-window.ui`.
    public let window: ApplicationWindow
    /// The primary menu (Keyboard Shortcuts, About Quire, Quit).
    public let primaryMenu: MenuModel
    private let settings: Settings?

    /// Builds the window and adds it to `application`. With `settings` nil (no installed schema)
    /// the window opens at its built-in size and nothing is remembered.
    public init(application: Application, settings: Settings?) throws {
        let builder = try Builder(resource: Quire.resourcePath + "window/main-window.ui")
        window = try builder.object("window", as: ApplicationWindow.self)
        primaryMenu = try builder.object("primary_menu", as: MenuModel.self)
        self.settings = settings

        if let settings { WindowState(settings: settings).apply(to: window) }
        window.application = application
        window.connect(.closeRequest) { [weak self] in
            self?.saveState()
            return false
        }
        // GTK holds the window until it is destroyed; the window holds this controller until then.
        window.keepAlive(self)
    }

    /// Shows the window and brings it to the front.
    public func present() {
        window.present()
    }

    private func saveState() {
        guard let settings else { return }
        WindowState(window: window).save(to: settings)
    }
}
