import Foundation
import ObjectGraph
import SyncProtocol
import Testing
@testable import Library
@testable import Transfer

/// Export and import through the store: round trips between libraries, import policies, and the
/// scopes an export reads.
@Suite struct LibraryExportImportTests {
    /// A library with folders, tags, every status, favorites, trash, empty folders and tags, and
    /// unusual text.
    private func populated() async throws -> TemporaryLibrary {
        let store = try TemporaryLibrary()
        let library = store.library
        try await library.createFolder(named: "Empty ✓")
        try await library.addDemoArticles(count: 40, seed: 7)
        for (index, title) in SampleArticles.hostileTitles.enumerated() where !title.contains("\u{0}") {
            let article = try await library.createArticle(ArticleContent(
                title: title, body: SampleArticles.richBody + "\r\nline \(index)\r\n", folder: index % 2 == 0 ? "Hostile" : nil,
                tags: index % 3 == 0 ? ["émoji 🎉"] : [], status: ArticleStatus.allCases[index % 3], isFavorite: index % 4 == 0))
            if index % 5 == 1 { try await library.moveToTrash([article.id]) }
        }
        return store
    }

    /// Everything an article is apart from its sync metadata, which a new library starts afresh.
    private func contents(_ library: Library) async throws -> [UUID: ArticleSnapshot] {
        let ids = try await library.exportSource(for: .library).ids
            + (try await library.articles(matching: ArticleQuery(filter: .trash)).map(\.id))
        var result: [UUID: ArticleSnapshot] = [:]
        for id in ids {
            var article = try await library.article(id)
            article.serverRevision = nil
            article.localRevision = 0
            article.syncState = .localOnly
            result[id] = article
        }
        return result
    }

    @Test func libraryToArchiveToANewLibraryIsIdentical() async throws {
        let source = try await populated()
        let archive = source.folder.appending("library.json")
        let options = try await source.library.archiveOptions()
        let everything = ExportScope.selected(Array(try await contents(source.library).keys))
        let exported = try await source.library.export(everything, with: ExportJob(format: .jsonArchive(options), destination: archive))
        #expect(exported.articleCount == (try await contents(source.library)).count)

        let target = try TemporaryLibrary()
        let scan = try await ImportScan.read([archive])
        #expect(scan.failures.isEmpty)
        let plan = ImportPlan(scan: scan, library: try await target.library.importContents(for: scan), onExisting: .skip)
        let result = try await target.library.apply(plan, batchSize: 17)
        #expect(result.created == exported.articleCount)

        #expect(try await contents(target.library) == (try await contents(source.library)))
        #expect(Set(try await target.library.folders().map(\.name)) == Set(try await source.library.folders().map(\.name)))
        #expect(try await target.library.tagNames() == (try await source.library.tagNames()))
        // Imported articles are local edits: each has its outbox operation.
        let outbox = try target.outbox()
        #expect(Set(outbox.map(\.articleID)) == Set(try await contents(target.library).keys))
        #expect(try await target.library.articles(matching: ArticleQuery()).allSatisfy { $0.syncState == .localOnly })
    }

    @Test func libraryToMarkdownAndBackKeepsTheContent() async throws {
        let source = try await populated()
        let folder = source.folder.appending("markdown")
        try await source.library.export(.library, with: ExportJob(format: .markdown, destination: folder))

        let target = try TemporaryLibrary()
        let scan = try await ImportScan.read([folder])
        #expect(scan.failures.isEmpty, "\(scan.failures)")
        try await target.library.apply(ImportPlan(scan: scan, library: try await target.library.importContents(for: scan), onExisting: .skip))

        func content(_ library: Library) async throws -> [UUID: ArticleContent] {
            var result: [UUID: ArticleContent] = [:]
            for id in try await library.exportSource(for: .library).ids { result[id] = try await library.article(id).content }
            return result
        }
        #expect(try await content(target.library) == (try await content(source.library)))
    }

    @Test func anImportIntoTheSameLibraryFollowsThePolicy() async throws {
        let store = try TemporaryLibrary()
        let library = store.library
        let article = try await library.createArticle(ArticleContent(title: "Original", body: "mine", folder: "Here"))
        var changed = article
        changed.title = "Imported"
        changed.tags = ["new tag"]
        let archive = store.folder.appending("one.json")
        try await ExportJob(format: .jsonArchive(ArchiveExportOptions(schemaVersion: 1)), destination: archive)
            .run(from: ArticleArraySource([changed]))
        let scan = try await ImportScan.read([archive])

        let skip = ImportPlan(scan: scan, library: try await library.importContents(for: scan), onExisting: .skip)
        #expect(try await library.apply(skip) == ImportResult())
        #expect(try await library.article(article.id).title == "Original")

        let copy = ImportPlan(scan: scan, library: try await library.importContents(for: scan), onExisting: .copy)
        #expect(try await library.apply(copy) == ImportResult(copied: 1))
        let titles = try await library.articles(matching: ArticleQuery(order: .title)).map(\.title)
        #expect(titles == ["Imported", "Original"])

        let replace = ImportPlan(scan: scan, library: try await library.importContents(for: scan), onExisting: .replace)
        #expect(try await library.apply(replace) == ImportResult(replaced: 1))
        let replaced = try await library.article(article.id)
        #expect(replaced.title == "Imported")
        #expect(replaced.tags == ["new tag"])
        #expect(replaced.localRevision == 2)
        #expect(try store.outbox(of: article.id).last?.payload?.title == "Imported")
        #expect(try await library.tagNames() == ["new tag"])
    }

    @Test func scopesSelectAsExportScopeSays() async throws {
        let store = try await populated()
        let library = store.library
        let all = try await library.exportSource(for: .library).ids
        var everything: [ArticleSnapshot] = []
        for id in try await contents(library).keys { everything.append(try await library.article(id)) }
        for scope in [ExportScope.library, .drafts, .unsynced, .folder("Essays"), .folder("Hostile")] {
            let ids = try await library.exportSource(for: scope).ids
            #expect(Set(ids) == Set(everything.filter { scope.includes($0) }.map(\.id)), "\(scope)")
            #expect(Set(ids).count == ids.count)
        }
        let trashed = try #require(everything.first { $0.trashed != nil })
        let chosen = [all[3], trashed.id, all[1], all[3]]
        #expect(try await library.exportSource(for: .selected(chosen)).ids == [all[3], trashed.id, all[1]])

        let source = try await library.exportSource(for: .library)
        let batch = try await source.articles(in: 2..<7)
        #expect(batch.map(\.id) == Array(all[2..<7]))
        try await library.moveToTrash([all[3]])
        _ = try await library.emptyTrash()
        #expect(try await source.articles(in: 2..<7).map(\.id) == [all[2], all[4], all[5], all[6]], "deleted since the job began")
    }
}
