import Foundation
import ObjectGraph
import Testing
import QuireTestSupport

/// Another process writing the same store file: the view context notices and merges it.
@Suite struct RemoteChangeTests {
    @Test @MainActor func viewContextSeesAnotherProcessesSave() async throws {
        let stack = try TestStack(recordsHistory: true)
        let ids = try stack.run { context in
            let articles = ["a", "b", "c"].map { title in
                let article = Article(context: context)
                article.title = title
                return article
            }
            try context.save()
            return articles.map(\.objectID)
        }
        let view = stack.container.viewContext
        view.automaticallyMergesChangesFromParent = true
        let log = NotificationLog(view)
        let articles = try view.fetch(FetchRequest<Article>(sortDescriptors: [.ascending(\.title)]))
        #expect(articles.map(\.title) == ["a", "b", "c"])

        // The other process updates "a", deletes "b" and inserts one, in one transaction.
        #expect(try SecondProcess.run("write", store: stack.directory.file()) == 0)
        // Noticed through the file's change, merged through history, announced on the main queue.
        let noticed = await eventually { !log.changes.isEmpty }
        #expect(noticed)
        let change = try #require(log.changes.first)
        #expect(change.refreshed.map(\.objectID) == [ids[0]])
        #expect(change.refreshed.first?.changedKeys.names == ["title"])
        #expect(change.deleted == [ids[1]])
        #expect(change.inserted.count == 1)
        #expect(articles[0].title == SecondProcess.writerUpdatedTitle)
        #expect(articles[1].isDeleted && view.registeredObject(for: ids[1]) == nil)
        let titles = try view.fetch(FetchRequest<Article>(sortDescriptors: [.ascending(\.title)])).map(\.title)
        #expect(titles == ["c", SecondProcess.writerInserts[0], SecondProcess.writerUpdatedTitle])
        let transaction = try #require(try stack.container.persistentStore.history.fetch().last)
        #expect(transaction.author == "other process")

        // This process's own saves are merged as saves, not again as another process's.
        try stack.run { context in
            try context.existingObject(with: ids[2], as: Article.self).title = "c2"
            try context.save()
        }
        let bothNoticed = await eventually { log.changes.count == 2 }
        #expect(bothNoticed)
        #expect(try stack.container.persistentStore.checkForRemoteChanges() == false)
        #expect(log.changes.count == 2 && articles[2].title == "c2")
    }
}
