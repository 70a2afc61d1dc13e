import CGtk

/// GTK and libadwaita, initialized once per process.
///
/// ``Application`` initializes GTK itself when it starts up; code that creates widgets without
/// an application (tests, tools rendering a widget) calls ``initialize()`` first. Command-line
/// verbs never do: GTK needs a display.
public enum GtkRuntime {
    /// Why GTK could not start.
    public enum Failure: Error, CustomStringConvertible {
        /// No display could be opened (no `DISPLAY` or `WAYLAND_DISPLAY`, or the server refused).
        case noDisplay

        public var description: String {
            "GTK cannot open a display; run under a desktop session or xvfb-run"
        }
    }

    /// Initializes GTK and libadwaita. Later calls do nothing.
    @MainActor
    public static func initialize() throws(Failure) {
        guard gtk_init_check() != 0 else { throw .noDisplay }
        adw_init()
    }
}
