import Foundation
import ObjectGraph
import Testing
import QuireTestSupport

extension TemporaryFolder {
    /// A store file inside the folder.
    func file(_ name: String = "store.sqlite") -> URL { appending(name) }
}

/// Collects the SQL a store runs, for tests that count statements.
final class StatementLog: @unchecked Sendable {
    private let lock = NSLock()
    private var statements: [String] = []

    func record(_ sql: String) { lock.withLock { statements.append(sql) } }
    func reset() { lock.withLock { statements.removeAll() } }
    var all: [String] { lock.withLock { statements } }
    /// The statements that read (SELECT), which is what faulting costs.
    var selects: [String] { all.filter { $0.hasPrefix("SELECT") } }
}

/// A container on a temporary file, for one test.
struct TestStack {
    let directory: TemporaryFolder
    let container: PersistentContainer
    let statements = StatementLog()

    init(schema: Schema = TestModel.schema, directory: TemporaryFolder? = nil, recordsHistory: Bool = false) throws {
        self.directory = try directory ?? TemporaryFolder()
        container = try PersistentContainer(schema: schema, store: .file(self.directory.file(), recordsHistory: recordsHistory))
        let log = statements
        container.persistentStore.setStatementTrace { log.record($0) }
    }

    /// Runs `body` on a new background context, inside `performAndWait`.
    @discardableResult
    func run<T>(_ body: (ManagedObjectContext) throws -> T) throws -> T {
        let context = container.newBackgroundContext()
        return try context.performAndWait { try body(context) }
    }
}

extension TestStack {
    /// Saves ten articles, "Draft 1" to "Draft 10" with 10 to 100 words, and returns their IDs
    /// in that order.
    func saveTenDrafts() throws -> [ManagedObjectID] {
        try run { context in
            let articles = (1...10).map { number in
                let article = Article(context: context)
                article.title = "Draft \(number)"
                article.wordCount = number * 10
                return article
            }
            try context.save()
            return articles.map(\.objectID)
        }
    }
}

/// The conflicts `body` fails with; records an issue when it fails otherwise or succeeds.
func mergeConflicts(_ body: () throws -> Void, sourceLocation: SourceLocation = #_sourceLocation) throws -> [MergeConflict] {
    do {
        try body()
    } catch ObjectGraphError.mergeConflicts(let conflicts) {
        return conflicts
    }
    Issue.record("expected merge conflicts", sourceLocation: sourceLocation)
    return []
}
