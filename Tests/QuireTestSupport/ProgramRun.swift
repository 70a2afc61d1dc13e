import Foundation
import Synchronization

/// A program run to its end: how it ended and what it printed on standard output and standard
/// error. The one way tests run a program and wait for it (`quire`'s verbs, `quire-server`'s,
/// `mount`, `pdftotext`, `xdotool`); ``Tool`` runs a tool from `PATH` and fails on a status other
/// than 0.
///
///     let run = try ProgramRun(quire, ["check", "--library", url.path], environment: ["TZ": "UTC"])
///     #expect(run.status == 0, "\(run.error)")
///
/// It blocks the calling thread until the program ends: an async test runs it through
/// ``BlockingWork`` (`try await BlockingWork.run { try ProgramRun(…) }`).
public struct ProgramRun: Sendable {
    /// The exit status, or the number of the signal that ended it.
    public let status: Int32
    /// The signal that ended it; nil when it exited.
    public let signal: Int32?
    /// What it printed on standard output.
    public let output: String
    /// What it printed on standard error.
    public let error: String

    /// Runs `executable` with `arguments` and the test's environment changed by `environment` (nil
    /// removes a variable), `input` on its standard input (nothing to read when nil), and waits
    /// for its end.
    public init(_ executable: URL, _ arguments: [String], environment: [String: String?] = [:], input: Data? = nil) throws {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        var variables = ProcessInfo.processInfo.environment
        for (name, value) in environment { variables[name] = value }
        process.environment = variables
        let output = Pipe()
        let error = Pipe()
        let inputPipe = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
        try process.run()
        // Standard input is written and standard error read on threads of their own while this
        // one reads standard output, so that no pipe can fill up and stall the program.
        let others = DispatchGroup()
        if let input {
            let handle = inputPipe.fileHandleForWriting
            DispatchQueue.global().async(group: others) {
                handle.write(input)
                try? handle.close()
            }
        }
        let errorData = Mutex(Data())
        let errorHandle = error.fileHandleForReading
        DispatchQueue.global().async(group: others) {
            let data = errorHandle.readDataToEndOfFile()
            errorData.withLock { $0 = data }
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        others.wait()
        process.waitUntilExit()
        status = process.terminationStatus
        signal = process.terminationReason == .uncaughtSignal ? process.terminationStatus : nil
        self.output = String(decoding: outputData, as: UTF8.self)
        self.error = String(decoding: errorData.withLock { $0 }, as: UTF8.self)
    }
}
