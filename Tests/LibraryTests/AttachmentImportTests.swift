import Foundation
import Platform
import Testing
@testable import Library
@testable import Transfer
import QuireTestSupport

/// Importing attachments into a library that has the articles already (lacking them, or with their
/// files lost or damaged), and archives and Markdown files bringing an attachment larger than a
/// library takes.
@Suite struct AttachmentImportTests {
    /// An archive of one library with `articles` (title, body, attachments by file name).
    private func archive(
        _ articles: [(title: String, attachments: [String: Data])], in folder: TemporaryFolder
    ) async throws -> (url: URL, library: TemporaryLibrary, ids: [UUID]) {
        let store = try TemporaryLibrary()
        var ids: [UUID] = []
        for (title, files) in articles {
            let article = try await store.library.createArticle(ArticleContent(title: title, body: ""))
            var body = "# \(title)\n\n"
            for (name, data) in files.sorted(by: { $0.key < $1.key }) {
                let attachment = try await store.library.addAttachment(to: article.id, fileName: name, data: data)
                body += attachment.reference.markdown(mediaType: attachment.mediaType) + "\n\n"
            }
            try await store.library.editArticle(article.id, body: body)
            ids.append(article.id)
        }
        let url = folder.appending("library.json")
        try await store.library.export(
            .library, with: ExportJob(format: .jsonArchive(try await store.library.archiveOptions()), destination: url))
        return (url, store, ids)
    }

    @Test func anArticleImportedUnchangedGetsBackTheAttachmentsItLacks() async throws {
        let folder = try TemporaryFolder()
        let red = try ImageSamples.solid("png", width: 30, height: 20, rgb: 0xFF0000)
        let notes = Data("notes\n".utf8)
        let (url, source, ids) = try await archive([("Pictured", ["red.png": red, "notes.txt": notes])], in: folder)
        let id = try #require(ids.first)

        // The same article without its attachments, as a pull leaves it before its downloads.
        let target = try TemporaryLibrary()
        try await target.library.applyImport(creatingFolders: [], tags: [], writes: [ImportWrite(.create, try await source.library.article(id))])
        #expect(try await target.library.attachments(of: id).isEmpty)
        let before = try await target.library.article(id)

        let scan = try await ImportScan.read([url])
        let plan = ImportPlan(scan: scan, library: try await target.library.importContents(for: scan), onExisting: .skip)
        #expect(plan.items.map(\.action) == [.unchanged])
        #expect(try await target.library.apply(plan).restoredAttachments == 2)
        #expect(try await target.library.attachmentData(sha256: SHA256.hex(red), of: id) == red)
        #expect(try await target.library.attachmentData(sha256: SHA256.hex(notes), of: id) == notes)
        // The article itself was not edited: nothing for sync to send.
        let after = try await target.library.article(id)
        #expect(after.localRevision == before.localRevision && after.body == before.body)
        // Again: it holds them now.
        #expect(try await target.library.apply(plan).restoredAttachments == 0)
        #expect(try await target.library.attachments(of: id).count == 2)
    }

    @Test func anAttachmentLargerThanALibraryTakesFailsAloneWithASentence() async throws {
        let folder = try TemporaryFolder()
        let blue = try ImageSamples.solid("png", width: 10, height: 10, rgb: 0x0000FF)
        let (url, _, ids) = try await archive([("Small", ["blue.png": blue]), ("Huge", [:])], in: folder)
        let huge = Data([0x89, 0x50, 0x4E, 0x47]) + Data(repeating: 7, count: Library.attachmentSizeLimit - 3)
        let hugeReference = AttachmentReference(sha256: SHA256.hex(huge), fileName: "huge.png")

        // The second article refers to the huge file, which its archive entry carries.
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        var articles = try #require(json["articles"] as? [[String: Any]])
        let index = try #require(articles.firstIndex { $0["title"] as? String == "Huge" })
        let body = "A poster: \(hugeReference.markdown(mediaType: AttachmentMediaType.png))\n"
        articles[index]["body"] = body
        articles[index]["attachments"] = [["fileName": "huge.png", "mediaType": AttachmentMediaType.png, "sha256": hugeReference.sha256,
                                           "data": huge.base64EncodedString()]]
        json["articles"] = articles
        let edited = folder.appending("huge.json")
        try JSONSerialization.data(withJSONObject: json).write(to: edited)

        let scan = try await ImportScan.read([edited])
        #expect(scan.articles.count == 2)
        let failure = try #require(scan.failures.first)
        #expect(scan.failures.count == 1)
        #expect(failure == .attachmentTooLarge(path: edited.path, article: "Huge", fileName: "huge.png",
                                               bytes: huge.count, limit: Library.attachmentSizeLimit))
        #expect(failure.description.contains("huge.png") && failure.description.contains("imported without it"))

        let target = try TemporaryLibrary()
        let result = try await target.library.apply(
            ImportPlan(scan: scan, library: try await target.library.importContents(for: scan), onExisting: .skip))
        #expect(result.created == 2)
        #expect(try await target.library.article(ids[1]).body == body)
        #expect(try await target.library.attachments(of: ids[1]).isEmpty)
        #expect(try await target.library.attachmentData(sha256: SHA256.hex(blue), of: ids[0]) == blue)
    }

    @Test func aMarkdownFileReferringToAFileLargerThanALibraryTakesImportsWithoutIt() async throws {
        let folder = try TemporaryFolder()
        let assets = folder.appending("assets")
        try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
        let blue = try ImageSamples.solid("png", width: 10, height: 10, rgb: 0x0000FF)
        try blue.write(to: assets.appendingPathComponent("blue.png"))
        // One byte over the limit; never read, so it may be sparse.
        let huge = assets.appendingPathComponent("film.mov")
        #expect(FileManager.default.createFile(atPath: huge.path, contents: nil))
        let handle = try FileHandle(forWritingTo: huge)
        try handle.truncate(atOffset: UInt64(Library.attachmentSizeLimit + 1))
        try handle.close()
        let markdown = folder.appending("poster.md")
        try Data("# Poster\n\n![blue](assets/blue.png)\n\n[The film](assets/film.mov) and [again](<assets/film.mov>)\n".utf8).write(to: markdown)

        let scan = try await ImportScan.read([folder.url])
        let imported = try #require(scan.articles.first)
        #expect(scan.articles.count == 1)
        // Named once, with its article, and only it: the file and its other attachment import.
        #expect(scan.failures == [.attachmentTooLarge(path: markdown.path, article: "Poster", fileName: "assets/film.mov",
                                                      bytes: Library.attachmentSizeLimit + 1, limit: Library.attachmentSizeLimit)])
        #expect(scan.failures.allSatisfy { $0.leftOutOnlyAnAttachment })
        #expect(scan.failures.first?.description.contains("assets/film.mov") == true)
        let blueReference = AttachmentReference(sha256: SHA256.hex(blue), fileName: "blue.png")
        #expect(imported.article.body == "# Poster\n\n![blue](\(blueReference.uri))\n\n[The film](assets/film.mov) and [again](<assets/film.mov>)\n")
        #expect(imported.attachments.map(\.fileName) == ["blue.png"])

        let target = try TemporaryLibrary()
        let result = try await target.library.apply(
            ImportPlan(scan: scan, library: try await target.library.importContents(for: scan), onExisting: .skip))
        #expect(result.created == 1)
        let summary = try #require(try await target.library.articles(matching: ArticleQuery()).first)
        let article = try await target.library.article(summary.id)
        #expect(article.body == imported.article.body)
        #expect(try await target.library.attachments(of: article.id).map(\.sha256) == [SHA256.hex(blue)])
    }

    @Test func aDamagedOrMissingAttachmentFileIsWrittenBackFromTheImport() async throws {
        let folder = try TemporaryFolder()
        // Random pixels barely compress: over 64 KB, so the library keeps the image in a file.
        let photo = try ImageSamples.solid("png", width: 200, height: 200, rgb: 0x336699, noise: true)
        let notes = Data("notes\n".utf8)
        #expect(photo.count >= 64 * 1024)
        let (url, store, ids) = try await archive([("Pictured", ["photo.png": photo, "notes.txt": notes])], in: folder)
        let id = try #require(ids.first)
        let file = try #require(store.library.container.persistentStore.externalBinaries).path(of: SHA256.hex(photo))
        let attachmentsBefore = try await store.library.attachments(of: id)
        let before = try await store.library.article(id)
        let scan = try await ImportScan.read([url])
        let plan = ImportPlan(scan: scan, library: try await store.library.importContents(for: scan), onExisting: .skip)
        #expect(plan.items.map(\.action) == [.unchanged])
        func problems() throws -> [AttachmentProblem.Kind] { try AttachmentProblem.all(inLibraryAt: store.library.url).map(\.kind) }

        // A flipped byte.
        var damaged = try #require(FileManager.default.contents(atPath: file))
        damaged[damaged.count / 2] ^= 0x01
        try damaged.write(to: URL(fileURLWithPath: file))
        #expect(try problems() == [.damaged])
        #expect(try await store.library.apply(plan).restoredAttachments == 1)
        #expect(FileManager.default.contents(atPath: file) == photo)
        #expect(try problems().isEmpty)

        // A missing file.
        try FileManager.default.removeItem(atPath: file)
        #expect(try problems() == [.missing])
        #expect(try await store.library.apply(plan).restoredAttachments == 1)
        #expect(FileManager.default.contents(atPath: file) == photo)
        #expect(try problems().isEmpty)
        #expect(try await store.library.attachmentData(sha256: SHA256.hex(photo), of: id) == photo)

        // Nothing left to do; the article and its attachment rows are the ones it had.
        #expect(try await store.library.apply(plan).restoredAttachments == 0)
        #expect(try await store.library.attachments(of: id) == attachmentsBefore)
        let after = try await store.library.article(id)
        #expect(after.localRevision == before.localRevision && after.body == before.body)
    }

    @Test func aReplacedArticleGetsItsDamagedAttachmentFileWrittenBack() async throws {
        let folder = try TemporaryFolder()
        let photo = try ImageSamples.solid("png", width: 200, height: 200, rgb: 0x993366, noise: true)
        let (url, store, ids) = try await archive([("Pictured", ["photo.png": photo])], in: folder)
        let id = try #require(ids.first)
        let file = try #require(store.library.container.persistentStore.externalBinaries).path(of: SHA256.hex(photo))
        // The library's text moved on; the archive brings the older one back with its image.
        try await store.library.editArticle(id, body: try await store.library.article(id).body + "More.\n")
        try FileManager.default.removeItem(atPath: file)

        let scan = try await ImportScan.read([url])
        let plan = ImportPlan(scan: scan, library: try await store.library.importContents(for: scan), onExisting: .replace)
        let result = try await store.library.apply(plan)
        #expect(result.replaced == 1 && result.restoredAttachments == 1)
        #expect(FileManager.default.contents(atPath: file) == photo)
        #expect(try AttachmentProblem.all(inLibraryAt: store.library.url).isEmpty)
    }
}
