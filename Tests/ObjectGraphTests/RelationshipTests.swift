import Foundation
import ObjectGraph
import Testing

/// Both sides of every relationship kind stay in step in memory, and in the store after a save.
@Suite struct RelationshipTests {
    @Test func oneToManyFromEitherSide() throws {
        let stack = try TestStack()
        try stack.run { context in
            let drafts = Folder(context: context)
            drafts.name = "Drafts"
            let archive = Folder(context: context)
            archive.name = "Archive"
            let article = Article(context: context)

            article.folder = drafts
            #expect(drafts.articles.contains(article))

            archive.$articles.insert(article)
            #expect(article.folder === archive)
            #expect(!drafts.articles.contains(article))
            #expect(archive.articles.count == 1)

            archive.$articles.remove(article)
            #expect(article.folder == nil)
            #expect(archive.articles.isEmpty)

            drafts.articles = [article]
            try context.save()
        }
        try stack.run { context in
            let drafts = try #require(try context.fetch(FetchRequest<Folder>(predicate: \.name == "Drafts")).first)
            #expect(drafts.articles.count == 1)
            let article = try #require(drafts.articles.first)
            #expect(article.folder === drafts)
        }
    }

    @Test func manyToMany() throws {
        let stack = try TestStack()
        try stack.run { context in
            let swift = Tag(context: context)
            swift.name = "swift"
            let linux = Tag(context: context)
            linux.name = "linux"
            let first = Article(context: context)
            first.title = "first"
            let second = Article(context: context)
            second.title = "second"

            first.tags = [swift, linux]
            second.$tags.insert(swift)
            #expect(swift.articles.count == 2)
            #expect(linux.articles.map(\.title) == ["first"])
            try context.save()

            first.$tags.remove(linux)
            linux.$articles.insert(second)
            #expect(Set(second.tags.map(\.name)) == ["swift", "linux"])
            try context.save()
        }
        try stack.run { context in
            let tags = try context.fetch(FetchRequest<Tag>(sortDescriptors: [.ascending(\.name)]))
            #expect(tags.map { Set($0.articles.map(\.title)) } == [["second"], ["first", "second"]])
            let second = try #require(try context.fetch(FetchRequest<Article>(predicate: \.title == "second")).first)
            second.tags = []
            try context.save()
            #expect(tags.allSatisfy { !$0.articles.contains(second) })
        }
        try stack.run { context in
            let untagged = try context.count(for: FetchRequest<Article>(predicate: .count(\.tags, .equal, 0)))
            #expect(untagged == 1)
        }
    }

    @Test func oneToOneMovesPartnersAlong() throws {
        let stack = try TestStack()
        try stack.run { context in
            let first = Article(context: context)
            first.title = "first"
            let second = Article(context: context)
            second.title = "second"
            let summary = Summary(context: context)
            summary.text = "short"

            first.summary = summary
            #expect(summary.article === first)
            second.summary = summary
            #expect(first.summary == nil)
            #expect(summary.article === second)
            try context.save()
        }
        try stack.run { context in
            let summary = try #require(try context.fetch(FetchRequest<Summary>()).first)
            #expect(summary.article?.title == "second")
            let first = try #require(try context.fetch(FetchRequest<Article>(predicate: \.title == "first")).first)
            summary.article = first
            try context.save()
        }
        try stack.run { context in
            let articles = try context.fetch(FetchRequest<Article>(sortDescriptors: [.ascending(\.title)]))
            #expect(articles.map { $0.summary?.text } == ["short", nil])
        }
    }

    @Test func selfReferencingHierarchy() throws {
        let stack = try TestStack()
        try stack.run { context in
            let root = Folder(context: context)
            root.name = "root"
            for index in 0..<3 {
                let child = Folder(context: context)
                child.name = "child \(index)"
                child.parent = root
            }
            try context.save()
        }
        try stack.run { context in
            let root = try #require(try context.fetch(FetchRequest<Folder>(predicate: .isNil(\.parent))).first)
            #expect(root.children.count == 3)
            #expect(try context.fetch(FetchRequest<Folder>(predicate: \.parent?.name == "root")).count == 3)
        }
    }

    @Test func untypedAccessAndItsErrors() throws {
        let stack = try TestStack()
        try stack.run { context in
            let folder = try context.insertObject(entityName: "Folder")
            try folder.setValue("Untyped", forKey: "name")
            let article = try context.insertObject(entityName: "Article")
            try article.setValue(folder, forKey: "folder")
            #expect((try folder.value(forKey: "articles") as? Set<ManagedObject>) == [article])

            #expect(throws: ObjectGraphError.unknownKey(entity: "Folder", key: "color")) {
                try folder.setValue("red", forKey: "color")
            }
            #expect(throws: ObjectGraphError.self) { try article.setValue("not a folder", forKey: "folder") }
            #expect(throws: ObjectGraphError.self) { try article.setValue(folder, forKey: "tags") }
            #expect(throws: ObjectGraphError.self) { try article.setValue(folder, forKey: "summary") }

            let other = stack.container.newBackgroundContext()
            let stranger = other.performAndWait { Folder(context: other) }
            #expect(throws: ObjectGraphError.self) { try article.setValue(stranger, forKey: "folder") }
        }
    }
}
