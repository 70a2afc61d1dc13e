import CGtk
import Foundation
import GtkKit
import Library
import Transfer
import XCTest

@testable import QuireUI

/// The import dialog under Xvfb, with the files answered in place of the native file chooser:
/// the preview of creations, changes and failures, the one question about existing articles,
/// importing, Cancel, and the toast.
final class ImportDialogTests: TransferTestCase, @unchecked Sendable {
    @MainActor
    private func makeDialog(_ library: Library, choosing urls: [URL]) throws -> ImportDialog {
        let host = makeHost()
        let dialog = try ImportDialog(library: library, over: host.window, toastOverlay: host.toastOverlay, fileChooser: .answering(urls))
        dialog.present()
        return dialog
    }

    /// A library with "Alpha" exported to Markdown in `folder`, then edited there, beside a new
    /// file without front matter, a file that is not UTF-8 and a `.json` that is not an archive.
    private func makeImportFolder() throws -> (Library, ArticleSnapshot, URL) {
        let library = try makeLibrary()
        let folder = try makeTemporaryFolder().appending(path: "incoming")
        let alpha = try MainActor.assumeIsolated {
            try wait {
                let alpha = try await library.createArticle(ArticleContent(title: "Alpha", body: "# Alpha\n\nOld text.\n", tags: ["notes"]))
                try await library.export(.library, with: ExportJob(format: .markdown, destination: folder))
                return alpha
            }
        }
        let alphaFile = folder.appending(path: "Alpha.md")
        let exported = try String(contentsOf: alphaFile, encoding: .utf8)
        try exported.replacingOccurrences(of: "Old text.", with: "New text.").write(to: alphaFile, atomically: true, encoding: .utf8)
        try "# Fresh Idea\n\nWritten elsewhere.\n".write(to: folder.appending(path: "fresh.md"), atomically: true, encoding: .utf8)
        try Data([0x23, 0x20, 0xFF, 0xFE, 0x0A]).write(to: folder.appending(path: "latin1.md"))
        try #"{"hello": "world"}"#.write(to: folder.appending(path: "other.json"), atomically: true, encoding: .utf8)
        return (library, alpha, folder)
    }

    func testPreviewListsCreationsChangesAndFailuresAndImportingAppliesThem() throws {
        let (library, alpha, folder) = try makeImportFolder()
        try MainActor.assumeIsolated {
            let dialog = try makeDialog(library, choosing: [folder])
            XCTAssertFalse(dialog.actions.action(named: "import")!.isEnabled, "nothing to import before files are chosen")
            XCTAssertTrue(dialog.actions.activateAction(named: "choose-folder"))
            spinMainLoop { dialog.preview != nil || dialog.outcome != nil }
            let preview = try XCTUnwrap(dialog.preview)

            XCTAssertEqual(dialog.policy, .skip, "existing articles are skipped unless the writer says otherwise")
            XCTAssertEqual(preview.lines.map(\.kind), [.skip, .create])
            XCTAssertEqual(preview.lines.map(\.title), ["Alpha", "Fresh Idea"])
            XCTAssertEqual(preview.failures.map(\.title), ["latin1.md", "other.json"])
            XCTAssertEqual(preview.failures.map(\.detail), ["not UTF-8 text", "not a Quire archive"])
            XCTAssertTrue(dialog.existingGroup.isVisible, "the question is asked: Alpha exists with other content")
            XCTAssertEqual(dialog.articleRows.map { $0.property("title", as: String.self) }, ["Alpha", "Fresh Idea"])
            XCTAssertEqual(dialog.failureRows.count, 2)
            XCTAssertEqual(preview.headline, "1 new article, 1 skipped, 2 cannot be imported")

            dialog.policy = .replace
            let replacing = try XCTUnwrap(dialog.preview)
            XCTAssertEqual(replacing.lines.first?.kind, .replace)
            XCTAssertEqual(replacing.lines.first?.detail, "Replaces the library’s version: text")
            XCTAssertEqual(dialog.articleRows.first?.property("subtitle", as: String.self), "Replaces the library’s version: text")

            XCTAssertTrue(dialog.actions.activateAction(named: "import"))
            spinMainLoop { dialog.outcome != nil }
            XCTAssertEqual(dialog.outcome, .imported(articles: 2, failures: 2))
            XCTAssertFalse(dialog.window.isOpen)
            XCTAssertEqual(dialog.toast.map { String(cString: adw_toast_get_title($0.toast.opaquePointer)) },
                           "Imported 2 articles; 2 files could not be imported")

            let (replaced, titles) = try wait {
                (try await library.article(alpha.id), try await library.articles(matching: ArticleQuery()).map(\.title).sorted())
            }
            XCTAssertEqual(replaced.body, "# Alpha\n\nNew text.\n")
            XCTAssertEqual(titles, ["Alpha", "Fresh Idea"])
        }
    }

    func testTheQuestionAboutExistingArticlesIsAskedOnlyWhenItMatters() throws {
        let library = try makeLibrary()
        let folder = try makeTemporaryFolder().appending(path: "fresh")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "# Only New\n".write(to: folder.appending(path: "new.md"), atomically: true, encoding: .utf8)
        try MainActor.assumeIsolated {
            let dialog = try makeDialog(library, choosing: [folder.appending(path: "new.md")])
            XCTAssertTrue(dialog.actions.activateAction(named: "choose-files"))
            spinMainLoop { dialog.preview != nil }
            XCTAssertFalse(dialog.existingGroup.isVisible)
            XCTAssertFalse(dialog.failuresGroup.isVisible)
            XCTAssertEqual(dialog.preview?.lines.map(\.detail), ["New article outside any folder"])
        }
    }

    func testImportingACopyKeepsTheOriginal() throws {
        let (library, alpha, folder) = try makeImportFolder()
        try MainActor.assumeIsolated {
            let dialog = try makeDialog(library, choosing: [folder.appending(path: "Alpha.md")])
            dialog.read([folder.appending(path: "Alpha.md")])
            spinMainLoop { dialog.preview != nil }
            dialog.policy = .copy
            XCTAssertEqual(dialog.preview?.lines.map(\.kind), [.copy])
            dialog.importPlan()
            spinMainLoop { dialog.outcome != nil }
            XCTAssertEqual(dialog.outcome, .imported(articles: 1, failures: 0))
            let bodies = try wait {
                let summaries = try await library.articles(matching: ArticleQuery())
                var bodies: [String] = []
                for summary in summaries { bodies.append(try await library.article(summary.id).body) }
                return bodies.sorted()
            }
            XCTAssertEqual(bodies, ["# Alpha\n\nNew text.\n", "# Alpha\n\nOld text.\n"])
            XCTAssertEqual(try wait { try await library.article(alpha.id).body }, "# Alpha\n\nOld text.\n")
        }
    }

    func testCancellingAnImportKeepsTheSavedBatchesAndSaysHowMany() throws {
        let source = try makeLibrary()
        let archive = try makeTemporaryFolder().appending(path: "demo.json")
        let library = try makeLibrary()
        // Before any window, without the main loop's watchdog (``ExportDialogTests``' cancel test says why).
        let total = try blocking {
            try await source.addDemoArticles(count: 3000)
            let options = try await source.archiveOptions()
            return try await source.export(.library, with: ExportJob(format: .jsonArchive(options), destination: archive)).articleCount
        }
        XCTAssertGreaterThan(total, 2000)
        try MainActor.assumeIsolated {
            let dialog = try makeDialog(library, choosing: [archive])
            dialog.read([archive])
            spinMainLoop { dialog.preview != nil }
            XCTAssertEqual(dialog.preview?.writeCount, total)
            XCTAssertEqual(dialog.preview?.moreLines, total - ImportPreview.lineLimit)
            dialog.importPlan()
            spinMainLoop { dialog.progressBar.property("fraction", as: Double.self) > 0 || dialog.outcome != nil }
            XCTAssertTrue(dialog.actions.activateAction(named: "cancel"))
            spinMainLoop { dialog.outcome != nil }
            guard case .cancelled(let saved) = dialog.outcome else { return XCTFail(String(describing: dialog.outcome)) }
            XCTAssertGreaterThan(saved, 0)
            XCTAssertLessThan(saved, total)
            XCTAssertEqual(saved % ImportDialog.batchSize, 0, "whole batches")
            XCTAssertEqual(try wait { try await library.count(matching: ArticleQuery()) }, saved, "the toast's count is the truth")
            XCTAssertEqual(dialog.toast.map { String(cString: adw_toast_get_title($0.toast.opaquePointer)) },
                           "Import cancelled after \(saved) articles")
        }
    }
}
