import Foundation

/// A command-line tool (`pdftotext`, `cmark-gfm`, `python3`) a test runs to check its output.
public enum Tool {
    /// Runs `tool` (looked up on `PATH`) with `arguments` and, optionally, standard input; returns
    /// what it printed on standard output, or throws with what it printed on standard error when
    /// it exits with another status than 0.
    public static func run(_ tool: String, _ arguments: [String], input: String? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        let output = Pipe()
        // Standard error goes to a file, so that neither it nor standard output can fill and stall the tool.
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("quire-tool-\(UUID().uuidString).log")
        guard FileManager.default.createFile(atPath: errorFile.path, contents: nil) else {
            throw ToolFailure(description: "cannot create \(errorFile.path) for the standard error of \(tool)")
        }
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let errors = try FileHandle(forWritingTo: errorFile)
        defer { try? errors.close() }
        process.standardOutput = output
        process.standardError = errors
        let inputPipe = Pipe()
        if input != nil { process.standardInput = inputPipe }
        try process.run()
        if let input {
            // Written from another thread so that a large input cannot deadlock against a full output pipe.
            let handle = inputPipe.fileHandleForWriting
            let data = Data(input.utf8)
            DispatchQueue.global().async {
                handle.write(data)
                try? handle.close()
            }
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ToolFailure(description: "\(tool) \(arguments.joined(separator: " ")) exited with \(process.terminationStatus): \((try? String(contentsOf: errorFile, encoding: .utf8)) ?? "")")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// A tool or a built product that could not be run as the test needs.
public struct ToolFailure: Error, CustomStringConvertible {
    /// What failed, with what the tool said.
    public let description: String

    /// A failure described by `description`.
    public init(description: String) { self.description = description }
}
