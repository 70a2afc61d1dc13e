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
