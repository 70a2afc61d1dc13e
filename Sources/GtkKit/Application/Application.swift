import CGtk

/// An `AdwApplication`: the process's GTK application, its `app.NAME` actions and their
/// keyboard shortcuts.
///
/// ```swift
/// let application = Application(id: "org.quire.Quire")
/// application.connect(.activate) { [weak window] in window?.present() }
/// application.addAction("quit", accelerators: ["<Control>q"]) { [weak application] in application?.quit() }
/// exit(application.run())
/// ```
///
/// Unless ``Flags/nonUnique`` is given, a second process started with the same id hands its
/// activation to the first over D-Bus and exits.
@MainActor
public final class Application: Object, ActionMap {
    /// How the application behaves as a process (a subset of `GApplicationFlags`).
    public struct Flags: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// Every process runs on its own instead of handing over to a running one (tests).
        public static let nonUnique = Flags(rawValue: G_APPLICATION_NON_UNIQUE.rawValue)
    }

    public override class var gType: GType { adw_application_get_type() }

    /// A new application with a reverse-DNS id such as `org.quire.Quire`.
    public convenience init(id: String, flags: Flags = []) {
        self.init(owning: adw_application_new(id, GApplicationFlags(rawValue: flags.rawValue)))
    }

    private var applicationPointer: UnsafeMutablePointer<GApplication> { pointer(as: GApplication.self) }
    private var gtkApplicationPointer: UnsafeMutablePointer<GtkApplication> { pointer(as: GtkApplication.self) }

    /// The application id.
    public var id: String { String(cString: g_application_get_application_id(applicationPointer)) }

    /// Runs the application until it quits or its last window closes, and returns the exit
    /// status. GApplication parses its own options from `arguments` (the first is the program).
    /// Installs the ``MainLoopBridge`` first, so main-actor tasks run meanwhile.
    public func run(arguments: [String] = CommandLine.arguments) -> Int32 {
        MainLoopBridge.install()
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        return g_application_run(applicationPointer, Int32(arguments.count), &argv)
    }

    /// Stops the main loop at once; windows are not asked to close.
    public func quit() { g_application_quit(applicationPointer) }

    /// Keeps the application running without windows until ``release()``.
    public func hold() { g_application_hold(applicationPointer) }

    /// Ends one ``hold()``.
    public func release() { g_application_release(applicationPointer) }

    /// The application's windows, most recently focused first.
    public var windows: [Window] {
        var windows: [Window] = []
        var node = gtk_application_get_windows(gtkApplicationPointer)
        while let current = node {
            windows.append(Window(retaining: current.pointee.data))
            node = current.pointee.next
        }
        return windows
    }

    public var actionPrefix: String { "app" }
    public var actionMapPointer: OpaquePointer { opaquePointer }

    /// Sets the keyboard shortcuts of `app.NAME`.
    public func setAccelerators(_ accelerators: [String], forAction name: String) {
        setAccelerators(accelerators, forDetailedAction: "app.\(name)")
    }

    /// Sets the keyboard shortcuts of a detailed action name such as `win.show-sidebar` or
    /// GTK's own `window.close`, in `gtk_accelerator_parse` syntax (`<Control>q`). Menus and the
    /// shortcuts window show them. An empty list removes them.
    public func setAccelerators(_ accelerators: [String], forDetailedAction detailedName: String) {
        let strings = accelerators.map { strdup($0) } + [nil]
        defer { strings.forEach { free($0) } }
        strings.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: UnsafePointer<CChar>?.self) { constStrings in
                gtk_application_set_accels_for_action(gtkApplicationPointer, detailedName, constStrings.baseAddress)
            }
        }
    }

    /// The keyboard shortcuts of a detailed action name such as `app.quit`.
    public func accelerators(forDetailedAction detailedName: String) -> [String] {
        guard let list = gtk_application_get_accels_for_action(gtkApplicationPointer, detailedName) else { return [] }
        defer { g_strfreev(list) }
        var accelerators: [String] = []
        var index = 0
        while let accelerator = list[index] {
            accelerators.append(String(cString: accelerator))
            index += 1
        }
        return accelerators
    }
}
