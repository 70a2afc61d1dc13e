import Foundation

/// Driving the real `quire` binary under X: where it is, its window, and `xdotool` for keys and
/// clicks (the app-start and editor suites).
enum AppDriver {
    /// `quire` beside this program.
    static func quireExecutable() throws -> URL {
        let me = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        let quire = me.deletingLastPathComponent().appendingPathComponent("quire")
        guard FileManager.default.isExecutableFile(atPath: quire.path) else { throw AppStartError.missing(quire.path) }
        return quire
    }

    /// The article list's row height, the header bar's height and a point across the list, in
    /// pixels, to click a row (the sidebar's and list's widths are fixed in the window's layout).
    static let rowHeight = 76
    static let headerHeight = 47
    static let listX = 350

    /// Clicks row `row` of the article list of `window` and returns what `process` printed once
    /// it printed one more line starting with `report` (the app's measurement of that opening).
    /// A click on a window that has just appeared is now and then lost (as keys are, see
    /// KeyboardDrivenAppTests): one that opens nothing within ten seconds is clicked again.
    static func openRow(
        _ row: Int, of window: String, in process: ChildProcess, report: String, environment: [String: String]
    ) throws -> String {
        let y = headerHeight + rowHeight * row + rowHeight / 2
        let before = lines(report, in: process.text).count
        for _ in 0..<3 {
            try xdotool(["mousemove", "--window", window, "\(listX)", "\(y)", "click", "1"], environment: environment)
            if let text = try? process.readOutput(timeout: 10, until: { lines(report, in: $0).count > before }) { return text }
        }
        throw AppStartError.tool("clicking the article list at \(listX), \(y) opened nothing", 1)
    }

    /// The numbers the app printed on lines starting with `prefix`, in order.
    static func lines(_ prefix: String, in text: String) -> [Double] {
        text.split(separator: "\n").filter { $0.hasPrefix(prefix) }.map { Double($0.dropFirst(prefix.count)) ?? .nan }
    }

    /// The environment of a `quire` under the X server `display`: Quire's settings schema
    /// compiled from `data/` into `folder`, and its settings in a key file there: a window of
    /// 1280 by 960 pixels, wide enough for sidebar, list and editor side by side (a narrower one
    /// folds to the sidebar), with the preview beside the text when `showsPreview` and misspelled
    /// words underlined unless `checksSpelling` is false.
    static func sessionEnvironment(
        display: String, in folder: URL, showsPreview: Bool, checksSpelling: Bool = true
    ) throws -> [String: String] {
        let schemas = folder.appendingPathComponent("schemas")
        try FileManager.default.createDirectory(at: schemas, withIntermediateDirectories: true)
        let data = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("data")
        let compiler = try ChildProcess(
            "/usr/bin/glib-compile-schemas", arguments: ["--targetdir", schemas.path, data.path],
            environment: ProcessInfo.processInfo.environment)
        guard try compiler.waitForExit(timeout: 30) == 0 else { throw AppStartError.tool(compiler.command, 1) }
        let config = folder.appendingPathComponent("config")
        let keyfile = config.appendingPathComponent("glib-2.0/settings")
        try FileManager.default.createDirectory(at: keyfile, withIntermediateDirectories: true)
        try "[org/quire/Quire]\npreview-visible=\(showsPreview)\nspell-check=\(checksSpelling)\nwindow-width=1280\nwindow-height=960\n"
            .write(to: keyfile.appendingPathComponent("keyfile"), atomically: true, encoding: .utf8)

        var environment = ProcessInfo.processInfo.environment
        environment["DISPLAY"] = display
        environment["GSK_RENDERER"] = "cairo"
        environment["GTK_A11Y"] = "none"
        environment["NO_AT_BRIDGE"] = "1"
        environment["GSETTINGS_BACKEND"] = "keyfile"
        environment["GSETTINGS_SCHEMA_DIR"] = schemas.path
        environment["XDG_CONFIG_HOME"] = config.path
        // No session bus: every start is an instance of its own.
        environment["DBUS_SESSION_BUS_ADDRESS"] = "disabled:"
        return environment
    }

    /// Starts `quire` over `library`, focuses its main window once shown and waits for the list's
    /// rows (made just after the window's first frame); returns the process and the window. The
    /// caller ends the process (it is terminated here if its window never showed).
    static func start(_ quire: URL, library: URL, environment: [String: String]) throws -> (ChildProcess, window: String) {
        let process = try ChildProcess(
            quire.path, arguments: ["--library", library.path], environment: environment, capturesOutput: true, capturesErrors: true)
        do {
            let window = try mainWindow(of: process, environment: environment)
            try xdotool(["windowfocus", "--sync", window], environment: environment)
            Thread.sleep(forTimeInterval: 1.5)
            return (process, window)
        } catch {
            process.terminate()
            throw error
        }
    }

    /// Runs `xdotool` with `arguments` and returns what it printed.
    @discardableResult
    static func xdotool(_ arguments: [String], environment: [String: String]) throws -> String {
        let process = try ChildProcess("/usr/bin/xdotool", arguments: arguments, environment: environment, capturesOutput: true)
        let text = try process.readOutput(timeout: 60)
        let status = try process.waitForExit(timeout: 10)
        guard status == 0 else { throw AppStartError.tool(process.command, status) }
        return text
    }

    /// The X window of `process`'s main window (titled "Quire"), once it is shown. Searched again
    /// until one is there, for at most `timeout` seconds: GTK may replace the window while the app
    /// starts, and `xdotool search --sync` then fails on the window that went away (an X error)
    /// instead of waiting for the next.
    static func mainWindow(of process: ChildProcess, environment: [String: String], timeout: Double = 60) throws -> String {
        let deadline = Date() + timeout
        while Date() < deadline {
            let found = try? xdotool(
                ["search", "--onlyvisible", "--pid", "\(process.identifier)", "--name", "^Quire$"], environment: environment)
            if let window = found?.split(separator: "\n").last.map(String.init) { return window }
            Thread.sleep(forTimeInterval: 0.25)
        }
        throw AppStartError.tool("no window of quire (pid \(process.identifier)) within \(Int(timeout)) s: \(process.text)", 1)
    }
}
