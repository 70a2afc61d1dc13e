import Foundation

/// A command-line tool run to its end: curl, openssl, pg_dump.
enum Tool {
    static func run(_ path: String, _ arguments: [String], input: Data? = nil) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        let error = Pipe()
        let standardInput = Pipe()
        process.standardOutput = output
        process.standardError = error
        process.standardInput = standardInput
        try process.run()
        if let input { standardInput.fileHandleForWriting.write(input) }
        try standardInput.fileHandleForWriting.close()
        // Both pipes are read to their ends at once, so that neither can fill up and stall the tool.
        let errorData = LockedData()
        let done = DispatchSemaphore(value: 0)
        Thread {
            errorData.set(error.fileHandleForReading.readDataToEndOfFile())
            done.signal()
        }.start()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        done.wait()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: outputData, as: UTF8.self), String(decoding: errorData.value, as: UTF8.self))
    }
}

private final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data = Data()

    func set(_ new: Data) { lock.withLock { data = new } }
    var value: Data { lock.withLock { data } }
}
