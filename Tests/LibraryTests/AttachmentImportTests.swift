import Foundation
import Platform
import Testing
@testable import Library
@testable import Transfer
import QuireTestSupport

/// Importing attachments into a library that has the articles already, and archives holding an
/// attachment larger than a library takes.
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
}
