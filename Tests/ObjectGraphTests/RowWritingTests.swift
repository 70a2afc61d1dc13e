import Foundation
import ObjectGraph
import Testing

/// What a save writes into its rows: every object's own values (bound where the objects hold them,
/// one statement per entity), and the IDs its change set reports.
@Suite struct RowWritingTests {
    /// The texts, bytes and optionals of one article, as the test sets and expects them.
    private struct Values: Equatable {
        var title: String
        var subtitle: String?
        var body: String
        var attachment: Data?
        var wordCount: Int
    }

    /// Values that differ from row to row in length and kind: long texts (on the heap), short ones
    /// (inline in the string), empty and non-ASCII texts, nil, empty and non-empty bytes.
    private static func values(_ index: Int, round: Int) -> Values {
        let word = ["draft", "été", "", "a", "outbox"][(index + round) % 5]
        return Values(
            title: index % 4 == 0 ? "" : "\(word) \(index) r\(round)",
            subtitle: index % 3 == 0 ? nil : String(repeating: word + " ", count: (index + round) % 7),
            body: String(repeating: "Body \(index) of round \(round), \(word). ", count: (index * 7 + round) % 40),
            attachment: index % 5 == 0 ? nil : Data((0..<((index + round) % 9)).map { UInt8(($0 + index) % 256) }),
            wordCount: index * 10 + round)
    }

    private static func read(_ article: Article) -> Values {
        Values(title: article.title, subtitle: article.subtitle, body: article.body, attachment: article.attachment, wordCount: article.wordCount)
    }

    private static func set(_ values: Values, on article: Article) {
        article.title = values.title
        article.subtitle = values.subtitle
        article.body = values.body
        article.attachment = values.attachment
        article.wordCount = values.wordCount
    }

    /// Every article's values as the store holds them, by word count's round-free index.
    private static func storedValues(_ stack: TestStack) throws -> [UUID: Values] {
        try stack.run { context in
            let articles = try context.fetch(FetchRequest<Article>())
            return Dictionary(uniqueKeysWithValues: articles.map { ($0.id, read($0)) })
        }
    }

    /// Two UUIDs in one row, one optional: each is bound from a place of its own.
    final class Link: ManagedObject {
        @Attribute("source") var source: UUID
        @Attribute("target") var target: UUID?
        @Attribute("label") var label: String

        static let schema = Schema(version: 1, entities: [
            EntityDescription("Link", class: Link.self, attributes: [
                AttributeDescription("source", .uuid),
                AttributeDescription("target", .uuid, optional: true),
                AttributeDescription("label", .string, unique: true),
            ]),
        ])
    }

    @Test func eachUUIDOfARowIsWrittenToItsOwnColumn() throws {
        let stack = try TestStack(schema: Link.schema)
        struct Ends: Equatable {
            let source: UUID
            let target: UUID?
        }
        var expected: [String: Ends] = [:]
        func stored() throws -> [String: Ends] {
            try stack.run { context in
                Dictionary(uniqueKeysWithValues: try context.fetch(FetchRequest<Link>()).map { ($0.label, Ends(source: $0.source, target: $0.target)) })
            }
        }
        // Inserted by a save, then updated (some targets set, cleared or swapped with the source).
        try stack.run { context in
            for index in 0..<40 {
                let link = Link(context: context)
                link.label = "saved \(index)"
                link.source = UUID()
                link.target = index % 3 == 0 ? nil : UUID()
                expected[link.label] = Ends(source: link.source, target: link.target)
            }
            try context.save()
        }
        #expect(try stored() == expected)
        try stack.run { context in
            for link in try context.fetch(FetchRequest<Link>()) where link.label.hasSuffix("0") || link.label.hasSuffix("5") {
                let (source, target) = (link.source, link.target)
                link.source = target ?? UUID()
                link.target = link.label.hasSuffix("0") ? source : nil
                expected[link.label] = Ends(source: link.source, target: link.target)
            }
            try context.save()
        }
        #expect(try stored() == expected)
        // Inserted by a batch.
        let rows: [[String: PrimitiveValue]] = (0..<40).map { index in
            let source = UUID()
            let target: UUID? = index % 4 == 0 ? nil : UUID()
            expected["batch \(index)"] = Ends(source: source, target: target)
            var row: [String: PrimitiveValue] = ["label": .string("batch \(index)"), "source": .uuid(source)]
            if let target { row["target"] = .uuid(target) }
            return row
        }
        try stack.run { context in _ = try context.execute(BatchInsertRequest<Link>(objects: rows)) }
        #expect(try stored() == expected)
    }

    @Test func aSaveWritesEachObjectsOwnTextsAndBytes() throws {
        let stack = try TestStack()
        let count = 240
        // Articles, tags and folders inserted in one save, interleaved: each entity's rows are
        // written with its own statement, and to-one keys point at rows of the same save.
        let ids: [UUID] = try stack.run { context in
            var folders: [Folder] = []
            let articles = (0..<count).map { index -> Article in
                if index % 60 == 0 {
                    let folder = Folder(context: context)
                    folder.name = "Folder \(index / 60)"
                    folders.append(folder)
                }
                let article = Article(context: context)
                Self.set(Self.values(index, round: 0), on: article)
                article.folder = folders.last
                if index % 30 == 0 {
                    let tag = Tag(context: context)
                    tag.name = "tag \(index)"
                    article.tags = [tag]
                }
                return article
            }
            try context.save()
            return articles.map(\.id)
        }
        var expected = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, Self.values($0, round: 0)) })
        #expect(try Self.storedValues(stack) == expected)
        try stack.run { context in
            let articles = try context.fetch(FetchRequest<Article>(sortDescriptors: [.ascending(\.wordCount)]))
            #expect(articles.map { $0.folder?.name } == (0..<count).map { "Folder \($0 / 60)" })
            #expect(try context.count(for: FetchRequest<Tag>()) == count / 30)
        }

        // Updates in groups of different changed columns: texts grow, shrink, empty and go nil.
        try stack.run { context in
            for article in try context.fetch(FetchRequest<Article>()) {
                let index = article.wordCount / 10
                var values = Self.values(index, round: 1)
                if index % 2 == 0 { values.body = article.body }
                if index % 3 == 1 { values.attachment = article.attachment }
                Self.set(values, on: article)
            }
            try context.save()
        }
        for (position, id) in ids.enumerated() {
            var values = Self.values(position, round: 1)
            if position % 2 == 0 { values.body = expected[id]!.body }
            if position % 3 == 1 { values.attachment = expected[id]!.attachment }
            expected[id] = values
        }
        #expect(try Self.storedValues(stack) == expected)
    }

    @Test func eachNewRowGetsItsObjectsKeyWhetherItFollowsTheTableOrNot() throws {
        // A save lets SQLite number a row whose key follows the table's largest and gives the
        // others theirs: keys obtained early in one context and saved after another context's
        // rows, rows in between, and a key above a deleted top row. Every ID must name its own
        // row, with its own values and folder.
        let stack = try TestStack()
        let first = stack.container.newBackgroundContext()
        let second = stack.container.newBackgroundContext()
        func insert(_ title: String, folder: Folder? = nil, in context: ManagedObjectContext) -> Article {
            let article = Article(context: context)
            article.id = UUID()
            article.title = title
            article.wordCount = title.count
            article.folder = folder
            return article
        }
        var expected: [ManagedObjectID: (UUID, String, String?)] = [:]
        func record(_ articles: [Article]) {
            for article in articles { expected[article.objectID] = (article.id, article.title, article.folder?.name) }
        }
        let early = try first.performAndWait {
            let early = insert("early, saved last", in: first)
            try first.obtainPermanentIDs(for: [early])
            return early
        }
        try second.performAndWait {
            let folder = Folder(context: second)
            folder.name = "between"
            let articles = ["one", "two", "three"].map { insert($0, folder: $0 == "two" ? nil : folder, in: second) }
            try second.save()
            record(articles)
        }
        let top = try first.performAndWait {
            let late = insert("late", in: first)
            try first.save()
            record([early, late])
            return late.objectID
        }
        try second.performAndWait {
            second.delete(try second.existingObject(with: top))
            try second.save()
            expected[top] = nil
            let after = insert("after the deleted top", in: second)
            try second.save()
            #expect(after.objectID != top)
            record([after])
        }
        try stack.run { context in
            #expect(try context.count(for: FetchRequest<Article>()) == expected.count)
            for (id, values) in expected {
                let article = try context.existingObject(with: id, as: Article.self)
                #expect(article.id == values.0 && article.title == values.1 && article.folder?.name == values.2, "\(values.1)")
                #expect(article.wordCount == values.1.count)
            }
        }
    }

    @Test func temporaryIDsStayWithTheirObjectsWhenAnInsertBecomesAnExistingRow() throws {
        let stack = try TestStack()
        let existingID = try stack.run { context in
            let tag = Tag(context: context)
            tag.name = "existing"
            try context.save()
            return tag.objectID
        }
        try stack.run { context in
            context.mergePolicy = .mergeByPropertyObjectTrump
            let tags = ["first", "existing", "third", "fourth"].map { name in
                let tag = Tag(context: context)
                tag.name = name
                return tag
            }
            let temporaryIDs = tags.map(\.objectID)
            let changes = try context.save()
            #expect(tags[1].objectID == existingID)
            let created = [tags[0], tags[2], tags[3]].map(\.objectID)
            #expect(changes.inserted == created)
            #expect(changes.insertedTemporaryIDs == [temporaryIDs[0], temporaryIDs[2], temporaryIDs[3]])
            #expect(changes.permanentIDs == [
                temporaryIDs[0]: created[0], temporaryIDs[1]: existingID, temporaryIDs[2]: created[1], temporaryIDs[3]: created[2],
            ])
        }
        try stack.run { context in
            let names = try context.fetch(FetchRequest<Tag>(sortDescriptors: [.ascending(\.name)])).map(\.name)
            #expect(names == ["existing", "first", "fourth", "third"])
        }
    }
}
