import Foundation
import ObjectGraph
import Testing

/// Batch insert, update and delete in SQL, merged into contexts holding the objects.
@Suite struct BatchTests {
    static let date = Date(timeIntervalSince1970: 1_700_000_000)

    private func insertArticles(_ stack: TestStack, count: Int, folder: String? = nil) throws -> [ManagedObjectID] {
        try stack.run { context in
            let folderObject = folder.map { name in
                let folder = Folder(context: context)
                folder.name = name
                return folder
            }
            let request = BatchInsertRequest<Article>(
                objects: (0..<count).map {
                    ["id": .uuid(UUID()), "title": .string("article \($0)"), "wordCount": .integer(Int64($0)), "createdAt": .date(Self.date)]
                },
                resultType: .objectIDs)
            let result = try context.execute(request)
            #expect(result.count == count)
            if let folderObject {
                for id in result.changes.inserted { try context.existingObject(with: id, as: Article.self).folder = folderObject }
                try context.save()
            }
            return result.changes.inserted
        }
    }

    @Test @MainActor func batchInsertWritesRowsWithDefaultsWithoutObjects() throws {
        let stack = try TestStack()
        let view = stack.container.viewContext
        let log = NotificationLog(view)
        #expect(try view.count(for: FetchRequest<Article>()) == 0)
        let ids = try insertArticles(stack, count: 250)
        #expect(ids.count == 250 && Set(ids).count == 250)
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: ChangeSet(inserted: ids), into: [view])
        #expect(log.changes.last?.inserted == ids)
        #expect(try view.count(for: FetchRequest<Article>()) == 250)
        try stack.run { context in
            #expect(context.registeredObjects.isEmpty)
            let articles = try context.fetch(FetchRequest<Article>(sortDescriptors: [.ascending(\.wordCount)]))
            #expect(articles.count == 250)
            #expect(articles[7].title == "article 7" && articles[7].isDraft && articles[7].body == "")
        }
    }

    @Test func batchInsertPutsEachRowsValuesInTheirOwnColumns() throws {
        // Rows naming different attributes (every dictionary iterates in an order of its own):
        // each value lands in its own column, and what a row leaves out gets its default.
        let stack = try TestStack()
        let ids = (0..<60).map { _ in UUID() }
        let rows: [[String: PrimitiveValue]] = ids.enumerated().map { index, id in
            var row: [String: PrimitiveValue] = ["id": .uuid(id), "createdAt": .date(Self.date.addingTimeInterval(Double(index)))]
            if index % 2 == 0 { row["title"] = .string("title \(index)") }
            if index % 3 == 0 { row["wordCount"] = .integer(Int64(index * 10)) }
            if index % 5 == 0 { row["subtitle"] = .string("subtitle \(index)") }
            if index % 7 == 0 { row["isDraft"] = .bool(false) }
            if index % 4 == 1 { row["priority"] = .integer(Int64(index)) }
            return row
        }
        let inserted = try stack.run { context in try context.execute(BatchInsertRequest<Article>(objects: rows)).count }
        #expect(inserted == ids.count)
        try stack.run { context in
            let articles = try context.fetch(FetchRequest<Article>(sortDescriptors: [.ascending(\.createdAt)]))
            #expect(articles.map(\.id) == ids)
            for (index, article) in articles.enumerated() {
                #expect(article.title == (index % 2 == 0 ? "title \(index)" : ""))
                #expect(article.wordCount == (index % 3 == 0 ? index * 10 : 0))
                #expect(article.subtitle == (index % 5 == 0 ? "subtitle \(index)" : nil))
                #expect(article.isDraft == (index % 7 != 0))
                #expect(article.priority == (index % 4 == 1 ? Int16(index) : 0))
                #expect(article.createdAt == Self.date.addingTimeInterval(Double(index)))
            }
        }
        // A transient attribute or a relationship is no column a batch insert can set.
        try stack.run { context in
            for key in ["scratch", "folder"] {
                #expect(throws: ObjectGraphError.unknownKey(entity: "Article", key: key)) {
                    try context.execute(BatchInsertRequest<Article>(objects: [["id": .uuid(UUID()), key: .string("x")]]))
                }
            }
            let count = try context.count(for: FetchRequest<Article>())
            #expect(count == ids.count)
        }
    }

    @Test func batchInsertStoresTextAndBytesExactlyRowAfterRow() throws {
        // Texts and bytes are bound where they lie for each row's step: every row gets its own,
        // whether short (kept inside the string), long, empty or left out, and a row that leaves
        // a column out never gets the row before's value.
        let stack = try TestStack()
        let long = String(repeating: "Überschrift 🚀 ", count: 700)
        let ids = (0..<40).map { _ in UUID() }
        func title(_ index: Int) -> String { index % 4 == 0 ? "" : index % 4 == 1 ? "t\(index)" : "\(index) \(long.prefix(index * 37))" }
        func attachment(_ index: Int) -> Data? { index % 3 == 0 ? nil : index % 3 == 1 ? Data() : Data((0..<(index * 11)).map { UInt8($0 % 251) }) }
        let rows: [[String: PrimitiveValue]] = ids.enumerated().map { index, id in
            var row: [String: PrimitiveValue] = [
                "id": .uuid(id), "title": .string(title(index)), "createdAt": .date(Self.date.addingTimeInterval(Double(index))),
            ]
            if let data = attachment(index) { row["attachment"] = .data(data) }
            if index % 2 == 1 { row["body"] = .string(long + "\(index)") }
            if index % 5 == 2 { row["link"] = .url(URL(string: "https://example.org/\(index)")!) }
            if index % 5 == 3 { row["price"] = .decimal(Decimal(string: "12.\(index)")!) }
            return row
        }
        try stack.run { context in
            let first = try context.execute(BatchInsertRequest<Article>(objects: Array(rows[..<20])))
            // The same statement again, for a second request.
            let second = try context.execute(BatchInsertRequest<Article>(objects: Array(rows[20...])))
            #expect(first.count == 20 && second.count == 20)
        }
        try stack.run { context in
            let articles = try context.fetch(FetchRequest<Article>(sortDescriptors: [.ascending(\.createdAt)]))
            #expect(articles.map(\.id) == ids)
            for (index, article) in articles.enumerated() {
                #expect(article.title == title(index), "row \(index)")
                #expect(article.body == (index % 2 == 1 ? long + "\(index)" : ""), "row \(index)")
                #expect(article.attachment == attachment(index), "row \(index)")
                #expect(article.link == (index % 5 == 2 ? URL(string: "https://example.org/\(index)") : nil), "row \(index)")
                #expect(article.price == (index % 5 == 3 ? Decimal(string: "12.\(index)") : nil), "row \(index)")
            }
        }
    }

    @Test func batchInsertChecksValuesAndFollowsThePolicyOnUniqueConflicts() throws {
        let stack = try TestStack()
        try stack.run { context in
            #expect(throws: ObjectGraphError.unknownKey(entity: "Article", key: "colour")) {
                try context.execute(BatchInsertRequest<Article>(objects: [["id": .uuid(UUID()), "colour": .string("red")]]))
            }
            #expect(throws: ObjectGraphError.wrongValueType(entity: "Article", key: "title", expected: "string", actual: "Int64")) {
                try context.execute(BatchInsertRequest<Article>(objects: [["id": .uuid(UUID()), "title": .integer(3)]]))
            }
            do {
                try context.execute(BatchInsertRequest<Folder>(objects: [["position": .integer(1)]]))
                Issue.record("a required value was left out")
            } catch let error as ValidationError {
                #expect(error.issues.map(\.reason) == [.missingValue] && error.issues.first?.key == "name")
            }
            #expect(try context.count(for: FetchRequest<Article>()) == 0)
        }
        let uuid = UUID()
        let existing = try stack.run { context in
            let result = try context.execute(BatchInsertRequest<Article>(
                objects: [["id": .uuid(uuid), "title": .string("first"), "body": .string("kept"), "createdAt": .date(Self.date)]],
                resultType: .objectIDs))
            return try #require(result.changes.inserted.first)
        }
        try stack.run { context in
            let duplicate: [[String: PrimitiveValue]] = [
                ["id": .uuid(uuid), "title": .string("second"), "createdAt": .date(Self.date)],
                ["id": .uuid(UUID()), "createdAt": .date(Self.date)],
            ]
            do {
                try context.execute(BatchInsertRequest<Article>(objects: duplicate))
                Issue.record("a duplicate unique value was inserted")
            } catch let error as ValidationError {
                #expect(error.issues.first?.reason == .notUnique(keys: ["id"], conflictingObject: existing))
            }
            #expect(try context.count(for: FetchRequest<Article>()) == 1)

            context.mergePolicy = .mergeByPropertyStoreTrump
            let kept = try context.execute(BatchInsertRequest<Article>(objects: duplicate, resultType: .objectIDs))
            #expect(kept.count == 1 && kept.changes.updated.isEmpty)
            #expect(try context.existingObject(with: existing, as: Article.self).title == "first")

            context.mergePolicy = .mergeByPropertyObjectTrump
            let upserted = try context.execute(BatchInsertRequest<Article>(
                objects: [["id": .uuid(uuid), "title": .string("second"), "createdAt": .date(Self.date)]], resultType: .objectIDs))
            #expect(upserted.count == 1 && upserted.changes.updated == [existing])
            #expect(upserted.changes.changedKeys[existing] == ["title"])
        }
        try stack.run { context in
            let article = try context.existingObject(with: existing, as: Article.self)
            #expect(article.title == "second" && article.body == "kept")
            #expect(try context.count(for: FetchRequest<Article>()) == 2)
        }
    }

    @Test func batchInsertGivesEachRowTheKeyItReportsAndNeverADeletedOne() throws {
        // A batch insert lets SQLite give a row's key while it is the one the table would take
        // next, and gives it itself otherwise (after a row a conflict skipped, or above a deleted
        // top row): either way each reported ID is its own row's, and no key of a deleted row
        // comes back.
        let stack = try TestStack()
        func row(_ id: UUID) -> [String: PrimitiveValue] { ["id": .uuid(id), "createdAt": .date(Self.date)] }
        func rowIDs(_ ids: [ManagedObjectID], in context: ManagedObjectContext) throws -> [UUID] {
            try ids.map { try context.existingObject(with: $0, as: Article.self).id }
        }
        let existing = UUID()
        let batches = [[UUID(), existing, UUID(), UUID()], [UUID(), UUID()]]
        // The row inserted last holds the largest key: deleting it leaves the counter above the table.
        let deleted = try stack.run { context in
            _ = try context.execute(BatchInsertRequest<Article>(objects: [row(existing)]))
            context.mergePolicy = .mergeByPropertyStoreTrump
            var newest: ManagedObjectID?
            for batch in batches {
                let inserted = try context.execute(BatchInsertRequest<Article>(objects: batch.map(row), resultType: .objectIDs))
                let expected = batch.filter { $0 != existing }
                #expect(inserted.count == expected.count)
                #expect(try rowIDs(inserted.changes.inserted, in: context) == expected)
                newest = inserted.changes.inserted.last
            }
            let article = try context.existingObject(with: try #require(newest), as: Article.self)
            context.delete(article)
            try context.save()
            return try #require(newest)
        }
        try stack.run { context in
            let later = [UUID(), UUID(), UUID()]
            let inserted = try context.execute(BatchInsertRequest<Article>(objects: later.map(row), resultType: .objectIDs))
            #expect(try rowIDs(inserted.changes.inserted, in: context) == later)
            #expect(!inserted.changes.inserted.contains(deleted))
            #expect(throws: (any Error).self) { try context.existingObject(with: deleted, as: Article.self) }
            // A save takes its keys from the same counter, after the batches'.
            let saved = Article(context: context)
            saved.id = UUID()
            try context.save()
            #expect(try context.existingObject(with: saved.objectID, as: Article.self) === saved)
            #expect(try context.count(for: FetchRequest<Article>()) == 1 + 5 - 1 + 3 + 1)
        }
    }

    @Test @MainActor func batchUpdateMergedIntoTheViewContextHoldingTheObjects() throws {
        let stack = try TestStack()
        _ = try insertArticles(stack, count: 20)
        let view = stack.container.viewContext
        let (articles, log) = try view.performAndWait {
            (Array(try view.fetch(FetchRequest<Article>(sortDescriptors: [.ascending(\.wordCount)]))), NotificationLog(view))
        }
        let edited = view.performAndWait {
            articles[1].title = "edited in the view"
            view.processPendingChanges()
            return articles[1]
        }
        let result = try stack.run { context in
            var request = BatchUpdateRequest<Article>(predicate: \.wordCount < 10)
            request.set(\.isDraft, to: false)
            request.set(\.title, to: "batch")
            request.resultType = .objectIDs
            return try context.execute(request)
        }
        #expect(result.count == 10 && result.changes.updated.count == 10)
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: result.changes, into: [view])
        try view.performAndWait {
            let change = try #require(log.changes.last)
            // Every updated object but the edited one, which keeps its values (and is not reported).
            #expect(change.refreshed.count == 9 && !change.refreshed.contains { $0.objectID == edited.objectID })
            #expect(change.refreshed.first?.changedKeys.names == ["isDraft", "title"])
            #expect(articles[0].title == "batch" && !articles[0].isDraft)
            #expect(articles[15].title == "article 15" && articles[15].isDraft)
            // The edited object kept its edit; its save meets the batch update as a conflict.
            #expect(edited.title == "edited in the view" && edited.isDraft)
            let conflicts = try mergeConflicts { try view.save() }
            #expect(conflicts.first?.storeSnapshot?[attribute: "isDraft"] == .bool(false))
        }
    }

    @Test @MainActor func batchDeleteMergedIntoTheViewContextLeavesNoGhostObjects() throws {
        let stack = try TestStack()
        let ids = try insertArticles(stack, count: 12, folder: "F")
        let view = stack.container.viewContext
        let (articles, folder, log) = try view.performAndWait {
            let articles = Array(try view.fetch(FetchRequest<Article>(sortDescriptors: [.ascending(\.wordCount)])))
            let folder = try #require(articles.first?.folder)
            #expect(folder.articles.count == 12)
            return (articles, folder, NotificationLog(view))
        }
        let result = try stack.run { context in
            try context.execute(BatchDeleteRequest<Article>(predicate: \.wordCount >= 4, resultType: .objectIDs))
        }
        #expect(result.count == 8 && Set(result.changes.deleted) == Set(ids[4...]))
        ManagedObjectContext.mergeChanges(fromRemoteContextSave: result.changes, into: [view])
        try view.performAndWait { () throws in
            #expect(Set(log.changes.last?.deleted ?? []) == Set(ids[4...]))
            #expect(articles[4...].allSatisfy { $0.isDeleted && $0.managedObjectContext == nil })
            #expect(ids[4...].allSatisfy { view.registeredObject(for: $0) == nil })
            #expect(try view.fetch(FetchRequest<Article>()).count == 4)
            #expect(folder.articles.count == 4)
            #expect(throws: ObjectGraphError.objectNotFound(ids[5])) { try view.existingObject(with: ids[5]) }
        }
    }

    @Test func batchDeleteCascadesAndNullifies() throws {
        let stack = try TestStack()
        let (rootID, childID, articleID, summaryID) = try stack.run { context in
            let root = Folder(context: context)
            root.name = "root"
            let child = Folder(context: context)
            child.name = "child"
            child.parent = root
            let article = Article(context: context)
            article.folder = child
            let summary = Summary(context: context)
            article.summary = summary
            let tag = Tag(context: context)
            tag.name = "t"
            article.tags = [tag]
            try context.save()
            return (root.objectID, child.objectID, article.objectID, summary.objectID)
        }
        let result = try stack.run { context in
            try context.execute(BatchDeleteRequest<Folder>(predicate: \.name == "root", resultType: .objectIDs))
        }
        // Folder.children cascades; Folder.articles nullifies.
        #expect(result.count == 2 && Set(result.changes.deleted) == [rootID, childID])
        #expect(result.changes.changedKeys[articleID] == ["folder"])
        try stack.run { context throws in
            let article = try context.existingObject(with: articleID, as: Article.self)
            #expect(article.folder == nil && article.summary != nil)
            // Article.summary cascades and Article.tags leaves the join rows behind it.
            try context.execute(BatchDeleteRequest<Article>(objectIDs: [articleID]))
            #expect(try context.count(for: FetchRequest<Summary>()) == 0)
            let tag = try #require(try context.fetch(FetchRequest<Tag>()).first)
            #expect(tag.articles.isEmpty)
        }
        _ = summaryID
    }

    @Test func batchDeleteRefusesRowsADenyRuleHolds() throws {
        let stack = try TestStack(schema: DeleteRuleTests.denySchema)
        let (accountID, deviceIDs, logID) = try stack.run { context in
            let account = try context.insertObject(entityName: "Account")
            try account.setValue("ada", forKey: "name")
            let devices = try (0..<2).map { index -> ManagedObject in
                let device = try context.insertObject(entityName: "Device")
                try device.setValue("device \(index)", forKey: "name")
                try device.setValue(account, forKey: "account")
                return device
            }
            let log = try context.insertObject(entityName: "Log")
            try log.setValue("booted", forKey: "line")
            try log.setValue(devices[0], forKey: "device")
            try context.save()
            return (account.objectID, devices.map(\.objectID), log.objectID)
        }
        try stack.run { context in
            do {
                try context.execute(BatchDeleteRequest<ManagedObject>(entityName: "Account"))
                Issue.record("a deny rule let the batch delete through")
            } catch let error as ValidationError {
                #expect(error.issues.map(\.objectID) == [accountID])
                #expect(error.issues.first?.reason == .deleteDenied(by: deviceIDs))
            }
            // A no-action relationship left pointing at a deleted device refuses the request too.
            do {
                try context.execute(BatchDeleteRequest<ManagedObject>(objectIDs: deviceIDs))
                Issue.record("a dangling reference was left by a batch delete")
            } catch let error as ValidationError {
                #expect(error.issues.map(\.objectID) == [logID])
                #expect(error.issues.first?.reason == .danglingReference(destination: "Device"))
            }
            #expect(try context.count(for: FetchRequest<ManagedObject>(entityName: "Device")) == 2)

            // Deleting what blocks the account in the same request lets it through.
            let result = try context.execute(BatchDeleteRequest<ManagedObject>(objectIDs: [logID, accountID] + deviceIDs))
            #expect(result.count == 4)
        }
    }
}
