import Foundation
import ObjectGraph
import Platform
import Testing
@testable import Library
import QuireTestSupport

/// Bytes that are what they say they are, for attachment tests.
enum AttachmentSamples {
    /// A PNG signature followed by `bytes` bytes fixed by `seed` (an image for media-type purposes).
    static func png(bytes: Int, seed: UInt64 = 1) -> Data {
        var random = SeededGenerator(seed: seed)
        return Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data((0..<bytes).map { _ in UInt8.random(in: 0...255, using: &random) })
    }
}

/// Attachments in a library: each addition one save, bytes kept whole inline or in a file beside
/// the library, the size limit, removal of what nothing refers to, and `quire check`'s report.
@Suite struct AttachmentTests {
    @Test func anAttachmentKeepsItsBytesInlineOrInAFileBesideTheLibrary() async throws {
        let store = try TemporaryLibrary()
        let article = try await store.library.createArticle(ArticleContent(title: "Pictures", body: ""))
        let large = AttachmentSamples.png(bytes: 200_000)
        let small = AttachmentSamples.png(bytes: 1_000, seed: 2)
        let first = try await store.library.addAttachment(to: article.id, fileName: "photos/large photo.png", data: large)
        let second = try await store.library.addAttachment(to: article.id, fileName: "icon.png", data: small)
        #expect(first.fileName == "large photo.png")
        #expect(first.mediaType == AttachmentMediaType.png && first.size == Int64(large.count) && first.sha256 == SHA256.hex(large))
        #expect(try await store.library.attachments(of: article.id).map(\.sha256) == [first.sha256, second.sha256])

        // Read back from a library opened again: every byte.
        let reopened = try Library(url: store.library.url)
        #expect(try await reopened.attachmentData(sha256: first.sha256, of: article.id) == large)
        #expect(try await reopened.attachmentData(sha256: second.sha256, of: article.id) == small)
        let folder = ExternalBinaryFolder(store: store.library.url)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == [first.sha256], "only the large one has a file")

        // The same bytes again give the attachment there is.
        #expect(try await store.library.addAttachment(to: article.id, fileName: "again.png", data: large) == first)
    }

    @Test func aFileOverTheLimitIsRefusedWithItsSizeAndNothingIsAdded() async throws {
        let store = try TemporaryLibrary()
        let article = try await store.library.createArticle(ArticleContent(title: "Big", body: ""))
        let tooLarge = Data(count: Library.attachmentSizeLimit + 1)
        await #expect(throws: LibraryError.attachmentTooLarge(fileName: "huge.tiff", size: tooLarge.count, limit: Library.attachmentSizeLimit)) {
            try await store.library.addAttachment(to: article.id, fileName: "huge.tiff", data: tooLarge)
        }
        #expect(LibraryError.attachmentTooLarge(fileName: "huge.tiff", size: tooLarge.count, limit: Library.attachmentSizeLimit)
            .description.contains("larger than the 26.2\u{00A0}MB"))
        #expect(try await store.library.attachments(of: article.id).isEmpty)
        let exact = try await store.library.addAttachment(to: article.id, fileName: "exact.bin", data: Data(count: Library.attachmentSizeLimit))
        #expect(exact.mediaType == AttachmentMediaType.other)
    }

    @Test func cleanupRemovesOnlyAttachmentsNoTextOfTheirArticleRefersTo() async throws {
        let store = try TemporaryLibrary()
        let library = store.library
        let article = try await library.createArticle(ArticleContent(title: "Cleanup", body: ""))
        let kept = try await library.addAttachment(to: article.id, fileName: "kept.png", data: AttachmentSamples.png(bytes: 100_000, seed: 1))
        let inHistory = try await library.addAttachment(to: article.id, fileName: "old.png", data: AttachmentSamples.png(bytes: 100_000, seed: 2))
        let dropped = try await library.addAttachment(to: article.id, fileName: "dropped.png", data: AttachmentSamples.png(bytes: 100_000, seed: 3))
        // The old image was in an earlier version of the text; the dropped one never was saved in any.
        try await library.editArticle(article.id, body: inHistory.reference.markdown(mediaType: inHistory.mediaType) + "\n")
        _ = try await library.endEditingSession(of: article.id)
        try await library.editArticle(article.id, body: "Now: " + kept.reference.markdown(mediaType: kept.mediaType) + "\n")

        #expect(try await library.removeUnreferencedAttachments() == 1)
        #expect(Set(try await library.attachments(of: article.id).map(\.sha256)) == [kept.sha256, inHistory.sha256])
        let folder = ExternalBinaryFolder(store: library.url)
        #expect(!FileManager.default.fileExists(atPath: folder.path(of: dropped.sha256)))
        #expect(FileManager.default.fileExists(atPath: folder.path(of: kept.sha256)))

        // Emptying the trash takes the article's attachments and their files with it.
        try await library.moveToTrash([article.id])
        _ = try await library.emptyTrash()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
        #expect(try store.inspect { try $0.count(for: FetchRequest<StoredAttachment>()) } == 0)
    }

    @Test func checkReportsAFlippedByteAndAMissingFileWithTheirArticles() async throws {
        let store = try TemporaryLibrary()
        let library = store.library
        let article = try await library.createArticle(ArticleContent(title: "Figures", body: ""))
        let flipped = try await library.addAttachment(to: article.id, fileName: "flipped.png", data: AttachmentSamples.png(bytes: 100_000, seed: 1))
        let missing = try await library.addAttachment(to: article.id, fileName: "missing.png", data: AttachmentSamples.png(bytes: 100_000, seed: 2))
        let fine = try await library.addAttachment(to: article.id, fileName: "fine.png", data: AttachmentSamples.png(bytes: 100_000, seed: 3))
        library.close()
        #expect(LibraryCheck.run(library.url).attachmentProblems.isEmpty)

        let folder = ExternalBinaryFolder(store: library.url)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: folder.path(of: flipped.sha256)))
        bytes[5_000] ^= 0x20
        try bytes.write(to: URL(fileURLWithPath: folder.path(of: flipped.sha256)))
        try FileManager.default.removeItem(atPath: folder.path(of: missing.sha256))

        let check = LibraryCheck.run(library.url)
        #expect(check.classification == .ok)
        #expect(check.attachmentProblems.map(\.kind) == [.damaged, .missing])
        #expect(check.attachmentProblems.map(\.attachment.fileName) == ["flipped.png", "missing.png"])
        #expect(check.attachmentProblems.allSatisfy { $0.attachment.article == article.id && $0.articleTitle == "Figures" })
        #expect(check.attachmentProblems.map(\.path) == [folder.path(of: flipped.sha256), folder.path(of: missing.sha256)])
        #expect(!check.attachmentProblems.contains { $0.attachment.sha256 == fine.sha256 })

        // `quire check` says so, names the articles, and fails.
        let run = try QuireCommand.run(["check", "--library", library.url.path])
        #expect(run.status == 1)
        let id = article.id.uuidString.lowercased()
        #expect(run.output.contains("attachment: flipped.png in “Figures” (\(id)): its bytes changed after it was added"), "\(run.output)")
        #expect(run.output.contains("attachment: missing.png in “Figures” (\(id)): its file is missing"), "\(run.output)")
    }

    @Test func aRecoveredLibraryKeepsItsAttachmentsAndTheQuarantinedOneKeepsItsOwnLinks() async throws {
        let folder = try TemporaryFolder()
        let url = folder.appending("library.quire")
        let image = AttachmentSamples.png(bytes: 150_000)
        let article: UUID
        do {
            let library = try Library(url: url)
            article = try await library.createArticle(ArticleContent(title: "With a figure", body: "")).id
            _ = try await library.addAttachment(to: article, fileName: "figure.png", data: image)
            library.close()
        }
        let page = try #require(try StoreDamage.pages(of: "og_unique_Article_id", type: "leaf", in: url).first)
        try StoreDamage.flipBytes(inPage: page.page, of: url, skip: 8)

        let report = try await LibraryRecovery.recover(libraryAt: url)
        let recovered = try await Library.open(at: url)
        #expect(try await recovered.attachmentData(sha256: SHA256.hex(image), of: article) == image)
        let quarantined = ExternalBinaryFolder(store: report.quarantine.appendingPathComponent("library.quire"))
        #expect(try quarantined.contents(of: SHA256.hex(image)) == image)

        // Whatever the recovered library later collects, the quarantined copy keeps its image.
        try await recovered.moveToTrash([article])
        _ = try await recovered.emptyTrash()
        #expect(!FileManager.default.fileExists(atPath: ExternalBinaryFolder(store: url).path(of: SHA256.hex(image))))
        #expect(try quarantined.contents(of: SHA256.hex(image)) == image)
    }

    @Test func mediaTypesComeFromTheBytes() {
        #expect(AttachmentMediaType.of(AttachmentSamples.png(bytes: 4)) == AttachmentMediaType.png)
        #expect(AttachmentMediaType.of(Data([0xFF, 0xD8, 0xFF, 0xE0, 0, 0])) == AttachmentMediaType.jpeg)
        #expect(AttachmentMediaType.of(Data("GIF89a....".utf8)) == AttachmentMediaType.gif)
        #expect(AttachmentMediaType.of(Data("RIFF\u{1}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)) == AttachmentMediaType.webP)
        #expect(AttachmentMediaType.of(Data("\u{FEFF}<?xml version=\"1.0\"?>\n<!-- drawn -->\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8)) == AttachmentMediaType.svg)
        #expect(AttachmentMediaType.of(Data("<html><svg/></html>".utf8)) == AttachmentMediaType.other)
        #expect(AttachmentMediaType.of(Data("%PDF-1.7".utf8)) == AttachmentMediaType.other)
        #expect(AttachmentMediaType.of(Data()) == AttachmentMediaType.other)
    }

    @Test func referencesRoundTripThroughMarkdown() {
        let digest = SHA256.hex(Data("x".utf8))
        let reference = AttachmentReference(sha256: digest, fileName: "my figure (final) [2].png")
        #expect(reference.uri == "attachment:\(digest)/my%20figure%20%28final%29%20%5B2%5D.png")
        #expect(AttachmentReference(uri: reference.uri) == reference)
        let image = reference.markdown(mediaType: AttachmentMediaType.png)
        #expect(image == "![my figure (final) \\[2\\].png](\(reference.uri))")
        #expect(reference.markdown(mediaType: AttachmentMediaType.other).hasPrefix("[my figure"))
        let other = AttachmentReference(sha256: SHA256.hex(Data("y".utf8)), fileName: "notes.txt")
        let text = "Intro \(image) and [notes](\(other.uri)) and again \(image).\nattachment:nothex/x.png"
        #expect(AttachmentReference.all(in: text) == [reference, other])
        #expect(AttachmentReference(uri: "attachment:\(digest)/") == nil)
        #expect(AttachmentReference(uri: "https://example.com/a.png") == nil)
        #expect(Library.attachmentName("../../etc/passwd") == "passwd" && Library.attachmentName("\u{7}") == "attachment")
    }

    @Test func referencesAreFoundWhereTheyStandAfterAnyText() {
        let first = AttachmentReference(sha256: SHA256.hex(Data("x".utf8)), fileName: "café.png")
        let second = AttachmentReference(sha256: SHA256.hex(Data("y".utf8)), fileName: "b.png")
        // Characters of two, three and four bytes and a combining mark before, between and after;
        // a scheme that is no reference; the last reference ends the text.
        let text = "Ünïcode 日本 👩‍👩‍👧 e\u{301} ![a](\(first.uri)) attachment:attachment:zz/x 🎉(\(second.uri)) \(second.uri)"
        let found = AttachmentReference.occurrences(in: text)
        #expect(found.map(\.reference) == [first, second, second])
        #expect(found.map { String(text[$0.range]) } == [first.uri, second.uri, second.uri])
        #expect(found.last?.range.upperBound == text.endIndex)
        #expect(AttachmentReference.occurrences(in: "").isEmpty && AttachmentReference.occurrences(in: "attachment").isEmpty)
        #expect(AttachmentReference.all(in: text) == [first, second])
    }
}
