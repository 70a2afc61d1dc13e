import Foundation
import ObjectGraph
import Testing
import QuireTestSupport

/// Collects concurrency violations instead of stopping the test run.
final class ViolationLog: @unchecked Sendable {
    private let lock = NSLock()
    private var violations: [ConcurrencyViolation] = []

    func append(_ violation: ConcurrencyViolation) { lock.withLock { violations.append(violation) } }
    var count: Int { lock.withLock { violations.count } }
    var all: [ConcurrencyViolation] { lock.withLock { violations } }
}

/// Queues, perform, and the detection of wrong-thread use.
@Suite struct ConcurrencyTests {
    private func container(logging log: ViolationLog, in directory: TemporaryFolder) throws -> PersistentContainer {
        try PersistentContainer(
            schema: TestModel.schema, store: .file(directory.file()),
            concurrencyChecking: ConcurrencyChecking(isEnabled: true) { log.append($0) })
    }

    @Test func wrongThreadUseIsDetected() throws {
        let log = ViolationLog()
        let directory = try TemporaryFolder()
        let container = try container(logging: log, in: directory)
        let context = container.newBackgroundContext()
        context.name = "importer"

        let article = context.performAndWait {
            let article = Article(context: context)
            article.title = "inside"
            return article
        }
        #expect(log.count == 0)

        // The test's thread is not the context's queue.
        _ = context.hasChanges
        #expect(log.count == 1)
        article.title = "outside"
        #expect(log.count == 2)
        _ = article.title
        #expect(log.count == 3)
        #expect(log.all.first?.context == "importer")
        #expect(log.all.first?.isMainQueueContext == false)

        try context.performAndWait {
            _ = article.title
            try context.save()
        }
        #expect(log.count == 3)
    }

    @Test func viewContextBelongsToTheMainThread() async throws {
        let log = ViolationLog()
        let directory = try TemporaryFolder()
        let container = try container(logging: log, in: directory)
        let viewContext = await MainActor.run { container.viewContext }
        #expect(viewContext.isMainQueueContext)

        try await MainActor.run {
            let article = Article(context: viewContext)
            article.title = "on main"
            try viewContext.save()
        }
        #expect(log.count == 0)

        if !Thread.isMainThread {
            _ = viewContext.hasChanges
            #expect(log.count == 1)
            #expect(log.all.first?.isMainQueueContext == true)
        }
        let count = try await viewContext.perform { try viewContext.count(for: FetchRequest<Article>()) }
        #expect(count == 1)
    }

    @Test func performRunsOnTheQueueAndReturnsValues() async throws {
        let log = ViolationLog()
        let directory = try TemporaryFolder()
        let container = try container(logging: log, in: directory)
        let context = container.newBackgroundContext()
        let id = try await context.perform {
            let article = Article(context: context)
            article.title = "async"
            try context.save()
            return article.objectID
        }
        let title = try await container.performBackgroundTask { other in
            try other.existingObject(with: id, as: Article.self).title
        }
        #expect(title == "async")

        // performAndWait inside perform runs at once instead of deadlocking.
        let nested = await context.perform { context.performAndWait { context.registeredObjects.count } }
        #expect(nested == 1)

        // A typed error thrown inside perform arrives as thrown.
        await #expect(throws: ObjectGraphError.unknownEntity("Nothing")) {
            try await context.perform { _ = try context.insertObject(entityName: "Nothing") }
        }
        #expect(log.count == 0)
    }

    @Test func severalBackgroundContextsWriteTogether() async throws {
        let log = ViolationLog()
        let directory = try TemporaryFolder()
        let container = try container(logging: log, in: directory)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    let context = container.newBackgroundContext()
                    for batch in 0..<5 {
                        try await context.perform {
                            for index in 0..<10 {
                                let article = Article(context: context)
                                article.title = "worker \(worker) batch \(batch) #\(index)"
                            }
                            try context.save()
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
        let count = try await container.performBackgroundTask { try $0.count(for: FetchRequest<Article>()) }
        #expect(count == 200)
        #expect(log.count == 0)
    }
}
