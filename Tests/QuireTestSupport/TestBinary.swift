import Foundation

/// This test binary started again in a process of its own, running only the Swift Testing tests
/// that match a filter: the way a test puts work in a child process it can kill, limit or watch.
/// The child's entry point is a test enabled only when the environment the parent passes names
/// its work, so that in an ordinary run it is skipped.
public enum TestBinary {
    /// A process, not yet started, that runs the tests matching `filter` with `environment` added
    /// to this process's own.
    public static func process(filter: String, environment: [String: String]) -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["--testing-library", "swift-testing", "--filter", filter]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        return process
    }

    /// Runs the tests matching `filter` in a child process to its end; returns its exit status and
    /// everything it printed (standard output and standard error together).
    public static func run(filter: String, environment: [String: String]) throws -> (status: Int32, output: String) {
        let process = process(filter: filter, environment: environment)
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
