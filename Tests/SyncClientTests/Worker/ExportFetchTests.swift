import Foundation
import Library
import ObjectGraph
import Platform
import SyncProtocol
import SyncTestSupport
import Testing
@testable import SyncClient

/// `quire export` on a library with a sync account: attachments a pull left to download on first
/// use are downloaded from the real `quire-server` (hash-checked, kept in the library) before the
/// export is written, and those that cannot be had are named with why.
@Suite struct ExportFetchTests {
    @Test(.timeLimit(.minutes(2)))
    func exportDownloadsWhatThePullLeftAndNamesWhatCannotBeHad() async throws {
        let quire = try #require(QuireCommand(), "quire is not built beside the tests")
        let server = try TestServer()
        var serving = true
        defer { if serving { server.stop() } }
        let token = try server.addAccount()
        let a = try ClientLibrary("export-fetch-a")
        let b = try ClientLibrary("export-fetch-b")
        defer { a.remove(); b.remove() }
        // Files other than images wait for their first use after a pull.
        let table = Data((0..<20_000).map { "row \($0);\($0 &* 7)\n" }.joined().utf8)
        let sheet = Data((0..<9_000).map { "cell \($0)\n" }.joined().utf8)
        let (tableArticle, tableReference) = try await AttachmentSyncTests.articleWithImage(on: a, table, name: "table.csv")
        let (sheetArticle, sheetReference) = try await AttachmentSyncTests.articleWithImage(on: a, sheet, name: "sheet.txt")
        try await a.sync(server, token: token)
        try await b.sync(server, token: token)
        #expect(try await b.library.attachments(of: tableArticle).isEmpty)
        #expect(try await b.library.attachments(of: sheetArticle).isEmpty)
        // A reference typed by hand, to bytes nobody has.
        let typed = AttachmentReference(sha256: SHA256.hex(Data("nobody has these".utf8)), fileName: "typed.png")
        let typedArticle = try await b.library.createArticle(ArticleContent(title: "Typed", body: "![t](\(typed.uri))\n"))
        try AccountSettings(libraryURL: b.library.url, keyring: nil)
            .save(SyncAccount(server: URL(string: "http://127.0.0.1:\(server.port)")!, token: token))

        // Online: the table comes down before the export is written; the typed one is named.
        let out = b.folder.appending(path: "export")
        let scope = "selected:" + [tableArticle, typedArticle.id].map { $0.uuidString.lowercased() }.joined(separator: ",")
        let online = try await quire.run(["export", "--format", "md", "--scope", scope, "--out", out.path, "--json"], library: b.library.url)
        #expect(online.status == 0, "\(online.error)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(online.output.utf8)) as? [String: Any])
        #expect(report["articles"] as? Int == 2)
        #expect(report["unavailableAttachments"] as? [String] == ["typed.png in “Typed”: neither the library nor the sync server holds these bytes"])
        #expect(online.error.contains("Not exported: typed.png"))
        let written = try #require(FileManager.default.contents(atPath: out.appending(path: "assets/table.csv").path))
        #expect(SHA256.hex(written) == tableReference.sha256)
        #expect(try await b.library.attachmentData(sha256: tableReference.sha256, of: tableArticle) == table)
        // The sheet was not in the export's scope: not fetched.
        #expect(try await b.library.attachments(of: sheetArticle).isEmpty)

        // With the server gone, what the library lacks is named as unreachable; the export is written.
        server.stop()
        serving = false
        let offlineOut = b.folder.appending(path: "export-offline")
        let offline = try await quire.run(["export", "--format", "md", "--out", offlineOut.path, "--json"], library: b.library.url)
        #expect(offline.status == 0, "\(offline.error)")
        let offlineReport = try #require(try JSONSerialization.jsonObject(with: Data(offline.output.utf8)) as? [String: Any])
        let unreachable = "the library lacks these bytes and the sync server could not be reached"
        #expect(Set(offlineReport["unavailableAttachments"] as? [String] ?? [])
                == ["sheet.txt in “With a picture”: \(unreachable)", "typed.png in “Typed”: \(unreachable)"])
        #expect(FileManager.default.contents(atPath: offlineOut.appending(path: "assets/table.csv").path) == table)
        #expect(FileManager.default.fileExists(atPath: offlineOut.appending(path: "assets/sheet.txt").path) == false)
        #expect(sheetReference.fileName == "sheet.txt")
    }

    @Test(.timeLimit(.minutes(2)))
    func bytesTheLibraryCannotStoreAreNamedWithWhyAndTheOthersStillCome() async throws {
        let quire = try #require(QuireCommand(), "quire is not built beside the tests")
        let server = try TestServer()
        defer { server.stop() }
        let token = try server.addAccount()
        let a = try ClientLibrary("export-unstored-a")
        let b = try ClientLibrary("export-unstored-b")
        defer { a.remove(); b.remove() }
        // Past the inline limit, the bytes go to a file beside the library; under it, into a row.
        let large = Data((0..<20_000).map { "row \($0)\n" }.joined().utf8)
        let small = Data("a short note\n".utf8)
        #expect(large.count > LibrarySchema.attachmentInlineLimit && small.count < LibrarySchema.attachmentInlineLimit)
        // One body, the large file first: it is asked for, and fails, before the small one.
        let article = try await a.library.createArticle(ArticleContent(title: "Two files", body: ""))
        let largeFile = try await a.library.addAttachment(to: article.id, fileName: "large.csv", data: large)
        let smallFile = try await a.library.addAttachment(to: article.id, fileName: "small.txt", data: small)
        try await a.library.editArticle(article.id, body: [largeFile, smallFile].map { $0.reference.markdown(mediaType: $0.mediaType) }.joined(separator: "\n\n"))
        try await a.sync(server, token: token)
        try await b.sync(server, token: token)
        // Where the large file's bytes would go is a file: the library cannot store them.
        let external = URL(fileURLWithPath: b.library.url.path + ExternalBinaryFolder.suffix)
        try? FileManager.default.removeItem(at: external)
        #expect(FileManager.default.createFile(atPath: external.path, contents: Data("in the way".utf8)))
        try AccountSettings(libraryURL: b.library.url, keyring: nil)
            .save(SyncAccount(server: URL(string: "http://127.0.0.1:\(server.port)")!, token: token))

        let out = b.folder.appending(path: "export")
        let run = try await quire.run(
            ["export", "--format", "md", "--scope", "selected:" + article.id.uuidString.lowercased(), "--out", out.path, "--json"], library: b.library.url)
        #expect(run.status == 0, "\(run.error)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any])
        let unavailable = report["unavailableAttachments"] as? [String] ?? []
        #expect(unavailable.count == 1, "\(unavailable)")
        #expect(unavailable.first?.hasPrefix("large.csv in “Two files”: the library could not read or store these bytes: ") == true,
                "\(unavailable)")
        // The failure is this file's alone: the other still came down and was exported.
        #expect(try await b.library.attachments(of: article.id).map(\.fileName) == ["small.txt"])
        #expect(FileManager.default.contents(atPath: out.appending(path: "assets/small.txt").path) == small)
    }
}
