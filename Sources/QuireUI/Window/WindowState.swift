import GtkKit

/// The window geometry Quire remembers between runs, in the GSettings keys `window-width`,
/// `window-height` and `window-maximized`.
struct WindowState: Equatable {
    var width: Int32
    var height: Int32
    var isMaximized: Bool

    /// The state saved in `settings`.
    @MainActor
    init(settings: Settings) {
        width = settings.int(forKey: "window-width")
        height = settings.int(forKey: "window-height")
        isMaximized = settings.bool(forKey: "window-maximized")
    }

    /// The state of `window` now. Its default size is its size when not maximized, which is
    /// what the next run should open with.
    @MainActor
    init(window: Window) {
        width = Int32(window.defaultSize.width)
        height = Int32(window.defaultSize.height)
        isMaximized = window.isMaximized
    }

    @MainActor
    func save(to settings: Settings) {
        settings.set(width, forKey: "window-width")
        settings.set(height, forKey: "window-height")
        settings.set(isMaximized, forKey: "window-maximized")
    }

    /// Sizes `window` before it is shown.
    @MainActor
    func apply(to window: Window) {
        window.defaultSize = (Int(width), Int(height))
        if isMaximized { window.maximize() }
    }
}
