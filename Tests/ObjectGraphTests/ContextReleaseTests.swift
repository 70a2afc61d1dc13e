import Foundation
import ObjectGraph
import Testing

/// Objects that reference each other through loaded relationships go away with their context.
@Suite struct ContextReleaseTests {
    private final class WeakReferences: @unchecked Sendable {
        private(set) var objects: [() -> ManagedObject?] = []
        func add(_ object: ManagedObject) {
            weak let reference = object
            objects.append { reference }
        }
        var alive: Int { objects.filter { $0() != nil }.count }
    }

    private func savedFolder(_ stack: TestStack) throws {
        try stack.run { context in
            let folder = Folder(context: context)
            folder.name = "Drafts"
            for index in 0..<3 {
                let article = Article(context: context)
                article.title = "Article \(index)"
                article.folder = folder
                let tag = Tag(context: context)
                tag.name = "tag \(index)"
                article.tags = [tag]
            }
            try context.save()
        }
    }

    @Test func relatedObjectsAreReleasedWithTheirContext() throws {
        let stack = try TestStack()
        try savedFolder(stack)
        let references = WeakReferences()
        do {
            let context = stack.container.newBackgroundContext()
            try context.performAndWait {
                for article in try context.fetch(FetchRequest<Article>()) {
                    references.add(article)
                    if let folder = article.folder { references.add(folder) }
                    for tag in article.tags { references.add(tag) }
                    _ = article.folder?.articles.count
                }
                let inserted = Article(context: context)
                inserted.folder = try context.fetch(FetchRequest<Folder>()).first
                references.add(inserted)
            }
        }
        #expect(references.objects.count == 3 * 3 + 1)
        #expect(references.alive == 0)
    }

    @Test func resetReleasesRelatedObjects() throws {
        let stack = try TestStack()
        try savedFolder(stack)
        let references = WeakReferences()
        let context = stack.container.newBackgroundContext()
        try context.performAndWait {
            for article in try context.fetch(FetchRequest<Article>()) {
                references.add(article)
                _ = article.folder?.articles.count
            }
            context.reset()
        }
        #expect(references.alive == 0)
        #expect(try stack.run { try $0.count(for: FetchRequest<Article>()) } == 3)
    }
}
