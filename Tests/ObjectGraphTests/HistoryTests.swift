import Foundation
import ObjectGraph
import Testing
import QuireTestSupport

/// Persistent history: what each kind of write records, fetching, deleting, consumers and pruning.
@Suite struct HistoryTests {
    private static let date = Date(timeIntervalSince1970: 1_700_000_000)

    private func save(_ stack: TestStack, author: String, _ body: (ManagedObjectContext) throws -> Void) throws -> ChangeSet {
        try stack.run { context in
            context.name = "context of \(author)"
            context.transactionAuthor = author
            try body(context)
            return try context.save()
        }
    }

    @Test func everyKindOfWriteRecordsATransaction() throws {
        let stack = try TestStack(recordsHistory: true)
        let history = stack.container.persistentStore.history
        #expect(try history.lastToken() == nil)

        let inserted = try save(stack, author: "editor") { context in
            for title in ["one", "two", "three"] { Article(context: context).title = title }
        }
        let updated = try save(stack, author: "editor") { context in
            try context.existingObject(with: inserted.inserted[0], as: Article.self).title = "one, edited"
        }
        let deletedUUID = try stack.run { try $0.existingObject(with: inserted.inserted[1], as: Article.self).id }
        let deleted = try save(stack, author: "sync") { context in
            context.delete(try context.existingObject(with: inserted.inserted[1]))
        }
        let batch = try stack.run { context in
            context.transactionAuthor = "importer"
            let insert = try context.execute(BatchInsertRequest<Article>(
                objects: (0..<4).map { ["id": .uuid(UUID()), "title": .string("batch \($0)"), "createdAt": .date(Self.date)] },
                resultType: .objectIDs))
            var update = BatchUpdateRequest<Article>(predicate: .beginsWith(\.title, "batch"))
            update.set(\.wordCount, to: 9)
            _ = try context.execute(update)
            _ = try context.execute(BatchDeleteRequest<Article>(objectIDs: [insert.changes.inserted[0]]))
            return insert.changes.inserted
        }

        let transactions = try history.fetch()
        #expect(transactions.count == 6)
        #expect(transactions.map(\.token) == transactions.map(\.token).sorted() && Set(transactions.map(\.token)).count == 6)
        #expect(try history.lastToken() == transactions.last?.token)
        #expect(transactions.map(\.author) == ["editor", "editor", "sync", "importer", "importer", "importer"])
        #expect(transactions[0].contextName == "context of editor")
        #expect(inserted.historyToken == transactions[0].token && updated.historyToken == transactions[1].token)
        #expect(deleted.historyToken == transactions[2].token)

        #expect(transactions[0].changes.map(\.objectID) == inserted.inserted)
        #expect(transactions[0].changes.allSatisfy { $0.kind == .insert })
        guard case .update(let keys) = transactions[1].changes.first?.kind else {
            Issue.record("no update recorded")
            return
        }
        #expect(keys.names == ["title"] && transactions[1].changes.map(\.objectID) == [inserted.inserted[0]])
        #expect(transactions[2].changes.map(\.objectID) == [inserted.inserted[1]])
        #expect(transactions[2].changes.first?.kind == .delete(tombstone: ["id": .uuid(deletedUUID), "title": .string("two")]))
        #expect(transactions[3].changes.map(\.objectID) == batch && transactions[3].changes.allSatisfy { $0.kind == .insert })
        #expect(transactions[4].changes.count == 4)
        #expect(transactions[5].changes.map(\.objectID) == [batch[0]])
        guard case .delete(let tombstone) = transactions[5].changes.first?.kind else {
            Issue.record("no batch delete recorded")
            return
        }
        #expect(tombstone["title"] == .string("batch 0"))
    }

    @Test func fetchingAfterATokenByAuthorAndEntity() throws {
        let stack = try TestStack(recordsHistory: true)
        let history = stack.container.persistentStore.history
        _ = try save(stack, author: "editor") { Article(context: $0).title = "a" }
        let second = try save(stack, author: "sync") { context in
            Article(context: context).title = "b"
            Folder(context: context).name = "f"
        }
        _ = try save(stack, author: "editor") { Folder(context: $0).name = "g" }
        _ = try save(stack, author: "importer") { Article(context: $0).title = "c" }

        let first = try #require(try history.fetch().first?.token)
        #expect(try history.fetch(HistoryRequest(after: first)).count == 3)
        var request = HistoryRequest(after: first)
        request.excludedAuthors = ["sync"]
        #expect(try history.fetch(request).map(\.author) == ["editor", "importer"])
        request = HistoryRequest()
        request.authors = ["editor", "sync"]
        request.entityNames = ["Article"]
        let articles = try history.fetch(request)
        #expect(articles.map(\.author) == ["editor", "sync"])
        #expect(articles[1].token == second.historyToken && articles[1].changes.count == 1)
        request = HistoryRequest()
        request.fetchLimit = 2
        #expect(try history.fetch(request).count == 2)
    }

    @Test func deletedHistoryExpiresOldTokensAndTokensNeverRepeat() throws {
        let stack = try TestStack(recordsHistory: true)
        let history = stack.container.persistentStore.history
        for title in ["a", "b", "c"] { _ = try save(stack, author: "editor") { Article(context: $0).title = title } }
        let tokens = try history.fetch().map(\.token)
        try history.deleteHistory(before: tokens[2])
        #expect(try history.fetch().map(\.token) == [tokens[2]])
        #expect(throws: ObjectGraphError.historyExpired(after: tokens[0], prunedThrough: tokens[1])) {
            try history.fetch(HistoryRequest(after: tokens[0]))
        }
        #expect(try history.fetch(HistoryRequest(after: tokens[1])).count == 1)

        try history.deleteHistory(before: HistoryToken(rawValue: tokens[2].rawValue + 1))
        let next = try save(stack, author: "editor") { Article(context: $0).title = "d" }
        #expect(try #require(next.historyToken) > tokens[2])
    }

    @Test func historyIsOnlyKeptWhenAskedForAndThenAlways() throws {
        let directory = try TemporaryFolder()
        do {
            let stack = try TestStack(directory: directory)
            #expect(throws: ObjectGraphError.historyNotRecorded) { try stack.container.persistentStore.history.fetch() }
            let changes = try save(stack, author: "editor") { Article(context: $0).title = "untracked" }
            #expect(changes.historyToken == nil)
        }
        do {
            let stack = try TestStack(directory: directory, recordsHistory: true)
            _ = try save(stack, author: "editor") { Article(context: $0).title = "tracked" }
        }
        // Opened again without asking, the store keeps recording.
        let stack = try TestStack(directory: directory)
        #expect(stack.container.persistentStore.recordsHistory)
        _ = try save(stack, author: "editor") { Article(context: $0).title = "still tracked" }
        #expect(try stack.container.persistentStore.history.fetch().count == 2)
    }

    // MARK: Consumers

    /// A history consumer, "indexer": a tag named after each inserted article, saved with the
    /// consumer's token in one transaction. Replaying is harmless: tags are unique by name and the
    /// context's policy makes an existing tag the one written.
    static func index(in context: ManagedObjectContext, container: PersistentContainer) throws {
        let consumer = try container.persistentStore.history.consumer(named: "indexer")
        var request = HistoryRequest()
        request.entityNames = ["Article"]
        let transactions = try consumer.pendingTransactions(request)
        guard let last = transactions.last else { return }
        context.mergePolicy = .mergeByPropertyObjectTrump
        context.transactionAuthor = "indexer"
        for change in transactions.flatMap(\.changes) where change.kind == .insert {
            guard let article = try? context.existingObject(with: change.objectID, as: Article.self) else { continue }
            Tag(context: context).name = "indexed: \(article.title)"
        }
        try context.save(advancing: consumer, to: last.token)
    }

    private func tagNames(_ stack: TestStack) throws -> [String] {
        try stack.run { try $0.fetch(FetchRequest<Tag>(sortDescriptors: [.ascending(\.name)])).map(\.name) }
    }

    @Test func aConsumerCommitsItsTokenWithItsEffectsAndSurvivesACrash() throws {
        let directory = try TemporaryFolder()
        var stack: TestStack? = try TestStack(directory: directory, recordsHistory: true)
        _ = try save(stack!, author: "editor") { context in
            for title in ["a", "b"] { Article(context: context).title = title }
        }
        stack = nil

        // A second process applies the effects and dies before they commit.
        #expect(try SecondProcess.run("index-then-crash", store: directory.file()) == SecondProcess.crashStatus)
        stack = try TestStack(directory: directory, recordsHistory: true)
        let consumer = try stack!.container.persistentStore.history.consumer(named: "indexer")
        #expect(try consumer.processedToken() == .beginning)
        #expect(try tagNames(stack!).isEmpty)

        // Processing again does it once.
        try stack!.run { try Self.index(in: $0, container: stack!.container) }
        #expect(try tagNames(stack!) == ["indexed: a", "indexed: b"])
        let token = try consumer.processedToken()
        #expect(token == (try stack!.container.persistentStore.history.fetch().first?.token))

        // After a restart only what is new is pending.
        stack = nil
        stack = try TestStack(directory: directory, recordsHistory: true)
        let reopened = try stack!.container.persistentStore.history.consumer(named: "indexer")
        #expect(try reopened.processedToken() == token)
        _ = try save(stack!, author: "editor") { Article(context: $0).title = "c" }
        #expect(try reopened.pendingTransactions().count == 2)   // the editor's and the indexer's
        try stack!.run { try Self.index(in: $0, container: stack!.container) }
        #expect(try tagNames(stack!) == ["indexed: a", "indexed: b", "indexed: c"])

        // A replay of everything (a token lost after the effects) changes nothing.
        try stack!.run { context in
            context.mergePolicy = .mergeByPropertyObjectTrump
            for title in ["a", "b", "c"] { Tag(context: context).name = "indexed: \(title)" }
            try context.save()
        }
        #expect(try tagNames(stack!) == ["indexed: a", "indexed: b", "indexed: c"])
    }

    @Test func mergingTheSameHistoryTwiceIsHarmless() throws {
        let stack = try TestStack(recordsHistory: true)
        let view = stack.container.newBackgroundContext()
        let ids = try save(stack, author: "editor") { context in
            for title in ["a", "b", "c"] { Article(context: context).title = title }
        }.inserted
        let (articles, log) = try view.performAndWait {
            (Array(try view.fetch(FetchRequest<Article>(sortDescriptors: [.ascending(\.title)]))), NotificationLog(view))
        }
        let since = try #require(try stack.container.persistentStore.history.lastToken())
        _ = try save(stack, author: "sync") { context in
            try context.existingObject(with: ids[0], as: Article.self).title = "a2"
            context.delete(try context.existingObject(with: ids[1]))
            Article(context: context).title = "d"
        }
        let changes = ChangeSet(history: try stack.container.persistentStore.history.fetch(HistoryRequest(after: since)))
        try view.performAndWait { () throws in
            view.mergeChanges(fromContextDidSave: changes)
            view.mergeChanges(fromContextDidSave: changes)
            #expect(articles[0].title == "a2" && articles[1].isDeleted)
            #expect(try view.fetch(FetchRequest<Article>(sortDescriptors: [.ascending(\.title)])).map(\.title) == ["a2", "c", "d"])
            #expect(log.changes.count == 2 && log.changes[0].deleted == log.changes[1].deleted)
        }
    }

    @Test func pruningKeepsWhatAnyConsumerStillNeeds() throws {
        let stack = try TestStack(recordsHistory: true)
        let history = stack.container.persistentStore.history
        #expect(try history.pruneProcessedHistory() == nil)
        let fast = try history.consumer(named: "fast")
        let slow = try history.consumer(named: "slow")
        for title in ["a", "b", "c", "d"] { _ = try save(stack, author: "editor") { Article(context: $0).title = title } }
        let tokens = try history.fetch().map(\.token)

        #expect(try history.pruneProcessedHistory() == nil)   // both at the beginning
        try fast.markProcessed(through: tokens[3])
        try slow.markProcessed(through: tokens[1])
        try slow.markProcessed(through: tokens[0])            // a token never moves back
        #expect(try history.consumerTokens() == ["fast": tokens[3], "slow": tokens[1]])
        #expect(try history.pruneProcessedHistory() == tokens[1])
        #expect(try history.fetch().map(\.token) == Array(tokens[2...]))
        #expect(try slow.pendingTransactions().map(\.token) == Array(tokens[2...]))
        #expect(try fast.pendingTransactions().isEmpty)

        try slow.markProcessed(through: tokens[3])
        try history.pruneProcessedHistory()
        #expect(try history.fetch().isEmpty)
        try history.removeConsumer(named: "slow")
        #expect(try history.consumerTokens() == ["fast": tokens[3]])
    }
}
