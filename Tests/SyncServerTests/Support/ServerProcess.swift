import Foundation
import Glibc
import QuireTestSupport

/// A real `quire-server` executable, started by the test, with its log in a file.
final class ServerProcess {
    let process = Process()
    let port: UInt16
    let logFile: URL

    /// The `quire-server` built beside the test bundle.
    static var executable: URL {
        get throws { try BuiltProduct.executable("quire-server") }
    }

    /// Runs a verb to completion (`account add NAME --data DIR`) and answers its standard output.
    static func run(_ arguments: [String]) throws -> ProgramRun {
        try ProgramRun(executable, arguments)
    }

    /// Starts `quire-server serve` on an ephemeral port with `arguments` (storage options and
    /// limits) and waits for its "listening" line.
    init(serve arguments: [String], logFile: URL, environment: [String: String] = [:]) throws {
        self.logFile = logFile
        process.executableURL = try Self.executable
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.arguments = ["serve", "--listen", "127.0.0.1:0"] + arguments
        guard FileManager.default.createFile(atPath: logFile.path, contents: nil) else {
            throw ProcessError("cannot create \(logFile.path)")
        }
        process.standardError = try FileHandle(forWritingTo: logFile)
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty {
                process.waitUntilExit()
                let log = (try? String(contentsOf: logFile, encoding: .utf8)) ?? ""
                throw ProcessError("quire-server exited with \(process.terminationStatus) before listening: \(log)")
            }
            line += chunk
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let portText = text.split(separator: ":").last, let port = UInt16(portText) else {
            process.terminate()
            throw ProcessError("unexpected first line '\(text)'")
        }
        self.port = port
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
    }

    /// `kill -9`: no chance to finish anything.
    func crash() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    /// SIGTERM, then waits for the exit; answers the exit status.
    func terminate() -> Int32 {
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        return process.terminationStatus
    }

    var log: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    /// Sends `signal` to the process.
    func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits until the log holds `text` `count` times; false if the process ended or `timeout`
    /// passed first. (The log is a file another process writes: it is read again every 20 ms.)
    func awaitLog(_ text: String, count: Int = 1, timeout: TimeInterval = 30) -> Bool {
        let deadline = Date() + timeout
        while log.components(separatedBy: text).count - 1 < count {
            guard process.isRunning, Date() < deadline else { return false }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return true
    }
}

struct ProcessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
