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
