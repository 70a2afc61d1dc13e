import Foundation

/// Driving the real `quire` binary under X: where it is, and `xdotool` for keys and clicks. (The
/// editor suite's; `AppStartSuite` has its own copies, which can move here.)
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
}
