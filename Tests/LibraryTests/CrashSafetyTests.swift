import Foundation
import ObjectGraph
import SyncProtocol
import Testing
@testable import Library
import QuireTestSupport

/// An edit and its outbox operation are never committed one without the other: a child process
/// edits a library in a loop (edits, renames, tags, trash and restore, and acknowledgements as
/// the sync worker writes them) and is killed with SIGKILL at a different moment each round; the
/// library is then checked article by article. (Serialized: its test starts and kills a process
/// round after round, and wants no second one of its kind beside it.)
@Suite(.serialized) struct CrashSafetyTests {
    /// Set in the child process: the library it edits.
    static let libraryVariable = "QUIRE_LIBRARY_EDIT_LOOP"
    static var childLibrary: String? { ProcessInfo.processInfo.environment[libraryVariable] }

    @Test(.enabled(if: childLibrary == nil)) func killedWhileEditingLosesNoOperation() async throws {
        let folder = try TemporaryFolder()
        let url = folder.appending("library.quire")
        do {
            let library = try Library(url: url)
            for index in 0..<12 {
                try await library.createArticle(ArticleContent(title: "Article \(index)", body: "start\n", folder: index % 2 == 0 ? "Even" : nil))
            }
        }
        var totalEdits = 0
        for round in 0..<4 {
            // Later rounds let the child run longer, so the kill lands at other points of its loop.
            totalEdits += try killChild(editing: url, after: 10 + round * 15 + Int.random(in: 0..<10))
            try Self.checkEveryEditHasItsOperation(url)
        }
        #expect(totalEdits >= 10 + 25 + 40 + 55)
        // The library still takes edits.
        let library = try Library(url: url, createIfMissing: false)
        let article = try await library.createArticle(ArticleContent(title: "After", body: "the crashes"))
        #expect(try await library.article(article.id).body == "the crashes")
    }

    /// Runs the edit loop in a child process and kills it once it reports `edits` saves; returns
    /// the number it reported.
    private func killChild(editing url: URL, after edits: Int) throws -> Int {
        let process = TestBinary.process(filter: "CrashSafetyTests/editLoop", environment: [Self.libraryVariable: url.path])
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var buffer = Data()
        var reported = 0
        while reported < edits {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break }
            buffer += chunk
            let lines = String(decoding: buffer, as: UTF8.self).split(separator: "\n")
            reported = lines.compactMap { $0.hasPrefix("edits ") ? Int($0.dropFirst(6)) : nil }.max() ?? reported
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal, "the child stopped by itself:\n\(String(decoding: buffer, as: UTF8.self))")
        #expect(reported >= edits)
        return reported
    }

    /// Each article's newest outbox operation carries the article exactly as stored (a put of its
    /// content, or a delete while it is in the trash), sequences are unique, and the full-text
    /// index agrees with the rows.
    static func checkEveryEditHasItsOperation(_ url: URL) throws {
        let library = try Library(url: url, createIfMissing: false)
        let context = library.container.newBackgroundContext()
        try context.performAndWait {
            let operations = try context.fetch(FetchRequest<SyncOperation>(sortDescriptors: [.ascending(\.sequence)]))
            #expect(Set(operations.map(\.sequence)).count == operations.count, "sequences are unique")
            var latest: [UUID: SyncOperation] = [:]
            for operation in operations { latest[operation.articleID] = operation }
            let articles = try context.fetch(FetchRequest<StoredArticle>())
            #expect(articles.count == 12)
            for article in articles {
                let operation = try #require(latest[article.id], "\(article.title) has no operation")
                if article.trashed == nil {
                    #expect(operation.change == .put, "\(article.title)")
                    #expect(try operation.contentToSend() == article.payload, "\(article.title): the edit and its operation differ")
                } else {
                    #expect(operation.change == .delete, "\(article.title)")
                }
                #expect(article.excerpt == ArticleText.excerpt(of: article.body))
            }
            try context.persistentStore.checkFullTextIndexes()
        }
    }

    /// The child: edits forever, one save per step, printing the count after each.
    @Test(.enabled(if: childLibrary != nil, "entry point of the child process that killedWhileEditingLosesNoOperation kills"))
    func editLoop() async throws {
        let library = try Library(url: URL(fileURLWithPath: try #require(Self.childLibrary)), createIfMissing: false)
        let ids = try await library.articles(matching: ArticleQuery(filter: .all)).map(\.id)
            + (try await library.articles(matching: ArticleQuery(filter: .trash)).map(\.id))
        var step = 0
        while true {
            let id = ids[Int.random(in: 0..<ids.count)]
            switch Int.random(in: 0..<9) {
            case 0...2:
                let article = try await library.article(id)
                try await library.editArticle(id, body: article.body + "line \(step) of typing\n")
            case 3: try await library.editArticle(id, title: "Article retitled \(step)")
            case 4: try await library.tagArticles([id], with: "tag\(step % 5)")
            case 5: try await library.moveToTrash([id])
            case 6: try await library.restore([id])
            case 7: try await library.setFavorite(step % 2 == 0, for: [id])
            default: try await acknowledge(id, in: library)
            }
            step += 1
            // Unbuffered, so the parent sees each count as soon as the save is done.
            FileHandle.standardOutput.write(Data("edits \(step)\n".utf8))
        }
    }

    /// What the sync worker writes when the server acknowledged an article's newest operation.
    private func acknowledge(_ id: UUID, in library: Library) async throws {
        let context = library.container.newBackgroundContext()
        try await context.perform {
            let request = FetchRequest<SyncOperation>(predicate: \.articleID == id, sortDescriptors: [.descending(\.sequence)], fetchLimit: 1)
            guard let operation = try context.fetch(request).first, operation.state == .pending,
                  let article = try context.fetch(FetchRequest<StoredArticle>(predicate: \.id == id)).first else { return }
            operation.state = .acknowledged
            operation.precondition = .absent
            operation.acknowledgedRevision = (article.serverRevision ?? 0) + 1
            article.serverRevision = operation.acknowledgedRevision
            article.syncState = .synced
            try context.save()
        }
    }
}
