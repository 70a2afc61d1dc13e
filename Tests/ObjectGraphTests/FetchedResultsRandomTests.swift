import Foundation
import ObjectGraph
import Testing
import Platform

/// Seeded random sequences of edits in the view context (inserts, updates of sort, predicate and
/// other keys, deletes, saves, rollbacks, refreshes), background saves merged in, and batch
/// inserts, updates and deletes: after every event the controller's objects and sections equal a
/// fresh fetch, and replaying its changes (and its snapshot differences) on plain arrays gives the
/// same arrays.
@Suite struct FetchedResultsRandomTests {
    struct Configuration: Sendable, CustomStringConvertible {
        let name: String
        let predicate: FetchPredicate<Article>?
        let sort: [FetchSortDescriptor<Article>]
        let sectionNameKeyPath: String?
        let seed: UInt64

        var description: String { name }
    }

    static let configurations = [
        Configuration(
            name: "drafts by priority then title, sectioned by priority", predicate: \.isDraft == true,
            sort: [.ascending(\.priority), .ascending(\.title)], sectionNameKeyPath: "priority", seed: 1),
        Configuration(
            name: "everything by word count, descending", predicate: nil,
            sort: [.descending(\.wordCount)], sectionNameKeyPath: nil, seed: 2),
        Configuration(
            name: "short ones by case-insensitive title", predicate: \.wordCount < 500,
            sort: [.ascending(\.title, order: .caseInsensitive), .descending(\.priority)], sectionNameKeyPath: nil, seed: 3),
        Configuration(
            name: "by optional rating, sectioned by rating", predicate: !(\.title == "zeta"),
            sort: [.descending(\.rating), .ascending(\.wordCount)], sectionNameKeyPath: "rating", seed: 4),
    ]

    static let steps = 1_200

    @Test(arguments: configurations) @MainActor
    func changesMatchAFreshFetchAfterEveryEvent(configuration: Configuration) throws {
        let stack = try TestStack()
        let view = stack.container.viewContext
        view.mergePolicy = .mergeByPropertyObjectTrump
        var random = SeededGenerator(seed: configuration.seed)
        let request = FetchRequest<Article>(predicate: configuration.predicate, sortDescriptors: configuration.sort)

        try stack.run { context in
            for _ in 0..<80 { Self.insertArticle(into: context, &random) }
            try context.save()
        }
        let controller = try FetchedResultsController(
            fetchRequest: request, context: view, sectionNameKeyPath: configuration.sectionNameKeyPath)
        let recorder = ChangeRecorder<Article>()
        controller.delegate = recorder
        try controller.performFetch()
        try check(controller, recorder, request: request, stack: stack, event: "fetch")

        var kinds: [String: Int] = [:]
        for step in 0..<Self.steps {
            let event = try perform(step: step, random: &random, stack: stack, view: view)
            for change in recorder.batches.joined() {
                switch change {
                case .insert: kinds["insert", default: 0] += 1
                case .delete: kinds["delete", default: 0] += 1
                case .move: kinds["move", default: 0] += 1
                case .update: kinds["update", default: 0] += 1
                }
            }
            for change in recorder.sectionBatches.joined() {
                if case .insert = change { kinds["section insert", default: 0] += 1 } else { kinds["section delete", default: 0] += 1 }
            }
            recorder.clearCalls()
            try check(controller, recorder, request: request, stack: stack, event: "step \(step): \(event)")
            try #require(recorder.errors.isEmpty, "step \(step): \(event): \(recorder.errors)")
        }
        // Every kind of change happened (sections only where there are sections).
        for kind in ["insert", "delete", "move", "update"] { #expect(kinds[kind, default: 0] > 20, "\(kind): \(kinds)") }
        if configuration.sectionNameKeyPath != nil {
            #expect(kinds["section insert", default: 0] > 0 && kinds["section delete", default: 0] > 0, "\(kinds)")
        }
    }

    /// One random event; returns what it was.
    @MainActor
    private func perform(step: Int, random: inout SeededGenerator, stack: TestStack, view: ManagedObjectContext) throws -> String {
        let roll = random.next() % 100
        let all = try view.fetchObjectIDs(FetchRequest<Article>())
        func anyArticle() throws -> Article? {
            guard !all.isEmpty else { return nil }
            return try view.existingObject(with: all[Int(random.next() % UInt64(all.count))], as: Article.self)
        }
        switch roll {
        case 0..<15:
            let count = 1 + Int(random.next() % 3)
            for _ in 0..<count { Self.insertArticle(into: view, &random) }
            view.processPendingChanges()
            return "view inserts \(count)"
        case 15..<45:
            guard let article = try anyArticle() else { return "nothing to update" }
            let key = Self.randomlyChange(article, &random)
            view.processPendingChanges()
            return "view updates \(key) of \(article.objectID)"
        case 45..<52:
            guard let article = try anyArticle() else { return "nothing to delete" }
            view.delete(article)
            view.processPendingChanges()
            return "view deletes \(article.objectID)"
        case 52..<62:
            try view.save()
            return "view saves"
        case 62..<65:
            view.rollback()
            return "view rolls back"
        case 65..<85:
            let changes = try stack.run { context -> ChangeSet in
                let saved = try context.fetchObjectIDs(FetchRequest<Article>())
                for _ in 0..<Int(random.next() % 3) { Self.insertArticle(into: context, &random) }
                for _ in 0..<Int(random.next() % 4) where !saved.isEmpty {
                    let article = try context.existingObject(with: saved[Int(random.next() % UInt64(saved.count))], as: Article.self)
                    if random.next() % 5 == 0 { context.delete(article) } else { _ = Self.randomlyChange(article, &random) }
                }
                return try context.save()
            }
            view.mergeChanges(fromContextDidSave: changes)
            return "background save merged: \(Self.brief(changes))"
        case 85..<90:
            let threshold = Int(random.next() % 1000)
            let changes = try stack.run { context in
                var update = BatchUpdateRequest<Article>(predicate: \.wordCount >= threshold && \.wordCount < threshold + 60)
                switch random.next() % 3 {
                case 0: update.set(\.priority, to: Int16(random.next() % 25))
                case 1: update.set(\.isDraft, to: random.next() % 2 == 0)
                default: update.set(\.body, to: "batch \(step)")
                }
                update.resultType = .objectIDs
                return try context.execute(update).changes
            }
            ManagedObjectContext.mergeChanges(fromRemoteContextSave: changes, into: [view])
            return "batch update merged: \(Self.brief(changes))"
        case 90..<95:
            let changes = try stack.run { context in
                let rows: [[String: PrimitiveValue]] = (0..<(1 + Int(random.next() % 4))).map { _ in
                    ["id": .uuid(UUID()), "title": .string(Self.titles[Int(random.next() % UInt64(Self.titles.count))]),
                     "wordCount": .integer(Int64(random.next() % 1000)), "priority": .integer(Int64(random.next() % 25)),
                     "isDraft": .bool(random.next() % 2 == 0), "createdAt": .date(Date(timeIntervalSince1970: 0)),
                     "rating": random.next() % 3 == 0 ? .null : .double(Double(random.next() % 40) / 2)]
                }
                return try context.execute(BatchInsertRequest<Article>(objects: rows, resultType: .objectIDs)).changes
            }
            ManagedObjectContext.mergeChanges(fromRemoteContextSave: changes, into: [view])
            return "batch insert merged: \(Self.brief(changes))"
        case 98..<100:
            // A new fetch, with the view context's unsaved changes merged in.
            view.refreshAllObjects()
            return "view refreshes all objects"
        default:
            let threshold = Int(random.next() % 1000)
            let changes = try stack.run { context in
                try context.execute(BatchDeleteRequest<Article>(
                    predicate: \.wordCount >= threshold && \.wordCount < threshold + 15, resultType: .objectIDs)).changes
            }
            ManagedObjectContext.mergeChanges(fromRemoteContextSave: changes, into: [view])
            return "batch delete merged: \(Self.brief(changes))"
        }
    }

    /// The keys a change set names, for failure messages.
    private static func brief(_ changes: ChangeSet) -> String {
        func keys(_ ids: [ManagedObjectID]) -> String { ids.map(\.uriRepresentation.lastPathComponent).joined(separator: ",") }
        return "inserted \(keys(changes.inserted)) updated \(keys(changes.updated)) deleted \(keys(changes.deleted))"
    }

    static let titles = ["alpha", "Alpha", "beta", "Beta", "gamma", "delta", "Delta", "epsilon", "Ünïcode", "zeta"]

    private static func insertArticle(into context: ManagedObjectContext, _ random: inout SeededGenerator) {
        let article = Article(context: context)
        article.title = titles[Int(random.next() % UInt64(titles.count))]
        article.wordCount = Int(random.next() % 1000)
        article.priority = Int16(random.next() % 25)
        article.isDraft = random.next() % 2 == 0
        article.rating = random.next() % 3 == 0 ? nil : Double(random.next() % 40) / 2
    }

    /// Changes one attribute (a sort key, a predicate key or neither) and returns its name.
    private static func randomlyChange(_ article: Article, _ random: inout SeededGenerator) -> String {
        switch random.next() % 6 {
        case 0:
            article.title = titles[Int(random.next() % UInt64(titles.count))]
            return "title"
        case 1:
            article.wordCount = Int(random.next() % 1000)
            return "wordCount"
        case 2:
            article.priority = Int16(random.next() % 25)
            return "priority"
        case 3:
            article.isDraft.toggle()
            return "isDraft"
        case 4:
            article.rating = random.next() % 3 == 0 ? nil : Double(random.next() % 40) / 2
            return "rating"
        default:
            article.body = "body \(random.next() % 1000)"
            return "body"
        }
    }

    /// The controller equals a fresh fetch, and the recorder's replays equal the controller.
    @MainActor
    private func check(
        _ controller: FetchedResultsController<Article>, _ recorder: ChangeRecorder<Article>, request: FetchRequest<Article>,
        stack: TestStack, event: String
    ) throws {
        let view = stack.container.viewContext
        let expected = try view.fetchObjectIDs(request)
        let actual = try #require(controller.fetchedObjects).objectIDs
        /// What turns `list` into the fresh fetch, briefly.
        func difference(_ list: [ManagedObjectID]) -> String {
            expected.difference(from: list).map { change in
                switch change {
                case .insert(let offset, let id, _): return "+\(id.uriRepresentation.lastPathComponent)@\(offset)"
                case .remove(let offset, let id, _): return "-\(id.uriRepresentation.lastPathComponent)@\(offset)"
                }
            }.joined(separator: " ")
        }
        let controllerMatches = actual == expected
        try #require(controllerMatches, "\(event): the controller differs from a fresh fetch: \(difference(actual))")
        #expect(controller.count == expected.count)
        let replayMatches = recorder.replayed == expected
        try #require(replayMatches, "\(event): replaying the changes differs: \(difference(recorder.replayed))")
        let differencesMatch = recorder.replayedFromDifferences == expected
        try #require(
            differencesMatch,
            "\(event): applying the differences differs: \(difference(recorder.replayedFromDifferences))")
        try #require(recorder.problems.isEmpty, "\(event): \(recorder.problems)")

        // Sections: runs of equal section values, named by them, as replayed.
        let sections = try #require(controller.sections)
        let sectionIDs = sections.map(\.objectIDs)
        try #require(Array(sectionIDs.joined()) == expected, "\(event): sections")
        try #require(recorder.replayedSections.map(\.objects) == sectionIDs, "\(event): replayed sections")
        try #require(recorder.replayedSections.map(\.name) == sections.map(\.name), "\(event): replayed section names")
        if let keyPath = controller.sectionNameKeyPath {
            // A fetch places objects without unsaved changes by their rows (which, after a rollback,
            // may differ from the values the object holds), the others by their values in memory.
            let stored = try stack.run { context in
                try context.fetch(FetchRequest<Article>()).reduce(into: [ManagedObjectID: String]()) { names, article in
                    names[article.objectID] = try article.value(forKey: keyPath).map { "\($0)" } ?? ""
                }
            }
            var names: [String] = []
            for id in expected {
                let object = try view.existingObject(with: id)
                let name = object.hasChanges ? try object.value(forKey: keyPath).map { "\($0)" } ?? "" : stored[id]
                if names.last != name { names.append(name ?? "?") }
            }
            try #require(sections.map(\.name) == names, "\(event): section names \(sections.map(\.name)), expected \(names)")
        } else {
            #expect(sections.count == 1 && sections[0].name == "")
        }
        // Positions by ID.
        for index in stride(from: 0, to: expected.count, by: max(1, expected.count / 7)) {
            #expect(controller.index(of: expected[index]) == index)
            #expect(controller.objectID(at: index) == expected[index])
            let path = try #require(controller.indexPath(forObjectWith: expected[index]))
            #expect(controller.index(of: path) == index)
            #expect(sections[path.section].objectIDs[path.item] == expected[index])
        }
    }
}
