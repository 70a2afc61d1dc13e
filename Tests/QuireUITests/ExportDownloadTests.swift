import Foundation
import GtkKit
import Library
import Platform
import SyncServer
import SyncTestSupport
import QuireTestSupport
import XCTest

@testable import QuireUI
@testable import SyncClient

/// The Export dialog of a library that syncs with a real `quire-server` on loopback, its images
/// left on the server by the pull: picking the articles asks the server which attachments it has
/// (`HEAD`) and downloads nothing; the export downloads them (the written files hold the same
/// bytes); one that neither the library nor the server has is named before and after the export,
/// which does not fail for it; one the library cannot store is named with the reason.
final class ExportDownloadTests: TransferTestCase, @unchecked Sendable {
    private static let chart = Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><rect width="40" height="30" fill="teal"/></svg>"#.utf8)
    /// A reference typed by hand, to bytes nobody has.
    private static let lost = AttachmentReference(sha256: String(repeating: "cd", count: 32), fileName: "lost chart.png")

    /// A server with its metrics on a port of their own, and an account's token.
    private func makeServer() throws -> (TestServer, String) {
        let server = try TestServer { $0.metricsListen = ListenAddress(host: "127.0.0.1", port: 0) }
        return (server, try server.addAccount())
    }

    /// Another device's article "Harbour" with `images` (by name) synced to `server`, then pulled
    /// into a new library at `url` without them (nothing is downloaded at once); that library also
    /// has an article of its own referring to ``lost``. Answers the references to the images.
    @discardableResult
    private func pulledLibrary(at url: URL, from server: TestServer, token: String, images: KeyValuePairs<String, Data>) throws -> [AttachmentReference] {
        let source = try makeTemporaryFolder().appending(path: "source.quire")
        let configuration = Self.lazyConfiguration(server)
        let images = Array(images)
        let references = try blocking {
            let library = try Library(url: source)
            let article = try await library.createArticle(ArticleContent(title: "Harbour", body: ""))
            var references: [AttachmentReference] = []
            for (name, image) in images {
                references.append(try await library.addAttachment(to: article.id, fileName: name, data: image).reference)
            }
            try await library.editArticle(article.id, body: references.map { "![\($0.fileName)](\($0.uri))\n" }.joined(separator: "\n"))
            _ = try await SyncWorker(library: library, transport: server.transport(token: token), configuration: configuration).synchronize(settling: 2)
            return references
        }
        try blocking {
            let library = try Library(url: url)
            // Made before the sync, so that what its push asks of the server is over before the dialog asks.
            _ = try await library.createArticle(ArticleContent(title: "Typed", body: "![lost](\(Self.lost.uri))\n"))
            _ = try await SyncWorker(library: library, transport: server.transport(token: token), configuration: configuration).synchronize(settling: 2)
        }
        try AccountSettings(libraryURL: url, keyring: nil).save(SyncAccount(server: server.url(), token: token))
        return references
    }

    /// A worker configuration that downloads no attachment during a pull.
    private static func lazyConfiguration(_ server: TestServer) -> SyncWorkerConfiguration {
        var configuration = SyncWorkerConfiguration(server: server.url())
        configuration.eagerAttachmentBytes = 0
        return configuration
    }

    /// The library at `url` signed in to `server`: its session, with the worker running.
    @MainActor
    private func startSession(_ url: URL, server: TestServer, token: String) throws -> (Library, SyncSession) {
        let library = try Library(url: url)
        let configuration = Self.lazyConfiguration(server)
        let session = SyncSession(library: library, settings: AccountSettings(libraryURL: url, keyring: nil)) { library, _ in
            SyncWorker(library: library, transport: server.transport(token: token), configuration: configuration)
        }
        var started: Result<SyncAccount?, any Error>?
        Task { @MainActor in
            do { started = .success(try await session.start()) } catch { started = .failure(error) }
        }
        spinMainLoop { started != nil }
        XCTAssertNotNil(try XCTUnwrap(started).get())
        return (library, session)
    }

    /// Stops `session`'s worker (signing out), before its server stops.
    @MainActor
    private func stop(_ session: SyncSession) {
        var stopped = false
        Task { @MainActor in
            try? await session.signOut()
            stopped = true
        }
        spinMainLoop { stopped }
    }

    /// The Export dialog over `library` syncing through `session`, the whole library picked to
    /// export as Markdown to `folder`, once it has checked the attachments.
    @MainActor
    private func checkedDialog(_ library: Library, _ session: SyncSession, exportingTo folder: URL) throws -> ExportDialog {
        let host = makeHost()
        let dialog = try ExportDialog(
            library: library, over: host.window, toastOverlay: host.toastOverlay, selection: [], folders: [],
            fileChooser: .answering([folder]), attachments: .sync(session))
        dialog.present()
        dialog.choose(scope: .library, format: .markdown)
        spinMainLoop { dialog.unavailable != nil }
        return dialog
    }

    /// How many `method` requests for blobs the server answered (with `status` only, when given),
    /// from its `/metrics`.
    private func blobRequests(_ method: String, status: Int? = nil, on server: TestServer) throws -> Int {
        let port = try XCTUnwrap(server.server.metricsAddress?.port)
        let scrape = try ProgramRun(URL(filePath: "/usr/bin/curl"), ["-sf", "http://127.0.0.1:\(port)/metrics"])
        XCTAssertEqual(scrape.status, 0, scrape.error)
        let prefix = #"quire_requests_total{route="/v1/blobs/{sha256}",method="\#(method)","# + (status.map { #"status="\#($0)""# } ?? "")
        return scrape.output.split(separator: "\n").filter { $0.hasPrefix(prefix) }
            .compactMap { Int($0.split(separator: " ").last ?? "") }.reduce(0, +)
    }

    func testPickingArticlesOnlyAsksTheServerAndTheExportDownloads() throws {
        let (server, token) = try makeServer()
        defer { server.stop() }
        let url = try makeTemporaryFolder().appending(path: "library.quire")
        let chart = try pulledLibrary(at: url, from: server, token: token, images: ["chart.svg": Self.chart])[0]
        let folder = try makeTemporaryFolder().appending(path: "out")
        try MainActor.assumeIsolated {
            let (library, session) = try startSession(url, server: server, token: token)
            defer { stop(session) }
            let headsBefore = try blobRequests("HEAD", on: server)
            let dialog = try checkedDialog(library, session, exportingTo: folder)

            // Only the one nobody has is named; the chart was asked for, not downloaded.
            XCTAssertEqual(dialog.unavailable?.map(\.fileName), ["lost chart.png"])
            XCTAssertTrue(dialog.attachmentsNote.text.contains("“lost chart.png”: neither in this library nor on the server"), dialog.attachmentsNote.text)
            XCTAssertEqual(try blobRequests("GET", on: server), 0)
            XCTAssertGreaterThan(try blobRequests("HEAD", on: server), headsBefore)
            XCTAssertNil(try wait { try await library.attachmentData(sha256: chart.sha256) })

            XCTAssertTrue(dialog.actions.activateAction(named: "export"))
            spinMainLoop { dialog.outcome != nil }
            guard case .exported(let result)? = dialog.outcome else { return XCTFail(String(describing: dialog.outcome)) }
            let leftOut = dialog.leftOut
            XCTAssertEqual(result.articleCount, 2)
            XCTAssertEqual(try Data(contentsOf: folder.appending(path: "assets/chart.svg")), Self.chart, "downloaded and written")
            XCTAssertEqual(try wait { try await library.attachmentData(sha256: chart.sha256) }, Self.chart, "and kept by the library")
            // The chart came down once; the lost one was asked for again, and is not there.
            XCTAssertEqual(try blobRequests("GET", status: 200, on: server), 1)
            XCTAssertEqual(try blobRequests("GET", status: 404, on: server), 1)
            // The export went on without the lost one, and says so.
            XCTAssertEqual(leftOut.map(\.fileName), ["lost chart.png"])
            XCTAssertEqual(result.unavailableAttachments.count, 1)
            XCTAssertTrue(dialog.window.isOpen)
            XCTAssertTrue(dialog.attachmentsNote.text.contains("“lost chart.png”: neither in this library nor on the server"), dialog.attachmentsNote.text)
            dialog.window.destroy()
        }
    }

    /// An image the server has but the library cannot store (its disk is full) is named with
    /// the reason after the export, which writes the rest.
    func testAnAttachmentTheLibraryCannotStoreIsNamedWithWhy() throws {
        let mount = try ScratchMount(megabytes: 6)
        defer { mount.unmount() }
        let (server, token) = try makeServer()
        defer { server.stop() }
        let url = mount.url.appending(path: "library.quire")
        // Larger than the disk's room, so that storing it fails as on a full disk.
        let poster = Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="30"><!-- \#(String(repeating: "padding ", count: 1 << 20)) --></svg>"#.utf8)
        try pulledLibrary(at: url, from: server, token: token, images: ["poster.svg": poster])
        let folder = try makeTemporaryFolder().appending(path: "out")
        try MainActor.assumeIsolated {
            let (library, session) = try startSession(url, server: server, token: token)
            defer { stop(session) }
            let dialog = try checkedDialog(library, session, exportingTo: folder)
            XCTAssertEqual(dialog.unavailable?.map(\.fileName), ["lost chart.png"], "the server has the poster")

            XCTAssertTrue(dialog.actions.activateAction(named: "export"))
            spinMainLoop { dialog.outcome != nil }
            guard case .exported(let result)? = dialog.outcome else { return XCTFail(String(describing: dialog.outcome)) }
            let leftOut = dialog.leftOut
            XCTAssertEqual(result.articleCount, 2)
            XCTAssertEqual(Set(leftOut.map(\.fileName)), ["poster.svg", "lost chart.png"])
            let poster = try XCTUnwrap(leftOut.first { $0.fileName == "poster.svg" })
            guard case .libraryFailed(let explanation)? = poster.answer else { return XCTFail(String(describing: poster.answer)) }
            XCTAssertTrue(dialog.attachmentsNote.text.contains("“poster.svg”: the library could not take it from the server: \(explanation.sentence)"),
                          dialog.attachmentsNote.text)
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appending(path: "assets/poster.svg").path))
            XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appending(path: "Harbour.md").path))
            dialog.window.destroy()
        }
    }

    /// Cancel while the export downloads: it stops there, and nothing is written.
    func testCancelWhileDownloadingWritesNoFiles() throws {
        let (server, token) = try makeServer()
        defer { server.stop() }
        let url = try makeTemporaryFolder().appending(path: "library.quire")
        let second = Data(#"<svg xmlns="http://www.w3.org/2000/svg" width="30" height="40"><rect width="30" height="40" fill="navy"/></svg>"#.utf8)
        try pulledLibrary(at: url, from: server, token: token, images: ["chart.svg": Self.chart, "buoy.svg": second])
        let folder = try makeTemporaryFolder().appending(path: "out")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try MainActor.assumeIsolated {
            let (library, session) = try startSession(url, server: server, token: token)
            defer { stop(session) }
            let dialog = try checkedDialog(library, session, exportingTo: folder)
            XCTAssertTrue(dialog.actions.activateAction(named: "export"))
            // The label changes before each download (the two images and the lost one, asked for
            // again), which then waits for the network.
            spinMainLoop { dialog.progressLabel.text == "Downloading attachments: 1 of 3" || dialog.outcome != nil }
            XCTAssertNil(dialog.outcome, "still downloading")
            XCTAssertTrue(dialog.actions.activateAction(named: "cancel"))
            spinMainLoop { dialog.outcome != nil }
            XCTAssertEqual(dialog.outcome, .cancelled)
            XCTAssertEqual(try contents(of: folder), [], "no exported files")
            XCTAssertTrue(dialog.window.isOpen)
            dialog.window.destroy()
        }
    }

    /// A server gone by the time of the export: what it would have brought is named, and the
    /// export writes the rest.
    func testAServerGoneAtExportIsNamedAndTheRestIsWritten() throws {
        let (server, token) = try makeServer()
        var serverStopped = false
        defer { if !serverStopped { server.stop() } }
        let url = try makeTemporaryFolder().appending(path: "library.quire")
        try pulledLibrary(at: url, from: server, token: token, images: ["chart.svg": Self.chart])
        let folder = try makeTemporaryFolder().appending(path: "out")
        try MainActor.assumeIsolated {
            let (library, session) = try startSession(url, server: server, token: token)
            defer { stop(session) }
            let dialog = try checkedDialog(library, session, exportingTo: folder)
            XCTAssertEqual(dialog.unavailable?.map(\.fileName), ["lost chart.png"])
            server.stop()
            serverStopped = true

            XCTAssertTrue(dialog.actions.activateAction(named: "export"))
            spinMainLoop { dialog.outcome != nil }
            guard case .exported(let result)? = dialog.outcome else { return XCTFail(String(describing: dialog.outcome)) }
            XCTAssertEqual(result.articleCount, 2)
            XCTAssertEqual(Set(dialog.leftOut.map(\.fileName)), ["chart.svg", "lost chart.png"])
            XCTAssertTrue(dialog.leftOut.allSatisfy { $0.answer == .worker(.unreachable) }, "\(dialog.leftOut)")
            XCTAssertTrue(dialog.attachmentsNote.text.contains("“chart.svg”: not downloaded: the server cannot be reached now"), dialog.attachmentsNote.text)
            XCTAssertEqual(try contents(of: folder), ["Harbour.md", "Typed.md"])
            dialog.window.destroy()
        }
    }
}
