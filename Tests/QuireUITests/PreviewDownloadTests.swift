import Foundation
import Library
import Synchronization
import Platform
import SyncTestSupport
import XCTest

@testable import QuireUI
@testable import SyncClient

/// The app's preview and a real `quire-server` on loopback: an image a pull left to download on
/// first use (larger than the eager limit) is fetched through the window's sync worker when the
/// preview shows it, stored in the library, and drawn; once the server is gone, an image that
/// cannot be fetched is a sentence saying so, not a wait.
final class PreviewDownloadTests: MainWindowTestCase, @unchecked Sendable {
    /// An SVG 40 × 30 pixels, padded past `size` bytes with a comment (so that it is larger than
    /// the worker's eager limit).
    private static func paddedSVG(_ size: Int) -> Data {
        let padding = String(repeating: "padding ", count: size / 8 + 1)
        return Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="teal"/><!-- \#(padding) --></svg>"#.utf8)
    }

    func testThePreviewFetchesAnImageThePullLeftAndSaysWhyWhenItCannot() throws {
        let server = try TestServer()
        let stop = Once()
        defer { stop.run { server.stop() } }
        let token = try server.addAccount()
        let articleID = UUID()
        let poster = Self.paddedSVG(11 * 1024 * 1024)
        let posterReference = AttachmentReference(sha256: SHA256.hex(poster), fileName: "poster.svg")
        let serverURL = server.url()

        // Another device adds the article with its image and syncs it.
        let source = try makeTemporaryFolder().appending(path: "source.quire")
        try blocking {
            let library = try Library(url: source)
            _ = try await library.createArticle(ArticleContent(title: "Harbour", body: ""), id: articleID)
            try await library.addAttachment(to: articleID, fileName: "poster.svg", data: poster)
            try await library.editArticle(articleID, body: "![poster](\(posterReference.uri))\n")
            let worker = SyncWorker(library: library, transport: server.transport(token: token), configuration: SyncWorkerConfiguration(server: serverURL))
            _ = try await worker.synchronize(settling: 2)
        }
        // This library pulls the article and downloads nothing: the poster is over the eager limit (10 MiB).
        let url = try makeLibrary { library in
            _ = try await SyncWorker(library: library, transport: server.transport(token: token), configuration: SyncWorkerConfiguration(server: serverURL))
                .synchronize(settling: 2)
            let held = try await library.attachments(of: articleID)
            XCTAssertEqual(held.count, 0)
        }
        try AccountSettings(libraryURL: url, keyring: nil).save(SyncAccount(server: serverURL, token: token))

        drive(url) { window in
            await window.startSyncing()
            XCTAssertNotNil(window.sync.worker)
            try await self.until { window.articleList.count == 1 }
            try self.open("Harbour", in: window)
            XCTAssertTrue(window.editor.actions.activateAction(named: "preview"))
            let preview = try XCTUnwrap(window.editor.preview)
            try await self.until { (try? await preview.evaluate("document.images.length === 1 && document.images[0].complete")) == "true" }
            // The poster came from the server through the worker and is the library's now.
            let width = try await preview.evaluate("document.images[0].naturalWidth")
            XCTAssertEqual(width, "40")
            let stored = try await window.library.attachmentData(sha256: posterReference.sha256, of: articleID)
            XCTAssertEqual(stored, poster)

            // Offline: another image shows why it is not there, without waiting for a server.
            stop.run { server.stop() }
            let offline = AttachmentReference(sha256: String(repeating: "ab", count: 32), fileName: "offline.svg")
            let end = window.editor.buffer.characterCount
            window.editor.buffer.select(end..<end)
            window.editor.buffer.replace(window.editor.buffer.selection, with: "\n![o](\(offline.uri))\n")
            // Shown again if the window's layout folded it away meanwhile; showing renders the text.
            if !window.editor.isPreviewShown { XCTAssertTrue(window.editor.actions.activateAction(named: "preview")) }
            try await self.until {
                (try? await preview.evaluate("[document.images.length, Array.from(document.images).every(i => i.complete)]")) == "[2,true]"
            }
            // A framed sentence (which sentence for which answer is ArticlePreviewTests' part): wide
            // and one line high, where a broken image would be 0 × 0.
            let size = try await preview.evaluate("[document.images[1].naturalWidth, document.images[1].naturalHeight]")
            let sides = size.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).split(separator: ",").compactMap { Double($0) }
            XCTAssertEqual(sides.count, 2, size)
            XCTAssertTrue(sides.count == 2 && sides[1] > 0 && sides[0] / sides[1] > 5, size)
            let answer = await window.editor.attachments.store?.find(offline)
            XCTAssertEqual(answer, .unreachable)
        }
    }
}

/// Runs a body once, whoever asks first (the server is stopped by the test or at its end).
private final class Once: Sendable {
    private let done = Mutex(false)

    func run(_ body: () -> Void) {
        let first = done.withLock { done in
            defer { done = true }
            return !done
        }
        if first { body() }
    }
}
