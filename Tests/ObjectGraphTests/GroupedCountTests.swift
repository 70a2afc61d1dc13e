import Foundation
import ObjectGraph
import Testing

/// `countsGrouped(_:by:)`: one `GROUP BY` query, agreeing with counting the fetched objects.
@Suite struct GroupedCountTests {
    /// The groups as a dictionary keyed by a description of each value ("nil" for none).
    private func counts(_ groups: [GroupedCount]) -> [String: Int] {
        var result: [String: Int] = [:]
        for group in groups {
            let key = group.value.map { "\($0)" } ?? "nil"
            #expect(result[key] == nil, "a value is listed once")
            result[key] = group.count
        }
        return result
    }

    @Test func byAnAttributeWithAPredicate() throws {
        let stack = try TestStack.savedLibrary()
        try stack.run { context in
            let request = FetchRequest<Article>(predicate: \.wordCount >= 100)
            let articles = try context.fetch(request)
            let expected = Dictionary(grouping: articles, by: { "\($0.isDraft)" }).mapValues(\.count)
            stack.statements.reset()
            #expect(counts(try context.countsGrouped(request, by: "isDraft")) == expected)
            #expect(stack.statements.selects.count == 1)
            #expect(expected.values.reduce(0, +) == articles.count && expected.count == 2)
        }
    }

    @Test func byAToOneRelationshipWithTheArticlesInNone() throws {
        let stack = try TestStack.savedLibrary()
        try stack.run { context in
            let articles = try context.fetch(FetchRequest<Article>())
            let expected = Dictionary(grouping: articles, by: { $0.folder.map { "\($0.objectID)" } ?? "nil" }).mapValues(\.count)
            #expect(expected["nil"] != nil, "the fixture has articles in no folder")
            #expect(counts(try context.countsGrouped(FetchRequest<Article>(), by: "folder")) == expected)
            // Through the relationship to an attribute of the folder.
            let byName = Dictionary(grouping: articles, by: { $0.folder?.name ?? "nil" }).mapValues(\.count)
            #expect(counts(try context.countsGrouped(FetchRequest<Article>(), by: "folder.name")) == byName)
        }
    }

    @Test func byAManyToManyRelationshipEachArticleCountsForEachOfItsTags() throws {
        let stack = try TestStack.savedLibrary()
        try stack.run { context in
            let request = FetchRequest<Article>(predicate: \.isDraft == false)
            var expected: [String: Int] = [:]
            for article in try context.fetch(request) {
                for tag in article.tags { expected["\(tag.objectID)", default: 0] += 1 }
            }
            #expect(expected.values.contains { $0 > 1 }, "the fixture shares tags among articles")
            stack.statements.reset()
            let groups = try context.countsGrouped(request, by: "tags")
            #expect(stack.statements.selects.count == 1)
            #expect(counts(groups) == expected)
            let tag = try #require(groups.first?.value as? ManagedObjectID)
            #expect(try context.existingObject(with: tag, as: Tag.self).articles.count >= groups[0].count)

            // Without a predicate, every article counts (the join rows alone are read).
            var all: [String: Int] = [:]
            for article in try context.fetch(FetchRequest<Article>()) {
                for tag in article.tags { all["\(tag.objectID)", default: 0] += 1 }
            }
            #expect(all != expected)
            #expect(counts(try context.countsGrouped(FetchRequest<Article>(), by: "tags")) == all)
        }
    }

    @Test func byAOneToManyRelationship() throws {
        let stack = try TestStack.savedLibrary()
        try stack.run { context in
            let articles = try context.fetch(FetchRequest<Article>())
            // Each folder counts once per article filed in it: the folders grouped by their articles.
            let expected = Dictionary(grouping: articles.filter { $0.folder != nil }, by: { "\($0.objectID)" }).mapValues(\.count)
            #expect(counts(try context.countsGrouped(FetchRequest<Folder>(), by: "articles")) == expected)
        }
    }

    @Test func unsavedChangesAreNotCountedAndBadPathsAreRefused() throws {
        let stack = try TestStack.savedLibrary()
        try stack.run { context in
            let before = counts(try context.countsGrouped(FetchRequest<Article>(), by: "isDraft"))
            for article in try context.fetch(FetchRequest<Article>()) { article.isDraft.toggle() }
            #expect(counts(try context.countsGrouped(FetchRequest<Article>(), by: "isDraft")) == before)
            #expect(throws: ObjectGraphError.self) { _ = try context.countsGrouped(FetchRequest<Article>(), by: "nothing") }
            #expect(throws: ObjectGraphError.self) { _ = try context.countsGrouped(FetchRequest<Article>(), by: "tags.name") }
        }
    }
}
