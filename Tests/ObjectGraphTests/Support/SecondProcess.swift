import Foundation
import ObjectGraph
import Testing

/// Work a test runs in another process: the test bundle started again with a filter that selects
/// `secondProcess()` and an environment that names the work and the store. In an ordinary run the
/// environment names nothing and the entry point is skipped.
enum SecondProcess {
    static let roleVariable = "OBJECTGRAPH_SECOND_PROCESS"
    static let storeVariable = "OBJECTGRAPH_SECOND_PROCESS_STORE"

    static var role: String? { ProcessInfo.processInfo.environment[roleVariable] }

    /// Runs `role` in a new process on the store at `store` and returns its exit status.
    static func run(_ role: String, store: URL) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
        process.arguments = ["--testing-library", "swift-testing", "--filter", "SecondProcessEntry"]
        var environment = ProcessInfo.processInfo.environment
        environment[roleVariable] = role
        environment[storeVariable] = store.path
        process.environment = environment
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("objectgraph-second-process-\(UUID().uuidString).log")
        guard FileManager.default.createFile(atPath: output.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: output.path])
        }
        let handle = try FileHandle(forWritingTo: output)
        defer {
            try? handle.close()
            try? FileManager.default.removeItem(at: output)
        }
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 && process.terminationStatus != crashStatus {
            let log = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
            Issue.record("the second process (\(role)) exited with \(process.terminationStatus):\n\(log.suffix(4000))")
        }
        return process.terminationStatus
    }

    /// The status a second process exits with when it stops itself in the middle of a transaction.
    static let crashStatus: Int32 = 75

    /// The article titles the writer process leaves, and what it changes.
    static let writerInserts = ["from the other process"]
    static let writerUpdatedTitle = "updated by the other process"
}

@Suite struct SecondProcessEntry {
    @Test(.enabled(if: SecondProcess.role != nil, "entry point of the child process that SecondProcess.run starts"))
    func secondProcess() throws {
        let url = URL(fileURLWithPath: try #require(ProcessInfo.processInfo.environment[SecondProcess.storeVariable]))
        let container = try PersistentContainer(schema: TestModel.schema, store: .file(url, recordsHistory: true))
        let context = container.newBackgroundContext()
        context.performAndWait { context.transactionAuthor = "other process" }
        switch SecondProcess.role {
        case "write":
            // Updates the first article by title, deletes the second, inserts one.
            try context.performAndWait {
                let articles = try context.fetch(FetchRequest<Article>(sortDescriptors: [.ascending(\.title)]))
                articles[0].title = SecondProcess.writerUpdatedTitle
                context.delete(articles[1])
                for title in SecondProcess.writerInserts {
                    let article = Article(context: context)
                    article.title = title
                }
                try context.save()
            }
        case "index-then-crash":
            // Applies a history consumer's effects and stops inside the transaction that would
            // commit them with the consumer's token.
            container.persistentStore.setStatementTrace { sql in
                if sql.hasPrefix("COMMIT") { _exit(SecondProcess.crashStatus) }
            }
            try context.performAndWait { try HistoryTests.index(in: context, container: container) }
        default:
            Issue.record("unknown second-process role \(SecondProcess.role ?? "nil")")
        }
    }
}
