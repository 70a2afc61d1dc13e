import Foundation
import Synchronization
import QuireTestSupport

/// The `quire` executable built beside the tests, run as a process on a library: what the
/// command-line verbs do with what the worker left.
struct QuireCommand {
    /// What one run did.
    struct Run {
        let status: Int32
        let output: String
        let error: String
    }

    let executable: URL

    /// The `quire` built beside the tests, or nil when it is not there.
    init?() {
        guard let executable = try? BuiltProduct.executable("quire") else { return nil }
        self.executable = executable
    }

    /// Runs `quire ARGUMENTS --library LIBRARY` (with `input` on standard input) and waits for it,
    /// on a thread of its own: the blocking reads and the wait stay off the test's concurrency pool.
    func run(_ arguments: [String], library: URL, input: String? = nil) async throws -> Run {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try runBlocking(arguments, library: library, input: input) })
            }
        }
    }

    private func runBlocking(_ arguments: [String], library: URL, input: String?) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments + ["--library", library.path]
        // Keep the writer's own library and account out of reach.
        let home = FileManager.default.temporaryDirectory.path + "/quire-sync-tests-home"
        process.environment = ProcessInfo.processInfo.environment.merging(["XDG_DATA_HOME": home, "XDG_CONFIG_HOME": home]) { $1 }
        let output = Pipe()
        let error = Pipe()
        process.standardOutput = output
        process.standardError = error
        let inputPipe = Pipe()
        process.standardInput = input == nil ? FileHandle.nullDevice : inputPipe
        try process.run()
        if let input {
            inputPipe.fileHandleForWriting.write(Data(input.utf8))
            try inputPipe.fileHandleForWriting.close()
        }
        // Both pipes are read to the end before waiting, so that neither can fill up.
        let errorOutput = error.fileHandleForReading
        let errorData = Mutex(Data())
        let reading = DispatchGroup()
        DispatchQueue.global().async(group: reading) {
            let data = errorOutput.readDataToEndOfFile()
            errorData.withLock { $0 = data }
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        reading.wait()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, output: String(decoding: outputData, as: UTF8.self),
            error: String(decoding: errorData.withLock { $0 }, as: UTF8.self))
    }
}
