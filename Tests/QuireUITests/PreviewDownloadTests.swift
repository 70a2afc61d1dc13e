import Foundation
import Library
import Synchronization
import Platform
import SyncTestSupport
import QuireTestSupport
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

    /// Another device adds the article "Harbour" showing `image` and syncs it; the library at `url`
    /// pulls the article and downloads nothing (the image is over the eager limit, 10 MiB), and
    /// is signed in to `server` for the app.
    private func pull(_ image: Data, as reference: AttachmentReference, of articleID: UUID, from server: TestServer, token: String, into url: URL) throws {
        let source = try makeTemporaryFolder().appending(path: "source.quire")
        let configuration = SyncWorkerConfiguration(server: server.url())
        try blocking {
            let library = try Library(url: source)
            _ = try await library.createArticle(ArticleContent(title: "Harbour", body: ""), id: articleID)
            try await library.addAttachment(to: articleID, fileName: reference.fileName, data: image)
            try await library.editArticle(articleID, body: "![poster](\(reference.uri))\n")
            _ = try await SyncWorker(library: library, transport: server.transport(token: token), configuration: configuration).synchronize(settling: 2)
        }
        try blocking {
            let library = try Library(url: url)
            _ = try await SyncWorker(library: library, transport: server.transport(token: token), configuration: configuration).synchronize(settling: 2)
            let held = try await library.attachments(of: articleID)
            XCTAssertEqual(held.count, 0)
        }
        try AccountSettings(libraryURL: url, keyring: nil).save(SyncAccount(server: server.url(), token: token))
    }

    func testThePreviewFetchesAnImageThePullLeftAndSaysWhyWhenItCannot() throws {
        let server = try TestServer()
        let stop = Once()
        defer { stop.run { server.stop() } }
        let token = try server.addAccount()
        let articleID = UUID()
        let poster = Self.paddedSVG(11 * 1024 * 1024)
        let posterReference = AttachmentReference(sha256: SHA256.hex(poster), fileName: "poster.svg")
        let url = try makeTemporaryFolder().appending(path: "library.quire")
        try pull(poster, as: posterReference, of: articleID, from: server, token: token, into: url)

        drive(url) { window in
            let preview = try await self.showHarboursPreview(in: window)
            XCTAssertNotNil(window.sync.worker)
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
            // A framed sentence (which sentence for which answer is ArticlePreviewTests' part),
            // drawn at its own size in the window's preview column, where a broken image would be 0 × 0.
            let answer = await window.editor.attachments.store?.find(offline)
            XCTAssertEqual(answer, .worker(.unreachable))
            try await self.assertDrawnAtItsSize(document: preview, image: 1, AttachmentPlaceholder.sentence(for: offline, .worker(.unreachable)))
        }
    }

    /// Starts syncing, opens "Harbour" in a window wide enough for a preview column wider than a
    /// placeholder (the page scales a wider picture down to the column, as it does every image),
    /// and shows its preview once its one image is done loading.
    @MainActor
    private func showHarboursPreview(in window: MainWindow) async throws -> ArticlePreview {
        await window.startSyncing()
        try await until { window.articleList.count == 1 }
        try open("Harbour", in: window)
        try await resize(window, to: 1400)
        XCTAssertTrue(window.editor.actions.activateAction(named: "preview"))
        let preview = try XCTUnwrap(window.editor.preview)
        try await until { (try? await preview.evaluate("document.images.length === 1 && document.images[0].complete")) == "true" }
        return preview
    }

    /// The placeholder for `sentence` is image `index` of the preview's page, drawn at the size it
    /// declares. (The page's `img { max-width: 100% }` scales a picture wider than the column
    /// down; WebKit then reports the drawn size as an SVG's natural size too.)
    @MainActor
    private func assertDrawnAtItsSize(document preview: ArticlePreview, image index: Int, _ sentence: String, line: UInt = #line) async throws {
        let size = AttachmentPlaceholder.size(of: sentence)
        let drawn = try await preview.evaluate(
            "(i => [i.naturalWidth, i.naturalHeight, i.width, i.height])(document.images[\(index)])")
        XCTAssertEqual(drawn, "[\(size.width),\(size.height),\(size.width),\(size.height)]", line: line)
    }

    /// A library that cannot store what the server brings (its disk is full) says so in the
    /// image's place, with the reason, where it showed nothing, as if no account synced.
    func testAnImageTheLibraryCannotStoreIsASentenceSayingWhy() throws {
        let mount = try ScratchMount(megabytes: 10)
        defer { mount.unmount() }
        let server = try TestServer()
        defer { server.stop() }
        let token = try server.addAccount()
        let articleID = UUID()
        let poster = Self.paddedSVG(11 * 1024 * 1024)
        let posterReference = AttachmentReference(sha256: SHA256.hex(poster), fileName: "poster.svg")
        let url = mount.url.appending(path: "library.quire")
        try pull(poster, as: posterReference, of: articleID, from: server, token: token, into: url)

        drive(url) { window in
            let preview = try await self.showHarboursPreview(in: window)
            let answer = await window.editor.attachments.store?.find(posterReference)
            guard case .libraryFailed(let explanation)? = answer else { return XCTFail(String(describing: answer)) }
            XCTAssertEqual(explanation.sentence, "Quire could not store an attachment’s file beside the library: No space left on device.")
            try await self.assertDrawnAtItsSize(document: preview, image: 0, AttachmentPlaceholder.sentence(for: posterReference, .libraryFailed(explanation)))
            let held = try await window.library.attachments(of: articleID)
            XCTAssertEqual(held.count, 0)
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
