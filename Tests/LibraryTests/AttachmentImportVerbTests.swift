import Foundation
import Platform
import QuireTestSupport
import Testing
@testable import Library

/// `quire import` and attachments, end to end through the built `quire`: a file too large for a
/// library is named and left out while its article imports, and an import writes back an
/// attachment whose file was damaged or lost, after which `quire check` is clean.
@Suite struct AttachmentImportVerbTests {
    private let verbs = VerbTests()

    /// A folder with `poster.md` referring to `assets/blue.png` and to `assets/film.mov`, one byte
    /// over the attachment limit (sparse: it is never read).
    private func posterFolder(in folder: TemporaryFolder) throws -> URL {
        let source = folder.appending("poster")
        let assets = source.appendingPathComponent("assets")
        try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
        try ImageSamples.solid("png", width: 10, height: 10, rgb: 0x0000FF).write(to: assets.appendingPathComponent("blue.png"))
        let film = assets.appendingPathComponent("film.mov")
        #expect(FileManager.default.createFile(atPath: film.path, contents: nil))
        let handle = try FileHandle(forWritingTo: film)
        try handle.truncate(atOffset: UInt64(Library.attachmentSizeLimit + 1))
        try handle.close()
        try Data("# Poster\n\n![blue](assets/blue.png)\n\n[The film](assets/film.mov)\n".utf8)
            .write(to: source.appendingPathComponent("poster.md"))
        return source
    }

    @Test func importNamesTheAttachmentItLeftOutAndImportsItsArticle() throws {
        let folder = try TemporaryFolder()
        let source = try posterFolder(in: folder)
        let library = folder.appending("library.quire")

        let run = try verbs.quire(["import", "--json", source.path], library: library)
        #expect(run.status == 1, "something was not imported: \(run.error)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        #expect(json["created"] as? Int == 1)
        let failures = try #require(json["failures"] as? [String])
        #expect(failures.count == 1)
        #expect(failures.first?.contains("assets/film.mov") == true && failures.first?.contains("“Poster”") == true)
        #expect(run.error.contains("film.mov") && run.error.contains("1 attachment was left out"))
        #expect(!run.error.contains("could not be imported"), "no file failed: \(run.error)")

        let listed = try verbs.quire(["list", "--json"], library: library)
        let articles = try #require(try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]])
        let id = try #require(articles.first?["id"] as? String)
        let shown = try verbs.quire(["show", id], library: library)
        #expect(shown.output.contains("[The film](assets/film.mov)"), "the reference text is kept: \(shown.output)")
        #expect(shown.output.contains("](attachment:"), "the image that fits is an attachment: \(shown.output)")

        // Without --json: the summary on standard output, the file named on standard error.
        let text = try verbs.quire(["import", source.path], library: folder.appending("other.quire"))
        #expect(text.status == 1)
        #expect(text.output.hasPrefix("Imported 1 new"))
        #expect(text.error.contains("quire import: \(source.path)/poster.md: “Poster”: the attachment assets/film.mov has"))
    }

    @Test func importWritesBackADamagedOrMissingAttachmentFileAndCheckIsCleanAfterwards() throws {
        let folder = try TemporaryFolder()
        let source = folder.appending("pictured")
        try FileManager.default.createDirectory(at: source, withIntermediateDirectories: true)
        // Random pixels barely compress: over 64 KB, so the library keeps the image in a file.
        let photo = try ImageSamples.solid("png", width: 200, height: 200, rgb: 0x446688, noise: true)
        try photo.write(to: source.appendingPathComponent("photo.png"))
        try Data("# Pictured\n\n![photo](photo.png)\n".utf8).write(to: source.appendingPathComponent("pictured.md"))
        let library = folder.appending("library.quire")
        #expect(try verbs.quire(["import", source.path], library: library).status == 0)
        let exported = folder.appending("exported")
        #expect(try verbs.quire(["export", "--format", "md", "--out", exported.path], library: library).status == 0)
        let file = library.path + ".external/" + SHA256.hex(photo)
        #expect(FileManager.default.contents(atPath: file) == photo)

        func importAgain() throws -> [String: Any] {
            let run = try verbs.quire(["import", "--json", exported.path], library: library)
            #expect(run.status == 0, "\(run.error)")
            return try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        }

        // A flipped byte: `quire check` names it, the import writes the bytes back.
        var damaged = photo
        damaged[damaged.count / 2] ^= 0x01
        try damaged.write(to: URL(fileURLWithPath: file))
        let damagedCheck = try verbs.quire(["check"], library: library)
        #expect(damagedCheck.status == 1 && damagedCheck.output.contains("photo.png"))
        let repaired = try importAgain()
        #expect(repaired["unchanged"] as? Int == 1 && repaired["restoredAttachments"] as? Int == 1)
        #expect(repaired["failures"] as? [String] == [])
        #expect(FileManager.default.contents(atPath: file) == photo)
        let clean = try verbs.quire(["check"], library: library)
        #expect(clean.status == 0, "\(clean.output)\(clean.error)")

        // A missing file, likewise.
        try FileManager.default.removeItem(atPath: file)
        #expect(try verbs.quire(["check"], library: library).status == 1)
        #expect(try importAgain()["restoredAttachments"] as? Int == 1)
        #expect(FileManager.default.contents(atPath: file) == photo)
        #expect(try verbs.quire(["check"], library: library).status == 0)

        // Nothing left to write back.
        #expect(try importAgain()["restoredAttachments"] as? Int == 0)
    }
}
