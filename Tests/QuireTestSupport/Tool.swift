import Foundation

/// A command-line tool (`pdftotext`, `cmark-gfm`, `python3`) a test runs to check its output.
public enum Tool {
    /// Runs `tool` (looked up on `PATH`, or a path) with `arguments` and, optionally, standard
    /// input; returns what it printed on standard output, or throws with everything it printed
    /// when it exits with another status than 0.
    public static func run(_ tool: String, _ arguments: [String], input: String? = nil) throws -> String {
        let run = try ProgramRun(URL(fileURLWithPath: "/usr/bin/env"), [tool] + arguments, input: input.map { Data($0.utf8) })
        guard run.status == 0 else {
            // Both outputs: validators (desktop-file-validate, appstreamcli) explain on standard output.
            throw ToolFailure(description: "\(tool) \(arguments.joined(separator: " ")) exited with \(run.status): \(run.output)\(run.error)")
        }
        return run.output
    }
}

/// A tool or a built product that could not be run as the test needs.
public struct ToolFailure: Error, CustomStringConvertible {
    /// What failed, with what the tool said.
    public let description: String

    /// A failure described by `description`.
    public init(description: String) { self.description = description }
}
